//! Distance between convex solids: V-Clip on `f64` (cold: from vertex 0 of each; warm: from
//! the features of the previous answer, the temporal-coherence case), V-Clip exact
//! (BigRational), and parry3d-f64's GJK `distance` on the same pairs, in one run. The pairs
//! are the degenerate ones of the property tests: cubes, cuboids, tetrahedra, octahedra,
//! icosahedra and hulls under integer quaternions and grid translations, a third of them
//! touching and a third penetrating by construction. Prints each mean and its ratio to
//! warm f64 V-Clip.
//!
//! `vclip` checks strict convexity on every call (a pass over every edge);
//! `vclip_prechecked` is the tracking-loop form that skips it.
//!
//! `cargo bench --bench vclip`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use num_rational::BigRational;
use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::shape::ConvexPolyhedron;
use touchstone::brep::{Feature, Solid};
use touchstone::strategies::{convex_pair, Placement};
use touchstone::vclip::{vclip, vclip_prechecked};

type Pair<S> = (Solid<S>, Solid<S>);

fn pairs() -> Vec<Pair<BigRational>> {
    let mut grid = common::Grid::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |m: i64| grid.next(m);
    (0..48)
        .map(|i| {
            let mut side = || {
                let k = next(3).unsigned_abs() as u8 + 3 * (next(1).unsigned_abs() as u8);
                let q = [0; 4].map(|_| next(3) as i8);
                let t = [0; 3].map(|_| next(24) as i8);
                (k, q, t)
            };
            let (a, b) = (side(), side());
            let cloud: Vec<[i8; 3]> = (0..10).map(|_| [0; 3].map(|_| next(100) as i8)).collect();
            let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][i % 3];
            convex_pair(a, b, &cloud, placement)
        })
        .collect()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let exact = pairs();
    let fast: Vec<Pair<f64>> =
        exact.iter().map(|(a, b)| (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap())).collect();
    let warm: Vec<(Feature, Feature)> = fast.iter().map(|(a, b)| vclip(a, b, None).unwrap().closest.features).collect();
    let hull = |s: &Solid<f64>| {
        let pts: Vec<Vector> = s.vertices().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
        ConvexPolyhedron::from_convex_hull(&pts).unwrap()
    };
    let peer: Vec<(ConvexPolyhedron, ConvexPolyhedron)> = fast.iter().map(|(a, b)| (hull(a), hull(b))).collect();
    let id = Pose::IDENTITY;

    let mut g = c.benchmark_group("distance");
    g.sample_size(10);
    g.throughput(Throughput::Elements(exact.len() as u64));
    g.bench_function("vclip_f64_warm", |b| {
        b.iter(|| {
            for ((x, y), w) in fast.iter().zip(&warm) {
                black_box(vclip(x, y, Some(w.clone())).map(|r| r.closest.squared_distance).ok());
            }
        })
    });
    g.bench_function("vclip_f64_warm_prechecked", |b| {
        b.iter(|| {
            for ((x, y), w) in fast.iter().zip(&warm) {
                black_box(vclip_prechecked(x, y, Some(w.clone())).map(|r| r.closest.squared_distance).ok());
            }
        })
    });
    g.bench_function("vclip_f64_cold", |b| {
        b.iter(|| {
            for (x, y) in &fast {
                black_box(vclip(x, y, None).map(|r| r.closest.squared_distance).ok());
            }
        })
    });
    g.bench_function("parry3d_gjk_f64", |b| {
        b.iter(|| {
            for (x, y) in &peer {
                black_box(parry3d_f64::query::distance(&id, x, &id, y).map(|d| d.distance).ok());
            }
        })
    });
    g.bench_function("vclip_exact", |b| {
        b.iter(|| {
            for (x, y) in &exact {
                black_box(vclip(x, y, None).map(|r| r.closest.status).ok());
            }
        })
    });
    g.finish();
    c.final_summary();
    println!("\ndistance over {} pairs, mean per pair and cost relative to warm f64 V-Clip:", exact.len());
    let Some(base) = mean_ns("distance", "vclip_f64_warm") else { return };
    for f in ["vclip_f64_warm", "vclip_f64_warm_prechecked", "vclip_f64_cold", "parry3d_gjk_f64", "vclip_exact"] {
        if let Some(t) = mean_ns("distance", f) {
            println!("  {f:26} {:>12.3} µs   ×{:.1}", t / 1e3 / exact.len() as f64, t / base);
        }
    }
}
