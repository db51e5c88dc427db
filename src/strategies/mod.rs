//! Degenerate configurations with their answers known by construction, as typed queries
//! carrying the expected answer as a claim ([`Case`]): the hard cases other engines' test
//! suites and fuzzers can draw from. `touchstone gen KIND --count N --seed S` writes them as
//! oracle lines (the JSON is the oracle's: this crate has none).
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
//! [`CcdConstruction`]), [`degenerate_boxes`] (box sweeps on the half grid, translating on
//! quadratic paths or spinning by integer quaternions), [`convex_shape`] and [`posed_shape`]
//! (the closest-feature suites' solids: regular ones, an octagonal prism whose faces' Voronoi
//! regions have many cells, a grid pentagon prism; with `prop::pose` under exact rational
//! poses) and [`rational_rotation`].
//!
//! ```
//! use touchstone::strategies::{generate, Claimed, Kind, Source};
//! use touchstone::vclip::Status;
//! let cases = generate(Kind::FaceFace, 3, &mut Source::new(7));
//! assert_eq!(cases.len(), 3);
//! let Claimed::Distance(_, claim) = &cases[0].query else { panic!("a distance case") };
//! assert_eq!(claim.status, Some(Status::Touching));
//! assert_eq!(cases, generate(Kind::FaceFace, 3, &mut Source::new(7)));
//! ```

mod motions;
mod pairs;

pub use motions::{degenerate_boxes, degenerate_ccd, translating_box, CcdConstruction};
pub use pairs::{
    convex_pair, convex_pair_on, convex_shape, octagon, octagonal_prism, pair_shape, posed_shape, Placement,
    CONVEX_SHAPES,
};

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::contact::ContactStatus;
use crate::geom::{quaternion_matrix, Matrix3, Matrix4, Point3, Vector3};
use crate::query::{
    AtStart, Ccd, CcdClaim, ClaimedRegion, Contact, ContactClaim, Distance, DistanceClaim, DistanceCylinder,
    DistanceCylinderClaim, DistanceRound, DistanceRoundClaim, DistanceTorus, DistanceTorusClaim, FeatureId, PoseSpec,
    Posed, Query, ShapeSpec, Toi, ToiBoxes, ToiBoxesClaim, ToiClaim, ToiRound, ToiRoundClaim, Validate, ValidateClaim,
};
use crate::sweep::{BoxMotion, CcdKind};
use crate::vclip::Status;

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
    /// Two boxes face on face, the overlap a rectangle: touching, distance 0, the two faces
    /// realising it.
    FaceFace,
    /// Two boxes face on face as a `contact` query: touching, R_t one face/face region whose
    /// polygon is the overlap rectangle (its four corners), with the faces' normal.
    FaceOverlap,
    /// A box's top edge crossing another box's bottom edge at one point (both boxes turned by
    /// Pythagorean angles about perpendicular axes), or running along it (collinear edges):
    /// touching, distance 0, the two edges realising it.
    EdgeEdge,
    /// A box turned about x by a Pythagorean angle, its lowest edge lying on another box's top
    /// face (wholly or running off it): touching, distance 0, the face and the edge realising it.
    EdgeFace,
    /// A tetrahedron's apex strictly inside a box's top face: touching, distance 0, the face
    /// and the apex realising it.
    VertexFace,
    /// The apex inside a top edge of the box: touching, the edge and the apex.
    VertexEdge,
    /// The apex on a top corner of the box: touching, the corner and the apex.
    VertexVertex,
    /// Face on face, then apart by an exact gap g along the faces' normal (including one ulp of
    /// the coordinates' scale, 2⁻⁵² times it): separated, distance g.
    Gap,
    /// Face on face, then sunk by an exact depth d: penetrating, the penetration depth (the
    /// shortest translation that separates them) min(d, the overlaps in x and y): the
    /// Minkowski difference of two parallel boxes is a box.
    Penetration,
    /// A box falling onto a box at a constant velocity from an exact gap: the first contact at
    /// gap / speed, at the interval's end exactly, at its start (touching), or after it (no
    /// contact).
    BoxSweep,
    /// A box grazing a box (`toi_boxes`): its height over the other's top is c (t − t*)², a
    /// double root at t* (touching with zero approach speed, then leaving), sometimes at the
    /// interval's start or end.
    BoxGraze,
    /// A box falling from rest onto a box (`toi_boxes`): its height over the other's top is
    /// g − c t², so the first contact is the root √(g/c) of that polynomial, irrational unless
    /// g/c is a square; claimed truncated to 30 decimals (the oracle writes it as its exact
    /// decimal, or as a rational when g/c is a square).
    BoxFall,
    /// The public CCD benchmark's vertex–face query: a vertex crossing a still triangle's
    /// interior (or a corner or edge of it) at t* (0, 1 or between), crossing its plane once.
    CcdVertexFace,
    /// The edge–edge query: an edge moving across a still one, the two crossing at t*.
    CcdEdgeEdge,
    /// Either CCD query, vertex–face or edge–edge, drawn in turn.
    Ccd,
    /// `validate` of the convex hull of every grid point of a polytope given by inequalities
    /// (many points on each face and edge: coplanar and collinear ties everywhere): a box
    /// (8 vertices, 12 edges, 6 faces), a corner simplex (4, 6, 4), a square pyramid (5, 8, 5),
    /// an octahedron (6, 12, 8) or a triangular prism (6, 9, 5); convex.
    GridHull,
    /// A ball resting on a box's top face (its centre over the face, strictly inside):
    /// touching, distance 0 (a round `distance`).
    BallFace,
    /// A ball resting on a box's top edge: its centre (3s, 4s) from the edge in the plane
    /// across it, radius 5s: touching.
    BallEdge,
    /// A ball resting on a box's top corner: its centre (2s, 3s, 6s) from the corner, radius
    /// 7s: touching.
    BallVertex,
    /// A capsule lying on a box's top face (its core parallel to the face, over it): touching
    /// along a segment.
    CapsuleFace,
    /// A capsule parallel to a box's top edge, its core (3s, 4s) from the edge's line, radius
    /// 5s: touching along a segment.
    CapsuleEdge,
    /// Two capsules touching: crossing at right angles one over the other, or parallel side by
    /// side (a segment of closest points).
    Capsules,
    /// A ball over a box's top face by an exact gap g (down to one ulp of the coordinates'
    /// scale, 2⁻⁵² times it): separated, distance g.
    BallGap,
    /// A round shape moving at a constant velocity (`toi`): a ball or a lying capsule falling
    /// onto a box's top face, or a ball flying at a ball along a Pythagorean offset; the first
    /// contact at gap / speed, inside the interval, at its end, at its start (touching) or
    /// after it (no contact).
    RoundCast,
    /// A ball in a torus's hole, touching the tube along a whole circle: centred at the
    /// torus's centre with radius R − r, or on its axis at height h with radius √(R² + h²) − r
    /// (R, h and the root a Pythagorean triple); or the same ball shrunk by an exact gap g
    /// (down to one ulp of the scale): separated, distance g.
    TorusHole,
    /// Two tori in perpendicular planes: side by side, their cores g apart at exactly one
    /// point (touching there when g = r_a + r_b, else separated or penetrating by g − r_a −
    /// r_b); or linked, b's core through a's tube centre line so the cores are R_b apart
    /// along a whole circle (separated, touching along a circle, or penetrating).
    Tori,
    /// A ball against a cylinder (flat caps): over a cap, beside the side (along a Pythagorean
    /// direction, so the centre's distance is rational), off a rim (a Pythagorean triple of
    /// radial and axial offsets), or with its centre inside (on the axis or off it, at
    /// mid-height or nearer a cap); touching by construction, or
    /// apart or overlapping by an exact gap down to one ulp of the scale.
    BallCylinder,
}

