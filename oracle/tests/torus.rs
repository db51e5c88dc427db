//! Tori through the oracle (issue 42): `{"torus": …}` in `distance` and `toi`, exact answers
//! to `digits`, claims, `both` under the contract, poses moving the circle exactly, Example
//! 5.1's first contact, and typed refusals.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

mod common;

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

fn torus(c: [i64; 3], n: [i64; 3], major: Value, minor: Value) -> Value {
    json!({"torus": {"center": c, "axis": n, "major": major, "minor": minor}})
}

/// R = 3, r = 1 about z at the origin.
fn f() -> Value {
    torus([0, 0, 0], [0, 0, 1], json!(3), json!(1))
}

fn at(t: Value) -> Value {
    json!({"quaternion": [1, 0, 0, 0], "translation": t})
}

fn error(q: Value) -> (String, String) {
    let v = ask(q);
    let e = &v["error"];
    assert!(e.is_object(), "no error: {v}");
    (e["kind"].as_str().unwrap().to_string(), e["at"].as_str().unwrap().to_string())
}

#[test]
fn tori_against_balls_capsules_and_tori() {
    // A ball in the hole, radius R − r: touching along a circle, d(cores)² = 9 exactly.
    let v = ask(json!({"op": "distance", "a": f(), "b": {"ball": 2}}));
    assert_eq!((v["status"].as_str(), v["cores_distance_squared"].as_str()), (Some("touching"), Some("9")), "{v}");
    assert_eq!(v["features"], json!(["circle", "center"]));
    // A ball at (5, 0, 1), radius 1/2: √5 − 3/2 to 30 digits; the cores' closest points.
    let v =
        ask(json!({"op": "distance", "a": f(), "b": {"ball": "1/2"}, "pose_b": at(json!([5, 0, 1])), "digits": 30}));
    assert_eq!(v["distance"], "0.736067977499789696409173668731", "{v}");
    assert_eq!(v["core_points"], json!([["3", "0", "0"], ["5", "0", "1"]]));
    // The order of the shapes: b the torus, the points swap.
    let v = ask(json!({"op": "distance", "b": f(), "a": {"ball": "1/2"}, "pose_a": at(json!([5, 0, 1]))}));
    assert_eq!(v["core_points"], json!([["5", "0", "1"], ["3", "0", "0"]]));
    assert_eq!(v["features"], json!(["center", "circle"]));
    // A capsule across the top at height 2, radius 1: touching the tube, and by 2⁻⁵⁰ apart.
    let cap = |z: &str| json!({"capsule": {"a": [-5, 0, z], "b": [5, 0, z], "radius": 1}});
    assert_eq!(ask(json!({"op": "distance", "a": f(), "b": cap("2")}))["status"], "touching");
    let v = ask(json!({"op": "distance", "a": f(), "b": cap("2.00000000000000088817841970012523233890533447265625")}));
    assert_eq!(v["status"], "separated");
    assert_eq!(v["distance"], "8.8817841970012523233e-16", "{v}");
    // Perpendicular tori: G (R = 2, r = 2, axis y) 5 above F's circle point (3, 0, 0) touches
    // F at the single point (3, 0, 1).
    let g = |h: &str| json!({"torus": {"center": [3, 0, h], "axis": [0, 1, 0], "major": 2, "minor": "3/2"}});
    let v = ask(json!({"op": "distance", "a": f(), "b": g("9/2"), "digits": 12}));
    assert_eq!(v["status"], "touching", "{v}");
    assert_eq!(v["core_points"], json!([["3", "0", "0"], ["3", "0", "2.5"]]));
    assert_eq!(ask(json!({"op": "distance", "a": f(), "b": g("4.4999999999")}))["status"], "penetrating");
    assert_eq!(ask(json!({"op": "distance", "a": f(), "b": g("4.5000000001")}))["status"], "separated");
}

