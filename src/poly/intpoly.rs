//! Integer polynomials (`Vec<BigInt>`, low degree first): the fast inner representation of
//! root isolation and algebraic numbers. Ring operations on big integers have no gcd per
//! operation, unlike `BigRational`.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::Poly;
use crate::scalar::Sign;

/// The primitive integer polynomial with the same roots as `p` (a positive rational multiple
/// of it, coefficients with gcd 1, positive leading coefficient). Empty for `p = 0`.
pub(crate) fn primitive(p: &Poly<BigRational>) -> Vec<BigInt> {
    // The denominators' lcm by Lehmer's gcd (num-bigint's `lcm` is its binary gcd), skipping
    // the usual integer coefficients and repeated denominators.
    let lcm = p.coeffs().iter().fold(BigInt::one(), |l, c| {
        let d = c.denom();
        if d.is_one() || *d == l {
            l
        } else if l.is_one() {
            d.clone()
        } else {
            let g = crate::scalar::gcd::gcd_big(&l, d);
            if g == *d {
                l
            } else {
                l / g * d
            }
        }
    });
    let mut a: Vec<BigInt> = p
        .coeffs()
        .iter()
        .map(|c| if c.denom() == &lcm { c.numer().clone() } else { c.numer() * (&lcm / c.denom()) })
        .collect();
    make_primitive(&mut a);
    a
}

/// The primitive integer polynomial proportional to p(lo + w·x), for p in ℤ[x] (low degree
/// first; `primitive` of the rational composition, the same vector). With lo = a/b, w = c/d
/// and L = lcm(b, d), Lⁿ·p((a' + c'·x)/L) = Σ pᵢ·(a' + c'·x)ⁱ·Lⁿ⁻ⁱ (a' = a·L/b, c' = c·L/d)
/// by Horner's scheme on integers: no gcd per operation, where the Taylor shift on rationals
/// reduced each of its n² products and sums with num-bigint's binary gcd.
pub(crate) fn compose_affine(p: &[BigInt], lo: &BigRational, w: &BigRational) -> Vec<BigInt> {
    let Some((lead, rest)) = p.split_last() else { return Vec::new() };
    let (b, d) = (lo.denom(), w.denom());
    let l = b / crate::scalar::gcd::gcd_big(b, d) * d;
    let (a1, c1) = (lo.numer() * (&l / b), w.numer() * (&l / d));
    // r ← r·(a' + c'·x) + pₖ·Lⁿ⁻ᵏ, in place from the top coefficient down.
    let mut r = Vec::with_capacity(p.len());
    r.push(lead.clone());
    let mut l_power = BigInt::one();
    for pk in rest.iter().rev() {
        l_power *= &l;
        r.push(BigInt::zero());
        for j in (1..r.len()).rev() {
            r[j] = &a1 * &r[j] + &c1 * &r[j - 1];
        }
        r[0] = &a1 * &r[0] + pk * &l_power;
    }
    trim(&mut r);
    make_primitive(&mut r);
    r
}

/// Divide by the content and make the leading coefficient positive (roots are unchanged).
pub(crate) fn make_primitive(a: &mut [BigInt]) {
    // Lehmer's gcd, stopping at 1 (the usual case, where a binary gcd of 1 with a long
    // coefficient still walks its every bit).
    let mut g = BigInt::zero();
    for c in a.iter() {
        if g.is_one() {
            break;
        }
        if !c.is_zero() {
            g = crate::scalar::gcd::gcd_big(&g, c);
        }
    }
    let negative = a.last().is_some_and(Signed::is_negative);
    if g.is_zero() {
        return;
    }
    let g = if negative { -g } else { g };
    if !g.is_one() {
        for c in a.iter_mut() {
            *c = crate::scalar::int::div_exact_big(c, &g);
        }
    }
}

pub(crate) fn sign_of(v: &BigInt) -> Sign {
    if v.is_positive() {
        Sign::Positive
    } else if v.is_negative() {
        Sign::Negative
    } else {
        Sign::Zero
    }
}

/// The sign of `a(x)` at a rational `x = n/d`: the sign of `Σ aᵢ nⁱ d^(deg-i)`, all integer.
pub(crate) fn sign_at(a: &[BigInt], x: &BigRational) -> Sign {
    let (n, d) = (x.numer(), x.denom()); // d > 0: BigRational keeps its denominator positive
    let mut acc = BigInt::zero();
    let mut dpow = BigInt::one();
    for (k, c) in a.iter().rev().enumerate() {
        if k == 0 {
            acc = c.clone();
        } else {
            dpow *= d;
            acc = acc * n + c * &dpow;
        }
    }
    sign_of(&acc)
}

/// Drop zero leading coefficients (the zero polynomial is empty).
fn trim(a: &mut Vec<BigInt>) {
    while a.last().is_some_and(Zero::is_zero) {
        a.pop();
    }
}

