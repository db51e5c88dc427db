//! The value-and-bound backend: a binary64 value with a bound on its distance from the exact
//! one (midpoint–radius arithmetic), the cheap first stage of the filtered exact path.
//!
//! A [`MidRad`] `⟨m, r⟩` stands for one unknown real `x` with `|x − m| ≤ r`: the value the same
//! computation would have produced on exact inputs. `m` is what binary64 arithmetic computes
//! (the float run's own value); `r` is a rigorous bound on everything that run has lost so far,
//! carried along with it. So a sign decided from it (`m > r`, `m < −r`, or the exact point zero)
//! is the sign of the exact computation ([`Scalar::CERTAIN_DECISIONS`]), and a sign it cannot
//! decide is [`Uncertain`]. Compared with [`Interval`](super::Interval) it costs a few
//! additions and multiplications per operation and no branch on the operands' signs: a
//! product is one product of midpoints and one bound, where an interval product picks two of
//! four corners by eight sign cases and steps each one ulp out.
//!
//! # Why each operation bounds the exact result
//!
//! Notation: `RN` is round-to-nearest, `u = 2⁻⁵³`, `η = 2⁻¹⁰⁷⁴`. For a real `v` in range,
//! `|RN(v) − v| ≤ u·|RN(v)|` when `RN(v)` is normal and `≤ η/2` otherwise (a sum or difference
//! in the subnormal range is exact). On non-negative operands `RN(v) ≥ v/(1 + u) − η/2` (the
//! `η/2` only for products).
//!
//! * **Points** (`r = 0`, the value known exactly: inputs, and results of exact operations)
//!   keep the error-free transformations: a sum's error `e` from `TwoSum`, a product's from
//!   [`two_product`] where it is exact; the result is `⟨RN(a ∘ b), |e|⟩`, a point again when
//!   `e = 0`. So small integers and grid coordinates stay exact through a run, and degenerate
//!   inputs given as doubles decide exactly, as on intervals.
//! * **Sums** `⟨ma, ra⟩ ± ⟨mb, rb⟩`, not both points: `m = RN(ma ± mb)` and
//!   `|x − m| ≤ ra + rb + u|m|`. The bound is computed as `RN(RN(RN(ra + rb)·K) + RN(C·|m|))`
//!   with `K = 1 + 2⁻⁴⁹` and `C = 2⁻⁵²`: three roundings of non-negative terms lose at most
//!   `(1 + u)³` relatively, which `K` more than repays, and `C = 2u` covers `u|m|` after two
//!   roundings. Absolute losses to underflow (`η/2` per product) are repaid by the relative
//!   slack `K/(1 + u)³ − 1 ≥ 2⁻⁵⁰` and `C/(1+u)² − u ≥ u/2` once the bound is at least
//!   `2⁻¹⁰¹⁶`; below that the bound is raised to [`FLOOR`] `= 2⁻¹⁰¹⁵`, which exceeds every
//!   such case's true bound. (Values that small leave the decision to the interval stage.)
//! * **Products**: `m = RN(ma·mb)` and `x·y − ma·mb = ma·δy + mb·δx + δx·δy`, so
//!   `|xy − m| ≤ |ma|·rb + |mb|·ra + ra·rb + u|m| + η/2`. Computed as
//!   `RN(RN(s·K) + RN(C·|m|))` with `s` the three terms summed in `RN`: five roundings of
//!   non-negative terms, `K/(1 + u)⁵ ≥ 1 + 2⁻⁵⁰`, and the floor as for sums. A factor that is
//!   exactly zero gives the exact zero.
//! * **Quotients** (the divisor decided nonzero, `|mb| > rb`): `|x/y − ma/mb| ≤
//!   (ra + |ma/mb|·rb)/(|mb| − rb)`, with `|ma/mb| ≤ |m|(1 + u) + η/2`; the numerator computed
//!   as `(ra + 2η) + (|m| + η)·rb` (the quotient amplifies absolute losses, so the numerator
//!   carries its own `η`s and loses only relatively), the divisor `|mb| − rb` rounded *down* (`RN(RN(|mb| − rb)·(1 − 2⁻⁴⁹))`, at least
//!   `2⁻¹⁰⁰⁰` or the quotient is unknown), then `K` and the floor. A divisor that may be zero
//!   gives an unknown value.
//! * **Overflow**: a bound or a midpoint that is not finite makes the value *unknown*
//!   (`⟨0, ∞⟩`), which decides nothing; so does a NaN (it fails every comparison).
//!
//! A sign is positive when `m > r`, negative when `m < −r`, zero for the point zero, else
//! [`Uncertain::Close`] (the query then goes on to intervals, then to the exact backend).
//! Comparisons of the doubles `m` and `r` are exact, so no rounding enters a decision.
//! `tests/midrad.rs` and the unit tests below check enclosure in rationals across zeros,
//! subnormals, powers of two, the overflow edge and random chains of operations.
//!
//! ```
//! use touchstone::scalar::{MidRad, Scalar, Sign, Uncertain};
//!
//! let third = MidRad::from_i64(1) / MidRad::from_i64(3); // not a double: a bound of an ulp or so
//! assert!(!third.is_point() && third.radius() < 1e-16);
//! assert_eq!((third * MidRad::from_i64(3) - MidRad::from_i64(1)).sign(), Err(Uncertain::Close));
//! assert_eq!((third - MidRad::from_f64(0.3).unwrap()).sign(), Ok(Sign::Positive));
//! let x = MidRad::from_f64(0.1).unwrap(); // the double 0.1, a point
//! assert_eq!((x - x).sign(), Ok(Sign::Zero));
//! let half = MidRad::from_f64(0.5).unwrap(); // exact products stay points
//! assert_eq!((half * half - MidRad::from_f64(0.25).unwrap()).sign(), Ok(Sign::Zero));
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::eft::{two_product, two_sum};
use super::{Decision, Interval, NumberError, Scalar, Sign, Uncertain};

