//! The parry3d-f64 adapter: `distance`, `contact` (signed distance, and witness points when
//! separated), `intersection_test`, `closest_points` on
//! `distance` lines, `cast_shapes` on `toi` lines, `contact_manifolds` on `contact` lines (convex
//! shapes: a polyhedron that is not convex, which parry would hold as its hull, is skipped).
//!
//! Shapes are built as an engine holds them: a box is a `Cuboid` of its half extents, a ball a
//! `Ball`, a capsule a `Capsule`, a cylinder a `Cylinder` (parry's lies along y: turned onto
//! the axis by its pose), a rounded shape a `RoundShape` of its core's hull, a hull
//! (or a convex polyhedron's vertices) a `ConvexPolyhedron::from_convex_hull`, all in binary64
//! (the line's numbers rounded); a quaternion pose becomes parry's pose (the quaternion
//! normalised, the translation rounded); a matrix pose (any invertible affine map, which parry
//! cannot hold) is applied to the vertices, and the shape is their hull at the identity.
//! parry's API takes glam types; they are made here and nowhere else.

use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::query::{
    ClosestPoints, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher, ShapeCastOptions,
};
use parry3d_f64::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, RoundShape, Shape};
use serde_json::{json, Value};
use touchstone::geom::Point3;
use touchstone::query::{PoseSpec, Posed, ShapeSpec};

use super::{Answered, Answers, Asked, Engine, Extra, Failure};
use touchstone::query::{ClassifyPoint, Contact, Distance, Toi};

/// parry3d-f64 0.31.
pub struct Parry;

type Built = (Box<dyn Shape>, Pose);

