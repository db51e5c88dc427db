//! f64 continuous collision against exact under the agreement contract (its verdict settled on
//! a filter run where both miss, `ccd_agrees` and `sweep_agrees`): primitive CCD on grid
//! cases that are degenerate by construction (coplanar motion, passing exactly through a
//! vertex or an edge midpoint at t = 0, 1/2 or 1), and the box sweep on grid translations and
//! spins by integer quaternions linear in t (both `f64` routes, separating axes and
//! Albocher–Sarel, under the one sweep contract). A breach panics with the oracle line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use touchstone::arbitrary::SweepInput;
use touchstone::query::{Ccd, ToiBoxes};
use touchstone_oracle::encode::replay_line;
use touchstone::sweep::contract::{ccd_agrees, sweep_agrees};

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: SweepInput| {
    match input {
        SweepInput::Ccd(c) => {
            let (kind, t0, t1) = c.case();
            if let Err(d) = ccd_agrees(kind, &t0, &t1) {
                panic!("MISMATCH {d}\nreplay: {}", replay_line(&Ccd { kind, t0, t1 }));
            }
        }
        SweepInput::Boxes(b) => {
            let (a, b) = b.boxes();
            match sweep_agrees(&a, &b, 0.0, 1.0) {
                // A singular spin is a typed error of the exact path: not a comparison.
                Err(d) if d.what.contains("exact sweep failed") => {}
                Err(d) => panic!("MISMATCH {d}\nreplay: {}", replay_line(&ToiBoxes { a, b, interval: [0.0, 1.0] })),
                Ok(_) => {}
            }
        }
    }
});
