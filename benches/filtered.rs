//! The filtered exact path against the float path, the unfiltered exact backends and
//! parry3d-f64, per op, on generic inputs and on degenerate sets, in one run.
//!
//! Every set is a list of queries of the library's query layer (what the oracle answers for a
//! line, parsing aside). For each set:
//! * `f64`: the float path (`answer::<f64>()` on the query's binary64 numbers);
//! * `filtered`: the filtered exact path (`exact_answer`: values with bounds first, then
//!   intervals, exact outputs constructed from the decided answer, the fast exact backend on a
//!   close call);
//! * `midrad_run`, `interval_run`: the two filter stages' runs alone (`answer::<MidRad>()`,
//!   `answer::<Interval>()`: decisions and enclosures, no exact value);
//! * `exact_only`: the fast exact backend alone (`answer::<Exact>()`, no filter);
//! * `bigrational`: the reference (`answer::<BigRational>()`, `"exact-unfiltered"`);
//! * `rug` (with `--features rug`): GMP rationals, unfiltered;
//! * `parry3d`: parry3d-f64 on the same question where it answers one (GJK `distance` on the
//!   distance sets, shapes built once; `cast_shapes` on linear box sweeps);
//! * `vclip_*` (distance sets): V-Clip alone on shapes posed beforehand, status and features:
//!   on `f64`, on intervals (the filter's part of `filtered`), beside `parry3d`;
//! * `judge_enclosed` and `judge_exact` (box pairs, CCD, box sweeps): judging the `f64`
//!   answer as another engine's claim, on the interval run's enclosures where it can
//!   (`judge_claim`), or against the exact answer constructed first (what an oracle line
//!   with a claim does).
//!
//! The sets: `boxes` (box pairs, binary64 unit-quaternion poses, as an engine holds them),
//! `hull12` and `hull64` (hulls of 12 and 64 points in general position under such poses),
//! `grid` (the degenerate convex pairs of the property tests: touching, penetrating, coplanar
//! faces, on small grids), `ccd_generic` (random binary64 vertex–face and edge–edge queries),
//! `ccd_grid` (the CCD contract's degenerate constructions), `sweep_linear` (boxes under
//! generic poses, one translating at constant velocity), `sweep_spin` (generic quadratic
//! motions: a box spinning by q(t) = q₀ + q₁t while translating), `sweep_grid` (the box-sweep
//! contract's degenerate motions), `toi_casts` (the linear sweeps' casts through the `toi`
//! op: poses and a constant velocity, beside parry's `cast_shapes`), `validate_hull64`.
//!
//! At the end it prints the mean time per query of each, its ratio to `f64`, and the share of
//! the set the filter decided by itself (the rest fell back to the fast exact backend), then
//! the CCD sets' per-query medians (each query timed alone; the CCD target is a median).
//!
//! `cargo bench --bench filtered` (add `--features rug` for the GMP row; `-- SET` runs the
//! groups whose name contains SET).

mod common;
use common::{mean_ns, Rng};

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use num_rational::BigRational;
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::query::ShapeCastOptions;
use parry3d_f64::shape::{ConvexPolyhedron, Cuboid};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::{Matrix4, Point3};
use touchstone::query::spec::posed_convex;
use touchstone::query::{
    exact_answer, filter_counts, judge_claim, Ccd, CcdClaim, ClassifyPoint, ClassifyPointClaim, Distance,
    DistanceClaim, Orient2d, PoseSpec, Posed, Query, ShapeSpec, Toi, ToiBoxes, ToiBoxesClaim, Tolerance, Validate,
};
use touchstone::scalar::{Exact, Interval, MidRad, Scalar};
use touchstone::strategies::{convex_pair, Placement};
use touchstone::strategies::{degenerate_boxes, degenerate_ccd, CcdConstruction};
use touchstone::sweep::{BoxMotion, CcdKind};
use touchstone::vclip::vclip_prechecked;

type Q = BigRational;

/// A shape with its rotation (w, x, y, z) and translation.
type Placed = (Shape, [f64; 4], [f64; 3]);
/// Interval, value-with-bound and f64 solids of a pair, posed.
type PosedPair = (Solid<Interval>, Solid<Interval>, Solid<f64>, Solid<f64>, Solid<MidRad>, Solid<MidRad>);
/// A parry cast: half extents and pose of a, of b, and b's velocity.
type Cast = ([f64; 3], Pose, [f64; 3], Pose, [f64; 3]);

