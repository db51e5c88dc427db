//! Continuous-collision ops: `ccd` (linear vertex–face and edge–edge on t ∈ [0, 1]).

use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::geom::Matrix4;
use touchstone::geom::Point3;
use touchstone::poly::{order, Algebraic, PolyError, RootScalar};
use touchstone::scalar::Scalar;
use touchstone::sweep::{ccd, first_contact_bms, BoxFeature, BoxMotion, CcdKind, SweepError};

use super::{Common, Context, Op, Outcome};
use crate::error::{Kind, QueryError};
use crate::input::{array, child, points, rationals, string, Fields};

/// An algebraic time as output: `{"decimal", "poly", "interval", "f64"}` (`poly` the
/// coefficients of a square-free polynomial with exactly one root in `interval`, constant
/// first; `interval` narrower than 10^-digits; a rational time has the point interval
/// `[t, t]`).
pub fn algebraic_json(t: &Algebraic, digits: u32) -> Result<Value, QueryError> {
    let internal = |e: PolyError| QueryError::new(Kind::Limit, "/digits", e.to_string());
    let mut t = t.clone();
    let width = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), digits as usize));
    t.refine(&width).map_err(internal)?;
    let coeffs: Vec<Value> = t.polynomial().coeffs().iter().map(|c| json!(c.to_string())).collect();
    Ok(json!({
        "decimal": t.to_decimal(digits).map_err(internal)?,
        "poly": coeffs,
        "interval": [t.interval().lo().to_string(), t.interval().hi().to_string()],
        "f64": t.to_f64(),
    }))
}

/// `ccd`: the exact first time of contact of two linearly moving primitives.
pub struct CcdOp;

impl Op for CcdOp {
    type Input = (CcdKind, [Point3<BigRational>; 4], [Point3<BigRational>; 4]);
    type Discrete = bool;
    const FIELDS: &'static [&'static str] = &["kind", "t0", "t1"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
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
        let four = |key: &str| -> Result<[Point3<BigRational>; 4], QueryError> {
            let (v, at) = f.required(key)?;
            let p = points(v, &at, Some(4))?;
            Ok([p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone()])
        };
        Ok((kind, four("t0")?, four("t1")?))
    }

    fn run<S: Scalar>((kind, t0, t1): &Self::Input, common: &Common) -> Result<Outcome<S, bool>, QueryError> {
        if !S::EXACT_VALUES {
            // The f64 path: the same families over binary64, float roots, the tolerance policy.
            let (f0, f1) = (rounded(t0), rounded(t1));
            let r = ccd::<f64>(*kind, &f0, &f1).map_err(|e| QueryError::new(Kind::Limit, "", e.to_string()))?;
            let mut fields = serde_json::Map::new();
            fields.insert("collides".into(), json!(r.collides()));
            if let Some(t) = r.toi {
                fields.insert("toi".into(), json!({ "f64": t }));
            }
            return Ok(Outcome { fields, discrete: r.collides(), decisive: vec![], continuous: vec![] });
        }
        let r = ccd(*kind, t0, t1).map_err(|e| QueryError::new(Kind::Limit, "", e.to_string()))?;
        let mut fields = serde_json::Map::new();
        fields.insert("collides".into(), json!(r.collides()));
        if let Some(t) = &r.toi {
            fields.insert("toi".into(), algebraic_json(t, common.digits)?);
        }
        Ok(Outcome { fields, discrete: r.collides(), decisive: vec![], continuous: vec![] })
    }

    fn valid_within_tolerance(exact: &bool, fast: &bool) -> bool {
        exact == fast
    }
}

fn rounded(p: &[Point3<BigRational>; 4]) -> [Point3<f64>; 4] {
    p.clone().map(|x| x.map(|c| c.to_f64()))
}

/// `ccd` with `"backend": "both"`: the exact answer, the `f64` one, and their agreement under
/// the CCD contract, checked on the binary64 roundings of the input (the exact answer is for
/// the input as given).
pub fn ccd_both(f: &Fields, common: &Common, ctx: &Context) -> Result<serde_json::Map<String, Value>, QueryError> {
    let input = CcdOp::parse(f, ctx)?;
    let mut fields = CcdOp::run::<BigRational>(&input, common)?.fields;
    let fast = CcdOp::run::<f64>(&input, common)?.fields;
    fields.insert("f64".into(), Value::Object(fast));
    let (kind, t0, t1) = &input;
    let agreement = match touchstone::sweep::contract::check_ccd_agreement(*kind, &rounded(t0), &rounded(t1)) {
        Ok(a) => json!({"agree": true, "strict": a == touchstone::contract::Agreement::Strict}),
        Err(d) => json!({"agree": false, "reason": d.to_string()}),
    };
    fields.insert("agreement".into(), agreement);
    Ok(fields)
}

fn sweep_error(e: SweepError) -> QueryError {
    let (kind, at) = match &e {
        SweepError::Singular { box_index } | SweepError::Projective { box_index } => {
            (Kind::Invalid, if *box_index == 0 { "/motion_a" } else { "/motion_b" })
        }
        SweepError::BadHalfExtent { box_index, .. } => (Kind::Invalid, if *box_index == 0 { "/a" } else { "/b" }),
        SweepError::EmptyInterval | SweepError::TimeOutside => (Kind::Invalid, "/interval"),
        SweepError::BadFeature { .. } => (Kind::Invalid, ""),
        SweepError::Poly(_) => (Kind::Limit, ""),
        SweepError::Uncertain(_) => (Kind::Internal, ""),
    };
    QueryError::new(kind, at, e.to_string())
}

