//! `touchstone gen` and `touchstone::strategies`: every generated case's claimed answer (derived
//! from its construction) is confirmed by the exact path, a wrong answer in its place is not,
//! and the same seed gives the same cases.

use proptest::prelude::*;
use quickcheck::Arbitrary;
use serde_json::{json, Value};
use touchstone::strategies::{generate, prop::cases, Generated, Kind, Source, KINDS};
use touchstone_oracle::encode::{case_line, read_case};
use touchstone_oracle::{answer_line, Options};

mod common;

/// `count` cases of `kind` from `seed`, as oracle lines.
fn lines(kind: Kind, count: usize, seed: u64) -> Vec<Value> {
    generate(kind, count, &mut Source::new(seed)).iter().map(case_line).collect()
}

/// A claimed time as the oracle writes it (a rational string or `{"decimal": ...}`), as a float.
fn time_f64(v: &Value) -> f64 {
    use num_traits::ToPrimitive;
    let text = v["decimal"].as_str().or(v.as_str()).unwrap();
    let t: num_rational::BigRational = match text.split_once('.') {
        Some((int, frac)) => {
            let scale = num_bigint::BigInt::from(10).pow(frac.len() as u32);
            let n: num_bigint::BigInt = format!("{int}{frac}").parse().unwrap();
            num_rational::BigRational::new(n, scale)
        }
        None => text.parse().unwrap(),
    };
    t.to_f64().unwrap()
}

fn verdict(line: &Value) -> Value {
    answer_line(&line.to_string(), &Options::default())
}

/// Claims the construction rules out, in place of the right one: the wrong status or time,
/// and the right status with a wrong feature, polygon or depth.
fn wrong(kind: Kind, claim: &Value) -> Vec<Value> {
    let with = |k: &str, v: Value| {
        let mut c = claim.clone();
        c[k] = v;
        c
    };
    match kind {
        Kind::Gap => vec![
            json!({"status": "touching"}),
            with("features", json!([{"face": [0, 1, 2, 3]}, {"face": [0, 1, 2, 3]}])),
        ],
        Kind::Penetration => {
            let d2: num_rational::BigRational = claim["depth_squared"].as_str().unwrap().parse().unwrap();
            // Off by more than the default tolerance (10⁻⁹) even for the tiniest depths.
            let off = num_rational::BigRational::new(1.into(), 64.into());
            let twice = (d2 * num_rational::BigRational::from_integer(4.into()) + off).to_string();
            vec![json!({"status": "touching"}), with("depth_squared", json!(twice))]
        }
        Kind::BoxFall => {
            // The irrational time a millionth off.
            let t = time_f64(&claim["toi"]);
            vec![json!({"collides": false}), with("toi", json!({"decimal": format!("{:.12}", t + 1e-6)}))]
        }
        Kind::BoxSweep | Kind::BoxGraze | Kind::CcdVertexFace | Kind::CcdEdgeEdge | Kind::Ccd | Kind::RoundCast => {
            match claim["collides"].as_bool() {
                Some(true) => vec![json!({"collides": false})],
                _ => vec![json!({"collides": true})],
            }
        }
        Kind::GridHull => vec![json!({"vertices": 9}), json!({"faces": claim["faces"].as_u64().unwrap() + 1})],
        Kind::FaceOverlap => {
            let mut fewer = claim.clone();
            fewer["regions"][0]["points"].as_array_mut().unwrap().pop();
            let mut up = claim.clone();
            let n = &mut up["regions"][0]["normals"][0];
            let neg = |x: &Value| (-x.as_str().unwrap().parse::<num_rational::BigRational>().unwrap()).to_string();
            *n = json!(n.as_array().unwrap().iter().map(neg).collect::<Vec<_>>());
            vec![json!({"status": "penetrating"}), fewer, up, with("regions", json!([]))]
        }
        // Round shapes: the status, and a distance off by 2⁻²⁰ (touching) or the gap doubled.
        Kind::BallGap => vec![json!({"status": "touching"}), json!({"intersecting": true}), {
            let g: num_rational::BigRational = claim["distance"].as_str().unwrap().parse().unwrap();
            let off = num_rational::BigRational::new(1.into(), (1 << 20).into());
            with("distance", json!((g + off).to_string()))
        }],
        Kind::BallFace | Kind::BallEdge | Kind::BallVertex | Kind::CapsuleFace | Kind::CapsuleEdge | Kind::Capsules => {
            vec![json!({"status": "separated"}), json!({"intersecting": false}), with("distance", json!("1/1048576"))]
        }
        // Tori and cylinders: another status, the other intersecting, and the distance off by
        // 2⁻²⁰.
        Kind::TorusHole | Kind::Tori | Kind::BallCylinder => {
            let other = if claim["status"] == "touching" { "separated" } else { "touching" };
            let d: num_rational::BigRational = claim["distance"].as_str().unwrap().parse().unwrap();
            let off = num_rational::BigRational::new(1.into(), (1 << 20).into());
            vec![
                json!({"status": other}),
                json!({"intersecting": claim["intersecting"] != true}),
                with("distance", json!((d + off).to_string())),
            ]
        }
        // The status, and a feature that does not touch: a's bottom face.
        _ => {
            let mut f = claim["features"].clone();
            f[0] = json!({"face": [0, 1, 2, 3]});
            vec![json!({"status": "separated"}), with("features", f)]
        }
    }
}

