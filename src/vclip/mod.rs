//! Closest features and exact distances between convex solids: the V-Clip algorithm
//! (Mirtich 1998) generic over the scalar, and a brute-force reference.
//!
//! Both entry points take two convex [`Solid`]s given in one world frame and return the
//! squared distance between them (exact for exact backends), a pair of closest features, the
//! closest points on them and a [`Status`]. No tolerance appears here: every decision goes
//! through [`Scalar::sign_scaled`] with the magnitude of the expression decided.
//!
//! * [`brute_force_distance`] minimises over every feature pair and decides the status by
//!   separating planes: slow, simple, the reference of the tests.
//! * [`vclip`] walks features along Voronoi regions (unnormalised Voronoi planes, exact clip
//!   parameters, derivative sign tests), from an optional warm start, with a step cap.
//!
//! [`Scalar::sign_scaled`]: crate::scalar::Scalar::sign_scaled

mod brute;
mod geometry;

pub use brute::brute_force_distance;

use crate::brep::{Feature, Solid};
use crate::geom::Point3;
use crate::scalar::{Scalar, Uncertain};

/// How two solids lie relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A positive distance apart.
    Separated,
    /// Distance zero, interiors disjoint (a plane separates them weakly).
    Touching,
    /// The interiors intersect.
    Penetrating,
}

/// The answer of a distance query.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosestPair<S: Scalar> {
    /// Separated, touching or penetrating.
    pub status: Status,
    /// The squared distance between the solids: exact for exact backends, 0 unless separated.
    pub squared_distance: S,
    /// A feature of the first solid and one of the second realising the distance (when
    /// penetrating: witness features, an edge crossing a face or a vertex inside the other).
    pub features: (Feature, Feature),
    /// A point of each feature at the squared distance apart (equal when not separated).
    pub points: (Point3<S>, Point3<S>),
}

/// Why a distance query failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VClipError {
    /// A filtered backend could not decide a sign: rerun exactly.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// A solid is not convex (index 0 for the first, 1 for the second).
    #[error("solid {solid} is not convex")]
    NotConvex {
        /// 0 or 1.
        solid: usize,
    },
    /// A warm-start feature does not exist on its solid.
    #[error("warm-start feature {feature:?} is not a feature of solid {solid}")]
    NoSuchFeature {
        /// 0 or 1.
        solid: usize,
        /// The feature given.
        feature: Feature,
    },
    /// V-Clip did not terminate within its step cap (a bug, or inexact decisions cycling).
    #[error("V-Clip did not terminate within {steps} steps")]
    IterationCap {
        /// The cap reached.
        steps: usize,
    },
}

pub(crate) fn check_convex<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Result<(), VClipError> {
    for (i, s) in [a, b].into_iter().enumerate() {
        if !s.is_convex()? {
            return Err(VClipError::NotConvex { solid: i });
        }
    }
    Ok(())
}
