//! Fuzz input types (feature `arbitrary`), biased toward degenerate configurations: small
//! integer and dyadic grids, coplanar points by construction, points on planes by
//! construction, and exactly rotated coplanar sets whose binary64 roundings are *almost*
//! coplanar. Their `Debug` output is replayable, and [`replay`] gives the typed queries that
//! replay a case (the oracle writes them as lines).

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

/// A point cloud for hulls: grid-biased coordinates (many coplanar and collinear ties), or a
/// small grid rotated exactly by a rational quaternion and rounded to binary64.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum PointCloud {
    /// Points with grid-biased coordinates.
    Free(Vec<[Coord; 3]>),
    /// Integer points in [-2, 2]³, rotated exactly by q, then rounded.
    Rotated {
        /// The quaternion; zero is rejected.
        q: [i8; 4],
        /// The points (coordinates taken modulo 5, minus 2).
        points: Vec<[u8; 3]>,
    },
}

impl PointCloud {
    /// The points (at most 40), or `None` for a rejected input.
    pub fn points(&self) -> Option<Vec<[f64; 3]>> {
        match self {
            PointCloud::Free(p) => p.iter().take(40).map(coords).collect(),
            PointCloud::Rotated { q, points } => {
                let q = q.map(|x| BigRational::from_integer(x.into()));
                let r = Affine::from_quaternion(&q, Vector3::zeros()).ok()?;
                Some(
                    points
                        .iter()
                        .take(40)
                        .map(|c| {
                            let p: Point3<BigRational> =
                                r.apply_point(&point(c[0] as i64 % 5 - 2, c[1] as i64 % 5 - 2, c[2] as i64 % 5 - 2));
                            [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
                        })
                        .collect(),
                )
            }
        }
    }
}

/// One edit that (usually) breaks a valid mesh.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq)]
pub enum Edit {
    /// Reverse face k.
    FlipFace(u8),
    /// Remove face k.
    DropFace(u8),
    /// Duplicate face k.
    DuplicateFace(u8),
    /// Move vertex k by a grid step along an axis.
    MoveVertex(u8, u8, i8),
    /// Put vertex k onto vertex l.
    MergeVertices(u8, u8),
    /// Rotate face k's vertex list (harmless).
    RotateFace(u8),
    /// Add an unused vertex.
    AddVertex([i8; 3]),
}

/// Vertices (binary64) and faces (vertex ids).
pub type Mesh64 = (Vec<[f64; 3]>, Vec<Vec<usize>>);

/// A mesh to build a solid from: arbitrary, or a known solid with an edit.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum MeshInput {
    /// Arbitrary vertices and faces.
    Raw {
        /// Vertices.
        vertices: Vec<[Coord; 3]>,
        /// Faces as vertex ids (taken modulo 64).
        faces: Vec<Vec<u8>>,
    },
    /// A builder's solid (0 cube, 1 tetrahedron, 2 octahedron, 3 L, 4 U, 5 torus 4×3, 6
    /// sphere 4×3, 7 prism over an arbitrary polygon) with up to two edits.
    Edited {
        /// Which solid.
        kind: u8,
        /// Polygon for the prism.
        polygon: Vec<(i8, i8)>,
        /// The edits.
        edits: Vec<Edit>,
    },
}

impl MeshInput {
    /// Vertices (binary64) and faces.
    pub fn mesh(&self) -> Option<Mesh64> {
        use crate::brep::shapes;
        match self {
            MeshInput::Raw { vertices, faces } => Some((
                vertices.iter().take(64).map(coords).collect::<Option<_>>()?,
                faces.iter().take(64).map(|f| f.iter().take(16).map(|&v| (v % 64) as usize).collect()).collect(),
            )),
            MeshInput::Edited { kind, polygon, edits } => {
                let s = match kind % 8 {
                    0 => shapes::cube::<f64>(),
                    1 => shapes::tetrahedron(),
                    2 => shapes::octahedron(),
                    3 => shapes::l_shape(),
                    4 => shapes::u_shape(),
                    5 => shapes::torus(4, 3, 3.0, 1.0).ok()?,
                    6 => shapes::uv_sphere(4, 3).ok()?,
                    _ => {
                        let poly: Vec<(f64, f64)> =
                            polygon.iter().take(12).map(|&(x, y)| (x as f64, y as f64)).collect();
                        shapes::extrusion(&poly, 0.0, 1.0).ok()?
                    }
                };
                let mut v: Vec<[f64; 3]> = s.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
                let mut f: Vec<Vec<usize>> = s.faces().to_vec();
                for e in edits.iter().take(2) {
                    let (nv, nf) = (v.len(), f.len().max(1));
                    match *e {
                        Edit::FlipFace(k) if !f.is_empty() => f[k as usize % nf].reverse(),
                        Edit::DropFace(k) if !f.is_empty() => {
                            f.remove(k as usize % nf);
                        }
                        Edit::DuplicateFace(k) if !f.is_empty() => f.push(f[k as usize % nf].clone()),
                        Edit::MoveVertex(k, axis, d) => v[k as usize % nv][axis as usize % 3] += d as f64 / 4.0,
                        Edit::MergeVertices(k, l) => v[k as usize % nv] = v[l as usize % nv],
                        Edit::RotateFace(k) if !f.is_empty() => f[k as usize % nf].rotate_left(1),
                        Edit::AddVertex(c) => v.push(c.map(f64::from)),
                        _ => {}
                    }
                }
                Some((v, f))
            }
        }
    }
}

