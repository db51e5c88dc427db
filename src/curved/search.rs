//! The machinery the implicit solids' searches share: a solid prepared as interval images of
//! its constraints, boxes (centre, width, halves, distance bounds), the gap search's queue
//! entry, a member point checked exactly, and the small exact helpers (the simplest rational
//! in an interval, positive definiteness, Newton's method on the tangency system, Hessians).
//! Below `status` (the certified status) and `separate` (separating level sets), which both
//! use it.

use nalgebra::{Matrix4, Vector4};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::implicit::Implicit;
use super::poly3::{enclose_mean_value, hull, pt, FBox, IPoly3, Poly3};
use super::CurvedError;
use crate::scalar::{Interval, Scalar};

/// A solid prepared for the searches: its constraints' interval images with their gradients.
pub(super) struct Prepared<'a> {
    pub(super) solid: &'a Implicit,
    pub(super) constraints: Vec<(IPoly3, [IPoly3; 3])>,
    pub(super) aabb: FBox,
}

impl<'a> Prepared<'a> {
    pub(super) fn new(solid: &'a Implicit) -> Self {
        let constraints =
            solid.constraints().iter().map(|g| (g.to_interval(), g.gradient().map(|d| d.to_interval()))).collect();
        let aabb =
            solid.aabb().clone().map(|[lo, hi]| [Interval::from_rational(&lo).lo(), Interval::from_rational(&hi).hi()]);
        Prepared { solid, constraints, aabb }
    }

    /// Some constraint is positive throughout the box: no point of the solid there.
    pub(super) fn excludes(&self, b: &FBox) -> bool {
        self.constraints.iter().any(|(g, grad)| enclose_mean_value(g, grad, b).lo() > 0.0)
    }

    /// No boundary point in the box: some constraint is positive throughout (outside), or
    /// every constraint is negative throughout (inside). The gap of two disjoint solids is
    /// attained on their boundaries.
    pub(super) fn off_boundary(&self, b: &FBox) -> bool {
        let mut inside = true;
        for (g, grad) in &self.constraints {
            let e = enclose_mean_value(g, grad, b);
            if e.lo() > 0.0 {
                return true;
            }
            inside &= e.hi() < 0.0;
        }
        inside
    }

    /// Some constraint is nonnegative throughout the box: no interior point there.
    pub(super) fn excludes_interior(&self, b: &FBox) -> bool {
        self.constraints.iter().any(|(g, grad)| enclose_mean_value(g, grad, b).lo() >= 0.0)
    }

    /// In floats: constraint `k` about zero at `x` and every other one below a small positive
    /// slack (a closest point found in floats lies in the solid; nothing is decided by this).
    pub(super) fn nearly_contains(&self, x: &[f64; 3], k: usize) -> bool {
        let scale = 1.0 + x.iter().fold(0.0f64, |m, v| m.max(f64::abs(*v)));
        self.constraints.iter().enumerate().all(|(i, (c, g))| {
            let d = g.each_ref().map(|d| d.eval_f64(x));
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(f64::MIN_POSITIVE);
            let dist = c.eval_f64(x) / len;
            if i == k {
                f64::abs(dist) <= 1e-9 * scale
            } else {
                dist <= 1e-9 * scale
            }
        })
    }

    /// Every constraint is certainly negative at the point.
    pub(super) fn strictly_inside(&self, p: &[f64; 3]) -> bool {
        self.constraints.iter().all(|(g, _)| g.enclose_at(p).hi() < 0.0)
    }
}

pub(super) fn exact(p: &[f64; 3]) -> [BigRational; 3] {
    p.map(|x| BigRational::from_float(x).unwrap_or_default())
}

pub(super) fn center(b: &FBox) -> [f64; 3] {
    b.map(|[lo, hi]| lo + (hi - lo) / 2.0)
}

pub(super) fn width(b: &FBox) -> f64 {
    b.iter().map(|[lo, hi]| hi - lo).fold(0.0, f64::max)
}

/// The two halves across the longest side; `None` once the midpoint is not strictly inside.
pub(super) fn split(b: &FBox) -> Option<(FBox, FBox)> {
    let axis = (0..3).max_by(|&i, &j| (b[i][1] - b[i][0]).total_cmp(&(b[j][1] - b[j][0])))?;
    let [lo, hi] = b[axis];
    let mid = lo + (hi - lo) / 2.0;
    if !(lo < mid && mid < hi) {
        return None;
    }
    let (mut l, mut r) = (*b, *b);
    l[axis][1] = mid;
    r[axis][0] = mid;
    Some((l, r))
}

pub(super) fn intersect(a: &FBox, b: &FBox) -> Option<FBox> {
    let mut r = *a;
    for i in 0..3 {
        r[i][0] = a[i][0].max(b[i][0]);
        r[i][1] = a[i][1].min(b[i][1]);
        if r[i][0] > r[i][1] {
            return None;
        }
    }
    Some(r)
}

