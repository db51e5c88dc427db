//! Shapes of the format: parsed exactly, then built as solids on any backend.

use serde_json::Value;
use touchstone::brep::io::{read_mesh, NumberMode};
pub use touchstone::query::ShapeSpec;

use crate::error::{Kind, QueryError};
use crate::input::Context;
use crate::input::{array, child, index, points, rationals, string, Fields};

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
            ShapeSpec::cuboid([h[0].clone(), h[1].clone(), h[2].clone()]).map_err(|e| e.under(fields.path()))
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
    let mesh = read_mesh(&path, mode).map_err(|e| QueryError::mesh(&at, &e))?;
    Ok(ShapeSpec::File { path, mesh })
}
