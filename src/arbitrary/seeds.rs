//! Seed corpora for the fuzz targets, made by the strategies' constructions: each seed is a
//! degenerate case (touching and sunk pairs of every shape, coplanar and through-a-vertex CCD
//! motions, grid polytopes' points, edited solids, points on an index's cut planes) written
//! as the bytes the target's `arbitrary` decoding reads back into that very case.
//!
//! The byte layout is `arbitrary` 1.x's, as libfuzzer-sys decodes a target's input
//! (`arbitrary_take_rest`): integers little-endian in their own width, `bool` as a byte's low
//! bit, an enum's variant i of n as a `u32` x with ⌊x·n / 2³²⌋ = i before its fields, an
//! `Option` as a `bool` then the value, a `Vec` as a `true` byte before each element and a
//! `false` after the last; and in the last field's place (`arbitrary_take_rest`) an array is
//! decoded whole and then its last element again, from the bytes after it. [`Encode`] writes
//! it; every seed is decoded back and compared before it is given out.

use super::{
    BoxInput, CcdInput, ContactInput, ConvexPairInput, Coord, CurvedInput, CylinderInput, DecodeError, Edit,
    ForcesInput, FourPoints, MeshInput, MspInput, PlaneAndPoint, PointCloud, PredicateCase, RoundCase, RoundInput,
    SweepInput, TorusInput, TorusToiInput, FUZZ_TARGETS,
};
use crate::strategies::{grid_polytope, rational_rotation, Source};

/// A value written as the bytes `arbitrary` decodes back into it.
pub trait Encode {
    /// Append the bytes; `rest`: the value is decoded by `arbitrary_take_rest` (the input's
    /// last field, or the last field of that), which for an array decodes the whole array and
    /// then its last element again from the bytes after it.
    fn write(&self, out: &mut Vec<u8>, rest: bool);

    /// The bytes of a whole fuzz input (decoded by `arbitrary_take_rest`).
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out, true);
        out
    }
}

macro_rules! encode_le {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn write(&self, out: &mut Vec<u8>, _: bool) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
encode_le!(u8, i8, u16, i16, u32, u64);

impl Encode for bool {
    fn write(&self, out: &mut Vec<u8>, _: bool) {
        out.push(u8::from(*self));
    }
}

impl Encode for f64 {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        self.to_bits().write(out, rest);
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        self.iter().for_each(|x| x.write(out, false));
        if let (true, Some(last)) = (rest, self.last()) {
            last.write(out, true);
        }
    }
}

impl<T: Encode + ?Sized> Encode for &T {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (**self).write(out, rest);
    }
}

impl<A: Encode, B: Encode> Encode for (A, B) {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        self.0.write(out, false);
        self.1.write(out, rest);
    }
}

impl<A: Encode, B: Encode, C: Encode> Encode for (A, B, C) {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        self.0.write(out, false);
        self.1.write(out, false);
        self.2.write(out, rest);
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn write(&self, out: &mut Vec<u8>, _: bool) {
        for x in self {
            true.write(out, false);
            x.write(out, false);
        }
        false.write(out, false);
    }
}

impl<T: Encode> Encode for Option<T> {
    fn write(&self, out: &mut Vec<u8>, _: bool) {
        self.is_some().write(out, false);
        if let Some(x) = self {
            x.write(out, false);
        }
    }
}

/// Variant `i` of an enum of `n` (the least `u32` x with ⌊x·n / 2³²⌋ = i), then its fields.
fn variant(i: u64, n: u64, fields: impl Encode, out: &mut Vec<u8>, rest: bool) {
    ((i << 32).div_ceil(n) as u32).write(out, false);
    fields.write(out, rest);
}

impl Encode for Coord {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            Coord::Grid(i) => variant(0, 3, i, out, rest),
            Coord::Dyadic(m, k) => variant(1, 3, (m, k), out, rest),
            Coord::Any(x) => variant(2, 3, x, out, rest),
        }
    }
}

