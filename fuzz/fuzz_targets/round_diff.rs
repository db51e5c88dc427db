//! The `distance` and `toi` ops on round shapes: their f64 answers against their exact ones
//! under the ops' own contracts (`query::both`), on balls, capsules and rounded boxes touching
//! by construction (Pythagorean offsets split between the radii) or nudged 2⁻⁵⁰ of the scale
//! off touching; for `toi`, b moves into that place at an integer time; and tori touching by
//! construction (a capsule on the tube or through the hole, perpendicular and linked tori), and
//! balls, capsules and tori cast at a torus, grazing or meeting it by construction; and balls on a cylinder's cap, side and
//! rim or inside it, touching by construction or nudged. A breach panics with
//! the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::RoundCase;
use touchstone::query::{agrees, Query};
use touchstone_oracle::encode::{replay_line, Encode};

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn judged<Q: Query + Encode>(query: &Q) -> Corpus {
    // The verdict of `query::both`, settled on a run on values with bounds where it can.
    let Ok(r) = agrees(query) else { return Corpus::Reject };
    match r {
        Ok(_) => Corpus::Keep,
        Err(d) => panic!("MISMATCH {d}\nreplay: {}", replay_line(query)),
    }
}

fuzz_target!(|input: RoundCase| -> Corpus {
    match input {
        RoundCase::Distance(pair) => judged(&pair.query()),
        RoundCase::Toi { pair, motion, at } => judged(&pair.toi_query(motion, at)),
        RoundCase::Torus(pair) => judged(&pair.query()),
        RoundCase::TorusToi(cast) => judged(&cast.query()),
        RoundCase::Cylinder(pair) => judged(&pair.query()),
    }
});
