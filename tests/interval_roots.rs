//! The interval root finder and `RootScalar` for the filter backends (`Interval`, and `MidRad`,
//! whose roots are found on its coefficients' enclosures) against the exact isolation.
//!
//! Polynomials are built exactly from rational roots (simple, double, clustered, at the ends
//! of the search interval, outside it), their coefficients enclosed as intervals (tightly, or
//! widened), and every answer that is not `Uncertain` is checked against `real_roots` of the
//! exact polynomial: the same number of roots, each exact root inside its enclosure (compared
//! as algebraic numbers with the enclosure bounds as rationals), enclosures disjoint and
//! increasing. Well-separated simple roots must be decided, so the finder is not trivially
//! uncertain; the corpus test prints how many roots of each kind were decided.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;
use touchstone::geom::{point, Point3};
use touchstone::poly::{real_roots, FilterScalar, Poly, PolyError, RootScalar, TPoly};
use touchstone::scalar::{Interval, MidRad, Scalar, Sign, Uncertain};
use touchstone::sweep::{edge_edge, vertex_face};

type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn exact(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}

/// The exact polynomial `c · ∏ (t − rᵢ)`.
fn exact_poly(c: &Q, roots: &[Q]) -> Poly<Q> {
    Poly::from_roots(roots).scale(c)
}

/// A filter backend whose polynomials the corpus encloses.
trait Filter: FilterScalar {
    /// Each coefficient enclosed tightly, then widened by `widen` ulps on each side.
    fn enclose(p: &Poly<Q>, widen: u32) -> Poly<Self>;
}

impl Filter for Interval {
    fn enclose(p: &Poly<Q>, widen: u32) -> Poly<Self> {
        enclose(p, widen)
    }
}

impl Filter for MidRad {
    /// The intervals' enclosure as values with bounds (each reaching both ends).
    fn enclose(p: &Poly<Q>, widen: u32) -> Poly<Self> {
        Poly::from_coeffs(enclose(p, widen).coeffs().iter().map(|i| MidRad::of_interval(i).unwrap()).collect())
    }
}

/// Each coefficient enclosed tightly, then widened by `widen` ulps on each side.
fn enclose(p: &Poly<Q>, widen: u32) -> Poly<Interval> {
    Poly::from_coeffs(
        p.coeffs()
            .iter()
            .map(|c| {
                let iv = Interval::from_rational(c);
                let (mut lo, mut hi) = (iv.lo(), iv.hi());
                for _ in 0..widen {
                    lo = lo.next_down();
                    hi = hi.next_up();
                }
                Interval::new(lo, hi).unwrap()
            })
            .collect(),
    )
}

/// What one case gave.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Certified: this many roots (checked against the exact ones).
    Decided(usize),
    Uncertain,
}

/// Run the finder on the enclosed polynomial and check any certified answer against the exact
/// roots of `exact` in `[lo, hi]`. Panics (with the case) on a wrong answer.
fn check<F: Filter>(exact_p: &Poly<Q>, ip: &Poly<F>, lo: &Q, hi: &Q) -> Outcome {
    let (ilo, ihi) = (F::from_rational(lo), F::from_rational(hi));
    let found = match F::roots_in(ip, &ilo, &ihi) {
        Ok(found) => found,
        Err(PolyError::Uncertain(Uncertain::Close)) => return Outcome::Uncertain,
        Err(e) => panic!("unexpected error {e:?} for {exact_p} on [{lo}, {hi}]"),
    };
    let truth = real_roots(exact_p, lo, hi).unwrap();
    assert_eq!(
        found.len(),
        truth.len(),
        "{exact_p} on [{lo}, {hi}]: found {found:?}, exact {:?}",
        truth.iter().map(|r| r.to_f64()).collect::<Vec<_>>()
    );
    for (enc, root) in found.iter().zip(&truth) {
        let (elo, ehi) = (exact(enc.lo()), exact(enc.hi()));
        assert_ne!(root.cmp_rational(&elo), Ordering::Less, "{exact_p}: root {} below {enc}", root.to_f64());
        assert_ne!(root.cmp_rational(&ehi), Ordering::Greater, "{exact_p}: root {} above {enc}", root.to_f64());
        if enc.is_point() {
            assert_eq!(root.to_rational(), Some(elo), "{exact_p}: a point enclosure must be the root");
        }
    }
    for w in found.windows(2) {
        assert_eq!(Interval::compare_times(&w[0], &w[1]), Ok(Ordering::Less), "{exact_p}: {found:?} not disjoint");
    }
    Outcome::Decided(found.len())
}

