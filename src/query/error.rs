//! The error of a query that cannot be answered: what, why and where.

use crate::brep::io::{MeshError, MeshErrorKind};
use crate::brep::{BrepError, HullError};
use crate::poly::PolyError;
use crate::scalar::{NumberError, Uncertain};
use crate::sweep::SweepError;
use crate::vclip::VClipError;
use crate::GeomError;

/// The kinds of error (the oracle writes them in the `kind` field of an error line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The line is not valid JSON, or not a JSON object (oracle only).
    Json,
    /// A required field is absent.
    Missing,
    /// A field has the wrong JSON type or the wrong number of elements.
    Type,
    /// A number is NaN, infinite, out of binary64 range or not a number.
    Number,
    /// An unknown op, backend, shape kind, pose form or field name (also a claimed field the
    /// op does not output).
    Unknown,
    /// Part of the format that this version does not implement yet.
    Unsupported,
    /// Geometrically invalid input: a singular transform, a zero quaternion, collinear plane
    /// points, a bad index, a non-positive size, a solid that is not valid.
    Invalid,
    /// A limit was hit (line size, number size, digits, polynomial size, time).
    Limit,
    /// A floating-point backend left its range (a value became infinite or NaN, or a nonzero
    /// divisor underflowed to zero): this input needs an exact backend.
    Overflow,
    /// A floating-point backend could not represent this valid input within its tolerance
    /// (e.g. a shape posed far from the origin whose faces collapse at binary64 precision):
    /// the input is within the backend's tolerance of a degenerate one; an exact backend
    /// answers it.
    Precision,
    /// A backend with certain decisions (intervals) could not decide: the query must be rerun
    /// on an exact backend. The filtered path does that itself; a user sees this kind only
    /// when asking an interval backend directly.
    Uncertain,
    /// A bug in touchstone (a caught panic, or a state the algorithms never reach): please
    /// report the query.
    Internal,
}

impl ErrorKind {
    /// The name written in an error line.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Json => "json",
            ErrorKind::Missing => "missing",
            ErrorKind::Type => "type",
            ErrorKind::Number => "number",
            ErrorKind::Unknown => "unknown",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Limit => "limit",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Precision => "precision",
            ErrorKind::Uncertain => "uncertain",
            ErrorKind::Internal => "internal",
        }
    }

    /// Every kind, for documentation and tests.
    pub const ALL: [ErrorKind; 12] = [
        ErrorKind::Json,
        ErrorKind::Missing,
        ErrorKind::Type,
        ErrorKind::Number,
        ErrorKind::Unknown,
        ErrorKind::Unsupported,
        ErrorKind::Invalid,
        ErrorKind::Limit,
        ErrorKind::Overflow,
        ErrorKind::Precision,
        ErrorKind::Uncertain,
        ErrorKind::Internal,
    ];
}

/// A query that cannot be answered: what, why and where (`at`, a JSON pointer into the query
/// in the oracle's format such as `/a/polyhedron/faces/3`; `""` for the whole query).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} at {at:?}: {message}", kind.as_str())]
pub struct QueryError {
    /// The kind.
    pub kind: ErrorKind,
    /// A sentence for a person.
    pub message: String,
    /// Where.
    pub at: String,
}

impl QueryError {
    /// A new error.
    pub fn new(kind: ErrorKind, at: &str, message: impl Into<String>) -> Self {
        QueryError { kind, message: message.into(), at: at.to_string() }
    }

    /// A rejected number at `at`.
    pub fn number(at: &str, e: &NumberError) -> Self {
        let kind = if e.is_limit() { ErrorKind::Limit } else { ErrorKind::Number };
        QueryError::new(kind, at, e.to_string())
    }

    /// An undecided decision at `at`: [`ErrorKind::Uncertain`], [`ErrorKind::Overflow`]
    /// pointing at `/backend` (the cure is another backend, whatever overflowed), or
    /// [`ErrorKind::Limit`] for a spent budget (the whole query, `""`).
    pub fn uncertain(at: &str, u: Uncertain) -> Self {
        match u {
            Uncertain::Exhausted(_) => QueryError::new(ErrorKind::Limit, "", u.to_string()),
            Uncertain::Close => QueryError::new(ErrorKind::Uncertain, at, u.to_string()),
            Uncertain::Overflow => QueryError::new(
                ErrorKind::Overflow,
                "/backend",
                "a binary64 value left the range while answering (it overflowed to an infinity or NaN, or a nonzero divisor underflowed to zero): this input needs an exact backend (\"backend\": \"exact\")",
            ),
        }
    }

