//! Convex hull and solid validation, f64 against exact (BigRational, and rug::Rational with
//! `--features rug`), in one run. Inputs: random points in a ball on a dyadic grid (generic
//! positions) and the points of an integer grid (many coplanar ties); validation of the 10×10
//! UV sphere and torus of Table 1 (Vaněček 1990). Prints the exact/f64 cost ratios.
//!
//! `cargo bench --bench brep` (add `--features rug` for the GMP backend).

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::Criterion;
use num_rational::BigRational;
use touchstone::brep::shapes::{torus, uv_sphere};
use touchstone::brep::{convex_hull, Solid};
use touchstone::geom::Point3;
use touchstone::scalar::{convert, Scalar};

/// Deterministic inputs (xorshift64*).
fn random_points(n: usize) -> Vec<Point3<f64>> {
    let mut s: u64 = 0x5eed_0002;
    let mut next = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        ((s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let mut out = Vec::new();
    while out.len() < n {
        let p = [next(), next(), next()].map(|x| (x * 1024.0).round() / 1024.0);
        if p.iter().map(|x| x * x).sum::<f64>() <= 1.0 {
            out.push(Point3::from(p));
        }
    }
    out
}

fn grid_points(k: i32) -> Vec<Point3<f64>> {
    let mut out = Vec::new();
    for x in 0..k {
        for y in 0..k {
            for z in 0..k {
                out.push(Point3::new(x as f64, y as f64, z as f64));
            }
        }
    }
    out
}

fn bench_backend<S: Scalar>(c: &mut Criterion, name: &str) {
    let conv =
        |pts: &[Point3<f64>]| -> Vec<Point3<S>> { pts.iter().map(|p| p.map(|x| convert(&x).unwrap())).collect() };
    let (random, grid) = (conv(&random_points(200)), conv(&grid_points(6)));
    let sphere = uv_sphere::<S>(10, 10).unwrap();
    let tor = torus::<S>(10, 10, S::from_i64(3), S::one()).unwrap();
    let (sv, sf) = (sphere.vertices().to_vec(), sphere.faces().to_vec());
    let (tv, tf) = (tor.vertices().to_vec(), tor.faces().to_vec());
    let mut g = c.benchmark_group("brep");
    g.sample_size(10);
    g.bench_function(format!("hull_random_200/{name}"), |b| b.iter(|| black_box(convex_hull(&random).is_ok())));
    g.bench_function(format!("hull_grid_216/{name}"), |b| b.iter(|| black_box(convex_hull(&grid).is_ok())));
    g.bench_function(format!("validate_sphere_10/{name}"), |b| {
        b.iter(|| black_box(Solid::new(sv.clone(), sf.clone()).is_ok()))
    });
    g.bench_function(format!("validate_torus_10/{name}"), |b| {
        b.iter(|| black_box(Solid::new(tv.clone(), tf.clone()).is_ok()))
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let names: Vec<&str> =
        ["f64", "BigRational"].into_iter().chain(cfg!(feature = "rug").then_some("rug_Rational")).collect();
    bench_backend::<f64>(&mut c, "f64");
    bench_backend::<BigRational>(&mut c, "BigRational");
    #[cfg(feature = "rug")]
    bench_backend::<touchstone::scalar::RugRational>(&mut c, "rug_Rational");
    c.final_summary();
    println!("\nbrep, mean time per call and cost relative to f64:");
    for task in ["hull_random_200", "hull_grid_216", "validate_sphere_10", "validate_torus_10"] {
        let Some(base) = mean_ns("brep", &format!("{task}/f64")) else { continue };
        for n in &names {
            if let Some(t) = mean_ns("brep", &format!("{task}/{n}")) {
                println!("  {task:20} {n:14} {:>12.3} ms   ×{:.0}", t / 1e6, t / base);
            }
        }
    }
}