/// Two convex solids for the distance contract: see [`crate::strategies::convex_pair`].
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct ConvexPairInput {
    /// Shape, quaternion and translation (in eighths) of the first solid.
    pub a: (u8, [i8; 4], [i8; 3]),
    /// The same for the second.
    pub b: (u8, [i8; 4], [i8; 3]),
    /// Points for hull shapes.
    pub cloud: Vec<[i8; 3]>,
    /// 0: free, 1: touching by construction, 2: penetrating by construction (mod 3).
    pub placement: u8,
}

impl ConvexPairInput {
    /// The pair, built exactly and rounded to binary64 (`None` if rounding broke a solid).
    pub fn solids(&self) -> Option<(crate::brep::Solid<f64>, crate::brep::Solid<f64>)> {
        use crate::strategies::{convex_pair_on, Placement};
        let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][self.placement as usize % 3];
        let small = |(k, q, t): (u8, [i8; 4], [i8; 3])| (k, q.map(|x| x % 5), t.map(|x| x % 33));
        // Built on the fast exact backend: the same solids as `convex_pair`'s.
        let (a, b) = convex_pair_on::<crate::scalar::Exact>(small(self.a), small(self.b), &self.cloud, placement);
        Some((a.convert::<f64>().ok()?, b.convert::<f64>().ok()?))
    }
}

/// Two round shapes for the round `distance` contract (the `round_diff` target), touching by
/// construction: shape a (a ball, a capsule along its local x axis, or a rounded unit box) under
/// a quaternion of small integers and a translation in quarters; shape b (a ball, a capsule or a
/// rounded box, turned by its own quaternion) centred at a's centre plus a Pythagorean offset
/// (x, y, z; d) scaled by s, with r_a + r_b = d·s split between them, nudged by nothing or by
/// 2⁻⁵⁰ of the scale either way. Two balls touch exactly (nudged: penetrate or separate by the
/// nudge); the other kinds touch or reach nearer, which keeps the decisions near ties.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct RoundInput {
    /// a's kind (mod 3: ball, capsule, rounded box), quaternion (each mod 5 − 2) and
    /// translation (quarters, mod 33 − 16).
    pub a: (u8, [i8; 4], [i8; 3]),
    /// b's kind and quaternion.
    pub b: (u8, [i8; 4]),
    /// The Pythagorean offset (mod 6), the scale in quarters (mod 8, plus 1), a's share of the
    /// radii in quarters (mod 3, plus 1), the nudge (mod 3 − 1).
    pub fit: [u8; 4],
}

/// (x, y, z, d): x² + y² + z² = d², the offsets of [`RoundInput`].
pub const PYTHAGOREAN: [[i32; 4]; 6] =
    [[3, 4, 0, 5], [1, 2, 2, 3], [2, 3, 6, 7], [4, 4, 7, 9], [0, 0, 1, 1], [2, 6, 9, 11]];

impl RoundInput {
    /// The `distance` query on the two shapes, in binary64 (every number a small dyadic:
    /// exact).
    pub fn query(&self) -> crate::query::DistanceRound<f64> {
        use crate::query::{DistanceRound, PoseSpec, Posed, ShapeSpec};
        let [o, s, split, nudge] = self.fit;
        let [x, y, z, d] = PYTHAGOREAN[o as usize % 6];
        let s = f64::from(s % 8 + 1) / 4.0;
        let total = f64::from(d) * s;
        let ra = total * f64::from(split % 3 + 1) / 4.0;
        let rb = total - ra + f64::from(i32::from(nudge % 3) - 1) * total * 2f64.powi(-50);
        let quaternion = |q: [i8; 4]| {
            let q = q.map(|c| f64::from(c.rem_euclid(5) - 2));
            if q == [0.0; 4] {
                [1.0, 0.0, 0.0, 0.0]
            } else {
                q
            }
        };
        let shape = |kind: u8, r: f64| -> ShapeSpec<f64> {
            let made = match kind % 3 {
                0 => ShapeSpec::ball(r),
                1 => ShapeSpec::capsule(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), r),
                _ => ShapeSpec::cuboid([0.5, 0.5, 0.5]).and_then(|c| ShapeSpec::rounded(c, r)),
            };
            made.unwrap_or_else(|_| unreachable!("positive radii and extents"))
        };
        let (ka, qa, ta) = self.a;
        let t = ta.map(|c| f64::from(c.rem_euclid(33) - 16) / 4.0);
        let pose = |q: [i8; 4], t: [f64; 3]| {
            PoseSpec::quaternion(quaternion(q), t).unwrap_or_else(|_| unreachable!("a nonzero quaternion"))
        };
        let centre = [t[0] + f64::from(x) * s, t[1] + f64::from(y) * s, t[2] + f64::from(z) * s];
        let (kb, qb) = self.b;
        DistanceRound {
            a: Posed::new("a", shape(ka, ra), pose(qa, t)),
            b: Posed::new("b", shape(kb, rb), pose(qb, centre)),
        }
    }
}

/// A torus F (R = 5k, r = k about z) and a second shape touching it by construction (the
/// `round_diff` target's tori): a capsule across the top of the tube, a capsule along the axis
/// through the hole, a perpendicular torus over the circle point (3k, 4k, 0), or a linked one
/// centred there; both under one quaternion of small integers and a translation, the second
/// shape's radius nudged by nothing or 2⁻⁵⁰ of the scale either way.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct TorusInput {
    /// The second shape's kind (mod 4), the scale k (mod 4, plus 1), the nudge (mod 3 − 1).
    pub fit: [u8; 3],
    /// Whether F is shape b.
    pub swap: bool,
    /// The quaternion (each mod 5 − 2) and translation (mod 9 − 4).
    pub pose: ([i8; 4], [i8; 3]),
}

