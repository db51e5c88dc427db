//! `check-engine` and `demo`: the demo finds parry3d and robust wrong in exactly the scenario
//! classes where they are (pinned to parry3d-f64 0.31 and robust 1.2) and in none of the
//! others; every judged claim line gets the same verdict from the unfiltered exact backend;
//! a panicking or hanging engine is a finding; the subcommands end to end.

use std::time::Duration;

use serde_json::{json, Value};
use touchstone::query::{Contact, Distance};
use touchstone_oracle::check::{self, demo, Answered, Answers, Asked, Engine, Extra, Outcome};
use touchstone_oracle::{answer_line, Options};

mod common;

/// The classes where the engines are wrong beyond the tolerance, with the functions found
/// wrong there. parry3d's contact normals on touching or barely touching pairs are a side
/// face's (face-on-face/4: b must move 1 along it to leave a, for a depth of 5.6·10⁻¹⁷) or
/// cut the cube (the apex on the corner).
const WRONG: &[(&str, &[&str])] = &[
    ("face-on-face", &["contact"]),
    ("vertex-contacts", &["contact"]),
    ("touching-and-ulp", &["contact"]),
    ("tiny-gaps", &["contact"]),
    ("rounded-rotations", &["contact"]),
    ("zero-velocity", &["cast_shapes"]),
    ("huge-and-tiny", &["panic", "contact", "distance", "closest_points"]),
    ("orient3d-underflow", &["orient3d"]),
    ("orient2d-underflow", &["orient2d"]),
    ("contact-manifolds", &["contact_manifolds"]),
    // A ball falling past a cube's corner meets it at its equator, the gap closing
    // quadratically: parry's cast stops 6.8·10⁻⁸ early, where the gap is 5·10⁻¹⁶.
    ("round-casts", &["cast_shapes"]),
    // A ball centred inside a cylinder at mid-height: parry's depth goes through the side
    // (9/4 + 1/2 for 9/4), the caps tying in its projection.
    ("cylinders", &["contact"]),
];

/// The classes where a discrete answer flips within the tolerance of its degeneracy (counted
/// apart: not findings), with the functions that flip there.
const FLIPS: &[(&str, &[&str])] = &[
    ("face-on-face", &["intersection_test", "closest_points"]),
    ("edge-on-edge", &["closest_points", "intersection_test"]),
    ("touching-and-ulp", &["closest_points", "intersection_test"]),
    ("tiny-gaps", &["closest_points"]),
    ("rounded-rotations", &["intersection_test"]),
    ("zero-velocity", &["cast_shapes"]),
    ("point-containment", &["contains_point"]),
    ("contact-manifolds", &["contact_manifolds"]),
    ("round-shapes", &["closest_points", "intersection_test"]),
    ("round-casts", &["cast_shapes"]),
    ("cylinders", &["closest_points", "intersection_test"]),
];

/// `found` names exactly the functions `expected` lists for `class` (none where it has none).
fn exactly(class: &str, kind: &str, list: &[(&str, &[&str])], found: &[&str]) {
    match list.iter().find(|(c, _)| *c == class) {
        Some((_, expected)) => {
            for f in *expected {
                assert!(found.contains(f), "{class}: no {f} {kind} (found {found:?})");
            }
            for f in found {
                assert!(expected.contains(f), "{class}: an unexpected {f} {kind}");
            }
        }
        None => assert!(found.is_empty(), "{class}: {kind} {found:?} where there are none"),
    }
}

