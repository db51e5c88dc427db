//! First contact of two boxes by the separating-axis route, against times computed by hand.

use num_rational::BigRational;
use touchstone::geom::Matrix4;
use touchstone::scalar::parse_rational;
use touchstone::sweep::{first_contact_sat, BoxMotion, SatAxis, SweepError};

type Q = BigRational;

fn r(s: &str) -> Q {
    parse_rational(s).unwrap()
}

fn m(rows: [[&str; 4]; 4]) -> Matrix4<Q> {
    Matrix4::from_fn(|i, j| r(rows[i][j]))
}

const ZERO: [[&str; 4]; 4] = [["0"; 4]; 4];

fn translating(half: [&str; 3], start: [&str; 3], velocity: [&str; 3], accel: [&str; 3]) -> BoxMotion {
    let m0 = m([["1", "0", "0", start[0]], ["0", "1", "0", start[1]], ["0", "0", "1", start[2]], ["0", "0", "0", "1"]]);
    let m1 = m([["0", "0", "0", velocity[0]], ["0", "0", "0", velocity[1]], ["0", "0", "0", velocity[2]], ["0"; 4]]);
    let m2 = m([["0", "0", "0", accel[0]], ["0", "0", "0", accel[1]], ["0", "0", "0", accel[2]], ["0"; 4]]);
    BoxMotion { half: half.map(r), motion: [m0, m1, m2] }
}

fn still(half: [&str; 3]) -> BoxMotion {
    translating(half, ["0"; 3], ["0"; 3], ["0"; 3])
}

fn first(a: &BoxMotion, b: &BoxMotion, t0: &str, t1: &str) -> Option<touchstone::sweep::SatContact> {
    first_contact_sat(a, b, &r(t0), &r(t1)).unwrap()
}

#[test]
fn translating_boxes_meet_at_the_slab_time() {
    // B's centre x = 5 − 4t; the boxes (half 1) touch when it reaches 2: t = 3/4.
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
    let c = first(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("3/4")));
    assert_eq!(c.axis, Some(SatAxis::FaceOfA(0)));
    assert!(!c.overlapping_at_start);
    // Passing beside: offset 3 in y > 1 + 1.
    let beside = translating(["1", "1", "1"], ["5", "3", "0"], ["-4", "0", "0"], ["0"; 3]);
    assert!(first(&a, &beside, "0", "1").is_none());
    // Arriving exactly at t1, and one instant too late.
    assert_eq!(first(&a, &b, "0", "3/4").unwrap().time.to_rational(), Some(r("3/4")));
    assert!(first(&a, &b, "0", "74/100").is_none());
}

#[test]
fn quadratic_translation_meets_at_an_irrational_time() {
    // x(t) = 23/5 − t² reaches 2 when t² = 13/5: t = √(13/5) = 1.61245154965970993047…
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["23/5", "0", "0"], ["0"; 3], ["-1", "0", "0"]);
    let c = first(&a, &b, "0", "2").unwrap();
    assert!(!c.time.is_rational());
    assert_eq!(c.time.to_decimal(20).unwrap(), "1.6124515496597099304");
}

#[test]
fn contact_at_the_start_and_grazing() {
    let a = still(["1", "1", "1"]);
    // Overlapping at t0.
    let inside = translating(["1", "1", "1"], ["1", "0", "0"], ["5", "0", "0"], ["0"; 3]);
    let c = first(&a, &inside, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start), (Some(r("0")), true));
    // Touching at t0 and moving away.
    let touching = translating(["1", "1", "1"], ["2", "0", "0"], ["1", "0", "0"], ["0"; 3]);
    let c = first(&a, &touching, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start), (Some(r("0")), false));
    // Grazing: z(t) = 2 + (t − 1/2)² = 9/4 − t + t² touches the top face only at t = 1/2
    // (a double root), face on face.
    let graze = translating(["1", "1", "1"], ["0", "0", "9/4"], ["0", "0", "-1"], ["0", "0", "1"]);
    let c = first(&a, &graze, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1/2")));
    // Faces sliding on each other (touching throughout): the contact starts at t0, without
    // overlap.
    let slide = translating(["1", "1", "1"], ["0", "-1", "2"], ["0", "3", "0"], ["0"; 3]);
    let c = first(&a, &slide, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start), (Some(r("0")), false));
    // Sliding in the plane z = 2 from y = −5: B's y-range [−6 + 3t, −4 + 3t] first reaches
    // A's [−1, 1] at t = 1, touching.
    let arrive = translating(["1", "1", "1"], ["0", "-5", "2"], ["0", "3", "0"], ["0"; 3]);
    assert_eq!(first(&a, &arrive, "0", "1").unwrap().time.to_rational(), Some(r("1")));
}

