//! First time of contact of two boxes under quadratic 4×4 motions: the boundary of the
//! Minkowski sum (BMS) of Albocher and Sarel, exactly.
//!
//! # The method (following the paper, `albocher-sarel-box-sweep.txt`)
//!
//! Box k occupies {Mₖ(t)·(x, 1) : |xᵢ| ≤ hᵢ} (see [`BoxMotion`]). The steps:
//!
//! 1. **Relative motion.** Box b is expressed in a's frame by `R(t) = adj(M_a(t)) · M_b(t)`,
//!    with the adjugate instead of the inverse so that every entry stays a polynomial. With
//!    M = [[A, o], [0, w]] the adjugate is [[w·adj A, −adj(A)·o], [0, det A]], so
//!    R = [[L, T], [0, s]] with `L = w_a adj(A_a) A_b`, `T = adj(A_a)(w_a o_b − w_b o_a)`,
//!    `s = det(A_a) w_b`: in a's frame a is the static box [−h, h] and b is the
//!    parallelepiped {(L x + T)/s : |xₘ| ≤ kₘ}. (We divide L, T and s by the gcd of their 13
//!    entries, a polynomial without roots in the interval: for rigid motions this removes
//!    powers of w_a and halves the degrees.)
//! 2. **Minkowski formulation.** The boxes meet iff the origin lies in a ⊕ (−b), i.e. iff
//!    the centre c = T/s of b lies in the zonotope Z = [−h, h] ⊕ {L x/s : |xₘ| ≤ kₘ}. Z has
//!    at most 30 facets, one pair ±n for each pair of its six generators (the edge
//!    directions eᵢ of a and Lₘ of b):
//!    * **octant–vertex** pairs (paper's OV; here *face–vertex*): n = ±eᵢ, a face of a and the
//!      vertex of b whose spherical octant holds eᵢ;
//!    * **vertex–octant** pairs (VO; here *vertex–face*): n = ±Nⱼ, b's face normal
//!      Nⱼ = Lⱼ₊₁ × Lⱼ₊₂, a face of b and the vertex of a whose octant holds Nⱼ;
//!    * **edge–edge** pairs (EE): n = ±(eᵢ × Lⱼ), where the great circles of the two edge
//!      directions cross on the normal sphere.
//!
//!    That is 6 + 6 + 18 = 30 plane equations, the paper's count. On the plane with outward
//!    normal n the origin lies on the BMS, i.e. c is on the facet's plane, when
//!
//!    ```text
//!    gₙ(t) = |s| Σₗ hₗ |n·eₗ| + Σₘ kₘ |n·Lₘ| − sign(s) n·T = 0,
//!    ```
//!
//!    and c is inside Z iff gₙ ≥ 0 for all 30 planes.
//! 3. **Spherical orientation representation and octant switches.** The pair of features on
//!    each plane (which vertex of a's sphere octants holds b's face normal, which vertex of b
//!    holds eᵢ, where the edges cross) is given by the signs of the terms n·eₗ and n·Lₘ.
//!    These are, up to factors without roots, the nine components Nⱼ·eᵢ of b's face normals
//!    (the paper's nine octant-switch equations) and the nine entries Lᵢₘ = eᵢ·Lₘ. The roots
//!    of these 18 polynomials in [t₀, t₁] cut the route into **homogeneous sections**: inside
//!    a section no normal switches octants and every gₙ is one polynomial (the absolute
//!    values resolved by the signs at a rational sample point inside the section).
//! 4. **First contact.** Per section, in order, the first t at which every gₙ ≥ 0: it is
//!    the section's start or a root of some gₙ (the origin on a boundary plane and inside
//!    the others). Every comparison is exact, at the algebraic candidate time.
//!
//! # Where the paper is silent or does not apply, and what we chose
//!
//! * **Parallelepipeds.** The paper's nine switch equations are for boxes: b's edge
//!   directions Lₘ are parallel to its face normals Nₘ. Under an affine motion they are not,
//!   and the vertex of b paired with a's face i switches when eᵢ·Lₘ changes sign, so we add
//!   those nine polynomials (for a rotated box they have the same roots as the paper's nine).
//! * **Identically zero terms** (a normal component zero for a whole section, e.g. aligned
//!   boxes) are not switches, as the paper says; such a term contributes 0. A plane whose
//!   normal n is identically zero on a section (eᵢ × Lⱼ with eᵢ ∥ Lⱼ, parallel edges) is not a
//!   plane and is dropped, so a degenerate section has fewer than 30 planes; planes with equal
//!   equations are kept once. [`bms_sections`] reports them.
//! * **A normal vanishing at one instant** (edges eᵢ and Lⱼ parallel at one time only). We
//!   divide every normal by the gcd of its components (the paper does not scale normals), so
//!   no normal vanishes anywhere: at such an instant the plane keeps the limit direction, which
//!   still gives a valid support inequality of Z. This also makes equal planes of different
//!   pairs (e.g. eᵢ × Lⱼ ∥ eₖ for aligned boxes) identical, so that they are counted once.
//! * **Start and end.** The interval is closed. If the boxes meet at t₀ the answer is t₀, with
//!   `overlapping_at_start` when they overlap with positive depth (every plane with a
//!   nonzero normal has gₙ > 0); then no feature pair is reported. Contact exactly at t₁ is a
//!   contact. A zero-length interval [t₀, t₀] is one test at t₀.
//! * **Degenerate contacts** (face on face, an edge lying on a face, parallel edges, vertex on
//!   vertex): several feature pairs touch at once, and we report one. At the contact time c
//!   lies on some planes; for a plane with outward normal n, the support feature of a in
//!   direction n and that of b in direction −n meet (c on the plane and inside Z means
//!   h_a(n) = min over b of n·p). We take the first such plane, in the order face–vertex
//!   planes, vertex–face planes, edge–edge planes (each ± in turn), whose support features are
//!   *generic* at that time: a vertex and a face, a face and a vertex, or two non-parallel
//!   edges; they touch. If none is, the support features of some plane are larger (e.g. two
//!   parallel faces, or an edge lying on a face) and meet in the plane; for a facet of Z
//!   (two independent generators parallel to it) one of their sub-pairs touches: a vertex of
//!   b in a's face, else a vertex of a in b's face, else two non-parallel edges crossing
//!   (two intersecting convex polygons in a plane share a vertex of one inside the other or
//!   crossing edges). We test those sub-pairs exactly in that order (vertices in id order;
//!   edges by direction x, y, z, then id) and report the first that touches. So aligned boxes meeting face on face are
//!   reported as face–vertex, with b's lowest-id vertex that lies in a's face.
//!
//! # Features
//!
//! Feature ids are those of the oracle format, in each box's own coordinates: vertex
//! `i = (x>0) + 2(y>0) + 4(z>0)`, an edge as its two vertex ids ascending, a face as its four
//! vertex ids ascending. [`ContactKind::VertexFace`] is a vertex of **a** on a face of **b**,
//! [`ContactKind::FaceVertex`] a face of a on a vertex of b.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::Matrix4;
//! use touchstone::sweep::{first_contact_bms, BoxFeature, BoxMotion, ContactKind};
//!
//! let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
//! let zero = Matrix4::from_element(q(0, 1));
//! // a: the cube [−1, 1]³, still. b: the same cube, centre (5 − 4t, 1/2, 1/2).
//! let a = BoxMotion { half: [q(1, 1), q(1, 1), q(1, 1)], motion: [Matrix4::identity(), zero.clone(), zero.clone()] };
//! let mut m0 = Matrix4::identity();
//! m0[(0, 3)] = q(5, 1);
//! m0[(1, 3)] = q(1, 2);
//! m0[(2, 3)] = q(1, 2);
//! let mut m1 = zero.clone();
//! m1[(0, 3)] = q(-4, 1);
//! let b = BoxMotion { half: [q(1, 1), q(1, 1), q(1, 1)], motion: [m0, m1, zero] };
//! let c = first_contact_bms(&a, &b, &q(0, 1), &q(1, 1)).unwrap().unwrap();
//! assert_eq!(c.time.to_rational(), Some(q(3, 4))); // 5 − 4t = 2
//! let pair = c.contact.unwrap();
//! // Face on face; reported as a's face x = +1 on b's vertex (−1, −1, −1) at (1, −1/2, −1/2).
//! assert_eq!(pair.kind, ContactKind::FaceVertex);
//! assert_eq!(pair.a, BoxFeature::Face([1, 3, 5, 7]));
//! assert_eq!(pair.b, BoxFeature::Vertex(0));
//! ```

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::sat::{cross, dot, frame, BoxMotion, Frame, SweepError};
use crate::poly::rational_between as between;
use crate::poly::{real_roots, Algebraic, Poly, PolyError};
use crate::scalar::Sign;

