//! The interval backend: two `f64` bounds, rounded outward, that enclose the exact value.
//!
//! An [`Interval`] `[lo, hi]` stands for one unknown real number `x` with `lo ≤ x ≤ hi`: the
//! value the same computation would have produced on exact inputs. Every operation returns an
//! interval that contains the exact result of the operation applied to *any* reals inside its
//! operands, so the enclosure property survives any chain of operations, and a sign decided
//! from the bounds (`lo > 0`, `hi < 0`, or the point zero) is the sign of the exact
//! computation. That makes decisions certain ([`Scalar::CERTAIN_DECISIONS`]): a sign is right
//! or [`Uncertain`], never wrong, and no tolerance is involved. This is the first stage of a
//! filtered backend (intervals first, an exact rerun on [`Uncertain`]).
//!
//! A bound may be infinite, meaning *unbounded* on that side (after an overflow, or a division
//! by an interval containing zero); `lo` is never `+∞` and `hi` never `−∞`, so an interval
//! always contains a real number, and no operation ever makes a NaN.
//!
//! # Why each operation encloses the exact result
//!
//! Notation: `RN` is binary64 round-to-nearest-even (Rust's `+ − × /` and the single rounding
//! of `f64::mul_add`, which is fused on every platform: a hardware FMA or libm's `fma`; an
//! unfused one would make the residuals below zero and fail this crate's interval tests),
//! `η = 2⁻¹⁰⁷⁴` the least positive subnormal. For every real
//! `v` of magnitude at most the overflow threshold, `r = RN(v)` satisfies
//! `next_down(r) ≤ v ≤ next_up(r)`: the rounding error is at most half the gap to either
//! neighbour. When `RN(v)` overflows to `+∞`, `v ≥ MAX` and `next_down(+∞) = MAX` is a valid
//! lower bound (symmetrically for `−∞`). So widening a rounded bound by one ulp, *in the
//! direction where the exact value may lie*, is always sound. To keep exact results exact we
//! find that direction with an error-free transformation, the sign of the residual
//! `v − r`:
//!
//! * **Sum** `x + y` (finite): `TwoSum` (Knuth; Møller) computes `e = (x + y) − r` *exactly*
//!   from six `RN` additions, for all finite `x, y` whenever `r` is finite, with or without
//!   underflow (the error of a binary floating-point addition is always representable, and a
//!   subnormal sum is exact). If an intermediate step overflowed, the infinity propagates to
//!   `e` (an infinity never becomes finite under `±`), and we then widen both ways. If `r`
//!   overflows, `x + y` is finite but beyond `±MAX`: the bound on the finite side is `±MAX`.
//! * **Product** `x · y` (finite): `e = RN(x·y − r)` by one `mul_add`. Since `RN` is monotone
//!   and `RN(0) = 0`, a nonzero `e` has the sign of the residual, always (also under underflow
//!   and overflow). A zero `e` needs care: `RN(v) = 0` only for `|v| ≤ η/2`. Write `unit(x)`
//!   for the value of the lowest set bit of `x` (every double is an integer multiple of its
//!   unit, and `unit(x) ≥ η`). The exact residual `x·y − r` is an integer multiple of
//!   `min(unit(x)·unit(y), unit(r))`, so when `unit(x)·unit(y) ≥ η` (always for products of
//!   magnitude at least `2⁻⁹⁶⁸`, and whenever `x·y` is itself a double, since odd times odd is odd)
//!   a nonzero residual has magnitude at least `η` and `e = 0` proves the product exact. Below
//!   that, `e = 0` proves nothing and we widen both ways (keeping the known sign of a product
//!   that underflowed to zero).
//! * **Quotient** `x / y` (finite, `y ≠ 0`): with `e = RN(x − r·y)` by one `mul_add`,
//!   `x/y − r = (x − r·y)/y` has the sign of `e·y` when `e ≠ 0` (monotonicity again). The exact
//!   remainder `x − r·y` is a multiple of `min(unit(x), unit(r)·unit(y))`; `unit(x) ≥ η`
//!   always, so when `unit(r)·unit(y) ≥ η` (in particular whenever `x/y = r` exactly),
//!   `e = 0` proves the quotient exact; otherwise we widen both ways.
//!   An underflowed quotient `r = 0` gives `e = x ≠ 0`, whose sign tells the side.
//! * **Infinite bounds** are limits of unbounded sides: `(−∞) + y = −∞`, `∞ · y = ±∞` for
//!   `y ≠ 0`, `y / ∞ = 0`, `∞ / ∞` contributes the whole half line of its sign, and
//!   `0 · ∞ = 0` (the interval convention: `0 · y = 0` for every real `y` of an unbounded
//!   operand). Infinite operands never reach an error-free transformation.
//!
//! Interval operations then follow the classical rules, with each bound computed by the
//! directed operations above: `[a, b] + [c, d] = [a + c, b + d]`, negation swaps the bounds
//! exactly, `x · y` and `x / y` (the divisor not containing 0) are monotone in each argument on
//! the box, so their extremes are among the four corner values, each enclosed as above; a
//! divisor containing 0 gives the whole line `[−∞, ∞]`. `abs` and negation are exact.
//! Conversions enclose too: `from_f64` is the point, `from_i64` the point or the two doubles
//! around a 54-bit-or-longer integer (the exact integer comparison with the rounded double
//! picks the side), `from_rational` the point or the two adjacent doubles around `q`, each
//! side checked by an exact rational comparison.
//!
//! A sign is decided only from the bounds; an interval that straddles zero, bounded or not,
//! is [`Uncertain::Close`] (either way the query is rerun exactly).
//!
//! Consequently small integers stay points through `+ − ×` (and `/` when the quotient is a
//! double), `(x − x).sign()` is `Ok(Zero)` for a point, and degenerate inputs given as doubles
//! decide exactly as long as every intermediate value is a double.
//!
//! ```
//! use num_traits::One;
//! use touchstone::scalar::{Interval, Scalar, Sign, Uncertain};
//!
//! let third = Interval::from_i64(1) / Interval::from_i64(3); // not a double: one ulp wide
//! assert!(!third.is_point() && third.hi() == third.lo().next_up());
//! assert_eq!((third * Interval::from_i64(3) - Interval::one()).sign(), Err(Uncertain::Close));
//! assert_eq!((third - Interval::from_f64(0.3).unwrap()).sign(), Ok(Sign::Positive));
//! let x = Interval::from_f64(0.1).unwrap(); // the double 0.1, a point
//! assert_eq!((x - x).sign(), Ok(Sign::Zero));
//! let half = Interval::from_f64(0.5).unwrap(); // exact products stay points
//! assert_eq!((half * half - Interval::from_f64(0.25).unwrap()).sign(), Ok(Sign::Zero));
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::{Decision, NumberError, Scalar, Sign, Uncertain};

