//! First time of contact of two boxes under quadratic 4×4 motions: the boundary of the
//! Minkowski sum (BMS) of Albocher and Sarel, written once over [`RootScalar`]: exactly on
//! `BigRational` (times are real algebraic numbers), and on `f64` (float roots, decisions under
//! the tolerance) with the same feature pairs; see *On inexact backends* for what differs.
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
//!    parallelepiped {(L x + T)/s : |xₘ| ≤ kₘ}. (Exactly, we divide L, T and s by the gcd of
//!    their 13 entries, a polynomial without roots in the interval: for rigid motions this
//!    removes powers of w_a and halves the degrees.)
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
//!    the others). Every sign is decided at the candidate time ([`RootScalar::sign_at`]: exactly
//!    at an algebraic number on the exact backend), times are ordered by [`crate::poly::order`].
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
//! * **A normal vanishing at one instant** (edges eᵢ and Lⱼ parallel at one time only).
//!   Exactly, we divide every normal by the gcd of its components and scale it so that its
//!   first nonzero component has leading coefficient ±1 (the paper does not scale normals), so
//!   no normal vanishes anywhere: at such an instant the plane keeps the limit direction, which
//!   still gives a valid support inequality of Z. This also makes equal planes of different
//!   pairs (e.g. eᵢ × Lⱼ ∥ eₖ for aligned boxes) identical, so that they are counted once.
//!   (Backends without a gcd keep the normal as it is: see *On inexact backends*.)
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
//!   crossing edges). We test those sub-pairs in that order (vertices in id order; edges by
//!   direction x, y, z, then id), with the tests of [`pair_touches`], and report the first
//!   that touches. So aligned boxes meeting face on face are reported as face–vertex, with b's
//!   lowest-id vertex that lies in a's face.
//!
//! # On inexact backends
//!
//! The three exact-only simplifications are a backend capability
//! ([`RootScalar::remove_common_factor`], [`RootScalar::normalise_scale`]): the exact backend
//! divides by gcds and leading coefficients, the others (`f64`, intervals: a gcd of inexact
//! polynomials is not defined) leave the polynomials as computed. Every decision goes through
//! [`RootScalar::sign_at`] against the magnitude polynomials that [`TPoly`] carries, roots
//! come from [`RootScalar::roots_between`] (on `f64`: float roots searched in each closed
//! section, so that a root at a section's end is found as an end under the tolerance), and
//! times are ordered by [`crate::poly::order`]. What changes without the reduction, and why
//! the answer is still valid within the tolerance:
//!
//! * **Common factors stay.** L, T, s and b's normals keep the factor the gcd would remove
//!   (e.g. powers of w_a): higher degrees, the same roots in the interval (the factor has
//!   none there, it divides s and det L), and signs that differ from the reduced ones by the
//!   factor's sign, which is constant on the interval and is taken into σ = sign s and sign d
//!   at t₀ like any other. A motion that is singular at t₀ within the tolerance (s or d zero
//!   under it) is [`SweepError::Singular`].
//! * **A normal vanishing at one instant t\*** (eᵢ ∥ Lⱼ then only) is not replaced by its
//!   limit direction, so both planes ±n have gₙ(t\*) = 0 (every term is a multiple of n):
//!   t\* becomes a candidate, where the plane imposes nothing. That is right: at t\* the
//!   generators eᵢ and Lⱼ are parallel, so Z(t\*) is the intersection of the half-spaces of
//!   the *other* planes (its facets are spanned by the other pairs), and the limit plane, a
//!   support plane of Z(t\*), is implied by them. The feature search skips the plane there
//!   (its support features would be whole boxes). Near t\* the plane's value is small against
//!   its magnitude (its terms cancel), so it may be called zero where the limit plane is
//!   negative; but if the origin is outside the limit plane by more than the tolerance, it is
//!   outside Z(t\*), so another plane is negative at t\* and, by continuity, near it: what the
//!   inexact path can accept there is within the tolerance of the other planes.
//! * **Equal planes of different pairs** are recognised only when they are computed
//!   identically (polynomial and magnitude equal: identical representations get identical
//!   decisions on every backend, so keeping one changes nothing); otherwise they are kept
//!   twice, which costs root finding only. The feature search already walks the labels of
//!   every plane (the exact path keeps equal ones for that), in the same order, so a
//!   duplicate only repeats a label's tests. A normal can differ from the canonical one by a
//!   negative factor, which swaps the pair ±n in that order: in a degenerate contact the
//!   inexact path may then report another pair, equally touching.
//! * **Terms and planes zero under the tolerance.** A term whose sign at a section's sample
//!   is zero under the tolerance contributes 0 to that section's gap, and a normal zero under
//!   it drops its planes, as identically zero ones do exactly; a gap zero under the tolerance
//!   is never negative.
//!
//! The `f64` answer is checked against the exact one under the sweep agreement contract
//! ([`crate::sweep::contract::check_sweep_answer`]: the margin is the exact problem's, the
//! same for either route), and its pair against [`pair_touches`] at the exact time. An
//! interval backend (certain decisions, inexact values) runs the same code with the default
//! capability; a decision it cannot make is [`SweepError::Uncertain`], for an exact rerun.
//!
//! # Checking a claimed pair
//!
//! [`pair_touches`] decides whether two features (any kinds) have a common point at a time τ
//! when the boxes touch but do not overlap. The features Fa of a and Fb of b are convex
//! polytopes of dimension at most 2; if they meet, Fa ∩ Fb is a nonempty convex polytope and
//! has a vertex x. Let f ⊆ Fa and g ⊆ Fb be the faces (vertex, edge or 2-face) holding x in
//! their relative interiors; x is a vertex of Fa ∩ Fb, so the affine hulls of f and g meet in
//! the point x alone. That leaves: f a vertex of Fa (lying in Fb); g a vertex of Fb (lying in
//! Fa); two edges crossing at x (two lines meeting in a point lie in a common plane); or an
//! edge crossing a 2-face transversally at a point of its relative interior. The last cannot
//! happen at τ: near x the face's box is the half-space behind the face, so the edge's points
//! just behind it lie in that box's interior, and in the other box, whose interior comes
//! arbitrarily close to them: the interiors would overlap. (Two 2-faces,
//! or an edge in a face's plane, meet in a line or a plane, never in a vertex alone.)
//! Conversely each case gives a common point. So the test is: a vertex of Fa in Fb, a vertex
//! of Fb in Fa (in the box **and on every face plane of the feature**: |coordinate| ≤ half
//! extent on every axis, equal on the feature's fixed axes), or an edge of Fa and a
//! non-parallel edge of Fb that are coplanar (orient3d of their four ends zero) and cross in
//! that plane (each one's ends on both sides of, or on, the other's line). Parallel edges that
//! meet share an end of one lying on the other, found by the vertex tests. All decided
//! exactly on exact backends, at an algebraic τ too.
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

