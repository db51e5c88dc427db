//! Sign-returning geometric tests. Each returns a small enum, decided by the backend's
//! [`Scalar::sign_scaled`] against the magnitude of its expression, and is fallible only for
//! filtered backends ([`Uncertain`](crate::scalar::Uncertain)).
//!
//! Each predicate has a `*_scaled` twin returning the value with its magnitude: the exact
//! value over its magnitude is the decision's *relative margin*, which the agreement contract
//! ([`crate::contract`]) compares with the fast backend's budget.

mod least;
mod polygon;

pub use least::Least;
pub use polygon::{least_aligned_axis, locate_in_polygon, nonzero_axis, PolygonLocation};

use crate::geom::{det3, permanent3, Matrix3, Plane, Point2, Point3, Scaled};
use crate::scalar::{Decision, Scalar, Sign};

/// The orientation of four points (or three in the plane).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `d` lies on the side the normal (b−a)×(c−a) points to: a, b, c run counterclockwise
    /// seen from `d`.
    Positive,
    /// The opposite side.
    Negative,
    /// The four points lie in one plane.
    Coplanar,
}

impl From<Sign> for Orientation {
    fn from(s: Sign) -> Self {
        match s {
            Sign::Positive => Orientation::Positive,
            Sign::Negative => Orientation::Negative,
            Sign::Zero => Orientation::Coplanar,
        }
    }
}

/// The side of a plane a point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Where the plane's normal points.
    Above,
    /// On the plane.
    On,
    /// The other side.
    Below,
}

impl From<Sign> for Side {
    fn from(s: Sign) -> Self {
        match s {
            Sign::Positive => Side::Above,
            Sign::Negative => Side::Below,
            Sign::Zero => Side::On,
        }
    }
}

fn orient3d_matrix<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>, d: &Point3<S>) -> Matrix3<S> {
    let (u, v, w) = (b - a, c - a, d - a);
    Matrix3::from_rows(&[u.transpose(), v.transpose(), w.transpose()])
}

/// The orientation of `d` relative to the plane through `a`, `b`, `c`: the sign of
/// ((b−a)×(c−a))·(d−a) = det[b−a; c−a; d−a]. (This is the opposite of Shewchuk's convention,
/// and agrees with [`side_of_plane`] of the plane through a, b, c.)
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::predicates::{orient3d, Orientation};
/// let p = |x, y, z| point::<BigRational>(x, y, z);
/// assert_eq!(orient3d(&p(0, 0, 0), &p(1, 0, 0), &p(0, 1, 0), &p(0, 0, 1)), Ok(Orientation::Positive));
/// assert_eq!(orient3d(&p(0, 0, 0), &p(1, 0, 0), &p(0, 1, 0), &p(5, 7, 0)), Ok(Orientation::Coplanar));
/// ```
pub fn orient3d<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>, d: &Point3<S>) -> Decision<Orientation> {
    let m = orient3d_matrix(a, b, c, d);
    Ok(det3(&m).sign_scaled(|| permanent3(&m))?.into())
}

/// The determinant of [`orient3d`] with its magnitude (the permanent of the absolute
/// differences).
pub fn orient3d_scaled<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>, d: &Point3<S>) -> Scaled<S> {
    let m = orient3d_matrix(a, b, c, d);
    Scaled { value: det3(&m), magnitude: permanent3(&m) }
}

/// The orientation of three points in the plane: `Positive` when a, b, c turn
/// counterclockwise (c left of the directed line ab).
pub fn orient2d<S: Scalar>(a: &Point2<S>, b: &Point2<S>, c: &Point2<S>) -> Decision<Orientation> {
    Ok(orient2d_scaled(a, b, c).sign()?.into())
}

/// The determinant of [`orient2d`], (b−a)×(c−a), with its magnitude.
pub fn orient2d_scaled<S: Scalar>(a: &Point2<S>, b: &Point2<S>, c: &Point2<S>) -> Scaled<S> {
    let (u, v) = (b - a, c - a);
    Scaled {
        value: u.x.clone() * v.y.clone() - u.y.clone() * v.x.clone(),
        magnitude: u.x.abs() * v.y.abs() + u.y.abs() * v.x.abs(),
    }
}

/// The side of `plane` that `p` lies on: the sign of a·x + b·y + c·z + d.
pub fn side_of_plane<S: Scalar>(plane: &Plane<S>, p: &Point3<S>) -> Decision<Side> {
    Ok(plane.eval(p).sign_scaled(|| plane.eval_magnitude(p))?.into())
}

/// The sign of x − y for two computed values of magnitudes `mx`, `my`: the comparison of two
/// computed values, decided against the magnitude of both.
pub fn cmp_sign<S: Scalar>(x: &S, y: &S, mx: S, my: S) -> Decision<Sign> {
    (x.clone() - y.clone()).sign_scaled(|| mx + my + x.abs() + y.abs())
}
