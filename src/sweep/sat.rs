//! First time of contact of two boxes under quadratic 4×4 motions by the separating-axis
//! theorem: the independent route that the box sweep of Albocher–Sarel is checked against.
//!
//! Box k occupies {Mₖ(t)·(x, 1) : |xᵢ| ≤ hᵢ} with Mₖ(t) = M₀ + M₁t + M₂t² (row-major 4×4,
//! last row (0, 0, 0, w(t)), w without roots in the interval, linear part nonsingular there):
//! a parallelepiped with edge vectors the columns cᵢ(t) of the linear part and centre
//! o(t)/w(t). Two convex polytopes are disjoint iff some axis separates them; for two
//! parallelepipeds the axes are the three face normals of each (cⱼ × cₖ) and the nine cross
//! products of their edge directions. Along axis L the boxes overlap (closed) iff
//!
//! ```text
//! g_L(t) = Σᵢ hᵢ |L·aᵢ| |w_b| + Σⱼ h'ⱼ |L·bⱼ| |w_a| − |L·(o_b w_a − o_a w_b)| ≥ 0
//! ```
//!
//! (multiplied through by |w_a w_b| > 0). Every g_L is a polynomial on each piece between the
//! roots of its terms, so the collision set {t : g_L(t) ≥ 0 for all L} is closed and its least
//! element is t₀, a root of a term, or a root of some piece's polynomial inside its piece;
//! candidates are tested in increasing order, every sign decided exactly at the algebraic
//! candidate.

use num_rational::BigRational;

use crate::poly::{earlier, order, sort_times, Poly, PolyError, RootScalar, TPoly};
use crate::scalar::{try_dedup_by, Decision, Exact, Scalar, Sign};

use super::{cross, dot, frame_of, BoxMotion, FrameOf, SweepError};

type Q = BigRational;
type P<S> = TPoly<S>;
type V<S> = [TPoly<S>; 3];

/// Which kind of axis decided the contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatAxis {
    /// A face normal of box a: a face of a meets b (generically a vertex of b): face–vertex.
    FaceOfA(usize),
    /// A face normal of box b: vertex–face.
    FaceOfB(usize),
    /// Edge direction i of a crossed with edge direction j of b: edge–edge.
    EdgeEdge(usize, usize),
}

/// The first contact: its time and an axis that was separating just before it (`None` when
/// the boxes already meet at t₀).
#[derive(Clone, Debug, PartialEq)]
pub struct SatContact<S: RootScalar = Q> {
    /// The time (exact backends: a real algebraic number).
    pub time: S::Time,
    /// The axis that stops separating at `time`, if the boxes were apart before it.
    pub axis: Option<SatAxis>,
    /// Whether the boxes overlap with positive depth at t₀ (not merely touch).
    pub overlapping_at_start: bool,
}

/// One axis: its terms rₖ (with the positive factors folded in) and the centre term d.
struct AxisTerms<S: RootScalar> {
    axis: SatAxis,
    /// The axis direction L(t).
    direction: V<S>,
    radii: Vec<P<S>>,
    centre: P<S>,
}

fn axes<S: RootScalar>(a: &BoxMotion<S>, fa: &FrameOf<S>, b: &BoxMotion<S>, fb: &FrameOf<S>) -> Vec<AxisTerms<S>> {
    let abs_w = |f: &FrameOf<S>| if f.w_sign == Sign::Negative { -f.w.clone() } else { f.w.clone() };
    let (wa, wb) = (abs_w(fa), abs_w(fb));
    let d: V<S> = [0, 1, 2].map(|i| fb.origin[i].clone() * fa.w.clone() - fa.origin[i].clone() * fb.w.clone());
    let mut list: Vec<(SatAxis, V<S>)> = Vec::new();
    for (i, (j, k)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
        list.push((SatAxis::FaceOfA(i), cross(&fa.cols[j], &fa.cols[k])));
        list.push((SatAxis::FaceOfB(i), cross(&fb.cols[j], &fb.cols[k])));
    }
    for i in 0..3 {
        for j in 0..3 {
            list.push((SatAxis::EdgeEdge(i, j), cross(&fa.cols[i], &fb.cols[j])));
        }
    }
    let half = |h: &S| TPoly::input(Poly::constant(h.clone()));
    list.into_iter()
        .map(|(axis, l)| {
            let mut radii = Vec::new();
            for i in 0..3 {
                radii.push(dot(&l, &fa.cols[i]) * half(&a.half[i]) * wb.clone());
                radii.push(dot(&l, &fb.cols[i]) * half(&b.half[i]) * wa.clone());
            }
            AxisTerms { axis, centre: dot(&l, &d), radii, direction: l }
        })
        .collect()
}

