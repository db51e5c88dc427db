//! Exact answers through the JSON format, checked against values computed by hand.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

#[test]
fn json_numbers_are_binary64_and_strings_are_exact() {
    // 0.1 as a JSON number is the double nearest 1/10; as a string it is 1/10. The point
    // (0.1, 0.2, 0.3) is collinear with 0 and (1, 2, 3) only in the exact reading. The
    // determinant is 2·0.3 − 3·0.2 in doubles: −2⁻⁵⁴ (checked with Python's fractions).
    let exact = ask(json!({"op": "orient3d", "points": [[0,0,0],[1,2,3],["0.1","0.2","0.3"],[1,0,0]]}));
    assert_eq!(exact["orientation"], "coplanar");
    let doubles = ask(json!({"op": "orient3d", "points": [[0,0,0],[1,2,3],[0.1,0.2,0.3],[1,0,0]]}));
    assert_eq!(doubles["orientation"], "negative");
    assert_eq!(doubles["determinant"], "-1/18014398509481984");
}

#[test]
fn exact_outputs_are_lowest_terms_strings() {
    let a = ask(
        json!({"op": "transform_points", "pose": {"quaternion": [1, 2, 3, 4], "translation": [1, 0, 0]}, "points": [[1, 0, 0]]}),
    );
    // R(1,2,3,4)·e_x = (-20, 20, 10)/30, plus (1, 0, 0).
    assert_eq!(a["points"], json!([["1/3", "2/3", "1/3"]]));
    let inv = ask(
        json!({"op": "transform_points", "pose": {"quaternion": [1, 2, 3, 4], "translation": [1, 0, 0]}, "points": [["1/3", "2/3", "1/3"]], "inverse": true}),
    );
    assert_eq!(inv["points"], json!([["1", "0", "0"]]));
    let m = ask(
        json!({"op": "transform_points", "pose": {"matrix": [[2,0,0,1],[0,3,0,0],[0,0,4,0]]}, "points": [[1, 1, 1]], "inverse": true}),
    );
    assert_eq!(m["points"], json!([["0", "1/3", "1/4"]]));
}

#[test]
fn squared_distances_and_decimals() {
    let d = ask(
        json!({"op": "squared_distance", "point": [1, 1, 1], "to_plane": {"coefficients": [1, 1, 1, -1]}, "digits": 10}),
    );
    assert_eq!(d["distance_squared"], "4/3");
    assert_eq!(d["distance"], "1.154700538");
    let s = ask(json!({"op": "squared_distance", "point": [1, 1, 0], "to_segment": [[0, 0, 0], [2, 0, 0]]}));
    assert_eq!((s["distance_squared"].clone(), s["parameter"].clone()), (json!("1"), json!("1/2")));
    let p =
        ask(json!({"op": "squared_distance", "point": [0, 0, 0], "to_plane": {"points": [[1,0,0],[0,1,0],[0,0,1]]}}));
    assert_eq!(p["distance_squared"], "1/3");
    let e = ask(
        json!({"op": "squared_distance", "point": [0, 0, 0], "to_point": [1, 1, 1], "to_plane": {"coefficients": [1, 0, 0, 0]}}),
    );
    assert_eq!(e["error"]["kind"], "type");
}

#[test]
fn segment_plane_crossings() {
    let q = |seg: Value| ask(json!({"op": "segment_plane", "segment": seg, "plane": {"coefficients": [0, 0, 3, -3]}}));
    let c = q(json!([[0, 0, 0], [0, 0, 3]]));
    assert_eq!((c["intersection"].clone(), c["t"].clone()), (json!("crosses"), json!("1/3")));
    assert_eq!(q(json!([[0, 0, 1], [5, 5, 1]]))["intersection"], "contained");
    assert_eq!(q(json!([[0, 0, 2], [5, 5, 3]]))["intersection"], "disjoint");
    assert_eq!(q(json!([[0, 0, 0], [5, 5, 1]]))["t"], "1");
}

#[test]
fn side_of_plane_by_points_decides_on_the_points() {
    let a = ask(
        json!({"op": "side_of_plane", "plane": {"points": [[0,0,0],[1,0,0],[0,1,0]]}, "point": [5, 5, "-1/1000000000000000000000000"]}),
    );
    assert_eq!(a["side"], "below");
    let collinear =
        ask(json!({"op": "side_of_plane", "plane": {"points": [[0,0,0],[1,1,1],[2,2,2]]}, "point": [0, 0, 1]}));
    assert_eq!(collinear["error"]["kind"], "invalid");
    assert_eq!(collinear["error"]["at"], "/plane/points");
}

