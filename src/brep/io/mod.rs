//! Reading and writing polyhedral meshes: OFF, OBJ and STL, with exact numbers.
//!
//! A file is read into a [`Mesh`] (vertices with exact rational coordinates, faces as lists of
//! vertex ids in file order), which [`Mesh::to_solid`] validates into a [`Solid`] on any backend.
//!
//! The readers are written by hand rather than taken from crates (`stl_io`, `tobj`, ...):
//! those parse every number into `f32` or `f64` and lose the decimal text, and touchstone must
//! be able to read `0.1` as exactly 1/10. [`NumberMode`] chooses between that and the binary64
//! value another engine would see.
//!
//! | format | read | write |
//! | --- | --- | --- |
//! | OFF | [`read_mesh`] | [`write_off`] |
//! | OBJ | [`read_mesh`] | [`write_obj`] |
//! | STL, ASCII or binary | [`read_mesh`] | — |
//!
//! * **OFF**: header `OFF`, counts `nv nf [ne]` (on the header line or the next; `ne` must be
//!   a count, unchecked), `nv` lines `x y z`, `nf` lines `k i0 … ik-1` (0-based; anything after the
//!   indices, such as a colour, is ignored). `#` comments and blank lines anywhere. `COFF`,
//!   `NOFF` and other variants are refused; so is anything after the last face.
//! * **OBJ**: `v x y z [w]` (w must be 1; `v x y z r g b` has its colour ignored) and `f` with
//!   references `i`, `i/j`, `i/j/k`, `i//k`, 1-based or negative (relative to the vertices
//!   defined so far; a face may only refer to vertices above it). Ignored: `vt`, `vn`, `vp`,
//!   `o`, `g`, `s`, `mg`, materials and display attributes, and the `l` and `p` elements
//!   (lines and points bound no volume). Refused: free-form geometry (`curv`, `surf`, ...),
//!   which skipping would silently change the shape, and unknown keywords. No `\` line
//!   continuation.
//! * **STL**: binary when the size is exactly 84 + 50·count bytes (even if the header starts
//!   with `solid`), else ASCII when the text starts with `solid` (and has no NUL byte). A triangle soup, welded by
//!   exact coordinate equality (-0 = 0) into vertex ids in order of first appearance. Stored
//!   normals are skipped unread. Binary `f32` values are taken exactly. Several `solid` blocks
//!   in one ASCII file make one mesh.
//!
//! Every reader returns a [`MeshError`] naming the file, the line (or binary STL record) and
//! the element; no input bytes make it panic, and counts are limited ([`MAX_ELEMENTS`]) before
//! anything is allocated for them.

mod error;
mod obj;
mod off;
mod stl;
mod text;
mod write;

use std::borrow::Cow;
use std::path::Path;

use num_rational::BigRational;
use num_traits::Zero;

use super::{BrepError, Solid};
use crate::geom::Point3;
use crate::scalar::Scalar;

pub use error::{Location, MeshError, MeshErrorKind, WITHHELD};
/// How many characters of the file's own text an error message quotes (a bad token).
pub const EXCERPT_CHARS: usize = 16;
pub use write::{write_obj, write_off, NumberStyle};

/// The largest vertex, face or triangle count a file may claim (10⁸): a header claiming more
/// is refused before any allocation.
pub const MAX_ELEMENTS: u64 = 100_000_000;

/// How the decimal numbers of a text file are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NumberMode {
    /// A decimal is its exact value (`0.1` is 1/10); integers and `p/q` are read too.
    #[default]
    Exact,
    /// A decimal is the binary64 number nearest to it (correctly rounded, as another engine
    /// reading the file sees it), taken exactly; `p/q` is refused.
    Binary64,
}

/// A mesh file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshFormat {
    /// Object File Format (`.off`).
    Off,
    /// Wavefront OBJ (`.obj`).
    Obj,
    /// STL, ASCII or binary (`.stl`).
    Stl,
}

impl MeshFormat {
    /// The format a path's extension names, or the error naming the file and its extension
    /// ([`MeshErrorKind::UnknownFormat`]).
    pub fn of(path: &Path) -> Result<Self, MeshError> {
        Self::from_path(path).ok_or_else(|| {
            let extension = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
            MeshError::new(Location::Input, MeshErrorKind::UnknownFormat { extension }).in_file(path)
        })
    }

