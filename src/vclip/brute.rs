//! The brute-force reference: exhaustive exact minimisation over feature pairs, and the status
//! by separating planes.

use super::geometry::{cmp_sign, distance_is_zero, point_face, point_segment, segment_segment_interior};
use super::{check_convex, ClosestPair, Status, VClipError};
use crate::brep::{Feature, Solid};
use crate::geom::{is_zero_vector, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};
use crate::separation::overlap_along;

type Candidate<S> = (S, Feature, Feature, Point3<S>, Point3<S>);

fn edge_feature<S: Scalar>(s: &Solid<S>, e: usize) -> Feature {
    let (u, v) = s.edges()[e];
    Feature::Edge(u, v)
}

fn swap<S: Scalar>(c: Candidate<S>) -> Candidate<S> {
    (c.0, c.2, c.1, c.4, c.3)
}

/// Every candidate pair with one feature on `a` and one on `b` whose exact distance is
/// attained in their relative interiors (or at vertices), except edge–edge and those from
/// `b`'s vertices: vertex–vertex, vertex–edge, vertex–face.
fn vertex_candidates<S: Scalar>(a: &Solid<S>, b: &Solid<S>, out: &mut Vec<Candidate<S>>) -> Decision<()> {
    for (i, p) in a.vertices().iter().enumerate() {
        for (j, q) in b.vertices().iter().enumerate() {
            out.push((crate::geom::norm2(&(p - q)), Feature::Vertex(i), Feature::Vertex(j), p.clone(), q.clone()));
        }
        for (e, &(u, v)) in b.edges().iter().enumerate() {
            let (d, c) = point_segment(p, b.vertex(u), b.vertex(v))?;
            out.push((d, Feature::Vertex(i), edge_feature(b, e), p.clone(), c));
        }
        for f in 0..b.face_count() {
            if let Some((d, c)) = point_face(b, f, p)? {
                out.push((d, Feature::Vertex(i), Feature::Face(f), p.clone(), c));
            }
        }
    }
    Ok(())
}

/// The status by the separating axis theorem for polytopes: the facets of the Minkowski
/// difference a − b have normals among the face normals of either solid and the cross
/// products of an edge of each. Some candidate separates strictly: separated; only weakly:
/// touching; none: penetrating.
fn status<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Decision<Status> {
    let mut candidates: Vec<Vector3<S>> = (0..a.face_count()).map(|f| a.plane(f).normal.clone()).collect();
    candidates.extend((0..b.face_count()).map(|f| b.plane(f).normal.clone()));
    for &(u, v) in a.edges() {
        for &(x, y) in b.edges() {
            candidates.push((a.vertex(v) - a.vertex(u)).cross(&(b.vertex(y) - b.vertex(x))));
        }
    }
    let mut best = Sign::Positive;
    for n in &candidates {
        if is_zero_vector(n)? {
            continue;
        }
        best = best.min(overlap_along(a, b, n)?);
        if best == Sign::Negative {
            break;
        }
    }
    Ok(match best {
        Sign::Negative => Status::Separated,
        Sign::Zero => Status::Touching,
        Sign::Positive => Status::Penetrating,
    })
}

/// A vertex of `inner` in the closed solid `outer` (below or on every face plane).
fn contained_vertex<S: Scalar>(inner: &Solid<S>, outer: &Solid<S>) -> Decision<Option<usize>> {
    for (i, p) in inner.vertices().iter().enumerate() {
        if outer.convex_holds(p)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// The exact distance between two convex solids by exhaustive minimisation, the reference
/// for [`vclip`](super::vclip).
///
/// Contract: `a` and `b` are convex (else [`VClipError::NotConvex`]) and in one frame. The
/// squared distance is the minimum over vertex–vertex, vertex–edge, vertex–face (projection
/// inside the face) and edge–edge (interior closest points of non-parallel edges) pairs, each
/// exact; every other pair attains its minimum at one of these. The status comes from
/// separating planes (see [`Status`]): for touching solids the distance is 0 and the points
/// are a common point; for penetrating ones the distance is 0 and the features are a pair at
/// distance 0, or a vertex of one solid inside the other with a face of that other solid.
/// Cost: O(V·(V + E + F) + E² + (F + E²)·V).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cube;
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::vclip::{brute_force_distance, Status};
/// let q = |x: i64| BigRational::from_integer(x.into());
/// let b = cube::<BigRational>().transformed(&Affine::translation(Vector3::new(q(5), q(0), q(0)))).unwrap();
/// let d = brute_force_distance(&cube(), &b).unwrap();
/// assert_eq!((d.status, d.squared_distance), (Status::Separated, q(9)));
/// ```
pub fn brute_force_distance<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Result<ClosestPair<S>, VClipError> {
    check_convex(a, b)?;
    let mut cands: Vec<Candidate<S>> = Vec::new();
    vertex_candidates(a, b, &mut cands)?;
    let mut rev = Vec::new();
    vertex_candidates(b, a, &mut rev)?;
    cands.extend(rev.into_iter().map(swap));
    for (i, &(u, v)) in a.edges().iter().enumerate() {
        for (j, &(x, y)) in b.edges().iter().enumerate() {
            if let Some((d, p, q)) = segment_segment_interior(a.vertex(u), a.vertex(v), b.vertex(x), b.vertex(y))? {
                cands.push((d, edge_feature(a, i), edge_feature(b, j), p, q));
            }
        }
    }
    let mut best = cands.swap_remove(0);
    for c in cands {
        if cmp_sign(&c.0, &best.0, c.0.abs(), best.0.abs())? == Sign::Negative {
            best = c;
        }
    }
    let status = status(a, b)?;
    let zero = distance_is_zero(&best.0, &best.3, &best.4)?;
    if status != Status::Separated && !zero {
        // One solid inside the other: no boundary pair meets.
        if let Some(v) = contained_vertex(b, a)? {
            let p = b.vertex(v).clone();
            best = (S::zero(), Feature::Face(0), Feature::Vertex(v), p.clone(), p);
        } else if let Some(v) = contained_vertex(a, b)? {
            let p = a.vertex(v).clone();
            best = (S::zero(), Feature::Vertex(v), Feature::Face(0), p.clone(), p);
        }
    }
    let squared_distance = if status == Status::Separated { best.0 } else { S::zero() };
    Ok(ClosestPair { status, squared_distance, features: (best.1, best.2), points: (best.3, best.4) })
}

/// The squared distance from a point to a convex solid (0 inside or on it), exactly for exact
/// backends: the minimum over its faces (foot of the perpendicular inside the face), edges and
/// vertices, by the same point–face and point–segment routines as the rest of this module.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cube;
/// use touchstone::geom::point;
/// use touchstone::vclip::point_squared_distance;
/// let q = |x: i64| BigRational::from_integer(x.into());
/// // The cube [-1, 1]³: (3, 0, 0) is 2 from a face, (2, 2, 2) is √3 from a corner.
/// let c = cube::<BigRational>();
/// assert_eq!(point_squared_distance(&c, &point(3, 0, 0)).unwrap(), q(4));
/// assert_eq!(point_squared_distance(&c, &point(2, 2, 2)).unwrap(), q(3));
/// assert_eq!(point_squared_distance(&c, &point(0, 1, 0)).unwrap(), q(0));
/// ```
pub fn point_squared_distance<S: Scalar>(s: &Solid<S>, p: &Point3<S>) -> Result<S, VClipError> {
    if !s.is_convex()? {
        return Err(VClipError::NotConvex { solid: 0 });
    }
    if s.convex_holds(p)? {
        return Ok(S::zero());
    }
    Ok(s.boundary_squared_distance(p)?)
}