fn num<N: Scalar>(x: f64) -> N {
    N::from_f64(x).unwrap()
}

fn point<N: Scalar>(p: [f64; 3]) -> Point3<N> {
    Point3::new(num(p[0]), num(p[1]), num(p[2]))
}

/// A query on both number types: the exact one (binary64 numbers as the rationals they are)
/// and the float path's.
struct Pair<A, B> {
    exact: A,
    fast: B,
}

/// A shape under a pose, in binary64 numbers.
#[derive(Clone)]
enum Shape {
    Box([f64; 3]),
    Hull(Vec<[f64; 3]>),
}

fn posed<N: Scalar>(name: &str, s: &Shape, q: [f64; 4], t: [f64; 3]) -> Posed<N> {
    let shape = match s {
        Shape::Box(h) => ShapeSpec::cuboid(h.map(num)).unwrap(),
        Shape::Hull(p) => ShapeSpec::ConvexHull(p.iter().map(|&x| point(x)).collect()),
    };
    Posed::new(name, shape, PoseSpec::quaternion(q.map(num), t.map(num)).unwrap())
}

/// Generic distance pairs: the shapes, their poses (for parry too) and both queries.
struct DistanceSet {
    shapes: Vec<[Placed; 2]>,
    queries: Vec<Pair<Distance<Q>, Distance<f64>>>,
}

fn distance_set(rng: &mut Rng, n: usize, shape: impl Fn(&mut Rng) -> Shape) -> DistanceSet {
    let mut shapes = Vec::new();
    let mut queries = Vec::new();
    for _ in 0..n {
        let side = |rng: &mut Rng| (shape(rng), rng.rotation(), [0; 3].map(|_| 2.0 * rng.unit()));
        let pair = [side(rng), side(rng)];
        let q = |i: usize| -> (Posed<Q>, Posed<f64>) {
            let (s, r, t) = &pair[i];
            (posed(["a", "b"][i], s, *r, *t), posed(["a", "b"][i], s, *r, *t))
        };
        let ((ea, fa), (eb, fb)) = (q(0), q(1));
        queries.push(Pair { exact: Distance { a: ea, b: eb }, fast: Distance { a: fa, b: fb } });
        shapes.push(pair);
    }
    DistanceSet { shapes, queries }
}

fn parry_pose(q: [f64; 4], t: [f64; 3]) -> Pose {
    Pose::from_parts(Vector::new(t[0], t[1], t[2]), Rotation::from_xyzw(q[1], q[2], q[3], q[0]))
}

/// parry's shape and pose of a placed shape.
fn parry_shape((s, q, t): Placed) -> (Box<dyn parry3d_f64::shape::Shape>, Pose) {
    let shape: Box<dyn parry3d_f64::shape::Shape> = match s {
        Shape::Box(h) => Box::new(Cuboid::new(Vector::new(h[0], h[1], h[2]))),
        Shape::Hull(p) => Box::new(
            ConvexPolyhedron::from_convex_hull(&p.iter().map(|x| Vector::new(x[0], x[1], x[2])).collect::<Vec<_>>())
                .unwrap(),
        ),
    };
    (shape, parry_pose(q, t))
}

/// The exact penetration depth (what check-engine judges parry's `contact` by) of box pairs
/// sunk into each other under binary64 unit-quaternion poses, beside parry's `contact` (EPA).
fn depth_rows(c: &mut Criterion, rng: &mut Rng) {
    let pairs: Vec<(Distance<Q>, [Placed; 2])> = (0..16)
        .map(|_| {
            let side = |rng: &mut Rng| {
                (Shape::Box([0; 3].map(|_| 0.75 + 0.5 * rng.unit())), rng.rotation(), [0; 3].map(|_| 0.5 * rng.unit()))
            };
            let pair = [side(rng), side(rng)];
            let p = |i: usize| {
                let (s, r, t) = &pair[i];
                posed(["a", "b"][i], s, *r, *t)
            };
            (Distance { a: p(0), b: p(1) }, pair.clone())
        })
        .collect();
    let mut g = group(c, "depth_boxes", pairs.len());
    g.bench_function("exact_depth", |b| {
        b.iter(|| {
            for (d, _) in &pairs {
                black_box(touchstone::query::penetration_depth(&d.a, &d.b).is_ok());
            }
        })
    });
    let peer: Vec<_> = pairs.iter().map(|(_, pair)| pair.clone().map(parry_shape)).collect();
    g.bench_function("parry3d_contact", |b| {
        b.iter(|| {
            for [(x, px), (y, py)] in &peer {
                black_box(parry3d_f64::query::contact(px, x.as_ref(), py, y.as_ref(), 0.0).ok());
            }
        })
    });
    g.finish();
}