#[test]
fn a_pose_moves_the_circle_exactly() {
    // The torus about x (axis z turned a quarter about y: quaternion (1, 0, 1, 0)/√2 scaled,
    // written unnormalised) centred at (0, 0, 10): a ball on its axis at (4, 0, 10) with
    // radius 4 touches it (√(3² + 4²) = 5 = 1 + 4).
    let posed = json!({"quaternion": [1, 0, 1, 0], "translation": [0, 0, 10]});
    let v =
        ask(json!({"op": "distance", "a": f(), "pose_a": posed, "b": {"ball": 4}, "pose_b": at(json!([4, 0, 10]))}));
    assert_eq!(v["status"], "touching", "{v}");
    // A pose that scales is refused.
    let scaling = json!({"matrix": [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]});
    assert_eq!(error(json!({"op": "distance", "a": f(), "pose_a": scaling, "b": {"ball": 1}})).1, "/pose_a");
}

#[test]
fn claims_and_both() {
    let line = |claim: Value| {
        ask(json!({"op": "distance", "a": f(), "b": {"ball": "1/2"}, "pose_b": at(json!([5, 0, 1])), "claim": claim}))
    };
    assert_eq!(line(json!({"distance": "0.7360679775", "status": "separated"}))["verdict"]["ok"], true);
    assert_eq!(line(json!({"distance": "0.7361"}))["verdict"]["ok"], false);
    assert_eq!(line(json!({"intersecting": true}))["verdict"]["ok"], false);
    // Both backends agree on a generic pair of tori, with the margin shown.
    let v = ask(json!({"op": "distance", "backend": "both", "a": f(),
        "b": torus([1, 2, 3], [1, 1, 1], json!(2), json!("1/2"))}));
    assert_eq!(v["agreement"]["agree"], true, "{v}");
    assert_eq!(v["status"], "penetrating");
}

#[test]
fn example_5_1_through_the_oracle() {
    // G (R = 2 about x) moving from (10/3, 1/5, 11/2) to the paper's (3, 0, 7/2) over [0, 1]:
    // the first contact's enclosure, 30 digits as tests/torus.rs finds by two routes.
    let g = json!({"torus": {"center": ["10/3", "1/5", "11/2"], "axis": [1, 0, 0], "major": 2, "minor": 1}});
    let line =
        json!({"op": "toi", "a": f(), "b": g, "velocity_b": ["-1/3", "-1/5", -2], "interval": [0, 1], "digits": 30});
    let v = ask(line.clone());
    assert_eq!(v["collides"], true, "{v}");
    assert_eq!(v["toi"], "0.75087055658356200150680813969");
    // The f64 path (not held to the exact answer) lands within 10⁻¹² of it.
    let mut fast = line;
    fast["backend"] = json!("f64");
    let t = ask(fast)["toi"].as_f64().unwrap();
    assert!((t - 0.750_870_556_583_562).abs() < 1e-12, "{t}");
    // A ball falling through the hole never touches; one of radius 3 does, at 10 − √7.
    let fall = |r: i64| {
        ask(json!({"op": "toi", "a": f(), "b": {"ball": r}, "pose_b": at(json!([0, 0, 10])),
            "velocity_b": [0, 0, -1], "interval": [0, 20], "digits": 12}))
    };
    assert_eq!(fall(1)["collides"], false);
    assert_eq!(fall(3)["toi"], "7.35424868893", "{}", fall(3));
    // A claim on the time.
    let v = ask(json!({"op": "toi", "a": f(), "b": {"ball": 3}, "pose_b": at(json!([0, 0, 10])),
        "velocity_b": [0, 0, -1], "interval": [0, 20], "claim": {"toi": "7.354248688935409"}}));
    assert_eq!(v["verdict"]["ok"], true, "{v}");
}

