//! Writing OFF and OBJ with exact numbers, or nearest-binary64 numbers for other tools.

use std::collections::HashSet;
use std::io::{BufWriter, Write};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::{AsMesh, Location, Mesh, MeshError, MeshErrorKind};
use crate::scalar::decimal_of_rational;

/// How a writer prints coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NumberStyle {
    /// Exactly: integers as integers, other rationals as a terminating decimal when the
    /// denominator is 2ᵃ·5ᵇ (positional, or with an exponent beyond 10⁻⁷…10²¹), else as `p/q`.
    ///
    /// `p/q` is touchstone's extension: other tools will not read it, and touchstone reads it
    /// back only in [`NumberMode::Exact`](super::NumberMode::Exact). Every binary64 value is a
    /// terminating decimal, so a mesh read in `Binary64` mode never needs it.
    #[default]
    Exact,
    /// The binary64 value nearest each coordinate, as the shortest decimal that reads back to
    /// it: for interoperability. Inexact for other values; a value beyond the binary64 range is
    /// an error ([`MeshErrorKind::NotRepresentable`]).
    NearestF64,
}

fn io(e: std::io::Error) -> MeshError {
    MeshError::new(Location::Input, MeshErrorKind::Io(e))
}

/// Write an OFF file: `OFF`, the counts (the edge count is the number of distinct vertex pairs
/// adjacent along a face), one line per vertex and one per face (`k i0 … ik-1`, 0-based).
///
/// Fails on an I/O error, or in [`NumberStyle::NearestF64`] on a coordinate beyond the binary64
/// range. Reading the output in the matching mode gives back the same mesh.
pub fn write_off<M: AsMesh + ?Sized>(mesh: &M, out: impl Write, style: NumberStyle) -> Result<(), MeshError> {
    let mesh = mesh.as_mesh();
    let mut out = BufWriter::new(out);
    writeln!(out, "OFF").map_err(io)?;
    writeln!(out, "{} {} {}", mesh.vertices.len(), mesh.faces.len(), edge_count(&mesh)).map_err(io)?;
    write_vertices(&mesh, &mut out, style, "")?;
    for face in &mesh.faces {
        write!(out, "{}", face.len()).map_err(io)?;
        for v in face {
            write!(out, " {v}").map_err(io)?;
        }
        writeln!(out).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Write an OBJ file: a comment, one `v x y z` line per vertex and one `f` line per face
/// (1-based indices).
///
/// Fails on an I/O error, or in [`NumberStyle::NearestF64`] on a coordinate beyond the binary64
/// range. Reading the output in the matching mode gives back the same mesh.
pub fn write_obj<M: AsMesh + ?Sized>(mesh: &M, out: impl Write, style: NumberStyle) -> Result<(), MeshError> {
    let mesh = mesh.as_mesh();
    let mut out = BufWriter::new(out);
    writeln!(out, "# {} vertices, {} faces (touchstone)", mesh.vertices.len(), mesh.faces.len()).map_err(io)?;
    write_vertices(&mesh, &mut out, style, "v ")?;
    for face in &mesh.faces {
        write!(out, "f").map_err(io)?;
        for &v in face {
            // u128: no overflow for any usize id.
            write!(out, " {}", v as u128 + 1).map_err(io)?;
        }
        writeln!(out).map_err(io)?;
    }
    out.flush().map_err(io)
}

fn write_vertices(mesh: &Mesh, out: &mut impl Write, style: NumberStyle, prefix: &str) -> Result<(), MeshError> {
    for (vertex, p) in mesh.vertices.iter().enumerate() {
        let mut xyz = Vec::with_capacity(3);
        for (coordinate, c) in p.iter().enumerate() {
            xyz.push(match style {
                NumberStyle::Exact => exact_text(c),
                NumberStyle::NearestF64 => nearest_f64_text(c).ok_or_else(|| {
                    MeshError::new(Location::Input, MeshErrorKind::NotRepresentable { vertex, coordinate })
                })?,
            });
        }
        writeln!(out, "{prefix}{}", xyz.join(" ")).map_err(io)?;
    }
    Ok(())
}

fn edge_count(mesh: &Mesh) -> usize {
    let mut edges = HashSet::new();
    for face in &mesh.faces {
        for (k, &a) in face.iter().enumerate() {
            let b = face[(k + 1) % face.len()];
            edges.insert((a.min(b), a.max(b)));
        }
    }
    edges.len()
}

/// The exact text of `q`: an integer, a terminating decimal, or `p/q`.
pub(super) fn exact_text(q: &BigRational) -> String {
    if q.is_integer() {
        return q.numer().to_string();
    }
    // The denominator is 2^a·5^b·r; the decimal terminates when r = 1, after max(a, b) digits.
    let mut rest = q.denom().clone();
    let twos = rest.trailing_zeros().unwrap_or(0);
    rest >>= twos;
    let five = BigInt::from(5);
    let mut fives = 0u64;
    loop {
        let (quotient, remainder) = rest.div_rem(&five);
        if !remainder.is_zero() {
            break;
        }
        rest = quotient;
        fives += 1;
    }
    if !rest.is_one() {
        return format!("{}/{}", q.numer(), q.denom());
    }
    let shift = num_traits::pow(BigInt::from(10), twos.max(fives) as usize);
    let scaled = q.numer() * shift / q.denom(); // exact
    let digits = scaled.magnitude().to_string().trim_end_matches('0').len();
    // Truncating to exactly as many significant digits as the value has is exact.
    decimal_of_rational(q, digits as u32)
}

/// The shortest decimal that reads back as the binary64 value nearest `q`, or `None` beyond
/// the binary64 range.
pub(super) fn nearest_f64_text(q: &BigRational) -> Option<String> {
    let v = q.to_f64().filter(|v| v.is_finite())?;
    // Debug prints the shortest round-trip digits, with an exponent for very large or small
    // values; a trailing ".0" adds nothing.
    let text = format!("{v:?}");
    Some(text.strip_suffix(".0").map(str::to_string).unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::parse_rational;

    fn q(s: &str) -> BigRational {
        parse_rational(s).unwrap()
    }

    #[test]
    fn exact_text_is_shortest_exact_form() {
        for (value, text) in [
            ("0", "0"),
            ("-12", "-12"),
            ("1e25", "10000000000000000000000000"),
            ("0.1", "0.1"),
            ("-3/8", "-0.375"),
            ("1.5e-3", "0.0015"),
            ("1e-7", "0.0000001"),
            ("-1.5e-8", "-1.5e-8"),
            ("1/3", "1/3"),
            ("-2/30", "-1/15"),
        ] {
            assert_eq!(exact_text(&q(value)), text, "{value}");
        }
        for v in [f64::MIN_POSITIVE / 4.0, 0.1, 1e300, -2.5e-300, 1.0 / 3.0] {
            let exact = BigRational::from_float(v).unwrap();
            assert_eq!(q(&exact_text(&exact)), exact, "{v}");
        }
    }

    #[test]
    fn nearest_f64_text_reads_back() {
        assert_eq!(nearest_f64_text(&q("1/10")).unwrap(), "0.1");
        assert_eq!(nearest_f64_text(&q("2")).unwrap(), "2");
        assert_eq!(nearest_f64_text(&q("1/3")).unwrap().parse::<f64>().unwrap(), 1.0 / 3.0);
        assert_eq!(nearest_f64_text(&q("1e-320")).unwrap().parse::<f64>().unwrap(), 1e-320);
        assert_eq!(nearest_f64_text(&q("1e400")), None);
    }
}
