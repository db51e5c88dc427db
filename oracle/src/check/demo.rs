//! `touchstone demo`: degenerate scenarios built into the binary, checked on parry3d and
//! `robust`, reported per scenario class in words.
//!
//! Every scenario is an oracle query line whose id names its class (`"face-on-face/2"`). The
//! exact answers are the oracle's; the constructions only make the configurations exact
//! (touching, gaps and depths of 2⁻ᵏ, exact rational rotations), so no expected value is
//! written here by hand.

use std::path::Path;
use std::time::Duration;

use num_rational::BigRational;
use num_traits::{One, Zero};
use rayon::prelude::*;
use serde_json::{json, Value};

use super::{adapters, badness, engine, judge_line, Engine, Judged, Outcome, ENGINES};
use crate::Options;
use touchstone::geom::{quaternion_matrix, Matrix3, Vector3};

type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// An exact rational as the format's string.
fn s(x: &Q) -> Value {
    json!(x.to_string())
}

fn v3(v: &Vector3<Q>) -> Value {
    json!([s(&v.x), s(&v.y), s(&v.z)])
}

fn rot(quat: [i64; 4]) -> Matrix3<Q> {
    quaternion_matrix::<Q>(&quat.map(|x| Q::from_integer(x.into()))).expect("a nonzero quaternion")
}

fn pow2(k: i32) -> Q {
    if k >= 0 {
        Q::from_integer(num_bigint::BigInt::one() << k as usize)
    } else {
        Q::new(1.into(), num_bigint::BigInt::one() << (-k) as usize)
    }
}

/// A unit cube (half extents 1/2) as a shape.
fn cube() -> Value {
    json!({"box": ["1/2", "1/2", "1/2"]})
}

fn cube_vertices() -> Vec<Vector3<Q>> {
    (0..8)
        .map(|k| {
            let c = |i: usize| if k & (1 << i) != 0 { q(1, 2) } else { q(-1, 2) };
            Vector3::new(c(0), c(1), c(2))
        })
        .collect()
}

/// The largest coordinate `axis` of the cube rotated by `r`.
fn extent(r: &Matrix3<Q>, axis: usize, vertices: &[Vector3<Q>]) -> Q {
    vertices.iter().map(|v| (r * v)[axis].clone()).max().unwrap_or_else(Q::zero)
}

fn pose(quat: [i64; 4], t: &Vector3<Q>) -> Value {
    json!({"quaternion": quat, "translation": v3(t)})
}

fn distance(id: String, a: Value, pose_a: Value, b: Value, pose_b: Value) -> Value {
    json!({"id": id, "op": "distance", "a": a, "pose_a": pose_a, "b": b, "pose_b": pose_b})
}

const ROTATIONS: [[i64; 4]; 4] = [[1, 0, 0, 0], [2, 1, 0, 0], [3, 1, -1, 2], [5, 2, 1, -3]];

/// The scenario classes, in the order the report shows them, with a sentence each.
pub const CLASSES: &[(&str, &str)] = &[
    ("face-on-face", "cubes touching face to face, both under the same exact rational rotation"),
    ("edge-on-edge", "parallel edges touching, and crossing edges of two rotated cubes meeting at a point"),
    ("vertex-contacts", "a tetrahedron's apex on a cube's face, on an edge, on a corner"),
    ("touching-and-ulp", "cubes touching exactly, and apart by one ulp of their size (2⁻⁵²)"),
    ("tiny-gaps", "a rotated cube's corner 2⁻¹ … 2⁻⁴⁵ away from a cube's face"),
    ("tiny-penetrations", "the same corner 2⁻¹ … 2⁻⁴⁵ inside the face"),
    ("rounded-rotations", "face-on-face contact under binary64 unit quaternions, as an engine holds them"),
    ("overlapping-boxes", "axis-aligned integer boxes overlapping by whole units"),
    ("zero-velocity", "shape casts with equal velocities: overlapping, touching, apart"),
    ("grazing-impacts", "casts whose first contact is exact: at t = 1/2, at 1 − 2⁻²⁷, and a graze at t = 1"),
    ("huge-and-tiny", "touching and separated cubes at 1e200 and 1e-200"),
    ("slivers", "a sliver tetrahedron (height 2⁻³⁰) near a cube"),
    ("well-separated", "rotated cubes a unit apart: nothing degenerate (a control)"),
    ("orient3d-near-coplanar", "orient3d of nearly coplanar points at unit scale"),
    ("orient3d-underflow", "orient3d of nearly coplanar points near 2⁻³⁴⁰, where products underflow"),
    ("point-containment", "points on a box's faces, edges and corners, one ulp out, and on translated boxes' faces as binary64 rounds them"),
    ("orient2d-near-collinear", "orient2d of nearly collinear points at unit scale"),
    ("orient2d-underflow", "orient2d of nearly collinear points near 2⁻⁵²⁰, where products underflow"),
    ("contact-manifolds", "the touching pairs of the first classes asked as `contact`: manifolds judged against R_t"),
    ("round-shapes", "balls and capsules touching at Pythagorean offsets (each other, a cube's face, edge and corner), and one ulp apart"),
    ("round-casts", "balls and capsules cast head on, obliquely and grazing, with exact first contacts (rational and 3 − 1/√2)"),
    ("cylinders", "balls on a cylinder's cap, side and rim (Pythagorean offsets), one ulp apart, off a turned cylinder's rim by an irrational gap, and centred inside nearer a cap than the side"),
];

