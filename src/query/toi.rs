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

use super::claim::{Check, Shown, Tolerance, Verdict};
use super::error::{ErrorKind, QueryError};
use super::spec::{posed_convex, ConvexPosed, FeatureId, Posed};
use super::toi_boxes::AtStart;
use super::{Answer, Bounded, Decisive, Query};
use crate::brep::{Feature, Solid};
use crate::geom::{dot_magnitude, Affine, Scaled, Vector3};
use crate::poly::{Algebraic, RootScalar};
use crate::scalar::{Exact, Interval, Scalar, Sign};
use crate::vclip::{feature_squared_distance, vclip_prechecked};

/// Two convex shapes with poses, moving at constant linear velocities, on [t0, t1].
#[derive(Clone, Debug)]
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

/// An axis of the separating-axis test: face `f` of shape `s` (0: a, 1: b), or the cross
/// product of edge `i` of a with edge `j` of b (indices into [`Solid::edges`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    Face(u8, usize),
    Edges(usize, usize),
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

/// One end of the meeting window, with the magnitude of its computation.
#[derive(Clone)]
struct End<S: Scalar> {
    value: S,
    magnitude: S,
}

/// Where the shapes (b moving by v relative to a) meet: the closed window [enter, exit]
/// (`None`: unbounded on that side), whether some axis has them touching for all time (then
/// they never overlap with positive depth), or that they never meet; with the tests that
/// decided it.
struct Window<S: Scalar> {
    enter: Option<End<S>>,
    /// The axes whose entry may be `enter` (one on exact backends; on intervals every axis
    /// whose entry could not be ordered below another's), with their entry times.
    entry: Vec<(Axis, S)>,
    exit: Option<End<S>>,
    touching_throughout: bool,
    /// Apart for all time along an axis that b does not move along.
    never: bool,
    decisive: Vec<Decisive<S>>,
}

/// The range of `s`'s projection on `n`, with the magnitude of its ends' error for an axis whose
/// components are computed with magnitudes `nm`.
fn project<S: Scalar>(s: &Solid<S>, n: &Vector3<S>, nm: &Vector3<S>) -> Result<(S, S, S), QueryError> {
    let mut it = s.vertices().iter().map(|p| p.coords.dot(n));
    let first = it.next().unwrap_or_else(S::zero);
    let (mut lo, mut hi) = (first.clone(), first);
    for x in it {
        lo = lo.minimum(&x).map_err(|u| QueryError::uncertain("", u))?;
        hi = hi.maximum(&x).map_err(|u| QueryError::uncertain("", u))?;
    }
    // (Nobody reads a filter run's magnitudes: half its arithmetic saved.)
    let magnitude = if S::FILTER {
        S::zero()
    } else {
        s.vertices().iter().fold(S::zero(), |m, p| m + dot_magnitude(&p.coords, nm))
    };
    Ok((lo, hi, magnitude))
}

/// Face `f`'s axis, its Newell normal, with a magnitude per component built from the face's
/// coordinates: Σ (|p_i| + |q_i|)(|p_j| + |q_j|) over its edges pq.
fn face_axis<S: Scalar>(s: &Solid<S>, f: usize) -> (Vector3<S>, Vector3<S>) {
    let face = s.face(f);
    let mut m = Vector3::from_element(S::zero());
    for (k, &i) in face.iter().enumerate() {
        let (p, q) = (s.vertex(i), s.vertex(face[(k + 1) % face.len()]));
        for (axis, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            m[axis] += (p[i].abs() + q[i].abs()) * (p[j].abs() + q[j].abs());
        }
    }
    (s.plane(f).normal.clone(), m)
}

/// The magnitudes of `a × b`'s components from magnitudes `a`, `b` of the factors:
/// a_y b_z + a_z b_y, ….
fn cross_magnitude<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Vector3<S> {
    Vector3::new(
        a.y.clone() * b.z.clone() + a.z.clone() * b.y.clone(),
        a.z.clone() * b.x.clone() + a.x.clone() * b.z.clone(),
        a.x.clone() * b.y.clone() + a.y.clone() * b.x.clone(),
    )
}

