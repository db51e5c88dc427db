//! Natural numbers as trimmed little-endian `u64` limbs (no leading zero limb; zero is empty):
//! the quotient, remainder and product that lowest terms need, on the limbs `Int` holds inline.
//!
//! `num-bigint`'s division of a few-limb number (a posed coordinate's numerator by the odd
//! part of `|q|²`) normalises, allocates and packs 32-bit digits: about 1,700 instructions a
//! call, most of a gcd's start and of an exact quotient. Knuth's Algorithm D on 64-bit limbs
//! (TAOCP vol. 2, §4.3.1; the quotient digit estimated from the leading two limbs and
//! corrected at most twice) does the same in a few hundred.

use std::cmp::Ordering;

use num_bigint::BigUint;

/// Drop leading zero limbs.
pub(crate) fn trim(v: &mut Vec<u64>) {
    while v.last() == Some(&0) {
        v.pop();
    }
}

/// The order of two trimmed naturals.
pub(crate) fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// The limbs of a [`BigUint`] (trimmed: num-bigint keeps no leading zero limb).
pub(crate) fn of_big(b: &BigUint) -> Vec<u64> {
    b.iter_u64_digits().collect()
}

/// The [`BigUint`] of trimmed limbs.
pub(crate) fn to_big(v: &[u64]) -> BigUint {
    match v {
        [] => BigUint::default(),
        [x] => BigUint::from(*x),
        _ => BigUint::new(v.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect()),
    }
}

/// Whether the natural is one.
pub(crate) fn is_one(v: &[u64]) -> bool {
    v == [1]
}

/// `a · 2^k`, trimmed.
pub(crate) fn shl(a: &[u64], k: u64) -> Vec<u64> {
    if a.is_empty() {
        return Vec::new();
    }
    let (words, bits) = ((k / 64) as usize, (k % 64) as u32);
    let mut out = vec![0u64; a.len() + words + 1];
    for (i, &x) in a.iter().enumerate() {
        out[i + words] |= x << bits;
        if bits > 0 {
            out[i + words + 1] = x >> (64 - bits);
        }
    }
    trim(&mut out);
    out
}

/// `a · b`, schoolbook.
pub(crate) fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![0u64; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = u128::from(x) * u128::from(y) + u128::from(out[i + j]) + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len()] = carry as u64;
    }
    trim(&mut out);
    out
}

/// Limbs a division or a gcd keeps on the stack for each of its working numbers (768 bits);
/// longer numbers work on the heap. An allocation and its free cost about as much as a
/// division of a few limbs.
pub(crate) const STACK: usize = 12;

/// `len` zeroed limbs of working space: the front of `stack` when they fit, else a new vector
/// held in `heap` (which the caller keeps alive as long as the slice).
fn scratch<'a, const N: usize>(stack: &'a mut [u64; N], heap: &'a mut Vec<u64>, len: usize) -> &'a mut [u64] {
    if len <= N {
        &mut stack[..len]
    } else {
        *heap = vec![0u64; len];
        heap
    }
}

/// `a mod b` for `b ≠ 0`.
pub(crate) fn rem(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut r = vec![0u64; b.len()];
    let (_, n) = divide_into(a, b, None, &mut r);
    r.truncate(n);
    r
}

/// `a div b` for `b ≠ 0` (exact quotients take [`div_exact`]; this one is the tests' route to
/// Algorithm D's quotient).
#[cfg(test)]
pub(crate) fn quotient(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut q = vec![0u64; a.len().max(1)];
    let (mut stack, mut heap) = ([0u64; STACK], Vec::new());
    let r = scratch(&mut stack, &mut heap, b.len());
    let (n, _) = divide_into(a, b, Some(&mut q), r);
    q.truncate(n);
    q
}

