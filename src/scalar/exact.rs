//! The fast exact backend: rationals as `m · 2^e / d` with big integers, kept without a gcd.
//!
//! [`BigRational`] divides by a gcd after every operation, which for the inputs an engine
//! holds (binary64 numbers: dyadic rationals with 53-bit numerators and power-of-two
//! denominators up to 2¹⁰⁷⁴) is nearly all of its cost. [`Exact`] holds the same values as
//!
//! ```text
//! x = m · 2^e / d        m, d big integers, d ≥ 1 odd (absent when 1), m odd or zero
//! ```
//!
//! so that the common case, dyadic values, needs no denominator at all: a sum is a shift and
//! an addition, a product a multiplication, and no gcd is ever taken. The integers are
//! [`Int`]s: inline up to a few hundred bits (what posing a binary64 vertex makes), on the heap
//! beyond, so a short exact construction allocates nothing. Only a division makes an
//! odd denominator, and only a sum of two different denominators multiplies them; the
//! fraction is reduced by a gcd only when numerator and denominator together grow past
//! [`REDUCE_BITS`]. Every value is exact: [`Scalar::EXACT_VALUES`] and certain decisions, like
//! the reference backend, whose answers it must reproduce (tests compare the two on every
//! generic test body and on random expression trees).
//!
//! Why the representation is canonical enough for equality without a gcd: `m` is odd and `d`
//! is odd, so the powers of two of a value sit in `e` alone, and `m₁·2^e₁/d₁ = m₂·2^e₂/d₂`
//! holds iff `e₁ = e₂` and `m₁·d₂ = m₂·d₁`.
//!
//! ```
//! use num_traits::One;
//! use touchstone::scalar::{Exact, Scalar, Sign};
//!
//! let tenth = Exact::from_f64(0.1).unwrap(); // the double nearest 1/10, exactly
//! let sum = tenth.clone() + tenth.clone() + tenth.clone();
//! assert_ne!(sum, Exact::from_f64(0.3).unwrap()); // binary64 arithmetic would round both to the same double
//! let third = Exact::one() / Exact::from_i64(3);
//! assert_eq!((third * Exact::from_i64(3) - Exact::one()).sign(), Ok(Sign::Zero));
//! assert_eq!(Exact::parse("-6/14").unwrap().to_string(), "-3/7");
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::gcd::gcd_limbs;
use super::int::Int;
use super::nat;
use super::{Decision, NumberError, Scalar, Sign};

/// When numerator and denominator together exceed this many bits, a fraction is reduced by
/// their gcd: large enough that the short computations of a query (posing, a plane, a
/// distance) never pay for one, small enough that a long chain of divisions does not grow
/// without bound.
pub const REDUCE_BITS: u64 = 4096;

/// An exact rational `m · 2^e / d` (see the module docs of `scalar/exact.rs`).
#[derive(Clone)]
pub struct Exact {
    /// Odd, or zero (then `e = 0` and no `d`).
    m: Int,
    e: i64,
    /// Odd and at least 3 when present (1 is absent).
    d: Option<Int>,
}

impl Exact {
    /// `m · 2^e / d` in canonical form: powers of two moved into `e`, a denominator of 1
    /// dropped, zero as `0 · 2⁰`, and a fraction past [`REDUCE_BITS`] reduced.
    fn new(mut m: Int, mut e: i64, d: Option<Int>) -> Self {
        if m.is_zero() {
            return Exact::zero();
        }
        if let Some(tz) = m.trailing_zeros() {
            if tz > 0 {
                m = m.shr_exact(tz);
                e += tz as i64;
            }
        }
        let d = match d {
            None => None,
            Some(mut d) => {
                // d > 0 here (callers move the sign into m).
                if let Some(tz) = d.trailing_zeros() {
                    if tz > 0 {
                        d = d.shr_exact(tz);
                        e -= tz as i64;
                    }
                }
                if m.bits() + d.bits() > REDUCE_BITS {
                    // Both odd here (m's and d's powers of two went to e).
                    let g = m.gcd(&d);
                    if !g.is_one() {
                        m = m.div_exact(&g);
                        d = d.div_exact(&g);
                    }
                }
                (!d.is_one()).then_some(d)
            }
        };
        Exact { m, e, d }
    }

