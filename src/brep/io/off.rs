//! The Object File Format (OFF): header `OFF`, a counts line `nv nf [ne]`, `nv` vertex lines
//! `x y z`, `nf` face lines `k i0 … ik-1` (anything after the indices, such as a colour, is
//! ignored). `#` starts a comment; blank lines are skipped; the counts may follow `OFF` on the
//! header line. Variants with colours or normals per vertex (`COFF`, `NOFF`, ...) are refused.

use super::text::{point, show, Lines};
use super::{Location, Mesh, MeshError, MeshErrorKind, NumberMode, ReadLimits, MAX_ELEMENTS};
use crate::scalar::Scalar;

fn err(line: usize, kind: MeshErrorKind) -> MeshError {
    MeshError::new(Location::Line(line), kind)
}

fn eof(lines: &Lines<'_>, expected: String) -> MeshError {
    err(lines.last_line(), MeshErrorKind::UnexpectedEof { expected })
}

/// A count: a non-negative integer no larger than `limit`.
fn count(token: &[u8], what: &str, plural: &'static str, line: usize, limit: u64) -> Result<usize, MeshError> {
    let bad = || err(line, MeshErrorKind::BadCount { what: what.to_string(), text: show(token) });
    let n: u64 = std::str::from_utf8(token).ok().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
    if n > limit {
        return Err(err(line, MeshErrorKind::TooMany { what: plural, count: n, limit }));
    }
    usize::try_from(n).map_err(|_| bad())
}

/// Read an OFF file.
pub(super) fn read<N: Scalar>(bytes: &[u8], mode: NumberMode, limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    let mut lines = Lines::new(bytes, Some(b'#'));
    let (line, tokens) = lines.next().ok_or_else(|| eof(&lines, "the header OFF".into()))?;
    if tokens[0] != b"OFF" {
        let found = show(tokens[0]);
        return Err(err(line, MeshErrorKind::BadHeader { found, expected: "OFF" }));
    }
    let (line, counts) = match tokens.len() {
        1 => lines.next().ok_or_else(|| eof(&lines, "the counts line 'vertices faces edges'".into()))?,
        _ => (line, tokens[1..].to_vec()),
    };
    if !(2..=3).contains(&counts.len()) {
        let text = counts.iter().map(|t| show(t)).collect::<Vec<_>>().join(" ");
        return Err(err(line, MeshErrorKind::BadCount { what: "counts line 'vertices faces edges'".into(), text }));
    }
    // The vertex count is checked against the caller's cap before anything is read.
    let nv = count(counts[0], "vertex count", "vertices", line, limits.max_vertices.min(MAX_ELEMENTS))?;
    let nf = count(counts[1], "face count", "faces", line, MAX_ELEMENTS)?;
    if let Some(&ne) = counts.get(2) {
        // The edge count is informative only (many writers put 0), but must be a count.
        count(ne, "edge count", "edges", line, MAX_ELEMENTS)?;
    }

    // Capacities are bounded by the input size, not by the counts claimed.
    let mut mesh = Mesh {
        vertices: Vec::with_capacity(nv.min(bytes.len() / 6)),
        faces: Vec::with_capacity(nf.min(bytes.len() / 8)),
    };
    for v in 0..nv {
        let (line, tokens) = lines.next().ok_or_else(|| eof(&lines, format!("vertex {v} of {nv}")))?;
        if tokens.len() != 3 {
            let kind = MeshErrorKind::WrongCoordinateCount { vertex: v, found: tokens.len(), expected: "3" };
            return Err(err(line, kind));
        }
        let p = point([tokens[0], tokens[1], tokens[2]], mode, || format!("vertex {v}"));
        mesh.vertices.push(p.map_err(|kind| err(line, kind))?);
    }
    for f in 0..nf {
        let (line, tokens) = lines.next().ok_or_else(|| eof(&lines, format!("face {f} of {nf}")))?;
        let k = count(tokens[0], &format!("size of face {f}"), "face vertices", line, MAX_ELEMENTS)?;
        let found = tokens.len() - 1;
        if found < k {
            return Err(err(line, MeshErrorKind::MissingIndices { face: f, expected: k, found }));
        }
        let mut face = Vec::with_capacity(k);
        for (position, t) in tokens[1..=k].iter().enumerate() {
            face.push(index(t, f, position, nv).map_err(|kind| err(line, kind))?);
        }
        mesh.faces.push(face);
    }
    if let Some((line, tokens)) = lines.next() {
        let found = show(tokens[0]);
        return Err(err(line, MeshErrorKind::TrailingData { found }));
    }
    Ok(mesh)
}

/// A 0-based vertex index, checked against the vertex count.
fn index(token: &[u8], face: usize, position: usize, count: usize) -> Result<usize, MeshErrorKind> {
    let i: i64 = std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| MeshErrorKind::BadIndex { face, position, text: show(token), reason: "not an integer" })?;
    usize::try_from(i).ok().filter(|&u| u < count).ok_or(MeshErrorKind::IndexOutOfRange {
        face,
        position,
        index: i,
        count,
    })
}
