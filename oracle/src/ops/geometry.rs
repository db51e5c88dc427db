//! Ops on the geometry kernel (extensions of the format; see FORMAT.md): exact predicates,
//! transforms and squared distances, on any backend.

use num_rational::BigRational;
use serde_json::{json, Map, Value};
use touchstone::constructions::{
    plane_through, squared_distance_point_plane, squared_distance_point_point, squared_distance_point_segment,
};
use touchstone::contract::weakened;
use touchstone::geom::{dot_magnitude, permanent3, Plane, Point3, Scaled};
use touchstone::predicates::{orient3d_scaled, Orientation, Side};
use touchstone::scalar::{Decision, Scalar, Sign};

use super::{num, point_json, sqrt_json, Common, Context, Decisive, Op, Outcome};
use crate::error::{Kind, QueryError};
use crate::input::{child, point, points, rationals, to_backend, Fields};
use crate::pose::{parse_pose, PoseSpec};

fn decided<T>(d: Decision<T>) -> Result<T, QueryError> {
    d.map_err(|e| QueryError::new(Kind::Internal, "", e.to_string()))
}

fn outcome<S, D>(fields: Value, discrete: D) -> Outcome<S, D> {
    let Value::Object(fields) = fields else {
        return Outcome { fields: Map::new(), discrete, decisive: vec![], continuous: vec![] };
    };
    Outcome { fields, discrete, decisive: vec![], continuous: vec![] }
}

fn orientation_name(o: Orientation) -> &'static str {
    match o {
        Orientation::Positive => "positive",
        Orientation::Negative => "negative",
        Orientation::Coplanar => "coplanar",
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::Above => "above",
        Side::On => "on",
        Side::Below => "below",
    }
}

/// `orient3d`: the orientation of four points.
pub struct Orient3d;

impl Op for Orient3d {
    type Input = Vec<Point3<BigRational>>;
    type Discrete = Orientation;
    const FIELDS: &'static [&'static str] = &["points"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
        let (v, at) = f.required("points")?;
        points(v, &at, Some(4))
    }

    fn run<S: Scalar>(p: &Self::Input, _: &Common) -> Result<Outcome<S, Orientation>, QueryError> {
        let p: Vec<Point3<S>> = p.iter().map(to_backend).collect();
        let det = orient3d_scaled(&p[0], &p[1], &p[2], &p[3]);
        let o = Orientation::from(decided(det.sign())?);
        let mut out = outcome(json!({"orientation": orientation_name(o), "determinant": num(&det.value)}), o);
        if S::EXACT_VALUES {
            out.fields.insert("determinant_f64".into(), json!(det.value.to_f64()));
        }
        out.continuous.push(("determinant".into(), det.value.clone(), det.magnitude.clone()));
        out.decisive.push(Decisive::Test(det));
        Ok(out)
    }

    fn valid_within_tolerance(exact: &Orientation, fast: &Orientation) -> bool {
        weakened(exact, fast, &Orientation::Coplanar)
    }
}

/// A plane as given: through three points, or by its coefficients.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // built once per query
pub enum PlaneSpec {
    /// `{"points": [a, b, c]}`, not collinear; above is where a, b, c run counterclockwise.
    Points(Vec<Point3<BigRational>>),
    /// `{"coefficients": [a, b, c, d]}`, (a, b, c) nonzero.
    Coefficients(Plane<BigRational>),
}

fn parse_plane(f: &Fields) -> Result<PlaneSpec, QueryError> {
    let (v, at) = f.required("plane")?;
    let pf = Fields::of(v, &at, "a plane")?;
    let (kind, body, bat) = pf.single_key("a plane ({\"points\": ...} or {\"coefficients\": ...})")?;
    match kind {
        "points" => {
            let p = points(body, &bat, Some(3))?;
            match plane_through(&p[0], &p[1], &p[2]) {
                Err(e) => Err(QueryError::geom(&bat, e)),
                Ok(_) => Ok(PlaneSpec::Points(p)),
            }
        }
        "coefficients" => {
            let c = rationals(body, &bat, 4, "plane coefficients [a, b, c, d]")?;
            Plane::from_coefficients(c[0].clone(), c[1].clone(), c[2].clone(), c[3].clone())
                .map(PlaneSpec::Coefficients)
                .map_err(|e| QueryError::geom(&bat, e))
        }
        other => {
            Err(QueryError::new(Kind::Unknown, &bat, format!("unknown plane form {other:?} (points, coefficients)")))
        }
    }
}

