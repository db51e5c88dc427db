//! The `distance` op's f64 answer (V-Clip) against its exact one under the op's own contract
//! (`query::both`'s verdict, by `query::agrees`), on convex pairs built exactly (integer quaternions, grid translations,
//! touching and penetrating by construction) and rounded to binary64. A breach panics with the
//! oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::ConvexPairInput;
use touchstone::query::{agrees, Distance};
use touchstone_oracle::encode::replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: ConvexPairInput| -> Corpus {
    let Some((a, b)) = input.solids() else { return Corpus::Reject };
    // An exact refusal (not strictly convex exactly) is outside the op's contract.
    let query = Distance::between(&a, &b);
    // The verdict of `query::both`, settled on a run on values with bounds where it can.
    let Ok(r) = agrees(&query) else { return Corpus::Reject };
    match r {
        Ok(_) => Corpus::Keep,
        Err(d) => panic!("MISMATCH {d}\nreplay: {}", replay_line(&query)),
    }
});
