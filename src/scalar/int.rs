//! Signed integers on the stack while they fit, on the heap beyond: the numerators and
//! denominators of [`Exact`](super::Exact).
//!
//! An exact construction from binary64 inputs (a vertex posed under a binary64 quaternion: a
//! numerator of a few hundred bits over `|q|²`) makes integers of a few limbs, and `num-bigint`
//! gives each of them a heap block: the allocation, the copy and the free were most of such a
//! value's cost. [`Int`] keeps up to [`CAP`] 64-bit limbs inline (sign and magnitude, only the
//! limbs in use touched) and falls back to [`BigInt`] for larger values, exactly: an operation
//! whose result would not fit computes it on the heap type. Every value has one representation
//! (inline exactly when it fits), so equality is structural.
//!
//! No fixed-width crate fits this: `bnum` and `ruint` compute over their whole width on every
//! operation (a 512-bit type multiplies 8 × 8 limbs for two 60-bit values) and overflow
//! instead of growing, `crypto-bigint` is constant-time by design, and `num-bigint`, `ibig` and
//! `dashu` keep at most two words inline. The limb loops here are the schoolbook ones.
//!
//! ```
//! use num_bigint::BigInt;
//! use touchstone::scalar::Exact;
//! use touchstone::scalar::Scalar;
//! // A product of two 53-bit significands stays inline; 2³⁰⁰ does not, and is exact either way.
//! let x = Exact::from_f64(0.1).unwrap() * Exact::from_f64(0.3).unwrap();
//! let big = Exact::from_i64(1 << 60) * Exact::from_i64(1 << 60) * Exact::from_i64(1 << 60);
//! assert_eq!(big.to_big_rational().numer(), &(BigInt::from(1) << 180));
//! assert!((x.to_f64() - 0.03).abs() < 1e-17);
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;

use num_bigint::{BigInt, Sign as BigSign};
use num_traits::{Signed, ToPrimitive, Zero};

use super::nat;

/// Limbs kept inline: 384 bits, a product of two posed coordinates (see the module docs).
pub const CAP: usize = 6;

/// A signed integer, inline while its magnitude fits [`CAP`] limbs.
#[derive(Clone, Debug)]
pub(crate) enum Int {
    /// Sign and magnitude, the magnitude in `limbs[..len]` (little endian, no leading zero
    /// limb, and every limb from `len` on zero); zero is `len = 0` with `negative = false`.
    Small { negative: bool, len: u8, limbs: [u64; CAP] },
    /// A value whose magnitude needs more than [`CAP`] limbs (never a smaller one).
    Big(BigInt),
}

impl PartialEq for Int {
    fn eq(&self, other: &Int) -> bool {
        match (self, other) {
            (Int::Small { negative: a, len: la, limbs: x }, Int::Small { negative: b, len: lb, limbs: y }) => {
                a == b && la == lb && x[..*la as usize] == y[..*lb as usize]
            }
            (Int::Big(x), Int::Big(y)) => x == y,
            _ => false,
        }
    }
}

/// The magnitude's limbs with leading zeros dropped.
fn trimmed(limbs: &[u64]) -> &[u64] {
    &limbs[..nat::trimmed_len(limbs)]
}

impl Int {
    /// Zero.
    pub(crate) const ZERO: Int = Int::Small { negative: false, len: 0, limbs: [0; CAP] };

    /// The integer of sign `negative` and magnitude `limbs` (little endian, any length).
    pub(crate) fn from_limbs(negative: bool, limbs: &[u64]) -> Int {
        let m = trimmed(limbs);
        if m.len() <= CAP {
            let mut l = [0u64; CAP];
            l[..m.len()].copy_from_slice(m);
            Int::Small { negative: negative && !m.is_empty(), len: m.len() as u8, limbs: l }
        } else {
            let mag = nat::to_big(m);
            Int::Big(BigInt::from_biguint(if negative { BigSign::Minus } else { BigSign::Plus }, mag))
        }
    }

    /// A [`BigInt`], inline when it fits.
    pub(crate) fn from_big(b: BigInt) -> Int {
        Int::inline_of(&b).unwrap_or(Int::Big(b))
    }

    /// The value of a borrowed [`BigInt`] (no copy of the heap value when it fits inline).
    pub(crate) fn of_big(b: &BigInt) -> Int {
        Int::inline_of(b).unwrap_or_else(|| Int::Big(b.clone()))
    }

