//! Failures found by differential tests and fuzzing, kept as ordinary tests. Each is named for
//! where it came from and says what the root cause was.

use touchstone::brep::check_hull_agreement;
use touchstone::geom::Point3;

/// From `hull_properties::f64_hull_agrees_with_exact` (a 4 × 4 grid rotated exactly by a
/// rational quaternion and rounded to binary64). The f64 hull failed its own validation with
/// `NonPlanarFace`: the planarity test measured its tolerance against |n| of the computed
/// Newell normal, but for a sliver face the rounding error of n scales with the magnitudes of
/// its terms, which are far larger than |n|. Fixed by deciding planarity against the Newell
/// magnitudes (the tolerance policy's "magnitude of the terms"). Replay:
/// `{"op": "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_sliver_face_planarity_proptest() {
    let points: Vec<[f64; 3]> = vec![
        [-0.34782608695652173, 1.7826086956521738, 1.3043478260869565],
        [1.0434782608695652, 1.6521739130434783, 1.0869565217391304],
        [-0.7391304347826086, -1.0869565217391304, 0.5217391304347826],
        [0.043478260869565216, -1.3478260869565217, 1.0869565217391304],
        [1.0869565217391304, 0.30434782608695654, 2.1739130434782608],
        [0.0, 0.0, 0.0],
        [1.826086956521739, 1.391304347826087, 1.6521739130434783],
        [-0.8695652173913043, -2.0434782608695654, 0.2608695652173913],
        [0.6086956521739131, 1.1304347826086956, 3.217391304347826],
        [-2.782608695652174, 0.2608695652173913, 0.43478260869565216],
        [-1.8695652173913044, 0.9565217391304348, 1.2608695652173914],
        [-0.9565217391304348, 1.6521739130434783, 2.0869565217391304],
    ];
    // The whole set, and the set without its first point (the two cases proptest found).
    for pts in [&points[..], &points[1..]] {
        let p: Vec<Point3<f64>> = pts.iter().map(|c| Point3::from(*c)).collect();
        assert!(touchstone::brep::convex_hull(&p).is_ok());
        check_hull_agreement(&p).unwrap();
    }
}

/// From the `hull_diff` fuzz target (2026-11-27): coordinates of −3.13e105 beside a subnormal
/// 1.39e-309. The f64 hull's orientation products reach 10³¹⁵ and overflow, and the hull
/// refuses with `Uncertain(Overflow)`. `check_hull_agreement` called that a breach, where the
/// `validate` op's own agreement (the oracle's `both`) says the contract covers only
/// computations within binary64's range. The two contracts now agree: the refusal is admissible.
/// Replay: `{"op": "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_overflow_is_a_typed_refusal_fuzz() {
    let (h, tiny) = (-3.1299510524099795e105, 1.390671161837457e-309);
    let points: Vec<[f64; 3]> =
        vec![[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [0.0, h, h], [h, h, h], [h, h, tiny]];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    // The f64 hull really overflows (the case is what it says), and the exact one is a solid.
    assert!(matches!(
        touchstone::brep::convex_hull(&p),
        Err(touchstone::brep::HullError::Uncertain(touchstone::scalar::Uncertain::Overflow))
    ));
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
}

