//! `toi`: the first time of contact of two convex shapes moving at constant linear velocities
//! (an engine's shape cast), exactly.
//!
//! Without rotation the shapes meet at time t exactly when their projections overlap on every
//! axis of the separating-axis theorem for polytopes: the face normals of each shape and the
//! cross products of an edge direction of one with an edge direction of the other (the facet
//! normals of their Minkowski difference are among these). Along an axis n the projection of
//! b moves by (n·v)·t, v = v_b − v_a, so the overlap along n holds on one closed interval of
//! t (all of time, or never, when n·v = 0), with rational ends. The shapes meet on the
//! intersection [enter, exit] of these intervals, and the first contact in [t0, t1] is
//! max(enter, t0) when that is at most min(exit, t1): a rational number, computed exactly on
//! exact backends. Shapes already touching or overlapping at t0 collide at t0, with zero
//! relative velocity too.
//!
//! The touching features: for a first contact after t0, the extreme features along the axis
//! that enters last (a's vertices at its extreme towards b make a vertex, an edge or a face, and
//! b's towards a): at that time the plane between the extremes separates the shapes, so every
//! common point lies in both. For a contact at t0, V-Clip's closest pair on the shapes there
//! (they touch). None when they overlap with positive depth at t0.
//!
//! The same code runs on `f64`; `tests/toi.rs` checks the exact answer against the primitive
//! CCD over every vertex–face and edge–edge pair, and `f64` against exact under the agreement
//! contract.

use std::cmp::Ordering;

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown};
use super::error::{ErrorKind, QueryError};
use super::spec::{exact_sign, framed_box, posed_convex, ConvexPosed, FeatureId, FramedBox, Posed};
use super::toi_boxes::AtStart;
use super::{Answer, Bounded, Decisive, Query};
use crate::brep::Solid;
use crate::geom::{dot, dot_magnitude, Affine, Vector3};
use crate::poly::{Algebraic, FilterScalar, RootScalar};
use crate::scalar::{Exact, Scalar, Sign};
use crate::separation::linear::{entry_along, first_contact};
use crate::separation::{axis_of, extreme_feature, sign, Axis};
use crate::vclip::{feature_squared_distance, vclip_prechecked};

/// Two convex shapes with poses, moving at constant linear velocities, on [t0, t1].
#[derive(Clone, Debug, PartialEq)]
pub struct Toi<N: Scalar = BigRational> {
    /// Shape a under its pose at t = 0.
    pub a: Posed<N>,
    /// Shape b under its pose at t = 0.
    pub b: Posed<N>,
    /// a's velocity (world frame).
    pub velocity_a: Vector3<N>,
    /// b's velocity.
    pub velocity_b: Vector3<N>,
    /// [t0, t1], t0 ≤ t1.
    pub interval: [N; 2],
}

/// The answer of [`Toi`].
#[derive(Clone, Debug)]
pub struct ToiOutput<S: RootScalar> {
    /// Whether the shapes meet in the closed interval.
    pub collides: bool,
    /// The first time of contact (rational on exact backends).
    pub toi: Option<S::Time>,
    /// When `toi` is t0: overlapping with positive depth, or touching.
    pub at_start: Option<AtStart>,
    /// A feature of a and one of b touching at `toi` (none when overlapping at t0).
    pub features: Option<[FeatureId; 2]>,
    /// The axes whose entry time may be the first contact (how a run on intervals names its
    /// exact time; not part of the answer, ignored by `==`).
    entry: Vec<Axis>,
}

impl<S: RootScalar> PartialEq for ToiOutput<S> {
    fn eq(&self, other: &Self) -> bool {
        self.collides == other.collides
            && self.toi == other.toi
            && self.at_start == other.at_start
            && self.features == other.features
    }
}

impl<S: RootScalar> ToiOutput<S> {
    fn miss() -> Self {
        ToiOutput { collides: false, toi: None, at_start: None, features: None, entry: Vec::new() }
    }
}

