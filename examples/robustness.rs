//! The robustness experiment of Mirtich 1998 §2.4, redone with an exact reference: V-Clip and
//! Lin–Canny in `f64` on critical configurations built exactly.
//!
//! ```text
//! cargo run --release --example robustness -- --trials 100000 [--seed 1] [--exact-every 100] [--show]
//! ```
//!
//! Each trial builds two convex solids over `BigRational` (cube, cuboid, tetrahedron,
//! octahedron, icosahedron, triangular, pentagonal and hexagonal prisms): the first turned by
//! an integer quaternion from a pool of 48 (entries −2..2; the identity one time in eight),
//! the second by the same quaternion times an exact symmetry (quarter and half turns, a third
//! of a turn about a diagonal) three times in four, so that faces and edges are often exactly
//! parallel, or else by another pool rotation. A feature point `x` of the first solid (a
//! vertex, a point of an edge, a point inside or on the boundary of a face) and a direction
//! `d` in its normal cone (a face normal: on the boundary between Voronoi regions; a sum of two
//! adjacent normals: on a vertex–edge boundary; or inside the cone) give `P = x + s·d`, and
//! the second solid is translated so that its extreme vertex in direction −d lands exactly on
//! `P`. The exact distance is then `s·|d|` for `s ≥ 0` (touching for `s = 0`) and the closest
//! features change exactly there; `s < 0` penetrates. One trial in three adds `ε·t` to `P`
//! (t a small integer vector, ε = 2⁻²⁰…2⁻⁵²): a tiny step through the alignment.
//!
//! Per trial: `f64` V-Clip, `f64` Lin–Canny and the `f64` brute force on the solids rounded
//! to `f64` (`Solid::convert::<f64>`), V-Clip and Lin–Canny from the same random warm start;
//! then exact V-Clip, the reference (exact from any start; it starts from `f64` V-Clip's
//! answer to save steps). On every `--exact-every`-th trial also the exact brute force, which
//! checks exact V-Clip (from the default start) and exact Lin–Canny (from the warm start).
//! Every check is exact: the returned features are evaluated on the exact solids. `--show`
//! prints the trials where an `f64` algorithm failed (step cap or error), answered beyond
//! tolerance, or left a cycle.

use num_rational::BigRational;
use std::time::Instant;
use touchstone::brep::shapes::{cube, cuboid, extrusion, icosahedron, octahedron, tetrahedron};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::scalar::{ratio, Scalar};
use touchstone::vclip::{
    brute_force_distance, feature_squared_distance, lin_canny, vclip, ClosestPair, Status, VClipError, VClipResult,
};

type Q = BigRational;

/// splitmix64: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

fn pow2(k: i32) -> Q {
    if k >= 0 {
        Q::from_integer(num_bigint::BigInt::from(1) << k as usize)
    } else {
        Q::new(1.into(), num_bigint::BigInt::from(1) << (-k) as usize)
    }
}

fn shapes() -> Vec<(&'static str, Solid<Q>)> {
    let grid = |pts: &[(i64, i64)]| pts.iter().map(|&(x, y)| (q(x, 1), q(y, 1))).collect::<Vec<_>>();
    vec![
        ("cube", cube()),
        ("cuboid", cuboid(q(1, 2), q(1, 1), q(3, 2)).expect("valid")),
        ("tetrahedron", tetrahedron()),
        ("octahedron", octahedron()),
        ("icosahedron", icosahedron().unwrap()),
        ("triangular prism", extrusion(&grid(&[(-1, -1), (2, 0), (0, 2)]), q(-1, 1), q(1, 1)).expect("valid")),
        (
            "pentagonal prism",
            extrusion(&grid(&[(0, 0), (2, 0), (3, 2), (1, 3), (-1, 1)]), q(-1, 2), q(1, 2)).expect("valid"),
        ),
        (
            "hexagonal prism",
            extrusion(&grid(&[(2, 0), (1, 2), (-1, 2), (-2, 0), (-1, -2), (1, -2)]), q(-1, 1), q(1, 1)).expect("valid"),
        ),
    ]
}

