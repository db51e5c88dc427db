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
//! Layers, bottom up: [`scalar`] (backends and the tolerance policy), [`geom`], [`predicates`],
//! [`constructions`], [`contract`]; [`poly`] (polynomials, real roots, algebraic numbers). See
//! `ARCHITECTURE.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod brep;
pub mod budget;
pub mod constructions;
pub mod contact;
pub mod contract;
pub mod error;
pub mod geom;
pub mod msp;
pub mod poly;
pub mod predicates;
pub mod query;
pub mod replay;
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
