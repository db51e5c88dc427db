//! Tori exactly (issue 42): tangencies made exact on purpose, values to 30 digits, an
//! independent numerical route for circle–circle distances, and the tori of Lin–Manocha's
//! Example 5.1.

use num_rational::BigRational;
use touchstone::geom::{Point3, Vector3};
use touchstone::round::torus::{torus_distance, Circle, Curve, ExactTorus, Torus, TorusValue};
use touchstone::vclip::Status;

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn p(x: Q, y: Q, z: Q) -> Point3<Q> {
    Point3::new(x, y, z)
}

fn pi(x: i64, y: i64, z: i64) -> Point3<Q> {
    p(q(x), q(y), q(z))
}

fn v(x: i64, y: i64, z: i64) -> Vector3<Q> {
    Vector3::new(q(x), q(y), q(z))
}

fn circle(c: Point3<Q>, n: Vector3<Q>, radius: Q) -> Circle<Q> {
    Circle::new(c, n, radius).unwrap()
}

/// 2⁻⁵⁰.
fn tiny() -> Q {
    Q::new(1.into(), num_bigint::BigInt::from(1u64 << 50))
}

fn status(c: &Circle<Q>, k: &Curve<Q>, radii: &Q) -> Status {
    torus_distance(c, k, radii).unwrap().status
}

fn exact(c: &Circle<Q>, k: &Curve<Q>, radii: &Q) -> ExactTorus {
    ExactTorus::of(&torus_distance(c, k, radii).unwrap()).unwrap()
}

/// The torus R = 3 about the z axis.
fn big() -> Circle<Q> {
    circle(pi(0, 0, 0), v(0, 0, 1), q(3))
}

#[test]
fn a_ball_in_the_hole_of_radius_major_minus_minor_touches_along_a_circle() {
    // Torus R = 3, r = 1; a ball of radius 2 at its centre: ρ = 3 = d(centre, circle).
    let c = big();
    let centre = Curve::Point(pi(0, 0, 0));
    assert_eq!(status(&c, &centre, &q(3)), Status::Touching);
    assert_eq!(status(&c, &centre, &(q(3) + tiny())), Status::Penetrating);
    assert_eq!(status(&c, &centre, &(q(3) - tiny())), Status::Separated);
    // Moved by 2⁻⁵⁰ in the plane: nearer the circle; along the axis: farther.
    assert_eq!(status(&c, &Curve::Point(p(tiny(), q(0), q(0))), &q(3)), Status::Penetrating);
    assert_eq!(status(&c, &Curve::Point(p(q(0), q(0), tiny())), &q(3)), Status::Separated);
    assert_eq!(status(&c, &Curve::Point(p(tiny(), tiny(), tiny())), &q(3)), Status::Penetrating);
}

#[test]
fn a_ball_on_the_axis_at_a_pythagorean_height_touches_the_tube() {
    // R = 3, h = 4: the ball's centre is 5 from every point of the circle; a ball of radius
    // 4 touches the tube of radius 1 along a circle.
    let c = big();
    let k = Curve::Point(pi(0, 0, 4));
    let e = exact(&c, &k, &q(5));
    assert_eq!(e.distance().status, Status::Touching);
    assert_eq!(e.decimal(TorusValue::CoresSquared, 30).unwrap(), "25");
    assert_eq!(e.decimal(TorusValue::Distance, 30).unwrap(), "0");
    assert_eq!(status(&c, &Curve::Point(p(q(0), q(0), q(4) + tiny())), &q(5)), Status::Separated);
    assert_eq!(status(&c, &Curve::Point(p(q(0), q(0), q(4) - tiny())), &q(5)), Status::Penetrating);
    // Tilted axis (2, 3, 6)/7: the same configuration rotated exactly.
    let n = v(2, 3, 6);
    let tilted = circle(pi(1, 1, 1), n, q(3));
    let above = Curve::Point(p(q(1) + r(8, 7), q(1) + r(12, 7), q(1) + r(24, 7)));
    assert_eq!(status(&tilted, &above, &q(5)), Status::Touching);
}

#[test]
fn values_to_thirty_digits() {
    // A ball at (5, 0, 1) against R = 3: d(centre, circle)² = 2² + 1² = 5; radii 1 + 1/2.
    let c = big();
    let e = exact(&c, &Curve::Point(pi(5, 0, 1)), &r(3, 2));
    assert_eq!(e.distance().status, Status::Separated);
    assert_eq!(e.decimal(TorusValue::CoresSquared, 30).unwrap(), "5");
    // √5 − 3/2.
    assert_eq!(e.decimal(TorusValue::Distance, 30).unwrap(), "0.736067977499789696409173668731");
    let [cp, kp] = e.points(12).unwrap();
    assert_eq!(cp, ["3", "0", "0"].map(String::from));
    assert_eq!(kp, ["5", "0", "1"].map(String::from));
    // The same ball with radius 2: penetrating by 1 + 2 − √5... ρ = 3, depth 3 − √5.
    let e = exact(&c, &Curve::Point(pi(5, 0, 1)), &q(3));
    assert_eq!(e.distance().status, Status::Penetrating);
    assert_eq!(e.decimal(TorusValue::Depth, 30).unwrap(), "0.763932022500210303590826331268");
    // A point off the circle's plane and off its axis at an irrational closest point:
    // (1, 1, 1): B = 2, d² = 3 + 9 − 6√2.
    let e = exact(&c, &Curve::Point(pi(1, 1, 1)), &q(1));
    assert_eq!(e.decimal(TorusValue::CoresSquared, 25).unwrap(), "3.514718625761429707189867");
    let [cp, _] = e.points(20).unwrap();
    // 3/√2 each in x and y.
    assert_eq!(cp, ["2.1213203435596425732", "2.1213203435596425732", "0"].map(String::from));
}