/// Every kind with its name, in the order `gen --help` lists them.
pub const KINDS: &[(&str, Kind)] = &[
    ("face-face", Kind::FaceFace),
    ("face-overlap", Kind::FaceOverlap),
    ("edge-edge", Kind::EdgeEdge),
    ("edge-face", Kind::EdgeFace),
    ("vertex-face", Kind::VertexFace),
    ("vertex-edge", Kind::VertexEdge),
    ("vertex-vertex", Kind::VertexVertex),
    ("gap", Kind::Gap),
    ("penetration", Kind::Penetration),
    ("box-sweep", Kind::BoxSweep),
    ("box-graze", Kind::BoxGraze),
    ("box-fall", Kind::BoxFall),
    ("ccd-vertex-face", Kind::CcdVertexFace),
    ("ccd-edge-edge", Kind::CcdEdgeEdge),
    ("ccd", Kind::Ccd),
    ("grid-hull", Kind::GridHull),
    ("ball-face", Kind::BallFace),
    ("ball-edge", Kind::BallEdge),
    ("ball-vertex", Kind::BallVertex),
    ("capsule-face", Kind::CapsuleFace),
    ("capsule-edge", Kind::CapsuleEdge),
    ("capsules", Kind::Capsules),
    ("ball-gap", Kind::BallGap),
    ("round-cast", Kind::RoundCast),
    ("torus-hole", Kind::TorusHole),
    ("tori", Kind::Tori),
    ("ball-cylinder", Kind::BallCylinder),
];

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn point(v: Vector3<Q>) -> Point3<Q> {
    Point3::from(v)
}

/// One generated case: its id (`KIND/n`), and the typed query with its answer, known by
/// construction, as the claim. `touchstone gen` writes it as an oracle line.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// `face-face/0`, ...
    pub id: String,
    /// The query and its claim.
    pub query: Claimed,
}

/// A typed query with its expected answer as a claim (every op a generator produces).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // made once per case
pub enum Claimed {
    /// Closest features and distance.
    Distance(Distance, DistanceClaim),
    /// Contact regions.
    Contact(Contact, ContactClaim),
    /// Linear time of impact of two convex shapes.
    Toi(Toi, ToiClaim),
    /// First contact of two boxes under quadratic motions.
    ToiBoxes(ToiBoxes, ToiBoxesClaim),
    /// Vertex–face or edge–edge linear CCD.
    Ccd(Ccd, CcdClaim),
    /// A solid's validity and counts.
    Validate(Validate, ValidateClaim),
    /// The distance of round shapes.
    DistanceRound(DistanceRound, DistanceRoundClaim),
    /// The first contact of round shapes.
    ToiRound(ToiRound, ToiRoundClaim),
    /// The distance when a shape is a torus.
    DistanceTorus(DistanceTorus, DistanceTorusClaim),
    /// The distance of a ball and a cylinder.
    DistanceCylinder(DistanceCylinder, DistanceCylinderClaim),
}

impl Claimed {
    /// The op's name in the format.
    pub fn op(&self) -> &'static str {
        match self {
            Claimed::Distance(..) => Distance::<Q>::OP,
            Claimed::Contact(..) => Contact::<Q>::OP,
            Claimed::Toi(..) => Toi::<Q>::OP,
            Claimed::ToiBoxes(..) => ToiBoxes::<Q>::OP,
            Claimed::Ccd(..) => Ccd::<Q>::OP,
            Claimed::Validate(..) => Validate::<Q>::OP,
            Claimed::DistanceRound(..) => DistanceRound::<Q>::OP,
            Claimed::ToiRound(..) => ToiRound::<Q>::OP,
            Claimed::DistanceTorus(..) => DistanceTorus::<Q>::OP,
            Claimed::DistanceCylinder(..) => DistanceCylinder::<Q>::OP,
        }
    }
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
        let (quat, r) = rational_rotation(src);
        let t = Vector3::new(q(src.int(-64, 64), 8), q(src.int(-64, 64), 8), q(src.int(-64, 64), 8));
        Motion { quat, r, t }
    }

    /// The pose of a body whose canonical pose is (local rotation `local`, translation `at`):
    /// the composed rotation as a quaternion product and the moved translation.
    fn pose(&self, local: [i64; 4], at: &Vector3<Q>) -> PoseSpec {
        let [a1, b1, c1, d1] = self.quat;
        let [a2, b2, c2, d2] = local;
        let product = [
            a1 * a2 - b1 * b2 - c1 * c2 - d1 * d2,
            a1 * b2 + b1 * a2 + c1 * d2 - d1 * c2,
            a1 * c2 - b1 * d2 + c1 * a2 + d1 * b2,
            a1 * d2 + b1 * c2 - c1 * b2 + d1 * a2,
        ];
        let t = &self.r * at + &self.t;
        // A product of nonzero quaternions is nonzero.
        PoseSpec::Quaternion {
            q: product.map(|x| Q::from_integer(x.into())),
            t: [t.x.clone(), t.y.clone(), t.z.clone()],
        }
    }

    fn vector(&self, v: &Vector3<Q>) -> Vector3<Q> {
        &self.r * v
    }

    fn place(&self, v: &Vector3<Q>) -> Point3<Q> {
        point(&self.r * v + &self.t)
    }
}

fn boxed(h: &[Q; 3]) -> ShapeSpec {
    ShapeSpec::Box(h.clone())
}

/// Shape a and shape b with their poses.
fn pair(a: ShapeSpec, pa: PoseSpec, b: ShapeSpec, pb: PoseSpec) -> (Posed, Posed) {
    (Posed::new("a", a, pa), Posed::new("b", b, pb))
}

