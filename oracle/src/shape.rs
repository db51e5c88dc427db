//! Shapes of the format: parsed exactly, then built as solids on any backend.

use num_rational::BigRational;
use num_traits::Signed;
use serde_json::Value;
use touchstone::brep::io::{read_mesh, Mesh, MeshErrorKind, NumberMode};
use touchstone::brep::{convex_hull, shapes, BrepError, HullError, Solid};
use touchstone::geom::Point3;
use touchstone::scalar::Scalar;

use crate::error::{Kind, QueryError};
use crate::input::{array, child, index, points, rationals, string, Fields};
use crate::ops::Context;

/// A shape as given in a query.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// `{"box": [hx, hy, hz]}`: an axis-aligned box centred at the origin.
    Box([BigRational; 3]),
    /// `{"polyhedron": {...}}`: vertices and counter-clockwise faces (indices checked in range).
    Polyhedron {
        /// The vertices.
        vertices: Vec<Point3<BigRational>>,
        /// Each face's vertex indices, counter-clockwise seen from outside.
        faces: Vec<Vec<usize>>,
    },
    /// `{"convex_hull": [[x, y, z], ...]}`: the exact hull of the points.
    ConvexHull(Vec<Point3<BigRational>>),
    /// `{"file": "path"}`: a mesh read from an OFF, OBJ or STL file (vertex ids in file order).
    File {
        /// The path as resolved (relative to the query file's folder).
        path: std::path::PathBuf,
        /// The mesh, read exactly (or as binary64 with `"numbers": "binary64"`).
        mesh: Mesh,
    },
}

/// Shape kinds of the format that this version parses but cannot use yet.
const LATER: [&str; 6] = ["ball", "capsule", "round", "torus", "implicit", "bezier"];

/// Parse a shape at `path`.
pub fn parse_shape(value: &Value, path: &str, ctx: &Context) -> Result<ShapeSpec, QueryError> {
    let fields = Fields::of(value, path, "a shape")?;
    if fields.optional("file").is_some() {
        return parse_file(&fields, ctx);
    }
    let (kind, body, at) = fields.single_key("a shape")?;
    match kind {
        "box" => {
            let h = rationals(body, &at, 3, "box half extents")?;
            for (i, x) in h.iter().enumerate() {
                if !x.is_positive() {
                    return Err(QueryError::new(Kind::Invalid, &child(&at, i), "a box half extent must be positive"));
                }
            }
            let [x, y, z]: [BigRational; 3] = h.try_into().expect("three checked above");
            Ok(ShapeSpec::Box([x, y, z]))
        }
        "polyhedron" => {
            let f = Fields::of(body, &at, "a polyhedron")?;
            f.only(&["vertices", "faces"])?;
            let (v, vpath) = f.required("vertices")?;
            let vertices = points(v, &vpath, None)?;
            let (fs, fpath) = f.required("faces")?;
            let faces = array(fs, &fpath, None, "faces")?
                .iter()
                .enumerate()
                .map(|(i, face)| {
                    let at = child(&fpath, i);
                    let ids = array(face, &at, None, "a face")?;
                    if ids.len() < 3 {
                        return Err(QueryError::new(
                            Kind::Invalid,
                            &at,
                            format!("face {i} has {} vertices; at least 3", ids.len()),
                        ));
                    }
                    ids.iter()
                        .enumerate()
                        .map(|(j, id)| index(id, &child(&at, j), vertices.len(), "vertex index"))
                        .collect()
                })
                .collect::<Result<Vec<Vec<usize>>, _>>()?;
            Ok(ShapeSpec::Polyhedron { vertices, faces })
        }
        "convex_hull" => Ok(ShapeSpec::ConvexHull(points(body, &at, None)?)),
        k if LATER.contains(&k) => {
            let _ = body;
            Err(QueryError::new(
                Kind::Unsupported,
                &at,
                format!("shape {k:?} is part of the format but not supported by this version yet"),
            ))
        }
        k => Err(QueryError::new(
            Kind::Unknown,
            &at,
            format!("unknown shape {k:?} (known: box, polyhedron, convex_hull, file, {})", LATER.join(", ")),
        )),
    }
}

