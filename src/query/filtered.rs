//! The exact answer at floating-point speed where the input allows: a query runs first on
//! binary64 values with error bounds ([`MidRad`]: the float run's own values, each with a
//! rigorous bound carried along, every decision certain or [`Uncertain`]), then, when some
//! decision was too close for those bounds, on the interval backend ([`Interval`]: tighter,
//! dearer), and only when that too could not call a decision, or the op has no construction
//! from a filter run, on the fast exact backend ([`Exact`]).
//!
//! A filter run that decided everything took, decision for decision, the path the exact run
//! takes (a filter's decision is the exact one or `Uncertain`, and the algorithms branch on
//! decisions only). So its discrete answer (status, features, steps, collides) *is* the
//! exact one, and what remains is to construct the exact values (a squared distance, points,
//! a time) once, from what it decided: [`Query::exact_from_filter`]. Ops without such a
//! construction (the kernel ops, whose outputs are exact values through and through) run on
//! [`Exact`] directly.
//!
//! The answers equal the reference's ([`BigRational`], `"backend": "exact-unfiltered"`) on
//! every input: the tests compare them on every degenerate generator, and
//! [`filter_counts`] tells how often the filter decided.
//!
//! [`Uncertain`]: crate::scalar::Uncertain

use std::cell::Cell;

use num_rational::BigRational;

use super::error::ErrorKind;
use super::{Answer, Bounded, Decisive, Query, QueryError, Tolerance, Verdict};
use crate::geom::{Point3, Scaled};
use crate::poly::FilterScalar;
use crate::scalar::{Exact, Interval, MidRad};

thread_local! {
    static COUNTS: Cell<FilterCounts> =
        const { Cell::new(FilterCounts { decided: 0, cheap: 0, fallbacks: 0, direct: 0, enclosed: 0, agreed: 0 }) };
}

/// How the exact answers of this thread were obtained (see [`filter_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterCounts {
    /// Answered from a filter run that decided everything (either stage), exact values
    /// constructed after.
    pub decided: u64,
    /// Of those, decided by the first stage, the values with bounds ([`MidRad`]); the rest
    /// needed the interval run.
    pub cheap: u64,
    /// Both filter runs uncertain (or failed): rerun on the fast exact backend.
    pub fallbacks: u64,
    /// Ops without a filter construction, run on the fast exact backend directly.
    pub direct: u64,
    /// Claims judged on an interval run's enclosures, no exact answer constructed
    /// ([`judge_claim`]).
    pub enclosed: u64,
    /// Agreement verdicts settled on a run on values with bounds, no exact run
    /// ([`agrees`](super::agrees)).
    pub agreed: u64,
}

/// The counts of this thread's filtered exact answers so far (tests and benches read them:
/// degenerate inputs fall back, generic ones should not).
pub fn filter_counts() -> FilterCounts {
    COUNTS.with(|c| c.get())
}