/// Points against posed boxes (`classify_point`), beside parry's `contains_point`: half in a
/// ball around the box (decided at once), half on a face's centre or an edge's midpoint moved
/// by the pose in binary64 (within rounding of the boundary: the filter falls back).
fn classify_rows(c: &mut Criterion, rng: &mut Rng, sets: &mut Vec<(&str, usize, f64)>) {
    let mut queries = Vec::new();
    let mut peer = Vec::new();
    for i in 0..64 {
        let placed: Placed =
            (Shape::Box([0; 3].map(|_| 0.75 + 0.5 * rng.unit())), rng.rotation(), [0; 3].map(|_| rng.unit()));
        let (Shape::Box(h), q, t) = &placed else { unreachable!() };
        let p = if i % 2 == 0 {
            rng.ball().map(|x| 2.0 * x)
        } else {
            // A boundary point of the box in its frame, posed in binary64.
            let local = [h[0], if i % 4 == 1 { 0.0 } else { h[1] }, 0.0];
            let m = pose_matrix(*q, *t);
            [0, 1, 2].map(|r| m[(r, 0)] * local[0] + m[(r, 1)] * local[1] + m[(r, 2)] * local[2] + m[(r, 3)])
        };
        queries.push(Pair {
            exact: ClassifyPoint::<Q> { solid: posed("solid", &placed.0, *q, *t), point: point(p) },
            fast: ClassifyPoint::<f64> { solid: posed("solid", &placed.0, *q, *t), point: point(p) },
        });
        peer.push((parry_shape(placed.clone()), Vector::new(p[0], p[1], p[2])));
    }
    let mut g = group(c, "classify_point", queries.len());
    sets.push(("classify_point", queries.len(), rows(&mut g, &queries)));
    judge_rows(&mut g, &queries, |o| ClassifyPointClaim { class: Some(o.class), ..Default::default() });
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for ((shape, pose), p) in &peer {
                black_box(shape.contains_point(pose, *p));
            }
        })
    });
    g.finish();
}

/// The f64, filtered, exact-only, BigRational (and rug) rows of a set; the fallback share.
/// The median over the set of each query's own time (µs), on the `f64` path and the filtered
/// exact path: each query is answered `REPEAT` times and its time is the mean of those. The
/// CCD target is a median (half the generic queries end at the first test).
fn medians<A: Query, B: Query>(set: &[Pair<A, B>]) -> (f64, f64) {
    const REPEAT: u32 = 200;
    fn median(mut t: Vec<f64>) -> f64 {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        for _ in 0..REPEAT {
            f();
        }
        start.elapsed().as_secs_f64() * 1e6 / f64::from(REPEAT)
    };
    let fast = set
        .iter()
        .map(|p| {
            time(&|| {
                black_box(p.fast.answer::<f64>().is_ok());
            })
        })
        .collect();
    let exact = set
        .iter()
        .map(|p| {
            time(&|| {
                black_box(exact_answer(&p.exact).is_ok());
            })
        })
        .collect();
    (median(fast), median(exact))
}

