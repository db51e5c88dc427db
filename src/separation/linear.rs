//! The first time of contact of two convex polytopes moving at constant linear velocities,
//! exactly, by separating axes.
//!
//! Without rotation the shapes meet at time t exactly when their projections overlap on every
//! separating axis (see [`super`]). Along an axis n the projection of b moves by (n·v)·t,
//! v = v_b − v_a, so the overlap along n holds on one closed interval of t (all of time, or
//! never, when n·v = 0), with rational ends. The shapes meet on the intersection
//! [enter, exit] of these intervals, and the first contact in [t0, t1] is max(enter, t0) when
//! that is at most min(exit, t1): a rational number, computed exactly on exact backends.

use std::cmp::Ordering;

use super::{axis_of, extent, project, sign, Axis, Parallels};
use crate::brep::Solid;
use crate::geom::{dot, dot_magnitude, Scaled, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// One end of the meeting window, with the magnitude of its computation.
#[derive(Clone, Debug)]
pub struct End<S: Scalar> {
    /// The time.
    pub value: S,
    /// The magnitude of its computation.
    pub magnitude: S,
}

/// Where the shapes (b moving by v relative to a) meet: the closed window [enter, exit]
/// (`None`: unbounded on that side), whether some axis has them touching for all time (then
/// they never overlap with positive depth), or that they never meet; with the tests that
/// decided it.
pub(crate) struct Window<S: Scalar> {
    enter: Option<End<S>>,
    /// The axes whose entry may be `enter` (one on exact backends; on intervals every axis
    /// whose entry could not be ordered below another's), with their entry times.
    entry: Vec<(Axis, S)>,
    exit: Option<End<S>>,
    touching_throughout: bool,
    /// Apart for all time along an axis that b does not move along.
    never: bool,
    tests: Vec<Scaled<S>>,
}

/// The window in which b, moving by `v` relative to a, meets a: every separating axis taken
/// in turn (faces of a, faces of b, edge pairs; those `parallels` name repeats skipped), each a
/// step of the query's budget.
pub(crate) fn meeting_window<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    v: &Vector3<S>,
    parallels: [&Parallels; 2],
) -> Decision<Window<S>> {
    let mut window = Window {
        enter: None,
        entry: Vec::new(),
        exit: None,
        touching_throughout: false,
        never: false,
        tests: Vec::new(),
    };
    // Axes are taken one at a time (never collected: two large shapes have many edge pairs),
    // each a step of the query's budget.
    for (k, s) in [a, b].into_iter().enumerate() {
        for f in (0..s.face_count()).filter(|&f| !parallels[k].face_repeats(f)) {
            window.add_axis(a, b, v, Axis::Face(k as u8, f))?;
        }
    }
    for i in (0..a.edges().len()).filter(|&i| !parallels[0].edge_repeats(i)) {
        for j in (0..b.edges().len()).filter(|&j| !parallels[1].edge_repeats(j)) {
            if window.never {
                return Ok(window);
            }
            window.add_axis(a, b, v, Axis::Edges(i, j))?;
        }
    }
    Ok(window)
}

/// Where b (moving by v relative to a) overlaps a along one axis.
pub enum AlongAxis<S: Scalar> {
    /// b does not move along the axis: it overlaps a for all time when `low ≤ 0 ≤ high`, never
    /// otherwise (the tests' magnitude `m`).
    Still {
        /// a_lo − b_hi.
        low: S,
        /// a_hi − b_lo.
        high: S,
        /// The tests' magnitude.
        m: S,
    },
    /// b moves along it: they overlap from `first` to `last`.
    Moving {
        /// When they begin to overlap.
        first: End<S>,
        /// When they stop.
        last: End<S>,
    },
}

/// The overlap of a and b along axis `n` with component magnitudes `nm`.
pub fn along_axis<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    v: &Vector3<S>,
    (n, nm): &(Vector3<S>, Vector3<S>),
) -> Decision<AlongAxis<S>> {
    let (a_lo, a_hi, ma) = project(a, n, nm)?;
    let (b_lo, b_hi, mb) = project(b, n, nm)?;
    let w = dot(v, n);
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

/// When b, moving by `v` relative to a, begins to overlap a along axis `n` (with component
/// magnitudes `nm`): [`along_axis`]'s `first`, without the magnitudes a construction whose
/// decisions were made already does not read. `None` when b does not move along `n`.
pub fn entry_along<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    v: &Vector3<S>,
    (n, nm): &(Vector3<S>, Vector3<S>),
) -> Decision<Option<S>> {
    let ((a_lo, a_hi), (b_lo, b_hi)) = (extent(a, n)?, extent(b, n)?);
    let w = dot(v, n);
    Ok(match sign(&w, &dot_magnitude(v, nm))? {
        Sign::Zero => None,
        Sign::Positive => Some((a_lo - b_hi) / w),
        Sign::Negative => Some((a_hi - b_lo) / w),
    })
}

