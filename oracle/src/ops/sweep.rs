//! Continuous-collision ops: `ccd` (linear vertex–face and edge–edge on t ∈ [0, 1]) and
//! `toi_boxes` (boxes under quadratic 4×4 motions).

use crate::json::Out;
use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::geom::Matrix4;
use touchstone::geom::Vector3;
use touchstone::poly::RootScalar;
use touchstone::query::{
    box_feature_id, AtStart, Ccd, CcdClaim, Toi, ToiBoxes, ToiBoxesClaim, ToiClaim, ToiRound, ToiRoundClaim, ToiTorus,
    ToiTorusClaim,
};
use touchstone::sweep::{BoxMotion, CcdKind, ContactKind};

use super::distance::posed_json;
use super::geometry::claimed_number;
use super::{feature_json, name_of, time_json, ClaimField, Context, OpJson};
use crate::encode::{numbers, points_json, vector_json, Encode};
use crate::error::{Kind, QueryError};
use crate::input::{array, child, points, rationals, string, Fields, Number};

/// A claimed time: a number, a rational string, or an output object with `decimal` or `f64`.
pub fn claimed_time(f: &Fields, key: &str) -> Result<Option<BigRational>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    if v.is_object() {
        // The output's own form ({"decimal", "f64", "poly", "interval"}, so an answer can be
        // sent back as a claim): `decimal` is judged, or `f64` alone. With both, they must
        // denote the same binary64 number within an ulp (otherwise one could pass while the
        // other is wrong); `poly` and `interval` are not judged.
        let o = Fields::of(v, &at, "a time")?;
        o.only(&["decimal", "f64", "poly", "interval"])?;
        let decimal = o.optional("decimal").map(|(x, p)| crate::input::rational(x, &p)).transpose()?;
        let float = o.optional("f64").map(|(x, p)| crate::input::rational(x, &p)).transpose()?;
        return match (decimal, float) {
            (Some(d), Some(f)) => {
                use num_traits::ToPrimitive;
                let (d64, f64) = (d.to_f64().unwrap_or(f64::NAN), f.to_f64().unwrap_or(f64::NAN));
                if f64.next_down() <= d64 && d64 <= f64.next_up() {
                    Ok(Some(d))
                } else {
                    Err(QueryError::new(
                        Kind::Invalid,
                        &at,
                        format!("the claimed time's decimal ({d64}) and f64 ({f64}) are different numbers: claim one"),
                    ))
                }
            }
            (Some(x), None) | (None, Some(x)) => Ok(Some(x)),
            (None, None) => Err(QueryError::new(
                Kind::Type,
                &at,
                "a claimed time is a number, a rational string, or an object with \"decimal\" or \"f64\"",
            )),
        };
    }
    claimed_number(f, key)
}

impl<N: Number> OpJson for Ccd<N> {
    const FIELDS: &'static [&'static str] = &["kind", "t0", "t1"];
    const CLAIM: &'static [ClaimField<CcdClaim>] = &[claim_field!(collides: bool), claim_field!(toi: time)];
    const SUMMARY: &'static str = "first contact of a vertex and a triangle, or two edges, moving linearly on [0, 1]";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("kind")?;
        let name = string(v, &at, "kind")?;
        let Some(&(_, kind)) = CCD_KINDS.iter().find(|(n, _)| *n == name) else {
            return Err(QueryError::new(
                Kind::Unknown,
                &at,
                format!("unknown ccd kind {name:?} (vertex_face, edge_edge)"),
            ));
        };
        let four = |key: &str| -> Result<[touchstone::geom::Point3<N>; 4], QueryError> {
            let (v, at) = f.required(key)?;
            let p = points::<N>(v, &at, Some(4))?;
            Ok([p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone()])
        };
        Ok(Ccd { kind, t0: four("t0")?, t1: four("t1")? })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = Out::new();
        m.insert("collides".into(), json!(out.collides));
        if let Some(t) = &out.toi {
            m.insert("toi".into(), time_json::<S>(t, digits)?);
        }
        Ok(m)
    }
}

