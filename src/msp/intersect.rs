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

use super::build::{Builder, Chosen, Entity};
use super::{Class, Leaf, Link, MspError, MspTree, Options};
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
    /// by this index, each with its class (see the module docs of `msp/intersect.rs`). The pieces of one
    /// entity tile it: the union of the pieces with `of == x` is x.
    ///
    /// Errors: an inexact backend's degenerate decision ([`MspError::Precision`]), an
    /// undecided one, or the budget.
    pub fn classify_boundary(&self, other: &Solid<S>) -> Result<Vec<BoundaryPiece<S>>, MspError> {
        boundary_pieces(self, other)
    }
}

/// The pieces of `other`'s boundary (its vertices, open edges and open faces, the faces cut
/// into convex pieces) as `tree` partitions them, with the leaf each falls in: the walk of
/// `Intersect` with `SplitRegions` (Bouma and Vaněček 1992 §4.3), every derived point the meet
/// of three planes (homogeneous, never chained), every cut plane the tree's own.
fn boundary_pieces<S: Scalar>(
    tree: &MspTree<S>,
    other: &Solid<S>,
) -> Result<Vec<super::intersect::BoundaryPiece<S>>, MspError> {
    let mut b = Builder::new(other, &Options::default());
    let sets = b.initial_sets()?;
    let mut node_plane: Vec<Option<u32>> = vec![None; tree.nodes.len()];
    let mut out = Vec::new();
    let mut stack = vec![(&tree.root, sets)];
    while let Some((link, sets)) = stack.pop() {
        crate::budget::tick()?;
        if sets.faces.is_empty() && sets.segs.is_empty() && sets.pts.is_empty() {
            continue;
        }
        match link {
            Link::Node(n) => {
                let plane = match node_plane[*n] {
                    Some(p) => p,
                    None => {
                        let p = b.push_plane(tree.nodes[*n].plane.clone())?;
                        node_plane[*n] = Some(p);
                        p
                    }
                };
                let [above, on, below] = b.split(plane, sets, None, Chosen::None)?;
                let children = &tree.nodes[*n].children;
                stack.push((&children[2], below));
                stack.push((&children[1], on));
                stack.push((&children[0], above));
            }
            Link::Leaf(leaf) => {
                let affine = |b: &Builder<S>, i: u32| b.points[i as usize].affine();
                let mut shapes: Vec<(Entity, PieceShape<S>)> = Vec::new();
                for piece in sets.faces {
                    shapes.push((
                        Entity::Face(piece.face),
                        PieceShape::Polygon(piece.verts.iter().map(|&v| affine(&b, v)).collect()),
                    ));
                }
                for seg in sets.segs {
                    shapes.push((seg.ent, PieceShape::Segment(seg.ends.map(|v| affine(&b, v)))));
                }
                for pt in sets.pts {
                    shapes.push((pt.ent, PieceShape::Point(affine(&b, pt.p))));
                }
                for (ent, shape) in shapes {
                    let class = match leaf {
                        Leaf::Inside => super::Class::Inside,
                        Leaf::Outside => super::Class::Outside,
                        Leaf::On(f) => super::Class::On(f.clone()),
                        // Off the indexed boundary: the piece is all inside or all outside; its
                        // representative point tells which.
                        Leaf::Free => tree.perturbed(&shape.representative(), &mut 0)?,
                    };
                    out.push(BoundaryPiece { of: b.original(ent), shape, class });
                }
            }
        }
    }
    Ok(out)
}
