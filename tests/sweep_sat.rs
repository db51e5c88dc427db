//! The separating-axis route of the box sweep on its own: the axis it reports, and its first
//! time against the least primitive CCD time over all vertex–face and edge–edge pairs. (Its
//! times on the hand-computed cases, and its typed errors, are checked together with the
//! Albocher–Sarel route in tests/sweep_bms.rs.)

use touchstone::geom::Matrix4;
use touchstone::sweep::{first_contact_sat, BoxMotion, SatAxis};

#[path = "common/boxes.rs"]
mod boxes;
use boxes::*;

fn first(a: &BoxMotion, b: &BoxMotion, t0: &str, t1: &str) -> Option<touchstone::sweep::SatContact> {
    first_contact_sat(a, b, &r(t0), &r(t1)).unwrap()
}

#[test]
fn the_axis_of_first_contact() {
    // B's centre x = 5 − 4t; the boxes (half 1) touch when it reaches 2, t = 3/4, on A's
    // face axis x.
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
    let c = first(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("3/4")));
    assert_eq!(c.axis, Some(SatAxis::FaceOfA(0)));
    // The same approach along y and z, from the negative side: A's axes 1 and 2.
    let by = translating(["1", "1", "1"], ["0", "-5", "0"], ["0", "4", "0"], ["0"; 3]);
    assert_eq!(first(&a, &by, "0", "1").unwrap().axis, Some(SatAxis::FaceOfA(1)));
    let bz = translating(["1", "1", "1"], ["0", "0", "-5"], ["0", "0", "4"], ["0"; 3]);
    assert_eq!(first(&a, &bz, "0", "1").unwrap().axis, Some(SatAxis::FaceOfA(2)));
    // Overlapping at t0: no axis.
    let inside = translating(["1", "1", "1"], ["1", "0", "0"], ["5", "0", "0"], ["0"; 3]);
    let c = first(&a, &inside, "0", "1").unwrap();
    assert_eq!((c.overlapping_at_start, c.axis), (true, None));
    // B (half 1/10 × 2 × 1) spins about its centre (5/2, 0, 0) by the quaternion (1, 0, 0, t):
    // M(t) = [R̃(t) | c·w(t)] with R̃ = [[1 − t², −2t, 0], [2t, 1 − t², 0], [0, 0, 1 + t²]] and
    // w(t) = 1 + t². Its long face x' = −1/10 reaches A's vertical edge at (1, 1):
    // (−3/2)(1 − t²) + 2t = −(1 + t²)/10, i.e. 8t² + 10t − 7 = (2t − 1)(4t + 7) = 0: t = 1/2,
    // on B's face axis x'. (Its corner crosses x = 1 earlier, near t = 0.42, but beside A,
    // at y ≈ 1.33.)
    let m0 = m([["1", "0", "0", "5/2"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let m1 = m([["0", "-2", "0", "0"], ["2", "0", "0", "0"], ["0"; 4], ["0"; 4]]);
    let m2 = m([["-1", "0", "0", "5/2"], ["0", "-1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let b = BoxMotion { half: [r("1/10"), r("2"), r("1")], motion: [m0, m1, m2] };
    let c = first(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1/2")));
    assert_eq!(c.axis, Some(SatAxis::FaceOfB(0)));
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
