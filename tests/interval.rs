//! Soundness of the interval backend against exact rationals.
//!
//! Every property compares an interval result with the exact `BigRational` result of the same
//! operations on reals chosen inside the operands (the finite bounds, the midpoint, a third of
//! the way, and points far beyond an infinite bound). Bounds are drawn from the whole binary64
//! range: subnormals, 2⁻¹⁰⁰⁰ … 2¹⁰⁰⁰, values near `MAX`, signed zeros, small integers and short
//! dyadics (so that exact results, and exact cancellations, are frequent).
//!
//! Containment alone could be satisfied by answering the whole line, so the properties also
//! pin tightness: point operands give a result at most two ulps wide, and exactly the point
//! when the exact result is a double. Both fail on a missing or a spurious widening.

mod common;

use std::cmp::Ordering;

use common::doubles::*;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use touchstone::geom::det3;
use touchstone::scalar::{Interval, Scalar, Sign, Uncertain};

/// Whether the interval contains the rational (infinite bounds are unbounded).
fn contains(iv: &Interval, x: &Q) -> bool {
    (iv.lo() == f64::NEG_INFINITY || exact(iv.lo()) <= *x) && (iv.hi() == f64::INFINITY || *x <= exact(iv.hi()))
}

/// Reals inside `iv` to test with: the finite bounds, the midpoint and a third of the way
/// (when both bounds are finite), and a point 2¹¹⁰⁰ beyond an infinite bound.
fn samples(iv: &Interval) -> Vec<Q> {
    let beyond = pow2q(1100);
    let mut v = Vec::new();
    match (iv.lo().is_finite(), iv.hi().is_finite()) {
        (true, true) => {
            let (lo, hi) = (exact(iv.lo()), exact(iv.hi()));
            v.push(lo.clone());
            if lo != hi {
                let w = &hi - &lo;
                v.push(&lo + &w / Q::from_integer(2.into()));
                v.push(&lo + &w / Q::from_integer(3.into()));
                v.push(hi);
            }
        }
        (true, false) => {
            let lo = exact(iv.lo());
            v.push(&lo + &beyond);
            v.push(lo);
        }
        (false, true) => {
            let hi = exact(iv.hi());
            v.push(&hi - &beyond);
            v.push(hi);
        }
        (false, false) => {
            v.extend([-beyond.clone(), Q::zero(), beyond]);
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Strategies

fn interval_of(d: impl Strategy<Value = f64> + Clone) -> impl Strategy<Value = Interval> {
    prop_oneof![
        4 => d.clone().prop_map(|x| Interval::point(x).unwrap()),
        3 => (d.clone(), d.clone()).prop_map(|(a, b)| Interval::new(a.min(b), a.max(b)).unwrap()),
        2 => (d.clone(), 1usize..4).prop_map(|(a, k)| {
            let mut b = a;
            for _ in 0..k {
                b = b.next_up();
            }
            Interval::new(a, b.min(f64::MAX)).unwrap()
        }),
        1 => (d, any::<bool>()).prop_map(|(a, up)| if up {
            Interval::new(a, f64::INFINITY).unwrap()
        } else {
            Interval::new(f64::NEG_INFINITY, a).unwrap()
        }),
        1 => Just(Interval::whole()),
    ]
}

fn any_interval() -> impl Strategy<Value = Interval> {
    interval_of(any_double())
}

// ---------------------------------------------------------------------------------------------
// One operation

fn apply_interval(op: Op, a: Interval, b: Interval) -> Interval {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div => a / b,
    }
}

/// The result of one operation contains the exact result for every pair of samples, and its
/// signs and order are the exact ones whenever decided.
fn check_operation(op: Op, a: Interval, b: Interval) -> Result<(), TestCaseError> {
    let r = apply_interval(op, a, b);
    prop_assert!(Interval::new(r.lo(), r.hi()) == Some(r), "{op:?} {a} {b} broke the invariants: {r:?}");
    for x in samples(&a) {
        for y in samples(&b) {
            let Some(v) = apply_exact(op, &x, &y) else { continue };
            prop_assert!(contains(&r, &v), "{op:?}: {a} {b} gives {r}, which misses {x} {op:?} {y} = {v}");
            if let Ok(s) = r.sign() {
                prop_assert_eq!(s, sign_of(&v), "{:?} {} {} = {}", op, a, b, r);
            }
        }
    }
    // Order of the operands, decided only when true for every sample.
    if let Ok(o) = a.compare(&b) {
        for x in samples(&a) {
            for y in samples(&b) {
                prop_assert_eq!(o, x.cmp(&y), "compare {} {}", a, b);
            }
        }
    }
    Ok(())
}

/// Point operands: at most two ulps wide, and the point itself when the exact result is a
/// double.
fn check_tightness(op: Op, x: f64, y: f64) -> Result<(), TestCaseError> {
    let (a, b) = (Interval::point(x).unwrap(), Interval::point(y).unwrap());
    let r = apply_interval(op, a, b);
    let Some(v) = apply_exact(op, &exact(x), &exact(y)) else {
        prop_assert_eq!(r, Interval::whole());
        return Ok(());
    };
    let rounded = apply_f64(op, x, y);
    if rounded.is_finite() {
        prop_assert!(r.hi() <= r.lo().next_up().next_up(), "{x} {op:?} {y}: {r} is wider than two ulps");
        prop_assert!(r.contains(rounded), "{x} {op:?} {y}: {r} misses the rounded {rounded}");
        if exact(rounded) == v {
            prop_assert!(r.is_point(), "{x} {op:?} {y} = {rounded} exactly, but the interval is {r}");
        } else {
            prop_assert!(!r.is_point(), "{x} {op:?} {y} is not a double, but the interval is {r}");
        }
    } else {
        // Overflow: ±MAX on the finite side.
        let expected = if rounded > 0.0 { (f64::MAX, f64::INFINITY) } else { (f64::NEG_INFINITY, -f64::MAX) };
        prop_assert_eq!((r.lo(), r.hi()), expected, "{} {:?} {}", x, op, y);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn operations_enclose_the_exact_result(op in any_op(), a in any_interval(), b in any_interval()) {
        check_operation(op, a, b)?;
    }

    #[test]
    fn point_operations_are_tight(op in any_op(), x in any_double(), y in any_double()) {
        check_tightness(op, x, y)?;
    }

    #[test]
    fn abs_and_neg_enclose(a in any_interval()) {
        for x in samples(&a) {
            prop_assert!(contains(&a.abs(), &Signed::abs(&x)), "|{}| = {}", a, a.abs());
            prop_assert!(contains(&(-a), &-x.clone()));
        }
        prop_assert_eq!(-(-a), a);
        prop_assert!(a.abs().lo() >= 0.0);
    }

    #[test]
    fn small_integers_stay_points(a in -(1i64 << 26)..(1i64 << 26), b in -(1i64 << 26)..(1i64 << 26), k in 0u32..20) {
        let (x, y) = (Interval::from_i64(a), Interval::from_i64(b));
        prop_assert_eq!(x + y, Interval::from_i64(a + b));
        prop_assert_eq!(x - y, Interval::from_i64(a - b));
        prop_assert_eq!(x * y, Interval::from_i64(a * b));
        prop_assert_eq!((x - x).sign(), Ok(Sign::Zero));
        prop_assert_eq!((x * y - y * x).sign(), Ok(Sign::Zero));
        if b != 0 {
            // Exact quotients stay points: (a·b)/b, and a/2ᵏ.
            prop_assert_eq!(Interval::from_i64(a * b) / y, x);
            prop_assert_eq!((x / Interval::from_i64(1 << k)).to_rational(), Some(Q::new(a.into(), (1i64 << k).into())));
            if a % b != 0 && (b & (b - 1)) != 0 && (-b & (-b - 1)) != 0 {
                // Not a dyadic rational (b has an odd factor that does not divide a... at
                // least not always): then not a point unless exact.
                let q = Q::new(a.into(), b.into());
                prop_assert_eq!((x / y).is_point(), Q::from_float((a as f64) / (b as f64)) == Some(q));
            }
        }
    }

    #[test]
    fn from_i64_encloses(v in any::<i64>()) {
        let iv = Interval::from_i64(v);
        let q = Q::from_integer(v.into());
        prop_assert!(contains(&iv, &q));
        prop_assert!(iv.hi() <= iv.lo().next_up());
        prop_assert_eq!(iv.is_point(), exact(v as f64) == q);
    }

    #[test]
    fn from_rational_is_the_tightest_enclosure(n in any::<i64>(), d in 1i64..i64::MAX, e in -1200i32..1200) {
        let q = Q::new(n.into(), d.into()) * pow2q(e);
        let iv = Interval::from_rational(&q);
        prop_assert!(contains(&iv, &q), "{} misses {}", iv, q);
        if iv.is_point() {
            prop_assert_eq!(exact(iv.lo()), q);
        } else if iv.lo().is_finite() && iv.hi().is_finite() {
            prop_assert_eq!(iv.hi(), iv.lo().next_up(), "{} is not tight", iv);
        } else {
            prop_assert!(Signed::abs(&q) > exact(f64::MAX), "{} is unbounded for {}", iv, q);
        }
        prop_assert!(contains(&iv, &exact(iv.to_f64())));
    }

    #[test]
    fn to_f64_is_a_point_of_the_interval(a in any_interval()) {
        let m = a.to_f64();
        prop_assert!(m.is_finite() && a.contains(m), "{} has midpoint {}", a, m);
    }
}

// ---------------------------------------------------------------------------------------------
// Expression trees

fn eval_interval(e: &Expr, leaves: &[Interval]) -> Interval {
    match e {
        Expr::Leaf(i) => leaves[*i],
        Expr::Neg(a) => -eval_interval(a, leaves),
        Expr::Abs(a) => eval_interval(a, leaves).abs(),
        Expr::Bin(op, a, b) => apply_interval(*op, eval_interval(a, leaves), eval_interval(b, leaves)),
    }
}

/// The interval value of a tree contains its exact value at every choice of samples (one
/// sample index for all leaves, and a mixed choice), and a decided sign is the exact sign.
fn check_tree(e: &Expr, leaves: &[Interval]) -> Result<(), TestCaseError> {
    let r = eval_interval(e, leaves);
    let per_leaf: Vec<Vec<Q>> = leaves.iter().map(samples).collect();
    for choice in 0..5 {
        let values: Vec<Q> =
            per_leaf.iter().enumerate().map(|(i, s)| s[(choice + i * choice) % s.len()].clone()).collect();
        let Some(v) = eval_exact(e, &values) else { continue };
        prop_assert!(contains(&r, &v), "{e:?} on {leaves:?} gives {r}, missing {v}");
        if let Ok(s) = r.sign() {
            prop_assert_eq!(s, sign_of(&v), "{:?} on {:?} = {}", e, leaves, r);
        }
    }
    Ok(())
}

fn matrix(entries: &[Interval; 9]) -> nalgebra::Matrix3<Interval> {
    nalgebra::Matrix3::from_row_slice(entries)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn expression_trees_enclose(e in any_expr(), leaves in prop::collection::vec(any_interval(), LEAVES)) {
        check_tree(&e, &leaves)?;
    }

    #[test]
    fn moderate_expression_trees_decide_and_enclose(
        e in any_expr(),
        leaves in prop::collection::vec(interval_of(moderate_double()), LEAVES),
    ) {
        check_tree(&e, &leaves)?;
    }

    #[test]
    fn determinants_enclose_and_decide_correctly(entries in prop::array::uniform9(interval_of(moderate_double()))) {
        let d = det3(&matrix(&entries));
        let per: Vec<Vec<Q>> = entries.iter().map(samples).collect();
        for choice in 0..4 {
            let m: [Q; 9] = std::array::from_fn(|i| per[i][(choice * (i + 1)) % per[i].len()].clone());
            let v = det3_exact(&m);
            prop_assert!(contains(&d, &v), "det {entries:?} = {d} misses {v}");
            if let Ok(s) = d.sign() {
                prop_assert_eq!(s, sign_of(&v));
            }
        }
    }

    /// Rank-deficient matrices of short dyadics: the third row a combination of the first two.
    /// Every product and sum is a double, so the determinant is the point zero.
    #[test]
    fn degenerate_dyadic_determinants_are_exactly_zero(
        rows in prop::array::uniform6(-(1i64 << 12)..(1i64 << 12)),
        (p, q) in (-8i64..8, -8i64..8),
        scale in -20i32..20,
    ) {
        let s = pow2(scale);
        let v = |k: i64| Interval::point(k as f64 * s).unwrap();
        let e: [Interval; 9] = [
            v(rows[0]), v(rows[1]), v(rows[2]),
            v(rows[3]), v(rows[4]), v(rows[5]),
            v(p * rows[0] + q * rows[3]), v(p * rows[1] + q * rows[4]), v(p * rows[2] + q * rows[5]),
        ];
        prop_assert_eq!(det3(&matrix(&e)).sign(), Ok(Sign::Zero));
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-picked cases where rounding happens (a test that cannot fail is a defect: each of these
// fails without the widening it names)

#[test]
fn rounding_direction_is_the_residual_sign() {
    let p = |x: f64| Interval::point(x).unwrap();
    // 1 + 2⁻⁵³ ties to 1 (even): the exact sum is above, so hi must move.
    let s = p(1.0) + p(f64::EPSILON / 2.0);
    assert_eq!((s.lo(), s.hi()), (1.0, 1.0f64.next_up()));
    // 1 + 3·2⁻⁵⁴ rounds up: the exact sum is below, so lo must move.
    let s = p(1.0) + p(3.0 * f64::EPSILON / 4.0);
    assert_eq!((s.lo(), s.hi()), (1.0, 1.0f64.next_up()));
    assert!(contains(&s, &(Q::one() + exact(3.0 * f64::EPSILON / 4.0))));
    // (1 + 2⁻⁵²)² = 1 + 2⁻⁵¹ + 2⁻¹⁰⁴ rounds down.
    let a = 1.0 + f64::EPSILON;
    let sq = p(a) * p(a);
    assert_eq!((sq.lo(), sq.hi()), (a * a, (a * a).next_up()));
    // 2/3 rounds down (0.666…63): hi must move up; 1/10 rounds up (0.1000…055): lo down.
    let t = p(2.0) / p(3.0);
    assert_eq!((t.lo(), t.hi()), (2.0 / 3.0, (2.0f64 / 3.0).next_up()));
    let t = p(1.0) / p(10.0);
    assert_eq!((t.lo(), t.hi()), (0.1f64.next_down(), 0.1));
    // A subnormal product that rounds: 3η · 0.5 = 1.5η, rounded to 2η (even).
    let h = p(3.0 * TINY) * p(0.5);
    assert!(contains(&h, &(exact(3.0 * TINY) / Q::from_integer(2.into()))));
    assert!(!h.is_point());
}

#[test]
fn certain_signs_of_close_values() {
    let p = |x: f64| Interval::point(x).unwrap();
    // 1/3 · 3 − 1 straddles zero: the exact value 0 cannot be certified from a rounded 1/3.
    let third = p(1.0) / p(3.0);
    assert_eq!((third * p(3.0) - p(1.0)).sign(), Err(Uncertain::Close));
    // 0.1 + 0.2 (doubles) vs 0.3 (double): exactly 2⁻⁵⁵ apart, above.
    let d = p(0.1) + p(0.2) - p(0.3);
    assert!(contains(&d, &(exact(0.1) + exact(0.2) - exact(0.3))));
    // A subnormal product that is a double is exact, a point: its sign is decided.
    let u = p(pow2(-530)) * p(pow2(-530) * 3.0);
    assert_eq!((u.lo(), u.sign()), (3.0 * pow2(-1060), Ok(Sign::Positive)));
    // 3·2⁻¹⁰⁷⁶ = 0.75η rounds to η with a residual that RN flushes to zero: nothing proves the
    // side, so both are widened and the sign (positive) is lost: [0, 2η].
    let u = p(pow2(-540)) * p(pow2(-536) * 3.0);
    assert_eq!((u.lo(), u.hi(), u.sign()), (0.0, 2.0 * TINY, Err(Uncertain::Close)));
    assert_eq!(p(pow2(-540)).compare(&p(pow2(-540)).abs()), Ok(Ordering::Equal));
}
