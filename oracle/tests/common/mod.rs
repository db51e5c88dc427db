//! Shared by the oracle's integration tests: running the binary, and a seeded generator.

use std::io::Write;
use std::process::{Command, Stdio};

/// Run `touchstone ARGS` with `stdin` as its standard input (written from another thread, so
/// a large input cannot block on a full output pipe): standard output, standard error and the
/// exit code.
#[allow(dead_code)]
pub fn run_binary(args: &[&str], stdin: &[u8]) -> (Vec<u8>, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchstone"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("a piped standard input");
    let input = stdin.to_vec();
    // The binary may exit before reading it all (a refused flag): a closed pipe is no failure.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the writer thread");
    (out.stdout, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

/// xorshift64*: the same numbers on every machine.
#[allow(dead_code)]
pub struct Rng(pub u64);

#[allow(dead_code)]
impl Rng {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// An integer in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// `n` bytes (the top byte of each draw).
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 56) as u8).collect()
    }
}
