//! The operations: JSON into typed queries of the library's query layer, answers and verdicts
//! back into JSON. Every op answers through [`touchstone::query::Query`]; nothing here poses a
//! shape or decides a sign.

/// A row of an op's claim table ([`OpJson::CLAIM`]): the claim's member holding the field,
/// whose name is the field's name in the format (as in the library's table of how the field
/// is judged, `Query::CLAIM_RULES`), and its kind: how its value is read and written. Kinds:
/// `bool`, `number` (a JSON number or a rational string), `count` (an integer), `time` (a number, or the output's own
/// `{"decimal", "f64", ...}` form), `features` (a pair `[Fa, Fb]`), `named TABLE` (one of the
/// op's names), and `custom READ, WRITE` for the rest (`READ(fields)` gives the value, if
/// claimed; `WRITE(&value)` its JSON).
macro_rules! claim_field {
    ($field:ident: bool) => {
        claim_field!($field: custom |f| $crate::ops::geometry::claimed_bool(f, stringify!($field)), |b: &bool| serde_json::json!(b))
    };
    ($field:ident: number) => {
        claim_field!($field: custom |f| $crate::ops::geometry::claimed_number(f, stringify!($field)), $crate::ops::num)
    };
    ($field:ident: count) => {
        claim_field!($field: custom |f| $crate::ops::geometry::claimed_count(f, stringify!($field)), |n: &i64| serde_json::json!(n))
    };
    ($field:ident: time) => {
        claim_field!($field: custom |f| $crate::ops::sweep::claimed_time(f, stringify!($field)), $crate::encode::time_claim_json)
    };
    ($field:ident: features) => {
        claim_field!($field: custom $crate::ops::parse_features, |p: &[touchstone::query::FeatureId; 2]| {
            serde_json::Value::Array(p.iter().map($crate::ops::feature_json).collect())
        })
    };
    ($field:ident: named $table:expr) => {
        claim_field!($field: custom |f| $crate::ops::geometry::named(f, stringify!($field), &$table), |t: &_| {
            serde_json::json!($crate::ops::name_of(&$table, *t))
        })
    };
    ($field:ident: custom $read:expr, $write:expr) => {
        $crate::ops::ClaimField {
            name: stringify!($field),
            read: |f, c| {
                c.$field = $read(f)?;
                Ok(())
            },
            write: |c| c.$field.as_ref().map(|x| $write(x)),
        }
    };
}

mod contact;
mod distance;
mod forces;
mod geometry;
mod index;
mod planned;
mod solids;
mod sweep;

use crate::json::Out;
use num_rational::BigRational;
use num_traits::One;
use serde_json::{json, Value};
use touchstone::contract::Agreement;
use touchstone::geom::Point3;
use touchstone::poly::{Algebraic, RootScalar, TimeOutput};
use touchstone::query::{both, Answer, Check, FeatureId, Query, Shown, Tolerance, Verdict};
use touchstone::scalar::{decimal_of_rational, Decimal, Scalar};

use crate::error::{error_json, Kind, QueryError};
use crate::input::{index, rational, string, Fields};
use crate::json::Json;

/// The largest accepted `digits`.
pub const MAX_DIGITS: usize = 10_000;

/// Fields every query may have.
pub const COMMON_FIELDS: [&str; 6] = ["id", "op", "backend", "digits", "claim", "tolerance"];

pub use crate::input::Backend;
pub use crate::input::Context;
pub use distance::posed;

/// Settings of one query.
#[derive(Clone, Debug)]
pub struct Common {
    /// The backend.
    pub backend: Backend,
    /// Correct decimal digits for irrational outputs.
    pub digits: u32,
    /// The tolerance of claim checks (`None`: the default, made only when a claim is judged,
    /// so that the float path makes no big number).
    pub tolerance: Option<Tolerance>,
}

/// Query line `line` read as an `O` by its op's own parser under `opts` (its fields only; no
/// claim, no other field checked): how `check-engine` and `explain` read a line they were
/// given again as a typed query.
///
/// Errors: the line is not JSON, not an object, or a field does not read.
pub fn read_query<O: OpJson>(line: &str, opts: &crate::Options) -> Result<O, QueryError> {
    let json = crate::json::parse_line(line)?;
    let fields = Fields::of(&json, "", "a query")?;
    O::parse(&fields, &opts.context())
}

