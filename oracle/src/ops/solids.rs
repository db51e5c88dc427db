//! Ops on solids: `validate`.

use crate::json::Out;
use serde_json::json;
use touchstone::poly::RootScalar;
use touchstone::query::{SolidReport, Validate, ValidateClaim};

use super::{ClaimField, Context, OpJson};
use crate::encode::{shape_json, Encode};
use crate::error::QueryError;
use crate::input::{Fields, Number};
use crate::shape::parse_shape;

impl<N: Number> OpJson for Validate<N> {
    const FIELDS: &'static [&'static str] = &["solid"];
    const CLAIM: &'static [ClaimField<ValidateClaim>] = &[
        claim_field!(valid: bool),
        claim_field!(vertices: count),
        claim_field!(edges: count),
        claim_field!(faces: count),
        claim_field!(convex: bool),
        claim_field!(euler: count),
    ];
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
}

impl<N: Number> Encode for Validate<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        m.push("solid", shape_json(&self.solid));
        m
    }
}
