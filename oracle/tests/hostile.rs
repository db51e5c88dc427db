//! The tool under attack: hostile lines and files end in typed errors, in bounded time and
//! memory, and the run goes on.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const OK: &str = r#""op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]"#;

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("touchstone-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run the tool on `input` (a query file when `file` is given, else standard input), with
/// `args`; the answers, and the peak resident memory in kB read just before standard input
/// closes.
fn run(args: &[&str], file: Option<&Path>, input: &str) -> (Vec<Value>, u64) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_touchstone"));
    cmd.args(args).arg("--quiet");
    if let Some(f) = file {
        std::fs::write(f, input).unwrap();
        cmd.arg(f);
    }
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let lines = input.lines().count();
    if file.is_none() {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let mut out = Vec::new();
    let mut peak = 0;
    for _ in 0..lines {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        out.push(serde_json::from_str(&line).expect("every answer is JSON"));
        peak = peak.max(peak_kb(child.id()).unwrap_or(0));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (out, peak)
}

fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn error(v: &Value) -> (String, String, String) {
    let e = &v["error"];
    let s = |x: &Value| x.as_str().unwrap_or_default().to_string();
    (s(&e["kind"]), s(&e["at"]), s(&e["message"]))
}

#[test]
fn files_are_read_only_under_the_allowed_root() {
    let dir = scratch("root");
    let cube = "OFF\n8 6 0\n-1 -1 -1\n1 -1 -1\n-1 1 -1\n1 1 -1\n-1 -1 1\n1 -1 1\n-1 1 1\n1 1 1\n\
                4 0 2 3 1\n4 4 5 7 6\n4 0 1 5 4\n4 2 6 7 3\n4 0 4 6 2\n4 1 3 7 5\n";
    std::fs::write(dir.join("cube.off"), cube).unwrap();
    let outside = scratch("outside");
    std::fs::write(outside.join("secret.off"), "OFF\nroot:$6$SECRETHASH:19000:0:99999:7:::\n").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.off"), dir.join("x.off")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.off")).unwrap();
    let q = |id: &str, path: &str| {
        format!("{{\"id\": \"{id}\", \"op\": \"validate\", \"solid\": {{\"file\": \"{path}\"}}}}\n")
    };
    let secret = outside.join("secret.off");
    let input = [
        q("inside", "cube.off"),
        q("symlink out", "x.off"),
        q("dotdot", &format!("../{}/secret.off", outside.file_name().unwrap().to_str().unwrap())),
        q("absolute", secret.to_str().unwrap()),
        q("dev zero", "zero.off"),
        format!("{{\"id\": 6, {OK}}}\n"),
    ]
    .concat();
    let started = Instant::now();
    let (out, peak) = run(&[], Some(&dir.join("queries.jsonl")), &input);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(peak < 200_000, "peak memory {peak} kB");
    assert_eq!(out.len(), 6);
    assert_eq!(out[0]["valid"], true, "{}", out[0]);
    for a in &out[1..5] {
        let (kind, at, message) = error(a);
        assert_eq!((kind.as_str(), at.as_str()), ("invalid", "/solid/file"), "{a}");
        assert!(message.contains("not a file under the folder"), "{message}");
        assert!(!a.to_string().contains("SECRETHASH"), "a file's content leaked: {a}");
    }
    assert_eq!(out[5]["orientation"], "positive");
    // --files widens the root: the symlinked file is read, and its bad content is quoted only
    // as a short excerpt (at most 16 characters of it).
    let parent = dir.parent().unwrap().to_str().unwrap().to_string();
    let (out, _) = run(&["--files", &parent], Some(&dir.join("queries.jsonl")), &q("widened", "x.off"));
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "invalid", "{}", out[0]);
    let content: Vec<char> = std::fs::read_to_string(&secret).unwrap().chars().collect();
    for w in content.windows(17) {
        let w: String = w.iter().collect();
        assert!(!message.contains(&w), "{message} quotes {w:?}");
    }
    // Under the widest root, /dev/zero is refused unread (not a regular file), quickly.
    let started = Instant::now();
    let (out, peak) = run(&["--files", "/"], Some(&dir.join("queries.jsonl")), &q("zero", "zero.off"));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(peak < 200_000, "peak memory {peak} kB");
    assert!(error(&out[0]).2.contains("not a regular file"), "{}", out[0]);
    // A byte cap on files.
    let (out, _) = run(&["--max-file-bytes", "100"], Some(&dir.join("queries.jsonl")), &q("cap", "cube.off"));
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "limit");
    assert!(message.contains("100 bytes"), "{message}");
    // Found by the attack on the tool, each now a typed error or an answer:
    // a file that does not exist outside the root gets the same message as one that does (no
    // probing for files outside the root);
    let missing = outside.join("nope.off");
    let (out, _) = run(&[], Some(&dir.join("queries.jsonl")), &q("missing", missing.to_str().unwrap()));
    assert!(error(&out[0]).2.contains("not a file under the folder"), "{}", out[0]);
    // a FIFO in the root is refused unopened (opening it waited for a writer for ever);
    let fifo = dir.join("fifo.off");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let started = Instant::now();
    let (out, _) = run(
        &["--time-limit", "1"],
        Some(&dir.join("queries.jsonl")),
        &format!("{}{{\"id\": 2, {OK}}}\n", q("fifo", "fifo.off")),
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(error(&out[0]).2.contains("not a regular file"), "{}", out[0]);
    assert_eq!(out[1]["orientation"], "positive");
    // a query file given by a bare name (its folder is then "") reads files from the current
    // folder (every file line failed with "the file root  cannot be resolved");
    std::fs::write(dir.join("queries.jsonl"), q("bare", "cube.off")).unwrap();
    let bare = Command::new(env!("CARGO_BIN_EXE_touchstone"))
        .current_dir(&dir)
        .args(["--quiet", "queries.jsonl"])
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&bare.stdout).unwrap();
    assert_eq!(answer["valid"], true, "{answer}");
    // a file's vertices count against --max-vertices as they are read, and its numbers against
    // --max-bits like inline ones.
    let (out, _) = run(&["--max-vertices", "7"], Some(&dir.join("queries.jsonl")), &q("vertices", "cube.off"));
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "limit", "{}", out[0]);
    assert!(message.contains("8 vertices") && message.contains("limit of 7"), "{message}");
    let big = format!("OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 {}\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n", "9".repeat(300));
    std::fs::write(dir.join("big.off"), big).unwrap();
    let (out, _) = run(&["--max-bits", "500"], Some(&dir.join("queries.jsonl")), &q("bits", "big.off"));
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "limit", "{}", out[0]);
    assert!(message.contains("--max-bits"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn hostile_lines_end_in_typed_errors() {
    let digits = "7".repeat(100_000);
    let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let many: Vec<String> = (0..1_000_000).map(|i| format!("[{},0,0]", i % 10)).collect();
    let lines = [
        // Deep nesting.
        nested,
        // 10⁵-digit integers, as a JSON number and as a string.
        format!("{{\"op\": \"orient3d\", \"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,{digits}]]}}"),
        format!("{{\"op\": \"orient3d\", \"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,\"{digits}\"]]}}"),
        // A million vertices.
        format!("{{\"op\": \"validate\", \"solid\": {{\"convex_hull\": [{}]}}}}", many.join(",")),
        // A repeated field.
        r#"{"op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "points": []}"#.to_string(),
        format!("{{\"id\": 6, {OK}}}"),
    ];
    let input = lines.join("\n") + "\n";
    let started = Instant::now();
    let (out, peak) = run(&["--max-line-bytes", "20000000"], None, &input);
    assert!(started.elapsed() < Duration::from_secs(60));
    // A line's numbers take no allocation of their own: 400 MB for the 9 MB line of a million
    // points (it took 1.2 GB when numbers were kept as text).
    assert!(peak < 700_000, "peak memory {peak} kB");
    assert_eq!(out.len(), 6);
    assert_eq!(error(&out[0]).0, "json");
    // As a JSON number it denotes a value beyond binary64; as a string, text over the limit.
    assert_eq!(error(&out[1]), ("number".into(), "/points/3/2".into(), error(&out[1]).2));
    assert_eq!(error(&out[2]).0, "limit");
    let (kind, at, message) = error(&out[3]);
    assert_eq!((kind.as_str(), at.as_str()), ("limit", "/solid/convex_hull"));
    assert!(message.contains("--max-vertices"), "{message}");
    assert_eq!((error(&out[4]).0.as_str(), error(&out[4]).1.as_str()), ("json", "/points"));
    assert_eq!(out[5]["orientation"], "positive");
}

#[test]
fn the_bits_of_a_query_are_capped() {
    let big = "9".repeat(300);
    let line = format!("{{\"op\": \"orient3d\", \"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,\"{big}\"]]}}\n");
    let (out, _) = run(&["--max-bits", "500"], None, &line);
    let (kind, at, message) = error(&out[0]);
    assert_eq!((kind.as_str(), at.as_str()), ("limit", "/points/3/2"));
    assert!(message.contains("500 bits"), "{message}");
    let (out, _) = run(&["--max-bits", "5000"], None, &line);
    assert_eq!(out[0]["orientation"], "positive");
    // After posing: 300-digit quaternion parts make posed coordinates of thousands of bits.
    let q = format!("\"{big}\"");
    let posed = format!(
        "{{\"op\": \"distance\", \"a\": {{\"box\": [1, 1, 1]}}, \"b\": {{\"box\": [1, 1, 1]}}, \"pose_b\": {{\"quaternion\": [{q}, {q}, 1, 1], \"translation\": [5, 0, 0]}}}}\n"
    );
    let (out, _) = run(&["--max-bits", "20000"], None, &posed);
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "limit", "{}", out[0]);
    assert!(message.contains("posed") && message.contains("20000 bits"), "{message}");
    let (out, _) = run(&["--max-bits", "200000"], None, &posed);
    assert_eq!(out[0]["status"], "separated", "{}", out[0]);
}

#[test]
fn slow_validation_ends_at_the_time_limit() {
    // A prism over a nonconvex 1,000-gon (2,000 vertices): exact validation checks each cap's
    // simplicity pair by pair (a convex cap would take the linear shortcut).
    let n = 1000;
    let mut vertices = Vec::new();
    for z in [0, 1] {
        for k in 0..n {
            // Points on the parabola y = x², every odd one raised past the chord of its
            // neighbours: a zigzag, simple and not convex.
            let raise = if k % 2 == 1 && k < n - 1 { 2 } else { 0 };
            vertices.push(format!("[\"{k}/{n}\", \"{}/{}\", {z}]", k * k + raise, n * n));
        }
    }
    let bottom: Vec<String> = (0..n).rev().map(|k| k.to_string()).collect();
    let top: Vec<String> = (0..n).map(|k| (n + k).to_string()).collect();
    let mut faces = vec![format!("[{}]", bottom.join(",")), format!("[{}]", top.join(","))];
    for k in 0..n {
        let j = (k + 1) % n;
        faces.push(format!("[{k},{j},{},{}]", n + j, n + k));
    }
    let line = format!(
        "{{\"id\": \"prism\", \"op\": \"validate\", \"solid\": {{\"polyhedron\": {{\"vertices\": [{}], \"faces\": [{}]}}}}}}\n{{\"id\": 2, {OK}}}\n",
        vertices.join(","),
        faces.join(",")
    );
    let started = Instant::now();
    let (out, _) = run(&["--time-limit", "1"], None, &line);
    let took = started.elapsed();
    // The `limit` error below shows the limit fired before the answer; this bound only
    // catches a run that goes on long after it. It is loose because the whole process is
    // timed on a machine that may be busy with other tests.
    assert!(took < Duration::from_secs(6), "took {took:?}");
    let (kind, _, message) = error(&out[0]);
    assert_eq!(kind, "limit", "{}", out[0]);
    assert!(message.contains("time limit"), "{message}");
    assert_eq!(out[1]["orientation"], "positive");
}

#[test]
fn a_crlf_line_has_the_same_limit_as_an_lf_line() {
    let line = format!("{{\"id\": 1, {OK}}}");
    let limit = line.len().to_string();
    for end in ["\n", "\r\n"] {
        let (out, _) = run(&["--max-line-bytes", &limit], None, &format!("{line}{end}"));
        assert_eq!(out[0]["orientation"], "positive", "{end:?}: {}", out[0]);
    }
    let shorter = (line.len() - 1).to_string();
    for end in ["\n", "\r\n"] {
        let (out, _) = run(&["--max-line-bytes", &shorter], None, &format!("{line}{end}"));
        assert_eq!(error(&out[0]).0, "limit", "{end:?}");
    }
}

/// A deterministic stream of numbers for the hostile inputs below (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A decimal integer of `digits` digits.
    fn digits(&mut self, digits: usize) -> String {
        let mut s = String::with_capacity(digits);
        s.push(char::from(b'1' + (self.next() % 9) as u8));
        while s.len() < digits {
            s.push(char::from(b'0' + (self.next() % 10) as u8));
        }
        s
    }

    /// An odd fraction of two `digits`-digit integers.
    fn fraction(&mut self, digits: usize) -> String {
        format!("\"{}1/{}3\"", self.digits(digits - 1), self.digits(digits - 1))
    }
}

