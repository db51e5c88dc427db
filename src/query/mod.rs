//! The query layer: the stable entry points, one per operation of the oracle's format, each
//! answerable on any backend, with typed answers, the decisions behind them, and claim checks.
//!
//! A query is a typed input built from exact numbers ([`spec`]); [`Query::answer`] answers it on
//! a backend `S` ([`RootScalar`]: `BigRational` exactly, `f64` fast, intervals with certain
//! decisions) and returns an [`Answer`]: the op's typed output, the sign tests that decided its
//! discrete part ([`Decisive`], whose smallest relative size is the answer's *margin*), and its
//! continuous outputs with the magnitudes that bound their error ([`Bounded`]). From these:
//!
//! * [`both`] runs the exact and the `f64` path and checks them under the agreement contract
//!   ([`crate::contract`]);
//! * [`Query::judge`] checks another engine's answer (a *claim*) against the exact one
//!   ([`claim`]).
//!
//! The command-line oracle turns JSON into these queries and answers into JSON, nothing more.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::point;
//! use touchstone::predicates::Orientation;
//! use touchstone::query::{Orient3d, Orient3dClaim, Query, Tolerance};
//!
//! let q = Orient3d { points: [point::<BigRational>(0, 0, 0), point(1, 0, 0), point(0, 1, 0), point(1, 1, 0)] };
//! let exact = q.answer::<BigRational>().unwrap();
//! assert_eq!(exact.output.orientation, Orientation::Coplanar);
//! // An engine that says "positive" is wrong; one that says "coplanar" is right.
//! let wrong = Orient3dClaim { orientation: Some(Orientation::Positive), determinant: None };
//! assert!(!q.judge(&exact, &wrong, &Tolerance::default(), 20).unwrap().ok());
//! let right = Orient3dClaim { orientation: Some(Orientation::Coplanar), determinant: None };
//! assert!(q.judge(&exact, &right, &Tolerance::default(), 20).unwrap().ok());
//! // The f64 path runs the same code. The determinant is exactly zero, so the margin is 0:
//! // f64 may only answer coplanar or be within tolerance (it answers coplanar).
//! let b = touchstone::query::both(&q).unwrap();
//! assert_eq!(b.agreement, Ok(touchstone::contract::Agreement::WithinTolerance));
//! ```

/// A row of an op's claim table ([`Query::CLAIM_RULES`]) for the claim's member `$field`, which
/// names the field (the format's name too). The claimed value is bound to the given name
/// when the claim states the field (a row of an unstated field gives no check). Forms:
///
/// * `judged!(f: equal SHOW, |out| EXACT)`: the claimed value equals the exact answer's,
///   compared and shown through `SHOW(&value) -> Shown`;
/// * `judged!(f: number, |out| EXACT)`: a number within the tolerance of the exact `EXACT`;
/// * `judged!(f: |q, exact, x, claim, tol, digits| CHECKS)`: any checks, `Result<Vec<Check>, _>`.
///
/// Each may end in `; enclosed |q, decided, x, claim, tol| PASSES`, whether the field passes
/// on a decided interval run (`Option<bool>`, `None` when the run's enclosures cannot tell);
/// `equal` and `number` rows have `; enclosed equal |out| DECIDED` and `; enclosed number
/// |out| ENCLOSURE`. A row without it cannot be judged on enclosures.
macro_rules! judged {
    ($field:ident: equal $show:expr, |$out:ident| $exact:expr $(; enclosed equal |$dout:ident| $decided:expr)?) => {
        judged!($field: |_, answer, x, _, _, _| {
            let show = $show;
            let $out = &answer.output;
            Ok(vec![$crate::query::Check::equal(stringify!($field), show(x), show(&$exact))])
        } $(; enclosed |_, decided, x, _, _| {
            let $dout = &decided.output;
            Some(*x == $decided)
        })?)
    };
    ($field:ident: number, |$out:ident| $exact:expr $(; enclosed number |$dout:ident| $decided:expr)?) => {
        judged!($field: |_, answer, x, _, tol, _| {
            let $out = &answer.output;
            Ok(vec![$crate::query::Check::number(stringify!($field), x, &$exact, tol)])
        } $(; enclosed |_, decided, x, _, tol| {
            let $dout = &decided.output;
            tol.admits_enclosed(x, &$decided)
        })?)
    };
    ($field:ident: |$q:tt, $exact:tt, $x:tt, $claim:tt, $tol:tt, $digits:tt| $judge:expr
        $(; enclosed |$eq:tt, $decided:tt, $ex:tt, $eclaim:tt, $etol:tt| $enclosed:expr)?) => {
        $crate::query::ClaimRule {
            name: stringify!($field),
            stated: |claim| claim.$field.is_some(),
            judge: |$q, $exact, claim, $tol, $digits| {
                let $claim = claim;
                match &claim.$field {
                    Some($x) => $judge,
                    None => Ok(Vec::new()),
                }
            },
            enclosed: judged!(@enclosed $field $(|$eq, $decided, $ex, $eclaim, $etol| $enclosed)?),
        }
    };
    (@enclosed $field:ident) => { None };
    (@enclosed $field:ident |$eq:tt, $decided:tt, $ex:tt, $eclaim:tt, $etol:tt| $enclosed:expr) => {
        Some(|$eq, $decided, claim, $etol| {
            let $eclaim = claim;
            match &claim.$field {
                Some($ex) => $enclosed,
                None => Some(true),
            }
        })
    };
}

