//! Claims: another engine's answer judged against the exact one, per op a right claim, a wrong
//! one and a tie (or a claim on the tolerance's edge), with answers derived by hand.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

/// The verdict of a claim on `q`.
fn verdict(mut q: Value, claim: Value) -> Value {
    q["claim"] = claim;
    let a = ask(q);
    assert!(a.get("error").is_none(), "{a}");
    a["verdict"].clone()
}

fn ok(mut q: Value, claim: Value) -> bool {
    q["claim"] = claim.clone();
    let v = verdict(q.clone(), claim);
    let all = v["checks"].as_array().unwrap().iter().all(|c| c["ok"] == true);
    assert_eq!(v["ok"], all, "verdict.ok is the conjunction of the checks: {v}");
    v["ok"].as_bool().unwrap()
}

fn check<'a>(v: &'a Value, field: &str) -> &'a Value {
    v["checks"].as_array().unwrap().iter().find(|c| c["field"] == field).unwrap_or_else(|| panic!("{field} in {v}"))
}

#[test]
fn orient2d_claims() {
    // Counterclockwise: (1, 0) × (0, 1) = 1.
    let q = json!({"op": "orient2d", "points": [[0,0],[1,0],[0,1]]});
    let a = ask(q.clone());
    assert_eq!((a["orientation"].clone(), a["determinant"].clone()), (json!("positive"), json!("1")));
    assert!(ok(q.clone(), json!({"orientation": "positive", "determinant": 0.9999999999999})));
    let v = verdict(q, json!({"orientation": "collinear"}));
    assert_eq!((check(&v, "orientation")["exact"].clone(), v["ok"].clone()), (json!("positive"), json!(false)));
    // Clockwise: (1, 0) × (1/2, −1/3) = −1/3.
    let q = json!({"op": "orient2d", "points": [[0,0],[1,0],["1/2","-1/3"]]});
    assert_eq!(ask(q.clone())["determinant"], "-1/3");
    assert!(!ok(q.clone(), json!({"determinant": -0.3333})));
    assert!(ok(q, json!({"orientation": "negative", "determinant": -0.3333333333333333})));
    // (1/3, 1/6) is on the line through 0 and (2, 1), and so are the binary64 numbers 0.1 and
    // 0.05 (halving is exact).
    let q = json!({"op": "orient2d", "points": [[0,0],[2,1],["1/3","1/6"]]});
    assert!(ok(q, json!({"orientation": "collinear", "determinant": 0})));
    let q = json!({"op": "orient2d", "points": [[0,0],[2,1],[0.1,0.05]]});
    assert_eq!(ask(q)["orientation"], "collinear");
    // 0.3 is not 3 × 0.1 in binary64: the double 0.3 is 0.29999999999999998890, three times
    // the double 0.1 is 0.30000000000000001665, so the determinant 1·y − 3·x is negative.
    let q = json!({"op": "orient2d", "points": [[0,0],[1,3],[0.1,0.3]]});
    let a = ask(q.clone());
    assert_eq!(a["orientation"], "negative", "{a}");
    assert!(!ok(q, json!({"orientation": "collinear"})));
}