    /// The value as a reduced [`BigRational`] (a gcd only when there is a denominator).
    pub fn to_big_rational(&self) -> BigRational {
        // m and d are odd, so their gcd is the whole common factor (the power of two is on
        // one side only).
        self.reduced_by(gcd_limbs)
    }

    /// Values over one denominator (a posed point's coordinates, say) as reduced
    /// [`BigRational`]s, with one gcd on the denominator's size for all of them where they
    /// share it. A numerator that d divides (a coordinate on a box's face, `h·d / d`) has gcd
    /// d. For the others, with residues rᵢ = mᵢ mod d ≠ 0: gcd(mᵢ, d) = gcd(rᵢ, d) divides
    /// g = gcd(∏ⱼ rⱼ mod d, d) (it divides rᵢ, hence the product, and d), so gcd(mᵢ, d) =
    /// gcd(rᵢ, g), and g is 1, nothing to divide, for most values. Values with different
    /// denominators are reduced one by one.
    ///
    /// ```
    /// use touchstone::scalar::{Exact, Scalar};
    /// // Integer quotients keep their denominator as given: three values over 35.
    /// let v = |n: i64| Exact::from_i64(n) / Exact::from_i64(35);
    /// let xs = [v(6), v(10), v(70)]; // 6/35 stays, 2/7 after a gcd of 5, and 2
    /// let [a, b, c] = Exact::to_big_rationals([&xs[0], &xs[1], &xs[2]]);
    /// assert_eq!((a.to_string(), b.to_string(), c.to_string()), ("6/35".into(), "2/7".into(), "2".into()));
    /// ```
    pub fn to_big_rationals<const N: usize>(xs: [&Exact; N]) -> [BigRational; N] {
        let shared = xs[..].first().and_then(|x| x.d.as_ref()).filter(|d| xs.iter().all(|x| x.d.as_ref() == Some(*d)));
        let Some(d) = shared.filter(|_| N > 1) else { return xs.map(Exact::to_big_rational) };
        let d = d.mag_limbs();
        let residues = xs.map(|x| nat::rem(&x.m.mag_limbs(), &d));
        let product = residues.iter().filter(|r| !r.is_empty()).fold(vec![1u64], |p, r| nat::rem(&nat::mul(&p, r), &d));
        let g = gcd_limbs(&product, &d);
        let mut i = 0;
        xs.map(|x| {
            let r = &residues[i];
            i += 1;
            x.reduced_by(|_, _| match () {
                _ if r.is_empty() => d.to_vec(),
                _ if nat::is_one(&g) => vec![1],
                _ => gcd_limbs(r, &g),
            })
        })
    }

    /// The value as a [`BigRational`], dividing numerator and denominator by `common(|m|, d)`
    /// (their gcd, found by the caller's route, on trimmed limbs) when there is a denominator.
    /// Everything but the final conversion runs on limbs.
    fn reduced_by(&self, common: impl FnOnce(&[u64], &[u64]) -> Vec<u64>) -> BigRational {
        let mut num = self.m.mag_limbs();
        let mut den: Cow<'_, [u64]> = self.d.as_ref().map_or(Cow::Borrowed(&[1u64][..]), Int::mag_limbs);
        if self.d.is_some() {
            // Taken on the odd parts, before the shift: the power of two is on one side only.
            let g = common(&num, &den);
            if !nat::is_one(&g) {
                num = Cow::Owned(nat::div_exact(&num, &g));
                // g = d (an integer held over d, a coordinate on a face): the denominator is 1.
                den = Cow::Owned(if g[..] == den[..] { vec![1] } else { nat::div_exact(&den, &g) });
            }
        }
        if self.e > 0 {
            num = Cow::Owned(nat::shl(&num, self.e as u64));
        } else if self.e < 0 {
            den = Cow::Owned(nat::shl(&den, self.e.unsigned_abs()));
        }
        let sign = if self.m.is_negative() { BigSign::Minus } else { BigSign::Plus };
        BigRational::new_raw(BigInt::from_biguint(sign, nat::to_big(&num)), BigInt::from(nat::to_big(&den)))
    }