/// A closed interval `[lo, hi]` of binary64 bounds enclosing one unknown real value.
///
/// Invariants: no NaN, `lo ≤ hi`, `lo < +∞`, `hi > −∞` (an infinite bound means unbounded), and
/// no negative zero (it is stored as `+0`, so that printing and division see one zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    lo: f64,
    hi: f64,
}

/// The exponent of the lowest set bit of a finite nonzero `x`: `x` is an integer multiple of
/// `2^unit_exp(x)`, which is at least `η = 2⁻¹⁰⁷⁴` (`η` also for zero, where it is unused).
#[inline]
fn unit_exp(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    // The significand as an integer (with the hidden bit for normal numbers) and the exponent
    // of its last place.
    let (significand, ulp) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    if significand == 0 {
        return -1074;
    }
    ulp + significand.trailing_zeros() as i32
}

/// The exponent of `η = 2⁻¹⁰⁷⁴`: a residual that is a multiple of `2^k` with `k` at least this
/// is zero or at least `η` in magnitude, so `RN` does not flush it to zero.
const RESIDUAL_EXP_MIN: i32 = -1074;

/// `2⁻⁹⁶⁰`: a product `r = RN(x·y)` at least this large (in magnitude) has
/// `unit_exp(x) + unit_exp(y) ≥ RESIDUAL_EXP_MIN`, so a zero residual is exact. Proof: a
/// double of exponent `ex` (`2^ex ≤ |x| < 2^(ex+1)`, `ex ≤ −1023` for a subnormal) has its last
/// place at `unit_exp(x) ≥ ex − 52` (a subnormal's at `−1074 ≥ ex − 52`); `|x·y| <
/// 2^(ex(x) + ex(y) + 2)` and `|x·y| ≥ |r| / (1 + 2⁻⁵³) > 2⁻⁹⁶¹`, so `ex(x) + ex(y) ≥ −962` and the
/// units sum to at least `−1066`.
const NO_UNDERFLOW: f64 = f64::from_bits((1023 - 960) << 52);

/// Bounds around `r = RN(v)` given the sign of `v − r` (`None`: unknown, widen both ways).
#[inline]
fn around(r: f64, residual: Option<Ordering>) -> (f64, f64) {
    match residual {
        Some(Ordering::Equal) => (r, r),
        Some(Ordering::Greater) => (r, r.next_up()),
        Some(Ordering::Less) => (r.next_down(), r),
        None => (r.next_down(), r.next_up()),
    }
}

/// The sign of a residual computed by `RN`: trustworthy when nonzero; when zero, trustworthy
/// only if the exact residual is known to be a multiple of `η` (`exact_if_zero`).
#[inline]
fn residual_sign(e: f64, exact_if_zero: bool) -> Option<Ordering> {
    if e > 0.0 {
        Some(Ordering::Greater)
    } else if e < 0.0 {
        Some(Ordering::Less)
    } else if e == 0.0 && exact_if_zero {
        Some(Ordering::Equal)
    } else {
        None // a zero that may hide an underflowed residual, or a NaN from an overflow
    }
}

/// An enclosure `(lo, hi)` of the exact `x + y`, for `x, y` not NaN and not `+∞ + −∞`.
#[inline]
fn sum_bounds(x: f64, y: f64) -> (f64, f64) {
    let r = x + y;
    if !x.is_finite() || !y.is_finite() {
        return (r, r); // an unbounded side stays unbounded
    }
    if !r.is_finite() {
        // Overflow of a finite sum: beyond ±MAX, the bound on the finite side is ±MAX.
        return around(r, Some(if r > 0.0 { Ordering::Less } else { Ordering::Greater }));
    }
    // TwoSum: e = (x + y) − r exactly (see the module docs).
    let y_virtual = r - x;
    let x_virtual = r - y_virtual;
    let e = (x - x_virtual) + (y - y_virtual);
    around(r, residual_sign(e, e.is_finite()))
}

