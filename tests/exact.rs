//! The fast exact backend (`Exact`: `m · 2^e / d` without a gcd per operation) against the
//! reference (`BigRational`): the same value after every operation of random expression trees
//! over binary64 numbers from the whole exponent range (subnormals, near the overflow
//! threshold) and small fractions, the same signs and orders, and values that round-trip.

use num_rational::BigRational;
use num_traits::Zero;
use proptest::prelude::*;
use touchstone::scalar::{Exact, Scalar, Sign};

#[derive(Clone, Debug)]
enum Expr {
    Leaf(BigRational),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

fn leaf() -> impl Strategy<Value = BigRational> {
    prop_oneof![
        // Doubles of every magnitude: a significand and an exponent from 2^-1074 to 2^1023.
        (any::<i64>(), -1100i32..1000).prop_map(|(m, k)| {
            let x = (m >> 11) as f64 * 2f64.powi(k.clamp(-1074, 971));
            BigRational::from_float(if x.is_finite() { x } else { 1.0 }).unwrap()
        }),
        (-50i64..50, 1i64..50).prop_map(|(p, q)| BigRational::new(p.into(), q.into())),
        Just(BigRational::zero()),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_map(Expr::Leaf).prop_recursive(5, 40, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Expr::Div(Box::new(a), Box::new(b))),
        ]
    })
}