    /// The exact value of a [`BigRational`] (no gcd: it is reduced already).
    pub fn from_big_rational(q: &BigRational) -> Self {
        let d = (!q.denom().is_one()).then(|| Int::of_big(q.denom()));
        Exact::new(Int::of_big(q.numer()), 0, d)
    }

    /// Numerator times `2^shift` (shift ≥ 0).
    fn shifted(m: &Int, shift: i64) -> Int {
        m.shl(shift as u64)
    }

    /// [`Scalar::sum_of_products`] on `i128` when every factor's numerator is one word and
    /// every shifted product and partial sum fits (binary64 operands whose exponents are
    /// close: a rotation's entries from a quaternion); `None` otherwise, for the limb route.
    /// Terms must be without denominators and `e` the least live exponent.
    fn sum_of_word_products(terms: &[(i64, &Self, &Self)], e: i64) -> Option<i128> {
        let mut sum: i128 = 0;
        for &(c, a, b) in terms {
            let ((sa, ma), (sb, mb)) = (a.m.word()?, b.m.word()?);
            if c == 0 || ma == 0 || mb == 0 {
                continue;
            }
            let p = (ma as u128 * mb as u128).checked_mul(c.unsigned_abs() as u128)?;
            let shift = u32::try_from(a.e + b.e - e).ok()?;
            // Below 2¹²⁷ after the shift: a positive i128.
            if shift >= p.leading_zeros() {
                return None;
            }
            let t = (p << shift) as i128;
            sum = if sa ^ sb ^ (c < 0) { sum.checked_sub(t)? } else { sum.checked_add(t)? };
        }
        Some(sum)
    }

    /// `self + sign · other`.
    fn add_signed(&self, other: &Exact, negate: bool) -> Exact {
        if other.m.is_zero() {
            return self.clone();
        }
        if self.m.is_zero() {
            let om = if negate { other.m.clone().neg() } else { other.m.clone() };
            return Exact { m: om, e: other.e, d: other.d.clone() };
        }
        let e = self.e.min(other.e);
        let (a, b) = (Self::shifted(&self.m, self.e - e), Self::shifted(&other.m, other.e - e));
        let sum = |x: Int, y: Int| x.add_signed(&y, negate);
        match (&self.d, &other.d) {
            (None, None) => Exact::new(sum(a, b), e, None),
            (Some(d), None) => Exact::new(sum(a, b.mul(d)), e, Some(d.clone())),
            (None, Some(d)) => Exact::new(sum(a.mul(d), b), e, Some(d.clone())),
            (Some(x), Some(y)) if x == y => Exact::new(sum(a, b), e, Some(x.clone())),
            (Some(x), Some(y)) => Exact::new(sum(a.mul(y), b.mul(x)), e, Some(x.mul(y))),
        }
    }

    fn product(&self, other: &Exact) -> Exact {
        if self.m.is_zero() || other.m.is_zero() {
            return Exact::zero();
        }
        let d = match (&self.d, &other.d) {
            (None, None) => None,
            (Some(x), None) | (None, Some(x)) => Some(x.clone()),
            (Some(x), Some(y)) => Some(x.mul(y)),
        };
        Exact::new(self.m.mul(&other.m), self.e + other.e, d)
    }

    /// `self / other`; panics on a zero divisor, like the other exact backends (callers decide
    /// the divisor's sign first).
    fn quotient(&self, other: &Exact) -> Exact {
        assert!(!other.m.is_zero(), "division of an exact value by zero");
        if self.m.is_zero() {
            return Exact::zero();
        }
        // (a/d)/(b/d) = a/b: equal denominators (values built over one pose's |q|², say)
        // cancel without a product, and without the common factor the output's gcd would have
        // to find.
        let (mut num, mut den) = match (&self.d, &other.d) {
            (Some(x), Some(y)) if x == y => (self.m.clone(), other.m.clone()),
            (_, Some(d)) => (self.m.mul(d), self.d.as_ref().map_or_else(|| other.m.clone(), |x| x.mul(&other.m))),
            (Some(d), None) => (self.m.clone(), d.mul(&other.m)),
            (None, None) => (self.m.clone(), other.m.clone()),
        };
        if den.is_negative() {
            num = num.neg();
            den = den.neg();
        }
        Exact::new(num, self.e - other.e, Some(den))
    }