#[test]
fn both_reports_f64_and_agreement() {
    let a = ask(json!({"op": "orient3d", "backend": "both", "points": [[0,0,0],[1,0,0],[0,1,0],[0.25,0.25,1e-300]]}));
    assert_eq!(a["orientation"], "positive");
    assert_eq!(a["f64"]["orientation"], "positive");
    assert_eq!(a["agreement"]["agree"], true);
    let f = ask(json!({"op": "orient3d", "backend": "f64", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,2]]}));
    assert_eq!(f["determinant"], json!(2.0));
    // An f64 answer that differs from the exact one, admitted because the margin is tiny.
    let near = ask(
        json!({"op": "orient3d", "backend": "both", "points": [[1,2,3],[4,-5,6],[-7,8,9],[0.5, 0.0, 6.000000000000028]]}),
    );
    assert_eq!(near["agreement"]["agree"], true, "{near}");
    assert_eq!(near["agreement"]["strict"], false, "{near}");
}

#[test]
fn planned_ops_check_their_input_first() {
    let bad = ask(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"sphere": 1}}));
    assert_eq!((bad["error"]["kind"].clone(), bad["error"]["at"].clone()), (json!("unknown"), json!("/b/sphere")));
    let bad = ask(
        json!({"op": "classify_point", "solid": {"polyhedron": {"vertices": [[0,0,0],[1,0,0],[0,1,0]], "faces": [[0,1,3]]}}, "point": [0,0,0]}),
    );
    assert_eq!(
        (bad["error"]["kind"].clone(), bad["error"]["at"].clone()),
        (json!("invalid"), json!("/solid/polyhedron/faces/0/2"))
    );
    let bad = ask(
        json!({"op": "toi_boxes", "a": [1,1,1], "b": [1,1,1], "motion_a": [[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]], "motion_b": []}),
    );
    assert_eq!((bad["error"]["kind"].clone(), bad["error"]["at"].clone()), (json!("type"), json!("/motion_a")));
    let bad = ask(
        json!({"op": "ccd", "kind": "vertex_face", "t0": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "t1": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "interval": [0, 1]}),
    );
    assert_eq!((bad["error"]["kind"].clone(), bad["error"]["at"].clone()), (json!("unknown"), json!("/interval")));
    let late = ask(json!({"op": "toi", "a": {"box": [1,1,1]}, "b": {"box": [1,1,1]}, "interval": [1, 0]}));
    assert_eq!((late["error"]["kind"].clone(), late["error"]["at"].clone()), (json!("invalid"), json!("/interval")));
    // `contact_forces` is answered now: no contacts, no forces.
    let ok = ask(json!({"op": "contact_forces", "bodies": [], "gravity": [0, 0, -1], "contacts": []}));
    assert_eq!(ok["forces"], json!([]), "{ok}");
    let bad = ask(json!({"op": "contact_forces", "bodies": [], "frobs": 1}));
    assert_eq!((bad["error"]["kind"].clone(), bad["error"]["at"].clone()), (json!("unknown"), json!("/frobs")));
    // `contact` is answered now: b turned a quarter about z, 3 along x: apart.
    let ok = ask(
        json!({"op": "contact", "a": {"box": [1, 1, 1]}, "b": {"box": ["1/2", 1, 1]}, "pose_b": {"translation": [3, 0, 0], "quaternion": [1, 0, 0, 1]}}),
    );
    assert_eq!(ok["status"], "separate", "{ok}");
}

