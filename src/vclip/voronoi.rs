//! Features as indices and their Voronoi planes, unnormalised.
//!
//! A Voronoi plane is `normal · (x − point) = 0`, with the region it bounds on its
//! non-negative side. Vertex–edge planes contain the vertex and have the edge's direction as
//! normal; face–edge planes contain the edge and the face normal. Nothing is normalised.

use crate::brep::{Feature, Solid};
use crate::geom::{dot_magnitude, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// A feature of one solid by index: vertex id, edge index in [`Solid::edges`], face index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Feat {
    V(usize),
    E(usize),
    F(usize),
}

impl Feat {
    /// The public [`Feature`] naming this one.
    pub(crate) fn public<S: Scalar>(self, s: &Solid<S>) -> Feature {
        match self {
            Feat::V(v) => Feature::Vertex(v),
            Feat::E(e) => {
                let (u, v) = s.edges()[e];
                Feature::Edge(u, v)
            }
            Feat::F(f) => Feature::Face(f),
        }
    }

    /// The feature of `s` that `f` names, if any.
    pub(crate) fn from_public<S: Scalar>(s: &Solid<S>, f: &Feature) -> Option<Feat> {
        match *f {
            Feature::Vertex(v) if v < s.vertex_count() => Some(Feat::V(v)),
            Feature::Edge(u, v) => s.edge_index(u, v).map(Feat::E),
            Feature::Face(f) if f < s.face_count() => Some(Feat::F(f)),
            _ => None,
        }
    }
}

/// A Voronoi plane of a feature, with the neighbouring feature on its other side.
#[derive(Clone, Debug)]
pub(crate) struct VPlane<S: Scalar> {
    pub normal: Vector3<S>,
    pub point: Point3<S>,
    pub neighbor: Feat,
}

impl<S: Scalar> VPlane<S> {
    /// normal · (x − point): non-negative inside the region.
    pub fn eval(&self, x: &Point3<S>) -> S {
        crate::geom::dot(&self.normal, &(x - &self.point))
    }

    /// The magnitude of [`VPlane::eval`] at `x`: Σ|nᵢ|(|xᵢ| + |pᵢ|).
    pub fn magnitude(&self, x: &Point3<S>) -> S {
        dot_magnitude(&self.normal, &x.coords) + dot_magnitude(&self.normal, &self.point.coords)
    }

    /// The sign of [`VPlane::eval`], against [`VPlane::magnitude`].
    pub fn sign(&self, x: &Point3<S>) -> Decision<Sign> {
        self.eval(x).sign_scaled(|| self.magnitude(x))
    }
}

/// The planes of a feature's Voronoi region: a handful, kept on the stack (a V-Clip step makes
/// several such lists).
pub(crate) type Planes<S> = smallvec::SmallVec<[VPlane<S>; 4]>;

/// The endpoints (tail, head) of edge `e`: lower then higher vertex id.
pub(crate) fn edge_ends<S: Scalar>(s: &Solid<S>, e: usize) -> (usize, usize) {
    s.edges()[e]
}

/// The planes of VR(vertex v): one per incident edge, normal v − w for its other end w.
pub(crate) fn vertex_planes<S: Scalar>(s: &Solid<S>, v: usize) -> Planes<S> {
    s.outgoing_iter(v)
        .map(|h| {
            let e = s.half_edges()[h].edge;
            let (a, b) = edge_ends(s, e);
            let w = if a == v { b } else { a };
            VPlane { normal: s.vertex(v) - s.vertex(w), point: s.vertex(v).clone(), neighbor: Feat::E(e) }
        })
        .collect()
}

/// The vertex–edge planes of VR(edge e): at the tail (normal h − t) and the head (t − h).
pub(crate) fn edge_vertex_planes<S: Scalar>(s: &Solid<S>, e: usize) -> Planes<S> {
    let (t, h) = edge_ends(s, e);
    let (pt, ph) = (s.vertex(t), s.vertex(h));
    smallvec::smallvec![
        VPlane { normal: ph - pt, point: pt.clone(), neighbor: Feat::V(t) },
        VPlane { normal: pt - ph, point: ph.clone(), neighbor: Feat::V(h) },
    ]
}

/// The face–edge planes of VR(edge e): for each face f with half-edge a → b along e, normal
/// (b − a) × n_f, pointing away from the face.
pub(crate) fn edge_face_planes<S: Scalar>(s: &Solid<S>, e: usize) -> Planes<S> {
    let h0 = s.edge_half_edge(e);
    let hes = s.half_edges();
    [h0, hes[h0].twin]
        .into_iter()
        .map(|k| {
            let he = &hes[k];
            let (a, b) = (s.vertex(he.origin), s.vertex(hes[he.next].origin));
            VPlane { normal: (b - a).cross(&s.plane(he.face).normal), point: a.clone(), neighbor: Feat::F(he.face) }
        })
        .collect()
}

/// All four planes of VR(edge e).
pub(crate) fn edge_planes<S: Scalar>(s: &Solid<S>, e: usize) -> Planes<S> {
    let mut out = edge_vertex_planes(s, e);
    out.extend(edge_face_planes(s, e));
    out
}

/// The side planes of VR(face f): for each boundary half-edge a → b, normal n_f × (b − a),
/// pointing into the face. (The face's own plane bounds the region too; it is tested apart.)
pub(crate) fn face_planes<S: Scalar>(s: &Solid<S>, f: usize) -> Planes<S> {
    let n = &s.plane(f).normal;
    let hes = s.half_edges();
    s.face_half_edges_iter(f)
        .map(|k| {
            let he = &hes[k];
            let (a, b) = (s.vertex(he.origin), s.vertex(hes[he.next].origin));
            VPlane { normal: n.cross(&(b - a)), point: a.clone(), neighbor: Feat::E(he.edge) }
        })
        .collect()
}
