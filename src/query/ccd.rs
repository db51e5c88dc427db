//! `ccd`: the first time of contact of two linearly moving primitives.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::QueryError;
use super::spec::to_backend;
use super::{Answer, Query};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::Point3;
use crate::poly::{FilterScalar, RootScalar};
use crate::scalar::{Exact, Interval, Scalar};
use crate::sweep::ccd::{ccd_sourced, exact_time, TimeSource};
#[allow(unused_imports)] // named in the docs
use crate::sweep::contract::check_ccd_answer;
use crate::sweep::contract::{ccd_margined, check_ccd_margined};
use crate::sweep::{CcdKind, CcdResult};

/// `ccd`: whether a vertex meets a triangle, or an edge an edge, for some t ∈ [0, 1] (closed
/// primitives, closed interval: the public CCD benchmark's convention), under linear motion
/// from `t0` to `t1`, and the first such time.
#[derive(Clone, Debug, PartialEq)]
pub struct Ccd<N: Scalar = BigRational> {
    /// Vertex–face (v, f0, f1, f2) or edge–edge (a0, a1, b0, b1).
    pub kind: CcdKind,
    /// The four points at t = 0.
    pub t0: [Point3<N>; 4],
    /// The four points at t = 1.
    pub t1: [Point3<N>; 4],
}

/// The answer of [`Ccd`].
#[derive(Clone, Debug)]
pub struct CcdOutput<S: RootScalar> {
    /// Whether they meet.
    pub collides: bool,
    /// The first time of contact.
    pub toi: Option<S::Time>,
    /// Which polynomial `toi` is a root of (how a run on intervals names its exact time; not
    /// part of the answer, ignored by `==`).
    source: Option<TimeSource>,
}

impl<S: RootScalar> PartialEq for CcdOutput<S> {
    fn eq(&self, other: &Self) -> bool {
        self.collides == other.collides && self.toi == other.toi
    }
}

/// A claim on [`Ccd`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CcdClaim {
    /// The claimed collision.
    pub collides: Option<bool>,
    /// The claimed first time of contact.
    pub toi: Option<BigRational>,
}

impl<N: Scalar> Ccd<N> {
    fn rounded(&self) -> ([Point3<f64>; 4], [Point3<f64>; 4]) {
        (self.t0.each_ref().map(to_backend), self.t1.each_ref().map(to_backend))
    }
}

impl<N: Scalar> Query for Ccd<N> {
    const OP: &'static str = "ccd";
    type Output<S: RootScalar> = CcdOutput<S>;
    type Discrete = bool;

    /// A miss decided on intervals is the exact answer; a hit's exact time is the root, in the
    /// run's enclosure, of the exact polynomial the run's time is a root of
    /// (`exact_time` of the CCD module).
    const FILTERED: bool = true;

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let out = &decided.output;
        let (Some(enclosure), Some(source)) = (&out.toi, out.source) else {
            return (!out.collides).then(|| Ok(Answer::plain(CcdOutput { collides: false, toi: None, source: None })));
        };
        let (t0, t1) = (self.t0.each_ref().map(to_backend::<Exact>), self.t1.each_ref().map(to_backend::<Exact>));
        Some(
            exact_time(self.kind, &t0, &t1, source, enclosure)
                .map(|t| Answer::plain(CcdOutput { collides: true, toi: Some(t), source: Some(source) }))
                .map_err(|e| QueryError::poly("", e)),
        )
    }

    fn reference(o: CcdOutput<Exact>) -> CcdOutput<BigRational> {
        CcdOutput { collides: o.collides, toi: o.toi, source: o.source }
    }
    type Claim = CcdClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (t0, t1) = (self.t0.each_ref().map(to_backend::<S>), self.t1.each_ref().map(to_backend::<S>));
        let (r, source) = ccd_sourced(self.kind, &t0, &t1).map_err(|e| QueryError::poly("", e))?;
        Ok(Answer::plain(CcdOutput { collides: r.collides(), toi: r.toi, source }))
    }

    fn discrete<S: RootScalar>(o: &CcdOutput<S>) -> bool {
        o.collides
    }

    fn valid_within_tolerance(exact: &bool, fast: &bool) -> bool {
        exact == fast
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(collides: equal |b: &bool| Shown::Bool(*b), |out| out.collides; enclosed equal |out| out.collides),
        judged!(toi: |_, exact, x, _, tol, digits| {
            Ok(vec![toi_check(x, &exact.output.toi, tol, digits, "the primitives do not meet in [0, 1]")])
        }; enclosed |_, decided, x, _, tol| toi_enclosed(x, &decided.output.toi, tol)),
    ];

    /// The CCD contract's margin ([`check_ccd_answer`]) of the binary64 roundings of the input
    /// (what the `f64` path answers).
    fn margin(&self, _: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        let (t0, t1) = self.rounded();
        Ok(ccd_margined(self.kind, &t0, &t1).map_err(|e| QueryError::poly("", e))?.margin())
    }

    /// The CCD contract ([`check_ccd_answer`]), on the binary64 roundings of the input: the
    /// `f64` path answers those, the exact one answers the input as given.
    fn agreement(
        &self,
        _: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let (t0, t1) = self.rounded();
        let m = ccd_margined(self.kind, &t0, &t1).map_err(|e| QueryError::poly("", e))?;
        let fast = match fast {
            Ok(a) => Ok(CcdResult { toi: a.output.toi }),
            Err(e) => Err(crate::poly::PolyError::NotFinite(if e.kind == super::ErrorKind::Overflow {
                "an f64 value (overflow)"
            } else {
                "the f64 answer"
            })),
        };
        Ok(check_ccd_margined(&m, self.kind, &t0, &t1, &fast))
    }
}

/// The check of a claimed first time of contact `x` against the exact one (`miss` is the
/// note when there is none): `toi` of `ccd`, `toi` and `toi_boxes`.
pub(super) fn toi_check(
    x: &BigRational,
    exact_toi: &Option<crate::poly::Algebraic>,
    tol: &Tolerance,
    digits: u32,
    miss: &str,
) -> Check {
    match exact_toi {
        Some(t) => Check::algebraic("toi", x, t, tol, digits),
        None => Check::equal("toi", Shown::Rational(x.clone()), Shown::Absent).with_note(miss),
    }
}

/// [`toi_check`] on a decided interval run: on the enclosure of the exact time (`None` when it
/// reaches across the tolerance's edge).
pub(super) fn toi_enclosed(x: &BigRational, decided_toi: &Option<Interval>, tol: &Tolerance) -> Option<bool> {
    match decided_toi {
        Some(t) => tol.admits_enclosed(x, t),
        None => Some(false),
    }
}
