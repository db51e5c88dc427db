//! Exact helpers shared by the brute force and V-Clip: signs of dot products, closest points
//! of segments and faces, and the touching/penetrating decision at a common point.

use super::voronoi::Feat;
use super::Status;
use crate::brep::Solid;
use crate::geom::{dot_magnitude, is_zero_vector, norm2, Point3, Vector3};
use crate::predicates::Least;
use crate::scalar::{Decision, Scalar, Sign};

/// A squared distance with a closest point on each of two features.
pub(crate) type PointPair<S> = (S, Point3<S>, Point3<S>);

/// Whether the squared distance `d` = |p − q|² is zero, decided against its magnitude
/// Σ(|pᵢ| + |qᵢ|)².
pub(crate) fn distance_is_zero<S: Scalar>(d: &S, p: &Point3<S>, q: &Point3<S>) -> Decision<bool> {
    let m = || {
        p.coords.iter().zip(q.coords.iter()).fold(S::zero(), |acc, (x, y)| {
            let s = x.abs() + y.abs();
            acc + s.clone() * s
        })
    };
    Ok(d.sign_scaled(m)? == Sign::Zero)
}

pub(crate) use crate::predicates::{cmp_sign, dot_sign};

/// The point p + λ·u.
pub(crate) fn along<S: Scalar>(p: &Point3<S>, u: &Vector3<S>, lambda: &S) -> Point3<S> {
    p + u * lambda.clone()
}

/// The squared distance from `p` to the segment ab and the closest point on it.
pub(crate) fn point_segment<S: Scalar>(p: &Point3<S>, a: &Point3<S>, b: &Point3<S>) -> Decision<(S, Point3<S>)> {
    let (d2, t) = crate::constructions::squared_distance_point_segment(p, a, b)?;
    let u: Vector3<S> = b - a;
    Ok((d2, along(a, &u, &t)))
}

/// The closest points of the lines of two non-parallel segments when both fall inside the
/// segments: (squared distance, point on the first, point on the second). `None` when the
/// segments are parallel (or degenerate) or the line minimum is outside either segment (the
/// minimum is then at an endpoint).
pub(crate) fn segment_segment_interior<S: Scalar>(
    p1: &Point3<S>,
    q1: &Point3<S>,
    p2: &Point3<S>,
    q2: &Point3<S>,
) -> Decision<Option<PointPair<S>>> {
    let (d1, d2, r): (Vector3<S>, Vector3<S>, Vector3<S>) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, b) = (norm2(&d1), norm2(&d2), d1.dot(&d2));
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let denom = a.clone() * e.clone() - b.clone() * b.clone();
    // The magnitudes are only read by a backend that decides against them (certain backends
    // decide on the values alone), so they are computed on demand, in the same order.
    let dm = || a.clone() * e.clone() + b.clone() * b.clone();
    if denom.sign_scaled(dm)? != Sign::Positive {
        return Ok(None);
    }
    let sn = b.clone() * f.clone() - c.clone() * e.clone();
    let tn = a.clone() * f.clone() - b.clone() * c.clone();
    let sm = || b.abs() * f.abs() + c.abs() * e.abs();
    let tm = || a.abs() * f.abs() + b.abs() * c.abs();
    // 0 ≤ n ≤ denom, the second as `cmp_sign` decides it (the same magnitude, m + dm + |n| +
    // |denom|).
    let inside = |n: &S, m: &dyn Fn() -> S| -> Decision<bool> {
        Ok(n.sign_scaled(m)? != Sign::Negative
            && (n.clone() - denom.clone()).sign_scaled(|| m() + dm() + n.abs() + denom.abs())? != Sign::Positive)
    };
    if !inside(&sn, &sm)? || !inside(&tn, &tm)? {
        return Ok(None);
    }
    let (s, t) = (sn / denom.clone(), tn / denom);
    let (x, y) = (along(p1, &d1, &s), along(p2, &d2, &t));
    Ok(Some((norm2(&(&x - &y)), x, y)))
}

