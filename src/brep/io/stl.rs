//! STL, ASCII and binary: a triangle soup, welded into a mesh by exact coordinate equality
//! (vertex ids in order of first appearance). Stored normals are ignored, unread (exporters
//! write `nan` there).
//!
//! A file is binary when its size is exactly 84 + 50·count bytes for the count at byte 80
//! (a binary file may start with `solid`), else ASCII when it starts with `solid` and holds no
//! NUL byte, else a binary file of the wrong size (an error).

use std::collections::HashMap;
use std::hash::Hash;

use num_rational::BigRational;

use super::text::{is_keyword, point, show, strip_bom, Tokens};
use super::{Location, Mesh, MeshError, MeshErrorKind, NumberMode, ReadLimits, MAX_ELEMENTS};
use crate::geom::Point3;
use crate::scalar::{NumberError, Scalar};

const HEADER: usize = 84;
const RECORD: usize = 50;

/// The triangle count of a binary header, if there is a header.
fn binary_count(bytes: &[u8]) -> Option<u64> {
    bytes.get(80..84).map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
}

/// Read an STL file, ASCII or binary.
pub(super) fn read<N: Scalar>(bytes: &[u8], mode: NumberMode, limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    let binary_size = binary_count(bytes).map(|n| HEADER as u64 + RECORD as u64 * n);
    // Text never holds a NUL byte, and binary records nearly always do (a zero coordinate or
    // attribute): so a damaged binary file whose header starts with "solid" is reported as
    // binary, not as a puzzling ASCII syntax error.
    if binary_size == Some(bytes.len() as u64) || !starts_with_solid(bytes) || bytes.contains(&0) {
        read_binary(bytes, limits)
    } else {
        read_ascii(bytes, mode, limits)
    }
}

fn starts_with_solid(bytes: &[u8]) -> bool {
    let text = strip_bom(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let rest = &text[start..];
    rest.get(..5).is_some_and(|w| is_keyword(w, "solid")) && rest.get(5).is_none_or(|b| b.is_ascii_whitespace())
}

/// Vertices welded by a key equal exactly when the coordinates are, at most `max` of them.
struct Welder<K, N: Scalar> {
    ids: HashMap<K, usize>,
    mesh: Mesh<N>,
    max: u64,
}

impl<K: Hash + Eq, N: Scalar> Welder<K, N> {
    fn new(capacity: usize, limits: &ReadLimits) -> Self {
        Welder {
            ids: HashMap::new(),
            mesh: Mesh { vertices: Vec::new(), faces: Vec::with_capacity(capacity) },
            max: limits.max_vertices,
        }
    }

    /// The id of the vertex with `key`, added when new; a vertex beyond the cap is an error.
    fn id(&mut self, key: K, point: impl FnOnce() -> Point3<N>) -> Result<usize, MeshErrorKind> {
        let next = self.mesh.vertices.len();
        let id = *self.ids.entry(key).or_insert(next);
        if id == next {
            if next as u64 >= self.max {
                return Err(MeshErrorKind::TooMany { what: "vertices", count: self.max + 1, limit: self.max });
            }
            self.mesh.vertices.push(point());
        }
        Ok(id)
    }
}

/// An exact key of a coordinate for welding: the exact value, or for `f64` its bits with the
/// sign of zero cleared (-0 = 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Exact(BigRational),
    Bits(u64),
}

fn key<N: Scalar>(x: &N) -> Key {
    match x.to_rational() {
        Some(q) if N::EXACT_VALUES => Key::Exact(q),
        _ => {
            let v = x.to_f64();
            Key::Bits(if v == 0.0 { 0 } else { v.to_bits() })
        }
    }
}

