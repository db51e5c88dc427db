//! Continuous-collision ops: `ccd` (linear vertex–face and edge–edge on t ∈ [0, 1]) and
//! `toi_boxes` (boxes under quadratic 4×4 motions).

use num_rational::BigRational;
use serde_json::{json, Map, Value};
use touchstone::geom::Matrix4;
use touchstone::poly::RootScalar;
use touchstone::query::{Ccd, CcdClaim};
use touchstone::scalar::Scalar;
use touchstone::sweep::{first_contact_bms, first_contact_sat, BoxFeature, BoxMotion, CcdKind, SatAxis, SweepError};

use super::geometry::claimed_number;
use super::{algebraic_json, time_json, Common, Context, OpJson};
use crate::error::{error_json, Kind, QueryError};
use crate::input::{array, child, points, rationals, string, Fields};

/// A claimed time: a number, a rational string, or an output object with `decimal` or `f64`.
pub fn claimed_time(f: &Fields, key: &str) -> Result<Option<BigRational>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    if let Value::Object(_) = v {
        let o = Fields::of(v, &at, "a time")?;
        for k in ["decimal", "f64"] {
            if let Some((x, p)) = o.optional(k) {
                return crate::input::rational(x, &p).map(Some);
            }
        }
        return Err(QueryError::new(
            Kind::Type,
            &at,
            "a claimed time is a number, a rational string, or {\"decimal\": ...}",
        ));
    }
    claimed_number(f, key)
}

