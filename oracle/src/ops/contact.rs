//! The `contact` op: contact regions and normals of two solids.

use crate::json::{Json, Out};
use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::contact::{ContactStatus, NormalSource};
use touchstone::geom::Vector3;
use touchstone::poly::RootScalar;
use touchstone::query::{
    contact_status_name, ClaimedRegion, Contact, ContactClaim, FeatureId, PreviousContact, Velocity,
};

use super::distance::posed;
use super::distance::posed_json;
use super::{feature_json, num, parse_feature, point_json, ClaimField, Context, OpJson};
use crate::encode::{points_json, vector_json, Encode};
use crate::error::QueryError;
use crate::input::{array, child, points, Fields, Number};

const STATUSES: [(&str, ContactStatus); 3] = [
    ("separate", ContactStatus::Separate),
    ("touching", ContactStatus::Touching),
    ("penetrating", ContactStatus::Penetrating),
];

fn vector<N: Number>(v: &Json, at: &str) -> Result<Vector3<N>, QueryError> {
    let p = crate::input::point::<N>(v, at)?;
    Ok(p.coords)
}

/// `{"linear": [..], "angular": [..]}` (either may be absent: zero), or a bare vector (linear).
fn velocity<N: Number>(f: &Fields, key: &str) -> Result<Option<Velocity<N>>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    let zero = || Vector3::from_element(N::zero());
    if matches!(v, Json::Array(_)) {
        return Ok(Some(Velocity { linear: vector(v, &at)?, angular: zero() }));
    }
    let vf = Fields::of(v, &at, "a velocity ({\"linear\": [x, y, z], \"angular\": [x, y, z]})")?;
    vf.only(&["linear", "angular"])?;
    let part = |k: &str| -> Result<Vector3<N>, QueryError> {
        match vf.optional(k) {
            None => Ok(zero()),
            Some((x, p)) => vector(x, &p),
        }
    };
    Ok(Some(Velocity { linear: part("linear")?, angular: part("angular")? }))
}

/// An optional positive number.
fn positive<N: Number>(f: &Fields, key: &str) -> Result<Option<N>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    let x = N::read(v, &at)?;
    if x.sign().ok() != Some(touchstone::scalar::Sign::Positive) {
        return Err(QueryError::new(crate::error::Kind::Invalid, &at, format!("{key} must be positive")));
    }
    Ok(Some(x))
}

fn normals<N: Number>(f: &Fields) -> Result<Option<Vec<Vector3<N>>>, QueryError> {
    let Some((v, at)) = f.optional("normals") else { return Ok(None) };
    Ok(Some(points::<N>(v, &at, None)?.into_iter().map(|p| p.coords).collect()))
}

/// The regions of field `key` (as this op writes them: `a`, `b` required, the other fields of
/// its output allowed), each read by `read` with its features.
fn regions<T>(
    f: &Fields,
    key: &str,
    read: impl Fn(&Fields, FeatureId, FeatureId) -> Result<T, QueryError>,
) -> Result<Option<Vec<T>>, QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(None) };
    let items = array(v, &at, None, "regions")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = child(&at, i);
        let rf = Fields::of(item, &path, "a region")?;
        rf.only(&["a", "b", "dim", "points", "holes", "normals", "source"])?;
        let (a, aat) = rf.required("a")?;
        let (b, bat) = rf.required("b")?;
        out.push(read(&rf, parse_feature(a, &aat)?, parse_feature(b, &bat)?)?);
    }
    Ok(Some(out))
}

/// A previous step's region: as this op outputs it (`a`, `b`, `normals`; the rest is ignored).
fn previous<N: Number>(f: &Fields) -> Result<Vec<PreviousContact<N>>, QueryError> {
    let read = |rf: &Fields, a, b| Ok(PreviousContact { a, b, normals: normals(rf)?.unwrap_or_default() });
    Ok(regions(f, "previous", read)?.unwrap_or_default())
}

fn source_name(s: NormalSource) -> &'static str {
    match s {
        NormalSource::Persisted => "persisted",
        NormalSource::Shrunk => "shrunk",
        NormalSource::New => "new",
    }
}