impl Encode for FourPoints {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            FourPoints::Free(p) => variant(0, 3, p, out, rest),
            FourPoints::Coplanar { abc, s, t } => variant(1, 3, (abc, s, t), out, rest),
            FourPoints::Rotated { q, xy, h } => variant(2, 3, (q, xy, h), out, rest),
        }
    }
}

impl Encode for PlaneAndPoint {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            PlaneAndPoint::Free(c, p) => variant(0, 2, (c, p), out, rest),
            PlaneAndPoint::Through { abc, st, offset } => variant(1, 2, (abc, st, offset), out, rest),
        }
    }
}

impl Encode for PredicateCase {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            PredicateCase::Orient(p) => variant(0, 2, p, out, rest),
            PredicateCase::Side(s) => variant(1, 2, s, out, rest),
        }
    }
}

impl Encode for PointCloud {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            PointCloud::Free(p) => variant(0, 2, p, out, rest),
            PointCloud::Rotated { q, points } => variant(1, 2, (q, points), out, rest),
        }
    }
}

impl Encode for Edit {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            Edit::FlipFace(k) => variant(0, 7, k, out, rest),
            Edit::DropFace(k) => variant(1, 7, k, out, rest),
            Edit::DuplicateFace(k) => variant(2, 7, k, out, rest),
            Edit::MoveVertex(k, a, d) => variant(3, 7, (k, a, d), out, rest),
            Edit::MergeVertices(k, l) => variant(4, 7, (k, l), out, rest),
            Edit::RotateFace(k) => variant(5, 7, k, out, rest),
            Edit::AddVertex(c) => variant(6, 7, c, out, rest),
        }
    }
}

impl Encode for MeshInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            MeshInput::Raw { vertices, faces } => variant(0, 2, (vertices, faces), out, rest),
            MeshInput::Edited { kind, polygon, edits } => variant(1, 2, (kind, polygon, edits), out, rest),
        }
    }
}

impl Encode for ConvexPairInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        ((&self.a, &self.b), (&self.cloud, &self.placement)).write(out, rest);
    }
}

impl Encode for ForcesInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        self.scene.write(out, false);
        self.half.write(out, false);
        for x in [self.mass, self.turn, self.slope, self.friction, self.slide, self.extra] {
            x.write(out, false);
        }
        self.offset.write(out, false);
        self.static_speed.write(out, rest);
    }
}

impl Encode for RoundInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.a, &self.b, &self.fit).write(out, rest);
    }
}

impl Encode for CurvedInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.fit, &self.nudge, &self.pose).write(out, rest);
    }
}

impl Encode for TorusInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.fit, &self.swap, &self.pose).write(out, rest);
    }
}

impl Encode for TorusToiInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.fit, &self.shift).write(out, rest);
    }
}

impl Encode for CylinderInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.fit, &self.swap, &self.pose).write(out, rest);
    }
}

impl Encode for RoundCase {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            RoundCase::Distance(pair) => variant(0, 5, pair, out, rest),
            RoundCase::Toi { pair, motion, at } => variant(1, 5, (pair, motion, at), out, rest),
            RoundCase::Torus(pair) => variant(2, 5, pair, out, rest),
            RoundCase::TorusToi(cast) => variant(3, 5, cast, out, rest),
            RoundCase::Cylinder(pair) => variant(4, 5, pair, out, rest),
        }
    }
}

impl Encode for CcdInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        ((&self.edge_edge, &self.points, &self.construction), (&self.target, &self.when)).write(out, rest);
    }
}

impl Encode for BoxInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        (&self.half, &self.spin, &self.cva).write(out, rest);
    }
}

impl Encode for SweepInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        match self {
            SweepInput::Ccd(c) => variant(0, 2, c, out, rest),
            SweepInput::Boxes(b) => variant(1, 2, b, out, rest),
        }
    }
}

impl Encode for MspInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        ((&self.shape, &self.scale, &self.turn), (&self.shift, &self.pick, &self.grid)).write(out, rest);
    }
}

impl Encode for ContactInput {
    fn write(&self, out: &mut Vec<u8>, rest: bool) {
        ((&self.kinds, &self.halves, &self.shift), (&self.turn, &self.rest, &self.nudge)).write(out, rest);
    }
}

