//! Wavefront OBJ, polygonal part: `v x y z [w]` vertices and `f` faces, whose vertex
//! references take the forms `i`, `i/j`, `i/j/k` and `i//k` (only `i` is used), 1-based, or
//! negative for "relative to the last vertex defined so far".
//!
//! * A face may refer only to vertices defined above it (the common reading of the format).
//! * `v` with a weight `w` ≠ 1 is refused (rational vertices have no solid meaning here);
//!   `v x y z r g b` (a vertex colour, a common extension) is read with the colour ignored.
//! * Ignored without error: texture and normal data (`vt`, `vn`, `vp`), grouping (`o`, `g`, `s`,
//!   `mg`), materials and display attributes (`usemtl`, `mtllib`, ...), and the line and point
//!   elements `l` and `p`, which bound no volume.
//! * Refused: free-form geometry (`curv`, `surf`, ...), which would silently change the shape
//!   if skipped, and unknown keywords. Line continuation with `\` is not supported.

use super::text::{number, point, show, Lines};
use super::{Location, Mesh, MeshError, MeshErrorKind, NumberMode, ReadLimits};
use crate::scalar::Scalar;

const IGNORED: &[&str] = &[
    "vt",
    "vn",
    "vp",
    "o",
    "g",
    "s",
    "mg",
    "usemtl",
    "mtllib",
    "l",
    "p",
    "lod",
    "bevel",
    "c_interp",
    "d_interp",
    "shadow_obj",
    "trace_obj",
    "maplib",
    "usemap",
    "ctech",
    "stech",
];
const FREE_FORM: &[&str] =
    &["cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp", "end", "con"];

fn err(line: usize, kind: MeshErrorKind) -> MeshError {
    MeshError::new(Location::Line(line), kind)
}

/// Read an OBJ file.
pub(super) fn read<N: Scalar>(bytes: &[u8], mode: NumberMode, limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    let mut mesh = Mesh::default();
    for (line, tokens) in Lines::new(bytes, Some(b'#')) {
        let (key, args) = (tokens[0], &tokens[1..]);
        match key {
            b"v" => {
                let vertex = mesh.vertices.len();
                if vertex as u64 >= limits.max_vertices {
                    let limit = limits.max_vertices;
                    return Err(err(line, MeshErrorKind::TooMany { what: "vertices", count: limit + 1, limit }));
                }
                if ![3, 4, 6].contains(&args.len()) {
                    let expected = "3, 4 (with w) or 6 (with a colour)";
                    return Err(err(line, MeshErrorKind::WrongCoordinateCount { vertex, found: args.len(), expected }));
                }
                let p = point([args[0], args[1], args[2]], mode, || format!("vertex {vertex}"));
                mesh.vertices.push(p.map_err(|kind| err(line, kind))?);
                if args.len() == 4 {
                    check_weight::<N>(args[3], mode, vertex).map_err(|kind| err(line, kind))?;
                }
            }
            b"f" => {
                let face = mesh.faces.len();
                let count = mesh.vertices.len();
                let ids = args.iter().enumerate().map(|(position, t)| resolve(t, face, position, count));
                mesh.faces.push(ids.collect::<Result<_, _>>().map_err(|kind| err(line, kind))?);
            }
            _ if IGNORED.iter().any(|k| k.as_bytes() == key) => {}
            _ => {
                let reason = if FREE_FORM.iter().any(|k| k.as_bytes() == key) {
                    "free-form curves and surfaces are not supported"
                } else {
                    "unknown OBJ keyword"
                };
                return Err(err(line, MeshErrorKind::Unsupported { element: show(key), reason }));
            }
        }
    }
    Ok(mesh)
}

/// Refuse a homogeneous weight other than 1.
fn check_weight<N: Scalar>(token: &[u8], mode: NumberMode, vertex: usize) -> Result<(), MeshErrorKind> {
    let w: N = number(token, mode)
        .map_err(|error| MeshErrorKind::BadNumber { element: format!("w of vertex {vertex}"), error })?;
    if w == N::one() {
        Ok(())
    } else {
        Err(MeshErrorKind::Unsupported {
            element: format!("w = {} of vertex {vertex}", show(token)),
            reason: "rational vertices are not supported: w must be 1",
        })
    }
}

/// The 0-based vertex id of a reference `i`, `i/j`, `i/j/k` or `i//k`, given `count` vertices
/// defined so far.
fn resolve(token: &[u8], face: usize, position: usize, count: usize) -> Result<usize, MeshErrorKind> {
    let bad = |reason| MeshErrorKind::BadIndex { face, position, text: show(token), reason };
    let text = std::str::from_utf8(token).map_err(|_| bad("not ASCII text"))?;
    let parts: Vec<&str> = text.split('/').collect();
    let int = |s: &str| s.parse::<i64>().is_ok();
    let well_formed = match parts.as_slice() {
        [_] => true,
        [_, j] => int(j),
        [_, j, k] => (j.is_empty() || int(j)) && int(k),
        _ => false,
    };
    if !well_formed {
        return Err(bad("expected i, i/j, i/j/k or i//k with integers"));
    }
    let i: i64 = parts[0].parse().map_err(|_| bad("the vertex index is not an integer"))?;
    if i == 0 {
        return Err(bad("OBJ indices start at 1 (or count back from -1)"));
    }
    // No overflow: i - 1 for i > 0, and count + i for i < 0 with 0 <= count < 2^63.
    let id = if i > 0 { i - 1 } else { i64::try_from(count).unwrap_or(i64::MAX) + i };
    usize::try_from(id).ok().filter(|&u| u < count).ok_or(MeshErrorKind::IndexOutOfRange {
        face,
        position,
        index: i,
        count,
    })
}
