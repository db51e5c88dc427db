//! Typed queries and claims written as oracle lines: the one place where the library's typed
//! cases ([`touchstone::strategies`]) become JSON. Each op writes its own fields beside the code
//! that reads them ([`Encode`], in `ops/`), so a line written here reads back as the very query
//! it was written from (the round trip is tested for every generated kind).
//!
//! ```
//! use touchstone::strategies::{case, Kind, Source};
//! let line = touchstone_oracle::encode::case_line(&case(Kind::FaceFace, 0, &mut Source::new(7)));
//! assert_eq!(line["op"], "distance");
//! assert_eq!(line["claim"]["status"], "touching");
//! ```

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use serde_json::{json, Value};
use touchstone::arbitrary::{DecodeError, Replay, RAW_TARGET};
use touchstone::geom::{Point3, Vector3};
use touchstone::query::{Ccd, Contact, Distance, PoseSpec, Query, ShapeSpec, Toi, ToiBoxes, Validate};
use touchstone::scalar::Scalar;
use touchstone::strategies::{generate, Case, Claimed, Source, KINDS};

use crate::error::QueryError;
use crate::input::{Context, Fields};
use crate::json::Out;
use crate::ops::{num, OpJson};

/// An op whose typed queries and claims the oracle writes as lines.
pub trait Encode: OpJson {
    /// The query's own fields, in the order of [`OpJson::FIELDS`]; a field at its default
    /// (a zero velocity, no previous contacts) is left out, as a person would write it. (The
    /// claim is written by the op's claim table: [`OpJson::write_claim`].)
    fn encode(&self) -> Out;
}

/// The line of query `q` with `id` and `claim`: `{"id", "op", fields..., "claim"}`.
pub fn line<O: Encode>(id: Option<&str>, q: &O, claim: Option<&O::Claim>) -> Value {
    let mut m = Out::new();
    if let Some(id) = id {
        m.push("id", json!(id));
    }
    m.push("op", json!(O::OP));
    for (k, v) in q.encode().into_iter() {
        m.insert(k, v);
    }
    if let Some(c) = claim {
        m.push("claim", O::write_claim(c).into_value());
    }
    m.into_value()
}

/// A generated case as its oracle line, its expected answer as `claim`.
pub fn case_line(c: &Case) -> Value {
    let id = Some(c.id.as_str());
    match &c.query {
        Claimed::Distance(q, claim) => line(id, q, Some(claim)),
        Claimed::Contact(q, claim) => line(id, q, Some(claim)),
        Claimed::Toi(q, claim) => line(id, q, Some(claim)),
        Claimed::ToiBoxes(q, claim) => line(id, q, Some(claim)),
        Claimed::Ccd(q, claim) => line(id, q, Some(claim)),
        Claimed::Validate(q, claim) => line(id, q, Some(claim)),
        Claimed::DistanceRound(q, claim) => line(id, q, Some(claim)),
        Claimed::ToiRound(q, claim) => line(id, q, Some(claim)),
        Claimed::DistanceTorus(q, claim) => line(id, q, Some(claim)),
        Claimed::DistanceCylinder(q, claim) => line(id, q, Some(claim)),
    }
}

/// Read a line back as a generated case, with the ops' own parsers (`id` required, the claim
/// absent: claiming nothing): the inverse of [`case_line`] for the ops generators produce.
///
/// Errors: whatever the oracle would answer for the line (a bad field, an op no generator
/// produces: [`Kind::Unsupported`](crate::error::Kind)).
pub fn read_case(line: &str) -> Result<Case, QueryError> {
    let json = crate::json::parse_line(line)?;
    let f = Fields::of(&json, "", "a query")?;
    let (id, at) = f.required("id")?;
    let id = crate::input::string(id, &at, "an id")?.to_string();
    let (op, at) = f.required("op")?;
    let op = crate::input::string(op, &at, "an op")?;
    fn read<O: OpJson>(f: &Fields) -> Result<(O, O::Claim), QueryError> {
        f.only_of(&[&crate::ops::COMMON_FIELDS, O::FIELDS])?;
        let q = O::parse(f, &Context::default())?;
        let claim = crate::ops::parse_claim::<O>(f)?.map(|(c, _)| c).unwrap_or_default();
        Ok((q, claim))
    }
    type Q = BigRational;
    let query = if op == Distance::<Q>::OP && crate::shape::cylinder_pair(&f) {
        read(&f).map(|(q, c)| Claimed::DistanceCylinder(q, c))?
    } else if op == Distance::<Q>::OP && crate::shape::torus_pair(&f) {
        read(&f).map(|(q, c)| Claimed::DistanceTorus(q, c))?
    } else if op == Distance::<Q>::OP && crate::shape::round_pair(&f) {
        read(&f).map(|(q, c)| Claimed::DistanceRound(q, c))?
    } else if op == Distance::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::Distance(q, c))?
    } else if op == Contact::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::Contact(q, c))?
    } else if op == Toi::<Q>::OP && crate::shape::round_toi_pair(&f) {
        read(&f).map(|(q, c)| Claimed::ToiRound(q, c))?
    } else if op == Toi::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::Toi(q, c))?
    } else if op == ToiBoxes::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::ToiBoxes(q, c))?
    } else if op == Ccd::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::Ccd(q, c))?
    } else if op == Validate::<Q>::OP {
        read(&f).map(|(q, c)| Claimed::Validate(q, c))?
    } else {
        let message = format!("no generator makes {op:?} queries");
        return Err(QueryError::new(crate::error::Kind::Unsupported, &at, message));
    };
    Ok(Case { id, query })
}

