//! orient3d on f64, Interval (the filter), Exact (the fast exact backend), BigRational (the
//! reference) and (with `--features rug`) rug::Rational in one run, on
//! generic binary64 inputs (full 53-bit mantissas: the costly case for rationals) and on small
//! integer grids. Prints the exact/f64 cost ratios at the end.
//!
//! `cargo bench --bench predicates` (add `--features rug` for the GMP backend).

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use num_rational::BigRational;
use touchstone::geom::Point3;
use touchstone::predicates::orient3d;
use touchstone::scalar::{convert, Scalar};

/// A small deterministic generator (xorshift64*), so that every run sees the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

const BATCH: usize = 64;

fn inputs(grid: bool) -> Vec<[Point3<f64>; 4]> {
    let mut rng = Rng(0x5eed_0001);
    let mut c = move || if grid { (rng.next() % 17) as f64 - 8.0 } else { rng.unit() };
    (0..BATCH).map(|_| std::array::from_fn(|_| Point3::new(c(), c(), c()))).collect()
}

fn bench_backend<S: Scalar>(c: &mut Criterion, workload: &str, pts: &[[Point3<f64>; 4]]) {
    let converted: Vec<[Point3<S>; 4]> = pts.iter().map(|q| q.map(|p| p.map(|x| convert(&x).unwrap()))).collect();
    let mut group = c.benchmark_group(format!("orient3d/{workload}"));
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function(S::NAME.replace("::", "_"), |b| {
        b.iter(|| {
            for q in &converted {
                black_box(orient3d(&q[0], &q[1], &q[2], &q[3]).ok());
            }
        })
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut backends = vec!["f64", "interval", "Exact", "BigRational"];
    if cfg!(feature = "rug") {
        backends.push("rug_Rational");
    }
    for (workload, grid) in [("generic", false), ("grid", true)] {
        let pts = inputs(grid);
        bench_backend::<f64>(&mut c, workload, &pts);
        bench_backend::<touchstone::scalar::Interval>(&mut c, workload, &pts);
        bench_backend::<touchstone::scalar::Exact>(&mut c, workload, &pts);
        bench_backend::<BigRational>(&mut c, workload, &pts);
        #[cfg(feature = "rug")]
        bench_backend::<touchstone::scalar::RugRational>(&mut c, workload, &pts);
    }
    c.final_summary();
    println!("\norient3d, mean time per call and cost relative to f64:");
    for workload in ["generic", "grid"] {
        let group = format!("orient3d/{workload}");
        let Some(base) = mean_ns(&group, "f64") else { continue };
        for b in &backends {
            if let Some(t) = mean_ns(&group, b) {
                println!("  {workload:8} {b:14} {:>12.1} ns   ×{:.0}", t / BATCH as f64, t / base);
            }
        }
    }
}