/// Every scenario line.
pub fn scenarios() -> Vec<Value> {
    let mut out = Vec::new();
    for add in BUILDERS {
        add(&mut out);
    }
    out
}

/// The scenario classes in the order of the report, each a function that appends its lines.
const BUILDERS: [fn(&mut Vec<Value>); 20] = [
    face_on_face,
    parallel_edges,
    crossing_edges,
    vertex_contacts,
    touching_and_ulp,
    tiny_gaps_and_penetrations,
    rounded_rotations,
    overlapping_boxes,
    zero_velocity,
    grazing_impacts,
    huge_and_tiny,
    slivers,
    well_separated,
    orient3d_near_coplanar,
    point_containment,
    orient2d_near_collinear,
    contact_manifolds,
    round_shapes,
    round_casts,
    cylinders,
];

/// Face on face: b = a moved by R·(1, 0, 0) (and along y, z).
fn face_on_face(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, quat) in ROTATIONS.iter().enumerate() {
        let r = rot(*quat);
        for (m, axis) in
            [Vector3::new(q(1, 1), q(0, 1), q(0, 1)), Vector3::new(q(0, 1), q(0, 1), q(-1, 1))].iter().enumerate()
        {
            let t = &r * axis;
            out.push(distance(id("face-on-face", 2 * n + m), cube(), pose(*quat, &zero), cube(), pose(*quat, &t)));
        }
    }
}

/// Parallel edges: b moved by (1, 1, 0) (and rotated together).
fn parallel_edges(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, quat) in ROTATIONS.iter().enumerate() {
        let r = rot(*quat);
        let t = &r * Vector3::new(q(1, 1), q(1, 1), q(0, 1));
        out.push(distance(id("edge-on-edge", n), cube(), pose(*quat, &zero), cube(), pose(*quat, &t)));
    }
}

/// Crossing edges: a turned about y (its top is an edge along y), b about x (its bottom an
/// edge along x), b placed on top.
fn crossing_edges(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let cv = cube_vertices();
    for (n, (qa, qb)) in
        [([2, 0, 1, 0], [2, 1, 0, 0]), ([3, 0, 1, 0], [3, 1, 0, 0]), ([2, 0, 1, 0], [3, 1, 0, 0])].iter().enumerate()
    {
        let (ra, rb) = (rot(*qa), rot(*qb));
        let top = extent(&ra, 2, &cv);
        let bottom = -extent(&(-&rb), 2, &cv);
        let t = Vector3::new(q(0, 1), q(0, 1), top - bottom);
        out.push(distance(id("edge-on-edge", 4 + n), cube(), pose(*qa, &zero), cube(), pose(*qb, &t)));
    }
}

/// A tetrahedron's apex on a face, an edge, a corner.
fn vertex_contacts(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let tetra = |apex: [Q; 3], dirs: [[i64; 3]; 3]| {
        let p = |d: [i64; 3]| {
            json!([
                s(&(apex[0].clone() + q(d[0], 1))),
                s(&(apex[1].clone() + q(d[1], 1))),
                s(&(apex[2].clone() + q(d[2], 1)))
            ])
        };
        json!({"convex_hull": [[s(&apex[0]), s(&apex[1]), s(&apex[2])], p(dirs[0]), p(dirs[1]), p(dirs[2])]})
    };
    let h = q(1, 2);
    let contacts = [
        tetra([q(1, 8), q(-1, 16), h.clone()], [[1, 0, 1], [-1, 1, 1], [0, -1, 1]]),
        tetra([q(1, 8), h.clone(), h.clone()], [[1, 1, 1], [-1, 1, 1], [0, 2, 1]]),
        tetra([h.clone(), h.clone(), h.clone()], [[2, 1, 1], [1, 2, 1], [1, 1, 2]]),
    ];
    for (n, t) in contacts.into_iter().enumerate() {
        out.push(json!({"id": id("vertex-contacts", n), "op": "distance", "a": cube(), "b": t}));
    }
}

