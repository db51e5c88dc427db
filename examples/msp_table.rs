//! The Brep-index figures beside Table 1 of Vaněček 1990 (sphere and torus, k = 4 … 20), the
//! 128-face sphere of Bouma and Vaněček 1992 §4.2, and the paper's classification cost.
//!
//! `cargo run --release --example msp_table`

use std::time::Instant;

use touchstone::brep::{shapes, Solid};
use touchstone::geom::Point3;
use touchstone::msp::{MspTree, Options, Split};
use touchstone::scalar::{Exact, Scalar};

/// Table 1 of the 1990 paper: V+E+F, nodes, height, average height, seconds (Symbolics 3620).
const PAPER: [(&str, usize, usize, usize, f64, f64); 10] = [
    ("sphere", 58, 58, 16, 7.8, 1.7),
    ("sphere", 134, 135, 19, 9.4, 4.5),
    ("sphere", 242, 245, 18, 9.9, 7.7),
    ("sphere", 382, 463, 18, 10.4, 15.6),
    ("sphere", 1562, 2309, 24, 13.0, 104.0),
    ("torus", 64, 110, 9, 6.1, 1.9),
    ("torus", 144, 299, 11, 7.3, 8.0),
    ("torus", 256, 435, 14, 8.6, 12.5),
    ("torus", 400, 1019, 19, 10.2, 39.0),
    ("torus", 1600, 4721, 27, 12.6, 233.0),
];

fn shape<S: Scalar>(name: &str, k: usize) -> Solid<S> {
    match name {
        "sphere" => shapes::uv_sphere(k, k).unwrap(),
        _ => shapes::torus(k, k, S::from_i64(3), S::from_i64(1)).unwrap(),
    }
}

/// The median of `runs` timed builds, in milliseconds.
fn time_build<S: Scalar>(s: &Solid<S>, split: Split, runs: usize) -> f64 {
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let index = MspTree::build(s, &Options { split, ..Options::default() }).unwrap();
            std::hint::black_box(index);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

fn main() {
    println!("| solid | k | V+E+F | paper: nodes / height / avg | autopartition: nodes / height / avg | hybrid: nodes / height / avg | build f64 (auto / hybrid) | build exact (auto / hybrid) | max bits |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let ks = [4, 6, 8, 10, 20];
    for (i, &(name, vef, nodes, height, avg, _)) in PAPER.iter().enumerate() {
        let k = ks[i % 5];
        let exact: Solid<Exact> = shape(name, k);
        let fast: Solid<f64> = shape(name, k);
        assert_eq!(exact.vertex_count() + exact.edge_count() + exact.face_count(), vef);
        let mut cells = Vec::new();
        let mut bits = 0;
        for split in [Split::Autopartition, Split::HYBRID] {
            let t = MspTree::build(&exact, &Options { split, measure_bits: true, witnesses: false }).unwrap();
            let s = t.stats();
            bits = bits.max(s.max_bits);
            cells.push(format!("{} / {} / {:.1}", s.nodes, s.height, s.average_height));
        }
        let runs = if vef > 1000 { 5 } else { 15 };
        let f = [Split::Autopartition, Split::HYBRID].map(|s| time_build(&fast, s, runs));
        let e = [Split::Autopartition, Split::HYBRID].map(|s| time_build(&exact, s, runs.min(5)));
        println!(
            "| {name} | {k} | {vef} | {nodes} / {height} / {avg} | {} | {} | {:.2} / {:.2} ms | {:.1} / {:.1} ms | {bits} |",
            cells[0], cells[1], f[0], f[1], e[0], e[1]
        );
    }
    println!();
    // Bouma and Vaněček 1992 §4.2: a 128-face sphere, autopartition max depth 128, average 54;
    // with initial cuts that are not face planes, 19 and 8.
    let s: Solid<Exact> = shapes::uv_sphere(16, 8).unwrap();
    assert_eq!(s.face_count(), 128);
    for split in [Split::Autopartition, Split::HYBRID] {
        let t = MspTree::build(&s, &Options { split, ..Options::default() }).unwrap();
        let st = t.stats();
        println!(
            "128-face sphere (16 × 8), {split:?}: height {}, average height {:.1}, nodes {}",
            st.height, st.average_height, st.nodes
        );
    }
    // 1990 §2.5: 100 points against the torus of 1600 entities took 1260 dot products.
    let torus: Solid<Exact> = shape("torus", 20);
    for split in [Split::Autopartition, Split::HYBRID] {
        let t = MspTree::build(&torus, &Options { split, ..Options::default() }).unwrap();
        let mut dots = 0;
        let mut state = 0x9e3779b97f4a7c15u64;
        // A coordinate in [-h, h] on a grid of 1/64: the torus's box is [-4, 4]² × [-1, 1].
        let mut next = |h: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Exact::from_i64((state % (128 * h + 1)) as i64 - 64 * h as i64) / Exact::from_i64(64)
        };
        for _ in 0..100 {
            let p = Point3::new(next(4), next(4), next(1));
            dots += t.classify_point(&p).unwrap().dots;
        }
        println!("100 points in the box of the 1600-entity torus, {split:?}: {dots} plane evaluations (paper: 1260)");
    }
}