/// One op of the format: its JSON input, output and claim.
pub trait OpJson: Query + Sized {
    /// The op's own input field names.
    const FIELDS: &'static [&'static str];
    /// The output fields a claim may state, each declared once: its name, how it is read and
    /// how it is written back ([`claim_field!`]). The claim's parser, writer and field list
    /// all come from this table.
    const CLAIM: &'static [ClaimField<Self::Claim>];
    /// A sentence for `--help`.
    const SUMMARY: &'static str;
    /// Parse the op's fields into the typed query.
    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError>;
    /// The output fields of an answer on backend `S`.
    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError>;

    /// The names of the claimable fields, in the table's order.
    fn claim_fields() -> Vec<&'static str> {
        Self::CLAIM.iter().map(|c| c.name).collect()
    }

    /// Parse a claim (its field names are already checked against the table), field by field
    /// in the table's order.
    fn parse_claim(f: &Fields) -> Result<Self::Claim, QueryError> {
        let mut claim = Self::Claim::default();
        for field in Self::CLAIM {
            (field.read)(f, &mut claim)?;
        }
        Ok(claim)
    }

    /// A claim's fields as the format writes them (the ones it states, in the table's order).
    fn write_claim(claim: &Self::Claim) -> Out {
        let mut m = Out::new();
        for field in Self::CLAIM {
            if let Some(v) = (field.write)(claim) {
                m.push(field.name, v);
            }
        }
        m
    }
}

/// One claimable output field of an op (a row of [`OpJson::CLAIM`], made by [`claim_field!`]).
pub struct ClaimField<C: 'static> {
    /// Its name in the format.
    pub name: &'static str,
    /// Read it from a claim object into the claim (absent: left unclaimed).
    pub read: fn(&Fields, &mut C) -> Result<(), QueryError>,
    /// Write it back (`None`: the claim does not state it).
    pub write: fn(&C) -> Option<Value>,
}