#[test]
fn orient3d_claims() {
    let q = json!({"op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]});
    assert!(ok(q.clone(), json!({"orientation": "positive", "determinant": 1})));
    let v = verdict(q.clone(), json!({"orientation": "negative", "determinant": 1.5}));
    assert_eq!(v["ok"], false);
    let o = check(&v, "orientation");
    assert_eq!(
        (o["claimed"].clone(), o["exact"].clone(), o["ok"].clone()),
        (json!("negative"), json!("positive"), json!(false))
    );
    let d = check(&v, "determinant");
    assert_eq!((d["exact"].clone(), d["abs_error"].clone(), d["ok"].clone()), (json!("1"), json!("0.5"), json!(false)));
    // A binary64 engine calls (0.1, 0.2, 0.3) collinear with 0 and (1, 2, 3): for the numbers
    // it holds the determinant is −2⁻⁵⁴, so "coplanar" is wrong (the exact orientation is
    // negative); for the decimal numbers it is right.
    let doubles = json!({"op": "orient3d", "points": [[0,0,0],[1,2,3],[0.1,0.2,0.3],[1,0,0]]});
    assert!(!ok(doubles, json!({"orientation": "coplanar"})));
    let decimals = json!({"op": "orient3d", "points": [[0,0,0],[1,2,3],["0.1","0.2","0.3"],[1,0,0]]});
    assert!(ok(decimals, json!({"orientation": "coplanar", "determinant": 1e-12})));
    // On the tolerance's edge, decided exactly: |11/10 − 1| = 1/10 passes abs = 1/10.
    let mut edge = q.clone();
    edge["tolerance"] = json!({"abs": "1/10", "rel": 0});
    assert!(ok(edge.clone(), json!({"determinant": "11/10"})));
    assert!(!ok(edge, json!({"determinant": "1101/1000"})));
}

#[test]
fn side_of_plane_claims() {
    let q = |p: Value| json!({"op": "side_of_plane", "plane": {"coefficients": [0, 0, 1, -1]}, "point": p});
    assert!(ok(q(json!([0, 0, 3])), json!({"side": "above", "value": 2})));
    assert!(!ok(q(json!([0, 0, 3])), json!({"side": "below"})));
    // On the plane exactly: only "on" is right.
    assert!(ok(q(json!([5, 5, 1])), json!({"side": "on", "value": 0})));
    assert!(!ok(q(json!([5, 5, "1.0000000000000000000001"])), json!({"side": "on"})));
}

#[test]
fn transform_points_claims() {
    // R(1, 2, 3, 4)·e_x = (−20, 20, 10)/30, plus (1, 0, 0): (1/3, 2/3, 1/3).
    let q = json!({"op": "transform_points", "pose": {"quaternion": [1, 2, 3, 4], "translation": [1, 0, 0]}, "points": [[1, 0, 0]]});
    assert!(ok(q.clone(), json!({"points": [[0.3333333333, 0.6666666667, 0.3333333333]]})));
    let v = verdict(q.clone(), json!({"points": [[0.33, 0.67, 0.33]]}));
    assert_eq!(check(&v, "points/0")["exact"], json!(["1/3", "2/3", "1/3"]));
    assert_eq!(v["ok"], false);
    // A claim with another number of points fails, and says why.
    let v = verdict(q, json!({"points": [[0, 0, 0], [1, 1, 1]]}));
    assert_eq!(v["ok"], false);
    assert!(check(&v, "points")["note"].as_str().unwrap().contains("number of points"));
}

#[test]
fn squared_distance_claims() {
    // (1, 1, 1) to x + y + z = 1: 4/3, distance 2/√3 = 1.15470053837925152901…
    let q = json!({"op": "squared_distance", "point": [1, 1, 1], "to_plane": {"coefficients": [1, 1, 1, -1]}});
    assert!(ok(q.clone(), json!({"distance_squared": 1.3333333333333333, "distance": 1.1547005383792515})));
    let v = verdict(q.clone(), json!({"distance": 1.15}));
    assert_eq!(v["ok"], false);
    assert_eq!(check(&v, "distance")["exact"], "1.154700538379251529"); // 20 digits, a trailing zero dropped
                                                                        // The distance is judged exactly on the tolerance's edge: (3, 4, 0) is 5 from the origin.
    let five = json!({"op": "squared_distance", "point": [0, 0, 0], "to_point": [3, 4, 0], "tolerance": {"abs": "1/2", "rel": 0}});
    assert!(ok(five.clone(), json!({"distance": 5.5})));
    assert!(ok(five.clone(), json!({"distance": 4.5})));
    assert!(!ok(five.clone(), json!({"distance": "5.5000000001"})));
    assert!(!ok(five.clone(), json!({"distance": "4.4999999999"})));
    // A segment's parameter; a claimed parameter without a segment is an error naming it.
    let seg = json!({"op": "squared_distance", "point": [1, 1, 0], "to_segment": [[0, 0, 0], [2, 0, 0]]});
    assert!(ok(seg.clone(), json!({"parameter": 0.5, "distance_squared": 1})));
    assert!(!ok(seg, json!({"parameter": 0.25})));
    let mut bad = five;
    bad["claim"] = json!({"parameter": 0});
    let e = ask(bad);
    assert_eq!((e["error"]["kind"].clone(), e["error"]["at"].clone()), (json!("unknown"), json!("/claim/parameter")));
}

#[test]
fn segment_plane_claims() {
    let q = |s: Value| json!({"op": "segment_plane", "segment": s, "plane": {"coefficients": [0, 0, 3, -3]}});
    assert!(ok(q(json!([[0, 0, 0], [0, 0, 3]])), json!({"intersection": "crosses", "t": 0.3333333333333333})));
    assert!(!ok(q(json!([[0, 0, 0], [0, 0, 3]])), json!({"intersection": "disjoint"})));
    // Touching at an end: it crosses at exactly t = 1.
    assert!(ok(q(json!([[0, 0, 0], [5, 5, 1]])), json!({"intersection": "crosses", "t": 1})));
    let v = verdict(q(json!([[0, 0, 2], [5, 5, 3]])), json!({"t": 0.5}));
    assert_eq!((check(&v, "t")["exact"].clone(), v["ok"].clone()), (Value::Null, json!(false)));
}

#[test]
fn validate_claims() {
    let q = json!({"op": "validate", "solid": {"box": [1, 1, 1]}});
    assert!(ok(q.clone(), json!({"valid": true, "vertices": 8, "edges": 12, "faces": 6, "convex": true, "euler": 2})));
    // An engine that counts triangles: 12 faces is wrong for the box as given.
    let v = verdict(q, json!({"faces": 12, "euler": 2}));
    assert_eq!((check(&v, "faces")["exact"].clone(), check(&v, "euler")["ok"].clone()), (json!(6), json!(true)));
    // A bent cube: an engine that calls it valid is wrong; the line carries the defect.
    let bent = json!({"op": "validate", "solid": {"polyhedron": {
        "vertices": [[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,"1.001"],[0,1,1]],
        "faces": [[0,3,2,1],[4,5,6,7],[0,1,5,4],[1,2,6,5],[2,3,7,6],[3,0,4,7]]}},
        "claim": {"valid": true}});
    let a = ask(bent.clone());
    assert_eq!((a["valid"].clone(), a["verdict"]["ok"].clone()), (json!(false), json!(false)), "{a}");
    assert_eq!(a["defect"]["kind"], "invalid");
    assert!(a["defect"]["at"].as_str().unwrap().starts_with("/solid/polyhedron/faces/"), "{a}");
    let mut right = bent;
    right["claim"] = json!({"valid": false});
    assert_eq!(ask(right)["verdict"]["ok"], true);
}

#[test]
fn distance_claims() {
    // Two unit cubes, b moved by 3 along x: a's face x = 1 and b's face x = 2 are 1 apart.
    let q = json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 0, 0]}});
    assert!(ok(
        q.clone(),
        json!({"status": "separated", "distance_squared": 1, "distance": 1, "points": [[1, 0, 0], [2, 0, 0]]})
    ));
    // Ties: every pair on the two parallel faces realises the distance, whatever V-Clip chose.
    for pair in [
        json!([{"face": [1, 3, 5, 7]}, {"face": [0, 2, 4, 6]}]),
        json!([{"face": [1, 3, 5, 7]}, {"vertex": 0}]),
        json!([{"vertex": 7}, {"vertex": 6}]),
        json!([{"edge": [5, 7]}, {"edge": [4, 6]}]),
    ] {
        assert!(ok(q.clone(), json!({ "features": pair })), "{pair}");
    }
    // Wrong: vertex (−1, −1, −1) of a and (2, −1, −1) of b are 3 apart; a diagonal is no edge.
    let v = verdict(q.clone(), json!({"features": [{"vertex": 0}, {"vertex": 0}]}));
    assert_eq!(v["ok"], false);
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("9"), "{v}");
    let v = verdict(q.clone(), json!({"features": [{"edge": [0, 7]}, {"vertex": 0}]}));
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("not a feature of a"), "{v}");
    // Points: off the shape, or not realising the distance.
    let v = verdict(q.clone(), json!({"points": [[1.5, 0, 0], [2, 0, 0]]}));
    assert_eq!((check(&v, "points/0")["ok"].clone(), check(&v, "points/1")["ok"].clone()), (json!(false), json!(true)));
    let v = verdict(q.clone(), json!({"points": [[1, 0, 0], [2.5, 0, 0]]}));
    assert_eq!((check(&v, "points/1")["ok"].clone(), check(&v, "points")["ok"].clone()), (json!(true), json!(false)));
    // Overlapping cubes: an engine that reports touching (distance 0) is wrong on the status.
    let overlap = json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [1, 0, 0]}});
    let v = verdict(overlap, json!({"status": "touching", "distance": 0}));
    assert_eq!(
        (check(&v, "status")["exact"].clone(), check(&v, "distance")["ok"].clone()),
        (json!("penetrating"), json!(true))
    );
    // A triangulated cube (merged into the cube for V-Clip): the diagonal [1, 7] of its face
    // x = 1 is an edge of the mesh and realises the distance 1 to b's face x = 2; the diagonal
    // [0, 6] of its face x = −1 is an edge too, 3 away (found by the audit: mesh edges that
    // are no edge of the merged solid were refused as "not a feature").
    let tri = json!({"op": "distance", "a": {"polyhedron": {"vertices": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]], "faces": [[0,2,3],[0,3,1],[4,5,7],[4,7,6],[0,1,5],[0,5,4],[2,6,7],[2,7,3],[0,4,6],[0,6,2],[1,3,7],[1,7,5]]}}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 0, 0]}});
    assert!(ok(tri.clone(), json!({"features": [{"edge": [1, 7]}, {"face": [0, 2, 4, 6]}]})));
    assert!(ok(tri.clone(), json!({"features": [{"face": [1, 3, 7]}, {"vertex": 0}]})));
    let v = verdict(tri.clone(), json!({"features": [{"edge": [0, 6]}, {"face": [0, 2, 4, 6]}]}));
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("are 9 apart"), "{v}");
    let v = verdict(tri, json!({"features": [{"edge": [0, 7]}, {"face": [0, 2, 4, 6]}]}));
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("not a feature of a"), "{v}");
}

