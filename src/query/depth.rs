//! `penetration_depth` and `separation_along` on posed shapes: the query side of
//! [`crate::separation::depth`], which holds the algorithm (see there), run on the fast exact
//! backend.
//!
//! This is what a claimed penetration (an engine's negative signed distance, parry's
//! `contact`) is judged by in `check-engine`.

use num_rational::BigRational;
use num_traits::Zero;

use super::error::QueryError;
use super::filtered::value_reference;
use super::spec::{posed_convex, Posed};
use crate::geom::Vector3;
use crate::scalar::{Exact, Scalar};

/// The penetration depth's square and a direction of the shortest separating translation of
/// `b` (not normalised; out of `a` toward `b`).
#[derive(Clone, Debug, PartialEq)]
pub struct Penetration {
    /// depth² (zero when the interiors are disjoint: separated or touching).
    pub depth_squared: BigRational,
    /// Moving `b` by `depth · normal / |normal|` leaves the shapes touching; zero when the
    /// depth is zero.
    pub normal: Vector3<BigRational>,
}

/// The penetration depth of two convex posed shapes, exactly (see the module docs). Each axis
/// is a step of the query's budget.
///
/// ```
/// use touchstone::query::{penetration_depth, PoseSpec, Posed, ShapeSpec};
/// use num_rational::BigRational;
/// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// let cube = |t: [BigRational; 3]| {
///     let one = r(1, 2);
///     let q = [r(1, 1), r(0, 1), r(0, 1), r(0, 1)];
///     Posed::new("a", ShapeSpec::Box([one.clone(), one.clone(), one]), PoseSpec::quaternion(q, t).unwrap())
/// };
/// // Two unit cubes, the second moved by 3/4 along x: they overlap by 1/4.
/// let a = cube([r(0, 1), r(0, 1), r(0, 1)]);
/// let b = cube([r(3, 4), r(0, 1), r(0, 1)]);
/// let p = penetration_depth(&a, &b).unwrap();
/// assert_eq!(p.depth_squared, r(1, 16));
/// ```
pub fn penetration_depth<N: Scalar>(a: &Posed<N>, b: &Posed<N>) -> Result<Penetration, QueryError> {
    // On the fast exact backend (no gcd on every operation), converted once at the end.
    let (ca, cb) = (posed_convex::<Exact, N>(a)?, posed_convex::<Exact, N>(b)?);
    Ok(match crate::separation::penetration_depth(&ca.built.solid, &cb.built.solid)? {
        Some((d2, normal)) => Penetration { depth_squared: value_reference(d2), normal: normal.map(value_reference) },
        None => Penetration { depth_squared: BigRational::zero(), normal: Vector3::from_element(BigRational::zero()) },
    })
}

/// How far `b` must move along `n` to leave `a` (their interiors disjoint), in units of `|n|`:
/// `max_A n·x − min_B n·y`, with the posed shapes exact (negative when they are apart along
/// `n` by more than touching). Over `|n|`, its least over all directions is the penetration
/// depth ([`penetration_depth`]), reached exactly along the optimal ones: what an engine's
/// contact normal is judged by.
///
/// ```
/// use touchstone::geom::Vector3;
/// use touchstone::query::{separation_along, PoseSpec, Posed, ShapeSpec};
/// use num_rational::BigRational;
/// let r = |n: i64| BigRational::from_integer(n.into());
/// let cube = |x: i64| {
///     let q = [r(1), r(0), r(0), r(0)];
///     Posed::new("a", ShapeSpec::Box([r(1), r(1), r(1)]), PoseSpec::quaternion(q, [r(x), r(0), r(0)]).unwrap())
/// };
/// // Unit cubes 1 apart in x overlap by 1 along x, and b must move 4 along −x.
/// assert_eq!(separation_along(&cube(0), &cube(1), &Vector3::new(r(1), r(0), r(0))).unwrap(), r(1));
/// assert_eq!(separation_along(&cube(0), &cube(1), &Vector3::new(r(-1), r(0), r(0))).unwrap(), r(3));
/// ```
pub fn separation_along<N: Scalar>(
    a: &Posed<N>,
    b: &Posed<N>,
    n: &Vector3<BigRational>,
) -> Result<BigRational, QueryError> {
    let (ca, cb) = (posed_convex::<Exact, N>(a)?, posed_convex::<Exact, N>(b)?);
    let n = n.map(|x| Exact::from_rational(&x));
    Ok(value_reference(crate::separation::separation_along(&ca.built.solid, &cb.built.solid, &n)?))
}
