//! Degenerate configurations with their answers known by construction, as oracle queries
//! carrying the expected answer as a `claim`: the hard cases other engines' test suites and
//! fuzzers can draw from (`touchstone gen KIND --count N --seed S`).
//!
//! Every case is built in a canonical frame where its answer is plain (a box on a box, an
//! apex on a face, a gap of g along z, a vertex through a triangle at t*), then the whole scene
//! is moved by one rigid motion: a
//! rotation by a quaternion with small integer parts (an exact rational rotation, oblique: its
//! coordinates are no longer on any grid) and a translation on a 1/8 grid. A rigid motion keeps
//! distances, statuses, features and times, so the canonical answer is the answer. The
//! answer is derived from the construction, never from the code under test.
//!
//! The same seed gives the same cases ([`Source`] is SplitMix64).
//!
//! The builders the tests, benches and fuzz targets share live here too, driven by small
//! integers (so `arbitrary` and proptest inputs map onto them): [`convex_pair`] (convex shapes
//! on small grids and regular solids under integer-quaternion poses, the second free, touching
//! from above or sunk: [`Placement`]), [`degenerate_ccd`] (the CCD benchmark's primitives on the
//! quarter grid, coplanar or passing exactly through a vertex or an edge midpoint:
//! [`CcdConstruction`]) and [`degenerate_boxes`] (box sweeps on the half grid, translating on
//! quadratic paths or spinning by integer quaternions).
//!
//! ```
//! use touchstone::strategies::{generate, Kind, Source};
//! let cases = generate(Kind::FaceFace, 3, &mut Source::new(7));
//! assert_eq!(cases.len(), 3);
//! assert_eq!(cases[0]["claim"]["status"], "touching");
//! assert_eq!(cases, generate(Kind::FaceFace, 3, &mut Source::new(7)));
//! ```

mod motions;
mod pairs;

pub use motions::{degenerate_boxes, degenerate_ccd, CcdConstruction};
pub use pairs::{convex_pair, pair_shape, Placement};

use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::{json, Value};

use crate::geom::{quaternion_matrix, Matrix3, Vector3};

type Q = BigRational;

/// A deterministic source of numbers (SplitMix64).
#[derive(Clone, Debug)]
pub struct Source(u64);

impl Source {
    /// The source for `seed`.
    pub fn new(seed: u64) -> Self {
        Source(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }
}

/// The kinds of case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Two boxes face on face, the overlap a rectangle: touching, distance 0.
    FaceFace,
    /// A box's top edge crossing another box's bottom edge at one point (both boxes turned by
    /// Pythagorean angles about perpendicular axes), or running along it (parallel edges):
    /// touching, distance 0.
    EdgeEdge,
    /// A tetrahedron's apex strictly inside a box's top face: touching, distance 0.
    VertexFace,
    /// The apex inside a top edge of the box: touching.
    VertexEdge,
    /// The apex on a top corner of the box: touching.
    VertexVertex,
    /// Face on face, then apart by an exact gap g along the faces' normal (including one ulp of
    /// the coordinates' scale, 2⁻⁵² times it): separated, distance g.
    Gap,
    /// Face on face, then sunk by an exact depth d: penetrating.
    Penetration,
    /// A box falling onto a box at a constant velocity from an exact gap: the first contact at
    /// gap / speed, at the interval's end exactly, at its start (touching), or after it (no
    /// contact).
    BoxSweep,
    /// A box grazing a box (`toi_boxes`): its height over the other's top is c (t − t*)², a
    /// double root at t* (touching with zero approach speed, then leaving), sometimes at the
    /// interval's start or end.
    BoxGraze,
    /// The public CCD benchmark's vertex–face query: a vertex crossing a still triangle's
    /// interior (or a corner or edge of it) at t* (0, 1 or between), crossing its plane once.
    CcdVertexFace,
    /// The edge–edge query: an edge moving across a still one, the two crossing at t*.
    CcdEdgeEdge,
    /// `validate` of the convex hull of every point of a grid box (many points on each face:
    /// coplanar ties everywhere): 8 vertices, 12 edges, 6 faces, convex.
    GridHull,
}

/// Every kind with its name, in the order `gen --help` lists them.
pub const KINDS: &[(&str, Kind)] = &[
    ("face-face", Kind::FaceFace),
    ("edge-edge", Kind::EdgeEdge),
    ("vertex-face", Kind::VertexFace),
    ("vertex-edge", Kind::VertexEdge),
    ("vertex-vertex", Kind::VertexVertex),
    ("gap", Kind::Gap),
    ("penetration", Kind::Penetration),
    ("box-sweep", Kind::BoxSweep),
    ("box-graze", Kind::BoxGraze),
    ("ccd-vertex-face", Kind::CcdVertexFace),
    ("ccd-edge-edge", Kind::CcdEdgeEdge),
    ("grid-hull", Kind::GridHull),
];

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn s(x: &Q) -> Value {
    Value::String(x.to_string())
}

