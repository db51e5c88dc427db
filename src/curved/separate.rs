//! Separation certificates for two disjoint implicit solids, with tight bounds on the gap, at
//! the cost of 3-dimensional box searches instead of the 6-dimensional search over pairs of
//! boxes (which near a small gap must refine both surfaces down to the gap's size over a whole
//! disc of near contact).
//!
//! 1. **The closest pair in floats.** From the nearest pair of boxes of a short best-first
//!    search, alternating projections and then Newton's method on the Lagrange system of
//!    min |x₁ − x₂|² subject to f(x₁) = 0, g(x₂) = 0 (8 unknowns: the points and the
//!    multipliers λ₁, λ₂): 2(x₁ − x₂) + λ₁∇f(x₁) = 0, −2(x₁ − x₂) + λ₂∇g(x₂) = 0. Nothing here
//!    is trusted: it only chooses what the certificates below try.
//! 2. **A separating level set** s: one solid lies in {s ≥ δ} and the other in {s ≤ 0} or
//!    {s ≤ −δ'}. Three kinds are tried: the other solid's own constraint g (b ⊂ {g ≤ 0} needs
//!    no proof), first where g is a sphere's polynomial, where {g ≥ δ} is exactly the points at
//!    least √(r² + δ/α) − r from the ball; the plane h(x) = n·x − n·m through the midpoint of
//!    the closest pair (n = x₂ − x₁, both sides certified; distance ≥ (δ + δ')/|n|); then any
//!    constraint's level set with the distance bound δ/L, L ≥ |∇s| over the two boxes' hull
//!    (which holds every segment between the solids).
//! 3. **Each side certified** by a box search over the solid's box: a box is done when some
//!    constraint is positive throughout (no point of the solid), when s ≥ δ throughout, or when
//!    the S-procedure function φ = μ·c + s − δ is ≥ 0 throughout (c the solid's constraint at
//!    its closest point, μ > 0 from the Lagrange condition: at a point of the solid c ≤ 0, so
//!    s − δ ≥ −μc ≥ 0). φ has a nondegenerate minimum at the closest point, where the
//!    mean-value enclosure is tight to second order: boxes of width about √margin decide there,
//!    where s alone would need boxes of the margin's width.
//!
//! The margin is the precision's distance (the shapes' size over 2^precision), widened on
//! failure. Two exact member points near x₁ and x₂ bound the gap from above. Any step that
//! fails returns `None` (the other searches answer).

use nalgebra::{SMatrix, SVector};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::poly3::{enclose_mean_value, FBox, IPoly3, Poly3};
use super::search::{box_distance_squared_lower, center, exact, hessian, limit, split, width, Pair, Prepared};
use super::{CurvedError, CurvedStatus};

type Q = BigRational;

/// Two float points, one in each solid.
type PointPair = ([f64; 3], [f64; 3]);

/// The most boxes one side's certificate may examine.
const MAX_SIDE_BOXES: usize = 20_000;

/// The centres of the nearest pair of boxes holding boundary points of each solid, after a
/// best-first search of at most `pops` pairs; `None` when a solid shows no boundary box.
pub(super) fn nearest_boxes(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    pops: usize,
) -> Result<Option<PointPair>, CurvedError> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut heap = BinaryHeap::new();
    heap.push(Reverse(Pair { key: box_distance_squared_lower(&pa.aabb, &pb.aabb), p: pa.aabb, q: pb.aabb }));
    let mut best = None;
    for _ in 0..pops {
        crate::budget::tick().map_err(limit)?;
        let Some(Reverse(Pair { p, q, .. })) = heap.pop() else { break };
        if pa.off_boundary(&p) || pb.off_boundary(&q) {
            continue;
        }
        best = Some((center(&p), center(&q)));
        let children = if width(&p) >= width(&q) {
            split(&p).map(|(l, r)| [(l, q), (r, q)])
        } else {
            split(&q).map(|(l, r)| [(p, l), (p, r)])
        };
        let Some(children) = children else { break };
        for (p, q) in children {
            heap.push(Reverse(Pair { key: box_distance_squared_lower(&p, &q), p, q }));
        }
    }
    Ok(best)
}