#[test]
fn capsules_through_the_hole_and_on_the_top() {
    let c = big();
    // The axis as a capsule of radius 2: touching along the circle at z = 0.
    let axis = Curve::Segment([pi(0, 0, -5), pi(0, 0, 5)]);
    assert_eq!(status(&c, &axis, &q(3)), Status::Touching);
    let e = exact(&c, &axis, &r(5, 2));
    assert_eq!(e.decimal(TorusValue::Distance, 10).unwrap(), "0.5");
    // Lying across the top at height 2, radius 1: touching the tube (r = 1) at (±3, 0, 1).
    let top = Curve::Segment([pi(-5, 0, 2), pi(5, 0, 2)]);
    assert_eq!(status(&c, &top, &q(2)), Status::Touching);
    assert_eq!(status(&c, &top, &(q(2) + tiny())), Status::Penetrating);
    let lifted = Curve::Segment([p(q(-5), q(0), q(2) + tiny()), p(q(5), q(0), q(2) + tiny())]);
    assert_eq!(status(&c, &lifted, &q(2)), Status::Separated);
    // A segment ending short of the tube: from (−1, 0, 2) to (1, 0, 2): its ends are nearest,
    // at d² = 2² + 2² = 8.
    let short = Curve::Segment([pi(-1, 0, 2), pi(1, 0, 2)]);
    let e = exact(&c, &short, &q(1));
    assert_eq!(e.decimal(TorusValue::CoresSquared, 20).unwrap(), "8");
    // A slanted segment whose closest point is inside it: compare with sampling.
    let slanted = Curve::Segment([pi(-4, 1, 3), pi(5, -2, 1)]);
    let e = exact(&c, &slanted, &q(1));
    let exact_value: f64 = e.decimal(TorusValue::CoresSquared, 17).unwrap().parse().unwrap();
    let sampled = sample_min(&c, &slanted);
    assert!((exact_value - sampled).abs() < 1e-9, "{exact_value} vs {sampled}");
}

/// d(X, C)² in floats.
fn point_circle_f64(c: &Circle<Q>, x: [f64; 3]) -> f64 {
    let use_num = |v: &Q| -> f64 { num_traits::ToPrimitive::to_f64(v).unwrap() };
    let n = [use_num(&c.axis[0]), use_num(&c.axis[1]), use_num(&c.axis[2])];
    let cc = [use_num(&c.centre[0]), use_num(&c.centre[1]), use_num(&c.centre[2])];
    let w: Vec<f64> = (0..3).map(|i| x[i] - cc[i]).collect();
    let k: f64 = n.iter().map(|a| a * a).sum();
    let wn: f64 = (0..3).map(|i| w[i] * n[i]).sum();
    let ww: f64 = w.iter().map(|a| a * a).sum();
    let radial = (ww - wn * wn / k).max(0.0).sqrt();
    let axial2 = wn * wn / k;
    let rr = use_num(&c.radius);
    (radial - rr).powi(2) + axial2
}

/// The least of d(X, C)² over K by dense sampling and golden-section refinement: an
/// independent numerical route (no polynomial, no candidates).
fn sample_min(c: &Circle<Q>, k: &Curve<Q>) -> f64 {
    let at = |t: f64| -> [f64; 3] { point_of(k, t) };
    let g = |t: f64| point_circle_f64(c, at(t));
    let (lo, hi) = match k {
        Curve::Circle(_) => (0.0, std::f64::consts::TAU),
        _ => (0.0, 1.0),
    };
    // Dense samples, then golden-section refinement about each sampled local minimum.
    let n = 4000;
    let step = (hi - lo) / n as f64;
    let values: Vec<f64> = (0..=n).map(|i| g(lo + step * i as f64)).collect();
    let mut best = values.iter().copied().fold(f64::INFINITY, f64::min);
    for i in 0..=n {
        let left = if i == 0 { f64::INFINITY } else { values[i - 1] };
        let right = if i == n { f64::INFINITY } else { values[i + 1] };
        if values[i] > left || values[i] > right {
            continue;
        }
        let t = lo + step * i as f64;
        let (mut a, mut b) = (t - step, t + step);
        if !matches!(k, Curve::Circle(_)) {
            a = a.max(lo);
            b = b.min(hi);
        }
        for _ in 0..80 {
            let m1 = b - (b - a) * 0.618_033_988_749_895;
            let m2 = a + (b - a) * 0.618_033_988_749_895;
            if g(m1) < g(m2) {
                b = m2;
            } else {
                a = m1;
            }
        }
        best = best.min(g((a + b) / 2.0));
    }
    best
}