/// A small deterministic generator (xorshift64*), so the corpus and its counts are fixed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    /// A nonzero rational leading coefficient n/d, |n| ≤ 9, d ≤ 9.
    fn leading(&mut self) -> Q {
        let n = self.range(1, 9) * if self.below(2) == 0 { 1 } else { -1 };
        q(n, self.range(1, 9))
    }
}

/// Distinct simple roots in (0, 1), at least 1/40 apart and from the ends, with denominators
/// up to 40 (most are not doubles), plus up to two roots outside [0, 1].
fn separated_roots(rng: &mut Rng) -> Vec<Q> {
    let mut roots: Vec<Q> = Vec::new();
    let k = rng.range(1, 6);
    let mut tries = 0;
    while (roots.len() as i64) < k && tries < 100 {
        tries += 1;
        let d = rng.range(2, 40);
        let r = q(rng.range(1, d - 1), d);
        let gap = q(1, 40);
        if r < gap || r > Q::one() - &gap || roots.iter().any(|s| Signed::abs(&(s - &r)) < gap) {
            continue;
        }
        roots.push(r);
    }
    for _ in 0..rng.range(0, 2) {
        let outside = if rng.below(2) == 0 { q(rng.range(-30, -1), rng.range(1, 9)) } else { q(rng.range(11, 40), 10) };
        roots.push(outside);
    }
    roots
}

use num_traits::Signed;

#[derive(Default)]
struct Tally {
    cases: usize,
    decided_cases: usize,
    roots_decided: usize,
    uncertain_cases: usize,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        self.cases += 1;
        match o {
            Outcome::Decided(n) => {
                self.decided_cases += 1;
                self.roots_decided += n;
            }
            Outcome::Uncertain => self.uncertain_cases += 1,
        }
    }
}

#[test]
fn corpus_against_exact_isolation_on_intervals() {
    corpus_against_exact_isolation::<Interval>();
}

#[test]
fn corpus_against_exact_isolation_on_values_with_bounds() {
    corpus_against_exact_isolation::<MidRad>();
}

