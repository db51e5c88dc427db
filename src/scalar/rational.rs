//! The `BigRational` backend (num-rational, pure Rust): the readable exact reference.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

use super::{Decision, NumberError, Scalar, Sign};

thread_local! {
    static MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count one exact value made (see [`exact_values_made`]).
pub(crate) fn made_one() {
    MADE.with(|m| m.set(m.get() + 1));
}

/// How many exact rationals this thread has made through the scalar layer's entry points
/// (the `BigRational` backend's constructors and conversions, and [`parse_rational`](super::parse_rational)).
/// A test of the float path reads it before and after: the `f64` path makes none.
pub fn exact_values_made() -> u64 {
    MADE.with(|m| m.get())
}

impl crate::scalar::Certain for BigRational {}
impl crate::scalar::ExactValues for BigRational {}

impl Scalar for BigRational {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    const EXACT_VALUES: bool = true;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "BigRational";
    const UNIT_ROUNDOFF: f64 = 0.0;

    fn from_i64(v: i64) -> Self {
        made_one();
        BigRational::from_integer(v.into())
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        made_one();
        // `from_float` decodes the binary64 exactly (mantissa · 2^exponent).
        BigRational::from_float(v).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    fn from_rational(q: &BigRational) -> Self {
        made_one();
        q.clone()
    }
    fn to_backend<T: Scalar>(&self) -> T {
        made_one();
        T::from_rational(self)
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn to_rational(&self) -> Option<BigRational> {
        Some(self.clone())
    }
    fn image(&self) -> Decision<f64> {
        Ok(super::image::image_of_rational(self))
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