#[test]
fn every_claimed_answer_is_the_exact_one() {
    for (name, kind) in KINDS {
        let cases = lines(*kind, 1000, 20261126);
        for c in &cases {
            let a = verdict(c);
            assert_eq!(a["verdict"]["ok"], true, "{name}: {c}\n{a}");
        }
        // The claims are judged: the wrong answer fails on each of the first cases.
        for c in cases.iter().take(25) {
            for claim in wrong(*kind, &c["claim"]) {
                let mut w = c.clone();
                w["claim"] = claim;
                let a = verdict(&w);
                assert_eq!(a["verdict"]["ok"], false, "{name}: {w}\n{a}");
            }
        }
    }
}

/// Issue 43: on every degenerate generator, the filtered exact path (values with bounds, then
/// intervals, then `Exact`) gives the `BigRational` reference's answer byte for byte, claim
/// verdict included.
#[test]
fn the_filtered_exact_path_is_the_reference_on_every_generator() {
    for (name, kind) in KINDS {
        for c in lines(*kind, 20, 20261208) {
            let mut q = c.clone();
            q["backend"] = json!("exact");
            let filtered = verdict(&q);
            q["backend"] = json!("exact-unfiltered");
            let reference = verdict(&q);
            assert!(filtered.get("error").is_none(), "{name}: {c}\n{filtered}");
            assert_eq!(filtered, reference, "{name}: {c}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_cases() {
    for (_, kind) in KINDS {
        let a = generate(*kind, 50, &mut Source::new(5));
        assert_eq!(a, generate(*kind, 50, &mut Source::new(5)));
        assert_ne!(a, generate(*kind, 50, &mut Source::new(6)));
        assert_eq!(lines(*kind, 50, 5), lines(*kind, 50, 5));
    }
}

#[test]
fn gen_from_the_command_line() {
    let (stdout, _, code) = common::run_binary(&["gen", "vertex-edge", "--count", "7", "--seed", "11"], b"");
    assert_eq!(code, 0);
    let lines: Vec<Value> =
        String::from_utf8(stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines, self::lines(Kind::VertexEdge, 7, 11));
    // Answered back, every line's verdict is ok.
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (out, _, code) = common::run_binary(&[], input.as_bytes());
    assert_eq!(code, 0);
    for l in String::from_utf8(out).unwrap().lines() {
        let a: Value = serde_json::from_str(l).unwrap();
        assert_eq!(a["verdict"]["ok"], true, "{a}");
    }
    // The help lists the kinds by name; an unknown kind is refused.
    let (stdout, _, _) = common::run_binary(&["gen", "--help"], b"");
    let help = String::from_utf8(stdout).unwrap();
    for (name, _) in KINDS {
        assert!(help.contains(name), "{name} missing from: {help}");
    }
    let (_, stderr, code) = common::run_binary(&["gen", "edge-face-vertex"], b"");
    assert_eq!(code, 2, "{stderr}");
}

/// A shrunk case is the same kind with its answer still right: quickcheck's shrinking moves to
/// smaller seeds of the kind.
#[test]
fn shrinking_keeps_the_kind_and_the_answer() {
    for (name, kind) in KINDS {
        let g = Generated::new(*kind, 0xDEAD_BEEF_u64.wrapping_mul(name.len() as u64 + 1));
        let shrunk: Vec<Generated> = g.shrink().take(12).collect();
        assert!(!shrunk.is_empty());
        for s in shrunk {
            assert_eq!(s.kind, *kind);
            assert!(s.seed < g.seed);
            assert!(s.case.id.starts_with(name), "{}", s.case.id);
            let line = case_line(&s.case);
            assert_eq!(verdict(&line)["verdict"]["ok"], true, "{line}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The proptest strategies give cases whose claims the exact path confirms.
    #[test]
    fn proptest_cases_carry_their_answers(c in cases(Kind::EdgeEdge), d in cases(Kind::BoxSweep)) {
        let (c, d) = (case_line(&c), case_line(&d));
        prop_assert_eq!(&verdict(&c)["verdict"]["ok"], &json!(true), "{}", c);
        prop_assert_eq!(&verdict(&d)["verdict"]["ok"], &json!(true), "{}", d);
    }
}

/// A write that fails ends `gen` with status 2 and says why (a closed pipe says nothing).
#[cfg(target_os = "linux")]
#[test]
fn gen_reports_a_failed_write() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_touchstone"))
        .args(["gen", "face-face", "--count", "100000"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("touchstone gen: cannot write"), "{stderr}");
}

/// The oracle writes a case so that it reads back as the very query and claim it was written
/// from: the typed case is the truth, the line only its spelling (every kind, 200 cases).
#[test]
fn every_case_reads_back_as_itself() {
    for (name, kind) in KINDS {
        for c in generate(*kind, 200, &mut Source::new(20261127)) {
            let line = case_line(&c).to_string();
            let back = read_case(&line).unwrap_or_else(|e| panic!("{name}: {line}: {e:?}"));
            assert_eq!(back, c, "{name}: {line}");
        }
    }
    // A line of an op no generator makes is refused by name.
    let e = read_case(r#"{"id": "x", "op": "orient3d", "points": []}"#).unwrap_err();
    assert!(e.to_string().contains("orient3d"), "{e}");
}

/// A claimed time is written as a rational, or as its exact decimal when it has one with a
/// factor 5 in its denominator (a truncated irrational time), and reads back as the same number.
#[test]
fn claimed_times_are_written_exactly() {
    use touchstone_oracle::encode::time_claim_json;
    let q = |s: &str| s.parse::<num_rational::BigRational>().unwrap();
    assert_eq!(time_claim_json(&q("3/8")), json!("3/8"));
    assert_eq!(time_claim_json(&q("2")), json!("2"));
    assert_eq!(time_claim_json(&q("1/3")), json!("1/3"));
    assert_eq!(time_claim_json(&q("7/5")), json!({"decimal": "1.4"}));
    assert_eq!(time_claim_json(&q("1/40")), json!({"decimal": "0.025"}));
    assert_eq!(time_claim_json(&q("-3/20")), json!({"decimal": "-0.15"}));
    assert_eq!(time_claim_json(&q("1/15")), json!("1/15"));
}
