//! Polyhedral solids: a half-edge boundary representation of closed, oriented, 2-manifold
//! solids with simple planar faces (convex or not), exact validation, builders, mesh I/O and
//! the exact convex hull.

mod distance;
mod error;
mod hull;
mod hull_contract;
pub mod io;
pub mod shapes;
mod solid;
mod validate;

pub use error::BrepError;
pub use hull::{convex_hull, ConvexHull, HullError};
pub use hull_contract::{check_hull_agreement, HullAnswer};
pub use solid::{Convexity, Feature, HalfEdge, Solid, ValidationTests};
pub use validate::{assert_well_formed, check_well_formed};
