//! The V-Clip states V-V, V-E, E-E, V-F, E-F and their transitions. Each handler sees the
//! features of two solids `p` (first) and `q` (second) in the order of its name and says
//! which feature to update, or stops.

use super::clip::{at, clip_edge, update_after_clip, Exclusion};
use super::geometry::{cmp_sign, dot_sign};
use super::voronoi::{edge_ends, edge_face_planes, edge_planes, edge_vertex_planes, face_planes, vertex_planes, Feat};
use crate::brep::Solid;
use crate::geom::{norm2, Point3, Vector3};
use crate::predicates::ParameterLocation;
use crate::scalar::{Decision, Scalar, Sign};

/// What a state handler decided.
#[derive(Clone, Debug)]
pub(crate) enum Step<S: Scalar> {
    /// Replace the first feature.
    First(Feat),
    /// Replace the second feature.
    Second(Feat),
    /// The features satisfy Theorem 1: closest.
    Done,
    /// The edge (first) crosses the face (second) at this point, or a vertex (first) is
    /// strictly inside the second solid.
    Penetration(Point3<S>),
}

fn flip<S: Scalar>(s: Step<S>) -> Step<S> {
    match s {
        Step::First(f) => Step::Second(f),
        Step::Second(f) => Step::First(f),
        other => other,
    }
}

fn violated<S: Scalar>(planes: &[super::voronoi::VPlane<S>], x: &Point3<S>) -> Decision<Option<Feat>> {
    for pl in planes {
        if pl.sign(x)? == Sign::Negative {
            return Ok(Some(pl.neighbor));
        }
    }
    Ok(None)
}

/// The edge to leave a face by when `x` violates some of its face-edge planes: of the
/// violated ones, the edge nearest to `x` (squared distances compared exactly). It holds the
/// face's point closest to `x` (outside the face's prism that point is on the boundary, and a
/// boundary point on an edge whose plane `x` does not violate is no nearer than one on an
/// edge whose plane it does), so the update keeps the inter-feature distance, as V-Clip's
/// termination argument needs. The first violated plane instead could be a far edge of a
/// long thin face, and an exact V-Clip cycled on such a parallelepiped (distance 76 → 820 →
/// … → 76; found by the scaled differential test, regression in tests/vclip.rs).
fn nearest_violated_edge<S: Scalar>(planes: &[super::voronoi::VPlane<S>], x: &Point3<S>) -> Decision<Option<Feat>> {
    // The best edge, its squared distance and, when its closest point is one of its ends, the
    // index of that corner: two violated edges whose closest points are the corner they share
    // (x beyond a corner of the face, the common case) tie exactly, which an interval backend
    // could not decide from the two constructed distances.
    let mut best: Option<(Feat, S, Option<usize>)> = None;
    let n = planes.len();
    for (k, pl) in planes.iter().enumerate() {
        if pl.sign(x)? != Sign::Negative {
            continue;
        }
        // The planes go around the face: plane k's edge runs from its point to the next's.
        let (a, b) = (&pl.point, &planes[(k + 1) % n].point);
        let (d2, t) = crate::constructions::squared_distance_point_segment(x, a, b)?;
        let corner = match crate::predicates::locate_parameter(&t) {
            Ok(ParameterLocation::Start) => Some(k),
            Ok(ParameterLocation::End) => Some((k + 1) % n),
            _ => None,
        };
        let nearer = match &best {
            None => true,
            Some((_, _, Some(c))) if corner == Some(*c) => false,
            Some((_, d, _)) => cmp_sign(&d2, d, d2.abs(), d.abs())? == Sign::Negative,
        };
        if nearer {
            best = Some((pl.neighbor, d2, corner));
        }
    }
    Ok(best.map(|(n, _, _)| n))
}

fn vv<S: Scalar>(p: &Solid<S>, v1: usize, q: &Solid<S>, v2: usize) -> Decision<Step<S>> {
    if let Some(n) = violated(&vertex_planes(p, v1), q.vertex(v2))? {
        return Ok(Step::First(n));
    }
    if let Some(n) = violated(&vertex_planes(q, v2), p.vertex(v1))? {
        return Ok(Step::Second(n));
    }
    Ok(Step::Done)
}

fn ve<S: Scalar>(p: &Solid<S>, v: usize, q: &Solid<S>, e: usize) -> Decision<Step<S>> {
    let x = p.vertex(v);
    if let Some(n) = violated(&edge_vertex_planes(q, e), x)? {
        return Ok(Step::Second(n));
    }
    if let Some(n) = violated(&edge_face_planes(q, e), x)? {
        return Ok(Step::Second(n));
    }
    let (t, h) = edge_ends(q, e);
    let (t, h) = (q.vertex(t), q.vertex(h));
    let c = clip_edge(t, h, &vertex_planes(p, v))?;
    Ok(match update_after_clip(p, Feat::V(v), t, h, &c)? {
        Some(n) => Step::First(n),
        None => Step::Done,
    })
}

/// Clip edge `e2` of `q` against VR(edge `e1` of `p`): vertex–edge planes first, then all.
fn ee_half<S: Scalar>(p: &Solid<S>, e1: usize, q: &Solid<S>, e2: usize) -> Decision<Option<Feat>> {
    let (t, h) = edge_ends(q, e2);
    let (t, h) = (q.vertex(t), q.vertex(h));
    let c = clip_edge(t, h, &edge_vertex_planes(p, e1))?;
    if let Some(n) = update_after_clip(p, Feat::E(e1), t, h, &c)? {
        return Ok(Some(n));
    }
    let c = clip_edge(t, h, &edge_planes(p, e1))?;
    update_after_clip(p, Feat::E(e1), t, h, &c)
}

