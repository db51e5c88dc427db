//! The tolerance policy of inexact backends: the only place where a tolerance is defined.
//!
//! A computed quantity `v` whose expression has magnitude `m` (a bound on the absolute values
//! of the terms that were summed, e.g. the permanent of a determinant) is called zero by an
//! inexact backend with unit roundoff `u` and underflow unit `η` ([`Scalar::UNDERFLOW_UNIT`])
//! when
//!
//! ```text
//! |v| <= TOLERANCE_ULPS * (u * m + η)
//! ```
//!
//! The `η` term covers underflow: an operation whose exact result is subnormal is rounded
//! with an *absolute* error of up to `η/2` (`2⁻¹⁰⁷⁵` in binary64), which no multiple of `u·m`
//! bounds when every term of the expression is subnormal (a face of a hull through a point
//! with a coordinate of `5e-324` came out "not planar" by `5e-324` against a magnitude of
//! `8e-323` before this term existed). It is far below any normal number (`2⁻¹⁰⁶²` for
//! binary64), so it changes no decision between normal values.
//!
//! An underflowed product that is then *multiplied* is another matter: `η/2` lost in a 2×2
//! minor becomes `|x|·η/2` once the minor is multiplied by a cofactor entry `x`, and with
//! `x` near 10³⁰⁴ that is far above `TOLERANCE_ULPS · η` (a fuzzed orient3d with entries
//! 1.5e-323 and -5.5e303 lost 2e-117 this way, with a relative margin of 1). A magnitude
//! therefore carries an *underflow weight*: every product of a computed factor adds
//! [`UNDERFLOW_WEIGHT`]` · |multiplier|` (`η/u`, so that `u · m` grows by `η · |multiplier|`),
//! as [`crate::geom::permanent3`] does for a determinant's minors. Between normal values the
//! weight is some 10⁻³⁰⁸ of the magnitude and changes nothing.
//!
//! The forward error of every predicate in this crate is a small multiple of `u * m`
//! (orient3d: 7u·m, Shewchuk's `O3DERRBOUND_A`), and inputs produced by a few exact-in-theory
//! steps (an applied pose, a plane through three points) add a few more. `TOLERANCE_ULPS` is
//! set far above those multiples, so that a sign that an inexact backend reports as nonzero is
//! the true sign of the exact computation. Exact backends have `u = 0`: "zero" means zero.
//!
//! The magnitude of the terms includes the magnitudes the *inputs* were computed from: a
//! posed vertex at the origin is a cancelled sum whose rounding is relative to the pose's
//! terms, not to itself. So a plane carries the scale of its offset
//! ([`Plane`](crate::geom::Plane)'s `scale`: |n|₁ times its solid's
//! [coordinate bound](crate::geom::coordinate_bound) for a solid's faces and the Brep-index's
//! cuts), and a plane evaluated at a point is decided against |n|·|p| + scale: the tolerance is
//! relative to the input's magnitude, as DESIGN.md says, even where the local terms vanish (an
//! f64 chord of a face through a posed vertex at the origin was called inside when the origin
//! was decided 2.8·10⁻¹⁷ above the face against a tolerance of 10⁻²⁹).
//!
//! The agreement contract ([`crate::contract`]) follows from this: a decision whose exact
//! relative margin `|v| / m` exceeds [`margin_budget`] must come out the same on the inexact
//! backend.

use super::{Decision, Scalar, Sign};

/// `η / u` of binary64 (2⁻¹⁰⁷⁴ / 2⁻⁵³ = 2⁻¹⁰²¹): a magnitude of this size stands for an
/// absolute error of `η`. A product `x · p` of a computed `p` adds `UNDERFLOW_WEIGHT · |x|` to
/// the magnitude of `p`'s expression (what `p`'s underflow may become once multiplied by `x`);
/// margins are measured against `magnitude + UNDERFLOW_WEIGHT`
/// ([`crate::contract::magnitude_floor`]).
pub const UNDERFLOW_WEIGHT: f64 = f64::MIN_POSITIVE * 2.0;

/// The tolerance of inexact backends, in units of their unit roundoff.
pub const TOLERANCE_ULPS: f64 = 4096.0;

/// The relative tolerance of a backend with unit roundoff `u`.
pub fn relative_tolerance(unit_roundoff: f64) -> f64 {
    TOLERANCE_ULPS * unit_roundoff
}

/// The absolute part of the tolerance of a backend with underflow unit `η`:
/// `TOLERANCE_ULPS · η` (0 for backends that never underflow).
pub fn absolute_tolerance(underflow_unit: f64) -> f64 {
    TOLERANCE_ULPS * underflow_unit
}

