//! Kernel ops (extensions of the format; see FORMAT.md): predicates, transforms and squared
//! distances, as JSON.

use crate::json::Out;
use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::poly::RootScalar;
use touchstone::predicates::{Orientation, Side};
use touchstone::query::{
    Orient2d, Orient3d, Orient3dClaim, Orient3dOutput, PlaneSpec, SegmentPlane, SegmentPlaneClaim, SegmentPlaneKind,
    SideOfPlane, SideOfPlaneClaim, SquaredDistance, SquaredDistanceClaim, Target, TransformPoints,
    TransformPointsClaim,
};

use super::{num, point_json, sqrt_json, ClaimField, Context, OpJson};
use crate::encode::{numbers, points_json, Encode};
use crate::error::{Kind, QueryError};
use crate::input::{child, point, points, rational, rationals, string, three_points, Fields, Number};
use crate::pose::parse_pose;

fn object(v: Value) -> Out {
    Out::from(v)
}

/// A claimed name among `names` (each with its value).
pub fn named<T: Copy>(f: &Fields, key: &str, names: &[(&str, T)]) -> Result<Option<T>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    let s = string(v, &at, key)?;
    names.iter().find(|(n, _)| *n == s).map(|&(_, t)| Some(t)).ok_or_else(|| {
        let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
        QueryError::new(Kind::Unknown, &at, format!("unknown {key} {s:?} ({})", all.join(", ")))
    })
}

/// A claimed number (a JSON number or a rational string).
pub fn claimed_number(f: &Fields, key: &str) -> Result<Option<BigRational>, QueryError> {
    f.optional(key).map(|(v, at)| rational(v, &at)).transpose()
}

/// A claimed boolean.
pub fn claimed_bool(f: &Fields, key: &str) -> Result<Option<bool>, QueryError> {
    f.optional(key)
        .map(|(v, at)| {
            v.as_bool().ok_or_else(|| QueryError::new(Kind::Type, &at, format!("{key} must be true or false")))
        })
        .transpose()
}

/// A claimed integer.
pub fn claimed_count(f: &Fields, key: &str) -> Result<Option<i64>, QueryError> {
    f.optional(key)
        .map(|(v, at)| v.as_i64().ok_or_else(|| QueryError::new(Kind::Type, &at, format!("{key} must be an integer"))))
        .transpose()
}

/// Claimed points (`points`), any number.
fn claimed_points(f: &Fields) -> Result<Option<Vec<touchstone::geom::Point3<BigRational>>>, QueryError> {
    f.optional("points").map(|(v, at)| points(v, &at, None)).transpose()
}

const ORIENTATIONS: [(&str, Orientation); 3] =
    [("positive", Orientation::Positive), ("negative", Orientation::Negative), ("coplanar", Orientation::Coplanar)];
const SIDES: [(&str, Side); 3] = [("above", Side::Above), ("on", Side::On), ("below", Side::Below)];

impl<N: Number> OpJson for Orient3d<N> {
    const FIELDS: &'static [&'static str] = &["points"];
    const CLAIM: &'static [ClaimField<Orient3dClaim>] =
        &[claim_field!(orientation: named ORIENTATIONS), claim_field!(determinant: number)];
    const SUMMARY: &'static str = "the orientation of four points";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("points")?;
        let p = points::<N>(v, &at, Some(4))?;
        Ok(Orient3d { points: [p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone()] })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        Ok(render_orientation(out, &ORIENTATIONS))
    }
}

/// An orientation answer (`orient3d`, `orient2d`) with its names.
fn render_orientation<S: RootScalar>(out: &Orient3dOutput<S>, names: &[(&str, Orientation)]) -> Out {
    let name = names.iter().find(|(_, o)| *o == out.orientation).map(|(n, _)| *n).unwrap_or_default();
    let mut m = object(json!({"orientation": name, "determinant": num(&out.determinant)}));
    // The nearest double, when there is one (beyond the binary64 range the field is left
    // out rather than written as null).
    let nearest = out.determinant.to_f64();
    if S::EXACT_VALUES && nearest.is_finite() {
        m.insert("determinant_f64".into(), json!(nearest));
    }
    m
}

const ORIENTATIONS_2D: [(&str, Orientation); 3] =
    [("positive", Orientation::Positive), ("negative", Orientation::Negative), ("collinear", Orientation::Coplanar)];

impl<N: Number> Encode for Orient3d<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        m.push("points", points_json(&self.points));
        m
    }
}

impl<N: Number> OpJson for Orient2d<N> {
    const FIELDS: &'static [&'static str] = &["points"];
    const CLAIM: &'static [ClaimField<Orient3dClaim>] =
        &[claim_field!(orientation: named ORIENTATIONS_2D), claim_field!(determinant: number)];
    const SUMMARY: &'static str = "the orientation of three points in the plane";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("points")?;
        let list = crate::input::array(v, &at, Some(3), "a list of points")?;
        let mut p = Vec::with_capacity(3);
        for (i, v) in list.iter().enumerate() {
            let c = rationals::<N>(v, &crate::input::child(&at, i), 2, "a point [x, y]")?;
            p.push(touchstone::geom::Point2::new(c[0].clone(), c[1].clone()));
        }
        Ok(Orient2d { points: [p[0].clone(), p[1].clone(), p[2].clone()] })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        Ok(render_orientation(out, &ORIENTATIONS_2D))
    }
}

