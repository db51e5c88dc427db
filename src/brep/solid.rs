//! The half-edge solid and its adjacency queries.

use crate::geom::{Plane, Point3, Scaled, Vector3};
use crate::predicates::orient3d_scaled;
use crate::scalar::{Decision, ExactValues, Scalar, Sign};

/// One side of an edge, running along a face's boundary (counterclockwise seen from outside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfEdge {
    /// The vertex it starts at.
    pub origin: usize,
    /// The opposite half-edge (same edge, other face, other direction).
    pub twin: usize,
    /// The next half-edge along the same face.
    pub next: usize,
    /// The previous half-edge along the same face.
    pub prev: usize,
    /// The face it bounds.
    pub face: usize,
    /// The edge it is a side of.
    pub edge: usize,
}

/// A feature of a solid, with the ids of the oracle's format.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// A vertex id.
    Vertex(usize),
    /// An edge by its vertex ids, lower first.
    Edge(usize, usize),
    /// A face by its index in the input.
    Face(usize),
}

/// How the two faces of an edge meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convexity {
    /// Dihedral angle below 180° (seen from inside).
    Convex,
    /// The two faces are coplanar.
    Flat,
    /// Dihedral angle above 180°.
    Reflex,
}

/// A closed, oriented, 2-manifold polyhedral solid with simple planar faces (possibly
/// nonconvex), generic over the scalar. Built only through validation ([`Solid::new`] and the
/// builders), so every `Solid` is well formed.
#[derive(Clone, Debug, PartialEq)]
pub struct Solid<S: Scalar> {
    pub(crate) vertices: Vec<Point3<S>>,
    /// The combinatorial structure, shared by every solid moved from this one (a pose changes
    /// the vertices and planes only: posing a box costs no copy of its half-edges).
    pub(crate) topo: std::sync::Arc<Topology>,
    pub(crate) planes: Vec<Plane<S>>,
}

/// The combinatorial part of a solid: faces, half-edges, edges, independent of coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Topology {
    pub(crate) faces: Vec<Vec<usize>>,
    pub(crate) face_first: Vec<usize>,
    pub(crate) half_edges: Vec<HalfEdge>,
    pub(crate) vertex_out: Vec<usize>,
    pub(crate) edges: Vec<(usize, usize)>,
    pub(crate) edge_half: Vec<usize>,
}