/// The factor that repays the roundings of a bound's own computation (see the module docs).
const K: f64 = 1.0 + pow2(-49);
/// The factor of a result's own rounding error, `2u = 2⁻⁵²`.
const C: f64 = f64::EPSILON;
/// The least bound of a value that is not a point: `2⁻¹⁰¹⁵` (see the module docs).
const FLOOR: f64 = pow2(-1015);
/// A divisor's lower bound below this (`2⁻¹⁰⁰⁰`) makes the quotient unknown.
const DIVISOR_MIN: f64 = pow2(-1000);
/// `η = 2⁻¹⁰⁷⁴`, the least positive subnormal.
const ETA: f64 = f64::from_bits(1);
/// `1 − 2⁻⁴⁹`, to round a divisor's lower bound down.
const SHRINK: f64 = 1.0 - pow2(-49);

/// `2ᵏ` for a normal exponent `k`, exactly (derived constants are built, not typed in).
const fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// A binary64 value `m` and a bound `r` with `|x − m| ≤ r` for the exact value `x`.
///
/// Invariants: `m` finite with no negative zero, `r ≥ 0`; `r = ∞` (with `m = 0`) means
/// unknown. `r = 0` is a point: `x = m` exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MidRad {
    m: f64,
    r: f64,
}

/// The unknown value.
const UNKNOWN: MidRad = MidRad { m: 0.0, r: f64::INFINITY };

impl MidRad {
    /// The least bound of a value that is not a point, `2⁻¹⁰¹⁵`: below it, absolute losses
    /// to underflow are not repaid by the bounds' relative slack (module docs).
    pub const FLOOR: f64 = FLOOR;

    /// `⟨m, r⟩`; `None` unless `m` is finite and `r` is a non-negative number (`∞` allowed:
    /// unknown).
    ///
    /// ```
    /// use touchstone::scalar::MidRad;
    /// assert!(MidRad::new(1.0, 0.5).is_some());
    /// assert!(MidRad::new(1.0, -0.5).is_none());
    /// assert!(MidRad::new(f64::NAN, 0.0).is_none());
    /// ```
    pub fn new(m: f64, r: f64) -> Option<Self> {
        (m.is_finite() && r >= 0.0).then_some(if r == f64::INFINITY { UNKNOWN } else { MidRad { m: m + 0.0, r } })
    }

