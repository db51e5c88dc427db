//! What a picture shows: the query's shapes in their poses (in binary64, for drawing), and the
//! marks read off the exact answer and the line's claim (points, segments, normals, contact
//! regions), each in world coordinates.

use num_rational::BigRational;
use serde_json::Value;
use touchstone::query::{Posed, ShapeSpec};
use touchstone::scalar::Scalar;

use crate::ops::Context;

/// A point in world coordinates.
pub type P3 = [f64; 3];

/// A shape as drawn.
#[derive(Clone, Debug)]
pub enum Body {
    /// A polytope: vertices, faces (outward), and each vertex's id in the format.
    Mesh {
        /// Posed vertices.
        vertices: Vec<P3>,
        /// Faces as vertex indices.
        faces: Vec<Vec<usize>>,
        /// Each vertex's format id.
        ids: Vec<usize>,
    },
    /// A ball.
    Ball {
        /// Its centre.
        center: P3,
        /// Its radius.
        radius: f64,
    },
    /// Points on a surface (an implicit solid's boundary, sampled).
    Samples {
        /// The points.
        points: Vec<P3>,
    },
    /// A segment swept by a ball (a capsule), or a polytope core swept by one (`core` set).
    Swept {
        /// The core's vertices (two for a capsule).
        core: Vec<P3>,
        /// The radius.
        radius: f64,
    },
}

/// A shape of the query with its name (`a`, `b`, `solid`) and the answer's deciding feature
/// on it, if any (the format's feature object).
#[derive(Clone, Debug)]
pub struct Drawn {
    /// `a`, `b` or `solid`.
    pub name: String,
    /// The geometry.
    pub body: Body,
    /// The answer's feature on this shape.
    pub feature: Option<Value>,
}

/// What a mark is; its SVG class is the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A point of the exact answer.
    ExactPoint,
    /// The segment between the exact closest points.
    ExactSegment,
    /// An exact normal: from its first point along to its second.
    ExactNormal,
    /// A contact region (a polygon, a segment or a point).
    Region,
    /// A point the engine claimed.
    ClaimedPoint,
    /// The segment between claimed points.
    ClaimedSegment,
    /// A normal the engine claimed.
    ClaimedNormal,
    /// A point or segment given in the query (classify_point, classify_segment).
    QueryPoint,
}

impl MarkKind {
    /// The SVG class (and legend entry).
    pub fn class(self) -> &'static str {
        match self {
            MarkKind::ExactPoint => "exact-point",
            MarkKind::ExactSegment => "exact-segment",
            MarkKind::ExactNormal => "exact-normal",
            MarkKind::Region => "region",
            MarkKind::ClaimedPoint => "claimed-point",
            MarkKind::ClaimedSegment => "claimed-segment",
            MarkKind::ClaimedNormal => "claimed-normal",
            MarkKind::QueryPoint => "query-point",
        }
    }

    /// Whether it is the engine's (drawn dashed, in the claim's colour).
    pub fn claimed(self) -> bool {
        matches!(self, MarkKind::ClaimedPoint | MarkKind::ClaimedSegment | MarkKind::ClaimedNormal)
    }
}

/// A mark in world coordinates.
#[derive(Clone, Debug)]
pub struct Mark {
    /// What it is.
    pub kind: MarkKind,
    /// Its points (one for a point, two for a segment or a normal, more for a region).
    pub points: Vec<P3>,
}

/// Everything a picture of one line shows.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// The line's id as text, or its number in the file.
    pub id: String,
    /// The op.
    pub op: String,
    /// One line of the answer's headline fields (status, distance, time).
    pub headline: String,
    /// The shapes.
    pub shapes: Vec<Drawn>,
    /// The marks.
    pub marks: Vec<Mark>,
    /// What could not be drawn, said in the picture.
    pub notes: Vec<String>,
    /// When set, every coordinate of the scene is its world coordinate minus this exact point
    /// (decimal strings): a gap far below the coordinates' size (10⁻¹⁶ between points near 5,
    /// say) vanishes when each point is rounded to binary64 alone, but not when its exact
    /// difference from a nearby exact origin is.
    pub origin: Option<[String; 3]>,
}