impl<N: Number> OpJson for Contact<N> {
    const FIELDS: &'static [&'static str] =
        &["a", "pose_a", "b", "pose_b", "velocity_a", "velocity_b", "previous", "epsilon", "step"];
    const CLAIM: &'static [ClaimField<ContactClaim>] =
        &[claim_field!(status: named STATUSES), claim_field!(regions: custom claimed_regions, regions_json)];
    const SUMMARY: &'static str =
        "contact of two solids, convex or not: status, the sufficient contact regions R_t and their normals (Bouma and Vaněček 1992)";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        Ok(Contact {
            a: posed(f, "a", "pose_a", ctx)?,
            b: posed(f, "b", "pose_b", ctx)?,
            velocity_a: velocity(f, "velocity_a")?,
            velocity_b: velocity(f, "velocity_b")?,
            previous: previous(f)?,
            epsilon: positive(f, "epsilon")?,
            step: positive(f, "step")?,
        })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let regions: Vec<Value> = out
            .regions
            .iter()
            .map(|r| {
                let mut m = serde_json::Map::new();
                m.insert("a".into(), feature_json(&r.a));
                m.insert("b".into(), feature_json(&r.b));
                m.insert("dim".into(), json!(r.dim));
                m.insert("points".into(), Value::Array(r.points.iter().map(point_json).collect()));
                if !r.holes.is_empty() {
                    let holes = r.holes.iter().map(|h| Value::Array(h.iter().map(point_json).collect())).collect();
                    m.insert("holes".into(), Value::Array(holes));
                }
                let normals =
                    r.normals.iter().map(|n| point_json(&touchstone::geom::Point3::from(n.clone()))).collect();
                m.insert("normals".into(), Value::Array(normals));
                m.insert("source".into(), json!(source_name(r.source)));
                Value::Object(m)
            })
            .collect();
        let mut m = Out::new();
        m.push("status", json!(contact_status_name(out.status)));
        m.push("regions", Value::Array(regions));
        m.push("intersection", json!(out.intersection));
        m.push("culled", json!(out.culled));
        if let Some(e) = &out.epsilon {
            m.push("epsilon", super::num(e));
        }
        if let Some(t) = &out.collision_time {
            m.push("collision_time", super::num(t));
        }
        Ok(m)
    }
}

impl<N: Number> Encode for Contact<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        posed_json(&mut m, &self.a, "a", "pose_a");
        posed_json(&mut m, &self.b, "b", "pose_b");
        let velocity = |v: &Velocity<N>| json!({"linear": vector_json(&v.linear), "angular": vector_json(&v.angular)});
        if let Some(v) = &self.velocity_a {
            m.push("velocity_a", velocity(v));
        }
        if let Some(v) = &self.velocity_b {
            m.push("velocity_b", velocity(v));
        }
        if !self.previous.is_empty() {
            let previous = self.previous.iter().map(
                |p| json!({"a": feature_json(&p.a), "b": feature_json(&p.b), "normals": normals_json(&p.normals)}),
            );
            m.push("previous", Value::Array(previous.collect()));
        }
        if let Some(e) = &self.epsilon {
            m.push("epsilon", num(e));
        }
        if let Some(t) = &self.step {
            m.push("step", num(t));
        }
        m
    }
}

/// Claimed regions (`regions`): each with its features, and its points and normals if given.
fn claimed_regions(f: &Fields) -> Result<Option<Vec<ClaimedRegion>>, QueryError> {
    let read = |rf: &Fields, a, b| {
        let points = match rf.optional("points") {
            None => None,
            Some((v, at)) => Some(points::<BigRational>(v, &at, None)?),
        };
        Ok(ClaimedRegion { a, b, points, normals: normals::<BigRational>(rf)? })
    };
    regions(f, "regions", read)
}

fn regions_json(regions: &[ClaimedRegion]) -> Value {
    let regions = regions.iter().map(|r| {
        let mut o = Out::new();
        o.push("a", feature_json(&r.a));
        o.push("b", feature_json(&r.b));
        if let Some(p) = &r.points {
            o.push("points", points_json(p));
        }
        if let Some(n) = &r.normals {
            o.push("normals", normals_json(n));
        }
        o.into_value()
    });
    Value::Array(regions.collect())
}

fn normals_json<N: Number>(normals: &[Vector3<N>]) -> Value {
    Value::Array(normals.iter().map(vector_json).collect())
}