/// Touching exactly; one ulp apart; along rotated axes too.
fn touching_and_ulp(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, quat) in ROTATIONS.iter().enumerate() {
        let r = rot(*quat);
        for (m, gap) in [Q::zero(), pow2(-52)].iter().enumerate() {
            let t = &r * Vector3::new(q(1, 1) + gap, q(0, 1), q(0, 1));
            out.push(distance(id("touching-and-ulp", 2 * n + m), cube(), pose(*quat, &zero), cube(), pose(*quat, &t)));
        }
    }
}

/// A rotated cube's lowest corner 2⁻ᵏ above (or below) a's top face.
fn tiny_gaps_and_penetrations(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let cv = cube_vertices();
    let h = q(1, 2);
    for (class, sign) in [("tiny-gaps", 1), ("tiny-penetrations", -1)] {
        let mut n = 0;
        for quat in &ROTATIONS[2..] {
            let r = rot(*quat);
            let bottom = -extent(&(-&r), 2, &cv);
            for k in [1, 5, 10, 20, 30, 40, 45] {
                let t = Vector3::new(q(1, 16), q(-1, 32), h.clone() - bottom.clone() + pow2(-k) * q(sign, 1));
                out.push(distance(id(class, n), cube(), Value::Null, cube(), pose(*quat, &t)));
                n += 1;
            }
        }
    }
}

/// Rounded rotations: the unit quaternion of each exact one, rounded to binary64; b is moved
/// by that rotation's exact image of (1, 0, 0) so that the faces touch exactly.
fn rounded_rotations(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, quat) in ROTATIONS[1..].iter().enumerate() {
        let norm = quat.iter().map(|x| (x * x) as f64).sum::<f64>().sqrt();
        let unit = quat.map(|x| x as f64 / norm);
        let exact = unit.map(|x| Q::from_float(x).expect("finite"));
        let r = quaternion_matrix::<Q>(&exact).expect("nonzero");
        let t = &r * Vector3::new(q(1, 1), q(0, 1), q(0, 1));
        let p = |t: &Vector3<Q>| json!({"quaternion": unit, "translation": v3(t)});
        out.push(distance(id("rounded-rotations", n), cube(), p(&zero), cube(), p(&t)));
    }
}

/// Integer boxes overlapping by whole units.
fn overlapping_boxes(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, (hb, t)) in [
        ([1, 1, 1], [1, 0, 0]),
        ([2, 1, 1], [2, 1, 0]),
        ([1, 1, 1], [0, 0, 0]),
        ([3, 2, 1], [3, 2, 1]),
        ([1, 1, 1], [1, 1, 1]),
    ]
    .iter()
    .enumerate()
    {
        let b = json!({"box": hb});
        let tr = Vector3::new(q(t[0], 1), q(t[1], 1), q(t[2], 1));
        out.push(distance(
            id("overlapping-boxes", n),
            json!({"box": [1, 1, 1]}),
            Value::Null,
            b,
            pose([1, 0, 0, 0], &tr),
        ));
    }
}

/// Shape casts with equal velocities.
fn zero_velocity(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, x) in [q(1, 2), q(1, 1), q(2, 1)].iter().enumerate() {
        let t = Vector3::new(x.clone(), q(0, 1), q(0, 1));
        out.push(json!({"id": id("zero-velocity", n), "op": "toi", "a": cube(), "b": cube(), "pose_b": pose([1, 0, 0, 0], &t),
            "velocity_a": [1, 2, 0], "velocity_b": [1, 2, 0]}));
    }
}

/// Exact first contacts: b 2 away closing at 2 (gap 1: t = 1/2); closing so that contact
/// is at 1 − 2⁻²⁷; sliding past a's edge, touching only at t = 1.
fn grazing_impacts(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let eps = pow2(-27);
    let late = q(1, 1) / (q(1, 1) - eps.clone());
    let casts = [
        (Vector3::new(q(2, 1), q(0, 1), q(0, 1)), json!([-2, 0, 0])),
        (Vector3::new(q(2, 1), q(0, 1), q(0, 1)), json!([format!("-{late}"), 0, 0])),
        (Vector3::new(q(2, 1), q(1, 1), q(0, 1)), json!([-1, 0, 0])),
        (Vector3::new(q(2, 1), q(1, 2), q(1, 2)), json!([-1, 0, 0])),
    ];
    for (n, (t, v)) in casts.into_iter().enumerate() {
        out.push(json!({"id": id("grazing-impacts", n), "op": "toi", "a": cube(), "b": cube(),
            "pose_b": pose([1, 0, 0, 0], &t), "velocity_b": v}));
    }
}

