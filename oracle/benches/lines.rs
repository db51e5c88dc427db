//! The whole line path of the float backend (parse, answer, print) for box–box `distance`
//! lines under `f64` quaternion poses, beside serde_json's parse-and-print of the same lines
//! and the bare `f64` V-Clip call on the same posed boxes; and batch mode (exact lines on one
//! thread and on two), in one run:
//!
//! ```sh
//! cargo bench -p touchstone-oracle --bench lines
//! ```
//!
//! The binary uses the `touchstone` command's allocator (mimalloc, metered for
//! `--max-memory`: `oracle/src/metered.rs`).

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use touchstone::brep::shapes::cuboid;
use touchstone::geom::{Affine, Vector3};
use touchstone::vclip::vclip_prechecked;
use touchstone_oracle::{answer_fields_limited, Options};

#[path = "../src/metered.rs"]
mod metered;

#[global_allocator]
static ALLOCATOR: metered::Metered = metered::Metered;

/// The same deterministic poses on every machine (a xorshift generator).
fn poses(n: usize) -> Vec<([f64; 4], [f64; 3])> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..n).map(|_| ([next(), next(), next(), next()], [3.0 * next(), 3.0 * next(), 3.0 * next()])).collect()
}

fn lines(n: usize) -> Vec<String> {
    poses(n)
        .into_iter()
        .enumerate()
        .map(|(i, (q, t))| {
            json!({"id": i, "op": "distance", "backend": "f64", "a": {"box": [1, 0.5, 2]}, "b": {"box": [0.5, 1, 1]},
                   "pose_b": {"quaternion": q, "translation": t}})
            .to_string()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let input = lines(1000);
    let opts = Options::default();
    let mut g = c.benchmark_group("float_line_path");
    g.bench_function("touchstone line (parse, answer, print)", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for line in &input {
                let answer = answer_fields_limited(line, &opts);
                serde_json::to_writer(&mut out, &answer).ok();
                out.push(b'\n');
            }
            out.len()
        })
    });
    g.bench_function("serde_json parse and print", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for line in &input {
                let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
                serde_json::to_writer(&mut out, &v).ok();
                out.push(b'\n');
            }
            out.len()
        })
    });
    let a = cuboid(1.0, 0.5, 2.0).unwrap();
    let b_boxes: Vec<_> = poses(1000)
        .into_iter()
        .map(|(q, t)| {
            let map = Affine::from_quaternion(&q, Vector3::new(t[0], t[1], t[2])).unwrap();
            cuboid(0.5, 1.0, 1.0).unwrap().moved(&map).unwrap()
        })
        .collect();
    g.bench_function("bare f64 V-Clip (posed boxes, cold start)", |bench| {
        bench.iter(|| {
            let mut steps = 0;
            for b in &b_boxes {
                steps += vclip_prechecked(&a, b, None).map(|r| r.steps).unwrap_or(0);
            }
            steps
        })
    });
    g.finish();
    // Batch mode: the same exact lines (rotated boxes, exact backend) answered one at a time
    // and on two threads, output in order either way.
    let exact: String = lines(200)
        .iter()
        .map(|l| l.replace(r#""backend": "f64", "#, "").replace(r#""backend":"f64","#, "") + "\n")
        .collect();
    let mut g = c.benchmark_group("batch_exact_200_lines");
    g.sample_size(10);
    g.bench_function("run (one thread)", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 20);
            touchstone_oracle::run(exact.as_bytes(), &mut out, &opts, |_| {}).map(|s| s.lines).ok()
        })
    });
    g.bench_function("run_parallel (two threads)", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 20);
            touchstone_oracle::batch::run_parallel(exact.as_bytes(), &mut out, &opts, 2, |_, _| {})
                .map(|s| s.lines)
                .ok()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
