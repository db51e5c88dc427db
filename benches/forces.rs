//! Contact forces (issue 44): the SVD method's solve on `f64` (nalgebra's SVD, verified by
//! reconstruction) against the exact minimum-norm elimination on `BigRational`, for 4, 16 and
//! 64 contacts, in one run. No peer engine computes the paper's minimum-norm forces, so the
//! comparison is the float path against the exact one.
//!
//! Two scenes per contact count `n`, both resting (every contact static, one solve):
//! * `plate`: one plate on an `√n × √n` grid of contacts on the floor: `A` is `3n × 3n` of
//!   rank 6, the indeterminate case where the minimum norm decides the answer;
//! * `tower`: `n / 4` unit cubes stacked on the floor, four corner contacts under each: `A` is
//!   block tridiagonal of rank `6 n / 4`.
//!
//! Prints each mean and its ratio to the `f64` path.
//!
//! `cargo bench --bench forces`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::Criterion;
use num_rational::BigRational;
use touchstone::forces::{solve, Body, Contact, System};
use touchstone::geom::{Matrix3, Point3, Vector3};
use touchstone::scalar::Scalar;

fn int<S: Scalar>(n: i64) -> S {
    S::from_i64(n)
}

/// One plate of mass 4 on a `k × k` grid of floor contacts (spacing 2, centred).
fn plate<S: Scalar>(k: i64) -> System<S> {
    let plate = Body::free(int(4), Matrix3::identity(), Point3::new(int(0), int(0), int(1)));
    let floor = Body::fixed(Point3::new(int(0), int(0), int(0)));
    let mut contacts = Vec::new();
    for i in 0..k {
        for j in 0..k {
            let (x, y) = (2 * i - (k - 1), 2 * j - (k - 1));
            contacts.push(Contact::new(
                0,
                1,
                Point3::new(int(x), int(y), int(0)),
                Vector3::new(int(0), int(0), int(1)),
                int(1),
            ));
        }
    }
    System::new(vec![plate, floor], Vector3::new(int(0), int(0), int(-10)), contacts)
}

/// `m` unit cubes (half-size 1, mass 8) stacked on the floor, four corner contacts under each.
fn tower<S: Scalar>(m: i64) -> System<S> {
    let inertia = Matrix3::identity() * (S::from_i64(16) / S::from_i64(3));
    let mut bodies: Vec<Body<S>> =
        (0..m).map(|i| Body::free(int(8), inertia.clone(), Point3::new(int(0), int(0), int(2 * i + 1)))).collect();
    bodies.push(Body::fixed(Point3::new(int(0), int(0), int(0))));
    let floor = m as usize;
    let mut contacts = Vec::new();
    for i in 0..m {
        let below = if i == 0 { floor } else { i as usize - 1 };
        for (x, y) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] {
            contacts.push(Contact::new(
                i as usize,
                below,
                Point3::new(int(x), int(y), int(2 * i)),
                Vector3::new(int(0), int(0), int(1)),
                int(1),
            ));
        }
    }
    System::new(bodies, Vector3::new(int(0), int(0), int(-10)), contacts)
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut rows = Vec::new();
    for n in [4usize, 16, 64] {
        let k = (n as f64).sqrt() as i64;
        let m = (n / 4) as i64;
        for (scene, fast, exact) in
            [("plate", plate::<f64>(k), plate::<BigRational>(k)), ("tower", tower::<f64>(m), tower::<BigRational>(m))]
        {
            // Both paths answer, and alike: every contact static, converged in one solve.
            let (f, e) = (solve(&fast).expect("f64 answers"), solve(&exact).expect("exact answers"));
            assert!(f.converged && e.converged && f.states == e.states, "{scene} {n}: the paths disagree");
            let group = format!("forces_{scene}_{n}");
            let mut g = c.benchmark_group(&group);
            g.sample_size(10);
            g.bench_function("svd_f64", |b| b.iter(|| black_box(solve(black_box(&fast)).ok())));
            g.bench_function("exact_elimination", |b| b.iter(|| black_box(solve(black_box(&exact)).ok())));
            g.finish();
            rows.push(group);
        }
    }
    c.final_summary();
    println!("\n{:<20} {:>14} {:>18} {:>8}", "scene", "svd_f64", "exact_elimination", "ratio");
    for group in rows {
        if let (Some(f), Some(e)) = (mean_ns(&group, "svd_f64"), mean_ns(&group, "exact_elimination")) {
            println!("{group:<20} {:>11.1} µs {:>15.1} µs {:>7.1}×", f / 1e3, e / 1e3, e / f);
        }
    }
}
