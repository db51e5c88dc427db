//! Local cones of a solid at its entities, as unions of open polyhedral cones, and their
//! emptiness decided exactly: the tool of Definition 2 (Bouma and Vaněček 1992), which asks
//! whether anything of a solid is left near a region once the half-spaces of the regions
//! around it are taken away.
//!
//! A set of directions is written as a union of conjunctions of strict inequalities
//! `m · d > 0`. A conjunction is nonempty exactly when 0 is not in the convex hull of its
//! vectors (Gordan's alternative), and by Carathéodory's theorem that is decided on subsets of
//! at most four of them: a zero vector, two opposite ones, three coplanar ones around the
//! origin, or four around it.

use crate::brep::{Convexity, Feature, Solid};
use crate::geom::{Point3, Vector3};
use crate::predicates::{orient3d, Orientation};
use crate::scalar::{Decision, Scalar, Sign};

/// A union of open cones, each `{d : m · d > 0 for every m}`.
pub(crate) type Directions<S> = Vec<Vec<Vector3<S>>>;

/// The intersection of two unions of cones.
pub(crate) fn and<S: Scalar>(x: &Directions<S>, y: &Directions<S>) -> Directions<S> {
    let mut out = Vec::with_capacity(x.len() * y.len());
    for a in x {
        for b in y {
            out.push(a.iter().chain(b.iter()).cloned().collect());
        }
    }
    out
}

/// Whether the union holds some direction.
pub(crate) fn nonempty<S: Scalar>(x: &Directions<S>) -> Decision<bool> {
    for c in x {
        crate::budget::tick()?;
        if !zero_in_hull(c)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether 0 lies in the convex hull of the vectors.
fn zero_in_hull<S: Scalar>(m: &[Vector3<S>]) -> Decision<bool> {
    let origin = Point3::from(Vector3::from_element(S::zero()));
    let pt = |v: &Vector3<S>| Point3::from(v.clone());
    let n = m.len();
    for i in 0..n {
        if crate::geom::is_zero_vector(&m[i])? {
            return Ok(true);
        }
        for j in i + 1..n {
            let c = m[i].cross(&m[j]);
            if crate::geom::is_zero_vector(&c)? && m[i].dot(&m[j]).sign()? == Sign::Negative {
                return Ok(true);
            }
            for k in j + 1..n {
                let (a, b, cc) = (&m[i], &m[j], &m[k]);
                let o = orient3d(&origin, &pt(a), &pt(b), &pt(cc))?;
                if o == Orientation::Coplanar {
                    // In their common plane: around the origin when the three turns agree.
                    let normal = [a.cross(b), b.cross(cc), cc.cross(a)]
                        .into_iter()
                        .find(|v| !crate::geom::is_zero_vector(v).unwrap_or(true));
                    if let Some(nn) = normal {
                        let s =
                            [nn.dot(&a.cross(b)).sign()?, nn.dot(&b.cross(cc)).sign()?, nn.dot(&cc.cross(a)).sign()?];
                        if s.iter().all(|x| *x != Sign::Negative) || s.iter().all(|x| *x != Sign::Positive) {
                            return Ok(true);
                        }
                    }
                    continue;
                }
                for d in &m[k + 1..] {
                    let s = orient3d(&pt(a), &pt(b), &pt(cc), &pt(d))?;
                    if s == Orientation::Coplanar {
                        continue;
                    }
                    let sides = [
                        orient3d(&origin, &pt(b), &pt(cc), &pt(d))?,
                        orient3d(&pt(a), &origin, &pt(cc), &pt(d))?,
                        orient3d(&pt(a), &pt(b), &origin, &pt(d))?,
                        orient3d(&pt(a), &pt(b), &pt(cc), &origin)?,
                    ];
                    if sides.iter().all(|x| *x == s || *x == Orientation::Coplanar) {
                        return Ok(true);
                    }
                }
            }
        }
    }
    Ok(false)
}

/// Whether edge `e` (by its ends) of `s` is reflex.
pub(crate) fn reflex<S: Scalar>(s: &Solid<S>, (u, v): (usize, usize)) -> Decision<bool> {
    let e = s.edge_index(u, v).ok_or(crate::scalar::Uncertain::Close)?;
    Ok(s.edge_convexity(e)? == Convexity::Reflex)
}

/// The two faces of edge (u, v).
pub(crate) fn edge_faces<S: Scalar>(s: &Solid<S>, (u, v): (usize, usize)) -> Decision<(usize, usize)> {
    let e = s.edge_index(u, v).ok_or(crate::scalar::Uncertain::Close)?;
    Ok(s.edge_faces(e))
}

/// Whether vertex `v` of `s` is convex: every edge at it convex or flat (a closed cone whose
/// dihedral angles are all convex is convex).
pub(crate) fn convex_vertex<S: Scalar>(s: &Solid<S>, v: usize) -> Decision<bool> {
    for e in s.vertex_edges(v) {
        if s.edge_convexity(e)? == Convexity::Reflex {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether entity `x` of `s` has a convex neighbourhood (a face; a convex or flat edge; a convex
/// vertex).
pub(crate) fn convex_neighbourhood<S: Scalar>(s: &Solid<S>, x: &Feature) -> Decision<bool> {
    match x {
        Feature::Face(_) => Ok(true),
        Feature::Edge(u, v) => Ok(!reflex(s, (*u, *v))?),
        Feature::Vertex(v) => convex_vertex(s, *v),
    }
}

/// The directions into the interior of `s` from a point in the relative interior of `x`:
/// `None` at a vertex that is not convex (not built; callers keep what depends on it).
pub(crate) fn interior<S: Scalar>(s: &Solid<S>, x: &Feature) -> Decision<Option<Directions<S>>> {
    let inward = |f: usize| -s.plane(f).normal.clone();
    Ok(Some(match x {
        Feature::Face(f) => vec![vec![inward(*f)]],
        Feature::Edge(u, v) => {
            let (f1, f2) = edge_faces(s, (*u, *v))?;
            if reflex(s, (*u, *v))? {
                vec![vec![inward(f1)], vec![inward(f2)]]
            } else {
                vec![vec![inward(f1), inward(f2)]]
            }
        }
        Feature::Vertex(v) => {
            if !convex_vertex(s, *v)? {
                return Ok(None);
            }
            vec![s.vertex_faces(*v).into_iter().map(inward).collect()]
        }
    }))
}

/// The directions strictly outside H(r') for an adjacent region whose entity of `s` is `x`
/// (Definition 1): above a face's plane (h₀); above one of a convex edge's two planes
/// (outside h₁ ∩ h₂); above both of a reflex edge's (outside h₁ ∪ h₂). `None` for a vertex,
/// which no region of dimension one or two has.
pub(crate) fn outside<S: Scalar>(s: &Solid<S>, x: &Feature) -> Decision<Option<Directions<S>>> {
    let out = |f: usize| s.plane(f).normal.clone();
    Ok(match x {
        Feature::Face(f) => Some(vec![vec![out(*f)]]),
        Feature::Edge(u, v) => {
            let (f1, f2) = edge_faces(s, (*u, *v))?;
            Some(if reflex(s, (*u, *v))? { vec![vec![out(f1), out(f2)]] } else { vec![vec![out(f1)], vec![out(f2)]] })
        }
        Feature::Vertex(_) => None,
    })
}
