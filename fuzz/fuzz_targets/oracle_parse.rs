//! Any bytes into the oracle: no panic, one output line per input line, in order, and no
//! `internal` error (which would mean a caught bug).
#![no_main]

use libfuzzer_sys::fuzz_target;
use touchstone_oracle::{run, Options};

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|data: &[u8]| {
    let opts = Options { max_line_bytes: 4096, ..Options::default() };
    let mut out = Vec::new();
    let summary = run(data, &mut out, &opts, |_| {}).expect("writing to memory cannot fail");
    let expected = data.split(|&b| b == b'\n').count() - usize::from(data.is_empty() || data.ends_with(b"\n"));
    let text = String::from_utf8(out).expect("output is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected);
    assert_eq!(summary.lines as usize, expected);
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).expect("every output line is JSON");
        assert_ne!(v["error"]["kind"], "internal", "{line}");
    }
});
