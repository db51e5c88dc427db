//! Decimal output: exact values and square roots to a requested number of correct digits.
//!
//! A decimal string has `digits` *significant* digits, every one correct, truncated toward
//! zero (so the printed value lies between zero and the true value). Trailing zeros after the
//! point are dropped. Values from 10⁻⁷ to 10²¹ are positional, others scientific (`1.5e-30`).

use num_bigint::{BigInt, Sign as BigSign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::Scalar;

/// Decimal printing, a capability of every backend with an exact rational value.
pub trait Decimal {
    /// The value to `digits` correct significant digits (truncated toward zero).
    fn to_decimal(&self, digits: u32) -> Option<String>;
    /// The square root of a non-negative value to `digits` correct significant digits.
    fn sqrt_decimal(&self, digits: u32) -> Option<String>;
}

impl<S: Scalar> Decimal for S {
    fn to_decimal(&self, digits: u32) -> Option<String> {
        self.to_rational().map(|q| decimal_of_rational(&q, digits))
    }
    fn sqrt_decimal(&self, digits: u32) -> Option<String> {
        sqrt_decimal_of_rational(&self.to_rational()?, digits)
    }
}

/// floor(log10(x)) for x > 0, exactly.
fn floor_log10(x: &BigRational) -> i64 {
    // Estimate from bit lengths, then correct with exact comparisons.
    let bits = x.numer().bits() as i64 - x.denom().bits() as i64;
    let mut e = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    while !pow10_at_most(e, x) {
        e -= 1;
    }
    while pow10_at_most(e + 1, x) {
        e += 1;
    }
    e
}

/// Whether 10ᵉ ≤ x for x = n/d > 0, on integers: 10ᵉ·d ≤ n, or d ≤ n·10⁻ᵉ (a comparison
/// of rationals would cross-multiply and compare by continued fractions).
fn pow10_at_most(e: i64, x: &BigRational) -> bool {
    let ten = BigInt::from(10u32).pow(e.unsigned_abs() as u32);
    if e >= 0 {
        ten * x.denom() <= *x.numer()
    } else {
        *x.denom() <= x.numer() * ten
    }
}

/// ⌊√n⌋ for n ≥ 0. Below 2¹²⁸ (every square root printed to 20 digits or fewer): the
/// double's square root, one Newton step on integers (from an estimate within 2⁻⁵² of the
/// root, the step lands within one), then a correction to the floor.
fn isqrt(n: &BigInt) -> BigInt {
    let Some(v) = n.to_u128() else { return n.sqrt() };
    let mut r = (v as f64).sqrt() as u128;
    if r > 0 {
        r = (r + v / r) / 2;
    }
    while r.checked_mul(r).is_none_or(|sq| sq > v) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= v) {
        r += 1;
    }
    BigInt::from(r)
}

/// `|x|` to `digits` correct significant digits, truncated toward zero, with `x`'s sign.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::scalar::decimal_of_rational;
/// let third = BigRational::new(1.into(), 3.into());
/// assert_eq!(decimal_of_rational(&third, 5), "0.33333");
/// assert_eq!(decimal_of_rational(&-third, 3), "-0.333");
/// ```
pub fn decimal_of_rational(x: &BigRational, digits: u32) -> String {
    if x.is_zero() {
        return "0".to_string();
    }
    let digits = digits.max(1) as i64;
    let a = Signed::abs(x);
    let e = floor_log10(&a);
    let k = digits - 1 - e;
    let n = scaled_floor(&a, k);
    render(x.is_negative(), &n, k, e)
}

/// ⌊x·10ᵏ⌋ for x ≥ 0, by one integer division: no product of rationals, whose reduction to
/// lowest terms (a gcd of the scaled numbers) cost more than the rest of the printing.
fn scaled_floor(x: &BigRational, k: i64) -> BigInt {
    let ten = |k: i64| BigInt::from(10u32).pow(k.unsigned_abs() as u32);
    if k >= 0 {
        (x.numer() * ten(k)).div_floor(x.denom())
    } else {
        x.numer().div_floor(&(x.denom() * ten(k)))
    }
}