/// A number of the format as a double: a JSON number, an integer, decimal or fraction string
/// (fractions of any length, scaled so that neither part overflows), or an algebraic number's
/// object (its `f64` or `decimal`).
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.split_once('/') {
            Some((p, q)) => ratio(p.trim(), q.trim()),
            None => s.trim().parse().ok(),
        },
        Value::Object(o) => o.get("f64").and_then(number).or_else(|| o.get("decimal").and_then(number)),
        _ => None,
    }
}

/// p / q for integer strings of any length: their leading 17 digits and the difference of
/// their lengths.
fn ratio(p: &str, q: &str) -> Option<f64> {
    let lead = |s: &str| -> Option<(f64, i32)> {
        let (neg, digits) = s.strip_prefix('-').map_or((false, s), |d| (true, d));
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let head: f64 = digits[..digits.len().min(17)].parse().ok()?;
        let exp = digits.len().saturating_sub(17) as i32;
        Some((if neg { -head } else { head }, exp))
    };
    let ((a, ea), (b, eb)) = (lead(p)?, lead(q)?);
    if b == 0.0 {
        return None;
    }
    Some(a / b * 10f64.powi(ea - eb))
}

/// A point of the format (three numbers).
pub fn point(v: &Value) -> Option<P3> {
    let a = v.as_array()?;
    if a.len() != 3 {
        return None;
    }
    Some([number(&a[0])?, number(&a[1])?, number(&a[2])?])
}

type Q = BigRational;

/// A number of the format exactly: a JSON number is its binary64 value, a string a decimal or
/// fraction.
pub fn exact_number(v: &Value) -> Option<Q> {
    match v {
        Value::Number(n) => n.as_f64().and_then(Q::from_float),
        Value::String(s) => {
            touchstone::scalar::parse_rational_within(s.trim(), &touchstone::scalar::NumberLimits::for_bits(1 << 16))
                .ok()
        }
        _ => None,
    }
}

/// A point of the format exactly.
pub fn exact_point(v: &Value) -> Option<[Q; 3]> {
    let a = v.as_array()?;
    if a.len() != 3 {
        return None;
    }
    Some([exact_number(&a[0])?, exact_number(&a[1])?, exact_number(&a[2])?])
}

/// `p − o` rounded to binary64.
fn shifted(p: &[Q; 3], o: &[Q; 3]) -> P3 {
    [0, 1, 2].map(|i| (p[i].clone() - o[i].clone()).to_f64())
}

/// [`body`] posed exactly and moved by `−origin` before rounding (for a scene whose gap binary64
/// would lose).
pub fn body_shifted(p: &Posed<Q>, origin: &[Q; 3]) -> Result<Body, String> {
    let map = p.pose.affine::<Q>().map_err(|e| format!("{}: {e}", p.pose_at))?;
    let place = |q: &touchstone::geom::Point3<Q>| {
        let r = map.apply_point(q);
        shifted(&[r.x.clone(), r.y.clone(), r.z.clone()], origin)
    };
    vertex_body(p, place).unwrap_or_else(|| Err(format!("{}: a {} is not drawn yet", p.at, p.shape.key())))
}