fn corpus_against_exact_isolation<F: Filter>() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let unit = (Q::zero(), Q::one());
    let mut tallies: Vec<(&str, Tally)> = Vec::new();
    let mut run = |name: &'static str, o: Outcome| {
        if let Some((_, t)) = tallies.iter_mut().find(|(n, _)| *n == name) {
            t.add(o);
        } else {
            let mut t = Tally::default();
            t.add(o);
            tallies.push((name, t));
        }
    };
    for _ in 0..300 {
        // Well-separated simple roots, tight coefficients: must be decided.
        let roots = separated_roots(&mut rng);
        let p = exact_poly(&rng.leading(), &roots);
        let o = check(&p, &F::enclose(&p, 0), &unit.0, &unit.1);
        assert!(matches!(o, Outcome::Decided(_)), "separated simple roots must be decided: {p}");
        run("separated simple, tight coefficients", o);
        // The same, coefficients widened by 2⁻⁴⁰ relative or so (2¹² ulps).
        run("separated simple, coefficients widened 4096 ulps", check(&p, &F::enclose(&p, 4096), &unit.0, &unit.1));

        // Dyadic roots (k/16) with multiplicities 1–3, including the ends 0 and 1: exact
        // coefficients, roots found as points (Taylor certificates at multiple ones).
        let mut dy: Vec<Q> = Vec::new();
        for _ in 0..rng.range(1, 4) {
            let r = q(rng.range(0, 16), 16);
            for _ in 0..rng.range(1, 3) {
                dy.push(r.clone());
            }
        }
        let p = exact_poly(&Q::from_integer(BigInt::from(rng.range(1, 4))), &dy);
        run("dyadic roots, multiplicity 1-3, ends included", check(&p, &F::enclose(&p, 0), &unit.0, &unit.1));

        // A double root that is not a double, among simple ones.
        let mut roots = separated_roots(&mut rng);
        let d = rng.range(3, 40) | 1;
        roots.push(q(rng.range(1, d - 1), d));
        roots.push(roots.last().cloned().unwrap());
        let p = exact_poly(&rng.leading(), &roots);
        run("non-dyadic double root", check(&p, &F::enclose(&p, 0), &unit.0, &unit.1));

        // Clustered simple roots r and r + 2⁻ᵏ.
        let k = rng.range(10, 50) as u32;
        let r = q(rng.range(1, 30), 31);
        let gap = Q::new(BigInt::one(), BigInt::one() << k);
        let p = exact_poly(&rng.leading(), &[r.clone(), r + gap, q(7, 8)]);
        run("cluster 2^-10 .. 2^-50 apart", check(&p, &F::enclose(&p, 0), &unit.0, &unit.1));

        // A root at a non-dyadic end of the search interval.
        let d = rng.range(3, 20) | 1;
        let lo = q(1, d);
        let p = exact_poly(&rng.leading(), &[lo.clone(), q(3, 5)]);
        run("root at a non-dyadic end", check(&p, &F::enclose(&p, 0), &lo, &unit.1));

        // Random small integer coefficients, degree up to 8, on [−2, 2].
        let n = rng.range(1, 8) as usize;
        let coeffs: Vec<Q> = (0..=n).map(|_| Q::from_integer(rng.range(-9, 9).into())).collect();
        let p = Poly::from_coeffs(coeffs);
        if !p.is_zero() {
            run("random integer coefficients on [-2, 2]", check(&p, &F::enclose(&p, 0), &q(-2, 1), &q(2, 1)));
        }
    }
    for (name, t) in &tallies {
        eprintln!(
            "{name:50} cases {:4}  decided {:4} ({} roots)  uncertain {:4}",
            t.cases, t.decided_cases, t.roots_decided, t.uncertain_cases
        );
    }
    // Dyadic roots are exact points: decided in most cases.
    let dyadic = &tallies.iter().find(|(n, _)| n.starts_with("dyadic")).unwrap().1;
    assert!(
        dyadic.decided_cases * 10 >= dyadic.cases * 9,
        "dyadic roots: {} of {}",
        dyadic.decided_cases,
        dyadic.cases
    );
    // A double root off the doubles is never certified.
    let double = &tallies.iter().find(|(n, _)| n.starts_with("non-dyadic double")).unwrap().1;
    assert_eq!(double.decided_cases, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Roots from a wide choice of rationals (any multiplicity, clusters, outside), any
    /// interval of rationals: a certified answer is always the exact one.
    #[test]
    fn certified_roots_are_the_exact_ones(
        roots in prop::collection::vec((-40i64..80, 1i64..40, 1usize..3), 0..6),
        c in (1i64..20, 1i64..20),
        (lo, hi) in (-20i64..20, -20i64..20),
        d in 1i64..8,
        widen in prop::sample::select(vec![0u32, 1, 1000, 1 << 20]),
    ) {
        let mut rs = Vec::new();
        for (n, den, m) in roots {
            for _ in 0..m {
                rs.push(q(n, den * 2));
            }
        }
        let p = exact_poly(&q(c.0, c.1), &rs);
        let (lo, hi) = (q(lo.min(hi), d), q(lo.max(hi), d));
        check(&p, &enclose(&p, widen), &lo, &hi);
        check(&p, &MidRad::enclose(&p, widen), &lo, &hi);
    }
}

// ---------------------------------------------------------------------------------------------
// RootScalar for Interval

fn pt(x: f64) -> Interval {
    Interval::from_f64(x).unwrap()
}