/// The bytes of `value`, checked to decode (as libfuzzer-sys decodes a target's input) back
/// to `value`.
fn checked<T: Encode + PartialEq + std::fmt::Debug + for<'a> arbitrary::Arbitrary<'a>>(
    target: &str,
    value: &T,
) -> Result<Vec<u8>, DecodeError> {
    let bytes = value.to_bytes();
    let back = super::decode::<T>(target, &bytes)?;
    if &back != value {
        return Err(DecodeError::Undecodable {
            target: target.into(),
            len: bytes.len(),
            why: format!("the encoding of {value:?} decodes to {back:?}"),
        });
    }
    Ok(bytes)
}

/// Three integers in `lo..=hi`.
fn tri(src: &mut Source, lo: i64, hi: i64) -> [i8; 3] {
    [0; 3].map(|_: i32| src.int(lo, hi) as i8)
}

/// Three half extents' codes, 0..=3.
fn halves(src: &mut Source) -> [u8; 3] {
    [0; 3].map(|_: i32| src.int(0, 3) as u8)
}

/// A small quaternion from the strategies' exact rational rotations (parts in −3..=3).
fn turn(src: &mut Source) -> [i8; 4] {
    rational_rotation(src).0.map(|x| x as i8)
}

/// Quaternions whose rotations are exact in binary64 (|q|² a power of two: the matrix's
/// entries are 0 and ±1): a pair of solids on the grid stays exactly planar when rounded,
/// which the `vclip_diff` target needs of its input (it rejects a pair rounding broke).
const EXACT_TURNS: [[i8; 4]; 8] =
    [[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 0, 1], [1, 1, 1, 1], [1, -1, 1, -1], [0, 1, 0, 0], [0, 0, 1, 1]];

/// Every integer point of one of the strategies' grid polytopes ([`grid_polytope`], as in
/// `gen grid-hull`), sized to lie in [−2, 2]³ (at most 40 points, the hull targets' limit).
fn polytope_points(v: usize) -> Vec<[i8; 3]> {
    grid_polytope(v, 2, 1, 2).0.iter().map(|p| p.map(|x| x as i8)).collect()
}

/// The seed corpus of fuzz target `target`: named inputs, each a degenerate case by
/// construction (see the module docs). `oracle_parse` takes raw JSON lines (its seeds are
/// `touchstone gen` output, which the oracle writes) and has none here.
///
/// ```
/// use touchstone::arbitrary::{replay, seed_corpus, Replay};
/// let seeds = seed_corpus("vclip_diff").unwrap();
/// assert!(seeds.len() >= 100);
/// // Each decodes to its case: here two solids touching by construction.
/// let (name, bytes) = &seeds[1];
/// assert!(name.contains("touching"), "{name}");
/// assert!(matches!(replay("vclip_diff", bytes), Ok(Replay::Distance(_))));
/// ```
pub fn seed_corpus(target: &str) -> Result<Vec<(String, Vec<u8>)>, DecodeError> {
    if !FUZZ_TARGETS.contains(&target) {
        return Err(DecodeError::UnknownTarget(target.into()));
    }
    let mut src = Source::new(0x5EED_2026);
    let mut seeds: Vec<(String, Vec<u8>)> = Vec::new();
    // Each seed is checked to decode back to the very value it was made from.
    match target {
        "predicates_diff" => predicates(target, &mut src, &mut seeds)?,
        "brep_build" => meshes(target, &mut seeds)?,
        "hull_diff" => hulls(target, &mut src, &mut seeds)?,
        "vclip_diff" => convex_pairs(target, &mut src, &mut seeds)?,
        "sweep_diff" => sweeps(target, &mut src, &mut seeds)?,
        "msp_diff" => index_cases(target, &mut src, &mut seeds)?,
        "contact_diff" => contact_pairs(target, &mut src, &mut seeds)?,
        "round_diff" => round_pairs(target, &mut src, &mut seeds)?,
        "forces_diff" => force_cases(target, &mut src, &mut seeds)?,
        "curved_diff" => curved_cases(target, &mut src, &mut seeds)?,
        // The raw target's seeds are oracle lines, which the oracle writes
        // (`touchstone_oracle::encode::seed_corpus`).
        _ => {}
    }
    Ok(seeds)
}

