//! `toi_boxes`: the first time of contact of two boxes under quadratic 4×4 motions, by the box
//! sweep of Albocher–Sarel, with a touching feature pair, on every backend.

use std::cmp::Ordering;

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown};
use super::error::{ErrorKind, QueryError};
use super::spec::FeatureId;
use super::{Answer, Query};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::poly::{order, Algebraic, FilterScalar, RootScalar};
use crate::scalar::{Exact, Scalar};
use crate::sweep::bms::{exact_contact_time, GapSource};
use crate::sweep::contract::{check_sweep_margined, sweep_margined};
use crate::sweep::{
    first_contact_bms, kind_of_pair, pair_touches, BoxFeature, BoxMotion, ContactKind, FeaturePair, SweepError,
};

/// `toi_boxes`: the least t in the closed interval at which the closed boxes meet.
#[derive(Clone, Debug, PartialEq)]
pub struct ToiBoxes<N: Scalar = BigRational> {
    /// Box a and its motion.
    pub a: BoxMotion<N>,
    /// Box b and its motion.
    pub b: BoxMotion<N>,
    /// [t0, t1], t0 ≤ t1.
    pub interval: [N; 2],
}

/// How the boxes meet at t0, when they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtStart {
    /// Overlapping with positive depth (no touching pair).
    Overlapping,
    /// Touching.
    Touching,
}

impl AtStart {
    /// The format's name.
    pub fn as_str(self) -> &'static str {
        match self {
            AtStart::Overlapping => "overlapping",
            AtStart::Touching => "touching",
        }
    }
}

/// The answer of [`ToiBoxes`].
#[derive(Clone, Debug)]
pub struct ToiBoxesOutput<S: RootScalar> {
    /// Whether the boxes meet in the interval.
    pub collides: bool,
    /// The first time of contact.
    pub toi: Option<S::Time>,
    /// When `toi` is t0: overlapping or touching.
    pub at_start: Option<AtStart>,
    /// A pair of features touching at `toi` (vertex–face, face–vertex or edge–edge).
    pub pair: Option<FeaturePair>,
    /// Which gap polynomial `toi` is a root of (how a run on intervals names its exact time;
    /// not part of the answer, ignored by `==`).
    source: Option<GapSource>,
}

impl<S: RootScalar> PartialEq for ToiBoxesOutput<S> {
    fn eq(&self, other: &Self) -> bool {
        self.collides == other.collides
            && self.toi == other.toi
            && self.at_start == other.at_start
            && self.pair == other.pair
    }
}

impl<S: RootScalar> ToiBoxesOutput<S> {
    fn miss() -> Self {
        ToiBoxesOutput { collides: false, toi: None, at_start: None, pair: None, source: None }
    }
}

/// A claim on [`ToiBoxes`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiBoxesClaim {
    /// The claimed collision.
    pub collides: Option<bool>,
    /// The claimed first time.
    pub toi: Option<BigRational>,
    /// The claimed state at t0.
    pub at_start: Option<AtStart>,
    /// The claimed kind of the touching pair.
    pub kind: Option<ContactKind>,
    /// The claimed touching features of a and b.
    pub features: Option<[FeatureId; 2]>,
}

/// The format's feature name of a box feature.
pub fn box_feature_id(f: &BoxFeature) -> FeatureId {
    match f {
        BoxFeature::Vertex(v) => FeatureId::Vertex(*v),
        BoxFeature::Edge([i, j]) => FeatureId::edge(*i, *j),
        BoxFeature::Face(ids) => FeatureId::face(ids.to_vec()),
    }
}

/// The box feature a format name denotes, if it has the shape of one (ids are checked by the
/// sweep: a pair of ids that is no edge of a box is refused there).
fn box_feature(f: &FeatureId) -> Option<BoxFeature> {
    match f {
        FeatureId::Vertex(v) => Some(BoxFeature::Vertex(*v)),
        FeatureId::Edge(i, j) => Some(BoxFeature::Edge([*i, *j])),
        FeatureId::Face(ids) => <[usize; 4]>::try_from(ids.as_slice()).ok().map(BoxFeature::Face),
    }
}