/// `{"file": "path", "numbers": "exact" | "binary64"}`: read the mesh now, so that a bad file
/// is reported with its line whatever the op.
fn parse_file(fields: &Fields, ctx: &Context) -> Result<ShapeSpec, QueryError> {
    fields.only(&["file", "numbers"])?;
    let (v, at) = fields.required("file")?;
    let name = string(v, &at, "a file path")?;
    let mode = match fields.optional("numbers") {
        None => NumberMode::Exact,
        Some((v, nat)) => match string(v, &nat, "numbers")? {
            "exact" => NumberMode::Exact,
            "binary64" => NumberMode::Binary64,
            other => {
                return Err(QueryError::new(
                    Kind::Unknown,
                    &nat,
                    format!("unknown number mode {other:?} (exact, binary64)"),
                ))
            }
        },
    };
    let path = match &ctx.base_dir {
        Some(dir) if std::path::Path::new(name).is_relative() => dir.join(name),
        _ => std::path::PathBuf::from(name),
    };
    let mesh = read_mesh(&path, mode).map_err(|e| {
        let kind = if e.is_limit() {
            Kind::Limit
        } else if matches!(e.kind, MeshErrorKind::BadNumber { .. }) {
            Kind::Number
        } else if matches!(e.kind, MeshErrorKind::UnknownFormat { .. }) {
            Kind::Unsupported
        } else {
            Kind::Invalid
        };
        QueryError::new(kind, &at, e.to_string())
    })?;
    Ok(ShapeSpec::File { path, mesh })
}

/// A shape built as a solid on backend `S`, with the format's id of each of its vertices.
pub struct BuiltSolid<S: Scalar> {
    /// The solid.
    pub solid: Solid<S>,
    /// `ids[v]` is solid vertex `v`'s id in the format (an input index).
    pub ids: Vec<usize>,
}

fn brep_error(at: &str, kind_path: &str, e: BrepError) -> QueryError {
    use BrepError as B;
    let base = child(at, kind_path);
    let place = match &e {
        B::Uncertain(_) => return QueryError::new(Kind::Internal, at, e.to_string()),
        B::NonFinite { vertex, .. } | B::UnusedVertex { vertex } | B::NonManifoldVertex { vertex, .. } => {
            child(&child(&base, "vertices"), vertex)
        }
        B::DuplicateVertex { second, .. } => child(&child(&base, "vertices"), second),
        B::FaceTooSmall { face, .. }
        | B::VertexOutOfRange { face, .. }
        | B::RepeatedVertex { face, .. }
        | B::ZeroLengthEdge { face, .. }
        | B::OpenBoundary { face, .. }
        | B::ZeroAreaFace { face }
        | B::NonPlanarFace { face, .. }
        | B::FaceNotSimple { face, .. } => child(&child(&base, "faces"), face),
        B::InconsistentOrientation { second, .. } => child(&child(&base, "faces"), second),
        B::TooFewVertices { .. } => child(&base, "vertices"),
        B::TooFewFaces { .. } | B::NonManifoldEdge { .. } => child(&base, "faces"),
        B::InsideOut | B::ZeroVolume => base,
    };
    QueryError::new(Kind::Invalid, &place, e.to_string())
}

/// Build the solid of a shape on backend `S`; `at` is the shape's path in the query.
pub fn build_solid<S: Scalar>(spec: &ShapeSpec, at: &str) -> Result<BuiltSolid<S>, QueryError> {
    let c = |p: &Point3<BigRational>| p.map(|x| S::from_rational(&x));
    match spec {
        ShapeSpec::Box(h) => {
            let [x, y, z] = h.each_ref().map(S::from_rational);
            let solid = shapes::cuboid(x, y, z).map_err(|e| brep_error(at, "box", e))?;
            Ok(BuiltSolid { solid, ids: (0..8).collect() })
        }
        ShapeSpec::Polyhedron { vertices, faces } => {
            let solid = Solid::new(vertices.iter().map(c).collect(), faces.clone())
                .map_err(|e| brep_error(at, "polyhedron", e))?;
            Ok(BuiltSolid { ids: (0..solid.vertex_count()).collect(), solid })
        }
        ShapeSpec::File { path, mesh } => {
            let solid = mesh.to_solid::<S>().map_err(|e| {
                let kind = if matches!(e, BrepError::Uncertain(_)) { Kind::Internal } else { Kind::Invalid };
                QueryError::new(kind, &child(at, "file"), format!("{}: {e}", path.display()))
            })?;
            Ok(BuiltSolid { ids: (0..solid.vertex_count()).collect(), solid })
        }
        ShapeSpec::ConvexHull(points) => {
            let pts: Vec<Point3<S>> = points.iter().map(c).collect();
            let hull_at = child(at, "convex_hull");
            let hull = convex_hull(&pts).map_err(|e| match e {
                HullError::NonFinite { point, .. } => {
                    QueryError::new(Kind::Number, &child(&hull_at, point), e.to_string())
                }
                HullError::Uncertain(_) => QueryError::new(Kind::Internal, &hull_at, e.to_string()),
                e => QueryError::new(Kind::Invalid, &hull_at, e.to_string()),
            })?;
            Ok(BuiltSolid { solid: hull.solid, ids: hull.input_index })
        }
    }
}
