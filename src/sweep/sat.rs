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
use num_traits::{One, Zero};

use crate::geom::Matrix4;
use crate::poly::{real_roots, Algebraic, Poly, PolyError};
use crate::scalar::Sign;

type Q = BigRational;
type P = Poly<Q>;
type V = [P; 3];

/// A box and its motion.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxMotion {
    /// Half extents (positive).
    pub half: [Q; 3],
    /// M₀, M₁, M₂ with M(t) = M₀ + M₁t + M₂t², mapping box coordinates to world.
    pub motion: [Matrix4<Q>; 3],
}

/// Why a sweep query cannot be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SweepError {
    /// The interval ends before it starts.
    #[error("the interval ends before it starts (t1 < t0)")]
    EmptyInterval,
    /// A half extent is not positive.
    #[error("box {box_index}: half extent {axis} is not positive")]
    BadHalfExtent {
        /// 0 for a, 1 for b.
        box_index: usize,
        /// 0, 1 or 2.
        axis: usize,
    },
    /// A motion's last row is not (0, 0, 0, w(t)).
    #[error("box {box_index}: the motion's last row must be (0, 0, 0, w(t)): a projective motion is not supported")]
    Projective {
        /// 0 for a, 1 for b.
        box_index: usize,
    },
    /// A motion is singular (zero determinant, or w = 0) somewhere in the interval.
    #[error("box {box_index}: the motion is singular at some time in the interval")]
    Singular {
        /// 0 for a, 1 for b.
        box_index: usize,
    },
    /// Exact arithmetic limits.
    #[error(transparent)]
    Poly(#[from] PolyError),
}

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
pub struct SatContact {
    /// The time.
    pub time: Algebraic,
    /// The axis that stops separating at `time`, if the boxes were apart before it.
    pub axis: Option<SatAxis>,
    /// Whether the boxes overlap with positive depth at t₀ (not merely touch).
    pub overlapping_at_start: bool,
}

fn entry(m: &[Matrix4<Q>; 3], i: usize, j: usize) -> P {
    Poly::from_coeffs(vec![m[0][(i, j)].clone(), m[1][(i, j)].clone(), m[2][(i, j)].clone()])
}

pub(super) fn cross(a: &V, b: &V) -> V {
    [(1, 2), (2, 0), (0, 1)].map(|(i, j)| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone())
}

pub(super) fn dot(a: &V, b: &V) -> P {
    (0..3).fold(P::zero(), |acc, i| acc + a[i].clone() * b[i].clone())
}

/// A box's motion split as M = [[A, o], [0, w]]: the columns of A, o, w and w's sign.
pub(super) struct Frame {
    pub(super) cols: [V; 3],
    pub(super) origin: V,
    pub(super) w: P,
    w_sign: Sign,
}

/// Validate a motion on [t0, t1] (affine last row, w and det A without roots) and split it.
pub(super) fn frame(b: &BoxMotion, index: usize, t0: &Q, t1: &Q) -> Result<Frame, SweepError> {
    let m = &b.motion;
    for j in 0..3 {
        if !entry(m, 3, j).is_zero() {
            return Err(SweepError::Projective { box_index: index });
        }
    }
    let cols = [0, 1, 2].map(|j| [0, 1, 2].map(|i| entry(m, i, j)));
    let origin = [0, 1, 2].map(|i| entry(m, i, 3));
    let w = entry(m, 3, 3);
    let det = dot(&cols[0], &cross(&cols[1], &cols[2]));
    for p in [&w, &det] {
        if p.is_zero() || !real_roots(p, t0, t1)?.is_empty() {
            return Err(SweepError::Singular { box_index: index });
        }
    }
    let w_sign = Algebraic::from_rational(t0.clone()).sign_of(&w)?;
    Ok(Frame { cols, origin, w, w_sign })
}

/// One axis: its terms rₖ (with the positive factors folded in) and the centre term d.
struct AxisTerms {
    axis: SatAxis,
    radii: Vec<P>,
    centre: P,
}

fn axes(a: &BoxMotion, fa: &Frame, b: &BoxMotion, fb: &Frame) -> Vec<AxisTerms> {
    let abs_w = |f: &Frame| if f.w_sign == Sign::Negative { -f.w.clone() } else { f.w.clone() };
    let (wa, wb) = (abs_w(fa), abs_w(fb));
    let d: V = [0, 1, 2].map(|i| fb.origin[i].clone() * fa.w.clone() - fa.origin[i].clone() * fb.w.clone());
    let mut list: Vec<(SatAxis, V)> = Vec::new();
    for (i, (j, k)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
        list.push((SatAxis::FaceOfA(i), cross(&fa.cols[j], &fa.cols[k])));
        list.push((SatAxis::FaceOfB(i), cross(&fb.cols[j], &fb.cols[k])));
    }
    for i in 0..3 {
        for j in 0..3 {
            list.push((SatAxis::EdgeEdge(i, j), cross(&fa.cols[i], &fb.cols[j])));
        }
    }
    list.into_iter()
        .map(|(axis, l)| {
            let mut radii = Vec::new();
            for i in 0..3 {
                radii.push(dot(&l, &fa.cols[i]).scale(&a.half[i]) * wb.clone());
                radii.push(dot(&l, &fb.cols[i]).scale(&b.half[i]) * wa.clone());
            }
            AxisTerms { axis, centre: dot(&l, &d), radii }
        })
        .collect()
}