/// The body of a shape given by points (a ball, a capsule, a box, a rounded or plain polytope),
/// each point placed by `place` (the pose applied, then rounded as the caller chooses); `None`
/// for the other shapes.
fn vertex_body<N: Scalar>(
    p: &Posed<N>,
    place: impl Fn(&touchstone::geom::Point3<N>) -> P3,
) -> Option<Result<Body, String>> {
    let built =
        |shape: &ShapeSpec<N>| touchstone::query::spec::build_solid::<N, N>(shape, &p.at).map_err(|e| e.to_string());
    Some(match &p.shape {
        ShapeSpec::Ball(r) => {
            let centre = touchstone::geom::Point3::new(N::zero(), N::zero(), N::zero());
            Ok(Body::Ball { center: place(&centre), radius: r.to_f64() })
        }
        ShapeSpec::Capsule { a, b, radius } => {
            Ok(Body::Swept { core: vec![place(a), place(b)], radius: radius.to_f64() })
        }
        ShapeSpec::Round { shape, radius } => built(shape)
            .map(|b| Body::Swept { core: b.solid.vertices().iter().map(&place).collect(), radius: radius.to_f64() }),
        ShapeSpec::Box(h) => {
            // Corners and faces directly (vertex i = (x>0) + 2(y>0) + 4(z>0), the format's
            // ids): a box of 10⁻²⁰⁰ would fail the solid checks in binary64 (its faces' areas
            // underflow), and a picture needs none.
            let corner = |i: usize| {
                let c = |axis: usize| if i >> axis & 1 == 1 { h[axis].clone() } else { -h[axis].clone() };
                place(&touchstone::geom::Point3::new(c(0), c(1), c(2)))
            };
            Ok(Body::Mesh {
                vertices: (0..8).map(corner).collect(),
                faces: BOX_FACES.iter().map(|f| f.to_vec()).collect(),
                ids: (0..8).collect(),
            })
        }
        ShapeSpec::Polyhedron { .. } | ShapeSpec::ConvexHull(_) | ShapeSpec::File { .. } => built(&p.shape).map(|b| {
            let s = &b.solid;
            Body::Mesh {
                vertices: s.vertices().iter().map(&place).collect(),
                faces: (0..s.face_count()).map(|f| s.face(f).to_vec()).collect(),
                ids: b.ids.clone(),
            }
        }),
        _ => return None,
    })
}

/// A box's faces (vertex i = (x>0) + 2(y>0) + 4(z>0), the format's ids).
const BOX_FACES: [[usize; 4]; 6] = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];

/// The exact origin a scene is drawn around, when binary64 would lose its gap: the first
/// exact closest point, when the two exact points are closer than 2⁻²⁰ of their coordinates'
/// size (rounded each on its own, they would keep fewer than about 30 bits of the gap).
fn shift_origin(answer: &Value) -> Option<[Q; 3]> {
    let pts = answer.get("points")?.as_array()?;
    let (p, q) = (exact_point(pts.first()?)?, exact_point(pts.get(1)?)?);
    let gap = norm(shifted(&q, &p));
    let size = p.iter().chain(q.iter()).map(|x| x.to_f64().abs()).fold(0.0f64, f64::max);
    (gap > 0.0 && gap < size * 2f64.powi(-20)).then_some(p)
}

/// A body for a posed shape in binary64; `None` with a reason for a shape not drawn.
pub fn body(p: &Posed<f64>) -> Result<Body, String> {
    let map = p.pose.affine::<f64>().map_err(|e| format!("{}: {e}", p.pose_at))?;
    let apply = |q: &touchstone::geom::Point3<f64>| {
        let r = map.apply_point(q);
        [r.x, r.y, r.z]
    };
    if let Some(body) = vertex_body(p, apply) {
        return body;
    }
    match &p.shape {
        ShapeSpec::Implicit { terms, lo, hi } => {
            let points = implicit_samples(terms, [lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z]);
            Ok(Body::Samples {
                points: points.iter().map(|v| apply(&touchstone::geom::Point3::new(v[0], v[1], v[2]))).collect(),
            })
        }
        // Tori, cylinders, Bézier solids: grids of surface points.
        _ => {
            let (vertices, faces) =
                curved_mesh(&p.shape).ok_or_else(|| format!("{}: a degenerate {}", p.at, p.shape.key()))?;
            let ids = (0..vertices.len()).collect();
            Ok(Body::Mesh {
                vertices: vertices.iter().map(|v| apply(&touchstone::geom::Point3::new(v[0], v[1], v[2]))).collect(),
                faces,
                ids,
            })
        }
    }
}

