//! The float path is a float path: with `"backend": "f64"` numbers are read straight into
//! binary64, shapes and poses are built in binary64, and no exact rational is made (counted by
//! `touchstone::scalar::exact_values_made`, per thread; the oracle answers on the calling
//! thread).

use serde_json::{json, Value};
use touchstone::scalar::exact_values_made;
use touchstone_oracle::{answer_line, Options};

fn ask(q: &Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

fn queries() -> Vec<Value> {
    let id = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let zero = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let b0 = json!([[1, 0, 0, 5], [0, 1, 0, "0.5"], [0, 0, 1, "1/2"], [0, 0, 0, 1]]);
    let b1 = json!([[0, 0, 0, -4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    vec![
        json!({"op": "distance", "a": {"box": [1, 0.5, 2]}, "b": {"box": ["0.5", 1, "1/3"]},
               "pose_b": {"quaternion": [0.3, -0.2, 0.9, 0.1], "translation": [2.5, "-0.1", 0.7]}}),
        json!({"op": "distance", "a": {"convex_hull": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],[0.25,0.25,0.25]]}, "b": {"box": [1, 1, 1]},
               "pose_b": {"matrix": [[1, 0, 0, 3], [0, 2, 0, 0], [0, 0, 1, 0]]}}),
        json!({"op": "orient3d", "points": [[0,0,0],[1,2,3],["0.1","0.2","0.3"],[1,0,0]]}),
        json!({"op": "side_of_plane", "plane": {"points": [[0,0,0],[1,0,0],[0,1,0]]}, "point": [1, 1, "-1e-300"]}),
        json!({"op": "squared_distance", "point": [1, 1, 0], "to_segment": [[0, 0, 0], [2, 0, 0]]}),
        json!({"op": "transform_points", "pose": {"quaternion": [1, 2, 3, 4], "translation": [1, 0, 0]}, "points": [[1, 0, 0]], "inverse": true}),
        json!({"op": "segment_plane", "segment": [[0, 0, 0], [0, 0, 3]], "plane": {"coefficients": [0, 0, 3, -3]}}),
        json!({"op": "validate", "solid": {"convex_hull": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],[1,1,1]]}}),
        json!({"op": "ccd", "kind": "vertex_face", "t0": [[0, 0, 1], [-1, -1, 0], [3, -1, 0], [-1, 3, 0]], "t1": [[0, 0, -3], [-1, -1, 0], [3, -1, 0], [-1, 3, 0]]}),
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero], "motion_b": [b0, b1, zero]}),
    ]
}

#[test]
fn the_f64_backend_makes_no_exact_number() {
    for q in queries() {
        let mut fast = q.clone();
        fast["backend"] = json!("f64");
        let before = exact_values_made();
        let a = ask(&fast);
        assert!(a.get("error").is_none(), "{fast} -> {a}");
        assert_eq!(exact_values_made(), before, "the f64 path made exact numbers for {fast}");
        // The same query exactly does make them (so the counter can see them), and agrees.
        let exact = ask(&q);
        assert!(exact_values_made() > before, "{q}");
        let mut both = q.clone();
        both["backend"] = json!("both");
        assert_eq!(ask(&both)["agreement"]["agree"], true, "{both}");
        let _ = exact;
    }
}

#[test]
fn decimal_strings_are_rounded_correctly_on_the_float_path() {
    // "0.1" is the double nearest 1/10; "1/3" the double nearest 1/3; a fraction of large
    // integers the double nearest the quotient; JSON numbers as they denote.
    let t = |p: Value| {
        let q = json!({"op": "transform_points", "backend": "f64", "points": [[p, 0, 0]]});
        ask(&q)["points"][0][0].as_f64().unwrap()
    };
    assert_eq!(t(json!("0.1")), 0.1);
    assert_eq!(t(json!("1/3")), 1.0 / 3.0);
    assert_eq!(t(json!("-7/2")), -3.5);
    assert_eq!(t(json!("1e-400")), 0.0);
    assert_eq!(t(json!("12345678901234567890123/10000000000000000000000")), 1.2345678901234567);
    assert_eq!(t(json!(0.30000000000000004)), 0.30000000000000004);
    for bad in ["NaN", "inf", "1e400", "1/0", "0x10", ""] {
        let q = json!({"op": "transform_points", "backend": "f64", "points": [[bad, 0, 0]]});
        let a = ask(&q);
        assert_eq!(a["error"]["kind"], "number", "{bad}: {a}");
        assert_eq!(a["error"]["at"], "/points/0/0", "{bad}: {a}");
    }
}

/// File shapes too: on `f64` a mesh file's numbers are read straight into binary64 (found by
/// the attack on the tool: they were read as exact rationals and rounded, out of the counter's
/// sight); exactly, they are counted.
#[test]
fn file_shapes_on_the_float_path_make_no_exact_number() {
    let dir = std::env::temp_dir().join(format!("touchstone-float-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tetra = "OFF\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 0.1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
    std::fs::write(dir.join("t.off"), tetra).unwrap();
    std::fs::write(
        dir.join("t.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1/10\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n".replace("1/10", "0.1"),
    )
    .unwrap();
    let facet = |a: [&str; 3], b: [&str; 3], c: [&str; 3]| {
        format!(
            "facet normal 0 0 0\nouter loop\nvertex {}\nvertex {}\nvertex {}\nendloop\nendfacet\n",
            a.join(" "),
            b.join(" "),
            c.join(" ")
        )
    };
    let (p0, p1, p2, p3) = (["0", "0", "0"], ["1", "0", "0"], ["0", "1", "0"], ["0", "0", "0.1"]);
    let stl = format!(
        "solid t\n{}{}{}{}endsolid t\n",
        facet(p0, p2, p1),
        facet(p0, p1, p3),
        facet(p0, p3, p2),
        facet(p1, p2, p3)
    );
    std::fs::write(dir.join("t.stl"), stl).unwrap();
    let options = Options { base_dir: Some(dir.clone()), ..Options::default() };
    for file in ["t.off", "t.obj", "t.stl"] {
        for numbers in ["exact", "binary64"] {
            let q = json!({"op": "distance", "a": {"file": file, "numbers": numbers}, "b": {"box": [1, 1, 1]},
                           "pose_b": {"translation": [3, 0, 0]}});
            let mut fast = q.clone();
            fast["backend"] = json!("f64");
            let before = exact_values_made();
            let a = answer_line(&fast.to_string(), &options);
            assert_eq!(exact_values_made(), before, "{fast} -> {a}");
            assert_eq!(a["distance"], 1.0, "{fast} -> {a}");
            let e = answer_line(&q.to_string(), &options);
            assert!(exact_values_made() > before, "{q}");
            assert_eq!(e["distance_squared"], "1", "{q} -> {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