/// Half extents on the half grid, 1/2 to 2.
fn half(src: &mut Source) -> [Q; 3] {
    [q(src.int(1, 4), 2), q(src.int(1, 4), 2), q(src.int(1, 4), 2)]
}

/// A rational strictly between −m and m (on a 1/8 grid of m).
fn inside(src: &mut Source, m: &Q) -> Q {
    m * q(src.int(-7, 7), 8)
}

/// The highest (`top`) or lowest corners of a turned box, which are an edge: their height and
/// their vertex ids (the box's numbering: bit 0 for x > 0, bit 1 for y, bit 2 for z).
fn extreme_edge(c: &[Vector3<Q>], top: bool) -> (Q, [usize; 2]) {
    let z = c.iter().map(|v| v.z.clone());
    let h = if top { z.max() } else { z.min() }.unwrap_or_else(Q::zero);
    let ids: Vec<usize> = (0..c.len()).filter(|&k| c[k].z == h).collect();
    (h, [ids[0], ids[ids.len() - 1]])
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

/// An exact rational rotation: a quaternion with integer parts in −3..=3, not all zero, and its
/// matrix (integers over w² + x² + y² + z²: orthogonal exactly, and oblique in general, so
/// that rotated grid coordinates leave every grid and binary64 can only round them).
///
/// ```
/// use touchstone::strategies::{rational_rotation, Source};
/// let (_, r) = rational_rotation(&mut Source::new(1));
/// let one = |i: usize, j: usize| if i == j { 1 } else { 0 };
/// let product = &r * r.transpose();
/// assert!((0..3).all(|i| (0..3).all(|j| product[(i, j)] == num_rational::BigRational::from_integer(one(i, j).into()))));
/// ```
pub fn rational_rotation(src: &mut Source) -> ([i64; 4], Matrix3<Q>) {
    let quat = loop {
        let c = [src.int(-3, 3), src.int(-3, 3), src.int(-3, 3), src.int(-3, 3)];
        if c.iter().any(|&x| x != 0) {
            break c;
        }
    };
    (quat, rotation(quat))
}

fn rotation(quat: [i64; 4]) -> Matrix3<Q> {
    quaternion_matrix(&quat.map(|x| Q::from_integer(x.into()))).expect("a nonzero quaternion")
}

/// √x truncated to `digits` decimals (x ≥ 0): ⌊√(x·10^(2·digits))⌋ / 10^digits, by integer
/// square root.
fn sqrt_truncated(x: &Q, digits: u32) -> Q {
    use num_bigint::BigInt;
    let scale = BigInt::from(10).pow(digits);
    let root = ((x.numer() * &scale * &scale) / x.denom()).sqrt();
    Q::new(root, scale)
}

/// A tetrahedron whose lowest point is its apex at the origin (the other vertices 1 to 2 above).
fn apex_down(src: &mut Source) -> ShapeSpec {
    let mut pts = vec![Point3::origin()];
    for (x, y) in [(1, 0), (-1, 1), (-1, -1)] {
        let z = q(src.int(4, 8), 4);
        pts.push(Point3::new(q(x * src.int(1, 3), 2), q(y * src.int(1, 3), 2), z));
    }
    ShapeSpec::ConvexHull(pts)
}

/// One case of `kind`: a typed query with its expected answer as the claim.
pub fn case(kind: Kind, n: usize, src: &mut Source) -> Case {
    let m = Motion::draw(src);
    let id = format!("{}/{n}", KINDS.iter().find(|(_, k)| *k == kind).map_or("case", |(name, _)| name));
    let query = match kind {
        Kind::FaceFace | Kind::FaceOverlap | Kind::Gap | Kind::Penetration => on_top(kind, &m, src),
        Kind::EdgeEdge => edge_on_edge(&m, src),
        Kind::EdgeFace => edge_on_face(&m, src),
        Kind::VertexFace | Kind::VertexEdge | Kind::VertexVertex => vertex_on(kind, &m, src),
        Kind::BoxSweep => box_sweep(&m, src),
        Kind::BoxGraze | Kind::BoxFall => box_motion(kind, &m, src),
        Kind::CcdVertexFace | Kind::CcdEdgeEdge | Kind::Ccd => ccd_case(kind, &m, src),
        Kind::GridHull => grid_hull(&m, src),
        Kind::BallFace
        | Kind::BallEdge
        | Kind::BallVertex
        | Kind::CapsuleFace
        | Kind::CapsuleEdge
        | Kind::Capsules
        | Kind::BallGap => round_case(kind, &m, src),
        Kind::RoundCast => round_cast(&m, src),
        Kind::TorusHole | Kind::Tori => torus_case(kind, &m, src),
        Kind::BallCylinder => cylinder_case(&m, src),
    };
    Case { id, query }
}

/// A `distance` query.
fn distance((a, b): (Posed, Posed), claim: DistanceClaim) -> Claimed {
    Claimed::Distance(Distance { a, b }, claim)
}

/// Touching at distance 0, realised by `features`.
fn touching(features: [FeatureId; 2]) -> DistanceClaim {
    DistanceClaim {
        status: Some(Status::Touching),
        distance: Some(Q::zero()),
        features: Some(features),
        ..DistanceClaim::default()
    }
}

fn top_face() -> FeatureId {
    FeatureId::Face(vec![4, 5, 6, 7])
}

/// Boxes one on the other: faces touching, overlapping (a contact region), a gap, or sunk.
fn on_top(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let (ha, hb) = (half(src), half(src));
    // b's bottom face on a's top face, overlapping: |offset| < ha + hb in x and y.
    let ox = inside(src, &(&ha[0] + &hb[0]));
    let oy = inside(src, &(&ha[1] + &hb[1]));
    let faces = [top_face(), FeatureId::Face(vec![0, 1, 2, 3])];
    #[allow(clippy::large_enum_variant)] // one per case
    enum Expected {
        Distance(DistanceClaim),
        Contact(ContactClaim),
    }
    let (dz, claim) = match kind {
        Kind::FaceFace => (Q::zero(), Expected::Distance(touching(faces))),
        Kind::FaceOverlap => {
            // The overlap rectangle on a's top (z = ha_z), its corners moved with the
            // scene; the normal out of b toward a is down.
            let lo = |i: usize, o: &Q| (-ha[i].clone()).max(o - &hb[i]);
            let hi = |i: usize, o: &Q| ha[i].clone().min(o + &hb[i]);
            let (x, y) = ([lo(0, &ox), hi(0, &ox)], [lo(1, &oy), hi(1, &oy)]);
            let place = |x: &Q, y: &Q| m.place(&Vector3::new(x.clone(), y.clone(), ha[2].clone()));
            let points = vec![place(&x[0], &y[0]), place(&x[1], &y[0]), place(&x[1], &y[1]), place(&x[0], &y[1])];
            let normal = m.vector(&Vector3::new(Q::zero(), Q::zero(), -Q::one()));
            let [fa, fb] = faces;
            let region = ClaimedRegion { a: fa, b: fb, points: Some(points), normals: Some(vec![normal]) };
            let claim = ContactClaim { status: Some(ContactStatus::Touching), regions: Some(vec![region]) };
            (Q::zero(), Expected::Contact(claim))
        }
        Kind::Gap => {
            let scale = [&ha, &hb].iter().flat_map(|h| h.iter()).cloned().fold(Q::one(), |x, y| x.max(y));
            let g = match src.int(0, 3) {
                0 => q(1, 1 << src.int(1, 40)),
                1 => scale * q(1, 1 << 52),
                _ => q(src.int(1, 16), 16),
            };
            let claim = DistanceClaim {
                status: Some(Status::Separated),
                distance_squared: Some(&g * &g),
                features: Some(faces),
                ..DistanceClaim::default()
            };
            (g, Expected::Distance(claim))
        }
        _ => {
            let d = match src.int(0, 1) {
                0 => q(1, 1 << src.int(1, 40)),
                _ => ha[2].clone().min(hb[2].clone()) * q(src.int(1, 7), 8),
            };
            // The Minkowski difference a − b is a box of half extents ha + hb about
            // a's centre minus b's: the depth is the origin's distance to its boundary.
            let overlap = |i: usize, o: &Q| &ha[i] + &hb[i] - o.abs();
            let depth = d.clone().min(overlap(0, &ox)).min(overlap(1, &oy));
            let claim = DistanceClaim {
                status: Some(Status::Penetrating),
                intersecting: Some(true),
                depth_squared: Some(&depth * &depth),
                ..DistanceClaim::default()
            };
            (-d, Expected::Distance(claim))
        }
    };
    let at = Vector3::new(ox, oy, &ha[2] + &hb[2] + dz);
    let (a, b) = pair(boxed(&ha), m.pose(identity, &zero), boxed(&hb), m.pose(identity, &at));
    match claim {
        Expected::Contact(claim) => Claimed::Contact(
            Contact { a, b, velocity_a: None, velocity_b: None, previous: Vec::new(), epsilon: None, step: None },
            claim,
        ),
        Expected::Distance(claim) => distance((a, b), claim),
    }
}

/// Two turned boxes whose edges touch, crossing or collinear.
fn edge_on_edge(m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    // a turned about y by a Pythagorean angle: its top is an edge along y; b about x
    // (crossing: its bottom an edge along x) or about y too (collinear edges).
    let (ha, hb) = (half(src), half(src));
    let qa = [2, 0, 1, 0];
    let parallel = src.int(0, 1) == 1;
    let qb = if parallel { [2, 0, -1, 0] } else { [2, 1, 0, 0] };
    let (ca, cb) = (corners(&ha, &rotation(qa)), corners(&hb, &rotation(qb)));
    let (top, ea) = extreme_edge(&ca, true);
    let (bottom, eb) = extreme_edge(&cb, false);
    // The edges' points: a's top edge at x = xa (along y), b's bottom edge at y = yb
    // (along x) or at x = xb (along y).
    let (xa, xb) = (ca[ea[0]].x.clone(), cb[eb[0]].x.clone());
    let yb = cb[eb[0]].y.clone();
    // Cross the edges at their middles' neighbourhood: shift b so its edge meets a's.
    let shift = if parallel {
        // Along the same line x = xa, overlapping in y.
        Vector3::new(&xa - &xb, inside(src, &(&ha[1] + &hb[1])), &top - &bottom)
    } else {
        Vector3::new(&xa - &zero.x + inside(src, &hb[0]) * q(1, 2), inside(src, &ha[1]) - &yb, &top - &bottom)
    };
    let claim = touching([FeatureId::Edge(ea[0], ea[1]), FeatureId::Edge(eb[0], eb[1])]);
    distance(pair(boxed(&ha), m.pose(qa, &zero), boxed(&hb), m.pose(qb, &shift)), claim)
}

/// A turned box with an edge on the other box's top face.
fn edge_on_face(m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    // b turned about x: its lowest feature an edge along x, laid on a's top face at
    // y strictly inside it, its middle anywhere over the face's x range widened by hb.
    let (ha, hb) = (half(src), half(src));
    let qb = if src.int(0, 1) == 0 { [2, 1, 0, 0] } else { [1, -2, 0, 0] };
    let cb = corners(&hb, &rotation(qb));
    let (bottom, eb) = extreme_edge(&cb, false);
    let y = inside(src, &ha[1]) - &cb[eb[0]].y;
    let shift = Vector3::new(inside(src, &(&ha[0] + &hb[0])), y, &ha[2] - &bottom);
    let claim = touching([top_face(), FeatureId::Edge(eb[0], eb[1])]);
    distance(pair(boxed(&ha), m.pose(identity, &zero), boxed(&hb), m.pose(qb, &shift)), claim)
}

/// A square pyramid apex down on a box: on its face, an edge or a vertex.
fn vertex_on(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let ha = half(src);
    let (x, y, feature) = match kind {
        Kind::VertexFace => (inside(src, &ha[0]), inside(src, &ha[1]), top_face()),
        Kind::VertexEdge => (ha[0].clone(), inside(src, &ha[1]), FeatureId::Edge(5, 7)),
        _ => (ha[0].clone(), -ha[1].clone(), FeatureId::Vertex(5)),
    };
    let at = Vector3::new(x, y, ha[2].clone());
    let claim = touching([feature, FeatureId::Vertex(0)]);
    distance(pair(boxed(&ha), m.pose(identity, &zero), apex_down(src), m.pose(identity, &at)), claim)
}

/// Round shapes on a box (and two capsules), touching by construction through Pythagorean
/// offsets, or a ball over a face by an exact gap; the claim is the status and the exact
/// distance.
/// The claim for cores `d` apart between shapes of radii summing to `rho`: the status and,
/// d − ρ being rational, the distance.
fn torus_claim(d: &Q, rho: &Q) -> DistanceTorusClaim {
    let status = match d.cmp(rho) {
        std::cmp::Ordering::Greater => Status::Separated,
        std::cmp::Ordering::Equal => Status::Touching,
        std::cmp::Ordering::Less => Status::Penetrating,
    };
    DistanceTorusClaim {
        status: Some(status),
        intersecting: Some(status != Status::Separated),
        distance: Some((d - rho).max(Q::zero())),
        points: None,
    }
}

/// A torus-hole or tori case (see [`Kind::TorusHole`], [`Kind::Tori`]), under the case's
/// motion: the tori's axes and centres turned and moved exactly.
fn torus_case(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let identity = [1, 0, 0, 0];
    let zero = Vector3::from_element(Q::zero());
    let s = q(src.int(1, 4), 8);
    let torus = |centre: Vector3<Q>, axis: Vector3<Q>, major: Q, minor: Q| ShapeSpec::Torus {
        center: m.place(&centre),
        axis: m.vector(&axis),
        major,
        minor,
    };
    let z = Vector3::new(Q::zero(), Q::zero(), Q::one());
    // A gap: 0 (touching) most often, else down to one ulp of the scale, either way.
    fn gap(src: &mut Source, scale: &Q) -> Q {
        match src.int(0, 5) {
            0..=2 => Q::zero(),
            3 => scale * q(1, 1 << 52),
            4 => -(scale * q(1, 1 << 52)),
            _ => scale * q(src.int(-8, 8), 64),
        }
    }
    let (a, b, claim) = match kind {
        Kind::TorusHole => {
            let (p, h, k) = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (4, 3, 5)][src.int(0, 3) as usize];
            let on_axis = src.int(0, 1) == 0;
            let major = &s * q(p, 1);
            let minor = &major * q(src.int(1, 6), 8);
            let (height, core) = if on_axis { (&s * q(h, 1), &s * q(k, 1)) } else { (Q::zero(), major.clone()) };
            let g = gap(src, &core);
            let radius = &core - &minor - &g;
            let t = torus(zero.clone(), z.clone(), major, minor.clone());
            let claim = torus_claim(&core, &(&minor + &radius));
            let b = ShapeSpec::Ball(radius);
            (Posed::new("a", t, PoseSpec::identity()), Posed::new("b", b, m.pose(identity, &(&z * height))), claim)
        }
        _ => {
            let ra = &s * q(src.int(2, 6), 1);
            let y = Vector3::new(Q::zero(), Q::one(), Q::zero());
            let (centre, rb, ta, tb, core) = if src.int(0, 1) == 0 {
                // Side by side: b's circle in the xz plane, its nearest point d from a's
                // (d = r_a + r_b + g, with |g| ≤ (r_a + r_b)/8 so d > 0).
                let rb = &s * q(src.int(2, 6), 1);
                let (ta, tb) = (&ra * q(src.int(1, 7), 8), &rb * q(src.int(1, 7), 8));
                let tubes = &ta + &tb;
                let d = &tubes + gap(src, &(&tubes * q(1, 8)));
                (Vector3::new(&ra + &rb + &d, Q::zero(), Q::zero()), rb, ta, tb, d)
            } else {
                // Linked: b's circle centred on a's core in the xz plane, R_b ≤ 7R_a/8, so
                // every point of it is R_b from a's core; r_a = R_b − r_b − g.
                let rb = &ra * q(src.int(2, 7), 8);
                let tb = &rb * q(src.int(1, 4), 8);
                let ta = &rb - &tb - gap(src, &(&rb * q(1, 8)));
                (Vector3::new(ra.clone(), Q::zero(), Q::zero()), rb.clone(), ta, tb, rb)
            };
            let a = torus(zero.clone(), z.clone(), ra, ta.clone());
            let b = torus(centre, y, rb, tb.clone());
            let claim = torus_claim(&core, &(&ta + &tb));
            (Posed::new("a", a, PoseSpec::identity()), Posed::new("b", b, PoseSpec::identity()), claim)
        }
    };
    Claimed::DistanceTorus(DistanceTorus { a, b }, claim)
}