#[test]
fn validate_reports_counts_or_the_defect() {
    let v = ask(json!({"op": "validate", "solid": {"box": [1, "1/2", 3]}}));
    assert_eq!(
        v,
        json!({"id": null, "valid": true, "vertices": 8, "edges": 12, "faces": 6, "convex": true, "euler": 2})
    );
    // The hull of a 3 × 3 × 3 grid is the cube: 8 of the 27 points, 6 merged faces.
    let grid: Vec<Value> = (0..27).map(|i| json!([i % 3, i / 3 % 3, i / 9])).collect();
    let h = ask(json!({"op": "validate", "backend": "both", "solid": {"convex_hull": grid}}));
    assert_eq!((h["vertices"].clone(), h["faces"].clone(), h["f64"]["faces"].clone()), (json!(8), json!(6), json!(6)));
    assert_eq!(h["agreement"]["agree"], true, "{h}");
    // A nonconvex L prism.
    let l = ask(json!({"op": "validate", "solid": {"polyhedron": {
        "vertices": [[0,0,0],[2,0,0],[2,1,0],[1,1,0],[1,2,0],[0,2,0],[0,0,1],[2,0,1],[2,1,1],[1,1,1],[1,2,1],[0,2,1]],
        "faces": [[5,4,3,2,1,0],[6,7,8,9,10,11],[0,1,7,6],[1,2,8,7],[2,3,9,8],[3,4,10,9],[4,5,11,10],[5,0,6,11]]}}}));
    assert_eq!((l["convex"].clone(), l["euler"].clone()), (json!(false), json!(2)));
    let tetra = |faces: Value| {
        ask(
            json!({"op": "validate", "solid": {"polyhedron": {"vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "faces": faces}}}),
        )
    };
    let e = tetra(json!([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]));
    assert_eq!(e["valid"], true);
    let e = tetra(json!([[0, 1, 2], [0, 1, 3], [0, 3, 2], [1, 2, 3]]));
    assert_eq!(
        (e["error"]["kind"].clone(), e["error"]["at"].clone()),
        (json!("invalid"), json!("/solid/polyhedron/faces/1"))
    );
    let e = tetra(json!([[1, 2, 0], [3, 1, 0], [2, 3, 0], [3, 2, 1]]));
    assert_eq!(e["error"]["at"], "/solid/polyhedron", "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("inside out"));
    let hull = ask(json!({"op": "validate", "solid": {"convex_hull": [[0,0,0],[1,0,0],[0,1,0],[3,4,0]]}}));
    assert_eq!(
        (hull["error"]["kind"].clone(), hull["error"]["at"].clone()),
        (json!("invalid"), json!("/solid/convex_hull"))
    );
    assert!(hull["error"]["message"].as_str().unwrap().contains("coplanar"));
}

#[test]
fn ccd_first_times() {
    // A vertex falling through a triangle at t = 1/4.
    let a = ask(json!({"op": "ccd", "kind": "vertex_face",
        "t0": [[0, 0, 1], [-1, -1, 0], [3, -1, 0], [-1, 3, 0]],
        "t1": [[0, 0, -3], [-1, -1, 0], [3, -1, 0], [-1, 3, 0]]}));
    assert_eq!(a["collides"], true);
    assert_eq!(a["toi"]["decimal"], "0.25");
    assert_eq!(a["toi"]["interval"], json!(["1/4", "1/4"]));
    // An irrational time 1/√2 (a tilting face): the enclosure is narrower than 10^-digits.
    let b = ask(json!({"op": "ccd", "kind": "vertex_face", "digits": 30,
        "t0": [["1/8", "1/8", "1/4"], [0, 0, 0], [1, 0, 0], [0, 1, 0]],
        "t1": [["1/8", "5/8", "3/8"], [0, 0, 0], [1, 0, 0], [0, 1, 1]]}));
    assert_eq!(b["toi"]["decimal"], "0.707106781186547524400844362104");
    assert_eq!(b["toi"]["poly"], json!(["-1/2", "0", "1"]));
    let lo = touchstone::scalar::parse_rational(b["toi"]["interval"][0].as_str().unwrap()).unwrap();
    let hi = touchstone::scalar::parse_rational(b["toi"]["interval"][1].as_str().unwrap()).unwrap();
    assert!(
        &lo * &lo < touchstone::scalar::parse_rational("1/2").unwrap()
            && &hi * &hi > touchstone::scalar::parse_rational("1/2").unwrap()
    );
    assert!(hi - lo < touchstone::scalar::parse_rational("1e-30").unwrap());
    // Missing, on both backends: they agree strictly (the edges pass 5 apart).
    let c = ask(json!({"op": "ccd", "kind": "edge_edge",
        "t0": [[-1, 5, 2], [1, 5, 2], [0, -1, 0], [0, 1, 0]], "t1": [[-1, 5, -2], [1, 5, -2], [0, -1, 0], [0, 1, 0]]}));
    assert_eq!(c, json!({"id": null, "collides": false}));
    let d = ask(json!({"op": "ccd", "kind": "edge_edge", "backend": "both",
        "t0": [[-1, 5, 2], [1, 5, 2], [0, -1, 0], [0, 1, 0]], "t1": [[-1, 5, -2], [1, 5, -2], [0, -1, 0], [0, 1, 0]]}));
    assert_eq!(d["f64"]["collides"], false);
    assert_eq!((d["agreement"]["agree"].clone(), d["agreement"]["strict"].clone()), (json!(true), json!(true)));
    // The margin of the CCD contract: far above the budget.
    assert!(d["agreement"]["margin"].as_str().is_some_and(|m| m.parse::<f64>().is_ok_and(|m| m > 1e-3)), "{d}");
    // Crossing at t = 1/2 (the edges at heights 2 − 4t meet the fixed edge): f64 finds 0.5.
    let e = ask(json!({"op": "ccd", "kind": "edge_edge", "backend": "f64",
        "t0": [[-1, 0, 2], [1, 0, 2], [0, -1, 0], [0, 1, 0]], "t1": [[-1, 0, -2], [1, 0, -2], [0, -1, 0], [0, 1, 0]]}));
    assert_eq!((e["collides"].clone(), e["toi"]["f64"].clone()), (json!(true), json!(0.5)));
}

#[test]
fn file_shapes_are_read_exactly_relative_to_the_query_file() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/meshes");
    let opts = Options { base_dir: Some(dir), ..Options::default() };
    let ask_in = |q: Value| answer_line(&q.to_string(), &opts);
    let v = ask_in(json!({"op": "validate", "solid": {"file": "cube.off"}}));
    assert_eq!(
        (v["vertices"].clone(), v["faces"].clone(), v["convex"].clone()),
        (json!(8), json!(6), json!(true)),
        "{v}"
    );
    // Binary64 reading of the same file, and an STL triangle soup welded into a tetrahedron.
    let b = ask_in(json!({"op": "validate", "solid": {"file": "cube.off", "numbers": "binary64"}}));
    assert_eq!(b["valid"], true);
    let t = ask_in(json!({"op": "validate", "solid": {"file": "tetra_ascii.stl"}}));
    assert_eq!((t["vertices"].clone(), t["faces"].clone()), (json!(4), json!(4)), "{t}");
    // Errors: a missing file, an unknown number mode, a file with a defect.
    let m = ask_in(json!({"op": "validate", "solid": {"file": "nope.off"}}));
    assert_eq!((m["error"]["kind"].clone(), m["error"]["at"].clone()), (json!("invalid"), json!("/solid/file")));
    assert!(m["error"]["message"].as_str().unwrap().contains("nope.off"));
    let u = ask_in(json!({"op": "validate", "solid": {"file": "cube.off", "numbers": "decimal"}}));
    assert_eq!((u["error"]["kind"].clone(), u["error"]["at"].clone()), (json!("unknown"), json!("/solid/numbers")));
    let examples = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let bent = answer_line(
        &json!({"op": "validate", "solid": {"file": "bent-cube.off"}}).to_string(),
        &Options { base_dir: Some(examples), ..Options::default() },
    );
    assert_eq!(bent["error"]["kind"], "invalid", "{bent}");
    let msg = bent["error"]["message"].as_str().unwrap();
    assert!(msg.contains("bent-cube.off") && msg.contains("face 1 is not planar"), "{msg}");
}

#[test]
fn toi_boxes_first_contacts() {
    let id = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let zero = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    // B's centre x = 5 − 4t: contact at t = 3/4, a face of a against b.
    let b0 = json!([[1, 0, 0, 5], [0, 1, 0, "1/2"], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let b1 = json!([[0, 0, 0, -4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let a = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [b0, b1, zero], "interval": [0, 1]}),
    );
    // Face on face, reported as a's face x = +1 (ids 1, 3, 5, 7) on b's vertex (−1, −1, −1)
    // (id 0), which is at (1, −1/2, −1), inside the face.
    assert_eq!(
        (a["collides"].clone(), a["toi"]["decimal"].clone(), a["kind"].clone(), a["features"].clone()),
        (json!(true), json!("0.75"), json!("face-vertex"), json!([{"face": [1, 3, 5, 7]}, {"vertex": 0}])),
        "{a}"
    );
    assert!(a.get("at_start").is_none());
    // On both backends: f64 (the same box sweep over binary64) finds 0.75 and the same pair,
    // and the margin is large (the y and z overlaps): a strict agreement.
    let both = ask(
        json!({"op": "toi_boxes", "backend": "both", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [b0, b1, zero], "interval": [0, 1]}),
    );
    assert_eq!(
        (both["f64"]["toi"]["f64"].clone(), both["f64"]["kind"].clone(), both["f64"]["features"].clone()),
        (json!(0.75), json!("face-vertex"), json!([{"face": [1, 3, 5, 7]}, {"vertex": 0}]))
    );
    assert_eq!((both["agreement"]["agree"].clone(), both["agreement"]["strict"].clone()), (json!(true), json!(true)));
    assert_eq!(both["agreement"]["margin"], "0.428571");
    // x(t) = 23/5 − t²: t = √(13/5).
    let q0 = json!([[1, 0, 0, "23/5"], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let q2 = json!([[0, 0, 0, -1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let b = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [q0, zero, q2], "interval": [0, 2]}),
    );
    assert_eq!(b["toi"]["decimal"], "1.6124515496597099304");
    assert_eq!(b["toi"]["poly"], json!(["-13/5", "0", "1"]));
    assert_eq!(b["features"], json!([{"face": [1, 3, 5, 7]}, {"vertex": 0}]));
    // A graze at t = √2, a double root: a's centre x = −t², b's (6 − 3t²)/(1 + t²) (a pure
    // translation written with the weight 1 + t²); the x gap is (t² − 2)²/(1 + t²). Exact says
    // it touches; f64 may say either, so on both backends the agreement is not strict.
    let g0 = json!([[1, 0, 0, 6], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let g2 = json!([[1, 0, 0, -3], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let a2 = json!([[0, 0, 0, -1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let g = ask(
        json!({"op": "toi_boxes", "backend": "both", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, a2], "motion_b": [g0, zero, g2], "interval": [0, 2]}),
    );
    assert_eq!(
        (g["toi"]["poly"].clone(), g["toi"]["decimal"].clone()),
        (json!(["-2", "0", "1"]), json!("1.4142135623730950488"))
    );
    // A graze: margin 0, so f64 need only be valid within tolerance (it finds the same time).
    assert_eq!(
        (g["agreement"]["agree"].clone(), g["agreement"]["strict"].clone(), g["agreement"]["margin"].clone()),
        (json!(true), json!(false), json!("0")),
        "{g}"
    );
    // Overlapping at t0.
    let c = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [id, zero, zero]}),
    );
    assert_eq!((c["toi"]["decimal"].clone(), c["at_start"].clone()), (json!("0"), json!("overlapping")));
    assert!(c.get("kind").is_none() && c.get("features").is_none(), "{c}");
    // Touching at t0 (centre (2 + t, 0, 0)): the touching pair is reported.
    let away0 = json!([[1, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let away1 = json!([[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let t = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [away0, away1, zero]}),
    );
    assert_eq!(
        (t["toi"]["decimal"].clone(), t["at_start"].clone(), t["kind"].clone(), t["features"].clone()),
        (json!("0"), json!("touching"), json!("face-vertex"), json!([{"face": [1, 3, 5, 7]}, {"vertex": 0}]))
    );
    // Vertex–face: b (half 1/10 × 2 × 1) spins about (5/2, 0, 0) by the quaternion (1, 0, 0, t);
    // at t = 1/2 (cos 3/5, sin 4/5) its face x' = −1/10 (ids 0, 2, 4, 6) holds a's vertex
    // (1, 1, −1) (id 3): (3/5)(1 − 5/2) + (4/5)(1) = −1/10, at y' = 9/5 ≤ 2.
    let s0 = json!([[1, 0, 0, "5/2"], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let s1 = json!([[0, -2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let s2 = json!([[-1, 0, 0, "5/2"], [0, -1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let v = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": ["1/10", 2, 1], "motion_a": [id, zero, zero], "motion_b": [s0, s1, s2]}),
    );
    assert_eq!(
        (v["toi"]["decimal"].clone(), v["kind"].clone(), v["features"].clone()),
        (json!("0.5"), json!("vertex-face"), json!([{"vertex": 3}, {"face": [0, 2, 4, 6]}])),
        "{v}"
    );
    // Edge–edge: b turned by (1/7)[[3, 2, 6], [2, 6, −3], [−6, 3, 2]], centre (5 − 4t, 0, 1); at
    // t = 5/8 its edge (ids 0, 1) passes through (1, −2/3, 1) on a's edge x = 1, z = 1 (ids 5, 7).
    let e0 = json!([["3/7", "2/7", "6/7", 5], ["2/7", "6/7", "-3/7", 0], ["-6/7", "3/7", "2/7", 1], [0, 0, 0, 1]]);
    let e = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [e0, b1, zero]}),
    );
    assert_eq!(
        (e["toi"]["decimal"].clone(), e["kind"].clone(), e["features"].clone()),
        (json!("0.625"), json!("edge-edge"), json!([{"edge": [5, 7]}, {"edge": [0, 1]}])),
        "{e}"
    );
    // A singular motion (scale 1 − 2t) is reported at the motion.
    let s1 = json!([[-2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let d = ask(
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [id, s1, zero]}),
    );
    assert_eq!((d["error"]["kind"].clone(), d["error"]["at"].clone()), (json!("invalid"), json!("/motion_b")));
}

#[test]
fn distances_between_convex_shapes() {
    let d = |q: Value| ask(q);
    // The second box, turned 90° about z, spans x ∈ [2, 4]: one unit from x = 1.
    let r = d(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": ["1/2", 1, 1]},
        "pose_b": {"translation": [3, 0, 0], "quaternion": [1, 0, 0, 1]}}));
    assert_eq!(
        (r["status"].clone(), r["distance_squared"].clone(), r["distance"].clone()),
        (json!("separated"), json!("1"), json!("1"))
    );
    // Diagonal neighbours: the vertical edges x = y = 1 and x = y = 2, √2 apart.
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 3, 0]}, "digits": 10}),
    );
    assert_eq!((r["distance_squared"].clone(), r["distance"].clone()), (json!("2"), json!("1.414213562")));
    let [pa, pb] = [&r["points"][0], &r["points"][1]];
    assert_eq!((&pa[0], &pa[1], &pb[0], &pb[1]), (&json!("1"), &json!("1"), &json!("2"), &json!("2")));
    // Corner to corner: the tetrahedron's vertex 0 at (2, 2, 2), the box's vertex 7 at (1, 1, 1).
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"convex_hull": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],["1/10","1/10","1/10"]]},
        "pose_b": {"translation": [2, 2, 2]}}),
    );
    assert_eq!(r["distance_squared"], "3");
    assert_eq!(r["features"], json!([{"vertex": 7}, {"vertex": 0}]));
    // Face to face, touching over a square: status touching, distance 0.
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [2, "1/2", 0], "quaternion": [1, 0, 0, 1]}, "backend": "both"}),
    );
    assert_eq!((r["status"].clone(), r["distance_squared"].clone()), (json!("touching"), json!("0")));
    assert_eq!(r["f64"]["status"], "touching");
    assert_eq!(r["agreement"]["agree"], true);
    // Overlapping: penetrating, with a witness point common to both.
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [1, 1, 0]}}),
    );
    assert_eq!(r["status"], "penetrating");
    assert_eq!(r["points"][0], r["points"][1]);
    // A mirroring pose (negative determinant) is a pose: x ↦ 5 − x puts the box at [4, 6].
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"matrix": [[-1,0,0,5],[0,1,0,0],[0,0,1,0]]}}),
    );
    assert_eq!(r["distance_squared"], "9");
    // Coplanar faces (a vertex in the middle of a side) are merged: the face is named by all
    // its vertices, including the middle one (id 1 and 6 here).
    let prism = json!({"polyhedron": {"vertices": [[0,0,0],[1,0,0],[2,0,0],[2,2,0],[0,2,0],[0,0,1],[1,0,1],[2,0,1],[2,2,1],[0,2,1]],
        "faces": [[4,3,2,1,0],[5,6,7,8,9],[0,1,6,5],[1,2,7,6],[2,3,8,7],[3,4,9,8],[4,0,5,9]]}});
    let r = d(
        json!({"op": "distance", "a": prism, "b": {"convex_hull": [[0,0,0],[1,0,0],[0,1,0],[0,0,-1]]}, "pose_b": {"translation": ["1/2", -3, "1/2"], "quaternion": [1, 0, 0, 0]}}),
    );
    // The tetrahedron's vertex (1/2, -2, 1/2) faces the side y = 0 at distance 2.
    assert_eq!(r["distance_squared"], "4");
    assert_eq!(r["features"], json!([{"face": [0, 1, 2, 5, 6, 7]}, {"vertex": 2}]));
    // Non-convex shapes and singular poses are typed errors.
    let l = json!({"polyhedron": {"vertices": [[0,0,0],[2,0,0],[2,1,0],[1,1,0],[1,2,0],[0,2,0],[0,0,1],[2,0,1],[2,1,1],[1,1,1],[1,2,1],[0,2,1]],
        "faces": [[5,4,3,2,1,0],[6,7,8,9,10,11],[0,1,7,6],[1,2,8,7],[2,3,9,8],[3,4,10,9],[4,5,11,10],[5,0,6,11]]}});
    let r = d(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": l}));
    assert_eq!((r["error"]["kind"].clone(), r["error"]["at"].clone()), (json!("invalid"), json!("/b")));
    let r = d(
        json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"matrix": [[1,0,0,5],[0,1,0,0],[0,0,0,0]]}}),
    );
    assert_eq!((r["error"]["kind"].clone(), r["error"]["at"].clone()), (json!("invalid"), json!("/pose_b/matrix")));
}