/// Points near the boundary of {f ≤ 0} in the box [lo, hi]: the centres of the cells of a
/// 40³ grid whose corners' signs of f differ (f evaluated in binary64; a picture, not a proof).
fn implicit_samples(terms: &[(f64, [u32; 3])], lo: P3, hi: P3) -> Vec<P3> {
    const N: usize = 40;
    let f = |p: P3| {
        terms
            .iter()
            .map(|(c, e)| c * p[0].powi(e[0] as i32) * p[1].powi(e[1] as i32) * p[2].powi(e[2] as i32))
            .sum::<f64>()
    };
    let at = |i: usize, j: usize, k: usize| [0, 1, 2].map(|a| lo[a] + (hi[a] - lo[a]) * [i, j, k][a] as f64 / N as f64);
    let inside: Vec<bool> = (0..=N)
        .flat_map(|i| (0..=N).flat_map(move |j| (0..=N).map(move |k| (i, j, k))))
        .map(|(i, j, k)| f(at(i, j, k)) <= 0.0)
        .collect();
    let idx = |i: usize, j: usize, k: usize| (i * (N + 1) + j) * (N + 1) + k;
    let mut out = Vec::new();
    for i in 0..N {
        for j in 0..N {
            for k in 0..N {
                let corners = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1)];
                let signs = corners.map(|(a, b, c)| inside[idx(i + a, j + b, k + c)]);
                if signs.iter().any(|&x| x) && signs.iter().any(|&x| !x) {
                    let (p, q) = (at(i, j, k), at(i + 1, j + 1, k + 1));
                    out.push([0, 1, 2].map(|a| (p[a] + q[a]) / 2.0));
                }
            }
        }
    }
    out
}

/// A torus, a cylinder or Bézier patches as a mesh of quadrilaterals (in the shape's own
/// frame), fine enough for a picture: the drawn faces are samples of the surface, not the
/// surface.
fn curved_mesh(shape: &ShapeSpec<f64>) -> Option<(Vec<P3>, Vec<Vec<usize>>)> {
    let tau = std::f64::consts::TAU;
    // Two unit vectors perpendicular to `a` and to each other.
    let frame = |a: P3| -> Option<(P3, P3, P3)> {
        let l = norm(a);
        if l == 0.0 || !l.is_finite() {
            return None;
        }
        let a = a.map(|x| x / l);
        let e = if a[0].abs() < 0.9 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
        let u = [a[1] * e[2] - a[2] * e[1], a[2] * e[0] - a[0] * e[2], a[0] * e[1] - a[1] * e[0]];
        let lu = norm(u);
        let u = u.map(|x| x / lu);
        let w = [a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]];
        Some((a, u, w))
    };
    // A grid of rows × cols points, closed in u (and in v when `closed_v`), into quads.
    let grid = |rows: usize, cols: usize, closed_v: bool, at: &dyn Fn(usize, usize) -> P3| {
        let vertices: Vec<P3> = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j))).map(|(i, j)| at(i, j)).collect();
        let mut faces = Vec::new();
        for i in 0..if closed_v { rows } else { rows - 1 } {
            for j in 0..cols {
                let (i1, j1) = ((i + 1) % rows, (j + 1) % cols);
                faces.push(vec![i * cols + j, i * cols + j1, i1 * cols + j1, i1 * cols + j]);
            }
        }
        (vertices, faces)
    };
    match shape {
        ShapeSpec::Torus { center, axis, major, minor } => {
            let (a, u, w) = frame([axis.x, axis.y, axis.z])?;
            let (c, big, small) = ([center.x, center.y, center.z], *major, *minor);
            Some(grid(12, 32, true, &|i, j| {
                let (th, ph) = (tau * j as f64 / 32.0, tau * i as f64 / 12.0);
                let r = big + small * ph.cos();
                [0, 1, 2].map(|k| c[k] + r * (th.cos() * u[k] + th.sin() * w[k]) + small * ph.sin() * a[k])
            }))
        }
        ShapeSpec::Cylinder { a, b, radius } => {
            let (pa, pb) = ([a.x, a.y, a.z], [b.x, b.y, b.z]);
            let (_, u, w) = frame([pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]])?;
            let (vertices, mut faces) = grid(2, 32, false, &|i, j| {
                let th = tau * j as f64 / 32.0;
                let c = if i == 0 { pa } else { pb };
                [0, 1, 2].map(|k| c[k] + radius * (th.cos() * u[k] + th.sin() * w[k]))
            });
            faces.push((0..32).collect());
            faces.push((32..64).collect());
            Some((vertices, faces))
        }
        ShapeSpec::Bezier { patches } => {
            let (mut vertices, mut faces) = (Vec::new(), Vec::new());
            let n = 8;
            for ([m, d], pts, weights) in patches {
                let (m, d) = (*m, *d);
                if pts.len() != (m + 1) * (d + 1) {
                    return None;
                }
                // Rational de Casteljau on homogeneous points, along each row then the column.
                let eval = |s: f64, t: f64| -> P3 {
                    let h = |k: usize| {
                        let wt = weights.as_ref().and_then(|w| w.get(k)).copied().unwrap_or(1.0);
                        [pts[k].x * wt, pts[k].y * wt, pts[k].z * wt, wt]
                    };
                    let casteljau = |mut c: Vec<[f64; 4]>, x: f64| {
                        for r in 1..c.len() {
                            for k in 0..c.len() - r {
                                c[k] = [0, 1, 2, 3].map(|i| c[k][i] * (1.0 - x) + c[k + 1][i] * x);
                            }
                        }
                        c[0]
                    };
                    let column: Vec<[f64; 4]> =
                        (0..=m).map(|i| casteljau((0..=d).map(|j| h(i * (d + 1) + j)).collect(), t)).collect();
                    let p = casteljau(column, s);
                    [p[0] / p[3], p[1] / p[3], p[2] / p[3]]
                };
                let first = vertices.len();
                for i in 0..=n {
                    for j in 0..=n {
                        vertices.push(eval(i as f64 / n as f64, j as f64 / n as f64));
                    }
                }
                for i in 0..n {
                    for j in 0..n {
                        let at = |i: usize, j: usize| first + i * (n + 1) + j;
                        faces.push(vec![at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
                    }
                }
            }
            Some((vertices, faces))
        }
        _ => None,
    }
}