/// From the `hull_diff` fuzz target (CI, 2026-12-05), twice: a first tetrahedron of the f64
/// hull that was a sliver. (1) A 2 × 3 grid in the plane x = 0, a point (3.2378e-319, 0, −89)
/// a subnormal height off it, and points 0.02 behind it reaching to z = −22617: the grid's
/// first three points and the subnormal one made the tetrahedron. Its height was decided
/// nonzero against its permanent (the factors 0 and 1 are exact, so no underflow weight), but
/// every later test on it multiplies by 89 and was called coplanar, so (0, 2, 0) and (0, 2, 1)
/// saw no face, were taken for inside, and the hull missed them by 1 in y. (2) (0, 0, 2),
/// (0, 7·10⁻³⁰⁴, 1.87), (w, w, w) and (0, 9·10⁻³¹³, 0): a volume of relative size 1 against its
/// permanent and 10⁻³⁰⁴ against its edges, and the hull came out non-convex. Fixed by a
/// tolerant backend's preferring a fourth point whose height is decided against the
/// tetrahedron's edges too. Replay: `{"op": "validate", "backend": "both", "solid":
/// {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_sliver_first_tetrahedron_fuzz() {
    let w = -0.021569252014160156;
    let grid: Vec<[f64; 3]> = vec![
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0],
        [0.0, 1.0, 1.0],
        [0.0, 2.0, 0.0],
        [0.0, 2.0, 1.0],
        [3.2378e-319, 0.0, -89.0],
        [w, w, w],
        [w, w, w],
        [w, w, -22617.0],
    ];
    let (v, h) = (-0.21961212158203125, 1.86663818359375);
    let tilted: Vec<[f64; 3]> = vec![
        [0.0, 0.0, 2.0],
        [0.0, 7.29112202390695e-304, h],
        [v, v, v],
        [v, v, v],
        [h, h, 1.61663818359375],
        [0.0, 8.70110878433e-313, 0.0],
        [h, v, v],
    ];
    for (points, kept) in [(grid, vec![4, 5]), (tilted, vec![0, 2, 4, 6])] {
        let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
        // The f64 hull keeps the far points and is convex (neither before the fix).
        let hull = touchstone::brep::convex_hull(&p).expect("an f64 hull");
        assert!(kept.iter().all(|k| hull.input_index.contains(k)), "{:?}", hull.input_index);
        assert_eq!(hull.solid.is_convex(), Ok(true));
        assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
    }
}

/// From the `hull_diff` fuzz target (2026-12-05): points 3·10¹⁸ across, three of them on one
/// line x = y = −2.8483943054992686e18 with the two lowest 1,024 apart (two ulps of their z).
/// The f64 hull ends that edge at the inner of the two (the outer was within the tolerance of
/// a face of its first tetrahedron), and the contract's check measured the outer's height over
/// a face at the inner corner against its distance from that corner: "outside by 10⁻⁴". As a
/// distance relative to the points' size (what the check says it measures) it is 10⁻²⁰; the
/// check now divides by the points' extent (`brep::hull_contract::tests` shows the measure on
/// a grid). Replay: `{"op": "validate", "backend": "both",
/// "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_contract_heights_relative_to_the_points_extent_fuzz() {
    let (f, tiny) = (-2.8483943054992686e18, 8.31380501592682e-275);
    let points: Vec<[f64; 3]> = vec![
        [7.0, 7.0, 7.0],
        [f, f, -2.847268405592426e18],
        [f, f, -2.8483943054991923e18],
        [tiny, 7.0, 8.313805020982526e-275],
        [7.0, 8.313931556202414e-275, f],
        [f, f, -2.8483943054991933e18],
        [-2.8483943054992937e18, -2.84895725545269e18, 8.314844756625925e-275],
        [7.0, 7.0, 7.0],
        [1.0, -64.0, 1.0],
    ];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    // The outer point (5) is above a face of the f64 hull by a relative 10⁻⁴ of that face's
    // own tests, so the f64 hull now finds it lost and takes the exact hull of the same
    // numbers (the next fix). The f64 hull that kept the inner point is judged in
    // `brep::hull_contract::tests`.
    let fast = touchstone::brep::convex_hull(&p).expect("an f64 hull");
    assert!(fast.input_index.contains(&5) && !fast.input_index.contains(&2), "{:?}", fast.input_index);
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
}

