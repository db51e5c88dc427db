//! The `toi` op (convex shapes under constant linear velocities): hand-computed first contacts,
//! the exact answer against the primitive CCD over every vertex–face and edge–edge pair, and
//! `f64` against exact under the agreement contract.

mod common;
use common::Rng;

use num_rational::BigRational;
use touchstone::geom::{Point3, Vector3};
use touchstone::query::spec::posed_convex;
use touchstone::query::{
    both, exact_answer, AtStart, Ccd, PoseSpec, Posed, Query, ShapeSpec, Toi, ToiClaim, Tolerance,
};
use touchstone::scalar::{ratio, Scalar};
use touchstone::sweep::CcdKind;

type Q = BigRational;

fn q(p: i64, d: i64) -> Q {
    ratio(p, d)
}

fn cube(h: i64) -> ShapeSpec {
    ShapeSpec::cuboid([h, h, h].map(Q::from_i64)).unwrap()
}

fn at(quat: [i64; 4], t: [Q; 3]) -> PoseSpec {
    PoseSpec::quaternion(quat.map(Q::from_i64), t).unwrap()
}

fn vec3(x: Q, y: Q, z: Q) -> Vector3<Q> {
    Vector3::new(x, y, z)
}

fn toi(b_pose: PoseSpec, va: Vector3<Q>, vb: Vector3<Q>, interval: [Q; 2]) -> Toi {
    Toi {
        a: Posed::new("a", cube(1), PoseSpec::identity()),
        b: Posed::new("b", cube(1), b_pose),
        velocity_a: va,
        velocity_b: vb,
        interval,
    }
}

fn zero() -> Vector3<Q> {
    vec3(q(0, 1), q(0, 1), q(0, 1))
}

fn time(out: &touchstone::query::ToiOutput<Q>) -> Option<Q> {
    out.toi.as_ref().map(|t| t.to_rational().expect("a rational time"))
}

#[test]
fn first_contacts_computed_by_hand() {
    let unit = [q(0, 1), q(1, 1)];
    let x = |c: i64| [q(c, 1), q(0, 1), q(0, 1)];
    // Unit-half-extent cubes 5 apart, gap 3, closing at 4: t = 3/4 (face on face).
    let head_on = toi(at([1, 0, 0, 0], x(5)), zero(), vec3(q(-4, 1), q(0, 1), q(0, 1)), unit.clone());
    let out = head_on.answer::<Q>().unwrap().output;
    assert!(out.collides);
    assert_eq!(time(&out), Some(q(3, 4)));
    assert_eq!(out.at_start, None);
    // The touching pair it names touches: a claim of it passes, as does the time.
    let claim =
        ToiClaim { collides: Some(true), toi: Some(q(3, 4)), features: out.features.clone(), ..Default::default() };
    let exact = head_on.answer::<Q>().unwrap();
    assert!(head_on.judge(&exact, &claim, &Tolerance::default(), 12).unwrap().ok());
    // Face on face: any touching pair passes (a tie), a's +x face with b's −x face among them
    // (a box's vertex k has coordinate i positive when bit i of k is set); the far faces fail.
    let face = |ids: [usize; 4]| touchstone::query::FeatureId::face(ids.to_vec());
    let facing = ToiClaim { features: Some([face([1, 3, 5, 7]), face([0, 2, 4, 6])]), ..Default::default() };
    assert!(head_on.judge(&exact, &facing, &Tolerance::default(), 12).unwrap().ok());
    let far = ToiClaim { features: Some([face([0, 2, 4, 6]), face([1, 3, 5, 7])]), ..Default::default() };
    assert!(!head_on.judge(&exact, &far, &Tolerance::default(), 12).unwrap().ok());
    // A time 1e-6 late fails.
    let late = ToiClaim { toi: Some(q(750_001, 1_000_000)), ..Default::default() };
    assert!(!head_on.judge(&exact, &late, &Tolerance::default(), 12).unwrap().ok());
    // Closing at 2: t = 3/2, outside [0, 1] but inside [0, 2].
    let slow = toi(at([1, 0, 0, 0], x(5)), zero(), vec3(q(-2, 1), q(0, 1), q(0, 1)), unit.clone());
    assert!(!slow.answer::<Q>().unwrap().output.collides);
    let longer = Toi { interval: [q(0, 1), q(2, 1)], ..slow };
    assert_eq!(time(&longer.answer::<Q>().unwrap().output), Some(q(3, 2)));
    // b turned about z by the exact rotation q = (2, 0, 0, 1) (cos = 3/5, sin = 4/5): its
    // extent along x is 3/5 + 4/5 = 7/5, so the gap is 5 − 1 − 7/5 = 13/5 and t = 13/20,
    // a's face meeting b's edge.
    let turned = toi(at([2, 0, 0, 1], x(5)), zero(), vec3(q(-4, 1), q(0, 1), q(0, 1)), unit.clone());
    assert_eq!(time(&turned.answer::<Q>().unwrap().output), Some(q(13, 20)));
    // Both moving: only the relative velocity counts (a at +1, b at −3: closing at 4).
    let both_move =
        toi(at([2, 0, 0, 1], x(5)), vec3(q(1, 1), q(0, 1), q(0, 1)), vec3(q(-3, 1), q(0, 1), q(0, 1)), unit.clone());
    assert_eq!(time(&both_move.answer::<Q>().unwrap().output), Some(q(13, 20)));
}

