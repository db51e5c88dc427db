//! Separating axes of two convex polytopes: the face normals of each and the cross products
//! of an edge of one with an edge of the other (the facet normals of their Minkowski
//! difference are among these), the projections of a solid on an axis, and what is built on
//! them: whether an axis separates ([`overlap_along`], V-Clip's and Lin–Canny's penetration
//! test), the exact penetration depth ([`depth`]) and the linear time of impact ([`linear`]).
//!
//! The box sweep's separating axes (`sweep/sat.rs`) are the same axes of two parallelepipeds
//! with polynomial entries in t; they stay with the sweep.

pub mod depth;
pub mod linear;

use crate::brep::{Feature, Solid};
use crate::geom::{cross_magnitude, dot, dot_magnitude, Vector3};
use crate::predicates::cmp_sign;
use crate::predicates::zero_vector_scaled;
use crate::scalar::{Decision, Scalar, Sign, Uncertain};

pub use depth::{penetration_depth, separation_along};
pub use linear::{first_contact, LinearContact};

/// An axis of the separating-axis test: face `f` of shape `s` (0: a, 1: b), or the cross
/// product of edge `i` of a with edge `j` of b (indices into [`Solid::edges`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Face `f` of shape `s` (0: a, 1: b).
    Face(u8, usize),
    /// The cross product of edge `i` of a with edge `j` of b.
    Edges(usize, usize),
}

/// Which separating axes of a solid repeat an earlier one. Parallel faces (a box's opposite
/// faces) give the same axis up to its sign, and so do the cross products of parallel edges
/// with any edge of the other shape; along such a repeat every projection is the earlier
/// axis's scaled by one factor, so the overlap (and its window in time) is the same, and the
/// separating-axis loops skip it. Each class's representative is its first member, so the
/// first axis reaching a tie is still the one taken. Parallelism is invariant under a pose (an
/// invertible affine map), so it is found once on the shape as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parallels {
    /// The first face parallel to each face (itself when none is earlier); empty: none known.
    faces: Vec<usize>,
    /// The first edge parallel to each edge, likewise.
    edges: Vec<usize>,
}

impl Parallels {
    /// No repeats known: every axis is taken.
    pub fn none() -> Self {
        Self::default()
    }

    /// The classes of `s`'s face normals and edge directions, each pair decided on `S` (a pair
    /// that cannot be decided is taken as two classes: a repeated axis costs time, never the
    /// answer). Quadratic in the counts: for small solids (a box, say).
    pub fn of<S: Scalar>(s: &Solid<S>) -> Self {
        let classes = |count: usize, axis: &dyn Fn(usize) -> (Vector3<S>, Vector3<S>)| -> Vec<usize> {
            let axes: Vec<_> = (0..count).map(axis).collect();
            (0..count)
                .map(|i| {
                    let (n, m) = &axes[i];
                    (0..i)
                        .find(|&j| {
                            let (nj, mj) = &axes[j];
                            zero_vector_scaled(&n.cross(nj), &cross_magnitude(m, mj)) == Ok(true)
                        })
                        .unwrap_or(i)
                })
                .collect()
        };
        Parallels {
            faces: classes(s.face_count(), &|f| face_axis(s, f)),
            edges: classes(s.edges().len(), &|e| edge_direction(s, &s.edges()[e])),
        }
    }

    /// Whether face `f`'s axis repeats an earlier face's.
    pub fn face_repeats(&self, f: usize) -> bool {
        self.faces.get(f).is_some_and(|&r| r != f)
    }

    /// Whether edge `e`'s direction repeats an earlier edge's.
    pub fn edge_repeats(&self, e: usize) -> bool {
        self.edges.get(e).is_some_and(|&r| r != e)
    }
}