/// From the `hull_diff` fuzz target (2026-12-05): (0, 0, 2), (0, 7·10⁻³⁰⁴, 1.87), (w, w, w),
/// (−1.76, w, w), (h, h, h) and the origin, all but the fourth in the plane x = y within
/// 10⁻³⁰³. The f64 hull's first tetrahedron had a face through the second point, 7·10⁻³⁰⁴ off
/// the plane; (h, h, h) was within the tolerance of that face and saw the ones behind it, and
/// the triangles built around the second point folded over each other in the plane: six
/// vertices where the exact hull is a tetrahedron with a margin of 0.64. Fixed by checking a
/// tolerant hull that called some point coplanar (no point above any triangle, convex) and
/// taking the exact hull of the same numbers when the check fails. Replay: `{"op":
/// "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_folded_in_a_plane_fuzz() {
    let (w, h) = (-0.21961212158203125, 1.86663818359375);
    let points: Vec<[f64; 3]> = vec![
        [0.0, 0.0, 2.0],
        [0.0, 7.29112202390695e-304, h],
        [w, w, w],
        [-1.75689697265625, w, w],
        [w, w, w],
        [h, h, h],
        [0.0, 0.0, 0.0],
    ];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    let fast = touchstone::brep::convex_hull(&p).expect("an f64 hull");
    assert_eq!(fast.input_index, vec![0, 2, 3, 5]);
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
}

/// From the `hull_diff` fuzz target (2026-12-05): a panic. Points from 10⁻²⁷⁵ to 3·10⁴⁷ with
/// many ties; the f64 hull's tolerant decisions made a visible region whose boundary was no
/// single cycle, and the next insertion found its neighbour links broken ("neighbour links
/// are symmetric"). Before the first-tetrahedron fix the same input gave a hull refused as a
/// face of no area. Now a horizon that is no cycle is refused before any link is made, and a
/// tolerant hull that is no solid is the exact hull of the same numbers, its topology trusted
/// (one of its faces is a sliver that binary64's checks call flat). Replay: `touchstone decode
/// hull_diff` of the artifact gave `{"op": "validate", "backend": "both", "solid":
/// {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_horizon_that_is_no_cycle_fuzz() {
    let (f, g) = (6874.75, -409.609375);
    let points: Vec<[f64; 3]> = vec![
        [7.0, 7.0, 7.0],
        [1.0054467212520834e-71, 49.0, 49.0],
        [49.0, 49.0, 49.0],
        [49.0, 49.0, 49.0],
        [107.0, f, f],
        [f, f, f],
        [f, 49.0, 49.0],
        [49.0, 49.0, 49.0],
        [0.0, 49.0, 49.0],
        [48.0, 49.0, 49.0],
        [-2.9444959457990247e47, -55.0, -2.8483723670084367e18],
        [-2.848394015488313e18, -2.8483943054992686e18, -2.8483943054992686e18],
        [8.313805000061395e-275, 7.0, 7.0],
        [7.0, 7.0, 7.0],
        [-128.0, -79.0, -34.0],
        [13.7724609375, 75.0, g],
        [g, g, g],
        [g, 4.556955636253145e-305, 2.0],
        [3.0, 1.0, 2.0],
    ];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    let fast = touchstone::brep::convex_hull(&p).expect("an f64 hull");
    assert_eq!(fast.input_index, vec![4, 5, 6, 10, 11, 14, 15]);
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
    // The `validate` op answers on f64 too, with the exact counts.
    use touchstone::query::{Query, ShapeSpec, Validate};
    let q = Validate::new(ShapeSpec::ConvexHull(p));
    let (e, f) = (q.answer::<num_rational::BigRational>().expect("exact"), q.answer::<f64>().expect("f64"));
    assert_eq!((e.output.vertices, e.output.faces), (f.output.vertices, f.output.faces));
    assert_eq!((f.output.vertices, f.output.edges, f.output.faces), (7, 15, 10));
}

