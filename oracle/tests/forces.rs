//! The `contact_forces` op through the format: contacts from the bodies' shapes against the
//! same contacts pasted from a `contact` answer's regions, claims right and wrong, each typed
//! error where it points; and a property test on generated degenerate systems (the fuzz
//! target's [`ForcesInput`]: statically indeterminate, repeated and collinear contacts, exact
//! rotations, Pythagorean inclines and slides) asserting what any valid answer satisfies,
//! checked independently of the solver: Newton–Euler equilibrium of every body the answer
//! holds at rest, forces in their cones, and `both` agreeing.

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use serde_json::{json, Value};
use touchstone::arbitrary::ForcesInput;
use touchstone::forces::State;
use touchstone::geom::Vector3;
use touchstone::query::both;
use touchstone_oracle::encode::replay_line;
use touchstone_oracle::{answer_line, Options};

type Q = BigRational;

fn ask(q: Value) -> Value {
    answer_line(&q.to_string(), &Options::default())
}

fn error_at(q: Value) -> (String, String) {
    let a = ask(q);
    let e = a.get("error").unwrap_or_else(|| panic!("no error: {a}"));
    (e["kind"].as_str().unwrap().to_string(), e["at"].as_str().unwrap().to_string())
}

/// A unit cube (half extents 1) of mass 8 at height `z` with the floor slab's top at 0.
fn cube_on_slab(z: Value) -> Value {
    json!({"op": "contact_forces", "gravity": [0, 0, -10], "contacts": [{"a": 0, "b": 1, "friction": "1/2"}],
        "bodies": [{"mass": 8, "inertia": [["16/3", 0, 0], [0, "16/3", 0], [0, 0, "16/3"]], "pose": {"translation": [0, 0, z]}, "shape": {"box": [1, 1, 1]}},
            {"fixed": true, "pose": {"translation": [0, 0, -1]}, "shape": {"box": [5, 5, 1]}}]})
}

/// Contacts from the shapes are the `contact` op's regions: the same line with the regions of a
/// real `contact` answer pasted in gives the same forces, and the cube's weight, 80, is carried
/// a quarter at each corner of its bottom face (the minimum-norm distribution; the cube's four
/// corners are coplanar, so A is rank deficient).
#[test]
fn shapes_give_the_contact_answers_regions() {
    let from_shapes = ask(cube_on_slab(json!(1)));
    assert!(from_shapes.get("error").is_none(), "{from_shapes}");
    assert_eq!(from_shapes["forces"], json!(vec![json!(["0", "0", "20"]); 4]), "{from_shapes}");
    assert_eq!(from_shapes["states"], json!(vec!["static"; 4]));
    assert_eq!((from_shapes["converged"].clone(), from_shapes["rank"].clone()), (json!(true), json!(6)));
    // The derived contacts are listed: the bottom face's corners, normal +z (out of the slab).
    let contacts = from_shapes["contacts"].as_array().unwrap();
    assert_eq!(contacts.len(), 4);
    let mut corners: Vec<Value> = contacts.iter().map(|c| c["point"].clone()).collect();
    corners.sort_by_key(|p| p.to_string());
    assert_eq!(
        corners,
        vec![json!(["-1", "-1", "0"]), json!(["-1", "1", "0"]), json!(["1", "-1", "0"]), json!(["1", "1", "0"])]
    );
    for c in contacts {
        assert_eq!((c["entry"].clone(), c["a"].clone(), c["b"].clone()), (json!(0), json!(0), json!(1)), "{c}");
        let n: Vec<Q> = c["normal"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().parse().unwrap()).collect();
        assert!(n[0].is_zero() && n[1].is_zero() && n[2].is_positive(), "{c}");
    }
    // The contact answer of the same poses, its regions pasted into the forces line.
    let contact = ask(json!({"op": "contact", "a": {"box": [1, 1, 1]}, "b": {"box": [5, 5, 1]},
        "pose_a": {"translation": [0, 0, 1]}, "pose_b": {"translation": [0, 0, -1]}}));
    assert_eq!(contact["status"], "touching", "{contact}");
    let mut pasted = cube_on_slab(json!(1));
    pasted["contacts"] = json!([{"a": 0, "b": 1, "friction": "1/2", "regions": contact["regions"]}]);
    let from_regions = ask(pasted.clone());
    assert_eq!(from_regions["forces"], from_shapes["forces"], "{from_regions}");
    assert_eq!(from_regions["contacts"], from_shapes["contacts"]);
    // `both` agrees on either.
    for mut q in [cube_on_slab(json!(1)), pasted] {
        q["backend"] = json!("both");
        let a = ask(q);
        assert_eq!(a["agreement"]["agree"], true, "{a}");
    }
}