/// Huge and tiny: cubes of size 1e200 and 1e-200, touching and a quarter apart.
fn huge_and_tiny(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, size) in [1e200f64, 1e-200].iter().enumerate() {
        let half = Q::from_float(size / 2.0).expect("finite");
        for (m, gap) in [q(0, 1), q(1, 4)].iter().enumerate() {
            let x = half.clone() * (q(2, 1) + gap);
            let b = json!({"box": [s(&half), s(&half), s(&half)]});
            let t = Vector3::new(x, q(0, 1), q(0, 1));
            out.push(distance(id("huge-and-tiny", 2 * n + m), b.clone(), Value::Null, b, pose([2, 1, 0, 0], &t)));
        }
    }
}

/// A sliver: a flat tetrahedron of height 2⁻³⁰ near the top face.
fn slivers(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let h = q(1, 2);
    for (n, gap) in [q(1, 8), q(0, 1)].iter().enumerate() {
        let z = h.clone() + gap;
        let flat = pow2(-30);
        let sliver = json!({"convex_hull": [[0, 0, s(&z)], [1, 0, s(&z)], [0, 1, s(&z)], ["1/3", "1/3", s(&(z.clone() + flat))]]});
        out.push(json!({"id": id("slivers", n), "op": "distance", "a": cube(), "b": sliver}));
    }
}

/// A control: rotated cubes apart by one unit and more.
fn well_separated(out: &mut Vec<Value>) {
    let zero = Vector3::from_element(Q::zero());
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (n, quat) in ROTATIONS.iter().enumerate() {
        let t = Vector3::new(q(3, 1), q(1, 3), q(-1, 5));
        out.push(distance(id("well-separated", n), cube(), pose([1, 0, 0, 0], &zero), cube(), pose(*quat, &t)));
    }
}

/// orient3d: d just off the plane of a, b, c, at unit scale and at 2⁻³⁴⁰.
fn orient3d_near_coplanar(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (class, scale) in [("orient3d-near-coplanar", 0), ("orient3d-underflow", -340)] {
        for (n, k) in [20, 40, 52, 60].iter().enumerate() {
            let sc = 2f64.powi(scale);
            let d = [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0 + 2f64.powi(-k)].map(|x| x * sc);
            out.push(json!({"id": id(class, n), "op": "orient3d",
                "points": [[sc, 0.0, 0.0], [0.0, sc, 0.0], [0.0, 0.0, sc], d]}));
        }
    }
}

/// Point containment: on the faces, edges and corners of the unit box and a tetrahedron
/// (contained: the solids are closed), one ulp outside and inside; and the point t + 1/2
/// computed in binary64 on the face x = t + 1/2 of a box translated by t, which rounds to
/// just outside (an engine that works in the box's frame rounds it back onto the face).
fn point_containment(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let class = "point-containment";
    let mut n = 0;
    let mut point_line = |solid: Value, pose: Option<Value>, p: [f64; 3]| {
        let mut l = json!({"id": id(class, n), "op": "classify_point", "solid": solid, "point": p});
        if let Some(pose) = pose {
            l["pose"] = pose;
        }
        out.push(l);
        n += 1;
    };
    let up = 1.0 + f64::EPSILON;
    for p in [
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
        [0.5, -1.0, 0.25],
        [up, 0.0, 0.0],
        [1.0, up, 0.5],
        [1.0 - f64::EPSILON / 2.0, 0.0, 0.0],
    ] {
        point_line(json!({"box": [1, 1, 1]}), None, p);
    }
    let tetra = json!({"convex_hull": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]});
    point_line(tetra.clone(), None, [0.25, 0.25, 0.5]);
    point_line(tetra, None, [0.25, 0.25, 0.25]);
    for t in [0.3, 1e-3] {
        let pose = json!({"quaternion": [1, 0, 0, 0], "translation": [t, t, t]});
        point_line(json!({"box": [0.5, 0.5, 0.5]}), Some(pose), [t + 0.5, t, t]);
    }
}

/// orient2d: c just off the line through a and b, at unit scale and at 2⁻⁵²⁰.
fn orient2d_near_collinear(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    for (class, scale) in [("orient2d-near-collinear", 0), ("orient2d-underflow", -520)] {
        for (n, k) in [20, 40, 52, 60].iter().enumerate() {
            let sc = 2f64.powi(scale);
            let c = [1.0 / 3.0, 2.0 / 3.0 + 2f64.powi(-k)].map(|x| x * sc);
            out.push(json!({"id": id(class, n), "op": "orient2d", "points": [[sc, 0.0], [0.0, sc], c]}));
        }
    }
}

/// The touching pairs again, as contact lines: face on face, edges, vertices, exactly and
/// under rounded rotations.
fn contact_manifolds(out: &mut Vec<Value>) {
    let id = |c: &str, n: usize| format!("{c}/{n}");
    let touching: Vec<Value> = out
        .iter()
        .filter(|l| {
            let c = class_of(&l["id"]);
            let exact_touch =
                c == "touching-and-ulp" && l["id"].as_str().is_some_and(|i| i.ends_with(['0', '2', '4', '6']));
            ["face-on-face", "edge-on-edge", "vertex-contacts", "rounded-rotations"].contains(&c) || exact_touch
        })
        .cloned()
        .collect();
    for (n, mut l) in touching.into_iter().enumerate() {
        l["id"] = json!(id("contact-manifolds", n));
        l["op"] = json!("contact");
        out.push(l);
    }
}