/// A float solution of the Lagrange system of the closest pair (module docs, step 1), from
/// constraint `f` of a and `g` of b: (x₁, x₂, λ₁, λ₂).
#[allow(clippy::type_complexity)]
fn closest_pair_newton(f: &Poly3, g: &Poly3, start: ([f64; 3], [f64; 3])) -> Option<([f64; 3], [f64; 3], f64, f64)> {
    let (fi, gi) = (f.to_interval(), g.to_interval());
    let (gf, gg) = (f.gradient().map(|d| d.to_interval()), g.gradient().map(|d| d.to_interval()));
    let (hf, hg) = (hessian(f).map(|r| r.map(|e| e.to_interval())), hessian(g).map(|r| r.map(|e| e.to_interval())));
    let grad = |d: &[IPoly3; 3], x: &[f64; 3]| d.each_ref().map(|p| p.eval_f64(x));
    let (mut x1, mut x2) = start;
    let (a, b) = (grad(&gf, &x1), grad(&gg, &x2));
    let diff = [x1[0] - x2[0], x1[1] - x2[1], x1[2] - x2[2]];
    let dot = |u: &[f64; 3], v: &[f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let (aa, bb) = (dot(&a, &a), dot(&b, &b));
    if aa == 0.0 || bb == 0.0 {
        return None;
    }
    let mut l1 = -2.0 * dot(&diff, &a) / aa;
    let mut l2 = 2.0 * dot(&diff, &b) / bb;
    for _ in 0..80 {
        let (a, b) = (grad(&gf, &x1), grad(&gg, &x2));
        let d = [x1[0] - x2[0], x1[1] - x2[1], x1[2] - x2[2]];
        let mut r = SVector::<f64, 8>::zeros();
        r[0] = fi.eval_f64(&x1);
        r[1] = gi.eval_f64(&x2);
        for i in 0..3 {
            r[2 + i] = 2.0 * d[i] + l1 * a[i];
            r[5 + i] = -2.0 * d[i] + l2 * b[i];
        }
        let mut j = SMatrix::<f64, 8, 8>::zeros();
        for i in 0..3 {
            j[(0, i)] = a[i];
            j[(1, 3 + i)] = b[i];
            for k in 0..3 {
                let eye = if i == k { 2.0 } else { 0.0 };
                j[(2 + i, k)] = eye + l1 * hf[i][k].eval_f64(&x1);
                j[(2 + i, 3 + k)] = -eye;
                j[(5 + i, k)] = -eye;
                j[(5 + i, 3 + k)] = eye + l2 * hg[i][k].eval_f64(&x2);
            }
            j[(2 + i, 6)] = a[i];
            j[(5 + i, 7)] = b[i];
        }
        let step = j.lu().solve(&r)?;
        for i in 0..3 {
            x1[i] -= step[i];
            x2[i] -= step[3 + i];
        }
        l1 -= step[6];
        l2 -= step[7];
        if !(x1.iter().chain(&x2).all(|v| v.is_finite()) && l1.is_finite() && l2.is_finite()) {
            return None;
        }
        let scale = 1.0 + x1.iter().chain(&x2).fold(0.0f64, |m, v| m.max(f64::abs(*v)));
        if step.amax() <= 1e-15 * scale {
            break;
        }
    }
    Some((x1, x2, l1, l2))
}

/// Whether every point of the solid satisfies h + δ ≤ 0 (`hd` = h + δ), by the box search of
/// the module's docs with φ = μ·(constraint `k`) − hd.
fn side_certified(p: &Prepared<'_>, k: usize, hd: &Poly3, mu: &Q, min_width: f64) -> Result<bool, CurvedError> {
    let phi = p.solid.constraints()[k].scale(mu).add(&hd.scale(&-Q::one()));
    let (phi_i, phi_g) = (phi.to_interval(), phi.gradient().map(|d| d.to_interval()));
    let (hd_i, hd_g) = (hd.to_interval(), hd.gradient().map(|d| d.to_interval()));
    let mut stack: Vec<FBox> = vec![p.aabb];
    let mut count = 0usize;
    while let Some(bx) = stack.pop() {
        crate::budget::tick().map_err(limit)?;
        count += 1;
        if count > MAX_SIDE_BOXES {
            return Ok(false);
        }
        if p.excludes(&bx)
            || enclose_mean_value(&hd_i, &hd_g, &bx).hi() <= 0.0
            || enclose_mean_value(&phi_i, &phi_g, &bx).lo() >= 0.0
        {
            continue;
        }
        match split(&bx) {
            Some((l, r)) if width(&bx) > min_width => {
                stack.push(r);
                stack.push(l);
            }
            _ => return Ok(false),
        }
    }
    Ok(true)
}

/// An exact point of the solid near `x` (the float point itself, or moved inward along −`inward`
/// by a few small steps), if one is found.
pub(super) fn member_near(p: &Prepared<'_>, x: &[f64; 3], outward: &[f64; 3], size: f64) -> Option<[Q; 3]> {
    let len = (outward[0] * outward[0] + outward[1] * outward[1] + outward[2] * outward[2]).sqrt();
    if len == 0.0 || !len.is_finite() {
        return None;
    }
    for k in [60, 52, 44, 36, 28, 20] {
        let t = size * 2f64.powi(-k) / len;
        let y = [x[0] - t * outward[0], x[1] - t * outward[1], x[2] - t * outward[2]];
        let e = exact(&y);
        if p.solid.contains(&e) {
            return Some(e);
        }
    }
    None
}

/// `x ≥ 0` rounded to a double, down or up (a bound stays a bound, with short digits).
fn rounded(x: &Q, up: bool) -> Q {
    use crate::scalar::Scalar;
    let f = Scalar::to_f64(x);
    let Some(r) = Q::from_float(f) else { return x.clone() };
    let r = match (up, r.cmp(x)) {
        (false, std::cmp::Ordering::Greater) => Q::from_float(f.next_down()).unwrap_or_else(|| x.clone()),
        (true, std::cmp::Ordering::Less) => Q::from_float(f.next_up()).unwrap_or_else(|| x.clone()),
        _ => r,
    };
    // A positive lower bound stays positive (a gap below the smallest double is kept exact).
    if !up && x.is_positive() && !r.is_positive() {
        return x.clone();
    }
    r
}

fn squared(a: &[Q; 3], b: &[Q; 3]) -> Q {
    (0..3).map(|i| (&a[i] - &b[i]) * (&a[i] - &b[i])).fold(Q::zero(), |s, t| s + t)
}

/// Constraint 0 (the surface polynomial) and up to three others, nearest `x` first by the
/// first-order distance |c(x)|/|∇c(x)|.
fn near_constraints(p: &Prepared<'_>, x: &[f64; 3]) -> Vec<usize> {
    let mut v: Vec<(usize, f64)> = p
        .constraints
        .iter()
        .enumerate()
        .map(|(k, (c, g))| {
            let d = g.each_ref().map(|d| d.eval_f64(x));
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            (k, if len > 0.0 { f64::abs(c.eval_f64(x)) / len } else { f64::INFINITY })
        })
        .collect();
    v.sort_by(|u, w| u.1.total_cmp(&w.1));
    // The surface polynomial (constraint 0) always, then the nearest others.
    let mut out = vec![0];
    out.extend(v.into_iter().map(|(k, _)| k).filter(|&k| k != 0).take(3));
    out
}

/// `x` moved onto the zero set of constraint `k` by a few Newton steps along its gradient.
fn project(p: &Prepared<'_>, k: usize, mut x: [f64; 3]) -> [f64; 3] {
    let (c, g) = &p.constraints[k];
    for _ in 0..20 {
        let v = c.eval_f64(&x);
        let d = g.each_ref().map(|d| d.eval_f64(&x));
        let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if dd.is_nan() || dd <= 0.0 || !v.is_finite() {
            break;
        }
        let t = v / dd;
        x = [x[0] - t * d[0], x[1] - t * d[1], x[2] - t * d[2]];
    }
    x
}

/// The float closest pair of the two solids (module docs, step 1): the active constraints and
/// (x₁, x₂, λ₁, λ₂), if Newton's method finds one with both points in their solids.
#[allow(clippy::type_complexity)]
fn closest_pair(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
) -> Result<Option<(usize, usize, [f64; 3], [f64; 3], f64, f64)>, CurvedError> {
    let Some(start) = nearest_boxes(pa, pb, 2000)? else { return Ok(None) };
    let (a, b) = (pa.solid, pb.solid);
    // The constraints nearest each start, up to three each, tried in pairs: the first pair
    // whose closest points lie in both solids (in floats) and whose multipliers are positive.
    let (ca, cb) = (near_constraints(pa, &start.0), near_constraints(pb, &start.1));
    for &ia in &ca {
        for &ib in &cb {
            let (f, g) = (&a.constraints()[ia], &b.constraints()[ib]);
            // Alternating projections first (each moves a point onto a surface from the other
            // side's point): near the closest pair, where Newton's method converges to it.
            let mut x1 = project(pa, ia, start.0);
            let mut x2 = project(pb, ib, x1);
            for _ in 0..30 {
                x1 = project(pa, ia, x2);
                x2 = project(pb, ib, x1);
            }
            crate::budget::tick().map_err(limit)?;
            let Some((x1, x2, l1, l2)) = closest_pair_newton(f, g, (x1, x2)) else { continue };
            if l1 > 0.0 && l2 > 0.0 && pa.nearly_contains(&x1, ia) && pb.nearly_contains(&x2, ib) {
                return Ok(Some((ia, ib, x1, x2, l1, l2)));
            }
        }
    }
    Ok(None)
}

/// The plane certificate (module docs, steps 2 and 3): a lower bound on the squared gap.
#[allow(clippy::too_many_arguments)]
fn by_plane(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    (ia, ib): (usize, usize),
    (x1, x2): ([f64; 3], [f64; 3]),
    (l1, l2): (f64, f64),
    size: f64,
    precision: u32,
) -> Result<Option<Q>, CurvedError> {
    let n = [x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]];
    let nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if !(nn > 0.0 && nn.is_finite()) {
        return Ok(None);
    }
    // The plane, exactly: h(x) = n·x − n·m.
    let (ne, m) = (exact(&n), exact(&[0, 1, 2].map(|i| x1[i] + (x2[i] - x1[i]) / 2.0)));
    let nm = (0..3).map(|i| &ne[i] * &m[i]).fold(Q::zero(), |s, t| s + t);
    let h = (0..3).fold(Poly3::constant(-nm), |s, i| s.add(&Poly3::variable(i).scale(&ne[i])));
    let mus = [l1 / 2.0, l2 / 2.0].map(|x| Q::from_float(x).unwrap_or_default());
    if mus.iter().any(|x| !x.is_positive()) {
        return Ok(None);
    }
    let min_width = size / 2f64.powi(precision.min(60) as i32 + 8);
    // δ = |n|²/2 less the margin |n|·size·2^−precision, widened on failure.
    let first = nn.sqrt() * size * 2f64.powi(-(precision.min(60) as i32));
    for margin in margins(first, nn / 4.0) {
        let delta = Q::from_float((nn / 2.0 - margin).max(0.0)).unwrap_or_default();
        if !delta.is_positive() {
            return Ok(None);
        }
        let hd_a = h.add(&Poly3::constant(delta.clone()));
        let hd_b = h.scale(&-Q::one()).add(&Poly3::constant(delta.clone()));
        if !side_certified(pa, ia, &hd_a, &mus[0], min_width)? || !side_certified(pb, ib, &hd_b, &mus[1], min_width)? {
            continue;
        }
        // Distance ≥ 2δ/|n|: squared 4δ²/|n|².
        let ne2 = (0..3).map(|i| &ne[i] * &ne[i]).fold(Q::zero(), |s, t| s + t);
        return Ok(Some(Q::from_integer(4.into()) * &delta * &delta / ne2));
    }
    Ok(None)
}