/// Quaternions of exact symmetries that align faces and edges of the shapes above.
const NICE: [[i64; 4]; 9] = [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [1, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
    [1, 1, 1, 1],
    [0, 1, 1, 0],
];

fn qmul(a: [i64; 4], b: [i64; 4]) -> [i64; 4] {
    let [w1, x1, y1, z1] = a;
    let [w2, x2, y2, z2] = b;
    [
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ]
}

fn rotated(s: &Solid<Q>, quat: [i64; 4]) -> Solid<Q> {
    let map = Affine::from_quaternion(&quat.map(Q::from_i64), Vector3::zeros()).expect("nonzero quaternion");
    s.transformed(&map).expect("a rotation keeps a solid valid")
}

/// A pool of rotations: the identity and integer quaternions with entries in −2..2 (turned
/// solids are cached per pool entry, since building an exact solid validates it, which costs).
fn quaternion_pool(rng: &mut Rng, n: usize) -> Vec<[i64; 4]> {
    let mut pool = vec![[1, 0, 0, 0]];
    while pool.len() < n {
        let quat = [rng.range(-2, 2), rng.range(-2, 2), rng.range(-2, 2), rng.range(-2, 2)];
        if quat.iter().any(|&c| c != 0) && !pool.contains(&quat) {
            pool.push(quat);
        }
    }
    pool
}

/// What kind of critical configuration a trial builds (for the table by kind).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Vertex,
    Edge,
    Face,
}

/// A feature point of `a` and a direction in its normal cone.
fn anchor(a: &Solid<Q>, rng: &mut Rng) -> (Kind, Point3<Q>, Vector3<Q>) {
    match rng.below(3) {
        0 => {
            let v = rng.below(a.vertex_count());
            let fs = a.vertex_faces(v);
            let k = rng.below(fs.len());
            let d = match rng.below(3) {
                0 => a.plane(fs[k]).normal.clone(),
                1 => &a.plane(fs[k]).normal + &a.plane(fs[(k + 1) % fs.len()]).normal,
                _ => fs.iter().fold(Vector3::zeros(), |acc: Vector3<Q>, &f| acc + &a.plane(f).normal),
            };
            (Kind::Vertex, a.vertex(v).clone(), d)
        }
        1 => {
            let e = rng.below(a.edge_count());
            let (u, v) = a.edges()[e];
            let t = rng.pick(&[q(1, 2), q(1, 3), q(1, 8), q(5, 7)]).clone();
            let x = a.vertex(u) + (a.vertex(v) - a.vertex(u)) * t;
            let (f1, f2) = a.edge_faces(e);
            let d = match rng.below(3) {
                0 => a.plane(f1).normal.clone(),
                1 => a.plane(f2).normal.clone(),
                _ => &a.plane(f1).normal + &a.plane(f2).normal,
            };
            (Kind::Edge, x, d)
        }
        _ => {
            let f = rng.below(a.face_count());
            let vs = a.face(f);
            let x = if rng.below(2) == 0 {
                // Inside: positive integer weights.
                let w: Vec<i64> = vs.iter().map(|_| rng.range(1, 4)).collect();
                let total: i64 = w.iter().sum();
                let sum = vs
                    .iter()
                    .zip(&w)
                    .fold(Vector3::zeros(), |acc: Vector3<Q>, (&v, &k)| acc + &a.vertex(v).coords * Q::from_i64(k));
                Point3::from(sum / Q::from_i64(total))
            } else {
                // On its boundary (an edge or a vertex of the face).
                let k = rng.below(vs.len());
                let (u, v) = (a.vertex(vs[k]), a.vertex(vs[(k + 1) % vs.len()]));
                let t = rng.pick(&[q(0, 1), q(1, 2), q(1, 3)]).clone();
                u + (v - u) * t
            };
            (Kind::Face, x, a.plane(f).normal.clone())
        }
    }
}

