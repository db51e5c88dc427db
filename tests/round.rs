//! Round shapes (issue 42, first part): the cores' exact distance and the status, on tangencies
//! made exact on purpose (Pythagorean offsets between point, segment and polytope cores), the
//! same cases moved by 2⁻⁵⁰ each way, and `f64` agreeing with exact wherever the decision is
//! not within its tolerance of a tie.

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::shapes::{cube, cuboid};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::Point3;
use touchstone::round::{round_distance, CoreFeature, RoundError, RoundShape};
use touchstone::vclip::Status;

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn p(x: i64, y: i64, z: i64) -> Point3<Q> {
    Point3::new(q(x), q(y), q(z))
}

fn ball(c: Point3<Q>, r: Q) -> RoundShape<Q> {
    RoundShape::ball(c, r).unwrap()
}

fn capsule(a: Point3<Q>, b: Point3<Q>, r: Q) -> RoundShape<Q> {
    RoundShape::capsule(a, b, r).unwrap()
}

/// The cube [-1, 1]³ moved by `t`, rounded by `r`.
fn rounded_cube(t: [i64; 3], r: Q) -> RoundShape<Q> {
    let c: Solid<Q> = cube();
    let moved = Solid::new(
        c.vertices().iter().map(|v| Point3::new(&v.x + q(t[0]), &v.y + q(t[1]), &v.z + q(t[2]))).collect(),
        c.faces().to_vec(),
    )
    .unwrap();
    RoundShape::rounded(moved, r).unwrap()
}

/// A ball, a capsule along the local x axis (its core's closest point to the other's centre
/// is then its middle, since the offset is applied from there), or a rounded box whose face is
/// met: the shapes of the contract tests.
fn round_spec(kind: u8, radius: f64) -> touchstone::query::ShapeSpec<f64> {
    use touchstone::query::ShapeSpec;
    match kind % 3 {
        0 => ShapeSpec::ball(radius).unwrap(),
        1 => ShapeSpec::capsule(Point3::new(-2.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0), radius).unwrap(),
        _ => ShapeSpec::rounded(ShapeSpec::cuboid([1.0, 1.0, 1.0]).unwrap(), radius).unwrap(),
    }
}

/// A Pythagorean offset (x, y, z; d) scaled by `scale` quarters, and radii splitting d·s
/// (`split` quarters to a) nudged by `nudge` × 2⁻⁵⁰ of it: (offset, r_a, r_b).
fn touching_split([x, y, z, d]: [i32; 4], scale: i32, split: i32, nudge: i32) -> ([f64; 3], f64, f64) {
    let s = f64::from(scale) / 4.0;
    let total = f64::from(d) * s;
    let ra = total * f64::from(split) / 4.0;
    let rb = total - ra + f64::from(nudge) * total * 2f64.powi(-50);
    ([f64::from(x) * s, f64::from(y) * s, f64::from(z) * s], ra, rb)
}

/// 2⁻⁵⁰.
fn ulp() -> Q {
    Q::new(1.into(), num_bigint::BigInt::from(1u64 << 50))
}

/// The status of `a` and `b`, and with `b`'s radius grown and shrunk by 2⁻⁵⁰ (penetrating and
/// separated where the first is touching).
fn three(a: &RoundShape<Q>, b: &RoundShape<Q>) -> [Status; 3] {
    let with = |r: Q| RoundShape { radius: r, ..b.clone() };
    [
        round_distance(a, b).unwrap().status,
        round_distance(a, &with(&b.radius + ulp())).unwrap().status,
        round_distance(a, &with(&b.radius - ulp())).unwrap().status,
    ]
}

const TANGENT: [Status; 3] = [Status::Touching, Status::Penetrating, Status::Separated];

#[test]
fn balls_capsules_and_rounded_cubes_touch_at_pythagorean_distances() {
    // Ball–ball: centres 5 apart (3, 4, 0), radii 2 and 3.
    let d = round_distance(&ball(p(0, 0, 0), q(2)), &ball(p(3, 4, 0), q(3))).unwrap();
    assert_eq!((d.status, d.cores.squared, d.radii), (Status::Touching, q(25), q(5)));
    assert_eq!(three(&ball(p(0, 0, 0), q(2)), &ball(p(3, 4, 0), q(3))), TANGENT);
    // Ball–capsule: the centre (3, 4, 1) is 5 from the z axis segment's inside.
    let axis = capsule(p(0, 0, -7), p(0, 0, 7), q(1));
    let d = round_distance(&axis, &ball(p(3, 4, 1), q(4))).unwrap();
    assert_eq!((d.status, d.cores.points.0.clone()), (Status::Touching, p(0, 0, 1)));
    assert_eq!(d.cores.features, (CoreFeature::Segment, CoreFeature::Point));
    assert_eq!(three(&axis, &ball(p(3, 4, 1), q(4))), TANGENT);
    // Beyond the segment's end: (0, 3, 11) is 5 from the end (0, 0, 7).
    let d = round_distance(&axis, &ball(p(0, 3, 11), q(4))).unwrap();
    assert_eq!((d.status, d.cores.features.0.clone()), (Status::Touching, CoreFeature::End(1)));
    // Crossing capsules: the x axis and a segment along y at z = 5, radii 2 and 3.
    let x = capsule(p(-4, 0, 0), p(4, 0, 0), q(2));
    let y = capsule(p(1, -4, 5), p(1, 4, 5), q(3));
    let d = round_distance(&x, &y).unwrap();
    assert_eq!((d.status, d.cores.points.clone()), (Status::Touching, (p(1, 0, 0), p(1, 0, 5))));
    assert_eq!(three(&x, &y), TANGENT);
    // Parallel capsules with a segment of closest points (offset (3, 4, 0), overlapping in z).
    let z1 = capsule(p(0, 0, 0), p(0, 0, 10), q(1));
    let z2 = capsule(p(3, 4, 5), p(3, 4, 20), q(4));
    assert_eq!(three(&z1, &z2), TANGENT);
    assert_eq!(round_distance(&z1, &z2).unwrap().cores.squared, q(25));
}

