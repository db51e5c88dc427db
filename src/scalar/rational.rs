//! The `BigRational` backend (num-rational, pure Rust): the readable exact reference.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

use super::{Decision, NumberError, Scalar, Sign};

impl Scalar for BigRational {
    const EXACT_VALUES: bool = true;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "BigRational";
    const UNIT_ROUNDOFF: f64 = 0.0;

    fn from_i64(v: i64) -> Self {
        BigRational::from_integer(v.into())
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        // `from_float` decodes the binary64 exactly (mantissa · 2^exponent).
        BigRational::from_float(v).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    fn from_rational(q: &BigRational) -> Self {
        q.clone()
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn to_rational(&self) -> Option<BigRational> {
        Some(self.clone())
    }
    fn abs(&self) -> Self {
        Signed::abs(self)
    }
    fn sign(&self) -> Decision<Sign> {
        Ok(if self.is_positive() {
            Sign::Positive
        } else if self.is_negative() {
            Sign::Negative
        } else {
            Sign::Zero
        })
    }
}
