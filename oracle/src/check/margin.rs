//! How far a query is from the degenerate configuration where a discrete answer flips: the
//! exact margin a wrong discrete answer is measured by (`check-engine` counts one within the
//! claims' tolerance of its degeneracy apart from one beyond it).
//!
//! Per op, on the query as the engine was given it (its numbers in binary64), computed exactly
//! and rounded once:
//! * `distance`, `contact`: the distance of separated shapes, the penetration depth of
//!   overlapping ones, 0 for touching ones;
//! * `toi`: for a collision the engine claims at t where there is none, the distance of the
//!   shapes at t (clamped to the interval); for a collision it misses, the deepest overlap
//!   found at 17 times evenly from the exact first contact to the interval's end (a lower
//!   bound of the deepest overlap: a miss is beyond the tolerance only where an overlap deeper
//!   than it is found);
//! * `classify_point`: the point's distance to the solid's boundary;
//! * `orient3d`, `orient2d`: the last point's distance to the plane (the line) through the
//!   others.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde_json::Value;

use touchstone::budget::with_budget;
use touchstone::geom::Vector3;
use touchstone::query::{penetration_depth, ClassifyPoint, Distance, PoseSpec, Posed, Query, ShapeSpec, Toi};
use touchstone::vclip::Status;

use super::Answered;
use crate::ops::OpJson;
use crate::Options;

type Q = BigRational;

/// The claim fields whose wrong answer can be a flip at a degeneracy (every other wrong field
/// is wrong beyond the tolerance).
pub const FLIP_FIELDS: &[&str] = &["status", "intersecting", "collides", "contains", "class", "orientation"];

/// Whether the wrong `fields` of an answer to an `op` line are all discrete ones that flip at
/// a degeneracy (on a `toi` line a claimed time where the exact answer has no collision too:
/// the margin then measures the shapes at that time).
pub fn flippable(op: &str, fields: &[String], exact: &Value) -> bool {
    fields.iter().all(|f| {
        FLIP_FIELDS.contains(&f.as_str()) || (op == "toi" && f == "toi" && exact["collides"] == Value::Bool(false))
    })
}

/// The margin of query line `q` (as the engine was given it) for answer `a`, whose exact
/// answer is `exact`: `None` when it cannot be measured (an op without one, the run's limits).
pub fn margin(op: &str, q: &Value, a: &Answered, exact: &Value, opts: &Options) -> Option<f64> {
    with_budget(opts.budget(), || match op {
        "distance" | "contact" => {
            let d: Distance<Q> = parse(&pair_line(q), opts)?;
            signed_distance(&d.a, &d.b).map(f64::abs)
        }
        "toi" => toi_margin(&parse(q, opts)?, a, exact),
        "classify_point" => {
            let c: ClassifyPoint<Q> = parse(q, opts)?;
            let posed = touchstone::query::posed_solid::<Q, Q>(&c.solid).ok()?;
            let d2 = posed.built.solid.boundary_squared_distance(&c.point).ok()?;
            sqrt_f64(&d2)
        }
        "orient3d" | "orient2d" => orient_margin(q),
        _ => None,
    })
}

/// Line `q` read exactly as a `T` (no file is read).
fn parse<T: OpJson>(q: &Value, opts: &Options) -> Option<T> {
    let opts = Options { max_file_bytes: 0, ..opts.clone() };
    crate::ops::read_query(&q.to_string(), &opts).ok()
}

/// The `distance` line of the two posed shapes of line `q`.
fn pair_line(q: &Value) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("op".into(), Value::from("distance"));
    for k in ["a", "b", "pose_a", "pose_b"] {
        if let Some(v) = q.get(k) {
            m.insert(k.into(), v.clone());
        }
    }
    Value::Object(m)
}

