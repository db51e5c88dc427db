//! `distance` when either shape is a cylinder: a cylinder against a ball
//! ([`crate::round::cylinder`]). The status is decided with zero tolerance; the distance, the
//! depth and the closest points are written to the query's `digits`, each digit found by exact
//! comparisons. A cylinder against any other shape is refused (`unsupported`): the rim circle
//! against a segment or a polygon is not answered yet.
//!
//! Contract of the `f64` path: the margin is |d² − s²| (d the centre's distance to the
//! cylinder, from an enclosure, so a lower bound) over M = (1 + the largest |coordinate| of the
//! ends and the centre + r)² + s²; above the budget the status must be the exact one.

use num_rational::BigRational;
use num_traits::Zero;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::distance::status_name;
use super::error::{child, ErrorKind, QueryError};
use super::round::round_error;
use super::spec::{Posed, ShapeSpec};
use super::{Answer, Bounded, Query};
use crate::contract::Margin;
use crate::geom::{Point3, Vector3};
use crate::poly::RootScalar;
use crate::round::cylinder::{ball_cylinder, Cylinder, CylinderFeature, CylinderValue, ExactCylinder};
use crate::scalar::{Exact, Scalar};
use crate::vclip::Status;

type Q = BigRational;

/// A cylinder and a ball, posed, and whether the ball is a (the cylinder b).
struct Pair<S: Scalar> {
    cylinder: Cylinder<S>,
    centre: Point3<S>,
    radius: S,
    swapped: bool,
}

fn pair<S: Scalar, N: Scalar>(a: &Posed<N>, b: &Posed<N>) -> Result<Pair<S>, QueryError> {
    let (cyl, ball, swapped) = match (&a.shape, &b.shape) {
        (ShapeSpec::Cylinder { .. }, ShapeSpec::Ball(_)) => (a, b, false),
        (ShapeSpec::Ball(_), ShapeSpec::Cylinder { .. }) => (b, a, true),
        _ => {
            let other = if a.shape.is_cylinder() { b } else { a };
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                &child(&other.at, other.shape.key()),
                format!(
                    "a cylinder is measured against a ball only; not against a {} (a rim circle against a segment or a polygon is not answered yet)",
                    other.shape.key()
                ),
            ));
        }
    };
    let mut points = Vec::new();
    for p in [cyl, ball] {
        if !p.pose.is_rigid() {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                &p.pose_at,
                "a cylinder's or a ball's pose must be a rigid motion (a quaternion, or a matrix whose linear part is orthogonal)",
            ));
        }
        super::spec::charge_pose_bits::<S, N>(p)?;
        let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
        let pts: Vec<Point3<S>> = match &p.shape {
            ShapeSpec::Cylinder { a, b, .. } => vec![a, b],
            _ => vec![],
        }
        .into_iter()
        .map(|x| map.apply_point(&super::spec::to_backend(x)))
        .collect();
        let origin = map.apply_point(&Point3::new(S::zero(), S::zero(), S::zero()));
        points.push((pts, origin));
    }
    let (ShapeSpec::Cylinder { radius, .. }, ShapeSpec::Ball(s)) = (&cyl.shape, &ball.shape) else {
        return Err(QueryError::new(ErrorKind::Internal, "", "a cylinder pair without a cylinder"));
    };
    let ends = &points[0].0;
    let at = child(&cyl.at, "cylinder");
    let cylinder =
        Cylinder::new(ends[0].clone(), ends[1].clone(), radius.to_backend()).map_err(|e| round_error(&at, e))?;
    Ok(Pair { cylinder, centre: points[1].1.clone(), radius: s.to_backend(), swapped })
}

/// `distance` when either shape is a cylinder (see the module's docs).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::Point3;
/// use touchstone::query::{DistanceCylinder, PoseSpec, Posed, Query, ShapeSpec};
/// use touchstone::vclip::Status;
/// let q = |n: i64| BigRational::from_integer(n.into());
/// let p = |x: i64, y: i64, z: i64| Point3::new(q(x), q(y), q(z));
/// // A cylinder of radius 1 from z = 0 to z = 4, and a ball of radius 5 at (4, 0, 8): it is
/// // 3 out from the rim and 4 above it, 5 from the rim circle: touching.
/// let cylinder = ShapeSpec::cylinder(p(0, 0, 0), p(0, 0, 4), q(1)).unwrap();
/// let ball = PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(4), q(0), q(8)]).unwrap();
/// let query = DistanceCylinder {
///     a: Posed::new("a", cylinder, PoseSpec::identity()),
///     b: Posed::new("b", ShapeSpec::ball(q(5)).unwrap(), ball),
/// };
/// assert_eq!(query.answer::<BigRational>().unwrap().output.status, Status::Touching);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceCylinder<N: Scalar = BigRational> {
    /// Shape a with its pose.
    pub a: Posed<N>,
    /// Shape b with its pose.
    pub b: Posed<N>,
}

