//! Point and segment classification through the index (§2.4).

use super::geom::side_of_point;
use super::{Class, Leaf, Link, MspTree};
use crate::geom::Point3;
use crate::scalar::{Decision, Scalar, Sign};

/// A point's class, with the number of plane evaluations (dot products) it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointAnswer {
    /// Inside, outside, or on a feature.
    pub class: Class,
    /// Plane evaluations: one per node visited (twice the path for a point classified again
    /// by perturbation).
    pub dots: usize,
}

/// A piece of a classified segment: parameters along it (0 at its first end, 1 at its second),
/// equal for a point piece.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentPiece<S> {
    /// Where the piece starts.
    pub from: S,
    /// Where it ends.
    pub to: S,
    /// Its class (every point of the piece has it).
    pub class: Class,
}

/// A segment's classification: its pieces in order, adjacent equal classes merged (Fig. 3 of
/// the 1990 paper, with the ends of the segment classified too).
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentAnswer<S> {
    /// The pieces, from the first end to the second; open pieces and point pieces alternate
    /// where the class changes.
    pub pieces: Vec<SegmentPiece<S>>,
    /// Plane evaluations.
    pub dots: usize,
}

fn child(s: Sign) -> usize {
    match s {
        Sign::Positive => 0,
        Sign::Zero => 1,
        Sign::Negative => 2,
    }
}

enum Step<S> {
    Open(usize, S, S),
    Point(usize, S),
}

impl<S: Scalar> MspTree<S> {
    fn link(&self, l: usize) -> &Link {
        if l == usize::MAX {
            &self.root
        } else {
            &self.nodes[l / 3].children[l % 3]
        }
    }

    /// Walk from link `l` (a node's child as `3·node + child`, the root as `usize::MAX`) to a
    /// leaf.
    fn descend(&self, mut l: usize, p: &Point3<S>, dots: &mut usize) -> Decision<Leaf> {
        loop {
            match self.link(l) {
                Link::Leaf(leaf) => return Ok(leaf.clone()),
                Link::Node(n) => {
                    crate::budget::tick()?;
                    *dots += 1;
                    let s = side_of_point(&self.nodes[*n].plane, p)?;
                    l = 3 * n + child(s);
                }
            }
        }
    }

    /// The class of a point off the boundary: the point pushed by (ε, ε², ε³), which never lies
    /// on a cut plane, so it ends in a 3-dimensional leaf.
    pub(super) fn perturbed(&self, p: &Point3<S>, dots: &mut usize) -> Decision<Class> {
        self.pushed(p, None, dots)
    }

    /// The class of the points p + ε·d for all small enough ε > 0, `d` nonzero: inside or
    /// outside (the point is pushed along `d` first, then by (ε², ε³, ε⁴) along the axes, so it
    /// ends in a 3-dimensional leaf). The interior directions of the solid at a boundary point.
    pub fn classify_direction(&self, p: &Point3<S>, d: &crate::geom::Vector3<S>) -> Decision<Class> {
        self.pushed(p, Some(d), &mut 0)
    }

    /// The walk of a point pushed symbolically: along `d` first (when given), then along the
    /// axes, so that it lies on no cut plane.
    fn pushed(&self, p: &Point3<S>, d: Option<&crate::geom::Vector3<S>>, dots: &mut usize) -> Decision<Class> {
        let mut link = &self.root;
        loop {
            match link {
                Link::Leaf(Leaf::Inside) => return Ok(Class::Inside),
                Link::Leaf(_) => return Ok(Class::Outside),
                Link::Node(n) => {
                    crate::budget::tick()?;
                    *dots += 1;
                    let node = &self.nodes[*n];
                    let mut s = side_of_point(&node.plane, p)?;
                    if let (Sign::Zero, Some(d)) = (s, d) {
                        s = crate::predicates::dot_sign(&node.plane.normal, d)?;
                    }
                    if s == Sign::Zero {
                        s = crate::predicates::lexicographic_sign(&node.plane.normal)?;
                    }
                    link = &node.children[child(s)];
                }
            }
        }
    }