/// An output value: an exact rational string for exact backends, a JSON number for inexact ones.
pub fn num<S: Scalar>(x: &S) -> Value {
    if S::EXACT_VALUES {
        x.to_rational().map(|q| rational_json(&q)).unwrap_or(Value::Null)
    } else {
        serde_json::Number::from_f64(x.to_f64()).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// A point as output values.
pub fn point_json<S: Scalar>(p: &Point3<S>) -> Value {
    Value::Array(p.iter().map(num).collect())
}

/// A square root as output: a decimal string with `digits` correct digits for exact backends,
/// a number for inexact ones.
pub fn sqrt_json<S: Scalar>(x: &S, digits: u32) -> Value {
    if S::EXACT_VALUES {
        x.sqrt_decimal(digits).map(Value::String).unwrap_or(Value::Null)
    } else {
        serde_json::Number::from_f64(x.to_f64().sqrt()).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// An algebraic time as output: `{"decimal", "poly", "interval", "f64"}` (`poly` the
/// coefficients of a square-free polynomial with exactly one root in `interval`, constant
/// first; `interval` narrower than 10^-digits; a rational time has the point interval `[t, t]`).
pub fn algebraic_json(t: &Algebraic, digits: u32) -> Result<Value, QueryError> {
    let limit = |e| QueryError::poly("/digits", e);
    let mut t = t.clone();
    let width = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), digits as usize));
    t.refine(&width).map_err(limit)?;
    let coeffs: Vec<Value> = t.polynomial().coeffs().iter().map(|c| json!(c.to_string())).collect();
    let mut out = json!({
        "decimal": t.to_decimal(digits).map_err(limit)?,
        "poly": coeffs,
        "interval": [t.interval().lo().to_string(), t.interval().hi().to_string()],
    });
    // The nearest double, when there is one (never a null).
    let nearest = t.to_f64();
    if nearest.is_finite() {
        out["f64"] = json!(nearest);
    }
    Ok(out)
}

/// A time of backend `S` as output: exact ([`algebraic_json`]) or `{"f64": t}`.
pub fn time_json<S: RootScalar>(t: &S::Time, digits: u32) -> Result<Value, QueryError> {
    match S::time_output(t) {
        TimeOutput::Exact(a) => algebraic_json(&a, digits),
        TimeOutput::Float(x) => Ok(json!({ "f64": x })),
    }
}

/// The name of `t` in an op's table of names (the table its parser reads).
pub fn name_of<T: PartialEq + Copy>(names: &[(&'static str, T)], t: T) -> &'static str {
    names.iter().find(|(_, x)| *x == t).map_or("", |(n, _)| *n)
}

/// A feature in the format's form.
pub fn feature_json(f: &FeatureId) -> Value {
    match f {
        FeatureId::Vertex(v) => json!({ "vertex": v }),
        FeatureId::Edge(i, j) => json!({ "edge": [i, j] }),
        FeatureId::Face(ids) => json!({ "face": ids }),
    }
}

/// `q` as the format writes it, `"n/d"` or `"n"` (what `Display` writes, without its
/// formatter: padding support made it format each part into a string of its own first, a
/// quarter of writing an exact answer).
///
/// ```
/// use num_bigint::BigInt;
/// use num_rational::BigRational;
/// use touchstone_oracle::ops::rational_string;
/// for (n, d) in [(-3, 7), (5, 1), (0, 1), (-12, 1), (1, 3_i64.pow(30))] {
///     let q = BigRational::new(BigInt::from(n), BigInt::from(d));
///     assert_eq!(rational_string(&q), q.to_string());
/// }
/// let huge = BigRational::new(BigInt::from(-7) * BigInt::from(10).pow(80) + 1, BigInt::from(2).pow(200));
/// assert_eq!(rational_string(&huge), huge.to_string());
/// // Chunks of 19 digits with zeros inside and at the ends.
/// for k in [1, 18, 19, 20, 38, 39, 57, 100, 400] {
///     let p: BigInt = BigInt::from(10).pow(k);
///     for n in [&p - 1u32, p.clone(), &p + 1u32, -(&p * 7u32 + 3u32)] {
///         let q = BigRational::new(n, BigInt::from(3).pow(k) * 2);
///         assert_eq!(rational_string(&q), q.to_string());
///     }
/// }
/// ```
pub fn rational_string(q: &BigRational) -> String {
    let mut s = Vec::with_capacity(((q.numer().bits() + q.denom().bits()) * 3 / 10 + 4) as usize);
    push_decimal(q.numer(), &mut s);
    if !q.denom().is_one() {
        s.push(b'/');
        push_decimal(q.denom(), &mut s);
    }
    // ASCII throughout: validated once, word by word.
    String::from_utf8(s).unwrap_or_default()
}

/// The decimal digits of `n` (a minus sign first when negative): its 64-bit limbs divided by
/// 10¹⁹ in place, one pass a chunk of 19 digits, and each chunk written two digits at a time.
/// `to_str_radix` wrote one digit at a time into a vector it then reversed and converted: it
/// was the larger part of writing a posed point.
fn push_decimal(n: &num_bigint::BigInt, out: &mut Vec<u8>) {
    const CHUNK: u64 = 10_000_000_000_000_000_000;
    if n.sign() == num_bigint::Sign::Minus {
        out.push(b'-');
    }
    // The limbs and the chunks on the stack up to 1,024 bits (a posed point's coordinates
    // have a few hundred), on the heap beyond.
    let mut stack = [0u64; 16];
    let mut heap;
    let len = n.magnitude().iter_u64_digits().len();
    let limbs: &mut [u64] = if len <= stack.len() {
        &mut stack[..len]
    } else {
        heap = vec![0u64; len];
        &mut heap
    };
    for (l, d) in limbs.iter_mut().zip(n.magnitude().iter_u64_digits()) {
        *l = d;
    }
    let mut chunk_stack = [0u64; 18];
    let mut chunk_heap = Vec::new();
    let (mut used, mut top) = (0, len);
    loop {
        let mut r = 0u64;
        for limb in limbs[..top].iter_mut().rev() {
            let cur = (u128::from(r) << 64) | u128::from(*limb);
            let q = cur / u128::from(CHUNK);
            *limb = q as u64;
            r = (cur - q * u128::from(CHUNK)) as u64;
        }
        while top > 0 && limbs[top - 1] == 0 {
            top -= 1;
        }
        if used < chunk_stack.len() {
            chunk_stack[used] = r;
        } else {
            chunk_heap.push(r);
        }
        used += 1;
        if top == 0 {
            break;
        }
    }
    let chunks = chunk_stack[..used.min(chunk_stack.len())].iter().chain(chunk_heap.iter());
    let mut first = true;
    for &c in chunks.rev() {
        let mut buf = [b'0'; 20];
        let mut i = buf.len();
        let mut v = c;
        while v >= 100 {
            let pair = (v % 100) as usize;
            v /= 100;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[2 * pair..2 * pair + 2]);
        }
        if v >= 10 {
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[2 * v as usize..2 * v as usize + 2]);
        } else {
            i -= 1;
            buf[i] = b'0' + v as u8;
        }
        // A chunk after the first is 19 digits wide, zeros in front (buf is '0'-filled).
        let start = if first { i } else { buf.len() - 19 };
        first = false;
        out.extend_from_slice(&buf[start..]);
    }
}

/// "00" to "99", for writing two digits at a time.
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

fn rational_json(q: &BigRational) -> Value {
    Value::String(rational_string(q))
}

fn shown_json(s: &Shown) -> Value {
    match s {
        Shown::Absent => Value::Null,
        Shown::Text(t) => json!(t),
        Shown::Bool(b) => json!(b),
        Shown::Int(i) => json!(i),
        Shown::Rational(q) => rational_json(q),
        Shown::Decimal(d) => json!(d),
        Shown::Feature(f) => feature_json(f),
        Shown::Features(fs) => Value::Array(fs.iter().map(feature_json).collect()),
        Shown::Point(p) => Value::Array(p.iter().map(rational_json).collect()),
        Shown::Points(ps) => {
            Value::Array(ps.iter().map(|p| Value::Array(p.iter().map(rational_json).collect())).collect())
        }
    }
}

/// The `verdict` object; `claim` is the claim as given (claimed values are echoed as written).
pub fn verdict_json(v: &Verdict, claim: &Value) -> Value {
    let checks: Vec<Value> = v
        .checks
        .iter()
        .map(|c: &Check| {
            let claimed = claim.pointer(&format!("/{}", c.field)).cloned().unwrap_or_else(|| shown_json(&c.claimed));
            let abs_error = match &c.abs_error {
                None => Value::Null,
                Some(Shown::Rational(q)) => json!(decimal_of_rational(q, 6)),
                Some(s) => shown_json(s),
            };
            let mut o = json!({"field": c.field, "claimed": claimed, "exact": shown_json(&c.exact), "abs_error": abs_error, "ok": c.ok});
            if let Some(n) = &c.note {
                o["note"] = json!(n);
            }
            o
        })
        .collect();
    json!({"ok": v.ok(), "checks": checks})
}

pub(crate) fn parse_claim<O: OpJson>(query: &Fields) -> Result<Option<(O::Claim, Value)>, QueryError> {
    let Some((v, at)) = query.optional("claim") else { return Ok(None) };
    let f = Fields::of(v, &at, "a claim")?;
    for key in f.keys() {
        let path = crate::input::child(&at, key);
        if !O::CLAIM.iter().any(|c| c.name == key) {
            return Err(QueryError::new(
                Kind::Unknown,
                &path,
                format!("{key:?} is not a claimable output of {} (claimable: {})", O::OP, O::claim_fields().join(", ")),
            ));
        }
        // Elsewhere a null field is an absent one; a claimed null would pass vacuously, and is
        // what an engine's NaN becomes: refuse it.
        if let Some(Json::Null) = f.raw(key) {
            return Err(QueryError::new(
                Kind::Type,
                &path,
                format!("a claimed {key} cannot be null (an engine's NaN or missing value): omit the field to claim nothing"),
            ));
        }
    }
    Ok(Some((crate::input::reading_claim(|| O::parse_claim(&f))?, v.to_value())))
}

fn agreement_json(
    margin: &touchstone::contract::Margin,
    verdict: &Result<Agreement, touchstone::contract::Disagreement>,
) -> Value {
    let mut agreement = json!({
        "agree": verdict.is_ok(),
        "margin": margin.to_decimal(6),
        "budget": touchstone::contract::budget::<f64>(),
    });
    match verdict {
        Ok(a) => agreement["strict"] = json!(*a == Agreement::Strict),
        Err(d) => agreement["reason"] = json!(d.to_string()),
    }
    agreement
}

fn judge<O: OpJson>(
    q: &O,
    exact: &Answer<BigRational, O>,
    claim: &Option<(O::Claim, Value)>,
    common: &Common,
    fields: &mut Out,
) -> Result<(), QueryError> {
    if let Some((c, raw)) = claim {
        let tolerance = common.tolerance.clone().unwrap_or_default();
        let v = q.judge(exact, c, &tolerance, common.digits)?;
        fields.insert("verdict".into(), verdict_json(&v, raw));
    }
    Ok(())
}

fn execute<O: OpJson>(query: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
    query.only_of(&[&COMMON_FIELDS, O::FIELDS])?;
    let q = O::parse(query, ctx)?;
    let claim = parse_claim::<O>(query)?;
    if claim.is_some() && common.backend == Backend::F64 {
        return Err(QueryError::new(
            Kind::Invalid,
            "/claim",
            "a claim is judged against the exact answer: use backend \"exact\" or \"both\", not \"f64\"",
        ));
    }
    match common.backend {
        Backend::F64 => {
            let a = q.answer::<f64>()?;
            rendered_finite(q.render(&a.output, common.digits)?)
        }
        Backend::Exact | Backend::ExactUnfiltered => {
            let exact = if common.backend == Backend::Exact {
                // Intervals first, exact arithmetic where a decision is close: the same answer.
                touchstone::query::exact_answer(&q)
            } else {
                q.answer::<BigRational>()
            };
            let a = match exact {
                Ok(a) => a,
                Err(e) => return judged_error(&q, e, &claim),
            };
            let mut fields = q.render(&a.output, common.digits)?;
            judge(&q, &a, &claim, common, &mut fields)?;
            Ok(fields)
        }
        Backend::Both => {
            let b = match both(&q) {
                Ok(b) => b,
                Err(e) => return judged_error(&q, e, &claim),
            };
            let mut fields = q.render(&b.exact.output, common.digits)?;
            let fast = match &b.fast {
                Ok(f) => match q.render(&f.output, common.digits).and_then(rendered_finite) {
                    Ok(m) => m.into_value(),
                    Err(e) => json!({ "error": error_json(&e) }),
                },
                Err(e) => json!({ "error": error_json(e) }),
            };
            fields.insert("f64".into(), fast);
            let mut agreement = agreement_json(&b.margin, &b.agreement);
            if b.fast_overflowed {
                agreement["note"] = json!("f64 overflowed: the contract covers computations within the binary64 range");
            }
            fields.insert("agreement".into(), agreement);
            judge(&q, &b.exact, &claim, common, &mut fields)?;
            Ok(fields)
        }
    }
}

/// An `f64` answer as rendered, refused when some number in it is not finite (JSON has no
/// infinity or NaN: `num` writes them as null; no output field is ever null otherwise).
fn rendered_finite(m: Out) -> Result<Out, QueryError> {
    fn has_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(has_null),
            Value::Object(o) => o.values().any(has_null),
            _ => false,
        }
    }
    if m.values().any(has_null) {
        return Err(QueryError::uncertain("", touchstone::scalar::Uncertain::Overflow));
    }
    Ok(m)
}