use super::{cross, dot, frame_of, BoxMotion, FrameOf, SweepError};
use crate::poly::{
    earlier, order, sort_tagged_times, sort_times, Algebraic, Poly, PolyError, RootInterval, RootScalar, TPoly,
};
use crate::scalar::{Exact, Interval, Sign};

type Q = BigRational;
type P<S> = TPoly<S>;
type V<S> = [TPoly<S>; 3];

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

/// The kind of a pair of features (a's feature first): vertex–face, face–vertex or edge–edge;
/// `None` for any other combination (vertex–vertex, edge–face, ...), which is not a kind of
/// the format although such features may touch.
pub fn kind_of_pair(a: BoxFeature, b: BoxFeature) -> Option<ContactKind> {
    match (a, b) {
        (BoxFeature::Vertex(_), BoxFeature::Face(_)) => Some(ContactKind::VertexFace),
        (BoxFeature::Face(_), BoxFeature::Vertex(_)) => Some(ContactKind::FaceVertex),
        (BoxFeature::Edge(_), BoxFeature::Edge(_)) => Some(ContactKind::EdgeEdge),
        _ => None,
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

    /// The coordinate signs of the feature's points (−1, +1, or 0 for free), or `None` when
    /// it is not a feature of a box (a vertex id above 7, an edge or face whose ids are not
    /// ascending or do not span one).
    fn signs(&self) -> Option<[i32; 3]> {
        let ids = self.vertices();
        if ids.iter().any(|&v| v > 7) {
            return None;
        }
        let signs = [0, 1, 2].map(|k| {
            let bit = |v: usize| v >> k & 1;
            match ids.iter().all(|&v| bit(v) == bit(ids[0])) {
                true if bit(ids[0]) == 1 => 1,
                true => -1,
                false => 0,
            }
        });
        (BoxFeature::from_signs(signs) == *self).then_some(signs)
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
#[derive(Clone, Debug)]
pub struct BmsContact<S: RootScalar = Q> {
    /// The first time in [t₀, t₁] at which the closed boxes meet (exact backends: a real
    /// algebraic number; `f64`: a float root).
    pub time: S::Time,
    /// Whether the boxes overlap with positive depth at t₀ (then `time` is t₀).
    pub overlapping_at_start: bool,
    /// A pair of features touching at `time` (`None` when `overlapping_at_start`, and, on an
    /// inexact backend only, when no pair passed the tests under the tolerance).
    pub contact: Option<FeaturePair>,
    /// Which gap polynomial `time` is a root of, when the run skipped that plane's own test
    /// (how a run on intervals names its exact time; not part of the answer, ignored by `==`).
    pub(crate) source: Option<GapSource>,
}

impl<S: RootScalar> PartialEq for BmsContact<S> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time
            && self.overlapping_at_start == other.overlapping_at_start
            && self.contact == other.contact
    }
}

/// One plane of a section's BMS.
#[derive(Clone, Debug, PartialEq)]
pub struct BmsPlane<S: RootScalar = Q> {
    /// Which kind of pair spans it.
    pub kind: ContactKind,
    /// a's support feature in the plane's outward direction (inside the section).
    pub a: BoxFeature,
    /// b's support feature in the opposite direction (inside the section).
    pub b: BoxFeature,
    /// gₙ(t) (exact backends: divided by the absolute value of its leading coefficient), with
    /// its magnitude polynomial on inexact backends: the origin is on the plane at its roots,
    /// on the inner side where it is positive. Decide its sign with [`RootScalar::sign_at`].
    pub gap: TPoly<S>,
}

/// A homogeneous section of the route: no normal switches octants strictly inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct BmsSection<S: RootScalar = Q> {
    /// Where it starts (t₀ or an octant-switch time).
    pub start: S::Time,
    /// Where it ends (an octant-switch time or t₁).
    pub end: S::Time,
    /// Its planes: on exact backends the distinct ones, 30 in general position and fewer when
    /// degenerate; on inexact backends every plane with a nonzero normal (equal planes of
    /// different pairs are not recognised as equal, see the module docs).
    pub planes: Vec<BmsPlane<S>>,
}

/// b relative to a: s·y = L x + T, b's face normals N (divided by their common factor where
/// the backend can) and d = N₀·L₀ (det L divided by the same factor), with the signs of s and
/// d on the interval.
struct Relative<S: RootScalar> {
    l: [V<S>; 3],
    t: V<S>,
    s: P<S>,
    sigma: i32,
    n: [V<S>; 3],
    d: P<S>,
    d_sign: i32,
}

/// The sign of `p` at `t` as −1, 0, 1.
fn sign_at<S: RootScalar>(p: &P<S>, t: &S::Time) -> Result<i32, PolyError> {
    Ok(S::sign_at(p, t)?.as_i32())
}

/// The signs of three polynomials at `t`.
fn signs_at<S: RootScalar>(v: &V<S>, t: &S::Time) -> Result<[i32; 3], PolyError> {
    Ok([sign_at(&v[0], t)?, sign_at(&v[1], t)?, sign_at(&v[2], t)?])
}