/// Margins from `first` up by 2⁸ at a time, at most `cap`, three of them.
fn margins(first: f64, cap: f64) -> Vec<f64> {
    let mut v: Vec<f64> = [0, 8, 16].iter().map(|&k| (first * 2f64.powi(k)).min(cap)).collect();
    v.dedup();
    v
}

/// A polynomial α(x² + y² + z²) + b·x + κ with α > 0 (a sphere's): its centre c and the
/// squared radius r² = |c|² − κ/α of {p ≤ 0}.
fn sphere_form(p: &Poly3) -> Option<(Q, [Q; 3], Q)> {
    if p.degree() != 2 {
        return None;
    }
    let mut alpha = None;
    let mut lin = [Q::zero(), Q::zero(), Q::zero()];
    let mut constant = Q::zero();
    for (e, c) in p.terms() {
        match e.iter().sum::<u32>() {
            2 => {
                let axis = e.iter().position(|&k| k == 2)?;
                let _ = axis;
                match &alpha {
                    None => alpha = Some(c.clone()),
                    Some(a) if a == c => {}
                    _ => return None,
                }
            }
            1 => lin[e.iter().position(|&k| k == 1)?] = c.clone(),
            _ => constant = c.clone(),
        }
    }
    let alpha = alpha?;
    let squares = p.terms().filter(|(e, _)| e.iter().sum::<u32>() == 2).count();
    if squares != 3 || !alpha.is_positive() {
        return None;
    }
    let two = Q::from_integer(2.into());
    let c = lin.map(|b| -b / (&two * &alpha));
    let r2 = (0..3).map(|i| &c[i] * &c[i]).fold(Q::zero(), |s, t| s + t) - constant / &alpha;
    Some((alpha, c, r2))
}

