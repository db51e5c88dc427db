//! The agreement contract for primitive CCD: the `f64` path (the same families, float roots,
//! tolerance against magnitude polynomials) against the exact one on the same binary64
//! points.
//!
//! The discrete answer is `collides`; its margin is computed by the exact path (how far the
//! input is from a contact at an end of [0, 1], a grazing double root, a boundary hit of a
//! primitive, or a coincidence of features; see `ccd_with_margin`). Above the budget the
//! answers must be equal and the `f64` first time within its bound of the exact one (the
//! tolerance of the contact equation over its slope). Within the budget either answer is
//! admissible, but an `f64` contact must be *valid within tolerance*: at the `f64` time, the
//! conditions of some family (contact equation, inside the primitives) hold exactly within
//! twice the tolerance of their magnitudes: the scale on which the `f64` path decides them.
//! (Not a geometric distance: for a sliver triangle a relative tolerance on the contact
//! equation is a larger gap in space; the contract follows the decisions.)
//!
//! The box sweep's contract ([`check_sweep_answer`]) has the same shape; its margin is the
//! exact problem's (computed by the separating-axis route), so that the `f64` answer of either
//! route, separating axes or Albocher–Sarel, is checked against the same exact answer and
//! budget ([`check_sweep_agreement`] checks both).

use num_rational::BigRational;

mod box_margin;
mod ccd_margin;

use super::ccd::CcdKind;
use super::SweepError;
use crate::contract::{budget, check, Agreement, Continuous, Disagreement, Margin};
use crate::geom::Point3;
use crate::poly::PolyError;
use crate::scalar::{MidRad, Scalar};
use ccd_margin::{ccd_with_margin, valid_contact_at};
use num_traits::Zero;

type Q = BigRational;

/// The continuous check of a first time: the exact one (to 40 digits) against the `f64` one.
fn toi_check(exact: &crate::poly::Algebraic, fast: f64, bound: f64) -> Result<Vec<Continuous>, Disagreement> {
    let mut e = exact.clone();
    let width = Q::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 40));
    e.refine(&width).map_err(|err| Disagreement {
        what: "refining the exact time failed".into(),
        exact: err.to_string(),
        fast: String::new(),
        margin: String::new(),
    })?;
    Ok(vec![Continuous {
        field: "toi".into(),
        exact: e.interval().lo().clone(),
        fast: Q::from_float(fast).unwrap_or_default(),
        bound: Q::from_float(bound).unwrap_or_default(),
    }])
}

/// Check `f64` CCD against exact CCD of the same binary64 points.
pub fn check_ccd_agreement(
    kind: CcdKind,
    t0: &[Point3<f64>; 4],
    t1: &[Point3<f64>; 4],
) -> Result<Agreement, Disagreement> {
    check_ccd_answer(kind, t0, t1, &super::ccd::<f64>(kind, t0, t1)).1
}

/// [`check_ccd_agreement`]'s verdict, settled without the exact run where a filter decides:
/// when the `f64` answer is a miss and a run on values with bounds decides a miss too (its
/// decision is the exact one), the contract passes on either of its branches (a miss is valid
/// within tolerance, and no time is compared), whatever the margin. Otherwise the exact check.
///
/// ```
/// use touchstone::geom::Point3;
/// use touchstone::sweep::contract::ccd_agrees;
/// use touchstone::sweep::CcdKind;
/// // A vertex passing far beside a triangle: a miss, settled without the exact run.
/// let tri = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)];
/// let t0 = [Point3::new(5.0, 5.0, 1.0), tri[0], tri[1], tri[2]];
/// let t1 = [Point3::new(5.0, 5.0, -1.0), tri[0], tri[1], tri[2]];
/// assert!(ccd_agrees(CcdKind::VertexFace, &t0, &t1).is_ok());
/// ```
pub fn ccd_agrees(kind: CcdKind, t0: &[Point3<f64>; 4], t1: &[Point3<f64>; 4]) -> Result<(), Disagreement> {
    let fast = super::ccd::<f64>(kind, t0, t1);
    if fast.as_ref().is_ok_and(|f| !f.collides()) {
        let m = |p: &[Point3<f64>; 4]| (*p).map(|x| x.map(|c| MidRad::from_f64(c).unwrap_or_else(|_| MidRad::zero())));
        if super::ccd::<MidRad>(kind, &m(t0), &m(t1)).is_ok_and(|r| !r.collides()) {
            return Ok(());
        }
    }
    check_ccd_answer(kind, t0, t1, &fast).1.map(|_| ())
}

