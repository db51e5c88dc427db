//! The certified status of two Bézier solids.
//!
//! **The search.** Pairs of sub-patches (each with its parameter square) are refined
//! best-first on the distance of their control points' boxes (a rational patch with positive
//! weights lies in the hull of its control points): when every pair is apart the surfaces
//! miss each other, and one point of each patch (a corner, on the surface) outside the other
//! solid (ray casting) proves the solids apart; a corner of one inside the other, and a point
//! beside it inside both, is a witness. When the pairs come within the precision, points
//! beside the closest sub-patches' centres are tried as witnesses (crossing surfaces).
//!
//! **Touching (system (8)).** From the closest pair the float tangency of the two patches is
//! found by Gauss–Newton on F(s, t) = G(u, v), N_F·G_u = N_F·G_v = 0 (N_F = F_s × F_t), and
//! rounded to the simplest rational parameters nearby; it is kept only if it is exact: the
//! same point p on both surfaces and G's tangent plane that of F there. With n = N_F at p,
//! ψ(s, t) = n·(P − pW) on each patch through p (found, again, at rational parameters where
//! P = pW exactly) vanishes with its gradient at p's parameters; where its interval Hessian is
//! certainly definite on a parameter square about them (a cell), ψ keeps one sign on the cell,
//! zero only at p: that piece of surface lies on one side of the tangent plane H. With a's
//! pieces on one side and b's on the other, a pair whose squares both lie in cells meets at p
//! at most, and is dropped; every other pair must come apart. Then ∂a ∩ ∂b = {p}: each
//! boundary minus p is connected per component and misses the other boundary, so a point of
//! each patch outside the other solid puts it outside; an open component of either interior
//! with its boundary outside the other solid misses it: the interiors do not meet, the solids
//! touch at p. a's outward normal is n when a's pieces lie on −n's side (the interiors are
//! disjoint only that way round), −n otherwise.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use nalgebra::{DMatrix, DVector};
use num_rational::BigRational;
use num_traits::Zero;

use super::bezier::Patch;
use super::bezier_solid::{definite_cell, witness_beside, BezierSolid};
use super::poly3::{FBox, IPoly3, Poly3};
use super::search::{box_distance_squared_lower, limit, ordered_by_key, simplest_between};
use super::{CurvedError, CurvedStatus, StatusOptions};
use crate::scalar::{Interval, Scalar};

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// A sub-patch: its control net, the patch it comes from and its parameter square.
#[derive(Clone)]
struct Sub {
    net: Patch,
    patch: usize,
    s: [f64; 2],
    t: [f64; 2],
}

impl Sub {
    fn centre(&self) -> [Q; 2] {
        [self.s, self.t].map(|r| Q::from_float(r[0] + (r[1] - r[0]) / 2.0).unwrap_or_default())
    }
    /// The halves along `axis` (0: s, 1: t).
    fn halves(&self, axis: usize) -> (Sub, Sub) {
        let (l, r) = self.net.split(axis);
        let (mut a, mut b) = (
            Sub { net: l, patch: self.patch, s: self.s, t: self.t },
            Sub { net: r, patch: self.patch, s: self.s, t: self.t },
        );
        let range = if axis == 0 { self.s } else { self.t };
        let m = range[0] + (range[1] - range[0]) / 2.0;
        if axis == 0 {
            a.s[1] = m;
            b.s[0] = m;
        } else {
            a.t[1] = m;
            b.t[0] = m;
        }
        (a, b)
    }
    fn within(&self, cell: &FBox) -> bool {
        cell[0][0] <= self.s[0] && self.s[1] <= cell[0][1] && cell[1][0] <= self.t[0] && self.t[1] <= cell[1][1]
    }
}

struct Pair {
    key: f64,
    a: Sub,
    b: Sub,
}

ordered_by_key!(Pair);

fn bbox(p: &Patch) -> FBox {
    let mut bx: FBox = [[f64::INFINITY, f64::NEG_INFINITY]; 3];
    for c in p.points() {
        for i in 0..3 {
            let v = Interval::from_rational(&c[i]);
            bx[i][0] = bx[i][0].min(v.lo());
            bx[i][1] = bx[i][1].max(v.hi());
        }
    }
    bx
}

