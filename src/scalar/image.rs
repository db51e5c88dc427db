//! Binary64 *images* of values for heuristic choices that every backend must make alike.
//!
//! Some choices inside the algorithms are heuristics among correct alternatives: which of an
//! edge's two line planes bounds a face piece (the more transverse one), where a regular cut of
//! the Brep-index goes (near the median vertex along the widest axis), which axis to project
//! along. Any alternative gives a correct answer, but the choice shapes the answer's cost
//! fields (the index's nodes, the plane evaluations of a classification), which the format
//! promises are the same on every exact path. Made from [`Scalar::to_f64`] they were not:
//! that is the nearest double on one exact backend and an approximation within a few units in
//! the last place on another, so two exact runs could choose differently (an L prism under a
//! near-singular matrix pose classified with 11 plane evaluations on `exact` and 15 on
//! `exact-unfiltered`).
//!
//! An image is the exact value truncated toward zero to [`IMAGE_BITS`] significant bits, `0`
//! below 2⁻¹⁰⁰⁰ in magnitude and ±2¹⁰⁰⁰ from there up: a function of the value alone, computed
//! exactly by every exact backend and by `f64` from its own value. It is monotone, so an
//! interval whose two ends have the same image has that image whatever its exact value is;
//! otherwise [`Scalar::image`] is [`Uncertain::Close`] and the filtered path reruns exactly.
//! Thirteen bits below binary64's precision, a tight interval straddles an image's boundary
//! rarely (about once in 2¹² for an interval a few units wide).
//!
//! [`Scalar::to_f64`]: super::Scalar::to_f64
//! [`Scalar::image`]: super::Scalar::image
//! [`Uncertain::Close`]: super::Uncertain::Close

use num_bigint::{BigInt, BigUint, Sign as BigSign};
use num_rational::BigRational;
use num_traits::Zero;

/// The significant bits an image keeps.
pub const IMAGE_BITS: u32 = 40;
/// Images below 2^`MIN_EXPONENT` in magnitude are 0.
const MIN_EXPONENT: i64 = -1000;
/// Images from 2^`MAX_EXPONENT` up in magnitude are ±2^`MAX_EXPONENT`.
const MAX_EXPONENT: i64 = 1000;

/// 2^`p` for `p` in −1074..=1023, exactly.
fn pow2(p: i64) -> f64 {
    if p >= -1022 {
        f64::from_bits(((p + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (p + 1074))
    }
}

fn clamped(negative: bool, magnitude: f64) -> f64 {
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// The image of a double (a finite one; infinities give ±2¹⁰⁰⁰, a NaN 0).
pub fn image_of_f64(x: f64) -> f64 {
    let a = x.abs();
    // (A NaN is below nothing and above nothing: 0 too.)
    if a.is_nan() || a < pow2(MIN_EXPONENT) {
        return 0.0;
    }
    if a >= pow2(MAX_EXPONENT) {
        return clamped(x < 0.0, pow2(MAX_EXPONENT));
    }
    // A normal double: keep the leading bit and IMAGE_BITS − 1 bits of the 52-bit fraction.
    let drop = 52 - (IMAGE_BITS - 1);
    f64::from_bits(x.to_bits() & !((1u64 << drop) - 1))
}

/// The image of ±n/d · 2^e (n, d positive integers; n may be zero).
pub fn image_of_ratio(negative: bool, n: &BigUint, d: &BigUint, e: i64) -> f64 {
    if n.is_zero() {
        return 0.0;
    }
    let (bn, bd) = (n.bits() as i64, d.bits() as i64);
    // 2^(bn − bd − 1 + e) < v < 2^(bn − bd + 1 + e).
    if bn - bd + 1 + e <= MIN_EXPONENT {
        return 0.0;
    }
    if bn - bd - 1 + e >= MAX_EXPONENT {
        return clamped(negative, pow2(MAX_EXPONENT));
    }
    // q = ⌊n · 2^k / d⌋ lies in [2^(IMAGE_BITS), 2^(IMAGE_BITS + 2)); halving a floor is the
    // floor of the half, so q ends in [2^(IMAGE_BITS − 1), 2^IMAGE_BITS) truncated exactly.
    let mut k = i64::from(IMAGE_BITS) + 1 - (bn - bd);
    let mut q = if k >= 0 { (n << k as u64) / d } else { n / (d << (-k) as u64) };
    while q.bits() > u64::from(IMAGE_BITS) {
        q >>= 1u32;
        k -= 1;
    }
    let q = q.iter_u64_digits().next().unwrap_or(0) as f64;
    // v's image is q · 2^(e − k), with q in [2^39, 2^40).
    let p = e - k;
    if p + i64::from(IMAGE_BITS) <= MIN_EXPONENT {
        return 0.0;
    }
    if p + i64::from(IMAGE_BITS) > MAX_EXPONENT {
        return clamped(negative, pow2(MAX_EXPONENT));
    }
    // p ≥ −1000 − 40 ≥ −1074: 2^p exact, and q · 2^p a normal double with 40 bits: exact.
    clamped(negative, q * pow2(p))
}

/// The image of an exact rational.
pub fn image_of_rational(q: &BigRational) -> f64 {
    image_of_signed(q.numer(), q.denom(), 0)
}

/// The image of m/d · 2^e for signed integers (d ≠ 0).
pub(crate) fn image_of_signed(m: &BigInt, d: &BigInt, e: i64) -> f64 {
    let negative = (m.sign() == BigSign::Minus) != (d.sign() == BigSign::Minus);
    image_of_ratio(negative, m.magnitude(), d.magnitude(), e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    #[test]
    fn doubles_and_their_exact_values_have_the_same_image() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let v = f64::from_bits(next());
            if v.is_finite() {
                assert_eq!(image_of_f64(v).to_bits(), image_of_rational(&exact(v)).to_bits(), "{v:e}");
            }
        }
        for v in [1.0, -1.0, 0.1, 3.0, 1e-300, -1e300, 2f64.powi(-1000), 2f64.powi(-1000).next_down(), 2f64.powi(1000)]
        {
            assert_eq!(image_of_f64(v).to_bits(), image_of_rational(&exact(v)).to_bits(), "{v:e}");
        }
    }

    #[test]
    fn images_truncate_to_forty_bits_toward_zero() {
        let one_third = BigRational::new(1.into(), 3.into());
        let i = image_of_rational(&one_third);
        // 1/3 = 0.010101…: the forty bits from the leading one, then cut.
        assert_eq!(i, ((1u64 << 41) / 3) as f64 / 2f64.powi(41));
        assert!(i < 1.0 / 3.0 && 1.0 / 3.0 - i < 2f64.powi(-41));
        assert_eq!(image_of_rational(&-one_third), -i);
        assert_eq!(image_of_f64(1.0 + f64::EPSILON), 1.0);
        assert_eq!(image_of_f64(1.0 + 2f64.powi(-39)), 1.0 + 2f64.powi(-39));
        assert_eq!(image_of_f64(1e-305), 0.0);
        assert_eq!(image_of_f64(-1e305), -2f64.powi(1000));
        assert_eq!(image_of_rational(&BigRational::new(1.into(), BigInt::from(1) << 2000u32)), 0.0);
    }

    #[test]
    fn images_are_monotone() {
        let xs: Vec<f64> = (-2000..2000).map(|i| f64::from(i) * 0.37e-3).collect();
        for w in xs.windows(2) {
            assert!(image_of_f64(w[0]) <= image_of_f64(w[1]));
        }
    }
}