/// A cube turned an eighth about z (the Pythagorean quaternion (2, 0, 0, 1): a rotation by
/// atan(4/3)) resting on the slab: the corners are rational and the quarter split holds.
#[test]
fn a_turned_cube_from_its_shape() {
    let mut q = cube_on_slab(json!(1));
    q["bodies"][0]["pose"]["quaternion"] = json!([2, 0, 0, 1]);
    let a = ask(q);
    assert_eq!(a["forces"], json!(vec![json!(["0", "0", "20"]); 4]), "{a}");
    let mut corners: Vec<Value> = a["contacts"].as_array().unwrap().iter().map(|c| c["point"].clone()).collect();
    corners.sort_by_key(|p| p.to_string());
    // (x, y) turned by cos = 3/5, sin = 4/5 is (3x − 4y, 4x + 3y) / 5: (1, 1) goes to
    // (−1/5, 7/5), (1, −1) to (7/5, 1/5), and the opposite corners to the negatives.
    assert_eq!(
        corners,
        vec![
            json!(["-1/5", "7/5", "0"]),
            json!(["-7/5", "-1/5", "0"]),
            json!(["1/5", "-7/5", "0"]),
            json!(["7/5", "1/5", "0"])
        ]
    );
}

/// Each way a contact_forces line can be wrong ends in a typed error that names the element.
#[test]
fn typed_errors_name_the_element() {
    // Penetrating shapes.
    assert_eq!(error_at(cube_on_slab(json!("1/2"))), ("invalid".into(), "/contacts/0".into()));
    // A contact without a point between bodies without shapes.
    let mut q = cube_on_slab(json!(1));
    q["bodies"][1].as_object_mut().unwrap().remove("shape");
    assert_eq!(error_at(q), ("missing".into(), "/bodies/1/shape".into()));
    // A body index out of range.
    let table = |contacts: Value, body0: Value| json!({"op": "contact_forces", "gravity": [0, 0, -10], "contacts": contacts, "bodies": [body0, {"fixed": true}]});
    let body = json!({"mass": 1, "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "pose": {"translation": [0, 0, 1]}});
    let point = |b: i64| json!({"a": 0, "b": b, "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 1});
    assert_eq!(error_at(table(json!([point(1), point(5)]), body.clone())), ("invalid".into(), "/contacts/1/b".into()));
    // A sliding direction of irrational length (√2) on the exact path.
    let mut sliding = body.clone();
    sliding["velocity"] = json!({"linear": [1, 1, 0]});
    assert_eq!(error_at(table(json!([point(1)]), sliding.clone())), ("invalid".into(), "/contacts/0".into()));
    // ... which f64 answers (its unit vectors are rounded), and a Pythagorean one both answer.
    let mut f = table(json!([point(1)]), sliding.clone());
    f["backend"] = json!("f64");
    assert_eq!(ask(f)["states"], json!(["dynamic"]));
    sliding["velocity"] = json!({"linear": [3, 4, 0]});
    let a = ask(table(json!([point(1)]), sliding));
    // Sliding: the normal force carries the weight, friction (μ = 1) against the velocity.
    assert_eq!(a["forces"], json!([["-6", "-8", "10"]]), "{a}");
    assert_eq!(a["states"], json!(["dynamic"]));
    // An inertia that is not positive definite, a negative mass, a nonpositive friction.
    let mut bad = body.clone();
    bad["inertia"] = json!([[1, 0, 0], [0, -1, 0], [0, 0, 1]]);
    assert_eq!(error_at(table(json!([point(1)]), bad)).0, "invalid");
    let mut bad = body.clone();
    bad["inertia"] = json!([[1, 0, 0], [0, -1, 0], [0, 0, 1]]);
    assert!(error_at(table(json!([point(1)]), bad)).1.starts_with("/bodies/0"));
    let mut bad = body.clone();
    bad["mass"] = json!(-1);
    assert!(error_at(table(json!([point(1)]), bad)).1.starts_with("/bodies/0"));
    let mut neg = point(1);
    neg["friction"] = json!(-1);
    assert!(error_at(table(json!([neg]), body.clone())).1.starts_with("/contacts/0"));
    // A zero normal.
    let mut zero = point(1);
    zero["normal"] = json!([0, 0, 0]);
    assert!(error_at(table(json!([zero]), body.clone())).1.starts_with("/contacts/0"));
    // A contact of a body with itself, and an iteration limit beyond the cap.
    assert!(error_at(table(json!([point(0)]), body.clone())).1.starts_with("/contacts/0"));
    let mut q = table(json!([point(1)]), body.clone());
    q["iteration_limit"] = json!(100001);
    assert_eq!(error_at(q.clone()).1, "/iteration_limit");
    assert!(ask(q)["error"]["message"].as_str().unwrap().contains("between 1 and 100000"));
    // One static contact under a free body whose centre is off to the side is not
    // inconsistent: the body tips, and the contact point's acceleration is zero for
    // f = (10/3, 0, 20/3) (by hand: r = (-1, 0, -1), α = (0, f_z - f_x, 0), a + α × r = 0).
    let mut off = body.clone();
    off["pose"] = json!({"translation": [1, 0, 1]});
    let a = ask(table(json!([point(1)]), off));
    assert_eq!((a["forces"].clone(), a["states"].clone()), (json!([["10/3", "0", "20/3"]]), json!(["static"])), "{a}");
    // An inconsistent system: a body spinning about z between two walls at x = ±1. The two
    // normal rows of A are opposite, but the centripetal accelerations of the contact points
    // (both towards the centre) do not cancel in b, so A f = -b has no solution; reported on
    // both backends, never a least-squares force.
    let mut spin = body;
    spin["pose"] = json!({"translation": [0, 0, 0]});
    spin["velocity"] = json!({"angular": [0, 0, 1]});
    let wall = |x: i64| json!({"a": 0, "b": 1, "point": [x, 0, 0], "normal": [-x, 0, 0], "friction": 0});
    let q = table(json!([wall(-1), wall(1)]), spin);
    for backend in ["exact", "f64"] {
        let mut q = q.clone();
        q["backend"] = json!(backend);
        let a = ask(q);
        let e = &a["error"];
        assert_eq!((e["kind"].as_str(), e["at"].as_str()), (Some("invalid"), Some("/contacts")), "{backend}: {a}");
        assert!(e["message"].as_str().unwrap().contains("inconsistent"), "{a}");
    }
}

/// Claims on forces and states, right and wrong; where A is rank deficient, a claimed
/// distribution that balances the weight but is not the minimum-norm one fails with a note.
#[test]
fn claims_on_forces_and_states() {
    let mut q = cube_on_slab(json!(1));
    let verdict = |q: &Value, claim: Value| {
        let mut q = q.clone();
        q["claim"] = claim;
        let a = ask(q);
        assert!(a.get("error").is_none(), "{a}");
        a["verdict"].clone()
    };
    let right = verdict(&q, json!({"forces": vec![json!([0, 0, 20]); 4], "states": vec!["static"; 4]}));
    assert_eq!(right["ok"], true, "{right}");
    // Within the tolerance.
    let near = verdict(&q, json!({"forces": [[1e-14, 0, 20.000000000001], [0, 0, 20], [0, 0, 20], [0, 0, 20]]}));
    assert_eq!(near["ok"], true, "{near}");
    // Diagonal corners carrying everything also balance the cube, but are not the answer.
    let contacts = ask(q.clone())["contacts"].clone();
    let diagonal: Vec<Value> = contacts
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (x, y) = (c["point"][0].as_str().unwrap(), c["point"][1].as_str().unwrap());
            json!([0, 0, if x.starts_with('-') == y.starts_with('-') { 40 } else { 0 }])
        })
        .collect();
    let wrong = verdict(&q, json!({"forces": diagonal}));
    assert_eq!(wrong["ok"], false, "{wrong}");
    let failed: Vec<&Value> = wrong["checks"].as_array().unwrap().iter().filter(|c| c["ok"] == false).collect();
    assert_eq!(failed.len(), 4, "{wrong}");
    assert!(failed.iter().all(|c| c["note"].as_str().is_some_and(|n| n.contains("minimum-norm"))), "{wrong}");
    // A wrong state.
    let v = verdict(&q, json!({"states": ["static", "dynamic", "static", "static"]}));
    let bad: Vec<&Value> = v["checks"].as_array().unwrap().iter().filter(|c| c["ok"] == false).collect();
    assert_eq!((bad.len(), bad[0]["field"].clone()), (1, json!("states/1")), "{v}");
    // A claim of the wrong length is judged wrong, not dropped.
    let v = verdict(&q, json!({"forces": [[0, 0, 40], [0, 0, 40]]}));
    assert_eq!(v["ok"], false, "{v}");
    // Sliding fast enough is dynamic; a static claim then fails.
    q["bodies"][0]["velocity"] = json!({"linear": [3, 4, 0]});
    let v = verdict(&q, json!({"states": vec!["static"; 4]}));
    assert_eq!(v["ok"], false, "{v}");
}

/// A force vector of the answer's exact rational strings.
fn vector(v: &Value) -> Vector3<Q> {
    let c = |i: usize| v[i].as_str().unwrap().parse::<Q>().unwrap();
    Vector3::new(c(0), c(1), c(2))
}

fn inputs() -> impl Strategy<Value = ForcesInput> {
    (
        (0u8..4, [any::<u8>(), any::<u8>(), any::<u8>()], any::<u8>(), any::<u8>(), any::<u8>()),
        (any::<u8>(), any::<u8>(), any::<u8>(), [any::<i8>(), any::<i8>()], any::<u8>()),
    )
        .prop_map(|((scene, half, mass, turn, slope), (friction, slide, extra, offset, static_speed))| {
            ForcesInput { scene, half, mass, turn, slope, friction, slide, extra, offset, static_speed }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Every answer the exact path gives to a generated degenerate system is a valid one, by
    /// checks that do not use the solver: forces of inactive contacts are zero, every other
    /// normal force is nonnegative, static forces lie in their friction cones (on squares) and
    /// dynamic ones on their cones' edge; and where every contact that carries a force is
    /// static and no body turns, every free body is in equilibrium: the forces on it and its
    /// weight sum to zero, and so do their torques about its centre of mass (zero relative
    /// acceleration at three non-collinear points of each rigid body at rest means no body
    /// accelerates). `both` agrees. A failure prints the oracle line.
    #[test]
    fn generated_systems_are_answered_validly(input in inputs()) {
        let query = input.query();
        let line = replay_line(&query);
        let Ok(b) = both(&query) else {
            // The exact path refuses (an irrational unit vector, an inconsistent system): the
            // oracle line says so with a typed error.
            let a = answer_line(&line, &Options::default());
            prop_assert_eq!(&a["error"]["kind"], "invalid", "replay: {}\n{}", line, a);
            return Ok(());
        };
        prop_assert!(b.agreement.is_ok(), "replay: {}\n{:?}", line, b.agreement);
        let out = &b.exact.output;
        let s = &out.solution;
        let a = answer_line(&line, &Options::default());
        prop_assert_eq!(a["forces"].as_array().map(Vec::len), Some(s.forces.len()), "replay: {}", line);
        let forces: Vec<Vector3<Q>> = a["forces"].as_array().unwrap().iter().map(vector).collect();
        prop_assert_eq!(&forces, &s.forces);
        for (k, (f, c)) in forces.iter().zip(&out.contacts).enumerate() {
            let n = &c.normal;
            let fn_ = f.dot(n);
            let tangential = f.dot(f) * n.dot(n) - fn_.clone() * fn_.clone();
            let cone = c.friction.clone() * c.friction.clone() * fn_.clone() * fn_.clone();
            match s.states[k] {
                State::Inactive => prop_assert!(f.iter().all(Zero::is_zero), "replay: {}: contact {}", line, k),
                State::Static if s.converged => {
                    prop_assert!(!fn_.is_negative(), "replay: {}: contact {} pulls", line, k);
                    prop_assert!(tangential <= cone, "replay: {}: contact {} leaves its cone", line, k);
                }
                State::Dynamic if s.converged => {
                    prop_assert!(!fn_.is_negative(), "replay: {}: contact {} pulls", line, k);
                    prop_assert_eq!(tangential, cone, "replay: {}: contact {} is off its cone's edge", line, k);
                }
                _ => {}
            }
        }
        let resting = s.converged && s.states.iter().all(|x| *x != State::Dynamic);
        if !resting {
            return Ok(());
        }
        // Each free body's contacts that carry a force must span a plane (three non-collinear
        // points) for zero point accelerations to mean zero body acceleration; bodies with
        // fewer may turn about a line (then nothing is asserted for the whole system).
        let bodies = &query.bodies;
        let exact = |x: f64| Q::from_float(x).unwrap();
        let gravity = query.gravity.map(exact);
        for (i, _) in bodies.iter().enumerate().filter(|(_, b)| !b.fixed) {
            let active: Vec<usize> = (0..forces.len())
                .filter(|&k| (out.contacts[k].a == i || out.contacts[k].b == i) && s.states[k] != State::Inactive)
                .collect();
            let spans = active.iter().any(|&p| active.iter().any(|&q| active.iter().any(|&r| {
                let (p, q, r) = (&out.contacts[p].point, &out.contacts[q].point, &out.contacts[r].point);
                !(q - p).cross(&(r - p)).iter().all(Zero::is_zero)
            })));
            if !spans {
                return Ok(());
            }
        }
        for (i, body) in bodies.iter().enumerate().filter(|(_, b)| !b.fixed) {
            let centre = match &body.pose {
                touchstone::query::PoseSpec::Quaternion { t, .. } => t.map(exact),
                _ => unreachable!("ForcesInput poses are quaternions"),
            };
            let mut force = gravity.clone() * exact(body.mass);
            let mut torque = Vector3::<Q>::zeros();
            for (k, c) in out.contacts.iter().enumerate() {
                let f = if c.a == i { forces[k].clone() } else if c.b == i { -forces[k].clone() } else { continue };
                let r = c.point.coords.clone() - Vector3::new(centre[0].clone(), centre[1].clone(), centre[2].clone());
                torque += r.cross(&f);
                force += f;
            }
            prop_assert!(force.iter().all(Zero::is_zero), "replay: {}: body {} is not in equilibrium: {:?}", line, i, force);
            prop_assert!(torque.iter().all(Zero::is_zero), "replay: {}: body {} turns: {:?}", line, i, torque);
        }
    }
}

/// From CI's `forces_diff` smoke run of 2026-12-06 (seed 1484623822, the first run of the
/// untraced fuzz build): a box on a 3–4–5 incline under the quaternion (2, 1, 0, 0), sliding
/// (friction 1, every contact dynamic), with contact 4 a repeat of contact 0. The exact
/// minimum-norm forces have no x component (the scene is symmetric in x); the `f64` solve
/// gives −0.123 on contacts 0 and 4. Both end with the same states, but not by the same path:
/// in the first solve contact 2's normal force is within rounding of 0 (the margin,
/// 7.5·10⁻²⁴); the exact run finds it negative and makes the contact inactive, the `f64` run
/// makes it dynamic along its rounding-sized tangential force, and the third solve's friction
/// directions come from the second's forces. The contract compares forces only along one path
/// (`ForcesDiscrete::path`): here the paths differ within
/// the budget, so any forces are admissible.
#[test]
fn sliding_on_an_incline_with_a_repeated_contact_fuzz() {
    let line = r#"{"op":"contact_forces","backend":"both","bodies":[{"fixed":true,"pose":{"quaternion":[2.0,1.0,0.0,0.0],"translation":[0.0,0.0,0.0]}},{"mass":5.0,"inertia":[[5.416666666666667,0.0,0.0],[0.0,3.3333333333333335,0.0],[0.0,0.0,5.416666666666667]],"pose":{"quaternion":[2.0,1.0,0.0,0.0],"translation":[0.0,-0.8,0.6]}}],"gravity":[0.0,0.0,-10.0],"contacts":[{"a":1,"b":0,"point":[-1.5,-0.6,-0.8],"normal":[0.0,-4.0,3.0],"friction":1.0},{"a":1,"b":0,"point":[1.5,-0.6,-0.8],"normal":[0.0,-4.0,3.0],"friction":1.0},{"a":1,"b":0,"point":[1.5,0.6,0.8],"normal":[0.0,-4.0,3.0],"friction":1.0},{"a":1,"b":0,"point":[-1.5,0.6,0.8],"normal":[0.0,-4.0,3.0],"friction":1.0},{"a":1,"b":0,"point":[-1.5,-0.6,-0.8],"normal":[0.0,-4.0,3.0],"friction":1.0}],"static_speed":0.5}"#;
    let a = touchstone_oracle::answer_line(line, &touchstone_oracle::Options::default());
    assert_eq!(a["agreement"]["agree"], true, "{a}");
    // Not by comparing the forces: they differ by far more than the tolerance.
    let fast = a["f64"]["forces"][0][0].as_f64().unwrap();
    assert!(fast.abs() > 0.1 && a["forces"][0][0] == "0", "{a}");
}
