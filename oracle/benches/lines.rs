//! The whole line path of the float backend (parse, answer, print) for box–box `distance`
//! lines under `f64` quaternion poses, beside serde_json's parse-and-print of the same lines
//! and the bare `f64` V-Clip call on the same posed boxes; batch mode (exact lines on one
//! thread and on two); and many exact questions to one posed comb, served by the query memo
//! (`touchstone::query::memo`) against the same lines with the memo emptied before each, in
//! one run:
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

/// `n` exact lines asking of one posed comb of `teeth` teeth (the one of docs/speed.md, "One
/// solid, many questions": a quarter turn about z, shifted by (1/3, 0, -5/7)): points on a
/// quarter grid of its box and around it (on its faces, edges and vertices among them), every
/// fifth line a segment.
fn comb_lines(teeth: i64, n: usize) -> Vec<String> {
    let mut pts = vec![(0, 0), (2 * teeth - 1, 0)];
    for k in (0..teeth).rev() {
        pts.extend([(2 * k + 1, 3), (2 * k, 3)]);
        if k > 0 {
            pts.extend([(2 * k, 1), (2 * k - 1, 1)]);
        }
    }
    let m = pts.len();
    let vertices: Vec<Value> = [0, 1].iter().flat_map(|&z| pts.iter().map(move |&(x, y)| json!([x, y, z]))).collect();
    let mut faces: Vec<Value> = vec![json!((0..m).rev().collect::<Vec<_>>()), json!((m..2 * m).collect::<Vec<_>>())];
    faces.extend((0..m).map(|j| json!([j, (j + 1) % m, m + (j + 1) % m, m + j])));
    let solid = json!({"polyhedron": {"vertices": vertices, "faces": faces}});
    let pose = json!({"quaternion": [1, 0, 0, 1], "translation": ["1/3", 0, "-5/7"]});
    let mut s: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |lo: i64, hi: i64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        lo + (s % (hi - lo + 1) as u64) as i64
    };
    // The point (x, y, z) / 4 of the comb's frame, posed: (-y + 1/3, x, z - 5/7), as strings.
    let mut point = || {
        let (x, y, z) = (next(-4, 8 * teeth), next(-4, 16), next(-2, 6));
        json!([format!("{}/12", -3 * y + 4), format!("{x}/4"), format!("{}/28", 7 * z - 20)])
    };
    (0..n)
        .map(|i| {
            if i % 5 == 4 {
                json!({"id": i, "op": "classify_segment", "solid": solid, "pose": pose, "segment": [point(), point()]})
            } else {
                json!({"id": i, "op": "classify_point", "solid": solid, "pose": pose, "point": point()})
            }
            .to_string()
        })
        .collect()
}

fn bench_one_solid(c: &mut Criterion) {
    let opts = Options::default();
    let input = comb_lines(20, 50);
    let answer_all = |clear: bool| {
        let mut out = Vec::with_capacity(1 << 16);
        for line in &input {
            if clear {
                touchstone::query::clear_memo();
            }
            serde_json::to_writer(&mut out, &answer_fields_limited(line, &opts)).ok();
            out.push(b'\n');
        }
        out
    };
    // The served answers are the built ones, byte for byte, and answers, not errors.
    let built = answer_all(true);
    assert_eq!(built, answer_all(false), "served and built answers differ");
    assert!(!String::from_utf8_lossy(&built).contains("\"error\""), "a comb line was refused");
    let mut g = c.benchmark_group("one_solid_50_exact_lines");
    g.sample_size(10);
    g.bench_function("served by the memo", |b| b.iter(|| answer_all(false).len()));
    g.bench_function("built per line (memo emptied)", |b| b.iter(|| answer_all(true).len()));
    g.finish();
}

criterion_group!(benches, bench, bench_one_solid);
criterion_main!(benches);