#[test]
fn the_demo_finds_the_engines_wrong_exactly_where_they_are() {
    let builtin: Vec<&'static dyn Engine> = check::ENGINES.iter().filter_map(|e| check::engine(e)).collect();
    let results = demo::run(&builtin, &Options::default(), Some(Duration::from_secs(30)));
    assert_eq!(results.len(), demo::CLASSES.len());
    for (class, r) in &results {
        assert!(r.scenarios > 0, "{class} has no scenarios");
        let functions: Vec<&str> = r.findings.iter().map(|j| j.function.as_str()).collect();
        exactly(class, "finding", WRONG, &functions);
        let flipped: Vec<&str> = r.flips.iter().map(|j| j.function.as_str()).collect();
        exactly(class, "flip", FLIPS, &flipped);
        // A flip's margin is measured and within the tolerance.
        for j in &r.flips {
            assert!(j.margin.is_some_and(|m| m <= 1e-9 * j.scale), "{j:?}");
        }
    }
    // Particular findings: parry's cast with zero relative velocity misses shapes that touch
    // or overlap at the start (false negatives); robust calls an underflowing orient3d coplanar.
    let class = |c: &str| &results.iter().find(|(x, _)| *x == c).unwrap().1;
    assert!(class("zero-velocity").findings.iter().all(|j| j.false_positive == Some(false)));
    let o = &class("orient3d-underflow").findings[0];
    assert!(o.said.starts_with("coplanar") && o.truth == "negative", "{o:?}");
    // And an underflowing orient2d collinear, where c lies off the line through a and b
    // (2⁻²⁰ … 2⁻⁴⁰ of the scale beyond it: clockwise, negative).
    for o in &class("orient2d-underflow").findings {
        assert!(o.said.starts_with("collinear") && o.truth != "collinear", "{o:?}");
    }
    assert!(class("orient2d-underflow").findings.iter().any(|o| o.truth == "negative"));
    // parry's containment is closed (boundary points contained, one ulp out not), but it
    // rounds the translated boxes' outside points onto their faces: exactly those two lines,
    // flips within the tolerance (the points are less than 10⁻¹⁶ out).
    let found: Vec<&str> = class("point-containment").flips.iter().map(|j| j.id.as_str().unwrap()).collect();
    assert_eq!(found, ["point-containment/9", "point-containment/10"]);
    assert!(class("point-containment").flips.iter().all(|j| j.false_positive == Some(true) && j.truth == "outside"));
    // The face-on-face pair whose rounded translation leaves it 5.6·10⁻¹⁷ deep: parry's
    // contact normal is a side face's, along which b must move 1.
    let f = class("face-on-face").findings.iter().find(|j| j.id == "face-on-face/4" && j.function == "contact");
    assert!(f.is_some_and(|j| j.outcome == Outcome::Wrong(vec!["normal".into()])), "{f:?}");
    // parry's manifold of the tetrahedron's apex on the cube's corner has a normal whose
    // plane cuts the cube: the one wrong manifold, and only its normal is wrong.
    let m: Vec<(&str, &Outcome)> =
        class("contact-manifolds").findings.iter().map(|j| (j.id.as_str().unwrap(), &j.outcome)).collect();
    assert_eq!(m, [("contact-manifolds/17", &Outcome::Wrong(vec!["normals".into()]))]);
    // The touching-and-ulp false positives are the one-ulp gaps: separated by 2⁻⁵², within the
    // tolerance.
    assert!(class("touching-and-ulp")
        .flips
        .iter()
        .filter(|j| j.false_positive == Some(true))
        .all(|j| j.truth.starts_with("separated")));
}

#[test]
fn every_claim_line_gets_the_unfiltered_exact_verdict() {
    let opts = Options::default();
    let mut judged = 0;
    for (i, q) in demo::scenarios().iter().enumerate() {
        for name in check::ENGINES {
            let engine = check::engine(name).unwrap();
            for j in check::judge_line(engine, i + 1, &q.to_string(), &opts, None) {
                let (Outcome::Right | Outcome::Wrong(_) | Outcome::Flip(_)) = &j.outcome else { continue };
                let mut line: Value = serde_json::from_str(&j.replay).unwrap();
                line["backend"] = json!("exact-unfiltered");
                let a = answer_line(&line.to_string(), &opts);
                let failing: Vec<String> = a["verdict"]["checks"]
                    .as_array()
                    .map(|c| {
                        c.iter()
                            .filter(|c| c["ok"] == json!(false))
                            .map(|c| c["field"].as_str().unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                let claimed_wrong: Vec<String> = match &j.outcome {
                    // Judged outside the verdict: the signed distance and the normal.
                    Outcome::Wrong(f) | Outcome::Flip(f) => f
                        .iter()
                        .filter(|f| {
                            !["signed distance", "normal", "normals", "points", "coverage"].contains(&f.as_str())
                        })
                        .cloned()
                        .collect(),
                    _ => Vec::new(),
                };
                assert_eq!(failing, claimed_wrong, "{}", j.replay);
                judged += 1;
            }
        }
    }
    assert!(judged > 250, "{judged}");
}

struct Panics;
impl Engine for Panics {
    fn name(&self) -> &'static str {
        "panics"
    }
    fn distance(&self, _: Asked<'_, Distance<f64>>) -> Answers {
        panic!("engine bug {}", 42)
    }
}

/// Set when the test lets the hanging engine go; the engine sets `HANG_ENDED` when it returns.
static HANG_RELEASED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static HANG_ENDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Hangs until the test releases it.
struct Hangs;
impl Engine for Hangs {
    fn name(&self) -> &'static str {
        "hangs"
    }
    fn distance(&self, _: Asked<'_, Distance<f64>>) -> Answers {
        use std::sync::atomic::Ordering::SeqCst;
        while !HANG_RELEASED.load(SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
        HANG_ENDED.store(true, SeqCst);
        None
    }
}

/// Claims a distance of 1 on every `distance` line.
struct One;
impl Engine for One {
    fn name(&self) -> &'static str {
        "one"
    }
    fn distance(&self, _: Asked<'_, Distance<f64>>) -> Answers {
        Some(Ok(vec![Answered {
            function: "distance".into(),
            claim: json!({"distance": 1.0}),
            said: "1".into(),
            extra: Extra::None,
        }]))
    }
}

#[test]
fn panics_and_hangs_are_findings_and_the_run_goes_on() {
    std::panic::set_hook(Box::new(|_| {}));
    let line = r#"{"id": 3, "op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 0, 0]}}"#;
    let opts = Options::default();
    let p = check::judge_line(&Panics, 1, line, &opts, Some(Duration::from_secs(5)));
    assert!(matches!(&p[0].outcome, Outcome::Panic(m) if m == "engine bug 42"), "{p:?}");
    // The hang is reported while the engine still hangs (it ends only when released below):
    // the judge does not wait for it, however long it takes, and no clock is needed to see it.
    let h = check::judge_line(&Hangs, 1, line, &opts, Some(Duration::from_millis(200)));
    assert_eq!(h[0].outcome, Outcome::Hang);
    assert!(!HANG_ENDED.load(std::sync::atomic::Ordering::SeqCst), "the judge waited for the engine");
    HANG_RELEASED.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = std::panic::take_hook();
    // Counted in a report, with a right and a wrong answer of another engine.
    let two = format!("{line}\n{}\n", line.replace("[3, 0, 0]", "[2, 0, 0]"));
    let report = check::check(&One, two.as_bytes(), &opts, None, None, |_| {}).unwrap();
    let t = &report.functions["distance"];
    assert_eq!((t.judged, t.wrong), (2, 1));
    assert_eq!(t.worst[0].line, 2);
    assert_eq!(t.abs, vec![0.0, 1.0]);
    let text = check::render(&report, 3);
    assert!(text.contains("distance: 2 judged, 1 wrong"), "{text}");
    assert!(text.contains("1 findings"), "{text}");
}

#[test]
fn parry_contact_witness_points_are_judged_when_separated() {
    // Unit cubes 1 apart along x: parry's contact points are (1, y, z) on a and (2, y, z) on b
    // for some y, z in [-1, 1]; the claim carries them, and they pass. Moved onto a wrong
    // point they fail.
    let q = json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 0, 0]}});
    let parry = check::engine("parry3d").unwrap();
    let answers = check::ask(parry, &q).unwrap().unwrap();
    let contact = answers.iter().find(|a| a.function == "contact").unwrap();
    let pts = contact.claim["points"].as_array().expect("witness points on a separated contact");
    assert_eq!((pts[0][0].as_f64(), pts[1][0].as_f64()), (Some(1.0), Some(2.0)), "{}", contact.claim);
    let judged = check::judge_line(parry, 1, &q.to_string(), &Options::default(), None);
    let j = judged.iter().find(|j| j.function == "contact").unwrap();
    assert_eq!(j.outcome, Outcome::Right, "{j:?}");
    assert!(j.replay.contains("\"points\""), "{}", j.replay);
    // The same claim with b's point moved off b: a wrong `points` field.
    let mut wrong: serde_json::Value = serde_json::from_str(&j.replay).unwrap();
    wrong["claim"]["points"][1][0] = json!(2.5);
    let a = touchstone_oracle::answer_line(&wrong.to_string(), &Options::default());
    assert_eq!(a["verdict"]["ok"], false, "{a}");
}

