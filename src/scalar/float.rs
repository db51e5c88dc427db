//! The `f64` backend: the fast path, deciding signs with the tolerance of [`super::tolerance`].

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::{Decision, NumberError, Scalar, Sign, Uncertain};

impl Scalar for f64 {
    const EXACT_VALUES: bool = false;
    const CERTAIN_DECISIONS: bool = false;
    const NAME: &'static str = "f64";
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;
    /// The least positive subnormal, 2⁻¹⁰⁷⁴.
    const UNDERFLOW_UNIT: f64 = f64::from_bits(1);

    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(NumberError::NotFinite(v.to_string()))
        }
    }
    fn from_rational(q: &BigRational) -> Self {
        // num-rational rounds correctly (round half to even); beyond the range it saturates
        // to an infinity.
        ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    /// The tolerance policy of [`super::tolerance::decide`], written out for binary64 (the
    /// hot decision of the float path).
    fn sign_scaled(&self, magnitude: impl FnOnce() -> Self) -> Decision<Sign> {
        let sign = self.sign()?;
        if sign == Sign::Zero {
            return Ok(sign);
        }
        let bound = magnitude().abs() * super::tolerance::relative_tolerance(Self::UNIT_ROUNDOFF)
            + super::tolerance::absolute_tolerance(Self::UNDERFLOW_UNIT);
        match self.abs() - bound {
            // An overflowed magnitude bounds nothing (as in `tolerance::decide`).
            x if !x.is_finite() => Err(Uncertain::Overflow),
            x if x > 0.0 => Ok(sign),
            _ => Ok(Sign::Zero),
        }
    }
    fn to_backend<T: Scalar>(&self) -> T {
        // Inputs are finite; a non-finite value has no image but zero's sign-less stand-in.
        T::from_f64(*self).unwrap_or_else(|_| T::zero())
    }
    fn to_rational(&self) -> Option<BigRational> {
        BigRational::from_float(*self)
    }
    fn abs(&self) -> Self {
        f64::abs(*self)
    }
    /// The sign; [`Uncertain::Overflow`] for an infinity or a NaN (an overflow upstream: inputs
    /// are finite), so that a query that overflowed in `f64` says so instead of answering
    /// nonsense.
    fn sign(&self) -> Decision<Sign> {
        if !f64::is_finite(*self) {
            Err(Uncertain::Overflow)
        } else if *self > 0.0 {
            Ok(Sign::Positive)
        } else if *self < 0.0 {
            Ok(Sign::Negative)
        } else {
            Ok(Sign::Zero)
        }
    }
}