    /// A failed geometric construction at `at` (invalid input, or an undecided decision).
    pub fn geom(at: &str, e: GeomError) -> Self {
        match e {
            GeomError::Uncertain(u) => QueryError::uncertain(at, u),
            e => QueryError::new(ErrorKind::Invalid, at, e.to_string()),
        }
    }

    /// A failed polynomial operation: a size limit, or an undecided decision.
    pub fn poly(at: &str, e: PolyError) -> Self {
        match e {
            PolyError::Uncertain(u) => QueryError::uncertain(at, u),
            // Only the `f64` finder meets a NaN or an infinity: a value left the range.
            PolyError::NotFinite(_) => QueryError::uncertain(at, crate::scalar::Uncertain::Overflow),
            e => QueryError::new(ErrorKind::Limit, at, e.to_string()),
        }
    }

    /// A failed box sweep; `a` and `b` are where the two boxes' motions are (`/motion_a`, ...).
    pub fn sweep(e: SweepError) -> Self {
        let (kind, at) = match &e {
            SweepError::Singular { box_index } | SweepError::Projective { box_index } => {
                (ErrorKind::Invalid, if *box_index == 0 { "/motion_a" } else { "/motion_b" })
            }
            SweepError::BadHalfExtent { box_index, .. } => {
                (ErrorKind::Invalid, if *box_index == 0 { "/a" } else { "/b" })
            }
            SweepError::EmptyInterval | SweepError::TimeOutside => (ErrorKind::Invalid, "/interval"),
            SweepError::BadFeature { box_index } => {
                (ErrorKind::Invalid, if *box_index == 0 { "/claim/features/0" } else { "/claim/features/1" })
            }
            SweepError::Poly(p) => return QueryError::poly("", p.clone()),
            SweepError::Uncertain(u) => return QueryError::uncertain("", *u),
        };
        QueryError::new(kind, at, e.to_string())
    }

    /// A failed distance query (the shapes were checked convex before: other errors are bugs).
    pub fn vclip(at: &str, e: VClipError) -> Self {
        match e {
            VClipError::Uncertain(u) => QueryError::uncertain(at, u),
            VClipError::IterationCap { .. } => QueryError::new(ErrorKind::Limit, at, e.to_string()),
            e => QueryError::new(ErrorKind::Internal, at, e.to_string()),
        }
    }

    /// A solid that is not valid, with `at` pointing at the element (`base` is the shape's
    /// path plus its kind, e.g. `/a/polyhedron`).
    pub fn brep(base: &str, e: BrepError) -> Self {
        use BrepError as B;
        let place = match &e {
            B::Uncertain(u) => return QueryError::uncertain(base, *u),
            B::NonFinite { vertex, .. } | B::UnusedVertex { vertex } | B::NonManifoldVertex { vertex, .. } => {
                child(&child(base, "vertices"), vertex)
            }
            B::DuplicateVertex { second, .. } => child(&child(base, "vertices"), second),
            B::FaceTooSmall { face, .. }
            | B::VertexOutOfRange { face, .. }
            | B::RepeatedVertex { face, .. }
            | B::ZeroLengthEdge { face, .. }
            | B::OpenBoundary { face, .. }
            | B::ZeroAreaFace { face }
            | B::NonPlanarFace { face, .. }
            | B::FaceNotSimple { face, .. } => child(&child(base, "faces"), face),
            B::InconsistentOrientation { second, .. } => child(&child(base, "faces"), second),
            B::TooFewVertices { .. } => child(base, "vertices"),
            B::TooFewFaces { .. } | B::NonManifoldEdge { .. } => child(base, "faces"),
            B::InsideOut | B::ZeroVolume => base.to_string(),
        };
        QueryError::new(ErrorKind::Invalid, &place, e.to_string())
    }