fn vector(p: &Point3<f64>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// A shape's vertices in its own frame (none for a file shape).
fn vertices(s: &ShapeSpec<f64>) -> Option<Vec<Point3<f64>>> {
    match s {
        ShapeSpec::Box(h) => Some(
            (0..8)
                .map(|k| {
                    let c = |i: usize| if k & (1 << i) != 0 { h[i] } else { -h[i] };
                    Point3::new(c(0), c(1), c(2))
                })
                .collect(),
        ),
        ShapeSpec::ConvexHull(p) => Some(p.clone()),
        ShapeSpec::Polyhedron { vertices, .. } => Some(vertices.clone()),
        _ => None,
    }
}

fn hull(points: &[Point3<f64>]) -> Result<Box<dyn Shape>, String> {
    let v: Vec<Vector> = points.iter().map(vector).collect();
    ConvexPolyhedron::from_convex_hull(&v)
        .map(|c| Box::new(c) as Box<dyn Shape>)
        .ok_or_else(|| "parry could not build the convex hull".to_string())
}

/// A parry `Cylinder` (its axis along y, centred at the origin) and the local pose that lays
/// it from `a` to `b`.
fn cylinder(a: &Point3<f64>, b: &Point3<f64>, radius: f64) -> Result<Built, String> {
    let (a, b) = (vector(a), vector(b));
    let axis = b - a;
    let length = axis.length();
    if length == 0.0 || !length.is_finite() {
        return Err("a cylinder whose ends coincide in binary64".into());
    }
    let turn = Rotation::from_rotation_arc(Vector::Y, axis / length);
    Ok((Box::new(Cylinder::new(length / 2.0, radius)), Pose::from_parts((a + b) / 2.0, turn)))
}

/// parry's shape and pose for a posed shape.
pub fn build(p: &Posed<f64>) -> Result<Built, String> {
    if let ShapeSpec::Cylinder { a, b, radius } = &p.shape {
        return match &p.pose {
            PoseSpec::Quaternion { q, t } => {
                let rotation = Rotation::from_xyzw(q[1], q[2], q[3], q[0]).normalize();
                let pose = Pose::from_parts(Vector::new(t[0], t[1], t[2]), rotation);
                let (shape, local) = cylinder(a, b, *radius)?;
                Ok((shape, pose * local))
            }
            PoseSpec::Matrix(m) => {
                let map = |v: &Point3<f64>| {
                    let r = |i: usize| m[i][0] * v.x + m[i][1] * v.y + m[i][2] * v.z + m[i][3];
                    Point3::new(r(0), r(1), r(2))
                };
                cylinder(&map(a), &map(b), *radius)
            }
        };
    }
    match &p.pose {
        PoseSpec::Quaternion { q, t } => {
            let rotation = Rotation::from_xyzw(q[1], q[2], q[3], q[0]).normalize();
            let pose = Pose::from_parts(Vector::new(t[0], t[1], t[2]), rotation);
            Ok((shape_at(&p.shape, &|v| *v)?, pose))
        }
        PoseSpec::Matrix(m) => {
            // Applied to the shape's points (a round shape's matrix is rigid: the oracle
            // refuses any other), the shape held at the identity.
            let map = |v: &Point3<f64>| {
                let r = |i: usize| m[i][0] * v.x + m[i][1] * v.y + m[i][2] * v.z + m[i][3];
                Point3::new(r(0), r(1), r(2))
            };
            let shape = match &p.shape {
                ShapeSpec::Box(_) => {
                    let moved: Vec<Point3<f64>> = vertices(&p.shape).unwrap_or_default().iter().map(map).collect();
                    hull(&moved)?
                }
                s => shape_at(s, &map)?,
            };
            Ok((shape, Pose::IDENTITY))
        }
    }
}

/// parry's shape for a shape whose points are mapped by `map` (the identity under a
/// quaternion pose, which parry holds as the pose): a box as a `Cuboid` (unmapped only), a
/// ball as a `Ball` (at the origin: unmapped only), a capsule as a `Capsule` of its mapped ends,
/// a rounded shape as a `RoundShape` of its core's hull (parry's round convex polyhedron).
fn shape_at(s: &ShapeSpec<f64>, map: &dyn Fn(&Point3<f64>) -> Point3<f64>) -> Result<Box<dyn Shape>, String> {
    let file = || "a file shape (not read by the adapter)".to_string();
    Ok(match s {
        ShapeSpec::Box(h) => Box::new(Cuboid::new(Vector::new(h[0], h[1], h[2]))),
        ShapeSpec::Ball(r) => {
            let c = map(&Point3::new(0.0, 0.0, 0.0));
            if c != Point3::new(0.0, 0.0, 0.0) {
                // A ball away from its pose's origin: a capsule of zero length is parry's ball
                // there.
                Box::new(Capsule::new(vector(&c), vector(&c), *r))
            } else {
                Box::new(Ball::new(*r))
            }
        }
        ShapeSpec::Capsule { a, b, radius } => Box::new(Capsule::new(vector(&map(a)), vector(&map(b)), *radius)),
        ShapeSpec::Round { shape, radius } => {
            let core: Vec<Point3<f64>> = vertices(shape).ok_or_else(file)?.iter().map(map).collect();
            let v: Vec<Vector> = core.iter().map(vector).collect();
            let inner = ConvexPolyhedron::from_convex_hull(&v).ok_or("parry could not build the convex hull")?;
            Box::new(RoundShape { inner_shape: inner, border_radius: *radius })
        }
        s => hull(&vertices(s).ok_or_else(file)?.iter().map(map).collect::<Vec<_>>())?,
    })
}

fn p3(v: Vector) -> Value {
    json!([v.x, v.y, v.z])
}

impl Engine for Parry {
    fn name(&self) -> &'static str {
        "parry3d"
    }

    fn distance(&self, asked: Asked<'_, Distance<f64>>) -> Answers {
        let tol = 1e-9 * asked.scale;
        Some(asked.read().and_then(|d| distance_family(&d.a, &d.b, tol)).map_err(Failure::Skipped))
    }

    fn toi(&self, asked: Asked<'_, Toi<f64>>) -> Answers {
        Some(asked.read().and_then(cast).map_err(Failure::Skipped))
    }

    fn classify_point(&self, asked: Asked<'_, ClassifyPoint<f64>>) -> Answers {
        Some(asked.read().and_then(contains).map_err(Failure::Skipped))
    }

    fn contact(&self, asked: Asked<'_, Contact<f64>>) -> Answers {
        let tol = 1e-9 * asked.scale;
        Some(asked.read().and_then(|c| manifolds(&c.a, &c.b, tol)).map_err(Failure::Skipped))
    }
}