    /// The format a path's extension names (`.off`, `.obj`, `.stl`, any case), if any.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "off" => Some(MeshFormat::Off),
            "obj" => Some(MeshFormat::Obj),
            "stl" => Some(MeshFormat::Stl),
            _ => None,
        }
    }
}

/// A polygon mesh as read from a file, before validation: vertex coordinates on backend `N`
/// (exact rationals by default; `f64` for the float path, read without any big number) and
/// faces as vertex ids (0-based, in file order), counterclockwise seen from outside for a
/// solid.
///
/// A reader guarantees that every face index is in range; nothing else (faces may be
/// degenerate, the surface open): [`Mesh::to_solid`] checks the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh<N: Scalar = BigRational> {
    /// Vertex coordinates.
    pub vertices: Vec<Point3<N>>,
    /// Faces as vertex ids.
    pub faces: Vec<Vec<usize>>,
}

impl<N: Scalar> Default for Mesh<N> {
    fn default() -> Self {
        Mesh { vertices: Vec::new(), faces: Vec::new() }
    }
}

impl<N: Scalar> Mesh<N> {
    /// Validate the mesh as a solid on backend `S` (coordinates converted exactly, or rounded
    /// for an inexact backend), with every check of [`Solid::new`].
    pub fn to_solid<S: Scalar>(&self) -> Result<Solid<S>, BrepError> {
        let vertices = self.vertices.iter().map(|p| p.map(|c| c.to_backend::<S>())).collect();
        Solid::new(vertices, self.faces.clone())
    }
}

/// Limits of reading a mesh: refused as soon as they are seen to be exceeded (an OFF header's
/// count before anything is read; OBJ and STL vertices as they come).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The longest file, in bytes.
    pub max_bytes: u64,
    /// The most vertices (after welding, for STL).
    pub max_vertices: u64,
}

impl Default for ReadLimits {
    /// [`MAX_FILE_BYTES`] and [`MAX_ELEMENTS`].
    fn default() -> Self {
        ReadLimits { max_bytes: MAX_FILE_BYTES, max_vertices: MAX_ELEMENTS }
    }
}

impl<S: Scalar> From<&Solid<S>> for Mesh {
    /// A solid's vertices (exactly) and faces.
    fn from(solid: &Solid<S>) -> Self {
        // Validation refuses non-finite coordinates, so `to_rational` is always `Some` here.
        let vertices =
            solid.vertices().iter().map(|p| p.map(|c| c.to_rational().unwrap_or_else(BigRational::zero))).collect();
        Mesh { vertices, faces: solid.faces().to_vec() }
    }
}

/// Something a writer can write: a [`Mesh`] or a [`Solid`] on any backend.
pub trait AsMesh {
    /// The mesh, borrowed when it already is one.
    fn as_mesh(&self) -> Cow<'_, Mesh>;
}

impl AsMesh for Mesh {
    fn as_mesh(&self) -> Cow<'_, Mesh> {
        Cow::Borrowed(self)
    }
}

impl<S: Scalar> AsMesh for Solid<S> {
    fn as_mesh(&self) -> Cow<'_, Mesh> {
        Cow::Owned(Mesh::from(self))
    }
}

/// Read a mesh file, choosing the format by the extension (`.off`, `.obj`, `.stl`, any case).
///
/// Errors name the file: an unknown extension, an I/O error, or any error of
/// [`read_mesh_from`].
pub fn read_mesh(path: &Path, mode: NumberMode) -> Result<Mesh, MeshError> {
    read_mesh_with(path, mode, &ReadLimits::default())
}