#[test]
fn an_f64_overflow_is_a_typed_refusal_not_a_disagreement() {
    let q = json!({"op": "distance", "backend": "both", "a": {"box": [1e200, 1e200, 1e200]}, "b": {"box": [1e200, 1e200, 1e200]}, "pose_b": {"translation": [3e200, 0, 0]}});
    let a = ask(q.clone());
    assert_eq!(a["status"], "separated");
    assert_eq!(
        (a["f64"]["error"]["kind"].clone(), a["f64"]["error"]["at"].clone()),
        (json!("overflow"), json!("/backend"))
    );
    assert_eq!((a["agreement"]["agree"].clone(), a["agreement"]["strict"].clone()), (json!(true), json!(false)), "{a}");
    assert!(a["agreement"]["note"].as_str().unwrap().contains("overflowed"));
    let mut f = q;
    f["backend"] = json!("f64");
    assert_eq!(ask(f)["error"]["kind"], "overflow");
}

#[test]
fn an_f64_answer_is_never_a_silent_null() {
    // The squared distance to a plane through (−1e308, 0, 0) overflows in binary64.
    let q = json!({"op": "squared_distance", "backend": "both", "point": [1e308, 0, 0], "to_plane": {"points": [[-1e308, 0, 0], [-1e308, 1, 0], [-1e308, 0, 1]]}});
    let a = ask(q);
    assert_eq!(a["f64"]["error"]["kind"], "overflow", "{a}");
    assert_eq!(a["agreement"]["agree"], true, "{a}");
    assert!(a.to_string().matches("null").count() == 1, "only the id is null: {a}");
    // Nor an exact answer's nearest double: beyond the binary64 range the field is left out
    // (it was written as null).
    let big = json!({"op": "orient3d", "points": [[0,0,0],[1e300,0,0],[0,1e300,0],[0,0,1e300]]});
    let a = ask(big);
    assert_eq!(a["orientation"], "positive");
    assert!(a.get("determinant_f64").is_none() && a.to_string().matches("null").count() == 1, "{a}");
}