    /// The point `x`; `None` unless `x` is finite.
    pub fn point(x: f64) -> Option<Self> {
        Self::new(x, 0.0)
    }

    /// The binary64 value (the float run's own).
    pub fn mid(&self) -> f64 {
        self.m
    }

    /// The bound on the distance to the exact value (`∞`: unknown).
    pub fn radius(&self) -> f64 {
        self.r
    }

    /// Whether the value is known exactly.
    pub fn is_point(&self) -> bool {
        self.r == 0.0
    }

    /// An interval enclosing the same values: `[m − r, m + r]` rounded outward.
    pub fn enclosure(&self) -> Interval {
        if self.r == 0.0 {
            return Interval::point(self.m).unwrap_or_else(Interval::whole);
        }
        if self.r.is_finite() {
            // RN(m ∓ r) is within half an ulp of m ∓ r: one ulp outward encloses it.
            let (lo, hi) = ((self.m - self.r).next_down(), (self.m + self.r).next_up());
            if let Some(i) = Interval::new(lo, hi) {
                return i;
            }
        }
        Interval::whole()
    }

    /// The value of an interval: its midpoint, with a radius reaching both ends (`None`: an
    /// unbounded interval).
    pub fn of_interval(i: &Interval) -> Option<Self> {
        if i.is_point() {
            return Self::point(i.lo());
        }
        let (lo, hi) = (i.lo(), i.hi());
        if !(lo.is_finite() && hi.is_finite()) {
            return None;
        }
        let m = 0.5 * lo + 0.5 * hi; // within [lo, hi] (halving is exact but for subnormals)
        let r = ((m - lo).max(hi - m) * K).max(FLOOR);
        Self::new(m, r)
    }

    /// The value `m` with bound `r` as computed for a result that is not a point: unknown if
    /// either is not finite, else the bound raised to at least [`FLOOR`].
    #[inline]
    fn settled(m: f64, r: f64) -> Self {
        if r < f64::INFINITY && m.is_finite() {
            MidRad { m: m + 0.0, r: r.max(FLOOR) }
        } else {
            UNKNOWN
        }
    }

    /// The point `m` with the exact error `e` of its rounding (`x = m + e`).
    #[inline]
    fn rounded(m: f64, e: f64) -> Self {
        if m.is_finite() && e.is_finite() {
            MidRad { m: m + 0.0, r: e.abs() }
        } else {
            UNKNOWN
        }
    }

    #[inline]
    fn sum(self, o: MidRad, m: f64) -> MidRad {
        let r = (self.r + o.r) * K + C * m.abs();
        Self::settled(m, r)
    }

    #[inline]
    fn exact_zero(&self) -> bool {
        self.m == 0.0 && self.r == 0.0
    }
}

impl Add for MidRad {
    type Output = MidRad;
    #[inline]
    fn add(self, o: MidRad) -> MidRad {
        if self.r == 0.0 && o.r == 0.0 {
            let (s, mut e) = two_sum(self.m, o.m);
            if s.is_finite() && !e.is_finite() {
                // TwoSum's s − a overflowed (a sum just below the largest double, of operands
                // of opposite signs): Fast2Sum on the operands by magnitude is exact there, and
                // its s − hi cannot overflow (it is at most |lo| and one rounding).
                let (hi, lo) = if self.m.abs() >= o.m.abs() { (self.m, o.m) } else { (o.m, self.m) };
                e = lo - (s - hi);
            }
            return MidRad::rounded(s, e);
        }
        self.sum(o, self.m + o.m)
    }
}

impl Sub for MidRad {
    type Output = MidRad;
    #[inline]
    fn sub(self, o: MidRad) -> MidRad {
        self + (-o)
    }
}

impl Neg for MidRad {
    type Output = MidRad;
    #[inline]
    fn neg(self) -> MidRad {
        MidRad { m: -self.m + 0.0, r: self.r }
    }
}