/// Balls touching balls and the torus by construction, and nudged by 2⁻⁶ either way, under
/// turned poses.
fn curved_cases(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for kind in 0..2u8 {
        for k in 0..4u8 {
            for sign in 0..3u8 {
                let input = CurvedInput {
                    fit: [kind, k, src.int(0, 5) as u8, src.int(0, 2) as u8],
                    nudge: (sign, 2),
                    pose: (turn(src), tri(src, -8, 8)),
                };
                let how = ["closer", "touching", "apart"][sign as usize];
                let what = ["balls", "torus"][kind as usize];
                add(format!("{what}-{k}-{how}"), checked(target, &input)?);
            }
        }
    }
    Ok(())
}

/// Coplanar points, rotated planes, points through a plane.
fn predicates(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for k in 0..16u8 {
        let mut g = || [0, 1, 2].map(|_| Coord::Grid(src.int(-4, 4) as i8));
        let abc = [g(), g(), g()];
        let s = (src.int(-8, 8) as i8, src.int(0, 6) as u8);
        let t = (src.int(-8, 8) as i8, src.int(0, 6) as u8);
        add(format!("coplanar-{k:02}"), checked(target, &PredicateCase::Orient(FourPoints::Coplanar { abc, s, t }))?);
        let q = turn(src);
        let xy = [0; 4].map(|_: i32| [src.int(-5, 5) as i8, src.int(-5, 5) as i8]);
        let h = src.int(-3, 3) as i8;
        add(
            format!("rotated-plane-{k:02}"),
            checked(target, &PredicateCase::Orient(FourPoints::Rotated { q, xy, h }))?,
        );
        let abc = [0; 3].map(|_: i32| tri(src, -4, 4));
        let st = [src.int(-3, 3) as i8, src.int(-3, 3) as i8];
        // On the plane, or off it by 2⁻²⁰ of the normal.
        let offset = if k % 2 == 0 { (0, 0) } else { (1, 20) };
        add(
            format!("through-{k:02}"),
            checked(target, &PredicateCase::Side(PlaneAndPoint::Through { abc, st, offset }))?,
        );
    }
    Ok(())
}

/// Every shape under every edit of a mesh.
fn meshes(target: &str, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    let edits = [
        None,
        Some(Edit::FlipFace(1)),
        Some(Edit::DropFace(2)),
        Some(Edit::DuplicateFace(0)),
        Some(Edit::MoveVertex(3, 2, 1)),
        Some(Edit::MergeVertices(0, 1)),
        Some(Edit::RotateFace(4)),
        Some(Edit::AddVertex([1, 1, 1])),
    ];
    let octagon: Vec<(i8, i8)> = crate::strategies::octagon()
        .iter()
        .map(|(x, y)| (x.to_integer().try_into().unwrap_or(0), y.to_integer().try_into().unwrap_or(0)))
        .collect();
    for kind in 0..8u8 {
        for (k, e) in edits.iter().enumerate() {
            let polygon = if kind == 7 { octagon.clone() } else { Vec::new() };
            let m = MeshInput::Edited { kind, polygon, edits: e.iter().copied().collect() };
            add(format!("solid{kind}-edit{k}"), checked(target, &m)?);
        }
    }
    Ok(())
}

/// The grid polytopes, turned and on the grid.
fn hulls(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for v in 0..5 {
        for k in 0..2 {
            let points = polytope_points(v).iter().map(|p| p.map(|x| (x + 2) as u8)).collect();
            add(format!("polytope{v}-turn{k}"), checked(target, &PointCloud::Rotated { q: turn(src), points })?);
        }
        let grid = polytope_points(v).iter().map(|p| p.map(Coord::Grid)).collect();
        add(format!("polytope{v}-grid"), checked(target, &PointCloud::Free(grid))?);
    }
    Ok(())
}