/// The primitive greatest common divisor of two integer polynomials (low degree first) by the
/// primitive pseudo-remainder sequence: each step takes `lc(b)^(deg a − deg b + 1) · a` modulo
/// `b` and divides out its content, so every step stays in ℤ[x] with no gcd per operation and
/// the coefficients stay near the input's size (Gauss's lemma: primitive parts of a gcd
/// multiply). The result is primitive with a positive leading coefficient; empty when both are
/// zero. Fails only when the query's budget runs out.
pub(crate) fn primitive_gcd(a: &[BigInt], b: &[BigInt]) -> Result<Vec<BigInt>, crate::budget::Limit> {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    trim(&mut a);
    trim(&mut b);
    make_primitive(&mut a);
    make_primitive(&mut b);
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        crate::budget::tick()?;
        let mut r = pseudo_remainder(&a, &b);
        make_primitive(&mut r);
        a = b;
        b = r;
    }
    Ok(a)
}

/// `lc(b)^k · a` reduced modulo `b` (nonzero), up to a positive constant factor: the
/// remainder's coefficients in ℤ.
fn pseudo_remainder(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let mut r = a.to_vec();
    let db = b.len() - 1;
    let lb = &b[db];
    while r.len() > db {
        let dr = r.len() - 1;
        let lr = r[dr].clone();
        // r ← lb · r − lr · x^(dr − db) · b: the leading term cancels.
        for c in r.iter_mut() {
            *c *= lb;
        }
        for (i, c) in b.iter().enumerate() {
            if !c.is_zero() {
                r[i + dr - db] -= &lr * c;
            }
        }
        r.pop();
        trim(&mut r);
    }
    r
}

/// `a / b` when `b` (nonzero) divides `a` in ℚ[x] and both are primitive: then the quotient is
/// in ℤ[x] (Gauss's lemma), found by long division with exact integer quotients. `None` when a
/// leading coefficient does not divide or a remainder is left (`b` does not divide `a`).
pub(crate) fn exact_quotient(a: &[BigInt], b: &[BigInt]) -> Option<Vec<BigInt>> {
    let (mut r, mut b) = (a.to_vec(), b.to_vec());
    trim(&mut r);
    trim(&mut b);
    let db = b.len().checked_sub(1)?;
    if r.len() <= db {
        return r.is_empty().then(Vec::new);
    }
    let mut q = vec![BigInt::zero(); r.len() - db];
    while r.len() > db {
        let dr = r.len() - 1;
        let (k, rem) = r[dr].div_rem(&b[db]);
        if !rem.is_zero() {
            return None;
        }
        for (i, c) in b.iter().enumerate() {
            if !c.is_zero() {
                r[i + dr - db] -= &k * c;
            }
        }
        q[dr - db] = k;
        r.pop();
        trim(&mut r);
    }
    r.is_empty().then_some(q)
}

/// `a(x) -> a(x + 1)` in place, by additions only.
pub(crate) fn taylor_shift_1(a: &mut [BigInt]) {
    let n = a.len();
    for i in 0..n {
        for j in (i..n.saturating_sub(1)).rev() {
            let next = a[j + 1].clone();
            a[j] += next;
        }
    }
}

/// The number of sign variations of the coefficients (zeros skipped), counted up to `cap`.
fn variations(a: &[BigInt], cap: usize) -> usize {
    let mut count = 0;
    let mut last = Sign::Zero;
    for s in a.iter().map(sign_of).filter(|s| !s.is_zero()) {
        if !last.is_zero() && s != last {
            count += 1;
            if count >= cap {
                return count;
            }
        }
        last = s;
    }
    count
}

/// Descartes' bound on the number of roots of `a` in the open interval (0, 1), capped at 2:
/// the sign variations of `(x + 1)ⁿ a(1 / (x + 1))`. 0 and 1 are exact counts.
pub(crate) fn descartes_unit(a: &[BigInt]) -> usize {
    if a.len() < 2 {
        return 0;
    }
    let mut r: Vec<BigInt> = a.iter().rev().cloned().collect();
    taylor_shift_1(&mut r);
    variations(&r, 2)
}

/// `2ⁿ a(x / 2)`: the left half of (0, 1) mapped onto (0, 1).
pub(crate) fn left_half(a: &[BigInt]) -> Vec<BigInt> {
    let n = a.len().saturating_sub(1);
    let mut out: Vec<BigInt> = a.iter().enumerate().map(|(i, c)| c << (n - i)).collect();
    make_primitive(&mut out);
    out
}

/// `a(x) / x` for `a(0) = 0`.
pub(crate) fn div_x(a: &[BigInt]) -> Vec<BigInt> {
    a.iter().skip(1).cloned().collect()
}

