//! Shapes of the format: parsed exactly, then built as solids on any backend.

use crate::json::Json;
use touchstone::brep::io::{read_mesh_as, MeshFormat, NumberMode, ReadLimits};
pub use touchstone::query::ShapeSpec;

use crate::error::{Kind, QueryError};
use crate::input::Context;
use crate::input::{array, child, index, points, rationals, string, Fields, Number};

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

/// Whether `distance`'s shape `a` or `b` is round (`ball`, `capsule`, `round`): the line is
/// then answered as `DistanceRound` (a polyhedral shape beside a round one takes part as a
/// rounded shape of radius 0).
pub fn round_pair(f: &Fields) -> bool {
    ["a", "b"].iter().any(|k| {
        f.optional(k).is_some_and(|(v, at)| {
            Fields::of(v, &at, "a shape")
                .ok()
                .and_then(|s| s.single_key("a shape").ok())
                .is_some_and(|(kind, _, _)| ["ball", "capsule", "round"].contains(&kind))
        })
    })
}

/// Whether `distance`'s or `toi`'s shape `a` or `b` is a `torus`: the line is then answered
/// as `DistanceTorus` or `ToiTorus`.
pub fn torus_pair(f: &Fields) -> bool {
    ["a", "b"].iter().any(|k| {
        f.optional(k).is_some_and(|(v, at)| {
            Fields::of(v, &at, "a shape")
                .ok()
                .and_then(|s| s.single_key("a shape").ok())
                .is_some_and(|(kind, _, _)| kind == "torus")
        })
    })
}

/// Whether `distance`'s or `toi`'s shape `a` or `b` is a `cylinder`: a `distance` line is then
/// answered as `DistanceCylinder` (a `toi` line is refused by the round path, naming it).
pub fn cylinder_pair(f: &Fields) -> bool {
    ["a", "b"].iter().any(|k| {
        f.optional(k).is_some_and(|(v, at)| {
            Fields::of(v, &at, "a shape")
                .ok()
                .and_then(|s| s.single_key("a shape").ok())
                .is_some_and(|(kind, _, _)| kind == "cylinder")
        })
    })
}

/// Whether `toi`'s shape `a` or `b` is round with a positive radius (a `ball`, a `capsule`, a
/// `round` shape whose radius is not 0): the line is then answered as `ToiRound`. A `round`
/// shape of radius 0 is its core, which the polytope path answers.
pub fn round_toi_pair(f: &Fields) -> bool {
    ["a", "b"].iter().any(|k| {
        f.optional(k).is_some_and(|(v, at)| {
            let Some((kind, body, at)) = Fields::of(v, &at, "a shape").ok().and_then(|s| s.single_key("a shape").ok())
            else {
                return false;
            };
            match kind {
                "ball" | "capsule" => true,
                "round" => {
                    let radius = Fields::of(body, &at, "a round shape")
                        .ok()
                        .and_then(|r| r.optional("radius").map(|(x, p)| crate::input::rational(x, &p)));
                    // An unreadable radius goes to the round path, which names the error.
                    !matches!(radius, Some(Ok(r)) if num_traits::Zero::is_zero(&r))
                }
                _ => false,
            }
        })
    })
}