/// An enclosure of the exact `x · y` for non-NaN `x, y`, with `0 · ∞ = 0`.
#[inline]
fn product_bounds(x: f64, y: f64) -> (f64, f64) {
    if x == 0.0 || y == 0.0 {
        return (0.0, 0.0);
    }
    let r = x * y;
    if !x.is_finite() || !y.is_finite() {
        return (r, r);
    }
    let e = x.mul_add(y, -r);
    // (The units matter only for a zero residual, and not for a product of at least
    // [`NO_UNDERFLOW`]: most exact products, which skip the bit counting.)
    let exact_if_zero = e == 0.0 && (r.abs() >= NO_UNDERFLOW || unit_exp(x) + unit_exp(y) >= RESIDUAL_EXP_MIN);
    let (lo, hi) = around(r, residual_sign(e, exact_if_zero));
    if r == 0.0 {
        // Underflowed to zero: the product's sign is known, keep it.
        return if (x > 0.0) == (y > 0.0) { (0.0, hi) } else { (lo, 0.0) };
    }
    (lo, hi)
}

/// An enclosure of the exact `x / y` for non-NaN `x` and nonzero non-NaN `y`, with the limits
/// `x / ±∞ = 0` and `±∞ / ±∞` = the half line of its sign.
#[inline]
fn quotient_bounds(x: f64, y: f64) -> (f64, f64) {
    if x == 0.0 {
        return (0.0, 0.0);
    }
    let positive = (x > 0.0) == (y > 0.0);
    if x.is_infinite() && y.is_infinite() {
        return if positive { (0.0, f64::INFINITY) } else { (f64::NEG_INFINITY, 0.0) };
    }
    let r = x / y;
    if !x.is_finite() || !y.is_finite() {
        return (r, r);
    }
    // x/y − r = (x − r·y)/y: the remainder's sign times y's sign.
    let e = (-r).mul_add(y, x);
    let exact_if_zero = e == 0.0 && r.is_finite() && unit_exp(r) + unit_exp(y) >= RESIDUAL_EXP_MIN;
    let residual = residual_sign(e, exact_if_zero).map(|o| if y < 0.0 { o.reverse() } else { o });
    around(r, residual)
}

/// `next_down(r)`: at or below every real that rounds to nearest to `r` (the rounding error is
/// less than the gap to either neighbour). Where `r` overflowed to `+∞` the real was beyond
/// the largest double, and `MAX` is below it; `−∞` stays.
#[inline]
fn below(r: f64) -> f64 {
    r.next_down()
}

/// `next_up(r)`, as [`below`].
#[inline]
fn above(r: f64) -> f64 {
    r.next_up()
}

/// A lower bound of `x + y` (no NaN from `∞ − ∞`): the sum itself where an addend is zero
/// (exact, so an exact zero stays one), else one ulp below the sum rounded to nearest.
#[inline]
fn sum_below(x: f64, y: f64) -> f64 {
    if x == 0.0 || y == 0.0 {
        x + y
    } else {
        below(x + y)
    }
}

/// An upper bound of `x + y`, as [`sum_below`].
#[inline]
fn sum_above(x: f64, y: f64) -> f64 {
    if x == 0.0 || y == 0.0 {
        x + y
    } else {
        above(x + y)
    }
}

/// Whether the four bounds are finite (an infinity, or a NaN from `∞ − ∞`, makes the sum not
/// finite; so does an overflowing sum of finite bounds, which only sends the caller the
/// careful way).
#[inline]
fn all_finite(a: f64, b: f64, c: f64, d: f64) -> bool {
    (a + b + c + d).is_finite()
}

/// The double `q` is when it is one with a normal magnitude and a power-of-two denominator
/// (every binary64 input in practice): no big division, no search. `None` sends the caller
/// the slow, general way.
fn exact_double(q: &BigRational) -> Option<f64> {
    let (n, d) = (q.numer(), q.denom());
    // One word each (`bits` is constant time): a power-of-two denominator below 2⁶⁴ and a
    // numerator of at most 53 bits give a normal double exactly (|x| ≥ 2⁻⁶³ unless zero).
    if n.bits() <= 53 && d.bits() <= 64 {
        let du = d.magnitude().to_u64()?;
        if du.is_power_of_two() {
            let v = n.to_i64()? as f64; // exact: at most 53 bits
            return Some(v * f64::from_bits((1023 - u64::from(du.trailing_zeros())) << 52));
        }
    }
    let k = d.trailing_zeros().unwrap_or(0);
    if d.bits() != k + 1 || n.bits() > 53 || k > 1022 {
        return None;
    }
    let v = ToPrimitive::to_i64(n)? as f64; // exact: at most 53 bits
                                            // 2^−k as a normal double (k ≤ 1022), and the product exact while it stays normal.
    let x = v * f64::from_bits((1023 - k) << 52);
    (v == 0.0 || x.abs() >= f64::MIN_POSITIVE).then_some(x)
}

impl Interval {
    /// The interval `[lo, hi]`; `None` when a bound is NaN, `lo > hi`, or the interval holds
    /// no real number (`lo = +∞` or `hi = −∞`). Infinite bounds mean unbounded.
    ///
    /// ```
    /// use touchstone::scalar::Interval;
    /// assert!(Interval::new(1.0, 2.0).is_some());
    /// assert!(Interval::new(2.0, 1.0).is_none());
    /// assert!(Interval::new(f64::NAN, 1.0).is_none());
    /// assert!(Interval::new(f64::NEG_INFINITY, 0.0).is_some());
    /// ```
    pub fn new(lo: f64, hi: f64) -> Option<Self> {
        // `lo <= hi` is false for a NaN on either side.
        (lo <= hi && lo < f64::INFINITY && hi > f64::NEG_INFINITY).then(|| Self::bounds(lo, hi))
    }