/// Grazes and resting contacts, where advancement creeps forever (a `limit` before the
/// exact route of `poly::first_zero`): a capsule grazing the tube of F (R = 3, r = 1) at
/// t = 1/2 exactly (|x| = 5 = R + r + 1 at y = 0), the same capsule 2⁻⁴⁰ farther out
/// missing, a long capsule coming to rest on top of the tube at t = 1/2, and a coaxial torus
/// sliding over F until the circles' projections meet (t = 1/2), resting there at two points.
#[test]
fn grazes_and_resting_contacts_through_the_oracle() {
    let cast = |b: Value, pose: Value, velocity: Value| {
        ask(
            json!({"op": "toi", "a": f(), "b": b, "pose_b": at(pose), "velocity_b": velocity, "interval": [0, 1], "digits": 20}),
        )
    };
    let capsule = |z0: i64, z1: i64, x: i64| json!({"capsule": {"a": [x, 0, z0], "b": [-x, 0, z1], "radius": 1}});
    let graze = cast(capsule(-1, 1, 0), json!([5, -10, 0]), json!([0, 20, 0]));
    assert_eq!((graze["collides"].clone(), graze["toi"].clone()), (json!(true), json!("0.5")), "{graze}");
    assert_eq!(graze["toi_interval"], json!(["1/2", "1/2"]), "{graze}");
    let miss =
        cast(capsule(-1, 1, 0), json!(["5.0000000000009094947017729282379150390625", -10, 0]), json!([0, 20, 0]));
    assert_eq!(miss["collides"], false, "{miss}");
    let rest = cast(capsule(0, 0, 10), json!([0, -10, 2]), json!([0, 14, 0]));
    assert_eq!(rest["toi"], "0.5", "{rest}");
    let g = torus([10, 0, 2], [0, 0, 1], json!(3), json!(1));
    let slide = ask(json!({"op": "toi", "a": f(), "b": g, "velocity_b": [-8, 0, 0], "interval": [0, 1]}));
    assert_eq!((slide["collides"].clone(), slide["toi"].clone()), (json!(true), json!("0.5")), "{slide}");
    // Claims on the graze: an engine that finds it at 1/2 is right; one that misses it, or
    // finds it 10⁻⁷ early (beyond the default tolerance, 10⁻⁹), is wrong.
    let claim = |c: Value| {
        ask(json!({"op": "toi", "a": f(), "b": capsule(-1, 1, 0), "pose_b": at(json!([5, -10, 0])),
            "velocity_b": [0, 20, 0], "interval": [0, 1], "claim": c}))["verdict"]["ok"]
            .clone()
    };
    assert_eq!(claim(json!({"collides": true, "toi": "0.5"})), json!(true));
    assert_eq!(claim(json!({"collides": false})), json!(false));
    assert_eq!(claim(json!({"toi": "0.4999999"})), json!(false));
    // Coaxial tori about (1, 1, 1) (no rational point on either circle) passing through each
    // other along the axis touch along a whole circle at t = 1/2 for an instant.
    // Minor radii 3/2 and 1/2: ρ = 2 = R − R′, the coplanar circles' distance.
    let a111 = torus([0, 0, 0], [1, 1, 1], json!(3), json!("3/2"));
    let b111 = torus([5, 5, 5], [1, 1, 1], json!(1), json!("1/2"));
    let pass = ask(json!({"op": "toi", "a": a111, "b": b111, "velocity_b": [-10, -10, -10], "interval": [0, 1],
        "claim": {"collides": true, "toi": "0.5"}}));
    assert_eq!(
        (pass["toi_interval"].clone(), pass["verdict"]["ok"].clone()),
        (json!(["1/2", "1/2"]), json!(true)),
        "{pass}"
    );
}

