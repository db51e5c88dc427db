//! Unnormalised planes a·x + b·y + c·z + d = 0.

use super::{dot_magnitude, Point3, Scaled, Vector3};
use crate::error::GeomError;
use crate::scalar::Scalar;

/// The plane {p : normal · p + offset = 0}, with its positive side ("above") the side the
/// normal points to. Never normalised: the coefficients are exactly what was computed.
///
/// `scale` bounds the terms `offset` was computed from (|offset| ≤ scale). An offset computed as
/// −n·x from a point x far from the origin cancels when the plane passes near the origin: its
/// rounding on a tolerant backend is relative to |n||x|, not to |offset|, so an evaluation's
/// tolerance is relative to |n||p| + scale (DESIGN.md: a tolerance scaled to the input's
/// magnitude). Exact backends never use it for a decision; margins are relative to it.
/// Equality compares the coefficients only.
#[derive(Clone, Debug)]
pub struct Plane<S: Scalar> {
    /// (a, b, c).
    pub normal: Vector3<S>,
    /// d.
    pub offset: S,
    /// The magnitude of the terms `offset` was computed from (at least |offset|).
    pub scale: S,
}

impl<S: Scalar> PartialEq for Plane<S> {
    fn eq(&self, other: &Self) -> bool {
        self.normal == other.normal && self.offset == other.offset
    }
}

impl<S: Scalar> Plane<S> {
    /// The plane a·x + b·y + c·z + d = 0; a zero normal is an error (decided on the raw
    /// signs).
    pub fn from_coefficients(a: S, b: S, c: S, d: S) -> Result<Self, GeomError> {
        let normal = Vector3::new(a, b, c);
        if is_zero_vector(&normal)? {
            return Err(GeomError::DegeneratePlane);
        }
        Ok(Plane { normal, scale: d.abs(), offset: d })
    }

    /// The plane through `p` with normal `n` (zero normal: error).
    pub fn through_point(p: &Point3<S>, n: Vector3<S>) -> Result<Self, GeomError> {
        if is_zero_vector(&n)? {
            return Err(GeomError::DegeneratePlane);
        }
        Ok(Self::anchored(n, p))
    }

    /// The plane through `p` with normal `n`, unchecked: offset −n·p, scale |n||p| (termwise).
    pub fn anchored(n: Vector3<S>, p: &Point3<S>) -> Self {
        Plane { offset: -super::dot(&n, &p.coords), scale: dot_magnitude(&n, &p.coords), normal: n }
    }

    /// The plane through `p` with normal `n`, unchecked, for points whose coordinates are at
    /// most `bound` in magnitude (a solid's [`coordinate_bound`](super::coordinate_bound)):
    /// offset −n·p, scale (|a| + |b| + |c|)·bound.
    pub fn within(n: Vector3<S>, p: &Point3<S>, bound: &S) -> Self {
        Plane { offset: -super::dot(&n, &p.coords), scale: super::norm1(&n) * bound.clone(), normal: n }
    }

    /// (a, b, c, d).
    pub fn coefficients(&self) -> [S; 4] {
        [self.normal.x.clone(), self.normal.y.clone(), self.normal.z.clone(), self.offset.clone()]
    }

    /// a·x + b·y + c·z + d at `p`: positive above, negative below.
    pub fn eval(&self, p: &Point3<S>) -> S {
        super::dot(&self.normal, &p.coords) + self.offset.clone()
    }

    /// The magnitude of [`Plane::eval`]: |a||x| + |b||y| + |c||z| + the offset's scale (at
    /// least |d|; see [`Plane`]).
    pub fn eval_magnitude(&self, p: &Point3<S>) -> S {
        dot_magnitude(&self.normal, &p.coords) + self.scale.clone()
    }

    /// [`Plane::eval`] with its magnitude.
    pub fn eval_scaled(&self, p: &Point3<S>) -> Scaled<S> {
        Scaled { value: self.eval(p), magnitude: self.eval_magnitude(p) }
    }

    /// The same plane with above and below exchanged.
    pub fn flipped(&self) -> Self {
        Plane { normal: -self.normal.clone(), offset: -self.offset.clone(), scale: self.scale.clone() }
    }
}

/// Whether every component of `v` is zero, decided on the raw signs: one component decided
/// nonzero settles it, whatever the others (an interval backend may not decide a component
/// that is exactly zero, and need not).
pub fn is_zero_vector<S: Scalar>(v: &Vector3<S>) -> crate::scalar::Decision<bool> {
    crate::scalar::all_zero(v.iter().map(|c| c.sign()))
}
