//! The `distance` op on round shapes: its f64 answer against its exact one under the op's own
//! contract (`query::both`), on balls, capsules and rounded boxes touching by construction
//! (Pythagorean offsets split between the radii) or nudged 2⁻⁵⁰ of the scale off touching. A
//! breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::RoundInput;
use touchstone::query::both;
use touchstone_oracle::encode::replay_line;

fuzz_target!(|input: RoundInput| -> Corpus {
    let query = input.query();
    let Ok(r) = both(&query) else { return Corpus::Reject };
    match r.agreement {
        Ok(_) => Corpus::Keep,
        Err(d) => panic!("MISMATCH {d}\nreplay: {}", replay_line(&query)),
    }
});