impl TorusInput {
    /// The `distance` query.
    pub fn query(&self) -> crate::query::DistanceTorus<f64> {
        use crate::query::{DistanceTorus, Posed, ShapeSpec};
        let [kind, k, nudge] = self.fit;
        let k = f64::from(k % 4 + 1);
        let tiny = f64::from(i32::from(nudge % 3) - 1) * k * 2f64.powi(-50);
        let pt = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
        let second = match kind % 4 {
            0 => ShapeSpec::capsule(pt(-7.0 * k, 0.0, 3.0 * k), pt(7.0 * k, 0.0, 3.0 * k), 2.0 * k + tiny),
            1 => ShapeSpec::capsule(pt(0.0, 0.0, -7.0 * k), pt(0.0, 0.0, 7.0 * k), 4.0 * k + tiny),
            2 => ShapeSpec::torus(
                pt(3.0 * k, 4.0 * k, 4.0 * k),
                crate::geom::Vector3::new(-4.0, 3.0, 0.0),
                2.0 * k,
                k + tiny,
            ),
            _ => ShapeSpec::torus(
                pt(3.0 * k, 4.0 * k, 0.0),
                crate::geom::Vector3::new(-4.0, 3.0, 0.0),
                2.0 * k,
                k + tiny,
            ),
        }
        .unwrap_or_else(|_| unreachable!("valid by construction"));
        let f = ShapeSpec::torus(pt(0.0, 0.0, 0.0), crate::geom::Vector3::new(0.0, 0.0, 1.0), 5.0 * k, k)
            .unwrap_or_else(|_| unreachable!("valid by construction"));
        let pose = small_pose(self.pose);
        let (a, b) = (Posed::new("a", f, pose.clone()), Posed::new("b", second, pose));
        if self.swap {
            DistanceTorus { a: b, b: a }
        } else {
            DistanceTorus { a, b }
        }
    }
}

/// A pose of small integers: a quaternion (each part mod 5 − 2; the identity for zero) and a
/// translation (each mod 9 − 4): the tori's and cylinders' common placement.
fn small_pose((q, t): ([i8; 4], [i8; 3])) -> crate::query::PoseSpec<f64> {
    let mut q = q.map(|c| f64::from(c.rem_euclid(5) - 2));
    if q == [0.0; 4] {
        q = [1.0, 0.0, 0.0, 0.0];
    }
    let t = t.map(|c| f64::from(c.rem_euclid(9) - 4));
    crate::query::PoseSpec::quaternion(q, t).unwrap_or_else(|_| unreachable!("a nonzero quaternion"))
}

/// A ball's, a capsule's or a torus's first contact with the torus F (R = 5k, r = k about z),
/// grazing by construction (the `round_diff` target's torus casts): a ball down the axis with
/// radius 4k (touching the tube's inside along a circle at the centre only), across the top
/// at height k + radius with radius k·(1 + m mod 3) (touching the top circle as it passes
/// over), or head on from the side; a vertical capsule of that radius or a torus about y
/// (R′ = k, r′ = k/2) head on from the side; the radius (down the axis, head on) or the height
/// (across) nudged by nothing or 2⁻⁵⁰ either way; speed 1 to 3; both moved by one integer
/// translation.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct TorusToiInput {
    /// The kind (mod 5), the scale k (mod 4, plus 1), the nudge (mod 3 − 1), the speed (mod
    /// 3, plus 1), m (the radius across the top and head on).
    pub fit: [u8; 5],
    /// The translation (each mod 9 − 4).
    pub shift: [i8; 3],
}

impl TorusToiInput {
    /// The `toi` query, enclosed to 2⁻⁴⁰.
    pub fn query(&self) -> crate::query::ToiTorus<f64> {
        use crate::query::{PoseSpec, Posed, ShapeSpec, Toi, ToiTorus};
        let [kind, k, nudge, speed, m] = self.fit;
        let k = f64::from(k % 4 + 1);
        let s = f64::from(speed % 3 + 1);
        let tiny = 1.0 + f64::from(i32::from(nudge % 3) - 1) * 2f64.powi(-50);
        let r = f64::from(m % 3 + 1) * k;
        let (start, velocity, radius) = match kind % 5 {
            0 => ([0.0, 0.0, 10.0 * k], [0.0, 0.0, -s], 4.0 * k * tiny),
            1 => ([-20.0 * k, 5.0 * k, (k + r) * tiny], [s, 0.0, 0.0], r),
            _ => ([20.0 * k, 0.0, 0.0], [-s, 0.0, 0.0], r * tiny),
        };
        // A vertical capsule (kind 3) or a torus about y of radius k (kind 4) head on from
        // the side: they meet the tube's outside at x = 6k + radius, x = 7.5k (minor k/2).
        let b = match kind % 5 {
            3 => ShapeSpec::capsule(Point3::new(0.0, 0.0, -k), Point3::new(0.0, 0.0, k), radius),
            4 => ShapeSpec::torus(
                Point3::new(0.0, 0.0, 0.0),
                crate::geom::Vector3::new(0.0, 1.0, 0.0),
                k,
                k / 2.0 * tiny,
            ),
            _ => ShapeSpec::ball(radius),
        }
        .unwrap_or_else(|_| unreachable!("valid by construction"));
        let t = self.shift.map(|c| f64::from(c.rem_euclid(9) - 4));
        let at = |p: [f64; 3]| {
            PoseSpec::quaternion([1.0, 0.0, 0.0, 0.0], std::array::from_fn(|i| p[i] + t[i]))
                .unwrap_or_else(|_| unreachable!("a unit quaternion"))
        };
        let f = ShapeSpec::torus(Point3::new(0.0, 0.0, 0.0), crate::geom::Vector3::new(0.0, 0.0, 1.0), 5.0 * k, k)
            .unwrap_or_else(|_| unreachable!("valid by construction"));
        ToiTorus {
            toi: Toi {
                a: Posed::new("a", f, at([0.0; 3])),
                b: Posed::new("b", b, at(start)),
                velocity_a: crate::geom::Vector3::new(0.0, 0.0, 0.0),
                velocity_b: crate::geom::Vector3::new(velocity[0], velocity[1], velocity[2]),
                interval: [0.0, 25.0 * k],
            },
            width: num_rational::BigRational::new(1.into(), (1u64 << 40).into()),
        }
    }
}