fn relative<S: RootScalar>(fa: &FrameOf<S>, fb: &FrameOf<S>, t0: &S, reduce: bool) -> Result<Relative<S>, SweepError> {
    let remove_common_factor = |ps: Vec<P<S>>| if reduce { S::remove_common_factor(ps) } else { ps };
    let c = &fa.cols;
    // Rows of adj(A_a): cross products of A_a's columns.
    let adj = [cross(&c[1], &c[2]), cross(&c[2], &c[0]), cross(&c[0], &c[1])];
    let apply = |v: &V<S>| -> V<S> { [0, 1, 2].map(|i| dot(&adj[i], v)) };
    let l = [0, 1, 2].map(|m| apply(&fb.cols[m]).map(|p| p * fa.w.clone()));
    let rel = [0, 1, 2].map(|i| fb.origin[i].clone() * fa.w.clone() - fa.origin[i].clone() * fb.w.clone());
    let t = apply(&rel);
    // The products above and below are the costly part with huge coefficients: steps of the
    // budget between them (a product itself cannot stop).
    crate::budget::tick().map_err(PolyError::from)?;
    let det_a = dot(&c[0], &adj[0]);
    let s = det_a.clone() * fb.w.clone();
    // Divide L, T and s by the gcd of their 13 entries where the backend can (it divides s: no
    // roots in the interval).
    let mut all: Vec<P<S>> = l.iter().flatten().chain(&t).cloned().collect();
    all.push(s);
    let all = remove_common_factor(all);
    let l = [0, 1, 2].map(|m| [0, 1, 2].map(|i| all[3 * m + i].clone()));
    let t = [0, 1, 2].map(|i| all[9 + i].clone());
    let s = all[12].clone();
    // b's face normals Nⱼ = Lⱼ₊₁ × Lⱼ₊₂ (the rows of adj L), divided by the gcd of their nine
    // entries where the backend can (det(adj L) = det(L)² ≠ 0, so the gcd has no roots in the
    // interval either).
    crate::budget::tick().map_err(PolyError::from)?;
    let n_full = [cross(&l[1], &l[2]), cross(&l[2], &l[0]), cross(&l[0], &l[1])];
    let n_all = remove_common_factor(n_full.iter().flatten().cloned().collect());
    let n = [0, 1, 2].map(|j| [0, 1, 2].map(|i| n_all[3 * j + i].clone()));
    crate::budget::tick().map_err(PolyError::from)?;
    let d = dot(&n[0], &l[0]);
    // s and d have no roots in the interval (the motions are nonsingular there: frame_of), so
    // their signs at t₀ hold throughout. An inexact backend may still call one zero under its
    // tolerance (a motion nearly singular at t₀): a singular motion, named by the factor that
    // vanishes (a's determinant, else b's weight or determinant).
    let start = S::time(t0);
    let singular = || -> Result<SweepError, PolyError> {
        let a_vanishes = sign_at(&det_a, &start)? == 0 || sign_at(&fa.w, &start)? == 0;
        Ok(SweepError::Singular { box_index: if a_vanishes { 0 } else { 1 } })
    };
    let (mut sigma, mut d_sign) = (sign_at(&s, &start)?, sign_at(&d, &start)?);
    if !S::EXACT_VALUES && (sigma == 0 || d_sign == 0) {
        // An inexact backend may call s or d zero where it is not: d = det L is of degree up to
        // 24, and in the monomial basis its terms cancel by many orders of magnitude (a value
        // of 4,096 from terms of 10¹⁹). On these backends nothing was divided out (their
        // `remove_common_factor` is the identity), so s = det A_a · w_b and
        // d = w_a³ · det(A_a)² · det A_b: their signs are those of the factors, low-degree
        // polynomials decided well at t₀ (each without roots in the interval: frame_of).
        let det_b = dot(&fb.cols[0], &cross(&fb.cols[1], &fb.cols[2]));
        let (w_a, w_b) = (fa.w_sign.as_i32(), fb.w_sign.as_i32());
        let (sa, sb) = (sign_at(&det_a, &start)?, sign_at(&det_b, &start)?);
        if sigma == 0 {
            sigma = sa * w_b;
        }
        if d_sign == 0 {
            d_sign = w_a * sb * (sa * sa);
        }
    }
    if sigma == 0 || d_sign == 0 {
        return Err(singular()?);
    }
    Ok(Relative { l, t, s, sigma, n, d, d_sign })
}

/// One of the 15 normal directions (each gives two planes, ±n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    FaceOfA(usize),
    FaceOfB(usize),
    EdgeEdge(usize, usize),
}

struct AxisTerms<S: RootScalar> {
    axis: Axis,
    /// n·eₗ.
    a_terms: V<S>,
    /// n·Lₘ.
    b_terms: V<S>,
    /// n·T.
    centre: P<S>,
}

fn unit<S: RootScalar>(i: usize) -> V<S> {
    [0, 1, 2].map(|k| if k == i { TPoly::input(Poly::constant(S::one())) } else { TPoly::zero() })
}

/// The 15 axes' terms; each axis is a step of the query's budget (with huge coefficients the
/// products here are the setup's main cost).
fn axes<S: RootScalar>(rel: &Relative<S>, reduce: bool) -> Result<Vec<AxisTerms<S>>, PolyError> {
    let mut normals: Vec<(Axis, V<S>)> = Vec::with_capacity(15);
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
        .map(|(axis, n)| {
            crate::budget::tick()?;
            let n = if reduce { canonical(n) } else { n };
            // Terms that vanish identically by construction are written as zero, not computed:
            // Nⱼ·Lₘ = 0 for m ≠ j (Nⱼ is a row of adj L) and (eᵢ × Lⱼ)·Lⱼ = 0. Exactly the
            // computation gives zero too; under rounding it leaves a residue whose sign an
            // interval cannot decide (every generic sweep on intervals stopped there).
            let structural_zero = |m: usize| match axis {
                Axis::FaceOfB(j) => m != j,
                Axis::EdgeEdge(_, j) => m == j,
                Axis::FaceOfA(_) => false,
            };
            let b_terms = [0, 1, 2].map(|m| if structural_zero(m) { TPoly::zero() } else { dot(&n, &rel.l[m]) });
            Ok(AxisTerms { axis, b_terms, centre: dot(&n, &rel.t), a_terms: n })
        })
        .collect()
}

