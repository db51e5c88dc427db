//! Continuous collision: exact first time of contact of linearly moving primitives (and, to
//! come, the box sweep of Albocher–Sarel under quadratic 4×4 motions).

pub mod benchmark;
mod ccd;
pub mod contract;
pub(crate) mod sat;

pub use ccd::{ccd, edge_edge, vertex_face, CcdKind, CcdResult};
pub use sat::{first_contact_sat, BoxMotion, SatAxis, SatContact, SweepError};