/// Found by the audit of the query layer: `f64` refused valid inputs that are within its
/// tolerance of degenerate ones (underflow, a far pose), and `both` called that a
/// disagreement at margins near 1.
#[test]
fn f64_refusals_within_its_tolerance_are_typed_and_agree() {
    // A hull through a point with subnormal coordinates: a face's planarity value underflowed
    // to −5e-324 against a magnitude of 8e-323; the tolerance now covers underflow absolutely.
    let hull = json!({"op": "validate", "backend": "both", "solid": {"convex_hull": [[-0.1,1.0000000000000002,2.220446049250313e-16],[-0.5,-5e-324,5e-324],[-1.1163180514477709,0.6666666666666666,-1.2301240959731439],[2.578574031535177,1.0,0.9999999999999998],[1.0,0.0,-2.7288758035496663],[-0.2,0.0,1.0]]}});
    let a = ask(hull);
    assert_eq!((a["faces"].clone(), a["f64"]["faces"].clone()), (json!(8), json!(8)), "{a}");
    assert_eq!(a["agreement"]["strict"], true, "{a}");
    // A plane normal whose squared length underflows: f64 cannot divide by it (overflow kind,
    // the range), not "the normal is zero" (invalid input).
    let plane = json!({"op": "squared_distance", "backend": "both", "point": [0,0,0], "to_plane": {"coefficients": [0,-5e-324,-5e-324,1.5]}});
    let a = ask(plane);
    assert_eq!(a["f64"]["error"]["kind"], "overflow", "{a}");
    assert_eq!(a["agreement"]["agree"], true, "{a}");
    // A unit box 10^15 away: f64 collapses a face. Not the user's fault (kind precision, at
    // the pose); admissible because the posed face's area is within the budget (margin 1e-15).
    let far = json!({"op": "distance", "backend": "both", "a": {"box": [1,1,1]}, "b": {"box": [1,1,1]}, "pose_b": {"translation": [1e15,0,0]}});
    let a = ask(far);
    assert_eq!(a["distance_squared"], "999999999999996000000000000004", "(10^15 − 2)²: {a}");
    assert_eq!(
        (a["f64"]["error"]["kind"].clone(), a["f64"]["error"]["at"].clone()),
        (json!("precision"), json!("/pose_b"))
    );
    assert_eq!((a["agreement"]["agree"].clone(), a["agreement"]["strict"].clone()), (json!(true), json!(false)), "{a}");
    // The volume test decides: 48 (six times the volume) over the fans' homogeneous
    // permanents, 12 tetrahedra of 4 · 10^15 · 6 each (the face areas give 4 over 4·10^15).
    assert_eq!(a["agreement"]["margin"], "1.66666e-16", "48 / 2.88·10^17: {a}");
    // An overflow while a plane is read points at the backend, like every other overflow (it
    // was "/plane/backend").
    for q in [
        json!({"op": "side_of_plane", "backend": "f64", "plane": {"points": [[0,0,0],[1e200,0,0],[0,1e200,0]]}, "point": [0,0,1]}),
        json!({"op": "segment_plane", "backend": "f64", "plane": {"points": [[0,0,0],[1e200,0,0],[0,1e200,0]]}, "segment": [[0,0,1],[0,0,-1]]}),
        json!({"op": "squared_distance", "backend": "f64", "point": [0,0,1], "to_plane": {"points": [[0,0,0],[1e200,0,0],[0,1e200,0]]}}),
    ] {
        let e = ask(q);
        assert_eq!(
            (e["error"]["kind"].clone(), e["error"]["at"].clone()),
            (json!("overflow"), json!("/backend")),
            "{e}"
        );
    }
}

