//! f64 V-Clip against exact V-Clip under the agreement contract, on convex pairs built exactly
//! (integer quaternions, grid translations, touching and penetrating by construction) and
//! rounded to binary64. A breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::ConvexPairInput;
use touchstone::vclip::contract::{check_distance_agreement, oracle_line};

fuzz_target!(|input: ConvexPairInput| -> Corpus {
    let Some((a, b)) = input.solids() else { return Corpus::Reject };
    match check_distance_agreement(&a, &b) {
        Ok(Some(_)) => Corpus::Keep,
        Ok(None) => Corpus::Reject,
        Err(d) => panic!("MISMATCH {d}\nreplay: {}", oracle_line(&a, &b)),
    }
});
