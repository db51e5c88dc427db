//! The `f64` backend: the fast path, deciding signs with the tolerance of [`super::tolerance`].

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::{Decision, NumberError, Scalar, Sign, Uncertain};

impl Scalar for f64 {
    const EXACT_VALUES: bool = false;
    const CERTAIN_DECISIONS: bool = false;
    const NAME: &'static str = "f64";
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

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