fn ee<S: Scalar>(p: &Solid<S>, e1: usize, q: &Solid<S>, e2: usize) -> Decision<Step<S>> {
    if let Some(n) = ee_half(p, e1, q, e2)? {
        return Ok(Step::First(n));
    }
    if let Some(n) = ee_half(q, e2, p, e1)? {
        return Ok(Step::Second(n));
    }
    Ok(Step::Done)
}

fn vf<S: Scalar>(p: &Solid<S>, v: usize, q: &Solid<S>, f: usize) -> Decision<Step<S>> {
    let x = p.vertex(v);
    if let Some(n) = nearest_violated_edge(&face_planes(q, f), x)? {
        return Ok(Step::Second(n));
    }
    let plane = q.plane(f);
    let side = plane.eval(x).sign_scaled(|| plane.eval_magnitude(x))?;
    // Move along an edge of v that approaches the face's plane (D' < 0 at v).
    if side != Sign::Zero {
        for e in p.vertex_edges(v) {
            let (a, b) = edge_ends(p, e);
            let w = if a == v { b } else { a };
            let u: Vector3<S> = p.vertex(w) - x;
            if side * dot_sign(&u, &plane.normal)? == Sign::Negative {
                return Ok(Step::First(Feat::E(e)));
            }
        }
    }
    if side != Sign::Negative {
        return Ok(Step::Done);
    }
    local_minimum(x, q)
}

/// V-F with the vertex below the face's plane and no edge descending towards it: the vertex
/// is inside `q` (penetration) or the face whose plane it is farthest above (distances
/// compared as D²/|n|², exactly) is the new face.
fn local_minimum<S: Scalar>(x: &Point3<S>, q: &Solid<S>) -> Decision<Step<S>> {
    let mut best: Option<(usize, S, S)> = None; // face, D, |n|²
    for g in 0..q.face_count() {
        let plane = q.plane(g);
        let d = plane.eval(x);
        if d.sign_scaled(|| plane.eval_magnitude(x))? == Sign::Negative {
            continue;
        }
        let n2 = norm2(&plane.normal);
        let better = match &best {
            None => true,
            Some((_, bd, bn2)) => {
                let (l, r) = (d.clone() * d.clone() * bn2.clone(), bd.clone() * bd.clone() * n2.clone());
                cmp_sign(&l, &r, l.abs(), r.abs())? == Sign::Positive
            }
        };
        if better {
            best = Some((g, d, n2));
        }
    }
    Ok(match best {
        Some((g, _, _)) => Step::Second(Feat::F(g)),
        None => Step::Penetration(x.clone()),
    })
}

fn ef<S: Scalar>(p: &Solid<S>, e: usize, q: &Solid<S>, f: usize) -> Decision<Step<S>> {
    let (ti, hi) = edge_ends(p, e);
    let (t, h) = (p.vertex(ti), p.vertex(hi));
    let c = clip_edge(t, h, &face_planes(q, f))?;
    match c.exclusion {
        Exclusion::Simple(n) => return Ok(Step::Second(n)),
        Exclusion::Compound => {
            // The closest edge of the face by the derivative at λ_lo, as after V-E clipping.
            return Ok(match update_after_clip(q, Feat::F(f), t, h, &c)? {
                Some(n) => Step::Second(n),
                None => Step::Second(c.n_lo.unwrap_or(Feat::F(f))),
            });
        }
        Exclusion::None => {}
    }
    let plane = q.plane(f);
    let (plo, phi) = (at(t, h, &c.lo), at(t, h, &c.hi));
    let (dlo, dhi) = (plane.eval(&plo), plane.eval(&phi));
    let slo = dlo.sign_scaled(|| plane.eval_magnitude(&plo))?;
    let shi = dhi.sign_scaled(|| plane.eval_magnitude(&phi))?;
    if slo * shi != Sign::Positive {
        let cross = if slo == Sign::Zero {
            plo
        } else if shi == Sign::Zero {
            phi
        } else {
            let k = dlo.clone() / (dlo - dhi);
            let v: Vector3<S> = &phi - &plo;
            &plo + v * k
        };
        return Ok(Step::Penetration(cross));
    }
    let u: Vector3<S> = h - t;
    if slo * dot_sign(&u, &plane.normal)? != Sign::Negative {
        Ok(match c.n_lo {
            Some(n) => Step::Second(n),
            None => Step::First(Feat::V(ti)),
        })
    } else {
        Ok(match c.n_hi {
            Some(n) => Step::Second(n),
            None => Step::First(Feat::V(hi)),
        })
    }
}

/// One step of V-Clip from the features (`x` of `a`, `y` of `b`).
pub(crate) fn step<S: Scalar>(a: &Solid<S>, x: Feat, b: &Solid<S>, y: Feat) -> Decision<Step<S>> {
    use Feat::{E, F, V};
    match (x, y) {
        (V(v1), V(v2)) => vv(a, v1, b, v2),
        (V(v), E(e)) => ve(a, v, b, e),
        (E(e), V(v)) => ve(b, v, a, e).map(flip),
        (E(e1), E(e2)) => ee(a, e1, b, e2),
        (V(v), F(f)) => vf(a, v, b, f),
        (F(f), V(v)) => vf(b, v, a, f).map(flip),
        (E(e), F(f)) => ef(a, e, b, f),
        (F(f), E(e)) => ef(b, e, a, f).map(flip),
        // Face-face is no state: start from a vertex of the first face instead.
        (F(f), F(_)) => Ok(Step::First(V(a.face(f)[0]))),
    }
}