/// The answer of [`DistanceCylinder`].
#[derive(Clone, Debug)]
pub struct DistanceCylinderOutput<S: RootScalar> {
    /// Separated, touching or penetrating, exactly.
    pub status: Status,
    /// The squared distance from the ball's centre to the cylinder: within 2⁻¹²⁸ on exact
    /// backends (the exact value is in `exact`), the float estimate on `f64`.
    pub centre_distance_squared: S,
    /// The exact form (exact backends): every value to any number of digits.
    pub exact: Option<ExactCylinder>,
    /// Where the cylinder realises the distance from the centre.
    pub feature: CylinderFeature,
    /// Float estimates of the closest points, a's then b's (the centre twice where it lies in
    /// the cylinder).
    pub points: [[f64; 3]; 2],
    /// The distance in floats.
    pub distance: f64,
    /// The signed distance in floats (minus the depth when penetrating).
    pub signed_distance: f64,
    /// Whether b is the cylinder.
    pub swapped: bool,
}

/// A claim on [`DistanceCylinder`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceCylinderClaim {
    /// The claimed status.
    pub status: Option<Status>,
    /// Whether the closed shapes are claimed to meet.
    pub intersecting: Option<bool>,
    /// The claimed distance.
    pub distance: Option<BigRational>,
    /// The claimed closest points on a and b.
    pub points: Option<[Point3<BigRational>; 2]>,
}

/// (1 + the largest |coordinate| of the ends and the centre + r)².
fn scale<S: Scalar>(p: &Pair<S>) -> f64 {
    let m =
        p.cylinder.ends.iter().chain([&p.centre]).flat_map(|x| x.iter().map(|v| v.to_f64().abs())).fold(0.0, f64::max)
            + p.cylinder.radius.to_f64();
    (1.0 + m) * (1.0 + m)
}

/// The name of a cylinder feature in the format: `"inside"`, `"side"`, `"cap 0"`, `"rim 1"`.
pub fn cylinder_feature_name(f: CylinderFeature) -> String {
    match f {
        CylinderFeature::Inside => "inside".into(),
        CylinderFeature::Side => "side".into(),
        CylinderFeature::Cap(i) => format!("cap {i}"),
        CylinderFeature::Rim(i) => format!("rim {i}"),
    }
}

impl<N: Scalar> DistanceCylinder<N> {
    fn exact_form(out: &DistanceCylinderOutput<BigRational>) -> Result<&ExactCylinder, QueryError> {
        out.exact.as_ref().ok_or_else(|| QueryError::new(ErrorKind::Internal, "", "no exact form on an exact backend"))
    }

    /// The checks of claimed points: each on its shape within `tol.abs` (exactly), then their
    /// distance against the shapes' distance (exactly, square roots compared by squaring).
    fn points_checks(
        &self,
        out: &DistanceCylinderOutput<BigRational>,
        points: &[Point3<Q>; 2],
        tol: &Tolerance,
        digits: u32,
    ) -> Result<Vec<Check>, QueryError> {
        let e = Self::exact_form(out)?;
        let d = e.distance();
        let shown = e.points(digits.min(40)).map_err(|x| QueryError::poly("/claim/points", x))?;
        let shown = if out.swapped { [shown[1].clone(), shown[0].clone()] } else { shown };
        let mut v = Vec::new();
        for (k, p) in points.iter().enumerate() {
            let on_cylinder = (k == 1) == out.swapped;
            let ok = if on_cylinder {
                e.cylinder_holds(p, &tol.abs)
            } else {
                let reach = &d.radius + &tol.abs;
                crate::geom::norm2(&(p - &d.centre)) <= &reach * &reach
            };
            v.push(Check::point_on_shape(k, p, Shown::Text(format!("[{}]", shown[k].join(", "))), ok));
        }
        let gap = crate::geom::norm2(&(&points[0] - &points[1]));
        let ok = e.gap_admitted(&gap, &tol.abs, &tol.rel);
        let exact = Shown::Text(format!("[{}], [{}]", shown[0].join(", "), shown[1].join(", ")));
        v.push(Check::points_apart(points, exact, ok, || e.decimal(CylinderValue::Distance, 8).unwrap_or_default()));
        Ok(v)
    }
}

impl<N: Scalar> Query for DistanceCylinder<N> {
    const OP: &'static str = "distance";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = DistanceCylinderOutput<S>;
    type Discrete = Status;
    type Claim = DistanceCylinderClaim;