fn converted<S: Scalar, N: Scalar>(m: &BoxMotion<N>) -> BoxMotion<S> {
    BoxMotion {
        half: m.half.clone().map(|h| h.to_backend::<S>()),
        motion: m.motion.clone().map(|x| x.map(|c| c.to_backend::<S>())),
    }
}

impl<N: Scalar> ToiBoxes<N> {
    fn on<S: Scalar>(&self) -> (BoxMotion<S>, BoxMotion<S>, S, S) {
        let [t0, t1] = &self.interval;
        (converted(&self.a), converted(&self.b), t0.to_backend::<S>(), t1.to_backend::<S>())
    }

    /// Whether the claimed pair touches at the exact time (a check of `features`).
    fn touches(
        &self,
        time: &crate::poly::Algebraic,
        fa: &FeatureId,
        fb: &FeatureId,
    ) -> Result<Option<bool>, QueryError> {
        let (Some(a), Some(b)) = (box_feature(fa), box_feature(fb)) else { return Ok(None) };
        let (ma, mb, t0, t1) = self.on::<BigRational>();
        match pair_touches(&ma, &mb, &t0, &t1, time, a, b) {
            Ok(t) => Ok(Some(t)),
            Err(SweepError::BadFeature { .. }) => Ok(None),
            Err(e) => Err(QueryError::sweep(e)),
        }
    }

    /// The check of a claimed kind of touching pair: the exact pair's kind, or another kind
    /// with a pair that also touches at the exact time (a tie); never a kind the claimed
    /// features are not of.
    fn kind_check(
        &self,
        out: &ToiBoxesOutput<BigRational>,
        kind: ContactKind,
        claim: &ToiBoxesClaim,
    ) -> Result<Check, QueryError> {
        let claimed = Shown::Text(kind.as_str().into());
        let exact_kind = || out.pair.map_or(Shown::Absent, |p| Shown::Text(p.kind.as_str().into()));
        let (Some(t), Some(pair)) = (&out.toi, &out.pair) else { return Ok(no_pair(out, "kind", claimed)) };
        let claimed_pair_kind = claim.features.as_ref().map(|[fa, fb]| match (box_feature(fa), box_feature(fb)) {
            (Some(a), Some(b)) => kind_of_pair(a, b),
            _ => None,
        });
        if claimed_pair_kind.is_some_and(|k| k != Some(kind)) {
            return Ok(
                Check::equal("kind", claimed, exact_kind()).with_note("the claimed features are not of this kind")
            );
        }
        if pair.kind == kind {
            return Ok(Check::equal("kind", claimed.clone(), claimed));
        }
        let (ma, mb, t0, t1) = self.on::<BigRational>();
        let mut found = false;
        for (a, b) in pairs_of(kind) {
            if pair_touches(&ma, &mb, &t0, &t1, t, a, b).map_err(QueryError::sweep)? {
                found = true;
                break;
            }
        }
        let check = Check { ok: found, ..Check::equal("kind", claimed, exact_kind()) };
        Ok(if found {
            check.with_note("another kind of pair that also touches (a tie)")
        } else {
            check.with_note("no pair of this kind touches at the exact time")
        })
    }

    /// The check of a claimed touching pair: the exact pair, or another that also touches at
    /// the exact time (a tie).
    fn features_check(
        &self,
        out: &ToiBoxesOutput<BigRational>,
        [fa, fb]: &[FeatureId; 2],
    ) -> Result<Check, QueryError> {
        let claimed = Shown::Features(vec![fa.clone(), fb.clone()]);
        let (Some(t), Some(pair)) = (&out.toi, &out.pair) else { return Ok(no_pair(out, "features", claimed)) };
        let exact_pair = vec![box_feature_id(&pair.a), box_feature_id(&pair.b)];
        let same = exact_pair == [fa.clone(), fb.clone()];
        let touches = self.touches(t, fa, fb)?;
        let check =
            Check { ok: touches == Some(true), ..Check::equal("features", claimed, Shown::Features(exact_pair)) };
        Ok(match touches {
            None => check.with_note("not a feature pair of two boxes (vertex ids 0–7)"),
            Some(false) => check.with_note("these features do not touch at the exact time"),
            Some(true) if !same => check.with_note("a different pair that also touches (a tie)"),
            Some(true) => check,
        })
    }
}

