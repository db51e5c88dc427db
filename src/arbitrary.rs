//! Fuzz input types (feature `arbitrary`), biased toward degenerate configurations: small
//! integer and dyadic grids, coplanar points by construction, points on planes by
//! construction, and exactly rotated coplanar sets whose binary64 roundings are *almost*
//! coplanar. Their `Debug` output is replayable, and `oracle_line` gives the oracle query.

use arbitrary::Arbitrary;
use nalgebra::Vector3;
use num_rational::BigRational;

use crate::geom::{point, Affine, Point3};
use crate::scalar::Scalar;

/// One coordinate.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq)]
pub enum Coord {
    /// A small integer.
    Grid(i8),
    /// `m / 2^k`, k ≤ 20: a dyadic grid, exact in binary64.
    Dyadic(i16, u8),
    /// Any finite binary64 number (non-finite ones are rejected).
    Any(f64),
}

impl Coord {
    /// The value, or `None` for a non-finite one.
    pub fn value(&self) -> Option<f64> {
        match *self {
            Coord::Grid(i) => Some(i as f64),
            Coord::Dyadic(m, k) => Some(m as f64 / (1u32 << (k % 21)) as f64),
            Coord::Any(x) => x.is_finite().then_some(x),
        }
    }
}

fn coords(c: &[Coord; 3]) -> Option<[f64; 3]> {
    Some([c[0].value()?, c[1].value()?, c[2].value()?])
}

/// A small dyadic weight `m / 2^k`, k ≤ 6.
fn weight(m: i8, k: u8) -> f64 {
    m as f64 / (1u32 << (k % 7)) as f64
}

/// Four points for `orient3d`.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum FourPoints {
    /// Arbitrary points.
    Free([[Coord; 3]; 4]),
    /// d = a + s(b − a) + t(c − a) with dyadic weights: coplanar when the arithmetic is exact
    /// in binary64 (grid inputs), nearly coplanar otherwise.
    Coplanar {
        /// Three points.
        abc: [[Coord; 3]; 3],
        /// s = s.0 / 2^s.1.
        s: (i8, u8),
        /// t = t.0 / 2^t.1.
        t: (i8, u8),
    },
    /// Four points of the plane z = h, rotated exactly by the rational quaternion q and then
    /// rounded to binary64: coplanar before rounding, a hair off after.
    Rotated {
        /// The quaternion (w, x, y, z); zero is rejected.
        q: [i8; 4],
        /// (x, y) of each point.
        xy: [[i8; 2]; 4],
        /// The plane's height.
        h: i8,
    },
}

impl FourPoints {
    /// The four points, or `None` for a rejected input.
    pub fn points(&self) -> Option<[[f64; 3]; 4]> {
        match self {
            FourPoints::Free(p) => Some([coords(&p[0])?, coords(&p[1])?, coords(&p[2])?, coords(&p[3])?]),
            FourPoints::Coplanar { abc, s, t } => {
                let [a, b, c] = [coords(&abc[0])?, coords(&abc[1])?, coords(&abc[2])?];
                let (s, t) = (weight(s.0, s.1), weight(t.0, t.1));
                let d = [0, 1, 2].map(|i| a[i] + s * (b[i] - a[i]) + t * (c[i] - a[i]));
                d.iter().all(|x| x.is_finite()).then_some([a, b, c, d])
            }
            FourPoints::Rotated { q, xy, h } => {
                let q = q.map(|x| BigRational::from_integer(x.into()));
                let r = Affine::from_quaternion(&q, Vector3::zeros()).ok()?;
                Some(xy.map(|[x, y]| {
                    let p: Point3<BigRational> = r.apply_point(&point(x as i64, y as i64, *h as i64));
                    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
                }))
            }
        }
    }
}

/// A plane and a point for `side_of_plane`.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum PlaneAndPoint {
    /// Arbitrary coefficients and point.
    Free([Coord; 4], [Coord; 3]),
    /// The plane through three grid points (coefficients computed exactly, small integers) and
    /// a point that is an integer combination of them plus a small offset along the normal.
    Through {
        /// Three points of the plane.
        abc: [[i8; 3]; 3],
        /// Weights of b − a and c − a.
        st: [i8; 2],
        /// Offset along the normal, in units of 1/2^k.
        offset: (i8, u8),
    },
}

impl PlaneAndPoint {
    /// The plane's coefficients and the point, or `None` for a rejected input.
    pub fn plane_and_point(&self) -> Option<([f64; 4], [f64; 3])> {
        match self {
            PlaneAndPoint::Free(c, p) => {
                Some(([c[0].value()?, c[1].value()?, c[2].value()?, c[3].value()?], coords(p)?))
            }
            PlaneAndPoint::Through { abc, st, offset } => {
                let [a, b, c] = abc.map(|p| p.map(|x| x as f64));
                let u = [0, 1, 2].map(|i| b[i] - a[i]);
                let v = [0, 1, 2].map(|i| c[i] - a[i]);
                let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
                let d = -(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]);
                let w = weight(offset.0, offset.1);
                let p = [0, 1, 2].map(|i| a[i] + st[0] as f64 * u[i] + st[1] as f64 * v[i] + w * n[i]);
                Some(([n[0], n[1], n[2], d], p))
            }
        }
    }
}