struct Trial {
    description: String,
    /// 0: s = 0, 1: tiny s > 0, 2: s ≥ 1/4, 3: tiny s < 0, 4: s = −1/8; +5 when perturbed.
    class: usize,
    a: Solid<Q>,
    b: Solid<Q>,
    kind: Kind,
    warm: (Feature, Feature),
}

fn features(s: &Solid<Q>) -> Vec<Feature> {
    let mut out: Vec<Feature> = (0..s.vertex_count()).map(Feature::Vertex).collect();
    out.extend(s.edges().iter().map(|&(u, v)| Feature::Edge(u, v)));
    out.extend((0..s.face_count()).map(Feature::Face));
    out
}

/// Turned shapes, by (shape, quaternion): building a solid validates it exactly, which costs.
type Cache = std::collections::HashMap<(usize, [i64; 4]), Solid<Q>>;

fn turned<'a>(cache: &'a mut Cache, shapes: &[(&str, Solid<Q>)], k: usize, quat: [i64; 4]) -> &'a Solid<Q> {
    cache.entry((k, quat)).or_insert_with(|| rotated(&shapes[k].1, quat))
}

fn build(shapes: &[(&str, Solid<Q>)], pool: &[[i64; 4]], cache: &mut Cache, rng: &mut Rng) -> Trial {
    let (ka, kb) = (rng.below(shapes.len()), rng.below(shapes.len()));
    // One solid in eight unturned (exact doubles), the others turned by a pool rotation.
    let quat = if rng.below(8) == 0 { pool[0] } else { *rng.pick(pool) };
    // The second: the same rotation times a symmetry (aligned faces and edges), or another.
    let quat_b = if rng.below(4) == 0 { *rng.pick(pool) } else { qmul(quat, *rng.pick(&NICE)) };
    let a = turned(cache, shapes, ka, quat).clone();
    let b0 = turned(cache, shapes, kb, quat_b).clone();
    let (kind, x, d) = anchor(&a, rng);
    // Scale d so that its largest component is 1 (exactly).
    let big = d.iter().map(|c| c.abs()).fold(q(0, 1), |m, c| if c > m { c } else { m });
    let d = d / big;
    let (mut class, s) = match rng.below(8) {
        0 | 1 => (0, q(0, 1)),
        2 => (2, q(1, 4)),
        3 => (2, q(1, 1)),
        4 => (1, pow2(-(rng.range(20, 52) as i32))),
        5 => (3, -pow2(-(rng.range(20, 52) as i32))),
        6 => (4, q(-1, 8)),
        _ => (2, q(3, 1)),
    };
    let mut p = &x + &d * s;
    if rng.below(3) == 0 {
        class += 5;
        let t =
            Vector3::new(Q::from_i64(rng.range(-2, 2)), Q::from_i64(rng.range(-2, 2)), Q::from_i64(rng.range(-2, 2)));
        p += t * pow2(-(rng.range(20, 52) as i32));
    }
    // The vertex of b0 extreme in direction −d (the first one on a tie).
    let w = (0..b0.vertex_count())
        .map(|i| (i, d.dot(&b0.vertex(i).coords)))
        .fold(None::<(usize, Q)>, |best, (i, h)| match best {
            Some((j, bh)) if bh <= h => Some((j, bh)),
            _ => Some((i, h)),
        })
        .map(|(i, _)| i)
        .unwrap_or(0);
    let shift = &p - b0.vertex(w);
    let b = b0.transformed(&Affine::translation(shift.clone())).expect("a translation keeps a solid valid");
    let (fa, fb) = (features(&a), features(&b));
    let warm = (rng.pick(&fa).clone(), rng.pick(&fb).clone());
    let description = format!(
        "{} turned by {quat:?} and {} turned by {:?} moved by {:?}, warm start {warm:?}",
        shapes[ka].0,
        shapes[kb].0,
        quat_b,
        [&shift.x, &shift.y, &shift.z].map(|c| c.to_string())
    );
    Trial { description, class, a, b, kind, warm }
}

