//! The filtered exact path (`touchstone::query::exact_answer`: values with bounds first, then
//! intervals, the fast exact backend on a close call, exact values constructed from the
//! decided answer) gives the reference's answer (`BigRational`) on every degenerate generator,
//! falls back where inputs are degenerate, and decides by itself on generic inputs, in its
//! first stage (the counters say which).

mod common;
use common::Rng;

use num_rational::BigRational;
use touchstone::brep::Solid;
use touchstone::geom::Point3;
use touchstone::query::{
    box_feature_id, exact_answer, filter_counts, judge_claim, Answer, Ccd, CcdClaim, Distance, DistanceClaim,
    FilterCounts, Judged, PoseSpec, Posed, Query, ShapeSpec, Toi, ToiBoxes, ToiBoxesClaim, ToiClaim, Tolerance,
    Validate,
};
use touchstone::scalar::Scalar;
use touchstone::strategies::{convex_pair, Placement};
use touchstone::strategies::{degenerate_boxes, degenerate_ccd, CcdConstruction};
use touchstone::sweep::CcdKind;

type Q = BigRational;

/// The filtered answer equals the reference's; the counts' change.
fn same<Qy: Query + std::fmt::Debug>(q: &Qy) -> FilterCounts
where
    Qy::Output<Q>: PartialEq,
{
    let before = filter_counts();
    let filtered = exact_answer(q).map(|a| a.output);
    let after = filter_counts();
    let reference = q.answer::<Q>().map(|a| a.output);
    assert_eq!(filtered, reference, "{q:?}");
    FilterCounts {
        decided: after.decided - before.decided,
        cheap: after.cheap - before.cheap,
        fallbacks: after.fallbacks - before.fallbacks,
        direct: after.direct - before.direct,
        enclosed: after.enclosed - before.enclosed,
        agreed: after.agreed - before.agreed,
    }
}

fn add(total: &mut FilterCounts, c: FilterCounts) {
    total.decided += c.decided;
    total.cheap += c.cheap;
    total.fallbacks += c.fallbacks;
    total.direct += c.direct;
}

fn polyhedron(s: &Solid<Q>) -> ShapeSpec {
    ShapeSpec::Polyhedron { vertices: s.vertices().to_vec(), faces: s.faces().to_vec() }
}

