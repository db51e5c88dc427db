//! Cylinders through the oracle (issue 42, the engines' cylinders): `{"cylinder": …}` against
//! a ball in `distance`, exact answers to `digits` checked against values computed by hand or
//! by Python's `decimal` module (an independent route), claims, `both` under the contract,
//! poses, one ulp each way, and typed refusals.

use serde_json::{json, Value};
use touchstone_oracle::{answer_line, Options};

mod common;

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

/// Radius 1 about z from z = 0 to z = 4.
fn upright() -> Value {
    json!({"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 1}})
}

fn at(t: Value) -> Value {
    json!({"quaternion": [1, 0, 0, 0], "translation": t})
}

fn ball_at(r: Value, t: Value) -> Value {
    ask(json!({"op": "distance", "a": upright(), "b": {"ball": r}, "pose_b": at(t), "digits": 30}))
}

#[test]
fn caps_sides_rims_and_inside_by_hand() {
    // On cap 1: 1 above it, radius 1.
    let v = ball_at(json!(1), json!([0, "1/2", 5]));
    assert_eq!((v["status"].as_str(), v["features"][0].as_str()), (Some("touching"), Some("cap 1")), "{v}");
    assert_eq!(v["points"], json!([["0", "1/2", "4"], ["0", "1/2", "4"]]));
    // Beside the side at (3, 4): 5 from the axis, 4 from the side; radius 3: 1 apart, the
    // closest points (3/5, 4/5, 2) and, 2 from the axis, (6/5, 8/5, 2).
    let v = ball_at(json!(3), json!([3, 4, 2]));
    assert_eq!((v["status"].as_str(), v["distance"].as_str()), (Some("separated"), Some("1")), "{v}");
    assert_eq!(v["features"], json!(["side", "center"]));
    assert_eq!(v["points"], json!([["3/5", "4/5", "2"], ["6/5", "8/5", "2"]]));
    // Off the rim of cap 1 by (3, 4): 5 from it; radius 6 overlaps by 1.
    let v = ball_at(json!(6), json!([4, 0, 8]));
    assert_eq!((v["status"].as_str(), v["depth"].as_str()), (Some("penetrating"), Some("1")), "{v}");
    assert_eq!(v["features"][0], "rim 1");
    assert_eq!(v["center_distance_squared"], "25");
    // Centre inside at (1/2, 0, 1): 1/2 to the side, 1 to cap 0: depth s + 1/2.
    let v = ball_at(json!("1/4"), json!(["1/2", 0, 1]));
    assert_eq!((v["depth"].as_str(), v["features"][0].as_str()), (Some("0.75"), Some("inside")), "{v}");
}

#[test]
fn a_turned_rim_to_thirty_digits() {
    // Axis (1, 2, 2), radius 1; the ball's centre (10/3, 5/3, 8/3) is 1 above cap 1 and √5 from
    // the axis: d² = 1 + (√5 − 1)² = 7 − 2√5. The digits below are Python's decimal module's
    // at 50 digits, truncated: an independent route.
    let cylinder = json!({"cylinder": {"a": [0, 0, 0], "b": [1, 2, 2], "radius": 1}});
    let q = json!({"op": "distance", "a": {"ball": 1}, "pose_a": at(json!(["10/3", "5/3", "8/3"])), "b": cylinder, "digits": 30});
    let v = ask(q.clone());
    assert_eq!(v["distance"], "0.589925798583198223833566758143", "{v}");
    assert_eq!(v["center_distance_squared"], "2.52786404500042060718165266253");
    assert_eq!(v["description"]["center_distance_squared"], json!({"a": "7", "b": "-2", "m": "5"}));
    assert_eq!(v["features"], json!(["center", "rim 1"]));
    assert_eq!(
        v["points"],
        json!([
            ["2.42831868194793923487343312455", "1.59504051765511866795627136288", "2.24735988690327062831439034013"],
            ["1.89442719099991587856366946749", "1.55278640450004206071816526625", "2"]
        ])
    );
    // The f64 path agrees under the contract, and its distance is the rounded one.
    let mut both = q;
    both["backend"] = json!("both");
    let v = ask(both);
    assert_eq!(v["agreement"]["agree"], true, "{v}");
    assert!((v["f64"]["distance"].as_f64().unwrap() - 0.5899257985831982).abs() < 1e-15);
}

#[test]
fn one_ulp_each_way_of_touching() {
    // On cap 1 at 1 + 2⁻⁵² and 1 − 2⁻⁵² above it: separated by exactly 2⁻⁵², penetrating by
    // it, for a unit ball; and off the rim by (3, 4) with the radius 5 ± 2⁻⁵².
    let v = ball_at(json!(1), json!([0, 0, "22517998136852481/4503599627370496"]));
    assert_eq!(
        (v["status"].as_str(), v["distance"].as_str()),
        (Some("separated"), Some("2.22044604925031308084726333618e-16")),
        "{v}"
    );
    let v = ball_at(json!(1), json!([0, 0, "22517998136852479/4503599627370496"]));
    assert_eq!(
        (v["status"].as_str(), v["depth"].as_str()),
        (Some("penetrating"), Some("2.22044604925031308084726333618e-16")),
        "{v}"
    );
    for (r, status) in
        [("22517998136852479/4503599627370496", "separated"), ("22517998136852481/4503599627370496", "penetrating")]
    {
        let v = ball_at(json!(r), json!([4, 0, 8]));
        assert_eq!(v["status"], status, "{v}");
    }
}

#[test]
fn a_quarter_turn_and_claims() {
    // Turned a quarter about x, the axis runs to (0, −4, 0); a ball of radius 2 at (0, −6, 0)
    // touches cap 1 at (0, −4, 0).
    let q = json!({
        "op": "distance", "a": upright(), "pose_a": {"quaternion": [1, 1, 0, 0], "translation": [0, 0, 0]},
        "b": {"ball": 2}, "pose_b": at(json!([0, -6, 0])),
        "claim": {"status": "touching", "intersecting": true, "distance": 0, "points": [[0, -4, 0], [0, -4, 0]]},
    });
    let v = ask(q.clone());
    assert_eq!(v["verdict"]["ok"], true, "{v}");
    // A point off the cap's disc by 1/2 is not on the cylinder; a distance of 10⁻⁶ is wrong.
    let mut wrong = q;
    wrong["claim"] = json!({"distance": "1/1000000", "points": [["3/2", -4, 0], [0, -4, 0]]});
    let v = ask(wrong);
    let bad: Vec<&str> = v["verdict"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(bad, ["distance", "points/0", "points"], "{v}");
}

#[test]
fn generated_cases_agree_under_both() {
    let text = touchstone_oracle::check::demo::table_cases(&["ball-cylinder"], 300, 42).join("\n");
    for line in text.lines() {
        let mut q: Value = serde_json::from_str(line).unwrap();
        q["backend"] = json!("both");
        let v = ask(q);
        assert_eq!(v["verdict"]["ok"], true, "{line}\n{v}");
        assert_eq!(v["agreement"]["agree"], true, "{line}\n{v}");
    }
}

#[test]
fn what_is_not_answered_is_refused_by_name() {
    let kind_at = |q: Value| {
        let v = ask(q);
        (v["error"]["kind"].as_str().unwrap_or("").to_string(), v["error"]["at"].as_str().unwrap_or("").to_string())
    };
    let pair = |b: Value| json!({"op": "distance", "a": upright(), "b": b});
    assert_eq!(kind_at(pair(json!({"box": [1, 1, 1]}))), ("unsupported".into(), "/b/box".into()));
    assert_eq!(kind_at(pair(json!({"capsule": {"a": [0, 0, 0], "b": [1, 0, 0], "radius": 1}}))).0, "unsupported");
    assert_eq!(kind_at(pair(upright())), ("unsupported".into(), "/b/cylinder".into()));
    let toi = json!({"op": "toi", "a": upright(), "b": {"ball": 1}, "pose_b": at(json!([9, 0, 0])), "velocity_b": [-1, 0, 0]});
    assert_eq!(kind_at(toi), ("unsupported".into(), "/a/cylinder".into()));
    let contact = json!({"op": "contact", "a": upright(), "b": {"box": [1, 1, 1]}});
    assert_eq!(kind_at(contact).0, "unsupported");
    let flat =
        json!({"op": "distance", "a": {"cylinder": {"a": [1, 2, 3], "b": [1, 2, 3], "radius": 1}}, "b": {"ball": 1}});
    assert_eq!(kind_at(flat), ("invalid".into(), "/a/cylinder/b".into()));
    let thin = json!({"op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 1], "radius": "-1/2"}}, "b": {"ball": 1}});
    assert_eq!(kind_at(thin), ("invalid".into(), "/a/cylinder/radius".into()));
    let sheared = json!({"op": "distance", "a": upright(), "pose_a": {"matrix": [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]}, "b": {"ball": 1}});
    assert_eq!(kind_at(sheared), ("invalid".into(), "/pose_a".into()));
    let extra = json!({"op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 1], "radius": 1, "height": 2}}, "b": {"ball": 1}});
    assert_eq!(kind_at(extra).0, "unknown");
    // Hostile numbers: too many digits, a 3,000-digit coordinate, NaN; a float run that
    // overflows is said under `both` and the exact answer stands.
    let digits = json!({"op": "distance", "a": upright(), "b": {"ball": 1}, "digits": 100000});
    assert_eq!(kind_at(digits), ("limit".into(), "/digits".into()));
    let huge = format!("1{}", "0".repeat(3000));
    let far = json!({"op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, huge], "radius": 1}}, "b": {"ball": 1}});
    assert_eq!(kind_at(far), ("limit".into(), "/a/cylinder/b/2".into()));
    let nan = json!({"op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 1], "radius": "NaN"}}, "b": {"ball": 1}});
    assert_eq!(kind_at(nan).1, "/a/cylinder/radius");
    let tiny = json!({"op": "distance", "backend": "both", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, "1e-320"], "radius": 1}}, "b": {"ball": 1}});
    let v = ask(tiny);
    assert_eq!(
        (v["status"].as_str(), v["f64"]["error"]["kind"].as_str()),
        (Some("penetrating"), Some("overflow")),
        "{v}"
    );
}

/// parry3d on cylinders (`Cylinder` along y, turned onto the axis by its pose): right outside
/// and off the mid-height; a ball centred inside at mid-height gets the depth through the side
/// (2.75 for 2.25): its projection inside a cylinder takes a cap only when it is strictly
/// nearer than the other cap and the side, so the tie between the caps falls to the side.
#[test]
fn parry_on_cylinders() {
    let lines = [
        json!({"id": "cap", "op": "distance", "a": upright(), "b": {"ball": 1}, "pose_b": at(json!([0, "1/2", 5]))}),
        json!({"id": "rim", "op": "distance", "a": upright(), "b": {"ball": 5}, "pose_b": at(json!([4, 0, 8]))}),
        json!({"id": "low", "op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 3}}, "b": {"ball": "1/4"}, "pose_b": at(json!([0, "1/2", 1]))}),
        json!({"id": "mid", "op": "distance", "a": {"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 3}}, "b": {"ball": "1/4"}, "pose_b": at(json!([0, "1/2", 2]))}),
    ];
    let input: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let (out, err, code) = common::run_binary(&["check-engine", "parry3d", "--worst", "10"], input.as_bytes());
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("contact: 4 judged, 1 wrong"), "{out}");
    assert!(out.contains("line 4: engine said signed distance -2.75e0; exact: penetrating, depth 2.25"), "{out}");
    assert!(out.contains("\ndistance: 4 judged, 0 wrong"), "{out}");
}
