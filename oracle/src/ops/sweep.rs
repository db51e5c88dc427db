//! Continuous-collision ops: `ccd` (linear vertex–face and edge–edge on t ∈ [0, 1]).

use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::geom::Point3;
use touchstone::poly::{Algebraic, PolyError};
use touchstone::scalar::Scalar;
use touchstone::sweep::{ccd, CcdKind};

use super::{Common, Context, Op, Outcome};
use crate::error::{Kind, QueryError};
use crate::input::{points, string, Fields};

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
        if !S::EXACT {
            return Err(QueryError::new(Kind::Unsupported, "/backend", "ccd is answered exactly only in this version"));
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