/// Move a body by `d`.
fn translated(body: &mut Body, d: P3) {
    let add = |p: &mut P3| (0..3).for_each(|i| p[i] += d[i]);
    match body {
        Body::Mesh { vertices, .. } => vertices.iter_mut().for_each(add),
        Body::Ball { center, .. } => add(center),
        Body::Swept { core, .. } => core.iter_mut().for_each(add),
        Body::Samples { points } => points.iter_mut().for_each(add),
    }
}

/// The scene of one query line and its exact answer (the oracle's output line for it).
pub fn scene(query: &Value, answer: &Value, ctx: &Context, number_in_file: usize) -> Scene {
    let op = query.get("op").and_then(Value::as_str).unwrap_or("?").to_string();
    let id = match query.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => number_in_file.to_string(),
    };
    let mut scene = Scene { id, op: op.clone(), ..Scene::default() };
    scene.headline = headline(answer);
    // The shapes, as the op's own parser reads them.
    // A cast is drawn at its first contact: each shape moved by its velocity times the time.
    let toi = if op.starts_with("toi") { answer.get("toi").and_then(number) } else { None };
    // A gap binary64 would lose: everything drawn around an exact origin (not for casts, whose
    // shapes are moved in binary64).
    let origin = if toi.is_none() { shift_origin(answer) } else { None };
    scene.origin = origin.as_ref().map(|o| o.clone().map(|x| x.to_string()));
    let text = query.to_string();
    // A box sweep's boxes are half extents under 4×4 motions: drawn at the first contact (or
    // at t0), each the image of its box under M(t).
    let parsed = if op == "toi_boxes" {
        crate::ops::read_query::<touchstone::query::ToiBoxes<f64>>(&text, &crate::Options::default()).map(|q| {
            let t = toi.unwrap_or(q.interval[0]);
            [("a", &q.a), ("b", &q.b)]
                .into_iter()
                .map(|(name, m)| {
                    let drawn = super::time::box_at(m, t)
                        .map(|s| Body::Mesh {
                            vertices: s.vertices().iter().map(|v| [v.x, v.y, v.z]).collect(),
                            faces: (0..s.face_count()).map(|f| s.face(f).to_vec()).collect(),
                            ids: (0..8).collect(),
                        })
                        .ok_or_else(|| format!("/{name}: the box is not a solid at t = {t}"));
                    (name, drawn)
                })
                .collect()
        })
    } else {
        crate::json::parse_line(&text).and_then(|json| {
            let fields = crate::input::Fields::of(&json, "", "a query")?;
            let mut shapes = Vec::new();
            for (key, pose) in [("a", "pose_a"), ("b", "pose_b"), ("solid", "pose")] {
                if fields.optional(key).is_some() {
                    let drawn = match &origin {
                        None => body(&crate::ops::posed::<f64>(&fields, key, pose, ctx)?),
                        Some(o) => body_shifted(&crate::ops::posed::<Q>(&fields, key, pose, ctx)?, o),
                    };
                    shapes.push((key, drawn));
                }
            }
            Ok(shapes)
        })
    };
    let features: Vec<Value> = answer.get("features").and_then(Value::as_array).cloned().unwrap_or_default();
    match parsed {
        Ok(shapes) => {
            for (k, (name, drawn)) in shapes.into_iter().enumerate() {
                match drawn {
                    Ok(mut b) => {
                        if let (Some(t), Some(v)) = (toi, query.get(format!("velocity_{name}")).and_then(point)) {
                            translated(&mut b, v.map(|c| c * t));
                        }
                        scene.shapes.push(Drawn { name: name.to_string(), body: b, feature: features.get(k).cloned() });
                    }
                    Err(e) => scene.notes.push(e),
                }
            }
        }
        Err(e) => scene.notes.push(format!("the shapes do not read: {e}")),
    }
    if let Some(t) = toi {
        scene.notes.push(format!("shapes at the first contact, t = {t}"));
    }
    // The claim's plain values (its points and normal are drawn).
    if let Some(claim) = query.get("claim").and_then(Value::as_object) {
        for (k, v) in claim {
            if matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_)) {
                scene.notes.push(format!("claimed {k}: {v}"));
            }
        }
    }
    marks(&mut scene, query, answer, origin.as_ref());
    scene
}