fn sign<S: Scalar>(x: &S, magnitude: &S) -> Result<Sign, QueryError> {
    x.sign_scaled(|| magnitude.clone()).map_err(|u| QueryError::uncertain("", u))
}

fn meeting_window<S: Scalar>(a: &Solid<S>, b: &Solid<S>, v: &Vector3<S>) -> Result<Window<S>, QueryError> {
    let mut window = Window {
        enter: None,
        entry: Vec::new(),
        exit: None,
        touching_throughout: false,
        never: false,
        decisive: Vec::new(),
    };
    // Axes are taken one at a time (never collected: two large shapes have many edge pairs),
    // each a step of the query's budget.
    for (k, s) in [a, b].into_iter().enumerate() {
        for f in 0..s.face_count() {
            window.add_axis(a, b, v, Axis::Face(k as u8, f))?;
        }
    }
    for i in 0..a.edges().len() {
        for j in 0..b.edges().len() {
            if window.never {
                return Ok(window);
            }
            window.add_axis(a, b, v, Axis::Edges(i, j))?;
        }
    }
    Ok(window)
}

/// The direction of edge `(u, w)` of `s`, with magnitudes of its components.
fn edge_direction<S: Scalar>(s: &Solid<S>, &(u, w): &(usize, usize)) -> (Vector3<S>, Vector3<S>) {
    let (p, q) = (s.vertex(u), s.vertex(w));
    (q - p, p.coords.map(|x| x.abs()) + q.coords.map(|x| x.abs()))
}

/// The direction of `axis` with a magnitude per component; `None` for parallel edges, which
/// give no axis.
///
/// An axis's components are computed from the vertices, whose coordinates carry the error of
/// posing them: the tests along an axis are scaled by magnitudes built from the coordinates
/// (`|p| + |q|` for a difference `p − q`), never by the components themselves, which can cancel
/// to rounding noise on `f64` where they are exactly zero.
#[allow(clippy::type_complexity)]
fn axis_of<S: Scalar>(a: &Solid<S>, b: &Solid<S>, axis: Axis) -> Result<Option<(Vector3<S>, Vector3<S>)>, QueryError> {
    let (i, j) = match axis {
        Axis::Face(0, f) => return Ok(Some(face_axis(a, f))),
        Axis::Face(_, f) => return Ok(Some(face_axis(b, f))),
        Axis::Edges(i, j) => (i, j),
    };
    let ((da, ma), (db, mb)) = (edge_direction(a, &a.edges()[i]), edge_direction(b, &b.edges()[j]));
    let n = da.cross(&db);
    let nm = cross_magnitude(&ma, &mb);
    // Parallel edges give no axis (exactly zero; within the tolerance on f64, where an axis of
    // rounding noise would judge nothing reliably).
    let mut zero = true;
    for (c, m) in n.iter().zip(nm.iter()) {
        if sign(c, m)? != Sign::Zero {
            zero = false;
        }
    }
    Ok((!zero).then_some((n, nm)))
}

/// Where b (moving by v relative to a) overlaps a along one axis.
enum AlongAxis<S: Scalar> {
    /// b does not move along the axis: it overlaps a for all time when `low ≤ 0 ≤ high`, never
    /// otherwise (the tests' magnitude `m`).
    Still { low: S, high: S, m: S },
    /// b moves along it: they overlap from `first` to `last`.
    Moving { first: End<S>, last: End<S> },
}