/// A cylinder (radius k·(1 + r mod 4) about z from 0 to k·(2 + h mod 5)) and a ball touching it
/// by construction (the `round_diff` target's cylinders): on cap 1, beside the side at a
/// Pythagorean (3, 4) offset, off the rim of cap 1 by (3, 4; 5), or centred inside; the ball's
/// radius nudged by nothing or 2⁻⁵⁰ of the scale either way; both under one quaternion of
/// small integers and a translation.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct CylinderInput {
    /// The place (mod 4), the scale k (mod 4, plus 1), r, h, the nudge (mod 3 − 1).
    pub fit: [u8; 5],
    /// Whether the ball is shape a.
    pub swap: bool,
    /// The quaternion (each mod 5 − 2) and translation (mod 9 − 4).
    pub pose: ([i8; 4], [i8; 3]),
}

impl CylinderInput {
    /// The `distance` query.
    pub fn query(&self) -> crate::query::DistanceCylinder<f64> {
        use crate::query::{DistanceCylinder, Posed, ShapeSpec};
        let [place, k, r, h, nudge] = self.fit;
        let k = f64::from(k % 4 + 1);
        let radius = k * f64::from(r % 4 + 1);
        let height = k * f64::from(h % 5 + 2);
        let tiny = 1.0 + f64::from(i32::from(nudge % 3) - 1) * 2f64.powi(-50);
        let (centre, s) = match place % 4 {
            0 => ([0.0, radius / 2.0, height + k], k),
            1 => ([3.0 * (radius + 5.0 * k) / 5.0, 4.0 * (radius + 5.0 * k) / 5.0, height / 2.0], 5.0 * k),
            2 => ([radius + 3.0 * k, 0.0, height + 4.0 * k], 5.0 * k),
            _ => ([0.0, radius / 2.0, height / 2.0], k),
        };
        // The ball at its pose's origin, the cylinder's ends moved by −centre: both under one
        // pose, every number exact.
        let end = |z: f64| Point3::new(-centre[0], -centre[1], z - centre[2]);
        let cylinder = ShapeSpec::cylinder(end(0.0), end(height), radius)
            .unwrap_or_else(|_| unreachable!("valid by construction"));
        let ball = ShapeSpec::ball(s * tiny).unwrap_or_else(|_| unreachable!("a positive radius"));
        let pose = small_pose(self.pose);
        let (a, b) = (Posed::new("a", cylinder, pose.clone()), Posed::new("b", ball, pose));
        if self.swap {
            DistanceCylinder { a: b, b: a }
        } else {
            DistanceCylinder { a, b }
        }
    }
}

/// One case of the `round_diff` target: a pair for `distance`, the same pair for `toi`
/// ([`RoundInput::toi_query`]), a torus pair for `distance` ([`TorusInput`]), or a ball's
/// first contact with a torus ([`TorusToiInput`]).
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum RoundCase {
    /// The pair's `distance`.
    Distance(RoundInput),
    /// The pair's first contact: b reaches its place at time `at` (mod 5) moving by `motion`
    /// (each mod 7 − 3, in halves).
    Toi {
        /// The pair as placed at time `at`.
        pair: RoundInput,
        /// b's velocity.
        motion: [i8; 3],
        /// When b is where the pair places it.
        at: u8,
    },
    /// A torus pair's `distance`.
    Torus(TorusInput),
    /// A ball's, a capsule's or a torus's first contact with a torus.
    TorusToi(TorusToiInput),
    /// A ball against a cylinder.
    Cylinder(CylinderInput),
}

impl RoundInput {
    /// The `toi` query of the pair: b placed where [`RoundInput::query`] puts it at time `at`
    /// (mod 5), moving by `motion` (each coordinate mod 7 − 3, in halves: head-on, oblique or
    /// grazing as the direction falls), on [0, 5]. So two balls touch at `at` exactly when the
    /// motion does not point away from a, and the others touch or reach nearer there.
    pub fn toi_query(&self, motion: [i8; 3], at: u8) -> crate::query::ToiRound<f64> {
        use crate::query::{PoseSpec, Toi, ToiRound};
        let d = self.query();
        let w = motion.map(|c| f64::from(c.rem_euclid(7) - 3) / 2.0);
        let at = f64::from(at % 5);
        let b = match &d.b.pose {
            PoseSpec::Quaternion { q, t } => {
                let start = [0, 1, 2].map(|i| t[i] - w[i] * at);
                crate::query::Posed { pose: PoseSpec::Quaternion { q: *q, t: start }, ..d.b.clone() }
            }
            PoseSpec::Matrix(_) => d.b.clone(),
        };
        let velocity_b = crate::geom::Vector3::new(w[0], w[1], w[2]);
        ToiRound(Toi { a: d.a, b, velocity_a: crate::geom::Vector3::zeros(), velocity_b, interval: [0.0, 5.0] })
    }
}

/// A primitive CCD case: see [`crate::strategies::degenerate_ccd`].
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct CcdInput {
    /// Edge–edge if true, else vertex–face.
    pub edge_edge: bool,
    /// The eight points (t0 then t1) in quarters, each coordinate mod 17 − 8.
    pub points: [[i8; 3]; 8],
    /// 0: free, 1: coplanar, else through a target (mod 3).
    pub construction: u8,
    /// The target (vertex or edge midpoint) and the time (0, 1/2, 1) of a `Through` case.
    pub target: u8,
    /// See `target`.
    pub when: u8,
}

