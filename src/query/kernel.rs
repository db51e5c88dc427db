//! Queries on the geometry kernel: predicates, transforms and squared distances.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::{ErrorKind, QueryError};
use super::filtered::{point_reference, value_reference};
use super::spec::{to_backend, PlaneSpec, PoseSpec};
use super::{Answer, Bounded, Decisive, Query};
use crate::constructions::{
    squared_distance_point_plane, squared_distance_point_point, squared_distance_point_segment,
};
use crate::contract::weakened;
use crate::geom::{dot_magnitude, permanent3, Point2, Point3, Scaled};
use crate::poly::RootScalar;
use crate::predicates::{orient2d_scaled, orient3d_scaled, Orientation, Side};
use crate::scalar::{Exact, Scalar, Sign};

fn exact_of(x: &BigRational) -> Shown {
    Shown::Rational(x.clone())
}

/// The format's name of an orientation.
pub fn orientation_name(o: Orientation) -> &'static str {
    match o {
        Orientation::Positive => "positive",
        Orientation::Negative => "negative",
        Orientation::Coplanar => "coplanar",
    }
}

/// The format's name of a side.
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::Above => "above",
        Side::On => "on",
        Side::Below => "below",
    }
}

/// `orient3d`: the orientation of four points (positive: d on the side the normal
/// (b − a) × (c − a) points to).
#[derive(Clone, Debug, PartialEq)]
pub struct Orient3d<N: Scalar = BigRational> {
    /// a, b, c, d.
    pub points: [Point3<N>; 4],
}

/// The answer of [`Orient3d`].
#[derive(Clone, Debug, PartialEq)]
pub struct Orient3dOutput<S> {
    /// The orientation.
    pub orientation: Orientation,
    /// ((b − a) × (c − a)) · (d − a).
    pub determinant: S,
}

/// A claim on [`Orient3d`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Orient3dClaim {
    /// The claimed orientation.
    pub orientation: Option<Orientation>,
    /// The claimed determinant.
    pub determinant: Option<BigRational>,
}

impl<N: Scalar> Query for Orient3d<N> {
    const OP: &'static str = "orient3d";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = Orient3dOutput<S>;
    type Discrete = Orientation;

    fn reference(o: Orient3dOutput<Exact>) -> Orient3dOutput<BigRational> {
        Orient3dOutput { orientation: o.orientation, determinant: value_reference(o.determinant) }
    }
    type Claim = Orient3dClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let p = self.points.each_ref().map(to_backend::<S>);
        let det = orient3d_scaled(&p[0], &p[1], &p[2], &p[3]);
        let orientation = Orientation::from(det.sign_scaled()?);
        Ok(Answer {
            output: Orient3dOutput { orientation, determinant: det.value.clone() },
            continuous: vec![Bounded::new("determinant", det.value.clone(), det.magnitude.clone())],
            decisive: vec![Decisive::Test(det)],
        })
    }

    fn discrete<S: RootScalar>(o: &Orient3dOutput<S>) -> Orientation {
        o.orientation
    }

    fn valid_within_tolerance(exact: &Orientation, fast: &Orientation) -> bool {
        weakened(exact, fast, &Orientation::Coplanar)
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(orientation: equal |o: &Orientation| Shown::Text(orientation_name(*o).into()), |out| out.orientation),
        judged!(determinant: number, |out| out.determinant),
    ];
}

/// The format's name of a 2D orientation (`"collinear"` for three points on a line).
pub fn orientation_name_2d(o: Orientation) -> &'static str {
    match o {
        Orientation::Coplanar => "collinear",
        o => orientation_name(o),
    }
}

/// `orient2d`: the orientation of three points in the plane.
#[derive(Clone, Debug, PartialEq)]
pub struct Orient2d<N: Scalar = BigRational> {
    /// a, b, c.
    pub points: [Point2<N>; 3],
}

/// The answer of [`Orient2d`]: `Positive` when a, b, c turn counterclockwise, `Coplanar` when
/// they are collinear.
pub type Orient2dOutput<S> = Orient3dOutput<S>;

impl<N: Scalar> Query for Orient2d<N> {
    const OP: &'static str = "orient2d";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = Orient3dOutput<S>;
    type Discrete = Orientation;