/// The exact signed distance of two posed convex shapes (negative: minus the penetration
/// depth), rounded.
pub fn signed_distance(a: &Posed<Q>, b: &Posed<Q>) -> Option<f64> {
    if a.shape.is_cylinder() || b.shape.is_cylinder() {
        return touchstone::query::cylinder_signed_distance(a, b);
    }
    if a.shape.is_round() || b.shape.is_round() {
        return round_signed_distance(a, b);
    }
    let d = Distance { a: a.clone(), b: b.clone() };
    let answer = d.compute::<Q>().ok()?;
    match answer.output.status {
        Status::Separated => sqrt_f64(&answer.output.distance_squared),
        Status::Touching => Some(0.0),
        Status::Penetrating => Some(-sqrt_f64(&penetration_depth(a, b).ok()?.depth_squared)?),
    }
}

/// The signed distance of round shapes: the distance, 0 touching, and when penetrating minus
/// the depth: R − √c with the cores apart (the shortest way out is along the line between
/// their closest points), R plus the cores' own depth where they meet.
fn round_signed_distance(a: &Posed<Q>, b: &Posed<Q>) -> Option<f64> {
    let out = touchstone::query::DistanceRound { a: a.clone(), b: b.clone() }.compute::<Q>().ok()?.output;
    let radius = |p: &Posed<Q>| match &p.shape {
        ShapeSpec::Ball(r) | ShapeSpec::Capsule { radius: r, .. } | ShapeSpec::Round { radius: r, .. } => r.clone(),
        _ => Q::from_integer(0.into()),
    };
    match out.status {
        Status::Separated => Some(out.distance.to_f64()),
        Status::Touching => Some(0.0),
        // Where the cores meet the depth is the cores' own depth plus R.
        Status::Penetrating if out.cores_distance_squared.is_zero() => {
            let d = touchstone::query::DistanceRound { a: a.clone(), b: b.clone() };
            Some(-d.depth_squared().ok()?.to_f64().sqrt())
        }
        Status::Penetrating => {
            let r = (radius(a) + radius(b)).to_f64()?;
            Some(sqrt_f64(&out.cores_distance_squared)? - r)
        }
    }
}

/// `p` moved by `v · time` (a `toi` shape's pose at that time).
fn moved(p: &Posed<Q>, v: &Vector3<Q>, time: &Q) -> Posed<Q> {
    let shift = [&v.x, &v.y, &v.z].map(|c| c * time);
    let pose = match &p.pose {
        PoseSpec::Quaternion { q, t } => PoseSpec::Quaternion { q: q.clone(), t: [0, 1, 2].map(|i| &t[i] + &shift[i]) },
        PoseSpec::Matrix(rows) => {
            let mut rows = rows.clone();
            for (i, r) in rows.iter_mut().enumerate() {
                r[3] = &r[3] + &shift[i];
            }
            PoseSpec::Matrix(rows)
        }
    };
    Posed { pose, ..p.clone() }
}

fn toi_margin(t: &Toi<Q>, a: &Answered, exact: &Value) -> Option<f64> {
    let at = |time: &Q| signed_distance(&moved(&t.a, &t.velocity_a, time), &moved(&t.b, &t.velocity_b, time));
    let [t0, t1] = &t.interval;
    match exact["collides"].as_bool()? {
        // A claimed collision where there is none: the distance at the claimed time.
        false => {
            let claimed = Q::from_float(super::number(&a.claim["toi"])?)?;
            let time = claimed.clone().max(t0.clone()).min(t1.clone());
            at(&time).map(f64::abs)
        }
        // A missed collision: the deepest overlap found from the first contact on.
        true => {
            let first = touchstone::scalar::parse_rational(exact["toi"]["interval"][0].as_str()?).ok()?;
            let first = first.max(t0.clone());
            let step = (t1 - &first) / Q::from_integer(16.into());
            let mut deepest = 0.0f64;
            for k in 0..=16 {
                let time = &first + &step * Q::from_integer(k.into());
                deepest = deepest.max(-at(&time)?);
            }
            Some(deepest)
        }
    }
}

