//! The engine protocol (`check-engine --command`): an adapter program answers query lines in
//! order; a crash, a hang, a refusal and a broken answer are each a typed outcome, the adapter is
//! started again, and the run goes on. The adapters are Python with the standard library only
//! (`adapters/minimal_boxes.py`, shipped, and `tests/adapters/unruly.py`, which misbehaves on
//! purpose); these tests always run and fail loudly when `python3` is missing.

mod common;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `python3`, or a loud failure: the protocol tests need no package, only the interpreter.
fn python() -> String {
    let python = std::env::var("TOUCHSTONE_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = std::process::Command::new(&python).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "the engine protocol tests need a Python 3 interpreter ({python:?} does not run); set TOUCHSTONE_PYTHON"
    );
    python
}

/// A `distance` line between two unit boxes (half extents 1), b translated by `x` along x.
fn boxes(id: &str, x: &str) -> String {
    format!(
        r#"{{"id": "{id}", "op": "distance", "a": {{"box": [1, 1, 1]}}, "b": {{"box": [1, 1, 1]}}, "pose_b": {{"translation": ["{x}", 0, 0]}}}}"#
    )
}

/// Run `check-engine --command` on `lines` with adapter `script` (relative to the repository).
fn check(script: &str, lines: &[String], extra: &[&str]) -> (String, String, i32) {
    let command = format!("{} {}", python(), root().join(script).display());
    let mut args = vec!["check-engine", "--command", &command, "--worst", "20"];
    args.extend_from_slice(extra);
    let input = lines.join("\n") + "\n";
    let (out, err, code) = common::run_binary(&args, input.as_bytes());
    (String::from_utf8_lossy(&out).into_owned(), err, code)
}

/// The shipped minimal adapter, judged on hand cases: a gap of 1, touching faces, a 1/2
/// overlap; every answer right, the header its hello.
#[test]
fn the_minimal_adapter_is_judged_right_on_hand_cases() {
    let lines = [boxes("gap", "3"), boxes("touch", "2"), boxes("overlap", "3/2")];
    let (out, err, code) = check("adapters/minimal_boxes.py", &lines, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine: minimal-boxes 1, settings {\"rotated boxes\":\"refused\"}"), "{out}");
    assert!(out.contains("aabb_distance: 3 judged, 0 wrong"), "{out}");
    assert!(out.contains("aabb_overlap: 3 judged, 0 wrong"), "{out}");
    assert!(out.ends_with("0 findings\n"), "{out}");
}

/// Every misbehaviour is its own typed outcome, the adapter is started again after each one
/// that leaves it dead or out of step, and every other line is still judged, in order.
#[test]
fn crashes_hangs_refusals_and_broken_answers_are_findings_and_the_run_goes_on() {
    let lines = vec![
        boxes("ok:1", "3"),
        boxes("crash:2", "3"),
        boxes("ok:3", "2"),
        boxes("hang:4", "3"),
        boxes("ok:5", "5"),
        boxes("refuse:6", "3"),
        boxes("garbage:7", "3"),
        boxes("ok:8", "3/2"),
        boxes("wrong-id:9", "3"),
        boxes("off:10", "3"),
        boxes("unknown-field:11", "3"),
        boxes("abort:12", "3"),
        r#"{"id": "ok:13", "op": "orient3d", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}"#.to_string(),
        // No id: the adapter echoes the one touchstone gives it.
        r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [0, 4, 0]}}"#
            .to_string(),
        boxes("no-answers:15", "3"),
        boxes("ok:16", "3"),
    ];
    let (out, err, code) = check("oracle/tests/adapters/unruly.py", &lines, &["--engine-time-limit", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine: unruly 0, settings {\"purpose\":\"tests\"}"), "{out}");
    // Judged: ok:1, ok:3, ok:5, ok:8, off:10, the line without an id, ok:16.
    assert!(out.contains("aabb_distance: 7 judged, 1 wrong"), "{out}");
    assert!(out.contains("aabb_overlap: 7 judged, 0 wrong"), "{out}");
    assert!(out.contains("line 10: engine said {\"distance\":1.25}"), "{out}");
    // Two crashes (an exit with its last words, an abort), a hang, two refusals (one its own
    // reason, one an op it does not answer), four broken answers. Started again after each
    // crash, the hang and the three answers that leave it out of step (not the unknown field).
    assert!(out.contains("failures: 2 crashes, 1 hangs, 4 malformed, 2 refused (started again 6 times)"), "{out}");
    assert!(out.contains("line 2 (crash): engine crashed: the adapter exited (exit status: 3); its last words: unruly: dying on purpose"), "{out}");
    assert!(out.contains("line 12 (crash): engine crashed: the adapter exited (signal: 6"), "{out}");
    assert!(out.contains("line 4 (hang): engine did not return within the time limit"), "{out}");
    assert!(out.contains("line 6 (refused): engine refused: I do not do that"), "{out}");
    assert!(out.contains("line 13 (refused): engine refused: only distance lines, not 'orient3d'"), "{out}");
    assert!(
        out.contains("line 7 (malformed): engine broke the protocol: not a JSON object: \"this is not JSON\""),
        "{out}"
    );
    assert!(
        out.contains(
            "line 9 (malformed): engine broke the protocol: the answer's id is \"nobody\", the query's \"wrong-id:9\""
        ),
        "{out}"
    );
    assert!(
        out.contains("line 11 (malformed): engine broke the protocol: function \"aabb_distance\" claims \"colour\""),
        "{out}"
    );
    assert!(
        out.contains("line 15 (malformed): engine broke the protocol: neither \"answers\" (an object) nor \"error\""),
        "{out}"
    );
    // Findings: the wrong distance, 2 crashes, the hang, 4 broken answers (refusals are not).
    assert!(out.ends_with("8 findings\n"), "{out}");
}

