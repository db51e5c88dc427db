//! Errors of mesh reading and writing. Each names the file (when read from a path), the place
//! in it (a 1-based line, or a binary STL record) and the element at fault.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::scalar::NumberError;

/// Where in the input an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The input as a whole (its name, its size) or, for writers, the output.
    Input,
    /// A line of a text format, numbered from 1.
    Line(usize),
    /// A triangle record of a binary STL file, numbered from 0 like the faces it becomes.
    Record(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Input => Ok(()),
            Location::Line(n) => write!(f, "line {n}: "),
            Location::Record(n) => write!(f, "triangle record {n}: "),
        }
    }
}

/// Why a mesh could not be read or written: what went wrong ([`MeshErrorKind`]), where, and in
/// which file.
///
/// Displayed as `file: line N: message`. The wrapped [`NumberError`] or I/O error is in
/// [`MeshError::kind`] (and in the message), not in `source()`, so that a report printing the
/// chain does not repeat it.
#[derive(Debug, thiserror::Error)]
#[error("{}{at}{kind}", file_prefix(.file.as_deref()))]
pub struct MeshError {
    /// The file, when the mesh was read from a path.
    pub file: Option<PathBuf>,
    /// Where in the input.
    pub at: Location,
    /// What went wrong.
    pub kind: MeshErrorKind,
}

pub use crate::scalar::WITHHELD;

fn file_prefix(file: Option<&Path>) -> String {
    file.map(|p| format!("{}: ", p.display())).unwrap_or_default()
}

impl MeshError {
    /// An error at `at` of an input without a name.
    pub(crate) fn new(at: Location, kind: MeshErrorKind) -> Self {
        MeshError { file: None, at, kind }
    }

    /// The same error, naming the file it was found in (for a caller that read a resolved
    /// path and reports the name it was given).
    pub fn in_file(mut self, path: &Path) -> Self {
        self.file = Some(path.to_path_buf());
        self
    }

    /// The same error without any of the input's text: what was found (a header, a count, a
    /// token, a number) is withheld, the place and the element stay. For a reader that reports
    /// to someone who may not read the file itself (the oracle reading a `file` shape on a
    /// query's behalf: a link to `/proc/self/environ` must not come back quoted).
    pub fn redacted(mut self) -> Self {
        use MeshErrorKind as K;
        let withheld = || WITHHELD.to_string();
        match &mut self.kind {
            K::BadHeader { found, .. } | K::UnexpectedToken { found, .. } | K::TrailingData { found } => {
                *found = withheld()
            }
            K::BadCount { text, .. } | K::BadIndex { text, .. } => *text = withheld(),
            K::Unsupported { element, .. } => *element = withheld(),
            K::BadNumber { error, .. } => *error = error.clone().redacted(),
            _ => {}
        }
        self
    }

    /// Whether the input was refused for a size limit (a count or a number too large) rather
    /// than for being malformed.
    pub fn is_limit(&self) -> bool {
        match &self.kind {
            MeshErrorKind::TooMany { .. } | MeshErrorKind::TooLarge { .. } => true,
            MeshErrorKind::BadNumber { error, .. } => error.is_limit(),
            _ => false,
        }
    }
}

