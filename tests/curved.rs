//! Implicit solids and their certified status (issue 45): exact polynomial algebra by hand,
//! and statuses against exact answers on configurations touching by construction
//! (Pythagorean offsets split between the radii; a ball on a torus's top and outer equator;
//! a ball on a cube's face), nudged apart and pushed together: the gap bounds must enclose the
//! exact gap, witnesses must lie inside both, contact points must be the exact ones.

use num_rational::BigRational;
use touchstone::budget::{with_budget, Budget, Limit};
use touchstone::curved::{implicit_status, CurvedError, CurvedStatus, Implicit, Poly3, StatusOptions};
use touchstone::geom::{point, Affine};
use touchstone::round::{round_distance, RoundShape};
use touchstone::vclip::Status;

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}
fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}
fn status(a: &Implicit, b: &Implicit) -> CurvedStatus {
    implicit_status(a, b, &StatusOptions::default()).expect("no budget")
}

#[test]
fn polynomials_by_hand() {
    // f = x²y − 3z + 1/2.
    let f = Poly3::from_terms(&[(q(1), [2, 1, 0]), (q(-3), [0, 0, 1]), (r(1, 2), [0, 0, 0])]).unwrap();
    assert_eq!(f.degree(), 3);
    assert_eq!(f.eval(&[q(1), q(2), q(3)]), r(-13, 2));
    // ∂f/∂x = 2xy, ∂f/∂z = −3.
    assert_eq!(f.derivative(0), Poly3::from_terms(&[(q(2), [1, 1, 0])]).unwrap());
    assert_eq!(f.derivative(2), Poly3::constant(q(-3)));
    // Substituting x = y + 1, y = 2x, z = z − 1: f becomes (y + 1)²·2x − 3z + 7/2.
    let rows = [[q(0), q(1), q(0), q(1)], [q(2), q(0), q(0), q(0)], [q(0), q(0), q(1), q(-1)]];
    let g = f.substitute_affine(&rows);
    let expect = Poly3::from_terms(&[
        (q(2), [1, 2, 0]),
        (q(4), [1, 1, 0]),
        (q(2), [1, 0, 0]),
        (q(-3), [0, 0, 1]),
        (r(7, 2), [0, 0, 0]),
    ])
    .unwrap();
    assert_eq!(g, expect);
    // Like terms cancel to a canonical zero.
    let z = Poly3::from_terms(&[(q(1), [1, 0, 0]), (q(-1), [1, 0, 0])]).unwrap();
    assert!(z.is_zero() && z == Poly3::zero());
}

#[test]
fn a_posed_ball_is_the_moved_ball() {
    // The ball of radius 3 at the origin under the rational rotation of q = (1, 2, 3, 4) and a
    // translation: the surface polynomial is the ball's at the new centre, exactly.
    let ball = Implicit::sphere([q(0), q(0), q(0)], q(3)).unwrap();
    let t = nalgebra::Vector3::new(q(5), q(-1), r(2, 3));
    let m = Affine::from_quaternion(&[1, 2, 3, 4].map(q), t).unwrap();
    let posed = ball.posed(&m).unwrap();
    let moved = Implicit::sphere([q(5), q(-1), r(2, 3)], q(3)).unwrap();
    assert_eq!(posed.surface(), moved.surface());
    // Its box's half-spaces moved with it: the posed centre is inside, a point 4 away along
    // the rotated x axis is outside the ball (the surface is positive there).
    assert!(posed.contains_strictly(&[q(5), q(-1), r(2, 3)]));
    let singular = Affine::from_rows(&[[q(1), q(0), q(0), q(0)], [q(0), q(0), q(0), q(0)], [q(0), q(0), q(1), q(0)]]);
    assert_eq!(ball.posed(&singular), Err(CurvedError::SingularPose));
}

/// Offsets whose lengths are integers: 3-4-0 (5), 2-3-6 (7), 1-4-8 (9), 4-4-7 (9), 2-6-9 (11).
const OFFSETS: [([i64; 3], i64); 5] =
    [([3, 4, 0], 5), ([2, -3, 6], 7), ([1, 4, -8], 9), ([-4, 4, 7], 9), ([2, 6, 9], 11)];

