//! Continuous collision, fast against exact against a peer, in one run:
//!
//! * primitive CCD on the public benchmark's handcrafted queries (per query, by family),
//!   exact on the queries' rationals and `f64` on their binary64 roundings (the same code);
//! * the exact box sweep by its two routes, Albocher–Sarel (BMS) and separating axes (SAT), on
//!   the seven hand pairs of `tests/sweep_bms.rs`;
//! * the box sweep by both routes (separating axes and Albocher–Sarel, the same generic code
//!   on each backend) on 48 translating grid box pairs: `f64`, exact, and parry3d-f64's
//!   `cast_shapes` of two cuboids with the same linear velocities; and on 48 pairs spinning by
//!   integer quaternions linear in t (`f64` and exact; parry's linear cast does not apply).
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
use touchstone::geom::{Matrix4, Point3};
use touchstone::scalar::Scalar;
use touchstone::strategies::degenerate_boxes;
use touchstone::sweep::benchmark::{read_sample_queries, CcdQuery};
use touchstone::sweep::{ccd, first_contact_bms, first_contact_sat, BoxMotion, CcdKind};

type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn mat(rows: [[Q; 4]; 4]) -> Matrix4<Q> {
    Matrix4::from_fn(|i, j| rows[i][j].clone())
}

fn zero() -> Matrix4<Q> {
    Matrix4::from_element(q(0, 1))
}

/// The still unit cube.
fn still() -> BoxMotion {
    BoxMotion { half: [q(1, 1), q(1, 1), q(1, 1)], motion: [Matrix4::identity(), zero(), zero()] }
}

/// A unit cube translating from `c0` with velocity `v` and acceleration `acc`.
fn translating(half: [Q; 3], c0: [Q; 3], v: [Q; 3], acc: [Q; 3]) -> BoxMotion {
    let mut ms = [Matrix4::identity(), zero(), zero()];
    for i in 0..3 {
        ms[0][(i, 3)] = c0[i].clone();
        ms[1][(i, 3)] = v[i].clone();
        ms[2][(i, 3)] = acc[i].clone();
    }
    BoxMotion { half, motion: ms }
}

/// Box pairs of `tests/sweep_bms.rs`: (name, a, b, t0, t1).
fn hand_pairs() -> Vec<(&'static str, BoxMotion, BoxMotion, Q, Q)> {
    let one = || [q(1, 1), q(1, 1), q(1, 1)];
    let z = || q(0, 1);
    // The plate spinning by the quaternion (1, 0, 0, t) about (c, 0, 0): R̃ = [[1 − t², −2t, 0],
    // [2t, 1 − t², 0], [0, 0, 1 + t²]], w = 1 + t².
    let spinning = |half: [Q; 3], c: Q| {
        let m0 = mat([
            [q(1, 1), z(), z(), c.clone()],
            [z(), q(1, 1), z(), z()],
            [z(), z(), q(1, 1), z()],
            [z(), z(), z(), q(1, 1)],
        ]);
        let m1 = mat([[z(), q(-2, 1), z(), z()], [q(2, 1), z(), z(), z()], [z(), z(), z(), z()], [z(), z(), z(), z()]]);
        let m2 = mat([
            [q(-1, 1), z(), z(), c.clone()],
            [z(), q(-1, 1), z(), z()],
            [z(), z(), q(1, 1), z()],
            [z(), z(), z(), q(1, 1)],
        ]);
        BoxMotion { half, motion: [m0, m1, m2] }
    };
    let tilted = BoxMotion {
        half: one(),
        motion: [
            mat([
                [q(3, 7), q(2, 7), q(6, 7), q(5, 1)],
                [q(2, 7), q(6, 7), q(-3, 7), z()],
                [q(-6, 7), q(3, 7), q(2, 7), q(1, 1)],
                [z(), z(), z(), q(1, 1)],
            ]),
            {
                let mut m1 = zero();
                m1[(0, 3)] = q(-4, 1);
                m1
            },
            zero(),
        ],
    };
    vec![
        (
            "translation face-face 3/4",
            still(),
            translating(one(), [q(5, 1), q(1, 2), z()], [q(-4, 1), z(), z()], [z(), z(), z()]),
            z(),
            q(1, 1),
        ),
        (
            "quadratic translation sqrt(13/5)",
            still(),
            translating(one(), [q(23, 5), z(), z()], [z(), z(), z()], [q(-1, 1), z(), z()]),
            z(),
            q(2, 1),
        ),
        (
            "translation miss",
            still(),
            translating(one(), [q(5, 1), q(3, 1), z()], [q(-4, 1), z(), z()], [z(), z(), z()]),
            z(),
            q(1, 1),
        ),
        ("tilted edge-edge 5/8", still(), tilted, z(), q(1, 1)),
        ("spinning plate 1/2", still(), spinning([q(1, 10), q(2, 1), q(1, 1)], q(5, 2)), z(), q(1, 1)),
        ("spinning box (sqrt(19)-2)/5", still(), spinning([q(1, 2), q(3, 1), q(1, 1)], q(3, 1)), z(), q(1, 1)),
        ("spinning miss", still(), spinning([q(1, 2), q(3, 1), q(1, 1)], q(10, 1)), z(), q(1, 1)),
    ]
}

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
        g.bench_function(format!("{name}/bms_f64"), |bch| {
            bch.iter(|| {
                for (a, b) in &fast {
                    black_box(first_contact_bms(a, b, &0.0, &1.0).map(|c| c.is_some()).ok());
                }
            })
        });
        g.bench_function(format!("{name}/bms_exact"), |bch| {
            bch.iter(|| {
                for (a, b) in &exact {
                    black_box(first_contact_bms(a, b, &zero, &one).map(|c| c.is_some()).ok());
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

    let mut g = c.benchmark_group("box_sweep_exact");
    g.sample_size(10);
    for (name, a, b, t0, t1) in hand_pairs() {
        let (bms, sat) = (first_contact_bms(&a, &b, &t0, &t1).unwrap(), first_contact_sat(&a, &b, &t0, &t1).unwrap());
        assert_eq!(bms.map(|c| c.time), sat.map(|c| c.time), "{name}");
        g.bench_function(format!("bms/{name}"), |bench| {
            bench.iter(|| black_box(first_contact_bms(&a, &b, &t0, &t1).unwrap().is_some()))
        });
        g.bench_function(format!("sat/{name}"), |bench| {
            bench.iter(|| black_box(first_contact_sat(&a, &b, &t0, &t1).unwrap().is_some()))
        });
    }
    g.finish();
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
    println!("\nbox sweep, mean per pair (f64, exact: separating axes; bms_*: Albocher–Sarel):");
    for (name, spin) in [("translating", false), ("spinning", true)] {
        let n = box_pairs(spin).len() as f64;
        for backend in ["f64", "exact", "bms_f64", "bms_exact", "parry3d_cast_shapes"] {
            if let Some(t) = mean_ns("box_sweep", &format!("{name}/{backend}")) {
                println!("  {name:12} {backend:20} {:>10.2} µs", t / 1e3 / n);
            }
        }
    }
}
