//! The penetration depth of two convex shapes, exactly: the length of the shortest translation
//! of `b` after which the interiors are disjoint.
//!
//! For convex `A` and `B` whose interiors meet, the origin is inside the Minkowski difference
//! `M = A − B`, and the depth is its distance to `M`'s boundary: the least support
//! `h_M(u) = max_A u·x − min_B u·y` over unit directions `u`, reached at a face normal of `M`.
//! Every face normal of `M` is a face normal of `A` or of `B` or the cross product of an edge
//! of each, and along any other direction the support is larger, so the least of
//! `h_M(n)/|n|` over all those axes (both signs of each) is the depth exactly. The squares are
//! compared, so the answer is a rational `depth²` with the axis that gives it.
//!
//! On exact values only ([`ExactValues`]): the squares are divided by |n|² and compared.

use std::cmp::Ordering;

use super::extent;
use crate::brep::Solid;
use crate::geom::Vector3;
use crate::scalar::{Decision, ExactValues, Sign};

/// The penetration depth's square and a direction of the shortest separating translation of
/// `b` (not normalised; out of `a` toward `b`), or `None` when the interiors are disjoint
/// (separated or touching). Each axis is a step of the query's budget.
pub fn penetration_depth<S: ExactValues>(a: &Solid<S>, b: &Solid<S>) -> Decision<Option<(S, Vector3<S>)>> {
    let mut best: Option<(S, Vector3<S>)> = None;
    let less = |x: &S, y: &S| -> Decision<bool> { Ok(x.compare(y)? == Ordering::Less) };
    let mut axis = |n: Vector3<S>| -> Decision<bool> {
        crate::budget::tick()?;
        if crate::geom::is_zero_vector(&n)? {
            return Ok(true);
        }
        let n2 = n.dot(&n);
        let (a_lo, a_hi) = extent(a, &n)?;
        let (b_lo, b_hi) = extent(b, &n)?;
        // Moving b along +n by (a_hi − b_lo)/|n|, or along −n by (b_hi − a_lo)/|n|, separates.
        let (plus, minus) = (a_hi - b_lo, b_hi - a_lo);
        let (o, dir) = if less(&minus, &plus)? { (minus, -n) } else { (plus, n) };
        if o.sign()? != Sign::Positive {
            return Ok(false);
        }
        let d2 = o.clone() * o / n2;
        let better = match &best {
            None => true,
            Some((b, _)) => less(&d2, b)?,
        };
        if better {
            best = Some((d2, dir));
        }
        Ok(true)
    };
    for s in [a, b] {
        for f in 0..s.face_count() {
            if !axis(s.plane(f).normal.clone())? {
                return Ok(None);
            }
        }
    }
    let dir = |s: &Solid<S>, &(u, w): &(usize, usize)| s.vertex(w) - s.vertex(u);
    for ea in a.edges() {
        for eb in b.edges() {
            if !axis(dir(a, ea).cross(&dir(b, eb)))? {
                return Ok(None);
            }
        }
    }
    Ok(best)
}

/// How far `b` must move along `n` to leave `a` (their interiors disjoint), in units of `|n|`:
/// `max_A n·x − min_B n·y` (negative when they are apart along `n` by more than touching).
pub fn separation_along<S: ExactValues>(a: &Solid<S>, b: &Solid<S>, n: &Vector3<S>) -> Decision<S> {
    let ((_, a_hi), (b_lo, _)) = (extent(a, n)?, extent(b, n)?);
    Ok(a_hi - b_lo)
}