type Q = BigRational;
type P = Poly<Q>;
type V = [P; 3];

/// The kind of a contact (the oracle's `toi_boxes` `kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactKind {
    /// A vertex of a on a face of b (`"vertex-face"`).
    VertexFace,
    /// A face of a on a vertex of b (`"face-vertex"`).
    FaceVertex,
    /// An edge of a crossing an edge of b (`"edge-edge"`).
    EdgeEdge,
}

impl ContactKind {
    /// The oracle format's name: `"vertex-face"`, `"face-vertex"` or `"edge-edge"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContactKind::VertexFace => "vertex-face",
            ContactKind::FaceVertex => "face-vertex",
            ContactKind::EdgeEdge => "edge-edge",
        }
    }
}

/// A feature of a box, by vertex ids `i = (x>0) + 2(y>0) + 4(z>0)` in the box's own
/// coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxFeature {
    /// A vertex.
    Vertex(usize),
    /// An edge: its two vertex ids, ascending.
    Edge([usize; 2]),
    /// A face: its four vertex ids, ascending.
    Face([usize; 4]),
}

impl BoxFeature {
    /// The feature whose points have coordinate signs `signs` (−1, +1, or 0 for free).
    fn from_signs(signs: [i32; 3]) -> Self {
        let mut ids = completions(signs).into_iter().map(|v| vertex_id(&v)).collect::<Vec<_>>();
        ids.sort_unstable();
        match ids[..] {
            [a, b] => BoxFeature::Edge([a, b]),
            [a, b, c, d] => BoxFeature::Face([a, b, c, d]),
            _ => BoxFeature::Vertex(ids.first().copied().unwrap_or(0)),
        }
    }