    /// The value as a double when it is one exactly: no denominator, an odd significand of at
    /// most 53 bits, and `m · 2^e` within the binary64 range (subnormals included).
    fn double_value(&self) -> Option<f64> {
        if self.m.is_zero() {
            return Some(0.0);
        }
        let fits = self.d.is_none() && self.m.bits() <= 53 && self.e >= -1074 && self.e + self.m.bits() as i64 <= 1024;
        fits.then(|| ldexp(self.m.to_i64().map_or(f64::NAN, |m| m as f64), self.e))
    }

    /// An approximation of `m / d` as an `f64` with a separate binary exponent: the top bits of
    /// each (for [`Scalar::to_f64`], which need not be correctly rounded on exact backends).
    fn approx(&self) -> f64 {
        self.approx_scaled(0)
    }

    /// The value times 2⁻ᵏ from the leading bits of m and d (within 4u when normal).
    fn approx_scaled(&self, k: i64) -> f64 {
        let (m, sm) = self.m.top();
        let (d, sd) = self.d.as_ref().map(Int::top).unwrap_or((1.0, 0));
        ldexp(m / d, self.e + sm - sd - k)
    }
}

/// `x · 2^k` without intermediate overflow or underflow (in steps that stay in range).
fn ldexp(mut x: f64, mut k: i64) -> f64 {
    while k > 1000 {
        x *= 2f64.powi(1000);
        k -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while k < -1000 {
        x *= 2f64.powi(-1000);
        k += 1000;
        if x == 0.0 {
            return x;
        }
    }
    x * 2f64.powi(k as i32)
}

impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        // m odd and d odd: the powers of two are in e alone (module docs).
        if self.e != other.e {
            return false;
        }
        match (&self.d, &other.d) {
            (None, None) => self.m == other.m,
            (Some(x), None) => self.m == other.m.mul(x),
            (None, Some(y)) => self.m.mul(y) == other.m,
            (Some(x), Some(y)) => self.m.mul(y) == other.m.mul(x),
        }
    }
}

impl fmt::Debug for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Exact({})", self.to_big_rational())
    }
}

impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_big_rational())
    }
}

impl Zero for Exact {
    fn zero() -> Self {
        Exact { m: Int::ZERO, e: 0, d: None }
    }
    fn is_zero(&self) -> bool {
        self.m.is_zero()
    }
}

impl One for Exact {
    fn one() -> Self {
        Exact { m: Int::from_i64(1), e: 0, d: None }
    }
}

impl Add for Exact {
    type Output = Exact;
    fn add(self, rhs: Exact) -> Exact {
        self.add_signed(&rhs, false)
    }
}

impl Sub for Exact {
    type Output = Exact;
    fn sub(self, rhs: Exact) -> Exact {
        self.add_signed(&rhs, true)
    }
}

impl Mul for Exact {
    type Output = Exact;
    fn mul(self, rhs: Exact) -> Exact {
        self.product(&rhs)
    }
}

impl Div for Exact {
    type Output = Exact;
    fn div(self, rhs: Exact) -> Exact {
        self.quotient(&rhs)
    }
}

impl Neg for Exact {
    type Output = Exact;
    fn neg(self) -> Exact {
        Exact { m: self.m.neg(), e: self.e, d: self.d }
    }
}

macro_rules! assign {
    ($tr:ident, $f:ident, $op:ident) => {
        impl $tr for Exact {
            fn $f(&mut self, rhs: Exact) {
                *self = self.$op(&rhs);
            }
        }
    };
}

