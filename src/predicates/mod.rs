//! Sign-returning geometric tests. Each returns a small enum, decided by the backend's
//! [`Scalar::sign_scaled`] against the magnitude of its expression, and is fallible only for
//! filtered backends ([`Uncertain`](crate::scalar::Uncertain)).
//!
//! Each predicate has a `*_scaled` twin returning the value with its magnitude: the exact
//! value over its magnitude is the decision's *relative margin*, which the agreement contract
//! ([`crate::contract`]) compares with the fast backend's budget.

mod direction;
pub mod filter;
mod least;
mod polygon;

pub use direction::{
    dot_sign, lexicographic_sign, locate_parameter, ray_meets_plane, strictly_inside_triangle, ParameterLocation,
    RayPlane,
};
pub use least::Least;
pub use polygon::{
    least_aligned_axis, locate_in_polygon, locate_on_segment, nonzero_axis, signed_nonzero_axis, turn, PolygonLocation,
    SegmentLocation,
};

use crate::geom::{cross_magnitude, det3, permanent3, Matrix3, Plane, Point2, Point3, Scaled, Vector3};
use crate::scalar::{all_zero, Decision, Scalar, Sign};

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
    if S::CERTAIN_DECISIONS {
        // Points given as doubles (an interval's points, an exact backend's dyadic values):
        // the float determinant with its static error bound decides most of them.
        if let Some(s) = filter::orient3d_of_doubles(a, b, c, d) {
            return Ok(s.into());
        }
    }
    let m = orient3d_matrix(a, b, c, d);
    let s = det3(&m).sign_scaled(|| permanent3(&m))?;
    if S::CERTAIN_DECISIONS || s != Sign::Zero {
        return Ok(s.into());
    }
    // Within a tolerant backend's tolerance of zero with `a` as the pivot: the differences'
    // rounding, and the permanent, depend on which point is subtracted (a point far from three
    // close ones makes three long, nearly parallel rows whose determinant cancels: a point
    // 6·10⁸ away from a unit square was "coplanar" with it). The signed volume is alternating,
    // so V(a,b,c,d) = −det[a−b, c−b, d−b] = −det[b−c, a−c, d−c] = −det[b−d, c−d, a−d]: the
    // first pivot that decides a nonzero sign gives it (each decision is certified against its
    // own magnitude).
    for (p, q, r, o) in [(b, a, c, d), (c, b, a, d), (d, b, c, a)] {
        let m = orient3d_matrix(p, q, r, o);
        let s = det3(&m).sign_scaled(|| permanent3(&m))?;
        if s != Sign::Zero {
            return Ok((-s).into());
        }
    }
    Ok(Orientation::Coplanar)
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
    Ok(orient2d_scaled(a, b, c).sign_scaled()?.into())
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

/// Whether `u` and `v` are parallel (either may be zero): every component of u × v is zero,
/// each decided against its own magnitude |uᵢ||vⱼ| + |uⱼ||vᵢ| (one component decided nonzero
/// settles it, as [`all_zero`] says).
///
/// ```
/// use touchstone::geom::Vector3;
/// use touchstone::predicates::parallel;
/// assert_eq!(parallel(&Vector3::new(1.0, 2.0, 3.0), &Vector3::new(-2.0, -4.0, -6.0)), Ok(true));
/// assert_eq!(parallel(&Vector3::new(1.0, 2.0, 3.0), &Vector3::new(1.0, 2.0, 3.5)), Ok(false));
/// assert_eq!(parallel(&Vector3::new(0.0, 0.0, 0.0), &Vector3::new(1.0, 2.0, 3.0)), Ok(true));
/// ```
pub fn parallel<S: Scalar>(u: &Vector3<S>, v: &Vector3<S>) -> Decision<bool> {
    let abs = |w: &Vector3<S>| w.map(|x| x.abs());
    parallel_scaled(u, &abs(u), v, &abs(v))
}

/// [`parallel`] for computed `u` and `v` whose components have magnitudes `mu` and `mv`.
pub fn parallel_scaled<S: Scalar>(u: &Vector3<S>, mu: &Vector3<S>, v: &Vector3<S>, mv: &Vector3<S>) -> Decision<bool> {
    zero_vector_scaled(&u.cross(v), &cross_magnitude(mu, mv))
}

/// Whether the computed vector `v`, whose components have magnitudes `m`, is zero: every
/// component decided zero against its own magnitude ([`all_zero`]).
pub fn zero_vector_scaled<S: Scalar>(v: &Vector3<S>, m: &Vector3<S>) -> Decision<bool> {
    all_zero(v.iter().zip(m.iter()).map(|(c, m)| c.sign_scaled(|| m.clone())))
}
