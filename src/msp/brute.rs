//! A brute-force classifier, independent of the index: every face tested, then a ray cast.

use super::Class;
use crate::brep::{Feature, Solid};
use crate::geom::{Point3, Vector3};
use crate::predicates::{locate_in_polygon, ray_meets_plane, PolygonLocation, RayPlane};
use crate::scalar::{ratio, Decision, Scalar, Sign, Uncertain};

/// Where `p` lies on the closed face `f`, if on it: the vertex, edge or (open) face.
fn on_face<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<Option<Feature>> {
    if s.plane(f).eval_scaled(p).sign_scaled()? != Sign::Zero {
        return Ok(None);
    }
    in_face(s, f, p)
}

/// Where `p`, a point of face `f`'s plane, lies in the closed face.
fn in_face<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<Option<Feature>> {
    let face = s.face(f);
    let polygon: Vec<Point3<S>> = face.iter().map(|&v| s.vertex(v).clone()).collect();
    Ok(match locate_in_polygon(&polygon, &s.plane(f).normal, p)? {
        PolygonLocation::Vertex(i) => Some(Feature::Vertex(face[i])),
        PolygonLocation::Edge(i) => {
            let (a, b) = (face[i], face[(i + 1) % face.len()]);
            Some(Feature::Edge(a.min(b), a.max(b)))
        }
        PolygonLocation::Inside => Some(Feature::Face(f)),
        PolygonLocation::Outside => None,
    })
}

/// Classify `p` against `solid` by brute force: on the boundary when some closed face holds it
/// (with the lowest-dimensional feature), else by the parity of a ray's crossings, with rays
/// tried until one meets no edge or vertex and lies in no face's plane. Meant for exact
/// backends (the reference the index is checked against).
pub fn brute_force_classify<S: crate::scalar::Certain>(solid: &Solid<S>, p: &Point3<S>) -> Decision<Class> {
    let mut found: Option<Feature> = None;
    for f in 0..solid.face_count() {
        crate::budget::tick()?;
        if let Some(feature) = on_face(solid, f, p)? {
            let rank = |x: &Feature| match x {
                Feature::Vertex(_) => 0,
                Feature::Edge(..) => 1,
                Feature::Face(_) => 2,
            };
            if found.as_ref().is_none_or(|g| rank(&feature) < rank(g)) {
                found = Some(feature);
            }
        }
    }
    if let Some(f) = found {
        return Ok(Class::On(f));
    }
    'rays: for i in 0..64i64 {
        let d = Vector3::new(
            S::from_i64(1 + (i * 7) % 13),
            S::from_i64(2 + (i * 5) % 11) * ratio(if i % 2 == 0 { 1 } else { -1 }, 3),
            S::from_i64(3 + (i * 3) % 17) * ratio(if i % 3 == 0 { -1 } else { 1 }, 7),
        );
        let mut crossings = 0;
        for f in 0..solid.face_count() {
            crate::budget::tick()?;
            let t = match ray_meets_plane(solid.plane(f), p, &d)? {
                RayPlane::InPlane => continue 'rays,
                RayPlane::Parallel | RayPlane::NotAhead => continue,
                RayPlane::Ahead(t) => t,
            };
            let h = p + d.clone() * t;
            match in_face(solid, f, &h)? {
                None => {}
                Some(Feature::Face(_)) => crossings += 1,
                Some(_) => continue 'rays,
            }
        }
        return Ok(if crossings % 2 == 1 { Class::Inside } else { Class::Outside });
    }
    Err(Uncertain::Close)
}

/// Exact points in the relative interior of face `f`: the centroid of each triangle of an ear
/// clipping and, in each triangle, a point near each corner. None for a face the solid does
/// not have.
pub fn face_sample_points<S: Scalar>(solid: &Solid<S>, f: usize) -> Decision<Vec<Point3<S>>> {
    if f >= solid.face_count() {
        return Ok(Vec::new());
    }
    let face = solid.face(f);
    let as_decision = |e: super::MspError| match e {
        super::MspError::Uncertain(u) => u,
        super::MspError::Precision(_) => Uncertain::Close,
    };
    let turn = super::build::face_turn(solid, f).map_err(as_decision)?;
    let (triangles, _) = super::build::ear_clip(face, &turn).map_err(as_decision)?;
    let mut out = Vec::new();
    for t in triangles {
        let [a, b, c] = [t[0], t[1], t[2]].map(|v| solid.vertex(v).coords.clone());
        out.push(Point3::from((a.clone() + b.clone() + c.clone()) / S::from_i64(3)));
        for (x, y, z) in [(&a, &b, &c), (&b, &c, &a), (&c, &a, &b)] {
            out.push(Point3::from((x.clone() * S::from_i64(14) + y.clone() + z.clone()) / S::from_i64(16)));
        }
    }
    Ok(out)
}