fn v3(v: &Vector3<Q>) -> Value {
    json!([s(&v.x), s(&v.y), s(&v.z)])
}

/// A scene's rigid motion: a rotation with small integer quaternion parts and a shift on a 1/8
/// grid.
struct Motion {
    quat: [i64; 4],
    r: Matrix3<Q>,
    t: Vector3<Q>,
}

impl Motion {
    fn draw(src: &mut Source) -> Motion {
        let quat = loop {
            let c = [src.int(-3, 3), src.int(-3, 3), src.int(-3, 3), src.int(-3, 3)];
            if c.iter().any(|&x| x != 0) {
                break c;
            }
        };
        let r = rotation(quat);
        let t = Vector3::new(q(src.int(-64, 64), 8), q(src.int(-64, 64), 8), q(src.int(-64, 64), 8));
        Motion { quat, r, t }
    }

    /// The pose of a body whose canonical pose is (local rotation `local`, translation `at`):
    /// the composed rotation as a quaternion product and the moved translation.
    fn pose(&self, local: [i64; 4], at: &Vector3<Q>) -> Value {
        let [a1, b1, c1, d1] = self.quat;
        let [a2, b2, c2, d2] = local;
        let product = [
            a1 * a2 - b1 * b2 - c1 * c2 - d1 * d2,
            a1 * b2 + b1 * a2 + c1 * d2 - d1 * c2,
            a1 * c2 - b1 * d2 + c1 * a2 + d1 * b2,
            a1 * d2 + b1 * c2 - c1 * b2 + d1 * a2,
        ];
        let t = &self.r * at + &self.t;
        json!({"quaternion": product, "translation": v3(&t)})
    }

    fn vector(&self, v: &Vector3<Q>) -> Value {
        v3(&(&self.r * v))
    }
}

fn boxed(h: &[Q; 3]) -> Value {
    json!({"box": [s(&h[0]), s(&h[1]), s(&h[2])]})
}

/// Half extents on the half grid, 1/2 to 2.
fn half(src: &mut Source) -> [Q; 3] {
    [q(src.int(1, 4), 2), q(src.int(1, 4), 2), q(src.int(1, 4), 2)]
}

/// A rational strictly between −m and m (on a 1/8 grid of m).
fn inside(src: &mut Source, m: &Q) -> Q {
    m * q(src.int(-7, 7), 8)
}

/// The corners of the box with half extents `h` rotated by `r`.
fn corners(h: &[Q; 3], r: &Matrix3<Q>) -> Vec<Vector3<Q>> {
    (0..8)
        .map(|k| {
            let c = |i: usize| if k & (1 << i) != 0 { h[i].clone() } else { -h[i].clone() };
            r * Vector3::new(c(0), c(1), c(2))
        })
        .collect()
}

fn rotation(quat: [i64; 4]) -> Matrix3<Q> {
    quaternion_matrix(&quat.map(|x| Q::from_integer(x.into()))).expect("a nonzero quaternion")
}

/// A tetrahedron whose lowest point is its apex at the origin (the other vertices 1 to 2 above).
fn apex_down(src: &mut Source) -> Value {
    let mut pts = vec![json!(["0", "0", "0"])];
    for (x, y) in [(1, 0), (-1, 1), (-1, -1)] {
        let z = q(src.int(4, 8), 4);
        pts.push(json!([s(&q(x * src.int(1, 3), 2)), s(&q(y * src.int(1, 3), 2)), s(&z)]));
    }
    json!({"convex_hull": pts})
}