#[test]
fn contacts_at_the_start_and_without_relative_motion() {
    let unit = [q(0, 1), q(1, 1)];
    let x = |c: i64| [q(c, 1), q(0, 1), q(0, 1)];
    let same = vec3(q(1, 1), q(1, 1), q(1, 1));
    // Overlapping, zero relative velocity (parry's case): collides at t0, overlapping.
    let out = toi(at([1, 0, 0, 0], x(1)), same.clone(), same.clone(), unit.clone()).answer::<Q>().unwrap().output;
    assert_eq!((out.collides, time(&out), out.at_start), (true, Some(q(0, 1)), Some(AtStart::Overlapping)));
    assert_eq!(out.features, None);
    // Apart, zero relative velocity: never.
    let out = toi(at([1, 0, 0, 0], x(3)), same.clone(), same, unit.clone()).answer::<Q>().unwrap().output;
    assert!(!out.collides && out.toi.is_none());
    // Face on face at t0, moving apart: touching at t0.
    let out = toi(at([1, 0, 0, 0], x(2)), zero(), vec3(q(1, 1), q(0, 1), q(0, 1)), unit.clone())
        .answer::<Q>()
        .unwrap()
        .output;
    assert_eq!((time(&out), out.at_start), (Some(q(0, 1)), Some(AtStart::Touching)));
    assert!(out.features.is_some());
    // Sliding face on face (velocity in the contact plane): touching throughout, never
    // overlapping, so touching at t0.
    let out = toi(at([1, 0, 0, 0], [q(0, 1), q(2, 1), q(0, 1)]), zero(), vec3(q(1, 1), q(0, 1), q(0, 1)), unit.clone())
        .answer::<Q>()
        .unwrap()
        .output;
    assert_eq!((time(&out), out.at_start), (Some(q(0, 1)), Some(AtStart::Touching)));
    // Sliding past at exactly the touching height from afar: b at (−5, 2, 0) moving +x by 10
    // meets a at t = 3/10 (edge on edge, then sliding), still only touching.
    let out =
        toi(at([1, 0, 0, 0], [q(-5, 1), q(2, 1), q(0, 1)]), zero(), vec3(q(10, 1), q(0, 1), q(0, 1)), unit.clone())
            .answer::<Q>()
            .unwrap()
            .output;
    assert_eq!((time(&out), out.at_start), (Some(q(3, 10)), None));
    // Missing by a hair: one unit of 2⁻⁴⁰ higher.
    let hair = q(2, 1) + Q::new(1.into(), (1u64 << 40).into());
    let out = toi(at([1, 0, 0, 0], [q(-5, 1), hair, q(0, 1)]), zero(), vec3(q(10, 1), q(0, 1), q(0, 1)), unit.clone())
        .answer::<Q>()
        .unwrap()
        .output;
    assert!(!out.collides);
    // An empty interval is refused; a zero-length one answers at t0.
    let bad = toi(at([1, 0, 0, 0], x(5)), zero(), zero(), [q(1, 1), q(0, 1)]);
    assert!(bad.answer::<Q>().is_err());
    let point = toi(at([1, 0, 0, 0], x(2)), zero(), zero(), [q(1, 2), q(1, 2)]).answer::<Q>().unwrap().output;
    assert_eq!(time(&point), Some(q(1, 2)));
}

