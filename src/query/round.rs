//! `distance` between round shapes (balls, capsules, rounded convex shapes, and convex shapes
//! as rounded ones of radius 0): the status decided exactly by comparing d(cores)² with
//! (r_a + r_b)², the distance, its square and the closest points as algebraic numbers
//! ([`crate::round`]).

use num_rational::BigRational;
use num_traits::{One, Signed};

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::distance::status_name;
use super::error::{child, ErrorKind, QueryError};
use super::filtered::value_reference;
use super::spec::{posed_convex, ConvexPosed, FeatureId, Posed, ShapeSpec};
use super::{Answer, Bounded, Decisive, Query};
use crate::geom::{Point3, Scaled, Vector3};
use crate::poly::RootScalar;
use crate::round::{core_distance, round_distance, Core, CoreFeature, RoundError, RoundShape};
use crate::scalar::{Exact, Scalar};
use crate::vclip::Status;

/// `distance` when either shape is round: the round shapes' distance (see the module's docs).
/// A convex polyhedral shape takes part as a rounded shape of radius 0.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::query::{DistanceRound, PoseSpec, Posed, Query, ShapeSpec};
/// use touchstone::vclip::Status;
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A ball of radius 5 centred 6 above the centre of the cube [-1, 1]³ rests on its top face.
/// let ball = Posed::new("a", ShapeSpec::ball(q(5)).unwrap(), PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(0), q(0), q(6)]).unwrap());
/// let cube = Posed::new("b", ShapeSpec::cuboid([q(1), q(1), q(1)]).unwrap(), PoseSpec::identity());
/// let out = DistanceRound { a: ball, b: cube }.answer::<BigRational>().unwrap().output;
/// assert_eq!(out.status, Status::Touching);
/// assert_eq!(out.cores_distance_squared, q(25));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceRound<N: Scalar = BigRational> {
    /// Shape a with its pose.
    pub a: Posed<N>,
    /// Shape b with its pose.
    pub b: Posed<N>,
}

/// The answer of [`DistanceRound`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceRoundOutput<S: RootScalar> {
    /// Separated, touching or penetrating: d(cores)² against (r_a + r_b)², exactly.
    pub status: Status,
    /// d(cores)², the exact description of the distance max(0, √c − r_a − r_b).
    pub cores_distance_squared: S,
    /// The distance (an algebraic number on exact backends).
    pub distance: S::Time,
    /// The distance squared.
    pub distance_squared: S::Time,
    /// The core feature of each shape that realises the cores' distance (a capsule's vertex 0
    /// or 1 or edge [0, 1], a polytope's feature); `None` for a ball's centre and where the
    /// other core reaches inside a polytope core.
    pub features: [Option<FeatureId>; 2],
    /// A point of each shape: the closest points (equal when touching); for penetrating shapes
    /// whose cores do not meet, each shape's deepest point along the line between the cores'
    /// closest points; where the cores meet, their common point on both.
    pub points: [[S::Time; 3]; 2],
}

/// A claim on [`DistanceRound`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceRoundClaim {
    /// The claimed status.
    pub status: Option<Status>,
    /// Whether the closed shapes are claimed to meet.
    pub intersecting: Option<bool>,
    /// The claimed distance.
    pub distance: Option<BigRational>,
    /// The claimed squared distance.
    pub distance_squared: Option<BigRational>,
    /// The claimed closest points on a and b.
    pub points: Option<[Point3<BigRational>; 2]>,
    /// The claimed square of the penetration depth (0 unless penetrating).
    pub depth_squared: Option<BigRational>,
}

/// A round shape posed in the world on backend `S`, with its polytope core's format names.
pub(crate) struct PosedRound<S: Scalar> {
    /// The shape.
    pub shape: RoundShape<S>,
    /// The polytope core as posed (for its features' names and its pose's determinant).
    pub convex: Option<ConvexPosed<S>>,
}