    /// The inline value of `b` when it fits: its limbs read straight into the array (a
    /// `BigUint`'s digits have no leading zero).
    fn inline_of(b: &BigInt) -> Option<Int> {
        if b.bits() > 64 * CAP as u64 {
            return None;
        }
        let mut limbs = [0u64; CAP];
        let mut len = 0u8;
        for (l, d) in limbs.iter_mut().zip(b.magnitude().iter_u64_digits()) {
            *l = d;
            len += 1;
        }
        Some(Int::Small { negative: b.sign() == BigSign::Minus && len > 0, len, limbs })
    }

    /// `v`.
    pub(crate) fn from_i64(v: i64) -> Int {
        Int::from_limbs(v < 0, &[v.unsigned_abs()])
    }

    /// `v` with sign `negative`.
    pub(crate) fn from_u64(negative: bool, v: u64) -> Int {
        Int::from_limbs(negative, &[v])
    }

    /// The value as a [`BigInt`] (a heap block for an inline value).
    pub(crate) fn to_big(&self) -> BigInt {
        match self {
            Int::Small { negative, len, limbs } => {
                let mag = nat::to_big(&limbs[..*len as usize]);
                BigInt::from_biguint(if *negative { BigSign::Minus } else { BigSign::Plus }, mag)
            }
            Int::Big(b) => b.clone(),
        }
    }

    /// Whether the value is zero.
    #[inline]
    pub(crate) fn is_zero(&self) -> bool {
        matches!(self, Int::Small { len: 0, .. })
    }

    /// Whether the value is one.
    pub(crate) fn is_one(&self) -> bool {
        matches!(self, Int::Small { negative: false, len: 1, limbs } if limbs[0] == 1)
    }

    /// Whether the value is below zero.
    #[inline]
    pub(crate) fn is_negative(&self) -> bool {
        match self {
            Int::Small { negative, .. } => *negative,
            Int::Big(b) => b.sign() == BigSign::Minus,
        }
    }

    /// −self.
    pub(crate) fn neg(mut self) -> Int {
        match &mut self {
            Int::Small { negative, len, .. } => *negative = !*negative && *len > 0,
            Int::Big(b) => *b = -std::mem::take(b),
        }
        self
    }

    /// |self|.
    pub(crate) fn abs(&self) -> Int {
        match self {
            Int::Small { len, limbs, .. } => Int::Small { negative: false, len: *len, limbs: *limbs },
            Int::Big(b) => Int::Big(b.abs()),
        }
    }

    /// The number of bits of the magnitude (0 for zero).
    pub(crate) fn bits(&self) -> u64 {
        match self {
            Int::Small { len: 0, .. } => 0,
            Int::Small { len, limbs, .. } => {
                let top = limbs[*len as usize - 1];
                64 * (*len as u64 - 1) + (64 - top.leading_zeros() as u64)
            }
            Int::Big(b) => b.bits(),
        }
    }

    /// The number of trailing zero bits of a nonzero value (`None` for zero).
    pub(crate) fn trailing_zeros(&self) -> Option<u64> {
        match self {
            Int::Small { len, limbs, .. } => {
                let i = limbs[..*len as usize].iter().position(|&l| l != 0)?;
                Some(64 * i as u64 + limbs[i].trailing_zeros() as u64)
            }
            Int::Big(b) => b.trailing_zeros(),
        }
    }

    /// `self · 2^k`.
    #[inline]
    pub(crate) fn shl(&self, k: u64) -> Int {
        if k == 0 {
            return self.clone();
        }
        match self {
            Int::Small { len: 0, .. } => Int::ZERO,
            Int::Small { negative, len, limbs } if self.bits() + k <= 64 * CAP as u64 => {
                let (words, bits) = ((k / 64) as usize, (k % 64) as u32);
                let n = *len as usize;
                let mut out = [0u64; CAP];
                if bits == 0 {
                    out[words..words + n].copy_from_slice(&limbs[..n]);
                } else {
                    for i in 0..n {
                        out[i + words] |= limbs[i] << bits;
                        if i + words + 1 < CAP {
                            out[i + words + 1] = limbs[i] >> (64 - bits);
                        }
                    }
                }
                // The top limb is nonzero: the bit count says where it is.
                let top = ((self.bits() + k - 1) / 64 + 1) as u8;
                Int::Small { negative: *negative, len: top, limbs: out }
            }
            _ => Int::from_big(self.to_big() << k),
        }
    }