fn motion<N: Number>(f: &Fields, key: &str) -> Result<[Matrix4<N>; 3], QueryError> {
    let (v, at) = f.required(key)?;
    let ms = array(v, &at, Some(3), "a motion [M0, M1, M2]")?;
    let mut out: Vec<Matrix4<N>> = Vec::with_capacity(3);
    for (i, mv) in ms.iter().enumerate() {
        let mp = child(&at, i);
        let rows = array(mv, &mp, Some(4), "a 4×4 matrix")?;
        let mut m = Matrix4::from_element(N::zero());
        for (r, row) in rows.iter().enumerate() {
            let vals = rationals::<N>(row, &child(&mp, r), 4, "a matrix row")?;
            for (c, x) in vals.into_iter().enumerate() {
                m[(r, c)] = x;
            }
        }
        out.push(m);
    }
    Ok([out[0].clone(), out[1].clone(), out[2].clone()])
}

/// `interval`: `[t0, t1]` with t0 ≤ t1; `[0, 1]` when absent.
fn interval<N: Number>(f: &Fields) -> Result<[N; 2], QueryError> {
    let Some((v, at)) = f.optional("interval") else { return Ok([N::zero(), N::one()]) };
    let t = rationals::<N>(v, &at, 2, "an interval [t0, t1]")?;
    if t[1].compare(&t[0]) == Ok(std::cmp::Ordering::Less) {
        return Err(QueryError::new(Kind::Invalid, &at, "the interval ends before it starts (t1 < t0)"));
    }
    Ok([t[0].clone(), t[1].clone()])
}

const CCD_KINDS: [(&str, CcdKind); 2] = [("vertex_face", CcdKind::VertexFace), ("edge_edge", CcdKind::EdgeEdge)];

const KINDS: [(&str, ContactKind); 3] = [
    ("vertex-face", ContactKind::VertexFace),
    ("face-vertex", ContactKind::FaceVertex),
    ("edge-edge", ContactKind::EdgeEdge),
];
const AT_START: [(&str, AtStart); 2] = [("overlapping", AtStart::Overlapping), ("touching", AtStart::Touching)];

/// `collides`, `toi` and `at_start`: the first fields of `toi_boxes` and `toi` answers.
fn contact_fields<S: RootScalar>(
    collides: bool,
    toi: Option<&S::Time>,
    at_start: Option<AtStart>,
    digits: u32,
) -> Result<Out, QueryError> {
    let mut m = Out::new();
    m.insert("collides".into(), json!(collides));
    if let Some(t) = toi {
        m.insert("toi".into(), time_json::<S>(t, digits)?);
    }
    if let Some(s) = at_start {
        m.insert("at_start".into(), json!(s.as_str()));
    }
    Ok(m)
}

impl<N: Number> OpJson for ToiBoxes<N> {
    const FIELDS: &'static [&'static str] = &["a", "b", "motion_a", "motion_b", "interval"];
    const CLAIM: &'static [ClaimField<ToiBoxesClaim>] = &[
        claim_field!(collides: bool),
        claim_field!(toi: time),
        claim_field!(at_start: named AT_START),
        claim_field!(kind: named KINDS),
        claim_field!(features: features),
    ];
    const SUMMARY: &'static str =
        "first contact of two boxes under quadratic 4×4 motions (Albocher–Sarel), with a touching feature pair";

    fn parse(f: &Fields, _: &Context) -> Result<Self, QueryError> {
        let half = |key: &str| -> Result<[N; 3], QueryError> {
            let (v, at) = f.required(key)?;
            let h = rationals::<N>(v, &at, 3, "box half extents")?;
            for (i, x) in h.iter().enumerate() {
                if x.sign() != Ok(touchstone::scalar::Sign::Positive) {
                    return Err(QueryError::new(Kind::Invalid, &child(&at, i), "a box half extent must be positive"));
                }
            }
            Ok([h[0].clone(), h[1].clone(), h[2].clone()])
        };
        let a = BoxMotion { half: half("a")?, motion: motion(f, "motion_a")? };
        let b = BoxMotion { half: half("b")?, motion: motion(f, "motion_b")? };
        let interval = interval(f)?;
        Ok(ToiBoxes { a, b, interval })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = contact_fields::<S>(out.collides, out.toi.as_ref(), out.at_start, digits)?;
        if let Some(pair) = &out.pair {
            m.insert("kind".into(), json!(pair.kind.as_str()));
            let features = [box_feature_id(&pair.a), box_feature_id(&pair.b)];
            m.insert("features".into(), Value::Array(features.iter().map(feature_json).collect()));
        }
        Ok(m)
    }
}