impl CcdInput {
    /// The case.
    pub fn case(&self) -> (crate::sweep::CcdKind, [Point3<f64>; 4], [Point3<f64>; 4]) {
        use crate::strategies::{degenerate_ccd, CcdConstruction};
        use crate::sweep::CcdKind;
        let kind = if self.edge_edge { CcdKind::EdgeEdge } else { CcdKind::VertexFace };
        let construction = match self.construction % 3 {
            0 => CcdConstruction::Free,
            1 => CcdConstruction::Coplanar,
            _ => CcdConstruction::Through { target: self.target, when: self.when },
        };
        let points = self.points.map(|c| c.map(|x| x.rem_euclid(17) - 8));
        let (t0, t1) = degenerate_ccd(kind, points, construction);
        (kind, t0, t1)
    }
}

/// A box sweep case: see [`crate::strategies::degenerate_boxes`].
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct BoxInput {
    /// Half extents of a and b, in halves (mod 4, plus 1).
    pub half: [[u8; 3]; 2],
    /// Spin quaternions q0, q1 (coordinates mod 5 − 2), or a translation.
    pub spin: Option<([i8; 4], [i8; 4])>,
    /// Centre (halves, mod 21 − 10), velocity (halves, mod 17 − 8), acceleration (quarters,
    /// mod 9 − 4).
    pub cva: [[i8; 3]; 3],
}

impl BoxInput {
    /// The boxes in binary64 (exactly the exact ones).
    pub fn boxes(&self) -> (crate::sweep::BoxMotion<f64>, crate::sweep::BoxMotion<f64>) {
        let small = |q: [i8; 4]| q.map(|x| x.rem_euclid(5) - 2);
        let spin = self.spin.map(|(a, b)| (small(a), small(b)));
        let [c, v, a] = self.cva;
        let (c, v, a) =
            (c.map(|x| x.rem_euclid(21) - 10), v.map(|x| x.rem_euclid(17) - 8), a.map(|x| x.rem_euclid(9) - 4));
        let (ea, eb) = crate::strategies::degenerate_boxes(self.half[0], self.half[1], spin, c, v, a);
        (ea.to_f64(), eb.to_f64())
    }
}

/// One continuous-collision case for the fuzz target `sweep_diff`.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum SweepInput {
    /// Primitive CCD.
    Ccd(CcdInput),
    /// Two boxes.
    Boxes(BoxInput),
}

/// The input of the `predicates_diff` fuzz target: an `orient3d` or a side-of-plane case.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub enum PredicateCase {
    /// Four points for `orient3d`.
    Orient(FourPoints),
    /// A plane and a point for `side_of_plane`.
    Side(PlaneAndPoint),
}

impl MeshInput {}

/// Every cargo-fuzz target of the project (`fuzz/fuzz_targets/`), the one list `decode`, its
/// help and its errors use: [`replay`] decodes each one's artifacts, and
/// [`seed_corpus`](seeds::seed_corpus) makes each one's seeds. All but [`RAW_TARGET`] take a
/// typed input ([`decode`]).
pub const FUZZ_TARGETS: [&str; 11] = [
    "predicates_diff",
    "brep_build",
    "hull_diff",
    "vclip_diff",
    "sweep_diff",
    "msp_diff",
    "contact_diff",
    "round_diff",
    "forces_diff",
    "curved_diff",
    RAW_TARGET,
];

/// The target whose input is raw bytes: its artifact's lines are the query lines themselves.
pub const RAW_TARGET: &str = "oracle_parse";

/// Why a fuzz artifact has no oracle line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not one of [`FUZZ_TARGETS`].
    #[error("unknown fuzz target {0:?} (known: {known})", known = FUZZ_TARGETS.join(", "))]
    UnknownTarget(String),
    /// The bytes do not decode to the target's input (the target skips them too).
    #[error("the {target} target cannot decode these {len} bytes: {why}")]
    Undecodable {
        /// The target.
        target: String,
        /// How many bytes.
        len: usize,
        /// The decoder's reason.
        why: String,
    },
    /// The input decodes but the target rejects it before any check (not a case).
    #[error("the {0} target rejects this input before checking anything (a non-finite number, or no solid)")]
    Rejected(String),
}

/// A fuzz case as the typed queries that replay it with `touchstone` (the oracle writes them
/// as lines: `touchstone decode`, and each target's failure message). Numbers are the case's
/// binary64 values, except where the case is exact (`msp_diff`'s points: its queries are
/// exact, the solid's binary64 coordinates converted exactly).
// One value per decoded artifact or failure message: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Replay {
    /// `predicates_diff`'s four points.
    Orient3d(crate::query::Orient3d<f64>),
    /// `predicates_diff`'s plane and point.
    SideOfPlane(crate::query::SideOfPlane<f64>),
    /// `brep_build`'s mesh and `hull_diff`'s hull.
    Validate(crate::query::Validate<f64>),
    /// `vclip_diff`'s pair.
    Distance(crate::query::Distance<f64>),
    /// `round_diff`'s pair.
    DistanceRound(crate::query::DistanceRound<f64>),
    /// `round_diff`'s moving pair.
    ToiRound(crate::query::ToiRound<f64>),
    /// `round_diff`'s torus pair.
    DistanceTorus(crate::query::DistanceTorus<f64>),
    /// `toi` of a ball and a torus.
    ToiTorus(crate::query::ToiTorus<f64>),
    /// `round_diff`'s cylinder pair.
    DistanceCylinder(crate::query::DistanceCylinder<f64>),
    /// `sweep_diff`'s primitives.
    Ccd(crate::query::Ccd<f64>),
    /// `sweep_diff`'s boxes, on [0, 1].
    ToiBoxes(crate::query::ToiBoxes<f64>),
    /// `msp_diff`'s point and segment, classified against the posed solid.
    Classify(crate::query::ClassifyPoint<BigRational>, crate::query::ClassifySegment<BigRational>),
    /// `contact_diff`'s pair, with the target's ε.
    Contact(crate::query::Contact<f64>),
    /// `forces_diff`'s bodies and contacts.
    ContactForces(crate::query::ContactForces<f64>),
    /// `curved_diff`'s pair, with its truth as the claim.
    DistanceCurved(crate::query::DistanceCurved<BigRational>, crate::query::DistanceCurvedClaim),
    /// [`RAW_TARGET`]'s artifact: its own lines (UTF-8 text).
    Lines(String),
}