/// Round shapes touching by construction: two balls at the offsets (3, 4, 0; 5) and (2, 3,
/// 6; 7) split between the radii, a ball on a cube's face, edge (offset (3, 4) from it, radius
/// 5) and corner ((2, 3, 6), radius 7), crossing and parallel capsules, and each moved one ulp
/// of its scale (2⁻⁵²) apart.
fn round_shapes(out: &mut Vec<Value>) {
    let id = |n: usize| format!("round-shapes/{n}");
    let unit = || json!({"box": [1, 1, 1]});
    let at = |t: [Q; 3]| json!({"translation": [s(&t[0]), s(&t[1]), s(&t[2])]});
    let capsule = |a: [i64; 3], b: [i64; 3], r: i64| json!({"capsule": {"a": a, "b": b, "radius": r}});
    let ulp = pow2(-52);
    let mut n = 0;
    for apart in [Q::zero(), ulp.clone()] {
        let up = |k: i64| q(k, 1) + &apart * q(k.abs().max(1), 1);
        let pairs = [
            (json!({"ball": 2}), json!({"ball": 3}), [up(3), q(4, 1), q(0, 1)]),
            (json!({"ball": 3}), json!({"ball": 4}), [q(2, 1), q(3, 1), up(6)]),
            (unit(), json!({"ball": 1}), [q(0, 1), q(0, 1), up(2)]),
            (unit(), json!({"ball": 5}), [q(4, 1), q(0, 1), up(5)]),
            (unit(), json!({"ball": 7}), [q(3, 1), q(4, 1), up(7)]),
            (capsule([-4, 0, 0], [4, 0, 0], 1), capsule([0, -4, 0], [0, 4, 0], 1), [q(0, 1), q(0, 1), up(2)]),
            (capsule([-4, 0, 0], [4, 0, 0], 1), capsule([-2, 0, 0], [6, 0, 0], 2), [q(0, 1), q(0, 1), up(3)]),
            (unit(), capsule([-3, 0, 0], [3, 0, 0], 1), [q(0, 1), q(0, 1), up(2)]),
        ];
        for (a, b, t) in pairs {
            out.push(distance(id(n), a, Value::Null, b, at(t)));
            n += 1;
        }
    }
}