    /// The point interval `[x, x]`; `None` unless `x` is finite.
    pub fn point(x: f64) -> Option<Self> {
        x.is_finite().then(|| Self::bounds(x, x))
    }

    /// The whole real line `[−∞, ∞]` (a value about which nothing is known).
    pub fn whole() -> Self {
        Interval { lo: f64::NEG_INFINITY, hi: f64::INFINITY }
    }

    /// The lower bound (`−∞` when unbounded below).
    pub fn lo(&self) -> f64 {
        self.lo
    }

    /// The upper bound (`+∞` when unbounded above).
    pub fn hi(&self) -> f64 {
        self.hi
    }

    /// Whether the interval is a single point (its value is known exactly).
    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }

    /// Whether `x` lies in the interval (bounds included).
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The common part of two enclosures of the same value; `None` when they are disjoint
    /// (which two enclosures of one value never are).
    pub fn intersection(&self, other: &Self) -> Option<Self> {
        Self::new(self.lo.max(other.lo), self.hi.min(other.hi))
    }

    /// An interval from bounds that satisfy the invariants except perhaps for signed zeros and
    /// NaN, which no operation makes; a NaN bound would become unbounded (sound either way).
    fn bounds(lo: f64, hi: f64) -> Self {
        // `+ 0.0` maps −0 to +0 and leaves every other value alone.
        let lo = if lo.is_nan() { f64::NEG_INFINITY } else { lo + 0.0 };
        let hi = if hi.is_nan() { f64::INFINITY } else { hi + 0.0 };
        Interval { lo, hi }
    }

    /// The bounds of the rational `q`: the point when `q` is a double, else the two adjacent
    /// doubles around it (`[MAX, ∞]` above the range, `[−∞, −MAX]` below).
    fn enclose_rational(q: &BigRational) -> Self {
        // Start at num-rational's rounding (saturating), then step until two doubles bracket
        // q, every step checked exactly: the result is sound even if that rounding were off,
        // and a step budget keeps a badly wrong start from looping (the fallbacks are sound).
        const STEPS: usize = 8;
        if let Some(x) = exact_double(q) {
            return Self::bounds(x, x);
        }
        let start = ToPrimitive::to_f64(q).unwrap_or(0.0);
        let mut lo = if start.is_nan() { 0.0 } else { start.clamp(-f64::MAX, f64::MAX) };
        // `rational_of_f64` is `Some` for every finite double.
        let cmp = |x: f64| super::rational_of_f64(x).map(|v| v.cmp(q));
        let mut steps = 0;
        while cmp(lo) == Some(Ordering::Greater) {
            if lo == -f64::MAX {
                return Self::bounds(f64::NEG_INFINITY, -f64::MAX);
            }
            steps += 1;
            if steps > STEPS {
                return Self::whole();
            }
            lo = lo.next_down();
        }
        match cmp(lo) {
            Some(Ordering::Equal) => return Self::bounds(lo, lo),
            Some(Ordering::Less) => {}
            _ => return Self::whole(),
        }
        // Now lo < q: move up to the last double below q.
        loop {
            let hi = lo.next_up();
            if hi == f64::INFINITY {
                return Self::bounds(lo, hi);
            }
            match cmp(hi) {
                Some(Ordering::Less) if steps < STEPS => {
                    steps += 1;
                    lo = hi;
                }
                Some(Ordering::Less) | None => return Self::bounds(lo, f64::INFINITY),
                Some(Ordering::Equal) => return Self::bounds(hi, hi),
                Some(Ordering::Greater) => return Self::bounds(lo, hi),
            }
        }
    }
}

impl Add for Interval {
    type Output = Interval;
    #[inline]
    fn add(self, o: Interval) -> Interval {
        if self.is_point() && o.is_point() {
            // One sum encloses both bounds.
            let (lo, hi) = sum_bounds(self.lo, o.lo);
            return Interval::bounds(lo, hi);
        }
        // Not a point: the sum is not one either, so no residual's sign is worth its
        // error-free transformation; each bound rounded to nearest, then stepped one ulp
        // outward ([`below`], [`above`]). lo + lo never meets +∞ (no lo is +∞), hi + hi never
        // −∞: no ∞ − ∞.
        Interval::bounds(sum_below(self.lo, o.lo), sum_above(self.hi, o.hi))
    }
}

impl Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval::bounds(-self.hi, -self.lo)
    }
}

impl Sub for Interval {
    type Output = Interval;
    #[inline]
    fn sub(self, o: Interval) -> Interval {
        if self.is_point() && o.is_point() {
            let (lo, hi) = sum_bounds(self.lo, -o.lo);
            return Interval::bounds(lo, hi);
        }
        // [a, b] − [c, d] = [a − d, b − c]; −d is never +∞ and −c never −∞, as for a sum.
        Interval::bounds(sum_below(self.lo, -o.hi), sum_above(self.hi, -o.lo))
    }
}