/// A claim on [`Toi`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiClaim {
    /// The claimed collision.
    pub collides: Option<bool>,
    /// The claimed first time of contact.
    pub toi: Option<BigRational>,
    /// The claimed state at t0.
    pub at_start: Option<AtStart>,
    /// The claimed touching features of a and b.
    pub features: Option<[FeatureId; 2]>,
}

impl<N: Scalar> Toi<N> {
    fn posed<S: RootScalar>(&self) -> Result<(ConvexPosed<S>, ConvexPosed<S>), QueryError> {
        Ok((posed_convex::<S, _>(&self.a)?, posed_convex::<S, _>(&self.b)?))
    }

    fn velocities<S: Scalar>(&self) -> (Vector3<S>, Vector3<S>) {
        (self.velocity_a.map(|x| x.to_backend()), self.velocity_b.map(|x| x.to_backend()))
    }
}

impl<N: Scalar> Toi<N> {
    /// The first contact after t0 of two boxes, constructed from the axes a decided run could
    /// not rule out (`entry`, in the run's order) without posing either box ([`FramedBox`]):
    /// the latest exact entry time (the first axis on a tie) and that axis's extreme features,
    /// the same numbers and features as [`entry_along`] and [`entry_pair`] on the posed boxes.
    fn framed_entry(&self, fa: &FramedBox, fb: &FramedBox, entry: &[Axis]) -> Result<Answer<Exact, Self>, QueryError> {
        let (va, vb) = self.velocities::<Exact>();
        let v = vb - va;
        let mismatch = || QueryError::new(ErrorKind::Internal, "", "the filter's answer is not the exact one");
        let uncertain = |u| QueryError::uncertain("", u);
        // The latest entry: its time, the boxes' directions along its axis, and whether b
        // moves up it.
        let mut latest: Option<(Exact, Vector3<Exact>, Vector3<Exact>, bool)> = None;
        for &axis in entry {
            let n = match axis {
                Axis::Face(0, f) => fa.face_axis(f),
                Axis::Face(_, f) => fb.face_axis(f),
                Axis::Edges(i, j) => fa.edge_axis(i).cross(&fb.edge_axis(j)),
            };
            let speed = dot(&v, &n);
            let up = match exact_sign(&speed) {
                Sign::Zero => return Err(mismatch()),
                s => s == Sign::Positive,
            };
            // Along n, a's projections run over n·tₐ ± ρₐ/wₐ and b's over n·t_b ± ρ_b/w_b. b
            // moving up n enters when its highest meets a's lowest, down n its lowest a's
            // highest: speed·t = n·(tₐ − t_b) ∓ (ρₐ/wₐ + ρ_b/w_b), as one quotient (wₐ, w_b
            // cleared) of numbers that stay dyadic for binary64 inputs.
            let ((da, ra), (db, rb)) = (fa.along(&n), fb.along(&n));
            let (wa, wb) = (fa.scale(), fb.scale());
            let c = dot(&n, &(fa.translation() - fb.translation()));
            let reach = Exact::sum_of_products(&[(1, &ra, wb), (1, &rb, wa)]);
            let ww = wa.clone() * wb.clone();
            let centre = c * ww.clone();
            let gap = if up { centre - reach } else { centre + reach };
            let first = gap / (speed * ww);
            let later = match &latest {
                None => true,
                Some((l, ..)) => first.compare(l).map_err(uncertain)? == Ordering::Greater,
            };
            if later {
                latest = Some((first, da, db, up));
            }
        }
        let (t, da, db, up) = latest.ok_or_else(mismatch)?;
        // b moving along +n meets a's lowest side with its highest.
        let none = || QueryError::new(ErrorKind::Internal, "", "the extreme vertices make no feature");
        let features = [
            FramedBox::extreme_feature(&da, !up).ok_or_else(none)?,
            FramedBox::extreme_feature(&db, up).ok_or_else(none)?,
        ];
        let toi = Some(Exact::time(&t));
        Ok(Answer::plain(ToiOutput {
            collides: true,
            toi,
            at_start: None,
            features: Some(features),
            entry: Vec::new(),
        }))
    }
}