/// The value on backend `S`. A division by zero divides by one instead, so that every
/// expression has a value and none is skipped (the backends must still agree on which
/// denominators are zero: one that did not would give another value).
fn eval<S: Scalar>(e: &Expr) -> S {
    match e {
        Expr::Leaf(q) => S::from_rational(q),
        Expr::Add(a, b) => eval::<S>(a) + eval::<S>(b),
        Expr::Sub(a, b) => eval::<S>(a) - eval::<S>(b),
        Expr::Mul(a, b) => eval::<S>(a) * eval::<S>(b),
        Expr::Div(a, b) => {
            let d = eval::<S>(b);
            let d = if d.is_zero() { S::one() } else { d };
            eval::<S>(a) / d
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_expression_has_the_reference_value(e in expr(), f in expr()) {
        let (x, y) = (eval::<BigRational>(&e), eval::<BigRational>(&f));
        let (a, b) = (eval::<Exact>(&e), eval::<Exact>(&f));
        prop_assert_eq!(a.to_rational().unwrap(), x.clone());
        // In lowest terms, as the reference (a Ratio compares by value, so check the parts).
        let r = a.to_rational().unwrap();
        prop_assert_eq!((r.numer(), r.denom()), (x.numer(), x.denom()));
        prop_assert_eq!(a.sign(), x.sign());
        prop_assert_eq!(a.compare(&b), x.compare(&y));
        prop_assert_eq!(a == b, x == y);
        prop_assert_eq!(Exact::from_rational(&x), a.clone());
        // Conversions: to the reference exactly, to binary64 correctly rounded.
        prop_assert_eq!(a.to_backend::<BigRational>(), x.clone());
        prop_assert_eq!(a.to_backend::<f64>(), f64::from_rational(&x));
    }

    /// Fractions with a large common odd factor, reduced exactly as num-rational reduces them.
    #[test]
    fn fractions_come_out_in_lowest_terms(n in any::<[u64; 3]>(), d in any::<[u64; 3]>(), g in any::<[u64; 2]>(), k in 0u32..200) {
        use num_bigint::BigInt;
        let big = |w: &[u64]| -> BigInt { w.iter().fold(BigInt::from(0), |acc, &x| (acc << 64) + BigInt::from(x)) };
        let odd = |w: &[u64]| -> BigInt { big(w) * 2 + 1 };
        let (n, d, g) = (big(&n) << k, odd(&d), odd(&g));
        let reference = BigRational::new(n.clone() * &g, d.clone() * &g);
        let exact = Exact::from_rational(&BigRational::new_raw(n * &g, BigInt::from(1))) / Exact::from_rational(&BigRational::new_raw(d * &g, BigInt::from(1)));
        let r = exact.to_rational().unwrap();
        prop_assert_eq!((r.numer(), r.denom()), (reference.numer(), reference.denom()));
    }

    /// Values over one denominator reduced together (one gcd on the denominator's size) come
    /// out as num-rational reduces each: common factors shared by one value, by two, by all
    /// three, and numerators that are multiples of the whole denominator (product ≡ 0).
    #[test]
    fn shared_denominators_come_out_in_lowest_terms(
        w in any::<[[u64; 2]; 3]>(), dw in any::<[u64; 3]>(), g in any::<[u64; 2]>(), h in any::<u64>(),
        whole in any::<bool>(), k in 0u32..100,
    ) {
        use num_bigint::BigInt;
        let big = |w: &[u64]| -> BigInt { w.iter().fold(BigInt::from(0), |acc, &x| (acc << 64) + BigInt::from(x)) };
        let odd = |w: &[u64]| -> BigInt { big(w) * 2 + 1 };
        let (g, h) = (odd(&g), odd(&[h]));
        let d = odd(&dw) * &g * &h;
        let n = [
            (big(&w[0]) * &g) << k,
            big(&w[1]) * &g * &h,
            if whole { big(&w[2]) * &d } else { -big(&w[2]) },
        ];
        let int = |x: &BigInt| Exact::from_rational(&BigRational::new_raw(x.clone(), BigInt::from(1)));
        let xs: Vec<Exact> = n.iter().map(|n| int(n) / int(&d)).collect();
        let together = Exact::to_big_rationals([&xs[0], &xs[1], &xs[2]]);
        for (i, r) in together.iter().enumerate() {
            let reference = BigRational::new(n[i].clone(), d.clone());
            prop_assert_eq!((r.numer(), r.denom()), (reference.numer(), reference.denom()), "coordinate {}", i);
            prop_assert_eq!(r, &xs[i].to_big_rational());
        }
    }

    /// `integral_multiple` on `Exact` (whose fractions are held unreduced) gives the values
    /// `BigRational` gives: each value times the lcm of the odd parts of the denominators in
    /// lowest terms, computed here from the reduced fractions.
    #[test]
    fn integral_multiples_are_alike_and_least(
        parts in proptest::collection::vec((-(1i64 << 40)..(1i64 << 40), 1i64..2000, -3i64..30, 0i64..3), 4..=4),
        shift in -70i32..70,
    ) {
        use num_bigint::BigInt;
        use num_integer::Integer;
        use num_traits::One;
        // n/d · 2^shift, held by `Exact` over d·c (a common factor c it does not cancel).
        let two = |k: i32| if k >= 0 { BigRational::from_integer(BigInt::one() << k as usize) } else { BigRational::new(BigInt::one(), BigInt::one() << (-k) as usize) };
        let reference: Vec<BigRational> = parts.iter().map(|&(n, d, c, _)| BigRational::new(n.into(), d.into()) * two(shift + c as i32 % 5)).collect();
        let fast: Vec<Exact> = parts
            .iter()
            .zip(&reference)
            .map(|(&(n, d, c, k), r)| {
                let common = [1i64, 3, 15, 7][k as usize % 4];
                let q = Exact::from_i64(n * common) / Exact::from_i64(d * common) * Exact::from_rational(&two(shift + c as i32 % 5));
                assert_eq!(q.to_rational().unwrap(), *r);
                q
            })
            .collect();
        let odd = |d: &BigInt| d >> d.trailing_zeros().unwrap_or(0);
        let lcm = reference.iter().fold(BigInt::one(), |l, r| l.lcm(&odd(r.denom())));
        let expected: Vec<BigRational> = reference.iter().map(|r| r * BigRational::from_integer(lcm.clone())).collect();
        let on_reference = BigRational::integral_multiple([&reference[0], &reference[1], &reference[2], &reference[3]]);
        let on_fast = Exact::integral_multiple([&fast[0], &fast[1], &fast[2], &fast[3]]);
        // `None`: nothing to clear (then the values are the expected ones already).
        let got_reference = on_reference.map_or_else(|| reference.clone(), |v| v.to_vec());
        let got_fast: Vec<BigRational> =
            on_fast.map_or_else(|| fast.clone(), |v| v.to_vec()).iter().map(|x| x.to_rational().unwrap()).collect();
        prop_assert_eq!(&got_reference, &expected);
        prop_assert_eq!(&got_fast, &expected);
    }

    /// The index's side filter encloses a positive multiple of a homogeneous form: integers far
    /// beyond binary64's range (up to 2^2700) are enclosed after one scaling, and the interval
    /// dot product then decides every form that is not within 2⁻⁴⁰ of zero relative to its terms,
    /// and never decides a sign that is not the exact one (exact zeros included).
    #[test]
    fn scaled_enclosures_decide_large_forms_rightly(
        a in proptest::collection::vec(any::<[u64; 5]>(), 4..=4),
        b in proptest::collection::vec(any::<[u64; 5]>(), 4..=4),
        base in [0u32..2200, 0u32..2200],
        shifts in proptest::collection::vec(0u32..150, 8..=8),
        signs in any::<[bool; 8]>(),
        zero in any::<bool>(),
    ) {
        use num_bigint::BigInt;
        use touchstone::predicates::filter::{dot4_sign, enclose4};
        let big = |w: &[u64], k: u32, neg: bool| -> BigInt {
            let x = w.iter().fold(BigInt::from(0), |acc, &x| (acc << 64) + BigInt::from(x)) << k as usize;
            if neg { -x } else { x }
        };
        // Each form's values within 2^470 of each other (the filter encloses a value below
        // 2^-480 of the largest by [0, 2^-479], which a clear form may then need), at any size.
        let xa: Vec<BigInt> = (0..4).map(|i| big(&a[i], base[0] + shifts[i], signs[i])).collect();
        let mut xb: Vec<BigInt> = (0..4).map(|i| big(&b[i], base[1] + shifts[4 + i], signs[4 + i])).collect();
        if zero {
            // A point on the plane: b = (a₁, −a₀, 0, 0)·c.
            let c = &xb[0];
            xb = vec![&xa[1] * c, -(&xa[0] * c), BigInt::from(0), BigInt::from(0)];
        }
        let ex = |x: &BigInt| Exact::from_rational(&BigRational::from_integer(x.clone()));
        let (ea, eb): (Vec<Exact>, Vec<Exact>) = (xa.iter().map(ex).collect(), xb.iter().map(ex).collect());
        let dot: BigInt = xa.iter().zip(&xb).map(|(x, y)| x * y).sum();
        let terms: BigInt = xa.iter().zip(&xb).map(|(x, y)| (x * y).magnitude().clone()).map(BigInt::from).sum();
        let truth = match dot.sign() { num_bigint::Sign::Minus => Sign::Negative, num_bigint::Sign::NoSign => Sign::Zero, num_bigint::Sign::Plus => Sign::Positive };
        let (fa, fb) = (enclose4([&ea[0], &ea[1], &ea[2], &ea[3]]), enclose4([&eb[0], &eb[1], &eb[2], &eb[3]]));
        prop_assert!(fa.is_some() && fb.is_some(), "no enclosure");
        let decided = dot4_sign(&fa.unwrap(), &fb.unwrap());
        if let Some(s) = decided {
            prop_assert_eq!(s, truth);
        }
        if dot.magnitude().bits() + 40 > terms.magnitude().bits() + 1 && truth != Sign::Zero {
            prop_assert_eq!(decided, Some(truth), "a clear form undecided");
        }
    }

    #[test]
    fn doubles_are_held_exactly(bits in any::<u64>()) {
        let v = f64::from_bits(bits);
        prop_assume!(v.is_finite());
        let e = Exact::from_f64(v).unwrap();
        prop_assert_eq!(e.to_rational().unwrap(), BigRational::from_float(v).unwrap());
        prop_assert_eq!(e.to_f64(), v);
        prop_assert_eq!(e.to_backend::<f64>(), v);
    }

    /// `Exact::sum_of_products` (integers aligned to the least exponent, one normalisation)
    /// against the term-by-term sum on `BigRational`: doubles of every magnitude (exponents
    /// 2,000 bits apart), fractions (the generic route), zeros, and coefficients of both signs.
    #[test]
    fn sums_of_products_have_the_reference_value(
        terms in proptest::collection::vec((-3i64..=3, leaf(), leaf()), 0..6),
    ) {
        let truth = terms.iter().fold(BigRational::zero(), |acc, (c, a, b)| acc + BigRational::from_integer((*c).into()) * a * b);
        let held: Vec<(i64, Exact, Exact)> =
            terms.iter().map(|(c, a, b)| (*c, Exact::from_rational(a), Exact::from_rational(b))).collect();
        let refs: Vec<(i64, &Exact, &Exact)> = held.iter().map(|(c, a, b)| (*c, a, b)).collect();
        let sum = Exact::sum_of_products(&refs);
        prop_assert_eq!(sum.to_rational().unwrap(), truth.clone());
        // And the generic sum on the same backend gives the same double.
        let generic = held.iter().fold(Exact::zero(), |acc, (c, a, b)| acc + Exact::from_i64(*c) * a.clone() * b.clone());
        prop_assert_eq!(sum.to_f64(), generic.to_f64());
        prop_assert_eq!(BigRational::sum_of_products(&terms.iter().map(|(c, a, b)| (*c, a, b)).collect::<Vec<_>>()), truth);
    }
}