#[test]
fn distance_on_degenerate_pairs_and_generic_poses() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut degenerate = FilterCounts::default();
    for i in 0..120 {
        let mut side = || {
            let k = rng.int(3).unsigned_abs() as u8 + 3 * (rng.int(1).unsigned_abs() as u8);
            (k, [0; 4].map(|_| rng.int(3) as i8), [0; 3].map(|_| rng.int(24) as i8))
        };
        let (a, b) = (side(), side());
        let cloud: Vec<[i8; 3]> = (0..10).map(|_| [0; 3].map(|_| rng.int(100) as i8)).collect();
        let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][i % 3];
        let (sa, sb) = convex_pair(a, b, &cloud, placement);
        let q = Distance {
            a: Posed::new("a", polyhedron(&sa), PoseSpec::identity()),
            b: Posed::new("b", polyhedron(&sb), PoseSpec::identity()),
        };
        add(&mut degenerate, same(&q));
    }
    // Touching and penetrating by construction: many fall back, many are decided.
    assert!(degenerate.fallbacks >= 10 && degenerate.decided >= 10, "{degenerate:?}");
    // Boxes under binary64 quaternion poses, as an engine holds them: the filter decides.
    let mut generic = FilterCounts::default();
    for _ in 0..60 {
        let f = |x: f64| Q::from_f64(x).unwrap();
        let cube = || ShapeSpec::cuboid([1.0, 0.5, 2.0].map(f)).unwrap();
        let mut pose = || {
            let q = [0; 4].map(|_| f(rng.unit()));
            let t = [0; 3].map(|_| f(3.0 * rng.unit()));
            PoseSpec::quaternion(q, t).unwrap()
        };
        let q = Distance { a: Posed::new("a", cube(), pose()), b: Posed::new("b", cube(), pose()) };
        add(&mut generic, same(&q));
    }
    assert_eq!(generic.fallbacks, 0, "{generic:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(generic.cheap, generic.decided, "{generic:?}");
    // Hulls of doubles in general position under such poses: decided too (the hull is built
    // on intervals), and the exact outputs constructed from the features equal the reference.
    let mut hulls = FilterCounts::default();
    for i in 0..40 {
        let f = |x: f64| Q::from_f64(x).unwrap();
        let mut hull = |n: usize| {
            ShapeSpec::ConvexHull((0..n).map(|_| Point3::new(f(rng.unit()), f(rng.unit()), f(rng.unit()))).collect())
        };
        let (ha, hb) = (hull(6 + i % 10), hull(4 + i % 13));
        let mut pose = |spread: f64| {
            let q = [0; 4].map(|_| f(rng.unit()));
            let t = [0; 3].map(|_| f(spread * rng.unit()));
            PoseSpec::quaternion(q, t).unwrap()
        };
        // Near (overlapping often) and far apart.
        let spread = if i % 2 == 0 { 0.8 } else { 3.0 };
        let q = Distance { a: Posed::new("a", ha, pose(spread)), b: Posed::new("b", hb, pose(spread)) };
        add(&mut hulls, same(&q));
    }
    assert_eq!(hulls.fallbacks, 0, "{hulls:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(hulls.cheap, hulls.decided, "{hulls:?}");
}

#[test]
fn validate_ccd_and_box_sweeps() {
    let mut rng = Rng(7);
    let mut counts = FilterCounts::default();
    // Hulls of grid points (coplanar ties) and of generic doubles.
    for i in 0..60 {
        let n = 4 + (rng.next() % 8) as usize;
        let pts: Vec<Point3<Q>> = (0..n)
            .map(|_| {
                if i % 2 == 0 {
                    Point3::new(Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2)))
                } else {
                    Point3::new(
                        Q::from_f64(rng.unit()).unwrap(),
                        Q::from_f64(rng.unit()).unwrap(),
                        Q::from_f64(rng.unit()).unwrap(),
                    )
                }
            })
            .collect();
        add(&mut counts, same(&Validate::new(ShapeSpec::ConvexHull(pts))));
    }
    // Hulls of 64 doubles in general position: decided on intervals alone.
    let mut generic = FilterCounts::default();
    for _ in 0..8 {
        let f = |x: f64| Q::from_f64(x).unwrap();
        let pts: Vec<Point3<Q>> = (0..64).map(|_| Point3::new(f(rng.unit()), f(rng.unit()), f(rng.unit()))).collect();
        add(&mut generic, same(&Validate::new(ShapeSpec::ConvexHull(pts))));
    }
    assert_eq!(generic.fallbacks, 0, "{generic:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(generic.cheap, generic.decided, "{generic:?}");
    // CCD: the degenerate constructions of the CCD contract.
    for i in 0..120 {
        let kind = if i % 2 == 0 { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
        let points = [0; 8].map(|_| [0; 3].map(|_| rng.int(6) as i8));
        let construction = match i % 3 {
            0 => CcdConstruction::Free,
            1 => CcdConstruction::Coplanar,
            _ => CcdConstruction::Through { target: (rng.next() % 6) as u8, when: (rng.next() % 3) as u8 },
        };
        let (t0, t1) = degenerate_ccd(kind, points, construction);
        let exact = |p: [Point3<f64>; 4]| p.map(|x| x.map(|c| Q::from_f64(c).unwrap()));
        add(&mut counts, same(&Ccd { kind, t0: exact(t0), t1: exact(t1) }));
    }
    // Box sweeps: translating and spinning boxes on grids (touching, grazing).
    for _ in 0..40 {
        let (ha, hb) = ([0; 3].map(|_| (rng.next() % 4) as u8), [0; 3].map(|_| (rng.next() % 4) as u8));
        let spin = (rng.next() % 2 == 0).then(|| ([0; 4].map(|_| rng.int(2) as i8), [0; 4].map(|_| rng.int(2) as i8)));
        let (c, v) = ([0; 3].map(|_| rng.int(6) as i8), [0; 3].map(|_| rng.int(6) as i8));
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, [0; 3].map(|_| rng.int(2) as i8));
        let q = ToiBoxes { a, b, interval: [Q::from_i64(0), Q::from_i64(1)] };
        add(&mut counts, same(&q));
    }
    assert!(counts.decided >= 50 && counts.fallbacks >= 10, "{counts:?}");
}