/// Found by the attack on the tool: these ran 3 to 40 times past a 1 s limit (the hull's first
/// conflict pass, the box sweep's setup products and polynomial gcds, and kernel ops on huge
/// numbers did not check the budget). Each must now end in a `limit` error within twice the
/// deadline (plus the process's start), and the next line is answered.
#[test]
fn slow_hulls_sweeps_and_kernel_ops_end_at_the_time_limit() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // 3,000 points on a paraboloid with 60-digit integer coordinates: all extreme.
    let hull: Vec<String> = (0..3000)
        .map(|_| {
            let (x, y) = (rng.digits(60), rng.digits(60));
            let q = |s: &str| touchstone::scalar::parse_rational(s).unwrap();
            let z = q(&x) * q(&x) + q(&y) * q(&y);
            format!("[\"{x}\", \"{y}\", \"{z}\"]")
        })
        .collect();
    let hull =
        format!("{{\"id\": \"hull\", \"op\": \"validate\", \"solid\": {{\"convex_hull\": [{}]}}}}", hull.join(","));
    // Two boxes whose motions have 22-digit fractions in every entry, on the exact path with
    // no filter (the filter decides this pair at once: they overlap at t0).
    let mut m = |last: &str| {
        let rows: Vec<String> =
            (0..3).map(|_| format!("[{}]", (0..4).map(|_| rng.fraction(22)).collect::<Vec<_>>().join(","))).collect();
        format!("[{}, [0, 0, 0, {last}]]", rows.join(","))
    };
    let sweep = format!(
        "{{\"id\": \"sweep\", \"op\": \"toi_boxes\", \"backend\": \"exact-unfiltered\", \"a\": [1,1,1], \"b\": [1,1,1], \"motion_a\": [{}, {}, {}], \"motion_b\": [{}, {}, {}]}}",
        m("1"),
        m("0"),
        m("0"),
        m("1"),
        m("0"),
        m("0")
    );
    // A plane through three points with 1,200-digit fractions (just under the 8,192-bit cap
    // per number), and a point: each exact step takes a good fraction of a second.
    let mut rng = Rng(7);
    let mut pt = || format!("[{}, {}, {}]", rng.fraction(1200), rng.fraction(1200), rng.fraction(1200));
    let kernel = format!(
        "{{\"id\": \"kernel\", \"op\": \"squared_distance\", \"point\": {}, \"to_plane\": {{\"points\": [{}, {}, {}]}}}}",
        pt(),
        pt(),
        pt(),
        pt()
    );
    // The kernel op takes about a second in all: a shorter limit; its steps (one exact
    // operation on numbers of ~8,000 bits) take up to a few tenths of a second.
    for (id, line, limit) in [("hull", hull, 1.0), ("sweep", sweep, 1.0), ("kernel", kernel, 0.3)] {
        let started = Instant::now();
        let (out, _) = run(&["--time-limit", &limit.to_string()], None, &format!("{line}\n{{\"id\": 2, {OK}}}\n"));
        let took = started.elapsed();
        assert_eq!(out[0]["id"], id);
        let (kind, _, message) = error(&out[0]);
        assert_eq!((kind.as_str(), message.contains("time limit")), ("limit", true), "{id}: {}", out[0]);
        // Loose, as above: the `limit` error is the proof; this catches a run that goes on.
        assert!(took < Duration::from_secs_f64(2.0 * limit + 3.0), "{id} took {took:?}");
        assert_eq!(out[1]["orientation"], "positive");
    }
}