/// An engine that answers `contact` with a fixed signed distance and normal.
struct Normal(f64, [f64; 3]);
impl Engine for Normal {
    fn name(&self) -> &'static str {
        "normal"
    }
    fn distance(&self, _: Asked<'_, Distance<f64>>) -> Answers {
        let (d, n) = (self.0, self.1);
        Some(Ok(vec![Answered {
            function: "contact".into(),
            // As the parry adapter states it: a penetration as a status.
            claim: if d < 0.0 { json!({"status": "penetrating"}) } else { json!({"distance": d}) },
            said: format!("{d} along {n:?}"),
            extra: Extra::Contact(d, n),
        }]))
    }
}

#[test]
fn a_contact_normal_is_judged_against_the_unique_exact_direction() {
    // b is a's copy moved by (4, 3, 0): the closest points are on a's edge x = 1, y = 1 and
    // b's edge x = 3, y = 2, so the gap is (2, 1, 0) and the distance √5.
    let line =
        r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [4, 3, 0]}}"#;
    let opts = Options::default();
    let d = 5f64.sqrt();
    let judge = |e: &'static Normal| check::judge_line(e, 1, line, &opts, None).remove(0);
    let right: &'static Normal = Box::leak(Box::new(Normal(d, [2.0 / d, 1.0 / d, 0.0])));
    assert_eq!(judge(right).outcome, Outcome::Right);
    // Not unit, same direction: right (a normal is a direction).
    let scaled: &'static Normal = Box::leak(Box::new(Normal(d, [4.0, 2.0, 0.0])));
    assert_eq!(judge(scaled).outcome, Outcome::Right);
    // The face normal of a's face x = 1: the distance is right, the normal is not.
    let face: &'static Normal = Box::leak(Box::new(Normal(d, [1.0, 0.0, 0.0])));
    assert_eq!(judge(face).outcome, Outcome::Wrong(vec!["normal".into()]));
    // Off by 1e-7 radians over a distance of √5 at scale 4: beyond 1e-9 · 4 / √5 + 1e-9.
    let tilt = 1e-7;
    let off: &'static Normal = Box::leak(Box::new(Normal(d, [2.0 / d - tilt / d, 1.0 / d + 2.0 * tilt / d, 0.0])));
    assert_eq!(judge(off).outcome, Outcome::Wrong(vec!["normal".into()]));
}

