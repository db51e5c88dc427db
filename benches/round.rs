//! Round shapes (issue 42): the distance and status of ball and capsule pairs, exactly
//! (BigRational: the cores' squared distance and d² against (r_a + r_b)², no square root),
//! on `f64` by the same code, and parry3d-f64's `distance` on the same pairs, in one run; then
//! the first time of contact of the same pairs with b cast at a (`round::first_contact`, exact
//! and `f64`, against parry3d-f64's `cast_shapes`). The pairs have integer cores and radii (a
//! third of them tangent: the cores' distance is a Pythagorean 5, 10 or 13 and the radii sum
//! to it). Prints each mean per pair and its ratio to the `f64` path.
//!
//! Then balls against cylinders (`round::cylinder::ball_cylinder`, exact and `f64`, against
//! parry3d-f64's `Cylinder`), and a ball cast at a torus (the exact root route of
//! `torus_first_contact` for a point core).
//!
//! `cargo bench --bench round`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use num_rational::BigRational;
use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::shape::{Ball, Capsule, Cylinder as Cylinder3, Shape};
use touchstone::geom::Point3;
use touchstone::geom::Vector3;
use touchstone::round::cylinder::{ball_cylinder, Cylinder};
use touchstone::round::torus::{
    torus_distance, torus_first_contact, torus_first_contact_by_advancement, Circle, Curve,
};
use touchstone::round::{first_contact, round_distance, RoundShape};
use touchstone::scalar::Scalar;

/// A ball (`None` end) or a capsule, by integer coordinates and radius.
type Spec = ([i64; 3], Option<[i64; 3]>, i64);

fn specs() -> Vec<(Spec, Spec)> {
    let mut grid = common::Grid::new(0x2545_f491_4f6c_dd1d);
    let mut next = move |m: i64| grid.next(m);
    // Pythagorean offsets (length 5, 10, 13) for the tangent pairs.
    let triples = [([3, 4, 0], 5), ([6, 8, 0], 10), ([5, 0, 12], 13)];
    (0..48)
        .map(|i| {
            let c = [0; 3].map(|_| next(20));
            if i % 3 == 0 {
                // Tangent balls: radii 2 and the rest of the offset's length.
                let (t, d) = triples[(i / 3) % 3];
                let b = [c[0] + t[0], c[1] + t[1], c[2] + t[2]];
                return ((c, None, 2), (b, None, d - 2));
            }
            let d = [0; 3].map(|_| next(20));
            let mut shape = |c: [i64; 3]| -> Spec {
                let end = (next(1) != 0).then(|| [c[0], c[1], c[2] + 1 + next(5).abs()]);
                (c, end, 1 + next(3).abs())
            };
            (shape(c), shape(d))
        })
        .collect()
}

fn exact(s: &Spec) -> RoundShape<BigRational> {
    let p = |v: [i64; 3]| Point3::new(v[0], v[1], v[2]).map(|x| BigRational::from_integer(x.into()));
    let r = BigRational::from_integer(s.2.into());
    match s.1 {
        None => RoundShape::ball(p(s.0), r).unwrap(),
        Some(e) => RoundShape::capsule(p(s.0), p(e), r).unwrap(),
    }
}

fn fast(s: &Spec) -> RoundShape<f64> {
    let p = |v: [i64; 3]| Point3::new(v[0] as f64, v[1] as f64, v[2] as f64);
    match s.1 {
        None => RoundShape::ball(p(s.0), s.2 as f64).unwrap(),
        Some(e) => RoundShape::capsule(p(s.0), p(e), s.2 as f64).unwrap(),
    }
}

fn peer(s: &Spec) -> (Pose, Box<dyn Shape>) {
    let v = |v: [i64; 3]| Vector::new(v[0] as f64, v[1] as f64, v[2] as f64);
    match s.1 {
        None => (Pose::from_translation(v(s.0)), Box::new(Ball::new(s.2 as f64))),
        Some(e) => (Pose::IDENTITY, Box::new(Capsule::new(v(s.0), v(e), s.2 as f64))),
    }
}