/// Whether `distance`'s shape `a` or `b` is curved (`implicit` or `bezier`): the line is then answered as
/// `DistanceCurved`.
pub fn curved_pair(f: &Fields) -> bool {
    ["a", "b"].iter().any(|k| {
        f.optional(k).is_some_and(|(v, at)| {
            Fields::of(v, &at, "a shape")
                .ok()
                .and_then(|s| s.single_key("a shape").ok())
                .is_some_and(|(kind, _, _)| kind == "implicit" || kind == "bezier")
        })
    })
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
        "ball" => {
            let r = N::read(body, &at)?;
            ShapeSpec::ball(r).map_err(|e| e.under(fields.path()))
        }
        "capsule" => {
            let f = Fields::of(body, &at, "a capsule")?;
            f.only(&["a", "b", "radius"])?;
            let (a, apath) = f.required("a")?;
            let (b, bpath) = f.required("b")?;
            let (r, rpath) = f.required("radius")?;
            let (a, b) = (crate::input::point::<N>(a, &apath)?, crate::input::point::<N>(b, &bpath)?);
            ShapeSpec::capsule(a, b, N::read(r, &rpath)?).map_err(|e| e.under(fields.path()))
        }
        "cylinder" => {
            let f = Fields::of(body, &at, "a cylinder")?;
            f.only(&["a", "b", "radius"])?;
            let (a, apath) = f.required("a")?;
            let (b, bpath) = f.required("b")?;
            let (r, rpath) = f.required("radius")?;
            let (a, b) = (crate::input::point::<N>(a, &apath)?, crate::input::point::<N>(b, &bpath)?);
            ShapeSpec::cylinder(a, b, N::read(r, &rpath)?).map_err(|e| e.under(fields.path()))
        }
        "torus" => {
            let f = Fields::of(body, &at, "a torus")?;
            f.only(&["center", "axis", "major", "minor"])?;
            let (c, cpath) = f.required("center")?;
            let (n, npath) = f.required("axis")?;
            let (major, mpath) = f.required("major")?;
            let (minor, rpath) = f.required("minor")?;
            let c = crate::input::point::<N>(c, &cpath)?;
            let n = crate::input::point::<N>(n, &npath)?;
            let axis = n.coords;
            ShapeSpec::torus(c, axis, N::read(major, &mpath)?, N::read(minor, &rpath)?)
                .map_err(|e| e.under(fields.path()))
        }
        "round" => {
            let f = Fields::of(body, &at, "a rounded shape")?;
            f.only(&["shape", "radius"])?;
            let (inner, ipath) = f.required("shape")?;
            let (r, rpath) = f.required("radius")?;
            let inner = parse_shape::<N>(inner, &ipath, ctx)?;
            ShapeSpec::rounded(inner, N::read(r, &rpath)?).map_err(|e| e.under(fields.path()))
        }
        "implicit" => {
            let f = Fields::of(body, &at, "an implicit solid")?;
            f.only(&["poly", "bounds"])?;
            let (poly, ppath) = f.required("poly")?;
            let list = array(poly, &ppath, None, "a list of terms [c, [i, j, k]]")?;
            if list.len() > touchstone::curved::poly3::MAX_INPUT_TERMS {
                return Err(QueryError::new(
                    Kind::Limit,
                    &ppath,
                    format!(
                        "{} terms exceed the limit of {}",
                        list.len(),
                        touchstone::curved::poly3::MAX_INPUT_TERMS
                    ),
                ));
            }
            let terms = list
                .iter()
                .enumerate()
                .map(|(k, term)| {
                    let tpath = child(&ppath, k);
                    let pair = array(term, &tpath, Some(2), "a term [c, [i, j, k]]")?;
                    let c = N::read(&pair[0], &child(&tpath, 0))?;
                    let epath = child(&tpath, 1);
                    let e = array(&pair[1], &epath, Some(3), "exponents [i, j, k]")?;
                    let max = touchstone::curved::poly3::MAX_INPUT_DEGREE;
                    let mut exps = [0u32; 3];
                    for (i, x) in e.iter().enumerate() {
                        let at = child(&epath, i);
                        exps[i] = match x.as_u64() {
                            Some(n) if n <= u64::from(max) => n as u32,
                            Some(n) => {
                                return Err(QueryError::new(
                                    Kind::Limit,
                                    &at,
                                    format!("exponent {n} is over the degree limit of {max}"),
                                ))
                            }
                            None => {
                                return Err(QueryError::new(Kind::Type, &at, "an exponent must be a non-negative integer"))
                            }
                        };
                    }
                    Ok((c, exps))
                })
                .collect::<Result<Vec<_>, QueryError>>()?;
            let (b, bpath) = f.required("bounds")?;
            let corners = array(b, &bpath, Some(2), "bounds [[x, y, z], [x, y, z]]")?;
            let lo = crate::input::point::<N>(&corners[0], &child(&bpath, 0))?;
            let hi = crate::input::point::<N>(&corners[1], &child(&bpath, 1))?;
            ShapeSpec::implicit(terms, lo, hi).map_err(|e| e.under(fields.path()))
        }
        "bezier" => {
            let f = Fields::of(body, &at, "a Bézier solid")?;
            f.only(&["patches"])?;
            let (list, lpath) = f.required("patches")?;
            let list = array(list, &lpath, None, "a list of patches")?;
            let max = touchstone::curved::bezier::MAX_PATCHES;
            if list.is_empty() || list.len() > max {
                return Err(QueryError::new(Kind::Limit, &lpath, format!("{} patches: from 1 to {max}", list.len())));
            }
            let mut patches = Vec::with_capacity(list.len());
            let mut total = 0usize;
            for (k, patch) in list.iter().enumerate() {
                let ppath = child(&lpath, k);
                let pf = Fields::of(patch, &ppath, "a patch")?;
                pf.only(&["degree", "points", "weights"])?;
                let (d, dpath) = pf.required("degree")?;
                let d = array(d, &dpath, Some(2), "a degree [m, n]")?;
                let top = touchstone::curved::bezier::MAX_PATCH_DEGREE;
                let mut degree = [0usize; 2];
                for (i, x) in d.iter().enumerate() {
                    degree[i] = match x.as_u64() {
                        Some(n) if (1..=top as u64).contains(&n) => n as usize,
                        _ => {
                            return Err(QueryError::new(
                                Kind::Invalid,
                                &child(&dpath, i),
                                format!("a patch degree is an integer from 1 to {top}"),
                            ))
                        }
                    };
                }
                let (pts, ptpath) = pf.required("points")?;
                let points = capped_points::<N>(pts, &ptpath, ctx)?;
                total += points.len();
                if total > ctx.max_vertices {
                    return Err(QueryError::new(Kind::Limit, &ptpath, "the control points exceed --max-vertices"));
                }
                let weights = match pf.optional("weights") {
                    Some((w, wpath)) => Some(rationals::<N>(w, &wpath, points.len(), "weights")?),
                    None => None,
                };
                patches.push((degree, points, weights));
            }
            Ok(ShapeSpec::Bezier { patches })
        }
        k => Err(QueryError::new(
            Kind::Unknown,
            &at,
            format!(
                "unknown shape {k:?} (known: box, polyhedron, convex_hull, file, ball, capsule, round, torus, cylinder, implicit, bezier)"
            ),
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
        // The query file's folder as the system resolves it (it may be reached through a link).
        Some(dir) if std::path::Path::new(name).is_relative() => {
            dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()).join(name)
        }
        _ => std::path::PathBuf::from(name),
    };
    // The format is the name's; the file read is the path as resolved and checked (not the
    // name again: what it points to may change in between).
    let format = MeshFormat::of(&path).map_err(|e| QueryError::mesh(&at, &e))?;
    let real = allowed(&path, ctx).map_err(|m| QueryError::new(Kind::Invalid, &at, m))?;
    let limits = ReadLimits { max_bytes: ctx.max_file_bytes, max_vertices: ctx.max_vertices as u64 };
    // The file's text never comes back in a message: the query's author may not be allowed to
    // read it (a link in the folder to `/proc/self/environ`, under `--files /`).
    let mesh = read_mesh_as::<N>(&real, format, mode, &limits)
        .map_err(|e| QueryError::mesh(&at, &e.in_file(&path).redacted()))?;
    // A file's numbers count against the query's bits like inline ones.
    for v in &mesh.vertices {
        for c in v.iter() {
            crate::input::count_number(c, &at)?;
        }
    }
    Ok(ShapeSpec::File { path, mesh })
}

