//! The `f64` backend: the fast path, deciding signs with the tolerance of [`super::tolerance`].

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::{Decision, NumberError, Scalar, Sign, Uncertain};

impl crate::scalar::Tolerant for f64 {}

impl Scalar for f64 {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.tolerant()
    }

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
    /// The binary64 value nearest the rational the text denotes, without a big number where
    /// binary64 can round it itself: a decimal (`"0.1"`, `"1.5e-3"`) by Rust's correctly
    /// rounded parse, `"p/q"` with integers below 2⁵³ by one division (exact operands, so one
    /// rounding); other fractions and malformed text through the exact parser, which rounds
    /// once or names the defect. Beyond the binary64 range is [`NumberError::NotFinite`].
    fn parse(text: &str) -> Result<Self, NumberError> {
        let text = text.trim();
        if text.len() > super::MAX_NUMBER_CHARS {
            return Err(NumberError::TooLong { len: text.len(), limit: super::MAX_NUMBER_CHARS });
        }
        let finite = |x: f64| if x.is_finite() { Ok(x) } else { Err(NumberError::NotFinite(super::excerpt(text, 24))) };
        let plain = |t: &str| -> Option<f64> {
            // The number grammar: digits, one '.', an exponent; Rust's parser also takes "inf",
            // "NaN" and "infinity", which are not numbers here.
            let ok = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
            if ok {
                t.parse::<f64>().ok()
            } else {
                None
            }
        };
        if let Some((p, q)) = text.split_once('/') {
            let small = |x: f64| x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0;
            let integer = |t: &str| t.trim_start_matches(['+', '-']).bytes().all(|b| b.is_ascii_digit());
            if let (Some(p), Some(q)) = (plain(p).filter(|_| integer(p)), plain(q).filter(|_| integer(q))) {
                if small(p) && small(q) && q != 0.0 {
                    return finite(p / q);
                }
            }
        } else if let Some(x) = plain(text) {
            return finite(x);
        }
        // Large or malformed: the exact parser decides (and names a defect), rounded once.
        finite(Self::from_rational(&super::parse_rational(text)?))
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn float_run(&self) -> Option<f64> {
        Some(*self)
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
        super::rational_of_f64(*self)
    }
    fn image(&self) -> Decision<f64> {
        if f64::is_finite(*self) {
            Ok(super::image::image_of_f64(*self))
        } else {
            Err(Uncertain::Overflow)
        }
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
