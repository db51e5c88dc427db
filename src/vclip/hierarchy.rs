//! Nonconvex models as sub-part hierarchies of convex pieces (Lin–Manocha 1994 §3.6):
//! distance and colliding pieces between two models.
//!
//! A [`Hierarchy`] is a tree whose leaves are convex pieces and whose every node stores the
//! exact convex hull of its pieces; the model is the union of the pieces. Between two models,
//! [`hierarchy_distance`] runs V-Clip on node hulls top-down:
//!
//! * a hull is a superset of its pieces, so the distance between two hulls is a lower bound
//!   of the distance between any of their pieces: a node pair whose hulls are farther apart
//!   than the best piece distance found so far is pruned (branch and bound, exact
//!   comparisons);
//! * node pairs are expanded while their hulls are at distance zero, down to the leaves: a
//!   collision is signalled only when two pieces actually touch or penetrate, not when hulls
//!   do.
//!
//! The union of the pieces of `a` penetrates that of `b` exactly when some piece of `a`
//! penetrates some piece of `b` (an open set inside a finite union of closed sets meets the
//! interior of one of them), so the status is: penetrating if a piece pair penetrates, else
//! touching at distance zero, else separated.

use super::{check_strictly_convex, vclip_prechecked, ClosestPair, Status, VClipError};
use crate::brep::{convex_hull, HullError, Solid};
use crate::geom::{Affine, Point3};
use crate::scalar::{Decision, Scalar, Sign};

/// The shape of a hierarchy: a piece (by index) or a node over sub-trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// Piece `i` of the piece list.
    Leaf(usize),
    /// A node whose hull is the hull of its children's.
    Node(Vec<Tree>),
}

