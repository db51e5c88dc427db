//! The margin of a primitive CCD query (see the contract in [`super`]): how far its binary64
//! input is from a change of answer, computed exactly, and the check of an `f64` contact.

use std::cmp::Ordering;

use num_rational::BigRational;
use num_traits::Zero;

use crate::geom::Point3;
use crate::poly::{PolyError, RootScalar, TPoly};
use crate::scalar::{Exact, Scalar, Sign};
use crate::sweep::ccd::*;

type Q = BigRational;

/// The exact answer for binary64 inputs with its margin (see [`super::contract`]) and the
/// error bound of an `f64` first time.
pub(crate) struct Margined {
    pub exact: CcdResult<Q>,
    pub margin: f64,
    pub toi_bound: f64,
}

/// The exact CCD of binary64 inputs and how far they are from a change of its answer.
///
/// The margin is the least, over families, of: |e|/M at 0, at 1 and at the critical points
/// of the family's first non-vanishing equality e in [0, 1] (a contact at an end, or a
/// near-double root that a perturbation creates or removes); and, at each root r of e in
/// [0, 1] up to the first time, the slack of the family's decision there: for a family that
/// holds, the least relative value of its inequalities and non-degeneracy (0 when another
/// equality vanishes there too: a coincidence any perturbation breaks); for one that fails,
/// the largest relative violation. A family whose equalities all vanish identically (motion
/// inside a plane, say) has margin 0. Relative values are taken in `f64` at the root rounded,
/// against the magnitude polynomials of the `f64` families built from the same numbers.
pub(crate) fn ccd_with_margin(
    kind: CcdKind,
    t0: &[Point3<f64>; 4],
    t1: &[Point3<f64>; 4],
) -> Result<Margined, PolyError> {
    // The exact side on the fast exact backend (the same numbers as the reference's, with no
    // gcd per operation): this is the differential checks' main cost.
    let q = |p: &[Point3<f64>; 4]| {
        (*p).map(|x| x.map(|c| Exact::from_f64(c).unwrap_or_else(|_| <Exact as num_traits::Zero>::zero())))
    };
    let (e0, e1) = (q(t0), q(t1));
    let exact_families = families::<Exact>(kind, &e0, &e1);
    let fast_families = families::<f64>(kind, t0, t1);
    let exact = first_of(&exact_families)?;
    let exact = CcdResult { toi: exact.toi };
    let mut margin = f64::INFINITY;
    let mut toi_bound = f64::INFINITY;
    let (zero, one): (Exact, Exact) = (<Exact as num_traits::Zero>::zero(), <Exact as num_traits::One>::one());
    let twins = |fe: &Family<Exact>, ff: &Family<f64>| {
        let pair = |e: &TPoly<Exact>, f: &TPoly<f64>| crate::poly::underflowed(&e.p, &f.p);
        fe.equalities.iter().zip(&ff.equalities).any(|(e, f)| pair(e, f))
            || fe.inequalities.iter().zip(&ff.inequalities).any(|(e, f)| pair(e, f))
            || matches!((&fe.nondegenerate, &ff.nondegenerate), (Some(e), Some(f)) if pair(e, f))
    };
    if exact_families.iter().zip(&fast_families).any(|(fe, ff)| twins(fe, ff)) {
        margin = 0.0;
    }
    for (fe, ff) in exact_families.iter().zip(&fast_families) {
        let Some(j) = fe.equalities.iter().position(|e| !e.p.is_zero()) else {
            margin = 0.0;
            continue;
        };
        let (e, ef) = (&fe.equalities[j], &ff.equalities[j]);
        let mut critical = vec![0.0, 1.0];
        let derivative = ef.p.derivative();
        if !derivative.is_zero() {
            match crate::poly::float_roots(&derivative, 0.0, 1.0) {
                Ok(c) => critical.extend(c),
                // The f64 family overflows: the fast path is outside its range here, and is
                // held to nothing (margin 0; its own answer is an overflow refusal).
                Err(PolyError::NotFinite(_)) => margin = 0.0,
                Err(e) => return Err(e),
            }
        }
        for t in critical {
            let r = ef.relative_at(t);
            margin = if r.is_nan() { 0.0 } else { margin.min(r) };
        }
        for r in Exact::roots_in(&e.p, &zero, &one)? {
            if exact.toi.as_ref().is_some_and(|first| r > *first) {
                break;
            }
            let rf = r.to_f64();
            let holds = fe.holds_at(&r)?;
            let mut slack = if holds { f64::INFINITY } else { 0.0_f64 };
            for (k, (ek, ekf)) in fe.equalities.iter().zip(&ff.equalities).enumerate() {
                if k == j || ek.p.is_zero() {
                    continue;
                }
                if holds {
                    slack = 0.0;
                } else if Exact::sign_at(ek, &r)? != Sign::Zero {
                    slack = slack.max(ekf.relative_at(rf));
                }
            }
            for (g, gf) in fe.inequalities.iter().zip(&ff.inequalities) {
                if holds {
                    slack = slack.min(gf.relative_at(rf));
                } else if Exact::sign_at(g, &r)? == Sign::Negative {
                    slack = slack.max(gf.relative_at(rf));
                }
            }
            if let (Some(n), Some(nf)) = (&fe.nondegenerate, &ff.nondegenerate) {
                if holds {
                    slack = slack.min(nf.relative_at(rf));
                } else if Exact::sign_at(n, &r)? == Sign::Zero {
                    // The family does not apply here: a lower one decides.
                    slack = f64::INFINITY;
                }
            }
            margin = margin.min(slack);
            if holds && exact.toi.as_ref() == Some(&r) {
                // δt ≈ δe / |e'(t)| with δe within the tolerance of e's magnitude.
                let slope = derivative.eval(&rf).abs();
                let m = ef.magnitude_at(rf);
                let bound = 64.0 * f64::relative_tolerance() * m / slope + 4.0 * f64::EPSILON;
                toi_bound = toi_bound.min(if slope > 0.0 { bound } else { f64::INFINITY });
            }
        }
    }
    Ok(Margined { exact, margin, toi_bound })
}