    /// The vertex ids of the feature, ascending.
    pub fn vertices(&self) -> Vec<usize> {
        match self {
            BoxFeature::Vertex(v) => vec![*v],
            BoxFeature::Edge(e) => e.to_vec(),
            BoxFeature::Face(f) => f.to_vec(),
        }
    }
}

/// A touching pair of features: a's feature, b's feature, and the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeaturePair {
    /// Vertex–face, face–vertex or edge–edge.
    pub kind: ContactKind,
    /// The feature of box a.
    pub a: BoxFeature,
    /// The feature of box b.
    pub b: BoxFeature,
}

/// The first contact found by the BMS route.
#[derive(Clone, Debug, PartialEq)]
pub struct BmsContact {
    /// The first time in [t₀, t₁] at which the closed boxes meet.
    pub time: Algebraic,
    /// Whether the boxes overlap with positive depth at t₀ (then `time` is t₀).
    pub overlapping_at_start: bool,
    /// A pair of features touching at `time` (`None` exactly when `overlapping_at_start`).
    pub contact: Option<FeaturePair>,
}

/// One plane of a section's BMS.
#[derive(Clone, Debug, PartialEq)]
pub struct BmsPlane {
    /// Which kind of pair spans it.
    pub kind: ContactKind,
    /// a's support feature in the plane's outward direction (inside the section).
    pub a: BoxFeature,
    /// b's support feature in the opposite direction (inside the section).
    pub b: BoxFeature,
    /// gₙ(t), divided by the absolute value of its leading coefficient: the origin is on the
    /// plane at its roots, on the inner side where it is positive.
    pub gap: P,
}

/// A homogeneous section of the route: no normal switches octants strictly inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct BmsSection {
    /// Where it starts (t₀ or an octant-switch time).
    pub start: Algebraic,
    /// Where it ends (an octant-switch time or t₁).
    pub end: Algebraic,
    /// Its distinct planes: 30 in general position, fewer when degenerate.
    pub planes: Vec<BmsPlane>,
}

/// b relative to a: s·y = L x + T, b's face normals N (divided by their content) and
/// d = N₀·L₀ (det L divided by the same content).
struct Relative {
    l: [V; 3],
    t: V,
    s: P,
    sigma: i32,
    n: [V; 3],
    d: P,
    d_sign: i32,
}

fn divide_by(p: &P, g: &P) -> P {
    // g divides p exactly (it is their gcd); the division cannot fail for a nonzero g.
    p.div_rem(g).map(|(q, _)| q).unwrap_or_else(|_| p.clone())
}

/// The polynomials divided by their (monic) gcd.
fn reduce(ps: Vec<P>) -> Vec<P> {
    let g = ps.iter().fold(P::zero(), |g, p| g.gcd(p));
    if g.degree().is_none_or(|d| d == 0) {
        return ps;
    }
    ps.iter().map(|p| divide_by(p, &g)).collect()
}

/// `p / |lc(p)|`: the same signs, smaller numbers, and equal planes compare equal.
fn normalised(p: P) -> P {
    match p.leading() {
        Some(lc) => {
            let inv = Q::from_integer(1.into()) / lc.abs();
            p.scale(&inv)
        }
        None => p,
    }
}

fn sign_at(p: &P, t: &Q) -> i32 {
    let v = p.eval(t);
    if v.is_positive() {
        1
    } else if v.is_negative() {
        -1
    } else {
        0
    }
}