/// Why a hierarchy cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HierarchyError {
    /// No pieces, or a node without children.
    #[error("a hierarchy needs at least one piece, and every node a child")]
    Empty,
    /// A leaf names a piece that does not exist, or a piece is used twice or not at all.
    #[error("piece {piece} is missing, repeated or out of range in the tree")]
    BadLeaf {
        /// The piece index.
        piece: usize,
    },
    /// A piece is not convex.
    #[error("piece {piece} is not convex")]
    NotConvex {
        /// The piece index.
        piece: usize,
    },
    /// A hull failed (possible only with an inexact backend's rounding).
    #[error("the hull of a node failed: {0}")]
    Hull(#[from] HullError),
    /// A decision could not be made (filtered backends).
    #[error(transparent)]
    Uncertain(#[from] crate::scalar::Uncertain),
}

#[derive(Clone, Debug)]
struct Node<S: Scalar> {
    hull: Solid<S>,
    children: Vec<usize>,
    piece: Option<usize>,
}

/// A nonconvex model: convex pieces under a tree of hulls.
#[derive(Clone, Debug)]
pub struct Hierarchy<S: Scalar> {
    nodes: Vec<Node<S>>,
    root: usize,
    pieces: usize,
}

fn hull_of<S: Scalar>(points: &[Point3<S>]) -> Result<Solid<S>, HierarchyError> {
    Ok(convex_hull(points)?.solid)
}

impl<S: Scalar> Hierarchy<S> {
    /// Build a hierarchy over convex `pieces` with the shape `tree` (every piece exactly
    /// once). Each leaf stores its piece with coplanar faces merged (the exact hull of its
    /// vertices), each node the hull of its children.
    pub fn new(pieces: &[Solid<S>], tree: &Tree) -> Result<Self, HierarchyError> {
        if pieces.is_empty() {
            return Err(HierarchyError::Empty);
        }
        for (i, p) in pieces.iter().enumerate() {
            if !p.is_convex()? {
                return Err(HierarchyError::NotConvex { piece: i });
            }
        }
        let mut used = vec![false; pieces.len()];
        let mut nodes = Vec::new();
        let root = Self::build(pieces, tree, &mut used, &mut nodes)?;
        if let Some(piece) = used.iter().position(|u| !u) {
            return Err(HierarchyError::BadLeaf { piece });
        }
        Ok(Hierarchy { nodes, root, pieces: pieces.len() })
    }

    fn build(
        pieces: &[Solid<S>],
        tree: &Tree,
        used: &mut [bool],
        nodes: &mut Vec<Node<S>>,
    ) -> Result<usize, HierarchyError> {
        let node = match tree {
            Tree::Leaf(i) => {
                let Some(p) = pieces.get(*i) else { return Err(HierarchyError::BadLeaf { piece: *i }) };
                if std::mem::replace(&mut used[*i], true) {
                    return Err(HierarchyError::BadLeaf { piece: *i });
                }
                Node { hull: hull_of(p.vertices())?, children: Vec::new(), piece: Some(*i) }
            }
            Tree::Node(children) => {
                if children.is_empty() {
                    return Err(HierarchyError::Empty);
                }
                let ids =
                    children.iter().map(|c| Self::build(pieces, c, used, nodes)).collect::<Result<Vec<_>, _>>()?;
                let points: Vec<Point3<S>> = ids.iter().flat_map(|&k| nodes[k].hull.vertices().to_vec()).collect();
                Node { hull: hull_of(&points)?, children: ids, piece: None }
            }
        };
        nodes.push(node);
        Ok(nodes.len() - 1)
    }

    /// A balanced binary hierarchy: pieces split recursively at the median of their first
    /// vertex along the axis where those spread most.
    pub fn balanced(pieces: &[Solid<S>]) -> Result<Self, HierarchyError> {
        fn split<S: Scalar>(pieces: &[Solid<S>], mut ids: Vec<usize>) -> Tree {
            if ids.len() == 1 {
                return Tree::Leaf(ids[0]);
            }
            let key = |i: usize, k: usize| pieces[i].vertices().first().map(|p| p[k].to_f64()).unwrap_or(0.0);
            let spread = |k: usize| {
                let v: Vec<f64> = ids.iter().map(|&i| key(i, k)).collect();
                v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
            };
            let axis = (0..3).max_by(|&a, &b| spread(a).total_cmp(&spread(b))).unwrap_or(0);
            ids.sort_by(|&i, &j| key(i, axis).total_cmp(&key(j, axis)));
            let rest = ids.split_off(ids.len() / 2);
            Tree::Node(vec![split(pieces, ids), split(pieces, rest)])
        }
        if pieces.is_empty() {
            return Err(HierarchyError::Empty);
        }
        let tree = split(pieces, (0..pieces.len()).collect());
        Self::new(pieces, &tree)
    }

    /// The model moved by an affine map of positive determinant (hulls map to hulls).
    pub fn transformed(&self, map: &Affine<S>) -> Result<Self, crate::brep::BrepError> {
        let nodes = self
            .nodes
            .iter()
            .map(|n| Ok(Node { hull: n.hull.transformed(map)?, children: n.children.clone(), piece: n.piece }))
            .collect::<Result<Vec<_>, crate::brep::BrepError>>()?;
        Ok(Hierarchy { nodes, root: self.root, pieces: self.pieces })
    }

    /// The number of pieces.
    pub fn piece_count(&self) -> usize {
        self.pieces
    }

    /// The hull of the whole model.
    pub fn hull(&self) -> &Solid<S> {
        &self.nodes[self.root].hull
    }

    /// Piece `i` (coplanar faces merged), if it exists.
    pub fn piece(&self, i: usize) -> Option<&Solid<S>> {
        self.nodes.iter().find(|n| n.piece == Some(i)).map(|n| &n.hull)
    }
}

/// The answer of [`hierarchy_distance`].
#[derive(Clone, Debug, PartialEq)]
pub struct HierarchyDistance<S: Scalar> {
    /// Separated, touching or penetrating (of the unions of pieces).
    pub status: Status,
    /// The squared distance between the models (0 unless separated).
    pub squared_distance: S,
    /// A pair of pieces realising it (piece of `a`, piece of `b`) and their closest pair.
    pub closest: ((usize, usize), ClosestPair<S>),
    /// Every pair of pieces at distance zero (touching or penetrating), sorted: the colliding
    /// pieces.
    pub colliding: Vec<(usize, usize, Status)>,
    /// How many node pairs were tested with V-Clip (out of (nodes of a) × (nodes of b)).
    pub tests: usize,
}

fn less<S: Scalar>(x: &S, y: &S) -> Decision<bool> {
    Ok(super::geometry::cmp_sign(x, y, x.abs(), y.abs())? == Sign::Negative)
}

/// The distance, status and colliding pieces of two models, by V-Clip on their hierarchies
/// (branch and bound on hull distances; see the module docs).
pub fn hierarchy_distance<S: Scalar>(a: &Hierarchy<S>, b: &Hierarchy<S>) -> Result<HierarchyDistance<S>, VClipError> {
    let mut best: Option<((usize, usize), ClosestPair<S>)> = None;
    let mut colliding = Vec::new();
    let mut tests = 0;
    let mut test = |i: usize, j: usize| -> Result<ClosestPair<S>, VClipError> {
        let (na, nb) = (&a.nodes[i], &b.nodes[j]);
        check_strictly_convex(&na.hull, &nb.hull)?;
        tests += 1;
        Ok(vclip_prechecked(&na.hull, &nb.hull, None)?.closest)
    };
    // Depth first, nearest pair first: each entry carries its hulls' closest pair.
    let mut stack = vec![(a.root, b.root, test(a.root, b.root)?)];
    while let Some((i, j, c)) = stack.pop() {
        let (na, nb) = (&a.nodes[i], &b.nodes[j]);
        if let Some((_, b)) = &best {
            // Prune: no piece pair below can be closer than their hulls.
            if b.status == Status::Separated && !less(&c.squared_distance, &b.squared_distance)? {
                continue;
            }
            if b.status != Status::Separated && c.status == Status::Separated {
                continue;
            }
        }
        match (na.piece, nb.piece) {
            (Some(pa), Some(pb)) => {
                if c.status != Status::Separated {
                    colliding.push((pa, pb, c.status));
                }
                let better = match &best {
                    None => true,
                    Some((_, b)) => {
                        b.status == Status::Separated
                            && (c.status != Status::Separated || less(&c.squared_distance, &b.squared_distance)?)
                    }
                };
                if better {
                    best = Some(((pa, pb), c));
                }
            }
            // Expand the side with more children (a leaf never expands).
            _ => {
                let expand_a =
                    !na.children.is_empty() && (nb.children.is_empty() || na.children.len() >= nb.children.len());
                let pairs: Vec<(usize, usize)> = if expand_a {
                    na.children.iter().map(|&k| (k, j)).collect()
                } else {
                    nb.children.iter().map(|&k| (i, k)).collect()
                };
                let mut tested = Vec::with_capacity(pairs.len());
                for (x, y) in pairs {
                    tested.push((x, y, test(x, y)?));
                }
                // Farthest first on the stack, so the nearest is expanded next; at equal
                // distance, leaf pairs last (popped first: they settle the bound).
                let leafy = |x: usize, y: usize| a.nodes[x].piece.is_some() && b.nodes[y].piece.is_some();
                let mut ordered: Vec<(usize, usize, ClosestPair<S>)> = Vec::with_capacity(tested.len());
                for t in tested {
                    let mut k = ordered.len();
                    while k > 0 {
                        let o = &ordered[k - 1];
                        let closer = less(&t.2.squared_distance, &o.2.squared_distance)?;
                        let tie = !closer && !less(&o.2.squared_distance, &t.2.squared_distance)?;
                        if closer || (tie && leafy(t.0, t.1) && !leafy(o.0, o.1)) {
                            break;
                        }
                        k -= 1;
                    }
                    ordered.insert(k, t);
                }
                stack.extend(ordered);
            }
        }
    }
    colliding.sort_by_key(|&(x, y, _)| (x, y));
    let ((pa, pb), closest) =
        best.ok_or(VClipError::Internal { x: crate::brep::Feature::Vertex(0), y: crate::brep::Feature::Vertex(0) })?;
    let status = if colliding.iter().any(|c| c.2 == Status::Penetrating) {
        Status::Penetrating
    } else if colliding.is_empty() {
        Status::Separated
    } else {
        Status::Touching
    };
    let squared_distance = if status == Status::Separated { closest.squared_distance.clone() } else { S::zero() };
    Ok(HierarchyDistance { status, squared_distance, closest: ((pa, pb), closest), colliding, tests })
}

impl From<crate::budget::Limit> for HierarchyError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
