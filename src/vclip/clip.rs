//! Algorithm 1 (clipping an edge against a Voronoi region) and the derivative sign tests.

use super::geometry::{along, cmp_sign, dot_sign};
use super::voronoi::{edge_ends, Feat, VPlane};
use crate::brep::Solid;
use crate::geom::{dot, dot_magnitude, norm2, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// How an edge meets a Voronoi region.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Exclusion {
    /// Some part [λ_lo, λ_hi] lies in the region.
    None,
    /// Both endpoints are outside one plane, whose neighbour is given.
    Simple(Feat),
    /// Clipped away by two different planes (λ_lo > λ_hi).
    Compound,
}

/// The result of clipping the edge t → h: the parameters λ_lo ≤ λ_hi (exact rationals
/// d_t / (d_t − d_h)) and the neighbours whose planes set them.
#[derive(Clone, Debug)]
pub(crate) struct Clip<S: Scalar> {
    pub lo: S,
    pub hi: S,
    pub n_lo: Option<Feat>,
    pub n_hi: Option<Feat>,
    pub exclusion: Exclusion,
}

/// Algorithm 1: clip the segment `t`–`h` against the region bounded by `planes`.
pub(crate) fn clip_edge<S: Scalar>(t: &Point3<S>, h: &Point3<S>, planes: &[VPlane<S>]) -> Decision<Clip<S>> {
    let mut c = Clip { lo: S::zero(), hi: S::one(), n_lo: None, n_hi: None, exclusion: Exclusion::None };
    for p in planes {
        // Both ends against one magnitude, so that the signs are consistent: d_t < 0 ≤ d_h
        // (or the reverse) whenever they differ, and λ below has a nonzero divisor.
        let (dt, dh) = (p.eval(t), p.eval(h));
        let m = || p.magnitude(t) + p.magnitude(h);
        let (st, sh) = (dt.sign_scaled(m)?, dh.sign_scaled(m)?);
        if st == Sign::Negative && sh == Sign::Negative {
            c.n_lo = Some(p.neighbor);
            c.n_hi = Some(p.neighbor);
            c.exclusion = Exclusion::Simple(p.neighbor);
            return Ok(c);
        } else if st == Sign::Negative {
            let lambda = dt.clone() / (dt - dh);
            if cmp_sign(&lambda, &c.lo, S::zero(), S::zero())? == Sign::Positive {
                c.lo = lambda;
                c.n_lo = Some(p.neighbor);
                if cmp_sign(&c.lo, &c.hi, S::zero(), S::zero())? == Sign::Positive {
                    c.exclusion = Exclusion::Compound;
                    return Ok(c);
                }
            }
        } else if sh == Sign::Negative {
            let lambda = dt.clone() / (dt - dh);
            if cmp_sign(&lambda, &c.hi, S::zero(), S::zero())? == Sign::Negative {
                c.hi = lambda;
                c.n_hi = Some(p.neighbor);
                if cmp_sign(&c.lo, &c.hi, S::zero(), S::zero())? == Sign::Positive {
                    c.exclusion = Exclusion::Compound;
                    return Ok(c);
                }
            }
        }
    }
    Ok(c)
}

/// Σ|uᵢ|(|pᵢ| + |aᵢ|): the magnitude of u · (p − a) counted on the terms p and a, not on
/// their difference (which may cancel while p, computed from a clip parameter, carries a
/// rounding error relative to |p|).
fn diff_magnitude<S: Scalar>(u: &Vector3<S>, p: &Point3<S>, a: &Point3<S>) -> S {
    dot_magnitude(u, &p.coords) + dot_magnitude(u, &a.coords)
}

