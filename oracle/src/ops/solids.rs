//! Ops on solids: `validate`.

use crate::json::Out;
use serde_json::json;
use touchstone::poly::RootScalar;
use touchstone::query::{SolidReport, Validate, ValidateClaim};

use super::geometry::{claimed_bool, claimed_count};
use super::{Context, OpJson};
use crate::encode::{shape_json, Encode};
use crate::error::QueryError;
use crate::input::{Fields, Number};
use crate::shape::parse_shape;

impl<N: Number> OpJson for Validate<N> {
    const FIELDS: &'static [&'static str] = &["solid"];
    const CLAIM_FIELDS: &'static [&'static str] = &["valid", "vertices", "edges", "faces", "convex", "euler"];
    const SUMMARY: &'static str = "check a solid exactly: counts, convexity, Euler characteristic, or the defect";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("solid")?;
        Ok(Validate { solid: parse_shape(v, &at, ctx)?, at: at.into() })
    }

    fn render<S: RootScalar>(&self, r: &SolidReport, _: u32) -> Result<Out, QueryError> {
        let v = json!({
            "valid": true,
            "vertices": r.vertices,
            "edges": r.edges,
            "faces": r.faces,
            "convex": r.convex,
            "euler": r.euler,
        });
        Ok(Out::from(v))
    }

    fn parse_claim(f: &Fields) -> Result<ValidateClaim, QueryError> {
        Ok(ValidateClaim {
            valid: claimed_bool(f, "valid")?,
            vertices: claimed_count(f, "vertices")?,
            edges: claimed_count(f, "edges")?,
            faces: claimed_count(f, "faces")?,
            convex: claimed_bool(f, "convex")?,
            euler: claimed_count(f, "euler")?,
        })
    }
}

impl<N: Number> Encode for Validate<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        m.push("solid", shape_json(&self.solid));
        m
    }

    fn encode_claim(c: &ValidateClaim) -> Out {
        let mut m = Out::new();
        let fields = [
            ("valid", c.valid.map(|b| json!(b))),
            ("vertices", c.vertices.map(|n| json!(n))),
            ("edges", c.edges.map(|n| json!(n))),
            ("faces", c.faces.map(|n| json!(n))),
            ("convex", c.convex.map(|b| json!(b))),
            ("euler", c.euler.map(|n| json!(n))),
        ];
        for (key, value) in fields {
            if let Some(v) = value {
                m.push(key, v);
            }
        }
        m
    }
}
