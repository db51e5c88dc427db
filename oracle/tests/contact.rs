//! The `contact` op through the format: regions and normals of R_t, culling by velocities,
//! coherence with the previous step's regions, claims, errors.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

/// The answer to `q`; an exact `contact` answer is also claimed back whole (it must pass,
/// its regions in either order), and claimed with a region dropped, a region duplicated and a
/// point moved (each must fail): every answer of this file checks the judge of `regions`.
fn ask(q: Value) -> Value {
    let a = answer_line(&q.to_string(), &Options::default());
    if q["op"] == "contact" && q.get("claim").is_none() && q["backend"] != "f64" && a.get("regions").is_some() {
        claims_back(&q, &a);
    }
    a
}

fn claims_back(q: &Value, a: &Value) {
    let judge = |regions: &[Value]| {
        let mut c = q.clone();
        c["claim"] = json!({"status": a["status"], "regions": regions});
        answer_line(&c.to_string(), &Options::default())["verdict"].clone()
    };
    let regions: Vec<Value> = a["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!({"a": r["a"], "b": r["b"], "points": r["points"], "normals": r["normals"]}))
        .collect();
    let v = judge(&regions);
    assert_eq!(v["ok"], true, "the answer claimed back fails: {q}\n{v}");
    let reversed: Vec<Value> = regions.iter().rev().cloned().collect();
    assert_eq!(judge(&reversed)["ok"], true, "the answer claimed back in reverse fails: {q}");
    if regions.is_empty() {
        return;
    }
    assert_eq!(judge(&regions[1..])["ok"], false, "a region dropped passes: {q}");
    let mut twice = regions.clone();
    twice.push(regions[0].clone());
    assert_eq!(judge(&twice)["ok"], false, "a region claimed twice passes: {q}");
    let mut moved = regions.clone();
    let x = touchstone::scalar::parse_rational(moved[0]["points"][0][0].as_str().unwrap()).unwrap();
    moved[0]["points"][0][0] = json!((x + num_rational::BigRational::from_integer(1.into())).to_string());
    assert_eq!(judge(&moved)["ok"], false, "a region with a point moved passes: {q}");
}

/// A prism over a polygon of exact points, between heights 0 and 1 (vertices: the polygon at
/// z = 0, then at z = 1).
fn prism(polygon: &[(&str, &str)]) -> Value {
    let n = polygon.len();
    let v: Vec<Value> = ["0", "1"].iter().flat_map(|z| polygon.iter().map(move |(x, y)| json!([x, y, z]))).collect();
    let mut faces = vec![json!((0..n).rev().collect::<Vec<_>>()), json!((n..2 * n).collect::<Vec<_>>())];
    faces.extend((0..n).map(|j| json!([j, (j + 1) % n, n + (j + 1) % n, n + j])));
    json!({"polyhedron": {"vertices": v, "faces": faces}})
}

/// The U of 3 × 3 with a 1 × 2 notch: arms x ∈ [0, 1] and [2, 3] for y ∈ [1, 3].
fn u() -> Value {
    prism(&[("0", "0"), ("3", "0"), ("3", "3"), ("2", "3"), ("2", "1"), ("1", "1"), ("1", "3"), ("0", "3")])
}

/// Issue 39: a box lying across both arms of the U has two regions of R_t with the same
/// features (its bottom face on the U's top face); claiming the op's own answer back failed
/// ("not the region's point set", "a region of R_t the claim does not name") because regions
/// were matched by their features. They are matched as a set now (`ask` claims back).
#[test]
fn a_box_across_both_arms_of_a_u() {
    let q = json!({"op": "contact", "a": {"box": ["3/2", "1/2", "1/4"]}, "pose_a": {"translation": ["3/2", 2, "5/4"]}, "b": u()});
    let a = ask(q);
    assert_eq!(a["status"], "touching", "{a}");
    let regions = a["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 2, "{a}");
    let mut xs: Vec<Value> = Vec::new();
    for r in regions {
        assert_eq!(
            (&r["a"], &r["b"], &r["dim"]),
            (&json!({"face": [0, 1, 2, 3]}), &json!({"face": [8, 9, 10, 11, 12, 13, 14, 15]}), &json!(2))
        );
        let mut corners: Vec<String> = r["points"].as_array().unwrap().iter().map(|p| p.to_string()).collect();
        corners.sort();
        xs.push(json!(corners));
    }
    // The two 1 × 1 squares y ∈ [3/2, 5/2] over the arms, at z = 1.
    let square = |x0: &str, x1: &str| {
        let mut c: Vec<String> = [(x0, "3/2"), (x0, "5/2"), (x1, "5/2"), (x1, "3/2")]
            .iter()
            .map(|(x, y)| json!([x, y, "1"]).to_string())
            .collect();
        c.sort();
        json!(c)
    };
    xs.sort_by_key(|v| v.to_string());
    let mut want = vec![square("0", "1"), square("2", "3")];
    want.sort_by_key(|v| v.to_string());
    assert_eq!(xs, want);
}

/// Issue 39: a four-pointed star prism, flush with the U's top and bottom, its tip sunk 2⁻⁴⁰
/// into the U's outer side. Exactly the interiors overlap (penetrating); `f64`, with
/// ε ≈ 1.2 · 10⁻⁸, calls it touching, and the contract allows it: the overlap is 2⁻⁴⁰ deep.
/// The check counted a point where the star's top face lies on the U's (the same way up) as
/// deep whatever the overlap's thickness; it measures that thickness now. Sunk 10⁻⁶ (deeper
/// than ε), `f64` says penetrating too.
#[test]
fn a_star_tip_sunk_a_hair_into_a_u_is_touching_within_epsilon() {
    let star = |tip: &str| {
        prism(&[(tip, "3/2"), ("4", "1"), ("9/2", "0"), ("5", "1"), ("6", "3/2"), ("5", "2"), ("9/2", "3"), ("4", "2")])
    };
    // 3 − 2⁻⁴⁰.
    let hair = format!("{}/{}", 3 * (1u64 << 40) - 1, 1u64 << 40);
    for (a, b) in [(star(&hair), u()), (u(), star(&hair))] {
        let r = ask(json!({"op": "contact", "backend": "both", "a": a, "b": b}));
        assert_eq!((&r["status"], &r["f64"]["status"]), (&json!("penetrating"), &json!("touching")), "{r}");
        assert_eq!(r["agreement"]["agree"], true, "{r}");
    }
    let deep = star("2.999999");
    let r = ask(json!({"op": "contact", "backend": "both", "a": deep, "b": u()}));
    assert_eq!((&r["status"], &r["f64"]["status"]), (&json!("penetrating"), &json!("penetrating")), "{r}");
    assert_eq!(r["agreement"]["agree"], true, "{r}");
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