fn point_of(k: &Curve<Q>, t: f64) -> [f64; 3] {
    let f = |v: &Q| -> f64 { num_traits::ToPrimitive::to_f64(v).unwrap() };
    match k {
        Curve::Point(x) => [f(&x.x), f(&x.y), f(&x.z)],
        Curve::Segment([a, b]) => std::array::from_fn(|i| f(&a[i]) + t * (f(&b[i]) - f(&a[i]))),
        Curve::Circle(c) => {
            let n: [f64; 3] = std::array::from_fn(|i| f(&c.axis[i]));
            let len = n.iter().map(|x| x * x).sum::<f64>().sqrt();
            let n = n.map(|x| x / len);
            // Any orthonormal frame (u, w) of the plane.
            let e = if n[0].abs() < 0.6 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
            let cr = |a: [f64; 3], b: [f64; 3]| {
                [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
            };
            let u = cr(n, e);
            let ul = u.iter().map(|x| x * x).sum::<f64>().sqrt();
            let u = u.map(|x| x / ul);
            let w = cr(n, u);
            let rr = f(&c.radius);
            std::array::from_fn(|i| f(&c.centre[i]) + rr * (t.cos() * u[i] + t.sin() * w[i]))
        }
    }
}

#[test]
fn perpendicular_tori_linked_touching_and_penetrating() {
    let f = big();
    // G: R = 2 in the plane y = 0 (axis y), centred 5 above F's circle point (3, 0, 0): its
    // lowest point (3, 0, 3) is 3 from F's circle, nowhere nearer. Tubes 1 and 2 touch there.
    let g = |h: Q| circle(p(q(3), q(0), h), v(0, 1, 0), q(2));
    let gk = |h: Q| Curve::Circle(g(h));
    let fk = Curve::Circle(f.clone());
    assert_eq!(status(&f, &gk(q(5)), &q(3)), Status::Touching);
    assert_eq!(status(&g(q(5)), &fk, &q(3)), Status::Touching);
    assert_eq!(status(&f, &gk(q(5) + tiny()), &q(3)), Status::Separated);
    assert_eq!(status(&f, &gk(q(5) - tiny()), &q(3)), Status::Penetrating);
    assert_eq!(status(&g(q(5) + tiny()), &fk, &q(3)), Status::Separated);
    assert_eq!(status(&g(q(5) - tiny()), &fk, &q(3)), Status::Penetrating);
    let e = exact(&f, &gk(q(5)), &q(3));
    assert_eq!(e.points(10).unwrap(), [["3", "0", "0"].map(String::from), ["3", "0", "3"].map(String::from)]);
    // Linked: G centred at F's circle point (3, 0, 0), R = 2: F's circle threads G's at G's
    // centre, where every point of G is 2 away (on G's axis); elsewhere F is farther
    // (d² = 10 − 6 cos φ). Tubes 1/2 and 1/2 are linked without touching; 1 and 1 touch
    // along G's whole circle.
    let linked = g(q(0));
    for (a, b) in [(&f, Curve::Circle(linked.clone())), (&linked, fk.clone())] {
        assert_eq!(status(a, &b, &q(1)), Status::Separated);
        assert_eq!(status(a, &b, &q(2)), Status::Touching);
        assert_eq!(status(a, &b, &(q(2) + tiny())), Status::Penetrating);
        let e = exact(a, &b, &q(1));
        assert_eq!(e.decimal(TorusValue::CoresSquared, 20).unwrap(), "4");
        assert_eq!(e.decimal(TorusValue::Distance, 20).unwrap(), "1");
    }
    // Two circles of radius 3 each through the other's centre (a Hopf-like link): every
    // point of F's circle is exactly 3 from G's (d² = 27 − 18 cos φ − 18(1 − cos φ) = 9).
    let hopf = circle(pi(3, 0, 0), v(0, 1, 0), q(3));
    let e = exact(&f, &Curve::Circle(hopf.clone()), &q(2));
    assert_eq!(e.decimal(TorusValue::CoresSquared, 20).unwrap(), "9");
    assert_eq!(status(&f, &Curve::Circle(hopf.clone()), &q(3)), Status::Touching);
    assert_eq!(status(&hopf, &Curve::Circle(f.clone()), &q(3)), Status::Touching);
}

#[test]
fn circle_circle_distances_agree_with_sampling() {
    // Generic rational configurations, both orders: the exact value to 17 digits within
    // 1e-9 of dense sampling and refinement.
    let configs: Vec<(Circle<Q>, Circle<Q>)> = vec![
        (big(), circle(pi(1, 2, 3), v(1, 1, 1), q(2))),
        (circle(pi(0, 0, 0), v(2, 3, 6), r(5, 2)), circle(pi(4, -1, 1), v(1, 0, 2), q(3))),
        (circle(pi(1, 1, 0), v(0, 1, 1), q(1)), circle(pi(-2, 3, 1), v(3, -1, 2), r(7, 3))),
        (big(), circle(pi(3, 1, 2), v(1, 2, 0), r(3, 2))),
    ];
    for (a, b) in configs {
        for (x, y) in [(&a, &b), (&b, &a)] {
            let e = exact(x, &Curve::Circle(y.clone()), &q(1));
            let value: f64 = e.decimal(TorusValue::CoresSquared, 17).unwrap().parse().unwrap();
            let sampled = sample_min(x, &Curve::Circle(y.clone()));
            assert!((value - sampled).abs() < 1e-9 * (1.0 + sampled), "{value} vs {sampled}");
        }
    }
}

#[test]
fn the_tori_of_example_5_1_are_these() {
    // The paper's printed quartics, evaluated at rational points, against our tori's implicit
    // forms: F is R = 3, r = 1 about the z axis at the origin; G is R = 2, r = 1 about the x
    // axis centred at (3, 0, 7/2) (decoded from G's quadratic terms).
    let f = Torus::new(big(), q(1)).unwrap();
    let g = Torus::new(circle(p(q(3), q(0), r(7, 2)), v(1, 0, 0), q(2)), q(1)).unwrap();
    let paper_f = |x: &Q, y: &Q, z: &Q| -> Q {
        let (x2, y2, z2) = (x * x, y * y, z * z);
        q(64) - q(20) * &x2 + &x2 * &x2 - q(20) * &y2
            + q(2) * &x2 * &y2
            + &y2 * &y2
            + q(16) * &z2
            + q(2) * &x2 * &z2
            + q(2) * &y2 * &z2
            + &z2 * &z2
    };
    let paper_g = |x: &Q, y: &Q, z: &Q| -> Q {
        let (x2, y2, z2) = (x * x, y * y, z * z);
        r(6273, 16) - q(291) * x + r(169, 2) * &x2 - q(12) * &x2 * x + &x2 * &x2 + r(65, 2) * &y2 - q(12) * x * &y2
            + q(2) * &x2 * &y2
            + &y2 * &y2
            - r(455, 2) * z
            + q(84) * x * z
            - q(14) * &x2 * z
            - q(14) * &y2 * z
            + r(163, 2) * &z2
            - q(12) * x * &z2
            + q(2) * &x2 * &z2
            + q(2) * &y2 * &z2
            - q(14) * &z2 * z
            + &z2 * &z2
    };
    for i in -4..=4 {
        for j in -3..=3 {
            let (x, y, z) = (r(i * 7, 5), r(j * 3, 4), r(i * j + 2, 3));
            let at = p(x.clone(), y.clone(), z.clone());
            assert_eq!(f.implicit(&at), paper_f(&x, &y, &z));
            assert_eq!(g.implicit(&at), paper_g(&x, &y, &z));
        }
    }
    // As printed, the tori overlap: G's lowest circle point (3, 0, 3/2) is 3/2 from F's circle.
    assert_eq!(status(&f.circle, &Curve::Circle(g.circle.clone()), &q(2)), Status::Penetrating);
}

/// The determinant of a square rational matrix (Gaussian elimination).
fn determinant(mut m: Vec<Vec<Q>>) -> Q {
    use num_traits::{One, Zero};
    let n = m.len();
    let mut det = Q::one();
    for col in 0..n {
        let Some(pivot) = (col..n).find(|&r| !m[r][col].is_zero()) else { return Q::zero() };
        if pivot != col {
            m.swap(pivot, col);
            det = -det;
        }
        det *= m[col][col].clone();
        for row in col + 1..n {
            let f = &m[row][col] / &m[col][col];
            if f.is_zero() {
                continue;
            }
            let pivot_row = m[col].clone();
            for (x, y) in m[row].iter_mut().zip(&pivot_row).skip(col) {
                *x -= &f * y;
            }
        }
    }
    det
}

/// The resultant of a (formal degree `da`, coefficients from the constant up) and b.
fn resultant(a: &[Q], b: &[Q]) -> Q {
    use num_traits::Zero;
    let (da, db) = (a.len() - 1, b.len() - 1);
    let n = da + db;
    let mut m = vec![vec![Q::zero(); n]; n];
    for i in 0..db {
        for (j, c) in a.iter().rev().enumerate() {
            m[i][i + j] = c.clone();
        }
    }
    for i in 0..da {
        for (j, c) in b.iter().rev().enumerate() {
            m[db + i][i + j] = c.clone();
        }
    }
    determinant(m)
}

/// Polynomials in τ as coefficient vectors (constant first).
fn pmul(a: &[Q], b: &[Q]) -> Vec<Q> {
    use num_traits::Zero;
    let mut out = vec![Q::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

fn padd(a: &[Q], b: &[Q]) -> Vec<Q> {
    use num_traits::Zero;
    (0..a.len().max(b.len()))
        .map(|i| a.get(i).cloned().unwrap_or_else(Q::zero) + b.get(i).cloned().unwrap_or_else(Q::zero))
        .collect()
}

fn pscale(a: &[Q], c: &Q) -> Vec<Q> {
    a.iter().map(|x| x * c).collect()
}

/// Example 5.1's motion: G's centre at time t (F at rest). At t = 1 it is the paper's
/// printed position (3, 0, 7/2), where the tori overlap; at t = 0 it is (3⅓, 1/5, 5½), G's
/// whole circle at height ≥ 3½: apart.
fn g_centre(t: &Q) -> Point3<Q> {
    p(q(3) + r(1, 3) * (q(1) - t), r(1, 5) * (q(1) - t), r(7, 2) + q(2) * (q(1) - t))
}

/// The second route: F's circle by the rational parametrisation X(τ) = (3(1 − τ²), 6τ, 0)/(1 + τ²);
/// for G at time t (R = 2, axis x, ρ = 2), with w = X − c the tube-sum condition
/// |w|² + 4 − 4 = √(16(w_y² + w_z²)) squared and cleared of (1 + τ²) is
/// P(τ) = ((9 + |c|²)(1 + τ²) − 2N·c)² − 16(W_y² + W_z²), W = N − c(1 + τ²). At the first
/// contact P has a double root in τ: its discriminant, a polynomial E(t) of degree at most
/// 7·4 = 28, vanishes. E is found by interpolation at t = 0, …, 30 (and checked at 31, 32).
fn contact_polynomial() -> touchstone::poly::Poly<Q> {
    use num_traits::{One, Zero};
    let e_at = |t: &Q| -> Q {
        let c = g_centre(t);
        let d = vec![q(1), q(0), q(1)];
        let n = [vec![q(3), q(0), q(-3)], vec![q(0), q(6)], vec![q(0)]];
        let cc = &c.x * &c.x + &c.y * &c.y + &c.z * &c.z;
        let nc = padd(&padd(&pscale(&n[0], &c.x), &pscale(&n[1], &c.y)), &pscale(&n[2], &c.z));
        let lin = padd(&pscale(&d, &(q(9) + cc)), &pscale(&nc, &q(-2)));
        let wy = padd(&n[1], &pscale(&d, &-c.y.clone()));
        let wz = padd(&n[2], &pscale(&d, &-c.z.clone()));
        let mut poly = padd(&pmul(&lin, &lin), &pscale(&padd(&pmul(&wy, &wy), &pmul(&wz, &wz)), &q(-16)));
        poly.resize(5, Q::zero());
        let deriv: Vec<Q> = (1..5).map(|i| &poly[i] * q(i as i64)).collect();
        resultant(&poly, &deriv)
    };
    let xs: Vec<Q> = (0..=30).map(q).collect();
    let ys: Vec<Q> = xs.iter().map(e_at).collect();
    // Newton's divided differences, then expanded.
    let mut coef = ys.clone();
    for j in 1..xs.len() {
        for i in (j..xs.len()).rev() {
            coef[i] = (&coef[i] - &coef[i - 1]) / (&xs[i] - &xs[i - j]);
        }
    }
    let mut poly = vec![Q::zero()];
    for i in (0..xs.len()).rev() {
        poly = padd(&pmul(&poly, &[-xs[i].clone(), Q::one()]), &[coef[i].clone()]);
    }
    let e = touchstone::poly::Poly::from_coeffs(poly);
    assert!(e.degree().is_some_and(|d| d <= 28), "degree {:?}", e.degree());
    for t in [q(31), q(32), r(1, 7)] {
        assert_eq!(e.eval(&t), e_at(&t), "E is not of degree 28 or less");
    }
    e
}

#[test]
fn example_5_1_first_contact_to_thirty_digits_by_two_routes() {
    use touchstone::round::torus::{torus_first_contact, torus_first_contact_by_advancement};
    use touchstone::scalar::decimal_of_rational;
    let f = big();
    let g0 = circle(g_centre(&q(0)), v(1, 0, 0), q(2));
    let velocity = Vector3::new(r(-1, 3), r(-1, 5), q(-2));
    let width = Q::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 32));
    // Route 1: conservative advancement with exact distance bounds.
    let hit =
        torus_first_contact_by_advancement(&f, &Curve::Circle(g0.clone()), &q(2), &velocity, &q(0), &q(1), &width)
            .unwrap();
    assert!(hit.collides && !hit.at_start);
    let [lo, hi] = hit.interval.clone();
    assert!(&hi - &lo <= width);
    // Route 2: the discriminant's roots; exactly one in route 1's enclosure.
    let e = contact_polynomial();
    let roots = touchstone::poly::real_roots(&e, &lo, &hi).unwrap();
    assert_eq!(roots.len(), 1, "{} roots of E in [{lo}, {hi}]", roots.len());
    let t = &roots[0];
    let digits = t.to_decimal(30).unwrap();
    assert!([decimal_of_rational(&lo, 30), decimal_of_rational(&hi, 30)].contains(&digits));
    // Pinned (30 significant digits, the last a 0 the rendering drops).
    assert_eq!(digits, "0.75087055658356200150680813969");
    // The library's own route (the first zero of the torus quartic along G's rational
    // parametrisation, `poly::first_zero`): an isolating interval of the same root.
    let exact = torus_first_contact(&f, &Curve::Circle(g0), &q(2), &velocity, &q(0), &q(1), &width).unwrap();
    assert!(exact.collides && !exact.at_start && exact.steps == 0);
    let [elo, ehi] = exact.interval;
    assert!(&ehi - &elo <= width && elo <= ehi);
    assert_eq!(touchstone::poly::real_roots(&e, &elo, &ehi).unwrap().len(), 1);
    assert!(elo <= hi && lo <= ehi, "[{elo}, {ehi}] and [{lo}, {hi}] are apart");
}

/// First contacts of capsules and tori with a torus by root isolation (`poly::first_zero`),
/// where conservative advancement creeps toward the contact forever: grazes (the distance
/// reaching its least value exactly at the sum of the radii), tangencies held over a whole
/// interval of time (a segment or a circle resting on the tube at two points), and the
/// same motions moved off by 2⁻⁵⁰ either way (a near miss: no contact; a crossing).
mod first_contact_by_root_isolation {
    use super::*;
    use touchstone::round::torus::{torus_first_contact, TorusContact};

    fn width() -> Q {
        Q::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 30))
    }

    fn hit(curve: Curve<Q>, radii: Q, velocity: Vector3<Q>) -> TorusContact<Q> {
        // F: R = 3 about z at the origin.
        let f = circle(pi(0, 0, 0), v(0, 0, 1), q(3));
        torus_first_contact(&f, &curve, &radii, &velocity, &q(0), &q(1), &width()).unwrap()
    }

    fn at(h: &TorusContact<Q>, t: Q) {
        assert!(h.collides && !h.at_start, "{h:?}");
        assert_eq!(h.interval, [t.clone(), t], "{h:?}");
        assert_eq!(h.steps, 0, "by isolation, not advancement");
    }

    /// A vertical segment at x = 5 + e sliding along y through y = 0 at t = 1/2: its distance
    /// from the circle is √(25 + y²) − 3, least (2 + e) at y = 0; with ρ = 2 it grazes at
    /// t = 1/2 exactly.
    #[test]
    fn a_capsule_grazing_the_tube_at_one_instant() {
        let seg = |x: Q| Curve::Segment([p(x.clone(), q(-10), q(-1)), p(x, q(-10), q(1))]);
        at(&hit(seg(q(5)), q(2), v(0, 20, 0)), r(1, 2));
        // 2⁻⁵⁰ farther out: a near miss, no contact at all.
        let miss = hit(seg(q(5) + tiny()), q(2), v(0, 20, 0));
        assert!(!miss.collides, "{miss:?}");
        // 2⁻⁵⁰ nearer: a crossing just before 1/2, where (5 − e)² + (20t − 10)² = 25.
        let cross = hit(seg(q(5) - tiny()), q(2), v(0, 20, 0));
        assert!(cross.collides);
        let [lo, hi] = cross.interval.clone();
        assert!(&hi - &lo <= width() && hi < r(1, 2), "{cross:?}");
        let y2 = |t: &Q| (q(20) * t - q(10)) * (q(20) * t - q(10));
        let x2 = (q(5) - tiny()) * (q(5) - tiny());
        assert!(&x2 + y2(&lo) >= q(25) && &x2 + y2(&hi) <= q(25), "the root (5 − e)² + y² = 25 is not enclosed");
    }

    /// A long segment at height 2 crossing over the circle along y: its distance from the
    /// circle is √((|y| − 3)² + 4) for |y| ≥ 3 and exactly 2 for |y| ≤ 3 (resting on the top
    /// of the tube at two points), so with ρ = 2 the capsule touches from y = −3, t = 1/2, on.
    #[test]
    fn a_capsule_coming_to_rest_on_the_tube() {
        let seg = |z: Q| Curve::Segment([p(q(-10), q(-10), z.clone()), p(q(10), q(-10), z)]);
        at(&hit(seg(q(2)), q(2), v(0, 14, 0)), r(1, 2));
        assert!(!hit(seg(q(2) + tiny()), q(2), v(0, 14, 0)).collides);
        let cross = hit(seg(q(2) - tiny()), q(2), v(0, 14, 0));
        assert!(cross.collides && cross.interval[1] < r(1, 2), "{cross:?}");
    }

    /// G: R′ = 3 about z at height h, moving along x from 10 to 2: the circles' distance is
    /// √(h² + (x − 6)²) for x ≥ 6 and h for x ≤ 6 (the projections cross), so with h = ρ = 2
    /// the tori touch at x = 6, t = 1/2, and stay touching at two points.
    #[test]
    fn a_torus_coming_to_rest_on_a_torus() {
        let g = |h: Q| Curve::Circle(circle(p(q(10), q(0), h), v(0, 0, 1), q(3)));
        at(&hit(g(q(2)), q(2), v(-8, 0, 0)), r(1, 2));
        assert!(!hit(g(q(2) + tiny()), q(2), v(-8, 0, 0)).collides);
        let cross = hit(g(q(2) - tiny()), q(2), v(-8, 0, 0));
        assert!(cross.collides && cross.interval[1] < r(1, 2), "{cross:?}");
    }

    /// Root isolation against advancement on grid-snapped capsules and coaxial, perpendicular
    /// or (1, 1, 1)-tilted tori cast at F (small integers: touching starts, grazes and vertical or
    /// horizontal segments come up by construction): the same `collides`, and where both
    /// meet the exact time lies in advancement's enclosure (no contact before its start, one
    /// at its end). Where advancement spends its budget (a graze), the exact answer is checked
    /// on its own: apart at the enclosure's start, touching at a rational time.
    mod against_advancement {
        use super::*;
        use proptest::prelude::*;
        use touchstone::budget::{with_budget, Budget};
        use touchstone::round::torus::torus_first_contact_by_advancement;

        fn curve() -> impl Strategy<Value = Curve<Q>> {
            let c = -8i64..=8;
            prop_oneof![
                (c.clone(), c.clone(), c.clone(), c.clone(), c.clone(), c.clone())
                    .prop_filter("a segment", |(a, b, c, d, e, f)| (a, b, c) != (d, e, f))
                    .prop_map(|(a, b, c, d, e, f)| Curve::Segment([pi(a, b, c), pi(d, e, f)])),
                // Coordinate axes (rational points) and (1, 1, 1), (1, −1, 1) (none: the
                // parametrisation over ℚ(√α)).
                (c.clone(), c.clone(), c, 0usize..5, 1i64..=4).prop_map(|(x, y, z, axis, radius)| {
                    let n = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [1, -1, 1]][axis];
                    Curve::Circle(circle(pi(x, y, z), v(n[0], n[1], n[2]), q(radius)))
                }),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
            #[test]
            fn the_exact_time_lies_in_advancements_enclosure(
                k in curve(),
                rho in prop_oneof![Just(q(1)), Just(r(3, 2)), Just(q(2))],
                (vx, vy, vz) in (-12i64..=12, -12i64..=12, -12i64..=12),
            ) {
                let f = circle(pi(0, 0, 0), v(0, 0, 1), q(3));
                let velocity = v(vx, vy, vz);
                let exact = torus_first_contact(&f, &k, &rho, &velocity, &q(0), &q(1), &width()).unwrap();
                prop_assume!(!exact.at_start);
                let w = Q::new(1.into(), 1_000_000.into());
                let budget = Budget { steps: Some(100_000), ..Budget::default() };
                let by_steps = with_budget(budget, || torus_first_contact_by_advancement(&f, &k, &rho, &velocity, &q(0), &q(1), &w));
                let [lo, hi] = exact.interval.clone();
                let status_at = |t: &Q| torus_distance(&f, &k.translated(&velocity.map(|x| x * t.clone())), &rho).unwrap().status;
                if exact.collides {
                    if lo == hi {
                        prop_assert_ne!(status_at(&lo), Status::Separated, "no contact at the exact time {}", lo);
                    } else {
                        prop_assert_eq!(status_at(&lo), Status::Separated, "contact before the enclosure {}", lo);
                    }
                }
                if let Ok(a) = by_steps {
                    prop_assert_eq!(a.collides, exact.collides, "advancement {:?}, isolation {:?}", a, exact);
                    if a.collides {
                        let [alo, ahi] = a.interval;
                        prop_assert!(hi >= alo && lo <= ahi, "[{}, {}] outside advancement's [{}, {}]", lo, hi, alo, ahi);
                    }
                }
            }
        }
    }

    /// Circles in planes x + y + z = const have no rational point (x + y + z = 0 meets the
    /// unit sphere in none), so neither torus has a rational parametrisation; the route
    /// parametrises G over ℚ(√2). F: R = 3, G: R′ = 1, both about (1, 1, 1) and coplanar, ρ = 1,
    /// G's centre (10 − 10t)·(1, −1, 0): coplanar external circles are |c′| − R − R′ apart, so
    /// they touch when 10√2·(1 − t) = 5, at t = 1 − √2/4 = 0.6464…, an algebraic time of the
    /// field itself. 2⁻⁵⁰ more of ρ: the same with 5 + 2⁻⁵⁰.
    #[test]
    fn tori_whose_circles_have_no_rational_point() {
        let f = circle(pi(0, 0, 0), v(1, 1, 1), q(3));
        let g = Curve::Circle(circle(pi(10, -10, 0), v(1, 1, 1), q(1)));
        for (rho, k) in [(q(1), q(5)), (q(1) + tiny(), q(5) + tiny())] {
            let h = torus_first_contact(&f, &g, &rho, &v(-10, 10, 0), &q(0), &q(1), &width()).unwrap();
            assert!(h.collides && !h.at_start && h.steps == 0, "{h:?}");
            let [lo, hi] = h.interval.clone();
            assert!(&hi - &lo <= width() && lo < hi, "{h:?}");
            // lo ≤ 1 − k/(10√2) ≤ hi ⇔ 200·(1 − lo)² ≥ k² ≥ 200·(1 − hi)² (both sides positive).
            let at = |t: &Q| q(200) * (q(1) - t) * (q(1) - t);
            assert!(at(&lo) >= &k * &k && at(&hi) <= &k * &k, "1 − {k}/(10√2) is not in [{lo}, {hi}]");
        }
        // Moving apart instead: no contact.
        let away = torus_first_contact(&f, &g, &q(1), &v(10, -10, 0), &q(0), &q(1), &width()).unwrap();
        assert!(!away.collides && away.steps == 0, "{away:?}");
    }

    /// Coaxial tori about (1, 1, 1) passing through each other along the axis: their circles
    /// are √((R − R′)² + h²) apart at axial offset h, so with R = 3, R′ = 1 and ρ = 2 they
    /// touch along a whole circle at h = 0, t = 1/2, for an instant (f = c(t)·D² over ℚ(√2)(t),
    /// a square in μ at every time: the square-free part). 2⁻⁵⁰ more of ρ: a crossing just
    /// before, where 4 + 3·(5 − 10t)² = (2 + e)² (h = √3·|5 − 10t|); 2⁻⁵⁰ less: no contact.
    #[test]
    fn coaxial_tori_with_no_rational_point_grazing_along_a_circle() {
        let f = circle(pi(0, 0, 0), v(1, 1, 1), q(3));
        let g = Curve::Circle(circle(pi(5, 5, 5), v(1, 1, 1), q(1)));
        let cast = |rho: Q| torus_first_contact(&f, &g, &rho, &v(-10, -10, -10), &q(0), &q(1), &width()).unwrap();
        at(&cast(q(2)), r(1, 2));
        let miss = cast(q(2) - tiny());
        assert!(!miss.collides && miss.steps == 0, "{miss:?}");
        let cross = cast(q(2) + tiny());
        let [lo, hi] = cross.interval.clone();
        assert!(cross.collides && cross.steps == 0 && hi < r(1, 2) && &hi - &lo <= width(), "{cross:?}");
        let gap = |t: &Q| q(4) + q(3) * (q(5) - q(10) * t) * (q(5) - q(10) * t) - (q(2) + tiny()) * (q(2) + tiny());
        assert!(gap(&lo) >= q(0) && gap(&hi) <= q(0), "the root is not enclosed: [{lo}, {hi}]");
    }

    /// On f64 the capsule graze has no exact route: advancement creeps toward it and gives up
    /// after `MAX_FLOAT_STEPS` with a step limit, not after the query's whole time.
    #[test]
    fn f64_advancement_gives_up_on_a_graze() {
        use touchstone::round::torus::MAX_FLOAT_STEPS;
        use touchstone::round::RoundError;
        use touchstone::scalar::Uncertain;
        let f = Circle::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0), 3.0).unwrap();
        let seg = Curve::Segment([Point3::new(5.0, -10.0, -1.0), Point3::new(5.0, -10.0, 1.0)]);
        let v = Vector3::new(0.0, 20.0, 0.0);
        let r = torus_first_contact(&f, &seg, &2.0, &v, &0.0, &1.0, &1e-12);
        assert!(
            matches!(r, Err(RoundError::Uncertain(Uncertain::Exhausted(touchstone::budget::Limit::Steps)))),
            "{r:?}"
        );
        assert_eq!(MAX_FLOAT_STEPS, 10_000, "FORMAT states the cap");
    }

    /// Tori about (1, 1, 1), (1, 1, −1) and (1, 2, 3) (circles the small-vector search finds no
    /// rational point on) cast at F about (1, 1, 1) from small integer starts: the route over
    /// ℚ(√α) answers without advancing, and its exact time lies in advancement's enclosure.
    #[test]
    fn over_a_quadratic_field_against_advancement() {
        use touchstone::budget::{with_budget, Budget};
        use touchstone::round::torus::torus_first_contact_by_advancement;
        let f = circle(pi(0, 0, 0), v(1, 1, 1), q(3));
        let cases = [
            (pi(9, 0, 0), v(1, 1, 1), 1, q(1), v(-9, 1, 0)),
            (pi(0, 8, 1), v(1, 1, -1), 2, q(1), v(1, -9, 0)),
            (pi(2, 2, 8), v(1, 2, 3), 2, r(3, 2), v(-1, -2, -10)),
            (pi(-7, 3, 4), v(1, 1, -1), 1, q(2), v(10, -2, -5)),
            (pi(6, -6, 6), v(1, 2, 3), 2, q(1), v(-6, 6, -6)),
        ];
        let mut met = 0;
        for (c, axis, radius, rho, velocity) in cases {
            let g = Curve::Circle(circle(c, axis, q(radius)));
            let exact = torus_first_contact(&f, &g, &rho, &velocity, &q(0), &q(1), &width()).unwrap();
            assert!(!exact.at_start && exact.steps == 0, "{exact:?}");
            let budget = Budget { steps: Some(100_000), ..Budget::default() };
            let w = Q::new(1.into(), 1_000_000.into());
            let a =
                with_budget(budget, || torus_first_contact_by_advancement(&f, &g, &rho, &velocity, &q(0), &q(1), &w))
                    .unwrap();
            assert_eq!(a.collides, exact.collides, "advancement {a:?}, isolation {exact:?}");
            if a.collides {
                met += 1;
                let ([lo, hi], [alo, ahi]) = (exact.interval.clone(), a.interval);
                assert!(hi >= alo && lo <= ahi, "[{lo}, {hi}] outside advancement's [{alo}, {ahi}]");
            }
        }
        assert!(met >= 3, "{met} contacts");
    }

    /// G in the plane y = 0 (axis y), R′ = 2, centred at (x, 0, 0) with x from 12 down: the
    /// circles lie in perpendicular planes and meet where x = 5 (G's point (3, 0, 0) on F);
    /// with ρ = 1 the first contact is where their distance is 1. The nearest points of the
    /// circles are then (3, 0, 0) and (x − 2, 0, 0), 1 apart at x = 6: t = 6/8 = 3/4 under
    /// velocity −8 along x (a crossing, found exactly as well).
    #[test]
    fn a_torus_crossing_into_a_perpendicular_torus() {
        let g = Curve::Circle(circle(pi(12, 0, 0), v(0, 1, 0), q(2)));
        at(&hit(g, q(1), v(-8, 0, 0)), r(3, 4));
    }
}