/// The last point's distance to the plane through the first three (`orient3d`) or the line
/// through the first two (`orient2d`); 0 when those are degenerate.
fn orient_margin(q: &Value) -> Option<f64> {
    let points: Vec<Vec<Q>> = q["points"]
        .as_array()?
        .iter()
        .map(|p| p.as_array()?.iter().map(exact_number).collect::<Option<Vec<Q>>>())
        .collect::<Option<_>>()?;
    let (num, den) = match points.as_slice() {
        [a, b, c, d] if [a, b, c, d].iter().all(|p| p.len() == 3) => {
            let sub = |x: &[Q], y: &[Q]| [0, 1, 2].map(|i| &x[i] - &y[i]);
            let (u, w, e) = (sub(b, a), sub(c, a), sub(d, a));
            let n = [0, 1, 2].map(|i| {
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                &u[j] * &w[k] - &u[k] * &w[j]
            });
            let dot = |x: &[Q; 3], y: &[Q; 3]| &x[0] * &y[0] + &x[1] * &y[1] + &x[2] * &y[2];
            let det = dot(&n, &e);
            (det.clone() * det, dot(&n, &n))
        }
        [a, b, c] if [a, b, c].iter().all(|p| p.len() == 2) => {
            let (ux, uy) = (&b[0] - &a[0], &b[1] - &a[1]);
            let (wx, wy) = (&c[0] - &a[0], &c[1] - &a[1]);
            let det = &ux * &wy - &uy * &wx;
            (det.clone() * det, &ux * &ux + &uy * &uy)
        }
        _ => return None,
    };
    if den.is_zero() {
        return Some(0.0);
    }
    sqrt_f64(&(num / den))
}

/// A JSON number (its binary64 value) or a rational string, exactly.
fn exact_number(v: &Value) -> Option<Q> {
    match v {
        Value::Number(n) => Q::from_float(n.as_f64()?),
        Value::String(s) => touchstone::scalar::parse_rational(s).ok(),
        _ => None,
    }
}

/// Every exact rational string among `q`'s fields `fields` replaced by the nearest binary64,
/// as a JSON number (one beyond binary64's range stays as written; a `file` path is no number),
/// and whether a value changed (`"1/3"` does, `"1/2"` does not): the line as an engine is given
/// it.
pub fn rounded(q: &Value, fields: &[&str]) -> (Value, bool) {
    fn walk(v: &mut Value, changed: &mut bool) {
        match v {
            Value::String(s) => {
                let Ok(x) = touchstone::scalar::parse_rational(s) else { return };
                let Some(f) = x.to_f64().filter(|f| f.is_finite()) else { return };
                if Q::from_float(f).as_ref() != Some(&x) {
                    *changed = true;
                }
                *v = Value::from(f);
            }
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, changed)),
            Value::Object(o) => o.iter_mut().filter(|(k, _)| k.as_str() != "file").for_each(|(_, x)| walk(x, changed)),
            _ => {}
        }
    }
    let mut out = q.clone();
    let mut changed = false;
    if let Some(o) = out.as_object_mut() {
        for (k, v) in o.iter_mut() {
            if fields.contains(&k.as_str()) {
                walk(v, &mut changed);
            }
        }
    }
    (out, changed)
}

/// √r for an exact r ≥ 0, rounded to binary64 without the underflow or overflow of r itself
/// (a margin of 2⁻⁵⁴⁰ has a square below binary64's least): r is scaled by an even power of
/// two into range first.
pub fn sqrt_f64(r: &Q) -> Option<f64> {
    if r.is_zero() {
        return Some(0.0);
    }
    let bits = r.numer().bits() as i64 - r.denom().bits() as i64;
    let half = bits.div_euclid(2);
    let two = num_bigint::BigInt::from(2u8);
    let pow = |k: i64| -> Q {
        let p = Q::from_integer(num_traits::pow(two.clone(), k.unsigned_abs() as usize));
        if k >= 0 {
            p
        } else {
            Q::from_integer(1.into()) / p
        }
    };
    let scaled = (r / pow(2 * half)).to_f64()?;
    let root = scaled.sqrt();
    // 2^half in two factors, each in binary64's range.
    let (h1, h2) = (half / 2, half - half / 2);
    Some(root * 2f64.powi(h1 as i32) * 2f64.powi(h2 as i32))
}
