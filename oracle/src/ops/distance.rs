//! `distance`: closest features and the exact distance between two convex shapes, by V-Clip.

use serde_json::{json, Value};
use touchstone::brep::{convex_hull, Feature, Solid};
use touchstone::geom::Scaled;
use touchstone::scalar::{Scalar, Sign};
use touchstone::vclip::contract::distance_magnitude;
use touchstone::vclip::{check_strictly_convex, vclip, Status, VClipError};

use super::{num, point_json, sqrt_json, Common, Context, Decisive, Op, Outcome};
use crate::error::{Kind, QueryError};
use crate::input::{child, Fields};
use crate::pose::{parse_pose, PoseSpec};
use crate::shape::{build_solid, parse_shape, BuiltSolid, ShapeSpec};

/// One shape of a query: its spec, pose and their paths.
pub struct Posed {
    spec: ShapeSpec,
    at: String,
    pose: PoseSpec,
    pose_at: String,
}

/// `distance` between two convex shapes: status, exact squared distance, distance (decimal),
/// closest features (format ids) and closest points.
pub struct DistanceOp;

fn internal(at: &str, e: impl std::fmt::Display) -> QueryError {
    QueryError::new(Kind::Internal, at, e.to_string())
}

/// A convex shape posed in the world and made strictly convex, with the format ids.
pub struct Canonical<S: Scalar> {
    /// The strictly convex solid (coplanar faces merged through the exact hull of the
    /// vertices, which keeps their format ids) with the format id of each of its vertices.
    pub built: BuiltSolid<S>,
    /// When faces were merged: every vertex of the shape as given (some are no corners of the
    /// merged solid), to name a merged face by all the shape's vertices on it.
    pub all: Option<BuiltSolid<S>>,
}

fn posed_convex<S: Scalar>(p: &Posed) -> Result<Canonical<S>, QueryError> {
    let built = build_solid::<S>(&p.spec, &p.at)?;
    let map = p.pose.affine::<S>().map_err(|e| QueryError::new(Kind::Invalid, &p.pose_at, e.to_string()))?;
    let det = map.determinant().sign().map_err(|e| internal(&p.pose_at, e))?;
    if det == Sign::Zero {
        return Err(QueryError::new(Kind::Invalid, &p.pose_at, "the pose is singular"));
    }
    // A pose of negative determinant mirrors the solid: reverse its faces to keep them outward.
    let faces: Vec<Vec<usize>> = (0..built.solid.face_count())
        .map(|f| {
            let mut face = built.solid.face(f).to_vec();
            if det == Sign::Negative {
                face.reverse();
            }
            face
        })
        .collect();
    let vertices = (0..built.solid.vertex_count()).map(|v| map.apply_point(built.solid.vertex(v))).collect();
    let solid = Solid::new(vertices, faces)
        .map_err(|e| QueryError::new(Kind::Invalid, &p.pose_at, format!("the posed shape is not a solid: {e}")))?;
    if !solid.is_convex().map_err(|e| internal(&p.at, e))? {
        return Err(QueryError::new(Kind::Invalid, &p.at, "distance needs convex shapes; this one is not convex"));
    }
    match check_strictly_convex(&solid, &solid) {
        Ok(()) => Ok(Canonical { built: BuiltSolid { solid, ids: built.ids }, all: None }),
        Err(VClipError::FlatEdge { .. } | VClipError::StraightVertex { .. }) => {
            let hull = convex_hull(solid.vertices()).map_err(|e| internal(&p.at, e))?;
            let ids = hull.input_index.iter().map(|&i| built.ids[i]).collect();
            Ok(Canonical {
                built: BuiltSolid { solid: hull.solid, ids },
                all: Some(BuiltSolid { solid, ids: built.ids }),
            })
        }
        Err(e) => Err(internal(&p.at, e)),
    }
}

/// A feature in the format: vertex id, edge `[i, j]` with `i < j`, face as sorted ids (of a
/// merged face: every vertex of the shape as given on its plane).
pub fn feature_json<S: Scalar>(c: &Canonical<S>, f: &Feature) -> Result<Value, QueryError> {
    let b = &c.built;
    Ok(match *f {
        Feature::Vertex(v) => json!({"vertex": b.ids[v]}),
        Feature::Edge(u, v) => {
            let (i, j) = (b.ids[u], b.ids[v]);
            json!({"edge": [i.min(j), i.max(j)]})
        }
        Feature::Face(f) => {
            let mut ids: Vec<usize> = match &c.all {
                None => b.solid.face(f).iter().map(|&v| b.ids[v]).collect(),
                Some(all) => {
                    let plane = b.solid.plane(f);
                    let mut on = Vec::new();
                    for (v, p) in all.solid.vertices().iter().enumerate() {
                        let side =
                            plane.eval(p).sign_scaled(|| plane.eval_magnitude(p)).map_err(|e| internal("/op", e))?;
                        if side == Sign::Zero {
                            on.push(all.ids[v]);
                        }
                    }
                    on
                }
            };
            ids.sort_unstable();
            json!({ "face": ids })
        }
    })
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Separated => "separated",
        Status::Touching => "touching",
        Status::Penetrating => "penetrating",
    }
}

impl Op for DistanceOp {
    type Input = (Posed, Posed);
    type Discrete = Status;
    const FIELDS: &'static [&'static str] = &["a", "pose_a", "b", "pose_b"];

    fn parse(f: &Fields, ctx: &Context) -> Result<Self::Input, QueryError> {
        let one = |key: &str, pose_key: &str| -> Result<Posed, QueryError> {
            let (v, at) = f.required(key)?;
            let spec = parse_shape(v, &at, ctx)?;
            let pose_value = f.optional(pose_key);
            let pose_at = child(f.path(), pose_key);
            Ok(Posed { spec, at, pose: parse_pose(pose_value)?, pose_at })
        };
        Ok((one("a", "pose_a")?, one("b", "pose_b")?))
    }

    fn run<S: Scalar>((pa, pb): &Self::Input, common: &Common) -> Result<Outcome<S, Status>, QueryError> {
        let (ca, cb) = (posed_convex::<S>(pa)?, posed_convex::<S>(pb)?);
        let (a, b) = (&ca.built, &cb.built);
        let r = vclip(&a.solid, &b.solid, None).map_err(|e| internal("/op", e))?;
        let c = &r.closest;
        let mut fields = serde_json::Map::new();
        fields.insert("status".into(), json!(status_name(c.status)));
        fields.insert("distance_squared".into(), num(&c.squared_distance));
        fields.insert("distance".into(), sqrt_json(&c.squared_distance, common.digits));
        fields.insert("features".into(), json!([feature_json(&ca, &c.features.0)?, feature_json(&cb, &c.features.1)?]));
        fields.insert("points".into(), json!([point_json(&c.points.0), point_json(&c.points.1)]));
        fields.insert("steps".into(), json!(r.steps));
        let magnitude = distance_magnitude(&a.solid, &b.solid);
        let decisive = vec![Decisive::Test(Scaled { value: c.squared_distance.clone(), magnitude: magnitude.clone() })];
        let continuous = vec![("distance_squared".to_string(), c.squared_distance.clone(), magnitude)];
        Ok(Outcome { fields, discrete: c.status, decisive, continuous })
    }

    fn valid_within_tolerance(exact: &Status, fast: &Status) -> bool {
        // Within the budget of zero distance, touching, penetrating and separated are all
        // admissible; the squared distance is still checked as a continuous output.
        let _ = (exact, fast);
        true
    }
}