fn parse_plane_value<N: Number>(v: &crate::json::Json, at: &str) -> Result<PlaneSpec<N>, QueryError> {
    let pf = Fields::of(v, at, "a plane")?;
    let (kind, body, bat) = pf.single_key("a plane ({\"points\": ...} or {\"coefficients\": ...})")?;
    match kind {
        "points" => PlaneSpec::points(three_points(body, &bat)?).map_err(|e| e.under(at)),
        "coefficients" => {
            let c = rationals::<N>(body, &bat, 4, "plane coefficients [a, b, c, d]")?;
            PlaneSpec::coefficients([c[0].clone(), c[1].clone(), c[2].clone(), c[3].clone()]).map_err(|e| e.under(at))
        }
        other => {
            Err(QueryError::new(Kind::Unknown, &bat, format!("unknown plane form {other:?} (points, coefficients)")))
        }
    }
}

fn parse_plane<N: Number>(f: &Fields) -> Result<PlaneSpec<N>, QueryError> {
    let (v, at) = f.required("plane")?;
    parse_plane_value(v, &at)
}

impl<N: Number> OpJson for SideOfPlane<N> {
    const FIELDS: &'static [&'static str] = &["plane", "point"];
    const CLAIM: &'static [ClaimField<SideOfPlaneClaim>] =
        &[claim_field!(side: named SIDES), claim_field!(value: number)];
    const SUMMARY: &'static str = "which side of a plane a point lies on";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let plane = parse_plane(f)?;
        let (v, at) = f.required("point")?;
        Ok(SideOfPlane { plane, point: point(v, &at)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let name = SIDES.iter().find(|(_, s)| *s == out.side).map(|(n, _)| *n).unwrap_or_default();
        Ok(object(json!({"side": name, "value": num(&out.value)})))
    }
}

impl<N: Number> Encode for SideOfPlane<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        let plane = match &self.plane {
            PlaneSpec::Points(p) => json!({ "points": points_json(p) }),
            PlaneSpec::Coefficients(c) => {
                json!({ "coefficients": numbers(c.normal.iter().chain(std::iter::once(&c.offset))) })
            }
        };
        m.push("plane", plane);
        m.push("point", numbers(self.point.iter()));
        m
    }
}

impl<N: Number> OpJson for TransformPoints<N> {
    const FIELDS: &'static [&'static str] = &["pose", "points", "inverse"];
    const CLAIM: &'static [ClaimField<TransformPointsClaim>] =
        &[claim_field!(points: custom claimed_points, crate::encode::points_json)];
    const SUMMARY: &'static str = "points under a pose, or under its exact inverse";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let pose = parse_pose(f.optional("pose"))?;
        let (v, at) = f.required("points")?;
        let pts = crate::shape::capped_points(v, &at, ctx)?;
        let inverse = match f.optional("inverse") {
            None => false,
            Some((v, at)) => {
                v.as_bool().ok_or_else(|| QueryError::new(Kind::Type, &at, "inverse must be true or false"))?
            }
        };
        Ok(TransformPoints { pose, points: pts, inverse })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        Ok(object(json!({"points": out.points.iter().map(point_json).collect::<Vec<_>>()})))
    }
}

impl<N: Number> OpJson for SquaredDistance<N> {
    const FIELDS: &'static [&'static str] = &["point", "to_point", "to_segment", "to_plane"];
    const CLAIM: &'static [ClaimField<SquaredDistanceClaim>] =
        &[claim_field!(distance_squared: number), claim_field!(distance: number), claim_field!(parameter: number)];
    const SUMMARY: &'static str = "from a point to a point, a closed segment or a plane";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
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
        let (v, at) = f.required(given[0])?;
        let target = match given[0] {
            "to_point" => Target::Point(point(v, &at)?),
            "to_segment" => {
                let s = points(v, &at, Some(2))?;
                Target::Segment(s[0].clone(), s[1].clone())
            }
            _ => Target::Plane(parse_plane_value(v, &at)?),
        };
        Ok(SquaredDistance { point: p, target })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = object(json!({
            "distance_squared": num(&out.distance_squared),
            "distance": sqrt_json(&out.distance_squared, digits),
        }));
        if let Some(t) = &out.parameter {
            m.insert("parameter".into(), num(t));
        }
        Ok(m)
    }
}

const INTERSECTIONS: [(&str, SegmentPlaneKind); 3] = [
    ("disjoint", SegmentPlaneKind::Disjoint),
    ("contained", SegmentPlaneKind::Contained),
    ("crosses", SegmentPlaneKind::Crosses),
];

impl<N: Number> OpJson for SegmentPlane<N> {
    const FIELDS: &'static [&'static str] = &["segment", "plane"];
    const CLAIM: &'static [ClaimField<SegmentPlaneClaim>] =
        &[claim_field!(intersection: named INTERSECTIONS), claim_field!(t: number)];
    const SUMMARY: &'static str = "where a closed segment meets a plane";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("segment")?;
        let s = points(v, &at, Some(2))?;
        Ok(SegmentPlane { segment: [s[0].clone(), s[1].clone()], plane: parse_plane(f)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let mut m = object(json!({ "intersection": out.intersection.as_str() }));
        if let Some(t) = &out.t {
            m.insert("t".into(), num(t));
        }
        Ok(m)
    }
}
