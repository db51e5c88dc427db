//! Axis-aligned boxes of points, and the gap between two of them: a lower bound on every
//! distance between the points' hulls, used to skip candidates of an exact search.

use super::Point3;
use crate::scalar::Scalar;
use std::cmp::Ordering;

/// The axis-aligned box of some points: each axis's least and greatest coordinate.
#[derive(Clone, Debug)]
pub(crate) struct Aabb<S: Scalar>([(S, S); 3]);

impl<S: Scalar> Aabb<S> {
    /// The box of `points`; `None` when there are none, or (on a backend that cannot order
    /// them) when a comparison is undecided.
    pub(crate) fn of<'a>(points: impl IntoIterator<Item = &'a Point3<S>>) -> Option<Self>
    where
        S: 'a,
    {
        let mut points = points.into_iter();
        let first = points.next()?;
        let mut b: [(S, S); 3] = std::array::from_fn(|i| (first[i].clone(), first[i].clone()));
        for p in points {
            for (i, (lo, hi)) in b.iter_mut().enumerate() {
                if p[i].compare(lo).ok()? == Ordering::Less {
                    *lo = p[i].clone();
                }
                if hi.compare(&p[i]).ok()? == Ordering::Less {
                    *hi = p[i].clone();
                }
            }
        }
        Some(Aabb(b))
    }

    /// Whether the squared gap between the two boxes is certainly greater than `best`: then
    /// every point of one hull is farther than √`best` from every point of the other, and a
    /// candidate between them can neither be at most `best` nor tie it. Exact backends only (a
    /// float candidate's rounded distance need not keep above the box gap's), so a search that
    /// skips such candidates finds the least, its witness and every tie of the full search; a
    /// comparison left undecided skips nothing.
    pub(crate) fn beyond(&self, other: &Self, best: &S) -> bool {
        if !S::EXACT_VALUES {
            return false;
        }
        let less = |x: &S, y: &S| matches!(x.compare(y), Ok(Ordering::Less));
        let mut gap2 = S::zero();
        for ((lo_a, hi_a), (lo_b, hi_b)) in self.0.iter().zip(&other.0) {
            let g = if less(hi_a, lo_b) {
                lo_b.clone() - hi_a.clone()
            } else if less(hi_b, lo_a) {
                lo_a.clone() - hi_b.clone()
            } else {
                continue;
            };
            gap2 += g.clone() * g;
        }
        less(best, &gap2)
    }
}

/// [`Aabb::beyond`] for the boxes of the points `a` and of `b`, and a `best` that may be
/// absent (nothing found yet: nothing is skipped).
pub(crate) fn boxes_beyond<S: Scalar>(a: &[&Point3<S>], b: &[&Point3<S>], best: Option<&S>) -> bool {
    let Some(best) = best.filter(|_| S::EXACT_VALUES) else { return false };
    match (Aabb::of(a.iter().copied()), Aabb::of(b.iter().copied())) {
        (Some(x), Some(y)) => x.beyond(&y, best),
        _ => false,
    }
}