#[test]
fn generic_ccd_hits_are_decided_and_their_times_constructed() {
    let mut rng = Rng(0x5eed_cafe);
    let f = |x: f64| Q::from_f64(x).unwrap();
    let mut counts = FilterCounts::default();
    let mut hits = 0;
    for i in 0..80 {
        let mut jitter = |s: f64| s * rng.unit();
        let p = |x: f64, y: f64, z: f64| Point3::new(f(x), f(y), f(z));
        // A vertex falling through a tilted, drifting triangle; two edges crossing in flight.
        let (t0, t1, kind) = if i % 2 == 0 {
            let tri = [(-1.0, -1.0), (2.0, -1.0), (-1.0, 2.0)];
            let mut at = |dz: f64| tri.map(|(x, y)| p(x + jitter(0.3), y + jitter(0.3), dz + jitter(0.4)));
            let (f0, f1) = (at(0.0), at(0.1));
            let v0 = p(jitter(0.4), jitter(0.4), 2.0 + jitter(0.5));
            let v1 = p(jitter(0.4), jitter(0.4), -2.0 + jitter(0.5));
            (
                [v0, f0[0].clone(), f0[1].clone(), f0[2].clone()],
                [v1, f1[0].clone(), f1[1].clone(), f1[2].clone()],
                CcdKind::VertexFace,
            )
        } else {
            let mut edge = |z: f64, along_x: bool| {
                let (a, b) = (1.0 + jitter(0.2), jitter(0.3));
                let (c, d) = (z + jitter(0.3), z + jitter(0.3));
                if along_x {
                    [p(-a, b, c), p(a, -b, d)]
                } else {
                    [p(b, -a, c), p(-b, a, d)]
                }
            };
            let (a0, a1, b0, b1) = (edge(2.0, true), edge(-2.0, true), edge(0.0, false), edge(0.0, false));
            (
                [a0[0].clone(), a0[1].clone(), b0[0].clone(), b0[1].clone()],
                [a1[0].clone(), a1[1].clone(), b1[0].clone(), b1[1].clone()],
                CcdKind::EdgeEdge,
            )
        };
        let q = Ccd { kind, t0, t1 };
        let c = same(&q);
        hits += usize::from(exact_answer(&q).unwrap().output.collides);
        add(&mut counts, c);
    }
    // Nearly all collide, and every answer (hit or miss) came from the interval run, the hits'
    // times constructed from its enclosures.
    assert!(hits >= 60, "{hits} hits");
    assert_eq!(counts.fallbacks, 0, "{counts:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(counts.cheap, counts.decided, "{counts:?}");
    assert_eq!(counts.decided, 80, "{counts:?}");
}

/// `[R | t]` of a binary64 unit quaternion, computed in f64 (an engine's pose matrix).
fn pose_matrix(q: [f64; 4], t: [f64; 3]) -> nalgebra::Matrix4<f64> {
    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    let [w, x, y, z] = q.map(|c| c / n);
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = nalgebra::Matrix4::identity();
    for i in 0..3 {
        for j in 0..3 {
            m[(i, j)] = r[i][j];
        }
        m[(i, 3)] = t[i];
    }
    m
}

#[test]
fn generic_box_sweep_hits_are_decided_and_their_times_constructed() {
    use touchstone::sweep::BoxMotion;
    let mut rng = Rng(0xb0c5_5eed);
    let zero = nalgebra::Matrix4::<f64>::zeros;
    let mut counts = FilterCounts::default();
    let mut hits = 0;
    for _ in 0..24 {
        // a at rest under a rotation, b translating toward it under another (as an engine's
        // shape cast holds them), falling short or passing through at random.
        let half = |rng: &mut Rng| [0; 3].map(|_| 0.75 + 0.5 * rng.unit());
        let (ha, hb) = (half(&mut rng), half(&mut rng));
        let (qa, qb) = ([0; 4].map(|_| rng.unit()), [0; 4].map(|_| rng.unit()));
        let ta = [0; 3].map(|_| 0.5 * rng.unit());
        let tb = [0; 3].map(|_| 6.0 * rng.unit());
        let mut vel = zero();
        for i in 0..3 {
            vel[(i, 3)] = -tb[i] * (0.6 + 0.8 * rng.unit().abs()) + 0.5 * rng.unit();
        }
        let a = BoxMotion { half: ha, motion: [pose_matrix(qa, ta), zero(), zero()] };
        let b = BoxMotion { half: hb, motion: [pose_matrix(qb, tb), vel, zero()] };
        let q = ToiBoxes { a: a.to_exact(), b: b.to_exact(), interval: [Q::from_i64(0), Q::from_i64(1)] };
        let c = same(&q);
        hits += usize::from(exact_answer(&q).unwrap().output.collides);
        add(&mut counts, c);
    }
    // Most collide; every answer came from the interval run, the hits' times constructed from
    // its enclosures and the touching pairs as it decided them.
    assert!(hits >= 12, "{hits} hits");
    assert_eq!(counts.fallbacks, 0, "{counts:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(counts.cheap, counts.decided, "{counts:?}");
}

/// b spinning by q(t) = q₀ + q₁t about a centre fixed in its rotating frame (the homogeneous
/// quadratic form: M(t) = [R̃(q(t)) | c·|q(t)|²], weight |q(t)|²), a at rest under a rotation.
fn spinning_sweep(rng: &mut Rng) -> ToiBoxes<Q> {
    use nalgebra::Matrix4;
    use touchstone::sweep::BoxMotion;
    let form = |q: [f64; 4], c: [f64; 3]| -> Matrix4<f64> {
        let [w, x, y, z] = q;
        let n = w * w + x * x + y * y + z * z;
        let r = [
            [w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), w * w - x * x - y * y + z * z],
        ];
        let mut m = Matrix4::zeros();
        for i in 0..3 {
            for j in 0..3 {
                m[(i, j)] = r[i][j];
            }
            m[(i, 3)] = c[i] * n;
        }
        m[(3, 3)] = n;
        m
    };
    let half = |rng: &mut Rng| [0; 3].map(|_| 0.75 + 0.5 * rng.unit());
    let (ha, hb) = (half(rng), half(rng));
    let qa = [0; 4].map(|_| rng.unit());
    let a = BoxMotion { half: ha, motion: [pose_matrix(qa, [0.0; 3]), Matrix4::zeros(), Matrix4::zeros()] };
    let (q0, q1) = ([0; 4].map(|_| rng.unit()), [0; 4].map(|_| rng.unit()));
    let c = [0; 3].map(|_| {
        let x = 0.8 + 1.2 * rng.unit().abs();
        if rng.next() % 2 == 0 {
            x
        } else {
            -x
        }
    });
    // F(q₀ + q₁t) = F(q₀) + (F(q₀+q₁) − F(q₀) − F(q₁))t + F(q₁)t² (F is quadratic in q).
    let sum = [0, 1, 2, 3].map(|k| q0[k] + q1[k]);
    let (f0, f1, fs) = (form(q0, c), form(q1, c), form(sum, c));
    let b = BoxMotion { half: hb, motion: [f0, fs - f0 - f1, f1] };
    ToiBoxes { a: a.to_exact(), b: b.to_exact(), interval: [Q::from_i64(0), Q::from_i64(1)] }
}

#[test]
fn generic_spinning_box_sweeps_are_decided() {
    // Under a rigid rotation switch times of b's normals and edges coincide exactly; the run
    // on intervals groups them and proves the boxes apart across each group (before: every
    // one of these fell back).
    let mut rng = Rng(0x5b1d_0000_0001);
    let mut counts = FilterCounts::default();
    let mut hits = 0;
    for _ in 0..24 {
        let q = spinning_sweep(&mut rng);
        let c = same(&q);
        let out = exact_answer(&q).unwrap().output;
        hits += usize::from(out.collides && out.at_start.is_none());
        add(&mut counts, c);
    }
    assert!(hits >= 4, "{hits} hits after t0");
    assert_eq!(counts.fallbacks, 0, "{counts:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!(counts.cheap, counts.decided, "{counts:?}");
}

/// `judge_claim` gives the verdict of the exact judgement, decided on enclosures where it can;
/// whether it was decided so.
fn judged_alike<Qy: Query + std::fmt::Debug>(q: &Qy, claim: &Qy::Claim, tol: &Tolerance) -> bool {
    judged_alike_on(q, &q.answer::<Q>().unwrap(), claim, tol)
}

/// [`judged_alike`] with the reference answer computed once.
fn judged_alike_on<Qy: Query + std::fmt::Debug>(
    q: &Qy,
    reference: &Answer<Q, Qy>,
    claim: &Qy::Claim,
    tol: &Tolerance,
) -> bool {
    let before = filter_counts().enclosed;
    let quick = judge_claim(q, claim, tol, 12).unwrap();
    let full = q.judge(reference, claim, tol, 12).unwrap();
    assert_eq!(quick.ok(), full.ok(), "{q:?}\n{claim:?}\n{full:?}");
    let failed: Vec<String> = full.checks.iter().filter(|c| !c.ok).map(|c| c.field.clone()).collect();
    match &quick {
        Judged::Enclosed { failed: f, .. } => assert_eq!(f, &failed, "{q:?}"),
        Judged::Exact(v) => assert_eq!(v, &full),
    }
    filter_counts().enclosed > before
}

#[test]
fn claims_are_judged_on_enclosures_with_the_exact_verdict() {
    let mut rng = Rng(0xc1a1_5eed);
    let f = |x: f64| Q::from_f64(x).unwrap();
    let tol = Tolerance::default();
    let (mut enclosed, mut total) = (0, 0);
    let mut tally = |e: bool| {
        total += 1;
        enclosed += usize::from(e);
    };
    // Generic box pairs: an engine's answer (the exact one in binary64), a wrong distance, the
    // decided features; a claim on the tolerance's very edge is left to the exact check.
    for _ in 0..24 {
        let cube = || ShapeSpec::cuboid([1.0, 0.5, 2.0].map(f)).unwrap();
        let mut pose =
            || PoseSpec::quaternion([0; 4].map(|_| f(rng.unit())), [0; 3].map(|_| f(3.0 * rng.unit()))).unwrap();
        let q = Distance { a: Posed::new("a", cube(), pose()), b: Posed::new("b", cube(), pose()) };
        let exact = q.answer::<Q>().unwrap().output;
        let d = exact.distance_squared.to_f64().sqrt();
        let good = DistanceClaim {
            status: Some(exact.status),
            distance: Some(f(d)),
            features: Some(exact.features.clone()),
            ..Default::default()
        };
        tally(judged_alike(&q, &good, &tol));
        let wrong =
            DistanceClaim { distance: Some(f(d + 1e-6)), distance_squared: Some(f(d * d)), ..Default::default() };
        tally(judged_alike(&q, &wrong, &tol));
        let edge = DistanceClaim { distance_squared: Some(&exact.distance_squared + &tol.abs), ..Default::default() };
        let abs_only = Tolerance::new(tol.abs.clone(), Q::from_i64(0)).unwrap();
        // (Apart: the squared distance is no double, and its enclosure has width.)
        let decided = judged_alike(&q, &edge, &abs_only);
        assert!(
            !decided || exact.status != touchstone::vclip::Status::Separated,
            "an edge claim needs the exact value"
        );
    }
    // Degenerate pairs (touching, sunk): the interval run falls back, the verdicts still agree.
    for i in 0..12 {
        let mut side = || (3 + (i % 3) as u8, [0; 4].map(|_| rng.int(2) as i8), [0; 3].map(|_| rng.int(12) as i8));
        let (a, b) = (side(), side());
        let cloud: Vec<[i8; 3]> = (0..8).map(|_| [0; 3].map(|_| rng.int(50) as i8)).collect();
        let (sa, sb) = convex_pair(a, b, &cloud, [Placement::TouchingAbove, Placement::Sunk][i % 2]);
        let q = Distance {
            a: Posed::new("a", polyhedron(&sa), PoseSpec::identity()),
            b: Posed::new("b", polyhedron(&sb), PoseSpec::identity()),
        };
        let claim = DistanceClaim {
            status: Some(touchstone::vclip::Status::Separated),
            distance: Some(f(0.0)),
            ..Default::default()
        };
        judged_alike(&q, &claim, &tol);
    }
    // Box sweeps and CCD: an engine's time (the exact one in binary64), and one 1e-6 late.
    for _ in 0..6 {
        let q = spinning_sweep(&mut rng);
        let exact = q.answer::<Q>().unwrap().output;
        let t = exact.toi.as_ref().map(|t| f(t.to_f64()));
        let ids = exact.pair.map(|p| [box_feature_id(&p.a), box_feature_id(&p.b)]);
        let good = ToiBoxesClaim {
            collides: Some(exact.collides),
            toi: t.clone(),
            kind: exact.pair.map(|p| p.kind),
            features: ids,
            ..Default::default()
        };
        tally(judged_alike(&q, &good, &tol));
        let late = ToiBoxesClaim { toi: Some(t.map_or(f(0.5), |t| t + f(1e-6))), ..Default::default() };
        tally(judged_alike(&q, &late, &tol));
    }
    for i in 0..40 {
        let kind = if i % 2 == 0 { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
        let mut p = || Point3::new(f(rng.unit()), f(rng.unit()), f(rng.unit()));
        let q = Ccd { kind, t0: [0; 4].map(|_| p()), t1: [0; 4].map(|_| p()) };
        let exact = q.answer::<Q>().unwrap().output;
        let t = exact.toi.as_ref().map(|t| f(t.to_f64()));
        tally(judged_alike(&q, &CcdClaim { collides: Some(exact.collides), toi: t.clone() }, &tol));
        tally(judged_alike(&q, &CcdClaim { collides: Some(!exact.collides), toi: None }, &tol));
    }
    // Generic inputs: (nearly) every judgement decided on enclosures.
    eprintln!("{enclosed} of {total} judged on enclosures");
    assert!(enclosed * 10 >= total * 9, "{enclosed} of {total} judged on enclosures");
}

/// A shape cast (`toi`): b, under `pose`, moving at `v` towards a, at rest.
fn cast(a: ShapeSpec, b: ShapeSpec, pose: PoseSpec, v: [Q; 3]) -> Toi<Q> {
    let [x, y, z] = v;
    Toi {
        a: Posed::new("a", a, PoseSpec::identity()),
        b: Posed::new("b", b, pose),
        velocity_a: nalgebra::Vector3::new(Q::from_i64(0), Q::from_i64(0), Q::from_i64(0)),
        velocity_b: nalgebra::Vector3::new(x, y, z),
        interval: [Q::from_i64(0), Q::from_i64(1)],
    }
}

#[test]
fn shape_casts_on_grids_and_generic_poses() {
    let mut rng = Rng(0x70_1f17);
    // Grid hulls (coplanar ties) and boxes under small integer quaternions moving on a grid:
    // face on face, edge on edge, grazes and ties between axes' entry times.
    let mut degenerate = FilterCounts::default();
    for i in 0..48 {
        let mut shape = |k: usize| {
            if k % 2 == 0 {
                ShapeSpec::cuboid([0; 3].map(|_| Q::from_i64(1 + rng.int(1).abs()))).unwrap()
            } else {
                let pts = (0..6)
                    .map(|_| Point3::new(Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2))));
                ShapeSpec::ConvexHull(pts.collect())
            }
        };
        let (a, b) = (shape(i), shape(i / 2));
        let quat = [1 + rng.int(1).abs(), rng.int(1), rng.int(1), rng.int(1)].map(Q::from_i64);
        let pose = PoseSpec::quaternion(quat, [0; 3].map(|_| Q::from_i64(rng.int(6)))).unwrap();
        let q = cast(a, b, pose, [0; 3].map(|_| Q::from_i64(rng.int(9))));
        if q.answer::<Q>().is_err() {
            continue; // a flat hull
        }
        add(&mut degenerate, same(&q));
    }
    assert!(degenerate.decided >= 5 && degenerate.fallbacks >= 5, "{degenerate:?}");
    // Boxes under binary64 quaternion poses, cast at binary64 velocities (an engine's shape
    // cast): decided on intervals, hits and misses alike; the exact time constructed.
    let mut generic = FilterCounts::default();
    let (mut hits, mut enclosed) = (0, 0);
    for _ in 0..10 {
        let f = |x: f64| Q::from_f64(x).unwrap();
        let cube = || ShapeSpec::cuboid([1.0, 0.5, 2.0].map(f)).unwrap();
        let pose = PoseSpec::quaternion([0; 4].map(|_| f(rng.unit())), [f(6.0), f(rng.unit()), f(rng.unit())]).unwrap();
        let q = cast(cube(), cube(), pose, [f(-8.0 * rng.unit().abs()), f(rng.unit()), f(rng.unit())]);
        let before = filter_counts();
        let exact = exact_answer(&q).unwrap();
        let reference = q.answer::<Q>().unwrap();
        assert_eq!(exact.output, reference.output, "{q:?}");
        let after = filter_counts();
        generic.fallbacks += after.fallbacks - before.fallbacks;
        generic.decided += after.decided - before.decided;
        generic.cheap += after.cheap - before.cheap;
        // An engine's answer (the exact time in binary64) and one 1e-6 late: judged on the
        // enclosures, with the exact verdict.
        let exact = exact.output;
        hits += usize::from(exact.collides);
        let t = exact.toi.as_ref().map(|t| f(t.to_f64()));
        let good =
            ToiClaim { collides: Some(exact.collides), toi: t.clone(), at_start: exact.at_start, features: None };
        enclosed += usize::from(judged_alike_on(&q, &reference, &good, &Tolerance::default()));
        let late = ToiClaim { toi: Some(t.map_or(f(0.5), |t| t + f(1e-6))), ..Default::default() };
        enclosed += usize::from(judged_alike_on(&q, &reference, &late, &Tolerance::default()));
        // A claimed pair is judged exactly (the intervals name none).
        if let Some(features) = exact.features {
            let pair = ToiClaim { features: Some(features), ..Default::default() };
            assert!(!judged_alike_on(&q, &reference, &pair, &Tolerance::default()));
        }
    }
    assert_eq!(generic.fallbacks, 0, "{generic:?}");
    // Generic inputs are decided by the first stage, the values with bounds.
    assert_eq!((generic.cheap, generic.decided), (10, 10), "{generic:?}");
    assert!(hits >= 4, "{hits} hits");
    assert!(enclosed >= 18, "{enclosed} of 20 judged on enclosures");
}

/// `agrees` gives `both`'s verdict on every generator, settling it on the run on values with
/// bounds for generic inputs (box pairs and hulls under binary64 poses, hull validation,
/// orientation tests on generic doubles) and leaving the degenerate ones (touching, coplanar,
/// grid points) to the exact run whenever the run cannot tell.
#[test]
fn agrees_gives_the_verdict_of_both() {
    use touchstone::query::{agrees, both, Orient3d};
    fn alike<Qy: Query + std::fmt::Debug>(q: &Qy) -> u64 {
        let before = filter_counts().agreed;
        let verdict = agrees(q).map(|v| v.is_ok());
        let settled = filter_counts().agreed - before;
        assert_eq!(verdict.ok(), both(q).ok().map(|b| b.agreement.is_ok()), "{q:?}");
        settled
    }
    let mut rng = Rng(0x5eed_ab1e);
    let f = |x: f64| Q::from_f64(x).unwrap();
    let (mut generic, mut degenerate, mut n_degenerate) = (0, 0, 0);
    for i in 0..40 {
        // Degenerate: the convex pairs of the contract, touching and sunk by construction.
        let mut side = || {
            let k = rng.int(3).unsigned_abs() as u8 + 3 * (rng.int(1).unsigned_abs() as u8);
            (k, [0; 4].map(|_| rng.int(3) as i8), [0; 3].map(|_| rng.int(24) as i8))
        };
        let (a, b) = (side(), side());
        let cloud: Vec<[i8; 3]> = (0..10).map(|_| [0; 3].map(|_| rng.int(100) as i8)).collect();
        let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][i % 3];
        let (sa, sb) = convex_pair(a, b, &cloud, placement);
        let q = Distance {
            a: Posed::new("a", polyhedron(&sa), PoseSpec::identity()),
            b: Posed::new("b", polyhedron(&sb), PoseSpec::identity()),
        };
        degenerate += alike(&q);
        n_degenerate += 1;
        // Generic: boxes and hulls under binary64 quaternion poses.
        let cube = ShapeSpec::cuboid([1.0, 0.5, 2.0].map(f)).unwrap();
        let hull =
            ShapeSpec::ConvexHull((0..8).map(|_| Point3::new(f(rng.unit()), f(rng.unit()), f(rng.unit()))).collect());
        let mut pose =
            || PoseSpec::quaternion([0; 4].map(|_| f(rng.unit())), [0; 3].map(|_| f(3.0 * rng.unit()))).unwrap();
        let (pa, pb) = (pose(), pose());
        generic += alike(&Distance { a: Posed::new("a", cube, pa), b: Posed::new("b", hull.clone(), pb) });
        generic += alike(&Validate::new(hull));
        let mut p = || Point3::new(f(rng.unit()), f(rng.unit()), f(rng.unit()));
        generic += alike(&Orient3d { points: [p(), p(), p(), p()] });
    }
    // Grid orientation tests, coplanar by construction: zero exactly, decided on points.
    let g = |x: i64, y: i64, z: i64| Point3::new(Q::from_i64(x), Q::from_i64(y), Q::from_i64(z));
    assert_eq!(alike(&Orient3d { points: [g(0, 0, 0), g(2, 0, 0), g(0, 2, 0), g(1, 1, 0)] }), 1);
    assert_eq!(generic, 120, "generic verdicts settled on the filter run: {generic} of 120");
    assert!(degenerate < n_degenerate, "every degenerate verdict was settled without the exact run");
}