fn ext(bx: &FBox) -> f64 {
    bx.iter().map(|[l, h]| h - l).fold(0.0, f64::max)
}

/// A patch in floats: its point and first derivatives at (s, t).
struct FloatPatch {
    h: [IPoly3; 4],
    hs: [IPoly3; 4],
    ht: [IPoly3; 4],
}

impl FloatPatch {
    fn new(h: &[Poly3; 4]) -> Self {
        FloatPatch {
            h: h.each_ref().map(|p| p.to_interval()),
            hs: h.each_ref().map(|p| p.derivative(0).to_interval()),
            ht: h.each_ref().map(|p| p.derivative(1).to_interval()),
        }
    }
    /// F, F_s, F_t at (s, t).
    fn eval(&self, s: f64, t: f64) -> [[f64; 3]; 3] {
        let at = [s, t, 0.0];
        let v = self.h.each_ref().map(|p| p.eval_f64(&at));
        let vs = self.hs.each_ref().map(|p| p.eval_f64(&at));
        let vt = self.ht.each_ref().map(|p| p.eval_f64(&at));
        let w2 = v[3] * v[3];
        [
            [0, 1, 2].map(|i| v[i] / v[3]),
            [0, 1, 2].map(|i| (vs[i] * v[3] - v[i] * vs[3]) / w2),
            [0, 1, 2].map(|i| (vt[i] * v[3] - v[i] * vt[3]) / w2),
        ]
    }
}

fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Gauss–Newton on a residual of m components in n unknowns, with a forward-difference
/// Jacobian; the point reached (finite) or `None`.
fn gauss_newton(r: &dyn Fn(&[f64]) -> Vec<f64>, start: &[f64], iterations: usize) -> Option<Vec<f64>> {
    let n = start.len();
    let mut x = start.to_vec();
    for _ in 0..iterations {
        let r0 = r(&x);
        let m = r0.len();
        let mut jac = DMatrix::zeros(m, n);
        for j in 0..n {
            let h = 1e-7 * x[j].abs().max(1.0);
            let mut y = x.clone();
            y[j] += h;
            let r1 = r(&y);
            for i in 0..m {
                jac[(i, j)] = (r1[i] - r0[i]) / h;
            }
        }
        let rv = DVector::from_vec(r0);
        // nalgebra's `svd` iterates until it converges, which a Jacobian of entries far apart
        // (or not finite) may never do: capped, and no step when it does not converge.
        if !jac.iter().chain(rv.iter()).all(|v| v.is_finite()) {
            return None;
        }
        let k = m.max(n).max(1);
        let sweeps = 64 * k * k;
        let step = jac.clone().try_svd(true, true, f64::EPSILON, sweeps)?.solve(&(-rv), 1e-13).ok()?;
        let mut size = 0f64;
        for j in 0..n {
            x[j] += step[j];
            size = size.max(step[j].abs());
        }
        if !x.iter().all(|v| v.is_finite()) {
            return None;
        }
        if size < 1e-15 {
            break;
        }
    }
    Some(x)
}

/// The simplest rational within `tol` of `v`.
fn near(v: f64, tol: f64) -> Q {
    let c = Q::from_float(v).unwrap_or_default();
    let t = Q::from_float(tol).unwrap_or_default();
    simplest_between(&(&c - &t), &(&c + &t), 0)
}

/// The homogeneous tangent vectors (P_s W − P W_s, P_t W − P W_t) at (s, t), exactly.
fn tangents(h: &[Poly3; 4], at: &[Q; 3]) -> [[Q; 3]; 2] {
    let v = h.each_ref().map(|p| p.eval(at));
    [0, 1].map(|d| {
        let dv = h.each_ref().map(|p| p.derivative(d).eval(at));
        [0, 1, 2].map(|i| &dv[i] * &v[3] - &v[i] * &dv[3])
    })
}

fn qcross(a: &[Q; 3], b: &[Q; 3]) -> [Q; 3] {
    [&a[1] * &b[2] - &a[2] * &b[1], &a[2] * &b[0] - &a[0] * &b[2], &a[0] * &b[1] - &a[1] * &b[0]]
}