/// [`check_sweep_agreement`]'s verdict, settled without the exact run where a filter decides:
/// when both `f64` routes miss and a run on values with bounds decides a miss too, the
/// contract passes on either branch. Otherwise the exact check.
pub fn sweep_agrees(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<(), Disagreement> {
    let miss = |r: Result<Option<f64>, super::SweepError>| r.is_ok_and(|c| c.is_none());
    let sat = super::first_contact_sat(a, b, &t0, &t1).map(|c| c.map(|c| c.time));
    let bms = super::first_contact_bms(a, b, &t0, &t1).map(|c| c.map(|c| c.time));
    if miss(sat) && miss(bms) {
        let m = |x: &f64| MidRad::from_f64(*x).unwrap_or_else(|_| MidRad::zero());
        let conv = |bm: &super::BoxMotion<f64>| super::BoxMotion {
            half: bm.half.each_ref().map(m),
            motion: bm.motion.each_ref().map(|x| x.map(|c| m(&c))),
        };
        if super::first_contact_bms(&conv(a), &conv(b), &m(&t0), &m(&t1)).is_ok_and(|c| c.is_none()) {
            return Ok(());
        }
    }
    check_sweep_agreement(a, b, t0, t1).map(|_| ())
}

/// Check a given `f64` CCD answer (of these binary64 points) against exact CCD of the same
/// points ([`check_ccd_agreement`] for an answer already computed), with the exact margin
/// (unbounded when the exact path failed).
pub fn check_ccd_answer(
    kind: CcdKind,
    t0: &[Point3<f64>; 4],
    t1: &[Point3<f64>; 4],
    fast: &Result<super::CcdResult<f64>, crate::poly::PolyError>,
) -> (Margin, Result<Agreement, Disagreement>) {
    match ccd_margined(kind, t0, t1) {
        Ok(m) => check_ccd_margined(&m, kind, t0, t1, fast),
        Err(e) => (Margin::Unbounded, Err(failed("exact CCD failed", e.to_string(), String::new()))),
    }
}

/// The exact CCD of binary64 inputs with its margin (see [`check_ccd_answer`]); a limit of the
/// exact root finder is an error.
pub fn ccd_margined(kind: CcdKind, t0: &[Point3<f64>; 4], t1: &[Point3<f64>; 4]) -> Result<CcdMargined, PolyError> {
    ccd_with_margin(kind, t0, t1).map(CcdMargined)
}

/// The exact CCD answer of binary64 inputs and how far they are from a change of it.
pub struct CcdMargined(ccd_margin::Margined);

impl CcdMargined {
    /// The margin.
    pub fn margin(&self) -> Margin {
        f64_margin(self.0.margin)
    }
}

/// A disagreement where one path failed (no margin to show).
fn failed(what: &str, exact: String, fast: String) -> Disagreement {
    Disagreement { what: what.into(), exact, fast, margin: String::new() }
}

fn f64_margin(m: f64) -> Margin {
    if m.is_finite() {
        Margin::Finite(Q::from_float(m).unwrap_or_default())
    } else {
        Margin::Unbounded
    }
}

/// [`check_ccd_answer`] with the exact answer and margin computed ([`ccd_margined`]).
pub fn check_ccd_margined(
    m: &CcdMargined,
    kind: CcdKind,
    t0: &[Point3<f64>; 4],
    t1: &[Point3<f64>; 4],
    fast: &Result<super::CcdResult<f64>, crate::poly::PolyError>,
) -> (Margin, Result<Agreement, Disagreement>) {
    let m = &m.0;
    let margin = f64_margin(m.margin);
    let fast = match fast {
        Ok(f) => f,
        Err(e) => return (margin, Err(failed("f64 CCD failed", format!("{:?}", m.exact.toi), e.to_string()))),
    };
    let b = budget::<f64>();
    let valid = |_: &bool, fast_collides: &bool| match fast.toi {
        Some(t) if *fast_collides => valid_contact_at(kind, t0, t1, t),
        _ => true,
    };
    let continuous = match (&m.exact.toi, fast.toi) {
        (Some(e), Some(f)) if margin.exceeds(b) => match toi_check(e, f, m.toi_bound) {
            Ok(c) => c,
            Err(d) => return (margin, Err(d)),
        },
        _ => vec![],
    };
    let verdict = check(&m.exact.collides(), &fast.collides(), &margin, b, valid, &continuous);
    (margin, verdict)
}

/// An `f64` box-sweep answer as the sweep contract sees it: the first time of contact, if
/// any, or the error the `f64` path gave.
pub type FastSweep = Result<Option<f64>, super::SweepError>;

/// Check a given `f64` box-sweep answer (from either route: separating axes or the boundary
/// of the Minkowski sum, on these binary64 boxes, motions and interval) against the exact
/// answer for the same numbers.
///
/// The margin is the exact problem's, not the algorithm's (see `sat_with_margin`: the slack
/// of the exact decisions up to the first contact, and near-grazes); above the budget the
/// answers must agree and the `f64` time be within its bound; within it, an `f64` contact must
/// overlap on every separating axis within twice the tolerance at its time, exactly
/// evaluated, and an `f64` error is admissible.
pub fn check_sweep_answer(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
    fast: FastSweep,
) -> Result<Agreement, Disagreement> {
    check_sweep_answer_margined(a, b, t0, t1, fast).1
}

/// [`check_sweep_answer`] with the exact problem's margin (unbounded when the exact path
/// failed).
pub fn check_sweep_answer_margined(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
    fast: FastSweep,
) -> (Margin, Result<Agreement, Disagreement>) {
    match exact_sweep(a, b, t0, t1) {
        Ok(m) => check_sweep_margined(&SweepMargined(m), a, b, t0, t1, fast),
        Err(d) => (Margin::Unbounded, Err(d)),
    }
}

/// The exact box sweep of binary64 boxes with its margin (see [`check_sweep_answer`]); a
/// failure of the exact path (a limit, a singular motion) is an error.
pub fn sweep_margined(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<SweepMargined, SweepError> {
    box_margin::sat_with_margin(a, b, t0, t1).map(SweepMargined)
}

/// The exact box-sweep answer of binary64 boxes and how far they are from a change of it.
pub struct SweepMargined(box_margin::SweepMargined);

impl SweepMargined {
    /// The margin.
    pub fn margin(&self) -> Margin {
        f64_margin(self.0.margin)
    }
}

/// [`check_sweep_answer`] with the exact answer and margin computed ([`sweep_margined`]).
pub fn check_sweep_margined(
    m: &SweepMargined,
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
    fast: FastSweep,
) -> (Margin, Result<Agreement, Disagreement>) {
    (m.margin(), check_fast_sweep(&m.0, a, b, t0, t1, fast))
}

/// Check both `f64` box-sweep routes, separating axes ([`first_contact_sat`]) and the
/// boundary of the Minkowski sum ([`first_contact_bms`]), against the exact answer under one
/// contract ([`check_sweep_answer`]; the exact answer and its margin are computed once). The
/// agreement is the weaker of the two.
///
/// [`first_contact_sat`]: super::first_contact_sat
/// [`first_contact_bms`]: super::first_contact_bms
pub fn check_sweep_agreement(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<Agreement, Disagreement> {
    let m = exact_sweep(a, b, t0, t1)?;
    let named = |route: &str, d: Disagreement| Disagreement { what: format!("f64 {route}: {}", d.what), ..d };
    let sat = super::first_contact_sat(a, b, &t0, &t1).map(|c| c.map(|c| c.time));
    let sat = check_fast_sweep(&m, a, b, t0, t1, sat).map_err(|d| named("SAT", d))?;
    let bms = super::first_contact_bms(a, b, &t0, &t1).map(|c| c.map(|c| c.time));
    let bms = check_fast_sweep(&m, a, b, t0, t1, bms).map_err(|d| named("BMS", d))?;
    Ok(if sat == bms { sat } else { Agreement::WithinTolerance })
}

/// The exact answer for binary64 boxes and its margin (a failure of the exact path is
/// reported as "exact sweep failed": a typed error such as a singular motion, not a
/// comparison).
fn exact_sweep(
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<box_margin::SweepMargined, Disagreement> {
    box_margin::sat_with_margin(a, b, t0, t1).map_err(|e| Disagreement {
        what: "exact sweep failed".into(),
        exact: e.to_string(),
        fast: String::new(),
        margin: String::new(),
    })
}

fn check_fast_sweep(
    m: &box_margin::SweepMargined,
    a: &super::BoxMotion<f64>,
    b: &super::BoxMotion<f64>,
    t0: f64,
    t1: f64,
    fast: FastSweep,
) -> Result<Agreement, Disagreement> {
    let fast_time = match fast {
        Ok(f) => f,
        // A motion singular within tolerance, say: admissible only within the budget.
        Err(e) if !m.margin.is_finite() || m.margin > budget::<f64>() => {
            let exact = format!("{:?}", m.exact.as_ref().map(|c| c.time.to_f64()));
            return Err(failed("f64 sweep failed", exact, e.to_string()));
        }
        Err(_) => return Ok(Agreement::WithinTolerance),
    };
    let margin = if m.margin.is_finite() {
        Margin::Finite(Q::from_float(m.margin).unwrap_or_default())
    } else {
        Margin::Unbounded
    };
    let b64 = budget::<f64>();
    let valid = |_: &bool, fast_collides: &bool| match fast_time {
        Some(t) if *fast_collides => box_margin::valid_contact_at(a, b, t0, t1, t),
        _ => true,
    };
    let continuous = match (&m.exact, fast_time) {
        (Some(e), Some(f)) if margin.exceeds(b64) => toi_check(&e.time, f, m.toi_bound)?,
        _ => vec![],
    };
    check(&m.exact.is_some(), &fast_time.is_some(), &margin, b64, valid, &continuous)
}