fn sign_poly(s: Sign, p: &P) -> P {
    match s {
        Sign::Negative => -p.clone(),
        _ => p.clone(),
    }
}

impl AxisTerms {
    /// g_L's polynomial on the piece where the terms have the signs they have at `t`.
    fn piece_at(&self, t: &Algebraic) -> Result<P, PolyError> {
        let mut g = P::zero();
        for r in &self.radii {
            g = g + sign_poly(t.sign_of(r)?, r);
        }
        Ok(g - sign_poly(t.sign_of(&self.centre)?, &self.centre))
    }

    fn terms(&self) -> impl Iterator<Item = &P> {
        self.radii.iter().chain(std::iter::once(&self.centre))
    }
}

/// A rational strictly between two algebraic numbers a < b.
pub(super) fn between(a: &Algebraic, b: &Algebraic) -> Result<Q, PolyError> {
    let (mut a, mut b) = (a.clone(), b.clone());
    loop {
        let (hi, lo) = (a.interval().hi().clone(), b.interval().lo().clone());
        let strictly =
            |x: &Q| a.cmp_rational(x) == std::cmp::Ordering::Less && b.cmp_rational(x) == std::cmp::Ordering::Greater;
        let mid = (hi.clone() + lo.clone()) / Q::from_integer(2.into());
        if hi <= lo && strictly(&mid) {
            return Ok(mid);
        }
        let width = |x: &Algebraic| x.interval().hi().clone() - x.interval().lo().clone();
        let (wa, wb) = (width(&a), width(&b));
        let half = |w: Q| if w.is_zero() { Q::one() } else { w / Q::from_integer(2.into()) };
        a.refine(&half(wa))?;
        b.refine(&half(wb))?;
    }
}

/// The first time in [t0, t1] at which the two boxes meet (closed boxes, closed interval), by
/// the separating-axis theorem.
pub fn first_contact_sat(a: &BoxMotion, b: &BoxMotion, t0: &Q, t1: &Q) -> Result<Option<SatContact>, SweepError> {
    if t1 < t0 {
        return Err(SweepError::EmptyInterval);
    }
    for (k, bx) in [a, b].into_iter().enumerate() {
        if let Some(axis) = bx.half.iter().position(|h| h <= &Q::zero()) {
            return Err(SweepError::BadHalfExtent { box_index: k, axis });
        }
    }
    let (fa, fb) = (frame(a, 0, t0, t1)?, frame(b, 1, t0, t1)?);
    let axes = axes(a, &fa, b, &fb);
    let start = Algebraic::from_rational(t0.clone());
    let end = Algebraic::from_rational(t1.clone());
    let mut candidates = vec![start.clone()];
    for ax in &axes {
        // Breakpoints of this axis, then each piece's polynomial and its roots in the piece.
        let mut breaks: Vec<Algebraic> = Vec::new();
        for p in ax.terms().filter(|p| !p.is_zero()) {
            breaks.extend(real_roots(p, t0, t1)?);
        }
        breaks.sort();
        breaks.dedup();
        candidates.extend(breaks.iter().cloned());
        let mut bounds = vec![start.clone()];
        bounds.extend(breaks.iter().filter(|x| **x > start && **x < end).cloned());
        bounds.push(end.clone());
        bounds.dedup();
        for piece in bounds.windows(2) {
            let (lo, hi) = (&piece[0], &piece[1]);
            if lo == hi {
                continue;
            }
            let sample = Algebraic::from_rational(between(lo, hi)?);
            let g = ax.piece_at(&sample)?;
            if g.is_zero() {
                continue;
            }
            candidates.extend(real_roots(&g, t0, t1)?.into_iter().filter(|r| r >= lo && r <= hi));
        }
    }
    candidates.sort();
    candidates.dedup();
    for t in candidates {
        let mut all = true;
        for ax in &axes {
            if t.sign_of(&ax.piece_at(&t)?)? == Sign::Negative {
                all = false;
                break;
            }
        }
        if !all {
            continue;
        }
        if t == start {
            // Overlap with positive depth: every axis that exists at t0 (L ≠ 0; parallel edges
            // give L = 0 and every term zero) has g > 0.
            let mut strictly = true;
            for ax in &axes {
                let mut degenerate = true;
                for p in ax.terms() {
                    if start.sign_of(p)? != Sign::Zero {
                        degenerate = false;
                    }
                }
                if !degenerate && start.sign_of(&ax.piece_at(&start)?)? != Sign::Positive {
                    strictly = false;
                }
            }
            return Ok(Some(SatContact { time: t, axis: None, overlapping_at_start: strictly }));
        }
        // An axis that touches now (g = 0) and separated just before (g < 0 on the left piece).
        let mut axis = None;
        for ax in &axes {
            if t.sign_of(&ax.piece_at(&t)?)? == Sign::Zero {
                axis = Some(ax.axis);
                break;
            }
        }
        return Ok(Some(SatContact { time: t, axis, overlapping_at_start: false }));
    }
    Ok(None)
}