/// Counters of one algorithm.
#[derive(Default, Clone)]
struct Tally {
    runs: u64,
    cap: u64,
    errors: u64,
    wrong_features: u64,
    wrong_features_gross: u64,
    wrong_distance: u64,
    wrong_status: u64,
    /// Trials with any problem, exactly suboptimal features included.
    problems: u64,
    /// Trials with a problem beyond tolerance: non-termination, error, or distance, status or
    /// features off by more than 1e-9·(1 + d*).
    gross: u64,
    steps: u64,
    max_steps: usize,
    /// Runs that stopped by leaving a cycle (inexact V-Clip).
    cycles: u64,
    error_kinds: std::collections::BTreeMap<String, u64>,
    /// [exact status][returned status].
    confusion: [[u64; 3]; 3],
}

fn bound(exact: f64) -> f64 {
    1e-9 * (1.0 + exact)
}

/// Judge one answer against the exact reference, on the exact solids.
fn judge<S: Scalar>(
    t: &mut Tally,
    got: Result<VClipResult<S>, VClipError>,
    trial: &Trial,
    exact: &ClosestPair<Q>,
    steps_of: Option<usize>,
) {
    t.runs += 1;
    let r = match got {
        Ok(r) => r,
        Err(VClipError::IterationCap { .. }) => {
            t.cap += 1;
            t.problems += 1;
            t.gross += 1;
            return;
        }
        Err(e) => {
            t.errors += 1;
            t.problems += 1;
            t.gross += 1;
            let name = format!("{e:?}");
            let name = name.split([' ', '{', '(']).next().unwrap_or("?").to_string();
            *t.error_kinds.entry(name).or_default() += 1;
            return;
        }
    };
    let steps = steps_of.unwrap_or(r.steps);
    t.steps += steps as u64;
    t.cycles += u64::from(r.left_cycle);
    t.max_steps = t.max_steps.max(steps);
    let c = &r.closest;
    t.confusion[exact.status as usize][c.status as usize] += 1;
    let dstar = exact.squared_distance.to_f64();
    let mut problem = false;
    let mut gross = false;
    // Distance: the exact backends must be exact, f64 within 1e-9·(1 + d*).
    let d = c.squared_distance.to_rational().unwrap_or_else(|| q(-1, 1));
    let wrong_distance = if S::EXACT_VALUES {
        d != exact.squared_distance
    } else {
        (c.squared_distance.to_f64() - dstar).abs() > bound(dstar)
    };
    if wrong_distance {
        t.wrong_distance += 1;
        problem = true;
        gross = true;
    }
    // Status: a contradiction beyond the distance tolerance (for exact backends: any
    // difference); the full confusion matrix is printed apart.
    let f64_sep_far = c.status == Status::Separated && c.squared_distance.to_f64() > bound(dstar);
    let exact_sep_far = exact.status == Status::Separated && dstar > bound(dstar);
    let wrong_status = if S::EXACT_VALUES {
        c.status != exact.status
    } else {
        (exact_sep_far && c.status != Status::Separated) || (exact.status != Status::Separated && f64_sep_far)
    };
    if wrong_status {
        t.wrong_status += 1;
        problem = true;
        gross = true;
    }
    // Features: when the exact answer is not a penetration, the returned pair must realise
    // the exact minimum on the exact solids.
    if exact.status != Status::Penetrating && c.features != exact.features {
        match feature_squared_distance(&trial.a, &c.features.0, &trial.b, &c.features.1) {
            Ok(fd) if fd == exact.squared_distance => {}
            Ok(fd) => {
                t.wrong_features += 1;
                problem = true;
                if (fd.clone() - exact.squared_distance.clone()).to_f64() > bound(dstar) {
                    t.wrong_features_gross += 1;
                    gross = true;
                }
            }
            Err(_) => {
                t.wrong_features += 1;
                t.wrong_features_gross += 1;
                problem = true;
                gross = true;
            }
        }
    }
    if problem {
        t.problems += 1;
    }
    if gross {
        t.gross += 1;
    }
}

