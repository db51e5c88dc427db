//! Determinants, adjugates and permanents of small matrices, division-free.
//!
//! The permanent of |M| (the determinant's terms taken with absolute values and all signs
//! positive) is the magnitude a determinant's sign is decided against
//! ([`crate::scalar::tolerance`]), plus an underflow weight: a minor that underflowed loses
//! up to `η` absolutely, and the cofactor entry it is then multiplied by scales that loss, so
//! every minor's magnitude carries [`UNDERFLOW_WEIGHT`] before it is multiplied.

use super::{Matrix3, Matrix4};
use crate::scalar::tolerance::UNDERFLOW_WEIGHT;
use crate::scalar::{Decision, Scalar, Sign};

/// A computed value together with the magnitude of the expression that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled<S> {
    /// The value.
    pub value: S,
    /// A non-negative bound on the absolute values of the terms summed into `value`.
    pub magnitude: S,
}

impl<S: Scalar> Scaled<S> {
    /// The value's sign under the backend's tolerance policy (decided against the magnitude;
    /// named apart from [`Scalar::sign`], the raw sign, so that the two read differently).
    pub fn sign_scaled(&self) -> Decision<Sign> {
        self.value.sign_scaled(|| self.magnitude.clone())
    }
}

fn minor3<S: Scalar>(m: &Matrix3<S>, f: impl Fn(&S) -> S, plus: bool) -> S {
    let e = |i: usize, j: usize| f(&m[(i, j)]);
    let t = |a: S, b: S, c: S, d: S| if plus { a * b + c * d } else { a * b - c * d };
    let c0 = t(e(1, 1), e(2, 2), e(1, 2), e(2, 1));
    let c1 = t(e(1, 0), e(2, 2), e(1, 2), e(2, 0));
    let c2 = t(e(1, 0), e(2, 1), e(1, 1), e(2, 0));
    if plus {
        e(0, 0) * c0 + e(0, 1) * c1 + e(0, 2) * c2
    } else {
        e(0, 0) * c0 - e(0, 1) * c1 + e(0, 2) * c2
    }
}

/// det(M) by cofactor expansion.
pub fn det3<S: Scalar>(m: &Matrix3<S>) -> S {
    minor3(m, S::clone, false)
}

/// The magnitude of det(M): the permanent of |M| plus the underflow weight of the three 2×2
/// minors, `Σⱼ |m₀ⱼ| · (per(|minorⱼ|) + UNDERFLOW_WEIGHT)` (each minor is computed, then
/// multiplied by its first-row entry, as [`det3`] does).
pub fn permanent3<S: Scalar>(m: &Matrix3<S>) -> S {
    minor3(m, S::abs, true) + underflow_weight::<S>() * (m[(0, 0)].abs() + m[(0, 1)].abs() + m[(0, 2)].abs())
}

/// [`UNDERFLOW_WEIGHT`] in the backend (0 when it has no image there, which no backend lacks).
fn underflow_weight<S: Scalar>() -> S {
    S::from_f64(UNDERFLOW_WEIGHT).unwrap_or_else(|_| S::zero())
}

/// adj(M), so that M · adj(M) = det(M) · I.
pub fn adjugate3<S: Scalar>(m: &Matrix3<S>) -> Matrix3<S> {
    let e = |i: usize, j: usize| m[(i, j)].clone();
    let cof = |r0: usize, r1: usize, c0: usize, c1: usize| e(r0, c0) * e(r1, c1) - e(r0, c1) * e(r1, c0);
    // adj[i][j] = cofactor C[j][i].
    Matrix3::new(
        cof(1, 2, 1, 2),
        -cof(0, 2, 1, 2),
        cof(0, 1, 1, 2),
        -cof(1, 2, 0, 2),
        cof(0, 2, 0, 2),
        -cof(0, 1, 0, 2),
        cof(1, 2, 0, 1),
        -cof(0, 2, 0, 1),
        cof(0, 1, 0, 1),
    )
}

fn submatrix4<S: Scalar>(m: &Matrix4<S>, row: usize, col: usize) -> Matrix3<S> {
    let mut out = Matrix3::from_element(S::zero());
    for (ri, r) in (0..4).filter(|&r| r != row).enumerate() {
        for (ci, c) in (0..4).filter(|&c| c != col).enumerate() {
            out[(ri, ci)] = m[(r, c)].clone();
        }
    }
    out
}

/// det(M) of a 4×4 matrix, by expansion along the first row.
pub fn det4<S: Scalar>(m: &Matrix4<S>) -> S {
    (0..4).fold(S::zero(), |acc, c| {
        let term = m[(0, c)].clone() * det3(&submatrix4(m, 0, c));
        if c % 2 == 0 {
            acc + term
        } else {
            acc - term
        }
    })
}

/// The magnitude of det(M) of a 4×4 matrix: `Σ_c |m₀c| · (magnitude of minor c +
/// UNDERFLOW_WEIGHT)`, the permanent of |M| with the underflow weight of every minor
/// ([`permanent3`]).
pub fn permanent4<S: Scalar>(m: &Matrix4<S>) -> S {
    let w = underflow_weight::<S>();
    (0..4).fold(S::zero(), |acc, c| acc + m[(0, c)].abs() * (permanent3(&submatrix4(m, 0, c)) + w.clone()))
}

/// adj(M) of a 4×4 matrix, so that M · adj(M) = det(M) · I.
pub fn adjugate4<S: Scalar>(m: &Matrix4<S>) -> Matrix4<S> {
    Matrix4::from_fn(|i, j| {
        let c = det3(&submatrix4(m, j, i));
        if (i + j) % 2 == 0 {
            c
        } else {
            -c
        }
    })
}