/// The real path of `path` when it may be read: resolved under the file root (`--files`; by
/// default the query file's folder, or the current directory), following symbolic links one
/// component at a time without ever looking outside the root. A path that leaves the root, by
/// its name or through a link, gets one message whether or not what it names exists, and
/// nothing outside the root is even looked up: a query must not learn which files exist
/// outside the root. (`..` in a name is taken by name; in a link's target, from the link's
/// real folder.)
fn allowed(path: &std::path::Path, ctx: &Context) -> Result<std::path::PathBuf, String> {
    let root = ctx.file_root.or(ctx.base_dir).unwrap_or_else(|| std::path::Path::new("."));
    let root = root.canonicalize().map_err(|e| format!("the file root {} cannot be resolved: {e}", root.display()))?;
    match resolve_under(path, &root) {
        Ok(real) => Ok(real),
        Err(Refused::Missing(e)) => Err(format!("{}: {e}", path.display())),
        Err(Refused::Outside) => Err(format!(
            "{} is not a file under the folder files may be read from ({}; widen it with --files)",
            path.display(),
            root.display()
        )),
    }
}

enum Refused {
    /// The path leaves the root (whether or not it names anything).
    Outside,
    /// Something under the root along the path is missing (or not a folder).
    Missing(std::io::Error),
}

/// `path` resolved under `root` (a real path): each component looked up under the real path so
/// far, a link's target followed from there (an absolute target only when it lies under the
/// root by name), refused as [`Refused::Outside`] as soon as it would leave the root.
fn resolve_under(path: &std::path::Path, root: &std::path::Path) -> Result<std::path::PathBuf, Refused> {
    use std::ffi::OsString;
    use std::path::Component;
    /// Links followed at most (the system's own limit is 40).
    const MAX_LINKS: usize = 40;
    let rest = |p: &std::path::Path| -> Option<Vec<OsString>> {
        let lexical = lexically_normal(p)?;
        let tail = lexical.strip_prefix(root).ok()?;
        Some(tail.components().map(|c| c.as_os_str().to_os_string()).collect())
    };
    let mut pending: Vec<OsString> = rest(path).ok_or(Refused::Outside)?;
    pending.reverse();
    let mut real = root.to_path_buf();
    let mut links = 0;
    while let Some(name) = pending.pop() {
        if name == ".." {
            if real == root {
                return Err(Refused::Outside);
            }
            real.pop();
            continue;
        }
        if name == "." {
            continue;
        }
        let next = real.join(&name);
        let meta = std::fs::symlink_metadata(&next).map_err(Refused::Missing)?;
        if !meta.file_type().is_symlink() {
            real = next;
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(Refused::Missing(std::io::Error::other("too many levels of symbolic links")));
        }
        let target = std::fs::read_link(&next).map_err(Refused::Missing)?;
        let parts: Vec<OsString> = if target.is_absolute() {
            real = root.to_path_buf();
            rest(&target).ok_or(Refused::Outside)?
        } else {
            target
                .components()
                .filter(|c| !matches!(c, Component::RootDir | Component::Prefix(_)))
                .map(|c| c.as_os_str().to_os_string())
                .collect()
        };
        pending.extend(parts.into_iter().rev());
    }
    Ok(real)
}

/// `path` made absolute (from the current directory) with `.` and `..` removed by name (no
/// links followed); `None` when there is no current directory.
fn lexically_normal(path: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::path::Component;
    let absolute = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
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
    Some(out)
}