    /// The class of the points of a leaf's region; `free` is a point of it, classified by
    /// perturbation when the region holds no boundary.
    fn leaf_class(&self, leaf: &Leaf, free: impl FnOnce() -> Point3<S>, dots: &mut usize) -> Decision<Class> {
        Ok(match leaf {
            Leaf::Inside => Class::Inside,
            Leaf::Outside => Class::Outside,
            Leaf::On(f) => Class::On(f.clone()),
            Leaf::Free => self.perturbed(&free(), dots)?,
        })
    }

    /// Classify a point: inside, outside, or on the boundary with the feature whose relative
    /// interior holds it.
    pub fn classify_point(&self, p: &Point3<S>) -> Decision<PointAnswer> {
        let mut dots = 0;
        let leaf = self.descend(usize::MAX, p, &mut dots)?;
        let class = self.leaf_class(&leaf, || p.clone(), &mut dots)?;
        Ok(PointAnswer { class, dots })
    }

    /// Classify the closed segment from `p` to `q`: its pieces in order, with exact parameters
    /// (a crossing of a cut plane P is at t = P(p) / (P(p) − P(q)), from the segment's own ends:
    /// no parameter is derived from another).
    pub fn classify_segment(&self, p: &Point3<S>, q: &Point3<S>) -> Decision<SegmentAnswer<S>> {
        let mut dots = 0;
        let at = |t: &S| -> Point3<S> { p + (q - p) * t.clone() };
        let mut items: Vec<(S, S, Class)> = Vec::new();
        let first = self.classify_point(p)?;
        dots += first.dots;
        let degenerate = crate::scalar::compare_points(p, q)? == std::cmp::Ordering::Equal;
        // A segment whose ends coincide is that one point at every parameter: one piece from 0
        // to 1 (the pieces always cover [0, 1]).
        items.push((S::zero(), if degenerate { S::one() } else { S::zero() }, first.class));
        if !degenerate {
            let mut stack = vec![Step::Open(usize::MAX, S::zero(), S::one())];
            while let Some(step) = stack.pop() {
                crate::budget::tick()?;
                match step {
                    Step::Point(l, t) => {
                        let r = at(&t);
                        let leaf = self.descend(l, &r, &mut dots)?;
                        let class = self.leaf_class(&leaf, || r.clone(), &mut dots)?;
                        items.push((t.clone(), t, class));
                    }
                    Step::Open(l, t0, t1) => match self.link(l) {
                        Link::Leaf(leaf) => {
                            let mid = || at(&((t0.clone() + t1.clone()) / crate::scalar::two::<S>()));
                            let class = self.leaf_class(leaf, mid, &mut dots)?;
                            items.push((t0, t1, class));
                        }
                        Link::Node(n) => {
                            let plane = &self.nodes[*n].plane;
                            dots += 2;
                            let (s0, s1) = (side_of_point(plane, &at(&t0))?, side_of_point(plane, &at(&t1))?);
                            let base = 3 * n;
                            if s0 == Sign::Zero && s1 == Sign::Zero {
                                stack.push(Step::Open(base + 1, t0, t1));
                            } else if s0 != Sign::Negative && s1 != Sign::Negative {
                                stack.push(Step::Open(base, t0, t1));
                            } else if s0 != Sign::Positive && s1 != Sign::Positive {
                                stack.push(Step::Open(base + 2, t0, t1));
                            } else {
                                let (fp, fq) = (plane.eval(p), plane.eval(q));
                                let tx = fp.clone() / (fp - fq);
                                // Exactly, the crossing lies strictly between the ends whose
                                // sides differ; a tolerant backend's quotient may not: clamp it,
                                // so the pieces stay in order.
                                let tx = if S::CERTAIN_DECISIONS { tx } else { tx.maximum(&t0)?.minimum(&t1)? };
                                stack.push(Step::Open(base + child(s1), tx.clone(), t1));
                                stack.push(Step::Point(base + 1, tx.clone()));
                                stack.push(Step::Open(base + child(s0), t0, tx));
                            }
                        }
                    },
                }
            }
            let last = self.classify_point(q)?;
            dots += last.dots;
            items.push((S::one(), S::one(), last.class));
        }
        let mut pieces: Vec<SegmentPiece<S>> = Vec::new();
        for (from, to, class) in items {
            match pieces.last_mut() {
                Some(last) if last.class == class => last.to = to,
                _ => pieces.push(SegmentPiece { from, to, class }),
            }
        }
        Ok(SegmentAnswer { pieces, dots })
    }
}