/// A feature of a and one of b that touch at time `t`, when the shapes moved there touch:
/// V-Clip's closest pair on the moved shapes.
fn touching_pair<S: RootScalar>(
    ca: &ConvexPosed<S>,
    cb: &ConvexPosed<S>,
    (va, vb): (&Vector3<S>, &Vector3<S>),
    t: &S,
) -> Result<[FeatureId; 2], QueryError> {
    let moved = |s: &Solid<S>, vel: &Vector3<S>| {
        s.moved_decided(&Affine::translation(vel.map(|c| c * t.clone())))
            .map_err(|e| QueryError::new(ErrorKind::Precision, "", format!("moving a shape to the first contact: {e}")))
    };
    let (ma, mb) = (moved(&ca.built.solid, va)?, moved(&cb.built.solid, vb)?);
    let r = vclip_prechecked(&ma, &mb, None).map_err(|e| QueryError::vclip("/op", e))?;
    Ok([ca.feature_id(&r.closest.features.0)?, cb.feature_id(&r.closest.features.1)?])
}

/// The features of a and b that meet first along `axis`, through which b (moving by `v`
/// relative to a) enters: a's vertices at its extreme towards b and b's at its extreme
/// towards a, each set as the feature it makes. At the entry time the plane between the two
/// extremes separates the shapes and every common point lies on it, in both sets: so when the
/// entry is the first contact, the two features touch.
fn entry_pair<S: Scalar>(
    ca: &ConvexPosed<S>,
    cb: &ConvexPosed<S>,
    v: &Vector3<S>,
    axis: Axis,
) -> Result<[FeatureId; 2], QueryError> {
    let (a, b) = (&ca.built.solid, &cb.built.solid);
    let internal = || QueryError::new(ErrorKind::Internal, "", "the entry axis is no axis");
    let (n, nm) = axis_of(a, b, axis)?.ok_or_else(internal)?;
    // b moving along +n meets a's lowest side with its highest.
    let up = sign(&v.dot(&n), &dot_magnitude(v, &nm))? == Sign::Positive;
    let none = || QueryError::new(ErrorKind::Internal, "", "the extreme vertices make no feature");
    let (fa, fb) =
        (extreme_feature(a, &n, &nm, !up)?.ok_or_else(none)?, extreme_feature(b, &n, &nm, up)?.ok_or_else(none)?);
    Ok([ca.feature_id(&fa)?, cb.feature_id(&fb)?])
}

impl<N: Scalar> Query for Toi<N> {
    const OP: &'static str = "toi";
    type Output<S: RootScalar> = ToiOutput<S>;
    type Discrete = (bool, Option<AtStart>);
    type Claim = ToiClaim;

