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
use crate::scalar::{try_dedup_by, Decision, Sign};

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
pub(super) struct AxisTerms<S: RootScalar> {
    axis: SatAxis,
    /// The axis direction L(t).
    pub(super) direction: V<S>,
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
    pub(super) fn piece_at(&self, t: &S::Time) -> Result<P<S>, PolyError> {
        let mut g = TPoly::zero();
        for r in &self.radii {
            g = g + sign_poly(S::sign_at(r, t)?, r);
        }
        Ok(g - sign_poly(S::sign_at(&self.centre, t)?, &self.centre))
    }

    pub(super) fn terms(&self) -> impl Iterator<Item = &P<S>> {
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
pub(super) fn prepare<S: RootScalar>(
    a: &BoxMotion<S>,
    b: &BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Prepared<S>, SweepError> {
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
pub(super) fn decide<S: RootScalar>(
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
