//! `distance`: closest features and the exact distance between two convex shapes.

use crate::json::Out;
use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::geom::Point3;
use touchstone::poly::RootScalar;
use touchstone::poly::TimeOutput;
use touchstone::query::{
    ClassifyPoint, ClassifyPointClaim, CurvedKind, Distance, DistanceClaim, DistanceCurved, DistanceCurvedClaim,
    DistanceCylinder, DistanceCylinderClaim, DistanceRound, DistanceRoundClaim, DistanceTorus, DistanceTorusClaim,
    FeatureId, PointClass, Posed, TorusFeature,
};
use touchstone::vclip::Status;

use super::{feature_json, num, point_json, sqrt_json, ClaimField, Context, OpJson};
use crate::encode::{points_json, pose_json, shape_json, Encode};
use crate::error::QueryError;
use crate::input::{child, points, Fields, Number};
use crate::pose::parse_pose;
use crate::shape::parse_shape;

const STATUSES: [(&str, Status); 3] =
    [("separated", Status::Separated), ("touching", Status::Touching), ("penetrating", Status::Penetrating)];

/// Parse shape `key` and its pose `pose_key`.
pub fn posed<N: Number>(f: &Fields, key: &str, pose_key: &str, ctx: &Context) -> Result<Posed<N>, QueryError> {
    let (v, at) = f.required(key)?;
    let shape = parse_shape(v, &at, ctx)?;
    let pose = parse_pose(f.optional(pose_key))?;
    Ok(Posed { shape, pose, at: at.into(), pose_at: child(f.path(), pose_key).into() })
}

impl<N: Number> OpJson for Distance<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b"];
    const CLAIM: &'static [ClaimField<DistanceClaim>] = &[
        claim_field!(status: named STATUSES),
        claim_field!(intersecting: bool),
        claim_field!(distance_squared: number),
        claim_field!(distance: number),
        claim_field!(features: features),
        claim_field!(points: custom claimed_pair, points_json),
        claim_field!(depth_squared: number),
    ];
    const SUMMARY: &'static str = "status, exact distance, closest features and points of two convex shapes (V-Clip); of round shapes and tori, exactly (see FORMAT)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(Distance { a: posed(f, "a", "pose_a", ctx)?, b: posed(f, "b", "pose_b", ctx)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let status = STATUSES.iter().find(|(_, s)| *s == out.status).map(|(n, _)| *n).unwrap_or_default();
        let mut m = Out::new();
        m.push("status", json!(status));
        m.push("distance_squared", num(&out.distance_squared));
        m.push("distance", sqrt_json(&out.distance_squared, digits));
        m.push("features", Value::Array(out.features.iter().map(feature_json).collect()));
        m.push("points", Value::Array(vec![point_json(&out.points[0]), point_json(&out.points[1])]));
        m.push("steps", json!(out.steps));
        Ok(m)
    }
}

impl<N: Number> OpJson for DistanceRound<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b"];
    const CLAIM: &'static [ClaimField<DistanceRoundClaim>] = &[
        claim_field!(status: named STATUSES),
        claim_field!(intersecting: bool),
        claim_field!(distance: number),
        claim_field!(distance_squared: number),
        claim_field!(points: custom claimed_pair, points_json),
        claim_field!(depth_squared: number),
    ];
    const SUMMARY: &'static str =
        "status, exact (algebraic) distance, core features and points of round shapes (balls, capsules, rounded convex shapes)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(DistanceRound { a: posed(f, "a", "pose_a", ctx)?, b: posed(f, "b", "pose_b", ctx)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = Out::new();
        m.push("status", json!(super::name_of(&STATUSES, out.status)));
        m.push("distance", decimal_json::<S>(&out.distance, digits)?);
        m.push("distance_squared", value_json::<S>(&out.distance_squared, digits)?);
        m.push("cores_distance_squared", num(&out.cores_distance_squared));
        // No feature: a ball's centre, or the inside of a polytope core.
        let feature = |f: &Option<FeatureId>, p: &Posed<N>| match f {
            Some(f) => feature_json(f),
            None if matches!(p.shape, touchstone::query::ShapeSpec::Ball(_)) => json!("center"),
            None => json!("inside"),
        };
        m.push("features", json!([feature(&out.features[0], &self.a), feature(&out.features[1], &self.b)]));
        let point = |p: &[S::Time; 3]| -> Result<Value, QueryError> {
            Ok(Value::Array(p.iter().map(|x| coordinate_json::<S>(x, digits)).collect::<Result<_, _>>()?))
        };
        m.push("points", Value::Array(vec![point(&out.points[0])?, point(&out.points[1])?]));
        Ok(m)
    }
}