/// Balls against cylinders touching by construction: on the cap (and under the other cap, the
/// ball as a), beside the side at (3, 4) from the axis, off the rim by (3, 4; 5), on the cap of
/// a cylinder turned a quarter about x; each moved one ulp of its scale apart; a ball off a
/// turned cylinder's rim by √(7 − 2√5) − 1; and balls centred inside, nearer a cap than the
/// side (at mid-height, the caps tie).
fn cylinders(out: &mut Vec<Value>) {
    let id = |n: usize| format!("cylinders/{n}");
    let at = |t: [Q; 3]| json!({"translation": [s(&t[0]), s(&t[1]), s(&t[2])]});
    let upright = || json!({"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 1}});
    let ulp = pow2(-52);
    let mut n = 0;
    for apart in [Q::zero(), ulp.clone()] {
        let up = |k: i64| q(k, 1) + &apart * q(k.abs().max(1), 1);
        let pairs = [
            (upright(), Value::Null, json!({"ball": 1}), at([q(0, 1), q(1, 2), up(5)])),
            (json!({"ball": 1}), at([q(1, 2), q(0, 1), -up(1)]), upright(), Value::Null),
            (upright(), Value::Null, json!({"ball": 4}), at([up(3), up(4), q(2, 1)])),
            (upright(), Value::Null, json!({"ball": 5}), at([up(4), q(0, 1), up(8)])),
            (
                upright(),
                json!({"quaternion": [1, 1, 0, 0], "translation": [0, 0, 0]}),
                json!({"ball": 2}),
                at([q(0, 1), -up(6), q(0, 1)]),
            ),
        ];
        for (a, pa, b, pb) in pairs {
            out.push(distance(id(n), a, pa, b, pb));
            n += 1;
        }
    }
    let turned = json!({"cylinder": {"a": [0, 0, 0], "b": [1, 2, 2], "radius": 1}});
    out.push(distance(id(n), turned, Value::Null, json!({"ball": 1}), json!({"translation": ["10/3", "5/3", "8/3"]})));
    // A ball centred inside a wide cylinder, 1 from cap 0 (depth 5/4), and at mid-height, as
    // far from either cap (depth 9/4): the shortest way out is through a cap, not the side.
    let wide = || json!({"cylinder": {"a": [0, 0, 0], "b": [0, 0, 4], "radius": 3}});
    for (k, z) in [(1, 1), (2, 2)] {
        out.push(distance(
            id(n + k),
            wide(),
            Value::Null,
            json!({"ball": "1/4"}),
            json!({"translation": [0, "1/2", z]}),
        ));
    }
}

/// Round shapes cast with exact first contacts: balls head on (t = 8), a ball grazing a
/// capsule's side (a double root at t = 9) and passing one ulp above it, a capsule falling
/// across a capsule (t = 1), rounded cubes meeting edge to edge at 3 − 1/√2, a ball falling
/// onto a cube's edge and meeting its corner (t = 5).
fn round_casts(out: &mut Vec<Value>) {
    let id = |n: usize| format!("round-casts/{n}");
    let unit = || json!({"box": [1, 1, 1]});
    let capsule = |a: [i64; 3], b: [i64; 3], r: i64| json!({"capsule": {"a": a, "b": b, "radius": r}});
    let rounded = json!({"round": {"shape": {"box": [1, 1, 1]}, "radius": "1/2"}});
    let above = s(&(q(2, 1) + pow2(-51)));
    let casts = [
        (json!({"ball": 1}), json!({"translation": [-10, 0, 0]}), json!({"ball": 1}), json!([1, 0, 0]), 20),
        (
            json!({"ball": 1}),
            json!({"translation": [0, -9, 2]}),
            capsule([-4, 0, 0], [4, 0, 0], 1),
            json!([0, 1, 0]),
            20,
        ),
        (
            json!({"ball": 1}),
            json!({"translation": [0, -9, above]}),
            capsule([-4, 0, 0], [4, 0, 0], 1),
            json!([0, 1, 0]),
            20,
        ),
        (capsule([-4, 0, 3], [4, 0, 3], 1), Value::Null, capsule([0, -4, 0], [0, 4, 0], 1), json!([0, 0, -1]), 10),
        (rounded.clone(), json!({"translation": [-5, -5, 0]}), rounded, json!([1, 1, 0]), 10),
        (json!({"ball": 5}), json!({"translation": [4, 5, 6]}), unit(), json!([0, 0, -1]), 10),
    ];
    for (n, (a, pose_a, b, v, t1)) in casts.into_iter().enumerate() {
        out.push(
            json!({"id": id(n), "op": "toi", "a": a, "pose_a": pose_a, "b": b, "velocity_a": v, "interval": [0, t1]}),
        );
    }
}

/// The class of a scenario id.
pub fn class_of(id: &Value) -> &str {
    id.as_str().and_then(|s| s.split('/').next()).unwrap_or("")
}

/// What the demo found in one class.
#[derive(Clone, Debug, Default)]
pub struct ClassResult {
    /// Scenarios in the class.
    pub scenarios: usize,
    /// Answers judged (an engine answers several functions per scenario).
    pub judged: usize,
    /// The findings: answers wrong beyond the tolerance, panics, hangs.
    pub findings: Vec<Judged>,
    /// Discrete answers wrong only within the tolerance of their degeneracy
    /// ([`Outcome::Flip`]).
    pub flips: Vec<Judged>,
}

/// The engines the demo runs by default: parry3d and robust, built in, then every shipped
/// adapter whose engine is installed for `python` (each started once: its hello read); with a
/// line for each one that is not (why, and the command that installs it).
pub fn installed_engines(python: &Path, limit: Option<Duration>) -> (Vec<&'static dyn Engine>, Vec<String>) {
    let mut engines: Vec<&'static dyn Engine> = ENGINES.iter().filter_map(|e| engine(e)).collect();
    let mut missing = Vec::new();
    // Started side by side: an interpreter that never says hello costs one patience, not four.
    let started: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            adapters::SHIPPED.iter().map(|s| (s, scope.spawn(move || adapters::start(s, python, limit)))).collect();
        handles.into_iter().map(|(s, h)| (s, h.join().unwrap_or_else(|_| Err("the start panicked".into())))).collect()
    });
    for (s, started) in started {
        match started {
            Ok(p) => engines.push(Box::leak(Box::new(p))),
            Err(e) => missing.push(format!("{}: not run ({})", s.name, first_line(&e))),
        }
    }
    (engines, missing)
}

