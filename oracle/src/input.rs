//! Reading fields of a query, with the JSON pointer of every value for error messages.

use crate::json::Json;
use num_rational::BigRational;
use touchstone::geom::Point3;
use touchstone::scalar::{parse_rational_within, NumberLimits, Scalar};

/// Three points.
pub fn three_points<N: Number>(value: &Json, path: &str) -> Result<[Point3<N>; 3], QueryError> {
    let p = points(value, path, Some(3))?;
    Ok([p[0].clone(), p[1].clone(), p[2].clone()])
}

use crate::error::{Kind, QueryError};

use touchstone::query::error::PathKey;

/// A JSON pointer: inline up to 24 bytes (most of a query's), so making one allocates nothing.
pub type Path = compact_str::CompactString;

/// The JSON pointer of `key` under `path` (`~` and `/` escaped), as
/// [`touchstone::query::error::child`] makes it, but inline: the oracle makes one for every
/// field it reads, and keeps it only for an error message.
pub fn child(path: &str, key: impl PathKey) -> Path {
    let mut out = Path::with_capacity(path.len() + 12);
    out.push_str(path);
    out.push('/');
    touchstone::query::error::push_segment(key, |s| out.push_str(s));
    out
}

/// Which arithmetic answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// Exact, filtered: intervals first, exact arithmetic (the fast exact backend) where a
    /// decision is close; the same answers as the reference.
    #[default]
    Exact,
    /// Exact rational arithmetic throughout: the reference.
    ExactUnfiltered,
    /// binary64 with the tolerance policy.
    F64,
    /// Exact and f64, with their agreement under the contract.
    Both,
}

impl Backend {
    /// The backend a name of the format denotes (`exact`, `exact-unfiltered`, `f64`, `both`).
    pub fn named(name: &str) -> Option<Backend> {
        Some(match name {
            "exact" => Backend::Exact,
            "exact-unfiltered" => Backend::ExactUnfiltered,
            "f64" => Backend::F64,
            "both" => Backend::Both,
            _ => return None,
        })
    }
}

/// What a query is answered in: settings of the run, not of the query.
#[derive(Clone, Debug)]
pub struct Context<'a> {
    /// The folder `file` shapes are relative to (the query file's folder; `None`: the current
    /// directory).
    pub base_dir: Option<&'a std::path::Path>,
    /// The folder `file` shapes must lie in, after resolving `..` and symbolic links (`None`:
    /// `base_dir`, or the current directory).
    pub file_root: Option<&'a std::path::Path>,
    /// The longest file read, in bytes.
    pub max_file_bytes: u64,
    /// The most vertices (or points) of one inline shape.
    pub max_vertices: usize,
    /// The backend of a query without its own `backend` field.
    pub default_backend: Backend,
}

impl Default for Context<'_> {
    fn default() -> Self {
        Context {
            base_dir: None,
            file_root: None,
            max_file_bytes: 64 << 20,
            max_vertices: 100_000,
            default_backend: Backend::Exact,
        }
    }
}

/// The fields of a JSON object, with their path, and the set of names an op accepts.
pub struct Fields<'a> {
    map: &'a [(compact_str::CompactString, Json)],
    path: &'a str,
}

impl<'a> Fields<'a> {
    /// The object at `path`, or a type error.
    pub fn of(value: &'a Json, path: &'a str, what: &str) -> Result<Self, QueryError> {
        match value {
            Json::Object(map) => Ok(Fields { map, path }),
            _ => Err(QueryError::new(Kind::Type, path, format!("{what} must be a JSON object"))),
        }
    }

