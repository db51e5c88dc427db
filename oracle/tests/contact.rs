//! The `contact` op through the format: regions and normals of R_t, culling by velocities,
//! coherence with the previous step's regions, claims, errors.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

/// A unit-half-extent box on another, shifted by one along x: they share the 1 × 2 rectangle
/// x ∈ [0, 1], y ∈ [−1, 1] at z = 1.
fn stacked(extra: Value) -> Value {
    let mut q = json!({"op": "contact", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": [1, 0, 2]}, "b": {"box": [1, 1, 1]}});
    for (k, v) in extra.as_object().unwrap() {
        q[k] = v.clone();
    }
    q
}

#[test]
fn a_box_on_a_box() {
    for backend in ["exact", "exact-unfiltered", "both"] {
        let a = ask(stacked(json!({"backend": backend})));
        assert_eq!(a["status"], "touching", "{a}");
        // I_t: the face on the face, a's bottom edges x = 0 (on b's top face), y = ±1 (on b's
        // top edges, collinear), b's top edge x = 1 (under a's face), and the corners.
        assert_eq!(a["intersection"], 9, "{a}");
        let regions = a["regions"].as_array().unwrap();
        assert_eq!(regions.len(), 1, "{a}");
        assert_eq!(regions[0]["dim"], 2);
        assert_eq!(regions[0]["a"], json!({"face": [0, 1, 2, 3]}));
        assert_eq!(regions[0]["b"], json!({"face": [4, 5, 6, 7]}));
        let mut pts: Vec<Value> = regions[0]["points"].as_array().unwrap().clone();
        pts.sort_by_key(|p| p.to_string());
        assert_eq!(
            pts,
            vec![json!(["0", "-1", "1"]), json!(["0", "1", "1"]), json!(["1", "-1", "1"]), json!(["1", "1", "1"])]
        );
        assert_eq!(regions[0]["source"], "new");
    }
    // f64 answers by the ε rules (ε = 10⁻⁹ × the largest coordinate, 3): touching, with
    // contact points (no cluster: they are far apart), in agreement with the exact answer.
    let a = ask(stacked(json!({"backend": "both"})));
    assert_eq!(a["f64"]["status"], "touching", "{a}");
    assert_eq!(a["f64"]["epsilon"], json!(3e-9), "{a}");
    assert_eq!(a["agreement"]["agree"], true, "{a}");
    assert_eq!(a["agreement"]["strict"], true, "{a}");
    let a = ask(stacked(json!({"backend": "f64", "epsilon": 0.5})));
    assert_eq!(a["status"], "touching", "{a}");
    // With ε = 1/2, the points within 2 of each other are one cluster: a's corners over b's
    // top edges, b's corners under a's edges and the collinear edges' middles fall into two.
    assert_eq!(a["regions"].as_array().map(|r| r.len()), Some(2), "{a}");
    for r in a["regions"].as_array().unwrap() {
        assert_eq!(r["dim"], 0, "{a}");
    }
    // ε and the step must be positive.
    for (k, v) in [("epsilon", json!(0)), ("epsilon", json!("-1/2")), ("step", json!(0))] {
        let a = ask(stacked(json!({"backend": "f64", k: v})));
        assert_eq!(
            (a["error"]["kind"].clone(), a["error"]["at"].clone()),
            (json!("invalid"), json!(format!("/{k}"))),
            "{a}"
        );
    }
    // Apart by a half: separate, nothing found.
    let a = ask(
        json!({"op": "contact", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": [1, 0, "5/2"]}, "b": {"box": [1, 1, 1]}}),
    );
    assert_eq!((a["status"].clone(), a["intersection"].clone()), (json!("separate"), json!(0)), "{a}");
    // Sunk by a hundredth: penetrating.
    let a = ask(
        json!({"op": "contact", "a": {"box": [1, 1, 1]}, "pose_a": {"translation": [1, 0, "199/100"]}, "b": {"box": [1, 1, 1]}}),
    );
    assert_eq!(a["status"], "penetrating", "{a}");
}

#[test]
fn velocities_cull_and_previous_regions_keep_normals() {
    // Lifting off: a's bottom face and b's top face move apart (culled); the collinear edges
    // along y = ±1 slide along each other's side faces, so they stay, and with the face gone
    // they are needed.
    let a = ask(stacked(json!({"velocity_a": {"linear": [0, 0, 1]}})));
    assert_eq!(a["culled"], 3, "{a}");
    let regions = a["regions"].as_array().unwrap();
    assert!(regions.iter().all(|r| r["dim"] == 1 && r["a"]["edge"].is_array() && r["b"]["edge"].is_array()), "{a}");
    // Sliding along x: nothing culled; a bare vector is a linear velocity.
    let a = ask(stacked(json!({"velocity_a": [1, 0, 0], "velocity_b": {"angular": [0, 0, 0]}})));
    assert_eq!((a["culled"].clone(), a["regions"].as_array().unwrap().len()), (json!(0), 1), "{a}");
    // The previous step's regions, as this op writes them: the same pair keeps its normals.
    let previous = json!([{"a": {"face": [0, 1, 2, 3]}, "b": {"face": [4, 5, 6, 7]}, "dim": 2, "normals": [[0, 0, 3]], "source": "new"}]);
    let a = ask(stacked(json!({"previous": previous})));
    assert_eq!(a["regions"][0]["source"], "persisted", "{a}");
    assert_eq!(a["regions"][0]["normals"], json!([["0", "0", "3"]]), "{a}");
    // A previous feature the solid does not have is refused, where it is.
    let bad = ask(stacked(json!({"previous": [{"a": {"face": [0, 1, 6]}, "b": {"vertex": 0}}]})));
    assert_eq!(bad["error"]["kind"], "invalid", "{bad}");
    assert_eq!(bad["error"]["at"], "/previous/0/a", "{bad}");
}

#[test]
fn claims() {
    let judge = |claim: Value| ask(stacked(json!({"claim": claim})))["verdict"].clone();
    let face = json!({"a": {"face": [0, 1, 2, 3]}, "b": {"face": [4, 5, 6, 7]}});
    let with = |k: &str, v: Value| {
        let mut r = face.clone();
        r[k] = v;
        r
    };
    // The right set, normals up to positive scale, points as a set within the tolerance.
    assert_eq!(judge(json!({"status": "touching", "regions": [face]}))["ok"], true);
    assert_eq!(judge(json!({"regions": [with("normals", json!([[0, 0, 0.5]]))]}))["ok"], true);
    assert_eq!(judge(json!({"regions": [with("normals", json!([[0, 0, -1]]))]}))["ok"], false);
    assert_eq!(judge(json!({"regions": [with("normals", json!([[0, 0.001, 1]]))]}))["ok"], false);
    let pts = json!([[1, 1, 1], [0, -1, 1], [0, 1, 1], [1, -1, 1.0000000001]]);
    assert_eq!(judge(json!({"regions": [with("points", pts)]}))["ok"], true);
    let wrong = json!([[1, 1, 1], [0, -1, 1], [0, 1, 1], [2, -1, 1]]);
    assert_eq!(judge(json!({"regions": [with("points", wrong)]}))["ok"], false);
    // A wrong status; a region R_t does not have; R_t's region not claimed.
    assert_eq!(judge(json!({"status": "penetrating"}))["ok"], false);
    let edge = json!({"a": {"edge": [0, 1]}, "b": {"edge": [4, 5]}});
    let v = judge(json!({"regions": [face, edge]}));
    assert_eq!(v["ok"], false, "{v}");
    let v = judge(json!({"regions": []}));
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["checks"][0]["field"], "regions/missing/0", "{v}");
    // Claims are checked as input.
    let bad = ask(stacked(json!({"claim": {"regions": [{"a": {"face": [0, 1, 2, 3]}}]}})));
    assert_eq!(bad["error"]["kind"], "missing", "{bad}");
    let bad = ask(stacked(json!({"claim": {"status": "stuck"}})));
    assert_eq!(bad["error"]["kind"], "unknown", "{bad}");
}

/// The ε pipeline checks the query's budget: a step limit ends it with a `limit` error (an ε
/// as large as the shapes makes every feature pair a candidate), and an ε beyond binary64 is a
/// typed error at `/epsilon`.
#[test]
fn the_f64_pipeline_keeps_to_the_limits() {
    let q = json!({"op": "contact", "backend": "f64", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [2, 0, 0]}, "epsilon": 4});
    let limited = Options { step_limit: Some(50), ..Options::default() };
    let a = touchstone_oracle::answer_line_limited(&q.to_string(), &limited);
    assert_eq!(a["error"]["kind"], "limit", "{a}");
    // Without the limit the same query is answered: every pair within ε, touching.
    assert_eq!(ask(q.clone())["status"], "touching");
    let mut huge = q;
    huge["epsilon"] = json!("1e400");
    let a = ask(huge);
    assert_eq!((a["error"]["kind"].clone(), a["error"]["at"].clone()), (json!("number"), json!("/epsilon")), "{a}");
}