/// Decode `bytes` exactly as the fuzz target `target` does (libfuzzer-sys: the input type's
/// minimum size, then `arbitrary_take_rest`) and give the case as the typed queries the target
/// prints, as lines, when it fails ([`Replay`]).
///
/// ```
/// use touchstone::arbitrary::{replay, Replay};
/// // A handful of zero bytes is a valid (and degenerate) case for every target.
/// assert!(matches!(replay("hull_diff", &[0; 64]), Ok(Replay::Validate(_))));
/// assert!(replay("no_such_target", &[]).is_err());
/// ```
pub fn replay(target: &str, bytes: &[u8]) -> Result<Replay, DecodeError> {
    use crate::query::{Ccd, Distance, Orient3d, PlaneSpec, ShapeSpec, SideOfPlane, ToiBoxes, Validate};
    let rejected = || DecodeError::Rejected(target.into());
    let points = |ps: &[[f64; 3]]| ps.iter().map(|p| Point3::new(p[0], p[1], p[2])).collect::<Vec<_>>();
    let validate = |solid| Replay::Validate(Validate { solid, at: "/solid".into() });
    Ok(match target {
        "predicates_diff" => match decode::<PredicateCase>(target, bytes)? {
            PredicateCase::Orient(p) => {
                let p = points(&p.points().ok_or_else(rejected)?);
                Replay::Orient3d(Orient3d { points: [p[0], p[1], p[2], p[3]] })
            }
            PredicateCase::Side(s) => {
                let (c, q) = s.plane_and_point().ok_or_else(rejected)?;
                let plane =
                    crate::geom::Plane { normal: Vector3::new(c[0], c[1], c[2]), offset: c[3], scale: c[3].abs() };
                Replay::SideOfPlane(SideOfPlane {
                    plane: PlaneSpec::Coefficients(plane),
                    point: Point3::new(q[0], q[1], q[2]),
                })
            }
        },
        "brep_build" => {
            let (vertices, faces) = decode::<MeshInput>(target, bytes)?.mesh().ok_or_else(rejected)?;
            validate(ShapeSpec::Polyhedron { vertices: points(&vertices), faces })
        }
        "hull_diff" => {
            let cloud = decode::<PointCloud>(target, bytes)?.points().ok_or_else(rejected)?;
            validate(ShapeSpec::ConvexHull(points(&cloud)))
        }
        "vclip_diff" => {
            let (a, b) = decode::<ConvexPairInput>(target, bytes)?.solids().ok_or_else(rejected)?;
            Replay::Distance(Distance::between(&a, &b))
        }
        "round_diff" => match decode::<RoundCase>(target, bytes)? {
            RoundCase::Distance(pair) => Replay::DistanceRound(pair.query()),
            RoundCase::Toi { pair, motion, at } => Replay::ToiRound(pair.toi_query(motion, at)),
            RoundCase::Torus(pair) => Replay::DistanceTorus(pair.query()),
            RoundCase::TorusToi(cast) => Replay::ToiTorus(cast.query()),
            RoundCase::Cylinder(pair) => Replay::DistanceCylinder(pair.query()),
        },
        "sweep_diff" => match decode::<SweepInput>(target, bytes)? {
            SweepInput::Ccd(c) => {
                let (kind, t0, t1) = c.case();
                Replay::Ccd(Ccd { kind, t0, t1 })
            }
            SweepInput::Boxes(b) => {
                let (a, b) = b.boxes();
                Replay::ToiBoxes(ToiBoxes { a, b, interval: [0.0, 1.0] })
            }
        },
        "msp_diff" => {
            let case = decode::<MspInput>(target, bytes)?.case().ok_or_else(rejected)?;
            let (point_query, segment_query) = case.queries().ok_or_else(rejected)?;
            Replay::Classify(point_query, segment_query)
        }
        "contact_diff" => {
            let (a, b) = decode::<ContactInput>(target, bytes)?.solids().ok_or_else(rejected)?;
            Replay::Contact(ContactInput::query(&a, &b))
        }
        "forces_diff" => Replay::ContactForces(decode::<ForcesInput>(target, bytes)?.query()),
        "curved_diff" => {
            let case = decode::<CurvedInput>(target, bytes)?.case().ok_or_else(rejected)?;
            let claim = case.claim();
            Replay::DistanceCurved(case.query, claim)
        }
        RAW_TARGET => match std::str::from_utf8(bytes) {
            Ok(text) => Replay::Lines(text.trim_end_matches('\n').to_string()),
            Err(e) => {
                return Err(DecodeError::Undecodable { target: target.into(), len: bytes.len(), why: e.to_string() })
            }
        },
        _ => return Err(DecodeError::UnknownTarget(target.into())),
    })
}

