//! Exact primitive CCD on the public benchmark's handcrafted queries (per query, by family).
//! The f64 path and parry3d's `cast_shapes` join this bench with the box sweep.
//!
//! `cargo bench --bench sweep`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput};
use touchstone::sweep::benchmark::{read_sample_queries, CcdQuery};
use touchstone::sweep::{ccd, CcdKind};

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
    c.final_summary();
}
