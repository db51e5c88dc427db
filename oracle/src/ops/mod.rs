//! The operations: parsing, running on a backend, and comparing backends under the contract.

mod distance;
mod geometry;
mod planned;
mod solids;
mod sweep;

use std::fmt::Debug;

use num_rational::BigRational;
use serde_json::{json, Map, Value};
use touchstone::contract::{self, Continuous, Margin};
use touchstone::geom::Scaled;
use touchstone::scalar::{Decimal, Scalar};

use crate::error::{Kind, QueryError};
use crate::input::{index, rational, string, Fields};

/// The largest accepted `digits`.
pub const MAX_DIGITS: usize = 10_000;

/// Fields every query may have.
pub const COMMON_FIELDS: [&str; 6] = ["id", "op", "backend", "digits", "claim", "tolerance"];

/// Which arithmetic answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Exact; filtered (intervals first) once the filtered path exists, with the same answers.
    Exact,
    /// Exact rational arithmetic throughout: the reference.
    ExactUnfiltered,
    /// binary64 with the tolerance policy.
    F64,
    /// Exact and f64, with their agreement under the contract.
    Both,
}

/// What a query is answered in: settings of the run, not of the query.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The folder `file` shapes are relative to (the query file's folder; `None`: the current
    /// directory).
    pub base_dir: Option<std::path::PathBuf>,
}

/// Settings of one query.
#[derive(Clone, Copy, Debug)]
pub struct Common {
    /// The backend.
    pub backend: Backend,
    /// Correct decimal digits for irrational outputs.
    pub digits: u32,
}

/// A decisive sign test, or a degeneracy test that holds only when all its parts vanish.
pub enum Decisive<S> {
    /// One sign test.
    Test(Scaled<S>),
    /// A test that is degenerate only when every part is zero (e.g. a zero cross product):
    /// its margin is the largest part's.
    AllOf(Vec<Scaled<S>>),
}

/// What one backend answered.
pub struct Outcome<S, D> {
    /// The output fields.
    pub fields: Map<String, Value>,
    /// The discrete answer, compared between backends.
    pub discrete: D,
    /// The sign tests that decided `discrete`.
    pub decisive: Vec<Decisive<S>>,
    /// Continuous outputs: name, value and a magnitude `m` such that the fast path's error is
    /// at most its relative tolerance times `m`.
    pub continuous: Vec<(String, S, S)>,
}

/// One operation of the format.
pub trait Op {
    /// The parsed input, exact.
    type Input;
    /// The discrete part of the answer.
    type Discrete: PartialEq + Debug;
    /// The op's own field names.
    const FIELDS: &'static [&'static str];
    /// Parse the op's fields.
    fn parse(fields: &Fields, ctx: &Context) -> Result<Self::Input, QueryError>;
    /// Answer on backend `S`.
    fn run<S: Scalar>(input: &Self::Input, common: &Common) -> Result<Outcome<S, Self::Discrete>, QueryError>;
    /// Whether `fast` is admissible when the input is within the fast budget of a change.
    fn valid_within_tolerance(exact: &Self::Discrete, fast: &Self::Discrete) -> bool;
}