impl Mul for Interval {
    type Output = Interval;
    /// The extremes of the product over the box are among its four corners; the signs of the
    /// bounds tell which two (all four only when both operands straddle zero). A bound of zero
    /// fits either case it falls in: its products are zero (also with an unbounded side,
    /// `0 · ∞ = 0`).
    #[inline]
    fn mul(self, o: Interval) -> Interval {
        let (a, b, c, d) = (self.lo, self.hi, o.lo, o.hi);
        if a == b && c == d {
            let (lo, hi) = product_bounds(a, c);
            return Interval::bounds(lo, hi);
        }
        // Not both points: the product is not a point, so where every bound is finite each
        // corner is rounded to nearest and stepped one ulp outward ([`below`], [`above`]: no
        // residual, no fused multiply–add); an unbounded side keeps `0 · ∞ = 0` by the
        // careful way.
        let cheap = all_finite(a, b, c, d);
        // A zero factor makes the corner exactly zero (kept: zeros decide).
        let down = |x: f64, y: f64| {
            if !cheap || x == 0.0 || y == 0.0 {
                product_bounds(x, y).0
            } else {
                below(x * y)
            }
        };
        let up = |x: f64, y: f64| {
            if !cheap || x == 0.0 || y == 0.0 {
                product_bounds(x, y).1
            } else {
                above(x * y)
            }
        };
        let (lo, hi) = if a >= 0.0 {
            if c >= 0.0 {
                (down(a, c), up(b, d))
            } else if d <= 0.0 {
                (down(b, c), up(a, d))
            } else {
                (down(b, c), up(b, d))
            }
        } else if b <= 0.0 {
            if c >= 0.0 {
                (down(a, d), up(b, c))
            } else if d <= 0.0 {
                (down(b, d), up(a, c))
            } else {
                (down(a, d), up(a, c))
            }
        } else if c >= 0.0 {
            (down(a, d), up(b, d))
        } else if d <= 0.0 {
            (down(b, c), up(a, c))
        } else {
            return self.mul_corners(o);
        };
        Interval::bounds(lo, hi)
    }
}

impl Interval {
    /// The product by all four corners (both operands straddle zero).
    fn mul_corners(self, o: Interval) -> Interval {
        let corners = [
            product_bounds(self.lo, o.lo),
            product_bounds(self.lo, o.hi),
            product_bounds(self.hi, o.lo),
            product_bounds(self.hi, o.hi),
        ];
        let lo = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let hi = corners.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
        Interval::bounds(lo, hi)
    }
}

impl Div for Interval {
    type Output = Interval;
    /// The quotient; the whole line when the divisor may be zero.
    fn div(self, o: Interval) -> Interval {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return Interval::whole();
        }
        let corners = [
            quotient_bounds(self.lo, o.lo),
            quotient_bounds(self.lo, o.hi),
            quotient_bounds(self.hi, o.lo),
            quotient_bounds(self.hi, o.hi),
        ];
        let lo = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let hi = corners.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
        Interval::bounds(lo, hi)
    }
}

macro_rules! assign_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for Interval {
            fn $f(&mut self, o: Interval) {
                *self = *self $op o;
            }
        }
    };
}
assign_op!(AddAssign, add_assign, +);
assign_op!(SubAssign, sub_assign, -);
assign_op!(MulAssign, mul_assign, *);
assign_op!(DivAssign, div_assign, /);

impl Zero for Interval {
    fn zero() -> Self {
        Interval { lo: 0.0, hi: 0.0 }
    }
    /// Only the point zero: an interval around zero is not known to be zero.
    fn is_zero(&self) -> bool {
        self.lo == 0.0 && self.hi == 0.0
    }
}

impl One for Interval {
    fn one() -> Self {
        Interval { lo: 1.0, hi: 1.0 }
    }
}

impl fmt::Display for Interval {
    /// `[lo, hi]`, or the value alone for a point.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_point() {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "[{}, {}]", self.lo, self.hi)
        }
    }
}

impl crate::scalar::Certain for Interval {}

impl Scalar for Interval {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    const EXACT_VALUES: bool = false;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "interval";
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

    /// A point's double (a point is always finite).
    fn as_double(&self) -> Option<f64> {
        self.is_point().then_some(self.lo)
    }

