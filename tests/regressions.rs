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
