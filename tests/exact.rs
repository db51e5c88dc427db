//! The fast exact backend (`Exact`: `m · 2^e / d` without a gcd per operation) against the
//! reference (`BigRational`): the same value after every operation of random expression trees
//! over binary64 numbers from the whole exponent range (subnormals, near the overflow
//! threshold) and small fractions, the same signs and orders, and values that round-trip.

use num_rational::BigRational;
use num_traits::Zero;
use proptest::prelude::*;
use touchstone::scalar::{Exact, Scalar};

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

    #[test]
    fn doubles_are_held_exactly(bits in any::<u64>()) {
        let v = f64::from_bits(bits);
        prop_assume!(v.is_finite());
        let e = Exact::from_f64(v).unwrap();
        prop_assert_eq!(e.to_rational().unwrap(), BigRational::from_float(v).unwrap());
        prop_assert_eq!(e.to_f64(), v);
        prop_assert_eq!(e.to_backend::<f64>(), v);
    }
}