/// Decode `bytes` as libfuzzer-sys decodes a target's input: the type's minimum size, then
/// `arbitrary_take_rest` (`target` names the target in errors).
///
/// ```
/// use touchstone::arbitrary::{decode, ContactInput, Encode};
/// let input = ContactInput { kinds: [0, 4], halves: [[1, 1, 1], [0, 0, 0]], shift: [0; 3], turn: false, rest: true, nudge: 0 };
/// assert_eq!(decode::<ContactInput>("contact_diff", &input.to_bytes()).unwrap(), input);
/// ```
pub fn decode<'a, T: Arbitrary<'a>>(target: &str, bytes: &'a [u8]) -> Result<T, DecodeError> {
    let undecodable = |why: String| DecodeError::Undecodable { target: target.into(), len: bytes.len(), why };
    if bytes.len() < T::size_hint(0).0 {
        return Err(undecodable(format!("the input is shorter than the {} bytes it needs", T::size_hint(0).0)));
    }
    T::arbitrary_take_rest(arbitrary::Unstructured::new(bytes)).map_err(|e| undecodable(e.to_string()))
}

/// A point and a segment against a nonconvex solid, for the Brep-index: an L, U, zigzag (two
/// coplanar faces facing opposite ways) or two-tooth comb prism, scaled by k/4, under a pose
/// whose quaternion has small integer parts (oblique turns such as (1, 2, 3, 4), exact
/// rationals that binary64 cannot pose exactly: the f64 path poses with rounding) and a shift
/// on a 1/8 grid; the point is a posed vertex, an edge's midpoint, a face's sample point or a
/// 1/4-grid point (exact rationals), so it lies on the boundary and on the index's cut planes
/// often; the segment runs from it to another such point.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct MspInput {
    /// Which prism.
    pub shape: u8,
    /// Scale k/4, k in 1..=8.
    pub scale: u8,
    /// The quaternion's parts, each in −3..=3 (the zero quaternion is rejected).
    pub turn: [i8; 4],
    /// The shift, in 1/8.
    pub shift: [i8; 3],
    /// How each point is chosen (vertex, edge midpoint, face point, grid) and which.
    pub pick: [(u8, u16); 2],
    /// The grid points, in 1/4 (when picked).
    pub grid: [[i8; 3]; 2],
}

/// A case of [`MspInput`]: the solid in its own coordinates (exact in binary64), its pose's
/// quaternion and shift, and two points in world coordinates (exact rationals).
#[derive(Clone, Debug)]
pub struct MspCase {
    /// The solid, unposed.
    pub solid: crate::brep::Solid<f64>,
    /// The pose's quaternion (w, x, y, z).
    pub quaternion: [i64; 4],
    /// The pose's translation.
    pub translation: [f64; 3],
    /// The point classified, and the segment's other end.
    pub points: [Point3<num_rational::BigRational>; 2],
}

impl MspCase {
    /// The case's queries: the point and the segment (from the point to the other one)
    /// classified against the solid under its pose, exactly (the solid's binary64 coordinates
    /// and translation converted exactly). `None` for a degenerate quaternion.
    pub fn queries(
        &self,
    ) -> Option<(crate::query::ClassifyPoint<BigRational>, crate::query::ClassifySegment<BigRational>)> {
        use crate::query::{ClassifyPoint, ClassifySegment, PoseSpec, Posed, ShapeSpec};
        let exact = |x: f64| BigRational::from_float(x);
        let vertices = self
            .solid
            .vertices()
            .iter()
            .map(|v| Some(Point3::new(exact(v.x)?, exact(v.y)?, exact(v.z)?)))
            .collect::<Option<Vec<_>>>()?;
        let faces = self.solid.faces().iter().map(|f| f.to_vec()).collect();
        let t = &self.translation;
        let pose = PoseSpec::quaternion(
            self.quaternion.map(BigRational::from_i64),
            [exact(t[0])?, exact(t[1])?, exact(t[2])?],
        )
        .ok()?;
        let mut solid = Posed::new("solid", ShapeSpec::Polyhedron { vertices, faces }, pose);
        solid.pose_at = "/pose".into();
        let [p, q] = &self.points;
        Some((
            ClassifyPoint { solid: solid.clone(), point: p.clone() },
            ClassifySegment { solid, segment: [p.clone(), q.clone()] },
        ))
    }
}

impl MspInput {
    /// The cases the target found on CI (2026-12-01), kept as seeds and as a regression test:
    /// chords of a zigzag's or a comb's bottom face from an edge's midpoint to the origin,
    /// under the pose (2, −1, −1, −2) shifted by (−11/8, 0, 0), which puts a vertex there.
    pub fn chords_at_the_origin() -> Vec<MspInput> {
        [(2, 7), (3, 0), (3, 1), (3, 3), (3, 7)]
            .into_iter()
            .map(|(shape, scale)| MspInput {
                shape,
                scale,
                turn: [2, -1, -1, -2],
                shift: [-11, 0, 0],
                pick: [(13, 63744), (7, 1024)],
                grid: [[4, 8, 4], [0, 0, 0]],
            })
            .collect()
    }