/// The answer's headline: status, distance, time, verdict.
fn headline(answer: &Value) -> String {
    let mut parts = Vec::new();
    for key in ["status", "collides", "class", "distance", "depth", "toi", "intersecting"] {
        if let Some(v) = answer.get(key) {
            let shown = match v {
                Value::String(s) => s.clone(),
                Value::Object(o) => {
                    o.get("decimal").map_or_else(|| v.to_string(), |d| d.as_str().unwrap_or("").to_string())
                }
                v => v.to_string(),
            };
            parts.push(format!("{key} {shown}"));
        }
    }
    if let Some(ok) = answer.pointer("/verdict/ok").and_then(Value::as_bool) {
        parts.push(if ok { "claim: ok".into() } else { "claim: WRONG".into() });
    }
    if let Some(e) = answer.get("error") {
        parts.push(format!("error: {}", e.get("message").and_then(Value::as_str).unwrap_or("")));
    }
    parts.join(" · ")
}

fn marks(scene: &mut Scene, query: &Value, answer: &Value, origin: Option<&[Q; 3]>) {
    // A point in the scene's coordinates (moved by the exact origin, when there is one).
    let point = |v: &Value| -> Option<P3> {
        match origin {
            None => point(v),
            Some(o) => exact_point(v).map(|p| shifted(&p, o)),
        }
    };
    let pair = |v: Option<&Value>| -> Option<[P3; 2]> {
        let a = v?.as_array()?;
        (a.len() == 2).then_some(())?;
        Some([point(&a[0])?, point(&a[1])?])
    };
    let mut anchor = None;
    if let Some([p, q]) = pair(answer.get("points")) {
        scene.marks.push(Mark { kind: MarkKind::ExactSegment, points: vec![p, q] });
        scene.marks.push(Mark { kind: MarkKind::ExactPoint, points: vec![p] });
        scene.marks.push(Mark { kind: MarkKind::ExactPoint, points: vec![q] });
        anchor = Some(mid(p, q));
    }
    let size = extent_of(scene).max(1e-300);
    for region in answer.get("regions").and_then(Value::as_array).into_iter().flatten() {
        let pts: Vec<P3> =
            region.get("points").and_then(Value::as_array).into_iter().flatten().filter_map(point).collect();
        if pts.is_empty() {
            continue;
        }
        let c = centroid(&pts);
        anchor.get_or_insert(c);
        scene.marks.push(Mark { kind: MarkKind::Region, points: pts });
        for n in region.get("normals").and_then(Value::as_array).into_iter().flatten().filter_map(point) {
            scene.marks.push(Mark { kind: MarkKind::ExactNormal, points: vec![c, arrow_end(c, n, 0.3 * size)] });
        }
    }
    if let Some(p) = query.get("point").and_then(point) {
        scene.marks.push(Mark { kind: MarkKind::QueryPoint, points: vec![p] });
    }
    if let Some([p, q]) = pair(query.get("segment")) {
        scene.marks.push(Mark { kind: MarkKind::QueryPoint, points: vec![p, q] });
    }
    let claim = query.get("claim");
    if let Some([p, q]) = pair(claim.and_then(|c| c.get("points"))) {
        scene.marks.push(Mark { kind: MarkKind::ClaimedSegment, points: vec![p, q] });
        scene.marks.push(Mark { kind: MarkKind::ClaimedPoint, points: vec![p] });
        scene.marks.push(Mark { kind: MarkKind::ClaimedPoint, points: vec![q] });
        anchor.get_or_insert(mid(p, q));
    }
    if let Some(n) = claim.and_then(|c| c.get("normal")).and_then(point) {
        let at =
            anchor.unwrap_or_else(|| centroid(&scene.marks.iter().flat_map(|m| m.points.clone()).collect::<Vec<_>>()));
        scene.marks.push(Mark { kind: MarkKind::ClaimedNormal, points: vec![at, arrow_end(at, n, 0.3 * size)] });
    }
}

