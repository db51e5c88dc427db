//! The error line of a query that cannot be answered.

use serde_json::{json, Value};
use touchstone::scalar::NumberError;
use touchstone::GeomError;

/// The kinds of error, as written in the `kind` field of an error line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The line is not valid JSON, or not a JSON object.
    Json,
    /// A required field is absent.
    Missing,
    /// A field has the wrong JSON type or the wrong number of elements.
    Type,
    /// A number is NaN, infinite, out of binary64 range or not a number.
    Number,
    /// An unknown op, backend, shape kind, pose form or field name.
    Unknown,
    /// Part of the format that this version does not implement yet.
    Unsupported,
    /// Geometrically invalid input: a singular transform, a zero quaternion, collinear plane
    /// points, a bad index, a non-positive size.
    Invalid,
    /// A limit was hit (line size, number size, digits).
    Limit,
    /// A bug in touchstone (a caught panic): please report the line.
    Internal,
}

impl Kind {
    /// The name written in the error line.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Json => "json",
            Kind::Missing => "missing",
            Kind::Type => "type",
            Kind::Number => "number",
            Kind::Unknown => "unknown",
            Kind::Unsupported => "unsupported",
            Kind::Invalid => "invalid",
            Kind::Limit => "limit",
            Kind::Internal => "internal",
        }
    }

    /// Every kind, for documentation and tests.
    pub const ALL: [Kind; 9] = [
        Kind::Json,
        Kind::Missing,
        Kind::Type,
        Kind::Number,
        Kind::Unknown,
        Kind::Unsupported,
        Kind::Invalid,
        Kind::Limit,
        Kind::Internal,
    ];
}

/// A query that cannot be answered: what, why and where (a JSON pointer into the query, `""`
/// for the whole line).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{} at {at:?}: {message}", kind.as_str())]
pub struct QueryError {
    /// The kind.
    pub kind: Kind,
    /// A sentence for a person.
    pub message: String,
    /// Where: a JSON pointer such as `/points/2/0`.
    pub at: String,
}

impl QueryError {
    /// A new error.
    pub fn new(kind: Kind, at: &str, message: impl Into<String>) -> Self {
        QueryError { kind, message: message.into(), at: at.to_string() }
    }

    /// The `error` object of the output line.
    pub fn to_json(&self) -> Value {
        json!({"kind": self.kind.as_str(), "message": self.message, "at": self.at})
    }

    /// A rejected number at `at`.
    pub fn number(at: &str, e: &NumberError) -> Self {
        let kind = if e.is_limit() { Kind::Limit } else { Kind::Number };
        QueryError::new(kind, at, e.to_string())
    }

    /// A failed geometric construction at `at`.
    pub fn geom(at: &str, e: GeomError) -> Self {
        let kind = if matches!(e, GeomError::Uncertain(_)) { Kind::Internal } else { Kind::Invalid };
        QueryError::new(kind, at, e.to_string())
    }
}