/// `a / b` for `b ≠ 0` that divides `a` exactly (a gcd, a Bareiss pivot), by Hensel
/// division from the low end (Jebelean, "An algorithm for exact division", J. Symb. Comput.
/// 15 (1993)): with b's power of two dropped from both, each quotient limb is the low limb of
/// what is left times b's inverse modulo 2⁶⁴, and only the quotient's own limbs of what is
/// left are kept up to date (the rest is known to vanish). No quotient-digit estimate, no
/// correction, no normalising shift, and for a quotient shorter than the divisor half the
/// multiply-adds of Algorithm D's.
///
/// When `b` does not divide `a` the result is some natural (no panic), not the quotient.
///
/// Panics when `b` is zero (callers hold a nonzero divisor).
pub(crate) fn div_exact(a: &[u64], b: &[u64]) -> Vec<u64> {
    let Some(zl) = b.iter().position(|&x| x != 0) else { panic!("division of a natural by zero") };
    if a.len() <= zl || a.len() < b.len() {
        return Vec::new();
    }
    // b's power of two 2^(64·zl + tz) divides a too: drop it from both.
    let tz = b[zl].trailing_zeros();
    let (a, b) = (&a[zl..], &b[zl..]);
    let lb = b.len() - usize::from(tz > 0 && b[b.len() - 1] >> tz == 0);
    let nq = a.len() - lb + 1;
    let limb = |v: &[u64], i: usize| -> u64 {
        if tz == 0 {
            v.get(i).copied().unwrap_or(0)
        } else {
            (v.get(i).copied().unwrap_or(0) >> tz) | (v.get(i + 1).copied().unwrap_or(0) << (64 - tz))
        }
    };
    let (mut bs, mut rs) = ([0u64; STACK], [0u64; STACK]);
    let (mut bh, mut rh) = (Vec::new(), Vec::new());
    let bv = scratch(&mut bs, &mut bh, lb);
    for (i, x) in bv.iter_mut().enumerate() {
        *x = limb(b, i);
    }
    // What is left of a, its low nq limbs only.
    let r = scratch(&mut rs, &mut rh, nq);
    for (i, x) in r.iter_mut().enumerate() {
        *x = limb(a, i);
    }
    // b₀'s inverse modulo 2⁶⁴ by Newton's iteration: b₀ · b₀ ≡ 1 modulo 8, and each step
    // doubles the bits that are right (3, 6, 12, 24, 48, 96).
    let b0 = bv[0];
    let mut inv = b0;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(b0.wrapping_mul(inv)));
    }
    let mut q = vec![0u64; nq];
    for i in 0..nq {
        let qi = r[i].wrapping_mul(inv);
        q[i] = qi;
        if qi == 0 {
            continue;
        }
        // r[i..nq] −= qi · b (r[i] becomes zero).
        let m = lb.min(nq - i);
        let (mut carry, mut borrow) = (0u128, 0u64);
        for j in 0..m {
            let p = u128::from(qi) * u128::from(bv[j]) + carry;
            carry = p >> 64;
            let (t, b1) = r[i + j].overflowing_sub(p as u64);
            let (t, b2) = t.overflowing_sub(borrow);
            r[i + j] = t;
            borrow = u64::from(b1) + u64::from(b2);
        }
        let mut pending = carry + u128::from(borrow);
        for x in r.iter_mut().skip(i + m) {
            if pending == 0 {
                break;
            }
            let (t, b1) = x.overflowing_sub(pending as u64);
            *x = t;
            pending = (pending >> 64) + u128::from(b1);
        }
    }
    trim(&mut q);
    q
}

/// Divide `a` by `b ≠ 0`: the remainder into `r` (at least `b.len()` limbs) and the quotient
/// into `q` when asked (at least `a.len()` limbs); their trimmed lengths (the quotient's 0
/// when not asked).
///
/// Panics when `b` is zero (callers hold a nonzero denominator or divisor).
pub(crate) fn divide_into(a: &[u64], b: &[u64], q: Option<&mut [u64]>, r: &mut [u64]) -> (usize, usize) {
    assert!(!b.is_empty(), "division of a natural by zero");
    if cmp(a, b) == Ordering::Less {
        r[..a.len()].copy_from_slice(a);
        return (0, a.len());
    }
    if let [d] = b {
        let d = u128::from(*d);
        let mut rem = 0u128;
        let ql = match q {
            Some(q) => {
                for i in (0..a.len()).rev() {
                    let cur = (rem << 64) | u128::from(a[i]);
                    let digit = cur / d;
                    q[i] = digit as u64;
                    rem = cur - digit * d;
                }
                trimmed_len(&q[..a.len()])
            }
            None => {
                for &x in a.iter().rev() {
                    rem = ((rem << 64) | u128::from(x)) % d;
                }
                0
            }
        };
        r[0] = rem as u64;
        return (ql, usize::from(rem != 0));
    }
    // Algorithm D: normalise so the divisor's top bit is set, then one quotient limb per step.
    let n = b.len();
    let m = a.len() - n;
    let s = b[n - 1].leading_zeros();
    let (mut vs, mut us) = ([0u64; STACK], [0u64; STACK + 1]);
    let (mut vh, mut uh) = (Vec::new(), Vec::new());
    let v = scratch(&mut vs, &mut vh, n);
    let u = scratch(&mut us, &mut uh, a.len() + 1);
    shift_into(b, s, v);
    shift_into(a, s, u);
    let base = 1u128 << 64;
    let (vt, vn) = (u128::from(v[n - 1]), u128::from(v[n - 2]));
    let mut quot = q;
    for j in (0..=m).rev() {
        let num = (u128::from(u[j + n]) << 64) | u128::from(u[j + n - 1]);
        let mut qhat = num / vt;
        let mut rhat = num - qhat * vt;
        while qhat >= base || qhat * vn > ((rhat << 64) | u128::from(u[j + n - 2])) {
            qhat -= 1;
            rhat += vt;
            if rhat >= base {
                break;
            }
        }
        // u[j..=j+n] −= qhat · v.
        let (mut carry, mut borrow) = (0u128, 0u64);
        for i in 0..n {
            let p = qhat * u128::from(v[i]) + carry;
            carry = p >> 64;
            let (t, b1) = u[i + j].overflowing_sub(p as u64);
            let (t, b2) = t.overflowing_sub(borrow);
            u[i + j] = t;
            borrow = u64::from(b1) + u64::from(b2);
        }
        let (t, b1) = u[j + n].overflowing_sub(carry as u64);
        let (t, b2) = t.overflowing_sub(borrow);
        u[j + n] = t;
        if b1 || b2 {
            // qhat was one too large (rare): add v back.
            qhat -= 1;
            let mut c = 0u128;
            for i in 0..n {
                let t = u128::from(u[i + j]) + u128::from(v[i]) + c;
                u[i + j] = t as u64;
                c = t >> 64;
            }
            u[j + n] = u[j + n].wrapping_add(c as u64);
        }
        if let Some(q) = quot.as_deref_mut() {
            q[j] = qhat as u64;
        }
    }
    let ql = quot.map_or(0, |q| trimmed_len(&q[..=m]));
    // The remainder is u[..n] shifted back (u[n] is zero after the last step).
    for i in 0..n {
        r[i] = if s == 0 { u[i] } else { (u[i] >> s) | (u[i + 1] << (64 - s)) };
    }
    (ql, trimmed_len(&r[..n]))
}