/// Where the backend can: the direction of `n` with polynomial and constant factors removed,
/// `n / gcd(components)`, scaled so that its first nonzero component has leading coefficient
/// ±1. Normals that differ by a factor λ(t) then coincide up to sign. Where λ < 0 the pair of
/// planes ±n swaps, and where λ = 0 (n vanishes, e.g. momentarily parallel edges) the
/// canonical direction still gives a valid support inequality: the set of planes describes
/// the same sum. Elsewhere `n` itself (see the module docs).
fn canonical<S: RootScalar>(n: V<S>) -> V<S> {
    let n = S::normalise_scale(S::remove_common_factor(n.to_vec()));
    [0, 1, 2].map(|k| n[k].clone())
}

/// `p` scaled by 1/|lc(p)| where the backend can: the same signs, smaller numbers, and equal
/// planes compare equal.
fn normalised<S: RootScalar>(p: P<S>) -> P<S> {
    S::normalise_scale(vec![p.clone()]).pop().unwrap_or(p)
}

/// A plane of a section: axis `axis` with orientation `orient` (±1), its gap polynomial.
#[derive(Clone)]
struct Plane<S: RootScalar> {
    axis: usize,
    orient: i32,
    /// The signs of the axis's a- and b-terms that resolved the radius's absolute values.
    signs: ([i32; 3], [i32; 3]),
    gap: P<S>,
}

/// Which gap polynomial a contact time is a root of: plane (axis, orient) with the term signs
/// of its section. With the enclosure of a run on intervals it names the exact time
/// ([`exact_contact_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GapSource {
    axis: usize,
    orient: i32,
    signs: ([i32; 3], [i32; 3]),
}

impl<S: RootScalar> Plane<S> {
    fn source(&self) -> GapSource {
        GapSource { axis: self.axis, orient: self.orient, signs: self.signs }
    }
    fn is(&self, own: Option<GapSource>) -> bool {
        own == Some(self.source())
    }
}

fn signed<S: RootScalar>(s: i32, p: &P<S>) -> P<S> {
    match s {
        1 => p.clone(),
        -1 => -p.clone(),
        _ => TPoly::zero(),
    }
}

fn kind_of(axis: Axis) -> ContactKind {
    match axis {
        Axis::FaceOfA(_) => ContactKind::FaceVertex,
        Axis::FaceOfB(_) => ContactKind::VertexFace,
        Axis::EdgeEdge(..) => ContactKind::EdgeEdge,
    }
}

struct Problem<'a, S: RootScalar> {
    a: &'a BoxMotion<S>,
    b: &'a BoxMotion<S>,
    rel: Relative<S>,
    axes: Vec<AxisTerms<S>>,
}

