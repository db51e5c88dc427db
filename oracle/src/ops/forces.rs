//! The `contact_forces` op: forces at the contacts of rigid bodies (the SVD method).

use crate::json::{Json, Out};
use num_rational::BigRational;
use serde_json::{json, Value};
use touchstone::forces::State;
use touchstone::geom::{Matrix3, Vector3};
use touchstone::poly::RootScalar;
use touchstone::query::{BodySpec, ContactForces, ContactForcesClaim, ContactSpec, RegionSpec};

use super::{num, point_json, ClaimField, Context, OpJson};
use crate::encode::{numbers, points_json, pose_json, shape_json, vector_json, Encode};
use crate::error::{Kind, QueryError};
use crate::input::{array, child, index, point, points, rationals, Fields, Number};
use crate::pose::parse_pose;
use crate::shape::parse_shape;

/// The most bodies a query may have.
pub const MAX_BODIES: usize = 4096;
/// The most contact entries a query may have (regions and shapes expand further, up to the
/// library's own limit).
pub const MAX_CONTACTS: usize = 4096;
/// The largest accepted `iteration_limit`.
pub const MAX_ITERATIONS: usize = 100_000;

const STATES: [(&str, State); 3] =
    [("static", State::Static), ("dynamic", State::Dynamic), ("inactive", State::Inactive)];

fn vector<N: Number>(v: &Json, at: &str) -> Result<Vector3<N>, QueryError> {
    Ok(point::<N>(v, at)?.coords)
}

fn matrix<N: Number>(v: &Json, at: &str) -> Result<Matrix3<N>, QueryError> {
    let rows = array(v, at, Some(3), "a 3×3 matrix (three rows of three numbers)")?;
    let mut m = Matrix3::from_element(N::zero());
    for (r, row) in rows.iter().enumerate() {
        let xs = rationals::<N>(row, &child(at, r), 3, "a matrix row")?;
        for (c, x) in xs.into_iter().enumerate() {
            m[(r, c)] = x;
        }
    }
    Ok(m)
}

fn flag(f: &Fields, key: &str) -> Result<bool, QueryError> {
    match f.optional(key) {
        None => Ok(false),
        Some((v, at)) => {
            v.as_bool().ok_or_else(|| QueryError::new(Kind::Type, &at, format!("{key} must be true or false")))
        }
    }
}

fn body<N: Number>(v: &Json, at: &str, ctx: &Context) -> Result<BodySpec<N>, QueryError> {
    let f = Fields::of(v, at, "a body ({\"mass\", \"inertia\", \"pose\", \"velocity\", \"fixed\", \"shape\"})")?;
    f.only(&["mass", "inertia", "pose", "velocity", "fixed", "shape"])?;
    let fixed = flag(&f, "fixed")?;
    let mut b = if fixed {
        BodySpec::fixed(parse_pose(f.optional("pose"))?)
    } else {
        let (m, mat) = f.required("mass")?;
        let (j, jat) = f.required("inertia")?;
        BodySpec { pose: parse_pose(f.optional("pose"))?, ..BodySpec::free(N::read(m, &mat)?, matrix(j, &jat)?) }
    };
    if fixed {
        // A fixed body's mass and inertia are ignored, but still read (a bad number is an error).
        if let Some((m, mat)) = f.optional("mass") {
            N::read(m, &mat)?;
        }
        if let Some((j, jat)) = f.optional("inertia") {
            matrix::<N>(j, &jat)?;
        }
    }
    if let Some((v, vat)) = f.optional("velocity") {
        let vf = Fields::of(v, &vat, "a velocity ({\"linear\": [x, y, z], \"angular\": [x, y, z]})")?;
        vf.only(&["linear", "angular"])?;
        if let Some((x, p)) = vf.optional("linear") {
            b.linear = vector(x, &p)?;
        }
        if let Some((x, p)) = vf.optional("angular") {
            b.angular = vector(x, &p)?;
        }
    }
    if let Some((s, sat)) = f.optional("shape") {
        b.shape = Some(parse_shape(s, &sat, ctx)?);
    }
    Ok(b)
}