impl<S: Scalar> Solid<S> {
    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.topo.edges.len()
    }
    /// The number of faces.
    pub fn face_count(&self) -> usize {
        self.topo.faces.len()
    }
    /// V − E + F (2 for each sphere-like shell, 0 for a torus).
    pub fn euler(&self) -> i64 {
        self.vertices.len() as i64 - self.topo.edges.len() as i64 + self.topo.faces.len() as i64
    }
    /// Vertex `v`'s position.
    pub fn vertex(&self, v: usize) -> &Point3<S> {
        &self.vertices[v]
    }
    /// All vertex positions, by id.
    pub fn vertices(&self) -> &[Point3<S>] {
        &self.vertices
    }
    /// Face `f`'s vertex ids, counterclockwise seen from outside.
    pub fn face(&self, f: usize) -> &[usize] {
        &self.topo.faces[f]
    }
    /// All faces.
    pub fn faces(&self) -> &[Vec<usize>] {
        &self.topo.faces
    }
    /// Face `f`'s plane: unnormalised (Newell's normal, twice the area vector), pointing out.
    pub fn plane(&self, f: usize) -> &Plane<S> {
        &self.planes[f]
    }
    /// The edges as vertex id pairs, lower id first.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.topo.edges
    }
    /// The half-edges.
    pub fn half_edges(&self) -> &[HalfEdge] {
        &self.topo.half_edges
    }
    /// The index of edge (a, b) in [`Solid::edges`], in either order.
    pub fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
        let key = (a.min(b), a.max(b));
        self.topo.edges.binary_search(&key).ok()
    }
    /// The half-edge of edge `e` that runs from its lower to its higher vertex id.
    pub fn edge_half_edge(&self, e: usize) -> usize {
        self.topo.edge_half[e]
    }
    /// The two faces of edge `e`: the one whose boundary runs lower → higher id, then the other.
    pub fn edge_faces(&self, e: usize) -> (usize, usize) {
        let h = &self.topo.half_edges[self.topo.edge_half[e]];
        (h.face, self.topo.half_edges[h.twin].face)
    }
    /// The half-edges leaving vertex `v`, in order around it (counterclockwise seen from
    /// outside).
    pub fn outgoing(&self, v: usize) -> Vec<usize> {
        self.outgoing_iter(v).collect()
    }
    /// [`Solid::outgoing`] as an iterator (no list is built).
    pub(crate) fn outgoing_iter(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.topo.vertex_out[v];
        let hs = &self.topo.half_edges;
        std::iter::successors(Some(start), move |&h| Some(hs[hs[h].prev].twin).filter(|&n| n != start))
    }
    /// The edges around vertex `v`, in order (counterclockwise seen from outside).
    pub fn vertex_edges(&self, v: usize) -> Vec<usize> {
        self.outgoing_iter(v).map(|h| self.topo.half_edges[h].edge).collect()
    }
    /// The faces around vertex `v`, in order (counterclockwise seen from outside).
    pub fn vertex_faces(&self, v: usize) -> Vec<usize> {
        self.outgoing_iter(v).map(|h| self.topo.half_edges[h].face).collect()
    }
    /// The faces next to face `f`, across each of its edges in order.
    pub fn face_neighbours(&self, f: usize) -> Vec<usize> {
        self.face_half_edges(f).into_iter().map(|h| self.topo.half_edges[self.topo.half_edges[h].twin].face).collect()
    }
    /// The half-edges of face `f`, in order.
    pub fn face_half_edges(&self, f: usize) -> Vec<usize> {
        self.face_half_edges_iter(f).collect()
    }
    /// [`Solid::face_half_edges`] as an iterator (no list is built).
    pub(crate) fn face_half_edges_iter(&self, f: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.topo.face_first[f];
        let hs = &self.topo.half_edges;
        std::iter::successors(Some(start), move |&h| Some(hs[h].next).filter(|&n| n != start))
    }

    /// Whether the faces of edge `e` meet convexly, flat or reflexly, decided exactly: the
    /// sign of (n₁ × n₂)·(b − a) for the half-edge a→b of face 1, or equivalently of
    /// orient3d(a, b, c, d) with c a vertex of face 1 and d one of face 2 off the edge's line.
    pub fn edge_convexity(&self, e: usize) -> Decision<Convexity> {
        Ok(match self.edge_convexity_scaled(e).sign_scaled()? {
            Sign::Positive => Convexity::Convex,
            Sign::Zero => Convexity::Flat,
            Sign::Negative => Convexity::Reflex,
        })
    }

    /// The value deciding [`Solid::edge_convexity`], (n₁ × n₂)·(b − a), with its magnitude.
    pub fn edge_convexity_scaled(&self, e: usize) -> Scaled<S> {
        let h = &self.topo.half_edges[self.topo.edge_half[e]];
        let t = &self.topo.half_edges[h.twin];
        let (a, b) = (&self.vertices[h.origin], &self.vertices[t.origin]);
        let (n1, n2) = (&self.planes[h.face].normal, &self.planes[t.face].normal);
        let dir: Vector3<S> = b - a;
        let m = |i: usize, j: usize| n1[i].abs() * n2[j].abs() + n1[j].abs() * n2[i].abs();
        Scaled {
            value: n1.cross(n2).dot(&dir),
            magnitude: m(1, 2) * dir[0].abs() + m(2, 0) * dir[1].abs() + m(0, 1) * dir[2].abs(),
        }
    }

    /// Whether feature `part` lies in the closure of feature `whole` of one solid.
    pub fn in_closure(&self, part: &Feature, whole: &Feature) -> bool {
        let s = self;
        let vertices = |f: &Feature| -> Vec<usize> {
            match *f {
                Feature::Vertex(v) => vec![v],
                Feature::Edge(u, v) => vec![u, v],
                Feature::Face(f) => s.face(f).to_vec(),
            }
        };
        let (p, w) = (vertices(part), vertices(whole));
        // A feature is in the closure of another exactly when all its vertices are the other's and,
        // for an edge in a face, it is a side of the face (a face's closure holds its own sides;
        // a nonconvex face may have a diagonal between its vertices that is an edge elsewhere).
        p.iter().all(|v| w.contains(v))
            && match (part, whole) {
                (Feature::Edge(u, v), Feature::Face(f)) => {
                    let face = s.face(*f);
                    let n = face.len();
                    (0..n).any(|i| {
                        let (a, b) = (face[i], face[(i + 1) % n]);
                        (a, b) == (*u, *v) || (a, b) == (*v, *u)
                    })
                }
                _ => true,
            }
    }

    /// The sign tests that decided this solid's validity and convexity, for margins under the
    /// agreement contract: per face, the planarity value of each vertex (all zero: planar) and
    /// the three components of its Newell normal (not all zero: nonzero area); per edge, the
    /// convexity value; the signed volume.
    pub fn validation_tests(&self) -> ValidationTests<S> {
        let planarity = (0..self.topo.faces.len())
            .map(|f| {
                let pts: Vec<&Point3<S>> = self.topo.faces[f].iter().map(|&v| &self.vertices[v]).collect();
                let (_, m) = crate::constructions::newell(&pts);
                pts.iter()
                    .map(|p| Scaled {
                        value: self.planes[f].eval(p),
                        magnitude: crate::constructions::planarity_magnitude(&m, pts[0], p),
                    })
                    .collect()
            })
            .collect();
        let area = self.area_tests();
        let convexity = (0..self.topo.edges.len()).map(|e| self.edge_convexity_scaled(e)).collect();
        ValidationTests { planarity, area, convexity, volume: self.volume6() }
    }

    /// The area tests of [`Solid::validation_tests`] alone: each face's Newell normal, a
    /// coordinate and its magnitude each (a face has area when one is nonzero).
    pub fn area_tests(&self) -> Vec<Vec<Scaled<S>>> {
        self.topo
            .faces
            .iter()
            .map(|face| {
                let (n, m) = crate::constructions::newell_of(face.len(), |k| &self.vertices[face[k]]);
                let [[nx, ny, nz]] = n.data.0;
                let [[mx, my, mz]] = m.data.0;
                vec![
                    Scaled { value: nx, magnitude: mx },
                    Scaled { value: ny, magnitude: my },
                    Scaled { value: nz, magnitude: mz },
                ]
            })
            .collect()
    }

    /// Whether the solid is convex: one connected shell whose edges are all convex or flat
    /// (for an embedded closed surface, local convexity at every edge is convexity).
    pub fn is_convex(&self) -> Decision<bool> {
        if self.shell_count() != 1 {
            return Ok(false);
        }
        for e in 0..self.topo.edges.len() {
            if self.edge_convexity(e)? == Convexity::Reflex {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The number of connected shells.
    pub fn shell_count(&self) -> usize {
        let mut seen = vec![false; self.topo.faces.len()];
        let mut shells = 0;
        for start in 0..self.topo.faces.len() {
            if seen[start] {
                continue;
            }
            shells += 1;
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(f) = stack.pop() {
                let hs = &self.topo.half_edges;
                for g in self.face_half_edges_iter(f).map(|h| hs[hs[h].twin].face) {
                    if !seen[g] {
                        seen[g] = true;
                        stack.push(g);
                    }
                }
            }
        }
        shells
    }

    /// Six times the signed volume, exactly (positive for a valid solid), with its magnitude.
    pub fn volume6(&self) -> Scaled<S> {
        signed_volume6(&self.vertices, &self.topo.faces)
    }

    /// The feature ids of face `f` in the format's convention: its vertex ids, ascending.
    pub fn face_feature_ids(&self, f: usize) -> Vec<usize> {
        let mut ids = self.topo.faces[f].clone();
        ids.sort_unstable();
        ids
    }
}

/// What a posed solid's contract margin needs (exact backends: the margins are computed on
/// [`crate::scalar::Exact`]).
impl<S: ExactValues> Solid<S> {
    /// Six times the volume of a posed solid with the magnitude that bounds what rounding its
    /// *coordinates* does to it: per fan tetrahedron the permanent of its four homogeneous rows
    /// (x, y, z, 1), not of the edge vectors. A backend rounds a posed coordinate relative to its
    /// size (the translation's, far from the origin), so a small solid far away is relatively
    /// close to a flat one (a half-unit box 5.8·10¹⁷ away came out of zero volume in `f64`, while
    /// the edge vectors' permanent called its margin 0.49).
    ///
    /// Computed by a shorter route with the same value (the backend is exact, so the order of the
    /// sums does not matter): with |·| taken coordinatewise, rows Rᵢ = (|pᵢ|, 1), Sᵢ their sums and
    /// `w` the underflow weight, [`crate::geom::permanent4`] of (R₀, R₁, R₂, R₃) is
    /// per(R) + w · (S₀ S₁ − R₀ · R₁ + S₀), and per(R), expanded along the column of ones, is
    /// (|a| + |v₀|) · P(|b|, |c|) + P(|v₀|, |a|) · (|b| + |c|) for the fan tetrahedron (v₀, a, b, c),
    /// where P(q, r) = (q₁r₂ + q₂r₁, q₀r₂ + q₂r₀, q₀r₁ + q₁r₀) is the cross product's permanent.
    /// The value is the fans' triple products d_a · (d_b × d_c) of the vertices' offsets from v₀.
    ///
    /// ```
    /// use touchstone::brep::shapes;
    /// use touchstone::scalar::{Exact, Scalar};
    /// // The cube [−1, 1]³: volume 8, six times it 48, and a magnitude at least that.
    /// let v = shapes::cube::<Exact>().posed_volume6();
    /// assert!(v.value == Exact::from_i64(48) && v.magnitude.to_f64() >= 48.0);
    /// ```
    pub fn posed_volume6(&self) -> Scaled<S> {
        let s = self;
        let v = s.vertices();
        let w = S::from_f64(crate::scalar::tolerance::UNDERFLOW_WEIGHT).unwrap_or_else(|_| S::zero());
        let abs: Vec<[S; 3]> = v.iter().map(|p| [p.x.abs(), p.y.abs(), p.z.abs()]).collect();
        let off: Vec<[S; 3]> = v
            .iter()
            .map(|p| [p.x.clone() - v[0].x.clone(), p.y.clone() - v[0].y.clone(), p.z.clone() - v[0].z.clone()])
            .collect();
        let add = |a: &[S; 3], b: &[S; 3]| [0, 1, 2].map(|i| a[i].clone() + b[i].clone());
        let dot = |a: &[S; 3], b: &[S; 3]| {
            a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
        };
        let per = |q: &[S; 3], r: &[S; 3]| {
            let t = |i: usize, j: usize| q[i].clone() * r[j].clone() + q[j].clone() * r[i].clone();
            [t(1, 2), t(0, 2), t(0, 1)]
        };
        let cross = |q: &[S; 3], r: &[S; 3]| {
            let t = |i: usize, j: usize| q[i].clone() * r[j].clone() - q[j].clone() * r[i].clone();
            [t(1, 2), t(2, 0), t(0, 1)]
        };
        let r0 = &abs[0];
        let s0 = r0[0].clone() + r0[1].clone() + r0[2].clone() + S::one();
        let (mut value, mut magnitude) = (S::zero(), S::zero());
        for f in 0..s.face_count() {
            let face = s.face(f);
            let (ra, da) = (&abs[face[0]], &off[face[0]]);
            let u = add(ra, r0);
            let t = per(r0, ra);
            let sa = ra[0].clone() + ra[1].clone() + ra[2].clone() + S::one();
            let fans = S::from_i64((face.len() - 2) as i64);
            magnitude += fans * w.clone() * (s0.clone() * sa - (dot(r0, ra) + S::one()) + s0.clone());
            for k in 1..face.len() - 1 {
                let (b, c) = (face[k], face[k + 1]);
                magnitude += dot(&u, &per(&abs[b], &abs[c])) + dot(&t, &add(&abs[b], &abs[c]));
                value += dot(da, &cross(&off[b], &off[c]));
            }
        }
        Scaled { value, magnitude }
    }
}

/// The sign tests behind a solid's validity (see [`Solid::validation_tests`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationTests<S> {
    /// Per face, each vertex's value on the face plane (zero: on it).
    pub planarity: Vec<Vec<Scaled<S>>>,
    /// Per face, the Newell normal's components (not all zero: nonzero area).
    pub area: Vec<Vec<Scaled<S>>>,
    /// Per edge, the convexity value (positive convex, zero flat, negative reflex).
    pub convexity: Vec<Scaled<S>>,
    /// Six times the signed volume (positive).
    pub volume: Scaled<S>,
}

/// Six times the signed volume of a closed oriented mesh, by fans of tetrahedra from vertex 0
/// (the divergence theorem), with the sum of the fans' permanents as magnitude.
pub(crate) fn signed_volume6<S: Scalar>(vertices: &[Point3<S>], faces: &[Vec<usize>]) -> Scaled<S> {
    let r = &vertices[0];
    let (mut value, mut magnitude) = (S::zero(), S::zero());
    for f in faces {
        let a = &vertices[f[0]];
        for k in 1..f.len() - 1 {
            let s = orient3d_scaled(r, a, &vertices[f[k]], &vertices[f[k + 1]]);
            value += s.value;
            magnitude += s.magnitude;
        }
    }
    Scaled { value, magnitude }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brep::shapes;
    use crate::geom::{Affine, Matrix4};
    use crate::scalar::Exact;
    use num_rational::BigRational;

    /// The definition [`Solid::posed_volume6`] shortens: per fan tetrahedron the permanent of its four
    /// homogeneous rows, and the solid's signed volume.
    fn reference<S: Scalar>(s: &Solid<S>) -> Scaled<S> {
        let v = s.vertices();
        let row = |p: &Point3<S>| [p.x.clone(), p.y.clone(), p.z.clone(), S::one()];
        let mut magnitude = S::zero();
        for f in 0..s.face_count() {
            let face = s.face(f);
            for k in 1..face.len() - 1 {
                let rows = [row(&v[0]), row(&v[face[0]]), row(&v[face[k]]), row(&v[face[k + 1]])];
                magnitude += crate::geom::permanent4(&Matrix4::from_fn(|i, j| rows[i][j].clone()));
            }
        }
        Scaled { value: s.volume6().value, magnitude }
    }

    fn solids<S: Scalar>() -> Vec<Solid<S>> {
        let q = |n: i64, d: i64| S::from_i64(n) / S::from_i64(d);
        // Rotations with rational entries (quaternions of integers), far and near translations
        // with signs in every coordinate, so that |·| matters.
        let poses = [
            Affine::identity(),
            Affine::from_quaternion(&[1, 2, -3, 4].map(S::from_i64), Vector3::new(q(-7, 3), q(5, 2), q(-1, 9)))
                .unwrap(),
            Affine::from_quaternion(&[2, -1, 0, 1].map(S::from_i64), Vector3::new(q(1000, 1), q(-3, 7), q(0, 1)))
                .unwrap(),
        ];
        let base: Vec<Solid<S>> = vec![
            shapes::cube(),
            shapes::tetrahedron(),
            shapes::octahedron(),
            shapes::l_shape(),
            shapes::comb(5).unwrap(),
            shapes::cuboid(q(1, 3), q(5, 2), q(7, 11)).unwrap(),
            shapes::extrusion(
                &[(q(-2, 1), q(-1, 1)), (q(3, 1), q(-1, 2)), (q(1, 1), q(4, 3)), (q(-1, 1), q(2, 1))],
                q(-5, 3),
                q(1, 4),
            )
            .unwrap(),
        ];
        base.iter().flat_map(|s| poses.iter().map(move |p| s.transformed(p).unwrap())).collect()
    }

    fn same_as_reference<S: ExactValues>() {
        for (i, s) in solids::<S>().iter().enumerate() {
            let (got, want) = (s.posed_volume6(), reference(s));
            assert!(got.value == want.value && got.magnitude == want.magnitude, "solid {i}: {got:?} against {want:?}");
            assert_eq!(got.sign_scaled(), Ok(crate::scalar::Sign::Positive), "solid {i}");
        }
    }

    #[test]
    fn posed_volume6_is_the_permanents_of_its_definition() {
        same_as_reference::<Exact>();
        same_as_reference::<BigRational>();
    }
}