/// Pose a shape as a round one: a ball's centre, a capsule's ends, a rounded or plain convex
/// shape's polytope (posed and made strictly convex as for `distance`). A round shape's pose
/// must be rigid ([`super::PoseSpec::is_rigid`]).
pub(crate) fn posed_round<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<PosedRound<S>, QueryError> {
    if p.shape.is_round() && !p.pose.is_rigid() {
        return Err(QueryError::new(
            ErrorKind::Invalid,
            &p.pose_at,
            "a round shape's pose must be a rigid motion (a quaternion, or a matrix whose linear part is orthogonal): a matrix that scales or shears would make a ball an ellipsoid",
        ));
    }
    let at = child(&p.at, p.shape.key());
    let invalid = |e: RoundError| round_error(&at, e);
    let point = |x: &Point3<N>| -> Result<Point3<S>, QueryError> {
        let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
        Ok(map.apply_point(&super::spec::to_backend(x)))
    };
    let polytope = |posed: &Posed<N>, radius: S| -> Result<PosedRound<S>, QueryError> {
        let convex = posed_convex::<S, N>(posed)?;
        let shape = RoundShape::rounded(convex.built.solid.clone(), radius).map_err(invalid)?;
        Ok(PosedRound { shape, convex: Some(convex) })
    };
    match &p.shape {
        ShapeSpec::Ball(r) => {
            super::spec::charge_pose_bits::<S, N>(p)?;
            let zero = N::zero();
            let centre = point(&Point3::new(zero.clone(), zero.clone(), zero))?;
            let shape = RoundShape::ball(centre, r.to_backend()).map_err(invalid)?;
            Ok(PosedRound { shape, convex: None })
        }
        ShapeSpec::Capsule { a, b, radius } => {
            super::spec::charge_pose_bits::<S, N>(p)?;
            let shape = RoundShape::capsule(point(a)?, point(b)?, radius.to_backend()).map_err(invalid)?;
            Ok(PosedRound { shape, convex: None })
        }
        ShapeSpec::Round { shape, radius } => {
            let core = Posed {
                shape: (**shape).clone(),
                pose: p.pose.clone(),
                at: child(&at, "shape"),
                pose_at: p.pose_at.clone(),
            };
            polytope(&core, radius.to_backend())
        }
        _ => polytope(p, S::zero()),
    }
}

/// How far round shape `b` must move along `n` to leave round shape `a` (their interiors
/// disjoint), as `(c, R)`: the distance is c/|n| + R, with c = max over a's core of n·x − min
/// over b's core of n·y (exact) and R = r_a + r_b: the support function of a core swept by a
/// ball of radius r is the core's plus r|n|. Over all directions its least is the
/// penetration depth; what an engine's contact normal on round shapes is judged by.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::Vector3;
/// use touchstone::query::{round_separation_along, PoseSpec, Posed, ShapeSpec};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// let at = |x: i64| PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(x), q(0), q(0)]).unwrap();
/// // Unit balls 1 apart overlap by 1 along x: b moves 1 along x, or 3 along −x, to leave a.
/// let (a, b) = (Posed::new("a", ShapeSpec::ball(q(1)).unwrap(), at(0)), Posed::new("b", ShapeSpec::ball(q(1)).unwrap(), at(1)));
/// assert_eq!(round_separation_along(&a, &b, &Vector3::new(q(1), q(0), q(0))).unwrap(), (q(-1), q(2)));
/// assert_eq!(round_separation_along(&a, &b, &Vector3::new(q(-1), q(0), q(0))).unwrap(), (q(1), q(2)));
/// ```
///
/// Errors: as `distance` on the shapes.
pub fn round_separation_along<N: Scalar>(
    a: &Posed<N>,
    b: &Posed<N>,
    n: &Vector3<BigRational>,
) -> Result<(BigRational, BigRational), QueryError> {
    let (pa, pb) = (posed_round::<Exact, N>(a)?, posed_round::<Exact, N>(b)?);
    let n = n.map(|x| Exact::from_rational(&x));
    let extreme = |core: &Core<Exact>, most: bool| -> Option<BigRational> {
        let values = core.points().into_iter().map(|p| value_reference(p.coords.dot(&n)));
        if most {
            values.max()
        } else {
            values.min()
        }
    };
    let empty = || QueryError::new(ErrorKind::Internal, "", "a core without points");
    let top = extreme(&pa.shape.core, true).ok_or_else(empty)?;
    let bottom = extreme(&pb.shape.core, false).ok_or_else(empty)?;
    Ok((top - bottom, value_reference(pa.shape.radius + pb.shape.radius)))
}