/// The line that replays query `q` on both backends, `{"op", "backend": "both", fields...}`:
/// what a differential test or fuzz target prints for a case it finds failing.
///
/// ```
/// use touchstone::geom::Point3;
/// use touchstone::query::Orient3d;
/// let p = Point3::new;
/// let q = Orient3d { points: [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0), p(0.0, 0.0, 0.5)] };
/// let line = touchstone_oracle::encode::replay_line(&q);
/// assert_eq!(line, r#"{"op":"orient3d","backend":"both","points":[[0.0,0.0,0.0],[1.0,0.0,0.0],[0.0,1.0,0.0],[0.0,0.0,0.5]]}"#);
/// ```
pub fn replay_line<O: Encode>(q: &O) -> String {
    let mut m = Out::new();
    m.push("op", json!(O::OP));
    m.push("backend", json!("both"));
    for (k, v) in q.encode().into_iter() {
        m.insert(k, v);
    }
    m.into_value().to_string()
}

/// A curved pair's replay line: on the exact backend (there is no `f64` answer to compare) with
/// the truth as its claim.
pub fn curved_replay_line(
    q: &touchstone::query::DistanceCurved<num_rational::BigRational>,
    claim: &touchstone::query::DistanceCurvedClaim,
) -> String {
    let mut v = line(None, q, Some(claim));
    v["backend"] = json!("exact");
    v.to_string()
}

/// A decoded fuzz case ([`touchstone::arbitrary::replay`]) as its lines (`msp_diff`: the
/// point's and the segment's; the raw target: its own lines).
pub fn replay_text(replay: &Replay) -> String {
    match replay {
        Replay::Orient3d(q) => replay_line(q),
        Replay::SideOfPlane(q) => replay_line(q),
        Replay::Validate(q) => replay_line(q),
        Replay::Distance(q) => replay_line(q),
        Replay::DistanceRound(q) => replay_line(q),
        Replay::ToiRound(q) => replay_line(q),
        Replay::DistanceTorus(q) => replay_line(q),
        Replay::ToiTorus(q) => replay_line(q),
        Replay::DistanceCylinder(q) => replay_line(q),
        Replay::Ccd(q) => replay_line(q),
        Replay::ToiBoxes(q) => replay_line(q),
        Replay::Classify(p, s) => format!("{}\n{}", replay_line(p), replay_line(s)),
        Replay::Contact(q) => replay_line(q),
        Replay::ContactForces(q) => replay_line(q),
        Replay::DistanceCurved(q, claim) => curved_replay_line(q, claim),
        Replay::Lines(text) => text.clone(),
    }
}

/// The lines that replay fuzz target `target`'s input `bytes`, decoded as the target decodes
/// them: what `touchstone decode` prints and what each target prints when it fails.
///
/// ```
/// let text = touchstone_oracle::encode::replay_lines("hull_diff", &[0; 64]).unwrap();
/// assert!(text.starts_with(r#"{"op":"validate","backend":"both","solid":{"convex_hull":"#), "{text}");
/// assert!(touchstone_oracle::encode::replay_lines("no_such_target", &[]).is_err());
/// ```
///
/// Errors: an unknown target, bytes the target cannot decode or rejects.
pub fn replay_lines(target: &str, bytes: &[u8]) -> Result<String, DecodeError> {
    touchstone::arbitrary::replay(target, bytes).map(|r| replay_text(&r))
}

/// The seed corpus of fuzz target `target` ([`touchstone::arbitrary::seed_corpus`]), and for
/// the raw target `oracle_parse`, which takes lines, two `touchstone gen` cases of every kind
/// (seed 1), a file a kind.
///
/// Errors: an unknown target, or a seed that does not decode back to its value.
pub fn seed_corpus(target: &str) -> Result<Vec<(String, Vec<u8>)>, DecodeError> {
    let mut seeds = touchstone::arbitrary::seed_corpus(target)?;
    if target == RAW_TARGET {
        for (name, kind) in KINDS {
            let cases = generate(*kind, 2, &mut Source::new(1));
            let text: String = cases.iter().map(|c| format!("{}\n", case_line(c))).collect();
            seeds.push((format!("gen-{name}.jsonl"), text.into_bytes()));
        }
    }
    Ok(seeds)
}

