//! The Brep-index: a ternary MSP tree (multidimensional space partition) over a solid's
//! boundary, for exact point and segment classification (Vaněček 1990 §2; Bouma and Vaněček
//! 1992 §4.2).
//!
//! Each internal node holds an oriented cut plane and three children: the open region
//! *above* the plane (the side its normal points to), the region *on* it (one dimension
//! lower) and the region *below* it. A leaf is a 3-dimensional region inside or outside the
//! solid, or a lower-dimensional region that lies in one vertex, edge or face of the solid
//! ([`Leaf::On`]), or one that holds no boundary ([`Leaf::Free`]).
//!
//! # Building (§2.1–2.3)
//! [`MspTree::build`] runs the paper's three phases as one recursion over the pieces of the
//! boundary that fall into each region, so faces are cut first, edges next and vertices last
//! along every path:
//!
//! 1. **Faces.** A 3-dimensional region with face pieces in it is cut by the plane of one of
//!    them (autopartition: the first piece in face order), oriented as that face (outward).
//!    Nonconvex faces are first split into triangles by ear clipping; the diagonals are pseudo
//!    edges. Pieces crossing the cut are split into convex pieces above and below; the trace
//!    of a split piece on the cut is a pseudo edge, the point where an edge crosses it a pseudo
//!    vertex. A region left with no face piece is a leaf: outside when it is above its
//!    parent's face plane, inside when below (the parent's face lies on the region's boundary
//!    with its outward side toward "above").
//! 2. **Edges.** A 2-dimensional region (on a cut plane Π) with edge pieces in it is cut by the
//!    plane through one of them perpendicular to Π, oriented so that a piece of an adjacent face
//!    lying in Π is below it (§2.1, phase 2 (c)).
//! 3. **Vertices.** The paper omits this phase; our choice: a vertex in a 1-dimensional region
//!    (a line L) is cut off by the plane through it perpendicular to L; a vertex left in a
//!    2-dimensional region (a vertex that touches Π without an edge in Π) is first cut by the
//!    plane through it perpendicular to Π with normal Π's normal × the coordinate axis least
//!    aligned with it, which puts it on a line.
//!
//! Every leaf then holds the pieces of one entity or none: **attaching** (§2.2) records it, and
//! **reducing** (§2.3) replaces every pseudo entity by the original entity it lies in (a pseudo
//! edge by its face, a pseudo vertex by the edge or face it splits), so the index names only
//! the solid's own vertices, edges and faces. The [`Solid`] is never changed: the index keeps its
//! own convex pieces.
//!
//! **Hybrid** ([`Split::Hybrid`], §5 of the 1990 paper): while a 3-dimensional region holds
//! more than `max_faces` face pieces (and fewer than `max_regular` regular cuts lie above it),
//! it is cut by an axis-aligned plane instead: across the axis of the pieces' largest extent,
//! at the median of their vertices' coordinates rounded to 16 significant bits of that extent
//! (small numbers for the exact backends), and only when pieces lie strictly on both sides.
//!
//! # Exactness and bit sizes
//! Derived points are never chained: every pseudo vertex and every vertex of a split piece is
//! the intersection of three planes (a face plane, an edge's line plane, a cut plane), kept in
//! homogeneous coordinates (Cramer's rule without the division), and every cut plane is made
//! from input planes or input points and at most one derived point (DESIGN.md §3). On exact
//! backends every decision is exact with zero tolerance; `f64` decides with the tolerance
//! policy of [`crate::scalar::tolerance`] (the ε of §2.4).
//!
//! # Classifying
//! [`MspTree::classify_point`] walks from the root to a leaf. A point that ends in a free
//! lower-dimensional region is off the boundary, so it is classified again as the point pushed
//! by an infinitesimal (ε, ε², ε³) (symbolic perturbation: at a cut plane it lies on, it goes
//! to the side the first nonzero coordinate of the plane's normal points to), which always ends
//! in a 3-dimensional leaf. [`MspTree::classify_segment`] splits the segment at the cut planes
//! it crosses (§2.4), with exact parameters along it, and merges equal neighbours (Fig. 3).
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::brep::{shapes, Feature};
//! use touchstone::geom::point;
//! use touchstone::msp::{Class, MspTree, Options};
//!
//! let tetra = shapes::tetrahedron::<BigRational>();
//! let index = MspTree::build(&tetra, &Options::default()).unwrap();
//! // A convex solid's autopartition index has v + e + f internal nodes (1992 §4.2).
//! assert_eq!(index.stats().nodes, 4 + 6 + 4);
//! // Vertex 0 is (1, 1, 1); the centroid is inside.
//! assert_eq!(index.classify_point(&point(1, 1, 1)).unwrap().class, Class::On(Feature::Vertex(0)));
//! assert_eq!(index.classify_point(&point(0, 0, 0)).unwrap().class, Class::Inside);
//! assert_eq!(index.classify_point(&point(5, 5, 5)).unwrap().class, Class::Outside);
//! // A segment through vertex 0 from outside to inside: outside, the vertex, inside.
//! let s = index.classify_segment(&point(2, 2, 2), &point(0, 0, 0)).unwrap();
//! let classes: Vec<Class> = s.pieces.iter().map(|p| p.class.clone()).collect();
//! assert_eq!(classes, [Class::Outside, Class::On(Feature::Vertex(0)), Class::Inside]);
//! assert_eq!(s.pieces[1].from, BigRational::new(1.into(), 2.into()));
//! ```

mod brute;
mod build;
mod classify;
mod geom;
mod intersect;
mod validate;