/// A ball-cylinder case (see [`Kind::BallCylinder`]): the cylinder of radius R about z from
/// 0 to H, and a ball whose centre is a rational distance d from it, with radius d − g; both
/// under the case's motion.
fn cylinder_case(m: &Motion, src: &mut Source) -> Claimed {
    let identity = [1, 0, 0, 0];
    let zero = Vector3::from_element(Q::zero());
    let s = q(src.int(1, 4), 8);
    let radius = &s * q(src.int(2, 8), 1);
    let height = &s * q(src.int(2, 12), 1);
    let (p, h, k) = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (4, 3, 5)][src.int(0, 3) as usize];
    let unit = s.clone() * q(src.int(1, 3), 1);
    // The centre and its distance d from the cylinder (0 inside: then the ball penetrates).
    let (centre, d) = match src.int(0, 3) {
        0 => {
            // Over cap 1 (or under cap 0), its foot strictly inside the cap's disc.
            let (x, y) = (inside(src, &radius) * q(1, 2), inside(src, &radius) * q(1, 2));
            let d = &unit * q(k, 1);
            if src.int(0, 1) == 0 {
                (Vector3::new(x, y, &height + &d), d)
            } else {
                (Vector3::new(x, y, -d.clone()), d)
            }
        }
        1 => {
            // Beside the side along (p, h)/k, at a height strictly between the caps.
            let d = &unit * q(k, 1);
            let rho = &radius + &d;
            let z = &height * q(src.int(1, 7), 8);
            (Vector3::new(&rho * q(p, k), &rho * q(h, k), z), d)
        }
        2 => {
            // Off the rim of cap 1: p·unit out from the rim, h·unit above the cap.
            let rho = &radius + &unit * q(p, 1);
            (Vector3::new(rho, Q::zero(), &height + &unit * q(h, 1)), &unit * q(k, 1))
        }
        _ => {
            // Inside: on the axis or off it, at mid-height (as far from one cap as from the
            // other) or nearer one cap.
            let rho = &radius * q(src.int(0, 6), 8);
            (Vector3::new(Q::zero(), rho, &height * q(src.int(1, 7), 8)), Q::zero())
        }
    };
    // The ball's radius: d − g with g = 0 (touching) most often, else down to one ulp of the
    // scale either way; inside, the radius is anything positive.
    let scale = if d.is_zero() { s.clone() } else { d.clone() };
    let g = match src.int(0, 5) {
        _ if d.is_zero() => -(&s * q(src.int(1, 8), 8)),
        0..=2 => Q::zero(),
        3 => &scale * q(1, 1 << 52),
        4 => -(&scale * q(1, 1 << 52)),
        _ => &scale * q(src.int(-8, 8), 64),
    };
    let ball = &d - &g;
    let status = match g.cmp(&Q::zero()) {
        std::cmp::Ordering::Greater => Status::Separated,
        std::cmp::Ordering::Equal => Status::Touching,
        std::cmp::Ordering::Less => Status::Penetrating,
    };
    let cylinder = ShapeSpec::Cylinder {
        a: Point3::new(Q::zero(), Q::zero(), Q::zero()),
        b: Point3::new(Q::zero(), Q::zero(), height),
        radius,
    };
    let (a, b) = pair(cylinder, m.pose(identity, &zero), ShapeSpec::Ball(ball), m.pose(identity, &centre));
    let claim = DistanceCylinderClaim {
        status: Some(status),
        intersecting: Some(status != Status::Separated),
        distance: Some(g.max(Q::zero())),
        points: None,
    };
    Claimed::DistanceCylinder(DistanceCylinder { a, b }, claim)
}