/// The first time over every vertex–face (fan triangles) and edge–edge pair of the primitive
/// CCD on [0, 1], the shapes' points moving by their velocities.
fn primitive_first(query: &Toi) -> Option<Q> {
    let (ca, cb) = (posed_convex::<Q, Q>(&query.a).unwrap(), posed_convex::<Q, Q>(&query.b).unwrap());
    let (sa, sb) = (&ca.built.solid, &cb.built.solid);
    let moved = |p: &Point3<Q>, v: &Vector3<Q>| p + v;
    let mut best: Option<touchstone::poly::Algebraic> = None;
    let mut consider = |c: Ccd| {
        if let Some(t) = exact_answer(&c).unwrap().output.toi {
            if best.as_ref().is_none_or(|b| t < *b) {
                best = Some(t);
            }
        }
    };
    for (x, y, vx, vy) in
        [(sa, sb, &query.velocity_a, &query.velocity_b), (sb, sa, &query.velocity_b, &query.velocity_a)]
    {
        for p in x.vertices() {
            for f in y.faces() {
                for k in 1..f.len() - 1 {
                    let tri = [f[0], f[k], f[k + 1]].map(|i| y.vertex(i).clone());
                    let t0 = [p.clone(), tri[0].clone(), tri[1].clone(), tri[2].clone()];
                    let t1 = [moved(p, vx), moved(&tri[0], vy), moved(&tri[1], vy), moved(&tri[2], vy)];
                    consider(Ccd { kind: CcdKind::VertexFace, t0, t1 });
                }
            }
        }
    }
    for &(u, v) in sa.edges() {
        for &(w, z) in sb.edges() {
            let (va, vb) = (&query.velocity_a, &query.velocity_b);
            let t0 = [sa.vertex(u).clone(), sa.vertex(v).clone(), sb.vertex(w).clone(), sb.vertex(z).clone()];
            let t1 = [moved(&t0[0], va), moved(&t0[1], va), moved(&t0[2], vb), moved(&t0[3], vb)];
            consider(Ccd { kind: CcdKind::EdgeEdge, t0, t1 });
        }
    }
    best.map(|t| t.to_rational().expect("a linear contact time is rational"))
}

#[test]
fn the_first_contact_is_the_primitive_ccd_minimum() {
    // Small grid hulls (coplanar ties) and boxes under exact rational rotations, moving on a
    // grid: every contact that starts after t0 is the earliest primitive contact.
    let mut rng = Rng(0x7011_5eed);
    let mut checked = 0;
    for i in 0..14 {
        let hull = |rng: &mut Rng| {
            let pts: Vec<Point3<Q>> = (0..5)
                .map(|_| Point3::new(Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2)), Q::from_i64(rng.int(2))))
                .collect();
            ShapeSpec::ConvexHull(pts)
        };
        let shape = |rng: &mut Rng, k: usize| if k % 2 == 0 { cube(1 + rng.int(1).abs()) } else { hull(rng) };
        let (a, b) = (shape(&mut rng, i), shape(&mut rng, i / 2));
        let quat = [1 + rng.int(1).abs(), rng.int(1), rng.int(1), rng.int(1)];
        let pos = [0; 3].map(|_| Q::from_i64(rng.int(6)));
        let v = vec3(Q::from_i64(rng.int(9)), Q::from_i64(rng.int(9)), Q::from_i64(rng.int(9)));
        let query = Toi {
            a: Posed::new("a", a, PoseSpec::identity()),
            b: Posed::new("b", b, at(quat, pos)),
            velocity_a: zero(),
            velocity_b: v,
            interval: [q(0, 1), q(1, 1)],
        };
        let Ok(exact) = query.answer::<Q>() else { continue }; // a flat hull: not a solid
        let out = exact.output.clone();
        if out.at_start == Some(AtStart::Overlapping) {
            continue; // no boundary contact need start it
        }
        assert_eq!(time(&out), primitive_first(&query), "{query:?}");
        // The pair it names touches at that time (judged exactly: their distance there is 0).
        if out.collides {
            let claim = ToiClaim { features: out.features.clone(), ..Default::default() };
            let verdict = query.judge(&exact, &claim, &Tolerance::default(), 12).unwrap();
            assert!(out.features.is_some() && verdict.ok(), "{query:?}\n{verdict:?}");
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} checked");
}

