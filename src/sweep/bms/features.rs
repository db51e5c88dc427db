//! The problem on one section and the feature search: which features of a and b touch on a
//! BMS plane (the octant of each plane's normal, the features' bounds), the state at t₀, and
//! whether the boxes are apart throughout a cluster of switch times.

use super::*;

pub(super) struct Problem<'a, S: RootScalar> {
    pub(super) a: &'a BoxMotion<S>,
    pub(super) b: &'a BoxMotion<S>,
    pub(super) rel: Relative<S>,
    pub(super) axes: Vec<AxisTerms<S>>,
}

impl<S: RootScalar> Problem<'_, S> {
    /// The planes whose absolute values are resolved by the term signs at `sample` (inside a
    /// section, or t₀ for a zero-length interval). Planes with an identically zero normal are
    /// dropped; all others are kept (equal ones too: the feature search needs every label).
    pub(super) fn planes_at(&self, sample: &S::Time) -> Result<Vec<Plane<S>>, PolyError> {
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
    pub(super) fn radius(&self, k: usize, ea: [i32; 3], eb: [i32; 3], abs_s: &P<S>) -> P<S> {
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
    pub(super) fn support_signs(
        &self,
        axis: usize,
        orient: i32,
        t: &S::Time,
    ) -> Result<([i32; 3], [i32; 3]), PolyError> {
        let ax = &self.axes[axis];
        let (ea, eb) = (signs_at(&ax.a_terms, t)?, signs_at(&ax.b_terms, t)?);
        Ok((ea.map(|s| orient * s), eb.map(|s| -self.rel.sigma * orient * s)))
    }

    /// a's point with signs `y` (a vertex), times s: s·y.
    pub(super) fn a_point(&self, y: &[i32; 3]) -> V<S> {
        [0, 1, 2].map(|l| signed(y[l], &self.rel.s).scale(&self.a.half[l]))
    }

    /// b's point with signs `x` (a vertex), in a's frame times s: L x + T.
    pub(super) fn b_point(&self, x: &[i32; 3]) -> V<S> {
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
    pub(super) fn in_feature(bounds: [(P<S>, P<S>); 3], signs: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn b_vertex_in(&self, x: &[i32; 3], sa: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
        let p = self.b_point(x);
        let abs_s = signed(self.rel.sigma, &self.rel.s);
        let bounds = [0, 1, 2].map(|l| (abs_s.scale(&self.a.half[l]), signed(self.rel.sigma, &p[l])));
        Self::in_feature(bounds, sa, t)
    }

    /// Whether a's vertex `y` lies in b's feature `sb` (`[0, 0, 0]`: the box) at time t:
    /// x = L⁻¹(s y − T) = Nᵀ(s y − T)/d.
    pub(super) fn a_vertex_in(&self, y: &[i32; 3], sb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn edges_meet(&self, ea: &[i32; 3], eb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn resolve(&self, sa: [i32; 3], sb: [i32; 3], t: &S::Time) -> Result<Option<FeaturePair>, PolyError> {
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
    pub(super) fn features_meet(&self, sa: [i32; 3], sb: [i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn parallel(&self, sa: &[i32; 3], sb: &[i32; 3], t: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn features(
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
    pub(super) fn at_start(&self, planes: &[Plane<S>], t0: &S) -> Result<BmsContact<S>, PolyError> {
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
    pub(super) fn apart_throughout(&self, h: &S::Time) -> Result<bool, PolyError> {
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
    pub(super) fn inside(&self, planes: &[Plane<S>], t: &S::Time, own: Option<GapSource>) -> Result<bool, PolyError> {
        for p in planes {
            if !p.is(own) && sign_at(&p.gap, t)? < 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Every vertex sign vector of the feature `signs` (its zeros filled with ±1), in id order.
pub(super) fn completions(signs: [i32; 3]) -> Vec<[i32; 3]> {
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
pub(super) fn edges(signs: [i32; 3]) -> Vec<[i32; 3]> {
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

pub(super) fn vertex_id(v: &[i32; 3]) -> usize {
    (0..3).filter(|&k| v[k] > 0).map(|k| 1 << k).sum()
}

pub(super) fn setup<'a, S: RootScalar>(
    a: &'a BoxMotion<S>,
    b: &'a BoxMotion<S>,
    t0: &S,
    t1: &S,
) -> Result<Problem<'a, S>, SweepError> {
    setup_with(a, b, t0, t1, true)
}

/// The problem, with the backend's reductions (common factors, canonical normals) when
/// `reduce`, or exactly as a backend without them computes it (for [`exact_contact_time`]).
pub(super) fn setup_with<'a, S: RootScalar>(
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