/// The sign of d/dλ of the distance from e(λ) = `p` to feature `x` of `s`, for an edge of
/// direction `u`: the sign of u · (p − c) with c the closest point of `x` to `p`, computed
/// without division (for an edge, scaled by its squared length). Magnitudes count the terms
/// of p − a (|p| + |a|), since `p` is a computed point.
///
/// `on` is the neighbour of `x` whose Voronoi plane `p` lies on by construction (the plane
/// that clipped the edge there). When `x` is an edge and `on` one of its endpoints, `p` is
/// exactly on the plane through that endpoint normal to the edge, so the endpoint is the
/// closest point: the test is u · (p − endpoint), instead of deciding that (p − a) · d is zero
/// (certain in exact arithmetic, never decidable on intervals, where p is an enclosure).
pub(crate) fn derivative_sign<S: Scalar>(
    s: &Solid<S>,
    x: Feat,
    p: &Point3<S>,
    u: &Vector3<S>,
    on: Option<Feat>,
) -> Decision<Sign> {
    match x {
        Feat::V(v) => {
            let a = s.vertex(v);
            dot(u, &(p - a)).sign_scaled(|| diff_magnitude(u, p, a))
        }
        Feat::E(e) => {
            let (ai, bi) = edge_ends(s, e);
            let (a, b) = (s.vertex(ai), s.vertex(bi));
            if let Some(Feat::V(w)) = on {
                if w == ai || w == bi {
                    let c = s.vertex(w);
                    return dot(u, &(p - c)).sign_scaled(|| diff_magnitude(u, p, c));
                }
            }
            let (d, w): (Vector3<S>, Vector3<S>) = (b - a, p - a);
            let along_edge = dot(&w, &d);
            let len2 = norm2(&d);
            let wd = diff_magnitude(&d, p, a);
            if along_edge.sign_scaled(|| wd.clone())? != Sign::Positive {
                return dot(u, &w).sign_scaled(|| diff_magnitude(u, p, a));
            }
            if cmp_sign(&along_edge, &len2, wd.clone(), len2.clone())? != Sign::Negative {
                return dot(u, &(p - b)).sign_scaled(|| diff_magnitude(u, p, b));
            }
            // u · (w·|d|² − (w·d) d)
            let (uw, ud) = (dot(u, &w), dot(u, &d));
            let m = diff_magnitude(u, p, a) * len2.clone() + wd * dot_magnitude(u, &d);
            (uw * len2 - along_edge * ud).sign_scaled(|| m)
        }
        Feat::F(f) => {
            let plane = s.plane(f);
            let side = plane.eval(p).sign_scaled(|| plane.eval_magnitude(p))?;
            Ok(side * dot_sign(u, &plane.normal)?)
        }
    }
}

/// The point at parameter λ on t → h.
pub(crate) fn at<S: Scalar>(t: &Point3<S>, h: &Point3<S>, lambda: &S) -> Point3<S> {
    along(t, &(h - t), lambda)
}

/// After clipping the edge t → h against VR(`x`): the neighbour to move `x` to, if the
/// closest point of the edge to `x` is outside VR(`x`) (simple exclusion: the excluding
/// plane's neighbour; otherwise by the derivative signs at λ_lo and λ_hi; compound exclusion
/// falls back on the lower neighbour).
pub(crate) fn update_after_clip<S: Scalar>(
    s: &Solid<S>,
    x: Feat,
    t: &Point3<S>,
    h: &Point3<S>,
    c: &Clip<S>,
) -> Decision<Option<Feat>> {
    if let Exclusion::Simple(n) = c.exclusion {
        return Ok(Some(n));
    }
    let u: Vector3<S> = h - t;
    if let Some(n) = c.n_lo {
        if derivative_sign(s, x, &at(t, h, &c.lo), &u, Some(n))? == Sign::Positive {
            return Ok(Some(n));
        }
    }
    if let Some(n) = c.n_hi {
        if derivative_sign(s, x, &at(t, h, &c.hi), &u, Some(n))? == Sign::Negative {
            return Ok(Some(n));
        }
    }
    if c.exclusion == Exclusion::Compound {
        return Ok(c.n_lo.or(c.n_hi));
    }
    Ok(None)
}
