//! `distance` and `toi` on round shapes through the oracle (issue 42): balls, capsules and
//! rounded convex shapes in the format, their exact answers (algebraic numbers to `digits`),
//! claims on them, `both` under the contract, and typed refusals: of shapes that are no solids, of poses
//! that are not rigid, and of round shapes by every op that takes polyhedral solids.

use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::query::{DistanceRound, Query};
use touchstone_oracle::ops::OpJson;
use touchstone_oracle::{answer_line, Options};

mod common;

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

fn at(t: [i64; 3]) -> Value {
    json!({"quaternion": [1, 0, 0, 0], "translation": t})
}

fn error(q: Value) -> (String, String) {
    let v = ask(q);
    let e = &v["error"];
    assert!(e.is_object(), "no error: {v}");
    (e["kind"].as_str().unwrap().to_string(), e["at"].as_str().unwrap().to_string())
}

#[test]
fn the_round_claim_table_names_the_judged_fields() {
    type R = DistanceRound<BigRational>;
    let mut read = <R as OpJson>::claim_fields();
    let mut judged: Vec<&str> = <R as Query>::CLAIM_RULES.iter().map(|r| r.name).collect();
    read.sort_unstable();
    judged.sort_unstable();
    assert_eq!(read, judged);
    // Every claimable field stated, each gets a check.
    let v = ask(json!({"op": "distance", "a": {"ball": 1}, "b": {"ball": 1}, "pose_b": at([3, 0, 0]),
        "claim": {"status": "separated", "intersecting": false, "distance": "1", "distance_squared": "1",
                  "points": [["1", "0", "0"], ["2", "0", "0"]], "depth_squared": "0"}}));
    let checks = v["verdict"]["checks"].as_array().unwrap();
    for f in read {
        assert!(checks.iter().any(|c| c["field"].as_str().unwrap().split('/').next() == Some(f)), "{f}: {v}");
    }
    assert_eq!(v["verdict"]["ok"], json!(true), "{v}");
}

#[test]
fn a_ball_resting_on_a_cube_face_edge_and_vertex() {
    // Radius 5, centre 6 above the unit cube's centre: on the top face.
    let v = ask(json!({"op": "distance", "a": {"ball": "5"}, "pose_a": at([0, 0, 6]), "b": {"box": [1, 1, 1]}}));
    assert_eq!(v["status"], "touching");
    assert_eq!(v["cores_distance_squared"], "25");
    assert_eq!(v["features"], json!(["center", {"face": [4, 5, 6, 7]}]));
    assert_eq!(v["points"], json!([["0", "0", "1"], ["0", "0", "1"]]));
    // On the edge x = y = 1: the centre at (1 + 3, 1 + 4, 0), radius 5.
    let v = ask(json!({"op": "distance", "a": {"ball": 5}, "pose_a": at([4, 5, 0]), "b": {"box": [1, 1, 1]}}));
    assert_eq!((v["status"].as_str(), &v["features"][1]), (Some("touching"), &json!({"edge": [3, 7]})));
    // On vertex 7 = (1, 1, 1): the centre at (1 + 2, 1 + 3, 1 + 6), radius 7; 2⁻⁵⁰ closer it
    // penetrates.
    let v = ask(json!({"op": "distance", "a": {"ball": 7}, "pose_a": at([3, 4, 7]), "b": {"box": [1, 1, 1]}}));
    assert_eq!((v["status"].as_str(), &v["features"][1]), (Some("touching"), &json!({"vertex": 7})));
    let v = ask(json!({"op": "distance", "a": {"ball": 7}, "pose_a": {"quaternion": [1, 0, 0, 0],
        "translation": ["3", "4", "7881299347898367/1125899906842624"]}, "b": {"box": [1, 1, 1]}}));
    assert_eq!(v["status"], "penetrating", "{v}");
    let v = ask(json!({"op": "distance", "a": {"ball": 7}, "pose_a": {"quaternion": [1, 0, 0, 0],
        "translation": ["3", "4", "7881299347898369/1125899906842624"]}, "b": {"box": [1, 1, 1]}}));
    assert_eq!(v["status"], "separated", "{v}");
}

