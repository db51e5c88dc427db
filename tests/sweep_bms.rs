//! The box sweep of Albocher–Sarel (boundary of the Minkowski sum): its time equals the
//! separating-axis route's exactly, on times computed by hand and on random motions, and the
//! feature pair it reports really touches at that time (checked independently, in world
//! coordinates, with 4×4 determinants of homogeneous points evaluated at the algebraic time).

use touchstone::geom::Matrix4;
use touchstone::poly::{real_roots, Algebraic, Poly};
use touchstone::scalar::Sign;
use touchstone::sweep::{
    bms_sections, first_contact_bms, first_contact_sat, pair_touches, BmsContact, BoxFeature, BoxMotion, ContactKind,
    FeaturePair, SweepError,
};

#[path = "common/boxes.rs"]
mod boxes;
use boxes::*;

type P = Poly<Q>;

/// A box rotating by the quaternion q(t) = q0 + q1·t (v ↦ q v q̄, unnormalised, so
/// w(t) = |q(t)|²) with homogeneous translation column o(t) = o0 + o1·t + o2·t² (its centre is
/// o(t)/w(t)).
fn rotating(half: [Q; 3], q0: [Q; 4], q1: [Q; 4], o: [[Q; 3]; 3]) -> BoxMotion {
    let q: Vec<P> = (0..4).map(|k| P::from_coeffs(vec![q0[k].clone(), q1[k].clone()])).collect();
    let (w, x, y, z) = (&q[0], &q[1], &q[2], &q[3]);
    let sq = |a: &P| a * a;
    let two = |a: P| a.scale(&qi(2));
    let e = [
        [sq(w) + sq(x) - sq(y) - sq(z), two(x * y - w * z), two(x * z + w * y)],
        [two(x * y + w * z), sq(w) - sq(x) + sq(y) - sq(z), two(y * z - w * x)],
        [two(x * z - w * y), two(y * z + w * x), sq(w) - sq(x) - sq(y) + sq(z)],
    ];
    let n = sq(w) + sq(x) + sq(y) + sq(z);
    let coeff = |p: &P, k: usize| p.coeffs().get(k).cloned().unwrap_or_default();
    let motion = [0, 1, 2].map(|k| {
        let mut mk = zero4();
        for i in 0..3 {
            for j in 0..3 {
                mk[(i, j)] = coeff(&e[i][j], k);
            }
            mk[(i, 3)] = o[k][i].clone();
        }
        mk[(3, 3)] = coeff(&n, k);
        mk
    });
    BoxMotion { half, motion }
}