/// The failing check of a claimed pair or kind when no pair touches.
fn no_pair(out: &ToiBoxesOutput<BigRational>, field: &str, claimed: Shown) -> Check {
    let note = if out.at_start == Some(AtStart::Overlapping) {
        "the boxes overlap at t0: no pair touches"
    } else {
        "the boxes do not meet in the interval"
    };
    Check::equal(field, claimed, Shown::Absent).with_note(note)
}

/// The check of a claimed way of meeting at the start (`toi` and `toi_boxes`).
pub(super) fn at_start_check(claimed: AtStart, exact: Option<AtStart>) -> Check {
    let shown = |s: Option<AtStart>| s.map_or(Shown::Absent, |s| Shown::Text(s.as_str().into()));
    Check::equal("at_start", shown(Some(claimed)), shown(exact))
}

/// Whether a claimed pair, if any, is the decided one (a run that decided a pair cannot tell
/// whether another claimed pair is a tie).
fn features_as_decided<S: RootScalar>(out: &ToiBoxesOutput<S>, claim: &ToiBoxesClaim) -> bool {
    let decided_ids = out.pair.map(|p| [box_feature_id(&p.a), box_feature_id(&p.b)]);
    !matches!((&out.pair, &claim.features), (Some(_), Some(f)) if Some(f) != decided_ids.as_ref())
}

/// Every feature pair of a kind, in id order.
fn pairs_of(kind: ContactKind) -> Vec<(BoxFeature, BoxFeature)> {
    let vertices: Vec<BoxFeature> = (0..8).map(BoxFeature::Vertex).collect();
    let faces: Vec<BoxFeature> = (0..3)
        .flat_map(|k| {
            [0, 1].map(|bit| {
                let ids: Vec<usize> = (0..8).filter(|v| v >> k & 1 == bit).collect();
                BoxFeature::Face([ids[0], ids[1], ids[2], ids[3]])
            })
        })
        .collect();
    let edges: Vec<BoxFeature> = (0..8)
        .flat_map(|v: usize| (0..3).filter(move |k| v >> k & 1 == 0).map(move |k| BoxFeature::Edge([v, v | 1 << k])))
        .collect();
    let product = |xs: &[BoxFeature], ys: &[BoxFeature]| {
        xs.iter().flat_map(|x| ys.iter().map(move |y| (*x, *y))).collect::<Vec<_>>()
    };
    match kind {
        ContactKind::VertexFace => product(&vertices, &faces),
        ContactKind::FaceVertex => product(&faces, &vertices),
        ContactKind::EdgeEdge => product(&edges, &edges),
    }
}

impl<N: Scalar> Query for ToiBoxes<N> {
    const OP: &'static str = "toi_boxes";
    type Output<S: RootScalar> = ToiBoxesOutput<S>;
    type Discrete = bool;

