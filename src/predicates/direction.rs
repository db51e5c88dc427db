//! Two decisions V-Clip, the contact analysis, the cones of normals and the Brep-index make on
//! constructed vectors and parameters, named once: the sign of a dot product (which way one
//! vector points along another) and where a segment parameter lies against [0, 1].

use crate::geom::{dot_magnitude, Vector3};
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