fn unsupported(e: parry3d_f64::query::Unsupported) -> String {
    format!("parry: unsupported ({e:?})")
}

/// parry's four proximity queries on one pair; `tol`: the claims' absolute tolerance.
fn distance_family(a: &Posed<f64>, b: &Posed<f64>, tol: f64) -> Result<Vec<Answered>, String> {
    let ((ga, pa), (gb, pb)) = (build(a)?, build(b)?);
    let (ga, gb) = (ga.as_ref(), gb.as_ref());
    let mut out = Vec::new();
    let d = parry3d_f64::query::distance(&pa, ga, &pb, gb).map_err(unsupported)?.distance;
    out.push(Answered {
        function: "distance".into(),
        claim: json!({ "distance": d }),
        said: format!("distance {d:e}"),
        extra: Extra::None,
    });
    // A prediction large enough to report any pair, however far apart.
    let c = parry3d_f64::query::contact(&pa, ga, &pb, gb, f64::MAX).map_err(unsupported)?;
    match c {
        Some(c) => {
            // A penetration beyond the tolerance is claimed as a status (its depth is judged
            // against the exact one below); within it, as a distance of zero; a separation
            // beyond it as a distance with its witness points (world space), which must lie on
            // the shapes and realise the exact distance.
            let claim = if c.dist < -tol {
                json!({ "status": "penetrating" })
            } else if c.dist > tol {
                json!({ "distance": c.dist, "points": [p3(c.point1), p3(c.point2)] })
            } else {
                json!({ "distance": c.dist.max(0.0) })
            };
            out.push(Answered {
                function: "contact".into(),
                claim,
                said: format!("signed distance {:e}", c.dist),
                extra: Extra::Contact(c.dist, [c.normal1.x, c.normal1.y, c.normal1.z]),
            });
        }
        None => out.push(Answered {
            function: "contact".into(),
            claim: json!({ "status": "separated" }),
            said: "no contact".into(),
            extra: Extra::None,
        }),
    }
    let i = parry3d_f64::query::intersection_test(&pa, ga, &pb, gb).map_err(unsupported)?.intersecting;
    out.push(Answered {
        function: "intersection_test".into(),
        claim: json!({ "intersecting": i }),
        said: format!("intersecting: {i}"),
        extra: Extra::Boolean(i),
    });
    let cp = parry3d_f64::query::closest_points(&pa, ga, &pb, gb, f64::MAX).map_err(unsupported)?;
    let (claim, said, b) = match cp {
        ClosestPoints::Intersecting => (json!({ "intersecting": true }), "intersecting".to_string(), true),
        ClosestPoints::WithinMargin(x, y) => (
            json!({ "intersecting": false, "points": [p3(x), p3(y)] }),
            format!("points {} and {}", p3(x), p3(y)),
            false,
        ),
        ClosestPoints::Disjoint => (json!({ "intersecting": false }), "disjoint".to_string(), false),
    };
    out.push(Answered { function: "closest_points".into(), claim, said, extra: Extra::Boolean(b) });
    Ok(out)
}

/// `contains_point` on a `classify_point` line: a claim that the closed solid holds the point.
fn contains(c: &ClassifyPoint<f64>) -> Result<Vec<Answered>, String> {
    let (shape, pose) = build(&c.solid)?;
    let inside = shape.contains_point(&pose, vector(&c.point));
    Ok(vec![Answered {
        function: "contains_point".into(),
        claim: json!({ "contains": inside }),
        said: format!("contains: {inside}"),
        extra: Extra::Boolean(inside),
    }])
}