/// The exact path refused the input: the error stands, unless the op judges a claim against it
/// (`validate` with a claimed `valid`): then `{"valid": false, "defect": error, "verdict"}`.
fn judged_error<O: OpJson>(q: &O, e: QueryError, claim: &Option<(O::Claim, Value)>) -> Result<Out, QueryError> {
    let Some((c, raw)) = claim else { return Err(e) };
    let Some(v) = q.judge_error(&e, c) else { return Err(e) };
    let mut fields = Out::new();
    fields.insert("valid".into(), json!(false));
    fields.insert("defect".into(), error_json(&e));
    fields.insert("verdict".into(), verdict_json(&v, raw));
    Ok(fields)
}

fn parse_common(query: &Fields, ctx: &Context) -> Result<Common, QueryError> {
    let backend = match query.optional("backend") {
        None => ctx.default_backend,
        Some((v, at)) => {
            let name = string(v, &at, "backend")?;
            Backend::named(name).ok_or_else(|| {
                QueryError::new(
                    Kind::Unknown,
                    &at,
                    format!("unknown backend {name:?} (exact, exact-unfiltered, f64, both)"),
                )
            })?
        }
    };
    let digits = match query.optional("digits") {
        None => 20,
        Some((v, at)) => {
            if v.as_u64().is_some_and(|d| d as usize > MAX_DIGITS) {
                return Err(QueryError::new(Kind::Limit, &at, format!("digits is limited to {MAX_DIGITS}")));
            }
            let d = index(v, &at, MAX_DIGITS + 1, "digits")?;
            if d == 0 {
                return Err(QueryError::new(Kind::Invalid, &at, "digits must be at least 1"));
            }
            d as u32
        }
    };
    let mut tolerance = None;
    if let Some((v, at)) = query.optional("tolerance") {
        let mut given = Tolerance::default();
        let t = Fields::of(v, &at, "tolerance")?;
        t.only(&["abs", "rel"])?;
        if let Some((x, p)) = t.optional("abs") {
            given.abs = rational(x, &p)?;
        }
        if let Some((x, p)) = t.optional("rel") {
            given.rel = rational(x, &p)?;
        }
        tolerance = Some(Tolerance::new(given.abs, given.rel).map_err(|e| e.under(&at))?);
    }
    Ok(Common { backend, digits, tolerance })
}

