//! `predicates::locate_in_polygon`, the one point-in-polygon test (the contact regions, the
//! ε pipeline's face feet and the brute-force classifier all ask it), against an independent
//! description of the polygon: an L of unit squares on a half-integer grid, where vertex,
//! side, interior and exterior are known by construction. The same answers hold for the
//! polygon turned into a general plane by an exact rotation, in either orientation, and on f64
//! (the grid is exact in binary64).

use num_rational::BigRational;
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::predicates::{locate_in_polygon, PolygonLocation};
use touchstone::scalar::{ratio, Scalar};

type Q = BigRational;

/// The L: the unit squares [0,2]×[0,1] and [0,1]×[1,2], counterclockwise.
const L: [(i64, i64); 6] = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)];

/// The location of (x/2, y/2) in the L, by construction: a corner, the open side it lies on,
/// the open interior of the union of the two squares, or outside.
fn expected(x: i64, y: i64) -> PolygonLocation {
    let corners: Vec<(i64, i64)> = L.iter().map(|&(a, b)| (2 * a, 2 * b)).collect();
    if let Some(i) = corners.iter().position(|&c| c == (x, y)) {
        return PolygonLocation::Vertex(i);
    }
    for i in 0..6 {
        let ((ax, ay), (bx, by)) = (corners[i], corners[(i + 1) % 6]);
        let on_line = (bx - ax) * (y - ay) == (by - ay) * (x - ax);
        let within = (x - ax) * (x - bx) <= 0 && (y - ay) * (y - by) <= 0;
        if on_line && within {
            return PolygonLocation::Edge(i);
        }
    }
    let open = |lo: i64, hi: i64, v: i64| lo < v && v < hi;
    // Doubled coordinates: the squares (0,4)×(0,2) and (0,2)×(0,4), with their shared open
    // side (0,2)×{2} inside too.
    if (open(0, 4, x) && open(0, 2, y)) || (open(0, 2, x) && open(0, 4, y)) || (open(0, 2, x) && y == 2) {
        PolygonLocation::Inside
    } else {
        PolygonLocation::Outside
    }
}

fn grid() -> impl Iterator<Item = (i64, i64)> {
    (-2..=6).flat_map(|x| (-2..=6).map(move |y| (x, y)))
}

fn in_plane<S: Scalar>(x: S, y: S) -> Point3<S> {
    Point3::new(x, y, S::zero())
}

#[test]
fn the_l_in_its_plane_on_both_backends() {
    let up_q = Vector3::new(Q::from_i64(0), Q::from_i64(0), Q::from_i64(1));
    let up_f = Vector3::new(0.0, 0.0, 1.0);
    let poly_q: Vec<Point3<Q>> = L.iter().map(|&(a, b)| in_plane(Q::from_i64(a), Q::from_i64(b))).collect();
    let poly_f: Vec<Point3<f64>> = L.iter().map(|&(a, b)| in_plane(a as f64, b as f64)).collect();
    let mut seen = [0; 4];
    for (x, y) in grid() {
        let want = expected(x, y);
        seen[match want {
            PolygonLocation::Vertex(_) => 0,
            PolygonLocation::Edge(_) => 1,
            PolygonLocation::Inside => 2,
            PolygonLocation::Outside => 3,
        }] += 1;
        let p = in_plane(ratio::<Q>(x, 2), ratio(y, 2));
        assert_eq!(locate_in_polygon(&poly_q, &up_q, &p), Ok(want), "exact at ({x}/2, {y}/2)");
        let p = in_plane(x as f64 / 2.0, y as f64 / 2.0);
        assert_eq!(locate_in_polygon(&poly_f, &up_f, &p), Ok(want), "f64 at ({x}/2, {y}/2)");
        // The normal's sense does not matter (projection keeps the winding up to its sign).
        assert_eq!(locate_in_polygon(&poly_f, &-up_f, &p), Ok(want), "f64, normal down, at ({x}/2, {y}/2)");
    }
    // Every kind of answer is reached, rays through vertices included (y = 0, 2, 4): 6
    // corners, 10 half-grid points inside sides, 5 inside, the other 60 of the 81 outside.
    assert_eq!(seen, [6, 10, 5, 60]);
}

#[test]
fn the_l_turned_into_a_general_plane_and_reversed() {
    // The exact rotation by the quaternion (1, 2, 3, 4), and a shift: the plane is no longer
    // axis-parallel and the projection axis is chosen from the turned normal.
    let r = Affine::from_quaternion(
        &[1, 2, 3, 4].map(Q::from_i64),
        Vector3::new(ratio(1, 3), Q::from_i64(0), ratio(-1, 7)),
    )
    .unwrap();
    let poly: Vec<Point3<Q>> =
        L.iter().map(|&(a, b)| r.apply_point(&in_plane(Q::from_i64(a), Q::from_i64(b)))).collect();
    let normal = r.apply_vector(&Vector3::new(Q::from_i64(0), Q::from_i64(0), Q::from_i64(1)));
    let reversed: Vec<Point3<Q>> = poly.iter().rev().cloned().collect();
    for (x, y) in grid() {
        let p = r.apply_point(&in_plane(ratio::<Q>(x, 2), ratio(y, 2)));
        let want = expected(x, y);
        assert_eq!(locate_in_polygon(&poly, &normal, &p), Ok(want), "turned, at ({x}/2, {y}/2)");
        // Reversed: vertex i is vertex 5 − i, side i (from i to i + 1) is side 4 − i.
        let back = match want {
            PolygonLocation::Vertex(i) => PolygonLocation::Vertex(5 - i),
            PolygonLocation::Edge(i) => PolygonLocation::Edge((10 - i) % 6),
            other => other,
        };
        assert_eq!(locate_in_polygon(&reversed, &normal, &p), Ok(back), "reversed, at ({x}/2, {y}/2)");
    }
}