#[test]
fn algebraic_distances_to_any_number_of_digits() {
    // Balls of radius 1/4 whose centres are (1, 1, 0) apart: √2 − 1/2.
    let v = ask(json!({"op": "distance", "a": {"ball": 0.25}, "b": {"ball": 0.25}, "pose_b": at([1, 1, 0]),
        "digits": 30}));
    assert_eq!(v["status"], "separated");
    assert_eq!(v["distance"], "0.914213562373095048801688724209");
    // (√2 − 1/2)² = 9/4 − √2, a root of y² − (9/2)y + 49/16.
    assert_eq!(v["distance_squared"]["decimal"], "0.83578643762690495119831127579");
    assert_eq!(v["distance_squared"]["poly"], json!(["49/16", "-9/2", "1"]));
    // a's closest point: (1, 1, 0)/(4√2) = √2/8 each.
    assert_eq!(v["points"][0], json!(["0.176776695296636881100211090526", "0.176776695296636881100211090526", "0"]));
    assert_eq!(v["features"], json!(["center", "center"]));
    // Rational when the cores' distance is a square: balls 5 apart with radii 1 and 2.
    let v = ask(json!({"op": "distance", "a": {"ball": 1}, "b": {"ball": 2}, "pose_b": at([3, 4, 0])}));
    assert_eq!((v["distance"].as_str(), v["distance_squared"].as_str()), (Some("2"), Some("4")));
    assert_eq!(v["points"], json!([["3/5", "4/5", "0"], ["9/5", "12/5", "0"]]));
}

#[test]
fn capsules_and_rounded_boxes() {
    // Parallel capsules 2 apart with radii 1: touching along a segment of closest points.
    let cap = |y: i64| json!({"capsule": {"a": [-4, y, 0], "b": [4, y, 0], "radius": 1}});
    let v = ask(json!({"op": "distance", "a": cap(0), "b": cap(2)}));
    assert_eq!(v["status"], "touching");
    assert_eq!(v["cores_distance_squared"], "4");
    // Crossing capsules, skew by 3 along z, radii 1 and 1/2: 3/2 apart.
    let v = ask(json!({"op": "distance", "a": cap(0),
        "b": {"capsule": {"a": [0, -4, 3], "b": [0, 4, 3], "radius": "1/2"}}}));
    assert_eq!((v["status"].as_str(), v["distance"].as_str()), (Some("separated"), Some("1.5")));
    assert_eq!(v["features"], json!([{"edge": [0, 1]}, {"edge": [0, 1]}]));
    // Rounded unit cubes 3 apart on the diagonal (cores' vertices √2 apart), radius 1/2 each:
    // √2 − 1; the nearest cores' features are an edge pair or a vertex pair (a tie).
    let rb = json!({"round": {"shape": {"box": [1, 1, 1]}, "radius": "1/2"}});
    let v = ask(json!({"op": "distance", "a": rb, "b": rb, "pose_b": at([3, 3, 0]), "digits": 12}));
    assert_eq!((v["status"].as_str(), v["distance"].as_str()), (Some("separated"), Some("0.414213562373")));
    // A rounded box and a box face to face: the radius closes a gap of 1/2.
    let v = ask(
        json!({"op": "distance", "a": rb, "b": {"box": [1, 1, 1]}, "pose_b": {"quaternion": [1, 0, 0, 0], "translation": [0, 0, "5/2"]}}),
    );
    assert_eq!(v["status"], "touching");
    let v = ask(json!({"op": "distance", "a": rb, "b": {"box": [1, 1, 1]}, "pose_b": at([0, 0, 1])}));
    assert_eq!((v["status"].as_str(), v["features"].clone()), (Some("penetrating"), v["features"].clone()));
}

