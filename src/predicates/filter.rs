//! The static filter of exact backends' sign tests: enclosures of exact values by binary64
//! [`Interval`]s, and the sign of a four-term dot product decided on them when the interval
//! arithmetic (outward rounded, the arithmetic of the filtered path) can. Used where an exact
//! run tests many signs of the same values (the Brep-index build's side tests); an undecided
//! sign goes to the exact values.

use crate::scalar::{Interval, Scalar, Sign};

/// Enclosures of four exact values, or of one positive multiple 2⁻ᵏ of all four, by
/// [`Interval`]s, for [`dot4_sign`] on homogeneous forms (a plane's coefficients, a point's
/// homogeneous coordinates: the sign of their dot product is the same after the scaling).
/// `None` on inexact backends (they decide on their own numbers).
///
/// Where the backend gives [`Scalar::binary_exponent`] (`Exact`), the four are scaled by the
/// largest one's 2⁻ᵏ, so integer coefficients of any size are enclosed: each scaled value
/// [`Scalar::to_f64_scaled`] is within 4u of the value, four steps down and up enclose it, and
/// a value more than 2⁴⁸⁰ below the largest is enclosed by [0, 2⁻⁴⁷⁹] on its side of zero.
/// Otherwise each nonzero value's [`Scalar::to_f64`] must lie in [2⁻⁵⁰⁰, 2⁵⁰⁰] (where its
/// error bound holds away from the subnormals), or there is no enclosure. A zero is the point 0.
pub fn enclose4<S: Scalar>(xs: [&S; 4]) -> Option<[Interval; 4]> {
    if !S::EXACT_VALUES {
        return None;
    }
    let zero = Interval::new(0.0, 0.0)?;
    let mut out = [zero; 4];
    let exponents = xs.map(|x| x.binary_exponent());
    if let Some(top) = exponents.iter().flatten().max().copied() {
        let tiny = 2f64.powi(-479);
        for ((o, x), k) in out.iter_mut().zip(xs).zip(exponents) {
            match (k, x.sign().ok()?) {
                (_, Sign::Zero) => {}
                // A nonzero value without an exponent: no scaling for this form.
                (None, _) => return unscaled(xs),
                (Some(k), s) if k - top < -480 => {
                    *o = if s == Sign::Positive { Interval::new(0.0, tiny)? } else { Interval::new(-tiny, 0.0)? };
                }
                (Some(_), _) => *o = widened(x.to_f64_scaled(top))?,
            }
        }
        return Some(out);
    }
    unscaled(xs)
}

/// Four steps down and up from a double within 4u of the value.
fn widened(a: f64) -> Option<Interval> {
    let (mut l, mut h) = (a, a);
    for _ in 0..4 {
        (l, h) = (l.next_down(), h.next_up());
    }
    Interval::new(l, h)
}

