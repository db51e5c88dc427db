//! Binary64 inputs for the filter backends' soundness tests (`tests/interval.rs`,
//! `tests/midrad.rs`): doubles from the whole range, biased toward the hard places, operations
//! and expression trees, and their exact values.
#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use touchstone::scalar::Sign;

pub type Q = BigRational;

/// The least positive subnormal.
pub const TINY: f64 = 5e-324;

/// 2ᵏ as a rational.
pub fn pow2q(k: i32) -> Q {
    let p = Q::from_integer(BigInt::one() << k.unsigned_abs());
    if k >= 0 {
        p
    } else {
        p.recip()
    }
}

/// The exact value of a finite double.
pub fn exact(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}

/// The sign of a rational.
pub fn sign_of(x: &Q) -> Sign {
    if x.is_positive() {
        Sign::Positive
    } else if x.is_negative() {
        Sign::Negative
    } else {
        Sign::Zero
    }
}

/// 2ᵏ exactly, subnormals included.
pub fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// The double of the given sign, biased exponent and fraction bits.
pub fn from_parts(negative: bool, biased: u64, fraction: u64) -> f64 {
    let x = f64::from_bits((biased << 52) | (fraction & ((1u64 << 52) - 1)));
    if negative {
        -x
    } else {
        x
    }
}

/// A finite double from the whole range, biased toward the hard places.
pub fn any_double() -> impl Strategy<Value = f64> + Clone {
    let specials = prop::sample::select(vec![
        0.0,
        -0.0,
        TINY,
        -TINY,
        2.0 * TINY,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::MIN_POSITIVE.next_down(),
        f64::MAX,
        -f64::MAX,
        f64::MAX.next_down(),
        1.0,
        -1.0,
        0.5,
        0.1,
        1.0 / 3.0,
        pow2(-969),
        pow2(-1000),
        pow2(1000),
        f64::EPSILON,
    ]);
    prop_oneof![
        2 => specials,
        2 => (-64i64..=64).prop_map(|k| k as f64),
        // Short dyadics: m·2ᵉ with a 20-bit m, exact through several operations.
        2 => (-(1i64 << 20)..(1i64 << 20), -60i32..60).prop_map(|(m, e)| m as f64 * pow2(e)),
        // Short dyadics at the extremes of the exponent range.
        1 => (-255i64..256, prop_oneof![-1074i32..-1000, 960i32..1016]).prop_map(|(m, e)| m as f64 * pow2(e)),
        // Any normal double.
        3 => (any::<bool>(), 1u64..2047, any::<u64>()).prop_map(|(s, e, f)| from_parts(s, e, f)),
        // Near the underflow threshold of products (2⁻¹⁰²² … 2⁻⁹⁰⁰).
        1 => (any::<bool>(), 1u64..124, any::<u64>()).prop_map(|(s, e, f)| from_parts(s, e, f)),
        // Near MAX.
        1 => (any::<bool>(), 2030u64..2047, any::<u64>()).prop_map(|(s, e, f)| from_parts(s, e, f)),
        // Subnormals, long and short.
        1 => (any::<bool>(), any::<u64>()).prop_map(|(s, f)| from_parts(s, 0, f)),
        1 => (any::<bool>(), 1u64..64).prop_map(|(s, f)| from_parts(s, 0, f)),
    ]
}

/// A moderate double: what coordinates usually are.
pub fn moderate_double() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        (-20i64..=20).prop_map(|k| k as f64),
        (-(1i64 << 20)..(1i64 << 20), -30i32..10).prop_map(|(m, e)| m as f64 * pow2(e)),
        (any::<bool>(), 1003u64..1043, any::<u64>()).prop_map(|(s, e, f)| from_parts(s, e, f)),
    ]
}

// ---------------------------------------------------------------------------------------------
// Operations

#[derive(Clone, Copy, Debug)]
/// An arithmetic operation.
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// The exact result; `None` for a division by zero.
pub fn apply_exact(op: Op, a: &Q, b: &Q) -> Option<Q> {
    match op {
        Op::Add => Some(a + b),
        Op::Sub => Some(a - b),
        Op::Mul => Some(a * b),
        Op::Div => (!b.is_zero()).then(|| a / b),
    }
}

/// The operation rounded to nearest in binary64.
pub fn apply_f64(op: Op, a: f64, b: f64) -> f64 {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div => a / b,
    }
}

/// Any of the four.
pub fn any_op() -> impl Strategy<Value = Op> {
    prop::sample::select(vec![Op::Add, Op::Sub, Op::Mul, Op::Div])
}

// ---------------------------------------------------------------------------------------------
// Expression trees

#[derive(Clone, Debug)]
/// An expression tree over numbered leaves.
pub enum Expr {
    Leaf(usize),
    Neg(Box<Expr>),
    Abs(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
}

/// Leaves per tree.
pub const LEAVES: usize = 5;

/// Trees of depth up to 4.
pub fn any_expr() -> impl Strategy<Value = Expr> {
    let leaf = (0..LEAVES).prop_map(Expr::Leaf);
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            1 => inner.clone().prop_map(|e| Expr::Abs(Box::new(e))),
            6 => (any_op(), inner.clone(), inner).prop_map(|(op, a, b)| Expr::Bin(op, Box::new(a), Box::new(b))),
        ]
    })
}

/// The exact value of a tree at exact leaves (`None`: a division by zero).
pub fn eval_exact(e: &Expr, leaves: &[Q]) -> Option<Q> {
    match e {
        Expr::Leaf(i) => Some(leaves[*i].clone()),
        Expr::Neg(a) => Some(-eval_exact(a, leaves)?),
        Expr::Abs(a) => Some(Signed::abs(&eval_exact(a, leaves)?)),
        Expr::Bin(op, a, b) => apply_exact(*op, &eval_exact(a, leaves)?, &eval_exact(b, leaves)?),
    }
}

/// A 3×3 determinant in rationals (row-major entries).
pub fn det3_exact(m: &[Q; 9]) -> Q {
    let d = |a: usize, b: usize, c: usize, e: usize| &m[a] * &m[e] - &m[b] * &m[c];
    &m[0] * d(4, 5, 7, 8) - &m[1] * d(3, 5, 6, 8) + &m[2] * d(3, 4, 6, 7)
}