#[test]
fn round_shapes_on_a_cube_face_edge_and_vertex() {
    let c = rounded_cube([0, 0, 0], q(0));
    // On the face z = 1: a ball of radius 2 centred at (0, 0, 3).
    let d = round_distance(&c, &ball(p(0, 0, 3), q(2))).unwrap();
    assert_eq!(d.status, Status::Touching);
    assert!(matches!(d.cores.features.0, CoreFeature::Polytope(Feature::Face(_))), "{d:?}");
    assert_eq!(three(&c, &ball(p(0, 0, 3), q(2))), TANGENT);
    // On the edge x = y = 1: (4, 5, 0) is 5 from it.
    let d = round_distance(&c, &ball(p(4, 5, 0), q(5))).unwrap();
    assert_eq!((d.status, d.cores.points.0.clone()), (Status::Touching, p(1, 1, 0)));
    assert!(matches!(d.cores.features.0, CoreFeature::Polytope(Feature::Edge(..))), "{d:?}");
    // On the vertex (1, 1, 1): (3, 3, 2) is 3 from it (2² + 2² + 1²).
    let d = round_distance(&c, &ball(p(3, 3, 2), q(3))).unwrap();
    assert_eq!((d.status, d.cores.features.0.clone()), (Status::Touching, CoreFeature::Polytope(Feature::Vertex(7))));
    assert_eq!(three(&c, &ball(p(3, 3, 2), q(3))), TANGENT);
    // A ball whose centre is inside, or on the face: penetrating (the cores meet).
    assert_eq!(round_distance(&c, &ball(p(0, 0, 1), q(1))).unwrap().status, Status::Penetrating);
    // A capsule parallel to the face z = 1, 3 above it, reaching past the face on both sides:
    // its inside is closest (to the face's edges); radius 3 touches.
    let over = capsule(p(-5, 0, 4), p(5, 0, 4), q(3));
    let d = round_distance(&c, &over).unwrap();
    assert_eq!((d.status, d.cores.squared.clone()), (Status::Touching, q(9)));
    assert_eq!(three(&c, &over), TANGENT);
    // A capsule through the cube with both ends outside: the cores meet on a face.
    let through = capsule(p(-5, 0, 0), p(5, 0, 0), q(1));
    let d = round_distance(&c, &through).unwrap();
    assert_eq!((d.status, d.cores.squared), (Status::Penetrating, q(0)));
    // A capsule on the line x + y = 9 of the plane z = 0, skew to the edge x = y = 1: the
    // closest pair is inside both, (4.5, 4.5, 0) and (1, 1, 0), 7/√2 apart (squared 49/2).
    let skew = capsule(p(1, 8, 0), p(7, 2, 0), q(1));
    let d = round_distance(&c, &skew).unwrap();
    assert_eq!(d.cores.squared, Q::new(49.into(), 2.into()));
    assert_eq!(d.cores.features, (CoreFeature::Polytope(Feature::Edge(3, 7)), CoreFeature::Segment));
    assert_eq!(d.status, Status::Separated);
}

#[test]
fn rounded_polytopes_by_v_clip() {
    // Two cubes 5 apart face to face (x from 1 to 6), radii 2 and 3: touching; bare: separated.
    let a = rounded_cube([0, 0, 0], q(2));
    let b = rounded_cube([7, 0, 0], q(3));
    let d = round_distance(&a, &b).unwrap();
    assert_eq!((d.status, d.cores.squared), (Status::Touching, q(25)));
    assert_eq!(three(&a, &b), TANGENT);
    // Radii 0: V-Clip's own status (touching cubes, overlapping cubes).
    let touch = round_distance(&rounded_cube([0, 0, 0], q(0)), &rounded_cube([2, 0, 0], q(0))).unwrap();
    assert_eq!(touch.status, Status::Touching);
    // Touching cores under a positive radius: penetrating.
    let under = round_distance(&rounded_cube([0, 0, 0], q(0)), &rounded_cube([2, 0, 0], Q::new(1.into(), 8.into())));
    assert_eq!(under.unwrap().status, Status::Penetrating);
}