/// A constant linear velocity: `[x, y, z]`, or `{"linear": [x, y, z]}` (an `angular` part must
/// be zero: rotating shapes are `toi_boxes`' question). Absent: at rest.
fn linear_velocity<N: Number>(f: &Fields, key: &str) -> Result<Vector3<N>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(Vector3::from_element(N::zero())) };
    let three = |x: &crate::json::Json, p: &str| -> Result<Vector3<N>, QueryError> {
        let c = rationals::<N>(x, p, 3, "a velocity [x, y, z]")?;
        Ok(Vector3::new(c[0].clone(), c[1].clone(), c[2].clone()))
    };
    if v.is_array() {
        return three(v, &at);
    }
    let vf = Fields::of(v, &at, "a velocity")?;
    vf.only(&["linear", "angular"])?;
    if let Some((w, p)) = vf.optional("angular") {
        let w = three(w, &p)?;
        if w.iter().any(|c| c.sign() != Ok(touchstone::scalar::Sign::Zero)) {
            return Err(QueryError::new(
                Kind::Unsupported,
                &p,
                "toi answers linear motion only; for rotating boxes use toi_boxes",
            ));
        }
    }
    match vf.optional("linear") {
        Some((x, p)) => three(x, &p),
        None => Ok(Vector3::from_element(N::zero())),
    }
}

impl<N: Number> OpJson for Toi<N> {
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b", "velocity_a", "velocity_b", "interval"];
    const CLAIM: &'static [ClaimField<ToiClaim>] = &[
        claim_field!(collides: bool),
        claim_field!(toi: time),
        claim_field!(at_start: named AT_START),
        claim_field!(features: features),
    ];
    const SUMMARY: &'static str =
        "first contact under constant linear velocities: two convex shapes (exact rational time, a touching pair); round shapes (an algebraic time of degree ≤ 2); a torus (a certified enclosure)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let interval = interval(f)?;
        Ok(Toi {
            a: super::distance::posed(f, "a", "pose_a", ctx)?,
            b: super::distance::posed(f, "b", "pose_b", ctx)?,
            velocity_a: linear_velocity(f, "velocity_a")?,
            velocity_b: linear_velocity(f, "velocity_b")?,
            interval,
        })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = contact_fields::<S>(out.collides, out.toi.as_ref(), out.at_start, digits)?;
        if let Some(f) = &out.features {
            m.insert("features".into(), Value::Array(f.iter().map(feature_json).collect()));
        }
        Ok(m)
    }
}

impl<N: Number> OpJson for ToiRound<N> {
    const FIELDS: &'static [&'static str] = <Toi<N> as OpJson>::FIELDS;
    const CLAIM: &'static [ClaimField<ToiRoundClaim>] = &[
        claim_field!(collides: bool),
        claim_field!(toi: time),
        claim_field!(at_start: named AT_START),
        claim_field!(features: custom parse_round_features, |p: &[Option<touchstone::query::FeatureId>; 2]| {
            let name = |f: &Option<touchstone::query::FeatureId>| f.as_ref().map_or(json!("center"), feature_json);
            json!([name(&p[0]), name(&p[1])])
        }),
    ];
    const SUMMARY: &'static str =
        "first contact of round shapes (balls, capsules, rounded convex shapes) under constant linear velocities (exact algebraic time)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(ToiRound(Toi::parse(f, ctx)?))
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = contact_fields::<S>(out.collides, out.toi.as_ref(), out.at_start, digits)?;
        if let Some(f) = &out.features {
            // No feature: a ball's centre.
            let name = |f: &Option<touchstone::query::FeatureId>| f.as_ref().map_or(json!("center"), feature_json);
            m.insert("features".into(), json!([name(&f[0]), name(&f[1])]));
        }
        Ok(m)
    }
}

