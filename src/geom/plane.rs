//! Unnormalised planes a·x + b·y + c·z + d = 0.

use super::{dot_magnitude, Point3, Scaled, Vector3};
use crate::error::GeomError;
use crate::scalar::Scalar;

/// The plane {p : normal · p + offset = 0}, with its positive side ("above") the side the
/// normal points to. Never normalised: the coefficients are exactly what was computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Plane<S: Scalar> {
    /// (a, b, c).
    pub normal: Vector3<S>,
    /// d.
    pub offset: S,
}

impl<S: Scalar> Plane<S> {
    /// The plane a·x + b·y + c·z + d = 0; a zero normal is an error (decided on the raw
    /// signs).
    pub fn from_coefficients(a: S, b: S, c: S, d: S) -> Result<Self, GeomError> {
        let normal = Vector3::new(a, b, c);
        if is_zero_vector(&normal)? {
            return Err(GeomError::DegeneratePlane);
        }
        Ok(Plane { normal, offset: d })
    }

    /// The plane through `p` with normal `n` (zero normal: error).
    pub fn through_point(p: &Point3<S>, n: Vector3<S>) -> Result<Self, GeomError> {
        let offset = -n.dot(&p.coords);
        let [a, b, c]: [S; 3] = n.into();
        Self::from_coefficients(a, b, c, offset)
    }

    /// (a, b, c, d).
    pub fn coefficients(&self) -> [S; 4] {
        [self.normal.x.clone(), self.normal.y.clone(), self.normal.z.clone(), self.offset.clone()]
    }

    /// a·x + b·y + c·z + d at `p`: positive above, negative below.
    pub fn eval(&self, p: &Point3<S>) -> S {
        self.normal.dot(&p.coords) + self.offset.clone()
    }

    /// The magnitude of [`Plane::eval`]: |a||x| + |b||y| + |c||z| + |d|.
    pub fn eval_magnitude(&self, p: &Point3<S>) -> S {
        dot_magnitude(&self.normal, &p.coords) + self.offset.abs()
    }

    /// [`Plane::eval`] with its magnitude.
    pub fn eval_scaled(&self, p: &Point3<S>) -> Scaled<S> {
        Scaled { value: self.eval(p), magnitude: self.eval_magnitude(p) }
    }

    /// The same plane with above and below exchanged.
    pub fn flipped(&self) -> Self {
        Plane { normal: -self.normal.clone(), offset: -self.offset.clone() }
    }
}

/// Whether every component of `v` is zero, decided on the raw signs: one component decided
/// nonzero settles it, whatever the others (an interval backend may not decide a component
/// that is exactly zero, and need not).
pub fn is_zero_vector<S: Scalar>(v: &Vector3<S>) -> crate::scalar::Decision<bool> {
    crate::scalar::all_zero(v.iter().map(|c| c.sign()))
}
