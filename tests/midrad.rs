//! Soundness of the value-and-bound backend (`MidRad`) against exact rationals, as
//! `tests/interval.rs` is for intervals, on the same doubles (`common/doubles.rs`).
//!
//! A value `⟨m, r⟩` holds every real within `r` of `m`; every property takes reals inside the
//! operands (the midpoint, both ends, a third of the way), applies the exact operation, and
//! checks that the result holds it, checked in rationals (`|x − m| ≤ r`), and that every decided
//! sign and order is the exact one. Containment alone could be satisfied by an infinite bound,
//! so the properties also pin tightness: point operands give the point itself when the exact
//! result is a double, else a bound of at most two units in the last place; the midpoint is
//! always the float run's own value (the result rounded to nearest), so the backend's values
//! are binary64's.

mod common;

use common::doubles::*;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use touchstone::geom::det3;
use touchstone::scalar::{MidRad, Scalar, Sign, Uncertain};

/// Whether `v` holds the rational `x`: `|x − m| ≤ r`, exactly (an infinite bound holds all).
fn holds(v: &MidRad, x: &Q) -> bool {
    if !v.radius().is_finite() {
        return true;
    }
    Signed::abs(&(x - exact(v.mid()))) <= exact(v.radius())
}

/// Reals inside `v`: the midpoint, both ends and a third of the way; for an unknown value, a
/// few far apart.
fn samples(v: &MidRad) -> Vec<Q> {
    let m = exact(v.mid());
    if !v.radius().is_finite() {
        return vec![-pow2q(1100), Q::zero(), pow2q(1100)];
    }
    if v.is_point() {
        return vec![m];
    }
    let r = exact(v.radius());
    vec![&m - &r, m.clone(), &m + &r / Q::from_integer(3.into()), &m + &r]
}

/// A value around a double: a point, or a bound that is tiny (an ulp or a subnormal), relative
/// (2⁻⁴⁰ of the value), moderate, or huge; sometimes unknown.
fn midrad_of(d: impl Strategy<Value = f64> + Clone) -> impl Strategy<Value = MidRad> {
    let radius = prop_oneof![
        Just(TINY),
        Just(pow2(-1000)),
        Just(1e-300),
        Just(1e-17),
        Just(1e-3),
        Just(0.5),
        Just(3.0),
        Just(1e300),
    ];
    prop_oneof![
        4 => d.clone().prop_map(|x| MidRad::point(x).unwrap()),
        2 => (d.clone(), radius).prop_map(|(m, r)| MidRad::new(m, r).unwrap()),
        2 => (d.clone(), 1u32..5).prop_map(|(m, k)| MidRad::new(m, (m.abs() * pow2(-40) * k as f64).max(TINY)).unwrap()),
        1 => (d, 1u32..4).prop_map(|(m, k)| MidRad::new(m, (m.next_up() - m).abs() * k as f64).unwrap_or(MidRad::zero())),
        1 => Just(MidRad::new(0.0, f64::INFINITY).unwrap()),
    ]
}

fn any_midrad() -> impl Strategy<Value = MidRad> {
    midrad_of(any_double())
}

fn apply(op: Op, a: MidRad, b: MidRad) -> MidRad {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div => a / b,
    }
}

/// One operation holds the exact result for every pair of samples, and its decided signs and
/// the operands' decided order are the exact ones.
fn check_operation(op: Op, a: MidRad, b: MidRad) -> Result<(), TestCaseError> {
    let r = apply(op, a, b);
    prop_assert!(r.radius() >= 0.0 && r.mid().is_finite(), "{op:?} {a} {b} broke the invariants: {r:?}");
    for x in samples(&a) {
        for y in samples(&b) {
            let Some(v) = apply_exact(op, &x, &y) else { continue };
            prop_assert!(holds(&r, &v), "{op:?}: {a:?} {b:?} gives {r:?}, which misses {x} {op:?} {y} = {v}");
            if let Ok(s) = r.sign() {
                prop_assert_eq!(s, sign_of(&v), "{:?} {:?} {:?} = {:?}", op, a, b, r);
            }
        }
    }
    if let Ok(o) = a.compare(&b) {
        for x in samples(&a) {
            for y in samples(&b) {
                prop_assert_eq!(o, x.cmp(&y), "compare {:?} {:?}", a, b);
            }
        }
    }
    Ok(())
}