/// A round `toi`'s claimed `features`: two core features, `"center"` for a ball's centre.
fn parse_round_features(f: &Fields) -> Result<Option<[Option<touchstone::query::FeatureId>; 2]>, QueryError> {
    let Some((v, at)) = f.optional("features") else { return Ok(None) };
    let pair = crate::input::array(v, &at, Some(2), "a feature pair [Fa, Fb]")?;
    let one = |k: usize| -> Result<Option<touchstone::query::FeatureId>, QueryError> {
        if pair[k].as_str() == Some("center") {
            return Ok(None);
        }
        super::parse_feature(&pair[k], &crate::input::child(&at, k)).map(Some)
    };
    Ok(Some([one(0)?, one(1)?]))
}

impl<N: Number> OpJson for ToiTorus<N> {
    const FIELDS: &'static [&'static str] = <Toi<N> as OpJson>::FIELDS;
    const CLAIM: &'static [ClaimField<ToiTorusClaim>] = &[claim_field!(collides: bool), claim_field!(toi: time)];
    const SUMMARY: &'static str =
        "first contact of a torus and a ball, capsule or torus under constant linear velocities (a certified enclosure of width 10^-digits)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        // The enclosure's width is 10^−digits (the line's `digits`, 20 by default).
        let digits = match f.optional("digits") {
            Some((v, at)) => crate::input::index(v, &at, super::MAX_DIGITS + 1, "digits")?.max(1),
            None => 20,
        };
        let width = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), digits));
        Ok(ToiTorus { toi: Toi::parse(f, ctx)?, width })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, digits: u32) -> Result<Out, QueryError> {
        let mut m = Out::new();
        m.push("collides", json!(out.collides));
        if let Some([lo, hi]) = &out.interval {
            let exact = S::EXACT_VALUES;
            let text = |x: &S| match x.to_rational() {
                Some(q) if exact => json!(touchstone::scalar::decimal_of_rational(&q, digits)),
                _ => json!(x.to_f64()),
            };
            m.push("toi", text(lo));
            let end = |x: &S| match x.to_rational() {
                Some(q) if exact => json!(q.to_string()),
                _ => json!(x.to_f64()),
            };
            m.push("toi_interval", json!([end(lo), end(hi)]));
            if out.at_start {
                m.push("at_start", json!("meeting"));
            }
        }
        m.push("steps", json!(out.steps));
        Ok(m)
    }
}

impl<N: Number> Encode for ToiTorus<N> {
    fn encode(&self) -> Out {
        self.toi.encode()
    }
}

impl<N: Number> Encode for Ccd<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        m.push("kind", json!(name_of(&CCD_KINDS, self.kind)));
        m.push("t0", points_json(&self.t0));
        m.push("t1", points_json(&self.t1));
        m
    }
}

/// A motion: `[M0, M1, M2]`, each 4×4 by rows.
fn motion_json<N: Number>(motion: &[Matrix4<N>; 3]) -> Value {
    let matrix = |m: &Matrix4<N>| Value::Array((0..4).map(|r| numbers(m.row(r).iter())).collect());
    Value::Array(motion.iter().map(matrix).collect())
}

impl<N: Number> Encode for ToiBoxes<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        m.push("a", numbers(&self.a.half));
        m.push("b", numbers(&self.b.half));
        m.push("motion_a", motion_json(&self.a.motion));
        m.push("motion_b", motion_json(&self.b.motion));
        m.push("interval", numbers(&self.interval));
        m
    }
}

impl<N: Number> Encode for ToiRound<N> {
    fn encode(&self) -> Out {
        self.0.encode()
    }
}

impl<N: Number> Encode for Toi<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        let moving = |v: &Vector3<N>| v.iter().any(|c| c.sign() != Ok(touchstone::scalar::Sign::Zero));
        if moving(&self.velocity_a) {
            m.push("velocity_a", vector_json(&self.velocity_a));
        }
        if moving(&self.velocity_b) {
            m.push("velocity_b", vector_json(&self.velocity_b));
        }
        m.push("interval", numbers(&self.interval));
        m
    }
}
