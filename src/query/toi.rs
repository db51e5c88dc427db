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
//! At the first contact the touching features come from V-Clip on the shapes moved to that
//! time (exactly; they touch there), unless they overlap with positive depth at t0 (no pair
//! touches then).
//!
//! The same code runs on `f64`; `tests/toi.rs` checks the exact answer against the primitive
//! CCD over every vertex–face and edge–edge pair, and `f64` against exact under the agreement
//! contract.

use num_rational::BigRational;

use super::claim::{Check, Shown, Tolerance, Verdict};
use super::error::{ErrorKind, QueryError};
use super::spec::{posed_convex, ConvexPosed, FeatureId, Posed};
use super::toi_boxes::AtStart;
use super::{Answer, Bounded, Decisive, Query};
use crate::brep::Solid;
use crate::geom::{dot_magnitude, Affine, Scaled, Vector3};
use crate::poly::{Algebraic, RootScalar};
use crate::scalar::{Exact, Scalar, Sign};
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
#[derive(Clone, Debug, PartialEq)]
pub struct ToiOutput<S: RootScalar> {
    /// Whether the shapes meet in the closed interval.
    pub collides: bool,
    /// The first time of contact (rational on exact backends).
    pub toi: Option<S::Time>,
    /// When `toi` is t0: overlapping with positive depth, or touching.
    pub at_start: Option<AtStart>,
    /// A feature of a and one of b touching at `toi` (none when overlapping at t0).
    pub features: Option<[FeatureId; 2]>,
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
    let magnitude = s.vertices().iter().fold(S::zero(), |m, p| m + dot_magnitude(&p.coords, nm));
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
    let mut window = Window { enter: None, exit: None, touching_throughout: false, never: false, decisive: Vec::new() };
    // Axes are taken one at a time (never collected: two large shapes have many edge pairs),
    // each a step of the query's budget.
    // An axis's components are computed from the vertices, whose coordinates carry the error
    // of posing them: the tests along an axis are scaled by magnitudes built from the
    // coordinates (`|p| + |q|` for a difference `p − q`), never by the components themselves,
    // which can cancel to rounding noise on `f64` where they are exactly zero.
    for s in [a, b] {
        for f in 0..s.face_count() {
            let (n, nm) = face_axis(s, f);
            window.add_axis(a, b, v, &n, &nm)?;
        }
    }
    let dir = |s: &Solid<S>, &(u, w): &(usize, usize)| {
        let (p, q) = (s.vertex(u), s.vertex(w));
        (q - p, p.coords.map(|x| x.abs()) + q.coords.map(|x| x.abs()))
    };
    for ea in a.edges() {
        for eb in b.edges() {
            if window.never {
                return Ok(window);
            }
            let ((da, ma), (db, mb)) = (dir(a, ea), dir(b, eb));
            let n = da.cross(&db);
            let nm = cross_magnitude(&ma, &mb);
            // Parallel edges give no axis (exactly zero; within the tolerance on f64, where an
            // axis of rounding noise would judge nothing reliably).
            let mut zero = true;
            for (c, m) in n.iter().zip(nm.iter()) {
                if sign(c, m)? != Sign::Zero {
                    zero = false;
                }
            }
            if zero {
                crate::budget::tick()?;
            } else {
                window.add_axis(a, b, v, &n, &nm)?;
            }
        }
    }
    Ok(window)
}

impl<S: Scalar> Window<S> {
    /// Narrow the window by axis `n`, computed with magnitudes `nm` (nothing once the shapes
    /// never meet).
    fn add_axis(
        &mut self,
        a: &Solid<S>,
        b: &Solid<S>,
        v: &Vector3<S>,
        n: &Vector3<S>,
        nm: &Vector3<S>,
    ) -> Result<(), QueryError> {
        if self.never {
            return Ok(());
        }
        crate::budget::tick()?;
        let (a_lo, a_hi, ma) = project(a, n, nm)?;
        let (b_lo, b_hi, mb) = project(b, n, nm)?;
        let w = v.dot(n);
        let mw = dot_magnitude(v, nm);
        // Along n, b's projection at t is [b_lo + w·t, b_hi + w·t]: it meets a's when
        // a_lo − b_hi ≤ w·t ≤ a_hi − b_lo.
        let (low, high) = (a_lo - b_hi, a_hi - b_lo);
        let m = ma + mb;
        match sign(&w, &mw)? {
            Sign::Zero => {
                let (sl, sh) = (sign(&low, &m)?, sign(&high, &m)?);
                self.decisive.push(Decisive::Test(Scaled { value: low.clone(), magnitude: m.clone() }));
                self.decisive.push(Decisive::Test(Scaled { value: high.clone(), magnitude: m.clone() }));
                if sl == Sign::Positive || sh == Sign::Negative {
                    self.never = true;
                    return Ok(());
                }
                if sl == Sign::Zero || sh == Sign::Zero {
                    self.touching_throughout = true;
                }
            }
            s => {
                let (first, last) = if s == Sign::Positive { (low, high) } else { (high, low) };
                let end = |x: S| {
                    let value = x / w.clone();
                    let magnitude = (m.clone() + value.abs() * mw.clone()) / w.abs();
                    End { value, magnitude }
                };
                let (first, last) = (end(first), end(last));
                self.enter = Some(match self.enter.take() {
                    None => first,
                    Some(e) => later(e, first)?,
                });
                self.exit = Some(match self.exit.take() {
                    None => last,
                    Some(e) => earlier(e, last)?,
                });
            }
        }
        Ok(())
    }
}

/// The later of two ends (either on a tie; not a decision on intervals: the hull of the two
/// when they cannot be ordered), with the larger magnitude.
fn later<S: Scalar>(x: End<S>, y: End<S>) -> Result<End<S>, QueryError> {
    let value = x.value.maximum(&y.value).map_err(|u| QueryError::uncertain("", u))?;
    let magnitude = x.magnitude.maximum(&y.magnitude).map_err(|u| QueryError::uncertain("", u))?;
    Ok(End { value, magnitude })
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

impl<N: Scalar> Query for Toi<N> {
    const OP: &'static str = "toi";
    type Output<S: RootScalar> = ToiOutput<S>;
    type Discrete = (bool, Option<AtStart>);
    type Claim = ToiClaim;

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
        let miss = |decisive| {
            Ok(Answer {
                output: ToiOutput { collides: false, toi: None, at_start: None, features: None },
                decisive,
                continuous: Vec::new(),
            })
        };
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
        let features = if overlapping {
            None
        } else {
            // The shapes moved to the first contact touch there: V-Clip names a touching pair.
            let moved = |s: &Solid<S>, vel: &Vector3<S>| {
                s.moved_decided(&Affine::translation(vel.map(|c| c * first.value.clone()))).map_err(|e| {
                    QueryError::new(ErrorKind::Precision, "", format!("moving a shape to the first contact: {e}"))
                })
            };
            let (ma, mb) = (moved(a, &va)?, moved(b, &vb)?);
            let r = vclip_prechecked(&ma, &mb, None).map_err(|e| QueryError::vclip("/op", e))?;
            Some([ca.feature_id(&r.closest.features.0)?, cb.feature_id(&r.closest.features.1)?])
        };
        Ok(Answer {
            output: ToiOutput { collides: true, toi: Some(S::time(&first.value)), at_start, features },
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
        ToiOutput { collides: o.collides, toi: o.toi, at_start: o.at_start, features: o.features }
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