thread_local! {
    /// How many of this thread's hand cases the interval backend decided, and how many it
    /// left uncertain.
    static INTERVAL: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// The same sweep on the interval backend: the exact answer (collides, overlap at the start,
/// a time enclosing the exact one, a pair that touches at the exact time) or `Uncertain`.
fn interval_agrees(a: &BoxMotion, b: &BoxMotion, t0: &Q, t1: &Q, exact: &Option<BmsContact>) {
    filter_agrees::<touchstone::scalar::Interval>(a, b, t0, t1, exact);
    filter_agrees::<touchstone::scalar::MidRad>(a, b, t0, t1, exact);
}

/// [`interval_agrees`] on one filter backend (intervals, or values with bounds).
fn filter_agrees<F: touchstone::poly::FilterScalar>(
    a: &BoxMotion,
    b: &BoxMotion,
    t0: &Q,
    t1: &Q,
    exact: &Option<BmsContact>,
) {
    use touchstone::scalar::Uncertain;
    let conv = |m: &BoxMotion| BoxMotion::<F> {
        half: m.half.clone().map(|h| F::from_rational(&h)),
        motion: m.motion.clone().map(|x| x.map(|c| F::from_rational(&c))),
    };
    let got = first_contact_bms(&conv(a), &conv(b), &F::from_rational(t0), &F::from_rational(t1));
    let (decided, uncertain) = INTERVAL.with(|c| c.get());
    match got {
        Ok(i) => {
            INTERVAL.with(|c| c.set((decided + 1, uncertain)));
            assert_eq!(i.is_some(), exact.is_some(), "the {} backend decided the collision wrongly", F::NAME);
            if let (Some(i), Some(e)) = (i, exact) {
                assert_eq!(i.overlapping_at_start, e.overlapping_at_start);
                use std::cmp::Ordering::{Greater, Less};
                let (lo, hi) = (Q::from_float(i.time.lo()), Q::from_float(i.time.hi()));
                assert!(lo.is_none_or(|lo| e.time.cmp_rational(&lo) != Less), "{} ∌ {}", i.time, e.time);
                assert!(hi.is_none_or(|hi| e.time.cmp_rational(&hi) != Greater), "{} ∌ {}", i.time, e.time);
                if let Some(pair) = i.contact {
                    assert!(pair_touches(a, b, t0, t1, &e.time, pair.a, pair.b).unwrap(), "{pair:?} at {}", e.time);
                }
            }
        }
        Err(SweepError::Uncertain(Uncertain::Close))
        | Err(SweepError::Poly(touchstone::poly::PolyError::Uncertain(Uncertain::Close))) => {
            INTERVAL.with(|c| c.set((decided, uncertain + 1)))
        }
        Err(e) => panic!("the {} backend failed: {e}", F::NAME),
    }
}

/// Both routes; asserts they agree exactly (collides, time, overlap flag) and that the BMS
/// features touch, and that the interval backend gives the same answer or `Uncertain`.
/// Returns the BMS answer.
fn both(a: &BoxMotion, b: &BoxMotion, t0: &str, t1: &str) -> Option<BmsContact> {
    let (t0, t1) = (r(t0), r(t1));
    let bms = first_contact_bms(a, b, &t0, &t1).unwrap();
    interval_agrees(a, b, &t0, &t1, &bms);
    let sat = first_contact_sat(a, b, &t0, &t1).unwrap();
    assert_eq!(bms.as_ref().map(|c| &c.time), sat.as_ref().map(|c| &c.time), "BMS and SAT times differ");
    assert_eq!(bms.as_ref().map(|c| c.overlapping_at_start), sat.as_ref().map(|c| c.overlapping_at_start));
    if let Some(c) = &bms {
        assert_eq!(c.contact.is_none(), c.overlapping_at_start);
        if let Some(pair) = &c.contact {
            assert!(touches(a, b, pair, &c.time), "{pair:?} does not touch at {}", c.time);
        }
    }
    bms
}

// ---- Independent check that a feature pair touches, in world coordinates. ----

/// The homogeneous world point (X, Y, Z, W)(t) of the box vertex with id `v`.
fn world(bx: &BoxMotion, v: usize) -> [P; 4] {
    let x: [Q; 3] = [0, 1, 2].map(|k| if v >> k & 1 == 1 { bx.half[k].clone() } else { -bx.half[k].clone() });
    [0, 1, 2, 3].map(|i| {
        P::from_coeffs(
            (0..3)
                .map(|k| {
                    let mk = &bx.motion[k];
                    (0..3).fold(mk[(i, 3)].clone(), |acc, j| acc + mk[(i, j)].clone() * x[j].clone())
                })
                .collect(),
        )
    })
}

fn det3(m: [[&P; 3]; 3]) -> P {
    m[0][0] * &(m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * &(m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * &(m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// det of the 4×4 matrix with rows the homogeneous points: W₁W₂W₃W₄ times orient3d.
fn det4(p: [&[P; 4]; 4]) -> P {
    let mut acc = P::zero();
    for c in 0..4 {
        let cols: Vec<usize> = (0..4).filter(|&k| k != c).collect();
        let minor = det3([1, 2, 3].map(|r| [&p[r][cols[0]], &p[r][cols[1]], &p[r][cols[2]]]));
        let term = &p[0][c] * &minor;
        acc = if c % 2 == 0 { acc + term } else { acc - term };
    }
    acc
}

/// The sign of orient3d(p₁, p₂, p₃, p₄) of the Cartesian points at t.
fn orient(p: [&[P; 4]; 4], t: &Algebraic) -> i32 {
    let mut s = t.sign_of(&det4(p)).unwrap().as_i32();
    for q in p {
        s *= t.sign_of(&q[3]).unwrap().as_i32();
    }
    s
}

/// Whether the point `p` lies in the (closed) face `face` of box `bx` at t.
fn point_in_face(p: &[P; 4], bx: &BoxMotion, face: &[usize; 4], t: &Algebraic) -> bool {
    let q: Vec<[P; 4]> = face.iter().map(|&v| world(bx, v)).collect();
    if orient([&q[0], &q[1], &q[2], p], t) != 0 && orient([&q[0], &q[1], &q[3], p], t) != 0 {
        return false;
    }
    // An apex off the face: flip the bit the face's vertices share.
    let shared = (0..3).find(|&k| face.iter().all(|&v| v >> k & 1 == face[0] >> k & 1)).unwrap();
    let apex = world(bx, face[0] ^ (1 << shared));
    for (i, &vi) in face.iter().enumerate() {
        for (j, &vj) in face.iter().enumerate().skip(i + 1) {
            if (vi ^ vj).count_ones() != 1 {
                continue; // a diagonal
            }
            let k = (0..4).find(|&k| k != i && k != j).unwrap();
            let inner = orient([&q[i], &q[j], &apex, &q[k]], t);
            assert_ne!(inner, 0);
            if orient([&q[i], &q[j], &apex, p], t) * inner < 0 {
                return false;
            }
        }
    }
    true
}

fn edges_touch(a: &BoxMotion, ea: [usize; 2], b: &BoxMotion, eb: [usize; 2], t: &Algebraic) -> bool {
    let (a1, a2, b1, b2) = (world(a, ea[0]), world(a, ea[1]), world(b, eb[0]), world(b, eb[1]));
    if orient([&a1, &a2, &b1, &b2], t) != 0 {
        return false;
    }
    // A point off the common plane: some vertex of a.
    let apex = (0..8)
        .map(|v| world(a, v))
        .find(|e| orient([&a1, &a2, &b1, e], t) != 0 || orient([&a1, &a2, &b2, e], t) != 0)
        .unwrap();
    orient([&a1, &a2, &apex, &b1], t) * orient([&a1, &a2, &apex, &b2], t) <= 0
        && orient([&b1, &b2, &apex, &a1], t) * orient([&b1, &b2, &apex, &a2], t) <= 0
}

fn touches(a: &BoxMotion, b: &BoxMotion, pair: &FeaturePair, t: &Algebraic) -> bool {
    match (pair.kind, pair.a, pair.b) {
        (ContactKind::VertexFace, BoxFeature::Vertex(v), BoxFeature::Face(f)) => point_in_face(&world(a, v), b, &f, t),
        (ContactKind::FaceVertex, BoxFeature::Face(f), BoxFeature::Vertex(v)) => point_in_face(&world(b, v), a, &f, t),
        (ContactKind::EdgeEdge, BoxFeature::Edge(ea), BoxFeature::Edge(eb)) => edges_touch(a, ea, b, eb, t),
        _ => false,
    }
}

/// The vertex of a touching pair lies on the face's plane (the brief's minimal check, kept
/// visible in the hand tests).
fn on_plane(a: &BoxMotion, b: &BoxMotion, pair: &FeaturePair, t: &Algebraic) -> bool {
    let (v, f) = match (pair.a, pair.b) {
        (BoxFeature::Vertex(v), BoxFeature::Face(f)) => (world(a, v), f.map(|k| world(b, k))),
        (BoxFeature::Face(f), BoxFeature::Vertex(v)) => (world(b, v), f.map(|k| world(a, k))),
        _ => return false,
    };
    t.sign_of(&det4([&f[0], &f[1], &f[2], &v])).unwrap() == Sign::Zero
}

// ---- Hand-computed cases. ----

/// Found by `f64_bms_within_the_contract`: in binary64, d = det L (degree 24) at t₀ = −2 is a
/// value of 4,096 from terms of 10¹⁹, which the tolerance calls zero, and the sweep said the
/// motion was singular. Its sign is that of its factors w_a³ · det(A_a)² · det A_b, decided
/// well: now no contact, as exactly (and as the separating-axis route said all along).
/// Replay: `{"op": "toi_boxes", "backend": "both", "a": [0.5, 0.5, 0.5], "b": [0.5, 0.5, 0.5], ...}`
/// with the motions below and `"interval": [-2.0, -1.5]`.
#[test]
fn a_high_degree_determinant_that_cancels_in_binary64_is_not_a_singular_motion() {
    let m = |r: [[f64; 4]; 4]| Matrix4::from_fn(|i, j| r[i][j]);
    let a = BoxMotion {
        half: [0.5; 3],
        motion: [
            m([[2.0, 4.0, 4.0, 0.0], [-4.0, 4.0, -2.0, 0.0], [-4.0, -2.0, 4.0, 0.0], [0.0, 0.0, 0.0, 6.0]]),
            m([[0.0, 6.0, 6.0, 0.0], [-6.0, 4.0, -4.0, 0.0], [-6.0, -4.0, 4.0, 0.0], [0.0, 0.0, 0.0, 8.0]]),
            m([[-1.0, 2.0, 2.0, 0.0], [-2.0, 1.0, -2.0, 0.0], [-2.0, -2.0, 1.0, 0.0], [0.0, 0.0, 0.0, 3.0]]),
        ],
    };
    let b = BoxMotion {
        half: [0.5; 3],
        motion: [
            m([[-2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0]]),
            m([[-2.0, 0.0, 0.0, 0.0], [0.0, -2.0, 2.0, 0.5], [0.0, 2.0, 2.0, -0.5], [0.0, 0.0, 0.0, 2.0]]),
            m([[-1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.5], [0.0, 0.0, 0.0, 1.0]]),
        ],
    };
    let exact = |x: &BoxMotion<f64>| BoxMotion {
        half: x.half.map(|h| Q::from_float(h).unwrap()),
        motion: x.motion.map(|mk| mk.map(|v| Q::from_float(v).unwrap())),
    };
    let (ea, eb) = (exact(&a), exact(&b));
    let (t0, t1) = (Q::from_integer((-2).into()), Q::new((-3).into(), 2.into()));
    assert!(first_contact_bms(&ea, &eb, &t0, &t1).unwrap().is_none());
    let fast = first_contact_bms(&a, &b, &-2.0, &-1.5);
    assert!(matches!(fast, Ok(None)), "{:?}", fast.map(|c| c.map(|c| c.time)));
    let verdict = touchstone::sweep::contract::check_sweep_answer(&a, &b, -2.0, -1.5, fast.map(|c| c.map(|c| c.time)));
    assert!(verdict.is_ok(), "{verdict:?}");
}

#[test]
fn translating_boxes_meet_at_the_slab_time() {
    // B's centre x = 5 − 4t: the slabs |x| ≤ 1 and |x − (5 − 4t)| ≤ 1 meet at 5 − 4t = 2, t = 3/4
    // (y and z overlap throughout).
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("3/4")));
    assert!(!c.overlapping_at_start);
    // Face on face; the first face–vertex pair that touches: a's face x = +1 (ids 1, 3, 5, 7)
    // and b's vertex (−1, −1, −1) at (1, −1/2, −1).
    let pair = c.contact.unwrap();
    assert_eq!(
        pair,
        FeaturePair { kind: ContactKind::FaceVertex, a: BoxFeature::Face([1, 3, 5, 7]), b: BoxFeature::Vertex(0) }
    );
    assert!(on_plane(&a, &b, &pair, &c.time));
    // Passing beside: offset 3 in y > 1 + 1.
    let beside = translating(["1", "1", "1"], ["5", "3", "0"], ["-4", "0", "0"], ["0"; 3]);
    assert!(both(&a, &beside, "0", "1").is_none());
    // Arriving exactly at t1, and one instant too late.
    assert_eq!(both(&a, &b, "0", "3/4").unwrap().time.to_rational(), Some(r("3/4")));
    assert!(both(&a, &b, "0", "74/100").is_none());
    // Slabs in all three axes: centre (6 − 4t, 4 − 2t, −7 + 4t), halves a = (1, 2, 1/2),
    // b = (1/2, 1, 1): x meets for 6 − 4t ≤ 3/2 (t ≥ 9/8), y for 4 − 2t ≤ 3 (t ≥ 1/2),
    // z for 7 − 4t ≤ 3/2 (t ≥ 11/8): first contact at 11/8, on a's bottom face z = −1/2
    // (ids 0, 1, 2, 3), b coming from below.
    let a2 = still(["1", "2", "1/2"]);
    let b2 = translating(["1/2", "1", "1"], ["6", "4", "-7"], ["-4", "-2", "4"], ["0"; 3]);
    let c = both(&a2, &b2, "0", "2").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("11/8")));
    let pair = c.contact.unwrap();
    assert_eq!((pair.kind, pair.a), (ContactKind::FaceVertex, BoxFeature::Face([0, 1, 2, 3])));
    assert!(on_plane(&a2, &b2, &pair, &c.time));
    // Translations with dyadic data: intervals decide most of these exactly (ties between
    // equal candidate times, as at face on face, stay uncertain).
    let (decided, uncertain) = INTERVAL.with(|c| c.get());
    assert!(decided >= 3, "intervals decided {decided} of {}", decided + uncertain);
}

#[test]
fn quadratic_translation_meets_at_an_irrational_time() {
    // x(t) = 23/5 − t² reaches 2 when t² = 13/5: t = √(13/5) = 1.61245154965970993047…
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["23/5", "0", "0"], ["0"; 3], ["-1", "0", "0"]);
    let c = both(&a, &b, "0", "2").unwrap();
    assert!(!c.time.is_rational());
    assert_eq!(c.time.polynomial(), &Poly::from_coeffs(vec![r("-13/5"), r("0"), r("1")]));
    assert_eq!(c.time.to_decimal(20).unwrap(), "1.6124515496597099304");
    let pair = c.contact.unwrap();
    assert_eq!(pair.kind, ContactKind::FaceVertex);
    assert!(on_plane(&a, &b, &pair, &c.time));
}

