//! Primitive CCD on hand-built degenerate cases with first times computed by hand.

use num_rational::BigRational;
use touchstone::geom::{point, Point3};
use touchstone::sweep::{edge_edge, vertex_face};

type Q = BigRational;

fn p(x: i64, y: i64, z: i64) -> Point3<Q> {
    point(x, y, z)
}

fn q(a: i64, b: i64) -> Q {
    Q::new(a.into(), b.into())
}

fn toi(r: touchstone::sweep::CcdResult) -> Option<Q> {
    r.toi.map(|t| t.to_rational().expect("a rational time in these cases"))
}

#[test]
fn vertex_face_cases() {
    let tri = [p(-1, -1, 0), p(3, -1, 0), p(-1, 3, 0)];
    let vf = |v0: Point3<Q>, v1: Point3<Q>| {
        vertex_face(
            &[v0, tri[0].clone(), tri[1].clone(), tri[2].clone()],
            &[v1, tri[0].clone(), tri[1].clone(), tri[2].clone()],
        )
        .unwrap()
    };
    assert_eq!(toi(vf(p(0, 0, 1), p(0, 0, -3))), Some(q(1, 4)));
    // Touching at the very start and at the very end (closed interval).
    assert_eq!(toi(vf(p(0, 0, 0), p(0, 0, 5))), Some(q(0, 1)));
    assert_eq!(toi(vf(p(0, 0, 4), p(0, 0, 0))), Some(q(1, 1)));
    // Passing beside the triangle: the plane is crossed outside it.
    assert_eq!(toi(vf(p(5, 5, 1), p(5, 5, -1))), None);
    // Hitting the triangle's edge and its corner exactly (closed triangle).
    assert_eq!(toi(vf(p(1, -1, 2), p(1, -1, -2))), Some(q(1, 2)));
    assert_eq!(toi(vf(p(3, -1, 3), p(3, -1, -1))), Some(q(3, 4)));
    // Coplanar throughout, sliding into the triangle from outside: enters at x = 3 − ... the
    // vertex moves (5, 0, 0) → (−5, 0, 0); the edge x + y = 2 is met at x = 2, t = 3/10.
    assert_eq!(toi(vf(p(5, 0, 0), p(-5, 0, 0))), Some(q(3, 10)));
    // Coplanar throughout and never inside.
    assert_eq!(toi(vf(p(5, 5, 0), p(6, 5, 0))), None);
    // A triangle collapsing to a segment at t = 1/2 while the vertex sits on that segment:
    // f2 moves (0, 1, 0) → (0, −1, 0); at t = 1/2 the triangle is the segment [f0, f1] on the
    // x axis, and v = (1, 0, 5 − 10t) reaches z = 0 only at t = 1/2.
    let r = vertex_face(
        &[p(1, 0, 5), p(0, 0, 0), p(2, 0, 0), p(0, 1, 0)],
        &[p(1, 0, -5), p(0, 0, 0), p(2, 0, 0), p(0, -1, 0)],
    )
    .unwrap();
    assert_eq!(toi(r), Some(q(1, 2)));
}

