//! The scalar trait stack and its backends.
//!
//! Every algorithm in touchstone is written once, generic over [`Scalar`]: an ordered field
//! whose *decisions* (signs, comparisons) are fallible. A backend either decides a sign or
//! reports [`Uncertain`]; algorithms propagate that with `?`, so an interval backend can run a
//! whole query first and hand it to an exact backend only when some decision was close.
//!
//! | backend | type | exact | feature |
//! | --- | --- | --- | --- |
//! | binary64 | `f64` | no (tolerance, see [`tolerance`]) | always |
//! | rationals, pure Rust | [`BigRational`] | yes | always (the reference) |
//! | rationals, pure Rust, fast | [`Exact`]: `m · 2^e / d` without a gcd per operation (binary64 inputs need no denominator) | yes | always (the exact path's fallback) |
//! | rationals, GMP | `RugRational` | yes | `rug` |
//! | big floats, GMP | `BigFloat<PREC>` | no (tolerance at `PREC` bits) | `rug` |
//! | intervals of binary64 | [`Interval`] | no, but decisions are certain: a sign or [`Uncertain`], never wrong (outward rounding, see [`interval`](Interval)) | always |
//! | binary64 values with error bounds | [`MidRad`] | no, but decisions are certain like intervals', at a few operations more than `f64` (see [`MidRad`]) | always |
//!
//! Approximate capabilities that a rational cannot honestly provide (square roots, decimal
//! printing of irrational values) live in separate traits: [`Decimal`].
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::scalar::{Scalar, Sign};
//!
//! // 0.1 as a decimal string is exactly 1/10; as a binary64 number it is not.
//! let tenth = BigRational::parse("0.1").unwrap();
//! let tenth_f64 = BigRational::from_f64(0.1).unwrap();
//! assert_eq!((tenth - tenth_f64).sign(), Ok(Sign::Negative));
//! ```

mod capability;
mod decimal;
pub mod eft;
mod exact;
mod float;
pub(crate) mod gcd;
#[cfg(feature = "rug")]
mod gmp;
pub mod image;
pub(crate) mod int;
mod interval;
mod midrad;
mod nat;
mod order;
mod parse;
mod rational;
mod sign;
pub mod tolerance;

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

pub use num_rational::BigRational;
use num_traits::{One, Zero};

pub use capability::{ByCapability, Certain, ExactValues, Tolerant};
pub use decimal::{decimal_of_rational, sqrt_decimal_of_rational, Decimal};
pub use exact::{Exact, REDUCE_BITS};
#[cfg(feature = "rug")]
pub use gmp::{BigFloat, RugRational};
pub use interval::Interval;
pub use midrad::MidRad;
pub use order::{try_dedup_by, try_sort_by};
pub use parse::{
    excerpt, parse_rational, parse_rational_within, NumberError, NumberLimits, MAX_DECIMAL_EXPONENT, MAX_NUMBER_BITS,
    MAX_NUMBER_CHARS, WITHHELD,
};
pub use rational::{exact_values_made, rational_of_f64, rational_sqrt};
pub use sign::{all_zero, Decision, Limit, Sign, Uncertain};