    /// `self / 2^k` for a `k` at most the trailing zeros (an exact shift).
    #[inline]
    pub(crate) fn shr_exact(&self, k: u64) -> Int {
        if k == 0 {
            return self.clone();
        }
        match self {
            Int::Small { negative, len, limbs } => {
                let (words, bits) = ((k / 64) as usize, (k % 64) as u32);
                let n = *len as usize;
                if words >= n {
                    return Int::ZERO;
                }
                let mut out = [0u64; CAP];
                if bits == 0 {
                    out[..n - words].copy_from_slice(&limbs[words..n]);
                } else {
                    for i in words..n {
                        let hi = if i + 1 < n { limbs[i + 1] << (64 - bits) } else { 0 };
                        out[i - words] = (limbs[i] >> bits) | hi;
                    }
                }
                let mut m = n - words;
                while m > 0 && out[m - 1] == 0 {
                    m -= 1;
                }
                Int::Small { negative: *negative && m > 0, len: m as u8, limbs: out }
            }
            Int::Big(b) => Int::from_big(b >> k),
        }
    }

    /// `self + other` (or `self − other` with `negate`).
    #[inline]
    pub(crate) fn add_signed(&self, other: &Int, negate: bool) -> Int {
        match (self, other) {
            (Int::Small { negative: sa, len: la, limbs: x }, Int::Small { negative: sb, len: lb, limbs: y }) => {
                let (la, lb) = (*la as usize, *lb as usize);
                if lb == 0 {
                    return self.clone();
                }
                let sb = *sb != negate;
                if la == 0 {
                    return Int::Small { negative: sb, len: lb as u8, limbs: *y };
                }
                if *sa == sb {
                    // |x| + |y|: limbs beyond each length are zero (an invariant), so the
                    // carry chain runs over the longer one.
                    let n = la.max(lb);
                    let mut out = [0u64; CAP];
                    let mut carry = false;
                    for i in 0..n {
                        let (s1, c1) = x[i].overflowing_add(y[i]);
                        let (s2, c2) = s1.overflowing_add(u64::from(carry));
                        out[i] = s2;
                        carry = c1 || c2;
                    }
                    if !carry {
                        return Int::Small { negative: *sa, len: n as u8, limbs: out };
                    }
                    if n < CAP {
                        out[n] = 1;
                        return Int::Small { negative: *sa, len: n as u8 + 1, limbs: out };
                    }
                    let mut wide = [0u64; CAP + 1];
                    wide[..CAP].copy_from_slice(&out);
                    wide[CAP] = 1;
                    return Int::from_limbs(*sa, &wide);
                }
                let (big, small, negative) = match nat::cmp(&x[..la], &y[..lb]) {
                    Ordering::Equal => return Int::ZERO,
                    Ordering::Greater => (x, y, *sa),
                    Ordering::Less => (y, x, sb),
                };
                let n = la.max(lb);
                let mut out = [0u64; CAP];
                let mut borrow = false;
                for i in 0..n {
                    let (d1, b1) = big[i].overflowing_sub(small[i]);
                    let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
                    out[i] = d2;
                    borrow = b1 || b2;
                }
                let mut m = n;
                while m > 0 && out[m - 1] == 0 {
                    m -= 1;
                }
                Int::Small { negative, len: m as u8, limbs: out }
            }
            _ => {
                let (a, b) = (self.to_big(), other.to_big());
                Int::from_big(if negate { a - b } else { a + b })
            }
        }
    }