/// Found by the attack on the tool: |q|² of the quaternion (1e-200, 1e-200, 0, 0) underflowed
/// in binary64, and f64 called it "zero". The rotation of q is that of any nonzero multiple,
/// so f64 scales q by a power of two first; (1, 1, 0, 0) is a half turn about x.
#[test]
fn f64_quaternions_of_any_scale() {
    for q in
        [json!([1e-200, 1e-200, 0, 0]), json!([1e200, 1e200, 0, 0]), json!([5e-324, 5e-324, 0, 0]), json!([3, 3, 0, 0])]
    {
        let a =
            ask(json!({"op": "transform_points", "backend": "both", "pose": {"quaternion": q}, "points": [[1, 1, 1]]}));
        assert_eq!(a["points"], json!([["1", "-1", "1"]]), "{a}");
        assert_eq!(a["f64"]["points"], json!([[1.0, -1.0, 1.0]]), "{a}");
        assert_eq!(a["agreement"]["strict"], true, "{a}");
    }
    let zero = ask(
        json!({"op": "transform_points", "backend": "f64", "pose": {"quaternion": [0, 0, 0, 0]}, "points": [[1, 1, 1]]}),
    );
    assert_eq!(zero["error"]["kind"], "invalid");
}

#[test]
fn toi_answers_linear_shape_casts_exactly() {
    // b turned by the exact rotation (2, 0, 0, 1) about z (extent 7/5 along x), 5 away,
    // closing at 4: gap 13/5, first contact at 13/20, a's face on b's edge.
    let a = ask(json!({"op": "toi", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"quaternion": [2, 0, 0, 1], "translation": [5, 0, 0]}, "velocity_b": [-4, 0, 0]}));
    assert_eq!((a["collides"].clone(), a["toi"]["decimal"].clone()), (json!(true), json!("0.65")));
    assert_eq!(a["toi"]["interval"], json!(["13/20", "13/20"]));
    // The answer's own pair and time pass as a claim; a time 1e-6 late does not.
    let claim = json!({"collides": true, "toi": "13/20", "features": a["features"].clone()});
    let judged = ask(json!({"op": "toi", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"quaternion": [2, 0, 0, 1], "translation": [5, 0, 0]}, "velocity_b": [-4, 0, 0], "claim": claim}));
    assert_eq!(judged["verdict"]["ok"], json!(true), "{judged}");
    let late = ask(json!({"op": "toi", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"quaternion": [2, 0, 0, 1], "translation": [5, 0, 0]}, "velocity_b": [-4, 0, 0], "claim": {"toi": 0.650001}}));
    assert_eq!(late["verdict"]["ok"], json!(false));
    // Zero relative velocity, overlapping (the case parry's cast_shapes never reports): a hit
    // at t0; on f64 and under the contract too.
    let still = ask(json!({"op": "toi", "backend": "both", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [1, 0, 0]}, "velocity_a": {"linear": [1, 1, 1]}, "velocity_b": [1, 1, 1]}));
    assert_eq!((still["collides"].clone(), still["at_start"].clone()), (json!(true), json!("overlapping")));
    assert_eq!(still["f64"]["toi"]["f64"], json!(0.0));
    assert_eq!(still["agreement"]["agree"], json!(true));
    // Rotation is not linear motion.
    let spin = ask(json!({"op": "toi", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "velocity_b": {"linear": [1, 0, 0], "angular": [0, 0, 1]}}));
    assert_eq!(
        (spin["error"]["kind"].clone(), spin["error"]["at"].clone()),
        (json!("unsupported"), json!("/velocity_b/angular"))
    );
}