/// How an answered op runs: the query's fields, its common settings, the run's context.
pub type Runner = fn(&Fields, &Common, &Context) -> Result<Out, QueryError>;

/// One op of the format: what `--help` and the error for an unknown op say about it, and how
/// it is answered. [`answer`] dispatches through this table, so an op is answered exactly when
/// it is listed as answered.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The op's name.
    pub name: &'static str,
    /// Its input fields.
    pub fields: &'static [&'static str],
    /// Its claimable output fields (none when not answered).
    pub claim_fields: fn() -> Vec<&'static str>,
    /// The fields the library judges (`Query::CLAIM_RULES`, in its order): the same fields.
    pub judged_fields: fn() -> Vec<&'static str>,
    /// How this version answers it (`None`: planned, input checked, then `unsupported`).
    pub run: Option<Runner>,
    /// A sentence.
    pub summary: &'static str,
}

impl OpInfo {
    /// Whether this version answers the op.
    pub fn answered(&self) -> bool {
        self.run.is_some()
    }
}

/// The table entry of an answered op: the float path reads the query's numbers straight into
/// binary64 (`Q<f64>`); the other backends read them exactly.
macro_rules! answered {
    ($q:ident or $r:ident when $when:path, $t:ident when $twhen:path, $c:ident when $cwhen:path, $d:ident when $dwhen:path) => {{
        fn run(fields: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
            if !$dwhen(fields) {
                (answered!($q or $r when $when, $t when $twhen, $c when $cwhen).run.expect("answered"))(fields, common, ctx)
            } else if common.backend == Backend::F64 {
                execute::<touchstone::query::$d<f64>>(fields, common, ctx)
            } else {
                execute::<touchstone::query::$d<BigRational>>(fields, common, ctx)
            }
        }
        OpInfo { run: Some(run), ..answered!($q) }
    }};
    ($q:ident or $r:ident when $when:path, $t:ident when $twhen:path, $c:ident when $cwhen:path) => {{
        fn run(fields: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
            if !$cwhen(fields) {
                (answered!($q or $r when $when, $t when $twhen).run.expect("answered"))(fields, common, ctx)
            } else if common.backend == Backend::F64 {
                execute::<touchstone::query::$c<f64>>(fields, common, ctx)
            } else {
                execute::<touchstone::query::$c<BigRational>>(fields, common, ctx)
            }
        }
        OpInfo { run: Some(run), ..answered!($q) }
    }};
    ($q:ident or $r:ident when $when:path, $t:ident when $twhen:path) => {{
        fn run(fields: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
            if !$twhen(fields) {
                (answered!($q or $r when $when).run.expect("answered"))(fields, common, ctx)
            } else if common.backend == Backend::F64 {
                execute::<touchstone::query::$t<f64>>(fields, common, ctx)
            } else {
                execute::<touchstone::query::$t<BigRational>>(fields, common, ctx)
            }
        }
        OpInfo { run: Some(run), ..answered!($q) }
    }};
    ($q:ident or $r:ident when $when:path) => {{
        fn run(fields: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
            if !$when(fields) {
                (answered!($q).run.expect("answered"))(fields, common, ctx)
            } else if common.backend == Backend::F64 {
                execute::<touchstone::query::$r<f64>>(fields, common, ctx)
            } else {
                execute::<touchstone::query::$r<BigRational>>(fields, common, ctx)
            }
        }
        OpInfo { run: Some(run), ..answered!($q) }
    }};
    ($q:ident) => {{
        type Exact = touchstone::query::$q<BigRational>;
        fn run(fields: &Fields, common: &Common, ctx: &Context) -> Result<Out, QueryError> {
            if common.backend == Backend::F64 {
                execute::<touchstone::query::$q<f64>>(fields, common, ctx)
            } else {
                execute::<Exact>(fields, common, ctx)
            }
        }
        OpInfo {
            name: <Exact as Query>::OP,
            fields: <Exact as OpJson>::FIELDS,
            claim_fields: <Exact as OpJson>::claim_fields,
            judged_fields: || <Exact as Query>::CLAIM_RULES.iter().map(|r| r.name).collect(),
            run: Some(run),
            summary: <Exact as OpJson>::SUMMARY,
        }
    }};
}