#[test]
fn shapes_that_are_no_solids_are_refused() {
    assert!(matches!(RoundShape::ball(p(0, 0, 0), q(0)), Err(RoundError::Invalid(_))));
    assert!(matches!(RoundShape::ball(p(0, 0, 0), q(-1)), Err(RoundError::Invalid(_))));
    assert!(matches!(RoundShape::capsule(p(1, 2, 3), p(1, 2, 3), q(1)), Err(RoundError::Invalid(_))));
    assert!(matches!(RoundShape::rounded(cube::<Q>(), q(-1)), Err(RoundError::Invalid(_))));
    let l: Solid<Q> = touchstone::brep::shapes::l_shape();
    let shape = RoundShape::rounded(l, q(1)).unwrap();
    assert!(matches!(round_distance(&shape, &ball(p(9, 9, 9), q(1))), Err(RoundError::Polytope(_))));
}

/// A round shape from small integers, in both backends: a ball, a capsule or a rounded box.
fn shape(kind: u8, c: [i64; 6], r: i64) -> (RoundShape<Q>, RoundShape<f64>) {
    let pq = |i: usize| Point3::new(q(c[i]), q(c[i + 1]), q(c[i + 2]));
    let pf = |i: usize| Point3::new(c[i] as f64, c[i + 1] as f64, c[i + 2] as f64);
    match kind % 3 {
        0 => (RoundShape::ball(pq(0), q(r)).unwrap(), RoundShape::ball(pf(0), r as f64).unwrap()),
        1 if c[..3] != c[3..] => {
            (RoundShape::capsule(pq(0), pq(3), q(r)).unwrap(), RoundShape::capsule(pf(0), pf(3), r as f64).unwrap())
        }
        _ => {
            let h = |i: usize| 1 + c[i + 3].abs() % 3;
            let moved = |s: Solid<Q>| {
                Solid::new(s.vertices().iter().map(|v| v + pq(0).coords).collect(), s.faces().to_vec()).unwrap()
            };
            let movedf = |s: Solid<f64>| {
                Solid::new(s.vertices().iter().map(|v| v + pf(0).coords).collect(), s.faces().to_vec()).unwrap()
            };
            (
                RoundShape::rounded(moved(cuboid(q(h(0)), q(h(1)), q(h(2))).unwrap()), q(r - 1)).unwrap(),
                RoundShape::rounded(movedf(cuboid(h(0) as f64, h(1) as f64, h(2) as f64).unwrap()), (r - 1) as f64)
                    .unwrap(),
            )
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    /// On integer cores and radii (so tangencies happen: d² and (r_a + r_b)² are integers),
    /// `f64` decides the status exactly as the exact backend does: every value here is an
    /// integer well inside binary64's exact range, so no decision is near a rounding tie.
    #[test]
    fn f64_agrees_with_exact_on_integer_round_shapes(
        ka in 0u8..3, kb in 0u8..3,
        ca in prop::array::uniform6(-6i64..=6), cb in prop::array::uniform6(-6i64..=6),
        ra in 1i64..=5, rb in 1i64..=5,
    ) {
        let (a, af) = shape(ka, ca, ra);
        let (b, bf) = shape(kb, cb, rb);
        let exact = round_distance(&a, &b).unwrap();
        let fast = round_distance(&af, &bf).unwrap();
        prop_assert_eq!(exact.status, fast.status);
        let d2: f64 = num_traits::ToPrimitive::to_f64(&exact.cores.squared).unwrap();
        prop_assert!((d2 - fast.cores.squared).abs() <= 1e-12 * (1.0 + d2), "{} vs {}", d2, fast.cores.squared);
    }
}

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

#[test]
fn the_distance_depth_and_points_are_exact_algebraic_numbers() {
    // Balls 5 apart (3-4-5), radii 1 and 2: the distance 2, points on the line between the
    // centres, all rational.
    let d = round_distance(&ball(p(0, 0, 0), q(1)), &ball(p(3, 4, 0), q(2))).unwrap();
    assert_eq!(d.distance().unwrap().to_rational(), Some(q(2)));
    assert_eq!(d.distance_squared().unwrap().to_rational(), Some(q(4)));
    let [a, b] = d.points(&q(1)).unwrap().unwrap();
    let rational = |v: &[touchstone::poly::Algebraic; 3]| v.clone().map(|x| x.to_rational().unwrap());
    assert_eq!(rational(&a), [r(3, 5), r(4, 5), q(0)]);
    assert_eq!(rational(&b), [r(9, 5), r(12, 5), q(0)]);
    // Balls √2 apart, radii 1/4: the distance √2 − 1/2, its square 9/4 − √2 (the smaller root of
    // y² − 2(2 + 1/4)y + (2 − 1/4)²), the points (1/4)(1, 1, 0)/√2 and its mirror.
    let d = round_distance(&ball(p(0, 0, 0), r(1, 4)), &ball(p(1, 1, 0), r(1, 4))).unwrap();
    assert_eq!(d.distance().unwrap().to_decimal(15).unwrap(), "0.914213562373095");
    assert_eq!(d.distance_squared().unwrap().to_decimal(15).unwrap(), "0.835786437626904");
    let [a, b] = d.points(&r(1, 4)).unwrap().unwrap();
    assert_eq!(a[0].to_decimal(12).unwrap(), "0.176776695296");
    assert_eq!(b[1].to_decimal(12).unwrap(), "0.823223304703");
    assert_eq!(a[2].to_rational(), Some(q(0)));
    assert!(d.depth().unwrap().is_none());
    // Radii 1: penetrating by 2 − √2 along the centres' line.
    let d = round_distance(&ball(p(0, 0, 0), q(1)), &ball(p(1, 1, 0), q(1))).unwrap();
    assert_eq!(d.status, Status::Penetrating);
    assert_eq!(d.depth().unwrap().unwrap().to_decimal(15).unwrap(), "0.585786437626904");
    assert_eq!(d.distance().unwrap().to_rational(), Some(q(0)));
    // Touching (the 3-4-5 balls of radii 2 and 3): distance 0, and both points are the
    // tangent point 2·(3, 4, 0)/5 = (6/5, 8/5, 0).
    let d = round_distance(&ball(p(0, 0, 0), q(2)), &ball(p(3, 4, 0), q(3))).unwrap();
    let [a, b] = d.points(&q(2)).unwrap().unwrap();
    assert_eq!(rational(&a), [r(6, 5), r(8, 5), q(0)]);
    assert_eq!(rational(&a), rational(&b));
    // A ball inside a cube's core: the cores meet, no direction and no depth from the radii.
    let inside = round_distance(&rounded_cube([0, 0, 0], q(0)), &ball(p(0, 0, 0), q(1))).unwrap();
    assert!(inside.points(&q(0)).unwrap().is_none() && inside.depth().unwrap().is_none());
}

fn v(x: i64, y: i64, z: i64) -> touchstone::geom::Vector3<Q> {
    touchstone::geom::Vector3::new(q(x), q(y), q(z))
}

#[test]
fn a_moving_ball_meets_balls_capsules_and_cubes_at_the_exact_first_time() {
    use touchstone::round::ball_first_contact;
    let when = |c: Point3<Q>, r: Q, vel: touchstone::geom::Vector3<Q>, b: &RoundShape<Q>, t1: i64| {
        ball_first_contact(&c, &r, &vel, b, [q(0), q(t1)]).unwrap()
    };
    let rational = |t: Option<touchstone::poly::Algebraic>| t.map(|t| t.to_rational().expect("a rational time"));
    let unit = ball(p(0, 0, 0), q(1));
    // Head on: the centres 2 apart at t = 8.
    assert_eq!(rational(when(p(-10, 0, 0), q(1), v(1, 0, 0), &unit, 20)), Some(q(8)));
    // Moving away, or too short an interval: no contact; overlapping at the start: t0.
    assert_eq!(when(p(-10, 0, 0), q(1), v(-1, 0, 0), &unit, 20).map(|_| ()), None);
    assert_eq!(when(p(-10, 0, 0), q(1), v(1, 0, 0), &unit, 7).map(|_| ()), None);
    assert_eq!(rational(when(p(1, 0, 0), q(1), v(1, 0, 0), &unit, 7)), Some(q(0)));
    // A graze: passing at exactly 2 from the centre, touching at t = 10 (a double root); 2⁻⁵⁰
    // higher it misses.
    assert_eq!(rational(when(p(-10, 2, 0), q(1), v(1, 0, 0), &unit, 20)), Some(q(10)));
    let higher = Point3::new(q(-10), q(2) + ulp(), q(0));
    assert_eq!(when(higher, q(1), v(1, 0, 0), &unit, 20).map(|_| ()), None);
    // A capsule along x (radius 1): from above its middle (y = 2 at t = 8); along its own line
    // onto its end's sphere (x = −7 at t = 13: the cylinder's equation holds at every time).
    let cap = capsule(p(-5, 0, 0), p(5, 0, 0), q(1));
    assert_eq!(rational(when(p(0, 10, 0), q(1), v(0, -1, 0), &cap, 20)), Some(q(8)));
    assert_eq!(rational(when(p(-20, 0, 0), q(1), v(1, 0, 0), &cap, 20)), Some(q(13)));
    // The cube [-1, 1]³: onto the face z = 1 (z = 2 at t = 8); diagonally onto the edge x = y = 1
    // at t = 4 − 1/√2; sliding at height 2 (1 above the face plane) it first touches the edge
    // x = −1, z = 1 at t = 9 and then slides over the face.
    let c = rounded_cube([0, 0, 0], q(0));
    assert_eq!(rational(when(p(0, 0, 10), q(1), v(0, 0, -1), &c, 20)), Some(q(8)));
    let edge = when(p(5, 5, 0), q(1), v(-1, -1, 0), &c, 20).unwrap();
    assert_eq!(edge.to_decimal(15).unwrap(), "3.29289321881345");
    assert_eq!(rational(when(p(-10, 0, 2), q(1), v(1, 0, 0), &c, 20)), Some(q(9)));
    // The rounded cube (radius 1) and a ball of radius 1 head on: z = 3 at t = 7.
    let rc = rounded_cube([0, 0, 0], q(1));
    assert_eq!(rational(when(p(0, 0, 10), q(1), v(0, 0, -1), &rc, 20)), Some(q(7)));
    // At the time found the shapes touch, exactly (the rational cases).
    for (c0, vel, b, t) in
        [(p(-10, 0, 0), v(1, 0, 0), &unit, 8), (p(0, 10, 0), v(0, -1, 0), &cap, 8), (p(-10, 0, 2), v(1, 0, 0), &c, 9)]
    {
        let at = Point3::new(&c0.x + &vel.x * q(t), &c0.y + &vel.y * q(t), &c0.z + &vel.z * q(t));
        assert_eq!(round_distance(&ball(at, q(1)), b).unwrap().status, Status::Touching);
    }
}

/// The round `distance` query under the agreement contract (`query::both`), on shapes touching
/// by construction: Pythagorean offsets between the cores, split between the radii, posed by
/// exact rational rotations (binary64 quaternions of small integers, which `f64` normalises
/// inexactly) and moved off touching by nothing or by 2⁻⁵⁰ of the scale each way.
mod contract {
    use super::*;
    use touchstone::query::{both, DistanceRound, PoseSpec, Posed, Query, ShapeSpec};
    use touchstone_oracle::encode::replay_line;

    /// (x, y, z, d): x² + y² + z² = d².
    const TRIPLES: [[i32; 4]; 6] =
        [[3, 4, 0, 5], [1, 2, 2, 3], [2, 3, 6, 7], [4, 4, 7, 9], [0, 0, 1, 1], [2, 6, 9, 11]];

    fn pose(q: [i32; 4], t: [f64; 3]) -> PoseSpec<f64> {
        PoseSpec::quaternion(q.map(f64::from), t).unwrap()
    }

    fn round(kind: u8, radius: f64) -> ShapeSpec<f64> {
        super::round_spec(kind, radius)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
        #[test]
        fn f64_agrees_with_exact_under_the_contract_on_touching_round_shapes(
            ka in 0u8..3,
            triple in 0usize..6, scale in 1i32..=8, split in 1i32..=3,
            qa in [1i32..=3, -2i32..=2, -2i32..=2, -2i32..=2],
            ta in [-4i32..=4, -4i32..=4, -4i32..=4],
            nudge in -1i32..=1,
        ) {
            // b is a ball placed at a's core point plus the triple's offset: from a ball's
            // centre or a capsule's middle (touching or penetrating, as the rotated axis may
            // come nearer), or from a rounded box's centre (reaching into the box: a general
            // configuration, not a tangency).
            let (o, ra, rb) = super::touching_split(TRIPLES[triple], scale, split, nudge);
            let t = ta.map(f64::from);
            let a = Posed::new("a", round(ka, ra), pose(qa, t));
            let offset = [o[0] + t[0], o[1] + t[1], o[2] + t[2]];
            let b = Posed::new("b", round(0, rb), pose([1, 0, 0, 0], offset));
            let query = DistanceRound { a, b };
            let replay = replay_line(&query);
            let r = both(&query).unwrap();
            prop_assert!(r.agreement.is_ok(), "{:?}\nreplay: {replay}", r.agreement);
            // The rotation is about a's core point, which stays put for a ball; the exact
            // answer is the construction's where nothing else can intervene.
            if ka % 3 == 0 {
                let expected = match nudge { 0 => Status::Touching, 1 => Status::Penetrating, _ => Status::Separated };
                let exact = query.answer::<Q>().unwrap().output.status;
                prop_assert_eq!(exact, expected, "replay: {}", replay);
            }
        }
    }
}

/// The `toi` op on round shapes: `f64` against exact under the contract of
/// `touchstone::query::ToiRound` on contacts made exact on purpose (a Pythagorean offset
/// reached at an integer time, head-on, oblique or grazing), nudged by 2⁻⁵⁰ of the radii.
mod toi_contract {
    use super::*;
    use touchstone::geom::Vector3;
    use touchstone::query::{both, PoseSpec, Posed, Query, Toi, ToiRound};
    use touchstone_oracle::encode::replay_line;

    const TRIPLES: [[i32; 4]; 5] = [[3, 4, 0, 5], [1, 2, 2, 3], [2, 3, 6, 7], [4, 4, 7, 9], [0, 0, 1, 1]];
    use super::round_spec as round;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
        #[test]
        fn f64_agrees_with_exact_under_the_contract_on_round_first_contacts(
            ka in 0u8..3, kb in 0u8..3,
            triple in 0usize..5, scale in 1i32..=8, split in 1i32..=3,
            qa in [1i32..=3, -2i32..=2, -2i32..=2, -2i32..=2],
            w in [-3i32..=3, -3i32..=3, -3i32..=3],
            at in 0i32..=4,
            nudge in -1i32..=1,
        ) {
            // b reaches the offset (touching a ball a there) at t = `at`, moving by w.
            let (o, ra, rb) = super::touching_split(TRIPLES[triple], scale, split, nudge);
            let w = w.map(f64::from);
            let start = [0, 1, 2].map(|i| o[i] - w[i] * f64::from(at));
            let a = Posed::new("a", round(ka, ra), PoseSpec::quaternion(qa.map(f64::from), [0.0; 3]).unwrap());
            let b = Posed::new("b", round(kb, rb), PoseSpec::quaternion([1.0, 0.0, 0.0, 0.0], start).unwrap());
            let toi = Toi { a, b, velocity_a: Vector3::zeros(), velocity_b: Vector3::new(w[0], w[1], w[2]), interval: [0.0, 5.0] };
            let query = ToiRound(toi);
            let replay = replay_line(&query);
            let r = both(&query).unwrap();
            prop_assert!(r.agreement.is_ok(), "{:?}\nreplay: {replay}", r.agreement);
            // Two balls, touching at `at` and approaching or grazing there (o·w ≤ 0): the
            // first contact is `at` exactly.
            let ow = o[0] * w[0] + o[1] * w[1] + o[2] * w[2];
            if ka % 3 == 0 && kb % 3 == 0 && nudge == 0 && ow <= 0.0 && w != [0.0; 3] {
                let exact = query.answer::<Q>().unwrap().output;
                prop_assert_eq!(exact.toi.and_then(|t| t.to_rational()), Some(q(at.into())), "replay: {}", replay);
            }
        }
    }
}

/// The first contact of any two round shapes under linear motion (issue 42 item 3): known
/// answers, then an independent route (the shapes' exact status at rational times).
mod first_contact_of_pairs {
    use super::*;
    use touchstone::geom::Vector3;
    use touchstone::round::first_contact;

    fn v(x: i64, y: i64, z: i64) -> Vector3<Q> {
        Vector3::new(q(x), q(y), q(z))
    }

    #[test]
    fn capsules_cubes_and_rounded_cubes_meet_at_the_exact_time() {
        let still = v(0, 0, 0);
        // Crossing capsules (edge–edge): radii 1 + 1 close a gap of 3 at t = 1.
        let a = capsule(p(-4, 0, 3), p(4, 0, 3), q(1));
        let b = capsule(p(0, -4, 0), p(0, 4, 0), q(1));
        let t = first_contact(&a, &v(0, 0, -1), &b, &still, [q(0), q(10)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(1)));
        // The same with b moving up instead: the relative motion is what counts.
        let t = first_contact(&a, &still, &b, &v(0, 0, 1), [q(0), q(10)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(1)));
        // Shifted to y = 7, 3 beyond b's end (y = 4): they pass 3 > 2 apart; at y = 6, 2
        // beyond, they graze b's end at t = 3.
        let far = capsule(p(-4, 7, 3), p(4, 7, 3), q(1));
        let missed = capsule(p(0, -4, 0), p(0, 4, 0), q(1));
        assert!(first_contact(&far, &v(0, 0, -1), &missed, &still, [q(0), q(10)]).unwrap().is_none());
        let near = capsule(p(-4, 6, 3), p(4, 6, 3), q(1));
        let t = first_contact(&near, &v(0, 0, -1), &missed, &still, [q(0), q(10)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(3)));
        // A capsule lying flat falls onto a cube's top face (radius 1, core at height 5): its
        // core comes within 1 of z = 1 at t = 3.
        let flat = capsule(p(-1, 0, 5), p(1, 0, 5), q(1));
        let cube = rounded_cube([0, 0, 0], q(0));
        let t = first_contact(&flat, &v(0, 0, -1), &cube, &still, [q(0), q(10)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(3)));
        // Rounded cubes (radius 1/2) approaching along a diagonal: their parallel vertical
        // edges are √2(3 − t) apart, 1 at t = 3 − 1/√2.
        let a = rounded_cube([-5, -5, 0], r(1, 2));
        let b = rounded_cube([0, 0, 0], r(1, 2));
        let t = first_contact(&a, &v(1, 1, 0), &b, &still, [q(0), q(10)]).unwrap().unwrap();
        assert_eq!(t.to_decimal(15).unwrap(), "2.29289321881345");
        // Already touching at t0: t0.
        let a = rounded_cube([3, 0, 0], r(1, 2));
        let b = rounded_cube([0, 0, 0], r(1, 2));
        let t = first_contact(&a, &v(5, 0, 0), &b, &still, [q(0), q(1)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(0)));
        // A ball grazing a capsule's side: centre at height 2 passing over the capsule along
        // y... at exactly R = 2: a double root, a contact.
        let graze = ball(p(0, -9, 2), q(1));
        let bar = capsule(p(-4, 0, 0), p(4, 0, 0), q(1));
        let t = first_contact(&graze, &v(0, 1, 0), &bar, &still, [q(0), q(20)]).unwrap().unwrap();
        assert_eq!(t.to_rational(), Some(q(9)));
        let above = ball(p(0, -9, 2) + Vector3::new(q(0), q(0), ulp()), q(1));
        assert!(first_contact(&above, &v(0, 1, 0), &bar, &still, [q(0), q(20)]).unwrap().is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]
        /// No contact is missed and none is early: the shapes are separated at the isolating
        /// interval's lower end (and at 8 rational times before it), touching or penetrating at
        /// the time itself when it is rational, and a miss is separated at 17 sample times.
        #[test]
        fn the_first_contact_agrees_with_the_status_at_rational_times(
            ka in 0u8..3, kb in 0u8..3,
            ca in prop::array::uniform6(-6i64..=6), cb in prop::array::uniform6(-3i64..=3),
            ra in 1i64..=3, rb in 1i64..=3,
            vel in [-4i64..=4, -4i64..=4, -4i64..=4],
        ) {
            let ((a, fa), (b, fb)) = (super::shape(ka, ca, ra), super::shape(kb, cb, rb));
            let velocity = v(vel[0], vel[1], vel[2]);
            let still = v(0, 0, 0);
            let status_at = |t: &Q| {
                let d = velocity.clone() * t.clone();
                let moved = match &a.core {
                    touchstone::round::Core::Point(x) => RoundShape::ball(x + &d, a.radius.clone()).unwrap(),
                    touchstone::round::Core::Segment([x, y]) => RoundShape::capsule(x + &d, y + &d, a.radius.clone()).unwrap(),
                    touchstone::round::Core::Polytope(s) => RoundShape::rounded(
                        s.moved_decided(&touchstone::geom::Affine::translation(d.clone())).unwrap(), a.radius.clone()).unwrap(),
                };
                round_distance(&moved, &b).unwrap().status
            };
            let (t0, t1) = (q(0), q(4));
            // The closest approach (a second route): the shapes meet exactly when it is at
            // most R²; the cores come within it (and not within less); it is at most the
            // cores' squared distance at every sampled time.
            let closest = touchstone::round::closest_approach(&a.core, &b.core, &velocity, [t0.clone(), t1.clone()]).unwrap();
            let big_r = &a.radius + &b.radius;
            let within = |r2: &Q| touchstone::round::first_within(&a.core, &b.core, &velocity, r2, [t0.clone(), t1.clone()]).unwrap();
            prop_assert!(within(&closest).is_some());
            if closest > q(0) {
                prop_assert!(within(&(&closest * Q::new(999_999.into(), 1_000_000.into()))).is_none());
            }
            for k in 0..=16 {
                let s = &t1 * Q::new(k.into(), 16.into());
                let moved = |c: &touchstone::round::Core<Q>| match c {
                    touchstone::round::Core::Point(x) => touchstone::round::Core::Point(x + &velocity * s.clone()),
                    touchstone::round::Core::Segment([x, y]) => touchstone::round::Core::Segment([x + &velocity * s.clone(), y + &velocity * s.clone()]),
                    touchstone::round::Core::Polytope(p) => touchstone::round::Core::Polytope(
                        p.moved_decided(&touchstone::geom::Affine::translation(&velocity * s.clone())).unwrap()),
                };
                let d2 = touchstone::round::core_distance(&moved(&a.core), &b.core).unwrap().squared;
                prop_assert!(closest <= d2, "closest {} above {} at {}", closest, d2, s);
            }
            let hit = first_contact(&a, &velocity, &b, &still, [t0.clone(), t1.clone()]).unwrap();
            prop_assert_eq!(hit.is_some(), closest <= &big_r * &big_r);
            // f64 runs the same code: on these small integers it finds the same contact.
            let fv = Vector3::new(vel[0] as f64, vel[1] as f64, vel[2] as f64);
            let fast = first_contact(&fa, &fv, &fb, &Vector3::zeros(), [0.0, 4.0]).unwrap();
            if let (Some(e), Some(f)) = (&hit, fast) {
                prop_assert!((e.to_f64() - f).abs() <= 1e-6, "exact {:?} f64 {}", e.to_decimal(12), f);
            }
            match hit {
                Some(t) => {
                    let mut t = t;
                    t.refine(&Q::new(1.into(), 1_000_000.into())).unwrap();
                    if let Some(x) = t.to_rational() {
                        prop_assert_ne!(status_at(&x), Status::Separated);
                    }
                    let lo = t.interval().lo().clone();
                    if lo > t0 && t.to_rational().is_none() {
                        for k in 0..=8 {
                            let s = &lo * Q::new(k.into(), 8.into());
                            prop_assert_eq!(status_at(&s), Status::Separated, "at {} before {}", s, lo);
                        }
                    }
                }
                None => {
                    for k in 0..=16 {
                        let s = &t1 * Q::new(k.into(), 16.into());
                        prop_assert_eq!(status_at(&s), Status::Separated, "missed at {}", s);
                    }
                }
            }
        }
    }
}

/// The penetration depth of round shapes (R + the cores' own depth where they meet, R − √c
/// where they are apart): known answers, and the cores' depth of two boxes against the
/// polytope route (`query::penetration_depth`, the separating axes of the posed solids).
mod depth {
    use super::*;
    use touchstone::round::{cores_depth_squared, round_depth_squared, Core};

    fn depth2(a: &RoundShape<Q>, b: &RoundShape<Q>) -> touchstone::poly::Algebraic {
        round_depth_squared(a, b).unwrap()
    }

    #[test]
    fn depths_computed_by_hand() {
        // A capsule along x through the cube [-1, 1]³ (radius 1): its core must move 1 in y or
        // z to leave the cube, so the depth is 1 + 1.
        let through = capsule(p(-3, 0, 0), p(3, 0, 0), q(1));
        assert_eq!(depth2(&through, &rounded_cube([0, 0, 0], q(0))).to_rational(), Some(q(4)));
        // Rounded cubes (1/2 each) whose cores overlap by 1/2 in x: 1/2 + 1 deep.
        let (a, b) = (rounded_cube([0, 0, 0], r(1, 2)), rounded_cube([0, 0, 0], r(1, 2)));
        assert_eq!(depth2(&a, &b).to_rational(), Some(q(9)), "coincident cores: 2 + 1 deep");
        let shifted = RoundShape::rounded(
            Solid::new(
                cube::<Q>().vertices().iter().map(|v| Point3::new(&v.x + r(3, 2), v.y.clone(), v.z.clone())).collect(),
                cube::<Q>().faces().to_vec(),
            )
            .unwrap(),
            r(1, 2),
        )
        .unwrap();
        assert_eq!(depth2(&a, &shifted).to_rational(), Some(r(9, 4)));
        // Balls of radii 2 and 3 with centres 4 apart: 1 deep; 5 apart: touching, 0.
        assert_eq!(depth2(&ball(p(0, 0, 0), q(2)), &ball(p(4, 0, 0), q(3))).to_rational(), Some(q(1)));
        assert_eq!(depth2(&ball(p(0, 0, 0), q(2)), &ball(p(3, 4, 0), q(3))).to_rational(), Some(q(0)));
        // Crossing capsules whose axes meet: the cores' difference is flat, the depth R = 2.
        let (x, y) = (capsule(p(-4, 0, 0), p(4, 0, 0), q(1)), capsule(p(0, -4, 0), p(0, 4, 0), q(1)));
        assert_eq!(depth2(&x, &y).to_rational(), Some(q(4)));
        // A capsule along the diagonal x = y through a tall box [-1, 1]² × [-5, 5]: its core
        // leaves across the diagonal, √2 away (the cross product of its axis with the box's
        // vertical edges), so the depth is 1 + √2 and its square 3 + 2√2, the larger root of
        // y² − 6y + 1.
        let tall = RoundShape::rounded(cuboid(q(1), q(1), q(5)).unwrap(), q(0)).unwrap();
        let diagonal = capsule(p(-3, -3, 0), p(3, 3, 0), q(1));
        assert_eq!(cores_depth_squared(&diagonal.core, &tall.core).unwrap(), q(2));
        let d2 = depth2(&diagonal, &tall);
        assert_eq!(d2.to_decimal(12).unwrap(), "5.82842712474");
        // f64 runs the same code.
        let f = |s: &RoundShape<Q>| match &s.core {
            Core::Segment([a, b]) => {
                let f = |c: Q| num_traits::ToPrimitive::to_f64(&c).unwrap();
                RoundShape::capsule(a.clone().map(f), b.clone().map(f), 1.0).unwrap()
            }
            _ => RoundShape::rounded(cuboid(1.0, 1.0, 5.0).unwrap(), 0.0).unwrap(),
        };
        let fast = round_depth_squared(&f(&diagonal), &f(&tall)).unwrap();
        assert!((fast - (3.0 + 2.0 * 2f64.sqrt())).abs() < 1e-12, "{fast}");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
        /// Two overlapping boxes, one under a rational rotation: the cores' depth equals the
        /// polytope route's penetration depth, exactly. (b's centre lies in a, so they
        /// overlap; the cores' depth has no meaning for cores apart. Centres up to 2 apart
        /// per axis drew b at (−2, 0, −2) turned by (1, 0, 2, 0), 2/5 away from a: a
        /// separated pair, the test's own error.)
        #[test]
        fn the_cores_depth_of_two_boxes_is_the_polytope_depth(
            ha in [1i64..=3, 1i64..=3, 1i64..=3], hb in [1i64..=3, 1i64..=3, 1i64..=3],
            t in [-1i64..=1, -1i64..=1, -1i64..=1],
            quat in [1i64..=3, -2i64..=2, -2i64..=2, -2i64..=2],
        ) {
            use touchstone::query::{penetration_depth, posed_solid, PoseSpec, Posed, ShapeSpec};
            let a = Posed::new("a", ShapeSpec::cuboid(ha.map(q)).unwrap(), PoseSpec::identity());
            let b = Posed::new("b", ShapeSpec::cuboid(hb.map(q)).unwrap(), PoseSpec::quaternion(quat.map(q), t.map(q)).unwrap());
            let core = |x: &Posed<Q>| Core::Polytope(posed_solid::<Q, Q>(x).unwrap().built.solid);
            let (ca, cb) = (core(&a), core(&b));
            // Overlapping: b's centre is within 1 of a's on every axis, a's half extents at least 1.
            let ours = cores_depth_squared(&ca, &cb).unwrap();
            let theirs = penetration_depth(&a, &b).unwrap().depth_squared;
            prop_assert_eq!(ours, theirs);
        }
    }
}