/// A rational upper bound on √x (x ≥ 0).
fn sqrt_up(x: &Q) -> Q {
    use crate::scalar::Scalar;
    let mut u = Q::from_float(Scalar::to_f64(x).sqrt().next_up()).unwrap_or_else(|| x + Q::one());
    // The float root is within an ulp or two; step up until it is certainly above.
    for _ in 0..8 {
        if &(&u * &u) >= x {
            return u;
        }
        u = &u * Q::new(1_000_001.into(), 1_000_000.into()) + Q::new(1.into(), (1u64 << 60).into());
    }
    x + Q::one()
}

/// The level-set certificate: the solid `p` (its active constraint `k`, its float closest
/// point `x`) lies in {s ≥ δ}, where the other solid lies in {s ≤ 0} (`s` one of its
/// constraints): the S-procedure with φ = μ·c_k + s − δ. A lower bound on the squared gap from
/// δ: exact for a sphere's polynomial, else by the largest |∇s| over `hull` (the two solids'
/// boxes' hull, which holds every segment between them).
#[allow(clippy::too_many_arguments)]
fn by_level(
    p: &Prepared<'_>,
    k: usize,
    x: [f64; 3],
    s: &Poly3,
    hull: &FBox,
    size: f64,
    precision: u32,
    sphere_only: bool,
) -> Result<Option<Q>, CurvedError> {
    let sphere = sphere_form(s);
    if sphere_only && sphere.is_none() {
        return Ok(None);
    }
    let ck = &p.solid.constraints()[k];
    let grad = |q: &Poly3| q.gradient().map(|d| d.to_interval().eval_f64(&x));
    let (gc, gs) = (grad(ck), grad(s));
    let cc = gc[0] * gc[0] + gc[1] * gc[1] + gc[2] * gc[2];
    let mu = -(gc[0] * gs[0] + gc[1] * gs[1] + gc[2] * gs[2]) / cc;
    let sx = s.to_interval().eval_f64(&x);
    if !(mu > 0.0 && mu.is_finite() && sx > 0.0 && sx.is_finite()) {
        return Ok(None);
    }
    let mu = Q::from_float(mu).unwrap_or_default();
    let min_width = size / 2f64.powi(precision.min(60) as i32 + 8);
    // The margin: the precision's distance, size·2^−precision, times |∇s| at the point.
    let slope = (gs[0] * gs[0] + gs[1] * gs[1] + gs[2] * gs[2]).sqrt();
    for margin in margins(slope * size * 2f64.powi(-(precision.min(60) as i32)), sx / 2.0) {
        let delta = Q::from_float(sx - margin).unwrap_or_default();
        if !delta.is_positive() {
            return Ok(None);
        }
        // Want δ − s ≤ 0 on the solid.
        let sd = Poly3::constant(delta.clone()).add(&s.scale(&-Q::one()));
        if !side_certified(p, k, &sd, &mu, min_width)? {
            continue;
        }
        let lower = match &sphere {
            // |x − c|² ≥ r² + δ/α on the solid: d ≥ √(r² + δ/α) − r = (δ/α)/(√(r² + δ/α) + r).
            Some((alpha, _, r2)) => {
                let t = &delta / alpha;
                let d = &t / (sqrt_up(&(r2 + &t)) + sqrt_up(r2));
                &d * &d
            }
            // d ≥ δ/L with L² ≥ |∇s|² over the hull.
            None => {
                let g = s.gradient().map(|d| d.to_interval());
                let l2 = g
                    .iter()
                    .map(|d| d.enclose(hull))
                    .fold(<crate::scalar::Interval as Zero>::zero(), |acc, e| acc + e * e);
                let l2 = Q::from_float(l2.hi()).unwrap_or_default();
                if !l2.is_positive() {
                    return Ok(None);
                }
                &delta * &delta / l2
            }
        };
        return Ok(Some(lower));
    }
    Ok(None)
}