/// A cylinder (ends, radius) and a ball (centre, radius), by integers: a third of them
/// touching the rim by construction (a (3, 4; 5) offset from the rim of the cap at the second
/// end, for an axis along z), the rest anywhere.
type CylinderSpec = (([i64; 3], [i64; 3], i64), ([i64; 3], i64));

fn cylinder_specs() -> Vec<CylinderSpec> {
    let mut grid = common::Grid::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |m: i64| grid.next(m);
    (0..48)
        .map(|i| {
            let a = [0; 3].map(|_| next(20));
            if i % 3 == 0 {
                let (h, r) = (1 + next(5).abs(), 1 + next(3).abs());
                let b = [a[0], a[1], a[2] + h];
                return ((a, b, r), ([a[0] + r + 3, a[1], a[2] + h + 4], 5));
            }
            let b = [a[0] + next(4), a[1] + next(4), a[2] + 1 + next(5).abs()];
            ((a, b, 1 + next(3).abs()), ([0; 3].map(|_| next(20)), 1 + next(4).abs()))
        })
        .collect()
}

fn cylinder_pair<S: Scalar>(c: &CylinderSpec) -> (Cylinder<S>, Point3<S>, S) {
    let p = |v: [i64; 3]| Point3::new(S::from_i64(v[0]), S::from_i64(v[1]), S::from_i64(v[2]));
    let ((a, b, r), (x, s)) = c;
    (Cylinder::new(p(*a), p(*b), S::from_i64(*r)).unwrap(), p(*x), S::from_i64(*s))
}

fn cylinder_peer(c: &CylinderSpec) -> ((Pose, Cylinder3), (Pose, Ball)) {
    let v = |v: [i64; 3]| Vector::new(v[0] as f64, v[1] as f64, v[2] as f64);
    let ((a, b, r), (x, s)) = c;
    let (a, b) = (v(*a), v(*b));
    let axis = b - a;
    let turn = parry3d_f64::math::Rotation::from_rotation_arc(Vector::Y, axis / axis.length());
    let cylinder = Cylinder3::new(axis.length() / 2.0, *r as f64);
    ((Pose::from_parts((a + b) / 2.0, turn), cylinder), (Pose::from_translation(v(*x)), Ball::new(*s as f64)))
}

/// A circle: centre, axis, radius (integers).
type CircleSpec = ([i64; 3], [i64; 3], i64);

/// The other core: a point, a segment, or a circle.
enum CurveSpec {
    Point([i64; 3]),
    Segment([i64; 3], [i64; 3]),
    Circle(CircleSpec),
}

fn torus_pairs() -> Vec<(CircleSpec, CurveSpec)> {
    let f = ([0, 0, 0], [0, 0, 1], 3);
    vec![
        (f, CurveSpec::Point([5, 0, 1])),
        (f, CurveSpec::Segment([-4, 1, 3], [5, -2, 1])),
        (f, CurveSpec::Circle(([1, 2, 3], [1, 1, 1], 2))),
        (([0, 0, 0], [2, 3, 6], 2), CurveSpec::Circle(([4, -1, 1], [1, 0, 2], 3))),
        (f, CurveSpec::Circle(([3, 1, 2], [1, 2, 0], 2))),
        (f, CurveSpec::Circle(([3, 0, 0], [0, 1, 0], 2))),
    ]
}

fn torus_point<S: Scalar>(p: &[i64; 3]) -> Point3<S> {
    Point3::new(S::from_i64(p[0]), S::from_i64(p[1]), S::from_i64(p[2]))
}

fn torus_circle<S: Scalar>(c: &CircleSpec) -> Circle<S> {
    let n = c.1.map(S::from_i64);
    Circle::new(torus_point(&c.0), Vector3::new(n[0].clone(), n[1].clone(), n[2].clone()), S::from_i64(c.2)).unwrap()
}