fn read_binary<N: Scalar>(bytes: &[u8], limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    let found = bytes.len() as u64;
    let Some(count) = binary_count(bytes) else {
        let kind = MeshErrorKind::TruncatedBinary { count: 0, expected: HEADER as u64, found };
        return Err(MeshError::new(Location::Input, kind));
    };
    if count > MAX_ELEMENTS {
        let kind = MeshErrorKind::TooMany { what: "triangles", count, limit: MAX_ELEMENTS };
        return Err(MeshError::new(Location::Input, kind));
    }
    let expected = HEADER as u64 + RECORD as u64 * count;
    if found < expected {
        let first_incomplete = (bytes.len() - HEADER) / RECORD;
        let kind = MeshErrorKind::TruncatedBinary { count, expected, found };
        return Err(MeshError::new(Location::Record(first_incomplete), kind));
    }
    if found > expected {
        let kind = MeshErrorKind::TrailingData { found: format!("{} bytes after the last record", found - expected) };
        return Err(MeshError::new(Location::Record(count as usize), kind));
    }
    // Equal f32 values have equal bits, except that -0 and +0 are equal: key on bits with the
    // sign of zero cleared (non-finite values are refused before).
    let mut welder = Welder::<[u32; 3], N>::new(count as usize, limits);
    for (t, record) in bytes[HEADER..].chunks_exact(RECORD).enumerate() {
        let mut face = Vec::with_capacity(3);
        for corner in 0..3 {
            let mut key = [0u32; 3];
            let mut xyz = [0f32; 3];
            for c in 0..3 {
                let o = 12 + 12 * corner + 4 * c;
                let v = f32::from_le_bytes([record[o], record[o + 1], record[o + 2], record[o + 3]]);
                if !v.is_finite() {
                    let element = format!("coordinate {} of corner {corner}", ["x", "y", "z"][c]);
                    let kind = MeshErrorKind::BadNumber { element, error: NumberError::NotFinite(v.to_string()) };
                    return Err(MeshError::new(Location::Record(t), kind));
                }
                key[c] = if v == 0.0 { 0 } else { v.to_bits() };
                xyz[c] = v;
            }
            // Finite f32 values are exact in f64 and held exactly by every backend here.
            let exact = |v: f32| N::from_f64(f64::from(v)).unwrap_or_else(|_| N::zero());
            let id = welder.id(key, || Point3::new(exact(xyz[0]), exact(xyz[1]), exact(xyz[2])));
            face.push(id.map_err(|kind| MeshError::new(Location::Record(t), kind))?);
        }
        welder.mesh.faces.push(face);
    }
    Ok(welder.mesh)
}

/// The tokens of an ASCII STL file, with the errors of its grammar.
struct Ascii<'a> {
    tokens: Tokens<'a>,
}

fn at_line(line: usize, kind: MeshErrorKind) -> MeshError {
    MeshError::new(Location::Line(line), kind)
}

impl<'a> Ascii<'a> {
    /// The next token, or an end-of-file error naming what was expected.
    fn next(&mut self, expected: &str) -> Result<(usize, &'a [u8]), MeshError> {
        self.tokens.next_token().ok_or_else(|| {
            at_line(self.tokens.last_line(), MeshErrorKind::UnexpectedEof { expected: expected.to_string() })
        })
    }

    /// The keyword `word` (any case), or an error.
    fn keyword(&mut self, word: &'static str) -> Result<(), MeshError> {
        let (line, t) = self.next(word)?;
        if is_keyword(t, word) {
            Ok(())
        } else {
            Err(at_line(line, MeshErrorKind::UnexpectedToken { expected: word, found: show(t) }))
        }
    }
}

fn read_ascii<N: Scalar>(bytes: &[u8], mode: NumberMode, limits: &ReadLimits) -> Result<Mesh<N>, MeshError> {
    let mut ascii = Ascii { tokens: Tokens::new(bytes) };
    let mut welder = Welder::<[Key; 3], N>::new(0, limits);
    ascii.keyword("solid")?;
    ascii.tokens.skip_line(); // the solid's name
    loop {
        let (line, t) = ascii.next("facet or endsolid")?;
        if is_keyword(t, "endsolid") {
            ascii.tokens.skip_line();
            match ascii.tokens.next_token() {
                None => return Ok(welder.mesh),
                // Several solids in one file: one mesh, welded across them.
                Some((_, t)) if is_keyword(t, "solid") => ascii.tokens.skip_line(),
                Some((line, t)) => return Err(at_line(line, MeshErrorKind::TrailingData { found: show(t) })),
            }
            continue;
        }
        if !is_keyword(t, "facet") {
            return Err(at_line(
                line,
                MeshErrorKind::UnexpectedToken { expected: "facet or endsolid", found: show(t) },
            ));
        }
        let facet = welder.mesh.faces.len();
        ascii.keyword("normal")?;
        for _ in 0..3 {
            ascii.next("a normal coordinate")?;
        }
        ascii.keyword("outer")?;
        ascii.keyword("loop")?;
        let mut face = Vec::with_capacity(3);
        for corner in 0..3 {
            ascii.keyword("vertex")?;
            let (line, x) = ascii.next("coordinate x")?;
            let (_, y) = ascii.next("coordinate y")?;
            let (_, z) = ascii.next("coordinate z")?;
            let owner = || format!("corner {corner} of facet {facet}");
            let p: Point3<N> = point([x, y, z], mode, owner).map_err(|kind| at_line(line, kind))?;
            let k = [key(&p.x), key(&p.y), key(&p.z)];
            face.push(welder.id(k, || p).map_err(|kind| at_line(line, kind))?);
        }
        ascii.keyword("endloop")?;
        ascii.keyword("endfacet")?;
        welder.mesh.faces.push(face);
    }
}