fn qdot(a: &[Q; 3], b: &[Q; 3]) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// An exact tangency of sub-patches x (of a) and y (of b): the point p and n = N_F there.
fn exact_tangency(a: &BezierSolid, b: &BezierSolid, x: &Sub, y: &Sub) -> Option<([Q; 3], [Q; 3])> {
    let (ha, hb) = (&a.homogeneous()[x.patch], &b.homogeneous()[y.patch]);
    let (fa, fb) = (FloatPatch::new(ha), FloatPatch::new(hb));
    let residual = |v: &[f64]| -> Vec<f64> {
        let [f, fs, ft] = fa.eval(v[0], v[1]);
        let [g, gu, gv] = fb.eval(v[2], v[3]);
        let n = cross(&fs, &ft);
        vec![f[0] - g[0], f[1] - g[1], f[2] - g[2], dot(&n, &gu), dot(&n, &gv)]
    };
    let mid = |r: [f64; 2]| r[0] + (r[1] - r[0]) / 2.0;
    let x0 = gauss_newton(&residual, &[mid(x.s), mid(x.t), mid(y.s), mid(y.t)], 60)?;
    for tol in [1e-12, 1e-10, 1e-8] {
        let at_a = [near(x0[0], tol), near(x0[1], tol), q(0)];
        let at_b = [near(x0[2], tol), near(x0[3], tol), q(0)];
        let p = a.patches()[x.patch].point(&at_a[0], &at_a[1]);
        if p != b.patches()[y.patch].point(&at_b[0], &at_b[1]) {
            continue;
        }
        let [ts, tt] = tangents(ha, &at_a);
        let n = qcross(&ts, &tt);
        if n.iter().all(Zero::is_zero) {
            return None;
        }
        let [tu, tv] = tangents(hb, &at_b);
        if !(qdot(&n, &tu).is_zero() && qdot(&n, &tv).is_zero()) {
            return None;
        }
        return Some((p, n));
    }
    None
}