    /// A miss decided on intervals is the exact answer. A hit's `collides` and `at_start` are
    /// the decided ones; its time is t0 when the shapes meet there, else the latest exact entry
    /// time of the axes the run could not rule out (one, unless entries tie or nearly tie), and
    /// the touching pair is that axis's extreme features, as in the exact run (a contact at t0:
    /// V-Clip's pair on the shapes posed exactly).
    const FILTERED: bool = true;

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let out = &decided.output;
        if !out.collides {
            return Some(Ok(Answer::plain(ToiOutput::miss())));
        }
        let construct = || -> Result<Answer<Exact, Self>, QueryError> {
            // Two boxes meeting after t0: the entry along the named axes, nothing posed.
            if out.at_start.is_none() {
                if let (Some(fa), Some(fb)) = (framed_box(&self.a)?, framed_box(&self.b)?) {
                    return self.framed_entry(&fa, &fb, &out.entry);
                }
            }
            let (ca, cb) = self.posed::<Exact>()?;
            let (a, b) = (&ca.built.solid, &cb.built.solid);
            let (va, vb) = self.velocities::<Exact>();
            let v = vb.clone() - va.clone();
            let mismatch = || QueryError::new(ErrorKind::Internal, "", "the filter's answer is not the exact one");
            let (axis, t) = if out.at_start.is_some() {
                (None, self.interval[0].to_backend::<Exact>())
            } else {
                // The latest entry, the first axis in the run's order on a tie (as the exact
                // run takes it).
                let mut latest: Option<(Axis, Exact)> = None;
                for &axis in &out.entry {
                    let n = axis_of(a, b, axis)?.ok_or_else(mismatch)?;
                    let Some(first) = entry_along(a, b, &v, &n)? else { return Err(mismatch()) };
                    let later = match &latest {
                        None => true,
                        Some((_, l)) => {
                            first.compare(l).map_err(|u| QueryError::uncertain("", u))? == Ordering::Greater
                        }
                    };
                    if later {
                        latest = Some((axis, first));
                    }
                }
                latest.map(|(axis, t)| (Some(axis), t)).ok_or_else(mismatch)?
            };
            let features = match (out.at_start, axis) {
                (Some(AtStart::Overlapping), _) => None,
                (None, Some(axis)) => Some(entry_pair(&ca, &cb, &v, axis)?),
                _ => Some(touching_pair(&ca, &cb, (&va, &vb), &t)?),
            };
            let toi = Some(Exact::time(&t));
            Ok(Answer::plain(ToiOutput { collides: true, toi, at_start: out.at_start, features, entry: Vec::new() }))
        };
        Some(construct())
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let [t0, t1] = self.interval.clone().map(|x| x.to_backend::<S>());
        let at_interval = |m: &str| QueryError::new(ErrorKind::Invalid, "/interval", m);
        if (t1.clone() - t0.clone()).sign().map_err(|u| QueryError::uncertain("/interval", u))? == Sign::Negative {
            return Err(at_interval("the interval's end is before its start"));
        }
        let (ca, cb) = self.posed::<S>()?;
        let (a, b) = (&ca.built.solid, &cb.built.solid);
        let (va, vb) = self.velocities::<S>();
        let v = vb.clone() - va.clone();
        let miss = |decisive| Ok(Answer { output: ToiOutput::miss(), decisive, continuous: Vec::new() });
        let poses = vec![Decisive::Test(ca.pose_determinant.clone()), Decisive::Test(cb.pose_determinant.clone())];
        let c = first_contact(a, b, &v, [&t0, &t1], [&ca.parallels, &cb.parallels])?;
        let mut decisive: Vec<Decisive<S>> = c.axis_tests.into_iter().map(Decisive::Test).collect();
        decisive.extend(poses);
        decisive.extend(c.window_tests.into_iter().map(Decisive::Test));
        let Some(hit) = c.hit else { return miss(decisive) };
        let at_start = hit.from_start.then_some(if hit.overlapping { AtStart::Overlapping } else { AtStart::Touching });
        // The touching pair is V-Clip's on the shapes moved to the first contact, where they
        // touch: the distance it decides is exactly zero, never decided on intervals, so a run
        // on intervals leaves it to the exact construction (`exact_from_filter`).
        let features = if hit.overlapping || S::FILTER {
            None
        } else if let (false, Some(&axis)) = (hit.from_start, hit.entry.first()) {
            Some(entry_pair(&ca, &cb, &v, axis)?)
        } else {
            Some(touching_pair(&ca, &cb, (&va, &vb), &hit.time.value)?)
        };
        let toi = Some(S::time(&hit.time.value));
        Ok(Answer {
            output: ToiOutput { collides: true, toi, at_start, features, entry: hit.entry },
            decisive,
            continuous: vec![Bounded::new("toi", hit.time.value, hit.time.magnitude)],
        })
    }

    /// The answer's tests and the posed shapes' own (as for `distance`).
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<crate::contract::Margin, QueryError> {
        let margin = super::margin_of(&exact.decisive);
        Ok(match self.posed::<Exact>() {
            Ok((ca, cb)) => margin.min(super::distance::posed_shapes_margin(&ca, &cb)),
            Err(_) => margin,
        })
    }

    fn reference(o: ToiOutput<Exact>) -> ToiOutput<BigRational> {
        ToiOutput { collides: o.collides, toi: o.toi, at_start: o.at_start, features: o.features, entry: o.entry }
    }

    fn discrete<S: RootScalar>(o: &ToiOutput<S>) -> (bool, Option<AtStart>) {
        (o.collides, o.at_start)
    }

    fn valid_within_tolerance(_: &(bool, Option<AtStart>), _: &(bool, Option<AtStart>)) -> bool {
        // Within the budget of a grazing contact (or of touching at t0) any of these is
        // admissible; the time is still checked as a continuous output.
        true
    }

    /// `features` pass when the claimed pair touches at the exact time (a face on a face has
    /// many touching pairs).
    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(collides: equal |b: &bool| Shown::Bool(*b), |out| out.collides; enclosed equal |out| out.collides),
        judged!(toi: |_, exact, x, _, tol, digits| {
            Ok(vec![super::ccd::toi_check(x, &exact.output.toi, tol, digits, "the shapes do not meet in the interval")])
        }; enclosed |_, decided, x, _, tol| super::ccd::toi_enclosed(x, &decided.output.toi, tol)),
        judged!(at_start: |_, exact, s, _, _, _| Ok(vec![super::toi_boxes::at_start_check(*s, exact.output.at_start)]);
            enclosed |_, decided, s, _, _| Some(decided.output.at_start == Some(*s))),
        judged!(features: |q, exact, pair, _, _, _| {
            let [fa, fb] = pair;
            let out = &exact.output;
            let claimed = Shown::Features(vec![fa.clone(), fb.clone()]);
            let exact_shown = out.features.clone().map_or(Shown::Absent, |f| Shown::Features(f.to_vec()));
            let check = match (&out.toi, &out.features) {
                (Some(t), Some(f)) => {
                    let touches = q.touch_at(t, fa, fb)?;
                    let check = Check { ok: touches, ..Check::equal("features", claimed, exact_shown) };
                    if !touches {
                        check.with_note("these features do not touch at the exact time")
                    } else if [fa, fb] != [&f[0], &f[1]] {
                        check.with_note("a different pair that also touches (a tie)")
                    } else {
                        check
                    }
                }
                _ => Check::equal("features", claimed, exact_shown).with_note("no pair touches"),
            };
            Ok(vec![check])
        }),
    ];
}

impl<N: Scalar> Toi<N> {
    /// Whether the claimed features touch at the exact time `t` (rational).
    fn touch_at(&self, t: &Algebraic, fa: &FeatureId, fb: &FeatureId) -> Result<bool, QueryError> {
        let Some(t) = t.to_rational() else { return Ok(false) };
        let (ca, cb) = self.posed::<BigRational>()?;
        let (va, vb) = self.velocities::<BigRational>();
        let moved = |s: &Solid<BigRational>, vel: &Vector3<BigRational>| {
            s.moved_decided(&Affine::translation(vel.map(|c| c * t.clone())))
                .map_err(|e| QueryError::new(ErrorKind::Precision, "", e.to_string()))
        };
        let (Some((sa, xa)), Some((sb, xb))) = (ca.claimed_feature(fa)?, cb.claimed_feature(fb)?) else {
            return Ok(false);
        };
        let (ma, mb) = (moved(sa, &va)?, moved(sb, &vb)?);
        let d = feature_squared_distance(&ma, &xa, &mb, &xb).map_err(|e| QueryError::vclip("/claim/features", e))?;
        Ok(d == BigRational::default())
    }
}