/// A round shape's refusal as a query error at `at`.
pub(crate) fn round_error(at: &str, e: RoundError) -> QueryError {
    match e {
        RoundError::Uncertain(u) => QueryError::uncertain(at, u),
        RoundError::Polytope(v) => QueryError::vclip(at, v),
        RoundError::Invalid(m) => QueryError::new(ErrorKind::Invalid, at, m),
        RoundError::Poly(what, e) => match e {
            crate::poly::PolyError::Uncertain(u) => QueryError::uncertain(at, u),
            // Only the `f64` finder meets a NaN or an infinity: a value left the range.
            crate::poly::PolyError::NotFinite(_) => QueryError::uncertain(at, crate::scalar::Uncertain::Overflow),
            e => QueryError::new(ErrorKind::Limit, at, format!("{what}: {e}")),
        },
    }
}

/// The format's name of a core feature (see [`DistanceRoundOutput::features`]).
pub(super) fn feature_name<S: Scalar>(posed: &PosedRound<S>, f: &CoreFeature) -> Result<Option<FeatureId>, QueryError> {
    Ok(match f {
        CoreFeature::Point | CoreFeature::Inside => None,
        CoreFeature::End(k) => Some(FeatureId::Vertex(*k)),
        CoreFeature::Segment => Some(FeatureId::Edge(0, 1)),
        CoreFeature::Polytope(x) => match &posed.convex {
            Some(c) => Some(c.feature_id(x)?),
            None => None,
        },
    })
}

/// (1 + the largest |coordinate| of either core)²: the scale of the cores' squared distance,
/// which bounds what rounding the cores' coordinates does to it (as for polytopes,
/// [`crate::vclip::contract::distance_magnitude`]).
fn cores_scale<S: Scalar>(a: &Core<S>, b: &Core<S>) -> S {
    crate::vclip::contract::points_distance_magnitude(a.points(), b.points())
}

impl<N: Scalar> DistanceRound<N> {
    fn posed<S: Scalar>(&self) -> Result<(PosedRound<S>, PosedRound<S>), QueryError> {
        Ok((posed_round::<S, N>(&self.a)?, posed_round::<S, N>(&self.b)?))
    }

    /// The checks of claimed points: each on its shape (its core within the radius plus
    /// `tol.abs`), then their distance against the exact distance (exactly, with square roots
    /// compared by squaring).
    fn points_checks(
        &self,
        out: &DistanceRoundOutput<BigRational>,
        points: &[Point3<BigRational>; 2],
        tol: &Tolerance,
        digits: u32,
    ) -> Result<Vec<Check>, QueryError> {
        let (a, b) = self.posed::<BigRational>()?;
        let text = |p: &[crate::poly::Algebraic; 3]| {
            format!(
                "[{}]",
                p.iter().map(|x| x.to_decimal(digits.min(40)).unwrap_or_default()).collect::<Vec<_>>().join(", ")
            )
        };
        let shown = |p: &[crate::poly::Algebraic; 3]| Shown::Text(text(p));
        let mut v = Vec::new();
        for (k, (p, s)) in points.iter().zip([&a.shape, &b.shape]).enumerate() {
            let off =
                core_distance(&Core::Point(p.clone()), &s.core).map_err(|e| round_error("/claim/points", e))?.squared;
            let reach = &s.radius + &tol.abs;
            let ok = off <= &reach * &reach;
            v.push(Check::point_on_shape(k, p, shown(&out.points[k]), ok));
        }
        let gap = crate::geom::norm2(&(&points[0] - &points[1]));
        let c = &out.cores_distance_squared;
        let radii = &a.shape.radius + &b.shape.radius;
        let ok = if out.status == Status::Separated {
            gap_admitted(&gap, c, &radii, tol)
        } else {
            gap <= &tol.abs * &tol.abs
        };
        let exact = Shown::Text(format!("{}, {}", text(&out.points[0]), text(&out.points[1])));
        v.push(Check::points_apart(points, exact, ok, || out.distance.to_decimal(8).unwrap_or_default()));
        Ok(v)
    }
}