/// `distance` on tori under the agreement contract (`query::both`), touching by construction:
/// a capsule across the top of the tube, a capsule along the axis through the hole (touching
/// along the circle), a perpendicular torus over one point of the circle, a linked torus
/// threaded by the circle at its centre (touching along its whole circle), a ball in the hole
/// and a ball on the axis (both touching along the circle); all posed by one
/// exact rational rotation (a binary64 quaternion of small integers) and moved off touching
/// by 2⁻⁵⁰ of the scale either way (the second shape's radius).
mod contract {
    use super::*;
    use proptest::prelude::*;
    use touchstone::query::{both, DistanceTorus, PoseSpec, Posed, Query, ShapeSpec, Toi, ToiTorus};
    use touchstone_oracle::encode::replay_line;

    fn pt(x: f64, y: f64, z: f64) -> Point3<f64> {
        Point3::new(x, y, z)
    }

    /// The second shape of `kind` at scale k with its radius nudged.
    fn second(kind: u8, k: f64, nudge: f64) -> ShapeSpec<f64> {
        let tiny = nudge * k * 2f64.powi(-50);
        match kind {
            0 => ShapeSpec::capsule(pt(-7.0 * k, 0.0, 3.0 * k), pt(7.0 * k, 0.0, 3.0 * k), 2.0 * k + tiny).unwrap(),
            1 => ShapeSpec::capsule(pt(0.0, 0.0, -7.0 * k), pt(0.0, 0.0, 7.0 * k), 4.0 * k + tiny).unwrap(),
            2 => ShapeSpec::torus(pt(3.0 * k, 4.0 * k, 4.0 * k), Vector3::new(-4.0, 3.0, 0.0), 2.0 * k, k + tiny)
                .unwrap(),
            3 => ShapeSpec::torus(pt(3.0 * k, 4.0 * k, 0.0), Vector3::new(-4.0, 3.0, 0.0), 2.0 * k, k + tiny).unwrap(),
            // Balls at the pose's origin: the torus is moved to put it in the hole (radius
            // R − r = 4k) or on the axis 12k below (√(5² + 12²) = 13: radius 12k).
            4 => ShapeSpec::ball(4.0 * (k + tiny)).unwrap(),
            _ => ShapeSpec::ball(12.0 * (k + tiny)).unwrap(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]
        #[test]
        fn f64_agrees_with_exact_under_the_contract_on_touching_tori(
            kind in 0u8..6, k in 1i32..=4, swap in any::<bool>(),
            q in [1i32..=3, -2i32..=2, -2i32..=2, -2i32..=2],
            t in [-4i32..=4, -4i32..=4, -4i32..=4],
            nudge in -1i32..=1,
        ) {
            let k = f64::from(k);
            let pose = PoseSpec::quaternion(q.map(f64::from), t.map(f64::from)).unwrap();
            let height = if kind == 5 { -12.0 * k } else { 0.0 };
            let f = ShapeSpec::torus(pt(0.0, 0.0, height), Vector3::new(0.0, 0.0, 1.0), 5.0 * k, k).unwrap();
            let (a, b) = (Posed::new("a", f, pose.clone()), Posed::new("b", second(kind, k, f64::from(nudge)), pose));
            let query = if swap { DistanceTorus { a: b, b: a } } else { DistanceTorus { a, b } };
            let replay = replay_line(&query);
            let r = both(&query).unwrap();
            prop_assert!(r.agreement.is_ok(), "{:?}\nreplay: {replay}", r.agreement);
            let expected = match nudge { 0 => Status::Touching, 1 => Status::Penetrating, _ => Status::Separated };
            let exact = query.answer::<Q>().unwrap().output.status;
            prop_assert_eq!(exact, expected, "replay: {}", replay);
        }

        /// `toi` of a ball against the torus R = 5k, r = k under the contract, grazing by
        /// construction: down the axis with radius 4k (touching the tube's inside along a
        /// circle at the centre only), across the top at height k + radius (touching the top
        /// circle where it passes over), or head on from the side; nudged by 2⁻⁵⁰ either way
        /// (the radius, or the height across the top).
        #[test]
        fn f64_toi_of_a_ball_is_valid_within_the_contract(
            kind in 0u8..3, k in 1i32..=4, radius in 1i32..=3,
            t in [-4i32..=4, -4i32..=4, -4i32..=4],
            nudge in -1i32..=1, speed in 1i32..=3,
        ) {
            let (k, s) = (f64::from(k), f64::from(speed));
            let tiny = 1.0 + f64::from(nudge) * 2f64.powi(-50);
            let (start, velocity, r) = match kind {
                0 => ([0.0, 0.0, 10.0 * k], [0.0, 0.0, -s], 4.0 * k * tiny),
                1 => {
                    let r = f64::from(radius) * k;
                    ([-20.0 * k, 5.0 * k, (k + r) * tiny], [s, 0.0, 0.0], r)
                }
                _ => ([20.0 * k, 0.0, 0.0], [-s, 0.0, 0.0], f64::from(radius) * k * tiny),
            };
            // Both moved by one integer translation (exact in floats).
            let t = t.map(f64::from);
            let f = ShapeSpec::torus(pt(0.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0), 5.0 * k, k).unwrap();
            let ball = PoseSpec::quaternion([1.0, 0.0, 0.0, 0.0], std::array::from_fn(|i| start[i] + t[i])).unwrap();
            let query = ToiTorus {
                toi: Toi {
                    a: Posed::new("a", f, PoseSpec::quaternion([1.0, 0.0, 0.0, 0.0], t).unwrap()),
                    b: Posed::new("b", ShapeSpec::ball(r).unwrap(), ball),
                    velocity_a: Vector3::new(0.0, 0.0, 0.0),
                    velocity_b: Vector3::new(velocity[0], velocity[1], velocity[2]),
                    interval: [0.0, 25.0 * k],
                },
                width: Q::new(1.into(), (1u64 << 40).into()),
            };
            let replay = replay_line(&query);
            let r = both(&query).unwrap();
            prop_assert!(r.agreement.is_ok(), "{:?}\nreplay: {replay}", r.agreement);
            let exact = query.answer::<Q>().unwrap().output;
            // Touching by construction (nudge 0) and deeper collide (a larger ball down the
            // axis, a lower one across the top); a ball 2⁻⁵⁰ short grazes past (kinds 0 and 1)
            // or still hits head on (2).
            let collides = match kind { 0 => nudge >= 0, 1 => nudge <= 0, _ => true };
            prop_assert_eq!(exact.collides, collides, "replay: {}", replay);
        }
    }
}
