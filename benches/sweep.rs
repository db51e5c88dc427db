//! Continuous collision, fast against exact against a peer, in one run:
//!
//! * primitive CCD on the public benchmark's handcrafted queries (per query, by family),
//!   exact on the queries' rationals and `f64` on their binary64 roundings (the same code);
//! * the box sweep (separating-axis route) on 48 translating grid box pairs: `f64`, exact, and
//!   parry3d-f64's `cast_shapes` of two cuboids with the same linear velocities; and on 48
//!   pairs spinning by integer quaternions linear in t (`f64` and exact; parry's linear cast
//!   does not apply).
//!
//! Prints every mean and the exact/f64 and f64/parry ratios.
//!
//! `cargo bench --bench sweep`

mod common;
use common::mean_ns;

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput};
use num_rational::BigRational;
use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::query::{cast_shapes, ShapeCastOptions};
use parry3d_f64::shape::Cuboid;
use touchstone::geom::Point3;
use touchstone::scalar::Scalar;
use touchstone::sweep::benchmark::{read_sample_queries, CcdQuery};
use touchstone::sweep::contract::degenerate_boxes;
use touchstone::sweep::{ccd, first_contact_sat, BoxMotion, CcdKind};

fn load(set: &str, dir: &str, kind: CcdKind) -> Vec<CcdQuery> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ccd-benchmark/sample-queries")
        .join(set)
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().flat_map(|f| read_sample_queries(&std::fs::read_to_string(f).unwrap(), kind).unwrap()).collect()
}

type Pair = (BoxMotion<BigRational>, BoxMotion<BigRational>);
type Motion64 = ([Point3<f64>; 4], [Point3<f64>; 4]);

fn box_pairs(spin: bool) -> Vec<Pair> {
    let mut grid = common::Grid::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |m: i64| grid.next(m);
    (0..48)
        .map(|_| {
            let ha = [0; 3].map(|_| next(1).unsigned_abs() as u8 + 1);
            let hb = [0; 3].map(|_| next(1).unsigned_abs() as u8 + 1);
            let q = spin.then(|| ([1, 0, 0, 0].map(|x: i8| x + next(1) as i8), [0; 4].map(|_| next(1) as i8)));
            let c = [0; 3].map(|_| next(10) as i8);
            let v = [0; 3].map(|_| next(10) as i8);
            degenerate_boxes(ha, hb, q, c, v, [0; 3])
        })
        .filter(|(a, b)| {
            first_contact_sat(a, b, &BigRational::from_integer(0.into()), &BigRational::from_integer(1.into())).is_ok()
        })
        .collect()
}

fn box_sweeps(c: &mut Criterion) {
    let zero = BigRational::from_integer(0.into());
    let one = BigRational::from_integer(1.into());
    let mut g = c.benchmark_group("box_sweep");
    g.sample_size(10);
    for (name, spin) in [("translating", false), ("spinning", true)] {
        let exact = box_pairs(spin);
        let fast: Vec<(BoxMotion<f64>, BoxMotion<f64>)> = exact.iter().map(|(a, b)| (a.to_f64(), b.to_f64())).collect();
        g.throughput(Throughput::Elements(exact.len() as u64));
        g.bench_function(format!("{name}/f64"), |bch| {
            bch.iter(|| {
                for (a, b) in &fast {
                    black_box(first_contact_sat(a, b, &0.0, &1.0).map(|c| c.is_some()).ok());
                }
            })
        });
        g.bench_function(format!("{name}/exact"), |bch| {
            bch.iter(|| {
                for (a, b) in &exact {
                    black_box(first_contact_sat(a, b, &zero, &one).map(|c| c.is_some()).ok());
                }
            })
        });
        if !spin {
            // parry: cuboid b at its start centre moving with velocity M1's translation.
            let peer: Vec<(Cuboid, Cuboid, Pose, Vector)> = fast
                .iter()
                .map(|(a, b)| {
                    let cub = |m: &BoxMotion<f64>| Cuboid::new(Vector::new(m.half[0], m.half[1], m.half[2]));
                    let t = |k: usize, i: usize| b.motion[k][(i, 3)];
                    (
                        cub(a),
                        cub(b),
                        Pose::translation(t(0, 0), t(0, 1), t(0, 2)),
                        Vector::new(t(1, 0), t(1, 1), t(1, 2)),
                    )
                })
                .collect();
            let options = ShapeCastOptions { max_time_of_impact: 1.0, ..ShapeCastOptions::default() };
            g.bench_function(format!("{name}/parry3d_cast_shapes"), |bch| {
                bch.iter(|| {
                    for (ca, cb, pb, vb) in &peer {
                        black_box(
                            cast_shapes(&Pose::IDENTITY, Vector::ZERO, ca, pb, *vb, cb, options)
                                .map(|h| h.map(|h| h.time_of_impact))
                                .ok(),
                        );
                    }
                })
            });
        }
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("ccd");
    g.sample_size(10);
    for (set, dir, kind) in [
        ("unit-tests", "vertex-face", CcdKind::VertexFace),
        ("unit-tests", "edge-edge", CcdKind::EdgeEdge),
        ("erleben-spikes", "vertex-face", CcdKind::VertexFace),
        ("erleben-spikes", "edge-edge", CcdKind::EdgeEdge),
    ] {
        let queries = load(set, dir, kind);
        let rounded: Vec<Motion64> = queries
            .iter()
            .map(|q| (q.t0.clone().map(|p| p.map(|x| x.to_f64())), q.t1.clone().map(|p| p.map(|x| x.to_f64()))))
            .collect();
        g.throughput(Throughput::Elements(queries.len() as u64));
        g.bench_function(format!("{set}/{dir}/f64"), |b| {
            b.iter(|| {
                for (t0, t1) in &rounded {
                    black_box(ccd(kind, t0, t1).map(|r| r.collides()).ok());
                }
            })
        });
        g.bench_function(format!("{set}/{dir}/exact"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(ccd(q.kind, &q.t0, &q.t1).map(|r| r.collides()).ok());
                }
            })
        });
    }
    g.finish();
    box_sweeps(&mut c);
    c.final_summary();
    println!("\nccd, mean per query (exact/f64):");
    for (set, dir, n) in [
        ("unit-tests", "vertex-face", load("unit-tests", "vertex-face", CcdKind::VertexFace).len()),
        ("unit-tests", "edge-edge", load("unit-tests", "edge-edge", CcdKind::EdgeEdge).len()),
        ("erleben-spikes", "vertex-face", load("erleben-spikes", "vertex-face", CcdKind::VertexFace).len()),
        ("erleben-spikes", "edge-edge", load("erleben-spikes", "edge-edge", CcdKind::EdgeEdge).len()),
    ] {
        let (Some(f), Some(e)) =
            (mean_ns("ccd", &format!("{set}/{dir}/f64")), mean_ns("ccd", &format!("{set}/{dir}/exact")))
        else {
            continue;
        };
        let per = |t: f64| t / 1e3 / n as f64;
        println!("  {set:15} {dir:12} f64 {:>9.2} µs   exact {:>10.2} µs   ×{:.0}", per(f), per(e), e / f);
    }
    println!("\nbox sweep, mean per pair:");
    for (name, spin) in [("translating", false), ("spinning", true)] {
        let n = box_pairs(spin).len() as f64;
        for backend in ["f64", "exact", "parry3d_cast_shapes"] {
            if let Some(t) = mean_ns("box_sweep", &format!("{name}/{backend}")) {
                println!("  {name:12} {backend:20} {:>10.2} µs", t / 1e3 / n);
            }
        }
    }
}