impl<N: Number> OpJson for DistanceTorus<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b"];
    const CLAIM: &'static [ClaimField<DistanceTorusClaim>] = &[
        claim_field!(status: named STATUSES),
        claim_field!(intersecting: bool),
        claim_field!(distance: number),
        claim_field!(points: custom claimed_pair, points_json),
    ];
    const SUMMARY: &'static str =
        "status, distance, depth and the cores' closest points of a torus against a ball, a capsule or a torus (exact, to any digits)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(DistanceTorus { a: posed(f, "a", "pose_a", ctx)?, b: posed(f, "b", "pose_b", ctx)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        use touchstone::round::torus::{describe, TorusValue};
        let mut m = Out::new();
        m.push("status", json!(super::name_of(&STATUSES, out.status)));
        let feature = |f: &TorusFeature| match f {
            TorusFeature::Circle => json!("circle"),
            TorusFeature::Center => json!("center"),
            TorusFeature::Capsule(id) => feature_json(id),
        };
        match &out.exact {
            Some(e) => {
                let limit = |x| QueryError::poly("/digits", x);
                m.push("distance", json!(e.decimal(TorusValue::Distance, digits).map_err(limit)?));
                m.push("cores_distance_squared", json!(e.decimal(TorusValue::CoresSquared, digits).map_err(limit)?));
                if out.status == Status::Penetrating {
                    m.push("depth", json!(e.decimal(TorusValue::Depth, digits).map_err(limit)?));
                }
                m.push("features", json!([feature(&out.features[0]), feature(&out.features[1])]));
                let [c, k] = e.points(digits).map_err(limit)?;
                let pts = if out.swapped { [k, c] } else { [c, k] };
                m.push("core_points", json!(pts));
                let [rc, rk] = &out.surface_radii;
                let (rc, rk) = (rc.to_rational().unwrap_or_default(), rk.to_rational().unwrap_or_default());
                let [c, k] = e.surface_points(&rc, &rk, digits).map_err(limit)?;
                m.push("points", json!(if out.swapped { [k, c] } else { [c, k] }));
                let d = e.distance();
                let best = &d.candidates[d.best];
                let (poly, [lo, hi]) = describe(&best.u);
                m.push(
                    "description",
                    json!({
                        "stationary": d.polynomial.to_string(),
                        "parameter": { "poly": poly, "interval": [lo.to_string(), hi.to_string()] },
                        "sheet": best.sheet,
                    }),
                );
            }
            None => {
                let c = out.cores_distance_squared.to_f64().max(0.0);
                let rho = out.radii.to_f64();
                m.push("distance", json!((c.sqrt() - rho).max(0.0)));
                m.push("cores_distance_squared", json!(c));
                if out.status == Status::Penetrating {
                    m.push("depth", json!(rho - c.sqrt()));
                }
                m.push("features", json!([feature(&out.features[0]), feature(&out.features[1])]));
                m.push("core_points", json!(out.core_points));
                m.push("points", json!(out.points));
            }
        }
        Ok(m)
    }
}