#[test]
fn contact_at_the_start_and_grazing() {
    let a = still(["1", "1", "1"]);
    // Overlapping at t0: no feature pair.
    let inside = translating(["1", "1", "1"], ["1", "0", "0"], ["5", "0", "0"], ["0"; 3]);
    let c = both(&a, &inside, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start, c.contact), (Some(r("0")), true, None));
    // Touching at t0 and moving away: a touching pair at t0.
    let touching = translating(["1", "1", "1"], ["2", "0", "0"], ["1", "0", "0"], ["0"; 3]);
    let c = both(&a, &touching, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start), (Some(r("0")), false));
    assert_eq!(c.contact.unwrap().kind, ContactKind::FaceVertex);
    // Grazing: z(t) = 2 + (t − 1/2)² = 9/4 − t + t² touches the top face only at t = 1/2
    // (a double root of the gap), face on face.
    let graze = translating(["1", "1", "1"], ["0", "0", "9/4"], ["0", "0", "-1"], ["0", "0", "1"]);
    let c = both(&a, &graze, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1/2")));
    let pair = c.contact.unwrap();
    assert_eq!((pair.kind, pair.a), (ContactKind::FaceVertex, BoxFeature::Face([4, 5, 6, 7])));
    // Faces sliding on each other (touching throughout): the contact starts at t0, without
    // overlap.
    let slide = translating(["1", "1", "1"], ["0", "-1", "2"], ["0", "3", "0"], ["0"; 3]);
    let c = both(&a, &slide, "0", "1").unwrap();
    assert_eq!((c.time.to_rational(), c.overlapping_at_start), (Some(r("0")), false));
    // Sliding in the plane z = 2 from y = −5: B's y-range [−6 + 3t, −4 + 3t] first reaches
    // A's [−1, 1] at t = 1 = t1, touching along an edge on a face.
    let arrive = translating(["1", "1", "1"], ["0", "-5", "2"], ["0", "3", "0"], ["0"; 3]);
    let c = both(&a, &arrive, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1")));
    // Contact exactly at t1 = 3/4 of an approach, and an interval of length zero.
    let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
    assert_eq!(both(&a, &b, "3/4", "3/4").unwrap().time.to_rational(), Some(r("3/4")));
    assert!(both(&a, &b, "1/2", "1/2").is_none());
}

/// The grazing motion of `grazing_at_an_irrational_double_root`: A's centre x = −t²; B is
/// a pure translation written with the weight w(t) = 1 + t² (M_B = [[w·I, o], [0, w]]), its
/// centre x = (6 − 3t²)/(1 + t²). Unit boxes.
fn irrational_graze() -> (BoxMotion, BoxMotion) {
    let a = translating(["1", "1", "1"], ["0"; 3], ["0"; 3], ["-1", "0", "0"]);
    let w0 = m([["1", "0", "0", "6"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let w2 = m([["1", "0", "0", "-3"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let b = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [w0, zero4(), w2] };
    (a, b)
}

#[test]
fn grazing_at_an_irrational_double_root() {
    // The x gap is (6 − 3t²)/(1 + t²) + t² − 2 = (t² − 2)²/(1 + t²): never negative, zero
    // only at t = √2, a double root of the contact polynomial (y and z overlap throughout).
    // Under motions of degree 2 a single weight gives only quadratic gaps, whose double roots
    // are rational; two weights give this quartic.
    let (a, b) = irrational_graze();
    let c = both(&a, &b, "0", "2").unwrap();
    assert!(!c.time.is_rational() && !c.overlapping_at_start);
    assert_eq!(c.time.polynomial(), &Poly::from_coeffs(vec![r("-2"), r("0"), r("1")]));
    assert_eq!(c.time.to_decimal(20).unwrap(), "1.4142135623730950488");
    let pair = c.contact.unwrap();
    assert_eq!(pair.kind, ContactKind::FaceVertex);
    assert!(on_plane(&a, &b, &pair, &c.time));
    // It only grazes: stopping just before √2 misses, and starting just after it too.
    assert!(both(&a, &b, "0", "141/100").is_none());
    assert!(both(&a, &b, "142/100", "2").is_none());
    // The f64 sweep of the same (binary64-exact) input: a double root is where f64 may see
    // a near miss or a near touch; either must be admitted only within the budget.
    let (fa, fb) = (a.to_f64(), b.to_f64());
    let agreement = touchstone::sweep::contract::check_sweep_agreement(&fa, &fb, 0.0, 2.0)
        .unwrap_or_else(|d| panic!("{d}\nreplay: {}", toi_boxes_line(&fa, &fb, 0.0, 2.0)));
    assert_eq!(agreement, touchstone::contract::Agreement::WithinTolerance);
}

#[test]
fn edges_parallel_and_edge_on_face() {
    let a = still(["1", "1", "1"]);
    // Diagonal approach of aligned boxes: b's vertical edge x = y = −1 (local) reaches a's
    // vertical edge x = y = 1 when the centre (5 − 4t, 5 − 4t, 1/2) is at (2, 2): t = 3/4.
    // The edges are parallel and collinear there.
    let b = translating(["1", "1", "1"], ["5", "5", "1/2"], ["-4", "-4", "0"], ["0"; 3]);
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("3/4")));
    // A vertex of b on the closed face of a (on its edge): (−1, −1, −1) at (1, 1, −1/2).
    let pair = c.contact.unwrap();
    assert_eq!(
        pair,
        FeaturePair { kind: ContactKind::FaceVertex, a: BoxFeature::Face([1, 3, 5, 7]), b: BoxFeature::Vertex(0) }
    );
    // A long thin bar (half 3 × 1/4 × 1/4) lowered onto a's top face, across it: face on
    // face, but no vertex of either lies in the other's face; the bottom edge of b along x at
    // y' = −1/4 (ids 0, 1) crosses a's top edge x = −1 along y (ids 4, 6) at (−1, −1/4, 1).
    // Centre z = 3 − 2t, so 3 − 2t − 1/4 = 1 at t = 7/8.
    let bar = translating(["3", "1/4", "1/4"], ["0", "0", "3"], ["0", "0", "-2"], ["0"; 3]);
    let c = both(&a, &bar, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("7/8")));
    assert_eq!(
        c.contact.unwrap(),
        FeaturePair { kind: ContactKind::EdgeEdge, a: BoxFeature::Edge([4, 6]), b: BoxFeature::Edge([0, 1]) }
    );
    // Vertex on vertex: centre (5 − 4t, 2, 2) reaches (2, 2, 2) at t = 3/4, where the boxes
    // share only the point (1, 1, 1); a vertex of b on the (closed) face x = +1 of a.
    let b = translating(["1", "1", "1"], ["5", "2", "2"], ["-4", "0", "0"], ["0"; 3]);
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("3/4")));
    assert_eq!(
        c.contact.unwrap(),
        FeaturePair { kind: ContactKind::FaceVertex, a: BoxFeature::Face([1, 3, 5, 7]), b: BoxFeature::Vertex(0) }
    );
}

#[test]
fn a_tilted_box_meets_an_edge_with_an_edge() {
    // b = the unit cube turned by the rotation (1/7)[[3, 2, 6], [2, 6, −3], [−6, 3, 2]] (the
    // quaternion (3, 1, 2, 0)), centre (5 − 4t, 0, 1). Its edge from local (−1, −1, −1) to
    // (1, −1, −1) is c + ((3x' − 8)/7, (2x' − 3)/7, (−6x' − 5)/7); at t = 5/8 (c = (5/2, 0, 1))
    // its point x' = −5/6 is (1, −2/3, 1), on a's edge x = 1, z = 1 (ids 5, 7): a generic
    // edge–edge contact.
    let a = still(["1", "1", "1"]);
    let rows =
        [["3/7", "2/7", "6/7", "5"], ["2/7", "6/7", "-3/7", "0"], ["-6/7", "3/7", "2/7", "1"], ["0", "0", "0", "1"]];
    let mut m1 = zero4();
    m1[(0, 3)] = qi(-4);
    let b = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [m(rows), m1, zero4()] };
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("5/8")));
    assert_eq!(
        c.contact.unwrap(),
        FeaturePair { kind: ContactKind::EdgeEdge, a: BoxFeature::Edge([5, 7]), b: BoxFeature::Edge([0, 1]) }
    );
}

#[test]
fn a_sheared_box_is_a_parallelepiped() {
    // b = {c + A x : |x| ≤ (1, 1, 1/2)} with A = [[1, 1, 1/2], [0, 1, 0], [0, 0, 1]] (an affine
    // motion), c = (5 − 4t, 1/2, 0). Its point of least x is the vertex x = (−1, −1, −1/2)
    // (id 0) at c + (−9/4, −1, −1/2); it reaches a's face x = 1 when 5 − 4t − 9/4 = 1, t = 7/16,
    // at (1, −1/2, −1/2), inside the face: a generic face–vertex contact.
    let a = still(["1", "1", "1"]);
    let m0 = m([["1", "1", "1/2", "5"], ["0", "1", "0", "1/2"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
    let mut m1 = zero4();
    m1[(0, 3)] = qi(-4);
    let b = BoxMotion { half: [qi(1), qi(1), r("1/2")], motion: [m0, m1, zero4()] };
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("7/16")));
    let pair = c.contact.unwrap();
    assert_eq!(
        pair,
        FeaturePair { kind: ContactKind::FaceVertex, a: BoxFeature::Face([1, 3, 5, 7]), b: BoxFeature::Vertex(0) }
    );
    assert!(on_plane(&a, &b, &pair, &c.time));
    // The same with the roles swapped: a vertex of a (the parallelepiped) on b's face.
    let c = both(&b, &a, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("7/16")));
    let pair = c.contact.unwrap();
    assert_eq!(
        pair,
        FeaturePair { kind: ContactKind::VertexFace, a: BoxFeature::Vertex(0), b: BoxFeature::Face([1, 3, 5, 7]) }
    );
    assert!(on_plane(&b, &a, &pair, &c.time));
}