impl<S: RootScalar> Problem<'_, S> {
    /// The planes whose absolute values are resolved by the term signs at `sample` (inside a
    /// section, or t₀ for a zero-length interval). Planes with an identically zero normal are
    /// dropped; all others are kept (equal ones too: the feature search needs every label).
    fn planes_at(&self, sample: &S::Time) -> Result<Vec<Plane<S>>, PolyError> {
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        let mut out = Vec::with_capacity(30);
        for (k, ax) in self.axes.iter().enumerate() {
            let ea = signs_at(&ax.a_terms, sample)?;
            if ea == [0, 0, 0] {
                continue;
            }
            let eb = signs_at(&ax.b_terms, sample)?;
            let radius = self.radius(k, ea, eb, &abs_s);
            let c = signed(self.rel.sigma, &ax.centre);
            for orient in [1, -1] {
                let gap = normalised(radius.clone() - signed(orient, &c));
                out.push(Plane { axis: k, orient, signs: (ea, eb), gap });
            }
        }
        Ok(out)
    }

    /// The support radius of axis `k` (times |s|) with the absolute values of its terms
    /// resolved by the signs `ea`, `eb`.
    fn radius(&self, k: usize, ea: [i32; 3], eb: [i32; 3], abs_s: &P<S>) -> P<S> {
        let ax = &self.axes[k];
        let mut radius = TPoly::zero();
        for l in 0..3 {
            radius = radius + signed(ea[l], &ax.a_terms[l]).scale(&self.a.half[l]) * abs_s.clone();
            radius = radius + signed(eb[l], &ax.b_terms[l]).scale(&self.b.half[l]);
        }
        radius
    }

    /// a's and b's support-feature signs for plane (axis, orient) at time `t`: a point of a
    /// has yₗ = sₐ[l]·hₗ (0: free), a point of b has xₘ = s_b[m]·kₘ.
    fn support_signs(&self, axis: usize, orient: i32, t: &S::Time) -> Result<([i32; 3], [i32; 3]), PolyError> {
        let ax = &self.axes[axis];
        let (ea, eb) = (signs_at(&ax.a_terms, t)?, signs_at(&ax.b_terms, t)?);
        Ok((ea.map(|s| orient * s), eb.map(|s| -self.rel.sigma * orient * s)))
    }

    /// a's point with signs `y` (a vertex), times s: s·y.
    fn a_point(&self, y: &[i32; 3]) -> V<S> {
        [0, 1, 2].map(|l| signed(y[l], &self.rel.s).scale(&self.a.half[l]))
    }

    /// b's point with signs `x` (a vertex), in a's frame times s: L x + T.
    fn b_point(&self, x: &[i32; 3]) -> V<S> {
        let mut p = self.rel.t.clone();
        for ((&xm, lm), km) in x.iter().zip(&self.rel.l).zip(&self.b.half) {
            for (pi, lmi) in p.iter_mut().zip(lm) {
                *pi = pi.clone() + signed(xm, lmi).scale(km);
            }
        }
        p
    }

    /// Whether the point with coordinates c/r₀ (r₀ > 0) per axis, given as the pairs (r, c)
    /// with r = r₀·half extent, lies in the feature `signs` of its box at t: |c| ≤ r on every
    /// axis, and c = ±r exactly (under the backend's decisions) on the feature's fixed axes.
    fn in_feature(bounds: [(P<S>, P<S>); 3], signs: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        for (k, (r, c)) in bounds.into_iter().enumerate() {
            // r − c ≥ 0 and r + c ≥ 0: inside the slab; the face c = +r or c = −r when fixed.
            let (upper, lower) = (sign_at(&(r.clone() - c.clone()), t)?, sign_at(&(r + c), t)?);
            let on = match signs[k] {
                1 => upper == 0,
                -1 => lower == 0,
                _ => true,
            };
            if upper < 0 || lower < 0 || !on {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether b's vertex `x` lies in a's feature `sa` (`[0, 0, 0]`: the box) at time t.
    fn b_vertex_in(&self, x: &[i32; 3], sa: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        let p = self.b_point(x);
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        let bounds = [0, 1, 2].map(|l| (abs_s.scale(&self.a.half[l]), signed(self.rel.sigma, &p[l])));
        Self::in_feature(bounds, sa, t)
    }

    /// Whether a's vertex `y` lies in b's feature `sb` (`[0, 0, 0]`: the box) at time t:
    /// x = L⁻¹(s y − T) = Nᵀ(s y − T)/d.
    fn a_vertex_in(&self, y: &[i32; 3], sb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        let sy = self.a_point(y);
        let q: V<S> = [0, 1, 2].map(|i| sy[i].clone() - self.rel.t[i].clone());
        let abs_d = signed(self.rel.d_sign, &self.rel.d);
        let bounds =
            [0, 1, 2].map(|m| (abs_d.scale(&self.b.half[m]), signed(self.rel.d_sign, &dot(&self.rel.n[m], &q))));
        Self::in_feature(bounds, sb, t)
    }

    /// Whether a's edge (signs `ea`, one free axis) and b's edge (`eb`) meet at time t and are
    /// not parallel: their four ends are coplanar and each edge's ends lie on both sides of
    /// (or on) the other's line in that plane. Parallel edges give `false` (where they meet,
    /// an end of one lies on the other: the callers test vertices first).
    fn edges_meet(&self, ea: &[i32; 3], eb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
        let sub = |u: &V<S>, v: &V<S>| -> V<S> { [0, 1, 2].map(|k| u[k].clone() - v[k].clone()) };
        // Coplanar: the points are a's and b's times the same s ≠ 0, so orient3d of the scaled
        // points vanishes exactly when that of the points does.
        if sign_at(&dot(&cross(&sub(&p2, &p1), &sub(&q1, &p1)), &sub(&q2, &p1)), t)? != 0 {
            return Ok(false);
        }
        // In the common plane, orientations about its normal m = eᵢ × Lⱼ (nonzero: not
        // parallel).
        let orient = |a: &V<S>, b: &V<S>, c: &V<S>| -> Result<i32, PolyError> {
            sign_at(&dot(&cross(&sub(b, a), &sub(c, a)), &m), t)
        };
        let straddles = |x: i32, y: i32| x * y <= 0;
        Ok(straddles(orient(&p1, &p2, &q1)?, orient(&p1, &p2, &q2)?)
            && straddles(orient(&q1, &q2, &p1)?, orient(&q1, &q2, &p2)?))
    }

    /// A touching sub-pair of two support features meeting in a common plane (a degenerate
    /// contact): a vertex of b in a's face, a vertex of a in b's face, or crossing edges.
    fn resolve(&self, sa: [i32; 3], sb: [i32; 3], t: &S::Time) -> Result<Option<FeaturePair>, PolyError> {
        let za = sa.iter().filter(|&&s| s == 0).count();
        let zb = sb.iter().filter(|&&s| s == 0).count();
        if za == 2 {
            for x in completions(sb) {
                if self.b_vertex_in(&x, &sa, t)? {
                    let (a, b) = (BoxFeature::from_signs(sa), BoxFeature::from_signs(x));
                    return Ok(Some(FeaturePair { kind: ContactKind::FaceVertex, a, b }));
                }
            }
        }
        if zb == 2 {
            for y in completions(sa) {
                if self.a_vertex_in(&y, &sb, t)? {
                    let (a, b) = (BoxFeature::from_signs(y), BoxFeature::from_signs(sb));
                    return Ok(Some(FeaturePair { kind: ContactKind::VertexFace, a, b }));
                }
            }
        }
        for ea in edges(sa) {
            for eb in edges(sb) {
                if self.edges_meet(&ea, &eb, t)? {
                    let (a, b) = (BoxFeature::from_signs(ea), BoxFeature::from_signs(eb));
                    return Ok(Some(FeaturePair { kind: ContactKind::EdgeEdge, a, b }));
                }
            }
        }
        Ok(None)
    }

    /// Whether a's feature `sa` and b's feature `sb` have a common point at t, given that the
    /// boxes touch and do not overlap then (see [`pair_touches`]).
    fn features_meet(&self, sa: [i32; 3], sb: [i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        for y in completions(sa) {
            if self.a_vertex_in(&y, &sb, t)? {
                return Ok(true);
            }
        }
        for x in completions(sb) {
            if self.b_vertex_in(&x, &sa, t)? {
                return Ok(true);
            }
        }
        for ea in edges(sa) {
            for eb in edges(sb) {
                if self.edges_meet(&ea, &eb, t)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether a's edge (free axis of `sa`) is parallel to b's edge (free axis of `sb`) at t.
    fn parallel(&self, sa: &[i32; 3], sb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        let (Some(i), Some(j)) = (sa.iter().position(|&s| s == 0), sb.iter().position(|&s| s == 0)) else {
            return Ok(false);
        };
        for p in cross(&unit(i), &self.rel.l[j]) {
            if sign_at(&p, t)? != 0 {
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
    ///
    /// `own`: the plane whose root `t` is, known to vanish there (see [`Problem::inside`]).
    fn features(
        &self,
        planes: &[Plane<S>],
        t: &S::Time,
        own: Option<GapSource>,
    ) -> Result<Option<FeaturePair>, PolyError> {
        let mut degenerate: Vec<([i32; 3], [i32; 3])> = Vec::new();
        for p in planes {
            if !p.is(own) && sign_at(&p.gap, t)? != 0 {
                continue;
            }
            let (sa, sb) = self.support_signs(p.axis, p.orient, t)?;
            if sa == [0, 0, 0] {
                // The normal vanishes at t: with the exact reduction never (canonical normals
                // do not vanish); without it, edges parallel at this instant only. Not a plane
                // of the sum at t: the others describe it (see the module docs).
                continue;
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
        // Exactly: unreachable by the argument in the module docs (some plane through the
        // origin has a touching pair, or a degenerate one resolves); never observed. Under a
        // tolerance the tests of a nearly degenerate contact may all decline. Reported as no
        // pair rather than a panic on user data.
        Ok(None)
    }

    /// The answer when the boxes meet at t₀ (every plane has gₙ(t₀) ≥ 0): overlapping with
    /// positive depth when every plane with a nonzero normal at t₀ has gₙ(t₀) > 0, else
    /// touching, with a touching pair.
    fn at_start(&self, planes: &[Plane<S>], t0: &S) -> Result<BmsContact<S>, PolyError> {
        let time = S::time(t0);
        let mut touching = false;
        for p in planes {
            if sign_at(&p.gap, &time)? == 0 && signs_at(&self.axes[p.axis].a_terms, &time)? != [0, 0, 0] {
                touching = true;
                break;
            }
        }
        if !touching {
            return Ok(BmsContact { time, overlapping_at_start: true, contact: None, source: None });
        }
        let contact = self.features(planes, &time, None)?;
        Ok(BmsContact { time, overlapping_at_start: false, contact, source: None })
    }

    /// Whether the boxes are apart at every time of the enclosure `h` (a cluster's hull), by
    /// one axis whose plane is negative throughout `h`.
    ///
    /// Over `h` some terms of an axis may change sign (the normals switching in the cluster),
    /// so the radius Σ|termₖ| is not one polynomial there. It is the largest of the signed sums
    /// Σ εₖ·termₖ over the sign choices ε of the undecided terms (the decided ones keep their
    /// sign), so the plane is negative at every t of `h` when every choice's gap
    /// Σ εₖ·termₖ − |centre| is negative over all of `h`. With no undecided terms this is the
    /// plane's own test. Axes with more than four undecided terms are not tried.
    fn apart_throughout(&self, h: &S::Time) -> Result<bool, PolyError> {
        let decided = |p: &P<S>| -> Result<Option<i32>, PolyError> {
            match sign_at(p, h) {
                Ok(s) => Ok(Some(s)),
                Err(PolyError::Uncertain(_)) => Ok(None),
                Err(e) => Err(e),
            }
        };
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        'axes: for (k, ax) in self.axes.iter().enumerate() {
            let c = signed(self.rel.sigma, &ax.centre);
            let orient = match decided(&c)? {
                Some(o) if o != 0 => o,
                _ => continue,
            };
            let mut terms = [None; 6];
            for (slot, p) in terms.iter_mut().zip(ax.a_terms.iter().chain(&ax.b_terms)) {
                *slot = decided(p)?;
            }
            let open: Vec<usize> = (0..6).filter(|&i| terms[i].is_none()).collect();
            if open.len() > 4 {
                continue;
            }
            for choice in 0..1u32 << open.len() {
                let mut e = terms.map(|s| s.unwrap_or(1));
                for (bit, &i) in open.iter().enumerate() {
                    e[i] = if choice >> bit & 1 == 1 { -1 } else { 1 };
                }
                let (ea, eb) = ([e[0], e[1], e[2]], [e[3], e[4], e[5]]);
                let gap = self.radius(k, ea, eb, &abs_s) - signed(orient, &c);
                if decided(&gap)? != Some(-1) {
                    continue 'axes;
                }
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether every plane has gₙ(t) ≥ 0, i.e. the boxes meet at t.
    ///
    /// `own`: the plane `t` is a root of, whose test is skipped (it vanishes there by
    /// construction; on intervals a sign at an enclosure of one's own root is never decided).
    fn inside(&self, planes: &[Plane<S>], t: &S::Time, own: Option<GapSource>) -> Result<bool, PolyError> {
        for p in planes {
            if !p.is(own) && sign_at(&p.gap, t)? < 0 {
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

fn setup<'a, S: RootScalar>(
    a: &'a BoxMotion<S>,
    b: &'a BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Problem<'a, S>, SweepError> {
    setup_with(a, b, t0, t1, true)
}

/// The problem, with the backend's reductions (common factors, canonical normals) when
/// `reduce`, or exactly as a backend without them computes it (for [`exact_contact_time`]).
fn setup_with<'a, S: RootScalar>(
    a: &'a BoxMotion<S>,
    b: &'a BoxMotion<S>,
    t0: &S,
    t1: &S,
    reduce: bool,
) -> Result<Problem<'a, S>, SweepError> {
    // Input data: raw signs, decided on every backend.
    if (t1.clone() - t0.clone()).sign().map_err(PolyError::from)? == Sign::Negative {
        return Err(SweepError::EmptyInterval);
    }
    for (k, bx) in [a, b].into_iter().enumerate() {
        for (axis, h) in bx.half.iter().enumerate() {
            if h.sign().map_err(PolyError::from)? != Sign::Positive {
                return Err(SweepError::BadHalfExtent { box_index: k, axis });
            }
        }
    }
    let (fa, fb) = (frame_of(a, 0, t0, t1)?, frame_of(b, 1, t0, t1)?);
    let rel = relative(&fa, &fb, t0, reduce)?;
    let axes = axes(&rel, reduce)?;
    Ok(Problem { a, b, rel, axes })
}

/// A bound of the route's sections: t₀, t₁, an octant-switch time, or (on a backend whose
/// times may fail to order, see [`RootScalar::time_hull`]) a *cluster*: switch times whose
/// enclosures overlap, as their hull. Normals may switch octants inside a cluster in an order
/// the backend cannot tell, so the route crosses a cluster only where it proves the boxes
/// apart throughout it ([`Problem::apart_throughout`]).
struct Bound<S: RootScalar> {
    time: S::Time,
    cluster: bool,
}

/// The octant-switch times in (t₀, t₁): roots of the 18 sign polynomials, sorted, distinct;
/// on a backend with [`RootScalar::time_hull`], times it cannot order grouped as clusters.
///
/// Clusters are not rare on intervals: under a rigid rotation b's face normals are
/// proportional to its edge directions (Nⱼ = c(t)·Lⱼ with c ≠ 0 on the interval), so
/// entries of N and L switch at exactly the same times, and no enclosure can order two equal
/// irrational times.
fn switch_times<S: RootScalar>(rel: &Relative<S>, t0: &S, t1: &S) -> Result<Vec<Bound<S>>, PolyError> {
    let (start, end) = (S::time(t0), S::time(t1));
    let mut times = Vec::new();
    for col in rel.l.iter().chain(rel.n.iter()) {
        for p in col {
            // A constant has no roots; a polynomial zero (within the tolerance) switches
            // nothing: its term contributes 0 throughout.
            if p.p.degree().is_some_and(|d| d > 0) && !p.is_zero()? {
                for r in S::roots_in(&p.p, t0, t1)? {
                    if earlier::<S>(&start, &r)? && earlier::<S>(&r, &end)? {
                        times.push(r);
                    }
                }
            }
        }
    }
    let mut sorted = times.clone();
    match sort_times::<S>(&mut sorted) {
        Ok(()) => Ok(sorted.into_iter().map(|time| Bound { time, cluster: false }).collect()),
        Err(e) => clusters::<S>(times).ok_or(e.into()),
    }
}

/// Times grouped into clusters of overlapping enclosures, in increasing order (`None` when
/// the backend has no hulls). Sorted by their nearest doubles first; a time that the last
/// group's hull does not precede joins it.
fn clusters<S: RootScalar>(mut times: Vec<S::Time>) -> Option<Vec<Bound<S>>> {
    times.sort_by(|a, b| S::time_to_f64(a).total_cmp(&S::time_to_f64(b)));
    let mut out: Vec<Bound<S>> = Vec::new();
    for t in times {
        if let Some(last) = out.last_mut() {
            match order::<S>(&last.time, &t) {
                Ok(std::cmp::Ordering::Less) => {}
                Ok(std::cmp::Ordering::Equal) => continue,
                _ => {
                    last.time = S::time_hull(&last.time, &t)?;
                    last.cluster = true;
                    continue;
                }
            }
        }
        out.push(Bound { time: t, cluster: false });
    }
    // Each time's double lies in its enclosure, so the groups come out increasing; checked.
    let increasing = out.windows(2).all(|w| matches!(order::<S>(&w[0].time, &w[1].time), Ok(std::cmp::Ordering::Less)));
    increasing.then_some(out)
}

/// A time strictly inside the section [lo, hi] (exact: a rational), lo itself when lo = hi.
fn sample<S: RootScalar>(lo: &S::Time, hi: &S::Time) -> Result<S::Time, PolyError> {
    if order::<S>(lo, hi)? == std::cmp::Ordering::Equal {
        return Ok(lo.clone());
    }
    S::between(lo, hi)
}

/// The section bounds t₀, the switch times (or clusters), t₁ (t₀ twice for a zero-length
/// interval).
fn bounds<S: RootScalar>(rel: &Relative<S>, t0: &S, t1: &S) -> Result<Vec<Bound<S>>, PolyError> {
    let (start, end) = (S::time(t0), S::time(t1));
    let mut b = vec![Bound { time: start.clone(), cluster: false }];
    if earlier::<S>(&start, &end)? {
        b.extend(switch_times(rel, t0, t1)?);
    }
    b.push(Bound { time: end, cluster: false });
    Ok(b)
}

/// Planes with distinct gap polynomials (what the search needs), with their first label.
///
/// Equal means equal representations (polynomial and magnitude): planes that are the same
/// computed object get the same decisions on every backend, so keeping one changes nothing.
/// Exactly this finds every equal plane; under rounding, equal planes of different pairs
/// usually differ in the last bits and are kept twice, which costs time only.
fn distinct_gaps<S: RootScalar>(planes: &[Plane<S>]) -> Vec<usize> {
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap) {
            keep.push(k);
        }
    }
    keep
}

/// Planes with distinct outward direction and gap (as for [`distinct_gaps`]), with their
/// first label.
fn distinct_planes<S: RootScalar>(pr: &Problem<'_, S>, planes: &[Plane<S>]) -> Vec<usize> {
    let dir = |p: &Plane<S>| pr.axes[p.axis].a_terms.clone().map(|a| signed(p.orient, &a));
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap && dir(&planes[j]) == dir(p)) {
            keep.push(k);
        }
    }
    keep
}

/// The homogeneous sections of the route over [t₀, t₁] and their BMS planes.
///
/// Errors: as [`first_contact_bms`].
pub fn bms_sections<S: RootScalar>(
    a: &BoxMotion<S>,
    b: &BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Vec<BmsSection<S>>, SweepError> {
    let pr = setup(a, b, t0, t1)?;
    let bounds = bounds(&pr.rel, t0, t1)?;
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let (lo, hi) = (&w[0].time, &w[1].time);
        let q = sample::<S>(lo, hi)?;
        let planes = pr.planes_at(&q)?;
        let mut list = Vec::new();
        for k in distinct_planes(&pr, &planes) {
            let p = &planes[k];
            let (sa, sb) = pr.support_signs(p.axis, p.orient, &q)?;
            list.push(BmsPlane {
                kind: kind_of(pr.axes[p.axis].axis),
                a: BoxFeature::from_signs(sa),
                b: BoxFeature::from_signs(sb),
                gap: p.gap.clone(),
            });
        }
        out.push(BmsSection { start: lo.clone(), end: hi.clone(), planes: list });
    }
    Ok(out)
}

/// The first time in [t₀, t₁] at which the two boxes meet (closed boxes, closed interval), by
/// the boundary of the Minkowski sum (see the [module docs](crate::sweep::bms)), with a
/// touching feature pair.
///
/// Generic over the backend: exact (`BigRational`, times [`Algebraic`])
/// or `f64` (float roots, decisions under the tolerance; see the module docs for what differs).
///
/// Errors: `t1 < t0`, a non-positive half extent, a projective motion, a motion singular
/// somewhere in the interval ([`SweepError::Singular`]), the exact root finder's limits, and
/// [`SweepError::Uncertain`] from a backend that cannot decide.
pub fn first_contact_bms<S: RootScalar>(
    a: &BoxMotion<S>,
    b: &BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Option<BmsContact<S>>, SweepError> {
    let pr = setup(a, b, t0, t1)?;
    let start = S::time(t0);
    let bounds = bounds(&pr.rel, t0, t1)?;
    for (index, w) in bounds.windows(2).enumerate() {
        crate::budget::tick()?;
        let (lo, hi) = (&w[0].time, &w[1].time);
        // Crossing a cluster of switch times (intervals only): no contact inside it, proved,
        // or the run cannot decide.
        if w[0].cluster && !pr.apart_throughout(lo)? {
            return Err(PolyError::from(crate::scalar::Uncertain::Close).into());
        }
        let q = sample::<S>(lo, hi)?;
        let planes = pr.planes_at(&q)?;
        if index == 0 && pr.inside(&planes, &start, None)? {
            return Ok(Some(pr.at_start(&planes, t0)?));
        }
        // Roots of each distinct plane in the closed section; a plane negative on the whole
        // section puts b's centre outside throughout: skip the section. The section's start
        // needs no test: it is t₀ (tested above) or was the end of the previous section, where
        // a contact is a root of one of its planes.
        let mut candidates: Vec<(S::Time, Option<GapSource>)> = Vec::new();
        let mut outside = false;
        let mut order: Vec<Plane<S>> = Vec::new();
        for k in distinct_gaps(&planes) {
            let p = &planes[k];
            if p.gap.is_zero()? {
                continue; // on the plane throughout: never negative
            }
            let roots = S::roots_between(&p.gap.p, lo, hi, t0, t1)?;
            if sign_at(&p.gap, &q)? < 0 {
                if roots.is_empty() {
                    outside = true;
                    break;
                }
                order.insert(0, p.clone()); // likely to reject candidates: test first
            } else {
                order.push(p.clone());
            }
            // On backends with certain decisions a root of a plane whose gap no other plane
            // shares (as computed) skips that plane's own test. Shared gaps are tested: under
            // rounding, equal representations need not mean equal polynomials.
            let own =
                (S::CERTAIN_DECISIONS && planes.iter().filter(|q| q.gap == p.gap).count() == 1).then(|| p.source());
            candidates.extend(roots.into_iter().map(|t| (t, own)));
        }
        if outside {
            continue;
        }
        // Increasing; of equal times the first listed is kept.
        sort_tagged_times::<S, _>(&mut candidates)?;
        for (t, own) in candidates {
            crate::budget::tick()?;
            if pr.inside(&order, &t, own)? {
                let contact = pr.features(&planes, &t, own)?;
                return Ok(Some(BmsContact { time: t, overlapping_at_start: false, contact, source: own }));
            }
        }
    }
    Ok(None)
}

/// The exact first contact time, constructed from a run on intervals that decided it: the
/// root, in the run's enclosure, of the exact gap polynomial the run's time is a root of.
///
/// That polynomial is the one the run computed, on exact numbers: the problem set up without
/// the exact backend's reductions (which intervals do not make; a reduced gap may differ from
/// it by a factor that changes sign), the same plane and term signs. The run's enclosure holds
/// exactly one root of every polynomial with coefficients in its interval coefficients
/// ([`crate::poly::interval_roots`]), this one among them, and its decisions are the exact
/// ones, so that root is the exact first time. [`Algebraic::new`] checks that the enclosure
/// isolates a root; an error means the construction does not apply and the caller runs the
/// exact algorithm.
pub(crate) fn exact_contact_time(
    a: &BoxMotion<Exact>,
    b: &BoxMotion<Exact>,
    t0: &Exact,
    t1: &Exact,
    source: GapSource,
    enclosure: &Interval,
) -> Result<Algebraic, SweepError> {
    let pr = setup_with(a, b, t0, t1, false)?;
    let ax = pr.axes.get(source.axis).ok_or(PolyError::NotIsolating)?;
    let abs_s = signed(pr.rel.sigma, &pr.rel.s);
    let c = signed(pr.rel.sigma, &ax.centre);
    let gap = pr.radius(source.axis, source.signs.0, source.signs.1, &abs_s) - signed(source.orient, &c);
    let p = Poly::from_coeffs(gap.p.coeffs().iter().map(Exact::to_big_rational).collect());
    let q = |x: f64| Q::from_float(x).ok_or(PolyError::NotIsolating);
    let interval = if enclosure.is_point() {
        RootInterval::Point(q(enclosure.lo())?)
    } else {
        RootInterval::Open { lo: q(enclosure.lo())?, hi: q(enclosure.hi())? }
    };
    Ok(Algebraic::new(&p, interval)?)
}

/// Whether feature `pair_a` of box a and feature `pair_b` of box b have a common point at
/// `time`, decided (exactly on exact backends): the claim check of a reported feature pair.
///
/// Valid when the boxes touch but do not overlap at `time`, as at a first contact time that
/// is not t₀ with overlap (see the module docs, *Checking a claimed pair*). Any kinds of
/// feature: vertex, edge or face of either box. At a time where the boxes overlap with
/// positive depth, `true` is still right (each test finds a common point) but `false` may not
/// be (an edge may pierce a face).
///
/// Errors: as [`first_contact_bms`] for the boxes and the interval (the motions are checked on
/// [t₀, t₁]), [`SweepError::BadFeature`] for a feature that is not one of the box's, and
/// [`SweepError::TimeOutside`] when `time` is not in [t₀, t₁].
pub fn pair_touches<S: RootScalar>(
    a: &BoxMotion<S>,
    b: &BoxMotion<S>,
    t0: &S,
    t1: &S,
    time: &S::Time,
    pair_a: BoxFeature,
    pair_b: BoxFeature,
) -> Result<bool, SweepError> {
    let pr = setup(a, b, t0, t1)?;
    let sa = pair_a.signs().ok_or(SweepError::BadFeature { box_index: 0 })?;
    let sb = pair_b.signs().ok_or(SweepError::BadFeature { box_index: 1 })?;
    if earlier::<S>(time, &S::time(t0))? || earlier::<S>(&S::time(t1), time)? {
        return Err(SweepError::TimeOutside);
    }
    Ok(pr.features_meet(sa, sb, time)?)
}