/// Convex pairs of every shape, free, touching and sunk.
fn convex_pairs(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    let cloud: Vec<[i8; 3]> = polytope_points(2).iter().map(|p| p.map(|x| x + 2)).collect();
    for ka in 0..6u8 {
        for kb in 0..6u8 {
            for (placement, how) in [(0u8, "free"), (1, "touching"), (2, "sunk")] {
                let (ta, tb) = (tri(src, -16, 16), tri(src, -16, 16));
                let mut exact_turn = || EXACT_TURNS[src.int(0, 7) as usize];
                let input = ConvexPairInput {
                    a: (ka, exact_turn(), ta),
                    b: (kb, exact_turn(), tb),
                    cloud: cloud.clone(),
                    placement,
                };
                add(format!("{ka}-{kb}-{how}"), checked(target, &input)?);
            }
        }
    }
    Ok(())
}

/// Round shapes of every kind pair at every Pythagorean offset, touching and nudged 2⁻⁵⁰
/// either way.
fn round_pairs(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for ka in 0..3u8 {
        for kb in 0..3u8 {
            for offset in 0..6u8 {
                let nudge = src.int(0, 2) as u8;
                let input = RoundInput {
                    a: (ka, turn(src), tri(src, -16, 16)),
                    b: (kb, turn(src)),
                    fit: [offset, src.int(0, 7) as u8, src.int(0, 2) as u8, nudge],
                };
                let how = ["closer", "touching", "apart"][nudge as usize];
                // The pair at rest, then b moving into its place at t = 2 along a direction
                // drawn from the source.
                let motion = tri(src, -3, 3);
                add(format!("{ka}-{kb}-{offset}-{how}"), checked(target, &RoundCase::Distance(input.clone()))?);
                let toi = RoundCase::Toi { pair: input, motion, at: 2 };
                add(format!("toi-{ka}-{kb}-{offset}-{how}"), checked(target, &toi)?);
            }
        }
    }
    // Tori: every kind, touching and nudged either way.
    for kind in 0..4u8 {
        for nudge in 0..3u8 {
            let input = TorusInput {
                fit: [kind, src.int(0, 3) as u8, nudge],
                swap: src.int(0, 1) == 1,
                pose: (turn(src), tri(src, -4, 4)),
            };
            let how = ["closer", "touching", "apart"][nudge as usize];
            add(format!("torus-{kind}-{how}"), checked(target, &RoundCase::Torus(input))?);
        }
    }
    // Balls, capsules and tori cast at a torus: every kind, touching and nudged either way.
    for kind in 0..5u8 {
        for nudge in 0..3u8 {
            let input = TorusToiInput {
                fit: [kind, src.int(0, 3) as u8, nudge, src.int(0, 2) as u8, src.int(0, 2) as u8],
                shift: tri(src, -4, 4),
            };
            let how = ["closer", "touching", "apart"][nudge as usize];
            add(format!("torus-toi-{kind}-{how}"), checked(target, &RoundCase::TorusToi(input))?);
        }
    }
    // Balls on a cylinder: every place, touching and nudged either way.
    for place in 0..4u8 {
        for nudge in 0..3u8 {
            let input = CylinderInput {
                fit: [place, src.int(0, 3) as u8, src.int(0, 3) as u8, src.int(0, 4) as u8, nudge],
                swap: src.int(0, 1) == 1,
                pose: (turn(src), tri(src, -4, 4)),
            };
            let how = ["closer", "touching", "apart"][nudge as usize];
            add(format!("cylinder-{place}-{how}"), checked(target, &RoundCase::Cylinder(input))?);
        }
    }
    Ok(())
}