#[test]
fn spinning_plate_hits_an_edge() {
    // B (half 1/10 × 2 × 1) spins about its centre (5/2, 0, 0) by the quaternion (1, 0, 0, t):
    // M(t) = [R̃(t) | c·w(t)] with R̃ = [[1 − t², −2t, 0], [2t, 1 − t², 0], [0, 0, 1 + t²]] and
    // w(t) = 1 + t². Its long face x' = −1/10 reaches A's vertical edge at (1, 1):
    // (−3/2)(1 − t²) + 2t = −(1 + t²)/10, i.e. 8t² + 10t − 7 = (2t − 1)(4t + 7) = 0: t = 1/2.
    let a = still(["1", "1", "1"]);
    let q0 = [qi(1), qi(0), qi(0), qi(0)];
    let q1 = [qi(0), qi(0), qi(0), qi(1)];
    let o = [[r("5/2"), qi(0), qi(0)], [qi(0), qi(0), qi(0)], [r("5/2"), qi(0), qi(0)]];
    let b = rotating([r("1/10"), qi(2), qi(1)], q0.clone(), q1.clone(), o);
    let c = both(&a, &b, "0", "1").unwrap();
    assert_eq!(c.time.to_rational(), Some(r("1/2")));
    // a's edge (1, 1, z) on b's face x' = −1/10: reported as a's vertex (1, 1, −1), id 3, in
    // b's face x' < 0 (ids 0, 2, 4, 6).
    let pair = c.contact.unwrap();
    assert_eq!(
        pair,
        FeaturePair { kind: ContactKind::VertexFace, a: BoxFeature::Vertex(3), b: BoxFeature::Face([0, 2, 4, 6]) }
    );
    assert!(on_plane(&a, &b, &pair, &c.time));
}

#[test]
fn rotating_box_meets_at_a_root_of_a_known_quadratic() {
    // As above with centre (3, 0, 0) and half (1/2, 3, 1): the face x' = −1/2 reaches a's edge
    // (1, 1, z) when (1 − 3)(1 − t²) + 2t = −(1 + t²)/2, i.e. 5t² + 4t − 3 = 0:
    // t = (√19 − 2)/5 = 0.47177978870813…; the point (1, 1) is at y' = 2 sin θ + cos θ ≈ 2.18,
    // inside the face (|y'| ≤ 3), and b's top corner stays at y > 1, beside a.
    let a = still(["1", "1", "1"]);
    let q0 = [qi(1), qi(0), qi(0), qi(0)];
    let q1 = [qi(0), qi(0), qi(0), qi(1)];
    let o = [[qi(3), qi(0), qi(0)], [qi(0), qi(0), qi(0)], [qi(3), qi(0), qi(0)]];
    let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, o);
    let c = both(&a, &b, "0", "1").unwrap();
    let expected = real_roots(&Poly::from_coeffs(vec![qi(-3), qi(4), qi(5)]), &qi(0), &qi(1)).unwrap().remove(0);
    assert_eq!(c.time, expected);
    assert!(!c.time.is_rational());
    assert_eq!(c.time.to_decimal(12).unwrap(), "0.471779788708");
    let pair = c.contact.unwrap();
    assert_eq!(pair.kind, ContactKind::VertexFace);
    assert_eq!(pair.b, BoxFeature::Face([0, 2, 4, 6]));
    assert!(on_plane(&a, &b, &pair, &c.time));

    // Tilt b about x as well (quaternion (1, 1/5, 0, t)): a generic rotation; BMS equals SAT.
    let q0 = [qi(1), r("1/5"), qi(0), qi(0)];
    let q1 = [qi(0), qi(0), qi(0), qi(1)];
    let o = [[qi(3), qi(0), qi(0)], [qi(0), qi(0), qi(0)], [qi(3), qi(0), qi(0)]];
    let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, o);
    let c = both(&a, &b, "0", "1").unwrap();
    assert!(c.contact.is_some());
}

#[test]
fn no_collision_and_rotating_away() {
    let a = still(["1", "1", "1"]);
    // Spinning far away: centre 20(1 + t²)/(1 + 3t²) ≥ 20/3 on the x axis, radii √3 and √14.
    let q0 = [qi(1), qi(0), qi(0), qi(0)];
    let q1 = [qi(0), qi(1), qi(1), qi(1)];
    let o = [[qi(20), qi(0), qi(0)], z3(), [qi(20), qi(0), qi(0)]];
    let b = rotating([qi(1), qi(2), qi(3)], q0, q1, o);
    assert!(both(&a, &b, "0", "1").is_none());
    assert!(both(&a, &b, "-3", "2").is_none());
}

#[test]
fn sections_and_planes() {
    let a = still(["1", "1", "1"]);
    // Aligned translation: one section; the 30 planes collapse to the 6 face planes of the
    // sum (parallel edges give zero normals, the other pairs repeat the face planes).
    let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
    let s = bms_sections(&a, &b, &r("0"), &r("1")).unwrap();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].planes.len(), 6);
    // A generic rotation: several sections (octant switches), 30 planes in each.
    let q0 = [qi(1), r("1/5"), r("1/7"), qi(0)];
    let q1 = [qi(0), qi(0), qi(0), qi(1)];
    let o = [[qi(3), qi(0), qi(0)], z3(), [qi(3), qi(0), qi(0)]];
    let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, o);
    let s = bms_sections(&a, &b, &r("0"), &r("1")).unwrap();
    assert!(s.len() > 1, "{} sections", s.len());
    for sec in &s {
        assert_eq!(sec.planes.len(), 30);
        assert!(sec.start < sec.end);
        let count = |k| sec.planes.iter().filter(|p| p.kind == k).count();
        assert_eq!(
            (count(ContactKind::FaceVertex), count(ContactKind::VertexFace), count(ContactKind::EdgeEdge)),
            (6, 6, 18)
        );
    }
}

/// Both routes on a bad input: they must give the same typed error. Returns it.
fn both_err(a: &BoxMotion, b: &BoxMotion, t0: &str, t1: &str) -> SweepError {
    let (t0, t1) = (r(t0), r(t1));
    let bms = first_contact_bms(a, b, &t0, &t1).expect_err("BMS accepted a bad motion");
    let sat = first_contact_sat(a, b, &t0, &t1).expect_err("SAT accepted a bad motion");
    assert_eq!(bms, sat, "the two routes name different errors");
    bms
}

#[test]
fn bad_motions_are_typed_errors_on_both_routes() {
    let a = still(["1", "1", "1"]);
    let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
    assert_eq!(both_err(&a, &b, "1", "0"), SweepError::EmptyInterval);
    let flat = still(["1", "0", "1"]);
    assert_eq!(both_err(&flat, &b, "0", "1"), SweepError::BadHalfExtent { box_index: 0, axis: 1 });
    // A scale (1 − 2t) on x: singular at t = 1/2, for either box.
    let mut m1 = zero4();
    m1[(0, 0)] = r("-2");
    let collapsing = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [Matrix4::identity(), m1, zero4()] };
    assert_eq!(both_err(&a, &collapsing, "0", "1"), SweepError::Singular { box_index: 1 });
    assert_eq!(both_err(&collapsing, &a, "0", "1"), SweepError::Singular { box_index: 0 });
    // Singular exactly at t1 counts; just before it, the interval is fine.
    assert_eq!(both_err(&a, &collapsing, "0", "1/2"), SweepError::Singular { box_index: 1 });
    assert!(first_contact_bms(&a, &collapsing, &r("0"), &r("49/100")).is_ok());
    assert!(first_contact_sat(&a, &collapsing, &r("0"), &r("49/100")).is_ok());
    // A quaternion through zero: q(t) = (1 − 2t, 0, 0, 0), w = (1 − 2t)².
    let q = rotating(
        [qi(1), qi(1), qi(1)],
        [qi(1), qi(0), qi(0), qi(0)],
        [qi(-2), qi(0), qi(0), qi(0)],
        [[qi(5), qi(0), qi(0)], z3(), z3()],
    );
    assert_eq!(both_err(&a, &q, "0", "1"), SweepError::Singular { box_index: 1 });
    let mut proj = Matrix4::identity();
    proj[(3, 0)] = r("1");
    let projective = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [proj, zero4(), zero4()] };
    assert_eq!(both_err(&projective, &b, "0", "1"), SweepError::Projective { box_index: 0 });
}