#[test]
fn skipping_a_boxs_repeated_axes_changes_no_contact() {
    // A box's opposite faces and parallel edges repeat axes (15 distinct of 156); the casts
    // skip the repeats. On grid boxes under exact rational rotations, moving on a grid (ties
    // between axes are common: face-on-face, edge-on-edge), the window found with the skips
    // is the one found through every axis: the same time, start state and entry axes.
    use touchstone::separation::{first_contact, Parallels};
    let mut rng = Rng(0x9a2a_11e1);
    let mut hits = 0;
    for _ in 0..300 {
        let quat = [rng.int(2), rng.int(2), rng.int(2), rng.int(2)];
        if quat == [0; 4] {
            continue;
        }
        let pos = [0; 3].map(|_| Q::from_i64(rng.int(6)));
        let a = Posed::new("a", cube(1 + rng.int(1).abs()), PoseSpec::identity());
        let b = Posed::new("b", cube(1), at(quat, pos));
        let (ca, cb) = (posed_convex::<Q, Q>(&a).unwrap(), posed_convex::<Q, Q>(&b).unwrap());
        let skips = |p: &Parallels| {
            (0..12).filter(|&e| p.edge_repeats(e)).count() + (0..6).filter(|&f| p.face_repeats(f)).count()
        };
        assert_eq!((skips(&ca.parallels), skips(&cb.parallels)), (12, 12), "a box has 3 face and 3 edge classes");
        let v = vec3(Q::from_i64(rng.int(9)), Q::from_i64(rng.int(9)), Q::from_i64(rng.int(9)));
        let t = [q(0, 1), q(1, 1)];
        let (sa, sb) = (&ca.built.solid, &cb.built.solid);
        let all = first_contact(sa, sb, &v, [&t[0], &t[1]], [&Parallels::none(), &Parallels::none()]).unwrap();
        let skipped = first_contact(sa, sb, &v, [&t[0], &t[1]], [&ca.parallels, &cb.parallels]).unwrap();
        let key = |c: &touchstone::separation::LinearContact<Q>| {
            c.hit.as_ref().map(|h| (h.time.value.clone(), h.from_start, h.overlapping, h.entry.clone()))
        };
        assert_eq!(key(&all), key(&skipped), "{quat:?} {v:?}");
        hits += usize::from(all.hit.is_some());
    }
    assert!(hits >= 40, "{hits} hits");
}

#[test]
fn f64_agrees_with_exact_under_the_contract() {
    let mut rng = Rng(0xf64f_0011);
    for _ in 0..40 {
        let f = |rng: &mut Rng| Q::from_f64(rng.unit()).unwrap();
        let quat = [0; 4].map(|_| f(&mut rng));
        let pos = [0; 3].map(|_| f(&mut rng) * Q::from_i64(4));
        let v = vec3(f(&mut rng) * Q::from_i64(-8), f(&mut rng) * Q::from_i64(8), f(&mut rng) * Q::from_i64(8));
        let query = Toi {
            a: Posed::new("a", cube(1), PoseSpec::identity()),
            b: Posed::new("b", cube(1), PoseSpec::quaternion(quat, pos).unwrap()),
            velocity_a: zero(),
            velocity_b: v,
            interval: [q(0, 1), q(1, 1)],
        };
        let b = both(&query).unwrap();
        assert!(b.agreement.is_ok(), "{query:?}\n{:?}\n{:?}", b.exact.output, b.fast.map(|f| f.output));
    }
}

#[test]
fn a_step_limit_ends_a_large_cast_with_a_limit_error() {
    // Two hulls of 60 integer points near a sphere of radius 50 (nearly all of them corners):
    // thousands of edge-pair axes, a step of the budget each.
    let mut rng = Rng(0x11_3175);
    let mut hull = || {
        let pts = (0..60)
            .map(|_| {
                let d = [0; 3].map(|_| rng.int(1000) as f64);
                let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1.0);
                let c = d.map(|x| Q::from_i64((50.0 * x / n).round() as i64));
                Point3::new(c[0].clone(), c[1].clone(), c[2].clone())
            })
            .collect();
        ShapeSpec::ConvexHull(pts)
    };
    let query = Toi {
        a: Posed::new("a", hull(), PoseSpec::identity()),
        b: Posed::new("b", hull(), at([1, 0, 0, 0], [q(200, 1), q(0, 1), q(0, 1)])),
        velocity_a: zero(),
        velocity_b: vec3(q(-300, 1), q(0, 1), q(0, 1)),
        interval: [q(0, 1), q(1, 1)],
    };
    let limited = touchstone::budget::Budget { steps: Some(20_000), ..Default::default() };
    // Within this budget both shapes are built (so the limit below is the axes' loop)...
    let built = touchstone::budget::with_budget(limited, || {
        posed_convex::<Q, Q>(&query.a).is_ok() && posed_convex::<Q, Q>(&query.b).is_ok()
    });
    assert!(built);
    let (sa, sb) = (posed_convex::<Q, Q>(&query.a).unwrap(), posed_convex::<Q, Q>(&query.b).unwrap());
    assert!(sa.built.solid.edge_count() * sb.built.solid.edge_count() > 20_000);
    // ... and the cast stops at the limit with a typed error.
    let e = touchstone::budget::with_budget(limited, || query.answer::<Q>()).unwrap_err();
    assert_eq!(e.kind, touchstone::query::ErrorKind::Limit, "{e:?}");
}