fn torus_curve<S: Scalar>(k: &CurveSpec) -> Curve<S> {
    match k {
        CurveSpec::Point(p) => Curve::Point(torus_point(p)),
        CurveSpec::Segment(a, b) => Curve::Segment([torus_point(a), torus_point(b)]),
        CurveSpec::Circle(c) => Curve::Circle(torus_circle(c)),
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let specs = specs();
    let ex: Vec<_> = specs.iter().map(|(a, b)| (exact(a), exact(b))).collect();
    let fa: Vec<_> = specs.iter().map(|(a, b)| (fast(a), fast(b))).collect();
    let pe: Vec<_> = specs.iter().map(|(a, b)| (peer(a), peer(b))).collect();
    let mut g = c.benchmark_group("round");
    g.sample_size(10);
    g.throughput(Throughput::Elements(specs.len() as u64));
    g.bench_function("round_f64", |b| {
        b.iter(|| {
            for (x, y) in &fa {
                black_box(round_distance(x, y).map(|d| d.status).ok());
            }
        })
    });
    g.bench_function("parry3d_f64", |b| {
        b.iter(|| {
            for ((px, x), (py, y)) in &pe {
                black_box(parry3d_f64::query::distance(px, x.as_ref(), py, y.as_ref()).ok());
            }
        })
    });
    g.bench_function("round_exact", |b| {
        b.iter(|| {
            for (x, y) in &ex {
                black_box(round_distance(x, y).map(|d| d.status).ok());
            }
        })
    });
    g.finish();
    // b cast at a: its velocity is a's first core point minus b's (they meet before t = 1
    // unless b passes by), over [0, 2].
    let towards: Vec<[i64; 3]> = specs.iter().map(|(a, b)| [0, 1, 2].map(|i| a.0[i] - b.0[i])).collect();
    let q = |x: i64| BigRational::from_integer(x.into());
    let mut g = c.benchmark_group("round_toi");
    g.sample_size(10);
    g.throughput(Throughput::Elements(specs.len() as u64));
    g.bench_function("toi_f64", |b| {
        b.iter(|| {
            for ((x, y), w) in fa.iter().zip(&towards) {
                let v = Vector3::new(w[0] as f64, w[1] as f64, w[2] as f64);
                black_box(first_contact(x, &Vector3::zeros(), y, &v, [0.0, 2.0]).ok());
            }
        })
    });
    g.bench_function("parry3d_cast", |b| {
        b.iter(|| {
            for (((px, x), (py, y)), w) in pe.iter().zip(&towards) {
                let v = Vector::new(w[0] as f64, w[1] as f64, w[2] as f64);
                let options = parry3d_f64::query::ShapeCastOptions::with_max_time_of_impact(2.0);
                black_box(
                    parry3d_f64::query::cast_shapes(px, Vector::ZERO, x.as_ref(), py, v, y.as_ref(), options).ok(),
                );
            }
        })
    });
    g.bench_function("toi_exact", |b| {
        b.iter(|| {
            for ((x, y), w) in ex.iter().zip(&towards) {
                let v = Vector3::new(q(w[0]), q(w[1]), q(w[2]));
                black_box(first_contact(x, &Vector3::from_element(q(0)), y, &v, [q(0), q(2)]).ok());
            }
        })
    });
    g.finish();
    // Tori (no peer engine has one): the torus R = 3, r = 1 about z against a ball, a capsule
    // and four tori in general position, and Example 5.1's first contact to 10⁻²⁰.
    let tori = torus_pairs();
    let tori_exact: Vec<_> =
        tori.iter().map(|(c, k)| (torus_circle::<BigRational>(c), torus_curve::<BigRational>(k))).collect();
    let tori_fast: Vec<_> = tori.iter().map(|(c, k)| (torus_circle::<f64>(c), torus_curve::<f64>(k))).collect();
    let mut g = c.benchmark_group("torus");
    g.sample_size(10);
    g.throughput(Throughput::Elements(tori.len() as u64));
    g.bench_function("torus_f64", |b| {
        b.iter(|| {
            for (x, y) in &tori_fast {
                black_box(torus_distance(x, y, &2.0).map(|d| d.status).ok());
            }
        })
    });
    g.bench_function("torus_exact", |b| {
        b.iter(|| {
            for (x, y) in &tori_exact {
                black_box(torus_distance(x, y, &q(2)).map(|d| d.status).ok());
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("torus_toi");
    g.sample_size(10);
    let f = torus_circle::<BigRational>(&([0, 0, 0], [0, 0, 1], 3));
    let start = Curve::Circle(
        Circle::new(
            Point3::new(
                BigRational::new(10.into(), 3.into()),
                BigRational::new(1.into(), 5.into()),
                BigRational::new(11.into(), 2.into()),
            ),
            Vector3::new(q(1), q(0), q(0)),
            q(2),
        )
        .unwrap(),
    );
    let v = Vector3::new(BigRational::new((-1).into(), 3.into()), BigRational::new((-1).into(), 5.into()), q(-2));
    let width = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 20));
    g.bench_function("example_5_1_exact", |b| {
        b.iter(|| black_box(torus_first_contact(&f, &start, &q(2), &v, &q(0), &q(1), &width).ok()))
    });
    g.bench_function("example_5_1_exact_by_advancement", |b| {
        b.iter(|| black_box(torus_first_contact_by_advancement(&f, &start, &q(2), &v, &q(0), &q(1), &width).ok()))
    });
    // Grazes by root isolation (advancement never ends on them): a vertical capsule sliding
    // past the tube, touching it at t = 1/2 for an instant, and a coaxial torus sliding over F
    // until it rests on it at two points from t = 1/2 on (tests/torus.rs).
    let capsule = Curve::Segment([torus_point(&[5, -10, -1]), torus_point(&[5, -10, 1])]);
    let up = Vector3::new(q(0), q(20), q(0));
    g.bench_function("capsule_graze_exact", |b| {
        b.iter(|| black_box(torus_first_contact(&f, &capsule, &q(2), &up, &q(0), &q(1), &width).ok()))
    });
    let coaxial = Curve::Circle(Circle::new(torus_point(&[10, 0, 2]), Vector3::new(q(0), q(0), q(1)), q(3)).unwrap());
    let left = Vector3::new(q(-8), q(0), q(0));
    g.bench_function("torus_rest_exact", |b| {
        b.iter(|| black_box(torus_first_contact(&f, &coaxial, &q(2), &left, &q(0), &q(1), &width).ok()))
    });
    // Circles about (1, 1, 1) have no rational point: G's circle is parametrised over ℚ(√2)
    // (poly::first_zero_on_line); coplanar, they touch at t = 1 − √2/4 (tests/torus.rs).
    let f111 = Circle::new(torus_point(&[0, 0, 0]), Vector3::new(q(1), q(1), q(1)), q(3)).unwrap();
    let g111 = Curve::Circle(Circle::new(torus_point(&[10, -10, 0]), Vector3::new(q(1), q(1), q(1)), q(1)).unwrap());
    let diagonal = Vector3::new(q(-10), q(10), q(0));
    g.bench_function("no_rational_point_exact", |b| {
        b.iter(|| black_box(torus_first_contact(&f111, &g111, &q(1), &diagonal, &q(0), &q(1), &width).ok()))
    });
    g.bench_function("no_rational_point_exact_by_advancement", |b| {
        b.iter(|| {
            black_box(torus_first_contact_by_advancement(&f111, &g111, &q(1), &diagonal, &q(0), &q(1), &width).ok())
        })
    });
    let ff = torus_circle::<f64>(&([0, 0, 0], [0, 0, 1], 3));
    let sf = Curve::Circle(Circle::new(Point3::new(10.0 / 3.0, 0.2, 5.5), Vector3::new(1.0, 0.0, 0.0), 2.0).unwrap());
    let vf = Vector3::new(-1.0 / 3.0, -0.2, -2.0);
    g.bench_function("example_5_1_f64", |b| {
        b.iter(|| black_box(torus_first_contact(&ff, &sf, &2.0, &vf, &0.0, &1.0, &1e-20).ok()))
    });
    g.finish();
    // A ball of radius 2 falling down the torus's axis from height 10 at speed 1: it meets the
    // tube's inside (R = 3, r = 1) where √(9 + z²) = 3 — at its centre, t = 10, a graze found
    // as a double root — and a ball of radius 1 cast across the top at height 2, meeting the
    // tube where √((|x| − 3)² + 4) = 2, at t = 7.
    let casts_exact: Vec<(Curve<BigRational>, BigRational, Vector3<BigRational>)> = vec![
        (Curve::Point(torus_point(&[0, 0, 10])), q(2), Vector3::new(q(0), q(0), q(-1))),
        (Curve::Point(torus_point(&[-10, 0, 2])), q(1), Vector3::new(q(1), q(0), q(0))),
    ];
    let casts_fast: Vec<(Curve<f64>, f64, Vector3<f64>)> = vec![
        (Curve::Point(torus_point(&[0, 0, 10])), 2.0, Vector3::new(0.0, 0.0, -1.0)),
        (Curve::Point(torus_point(&[-10, 0, 2])), 1.0, Vector3::new(1.0, 0.0, 0.0)),
    ];
    let width = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 20));
    let mut g = c.benchmark_group("ball_torus_toi");
    g.sample_size(10);
    g.throughput(Throughput::Elements(casts_exact.len() as u64));
    g.bench_function("ball_cast_f64", |b| {
        b.iter(|| {
            for (k, r, v) in &casts_fast {
                black_box(torus_first_contact(&ff, k, r, v, &0.0, &20.0, &1e-20).ok());
            }
        })
    });
    g.bench_function("ball_cast_exact", |b| {
        b.iter(|| {
            for (k, r, v) in &casts_exact {
                black_box(torus_first_contact(&f, k, r, v, &q(0), &q(20), &width).ok());
            }
        })
    });
    g.finish();
    let cylinders = cylinder_specs();
    let cyl_exact: Vec<_> = cylinders.iter().map(cylinder_pair::<BigRational>).collect();
    let cyl_fast: Vec<_> = cylinders.iter().map(cylinder_pair::<f64>).collect();
    let cyl_peer: Vec<_> = cylinders.iter().map(cylinder_peer).collect();
    let mut g = c.benchmark_group("cylinder");
    g.sample_size(10);
    g.throughput(Throughput::Elements(cylinders.len() as u64));
    g.bench_function("cylinder_f64", |b| {
        b.iter(|| {
            for (c, x, s) in &cyl_fast {
                black_box(ball_cylinder(c, x, s).map(|d| d.status).ok());
            }
        })
    });
    g.bench_function("parry3d_f64", |b| {
        b.iter(|| {
            for ((pa, a), (pb, bb)) in &cyl_peer {
                black_box(parry3d_f64::query::distance(pa, a, pb, bb).ok());
            }
        })
    });
    g.bench_function("cylinder_exact", |b| {
        b.iter(|| {
            for (c, x, s) in &cyl_exact {
                black_box(ball_cylinder(c, x, s).map(|d| d.status).ok());
            }
        })
    });
    g.finish();
    c.final_summary();
    let n = specs.len();
    let groups: [(&str, &[&str], usize); 6] = [
        ("round", &["round_f64", "parry3d_f64", "round_exact"], n),
        ("round_toi", &["toi_f64", "parry3d_cast", "toi_exact"], n),
        ("torus", &["torus_f64", "torus_exact"], tori.len()),
        ("torus_toi", &["example_5_1_f64", "example_5_1_exact"], 1),
        ("ball_torus_toi", &["ball_cast_f64", "ball_cast_exact"], 2),
        ("cylinder", &["cylinder_f64", "parry3d_f64", "cylinder_exact"], cylinders.len()),
    ];
    for (group, fs, count) in groups {
        println!("\n{group} over {count} pairs, mean per pair and cost relative to f64:");
        let Some(base) = mean_ns(group, fs[0]) else { continue };
        for f in fs {
            if let Some(t) = mean_ns(group, f) {
                println!("  {f:18} {:>10.3} µs   ×{:.1}", t / 1e3 / count as f64, t / base);
            }
        }
    }
}
