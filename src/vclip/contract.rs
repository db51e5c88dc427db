//! What the distance contract shares with V-Clip's callers: the scale of squared distances
//! ([`distance_magnitude`], the magnitude of the `distance` op's decisive test) and the oracle
//! line of a pair (for a failing case to be replayed).
//!
//! The contract itself is the `distance` op's ([`crate::query::Distance`]'s `Query::agreement`,
//! run by [`crate::query::both`]): the discrete answer is the [`Status`](super::Status), decided
//! by the sign of the squared distance relative to [`distance_magnitude`]; above the budget the
//! statuses must be equal, within it any status is admissible (touching and penetrating are
//! both a rounding error from separated), and the squared distance is within the relative
//! tolerance of the exact one always. Features are not compared: when several pairs realise
//! the distance either path may stop on any of them. `f64` may refuse a shape whose edge is
//! flat or reflex within the budget of its convexity test, and may stop at its step cap or on
//! an uncertain sign within the budget of zero distance. Property tests
//! (`tests/vclip_contract.rs`) and the fuzz target `vclip_diff` ask it through
//! [`crate::query::Distance::between`].

use crate::brep::Solid;
use crate::scalar::Scalar;

/// A scale for squared distances between `a` and `b`: (1 + largest |coordinate| of `a` +
/// largest of `b`)². Every expression V-Clip forms a squared distance from is bounded by a
/// small multiple of it.
pub fn distance_magnitude<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> S {
    points_distance_magnitude(a.vertices(), b.vertices())
}

/// [`distance_magnitude`] of two sets of points (round shapes' cores too): (1 + largest
/// |coordinate| of `a` + largest of `b`)².
pub fn points_distance_magnitude<'a, S: Scalar + 'a>(
    a: impl IntoIterator<Item = &'a crate::geom::Point3<S>>,
    b: impl IntoIterator<Item = &'a crate::geom::Point3<S>>,
) -> S {
    let largest = |ps: &mut dyn Iterator<Item = &'a crate::geom::Point3<S>>| {
        ps.flat_map(|p| p.iter().map(|x| x.abs())).fold(S::zero(), |m, x| if x.to_f64() > m.to_f64() { x } else { m })
    };
    let m = S::one() + largest(&mut a.into_iter()) + largest(&mut b.into_iter());
    m.clone() * m
}
