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
