//! Curved solids (Lin–Manocha 1994 §4–5, issue 45): implicit solids {f ≤ 0} given by
//! trivariate polynomials with rational coefficients, posed exactly, and the *certified*
//! status of two of them. The paper tracks the roots of its contact systems (6)–(8) with
//! Gauss–Newton steps in floating point; here every answer carries a certificate checked
//! exactly, and where none is found at the precision asked the answer is
//! [`CurvedStatus::Undecided`], never a wrong one:
//!
//! * `Penetrating`: a rational witness point where every constraint of both solids is
//!   negative (evaluated exactly);
//! * `Separated`: a certified lower bound on the squared gap, from a best-first search over
//!   pairs of boxes with outward-rounded enclosures;
//! * `Touching`: an exact common point of the two surfaces where their gradients are opposite
//!   (the tangency of system (7)), with a convexity certificate that the interiors do not meet
//!   near it and box enclosures that they do not meet elsewhere;
//! * `Tangent`: touching to within the precision, where the tangency is not an exact rational
//!   point: the square system ∇f + β∇g = 0, f = 0 has exactly one zero in a small box (the
//!   Krawczyk test, [`krawczyk`]), b's constraint there is enclosed about 0, and outside a cell
//!   about it the interiors are proved disjoint.
//!
//! Lin–Manocha's penetration test (Theorem 4.1, system (10)) is [`interpenetration`]: its real
//! solutions certified one by one, each a transversal crossing of the two surfaces.
//!
//! A convex polytope is an implicit solid of linear constraints ([`Implicit::halfspaces`]),
//! so the same status holds between a curved solid and a convex polytope.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::curved::{implicit_status, CurvedStatus, Implicit, StatusOptions};
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // A unit ball resting on top of a torus of radii 2 and 1 (centre (2, 0, 2), contact at
//! // (2, 0, 1)), and lifted by 1/8.
//! let torus = Implicit::torus(q(2), q(1)).unwrap();
//! let ball = Implicit::sphere([q(2), q(0), q(2)], q(1)).unwrap();
//! let s = implicit_status(&torus, &ball, &StatusOptions::default()).unwrap();
//! assert!(matches!(s, CurvedStatus::Touching { .. }), "{s:?}");
//! let lifted = Implicit::sphere([q(2), q(0), BigRational::new(17.into(), 8.into())], q(1)).unwrap();
//! let s = implicit_status(&torus, &lifted, &StatusOptions::default()).unwrap();
//! assert!(matches!(s, CurvedStatus::Separated { .. }), "{s:?}");
//! ```

pub mod bezier;
mod bezier_pair;
mod bezier_solid;
mod implicit;
mod krawczyk;
mod motion;
mod penetration;
pub mod poly3;
mod search;
mod separate;
mod status;

pub use bezier_pair::bezier_pair_status;
pub use bezier_solid::{bezier_implicit_status, BezierSolid};
pub use implicit::Implicit;
pub use motion::{first_contact_translating, FirstContact};
pub use penetration::{interpenetration, Interpenetration};
pub use poly3::Poly3;
pub use status::{implicit_status, CurvedStatus, StatusOptions};

/// What is wrong with a curved-solid input, naming the offending element.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CurvedError {
    /// A polynomial has more terms than [`poly3::MAX_INPUT_TERMS`].
    #[error("the polynomial has {terms} terms, over the limit of {limit}")]
    TooManyTerms {
        /// How many.
        terms: usize,
        /// The limit.
        limit: usize,
    },
    /// A term's total degree is above [`poly3::MAX_INPUT_DEGREE`].
    #[error("term {term} has total degree {degree}, over the limit of {limit}")]
    DegreeTooLarge {
        /// The term's index.
        term: usize,
        /// Its degree.
        degree: u64,
        /// The limit.
        limit: u32,
    },
    /// A coefficient is longer than [`poly3::MAX_COEFF_BITS`].
    #[error("the coefficient of term {term} has {bits} bits, over the limit of {limit}")]
    CoefficientTooLarge {
        /// The term's index.
        term: usize,
        /// Its bit size.
        bits: u64,
        /// The limit.
        limit: u64,
    },
    /// A number of a shape or a pose (a bound, a centre, a radius, a pose entry) longer than
    /// [`poly3::MAX_COEFF_BITS`].
    #[error("the {what} has {bits} bits, over the limit of {limit}")]
    NumberTooLarge {
        /// Which number.
        what: &'static str,
        /// Its bit size.
        bits: u64,
        /// The limit.
        limit: u64,
    },
    /// A bounding box with `lo ≥ hi` on an axis.
    #[error("the bounds are empty on axis {axis} (lo must be below hi)")]
    EmptyBounds {
        /// 0, 1 or 2.
        axis: usize,
    },
    /// A radius or semi-axis that must be positive is not.
    #[error("the {what} must be positive")]
    NonPositive {
        /// Which quantity.
        what: &'static str,
    },
    /// A polytope with no plane.
    #[error("a polytope needs at least one plane")]
    NoConstraint,
    /// A Bézier patch or solid that is not well formed.
    #[error("bad Bézier patch: {reason}")]
    BadPatch {
        /// What is wrong.
        reason: &'static str,
    },
    /// A pose whose linear part is singular.
    #[error("the pose is singular")]
    SingularPose,
    /// The query's budget was spent.
    #[error("the budget was spent: {0:?}")]
    Limit(crate::budget::Limit),
}