/// Every op of the format: answered ones first, then those still to come.
pub fn ops() -> Vec<OpInfo> {
    let mut v = vec![
        answered!(Orient3d),
        answered!(Orient2d),
        answered!(SideOfPlane),
        answered!(TransformPoints),
        answered!(SquaredDistance),
        answered!(SegmentPlane),
        answered!(Validate),
        answered!(
            Distance or DistanceRound when crate::shape::round_pair,
            DistanceTorus when crate::shape::torus_pair,
            DistanceCylinder when crate::shape::cylinder_pair,
            DistanceCurved when crate::shape::curved_pair
        ),
        answered!(Ccd),
        answered!(ToiBoxes),
        answered!(Toi or ToiRound when crate::shape::round_toi_pair, ToiTorus when crate::shape::torus_pair),
        answered!(ClassifyPoint),
        answered!(ClassifySegment),
        answered!(IndexStats),
        answered!(Contact),
        answered!(ContactForces),
    ];
    v.extend(planned::PLANNED.iter().map(|&(name, fields, summary)| OpInfo {
        name,
        fields,
        claim_fields: Vec::new,
        judged_fields: Vec::new,
        run: None,
        summary,
    }));
    v
}

/// Answer one parsed query (without its id).
pub fn answer(query: &Json, ctx: &Context) -> Result<Out, QueryError> {
    let fields = Fields::of(query, "", "a query")?;
    let (op, at) = fields.required("op")?;
    let op = string(op, &at, "op")?;
    let common = parse_common(&fields, ctx)?;
    static TABLE: std::sync::OnceLock<Vec<OpInfo>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(ops);
    match table.iter().find(|o| o.name == op) {
        Some(OpInfo { run: Some(run), .. }) => run(&fields, &common, ctx),
        _ => planned::answer(op, &fields, &at, &COMMON_FIELDS, ctx).unwrap_or_else(|| {
            let known: Vec<&str> = table.iter().map(|o| o.name).collect();
            Err(QueryError::new(Kind::Unknown, &at, format!("unknown op {op:?} (known: {})", known.join(", "))))
        }),
    }
}