/// The separation certificates (module docs): `Separated` with bounds, or `None`. Tried in
/// order: a sphere's own polynomial as the separating level set (exact bounds), the plane
/// between the closest points, then any constraint's level set with a gradient bound.
pub(super) fn separated_certified(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    size: f64,
    precision: u32,
) -> Result<Option<CurvedStatus>, CurvedError> {
    let Some((ia, ib, x1, x2, l1, l2)) = closest_pair(pa, pb)? else { return Ok(None) };
    let (f, g) = (&pa.solid.constraints()[ia], &pb.solid.constraints()[ib]);
    let mut hull = pa.aabb;
    for (h, q) in hull.iter_mut().zip(&pb.aabb) {
        h[0] = h[0].min(q[0]);
        h[1] = h[1].max(q[1]);
    }
    let mut lower = None;
    for sphere_only in [true, false] {
        if let Some(l) = by_level(pa, ia, x1, g, &hull, size, precision, sphere_only)? {
            lower = Some(l);
            break;
        }
        if let Some(l) = by_level(pb, ib, x2, f, &hull, size, precision, sphere_only)? {
            lower = Some(l);
            break;
        }
        if sphere_only {
            if let Some(l) = by_plane(pa, pb, (ia, ib), (x1, x2), (l1, l2), size, precision)? {
                lower = Some(l);
                break;
            }
        }
    }
    let Some(lower) = lower else { return Ok(None) };
    let grad = |p: &Poly3, x: &[f64; 3]| p.gradient().map(|d| d.to_interval().eval_f64(x));
    let upper = match (member_near(pa, &x1, &grad(f, &x1), size), member_near(pb, &x2, &grad(g, &x2), size)) {
        (Some(p), Some(q)) => Some(rounded(&squared(&p, &q), true)),
        _ => None,
    };
    Ok(Some(CurvedStatus::Separated { gap_squared_lower: rounded(&lower, false), gap_squared_upper: upper }))
}