/// The engines named in `list` (comma-separated: `parry3d,fcl`), shipped adapters started
/// with `python`.
///
/// Errors: an unknown name, or an adapter that does not start (its words).
pub fn named_engines(list: &str, python: &Path, limit: Option<Duration>) -> Result<Vec<&'static dyn Engine>, String> {
    let mut engines: Vec<&'static dyn Engine> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if engines.iter().any(|e| e.name() == name) {
            continue;
        }
        match (engine(name), adapters::find(name)) {
            (Some(e), _) => engines.push(e),
            (None, Some(s)) => engines.push(Box::leak(Box::new(adapters::start(s, python, limit)?))),
            (None, None) => {
                let known: Vec<&str> =
                    ENGINES.iter().copied().chain(adapters::SHIPPED.iter().map(|s| s.name)).collect();
                return Err(format!("unknown engine {name:?} (known: {})", known.join(", ")));
            }
        }
    }
    if engines.is_empty() {
        return Err("no engine named".into());
    }
    Ok(engines)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Check `engines` on every scenario: per class, in [`CLASSES`] order.
pub fn run(
    engines: &[&'static dyn Engine],
    opts: &Options,
    limit: Option<Duration>,
) -> Vec<(&'static str, ClassResult)> {
    let values = scenarios();
    let lines: Vec<String> = values.iter().map(Value::to_string).collect();
    // Each line with each engine, in parallel; the results keep the scenarios' order.
    let judged: Vec<(usize, Vec<Judged>)> = lines
        .par_iter()
        .enumerate()
        .map(|(i, line)| {
            let all = engines.iter().flat_map(|e| judge_line(*e, i + 1, line, opts, limit)).collect();
            (i, all)
        })
        .collect();
    let mut out: Vec<(&'static str, ClassResult)> = CLASSES.iter().map(|(c, _)| (*c, ClassResult::default())).collect();
    for (i, js) in judged {
        let class = class_of(&values[i]["id"]);
        let Some((_, r)) = out.iter_mut().find(|(c, _)| *c == class) else { continue };
        r.scenarios += 1;
        for j in js {
            match j.outcome {
                Outcome::Refused(_) | Outcome::Unjudged(_) => continue,
                Outcome::Right => {}
                Outcome::Flip(_) => r.flips.push(j),
                _ => r.findings.push(j),
            }
            r.judged += 1;
        }
    }
    out
}

/// Judgements counted per function, in order of first appearance: `["contact 3", …]`.
fn by_function(js: &[Judged]) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for j in js {
        let label = function_label(j);
        match counts.iter_mut().find(|(f, _)| *f == label) {
            Some((_, n)) => *n += 1,
            None => counts.push((label, 1)),
        }
    }
    counts.iter().map(|(f, n)| format!("{f} {n}")).collect()
}

/// An engine with its version, as the demo's header names it (`parry3d-f64 0.31`, `fcl
/// python-fcl 0.7.0.11`).
fn engine_words(e: &dyn Engine) -> String {
    match e.name() {
        "parry3d" => "parry3d-f64 0.31".into(),
        "robust" => "robust 1.2".into(),
        name => e.header().map_or(name.into(), |h| h.split(", settings").next().unwrap_or(name).to_string()),
    }
}

/// A judgement's function as the demo names it: the built-in engines' alone (their names do
/// not collide), an adapter's after its engine (`fcl collide`).
fn function_label(j: &Judged) -> String {
    if ENGINES.contains(&j.engine) {
        j.function.clone()
    } else {
        format!("{} {}", j.engine, j.function)
    }
}

/// The demo's report in words.
pub fn render(
    results: &[(&'static str, ClassResult)],
    engines: &[&'static dyn Engine],
    not_run: &[String],
    seconds: f64,
) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let names: Vec<String> = engines.iter().map(|e| engine_words(*e)).collect();
    let _ = writeln!(s, "touchstone demo: {} on degenerate configurations, judged exactly", names.join(", "));
    for n in not_run {
        let _ = writeln!(s, "  {n}");
    }
    if !not_run.is_empty() {
        let _ = writeln!(
            s,
            "  (install them: python3 -m venv .venv-engines && .venv-engines/bin/pip install -r adapters/requirements.txt)"
        );
    }
    let _ = writeln!(s);
    let mut total = 0;
    for (class, r) in results {
        let sentence = CLASSES.iter().find(|(c, _)| c == class).map_or("", |(_, t)| t);
        total += r.findings.len();
        let flips = match r.flips.len() {
            0 => String::new(),
            n => {
                let m = r.flips.iter().filter_map(|j| j.margin).fold(0.0f64, f64::max);
                format!(
                    "; {n} within the tolerance of the degeneracy ({}; margins up to {m:.3e})",
                    by_function(&r.flips).join(", ")
                )
            }
        };
        if r.findings.is_empty() {
            let (label, what) = if r.flips.is_empty() { ("ok  ", "right") } else { ("flip", "right or flips") };
            let _ = writeln!(
                s,
                "  {label}   {class}: {sentence}\n         all {} answers {what} ({} scenarios){flips}",
                r.judged, r.scenarios
            );
            continue;
        }
        let counts = by_function(&r.findings);
        let _ = writeln!(
            s,
            "  WRONG  {class}: {sentence}\n         {} of {} answers wrong beyond the tolerance ({}){flips}",
            r.findings.len(),
            r.judged,
            counts.join(", ")
        );
        // The worst: a wrong boolean first, else the largest error.
        let worst = r
            .findings
            .iter()
            .max_by(|x, y| badness(x).0.cmp(&badness(y).0).then(badness(x).1.total_cmp(&badness(y).1)))
            .expect("a finding");
        let off = match (worst.abs_error, worst.rel_error) {
            (Some(a), Some(r)) => format!("; off by {a:.3e} ({:.3e} relative)", r),
            (Some(a), None) => format!("; off by {a:.3e}"),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "         e.g. {} {}{}: {} said {}; exact: {}{off}",
            worst.id.as_str().unwrap_or(""),
            function_label(worst),
            match &worst.outcome {
                Outcome::Wrong(f) => format!(" ({})", f.join(", ")),
                _ => String::new(),
            },
            worst.engine,
            worst.said,
            worst.truth
        );
    }
    let _ = writeln!(s, "\n{total} findings in {seconds:.1} s.");
    let _ = writeln!(
        s,
        "Replay one: `touchstone check-engine parry3d --findings wrong.jsonl demo.jsonl`, where demo.jsonl\n\
         is `touchstone demo --scenarios`; each line of wrong.jsonl is a query with the engine's claim,\n\
         which `touchstone wrong.jsonl` answers exactly with a verdict naming the wrong fields."
    );
    s
}

/// The `gen` kinds of the engine table: every pair of convex shapes touching by construction
/// (face, edge, vertex), tiny gaps and depths, face contacts asked as `contact`, linear sweeps.
pub const TABLE_KINDS: &[&str] = &[
    "face-face",
    "face-overlap",
    "edge-edge",
    "edge-face",
    "vertex-face",
    "vertex-edge",
    "vertex-vertex",
    "gap",
    "penetration",
    "box-sweep",
];

/// The `gen` kinds of the round-shape table (`demo --table --round`): balls and capsules
/// resting on a box's face, edge and corner, capsules on capsules, tiny gaps, casts, balls on
/// cylinders.
pub const ROUND_TABLE_KINDS: &[&str] = &[
    "ball-face",
    "ball-edge",
    "ball-vertex",
    "capsule-face",
    "capsule-edge",
    "capsules",
    "ball-gap",
    "round-cast",
    "ball-cylinder",
];

/// The lines of `touchstone gen KIND --count COUNT --seed SEED` for every kind of `kinds`
/// ([`TABLE_KINDS`] or [`ROUND_TABLE_KINDS`]), in that order.
pub fn table_cases(kinds: &[&str], count: usize, seed: u64) -> Vec<String> {
    let mut lines = Vec::new();
    for name in kinds {
        let Some(kind) = touchstone::strategies::kind_named(name) else { continue };
        let mut src = touchstone::strategies::Source::new(seed);
        for n in 0..count {
            lines.push(crate::encode::case_line(&touchstone::strategies::case(kind, n, &mut src)).to_string());
        }
    }
    lines
}

/// Check every engine on `lines` ([`super::check`]) and tabulate, in Markdown, per engine and
/// function: answers judged, wrong beyond the tolerance (false positives and negatives of a
/// boolean), flips within it, the engine's crashes and hangs (per engine: a process dies on a
/// line, whatever the function) and the largest error of a number. `progress(engine, lines)`
/// is told as lines are checked.
pub fn table(
    engines: &[&'static dyn Engine],
    lines: &[String],
    opts: &Options,
    limit: Option<Duration>,
    mut progress: impl FnMut(&str, u64),
) -> std::io::Result<String> {
    use std::fmt::Write as _;
    let input = lines.join("\n") + "\n";
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| engine | function | judged | wrong | flips within the tolerance | crashes, hangs | largest error |"
    );
    let _ = writeln!(s, "| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for e in engines {
        let report = super::check(*e, input.as_bytes(), opts, limit, None, |n| progress(e.name(), n))?;
        let failures = report.failure_counts();
        let died = failures.get("crashes").copied().unwrap_or(0) + failures.get("hangs").copied().unwrap_or(0);
        for (function, t) in &report.functions {
            let booleans = match (t.false_positives, t.false_negatives) {
                (0, 0) => String::new(),
                (p, n) => format!(" ({p} FP, {n} FN)"),
            };
            let largest = t.abs.last().map_or("—".into(), |x| format!("{x:.1e}"));
            let _ = writeln!(
                s,
                "| {} | {function} | {} | {}{booleans} | {} | {died} | {largest} |",
                e.name(),
                t.judged,
                t.wrong,
                t.flips
            );
        }
    }
    Ok(s)
}