/// CCD primitives through a vertex or an edge at chosen times, and boxes meeting head on.
fn sweeps(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for edge_edge in [false, true] {
        for construction in 0..3u8 {
            for (through, when) in [(0u8, 0u8), (1, 1), (2, 2), (4, 1), (5, 0), (6, 2)] {
                if construction < 2 && through > 1 {
                    continue;
                }
                let points = [0; 8].map(|_: i32| tri(src, -8, 8));
                let c = CcdInput { edge_edge, points, construction, target: through, when };
                let name = format!("ccd-{}-{construction}-{through}-{when}", if edge_edge { "ee" } else { "vf" });
                add(name, checked(target, &SweepInput::Ccd(c))?);
            }
        }
    }
    for k in 0..24u8 {
        let half = [halves(src), halves(src)];
        let spin = (k % 3 == 0).then(|| (turn(src), turn(src)));
        // Grid centres and velocities: faces, edges and vertices meet head on.
        let cva = [tri(src, -10, 10), tri(src, -8, 8), if k % 2 == 0 { [0; 3] } else { tri(src, -4, 4) }];
        add(format!("boxes-{k:02}"), checked(target, &SweepInput::Boxes(BoxInput { half, spin, cva }))?);
    }
    Ok(())
}

/// Points and segments picked on every prism, scaled, turned and shifted.
fn index_cases(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for shape in 0..4u8 {
        for how in 0..4u8 {
            // The point picked `how` (vertex, edge midpoint, face point, grid point), the
            // segment's other end the next way round.
            let pick = [(how, u16::from(shape) * 7 + u16::from(how)), ((how + 1) % 4, 13)];
            let input = MspInput {
                shape,
                scale: src.int(0, 7) as u8,
                turn: turn(src),
                shift: tri(src, -16, 16),
                pick,
                grid: [tri(src, -8, 8), tri(src, -8, 8)],
            };
            add(format!("shape{shape}-pick{how}"), checked(target, &input)?);
        }
    }
    // Found by the target (CI, 2026-12-01): chords of the bottom face from an edge's midpoint
    // to the origin, where the posed solid has a vertex; f64 decided the origin off the face's
    // plane by the pose's rounding (a cancelled offset) and called the chord inside.
    for input in MspInput::chords_at_the_origin() {
        add(format!("chord-at-origin-shape{}-scale{}", input.shape, input.scale), checked(target, &input)?);
    }
    Ok(())
}

/// Pairs of solids at rest, lifted or sunk by 3/4 ε, or free.
fn contact_pairs(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    let mut add = |name: String, bytes: Vec<u8>| seeds.push((format!("gen-{name}"), bytes));
    for ka in 0..5u8 {
        for kb in 0..5u8 {
            // One placement per pair, in turn: at rest, lifted or sunk by 3/4 ε, free.
            let (rest, nudge) = [(true, 0i8), (true, 3), (true, -3), (false, 0)][usize::from(ka + kb) % 4];
            let input = ContactInput {
                kinds: [ka, kb],
                halves: [halves(src), halves(src)],
                shift: tri(src, -4, 4),
                turn: src.int(0, 1) == 1,
                rest,
                nudge,
            };
            add(format!("{ka}-{kb}-{}{nudge:+}", if rest { "rest" } else { "free" }), checked(target, &input)?);
        }
    }
    Ok(())
}

/// Every scene, at rest and sliding, with each degenerate extra contact, on turned boxes and
/// every slope: for each, the first of a few draws the exact path answers (an oblique static
/// force that leaves its cone has an irrational unit vector, which the exact path refuses).
fn force_cases(target: &str, src: &mut Source, seeds: &mut Vec<(String, Vec<u8>)>) -> Result<(), DecodeError> {
    for scene in 0..4u8 {
        for extra in 0..3u8 {
            for slide in 0..2u8 {
                for _attempt in 0..16 {
                    let input = ForcesInput {
                        scene,
                        half: [0; 3].map(|_: u8| src.int(0, 255) as u8),
                        mass: src.int(0, 7) as u8,
                        turn: src.int(0, 4) as u8,
                        slope: src.int(1, 3) as u8,
                        friction: src.int(0, 5) as u8,
                        slide,
                        extra,
                        offset: [src.int(-7, 7) as i8, src.int(-7, 7) as i8],
                        static_speed: src.int(0, 2) as u8,
                    };
                    if crate::query::exact_answer(&input.query()).is_err() {
                        continue;
                    }
                    let how = if slide == 0 { "rest" } else { "slide" };
                    seeds.push((format!("gen-{scene}-{extra}-{how}"), checked(target, &input)?));
                    break;
                }
            }
        }
    }
    Ok(())
}