/// One case of `kind`: an oracle query line with its expected answer as `claim`.
pub fn case(kind: Kind, n: usize, src: &mut Source) -> Value {
    let m = Motion::draw(src);
    let id = format!("{}/{n}", KINDS.iter().find(|(_, k)| *k == kind).map_or("case", |(name, _)| name));
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let distance = |a: Value, pa: Value, b: Value, pb: Value, claim: Value| json!({"id": id, "op": "distance", "a": a, "pose_a": pa, "b": b, "pose_b": pb, "claim": claim});
    match kind {
        Kind::FaceFace | Kind::Gap | Kind::Penetration => {
            let (ha, hb) = (half(src), half(src));
            // b's bottom face on a's top face, overlapping: |offset| < ha + hb in x and y.
            let ox = inside(src, &(&ha[0] + &hb[0]));
            let oy = inside(src, &(&ha[1] + &hb[1]));
            let (dz, claim) = match kind {
                Kind::FaceFace => (Q::zero(), json!({"status": "touching", "distance": "0"})),
                Kind::Gap => {
                    let scale = [&ha, &hb].iter().flat_map(|h| h.iter()).cloned().fold(Q::one(), |x, y| x.max(y));
                    let g = match src.int(0, 3) {
                        0 => q(1, 1 << src.int(1, 40)),
                        1 => scale * q(1, 1 << 52),
                        _ => q(src.int(1, 16), 16),
                    };
                    let claim = json!({"status": "separated", "distance_squared": s(&(&g * &g))});
                    (g, claim)
                }
                _ => {
                    let d = match src.int(0, 1) {
                        0 => q(1, 1 << src.int(1, 40)),
                        _ => ha[2].clone().min(hb[2].clone()) * q(src.int(1, 7), 8),
                    };
                    (-d, json!({"status": "penetrating", "intersecting": true}))
                }
            };
            let at = Vector3::new(ox, oy, &ha[2] + &hb[2] + dz);
            distance(boxed(&ha), m.pose(identity, &zero), boxed(&hb), m.pose(identity, &at), claim)
        }
        Kind::EdgeEdge => {
            // a turned about y by a Pythagorean angle: its top is an edge along y; b about x
            // (crossing: its bottom an edge along x) or about y too (parallel edges).
            let (ha, hb) = (half(src), half(src));
            let qa = [2, 0, 1, 0];
            let parallel = src.int(0, 1) == 1;
            let qb = if parallel { [2, 0, -1, 0] } else { [2, 1, 0, 0] };
            let (ca, cb) = (corners(&ha, &rotation(qa)), corners(&hb, &rotation(qb)));
            let top = ca.iter().map(|v| v.z.clone()).max().expect("corners");
            let bottom = cb.iter().map(|v| v.z.clone()).min().expect("corners");
            // The edges' points: a's top edge at x = xa (along y), b's bottom edge at y = yb
            // (along x) or at x = xb (along y).
            let top_edge: Vec<&Vector3<Q>> = ca.iter().filter(|v| v.z == top).collect();
            let bottom_edge: Vec<&Vector3<Q>> = cb.iter().filter(|v| v.z == bottom).collect();
            let (xa, xb) = (top_edge[0].x.clone(), bottom_edge[0].x.clone());
            let yb = bottom_edge[0].y.clone();
            // Cross the edges at their middles' neighbourhood: shift b so its edge meets a's.
            let shift = if parallel {
                // Along the same line x = xa, overlapping in y.
                Vector3::new(&xa - &xb, inside(src, &(&ha[1] + &hb[1])), &top - &bottom)
            } else {
                Vector3::new(&xa - &zero.x + inside(src, &hb[0]) * q(1, 2), inside(src, &ha[1]) - &yb, &top - &bottom)
            };
            let claim = json!({"status": "touching", "distance": "0"});
            distance(boxed(&ha), m.pose(qa, &zero), boxed(&hb), m.pose(qb, &shift), claim)
        }
        Kind::VertexFace | Kind::VertexEdge | Kind::VertexVertex => {
            let ha = half(src);
            let (x, y) = match kind {
                Kind::VertexFace => (inside(src, &ha[0]), inside(src, &ha[1])),
                Kind::VertexEdge => (ha[0].clone(), inside(src, &ha[1])),
                _ => (ha[0].clone(), -ha[1].clone()),
            };
            let at = Vector3::new(x, y, ha[2].clone());
            let claim = json!({"status": "touching", "distance": "0"});
            distance(boxed(&ha), m.pose(identity, &zero), apex_down(src), m.pose(identity, &at), claim)
        }
        Kind::BoxSweep => {
            let (ha, hb) = (half(src), half(src));
            let ox = inside(src, &(&ha[0] + &hb[0]));
            let oy = inside(src, &(&ha[1] + &hb[1]));
            let speed = q(src.int(1, 8), src.int(1, 4));
            let t1 = q(src.int(1, 4), 1);
            // The gap decides where the contact falls: inside the interval, at its end, at its
            // start (touching), or after it.
            let which = src.int(0, 3);
            let toi = match which {
                0 => &t1 * q(src.int(1, 7), 8),
                1 => t1.clone(),
                2 => Q::zero(),
                _ => &t1 + q(src.int(1, 8), 8),
            };
            let gap = &toi * &speed;
            let at = Vector3::new(ox, oy, &ha[2] + &hb[2] + gap);
            let v = Vector3::new(Q::zero(), Q::zero(), -speed);
            let claim = if which == 3 {
                json!({"collides": false})
            } else if which == 2 {
                json!({"collides": true, "toi": "0", "at_start": "touching"})
            } else {
                json!({"collides": true, "toi": s(&toi)})
            };
            json!({"id": id, "op": "toi", "a": boxed(&ha), "pose_a": m.pose(identity, &zero), "b": boxed(&hb),
                "pose_b": m.pose(identity, &at), "velocity_b": m.vector(&v), "interval": ["0", s(&t1)], "claim": claim})
        }
        Kind::BoxGraze => {
            let (ha, hb) = (half(src), half(src));
            let ox = inside(src, &(&ha[0] + &hb[0]));
            let oy = inside(src, &(&ha[1] + &hb[1]));
            let c = q(src.int(1, 8), src.int(1, 4));
            let t1 = q(src.int(1, 4), 1);
            let t_star = match src.int(0, 4) {
                0 => Q::zero(),
                1 => t1.clone(),
                _ => &t1 * q(src.int(1, 7), 8),
            };
            // b's centre: (ox, oy, h + c (t − t*)²), h = the two half heights.
            let h = &ha[2] + &hb[2];
            let coefficients = [
                Vector3::new(ox, oy, &h + &c * &t_star * &t_star),
                Vector3::new(Q::zero(), Q::zero(), -(q(2, 1) * &c * &t_star)),
                Vector3::new(Q::zero(), Q::zero(), c.clone()),
            ];
            let matrix = |rot: bool, t: &Vector3<Q>| -> Value {
                let r = |i: usize, j: usize| if rot { m.r[(i, j)].clone() } else { Q::zero() };
                let row = |i: usize| json!([s(&r(i, 0)), s(&r(i, 1)), s(&r(i, 2)), s(&t[i])]);
                let last = if rot { "1" } else { "0" };
                json!([row(0), row(1), row(2), ["0", "0", "0", last]])
            };
            let moved = |k: usize, v: &Vector3<Q>| if k == 0 { &m.r * v + &m.t } else { &m.r * v };
            let motion_b: Vec<Value> =
                coefficients.iter().enumerate().map(|(k, v)| matrix(k == 0, &moved(k, v))).collect();
            let motion_a = vec![matrix(true, &m.t), matrix(false, &zero), matrix(false, &zero)];
            let hs = |h: &[Q; 3]| json!([s(&h[0]), s(&h[1]), s(&h[2])]);
            let claim = if t_star.is_zero() {
                json!({"collides": true, "toi": "0", "at_start": "touching"})
            } else {
                json!({"collides": true, "toi": s(&t_star)})
            };
            json!({"id": id, "op": "toi_boxes", "a": hs(&ha), "b": hs(&hb), "motion_a": motion_a, "motion_b": motion_b,
                "interval": ["0", s(&t1)], "claim": claim})
        }
        Kind::CcdVertexFace | Kind::CcdEdgeEdge => {
            let t_star = match src.int(0, 5) {
                0 => Q::zero(),
                1 => Q::one(),
                _ => q(src.int(1, 15), 16),
            };
            // The motion: along w, whose z part is not zero (the plane z = 0 is crossed once).
            let sign = if src.int(0, 1) == 0 { -1 } else { 1 };
            let w = Vector3::new(q(src.int(-4, 4), 2), q(src.int(-4, 4), 2), q(sign * src.int(1, 6), 2));
            let place = |v: &Vector3<Q>| v3(&(&m.r * v + &m.t));
            // A point of the moving primitive at t = 0 and t = 1, given where it is at t*.
            let ends = |p: &Vector3<Q>, w: &Vector3<Q>| (p - w * t_star.clone(), p + w * (Q::one() - &t_star));
            let claim = json!({"collides": true, "toi": s(&t_star)});
            if kind == Kind::CcdVertexFace {
                // The triangle (0,0,0), (4k,0,0), (0,4k,0); the vertex on it at t*: inside, on
                // an edge or at a corner.
                let k = q(src.int(1, 4), 2);
                let tri = [
                    zero.clone(),
                    Vector3::new(q(4, 1) * &k, Q::zero(), Q::zero()),
                    Vector3::new(Q::zero(), q(4, 1) * &k, Q::zero()),
                ];
                let (x, y) = match src.int(0, 3) {
                    0 => (q(1, 1), q(1, 1)),
                    1 => (q(src.int(1, 3), 1), Q::zero()),
                    2 => (Q::zero(), Q::zero()),
                    _ => (q(src.int(1, 2), 1), q(1, 1)),
                };
                let (v0, v1) = ends(&Vector3::new(x * &k, y * &k, Q::zero()), &w);
                let f: Vec<Value> = tri.iter().map(place).collect();
                json!({"id": id, "op": "ccd", "kind": "vertex_face",
                    "t0": [place(&v0), f[0], f[1], f[2]], "t1": [place(&v1), f[0], f[1], f[2]], "claim": claim})
            } else {
                // The still edge from (−2,0,0) to (2,0,0); the moving one parallel to y, moving
                // along z only, crossing it at (x, 0, 0) at t*.
                let x = q(src.int(-3, 3), 2);
                let wz = Vector3::new(Q::zero(), Q::zero(), w.z.clone());
                let (a00, a01) = ends(&Vector3::new(x.clone(), q(-2, 1), Q::zero()), &wz);
                let (a10, a11) = ends(&Vector3::new(x, q(2, 1), Q::zero()), &wz);
                let b = [Vector3::new(q(-2, 1), Q::zero(), Q::zero()), Vector3::new(q(2, 1), Q::zero(), Q::zero())];
                json!({"id": id, "op": "ccd", "kind": "edge_edge",
                    "t0": [place(&a00), place(&a10), place(&b[0]), place(&b[1])],
                    "t1": [place(&a01), place(&a11), place(&b[0]), place(&b[1])], "claim": claim})
            }
        }
        Kind::GridHull => {
            let n = [src.int(1, 4), src.int(1, 4), src.int(1, 4)];
            let mut pts = Vec::new();
            for i in 0..=n[0] {
                for j in 0..=n[1] {
                    for k in 0..=n[2] {
                        let p = Vector3::new(q(i, 1), q(j, 1), q(k, 1));
                        pts.push(v3(&(&m.r * p + &m.t)));
                    }
                }
            }
            json!({"id": id, "op": "validate", "solid": {"convex_hull": pts},
                "claim": {"valid": true, "vertices": 8, "edges": 12, "faces": 6, "convex": true, "euler": 2}})
        }
    }
}

