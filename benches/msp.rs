//! The Brep-index: build time and point classification, f64 against exact (`Exact`, the exact
//! path's backend, and `BigRational` on the smaller shape), on Table 1's torus and sphere
//! (Vaněček 1990), in one run; prints the ratios.
//!
//! `cargo bench --bench msp`

mod common;
use common::{mean_ns, Rng};

use std::hint::black_box;

use criterion::Criterion;
use num_rational::BigRational;
use touchstone::brep::{shapes, Solid};
use touchstone::geom::Point3;
use touchstone::msp::{MspTree, Options, Split};
use touchstone::scalar::{Exact, Scalar};

fn torus<S: Scalar>(k: usize) -> Solid<S> {
    shapes::torus(k, k, S::from_i64(3), S::from_i64(1)).unwrap()
}

/// 100 points on a 1/64 grid in the torus's box [-4, 4]² × [-1, 1] (as the paper's cost
/// figure).
fn points<S: Scalar>() -> Vec<Point3<S>> {
    let mut r = Rng::new(0x5eed_0025);
    let mut coord = move |h: i64| S::from_i64(r.int(64 * h)) / S::from_i64(64);
    (0..100).map(|_| Point3::new(coord(4), coord(4), coord(1))).collect()
}

fn bench_backend<S: Scalar>(c: &mut Criterion, name: &str, big: bool) {
    let mut g = c.benchmark_group("msp");
    g.sample_size(10);
    let hybrid = Options { split: Split::HYBRID, ..Options::default() };
    let shapes: Vec<(&str, Solid<S>)> = if big {
        vec![("torus_20", torus(20)), ("torus_10", torus(10)), ("sphere_10", shapes::uv_sphere(10, 10).unwrap())]
    } else {
        vec![("torus_10", torus(10))]
    };
    for (shape, s) in &shapes {
        g.bench_function(format!("build_{shape}/{name}"), |b| {
            b.iter(|| black_box(MspTree::build(s, &hybrid).unwrap()))
        });
    }
    // Autopartition (the paper's §2.1 heuristic alone) on the 400-entity torus.
    let t10 = torus::<S>(10);
    g.bench_function(format!("build_torus_10_autopartition/{name}"), |b| {
        b.iter(|| black_box(MspTree::build(&t10, &Options::default()).unwrap()))
    });
    let index = MspTree::build(&torus::<S>(20), &hybrid).unwrap();
    let pts = points::<S>();
    g.bench_function(format!("classify_100_points_torus_20/{name}"), |b| {
        b.iter(|| pts.iter().map(|p| index.classify_point(p).unwrap().dots).sum::<usize>())
    });
    // Segments between consecutive points (through the hole, across the tube, grazing).
    g.bench_function(format!("classify_100_segments_torus_20/{name}"), |b| {
        b.iter(|| {
            pts.iter()
                .zip(pts.iter().cycle().skip(1))
                .map(|(p, q)| index.classify_segment(p, q).unwrap().pieces.len())
                .sum::<usize>()
        })
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_backend::<f64>(&mut c, "f64", true);
    bench_backend::<Exact>(&mut c, "Exact", true);
    bench_backend::<BigRational>(&mut c, "BigRational", false);
    c.final_summary();
    println!("\nmsp (hybrid split), mean time and cost relative to f64:");
    for task in [
        "build_torus_20",
        "build_torus_10",
        "build_sphere_10",
        "build_torus_10_autopartition",
        "classify_100_points_torus_20",
        "classify_100_segments_torus_20",
    ] {
        let Some(base) = mean_ns("msp", &format!("{task}/f64")) else { continue };
        for n in ["f64", "Exact", "BigRational"] {
            if let Some(t) = mean_ns("msp", &format!("{task}/{n}")) {
                println!("  {task:30} {n:12} {:>12.3} ms   ×{:.0}", t / 1e6, t / base);
            }
        }
    }
}