/// The overlap of a and b along axis `n` with component magnitudes `nm`.
fn along_axis<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    v: &Vector3<S>,
    (n, nm): &(Vector3<S>, Vector3<S>),
) -> Result<AlongAxis<S>, QueryError> {
    let (a_lo, a_hi, ma) = project(a, n, nm)?;
    let (b_lo, b_hi, mb) = project(b, n, nm)?;
    let w = v.dot(n);
    let mw = dot_magnitude(v, nm);
    // Along n, b's projection at t is [b_lo + w·t, b_hi + w·t]: it meets a's when
    // a_lo − b_hi ≤ w·t ≤ a_hi − b_lo.
    let (low, high) = (a_lo - b_hi, a_hi - b_lo);
    let m = ma + mb;
    Ok(match sign(&w, &mw)? {
        Sign::Zero => AlongAxis::Still { low, high, m },
        s => {
            let (first, last) = if s == Sign::Positive { (low, high) } else { (high, low) };
            let end = |x: S| {
                let value = x / w.clone();
                let magnitude = (m.clone() + value.abs() * mw.clone()) / w.abs();
                End { value, magnitude }
            };
            AlongAxis::Moving { first: end(first), last: end(last) }
        }
    })
}

impl<S: Scalar> Window<S> {
    /// Narrow the window by `axis` (nothing once the shapes never meet).
    fn add_axis(&mut self, a: &Solid<S>, b: &Solid<S>, v: &Vector3<S>, axis: Axis) -> Result<(), QueryError> {
        if self.never {
            return Ok(());
        }
        crate::budget::tick()?;
        let Some(n) = axis_of(a, b, axis)? else { return Ok(()) };
        match along_axis(a, b, v, &n)? {
            AlongAxis::Still { low, high, m } => {
                let (sl, sh) = (sign(&low, &m)?, sign(&high, &m)?);
                self.decisive.push(Decisive::Test(Scaled { value: low, magnitude: m.clone() }));
                self.decisive.push(Decisive::Test(Scaled { value: high, magnitude: m }));
                if sl == Sign::Positive || sh == Sign::Negative {
                    self.never = true;
                    return Ok(());
                }
                if sl == Sign::Zero || sh == Sign::Zero {
                    self.touching_throughout = true;
                }
            }
            AlongAxis::Moving { first, last } => {
                self.enter_by(axis, first)?;
                self.exit = Some(match self.exit.take() {
                    None => last,
                    Some(e) => earlier(e, last)?,
                });
            }
        }
        Ok(())
    }

    /// The window's entry after an axis entering at `first`: the later of the two, and the
    /// axes it may come from. Two entries that cannot be ordered (on intervals) give the hull
    /// of both, and both axes stay candidates (each until another is known to enter later).
    fn enter_by(&mut self, axis: Axis, first: End<S>) -> Result<(), QueryError> {
        let Some(e) = self.enter.take() else {
            self.entry = vec![(axis, first.value.clone())];
            self.enter = Some(first);
            return Ok(());
        };
        let magnitude = e.magnitude.maximum(&first.magnitude).map_err(|u| QueryError::uncertain("", u))?;
        let value = match first.value.compare(&e.value) {
            Ok(Ordering::Greater) => {
                self.entry = vec![(axis, first.value.clone())];
                first.value
            }
            // On a tie either end is the entry: keep the first.
            Ok(_) => e.value,
            Err(_) => {
                let x = first.value.clone();
                if !self.entry.iter().any(|(_, y)| x.compare(y) == Ok(Ordering::Less)) {
                    self.entry.retain(|(_, y)| y.compare(&x) != Ok(Ordering::Less));
                    self.entry.push((axis, x));
                }
                e.value.maximum(&first.value).map_err(|u| QueryError::uncertain("", u))?
            }
        };
        self.enter = Some(End { value, magnitude });
        Ok(())
    }
}

/// The earlier of two ends.
fn earlier<S: Scalar>(x: End<S>, y: End<S>) -> Result<End<S>, QueryError> {
    let value = x.value.minimum(&y.value).map_err(|u| QueryError::uncertain("", u))?;
    let magnitude = x.magnitude.maximum(&y.magnitude).map_err(|u| QueryError::uncertain("", u))?;
    Ok(End { value, magnitude })
}