    fn reference(o: Orient3dOutput<Exact>) -> Orient3dOutput<BigRational> {
        Orient3dOutput { orientation: o.orientation, determinant: value_reference(o.determinant) }
    }
    type Claim = Orient3dClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let p = self.points.each_ref().map(|p| p.map(|c| c.to_backend::<S>()));
        let det = orient2d_scaled(&p[0], &p[1], &p[2]);
        let orientation = Orientation::from(det.sign_scaled()?);
        Ok(Answer {
            output: Orient3dOutput { orientation, determinant: det.value.clone() },
            continuous: vec![Bounded::new("determinant", det.value.clone(), det.magnitude.clone())],
            decisive: vec![Decisive::Test(det)],
        })
    }

    fn discrete<S: RootScalar>(o: &Orient3dOutput<S>) -> Orientation {
        o.orientation
    }

    fn valid_within_tolerance(exact: &Orientation, fast: &Orientation) -> bool {
        weakened(exact, fast, &Orientation::Coplanar)
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(orientation: equal |o: &Orientation| Shown::Text(orientation_name_2d(*o).into()), |out| out.orientation),
        judged!(determinant: number, |out| out.determinant),
    ];
}

/// `side_of_plane`: which side of a plane a point lies on.
#[derive(Clone, Debug, PartialEq)]
pub struct SideOfPlane<N: Scalar = BigRational> {
    /// The plane.
    pub plane: PlaneSpec<N>,
    /// The point.
    pub point: Point3<N>,
}

/// The answer of [`SideOfPlane`].
#[derive(Clone, Debug, PartialEq)]
pub struct SideOfPlaneOutput<S> {
    /// The side.
    pub side: Side,
    /// a·x + b·y + c·z + d, or orient3d(a, b, c, point) for a plane through points.
    pub value: S,
}

/// A claim on [`SideOfPlane`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideOfPlaneClaim {
    /// The claimed side.
    pub side: Option<Side>,
    /// The claimed value.
    pub value: Option<BigRational>,
}

impl<N: Scalar> Query for SideOfPlane<N> {
    const OP: &'static str = "side_of_plane";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = SideOfPlaneOutput<S>;
    type Discrete = Side;

    fn reference(o: SideOfPlaneOutput<Exact>) -> SideOfPlaneOutput<BigRational> {
        SideOfPlaneOutput { side: o.side, value: value_reference(o.value) }
    }
    type Claim = SideOfPlaneClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let value = self.plane.eval_scaled(&to_backend::<S>(&self.point));
        let side = Side::from(value.sign_scaled()?);
        // Huge exact numbers make each step slow: steps of the budget between them.
        crate::budget::tick()?;
        let mut decisive = vec![Decisive::Test(value.clone())];
        decisive.extend(self.plane.degeneracy().map(Decisive::AllOf));
        Ok(Answer {
            output: SideOfPlaneOutput { side, value: value.value.clone() },
            continuous: vec![Bounded::new("value", value.value, value.magnitude)],
            decisive,
        })
    }

    fn discrete<S: RootScalar>(o: &SideOfPlaneOutput<S>) -> Side {
        o.side
    }

    fn valid_within_tolerance(exact: &Side, fast: &Side) -> bool {
        weakened(exact, fast, &Side::On)
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(side: equal |s: &Side| Shown::Text(side_name(*s).into()), |out| out.side),
        judged!(value: number, |out| out.value),
    ];
}

/// `transform_points`: points under a pose, or under its exact inverse.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformPoints<N: Scalar = BigRational> {
    /// The pose.
    pub pose: PoseSpec<N>,
    /// The points.
    pub points: Vec<Point3<N>>,
    /// Apply the inverse of the pose.
    pub inverse: bool,
}

/// The answer of [`TransformPoints`].
#[derive(Clone, Debug, PartialEq)]
pub struct TransformPointsOutput<S: Scalar> {
    /// The images, in order.
    pub points: Vec<Point3<S>>,
}

/// A claim on [`TransformPoints`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TransformPointsClaim {
    /// The claimed images.
    pub points: Option<Vec<Point3<BigRational>>>,
}

impl<N: Scalar> Query for TransformPoints<N> {
    const OP: &'static str = "transform_points";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = TransformPointsOutput<S>;
    type Discrete = ();