/// `sqrt(x)` for `x >= 0` to `digits` correct significant digits, truncated toward zero;
/// `None` for negative `x`.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::scalar::sqrt_decimal_of_rational;
/// let two = BigRational::from_integer(2.into());
/// assert_eq!(sqrt_decimal_of_rational(&two, 20).unwrap(), "1.4142135623730950488");
/// ```
pub fn sqrt_decimal_of_rational(x: &BigRational, digits: u32) -> Option<String> {
    if x.is_negative() {
        return None;
    }
    if x.is_zero() {
        return Some("0".to_string());
    }
    let digits = digits.max(1) as i64;
    // floor(log10(sqrt x)) = floor(floor(log10 x) / 2).
    let e = Integer::div_floor(&floor_log10(x), &2);
    let k = digits - 1 - e;
    // floor(sqrt(z)) = isqrt(floor(z)) for z >= 0.
    let n = isqrt(&scaled_floor(x, 2 * k));
    Some(render(false, &n, k, e))
}

/// Render `n · 10^-k` (n has exactly digits = k + e + 1 digits) as a decimal string.
fn render(negative: bool, n: &BigInt, k: i64, e: i64) -> String {
    let s = n.to_str_radix(10);
    debug_assert!(n.sign() != BigSign::Minus);
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if (-7..21).contains(&e) {
        if k <= 0 {
            out.push_str(&s);
            out.extend(std::iter::repeat_n('0', (-k) as usize));
        } else if (k as usize) < s.len() {
            let (int, frac) = s.split_at(s.len() - k as usize);
            out.push_str(int);
            push_fraction(&mut out, frac);
        } else {
            out.push('0');
            let frac = "0".repeat(k as usize - s.len()) + &s;
            push_fraction(&mut out, &frac);
        }
    } else {
        let (first, rest) = s.split_at(1);
        out.push_str(first);
        push_fraction(&mut out, rest);
        out.push_str(&format!("e{e}"));
    }
    out
}

fn push_fraction(out: &mut String, frac: &str) {
    let frac = frac.trim_end_matches('0');
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::parse_rational;

    fn dec(s: &str, d: u32) -> String {
        decimal_of_rational(&parse_rational(s).unwrap(), d)
    }

    #[test]
    fn exact_values_print_exactly() {
        assert_eq!(dec("0", 20), "0");
        assert_eq!(dec("5", 20), "5");
        assert_eq!(dec("-3/7", 20), "-0.42857142857142857142");
        assert_eq!(dec("123456", 3), "123000");
        assert_eq!(dec("0.001", 20), "0.001");
        assert_eq!(dec("1.5e-30", 20), "1.5e-30");
        assert_eq!(dec("2/3", 1), "0.6");
        assert_eq!(dec("99999", 2), "99000");
        assert_eq!(dec("1e25", 5), "1e25");
        assert_eq!(dec("0.1", 20), "0.1");
        // The binary64 nearest to 0.1, exactly, is not 0.1.
        let tenth = BigRational::from_float(0.1f64).unwrap();
        assert_eq!(decimal_of_rational(&tenth, 30), "0.100000000000000005551115123125");
    }

    #[test]
    fn square_roots_truncate() {
        let s = |x: &str, d| sqrt_decimal_of_rational(&parse_rational(x).unwrap(), d).unwrap();
        assert_eq!(s("4", 20), "2");
        assert_eq!(s("1/4", 20), "0.5");
        assert_eq!(s("2", 5), "1.4142");
        assert_eq!(s("200", 5), "14.142");
        assert_eq!(s("2e-40", 5), "1.4142e-20");
        assert_eq!(s("10", 3), "3.16");
        assert_eq!(s("99.99", 3), "9.99");
        assert!(sqrt_decimal_of_rational(&parse_rational("-1").unwrap(), 3).is_none());
    }

    /// The integer square root against num-bigint's on squares, their neighbours and the
    /// ends of the 128-bit fast path.
    #[test]
    fn integer_square_roots_are_floors() {
        let mut roots: Vec<BigInt> = (0u32..200).map(BigInt::from).collect();
        for k in [26u32, 31, 32, 52, 53, 54, 63, 64, 65, 100] {
            let p = BigInt::from(2u32).pow(k);
            roots.extend([p.clone() - 1u32, p.clone(), p.clone() + 1u32, p * 3u32 / 5u32]);
        }
        roots.push(BigInt::from(u64::MAX));
        for r in roots {
            for n in [&r * &r - 1u32, &r * &r, &r * &r + 1u32, (&r + 1u32) * (&r + 1u32) - 1u32] {
                if n.is_negative() {
                    continue;
                }
                assert_eq!(isqrt(&n), n.sqrt(), "isqrt({n})");
            }
        }
        let max = BigInt::from(u128::MAX);
        assert_eq!(isqrt(&max), max.sqrt());
        assert_eq!(isqrt(&(max.clone() + 1u32)), (max + 1u32).sqrt());
    }
}
