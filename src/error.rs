//! Typed errors of the geometry kernel.

use crate::scalar::Uncertain;

/// Why a geometric construction or transform could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeomError {
    /// A sign could not be decided by a filtered backend: rerun on an exact one.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// Three points that should span a plane are collinear (or coincide).
    #[error("the points are collinear: they span no plane")]
    Collinear,
    /// A plane with a zero normal vector.
    #[error("the plane's normal (a, b, c) is zero")]
    DegeneratePlane,
    /// A transform with zero determinant.
    #[error("the transform is singular (its determinant is zero)")]
    Singular,
    /// The quaternion (0, 0, 0, 0), which is no rotation.
    #[error("the quaternion is zero")]
    ZeroQuaternion,
    /// A homogeneous transform sent a point to infinity (w = 0).
    #[error("the homogeneous transform maps the point to infinity (w = 0)")]
    PointAtInfinity,
}

impl From<crate::budget::Limit> for GeomError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