/// An extra signed distance is judged against the exact one, like parry's contact: right for a
/// gap and for touching boxes, wrong where boxes overlap by 1/2 and the adapter says 0 (the
/// exact signed distance is minus the depth, −1/2).
#[test]
fn a_signed_distance_extra_is_judged() {
    let lines = [boxes("signed:1", "3"), boxes("signed:2", "2"), boxes("signed:3", "3/2")];
    let (out, err, code) = check("oracle/tests/adapters/unruly.py", &lines, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("signed: 3 judged, 1 wrong"), "{out}");
    assert!(out.contains("line 3: engine said {\"signed_distance\":0.0}; exact: penetrating, depth"), "{out}");
}

/// A NaN an adapter reports (as the protocol's string "NaN") is an answer, judged wrong, not a
/// broken line: a NaN normal beside a right distance, a NaN signed distance.
#[test]
fn a_nan_is_a_wrong_answer_not_a_broken_line() {
    let (out, err, code) = check("oracle/tests/adapters/unruly.py", &[boxes("nan:1", "3")], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("contact: 1 judged, 1 wrong (100.0%)\n  wrong fields: normal 1"), "{out}");
    assert!(out.contains("depth: 1 judged, 1 wrong (100.0%)\n  wrong fields: signed distance 1"), "{out}");
    assert!(!out.contains("malformed"), "{out}");
}

/// A command that cannot start ends the run at once with a typed message (exit 2); an adapter
/// that dies at once is a crash on every line, and the run still ends.
#[test]
fn an_adapter_that_cannot_start_or_dies_at_once() {
    let (_, err, code) = common::run_binary(&["check-engine", "--command", "/no/such/adapter"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("--command: cannot start \"/no/such/adapter\""), "{err}");
    let (_, err, code) = common::run_binary(&["check-engine", "--command", "", "x.jsonl"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("the command is empty"), "{err}");
    let python = python();
    let command = format!("{python} -c \"import sys; sys.stderr.write('no'); sys.exit(1)\"");
    let lines = [boxes("a", "3"), boxes("b", "3")].join("\n");
    let (out, err, code) = common::run_binary(&["check-engine", "--command", &command], lines.as_bytes());
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("failures: 2 crashes (started again once)"), "{out}");
    assert!(out.contains("(exit status: 1); its last words: no"), "{out}");
}

/// An answer line longer than 16 MiB is a broken answer, read in bounded memory (not held),
/// and the next line is judged.
#[test]
fn an_answer_line_too_long_is_malformed() {
    let lines = [boxes("huge:1", "3"), boxes("ok:2", "3")];
    let (out, err, code) = check("oracle/tests/adapters/unruly.py", &lines, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("line 1 (malformed): engine broke the protocol: the answer line is longer than 16 MiB"),
        "{out}"
    );
    assert!(out.contains("aabb_distance: 1 judged, 0 wrong"), "{out}");
}