impl<N: Number> OpJson for DistanceCylinder<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b"];
    const CLAIM: &'static [ClaimField<DistanceCylinderClaim>] = &[
        claim_field!(status: named STATUSES),
        claim_field!(intersecting: bool),
        claim_field!(distance: number),
        claim_field!(points: custom claimed_pair, points_json),
    ];
    const SUMMARY: &'static str =
        "status, distance, depth and closest points of a cylinder and a ball (exact, to any digits)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(DistanceCylinder { a: posed(f, "a", "pose_a", ctx)?, b: posed(f, "b", "pose_b", ctx)? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        use touchstone::round::cylinder::CylinderValue;
        let mut m = Out::new();
        m.push("status", json!(super::name_of(&STATUSES, out.status)));
        let cylinder = json!(touchstone::query::cylinder_feature_name(out.feature));
        let features = if out.swapped { json!(["center", cylinder]) } else { json!([cylinder, "center"]) };
        match &out.exact {
            Some(e) => {
                let limit = |x| QueryError::poly("/digits", x);
                m.push("distance", json!(e.decimal(CylinderValue::Distance, digits).map_err(limit)?));
                m.push(
                    "center_distance_squared",
                    json!(e.decimal(CylinderValue::CentreSquared, digits).map_err(limit)?),
                );
                if out.status == Status::Penetrating {
                    m.push("depth", json!(e.decimal(CylinderValue::Depth, digits).map_err(limit)?));
                }
                m.push("features", features);
                let [c, b] = e.points(digits).map_err(limit)?;
                m.push("points", json!(if out.swapped { [b, c] } else { [c, b] }));
                let w = &e.distance().point.squared;
                m.push(
                    "description",
                    json!({ "center_distance_squared": { "a": w.a.to_string(), "b": w.b.to_string(), "m": w.m.to_string() } }),
                );
            }
            None => {
                m.push("distance", json!(out.distance));
                m.push("center_distance_squared", json!(out.centre_distance_squared.to_f64()));
                if out.status == Status::Penetrating {
                    m.push("depth", json!(-out.signed_distance));
                }
                m.push("features", features);
                m.push("points", json!(out.points));
            }
        }
        Ok(m)
    }
}

const CURVED_STATUSES: [(&str, CurvedKind); 3] = [
    ("separated", CurvedKind::Separated),
    ("touching", CurvedKind::Touching),
    ("penetrating", CurvedKind::Penetrating),
];

/// An exact point as strings.
fn rational_point_json(p: &[BigRational; 3]) -> Value {
    Value::Array(p.iter().map(|x| json!(x.to_string())).collect())
}

impl<N: Number> OpJson for DistanceCurved<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b", "precision"];
    const CLAIM: &'static [ClaimField<DistanceCurvedClaim>] = &[
        claim_field!(status: named CURVED_STATUSES),
        claim_field!(intersecting: bool),
        claim_field!(distance: number),
    ];
    const SUMMARY: &'static str =
        "a certified status of curved (implicit) solids: a witness, distance bounds or the contact point";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let mut q = DistanceCurved::new(posed(f, "a", "pose_a", ctx)?, posed(f, "b", "pose_b", ctx)?);
        if let Some((v, at)) = f.optional("precision") {
            let p = crate::input::rational(v, &at)?;
            if p <= BigRational::from_integer(0.into()) || p > BigRational::new(1.into(), 16.into()) {
                return Err(QueryError::new(crate::error::Kind::Invalid, &at, "precision must be in (0, 1/16]"));
            }
            q.precision = p;
        }
        Ok(q)
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        use touchstone::curved::CurvedStatus;
        let mut m = Out::new();
        m.push("status", json!(CurvedKind::of(&out.status).name()));
        let (lo, hi) = out.squared_bounds();
        let (l, h) = touchstone::query::distance_bounds(&lo, hi.as_ref(), digits.clamp(1, 40));
        m.push("distance_bounds", json!([l, h]));
        match &out.status {
            CurvedStatus::Penetrating { witness } => m.push("witness", rational_point_json(witness)),
            CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } => {
                m.push(
                    "distance_squared_bounds",
                    json!([gap_squared_lower.to_string(), gap_squared_upper.as_ref().map(|u| u.to_string())]),
                );
            }
            CurvedStatus::Touching { point, normal, multiplier } => {
                m.push("certificate", json!("exact"));
                m.push("point", rational_point_json(point));
                m.push("normal", rational_point_json(normal));
                m.push("multiplier", json!(multiplier.to_string()));
            }
            CurvedStatus::Tangent { point, value, cell, .. } => {
                let boxed = |b: &[[BigRational; 2]; 3]| {
                    Value::Array(b.iter().map(|[lo, hi]| json!([lo.to_string(), hi.to_string()])).collect())
                };
                m.push("certificate", json!("tangency"));
                m.push("point_box", boxed(point));
                m.push("value", json!([value[0].to_string(), value[1].to_string()]));
                m.push("cell", boxed(cell));
            }
            CurvedStatus::Undecided { reason, unresolved } => {
                m.push("reason", json!(reason));
                m.push("unresolved", json!(unresolved));
            }
        }
        m.push("precision_bits", json!(out.precision_bits));
        Ok(m)
    }
}