    /// The point `v` when it is a double (|v| ≤ 2⁵³ or a multiple of its ulp), else the two
    /// doubles around it.
    fn from_i64(v: i64) -> Self {
        let r = v as f64; // round to nearest
                          // `r` is an integer of magnitude at most 2⁶³: exact as an i128.
        let back = r as i128;
        match back.cmp(&i128::from(v)) {
            Ordering::Equal => Self::bounds(r, r),
            Ordering::Greater => Self::bounds(r.next_down(), r),
            Ordering::Less => Self::bounds(r, r.next_up()),
        }
    }
    /// The point `v`, exactly; an infinity or a NaN is rejected.
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        Self::point(v).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    /// The point `q` when it is a double, else the tightest enclosure by two adjacent doubles
    /// (`[MAX, ∞]` for `q > MAX`).
    fn from_rational(q: &BigRational) -> Self {
        Self::enclose_rational(q)
    }
    /// The midpoint (a finite point of the interval; `0` for the whole line, the finite bound
    /// for a half line).
    fn to_f64(&self) -> f64 {
        match (self.lo.is_finite(), self.hi.is_finite()) {
            (true, true) => (0.5 * self.lo + 0.5 * self.hi).clamp(self.lo, self.hi),
            (true, false) => self.lo,
            (false, true) => self.hi,
            (false, false) => 0.0,
        }
    }
    /// The image both ends share (images are monotone: then it is the exact value's), else
    /// [`Uncertain::Close`].
    fn image(&self) -> Decision<f64> {
        if !(self.lo.is_finite() && self.hi.is_finite()) {
            return Err(Uncertain::Overflow);
        }
        let (lo, hi) = (super::image::image_of_f64(self.lo), super::image::image_of_f64(self.hi));
        // Every zero image is +0: equal bits are equal images.
        if lo.to_bits() == hi.to_bits() {
            Ok(lo)
        } else {
            Err(Uncertain::Close)
        }
    }
    /// The exact value of a point interval; `None` for a wider one.
    fn to_rational(&self) -> Option<BigRational> {
        if self.is_point() {
            super::rational_of_f64(self.lo)
        } else {
            None
        }
    }
    fn abs(&self) -> Self {
        if self.lo >= 0.0 {
            *self
        } else if self.hi <= 0.0 {
            -*self
        } else {
            Self::bounds(0.0, self.hi.max(-self.lo))
        }
    }
    /// Positive when `lo > 0`, negative when `hi < 0`, zero for the point zero, else
    /// [`Uncertain::Close`]: the exact value may lie on either side.
    fn sign(&self) -> Decision<Sign> {
        if self.lo > 0.0 {
            Ok(Sign::Positive)
        } else if self.hi < 0.0 {
            Ok(Sign::Negative)
        } else if self.is_zero() {
            Ok(Sign::Zero)
        } else {
            Err(Uncertain::Close)
        }
    }
    /// The interval of the larger value: [max(lo), max(hi)], exactly (no rounding).
    fn maximum(&self, other: &Self) -> Decision<Self> {
        Ok(Interval { lo: self.lo.max(other.lo), hi: self.hi.max(other.hi) })
    }
    /// The interval of the smaller value: [min(lo), min(hi)], exactly.
    fn minimum(&self, other: &Self) -> Decision<Self> {
        Ok(Interval { lo: self.lo.min(other.lo), hi: self.hi.min(other.hi) })
    }
    /// The order of the two exact values: decided when the intervals are disjoint or the same
    /// point.
    fn compare(&self, other: &Self) -> Decision<Ordering> {
        if self.hi < other.lo {
            Ok(Ordering::Less)
        } else if self.lo > other.hi {
            Ok(Ordering::Greater)
        } else if self.is_point() && self == other {
            Ok(Ordering::Equal)
        } else {
            Err(Uncertain::Close)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: f64 = 5e-324;

    fn iv(lo: f64, hi: f64) -> Interval {
        Interval::new(lo, hi).unwrap()
    }

    fn pt(x: f64) -> Interval {
        Interval::point(x).unwrap()
    }

    /// 2ᵏ exactly, subnormals included (`powi` goes through 1/2⁻ᵏ and overflows).
    fn pow2(k: i32) -> f64 {
        if k >= -1022 {
            f64::from_bits(((k + 1023) as u64) << 52)
        } else {
            f64::from_bits(1u64 << (k + 1074))
        }
    }

    #[test]
    fn unit_exponents() {
        assert_eq!(unit_exp(1.0), 0);
        assert_eq!(unit_exp(1.5), -1);
        assert_eq!(unit_exp(-12.0), 2);
        assert_eq!(unit_exp(0.1), -55); // 0x1.999999999999ap-4: the last hex digit a = 1010₂
        assert_eq!(unit_exp(1.0 + f64::EPSILON), -52);
        assert_eq!(unit_exp(f64::MIN_POSITIVE), -1022);
        assert_eq!(unit_exp(TINY), -1074);
        assert_eq!(unit_exp(3.0 * TINY), -1074);
        assert_eq!(unit_exp(0.0), -1074);
        assert_eq!(unit_exp(-f64::MAX), 971);
        assert_eq!(unit_exp(pow2(-600)), -600);
    }

    #[test]
    fn exact_products_of_tiny_dyadics_stay_points() {
        // 2⁻⁶⁰⁰ · 2⁻⁴⁰⁰ = 2⁻¹⁰⁰⁰ is a double: the units prove the zero residual exact.
        assert_eq!(pt(pow2(-600)) * pt(pow2(-400)), pt(pow2(-1000)));
        assert_eq!(pt(3.0 * pow2(-1000)) / pt(3.0 * pow2(-70)), pt(pow2(-930)));
        assert_eq!(pt(pow2(-1000)) * pt(pow2(-70)), pt(pow2(-1070)));
    }

    /// The shortcut of [`product_bounds`]: wherever `|RN(x·y)| ≥ NO_UNDERFLOW`, the units
    /// prove a zero residual exact, checked over factors of every exponent (subnormals
    /// included) with one, two and 53 significant bits, each against partners that bring the
    /// product to the threshold's neighbourhood; and point products there enclose the exact
    /// product (checked in rationals), as points exactly when it is a double.
    #[test]
    fn products_past_the_threshold_need_no_unit_count() {
        let q = |x: f64| BigRational::from_float(x).unwrap();
        // 2ᵏ, flushed to zero below the subnormals and infinite above the range.
        let pow2 = |k: i32| match k {
            ..-1074 => 0.0,
            1024.. => f64::INFINITY,
            k => pow2(k),
        };
        let mut checked = 0;
        for ex in (-1074..=1023).step_by(7) {
            for x in [pow2(ex), 3.0 * pow2(ex), (pow2(53) - 1.0) * pow2(ex - 52)] {
                if !x.is_finite() || x == 0.0 {
                    continue;
                }
                // Down to 2⁻¹⁰⁰⁰, where two 53-bit factors' units sum below −1074: a threshold
                // there would fail the first assertion.
                for target in -1000..=-955 {
                    for y0 in
                        [pow2(target - ex), 3.0 * pow2(target - ex - 1), (pow2(53) - 1.0) * pow2(target - ex - 52)]
                    {
                        for y in [y0, y0.next_up(), y0.next_down()] {
                            if !y.is_finite() || y == 0.0 {
                                continue;
                            }
                            let r = x * y;
                            if r.abs() >= NO_UNDERFLOW {
                                assert!(unit_exp(x) + unit_exp(y) >= RESIDUAL_EXP_MIN, "{x:e} · {y:e}");
                                checked += 1;
                                if checked % 16 != 0 {
                                    continue;
                                }
                                let p = pt(x) * pt(y);
                                let exact = q(x) * q(y);
                                assert!(q(p.lo()) <= exact && exact <= q(p.hi()), "{x:e} · {y:e}");
                                assert_eq!(p.is_point(), q(r) == exact, "{x:e} · {y:e}");
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn exact_operations_stay_points() {
        assert_eq!(pt(3.0) + pt(4.0), pt(7.0));
        assert_eq!(pt(3.0) * pt(-4.0), pt(-12.0));
        assert_eq!(pt(3.0) / pt(4.0), pt(0.75));
        assert_eq!(pt(0.1) - pt(0.1), Interval::zero());
        assert_eq!((pt(0.1) - pt(0.1)).sign(), Ok(Sign::Zero));
        // Subnormal sums are exact.
        assert_eq!(pt(3.0 * TINY) - pt(TINY), pt(2.0 * TINY));
    }

    #[test]
    fn inexact_operations_widen_one_ulp_on_the_side_of_the_error() {
        // 1 + 2⁻⁵³ rounds (to even) down to 1: the exact sum is above.
        let s = pt(1.0) + pt(f64::EPSILON / 2.0);
        assert_eq!(s, iv(1.0, 1.0f64.next_up()));
        // 0.1 · 3 = 0.30000000000000004 in RN, the exact product of the doubles is below.
        let p = pt(0.1) * pt(3.0);
        assert_eq!(p.hi(), 0.1 * 3.0);
        assert_eq!(p.lo(), (0.1f64 * 3.0).next_down());
        // 1/3: the exact quotient lies strictly inside one ulp.
        let q = pt(1.0) / pt(3.0);
        assert_eq!(q.hi() - q.lo(), (1.0f64 / 3.0).next_up() - 1.0 / 3.0);
        assert!(q.contains(1.0 / 3.0));
    }

    /// The operations on intervals that are not points step each rounded bound outward
    /// ([`below`], [`above`]) instead of finding the residual's side: across zeros,
    /// subnormals, the edge of the normal range, powers of two (where the gap below is half
    /// the gap above), odd significands and the overflow threshold, every exact sum,
    /// difference and product of corners lies in the result (checked in rationals), and the
    /// result is one unit in the last place outside the corners rounded to nearest.
    #[test]
    fn intervals_that_are_not_points_enclose_the_exact_result() {
        let q = |x: f64| BigRational::from_float(x).unwrap();
        let mut xs = vec![0.0, TINY, 3.0 * TINY, f64::MIN_POSITIVE, pow2(-970), pow2(-969) * 1.5, 1.0, 0.1, 1.0 / 3.0];
        xs.extend([2.0, 1e300, f64::MAX / 4.0, f64::MAX, 12345.678, pow2(52) + 1.0, pow2(53)]);
        let all: Vec<f64> =
            xs.iter().flat_map(|&x| [x, -x, x.next_up(), -x.next_down()]).filter(|x| x.is_finite()).collect();
        let mut checked = 0;
        // x: one step wide at each value, and from each value's negation to each value.
        let mut wide: Vec<Interval> =
            all.iter().filter(|a| a.next_up().is_finite()).map(|&a| iv(a, a.next_up())).collect();
        for &a in &xs {
            wide.extend(xs.iter().map(|&b| iv(-a, b)).filter(|x| !x.is_point()));
        }
        for &x in &wide {
            for &c in &all {
                let y_wide = if c.next_up().is_finite() { iv(c, c.next_up()) } else { iv(c.next_down(), c) };
                for y in [pt(c), y_wide] {
                    for (op, r) in [("+", x + y), ("-", x - y), ("*", x * y)] {
                        for u in [x.lo(), x.hi()] {
                            for v in [y.lo(), y.hi()] {
                                let exact = match op {
                                    "+" => q(u) + q(v),
                                    "-" => q(u) - q(v),
                                    _ => q(u) * q(v),
                                };
                                let lo_ok = r.lo() == f64::NEG_INFINITY || q(r.lo()) <= exact;
                                let hi_ok = r.hi() == f64::INFINITY || q(r.hi()) >= exact;
                                assert!(lo_ok && hi_ok, "{x} {op} {y} = {r} misses {u} {op} {v}");
                                checked += 1;
                            }
                        }
                        // Tight: one step outside the corners rounded to nearest.
                        let corners: Vec<f64> = [x.lo(), x.hi()]
                            .iter()
                            .flat_map(|&u| {
                                [y.lo(), y.hi()].map(|v| match op {
                                    "+" => u + v,
                                    "-" => u - v,
                                    _ => u * v,
                                })
                            })
                            .collect();
                        let (mut lo, mut hi) = (
                            corners.iter().cloned().fold(f64::INFINITY, f64::min),
                            corners.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                        );
                        if lo.is_finite() && hi.is_finite() {
                            (lo, hi) = (lo.next_down(), hi.next_up());
                            assert!(r.lo() >= lo && r.hi() <= hi, "{x} {op} {y} = {r}: loose");
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn underflow_widens_and_keeps_signs() {
        // 2⁻⁶⁰⁰ · 2⁻⁶⁰⁰ underflows to 0: positive, not zero, not certain.
        let t = pt(pow2(-600));
        let sq = t * t;
        assert_eq!(sq, iv(0.0, TINY));
        assert_eq!(sq.sign(), Err(Uncertain::Close));
        assert_eq!((-t * t).hi(), 0.0);
        // 1.5 · 2⁻¹⁰⁷⁴ is not representable: the subnormal result is rounded, and widened.
        // (Rounds to 2η, the residual −η/2 rounds to 0: no proof of exactness, so both sides.)
        let r = pt(1.5) * pt(TINY);
        assert_eq!(r, iv(TINY, 3.0 * TINY));
        // A quotient that underflows.
        let q = pt(TINY) / pt(3.0);
        assert_eq!(q, iv(0.0, TINY));
    }

    #[test]
    fn overflow_gives_max_on_the_finite_side() {
        let big = pt(f64::MAX);
        assert_eq!(big + big, iv(f64::MAX, f64::INFINITY));
        assert_eq!(-big - big, iv(f64::NEG_INFINITY, -f64::MAX));
        assert_eq!(big * pt(2.0), iv(f64::MAX, f64::INFINITY));
        assert_eq!(big / pt(0.5), iv(f64::MAX, f64::INFINITY));
        assert_eq!((big * pt(-2.0)).sign(), Ok(Sign::Negative));
    }

    #[test]
    fn unbounded_operands() {
        let pos = iv(1.0, f64::INFINITY);
        assert_eq!(pos * Interval::zero(), Interval::zero());
        assert_eq!(iv(0.0, 1.0) * pos, iv(0.0, f64::INFINITY));
        assert_eq!(pt(1.0) / pos, iv(0.0, 1.0));
        assert_eq!(pos / pos, iv(0.0, f64::INFINITY));
        assert_eq!(pos - pos, Interval::whole());
        assert_eq!(pt(1.0) / iv(-1.0, 1.0), Interval::whole());
        assert_eq!(pt(1.0) / Interval::zero(), Interval::whole());
        assert_eq!(Interval::whole() * Interval::whole(), Interval::whole());
    }

    #[test]
    fn signs_and_comparisons() {
        assert_eq!(iv(-1.0, 2.0).sign(), Err(Uncertain::Close));
        assert_eq!(iv(0.0, 2.0).sign(), Err(Uncertain::Close));
        assert_eq!(iv(TINY, 2.0).sign(), Ok(Sign::Positive));
        assert_eq!(iv(-2.0, -TINY).sign(), Ok(Sign::Negative));
        assert_eq!(iv(1.0, 2.0).compare(&iv(2.0, 3.0)), Err(Uncertain::Close));
        assert_eq!(iv(1.0, 2.0).compare(&iv(2.5, 3.0)), Ok(Ordering::Less));
        assert_eq!(pt(2.0).compare(&pt(2.0)), Ok(Ordering::Equal));
        assert_eq!(iv(1.0, 2.0).compare(&iv(1.0, 2.0)), Err(Uncertain::Close));
        assert_eq!(iv(-3.0, 2.0).abs(), iv(0.0, 3.0));
        assert_eq!(iv(-3.0, -2.0).abs(), iv(2.0, 3.0));
    }

    #[test]
    fn constructors() {
        assert_eq!(Interval::from_i64(1 << 53), pt(9007199254740992.0));
        let odd = Interval::from_i64((1 << 53) + 1);
        assert_eq!(odd, iv(9007199254740992.0, 9007199254740994.0));
        let max = Interval::from_i64(i64::MAX);
        assert!(max.lo() < 9223372036854775808.0 && max.hi() == 9223372036854775808.0);
        assert_eq!(Interval::from_i64(i64::MIN), pt(-9223372036854775808.0));
        let third = Interval::from_rational(&BigRational::new(1.into(), 3.into()));
        assert_eq!((third.lo(), third.hi()), ((1.0f64 / 3.0), (1.0f64 / 3.0).next_up()));
        let huge = BigRational::from_integer(num_bigint::BigInt::from(10).pow(400));
        assert_eq!(Interval::from_rational(&huge), iv(f64::MAX, f64::INFINITY));
        assert_eq!(Interval::from_rational(&-huge), iv(f64::NEG_INFINITY, -f64::MAX));
        let tiny = BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(400));
        assert_eq!(Interval::from_rational(&tiny), iv(0.0, TINY));
        assert!(Interval::from_f64(f64::INFINITY).is_err());
        assert_eq!(Interval::from_f64(-0.0).unwrap().lo().to_bits(), 0.0f64.to_bits());
        assert_eq!(pt(-0.0).to_string(), "0");
        assert_eq!(iv(0.5, 1.0).to_string(), "[0.5, 1]");
        assert_eq!(iv(1.0, f64::INFINITY).to_f64(), 1.0);
        assert_eq!(iv(f64::MAX, f64::MAX).to_f64(), f64::MAX);
        assert_eq!(iv(-f64::MAX, f64::MAX).to_f64(), 0.0);
        assert_eq!(pt(0.25).to_rational(), Some(BigRational::new(1.into(), 4.into())));
        assert_eq!(iv(0.25, 0.5).to_rational(), None);
    }
}
