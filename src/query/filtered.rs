//! The exact answer at floating-point speed where the input allows: a query runs first on the
//! interval backend ([`Interval`]: every decision certain or [`Uncertain`]), and only when
//! some decision was too close to call, or the op has no construction from a filter run, on
//! the fast exact backend ([`Exact`]).
//!
//! A run on intervals that decided everything took, decision for decision, the path the exact
//! run takes (an interval decision is the exact one or `Uncertain`, and the algorithms branch
//! on decisions only). So its discrete answer (status, features, steps, collides) *is* the
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
use super::{Answer, Bounded, Decisive, Query, QueryError};
use crate::geom::{Point3, Scaled};
use crate::scalar::{Exact, Interval};

thread_local! {
    static COUNTS: Cell<FilterCounts> = const { Cell::new(FilterCounts { decided: 0, fallbacks: 0, direct: 0 }) };
}

/// How the exact answers of this thread were obtained (see [`filter_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterCounts {
    /// Answered from an interval run that decided everything, exact values constructed after.
    pub decided: u64,
    /// Interval run uncertain (or failed): rerun on the fast exact backend.
    pub fallbacks: u64,
    /// Ops without a filter construction, run on the fast exact backend directly.
    pub direct: u64,
}

/// The counts of this thread's filtered exact answers so far (tests and benches read them:
/// degenerate inputs fall back, generic ones should not).
pub fn filter_counts() -> FilterCounts {
    COUNTS.with(|c| c.get())
}

fn count(f: impl FnOnce(&mut FilterCounts)) {
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
    if let Ok(decided) = q.answer::<Interval>() {
        if let Some(exact) = q.exact_from_filter(&decided) {
            match exact {
                Ok(a) => {
                    count(|c| c.decided += 1);
                    return Ok(reference(a));
                }
                // A spent budget stops here; anything else is answered by the full run.
                Err(e) if e.kind == ErrorKind::Limit => return Err(e),
                Err(_) => {}
            }
        }
    }
    // Uncertain, or an error (rerun for the exact error and its message), or no construction.
    count(|c| c.fallbacks += 1);
    q.answer::<Exact>().map(|a| reference(a))
}

/// An answer on the fast exact backend as the reference's (the same values).
fn reference<Q: Query>(a: Answer<Exact, Q>) -> Answer<BigRational, Q> {
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
    p.map(|c| c.to_big_rational())
}

/// A value of the fast exact backend as the reference's.
pub(crate) fn value_reference(x: Exact) -> BigRational {
    x.to_big_rational()
}