impl Mul for MidRad {
    type Output = MidRad;
    #[inline]
    fn mul(self, o: MidRad) -> MidRad {
        if self.exact_zero() || o.exact_zero() {
            return MidRad::zero();
        }
        let m = self.m * o.m;
        if self.r == 0.0 && o.r == 0.0 {
            if let Some((p, e)) = two_product(self.m, o.m) {
                return MidRad::rounded(p, e);
            }
        }
        let s = self.m.abs() * o.r + o.m.abs() * self.r + self.r * o.r;
        MidRad::settled(m, s * K + C * m.abs())
    }
}

impl Div for MidRad {
    type Output = MidRad;
    /// The quotient; unknown when the divisor may be zero or is too small to bound.
    fn div(self, o: MidRad) -> MidRad {
        // (No NaN: m is finite and r a number, so this is `!(|m| > r)`.)
        if o.m.abs() <= o.r {
            return UNKNOWN;
        }
        if self.exact_zero() {
            return MidRad::zero();
        }
        let m = self.m / o.m;
        if self.r == 0.0 && o.r == 0.0 {
            // x − m·y is exactly x − (p + e) when the product's error is known; zero proves the
            // quotient exact (x − p is exact by Sterbenz's lemma: p is within a factor of two
            // of x when m is the rounded quotient; the difference with e is then exact too, the
            // remainder of a division being a double).
            if let Some((p, e)) = two_product(m, o.m) {
                if (self.m - p) - e == 0.0 && m.is_finite() {
                    return MidRad { m: m + 0.0, r: 0.0 };
                }
            }
            return MidRad::settled(m, C * m.abs());
        }
        let divisor = ((o.m.abs() - o.r) * SHRINK).max(0.0);
        // (Finite here: |mb| > rb made rb finite.)
        if divisor < DIVISOR_MIN {
            return UNKNOWN;
        }
        // |ma/mb| ≤ |m| + η and every absolute loss of the numerator's own roundings (η/2 per
        // product) is covered by the 2η added: so the numerator is at least the true one up to
        // relative roundings, which matters because the quotient amplifies absolute losses.
        let numerator = (self.r + 2.0 * ETA) + (m.abs() + ETA) * o.r;
        let r = (numerator / divisor) * K * K + C * m.abs();
        MidRad::settled(m, r)
    }
}

macro_rules! assign_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for MidRad {
            #[inline]
            fn $f(&mut self, o: MidRad) {
                *self = *self $op o;
            }
        }
    };
}
assign_op!(AddAssign, add_assign, +);
assign_op!(SubAssign, sub_assign, -);
assign_op!(MulAssign, mul_assign, *);
assign_op!(DivAssign, div_assign, /);

impl Zero for MidRad {
    fn zero() -> Self {
        MidRad { m: 0.0, r: 0.0 }
    }
    /// Only the exact zero.
    fn is_zero(&self) -> bool {
        self.exact_zero()
    }
}

impl One for MidRad {
    fn one() -> Self {
        MidRad { m: 1.0, r: 0.0 }
    }
}

impl fmt::Display for MidRad {
    /// The value alone for a point, else `m ± r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_point() {
            write!(f, "{}", self.m)
        } else {
            write!(f, "{} ± {:e}", self.m, self.r)
        }
    }
}

impl crate::scalar::Certain for MidRad {}

impl Scalar for MidRad {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    const EXACT_VALUES: bool = false;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "midrad";
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

    fn as_double(&self) -> Option<f64> {
        self.is_point().then_some(self.m)
    }
    /// The midpoint: every operation rounds it as binary64 does (`RN(ma ∘ mb)`; inputs by
    /// nearest), so it is the `f64` run's value, but for the sign of a zero; `None` once unknown
    /// (where binary64 may have overflowed).
    fn float_run(&self) -> Option<f64> {
        self.r.is_finite().then_some(self.m)
    }