    /// A point set with no solid hull (`at`: the `convex_hull` key's path).
    pub fn hull(at: &str, e: HullError) -> Self {
        match e {
            HullError::NonFinite { point, .. } => QueryError::new(ErrorKind::Number, &child(at, point), e.to_string()),
            HullError::Uncertain(u) => QueryError::uncertain(at, u),
            e => QueryError::new(ErrorKind::Invalid, at, e.to_string()),
        }
    }

    /// A mesh file that cannot be read (`at`: the `file` key's path).
    pub fn mesh(at: &str, e: &MeshError) -> Self {
        let kind = if e.is_limit() {
            ErrorKind::Limit
        } else if matches!(e.kind, MeshErrorKind::BadNumber { .. }) {
            ErrorKind::Number
        } else if matches!(e.kind, MeshErrorKind::UnknownFormat { .. }) {
            ErrorKind::Unsupported
        } else {
            ErrorKind::Invalid
        };
        QueryError::new(kind, at, e.to_string())
    }

    /// This error with `prefix` put before its path (to place a sub-query's error). Errors
    /// about the whole query stay where they are: an overflow (at `/backend`: the cure is
    /// another backend) and a spent budget (at `""`).
    pub fn under(mut self, prefix: &str) -> Self {
        let whole_query = self.kind == ErrorKind::Overflow || (self.kind == ErrorKind::Limit && self.at.is_empty());
        if !whole_query {
            self.at = format!("{prefix}{}", self.at);
        }
        self
    }
}

impl From<Uncertain> for QueryError {
    fn from(u: Uncertain) -> Self {
        QueryError::uncertain("", u)
    }
}

/// A key or an index in a JSON pointer.
pub trait PathKey {
    /// The key's text, unescaped: a name as it is, an index in decimal (written into `digits`,
    /// without the formatting machinery: paths are made on hot paths).
    fn text<'a>(&'a self, digits: &'a mut [u8; 20]) -> &'a str;
}

impl PathKey for str {
    fn text<'a>(&'a self, _: &'a mut [u8; 20]) -> &'a str {
        self
    }
}

impl PathKey for String {
    fn text<'a>(&'a self, _: &'a mut [u8; 20]) -> &'a str {
        self
    }
}

impl<T: PathKey + ?Sized> PathKey for &T {
    fn text<'a>(&'a self, digits: &'a mut [u8; 20]) -> &'a str {
        (**self).text(digits)
    }
}

impl PathKey for usize {
    fn text<'a>(&'a self, digits: &'a mut [u8; 20]) -> &'a str {
        let (mut n, mut k) = (*self, digits.len());
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        std::str::from_utf8(&digits[k..]).unwrap_or_default()
    }
}

/// Append `key`'s pointer segment to a path being built (`~` and `/` escaped): the one
/// writer of [`child`] and of any other string type a caller builds paths in.
pub fn push_segment(key: impl PathKey, mut push: impl FnMut(&str)) {
    let mut digits = [0u8; 20];
    let text = key.text(&mut digits);
    if text.contains(['~', '/']) {
        for (i, part) in text.split('/').enumerate() {
            if i > 0 {
                push("~1");
            }
            for (j, piece) in part.split('~').enumerate() {
                if j > 0 {
                    push("~0");
                }
                push(piece);
            }
        }
    } else {
        push(text);
    }
}

/// The JSON pointer of `key` under `path` (`~` and `/` escaped).
pub fn child(path: &str, key: impl PathKey) -> String {
    let mut out = String::with_capacity(path.len() + 12);
    out.push_str(path);
    out.push('/');
    push_segment(key, |s| out.push_str(s));
    out
}

impl From<crate::budget::Limit> for QueryError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}

#[cfg(test)]
mod tests {
    use super::child;

    #[test]
    fn pointers_escape_keys_and_write_indices_in_decimal() {
        assert_eq!(child("", "a"), "/a");
        assert_eq!(child("/a", 0), "/a/0");
        assert_eq!(child("/a", 9), "/a/9");
        assert_eq!(child("/a", 10), "/a/10");
        assert_eq!(child("/a", usize::MAX), format!("/a/{}", usize::MAX));
        assert_eq!(child("/x", "m~n/o"), "/x/m~0n~1o");
        assert_eq!(child("/x", String::from("é/")), "/x/é~1");
    }
}