mod random_motions {
    //! BMS against SAT on random motions: rational translations (quadratic), rotations by
    //! quaternions linear in t (quadratic entries, w(t) = |q(t)|²), and general affine motions
    //! (parallelepipeds), on small integer and half-integer grids so that ties (parallel faces,
    //! parallel edges, face-on-face and vertex-on-vertex contacts) are common. Both routes must
    //! give the same error or the same (collides, time, overlap flag), and the BMS pair must
    //! touch.
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;
    use touchstone::sweep::SweepError;

    /// `cases` cases (`BMS_CASES=n` runs more); motions singular in the interval are set aside
    /// after their typed refusal, at most a quarter of the cases (more fails the test).
    fn bms_config(cases: u32) -> ProptestConfig {
        let cases = std::env::var("BMS_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(cases);
        // About a fifth of random motion pairs are singular somewhere on [0, 1] and set aside:
        // at cases / 4 the seed 2954569789 ran out of rejects (6 of 28). Twice the cases keeps
        // the chance of that far below any run's.
        ProptestConfig { cases, max_global_rejects: 2 * cases, ..ProptestConfig::default() }
    }

    fn half() -> impl Strategy<Value = Q> {
        (1i64..=3).prop_map(|k| Q::new(k.into(), 2.into()))
    }

    fn small(lo: i64, hi: i64) -> impl Strategy<Value = Q> {
        (lo..=hi).prop_map(|k| Q::new(k.into(), 2.into()))
    }

    fn vec3(lo: i64, hi: i64) -> impl Strategy<Value = [Q; 3]> {
        [small(lo, hi), small(lo, hi), small(lo, hi)]
    }

    fn ints4(lo: i64, hi: i64) -> impl Strategy<Value = [Q; 4]> {
        [lo..=hi, lo..=hi, lo..=hi, lo..=hi].prop_map(|v| v.map(qi))
    }

    /// A homogeneous translation column o0 + o1·t + o2·t² that heads from o0 to near the
    /// origin by t = 1 (o1 = d − o0 − o2 with a small d), so that contacts after t0 are common.
    fn heading() -> impl Strategy<Value = [[Q; 3]; 3]> {
        (vec3(-8, 8), vec3(-2, 2), vec3(-2, 2)).prop_map(|(o0, d, o2)| {
            let o1 = [0, 1, 2].map(|i| d[i].clone() - o0[i].clone() - o2[i].clone());
            [o0, o1, o2]
        })
    }

    fn translation() -> impl Strategy<Value = [Matrix4<Q>; 3]> {
        heading().prop_map(|o| {
            let mut ms = [Matrix4::identity(), zero4(), zero4()];
            for (k, c) in o.into_iter().enumerate() {
                for i in 0..3 {
                    ms[k][(i, 3)] = c[i].clone();
                }
            }
            ms
        })
    }

    fn rotation() -> impl Strategy<Value = [Matrix4<Q>; 3]> {
        (ints4(-2, 2), ints4(-1, 1), heading())
            .prop_map(|(q0, q1, o)| rotating([qi(1), qi(1), qi(1)], q0, q1, o).motion)
    }

    fn affine() -> impl Strategy<Value = [Matrix4<Q>; 3]> {
        let entries = proptest::collection::vec(-2i64..=2, 9);
        let rates = proptest::collection::vec(-1i64..=1, 9);
        (entries, rates, heading()).prop_map(|(a0, a1, o)| {
            let mut ms = [zero4(), zero4(), zero4()];
            for i in 0..3 {
                for j in 0..3 {
                    // Three times the identity plus a small shear: often nonsingular.
                    ms[0][(i, j)] = qi(a0[3 * i + j] + if i == j { 3 } else { 0 });
                    ms[1][(i, j)] = qi(a1[3 * i + j]);
                }
                for (k, c) in o.iter().enumerate() {
                    ms[k][(i, 3)] = c[i].clone();
                }
            }
            ms[0][(3, 3)] = qi(1);
            ms
        })
    }

    fn motion() -> impl Strategy<Value = [Matrix4<Q>; 3]> {
        prop_oneof![translation(), rotation(), affine()]
    }

    fn interval() -> impl Strategy<Value = (Q, Q)> {
        prop_oneof![
            3 => Just((qi(0), qi(1))),
            1 => (-2i64..=1, 1i64..=3).prop_map(|(a, l)| (qi(a), qi(a) + Q::new(l.into(), 2.into())))
        ]
    }

    /// G·M for the constant rigid motion G = [R | (1, −2, 3/2)], R = (1/7)[[3, 2, 6],
    /// [2, 6, −3], [−6, 3, 2]] (the quaternion (3, 1, 2, 0)).
    fn moved(bx: &BoxMotion) -> BoxMotion {
        let g = m([
            ["3/7", "2/7", "6/7", "1"],
            ["2/7", "6/7", "-3/7", "-2"],
            ["-6/7", "3/7", "2/7", "3/2"],
            ["0", "0", "0", "1"],
        ]);
        BoxMotion { half: bx.half.clone(), motion: bx.motion.clone().map(|mk| &g * mk) }
    }

    proptest! {
        // BMS_CASES=n runs more cases (64 take about 20 s in a debug build).
        #![proptest_config(bms_config(64))]

        #[test]
        fn bms_equals_sat(ha in [half(), half(), half()], hb in [half(), half(), half()], ma in motion(), mb in motion(), (t0, t1) in interval()) {
            let a = BoxMotion { half: ha, motion: ma };
            let b = BoxMotion { half: hb, motion: mb };
            let clock = std::time::Instant::now();
            let sat = first_contact_sat(&a, &b, &t0, &t1);
            let ts = clock.elapsed();
            let bms = first_contact_bms(&a, &b, &t0, &t1);
            let tb = clock.elapsed() - ts;
            if std::env::var("BMS_STATS").is_ok() {
                eprintln!("STAT sat {:?} bms {:?} {:?}", ts, tb, bms.as_ref().map(|c| c.as_ref().map(|c| (c.overlapping_at_start, c.contact.map(|p| p.kind), c.time.is_rational()))));
            }
            match (bms, sat) {
                (Err(e), Err(f)) => prop_assert_eq!(e, f),
                (Ok(bms), Ok(sat)) => {
                    prop_assert_eq!(bms.as_ref().map(|c| &c.time), sat.as_ref().map(|c| &c.time));
                    prop_assert_eq!(bms.as_ref().map(|c| c.overlapping_at_start), sat.as_ref().map(|c| c.overlapping_at_start));
                    if let Some(c) = &bms {
                        prop_assert_eq!(c.contact.is_none(), c.overlapping_at_start);
                        if let Some(pair) = &c.contact {
                            prop_assert!(touches(&a, &b, pair, &c.time), "{:?} does not touch at {}", pair, c.time);
                        }
                    }
                }
                (bms, sat) => prop_assert!(false, "BMS {:?} but SAT {:?}", bms.map(|c| c.map(|c| c.time)), sat.map(|c| c.map(|c| c.time))),
            }
        }
    }

    proptest! {
        // BMS_CASES=n runs more (600 take about a minute in a release build; there every
        // f64 pair was the exact one).
        #![proptest_config(bms_config(32))]

        /// The same code over binary64 on these (dyadic) motions: the `f64` answer satisfies
        /// the sweep contract against the exact answer, and its feature pair touches exactly at
        /// the exact time.
        #[test]
        fn f64_bms_within_the_contract(ha in [half(), half(), half()], hb in [half(), half(), half()], ma in motion(), mb in motion(), (t0, t1) in interval()) {
            use touchstone::scalar::Scalar;
            let a = BoxMotion { half: ha, motion: ma };
            let b = BoxMotion { half: hb, motion: mb };
            let (fa, fb, f0, f1) = (a.to_f64(), b.to_f64(), t0.to_f64(), t1.to_f64());
            // A singular motion is a typed refusal, set aside (at most a quarter of the cases).
            let exact = match first_contact_bms(&a, &b, &t0, &t1) {
                Err(SweepError::Singular { .. }) => { prop_assume!(false); unreachable!() }
                other => other.map_err(|e| TestCaseError::fail(format!("the exact sweep failed: {e}")))?,
            };
            let fast = first_contact_bms(&fa, &fb, &f0, &f1);
            let verdict = touchstone::sweep::contract::check_sweep_answer(&fa, &fb, f0, f1, fast.clone().map(|c| c.map(|c| c.time)));
            if let Err(d) = verdict {
                prop_assert!(false, "{}\nreplay: {}", d, toi_boxes_line(&fa, &fb, f0, f1));
            }
            if let (Some(e), Ok(Some(f))) = (&exact, &fast) {
                if let (false, Some(pair)) = (e.overlapping_at_start, f.contact) {
                    let touching = pair_touches(&a, &b, &t0, &t1, &e.time, pair.a, pair.b).unwrap();
                    prop_assert!(touching, "{:?} at {} (exact pair {:?})", pair, e.time, e.contact);
                }
            }
        }
    }

    proptest! {
        // Three BMS runs per case; BMS_CASES=n runs more.
        #![proptest_config(bms_config(24))]

        /// The answer does not depend on the world frame (a common rigid motion of both boxes
        /// leaves adj(M_a)·M_b, hence every decision, unchanged: the same answer, features too),
        /// and swapping the boxes gives the same time and a pair that touches.
        #[test]
        fn frame_and_order_do_not_matter(ha in [half(), half(), half()], hb in [half(), half(), half()], ma in motion(), mb in motion()) {
            let a = BoxMotion { half: ha, motion: ma };
            let b = BoxMotion { half: hb, motion: mb };
            let (t0, t1) = (qi(0), qi(1));
            let here = match first_contact_bms(&a, &b, &t0, &t1) {
                Err(SweepError::Singular { .. }) => { prop_assume!(false); unreachable!() }
                other => other.map_err(|e| TestCaseError::fail(format!("the exact sweep failed: {e}")))?,
            };
            let there = first_contact_bms(&moved(&a), &moved(&b), &t0, &t1).unwrap();
            prop_assert_eq!(&here, &there);
            let swapped = first_contact_bms(&b, &a, &t0, &t1).unwrap();
            prop_assert_eq!(here.as_ref().map(|c| &c.time), swapped.as_ref().map(|c| &c.time));
            if let Some(pair) = swapped.and_then(|c| c.contact) {
                let time = here.unwrap().time;
                prop_assert!(touches(&b, &a, &pair, &time));
            }
        }
    }
}

mod on_f64 {
    //! The same generic code over binary64: the hand cases whose numbers are dyadic (so that
    //! the binary64 boxes are the exact ones), against the exact answer. The `f64` time must
    //! be within a small bound of the exact one, the answer must satisfy the sweep contract,
    //! and the `f64` feature pair must touch *exactly* at the exact time; where the contact is
    //! generic it must be the exact pair.
    use super::*;
    use touchstone::contract::Agreement;
    use touchstone::scalar::Scalar;
    use touchstone::sweep::contract::check_sweep_answer;

