//! # touchstone
//!
//! An exact-arithmetic reference implementation of polyhedral collision detection and contact
//! analysis. Every algorithm is written once, generic over a [`scalar::Scalar`] backend: exact
//! rationals give the true answer for exactly the numbers given; `f64` gives the fast answer
//! from the same code, so the two can be checked against each other under the agreement
//! contract of [`contract`].
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::{point, Affine};
//! use touchstone::predicates::{orient3d, Orientation};
//!
//! // Rotate three points of the plane z = 0 and a fourth one in it by the rational
//! // quaternion (1, 2, 3, 4): exactly, they stay coplanar.
//! let q = [1, 2, 3, 4].map(|x: i64| BigRational::from_integer(x.into()));
//! let r = Affine::from_quaternion(&q, nalgebra::Vector3::zeros()).unwrap();
//! let p = [point(0, 0, 0), point(3, 0, 0), point(0, 5, 0), point(7, 11, 0)].map(|p| r.apply_point(&p));
//! assert_eq!(orient3d::<BigRational>(&p[0], &p[1], &p[2], &p[3]), Ok(Orientation::Coplanar));
//! ```
//!
//! # Where things are
//!
//! Layers, bottom up (a module imports only those on its own or a lower line; see
//! `ARCHITECTURE.md` for a line on every file):
//!
//! * [`budget`]: a query's limits (time, steps, bits, memory), checked in every long loop.
//! * [`scalar`]: the backends, decisions ([`scalar::Sign`], [`scalar::Uncertain`]), the
//!   capability traits ([`scalar::Certain`], [`scalar::ExactValues`], [`scalar::Tolerant`]) and
//!   the one tolerance.
//! * [`poly`]: polynomials, real roots, algebraic numbers, times; [`error`]: the kernel's error.
//! * [`geom`]: points, vectors, planes, determinants, poses.
//! * [`predicates`]: sign-returning tests with their magnitudes; [`contract`]: the agreement
//!   contract between the exact and the `f64` answers.
//! * [`constructions`]: planes through points, crossings, squared distances, Newell's normal.
//! * [`brep`]: solids (half-edge B-rep, validation), shapes, convex hulls, mesh files.
//! * [`msp`]: the Brep-index (point and segment classification, boundary intersection);
//!   [`separation`]: separating axes, the exact penetration depth, the linear time of impact.
//! * [`vclip`]: V-Clip, Lin–Canny, contact tracking, hierarchies; [`sweep`]: primitive CCD and
//!   the box sweep; [`round`]: round shapes (balls, capsules, rounded polytopes): their exact
//!   distance and status by their cores, and their exact first time of contact; [`curved`]:
//!   implicit solids {f ≤ 0} and their certified status (penetrating by an exact witness,
//!   separated by a certified gap, touching by an exact tangency and a convexity certificate).
//! * [`contact`]: contact regions and normals of two solids (and the ε pipeline of 1990);
//!   [`forces`]: contact forces by the SVD method, exactly minimum-norm on exact backends;
//!   [`strategies`]: degenerate cases with known answers.
//! * [`query`]: one typed query per op of the oracle's format, with claims and the filtered
//!   exact path; `arbitrary` (feature `arbitrary`): fuzz inputs.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod brep;
pub mod budget;
pub mod constructions;
pub mod contact;
pub mod contract;
pub mod curved;
pub mod error;
pub mod forces;
pub mod geom;
pub mod msp;
pub mod poly;
pub mod predicates;
pub mod query;
pub mod round;
pub mod scalar;
pub mod separation;
pub mod strategies;
pub mod sweep;
pub mod vclip;

pub use error::GeomError;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