#[test]
fn ccd_claims() {
    // Edges at heights 2 − 4t cross the fixed edge at t = 1/2.
    let q = json!({"op": "ccd", "kind": "edge_edge",
        "t0": [[-1, 0, 2], [1, 0, 2], [0, -1, 0], [0, 1, 0]], "t1": [[-1, 0, -2], [1, 0, -2], [0, -1, 0], [0, 1, 0]]});
    assert!(ok(q.clone(), json!({"collides": true, "toi": 0.5})));
    assert!(ok(q.clone(), json!({"toi": 0.5000000009})));
    assert!(!ok(q.clone(), json!({"toi": 0.500000002})));
    assert!(!ok(q.clone(), json!({"collides": false})));
    // Our own output is a valid claim.
    let own = ask(q.clone());
    assert!(ok(q.clone(), json!({"toi": own["toi"]})));
    // A time claimed twice must be one number (found by the audit: {"decimal": "0.5", "f64": 0.7}
    // passed on its decimal).
    assert!(ok(q.clone(), json!({"toi": {"f64": 0.5}})));
    let mut two = q.clone();
    two["claim"] = json!({"toi": {"decimal": "0.5", "f64": 0.7}});
    assert_eq!(ask(two)["error"]["at"], "/claim/toi");
    let mut extra = q;
    extra["claim"] = json!({"toi": {"decimal": "0.5", "digits": 3}});
    assert_eq!(ask(extra)["error"]["at"], "/claim/toi/digits");
    // An irrational time 1/√2 (a tilting face): the nearest double passes the default
    // tolerance, and a zero tolerance fails every rational claim, decided exactly.
    let r = json!({"op": "ccd", "kind": "vertex_face",
        "t0": [["1/8", "1/8", "1/4"], [0, 0, 0], [1, 0, 0], [0, 1, 0]],
        "t1": [["1/8", "5/8", "3/8"], [0, 0, 0], [1, 0, 0], [0, 1, 1]]});
    assert!(ok(r.clone(), json!({"collides": true, "toi": std::f64::consts::FRAC_1_SQRT_2})));
    assert!(!ok(r.clone(), json!({"toi": "0.7071"})));
    let mut strict = r;
    strict["tolerance"] = json!({"abs": 0, "rel": 0});
    assert!(!ok(strict.clone(), json!({"toi": std::f64::consts::FRAC_1_SQRT_2})));
    // On the edge of a relative tolerance: |0.7 − 1/√2| = 0.00710678…, 1.0050…% of 1/√2.
    strict["tolerance"] = json!({"abs": 0, "rel": "0.0101"});
    assert!(ok(strict.clone(), json!({"toi": "0.7"})));
    strict["tolerance"] = json!({"abs": 0, "rel": "0.01"});
    assert!(!ok(strict, json!({"toi": "0.7"})));
}