    fn reference(o: TransformPointsOutput<Exact>) -> TransformPointsOutput<BigRational> {
        TransformPointsOutput { points: o.points.into_iter().map(point_reference).collect() }
    }
    type Claim = TransformPointsClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let forward = self.pose.affine::<S>().map_err(|e| QueryError::geom("/pose", e))?;
        let sum = |it: &mut dyn Iterator<Item = S>| it.fold(S::zero(), |a, b| a + b);
        // Error magnitudes: rotation entries are rounded relative to the row's size, and an
        // inverse is amplified by the condition number permanent/|det|.
        let (map, amplification, decisive) = if self.inverse {
            let det = Scaled { value: forward.determinant(), magnitude: permanent3(&forward.linear) };
            let inv = forward.inverse().map_err(|e| QueryError::geom("/pose", e))?;
            let cond = det.magnitude.clone() / det.value.abs();
            (inv, cond, vec![Decisive::Test(det)])
        } else {
            (forward.clone(), S::one(), vec![])
        };
        let t_size = if self.inverse { sum(&mut forward.translation.iter().map(S::abs)) } else { S::zero() };
        let mut images: Vec<Point3<S>> = Vec::with_capacity(self.points.len());
        for p in &self.points {
            crate::budget::tick()?;
            images.push(map.apply_point(&to_backend(p)));
        }
        let mut continuous = Vec::new();
        for (k, (p, image)) in self.points.iter().zip(&images).enumerate() {
            crate::budget::tick()?;
            let p_size = sum(&mut p.iter().map(|c| c.to_backend::<S>().abs()));
            for i in 0..3 {
                let row = sum(&mut (0..3).map(|j| map.linear[(i, j)].abs()));
                let magnitude =
                    (row * (p_size.clone() + t_size.clone()) + map.translation[i].abs()) * amplification.clone();
                continuous.push(Bounded::new(format!("points/{k}/{i}"), image[i].clone(), magnitude));
            }
        }
        Ok(Answer { output: TransformPointsOutput { points: images }, decisive, continuous })
    }

    fn discrete<S: RootScalar>(_: &TransformPointsOutput<S>) {}

    fn valid_within_tolerance(_: &(), _: &()) -> bool {
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[judged!(points: |_, exact, claimed, _, tol, _| {
        let exact_points = &exact.output.points;
        if claimed.len() != exact_points.len() {
            return Ok(vec![Check::equal(
                "points",
                Shown::Int(claimed.len() as i64),
                Shown::Int(exact_points.len() as i64),
            )
            .with_note("the claim has a different number of points")]);
        }
        Ok(claimed.iter().zip(exact_points).enumerate().map(|(k, (c, e))| point_check(&format!("points/{k}"), c, e, tol)).collect())
    })];
}

/// A claimed point against an exact one, coordinate by coordinate.
pub(super) fn point_check(field: &str, c: &Point3<BigRational>, e: &Point3<BigRational>, tol: &Tolerance) -> Check {
    let ok = (0..3).all(|i| tol.admits(&c[i], &e[i]));
    let error = (0..3).map(|i| num_traits::Signed::abs(&(&c[i] - &e[i]))).max().unwrap_or_default();
    Check {
        field: field.into(),
        claimed: Shown::Point(c.clone()),
        exact: Shown::Point(e.clone()),
        abs_error: Some(Shown::Rational(error)),
        ok,
        note: None,
    }
}

/// What the closest point of a [`SquaredDistance`] query is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closest {
    /// The other point.
    Point,
    /// The segment's first endpoint.
    SegmentStart,
    /// Inside the segment.
    SegmentInterior,
    /// The segment's second endpoint.
    SegmentEnd,
    /// A point of the plane.
    Plane,
}

/// What a [`SquaredDistance`] is measured to.
#[derive(Clone, Debug, PartialEq)]
pub enum Target<N: Scalar = BigRational> {
    /// A point.
    Point(Point3<N>),
    /// A closed segment.
    Segment(Point3<N>, Point3<N>),
    /// A plane.
    Plane(PlaneSpec<N>),
}

/// `squared_distance`: from a point to a point, a closed segment or a plane.
#[derive(Clone, Debug, PartialEq)]
pub struct SquaredDistance<N: Scalar = BigRational> {
    /// The point.
    pub point: Point3<N>,
    /// What the distance is measured to.
    pub target: Target<N>,
}

/// The answer of [`SquaredDistance`].
#[derive(Clone, Debug, PartialEq)]
pub struct SquaredDistanceOutput<S> {
    /// What the closest point is.
    pub closest: Closest,
    /// The squared distance.
    pub distance_squared: S,
    /// For a segment: t ∈ [0, 1] of the closest point p + t(q − p).
    pub parameter: Option<S>,
}