/// The relative margin above which an inexact backend with unit roundoff `u` must agree
/// exactly with the exact answer: twice its tolerance (the tolerance covers the backend's own
/// rounding error, the second half makes the decision unambiguous).
pub fn margin_budget(unit_roundoff: f64) -> f64 {
    2.0 * relative_tolerance(unit_roundoff)
}

/// The sign of `value` under the tolerance policy, relative to `magnitude`.
pub fn decide<S: Scalar>(value: &S, magnitude: &S) -> Decision<Sign> {
    let sign = value.sign()?;
    if S::CERTAIN_DECISIONS || sign == Sign::Zero {
        return Ok(sign);
    }
    let bound = magnitude.abs() * S::from_f64(relative_tolerance(S::UNIT_ROUNDOFF)).unwrap_or_else(|_| S::zero())
        + S::from_f64(absolute_tolerance(S::UNDERFLOW_UNIT)).unwrap_or_else(|_| S::zero());
    if (value.abs() - bound).sign()? == Sign::Positive {
        Ok(sign)
    } else {
        Ok(Sign::Zero)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_tolerance_is_4096_unit_roundoffs() {
        assert_eq!(f64::relative_tolerance(), 4096.0 * f64::EPSILON / 2.0);
        assert_eq!(margin_budget(f64::UNIT_ROUNDOFF), 2.0 * f64::relative_tolerance());
    }

    #[test]
    fn f64_decides_zero_within_tolerance_only() {
        let tol = f64::relative_tolerance();
        assert_eq!(decide(&(0.5 * tol), &1.0), Ok(Sign::Zero));
        assert_eq!(decide(&(-tol), &1.0), Ok(Sign::Zero));
        assert_eq!(decide(&(2.0 * tol), &1.0), Ok(Sign::Positive));
        assert_eq!(decide(&(-2.0 * tol), &1.0), Ok(Sign::Negative));
        // Scaled: the same value is zero against a large magnitude, not against a small one.
        assert_eq!(decide(&1e-6, &1e9), Ok(Sign::Zero));
        assert_eq!(decide(&1e-6, &1.0), Ok(Sign::Positive));
    }

    #[test]
    fn f64_tolerance_covers_underflow_absolutely() {
        // A subnormal rounding error against a subnormal magnitude is zero; a normal value is
        // not, even against a zero magnitude.
        let eta = f64::from_bits(1);
        assert_eq!(absolute_tolerance(f64::UNDERFLOW_UNIT), 4096.0 * eta);
        assert_eq!(decide(&-eta, &(16.0 * eta)), Ok(Sign::Zero));
        assert_eq!(decide(&(4096.0 * eta), &0.0), Ok(Sign::Zero));
        assert_eq!(decide(&(8192.0 * eta), &0.0), Ok(Sign::Positive));
        assert_eq!(decide(&f64::MIN_POSITIVE, &0.0), Ok(Sign::Positive));
        assert_eq!(decide(&1e-300, &1e-300), Ok(Sign::Positive));
    }

    #[test]
    fn the_f64_decision_is_the_policy_written_out() {
        // f64 overrides sign_scaled for speed: it must decide as `decide` does.
        let tol = f64::relative_tolerance();
        for (v, m) in [
            (0.5 * tol, 1.0),
            (2.0 * tol, 1.0),
            (-3.0, 1e20),
            (1e-6, 1e9),
            (0.0, 5.0),
            (1.0, f64::INFINITY),
            (1e300, 1e300),
            (-5e-324, 8e-323),
            (1e-300, 1e-300),
            (absolute_tolerance(f64::UNDERFLOW_UNIT), 0.0),
            (2.0 * absolute_tolerance(f64::UNDERFLOW_UNIT), 0.0),
        ] {
            assert_eq!(v.sign_scaled(|| m), decide(&v, &m), "{v} against {m}");
        }
        assert_eq!(f64::NAN.sign_scaled(|| 1.0), Err(crate::scalar::Uncertain::Overflow));
    }

    #[test]
    fn exact_backend_ignores_magnitude() {
        use num_rational::BigRational;
        let tiny = BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(100));
        let huge = BigRational::from_integer(num_bigint::BigInt::from(10).pow(100));
        assert_eq!(decide(&tiny, &huge), Ok(Sign::Positive));
        assert_eq!(
            tiny.sign_scaled(|| unreachable!("exact backends never evaluate the magnitude")),
            Ok(Sign::Positive)
        );
    }
}