fn rows<A: Query, B: Query>(g: &mut BenchmarkGroup<WallTime>, set: &[Pair<A, B>]) -> f64 {
    let before = filter_counts();
    for p in set {
        let _ = exact_answer(&p.exact);
    }
    let after = filter_counts();
    let fell = (after.fallbacks + after.direct - before.fallbacks - before.direct) as f64;
    g.bench_function("f64", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.fast.answer::<f64>().is_ok());
            }
        })
    });
    g.bench_function("filtered", |b| {
        b.iter(|| {
            for p in set {
                black_box(exact_answer(&p.exact).is_ok());
            }
        })
    });
    // The two filter stages' runs alone (decisions and enclosures, no exact value built).
    g.bench_function("midrad_run", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.exact.answer::<MidRad>().is_ok());
            }
        })
    });
    g.bench_function("interval_run", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.exact.answer::<Interval>().is_ok());
            }
        })
    });
    g.bench_function("exact_only", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.exact.answer::<Exact>().is_ok());
            }
        })
    });
    g.bench_function("bigrational", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.exact.answer::<Q>().is_ok());
            }
        })
    });
    #[cfg(feature = "rug")]
    g.bench_function("rug", |b| {
        b.iter(|| {
            for p in set {
                black_box(p.exact.answer::<touchstone::scalar::RugRational>().is_ok());
            }
        })
    });
    fell / set.len() as f64
}

/// Judging an engine's answer (here our own `f64` answer, as a claim): `judge_enclosed`
/// decides on the interval run's enclosures where it can (`judge_claim`), `judge_exact`
/// constructs the exact answer first (`exact_answer`, then `judge`), as an oracle line does.
fn judge_rows<A: Query, B: Query>(
    g: &mut BenchmarkGroup<WallTime>,
    set: &[Pair<A, B>],
    claim: impl Fn(&B::Output<f64>) -> A::Claim,
) {
    let tol = Tolerance::default();
    let claims: Vec<Option<A::Claim>> =
        set.iter().map(|p| p.fast.answer::<f64>().ok().map(|a| claim(&a.output))).collect();
    g.bench_function("judge_enclosed", |b| {
        b.iter(|| {
            for (p, c) in set.iter().zip(&claims) {
                if let Some(c) = c {
                    black_box(judge_claim(&p.exact, c, &tol, 12).map(|j| j.ok()).ok());
                }
            }
        })
    });
    g.bench_function("judge_exact", |b| {
        b.iter(|| {
            for (p, c) in set.iter().zip(&claims) {
                if let Some(c) = c {
                    black_box(exact_answer(&p.exact).and_then(|e| p.exact.judge(&e, c, &tol, 12)).map(|v| v.ok()).ok());
                }
            }
        })
    });
}

fn rational(x: f64) -> Q {
    Q::from_float(x).unwrap_or_default()
}

/// V-Clip alone on shapes posed beforehand (status and features), beside parry's GJK.
fn vclip_rows(g: &mut BenchmarkGroup<WallTime>, set: &DistanceSet) {
    let solids = |q: &Distance<Q>| -> Option<PosedPair> {
        let i = |p: &Posed<Q>| posed_convex::<Interval, Q>(p).ok().map(|c| c.built.solid);
        let f = |p: &Posed<Q>| posed_convex::<f64, Q>(p).ok().map(|c| c.built.solid);
        let m = |p: &Posed<Q>| posed_convex::<MidRad, Q>(p).ok().map(|c| c.built.solid);
        Some((i(&q.a)?, i(&q.b)?, f(&q.a)?, f(&q.b)?, m(&q.a)?, m(&q.b)?))
    };
    let posed: Vec<_> = set.queries.iter().filter_map(|p| solids(&p.exact)).collect();
    g.bench_function("vclip_f64", |b| {
        b.iter(|| {
            for (_, _, x, y, _, _) in &posed {
                black_box(vclip_prechecked(x, y, None).map(|r| r.closest.features).ok());
            }
        })
    });
    g.bench_function("vclip_midrad", |b| {
        b.iter(|| {
            for (_, _, _, _, x, y) in &posed {
                black_box(vclip_prechecked(x, y, None).map(|r| r.closest.features).ok());
            }
        })
    });
    g.bench_function("vclip_interval", |b| {
        b.iter(|| {
            for (x, y, _, _, _, _) in &posed {
                black_box(vclip_prechecked(x, y, None).map(|r| r.closest.features).ok());
            }
        })
    });
    let warm: Vec<Option<(Feature, Feature)>> =
        posed.iter().map(|(_, _, x, y, _, _)| vclip_prechecked(x, y, None).ok().map(|r| r.closest.features)).collect();
    g.bench_function("vclip_f64_warm", |b| {
        b.iter(|| {
            for ((_, _, x, y, _, _), w) in posed.iter().zip(&warm) {
                black_box(vclip_prechecked(x, y, w.clone()).map(|r| r.closest.features).ok());
            }
        })
    });
    let peer: Vec<_> = set.shapes.iter().map(|pair| pair.clone().map(parry_shape)).collect();
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for [(x, px), (y, py)] in &peer {
                black_box(parry3d_f64::query::distance(px, x.as_ref(), py, y.as_ref()).ok());
            }
        })
    });
}

