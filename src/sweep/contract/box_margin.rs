//! The margin of a box sweep (see the contract in [`super`]): how far its binary64 boxes are
//! from a change of answer, computed exactly by the separating-axis route, and the check of an
//! `f64` contact.

use num_rational::BigRational;

use crate::poly::{PolyError, RootScalar};
use crate::scalar::{Exact, Scalar};
use crate::sweep::sat::*;
use crate::sweep::{BoxMotion, SweepError};

type Q = BigRational;

/// The exact answer for binary64 boxes with its margin and the error bound of an `f64` time.
pub(crate) struct SweepMargined {
    pub exact: Option<SatContact<Q>>,
    pub margin: f64,
    pub toi_bound: f64,
}

/// The exact first contact of binary64 boxes and how far they are from a change of answer:
/// the least, over the exact candidates up to the first contact and the critical points of
/// every axis's piece polynomials there (near-grazes), of the decision's slack at that time:
/// for a time at which every axis overlaps, the least relative overlap; otherwise the largest
/// relative separation; and at a critical point of one axis where every other axis overlaps,
/// that axis's own relative value (a graze: a double root of the contact equation, which a
/// perturbation turns into a miss or an earlier contact). Relative values are taken in `f64`
/// against the magnitude polynomials of the `f64` axes built from the same numbers.
pub(crate) fn sat_with_margin(
    a: &BoxMotion<f64>,
    b: &BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<SweepMargined, SweepError> {
    // The exact side on the fast exact backend (the same numbers as the reference's, with no
    // gcd per operation): this is the differential checks' main cost.
    let q = |x: f64| Exact::from_f64(x).unwrap_or_else(|_| <Exact as num_traits::Zero>::zero());
    let exact_box = |m: &BoxMotion<f64>| BoxMotion { half: m.half.map(q), motion: m.motion.map(|x| x.map(q)) };
    let (ea, eb) = (exact_box(a), exact_box(b));
    let (qt0, qt1) = (q(t0), q(t1));
    let (exact_axes, candidates) = prepare(&ea, &eb, &qt0, &qt1)?;
    let exact: Option<SatContact<Q>> = decide(&exact_axes, candidates.clone(), &Exact::time(&qt0))?
        .map(|c| SatContact { time: c.time, axis: c.axis, overlapping_at_start: c.overlapping_at_start });
    // The margin and the time bound are measured against the f64 axes built from the same
    // numbers; when those overflow, the fast path is outside its range here and is held to
    // nothing (margin 0: its own answer is an overflow refusal).
    let fast = || -> Result<(f64, f64), SweepError> {
        let (fast_axes, _) = prepare(a, b, &t0, &t1)?;
        let underflowed = exact_axes
            .iter()
            .zip(&fast_axes)
            .any(|(e, f)| e.terms().zip(f.terms()).any(|(x, y)| crate::poly::underflowed(&x.p, &y.p)));
        if underflowed {
            // The f64 axes lost terms to underflow: held to nothing (margin 0).
            return Ok((0.0, f64::INFINITY));
        }
        let last = exact.as_ref().map(|c| c.time.to_f64()).unwrap_or(t1);
        // The critical points of every axis's piece polynomials on [t0, last], in f64.
        // Each time comes with the axis whose critical point it is, if it is one.
        let mut times: Vec<(f64, Option<usize>)> =
            candidates.iter().map(|c| (c.to_f64(), None)).filter(|(t, _)| *t <= last).collect();
        for (k, ax) in fast_axes.iter().enumerate() {
            for probe in [t0, (t0 + last) / 2.0, last] {
                let g = ax.piece_at(&probe)?;
                let d = g.p.derivative();
                if !d.is_zero() && t0 < last {
                    times.extend(crate::poly::float_roots(&d, t0, last)?.into_iter().map(|t| (t, Some(k))));
                }
            }
        }
        let mut margin = f64::INFINITY;
        for (t, critical) in times {
            // Relative overlaps (≥ 0) and separations of the axes that exist at t.
            let (mut overlaps, mut most) = (Vec::new(), 0.0_f64);
            // The critical axis's relative value, and the largest separation of the others.
            let (mut extremum, mut most_others) = (None, 0.0_f64);
            for (k, ax) in fast_axes.iter().enumerate() {
                let g = ax.piece_at(&t)?;
                if g.is_zero()? {
                    continue;
                }
                let r = g.relative_at(t);
                let separated = g.p.eval(&t) < 0.0;
                if critical == Some(k) {
                    extremum = Some(r);
                } else if separated {
                    most_others = most_others.max(r);
                }
                if separated {
                    most = most.max(r);
                } else {
                    overlaps.push((r, ax.direction.clone().map(|c| c.p.eval(&t))));
                }
            }
            // At a time where the boxes meet, the axis that just closed (g = 0) is the contact
            // equation, not a slack: the margin is the least overlap along any other direction
            // (axes along the same direction, e.g. a face normal that is also an edge-pair cross
            // product of aligned boxes, are one plane). It is 0 when two directions close at once:
            // vertex on vertex, edge on edge along a face. At t0 there is no such axis. Elsewhere
            // the margin is the largest separation: the answer changes only when it closes.
            overlaps.sort_by(|x, y| x.0.total_cmp(&y.0));
            let holds = most <= 2.0 * f64::relative_tolerance();
            let parallel = |u: &[f64; 3], v: &[f64; 3]| {
                let c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
                let n = |w: &[f64; 3]| w.iter().map(|x| x * x).sum::<f64>().sqrt();
                n(&c) <= 1e-9 * n(u) * n(v)
            };
            let slack = match overlaps.first() {
                Some((_, closing)) if holds && t > t0 => overlaps
                    .iter()
                    .filter(|(_, d)| !parallel(closing, d))
                    .map(|(r, _)| *r)
                    .next()
                    .unwrap_or(f64::INFINITY),
                Some((r, _)) if holds => *r,
                _ if holds => f64::INFINITY,
                _ => most,
            };
            // An extremum of one axis where every other axis overlaps: moving that axis by its
            // value makes or unmakes a contact there (a graze: a double root of the contact
            // equation, which the rule above, taking the closing axis as the equation, misses).
            let slack = match extremum {
                Some(r) if most_others <= 2.0 * f64::relative_tolerance() => slack.min(r),
                _ => slack,
            };
            margin = margin.min(slack);
        }
        let mut toi_bound = f64::INFINITY;
        if let Some(c) = &exact {
            let t = c.time.to_f64();
            for ax in &fast_axes {
                let g = ax.piece_at(&t)?;
                if g.relative_at(t) <= 2.0 * f64::relative_tolerance() {
                    let slope = g.p.derivative().eval(&t).abs();
                    let m = g.magnitude_at(t);
                    if slope > 0.0 {
                        toi_bound = toi_bound.min(64.0 * f64::relative_tolerance() * m / slope + 4.0 * f64::EPSILON);
                    }
                }
            }
        }
        Ok((margin, toi_bound))
    };
    let (margin, toi_bound) = match fast() {
        Ok(m) => m,
        Err(
            SweepError::Uncertain(crate::scalar::Uncertain::Overflow)
            | SweepError::Poly(PolyError::NotFinite(_))
            | SweepError::Poly(PolyError::Uncertain(crate::scalar::Uncertain::Overflow)),
        ) => (0.0, f64::INFINITY),
        Err(e) => return Err(e),
    };
    Ok(SweepMargined { exact, margin, toi_bound })
}

/// Whether every axis of the binary64 boxes overlaps at `t` within twice the tolerance,
/// exactly evaluated (the piece of each axis taken at `t`): an `f64` contact at `t` is valid.
pub(crate) fn valid_contact_at(a: &BoxMotion<f64>, b: &BoxMotion<f64>, t0: f64, t1: f64, t: f64) -> bool {
    let q = |x: f64| Q::from_float(x).unwrap_or_default();
    let exact_box = |m: &BoxMotion<f64>| BoxMotion { half: m.half.map(q), motion: m.motion.map(|x| x.map(q)) };
    let (ea, eb) = (exact_box(a), exact_box(b));
    let (Ok((exact_axes, _)), Ok((fast_axes, _))) = (prepare(&ea, &eb, &q(t0), &q(t1)), prepare(a, b, &t0, &t1)) else {
        return false;
    };
    let tq = q(t);
    exact_axes.iter().zip(&fast_axes).all(|(e, f)| {
        let (Ok(g), Ok(gf)) = (e.piece_at(&Q::time(&tq)), f.piece_at(&t)) else { return false };
        let m = gf.magnitude_at(t);
        let allowed =
            Q::from_float(2.0 * (f64::relative_tolerance() * m + f64::absolute_tolerance())).unwrap_or_default();
        g.p.eval(&tq) >= -allowed
    })
}