fn round_case(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let ha = half(src);
    let s = q(src.int(1, 4), 8);
    let at = |x: Q, y: Q, z: Q| Vector3::new(x, y, z);
    let capsule = |a: [Q; 3], b: [Q; 3], r: Q| ShapeSpec::Capsule {
        a: Point3::new(a[0].clone(), a[1].clone(), a[2].clone()),
        b: Point3::new(b[0].clone(), b[1].clone(), b[2].clone()),
        radius: r,
    };
    let touching = DistanceRoundClaim {
        status: Some(Status::Touching),
        distance: Some(Q::zero()),
        ..DistanceRoundClaim::default()
    };
    let (b, centre, claim) = match kind {
        Kind::BallFace => {
            let r = &s * q(src.int(1, 8), 1);
            let c = at(inside(src, &ha[0]), inside(src, &ha[1]), &ha[2] + &r);
            (ShapeSpec::Ball(r), c, touching)
        }
        Kind::BallEdge => {
            // The edge x = +hx, z = +hz (vertices 5 and 7).
            let c = at(&ha[0] + &s * q(3, 1), inside(src, &ha[1]), &ha[2] + &s * q(4, 1));
            (ShapeSpec::Ball(&s * q(5, 1)), c, touching)
        }
        Kind::BallVertex => {
            let c = at(&ha[0] + &s * q(2, 1), &ha[1] + &s * q(3, 1), &ha[2] + &s * q(6, 1));
            (ShapeSpec::Ball(&s * q(7, 1)), c, touching)
        }
        Kind::CapsuleFace => {
            // A core of half length l along x over the face, rotated in the plane by nothing.
            let r = &s * q(src.int(1, 8), 1);
            let l = inside(src, &ha[0]).abs() + q(1, 8);
            let c = at(Q::zero(), inside(src, &ha[1]), &ha[2] + &r);
            (capsule([-l.clone(), Q::zero(), Q::zero()], [l, Q::zero(), Q::zero()], r), c, touching)
        }
        Kind::CapsuleEdge => {
            let l = &ha[1] * q(src.int(1, 12), 8);
            let c = at(&ha[0] + &s * q(3, 1), Q::zero(), &ha[2] + &s * q(4, 1));
            (capsule([Q::zero(), -l.clone(), Q::zero()], [Q::zero(), l, Q::zero()], &s * q(5, 1)), c, touching)
        }
        Kind::Capsules => {
            // a: a capsule along x; b: along y (crossing) or along x (parallel), its core 2r
            // above a's, both under the case's motion.
            let r = &s * q(src.int(1, 8), 1);
            let l = q(src.int(1, 8), 4);
            let cross = src.int(0, 1) == 0;
            let a = capsule([-l.clone(), Q::zero(), Q::zero()], [l.clone(), Q::zero(), Q::zero()], r.clone());
            let (pa, pb) = (m.pose(identity, &zero), m.pose(identity, &at(Q::zero(), Q::zero(), &r * q(2, 1))));
            let b = if cross {
                capsule([Q::zero(), -l.clone(), Q::zero()], [Q::zero(), l, Q::zero()], r)
            } else {
                capsule([-l.clone(), Q::zero(), Q::zero()], [l, Q::zero(), Q::zero()], r)
            };
            let (a, b) = pair(a, pa, b, pb);
            return Claimed::DistanceRound(DistanceRound { a, b }, touching);
        }
        _ => {
            let scale = ha.iter().cloned().fold(Q::one(), |x, y| x.max(y));
            let g = match src.int(0, 3) {
                0 => q(1, 1 << src.int(1, 40)),
                1 => scale * q(1, 1 << 52),
                _ => q(src.int(1, 16), 16),
            };
            let r = &s * q(src.int(1, 8), 1);
            let c = at(inside(src, &ha[0]), inside(src, &ha[1]), &ha[2] + &r + &g);
            let claim = DistanceRoundClaim {
                status: Some(Status::Separated),
                distance: Some(g.clone()),
                distance_squared: Some(&g * &g),
                ..DistanceRoundClaim::default()
            };
            (ShapeSpec::Ball(r), c, claim)
        }
    };
    let (a, b) = pair(boxed(&ha), m.pose(identity, &zero), b, m.pose(identity, &centre));
    Claimed::DistanceRound(DistanceRound { a, b }, claim)
}