mod agree;
mod ccd;
pub mod claim;
mod classify;
mod contact;
mod curved;
mod cylinder;
mod depth;
mod distance;
pub mod error;
mod filtered;
mod forces;
mod index;
mod kernel;
pub mod memo;
mod round;
pub mod spec;
mod toi;
mod toi_boxes;
mod toi_round;
mod torus;
mod validate;

use std::fmt::Debug;

use num_rational::BigRational;

use crate::contract::{self, Agreement, Continuous, Disagreement, Margin};
use crate::geom::Scaled;
use crate::poly::{FilterScalar, RootScalar};
use crate::scalar::{Exact, ExactValues, Interval, Scalar};

pub use agree::{agrees, default_agreement_decided};
pub use ccd::{Ccd, CcdClaim, CcdOutput};
pub use claim::{Check, ClaimRule, Shown, Tolerance, Verdict};
pub use classify::{ClassifyPoint, ClassifyPointClaim, ClassifyPointOutput};
pub use contact::{
    contact_status_name, ClaimedRegion, Contact, ContactClaim, ContactOutput, ContactRegion, PreviousContact, Velocity,
};
pub use curved::{
    bezier_of, bounds_text, default_precision, distance_bounds, implicit_of, precision_bits, CurvedKind,
    DistanceCurved, DistanceCurvedClaim, DistanceCurvedOutput,
};
pub use cylinder::{
    cylinder_feature_name, cylinder_separation_along, cylinder_signed_distance, DistanceCylinder,
    DistanceCylinderClaim, DistanceCylinderOutput,
};
pub use depth::{penetration_depth, separation_along, Penetration};
pub use distance::{Distance, DistanceClaim, DistanceOutput};
pub use error::{ErrorKind, QueryError};
pub use filtered::{exact_answer, filter_counts, judge_claim, FilterCounts, Judged};
pub use forces::{
    BodySpec, ContactForces, ContactForcesClaim, ContactForcesOutput, ContactSpec, ForcesDiscrete, RegionSpec,
};
pub use index::PointClass;
pub use index::{
    ClaimedPiece, ClassifySegment, ClassifySegmentClaim, ClassifySegmentOutput, IndexStats, IndexStatsClaim,
    IndexStatsOutput, Piece,
};
pub use kernel::{
    Closest, Orient2d, Orient2dOutput, Orient3d, Orient3dClaim, Orient3dOutput, SegmentPlane, SegmentPlaneClaim,
    SegmentPlaneKind, SegmentPlaneOutput, SideOfPlane, SideOfPlaneClaim, SideOfPlaneOutput, SquaredDistance,
    SquaredDistanceClaim, SquaredDistanceOutput, Target, TransformPoints, TransformPointsClaim, TransformPointsOutput,
};
pub use memo::{clear_memo, memo_len, shared_solid, SharedSolid};
pub use round::{round_separation_along, DistanceRound, DistanceRoundClaim, DistanceRoundOutput};
pub use spec::{posed_solid, BuiltSolid, FeatureId, PlaneSpec, PoseSpec, Posed, ShapeSpec, SolidPosed};
pub use toi::{Toi, ToiClaim, ToiOutput};
pub use toi_boxes::{box_feature_id, AtStart, ToiBoxes, ToiBoxesClaim, ToiBoxesOutput};
pub use toi_round::{ToiRound, ToiRoundClaim, ToiRoundOutput};
pub use torus::{
    is_torus, DistanceTorus, DistanceTorusClaim, DistanceTorusOutput, ToiTorus, ToiTorusClaim, ToiTorusOutput,
    TorusFeature,
};
pub use validate::{SolidReport, Validate, ValidateClaim};