fn relative(fa: &Frame, fb: &Frame, t0: &Q) -> Relative {
    let c = &fa.cols;
    // Rows of adj(A_a): cross products of A_a's columns.
    let adj = [cross(&c[1], &c[2]), cross(&c[2], &c[0]), cross(&c[0], &c[1])];
    let apply = |v: &V| -> V { [0, 1, 2].map(|i| dot(&adj[i], v)) };
    let l = [0, 1, 2].map(|m| apply(&fb.cols[m]).map(|p| p * fa.w.clone()));
    let rel = [0, 1, 2].map(|i| fb.origin[i].clone() * fa.w.clone() - fa.origin[i].clone() * fb.w.clone());
    let t = apply(&rel);
    let s = dot(&c[0], &adj[0]) * fb.w.clone();
    // Divide L, T and s by the gcd of their 13 entries (it divides s: no roots in the interval).
    let mut all: Vec<P> = l.iter().flatten().chain(&t).cloned().collect();
    all.push(s);
    let all = reduce(all);
    let l = [0, 1, 2].map(|m| [0, 1, 2].map(|i| all[3 * m + i].clone()));
    let t = [0, 1, 2].map(|i| all[9 + i].clone());
    let s = all[12].clone();
    // b's face normals Nⱼ = Lⱼ₊₁ × Lⱼ₊₂ (the rows of adj L), divided by the gcd of their nine
    // entries (det(adj L) = det(L)² ≠ 0, so the gcd has no roots in the interval either).
    let n_full = [cross(&l[1], &l[2]), cross(&l[2], &l[0]), cross(&l[0], &l[1])];
    let n_all = reduce(n_full.iter().flatten().cloned().collect());
    let n = [0, 1, 2].map(|j| [0, 1, 2].map(|i| n_all[3 * j + i].clone()));
    let d = dot(&n[0], &l[0]);
    // s and d have no roots in the interval (the motions are nonsingular there).
    let (sigma, d_sign) = (sign_at(&s, t0), sign_at(&d, t0));
    Relative { l, t, s, sigma, n, d, d_sign }
}

/// One of the 15 normal directions (each gives two planes, ±n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    FaceOfA(usize),
    FaceOfB(usize),
    EdgeEdge(usize, usize),
}

struct AxisTerms {
    axis: Axis,
    /// n·eₗ.
    a_terms: V,
    /// n·Lₘ.
    b_terms: V,
    /// n·T.
    centre: P,
}

fn unit(i: usize) -> V {
    [0, 1, 2].map(|k| if k == i { P::constant(Q::from_integer(1.into())) } else { P::zero() })
}

fn axes(rel: &Relative) -> Vec<AxisTerms> {
    let mut normals: Vec<(Axis, V)> = Vec::with_capacity(15);
    for i in 0..3 {
        normals.push((Axis::FaceOfA(i), unit(i)));
    }
    for j in 0..3 {
        normals.push((Axis::FaceOfB(j), rel.n[j].clone()));
    }
    for i in 0..3 {
        for j in 0..3 {
            normals.push((Axis::EdgeEdge(i, j), cross(&unit(i), &rel.l[j])));
        }
    }
    normals
        .into_iter()
        .map(|(axis, n)| (axis, canonical(n)))
        .map(|(axis, n)| AxisTerms {
            axis,
            b_terms: [0, 1, 2].map(|m| dot(&n, &rel.l[m])),
            centre: dot(&n, &rel.t),
            a_terms: n,
        })
        .collect()
}

/// The direction of `n` with polynomial and constant factors removed: `n / gcd(components)`,
/// scaled so that its first nonzero component has leading coefficient ±1. Normals that differ
/// by a factor λ(t) then coincide up to sign. Where λ < 0 the pair of planes ±n swaps, and
/// where λ = 0 (n vanishes, e.g. momentarily parallel edges) the canonical direction still
/// gives a valid support inequality: the set of planes describes the same sum.
fn canonical(n: V) -> V {
    let n = reduce(n.to_vec());
    let inv = match n.iter().find_map(|p| p.leading()) {
        Some(lc) => Q::from_integer(1.into()) / lc.abs(),
        None => Q::from_integer(1.into()),
    };
    [0, 1, 2].map(|k| n[k].scale(&inv))
}

/// A plane of a section: axis `axis` with orientation `orient` (±1), its gap polynomial.
#[derive(Clone)]
struct Plane {
    axis: usize,
    orient: i32,
    gap: P,
}

fn signed(s: i32, p: &P) -> P {
    match s {
        1 => p.clone(),
        -1 => -p.clone(),
        _ => P::zero(),
    }
}

fn kind_of(axis: Axis) -> ContactKind {
    match axis {
        Axis::FaceOfA(_) => ContactKind::FaceVertex,
        Axis::FaceOfB(_) => ContactKind::VertexFace,
        Axis::EdgeEdge(..) => ContactKind::EdgeEdge,
    }
}