#[test]
fn spinning_plate_hits_an_edge() {
    // B (half 1/10 × 2 × 1) spins about its centre (5/2, 0, 0) by the quaternion (1, 0, 0, t):
    // M(t) = [R̃(t) | c·w(t)] with R̃ = [[1 − t², −2t, 0], [2t, 1 − t², 0], [0, 0, 1 + t²]] and
    // w(t) = 1 + t². Its long face x' = −1/10 reaches A's vertical edge at (1, 1):
    // (−3/2)(1 − t²) + 2t = −(1 + t²)/10, i.e. 8t² + 10t − 7 = (2t − 1)(4t + 7) = 0: t = 1/2.
    // (Its corner crosses x = 1 earlier, near t = 0.42, but beside A, at y ≈ 1.33.)
    let a = still(["1", "1", "1"]);
    let m0 = m([["1", "0", "0", "5/2"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let m1 = m([["0", "-2", "0", "0"], ["2", "0", "0", "0"], ["0"; 4], ["0"; 4]]);
    let m2 = m([["-1", "0", "0", "5/2"], ["0", "-1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let b = BoxMotion { half: [r("1/10"), r("2"), r("1")], motion: [m0, m1, m2] };
    let c = first(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1/2")));
    assert_eq!(c.axis, Some(SatAxis::FaceOfB(0)));
}

#[test]
fn bad_motions_are_typed_errors() {
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
    assert_eq!(first_contact_sat(&a, &b, &r("1"), &r("0")).unwrap_err(), SweepError::EmptyInterval);
    let flat = still(["1", "0", "1"]);
    assert_eq!(
        first_contact_sat(&flat, &b, &r("0"), &r("1")).unwrap_err(),
        SweepError::BadHalfExtent { box_index: 0, axis: 1 }
    );
    // A scale (1 − 2t) on x: singular at t = 1/2.
    let m0 = m([["1", "0", "0", "0"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let mut m1 = m(ZERO);
    m1[(0, 0)] = r("-2");
    let collapsing = BoxMotion { half: [r("1"), r("1"), r("1")], motion: [m0.clone(), m1, m(ZERO)] };
    assert_eq!(
        first_contact_sat(&a, &collapsing, &r("0"), &r("1")).unwrap_err(),
        SweepError::Singular { box_index: 1 }
    );
    let mut proj = m0;
    proj[(3, 0)] = r("1");
    let projective = BoxMotion { half: [r("1"), r("1"), r("1")], motion: [proj, m(ZERO), m(ZERO)] };
    assert_eq!(
        first_contact_sat(&projective, &b, &r("0"), &r("1")).unwrap_err(),
        SweepError::Projective { box_index: 0 }
    );
}

mod against_primitive_ccd {
    //! For translating boxes every vertex moves linearly, so the first contact of two boxes
    //! that start apart is the least time over all vertex–face (faces split in triangles) and
    //! edge–edge primitive CCDs: a second exact route sharing nothing with the separating-axis
    //! one but the root finder. Grid inputs make face–face and parallel-edge contacts common.
    use super::*;
    use proptest::prelude::*;
    use touchstone::brep::shapes::cuboid;
    use touchstone::geom::Point3;
    use touchstone::poly::Algebraic;
    use touchstone::sweep::{edge_edge, vertex_face};

    fn half() -> impl Strategy<Value = Q> {
        (1i64..=3).prop_map(|k| Q::new(k.into(), 2.into()))
    }

    fn coord() -> impl Strategy<Value = Q> {
        (-8i64..=8).prop_map(|k| Q::new(k.into(), 2.into()))
    }

    fn ccd_first(ha: &[Q; 3], hb: &[Q; 3], c0: &[Q; 3], c1: &[Q; 3]) -> Option<Algebraic> {
        let a = cuboid(ha[0].clone(), ha[1].clone(), ha[2].clone()).unwrap();
        let b = cuboid(hb[0].clone(), hb[1].clone(), hb[2].clone()).unwrap();
        let shift = |p: &Point3<Q>, c: &[Q; 3]| {
            Point3::new(p.x.clone() + c[0].clone(), p.y.clone() + c[1].clone(), p.z.clone() + c[2].clone())
        };
        let zero = [Q::default(), Q::default(), Q::default()];
        let tris = |s: &touchstone::brep::Solid<Q>| -> Vec<[usize; 3]> {
            s.faces().iter().flat_map(|f| [[f[0], f[1], f[2]], [f[0], f[2], f[3]]]).collect()
        };
        let mut best: Option<Algebraic> = None;
        let mut take = |t: Option<Algebraic>| {
            if let Some(t) = t {
                if best.as_ref().is_none_or(|b| t < *b) {
                    best = Some(t);
                }
            }
        };
        // Vertices of b (moving) against triangles of a (still), and the other way round.
        for (movers, mover_c, still, still_c) in
            [(&b, (c0, c1), &a, (&zero, &zero)), (&a, (&zero, &zero), &b, (c0, c1))]
        {
            for v in movers.vertices() {
                for t in tris(still) {
                    let at = |c: &[Q; 3]| {
                        [
                            shift(v, c),
                            shift(still.vertex(t[0]), still_c.0),
                            shift(still.vertex(t[1]), still_c.0),
                            shift(still.vertex(t[2]), still_c.0),
                        ]
                    };
                    let at_end = [
                        shift(v, mover_c.1),
                        shift(still.vertex(t[0]), still_c.1),
                        shift(still.vertex(t[1]), still_c.1),
                        shift(still.vertex(t[2]), still_c.1),
                    ];
                    take(vertex_face(&at(mover_c.0), &at_end).unwrap().toi);
                }
            }
        }
        for &(i, j) in a.edges() {
            for &(k, l) in b.edges() {
                let s = [a.vertex(i).clone(), a.vertex(j).clone(), shift(b.vertex(k), c0), shift(b.vertex(l), c0)];
                let e = [a.vertex(i).clone(), a.vertex(j).clone(), shift(b.vertex(k), c1), shift(b.vertex(l), c1)];
                take(edge_edge(&s, &e).unwrap().toi);
            }
        }
        best
    }

    fn motion_of(c0: &[Q; 3], c1: &[Q; 3]) -> [Matrix4<Q>; 3] {
        let mut m0 = Matrix4::identity();
        let mut m1 = Matrix4::from_element(Q::default());
        for i in 0..3 {
            m0[(i, 3)] = c0[i].clone();
            m1[(i, 3)] = c1[i].clone() - c0[i].clone();
        }
        [m0, m1, Matrix4::from_element(Q::default())]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn sat_equals_least_primitive_ccd(ha in [half(), half(), half()], hb in [half(), half(), half()], c0 in [coord(), coord(), coord()], c1 in [coord(), coord(), coord()]) {
            let a = BoxMotion { half: ha.clone(), motion: motion_of(&[Q::default(), Q::default(), Q::default()], &[Q::default(), Q::default(), Q::default()]) };
            let b = BoxMotion { half: hb.clone(), motion: motion_of(&c0, &c1) };
            let sat = first_contact_sat(&a, &b, &r("0"), &r("1")).unwrap();
            // Boxes overlapping with positive depth at t0 have no primitive contact to start from.
            prop_assume!(!sat.as_ref().is_some_and(|c| c.overlapping_at_start));
            let ccd = ccd_first(&ha, &hb, &c0, &c1);
            prop_assert_eq!(sat.map(|c| c.time), ccd);
        }
    }
}
