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

mod by_construction {
    //! Contacts built into the input: a triangle (or edge) moving on a small grid, a contact
    //! time t* and a contact point chosen on the other primitive at t*; the vertex (or edge)
    //! is moved to pass through it at t*. Then the primitives must collide, no later than t*,
    //! and at a rational first time the contact is checked independently with barycentric
    //! coordinates.
    use super::*;
    use proptest::prelude::*;

    fn grid() -> impl Strategy<Value = Point3<Q>> {
        [-3i64..=3, -3i64..=3, -3i64..=3].prop_map(|[x, y, z]| p(x, y, z))
    }

    fn lerp(a: &Point3<Q>, b: &Point3<Q>, t: &Q) -> Point3<Q> {
        Point3::from(a.coords.clone() + (b.coords.clone() - a.coords.clone()) * t.clone())
    }

    /// x = a + β(b − a) + γ(c − a) with β, γ ≥ 0, β + γ ≤ 1, checked exactly at a rational time
    /// (by brute force over the three coordinate planes for the barycentrics).
    fn in_triangle(x: &Point3<Q>, a: &Point3<Q>, b: &Point3<Q>, c: &Point3<Q>) -> bool {
        let (u, v, w) = (b - a, c - a, x - a);
        let n = u.cross(&v);
        if n.iter().all(|c| *c == Q::from_integer(0.into())) {
            return true; // degenerate triangle: accept (covered by the segment tests elsewhere)
        }
        if n.dot(&w) != Q::from_integer(0.into()) {
            return false;
        }
        let n2 = n.dot(&n);
        let beta = w.cross(&v).dot(&n) / n2.clone();
        let gamma = u.cross(&w).dot(&n) / n2;
        let zero = Q::from_integer(0.into());
        beta >= zero && gamma >= zero && beta + gamma <= Q::from_integer(1.into())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn vertex_through_a_moving_triangle(
            f0 in [grid(), grid()], f1 in [grid(), grid()], f2 in [grid(), grid()],
            t_star in 0i64..=4, bary in (0i64..=4, 0i64..=4), v_end in grid(),
        ) {
            let t = q(t_star, 4);
            let (beta, gamma) = (q(bary.0.min(4 - bary.1), 4), q(bary.1, 4));
            let at = |f: &[Point3<Q>; 2]| lerp(&f[0], &f[1], &t);
            let (a, b, c) = (at(&f0), at(&f1), at(&f2));
            let contact = Point3::from(a.coords.clone() + (b.coords.clone() - a.coords.clone()) * beta + (c.coords.clone() - a.coords.clone()) * gamma);
            // v(t*) = contact and v(1) = v_end (or v(0) = v_end when t* = 1).
            let one = Q::from_integer(1.into());
            let (v0, v1) = if t == one {
                (v_end.clone(), contact.clone())
            } else {
                // v0 = (contact − t·v_end)/(1 − t).
                let v0 = Point3::from((contact.coords.clone() - v_end.coords.clone() * t.clone()) / (one.clone() - t.clone()));
                (v0, v_end.clone())
            };
            let r = vertex_face(
                &[v0.clone(), f0[0].clone(), f1[0].clone(), f2[0].clone()],
                &[v1.clone(), f0[1].clone(), f1[1].clone(), f2[1].clone()],
            ).unwrap();
            let toi = r.toi.clone().expect("the contact was built in");
            prop_assert!(toi.cmp_rational(&t) != std::cmp::Ordering::Greater, "first time {} after the built-in {}", toi, t);
            if let Some(first) = toi.to_rational() {
                let x = lerp(&v0, &v1, &first);
                let (a, b, c) = (lerp(&f0[0], &f0[1], &first), lerp(&f1[0], &f1[1], &first), lerp(&f2[0], &f2[1], &first));
                prop_assert!(in_triangle(&x, &a, &b, &c), "no contact at the reported time {}", first);
            }
        }

        #[test]
        fn edges_crossing_at_a_built_in_time(
            b in [grid(), grid()], b_end in [grid(), grid()], t_star in 0i64..=4, s in 0i64..=4, a_dir in grid(), a_end in grid(),
        ) {
            // Edge b moves from b[0..2] to b_end; at t* the point b(t*, s/4) is put on edge a.
            let t = q(t_star, 4);
            let one = Q::from_integer(1.into());
            let b0 = lerp(&b[0], &b_end[0], &t);
            let b1 = lerp(&b[1], &b_end[1], &t);
            let x = lerp(&b0, &b1, &q(s, 4));
            // Edge a at t*: [x − a_dir, x + a_dir]; a moves linearly to [a_end, a_end + a_dir].
            let (a0_star, a1_star) = (Point3::from(x.coords.clone() - a_dir.coords.clone()), Point3::from(x.coords.clone() + a_dir.coords.clone()));
            let a1_end = Point3::from(a_end.coords.clone() + a_dir.coords.clone());
            let back = |star: &Point3<Q>, end: &Point3<Q>| if t == one { end.clone() } else { Point3::from((star.coords.clone() - end.coords.clone() * t.clone()) / (one.clone() - t.clone())) };
            let (a0_start, a1_start, a0_stop, a1_stop) = if t == one {
                (a_end.clone(), a1_end.clone(), a0_star.clone(), a1_star.clone())
            } else {
                (back(&a0_star, &a_end), back(&a1_star, &a1_end), a_end.clone(), a1_end.clone())
            };
            let r = edge_edge(
                &[a0_start, a1_start, b[0].clone(), b[1].clone()],
                &[a0_stop, a1_stop, b_end[0].clone(), b_end[1].clone()],
            ).unwrap();
            let toi = r.toi.expect("the crossing was built in");
            prop_assert!(toi.cmp_rational(&t) != std::cmp::Ordering::Greater);
        }
    }
}