impl<N: Scalar> DistanceRound<N> {
    /// The square of the penetration depth, exactly ([`crate::round::round_depth_squared`]).
    pub fn depth_squared(&self) -> Result<crate::poly::Algebraic, QueryError> {
        let (a, b) = self.posed::<BigRational>()?;
        crate::round::round_depth_squared(&a.shape, &b.shape).map_err(|e| round_error("/claim/depth_squared", e))
    }
}

/// Whether √g + k ≤ √v, exactly, for g, v ≥ 0 and any rational k (squaring).
fn sqrt_plus_le(g: &BigRational, k: &BigRational, v: &BigRational) -> bool {
    let four = BigRational::from_integer(4.into());
    if !k.is_negative() {
        // g + 2k√g + k² ≤ v ⇔ 2k√g ≤ v − g − k².
        let rhs = v - g - k * k;
        !rhs.is_negative() && &four * k * k * g <= &rhs * &rhs
    } else {
        // √g ≤ √v + m (m = −k > 0) ⇔ g − v − m² ≤ 2m√v.
        let m = -k;
        let lhs = g - v - &m * &m;
        !lhs.is_positive() || &lhs * &lhs <= &four * &m * &m * v
    }
}

/// Whether √g is within the tolerance of the distance √c − R > 0 (separated shapes):
/// |√g − (√c − R)| ≤ max(abs, rel·(√c − R)), exactly.
fn gap_admitted(g: &BigRational, c: &BigRational, radii: &BigRational, tol: &Tolerance) -> bool {
    let (a, r) = (&tol.abs, &tol.rel);
    // √c − R − a ≤ √g ≤ √c − R + a.
    if sqrt_plus_le(g, &(radii - a), c) && sqrt_plus_le(c, &(-(radii + a)), g) {
        return true;
    }
    // (1 − r)(√c − R) ≤ √g ≤ (1 + r)(√c − R).
    let one = BigRational::one();
    let up = &one + r;
    let upper = sqrt_plus_le(g, &(&up * radii), &(&up * &up * c));
    let down = &one - r;
    let lower = !down.is_positive() || sqrt_plus_le(&(&down * &down * c), &(-(&down * radii)), g);
    upper && lower
}

impl<N: Scalar> Query for DistanceRound<N> {
    const OP: &'static str = "distance";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = DistanceRoundOutput<S>;
    type Discrete = Status;
    type Claim = DistanceRoundClaim;