    /// The case, or `None` when the choice gives no valid one.
    pub fn case(&self) -> Option<MspCase> {
        use crate::brep::shapes;
        use crate::scalar::Exact;
        let base: crate::brep::Solid<f64> = match self.shape % 4 {
            0 => shapes::l_shape(),
            1 => shapes::u_shape(),
            2 => {
                let poly = [(0, 0), (2, 0), (2, 1), (4, 1), (4, 2), (1, 2), (1, 1), (0, 1)];
                shapes::extrusion(&poly.map(|(x, y)| (x as f64, y as f64)), 0.0, 1.0).ok()?
            }
            _ => shapes::comb(2).ok()?,
        };
        let k = (self.scale % 8 + 1) as f64 / 4.0;
        let solid =
            crate::brep::Solid::new(base.vertices().iter().map(|v| v * k).collect(), base.faces().to_vec()).ok()?;
        let quaternion = self.turn.map(|x| i64::from(x % 4));
        if quaternion == [0; 4] {
            return None;
        }
        let translation = self.shift.map(|x| x as f64 / 8.0);
        // Posed on the fast exact backend (the same values as on `BigRational`); the points
        // are handed over as rationals.
        let q = quaternion.map(Exact::from_i64);
        let [tx, ty, tz] = translation.map(|x| Exact::from_f64(x).ok());
        let t = Vector3::new(tx?, ty?, tz?);
        let map = Affine::from_quaternion(&q, t).ok()?;
        let exact: crate::brep::Solid<Exact> = solid.convert().ok()?;
        // A rotation and a translation keep the validated topology.
        let posed = exact.moved_decided(&map).ok()?;
        let two = Exact::from_i64(2);
        let pick = |(how, i): (u8, u16), grid: [i8; 3]| -> Option<Point3<Exact>> {
            let i = i as usize;
            let mid = |a: &Point3<Exact>, b: &Point3<Exact>| Point3::from((&a.coords + &b.coords) / two.clone());
            Some(match how % 4 {
                0 => posed.vertex(i % posed.vertex_count()).clone(),
                1 => {
                    let (a, b) = posed.edges()[i % posed.edge_count()];
                    mid(posed.vertex(a), posed.vertex(b))
                }
                2 => {
                    let f = i % posed.face_count();
                    let points = crate::msp::face_sample_points(&posed, f).ok()?;
                    points.get((i / posed.face_count()) % points.len().max(1))?.clone()
                }
                _ => Point3::from(grid.map(|x| crate::scalar::ratio::<Exact>(i64::from(x % 33), 4))),
            })
        };
        let rational = |p: Point3<Exact>| p.map(|c| c.to_big_rational());
        let points = [rational(pick(self.pick[0], self.grid[0])?), rational(pick(self.pick[1], self.grid[1])?)];
        Some(MspCase { solid, quaternion, translation, points })
    }
}

/// A pair of solids for contact analysis: boxes on the half grid, the U, the L or a
/// tetrahedron, the second under a quarter turn about z or not and shifted on the half grid,
/// or resting on the first's highest level (touching by construction). Coordinates are small
/// dyadic numbers, exact in binary64.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct ContactInput {
    /// Which solids.
    pub kinds: [u8; 2],
    /// Box half extents, in halves (1..=4).
    pub halves: [[u8; 3]; 2],
    /// The second solid's shift, in halves.
    pub shift: [i8; 3],
    /// A quarter turn about z.
    pub turn: bool,
    /// Rest the second solid on the first's highest level.
    pub rest: bool,
    /// Then lift it (or sink it, negative) by this many quarters of [`ContactInput::EPSILON`]
    /// (modulo 13, −12..=12): the `f64` pipeline's ε rules meet the exact zero tolerance.
    pub nudge: i8,
}

impl ContactInput {
    /// The ε the `f64` pipeline is asked with: 2⁻²⁰ (its quarters are exact in binary64).
    pub const EPSILON: f64 = 1.0 / 1_048_576.0;

    /// The `contact` query of two solids (in world coordinates: identity poses) with
    /// [`ContactInput::EPSILON`], as the target replays a case.
    pub fn query(a: &crate::brep::Solid<f64>, b: &crate::brep::Solid<f64>) -> crate::query::Contact<f64> {
        let crate::query::Distance { a, b } = crate::query::Distance::between(a, b);
        crate::query::Contact {
            a,
            b,
            velocity_a: None,
            velocity_b: None,
            previous: Vec::new(),
            epsilon: Some(ContactInput::EPSILON),
            step: None,
        }
    }

    /// The two solids (binary64 coordinates, exact).
    pub fn solids(&self) -> Option<(crate::brep::Solid<f64>, crate::brep::Solid<f64>)> {
        use crate::brep::shapes;
        let solid = |k: u8, h: [u8; 3]| -> Option<crate::brep::Solid<f64>> {
            let h = h.map(|x| f64::from(x % 4 + 1) / 2.0);
            Some(match k % 5 {
                0 | 1 => shapes::cuboid(h[0], h[1], h[2]).ok()?,
                2 => shapes::u_shape(),
                3 => shapes::l_shape(),
                _ => shapes::tetrahedron(),
            })
        };
        let a = solid(self.kinds[0], self.halves[0])?;
        let q = if self.turn { [1.0, 0.0, 0.0, 1.0] } else { [1.0, 0.0, 0.0, 0.0] };
        let t = Vector3::from(self.shift.map(|x| f64::from(x % 13) / 2.0));
        let mut b = solid(self.kinds[1], self.halves[1])?.transformed(&Affine::from_quaternion(&q, t).ok()?).ok()?;
        if self.rest {
            let top = a.vertices().iter().map(|p| p.z).fold(f64::NEG_INFINITY, f64::max);
            let bottom = b.vertices().iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
            let nudge = f64::from(self.nudge % 13) * Self::EPSILON / 4.0;
            b = b.transformed(&Affine::translation(Vector3::new(0.0, 0.0, top - bottom + nudge))).ok()?;
        }
        Some((a, b))
    }
}

mod curved;
mod forces;
mod seeds;
pub use curved::{check_curved, CurvedCase, CurvedInput, CURVED_PRECISION};
pub use forces::ForcesInput;
pub use seeds::{seed_corpus, Encode};