impl<N: Scalar> Toi<N> {
    fn posed<S: RootScalar>(&self) -> Result<(ConvexPosed<S>, ConvexPosed<S>), QueryError> {
        Ok((posed_convex::<S, _>(&self.a)?, posed_convex::<S, _>(&self.b)?))
    }

    fn velocities<S: Scalar>(&self) -> (Vector3<S>, Vector3<S>) {
        (self.velocity_a.map(|x| x.to_backend()), self.velocity_b.map(|x| x.to_backend()))
    }
}

/// `x − y` as a test with its magnitude.
fn difference<S: Scalar>(x: &End<S>, y: &End<S>) -> Scaled<S> {
    Scaled { value: x.value.clone() - y.value.clone(), magnitude: x.magnitude.clone() + y.magnitude.clone() }
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
    Ok([ca.feature_id(&extreme_feature(a, &n, &nm, !up)?)?, cb.feature_id(&extreme_feature(b, &n, &nm, up)?)?])
}

/// The feature of the strictly convex `s` made of its vertices extreme along `n` (the highest,
/// or the lowest): a vertex, an edge or a face. (A tolerant backend's ties may make no
/// feature: then the first extreme vertex.)
fn extreme_feature<S: Scalar>(
    s: &Solid<S>,
    n: &Vector3<S>,
    nm: &Vector3<S>,
    highest: bool,
) -> Result<Feature, QueryError> {
    let (lo, hi, m) = project(s, n, nm)?;
    let extreme = if highest { hi } else { lo };
    let mut on = Vec::new();
    for (i, p) in s.vertices().iter().enumerate() {
        if sign(&(p.coords.dot(n) - extreme.clone()), &m)? == Sign::Zero {
            on.push(i);
        }
    }
    let feature = match on.as_slice() {
        [v] => Some(Feature::Vertex(*v)),
        &[u, w] => s.edge_index(u, w).map(|e| {
            let (u, w) = s.edges()[e];
            Feature::Edge(u, w)
        }),
        _ => (0..s.face_count())
            .find(|&f| s.face(f).len() == on.len() && s.face(f).iter().all(|v| on.contains(v)))
            .map(Feature::Face),
    };
    match (feature, on.first()) {
        (Some(f), _) => Ok(f),
        (None, Some(&v)) if !S::CERTAIN_DECISIONS => Ok(Feature::Vertex(v)),
        _ => Err(QueryError::new(ErrorKind::Internal, "", "the extreme vertices make no feature")),
    }
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

    fn exact_from_filter(&self, decided: &Answer<Interval, Self>) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let out = &decided.output;
        if !out.collides {
            return Some(Ok(Answer::plain(ToiOutput::miss())));
        }
        let construct = || -> Result<Answer<Exact, Self>, QueryError> {
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
                    let AlongAxis::Moving { first, .. } = along_axis(a, b, &v, &n)? else { return Err(mismatch()) };
                    let later = match &latest {
                        None => true,
                        Some((_, l)) => {
                            first.value.compare(l).map_err(|u| QueryError::uncertain("", u))? == Ordering::Greater
                        }
                    };
                    if later {
                        latest = Some((axis, first.value));
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
        let w = meeting_window(a, b, &v)?;
        let mut decisive = w.decisive;
        decisive.extend(poses);
        if w.never {
            return miss(decisive);
        }
        let start = End { value: t0.clone(), magnitude: t0.abs() };
        let end = End { value: t1.clone(), magnitude: t1.abs() };
        // The first contact: max(enter, t0) if it is at most min(exit, t1).
        let test = |s: Scaled<S>, decisive: &mut Vec<Decisive<S>>| -> Result<Sign, QueryError> {
            let r = sign(&s.value, &s.magnitude);
            decisive.push(Decisive::Test(s));
            r
        };
        // enter against t0, decided once: None when there is no entry (met since −∞).
        let entry = match &w.enter {
            None => None,
            Some(e) => Some(test(difference(e, &start), &mut decisive)?),
        };
        let from_start = entry != Some(Sign::Positive);
        let first = if from_start { start.clone() } else { w.enter.clone().unwrap_or(start.clone()) };
        let last = match &w.exit {
            None => end.clone(),
            Some(x) => earlier(x.clone(), end.clone())?,
        };
        if test(difference(&first, &last), &mut decisive)? == Sign::Positive {
            return miss(decisive);
        }
        // Overlapping at t0 with positive depth: t0 strictly inside the window, and no axis
        // along which they only ever touch.
        let overlapping = from_start
            && !w.touching_throughout
            && entry.is_none_or(|s| s == Sign::Negative)
            && w.exit
                .as_ref()
                .map_or(Ok(true), |x| test(difference(x, &start), &mut decisive).map(|s| s == Sign::Positive))?;
        let at_start = from_start.then_some(if overlapping { AtStart::Overlapping } else { AtStart::Touching });
        // The touching pair is V-Clip's on the shapes moved to the first contact, where they
        // touch: the distance it decides is exactly zero, never decided on intervals, so a run
        // on intervals leaves it to the exact construction (`exact_from_filter`).
        let features = if overlapping || S::FILTER {
            None
        } else if let (false, Some(&(axis, _))) = (from_start, w.entry.first()) {
            Some(entry_pair(&ca, &cb, &v, axis)?)
        } else {
            Some(touching_pair(&ca, &cb, (&va, &vb), &first.value)?)
        };
        let entry = if from_start { Vec::new() } else { w.entry.into_iter().map(|(axis, _)| axis).collect() };
        Ok(Answer {
            output: ToiOutput { collides: true, toi: Some(S::time(&first.value)), at_start, features, entry },
            decisive,
            continuous: vec![Bounded::new("toi", first.value.clone(), first.magnitude.clone())],
        })
    }

    /// The answer's tests and the posed shapes' own (as for `distance`).
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<crate::contract::Margin, QueryError> {
        let margin = super::margin_of(&exact.decisive);
        Ok(match self.posed::<BigRational>() {
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

    /// `collides`, `toi` (on the run's enclosure of the exact time) and `at_start` by the
    /// decided answer; claimed features are judged exactly (the run names no pair).
    fn judge_enclosed(
        &self,
        decided: &Answer<Interval, Self>,
        claim: &ToiClaim,
        tol: &Tolerance,
    ) -> Option<Vec<(String, bool)>> {
        if claim.features.is_some() {
            return None;
        }
        let out = &decided.output;
        let mut v = super::ccd::contact_enclosed((claim.collides, &claim.toi), (out.collides, &out.toi), tol)?;
        if let Some(s) = claim.at_start {
            v.push(("at_start".into(), out.at_start == Some(s)));
        }
        Some(v)
    }

    /// `features` pass when the claimed pair touches at the exact time (a face on a face has
    /// many touching pairs).
    fn judge(
        &self,
        exact: &Answer<BigRational, Self>,
        claim: &ToiClaim,
        tol: &Tolerance,
        digits: u32,
    ) -> Result<Verdict, QueryError> {
        let out = &exact.output;
        let mut v = Verdict::default();
        super::ccd::contact_checks(
            &mut v,
            (claim.collides, &claim.toi),
            (out.collides, &out.toi),
            tol,
            digits,
            "the shapes do not meet in the interval",
        );
        if let Some(s) = claim.at_start {
            let shown = |s: Option<AtStart>| s.map_or(Shown::Absent, |s| Shown::Text(s.as_str().into()));
            v.checks.push(Check::equal("at_start", shown(Some(s)), shown(out.at_start)));
        }
        if let Some([fa, fb]) = &claim.features {
            let claimed = Shown::Features(vec![fa.clone(), fb.clone()]);
            let exact_shown = out.features.clone().map_or(Shown::Absent, |f| Shown::Features(f.to_vec()));
            let check = match (&out.toi, &out.features) {
                (Some(t), Some(f)) => {
                    let touches = self.touch_at(t, fa, fb)?;
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
            v.checks.push(check);
        }
        Ok(v)
    }
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
