//! The greatest common divisor of big naturals by Lehmer's algorithm (Knuth, TAOCP vol. 2,
//! §4.5.2, Algorithm L): the quotients of Euclid's algorithm are found on the leading 63 bits
//! of both numbers, as long as the two bracketing cofactor pairs agree on them, and applied to
//! the whole numbers once per run of quotients, as a 2 × 2 matrix. A run replaces about 30
//! Euclidean steps; the binary algorithm (num-bigint's, and ours before) spends one pass over
//! the limbs per bit. Turning an exact answer into lowest terms is one gcd per coordinate.

use num_bigint::BigUint;
use num_integer::Integer;

/// gcd(a, b) (gcd(0, b) = b).
pub(crate) fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (a, b) = if a >= b { (a, b) } else { (b, a) };
    // Sizes far apart (a numerator over an odd part of |q|², say): no quotient can be read
    // off the leading bits, so the first step is a division, taken here on the numbers as
    // given (in the loop below it would convert both to and from limbs).
    let reduced;
    let (a, b) = if a.bits() > b.bits() + 62 && b.bits() > 0 {
        reduced = a % b;
        (b, &reduced)
    } else {
        (a, b)
    };
    // Little-endian limbs, updated in place: a run's matrix is applied limb by limb.
    let (mut a, mut b): (Vec<u64>, Vec<u64>) = (a.iter_u64_digits().collect(), b.iter_u64_digits().collect());
    let (mut t, mut w) = (Vec::with_capacity(a.len()), Vec::with_capacity(a.len()));
    loop {
        // Invariant: a ≥ b, both trimmed (no leading zero limb).
        match b.len() {
            0 => return BigUint::from_slice(&to_u32(&a)),
            1 => {
                let y = b[0];
                let x = a.iter().rev().fold(0u128, |r, &limb| ((r << 64) | u128::from(limb)) % u128::from(y)) as u64;
                return BigUint::from(x.gcd(&y));
            }
            _ => {}
        }
        let shift = bits(&a).saturating_sub(62);
        let (mut x, mut y) = (leading(&a, shift), leading(&b, shift));
        // x̂ = x + A … the cofactors of the bracketing pairs (Algorithm L, steps L2–L3). The
        // cofactors stay below x̂ < 2⁶² in magnitude, so every sum fits an i64; a product
        // that would not (never seen) ends the run.
        let (mut ca, mut cb, mut cc, mut cd) = (1i64, 0i64, 0i64, 1i64);
        loop {
            if y + cc == 0 || y + cd == 0 {
                break;
            }
            let q = (x + ca) / (y + cc);
            if q != (x + cb) / (y + cd) {
                break;
            }
            let (Some(nc), Some(nd), Some(ny)) = (
                q.checked_mul(cc).and_then(|v| ca.checked_sub(v)),
                q.checked_mul(cd).and_then(|v| cb.checked_sub(v)),
                q.checked_mul(y).and_then(|v| x.checked_sub(v)),
            ) else {
                break;
            };
            (ca, cc) = (cc, nc);
            (cb, cd) = (cd, nd);
            (x, y) = (y, ny);
        }
        if cb == 0 {
            // No quotient was certain: one Euclidean step on the whole numbers.
            let (big_a, big_b) = (BigUint::from_slice(&to_u32(&a)), BigUint::from_slice(&to_u32(&b)));
            let r = big_a % &big_b;
            a = big_b.iter_u64_digits().collect();
            b = r.iter_u64_digits().collect();
        } else {
            // (A·a + B·b, C·a + D·b): consecutive remainders of Euclid's sequence, so both
            // non-negative and the first the larger.
            combine(&mut t, ca, &a, cb, &b);
            combine(&mut w, cc, &a, cd, &b);
            std::mem::swap(&mut a, &mut t);
            std::mem::swap(&mut b, &mut w);
            if a.len() < b.len() || (a.len() == b.len() && a.iter().rev().lt(b.iter().rev())) {
                std::mem::swap(&mut a, &mut b);
            }
        }
    }
}

/// `out` = p·a + q·b (|p|, |q| < 2⁶², the result non-negative), trimmed. Each limb's sum is
/// below 2¹²⁷ in magnitude with the carry, so one i128 holds it.
fn combine(out: &mut Vec<u64>, p: i64, a: &[u64], q: i64, b: &[u64]) {
    out.clear();
    let mut carry: i128 = 0;
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        let v = i128::from(p) * i128::from(x) + i128::from(q) * i128::from(y) + carry;
        out.push(v as u64);
        carry = v >> 64;
    }
    debug_assert!(carry == 0, "a remainder of Euclid's sequence is non-negative and no longer than a");
    while out.last() == Some(&0) {
        out.pop();
    }
}

/// The bit length of trimmed limbs.
fn bits(v: &[u64]) -> u64 {
    v.last().map_or(0, |&top| 64 * v.len() as u64 - u64::from(top.leading_zeros()))
}

/// Limbs of 32 bits, for `BigUint::from_slice`.
fn to_u32(v: &[u64]) -> Vec<u32> {
    v.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect()
}

/// The bits of `v` from `shift` up, for `v < 2^(shift + 62)`: at most 62 of them.
fn leading(v: &[u64], shift: u64) -> i64 {
    let (word, offset) = ((shift / 64) as usize, shift % 64);
    let low = v.get(word).copied().unwrap_or(0);
    let high = v.get(word + 1).copied().unwrap_or(0);
    let bits = if offset == 0 { low } else { low >> offset | high << (64 - offset) };
    (bits & ((1u64 << 62) - 1)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{One, Zero};

    /// Against num-integer's gcd on numbers built with known common factors: one limb, two,
    /// dozens; equal numbers, one dividing the other, consecutive Fibonacci numbers (the most
    /// Euclidean steps per bit), powers of two, and zero.
    #[test]
    fn agrees_with_the_binary_algorithm() {
        let mut s: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut big = |limbs: usize| BigUint::new((0..2 * limbs).map(|_| next() as u32).collect());
        let check = |a: &BigUint, b: &BigUint| {
            assert_eq!(gcd(a, b), Integer::gcd(a, b), "gcd({a}, {b})");
        };
        for limbs in [1, 2, 3, 5, 8, 17, 40] {
            for _ in 0..20 {
                let g = big(1 + limbs / 3);
                let (a, b) = (big(limbs) * &g, big(limbs + 1) * &g);
                check(&a, &b);
                check(&b, &a);
                check(&a, &(&a * &g));
                check(&a, &a);
                check(&(&a + 1u32), &a);
            }
        }
        let (mut f0, mut f1) = (BigUint::one(), BigUint::one());
        for _ in 0..600 {
            (f0, f1) = (f1.clone(), f0 + &f1);
            check(&f1, &f0);
        }
        let two = BigUint::from(2u32);
        check(&two.pow(300), &two.pow(200));
        check(&(two.pow(300) - 1u32), &(two.pow(200) - 1u32));
        check(&BigUint::zero(), &big(3));
        check(&big(3), &BigUint::zero());
        check(&BigUint::zero(), &BigUint::zero());
    }
}
