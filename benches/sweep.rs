//! Exact primitive CCD on the public benchmark's handcrafted queries (per query, by family),
//! and the exact box sweep by its two routes, Albocher–Sarel (BMS) and separating axes (SAT),
//! on the same pairs. The f64 path and parry3d's `cast_shapes` join this bench later.
//!
//! `cargo bench --bench sweep`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput};
use num_rational::BigRational;
use touchstone::geom::Matrix4;
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
fn box_pairs() -> Vec<(&'static str, BoxMotion, BoxMotion, Q, Q)> {
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

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("ccd_exact");
    g.sample_size(10);
    for (set, dir, kind) in [
        ("unit-tests", "vertex-face", CcdKind::VertexFace),
        ("unit-tests", "edge-edge", CcdKind::EdgeEdge),
        ("erleben-spikes", "vertex-face", CcdKind::VertexFace),
        ("erleben-spikes", "edge-edge", CcdKind::EdgeEdge),
    ] {
        let queries = load(set, dir, kind);
        g.throughput(Throughput::Elements(queries.len() as u64));
        g.bench_function(format!("{set}/{dir}"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(ccd(q.kind, &q.t0, &q.t1).map(|r| r.collides()).ok());
                }
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("box_sweep_exact");
    g.sample_size(10);
    for (name, a, b, t0, t1) in box_pairs() {
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
}