/// `a(x) / (x - 1)` for `a(1) = 0` (synthetic division; exact, the remainder is `a(1)`).
pub(crate) fn div_x_minus_1(a: &[BigInt]) -> Vec<BigInt> {
    let mut q = vec![BigInt::zero(); a.len().saturating_sub(1)];
    let mut carry = BigInt::zero();
    for i in (1..a.len()).rev() {
        carry += &a[i];
        q[i - 1] = carry.clone();
    }
    q
}

/// Whether `a` has a root modulo every small prime not dividing its leading coefficient.
///
/// `false` proves that `a` has no rational root: a root `n/d` in lowest terms has `d`
/// dividing the leading coefficient, so for a prime `p` not dividing it, `n·d⁻¹` is a root
/// modulo `p`. Most polynomials without rational roots have no root modulo some small prime.
pub(crate) fn may_have_rational_root(a: &[BigInt]) -> bool {
    const PRIMES: [u64; 25] =
        [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];
    let Some(lead) = a.last() else { return true };
    for p in PRIMES {
        let big_p = BigInt::from(p);
        if (lead % &big_p).is_zero() {
            continue;
        }
        let residues: Vec<u64> = a.iter().map(|c| c.mod_floor(&big_p).to_u64().unwrap_or(0)).collect();
        let has_root = (0..p).any(|x| residues.iter().rev().fold(0u64, |acc, &c| (acc * x + c) % p) == 0);
        if !has_root {
            return false;
        }
    }
    true
}

/// A binary64 Newton iteration for the root of the integer polynomial `a` in [lo, hi], from the
/// middle, each step clamped into the interval: a guess only, which the callers prove or
/// refute exactly (`Algebraic::to_f64`, the rational roots of an isolation). `None` for the
/// zero polynomial.
pub(crate) fn newton_guess(a: &[BigInt], lo: f64, hi: f64) -> Option<f64> {
    // Scaled by a power of two (the same roots) so that the longest coefficient has 500 bits:
    // a subresultant's run past binary64's range, and the values need room below it.
    let longest = a.iter().map(BigInt::bits).max()?;
    let shift = longest.saturating_sub(500);
    let c: Vec<f64> = a
        .iter()
        .map(|c| if shift == 0 { c.to_f64() } else { (c >> shift).to_f64() }.filter(|x| x.is_finite()))
        .collect::<Option<_>>()?;
    let mut x = lo + (hi - lo) * 0.5;
    for _ in 0..40 {
        let (mut f, mut df) = (0.0, 0.0);
        for &ci in c.iter().rev() {
            df = df * x + f;
            f = f * x + ci;
        }
        let step = f / df;
        if !step.is_finite() {
            break;
        }
        let next = (x - step).clamp(lo, hi);
        if next == x {
            break;
        }
        x = next;
    }
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_primitive_takes_out_the_content_and_makes_the_lead_positive() {
        let z = |v: &[i64]| -> Vec<BigInt> { v.iter().map(|&x| BigInt::from(x)).collect() };
        // 6 − 4x − 10x³ → −3 + 2x + 5x³.
        let mut p = z(&[6, -4, 0, -10]);
        make_primitive(&mut p);
        assert_eq!(p, z(&[-3, 2, 0, 5]));
        // A coefficient of 1 ends the content's search; a long one after it stays as it is.
        let long: BigInt = "123456789012345678901234567890123456789012345678901234567890".parse().unwrap();
        let mut p = vec![BigInt::one(), long.clone()];
        make_primitive(&mut p);
        assert_eq!(p, vec![BigInt::one(), long.clone()]);
        let mut p = vec![long.clone() * 2, -long.clone() * 6];
        make_primitive(&mut p);
        assert_eq!(p, z(&[-1, 3]));
        let mut p = z(&[0, 0]);
        make_primitive(&mut p);
        assert_eq!(p, z(&[0, 0]));
    }

    /// `primitive`'s Lehmer lcm and its shortcuts (integer coefficients, a repeated
    /// denominator, one dividing the lcm so far) against num-bigint's `lcm`.
    #[test]
    fn primitive_clears_denominators_by_their_lcm() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let cases = [
            vec![q(1, 2), q(-3, 4), q(5, 6), q(7, 1)],
            vec![q(3, 1), q(0, 1), q(-5, 1)],
            vec![q(1, 12), q(1, 12), q(-1, 4), q(1, 3)],
            vec![q(1, 9), q(2, 3), q(-4, 27), q(1, 1)],
            vec![q(-2, 35), q(3, 77), q(0, 1), q(5, 11), q(-1, 1)],
        ];
        let big = BigInt::from(1) << 190u32;
        let long =
            vec![BigRational::new(3.into(), big.clone() + 1), BigRational::new(1.into(), big.clone() * 3), q(-1, 6)];
        for c in cases.into_iter().chain([long]) {
            let lcm = c.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
            let mut want: Vec<BigInt> = c.iter().map(|x| x.numer() * (&lcm / x.denom())).collect();
            make_primitive(&mut want);
            assert_eq!(primitive(&Poly::from_coeffs(c.clone())), want, "{c:?}");
        }
    }
}