/// A round shape falling onto a box's top face or flying at a ball (see [`Kind::RoundCast`]).
fn round_cast(m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let r = q(src.int(1, 8), 8);
    let Cast { speed, t1, which, toi, gap } = Cast::draw(src);
    let (a, pose_a, b, at, v) = match src.int(0, 2) {
        shape @ (0 | 1) => {
            // Onto the top face of a box, the centre (or the whole core) over it.
            let ha = half(src);
            let b = if shape == 0 {
                ShapeSpec::Ball(r.clone())
            } else {
                let l = inside(src, &ha[0]).abs() + q(1, 8);
                ShapeSpec::Capsule {
                    a: Point3::new(-l.clone(), Q::zero(), Q::zero()),
                    b: Point3::new(l, Q::zero(), Q::zero()),
                    radius: r.clone(),
                }
            };
            let x = if shape == 0 { inside(src, &ha[0]) } else { Q::zero() };
            let at = Vector3::new(x, inside(src, &ha[1]), &ha[2] + &r + &gap);
            (boxed(&ha), m.pose(identity, &zero), b, at, Vector3::new(Q::zero(), Q::zero(), -speed))
        }
        _ => {
            // At a ball: radii splitting d·s, b flying back along the offset (x, y, z)·s.
            let [x, y, z, d] = [[3, 4, 0, 5], [1, 2, 2, 3], [2, 3, 6, 7], [4, 4, 7, 9]][src.int(0, 3) as usize];
            let s = q(src.int(1, 4), 8);
            let (ra, rb) = (&s * q(d, 1) * q(1, 4) * q(src.int(1, 3), 1), &s * q(d, 1));
            let rb = &rb - &ra;
            let o = Vector3::new(&s * q(x, 1), &s * q(y, 1), &s * q(z, 1));
            // |o|·(1 + k) at the start, closing at k·|o| per gap: o(1 + gap/(d s)) − o/(d s)·speed·t.
            let unit = |c: &Q| c / (&s * q(d, 1));
            let at = o.map(|c| &c + &unit(&c) * &gap);
            let v = o.map(|c| -(unit(&c) * &speed));
            (ShapeSpec::Ball(ra), m.pose(identity, &zero), ShapeSpec::Ball(rb), at, v)
        }
    };
    let claim = if which == 3 {
        ToiRoundClaim { collides: Some(false), ..ToiRoundClaim::default() }
    } else {
        let (collides, toi, at_start) = first_contact(toi);
        ToiRoundClaim { collides, toi, at_start, features: None }
    };
    let (a, b) = pair(a, pose_a, b, m.pose(identity, &at));
    let toi = Toi { a, b, velocity_a: zero, velocity_b: m.vector(&v), interval: [Q::zero(), t1] };
    Claimed::ToiRound(ToiRound(toi), claim)
}