/// A certified lower bound on the squared distance of two boxes.
pub(super) fn box_distance_squared_lower(p: &FBox, q: &FBox) -> f64 {
    let mut sum = <Interval as Zero>::zero();
    for i in 0..3 {
        let gap = if p[i][0] > q[i][1] {
            pt(p[i][0]) - pt(q[i][1])
        } else if q[i][0] > p[i][1] {
            pt(q[i][0]) - pt(p[i][1])
        } else {
            continue;
        };
        let g = hull(gap.lo().max(0.0), gap.hi());
        sum += g * g;
    }
    sum.lo().max(0.0)
}

pub(super) fn limit(e: crate::budget::Limit) -> CurvedError {
    CurvedError::Limit(e)
}

/// Orders a queue entry by its `key: f64` (a total order: `f64::total_cmp`), for the
/// searches' best-first heaps.
macro_rules! ordered_by_key {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.key.total_cmp(&other.key) == std::cmp::Ordering::Equal
            }
        }
        impl Eq for $t {}
        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $t {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.key.total_cmp(&other.key)
            }
        }
    };
}
pub(super) use ordered_by_key;

/// An entry of the gap search's queue: the pair's certified squared distance lower bound.
pub(super) struct Pair {
    pub(super) key: f64,
    pub(super) p: FBox,
    pub(super) q: FBox,
}

ordered_by_key!(Pair);

/// A point of the solid among the box's centre and corners (checked exactly).
pub(super) fn member(p: &Prepared<'_>, b: &FBox) -> Option<[BigRational; 3]> {
    let mut candidates = vec![center(b)];
    for k in 0..8 {
        candidates.push([b[0][k & 1], b[1][(k >> 1) & 1], b[2][(k >> 2) & 1]]);
    }
    candidates.iter().map(exact).find(|x| p.solid.contains(x))
}

/// The simplest rational in [lo, hi] (lo ≤ hi), by continued fractions.
pub(crate) fn simplest_between(lo: &BigRational, hi: &BigRational, depth: u32) -> BigRational {
    if depth > 200 {
        return (lo + hi) / BigRational::from_integer(2.into());
    }
    if lo.is_negative() && !hi.is_negative() || lo.is_zero() {
        return BigRational::zero();
    }
    if hi.is_negative() {
        return -simplest_between(&-hi, &-lo, depth + 1);
    }
    let c = lo.ceil();
    if &c <= hi {
        return c;
    }
    let f = lo.floor();
    let inner = simplest_between(&(BigRational::one() / (hi - &f)), &(BigRational::one() / (lo - &f)), depth + 1);
    f + BigRational::one() / inner
}

pub(super) fn dot(a: &[BigRational; 3], b: &[BigRational; 3]) -> BigRational {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// Whether the symmetric 3×3 rational matrix is positive definite (leading minors).
pub(super) fn positive_definite(m: &[[BigRational; 3]; 3]) -> bool {
    let zero = BigRational::zero();
    let d1 = m[0][0].clone();
    let d2 = &m[0][0] * &m[1][1] - &m[0][1] * &m[1][0];
    let d3 = &m[0][0] * (&m[1][1] * &m[2][2] - &m[1][2] * &m[2][1])
        - &m[0][1] * (&m[1][0] * &m[2][2] - &m[1][2] * &m[2][0])
        + &m[0][2] * (&m[1][0] * &m[2][1] - &m[1][1] * &m[2][0]);
    d1 > zero && d2 > zero && d3 > zero
}

/// Newton's method in binary64 on ∇f + β∇g = 0, f = 0 from `start`.
pub(super) fn newton(
    f: &IPoly3,
    gf: &[IPoly3; 3],
    hf: &[[IPoly3; 3]; 3],
    gg: &[IPoly3; 3],
    hg: &[[IPoly3; 3]; 3],
    start: [f64; 3],
) -> Option<[f64; 3]> {
    let ev = |p: &IPoly3, x: &[f64; 3]| p.eval_f64(x);
    let mut x = start;
    let (a, b) = (gf.each_ref().map(|d| ev(d, &x)), gg.each_ref().map(|d| ev(d, &x)));
    let bb: f64 = b.iter().map(|v| v * v).sum();
    if bb == 0.0 {
        return None;
    }
    let mut beta = -(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / bb;
    for _ in 0..60 {
        let a = gf.each_ref().map(|d| ev(d, &x));
        let b = gg.each_ref().map(|d| ev(d, &x));
        let residual = Vector4::new(a[0] + beta * b[0], a[1] + beta * b[1], a[2] + beta * b[2], ev(f, &x));
        let mut j = Matrix4::zeros();
        for r in 0..3 {
            for c in 0..3 {
                j[(r, c)] = ev(&hf[r][c], &x) + beta * ev(&hg[r][c], &x);
            }
            j[(r, 3)] = b[r];
            j[(3, r)] = a[r];
        }
        let step = j.lu().solve(&residual)?;
        for i in 0..3 {
            x[i] -= step[i];
        }
        beta -= step[3];
        if !x.iter().all(|v| v.is_finite()) {
            return None;
        }
        if step.amax() <= 1e-15 * (1.0 + x.iter().fold(0.0f64, |m, v| m.max(f64::abs(*v)))) {
            break;
        }
    }
    Some(x)
}

pub(super) fn hessian(p: &Poly3) -> [[Poly3; 3]; 3] {
    let g = p.gradient();
    [0, 1, 2].map(|i| [0, 1, 2].map(|j| g[i].derivative(j)))
}