    /// A miss decided on intervals is the exact answer. A hit's discrete parts (at_start, the
    /// touching pair) are the decided ones; its time is t0 when the boxes meet there, else the
    /// root, in the run's enclosure, of the exact gap polynomial the run's time is a root of
    /// (`exact_contact_time` of the box sweep).
    const FILTERED: bool = true;

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let out = &decided.output;
        if !out.collides {
            return Some(Ok(Answer::plain(ToiBoxesOutput::miss())));
        }
        let (a, b, t0, t1) = self.on::<Exact>();
        let time = match (out.at_start, out.source, &out.toi) {
            (Some(_), _, _) => Ok(Algebraic::from_rational(t0.to_big_rational())),
            (None, Some(source), Some(enclosure)) => exact_contact_time(&a, &b, &t0, &t1, source, enclosure),
            _ => return None,
        };
        Some(time.map_err(QueryError::sweep).map(|t| {
            let output = ToiBoxesOutput {
                collides: true,
                toi: Some(t),
                at_start: out.at_start,
                pair: out.pair,
                source: out.source,
            };
            Answer::plain(output)
        }))
    }

    fn reference(o: ToiBoxesOutput<Exact>) -> ToiBoxesOutput<BigRational> {
        ToiBoxesOutput { collides: o.collides, toi: o.toi, at_start: o.at_start, pair: o.pair, source: o.source }
    }
    type Claim = ToiBoxesClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (a, b, t0, t1) = self.on::<S>();
        let contact = first_contact_bms(&a, &b, &t0, &t1).map_err(QueryError::sweep)?;
        let output = match contact {
            None => ToiBoxesOutput::miss(),
            Some(c) => {
                let at_start = match order::<S>(&c.time, &S::time(&t0))? {
                    Ordering::Equal if c.overlapping_at_start => Some(AtStart::Overlapping),
                    Ordering::Equal => Some(AtStart::Touching),
                    _ => None,
                };
                ToiBoxesOutput { collides: true, toi: Some(c.time), at_start, pair: c.contact, source: c.source }
            }
        };
        Ok(Answer::plain(output))
    }

    fn discrete<S: RootScalar>(o: &ToiBoxesOutput<S>) -> bool {
        o.collides
    }

    fn valid_within_tolerance(exact: &bool, fast: &bool) -> bool {
        exact == fast
    }

    /// `features` pass when the claimed pair touches at the exact time (any touching pair: a
    /// face on a face has many); `kind` passes when some pair of that kind touches (and, with
    /// claimed features, when they are of that kind).
    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(collides: equal |b: &bool| Shown::Bool(*b), |out| out.collides; enclosed equal |out| out.collides),
        judged!(toi: |_, exact, x, _, tol, digits| {
            Ok(vec![super::ccd::toi_check(x, &exact.output.toi, tol, digits, "the boxes do not meet in the interval")])
        }; enclosed |_, decided, x, _, tol| super::ccd::toi_enclosed(x, &decided.output.toi, tol)),
        judged!(at_start: |_, exact, s, _, _, _| Ok(vec![at_start_check(*s, exact.output.at_start)]);
            enclosed |_, decided, s, _, _| Some(decided.output.at_start == Some(*s))),
        judged!(kind: |q, exact, kind, claim, _, _| Ok(vec![q.kind_check(&exact.output, *kind, claim)?]);
        enclosed |_, decided, kind, claim, _| {
            let out = &decided.output;
            if !features_as_decided(out, claim) {
                return None;
            }
            match out.pair {
                None => Some(false),
                Some(p) if p.kind == *kind => Some(true),
                Some(_) => None,
            }
        }),
        judged!(features: |q, exact, pair, _, _, _| Ok(vec![q.features_check(&exact.output, pair)?]);
        enclosed |_, decided, _, claim, _| {
            let out = &decided.output;
            if !features_as_decided(out, claim) {
                return None;
            }
            Some(out.pair.is_some())
        }),
    ];

    /// The sweep contract's margin (`check_sweep_answer`) of the binary64 roundings of the
    /// input (what the `f64` path answers).
    fn margin(&self, _: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        let (a, b, t0, t1) = self.on::<f64>();
        Ok(sweep_margined(&a, &b, t0, t1).map_err(QueryError::sweep)?.margin())
    }

    /// The sweep contract (`check_sweep_answer`): the margin of the exact problem on the
    /// binary64 roundings of the input, which the `f64` path answers.
    fn agreement(
        &self,
        _: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let (a, b, t0, t1) = self.on::<f64>();
        let m = sweep_margined(&a, &b, t0, t1).map_err(QueryError::sweep)?;
        let fast = match fast {
            Ok(f) => Ok(f.output.toi),
            Err(e) if e.kind == ErrorKind::Invalid => Err(SweepError::Singular { box_index: 0 }),
            Err(e) => Err(SweepError::Uncertain(if e.kind == ErrorKind::Overflow {
                crate::scalar::Uncertain::Overflow
            } else {
                crate::scalar::Uncertain::Close
            })),
        };
        Ok(check_sweep_margined(&m, &a, &b, t0, t1, fast))
    }
}