/// The length of `v` without its leading zero limbs.
pub(crate) fn trimmed_len(v: &[u64]) -> usize {
    v.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1)
}

/// `out` = `a · 2^s` (`s < 64`), `out` at least as long as `a` plus the carry's limb when
/// there is one, zeroed beyond.
fn shift_into(a: &[u64], s: u32, out: &mut [u64]) {
    out.fill(0);
    for (i, &x) in a.iter().enumerate() {
        out[i] |= x << s;
        if s > 0 && i + 1 < out.len() {
            out[i + 1] = x >> (64 - s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;

    /// Against `num-bigint` on numbers of 1 to 9 limbs with the patterns that break Algorithm
    /// D: top limbs of all ones, a divisor's second limb at its extremes (the qhat test), a
    /// dividend just below a multiple of the divisor (the add-back step), equal numbers.
    #[test]
    fn agrees_with_num_bigint() {
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut cases: Vec<(BigUint, BigUint)> = Vec::new();
        for la in 1..10usize {
            for lb in 1..=la {
                for pattern in 0..6 {
                    let mut limbs = |n: usize| -> Vec<u64> {
                        (0..n)
                            .map(|i| match pattern {
                                1 => u64::MAX,
                                2 if i + 1 == n => 1u64 << 63,
                                3 if i + 2 == n => 0,
                                4 if i + 2 == n => u64::MAX,
                                _ => next() | u64::from(i + 1 == n),
                            })
                            .collect()
                    };
                    let (a, b) = (to_big(&limbs(la)), to_big(&limbs(lb)));
                    cases.push((a.clone(), b.clone()));
                    // Just below and at a multiple: the add-back and the exact quotient.
                    let k = to_big(&limbs(la.saturating_sub(lb).max(1)));
                    let mult = &b * &k;
                    cases.push((mult.clone(), b.clone()));
                    cases.push((mult - 1u32, b.clone()));
                    cases.push((b.clone(), b));
                }
            }
        }
        for (a, b) in &cases {
            let (la, lb) = (of_big(a), of_big(b));
            let (q, r) = a.div_rem(b);
            assert_eq!(to_big(&quotient(&la, &lb)), q, "{a} div {b}");
            assert_eq!(to_big(&rem(&la, &lb)), r, "{a} mod {b}");
            assert_eq!(to_big(&mul(&la, &lb)), a * b, "{a} · {b}");
            assert_eq!(to_big(&shl(&la, 67)), a << 67usize, "{a} · 2^67");
        }
    }

    /// Hensel's exact quotient against `num-bigint`'s on products q · b of 1 to 14 limbs each
    /// (past the stack buffers), with divisors even by whole limbs and by bits, odd, of one limb,
    /// of all ones, equal to the dividend, and a zero dividend.
    #[test]
    fn exact_division_is_the_quotient() {
        let mut s: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut checked = 0;
        for lq in 1..15usize {
            for lb in 1..15usize {
                for pattern in 0..6 {
                    let mut limbs = |n: usize, top: bool| -> Vec<u64> {
                        (0..n)
                            .map(|i| match pattern {
                                1 => u64::MAX,
                                2 if i == 0 && !top => 0,
                                3 if i == 0 && !top => next() << 17,
                                4 if i + 1 == n => 1,
                                _ => next() | u64::from(i + 1 == n),
                            })
                            .collect()
                    };
                    let (q, b) = (to_big(&limbs(lq, true)), to_big(&limbs(lb, false)));
                    if b == BigUint::default() {
                        continue;
                    }
                    let a = &q * &b;
                    let got = to_big(&div_exact(&of_big(&a), &of_big(&b)));
                    assert_eq!(got, q, "({q} · {b}) / {b}");
                    assert_eq!(to_big(&div_exact(&of_big(&b), &of_big(&b))), BigUint::from(1u32), "{b} / {b}");
                    assert!(div_exact(&[], &of_big(&b)).is_empty(), "0 / {b}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }
}