/// A sign test that decided a discrete answer, or a degeneracy test.
#[derive(Clone, Debug, PartialEq)]
pub enum Decisive<S> {
    /// One sign test: its value and the magnitude of the expression.
    Test(Scaled<S>),
    /// A test that is degenerate only when every part is zero (e.g. a zero cross product): its
    /// margin is the largest part's.
    AllOf(Vec<Scaled<S>>),
}

/// A continuous output with the magnitude that bounds a tolerant backend's error on it: the
/// fast value must lie within `relative tolerance × magnitude` of the exact one.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounded<S> {
    /// The output field (`"distance_squared"`, `"points/0/2"`).
    pub field: String,
    /// The value.
    pub value: S,
    /// The magnitude of its expression.
    pub magnitude: S,
}

impl<S> Bounded<S> {
    /// A bounded output.
    pub fn new(field: impl Into<String>, value: S, magnitude: S) -> Self {
        Bounded { field: field.into(), value, magnitude }
    }
}

/// The answer of a query on backend `S`.
pub struct Answer<S: RootScalar, Q: Query> {
    /// The op's output.
    pub output: Q::Output<S>,
    /// The sign tests that decided the discrete part.
    pub decisive: Vec<Decisive<S>>,
    /// The continuous outputs and their error magnitudes.
    pub continuous: Vec<Bounded<S>>,
}

impl<S: RootScalar, Q: Query> Clone for Answer<S, Q> {
    fn clone(&self) -> Self {
        Answer { output: self.output.clone(), decisive: self.decisive.clone(), continuous: self.continuous.clone() }
    }
}

impl<S: RootScalar, Q: Query> Debug for Answer<S, Q> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("output", &self.output)
            .field("decisive", &self.decisive)
            .field("continuous", &self.continuous)
            .finish()
    }
}

impl<S: RootScalar, Q: Query> Answer<S, Q> {
    /// An answer with no recorded decisions (the op's own contract decides, see
    /// [`Query::agreement`]).
    pub fn plain(output: Q::Output<S>) -> Self {
        Answer { output, decisive: Vec::new(), continuous: Vec::new() }
    }
}

