//! Curved solids through the oracle (issue 45): `{"implicit": …}` shapes in `distance`, answered
//! with certificates, against the exact answers of the round-shapes routes (the `torus`,
//! `ball` and `cylinder` shapes' exact distances); poses, `precision`, claims, and typed
//! refusals.

use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::scalar::parse_rational;
use touchstone_oracle::{answer_line, Options};

mod common;

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

fn rat(v: &Value) -> BigRational {
    parse_rational(v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))).unwrap()
}

/// Lin–Manocha's F of Example 5.1: the torus (R, r) = (3, 1) about z, as printed.
fn paper_f() -> Value {
    json!({"implicit": {"poly": [
        [64, [0, 0, 0]], [-20, [2, 0, 0]], [1, [4, 0, 0]], [-20, [0, 2, 0]], [2, [2, 2, 0]], [1, [0, 4, 0]],
        [16, [0, 0, 2]], [2, [2, 0, 2]], [2, [0, 2, 2]], [1, [0, 0, 4]]
    ], "bounds": [[-5, -5, -2], [5, 5, 2]]}})
}

/// The same torus as the format's `torus` shape.
fn torus_shape() -> Value {
    json!({"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 3, "minor": 1}})
}

/// x² + y² + z² − r² as an implicit solid in the cube of half side `h`.
fn implicit_ball(r2: i64, h: i64) -> Value {
    json!({"implicit": {"poly": [[1, [2, 0, 0]], [1, [0, 2, 0]], [1, [0, 0, 2]], [-r2, [0, 0, 0]]],
        "bounds": [[-h, -h, -h], [h, h, h]]}})
}

fn at(t: Value) -> Value {
    json!({"quaternion": [1, 0, 0, 0], "translation": t})
}

/// The distance bounds of a `separated` answer, as rationals.
fn bounds(v: &Value) -> (BigRational, BigRational) {
    assert_eq!(v["status"], "separated", "{v}");
    (rat(&v["distance_bounds"][0]), rat(&v["distance_bounds"][1]))
}

#[test]
fn the_implicit_torus_agrees_with_the_torus_shape() {
    // A ball of radius r_b at p against F, asked both ways: the exact route (the `torus`
    // shape: the circle's distance to the centre, minus the radii) and the certified route
    // (F as printed in the paper). The statuses agree; the exact distance, truncated to 20
    // digits, lies in the certified bounds (within a unit of the 20th digit below).
    let cases: [(&str, [&str; 3], &str); 6] = [
        ("1/2", ["5", "0", "1"], "separated"),
        ("1", ["3", "0", "2"], "touching"),
        ("1", ["3", "0", "2.00000095367431640625"], "separated"),
        ("1", ["3", "0", "15/8"], "penetrating"),
        ("1", ["3", "4", "0"], "touching"),
        ("1/4", ["-2", "1", "2"], "separated"),
    ];
    for (radius, p, expected) in cases {
        let ball = json!({"ball": radius});
        let exact = ask(json!({"op": "distance", "a": torus_shape(), "b": ball, "pose_b": at(json!(p))}));
        let certified = ask(json!({"op": "distance", "a": paper_f(), "b": ball, "pose_b": at(json!(p))}));
        assert_eq!(exact["status"], expected, "{exact}");
        assert_eq!(certified["status"], expected, "{p:?}: {certified}");
        match expected {
            "separated" => {
                let d = rat(&exact["distance"]);
                let (lo, hi) = bounds(&certified);
                let unit = BigRational::new(1.into(), num_bigint::BigInt::from(10u64).pow(19));
                assert!(lo <= &d + &unit && d <= hi, "{p:?}: {d} not in [{lo}, {hi}]");
                // Bounds to the precision: 10⁻¹² of the shapes' size (10), with room.
                assert!(&hi - &lo < BigRational::new(1.into(), 10_000_000_000i64.into()), "{certified}");
            }
            "touching" => {
                // The contact point is on both: the torus's F and the ball.
                let pt: Vec<BigRational> = certified["point"].as_array().unwrap().iter().map(rat).collect();
                let c: Vec<BigRational> = p.iter().map(|x| parse_rational(x).unwrap()).collect();
                let rr = parse_rational(radius).unwrap();
                let d2: BigRational = (0..3).map(|i| (&pt[i] - &c[i]) * (&pt[i] - &c[i])).sum();
                assert_eq!(d2, &rr * &rr, "{certified}");
                assert_eq!(certified["distance_bounds"], json!(["0", "0"]));
            }
            _ => {
                let w: Vec<BigRational> = certified["witness"].as_array().unwrap().iter().map(rat).collect();
                let c: Vec<BigRational> = p.iter().map(|x| parse_rational(x).unwrap()).collect();
                let rr = parse_rational(radius).unwrap();
                let d2: BigRational = (0..3).map(|i| (&w[i] - &c[i]) * (&w[i] - &c[i])).sum();
                assert!(d2 < &rr * &rr, "{certified}");
                // F(w) < 0: (|w|² + 8)² − 36(x² + y²).
                let s: BigRational = w.iter().map(|x| x * x).sum();
                let rho = &w[0] * &w[0] + &w[1] * &w[1];
                let f = (&s + BigRational::from_integer(8.into())).pow(2) - BigRational::from_integer(36.into()) * rho;
                assert!(f < BigRational::from_integer(0.into()), "{certified}");
            }
        }
    }
}

#[test]
fn implicit_balls_against_balls_cylinders_and_boxes() {
    // x² + y² + z² ≤ 4 against a unit ball at (3, 0, 0): touching at (2, 0, 0), normal ∇f =
    // (4, 0, 0), β = 2; at (3 + 1/1000, 0, 0): the gap 1/1000 in the bounds.
    let v = ask(json!({"op": "distance", "a": implicit_ball(4, 3), "b": {"ball": 1}, "pose_b": at(json!([3, 0, 0]))}));
    assert_eq!(
        (&v["status"], &v["point"], &v["normal"], &v["multiplier"]),
        (&json!("touching"), &json!(["2", "0", "0"]), &json!(["4", "0", "0"]), &json!("2")),
        "{v}"
    );
    let v = ask(
        json!({"op": "distance", "a": implicit_ball(4, 3), "b": {"ball": 1}, "pose_b": at(json!(["3.001", 0, 0]))}),
    );
    let (lo, hi) = bounds(&v);
    let g = parse_rational("0.001").unwrap();
    assert!(lo <= g && g <= hi, "{v}");
    // Against the cylinder shape's exact route: a cylinder of radius 1 from z = 3 to z = 5 is
    // 1 above the ball of radius 2; the same cylinder beside it at x = 3 + 1/8 (turned by the
    // pose: its axis along y) is 1/8 + 1 − 2 … measured by both routes.
    let cyl = json!({"cylinder": {"a": [0, 0, 3], "b": [0, 0, 5], "radius": 1}});
    let v = ask(json!({"op": "distance", "a": implicit_ball(4, 3), "b": cyl}));
    let (lo, hi) = bounds(&v);
    assert!(lo <= BigRational::from_integer(1.into()) && BigRational::from_integer(1.into()) <= hi, "{v}");
    let side = json!({"cylinder": {"a": [0, -1, 0], "b": [0, 1, 0], "radius": "1/2"}});
    let pose = at(json!(["21/8", 0, "1/3"]));
    let exact = ask(json!({"op": "distance", "a": {"ball": 2}, "b": side, "pose_b": pose}));
    let certified = ask(json!({"op": "distance", "a": implicit_ball(4, 3), "b": side, "pose_b": pose}));
    assert_eq!(exact["status"], certified["status"], "{exact} {certified}");
    let d = rat(&exact["distance"]);
    let (lo, hi) = bounds(&certified);
    assert!(
        lo <= d && d <= &hi + BigRational::new(1.into(), num_bigint::BigInt::from(10u64).pow(19)),
        "{d} [{lo}, {hi}]"
    );
    // A unit box at (5/2, 0, 0): it reaches x = 3/2 < 2: penetrating, the witness inside both.
    let v = ask(
        json!({"op": "distance", "a": implicit_ball(4, 3), "b": {"box": [1, 1, 1]}, "pose_b": at(json!([2.5, 0, 0]))}),
    );
    assert_eq!(v["status"], "penetrating", "{v}");
    let w: Vec<BigRational> = v["witness"].as_array().unwrap().iter().map(rat).collect();
    let s: BigRational = w.iter().map(|x| x * x).sum();
    assert!(s < BigRational::from_integer(4.into()) && w[0] > parse_rational("1.5").unwrap(), "{v}");
    // The same box turned a quarter about z and moved to (3, 0, 0): its face at x = 2 touches
    // the ball at (2, 0, 0).
    let turned = json!({"quaternion": [1, 0, 0, 1], "translation": [3, 0, 0]});
    let v = ask(json!({"op": "distance", "a": implicit_ball(4, 3), "b": {"box": [1, 1, 1]}, "pose_b": turned}));
    assert_eq!((&v["status"], &v["point"]), (&json!("touching"), &json!(["2", "0", "0"])), "{v}");
}

#[test]
fn a_posed_implicit_solid_is_moved_exactly() {
    // The torus F turned by the rational rotation q = (1, 2, 2, 0)/3 (a rotation by exactly
    // that quaternion) and shifted: a ball resting on its image of the top point (3, 0, 1)
    // touches exactly there.
    let q = [1, 2, 2, 0];
    // The image of p under q: R(q)·p with R from the unit quaternion (1, 2, 2, 0)/3.
    let rot = |p: [i64; 3]| -> [BigRational; 3] {
        let (w, x, y, z) = (1i64, 2i64, 2i64, 0i64);
        let n = w * w + x * x + y * y + z * z;
        let m = [
            [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
        ];
        [0, 1, 2].map(|i| BigRational::new((m[i][0] * p[0] + m[i][1] * p[1] + m[i][2] * p[2]).into(), n.into()))
    };
    let t = [
        BigRational::new(1.into(), 2.into()),
        BigRational::from_integer((-1).into()),
        BigRational::from_integer(0.into()),
    ];
    let top = rot([3, 0, 1]);
    let centre = rot([3, 0, 2]);
    let moved = |p: &[BigRational; 3]| [0, 1, 2].map(|i| (&p[i] + &t[i]).to_string());
    let pose_a = json!({"quaternion": q, "translation": ["1/2", -1, 0]});
    let v = ask(json!({"op": "distance", "a": paper_f(), "pose_a": pose_a, "b": {"ball": 1},
        "pose_b": at(json!(moved(&centre)))}));
    assert_eq!((&v["status"], &v["point"]), (&json!("touching"), &json!(moved(&top))), "{v}");
}

#[test]
fn claims_are_judged_on_the_certificate() {
    let base =
        json!({"op": "distance", "a": implicit_ball(4, 3), "b": {"ball": 1}, "pose_b": at(json!(["3.001", 0, 0]))});
    let with = |claim: Value| {
        let mut q = base.clone();
        q["claim"] = claim;
        ask(q)
    };
    let v = with(json!({"status": "separated", "intersecting": false, "distance": "0.001"}));
    assert_eq!(v["verdict"]["ok"], true, "{v}");
    let v = with(json!({"status": "touching", "distance": 0}));
    let failed: Vec<&str> = v["verdict"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["status", "distance"], "{v}");
    // A claimed distance within the tolerance of the bounds' one end only: undecided, noted.
    let v = with(json!({"distance": "0.001"}));
    assert_eq!(v["verdict"]["ok"], true);
    let mut q = base.clone();
    q["claim"] = json!({"distance": "0.0010000000006"});
    q["tolerance"] = json!({"abs": "1e-15", "rel": 0});
    let v = ask(q);
    assert_eq!(v["verdict"]["ok"], false, "{v}");
}

#[test]
fn curved_lines_refuse_what_they_cannot_certify() {
    let error = |q: Value| {
        let v = ask(q);
        assert!(v["error"].is_object(), "no error: {v}");
        (v["error"]["kind"].as_str().unwrap().to_string(), v["error"]["at"].as_str().unwrap().to_string())
    };
    let ball = json!({"ball": 1});
    assert_eq!(
        error(json!({"op": "distance", "backend": "f64", "a": implicit_ball(4, 3), "b": ball})),
        ("unsupported".into(), "/backend".into())
    );
    let deg9 = json!({"implicit": {"poly": [[1, [9, 0, 0]]], "bounds": [[-1, -1, -1], [1, 1, 1]]}});
    assert_eq!(
        error(json!({"op": "distance", "a": deg9, "b": ball})),
        ("limit".into(), "/a/implicit/poly/0/1/0".into())
    );
    let deg = json!({"implicit": {"poly": [[1, [3, 3, 3]]], "bounds": [[-1, -1, -1], [1, 1, 1]]}});
    assert_eq!(error(json!({"op": "distance", "a": deg, "b": ball})), ("limit".into(), "/a/implicit/poly/0/1".into()));
    let empty = json!({"implicit": {"poly": [[1, [2, 0, 0]]], "bounds": [[1, -1, -1], [1, 1, 1]]}});
    assert_eq!(
        error(json!({"op": "distance", "a": empty, "b": ball})),
        ("invalid".into(), "/a/implicit/bounds/1".into())
    );
    let many: Vec<Value> = (0..201).map(|k| json!([1, [k % 3, 0, 0]])).collect();
    let many = json!({"implicit": {"poly": many, "bounds": [[-1, -1, -1], [1, 1, 1]]}});
    assert_eq!(error(json!({"op": "distance", "a": many, "b": ball})), ("limit".into(), "/a/implicit/poly".into()));
    let capsule = json!({"capsule": {"a": [0, 0, 3], "b": [0, 0, 5], "radius": 1}});
    assert_eq!(
        error(json!({"op": "distance", "a": implicit_ball(4, 3), "b": capsule})),
        ("unsupported".into(), "/b/capsule".into())
    );
    let nonconvex = json!({"polyhedron": {"vertices": [[0,0,0],[4,0,0],[4,4,0],[2,1,0],[0,4,0],[0,0,1],[4,0,1],[4,4,1],[2,1,1],[0,4,1]],
        "faces": [[4,3,2,1,0],[5,6,7,8,9],[0,1,6,5],[1,2,7,6],[2,3,8,7],[3,4,9,8],[4,0,5,9]]}});
    assert_eq!(
        error(json!({"op": "distance", "a": implicit_ball(4, 3), "b": nonconvex})),
        ("invalid".into(), "/b/polyhedron".into())
    );
    assert_eq!(
        error(json!({"op": "distance", "a": implicit_ball(4, 3), "b": ball, "precision": 0})),
        ("invalid".into(), "/precision".into())
    );
    let singular = json!({"matrix": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]]});
    assert_eq!(error(json!({"op": "distance", "a": implicit_ball(4, 3), "pose_a": singular, "b": ball})).0, "invalid");
    // A huge coefficient: a typed limit, not a hang.
    let huge = format!("{}", num_bigint::BigInt::from(2).pow(600));
    let big = json!({"implicit": {"poly": [[huge, [2, 0, 0]]], "bounds": [[-1, -1, -1], [1, 1, 1]]}});
    assert_eq!(error(json!({"op": "distance", "a": big, "b": ball})).0, "limit");
}

#[test]
fn a_contact_circle_is_undecided_not_wrong() {
    // A ball of radius 2 in F's hole touches it along the whole inner equator: no isolated
    // tangency, so no certificate; never separated or penetrating. (A coarse precision keeps
    // the search short.)
    let v = ask(json!({"op": "distance", "a": paper_f(), "b": {"ball": 2}, "precision": "1/256"}));
    assert_eq!(v["status"], "undecided", "{v}");
    assert!(v["reason"].is_string() && v["distance_bounds"][0] == "0", "{v}");
}

#[test]
fn an_irrational_contact_is_touching_within_the_precision() {
    // A ball centred (4, 0, 1), √2 from F's tube circle point (3, 0, 0), of radius √2 − 1 to
    // 29 decimals: 10⁻²⁹ from touching at the irrational point (3 + 1/√2, 0, 1/√2).
    let v = ask(json!({"op": "distance", "a": paper_f(), "b": {"ball": "0.41421356237309504880168872420"},
        "pose_b": at(json!([4, 0, 1]))}));
    assert_eq!((&v["status"], &v["certificate"]), (&json!("touching"), &json!("tangency")), "{v}");
    let lo = rat(&v["point_box"][0][0]) - BigRational::from_integer(3.into());
    let hi = rat(&v["point_box"][0][1]) - BigRational::from_integer(3.into());
    let half = BigRational::new(1.into(), 2.into());
    assert!(&lo * &lo <= half && half <= &hi * &hi, "{v}");
    assert!(rat(&v["value"][0]) <= BigRational::from_integer(0.into()));
    assert!(rat(&v["distance_bounds"][1]) < BigRational::new(1.into(), 1_000_000_000_000i64.into()), "{v}");
    // An exact rational contact says so.
    let v = ask(json!({"op": "distance", "a": paper_f(), "b": {"ball": 1}, "pose_b": at(json!([3, 0, 2]))}));
    assert_eq!(v["certificate"], "exact", "{v}");
    // curved_diff's case (a CI failure): the torus (3, 1) turned by the quaternion
    // (0, −1, −1, −2) and moved, a ball of radius 3/2 on its outward normal at a rational
    // point, nudged off by less than the precision 2⁻¹⁶. Touching to within it: the tangency's
    // value off 0 by less than the precision's reach (|∇g| = 3 there: 3·size·2⁻¹⁶, size ≤ 20).
    // A claim of the true status, separated, is not confirmed at this precision, and says
    // why. (This once searched to the box limit for seconds and ended undecided.)
    let torus = json!({"implicit": {"poly": [["64", [0, 0, 0]], ["-20", [2, 0, 0]], ["1", [4, 0, 0]], ["-20", [0, 2, 0]],
        ["2", [2, 2, 0]], ["1", [0, 4, 0]], ["16", [0, 0, 2]], ["2", [2, 0, 2]], ["2", [0, 2, 2]], ["1", [0, 0, 4]]],
        "bounds": [["-5", "-5", "-2"], ["5", "5", "2"]]}});
    let v = ask(json!({"op": "distance", "a": torus,
        "pose_a": {"quaternion": [0, -1, -1, -2], "translation": ["127/8", "45/8", "-17/2"]},
        "b": {"ball": "3/2"}, "pose_b": at(json!(["49042777/2621440", "5188267/1310720", "-1267029/262144"])),
        "precision": "1/65536", "claim": {"status": "separated"}}));
    assert_eq!((&v["status"], &v["certificate"]), (&json!("touching"), &json!("tangency")), "{v}");
    let (lo, hi) = (rat(&v["value"][0]), rat(&v["value"][1]));
    let reach = BigRational::new(60.into(), 65536.into());
    assert!(-&reach <= lo && hi <= reach, "{v}");
    let check = &v["verdict"]["checks"][0];
    assert!(
        check["ok"] == false && check["note"].as_str().unwrap().contains("within the precision of touching"),
        "{v}"
    );
}

/// The torus (R, r) about z as the format's `bezier` shape: its sixteen biquadratic patches,
/// exact strings.
fn bezier_torus(major: i64, minor: i64) -> Value {
    use touchstone::curved::bezier::torus_patches;
    let q = |n: i64| BigRational::from_integer(n.into());
    let patches: Vec<Value> = torus_patches(&q(major), &q(minor))
        .unwrap()
        .iter()
        .map(|p| {
            json!({
                "degree": p.degree(),
                "points": p.points().iter().map(|c| c.iter().map(|x| x.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "weights": p.weights().iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"bezier": {"patches": patches}})
}

#[test]
fn bezier_solids_in_distance() {
    // The Bézier torus (3, 1) against balls: touching on its top at (3, 0, 1), lifted by 1/8,
    // pushed in by 1/8; the same answers as the `torus` shape's exact route.
    let ball = json!({"ball": 1});
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "b": ball, "pose_b": at(json!([3, 0, 2])), "precision": "1/1000000"}),
    );
    assert_eq!((&v["status"], &v["point"]), (&json!("touching"), &json!(["3", "0", "1"])), "{v}");
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "b": ball, "pose_b": at(json!([3, 0, "17/8"])), "precision": "1/1000000"}),
    );
    let (lo, hi) = (rat(&v["distance_bounds"][0]), BigRational::new(1.into(), 8.into()));
    assert!(v["status"] == "separated" && lo > BigRational::from_integer(0.into()) && lo <= hi, "{v}");
    let v = ask(
        json!({"op": "distance", "a": ball, "pose_a": at(json!([3, 0, "15/8"])), "b": bezier_torus(3, 1), "precision": "1/1000000"}),
    );
    assert_eq!(v["status"], "penetrating", "{v}");
    // Posed: turned a quarter about x and moved: the ball on its image of the top.
    let pose = json!({"quaternion": [1, 1, 0, 0], "translation": [1, 2, 3]});
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "pose_a": pose, "b": ball, "pose_b": at(json!([4, 0, 3])), "precision": "1/1000000"}),
    );
    // (3, 0, 2) turned: (3, −2, 0), moved: (4, 0, 3); the contact (3, 0, 1) → (3, −1, 0) → (4, 1, 3).
    assert_eq!((&v["status"], &v["point"]), (&json!("touching"), &json!(["4", "1", "3"])), "{v}");
    // Two Bézier tori, one lifted by 3: apart.
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "b": bezier_torus(3, 1), "pose_b": at(json!([0, 0, 3])), "precision": "1/1000000"}),
    );
    assert_eq!(v["status"], "separated", "{v}");
    // Two Bézier tori side by side, 8 apart: touching at (4, 0, 0), a's outward normal +x;
    // a ball on the tube 10⁻²⁹ from an irrational tangency: touching to within the precision.
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "b": bezier_torus(3, 1), "pose_b": at(json!([8, 0, 0])), "precision": "1/4096"}),
    );
    assert_eq!((&v["status"], &v["point"]), (&json!("touching"), &json!(["4", "0", "0"])), "{v}");
    let n = &v["normal"];
    assert!(rat(&n[0]) > BigRational::from_integer(0.into()) && n[1] == "0" && n[2] == "0", "{v}");
    let ball = json!({"ball": "41421356237309504880168872420/100000000000000000000000000000"});
    let v = ask(
        json!({"op": "distance", "a": bezier_torus(3, 1), "b": ball, "pose_b": at(json!([4, 0, 1])), "precision": "1/1000000000"}),
    );
    assert_eq!((&v["status"], &v["certificate"]), (&json!("touching"), &json!("tangency")), "{v}");
    let ball = json!({"ball": 1});
    // Typed refusals: a nonconvex implicit beside a Bézier solid, bad patches.
    let v = ask(json!({"op": "distance", "a": bezier_torus(3, 1), "b": paper_f()}));
    assert_eq!((&v["error"]["kind"], &v["error"]["at"]), (&json!("unsupported"), &json!("/b/implicit")), "{v}");
    let bad = json!({"bezier": {"patches": [{"degree": [1, 1], "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}]}});
    let v = ask(json!({"op": "distance", "a": bad, "b": ball}));
    assert_eq!((&v["error"]["kind"], &v["error"]["at"]), (&json!("invalid"), &json!("/a/bezier/patches/0")), "{v}");
    let bad = json!({"bezier": {"patches": [{"degree": [1, 9], "points": []}]}});
    let v = ask(json!({"op": "distance", "a": bad, "b": ball}));
    assert_eq!(
        (&v["error"]["kind"], &v["error"]["at"]),
        (&json!("invalid"), &json!("/a/bezier/patches/0/degree/1")),
        "{v}"
    );
    // One patch alone bounds nothing: its edges are shared with no other patch.
    let open =
        json!({"bezier": {"patches": [{"degree": [1, 1], "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1]]}]}});
    let v = ask(json!({"op": "distance", "a": open, "b": ball}));
    assert_eq!((&v["error"]["kind"], &v["error"]["at"]), (&json!("invalid"), &json!("/a/bezier")), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("not closed"), "{v}");
    let bad = json!({"bezier": {"patches": [{"degree": [1, 1], "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1]], "weights": [1, 1, 0, 1]}]}});
    let v = ask(json!({"op": "distance", "a": bad, "b": ball}));
    assert_eq!(v["error"]["kind"], "invalid", "{v}");
}