pub(super) fn count(f: impl FnOnce(&mut FilterCounts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

/// The exact answer of `q` by the filtered path: the same answer as
/// `q.answer::<BigRational>()` (the reference), usually much faster.
///
/// The answer's [`Decisive`] tests and [`Bounded`] outputs are those of the run that produced
/// it (the filtered path records none when it constructs from intervals): the agreement
/// contract ([`super::both`]) takes its margin from the reference run.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::query::{exact_answer, Distance, PoseSpec, Posed, Query, ShapeSpec};
/// use touchstone::scalar::Scalar;
///
/// let unit = || ShapeSpec::cuboid([1, 1, 1].map(BigRational::from_i64)).unwrap();
/// let far = PoseSpec::quaternion([1, 0, 0, 0].map(BigRational::from_i64), [3, 0, 0].map(BigRational::from_i64)).unwrap();
/// let q = Distance { a: Posed::new("a", unit(), PoseSpec::default()), b: Posed::new("b", unit(), far) };
/// let filtered = exact_answer(&q).unwrap();
/// assert_eq!(filtered.output, q.answer::<BigRational>().unwrap().output);
/// assert_eq!(filtered.output.distance_squared, BigRational::from_i64(1));
/// ```
pub fn exact_answer<Q: Query>(q: &Q) -> Result<Answer<BigRational, Q>, QueryError> {
    if !Q::FILTERED {
        count(|c| c.direct += 1);
        return q.answer::<Exact>().map(|a| reference(a));
    }
    if let Some(decided) = filter_run::<MidRad, Q>(q)? {
        if let Some(exact) = constructed(q, &decided)? {
            count(|c| {
                c.decided += 1;
                c.cheap += 1;
            });
            return Ok(exact);
        }
    }
    exact_from(q, interval_run(q)?)
}

/// A filter run of a filtered op: `None` when the op is not filtered or the run failed (an
/// uncertain decision: the next stage answers), the error when the query's budget ran out
/// (time, steps, memory: spent for the exact run too).
fn filter_run<F: FilterScalar, Q: Query>(q: &Q) -> Result<Option<Answer<F, Q>>, QueryError> {
    if !Q::FILTERED {
        return Ok(None);
    }
    match q.answer::<F>() {
        Ok(a) => Ok(Some(a)),
        Err(e) if e.kind == ErrorKind::Limit => Err(e),
        Err(_) => Ok(None),
    }
}

/// The interval run of a filtered op (see [`filter_run`]).
fn interval_run<Q: Query>(q: &Q) -> Result<Option<Answer<Interval, Q>>, QueryError> {
    filter_run::<Interval, Q>(q)
}

/// The exact answer constructed from a decided filter run; `None` when the op constructs
/// nothing from it or the construction failed other than by a limit (the next stage answers).
fn constructed<F: FilterScalar, Q: Query>(
    q: &Q,
    decided: &Answer<F, Q>,
) -> Result<Option<Answer<BigRational, Q>>, QueryError> {
    match q.exact_from_filter(decided) {
        Some(Ok(a)) => Ok(Some(reference(a))),
        // A spent budget stops here; anything else is answered by the next stage.
        Some(Err(e)) if e.kind == ErrorKind::Limit => Err(e),
        _ => Ok(None),
    }
}

/// The exact answer from the interval run `decided` (`None`: it failed or the op is not
/// filtered).
fn exact_from<Q: Query>(q: &Q, decided: Option<Answer<Interval, Q>>) -> Result<Answer<BigRational, Q>, QueryError> {
    if !Q::FILTERED {
        count(|c| c.direct += 1);
        return q.answer::<Exact>().map(|a| reference(a));
    }
    if let Some(decided) = decided {
        if let Some(exact) = constructed(q, &decided)? {
            count(|c| c.decided += 1);
            return Ok(exact);
        }
    }
    // Uncertain, or an error (rerun for the exact error and its message), or no construction.
    count(|c| c.fallbacks += 1);
    q.answer::<Exact>().map(|a| reference(a))
}

/// A claim judged by [`judge_claim`].
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    /// Decided on an interval run's enclosures: whether the claim passes, and the claimed
    /// fields that fail (in the op's order). No exact value was constructed.
    Enclosed {
        /// Whether every claimed field passes.
        ok: bool,
        /// The fields that fail.
        failed: Vec<String>,
    },
    /// Judged against the exact answer ([`Query::judge`]), with every check shown.
    Exact(Verdict),
}

impl Judged {
    /// Whether the claim passes.
    pub fn ok(&self) -> bool {
        match self {
            Judged::Enclosed { ok, .. } => *ok,
            Judged::Exact(v) => v.ok(),
        }
    }
}

/// Judge a claim by the filtered path, deciding on enclosures when it can: the interval run
/// first; when it decided every decision and every claimed field is decided by its discrete
/// answer and its enclosures ([`Query::judge_enclosed`]), that is the judgement, and no exact
/// value is constructed; otherwise the claim is judged against the exact answer
/// ([`exact_answer`], reusing the interval run) with every check shown. The pass/fail is the
/// same either way (`tests/filtered.rs` compares them); what an enclosed judgement saves is
/// the construction, several times the interval run's own cost for `distance`.
///
/// This is what a check of many answers needs (`check-engine`); an oracle line with a claim
/// shows the exact answer anyway and judges against it.
///
/// Errors: as [`exact_answer`], unless [`Query::judge_error`] judges the claim against the
/// error.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::query::{judge_claim, Distance, DistanceClaim, Judged, PoseSpec, Posed, ShapeSpec, Tolerance};
/// use touchstone::scalar::{ratio, Scalar};
///
/// let unit = || ShapeSpec::cuboid([1, 1, 1].map(BigRational::from_i64)).unwrap();
/// let far = PoseSpec::quaternion([2, 1, 0, 0].map(BigRational::from_i64), [5, 1, 0].map(BigRational::from_i64)).unwrap();
/// let q = Distance { a: Posed::new("a", unit(), PoseSpec::default()), b: Posed::new("b", unit(), far) };
/// // An engine said 3.586 (the exact distance is 5 − 1 − √2 = 2.5857…).
/// let claim = DistanceClaim { distance: Some(ratio(3586, 1000)), ..Default::default() };
/// let judged = judge_claim(&q, &claim, &Tolerance::default(), 12).unwrap();
/// assert_eq!(judged, Judged::Enclosed { ok: false, failed: vec!["distance".into()] });
/// ```
pub fn judge_claim<Q: Query>(q: &Q, claim: &Q::Claim, tol: &Tolerance, digits: u32) -> Result<Judged, QueryError> {
    let decided = interval_run(q)?;
    if let Some(checks) = decided.as_ref().and_then(|d| q.judge_enclosed(d, claim, tol)) {
        count(|c| c.enclosed += 1);
        let failed: Vec<String> = checks.into_iter().filter(|(_, ok)| !ok).map(|(f, _)| f).collect();
        return Ok(Judged::Enclosed { ok: failed.is_empty(), failed });
    }
    match exact_from(q, decided) {
        Ok(exact) => Ok(Judged::Exact(q.judge(&exact, claim, tol, digits)?)),
        Err(e) => q.judge_error(&e, claim).map(Judged::Exact).ok_or(e),
    }
}

/// An answer on the fast exact backend as the reference's (the same values).
pub(super) fn reference<Q: Query>(a: Answer<Exact, Q>) -> Answer<BigRational, Q> {
    let scaled =
        |s: Scaled<Exact>| Scaled { value: s.value.to_big_rational(), magnitude: s.magnitude.to_big_rational() };
    Answer {
        output: Q::reference(a.output),
        decisive: a
            .decisive
            .into_iter()
            .map(|d| match d {
                Decisive::Test(s) => Decisive::Test(scaled(s)),
                Decisive::AllOf(v) => Decisive::AllOf(v.into_iter().map(scaled).collect()),
            })
            .collect(),
        continuous: a
            .continuous
            .into_iter()
            .map(|b| Bounded::new(b.field, b.value.to_big_rational(), b.magnitude.to_big_rational()))
            .collect(),
    }
}

/// A point of the fast exact backend as the reference's.
pub(crate) fn point_reference(p: Point3<Exact>) -> Point3<BigRational> {
    Point3::from(Exact::to_big_rationals([&p.x, &p.y, &p.z]))
}

/// A value of the fast exact backend as the reference's.
pub(crate) fn value_reference(x: Exact) -> BigRational {
    x.to_big_rational()
}