struct Problem<'a> {
    a: &'a BoxMotion,
    b: &'a BoxMotion,
    rel: Relative,
    axes: Vec<AxisTerms>,
}

impl Problem<'_> {
    /// The planes whose absolute values are resolved by the term signs at `sample` (inside a
    /// section, or t₀ for a zero-length interval). Planes with an identically zero normal are
    /// dropped; all others are kept (equal ones too: the feature search needs every label).
    fn planes_at(&self, sample: &Q) -> Vec<Plane> {
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        let mut out = Vec::with_capacity(30);
        for (k, ax) in self.axes.iter().enumerate() {
            let ea = [0, 1, 2].map(|l| sign_at(&ax.a_terms[l], sample));
            if ea == [0, 0, 0] {
                continue;
            }
            let eb = [0, 1, 2].map(|m| sign_at(&ax.b_terms[m], sample));
            let mut radius = P::zero();
            for l in 0..3 {
                radius = radius + signed(ea[l], &ax.a_terms[l]).scale(&self.a.half[l]) * abs_s.clone();
                radius = radius + signed(eb[l], &ax.b_terms[l]).scale(&self.b.half[l]);
            }
            let c = signed(self.rel.sigma, &ax.centre);
            for orient in [1, -1] {
                let gap = normalised(radius.clone() - signed(orient, &c));
                out.push(Plane { axis: k, orient, gap });
            }
        }
        out
    }

    /// a's and b's support-feature signs for plane (axis, orient) at time `t`: a point of a
    /// has yₗ = sₐ[l]·hₗ (0: free), a point of b has xₘ = s_b[m]·kₘ.
    fn support_signs(&self, axis: usize, orient: i32, t: &Algebraic) -> Result<([i32; 3], [i32; 3]), PolyError> {
        let ax = &self.axes[axis];
        let mut sa = [0; 3];
        let mut sb = [0; 3];
        for l in 0..3 {
            sa[l] = orient * t.sign_of(&ax.a_terms[l])?.as_i32();
            sb[l] = -self.rel.sigma * orient * t.sign_of(&ax.b_terms[l])?.as_i32();
        }
        Ok((sa, sb))
    }

    /// The same signs inside a section (at the rational `sample`).
    fn support_signs_at(&self, axis: usize, orient: i32, sample: &Q) -> ([i32; 3], [i32; 3]) {
        let ax = &self.axes[axis];
        let sa = [0, 1, 2].map(|l| orient * sign_at(&ax.a_terms[l], sample));
        let sb = [0, 1, 2].map(|l| -self.rel.sigma * orient * sign_at(&ax.b_terms[l], sample));
        (sa, sb)
    }

    /// a's point with signs `y` (a vertex), times s: s·y.
    fn a_point(&self, y: &[i32; 3]) -> V {
        [0, 1, 2].map(|l| signed(y[l], &self.rel.s).scale(&self.a.half[l]))
    }

    /// b's point with signs `x` (a vertex), in a's frame times s: L x + T.
    fn b_point(&self, x: &[i32; 3]) -> V {
        let mut p = self.rel.t.clone();
        for ((&xm, lm), km) in x.iter().zip(&self.rel.l).zip(&self.b.half) {
            for (pi, lmi) in p.iter_mut().zip(lm) {
                *pi = pi.clone() + signed(xm, lmi).scale(km);
            }
        }
        p
    }

    /// Whether b's vertex `x` lies in box a at time t.
    fn b_vertex_in_a(&self, x: &[i32; 3], t: &Algebraic) -> Result<bool, PolyError> {
        let p = self.b_point(x);
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        for (l, pl) in p.iter().enumerate() {
            let r = abs_s.scale(&self.a.half[l]);
            let c = signed(self.rel.sigma, pl);
            for g in [r.clone() - c.clone(), r + c] {
                if t.sign_of(&g)? == Sign::Negative {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether a's vertex `y` lies in box b at time t: x = L⁻¹(s y − T) = Nᵀ(s y − T)/d.
    fn a_vertex_in_b(&self, y: &[i32; 3], t: &Algebraic) -> Result<bool, PolyError> {
        let sy = self.a_point(y);
        let q: V = [0, 1, 2].map(|i| sy[i].clone() - self.rel.t[i].clone());
        let abs_d = signed(self.rel.d_sign, &self.rel.d);
        for m in 0..3 {
            let r = abs_d.scale(&self.b.half[m]);
            let c = signed(self.rel.d_sign, &dot(&self.rel.n[m], &q));
            for g in [r.clone() - c.clone(), r + c] {
                if t.sign_of(&g)? == Sign::Negative {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether a's edge (signs `ea`, one free axis) and b's edge (`eb`) cross at time t,
    /// given that both lie in one plane. Parallel edges give `false`.
    fn edges_cross(&self, ea: &[i32; 3], eb: &[i32; 3], t: &Algebraic) -> Result<bool, PolyError> {
        let (Some(i), Some(j)) = (ea.iter().position(|&s| s == 0), eb.iter().position(|&s| s == 0)) else {
            return Ok(false);
        };
        if self.parallel(ea, eb, t)? {
            return Ok(false);
        }
        let m = cross(&unit(i), &self.rel.l[j]);
        let ends = |s: &[i32; 3], k: usize| {
            let (mut lo, mut hi) = (*s, *s);
            lo[k] = -1;
            hi[k] = 1;
            (lo, hi)
        };
        let (ya, yb) = ends(ea, i);
        let (xa, xb) = ends(eb, j);
        let (p1, p2) = (self.a_point(&ya), self.a_point(&yb));
        let (q1, q2) = (self.b_point(&xa), self.b_point(&xb));
        let sub = |u: &V, v: &V| -> V { [0, 1, 2].map(|k| u[k].clone() - v[k].clone()) };
        let orient = |a: &V, b: &V, c: &V| -> Result<i32, PolyError> {
            Ok(t.sign_of(&dot(&cross(&sub(b, a), &sub(c, a)), &m))?.as_i32())
        };
        let straddles = |x: i32, y: i32| x * y <= 0;
        Ok(straddles(orient(&p1, &p2, &q1)?, orient(&p1, &p2, &q2)?)
            && straddles(orient(&q1, &q2, &p1)?, orient(&q1, &q2, &p2)?))
    }

    /// A touching sub-pair of two support features meeting in a common plane (a degenerate
    /// contact): a vertex of b in a's face, a vertex of a in b's face, or crossing edges.
    fn resolve(&self, sa: [i32; 3], sb: [i32; 3], t: &Algebraic) -> Result<Option<FeaturePair>, PolyError> {
        let za = sa.iter().filter(|&&s| s == 0).count();
        let zb = sb.iter().filter(|&&s| s == 0).count();
        if za == 2 {
            for x in completions(sb) {
                if self.b_vertex_in_a(&x, t)? {
                    let (a, b) = (BoxFeature::from_signs(sa), BoxFeature::from_signs(x));
                    return Ok(Some(FeaturePair { kind: ContactKind::FaceVertex, a, b }));
                }
            }
        }
        if zb == 2 {
            for y in completions(sa) {
                if self.a_vertex_in_b(&y, t)? {
                    let (a, b) = (BoxFeature::from_signs(y), BoxFeature::from_signs(sb));
                    return Ok(Some(FeaturePair { kind: ContactKind::VertexFace, a, b }));
                }
            }
        }
        for ea in edges(sa) {
            for eb in edges(sb) {
                if self.edges_cross(&ea, &eb, t)? {
                    let (a, b) = (BoxFeature::from_signs(ea), BoxFeature::from_signs(eb));
                    return Ok(Some(FeaturePair { kind: ContactKind::EdgeEdge, a, b }));
                }
            }
        }
        Ok(None)
    }

    /// Whether a's edge (free axis of `sa`) is parallel to b's edge (free axis of `sb`) at t.
    fn parallel(&self, sa: &[i32; 3], sb: &[i32; 3], t: &Algebraic) -> Result<bool, PolyError> {
        let (Some(i), Some(j)) = (sa.iter().position(|&s| s == 0), sb.iter().position(|&s| s == 0)) else {
            return Ok(false);
        };
        for p in cross(&unit(i), &self.rel.l[j]) {
            if t.sign_of(&p)? != Sign::Zero {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A touching feature pair at time `t`, where c is on the boundary of Z and `planes` are
    /// the planes of a section whose closure holds `t`.
    ///
    /// The first plane through c whose support features are generic (vertex and face, face
    /// and vertex, or two non-parallel edges) gives the pair. Otherwise the support features
    /// of each plane through c are searched for a touching sub-pair; a true facet of Z through
    /// c always has one (see the module docs).
    fn features(&self, planes: &[Plane], t: &Algebraic) -> Result<Option<FeaturePair>, PolyError> {
        let mut degenerate: Vec<([i32; 3], [i32; 3])> = Vec::new();
        for p in planes {
            if t.sign_of(&p.gap)? != Sign::Zero {
                continue;
            }
            let (sa, sb) = self.support_signs(p.axis, p.orient, t)?;
            if sa == [0, 0, 0] {
                continue; // unreachable: canonical normals never vanish
            }
            let za = sa.iter().filter(|&&s| s == 0).count();
            let zb = sb.iter().filter(|&&s| s == 0).count();
            if za + zb == 2 && !(za == 1 && self.parallel(&sa, &sb, t)?) {
                let kind = match za {
                    0 => ContactKind::VertexFace,
                    2 => ContactKind::FaceVertex,
                    _ => ContactKind::EdgeEdge,
                };
                return Ok(Some(FeaturePair { kind, a: BoxFeature::from_signs(sa), b: BoxFeature::from_signs(sb) }));
            }
            if !degenerate.contains(&(sa, sb)) {
                degenerate.push((sa, sb));
            }
        }
        for (sa, sb) in degenerate {
            if let Some(found) = self.resolve(sa, sb, t)? {
                return Ok(Some(found));
            }
        }
        // Unreachable by the argument in the module docs (some plane through the origin has a
        // touching pair, or a degenerate one resolves); never observed. Reported as no pair
        // rather than a panic on user data.
        Ok(None)
    }

    /// The answer when the boxes meet at t₀ (every plane has gₙ(t₀) ≥ 0): overlapping with
    /// positive depth when every plane with a nonzero normal at t₀ has gₙ(t₀) > 0, else
    /// touching, with a touching pair.
    fn at_start(&self, planes: &[Plane], t0: &Q) -> Result<BmsContact, PolyError> {
        let time = Algebraic::from_rational(t0.clone());
        let touching = planes
            .iter()
            .any(|p| sign_at(&p.gap, t0) == 0 && self.axes[p.axis].a_terms.iter().any(|a| sign_at(a, t0) != 0));
        if !touching {
            return Ok(BmsContact { time, overlapping_at_start: true, contact: None });
        }
        let contact = self.features(planes, &time)?;
        Ok(BmsContact { time, overlapping_at_start: false, contact })
    }

    /// Whether every plane has gₙ(t) ≥ 0, i.e. the boxes meet at t.
    fn inside(&self, planes: &[Plane], t: &Algebraic) -> Result<bool, PolyError> {
        for p in planes {
            if t.sign_of(&p.gap)? == Sign::Negative {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Every vertex sign vector of the feature `signs` (its zeros filled with ±1), in id order.
fn completions(signs: [i32; 3]) -> Vec<[i32; 3]> {
    let mut out = vec![signs];
    for k in (0..3).rev() {
        if signs[k] == 0 {
            out = out
                .into_iter()
                .flat_map(|v| {
                    let (mut lo, mut hi) = (v, v);
                    lo[k] = -1;
                    hi[k] = 1;
                    [lo, hi]
                })
                .collect();
        }
    }
    out
}

/// Every edge (one zero) of the feature `signs`: by direction (x, y, z), then in id order.
fn edges(signs: [i32; 3]) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for k in 0..3 {
        if signs[k] != 0 {
            continue;
        }
        let mut rest = signs;
        rest[k] = 1; // placeholder, restored below
        for mut v in completions(rest) {
            v[k] = 0;
            out.push(v);
        }
    }
    out
}

fn vertex_id(v: &[i32; 3]) -> usize {
    (0..3).filter(|&k| v[k] > 0).map(|k| 1 << k).sum()
}

fn setup<'a>(a: &'a BoxMotion, b: &'a BoxMotion, t0: &Q, t1: &Q) -> Result<Problem<'a>, SweepError> {
    if t1 < t0 {
        return Err(SweepError::EmptyInterval);
    }
    for (k, bx) in [a, b].into_iter().enumerate() {
        if let Some(axis) = bx.half.iter().position(|h| h <= &Q::zero()) {
            return Err(SweepError::BadHalfExtent { box_index: k, axis });
        }
    }
    let (fa, fb) = (frame(a, 0, t0, t1)?, frame(b, 1, t0, t1)?);
    let rel = relative(&fa, &fb, t0);
    let axes = axes(&rel);
    Ok(Problem { a, b, rel, axes })
}

/// The octant-switch times in (t₀, t₁): roots of the 18 sign polynomials, sorted, distinct.
fn switch_times(rel: &Relative, t0: &Q, t1: &Q) -> Result<Vec<Algebraic>, PolyError> {
    let start = Algebraic::from_rational(t0.clone());
    let end = Algebraic::from_rational(t1.clone());
    let mut times = Vec::new();
    for col in rel.l.iter().chain(rel.n.iter()) {
        for p in col {
            if p.degree().is_some_and(|d| d > 0) {
                times.extend(real_roots(p, t0, t1)?.into_iter().filter(|r| *r > start && *r < end));
            }
        }
    }
    times.sort();
    times.dedup();
    Ok(times)
}

/// A rational strictly inside the section [lo, hi] (lo itself when lo = hi).
fn sample(lo: &Algebraic, hi: &Algebraic) -> Result<Q, PolyError> {
    match (lo.to_rational(), lo == hi) {
        (Some(r), true) => Ok(r),
        _ => between(lo, hi),
    }
}

/// The sections [start, end] of the route with their bounds.
fn bounds(rel: &Relative, t0: &Q, t1: &Q) -> Result<Vec<Algebraic>, PolyError> {
    let mut b = vec![Algebraic::from_rational(t0.clone())];
    if t1 > t0 {
        b.extend(switch_times(rel, t0, t1)?);
        b.push(Algebraic::from_rational(t1.clone()));
    } else {
        b.push(Algebraic::from_rational(t1.clone()));
    }
    Ok(b)
}

/// Planes with distinct gap polynomials (what the search needs), with their first label.
fn distinct_gaps(planes: &[Plane]) -> Vec<usize> {
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap) {
            keep.push(k);
        }
    }
    keep
}

/// Geometrically distinct planes (outward direction and gap), with their first label.
fn distinct_planes(pr: &Problem<'_>, planes: &[Plane]) -> Vec<usize> {
    let dir = |p: &Plane| signed_v(p.orient, &pr.axes[p.axis].a_terms);
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap && dir(&planes[j]) == dir(p)) {
            keep.push(k);
        }
    }
    keep
}

fn signed_v(s: i32, v: &V) -> V {
    [0, 1, 2].map(|k| signed(s, &v[k]))
}

/// The homogeneous sections of the route over [t₀, t₁] and their BMS planes.
///
/// Errors: as [`first_contact_bms`].
pub fn bms_sections(a: &BoxMotion, b: &BoxMotion, t0: &Q, t1: &Q) -> Result<Vec<BmsSection>, SweepError> {
    let pr = setup(a, b, t0, t1)?;
    let bounds = bounds(&pr.rel, t0, t1)?;
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let q = sample(&w[0], &w[1])?;
        let planes = pr.planes_at(&q);
        let list = distinct_planes(&pr, &planes)
            .into_iter()
            .map(|k| {
                let p = &planes[k];
                let (sa, sb) = pr.support_signs_at(p.axis, p.orient, &q);
                BmsPlane {
                    kind: kind_of(pr.axes[p.axis].axis),
                    a: BoxFeature::from_signs(sa),
                    b: BoxFeature::from_signs(sb),
                    gap: p.gap.clone(),
                }
            })
            .collect();
        out.push(BmsSection { start: w[0].clone(), end: w[1].clone(), planes: list });
    }
    Ok(out)
}

/// The first time in [t₀, t₁] at which the two boxes meet (closed boxes, closed interval), by
/// the boundary of the Minkowski sum (see the [module docs](crate::sweep::bms)), with a touching feature
/// pair.
///
/// Errors: `t1 < t0`, a non-positive half extent, a projective motion, a motion singular
/// somewhere in the interval ([`SweepError::Singular`]), and the exact root finder's limits.
pub fn first_contact_bms(a: &BoxMotion, b: &BoxMotion, t0: &Q, t1: &Q) -> Result<Option<BmsContact>, SweepError> {
    let pr = setup(a, b, t0, t1)?;
    let bounds = bounds(&pr.rel, t0, t1)?;
    for (index, w) in bounds.windows(2).enumerate() {
        let (lo, hi) = (&w[0], &w[1]);
        let q = sample(lo, hi)?;
        let planes = pr.planes_at(&q);
        if index == 0 && planes.iter().all(|p| sign_at(&p.gap, t0) >= 0) {
            return Ok(Some(pr.at_start(&planes, t0)?));
        }
        // Roots of each distinct plane in the closed section; a plane negative on the whole
        // section puts b's centre outside throughout: skip the section. The section's start
        // needs no test: it is t₀ (tested above) or was the end of the previous section, where
        // a contact is a root of one of its planes.
        let (rlo, rhi) = (lo.interval().lo().clone(), hi.interval().hi().clone());
        let mut candidates = Vec::new();
        let mut outside = false;
        let mut order: Vec<Plane> = Vec::new();
        for k in distinct_gaps(&planes) {
            let p = &planes[k];
            if p.gap.is_zero() {
                continue;
            }
            let roots: Vec<Algebraic> =
                real_roots(&p.gap, &rlo, &rhi)?.into_iter().filter(|r| r >= lo && r <= hi).collect();
            if sign_at(&p.gap, &q) < 0 {
                if roots.is_empty() {
                    outside = true;
                    break;
                }
                order.insert(0, p.clone()); // likely to reject candidates: test first
            } else {
                order.push(p.clone());
            }
            candidates.extend(roots);
        }
        if outside {
            continue;
        }
        candidates.sort();
        candidates.dedup();
        for t in candidates {
            if pr.inside(&order, &t)? {
                let contact = pr.features(&planes, &t)?;
                return Ok(Some(BmsContact { time: t, overlapping_at_start: false, contact }));
            }
        }
    }
    Ok(None)
}