/// Point operands: the midpoint is the rounded result; the point itself when the exact result
/// is a double; else a bound of at most two ulps of the midpoint (or the floor, below 2⁻¹⁰⁰⁰).
fn check_tightness(op: Op, x: f64, y: f64) -> Result<(), TestCaseError> {
    let (a, b) = (MidRad::point(x).unwrap(), MidRad::point(y).unwrap());
    let r = apply(op, a, b);
    let Some(v) = apply_exact(op, &exact(x), &exact(y)) else {
        prop_assert!(r.sign().is_err(), "{} / 0 = {:?}", x, r);
        return Ok(());
    };
    let rounded = apply_f64(op, x, y);
    if !rounded.is_finite() || !r.radius().is_finite() {
        prop_assert!(!r.radius().is_finite() && !rounded.is_finite(), "{x} {op:?} {y}: {r:?}, rounded {rounded}");
        return Ok(());
    }
    prop_assert_eq!(r.mid(), rounded + 0.0, "{} {:?} {}: not binary64's value", x, op, y);
    if exact(rounded) == v {
        // Exactness is proved by an error-free transformation, whose residual may underflow or
        // whose split may overflow outside [2⁻⁸⁰⁰, 2⁹⁹⁶] (then the result is bounded, not a
        // point: sound, and left to the interval stage to decide).
        let outside = |z: f64| z != 0.0 && !(pow2(-800)..=pow2(996)).contains(&z.abs());
        let unproved = matches!(op, Op::Mul | Op::Div) && (outside(x) || outside(y) || outside(rounded));
        prop_assert!(r.is_point() || unproved, "{x} {op:?} {y} = {rounded} exactly, but {r:?}");
    } else {
        prop_assert!(!r.is_point(), "{x} {op:?} {y} is not a double, but {r:?}");
        let ulp = (rounded.next_up() - rounded).abs().max((rounded - rounded.next_down()).abs());
        prop_assert!(
            r.radius() <= 2.0 * ulp || r.radius() <= MidRad::FLOOR,
            "{x} {op:?} {y}: bound {:e} is more than two ulps ({ulp:e})",
            r.radius()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn operations_hold_the_exact_result(op in any_op(), a in any_midrad(), b in any_midrad()) {
        check_operation(op, a, b)?;
    }

    #[test]
    fn point_operations_are_tight(op in any_op(), x in any_double(), y in any_double()) {
        check_tightness(op, x, y)?;
    }

    #[test]
    fn abs_neg_max_and_min_hold(a in any_midrad(), b in any_midrad()) {
        let (hi, lo) = (a.maximum(&b).unwrap(), a.minimum(&b).unwrap());
        for x in samples(&a) {
            prop_assert!(holds(&a.abs(), &Signed::abs(&x)), "|{:?}| = {:?}", a, a.abs());
            prop_assert!(holds(&(-a), &-x.clone()));
            for y in samples(&b) {
                prop_assert!(holds(&hi, &x.clone().max(y.clone())), "max({:?}, {:?}) = {:?}", a, b, hi);
                prop_assert!(holds(&lo, &x.clone().min(y)), "min({:?}, {:?}) = {:?}", a, b, lo);
            }
        }
        prop_assert_eq!(-(-a), a);
    }

    #[test]
    fn conversions_hold(n in any::<i64>(), d in 1i64..i64::MAX, e in -1200i32..1200) {
        let v = MidRad::from_i64(n);
        prop_assert!(holds(&v, &Q::from_integer(n.into())));
        prop_assert_eq!(v.mid(), n as f64);
        let q = Q::new(n.into(), d.into()) * pow2q(e);
        let v = MidRad::from_rational(&q);
        prop_assert!(holds(&v, &q), "{:?} misses {}", v, q);
        if v.is_point() {
            prop_assert_eq!(exact(v.mid()), q);
        } else if v.radius().is_finite() {
            // Adjacent doubles: the bound is one ulp.
            prop_assert!(v.radius() <= (v.mid().next_up() - v.mid()).abs().max((v.mid() - v.mid().next_down()).abs()));
        }
        // The interval enclosure holds everything the value holds.
        let i = v.enclosure();
        for x in samples(&v) {
            prop_assert!(i.lo() == f64::NEG_INFINITY || exact(i.lo()) <= x);
            prop_assert!(i.hi() == f64::INFINITY || x <= exact(i.hi()));
        }
    }

    #[test]
    fn small_integers_stay_points(a in -(1i64 << 26)..(1i64 << 26), b in -(1i64 << 26)..(1i64 << 26), k in 0u32..20) {
        let (x, y) = (MidRad::from_i64(a), MidRad::from_i64(b));
        prop_assert_eq!(x + y, MidRad::from_i64(a + b));
        prop_assert_eq!(x - y, MidRad::from_i64(a - b));
        prop_assert_eq!(x * y, MidRad::from_i64(a * b));
        prop_assert_eq!((x - x).sign(), Ok(Sign::Zero));
        prop_assert_eq!((x * y - y * x).sign(), Ok(Sign::Zero));
        if b != 0 {
            // Exact quotients stay points: (a·b)/b, and a/2ᵏ.
            prop_assert_eq!(MidRad::from_i64(a * b) / y, x);
            prop_assert_eq!((x / MidRad::from_i64(1 << k)).to_rational(), Some(Q::new(a.into(), (1i64 << k).into())));
            // Any quotient is a point exactly when the rounded quotient is exact (the
            // remainder's test), as on intervals.
            let q = Q::new(a.into(), b.into());
            prop_assert_eq!((x / y).is_point(), Q::from_float((a as f64) / (b as f64)) == Some(q.clone()));
            prop_assert!(holds(&(x / y), &q));
        }
    }

    #[test]
    fn to_f64_is_the_float_runs_value(a in any_midrad()) {
        // The midpoint: the value binary64 itself computes, and one the bound holds.
        prop_assert_eq!(a.to_f64(), a.mid());
        prop_assert!(holds(&a, &exact(a.to_f64())));
    }
}

/// The least and the greatest real a value holds (its ends; an unknown value none).
fn ends(v: &MidRad) -> Option<(Q, Q)> {
    v.radius().is_finite().then(|| {
        let (m, r) = (exact(v.mid()), exact(v.radius()));
        (&m - &r, &m + &r)
    })
}

/// `dot3`'s one bound against the exact range of a₀b₀ + a₁b₁ + a₂b₂ over the operands: each
/// product is bilinear, so its range has its ends at corners, and the sum's ends are the sums
/// of the products' ends. The midpoint is the float run's own (that of the operations one by
/// one), and operands whose products are all exact give exactly the operations' result.
fn check_dot3(a: [MidRad; 3], b: [MidRad; 3]) -> Result<(), TestCaseError> {
    let fused = MidRad::dot3([&a[0], &a[1], &a[2]], [&b[0], &b[1], &b[2]]);
    let sequential = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if fused.radius().is_finite() && sequential.radius().is_finite() {
        prop_assert_eq!(fused.mid(), sequential.mid());
    }
    if (0..3).all(|i| (a[i].is_point() && b[i].is_point()) || a[i] == MidRad::zero() || b[i] == MidRad::zero()) {
        prop_assert_eq!(fused, sequential);
    }
    let mut range = (Q::zero(), Q::zero());
    for i in 0..3 {
        let (Some((al, ah)), Some((bl, bh))) = (ends(&a[i]), ends(&b[i])) else { return Ok(()) };
        let corners = [&al * &bl, &al * &bh, &ah * &bl, &ah * &bh];
        range.0 += corners.iter().min().unwrap();
        range.1 += corners.iter().max().unwrap();
    }
    prop_assert!(holds(&fused, &range.0) && holds(&fused, &range.1), "{:?} · {:?} = {:?}", a, b, fused);
    Ok(())
}

#[test]
fn dot3_holds_the_exact_range() {
    // Shrinking a failure over six operands of every size recurses deeper than a test thread's
    // stack: the property runs on a roomy one, so a failure is reported with its minimal case
    // (and saved beside this file, as the macro's runs are).
    let run = || {
        let config = ProptestConfig { cases: 3000, source_file: Some(file!()), ..ProptestConfig::default() };
        let mut runner = proptest::test_runner::TestRunner::new(config);
        let operands = (prop::array::uniform3(any_midrad()), prop::array::uniform3(any_midrad()));
        if let Err(e) = runner.run(&operands, |(a, b)| check_dot3(a, b)) {
            panic!("{e}");
        }
    };
    std::thread::Builder::new().stack_size(256 << 20).spawn(run).unwrap().join().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn dot3_of_moderate_values_holds_and_decides(
        a in prop::array::uniform3(midrad_of(moderate_double())),
        b in prop::array::uniform3(midrad_of(moderate_double())),
    ) {
        check_dot3(a, b)?;
    }
}

#[test]
fn dot3_on_the_edges() {
    // Overflowing products and sums (unknown), underflowing ones (the floor), cancellation to
    // zero of non-points, and a zero factor against an unknown value.
    let mr = |m: f64, r: f64| MidRad::new(m, r).unwrap();
    let p = |m: f64| MidRad::point(m).unwrap();
    let unknown = MidRad::new(0.0, f64::INFINITY).unwrap();
    let cases = [
        ([mr(1e300, 1.0), p(1.0), p(0.0)], [p(1e10), p(1.0), p(1.0)]),
        ([mr(f64::MAX / 2.0, 1.0), mr(f64::MAX / 2.0, 1.0), p(0.0)], [p(1.5), p(1.5), p(0.0)]),
        ([mr(TINY, TINY), p(TINY), p(1.0)], [p(0.5), p(0.5), p(0.0)]),
        ([mr(1.0, 1e-17), mr(-1.0, 1e-17), p(0.0)], [p(3.0), p(3.0), p(0.0)]),
        ([p(0.0), unknown, p(2.0)], [unknown, p(0.0), mr(2.0, 1e-9)]),
        ([unknown, p(1.0), p(1.0)], [p(1.0), p(1.0), p(1.0)]),
    ];
    for (a, b) in cases {
        check_dot3(a, b).unwrap();
    }
    // The cancellation is no point: its sign is not decided.
    let d = MidRad::dot3([&mr(1.0, 1e-17), &mr(-1.0, 1e-17), &p(0.0)], [&p(3.0), &p(3.0), &p(0.0)]);
    assert_eq!(d.sign(), Err(Uncertain::Close));
    // A zero factor against an unknown value is the exact zero, as the operations give.
    let z = MidRad::dot3([&p(0.0), &p(0.0), &p(0.0)], [&unknown, &unknown, &mr(1.0, 1.0)]);
    assert_eq!(z.sign(), Ok(Sign::Zero));
}

fn eval(e: &Expr, leaves: &[MidRad]) -> MidRad {
    match e {
        Expr::Leaf(i) => leaves[*i],
        Expr::Neg(a) => -eval(a, leaves),
        Expr::Abs(a) => eval(a, leaves).abs(),
        Expr::Bin(op, a, b) => apply(*op, eval(a, leaves), eval(b, leaves)),
    }
}

/// A tree's value holds its exact value at mixed choices of samples, and a decided sign is the
/// exact sign.
fn check_tree(e: &Expr, leaves: &[MidRad]) -> Result<(), TestCaseError> {
    let r = eval(e, leaves);
    let per_leaf: Vec<Vec<Q>> = leaves.iter().map(samples).collect();
    for choice in 0..5 {
        let values: Vec<Q> =
            per_leaf.iter().enumerate().map(|(i, s)| s[(choice + i * choice) % s.len()].clone()).collect();
        let Some(v) = eval_exact(e, &values) else { continue };
        prop_assert!(holds(&r, &v), "{e:?} on {leaves:?} gives {r:?}, missing {v}");
        if let Ok(s) = r.sign() {
            prop_assert_eq!(s, sign_of(&v), "{:?} on {:?} = {:?}", e, leaves, r);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn expression_trees_hold(e in any_expr(), leaves in prop::collection::vec(any_midrad(), LEAVES)) {
        check_tree(&e, &leaves)?;
    }

    #[test]
    fn moderate_expression_trees_decide_and_hold(
        e in any_expr(),
        leaves in prop::collection::vec(midrad_of(moderate_double()), LEAVES),
    ) {
        check_tree(&e, &leaves)?;
    }

    /// Determinants of moderate values: hold the exact one; and the bound is a small multiple of
    /// what binary64 loses (the float run's own value is the midpoint, so a determinant of
    /// points decided here is one whose binary64 sign was right).
    #[test]
    fn determinants_hold_and_decide_correctly(entries in prop::array::uniform9(midrad_of(moderate_double()))) {
        let d = det3(&nalgebra::Matrix3::from_row_slice(&entries));
        let per: Vec<Vec<Q>> = entries.iter().map(samples).collect();
        for choice in 0..4 {
            let m: [Q; 9] = std::array::from_fn(|i| per[i][(choice * (i + 1)) % per[i].len()].clone());
            let v = det3_exact(&m);
            prop_assert!(holds(&d, &v), "det {entries:?} = {d:?} misses {v}");
            if let Ok(s) = d.sign() {
                prop_assert_eq!(s, sign_of(&v));
            }
        }
    }

    /// Rank-deficient matrices of short dyadics: every product and sum is a double, so the
    /// determinant is the point zero, decided.
    #[test]
    fn degenerate_dyadic_determinants_are_exactly_zero(
        rows in prop::array::uniform6(-(1i64 << 12)..(1i64 << 12)),
        (p, q) in (-8i64..8, -8i64..8),
        scale in -20i32..20,
    ) {
        let s = pow2(scale);
        let v = |k: i64| MidRad::point(k as f64 * s).unwrap();
        let e: [MidRad; 9] = [
            v(rows[0]), v(rows[1]), v(rows[2]),
            v(rows[3]), v(rows[4]), v(rows[5]),
            v(p * rows[0] + q * rows[3]), v(p * rows[1] + q * rows[4]), v(p * rows[2] + q * rows[5]),
        ];
        prop_assert_eq!(det3(&nalgebra::Matrix3::from_row_slice(&e)).sign(), Ok(Sign::Zero));
    }
}

/// Hand-picked cases (each fails without the bound it names).
#[test]
fn bounds_where_rounding_happens() {
    let p = |x: f64| MidRad::point(x).unwrap();
    // 1 + 2⁻⁵³ ties to 1 (even): the exact sum is 2⁻⁵³ away, the bound exactly that.
    let s = p(1.0) + p(f64::EPSILON / 2.0);
    assert_eq!((s.mid(), s.radius()), (1.0, f64::EPSILON / 2.0));
    // 1/3 · 3 − 1 cannot be certified zero from a rounded third.
    let third = p(1.0) / p(3.0);
    assert_eq!((third * p(3.0) - p(1.0)).sign(), Err(Uncertain::Close));
    // 0.1 + 0.2 − 0.3 (doubles) is 2⁻⁵⁵ exactly: the bound holds it and the sign is decided.
    let d = p(0.1) + p(0.2) - p(0.3);
    assert!(holds(&d, &(exact(0.1) + exact(0.2) - exact(0.3))));
    assert_eq!(d.sign(), Ok(Sign::Positive));
    // Underflow: 2⁻⁶⁰⁰ · 2⁻⁶⁰⁰ is not a double and rounds to zero; its sign is lost, not
    // invented.
    let u = p(pow2(-600)) * p(pow2(-600));
    assert!(holds(&u, &(exact(pow2(-600)) * exact(pow2(-600)))));
    assert_eq!(u.sign(), Err(Uncertain::Close));
    // A divisor within its bound of zero gives an unknown quotient.
    assert!(!(p(1.0) / MidRad::new(1.0, 1.0).unwrap()).radius().is_finite());
    // A subnormal product that is a double: too small for the product's residual, so its
    // bound is the absolute floor, which holds it and decides no sign (the interval stage,
    // which proves such a product exact, decides it: `tests/interval.rs`).
    let u = p(pow2(-530)) * p(pow2(-530) * 3.0);
    let e = exact(pow2(-530)) * exact(pow2(-530) * 3.0);
    assert!(holds(&u, &e));
    assert_eq!(u.mid(), 3.0 * pow2(-1060));
    assert!(matches!(u.sign(), Ok(Sign::Positive) | Err(Uncertain::Close)), "{u:?}");
    // 3·2⁻¹⁰⁷⁶ = 0.75η rounds to η: the bound holds the exact product, and no sign is invented
    // (the exact sign, or none).
    let u = p(pow2(-540)) * p(pow2(-536) * 3.0);
    assert!(holds(&u, &(exact(pow2(-540)) * exact(pow2(-536) * 3.0))));
    assert!(matches!(u.sign(), Ok(Sign::Positive) | Err(Uncertain::Close)), "{u:?}");
    // A value and its absolute value compare equal; a negative one below it.
    assert_eq!(p(pow2(-540)).compare(&p(pow2(-540)).abs()), Ok(std::cmp::Ordering::Equal));
    assert_eq!(p(-pow2(-540)).compare(&p(-pow2(-540)).abs()), Ok(std::cmp::Ordering::Less));
}

// ---------------------------------------------------------------------------------------------
// Decisions on near-degenerate inputs: the filter against the exact decision

mod decisions {
    use super::*;
    use touchstone::constructions::plane_through;
    use touchstone::geom::Point3;
    use touchstone::predicates::{orient3d, side_of_plane};
    use touchstone::query::{ClassifyPoint, Distance, PoseSpec, Posed, Query, ShapeSpec};

    type P = Point3<Q>;

    /// A grid point with coordinates k/8, |k| ≤ 32.
    fn grid_point() -> impl Strategy<Value = P> {
        [-32i64..=32, -32i64..=32, -32i64..=32].prop_map(|c| Point3::from(c.map(|k| Q::new(k.into(), 8.into()))))
    }

    /// A point on the plane through `a, b, c` (an exact affine combination with small rational
    /// weights), rounded coordinate by coordinate to binary64 (as an engine holds it): within
    /// an ulp of the plane, on either side or exactly on it.
    fn rounded_onto(a: &P, b: &P, c: &P, s: i64, t: i64, den: i64) -> (P, P) {
        let w = |k: i64| Q::new(k.into(), den.into());
        let on = a + (b - a) * w(s) + (c - a) * w(t);
        let rounded = on.map(|x| exact(num_traits::ToPrimitive::to_f64(&x).unwrap()));
        (on, rounded)
    }

    fn to_midrad(p: &P) -> Point3<MidRad> {
        p.map(|x| MidRad::from_rational(&x))
    }

    /// A decided filter decision is the exact one; counts decided and uncertain.
    fn judge<T: PartialEq + std::fmt::Debug>(exact: T, filter: Result<T, Uncertain>) -> Result<(), TestCaseError> {
        match filter {
            Ok(d) => {
                prop_assert_eq!(d, exact);
                count(true);
            }
            Err(u) => {
                prop_assert_eq!(u, Uncertain::Close);
                count(false);
            }
        }
        Ok(())
    }

    thread_local! {
        /// Decided and undecided filter decisions of this thread's cases.
        static TALLY: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
    }

    /// Run a property over `cases` cases (the suite's seed, `PROPTEST_RNG_SEED`) and return
    /// how many of its filter decisions were decided, and how many made.
    fn tally<S: Strategy>(
        cases: u32,
        strategy: S,
        property: impl Fn(S::Value) -> Result<(), TestCaseError>,
    ) -> (usize, usize) {
        TALLY.with(|t| t.set((0, 0)));
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases, ..ProptestConfig::default() });
        runner.run(&strategy, property).unwrap();
        TALLY.with(|t| t.get())
    }

    fn count(decided: bool) {
        TALLY.with(|t| {
            let (d, n) = t.get();
            t.set((d + usize::from(decided), n + 1));
        });
    }

    /// Points rounded onto planes through grid points (weights with denominators 3, 7,
    /// 10: not dyadic, so the rounded point is off the plane by a fraction of an ulp, or on
    /// it where the weights make the point a double), orient3d and side_of_plane on the
    /// filter against the exact decisions: never a different sign. Grid points with
    /// dyadic weights land exactly on the plane and are decided zero.
    #[test]
    fn points_rounded_onto_planes() {
        let strategy = (
            grid_point(),
            grid_point(),
            grid_point(),
            -20i64..20,
            -20i64..20,
            prop::sample::select(vec![3i64, 7, 10, 16]),
        );
        let (decided, made) = tally(400, strategy, |(a, b, c, s, t, den)| {
            let (on, rounded) = rounded_onto(&a, &b, &c, s, t, den);
            let Ok(exact_on) = orient3d(&a, &b, &c, &on) else { unreachable!() };
            let (ma, mb, mc) = (to_midrad(&a), to_midrad(&b), to_midrad(&c));
            judge(orient3d(&a, &b, &c, &rounded).unwrap(), orient3d(&ma, &mb, &mc, &to_midrad(&rounded)))?;
            if den == 16 {
                // Dyadic weights on a 1/8 grid: the point is a double on the plane, and the
                // filter decides it coplanar exactly.
                prop_assert_eq!(exact_on, touchstone::predicates::Orientation::Coplanar);
                prop_assert_eq!(orient3d(&ma, &mb, &mc, &to_midrad(&on)), Ok(exact_on));
            }
            if let (Ok(plane), Ok(mplane)) = (plane_through(&a, &b, &c), plane_through(&ma, &mb, &mc)) {
                judge(side_of_plane(&plane, &rounded).unwrap(), side_of_plane(&mplane, &to_midrad(&rounded)))?;
            }
            Ok(())
        });
        // A rounded point is off its plane by a fraction of an ulp of its coordinates: the
        // filter decides those whose offset its bounds can see, and every exact one (a third
        // of the cases when this was written; a quarter must be).
        eprintln!("points rounded onto planes: {decided} of {made} decisions made");
        assert!(decided * 4 >= made, "only {decided} of {made} decided");
    }

    /// Boxes under grid-snapped rotations (a rational quaternion's rotation matrix rounded
    /// to binary64 entries: a matrix pose that is nearly, not exactly, a rotation) touching,
    /// nearly touching or sunk into an axis-aligned box: `distance` and `classify_point` on
    /// the filter decide the exact status, features and class, or decline.
    #[test]
    fn boxes_under_grid_snapped_rotations() {
        let quaternion = [-3i64..=3, -3i64..=3, -3i64..=3, -3i64..=3].prop_filter("nonzero", |q| q != &[0; 4]);
        let strategy = (quaternion, prop::sample::select(vec![-1i64, 0, 1]), -8i64..=8);
        let (decided, made) = tally(200, strategy, |(quat, lift, x)| {
            let rotation = touchstone::geom::quaternion_matrix(&quat.map(Q::from_i64)).unwrap();
            let snapped: Vec<[Q; 4]> = (0..3)
                .map(|i| {
                    let e = |j: usize| exact(num_traits::ToPrimitive::to_f64(&rotation[(i, j)]).unwrap());
                    // b above a, its centre at height 2 + lift/2⁵⁰ (touching when lift = 0
                    // for an axis-aligned pose; grazing or sunk by a hair otherwise).
                    let t = if i == 2 {
                        Q::from_i64(2) + Q::new(lift.into(), (1i64 << 50).into())
                    } else {
                        Q::new(x.into(), 4.into())
                    };
                    [e(0), e(1), e(2), t]
                })
                .collect();
            let pose = PoseSpec::Matrix([snapped[0].clone(), snapped[1].clone(), snapped[2].clone()]);
            let unit = || ShapeSpec::cuboid([1, 1, 1].map(Q::from_i64)).unwrap();
            let q =
                Distance { a: Posed::new("a", unit(), PoseSpec::identity()), b: Posed::new("b", unit(), pose.clone()) };
            let Ok(exact_answer) = q.answer::<Q>() else { return Ok(()) };
            let discrete = |o: &touchstone::query::DistanceOutput<MidRad>| (o.status, o.features.clone());
            let filter = q.answer::<MidRad>().map(|a| discrete(&a.output)).map_err(|_| Uncertain::Close);
            judge((exact_answer.output.status, exact_answer.output.features.clone()), filter)?;
            let point = Point3::new(Q::new(x.into(), 4.into()), Q::from_i64(0), Q::from_i64(1));
            let c = ClassifyPoint { solid: Posed::new("solid", unit(), pose), point };
            if let Ok(e) = c.answer::<Q>() {
                let filter =
                    c.answer::<MidRad>().map(|a| (a.output.class, a.output.feature)).map_err(|_| Uncertain::Close);
                judge((e.output.class, e.output.feature), filter)?;
            }
            Ok(())
        });
        eprintln!("boxes under grid-snapped rotations: {decided} of {made} decisions made");
        assert!(decided * 3 >= made, "only {decided} of {made} decided");
    }
}