/// From the `hull_diff` fuzz target (2026-12-05): (0, 0, 2), (w, w, w), (2, 2, −128) and
/// (3.5·10⁻²⁹⁴, 5·10⁻²⁹⁹, 3), the last 3.5·10⁻²⁹⁴ off the plane x = y of the others. The exact
/// hull has two triangles there, folded about the edge from (0, 0, 2) to the last point; the
/// f64 hull merged them into one face whose corner at (0, 0, 2) is reflex. Fixed by checking a
/// tolerant hull with merged faces at every corner of its faces (the reflex corner's plane has
/// the other points above it) and taking the exact hull when the check fails. Replay:
/// `{"op": "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_merged_face_with_a_reflex_corner_fuzz() {
    let w = -0.894134521484375;
    let points: Vec<[f64; 3]> = vec![
        [0.0, -48.0, 1.6642978e-316],
        [0.0, 0.0, 0.0],
        [-1.0, -9.0, 0.0],
        [0.0, 0.0, 2.0],
        [2.0, 1.0, 2.0],
        [2.0, 1.0, w],
        [w, w, w],
        [-1.0, -9.0, 0.0],
        [0.0, 0.0, 2.0],
        [3.0, -37.0, -3.0],
        [2.0, 2.0, -128.0],
        [3.5244842643074935e-294, 5.080458433718453e-299, 3.0],
        [1.0, 0.0, 0.0],
    ];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    let fast = touchstone::brep::convex_hull(&p).expect("an f64 hull");
    assert_eq!((fast.solid.vertex_count(), fast.solid.face_count()), (8, 12));
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
}

/// From the `msp_diff` fuzz target (CI, 2026-12-01): a chord of an L-, zigzag- or comb-prism's
/// bottom face, from an edge's midpoint to the origin, under the exact pose (2, −1, −1, −2)
/// shifted by (−11/8, 0, 0), which puts a vertex at the origin. Exactly, the chord lies in the
/// face. The f64 pose rounds that vertex to a few 10⁻¹⁷ off zero, and the face's plane offset
/// −n·p₀ cancels to 2.8·10⁻¹⁷: the origin was decided 2.8·10⁻¹⁷ above the plane against a
/// tolerance relative to the terms at the origin (10⁻²⁹), and the chord came out inside or
/// outside. Fixed by the tolerance model DESIGN.md states, relative to the input's magnitude:
/// a plane carries the scale its offset was computed at (the solid's coordinate bound times
/// |n|₁ for a solid's faces and the index's cuts). Replay: `touchstone arbitrary msp_diff`'s
/// seeds `chord-at-origin-*`, or the lines this test prints.
#[test]
fn msp_chord_through_a_posed_vertex_at_the_origin_fuzz() {
    use touchstone::arbitrary::MspInput;
    use touchstone::query::{both, PointClass};
    for input in MspInput::chords_at_the_origin() {
        let (_, segment) = input.case().and_then(|c| c.queries()).expect("a case");
        let line = touchstone_oracle::encode::replay_line(&segment);
        let answer = both(&segment).expect("an exact answer");
        assert!(answer.agreement.is_ok(), "{:?}\nreplay: {line}", answer.agreement);
        // Not only within the contract: f64 now finds the same pieces on the same features.
        let fast = answer.fast.as_ref().expect("an f64 answer");
        let exact: Vec<(PointClass, String)> =
            answer.exact.output.pieces.iter().map(|p| (p.class, format!("{:?}", p.feature))).collect();
        let f64s: Vec<(PointClass, String)> =
            fast.output.pieces.iter().map(|p| (p.class, format!("{:?}", p.feature))).collect();
        assert_eq!(exact, f64s, "replay: {line}");
        // The zigzag's chord lies in the face exactly (the case is what it says).
        if input.shape == 2 {
            assert!(exact.iter().all(|p| p.0 == PointClass::Boundary), "{line}");
        }
    }
}