    /// `self · other`.
    #[inline]
    pub(crate) fn mul(&self, other: &Int) -> Int {
        match (self, other) {
            (Int::Small { negative: sa, len: la, limbs: x }, Int::Small { negative: sb, len: lb, limbs: y })
                if (*la as usize) + (*lb as usize) <= CAP + 1 =>
            {
                let (la, lb) = (*la as usize, *lb as usize);
                if la == 0 || lb == 0 {
                    return Int::ZERO;
                }
                if la == 1 && lb == 1 {
                    let t = u128::from(x[0]) * u128::from(y[0]);
                    let mut out = [0u64; CAP];
                    out[0] = t as u64;
                    out[1] = (t >> 64) as u64;
                    let len = if out[1] == 0 { 1 } else { 2 };
                    return Int::Small { negative: sa != sb, len, limbs: out };
                }
                let mut out = [0u64; CAP + 1];
                for i in 0..la {
                    let a = u128::from(x[i]);
                    let mut carry = 0u128;
                    for j in 0..lb {
                        let t = a * u128::from(y[j]) + u128::from(out[i + j]) + carry;
                        out[i + j] = t as u64;
                        carry = t >> 64;
                    }
                    out[i + lb] = carry as u64;
                }
                let n = if out[la + lb - 1] == 0 { la + lb - 1 } else { la + lb };
                if n <= CAP {
                    let mut limbs = [0u64; CAP];
                    limbs[..n].copy_from_slice(&out[..n]);
                    Int::Small { negative: sa != sb, len: n as u8, limbs }
                } else {
                    Int::from_limbs(sa != sb, &out[..n])
                }
            }
            _ => Int::from_big(self.to_big() * other.to_big()),
        }
    }

    /// gcd(|self|, |other|) (Lehmer's, [`super::gcd::gcd_limbs`]).
    pub(crate) fn gcd(&self, other: &Int) -> Int {
        Int::from_limbs(false, &super::gcd::gcd_limbs(&self.mag_limbs(), &other.mag_limbs()))
    }

    /// `self / other` for a divisor that divides exactly (a common factor), by Hensel
    /// division ([`super::nat::div_exact`]).
    pub(crate) fn div_exact(&self, other: &Int) -> Int {
        let q = super::nat::div_exact(&self.mag_limbs(), &other.mag_limbs());
        Int::from_limbs(self.is_negative() != other.is_negative(), &q)
    }

    /// The magnitude's trimmed little-endian limbs (borrowed when inline).
    pub(crate) fn mag_limbs(&self) -> Cow<'_, [u64]> {
        match self {
            Int::Small { len, limbs, .. } => Cow::Borrowed(&limbs[..*len as usize]),
            Int::Big(b) => Cow::Owned(b.magnitude().iter_u64_digits().collect()),
        }
    }

    /// The leading bits as a double and how far they were shifted: `self ≈ x · 2^shift`.
    pub(crate) fn top(&self) -> (f64, i64) {
        let shift = self.bits().saturating_sub(64);
        let x = match self {
            Int::Small { .. } if shift == 0 => {
                let v = self.low_u64() as f64;
                if self.is_negative() {
                    -v
                } else {
                    v
                }
            }
            _ => (self.to_big() >> shift).to_f64().unwrap_or(0.0),
        };
        (x, shift as i64)
    }

    /// The low limb of the magnitude.
    fn low_u64(&self) -> u64 {
        match self {
            Int::Small { len: 0, .. } => 0,
            Int::Small { limbs, .. } => limbs[0],
            Int::Big(b) => b.magnitude().iter_u64_digits().next().unwrap_or(0),
        }
    }

    /// Sign and magnitude when the magnitude fits one limb (zero included).
    #[inline]
    pub(crate) fn word(&self) -> Option<(bool, u64)> {
        match self {
            Int::Small { len: 0, .. } => Some((false, 0)),
            Int::Small { negative, len: 1, limbs } => Some((*negative, limbs[0])),
            _ => None,
        }
    }

    /// `v`.
    pub(crate) fn from_i128(v: i128) -> Int {
        let m = v.unsigned_abs();
        Int::from_limbs(v < 0, &[m as u64, (m >> 64) as u64])
    }

    /// The value as an `i64` when it is one.
    pub(crate) fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small { len: 0, .. } => Some(0),
            Int::Small { negative, len: 1, limbs } => {
                let m = limbs[0];
                if *negative {
                    (m <= 1u64 << 63).then(|| (m as i64).wrapping_neg())
                } else {
                    i64::try_from(m).ok()
                }
            }
            _ => None,
        }
    }
}

