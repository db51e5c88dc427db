//! The static filter of exact backends' sign tests: enclosures of exact values by binary64
//! [`Interval`]s, and the sign of a four-term dot product decided on them when the interval
//! arithmetic (outward rounded, the arithmetic of the filtered path) can. Used where an exact
//! run tests many signs of the same values (the Brep-index build's side tests); an undecided
//! sign goes to the exact values.

use crate::scalar::{Interval, Scalar, Sign};

/// Enclosures of four exact values by [`Interval`]s, for [`dot4_sign`]: `None` on
/// inexact backends (they decide on their own numbers) and when a nonzero value's binary64
/// image is outside [2⁻⁵⁰⁰, 2⁵⁰⁰] (where [`Scalar::to_f64`]'s error bound below fails near
/// the subnormals). [`Scalar::to_f64`] of an exact backend is within 4u of the value (it
/// truncates to 64 bits, rounds, divides and rounds again), and 4u·|a| is at most 4 units in
/// the last place of `a`: four steps down and up enclose the value. A zero image of a zero
/// value is the point 0.
pub fn enclose4<S: Scalar>(xs: [&S; 4]) -> Option<[Interval; 4]> {
    if !S::EXACT_VALUES {
        return None;
    }
    let (lo, hi) = (2f64.powi(-500), 2f64.powi(500));
    let zero = Interval::new(0.0, 0.0)?;
    let mut out = [zero; 4];
    for (o, x) in out.iter_mut().zip(xs) {
        let a = x.to_f64();
        if a == 0.0 {
            if x.sign() != Ok(Sign::Zero) {
                return None;
            }
        } else if !(a.abs() > lo && a.abs() < hi) {
            return None;
        } else {
            let (mut l, mut h) = (a, a);
            for _ in 0..4 {
                (l, h) = (l.next_down(), h.next_up());
            }
            *o = Interval::new(l, h)?;
        }
    }
    Some(out)
}

/// The sign of plane · point (homogeneous, w > 0) from the enclosures of [`enclose4`], when
/// the interval dot product decides it (the filter every predicate's filtered path uses: the
/// [`Interval`] backend's outward-rounded arithmetic); `None` sends the test to the exact
/// values.
pub fn dot4_sign(a: &[Interval; 4], b: &[Interval; 4]) -> Option<Sign> {
    let v = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    v.sign().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::{Exact, Scalar};

    /// The filter never contradicts the exact sign: planes through a point with thirds and
    /// sevenths (no coordinate is a double), offset exactly, then nudged either way by 10⁻¹⁵,
    /// 3·10⁻¹⁴, 3·10⁻¹³ and 3·10⁻¹² (about the inputs' rounding: the enclosures must hold it)
    /// and by 10⁻⁹. The filter may abstain; it may not err.
    #[test]
    fn the_filter_decides_only_what_is_certain() {
        let q = |n: i64, d: i64| Exact::from_i64(n) / Exact::from_i64(d);
        let (mut decided, mut abstained) = (0, 0);
        for k in 1..40i64 {
            let x = [q(k, 3), q(-2 * k + 1, 7), q(5, 3 * k)];
            let n = [q(k * k - 20, 7), q(3, k), q(-k, 11)];
            let exact_offset =
                -(n[0].clone() * x[0].clone() + n[1].clone() * x[1].clone() + n[2].clone() * x[2].clone());
            for nudge in [0, 1, -1, 30, -30, 300, -300, 3000, -3000, 1_000_000, -1_000_000] {
                let offset = exact_offset.clone() + q(nudge, 1_000_000_000_000_000);
                let point = [&x[0], &x[1], &x[2], &Exact::from_i64(1)];
                let plane = [&n[0], &n[1], &n[2], &offset];
                let value = n[0].clone() * x[0].clone()
                    + n[1].clone() * x[1].clone()
                    + n[2].clone() * x[2].clone()
                    + offset.clone();
                let (a, b) = (enclose4(plane).unwrap(), enclose4(point).unwrap());
                match dot4_sign(&a, &b) {
                    Some(s) => {
                        assert_eq!(Ok(s), value.sign(), "k {k}, nudge {nudge}");
                        decided += 1;
                    }
                    None => abstained += 1,
                }
            }
        }
        // Exactly on the plane the filter abstains; a nudge of 10⁻⁹ it decides.
        assert!(abstained >= 39 && decided >= 78, "decided {decided}, abstained {abstained}");
    }
}