/// One operation of the format, as a typed query.
pub trait Query: Sized + 'static {
    /// The op's name in the format.
    const OP: &'static str;
    /// The output on backend `S`.
    type Output<S: RootScalar>: Clone + Debug;
    /// The discrete part of the output, compared between backends.
    type Discrete: PartialEq + Debug;
    /// A claim: the output fields another engine may state (each optional).
    type Claim: Clone + Debug + Default + 'static;

    /// Answer on backend `S`: [`Query::compute`], and on a backend without exact values every
    /// continuous output checked finite (an infinity or a NaN is an [`ErrorKind::Overflow`]
    /// at `/backend`, never a silent non-number).
    fn answer<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let a = self.compute::<S>()?;
        if !S::EXACT_VALUES && a.continuous.iter().any(|b| !b.value.finite() || !b.magnitude.finite()) {
            return Err(QueryError::uncertain("", crate::scalar::Uncertain::Overflow));
        }
        Ok(a)
    }

    /// The answer on backend `S`, as computed (callers use [`Query::answer`]).
    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError>;

    /// Whether the filtered exact path ([`exact_answer`]) runs this op on the filter backends
    /// first (values with bounds, then intervals) and constructs the exact answer from a run
    /// that decided ([`Query::exact_from_filter`]); `false`: the op runs on the fast exact
    /// backend directly.
    const FILTERED: bool = false;

    /// The exact answer, on the fast exact backend, from a filter run (on [`MidRad`] or
    /// [`Interval`]: any [`FilterScalar`]) that decided every decision (so took the exact
    /// run's path): its discrete part as decided, its exact values constructed once. `None`:
    /// construct nothing (the query then runs on the fast exact backend); an error other than
    /// a limit also falls back to that run.
    ///
    /// [`MidRad`]: crate::scalar::MidRad
    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let _ = decided;
        None
    }

    /// An output of the fast exact backend as the reference backend's (the same values).
    fn reference(output: Self::Output<Exact>) -> Self::Output<BigRational>;

    /// The discrete part of an output.
    fn discrete<S: RootScalar>(output: &Self::Output<S>) -> Self::Discrete;

    /// Whether `fast` is admissible when the input is within the fast budget of a change.
    fn valid_within_tolerance(exact: &Self::Discrete, fast: &Self::Discrete) -> bool;

    /// The claimable fields, each declared once: its name (the claim's member), its checks
    /// against the exact answer and, where the op can, its judgement on enclosures. Made by
    /// `judged!` rows; [`Query::judge`] and [`Query::judge_enclosed`] come from it, in its order.
    const CLAIM_RULES: &'static [ClaimRule<Self>];

    /// Judge a claim against the exact answer; `digits` for shown decimals: each stated field's
    /// checks, in the table's order ([`Query::CLAIM_RULES`]).
    ///
    /// Errors: a check needed a computation that failed (a limit, or a claimed feature the
    /// shape does not have).
    fn judge(
        &self,
        exact: &Answer<BigRational, Self>,
        claim: &Self::Claim,
        tol: &Tolerance,
        digits: u32,
    ) -> Result<Verdict, QueryError> {
        let mut v = Verdict::default();
        for rule in Self::CLAIM_RULES {
            v.checks.extend((rule.judge)(self, exact, claim, tol, digits)?);
        }
        Ok(v)
    }

    /// Judge a claim on a run on intervals that decided every decision (the first stage of
    /// [`exact_answer`]), without constructing the exact answer: per claimed field, whether it
    /// passes, decided by the run's discrete answer (the exact one) and its enclosures of the
    /// exact values. `None` when some stated field is not decided that way (a number whose
    /// enclosure reaches across the tolerance's edge, a claimed feature other than the decided
    /// one, which may be a tie only the exact check can tell), or has no rule for it, and for
    /// an op none of whose fields is judged on enclosures.
    fn judge_enclosed(
        &self,
        decided: &Answer<Interval, Self>,
        claim: &Self::Claim,
        tol: &Tolerance,
    ) -> Option<Vec<(String, bool)>> {
        if Self::CLAIM_RULES.iter().all(|r| r.enclosed.is_none()) {
            return None;
        }
        let mut v = Vec::new();
        for rule in Self::CLAIM_RULES.iter().filter(|r| (r.stated)(claim)) {
            v.push((rule.name.to_string(), (rule.enclosed?)(self, decided, claim, tol)?));
        }
        Some(v)
    }

    /// Judge a claim when the exact path refused the input with `error` (`None`: the error
    /// stands; `validate` judges a claimed `valid` against an invalid solid).
    fn judge_error(&self, error: &QueryError, claim: &Self::Claim) -> Option<Verdict> {
        let _ = (error, claim);
        None
    }

    /// The margin of the exact answer: how far, relatively, the input is from a configuration
    /// where its discrete part would change (the agreement contract's margin). The default is
    /// the least over the answer's [`Decisive`] tests. Ops override it where their decisions
    /// are not all recorded there: `distance` adds the posed shapes' own tests; `ccd` and
    /// `toi_boxes`, whose decisions are about times (roots, their order, grazes), compute it
    /// by their contracts (slack at every candidate time up to the first contact).
    ///
    /// Errors: a limit of the exact computation behind the margin.
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        Ok(margin_of(&exact.decisive))
    }

    /// Check the `f64` answer (or its error) against the exact one under the agreement
    /// contract, with the margin. The default takes [`Query::margin`] and compares the
    /// [`Bounded`] outputs by field name.
    ///
    /// Errors: the contract could not be evaluated (a limit of its exact computations): that
    /// is no disagreement, and no agreement either.
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        Ok(agreement_at(self.margin(exact)?, exact, fast))
    }

    /// Whether [`agrees`] may settle this op's contract on a decided run on values with bounds
    /// by [`default_agreement_decided`]: true for ops whose contract passes every pair of equal
    /// discrete answers with continuous outputs in their bounds (the default [`Query::agreement`]
    /// and `validate`'s), and whose runs on a filter compute the same discrete answer and the
    /// same continuous outputs as the exact run.
    const AGREES_ON_FILTER: bool = false;

    /// The contract's verdict from a run on values with bounds that decided every decision
    /// (its discrete answer is the exact one), where that settles it ([`agrees`]): `None` sends
    /// the query to [`Query::agreement`] on the exact answer. The default is
    /// [`default_agreement_decided`] for ops with [`Query::AGREES_ON_FILTER`], else `None`.
    fn agreement_decided(
        &self,
        decided: &Answer<crate::scalar::MidRad, Self>,
        fast: &Answer<f64, Self>,
    ) -> Option<Result<(), Disagreement>> {
        if Self::AGREES_ON_FILTER {
            default_agreement_decided(decided, fast)
        } else {
            None
        }
    }
}

