//! Steps 1–3 of the box sweep (see the module docs of `bms`): b's motion relative to a, the
//! 15 axes of the Minkowski sum's facets with their terms, and the BMS planes.

use super::*;

/// b relative to a: s·y = L x + T, b's face normals N (divided by their common factor where
/// the backend can) and d = N₀·L₀ (det L divided by the same factor), with the signs of s and
/// d on the interval.
pub(super) struct Relative<S: RootScalar> {
    pub(super) l: [V<S>; 3],
    pub(super) t: V<S>,
    pub(super) s: P<S>,
    pub(super) sigma: i32,
    pub(super) n: [V<S>; 3],
    pub(super) d: P<S>,
    pub(super) d_sign: i32,
}

/// The sign of `p` at `t` as −1, 0, 1.
pub(super) fn sign_at<S: RootScalar>(p: &P<S>, t: &S::Time) -> Result<i32, PolyError> {
    Ok(S::sign_at(p, t)?.as_i32())
}

/// The signs of three polynomials at `t`.
pub(super) fn signs_at<S: RootScalar>(v: &V<S>, t: &S::Time) -> Result<[i32; 3], PolyError> {
    Ok([sign_at(&v[0], t)?, sign_at(&v[1], t)?, sign_at(&v[2], t)?])
}

pub(super) fn relative<S: RootScalar>(
    fa: &FrameOf<S>,
    fb: &FrameOf<S>,
    t0: &S,
    reduce: bool,
) -> Result<Relative<S>, SweepError> {
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
pub(super) enum Axis {
    FaceOfA(usize),
    FaceOfB(usize),
    EdgeEdge(usize, usize),
}

pub(super) struct AxisTerms<S: RootScalar> {
    pub(super) axis: Axis,
    /// n·eₗ.
    pub(super) a_terms: V<S>,
    /// n·Lₘ.
    pub(super) b_terms: V<S>,
    /// n·T.
    pub(super) centre: P<S>,
}

pub(super) fn unit<S: RootScalar>(i: usize) -> V<S> {
    [0, 1, 2].map(|k| if k == i { TPoly::input(Poly::constant(S::one())) } else { TPoly::zero() })
}

/// The 15 axes' terms; each axis is a step of the query's budget (with huge coefficients the
/// products here are the setup's main cost).
pub(super) fn axes<S: RootScalar>(rel: &Relative<S>, reduce: bool) -> Result<Vec<AxisTerms<S>>, PolyError> {
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
pub(super) fn canonical<S: RootScalar>(n: V<S>) -> V<S> {
    let n = S::normalise_scale(S::remove_common_factor(n.to_vec()));
    [0, 1, 2].map(|k| n[k].clone())
}

/// `p` scaled by 1/|lc(p)| where the backend can: the same signs, smaller numbers, and equal
/// planes compare equal.
pub(super) fn normalised<S: RootScalar>(p: P<S>) -> P<S> {
    S::normalise_scale(vec![p.clone()]).pop().unwrap_or(p)
}

/// A plane of a section: axis `axis` with orientation `orient` (±1), its gap polynomial.
#[derive(Clone)]
pub(super) struct Plane<S: RootScalar> {
    pub(super) axis: usize,
    pub(super) orient: i32,
    /// The signs of the axis's a- and b-terms that resolved the radius's absolute values.
    pub(super) signs: ([i32; 3], [i32; 3]),
    pub(super) gap: P<S>,
}

/// Which gap polynomial a contact time is a root of: plane (axis, orient) with the term signs
/// of its section. With the enclosure of a run on intervals it names the exact time
/// ([`exact_contact_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GapSource {
    pub(super) axis: usize,
    pub(super) orient: i32,
    pub(super) signs: ([i32; 3], [i32; 3]),
}

impl<S: RootScalar> Plane<S> {
    pub(super) fn source(&self) -> GapSource {
        GapSource { axis: self.axis, orient: self.orient, signs: self.signs }
    }
    pub(super) fn is(&self, own: Option<GapSource>) -> bool {
        own == Some(self.source())
    }
}

pub(super) fn signed<S: RootScalar>(s: i32, p: &P<S>) -> P<S> {
    match s {
        1 => p.clone(),
        -1 => -p.clone(),
        _ => TPoly::zero(),
    }
}

pub(super) fn kind_of(axis: Axis) -> ContactKind {
    match axis {
        Axis::FaceOfA(_) => ContactKind::FaceVertex,
        Axis::FaceOfB(_) => ContactKind::VertexFace,
        Axis::EdgeEdge(..) => ContactKind::EdgeEdge,
    }
}