impl OpJson for Ccd {
    const FIELDS: &'static [&'static str] = &["kind", "t0", "t1"];
    const CLAIM_FIELDS: &'static [&'static str] = &["collides", "toi"];
    const SUMMARY: &'static str = "first contact of a vertex and a triangle, or two edges, moving linearly on [0, 1]";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("kind")?;
        let kind = match string(v, &at, "kind")? {
            "vertex_face" => CcdKind::VertexFace,
            "edge_edge" => CcdKind::EdgeEdge,
            other => {
                return Err(QueryError::new(
                    Kind::Unknown,
                    &at,
                    format!("unknown ccd kind {other:?} (vertex_face, edge_edge)"),
                ))
            }
        };
        let four = |key: &str| -> Result<[touchstone::geom::Point3<BigRational>; 4], QueryError> {
            let (v, at) = f.required(key)?;
            let p = points(v, &at, Some(4))?;
            Ok([p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone()])
        };
        Ok(Ccd { kind, t0: four("t0")?, t1: four("t1")? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Map<String, Value>, QueryError> {
        let mut m = Map::new();
        m.insert("collides".into(), json!(out.collides));
        if let Some(t) = &out.toi {
            m.insert("toi".into(), time_json::<S>(t, digits)?);
        }
        Ok(m)
    }

    fn parse_claim(f: &Fields) -> Result<CcdClaim, QueryError> {
        let collides = f
            .optional("collides")
            .map(|(v, at)| {
                v.as_bool().ok_or_else(|| QueryError::new(Kind::Type, &at, "collides must be true or false"))
            })
            .transpose()?;
        Ok(CcdClaim { collides, toi: claimed_time(f, "toi")? })
    }
}

fn sweep_error(e: SweepError) -> QueryError {
    QueryError::sweep(e)
}

type ToiInput = (BoxMotion, BoxMotion, BigRational, BigRational);

fn motion(f: &Fields, key: &str) -> Result<[Matrix4<BigRational>; 3], QueryError> {
    let (v, at) = f.required(key)?;
    let ms = array(v, &at, Some(3), "a motion [M0, M1, M2]")?;
    let mut out: Vec<Matrix4<BigRational>> = Vec::with_capacity(3);
    for (i, mv) in ms.iter().enumerate() {
        let mp = child(&at, i);
        let rows = array(mv, &mp, Some(4), "a 4×4 matrix")?;
        let mut m = Matrix4::from_element(BigRational::default());
        for (r, row) in rows.iter().enumerate() {
            let vals = rationals(row, &child(&mp, r), 4, "a matrix row")?;
            for (c, x) in vals.into_iter().enumerate() {
                m[(r, c)] = x;
            }
        }
        out.push(m);
    }
    Ok([out[0].clone(), out[1].clone(), out[2].clone()])
}

/// A box feature in the format's form: `{"vertex": i}`, `{"edge": [i, j]}`, `{"face": [...]}`.
fn feature_json(f: &BoxFeature) -> Value {
    match f {
        BoxFeature::Vertex(v) => json!({ "vertex": v }),
        BoxFeature::Edge(e) => json!({ "edge": e }),
        BoxFeature::Face(f) => json!({ "face": f }),
    }
}

/// The input fields of `toi_boxes`.
pub const TOI_BOXES_FIELDS: &[&str] = &["a", "b", "motion_a", "motion_b", "interval"];

fn toi_parse(f: &Fields) -> Result<ToiInput, QueryError> {
    let half = |key: &str| -> Result<[BigRational; 3], QueryError> {
        let (v, at) = f.required(key)?;
        let h = rationals(v, &at, 3, "box half extents")?;
        for (i, x) in h.iter().enumerate() {
            if x <= &BigRational::default() {
                return Err(QueryError::new(Kind::Invalid, &child(&at, i), "a box half extent must be positive"));
            }
        }
        Ok([h[0].clone(), h[1].clone(), h[2].clone()])
    };
    let a = BoxMotion { half: half("a")?, motion: motion(f, "motion_a")? };
    let b = BoxMotion { half: half("b")?, motion: motion(f, "motion_b")? };
    let (t0, t1) = match f.optional("interval") {
        None => (BigRational::from_integer(0.into()), BigRational::from_integer(1.into())),
        Some((v, at)) => {
            let t = rationals(v, &at, 2, "an interval [t0, t1]")?;
            if t[1] < t[0] {
                return Err(QueryError::new(Kind::Invalid, &at, "the interval ends before it starts (t1 < t0)"));
            }
            (t[0].clone(), t[1].clone())
        }
    };
    Ok((a, b, t0, t1))
}

fn toi_exact((a, b, t0, t1): &ToiInput, digits: u32) -> Result<Map<String, Value>, QueryError> {
    let contact = first_contact_bms(a, b, t0, t1).map_err(sweep_error)?;
    let mut fields = Map::new();
    fields.insert("collides".into(), json!(contact.is_some()));
    if let Some(c) = &contact {
        fields.insert("toi".into(), algebraic_json(&c.time, digits)?);
        if c.time.to_rational().as_ref() == Some(t0) {
            fields.insert("at_start".into(), json!(if c.overlapping_at_start { "overlapping" } else { "touching" }));
        }
        if let Some(pair) = &c.contact {
            fields.insert("kind".into(), json!(pair.kind.as_str()));
            fields.insert("features".into(), json!([feature_json(&pair.a), feature_json(&pair.b)]));
        }
    }
    Ok(fields)
}

fn toi_f64((a, b, t0, t1): &ToiInput) -> Result<Map<String, Value>, QueryError> {
    // The f64 path: the separating-axis code over binary64 (float roots, the tolerance
    // policy); the deciding axis gives the kind, there are no features.
    let (fa, fb) = (a.to_f64(), b.to_f64());
    let (f0, f1) = (t0.to_f64(), t1.to_f64());
    let contact = first_contact_sat::<f64>(&fa, &fb, &f0, &f1).map_err(sweep_error)?;
    let mut fields = Map::new();
    fields.insert("collides".into(), json!(contact.is_some()));
    if let Some(c) = &contact {
        fields.insert("toi".into(), json!({ "f64": c.time }));
        if c.axis.is_none() {
            fields.insert("at_start".into(), json!(if c.overlapping_at_start { "overlapping" } else { "touching" }));
        }
        if let Some(axis) = c.axis {
            let kind = match axis {
                SatAxis::FaceOfA(_) => "face-vertex",
                SatAxis::FaceOfB(_) => "vertex-face",
                SatAxis::EdgeEdge(..) => "edge-edge",
            };
            fields.insert("kind".into(), json!(kind));
        }
    }
    Ok(fields)
}

/// `toi_boxes`: the exact first time of contact of two boxes under quadratic 4×4 motions, by the
/// box sweep of Albocher–Sarel, with a touching feature pair; `f64` by the separating-axis code.
pub fn toi_boxes(f: &Fields, common: &Common) -> Result<Map<String, Value>, QueryError> {
    let allowed: Vec<&str> = super::COMMON_FIELDS.iter().chain(TOI_BOXES_FIELDS).copied().collect();
    f.only(&allowed)?;
    let input = toi_parse(f)?;
    if let Some((_, at)) = f.optional("claim") {
        return Err(QueryError::new(
            Kind::Unsupported,
            &at,
            "claims on toi_boxes are not supported by this version yet",
        ));
    }
    match common.backend {
        super::Backend::F64 => toi_f64(&input),
        super::Backend::Exact | super::Backend::ExactUnfiltered => toi_exact(&input, common.digits),
        super::Backend::Both => {
            let mut fields = toi_exact(&input, common.digits)?;
            let fast = toi_f64(&input);
            let (a, b, t0, t1) = &input;
            let agreement = match touchstone::sweep::contract::check_sweep_agreement(
                &a.to_f64(),
                &b.to_f64(),
                t0.to_f64(),
                t1.to_f64(),
            ) {
                Ok(x) => json!({"agree": true, "strict": x == touchstone::contract::Agreement::Strict}),
                Err(d) => json!({"agree": false, "reason": d.to_string()}),
            };
            let fast = match fast {
                Ok(o) => Value::Object(o),
                Err(e) => json!({ "error": error_json(&e) }),
            };
            fields.insert("f64".into(), fast);
            fields.insert("agreement".into(), agreement);
            Ok(fields)
        }
    }
}
