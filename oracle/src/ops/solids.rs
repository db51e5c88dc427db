//! Ops on solids: `validate`.

use crate::json::Out;
use serde_json::json;
use touchstone::poly::RootScalar;
use touchstone::query::{SolidReport, Validate, ValidateClaim};

use super::geometry::{claimed_bool, claimed_count};
use super::{Context, OpJson};
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