#[test]
fn a_penetration_normal_passes_when_it_is_an_optimal_direction() {
    // Unit cubes overlapping by 1/2 in x and in y (b at (3/2, 3/2, 0)): the depth is 1/2,
    // reached along +x and along +y (a tie); along the diagonal b must move 1/√2, along −x 7/2.
    let line = r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [1.5, 1.5, 0]}}"#;
    let opts = Options::default();
    let judge = |n: [f64; 3]| {
        let e: &'static Normal = Box::leak(Box::new(Normal(-0.5, n)));
        check::judge_line(e, 1, line, &opts, None).remove(0).outcome
    };
    assert_eq!(judge([1.0, 0.0, 0.0]), Outcome::Right);
    assert_eq!(judge([0.0, 2.0, 0.0]), Outcome::Right);
    assert_eq!(judge([1.0, 1.0, 0.0]), Outcome::Wrong(vec!["normal".into()]));
    assert_eq!(judge([-1.0, 0.0, 0.0]), Outcome::Wrong(vec!["normal".into()]));
    assert_eq!(judge([0.0, 0.0, 1.0]), Outcome::Wrong(vec!["normal".into()]));
}

/// An engine that answers `contact` with a fixed manifold.
struct Manifold(&'static str, Vec<([f64; 3], [f64; 3])>);
impl Engine for Manifold {
    fn name(&self) -> &'static str {
        "manifold"
    }
    fn contact(&self, _: Asked<'_, Contact<f64>>) -> Answers {
        Some(Ok(vec![Answered {
            function: "contact_manifolds".into(),
            claim: json!({"status": self.0}),
            said: format!("{} points", self.1.len()),
            extra: Extra::Manifold(self.1.clone()),
        }]))
    }
}

#[test]
fn a_contact_manifold_is_judged_against_r_t() {
    // a on b, shifted by 1 in x: R_t is the face-on-face square [0, 1] × [−1, 1] at z = 1;
    // normals out of b toward a are +z.
    let line =
        r#"{"op": "contact", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": [1, 0, 2]}, "b": {"box": [1, 1, 1]}}"#;
    let opts = Options::default();
    let judge = |status: &'static str, pts: Vec<([f64; 3], [f64; 3])>| {
        let e: &'static Manifold = Box::leak(Box::new(Manifold(status, pts)));
        check::judge_line(e, 1, line, &opts, None).remove(0).outcome
    };
    let up = [0.0, 0.0, 3.0];
    let corners =
        |n: [f64; 3]| vec![([0.0, -1.0, 1.0], n), ([1.0, -1.0, 1.0], n), ([1.0, 1.0, 1.0], n), ([0.0, 1.0, 1.0], n)];
    assert_eq!(judge("touching", corners(up)), Outcome::Right);
    // Three corners span the square too; two do not (the block could turn about their line).
    assert_eq!(judge("touching", corners(up)[..3].to_vec()), Outcome::Right);
    assert_eq!(judge("touching", corners(up)[..2].to_vec()), Outcome::Wrong(vec!["coverage".into()]));
    // A point off the region (x = 1.5 is on a's face, not on b's).
    let mut off = corners(up);
    off[1].0 = [1.5, -1.0, 1.0];
    assert_eq!(judge("touching", off), Outcome::Wrong(vec!["points".into()]));
    // A tilted normal: b's far corner rises above the plane through (1, 1, 1).
    assert_eq!(judge("touching", corners([0.1, 0.0, 1.0])), Outcome::Wrong(vec!["normals".into()]));
    // The wrong status.
    assert_eq!(judge("separate", Vec::new()), Outcome::Wrong(vec!["status".into(), "coverage".into()]));
    // An edge resting on an edge (b's copy moved by (2, 0, 2)): R_t is a segment, and any
    // normal between the two faces' passes; one point does not cover it.
    let line =
        r#"{"op": "contact", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": [2, 0, 2]}, "b": {"box": [1, 1, 1]}}"#;
    let judge = |pts: Vec<([f64; 3], [f64; 3])>| {
        let e: &'static Manifold = Box::leak(Box::new(Manifold("touching", pts)));
        check::judge_line(e, 1, line, &opts, None).remove(0).outcome
    };
    let ends = |n: [f64; 3]| vec![([1.0, -1.0, 1.0], n), ([1.0, 1.0, 1.0], n)];
    assert_eq!(judge(ends([1.0, 0.0, 1.0])), Outcome::Right);
    assert_eq!(judge(ends([0.0, 0.0, 1.0])), Outcome::Right);
    assert_eq!(judge(ends([1.0, 0.0, 0.0])), Outcome::Right);
    assert_eq!(judge(ends([-1.0, 0.0, 1.0])), Outcome::Wrong(vec!["normals".into()]));
    assert_eq!(judge(ends([1.0, 0.0, 1.0])[..1].to_vec()), Outcome::Wrong(vec!["coverage".into()]));
}

#[test]
fn robust_orientation_convention() {
    // d above the plane of a, b, c (counterclockwise seen from +z): the format's "positive".
    let q = json!({"op": "orient3d", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]});
    let a = check::ask(check::engine("robust").unwrap(), &q).unwrap().unwrap();
    assert_eq!(a[0].claim, json!({"orientation": "positive"}));
    let j = check::judge_line(check::engine("robust").unwrap(), 1, &q.to_string(), &Options::default(), None);
    assert_eq!(j[0].outcome, Outcome::Right);
}

