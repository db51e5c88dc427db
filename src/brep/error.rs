//! Why a mesh is not a valid solid. Every variant names the offending element.

use crate::scalar::Uncertain;

/// A defect of a polyhedral mesh that stops it from being a closed, oriented, 2-manifold
/// solid with simple planar faces.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrepError {
    /// A backend could not decide a sign (filtered backends only): rerun exactly.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// A coordinate is NaN or infinite.
    #[error("vertex {vertex}: coordinate {coordinate} is not finite")]
    NonFinite {
        /// The vertex.
        vertex: usize,
        /// 0, 1 or 2 for x, y, z.
        coordinate: usize,
    },
    /// Fewer than four vertices: no solid.
    #[error("{count} vertices: a solid needs at least 4")]
    TooFewVertices {
        /// How many there are.
        count: usize,
    },
    /// Fewer than four faces: no solid.
    #[error("{count} faces: a solid needs at least 4")]
    TooFewFaces {
        /// How many there are.
        count: usize,
    },
    /// A face with fewer than three vertices.
    #[error("face {face} has {count} vertices; a face needs at least 3")]
    FaceTooSmall {
        /// The face.
        face: usize,
        /// How many vertices it has.
        count: usize,
    },
    /// A face refers to a vertex that does not exist.
    #[error("face {face} refers to vertex {index}, but there are only {count} vertices")]
    VertexOutOfRange {
        /// The face.
        face: usize,
        /// The bad index.
        index: usize,
        /// The number of vertices.
        count: usize,
    },
    /// A face visits a vertex twice.
    #[error("face {face} visits vertex {vertex} more than once")]
    RepeatedVertex {
        /// The face.
        face: usize,
        /// The vertex.
        vertex: usize,
    },
    /// Two vertices with the same coordinates.
    #[error("vertices {first} and {second} have the same coordinates")]
    DuplicateVertex {
        /// The lower id.
        first: usize,
        /// The higher id.
        second: usize,
    },
    /// A vertex no face uses.
    #[error("vertex {vertex} is used by no face")]
    UnusedVertex {
        /// The vertex.
        vertex: usize,
    },
    /// An edge whose endpoints coincide (only possible with distinct ids at one point).
    #[error("edge {from}–{to} of face {face} has zero length")]
    ZeroLengthEdge {
        /// The face.
        face: usize,
        /// One end.
        from: usize,
        /// The other end.
        to: usize,
    },
    /// An edge used by one face only: the surface has a hole.
    #[error("edge {from}–{to} is used by face {face} only: the surface is open")]
    OpenBoundary {
        /// One end (lower id).
        from: usize,
        /// The other end.
        to: usize,
        /// The one face.
        face: usize,
    },
    /// An edge used by more than two faces.
    #[error("edge {from}–{to} is used by {faces} faces: not a 2-manifold")]
    NonManifoldEdge {
        /// One end (lower id).
        from: usize,
        /// The other end.
        to: usize,
        /// How many faces use it.
        faces: usize,
    },
    /// Two faces traverse their common edge in the same direction.
    #[error("faces {first} and {second} both run {from}→{to}: inconsistent orientation")]
    InconsistentOrientation {
        /// The direction's start.
        from: usize,
        /// The direction's end.
        to: usize,
        /// One face.
        first: usize,
        /// The other face.
        second: usize,
    },
    /// The faces around a vertex form more than one fan (two cones meeting at a point).
    #[error("vertex {vertex} joins {fans} separate fans of faces: not a 2-manifold")]
    NonManifoldVertex {
        /// The vertex.
        vertex: usize,
        /// How many fans.
        fans: usize,
    },
    /// A face of zero area.
    #[error("face {face} has zero area")]
    ZeroAreaFace {
        /// The face.
        face: usize,
    },
    /// A vertex of a face off the face's plane.
    #[error("face {face} is not planar: vertex {vertex} is off its plane")]
    NonPlanarFace {
        /// The face.
        face: usize,
        /// The vertex off the plane.
        vertex: usize,
    },
    /// A face whose boundary crosses or touches itself.
    #[error("face {face} is not a simple polygon: its edges at vertices {first} and {second} meet")]
    FaceNotSimple {
        /// The face.
        face: usize,
        /// Start vertex of one offending edge.
        first: usize,
        /// Start vertex of the other.
        second: usize,
    },
    /// The faces are oriented clockwise seen from outside: negative volume.
    #[error(
        "the solid is inside out: its signed volume is negative (faces must run counterclockwise seen from outside)"
    )]
    InsideOut,
    /// Zero volume.
    #[error("the solid has zero volume")]
    ZeroVolume,
}

impl From<crate::budget::Limit> for BrepError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