impl PlaneSpec {
    /// The signed value at `p` with its magnitude: orient3d(a, b, c, p) for the points form
    /// (decided on the input points, not on a rounded plane), a·x + b·y + c·z + d otherwise.
    fn eval_scaled<S: Scalar>(&self, p: &Point3<S>) -> Scaled<S> {
        match self {
            PlaneSpec::Points(q) => {
                let q: Vec<Point3<S>> = q.iter().map(to_backend).collect();
                orient3d_scaled(&q[0], &q[1], &q[2], p)
            }
            PlaneSpec::Coefficients(plane) => plane.map_to::<S>().eval_scaled(p),
        }
    }

    /// The plane on backend `S` (the points form may be degenerate within `S`'s tolerance).
    fn plane<S: Scalar>(&self) -> Result<Plane<S>, QueryError> {
        match self {
            PlaneSpec::Points(q) => {
                let q: Vec<Point3<S>> = q.iter().map(to_backend).collect();
                plane_through(&q[0], &q[1], &q[2]).map_err(|e| QueryError::geom("/plane/points", e))
            }
            PlaneSpec::Coefficients(plane) => Ok(plane.map_to::<S>()),
        }
    }

    /// The degeneracy test of the points form (a zero normal).
    fn degeneracy<S: Scalar>(&self) -> Option<Decisive<S>> {
        let PlaneSpec::Points(q) = self else { return None };
        let q: Vec<Point3<S>> = q.iter().map(to_backend).collect();
        let (u, v) = (&q[1] - &q[0], &q[2] - &q[0]);
        let n = u.cross(&v);
        let parts = [(1, 2), (2, 0), (0, 1)]
            .iter()
            .zip(n.iter())
            .map(|(&(i, j), c)| Scaled {
                value: c.clone(),
                magnitude: u[i].abs() * v[j].abs() + u[j].abs() * v[i].abs(),
            })
            .collect();
        Some(Decisive::AllOf(parts))
    }
}

trait MapTo {
    fn map_to<T: Scalar>(&self) -> Plane<T>;
}

impl MapTo for Plane<BigRational> {
    fn map_to<T: Scalar>(&self) -> Plane<T> {
        Plane { normal: self.normal.map(|c| T::from_rational(&c)), offset: T::from_rational(&self.offset) }
    }
}

/// `side_of_plane`: which side of a plane a point lies on.
pub struct SideOfPlane;

impl Op for SideOfPlane {
    type Input = (PlaneSpec, Point3<BigRational>);
    type Discrete = Side;
    const FIELDS: &'static [&'static str] = &["plane", "point"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
        let plane = parse_plane(f)?;
        let (v, at) = f.required("point")?;
        Ok((plane, point(v, &at)?))
    }

    fn run<S: Scalar>((plane, p): &Self::Input, _: &Common) -> Result<Outcome<S, Side>, QueryError> {
        let value = plane.eval_scaled(&to_backend::<S>(p));
        let side = Side::from(decided(value.sign())?);
        let mut out = outcome(json!({"side": side_name(side), "value": num(&value.value)}), side);
        out.continuous.push(("value".into(), value.value.clone(), value.magnitude.clone()));
        out.decisive.push(Decisive::Test(value));
        out.decisive.extend(plane.degeneracy());
        Ok(out)
    }

    fn valid_within_tolerance(exact: &Side, fast: &Side) -> bool {
        weakened(exact, fast, &Side::On)
    }
}

/// `transform_points`: points under a pose, or under its inverse.
pub struct TransformPoints;

