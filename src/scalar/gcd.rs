//! The greatest common divisor of big naturals by Lehmer's algorithm (Knuth, TAOCP vol. 2,
//! §4.5.2, Algorithm L): the quotients of Euclid's algorithm are found on the leading 63 bits
//! of both numbers, as long as the two bracketing cofactor pairs agree on them, and applied to
//! the whole numbers once per run of quotients, as a 2 × 2 matrix. A run replaces about 30
//! Euclidean steps; the binary algorithm (num-bigint's, and ours before) spends one pass over
//! the limbs per bit. Turning an exact answer into lowest terms is one gcd per coordinate.

use num_integer::Integer;

use super::nat;

/// gcd(|a|, |b|) of big integers by [`gcd_limbs`] (num-bigint's `gcd` is the binary
/// algorithm, one pass over the limbs per bit: quadratic in the bits even when one side is 1).
pub(crate) fn gcd_big(a: &num_bigint::BigInt, b: &num_bigint::BigInt) -> num_bigint::BigInt {
    let g = gcd_limbs(&nat::of_big(a.magnitude()), &nat::of_big(b.magnitude()));
    num_bigint::BigInt::from_biguint(num_bigint::Sign::Plus, nat::to_big(&g))
}

/// gcd(a, b) of trimmed little-endian limbs ([`nat`]'s), trimmed (gcd(0, b) = b).
pub(crate) fn gcd_limbs(a: &[u64], b: &[u64]) -> Vec<u64> {
    let (a, b) = if nat::cmp(a, b).is_ge() { (a, b) } else { (b, a) };
    // Four working numbers of a's length, updated in place (a run's matrix is applied limb by
    // limb), on the stack when they fit.
    let n = a.len().max(1);
    let mut stack = [0u64; 4 * nat::STACK];
    let mut heap;
    let all: &mut [u64] = if 4 * n <= stack.len() {
        &mut stack[..4 * n]
    } else {
        heap = vec![0u64; 4 * n];
        &mut heap
    };
    let (mut x, rest) = all.split_at_mut(n);
    let (mut y, rest) = rest.split_at_mut(n);
    let (mut t, mut w) = rest.split_at_mut(n);
    // Sizes far apart (a numerator over an odd part of |q|², say): no quotient can be read
    // off the leading bits, so the first step is a division.
    let (mut la, mut lb);
    if bits(a) > bits(b) + 62 && !b.is_empty() {
        x[..b.len()].copy_from_slice(b);
        la = b.len();
        (_, lb) = nat::divide_into(a, b, None, y);
    } else {
        x[..a.len()].copy_from_slice(a);
        y[..b.len()].copy_from_slice(b);
        (la, lb) = (a.len(), b.len());
    }
    loop {
        // Invariant: x[..la] ≥ y[..lb], both trimmed (no leading zero limb).
        match lb {
            0 => return x[..la].to_vec(),
            1 => {
                let (_, lr) = nat::divide_into(&x[..la], &y[..1], None, t);
                return vec![if lr == 0 { 0 } else { t[0] }.gcd(&y[0])];
            }
            _ => {}
        }
        let shift = bits(&x[..la]).saturating_sub(62);
        let (cb, ca, cc, cd) = run(leading(&x[..la], shift), leading(&y[..lb], shift));
        if cb == 0 {
            // No quotient was certain: one Euclidean step on the whole numbers.
            let (_, lr) = nat::divide_into(&x[..la], &y[..lb], None, t);
            std::mem::swap(&mut x, &mut y);
            std::mem::swap(&mut y, &mut t);
            (la, lb) = (lb, lr);
        } else {
            // (A·a + B·b, C·a + D·b): consecutive remainders of Euclid's sequence, so both
            // non-negative and the first the larger.
            let lt = combine(t, ca, &x[..la], cb, &y[..lb]);
            let lw = combine(w, cc, &x[..la], cd, &y[..lb]);
            std::mem::swap(&mut x, &mut t);
            std::mem::swap(&mut y, &mut w);
            (la, lb) = (lt, lw);
            if nat::cmp(&x[..la], &y[..lb]).is_lt() {
                std::mem::swap(&mut x, &mut y);
                std::mem::swap(&mut la, &mut lb);
            }
        }
    }
}

/// A run of Euclid's quotients on the leading bits `x ≥ y` of both numbers (Algorithm L,
/// steps L2–L3): the cofactors `(B, A, C, D)` of the quotients both bracketing pairs agree on
/// (`B = 0` when none). The cofactors stay below x < 2⁶² in magnitude, so every sum fits an
/// `i64`; a product that would not (never seen) ends the run. Each step takes one division,
/// none for a quotient of 1 (four steps in ten): the second pair's quotient is checked by
/// multiplication, q·(y + D) ≤ x + B < (q + 1)·(y + D), which holds exactly when ⌊(x + B) /
/// (y + D)⌋ = q for a positive divisor. A pair with a divisor or dividend below one ends the
/// run (a bracket is then no bound).
fn run(mut x: i64, mut y: i64) -> (i64, i64, i64, i64) {
    let (mut ca, mut cb, mut cc, mut cd) = (1i64, 0i64, 0i64, 1i64);
    loop {
        let (n1, d1, n2, d2) = (x + ca, y + cc, x + cb, y + cd);
        if d1 <= 0 || d2 <= 0 || n1 < 0 || n2 < 0 {
            break;
        }
        let q = if n1 >= d1 && n1 - d1 < d1 { 1 } else { n1 / d1 };
        let qd = i128::from(q) * i128::from(d2);
        if qd > i128::from(n2) || qd + i128::from(d2) <= i128::from(n2) {
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
    (cb, ca, cc, cd)
}

/// `out` = p·a + q·b (|p|, |q| < 2⁶², the result non-negative and no longer than the
/// longer of a and b); its trimmed length. Each limb's sum is below 2¹²⁷ in magnitude with
/// the carry, so one i128 holds it.
fn combine(out: &mut [u64], p: i64, a: &[u64], q: i64, b: &[u64]) -> usize {
    let mut carry: i128 = 0;
    let n = a.len().max(b.len());
    for (i, o) in out[..n].iter_mut().enumerate() {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        let v = i128::from(p) * i128::from(x) + i128::from(q) * i128::from(y) + carry;
        *o = v as u64;
        carry = v >> 64;
    }
    debug_assert!(carry == 0, "a remainder of Euclid's sequence is non-negative and no longer than a");
    nat::trimmed_len(&out[..n])
}

/// The bit length of trimmed limbs.
fn bits(v: &[u64]) -> u64 {
    v.last().map_or(0, |&top| 64 * v.len() as u64 - u64::from(top.leading_zeros()))
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
    use num_bigint::BigUint;
    use num_traits::{One, Zero};

    #[test]
    fn gcd_big_is_the_magnitudes_gcd_and_make_primitive_uses_it() {
        use num_bigint::BigInt;
        let big = |s: &str| s.parse::<BigInt>().unwrap();
        let x = big("-123456789012345678901234567890123456789012345678901234567890");
        let y = x.clone() * big("1000000007") * BigInt::from(-6);
        assert_eq!(gcd_big(&x, &y), -x.clone());
        assert_eq!(gcd_big(&BigInt::zero(), &x), -x.clone());
        assert_eq!(gcd_big(&BigInt::zero(), &BigInt::zero()), BigInt::zero());
        assert_eq!(gcd_big(&BigInt::from(-12), &BigInt::from(18)), BigInt::from(6));
    }

    fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
        nat::to_big(&gcd_limbs(&nat::of_big(a), &nat::of_big(b)))
    }

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
