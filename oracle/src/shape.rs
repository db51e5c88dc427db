//! Shapes of the format: parsed exactly, then built as solids on any backend.

use crate::json::Json;
use touchstone::brep::io::{read_mesh_as, MeshFormat, NumberMode, ReadLimits};
pub use touchstone::query::ShapeSpec;

use crate::error::{Kind, QueryError};
use crate::input::Context;
use crate::input::{array, child, index, points, rationals, string, Fields, Number};

/// Shape kinds of the format that this version parses but cannot use yet.
const LATER: [&str; 6] = ["ball", "capsule", "round", "torus", "implicit", "bezier"];

/// The points of a shape, at most `ctx.max_vertices` of them (counted before any is parsed).
/// A list of points, at most `--max-vertices` of them (a shape's vertices, a hull's points, the
/// points a query transforms).
pub fn capped_points<N: Number>(
    v: &Json,
    at: &str,
    ctx: &Context,
) -> Result<Vec<touchstone::geom::Point3<N>>, QueryError> {
    let n = array(v, at, None, "a list of points")?.len();
    if n > ctx.max_vertices {
        return Err(QueryError::new(
            Kind::Limit,
            at,
            format!("{n} points exceed the limit of {} per shape or list (--max-vertices)", ctx.max_vertices),
        ));
    }
    points(v, at, None)
}

/// Parse a shape at `path`.
pub fn parse_shape<N: Number>(value: &Json, path: &str, ctx: &Context) -> Result<ShapeSpec<N>, QueryError> {
    let fields = Fields::of(value, path, "a shape")?;
    if fields.optional("file").is_some() {
        return parse_file(&fields, ctx);
    }
    let (kind, body, at) = fields.single_key("a shape")?;
    match kind {
        "box" => {
            let h = rationals::<N>(body, &at, 3, "box half extents")?;
            ShapeSpec::cuboid([h[0].clone(), h[1].clone(), h[2].clone()]).map_err(|e| e.under(fields.path()))
        }
        "polyhedron" => {
            let f = Fields::of(body, &at, "a polyhedron")?;
            f.only(&["vertices", "faces"])?;
            let (v, vpath) = f.required("vertices")?;
            let vertices = capped_points(v, &vpath, ctx)?;
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
        "convex_hull" => Ok(ShapeSpec::ConvexHull(capped_points(body, &at, ctx)?)),
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
fn parse_file<N: Number>(fields: &Fields, ctx: &Context) -> Result<ShapeSpec<N>, QueryError> {
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
    // The format is the name's; the file read is the path as resolved and checked (not the
    // name again: what it points to may change in between).
    let format = MeshFormat::of(&path).map_err(|e| QueryError::mesh(&at, &e))?;
    let real = allowed(&path, ctx).map_err(|m| QueryError::new(Kind::Invalid, &at, m))?;
    let limits = ReadLimits { max_bytes: ctx.max_file_bytes, max_vertices: ctx.max_vertices as u64 };
    let mesh = read_mesh_as::<N>(&real, format, mode, &limits).map_err(|e| QueryError::mesh(&at, &e.in_file(&path)))?;
    // A file's numbers count against the query's bits like inline ones.
    for v in &mesh.vertices {
        for c in v.iter() {
            crate::input::count_number(c, &at)?;
        }
    }
    Ok(ShapeSpec::File { path, mesh })
}

/// The real path of `path` when it may be read: after resolving `..` and symbolic links it lies
/// under the file root (`--files`; by default the query file's folder, or the current
/// directory). A path that is outside the root, by its name or by what its links resolve to,
/// gets one message whether or not the file exists (a query must not probe for files outside
/// the root).
fn allowed(path: &std::path::Path, ctx: &Context) -> Result<std::path::PathBuf, String> {
    let root = ctx.file_root.or(ctx.base_dir).unwrap_or_else(|| std::path::Path::new("."));
    let root = root.canonicalize().map_err(|e| format!("the file root {} cannot be resolved: {e}", root.display()))?;
    let outside = || {
        format!(
            "{} is not a file under the folder files may be read from ({}; widen it with --files)",
            path.display(),
            root.display()
        )
    };
    match path.canonicalize() {
        Ok(real) if real.starts_with(&root) => Ok(real),
        Ok(_) => Err(outside()),
        // Not there: say so only when the name itself lies under the root.
        Err(e) if lexically_under(path, &root) => Err(format!("{}: {e}", path.display())),
        Err(_) => Err(outside()),
    }
}

/// Whether `path`, made absolute and with `.` and `..` removed by name (no links followed),
/// lies under `root`.
fn lexically_under(path: &std::path::Path, root: &std::path::Path) -> bool {
    use std::path::Component;
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match std::env::current_dir() {
            Ok(d) => d.join(path),
            Err(_) => return false,
        }
    };
    let mut out = std::path::PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.starts_with(root)
}