#[test]
fn edge_edge_cases() {
    let ee = |a: [Point3<Q>; 4], b: [Point3<Q>; 4]| toi(edge_edge(&a, &b).unwrap());
    // Crossing edges.
    assert_eq!(
        ee([p(-1, 0, 2), p(1, 0, 2), p(0, -1, 0), p(0, 1, 0)], [p(-1, 0, -2), p(1, 0, -2), p(0, -1, 0), p(0, 1, 0)]),
        Some(q(1, 2))
    );
    // Missing: the lines cross outside edge b.
    assert_eq!(
        ee([p(-1, 5, 2), p(1, 5, 2), p(0, -1, 0), p(0, 1, 0)], [p(-1, 5, -2), p(1, 5, -2), p(0, -1, 0), p(0, 1, 0)]),
        None
    );
    // Parallel edges approaching sideways, overlapping in x: touch when the gap closes at t = 1/3.
    assert_eq!(
        ee([p(0, 3, 0), p(4, 3, 0), p(2, 0, 0), p(6, 0, 0)], [p(0, -6, 0), p(4, -6, 0), p(2, 0, 0), p(6, 0, 0)]),
        Some(q(1, 3))
    );
    // Collinear edges sliding along their common line: a = [0, 1] + 6t, b = [4, 5]: touch at t = 1/2.
    assert_eq!(
        ee([p(0, 0, 0), p(1, 0, 0), p(4, 0, 0), p(5, 0, 0)], [p(6, 0, 0), p(7, 0, 0), p(4, 0, 0), p(5, 0, 0)]),
        Some(q(1, 2))
    );
    // Endpoint to endpoint (vertex-vertex) grazing: a1 = (1, 0, 1 − 2t) meets b0 = (1, 0, 0) at t = 1/2.
    assert_eq!(
        ee([p(0, 0, 1), p(1, 0, 1), p(1, 0, 0), p(1, 1, 0)], [p(0, 0, -1), p(1, 0, -1), p(1, 0, 0), p(1, 1, 0)]),
        Some(q(1, 2))
    );
    // A degenerate edge (a point) passing through the other edge.
    assert_eq!(
        ee([p(0, 0, 2), p(0, 0, 2), p(-1, 0, 0), p(1, 0, 0)], [p(0, 0, -2), p(0, 0, -2), p(-1, 0, 0), p(1, 0, 0)]),
        Some(q(1, 2))
    );
}

#[test]
fn rising_triangle_rational_time() {
    // v = (0, 0, 1) fixed; the triangle rises unevenly: f0, f1 at z = −1 + 2t, f2 at
    // z = −2 + 4t.
    let r = vertex_face(
        &[p(0, 0, 1), p(-4, -4, -1), p(4, -4, -1), p(0, 4, -2)],
        &[p(0, 0, 1), p(-4, -4, 1), p(4, -4, 1), p(0, 4, 2)],
    )
    .unwrap();
    let t = r.toi.expect("the rising triangle reaches the vertex");
    // Plane through the moving triangle at (0, 0): z = −1 + 2t + (f2z − f0z)·(4/8) with
    // f2z − f0z = −1 + 2t, so z(0,0) = −1 + 2t + (−1 + 2t)/2 = −3/2 + 3t = 1 at t = 5/6.
    assert_eq!(t.to_rational(), Some(q(5, 6)));
}

#[test]
fn irrational_first_time() {
    // f0 = (0,0,0), f1 = (1,0,0) fixed; f2 = (0, 1, t) tilts the face: n = (0, −t, 1).
    // v = (1/8, 1/8 + t/2, 1/4 + t/8), so n·v = −t/8 − t²/2 + 1/4 + t/8 = −(t² − 1/2)/2:
    // coplanar at t = 1/√2, where v's barycentric coordinates are (1/8, 0.4786…): inside.
    let pq = |x: (i64, i64), y: (i64, i64), z: (i64, i64)| Point3::new(q(x.0, x.1), q(y.0, y.1), q(z.0, z.1));
    let r = vertex_face(
        &[pq((1, 8), (1, 8), (1, 4)), p(0, 0, 0), p(1, 0, 0), p(0, 1, 0)],
        &[pq((1, 8), (5, 8), (3, 8)), p(0, 0, 0), p(1, 0, 0), p(0, 1, 1)],
    )
    .unwrap();
    let t = r.toi.expect("contact at 1/sqrt(2)");
    assert!(!t.is_rational());
    // 1/√2 = 0.70710678118654752440084436…
    assert_eq!(t.to_decimal(20).unwrap(), "0.7071067811865475244");
    assert_eq!(t.to_f64(), std::f64::consts::FRAC_1_SQRT_2);
}