/// The regions of a `contact` answer: each region's `points` and the first of its `normals`
/// (its other fields, as `contact` writes them, are allowed and ignored).
fn regions<N: Number>(v: &Json, at: &str) -> Result<Vec<RegionSpec<N>>, QueryError> {
    let items = array(v, at, None, "the regions of a contact answer")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = child(at, i);
        let rf = Fields::of(item, &path, "a region ({\"points\", \"normals\"}, as contact writes it)")?;
        rf.only(&["a", "b", "dim", "points", "holes", "normals", "source"])?;
        let (p, pat) = rf.required("points")?;
        let (n, nat) = rf.required("normals")?;
        let normals = points::<N>(n, &nat, None)?;
        let Some(normal) = normals.into_iter().next() else {
            return Err(QueryError::new(Kind::Invalid, &nat, "a region needs a normal"));
        };
        out.push(RegionSpec { points: points::<N>(p, &pat, None)?, normal: normal.coords });
    }
    Ok(out)
}

fn contact<N: Number>(v: &Json, at: &str, bodies: usize) -> Result<ContactSpec<N>, QueryError> {
    let f = Fields::of(v, at, "a contact ({\"a\", \"b\", \"point\", \"normal\", \"friction\"})")?;
    f.only(&["a", "b", "point", "normal", "friction", "regions"])?;
    let (a, aat) = f.required("a")?;
    let (b, bat) = f.required("b")?;
    let a = index(a, &aat, bodies, "a body index")?;
    let b = index(b, &bat, bodies, "a body index")?;
    let friction = match f.optional("friction") {
        None => N::zero(),
        Some((x, p)) => N::read(x, &p)?,
    };
    let point_given = f.optional("point");
    let normal_given = f.optional("normal");
    match (point_given, normal_given, f.optional("regions")) {
        (Some((p, pat)), Some((n, nat)), None) => {
            Ok(ContactSpec::Point { a, b, point: point::<N>(p, &pat)?, normal: vector(n, &nat)?, friction })
        }
        (None, None, Some((r, rat))) => Ok(ContactSpec::Regions { a, b, friction, regions: regions(r, &rat)? }),
        (None, None, None) => Ok(ContactSpec::Shapes { a, b, friction }),
        (Some(_), None, None) => {
            Err(QueryError::new(Kind::Missing, &child(at, "normal"), "a contact point needs its normal"))
        }
        (None, Some(_), None) => {
            Err(QueryError::new(Kind::Missing, &child(at, "point"), "a contact normal needs its point"))
        }
        _ => Err(QueryError::new(
            Kind::Type,
            &child(at, "regions"),
            "a contact has either a point and a normal, or regions, or neither (derived from the bodies' shapes)",
        )),
    }
}

fn claimed_forces(f: &Fields) -> Result<Option<Vec<Vector3<BigRational>>>, QueryError> {
    let Some((v, at)) = f.optional("forces") else { return Ok(None) };
    Ok(Some(points::<BigRational>(v, &at, None)?.into_iter().map(|p| p.coords).collect()))
}

fn forces_json(fs: &[Vector3<BigRational>]) -> Value {
    Value::Array(fs.iter().map(vector_json).collect())
}

fn claimed_states(f: &Fields) -> Result<Option<Vec<State>>, QueryError> {
    let Some((v, at)) = f.optional("states") else { return Ok(None) };
    let items = array(v, &at, None, "contact states")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = child(&at, i);
        let name = crate::input::string(item, &p, "a contact state")?;
        let s = STATES.iter().find(|(n, _)| *n == name).map(|&(_, s)| s).ok_or_else(|| {
            QueryError::new(Kind::Unknown, &p, format!("unknown contact state {name:?} (static, dynamic, inactive)"))
        })?;
        out.push(s);
    }
    Ok(Some(out))
}

fn states_json(states: &[State]) -> Value {
    Value::Array(states.iter().map(|s| json!(s.name())).collect())
}

