//! The `touchstone` binary: order, id echo, every error kind, files and standard input.

use std::process::Command;

use serde_json::Value;

mod common;

fn run_with(args: &[&str], input: &[u8]) -> (Vec<Value>, String, i32) {
    let (stdout, stderr, code) = common::run_binary(args, input);
    let stdout = String::from_utf8(stdout).unwrap();
    let lines = stdout.lines().map(|l| serde_json::from_str(l).expect("every output line is JSON")).collect();
    (lines, stderr, code)
}

fn run(input: &str) -> Vec<Value> {
    run_with(&[], input.as_bytes()).0
}

const OK: &str = r#""op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]"#;

#[test]
fn answers_in_order_and_echoes_ids_of_any_type() {
    let ids = [r#"1"#, r#""a""#, r#"{"k": [1, 2]}"#, r#"null"#, r#"-0.5"#, r#"[true]"#];
    let input: String = ids.iter().map(|id| format!("{{\"id\": {id}, {OK}}}\n")).collect();
    let out = run(&input);
    assert_eq!(out.len(), ids.len());
    for (line, id) in out.iter().zip(ids) {
        assert_eq!(line["id"], serde_json::from_str::<Value>(id).unwrap());
        assert_eq!(line["orientation"], "positive");
    }
    // Without an id the id is null.
    assert_eq!(run(&format!("{{{OK}}}\n"))[0]["id"], Value::Null);
}

/// Each error kind a user can provoke, the line that provokes it and where it points.
const ERRORS: [(&str, &str, &str); 19] = [
    ("json", r#"{"id": 1, "op": "orient3d""#, ""),
    ("json", r#"[1, 2, 3]"#, ""),
    ("missing", r#"{"id": 1}"#, "/op"),
    ("missing", r#"{"id": 1, "op": "orient3d"}"#, "/points"),
    ("type", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0]]}"#, "/points"),
    ("type", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,true,1]]}"#, "/points/3/1"),
    ("number", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,"NaN",1]]}"#, "/points/3/1"),
    ("number", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,1e999,1]]}"#, "/points/3/1"),
    ("number", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,"1/0",1]]}"#, "/points/3/1"),
    ("unknown", r#"{"id": 1, "op": "frobnicate"}"#, "/op"),
    ("unknown", r#"{"id": 1, "op": "orient3d", "pionts": []}"#, "/pionts"),
    ("missing", r#"{"id": 1, "op": "contact_forces", "bodies": []}"#, "/gravity"),
    (
        "unsupported",
        r#"{"id": 1, "op": "distance", "a": {"box": [1, 1, 1]}, "b": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 1}}}"#,
        "/a/box",
    ),
    (
        "invalid",
        r#"{"id": 1, "op": "transform_points", "pose": {"quaternion": [0,0,0,0]}, "points": []}"#,
        "/pose/quaternion",
    ),
    ("invalid", r#"{"id": 1, "op": "validate", "solid": {"box": [1, 0, 1]}}"#, "/solid/box/1"),
    ("limit", r#"{"id": 1, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,"1e20000",1]]}"#, "/points/3/1"),
    // The determinant is 1e900: beyond binary64.
    (
        "overflow",
        r#"{"id": 1, "op": "orient3d", "backend": "f64", "points": [[0,0,0],[1e300,0,0],[0,1e300,0],[0,0,1e300]]}"#,
        "/backend",
    ),
    // |n|² of a nonzero plane normal underflows to zero.
    (
        "overflow",
        r#"{"id": 1, "op": "squared_distance", "backend": "f64", "point": [0,0,0], "to_plane": {"coefficients": [0,-5e-324,-5e-324,1.5]}}"#,
        "/backend",
    ),
    // A unit box 10^15 away: its faces collapse at binary64 precision.
    (
        "precision",
        r#"{"id": 1, "op": "distance", "backend": "f64", "a": {"box": [1,1,1]}, "b": {"box": [1,1,1]}, "pose_b": {"translation": [1e15,0,0]}}"#,
        "/pose_b",
    ),
];

#[test]
fn every_error_kind_is_reported_and_the_run_goes_on() {
    let mut input = String::new();
    for (_, line, _) in ERRORS {
        input.push_str(line);
        input.push('\n');
        input.push_str(&format!("{{\"id\": \"after\", {OK}}}\n"));
    }
    let out = run(&input);
    assert_eq!(out.len(), 2 * ERRORS.len());
    for (i, (kind, line, at)) in ERRORS.iter().enumerate() {
        let e = &out[2 * i]["error"];
        assert_eq!(e["kind"], *kind, "{line} gave {e}");
        assert_eq!(e["at"], *at, "{line} gave {e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
        assert_eq!(out[2 * i + 1]["orientation"], "positive", "the line after {line} is answered");
    }
    // Every kind but `internal` (a bug) and `uncertain` (only an interval backend gives it, and
    // the oracle runs none; the library's query tests provoke it) is provokable.
    use touchstone_oracle::error::Kind;
    for kind in Kind::ALL {
        if kind != Kind::Internal && kind != Kind::Uncertain {
            assert!(ERRORS.iter().any(|(k, _, _)| *k == kind.as_str()), "{kind:?} untested");
        }
    }
}

#[test]
fn limits_on_line_size_and_digits() {
    let long = format!("{{\"id\": 1, \"pad\": \"{}\", {OK}}}\n{{\"id\": 2, {OK}}}\n", "x".repeat(300));
    let (out, _, code) = run_with(&["--max-line-bytes", "200"], long.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(out[0]["error"]["kind"], "limit");
    assert_eq!(out[1]["orientation"], "positive");
    let out = run(r#"{"id": 1, "op": "squared_distance", "point": [0,0,0], "to_point": [1,1,0], "digits": 1000000}"#);
    assert_eq!(out[0]["error"]["kind"], "limit");
    assert_eq!(out[0]["error"]["at"], "/digits");
}

#[test]
fn time_limit_per_query() {
    // The hull of 400 points takes far longer than a microsecond; the next line is answered.
    let pts: Vec<String> = (0..400).map(|i| format!("[{}, {}, {}]", i % 7, (i * 13) % 11, (i * 29) % 17)).collect();
    let slow =
        format!("{{\"id\": \"slow\", \"op\": \"validate\", \"solid\": {{\"convex_hull\": [{}]}}}}\n", pts.join(", "));
    let input = format!("{slow}{{\"id\": 2, {OK}}}\n");
    let (out, _, _) = run_with(&["--time-limit", "0.000001"], input.as_bytes());
    assert_eq!(out[0]["id"], "slow");
    assert_eq!(out[0]["error"]["kind"], "limit");
    assert!(out[0]["error"]["message"].as_str().unwrap().contains("time limit"));
    // Without the tiny limit both are answered.
    let (out, _, _) = run_with(&[], input.as_bytes());
    assert_eq!(out[0]["valid"], true);
    assert_eq!(out[1]["id"], 2);
}

#[test]
fn bad_bytes_blank_lines_and_crlf() {
    let mut input = Vec::new();
    input.extend_from_slice(b"\xff\xfe not utf-8\n\n");
    input.extend_from_slice(format!("{{\"id\": 3, {OK}}}\r\n").as_bytes());
    input.extend_from_slice(format!("{{\"id\": 4, {OK}}}").as_bytes()); // no final newline
    let (out, _, _) = run_with(&[], &input);
    assert_eq!(out.len(), 4);
    assert_eq!(out[0]["error"]["kind"], "json");
    assert_eq!(out[1]["error"]["kind"], "json");
    assert_eq!(out[2]["id"], 3);
    assert_eq!(out[3]["id"], 4);
    assert_eq!(out[3]["orientation"], "positive");
}

#[test]
fn reads_files_and_reports_a_summary() {
    let dir = std::env::temp_dir().join(format!("touchstone-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("q.jsonl");
    std::fs::write(&path, format!("{{\"id\": 1, {OK}}}\n{{\"id\": 2, \"op\": \"nope\"}}\n")).unwrap();
    let (out, stderr, code) = run_with(&[path.to_str().unwrap()], b"");
    assert_eq!((out.len(), code), (2, 0));
    assert!(stderr.contains("2 lines answered, 1 of them errors"), "{stderr}");
    let (out, _, _) = run_with(&["-"], format!("{{\"id\": 9, {OK}}}\n").as_bytes());
    assert_eq!(out[0]["id"], 9);
    let (_, stderr, code) = run_with(&[dir.join("missing.jsonl").to_str().unwrap()], b"");
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot open"));
}

#[test]
fn help_documents_the_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_touchstone")).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in
        ["JSON Lines", "backend", "exact-unfiltered", "orient3d", "unsupported", "limit", "FORMAT.md", "time-limit"]
    {
        assert!(help.contains(needle), "--help lacks {needle}");
    }
    // Generated from the op table: every op the oracle answers is listed as answered (with its
    // fields and claimable fields), every other op of the format as still to come, and each
    // answered op really answers (a query naming it is not refused as `unsupported`).
    // (The list of ops still to come is left out when every op is answered.)
    let (answered, later) = help
        .split_once("Ops of the format still to come")
        .unwrap_or((help.split_once("Parts of the format still to come").expect("the closing note").0, ""));
    let listed_answered: Vec<&str> = answered
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let later = later.lines().nth(1).unwrap_or_default();
    let listed_later: Vec<&str> = later.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let ops = touchstone_oracle::ops::ops();
    let names = |answered: bool| ops.iter().filter(|o| o.answered() == answered).map(|o| o.name).collect::<Vec<_>>();
    assert_eq!(listed_answered, names(true));
    assert_eq!(listed_later, names(false));
    assert!(names(true).len() >= 9);
    for op in ops.iter().filter(|o| o.answered()) {
        assert!(answered.contains(&format!("claim: {}", (op.claim_fields)().join(", "))), "{}'s claim fields", op.name);
        let a = touchstone_oracle::answer_line(
            &format!(r#"{{"op": "{}"}}"#, op.name),
            &touchstone_oracle::Options::default(),
        );
        assert_ne!(a["error"]["kind"], "unsupported", "{}: {a}", op.name);
    }
    for kind in touchstone_oracle::error::Kind::ALL {
        assert!(help.contains(kind.as_str()), "--help lacks the error kind {}", kind.as_str());
    }
}

#[test]
fn the_example_file_is_answered_without_errors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/foundation.jsonl");
    let (out, _, code) = run_with(&[path], b"");
    assert_eq!(code, 0);
    assert!(out.len() >= 8);
    for line in &out {
        let expect_error = line["id"].as_str().is_some_and(|s| s.starts_with("error"));
        assert_eq!(line.get("error").is_some(), expect_error, "{line}");
        if let Some(agreement) = line.get("agreement") {
            assert_eq!(agreement["agree"], true, "{line}");
        }
        // Claims in the example file say in their id whether they are wrong.
        if let Some(verdict) = line.get("verdict") {
            let wrong = line["id"].as_str().is_some_and(|s| s.contains("(wrong)"));
            assert_eq!(verdict["ok"], !wrong, "{line}");
        }
    }
    assert!(out.iter().filter(|l| l.get("verdict").is_some()).count() >= 3);
}

/// The process's CPU time so far (user + system, in clock ticks) and its thread count, from
/// /proc (Linux).
fn cpu_and_threads(pid: u32) -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let cpu = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let threads = f.get(17)?.parse::<u64>().ok()?;
    Some((cpu, threads))
}

#[test]
fn one_line_in_one_answer_out_and_nothing_left_running_after_a_limit() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchstone"))
        .args(["--time-limit", "0.3", "--quiet", "--jobs", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Request, response: the answer comes while standard input stays open.
    writeln!(stdin, "{{\"id\": 1, {OK}}}").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"id\":1") && line.contains("positive"), "{line}");
    // A slow exact hull hits the time limit: 50,000 points on a paraboloid, every one a
    // vertex (15 s in a release build; 3,000 points in a cube, as this used to send, made a
    // 101-vertex hull that a release build finished within the limit).
    let pts: Vec<String> = (0..50_000)
        .map(|i: i64| {
            let (x, y) = ((i * i * 31) % 7919, (i * 7717) % 104729);
            let (dx, dy) = (7919i128 * 7919, 104729i128 * 104729);
            let z = i128::from(x * x) * dy + i128::from(y * y) * dx;
            format!("[\"{x}/7919\", \"{y}/104729\", \"{z}/{}\"]", dx * dy)
        })
        .collect();
    writeln!(stdin, "{{\"id\": \"slow\", \"op\": \"validate\", \"solid\": {{\"convex_hull\": [{}]}}}}", pts.join(", "))
        .unwrap();
    stdin.flush().unwrap();
    // The whole hull takes seconds to minutes: a `limit` error naming time is the proof the limit cut it
    // (no clock is read here: how long the run takes depends on how busy the machine is).
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"slow\"") && line.contains("\"limit\"") && line.contains("time limit"), "{line}");
    // Nothing keeps running: one thread, and no CPU time spent while idle.
    let pid = child.id();
    let (cpu0, threads) = cpu_and_threads(pid).unwrap();
    assert_eq!(threads, 1, "a thread was left behind");
    std::thread::sleep(std::time::Duration::from_millis(600));
    let (cpu1, _) = cpu_and_threads(pid).unwrap();
    assert!(cpu1 <= cpu0 + 1, "the process kept computing: {cpu0} -> {cpu1} ticks");
    // And the next line is answered.
    writeln!(stdin, "{{\"id\": 3, {OK}}}").unwrap();
    stdin.flush().unwrap();
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"id\":3"), "{line}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn step_limit_and_bad_time_limits() {
    let pts: Vec<String> = (0..200).map(|i| format!("[{}, {}, {}]", i % 7, (i * 13) % 11, (i * 29) % 17)).collect();
    let slow =
        format!("{{\"id\": \"slow\", \"op\": \"validate\", \"solid\": {{\"convex_hull\": [{}]}}}}\n", pts.join(", "));
    let (out, _, _) = run_with(&["--step-limit", "50"], slow.as_bytes());
    assert_eq!(out[0]["error"]["kind"], "limit");
    assert!(out[0]["error"]["message"].as_str().unwrap().contains("step limit of 50"), "{}", out[0]);
    for bad in ["nan", "inf", "-1", "abc"] {
        let (_, stderr, code) = run_with(&[&format!("--time-limit={bad}")], b"");
        assert_eq!(code, 2, "--time-limit {bad} accepted");
        assert!(stderr.contains("time"), "{stderr}");
    }
    // --max-memory takes a byte count with an optional binary unit.
    for bad in ["-1", "abc", "12TB", "99999999999G", "1.5GiB"] {
        let (_, stderr, code) = run_with(&[&format!("--max-memory={bad}")], b"");
        assert_eq!(code, 2, "--max-memory {bad} accepted");
        assert!(stderr.contains("max-memory"), "{stderr}");
    }
    for good in ["0", "4096", "64MiB", "1G", "2 GiB"] {
        let (out, stderr, code) = run_with(&[&format!("--max-memory={good}")], format!("{{{OK}}}\n").as_bytes());
        assert_eq!((code, out.len()), (0, 1), "--max-memory {good}: {stderr}");
    }
}

#[test]
fn the_default_backend_is_a_flag() {
    let input = format!("{{\"id\": 1, {OK}}}\n{{\"id\": 2, \"backend\": \"exact\", {OK}}}\n");
    let (out, _, code) = run_with(&["--backend", "f64"], input.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(
        (out[0]["determinant"].clone(), out[1]["determinant"].clone()),
        (serde_json::json!(1.0), serde_json::json!("1"))
    );
    let (out, _, _) = run_with(&["--backend", "both"], input.as_bytes());
    assert_eq!(out[0]["agreement"]["agree"], true);
    let (_, stderr, code) = run_with(&["--backend", "fast"], b"");
    assert_eq!(code, 2);
    assert!(stderr.contains("no backend"), "{stderr}");
}