fn sign_poly<S: RootScalar>(s: Sign, p: &P<S>) -> P<S> {
    match s {
        Sign::Negative => -p.clone(),
        _ => p.clone(),
    }
}

impl<S: RootScalar> AxisTerms<S> {
    /// g_L's polynomial on the piece where the terms have the signs they have at `t`.
    fn piece_at(&self, t: &S::Time) -> Result<P<S>, PolyError> {
        let mut g = TPoly::zero();
        for r in &self.radii {
            g = g + sign_poly(S::sign_at(r, t)?, r);
        }
        Ok(g - sign_poly(S::sign_at(&self.centre, t)?, &self.centre))
    }

    fn terms(&self) -> impl Iterator<Item = &P<S>> {
        self.radii.iter().chain(std::iter::once(&self.centre))
    }
}

/// The first time in [t0, t1] at which the two boxes meet (closed boxes, closed interval), by
/// the separating-axis theorem.
pub fn first_contact_sat<S: RootScalar>(
    a: &BoxMotion<S>,
    b: &BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Option<SatContact<S>>, SweepError> {
    if (t1.clone() - t0.clone()).sign().map_err(PolyError::from)? == Sign::Negative {
        return Err(SweepError::EmptyInterval);
    }
    for (k, bx) in [a, b].into_iter().enumerate() {
        for (axis, h) in bx.half.iter().enumerate() {
            if h.sign().map_err(PolyError::from)? != Sign::Positive {
                return Err(SweepError::BadHalfExtent { box_index: k, axis });
            }
        }
    }
    let (axes, candidates) = prepare(a, b, t0, t1)?;
    decide(&axes, candidates, &S::time(t0))
}

/// Every axis of a pair and its sorted candidate times.
type Prepared<S> = (Vec<AxisTerms<S>>, Vec<<S as RootScalar>::Time>);

/// Every axis of the pair, and the sorted candidate times: t0, the roots of every term, and
/// the roots of every piece's polynomial inside its piece.
fn prepare<S: RootScalar>(a: &BoxMotion<S>, b: &BoxMotion<S>, t0: &S, t1: &S) -> Result<Prepared<S>, SweepError> {
    let (fa, fb) = (frame_of(a, 0, t0, t1)?, frame_of(b, 1, t0, t1)?);
    let axes = axes(a, &fa, b, &fb);
    let (start, end) = (S::time(t0), S::time(t1));
    let same = |x: &S::Time, y: &S::Time| -> Decision<bool> { Ok(order::<S>(x, y)? == std::cmp::Ordering::Equal) };
    let mut candidates = vec![start.clone()];
    for ax in &axes {
        // Breakpoints of this axis, then each piece's polynomial and its roots in the piece.
        let mut breaks: Vec<S::Time> = Vec::new();
        for p in ax.terms() {
            if !p.is_zero()? {
                breaks.extend(S::roots_in(&p.p, t0, t1)?);
            }
        }
        sort_times::<S>(&mut breaks)?;
        candidates.extend(breaks.iter().cloned());
        let mut bounds = vec![start.clone()];
        for x in &breaks {
            if earlier::<S>(&start, x)? && earlier::<S>(x, &end)? {
                bounds.push(x.clone());
            }
        }
        bounds.push(end.clone());
        try_dedup_by(&mut bounds, order::<S>)?;
        for piece in bounds.windows(2) {
            let (lo, hi) = (&piece[0], &piece[1]);
            if same(lo, hi)? {
                continue;
            }
            let sample = S::between(lo, hi)?;
            let g = ax.piece_at(&sample)?;
            if g.is_zero()? {
                continue;
            }
            for r in S::roots_in(&g.p, t0, t1)? {
                if !earlier::<S>(&r, lo)? && !earlier::<S>(hi, &r)? {
                    candidates.push(r);
                }
            }
        }
    }
    sort_times::<S>(&mut candidates)?;
    Ok((axes, candidates))
}

/// The first candidate at which every axis overlaps.
fn decide<S: RootScalar>(
    axes: &[AxisTerms<S>],
    candidates: Vec<S::Time>,
    start: &S::Time,
) -> Result<Option<SatContact<S>>, SweepError> {
    let start = start.clone();
    let same = |x: &S::Time, y: &S::Time| -> Decision<bool> { Ok(order::<S>(x, y)? == std::cmp::Ordering::Equal) };
    for t in candidates {
        crate::budget::tick()?;
        let mut all = true;
        for ax in axes {
            if S::sign_at(&ax.piece_at(&t)?, &t)? == Sign::Negative {
                all = false;
                break;
            }
        }
        if !all {
            continue;
        }
        if same(&t, &start)? {
            // Overlap with positive depth: every axis that exists at t0 (L ≠ 0; parallel edges
            // give L = 0 and every term zero) has g > 0.
            let mut strictly = true;
            for ax in axes {
                let mut degenerate = true;
                for p in ax.terms() {
                    if S::sign_at(p, &start)? != Sign::Zero {
                        degenerate = false;
                    }
                }
                if !degenerate && S::sign_at(&ax.piece_at(&start)?, &start)? != Sign::Positive {
                    strictly = false;
                }
            }
            return Ok(Some(SatContact { time: t, axis: None, overlapping_at_start: strictly }));
        }
        // An axis that touches now (g = 0) and separated just before (g < 0 on the left piece).
        let mut axis = None;
        for ax in axes {
            if S::sign_at(&ax.piece_at(&t)?, &t)? == Sign::Zero {
                axis = Some(ax.axis);
                break;
            }
        }
        return Ok(Some(SatContact { time: t, axis, overlapping_at_start: false }));
    }
    Ok(None)
}

/// The exact answer for binary64 boxes with its margin and the error bound of an `f64` time.
pub(crate) struct SweepMargined {
    pub exact: Option<SatContact<Q>>,
    pub margin: f64,
    pub toi_bound: f64,
}

/// The exact first contact of binary64 boxes and how far they are from a change of answer:
/// the least, over the exact candidates up to the first contact and the critical points of
/// every axis's piece polynomials there (near-grazes), of the decision's slack at that time:
/// for a time at which every axis overlaps, the least relative overlap; otherwise the largest
/// relative separation; and at a critical point of one axis where every other axis overlaps,
/// that axis's own relative value (a graze: a double root of the contact equation, which a
/// perturbation turns into a miss or an earlier contact). Relative values are taken in `f64`
/// against the magnitude polynomials of the `f64` axes built from the same numbers.
pub(crate) fn sat_with_margin(
    a: &BoxMotion<f64>,
    b: &BoxMotion<f64>,
    t0: f64,
    t1: f64,
) -> Result<SweepMargined, SweepError> {
    // The exact side on the fast exact backend (the same numbers as the reference's, with no
    // gcd per operation): this is the differential checks' main cost.
    let q = |x: f64| Exact::from_f64(x).unwrap_or_else(|_| <Exact as num_traits::Zero>::zero());
    let exact_box = |m: &BoxMotion<f64>| BoxMotion { half: m.half.map(q), motion: m.motion.map(|x| x.map(q)) };
    let (ea, eb) = (exact_box(a), exact_box(b));
    let (qt0, qt1) = (q(t0), q(t1));
    let (exact_axes, candidates) = prepare(&ea, &eb, &qt0, &qt1)?;
    let exact: Option<SatContact<Q>> = decide(&exact_axes, candidates.clone(), &Exact::time(&qt0))?
        .map(|c| SatContact { time: c.time, axis: c.axis, overlapping_at_start: c.overlapping_at_start });
    // The margin and the time bound are measured against the f64 axes built from the same
    // numbers; when those overflow, the fast path is outside its range here and is held to
    // nothing (margin 0: its own answer is an overflow refusal).
    let fast = || -> Result<(f64, f64), SweepError> {
        let (fast_axes, _) = prepare(a, b, &t0, &t1)?;
        let underflowed = exact_axes
            .iter()
            .zip(&fast_axes)
            .any(|(e, f)| e.terms().zip(f.terms()).any(|(x, y)| crate::poly::underflowed(&x.p, &y.p)));
        if underflowed {
            // The f64 axes lost terms to underflow: held to nothing (margin 0).
            return Ok((0.0, f64::INFINITY));
        }
        let last = exact.as_ref().map(|c| c.time.to_f64()).unwrap_or(t1);
        // The critical points of every axis's piece polynomials on [t0, last], in f64.
        // Each time comes with the axis whose critical point it is, if it is one.
        let mut times: Vec<(f64, Option<usize>)> =
            candidates.iter().map(|c| (c.to_f64(), None)).filter(|(t, _)| *t <= last).collect();
        for (k, ax) in fast_axes.iter().enumerate() {
            for probe in [t0, (t0 + last) / 2.0, last] {
                let g = ax.piece_at(&probe)?;
                let d = g.p.derivative();
                if !d.is_zero() && t0 < last {
                    times.extend(crate::poly::float_roots(&d, t0, last)?.into_iter().map(|t| (t, Some(k))));
                }
            }
        }
        let mut margin = f64::INFINITY;
        for (t, critical) in times {
            // Relative overlaps (≥ 0) and separations of the axes that exist at t.
            let (mut overlaps, mut most) = (Vec::new(), 0.0_f64);
            // The critical axis's relative value, and the largest separation of the others.
            let (mut extremum, mut most_others) = (None, 0.0_f64);
            for (k, ax) in fast_axes.iter().enumerate() {
                let g = ax.piece_at(&t)?;
                if g.is_zero()? {
                    continue;
                }
                let r = g.relative_at(t);
                let separated = g.p.eval(&t) < 0.0;
                if critical == Some(k) {
                    extremum = Some(r);
                } else if separated {
                    most_others = most_others.max(r);
                }
                if separated {
                    most = most.max(r);
                } else {
                    overlaps.push((r, ax.direction.clone().map(|c| c.p.eval(&t))));
                }
            }
            // At a time where the boxes meet, the axis that just closed (g = 0) is the contact
            // equation, not a slack: the margin is the least overlap along any other direction
            // (axes along the same direction, e.g. a face normal that is also an edge-pair cross
            // product of aligned boxes, are one plane). It is 0 when two directions close at once:
            // vertex on vertex, edge on edge along a face. At t0 there is no such axis. Elsewhere
            // the margin is the largest separation: the answer changes only when it closes.
            overlaps.sort_by(|x, y| x.0.total_cmp(&y.0));
            let holds = most <= 2.0 * f64::relative_tolerance();
            let parallel = |u: &[f64; 3], v: &[f64; 3]| {
                let c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
                let n = |w: &[f64; 3]| w.iter().map(|x| x * x).sum::<f64>().sqrt();
                n(&c) <= 1e-9 * n(u) * n(v)
            };
            let slack = match overlaps.first() {
                Some((_, closing)) if holds && t > t0 => overlaps
                    .iter()
                    .filter(|(_, d)| !parallel(closing, d))
                    .map(|(r, _)| *r)
                    .next()
                    .unwrap_or(f64::INFINITY),
                Some((r, _)) if holds => *r,
                _ if holds => f64::INFINITY,
                _ => most,
            };
            // An extremum of one axis where every other axis overlaps: moving that axis by its
            // value makes or unmakes a contact there (a graze: a double root of the contact
            // equation, which the rule above, taking the closing axis as the equation, misses).
            let slack = match extremum {
                Some(r) if most_others <= 2.0 * f64::relative_tolerance() => slack.min(r),
                _ => slack,
            };
            margin = margin.min(slack);
        }
        let mut toi_bound = f64::INFINITY;
        if let Some(c) = &exact {
            let t = c.time.to_f64();
            for ax in &fast_axes {
                let g = ax.piece_at(&t)?;
                if g.relative_at(t) <= 2.0 * f64::relative_tolerance() {
                    let slope = g.p.derivative().eval(&t).abs();
                    let m = g.magnitude_at(t);
                    if slope > 0.0 {
                        toi_bound = toi_bound.min(64.0 * f64::relative_tolerance() * m / slope + 4.0 * f64::EPSILON);
                    }
                }
            }
        }
        Ok((margin, toi_bound))
    };
    let (margin, toi_bound) = match fast() {
        Ok(m) => m,
        Err(
            SweepError::Uncertain(crate::scalar::Uncertain::Overflow)
            | SweepError::Poly(PolyError::NotFinite(_))
            | SweepError::Poly(PolyError::Uncertain(crate::scalar::Uncertain::Overflow)),
        ) => (0.0, f64::INFINITY),
        Err(e) => return Err(e),
    };
    Ok(SweepMargined { exact, margin, toi_bound })
}

/// Whether every axis of the binary64 boxes overlaps at `t` within twice the tolerance,
/// exactly evaluated (the piece of each axis taken at `t`): an `f64` contact at `t` is valid.
pub(crate) fn valid_contact_at(a: &BoxMotion<f64>, b: &BoxMotion<f64>, t0: f64, t1: f64, t: f64) -> bool {
    let q = |x: f64| Q::from_float(x).unwrap_or_default();
    let exact_box = |m: &BoxMotion<f64>| BoxMotion { half: m.half.map(q), motion: m.motion.map(|x| x.map(q)) };
    let (ea, eb) = (exact_box(a), exact_box(b));
    let (Ok((exact_axes, _)), Ok((fast_axes, _))) = (prepare(&ea, &eb, &q(t0), &q(t1)), prepare(a, b, &t0, &t1)) else {
        return false;
    };
    let tq = q(t);
    exact_axes.iter().zip(&fast_axes).all(|(e, f)| {
        let (Ok(g), Ok(gf)) = (e.piece_at(&Q::time(&tq)), f.piece_at(&t)) else { return false };
        let m = gf.magnitude_at(t);
        let allowed =
            Q::from_float(2.0 * (f64::relative_tolerance() * m + f64::absolute_tolerance())).unwrap_or_default();
        g.p.eval(&tq) >= -allowed
    })
}