    fn reference(o: DistanceCylinderOutput<Exact>) -> DistanceCylinderOutput<BigRational> {
        DistanceCylinderOutput {
            status: o.status,
            centre_distance_squared: o.centre_distance_squared.to_rational().unwrap_or_default(),
            exact: o.exact,
            feature: o.feature,
            points: o.points,
            distance: o.distance,
            signed_distance: o.signed_distance,
            swapped: o.swapped,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let p = pair::<S, N>(&self.a, &self.b)?;
        let d = ball_cylinder(&p.cylinder, &p.centre, &p.radius).map_err(|e| round_error("", e))?;
        let exact = ExactCylinder::of(&d);
        let c = match &exact {
            Some(e) => {
                let (lo, hi) = e.squared_enclosure(128);
                S::from_rational(&((lo + hi) / Q::from_integer(2.into())))
            }
            None => S::from_rational(&Q::from_float(d.point.squared_f64(&p.cylinder.radius)).unwrap_or_default()),
        };
        let [y, x] = d.points_f64();
        let points = if p.swapped { [x, y] } else { [y, x] };
        let magnitude = S::from_rational(&Q::from_float(scale(&p)).unwrap_or_default());
        Ok(Answer {
            output: DistanceCylinderOutput {
                status: d.status,
                centre_distance_squared: c.clone(),
                exact,
                feature: d.point.feature,
                points,
                distance: d.distance_f64(),
                signed_distance: d.signed_f64(),
                swapped: p.swapped,
            },
            decisive: Vec::new(),
            continuous: vec![Bounded::new("centre_distance_squared", c, magnitude)],
        })
    }

    /// |d² − s²| over M (see the module's docs), from an enclosure of d².
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        let e = Self::exact_form(&exact.output)?;
        let p = pair::<Q, N>(&self.a, &self.b)?;
        Ok(super::torus::squared_gap_margin(&e.squared_enclosure(128), &e.distance().radius, scale(&p)))
    }

    fn discrete<S: RootScalar>(o: &DistanceCylinderOutput<S>) -> Status {
        o.status
    }

    fn valid_within_tolerance(_: &Status, _: &Status) -> bool {
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: equal |s: &Status| Shown::Text(status_name(*s).into()), |out| out.status),
        judged!(intersecting: equal |b: &bool| Shown::Bool(*b), |out| out.status != Status::Separated),
        judged!(distance: |_, exact, x, _, tol, digits| {
            let e = Self::exact_form(&exact.output)?;
            let value = CylinderValue::Distance;
            let shown = e.decimal(value, digits.min(40)).map_err(|err| QueryError::poly("/claim/distance", err))?;
            Ok(vec![Check::by_comparisons("distance", x, tol, shown, |q| Ok(e.compare(value, q)))?])
        }),
        judged!(points: |q, exact, points, _, tol, digits| q.points_checks(&exact.output, points, tol, digits)),
    ];
}

/// The exact signed distance of a cylinder–ball `distance` line's shapes (minus the
/// penetration depth when they overlap), rounded to binary64; `None` where it cannot be
/// measured (not such a pair, the run's limits).
pub fn cylinder_signed_distance<N: Scalar>(a: &Posed<N>, b: &Posed<N>) -> Option<f64> {
    let out = DistanceCylinder { a: a.clone(), b: b.clone() }.compute::<Q>().ok()?.output;
    let e = out.exact?;
    let digits = 20;
    let parse = |s: String| s.parse::<f64>().ok();
    match out.status {
        Status::Separated => parse(e.decimal(CylinderValue::Distance, digits).ok()?),
        Status::Touching => Some(0.0),
        Status::Penetrating => parse(e.decimal(CylinderValue::Depth, digits).ok()?).map(|x| -x),
    }
}