/// The range of `s`'s projection on `n`: the least and the greatest n·x over its vertices.
pub fn extent<S: Scalar>(s: &Solid<S>, n: &Vector3<S>) -> Decision<(S, S)> {
    let mut it = s.vertices().iter().map(|p| dot(&p.coords, n));
    let first = it.next().unwrap_or_else(S::zero);
    let (mut lo, mut hi) = (first.clone(), first);
    for x in it {
        lo = lo.minimum(&x)?;
        hi = hi.maximum(&x)?;
    }
    Ok((lo, hi))
}

/// [`extent`], with the magnitude of its ends' error for an axis whose components are computed
/// with magnitudes `nm`.
pub fn project<S: Scalar>(s: &Solid<S>, n: &Vector3<S>, nm: &Vector3<S>) -> Decision<(S, S, S)> {
    let (lo, hi) = extent(s, n)?;
    // (Nobody reads a filter run's magnitudes: half its arithmetic saved.)
    let magnitude = if S::FILTER {
        S::zero()
    } else {
        s.vertices().iter().fold(S::zero(), |m, p| m + dot_magnitude(&p.coords, nm))
    };
    Ok((lo, hi, magnitude))
}

/// Face `f`'s axis, its Newell normal, with a magnitude per component built from the face's
/// coordinates: Σ (|p_i| + |q_i|)(|p_j| + |q_j|) over its edges pq.
pub fn face_axis<S: Scalar>(s: &Solid<S>, f: usize) -> (Vector3<S>, Vector3<S>) {
    let face = s.face(f);
    let mut m = Vector3::from_element(S::zero());
    for (k, &i) in face.iter().enumerate() {
        let (p, q) = (s.vertex(i), s.vertex(face[(k + 1) % face.len()]));
        for (axis, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            m[axis] += (p[i].abs() + q[i].abs()) * (p[j].abs() + q[j].abs());
        }
    }
    (s.plane(f).normal.clone(), m)
}

/// The sign of a computed `x` of magnitude `magnitude`.
pub fn sign<S: Scalar>(x: &S, magnitude: &S) -> Decision<Sign> {
    x.sign_scaled(|| magnitude.clone())
}

/// The direction of edge `(u, w)` of `s`, with magnitudes of its components.
pub fn edge_direction<S: Scalar>(s: &Solid<S>, &(u, w): &(usize, usize)) -> (Vector3<S>, Vector3<S>) {
    let (p, q) = (s.vertex(u), s.vertex(w));
    (q - p, p.coords.map(|x| x.abs()) + q.coords.map(|x| x.abs()))
}

/// The direction of `axis` with a magnitude per component; `None` for parallel edges, which
/// give no axis.
///
/// An axis's components are computed from the vertices, whose coordinates carry the error of
/// posing them: the tests along an axis are scaled by magnitudes built from the coordinates
/// (`|p| + |q|` for a difference `p − q`), never by the components themselves, which can cancel
/// to rounding noise on `f64` where they are exactly zero.
#[allow(clippy::type_complexity)]
pub fn axis_of<S: Scalar>(a: &Solid<S>, b: &Solid<S>, axis: Axis) -> Decision<Option<(Vector3<S>, Vector3<S>)>> {
    let (i, j) = match axis {
        Axis::Face(0, f) => return Ok(Some(face_axis(a, f))),
        Axis::Face(_, f) => return Ok(Some(face_axis(b, f))),
        Axis::Edges(i, j) => (i, j),
    };
    let ((da, ma), (db, mb)) = (edge_direction(a, &a.edges()[i]), edge_direction(b, &b.edges()[j]));
    let n = da.cross(&db);
    let nm = cross_magnitude(&ma, &mb);
    // Parallel edges give no axis (exactly zero; within the tolerance on f64, where an axis of
    // rounding noise would judge nothing reliably).
    Ok((!zero_vector_scaled(&n, &nm)?).then_some((n, nm)))
}