/// The cell of each patch of `x` through p (rational parameters where P = pW exactly, ψ's
/// gradient zero there, its Hessian definite on a square about them) and ψ's sign on it.
fn cells(x: &BezierSolid, p: &[Q; 3], n: &[Q; 3], options: &StatusOptions) -> HashMap<usize, (FBox, i8)> {
    let pf = p.clone().map(|v| Interval::from_rational(&v));
    let mut out = HashMap::new();
    for (k, patch) in x.patches().iter().enumerate() {
        let bx = bbox(patch);
        if !(0..3).all(|i| bx[i][0] <= pf[i].hi() && pf[i].lo() <= bx[i][1]) {
            continue;
        }
        let h = &x.homogeneous()[k];
        let fp = FloatPatch::new(h);
        let target = pf.map(|v| v.lo() + (v.hi() - v.lo()) / 2.0);
        let residual = |v: &[f64]| -> Vec<f64> {
            let [f, _, _] = fp.eval(v[0], v[1]);
            vec![f[0] - target[0], f[1] - target[1], f[2] - target[2]]
        };
        let starts = [[0.5, 0.5], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let at = starts.iter().find_map(|st| {
            let v = gauss_newton(&residual, st, 40)?;
            [1e-12, 1e-10, 1e-8].iter().find_map(|&tol| {
                let at = [near(v[0], tol), near(v[1], tol), q(0)];
                (patch.point(&at[0], &at[1]) == *p).then_some(at)
            })
        });
        let Some(at) = at else { continue };
        // ψ = n·(P − pW).
        let mut psi = Poly3::zero();
        for i in 0..3 {
            psi = psi.add(&h[i].scale(&n[i])).add(&h[3].scale(&-(&n[i] * &p[i])));
        }
        let grad = [psi.derivative(0), psi.derivative(1)];
        if !(grad[0].eval(&at).is_zero() && grad[1].eval(&at).is_zero()) {
            continue;
        }
        let (s0, t0) = (Interval::from_rational(&at[0]), Interval::from_rational(&at[1]));
        for sign in [1i8, -1] {
            let g = grad.each_ref().map(|d| d.scale(&q(sign.into())));
            let hess = [[g[0].derivative(0), g[0].derivative(1)], [g[1].derivative(0), g[1].derivative(1)]]
                .map(|r| r.map(|e| e.to_interval()));
            if let Some(cell) = definite_cell(&hess, s0, t0, options.precision) {
                out.insert(k, (cell, sign));
                break;
            }
        }
    }
    out
}

/// A certified point contact: the point, n, and the cells of a's and b's patches with their
/// signs (a's one way, b's the other).
struct Certificate {
    point: [Q; 3],
    n: [Q; 3],
    sign_a: i8,
    cells_a: HashMap<usize, (FBox, i8)>,
    cells_b: HashMap<usize, (FBox, i8)>,
    used: bool,
}

impl Certificate {
    fn try_new(a: &BezierSolid, b: &BezierSolid, pair: &Pair, options: &StatusOptions) -> Option<Self> {
        let (point, n) = exact_tangency(a, b, &pair.a, &pair.b)?;
        let cells_a = cells(a, &point, &n, options);
        let cells_b = cells(b, &point, &n, options);
        let sign_a = cells_a.values().next()?.1;
        let one_way = cells_a.values().all(|c| c.1 == sign_a) && cells_b.values().all(|c| c.1 == -sign_a);
        (one_way && !cells_b.is_empty()).then_some(Certificate { point, n, sign_a, cells_a, cells_b, used: false })
    }
    /// Whether the pair's squares lie in cells (on opposite sides of H, meeting at p at most).
    fn covers(&self, pair: &Pair) -> bool {
        self.cells_a.get(&pair.a.patch).is_some_and(|(c, _)| pair.a.within(c))
            && self.cells_b.get(&pair.b.patch).is_some_and(|(c, _)| pair.b.within(c))
    }
}

/// A point of patch `patch` of x on the surface, not `avoid`: a corner, or the centre.
fn surface_point(x: &BezierSolid, patch: usize, avoid: Option<&[Q; 3]>) -> [Q; 3] {
    let p = &x.patches()[patch];
    let half = Q::new(1.into(), 2.into());
    [(q(0), q(0)), (q(1), q(0)), (q(0), q(1)), (q(1), q(1)), (half.clone(), half)]
        .into_iter()
        .map(|(s, t)| p.point(&s, &t))
        .find(|c| Some(c) != avoid)
        .unwrap_or_else(|| p.points()[0].clone())
}

/// The status of two Bézier solids (module docs).
pub fn bezier_pair_status(
    a: &BezierSolid,
    b: &BezierSolid,
    options: &StatusOptions,
) -> Result<CurvedStatus, CurvedError> {
    let pair = |x: Sub, y: Sub| Pair { key: box_distance_squared_lower(&bbox(&x.net), &bbox(&y.net)), a: x, b: y };
    let whole = |k: usize, p: &Patch| Sub { net: p.clone(), patch: k, s: [0.0, 1.0], t: [0.0, 1.0] };
    let mut heap = BinaryHeap::new();
    for (i, pa) in a.patches().iter().enumerate() {
        for (j, pb) in b.patches().iter().enumerate() {
            heap.push(Reverse(pair(whole(i, pa), whole(j, pb))));
        }
    }
    let mut count = 0usize;
    let mut certificate: Option<Certificate> = None;
    let mut tried = false;
    let limit_size = 2f64.powi(-(options.precision.min(40) as i32)) * 16.0;
    let lower = loop {
        crate::budget::tick().map_err(limit)?;
        let Some(Reverse(top)) = heap.pop() else {
            // Every pair apart or in the certificate's cells.
            break None;
        };
        if top.key > 0.0 {
            break Some(top.key);
        }
        if let Some(c) = certificate.as_mut() {
            if c.covers(&top) {
                c.used = true;
                continue;
            }
        }
        count += 1;
        let (ea, eb) = (ext(&bbox(&top.a.net)), ext(&bbox(&top.b.net)));
        // Once the closest pair is a sixteenth of its patches, a tangency is looked for once.
        if !tried && (count >= 64 || ea.max(eb) <= limit_size) {
            tried = true;
            certificate = Certificate::try_new(a, b, &top, options);
            if certificate.as_ref().is_some_and(|c| c.covers(&top)) {
                if let Some(c) = certificate.as_mut() {
                    c.used = true;
                }
                continue;
            }
        }
        if count > options.max_boxes / 8 || ea.max(eb) <= limit_size {
            // The surfaces come within the precision: crossing surfaces show a sub-patch
            // centre inside the other solid; a point beside it is inside both.
            heap.push(Reverse(top));
            for Reverse(p) in heap.into_sorted_vec().into_iter().rev().take(12) {
                crate::budget::tick().map_err(limit)?;
                let inside_b = |z: &[Q; 3]| Ok(b.contains(z)? == Some(true));
                if let Some(w) = witness_beside(a, p.a.patch, &p.a.centre(), &inside_b)? {
                    return Ok(CurvedStatus::Penetrating { witness: w });
                }
                let inside_a = |z: &[Q; 3]| Ok(a.contains(z)? == Some(true));
                if let Some(w) = witness_beside(b, p.b.patch, &p.b.centre(), &inside_a)? {
                    return Ok(CurvedStatus::Penetrating { witness: w });
                }
            }
            return Ok(CurvedStatus::Undecided {
                reason: "the surfaces come within the precision (Bézier pairs)",
                unresolved: count,
            });
        }
        // Split the larger sub-patch along the direction whose halves are smaller.
        let split = |x: &Sub| {
            let (u, v) = x.halves(0);
            let (w, y) = x.halves(1);
            if ext(&bbox(&u.net)).max(ext(&bbox(&v.net))) <= ext(&bbox(&w.net)).max(ext(&bbox(&y.net))) {
                (u, v)
            } else {
                (w, y)
            }
        };
        if ea >= eb {
            let (l, r) = split(&top.a);
            heap.push(Reverse(pair(l, top.b.clone())));
            heap.push(Reverse(pair(r, top.b)));
        } else {
            let (l, r) = split(&top.b);
            heap.push(Reverse(pair(top.a.clone(), l)));
            heap.push(Reverse(pair(top.a, r)));
        }
    };
    let contact = certificate.filter(|c| c.used);
    // The surfaces meet at p at most: each patch is wholly inside the other solid or wholly
    // outside (but for p); a point of it decides.
    for (x, y) in [(a, b), (b, a)] {
        for k in 0..x.patches().len() {
            let corner = surface_point(x, k, contact.as_ref().map(|c| &c.point));
            match y.contains(&corner)? {
                Some(false) => {}
                Some(true) => {
                    // A point of x's surface inside y: a point beside it inside both.
                    let inside_y = |z: &[Q; 3]| Ok(y.contains(z)? == Some(true));
                    for c in [[q(0), q(0)], [q(1), q(0)], [q(0), q(1)], [q(1), q(1)]] {
                        if let Some(w) = witness_beside(x, k, &c, &inside_y)? {
                            return Ok(CurvedStatus::Penetrating { witness: w });
                        }
                    }
                    return Ok(CurvedStatus::Undecided {
                        reason: "one Bézier solid meets the other's inside: no witness found",
                        unresolved: 0,
                    });
                }
                None => {
                    return Ok(CurvedStatus::Undecided { reason: "a corner could not be classified", unresolved: 0 })
                }
            }
        }
    }
    match (contact, lower) {
        (Some(c), _) => {
            // a's pieces on −n's side: its outward normal is n.
            let normal = if c.sign_a < 0 { c.n } else { c.n.map(|v| -v) };
            Ok(CurvedStatus::Touching { point: c.point, normal, multiplier: q(1) })
        }
        (None, Some(lower)) => Ok(CurvedStatus::Separated {
            gap_squared_lower: Q::from_float(lower).unwrap_or_default(),
            gap_squared_upper: None,
        }),
        (None, None) => Ok(CurvedStatus::Undecided { reason: "no patch", unresolved: 0 }),
    }
}

#[cfg(test)]
mod tests {
    use super::gauss_newton;

    /// A residual that leaves the range ends the iteration with no point (its Jacobian's SVD
    /// would iterate without end), and an ordinary one still converges: x² = 2 from 1.
    #[test]
    fn gauss_newton_ends_on_residuals_out_of_range() {
        let wild = |x: &[f64]| vec![x[0] * 1e308 * 1e308, f64::NAN * x[1]];
        assert_eq!(gauss_newton(&wild, &[1.0, 1.0], 20), None);
        let root = gauss_newton(&|x: &[f64]| vec![x[0] * x[0] - 2.0], &[1.0], 50).expect("a point");
        assert!((root[0] - std::f64::consts::SQRT_2).abs() < 1e-9, "{root:?}");
    }
}