/// A claim on [`SquaredDistance`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SquaredDistanceClaim {
    /// The claimed squared distance.
    pub distance_squared: Option<BigRational>,
    /// The claimed distance.
    pub distance: Option<BigRational>,
    /// The claimed segment parameter.
    pub parameter: Option<BigRational>,
}

impl<N: Scalar> Query for SquaredDistance<N> {
    const OP: &'static str = "squared_distance";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = SquaredDistanceOutput<S>;
    type Discrete = Closest;

    fn reference(o: SquaredDistanceOutput<Exact>) -> SquaredDistanceOutput<BigRational> {
        SquaredDistanceOutput {
            closest: o.closest,
            distance_squared: value_reference(o.distance_squared),
            parameter: o.parameter.map(value_reference),
        }
    }
    type Claim = SquaredDistanceClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let p = to_backend::<S>(&self.point);
        let size = |pts: &[&Point3<S>]| {
            pts.iter().fold(S::zero(), |acc, q| acc + q.iter().fold(S::zero(), |a, c| a + c.abs()))
        };
        let (d2, closest, parameter, magnitude, decisive) = match &self.target {
            Target::Point(q) => {
                let q = to_backend::<S>(q);
                let m = size(&[&p, &q]);
                (squared_distance_point_point(&p, &q), Closest::Point, None, m.clone() * m, vec![])
            }
            Target::Segment(a, b) => {
                let (a, b) = (to_backend::<S>(a), to_backend::<S>(b));
                let (d2, t) = squared_distance_point_segment(&p, &a, &b)?;
                let (u, w) = (&b - &a, &p - &a);
                let dot = w.dot(&u);
                let first = Scaled { value: dot.clone(), magnitude: dot_magnitude(&w, &u) };
                let len2 = u.dot(&u);
                let last = Scaled { value: dot - len2.clone(), magnitude: first.magnitude.clone() + len2 };
                let closest = if first.sign_scaled()? != Sign::Positive {
                    Closest::SegmentStart
                } else if last.sign_scaled()? != Sign::Negative {
                    Closest::SegmentEnd
                } else {
                    Closest::SegmentInterior
                };
                let mut decisive = vec![Decisive::Test(first)];
                if closest != Closest::SegmentStart {
                    decisive.push(Decisive::Test(last));
                }
                let m = size(&[&p, &a, &b]);
                (d2, closest, Some(t), m.clone() * m, decisive)
            }
            Target::Plane(spec) => {
                let plane = spec.plane::<S>().map_err(|e| QueryError::geom("/to_plane", e))?;
                crate::budget::tick()?;
                let d2 = squared_distance_point_plane(&p, &plane).map_err(|e| QueryError::geom("/to_plane", e))?;
                crate::budget::tick()?;
                let e = spec.eval_scaled(&p);
                crate::budget::tick()?;
                let n2 = plane.normal.dot(&plane.normal);
                // (n·p + d)² / |n|²: the numerator's error, underflow included (the smallest
                // normal double: products of tiny coefficients vanish), divided by |n|².
                let floor = S::from_f64(f64::MIN_POSITIVE).unwrap_or_else(|_| S::zero());
                let m = (e.magnitude.clone() * e.magnitude + floor) / n2;
                (d2, Closest::Plane, None, m, spec.degeneracy().map(Decisive::AllOf).into_iter().collect())
            }
        };
        Ok(Answer {
            output: SquaredDistanceOutput { closest, distance_squared: d2.clone(), parameter },
            decisive,
            continuous: vec![Bounded::new("distance_squared", d2, magnitude)],
        })
    }

    fn discrete<S: RootScalar>(o: &SquaredDistanceOutput<S>) -> Closest {
        o.closest
    }

    fn valid_within_tolerance(exact: &Closest, fast: &Closest) -> bool {
        let on_segment =
            |c: &Closest| matches!(c, Closest::SegmentStart | Closest::SegmentInterior | Closest::SegmentEnd);
        exact == fast || (on_segment(exact) && on_segment(fast))
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(distance_squared: number, |out| out.distance_squared),
        judged!(distance: |_, exact, x, _, tol, digits| {
            Ok(vec![Check::sqrt("distance", x, &exact.output.distance_squared, tol, digits)])
        }),
        // A tie: where the closest point is an endpoint, every claim of that endpoint's
        // parameter is right; the parameter is unique otherwise too (the segment is a
        // segment), so a plain number check is the whole story.
        judged!(parameter: |_, exact, x, _, tol, _| {
            let Some(t) = &exact.output.parameter else {
                return Err(QueryError::new(
                    ErrorKind::Unknown,
                    "/claim/parameter",
                    "this query has no parameter (only a distance to a segment does)",
                ));
            };
            Ok(vec![Check::number("parameter", x, t, tol)])
        }),
    ];
}