/// An ordered field with fallible sign decisions: the one trait every algorithm is generic over.
///
/// Arithmetic is by value (clone what you reuse). Division by zero is the caller's
/// responsibility: decide the divisor's sign first (exact backends panic on it, `f64` gives an
/// infinity).
///
/// Decisions come in two kinds:
/// * [`Scalar::sign`] is the raw sign of a value that is itself input data;
/// * [`Scalar::sign_scaled`] is the sign of a *computed* quantity, given the magnitude of the
///   expression that produced it (for example the permanent of a determinant). Inexact
///   backends call it zero when it is within their tolerance of zero, relative to that
///   magnitude ([`tolerance`]); exact backends never look at the magnitude.
pub trait Scalar:
    nalgebra::Scalar
    + fmt::Display
    + Send
    + Sync
    + Zero
    + One
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
{
    /// Whether values are exact: every arithmetic operation gives the exact result, and
    /// [`Scalar::to_rational`] is the value. True for the rational backends only.
    const EXACT_VALUES: bool;
    /// Whether decisions are certain: [`Scalar::sign`], [`Scalar::sign_scaled`] and
    /// [`Scalar::compare`] either return the true answer for the exact computation or
    /// [`Uncertain`], never a wrong one, and use no tolerance. True for the exact backends and
    /// for intervals; false for the tolerant floating-point backends.
    const CERTAIN_DECISIONS: bool;
    /// Whether this is a filter backend (intervals): certain decisions on inexact values. Its
    /// runs are the first stage of the filtered exact path, which keeps their decisions and
    /// enclosures and reads neither the tests' magnitudes (which only tolerant decisions and
    /// the agreement contract's margins need) nor exact values (it constructs them after).
    const FILTER: bool = Self::CERTAIN_DECISIONS && !Self::EXACT_VALUES;
    /// A short name for reports (`"f64"`, `"BigRational"`, ...).
    const NAME: &'static str;
    /// Run the route of `r` that this backend's capability allows: [`ByCapability::certain`]
    /// for the exact backends and intervals, [`ByCapability::tolerant`] for the tolerant ones
    /// (see [`ByCapability`]).
    fn by_capability<R: ByCapability<Self>>(r: R) -> R::Output;
    /// The unit roundoff of one arithmetic operation: 0 for exact backends, 2⁻⁵³ for `f64`.
    const UNIT_ROUNDOFF: f64;
    /// The absolute error an operation may add by underflowing (half the gap between the
    /// backend's smallest numbers, bounded by its least positive value): 2⁻¹⁰⁷⁴ for `f64`, 0 for
    /// exact backends and for backends whose exponent range no query leaves. The standard model
    /// of rounding with underflow is `fl(x ∘ y) = (x ∘ y)(1 + δ) + ε` with `|δ| ≤ u` and
    /// `|ε| ≤ η`: relative tolerance alone misses `ε` when every term is subnormal.
    const UNDERFLOW_UNIT: f64 = 0.0;

    /// The integer `v`, exactly (for `f64`, the nearest double when |v| > 2⁵³).
    fn from_i64(v: i64) -> Self;
    /// The exact value of a finite binary64 number (rounded for a narrower inexact backend).
    fn from_f64(v: f64) -> Result<Self, NumberError>;
    /// The rational `q`: exactly for exact backends, correctly rounded for inexact ones.
    fn from_rational(q: &BigRational) -> Self;
    /// Parse an exact rational written as an integer, a decimal (`"1.5e-3"`) or `"p/q"`.
    fn parse(s: &str) -> Result<Self, NumberError> {
        Ok(Self::from_rational(&parse_rational(s)?))
    }
    /// This value on backend `T`: exactly when `T` holds it, correctly rounded otherwise. The
    /// default goes through the exact rational value; `f64` converts with
    /// [`Scalar::from_f64`] (no big number is made: the float path stays a float path) and the
    /// rationals with [`Scalar::from_rational`].
    fn to_backend<T: Scalar>(&self) -> T {
        self.to_rational().map(|q| T::from_rational(&q)).unwrap_or_else(T::zero)
    }
    /// The nearest binary64 number (approximate for exact backends; for an interval, a point
    /// of it).
    fn to_f64(&self) -> f64;
    /// The value's binary64 *image* for heuristic choices ([`image`]): the exact value
    /// truncated toward zero to 40 significant bits, the same double on every backend that
    /// holds the same value; an interval's is [`Uncertain::Close`] unless both its ends have one
    /// image, a non-finite `f64`'s [`Uncertain::Overflow`]. Choices among correct alternatives
    /// that shape an answer (the Brep-index's cuts) are made from images, never from
    /// [`Scalar::to_f64`], so that every exact path makes them alike.
    fn image(&self) -> Decision<f64> {
        match self.to_rational() {
            Some(q) => Ok(image::image_of_rational(&q)),
            None => Err(Uncertain::Overflow),
        }
    }
    /// The exact rational value this backend holds, or `None` when it holds none (a non-finite
    /// `f64`, an interval wider than a point). For output and tests: algorithms decide
    /// through [`Scalar::sign`] and [`Scalar::compare`], never through this.
    fn to_rational(&self) -> Option<BigRational>;
    /// The value as a binary64 number when the backend knows it is exactly one (an exact
    /// backend's dyadic value of at most 53 significant bits in range, an interval's point);
    /// `None` otherwise, and always on tolerant backends. Semi-static filters read it: on
    /// doubles a fixed expression's rounding error has a static bound
    /// ([`crate::predicates::filter::orient3d_of_doubles`]).
    fn as_double(&self) -> Option<f64> {
        None
    }
    /// The binary64 value the same computation gives on `f64` — the float run's own value —
    /// where the backend carries it: `f64` itself, and a [`MidRad`]'s midpoint (its operations
    /// round their midpoints exactly as binary64 does); `None` on the others. Choices that must
    /// be the same on every backend and are made in binary64 (V-Clip's starting pair) read it
    /// instead of computing the float run again.
    fn float_run(&self) -> Option<f64> {
        None
    }
    /// An estimate `k` of log₂|x|, with 2^(k−1) < |x| < 2^(k+1), where the backend gives one
    /// cheaply (`Exact`: from the bit lengths); `None` for zero and on the other backends (the
    /// default). With [`Scalar::to_f64_scaled`] it lets a filter enclose values far outside
    /// binary64's range after one common power-of-two scaling.
    fn binary_exponent(&self) -> Option<i64> {
        None
    }
    /// x·2⁻ᵏ in binary64, within 4 units of roundoff of the exact value when it is a normal
    /// number, on the backends that give [`Scalar::binary_exponent`]; the default scales
    /// [`Scalar::to_f64`] (which may have overflowed).
    fn to_f64_scaled(&self, k: i64) -> f64 {
        let mut x = self.to_f64();
        let mut k = k;
        while k != 0 {
            let step = k.clamp(-1000, 1000);
            x *= 2f64.powi(-step as i32);
            k -= step;
        }
        x
    }
    /// Positive multiples of `values` (one factor for all of them) with no denominator but a
    /// power of two, where the backend holds rationals: the least common multiple of the odd
    /// parts of their denominators, times each. A plane's coefficients and a homogeneous
    /// point's coordinates mean the same after such a scaling, and a side test on them is
    /// then four products and three sums of integers, with no denominator carried (the
    /// Brep-index keeps its arenas so). Both exact backends give the same values; `None` when
    /// there is nothing to clear, and always on the inexact backends (the default) and on
    /// `rug`'s rationals, a reference route that keeps its coefficients as given.
    fn integral_multiple<const N: usize>(values: [&Self; N]) -> Option<[Self; N]> {
        let _ = values;
        None
    }
    /// Σ cᵢ·aᵢ·bᵢ for small integer coefficients cᵢ: a rotation's entries from a quaternion,
    /// a posed coordinate from a matrix row. The default multiplies and adds term by term in
    /// the order given; `Exact` sums terms without denominators on integers aligned to the
    /// least exponent, with one normalisation for the sum instead of one per operation (it
    /// gives the same value). Callers use it on exact backends, where the order of the terms
    /// changes no value.
    fn sum_of_products(terms: &[(i64, &Self, &Self)]) -> Self {
        let mut acc = Self::zero();
        for &(c, a, b) in terms {
            let p = a.clone() * b.clone();
            acc += match c {
                1 => p,
                -1 => -p,
                c => Self::from_i64(c) * p,
            };
        }
        acc
    }
    /// a₀b₀ + a₁b₁ + a₂b₂, added left to right (nalgebra's order for 3-vectors, so `f64`
    /// gives the values it gave). A backend may compute the same value with one bound for
    /// the whole sum ([`MidRad`]) or on integers (`Exact`); [`crate::geom::dot`] calls it.
    fn dot3(a: [&Self; 3], b: [&Self; 3]) -> Self {
        a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
    }
    /// |self|.
    fn abs(&self) -> Self;
    /// The raw sign of the value, without tolerance.
    fn sign(&self) -> Decision<Sign>;

    /// The sign of a computed quantity whose expression has the given magnitude.
    ///
    /// `magnitude` is only evaluated by tolerant backends (not [`Scalar::CERTAIN_DECISIONS`]);
    /// it must be a non-negative bound on the size of the terms that produced `self` (see
    /// [`tolerance`]).
    fn sign_scaled(&self, magnitude: impl FnOnce() -> Self) -> Decision<Sign> {
        if Self::CERTAIN_DECISIONS {
            self.sign()
        } else {
            tolerance::decide(self, &magnitude())
        }
    }

    /// Whether the value is finite: false only for an infinity or a NaN of a floating-point
    /// backend (which [`Scalar::sign`] reports as [`Uncertain::Overflow`]).
    ///
    /// (Not named `is_finite`: on an `&f64` receiver that name would resolve to this method
    /// before `f64`'s own.)
    fn finite(&self) -> bool {
        self.sign() != Err(Uncertain::Overflow)
    }

    /// Raw comparison (no tolerance).
    fn compare(&self, other: &Self) -> Decision<Ordering> {
        Ok((self.clone() - other.clone()).sign()?.into())
    }

    /// The larger of two values (either when equal). Not a decision an answer depends on, so
    /// an interval backend answers it always, with the interval of the maximum (two values
    /// that tie exactly, as the heights of a face's vertices along its normal do, cannot be
    /// ordered on intervals, and need not be).
    fn maximum(&self, other: &Self) -> Decision<Self> {
        Ok(if self.compare(other)? == Ordering::Less { other.clone() } else { self.clone() })
    }

    /// The smaller of two values (either when equal), like [`Scalar::maximum`].
    fn minimum(&self, other: &Self) -> Decision<Self> {
        Ok(if self.compare(other)? == Ordering::Greater { other.clone() } else { self.clone() })
    }

    /// The relative tolerance of [`Scalar::sign_scaled`]: 0 for backends with certain
    /// decisions.
    fn relative_tolerance() -> f64 {
        if Self::CERTAIN_DECISIONS {
            return 0.0;
        }
        tolerance::relative_tolerance(Self::UNIT_ROUNDOFF)
    }

    /// The absolute part of the tolerance of [`Scalar::sign_scaled`] (what underflow may add,
    /// [`tolerance::absolute_tolerance`]): 0 for backends with certain decisions.
    fn absolute_tolerance() -> f64 {
        if Self::CERTAIN_DECISIONS {
            return 0.0;
        }
        tolerance::absolute_tolerance(Self::UNDERFLOW_UNIT)
    }
}

/// Lexicographic order of two points by [`Scalar::compare`], decided.
pub fn compare_points<S: Scalar>(a: &nalgebra::Point3<S>, b: &nalgebra::Point3<S>) -> Decision<Ordering> {
    for i in 0..3 {
        let o = a[i].compare(&b[i])?;
        if o != Ordering::Equal {
            return Ok(o);
        }
    }
    Ok(Ordering::Equal)
}

/// `2`, a frequent constant.
pub fn two<S: Scalar>() -> S {
    S::one() + S::one()
}

/// Convert between backends through the exact rational value (the identity for equal
/// backends; rounding when the target is inexact). `None` for non-finite values.
pub fn convert<A: Scalar, B: Scalar>(a: &A) -> Option<B> {
    a.to_rational().map(|q| B::from_rational(&q))
}

/// The rational `p/q` for small literals in code and tests; `q` must be nonzero.
pub fn ratio<S: Scalar>(p: i64, q: i64) -> S {
    S::from_i64(p) / S::from_i64(q)
}
