//! The error line of a query that cannot be answered: the library's [`QueryError`], as JSON.

use serde_json::{json, Value};
pub use touchstone::query::{ErrorKind as Kind, QueryError};

/// The `error` object of an output line: `{"kind", "message", "at"}`.
pub fn error_json(e: &QueryError) -> Value {
    json!({"kind": e.kind.as_str(), "message": e.message, "at": e.at})
}