/// [`read_mesh`] on backend `N` with limits: a file longer than `limits.max_bytes` is refused
/// ([`MeshErrorKind::TooLarge`]) after reading at most one byte more, a mesh with more
/// vertices than `limits.max_vertices` as soon as that is known ([`MeshErrorKind::TooMany`]),
/// and anything but a regular file ([`MeshErrorKind::NotAFile`]: a device such as
/// `/dev/zero`, a FIFO, a folder) unread: the kind of the file is checked before it is opened
/// (opening a FIFO would wait for a writer), and again on the opened file.
pub fn read_mesh_with<N: Scalar>(path: &Path, mode: NumberMode, limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    read_mesh_as(path, MeshFormat::of(path)?, mode, limits)
}

/// [`read_mesh_with`] in a given format, whatever the path's extension (a caller that resolved
/// a symbolic link `x.off` to its target reads the target as OFF).
pub fn read_mesh_as<N: Scalar>(
    path: &Path,
    format: MeshFormat,
    mode: NumberMode,
    limits: &ReadLimits,
) -> Result<Mesh<N>, MeshError> {
    use std::io::Read;
    let fail = |kind: MeshErrorKind| MeshError::new(Location::Input, kind).in_file(path);
    if !std::fs::metadata(path).map_err(|e| fail(MeshErrorKind::Io(e)))?.is_file() {
        return Err(fail(MeshErrorKind::NotAFile));
    }
    let file = open_nonblocking(path).map_err(|e| fail(MeshErrorKind::Io(e)))?;
    let meta = file.metadata().map_err(|e| fail(MeshErrorKind::Io(e)))?;
    if !meta.is_file() {
        return Err(fail(MeshErrorKind::NotAFile));
    }
    if meta.len() > limits.max_bytes {
        return Err(fail(MeshErrorKind::TooLarge { limit: limits.max_bytes }));
    }
    // The length may change while reading (or lie, for special files): read at most one byte
    // beyond the limit.
    let mut bytes = Vec::new();
    file.take(limits.max_bytes.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| fail(MeshErrorKind::Io(e)))?;
    if bytes.len() as u64 > limits.max_bytes {
        return Err(fail(MeshErrorKind::TooLarge { limit: limits.max_bytes }));
    }
    read_mesh_from_with(&bytes, format, mode, limits).map_err(|e| e.in_file(path))
}

/// Open for reading without waiting: a FIFO swapped in after the check would otherwise block
/// the open until a writer comes (on a regular file the flag changes nothing).
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The default byte limit of [`read_mesh`]: 256 MiB.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Read a mesh from bytes in memory.
///
/// Vertex ids are in file order (for STL: in order of first appearance after welding equal
/// coordinates). Text numbers are read as `mode` says; binary STL numbers are `f32`, taken
/// exactly in both modes. Errors name the line (text) or record (binary STL) and the element;
/// no input makes this panic.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::io::{read_mesh_from, MeshFormat, NumberMode};
///
/// let off = b"OFF\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 0.1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
/// let mesh = read_mesh_from(off, MeshFormat::Off, NumberMode::Exact).unwrap();
/// assert_eq!(mesh.vertices[3].z, BigRational::new(1.into(), 10.into()));
/// let tetra = mesh.to_solid::<BigRational>().unwrap();
/// assert_eq!(tetra.edge_count(), 6);
///
/// // The same text as another engine reads it: the double nearest 0.1.
/// let mesh = read_mesh_from(off, MeshFormat::Off, NumberMode::Binary64).unwrap();
/// assert_eq!(mesh.vertices[3].z, BigRational::from_float(0.1).unwrap());
/// ```
pub fn read_mesh_from(bytes: &[u8], format: MeshFormat, mode: NumberMode) -> Result<Mesh, MeshError> {
    read_mesh_from_with(bytes, format, mode, &ReadLimits::default())
}

/// [`read_mesh_from`] on backend `N` (numbers read straight into it: no big number for `f64`)
/// with a vertex limit (`limits.max_vertices`; the byte limit is the caller's).
pub fn read_mesh_from_with<N: Scalar>(
    bytes: &[u8],
    format: MeshFormat,
    mode: NumberMode,
    limits: &ReadLimits,
) -> Result<Mesh<N>, MeshError> {
    match format {
        MeshFormat::Off => off::read(bytes, mode, limits),
        MeshFormat::Obj => obj::read(bytes, mode, limits),
        MeshFormat::Stl => stl::read(bytes, mode, limits),
    }
}