/// `x` on the surface of constraint `i` of `p` moved downhill for constraint `j` of `o` along
/// that surface (projected gradient steps with backtracking), toward the least value of the
/// other solid's constraint there: a start from which Newton's method finds that minimum, not
/// another critical point.
fn slide(p: &Prepared<'_>, i: usize, o: &Prepared<'_>, j: usize, mut x: [f64; 3], size: f64) -> [f64; 3] {
    let (gc, gg) = (&p.constraints[i].1, &o.constraints[j]);
    let value = |y: &[f64; 3]| gg.0.eval_f64(y);
    for _ in 0..60 {
        let n = gc.each_ref().map(|d| d.eval_f64(&x));
        let m = gg.1.each_ref().map(|d| d.eval_f64(&x));
        let nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        if nn.is_nan() || nn <= 0.0 {
            break;
        }
        let k = (m[0] * n[0] + m[1] * n[1] + m[2] * n[2]) / nn;
        let t = [0, 1, 2].map(|c| m[c] - k * n[c]);
        let tl = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).sqrt();
        if !(tl.is_finite() && tl > 1e-14 * (1.0 + m.iter().fold(0.0f64, |a, v| a.max(f64::abs(*v))))) {
            break;
        }
        let here = value(&x);
        let mut step = size / 8.0 / tl;
        let mut moved = false;
        for _ in 0..30 {
            let y = project(p, i, [0, 1, 2].map(|c| x[c] - step * t[c]));
            if value(&y) < here {
                x = y;
                moved = true;
                break;
            }
            step /= 2.0;
        }
        if !moved {
            break;
        }
    }
    x
}