/// The margin of a set of decisive tests: the least over them.
pub fn margin_of(decisive: &[Decisive<BigRational>]) -> Margin {
    decisive.iter().fold(Margin::Unbounded, |acc, d| {
        let m = match d {
            Decisive::Test(s) => Margin::of(s),
            Decisive::AllOf(parts) => {
                parts.iter().map(Margin::of).fold(Margin::Finite(BigRational::default()), |a, b| match (a, b) {
                    (Margin::Finite(x), Margin::Finite(y)) => Margin::Finite(if x >= y { x } else { y }),
                    _ => Margin::Unbounded,
                })
            }
        };
        acc.min(m)
    })
}

/// [`margin_of`] on any exact backend, with the same value: each test's margin
/// |v| / (|m| + floor) is kept as its two parts and compared by cross products (exact on an
/// exact backend), and only the least is divided, once, into the reference's rational.
pub fn margin_of_exact<S: ExactValues>(decisive: &[Decisive<S>]) -> Margin {
    let floor = S::from_f64(crate::scalar::tolerance::UNDERFLOW_WEIGHT).unwrap_or_else(|_| S::zero());
    let parts = |s: &Scaled<S>| (s.value.abs(), s.magnitude.abs() + floor.clone());
    let less = |a: &(S, S), b: &(S, S)| {
        (a.0.clone() * b.1.clone()).compare(&(b.0.clone() * a.1.clone())) == Ok(std::cmp::Ordering::Less)
    };
    let mut least: Option<(S, S)> = None;
    for d in decisive {
        let m = match d {
            Decisive::Test(s) => parts(s),
            // Degenerate only when every part is: the largest part's margin (0 for no parts).
            Decisive::AllOf(ps) => {
                ps.iter().map(parts).fold((S::zero(), S::one()), |a, b| if less(&a, &b) { b } else { a })
            }
        };
        least = Some(match least {
            Some(l) if !less(&m, &l) => l,
            _ => m,
        });
    }
    match least {
        None => Margin::Unbounded,
        Some((num, den)) => match (num.to_rational(), den.to_rational()) {
            (Some(n), Some(d)) if !num_traits::Zero::is_zero(&n) => Margin::Finite(n / d),
            _ => Margin::Finite(BigRational::default()),
        },
    }
}

