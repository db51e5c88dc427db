//! Univariate polynomials over any [`Scalar`](crate::scalar::Scalar), with exact gcd and
//! square-free part over `BigRational`. Root isolation comes next.

mod gcd;
mod ring;

pub use ring::Poly;

use crate::scalar::Uncertain;

/// The largest degree accepted by the exact entry points and by [`float_roots`].
pub const MAX_DEGREE: usize = 64;
/// The largest bit size of a numerator or denominator of an input coefficient, interval
/// endpoint or refinement width (4096 bits hold any product of a few `f64` values exactly).
pub const MAX_COEFF_BITS: u64 = 4096;
/// The most significant digits [`Algebraic::to_decimal`] prints (each bisection step gains one
/// bit, and the evaluation cost grows with the bits of the interval's endpoints).
pub const MAX_DECIMAL_DIGITS: u32 = 1000;

/// Why a polynomial operation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolyError {
    /// The degree is above [`MAX_DEGREE`].
    #[error("polynomial degree {0} exceeds the limit of {MAX_DEGREE}")]
    DegreeTooLarge(usize),
    /// A coefficient's numerator or denominator is longer than [`MAX_COEFF_BITS`].
    #[error("coefficient of t^{index} has {bits} bits, over the limit of {MAX_COEFF_BITS}")]
    CoefficientTooLarge {
        /// The power of `t` whose coefficient is too large.
        index: usize,
        /// Its bit size (the larger of numerator and denominator).
        bits: u64,
    },
    /// An interval endpoint or a refinement width is longer than [`MAX_COEFF_BITS`].
    #[error("{what} has {bits} bits, over the limit of {MAX_COEFF_BITS}")]
    NumberTooLarge {
        /// Which number (`"lo"`, `"hi"`, `"width"`).
        what: &'static str,
        /// Its bit size (the larger of numerator and denominator).
        bits: u64,
    },
    /// The zero polynomial vanishes everywhere: it has no isolated roots.
    #[error("the zero polynomial has no isolated roots")]
    ZeroPolynomial,
    /// Division by the zero polynomial.
    #[error("division by the zero polynomial")]
    DivisionByZero,
    /// An interval `[lo, hi]` with `lo > hi`.
    #[error("empty interval: lo > hi")]
    EmptyInterval,
    /// A NaN or infinite coefficient or endpoint (the `f64` finder).
    #[error("{0} is not finite")]
    NotFinite(&'static str),
    /// `f64` evaluation overflowed (a NaN sign): rerun exactly.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// [`Algebraic::new`] was given an interval that does not contain exactly one root, or a
    /// root at an endpoint of an open interval.
    #[error("the interval does not isolate exactly one root of the polynomial")]
    NotIsolating,
    /// A refinement width that is not positive.
    #[error("the refinement width must be positive")]
    NonPositiveWidth,
    /// More digits than [`MAX_DECIMAL_DIGITS`].
    #[error("{0} digits requested, over the limit of {MAX_DECIMAL_DIGITS}")]
    TooManyDigits(u32),
}