fn polyhedron<N: Scalar>(s: &Solid<Q>) -> ShapeSpec<N> {
    ShapeSpec::Polyhedron {
        vertices: s.vertices().iter().map(|p| p.map(|x| N::from_rational(&x))).collect(),
        faces: s.faces().to_vec(),
    }
}

fn grid_set(rng: &mut Rng, n: usize) -> Vec<Pair<Distance<Q>, Distance<f64>>> {
    (0..n)
        .map(|i| {
            let mut side = || {
                let k = rng.int(3).unsigned_abs() as u8 + 3 * (rng.int(1).unsigned_abs() as u8);
                (k, [0; 4].map(|_| rng.int(3) as i8), [0; 3].map(|_| rng.int(24) as i8))
            };
            let (a, b) = (side(), side());
            let cloud: Vec<[i8; 3]> = (0..10).map(|_| [0; 3].map(|_| rng.int(100) as i8)).collect();
            let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][i % 3];
            let (sa, sb) = convex_pair(a, b, &cloud, placement);
            let q = |s: &Solid<Q>, name| Posed::new(name, polyhedron(s), PoseSpec::identity());
            let f = |s: &Solid<Q>, name| Posed::new(name, polyhedron::<f64>(s), PoseSpec::identity());
            Pair {
                exact: Distance { a: q(&sa, "a"), b: q(&sb, "b") },
                fast: Distance { a: f(&sa, "a"), b: f(&sb, "b") },
            }
        })
        .collect()
}

fn ccd_pair(kind: CcdKind, t0: [[f64; 3]; 4], t1: [[f64; 3]; 4]) -> Pair<Ccd<Q>, Ccd<f64>> {
    Pair {
        exact: Ccd { kind, t0: t0.map(point), t1: t1.map(point) },
        fast: Ccd { kind, t0: t0.map(point), t1: t1.map(point) },
    }
}