fn touchstone(args: &[&str], input: &str) -> (String, String, i32) {
    let (stdout, stderr, code) = common::run_binary(args, input.as_bytes());
    (String::from_utf8(stdout).unwrap(), stderr, code)
}

#[test]
fn check_engine_and_demo_from_the_command_line() {
    let (demo, _, code) = touchstone(&["demo", "--engines", "parry3d,robust"], "");
    assert_eq!(code, 0);
    assert!(demo.contains("WRONG  zero-velocity") && demo.contains("ok     well-separated"), "{demo}");
    assert!(demo.starts_with("touchstone demo: parry3d-f64 0.31, robust 1.2 on degenerate"), "{demo}");
    // An engine that is not installed is said and skipped: the demo still runs (an
    // interpreter that does not exist stands for one without the packages).
    let (demo, _, code) = touchstone(&["demo", "--python", "/no/such/python"], "");
    assert_eq!(code, 0);
    for e in ["fcl", "coal", "bullet", "mujoco"] {
        assert!(demo.contains(&format!("  {e}: not run (the {e} adapter (/no/such/python) did not start")), "{demo}");
    }
    assert!(demo.contains("WRONG  zero-velocity") && demo.contains(".venv-engines/bin/pip install"), "{demo}");
    // Naming an engine that cannot run, or one that does not exist, is an error.
    let (_, err, code) = touchstone(&["demo", "--engines", "parry3d,fcl", "--python", "/no/such/python"], "");
    assert_eq!(code, 2);
    assert!(err.contains("the fcl adapter (/no/such/python) did not start"), "{err}");
    let (_, err, code) = touchstone(&["demo", "--engines", "havok"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown engine \"havok\""), "{err}");
    // The engine table on a few gen cases: a row per function, parry3d's flips counted apart.
    let (table, _, code) = touchstone(&["demo", "--engines", "parry3d", "--table", "--count", "5"], "");
    assert_eq!(code, 0);
    assert!(table.starts_with("| engine | function | judged | wrong |"), "{table}");
    for f in ["cast_shapes", "closest_points", "contact", "contact_manifolds", "distance", "intersection_test"] {
        assert!(table.contains(&format!("| parry3d | {f} | ")), "{f}\n{table}");
    }
    // 5 cases of each of the 8 distance kinds, each answered by closest_points.
    assert!(table.contains("| parry3d | closest_points | 40 | "), "{table}");
    let (scenarios, _, code) = touchstone(&["demo", "--scenarios"], "");
    assert_eq!(code, 0);
    assert_eq!(scenarios.lines().count(), demo::scenarios().len());
    // Every scenario is a valid query.
    let (answers, _, _) = touchstone(&["-q"], &scenarios);
    for a in answers.lines() {
        let a: Value = serde_json::from_str(a).unwrap();
        assert!(a.get("error").is_none(), "{a}");
    }
    // check-engine on the scenarios: the report, and the findings file replays each finding.
    let dir = std::env::temp_dir().join(format!("touchstone-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let findings = dir.join("wrong.jsonl");
    let (report, _, code) =
        touchstone(&["check-engine", "parry3d", "--findings", findings.to_str().unwrap(), "-"], &scenarios);
    assert_eq!(code, 0);
    assert!(report.contains("cast_shapes:") && report.contains("false negatives"), "{report}");
    let wrong = std::fs::read_to_string(&findings).unwrap();
    // One line per finding the report counts (flips within the tolerance are not findings).
    let counted = report.lines().find_map(|l| l.strip_suffix(" findings")).and_then(|n| n.parse::<usize>().ok());
    assert_eq!(Some(wrong.lines().count()), counted, "{report}");
    assert!(report.contains("flips within the tolerance"), "{report}");
    let (replayed, _, _) = touchstone(&["-q"], &wrong);
    // Each is a query the oracle answers; the wrong claims (the cast's miss, the intersecting
    // gap at 10⁻²⁰⁰, the tiny cubes' distances) fail their claim line itself; the rest are
    // judged beside it (a normal, a depth) or are panics.
    assert!(replayed.lines().all(|l| !l.contains(r#""error""#)), "{replayed}");
    let failed = replayed.lines().filter(|l| l.contains(r#""ok":false"#)).count();
    assert!(failed >= 5, "{failed} of {}", wrong.lines().count());
    std::fs::remove_dir_all(&dir).unwrap();
    // An unknown engine.
    let (_, err, code) = touchstone(&["check-engine", "havok", "-"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown engine") && err.contains("parry3d") && err.contains("mujoco"), "{err}");
    // A missing query file, a findings file that cannot be created, a bad time limit.
    let (_, err, code) = touchstone(&["check-engine", "robust", "/no/such/queries.jsonl"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot open"), "{err}");
    let (_, err, code) = touchstone(&["check-engine", "robust", "--findings", "/no/such/dir/wrong.jsonl", "-"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot create"), "{err}");
    let (_, err, code) = touchstone(&["check-engine", "robust", "--engine-time-limit", "nan", "-"], "");
    assert_eq!(code, 2);
    assert!(err.contains("time limit"), "{err}");
    // Lines the engine has nothing for, and lines that are not queries: skipped and counted,
    // the run goes on.
    let (report, _, code) = touchstone(
        &["check-engine", "robust", "-"],
        "not json\n{\"op\": \"validate\", \"solid\": {\"box\": [1, 1, 1]}}\n",
    );
    assert_eq!(code, 0);
    assert!(report.contains("2 lines"), "{report}");
}

/// Answers every `distance`, `toi`, `classify_point` and `orient3d` line with one fixed claim,
/// a boolean one when it is one.
struct Says(&'static str, Value);
impl Says {
    fn answer(&self) -> Answers {
        let claim = self.1.clone();
        let extra = match claim.as_object().and_then(|o| o.values().next()) {
            Some(Value::Bool(b)) if claim.as_object().is_some_and(|o| o.len() == 1) => Extra::Boolean(*b),
            _ => Extra::None,
        };
        Some(Ok(vec![Answered { function: self.0.into(), said: claim.to_string(), claim, extra }]))
    }
}
impl Engine for Says {
    fn name(&self) -> &'static str {
        "says"
    }
    fn distance(&self, _: Asked<'_, Distance<f64>>) -> Answers {
        self.answer()
    }
    fn toi(&self, _: Asked<'_, touchstone::query::Toi<f64>>) -> Answers {
        self.answer()
    }
    fn classify_point(&self, _: Asked<'_, touchstone::query::ClassifyPoint<f64>>) -> Answers {
        self.answer()
    }
    fn orient3d(&self, _: Asked<'_, touchstone::query::Orient3d<f64>>) -> Answers {
        self.answer()
    }
}

fn judged(function: &'static str, claim: Value, line: &str) -> check::Judged {
    let e: &'static Says = Box::leak(Box::new(Says(function, claim)));
    check::judge_line(e, 1, line, &Options::default(), None).remove(0)
}

#[test]
fn a_discrete_answer_within_the_tolerance_of_its_degeneracy_is_a_flip() {
    // Unit boxes (scale 3, tolerance 3·10⁻⁹) 2⁻⁴⁰ apart: "intersecting" flips within the
    // tolerance, margin 2⁻⁴⁰; 2⁻²⁰ apart it is wrong beyond it, margin 2⁻²⁰.
    let apart = |k: i32| {
        format!(
            r#"{{"op": "distance", "a": {{"box": [1, 1, 1]}}, "b": {{"box": [1, 1, 1]}}, "pose_b": {{"translation": [{}, 0, 0]}}}}"#,
            2.0 + 2f64.powi(-k)
        )
    };
    let near = judged("collide", json!({"intersecting": true}), &apart(40));
    assert_eq!(near.outcome, Outcome::Flip(vec!["intersecting".into()]));
    assert_eq!(near.margin, Some(2f64.powi(-40)));
    let far = judged("collide", json!({"intersecting": true}), &apart(20));
    assert_eq!(far.outcome, Outcome::Wrong(vec!["intersecting".into()]));
    assert_eq!(far.margin, Some(2f64.powi(-20)));
    // Overlapping by 2⁻⁴⁰ and called apart: a flip by the depth; touching: margin 0.
    let overlap = format!("{}", 2.0 - 2f64.powi(-40));
    let line = apart(40).replace(&format!("{}", 2.0 + 2f64.powi(-40)), &overlap);
    let deep = judged("collide", json!({"intersecting": false}), &line);
    assert_eq!((deep.outcome, deep.margin), (Outcome::Flip(vec!["intersecting".into()]), Some(2f64.powi(-40))));
    let touch = judged(
        "collide",
        json!({"intersecting": false}),
        &apart(40).replace(&format!("{}", 2.0 + 2f64.powi(-40)), "2"),
    );
    assert_eq!((touch.outcome, touch.margin), (Outcome::Flip(vec!["intersecting".into()]), Some(0.0)));
    // A wrong number with the discrete answer is never a flip.
    let both = judged("d", json!({"intersecting": true, "distance": 0.5}), &apart(40));
    assert_eq!(both.outcome, Outcome::Wrong(vec!["intersecting".into(), "distance".into()]));
    // A report counts flips apart from the headline, with their margins.
    let lines = format!("{}\n{}\n", apart(40), apart(20));
    let e: &'static Says = Box::leak(Box::new(Says("collide", json!({"intersecting": true}))));
    let report = check::check(e, lines.as_bytes(), &Options::default(), None, None, |_| {}).unwrap();
    let t = &report.functions["collide"];
    assert_eq!((t.judged, t.wrong, t.flips, t.false_positives), (2, 1, 1, 1));
    let text = check::render(&report, 3);
    assert!(text.contains("collide: 2 judged, 1 wrong (50.0%), 1 flips within the tolerance"), "{text}");
    assert!(
        text.contains("(margin 9.537e-7)") && text.contains("flip, line 1:") && text.contains("(margin 9.095e-13)")
    );
    assert!(text.contains("\n1 findings"), "{text}");
}

#[test]
fn margins_of_sweeps_points_and_orientations() {
    // b sweeps from x = 4 to x = 0 over [0, 1] along y = 2 + 2⁻⁴⁰: it passes a 2⁻⁴⁰ above a.
    // A collision claimed at t = 1/2 is a flip (the boxes are 2⁻⁴⁰ apart then); at y = 2 − 1/4
    // the boxes overlap by 1/4 from t = 1/2 on, and a claimed miss is wrong by that depth.
    let sweep = |y: f64| {
        format!(
            r#"{{"op": "toi", "a": {{"box": [1, 1, 1]}}, "b": {{"box": [1, 1, 1]}}, "pose_b": {{"translation": [4, {y}, 0]}}, "velocity_b": [-4, 0, 0]}}"#
        )
    };
    let graze = judged("ccd", json!({"collides": true, "toi": 0.5}), &sweep(2.0 + 2f64.powi(-40)));
    assert_eq!(graze.outcome, Outcome::Flip(vec!["collides".into(), "toi".into()]), "{graze:?}");
    assert_eq!(graze.margin, Some(2f64.powi(-40)));
    let miss = judged("ccd", json!({"collides": false}), &sweep(1.75));
    assert_eq!(miss.outcome, Outcome::Wrong(vec!["collides".into()]));
    assert_eq!(miss.margin, Some(0.25));
    // A point 2⁻⁴⁵ outside a unit box's face called contained: a flip of margin 2⁻⁴⁵.
    let point = format!(
        r#"{{"op": "classify_point", "solid": {{"box": [1, 1, 1]}}, "point": [{}, 0, 0]}}"#,
        1.0 + 2f64.powi(-45)
    );
    let p = judged("contains", json!({"contains": true}), &point);
    assert_eq!((p.outcome, p.margin), (Outcome::Flip(vec!["contains".into()]), Some(2f64.powi(-45))));
    // d 2⁻⁴⁰ above the plane z = 0 called coplanar: a flip; 2⁻¹⁰ above, wrong; both measured.
    let orient =
        |z: f64| format!(r#"{{"op": "orient3d", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.25, 0.25, {z}]]}}"#);
    let o = judged("orient", json!({"orientation": "coplanar"}), &orient(2f64.powi(-40)));
    assert_eq!((o.outcome, o.margin), (Outcome::Flip(vec!["orientation".into()]), Some(2f64.powi(-40))));
    let o = judged("orient", json!({"orientation": "coplanar"}), &orient(2f64.powi(-10)));
    assert_eq!((o.outcome, o.margin), (Outcome::Wrong(vec!["orientation".into()]), Some(2f64.powi(-10))));
}

#[test]
fn an_engine_is_judged_on_the_doubles_it_was_given() {
    // b touches a as written (x = 1/3 + 5/3 = 2 exactly is not how it is written: 5/3 and 1/3
    // round apart): the rounded line is what the engine gets and what the truth is for.
    let (rounded, changed) = check::margin::rounded(
        &json!({"op": "distance", "a": {"file": "12"}, "b": {"box": ["1/3", "1/2", "1e400"]}, "id": "1/3"}),
        &["a", "b"],
    );
    assert!(changed);
    assert_eq!(
        rounded,
        json!({"op": "distance", "a": {"file": "12"}, "b": {"box": [1.0 / 3.0, 0.5, "1e400"]}, "id": "1/3"})
    );
    let (_, changed) = check::margin::rounded(&json!({"op": "distance", "b": {"box": ["1/2", "3", 7]}}), &["b"]);
    assert!(!changed);
    // Touching as written (b's centre 5/3 + 1/3 = 2 from a's), 2⁻⁵⁴ apart as rounded: the
    // engine that says "not intersecting" is right on its numbers (against the rationals it
    // would be wrong), and the report says rounding changed the answer.
    let line = r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": ["-1/3", 0, 0]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": ["5/3", 0, 0]}}"#;
    let e: &'static Says = Box::leak(Box::new(Says("collide", json!({"intersecting": false}))));
    let l = check::judge_line_full(e, 1, line, &Options::default(), None);
    let r = l.rounding.expect("rounding changed the answer");
    assert_eq!(r.written, "touching");
    assert!(r.given.starts_with("separated, distance 5.551115123…e-17"), "{}", r.given);
    assert_eq!(l.judged[0].outcome, Outcome::Right);
    assert!(l.judged[0].replay.contains(r#""translation":[-0.3333333333333333,0,0]"#), "{}", l.judged[0].replay);
    // A line whose numbers are all doubles already has nothing to say about rounding.
    let exact = line.replace("\"-1/3\"", "-1").replace("\"5/3\"", "1");
    assert!(check::judge_line_full(e, 1, &exact, &Options::default(), None).rounding.is_none());
}

/// The issue's example: `touchstone gen face-face --count 200 --seed 3` as parry3d is given
/// it. Of the 200 touching pairs as written, rounding to binary64 leaves 85 separated and 63
/// penetrating by about 10⁻¹⁶; parry3d's booleans are never wrong beyond the tolerance there,
/// and its flips are counted apart.
#[test]
fn parry_on_rounded_face_face_cases() {
    let (gen, _, _) = touchstone(&["gen", "face-face", "--count", "200", "--seed", "3"], "");
    let (report, _, code) = touchstone(&["check-engine", "parry3d", "-"], &gen);
    assert_eq!(code, 0);
    assert!(report.contains("rounding to binary64 alone changed the exact answer of 148 lines"), "{report}");
    let given: Vec<&str> = report.lines().filter(|l| l.starts_with("  line ") && l.contains("; as given ")).collect();
    assert!(!given.is_empty() && given.iter().all(|l| l.contains("as written touching")), "{report}");
    assert!(
        report.contains("intersection_test: 200 judged, 0 wrong (0.0%), 83 flips within the tolerance"),
        "{report}"
    );
    assert!(report.contains("closest_points: 200 judged, 0 wrong (0.0%), 85 flips within the tolerance"), "{report}");
}

/// A contact normal is judged alike on every side of touching: it must be a separating
/// direction within the tolerance (b moved along it by the exact depth leaves a; for separated
/// shapes the gap along it is the distance). Unit boxes face to face along x (scale 2 + g,
/// tolerance about 2·10⁻⁹).
#[test]
fn a_contact_normal_is_a_separating_direction_on_every_side_of_touching() {
    let opts = Options::default();
    let at = |x: f64| {
        format!(
            r#"{{"op": "distance", "a": {{"box": [1, 1, 1]}}, "b": {{"box": [1, 1, 1]}}, "pose_b": {{"translation": [{x}, 0, 0]}}}}"#
        )
    };
    let judge = |x: f64, d: f64, n: [f64; 3]| {
        let e: &'static Normal = Box::leak(Box::new(Normal(d, n)));
        check::judge_line(e, 1, &at(x), &opts, None).remove(0).outcome
    };
    let wrong = Outcome::Wrong(vec!["normal".into()]);
    for (x, d) in [(2.0 + 2f64.powi(-40), 2f64.powi(-40)), (2.0, 0.0), (2.0 - 2f64.powi(-40), -(2f64.powi(-40)))] {
        // The face normal: right, 10⁻¹² apart, touching and 10⁻¹² deep.
        assert_eq!(judge(x, d, [1.0, 0.0, 0.0]), Outcome::Right, "{x}");
        // A side face's normal, or the diagonal: b would have to move 2 (or 1.4) along it.
        assert_eq!(judge(x, d, [0.0, 1.0, 0.0]), wrong, "{x}");
        assert_eq!(judge(x, d, [1.0, 1.0, 0.0]), wrong, "{x}");
        // Tilted by 10⁻⁶: along it the faces (half-width 1) overlap by about 10⁻⁶.
        assert_eq!(judge(x, d, [1.0, 1e-6, 0.0]), wrong, "{x}");
        // Tilted by 10⁻¹²: within the tolerance.
        assert_eq!(judge(x, d, [1.0, 1e-12, 0.0]), Outcome::Right, "{x}");
    }
    // Corners touching (b at (2, 2, 2)): every direction of the cone between the corners'
    // normal cones passes, one outside it does not.
    let corner =
        r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [2, 2, 2]}}"#;
    let judge = |n: [f64; 3]| {
        let e: &'static Normal = Box::leak(Box::new(Normal(0.0, n)));
        check::judge_line(e, 1, corner, &opts, None).remove(0).outcome
    };
    for n in [[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [1.0, 2.0, 3.0]] {
        assert_eq!(judge(n), Outcome::Right, "{n:?}");
    }
    assert_eq!(judge([1.0, -0.5, 0.0]), wrong);
}

/// A contact normal on round shapes is judged by how far b must move along it to leave a (the
/// cores' support functions plus the radii): parry3d's normal for a ball touching a box's face
/// passes; for a capsule lying on a face (`gen capsule-face`, seed 1, case 1) it is tilted
/// enough that b must move more than the tolerance along it, over the capsule's length.
#[test]
fn contact_normals_on_round_shapes_are_judged() {
    let lines = [
        r#"{"id":"ball-face/0","op":"distance","a":{"box":["1","1/2","3/2"]},"pose_a":{"quaternion":[-1,-3,-2,-3],"translation":["-25/8","-13/4","-5"]},"b":{"ball":"7/4"},"pose_b":{"quaternion":[-1,-3,-2,-3],"translation":["-3/23","-79/46","-225/46"]}}"#,
        r#"{"id":"capsule-face/1","op":"distance","a":{"box":[0.5,1.0,0.5]},"pose_a":{"quaternion":[0,1,3,2],"translation":[7.625,0.25,7.125]},"b":{"capsule":{"a":[-0.3125,0.0,0.0],"b":[0.3125,0.0,0.0],"radius":4.0}},"pose_b":{"quaternion":[0,1,3,2],"translation":[9.125,4.25,5.625]}}"#,
    ];
    let (out, err, code) = touchstone(&["check-engine", "parry3d", "-"], &(lines.join("\n") + "\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("contact: 2 judged, 1 wrong (50.0%)\n  wrong fields: normal 1"), "{out}");
    assert!(out.contains("line 2: engine said signed distance"), "{out}");
}