pub use brute::{brute_force_classify, face_sample_points};
pub use classify::{PointAnswer, SegmentAnswer, SegmentPiece};
pub use intersect::{BoundaryPiece, PieceShape};
pub use validate::{validate_index, IndexDefect};

use crate::brep::{Feature, Solid};
use crate::geom::Plane;
use crate::scalar::{Scalar, Uncertain};

/// How cut planes are chosen in 3-dimensional regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Only the planes of face pieces (the 1990 paper's §2.1).
    Autopartition,
    /// Axis-aligned regular cuts while a region holds more than `max_faces` face pieces, at
    /// most `max_regular` of them on a path; autopartition below (§5).
    Hybrid {
        /// Regular cuts while a region holds more face pieces than this.
        max_faces: usize,
        /// The most regular cuts on one path.
        max_regular: usize,
    },
}

impl Split {
    /// The hybrid with the defaults used for the table of docs/brep-index.md: regular cuts while more than
    /// 8 face pieces remain, at most 24 on a path.
    pub const HYBRID: Split = Split::Hybrid { max_faces: 8, max_regular: 24 };
}

/// Options of [`MspTree::build`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The cut plane heuristic.
    pub split: Split,
    /// Record, on exact backends, the largest bit size of a derived coordinate or plane
    /// coefficient (numerator plus denominator bits), in [`Stats::max_bits`]. Costs a
    /// conversion per derived value.
    pub measure_bits: bool,
    /// Keep a witness point for every leaf that holds an entity (the centroid of the piece that
    /// fills its region), for [`validate_index`].
    pub witnesses: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { split: Split::Autopartition, measure_bits: false, witnesses: false }
    }
}

/// What a point or a piece of a segment is, with respect to a solid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// In the interior.
    Inside,
    /// In the exterior.
    Outside,
    /// On the boundary, in the relative interior of this feature (a vertex; an edge, open; a
    /// face, open).
    On(Feature),
}

/// A leaf of the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// A 3-dimensional region inside the solid.
    Inside,
    /// A 3-dimensional region outside the solid.
    Outside,
    /// A lower-dimensional region in the relative interior of this entity of the solid.
    On(Feature),
    /// A lower-dimensional region that holds no boundary point (inside or outside: a point
    /// there is classified by perturbation).
    Free,
}

/// A child of a node: another node (by index) or a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// An internal node.
    Node(usize),
    /// A leaf.
    Leaf(Leaf),
}

/// An internal node: a cut plane and the regions above, on and below it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<S: Scalar> {
    /// The oriented cut plane.
    pub plane: Plane<S>,
    /// The dimension of the node's region (3, 2 or 1).
    pub dim: u8,
    /// Above (the normal's side), on, below.
    pub children: [Link; 3],
}

/// The figures of an index (Table 1 of the 1990 paper).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Internal nodes.
    pub nodes: usize,
    /// The height: the most internal nodes on a path from the root to a leaf.
    pub height: usize,
    /// The mean number of internal nodes above the leaves that hold an entity of the solid.
    pub average_height: f64,
    /// The sum of those numbers (the average is exactly this over `leaves[2]`).
    pub entity_depths: usize,
    /// Leaves, by kind: inside, outside, on an entity, free.
    pub leaves: [usize; 4],
    /// Pseudo edges and pseudo vertices made by splitting (all reduced away).
    pub pseudo: [usize; 2],
    /// Regular (non-face) cuts of the hybrid split.
    pub regular_cuts: usize,
    /// Cuts by phase: through a face piece's plane, through an edge piece (perpendicular to
    /// the region's plane), through a vertex on a line (perpendicular to it), through a vertex
    /// in a plane with no edge there (perpendicular to the plane; the second case of our
    /// vertex phase). With the regular cuts they are every node.
    pub cuts: [usize; 4],
    /// The largest bit size of a derived value (when measured, on exact backends; else 0).
    pub max_bits: u64,
    /// Edge and vertex pieces that reached a 3-dimensional leaf: never on an exact backend (the
    /// validator reports any as a defect).
    pub lost: usize,
}

/// Why an index could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MspError {
    /// A decision the backend could not take (an interval too wide, an overflow, the budget).
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// An inexact backend's planes met degenerately (three planes through a line within its
    /// tolerance): the backend's precision, not the input.
    #[error("{0}")]
    Precision(String),
}

/// The Brep-index of a solid: see the [module docs](self).
#[derive(Clone, Debug)]
pub struct MspTree<S: Scalar> {
    pub(crate) nodes: Vec<Node<S>>,
    pub(crate) root: Link,
    pub(crate) stats: Stats,
    /// Per node: the parent node and which child this is (0 above, 1 on, 2 below).
    pub(crate) parent: Vec<Option<(usize, u8)>>,
    /// Entity leaves with a witness point in their region (the centroid of the piece that
    /// fills it), for the validator.
    pub(crate) witnesses: Vec<(usize, u8, nalgebra::Point3<S>)>,
}

impl<S: Scalar> MspTree<S> {
    /// Build the index of `solid` (see the [module docs](self)).
    pub fn build(solid: &Solid<S>, options: &Options) -> Result<Self, MspError> {
        build::build(solid, options)
    }

    /// The figures of the index.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The internal nodes (the root is the first, when there is one).
    pub fn nodes(&self) -> &[Node<S>] {
        &self.nodes
    }

    /// The root.
    pub fn root(&self) -> &Link {
        &self.root
    }
}

impl From<crate::budget::Limit> for MspError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