/// The feature of the strictly convex `s` made of its vertices extreme along `n` (the highest,
/// or the lowest): a vertex, an edge or a face. (A tolerant backend's ties may make no
/// feature: then the first extreme vertex.)
pub fn extreme_feature<S: Scalar>(
    s: &Solid<S>,
    n: &Vector3<S>,
    nm: &Vector3<S>,
    highest: bool,
) -> Decision<Option<Feature>> {
    // Each vertex projected once. (A backend with certain decisions never reads the
    // magnitude, and finds the extreme among the projections themselves.)
    let along: Vec<S> = s.vertices().iter().map(|p| dot(&p.coords, n)).collect();
    let (extreme, m) = if S::CERTAIN_DECISIONS {
        let mut extreme = along.first().cloned().unwrap_or_else(S::zero);
        for x in along.iter().skip(1) {
            extreme = if highest { extreme.maximum(x)? } else { extreme.minimum(x)? };
        }
        (extreme, S::zero())
    } else {
        let (lo, hi, m) = project(s, n, nm)?;
        (if highest { hi } else { lo }, m)
    };
    let mut on = Vec::new();
    for (i, x) in along.into_iter().enumerate() {
        if sign(&(x - extreme.clone()), &m)? == Sign::Zero {
            on.push(i);
        }
    }
    let feature = match on.as_slice() {
        [v] => Some(Feature::Vertex(*v)),
        &[u, w] => s.edge_index(u, w).map(|e| {
            let (u, w) = s.edges()[e];
            Feature::Edge(u, w)
        }),
        _ => (0..s.face_count())
            .find(|&f| s.face(f).len() == on.len() && s.face(f).iter().all(|v| on.contains(v)))
            .map(Feature::Face),
    };
    Ok(match (feature, on.first()) {
        (Some(f), _) => Some(f),
        (None, Some(&v)) if !S::CERTAIN_DECISIONS => Some(Feature::Vertex(v)),
        _ => None,
    })
}

/// The sign of max over `a` of n·x minus min over `b` of n·x, and the other way round: the
/// better (smaller) of the two gaps decides whether n separates them (Negative: strictly,
/// Zero: weakly, Positive: not).
pub fn overlap_along<S: Scalar>(a: &Solid<S>, b: &Solid<S>, n: &Vector3<S>) -> Decision<Sign> {
    // The extremes along n, each with its magnitude. Ties (the vertices of a face whose normal
    // n is) need no order: where an interval backend cannot order two values, it takes the
    // interval of the extreme and the larger magnitude (Scalar::maximum) instead of failing.
    let extremes = |s: &Solid<S>| -> Decision<(S, S, S, S)> {
        let mut it = s.vertices().iter().map(|v| (dot(n, &v.coords), dot_magnitude(n, &v.coords)));
        let Some(first) = it.next() else { return Ok((S::zero(), S::zero(), S::zero(), S::zero())) };
        let (mut lo, mut hi) = (first.clone(), first);
        for (x, m) in it {
            match cmp_sign(&x, &lo.0, m.clone(), lo.1.clone()) {
                Ok(Sign::Negative) => lo = (x.clone(), m.clone()),
                Ok(_) => {}
                Err(Uncertain::Close) => lo = (lo.0.minimum(&x)?, lo.1.maximum(&m)?),
                Err(e) => return Err(e),
            }
            match cmp_sign(&x, &hi.0, m.clone(), hi.1.clone()) {
                Ok(Sign::Positive) => hi = (x, m),
                Ok(_) => {}
                Err(Uncertain::Close) => hi = (hi.0.maximum(&x)?, hi.1.maximum(&m)?),
                Err(e) => return Err(e),
            }
        }
        Ok((lo.0, lo.1, hi.0, hi.1))
    };
    let (alo, alom, ahi, ahim) = extremes(a)?;
    let (blo, blom, bhi, bhim) = extremes(b)?;
    let g1 = cmp_sign(&ahi, &blo, ahim, blom)?;
    let g2 = cmp_sign(&bhi, &alo, bhim, alom)?;
    Ok(g1.min(g2))
}