#[test]
fn claims_name_only_output_fields_and_need_an_exact_backend() {
    let q = json!({"op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "claim": {"orientaton": "positive"}});
    let e = ask(q);
    assert_eq!((e["error"]["kind"].clone(), e["error"]["at"].clone()), (json!("unknown"), json!("/claim/orientaton")));
    let q = json!({"op": "orient3d", "backend": "f64", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "claim": {"orientation": "positive"}});
    let e = ask(q);
    assert_eq!((e["error"]["kind"].clone(), e["error"]["at"].clone()), (json!("invalid"), json!("/claim")));
    // With "both", the verdict is the exact one's.
    let q = json!({"op": "orient3d", "backend": "both", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "claim": {"orientation": "positive"}});
    let a = ask(q);
    assert_eq!((a["verdict"]["ok"].clone(), a["agreement"]["agree"].clone()), (json!(true), json!(true)));
    let bad = json!({"op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "claim": {"orientation": "up"}});
    assert_eq!(ask(bad)["error"]["at"], "/claim/orientation");
    let neg =
        json!({"op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "claim": {}, "tolerance": {"abs": -1}});
    assert_eq!(ask(neg)["error"]["at"], "/tolerance/abs");
    // A claimed null (an engine's NaN) is refused, not passed vacuously (found by the audit:
    // {"collides": null, "toi": null} got ok: true with no checks).
    let ccd = json!({"op": "ccd", "kind": "vertex_face", "t0": [[0,0,1],[0,0,0],[1,0,0],[0,1,0]], "t1": [[0,0,-1],[0,0,0],[1,0,0],[0,1,0]], "claim": {"collides": null, "toi": null}});
    let e = ask(ccd);
    assert_eq!(
        (e["error"]["kind"].clone(), e["error"]["at"].clone()),
        (json!("type"), json!("/claim/collides")),
        "{e}"
    );
    let d = json!({"op": "distance", "a": {"box": [1,1,1]}, "b": {"box": [1,1,1]}, "pose_b": {"translation": [3,0,0]}, "claim": {"distance": null}});
    assert_eq!(ask(d)["error"]["at"], "/claim/distance");
}

#[test]
fn toi_boxes_claims() {
    // a: the cube [−1, 1]³, still; b: the same cube, centre (5 − 4t, 1/2, 1/2). Face on face at
    // t = 3/4, reported as a's face x = 1 on b's vertex 0 = (1, −1/2, −1/2).
    let id = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let zero = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let b0 = json!([[1, 0, 0, 5], [0, 1, 0, "1/2"], [0, 0, 1, "1/2"], [0, 0, 0, 1]]);
    let b1 = json!([[0, 0, 0, -4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let q = json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [b0, b1, zero]});
    assert!(ok(
        q.clone(),
        json!({"collides": true, "toi": 0.75, "kind": "face-vertex", "features": [{"face": [1, 3, 5, 7]}, {"vertex": 0}]})
    ));
    // Ties: a's vertex 7 = (1, 1, 1) lies in b's face x = −1; a's edge [5, 7] crosses b's edge
    // [0, 4]; the two faces touch.
    let v = verdict(q.clone(), json!({"kind": "vertex-face", "features": [{"vertex": 7}, {"face": [0, 2, 4, 6]}]}));
    assert_eq!(v["ok"], true, "{v}");
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("tie"));
    assert!(ok(q.clone(), json!({"kind": "edge-edge", "features": [{"edge": [5, 7]}, {"edge": [0, 4]}]})));
    assert!(ok(q.clone(), json!({"features": [{"face": [1, 3, 5, 7]}, {"face": [0, 2, 4, 6]}]})));
    assert!(ok(q.clone(), json!({"kind": "vertex-face"})));
    // Wrong: a pair that is apart, a pair of the wrong kind, a late time, no collision.
    let v = verdict(q.clone(), json!({"features": [{"vertex": 0}, {"vertex": 7}]}));
    assert!(check(&v, "features")["note"].as_str().unwrap().contains("do not touch"), "{v}");
    let v = verdict(q.clone(), json!({"kind": "edge-edge", "features": [{"vertex": 7}, {"face": [0, 2, 4, 6]}]}));
    assert_eq!((check(&v, "kind")["ok"].clone(), check(&v, "features")["ok"].clone()), (json!(false), json!(true)));
    assert!(!ok(q.clone(), json!({"toi": 0.8})));
    assert!(!ok(q.clone(), json!({"collides": false})));
    assert!(!ok(q.clone(), json!({"features": [{"edge": [0, 7]}, {"vertex": 0}]})));
    // The f64 answer (the same sweep over binary64) is judged right, features included.
    let mut f = q.clone();
    f["backend"] = json!("f64");
    let fast = ask(f);
    assert!(ok(q.clone(), json!({"toi": fast["toi"], "kind": fast["kind"], "features": fast["features"]})));
    // Overlapping at t0: no pair touches, so a claimed pair fails.
    let o = json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [id, zero, zero]});
    let v =
        verdict(o.clone(), json!({"at_start": "overlapping", "toi": 0, "features": [{"vertex": 0}, {"vertex": 0}]}));
    assert_eq!(
        (check(&v, "at_start")["ok"].clone(), check(&v, "toi")["ok"].clone(), check(&v, "features")["ok"].clone()),
        (json!(true), json!(true), json!(false))
    );
}

#[test]
fn intersecting_claims() {
    // Unit cubes (half extents 1) at x = 3, 2 (touching face on face), 1 (penetrating), and
    // x = 2 + 2⁻⁵² (apart by one ulp of 2): closed shapes intersect when they touch.
    let at = |x: &str| json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [x, 0, 0]}});
    for (x, meets) in [("3", false), ("2", true), ("1", true), ("9007199254740993/4503599627370496", false)] {
        assert!(ok(at(x), json!({"intersecting": meets})), "x = {x}");
        assert!(!ok(at(x), json!({"intersecting": !meets})), "x = {x}");
        let v = verdict(at(x), json!({"intersecting": !meets}));
        assert_eq!(check(&v, "intersecting")["exact"], json!(meets));
    }
    // Edge on edge (b moved by (2, 2, 0)) and vertex on vertex ((2, 2, 2)): touching, so true.
    for t in [[2, 2, 0], [2, 2, 2]] {
        let q =
            json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": t}});
        assert!(ok(q, json!({"intersecting": true, "status": "touching"})));
    }
}

/// Each op's claim table reads what it writes: a claim stating every claimable field of the op
/// (in the table's order, in the form the oracle writes) is parsed and written back unchanged,
/// so a field's reader and writer cannot drift apart, and no field is left out of the table.
#[test]
fn every_claim_table_writes_back_what_it_reads() {
    use num_rational::BigRational as Q;
    use touchstone::query as q;
    use touchstone_oracle::input::Fields;
    use touchstone_oracle::ops::OpJson;

    fn round_trip<O: OpJson>(claim: Value) {
        let text = claim.to_string();
        let json = touchstone_oracle::json::parse_line(&text).unwrap();
        let fields = Fields::of(&json, "/claim", "a claim").unwrap();
        let parsed = O::parse_claim(&fields).unwrap_or_else(|e| panic!("{}: {text}: {e:?}", O::OP));
        assert_eq!(O::write_claim(&parsed).into_value(), claim, "{}", O::OP);
        let keys: Vec<&str> = claim.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, O::claim_fields(), "{}: every claimable field, in the table's order", O::OP);
    }
    let features = json!([{"face": [0, 1, 2, 3]}, {"edge": [1, 5]}]);
    round_trip::<q::Orient3d<Q>>(json!({"orientation": "coplanar", "determinant": "-1/3"}));
    round_trip::<q::Orient2d<Q>>(json!({"orientation": "collinear", "determinant": "0"}));
    round_trip::<q::SideOfPlane<Q>>(json!({"side": "below", "value": "7/2"}));
    round_trip::<q::TransformPoints<Q>>(json!({"points": [["1", "2", "3"], ["-1/2", "0", "5"]]}));
    round_trip::<q::SquaredDistance<Q>>(json!({"distance_squared": "2", "distance": "7/5", "parameter": "1/2"}));
    round_trip::<q::SegmentPlane<Q>>(json!({"intersection": "crosses", "t": "1/4"}));
    round_trip::<q::Validate<Q>>(
        json!({"valid": true, "vertices": 8, "edges": 12, "faces": 6, "convex": true, "euler": 2}),
    );
    round_trip::<q::Distance<Q>>(json!({
        "status": "separated", "intersecting": false, "distance_squared": "1/4", "distance": "1/2",
        "features": features, "points": [["0", "0", "1"], ["0", "0", "3/2"]], "depth_squared": "0",
    }));
    round_trip::<q::Ccd<Q>>(json!({"collides": true, "toi": "3/8"}));
    round_trip::<q::ToiBoxes<Q>>(json!({
        "collides": true, "toi": {"decimal": "1.2"}, "at_start": "touching", "kind": "edge-edge",
        "features": features,
    }));
    round_trip::<q::Toi<Q>>(json!({"collides": true, "toi": "0", "at_start": "overlapping", "features": features}));
    round_trip::<q::ClassifyPoint<Q>>(json!({"class": "boundary", "contains": true, "feature": {"vertex": 3}}));
    round_trip::<q::ClassifySegment<Q>>(json!({"pieces": [
        {"class": "outside", "from": "0", "to": "1/3"},
        {"class": "boundary", "feature": {"face": [0, 1, 2]}, "from": "1/3", "to": "1/2"},
    ]}));
    round_trip::<q::IndexStats<Q>>(json!({"nodes": 11, "height": 4, "average_height": "7/3"}));
    round_trip::<q::Contact<Q>>(json!({"status": "touching", "regions": [
        {"a": {"face": [4, 5, 6, 7]}, "b": {"face": [0, 1, 2, 3]}, "points": [["0", "0", "1"]], "normals": [["0", "0", "-1"]]},
    ]}));
}

