//! Two decisions V-Clip, the contact analysis, the cones of normals and the Brep-index make on
//! constructed vectors and parameters, named once: the sign of a dot product (which way one
//! vector points along another) and where a segment parameter lies against [0, 1].

use crate::geom::{dot_magnitude, Plane, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// The sign of u · v, decided against its magnitude Σ|uᵢ||vᵢ| (the tolerance policy):
/// `Positive` when v points along u (an acute angle), `Negative` against it, `Zero` when they
/// are perpendicular (or one is zero).
///
/// ```
/// use touchstone::geom::Vector3;
/// use touchstone::predicates::dot_sign;
/// use touchstone::scalar::Sign;
/// assert_eq!(dot_sign(&Vector3::new(1.0, 2.0, 0.0), &Vector3::new(-2.0, 1.0, 5.0)), Ok(Sign::Zero));
/// assert_eq!(dot_sign(&Vector3::new(1.0, 0.0, 0.0), &Vector3::new(-0.5, 9.0, 0.0)), Ok(Sign::Negative));
/// ```
pub fn dot_sign<S: Scalar>(u: &Vector3<S>, v: &Vector3<S>) -> Decision<Sign> {
    u.dot(v).sign_scaled(|| dot_magnitude(u, v))
}

/// Where a parameter t lies against the closed unit interval (of a segment a + t (b − a)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterLocation {
    /// t < 0.
    Before,
    /// t = 0: the segment's start.
    Start,
    /// 0 < t < 1.
    Inside,
    /// t = 1: the segment's end.
    End,
    /// t > 1.
    After,
}

/// Where `t` lies against [0, 1]: the signs of t and of t − 1, as computed. The parameters
/// compared are the closest-point constructions' (`squared_distance_point_segment`), which
/// clamp t to exactly 0 or 1 when the foot falls outside the segment: an end is recognised by
/// exact equality, not within a tolerance (and on certain backends there is no difference).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::predicates::{locate_parameter, ParameterLocation};
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// assert_eq!(locate_parameter(&q(0, 1)), Ok(ParameterLocation::Start));
/// assert_eq!(locate_parameter(&q(1, 3)), Ok(ParameterLocation::Inside));
/// assert_eq!(locate_parameter(&q(1, 1)), Ok(ParameterLocation::End));
/// assert_eq!(locate_parameter(&q(-1, 3)), Ok(ParameterLocation::Before));
/// assert_eq!(locate_parameter(&q(4, 3)), Ok(ParameterLocation::After));
/// ```
pub fn locate_parameter<S: Scalar>(t: &S) -> Decision<ParameterLocation> {
    Ok(match t.sign()? {
        Sign::Negative => ParameterLocation::Before,
        Sign::Zero => ParameterLocation::Start,
        Sign::Positive => match (t.clone() - S::one()).sign()? {
            Sign::Negative => ParameterLocation::Inside,
            Sign::Zero => ParameterLocation::End,
            Sign::Positive => ParameterLocation::After,
        },
    })
}

/// Whether barycentric weights (1 − s − t, s, t) place a point strictly inside its triangle
/// (every weight positive; on a side or outside otherwise). The signs are taken as computed and
/// in that order (s, t, then the rest), the first nonpositive one deciding: the weights are
/// the contact cones' constructions, run on certain backends, where that is the exact answer
/// or [`Uncertain`](crate::scalar::Uncertain).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::predicates::strictly_inside_triangle;
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// assert_eq!(strictly_inside_triangle(&q(1, 3), &q(1, 3)), Ok(true));
/// assert_eq!(strictly_inside_triangle(&q(1, 2), &q(1, 2)), Ok(false)); // on the side s + t = 1
/// assert_eq!(strictly_inside_triangle(&q(0, 1), &q(1, 2)), Ok(false)); // on the side s = 0
/// assert_eq!(strictly_inside_triangle(&q(-1, 3), &q(1, 3)), Ok(false));
/// ```
pub fn strictly_inside_triangle<S: Scalar>(s: &S, t: &S) -> Decision<bool> {
    if s.sign()? != Sign::Positive || t.sign()? != Sign::Positive {
        return Ok(false);
    }
    Ok((S::one() - s.clone() - t.clone()).sign()? == Sign::Positive)
}

/// The sign of a vector's first nonzero component (x, then y, then z; `Zero` for the zero
/// vector): the lexicographic sign, a tie-break that every backend with the same components
/// takes alike (the Brep-index walks a point lying on a node's plane to the side its normal's
/// lexicographic sign names).
///
/// ```
/// use touchstone::geom::Vector3;
/// use touchstone::predicates::lexicographic_sign;
/// use touchstone::scalar::Sign;
/// assert_eq!(lexicographic_sign(&Vector3::new(0.0, -2.0, 5.0)), Ok(Sign::Negative));
/// assert_eq!(lexicographic_sign(&Vector3::new(0.0, 0.0, 0.5)), Ok(Sign::Positive));
/// assert_eq!(lexicographic_sign(&Vector3::new(0.0, 0.0, 0.0)), Ok(Sign::Zero));
/// ```
pub fn lexicographic_sign<S: Scalar>(v: &Vector3<S>) -> Decision<Sign> {
    for c in v.iter() {
        let s = c.sign()?;
        if s != Sign::Zero {
            return Ok(s);
        }
    }
    Ok(Sign::Zero)
}

/// Where the ray from a point along a direction meets a plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RayPlane<S> {
    /// The ray lies in the plane.
    InPlane,
    /// The ray is parallel to the plane, off it.
    Parallel,
    /// The line meets the plane at the ray's origin or behind it (parameter t ≤ 0).
    NotAhead,
    /// The ray crosses the plane ahead, at parameter t > 0 (the point origin + t·direction).
    Ahead(S),
}

/// Where the ray `origin + t·direction` (t > 0) meets `plane`: in it, parallel to it, at or
/// behind its origin, or ahead at parameter t = −eval(origin) / (normal · direction). The
/// signs are taken as computed: the ray crossings of the brute-force classifier
/// ([`crate::msp::brute_force_classify`]), on certain backends only.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Plane, Vector3};
/// use touchstone::predicates::{ray_meets_plane, RayPlane};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// let z_is_2 = Plane::from_coefficients(q(0), q(0), q(1), q(-2)).unwrap();
/// let up = Vector3::new(q(0), q(0), q(1));
/// let along = Vector3::new(q(1), q(0), q(0));
/// assert_eq!(ray_meets_plane(&z_is_2, &point(0, 0, 0), &up), Ok(RayPlane::Ahead(q(2))));
/// assert_eq!(ray_meets_plane(&z_is_2, &point(0, 0, 3), &up), Ok(RayPlane::NotAhead));
/// assert_eq!(ray_meets_plane(&z_is_2, &point(0, 0, 0), &along), Ok(RayPlane::Parallel));
/// assert_eq!(ray_meets_plane(&z_is_2, &point(0, 0, 2), &along), Ok(RayPlane::InPlane));
/// ```
pub fn ray_meets_plane<S: Scalar>(
    plane: &Plane<S>,
    origin: &Point3<S>,
    direction: &Vector3<S>,
) -> Decision<RayPlane<S>> {
    let denominator = plane.normal.dot(direction);
    let numerator = -plane.eval(origin);
    if denominator.sign()? == Sign::Zero {
        return Ok(if numerator.sign()? == Sign::Zero { RayPlane::InPlane } else { RayPlane::Parallel });
    }
    let t = numerator / denominator;
    Ok(if t.sign()? == Sign::Positive { RayPlane::Ahead(t) } else { RayPlane::NotAhead })
}