/// `cast_shapes` on a `toi` line: poses at t0, the interval's length as the longest time.
fn cast(t: &Toi<f64>) -> Result<Vec<Answered>, String> {
    let ((ga, pa), (gb, pb)) = (build(&t.a)?, build(&t.b)?);
    let [t0, t1] = t.interval;
    let (va, vb) = (t.velocity_a, t.velocity_b);
    let (va, vb) = (Vector::new(va.x, va.y, va.z), Vector::new(vb.x, vb.y, vb.z));
    let at = |p: Pose, v: Vector| Pose::from_parts(p.translation + v * t0, p.rotation);
    let options = ShapeCastOptions::with_max_time_of_impact(t1 - t0);
    let hit = parry3d_f64::query::cast_shapes(&at(pa, va), va, ga.as_ref(), &at(pb, vb), vb, gb.as_ref(), options)
        .map_err(unsupported)?;
    let (claim, said) = match hit {
        Some(h) => {
            let time = t0 + h.time_of_impact;
            (json!({ "collides": true, "toi": time }), format!("impact at t = {time:e}"))
        }
        None => (json!({ "collides": false }), "no impact".to_string()),
    };
    Ok(vec![Answered { function: "cast_shapes".into(), claim, said, extra: Extra::Boolean(hit.is_some()) }])
}

/// Whether parry holds the shape as given: a box, a hull, or a convex polyhedron.
fn convex_as_given(p: &Posed<f64>) -> bool {
    match &p.shape {
        ShapeSpec::Polyhedron { vertices, faces } => touchstone::brep::Solid::new(vertices.clone(), faces.clone())
            .ok()
            .and_then(|s| s.is_convex().ok())
            .unwrap_or(false),
        _ => true,
    }
}

/// `contact_manifolds` on a `contact` line, with a prediction of the claims' tolerance: the
/// status (no point within it: separate; one deeper than it: penetrating; else touching) as a
/// claim, and the points within it with their normals (out of b toward a, the format's way)
/// for the judgement against R_t ([`Extra::Manifold`]).
fn manifolds(a: &Posed<f64>, b: &Posed<f64>, tol: f64) -> Result<Vec<Answered>, String> {
    if !convex_as_given(a) || !convex_as_given(b) {
        return Err("a polyhedron that is not convex (parry would hold its hull)".into());
    }
    let ((ga, pa), (gb, pb)) = (build(a)?, build(b)?);
    let pos12 = pa.inv_mul(&pb);
    let mut found: Vec<ContactManifold<(), ()>> = Vec::new();
    DefaultQueryDispatcher
        .contact_manifolds(&pos12, ga.as_ref(), gb.as_ref(), tol, &mut found, &mut None)
        .map_err(unsupported)?;
    let mut points = Vec::new();
    let mut deepest = f64::INFINITY;
    for m in &found {
        let n = -(pa.rotation * m.local_n1);
        for c in &m.points {
            deepest = deepest.min(c.dist);
            if c.dist.abs() <= tol {
                let p = pa.transform_point(c.local_p1);
                points.push(([p.x, p.y, p.z], [n.x, n.y, n.z]));
            }
        }
    }
    let status = if deepest < -tol {
        "penetrating"
    } else if deepest <= tol {
        "touching"
    } else {
        "separate"
    };
    Ok(vec![Answered {
        function: "contact_manifolds".into(),
        claim: json!({ "status": status }),
        said: match points.first() {
            Some((_, n)) => format!("{status}, {} points within the tolerance, normal {n:?}", points.len()),
            None => format!("{status}, no point within the tolerance"),
        },
        extra: Extra::Manifold(points),
    }])
}
