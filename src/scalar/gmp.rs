//! GMP-backed backends (feature `rug`): exact rationals and big floats of chosen precision.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{One, Zero};
use rug::integer::Order;
use rug::{Float, Integer, Rational};

use super::{Decision, NumberError, Scalar, Sign, Uncertain};

/// An exact rational backed by GMP (`rug::Rational`): the same answers as [`BigRational`],
/// roughly twenty times faster.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
pub struct RugRational(pub Rational);

/// A binary floating-point number with `PREC` bits of mantissa (`rug::Float`), rounding to
/// nearest: an inexact backend whose tolerance shrinks with its precision. `PREC` must lie in
/// 2..=1000.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
pub struct BigFloat<const PREC: u32>(pub Float);

fn integer_of_bigint(v: &BigInt) -> Integer {
    let (sign, digits) = v.to_u32_digits();
    let magnitude = Integer::from_digits(&digits, Order::Lsf);
    if sign == BigSign::Minus {
        -magnitude
    } else {
        magnitude
    }
}

fn bigint_of_integer(v: &Integer) -> BigInt {
    let mut digits = vec![0u32; v.significant_digits::<u32>()];
    v.write_digits(&mut digits, Order::Lsf);
    let sign = match v.cmp0() {
        Ordering::Less => BigSign::Minus,
        Ordering::Equal => BigSign::NoSign,
        Ordering::Greater => BigSign::Plus,
    };
    BigInt::from_slice(sign, &digits)
}

/// A `rug::Rational` from a `BigRational`, exactly.
pub fn rug_of_rational(q: &BigRational) -> Rational {
    Rational::from((integer_of_bigint(q.numer()), integer_of_bigint(q.denom())))
}

/// A `BigRational` from a `rug::Rational`, exactly.
pub fn rational_of_rug(q: &Rational) -> BigRational {
    BigRational::new(bigint_of_integer(q.numer()), bigint_of_integer(q.denom()))
}

fn sign_of(o: Ordering) -> Sign {
    o.into()
}

macro_rules! wrapper_ops {
    ([$($gen:tt)*] $t:ty) => {
        impl<$($gen)*> Add for $t { type Output = Self; fn add(self, r: Self) -> Self { Self(self.0 + r.0) } }
        impl<$($gen)*> Sub for $t { type Output = Self; fn sub(self, r: Self) -> Self { Self(self.0 - r.0) } }
        impl<$($gen)*> Mul for $t { type Output = Self; fn mul(self, r: Self) -> Self { Self(self.0 * r.0) } }
        impl<$($gen)*> Div for $t { type Output = Self; fn div(self, r: Self) -> Self { Self(self.0 / r.0) } }
        impl<$($gen)*> Neg for $t { type Output = Self; fn neg(self) -> Self { Self(-self.0) } }
        impl<$($gen)*> AddAssign for $t { fn add_assign(&mut self, r: Self) { self.0 += r.0 } }
        impl<$($gen)*> SubAssign for $t { fn sub_assign(&mut self, r: Self) { self.0 -= r.0 } }
        impl<$($gen)*> MulAssign for $t { fn mul_assign(&mut self, r: Self) { self.0 *= r.0 } }
        impl<$($gen)*> DivAssign for $t { fn div_assign(&mut self, r: Self) { self.0 /= r.0 } }
        impl<$($gen)*> fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { fmt::Display::fmt(&self.0, f) }
        }
    };
}

wrapper_ops!([] RugRational);
wrapper_ops!([const PREC: u32] BigFloat<PREC>);

impl Zero for RugRational {
    fn zero() -> Self {
        RugRational(Rational::new())
    }
    fn is_zero(&self) -> bool {
        self.0.cmp0() == Ordering::Equal
    }
}

impl One for RugRational {
    fn one() -> Self {
        RugRational(Rational::from(1))
    }
}

impl crate::scalar::Certain for RugRational {}
impl crate::scalar::ExactValues for RugRational {}

impl Scalar for RugRational {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    const EXACT_VALUES: bool = true;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "rug::Rational";
    const UNIT_ROUNDOFF: f64 = 0.0;

    fn from_i64(v: i64) -> Self {
        RugRational(Rational::from(v))
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        Rational::from_f64(v).map(RugRational).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    fn from_rational(q: &BigRational) -> Self {
        RugRational(rug_of_rational(q))
    }
    fn to_f64(&self) -> f64 {
        // `rug::Rational::to_f64` truncates toward zero; the trait promises the nearest double.
        num_traits::ToPrimitive::to_f64(&rational_of_rug(&self.0)).unwrap_or(f64::NAN)
    }
    fn to_rational(&self) -> Option<BigRational> {
        Some(rational_of_rug(&self.0))
    }
    fn abs(&self) -> Self {
        RugRational(self.0.clone().abs())
    }
    fn sign(&self) -> Decision<Sign> {
        Ok(sign_of(self.0.cmp0()))
    }
}

/// 2^-p as a binary64 constant (p <= 1022).
const fn pow2_neg(p: u32) -> f64 {
    f64::from_bits(((1023 - p as u64) & 0x7ff) << 52)
}

impl<const PREC: u32> Zero for BigFloat<PREC> {
    fn zero() -> Self {
        BigFloat(Float::with_val(PREC, 0))
    }
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
}

impl<const PREC: u32> One for BigFloat<PREC> {
    fn one() -> Self {
        BigFloat(Float::with_val(PREC, 1))
    }
}

impl<const PREC: u32> crate::scalar::Tolerant for BigFloat<PREC> {}

impl<const PREC: u32> Scalar for BigFloat<PREC> {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.tolerant()
    }

    const EXACT_VALUES: bool = false;
    const CERTAIN_DECISIONS: bool = false;
    const NAME: &'static str = "rug::Float";
    const UNIT_ROUNDOFF: f64 = pow2_neg(PREC);

    fn from_i64(v: i64) -> Self {
        BigFloat(Float::with_val(PREC, v))
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        if v.is_finite() {
            Ok(BigFloat(Float::with_val(PREC, v)))
        } else {
            Err(NumberError::NotFinite(v.to_string()))
        }
    }
    fn from_rational(q: &BigRational) -> Self {
        BigFloat(Float::with_val(PREC, &rug_of_rational(q)))
    }
    fn to_f64(&self) -> f64 {
        self.0.to_f64()
    }
    fn to_rational(&self) -> Option<BigRational> {
        self.0.to_rational().map(|q| rational_of_rug(&q))
    }
    fn abs(&self) -> Self {
        BigFloat(self.0.clone().abs())
    }
    fn sign(&self) -> Decision<Sign> {
        if self.0.is_finite() {
            self.0.cmp0().map(sign_of).ok_or(Uncertain::Overflow)
        } else {
            Err(Uncertain::Overflow)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip_exactly() {
        for s in ["0", "-3/7", "123456789012345678901234567890/7", "1e-40"] {
            let q = crate::scalar::parse_rational(s).unwrap();
            assert_eq!(RugRational::from_rational(&q).to_rational().unwrap(), q, "{s}");
        }
    }

    #[test]
    fn unit_roundoff_is_two_to_minus_prec() {
        assert_eq!(BigFloat::<53>::UNIT_ROUNDOFF, f64::EPSILON / 2.0);
        assert_eq!(BigFloat::<200>::UNIT_ROUNDOFF, 2f64.powi(-200));
    }
}
