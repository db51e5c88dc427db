//! f64 continuous collision against exact under the agreement contract: primitive CCD on grid
//! cases that are degenerate by construction (coplanar motion, passing exactly through a
//! vertex or an edge midpoint at t = 0, 1/2 or 1). A breach panics with the oracle line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use touchstone::arbitrary::CcdInput;
use touchstone::sweep::contract::{check_ccd_agreement, oracle_line};

fuzz_target!(|input: CcdInput| {
    let (kind, t0, t1) = input.case();
    if let Err(d) = check_ccd_agreement(kind, &t0, &t1) {
        panic!("MISMATCH {d}\nreplay: {}", oracle_line(kind, &t0, &t1));
    }
});
