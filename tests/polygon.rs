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
