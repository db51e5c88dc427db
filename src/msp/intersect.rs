//! Another solid's boundary classified against an index: `Intersect` of Bouma and Vaněček 1992
//! §4.3, the set-theoretic intersection of two solids' boundaries that contact analysis starts
//! from.
//!
//! The other solid's vertices, edges and faces (each an open point set; a face cut into convex
//! pieces, a nonconvex one by ear clipping) walk down the index together: at every node the
//! pieces are split by its cut plane (`SplitRegions`) into the parts above it, on it and below
//! it (a convex piece crossing the plane leaves its chord on it, a segment its crossing point),
//! and each part goes on into the matching child. At a leaf every piece gets the leaf's class:
//! inside or outside the indexed solid, on one of its vertices, edges or faces, or (a
//! lower-dimensional region off the boundary) inside or outside by its representative point.
//! Derived points are meets of three planes in homogeneous coordinates, as in the build: no
//! construction is chained.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::brep::{shapes, Feature};
//! use touchstone::geom::{Affine, Vector3};
//! use touchstone::msp::{Class, MspTree, Options};
//! use touchstone::scalar::Scalar;
//!
//! type Q = BigRational;
//! let cube = shapes::cube::<Q>();
//! let index = MspTree::build(&cube, &Options::default()).unwrap();
//! // A second cube resting on the first: its bottom face lies on the first's top face.
//! let up = Affine::translation(Vector3::new(Q::from_i64(0), Q::from_i64(0), Q::from_i64(2)));
//! let other = cube.transformed(&up).unwrap();
//! let pieces = index.classify_boundary(&other).unwrap();
//! let top = (0..6).find(|&f| cube.plane(f).normal.z > Q::from_i64(0)).unwrap();
//! assert!(pieces.iter().any(|p| p.class == Class::On(Feature::Face(top))));
//! assert!(pieces.iter().all(|p| p.class != Class::Inside));
//! ```

use super::{Class, MspError, MspTree};
use crate::brep::{Feature, Solid};
use crate::geom::Point3;
use crate::scalar::Scalar;

/// The point set of a piece: a point, an open segment, or an open convex polygon (its
/// vertices in order, counterclockwise seen from outside its face).
#[derive(Clone, Debug, PartialEq)]
pub enum PieceShape<S: Scalar> {
    /// A point.
    Point(Point3<S>),
    /// An open segment between two points.
    Segment([Point3<S>; 2]),
    /// An open convex polygon.
    Polygon(Vec<Point3<S>>),
}

impl<S: Scalar> PieceShape<S> {
    /// A point of the piece (of its relative interior): the point, the midpoint, the centroid
    /// of the vertices.
    pub fn representative(&self) -> Point3<S> {
        let mean = |ps: &[Point3<S>]| {
            let n = S::from_i64(ps.len() as i64);
            let sum = ps.iter().fold(nalgebra::Vector3::from_element(S::zero()), |acc, p| acc + &p.coords);
            Point3::from(sum / n)
        };
        match self {
            PieceShape::Point(p) => p.clone(),
            PieceShape::Segment(s) => mean(s),
            PieceShape::Polygon(v) => mean(v),
        }
    }

    /// The dimension: 0, 1 or 2.
    pub fn dim(&self) -> u8 {
        match self {
            PieceShape::Point(_) => 0,
            PieceShape::Segment(_) => 1,
            PieceShape::Polygon(_) => 2,
        }
    }
}

/// A piece of the other solid's boundary and where it lies with respect to the indexed solid.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundaryPiece<S: Scalar> {
    /// The entity of the other solid the piece lies in (as an open set: a chord of a face
    /// lies in the face).
    pub of: Feature,
    /// The piece.
    pub shape: PieceShape<S>,
    /// Inside, outside, or on a feature of the indexed solid.
    pub class: Class,
}

impl<S: Scalar> MspTree<S> {
    /// The boundary of `other` (in the same coordinates as the indexed solid) cut into pieces
    /// by this index, each with its class (see the [module docs](self)). The pieces of one
    /// entity tile it: the union of the pieces with `of == x` is x.
    ///
    /// Errors: an inexact backend's degenerate decision ([`MspError::Precision`]), an
    /// undecided one, or the budget.
    pub fn classify_boundary(&self, other: &Solid<S>) -> Result<Vec<BoundaryPiece<S>>, MspError> {
        super::build::boundary_pieces(self, other)
    }
}