#[test]
fn claims_on_round_shapes_are_judged_exactly() {
    let touching = json!({"op": "distance", "a": {"ball": 1}, "b": {"ball": 1}, "pose_b": at([2, 0, 0])});
    let verdict = |claim: Value| {
        let mut q = touching.clone();
        q["claim"] = claim;
        ask(q)["verdict"].clone()
    };
    assert_eq!(verdict(json!({"status": "touching", "intersecting": true}))["ok"], true);
    assert_eq!(verdict(json!({"status": "separated"}))["ok"], false);
    assert_eq!(verdict(json!({"intersecting": false}))["ok"], false);
    assert_eq!(verdict(json!({"distance": 1e-10}))["ok"], true);
    assert_eq!(verdict(json!({"distance": 1e-8}))["ok"], false);
    assert_eq!(verdict(json!({"points": [[1, 0, 0], [1, 0, 0]]}))["ok"], true);
    // A point off its ball.
    assert_eq!(verdict(json!({"points": [[1.5, 0, 0], [1, 0, 0]]}))["ok"], false);
    // Both on their balls, but not at the contact: 2 apart where the distance is 0.
    assert_eq!(verdict(json!({"points": [[-1, 0, 0], [3, 0, 0]]}))["ok"], false);
    // Separated balls (√2 − 1/2 apart): the exact closest points to 15 digits pass, points
    // on the shapes 10⁻⁶ too far apart do not.
    let q = json!({"op": "distance", "a": {"ball": 0.25}, "b": {"ball": 0.25}, "pose_b": at([1, 1, 0]),
        "claim": {"points": [["0.176776695296637", "0.176776695296637", 0], ["0.823223304703363", "0.823223304703363", 0]],
                  "distance_squared": "0.835786437626905"}});
    assert_eq!(ask(q)["verdict"]["ok"], true);
    let q = json!({"op": "distance", "a": {"ball": 0.25}, "b": {"ball": 0.25}, "pose_b": at([1, 1, 0]),
        "claim": {"points": [[0, "-0.25", 0], [1, "1.25", 0]]}});
    assert_eq!(ask(q)["verdict"]["ok"], false);
}

