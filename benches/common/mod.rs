//! Helpers shared by the benches: criterion's saved means and a small deterministic generator.
#![allow(dead_code)]

use std::path::PathBuf;

/// The mean time in ns that criterion saved for `group/function` in this run.
pub fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let root = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("target"));
    let path = root.join("criterion").join(group).join(function.replace('/', "_")).join("new").join("estimates.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

/// A xorshift generator of integers in [−m, m], the same sequence on every machine.
pub struct Grid(u64);

impl Grid {
    /// A generator from a seed (not zero).
    pub fn new(seed: u64) -> Self {
        Grid(seed | 1)
    }

    /// The next integer in [−m, m].
    pub fn next(&mut self, m: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) % (2 * m as u64 + 1)) as i64 - m
    }
}