/// A cast's speed, interval [0, t1] and first contact: the gap decides where the contact
/// falls: inside the interval (`which` 0), at its end (1), at its start (2: touching), or after
/// it (3: no contact).
struct Cast {
    speed: Q,
    t1: Q,
    which: i64,
    toi: Q,
    gap: Q,
}

impl Cast {
    fn draw(src: &mut Source) -> Cast {
        let speed = q(src.int(1, 8), src.int(1, 4));
        let t1 = q(src.int(1, 4), 1);
        let which = src.int(0, 3);
        let toi = match which {
            0 => &t1 * q(src.int(1, 7), 8),
            1 => t1.clone(),
            2 => Q::zero(),
            _ => &t1 + q(src.int(1, 8), 8),
        };
        let gap = &toi * &speed;
        Cast { speed, t1, which, toi, gap }
    }
}

/// Colliding at `t`, or touching at the start when `t` is zero.
fn first_contact(t: Q) -> (Option<bool>, Option<Q>, Option<AtStart>) {
    let at_start = if t.is_zero() { Some(AtStart::Touching) } else { None };
    (Some(true), Some(t), at_start)
}

/// A box falling straight onto another at constant speed (`toi`).
fn box_sweep(m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let identity = [1, 0, 0, 0];
    let (ha, hb) = (half(src), half(src));
    let ox = inside(src, &(&ha[0] + &hb[0]));
    let oy = inside(src, &(&ha[1] + &hb[1]));
    let Cast { speed, t1, which, toi, gap } = Cast::draw(src);
    let at = Vector3::new(ox, oy, &ha[2] + &hb[2] + gap);
    let v = Vector3::new(Q::zero(), Q::zero(), -speed);
    let claim = if which == 3 {
        ToiClaim { collides: Some(false), ..ToiClaim::default() }
    } else {
        let (collides, toi, at_start) = first_contact(toi);
        ToiClaim { collides, toi, at_start, features: None }
    };
    let (a, b) = pair(boxed(&ha), m.pose(identity, &zero), boxed(&hb), m.pose(identity, &at));
    let toi = Toi { a, b, velocity_a: zero, velocity_b: m.vector(&v), interval: [Q::zero(), t1] };
    Claimed::Toi(toi, claim)
}

/// A box under a quadratic motion grazing another, or falling from rest (`toi_boxes`).
fn box_motion(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let (ha, hb) = (half(src), half(src));
    let ox = inside(src, &(&ha[0] + &hb[0]));
    let oy = inside(src, &(&ha[1] + &hb[1]));
    let c = q(src.int(1, 8), src.int(1, 4));
    let h = &ha[2] + &hb[2];
    let (t1, coefficients, claim) = if kind == Kind::BoxFall {
        // From rest g above, falling as g − c t²: contact at √(g/c) (g/c ≤ 32: before t = 6).
        let g = q(src.int(1, 64), 8);
        let t1 = q(6, 1);
        let coefficients = [
            Vector3::new(ox, oy, &h + &g),
            Vector3::from_element(Q::zero()),
            Vector3::new(Q::zero(), Q::zero(), -c.clone()),
        ];
        let ratio = &g / &c;
        let claim =
            ToiBoxesClaim { collides: Some(true), toi: Some(sqrt_truncated(&ratio, 30)), ..ToiBoxesClaim::default() };
        (t1, coefficients, claim)
    } else {
        let t1 = q(src.int(1, 4), 1);
        let t_star = match src.int(0, 4) {
            0 => Q::zero(),
            1 => t1.clone(),
            _ => &t1 * q(src.int(1, 7), 8),
        };
        // b's centre: (ox, oy, h + c (t − t*)²), h = the two half heights.
        let coefficients = [
            Vector3::new(ox, oy, &h + &c * &t_star * &t_star),
            Vector3::new(Q::zero(), Q::zero(), -(q(2, 1) * &c * &t_star)),
            Vector3::new(Q::zero(), Q::zero(), c.clone()),
        ];
        let (collides, toi, at_start) = first_contact(t_star);
        (t1, coefficients, ToiBoxesClaim { collides, toi, at_start, ..ToiBoxesClaim::default() })
    };
    let matrix = |rot: bool, t: &Vector3<Q>| -> Matrix4<Q> {
        let r = |i: usize, j: usize| if rot { m.r[(i, j)].clone() } else { Q::zero() };
        let last = if rot { Q::one() } else { Q::zero() };
        Matrix4::from_fn(|i, j| match (i, j) {
            (3, 3) => last.clone(),
            (3, _) => Q::zero(),
            (_, 3) => t[i].clone(),
            _ => r(i, j),
        })
    };
    let moved = |k: usize, v: &Vector3<Q>| if k == 0 { &m.r * v + &m.t } else { &m.r * v };
    let motion_b = [0, 1, 2].map(|k| matrix(k == 0, &moved(k, &coefficients[k])));
    let motion_a = [matrix(true, &m.t), matrix(false, &zero), matrix(false, &zero)];
    let a = BoxMotion { half: ha, motion: motion_a };
    let b = BoxMotion { half: hb, motion: motion_b };
    Claimed::ToiBoxes(ToiBoxes { a, b, interval: [Q::zero(), t1] }, claim)
}