/// Whether an `f64` contact at time `t` is valid within tolerance for binary64 inputs: some
/// family's conditions hold at the rational `t`, exactly evaluated, within twice the tolerance
/// of their magnitudes (each equality |e(t)| ≤ 2·tol·M(t), each inequality g(t) ≥ −2·tol·M(t)):
/// the `f64` path decides each of them within the tolerance, with rounding errors far below it.
pub(crate) fn valid_contact_at(kind: CcdKind, t0: &[Point3<f64>; 4], t1: &[Point3<f64>; 4], t: f64) -> bool {
    // On the fast exact backend (the same exact values as `BigRational`'s, no gcd per
    // operation): the families' polynomials and their values at `t` are exact either way.
    let Ok(tq) = Exact::from_f64(t) else { return false };
    let q = |p: &[Point3<f64>; 4]| (*p).map(|x| x.map(|c| Exact::from_f64(c).unwrap_or_else(|_| Exact::zero())));
    let exact_families = families::<Exact>(kind, &q(t0), &q(t1));
    let fast_families = families::<f64>(kind, t0, t1);
    let allowed = |p: &TPoly<f64>| {
        let m = p.magnitude_at(t);
        // Twice the tolerance, the absolute (underflow) part included: at subnormal scales the
        // f64 families underflow to zero and only the absolute part bounds their error.
        Exact::from_f64(2.0 * (f64::relative_tolerance() * m + f64::absolute_tolerance()))
            .unwrap_or_else(|_| Exact::zero())
    };
    // v ≥ −a and |v| ≤ a, decided exactly (exact values always compare).
    let at_least = |x: &Exact, y: &Exact| matches!(x.compare(y), Ok(Ordering::Greater | Ordering::Equal));
    let above = |v: Exact, a: Exact| at_least(&v, &-a);
    let within = |v: Exact, a: Exact| at_least(&a, &v) && above(v, a);
    exact_families.iter().zip(&fast_families).any(|(fe, ff)| {
        let equalities = fe.equalities.iter().zip(&ff.equalities).all(|(e, ef)| within(e.p.eval(&tq), allowed(ef)));
        let inequalities =
            fe.inequalities.iter().zip(&ff.inequalities).all(|(g, gf)| above(g.p.eval(&tq), allowed(gf)));
        equalities && inequalities
    })
}