/// A witness of penetration beside the deepest point of one surface inside the other solid:
/// from the nearest boxes, Newton's method on ∇f + β∇g = 0, f = 0 (a critical point x of g on
/// the surface f = 0; in floats, trusted for nothing); where g(x) < 0 the points just inside a
/// from x are inside b too, and a few of them are checked exactly. Both ways round.
pub(super) fn witness_by_deepest_point(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    size: f64,
) -> Result<Option<[Q; 3]>, CurvedError> {
    let Some(start) = nearest_boxes(pa, pb, 2000)? else { return Ok(None) };
    for (p, o, s) in [(pa, pb, start.0), (pb, pa, start.1)] {
        for &i in &near_constraints(p, &s) {
            for &j in &near_constraints(o, &s) {
                crate::budget::tick().map_err(limit)?;
                let (f, g) = (&p.solid.constraints()[i], &o.solid.constraints()[j]);
                let (fi, gf, gg) =
                    (f.to_interval(), f.gradient().map(|d| d.to_interval()), g.gradient().map(|d| d.to_interval()));
                let (hf, hg) =
                    (hessian(f).map(|r| r.map(|e| e.to_interval())), hessian(g).map(|r| r.map(|e| e.to_interval())));
                let x0 = slide(p, i, o, j, project(p, i, s), size);
                let Some(x) = super::search::newton(&fi, &gf, &hf, &gg, &hg, x0) else { continue };
                let gx = o.constraints[j].0.eval_f64(&x);
                let n = gf.each_ref().map(|d| d.eval_f64(&x));
                let m = gg.each_ref().map(|d| d.eval_f64(&x));
                let (nl, ml) = (
                    (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt(),
                    (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).sqrt(),
                );
                if !(gx < 0.0 && nl > 0.0 && ml > 0.0 && nl.is_finite() && ml.is_finite()) {
                    continue;
                }
                // The depth into b along its normal, about |g(x)|/|∇g|: steps into a below it.
                let depth = (-gx / ml).min(size);
                for k in 1..8 {
                    let t = depth * 2f64.powi(-k);
                    let y = [0, 1, 2].map(|c| x[c] - t * n[c] / nl);
                    let e = exact(&y);
                    if p.solid.contains_strictly(&e) && o.solid.contains_strictly(&e) {
                        return Ok(Some(e));
                    }
                }
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curved::Implicit;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn a_small_gap_between_balls_is_bounded_tightly() {
        // Radii 2 and 1, centres 3 + 1/1000 apart: the gap is exactly 1/1000.
        let a = Implicit::sphere([q(0), q(0), q(0)], q(2)).unwrap();
        let b = Implicit::sphere([q(3) + Q::new(1.into(), 1000.into()), q(0), q(0)], q(1)).unwrap();
        let (pa, pb) = (Prepared::new(&a), Prepared::new(&b));
        let s = separated_certified(&pa, &pb, 6.0, 40).unwrap().expect("certified");
        let CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } = s else { panic!("{s:?}") };
        let exact = Q::new(1.into(), 1_000_000.into());
        assert!(gap_squared_lower <= exact && gap_squared_lower.is_positive());
        let upper = gap_squared_upper.expect("member points");
        assert!(upper >= exact);
        // Tight: within a part in 10⁶ of the gap.
        let tol = &exact / q(1_000_000);
        assert!(&exact - &gap_squared_lower < tol && &upper - &exact < tol, "{gap_squared_lower} {upper}");
    }
}