/// Numbers: exact rationals as strings, binary64 values as JSON numbers.
pub fn numbers<'a, N: Scalar + 'a>(xs: impl IntoIterator<Item = &'a N>) -> Value {
    Value::Array(xs.into_iter().map(num).collect())
}

/// A point or vector: `[x, y, z]`.
pub fn vector_json<N: Scalar>(v: &Vector3<N>) -> Value {
    numbers(v.iter())
}

/// Points: `[[x, y, z], ...]`.
pub fn points_json<'a, N: Scalar + 'a>(ps: impl IntoIterator<Item = &'a Point3<N>>) -> Value {
    Value::Array(ps.into_iter().map(|p| numbers(p.iter())).collect())
}

/// A shape in the format's form (`box`, `polyhedron`, `convex_hull`, or a `file` by its path
/// as resolved).
pub fn shape_json<N: Scalar>(s: &ShapeSpec<N>) -> Value {
    match s {
        ShapeSpec::Box(h) => json!({ "box": numbers(h) }),
        ShapeSpec::Polyhedron { vertices, faces } => {
            json!({ "polyhedron": { "vertices": points_json(vertices), "faces": faces } })
        }
        ShapeSpec::ConvexHull(points) => json!({ "convex_hull": points_json(points) }),
        ShapeSpec::File { path, .. } => json!({ "file": path.to_string_lossy() }),
        ShapeSpec::Ball(r) => json!({ "ball": num(r) }),
        ShapeSpec::Capsule { a, b, radius } => {
            json!({ "capsule": { "a": numbers(a.iter()), "b": numbers(b.iter()), "radius": num(radius) } })
        }
        ShapeSpec::Round { shape, radius } => json!({ "round": { "shape": shape_json(shape), "radius": num(radius) } }),
        ShapeSpec::Torus { center, axis, major, minor } => json!({ "torus": {
            "center": numbers(center.iter()), "axis": numbers(axis.iter()), "major": num(major), "minor": num(minor)
        } }),
        ShapeSpec::Cylinder { a, b, radius } => {
            json!({ "cylinder": { "a": numbers(a.iter()), "b": numbers(b.iter()), "radius": num(radius) } })
        }
        ShapeSpec::Implicit { terms, lo, hi } => json!({ "implicit": {
            "poly": Value::Array(terms.iter().map(|(c, e)| json!([num(c), e])).collect()),
            "bounds": [numbers(lo.iter()), numbers(hi.iter())]
        } }),
        ShapeSpec::Bezier { patches } => json!({ "bezier": { "patches": Value::Array(patches.iter().map(|(d, pts, w)| {
            let mut p = json!({ "degree": d, "points": points_json(pts) });
            if let Some(w) = w {
                p["weights"] = numbers(w.iter());
            }
            p
        }).collect()) } }),
    }
}

/// A pose: `{"quaternion", "translation"}` (a quaternion's integer parts as JSON integers, as
/// people write them) or `{"matrix"}`.
pub fn pose_json<N: Scalar>(p: &PoseSpec<N>) -> Value {
    match p {
        PoseSpec::Quaternion { q, t } => {
            let part = |x: &N| match x.to_rational() {
                Some(r) if N::EXACT_VALUES && r.is_integer() && r.numer().abs() <= BigInt::from(1u64 << 53) => {
                    r.numer().to_i64().map_or_else(|| num(x), |i| json!(i))
                }
                _ => num(x),
            };
            json!({ "quaternion": q.iter().map(part).collect::<Vec<_>>(), "translation": numbers(t) })
        }
        PoseSpec::Matrix(rows) => json!({ "matrix": rows.iter().map(|r| numbers(r)).collect::<Vec<_>>() }),
    }
}

/// A claimed time: a rational string, or, when it is a finite decimal fraction that is not
/// dyadic (a denominator with a factor 5, such as a truncated irrational time), its exact
/// decimal as `{"decimal": "1.4142..."}`, the output's own form.
pub fn time_claim_json(t: &BigRational) -> Value {
    let (mut d, mut twos, mut fives) = (t.denom().clone(), 0u32, 0u32);
    let (two, five) = (BigInt::from(2), BigInt::from(5));
    while (&d % &two).is_zero() {
        d /= &two;
        twos += 1;
    }
    while (&d % &five).is_zero() {
        d /= &five;
        fives += 1;
    }
    if fives == 0 || d != BigInt::from(1) {
        return json!(t.to_string());
    }
    let digits = twos.max(fives) as usize;
    let scaled = (Signed::abs(t) * BigRational::from_integer(num_traits::pow(BigInt::from(10), digits))).to_integer();
    let text = format!("{scaled:0>width$}", width = digits + 1);
    let (int, frac) = text.split_at(text.len() - digits);
    let sign = if t.is_negative() && !t.is_zero() { "-" } else { "" };
    json!({ "decimal": format!("{sign}{int}.{frac}") })
}