fn main() {
    let mut trials: u64 = 10_000;
    let mut seed: u64 = 1;
    let mut exact_every: u64 = 100;
    let mut show = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> u64 {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
                eprintln!("{name} needs a non-negative integer");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--trials" => trials = value("--trials"),
            "--seed" => seed = value("--seed"),
            "--exact-every" => exact_every = value("--exact-every").max(1),
            "--show" => show = true,
            other => {
                eprintln!("unknown argument {other}; use --trials N --seed S --exact-every K --show");
                std::process::exit(2)
            }
        }
    }
    let shapes = shapes();
    let mut rng = Rng(seed);
    let mut cache = Cache::new();
    let pool = quaternion_pool(&mut Rng(seed ^ 0x5eed), 48);
    let names = ["f64 V-Clip", "f64 Lin–Canny", "f64 brute force", "exact V-Clip", "exact Lin–Canny"];
    let mut tally = vec![Tally::default(); names.len()];
    let mut by_kind = [[0u64; 3]; 3]; // [kind][trials, V-Clip problems, Lin–Canny problems]
                                      // [class][trials, then per f64 algorithm: beyond tolerance, any problem]
    let mut by_class = [[0u64; 7]; 10];
    let (mut conversion_failed, mut exact_status) = (0u64, [0u64; 3]);
    let start = Instant::now();
    for i in 0..trials {
        if trials >= 10 && i > 0 && i % (trials / 10) == 0 {
            eprintln!("{}% ({i} trials, {:.0} s)", 100 * i / trials, start.elapsed().as_secs_f64());
        }
        let trial = build(&shapes, &pool, &mut cache, &mut rng);
        let kind = trial.kind as usize;
        by_kind[kind][0] += 1;
        let converted = match (trial.a.convert::<f64>(), trial.b.convert::<f64>()) {
            (Ok(fa), Ok(fb)) => Some((fa, fb)),
            _ => None,
        };
        let fast = converted.as_ref().map(|(fa, fb)| {
            (
                vclip(fa, fb, Some(trial.warm.clone())),
                lin_canny(fa, fb, Some(trial.warm.clone())),
                brute_force_distance(fa, fb).map(|closest| VClipResult { closest, steps: 0, left_cycle: false }),
            )
        });
        // The exact reference: exact V-Clip, warm-started from f64 V-Clip's answer (it is
        // exact from any start; this only saves steps).
        let start_features = match &fast {
            Some((Ok(r), _, _)) => Some(r.closest.features.clone()),
            _ => None,
        };
        let reference = match vclip(&trial.a, &trial.b, start_features) {
            Ok(r) => r,
            Err(e) => panic!("exact V-Clip failed on an exactly convex input: {e}"),
        };
        let exact = reference.closest.clone();
        exact_status[exact.status as usize] += 1;
        if i % exact_every == 0 {
            let brute = brute_force_distance(&trial.a, &trial.b).expect("convex");
            // Exact V-Clip (from the default start) and exact Lin–Canny (from the trial's warm
            // start) checked against the exact brute force.
            judge(&mut tally[3], vclip(&trial.a, &trial.b, None), &trial, &brute, None);
            judge(&mut tally[4], lin_canny(&trial.a, &trial.b, Some(trial.warm.clone())), &trial, &brute, None);
        }
        let Some((v, l, b)) = fast else {
            conversion_failed += 1;
            continue;
        };
        let before = (tally[0].gross, tally[1].gross);
        let before_class: Vec<(u64, u64)> = tally[..3].iter().map(|t| (t.gross, t.problems)).collect();
        for (t, got) in [(0, v), (1, l)] {
            if let (true, Err(e)) = (show, &got) {
                eprintln!("trial {i}: {} failed ({e}): {}", names[t], trial.description);
            }
            let (gross, cycle) = (tally[t].gross, got.as_ref().is_ok_and(|r| r.left_cycle));
            let answer = got
                .as_ref()
                .ok()
                .filter(|_| show)
                .map(|r| (r.closest.status, r.closest.squared_distance, r.closest.features.clone()));
            judge(&mut tally[t], got, &trial, &exact, None);
            if show && (tally[t].gross > gross || cycle) && answer.is_some() {
                let beyond = if tally[t].gross > gross { "beyond tolerance" } else { "within tolerance" };
                eprintln!(
                    "trial {i}: {} {beyond}{}: {answer:?}, exact {:?} {} {:?}: {}",
                    names[t],
                    if cycle { " after leaving a cycle" } else { "" },
                    exact.status,
                    exact.squared_distance,
                    exact.features,
                    trial.description
                );
            }
        }
        judge(&mut tally[2], b, &trial, &exact, Some(0));
        by_class[trial.class][0] += 1;
        for (t, (g, p)) in before_class.iter().enumerate() {
            by_class[trial.class][1 + 2 * t] += tally[t].gross - g;
            by_class[trial.class][2 + 2 * t] += tally[t].problems - p;
        }
        by_kind[kind][1] += tally[0].gross - before.0;
        by_kind[kind][2] += tally[1].gross - before.1;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!("100% ({trials} trials, {secs:.0} s)");

    println!("Robustness experiment: {trials} trials, seed {seed}, {secs:.0} s.");
    println!(
        "Exact statuses: {} separated, {} touching, {} penetrating. Solids not convertible to f64: {conversion_failed}.",
        exact_status[0], exact_status[1], exact_status[2]
    );
    println!(
        "f64 rows: every trial, random warm start, against exact V-Clip. Exact rows: every {exact_every}th trial, against the exact brute force."
    );
    println!();
    println!("| algorithm | runs | non-termination (step cap) | errors | wrong distance | wrong status | features not exactly optimal (beyond 1e-9) | problems beyond tolerance | any problem | mean steps | max steps | cycles left |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (name, t) in names.iter().zip(&tally) {
        let done = t.runs - t.cap - t.errors;
        let mean = if done > 0 { t.steps as f64 / done as f64 } else { 0.0 };
        let pct = |n: u64| if t.runs > 0 { 100.0 * n as f64 / t.runs as f64 } else { 0.0 };
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} ({}) | {} ({:.3}%) | {} ({:.3}%) | {mean:.2} | {} | {} |",
            t.runs,
            t.cap,
            t.errors,
            t.wrong_distance,
            t.wrong_status,
            t.wrong_features,
            t.wrong_features_gross,
            t.gross,
            pct(t.gross),
            t.problems,
            pct(t.problems),
            t.max_steps,
            t.cycles
        );
    }
    println!();
    println!("| anchor of the configuration | trials | f64 V-Clip problems beyond tolerance | f64 Lin–Canny problems beyond tolerance |");
    println!("| --- | ---: | ---: | ---: |");
    for (k, name) in ["vertex", "edge", "face"].iter().enumerate() {
        println!("| {name} | {} | {} | {} |", by_kind[k][0], by_kind[k][1], by_kind[k][2]);
    }
    println!();
    println!("| configuration (gap s along d; ε step) | trials | f64 V-Clip: beyond tolerance / any | f64 Lin–Canny: beyond tolerance / any | f64 brute force: beyond tolerance / any |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let gaps = ["s = 0 (touching)", "0 < s ≤ 2⁻²⁰", "s ∈ {1/4, 1, 3}", "−2⁻²⁰ ≤ s < 0", "s = −1/8"];
    for (c, row) in by_class.iter().enumerate() {
        let step = if c < 5 { "exactly aligned" } else { "+ ε step" };
        println!(
            "| {}, {step} | {} | {} / {} | {} / {} | {} / {} |",
            gaps[c % 5],
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6]
        );
    }
    println!();
    println!("| algorithm | status (exact → returned): S→S, S→T, S→P, T→S, T→T, T→P, P→S, P→T, P→P |");
    println!("| --- | --- |");
    for (name, t) in names.iter().zip(&tally) {
        let cells: Vec<String> = t.confusion.iter().flatten().map(|n| n.to_string()).collect();
        println!("| {name} | {} |", cells.join(", "));
    }
    for (name, t) in names.iter().zip(&tally) {
        if !t.error_kinds.is_empty() {
            println!("\n{name} errors: {:?}", t.error_kinds);
        }
    }
}