#[test]
fn tori_are_refused_with_typed_errors() {
    let d = |b: Value| json!({"op": "distance", "a": f(), "b": b});
    assert_eq!(error(d(json!({"box": [1, 1, 1]}))), ("unsupported".into(), "/b/box".into()));
    assert_eq!(error(d(json!({"round": {"shape": {"box": [1, 1, 1]}, "radius": 1}}))).0, "unsupported");
    assert_eq!(error(d(torus([0, 0, 0], [0, 0, 0], json!(3), json!(1)))), ("invalid".into(), "/b/torus/axis".into()));
    assert_eq!(error(d(torus([0, 0, 0], [0, 0, 1], json!(1), json!(1)))), ("invalid".into(), "/b/torus/minor".into()));
    assert_eq!(error(d(torus([0, 0, 0], [0, 0, 1], json!(3), json!(-1)))), ("invalid".into(), "/b/torus/minor".into()));
    assert_eq!(error(d(json!({"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 3}}))).0, "missing");
    assert_eq!(
        error(d(json!({"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 3, "minor": 1, "tube": 1}}))).0,
        "unknown"
    );
    // Ops on polyhedral solids refuse a torus.
    assert_eq!(error(json!({"op": "validate", "solid": f()})).0, "unsupported");
    // A velocity whose square is beyond binary64 (1e200 each way): the speed bound is exact
    // (it was a float loop that never ended); the ball crosses the torus at once.
    let v = ask(json!({"op": "toi", "a": f(), "b": {"ball": 1}, "pose_b": at(json!([4, 0, 10])),
        "velocity_b": [0, 0, "-1e200"], "interval": [0, 1], "digits": 5}));
    assert_eq!(v["collides"], true, "{v}");
    // Hostile sizes: a torus of radius 1e300 against a ball 1e-300 off its circle.
    let v = ask(json!({"op": "distance", "a": torus([0, 0, 0], [0, 0, 1], json!("1e300"), json!("1e299")),
        "b": {"ball": "1e-300"}, "pose_b": at(json!(["1e300", 0, "1e-300"]))}));
    assert!(v["status"].is_string() || v["error"].is_object(), "{v}");
}

/// Found by `gen torus-hole` under `both`: a ball on a turned torus's axis. The float path
/// took d(X, C)² as |w|² + R² − 2R·√(|w|² − (w·n)²/k), whose root amplified the rounding of
/// the difference near the axis to 3·10⁻⁸ (and called touching penetrating); it now takes
/// (ρ − R)² + h² with ρ from |w × n|.
#[test]
fn a_ball_on_a_turned_axis_agrees_on_f64() {
    let line = r#"{"id":"torus-hole/41","op":"distance","backend":"both","a":{"torus":{"center":["-13/2","-29/4","-11/8"],"axis":["3/5","0","4/5"],"major":"5/8","minor":"5/32"}},"pose_a":{"quaternion":[1,0,0,0],"translation":["0","0","0"]},"b":{"ball":"47/32"},"pose_b":{"quaternion":[-3,1,-1,3],"translation":["-28/5","-29/4","-7/40"]},"claim":{"status":"touching","intersecting":true,"distance":"0"}}"#;
    let v = answer_line(line, &Options::default());
    assert_eq!(v["verdict"]["ok"], true, "{v}");
    assert_eq!(v["agreement"]["agree"], true, "{v}");
    let f = v["f64"]["cores_distance_squared"].as_f64().unwrap();
    assert!((f - 2.640625).abs() < 1e-12, "{v}");
}

/// The shapes' own points (`points`): each core point moved by its radius toward the other,
/// computed here by hand: the ball in the hole touches at C's point toward the rational
/// perpendicular of z, (0, 2, 0); the ball on the axis at height 4 touches at (0, 3, 0) +
/// (0, −3, 4)/5 = (0, 12/5, 4/5); the ball at (5, 0, 1) is √5 − 3/2 away, its points
/// (3, 0, 0) + (2, 0, 1)/√5 and (5, 0, 1) − (2, 0, 1)/(2√5), 2/√5 = 0.89442719099991587856…
/// and 1/(2√5) = 0.22360679774997896964…; f64 gives the same within 1e-12.
#[test]
fn the_shapes_own_points() {
    let points = |b: Value, t: [i64; 3]| {
        let v = ask(json!({"op": "distance", "backend": "both", "a": f(), "b": b, "pose_b": at(json!(t))}));
        assert_eq!(v["agreement"]["agree"], true, "{v}");
        let exact: Vec<Vec<String>> = serde_json::from_value(v["points"].clone()).unwrap();
        let fast: Vec<Vec<f64>> = serde_json::from_value(v["f64"]["points"].clone()).unwrap();
        for (e, f) in exact.iter().flatten().zip(fast.iter().flatten()) {
            assert!((e.parse::<f64>().unwrap() - f).abs() < 1e-12, "{v}");
        }
        exact
    };
    let s = |x: [&str; 3]| x.map(String::from).to_vec();
    assert_eq!(points(json!({"ball": 2}), [0, 0, 0]), vec![s(["0", "2", "0"]), s(["0", "2", "0"])]);
    assert_eq!(points(json!({"ball": 4}), [0, 0, 4]), vec![s(["0", "2.4", "0.8"]), s(["0", "2.4", "0.8"])]);
    assert_eq!(
        points(json!({"ball": "1/2"}), [5, 0, 1]),
        vec![
            s(["3.8944271909999158785", "0", "0.44721359549995793928"]),
            s(["4.5527864045000420607", "0", "0.77639320225002103035"])
        ]
    );
    // Penetrating by 1/2 (a ball of radius 3/2 at (5, 0, 0): cores 2 apart, ρ = 5/2): each
    // shape's deepest point along the x axis, (3, 0, 0) + 1 and (5, 0, 0) − 3/2.
    assert_eq!(points(json!({"ball": "3/2"}), [5, 0, 0]), vec![s(["4", "0", "0"]), s(["3.5", "0", "0"])]);
}

/// Claimed points (issue 42): each on its shape, exactly, and their distance within the
/// tolerance of the exact distance, decided exactly (√g against √c − ρ by squaring once).
#[test]
fn claims_on_the_shapes_own_points() {
    let verdict = |a: Value, b: Value, t: [i64; 3], claim: Value, tolerance: Option<Value>| {
        let mut q = json!({"op": "distance", "a": a, "b": b, "pose_b": at(json!(t)), "claim": claim});
        if let Some(tol) = tolerance {
            q["tolerance"] = tol;
        }
        let v = ask(q);
        let checks = v["verdict"]["checks"].as_array().unwrap_or_else(|| panic!("no checks: {v}")).clone();
        let failed: Vec<String> =
            checks.iter().filter(|c| c["ok"] == false).map(|c| c["field"].as_str().unwrap().to_string()).collect();
        (v["verdict"]["ok"] == true, failed)
    };
    let exact = Some(json!({"abs": 0, "rel": 0}));
    // A ball of radius 2 over the axis at height 4: cores √(3² + 4²) = 5 apart, d = 5 − 3 = 2,
    // the closest points (12/5, 0, 4/5) on the tube and (6/5, 0, 12/5) on the ball: exactly.
    let ball = || json!({"ball": 2});
    let pts = |p: Value, q: Value| json!({"points": [p, q]});
    let right = pts(json!(["12/5", 0, "4/5"]), json!(["6/5", 0, "12/5"]));
    assert_eq!(verdict(f(), ball(), [0, 0, 4], right.clone(), exact.clone()), (true, vec![]));
    // Either way round (the torus as b: its points second).
    let swapped = pts(json!(["6/5", 0, "12/5"]), json!(["12/5", 0, "4/5"]));
    let v = ask(json!({"op": "distance", "a": ball(), "pose_a": at(json!([0, 0, 4])), "b": f(),
        "claim": swapped, "tolerance": {"abs": 0, "rel": 0}}));
    assert_eq!(v["verdict"]["ok"], true, "{v}");
    // Turned about the axis (every point of the circle of contact is closest).
    let turned = pts(json!([0, "12/5", "4/5"]), json!([0, "6/5", "12/5"]));
    assert_eq!(verdict(f(), ball(), [0, 0, 4], turned, exact.clone()), (true, vec![]));
    // Points on their shapes but not closest: (3, 0, 1) tops the tube, (2, 0, 4) is the
    // ball's rim; they are √10 apart, not 2.
    let far = pts(json!([3, 0, 1]), json!([2, 0, 4]));
    assert_eq!(verdict(f(), ball(), [0, 0, 4], far, None), (false, vec!["points".to_string()]));
    // A point just outside its shape (10⁻³⁰ below the closest) fails with zero tolerance, and
    // passes within 10⁻²⁹.
    let off = pts(json!(["12/5", 0, "4/5"]), json!(["6/5", 0, "2.399999999999999999999999999999"]));
    assert_eq!(verdict(f(), ball(), [0, 0, 4], off.clone(), exact.clone()).1, vec!["points/1", "points"]);
    assert_eq!(verdict(f(), ball(), [0, 0, 4], off, Some(json!({"abs": "1e-29", "rel": 0}))), (true, vec![]));

    // Irrational distances: the ball of radius 4 at height 8, d = √73 − 5. The torus's core
    // point (3, 0, 0) and the ball's centre are √73 apart: |√73 − d| = 5 exactly, so they pass
    // with abs = 5 and fail with abs = 5 − 10⁻³⁰ (√73 against √c ± (ρ − abs), a surd each side).
    let cores = pts(json!([3, 0, 0]), json!([0, 0, 8]));
    let tol = |abs: &str| Some(json!({"abs": abs, "rel": 0}));
    let big = || json!({"ball": 4});
    assert_eq!(verdict(f(), big(), [0, 0, 8], cores.clone(), tol("5")), (true, vec![]));
    let nearly = "4.999999999999999999999999999999";
    assert_eq!(verdict(f(), big(), [0, 0, 8], cores.clone(), tol(nearly)), (false, vec!["points".to_string()]));
    // Relative: |√73 − d| ≤ rel·d ⇔ rel ≥ 5/(√73 − 5) = 1.41083… (the core point lies in
    // the torus and the centre in the ball: both on their shapes).
    let rel = |r: &str| Some(json!({"abs": 0, "rel": r}));
    assert_eq!(verdict(f(), big(), [0, 0, 8], cores.clone(), rel("1.4109")), (true, vec![]));
    assert_eq!(verdict(f(), big(), [0, 0, 8], cores, rel("1.4108")), (false, vec!["points".to_string()]));
    // The closest points to 20 digits pass the default tolerance; 10⁻⁶ off along the line
    // between them they fail.
    let v = ask(json!({"op": "distance", "a": f(), "b": big(), "pose_b": at(json!([0, 0, 8])), "digits": 20}));
    let p = v["points"].clone();
    assert_eq!(verdict(f(), big(), [0, 0, 8], json!({"points": p}), None), (true, vec![]), "{v}");
    let mut moved = p.clone();
    let z: f64 = p[1][2].as_str().unwrap().parse().unwrap();
    moved[1][2] = json!(format!("{}", z + 1e-6));
    assert!(!verdict(f(), big(), [0, 0, 8], json!({"points": moved}), None).0);

    // Two coplanar tori about z, centres 9 apart: the circles' nearest points (3, 0, 0) and
    // (6, 0, 0), d = 3 − 2 = 1 between (4, 0, 0) and (5, 0, 0); at 8 apart they touch at (4, 0, 0).
    let g = || f();
    let tori = pts(json!([4, 0, 0]), json!([5, 0, 0]));
    assert_eq!(verdict(f(), g(), [9, 0, 0], tori, exact.clone()), (true, vec![]));
    let touch = pts(json!([4, 0, 0]), json!([4, 0, 0]));
    assert_eq!(verdict(f(), g(), [8, 0, 0], touch, exact.clone()), (true, vec![]));
    let lifted = pts(json!([4, 0, 0]), json!([4, 0, "1/1000"]));
    assert_eq!(verdict(f(), g(), [8, 0, 0], lifted, exact).1, vec!["points/1", "points"]);
}

/// Found attacking the tool: a torus `toi` asked to 10,000 digits needs a refinement width of
/// 33,220 bits, past the root finder's limit; that is the format's `limit`, not `invalid`.
#[test]
fn too_many_digits_for_a_torus_toi_is_a_limit() {
    let q = json!({"op": "toi", "a": f(), "b": {"ball": 3}, "pose_b": at(json!([0, 0, 10])), "velocity_b": [0, 0, -1],
        "interval": [0, 20], "digits": 10000});
    assert_eq!(error(q), ("limit".into(), "".into()));
}

/// Regression: a ball centred on the axis of a torus whose axis vector is 10⁻¹⁰⁰ long. The
/// surface points take the circle's point toward the axis's rational perpendicular, whose
/// length's enclosure reached 0 at the first precision: `recip` panicked, and the line was
/// answered `internal`. The answer is the unit axis's, word for word.
#[test]
fn a_tiny_axis_gives_the_unit_axis_answer() {
    let line = |axis: Value| {
        json!({"op": "distance", "a": {"torus": {"center": [0, 0, 0], "axis": axis, "major": 2, "minor": 1}},
               "b": {"ball": 1}, "pose_b": at(json!([0, 0, 5]))})
    };
    let unit = ask(line(json!([0, 0, 1])));
    assert_eq!(unit["status"], "separated", "{unit}");
    assert_eq!(unit["cores_distance_squared"], "29");
    for axis in [json!([0, 0, 1e-100]), json!([0, 0, "1/10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"])] {
        let v = ask(line(axis.clone()));
        assert_eq!(v, unit, "axis {axis}");
    }
}

/// Found by attacking the oracle with values near the binary64 range: a torus of major radius
/// 10³⁰⁰ and a ball of radius 1 centred on its circle (exactly penetrating, depth 1), and a ball
/// 10³⁰⁰ away cast through the hole at speed 10³⁰⁰ (exactly no contact). The float path's
/// quartics left the range mid-computation and answered `touching` and `meeting` at the start;
/// it now refuses with `overflow` (the contract admits it) and `both` agrees.
#[test]
fn tori_beyond_the_quartic_range_are_refused_on_f64() {
    let lines = [
        r#"{"id":2,"op":"distance","a":{"torus":{"center":[0,0,0],"axis":[0,0,1],"major":1e300,"minor":1e-300}},"b":{"ball":1},"pose_b":{"translation":[1e300,0,0]}}"#,
        r#"{"id":3,"op":"toi","a":{"torus":{"center":[0,0,0],"axis":[0,0,1],"major":3,"minor":1}},"b":{"ball":1e-300},"pose_b":{"translation":[0,0,1e300]},"velocity_a":[0,0,0],"velocity_b":[0,0,-1e300]}"#,
    ];
    let exact = ["penetrating", "false"];
    for (line, want) in lines.iter().zip(exact) {
        let mut q: Value = serde_json::from_str(line).unwrap();
        q["backend"] = json!("f64");
        let v = ask(q.clone());
        assert_eq!(v["error"]["kind"], "overflow", "{v}");
        q["backend"] = json!("both");
        let v = ask(q);
        let answer = v.get("status").cloned().unwrap_or_else(|| v["collides"].clone());
        assert_eq!(answer.to_string().trim_matches('"'), want, "{v}");
        assert_eq!(v["agreement"]["agree"], true, "{v}");
    }
}

/// Found attacking the tool: the `f64` advancement's own cap on a graze (a `limit`, as FORMAT
/// says) was reported as "the step limit of 0 per query was exceeded" when no step limit was
/// set. The message names the cap; a step limit the query set and ran out of is named as such.
#[test]
fn the_f64_graze_cap_is_not_called_the_query_step_limit() {
    let line = json!({"op": "toi", "backend": "f64", "a": f(),
        "b": {"capsule": {"a": [0, 0, -1], "b": [0, 0, 1], "radius": 1}}, "pose_b": at(json!([5, -10, 0])),
        "velocity_b": [0, 20, 0], "interval": [0, 1]});
    let v = touchstone_oracle::answer_line_limited(&line.to_string(), &Options::default());
    assert_eq!(v["error"]["kind"], "limit", "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains("10000 advancement steps") && !m.contains("step limit of"), "{m}");
    let opts = Options { step_limit: Some(50), ..Options::default() };
    let v = touchstone_oracle::answer_line_limited(&line.to_string(), &opts);
    assert_eq!(v["error"]["message"], "the step limit of 50 per query was exceeded", "{v}");
}