/// An output value: an exact rational string for exact backends, a JSON number for inexact ones.
pub fn num<S: Scalar>(x: &S) -> Value {
    if S::EXACT_VALUES {
        x.to_rational().map(|q| Value::String(q.to_string())).unwrap_or(Value::Null)
    } else {
        serde_json::Number::from_f64(x.to_f64()).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// A point as output values.
pub fn point_json<S: Scalar>(p: &touchstone::geom::Point3<S>) -> Value {
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

fn margin_of(decisive: &[Decisive<BigRational>]) -> Margin {
    decisive.iter().fold(Margin::Unbounded, |acc, d| {
        let m = match d {
            Decisive::Test(s) => Margin::of(s),
            Decisive::AllOf(parts) => {
                parts.iter().map(Margin::of).fold(Margin::Finite(BigRational::from_integer(0.into())), |a, b| {
                    match (a, b) {
                        (Margin::Finite(x), Margin::Finite(y)) => Margin::Finite(if x >= y { x } else { y }),
                        _ => Margin::Unbounded,
                    }
                })
            }
        };
        acc.min(m)
    })
}

fn run_both<O: Op>(input: &O::Input, common: &Common) -> Result<Map<String, Value>, QueryError> {
    let exact = O::run::<BigRational>(input, common)?;
    let margin = margin_of(&exact.decisive);
    let budget = contract::budget::<f64>();
    let mut fields = exact.fields.clone();
    let (fast_fields, verdict) = match O::run::<f64>(input, common) {
        Ok(fast) => {
            let tolerance = BigRational::from_float(f64::relative_tolerance()).unwrap_or_default();
            let continuous: Vec<Continuous> = exact
                .continuous
                .iter()
                .filter_map(|(name, value, magnitude)| {
                    let (_, fast_value, _) = fast.continuous.iter().find(|(n, _, _)| n == name)?;
                    Some(Continuous {
                        field: name.clone(),
                        exact: value.clone(),
                        fast: fast_value.to_rational()?,
                        bound: &tolerance * magnitude,
                    })
                })
                .collect();
            let verdict = contract::check(
                &exact.discrete,
                &fast.discrete,
                &margin,
                budget,
                O::valid_within_tolerance,
                &continuous,
            );
            (Value::Object(fast.fields), verdict.map_err(|d| d.to_string()))
        }
        // The fast path refused what the exact path answered: admissible only near a change.
        Err(e) => {
            let verdict = if margin.exceeds(budget) {
                Err(format!("f64 failed above the budget: {}", e.message))
            } else {
                Ok(contract::Agreement::WithinTolerance)
            };
            (json!({"error": e.to_json()}), verdict)
        }
    };
    fields.insert("f64".into(), fast_fields);
    let mut agreement = json!({
        "agree": verdict.is_ok(),
        "margin": margin.to_decimal(6),
        "budget": budget,
    });
    match verdict {
        Ok(a) => agreement["strict"] = json!(a == contract::Agreement::Strict),
        Err(reason) => agreement["reason"] = json!(reason),
    }
    fields.insert("agreement".into(), agreement);
    Ok(fields)
}

fn execute<O: Op>(query: &Fields, common: &Common, ctx: &Context) -> Result<Map<String, Value>, QueryError> {
    let allowed: Vec<&str> = COMMON_FIELDS.iter().chain(O::FIELDS).copied().collect();
    query.only(&allowed)?;
    let input = O::parse(query, ctx)?;
    match common.backend {
        Backend::Exact | Backend::ExactUnfiltered => O::run::<BigRational>(&input, common).map(|o| o.fields),
        Backend::F64 => O::run::<f64>(&input, common).map(|o| o.fields),
        Backend::Both => run_both::<O>(&input, common),
    }
}

fn parse_common(query: &Fields) -> Result<Common, QueryError> {
    let backend = match query.optional("backend") {
        None => Backend::Exact,
        Some((v, at)) => match string(v, &at, "backend")? {
            "exact" => Backend::Exact,
            "exact-unfiltered" => Backend::ExactUnfiltered,
            "f64" => Backend::F64,
            "both" => Backend::Both,
            other => {
                return Err(QueryError::new(
                    Kind::Unknown,
                    &at,
                    format!("unknown backend {other:?} (exact, exact-unfiltered, f64, both)"),
                ))
            }
        },
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
    if let Some((v, at)) = query.optional("tolerance") {
        let t = Fields::of(v, &at, "tolerance")?;
        t.only(&["abs", "rel"])?;
        for key in ["abs", "rel"] {
            if let Some((x, p)) = t.optional(key) {
                rational(x, &p)?;
            }
        }
    }
    if let Some((_, at)) = query.optional("claim") {
        return Err(QueryError::new(Kind::Unsupported, &at, "checking claims is not supported by this version yet"));
    }
    Ok(Common { backend, digits })
}

/// The ops this version answers (extensions of the format, see FORMAT.md).
pub const ANSWERED: [&str; 9] = [
    "orient3d",
    "side_of_plane",
    "transform_points",
    "squared_distance",
    "segment_plane",
    "validate",
    "distance",
    "ccd",
    "toi_boxes",
];

/// Answer one parsed query (without its id).
pub fn answer(query: &Value, ctx: &Context) -> Result<Map<String, Value>, QueryError> {
    let fields = Fields::of(query, "", "a query")?;
    let (op, at) = fields.required("op")?;
    let op = string(op, &at, "op")?;
    let common = parse_common(&fields)?;
    match op {
        "orient3d" => execute::<geometry::Orient3d>(&fields, &common, ctx),
        "side_of_plane" => execute::<geometry::SideOfPlane>(&fields, &common, ctx),
        "transform_points" => execute::<geometry::TransformPoints>(&fields, &common, ctx),
        "squared_distance" => execute::<geometry::SquaredDistance>(&fields, &common, ctx),
        "segment_plane" => execute::<geometry::SegmentPlaneOp>(&fields, &common, ctx),
        "validate" => execute::<solids::Validate>(&fields, &common, ctx),
        "distance" => execute::<distance::DistanceOp>(&fields, &common, ctx),
        "ccd" if common.backend == Backend::Both => {
            let allowed: Vec<&str> = COMMON_FIELDS.iter().chain(<sweep::CcdOp as Op>::FIELDS).copied().collect();
            fields.only(&allowed)?;
            sweep::ccd_both(&fields, &common, ctx)
        }
        "ccd" => execute::<sweep::CcdOp>(&fields, &common, ctx),
        "toi_boxes" if common.backend == Backend::Both => {
            let allowed: Vec<&str> = COMMON_FIELDS.iter().chain(<sweep::ToiBoxes as Op>::FIELDS).copied().collect();
            fields.only(&allowed)?;
            sweep::toi_boxes_both(&fields, &common, ctx)
        }
        "toi_boxes" => execute::<sweep::ToiBoxes>(&fields, &common, ctx),
        other => planned::answer(other, &fields, &at, ctx),
    }
}
