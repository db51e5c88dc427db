//! Univariate polynomials, exact real root isolation, real algebraic numbers, and a fast `f64`
//! root finder.
//!
//! A time of first contact is a root of a polynomial in `t` (the box sweep of Albocher–Sarel
//! solves plane equations whose coefficients are polynomials in `t`). Following the design
//! notes, such a result is reported as an [`Algebraic`]: a square-free polynomial with rational
//! coefficients plus an isolating interval with rational endpoints, refinable to any precision,
//! printable as a decimal with every digit correct.
//!
//! | item | what | coefficients |
//! | --- | --- | --- |
//! | [`Poly`] | ring operations, evaluation, derivative, division with remainder, composition | any [`Scalar`](crate::scalar::Scalar) |
//! | [`Poly::gcd`], [`Poly::square_free_part`] | monic gcd, square-free part | `BigRational` |
//! | [`isolate_roots`], [`real_roots`] | every real root in a closed interval, isolated | `BigRational` |
//! | [`Algebraic`] | exact comparison, refinement, decimals | `BigRational` |
//! | [`float_roots`] | fast bracketed roots in `f64` | `f64` |
//! | [`interval_roots`] | certified root enclosures, or `Uncertain` | [`Interval`](crate::scalar::Interval) |
//!
//! # Isolation method: Descartes' rule of signs with bisection (Vincent–Collins–Akritas)
//!
//! We count sign variations of the polynomial mapped by `x ↦ 1/(x+1)` from `(0, ∞)` to the
//! interval at hand, and bisect until every interval has 0 or 1 variations. Chosen over Sturm
//! sequences because:
//! * it runs on an integer polynomial with only additions and shifts (Taylor shifts by 1 and
//!   scalings by 2): no rational arithmetic, no gcd per operation, which is what makes
//!   `BigRational` slow (see `DESIGN.md` §3);
//! * a Sturm sequence of degree `n` has coefficients that grow quadratically in `n` and must
//!   be evaluated, all of it, at every bisection point; Descartes only transforms the one
//!   polynomial, and is the method of choice in practice (Rouillier–Zimmermann 2004);
//! * dyadic midpoints and the transformed constant coefficient tell us for free when a
//!   midpoint is itself a root, which we report as an exact rational.
//!
//! After isolation every rational root is made exact: a rational root `n/d` of a primitive
//! integer polynomial has `d` dividing the leading coefficient `L`, so an isolating interval
//! narrower than `1/L` contains at most one candidate `m/L`, which is tested exactly. A cheap
//! test modulo small primes skips this for most polynomials without rational roots. Hence an
//! [`Algebraic`] whose interval is open is irrational, and one that is rational is exact.
//!
//! # Limits
//!
//! Exact arithmetic on hostile input can blow up in size, so exact entry points refuse a
//! degree above [`MAX_DEGREE`], a coefficient or endpoint whose numerator or denominator has
//! more than [`MAX_COEFF_BITS`] bits, and decimals of more than [`MAX_DECIMAL_DIGITS`] digits,
//! with a [`PolyError`]. Nothing here panics on user data.
//!
//! The limits bound sizes, not time: bisection depth grows with the inverse of the root
//! separation (tens of thousands of bits for adversarial degree-64 polynomials), and making a
//! rational root exact costs about `log₂ L` bisections per root when the mod-p test cannot
//! rule rational roots out. Callers with a time budget (the oracle) enforce it around a call.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::poly::{real_roots, Poly};
//! use touchstone::scalar::ratio;
//!
//! // (t - 1/3)(t - 2)² on [0, 3]: the double root 2 (a grazing contact) is reported once.
//! let p = Poly::<BigRational>::from_roots(&[ratio(1, 3), ratio(2, 1), ratio(2, 1)]);
//! let roots = real_roots(&p, &ratio(0, 1), &ratio(3, 1)).unwrap();
//! assert_eq!(roots.len(), 2);
//! assert_eq!(roots[0].to_rational(), Some(ratio(1, 3)));
//! assert_eq!(roots[1].to_rational(), Some(ratio(2, 1)));
//!
//! // t² - 13/5: irrational roots, printed with 20 correct digits.
//! let q = Poly::from_coeffs(vec![ratio(-13, 5), ratio(0, 1), ratio(1, 1)]);
//! let r = real_roots(&q, &ratio(0, 1), &ratio(2, 1)).unwrap();
//! assert_eq!(r[0].to_decimal(20).unwrap(), "1.6124515496597099304");
//! ```

mod algebraic;
mod bivariate;
mod float_roots;
mod gcd;
mod interval_roots;
mod intpoly;
mod isolate;
mod quadratic;
mod ring;
mod time;

pub use algebraic::Algebraic;
pub use bivariate::{first_zero, Bivariate, FirstZero, URange};
pub use float_roots::float_roots;
pub use interval_roots::{interval_roots, MAX_DEPTH, MAX_PIECES};
pub use isolate::{isolate_roots, real_roots, RootInterval};
pub use quadratic::{first_zero_on_line, QuadBivariate};
pub use ring::Poly;
pub(crate) use time::sort_tagged_times;
pub use time::{
    earlier, order, rational_between, sort_times, underflowed, FilterScalar, RootScalar, TPoly, TimeOutput,
};

use crate::scalar::Uncertain;

/// The largest degree accepted by the exact entry points and by [`float_roots`].
pub const MAX_DEGREE: usize = 64;
/// The largest bit size of a numerator or denominator of an input coefficient, interval
/// endpoint or refinement width. A binary64 value is a rational of at most 1,128 bits
/// (numerator and denominator together), a difference of two at most about 2,100; the
/// coefficients of the CCD and box-sweep polynomials are sums of products of up to six such
/// factors, so binary64 inputs anywhere in the exponent range (1e-300 beside 5e-324, say) need
/// up to about 13,000 bits. 4,096 bits refused such inputs in the agreement contract's exact
/// computations; hostile exact inputs are bounded by the query's bit and time limits.
pub const MAX_COEFF_BITS: u64 = 1 << 14;
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

impl From<crate::budget::Limit> for PolyError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}

#[cfg(test)]
mod tests;