/// `toi_boxes` with `"backend": "both"`: the exact answer, the `f64` one (both by the box
/// sweep of Albocher–Sarel, the `f64` one on the binary64 roundings of the input), and their
/// agreement under the sweep contract, checked on those roundings.
pub fn toi_boxes_both(
    f: &Fields,
    common: &Common,
    ctx: &Context,
) -> Result<serde_json::Map<String, Value>, QueryError> {
    let input = ToiBoxes::parse(f, ctx)?;
    let mut fields = ToiBoxes::run::<BigRational>(&input, common)?.fields;
    let fast = ToiBoxes::run::<f64>(&input, common);
    let (fa, fb, f0, f1) = <f64 as SweepBackend>::boxes(&input);
    let fast_time = first_contact_bms(&fa, &fb, &f0, &f1).map(|c| c.map(|c| c.time));
    let agreement = match touchstone::sweep::contract::check_sweep_answer(&fa, &fb, f0, f1, fast_time) {
        Ok(x) => json!({"agree": true, "strict": x == touchstone::contract::Agreement::Strict}),
        Err(d) => json!({"agree": false, "reason": d.to_string()}),
    };
    let fast = match fast {
        Ok(o) => Value::Object(o.fields),
        Err(e) => json!({ "error": e.to_json() }),
    };
    fields.insert("f64".into(), fast);
    fields.insert("agreement".into(), agreement);
    Ok(fields)
}

/// `toi_boxes`: the exact first time of contact of two boxes under quadratic 4×4 motions,
/// answered by the box sweep of Albocher–Sarel ([`first_contact_bms`]), with a touching
/// feature pair.
pub struct ToiBoxes;

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

impl Op for ToiBoxes {
    type Input = (BoxMotion, BoxMotion, BigRational, BigRational);
    type Discrete = bool;
    const FIELDS: &'static [&'static str] = &["a", "b", "motion_a", "motion_b", "interval"];

    fn parse(f: &Fields, _: &Context) -> Result<Self::Input, QueryError> {
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

    fn run<S: Scalar>(input: &Self::Input, common: &Common) -> Result<Outcome<S, bool>, QueryError> {
        // One algorithm on every backend: exact values run it on the rationals, the others on
        // the binary64 roundings (float roots, the tolerance policy).
        let (fields, collides) = if S::EXACT_VALUES {
            toi_boxes_on::<BigRational>(input, common)?
        } else {
            toi_boxes_on::<f64>(input, common)?
        };
        Ok(Outcome { fields, discrete: collides, decisive: vec![], continuous: vec![] })
    }

    fn valid_within_tolerance(exact: &bool, fast: &bool) -> bool {
        exact == fast
    }
}

/// A backend the box sweep answers on: its input made from the exact query, its times written.
trait SweepBackend: RootScalar {
    /// The boxes, motions and interval on this backend.
    fn boxes(input: &<ToiBoxes as Op>::Input) -> (BoxMotion<Self>, BoxMotion<Self>, Self, Self);
    /// A time as output.
    fn time_json(t: &Self::Time, digits: u32) -> Result<Value, QueryError>;
}

impl SweepBackend for BigRational {
    fn boxes((a, b, t0, t1): &<ToiBoxes as Op>::Input) -> (BoxMotion, BoxMotion, BigRational, BigRational) {
        (a.clone(), b.clone(), t0.clone(), t1.clone())
    }
    fn time_json(t: &Algebraic, digits: u32) -> Result<Value, QueryError> {
        algebraic_json(t, digits)
    }
}

impl SweepBackend for f64 {
    fn boxes((a, b, t0, t1): &<ToiBoxes as Op>::Input) -> (BoxMotion<f64>, BoxMotion<f64>, f64, f64) {
        (a.to_f64(), b.to_f64(), t0.to_f64(), t1.to_f64())
    }
    fn time_json(t: &f64, _: u32) -> Result<Value, QueryError> {
        Ok(json!({ "f64": t }))
    }
}

/// `toi_boxes` on backend `R`: the output fields and whether the boxes collide.
fn toi_boxes_on<R: SweepBackend>(
    input: &<ToiBoxes as Op>::Input,
    common: &Common,
) -> Result<(serde_json::Map<String, Value>, bool), QueryError> {
    let (a, b, t0, t1) = R::boxes(input);
    let contact = first_contact_bms(&a, &b, &t0, &t1).map_err(sweep_error)?;
    let mut fields = serde_json::Map::new();
    fields.insert("collides".into(), json!(contact.is_some()));
    if let Some(c) = &contact {
        fields.insert("toi".into(), R::time_json(&c.time, common.digits)?);
        let at_start = order::<R>(&c.time, &R::time(&t0)).map_err(|e| sweep_error(SweepError::Uncertain(e)))?;
        if at_start == std::cmp::Ordering::Equal {
            fields.insert("at_start".into(), json!(if c.overlapping_at_start { "overlapping" } else { "touching" }));
        }
        if let Some(pair) = &c.contact {
            fields.insert("kind".into(), json!(pair.kind.as_str()));
            fields.insert("features".into(), json!([feature_json(&pair.a), feature_json(&pair.b)]));
        }
    }
    Ok((fields, contact.is_some()))
}