/// What went wrong, naming the element (vertices and faces by their 0-based ids in the mesh).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MeshErrorKind {
    /// Reading or writing failed.
    #[error("I/O error: {0}")]
    Io(std::io::Error),
    /// A path whose extension is not `.off`, `.obj` or `.stl`.
    #[error("unknown mesh format {extension:?}: expected .off, .obj or .stl")]
    UnknownFormat {
        /// The extension found (empty when there is none).
        extension: String,
    },
    /// The file does not start as the format requires.
    #[error("bad header {found:?}: expected {expected}")]
    BadHeader {
        /// What was found instead (cut to `EXCERPT_CHARS` characters).
        found: String,
        /// What the format requires.
        expected: &'static str,
    },
    /// A count that is not a non-negative integer, or a counts line of the wrong length.
    #[error("bad {what} {text:?}: expected a non-negative integer")]
    BadCount {
        /// Which count (`"vertex count"`, `"face size of face 3"`, ...).
        what: String,
        /// The text found (cut to `EXCERPT_CHARS` characters).
        text: String,
    },
    /// A file longer than the byte limit ([`MAX_FILE_BYTES`](super::MAX_FILE_BYTES) or the
    /// caller's), refused after reading one byte more than the limit.
    #[error("the file is longer than the limit of {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// Not a regular file (a device, a FIFO, a folder): refused unread.
    #[error("not a regular file")]
    NotAFile,
    /// A count beyond [`MAX_ELEMENTS`](super::MAX_ELEMENTS), refused before allocating.
    #[error("{count} {what} exceed the limit of {limit}")]
    TooMany {
        /// What is counted (`"vertices"`, `"faces"`, `"triangles"`).
        what: &'static str,
        /// The count claimed.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// A vertex line with the wrong number of coordinates.
    #[error("vertex {vertex} has {found} values: expected {expected}")]
    WrongCoordinateCount {
        /// The vertex id.
        vertex: usize,
        /// How many values the line has.
        found: usize,
        /// What the format accepts (`"3"`, `"3, 4 (with w) or 6 (with a colour)"`).
        expected: &'static str,
    },
    /// A number that could not be read (malformed, not finite, or beyond a size limit).
    #[error("bad number for {element}: {error}")]
    BadNumber {
        /// The element (`"coordinate y of vertex 3"`).
        element: String,
        /// Why the number was refused.
        error: NumberError,
    },
    /// A vertex reference of a face that is not an integer (or, in OBJ, is 0 or malformed).
    #[error("face {face}, position {position}: bad vertex index {text:?} ({reason})")]
    BadIndex {
        /// The face id.
        face: usize,
        /// The position of the reference in the face, from 0.
        position: usize,
        /// The text found (cut to `EXCERPT_CHARS` characters).
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A vertex reference of a face to a vertex that does not exist (in OBJ: not yet defined).
    #[error("face {face}, position {position}: vertex index {index} is out of range ({count} vertices)")]
    IndexOutOfRange {
        /// The face id.
        face: usize,
        /// The position of the reference in the face, from 0.
        position: usize,
        /// The index as written in the file (OBJ: 1-based or negative).
        index: i64,
        /// The number of vertices it may refer to.
        count: usize,
    },
    /// An OFF face line with fewer vertex indices than its size says.
    #[error("face {face} should have {expected} vertex indices, found {found}")]
    MissingIndices {
        /// The face id.
        face: usize,
        /// The face size written at the start of the line.
        expected: usize,
        /// How many values follow it.
        found: usize,
    },
    /// A keyword other than the grammar allows at this point (ASCII STL).
    #[error("expected {expected}, found {found:?}")]
    UnexpectedToken {
        /// What the grammar allows.
        expected: &'static str,
        /// What was found (cut to `EXCERPT_CHARS` characters).
        found: String,
    },
    /// The input ended before the mesh did.
    #[error("unexpected end of file: expected {expected}")]
    UnexpectedEof {
        /// What was still expected.
        expected: String,
    },
    /// A binary STL file shorter than its triangle count requires.
    #[error("truncated binary STL: {count} triangles need {expected} bytes, the file has {found}")]
    TruncatedBinary {
        /// The triangle count in the header (0 when even the header is incomplete).
        count: u64,
        /// The size that count requires.
        expected: u64,
        /// The actual size.
        found: u64,
    },
    /// Data after the end of the mesh (more lines than the OFF counts say, bytes after the
    /// last binary STL record, text after `endsolid`).
    #[error("unexpected data after the end of the mesh: {found}")]
    TrailingData {
        /// What was found (cut to 64 characters, or a byte count).
        found: String,
    },
    /// An element this reader does not support (OBJ free-form geometry, an OBJ weight w ≠ 1,
    /// an unknown OBJ keyword).
    #[error("unsupported element {element:?}: {reason}")]
    Unsupported {
        /// The element (keyword or value, cut to 64 characters).
        element: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A writer asked for binary64 output met a coordinate beyond the binary64 range.
    #[error("coordinate {coordinate} of vertex {vertex} is beyond the binary64 range")]
    NotRepresentable {
        /// The vertex id.
        vertex: usize,
        /// 0, 1 or 2 for x, y, z.
        coordinate: usize,
    },
}
