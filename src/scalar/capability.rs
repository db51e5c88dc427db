//! What a backend can do, as traits: functions that need a capability are bounded by it, so a
//! call on a backend without it does not compile, and generic code routes by capability with
//! [`Scalar::by_capability`] instead of testing flags.
//!
//! * [`Certain`]: every decision is the true one for the exact computation, or
//!   [`Uncertain`](super::Uncertain); no tolerance. The exact backends and [`Interval`](super::Interval).
//! * [`ExactValues`]: besides, arithmetic is exact and [`Scalar::to_rational`] is the value.
//!   The rational backends.
//! * [`Tolerant`]: decisions within the tolerance of [`super::tolerance`]: `f64` and
//!   `BigFloat`.
//!
//! Every backend is [`Certain`] or [`Tolerant`], never both. The flags
//! [`Scalar::CERTAIN_DECISIONS`] and [`Scalar::EXACT_VALUES`] say the same for code that only
//! needs a constant (a magnitude kept or not); a test keeps the two in step.
//!
//! ```
//! use touchstone::scalar::{ByCapability, Certain, Interval, Scalar, Tolerant};
//!
//! struct Name;
//! impl<S: Scalar> ByCapability<S> for Name {
//!     type Output = &'static str;
//!     fn certain(self) -> &'static str where S: Certain { "certain" }
//!     fn tolerant(self) -> &'static str where S: Tolerant { "tolerant" }
//! }
//! assert_eq!(f64::by_capability(Name), "tolerant");
//! assert_eq!(Interval::by_capability(Name), "certain");
//! ```

use super::Scalar;

/// A backend whose decisions are certain: the true sign or order of the exact computation, or
/// `Uncertain`, never a wrong one.
pub trait Certain: Scalar {}

/// A backend with certain decisions whose values are exact.
pub trait ExactValues: Certain {}

/// A backend that decides within a tolerance relative to each decision's magnitude.
pub trait Tolerant: Scalar {}

/// A computation with one route per capability, run by [`Scalar::by_capability`]: the backend
/// picks the route its capability allows, and each route may call functions bounded by it.
pub trait ByCapability<S: Scalar> {
    /// What both routes return.
    type Output;
    /// The route of a backend with certain decisions.
    fn certain(self) -> Self::Output
    where
        S: Certain;
    /// The route of a tolerant backend.
    fn tolerant(self) -> Self::Output
    where
        S: Tolerant;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::{Exact, Interval};
    use num_rational::BigRational;

    struct Route;
    impl<S: Scalar> ByCapability<S> for Route {
        type Output = bool;
        fn certain(self) -> bool
        where
            S: Certain,
        {
            true
        }
        fn tolerant(self) -> bool
        where
            S: Tolerant,
        {
            false
        }
    }

    fn certain_flag_is_the_route<S: Scalar>() {
        assert_eq!(S::by_capability(Route), S::CERTAIN_DECISIONS, "{}", S::NAME);
    }

    fn exact<S: ExactValues>() {
        assert!(S::EXACT_VALUES && S::CERTAIN_DECISIONS, "{}", S::NAME);
    }

    /// The flags say what the traits say, backend by backend.
    #[test]
    fn flags_agree_with_the_traits() {
        certain_flag_is_the_route::<f64>();
        certain_flag_is_the_route::<BigRational>();
        certain_flag_is_the_route::<Exact>();
        certain_flag_is_the_route::<Interval>();
        certain_flag_is_the_route::<crate::scalar::MidRad>();
        exact::<BigRational>();
        exact::<Exact>();
        const { assert!(!Interval::EXACT_VALUES && !f64::EXACT_VALUES && !crate::scalar::MidRad::EXACT_VALUES) };
        const { assert!(crate::scalar::MidRad::CERTAIN_DECISIONS && Interval::CERTAIN_DECISIONS) };
        #[cfg(feature = "rug")]
        {
            certain_flag_is_the_route::<crate::scalar::RugRational>();
            certain_flag_is_the_route::<crate::scalar::BigFloat<128>>();
            exact::<crate::scalar::RugRational>();
        }
    }
}