    /// The point `v` when it is a double, else the nearest double with its exact distance.
    fn from_i64(v: i64) -> Self {
        let m = v as f64;
        // |v − m| ≤ 2¹⁰, exact as an i128 and as a double.
        let e = (i128::from(v) - m as i128) as f64;
        MidRad { m, r: e.abs() }
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        Self::point(v).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    /// The point `q` when it is a double, else the double nearest `q` (what binary64 reads it
    /// as, so that the values are the float run's) with the gap between the two doubles around
    /// `q` as the bound (unknown beyond the binary64 range).
    fn from_rational(q: &BigRational) -> Self {
        let i = <Interval as Scalar>::from_rational(q);
        if i.is_point() {
            return MidRad { m: i.lo() + 0.0, r: 0.0 };
        }
        let gap = i.hi() - i.lo(); // adjacent doubles: exact
        if !(i.lo().is_finite() && gap.is_finite()) {
            return UNKNOWN;
        }
        // Correctly rounded (num-rational); it is one of the two ends, checked.
        let nearest = num_traits::ToPrimitive::to_f64(q).filter(|x| *x == i.lo() || *x == i.hi()).unwrap_or(i.lo());
        MidRad { m: nearest + 0.0, r: gap }
    }
    fn to_f64(&self) -> f64 {
        self.m
    }
    /// The image both ends of the enclosure share, else [`Uncertain::Close`] (as intervals).
    fn image(&self) -> Decision<f64> {
        self.enclosure().image()
    }
    fn to_rational(&self) -> Option<BigRational> {
        if self.is_point() {
            super::rational_of_f64(self.m)
        } else {
            None
        }
    }
    /// The three products and two sums of the operation-by-operation route with the same
    /// midpoints (each product and sum of midpoints rounded to nearest, in that order), and one
    /// bound for the whole sum instead of five: with `sᵢ = |maᵢ|·rbᵢ + |mbᵢ|·raᵢ + raᵢ·rbᵢ` the
    /// operands' losses in each product, and `pᵢ`, `p₀₁ = RN(p₀ + p₁)`, `m = RN(p₀₁ + p₂)` the
    /// rounded products and sums, `|x − m| ≤ Σ sᵢ + u·(|p₀| + |p₁| + |p₂| + |p₀₁| + |m|) + 3η/2`
    /// (each rounding loses at most u of its result, and a product η/2 more to underflow).
    /// Computed as `RN(RN(S·K) + RN(C·T))`, `S` the sᵢ summed: every term of it passes through
    /// at most seven roundings of non-negative values (a product, two sums within its sᵢ, two
    /// in `S`, the multiplication by `K` and the last sum), and `K/(1 + u)⁷ ≥ 1 + 2⁻⁵⁰`; that
    /// slack repays the η/2 of each of the thirteen products' underflows (6.5η) once the bound
    /// is at least `2⁻¹⁰¹⁶`, below which [`FLOOR`] is taken as for every operation. `T` is the
    /// five magnitudes summed (four sums), and `C = 2u` covers `u·T` after six roundings.
    ///
    /// When every sᵢ is zero (each product of points, or with an exact zero) the operations
    /// one by one are taken instead: they keep the exact results of points exact.
    fn dot3(a: [&Self; 3], b: [&Self; 3]) -> Self {
        // (A factor exactly zero makes an exact zero product, even against an unknown value.)
        let s = |i: usize| {
            if a[i].exact_zero() || b[i].exact_zero() {
                return 0.0;
            }
            a[i].m.abs() * b[i].r + b[i].m.abs() * a[i].r + a[i].r * b[i].r
        };
        let (s0, s1, s2) = (s(0), s(1), s(2));
        if s0 == 0.0 && s1 == 0.0 && s2 == 0.0 {
            return *a[0] * *b[0] + *a[1] * *b[1] + *a[2] * *b[2];
        }
        let p = [0, 1, 2].map(|i| a[i].m * b[i].m);
        let p01 = p[0] + p[1];
        let m = p01 + p[2];
        let t = (((p[0].abs() + p[1].abs()) + p[2].abs()) + p01.abs()) + m.abs();
        // (A NaN from 0·∞, an unknown operand's, fails `r < ∞` in `settled`: unknown.)
        MidRad::settled(m, ((s0 + s1) + s2) * K + C * t)
    }
    fn abs(&self) -> Self {
        // |x| lies within r of |m| (the triangle inequality), and r = 0 stays exact.
        MidRad { m: self.m.abs(), r: self.r }
    }
    /// Positive when `m > r`, negative when `m < −r`, zero for the point zero, else
    /// [`Uncertain::Close`].
    #[inline]
    fn sign(&self) -> Decision<Sign> {
        if self.m > self.r {
            Ok(Sign::Positive)
        } else if -self.m > self.r {
            Ok(Sign::Negative)
        } else if self.exact_zero() {
            Ok(Sign::Zero)
        } else {
            Err(Uncertain::Close)
        }
    }
    /// The value of the larger: `⟨max(ma, mb), max(ra, rb)⟩`, exactly (no rounding): the
    /// larger of two values within `ra` of `ma` and `rb` of `mb` is within the larger radius of
    /// the larger midpoint.
    fn maximum(&self, other: &Self) -> Decision<Self> {
        Ok(MidRad { m: self.m.max(other.m), r: self.r.max(other.r) })
    }
    /// The value of the smaller, as [`MidRad::maximum`].
    fn minimum(&self, other: &Self) -> Decision<Self> {
        Ok(MidRad { m: self.m.min(other.m), r: self.r.max(other.r) })
    }
    /// The order of the exact values: the sign of the difference.
    fn compare(&self, other: &Self) -> Decision<Ordering> {
        if self.is_point() && other.is_point() {
            return Ok(self.m.partial_cmp(&other.m).unwrap_or(Ordering::Equal));
        }
        Ok((*self - *other).sign()?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    fn mr(m: f64, r: f64) -> MidRad {
        MidRad::new(m, r).unwrap()
    }

    /// Whether `v` holds every exact value `x` with `|x − m| ≤ r` combined: checked on the
    /// exact result of the ends and the midpoints.
    fn holds(v: &MidRad, exact: &BigRational) -> bool {
        if v.r == f64::INFINITY {
            return true;
        }
        let d = exact - q(v.m);
        let d = if d < BigRational::zero() { -d } else { d };
        d <= q(v.r)
    }

    /// `2ᵏ`, subnormals included, by repeated halving (independent of the constant's route).
    fn pow2(k: i32) -> f64 {
        let mut x = 1.0f64;
        for _ in 0..k.unsigned_abs() {
            x = if k < 0 { x / 2.0 } else { x * 2.0 };
        }
        x
    }

    #[test]
    fn constants_are_what_they_say() {
        assert_eq!(K, 1.0 + pow2(-49));
        assert_eq!(SHRINK, 1.0 - pow2(-49));
        assert_eq!(FLOOR, pow2(-1015));
        assert_eq!(DIVISOR_MIN, pow2(-1000));
        assert_eq!(C, pow2(-52));
    }

    #[test]
    fn exact_operations_stay_points() {
        let p = |x: f64| MidRad::point(x).unwrap();
        assert_eq!(p(3.0) + p(4.0), p(7.0));
        assert_eq!(p(3.0) * p(-4.0), p(-12.0));
        assert_eq!(p(3.0) / p(4.0), p(0.75));
        assert_eq!((p(0.1) - p(0.1)).sign(), Ok(Sign::Zero));
        assert_eq!(p(0.0) * mr(1.0, 1e-10), MidRad::zero());
        assert_eq!(MidRad::from_i64(1 << 60), p((1u64 << 60) as f64));
        let odd = MidRad::from_i64((1 << 53) + 1);
        assert_eq!((odd.m, odd.r), (9007199254740992.0, 1.0));
    }

    /// Every operation on corners, midpoints and the exact values of such pairs: the result
    /// holds the exact result of the midpoints and of each combination of ends (which, the
    /// operations being monotone on the box or bilinear, bound everything inside).
    #[test]
    fn operations_bound_the_exact_results() {
        let mut xs = vec![0.0, pow2(-1074), 3.0 * pow2(-1074), f64::MIN_POSITIVE, pow2(-970), 1.0, 0.1, 1.0 / 3.0];
        xs.extend([2.0, 1e300, f64::MAX / 4.0, 12345.678, pow2(52) + 1.0, pow2(53), pow2(-600), 7.0]);
        let mids: Vec<f64> = xs.iter().flat_map(|&x| [x, -x, x.next_up()]).filter(|x| x.is_finite()).collect();
        let radii = [0.0, pow2(-1074), pow2(-1000), 1e-300, 1e-17, 1e-3, 0.5, 3.0, 1e300];
        let values: Vec<MidRad> = mids.iter().flat_map(|&m| radii.iter().map(move |&r| mr(m, r))).collect();
        let mut checked = 0usize;
        for a in values.iter().step_by(3) {
            for b in values.iter().step_by(2) {
                let ends = |v: &MidRad| {
                    if v.r == 0.0 {
                        vec![q(v.m)]
                    } else {
                        vec![q(v.m) - q(v.r), q(v.m), q(v.m) + q(v.r)]
                    }
                };
                for x in ends(a) {
                    for y in ends(b) {
                        assert!(holds(&(*a + *b), &(&x + &y)), "{a:?} + {b:?}");
                        assert!(holds(&(*a - *b), &(&x - &y)), "{a:?} - {b:?}");
                        assert!(holds(&(*a * *b), &(&x * &y)), "{a:?} * {b:?}");
                        if !y.is_zero() && b.m.abs() > b.r {
                            assert!(holds(&(*a / *b), &(&x / &y)), "{a:?} / {b:?}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn signs_and_unknowns() {
        assert_eq!(mr(1.0, 0.5).sign(), Ok(Sign::Positive));
        assert_eq!(mr(-1.0, 0.5).sign(), Ok(Sign::Negative));
        assert_eq!(mr(1.0, 1.0).sign(), Err(Uncertain::Close));
        assert_eq!(mr(0.0, pow2(-1074)).sign(), Err(Uncertain::Close));
        let big = MidRad::point(f64::MAX).unwrap();
        assert_eq!((big + big).sign(), Err(Uncertain::Close));
        assert_eq!((big * big).radius(), f64::INFINITY);
        assert_eq!(MidRad::point(1.0).unwrap() / mr(0.0, 1.0), UNKNOWN);
        assert_eq!((UNKNOWN * MidRad::zero()), MidRad::zero());
        assert_eq!((UNKNOWN * mr(0.0, 1.0)).sign(), Err(Uncertain::Close));
        assert_eq!(mr(1.0, 0.5).compare(&mr(2.0, 0.25)), Ok(Ordering::Less));
        assert_eq!(mr(1.0, 0.5).compare(&mr(1.5, 0.25)), Err(Uncertain::Close));
    }

    #[test]
    fn conversions_enclose() {
        let third = MidRad::from_rational(&BigRational::new(1.into(), 3.into()));
        assert!(holds(&third, &BigRational::new(1.into(), 3.into())));
        assert!(third.r <= f64::EPSILON);
        let e = third.enclosure();
        assert!(e.lo() <= third.m - third.r && e.hi() >= third.m + third.r);
        let huge = BigRational::from_integer(num_bigint::BigInt::from(10).pow(400));
        assert_eq!(MidRad::from_rational(&huge), UNKNOWN);
        assert_eq!(MidRad::of_interval(&Interval::new(1.0, 2.0).unwrap()).map(|v| v.m), Some(1.5));
        assert_eq!(MidRad::point(0.25).unwrap().to_rational(), Some(BigRational::new(1.into(), 4.into())));
        assert_eq!(mr(0.25, 1.0).to_rational(), None);
        assert_eq!(mr(1.0, 0.5).maximum(&mr(2.0, 0.25)), Ok(mr(2.0, 0.5)));
        assert_eq!(MidRad::point(-0.0).unwrap().mid().to_bits(), 0.0f64.to_bits());
    }
}