/// The exact closest points of two closed segments, every parallel and degenerate case
/// included: (squared distance, point on the first, point on the second).
pub(crate) fn segment_segment<S: Scalar>(
    p1: &Point3<S>,
    q1: &Point3<S>,
    p2: &Point3<S>,
    q2: &Point3<S>,
) -> Decision<PointPair<S>> {
    if let Some(hit) = segment_segment_interior(p1, q1, p2, q2)? {
        return Ok(hit);
    }
    let mut least = Least::new();
    for p in [p1, q1] {
        let (d, c) = point_segment(p, p2, q2)?;
        least.offer(d, (p.clone(), c))?;
    }
    for p in [p2, q2] {
        let (d, c) = point_segment(p, p1, q1)?;
        least.offer(d, (c, p.clone()))?;
    }
    let (d, (x, y)) = least.into_best().expect("four candidates were offered");
    Ok((d, x, y))
}

/// Whether `p` lies in the closed prism over face `f` of `s` (its projection onto the face
/// plane is in the face): (p − a)·(n × (b − a)) ≥ 0 for every boundary half-edge a → b,
/// decided against Σ|n × (b − a)|ᵢ(|pᵢ| + |aᵢ|).
pub(crate) fn in_face_prism<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<bool> {
    let n = &s.plane(f).normal;
    let face = s.face(f);
    for k in 0..face.len() {
        let (a, b) = (s.vertex(face[k]), s.vertex(face[(k + 1) % face.len()]));
        let inward = n.cross(&(b - a));
        // Magnitude on the terms p and a: p may be a computed point (a crossing).
        let m = || dot_magnitude(&inward, &p.coords) + dot_magnitude(&inward, &a.coords);
        if (p - a).dot(&inward).sign_scaled(m)? == Sign::Negative {
            return Ok(false);
        }
    }
    Ok(true)
}

/// When the projection of `p` onto face `f` lies in the face: the squared distance and the
/// projection.
pub(crate) fn point_face<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<Option<(S, Point3<S>)>> {
    if !in_face_prism(s, f, p)? {
        return Ok(None);
    }
    Ok(Some(crate::constructions::plane_foot(p, s.plane(f))))
}

/// Whether two convex solids with the common boundary point `p` only touch (a plane through
/// `p` separates them weakly) or penetrate. The candidate planes are those of the Minkowski
/// difference's facets through the origin: normals of the faces through `p` of either solid
/// and cross products of an edge through `p` of each.
///
/// `on` names a feature of each solid that `p` lies on by construction (the crossing edge and
/// face of a penetration, the features of a zero distance): the faces through that feature are
/// known to hold `p` and are not tested (the test would decide that a constructed value is
/// exactly zero, certain in exact arithmetic and never decidable on intervals).
pub(crate) fn contact_status<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    p: &Point3<S>,
    on: (Option<Feat>, Option<Feat>),
) -> Decision<Status> {
    let faces_at = |s: &Solid<S>, on: Option<Feat>| -> Decision<Vec<usize>> {
        let known: Vec<usize> = match on {
            None => Vec::new(),
            Some(Feat::V(v)) => s.vertex_faces(v),
            Some(Feat::E(e)) => {
                let (f, g) = s.edge_faces(e);
                vec![f, g]
            }
            Some(Feat::F(f)) => vec![f],
        };
        let mut out = Vec::new();
        for f in 0..s.face_count() {
            if known.contains(&f) {
                out.push(f);
                continue;
            }
            let pl = s.plane(f);
            if pl.eval(p).sign_scaled(|| pl.eval_magnitude(p))? == Sign::Zero {
                out.push(f);
            }
        }
        Ok(out)
    };
    let (fa, fb) = (faces_at(a, on.0)?, faces_at(b, on.1)?);
    let edges_at = |s: &Solid<S>, fs: &[usize]| -> Vec<Vector3<S>> {
        (0..s.edge_count())
            .filter(|&e| {
                let (f, g) = s.edge_faces(e);
                fs.contains(&f) && fs.contains(&g)
            })
            .map(|e| {
                let (u, v) = s.edges()[e];
                s.vertex(v) - s.vertex(u)
            })
            .collect()
    };
    let (ea, eb) = (edges_at(a, &fa), edges_at(b, &fb));
    let mut candidates: Vec<Vector3<S>> = fa.iter().map(|&f| a.plane(f).normal.clone()).collect();
    candidates.extend(fb.iter().map(|&f| b.plane(f).normal.clone()));
    for u in &ea {
        for v in &eb {
            candidates.push(u.cross(v));
        }
    }
    for n in &candidates {
        if is_zero_vector(n)? {
            continue;
        }
        if crate::separation::overlap_along(a, b, n)? != Sign::Positive {
            return Ok(Status::Touching);
        }
    }
    Ok(Status::Penetrating)
}
