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

mod features;
mod relative;
mod sections;

use features::*;
pub(crate) use relative::GapSource;
use relative::*;
use sections::*;

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