impl<N: Number> Encode for DistanceCurved<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        if self.precision != touchstone::query::default_precision() {
            m.push("precision", json!(self.precision.to_string()));
        }
        m
    }
}

impl<N: Number> Encode for DistanceCylinder<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        m
    }
}

impl<N: Number> Encode for DistanceTorus<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        m
    }
}

/// An algebraic value as a decimal with `digits` correct digits (exact backends), or a number.
fn decimal_json<S: RootScalar>(t: &S::Time, digits: u32) -> Result<Value, QueryError> {
    match S::time_output(t) {
        TimeOutput::Exact(a) => Ok(json!(a.to_decimal(digits).map_err(|e| QueryError::poly("/digits", e))?)),
        TimeOutput::Float(x) => Ok(json!(x)),
    }
}

/// An algebraic value: an exact string when rational, else `{"decimal", "poly", "interval",
/// "f64"}` (exact backends); a number on `f64`.
fn value_json<S: RootScalar>(t: &S::Time, digits: u32) -> Result<Value, QueryError> {
    match S::time_output(t) {
        TimeOutput::Exact(a) => match a.to_rational() {
            Some(q) => Ok(json!(q.to_string())),
            None => super::algebraic_json(&a, digits),
        },
        TimeOutput::Float(x) => Ok(json!(x)),
    }
}

/// A coordinate: an exact string when rational, else a decimal with `digits` correct digits
/// (exact backends); a number on `f64`.
fn coordinate_json<S: RootScalar>(t: &S::Time, digits: u32) -> Result<Value, QueryError> {
    match S::time_output(t) {
        TimeOutput::Exact(a) => match a.to_rational() {
            Some(q) => Ok(json!(q.to_string())),
            None => Ok(json!(a.to_decimal(digits).map_err(|e| QueryError::poly("/digits", e))?)),
        },
        TimeOutput::Float(x) => Ok(json!(x)),
    }
}

impl<N: Number> Encode for DistanceRound<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        m
    }
}

impl<N: Number> Encode for Distance<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        m
    }
}

/// A claimed pair of points (`points`).
fn claimed_pair(f: &Fields) -> Result<Option<[Point3<BigRational>; 2]>, QueryError> {
    let Some((v, at)) = f.optional("points") else { return Ok(None) };
    let p = points::<BigRational>(v, &at, Some(2))?;
    Ok(Some([p[0].clone(), p[1].clone()]))
}

/// A claimed feature (`feature`).
fn claimed_feature(f: &Fields) -> Result<Option<FeatureId>, QueryError> {
    f.optional("feature").map(|(v, at)| super::parse_feature(v, &at)).transpose()
}

/// A posed shape's fields: the shape at `key`, its pose at `pose_key` (always written).
pub(super) fn posed_json<N: Number>(m: &mut Out, p: &Posed<N>, key: &'static str, pose_key: &'static str) {
    m.push(key, shape_json(&p.shape));
    m.push(pose_key, pose_json(&p.pose));
}

impl<N: Number> Encode for ClassifyPoint<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.solid, "solid", "pose");
        m.push("point", crate::encode::numbers(self.point.iter()));
        m
    }
}

pub(super) const CLASSES: [(&str, PointClass); 3] =
    [("inside", PointClass::Inside), ("outside", PointClass::Outside), ("boundary", PointClass::Boundary)];

impl<N: Number> OpJson for ClassifyPoint<N> {
    const FIELDS: &'static [&'static str] = &["solid", "pose", "point"];
    const CLAIM: &'static [ClaimField<ClassifyPointClaim>] = &[
        claim_field!(class: named CLASSES),
        claim_field!(contains: bool),
        claim_field!(feature: custom claimed_feature, feature_json),
    ];
    const SUMMARY: &'static str =
        "inside, outside or boundary of a solid, with the feature (convex: face planes; others: the Brep-index)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("point")?;
        let point = crate::input::point::<N>(v, &at)?;
        Ok(ClassifyPoint { solid: posed(f, "solid", "pose", ctx)?, point })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let mut m = Out::new();
        m.push("class", json!(out.class.name()));
        if let Some(f) = &out.feature {
            m.push("feature", feature_json(f));
        }
        m.push("dots", json!(out.dots));
        Ok(m)
    }
}