    /// The `f64` answer for dyadic boxes, checked against the exact one as above. `generic`:
    /// the exact pair is the only touching one, so `f64` must report it.
    fn on_f64(a: &BoxMotion, b: &BoxMotion, t0: &str, t1: &str, generic: bool) -> Option<BmsContact<f64>> {
        let (fa, fb) = (a.to_f64(), b.to_f64());
        assert_eq!((&fa.to_exact(), &fb.to_exact()), (a, b), "not dyadic");
        let (q0, q1) = (r(t0), r(t1));
        let (f0, f1) = (q0.to_f64(), q1.to_f64());
        assert_eq!((Q::from_float(f0).unwrap(), Q::from_float(f1).unwrap()), (q0.clone(), q1.clone()), "not dyadic");
        let exact = first_contact_bms(a, b, &q0, &q1).unwrap();
        let fast = first_contact_bms(&fa, &fb, &f0, &f1).unwrap();
        let verdict = check_sweep_answer(&fa, &fb, f0, f1, Ok(fast.as_ref().map(|c| c.time)));
        verdict.unwrap_or_else(|d| panic!("{d}\nreplay: {}", toi_boxes_line(&fa, &fb, f0, f1)));
        assert_eq!(exact.is_some(), fast.is_some(), "collides: exact {exact:?}, f64 {fast:?}");
        if let (Some(e), Some(f)) = (&exact, &fast) {
            assert!((e.time.to_f64() - f.time).abs() <= 1e-12, "time: exact {}, f64 {}", e.time, f.time);
            assert_eq!(e.overlapping_at_start, f.overlapping_at_start);
            assert_eq!(e.contact.is_none(), f.contact.is_none(), "exact {:?}, f64 {:?}", e.contact, f.contact);
            if let Some(pair) = &f.contact {
                assert!(touches(a, b, pair, &e.time), "f64 pair {pair:?} does not touch at {}", e.time);
                assert!(pair_touches(a, b, &q0, &q1, &e.time, pair.a, pair.b).unwrap());
                assert!(pair_touches(&fa, &fb, &f0, &f1, &f.time, pair.a, pair.b).unwrap());
                if generic {
                    assert_eq!(Some(*pair), e.contact);
                }
            }
        }
        fast
    }

    #[test]
    fn translations_on_f64() {
        let a = still(["1", "1", "1"]);
        let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
        let c = on_f64(&a, &b, "0", "1", false).unwrap();
        assert_eq!(c.time, 0.75);
        // Face on face: f64 makes the exact choices on these numbers.
        assert_eq!(
            c.contact,
            Some(FeaturePair {
                kind: ContactKind::FaceVertex,
                a: BoxFeature::Face([1, 3, 5, 7]),
                b: BoxFeature::Vertex(0)
            })
        );
        let beside = translating(["1", "1", "1"], ["5", "3", "0"], ["-4", "0", "0"], ["0"; 3]);
        assert!(on_f64(&a, &beside, "0", "1", false).is_none());
        assert_eq!(on_f64(&a, &b, "0", "3/4", false).unwrap().time, 0.75);
        let a2 = still(["1", "2", "1/2"]);
        let b2 = translating(["1/2", "1", "1"], ["6", "4", "-7"], ["-4", "-2", "4"], ["0"; 3]);
        assert_eq!(on_f64(&a2, &b2, "0", "2", false).unwrap().time, 1.375);
    }

    #[test]
    fn start_grazing_and_ends_on_f64() {
        let a = still(["1", "1", "1"]);
        let inside = translating(["1", "1", "1"], ["1", "0", "0"], ["5", "0", "0"], ["0"; 3]);
        let c = on_f64(&a, &inside, "0", "1", false).unwrap();
        assert!(c.overlapping_at_start && c.contact.is_none() && c.time == 0.0);
        let touching = translating(["1", "1", "1"], ["2", "0", "0"], ["1", "0", "0"], ["0"; 3]);
        let c = on_f64(&a, &touching, "0", "1", false).unwrap();
        assert!(!c.overlapping_at_start && c.time == 0.0);
        // A rational double root (z = 2 + (t − 1/2)²): f64 finds it at the critical point.
        let graze = translating(["1", "1", "1"], ["0", "0", "9/4"], ["0", "0", "-1"], ["0", "0", "1"]);
        assert!((on_f64(&a, &graze, "0", "1", false).unwrap().time - 0.5).abs() < 1e-12);
        let slide = translating(["1", "1", "1"], ["0", "-1", "2"], ["0", "3", "0"], ["0"; 3]);
        assert_eq!(on_f64(&a, &slide, "0", "1", false).unwrap().time, 0.0);
        let arrive = translating(["1", "1", "1"], ["0", "-5", "2"], ["0", "3", "0"], ["0"; 3]);
        assert_eq!(on_f64(&a, &arrive, "0", "1", false).unwrap().time, 1.0);
        let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
        assert_eq!(on_f64(&a, &b, "3/4", "3/4", false).unwrap().time, 0.75);
        assert!(on_f64(&a, &b, "1/2", "1/2", false).is_none());
    }