#[test]
fn root_scalar_operations() {
    let a = Interval::new(0.25, 0.5).unwrap();
    let b = Interval::new(0.75, 1.0).unwrap();
    assert_eq!(Interval::compare_times(&a, &b), Ok(Ordering::Less));
    assert_eq!(Interval::compare_times(&b, &a), Ok(Ordering::Greater));
    assert_eq!(Interval::compare_times(&a, &a), Err(Uncertain::Close));
    assert_eq!(Interval::compare_times(&pt(0.5), &pt(0.5)), Ok(Ordering::Equal));
    assert_eq!(Interval::compare_times(&a, &pt(0.5)), Err(Uncertain::Close));
    let m = Interval::between(&a, &b).unwrap();
    assert!(m.is_point() && m.lo() > 0.5 && m.lo() < 0.75);
    assert_eq!(Interval::between(&b, &a).unwrap(), m);
    assert_eq!(Interval::between(&a, &Interval::new(0.5, 0.6).unwrap()), Err(PolyError::Uncertain(Uncertain::Close)));
    let adjacent = Interval::new(0.5f64.next_up(), 0.6).unwrap();
    assert_eq!(Interval::between(&a, &adjacent), Err(PolyError::Uncertain(Uncertain::Close)));
    assert!(a.contains(Interval::time_to_f64(&a)));
    assert_eq!(Interval::time(&pt(0.5)), pt(0.5));
    // sign_at over an enclosure: t² − 1/4 at [0.25, 0.5] contains 0; at [0.75, 1] positive.
    let p = TPoly::input(Poly::from_coeffs(vec![pt(-0.25), pt(0.0), pt(1.0)]));
    assert_eq!(Interval::sign_at(&p, &a), Err(PolyError::Uncertain(Uncertain::Close)));
    assert_eq!(Interval::sign_at(&p, &b), Ok(Sign::Positive));
    assert_eq!(Interval::sign_at(&p, &pt(0.5)), Ok(Sign::Zero));
}

/// Values with bounds: times are interval enclosures, ordered and split as on intervals, and
/// a polynomial's sign at one is decided on its coefficients' enclosures.
#[test]
fn root_scalar_operations_on_values_with_bounds() {
    let (a, b) = (Interval::new(0.25, 0.5).unwrap(), Interval::new(0.75, 1.0).unwrap());
    assert_eq!(MidRad::compare_times(&a, &b), Ok(Ordering::Less));
    assert_eq!(MidRad::compare_times(&a, &a), Err(Uncertain::Close));
    assert_eq!(MidRad::between(&a, &b), Interval::between(&a, &b));
    let m = |x: f64| MidRad::from_f64(x).unwrap();
    assert_eq!(MidRad::time(&m(0.5)), pt(0.5));
    let third = m(1.0) / m(3.0);
    let t = MidRad::time(&third);
    assert!(!t.is_point() && t.contains(1.0 / 3.0));
    let p = TPoly::input(Poly::from_coeffs(vec![m(-0.25), m(0.0), m(1.0)]));
    assert_eq!(MidRad::sign_at(&p, &a), Err(PolyError::Uncertain(Uncertain::Close)));
    assert_eq!(MidRad::sign_at(&p, &b), Ok(Sign::Positive));
    assert_eq!(MidRad::sign_at(&p, &pt(0.5)), Ok(Sign::Zero));
    // t² − 1/4 on [0, 1]: the root 1/2 is a double, found as the point.
    assert_eq!(MidRad::roots_in(&p.p, &m(0.0), &m(1.0)), Ok(vec![pt(0.5)]));
}

// ---------------------------------------------------------------------------------------------
// End to end: primitive CCD on the filters agrees with the exact one whenever it answers.

fn to_interval<F: FilterScalar>(p: &Point3<Q>) -> Point3<F> {
    Point3::new(F::from_rational(&p.x), F::from_rational(&p.y), F::from_rational(&p.z))
}

fn small_point() -> impl Strategy<Value = Point3<Q>> {
    (-4i64..=4, -4i64..=4, -4i64..=4).prop_map(|(x, y, z)| point(x, y, z))
}