/// How a closed segment meets a plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentPlaneKind {
    /// No common point.
    Disjoint,
    /// The segment lies in the plane.
    Contained,
    /// One common point.
    Crosses,
}

impl SegmentPlaneKind {
    /// The format's name.
    pub fn as_str(self) -> &'static str {
        match self {
            SegmentPlaneKind::Disjoint => "disjoint",
            SegmentPlaneKind::Contained => "contained",
            SegmentPlaneKind::Crosses => "crosses",
        }
    }
}

/// `segment_plane`: where a closed segment meets a plane.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentPlane<N: Scalar = BigRational> {
    /// The segment's ends p, q.
    pub segment: [Point3<N>; 2],
    /// The plane.
    pub plane: PlaneSpec<N>,
}

/// The answer of [`SegmentPlane`].
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentPlaneOutput<S> {
    /// The sides of p and q.
    pub sides: (Side, Side),
    /// Disjoint, contained or crosses.
    pub intersection: SegmentPlaneKind,
    /// Where it crosses, t ∈ [0, 1] along p → q (exactly 0 or 1 at an end).
    pub t: Option<S>,
}

/// A claim on [`SegmentPlane`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SegmentPlaneClaim {
    /// The claimed kind of intersection.
    pub intersection: Option<SegmentPlaneKind>,
    /// The claimed parameter of the crossing.
    pub t: Option<BigRational>,
}

impl<N: Scalar> Query for SegmentPlane<N> {
    const OP: &'static str = "segment_plane";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = SegmentPlaneOutput<S>;
    type Discrete = (Side, Side);

    fn reference(o: SegmentPlaneOutput<Exact>) -> SegmentPlaneOutput<BigRational> {
        SegmentPlaneOutput { sides: o.sides, intersection: o.intersection, t: o.t.map(value_reference) }
    }
    type Claim = SegmentPlaneClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let [p, q] = &self.segment;
        let ep = self.plane.eval_scaled(&to_backend::<S>(p));
        crate::budget::tick()?;
        let eq = self.plane.eval_scaled(&to_backend::<S>(q));
        crate::budget::tick()?;
        let sides = (Side::from(ep.sign_scaled()?), Side::from(eq.sign_scaled()?));
        let t = match sides {
            (Side::On, Side::On) => None,
            (Side::On, _) => Some(S::zero()),
            (_, Side::On) => Some(S::one()),
            (a, b) if a == b => None,
            _ => Some(ep.value.clone() / (ep.value.clone() - eq.value.clone())),
        };
        let intersection = match (&sides, &t) {
            ((Side::On, Side::On), _) => SegmentPlaneKind::Contained,
            (_, Some(_)) => SegmentPlaneKind::Crosses,
            _ => SegmentPlaneKind::Disjoint,
        };
        let mut continuous = Vec::new();
        if let Some(t) = &t {
            let denominator = ep.value.abs() + eq.value.abs();
            if denominator.sign()? == Sign::Positive {
                let magnitude = (ep.magnitude.clone() + eq.magnitude.clone()) / denominator;
                continuous.push(Bounded::new("t", t.clone(), magnitude));
            }
        }
        crate::budget::tick()?;
        let mut decisive = vec![Decisive::Test(ep), Decisive::Test(eq)];
        decisive.extend(self.plane.degeneracy().map(Decisive::AllOf));
        Ok(Answer { output: SegmentPlaneOutput { sides, intersection, t }, decisive, continuous })
    }

    fn discrete<S: RootScalar>(o: &SegmentPlaneOutput<S>) -> (Side, Side) {
        o.sides
    }

    fn valid_within_tolerance(exact: &(Side, Side), fast: &(Side, Side)) -> bool {
        weakened(&exact.0, &fast.0, &Side::On) && weakened(&exact.1, &fast.1, &Side::On)
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(intersection: equal |k: &SegmentPlaneKind| Shown::Text(k.as_str().into()), |out| out.intersection),
        judged!(t: |_, exact, x, _, tol, _| {
            Ok(vec![match &exact.output.t {
                Some(t) => Check::number("t", x, t, tol),
                None => Check::equal("t", exact_of(x), Shown::Absent)
                    .with_note("the segment does not cross the plane at one point"),
            }])
        }),
    ];
}