/// Vertex–face and edge–edge CCD primitives meeting at a chosen time.
fn ccd_case(kind: Kind, m: &Motion, src: &mut Source) -> Claimed {
    let zero = Vector3::from_element(Q::zero());
    let vertex_face = match kind {
        Kind::CcdVertexFace => true,
        Kind::CcdEdgeEdge => false,
        _ => src.int(0, 1) == 0,
    };
    let t_star = match src.int(0, 5) {
        0 => Q::zero(),
        1 => Q::one(),
        _ => q(src.int(1, 15), 16),
    };
    // The motion: along w, whose z part is not zero (the plane z = 0 is crossed once).
    let sign = if src.int(0, 1) == 0 { -1 } else { 1 };
    let w = Vector3::new(q(src.int(-4, 4), 2), q(src.int(-4, 4), 2), q(sign * src.int(1, 6), 2));
    let place = |v: &Vector3<Q>| m.place(v);
    // A point of the moving primitive at t = 0 and t = 1, given where it is at t*.
    let ends = |p: &Vector3<Q>, w: &Vector3<Q>| (p - w * t_star.clone(), p + w * (Q::one() - &t_star));
    let claim = CcdClaim { collides: Some(true), toi: Some(t_star.clone()) };
    let ccd = if vertex_face {
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
        let f = tri.each_ref().map(place);
        let [f0, f1, f2] = f;
        Ccd {
            kind: CcdKind::VertexFace,
            t0: [place(&v0), f0.clone(), f1.clone(), f2.clone()],
            t1: [place(&v1), f0, f1, f2],
        }
    } else {
        // The still edge from (−2,0,0) to (2,0,0); the moving one parallel to y, moving
        // along z only, crossing it at (x, 0, 0) at t*.
        let x = q(src.int(-3, 3), 2);
        let wz = Vector3::new(Q::zero(), Q::zero(), w.z.clone());
        let (a00, a01) = ends(&Vector3::new(x.clone(), q(-2, 1), Q::zero()), &wz);
        let (a10, a11) = ends(&Vector3::new(x, q(2, 1), Q::zero()), &wz);
        let b = [Vector3::new(q(-2, 1), Q::zero(), Q::zero()), Vector3::new(q(2, 1), Q::zero(), Q::zero())];
        Ccd {
            kind: CcdKind::EdgeEdge,
            t0: [place(&a00), place(&a10), place(&b[0]), place(&b[1])],
            t1: [place(&a01), place(&a11), place(&b[0]), place(&b[1])],
        }
    };
    Claimed::Ccd(ccd, claim)
}

/// A convex hull of a grid polytope (`validate`).
fn grid_hull(m: &Motion, src: &mut Source) -> Claimed {
    let n = src.int(1, 4);
    let (e, f, v) = (src.int(1, 4), src.int(1, 4), src.int(0, 4));
    let (points, counts) = grid_polytope(v as usize, n, e, f);
    let pts = points.iter().map(|&[i, j, k]| m.place(&Vector3::new(q(i, 1), q(j, 1), q(k, 1)))).collect();
    let [nv, ne, nf] = counts.map(|c| Some(c as i64));
    let claim =
        ValidateClaim { valid: Some(true), vertices: nv, edges: ne, faces: nf, convex: Some(true), euler: Some(2) };
    Claimed::Validate(Validate { solid: ShapeSpec::ConvexHull(pts), at: "/solid".into() }, claim)
}

/// How many grid polytopes [`grid_polytope`] has.
pub const GRID_POLYTOPES: usize = 5;

/// Every integer point (in lexicographic order) of grid polytope `v mod GRID_POLYTOPES`, given
/// by inequalities, and its counts of vertices, edges and faces: the box [0, n] × [0, e] ×
/// [0, f] (8, 12, 6), the corner simplex x, y, z ≥ 0, x + y + z ≤ n (4, 6, 4), the square
/// pyramid max(|x|, |y|) ≤ n − z, z ≥ 0 (5, 8, 5), the octahedron |x| + |y| + |z| ≤ n (6, 12,
/// 8), the prism x, y ≥ 0, x + y ≤ n, 0 ≤ z ≤ e (6, 9, 5). Many points lie on each face and
/// edge: coplanar and collinear ties everywhere. Sizes are at least 1.
///
/// ```
/// use touchstone::strategies::grid_polytope;
/// let (points, counts) = grid_polytope(3, 1, 1, 1);
/// assert_eq!(points.len(), 7); // the centre and six corners
/// assert_eq!(counts, [6, 12, 8]);
/// ```
pub fn grid_polytope(v: usize, n: i64, e: i64, f: i64) -> (Vec<[i64; 3]>, [usize; 3]) {
    let v = v % GRID_POLYTOPES;
    let holds = |x: i64, y: i64, z: i64| match v {
        0 => (0..=n).contains(&x) && (0..=e).contains(&y) && (0..=f).contains(&z),
        1 => x >= 0 && y >= 0 && z >= 0 && x + y + z <= n,
        2 => z >= 0 && x.abs().max(y.abs()) <= n - z,
        3 => x.abs() + y.abs() + z.abs() <= n,
        _ => x >= 0 && y >= 0 && x + y <= n && (0..=e).contains(&z),
    };
    let r = n.max(e).max(f);
    let mut points = Vec::new();
    for x in -r..=r {
        for y in -r..=r {
            for z in -r..=r {
                if holds(x, y, z) {
                    points.push([x, y, z]);
                }
            }
        }
    }
    (points, [[8, 12, 6], [4, 6, 4], [5, 8, 5], [6, 12, 8], [6, 9, 5]][v])
}

/// `count` cases of `kind` from `src`.
pub fn generate(kind: Kind, count: usize, src: &mut Source) -> Vec<Case> {
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

    /// Cases of `kind`, each a typed query with its answer as the claim.
    ///
    /// ```
    /// use proptest::prelude::*;
    /// use touchstone::strategies::{prop::cases, Claimed, Kind};
    /// use touchstone::vclip::Status;
    /// proptest!(|(c in cases(Kind::VertexEdge))| {
    ///     let Claimed::Distance(_, claim) = c.query else { panic!("a distance case") };
    ///     prop_assert_eq!(claim.status, Some(Status::Touching));
    /// });
    /// ```
    pub fn cases(kind: Kind) -> impl Strategy<Value = super::Case> {
        any::<u64>().prop_map(move |seed| case(kind, 0, &mut Source::new(seed)))
    }

    /// Poses for [`posed_shape`](super::posed_shape): an integer quaternion with parts in
    /// −3..=3 (not zero: an exact rational rotation, oblique in general) and a translation in
    /// quarters, −16..=16 per coordinate (−4 to 4). Shrinking moves the parts toward zero (the
    /// identity turn is (1, 0, 0, 0), reached as the other parts shrink).
    ///
    /// ```
    /// use proptest::prelude::*;
    /// use touchstone::strategies::{posed_shape, prop::pose};
    /// proptest!(|(p in pose())| {
    ///     prop_assert!(posed_shape(0, p.0, p.1).is_convex().unwrap());
    /// });
    /// ```
    pub fn pose() -> impl Strategy<Value = ([i64; 4], [i64; 3])> {
        (prop::array::uniform4(-3i64..=3), prop::array::uniform3(-16i64..=16))
            .prop_filter("a rotation", |(qt, _)| qt.iter().any(|&x| x != 0))
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
    /// The typed query with its claim.
    pub case: Case,
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
