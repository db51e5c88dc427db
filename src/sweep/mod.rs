//! Continuous collision: exact first time of contact of linearly moving primitives, and of two
//! boxes under quadratic 4×4 motions by the box sweep of Albocher–Sarel ([`first_contact_bms`],
//! the primary route) checked against the separating-axis theorem ([`first_contact_sat`]).

pub mod benchmark;
pub mod bms;
pub(crate) mod ccd;
pub mod contract;
pub(crate) mod sat;

pub use bms::{
    bms_sections, first_contact_bms, kind_of_pair, pair_touches, BmsContact, BmsPlane, BmsSection, BoxFeature,
    ContactKind, FeaturePair,
};
pub use ccd::{ccd, edge_edge, vertex_face, CcdKind, CcdResult};
pub use sat::{first_contact_sat, BoxMotion, SatAxis, SatContact, SweepError};
