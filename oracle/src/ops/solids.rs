//! Ops on solids: `validate`.

use serde_json::json;
use touchstone::scalar::Scalar;

use super::{Common, Context, Decisive, Op, Outcome};
use crate::error::QueryError;
use crate::input::Fields;
use crate::shape::{build_solid, parse_shape, ShapeSpec};

/// `validate`: build the solid and report its counts, convexity and Euler characteristic, or
/// the defect (an error line of kind `invalid` pointing at the offending face or vertex).
pub struct Validate;

/// (vertices, edges, faces, euler) and convexity.
type Summary = ((usize, usize, usize, i64), bool);

impl Op for Validate {
    type Input = (ShapeSpec, String);
    type Discrete = Summary;
    const FIELDS: &'static [&'static str] = &["solid"];

    fn parse(f: &Fields, ctx: &Context) -> Result<Self::Input, QueryError> {
        let (v, at) = f.required("solid")?;
        Ok((parse_shape(v, &at, ctx)?, at))
    }

    fn run<S: Scalar>((spec, at): &Self::Input, _: &Common) -> Result<Outcome<S, Summary>, QueryError> {
        let built = build_solid::<S>(spec, at)?;
        let s = &built.solid;
        let convex = s.is_convex().map_err(|e| QueryError::new(crate::error::Kind::Internal, at, e.to_string()))?;
        let counts = (s.vertex_count(), s.edge_count(), s.face_count(), s.euler());
        let fields = json!({
            "valid": true,
            "vertices": counts.0,
            "edges": counts.1,
            "faces": counts.2,
            "convex": convex,
            "euler": counts.3,
        });
        let serde_json::Value::Object(fields) = fields else { unreachable!("json! of an object literal is an object") };
        // The decisions behind the answer. A triangle is planar by construction, so only larger
        // faces carry a planarity decision (an exactly planar quad has margin 0: moving one
        // vertex makes it invalid).
        let tests = s.validation_tests();
        let mut decisive = Vec::new();
        for (f, values) in tests.planarity.into_iter().enumerate() {
            if s.face(f).len() > 3 {
                decisive.push(Decisive::AllOf(values));
            }
        }
        decisive.extend(tests.area.into_iter().map(Decisive::AllOf));
        decisive.extend(tests.convexity.into_iter().map(Decisive::Test));
        decisive.push(Decisive::Test(tests.volume));
        Ok(Outcome { fields, discrete: (counts, convex), decisive, continuous: vec![] })
    }

    fn valid_within_tolerance(exact: &Summary, fast: &Summary) -> bool {
        // Topology is combinatorial: the counts must match; convexity may flip at a flat edge.
        exact.0 == fast.0
    }
}