#[test]
fn box_casts_constructed_unposed_equal_the_posed_construction() {
    // A decided cast of two boxes meeting after t0 is constructed without posing either box
    // (the entry time and the extreme corners from the pose's undivided matrix): on boxes
    // under identity, integer and binary64 quaternions and matrix poses (shears and scalings,
    // some of negative determinant, which take the posed route), both moving on a grid (ties
    // between axes, face on face, edge on edge), the answer is the reference's, which poses
    // everything on `BigRational`.
    use touchstone::query::filter_counts;
    let mut rng = Rng(0xb0c5_ca57);
    let (mut constructed, mut sheared, mut faces, mut edges) = (0, 0, 0, 0);
    for i in 0..240 {
        let pose = |rng: &mut Rng, k: usize, t: &[Q; 3]| -> (PoseSpec, bool) {
            let t = t.clone();
            match k % 4 {
                0 => (PoseSpec::quaternion([1, 0, 0, 0].map(Q::from_i64), t).unwrap(), false),
                1 => {
                    let mut quat = [0; 4].map(|_| rng.int(2));
                    quat[0] = quat[0].abs() + 1;
                    (at(quat, t), false)
                }
                2 => {
                    let quat = [0; 4].map(|_| Q::from_f64(rng.unit()).unwrap());
                    (PoseSpec::quaternion(quat, t).unwrap(), false)
                }
                _ => {
                    // A shear and a scaling (half-integer entries), its determinant's sign at random.
                    let mut rows: [[Q; 4]; 3] = std::array::from_fn(|r| {
                        std::array::from_fn(|c| match c {
                            3 => t[r].clone(),
                            c if c == r => q(2 + rng.int(1), 2),
                            c if c > r => q(rng.int(2), 2),
                            _ => q(0, 1),
                        })
                    });
                    if rng.int(3) == 3 {
                        rows[2][2] = -rows[2][2].clone();
                    }
                    (PoseSpec::Matrix(rows), true)
                }
            }
        };
        let half = |rng: &mut Rng| ShapeSpec::cuboid([0; 3].map(|_| q(1 + rng.int(2).abs(), 2))).unwrap();
        // b starts 2 to 6 away on a grid and moves towards a (overshooting or falling short),
        // a drifts.
        let (ta, tb) = ([0; 3].map(|_| Q::from_i64(rng.int(1))), [0; 3].map(|_| Q::from_i64(rng.int(6))));
        let (pa, sa) = pose(&mut rng, i, &ta);
        let (pb, sb) = pose(&mut rng, i / 4, &tb);
        let grid =
            |rng: &mut Rng, m: i64| vec3(Q::from_i64(rng.int(m)), Q::from_i64(rng.int(m)), Q::from_i64(rng.int(m)));
        let towards = vec3(ta[0].clone() - &tb[0], ta[1].clone() - &tb[1], ta[2].clone() - &tb[2]);
        let velocity_b = towards * q(2 + rng.int(1), 2) + grid(&mut rng, 1);
        let query = Toi {
            a: Posed::new("a", half(&mut rng), pa),
            b: Posed::new("b", half(&mut rng), pb),
            velocity_a: grid(&mut rng, 1),
            velocity_b,
            interval: [q(0, 1), q(1, 1)],
        };
        let Ok(reference) = query.answer::<Q>() else { continue };
        let before = filter_counts();
        let filtered = exact_answer(&query).unwrap();
        assert_eq!(filtered.output, reference.output, "{query:?}");
        let out = reference.output;
        if out.collides && out.at_start.is_none() && filter_counts().decided > before.decided {
            constructed += 1;
            sheared += usize::from(sa || sb);
            let kinds = out.features.iter().flatten().map(|f| format!("{f:?}"));
            let kinds: Vec<String> = kinds.collect();
            faces += usize::from(kinds.iter().any(|k| k.starts_with("Face")));
            edges += usize::from(kinds.iter().filter(|k| k.starts_with("Edge")).count() == 2);
        }
    }
    eprintln!("{constructed} constructed: {sheared} sheared, {faces} on a face, {edges} edge on edge");
    assert!(
        constructed >= 120 && sheared >= 40 && faces >= 60 && edges >= 30,
        "{constructed} {sheared} {faces} {edges}"
    );
}