/// The two tables of a claim field name the same fields: the oracle's (how a field is read and
/// written) and the library's (how it is judged), each row named by the claim's member.
#[test]
fn the_claim_tables_name_the_same_fields() {
    for info in touchstone_oracle::ops::ops().into_iter().filter(|o| o.answered()) {
        let (mut read, mut judged) = ((info.claim_fields)(), (info.judged_fields)());
        assert!(!read.is_empty(), "{}: no claimable field", info.name);
        read.sort_unstable();
        judged.sort_unstable();
        assert_eq!(read, judged, "{}: the oracle reads these fields, the library judges those", info.name);
    }
}

/// The two layers of a claim field agree: every field the oracle's claim table reads, the
/// library's judge judges. A claim stating every claimable field of each op (right or wrong)
/// gets a verdict with a check on each of them.
#[test]
fn every_claimable_field_is_judged() {
    let features = json!([{"face": [4, 5, 6, 7]}, {"face": [0, 1, 2, 3]}]);
    let unit = json!({"box": [1, 1, 1]});
    let cases = [
        (
            json!({"op": "orient3d", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}),
            json!({"orientation": "positive", "determinant": "1"}),
        ),
        (
            json!({"op": "orient2d", "points": [[0, 0], [1, 0], [0, 1]]}),
            json!({"orientation": "positive", "determinant": "1"}),
        ),
        (
            json!({"op": "side_of_plane", "plane": {"coefficients": [0, 0, 1, 0]}, "point": [0, 0, 2]}),
            json!({"side": "above", "value": "2"}),
        ),
        (
            json!({"op": "transform_points", "pose": {"translation": [1, 0, 0]}, "points": [[0, 0, 0]]}),
            json!({"points": [["1", "0", "0"]]}),
        ),
        (
            json!({"op": "squared_distance", "point": [1, 1, 0], "to_segment": [[0, 0, 0], [2, 0, 0]]}),
            json!({"distance_squared": "1", "distance": "1", "parameter": "1/2"}),
        ),
        (
            json!({"op": "segment_plane", "segment": [[0, 0, -1], [0, 0, 1]], "plane": {"coefficients": [0, 0, 1, 0]}}),
            json!({"intersection": "crosses", "t": "1/2"}),
        ),
        (
            json!({"op": "validate", "solid": unit}),
            json!({"valid": true, "vertices": 8, "edges": 12, "faces": 6, "convex": true, "euler": 2}),
        ),
        (
            json!({"op": "distance", "a": unit, "b": unit, "pose_b": {"translation": [0, 0, 3]}}),
            json!({"status": "separated", "intersecting": false, "distance_squared": "1", "distance": "1",
                "features": features, "points": [["0", "0", "1"], ["0", "0", "2"]], "depth_squared": "0"}),
        ),
        (
            json!({"op": "ccd", "kind": "vertex_face", "t0": [[0, 0, 1], [-1, -1, 0], [1, -1, 0], [0, 1, 0]],
                "t1": [[0, 0, -1], [-1, -1, 0], [1, -1, 0], [0, 1, 0]]}),
            json!({"collides": true, "toi": "1/2"}),
        ),
        (
            json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1],
                "motion_a": [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]],
                "motion_b": [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 3], [0, 0, 0, 1]], [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, -2], [0, 0, 0, 0]], [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]}),
            json!({"collides": true, "toi": "1/2", "at_start": "touching", "kind": "edge-edge", "features": features}),
        ),
        (
            json!({"op": "toi", "a": unit, "b": unit, "pose_b": {"translation": [0, 0, 3]}, "velocity_b": [0, 0, -2]}),
            json!({"collides": true, "toi": "1/2", "at_start": "touching", "features": features}),
        ),
        (
            json!({"op": "classify_point", "solid": unit, "point": [0, 0, 1]}),
            json!({"class": "boundary", "contains": true, "feature": {"face": [4, 5, 6, 7]}}),
        ),
        (
            json!({"op": "classify_segment", "solid": unit, "segment": [[0, 0, 0], [0, 0, 3]]}),
            json!({"pieces": [{"class": "inside", "from": "0", "to": "1/3"}]}),
        ),
        (json!({"op": "index_stats", "solid": unit}), json!({"nodes": 6, "height": 6, "average_height": "6"})),
        (
            json!({"op": "contact", "a": unit, "b": unit, "pose_b": {"translation": [0, 0, 2]}}),
            json!({"status": "touching", "regions": [{"a": {"face": [4, 5, 6, 7]}, "b": {"face": [0, 1, 2, 3]}}]}),
        ),
        (
            json!({"op": "contact_forces", "bodies": [{"mass": 1, "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, {"fixed": true}],
                "gravity": [0, 0, -10], "contacts": [{"a": 0, "b": 1, "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 1}]}),
            json!({"forces": [[0, 0, 10]], "states": ["static"]}),
        ),
    ];
    let table = touchstone_oracle::ops::ops();
    let mut ops_seen = Vec::new();
    for (q, claim) in cases {
        let op = q["op"].as_str().unwrap().to_string();
        let v = verdict(q, claim.clone());
        let judged: Vec<&str> = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["field"].as_str().unwrap().split('/').next().unwrap())
            .collect();
        for key in claim.as_object().unwrap().keys() {
            assert!(judged.contains(&key.as_str()), "{op}: the claimed {key} is read but not judged: {v}");
        }
        let info = table.iter().find(|o| o.name == op).unwrap();
        assert_eq!(
            claim.as_object().unwrap().keys().map(String::as_str).collect::<Vec<_>>(),
            (info.claim_fields)(),
            "{op}: the claim states every claimable field"
        );
        ops_seen.push(op);
    }
    // Every answered op is covered.
    for o in table.iter().filter(|o| o.answered()) {
        assert!(ops_seen.iter().any(|s| s == o.name), "{} has no case here", o.name);
    }
}