#[test]
fn a_zero_normal_is_uncertain_not_a_guess() {
    let poly: Vec<Point3<f64>> = L.iter().map(|&(a, b)| in_plane(a as f64, b as f64)).collect();
    let p = in_plane(0.5, 0.5);
    assert!(locate_in_polygon(&poly, &Vector3::zeros(), &p).is_err());
}

/// `predicates::parallel`, the one parallelism test (a plane through collinear points, hull
/// collinearity, edge–edge tracking, separating axes, cones, regions), on grid vectors: a
/// multiple of u is parallel to u on every backend, and a vector off u's line by one grid step
/// is not, exactly; f64 agrees whenever some component of the cross product is off zero by more
/// than 10⁻⁹ of its terms (far beyond its tolerance, 4096 u), and may call nearer cases
/// parallel (u near 10⁹ scaled by 2²⁰: 5 of the 48).
#[test]
fn parallel_grid_vectors_on_both_backends() {
    use touchstone::predicates::parallel;
    let q = |v: [i64; 3]| Vector3::new(Q::from_i64(v[0]), Q::from_i64(v[1]), Q::from_i64(v[2]));
    let f = |v: [i64; 3]| Vector3::new(v[0] as f64, v[1] as f64, v[2] as f64);
    let (mut cases, mut unclear) = (0, 0);
    for u in [[1, 2, 3], [0, 0, 5], [-7, 0, 4], [123456789, -987654321, 3]] {
        for k in [-3, -1, 2, 1 << 20] {
            let ku = u.map(|x| x * k);
            assert_eq!(parallel(&q(u), &q(ku)), Ok(true), "{u:?} × {k}");
            assert_eq!(parallel(&f(u), &f(ku)), Ok(true), "f64 {u:?} × {k}");
            for axis in 0..3 {
                let mut off = ku;
                off[axis] += 1;
                // Off the line unless u lies along the stepped axis, checked exactly.
                let want = {
                    let (a, b) = (q(u), q(off));
                    a.cross(&b) == Vector3::new(Q::from_i64(0), Q::from_i64(0), Q::from_i64(0))
                };
                assert_eq!(parallel(&q(u), &q(off)), Ok(want), "{u:?}, {off:?}");
                let (a, b) = (q(u), q(off));
                let c = a.cross(&b);
                let terms = Vector3::new(
                    a[1].abs() * b[2].abs() + a[2].abs() * b[1].abs(),
                    a[2].abs() * b[0].abs() + a[0].abs() * b[2].abs(),
                    a[0].abs() * b[1].abs() + a[1].abs() * b[0].abs(),
                );
                let clear = (0..3).any(|i| c[i].abs() * ratio::<Q>(1_000_000_000, 1) > terms[i]);
                let fast = parallel(&f(u), &f(off));
                if want || clear {
                    assert_eq!(fast, Ok(want), "f64 {u:?}, {off:?}");
                } else {
                    unclear += 1;
                }
                cases += 1;
            }
        }
    }
    assert_eq!((cases, unclear), (48, 5));
    // The zero vector is parallel to everything.
    assert_eq!(parallel(&f([0, 0, 0]), &f([1, 2, 3])), Ok(true));
}

/// `predicates::locate_on_segment`, the one point-on-segment test (the contact regions'
/// strict interior of a side and a 1-dimensional region's closure): points k/4 of the way
/// along a segment with odd directions, for k in −4..=8, are its ends at k = 0 and 4, inside
/// for 0 < k < 4 and outside otherwise; nudged off the line by one grid step they are outside,
/// ends included. Exact and f64 (every coordinate is a small dyadic) agree.
#[test]
fn points_along_and_beside_a_segment() {
    use touchstone::predicates::{locate_on_segment, SegmentLocation};
    let (a, d) = ([3i64, -5, 7], [4i64, 12, -8]);
    let at = |k: i64, off: i64| [0, 1, 2].map(|i| 4 * a[i] + k * d[i] + if i == 1 { off } else { 0 });
    let q = |v: [i64; 3]| Point3::new(ratio::<Q>(v[0], 4), ratio(v[1], 4), ratio(v[2], 4));
    let f = |v: [i64; 3]| Point3::new(v[0] as f64 / 4.0, v[1] as f64 / 4.0, v[2] as f64 / 4.0);
    for k in -4..=8 {
        let want = match k {
            0 => SegmentLocation::Start,
            4 => SegmentLocation::End,
            1..=3 => SegmentLocation::Inside,
            _ => SegmentLocation::Outside,
        };
        assert_eq!(locate_on_segment(&q(at(0, 0)), &q(at(4, 0)), &q(at(k, 0))), Ok(want), "exact k = {k}");
        assert_eq!(locate_on_segment(&f(at(0, 0)), &f(at(4, 0)), &f(at(k, 0))), Ok(want), "f64 k = {k}");
        let off = SegmentLocation::Outside;
        assert_eq!(locate_on_segment(&q(at(0, 0)), &q(at(4, 0)), &q(at(k, 1))), Ok(off), "exact off, k = {k}");
        assert_eq!(locate_on_segment(&f(at(0, 0)), &f(at(4, 0)), &f(at(k, 1))), Ok(off), "f64 off, k = {k}");
    }
    // A degenerate segment holds its point only.
    let z = q(at(0, 0));
    assert_eq!(locate_on_segment(&z, &z, &z), Ok(SegmentLocation::Start));
    assert_eq!(locate_on_segment(&z, &z, &q(at(1, 0))), Ok(SegmentLocation::Outside));
}
