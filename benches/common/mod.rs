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
pub struct Grid(Rng);

impl Grid {
    /// A generator from a seed (not zero).
    pub fn new(seed: u64) -> Self {
        Grid(Rng::new(seed))
    }

    /// The next integer in [−m, m].
    pub fn next(&mut self, m: i64) -> i64 {
        self.0.int(m)
    }
}

/// A deterministic xorshift generator of integers, binary64 numbers, rotations and points.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (made odd: never zero).
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    /// The next raw 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// An integer in [−m, m].
    pub fn int(&mut self, m: i64) -> i64 {
        ((self.next() >> 11) % (2 * m as u64 + 1)) as i64 - m
    }
    /// A double in [−1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    /// A unit quaternion in binary64 (normalised in f64, so only nearly unit: an engine's).
    pub fn rotation(&mut self) -> [f64; 4] {
        loop {
            let q = [0; 4].map(|_| self.unit());
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 0.1 && n <= 1.0 {
                return q.map(|x| x / n);
            }
        }
    }
    /// A point in the unit ball.
    pub fn ball(&mut self) -> [f64; 3] {
        loop {
            let p = [0; 3].map(|_| self.unit());
            if p.iter().map(|x| x * x).sum::<f64>() <= 1.0 {
                return p;
            }
        }
    }
}
