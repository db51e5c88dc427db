//! `contact_forces`: its f64 answer (nalgebra's SVD, verified) against the exact minimum-norm
//! forces under the op's contract (`query::both`), on boxes resting or sliding on the floor, on
//! inclines of Pythagorean slope and stacked, with statically indeterminate, repeated and
//! collinear contacts by construction. A breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::ForcesInput;
use touchstone::query::agrees;
use touchstone_oracle::encode::replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: ForcesInput| -> Corpus {
    let query = input.query();
    // An exact refusal (an irrational unit vector, an inconsistent system) is no case.
    let Ok(r) = agrees(&query) else { return Corpus::Reject };
    match r {
        Ok(_) => Corpus::Keep,
        Err(d) => panic!("MISMATCH {d}\nreplay: {}", replay_line(&query)),
    }
});