impl Op for TransformPoints {
    type Input = (PoseSpec, Vec<Point3<BigRational>>, bool);
    type Discrete = ();
    const FIELDS: &'static [&'static str] = &["pose", "points", "inverse"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
        let pose = parse_pose(f.optional("pose"))?;
        let (v, at) = f.required("points")?;
        let pts = points(v, &at, None)?;
        let inverse = match f.optional("inverse") {
            None => false,
            Some((v, at)) => {
                v.as_bool().ok_or_else(|| QueryError::new(Kind::Type, &at, "inverse must be true or false"))?
            }
        };
        Ok((pose, pts, inverse))
    }

    fn run<S: Scalar>((pose, pts, inverse): &Self::Input, _: &Common) -> Result<Outcome<S, ()>, QueryError> {
        let forward = pose.affine::<S>().map_err(|e| QueryError::geom("/pose", e))?;
        let sum = |it: &mut dyn Iterator<Item = S>| it.fold(S::zero(), |a, b| a + b);
        // Error magnitudes: rotation entries are rounded relative to the row's size, and an
        // inverse is amplified by the condition number permanent/|det|.
        let (map, amplification, decisive) = if *inverse {
            let det = Scaled { value: forward.determinant(), magnitude: permanent3(&forward.linear) };
            let inv = forward.inverse().map_err(|e| QueryError::geom("/pose", e))?;
            let cond = det.magnitude.clone() / det.value.abs();
            (inv, cond, vec![Decisive::Test(det)])
        } else {
            (forward.clone(), S::one(), vec![])
        };
        let t_size = if *inverse { sum(&mut forward.translation.iter().map(S::abs)) } else { S::zero() };
        let images: Vec<Point3<S>> = pts.iter().map(|p| map.apply_point(&to_backend(p))).collect();
        let mut out = outcome(json!({"points": images.iter().map(point_json).collect::<Vec<_>>()}), ());
        for (k, (p, image)) in pts.iter().zip(&images).enumerate() {
            let p_size = sum(&mut p.iter().map(|c| S::from_rational(c).abs()));
            for i in 0..3 {
                let row = sum(&mut (0..3).map(|j| map.linear[(i, j)].abs()));
                let magnitude =
                    (row * (p_size.clone() + t_size.clone()) + map.translation[i].abs()) * amplification.clone();
                out.continuous.push((format!("points/{k}/{i}"), image[i].clone(), magnitude));
            }
        }
        out.decisive = decisive;
        Ok(out)
    }

    fn valid_within_tolerance(_: &(), _: &()) -> bool {
        true
    }
}

/// What the closest point of a `squared_distance` query is.
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

/// What the distance is measured to.
#[derive(Clone, Debug)]
pub enum Target {
    /// A point.
    Point(Point3<BigRational>),
    /// A closed segment.
    Segment(Point3<BigRational>, Point3<BigRational>),
    /// A plane.
    Plane(PlaneSpec),
}

/// `squared_distance`: from a point to a point, a segment or a plane.
pub struct SquaredDistance;