impl<S: Scalar> Window<S> {
    /// Narrow the window by `axis` (nothing once the shapes never meet).
    fn add_axis(&mut self, a: &Solid<S>, b: &Solid<S>, v: &Vector3<S>, axis: Axis) -> Decision<()> {
        if self.never {
            return Ok(());
        }
        crate::budget::tick()?;
        let Some(n) = axis_of(a, b, axis)? else { return Ok(()) };
        match along_axis(a, b, v, &n)? {
            AlongAxis::Still { low, high, m } => {
                let (sl, sh) = (sign(&low, &m)?, sign(&high, &m)?);
                self.tests.push(Scaled { value: low, magnitude: m.clone() });
                self.tests.push(Scaled { value: high, magnitude: m });
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
    fn enter_by(&mut self, axis: Axis, first: End<S>) -> Decision<()> {
        let Some(e) = self.enter.take() else {
            self.entry = vec![(axis, first.value.clone())];
            self.enter = Some(first);
            return Ok(());
        };
        let magnitude = e.magnitude.maximum(&first.magnitude)?;
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
                e.value.maximum(&first.value)?
            }
        };
        self.enter = Some(End { value, magnitude });
        Ok(())
    }
}

/// The earlier of two ends.
pub(crate) fn earlier<S: Scalar>(x: End<S>, y: End<S>) -> Decision<End<S>> {
    let value = x.value.minimum(&y.value)?;
    let magnitude = x.magnitude.maximum(&y.magnitude)?;
    Ok(End { value, magnitude })
}

/// `x − y` as a test with its magnitude.
pub(crate) fn difference<S: Scalar>(x: &End<S>, y: &End<S>) -> Scaled<S> {
    Scaled { value: x.value.clone() - y.value.clone(), magnitude: x.magnitude.clone() + y.magnitude.clone() }
}

/// The first contact in `[t0, t1]` of two convex solids, b moving by `v` relative to a, with the
/// sign tests that decided it.
#[derive(Clone, Debug)]
pub struct LinearContact<S: Scalar> {
    /// The tests of the axes along which b does not move (overlapping or apart for all time).
    pub axis_tests: Vec<Scaled<S>>,
    /// The tests of the meeting window against `[t0, t1]`.
    pub window_tests: Vec<Scaled<S>>,
    /// The contact, if they meet in the interval.
    pub hit: Option<Hit<S>>,
}

/// A first contact.
#[derive(Clone, Debug)]
pub struct Hit<S: Scalar> {
    /// Its time, with its magnitude.
    pub time: End<S>,
    /// Whether they are in contact at t0 already.
    pub from_start: bool,
    /// Whether they overlap with positive depth at t0.
    pub overlapping: bool,
    /// The axes through which b enters last (empty for a contact at t0): one on exact
    /// backends; on intervals every axis whose entry could not be ordered below another's.
    pub entry: Vec<Axis>,
}

/// The first time in `[t0, t1]` at which b, moving by `v` relative to a, meets a: max(enter, t0)
/// when that is at most min(exit, t1). `parallels`: the repeated axes of a and of b, skipped
/// ([`Parallels::none`] takes every axis).
pub fn first_contact<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    v: &Vector3<S>,
    [t0, t1]: [&S; 2],
    parallels: [&Parallels; 2],
) -> Decision<LinearContact<S>> {
    let mut w = meeting_window(a, b, v, parallels)?;
    let axis_tests = std::mem::take(&mut w.tests);
    let mut tests = Vec::new();
    if w.never {
        return Ok(LinearContact { axis_tests, window_tests: tests, hit: None });
    }
    let start = End { value: t0.clone(), magnitude: t0.abs() };
    let end = End { value: t1.clone(), magnitude: t1.abs() };
    let test = |s: Scaled<S>, tests: &mut Vec<Scaled<S>>| -> Decision<Sign> {
        let r = sign(&s.value, &s.magnitude);
        tests.push(s);
        r
    };
    // enter against t0, decided once: None when there is no entry (met since −∞).
    let entry = match &w.enter {
        None => None,
        Some(e) => Some(test(difference(e, &start), &mut tests)?),
    };
    let from_start = entry != Some(Sign::Positive);
    let first = if from_start { start.clone() } else { w.enter.clone().unwrap_or(start.clone()) };
    let last = match &w.exit {
        None => end.clone(),
        Some(x) => earlier(x.clone(), end.clone())?,
    };
    if test(difference(&first, &last), &mut tests)? == Sign::Positive {
        return Ok(LinearContact { axis_tests, window_tests: tests, hit: None });
    }
    // Overlapping at t0 with positive depth: t0 strictly inside the window, and no axis
    // along which they only ever touch.
    let overlapping = from_start
        && !w.touching_throughout
        && entry.is_none_or(|s| s == Sign::Negative)
        && w.exit
            .as_ref()
            .map_or(Ok(true), |x| test(difference(x, &start), &mut tests).map(|s| s == Sign::Positive))?;
    let entry = if from_start { Vec::new() } else { w.entry.iter().map(|(axis, _)| *axis).collect() };
    Ok(LinearContact {
        axis_tests,
        window_tests: tests,
        hit: Some(Hit { time: first, from_start, overlapping, entry }),
    })
}