/// `count` cases of `kind` from `src`.
pub fn generate(kind: Kind, count: usize, src: &mut Source) -> Vec<Value> {
    (0..count).map(|n| case(kind, n, src)).collect()
}

/// The kind named `name`.
pub fn kind_named(name: &str) -> Option<Kind> {
    KINDS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
}

/// The cases as proptest strategies (feature `proptest`).
///
/// A case is drawn from a seed, and every seed gives a case of the same kind: shrinking moves
/// to smaller seeds and keeps the degeneracy (a shrunk face-on-face case is still face on face,
/// with its answer in its claim).
#[cfg(feature = "proptest")]
pub mod prop {
    use super::{case, Kind, Source};
    use proptest::prelude::*;

    /// Cases of `kind`, each an oracle query with its answer as `claim`.
    ///
    /// ```
    /// use proptest::prelude::*;
    /// use touchstone::strategies::{prop::cases, Kind};
    /// proptest!(|(c in cases(Kind::VertexEdge))| {
    ///     prop_assert_eq!(&c["claim"]["status"], "touching");
    /// });
    /// ```
    pub fn cases(kind: Kind) -> impl Strategy<Value = serde_json::Value> {
        any::<u64>().prop_map(move |seed| case(kind, 0, &mut Source::new(seed)))
    }
}

/// A case as a quickcheck value (feature `quickcheck`): its kind, the seed it was drawn from,
/// and the query with its answer as `claim`. Shrinking moves to smaller seeds of the same kind.
#[cfg(feature = "quickcheck")]
#[derive(Clone, Debug)]
pub struct Generated {
    /// The kind.
    pub kind: Kind,
    /// The seed.
    pub seed: u64,
    /// The query line with its `claim`.
    pub case: Value,
}

#[cfg(feature = "quickcheck")]
impl Generated {
    /// The case of `kind` drawn from `seed`.
    pub fn new(kind: Kind, seed: u64) -> Self {
        Generated { kind, seed, case: case(kind, 0, &mut Source::new(seed)) }
    }
}

#[cfg(feature = "quickcheck")]
impl quickcheck::Arbitrary for Generated {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let kind = g.choose(KINDS).map_or(Kind::FaceFace, |(_, k)| *k);
        Generated::new(kind, u64::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let kind = self.kind;
        Box::new(self.seed.shrink().map(move |s| Generated::new(kind, s)))
    }
}
