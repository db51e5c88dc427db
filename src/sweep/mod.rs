//! Continuous collision: exact first time of contact of linearly moving primitives, and of two
//! boxes under quadratic 4×4 motions by the box sweep of Albocher–Sarel ([`first_contact_bms`],
//! the primary route) checked against the separating-axis theorem ([`first_contact_sat`]).

pub mod benchmark;
pub mod bms;
pub(crate) mod ccd;
pub mod contract;
pub(crate) mod sat;

pub use bms::{
    bms_sections, first_contact_bms, kind_of_pair, pair_touches, BmsContact, BmsPlane, BmsSection, BoxFeature,
    ContactKind, FeaturePair,
};
pub use ccd::{ccd, edge_edge, vertex_face, CcdKind, CcdResult};
pub use sat::{first_contact_sat, SatAxis, SatContact};

// The types and helpers both box-sweep routes share: the box and its motion, the error, and a
// motion's frame. `bms` (the primary route) and `sat` (its cross-check) import them from here,
// not from each other.

use num_rational::BigRational;

use crate::geom::Matrix4;
use crate::poly::{Poly, PolyError, RootScalar, TPoly};
use crate::scalar::{Scalar, Sign};

type Q = BigRational;
type P<S> = TPoly<S>;
type V<S> = [TPoly<S>; 3];

/// A box and its motion.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxMotion<S: Scalar = Q> {
    /// Half extents (positive).
    pub half: [S; 3],
    /// M₀, M₁, M₂ with M(t) = M₀ + M₁t + M₂t², mapping box coordinates to world.
    pub motion: [Matrix4<S>; 3],
}

impl BoxMotion<f64> {
    /// The exact box and motion these binary64 numbers denote.
    pub fn to_exact(&self) -> BoxMotion<Q> {
        let q = |x: f64| Q::from_float(x).unwrap_or_default();
        BoxMotion { half: self.half.map(q), motion: self.motion.map(|m| m.map(q)) }
    }
}

impl BoxMotion<Q> {
    /// The nearest binary64 box and motion (each number correctly rounded).
    pub fn to_f64(&self) -> BoxMotion<f64> {
        BoxMotion {
            half: self.half.clone().map(|h| h.to_f64()),
            motion: self.motion.clone().map(|m| m.map(|x| x.to_f64())),
        }
    }
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
    /// A feature named in a claim is not a feature of the box: a vertex id above 7, an edge
    /// or a face whose ids are not ascending or do not span one.
    #[error("box {box_index}: not a box feature (vertex ids 0–7; an edge or a face as its vertex ids, ascending)")]
    BadFeature {
        /// 0 for a, 1 for b.
        box_index: usize,
    },
    /// A claimed time lies outside the interval.
    #[error("the time is outside the interval [t0, t1]")]
    TimeOutside,
    /// Exact arithmetic limits.
    #[error(transparent)]
    Poly(#[from] PolyError),
    /// A decision the backend could not make (see [`Uncertain`](crate::scalar::Uncertain)).
    #[error(transparent)]
    Uncertain(#[from] crate::scalar::Uncertain),
}

fn entry<S: RootScalar>(m: &[Matrix4<S>; 3], i: usize, j: usize) -> P<S> {
    TPoly::input(Poly::from_coeffs(vec![m[0][(i, j)].clone(), m[1][(i, j)].clone(), m[2][(i, j)].clone()]))
}

/// The cross product of vectors of polynomials (`Poly` or `TPoly`).
pub(crate) fn cross<T>(a: &[T; 3], b: &[T; 3]) -> [T; 3]
where
    T: Clone + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>,
{
    [(1, 2), (2, 0), (0, 1)].map(|(i, j)| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone())
}

/// The dot product of vectors of polynomials (`Poly` or `TPoly`).
pub(crate) fn dot<T>(a: &[T; 3], b: &[T; 3]) -> T
where
    T: Clone + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
{
    a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
}

/// A motion split as M = [[A, o], [0, w]]: the columns of A, o, w and w's sign at t0.
pub(crate) struct FrameOf<S: RootScalar> {
    pub(crate) cols: [V<S>; 3],
    pub(crate) origin: V<S>,
    pub(crate) w: P<S>,
    pub(crate) w_sign: Sign,
}

/// Validate a motion on [t0, t1] (affine last row, w and det A without roots) and split it.
pub(crate) fn frame_of<S: RootScalar>(
    b: &BoxMotion<S>,
    index: usize,
    t0: &S,
    t1: &S,
) -> Result<FrameOf<S>, SweepError> {
    let m = &b.motion;
    for j in 0..3 {
        // Input data: decided exactly (a raw sign), on every backend.
        if !entry(m, 3, j).p.is_zero() {
            return Err(SweepError::Projective { box_index: index });
        }
    }
    let cols = [0, 1, 2].map(|j| [0, 1, 2].map(|i| entry(m, i, j)));
    let origin = [0, 1, 2].map(|i| entry(m, i, 3));
    let w = entry(m, 3, 3);
    let det = dot(&cols[0], &cross(&cols[1], &cols[2]));
    for p in [&w, &det] {
        if p.is_zero()? || !S::roots_in(&p.p, t0, t1)?.is_empty() {
            return Err(SweepError::Singular { box_index: index });
        }
    }
    let w_sign = S::sign_at(&w, &S::time(t0))?;
    Ok(FrameOf { cols, origin, w, w_sign })
}

impl From<crate::budget::Limit> for SweepError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
