//! The penetration depth of round shapes (issue 42 item 2): the shortest translation after
//! which their interiors are disjoint.
//!
//! A round shape is its core's Minkowski sum with a ball, so the depth is the distance from
//! the origin to the boundary of M ⊕ B(R), M = C_a − C_b the cores' Minkowski difference and
//! R = r_a + r_b. Where the cores are apart (the origin outside M at distance √c) that is
//! R − √c; where they meet (the origin inside M at depth δ) it is R + δ. For convex M holding
//! the origin, δ = min over unit u of h_M(u), reached at a facet normal of M; every facet
//! normal is among the candidates (a polytope core's face normals, and the cross products of
//! an edge direction of one core with one of the other: a capsule's axis counts as an edge),
//! and for every direction h_M(u) ≥ δ, so δ² is the least over the candidates ν (both ways)
//! of h_M(ν)² / |ν|² with h_M(ν) ≥ 0: a rational number. Two cores without a candidate (points
//! and segments meeting) have δ = 0: M is flat or a point.
//!
//! The depth d = R ± √q (q = c or δ²) is then a root of d² − 2Rd + R² − q, and its square one of
//! y² − 2(R² + q)y + (R² − q)²: the smaller root where the cores are apart, the larger where
//! they meet.

use std::cmp::Ordering;

use super::{nth_root, round_distance, Core, RoundError, RoundShape};
use crate::geom::Vector3;
use crate::poly::{Poly, PolyError, RootScalar};
use crate::scalar::Scalar;
use crate::vclip::Status;

/// The squared depth δ² of two cores that meet (see the module's docs); 0 where no candidate
/// direction exists. For cores that do not meet the value has no meaning (some h_M(ν) is then
/// negative and is skipped).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cuboid;
/// use touchstone::geom::point;
/// use touchstone::round::{cores_depth_squared, Core};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A point 1/2 under the top face of the cube [-1, 1]³: depth 1/2.
/// let cube = Core::Polytope(cuboid(q(1), q(1), q(1)).unwrap());
/// let p = Core::Point(point::<BigRational>(0, 0, 0) + touchstone::geom::Vector3::new(q(0), q(0), BigRational::new(1.into(), 2.into())));
/// assert_eq!(cores_depth_squared(&p, &cube).unwrap(), BigRational::new(1.into(), 4.into()));
/// ```
///
/// Errors: [`RoundError::Uncertain`] where a filtered backend cannot decide.
pub fn cores_depth_squared<S: Scalar>(a: &Core<S>, b: &Core<S>) -> Result<S, RoundError> {
    let mut directions: Vec<Vector3<S>> = Vec::new();
    for core in [a, b] {
        if let Core::Polytope(s) = core {
            directions.extend((0..s.face_count()).map(|f| s.plane(f).normal.clone()));
        }
    }
    let (ea, eb) = (edge_directions(a), edge_directions(b));
    for u in &ea {
        for w in &eb {
            directions.push(u.cross(w));
        }
    }
    let (pa, pb) = (a.points(), b.points());
    let mut best: Option<S> = None;
    for nu in directions {
        let nn = nu.dot(&nu);
        if nn.compare(&S::zero())? != Ordering::Greater {
            continue;
        }
        for n in [nu.clone(), -nu] {
            // h_M(n) = max over a of n·x − min over b of n·y.
            let top = extreme(&pa, &n, Ordering::Greater)?;
            let bottom = extreme(&pb, &n, Ordering::Less)?;
            let (Some(top), Some(bottom)) = (top, bottom) else { continue };
            let h = top - bottom;
            if h.compare(&S::zero())? == Ordering::Less {
                continue;
            }
            let value = h.clone() * h / nn.clone();
            if best.as_ref().map_or(Ok(true), |b| value.compare(b).map(|o| o == Ordering::Less))? {
                best = Some(value);
            }
        }
    }
    Ok(best.unwrap_or_else(S::zero))
}

/// The largest (`Greater`) or least (`Less`) of n·p over the points.
fn extreme<S: Scalar>(
    points: &[&crate::geom::Point3<S>],
    n: &Vector3<S>,
    way: Ordering,
) -> Result<Option<S>, RoundError> {
    let mut best: Option<S> = None;
    for p in points {
        let x = p.coords.dot(n);
        if best.as_ref().map_or(Ok(true), |b| x.compare(b).map(|o| o == way))? {
            best = Some(x);
        }
    }
    Ok(best)
}

/// A core's edge directions: a segment's, a polytope's edges'.
fn edge_directions<S: Scalar>(core: &Core<S>) -> Vec<Vector3<S>> {
    match core {
        Core::Point(_) => Vec::new(),
        Core::Segment([p, q]) => vec![q - p],
        Core::Polytope(s) => s.edges().iter().map(|&(u, w)| s.vertex(w) - s.vertex(u)).collect(),
    }
}

/// The square of the penetration depth of two round shapes (see the module's docs): 0 unless
/// they penetrate; exact on exact backends.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cuboid;
/// use touchstone::geom::point;
/// use touchstone::round::{round_depth_squared, RoundShape};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A unit ball centred 1/2 under the top face of the cube [-1, 1]³ is 3/2 deep: 9/4.
/// let cube = RoundShape::rounded(cuboid(q(1), q(1), q(1)).unwrap(), q(0)).unwrap();
/// let ball = RoundShape::ball(point(0, 0, 0) + touchstone::geom::Vector3::new(q(0), q(0), BigRational::new(1.into(), 2.into())), q(1)).unwrap();
/// let d2 = round_depth_squared(&ball, &cube).unwrap();
/// assert_eq!(d2.to_rational(), Some(BigRational::new(9.into(), 4.into())));
/// ```
///
/// Errors: as [`super::round_distance`]; the polynomial module's limits.
pub fn round_depth_squared<S: RootScalar>(a: &RoundShape<S>, b: &RoundShape<S>) -> Result<S::Time, RoundError> {
    let poly = |e: PolyError| match e {
        PolyError::Uncertain(u) => RoundError::Uncertain(u),
        e => RoundError::Invalid(format!("the depth: {e}")),
    };
    let d = round_distance(a, b)?;
    if d.status != Status::Penetrating {
        return Ok(S::time(&S::zero()));
    }
    let meet = d.cores.squared.compare(&S::zero())? != Ordering::Greater;
    let q = if meet { cores_depth_squared(&a.core, &b.core)? } else { d.cores.squared.clone() };
    let r2 = d.radii.clone() * d.radii.clone();
    // A double root: R = 0 (the cores' own depth) or q = 0 (the radii).
    if r2.compare(&S::zero())? == Ordering::Equal {
        return Ok(S::time(&q));
    }
    if q.compare(&S::zero())? == Ordering::Equal {
        return Ok(S::time(&r2));
    }
    let sum = r2.clone() + q.clone();
    let diff = r2.clone() - q.clone();
    let p = Poly::from_coeffs(vec![diff.clone() * diff, -(sum.clone() + sum.clone()), S::one()]);
    // Both roots (R ± √q)² lie in [0, 2(R² + q)].
    let hi = sum.clone() + sum.clone() + S::one();
    // Roots merged in binary64 are both near R² (q tiny beside it).
    nth_root(&p, &S::zero(), &hi, usize::from(meet), &r2).map_err(poly)
}