impl Exact {
    fn plus(&self, rhs: &Exact) -> Exact {
        self.add_signed(rhs, false)
    }
    fn minus(&self, rhs: &Exact) -> Exact {
        self.add_signed(rhs, true)
    }
}

assign!(AddAssign, add_assign, plus);
assign!(SubAssign, sub_assign, minus);
assign!(MulAssign, mul_assign, product);
assign!(DivAssign, div_assign, quotient);

impl crate::scalar::Certain for Exact {}
impl crate::scalar::ExactValues for Exact {}

impl Scalar for Exact {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    /// Terms without denominators (dyadic values: binary64 inputs, their products and sums)
    /// as integers: cᵢ·mₐ·m_b shifted to the least exponent among the terms and added, then
    /// one normalisation. A term with a denominator sends the whole sum the generic way.
    fn dot3(a: [&Self; 3], b: [&Self; 3]) -> Self {
        Self::sum_of_products(&[(1, a[0], b[0]), (1, a[1], b[1]), (1, a[2], b[2])])
    }
    fn sum_of_products(terms: &[(i64, &Self, &Self)]) -> Self {
        if terms.iter().any(|(_, a, b)| a.d.is_some() || b.d.is_some()) {
            return terms.iter().fold(Exact::zero(), |acc, &(c, a, b)| acc + Exact::from_i64(c).product(&a.product(b)));
        }
        let live = |&&(c, a, b): &&(i64, &Exact, &Exact)| c != 0 && !a.m.is_zero() && !b.m.is_zero();
        let Some(e) = terms.iter().filter(live).map(|(_, a, b)| a.e + b.e).min() else { return Exact::zero() };
        if let Some(sum) = Exact::sum_of_word_products(terms, e) {
            return Exact::new(Int::from_i128(sum), e, None);
        }
        let mut sum = Int::ZERO;
        for &(c, a, b) in terms.iter().filter(live) {
            let mut p = a.m.mul(&b.m);
            match c {
                1 => {}
                -1 => p = p.neg(),
                c => p = p.mul(&Int::from_i64(c)),
            }
            sum = sum.add_signed(&p.shl((a.e + b.e - e) as u64), false);
        }
        Exact::new(sum, e, None)
    }

    /// The values times the least common multiple L* of their odd denominators in lowest
    /// terms, as `BigRational`'s (the same values on both). `Exact` does not reduce: with L the
    /// lcm of the denominators as held (one gcd per distinct one), nᵢ = mᵢ·(L/dᵢ) (exact
    /// divisions) is an integer multiple, and g = gcd(L, n₁, …) is L/L* (L/g makes every value
    /// an integer, so L* divides it; and L/L* divides L and every nᵢ, so it divides g).
    fn integral_multiple<const N: usize>(values: [&Self; N]) -> Option<[Self; N]> {
        let mut l: Option<Int> = None;
        for d in values.iter().filter_map(|v| v.d.as_ref()) {
            l = Some(match l {
                None => d.clone(),
                Some(l) if l == *d => l,
                Some(l) => {
                    let g = l.gcd(d);
                    l.mul(&d.div_exact(&g))
                }
            });
        }
        let l = l?;
        let n = values.map(|v| v.d.as_ref().map_or_else(|| v.m.mul(&l), |d| v.m.mul(&l.div_exact(d))));
        let mut g = l;
        for m in n.iter().filter(|m| !m.is_zero()) {
            if g.is_one() {
                break;
            }
            g = g.gcd(m);
        }
        let mut i = 0;
        Some(values.map(|v| {
            let m = if g.is_one() { n[i].clone() } else { n[i].div_exact(&g) };
            i += 1;
            Exact::new(m, v.e, None)
        }))
    }

    const EXACT_VALUES: bool = true;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "Exact";
    const UNIT_ROUNDOFF: f64 = 0.0;

    fn as_double(&self) -> Option<f64> {
        self.double_value()
    }