fn ccd_agrees<F: FilterScalar>(
    kind: usize,
    t0: &[Point3<Q>; 4],
    t1: &[Point3<Q>; 4],
) -> Result<Option<bool>, TestCaseError> {
    let (i0, i1) = (t0.each_ref().map(to_interval::<F>), t1.each_ref().map(to_interval::<F>));
    let (exact_r, interval_r) = if kind == 0 {
        (vertex_face(t0, t1).unwrap(), vertex_face::<F>(&i0, &i1))
    } else {
        (edge_edge(t0, t1).unwrap(), edge_edge::<F>(&i0, &i1))
    };
    let interval_r = match interval_r {
        Ok(r) => r,
        Err(PolyError::Uncertain(_)) => return Ok(None),
        Err(e) => return Err(TestCaseError::fail(format!("unexpected {e:?}"))),
    };
    prop_assert_eq!(interval_r.collides(), exact_r.collides(), "{:?} {:?}", t0, t1);
    if let (Some(enc), Some(t)) = (&interval_r.toi, &exact_r.toi) {
        prop_assert_ne!(
            t.cmp_rational(&exact(enc.lo())),
            Ordering::Less,
            "{:?} {:?}: {} vs {}",
            t0,
            t1,
            enc,
            t.to_f64()
        );
        prop_assert_ne!(
            t.cmp_rational(&exact(enc.hi())),
            Ordering::Greater,
            "{:?} {:?}: {} vs {}",
            t0,
            t1,
            enc,
            t.to_f64()
        );
    }
    Ok(Some(interval_r.collides()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn ccd_on_the_filters_is_exact_or_uncertain(
        kind in 0usize..2,
        t0 in prop::array::uniform4(small_point()),
        t1 in prop::array::uniform4(small_point()),
    ) {
        let on_intervals = ccd_agrees::<Interval>(kind, &t0, &t1)?;
        let with_bounds = ccd_agrees::<MidRad>(kind, &t0, &t1)?;
        // Grid points are doubles: both decide alike (points stay points on either).
        prop_assert_eq!(on_intervals, with_bounds);
    }
}

#[test]
fn ccd_on_intervals_by_hand() {
    ccd_by_hand::<Interval>();
}

#[test]
fn ccd_on_values_with_bounds_by_hand() {
    ccd_by_hand::<MidRad>();
}

fn ccd_by_hand<F: FilterScalar>() {
    let p = |x, y, z| point::<Q>(x, y, z);
    let tri = [p(-1, -1, 0), p(3, -1, 0), p(-1, 3, 0)];
    let vf = |v0: Point3<Q>, v1: Point3<Q>| {
        let t0 = [v0, tri[0].clone(), tri[1].clone(), tri[2].clone()].each_ref().map(to_interval::<F>);
        let t1 = [v1, tri[0].clone(), tri[1].clone(), tri[2].clone()].each_ref().map(to_interval::<F>);
        vertex_face::<F>(&t0, &t1)
    };
    // A vertex falling through the triangle: contact at t = 1/4, a double, found exactly.
    assert_eq!(vf(p(0, 0, 1), p(0, 0, -3)).unwrap().toi, Some(pt(0.25)));
    // Touching at t = 0 and at t = 1 (the ends).
    assert_eq!(vf(p(0, 0, 0), p(0, 0, 5)).unwrap().toi, Some(pt(0.0)));
    assert_eq!(vf(p(0, 0, 4), p(0, 0, 0)).unwrap().toi, Some(pt(1.0)));
    assert_eq!(vf(p(5, 5, 1), p(5, 5, -1)).unwrap().toi, None);
    // Contact at t = 1/3, not a double: the root of the coplanarity cubic is enclosed, and the
    // generic family alone decides there (the triangle is proper and the vertex strictly
    // inside it), so the enclosure is the answer. (Before the generic family decided alone,
    // the lower families' equalities at the enclosure could not be certified zero: the run
    // was uncertain and the query went to the exact backend.)
    let third = vf(p(0, 0, 1), p(0, 0, -2)).unwrap().toi.unwrap();
    assert!(third.lo() < 1.0 / 3.0 && 1.0 / 3.0 < third.hi() && third.hi() - third.lo() < 1e-15, "{third:?}");
    // The vertex crossing the triangle's plane at t = 1/3 outside it (x = 5): its inequality
    // at the enclosure is certainly negative, so no family holds there.
    assert_eq!(vf(p(5, 0, 1), p(5, 0, -2)).unwrap().toi, None);
    // A vertex sliding in the triangle's plane (the cubic vanishes identically): the
    // shortcuts do not apply and the full search of the families answers.
    assert_eq!(vf(p(0, 0, 0), p(1, 0, 0)).map(|r| r.toi), Ok(Some(pt(0.0))));
}