fn mid(p: P3, q: P3) -> P3 {
    [0, 1, 2].map(|i| (p[i] + q[i]) / 2.0)
}

fn centroid(pts: &[P3]) -> P3 {
    let n = pts.len().max(1) as f64;
    [0, 1, 2].map(|i| pts.iter().map(|p| p[i]).sum::<f64>() / n)
}

/// `at` plus `n` scaled to `length`.
fn arrow_end(at: P3, n: P3, length: f64) -> P3 {
    let l = norm(n);
    if l == 0.0 || !l.is_finite() {
        return at;
    }
    [0, 1, 2].map(|i| at[i] + n[i] / l * length)
}

/// The length of a vector, scaled first so that neither tiny (10⁻²⁰⁰) nor huge components
/// underflow or overflow in the squares.
pub fn norm(v: P3) -> f64 {
    let m = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return m;
    }
    let w = v.map(|x| x / m);
    m * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt()
}

/// Every point that bounds a body (a ball's and a swept shape's reach included).
pub fn body_points(b: &Body) -> Vec<(P3, f64)> {
    match b {
        Body::Mesh { vertices, .. } => vertices.iter().map(|&p| (p, 0.0)).collect(),
        Body::Ball { center, radius } => vec![(*center, *radius)],
        Body::Swept { core, radius } => core.iter().map(|&p| (p, *radius)).collect(),
        Body::Samples { points } => points.iter().map(|&p| (p, 0.0)).collect(),
    }
}

/// The largest extent of the shapes along an axis (the scene's size).
pub fn extent_of(scene: &Scene) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for d in &scene.shapes {
        for (p, r) in body_points(&d.body) {
            for i in 0..3 {
                lo[i] = lo[i].min(p[i] - r);
                hi[i] = hi[i].max(p[i] + r);
            }
        }
    }
    (0..3).map(|i| hi[i] - lo[i]).filter(|x| x.is_finite()).fold(0.0, f64::max)
}