    /// The keys present (null values included), in order.
    pub fn keys(&self) -> impl Iterator<Item = &'a str> {
        self.map.iter().map(|(k, _)| k.as_str())
    }

    /// The value of `key` as given, null included.
    pub fn raw(&self, key: &str) -> Option<&'a Json> {
        crate::json::field(self.map, key)
    }

    /// The path of the object.
    pub fn path(&self) -> &'a str {
        self.path
    }

    /// Reject names outside `allowed` (a misspelt field would otherwise be silently ignored).
    pub fn only(&self, allowed: &[&str]) -> Result<(), QueryError> {
        self.only_of(&[allowed])
    }

    /// Reject names outside the union of `allowed`.
    pub fn only_of(&self, allowed: &[&[&str]]) -> Result<(), QueryError> {
        for (key, _) in self.map {
            if !allowed.iter().any(|a| a.contains(&key.as_str())) {
                let all: Vec<&str> = allowed.iter().flat_map(|a| a.iter().copied()).collect();
                return Err(QueryError::new(
                    Kind::Unknown,
                    &child(self.path, key.as_str()),
                    format!("unknown field {key:?} here (accepted: {})", all.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// A field that may be absent (null counts as absent), with its path.
    pub fn optional(&self, key: &str) -> Option<(&'a Json, Path)> {
        match self.raw(key) {
            None | Some(Json::Null) => None,
            Some(v) => Some((v, child(self.path, key))),
        }
    }

    /// A required field.
    pub fn required(&self, key: &str) -> Result<(&'a Json, Path), QueryError> {
        self.optional(key)
            .ok_or_else(|| QueryError::new(Kind::Missing, &child(self.path, key), format!("missing field {key:?}")))
    }

    /// The single key of a one-key object such as `{"box": [...]}`.
    pub fn single_key(&self, what: &str) -> Result<(&'a str, &'a Json, Path), QueryError> {
        let mut it = self.map.iter();
        match (it.next(), it.next()) {
            (Some((k, v)), None) => Ok((k.as_str(), v, child(self.path, k.as_str()))),
            _ => Err(QueryError::new(Kind::Type, self.path, format!("{what} must be an object with exactly one key"))),
        }
    }
}

/// How many times the bits of the largest input number a claimed number may have (at least
/// [`touchstone::scalar::MAX_NUMBER_BITS`]): an exact output is a rational function of low
/// degree of a handful of inputs (a contact region's corner, three posed planes met by Cramer's
/// rule, is about 30 times a coordinate's bits), so the op's own output is always claimable
/// back, while a claim stays bounded by the query's own size (its parse is quadratic in its
/// length).
pub const CLAIM_BITS_PER_INPUT_BIT: u64 = 64;

#[derive(Clone, Copy)]
struct Count {
    /// Bits of the numbers read so far in the current query.
    used: u64,
    /// The query's limit on them.
    limit: u64,
    /// The most bits of one number read outside a claim.
    largest: u64,
    /// While a claim is read: the limits its numbers are parsed under.
    claim: Option<NumberLimits>,
}

thread_local! {
    static BITS: std::cell::Cell<Count> =
        const { std::cell::Cell::new(Count { used: 0, limit: u64::MAX, largest: 0, claim: None }) };
}

/// Run `f` (the parsing of one query) with a limit on the total bits of the numbers it reads
/// (numerators and denominators of the exact values).
pub fn with_bit_limit<T>(limit: u64, f: impl FnOnce() -> T) -> T {
    let outer = BITS.with(|b| b.replace(Count { used: 0, limit, largest: 0, claim: None }));
    let out = f();
    BITS.with(|b| b.set(outer));
    out
}

/// Read a claim with `f`: its numbers may have up to [`CLAIM_BITS_PER_INPUT_BIT`] times the bits
/// of the largest number of the query read so far (its inputs), so that exact outputs, which
/// grow with the inputs, can be claimed back; they still count against the query's total.
pub fn reading_claim<T>(f: impl FnOnce() -> T) -> T {
    let before = BITS.with(|b| {
        let c = b.get();
        let limits = NumberLimits::for_bits(c.largest.saturating_mul(CLAIM_BITS_PER_INPUT_BIT));
        b.set(Count { claim: Some(limits), ..c });
        c.claim
    });
    let out = f();
    BITS.with(|b| b.set(Count { claim: before, ..b.get() }));
    out
}

/// The limits a number's text is parsed under now: the default, or a claim's.
fn number_limits() -> NumberLimits {
    BITS.with(|b| b.get().claim).unwrap_or(NumberLimits::DEFAULT)
}

/// Count a number's bits against the query's limit.
fn count_bits(q: &BigRational, path: &str) -> Result<(), QueryError> {
    let bits = q.numer().bits() + q.denom().bits();
    BITS.with(|b| {
        let mut c = b.get();
        c.used = c.used.saturating_add(bits);
        if c.claim.is_none() {
            c.largest = c.largest.max(bits);
        }
        b.set(c);
        if c.used > c.limit {
            return Err(QueryError::new(
                Kind::Limit,
                path,
                format!("the query's numbers exceed the limit of {} bits in all (--max-bits)", c.limit),
            ));
        }
        Ok(())
    })
}

/// Count a number read on backend `N` against the query's bit limit: exact values by their
/// bits; binary64 values not at all (the limit bounds exact arithmetic's growth).
pub fn count_number<N: Scalar>(x: &N, path: &str) -> Result<(), QueryError> {
    if !N::EXACT_VALUES {
        return Ok(());
    }
    match x.to_rational() {
        Some(q) => count_bits(&q, path),
        None => Ok(()),
    }
}

/// An exact rational from a JSON number (the binary64 value it denotes, correctly rounded) or
/// a JSON string (an exact rational), counted against the query's bit limit.
pub fn rational(value: &Json, path: &str) -> Result<BigRational, QueryError> {
    let q = rational_uncounted(value, path)?;
    count_bits(&q, path)?;
    Ok(q)
}

fn rational_uncounted(value: &Json, path: &str) -> Result<BigRational, QueryError> {
    match value {
        // serde_json parsed the number into the binary64 value it denotes (correctly rounded:
        // feature float_roundtrip; a number beyond the range is refused while the line is read,
        // see `json::parse_line`); its exact value is that double's.
        Json::Number(n) => {
            let x = json_number(n);
            BigRational::from_f64(x).map_err(|e| QueryError::number(path, &e))
        }
        Json::String(s) => parse_rational_within(s, &number_limits()).map_err(|e| QueryError::number(path, &e)),
        _ => Err(QueryError::new(Kind::Type, path, "expected a number (a JSON number or a rational string)")),
    }
}

/// The binary64 value of a JSON number (an integer beyond 2⁵³ rounded to the nearest double,
/// as the format says a JSON number means).
pub fn json_number(n: &serde_json::Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// A scalar the oracle reads a query's numbers into: exact rationals ([`rational`]), or
/// binary64 for the float path ([`binary64`]: no big number is made).
pub trait Number: Scalar {
    /// The number at `path`: a JSON number or a rational string.
    fn read(value: &Json, path: &str) -> Result<Self, QueryError>;
    /// The number when it is read without a path (nothing to report): the float path's JSON
    /// numbers. `None`: read it with [`Number::read`].
    fn read_plain(_value: &Json) -> Option<Self> {
        None
    }
}

impl Number for BigRational {
    fn read(value: &Json, path: &str) -> Result<Self, QueryError> {
        rational(value, path)
    }
}

impl Number for f64 {
    fn read(value: &Json, path: &str) -> Result<Self, QueryError> {
        binary64(value, path)
    }
    fn read_plain(value: &Json) -> Option<Self> {
        value.as_f64().filter(|x| x.is_finite())
    }
}

/// The binary64 value of a number: a JSON number as it denotes (correctly rounded), a string
/// `"0.1"` or `"1.5e-3"` correctly rounded from its decimal value, `"p/q"` as the correctly
/// rounded quotient (in binary64 when p and q are integers below 2⁵³, which makes the one
/// division exact-then-rounded; otherwise through the exact rational). Beyond the binary64
/// range is an error, as for exact reading of a JSON number.
pub fn binary64(value: &Json, path: &str) -> Result<f64, QueryError> {
    let finite = |x: f64, text: &str| {
        if x.is_finite() {
            Ok(x)
        } else {
            Err(QueryError::new(
                Kind::Number,
                path,
                format!("{} is beyond the binary64 range", touchstone::scalar::excerpt(text, 24)),
            ))
        }
    };
    let text = match value {
        Json::Number(n) => return finite(json_number(n), "the number"),
        Json::String(s) => s.as_str(),
        _ => return Err(QueryError::new(Kind::Type, path, "expected a number (a JSON number or a rational string)")),
    };
    match f64::parse(text) {
        Ok(x) => finite(x, text),
        Err(touchstone::scalar::NumberError::NotFinite(_)) => finite(f64::INFINITY, text),
        Err(e) => Err(QueryError::number(path, &e)),
    }
}

/// A JSON array of exactly `n` elements (any `n` when `None`).
pub fn array<'a>(value: &'a Json, path: &str, n: Option<usize>, what: &str) -> Result<&'a Vec<Json>, QueryError> {
    match value {
        Json::Array(a) if n.is_none_or(|n| a.len() == n) => Ok(a),
        Json::Array(a) => Err(QueryError::new(
            Kind::Type,
            path,
            format!("{what} must have {} elements, not {}", n.unwrap_or(0), a.len()),
        )),
        _ => Err(QueryError::new(Kind::Type, path, format!("{what} must be a JSON array"))),
    }
}

/// `n` numbers from an array.
pub fn rationals<N: Number>(value: &Json, path: &str, n: usize, what: &str) -> Result<Vec<N>, QueryError> {
    // A path is made only for a number that needs one (to report it, or to count its bits).
    array(value, path, Some(n), what)?
        .iter()
        .enumerate()
        .map(|(i, v)| N::read_plain(v).map_or_else(|| N::read(v, &child(path, i)), Ok))
        .collect()
}

/// A point `[x, y, z]`.
pub fn point<N: Number>(value: &Json, path: &str) -> Result<Point3<N>, QueryError> {
    let c = rationals::<N>(value, path, 3, "a point")?;
    Ok(Point3::new(c[0].clone(), c[1].clone(), c[2].clone()))
}

/// An array of points (exactly `n` when given).
pub fn points<N: Number>(value: &Json, path: &str, n: Option<usize>) -> Result<Vec<Point3<N>>, QueryError> {
    let plain = |v: &Json| match v {
        Json::Array(c) if c.len() == 3 => {
            Some(Point3::new(N::read_plain(&c[0])?, N::read_plain(&c[1])?, N::read_plain(&c[2])?))
        }
        _ => None,
    };
    array(value, path, n, "a list of points")?
        .iter()
        .enumerate()
        .map(|(i, v)| plain(v).map_or_else(|| point(v, &child(path, i)), Ok))
        .collect()
}

/// A non-negative integer that fits `usize`, at most `max`.
pub fn index(value: &Json, path: &str, max: usize, what: &str) -> Result<usize, QueryError> {
    match value.as_u64() {
        Some(i) if (i as u128) < max as u128 => Ok(i as usize),
        Some(i) => Err(QueryError::new(Kind::Invalid, path, format!("{what} {i} is out of range (there are {max})"))),
        None => Err(QueryError::new(Kind::Type, path, format!("{what} must be a non-negative integer"))),
    }
}

/// A string field.
pub fn string<'a>(value: &'a Json, path: &str, what: &str) -> Result<&'a str, QueryError> {
    value.as_str().ok_or_else(|| QueryError::new(Kind::Type, path, format!("{what} must be a string")))
}

#[cfg(test)]
mod tests {
    use super::child;

    /// The inline pointer is the library's pointer, for text and index keys, escapes, and
    /// paths too long to be inline.
    #[test]
    fn inline_pointers_are_the_library_pointers() {
        let long = "/a".repeat(40);
        for path in ["", "/a", "/pose_b/quaternion", long.as_str()] {
            for key in ["b", "m~n/o", "é/", "", "translation"] {
                assert_eq!(child(path, key), touchstone::query::error::child(path, key));
                assert_eq!(child(path, String::from(key)), touchstone::query::error::child(path, String::from(key)));
            }
            for i in [0, 7, 10, 12345, usize::MAX] {
                assert_eq!(child(path, i), touchstone::query::error::child(path, i));
            }
        }
    }
}