/// The default contract check (see [`Query::agreement`]) at a given margin.
pub fn agreement_at<Q: Query>(
    margin: Margin,
    exact: &Answer<BigRational, Q>,
    fast: &Result<Answer<f64, Q>, QueryError>,
) -> (Margin, Result<Agreement, Disagreement>) {
    let budget = contract::budget::<f64>();
    let verdict = match fast {
        Ok(fast) => {
            let continuous: Vec<Continuous> = exact
                .continuous
                .iter()
                .filter_map(|e| {
                    let f = fast.continuous.iter().find(|f| f.field == e.field)?;
                    Some(Continuous {
                        field: e.field.clone(),
                        exact: e.value.clone(),
                        fast: f.value.to_rational()?,
                        bound: contract::f64_bound(&e.magnitude),
                    })
                })
                .collect();
            contract::check(
                &Q::discrete(&exact.output),
                &Q::discrete(&fast.output),
                &margin,
                budget,
                Q::valid_within_tolerance,
                &continuous,
            )
        }
        // The fast path refused what the exact path answered: admissible only near a change.
        Err(e) if margin.exceeds(budget) => Err(Disagreement {
            what: format!("f64 failed above the budget: {}", e.message),
            exact: format!("{:?}", Q::discrete(&exact.output)),
            fast: e.kind.as_str().to_string(),
            margin: margin.to_decimal(6),
        }),
        Err(_) => Ok(Agreement::WithinTolerance),
    };
    (margin, verdict)
}

/// The exact and the `f64` answers of one query, and their agreement.
pub struct Both<Q: Query> {
    /// The exact answer.
    pub exact: Answer<BigRational, Q>,
    /// The `f64` answer, or why the `f64` path refused.
    pub fast: Result<Answer<f64, Q>, QueryError>,
    /// The exact margin of the decisions.
    pub margin: Margin,
    /// The agreement under the contract, or the breach.
    pub agreement: Result<Agreement, Disagreement>,
    /// The `f64` path overflowed ([`ErrorKind::Overflow`]): the contract does not apply to an
    /// input whose computation leaves the binary64 range (its tolerance argument assumes finite
    /// values), so such a refusal is admissible at any margin (`agreement` is then
    /// `WithinTolerance`).
    pub fast_overflowed: bool,
}

/// Answer exactly and in `f64`, and check the two under the agreement contract.
///
/// Errors: the exact path's (the `f64` path's error is part of the result), and a limit hit
/// while evaluating the contract ([`Query::agreement`]).
pub fn both<Q: Query>(q: &Q) -> Result<Both<Q>, QueryError> {
    both_with(q, q.answer::<f64>())
}

/// [`both`] with the `f64` answer given.
fn both_with<Q: Query>(q: &Q, fast: Result<Answer<f64, Q>, QueryError>) -> Result<Both<Q>, QueryError> {
    // The exact run on the fast exact backend (the same values and decisions as the
    // reference's, with every decisive test), converted once.
    let exact = q.answer::<crate::scalar::Exact>().map(filtered::reference)?;
    let fast_overflowed = fast.as_ref().is_err_and(|e| e.kind == ErrorKind::Overflow);
    let (margin, agreement) = q.agreement(&exact, &fast)?;
    let agreement = if fast_overflowed { Ok(Agreement::WithinTolerance) } else { agreement };
    Ok(Both { exact, fast, margin, agreement, fast_overflowed })
}
