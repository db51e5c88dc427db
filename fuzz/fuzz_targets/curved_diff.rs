//! The certified status of curved solids (issue 45) against the truth known by construction:
//! an implicit ball or torus and a ball touching it at an exact point, nudged apart or together
//! by 2⁻ᵉ, under turned poses (`touchstone::arbitrary::CurvedInput`). A certificate is never
//! wrong: a witness lies inside both (checked exactly), separation bounds enclose the exact
//! gap, a touching point is the contact point, touching to within the precision only below
//! it. A breach panics with the oracle line that reproduces it (its truth as the claim).
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::{check_curved, CurvedInput};
use touchstone_oracle::encode::curved_replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: CurvedInput| -> Corpus {
    let Some(case) = input.case() else { return Corpus::Reject };
    match check_curved(&case) {
        Ok(_) => Corpus::Keep,
        Err(why) => panic!("MISMATCH {why}\nreplay: {}", curved_replay_line(&case.query, &case.claim())),
    }
});