impl<N: Number> OpJson for ContactForces<N> {
    const FIELDS: &'static [&'static str] = &["bodies", "gravity", "contacts", "static_speed", "iteration_limit"];
    const CLAIM: &'static [ClaimField<ContactForcesClaim>] = &[
        claim_field!(forces: custom claimed_forces, |f: &Vec<Vector3<BigRational>>| forces_json(f)),
        claim_field!(states: custom claimed_states, |s: &Vec<State>| states_json(s)),
    ];
    const SUMMARY: &'static str =
        "contact forces of rigid bodies by the SVD method (Mirtich 1998 §4.2): exactly the minimum-norm forces, with static, dynamic and inactive contacts";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let (bv, bat) = f.required("bodies")?;
        let items = array(bv, &bat, None, "bodies")?;
        if items.len() > MAX_BODIES {
            return Err(QueryError::new(Kind::Limit, &bat, format!("at most {MAX_BODIES} bodies")));
        }
        let bodies =
            items.iter().enumerate().map(|(i, v)| body::<N>(v, &child(&bat, i), ctx)).collect::<Result<Vec<_>, _>>()?;
        let (g, gat) = f.required("gravity")?;
        let gravity = vector(g, &gat)?;
        let (cv, cat) = f.required("contacts")?;
        let items = array(cv, &cat, None, "contacts")?;
        if items.len() > MAX_CONTACTS {
            return Err(QueryError::new(Kind::Limit, &cat, format!("at most {MAX_CONTACTS} contact entries")));
        }
        let contacts = items
            .iter()
            .enumerate()
            .map(|(i, v)| contact::<N>(v, &child(&cat, i), bodies.len()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut q = ContactForces::new(bodies, gravity, contacts);
        if let Some((v, at)) = f.optional("static_speed") {
            q.static_speed = N::read(v, &at)?;
            if q.static_speed.sign().ok() == Some(touchstone::scalar::Sign::Negative) {
                return Err(QueryError::new(Kind::Invalid, &at, "static_speed must not be negative"));
            }
        }
        if let Some((v, at)) = f.optional("iteration_limit") {
            let n = index(v, &at, usize::MAX, "iteration_limit")?;
            if n == 0 || n > MAX_ITERATIONS {
                let m = format!("iteration_limit must be between 1 and {MAX_ITERATIONS} (got {n})");
                return Err(QueryError::new(Kind::Invalid, &at, m));
            }
            q.iteration_limit = Some(n);
        }
        Ok(q)
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let s = &out.solution;
        let mut m = Out::new();
        m.push("forces", Value::Array(s.forces.iter().map(|f| numbers(f.iter())).collect()));
        m.push("states", states_json(&s.states));
        m.push("iterations", json!(s.iterations));
        m.push("converged", json!(s.converged));
        m.push("rank", json!(s.rank));
        // Contacts expanded from regions or shapes: say which force is where.
        if self.contacts.iter().any(|c| !matches!(c, ContactSpec::Point { .. })) {
            let contacts = out.contacts.iter().zip(&out.origin).map(|(c, k)| {
                json!({
                    "a": c.a,
                    "b": c.b,
                    "point": point_json(&c.point),
                    "normal": numbers(c.normal.iter()),
                    "friction": num(&c.friction),
                    "entry": k,
                })
            });
            m.push("contacts", Value::Array(contacts.collect()));
        }
        Ok(m)
    }
}

impl<N: Number> Encode for ContactForces<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        let bodies = self.bodies.iter().map(|b| {
            let mut o = Out::new();
            if b.fixed {
                o.push("fixed", json!(true));
            } else {
                o.push("mass", num(&b.mass));
                o.push("inertia", Value::Array(b.inertia.row_iter().map(|r| numbers(r.iter())).collect()));
            }
            o.push("pose", pose_json(&b.pose));
            if !b.linear.iter().chain(b.angular.iter()).all(|x| x.is_zero()) {
                o.push("velocity", json!({"linear": vector_json(&b.linear), "angular": vector_json(&b.angular)}));
            }
            if let Some(s) = &b.shape {
                o.push("shape", shape_json(s));
            }
            o.into_value()
        });
        m.push("bodies", Value::Array(bodies.collect()));
        m.push("gravity", vector_json(&self.gravity));
        let contacts = self.contacts.iter().map(|c| {
            let mut o = Out::new();
            match c {
                ContactSpec::Point { a, b, point, normal, friction } => {
                    o.push("a", json!(a));
                    o.push("b", json!(b));
                    o.push("point", numbers(point.iter()));
                    o.push("normal", vector_json(normal));
                    o.push("friction", num(friction));
                }
                ContactSpec::Regions { a, b, friction, regions } => {
                    o.push("a", json!(a));
                    o.push("b", json!(b));
                    o.push("friction", num(friction));
                    let rs = regions
                        .iter()
                        .map(|r| json!({"points": points_json(&r.points), "normals": [vector_json(&r.normal)]}));
                    o.push("regions", Value::Array(rs.collect()));
                }
                ContactSpec::Shapes { a, b, friction } => {
                    o.push("a", json!(a));
                    o.push("b", json!(b));
                    o.push("friction", num(friction));
                }
            }
            o.into_value()
        });
        m.push("contacts", Value::Array(contacts.collect()));
        if !self.static_speed.is_zero() {
            m.push("static_speed", num(&self.static_speed));
        }
        if let Some(l) = self.iteration_limit {
            m.push("iteration_limit", json!(l));
        }
        m
    }
}