    fn reference(o: DistanceRoundOutput<Exact>) -> DistanceRoundOutput<BigRational> {
        DistanceRoundOutput {
            status: o.status,
            cores_distance_squared: value_reference(o.cores_distance_squared),
            distance: o.distance,
            distance_squared: o.distance_squared,
            features: o.features,
            points: o.points,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (a, b) = self.posed::<S>()?;
        let d = round_distance(&a.shape, &b.shape).map_err(|e| round_error("", e))?;
        let poly = |e| QueryError::poly("", e);
        let features = [feature_name(&a, &d.cores.features.0)?, feature_name(&b, &d.cores.features.1)?];
        let points = match d.points(&a.shape.radius).map_err(poly)? {
            Some(p) => p,
            None => {
                let p = &d.cores.points.0;
                let t = [S::time(&p.x), S::time(&p.y), S::time(&p.z)];
                [t.clone(), t]
            }
        };
        let c = d.cores.squared.clone();
        let scale = cores_scale(&a.shape.core, &b.shape.core);
        let r2 = d.radii.clone() * d.radii.clone();
        let mut decisive =
            vec![Decisive::Test(Scaled { value: c.clone() - r2.clone(), magnitude: scale.clone() + r2 })];
        decisive.extend(
            [&a, &b].iter().filter_map(|p| p.convex.as_ref()).map(|c| Decisive::Test(c.pose_determinant.clone())),
        );
        Ok(Answer {
            output: DistanceRoundOutput {
                status: d.status,
                distance: d.distance().map_err(poly)?,
                distance_squared: d.distance_squared().map_err(poly)?,
                cores_distance_squared: c.clone(),
                features,
                points,
            },
            decisive,
            continuous: vec![Bounded::new("cores_distance_squared", c, scale)],
        })
    }

    /// The answer's tests and the polytope cores' own (as for `distance`).
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<crate::contract::Margin, QueryError> {
        let mut margin = super::margin_of(&exact.decisive);
        if let Ok((a, b)) = self.posed::<crate::scalar::Exact>() {
            for c in [&a, &b].into_iter().filter_map(|p| p.convex.as_ref()) {
                margin = margin.min(super::distance::posed_shape_margin(c));
            }
        }
        Ok(margin)
    }

    fn discrete<S: RootScalar>(o: &DistanceRoundOutput<S>) -> Status {
        o.status
    }

    fn valid_within_tolerance(_: &Status, _: &Status) -> bool {
        // Within the budget of touching every status is admissible; the cores' squared
        // distance is still checked as a continuous output.
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: equal |s: &Status| Shown::Text(status_name(*s).into()), |out| out.status),
        judged!(intersecting: equal |b: &bool| Shown::Bool(*b), |out| out.status != Status::Separated),
        judged!(distance: |_, exact, x, _, tol, digits| {
            Ok(vec![Check::algebraic("distance", x, &exact.output.distance, tol, digits)])
        }),
        judged!(distance_squared: |_, exact, x, _, tol, digits| {
            Ok(vec![Check::algebraic("distance_squared", x, &exact.output.distance_squared, tol, digits)])
        }),
        judged!(points: |q, exact, points, _, tol, digits| q.points_checks(&exact.output, points, tol, digits)),
        judged!(depth_squared: |q, _, x, _, tol, digits| {
            Ok(vec![Check::algebraic("depth_squared", x, &q.depth_squared()?, tol, digits)])
        }),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    #[test]
    fn square_roots_compare_by_squaring() {
        // √4 + 1 ≤ √9 (equal), not ≤ √8.99; √9 − 1 ≤ √4 (equal), not ≤ √3.99.
        assert!(sqrt_plus_le(&q(4), &q(1), &q(9)));
        assert!(!sqrt_plus_le(&q(4), &q(1), &BigRational::new(899.into(), 100.into())));
        assert!(sqrt_plus_le(&q(9), &q(-1), &q(4)));
        assert!(!sqrt_plus_le(&q(9), &q(-1), &BigRational::new(399.into(), 100.into())));
        // A gap of √(2.25) = 1.5 against √4 − 1/2 = 1.5: admitted with no tolerance at all.
        let none = Tolerance::new(q(0), q(0)).unwrap();
        assert!(gap_admitted(
            &BigRational::new(9.into(), 4.into()),
            &q(4),
            &BigRational::new(1.into(), 2.into()),
            &none
        ));
        assert!(!gap_admitted(&q(2), &q(4), &BigRational::new(1.into(), 2.into()), &none));
    }
}