    fn from_i64(v: i64) -> Self {
        super::rational::made_one();
        Exact::new(Int::from_i64(v), 0, None)
    }
    /// The binary64 value exactly: its integer significand and exponent, no big number made
    /// beyond the significand.
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        if !v.is_finite() {
            return Err(NumberError::NotFinite(v.to_string()));
        }
        super::rational::made_one();
        let bits = v.to_bits();
        let negative = bits >> 63 == 1;
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1u64 << 52) - 1);
        let (significand, e) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
        Ok(Exact::new(Int::from_u64(negative, significand), e, None))
    }
    fn from_rational(q: &BigRational) -> Self {
        super::rational::made_one();
        Exact::from_big_rational(q)
    }
    /// A value that is a double converts as one (no big number for an inexact backend);
    /// otherwise through the reduced rational (exact, or correctly rounded).
    fn to_backend<T: Scalar>(&self) -> T {
        if let Some(x) = self.double_value() {
            if let Ok(t) = T::from_f64(x) {
                return t;
            }
        }
        T::from_rational(&self.to_big_rational())
    }
    /// An approximation (within a few units in the last place; exact backends are not asked
    /// for a correctly rounded `f64` by the algorithms, and outputs go through
    /// [`Exact::to_big_rational`]).
    fn to_f64(&self) -> f64 {
        self.double_value().unwrap_or_else(|| self.approx())
    }
    fn binary_exponent(&self) -> Option<i64> {
        // m·2^e/d with 2^(bm−1) ≤ |m| < 2^bm and 2^(bd−1) ≤ d < 2^bd (d = 1 when absent).
        (!self.m.is_zero()).then(|| self.m.bits() as i64 + self.e - self.d.as_ref().map_or(1, |d| d.bits() as i64))
    }
    fn to_f64_scaled(&self, k: i64) -> f64 {
        self.approx_scaled(k)
    }
    fn to_rational(&self) -> Option<BigRational> {
        Some(self.to_big_rational())
    }
    fn image(&self) -> Decision<f64> {
        let d = self.d.as_ref().map_or_else(BigInt::one, Int::to_big);
        Ok(super::image::image_of_signed(&self.m.to_big(), &d, self.e))
    }
    fn abs(&self) -> Self {
        Exact { m: self.m.abs(), e: self.e, d: self.d.clone() }
    }
    fn sign(&self) -> Decision<Sign> {
        Ok(if self.m.is_zero() {
            Sign::Zero
        } else if self.m.is_negative() {
            Sign::Negative
        } else {
            Sign::Positive
        })
    }
    fn compare(&self, other: &Self) -> Decision<Ordering> {
        Ok(self.minus(other).sign()?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::ratio;
    use num_integer::Integer;

    fn q(p: i64, d: i64) -> BigRational {
        BigRational::new(p.into(), d.into())
    }

    #[test]
    fn values_round_trip_and_stay_canonical() {
        for x in [q(0, 1), q(1, 1), q(-3, 7), q(6, 8), q(1, 1 << 40), q(5, 12), q(-1024, 3)] {
            let e = Exact::from_big_rational(&x);
            assert_eq!(e.to_big_rational(), x);
            assert!(e.m.is_zero() || e.m.to_big().is_odd(), "{x}: m = {:?}", e.m);
            assert!(e.d.as_ref().is_none_or(|d| d.to_big().is_odd() && !d.is_one()), "{x}");
        }
        for v in [0.1, -5e-324, 1e300, 3.0, -0.0, 2.5e-310, f64::MAX, f64::MIN_POSITIVE] {
            let e = Exact::from_f64(v).unwrap();
            assert_eq!(e.to_big_rational(), BigRational::from_float(v).unwrap(), "{v}");
            assert_eq!(e.to_f64(), v, "{v}");
            assert_eq!(e.d, None);
        }
    }

    /// The `i128` route of `sum_of_products` and its limits: one-word numerators at the top of
    /// the word, exponents far apart (a shift past the word), coefficients up to `i64::MIN`,
    /// sums that cancel and sums that would overflow `i128`. Each is the reference's value,
    /// whichever route took it.
    #[test]
    fn sums_of_word_products_match_the_reference() {
        let word = |m: u64, e: i64, negative: bool| Exact::new(Int::from_u64(negative, m), e, None);
        let values = [
            word(u64::MAX, 0, false),
            word(u64::MAX, 3, true),
            word((1 << 53) - 1, -60, false),
            word(1, 0, true),
            word(3, 64, false),
            word(5, -1074, true),
            word(u64::MAX - 2, 70, false),
            word(0, 0, false),
        ];
        let big = |x: &Exact| x.to_big_rational();
        let coefficients = [1, -1, 2, -2, 7, i64::MAX, i64::MIN];
        let mut terms_seen = 0;
        for (i, a) in values.iter().enumerate() {
            for b in &values[i..] {
                for &c in &coefficients {
                    for (d, e) in [(&values[0], &values[1]), (a, b), (&values[4], &values[2]), (&values[6], &values[6])]
                    {
                        let terms = [(c, a, b), (1, d, e), (-1, a, a)];
                        let want = terms.iter().fold(BigRational::zero(), |acc, &(c, x, y)| {
                            acc + BigRational::from_integer(c.into()) * big(x) * big(y)
                        });
                        let got = Exact::sum_of_products(&terms);
                        assert_eq!(got.to_big_rational(), want, "{terms:?}");
                        terms_seen += 1;
                    }
                }
            }
        }
        assert_eq!(terms_seen, 36 * 7 * 4);
        // The route itself: near words in, the value out, without the limbs; beyond, refused.
        let (p, q) = (word((1 << 63) - 1, 0, false), word((1 << 63) - 1, 0, true));
        assert_eq!(Exact::sum_of_word_products(&[(1, &p, &p), (1, &p, &q)], 0), Some(0));
        assert_eq!(Exact::sum_of_word_products(&[(1, &p, &p)], 0), Some(((1i128 << 63) - 1).pow(2)));
        let top = word(u64::MAX, 0, false);
        assert_eq!(Exact::sum_of_word_products(&[(1, &top, &top)], 0), None, "2¹²⁸ − 2⁶⁵ + 1 is not an i128");
        assert_eq!(Exact::sum_of_word_products(&[(2, &p, &p), (2, &p, &p)], 0), None, "a sum past 2¹²⁷");
        let far = word(1, 200, false);
        assert_eq!(Exact::sum_of_word_products(&[(1, &p, &p), (1, &far, &far)], 0), None, "a shift of 400");
    }

    #[test]
    fn arithmetic_matches_the_reference() {
        let xs = [q(1, 3), q(-7, 5), q(1, 10), q(3, 1 << 20), q(0, 1), q(12, 1), q(-1, 6)];
        for a in &xs {
            for b in &xs {
                let (ea, eb) = (Exact::from_big_rational(a), Exact::from_big_rational(b));
                assert_eq!((ea.clone() + eb.clone()).to_big_rational(), a + b);
                assert_eq!((ea.clone() - eb.clone()).to_big_rational(), a - b);
                assert_eq!((ea.clone() * eb.clone()).to_big_rational(), a * b);
                if !b.is_zero() {
                    assert_eq!((ea.clone() / eb.clone()).to_big_rational(), a / b);
                }
                assert_eq!(ea == eb, a == b, "{a} == {b}");
                assert_eq!(ea.compare(&eb), Ok(a.cmp(b)));
            }
        }
        assert_eq!(ratio::<Exact>(1, 3) * Exact::from_i64(3), Exact::one());
    }

    #[test]
    fn large_fractions_are_reduced_past_the_threshold() {
        // (1/3)^k / (1/3)^k: the denominators multiply until reduced.
        let third = ratio::<Exact>(1, 3);
        let mut x = Exact::one();
        for _ in 0..3000 {
            x *= third.clone();
        }
        let mut y = x.clone();
        for _ in 0..3000 {
            y /= third.clone();
        }
        assert_eq!(y, Exact::one());
        assert!(x.m.bits() + x.d.as_ref().map_or(0, |d| d.bits()) <= REDUCE_BITS + 2 * 1600);
    }
}
