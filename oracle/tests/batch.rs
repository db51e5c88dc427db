//! Batch mode: lines answered on several threads come out in input order, byte for byte as the
//! one-at-a-time run writes them, whatever the lines cost; and a sharded run concatenates to
//! one run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use touchstone_oracle::batch::run_parallel;
use touchstone_oracle::{run, Options};

mod common;
use common::{run_binary, Rng};

/// Line `i` of a mixed file: mostly cheap predicates, some exact box distances under rotated
/// poses (hundreds of times dearer), a few hulls over the step limit, and error lines of every
/// stage (bad JSON, bad UTF-8, missing fields, over-long lines), in shuffled order.
fn line(i: usize, rng: &mut Rng) -> Vec<u8> {
    let roll = rng.below(1000);
    let text = if roll < 15 {
        // Exact distance of two boxes, the second rotated by an integer quaternion.
        let (a, b, c) = (rng.below(5) + 1, rng.below(7), rng.below(3) + 1);
        format!(
            r#"{{"id": {i}, "op": "distance", "a": {{"box": [1, 2, 3]}}, "b": {{"box": [1, "1/{c}", 1]}}, "pose_b": {{"translation": [{}, "{b}/3", 1], "quaternion": [{a}, 1, 2, {b}]}}}}"#,
            4 + rng.below(3)
        )
    } else if roll < 20 {
        // A hull over the run's step limit: a `limit` error, deterministic (steps, not time).
        let pts: Vec<String> =
            (0..120).map(|k| format!("[{}, {}, {}]", (k + i) % 7, (k * 13) % 11, (k * 29 + i) % 17)).collect();
        format!(r#"{{"id": {i}, "op": "validate", "solid": {{"convex_hull": [{}]}}}}"#, pts.join(", "))
    } else if roll < 25 {
        return [format!(r#"{{"id": {i}, "op": "#).into_bytes(), vec![0xff, 0xfe], b"}".to_vec()].concat();
    } else if roll < 30 {
        format!(r#"{{"id": {i}, "op": "orient3d", "points": [[0,0,0]]}}"#)
    } else if roll < 35 {
        format!(r#"{{"id": {i}, "op": "orient3d", "points": [[{}]]}}"#, "1,".repeat(600))
    } else if roll < 40 {
        format!("{{\"id\": {i}, \"op\": \"orient3d\"\r")
    } else {
        let z = rng.below(3) as i64 - 1;
        format!(r#"{{"id": {i}, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],["1/3", "1/7", {z}]]}}"#)
    };
    text.into_bytes()
}

fn mixed_file(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut bytes = Vec::new();
    for i in 0..n {
        bytes.extend(line(i, &mut rng));
        // Some lines end in CRLF.
        bytes.extend_from_slice(if i % 17 == 0 { b"\r\n" } else { b"\n" });
    }
    bytes
}

fn options() -> Options {
    Options { max_line_bytes: 1000, step_limit: Some(2_000), ..Options::default() }
}

#[test]
fn ten_thousand_lines_of_shuffled_costs_keep_their_order() {
    let input = mixed_file(10_000, 0x5eed_ba7c);
    let opts = options();
    let mut one = Vec::new();
    let s1 = run(&input[..], &mut one, &opts, |_| {}).unwrap();
    let mut many = Vec::new();
    let mut calls = 0u64;
    let s4 = run_parallel(&input[..], &mut many, &opts, 4, |s, _| {
        calls += 1;
        assert_eq!(s.lines, calls, "progress is reported once per line written, in order");
    })
    .unwrap();
    assert_eq!(s1, s4);
    assert_eq!(s4.lines, 10_000);
    assert!(one == many, "the parallel output differs from the one-at-a-time output");
    // The ids come back in input order (lines whose id could not be read answer null), and
    // every kind of line occurred.
    let text = String::from_utf8(many).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for (i, l) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        if !v["id"].is_null() {
            assert_eq!(v["id"], i, "{l}");
        }
        kinds.insert(v["error"]["kind"].as_str().unwrap_or(v["status"].as_str().unwrap_or("answer")).to_string());
    }
    for k in ["json", "limit", "type", "separated", "answer"] {
        assert!(kinds.contains(k), "no {k} line in {kinds:?}");
    }
    assert_eq!(
        s4.by_kind.values().sum::<u64>(),
        s4.errors,
        "every error line is counted under its kind: {:?}",
        s4.by_kind
    );
    assert!(s4.by_kind["limit"] > 0 && s4.by_kind["json"] > 0, "{:?}", s4.by_kind);
}

#[test]
fn one_thread_and_edge_inputs() {
    let opts = options();
    for input in [&b""[..], b"\n", b"{}", b"{\"id\": 1}\n\n\n", &mixed_file(300, 7)[..]] {
        let mut one = Vec::new();
        run(input, &mut one, &opts, |_| {}).unwrap();
        for jobs in [1, 2, 3] {
            let mut many = Vec::new();
            run_parallel(input, &mut many, &opts, jobs, |_, _| {}).unwrap();
            assert!(one == many, "jobs {jobs} on {:?}", String::from_utf8_lossy(input));
        }
    }
}

#[test]
fn deep_nesting_is_answered_by_the_pool_threads_as_by_the_main_thread() {
    // The parser's depth limit answers this; the pool's threads have a main thread's stack.
    let deep = format!("{{\"id\": 1, \"op\": {}1{}}}\n", "[".repeat(5000), "]".repeat(5000));
    let opts = Options::default();
    let mut one = Vec::new();
    run(deep.as_bytes(), &mut one, &opts, |_| {}).unwrap();
    let mut many = Vec::new();
    run_parallel(deep.as_bytes(), &mut many, &opts, 2, |_, _| {}).unwrap();
    assert_eq!(String::from_utf8(one).unwrap(), String::from_utf8(many).unwrap());
}

/// A reader that fails after its first lines.
struct Failing(std::io::Cursor<Vec<u8>>);

impl std::io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match std::io::Read::read(&mut self.0, buf)? {
            0 => Err(std::io::Error::other("the disk went away")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_error_is_returned_after_the_lines_before_it() {
    let input = mixed_file(50, 3);
    let mut out = Vec::new();
    let e = run_parallel(
        BufReader::with_capacity(64, Failing(std::io::Cursor::new(input))),
        &mut out,
        &options(),
        2,
        |_, _| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("the disk went away"));
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 50);
}

fn binary(args: &[&str], input: &[u8]) -> (Vec<u8>, String) {
    let (stdout, stderr, code) = run_binary(args, input);
    assert_eq!(code, 0, "{stderr}");
    (stdout, stderr)
}

#[test]
fn the_binary_answers_in_order_on_every_job_count_and_sums_up_the_errors_by_kind() {
    let input = mixed_file(2_000, 11);
    let args = ["--max-line-bytes", "1000", "--step-limit", "2000"];
    let (one, summary) = binary(&[&args[..], &["--jobs", "1"]].concat(), &input);
    let (two, summary2) = binary(&[&args[..], &["--jobs", "2"]].concat(), &input);
    let (all, _) = binary(&args, &input);
    assert!(one == two && one == all);
    // "touchstone: 2000 lines answered, 61 of them errors (json 21, limit 25, type 15) in 0.52 s"
    let counts = |s: &str| s.split(" in ").next().unwrap().to_string();
    assert_eq!(counts(&summary), counts(&summary2));
    assert!(summary.starts_with("touchstone: 2000 lines answered, "), "{summary}");
    for kind in ["json ", "limit ", "type "] {
        assert!(summary.contains(kind), "{summary}");
    }
    assert!(summary.trim_end().ends_with(" s"), "{summary}");
}

#[test]
fn a_driver_that_waits_for_each_answer_gets_it_from_the_parallel_run() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchstone"))
        .args(["--jobs", "2", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for i in 0..20 {
        writeln!(stdin, r#"{{"id": {i}, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,{i}]]}}"#).unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        assert!(answer.starts_with(&format!("{{\"id\":{i},")), "{answer}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// The sharding recipe of the README, run as written: split a file into line-aligned shards,
/// answer them in parallel processes, concatenate in shard order.
#[test]
fn a_sharded_run_concatenates_to_one_run() {
    let dir = std::env::temp_dir().join(format!("touchstone-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = mixed_file(3_000, 23);
    std::fs::write(dir.join("queries.jsonl"), &input).unwrap();
    let (one, _) = binary(&["--max-line-bytes", "1000", "--step-limit", "2000"], &input);
    // The README's recipe, with the binary's path for `touchstone`.
    let recipe = r#"
set -eu
split -n l/4 -d queries.jsonl shard-
ls shard-?? | xargs -P 4 -I{} sh -c "$TOUCHSTONE --quiet --jobs 1 --max-line-bytes 1000 --step-limit 2000 {} > {}.out"
cat shard-??.out > answers.jsonl
"#;
    let status = Command::new("sh")
        .arg("-c")
        .arg(recipe)
        .current_dir(&dir)
        .env("TOUCHSTONE", env!("CARGO_BIN_EXE_touchstone"))
        .status()
        .unwrap();
    assert!(status.success());
    let shards = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".out"))
        .count();
    assert_eq!(shards, 4);
    let sharded = std::fs::read(dir.join("answers.jsonl")).unwrap();
    assert!(sharded == one, "the sharded answers differ from one run");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_absurd_thread_count_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_touchstone")).args(["--jobs", "5000"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in 0..=1024"));
}

/// A reader that counts the lines handed to the run so far (by their newlines).
struct Counting {
    inner: std::io::Cursor<Vec<u8>>,
    lines: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl std::io::Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::Read::read(&mut self.inner, buf)?;
        let newlines = buf[..n].iter().filter(|&&b| b == b'\n').count();
        self.lines.fetch_add(newlines, std::sync::atomic::Ordering::SeqCst);
        Ok(n)
    }
}

/// An output whose first write waits until the reader has stopped reading ahead (no new line
/// for a second, or every line read), noting how many lines it had read by then; it keeps
/// only a count of the answers' lines after that.
struct Stalled {
    lines: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    read_while_stalled: Option<usize>,
    written_lines: usize,
    total: usize,
}

impl Write for Stalled {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.read_while_stalled.is_none() {
            let read = || self.lines.load(std::sync::atomic::Ordering::SeqCst);
            let (mut last, mut still) = (read(), 0);
            for _ in 0..2_400 {
                std::thread::sleep(std::time::Duration::from_millis(50));
                let now = read();
                still = if now == last { still + 1 } else { 0 };
                last = now;
                if now >= self.total || still >= 20 {
                    break;
                }
            }
            self.read_while_stalled = Some(last);
        }
        self.written_lines += buf.iter().filter(|&&b| b == b'\n').count();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Behind an output that does not take the first answer, the reader stops reading ahead at
/// about 32 MiB of answers, not at the most lines it reads ahead of short answers (512 on two
/// threads): each of these lines is 31 KB of input and 1 MB of answer (exact rationals of
/// doubles near 10⁻³⁰⁰), so 80 of them would hold 80 MB of answers unwritten.
#[test]
fn answers_waiting_behind_a_stalled_output_bound_the_read_ahead() {
    let total = 80;
    let mut input = Vec::new();
    for id in 0..total {
        let pts: Vec<String> = (1..=1000).map(|i| format!("[{i}e-300, 3e-301, 7e-299]")).collect();
        writeln!(
            input,
            r#"{{"id": {id}, "op": "transform_points", "pose": {{"translation": [0, 0, 0]}}, "points": [{}]}}"#,
            pts.join(", ")
        )
        .unwrap();
    }
    let lines = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let reader = BufReader::new(Counting { inner: std::io::Cursor::new(input), lines: lines.clone() });
    let mut out = Stalled { lines, read_while_stalled: None, written_lines: 0, total };
    let summary = run_parallel(reader, &mut out, &Options::default(), 2, |_, _| {}).unwrap();
    assert_eq!(summary.to_string(), format!("{total} lines answered, 0 of them errors"));
    assert_eq!(out.written_lines, total);
    // 32 lines before any answer is made, and 32 answers of 1 MB fill the bound; one more
    // line may be in the reader's buffer.
    let read = out.read_while_stalled.unwrap();
    assert!(read <= 40, "{read} lines read ahead of a stalled output");
}