fn ccd_generic(rng: &mut Rng, n: usize) -> Vec<Pair<Ccd<Q>, Ccd<f64>>> {
    (0..n)
        .map(|i| {
            let kind = if i % 2 == 0 { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
            let t0 = [0; 4].map(|_| rng.ball());
            let t1 = t0.map(|p| {
                let d = rng.ball();
                [p[0] + d[0], p[1] + d[1], p[2] + d[2]]
            });
            ccd_pair(kind, t0, t1)
        })
        .collect()
}

fn ccd_grid(rng: &mut Rng, n: usize) -> Vec<Pair<Ccd<Q>, Ccd<f64>>> {
    (0..n)
        .map(|i| {
            let kind = if i % 2 == 0 { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
            let points = [0; 8].map(|_| [0; 3].map(|_| rng.int(6) as i8));
            let construction = match i % 3 {
                0 => CcdConstruction::Free,
                1 => CcdConstruction::Coplanar,
                _ => CcdConstruction::Through { target: (rng.next() % 6) as u8, when: (rng.next() % 3) as u8 },
            };
            let (t0, t1) = degenerate_ccd(kind, points, construction);
            ccd_pair(kind, t0.map(|p| [p.x, p.y, p.z]), t1.map(|p| [p.x, p.y, p.z]))
        })
        .collect()
}

/// `[R | t]` of a binary64 unit quaternion, computed in f64 (an engine's pose matrix).
fn pose_matrix(q: [f64; 4], t: [f64; 3]) -> Matrix4<f64> {
    let [w, x, y, z] = q;
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = Matrix4::identity();
    for i in 0..3 {
        for j in 0..3 {
            m[(i, j)] = r[i][j];
        }
        m[(i, 3)] = t[i];
    }
    m
}

fn sweep_pair(a: BoxMotion<f64>, b: BoxMotion<f64>) -> Pair<ToiBoxes<Q>, ToiBoxes<f64>> {
    Pair {
        exact: ToiBoxes { a: a.to_exact(), b: b.to_exact(), interval: [Q::from_i64(0), Q::from_i64(1)] },
        fast: ToiBoxes { a, b, interval: [0.0, 1.0] },
    }
}

/// Linear sweeps: a at rest, b translating at constant velocity toward it (for parry too).
struct LinearSweeps {
    peer: Vec<Cast>,
    queries: Vec<Pair<ToiBoxes<Q>, ToiBoxes<f64>>>,
    /// The same casts as `toi` queries (poses and a linear velocity).
    casts: Vec<Pair<Toi<Q>, Toi<f64>>>,
}

fn sweep_linear(rng: &mut Rng, n: usize) -> LinearSweeps {
    let mut peer = Vec::new();
    let mut queries = Vec::new();
    let mut casts = Vec::new();
    let zero = Matrix4::<f64>::zeros;
    for _ in 0..n {
        let (ha, hb) = ([0; 3].map(|_| 0.75 + 0.5 * rng.unit()), [0; 3].map(|_| 0.75 + 0.5 * rng.unit()));
        let (qa, qb) = (rng.rotation(), rng.rotation());
        let ta = [0; 3].map(|_| 0.5 * rng.unit());
        let tb = [0; 3].map(|_| 6.0 * rng.unit());
        // Toward a, overshooting or falling short at random.
        let v = [0; 3].map(|i| -tb[i] * (0.6 + 0.8 * rng.unit().abs()) + 0.5 * rng.unit());
        let mut vel = zero();
        for i in 0..3 {
            vel[(i, 3)] = v[i];
        }
        let a = BoxMotion { half: ha, motion: [pose_matrix(qa, ta), zero(), zero()] };
        let b = BoxMotion { half: hb, motion: [pose_matrix(qb, tb), vel, zero()] };
        queries.push(sweep_pair(a, b));
        peer.push((ha, parry_pose(qa, ta), hb, parry_pose(qb, tb), v));
        fn cast<N: Scalar>(
            ha: [f64; 3],
            qa: [f64; 4],
            ta: [f64; 3],
            hb: [f64; 3],
            qb: [f64; 4],
            tb: [f64; 3],
            v: [f64; 3],
        ) -> Toi<N> {
            let vel = |x: [f64; 3]| touchstone::geom::Vector3::new(num(x[0]), num(x[1]), num(x[2]));
            Toi {
                a: posed("a", &Shape::Box(ha), qa, ta),
                b: posed("b", &Shape::Box(hb), qb, tb),
                velocity_a: vel([0.0; 3]),
                velocity_b: vel(v),
                interval: [num(0.0), num(1.0)],
            }
        }
        casts.push(Pair { exact: cast(ha, qa, ta, hb, qb, tb, v), fast: cast(ha, qa, ta, hb, qb, tb, v) });
    }
    LinearSweeps { peer, queries, casts }
}

/// Generic quadratic motions: b spins by q(t) = q₀ + q₁t about its centre, which moves by
/// c + vt + at² (homogeneous: M(t) = [R̃(q(t)) | (c + vt + at²)·w(t)] with w = |q(t)|²,
/// quadratic only when the centre is fixed, so the centre moves linearly in R̃'s frame here:
/// M(t) = [R̃(q(t)) | c·w(t)]).
fn sweep_spin(rng: &mut Rng, n: usize) -> Vec<Pair<ToiBoxes<Q>, ToiBoxes<f64>>> {
    let zero = Matrix4::<f64>::zeros;
    let form = |q: [f64; 4], c: [f64; 3]| -> Matrix4<f64> {
        // R̃(q)·|q|²... as the unnormalised quadratic form with w = |q|².
        let [w, x, y, z] = q;
        let n = w * w + x * x + y * y + z * z;
        let r = [
            [w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), w * w - x * x - y * y + z * z],
        ];
        let mut m = zero();
        for i in 0..3 {
            for j in 0..3 {
                m[(i, j)] = r[i][j];
            }
            m[(i, 3)] = c[i] * n;
        }
        m[(3, 3)] = n;
        m
    };
    (0..n)
        .map(|_| {
            let (ha, hb) = ([0; 3].map(|_| 0.75 + 0.5 * rng.unit()), [0; 3].map(|_| 0.75 + 0.5 * rng.unit()));
            let a = BoxMotion { half: ha, motion: [pose_matrix(rng.rotation(), [0.0; 3]), zero(), zero()] };
            let (q0, q1) = ([0; 4].map(|_| rng.unit()), [0; 4].map(|_| rng.unit()));
            let c = [0; 3].map(|_| 1.5 + 1.5 * rng.unit().abs()).map(|x| if rng.next() % 2 == 0 { x } else { -x });
            // The forms are quadratic in q: F(q₀ + q₁t) = F(q₀) + (F(q₀+q₁) − F(q₀) − F(q₁))t + F(q₁)t².
            let sum = [0, 1, 2, 3].map(|k| q0[k] + q1[k]);
            let (f0, f1, fs) = (form(q0, c), form(q1, c), form(sum, c));
            let b = BoxMotion { half: hb, motion: [f0, fs - f0 - f1, f1] };
            sweep_pair(a, b)
        })
        .collect()
}

fn sweep_grid(rng: &mut Rng, n: usize) -> Vec<Pair<ToiBoxes<Q>, ToiBoxes<f64>>> {
    (0..n)
        .map(|_| {
            let (ha, hb) = ([0; 3].map(|_| (rng.next() % 4) as u8), [0; 3].map(|_| (rng.next() % 4) as u8));
            let spin =
                (rng.next() % 2 == 0).then(|| ([0; 4].map(|_| rng.int(2) as i8), [0; 4].map(|_| rng.int(2) as i8)));
            let (c, v) = ([0; 3].map(|_| rng.int(6) as i8), [0; 3].map(|_| rng.int(6) as i8));
            let (a, b) = degenerate_boxes(ha, hb, spin, c, v, [0; 3].map(|_| rng.int(2) as i8));
            let (fa, fb) = (a.to_f64(), b.to_f64());
            Pair {
                exact: ToiBoxes { a, b, interval: [Q::from_i64(0), Q::from_i64(1)] },
                fast: ToiBoxes { a: fa, b: fb, interval: [0.0, 1.0] },
            }
        })
        .collect()
}

const ROWS: [&str; 14] = [
    "f64",
    "vclip_f64",
    "vclip_f64_warm",
    "vclip_midrad",
    "vclip_interval",
    "parry3d",
    "filtered",
    "midrad_run",
    "interval_run",
    "judge_enclosed",
    "judge_exact",
    "exact_only",
    "bigrational",
    "rug",
];

fn group<'a>(c: &'a mut Criterion, name: &str, len: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(format!("filtered/{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(len as u64));
    g
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut rng = Rng::new(0x5eed_2023_0023);
    let mut sets: Vec<(&str, usize, f64)> = Vec::new();

    let boxes = distance_set(&mut rng, 64, |r| Shape::Box([0; 3].map(|_| 0.75 + 0.5 * r.unit())));
    let hull12 = distance_set(&mut rng, 32, |r| Shape::Hull((0..12).map(|_| r.ball()).collect()));
    let hull64 = distance_set(&mut rng, 16, |r| Shape::Hull((0..64).map(|_| r.ball()).collect()));
    for (name, set) in [("boxes", &boxes), ("hull12", &hull12), ("hull64", &hull64)] {
        let mut g = group(&mut c, name, set.queries.len());
        let fell = rows(&mut g, &set.queries);
        vclip_rows(&mut g, set);
        judge_rows(&mut g, &set.queries, |o| DistanceClaim {
            status: Some(o.status),
            distance: Some(rational(o.distance_squared.sqrt())),
            ..Default::default()
        });
        g.finish();
        sets.push((name, set.queries.len(), fell));
    }
    // Their own generators: the sets after them keep their inputs.
    depth_rows(&mut c, &mut Rng::new(0xdeb7_5eed));
    classify_rows(&mut c, &mut Rng::new(0xc1a5_51f7), &mut sets);
    // orient2d of nearly collinear points: c on the line through a and b, rounded to binary64.
    let orient2d: Vec<_> = (0..256)
        .map(|_| {
            let (a, b, t) = ([rng.unit(), rng.unit()], [rng.unit(), rng.unit()], rng.unit());
            let c = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            let p = |x: [f64; 2]| nalgebra::Point2::new(x[0], x[1]);
            let e = |x: [f64; 2]| nalgebra::Point2::new(num::<Q>(x[0]), num::<Q>(x[1]));
            Pair { exact: Orient2d { points: [e(a), e(b), e(c)] }, fast: Orient2d { points: [p(a), p(b), p(c)] } }
        })
        .collect();
    let mut g = group(&mut c, "orient2d_near_collinear", orient2d.len());
    sets.push(("orient2d_near_collinear", orient2d.len(), rows(&mut g, &orient2d)));
    g.finish();
    let grid = grid_set(&mut rng, 48);
    let mut g = group(&mut c, "grid", grid.len());
    sets.push(("grid", grid.len(), rows(&mut g, &grid)));
    g.finish();

    let validate: Vec<_> = (0..16)
        .map(|_| {
            let p: Vec<[f64; 3]> = (0..64).map(|_| rng.ball()).collect();
            Pair {
                exact: Validate::new(ShapeSpec::<Q>::ConvexHull(p.iter().map(|&x| point(x)).collect())),
                fast: Validate::new(ShapeSpec::<f64>::ConvexHull(p.iter().map(|&x| point(x)).collect())),
            }
        })
        .collect();
    let mut g = group(&mut c, "validate_hull64", validate.len());
    sets.push(("validate_hull64", validate.len(), rows(&mut g, &validate)));
    g.finish();

    let mut ccd_medians = Vec::new();
    for (name, set) in [("ccd_generic", ccd_generic(&mut rng, 256)), ("ccd_grid", ccd_grid(&mut rng, 256))] {
        let mut g = group(&mut c, name, set.len());
        sets.push((name, set.len(), rows(&mut g, &set)));
        judge_rows(&mut g, &set, |o| CcdClaim { collides: Some(o.collides), toi: o.toi.map(rational) });
        g.finish();
        ccd_medians.push((name, medians(&set)));
    }

    let linear = sweep_linear(&mut rng, 32);
    let mut g = group(&mut c, "sweep_linear", linear.queries.len());
    sets.push(("sweep_linear", linear.queries.len(), rows(&mut g, &linear.queries)));
    let toi_claim = |o: &touchstone::query::ToiBoxesOutput<f64>| ToiBoxesClaim {
        collides: Some(o.collides),
        toi: o.toi.map(rational),
        ..Default::default()
    };
    judge_rows(&mut g, &linear.queries, toi_claim);
    g.finish();
    // The same casts through the `toi` op (poses and a linear velocity), beside parry's.
    let mut g = group(&mut c, "toi_casts", linear.casts.len());
    sets.push(("toi_casts", linear.casts.len(), rows(&mut g, &linear.casts)));
    let options = ShapeCastOptions { max_time_of_impact: 1.0, ..ShapeCastOptions::default() };
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for (ha, pa, hb, pb, v) in &linear.peer {
                let (x, y) =
                    (Cuboid::new(Vector::new(ha[0], ha[1], ha[2])), Cuboid::new(Vector::new(hb[0], hb[1], hb[2])));
                let vel = Vector::new(v[0], v[1], v[2]);
                black_box(parry3d_f64::query::cast_shapes(pa, Vector::ZERO, &x, pb, vel, &y, options).ok());
            }
        })
    });
    g.finish();
    for (name, set) in [("sweep_spin", sweep_spin(&mut rng, 16)), ("sweep_grid", sweep_grid(&mut rng, 32))] {
        let mut g = group(&mut c, name, set.len());
        sets.push((name, set.len(), rows(&mut g, &set)));
        judge_rows(&mut g, &set, toi_claim);
        g.finish();
    }

    c.final_summary();
    println!("\nmean time per query (µs) and ratio to the f64 path; 'fell back': share the filter could not decide");
    for (name, len, fell) in sets {
        let group = format!("filtered/{name}");
        // criterion keeps a group "x/y" in the folder "x_y".
        let group = group.replace('/', "_");
        let Some(base) = mean_ns(&group, "f64") else { continue };
        println!("{name} ({len} queries, fell back {:.0}%):", 100.0 * fell);
        for row in ROWS {
            if let Some(t) = mean_ns(&group, row) {
                println!("  {row:16} {:>12.2} µs   ×{:.1}", t / 1e3 / len as f64, t / base);
            }
        }
    }
    println!("\nmedian time per query (µs), each query timed alone");
    for (name, (fast, exact)) in ccd_medians {
        println!("{name}: f64 {fast:.2} µs, filtered exact {exact:.2} µs");
    }
}