/// From the `hull_diff` fuzz target (2026-12-02): six points of the plane x = 0 within 2 of the
/// origin but one, (0, 1, −5.96·10⁸), and the point g·(1, 1, 1) with g = −5.96·10⁸. The f64
/// hull lost the vertex (0, 0, 2) and came out nonconvex: orient3d(G, P0, P1, P3) took the far
/// point as its pivot, so its three rows were 6·10⁸ long and nearly parallel, their determinant
/// (≈ 6·10⁸) below the rounding of the permanent (≈ 2·10²⁶): "coplanar", for four points a
/// unit square and 6·10⁸ apart. orient3d on a tolerant backend now tries the other pivots
/// before it says coplanar (each decision certified against its own magnitude). Replay:
/// `{"op": "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_f64_far_pivot_orientation_fuzz() {
    use touchstone::predicates::orient3d;
    let g = -595821443.5137254;
    let points: Vec<[f64; 3]> = vec![
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 2.0],
        [0.0, 1.0, 0.0],
        [0.0, 1.0, 1.0],
        [0.0, 1.0, g],
        [g, g, g],
    ];
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    let q: Vec<Point3<num_rational::BigRational>> =
        p.iter().map(|x| x.map(|c| num_rational::BigRational::from_float(c).unwrap())).collect();
    // Every orientation of every four of the points, in every order, is the exact one.
    let n = p.len();
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            for c in (0..n).filter(|&c| c != a && c != b) {
                for d in (0..n).filter(|&d| d != a && d != b && d != c) {
                    assert_eq!(
                        orient3d(&p[a], &p[b], &p[c], &p[d]),
                        orient3d(&q[a], &q[b], &q[c], &q[d]),
                        "{a}{b}{c}{d}"
                    );
                }
            }
        }
    }
    // The hull's vertices are the exact hull's: (0,0,0), (0,0,2), (0,1,1), (0,1,g), G.
    let hull = touchstone::brep::convex_hull(&p).unwrap();
    assert_eq!(hull.input_index, vec![0, 2, 4, 5, 6]);
    assert!(check_hull_agreement(&p).is_ok());
    // The case as found: three copies of G and a subnormal point beside them.
    let mut found = points.clone();
    found.extend([[g, g, g], [g, g, g], [2.138598389e-314, 0.0, 0.0]]);
    let p: Vec<Point3<f64>> = found.iter().map(|c| Point3::from(*c)).collect();
    assert!(check_hull_agreement(&p).is_ok());
}

/// From the `hull_diff` fuzz target (2026-12-02): a grid polytope's points with one of them,
/// (1, −2, 2.78·10⁻³⁰⁹), a subnormal above its neighbour (1, −2, 0). The f64 hull is right within
/// tolerance (it keeps (−1, −2, 0), straight within 10⁻³⁰⁹, as a corner of the face y = −2), but
/// the contract judged it by the plane of that face's first three corners, nearly collinear,
/// and measured the corner's distance against a permanent of vanishing products (a relative
/// margin of 1 for 10⁻³⁰⁹). The contract now takes a face's plane through well-spread corners
/// and a distance relative to the points' size. Replay:
/// `{"op": "validate", "backend": "both", "solid": {"convex_hull": [...these points...]}}`.
#[test]
fn hull_contract_sliver_corner_fuzz() {
    let pts: Vec<[f64; 3]> = vec![
        [-2.0, -2.0, 0.0],
        [-2.0, -1.0, 0.0],
        [-2.0, 0.0, 0.0],
        [-2.0, 1.0, 0.0],
        [-2.0, 2.0, 0.0],
        [-1.0, -2.0, 0.0],
        [-1.0, -1.0, 0.0],
        [-1.0, -1.0, 1.0],
        [-1.0, 0.0, 0.0],
        [-1.0, 0.0, 1.0],
        [-1.0, 1.0, 0.0],
        [-1.0, 1.0, 1.0],
        [-1.0, 2.0, 0.0],
        [0.0, -2.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, -1.0, 1.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 2.0],
        [0.0, 1.0, 0.0],
        [0.0, 1.0, 1.0],
        [0.0, 2.0, 0.0],
        [1.0, -2.0, 0.0],
        [1.0, -1.0, 0.0],
        [1.0, -1.0, 1.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
        [1.0, -2.0, 2.781342323135267e-309],
    ];
    let p: Vec<Point3<f64>> = pts.iter().map(|c| Point3::from(*c)).collect();
    assert_eq!(check_hull_agreement(&p), Ok(touchstone::contract::Agreement::WithinTolerance));
}