    #[test]
    fn degenerate_and_generic_contacts_on_f64() {
        let a = still(["1", "1", "1"]);
        // Parallel edges, an edge across a face, vertex on vertex: degenerate.
        let b = translating(["1", "1", "1"], ["5", "5", "1/2"], ["-4", "-4", "0"], ["0"; 3]);
        assert_eq!(on_f64(&a, &b, "0", "1", false).unwrap().time, 0.75);
        let bar = translating(["3", "1/4", "1/4"], ["0", "0", "3"], ["0", "0", "-2"], ["0"; 3]);
        let c = on_f64(&a, &bar, "0", "1", false).unwrap();
        assert_eq!(
            (c.time, c.contact.unwrap()),
            (
                0.875,
                FeaturePair { kind: ContactKind::EdgeEdge, a: BoxFeature::Edge([4, 6]), b: BoxFeature::Edge([0, 1]) }
            )
        );
        let b = translating(["1", "1", "1"], ["5", "2", "2"], ["-4", "0", "0"], ["0"; 3]);
        assert_eq!(on_f64(&a, &b, "0", "1", false).unwrap().time, 0.75);
        // The sheared parallelepiped: a generic face–vertex contact at 7/16, and swapped.
        let m0 = m([["1", "1", "1/2", "5"], ["0", "1", "0", "1/2"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
        let mut m1 = zero4();
        m1[(0, 3)] = qi(-4);
        let sheared = BoxMotion { half: [qi(1), qi(1), r("1/2")], motion: [m0, m1, zero4()] };
        assert_eq!(on_f64(&a, &sheared, "0", "1", true).unwrap().time, 0.4375);
        assert_eq!(on_f64(&sheared, &a, "0", "1", true).unwrap().time, 0.4375);
    }

    #[test]
    fn an_irrational_time_on_f64() {
        // The spinning box of `rotating_box_meets_at_a_root_of_a_known_quadratic`: t =
        // (√19 − 2)/5, a's edge (1, 1, z) on b's face x' = −1/2. Edge on face: a's vertices 3
        // and 7 both touch; f64 reports the exact choice.
        let a = still(["1", "1", "1"]);
        let (q0, q1) = ([qi(1), qi(0), qi(0), qi(0)], [qi(0), qi(0), qi(0), qi(1)]);
        let o = [[qi(3), qi(0), qi(0)], z3(), [qi(3), qi(0), qi(0)]];
        let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, o);
        let c = on_f64(&a, &b, "0", "1", false).unwrap();
        assert!((c.time - (19f64.sqrt() - 2.0) / 5.0).abs() < 1e-14, "{}", c.time);
        assert_eq!(
            c.contact,
            Some(FeaturePair {
                kind: ContactKind::VertexFace,
                a: BoxFeature::Vertex(3),
                b: BoxFeature::Face([0, 2, 4, 6])
            })
        );
        // Spinning far away: no contact on either path.
        let (q0, q1) = ([qi(1), qi(0), qi(0), qi(0)], [qi(0), qi(1), qi(1), qi(1)]);
        let far = rotating([qi(1), qi(2), qi(3)], q0, q1, [[qi(20), qi(0), qi(0)], z3(), [qi(20), qi(0), qi(0)]]);
        assert!(on_f64(&a, &far, "0", "1", false).is_none());
        assert!(on_f64(&a, &far, "-3", "2", false).is_none());
    }

    #[test]
    fn the_irrational_graze_is_within_the_budget_on_f64() {
        // A double root at √2: f64 may see a near miss or a near touch; the contract admits
        // either, only within the budget.
        let (a, b) = irrational_graze();
        let (fa, fb) = (a.to_f64(), b.to_f64());
        let fast = first_contact_bms(&fa, &fb, &0.0, &2.0).unwrap();
        let verdict = check_sweep_answer(&fa, &fb, 0.0, 2.0, Ok(fast.as_ref().map(|c| c.time)));
        assert_eq!(verdict.unwrap(), Agreement::WithinTolerance);
        if let Some(c) = fast {
            assert!((c.time - 2f64.sqrt()).abs() < 1e-6, "{}", c.time);
        }
    }

    #[test]
    fn sections_on_f64() {
        // Aligned translation: the planes of parallel edges (zero normals within the
        // tolerance) are dropped, and on these numbers f64 computes the equal planes of
        // different pairs identically, so they are kept once: the same 6 planes as exactly.
        // (Equal planes computed with different roundings would be kept twice, harmlessly.)
        let a = still(["1", "1", "1"]);
        let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
        let s = bms_sections(&a.to_f64(), &b.to_f64(), &0.0, &1.0).unwrap();
        assert_eq!((s.len(), s[0].planes.len()), (1, 6));
        // A generic rotation (dyadic quaternion (1, 1/2, 1/4, t)): the same sections as exactly,
        // 30 planes in each, with the same support features.
        let (q0, q1) = ([qi(1), r("1/2"), r("1/4"), qi(0)], [qi(0), qi(0), qi(0), qi(1)]);
        let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, [[qi(3), qi(0), qi(0)], z3(), [qi(3), qi(0), qi(0)]]);
        let exact = bms_sections(&a, &b, &r("0"), &r("1")).unwrap();
        let fast = bms_sections(&a.to_f64(), &b.to_f64(), &0.0, &1.0).unwrap();
        assert!(exact.len() > 1);
        assert_eq!(exact.len(), fast.len());
        for (e, f) in exact.iter().zip(&fast) {
            assert!((e.end.to_f64() - f.end).abs() < 1e-12);
            assert_eq!(f.planes.len(), 30);
            let labels = |s: &[(ContactKind, BoxFeature, BoxFeature)]| {
                let mut v = s.to_vec();
                v.sort_by_key(|x| format!("{x:?}"));
                v
            };
            let ef: Vec<_> = e.planes.iter().map(|p| (p.kind, p.a, p.b)).collect();
            let ff: Vec<_> = f.planes.iter().map(|p| (p.kind, p.a, p.b)).collect();
            assert_eq!(labels(&ef), labels(&ff));
        }
    }

    #[test]
    fn bad_motions_are_the_same_typed_errors_on_f64() {
        let a = still(["1", "1", "1"]);
        let b = translating(["1", "1", "1"], ["5", "0", "0"], ["-4", "0", "0"], ["0"; 3]);
        let err = |a: &BoxMotion, b: &BoxMotion, t0: f64, t1: f64| {
            first_contact_bms(&a.to_f64(), &b.to_f64(), &t0, &t1).expect_err("f64 BMS accepted a bad motion")
        };
        assert_eq!(err(&a, &b, 1.0, 0.0), SweepError::EmptyInterval);
        assert_eq!(err(&still(["1", "0", "1"]), &b, 0.0, 1.0), SweepError::BadHalfExtent { box_index: 0, axis: 1 });
        let mut m1 = zero4();
        m1[(0, 0)] = r("-2");
        let collapsing = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [Matrix4::identity(), m1, zero4()] };
        assert_eq!(err(&a, &collapsing, 0.0, 1.0), SweepError::Singular { box_index: 1 });
        assert_eq!(err(&collapsing, &a, 0.0, 0.5), SweepError::Singular { box_index: 0 });
        let mut proj = Matrix4::identity();
        proj[(3, 0)] = r("1");
        let projective = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [proj, zero4(), zero4()] };
        assert_eq!(err(&projective, &b, 0.0, 1.0), SweepError::Projective { box_index: 0 });
    }
}

mod claims {
    //! `pair_touches`: the claim check of a feature pair, exactly at the contact time.
    use super::*;
    use touchstone::sweep::kind_of_pair;

    fn face(ids: [usize; 4]) -> BoxFeature {
        BoxFeature::Face(ids)
    }