/// `a / b` for a nonzero `b` that divides `a` exactly (a Bareiss pivot, a content), by Hensel
/// division on 64-bit limbs ([`super::nat::div_exact`]): `num-bigint`'s `/` runs Algorithm D
/// on 32-bit digits with a normalising shift of both numbers.
pub(crate) fn div_exact_big(a: &BigInt, b: &BigInt) -> BigInt {
    if a.is_zero() {
        return BigInt::zero();
    }
    let q = super::nat::div_exact(&super::nat::of_big(a.magnitude()), &super::nat::of_big(b.magnitude()));
    let sign =
        if (a.sign() == BigSign::Minus) != (b.sign() == BigSign::Minus) { BigSign::Minus } else { BigSign::Plus };
    BigInt::from_biguint(sign, super::nat::to_big(&q))
}

impl Zero for Int {
    fn zero() -> Int {
        Int::ZERO
    }
    fn is_zero(&self) -> bool {
        Int::is_zero(self)
    }
}

impl std::ops::Add for Int {
    type Output = Int;
    fn add(self, o: Int) -> Int {
        self.add_signed(&o, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values around the inline boundary: small, one limb, full limbs, 2^(64·CAP) ± 1, larger.
    fn values() -> Vec<BigInt> {
        let mut v: Vec<BigInt> =
            vec![0.into(), 1.into(), (-1).into(), 3.into(), u64::MAX.into(), BigInt::from(1) << 64];
        for k in [63u32, 64, 127, 191, 250, 320, 383, 384, 385, 448, 700] {
            let p = BigInt::from(1) << k;
            let one = BigInt::from(1);
            v.extend([&p - &one, p.clone(), &p + &one, -(&p - &one), -p.clone()]);
            // A dense value: all ones below 2^k, and an odd pattern.
            v.push(BigInt::parse_bytes(b"9e3779b97f4a7c15f39cc0605cedc834", 16).unwrap() % &p + &p / 3);
        }
        v
    }

    /// Every operation agrees with `BigInt`'s, and results are inline exactly when they fit.
    #[test]
    fn arithmetic_matches_bigint() {
        let vs = values();
        let canonical = |i: &Int| match i {
            Int::Small { len, limbs, .. } => *len as usize <= CAP && (*len == 0 || limbs[*len as usize - 1] != 0),
            Int::Big(b) => b.bits() > 64 * CAP as u64,
        };
        for a in &vs {
            let ia = Int::from_big(a.clone());
            assert!(canonical(&ia), "{a}");
            assert_eq!(ia.to_big(), *a);
            assert_eq!(ia.bits(), a.bits());
            assert_eq!(ia.trailing_zeros(), a.trailing_zeros());
            assert_eq!(ia.is_negative(), a.sign() == BigSign::Minus);
            assert_eq!(ia.clone().neg().to_big(), -a.clone());
            assert_eq!(ia.abs().to_big(), a.abs());
            assert_eq!(ia.to_i64(), a.to_i64());
            for k in [0u64, 1, 13, 63, 64, 65, 130, 300] {
                assert_eq!(ia.shl(k).to_big(), a.clone() << k, "{a} << {k}");
                let back = ia.shl(k).shr_exact(k);
                assert_eq!(back, ia, "{a} << {k} >> {k}");
            }
            if let Some(tz) = a.trailing_zeros() {
                assert_eq!(ia.shr_exact(tz).to_big(), a.clone() >> tz);
            }
            let (x, s) = ia.top();
            let approx = a.to_f64().unwrap_or(f64::INFINITY);
            if approx.is_finite() && approx != 0.0 {
                assert!(((x * 2f64.powi(s as i32)) / approx - 1.0).abs() < 1e-15, "{a}");
            }
            for b in &vs {
                let ib = Int::from_big(b.clone());
                let sum = ia.add_signed(&ib, false);
                let diff = ia.add_signed(&ib, true);
                let prod = ia.mul(&ib);
                assert_eq!(sum.to_big(), a + b, "{a} + {b}");
                assert_eq!(diff.to_big(), a - b, "{a} - {b}");
                assert_eq!(prod.to_big(), a * b, "{a} * {b}");
                assert!(canonical(&sum) && canonical(&diff) && canonical(&prod), "{a} {b}");
                assert_eq!(ia == ib, a == b);
                if !b.is_zero() && (a * b).bits() < 2000 {
                    assert_eq!(Int::from_big(a * b).div_exact(&ib).to_big(), a.clone(), "({a}·{b}) / {b}");
                }
            }
        }
    }
}
