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
use crate::predicates::{dot_sign, orient3d, Orientation, ParameterLocation};
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
            if crate::geom::is_zero_vector(&c)? && dot_sign(&m[i], &m[j])? == Sign::Negative {
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
                            [dot_sign(&nn, &a.cross(b))?, dot_sign(&nn, &b.cross(cc))?, dot_sign(&nn, &cc.cross(a))?];
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

/// A direction strictly inside the open cone {d : m · d > 0 for every m}, or `None` when it is
/// empty: the first of the candidates that passes, which are the projections of the origin onto
/// the affine hulls of one, two or three of the vectors (inside their simplex). The point of
/// the vectors' convex hull nearest the origin is among them, and when the cone is nonempty
/// it passes (m · d ≥ |d|² > 0 for every m, the projection's optimality).
pub(crate) fn interior_direction<S: Scalar>(m: &[Vector3<S>]) -> Decision<Option<Vector3<S>>> {
    let passes = |d: &Vector3<S>| -> Decision<bool> {
        for r in m {
            if dot_sign(r, d)? != Sign::Positive {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let n = m.len();
    for r in m {
        if passes(r)? {
            return Ok(Some(r.clone()));
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            crate::budget::tick()?;
            let u: Vector3<S> = &m[j] - &m[i];
            if crate::geom::is_zero_vector(&u)? {
                continue;
            }
            let t = -m[i].dot(&u) / u.dot(&u);
            if crate::predicates::locate_parameter(&t)? != ParameterLocation::Inside {
                continue;
            }
            let d = &m[i] + &u * t;
            if passes(&d)? {
                return Ok(Some(d));
            }
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                crate::budget::tick()?;
                let (u, w): (Vector3<S>, Vector3<S>) = (&m[j] - &m[i], &m[k] - &m[i]);
                let (uu, uw, ww) = (u.dot(&u), u.dot(&w), w.dot(&w));
                // The Gram determinant |u|²|w|² − (u·w)² = |u × w|²: zero exactly when u ∥ w.
                if crate::predicates::parallel(&u, &w)? {
                    continue;
                }
                let det = uu.clone() * ww.clone() - uw.clone() * uw.clone();
                let (bu, bw) = (-m[i].dot(&u), -m[i].dot(&w));
                let s = (bu.clone() * ww - bw.clone() * uw.clone()) / det.clone();
                let t = (uu * bw - uw * bu) / det;
                if !crate::predicates::strictly_inside_triangle(&s, &t)? {
                    continue;
                }
                let d = &m[i] + &u * s + &w * t;
                if passes(&d)? {
                    return Ok(Some(d));
                }
            }
        }
    }
    Ok(None)
}

/// The interior directions of `s` at vertex `v` (convex or not) as a union of open convex
/// cones: the cells of the arrangement of the planes of its faces (all through the vertex)
/// whose directions point inside, decided on a direction strictly inside each cell by `index`
/// ([`crate::msp::MspTree::classify_direction`]). The cells' common walls are left out: a set
/// of measure zero, which the regularized operations of Definition 2 do not see.
pub(crate) fn vertex_cells<S: Scalar>(
    s: &Solid<S>,
    v: usize,
    index: &crate::msp::MspTree<S>,
) -> Decision<Directions<S>> {
    let mut planes: Vec<Vector3<S>> = Vec::new();
    for f in s.vertex_faces(v) {
        let n = s.plane(f).normal.clone();
        let mut new = true;
        for m in &planes {
            if crate::predicates::parallel(&n, m)? {
                new = false;
                break;
            }
        }
        if new {
            planes.push(n);
        }
    }
    let k = planes.len();
    let mut out = Vec::new();
    for signs in 0u32..(1u32 << k) {
        crate::budget::tick()?;
        let rows: Vec<Vector3<S>> =
            (0..k).map(|i| if signs & (1 << i) != 0 { -planes[i].clone() } else { planes[i].clone() }).collect();
        let Some(d) = interior_direction(&rows)? else { continue };
        if index.classify_direction(s.vertex(v), &d)? == crate::msp::Class::Inside {
            out.push(rows);
        }
    }
    Ok(out)
}

/// The directions into the interior of `s` from a point in the relative interior of `x`. At a
/// vertex that is not convex they come from its cells ([`vertex_cells`]) through `index`;
/// without one, `None` (callers keep what depends on it).
pub(crate) fn interior<S: Scalar>(
    s: &Solid<S>,
    x: &Feature,
    index: Option<&crate::msp::MspTree<S>>,
) -> Decision<Option<Directions<S>>> {
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
                return match index {
                    Some(index) => Ok(Some(vertex_cells(s, *v, index)?)),
                    None => Ok(None),
                };
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
