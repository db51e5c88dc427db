//! Polynomials, exact root isolation, algebraic numbers and the `f64` finder.
//!
//! Decimal expansions were computed independently with Python's `decimal` module at 120
//! digits of precision (`(Decimal(13)/Decimal(5)).sqrt()`, Newton's method for t³ - t - 1).

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use touchstone::poly::{
    float_roots, isolate_roots, real_roots, Algebraic, Poly, PolyError, RootInterval, MAX_COEFF_BITS,
};
use touchstone::scalar::ratio;

type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    ratio(n, d)
}

fn int(n: i64) -> Q {
    ratio(n, 1)
}

fn poly(coeffs: &[(i64, i64)]) -> Poly<Q> {
    Poly::from_coeffs(coeffs.iter().map(|&(n, d)| q(n, d)).collect())
}

/// The exact rational roots if every isolated root is a point (panics otherwise: a test).
fn points(roots: &[RootInterval]) -> Vec<Q> {
    roots
        .iter()
        .map(|iv| match iv {
            RootInterval::Point(r) => r.clone(),
            open => panic!("expected an exact root, got {open:?}"),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Ring operations

#[test]
fn ring_operations_by_hand() {
    let a = poly(&[(1, 1), (2, 1)]); // 2t + 1
    let b = poly(&[(-1, 1), (0, 1), (1, 1)]); // t² - 1
    assert_eq!(&a * &b, poly(&[(-1, 1), (-2, 1), (1, 1), (2, 1)]));
    assert_eq!(&a + &b, poly(&[(0, 1), (2, 1), (1, 1)]));
    assert_eq!(&a - &a, Poly::zero());
    assert_eq!((&b - &b).degree(), None);
    assert_eq!(-a.clone(), poly(&[(-1, 1), (-2, 1)]));
    assert_eq!(b.eval(&q(1, 2)), q(-3, 4));
    assert_eq!(b.derivative(), poly(&[(0, 1), (2, 1)]));
    // (t³ + 2t + 5) = (t² - 1)(t) + (3t + 5)
    let (quot, rem) = poly(&[(5, 1), (2, 1), (0, 1), (1, 1)]).div_rem(&b).unwrap();
    assert_eq!(quot, poly(&[(0, 1), (1, 1)]));
    assert_eq!(rem, poly(&[(5, 1), (3, 1)]));
    assert_eq!(b.div_rem(&Poly::zero()), Err(PolyError::DivisionByZero));
    // p(t + 1) and p(2t) and composition.
    assert_eq!(b.shift(&int(1)), poly(&[(0, 1), (2, 1), (1, 1)]));
    assert_eq!(b.scale_arg(&int(2)), poly(&[(-1, 1), (0, 1), (4, 1)]));
    assert_eq!(b.compose(&a), poly(&[(0, 1), (4, 1), (4, 1)]));
    assert_eq!(b.to_string(), "t^2 - 1");
    assert_eq!(poly(&[(1, 2), (-3, 1)]).to_string(), "-3*t + 1/2");
}

#[test]
fn gcd_and_square_free_part() {
    let r = |v: &[i64]| Poly::from_roots(&v.iter().map(|&k| int(k)).collect::<Vec<_>>());
    assert_eq!(r(&[1, 1, 2, 3]).gcd(&r(&[1, 3, 3, 7]).scale(&q(-5, 3))).unwrap(), r(&[1, 3]));
    assert_eq!(r(&[1, 2]).gcd(&r(&[3])).unwrap(), Poly::constant(int(1)));
    assert_eq!(r(&[4, 4, 4, -1, -1, 0]).square_free_part().unwrap(), r(&[4, -1, 0]));
    assert_eq!(Poly::<Q>::zero().square_free_part().unwrap(), Poly::zero());
}

// ---------------------------------------------------------------------------------------------
// Exact isolation

#[test]
fn double_root_is_reported_once_at_its_location() {
    // (t - 1/3)(t - 2)² on [0, 3]: the grazing double root at 2 is one root.
    let p = Poly::from_roots(&[q(1, 3), int(2), int(2)]);
    let roots = isolate_roots(&p, &int(0), &int(3)).unwrap();
    assert_eq!(points(&roots), vec![q(1, 3), int(2)]);
    let f = float_roots(&p.convert().unwrap(), 0.0, 3.0).unwrap();
    assert_eq!(f.len(), 2);
    assert!((f[0] - 1.0 / 3.0).abs() < 1e-15);
    assert!((f[1] - 2.0).abs() < 1e-7, "{f:?}");
}

#[test]
fn irrational_root_digits_are_correct() {
    // t² - 13/5: ±√(13/5) = ±1.61245154965970993047332264606075422622687926112171...
    let p = poly(&[(-13, 5), (0, 1), (1, 1)]);
    let roots = real_roots(&p, &int(-3), &int(3)).unwrap();
    assert_eq!(roots.len(), 2);
    assert!(!roots[1].is_rational() && roots[1].to_rational().is_none());
    let RootInterval::Open { lo, hi } = roots[1].interval() else { panic!("√(13/5) is irrational") };
    assert!(lo < &q(1612451, 1_000_000) && &q(1612452, 1_000_000) < hi);
    assert_eq!(roots[1].to_decimal(50).unwrap(), "1.6124515496597099304733226460607542262268792611217");
    assert_eq!(roots[1].to_decimal(20).unwrap(), "1.6124515496597099304");
    assert_eq!(roots[1].to_decimal(2).unwrap(), "1.6");
    assert_eq!(roots[1].to_decimal(1).unwrap(), "1");
    // Truncation toward zero for the negative root.
    assert_eq!(roots[0].to_decimal(20).unwrap(), "-1.6124515496597099304");
    // The nearest double, checked with Python's exact Decimal(float) values: 1.6124515496597098
    // is 1.6124515496597098263..., 1.61245154965971 is 1.6124515496597100483...
    assert_eq!(roots[1].to_f64(), 1.6124515496597098);
    assert_eq!(real_roots(&poly(&[(-2, 1), (0, 1), (1, 1)]), &int(0), &int(2)).unwrap()[0].to_f64(), 2f64.sqrt());
}

#[test]
fn decimals_of_cubic_and_tiny_roots() {
    // The plastic number, the real root of t³ - t - 1.
    let p = poly(&[(-1, 1), (-1, 1), (0, 1), (1, 1)]);
    let roots = real_roots(&p, &int(-10), &int(10)).unwrap();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0].to_decimal(40).unwrap(), "1.324717957244746025960908854478097340734");
    // √(2·10⁻⁴⁰) = 1.41421356237309504880...e-20: scientific notation, and a tiny interval.
    let two_e_40 = Q::new(BigInt::from(2), BigInt::from(10).pow(40));
    let p = Poly::from_coeffs(vec![-two_e_40, Q::zero(), Q::one()]);
    let roots = real_roots(&p, &int(0), &int(1)).unwrap();
    assert_eq!(roots[0].to_decimal(20).unwrap(), "1.4142135623730950488e-20");
}

#[test]
fn wilkinson_like_product_all_rational_roots_exact() {
    // ∏ (t - k/7), k = 1..10 on [0, 2]: no root is a dyadic midpoint, all are found exactly.
    let roots_in: Vec<Q> = (1..=10).map(|k| q(k, 7)).collect();
    let p = Poly::from_roots(&roots_in).scale(&int(-3));
    let roots = isolate_roots(&p, &int(0), &int(2)).unwrap();
    assert_eq!(points(&roots), roots_in);
    let alg = real_roots(&p, &int(0), &int(2)).unwrap();
    assert!(alg.iter().zip(&roots_in).all(|(a, r)| a.to_rational().as_ref() == Some(r)));
    // Half of them on [3/7, 11/14]: 3/7 at the closed end is included.
    assert_eq!(points(&isolate_roots(&p, &q(3, 7), &q(11, 14)).unwrap()), vec![q(3, 7), q(4, 7), q(5, 7)]);
    let f = float_roots(&p.convert().unwrap(), 0.0, 2.0).unwrap();
    assert_eq!(f.len(), 10);
    for (x, k) in f.iter().zip(1..) {
        // Rounding the coefficients to f64 moves these clustered roots by ~1e-12.
        assert!((x - k as f64 / 7.0).abs() < 1e-9, "{f:?}");
    }
}

#[test]
fn roots_exactly_at_the_endpoints_are_found() {
    let p = Poly::from_roots(&[int(1), int(2), int(3)]);
    assert_eq!(points(&isolate_roots(&p, &int(1), &int(3)).unwrap()), vec![int(1), int(2), int(3)]);
    assert_eq!(points(&isolate_roots(&p, &int(1), &int(1)).unwrap()), vec![int(1)]);
    assert!(isolate_roots(&p, &q(5, 2), &q(5, 2)).unwrap().is_empty());
    assert_eq!(points(&isolate_roots(&p, &int(3), &int(9)).unwrap()), vec![int(3)]);
    // A double root at the left end and a simple one at the right end.
    let p = Poly::from_roots(&[q(-1, 3), q(-1, 3), q(5, 4)]);
    assert_eq!(points(&isolate_roots(&p, &q(-1, 3), &q(5, 4)).unwrap()), vec![q(-1, 3), q(5, 4)]);
    let f = float_roots(&Poly::from_roots(&[1.0, 2.0, 3.0]), 1.0, 3.0).unwrap();
    assert_eq!(f, vec![1.0, 2.0, 3.0]);
}

#[test]
fn no_roots_and_roots_just_outside() {
    let p = poly(&[(1, 1), (0, 1), (1, 1)]); // t² + 1
    assert!(isolate_roots(&p, &int(-100), &int(100)).unwrap().is_empty());
    assert!(float_roots(&p.convert().unwrap(), -100.0, 100.0).unwrap().is_empty());
    assert!(isolate_roots(&Poly::constant(int(7)), &int(0), &int(1)).unwrap().is_empty());
    // √2 = 1.41421356237309504880168...: just outside, then just inside.
    let s2 = poly(&[(-2, 1), (0, 1), (1, 1)]);
    let below = Q::new(BigInt::from(14142135623730950488u64), BigInt::from(10).pow(19));
    let above = Q::new(BigInt::from(14142135623730950489u64), BigInt::from(10).pow(19));
    assert!(isolate_roots(&s2, &int(0), &below).unwrap().is_empty());
    assert_eq!(isolate_roots(&s2, &int(0), &above).unwrap().len(), 1);
    assert!(isolate_roots(&s2, &above, &int(5)).unwrap().is_empty());
    // A rational root 2⁻¹⁰⁰ past the end.
    let eps = Q::new(BigInt::one(), BigInt::one() << 100);
    let p = Poly::from_roots(&[int(1) + eps.clone(), q(1, 2)]);
    assert_eq!(points(&isolate_roots(&p, &int(0), &int(1)).unwrap()), vec![q(1, 2)]);
    assert_eq!(points(&isolate_roots(&p, &int(1), &int(2)).unwrap()), vec![int(1) + eps]);
}

// ---------------------------------------------------------------------------------------------
// Algebraic numbers

#[test]
fn equal_algebraic_numbers_from_different_polynomials() {
    let s2 = poly(&[(-2, 1), (0, 1), (1, 1)]);
    let s2_times = &s2 * &poly(&[(5, 1), (1, 1)]); // (t² - 2)(t + 5)
    let a = real_roots(&s2, &int(0), &int(2)).unwrap().remove(0);
    let b = real_roots(&s2_times, &q(1, 3), &int(7)).unwrap().remove(0);
    assert_ne!(a.interval(), b.interval());
    assert_eq!(a.cmp(&b), Ordering::Equal);
    assert_eq!(a, b);
    // -5 is a rational root of the second; √3 > √2; √2 + 10⁻³⁰-ish (a close neighbour) > √2.
    let minus5 = real_roots(&s2_times, &int(-6), &int(0)).unwrap();
    assert_eq!(minus5.len(), 2);
    assert_eq!(minus5[0].to_rational(), Some(int(-5)));
    let s3 = real_roots(&poly(&[(-3, 1), (0, 1), (1, 1)]), &int(0), &int(2)).unwrap().remove(0);
    assert_eq!(a.cmp(&s3), Ordering::Less);
    assert_eq!(s3.cmp(&b), Ordering::Greater);
    let close = Q::from_integer(2.into()) + Q::new(BigInt::one(), BigInt::from(10).pow(60));
    let near = real_roots(&Poly::from_coeffs(vec![-close, Q::zero(), Q::one()]), &int(1), &int(2)).unwrap();
    assert_eq!(a.cmp(&near[0]), Ordering::Less);
    assert_eq!(near[0].cmp(&b), Ordering::Greater);
    // Comparison with rationals, and sorting mixed numbers.
    assert_eq!(a.cmp_rational(&q(99, 70)), Ordering::Less); // 99/70 = 1.4142857...
    assert_eq!(a.cmp_rational(&q(140, 99)), Ordering::Greater); // 140/99 = 1.4141414...
    assert_eq!(minus5[0].cmp_rational(&int(-5)), Ordering::Equal);
    let mut all = [s3.clone(), Algebraic::from_rational(q(3, 2)), a.clone(), minus5[1].clone()];
    all.sort();
    assert_eq!(all[0], minus5[1]);
    assert_eq!((all[1].clone(), all[2].to_rational(), all[3].clone()), (a.clone(), Some(q(3, 2)), s3));
}

#[test]
fn algebraic_new_validates_and_refine_narrows() {
    let s2 = poly(&[(-2, 1), (0, 1), (1, 1)]);
    let mut a = Algebraic::new(&s2, RootInterval::Open { lo: int(1), hi: int(2) }).unwrap();
    let width = Q::new(BigInt::one(), BigInt::from(10).pow(30));
    a.refine(&width).unwrap();
    let RootInterval::Open { lo, hi } = a.interval() else { panic!("√2 is irrational") };
    assert!(hi - lo <= width && lo * lo < int(2) && hi * hi > int(2));
    assert_eq!(a.refine(&int(0)), Err(PolyError::NonPositiveWidth));
    // Two roots, no root, a root at an open end, a rational root given as an interval.
    assert_eq!(
        Algebraic::new(&s2, RootInterval::Open { lo: int(-2), hi: int(2) }).unwrap_err(),
        PolyError::NotIsolating
    );
    assert_eq!(
        Algebraic::new(&s2, RootInterval::Open { lo: int(2), hi: int(3) }).unwrap_err(),
        PolyError::NotIsolating
    );
    let p = Poly::from_roots(&[int(1), q(7, 3)]);
    let open_end = RootInterval::Open { lo: int(1), hi: int(2) };
    assert_eq!(Algebraic::new(&p, open_end).unwrap_err(), PolyError::NotIsolating);
    let r = Algebraic::new(&p, RootInterval::Open { lo: int(2), hi: int(3) }).unwrap();
    assert_eq!(r.to_rational(), Some(q(7, 3)));
    assert_eq!(r.to_decimal(5).unwrap(), "2.3333");
    assert!(Algebraic::new(&p, RootInterval::Point(int(2))).is_err());
    assert!(Algebraic::new(&p, RootInterval::Point(int(1))).unwrap().is_rational());
}

// ---------------------------------------------------------------------------------------------
// Limits and bad input: typed errors, never a panic

#[test]
fn limits_and_bad_input_are_typed_errors() {
    let big = Poly::monomial(int(1), 65);
    assert_eq!(isolate_roots(&big, &int(0), &int(1)), Err(PolyError::DegreeTooLarge(65)));
    let huge = Q::from_integer(BigInt::one() << (MAX_COEFF_BITS + 10));
    let p = Poly::from_coeffs(vec![huge.clone(), int(1)]);
    assert!(matches!(isolate_roots(&p, &int(0), &int(1)), Err(PolyError::CoefficientTooLarge { index: 0, .. })));
    let t = Poly::<Q>::t();
    assert!(matches!(isolate_roots(&t, &int(0), &huge), Err(PolyError::NumberTooLarge { what: "hi", .. })));
    assert_eq!(isolate_roots(&Poly::zero(), &int(0), &int(1)), Err(PolyError::ZeroPolynomial));
    assert_eq!(isolate_roots(&t, &int(1), &int(0)), Err(PolyError::EmptyInterval));
    let a = real_roots(&poly(&[(-2, 1), (0, 1), (1, 1)]), &int(0), &int(2)).unwrap();
    assert_eq!(a[0].to_decimal(1001), Err(PolyError::TooManyDigits(1001)));
    let ft = Poly::from_coeffs(vec![0.0, 1.0]);
    assert_eq!(float_roots(&ft, 0.0, f64::NAN), Err(PolyError::NotFinite("t1")));
    assert_eq!(
        float_roots(&Poly::from_coeffs(vec![f64::INFINITY]), 0.0, 1.0),
        Err(PolyError::NotFinite("a coefficient"))
    );
    assert_eq!(float_roots(&ft, 1.0, 0.0), Err(PolyError::EmptyInterval));
    assert_eq!(float_roots(&Poly::zero(), 0.0, 1.0), Err(PolyError::ZeroPolynomial));
    assert_eq!(float_roots(&Poly::monomial(1.0, 65), 0.0, 1.0), Err(PolyError::DegreeTooLarge(65)));
    // Overflow in f64 evaluation is reported, not answered.
    let steep = Poly::from_coeffs(vec![-1.0, 0.0, 0.0, 0.0, 1e300]);
    assert_eq!(float_roots(&steep, -1e100, 1e100), Err(PolyError::Uncertain(touchstone::scalar::Uncertain::Overflow)));
}

#[test]
fn degree_64_with_rational_roots_is_handled() {
    // 32 double roots k/3: degree 64, at the limit.
    let roots: Vec<Q> = (1..=32).flat_map(|k| [q(k, 3), q(k, 3)]).collect();
    let p = Poly::from_roots(&roots);
    assert_eq!(p.degree(), Some(64));
    let found = isolate_roots(&p, &int(0), &int(11)).unwrap();
    assert_eq!(points(&found), (1..=32).map(|k| q(k, 3)).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// Properties

/// The exact roots in [lo, hi] of ∏ (t - rᵢ), each once, sorted.
fn expected_in(roots: &[Q], lo: &Q, hi: &Q) -> Vec<Q> {
    let mut v: Vec<Q> = roots.iter().filter(|r| lo <= *r && *r <= hi).cloned().collect();
    v.sort();
    v.dedup();
    v
}

/// Relative distance from `x` to the closed interval [lo, hi].
fn rel_distance(x: f64, iv: &RootInterval) -> f64 {
    let (lo, hi) = (iv.lo().to_f64().unwrap_or(f64::NAN), iv.hi().to_f64().unwrap_or(f64::NAN));
    let d = if x < lo {
        lo - x
    } else if x > hi {
        x - hi
    } else {
        0.0
    };
    d / x.abs().max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Integer roots with multiplicities, times a constant: isolation finds exactly the
    /// distinct roots in [lo, hi], each as an exact point.
    #[test]
    fn isolation_finds_exactly_the_integer_roots(
        roots in prop::collection::vec(-12i64..=12, 1..9),
        scale in prop_oneof![-9i64..=-1, 1i64..=9],
        lo in -15i64..=5,
        len in 0i64..=20,
        den in 1i64..=4,
    ) {
        let rs: Vec<Q> = roots.iter().map(|&k| int(k)).collect();
        let p = Poly::from_roots(&rs).scale(&int(scale));
        let (lo, hi) = (q(lo, den), q(lo + len, den));
        let found = isolate_roots(&p, &lo, &hi).unwrap();
        prop_assert_eq!(points(&found), expected_in(&rs, &lo, &hi));
        for a in real_roots(&p, &lo, &hi).unwrap() {
            prop_assert!(a.is_rational());
        }
    }

    /// Well-separated roots (distinct integers over a common denominator, and ±√m): the f64
    /// finder finds as many roots as exact isolation, each within 1e-9 relative of its
    /// isolating interval.
    #[test]
    fn float_finder_agrees_with_exact_isolation(
        ints in prop::collection::btree_set(-10i64..=10, 0..5),
        den in 1i64..=5,
        squares in prop::collection::btree_set(prop::sample::select(vec![2i64, 3, 5, 6, 7, 10, 11, 13]), 0..3),
        t0 in -12i64..=0,
        t1 in 0i64..=12,
    ) {
        // Roots k/den and ±√m never coincide (√m is irrational), and are 1/5 or more apart...
        // except √m against k/den: keep the distance above 10⁻³ by construction of the table.
        let mut p = Poly::from_roots(&ints.iter().map(|&k| q(k, den)).collect::<Vec<_>>());
        for &m in &squares {
            p = &p * &poly(&[(-m, 1), (0, 1), (1, 1)]);
        }
        prop_assume!(p.degree().unwrap_or(0) >= 1);
        let exact = isolate_roots(&p, &int(t0), &int(t1)).unwrap();
        let fast = float_roots(&p.convert().unwrap(), t0 as f64, t1 as f64).unwrap();
        prop_assert_eq!(fast.len(), exact.len(), "exact {:?}, fast {:?}", exact, fast);
        for (x, iv) in fast.iter().zip(&exact) {
            prop_assert!(rel_distance(*x, iv) <= 1e-9, "{} not in {:?}", x, iv);
        }
    }

    /// Exact comparison agrees with comparing long decimals, and equal roots of different
    /// polynomials compare equal.
    #[test]
    fn comparison_is_consistent(a in 2i64..60, b in 2i64..60, k in 1i64..5) {
        let sa = real_roots(&poly(&[(-a, 1), (0, 1), (1, 1)]), &int(0), &int(8)).unwrap().remove(0);
        let sb_poly = &poly(&[(-b, 1), (0, 1), (1, 1)]) * &Poly::from_roots(&[int(-k)]);
        let sb = real_roots(&sb_poly, &int(0), &int(8)).unwrap().remove(0);
        prop_assert_eq!(sa.cmp(&sb), a.cmp(&b));
        let f = sa.to_f64();
        prop_assert!((f * f - a as f64).abs() <= 1e-12 * a as f64);
        prop_assert_eq!(sa.cmp_rational(&int(k)), (a).cmp(&(k * k)));
    }
}

#[test]
fn decimal_truncation_matches_an_independent_computation() {
    // √n for n = 2..50 non-square (one digit before the point), against isqrt(n·10^(2·40)) computed with big integers.
    for n in 2i64..50 {
        let r = (n as f64).sqrt() as i64;
        if r * r == n {
            continue;
        }
        let a = real_roots(&poly(&[(-n, 1), (0, 1), (1, 1)]), &int(0), &int(n)).unwrap().remove(0);
        let digits = (BigInt::from(n) * BigInt::from(10).pow(80)).sqrt().to_string();
        let expected = format!("{}.{}", &digits[..1], digits[1..41].trim_end_matches('0'));
        assert_eq!(a.to_decimal(41).unwrap(), expected, "√{n}");
        assert!(a.cmp_rational(&Q::from_integer(BigInt::from(r))).is_gt());
        assert!(a.to_f64().is_sign_positive());
        assert!(!a.is_rational() && !Signed::is_negative(a.interval().lo()));
    }
}

#[test]
fn f64_coefficients_mean_their_exact_values() {
    // 0.1t² - 0.3t + 0.2 with the coefficients' exact binary values: the roots are near 1 and
    // 2 but not at them; exact isolation and the f64 finder agree to within the intervals.
    let p64 = Poly::from_coeffs(vec![0.2, -0.3, 0.1]);
    let p: Poly<Q> = p64.convert().unwrap();
    let exact = real_roots(&p, &int(0), &int(3)).unwrap();
    assert_eq!(exact.len(), 2);
    assert_ne!(exact[0].cmp_rational(&int(1)), Ordering::Equal);
    let fast = float_roots(&p64, 0.0, 3.0).unwrap();
    assert_eq!(fast.len(), 2);
    for (x, a) in fast.iter().zip(&exact) {
        assert!((x - a.to_f64()).abs() <= 4.0 * f64::EPSILON * x.abs(), "{x} vs {}", a.to_f64());
    }
}