/// How far shape `b` must move along `n` to leave shape `a` (a cylinder and a ball, either
/// way round), over |n|: the support functions h_a(n) + h_b(−n), with a cylinder's
/// max(n·A, n·B) + r·√(|n|²k − (n·u)²)/√k and a ball's n·X + s|n|; the rational parts exactly,
/// the roots in binary64. `None` where it cannot be measured.
pub fn cylinder_separation_along<N: Scalar>(a: &Posed<N>, b: &Posed<N>, n: &Vector3<Q>) -> Option<f64> {
    let p = pair::<Q, N>(a, b).ok()?;
    let nn = n.dot(n);
    if nn.is_zero() {
        return None;
    }
    let f = |x: &Q| Scalar::to_f64(x);
    let len = f(&nn).sqrt();
    // Support along m = ±n: (rational part, radical part in floats).
    let cylinder = |m: &Vector3<Q>| -> Option<(Q, f64)> {
        let [e0, e1] = &p.cylinder.ends;
        let u: Vector3<Q> = e1 - e0;
        let k = u.dot(&u);
        let top = m.dot(&e0.coords).max(m.dot(&e1.coords));
        let nu = m.dot(&u);
        let under = (&nn * &k - &nu * &nu) / &k;
        Some((top, f(&p.cylinder.radius) * f(&under).max(0.0).sqrt()))
    };
    let ball = |m: &Vector3<Q>| -> Option<(Q, f64)> { Some((m.dot(&p.centre.coords), f(&p.radius) * len)) };
    let minus: Vector3<Q> = -n.clone();
    let (ha, hb) = if p.swapped { (ball(n)?, cylinder(&minus)?) } else { (cylinder(n)?, ball(&minus)?) };
    Some((f(&(ha.0 + hb.0)) + ha.1 + hb.1) / len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::PoseSpec;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn at(x: i64, y: i64, z: i64) -> PoseSpec<Q> {
        PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(x), q(y), q(z)]).unwrap()
    }

    fn cylinder() -> ShapeSpec<Q> {
        ShapeSpec::cylinder(Point3::new(q(0), q(0), q(0)), Point3::new(q(0), q(0), q(4)), q(1)).unwrap()
    }

    #[test]
    fn a_turned_cylinder_is_posed_exactly() {
        // The cylinder turned a quarter about x (quaternion (1, 1, 0, 0)): its axis runs from
        // the origin to (0, −4, 0). A ball of radius 2 at (0, −6, 0) touches cap 1.
        let turned = PoseSpec::quaternion([q(1), q(1), q(0), q(0)], [q(0), q(0), q(0)]).unwrap();
        let query = DistanceCylinder {
            a: Posed::new("a", cylinder(), turned),
            b: Posed::new("b", ShapeSpec::ball(q(2)).unwrap(), at(0, -6, 0)),
        };
        let out = query.answer::<BigRational>().unwrap().output;
        assert_eq!((out.status, out.feature), (Status::Touching, CylinderFeature::Cap(1)));
        let e = out.exact.unwrap();
        assert_eq!(e.points(10).unwrap()[0], ["0", "-4", "0"].map(String::from));
    }

    #[test]
    fn claims_are_judged_exactly() {
        // Ball radius 1 at (3, 0, 2): 2 from the side, distance 1, closest points (1, 0, 2)
        // and (2, 0, 2).
        let query = DistanceCylinder {
            a: Posed::new("a", cylinder(), PoseSpec::identity()),
            b: Posed::new("b", ShapeSpec::ball(q(1)).unwrap(), at(3, 0, 2)),
        };
        let tol = Tolerance::new(Q::new(1.into(), 1_000_000.into()), q(0)).unwrap();
        let right = DistanceCylinderClaim {
            status: Some(Status::Separated),
            distance: Some(q(1)),
            points: Some([Point3::new(q(1), q(0), q(2)), Point3::new(q(2), q(0), q(2))]),
            ..Default::default()
        };
        let exact = query.answer::<BigRational>().unwrap();
        assert!(query.judge(&exact, &right, &tol, 20).unwrap().ok());
        let wrong = DistanceCylinderClaim {
            distance: Some(Q::new(100_001.into(), 100_000.into())),
            points: Some([Point3::new(q(1), q(0), q(2)), Point3::new(q(2), q(0), q(3))]),
            ..Default::default()
        };
        let v = query.judge(&exact, &wrong, &tol, 20).unwrap();
        let bad: Vec<&str> = v.checks.iter().filter(|c| !c.ok).map(|c| c.field.as_str()).collect();
        assert_eq!(bad, vec!["distance", "points/1", "points"]);
    }

    #[test]
    fn other_shapes_are_refused_by_name() {
        let query = DistanceCylinder {
            a: Posed::new("a", cylinder(), PoseSpec::identity()),
            b: Posed::new("b", ShapeSpec::cuboid([q(1), q(1), q(1)]).unwrap(), at(5, 0, 0)),
        };
        let e = query.answer::<BigRational>().unwrap_err();
        assert_eq!((e.kind, e.at.as_str()), (ErrorKind::Unsupported, "/b/box"));
    }

    #[test]
    fn separation_along_a_normal() {
        // Ball radius 1 at (3, 0, 2): along +x it must move… it is apart by 1: −1 along +x
        // (it is already 1 clear), 1 + 2 + 2 = 5 back along −x.
        let (a, b) = (
            Posed::new("a", cylinder(), PoseSpec::identity()),
            Posed::new("b", ShapeSpec::ball(q(1)).unwrap(), at(3, 0, 2)),
        );
        let x = |s: i64| Vector3::new(q(s), q(0), q(0));
        assert_eq!(cylinder_separation_along(&a, &b, &x(1)), Some(-1.0));
        assert_eq!(cylinder_separation_along(&a, &b, &x(-2)), Some(5.0));
        assert_eq!(cylinder_signed_distance(&a, &b), Some(1.0));
    }
}
