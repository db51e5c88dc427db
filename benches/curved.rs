//! Curved solids (issue 45): the certified status of implicit solids by precision, on a
//! ball resting on a torus (touching), lifted by 1/8 (separated) and pushed in by 1/8
//! (penetrating), and on two balls touching along a 3-4-0 offset, against the exact status of
//! the round-shapes route (`round_distance`: the cores' squared distance against the radii's
//! sum, no search) for the balls; a Bézier torus (16 biquadratic patches) under a ball touching
//! it, and two Bézier tori touching at a point (system (8)). Prints each mean per query.
//!
//! `cargo bench --bench curved`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::Criterion;
use num_rational::BigRational;
use touchstone::curved::bezier::torus_patches;
use touchstone::curved::{
    bezier_implicit_status, bezier_pair_status, implicit_status, BezierSolid, Implicit, StatusOptions,
};
use touchstone::geom::point;
use touchstone::geom::{Affine, Vector3};
use touchstone::round::{round_distance, RoundShape};

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let torus = Implicit::torus(q(2), q(1)).unwrap();
    let lift = |k: i64| Implicit::sphere([q(2), q(0), q(2) + BigRational::new(k.into(), 8.into())], q(1)).unwrap();
    let cases = [("touching", lift(0)), ("separated", lift(1)), ("penetrating", lift(-1))];
    let mut g = c.benchmark_group("curved");
    g.sample_size(10);
    for precision in [6u32, 10, 14] {
        let options = StatusOptions { precision, ..StatusOptions::default() };
        for (name, ball) in &cases {
            g.bench_function(format!("torus_ball_{name}_p{precision}"), |b| {
                b.iter(|| black_box(implicit_status(&torus, ball, &options).ok()))
            });
        }
    }
    let a = Implicit::sphere([q(0), q(0), q(0)], q(2)).unwrap();
    let b = Implicit::sphere([q(3), q(4), q(0)], q(3)).unwrap();
    g.bench_function("balls_touching_p10", |bch| {
        bch.iter(|| black_box(implicit_status(&a, &b, &StatusOptions::default()).ok()))
    });
    let (ra, rb) = (RoundShape::ball(point(0, 0, 0), q(2)).unwrap(), RoundShape::ball(point(3, 4, 0), q(3)).unwrap());
    g.bench_function("balls_touching_round_exact", |bch| {
        bch.iter(|| black_box(round_distance(&ra, &rb).map(|d| d.status).ok()))
    });
    let bz = BezierSolid::new(torus_patches(&q(3), &q(1)).unwrap()).unwrap();
    let on_top = Implicit::sphere([q(3), q(0), q(2)], q(1)).unwrap();
    let beside = bz.posed(&Affine::translation(Vector3::new(q(8), q(0), q(0)))).unwrap();
    let p12 = StatusOptions { precision: 12, ..StatusOptions::default() };
    g.bench_function("bezier_torus_ball_touching_p12", |bch| {
        bch.iter(|| black_box(bezier_implicit_status(&bz, &on_top, &p12).ok()))
    });
    g.bench_function("bezier_tori_touching_p12", |bch| {
        bch.iter(|| black_box(bezier_pair_status(&bz, &beside, &p12).ok()))
    });
    g.finish();
    println!("\ncurved status, mean per query:");
    for precision in [6u32, 10, 14] {
        for (name, _) in &cases {
            let f = format!("torus_ball_{name}_p{precision}");
            if let Some(ns) = mean_ns("curved", &f) {
                println!("  {f:<32} {:>10.1} µs", ns / 1e3);
            }
        }
    }
    for f in [
        "balls_touching_p10",
        "balls_touching_round_exact",
        "bezier_torus_ball_touching_p12",
        "bezier_tori_touching_p12",
    ] {
        if let Some(ns) = mean_ns("curved", f) {
            println!("  {f:<32} {:>10.1} µs", ns / 1e3);
        }
    }
}
