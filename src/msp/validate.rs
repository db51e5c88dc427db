//! The index's validator: leaves consistent with their ancestors, entities reached by exactly
//! their points, checked against the brute-force classifier.

use super::brute::{brute_force_classify, face_sample_points};
use super::geom::side_of_point;
use super::{Class, Leaf, Link, MspTree};
use crate::brep::{Feature, Solid};
use crate::geom::Point3;
use crate::scalar::{Decision, Sign};

/// A defect the validator found.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexDefect {
    /// A leaf's witness point (a point of the piece that fills its region) is not on the side of
    /// an ancestor's cut plane that its path took.
    Region {
        /// The leaf's parent node and which child the leaf is (0 above, 1 on, 2 below).
        leaf: (usize, u8),
        /// The ancestor whose plane the witness is on the wrong side of.
        ancestor: usize,
    },
    /// A leaf's witness point is not on the leaf's entity (by brute force).
    Witness {
        /// The leaf.
        leaf: (usize, u8),
        /// The leaf's entity.
        leaf_class: Class,
        /// The brute-force class of the witness.
        brute: Class,
    },
    /// A point of an entity (a vertex, a point inside an edge or a face) classified otherwise.
    Entity {
        /// The entity.
        feature: Feature,
        /// The index's class of the point.
        found: Class,
    },
    /// A point just off a face (a sample point of the face moved a little along its normal,
    /// to either side) that the index classifies otherwise than the brute force: a wrong
    /// inside or outside leaf.
    Volume {
        /// The face the point is next to.
        face: usize,
        /// The index's class.
        found: Class,
        /// The brute-force class.
        brute: Class,
    },
    /// Edge or vertex pieces that reached a 3-dimensional leaf.
    Lost(usize),
}

/// Validate `index` as the index of `solid`: every witness (built with
/// [`Options::witnesses`](super::Options)) lies on the side of each ancestor's plane its path
/// took and on its leaf's entity (brute force); every vertex, two points inside every edge and
/// sample points inside every face classify to that entity; and the centroids of the faces'
/// triangles moved off their face by 2⁻²⁰ of the normal's 1-norm to either side (points in the
/// 3-dimensional regions along the whole boundary) classify as the brute force says. The defects, empty when
/// valid.
pub fn validate_index<S: crate::scalar::Certain>(solid: &Solid<S>, index: &MspTree<S>) -> Decision<Vec<IndexDefect>> {
    let mut defects = Vec::new();
    if index.stats.lost > 0 {
        defects.push(IndexDefect::Lost(index.stats.lost));
    }
    for (n, c, p) in &index.witnesses {
        crate::budget::tick()?;
        let leaf_class = match &index.nodes[*n].children[*c as usize] {
            Link::Leaf(Leaf::On(f)) => Class::On(f.clone()),
            _ => continue,
        };
        let (mut node, mut child) = (*n, *c);
        loop {
            let expected = [Sign::Positive, Sign::Zero, Sign::Negative][child as usize];
            if side_of_point(&index.nodes[node].plane, p)? != expected {
                defects.push(IndexDefect::Region { leaf: (*n, *c), ancestor: node });
                break;
            }
            match index.parent[node] {
                Some((up, k)) => (node, child) = (up, k),
                None => break,
            }
        }
        let brute = brute_force_classify(solid, p)?;
        if brute != leaf_class {
            defects.push(IndexDefect::Witness { leaf: (*n, *c), leaf_class, brute });
        }
    }
    let mut expect = |feature: Feature, p: &Point3<S>| -> Decision<()> {
        let found = index.classify_point(p)?.class;
        if found != Class::On(feature.clone()) {
            defects.push(IndexDefect::Entity { feature, found });
        }
        Ok(())
    };
    for v in 0..solid.vertex_count() {
        expect(Feature::Vertex(v), solid.vertex(v))?;
    }
    for &(u, v) in solid.edges() {
        let (a, b) = (solid.vertex(u).coords.clone(), solid.vertex(v).coords.clone());
        expect(Feature::Edge(u, v), &Point3::from((a.clone() + b.clone()) / S::from_i64(2)))?;
        expect(Feature::Edge(u, v), &Point3::from((a * S::from_i64(2) + b) / S::from_i64(3)))?;
    }
    for f in 0..solid.face_count() {
        for p in face_sample_points(solid, f)? {
            expect(Feature::Face(f), &p)?;
        }
    }
    for f in 0..solid.face_count() {
        let n = &solid.plane(f).normal;
        let norm1 = n.iter().fold(S::zero(), |a, c| a + c.abs());
        let step = n.clone() / (norm1 * S::from_i64(1 << 20));
        // The triangles' centroids (every fourth sample point).
        for p in face_sample_points(solid, f)?.into_iter().step_by(4) {
            for q in [&p + &step, &p - &step] {
                let (found, brute) = (index.classify_point(&q)?.class, brute_force_classify(solid, &q)?);
                if found != brute {
                    defects.push(IndexDefect::Volume { face: f, found, brute });
                }
            }
        }
    }
    Ok(defects)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brep::shapes;
    use crate::msp::{MspTree, Options};
    use num_rational::BigRational;

    /// The validator finds a wrong leaf: the cube's index with one entity leaf pointing at
    /// another entity, and with an inside leaf called outside.
    #[test]
    fn a_corrupted_index_has_defects() {
        let cube = shapes::cube::<BigRational>();
        let options = Options { witnesses: true, ..Options::default() };
        let good = MspTree::build(&cube, &options).unwrap();
        assert_eq!(validate_index(&cube, &good).unwrap(), vec![]);
        // An entity leaf naming another vertex.
        let mut bad = good.clone();
        let (n, c) = bad
            .nodes
            .iter()
            .enumerate()
            .find_map(|(n, node)| {
                node.children.iter().position(|l| matches!(l, Link::Leaf(Leaf::On(Feature::Vertex(_))))).map(|c| (n, c))
            })
            .unwrap();
        let Link::Leaf(Leaf::On(Feature::Vertex(v))) = bad.nodes[n].children[c] else { unreachable!() };
        bad.nodes[n].children[c] = Link::Leaf(Leaf::On(Feature::Vertex((v + 1) % 8)));
        let defects = validate_index(&cube, &bad).unwrap();
        assert!(defects.iter().any(|d| matches!(d, IndexDefect::Witness { .. })), "{defects:?}");
        assert!(defects
            .iter()
            .any(|d| matches!(d, IndexDefect::Entity { feature: Feature::Vertex(w), .. } if *w == v)));
        // Inside leaves called outside: every entity leaf and witness is still right; the
        // points just off the faces find it.
        let mut flipped = good.clone();
        for node in &mut flipped.nodes {
            for l in &mut node.children {
                if *l == Link::Leaf(Leaf::Inside) {
                    *l = Link::Leaf(Leaf::Outside);
                }
            }
        }
        let defects = validate_index(&cube, &flipped).unwrap();
        assert!(defects.iter().any(|d| matches!(d, IndexDefect::Volume { .. })), "{defects:?}");
    }
}