impl Op for SquaredDistance {
    type Input = (Point3<BigRational>, Target);
    type Discrete = Closest;
    const FIELDS: &'static [&'static str] = &["point", "to_point", "to_segment", "to_plane"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
        let (v, at) = f.required("point")?;
        let p = point(v, &at)?;
        let given: Vec<&str> =
            ["to_point", "to_segment", "to_plane"].into_iter().filter(|k| f.optional(k).is_some()).collect();
        if given.len() != 1 {
            return Err(QueryError::new(
                if given.is_empty() { Kind::Missing } else { Kind::Type },
                &child(f.path(), "to_point"),
                "give exactly one of to_point, to_segment, to_plane",
            ));
        }
        let target = match given[0] {
            "to_point" => {
                let (v, at) = f.required("to_point")?;
                Target::Point(point(v, &at)?)
            }
            "to_segment" => {
                let (v, at) = f.required("to_segment")?;
                let s = points(v, &at, Some(2))?;
                Target::Segment(s[0].clone(), s[1].clone())
            }
            _ => {
                let (v, at) = f.required("to_plane")?;
                let wrapper: Value = json!({ "plane": v });
                let inner = Fields::of(&wrapper, "", "a plane")?;
                Target::Plane(parse_plane(&inner).map_err(|mut e| {
                    e.at = e.at.replacen("/plane", &at, 1);
                    e
                })?)
            }
        };
        Ok((p, target))
    }

    fn run<S: Scalar>((p, target): &Self::Input, common: &Common) -> Result<Outcome<S, Closest>, QueryError> {
        let p = to_backend::<S>(p);
        let size = |pts: &[&Point3<S>]| {
            pts.iter().fold(S::zero(), |acc, q| acc + q.iter().fold(S::zero(), |a, c| a + c.abs()))
        };
        let (d2, closest, extra, magnitude, decisive) = match target {
            Target::Point(q) => {
                let q = to_backend::<S>(q);
                let m = size(&[&p, &q]);
                (squared_distance_point_point(&p, &q), Closest::Point, None, m.clone() * m, vec![])
            }
            Target::Segment(a, b) => {
                let (a, b) = (to_backend::<S>(a), to_backend::<S>(b));
                let (d2, t) = decided(squared_distance_point_segment(&p, &a, &b))?;
                let (u, w) = (&b - &a, &p - &a);
                let dot = w.dot(&u);
                let first = Scaled { value: dot.clone(), magnitude: dot_magnitude(&w, &u) };
                let mut decisive = vec![];
                let closest = if decided(first.sign())? != Sign::Positive {
                    Closest::SegmentStart
                } else if t == S::one() {
                    Closest::SegmentEnd
                } else {
                    Closest::SegmentInterior
                };
                if closest != Closest::SegmentStart {
                    let len2 = u.dot(&u);
                    decisive.push(Decisive::Test(Scaled {
                        value: dot - len2.clone(),
                        magnitude: first.magnitude.clone() + len2,
                    }));
                }
                decisive.push(Decisive::Test(first));
                let m = size(&[&p, &a, &b]);
                (d2, closest, Some(("parameter", t)), m.clone() * m, decisive)
            }
            Target::Plane(spec) => {
                let plane = spec.plane::<S>()?;
                let d2 = squared_distance_point_plane(&p, &plane).map_err(|e| QueryError::geom("/to_plane", e))?;
                let e = spec.eval_scaled(&p);
                let n2 = plane.normal.dot(&plane.normal);
                let m = e.magnitude.clone() * e.magnitude / n2;
                (d2, Closest::Plane, None, m, spec.degeneracy().into_iter().collect())
            }
        };
        let mut out =
            outcome(json!({"distance_squared": num(&d2), "distance": sqrt_json(&d2, common.digits)}), closest);
        if let Some((name, t)) = extra {
            out.fields.insert(name.into(), num(&t));
        }
        out.continuous.push(("distance_squared".into(), d2, magnitude));
        out.decisive = decisive;
        Ok(out)
    }

    fn valid_within_tolerance(exact: &Closest, fast: &Closest) -> bool {
        let on_segment =
            |c: &Closest| matches!(c, Closest::SegmentStart | Closest::SegmentInterior | Closest::SegmentEnd);
        exact == fast || (on_segment(exact) && on_segment(fast))
    }
}

/// `segment_plane`: where a closed segment meets a plane.
pub struct SegmentPlaneOp;

impl Op for SegmentPlaneOp {
    type Input = (Point3<BigRational>, Point3<BigRational>, PlaneSpec);
    type Discrete = (Side, Side);
    const FIELDS: &'static [&'static str] = &["segment", "plane"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
        let (v, at) = f.required("segment")?;
        let s = points(v, &at, Some(2))?;
        Ok((s[0].clone(), s[1].clone(), parse_plane(f)?))
    }

    fn run<S: Scalar>((p, q, plane): &Self::Input, _: &Common) -> Result<Outcome<S, (Side, Side)>, QueryError> {
        let (ep, eq) = (plane.eval_scaled(&to_backend::<S>(p)), plane.eval_scaled(&to_backend::<S>(q)));
        let sides = (Side::from(decided(ep.sign())?), Side::from(decided(eq.sign())?));
        let t = match sides {
            (Side::On, Side::On) => None,
            (Side::On, _) => Some(S::zero()),
            (_, Side::On) => Some(S::one()),
            (a, b) if a == b => None,
            _ => Some(ep.value.clone() / (ep.value.clone() - eq.value.clone())),
        };
        let kind = match (&sides, &t) {
            ((Side::On, Side::On), _) => "contained",
            (_, Some(_)) => "crosses",
            _ => "disjoint",
        };
        let mut out = outcome(json!({"intersection": kind}), sides);
        if let Some(t) = t {
            out.fields.insert("t".into(), num(&t));
            let denominator = ep.value.abs() + eq.value.abs();
            if denominator.sign() == Ok(Sign::Positive) {
                let magnitude = (ep.magnitude.clone() + eq.magnitude.clone()) / denominator;
                out.continuous.push(("t".into(), t, magnitude));
            }
        }
        out.decisive = vec![Decisive::Test(ep), Decisive::Test(eq)];
        out.decisive.extend(plane.degeneracy());
        Ok(out)
    }

    fn valid_within_tolerance(exact: &(Side, Side), fast: &(Side, Side)) -> bool {
        weakened(&exact.0, &fast.0, &Side::On) && weakened(&exact.1, &fast.1, &Side::On)
    }
}