    /// The hand cases with a contact after t₀: (name, a, b, t0, t1).
    fn hand_cases() -> Vec<(&'static str, BoxMotion, BoxMotion, &'static str, &'static str)> {
        let a = || still(["1", "1", "1"]);
        let spin = |half: [Q; 3], c: i64| {
            let (q0, q1) = ([qi(1), qi(0), qi(0), qi(0)], [qi(0), qi(0), qi(0), qi(1)]);
            rotating(half, q0, q1, [[qi(c), qi(0), qi(0)], z3(), [qi(c), qi(0), qi(0)]])
        };
        let plate = {
            let (q0, q1) = ([qi(1), qi(0), qi(0), qi(0)], [qi(0), qi(0), qi(0), qi(1)]);
            let o = [[r("5/2"), qi(0), qi(0)], z3(), [r("5/2"), qi(0), qi(0)]];
            rotating([r("1/10"), qi(2), qi(1)], q0, q1, o)
        };
        let rows = [
            ["3/7", "2/7", "6/7", "5"],
            ["2/7", "6/7", "-3/7", "0"],
            ["-6/7", "3/7", "2/7", "1"],
            ["0", "0", "0", "1"],
        ];
        let mut m1 = zero4();
        m1[(0, 3)] = qi(-4);
        let tilted = BoxMotion { half: [qi(1), qi(1), qi(1)], motion: [m(rows), m1.clone(), zero4()] };
        let m0 = m([["1", "1", "1/2", "5"], ["0", "1", "0", "1/2"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]);
        let sheared = BoxMotion { half: [qi(1), qi(1), r("1/2")], motion: [m0, m1, zero4()] };
        let (ga, gb) = irrational_graze();
        vec![
            (
                "face on face",
                a(),
                translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]),
                "0",
                "1",
            ),
            ("quadratic", a(), translating(["1", "1", "1"], ["23/5", "0", "0"], ["0"; 3], ["-1", "0", "0"]), "0", "2"),
            ("irrational graze", ga, gb, "0", "2"),
            (
                "parallel edges",
                a(),
                translating(["1", "1", "1"], ["5", "5", "1/2"], ["-4", "-4", "0"], ["0"; 3]),
                "0",
                "1",
            ),
            (
                "bar across",
                a(),
                translating(["3", "1/4", "1/4"], ["0", "0", "3"], ["0", "0", "-2"], ["0"; 3]),
                "0",
                "1",
            ),
            (
                "vertex on vertex",
                a(),
                translating(["1", "1", "1"], ["5", "2", "2"], ["-4", "0", "0"], ["0"; 3]),
                "0",
                "1",
            ),
            ("tilted edge-edge", a(), tilted, "0", "1"),
            ("sheared", a(), sheared.clone(), "0", "1"),
            ("sheared, swapped", sheared, a(), "0", "1"),
            ("spinning plate", a(), plate, "0", "1"),
            ("spinning box", a(), spin([r("1/2"), qi(3), qi(1)], 3), "0", "1"),
        ]
    }

    #[test]
    fn the_reported_pair_touches() {
        for (name, a, b, t0, t1) in hand_cases() {
            let (q0, q1) = (r(t0), r(t1));
            let c = first_contact_bms(&a, &b, &q0, &q1).unwrap().unwrap();
            let pair = c.contact.unwrap();
            assert_eq!(kind_of_pair(pair.a, pair.b), Some(pair.kind), "{name}");
            assert!(pair_touches(&a, &b, &q0, &q1, &c.time, pair.a, pair.b).unwrap(), "{name}: {pair:?}");
            // A feature containing a touching one touches: the whole faces through them.
            let faces_a: Vec<BoxFeature> = faces().into_iter().filter(|f| contains(f, &pair.a)).collect();
            for fa in faces_a {
                assert!(pair_touches(&a, &b, &q0, &q1, &c.time, fa, pair.b).unwrap(), "{name}: {fa:?}");
            }
            // Just before the contact (a rational time inside the interval, before it) the
            // boxes are apart: no pair touches.
            let before = if c.time.is_rational() {
                c.time.to_rational().unwrap() - r("1/1000")
            } else {
                c.time.interval().lo().clone() - r("1/1000")
            };
            if before >= q0 {
                let t = touchstone::poly::Algebraic::from_rational(before);
                assert!(!pair_touches(&a, &b, &q0, &q1, &t, pair.a, pair.b).unwrap(), "{name}");
            }
        }
    }

    /// Every face of a box.
    fn faces() -> Vec<BoxFeature> {
        (0..3)
            .flat_map(|k| {
                [0, 1].map(|bit| {
                    let mut ids: Vec<usize> = (0..8).filter(|v| v >> k & 1 == bit).collect();
                    ids.sort_unstable();
                    face([ids[0], ids[1], ids[2], ids[3]])
                })
            })
            .collect()
    }

    fn contains(big: &BoxFeature, small: &BoxFeature) -> bool {
        small.vertices().iter().all(|v| big.vertices().contains(v))
    }

    #[test]
    fn face_on_face_alternatives_touch_and_far_pairs_do_not() {
        // B's centre (5 − 4t, 1/2, 0), unit cubes, t = 3/4: b's face x' = −1 (ids 0, 2, 4, 6)
        // lies on a's face x = 1 (ids 1, 3, 5, 7), shifted by 1/2 in y: b's vertices with
        // y' = −1 (ids 0, 4) are at y = −1/2, in a's face; those with y' = +1 (2, 6) at y = 3/2,
        // outside it. a's vertices with y = +1 (3, 7) are in b's face, those with y = −1 (1, 5)
        // are not.
        let a = still(["1", "1", "1"]);
        let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
        let (q0, q1) = (r("0"), r("1"));
        let t = first_contact_bms(&a, &b, &q0, &q1).unwrap().unwrap().time;
        let touches = |fa: BoxFeature, fb: BoxFeature| pair_touches(&a, &b, &q0, &q1, &t, fa, fb).unwrap();
        let (fa, fb) = (face([1, 3, 5, 7]), face([0, 2, 4, 6]));
        for (v, inside) in [(0, true), (4, true), (2, false), (6, false)] {
            assert_eq!(touches(fa, BoxFeature::Vertex(v)), inside, "b's vertex {v}");
        }
        for (v, inside) in [(3, true), (7, true), (1, false), (5, false)] {
            assert_eq!(touches(BoxFeature::Vertex(v), fb), inside, "a's vertex {v}");
        }
        // Every pair of the two faces' sub-features that meets: the faces, an edge of b's
        // face crossing an edge of a's face (b's edge y' = −1 along z (0, 4) at y = −1/2 meets
        // a's edges z = ±1 along y (1, 3) and (5, 7)), an edge lying on the face.
        assert!(touches(fa, fb));
        assert!(touches(BoxFeature::Edge([1, 3]), BoxFeature::Edge([0, 4])));
        assert!(touches(BoxFeature::Edge([5, 7]), BoxFeature::Edge([0, 4])));
        assert!(touches(fa, BoxFeature::Edge([0, 4])));
        assert!(!touches(BoxFeature::Edge([1, 5]), BoxFeature::Edge([0, 4]))); // parallel, 1/2 apart
                                                                               // Opposite faces and far vertices.
        assert!(!touches(face([0, 2, 4, 6]), fb));
        assert!(!touches(fa, face([1, 3, 5, 7])));
        assert!(!touches(face([0, 2, 4, 6]), face([1, 3, 5, 7])));
        assert!(!touches(BoxFeature::Vertex(0), BoxFeature::Vertex(7)));
        assert!(!touches(BoxFeature::Vertex(1), BoxFeature::Vertex(0))); // (1, −1, −1) vs (1, −1/2, −1)
        assert!(!touches(BoxFeature::Edge([1, 5]), face([0, 2, 4, 6]))); // at y = −1, beside b's face
    }

    #[test]
    fn at_an_irrational_time_the_pair_touches_and_its_neighbour_does_not() {
        // t = (√19 − 2)/5: a's edge (1, 1, z) (ids 3, 7) lies on b's face x' = −1/2 (ids 0, 2,
        // 4, 6), inside it; a's vertex (1, −1, −1) (id 1) is off b's face plane.
        let a = still(["1", "1", "1"]);
        let (q0, q1) = ([qi(1), qi(0), qi(0), qi(0)], [qi(0), qi(0), qi(0), qi(1)]);
        let b = rotating([r("1/2"), qi(3), qi(1)], q0, q1, [[qi(3), qi(0), qi(0)], z3(), [qi(3), qi(0), qi(0)]]);
        let (t0, t1) = (r("0"), r("1"));
        let c = first_contact_bms(&a, &b, &t0, &t1).unwrap().unwrap();
        assert!(!c.time.is_rational());
        let pair = c.contact.unwrap();
        let touches = |fa: BoxFeature, fb: BoxFeature| pair_touches(&a, &b, &t0, &t1, &c.time, fa, fb).unwrap();
        assert!(touches(pair.a, pair.b));
        let bf = face([0, 2, 4, 6]);
        assert!(touches(BoxFeature::Vertex(3), bf) && touches(BoxFeature::Vertex(7), bf));
        assert!(touches(BoxFeature::Edge([3, 7]), bf));
        assert!(!touches(BoxFeature::Vertex(1), bf));
        assert!(!touches(BoxFeature::Vertex(3), face([1, 3, 5, 7])));
        // Features of a without vertex 3 or 7 stay off b's face (it supports b, a is on its
        // other side and touches it along the edge only); a's edge (1, 3) meets b's edge (0, 2)
        // (z' = −1 on that face) at vertex 3.
        assert!(!touches(BoxFeature::Edge([1, 5]), bf) && !touches(BoxFeature::Edge([0, 1]), bf));
        assert!(touches(BoxFeature::Edge([1, 3]), BoxFeature::Edge([0, 2])));
        assert!(!touches(BoxFeature::Edge([1, 5]), BoxFeature::Edge([0, 2])));
        // The same on f64 at the f64 time, under the tolerance.
        let (fa, fb) = (a.to_f64(), b.to_f64());
        let t = first_contact_bms(&fa, &fb, &0.0, &1.0).unwrap().unwrap().time;
        let touches64 = |x: BoxFeature, y: BoxFeature| pair_touches(&fa, &fb, &0.0, &1.0, &t, x, y).unwrap();
        assert!(touches64(pair.a, pair.b) && !touches64(BoxFeature::Vertex(1), bf));
    }

    #[test]
    fn bad_claims_are_typed_errors() {
        let a = still(["1", "1", "1"]);
        let b = translating(["1", "1", "1"], ["5", "1/2", "0"], ["-4", "0", "0"], ["0"; 3]);
        let (t0, t1) = (r("0"), r("1"));
        let t = touchstone::poly::Algebraic::from_rational(r("3/4"));
        let claim = |fa, fb| pair_touches(&a, &b, &t0, &t1, &t, fa, fb);
        let v0 = BoxFeature::Vertex(0);
        for bad in [BoxFeature::Vertex(8), BoxFeature::Edge([1, 0]), BoxFeature::Edge([0, 3]), face([0, 1, 2, 4])] {
            assert_eq!(claim(bad, v0), Err(SweepError::BadFeature { box_index: 0 }), "{bad:?}");
            assert_eq!(claim(v0, bad), Err(SweepError::BadFeature { box_index: 1 }), "{bad:?}");
        }
        let late = touchstone::poly::Algebraic::from_rational(r("3/2"));
        assert_eq!(pair_touches(&a, &b, &t0, &t1, &late, v0, v0), Err(SweepError::TimeOutside));
        assert_eq!(kind_of_pair(v0, face([0, 1, 2, 3])), Some(ContactKind::VertexFace));
        assert_eq!(kind_of_pair(face([0, 1, 2, 3]), v0), Some(ContactKind::FaceVertex));
        assert_eq!(kind_of_pair(BoxFeature::Edge([0, 1]), BoxFeature::Edge([0, 2])), Some(ContactKind::EdgeEdge));
        assert_eq!(kind_of_pair(v0, v0), None);
        assert_eq!(kind_of_pair(BoxFeature::Edge([0, 1]), face([0, 1, 2, 3])), None);
    }
}

/// The oracle line that replays two boxes' sweep on [t0, t1] (written by the oracle).
fn toi_boxes_line(a: &BoxMotion<f64>, b: &BoxMotion<f64>, t0: f64, t1: f64) -> String {
    touchstone_oracle::encode::replay_line(&touchstone::query::ToiBoxes {
        a: a.clone(),
        b: b.clone(),
        interval: [t0, t1],
    })
}
