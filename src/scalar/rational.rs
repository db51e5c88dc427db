//! The `BigRational` backend (num-rational, pure Rust): the readable exact reference.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

use super::{Decision, NumberError, Scalar, Sign};

thread_local! {
    static MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count one exact value made (see [`exact_values_made`]).
pub(crate) fn made_one() {
    MADE.with(|m| m.set(m.get() + 1));
}

/// How many exact rationals this thread has made through the scalar layer's entry points
/// (the `BigRational` backend's constructors and conversions, and [`parse_rational`](super::parse_rational)).
/// A test of the float path reads it before and after: the `f64` path makes none.
pub fn exact_values_made() -> u64 {
    MADE.with(|m| m.get())
}

/// The rational square root of `m`, when it has one (`None` for a negative `m` or one that is
/// not the square of a rational).
///
/// ```
/// use touchstone::scalar::{rational_sqrt, BigRational};
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// assert_eq!(rational_sqrt(&q(9, 4)), Some(q(3, 2)));
/// assert_eq!(rational_sqrt(&q(2, 1)), None);
/// ```
pub fn rational_sqrt(m: &BigRational) -> Option<BigRational> {
    if m.is_negative() {
        return None;
    }
    let (n, d) = (m.numer().sqrt(), m.denom().sqrt());
    (&n * &n == *m.numer() && &d * &d == *m.denom()).then(|| BigRational::new(n, d))
}

impl crate::scalar::Certain for BigRational {}
impl crate::scalar::ExactValues for BigRational {}

impl Scalar for BigRational {
    fn by_capability<R: crate::scalar::ByCapability<Self>>(r: R) -> R::Output {
        r.certain()
    }

    const EXACT_VALUES: bool = true;
    const CERTAIN_DECISIONS: bool = true;
    const NAME: &'static str = "BigRational";
    const UNIT_ROUNDOFF: f64 = 0.0;

    fn from_i64(v: i64) -> Self {
        made_one();
        BigRational::from_integer(v.into())
    }
    fn from_f64(v: f64) -> Result<Self, NumberError> {
        made_one();
        rational_of_f64(v).ok_or_else(|| NumberError::NotFinite(v.to_string()))
    }
    fn from_rational(q: &BigRational) -> Self {
        made_one();
        q.clone()
    }
    fn to_backend<T: Scalar>(&self) -> T {
        made_one();
        T::from_rational(self)
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn to_rational(&self) -> Option<BigRational> {
        Some(self.clone())
    }
    fn image(&self) -> Decision<f64> {
        Ok(super::image::image_of_rational(self))
    }
    /// The values times the least common multiple of the odd parts of their denominators: the
    /// same values as `Exact`'s (which holds those odd parts as its denominators).
    fn integral_multiple<const N: usize>(values: [&Self; N]) -> Option<[Self; N]> {
        use num_integer::Integer;
        use num_traits::One;
        let mut l: Option<num_bigint::BigInt> = None;
        for v in values {
            let d = v.denom();
            let odd = d >> d.trailing_zeros().unwrap_or(0);
            if odd.is_one() {
                continue;
            }
            l = Some(match l {
                None => odd,
                Some(l) => l.lcm(&odd),
            });
        }
        let l = BigRational::from_integer(l?);
        Some(values.map(|v| v * &l))
    }
    fn abs(&self) -> Self {
        Signed::abs(self)
    }
    fn sign(&self) -> Decision<Sign> {
        Ok(if self.is_positive() {
            Sign::Positive
        } else if self.is_negative() {
            Sign::Negative
        } else {
            Sign::Zero
        })
    }
}

/// The exact value of a finite binary64 number, in lowest terms without a gcd: its significand
/// with the trailing zeros shifted out is odd, over a power of two (num-rational's
/// `from_float` reduces by a gcd, a tenth of the exact path's time on binary64 input lines).
/// `None` for an infinity or a NaN.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::scalar::rational_of_f64;
/// assert_eq!(rational_of_f64(0.375), Some(BigRational::new(3.into(), 8.into())));
/// assert_eq!(rational_of_f64(-6.0), Some(BigRational::from_integer((-6).into())));
/// assert_eq!(rational_of_f64(f64::NAN), None);
/// ```
pub fn rational_of_f64(v: f64) -> Option<BigRational> {
    use num_bigint::BigInt;
    use num_traits::Zero;
    if !v.is_finite() {
        return None;
    }
    if v == 0.0 {
        return Some(BigRational::zero());
    }
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    let zeros = m.trailing_zeros();
    let (m, e) = (m >> zeros, e + i64::from(zeros));
    let n = if v < 0.0 { -BigInt::from(m) } else { BigInt::from(m) };
    Some(if e >= 0 {
        BigRational::from_integer(n << e as u64)
    } else {
        BigRational::new_raw(n, BigInt::from(1u8) << e.unsigned_abs())
    })
}

#[cfg(test)]
mod conversion_tests {
    use super::*;

    /// The same value as num-rational's `from_float` (which reduces by a gcd), and already in
    /// lowest terms: zeros, subnormals, the edges of the normal range, powers of two, odd
    /// significands, integers past 2⁵³, the largest double, both signs.
    #[test]
    fn doubles_convert_exactly_in_lowest_terms() {
        let mut xs = vec![0.0, 5e-324, 3e-323, f64::MIN_POSITIVE, f64::MIN_POSITIVE.next_down(), 0.1, 0.375, 1.0, 3.0];
        xs.extend([1e16 + 2.0, 2f64.powi(60) * 3.0, f64::MAX, 1.0 / 3.0, 123456.789, 2f64.powi(-1000)]);
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            if x.is_finite() {
                xs.push(x);
            }
        }
        for x in xs.iter().flat_map(|&x| [x, -x]) {
            let r = rational_of_f64(x).unwrap();
            assert_eq!(Some(r.clone()), BigRational::from_float(x), "{x:e}");
            let reduced = BigRational::new(r.numer().clone(), r.denom().clone());
            assert_eq!((r.numer(), r.denom()), (reduced.numer(), reduced.denom()), "{x:e} not in lowest terms");
        }
        assert_eq!(rational_of_f64(f64::INFINITY), None);
    }
}