#[test]
fn balls_agree_with_the_round_shapes_exact_status() {
    let c0 = [q(1), q(-2), r(1, 3)];
    for (d, len) in OFFSETS {
        for split in [1, 2, 3] {
            // Radii ra + rb = len: they touch at c0 + ra·d/len.
            let (ra, rb) = (r(split * len, 4), r((4 - split) * len, 4));
            let c1 = [0, 1, 2].map(|i| &c0[i] + q(d[i]));
            let a = Implicit::sphere(c0.clone(), ra.clone()).unwrap();
            let b = Implicit::sphere(c1.clone(), rb.clone()).unwrap();
            let exact = round_distance(
                &RoundShape::ball(point(0, 0, 0), ra.clone()).unwrap(),
                &RoundShape::ball(point(d[0], d[1], d[2]), rb.clone()).unwrap(),
            )
            .unwrap();
            assert_eq!(exact.status, Status::Touching);
            let contact = [0, 1, 2].map(|i| &c0[i] + &ra * q(d[i]) / q(len));
            match status(&a, &b) {
                CurvedStatus::Touching { point, multiplier, .. } => {
                    assert_eq!(point, contact, "offset {d:?}");
                    // ∇f = 2(p − c0) = 2ra·d/len, ∇g = −2rb·d/len: β = ra/rb.
                    assert_eq!(multiplier, &ra / &rb);
                }
                other => panic!("offset {d:?}, split {split}: {other:?}"),
            }
            // Moved apart by len/64 along d: the gap is exactly len/64.
            let apart = [0, 1, 2].map(|i| &c1[i] + r(d[i], 64));
            let b = Implicit::sphere(apart, rb.clone()).unwrap();
            let gap2 = r(len * len, 64 * 64);
            match status(&a, &b) {
                CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } => {
                    assert!(gap_squared_lower > q(0) && gap_squared_lower <= gap2, "{gap_squared_lower} vs {gap2}");
                    if let Some(u) = gap_squared_upper {
                        assert!(u >= gap2, "{u} vs {gap2}");
                    }
                }
                other => panic!("apart {d:?}: {other:?}"),
            }
            // Pushed together by len/64: a witness inside both, exactly.
            let together = [0, 1, 2].map(|i| &c1[i] - r(d[i], 64));
            let b = Implicit::sphere(together, rb).unwrap();
            match status(&a, &b) {
                CurvedStatus::Penetrating { witness } => {
                    assert!(a.contains_strictly(&witness) && b.contains_strictly(&witness));
                }
                other => panic!("together {d:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_ball_on_a_torus() {
    // The torus of radii 2 and 1 about z. A unit ball centred (2, 0, 2) rests on the tube's
    // top at (2, 0, 1): ∇f = (0, 0, 32) there (f = (ρ + z² + 3)² − 16ρ, ρ = x² + y²), ∇g =
    // (0, 0, −2), β = 16 (at the top S = 8: ∂f/∂z = 4zS = 32). A ball of radius 1 centred (4, 0, 0) touches the outer equator at
    // (3, 0, 0), where ∇f = (4xS − 32x, 0, 0) = (48, 0, 0) (S = ρ + z² + 3 = 12) and
    // ∇g = (−2, 0, 0): β = 24.
    let torus = Implicit::torus(q(2), q(1)).unwrap();
    let cases = [([q(2), q(0), q(2)], [q(2), q(0), q(1)], q(16)), ([q(4), q(0), q(0)], [q(3), q(0), q(0)], q(24))];
    for (c, contact, beta) in cases {
        let ball = Implicit::sphere(c.clone(), q(1)).unwrap();
        match status(&torus, &ball) {
            CurvedStatus::Touching { point, multiplier, .. } => {
                assert_eq!((point, multiplier), (contact.clone(), beta))
            }
            other => panic!("{c:?}: {other:?}"),
        }
        // Along the normal by 1/8 either way: the gap is exactly 1/8 (the tube's centre circle
        // is 2 + 1/8 from the ball's centre), then a witness inside both.
        let normal = [0, 1, 2].map(|i| &c[i] - &contact[i]);
        let apart = Implicit::sphere([0, 1, 2].map(|i| &c[i] + &normal[i] / q(8)), q(1)).unwrap();
        match status(&torus, &apart) {
            CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } => {
                assert!(gap_squared_lower > q(0) && gap_squared_lower <= r(1, 64));
                assert!(gap_squared_upper.is_none_or(|u| u >= r(1, 64)));
            }
            other => panic!("apart {c:?}: {other:?}"),
        }
        let into = Implicit::sphere([0, 1, 2].map(|i| &c[i] - &normal[i] / q(8)), q(1)).unwrap();
        match status(&torus, &into) {
            CurvedStatus::Penetrating { witness } => {
                assert!(torus.contains_strictly(&witness) && into.contains_strictly(&witness))
            }
            other => panic!("into {c:?}: {other:?}"),
        }
    }
}

#[test]
fn a_ball_in_the_hole_touches_along_a_circle_and_stays_undecided() {
    // The unit ball at the origin touches the torus's inner equator along the whole circle
    // x² + y² = 1, z = 0: no isolated tangency, so no touching certificate; and it must not be
    // called penetrating or separated.
    let torus = Implicit::torus(q(2), q(1)).unwrap();
    let ball = Implicit::sphere([q(0), q(0), q(0)], q(1)).unwrap();
    let options = StatusOptions { precision: 6, max_boxes: 20_000 };
    assert!(matches!(implicit_status(&torus, &ball, &options).unwrap(), CurvedStatus::Undecided { .. }));
}

#[test]
fn a_ball_on_a_cube_face_edge_and_corner() {
    // The cube [−1, 1]³ as six half-spaces. A ball of radius 2 centred (3, 0, 0) touches the
    // face x = 1 at (1, 0, 0); one of radius 3/2 above the face centre, moved to (1/2, 1/3,
    // 5/2), touches the top face at (1/2, 1/3, 1).
    let planes: Vec<[BigRational; 4]> = (0..3)
        .flat_map(|axis| {
            [1, -1].map(|s| {
                let mut p = [q(0), q(0), q(0), q(1)];
                p[axis] = q(s);
                p
            })
        })
        .collect();
    let cube = Implicit::halfspaces(&planes, [q(-2), q(-2), q(-2)], [q(2), q(2), q(2)]).unwrap();
    let ball = Implicit::sphere([q(3), q(0), q(0)], q(2)).unwrap();
    assert!(matches!(status(&cube, &ball), CurvedStatus::Touching { point, .. } if point == [q(1), q(0), q(0)]));
    let ball = Implicit::sphere([r(1, 2), r(1, 3), r(5, 2)], r(3, 2)).unwrap();
    assert!(matches!(status(&cube, &ball), CurvedStatus::Touching { point, .. } if point == [r(1, 2), r(1, 3), q(1)]));
    // Lifted by 1/16: separated with the gap enclosed.
    let ball = Implicit::sphere([r(1, 2), r(1, 3), r(41, 16)], r(3, 2)).unwrap();
    match status(&cube, &ball) {
        CurvedStatus::Separated { gap_squared_lower, .. } => {
            assert!(gap_squared_lower > q(0) && gap_squared_lower <= r(1, 256))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hostile_inputs_are_typed_errors() {
    let too_high = Poly3::from_terms(&[(q(1), [1, 0, 0]), (q(1), [3, 3, 3])]);
    assert_eq!(too_high, Err(CurvedError::DegreeTooLarge { term: 1, degree: 9, limit: 8 }));
    let many: Vec<(BigRational, [u32; 3])> = (0..201).map(|k| (q(1), [k % 3, 0, 0])).collect();
    assert!(matches!(Poly3::from_terms(&many), Err(CurvedError::TooManyTerms { terms: 201, .. })));
    let huge = BigRational::from_integer(num_bigint::BigInt::from(1) << 600usize);
    assert!(matches!(Poly3::from_terms(&[(huge, [0, 0, 0])]), Err(CurvedError::CoefficientTooLarge { term: 0, .. })));
    let f = Poly3::constant(q(-1));
    assert_eq!(Implicit::new(f, [q(0), q(1), q(0)], [q(1), q(1), q(1)]), Err(CurvedError::EmptyBounds { axis: 1 }));
    assert_eq!(Implicit::sphere([q(0), q(0), q(0)], q(0)), Err(CurvedError::NonPositive { what: "radius" }));
    assert_eq!(Implicit::halfspaces(&[], [q(0), q(0), q(0)], [q(1), q(1), q(1)]), Err(CurvedError::NoConstraint));
    // A spent budget is an error, not a hang or a guess.
    let torus = Implicit::torus(q(2), q(1)).unwrap();
    let ball = Implicit::sphere([q(2), q(0), q(2)], q(1)).unwrap();
    let spent = with_budget(Budget { steps: Some(50), ..Budget::default() }, || {
        implicit_status(&torus, &ball, &StatusOptions::default())
    });
    assert_eq!(spent, Err(CurvedError::Limit(Limit::Steps)));
    // A box limit is an honest `Undecided`.
    let tiny = StatusOptions { precision: 30, max_boxes: 10 };
    assert!(matches!(implicit_status(&torus, &ball, &tiny).unwrap(), CurvedStatus::Undecided { .. }));
}

mod posed {
    //! Degenerate configurations by construction under exact rational rotations (quaternions
    //! with small integer parts) and rational translations: the status is the true one or
    //! `Undecided`, never a wrong certificate, and the contact points are the exact ones.
    use super::*;
    use proptest::prelude::*;

    fn pose(qt: [i64; 4], t: [i64; 3], den: i64) -> Option<Affine<BigRational>> {
        if qt.iter().all(|&x| x == 0) {
            return None;
        }
        Affine::from_quaternion(&qt.map(q), nalgebra::Vector3::new(r(t[0], den), r(t[1], den), r(t[2], den))).ok()
    }

    fn image(m: &Affine<BigRational>, p: [BigRational; 3]) -> [BigRational; 3] {
        let [x, y, z] = p;
        let v = m.apply_point(&touchstone::geom::Point3::new(x, y, z));
        [v.x.clone(), v.y.clone(), v.z.clone()]
    }

    fn squared(a: &[BigRational; 3], b: &[BigRational; 3]) -> BigRational {
        (0..3).map(|i| (&a[i] - &b[i]) * (&a[i] - &b[i])).fold(q(0), |s, t| s + t)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn rotated_balls_touch_at_the_exact_point(
            qt in prop::array::uniform4(-3i64..=3), t in prop::array::uniform3(-6i64..=6), den in 1i64..=4,
            which in 0usize..5, split in 1i64..=3, nudge in -1i64..=1,
        ) {
            let Some(m) = pose(qt, t, den) else { return Ok(()) };
            let (d, len) = OFFSETS[which];
            let (ra, rb) = (r(split * len, 4), r((4 - split) * len, 4));
            // b's centre: the image of d·(1 + nudge/64), a's the image of the origin.
            let scale = r(64 + nudge, 64);
            let ca = image(&m, [q(0), q(0), q(0)]);
            let cb = image(&m, d.map(|x| q(x) * &scale));
            let a = Implicit::sphere(ca.clone(), ra.clone()).unwrap();
            let b = Implicit::sphere(cb.clone(), rb.clone()).unwrap();
            let s = implicit_status(&a, &b, &StatusOptions::default()).unwrap();
            // The exact gap: len·nudge/64.
            let gap = r(len * nudge, 64);
            match (&s, nudge) {
                (CurvedStatus::Touching { point, .. }, 0) => {
                    let contact = image(&m, d.map(|x| q(x) * &ra / q(len)));
                    prop_assert_eq!(point, &contact);
                }
                // Touching to within the precision: the exact contact point in the proved box.
                (CurvedStatus::Tangent { point, .. }, 0) => {
                    let contact = image(&m, d.map(|x| q(x) * &ra / q(len)));
                    prop_assert!((0..3).all(|i| point[i][0] <= contact[i] && contact[i] <= point[i][1]));
                }
                (CurvedStatus::Separated { gap_squared_lower, gap_squared_upper }, 1) => {
                    prop_assert!(*gap_squared_lower > q(0) && *gap_squared_lower <= &gap * &gap);
                    if let Some(u) = gap_squared_upper {
                        prop_assert!(*u >= &gap * &gap);
                    }
                }
                (CurvedStatus::Penetrating { witness }, -1) => {
                    prop_assert!(squared(witness, &ca) < &ra * &ra && squared(witness, &cb) < &rb * &rb);
                }
                (CurvedStatus::Undecided { .. }, _) => {}
                _ => prop_assert!(false, "nudge {}: {:?}", nudge, s),
            }
        }

        #[test]
        fn a_ball_on_a_posed_torus(
            qt in prop::array::uniform4(-2i64..=2), t in prop::array::uniform3(-4i64..=4), den in 1i64..=3,
            nudge in -1i64..=1,
        ) {
            let Some(m) = pose(qt, t, den) else { return Ok(()) };
            let torus = Implicit::torus(q(2), q(1)).unwrap().posed(&m).unwrap();
            // The unit ball over the tube's top, lifted by nudge/8: the gap is nudge/8.
            let c = image(&m, [q(2), q(0), q(2) + r(nudge, 8)]);
            let ball = Implicit::sphere(c.clone(), q(1)).unwrap();
            let s = implicit_status(&torus, &ball, &StatusOptions::default()).unwrap();
            match (&s, nudge) {
                (CurvedStatus::Touching { point, .. }, 0) => prop_assert_eq!(point, &image(&m, [q(2), q(0), q(1)])),
                (CurvedStatus::Tangent { point, .. }, 0) => {
                    let contact = image(&m, [q(2), q(0), q(1)]);
                    prop_assert!((0..3).all(|i| point[i][0] <= contact[i] && contact[i] <= point[i][1]));
                }
                (CurvedStatus::Separated { gap_squared_lower, gap_squared_upper }, 1) => {
                    prop_assert!(*gap_squared_lower > q(0) && *gap_squared_lower <= r(1, 64));
                    if let Some(u) = gap_squared_upper {
                        prop_assert!(*u >= r(1, 64));
                    }
                }
                (CurvedStatus::Penetrating { witness }, -1) => {
                    prop_assert!(torus.contains_strictly(witness) && ball.contains_strictly(witness));
                }
                (CurvedStatus::Undecided { .. }, _) => {}
                _ => prop_assert!(false, "nudge {}: {:?}", nudge, s),
            }
        }
    }

    #[test]
    fn posed_touching_is_decided() {
        // The same constructions at one fixed oblique pose are decided (not only never wrong).
        let m = pose([1, 2, 2, 0], [1, -2, 3], 2).unwrap();
        let torus = Implicit::torus(q(2), q(1)).unwrap().posed(&m).unwrap();
        let ball = Implicit::sphere(image(&m, [q(2), q(0), q(2)]), q(1)).unwrap();
        let s = implicit_status(&torus, &ball, &StatusOptions::default()).unwrap();
        assert!(matches!(&s, CurvedStatus::Touching { point, .. } if *point == image(&m, [q(2), q(0), q(1)])), "{s:?}");
    }
}

#[test]
fn a_ball_on_an_ellipsoid_tip() {
    // The ellipsoid x²/4 + y² + z² ≤ 1 and the unit ball at (3, 0, 0) touch at its tip
    // (2, 0, 0): ∇f = (1, 0, 0), ∇g = (−2, 0, 0), β = 1/2. Moved to (3, 1/2, 0) the ball
    // clears the ellipsoid (an earlier version of this test said it penetrates; the search
    // said separated, and it is): the squared distance from its centre to (2 cos θ, sin θ, 0)
    // is about 5/4 − θ + 3θ², least near θ = 1/6, at about 7/6 > 1. At the ellipse's rational
    // point (286/145, 24/145) (t = 1/12 on the rational circle) it is 24553.25/21025, so the
    // gap is at most √(24553.25/21025) − 1 ≈ 0.08065, its square ≈ 0.006505 > 13/2000 (and
    // near θ = 1/6 it is about 0.00642, so a tight bound passes too).
    let e = Implicit::ellipsoid([q(0), q(0), q(0)], [q(2), q(1), q(1)]).unwrap();
    let ball = Implicit::sphere([q(3), q(0), q(0)], q(1)).unwrap();
    match status(&e, &ball) {
        CurvedStatus::Touching { point, multiplier, normal } => {
            assert_eq!((point, multiplier, normal), ([q(2), q(0), q(0)], r(1, 2), [q(1), q(0), q(0)]));
        }
        other => panic!("{other:?}"),
    }
    let on_ellipse = [r(286, 145), r(24, 145), q(0)];
    assert!(e.surface().eval(&on_ellipse) == q(0));
    let off = Implicit::sphere([q(3), r(1, 2), q(0)], q(1)).unwrap();
    match status(&e, &off) {
        CurvedStatus::Separated { gap_squared_lower, .. } => {
            assert!(gap_squared_lower > q(0) && gap_squared_lower <= r(13, 2000), "{gap_squared_lower}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn huge_numbers_are_refused_or_answered_without_harm() {
    let huge = BigRational::from_integer(num_bigint::BigInt::from(1) << 600usize);
    let e = Implicit::sphere([huge.clone(), q(0), q(0)], q(1));
    assert!(matches!(e, Err(CurvedError::NumberTooLarge { what: "centre", .. })), "{e:?}");
    let e = Implicit::new(Poly3::constant(q(-1)), [q(0), q(0), q(0)], [huge.clone(), q(1), q(1)]);
    assert!(matches!(e, Err(CurvedError::NumberTooLarge { what: "bounds", .. })), "{e:?}");
    let m = Affine::translation(nalgebra::Vector3::new(huge, q(0), q(0)));
    let ball = Implicit::sphere([q(0), q(0), q(0)], q(1)).unwrap();
    assert!(matches!(ball.posed(&m), Err(CurvedError::NumberTooLarge { what: "pose entry", .. })));
    // Within the limits but beyond binary64: a coefficient of 2⁵⁰⁰ and bounds of 2⁴⁰⁰. The
    // enclosures are unbounded there; the answer is honest, never a panic: the thin slab
    // |x| ≤ 2⁻²⁵⁰ passes through the ball's centre, so penetrating or undecided.
    let big = BigRational::from_integer(num_bigint::BigInt::from(1) << 500usize);
    let wide = BigRational::from_integer(num_bigint::BigInt::from(1) << 400usize);
    let f = Poly3::from_terms(&[(big, [2, 0, 0]), (q(-1), [0, 0, 0])]).unwrap();
    let slab =
        Implicit::new(f, [-wide.clone(), -wide.clone(), -wide.clone()], [wide.clone(), wide.clone(), wide]).unwrap();
    let options = StatusOptions { precision: 8, max_boxes: 5_000 };
    match implicit_status(&slab, &ball, &options).unwrap() {
        CurvedStatus::Penetrating { witness } => {
            assert!(slab.contains_strictly(&witness) && ball.contains_strictly(&witness))
        }
        CurvedStatus::Undecided { .. } => {}
        other => panic!("they overlap: the slab holds the ball's centre; {other:?}"),
    }
}

/// The separated bounds: lower ≤ exact ≤ upper, both present, and the interval no wider than
/// the precision's distance (the shapes' size `size` over 2^40) allows: with d the exact gap,
/// √upper − √lower ≤ 2·size·2⁻⁴⁰, checked as upper − lower ≤ (2·size·2⁻⁴⁰)·(√upper + √lower)
/// with √upper + √lower ≤ 2d + 1.
fn assert_tight(s: &CurvedStatus, gap2: &BigRational, gap: &BigRational, size: i64, what: &str) {
    let CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } = s else { panic!("{what}: {s:?}") };
    let upper = gap_squared_upper.clone().unwrap_or_else(|| panic!("{what}: no upper bound"));
    assert!(*gap_squared_lower > q(0) && gap_squared_lower <= gap2 && gap2 <= &upper, "{what}: {s:?} vs {gap2}");
    let eps = BigRational::new((2 * size).into(), num_bigint::BigInt::from(1u64 << 40));
    let room = &eps * (q(2) * gap + q(1));
    assert!(&upper - gap_squared_lower <= room, "{what}: [{gap_squared_lower}, {upper}] wider than {room}");
}

fn status40(a: &Implicit, b: &Implicit) -> CurvedStatus {
    implicit_status(a, b, &StatusOptions { precision: 40, ..StatusOptions::default() }).expect("no budget")
}

#[test]
fn small_gaps_are_bounded_to_the_precision() {
    // Balls along Pythagorean offsets, apart by len·2⁻ᵏ (k up to 40): the sphere's own
    // polynomial separates them, with the exact gap inside bounds of the precision's width.
    let c0 = [q(1), q(-2), r(1, 3)];
    for (d, len) in OFFSETS {
        for k in [6u32, 20, 33, 40] {
            let (ra, rb) = (r(len, 4), r(3 * len, 4));
            let gap = BigRational::new(len.into(), num_bigint::BigInt::from(1u64 << k));
            let c1 = [0, 1, 2].map(|i| &c0[i] + q(d[i]) + &gap * q(d[i]) / q(len));
            let a = Implicit::sphere(c0.clone(), ra).unwrap();
            let b = Implicit::sphere(c1, rb).unwrap();
            let size = 3 * len;
            assert_tight(&status40(&a, &b), &(&gap * &gap), &gap, size, &format!("balls {d:?} 2^-{k}"));
        }
    }
    // A unit ball over the top circle of the torus (R, r) = (3, 1), lifted by 2⁻ᵏ: every point
    // of that circle is as high as the contact point, so no plane certifies this one cheaply;
    // the ball's own polynomial does.
    let torus = Implicit::torus(q(3), q(1)).unwrap();
    for k in [3u32, 20, 40] {
        let gap = BigRational::new(1.into(), num_bigint::BigInt::from(1u64 << k));
        let ball = Implicit::sphere([q(3), q(0), q(2) + &gap], q(1)).unwrap();
        assert_tight(&status40(&torus, &ball), &(&gap * &gap), &gap, 9, &format!("torus top 2^-{k}"));
        // And the other way round.
        assert_tight(&status40(&ball, &torus), &(&gap * &gap), &gap, 9, &format!("torus top, swapped, 2^-{k}"));
    }
    // Two ellipsoids tip to tip along x (semi-axes (2, 1, 1) and (1, 3, 1/2)), apart by 2⁻²⁰:
    // neither polynomial is a sphere's; the plane between the tips separates them.
    let gap = BigRational::new(1.into(), num_bigint::BigInt::from(1u64 << 20));
    let a = Implicit::ellipsoid([q(0), q(0), q(0)], [q(2), q(1), q(1)]).unwrap();
    let b = Implicit::ellipsoid([q(3) + &gap, q(0), q(0)], [q(1), q(3), r(1, 2)]).unwrap();
    assert_tight(&status40(&a, &b), &(&gap * &gap), &gap, 6, "ellipsoids");
    // A ball over a cube's face by 2⁻³⁰.
    let one = q(1);
    let planes = [0usize, 1, 2].iter().flat_map(|&i| {
        let mut p = [q(0), q(0), q(0), one.clone()];
        p[i] = q(1);
        let mut m = [q(0), q(0), q(0), one.clone()];
        m[i] = q(-1);
        [p, m]
    });
    let cube = Implicit::halfspaces(&planes.collect::<Vec<_>>(), [q(-2), q(-2), q(-2)], [q(2), q(2), q(2)]).unwrap();
    let gap = BigRational::new(1.into(), num_bigint::BigInt::from(1u64 << 30));
    let ball = Implicit::sphere([r(1, 3), r(-1, 5), q(3) + &gap], q(2)).unwrap();
    assert_tight(&status40(&cube, &ball), &(&gap * &gap), &gap, 5, "cube face");
}

/// Lin–Manocha's Example 5.1: F and G as printed in the paper.
fn paper_tori() -> (Poly3, Poly3) {
    let t = |c: BigRational, e: [u32; 3]| (c, e);
    let f = Poly3::from_terms(&[
        t(q(64), [0, 0, 0]),
        t(q(-20), [2, 0, 0]),
        t(q(1), [4, 0, 0]),
        t(q(-20), [0, 2, 0]),
        t(q(2), [2, 2, 0]),
        t(q(1), [0, 4, 0]),
        t(q(16), [0, 0, 2]),
        t(q(2), [2, 0, 2]),
        t(q(2), [0, 2, 2]),
        t(q(1), [0, 0, 4]),
    ])
    .unwrap();
    // 392.0625 − 291x + 84.5x² − 12x³ + x⁴ + 32.5y² − 12xy² + 2x²y² + y⁴ − 227.5z + 84xz
    // − 14x²z − 14y²z + 81.5z² − 12xz² + 2x²z² + 2y²z² − 14z³ + z⁴.
    let g = Poly3::from_terms(&[
        t(r(6273, 16), [0, 0, 0]),
        t(q(-291), [1, 0, 0]),
        t(r(169, 2), [2, 0, 0]),
        t(q(-12), [3, 0, 0]),
        t(q(1), [4, 0, 0]),
        t(r(65, 2), [0, 2, 0]),
        t(q(-12), [1, 2, 0]),
        t(q(2), [2, 2, 0]),
        t(q(1), [0, 4, 0]),
        t(r(-455, 2), [0, 0, 1]),
        t(q(84), [1, 0, 1]),
        t(q(-14), [2, 0, 1]),
        t(q(-14), [0, 2, 1]),
        t(r(163, 2), [0, 0, 2]),
        t(q(-12), [1, 0, 2]),
        t(q(2), [2, 0, 2]),
        t(q(2), [0, 2, 2]),
        t(q(-14), [0, 0, 3]),
        t(q(1), [0, 0, 4]),
    ])
    .unwrap();
    (f, g)
}

#[test]
fn theorem_4_1_on_the_papers_tori() {
    use touchstone::curved::interpenetration;
    let (f, g) = paper_tori();
    // The printed polynomials are the tori (R, r) = (3, 1) about z at the origin and (2, 1)
    // about x at (3, 0, 7/2), exactly.
    let tf = Implicit::torus(q(3), q(1)).unwrap();
    let tg = Implicit::torus_about([q(3), q(0), r(7, 2)], [q(1), q(0), q(0)], q(2), q(1)).unwrap();
    assert_eq!(tf.surface(), &f);
    assert_eq!(tg.surface(), &g);
    // As printed they interpenetrate (the motion's last frame): system (10) has real solutions,
    // each certified, with an exact witness beside them, and the status agrees.
    let v = [q(0), q(0), q(1)];
    let s = interpenetration(&tf, &tg, v.clone(), 30, 200_000).unwrap();
    assert!(s.interpenetrating() && s.points.len() >= 2, "{s:?}");
    let w = s.witness.clone().expect("a witness");
    assert!(tf.contains_strictly(&w) && tg.contains_strictly(&w));
    assert!(matches!(status(&tf, &tg), CurvedStatus::Penetrating { .. }));
    // Every certified point is on both surfaces: F and G change sign across each box (their
    // enclosures hold 0), checked here at the boxes' corners in exact arithmetic.
    for bx in &s.points {
        for (p, name) in [(&f, "F"), (&g, "G")] {
            let vals: Vec<BigRational> = (0..8)
                .map(|k| {
                    let c = [0, 1, 2].map(|i| BigRational::from_float(bx[i][(k >> i) & 1]).unwrap());
                    p.eval(&c)
                })
                .collect();
            assert!(vals.iter().any(|x| *x <= q(0)) && vals.iter().any(|x| *x >= q(0)), "{name} on {bx:?}");
        }
    }
    // At the motion's start (G's centre at (3⅓, 1/5, 5½)) they are apart: no real solution,
    // proved over the whole common box, and separated.
    let start = Implicit::torus_about([r(10, 3), r(1, 5), r(11, 2)], [q(1), q(0), q(0)], q(2), q(1)).unwrap();
    let s = interpenetration(&tf, &start, v, 30, 200_000).unwrap();
    assert!(s.none_proved(), "{s:?}");
    assert!(matches!(status(&tf, &start), CurvedStatus::Separated { .. }));
}

/// The Tangent certificate of the ball centred (4, 0, 1) of radius about √2 − 1 on the torus
/// (3, 1): the point box holds (3 + 1/√2, 0, 1/√2), the value box 0, the cell the point box.
fn holds_the_irrational_tangency(
    point: &[[BigRational; 2]; 3],
    value: &[BigRational; 2],
    cell: &[[BigRational; 2]; 3],
) {
    // 3 + 1/√2 in [lo, hi] ⟺ (lo − 3)² ≤ 1/2 ≤ (hi − 3)² (both above 3); 1/√2 likewise.
    let half = r(1, 2);
    let sq = |x: &BigRational| x * x;
    assert!(sq(&(&point[0][0] - q(3))) <= half && half <= sq(&(&point[0][1] - q(3))), "{point:?}");
    assert!(sq(&point[2][0]) <= half && half <= sq(&point[2][1]), "{point:?}");
    assert!(point[1][0] <= q(0) && q(0) <= point[1][1], "{point:?}");
    assert!(value[0] <= q(0) && q(0) <= value[1], "{value:?}");
    for i in 0..3 {
        assert!(cell[i][0] <= point[i][0] && point[i][1] <= cell[i][1], "{cell:?}");
    }
}

#[test]
fn an_irrational_tangency_is_touching_within_the_precision() {
    // The torus (3, 1) and a ball centred (4, 0, 1): its centre is √2 from the tube's centre
    // circle point (3, 0, 0), so a radius of √2 − 1 would touch at (3 + 1/√2, 0, 1/√2), an
    // irrational point. With the radius √2 − 1 truncated to 29 decimals, or rounded up, the
    // solids are 10⁻²⁹ apart or overlapping: below the precision either way. The certificate
    // is the Krawczyk tangency: a box proved to hold the one tangency point, which holds the
    // exact point, and b's constraint there enclosed about 0.
    let torus = Implicit::torus(q(3), q(1)).unwrap();
    let digits = "41421356237309504880168872420";
    let den = num_bigint::BigInt::from(10).pow(29);
    for up in [0, 1] {
        let rho = BigRational::new(digits.parse::<num_bigint::BigInt>().unwrap() + up, den.clone());
        let ball = Implicit::sphere([q(4), q(0), q(1)], rho).unwrap();
        match status40(&torus, &ball) {
            CurvedStatus::Tangent { point, value, cell, .. } => holds_the_irrational_tangency(&point, &value, &cell),
            other => panic!("radius +{up}: {other:?}"),
        }
    }
    // A rational tangency point that is not a contact: the ball over the tube's top lifted by
    // 2⁻⁷⁰, far below the enclosures' resolution: touching to within the precision, with the
    // point (3, 0, 1) in the box.
    let lift = BigRational::new(1.into(), num_bigint::BigInt::from(2).pow(70));
    let ball = Implicit::sphere([q(3), q(0), q(2) + lift], q(1)).unwrap();
    match status40(&torus, &ball) {
        CurvedStatus::Tangent { point, .. } => {
            for (i, c) in [q(3), q(0), q(1)].iter().enumerate() {
                assert!(&point[i][0] <= c && c <= &point[i][1], "{point:?}");
            }
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_tori_of_fig_7_along_their_motion() {
    use touchstone::curved::first_contact_translating;
    use touchstone::geom::{Point3, Vector3};
    use touchstone::round::torus::{torus_first_contact, Circle, Curve};
    // F at rest; G (R = 2, r = 1, axis x) from (3⅓, 1/5, 5½) at t = 0 to the paper's printed
    // position (3, 0, 7/2) at t = 1: velocity (−1/3, −1/5, −2). The exact route (the tori's
    // circles, `round::torus`) puts the first contact at 0.750870556583562001506808139…
    // (`tests/torus.rs` pins it to 30 digits by two routes); the certified curved route must
    // enclose it from the implicit quartics alone.
    let f = Implicit::torus(q(3), q(1)).unwrap();
    let g0 = Implicit::torus_about([r(10, 3), r(1, 5), r(11, 2)], [q(1), q(0), q(0)], q(2), q(1)).unwrap();
    let v = [r(-1, 3), r(-1, 5), q(-2)];
    let width = r(1, 1_000_000);
    let options = StatusOptions { precision: 40, ..StatusOptions::default() };
    let hit =
        first_contact_translating(&f, &g0, v.clone(), [q(0), q(1)], &width, &options, 400).unwrap().expect("decided");
    assert!(hit.collides && !hit.at_start, "{hit:?}");
    let [lo, hi] = hit.interval.clone();
    assert!(&hi - &lo <= width, "{hit:?}");
    // The exact route's enclosure of the same time must meet this one.
    let circle = |c: Point3<BigRational>, n: Vector3<BigRational>, rad| Circle::new(c, n, rad).unwrap();
    let big = circle(Point3::new(q(0), q(0), q(0)), Vector3::new(q(0), q(0), q(1)), q(3));
    let small = circle(Point3::new(r(10, 3), r(1, 5), r(11, 2)), Vector3::new(q(1), q(0), q(0)), q(2));
    let exact = torus_first_contact(
        &big,
        &Curve::Circle(small),
        &q(2),
        &Vector3::new(v[0].clone(), v[1].clone(), v[2].clone()),
        &q(0),
        &q(1),
        &BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(20)),
    )
    .unwrap();
    let [elo, ehi] = exact.interval;
    assert!(elo >= lo && ehi <= hi, "exact [{elo}, {ehi}] not in [{lo}, {hi}]");
    // Along the motion: apart before lo (proved by the advancement), overlapping at hi.
    let at = |t: &BigRational| g0.posed(&Affine::translation(Vector3::new(&v[0] * t, &v[1] * t, &v[2] * t))).unwrap();
    assert!(matches!(status40(&f, &at(&(&lo - r(1, 100)))), CurvedStatus::Separated { .. }));
    assert!(matches!(status40(&f, &at(&(&hi + r(1, 100)))), CurvedStatus::Penetrating { .. }));
    assert!(matches!(status40(&f, &at(&q(1))), CurvedStatus::Penetrating { .. }));

    // Fig. 6–7: each torus as sixteen biquadratic Bézier patches under the hull of each
    // patch's control points and the hull of all of them. The patches lie on the quartics
    // exactly; along the motion the levels meet in order: here the root hulls and a pair of
    // patch hulls at the same instant 3/4 (the hulls' faces at z = 1 over F's top circle and
    // at G's bottom), the surfaces later (Fig. 7(e): patch hulls meet, the surfaces are apart;
    // (f): the surfaces meet).
    use touchstone::curved::bezier::{cull, level_first_contacts, torus_patches, Hierarchy};
    let fp = torus_patches(&q(3), &q(1)).unwrap();
    // G about z, turned so that z goes to x ((x, y, z) ↦ (z, y, −x)), then moved to its start.
    let turn = |c: [BigRational; 3]| {
        let [x, y, z] = c;
        Affine::from_rows(&[[q(0), q(0), q(1), x], [q(0), q(1), q(0), y], [q(-1), q(0), q(0), z]])
    };
    let gp: Vec<_> =
        torus_patches(&q(2), &q(1)).unwrap().iter().map(|p| p.posed(&turn([r(10, 3), r(1, 5), r(11, 2)]))).collect();
    assert!(fp.iter().all(|p| p.lies_on(f.surface())));
    assert!(gp.iter().all(|p| p.lies_on(g0.surface())));
    let (hf, hg) = (Hierarchy::new(&fp).unwrap(), Hierarchy::new(&gp).unwrap());
    let levels = level_first_contacts(&hf, &hg, &v, &q(0), &q(1)).unwrap();
    let t_root = levels.root.clone().expect("the roots meet");
    let (t_patch, _, _) = levels.patches.clone().expect("a pair of patch hulls meets");
    assert!(t_root == r(3, 4) && t_patch == r(3, 4) && t_patch < lo, "root {t_root}, patches {t_patch}, surfaces {lo}");
    let moved = |patches: &[touchstone::curved::bezier::Patch], d: [BigRational; 3], t: &BigRational| {
        let m = Affine::translation(Vector3::new(&d[0] * t, &d[1] * t, &d[2] * t));
        Hierarchy::new(&patches.iter().map(|p| p.posed(&m)).collect::<Vec<_>>()).unwrap()
    };
    let later = (&t_patch + &lo) / q(2);
    let c = cull(&hf, &moved(&gp, v.clone(), &later)).unwrap();
    assert!(c.roots_meet && !c.patch_pairs.is_empty(), "{c:?}");
    assert!(matches!(status40(&f, &at(&later)), CurvedStatus::Separated { .. }));
    // Fig. 7(c)–(d): a small torus (R = 1/2, r = 1/4, axis x) falling through F's hole, from
    // height 3 at speed 6. The root hulls meet when its lowest control points reach F's root's
    // top face z = 1 (t = 5/24); no patch hull of F comes within √2 of the axis, and the small
    // torus stays within 3√2/4 of it, so no pair of patch hulls ever meets: in the hole the
    // roots meet while no subpart does, and the surfaces are apart.
    let down = [q(0), q(0), q(-6)];
    let gh: Vec<_> =
        torus_patches(&r(1, 2), &r(1, 4)).unwrap().iter().map(|p| p.posed(&turn([q(0), q(0), q(3)]))).collect();
    let levels = level_first_contacts(&hf, &Hierarchy::new(&gh).unwrap(), &down, &q(0), &q(1)).unwrap();
    assert_eq!((levels.root.clone(), levels.patches.clone()), (Some(r(5, 24)), None), "{levels:?}");
    let c = cull(&hf, &moved(&gh, down.clone(), &r(1, 2))).unwrap();
    assert!(c.roots_meet && c.patch_pairs.is_empty() && c.separated_by.as_ref().is_some_and(|d| *d > q(0)), "{c:?}");
    let gt = Implicit::torus_about([q(0), q(0), q(0)], [q(1), q(0), q(0)], r(1, 2), r(1, 4)).unwrap();
    assert!(matches!(status40(&f, &gt), CurvedStatus::Separated { .. }));
}

/// Whether `w` is strictly inside the torus and inside its copy moved by the map `back`
/// inverts (checked exactly).
fn inside_both_tori(torus: &Implicit, back: &Affine<BigRational>, w: &[BigRational; 3]) -> bool {
    let v = back.apply_point(&touchstone::geom::Point3::new(w[0].clone(), w[1].clone(), w[2].clone()));
    torus.contains_strictly(w) && torus.contains_strictly(&[v.x.clone(), v.y.clone(), v.z.clone()])
}

#[test]
fn the_bezier_torus_agrees_with_the_implicit_torus() {
    use touchstone::curved::bezier::torus_patches;
    use touchstone::curved::{bezier_implicit_status, bezier_pair_status, BezierSolid};
    let torus = Implicit::torus(q(3), q(1)).unwrap();
    let bz = BezierSolid::new(torus_patches(&q(3), &q(1)).unwrap()).unwrap();
    // Containment by ray casting, against the quartic's sign (points off the surface).
    let points = [
        [q(3), q(0), q(0)],
        [q(0), q(0), q(0)],
        [r(7, 2), r(1, 10), r(1, 5)],
        [q(0), q(-3), r(9, 10)],
        [q(0), q(-3), r(11, 10)],
        [q(5), q(0), q(0)],
        [r(-21, 10), r(1, 3), q(0)],
        [r(-19, 10), r(1, 3), q(0)],
        [q(2), q(2), r(1, 2)],
    ];
    for p in &points {
        let inside = torus.surface().eval(p) < q(0);
        assert_eq!(bz.contains(p).unwrap(), Some(inside), "{p:?}");
    }
    // Against balls: apart, pushed in, inside the hole: the same status as the implicit torus,
    // and separation bounds below the exact gap.
    let opts = StatusOptions { precision: 30, ..StatusOptions::default() };
    let cases = [
        ([q(3), q(0), q(3)], q(1), "separated", Some(q(1))),
        ([q(6), q(0), q(0)], q(1), "separated", Some(q(1))),
        ([q(3), q(0), r(15, 8)], q(1), "penetrating", None),
        ([q(0), q(0), q(0)], q(1), "separated", Some(q(1))),
        ([q(3), q(0), q(0)], r(1, 4), "penetrating", None),
    ];
    for (c, rho, expected, gap) in cases {
        let ball = Implicit::sphere(c.clone(), rho.clone()).unwrap();
        let kind = |s: &CurvedStatus| match s {
            CurvedStatus::Separated { .. } => "separated",
            CurvedStatus::Penetrating { .. } => "penetrating",
            CurvedStatus::Touching { .. } | CurvedStatus::Tangent { .. } => "touching",
            CurvedStatus::Undecided { .. } => "undecided",
        };
        let implicit = status40(&torus, &ball);
        assert_eq!(kind(&implicit), expected, "implicit {c:?}: {implicit:?}");
        let s = bezier_implicit_status(&bz, &ball, &opts).unwrap().expect("a ball is convex");
        assert_eq!(kind(&s), expected, "Bézier {c:?}: {s:?}");
        match (&s, gap) {
            (CurvedStatus::Separated { gap_squared_lower, .. }, Some(g)) => {
                assert!(*gap_squared_lower > q(0) && *gap_squared_lower <= &g * &g, "{s:?}");
            }
            (CurvedStatus::Penetrating { witness }, None) => {
                assert!(torus.contains_strictly(witness) && ball.contains_strictly(witness), "{s:?}");
            }
            _ => panic!("{s:?}"),
        }
    }
    // Touching at exact rational tangencies: a unit ball on the tube's top at (3, 0, 1) (on
    // patch edges), and one on the outer equator at (12/5, 16/5, 0) (the major arc's
    // parameter 1/2): the exact contact point, and a's outward normal there.
    for (c, p) in [([q(3), q(0), q(2)], [q(3), q(0), q(1)]), ([q(3), q(4), q(0)], [r(12, 5), r(16, 5), q(0)])] {
        let ball = Implicit::sphere(c.clone(), q(1)).unwrap();
        let s = bezier_implicit_status(&bz, &ball, &opts).unwrap().expect("a ball is convex");
        match &s {
            CurvedStatus::Touching { point, normal, .. } => {
                assert_eq!(point, &p);
                // −∇g = −2(p − c) points from the ball toward the torus... out of a: along p − c.
                let d = [0, 1, 2].map(|i| &p[i] - &c[i]);
                assert!((0..3).all(|i| normal[i] == q(-2) * &d[i]), "{normal:?}");
            }
            other => panic!("{c:?}: {other:?}"),
        }
    }
    // Two Bézier tori: apart (the second lifted by 3), and linked through each other's holes.
    let lifted = bz.posed(&Affine::translation(touchstone::geom::Vector3::new(q(0), q(0), q(3)))).unwrap();
    let s = bezier_pair_status(&bz, &lifted, &opts).unwrap();
    assert!(
        matches!(&s, CurvedStatus::Separated { gap_squared_lower, .. } if *gap_squared_lower > q(0) && *gap_squared_lower <= q(1)),
        "{s:?}"
    );
    // Linked through each other (each core circle through the other's centre, in
    // perpendicular planes), and lifted by 3/2 (the tubes overlap by 1/2): the same status as
    // the implicit tori's, a witness inside both when penetrating.
    let turn = Affine::from_rows(&[[q(1), q(0), q(0), q(3)], [q(0), q(0), q(-1), q(0)], [q(0), q(1), q(0), q(0)]]);
    let half = Affine::translation(touchstone::geom::Vector3::new(q(0), q(0), r(3, 2)));
    for m in [turn, half] {
        let implicit = status40(&torus, &torus.posed(&m).unwrap());
        let s = bezier_pair_status(&bz, &bz.posed(&m).unwrap(), &opts).unwrap();
        let back = m.inverse().unwrap();
        match (&s, &implicit) {
            (CurvedStatus::Penetrating { witness }, CurvedStatus::Penetrating { .. }) => {
                assert!(inside_both_tori(&torus, &back, witness), "{s:?}");
            }
            (CurvedStatus::Separated { gap_squared_lower, .. }, CurvedStatus::Separated { gap_squared_upper, .. }) => {
                assert!(*gap_squared_lower > q(0), "{s:?}");
                if let Some(u) = gap_squared_upper {
                    assert!(gap_squared_lower <= u, "{s:?} {implicit:?}");
                }
            }
            (CurvedStatus::Undecided { .. }, _) => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_bezier_torus_and_a_ball_at_an_irrational_tangency() {
    // The ball of `an_irrational_tangency_is_touching_within_the_precision` on the Bézier torus:
    // no rational tangency, so the certificate is the Krawczyk one on the patch's ∇φ = 0: a
    // box that holds the exact point (3 + 1/√2, 0, 1/√2), b's constraint enclosed about 0.
    use touchstone::curved::bezier::torus_patches;
    use touchstone::curved::{bezier_implicit_status, BezierSolid};
    let bz = BezierSolid::new(torus_patches(&q(3), &q(1)).unwrap()).unwrap();
    let opts = StatusOptions { precision: 30, ..StatusOptions::default() };
    let den = num_bigint::BigInt::from(10).pow(29);
    for up in [0, 1] {
        let rho =
            BigRational::new("41421356237309504880168872420".parse::<num_bigint::BigInt>().unwrap() + up, den.clone());
        let ball = Implicit::sphere([q(4), q(0), q(1)], rho).unwrap();
        match bezier_implicit_status(&bz, &ball, &opts).unwrap().expect("a ball is convex") {
            CurvedStatus::Tangent { point, value, cell, .. } => holds_the_irrational_tangency(&point, &value, &cell),
            other => panic!("radius +{up}: {other:?}"),
        }
    }
}

#[test]
fn bezier_tori_touching_at_a_point() {
    // Two Bézier tori (3, 1) in the plane z = 0, the second's centre 8 along x: their outer
    // equators touch at (4, 0, 0) (a corner of four patches of each), curving apart both ways:
    // a point contact, a's outward normal along +x. Centred at (24/5, 32/5, 0), they touch at
    // (12/5, 16/5, 0), inside a patch of each (the rational circle's 3-4-5 point). Moved
    // 2⁻¹⁰ closer they overlap (a witness inside both, checked on the implicit tori); 2⁻⁴
    // apart they are separated, never touching.
    use touchstone::curved::bezier::torus_patches;
    use touchstone::curved::{bezier_pair_status, BezierSolid};
    use touchstone::geom::Vector3;
    let torus = Implicit::torus(q(3), q(1)).unwrap();
    let bz = BezierSolid::new(torus_patches(&q(3), &q(1)).unwrap()).unwrap();
    let opts = StatusOptions { precision: 12, ..StatusOptions::default() };
    let moved = |c: [BigRational; 3]| Affine::translation(Vector3::new(c[0].clone(), c[1].clone(), c[2].clone()));
    for (c, p, dir) in [
        ([q(8), q(0), q(0)], [q(4), q(0), q(0)], [q(1), q(0), q(0)]),
        ([r(24, 5), r(32, 5), q(0)], [r(12, 5), r(16, 5), q(0)], [q(3), q(4), q(0)]),
    ] {
        let other = bz.posed(&moved(c.clone())).unwrap();
        match bezier_pair_status(&bz, &other, &opts).unwrap() {
            CurvedStatus::Touching { point, normal, .. } => {
                assert_eq!(point, p);
                // Parallel to dir, the same way.
                let k = &normal[0] * &dir[0] + &normal[1] * &dir[1];
                assert!(k > q(0), "{normal:?}");
                assert_eq!(&normal[0] * &dir[1], &normal[1] * &dir[0], "{normal:?}");
                assert_eq!(normal[2], q(0));
            }
            other => panic!("{c:?}: {other:?}"),
        }
        // Nudged along dir (a 3-4-5 direction: exact).
        let len = if dir[1] == q(0) { q(1) } else { q(5) };
        // (2⁻⁴⁰ apart: below the precision, no exact tangency: never touching.)
        let tiny = BigRational::new(1.into(), num_bigint::BigInt::from(2).pow(40));
        for (g, expect) in [(r(-1, 1024), "penetrating"), (r(1, 16), "separated"), (tiny, "not touching")] {
            let c2 = [0, 1, 2].map(|i| &c[i] + &dir[i] / &len * &g);
            let m = moved(c2.clone());
            let s = bezier_pair_status(&bz, &bz.posed(&m).unwrap(), &opts).unwrap();
            match (&s, expect) {
                (CurvedStatus::Penetrating { witness }, "penetrating") => {
                    assert!(inside_both_tori(&torus, &m.inverse().unwrap(), witness), "{s:?}");
                }
                (CurvedStatus::Separated { gap_squared_lower, .. }, "separated") => {
                    assert!(*gap_squared_lower > q(0) && *gap_squared_lower <= r(1, 256), "{s:?}");
                }
                (CurvedStatus::Separated { gap_squared_lower, .. }, "not touching") => {
                    assert!(*gap_squared_lower > q(0) && *gap_squared_lower <= &g * &g, "{s:?}");
                }
                (CurvedStatus::Undecided { .. }, "not touching") => {}
                _ => panic!("{c2:?}: {s:?}"),
            }
        }
    }
}