#[test]
fn both_backends_agree_under_the_contract() {
    let lines = [
        json!({"op": "distance", "a": {"ball": "5"}, "pose_a": at([0, 0, 6]), "b": {"box": [1, 1, 1]}}),
        json!({"op": "distance", "a": {"capsule": {"a": [-4, 0, 0], "b": [4, 0, 0], "radius": 1}}, "b": {"ball": 1},
            "pose_b": {"quaternion": [2, 1, 0, 0], "translation": [0, 2, 0]}}),
        json!({"op": "distance", "a": {"round": {"shape": {"convex_hull": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "radius": 0.125}},
            "b": {"ball": 0.5}, "pose_b": at([1, 1, 1])}),
        json!({"op": "distance", "a": {"ball": 1}, "b": {"box": [1, 1, 1]}}),
    ];
    for mut q in lines {
        q["backend"] = json!("both");
        let v = ask(q.clone());
        assert_eq!(v["agreement"]["agree"], true, "{q}\n{v}");
        assert!(v["f64"]["status"].is_string(), "{v}");
    }
}

#[test]
fn round_shapes_are_refused_with_typed_errors() {
    let unit = json!({"box": [1, 1, 1]});
    let d = |a: Value| json!({"op": "distance", "a": a, "b": unit});
    assert_eq!(error(d(json!({"ball": -1}))), ("invalid".into(), "/a/ball".into()));
    assert_eq!(error(d(json!({"ball": 0}))), ("invalid".into(), "/a/ball".into()));
    assert_eq!(error(d(json!({"ball": "x"}))).1, "/a/ball");
    let cap = json!({"capsule": {"a": [0, 0, 0], "b": [0, 0, 0], "radius": 1}});
    assert_eq!(error(d(cap)), ("invalid".into(), "/a/capsule/b".into()));
    let cap = json!({"capsule": {"a": [0, 0, 0], "b": [1, 0, 0], "radius": 0}});
    assert_eq!(error(d(cap)), ("invalid".into(), "/a/capsule/radius".into()));
    let cap = json!({"capsule": {"a": [0, 0, 0], "b": [1, 0, 0], "radius": 1, "height": 2}});
    assert_eq!(error(d(cap)).1, "/a/capsule/height");
    let nested = json!({"round": {"shape": {"ball": 1}, "radius": 1}});
    assert_eq!(error(d(nested)), ("invalid".into(), "/a/round/shape".into()));
    let negative = json!({"round": {"shape": unit, "radius": -1}});
    assert_eq!(error(d(negative)), ("invalid".into(), "/a/round/radius".into()));
    let concave = json!({"round": {"shape": {"polyhedron": {"vertices": [[0,0,0],[4,0,0],[4,4,0],[0,4,0],[2,2,1],[2,2,4]],
        "faces": [[0,3,2,1],[0,1,4],[1,2,4],[2,3,4],[3,0,4]]}}, "radius": 1}});
    assert_eq!(error(d(concave)).0, "invalid");
    // A pose that scales would make the ball an ellipsoid.
    let q = json!({"op": "distance", "a": {"ball": 1}, "pose_a": {"matrix": [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]}, "b": unit});
    assert_eq!(error(q), ("invalid".into(), "/pose_a".into()));
    // An orthogonal matrix is a rigid motion: answered (a quarter turn about z, moved by 3).
    let q = json!({"op": "distance", "a": {"ball": 1}, "pose_a": {"matrix": [[0, -1, 0, 3], [1, 0, 0, 0], [0, 0, 1, 0]]}, "b": unit});
    assert_eq!(ask(q)["status"], "separated");
    // Ops on polyhedral solids refuse round shapes, naming the shape.
    for q in [
        json!({"op": "classify_point", "solid": {"ball": 1}, "point": [0, 0, 0]}),
        json!({"op": "contact", "a": {"capsule": {"a": [0, 0, 0], "b": [1, 0, 0], "radius": 1}}, "b": unit}),
        json!({"op": "validate", "solid": {"round": {"shape": unit, "radius": 1}}}),
        json!({"op": "index_stats", "solid": {"ball": 1}}),
    ] {
        assert_eq!(error(q.clone()).0, "unsupported", "{q}");
    }
    // A round shape of radius 0 is its core, for every op.
    let v = ask(json!({"op": "validate", "solid": {"round": {"shape": unit, "radius": "0/3"}}}));
    assert_eq!((v["valid"].as_bool(), v["vertices"].as_u64()), (Some(true), Some(8)), "{v}");
    // A torus is measured against balls, capsules and tori only (oracle/tests/torus.rs).
    let torus = json!({"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 3, "minor": 1}});
    assert_eq!(error(d(torus)), ("unsupported".into(), "/b/box".into()));
}

/// `depth_squared` claims on round shapes: R − √c where the cores are apart, R plus the
/// cores' own depth where they meet, judged against the exact algebraic value.
#[test]
fn depth_claims_on_round_shapes() {
    let unit = json!({"box": [1, 1, 1]});
    let claim = |a: Value, pose: [i64; 3], b: Value, d2: &str| {
        ask(json!({"op": "distance", "a": a, "pose_a": at(pose), "b": b, "claim": {"depth_squared": d2}}))["verdict"]
            ["ok"]
            .as_bool()
    };
    // A unit ball centred in the cube: 1 + 1 deep.
    assert_eq!(claim(json!({"ball": 1}), [0, 0, 0], unit.clone(), "4"), Some(true));
    assert_eq!(claim(json!({"ball": 1}), [0, 0, 0], unit.clone(), "1"), Some(false));
    // Balls of radii 2 and 3, 4 apart: 1 deep; apart: 0.
    assert_eq!(claim(json!({"ball": 2}), [4, 0, 0], json!({"ball": 3}), "1"), Some(true));
    assert_eq!(claim(json!({"ball": 2}), [9, 0, 0], json!({"ball": 3}), "0"), Some(true));
    // A capsule along the diagonal through a tall box: (1 + √2)², claimed to 12 digits.
    let diagonal = json!({"capsule": {"a": [-3, -3, 0], "b": [3, 3, 0], "radius": 1}});
    let tall = json!({"box": [1, 1, 5]});
    assert_eq!(claim(diagonal.clone(), [0, 0, 0], tall.clone(), "5.828427124746"), Some(true));
    assert_eq!(claim(diagonal, [0, 0, 0], tall, "5.8284"), Some(false));
}

/// Found by the `round_diff` seeds: crossing capsules whose closest points differ in x by
/// rounding only (exactly 0: the coordinate is rational). On `f64` the two roots α ± |β|/√c of
/// that coordinate's quadratic merged into one and the answer was a `limit` error; the root
/// found (or α) is now the coordinate.
#[test]
fn regression_f64_closest_point_coordinate_with_merged_roots() {
    let line = r#"{"op":"distance","backend":"both","a":{"capsule":{"a":[-1.0,0.0,0.0],"b":[1.0,0.0,0.0],"radius":1.125}},"pose_a":{"quaternion":[0.0,0.0,1.0,1.0],"translation":[1.5,-0.5,0.75]},"b":{"capsule":{"a":[-1.0,0.0,0.0],"b":[1.0,0.0,0.0],"radius":0.37500000000000133}},"pose_b":{"quaternion":[1.0,1.0,2.0,1.0],"translation":[1.5,-0.5,2.25]}}"#;
    let v = ask(serde_json::from_str(line).unwrap());
    assert_eq!(v["status"], "penetrating", "{v}");
    assert_eq!(v["cores_distance_squared"], "81/40");
    assert_eq!(v["points"][0][0], "51/40");
    assert_eq!(v["agreement"]["agree"], true, "{v}");
    assert_eq!(v["f64"]["status"], "penetrating", "{v}");
}

/// `toi` on round shapes: exact first contacts (rational and quadratic irrational), grazes,
/// contacts at the start, claims, `f64` and `both`, the radius-0 route and refusals.
#[test]
fn the_first_contact_of_round_shapes() {
    let toi = |a: Value, pa: [i64; 3], b: Value, v: [i64; 3], extra: Value| {
        let mut q = json!({"op": "toi", "a": a, "pose_a": at(pa), "b": b, "velocity_a": v, "interval": [0, 20]});
        for (k, x) in extra.as_object().unwrap() {
            q[k] = x.clone();
        }
        ask(q)
    };
    let none = json!({});
    // Unit balls 10 apart closing at speed 1: t = 8.
    let v = toi(json!({"ball": 1}), [-10, 0, 0], json!({"ball": 1}), [1, 0, 0], none.clone());
    assert_eq!((v["collides"].as_bool(), v["toi"]["decimal"].as_str()), (Some(true), Some("8")), "{v}");
    assert_eq!(v["features"], json!(["center", "center"]));
    // Rounded unit cubes (radius 1/2) on the diagonal: t = 3 − 1/√2, a root of t² − 6t + 17/2.
    let rc = json!({"round": {"shape": {"box": [1, 1, 1]}, "radius": "1/2"}});
    let v = toi(rc.clone(), [-5, -5, 0], rc.clone(), [1, 1, 0], json!({"digits": 30}));
    assert_eq!(v["toi"]["decimal"], "2.29289321881345247559915563789", "{v}");
    assert_eq!(v["toi"]["poly"], json!(["17/2", "-6", "1"]));
    // A ball grazing a capsule (centre passing 2 above its axis, radii 1 + 1): t = 9; a miss
    // 2⁻⁵⁰ higher. Claims judged against the exact time.
    let cap = json!({"capsule": {"a": [-4, 0, 0], "b": [4, 0, 0], "radius": 1}});
    let v =
        toi(json!({"ball": 1}), [0, -9, 2], cap.clone(), [0, 1, 0], json!({"claim": {"collides": true, "toi": "9"}}));
    assert_eq!((v["toi"]["decimal"].as_str(), v["verdict"]["ok"].as_bool()), (Some("9"), Some(true)), "{v}");
    assert_eq!(v["features"], json!(["center", {"edge": [0, 1]}]), "the centre grazes the capsule's axis");
    let high = json!({"op": "toi", "a": {"ball": 1}, "pose_a": {"translation": [0, -9, "2.00000000000000177635683940025046467781066894531250"]},
        "b": cap, "velocity_a": [0, 1, 0], "interval": [0, 20], "claim": {"collides": true, "toi": 9}});
    let v = ask(high);
    assert_eq!((v["collides"].as_bool(), v["verdict"]["ok"].as_bool()), (Some(false), Some(false)), "{v}");
    // Meeting at the start: overlapping; touching; a claim of the state judged.
    let v =
        toi(json!({"ball": 2}), [0, 0, 0], json!({"ball": 1}), [1, 0, 0], json!({"claim": {"at_start": "touching"}}));
    assert_eq!((v["at_start"].as_str(), v["verdict"]["ok"].as_bool()), (Some("overlapping"), Some(false)), "{v}");
    assert!(v.get("features").is_none(), "overlapping at the start: no touching pair");
    let v = toi(json!({"ball": 2}), [-3, 0, 0], json!({"ball": 1}), [-1, 0, 0], none.clone());
    assert_eq!((v["toi"]["decimal"].as_str(), v["at_start"].as_str()), (Some("0"), Some("touching")), "{v}");
    // A ball of radius 5 falling along −z from (4, 5, 6) beside the cube's edge x = y = 1: its
    // centre is (3, 4) = 5 from the edge's line, so it meets the edge's end (1, 1, 1) as its
    // centre reaches z = 1, at t = 5.
    let v = toi(json!({"ball": 5}), [4, 5, 6], json!({"box": [1, 1, 1]}), [0, 0, -1], none.clone());
    assert_eq!(v["toi"]["decimal"], "5", "{v}");
    assert_eq!(v["features"], json!(["center", {"vertex": 7}]), "the corner (1, 1, 1)");
    // f64 and both.
    let v = toi(json!({"ball": 1}), [-10, 0, 0], json!({"ball": 1}), [1, 0, 0], json!({"backend": "f64"}));
    assert!((v["toi"]["f64"].as_f64().unwrap() - 8.0).abs() < 1e-12, "{v}");
    let v = toi(rc.clone(), [-5, -5, 0], rc.clone(), [1, 1, 0], json!({"backend": "both"}));
    assert_eq!(v["agreement"]["agree"], true, "{v}");
    // Two shapes of radius 0 are the polytope path's: with its touching features.
    let r0 = json!({"round": {"shape": {"box": [1, 1, 1]}, "radius": 0}});
    let v = toi(r0, [-5, 0, 0], json!({"box": [1, 1, 1]}), [1, 0, 0], none.clone());
    assert_eq!((v["toi"]["decimal"].as_str(), v["features"].is_array()), (Some("3"), true), "{v}");
    // Refusals: a rotating velocity, a bad interval.
    let q = json!({"op": "toi", "a": {"ball": 1}, "b": {"ball": 1}, "velocity_a": {"linear": [1, 0, 0], "angular": [0, 0, 1]}});
    assert_eq!(error(q).0, "unsupported");
    // Features are claimable (`claims_of_the_features_that_meet`); balls overlapping at the
    // start have no touching pair, so any claim of one fails.
    let q =
        json!({"op": "toi", "a": {"ball": 1}, "b": {"ball": 1}, "claim": {"features": [{"vertex": 0}, {"vertex": 0}]}});
    assert_eq!(ask(q)["verdict"]["ok"], false);
    let q = json!({"op": "toi", "a": {"ball": 1}, "b": {"ball": 1}, "interval": [1, 0]});
    assert_eq!(error(q), ("invalid".into(), "/interval".into()));
}

/// The round `toi` search counts against the query's budget per candidate: two rounded hulls
/// of 200 points under a step limit end in a `limit` error, not a long run.
#[test]
fn a_large_round_toi_ends_at_the_step_limit() {
    let pts: Vec<[i64; 3]> =
        (0..200i64).map(|k| [(k * 37) % 101 - 50, (k * 53) % 97 - 48, (k * 71) % 89 - 44]).collect();
    let q = json!({"op": "toi", "a": {"round": {"shape": {"convex_hull": pts}, "radius": 1}},
        "b": {"round": {"shape": {"convex_hull": pts}, "radius": 1}}, "pose_b": at([500, 0, 0]),
        "velocity_b": [-1, 0, 0], "interval": [0, 1000]});
    // The same shapes' distance (both hulls built) fits in 20,000 steps; their first contact
    // does not (about 10⁶ without a limit).
    let mut d = q.clone();
    d["op"] = json!("distance");
    for k in ["velocity_b", "interval"] {
        d.as_object_mut().unwrap().remove(k);
    }
    let (out, err, code) = common::run_binary(&["--step-limit", "20000"], format!("{d}\n{q}\n").as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> =
        out.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    assert_eq!(lines[0]["status"], "separated", "{}", lines[0]);
    assert_eq!(lines[1]["error"]["kind"], "limit", "{}", lines[1]);
    assert!(lines[1]["error"]["message"].as_str().unwrap().contains("step limit of 20000"), "{}", lines[1]);
}

/// A round `toi`'s `features` claim: right when it names a pair that realises the first
/// contact. A unit ball moving along y toward the unit capsule on x ∈ [−4, 4], aimed at x = 4
/// (where its cap meets its side), touches at t = 7 both the end (vertex 1) and the segment;
/// aimed at x = 0, only the segment. (Found missing in issue 42's list: claims of a round
/// toi's features.)
#[test]
fn claims_of_the_features_that_meet() {
    let verdict = |x: i64, features: Value| {
        let v = ask(json!({"op": "toi", "a": {"ball": 1}, "pose_a": at([x, -9, 0]), "velocity_a": [0, 1, 0],
            "b": {"capsule": {"a": [-4, 0, 0], "b": [4, 0, 0], "radius": 1}}, "interval": [0, 20],
            "claim": {"features": features}}));
        v["verdict"]["ok"].as_bool().unwrap()
    };
    assert!(verdict(4, json!(["center", {"vertex": 1}])));
    assert!(verdict(4, json!(["center", {"edge": [0, 1]}])));
    assert!(!verdict(4, json!(["center", {"vertex": 0}])));
    assert!(verdict(0, json!(["center", {"edge": [1, 0]}])) || verdict(0, json!(["center", {"edge": [0, 1]}])));
    assert!(!verdict(0, json!(["center", {"vertex": 1}])));
    assert!(!verdict(0, json!(["center", "center"])));
    // A miss has no features to claim.
    assert!(!verdict(9, json!(["center", {"edge": [0, 1]}])));
}

/// A cast whose speed components are 10³⁰⁰ and 10⁻³⁰⁰: the `f64` time polynomial's
/// coefficients leave the range. That is an `overflow` (admissible at any margin), not a
/// `limit` as it was reported before (a limit is about the input's size, and under `both` a
/// refusal that is not an overflow must be near a change of the answer).
#[test]
fn a_cast_whose_coefficients_leave_the_range_overflows_on_f64() {
    let line = json!({"op": "toi",
        "a": {"capsule": {"a": [0, 0, 0], "b": [1, 0, 0], "radius": 1}},
        "b": {"round": {"shape": {"convex_hull": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "radius": 1e-300}},
        "pose_b": {"translation": [0, 0, 3]}, "velocity_b": [1e-300, 1e300, -1e-300]});
    let mut q = line.clone();
    q["backend"] = json!("f64");
    let v = ask(q);
    assert_eq!(v["error"]["kind"], "overflow", "{v}");
    q = line;
    q["backend"] = json!("both");
    let v = ask(q);
    assert_eq!(v["collides"], false, "{v}");
    assert_eq!(v["f64"]["error"]["kind"], "overflow", "{v}");
    assert_eq!(v["agreement"]["agree"], true, "{v}");
}