/// The `--help` text: generated from [`ops`], so that it lists what this version answers.
pub fn help_text() -> String {
    let mut s = String::from(
        "Exact answers to polyhedral geometry queries written as JSON Lines.

Reads one JSON object per line from FILE (or standard input) and writes one JSON object per
input line to standard output, in the same order, with the query's \"id\" echoed. A line that
cannot be answered gives {\"id\": ..., \"error\": {\"kind\", \"message\", \"at\"}} and the next
line is answered as usual; \"at\" is a JSON pointer into the query.

Numbers: a JSON number is the binary64 value it denotes; a string is an exact rational
(\"12\", \"-3/7\", \"0.1\", \"1.5e-3\"). Exact outputs are strings in lowest terms.

Common fields: id, op, backend (exact | exact-unfiltered | f64 | both), digits (default 20),
claim (another engine's answer, with the op's output field names: the line gets a \"verdict\"),
tolerance ({\"abs\", \"rel\"} for claimed numbers, default 1e-9 each).

Ops answered (input fields -> claimable output fields):
",
    );
    for op in ops().iter().filter(|o| o.answered()) {
        s.push_str(&format!(
            "  {:<17}{}\n  {:<17}  in: {}; claim: {}\n",
            op.name,
            op.summary,
            "",
            op.fields.join(", "),
            (op.claim_fields)().join(", ")
        ));
    }
    let later: Vec<&str> = ops().iter().filter(|o| !o.answered()).map(|o| o.name).collect();
    if !later.is_empty() {
        s.push_str("\nOps of the format still to come (input checked, then an error of kind \"unsupported\"):\n");
        s.push_str(&format!("  {}\n", later.join(", ")));
    }
    s.push_str(
        "\nParts of the format still to come (some shape pairs) answer with an error of kind \"unsupported\" naming the part.\n",
    );
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
    s.push_str(&format!("\nError kinds: {}.\n", kinds.join(", ")));
    s.push_str(
        "
Example:
  echo '{\"id\":1,\"op\":\"orient3d\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\"claim\":{\"orientation\":\"negative\"}}' | touchstone
  {\"id\":1,\"orientation\":\"positive\",\"determinant\":\"1\",\"determinant_f64\":1.0,\"verdict\":{\"ok\":false,...}}

The full format: oracle/FORMAT.md in the source repository.",
    );
    s
}

/// A feature as written in the format: `{"vertex": i}`, `{"edge": [i, j]}`, `{"face": [...]}`.
pub fn parse_feature(v: &Json, at: &str) -> Result<FeatureId, QueryError> {
    let f = Fields::of(v, at, "a feature")?;
    let (kind, body, bat) = f.single_key("a feature ({\"vertex\": i}, {\"edge\": [i, j]} or {\"face\": [...]})")?;
    // Any non-negative integer: an id the shape does not have makes the check fail, not the line.
    let id = |v: &Json, p: &str| {
        v.as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| QueryError::new(Kind::Type, p, "a vertex id must be a non-negative integer"))
    };
    let ids = |n: Option<usize>| -> Result<Vec<usize>, QueryError> {
        crate::input::array(body, &bat, n, "vertex ids")?
            .iter()
            .enumerate()
            .map(|(k, x)| id(x, &crate::input::child(&bat, k)))
            .collect()
    };
    match kind {
        "vertex" => Ok(FeatureId::Vertex(id(body, &bat)?)),
        "edge" => {
            let e = ids(Some(2))?;
            Ok(FeatureId::edge(e[0], e[1]))
        }
        "face" => Ok(FeatureId::face(ids(None)?)),
        other => {
            Err(QueryError::new(Kind::Unknown, &bat, format!("unknown feature kind {other:?} (vertex, edge, face)")))
        }
    }
}

/// A claimed pair of features `[Fa, Fb]` under `features`.
pub fn parse_features(f: &Fields) -> Result<Option<[FeatureId; 2]>, QueryError> {
    let Some((v, at)) = f.optional("features") else { return Ok(None) };
    let pair = crate::input::array(v, &at, Some(2), "a feature pair [Fa, Fb]")?;
    Ok(Some([
        parse_feature(&pair[0], &crate::input::child(&at, 0))?,
        parse_feature(&pair[1], &crate::input::child(&at, 1))?,
    ]))
}