/// The values' own enclosures, each nonzero one's image within [2⁻⁵⁰⁰, 2⁵⁰⁰].
fn unscaled<S: Scalar>(xs: [&S; 4]) -> Option<[Interval; 4]> {
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
            *o = widened(a)?;
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

/// The sign of [`super::orient3d`]'s determinant det[b − a; c − a; d − a] when every
/// coordinate is a double ([`Scalar::as_double`]) and binary64 evaluation decides it: the
/// semi-static filter of Shewchuk's orient3d (stage A, "Adaptive precision floating-point
/// arithmetic and fast robust geometric predicates", 1997): the differences, the determinant
/// expanded along the first row and its permanent in round-to-nearest, and the sign when
/// |det| exceeds (7 + 56ε)ε times the permanent (ε = 2⁻⁵³), a bound on the error of the whole
/// evaluation, the differences' rounding included. The bound assumes no underflow or
/// overflow: a permanent outside [2⁻⁹⁶⁰, 2¹⁰⁰⁰] abstains (inside, the absolute errors of
/// underflow, at most 2⁻¹⁰⁷⁴ an operation, are far below the bound, and nothing overflows).
/// `None` sends the test on to the backend's own arithmetic.
pub fn orient3d_of_doubles<S: Scalar>(
    a: &crate::geom::Point3<S>,
    b: &crate::geom::Point3<S>,
    c: &crate::geom::Point3<S>,
    d: &crate::geom::Point3<S>,
) -> Option<Sign> {
    let f = |p: &crate::geom::Point3<S>| -> Option<[f64; 3]> {
        Some([p.x.as_double()?, p.y.as_double()?, p.z.as_double()?])
    };
    let (a, b, c, d) = (f(a)?, f(b)?, f(c)?, f(d)?);
    let r = |p: [f64; 3]| [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
    let (u, v, w) = (r(b), r(c), r(d));
    let m0 = v[1] * w[2] - v[2] * w[1];
    let m1 = w[1] * u[2] - w[2] * u[1];
    let m2 = u[1] * v[2] - u[2] * v[1];
    let det = u[0] * m0 + v[0] * m1 + w[0] * m2;
    let permanent = ((v[1] * w[2]).abs() + (v[2] * w[1]).abs()) * u[0].abs()
        + ((w[1] * u[2]).abs() + (w[2] * u[1]).abs()) * v[0].abs()
        + ((u[1] * v[2]).abs() + (u[2] * v[1]).abs()) * w[0].abs();
    const EPS: f64 = f64::EPSILON / 2.0;
    // (7 + 56ε)ε, rounded up.
    let bound = (7.0 + 56.0 * EPS) * EPS * (1.0 + 4.0 * EPS) * permanent;
    if !(permanent >= 2f64.powi(-960) && permanent <= 2f64.powi(1000)) {
        return None;
    }
    if det > bound {
        Some(Sign::Positive)
    } else if -det > bound {
        Some(Sign::Negative)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::{Exact, Scalar};

    /// The semi-static orient3d filter never contradicts the exact sign: points rounded to
    /// doubles onto planes through three points (so nearly coplanar: the exact determinant is
    /// tiny and of either sign, or zero), nudged by one to a million units in the last place,
    /// scaled from 2⁻⁶⁰⁰ to 2⁶⁰⁰, and generic points; it decides almost every generic case.
    #[test]
    fn the_orient3d_filter_decides_only_what_is_certain() {
        use crate::geom::Point3;
        use num_rational::BigRational;
        let mut s: u64 = 0x0123_4567_89AB_CDEF;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let (mut decided, mut abstained, mut generic_decided) = (0, 0, 0);
        for k in 0..3000 {
            let scale = 2f64.powi([-600, -300, -20, 0, 30, 300, 600][k % 7]);
            let p: Vec<[f64; 3]> = (0..3).map(|_| [next() * scale, next() * scale, next() * scale]).collect();
            let (s1, s2) = (next(), next());
            // A point of the plane through p0, p1, p2, rounded, then nudged.
            let mut q: [f64; 3] =
                std::array::from_fn(|i| p[0][i] + s1 * (p[1][i] - p[0][i]) + s2 * (p[2][i] - p[0][i]));
            let nudge = [0i64, 1, -1, 1000, -1_000_000][k % 5];
            for _ in 0..nudge.unsigned_abs() {
                q[k % 3] = if nudge > 0 { q[k % 3].next_up() } else { q[k % 3].next_down() };
            }
            let generic: [f64; 3] = [next() * scale, next() * scale, next() * scale];
            for (d, is_generic) in [(q, false), (generic, true)] {
                let exact = |x: [f64; 3]| x.map(|v| BigRational::from_float(v).unwrap());
                let e = |x: [f64; 3]| {
                    let v = exact(x);
                    Point3::new(v[0].clone(), v[1].clone(), v[2].clone())
                };
                let truth = super::super::orient3d(&e(p[0]), &e(p[1]), &e(p[2]), &e(d)).unwrap();
                let iv = |x: [f64; 3]| {
                    Point3::new(
                        Interval::point(x[0]).unwrap(),
                        Interval::point(x[1]).unwrap(),
                        Interval::point(x[2]).unwrap(),
                    )
                };
                match orient3d_of_doubles(&iv(p[0]), &iv(p[1]), &iv(p[2]), &iv(d)) {
                    Some(sign) => {
                        assert_eq!(crate::predicates::Orientation::from(sign), truth, "{p:?} {d:?}");
                        decided += 1;
                        generic_decided += usize::from(is_generic);
                    }
                    None => abstained += 1,
                }
            }
        }
        // Every generic case within the filter's range (scales 2⁻³⁰⁰ to 2³⁰⁰, five in seven).
        assert!(generic_decided >= 3000 * 5 / 7 - 5, "generic cases decided: {generic_decided}");
        assert!(abstained > 500 && decided > 3000, "decided {decided}, abstained {abstained}");
    }

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
