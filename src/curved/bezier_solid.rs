//! Solids bounded by closed sets of rational Bézier patches: point containment by certified ray
//! casting, and the certified status of a Bézier solid against a convex implicit solid (a
//! ball, a cylinder, a convex polytope) or another Bézier solid.
//!
//! **Containment.** A ray from q along a rational direction d crosses patch S where
//! u·(P − qW) = 0 and v·(P − qW) = 0 (u, v ⟂ d; P, W the homogeneous coordinates, polynomials
//! in s and t) with d·(P − qW) > 0. Each crossing is proved the only zero in a small box of the
//! parameter square by the Krawczyk test (a simple zero: the ray crosses the surface, it does
//! not graze it), strictly inside the square (a crossing on a patch's edge is shared with its
//! neighbour: that ray is dropped), with the sign of d·(P − qW) decided. The parity of the
//! crossings is the answer; a ray with anything undecided is dropped for the next direction,
//! and when every direction is dropped the point is not classified.
//!
//! **Against a convex implicit solid b** (constraints gₖ, every sub-level set {max gₖ < δ}
//! convex, so connected): φₖ(s, t) = gₖ(S(s, t))·W^deg is a polynomial on each patch. A
//! best-first search over parameter squares bounds min over the surface of max gₖ from below:
//! positive, the boundary of a misses b, so b lies wholly inside a or wholly outside, which
//! one point of b's interior decides (ray casting); the bound gives the gap (exactly for a
//! sphere's polynomial, else by a gradient bound). A square whose surface is inside b gives a
//! witness beside it; an exact rational tangency of a patch (φ = 0 and ∇φ = 0 at a rational
//! parameter point, φ's Hessian certainly positive definite about it, every other square
//! outside) gives `Touching`; a zero of ∇φ proved unique in a small parameter box by the
//! Krawczyk test, with the Hessian definite on a cell holding it and the leftover squares,
//! gives `Tangent` (touching to within the precision: φ ≥ φ(zero) on the cell, and φ(zero)
//! enclosed about 0).
//!
//! Two Bézier solids: `bezier_pair`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::bezier::{Hierarchy, Patch};
use super::implicit::Implicit;
use super::krawczyk::{isolate, krawczyk, Krawczyk, System};
use super::poly3::{enclose_mean_value, hull, pt, FBox, IPoly3, Poly3};
use super::search::{limit, ordered_by_key};
use super::{CurvedError, CurvedStatus, StatusOptions};
use crate::geom::Affine;
use crate::scalar::{Interval, Scalar};

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// A solid bounded by a closed set of rational Bézier patches, with each patch's homogeneous
/// polynomials and the hierarchy of hulls.
#[derive(Clone, Debug)]
pub struct BezierSolid {
    patches: Vec<Patch>,
    homogeneous: Vec<[Poly3; 4]>,
    hierarchy: Hierarchy,
}

/// A polynomial in (s, t) with its gradient, as intervals.
#[derive(Clone, Debug)]
struct P2 {
    p: IPoly3,
    grad: [IPoly3; 3],
}

impl P2 {
    fn new(p: &Poly3) -> Self {
        P2 { p: p.to_interval(), grad: p.gradient().map(|d| d.to_interval()) }
    }
    fn enclose(&self, b: &FBox) -> Interval {
        enclose_mean_value(&self.p, &self.grad, b)
    }
}

/// The parameter square [s0, s1] × [t0, t1] as a box (the third variable unused).
fn square(s: [f64; 2], t: [f64; 2]) -> FBox {
    [s, t, [0.0, 0.0]]
}

/// The square system of a ray's crossings with one patch.
struct RaySystem {
    f: [P2; 2],
}

impl System for RaySystem {
    fn dim(&self) -> usize {
        2
    }
    fn eval(&self, x: &[Interval]) -> Vec<Interval> {
        let b = square([x[0].lo(), x[0].hi()], [x[1].lo(), x[1].hi()]);
        self.f.iter().map(|p| p.enclose(&b)).collect()
    }
    fn jacobian(&self, x: &[Interval]) -> Vec<Vec<Interval>> {
        let b = square([x[0].lo(), x[0].hi()], [x[1].lo(), x[1].hi()]);
        self.f.iter().map(|p| (0..2).map(|j| p.grad[j].enclose(&b)).collect()).collect()
    }
}

/// The directions containment tries, in order.
const DIRECTIONS: [[i64; 3]; 8] =
    [[1, 2, 3], [-3, 1, 2], [2, -3, 1], [0, 0, 1], [1, 0, 0], [0, 1, 0], [-1, -2, 5], [4, 1, -3]];

/// g(P/W)·W^d for the homogeneous coordinates [X, Y, Z, W] of a patch and d the degree of g:
/// a polynomial in (s, t) with the sign of g on the patch (W > 0).
pub(crate) fn compose(g: &Poly3, h: &[Poly3; 4]) -> Poly3 {
    let d = g.degree() as usize;
    let powers = |p: &Poly3| {
        let mut v = vec![Poly3::constant(q(1))];
        for k in 1..=d {
            let next = v[k - 1].mul(p);
            v.push(next);
        }
        v
    };
    let (px, py, pz, pw) = (powers(&h[0]), powers(&h[1]), powers(&h[2]), powers(&h[3]));
    let mut out = Poly3::zero();
    for (e, c) in g.terms() {
        let (i, j, k) = (e[0] as usize, e[1] as usize, e[2] as usize);
        let m = px[i].mul(&py[j]).mul(&pz[k]).mul(&pw[d - i - j - k]);
        out = out.add(&m.scale(c));
    }
    out
}

/// A patch edge: its control points and weights.
type Edge = (Vec<[Q; 3]>, Vec<Q>);

/// A contact point and a's outward normal there.
type ContactPoint = ([Q; 3], [Q; 3]);

/// The edges of a patch as (control points, weights): s = 0, s = 1, t = 0, t = 1.
fn edges(p: &Patch) -> [Edge; 4] {
    let [m, n] = p.degree();
    let at = |i: usize, j: usize| i * (n + 1) + j;
    let line = |idx: Vec<usize>| {
        (idx.iter().map(|&k| p.points()[k].clone()).collect(), idx.iter().map(|&k| p.weights()[k].clone()).collect())
    };
    [
        line((0..=n).map(|j| at(0, j)).collect()),
        line((0..=n).map(|j| at(m, j)).collect()),
        line((0..=m).map(|i| at(i, 0)).collect()),
        line((0..=m).map(|i| at(i, n)).collect()),
    ]
}

/// Whether two edges are the same curve: equal control points (in order or reversed) and
/// proportional weights.
fn same_edge(a: &Edge, b: &Edge) -> bool {
    if a.0.len() != b.0.len() {
        return false;
    }
    let check = |rev: bool| {
        let idx = |k: usize| if rev { a.0.len() - 1 - k } else { k };
        (0..a.0.len()).all(|k| a.0[k] == b.0[idx(k)] && &a.1[k] * &b.1[idx(0)] == &b.1[idx(k)] * &a.1[0])
    };
    check(false) || check(true)
}

/// The patches close up (see [`BezierSolid::new`]).
fn closed(patches: &[Patch]) -> Result<(), CurvedError> {
    let all: Vec<(usize, usize, Edge)> = patches
        .iter()
        .enumerate()
        .flat_map(|(k, p)| edges(p).into_iter().enumerate().map(move |(e, x)| (k, e, x)))
        .collect();
    for (k, e, x) in &all {
        crate::budget::tick().map_err(limit)?;
        if x.0.iter().all(|p| *p == x.0[0]) {
            continue;
        }
        let partners = all.iter().filter(|(k2, e2, y)| (k2, e2) != (k, e) && same_edge(x, y)).count();
        if partners != 1 {
            return Err(CurvedError::BadPatch {
                reason: if partners == 0 {
                    "a patch edge is shared with no other patch: the surface is not closed"
                } else {
                    "a patch edge is shared with several patches: the surface is not a manifold"
                },
            });
        }
    }
    Ok(())
}

impl BezierSolid {
    /// The solid of the patches, with its hierarchy built exactly. The patches must close up:
    /// every edge of every patch that is not collapsed to a point is the same curve as exactly
    /// one other patch edge (the same control points, in either order, and proportional
    /// weights), so containment by ray casting is sound. Errors: an edge without its partner
    /// or with several ([`CurvedError::BadPatch`]), and those of [`Hierarchy::new`].
    pub fn new(patches: Vec<Patch>) -> Result<Self, CurvedError> {
        closed(&patches)?;
        let hierarchy = Hierarchy::new(&patches)?;
        let homogeneous = patches.iter().map(Patch::homogeneous).collect();
        Ok(BezierSolid { patches, homogeneous, hierarchy })
    }

    /// Each patch's homogeneous coordinates X, Y, Z, W (polynomials in s, t).
    pub(super) fn homogeneous(&self) -> &[[Poly3; 4]] {
        &self.homogeneous
    }

    /// The patches.
    pub fn patches(&self) -> &[Patch] {
        &self.patches
    }

    /// The hierarchy of hulls.
    pub fn hierarchy(&self) -> &Hierarchy {
        &self.hierarchy
    }

    /// The solid moved by an invertible affine map.
    pub fn posed(&self, m: &Affine<Q>) -> Result<Self, CurvedError> {
        BezierSolid::new(self.patches.iter().map(|p| p.posed(m)).collect())
    }

    /// Whether the rational point `p` is strictly inside (`Some(true)`), strictly outside
    /// (`Some(false)`), or not classified (`None`: on the surface, or every ray undecided).
    /// Errors: the budget's.
    pub fn contains(&self, p: &[Q; 3]) -> Result<Option<bool>, CurvedError> {
        'rays: for d in DIRECTIONS {
            let d = d.map(q);
            // u, v ⟂ d: u = d × e (e the axis least along d), v = d × u.
            let axis = (0..3).min_by_key(|&i| Signed::abs(&d[i])).unwrap_or(0);
            let mut e = [q(0), q(0), q(0)];
            e[axis] = q(1);
            let cross = |a: &[Q; 3], b: &[Q; 3]| {
                [&a[1] * &b[2] - &a[2] * &b[1], &a[2] * &b[0] - &a[0] * &b[2], &a[0] * &b[1] - &a[1] * &b[0]]
            };
            let u = cross(&d, &e);
            let v = cross(&d, &u);
            let mut crossings = 0usize;
            for h in &self.homogeneous {
                crate::budget::tick().map_err(limit)?;
                // w·(P − pW) for a direction w.
                let along = |w: &[Q; 3]| {
                    let wp = &w[0] * &p[0] + &w[1] * &p[1] + &w[2] * &p[2];
                    h[0].scale(&w[0]).add(&h[1].scale(&w[1])).add(&h[2].scale(&w[2])).add(&h[3].scale(&-wp))
                };
                let sys = RaySystem { f: [P2::new(&along(&u)), P2::new(&along(&v))] };
                let ahead = P2::new(&along(&d));
                let margin = 1.0 / 64.0;
                let region = [hull(-margin, 1.0 + margin), hull(-margin, 1.0 + margin)];
                let iso = isolate(&sys, &region, 1e-9, 4000).map_err(limit)?;
                let meets_square = |x: &[Interval]| x.iter().all(|c| c.hi() >= 0.0 && c.lo() <= 1.0);
                if iso.undecided.iter().any(|x| meets_square(x)) {
                    continue 'rays;
                }
                for root in &iso.roots {
                    if !meets_square(root) {
                        continue;
                    }
                    let inside = root.iter().all(|c| c.lo() > 0.0 && c.hi() < 1.0);
                    if !inside {
                        continue 'rays;
                    }
                    let lam = ahead.enclose(&square([root[0].lo(), root[0].hi()], [root[1].lo(), root[1].hi()]));
                    if lam.lo() > 0.0 {
                        crossings += 1;
                    } else if lam.hi() >= 0.0 {
                        // On the surface, or too near it to tell.
                        continue 'rays;
                    }
                }
            }
            return Ok(Some(crossings % 2 == 1));
        }
        Ok(None)
    }
}

/// A square of a patch's parameters with a lower bound of max gₖ on its piece of surface.
struct Square {
    key: f64,
    patch: usize,
    s: [f64; 2],
    t: [f64; 2],
}

ordered_by_key!(Square);

/// Whether every constraint's sub-level sets are convex (the S-procedure's connectivity): here,
/// every constraint linear or a sphere's or ellipsoid-like quadric with a positive definite
/// quadratic part of diagonal form, as the format's balls, cylinders' sides (a positive
/// semidefinite form: its sub-level sets are convex too) and polytopes give.
fn convex_constraints(b: &Implicit) -> bool {
    b.constraints().iter().all(|g| match g.degree() {
        0 | 1 => true,
        2 => {
            // The quadratic part's matrix, positive semidefinite by its principal minors.
            let mut m = [[q(0), q(0), q(0)], [q(0), q(0), q(0)], [q(0), q(0), q(0)]];
            for (e, c) in g.terms() {
                if e.iter().sum::<u32>() != 2 {
                    continue;
                }
                let idx: Vec<usize> = (0..3).flat_map(|i| std::iter::repeat_n(i, e[i] as usize)).collect();
                if idx[0] == idx[1] {
                    m[idx[0]][idx[0]] = c.clone();
                } else {
                    let half = c / q(2);
                    m[idx[0]][idx[1]] = half.clone();
                    m[idx[1]][idx[0]] = half;
                }
            }
            let d = |i: usize, j: usize| &m[i][i] * &m[j][j] - &m[i][j] * &m[j][i];
            let det = &m[0][0] * d(1, 2) - &m[0][1] * (&m[1][0] * &m[2][2] - &m[1][2] * &m[2][0])
                + &m[0][2] * (&m[1][0] * &m[2][1] - &m[1][1] * &m[2][0]);
            (0..3).all(|i| !m[i][i].is_negative())
                && !d(0, 1).is_negative()
                && !d(0, 2).is_negative()
                && !d(1, 2).is_negative()
                && !det.is_negative()
        }
        _ => false,
    })
}

/// A rational point strictly inside b: its box's centre, or a point of a 5 × 5 × 5 grid of it.
fn interior_point(b: &Implicit) -> Option<[Q; 3]> {
    let bx = b.aabb();
    (0..125)
        .map(|k| [k % 5, (k / 5) % 5, k / 25])
        .map(|[i, j, l]| {
            let at = |axis: usize, n: usize| {
                // The centre first: 2, then 1, 3, 0, 4.
                let order = [2, 1, 3, 0, 4];
                &bx[axis][0] + (&bx[axis][1] - &bx[axis][0]) * Q::new((order[n] as i64 + 1).into(), 6.into())
            };
            [at(0, i), at(1, j), at(2, l)]
        })
        .find(|p| b.contains_strictly(p))
}

/// The status of a Bézier solid `a` and a convex implicit solid `b` (module docs). `None` when
/// b's constraints are not of the convex kinds.
pub fn bezier_implicit_status(
    a: &BezierSolid,
    b: &Implicit,
    options: &StatusOptions,
) -> Result<Option<CurvedStatus>, CurvedError> {
    if !convex_constraints(b) {
        return Ok(None);
    }
    // φₖ per patch, and Wᵈ (the scale that turns φ back into g).
    let phis: Vec<Vec<(P2, P2)>> = a
        .homogeneous
        .iter()
        .map(|h| {
            b.constraints()
                .iter()
                .map(|g| {
                    let d = g.degree() as usize;
                    let mut wd = Poly3::constant(q(1));
                    for _ in 0..d {
                        wd = wd.mul(&h[3]);
                    }
                    (P2::new(&compose(g, h)), P2::new(&wd))
                })
                .collect()
        })
        .collect();
    // A lower bound of max gₖ over a square's surface: the best of φₖ,lo / (Wᵈ)_hi (for
    // φₖ,lo ≥ 0) or φₖ,lo / (Wᵈ)_lo (below 0).
    let key = |patch: usize, s: [f64; 2], t: [f64; 2]| -> (f64, bool) {
        let b = square(s, t);
        let mut best = f64::NEG_INFINITY;
        let mut inside = true;
        for (phi, wd) in &phis[patch] {
            let (e, w) = (phi.enclose(&b), wd.enclose(&b));
            inside &= e.hi() < 0.0;
            if w.lo() <= 0.0 {
                continue;
            }
            let lower = if e.lo() >= 0.0 { (pt(e.lo()) / pt(w.hi())).lo() } else { (pt(e.lo()) / pt(w.lo())).lo() };
            best = best.max(lower);
        }
        (best, inside)
    };
    let mut heap = BinaryHeap::new();
    for patch in 0..a.patches.len() {
        let (k, _) = key(patch, [0.0, 1.0], [0.0, 1.0]);
        heap.push(Reverse(Square { key: k, patch, s: [0.0, 1.0], t: [0.0, 1.0] }));
    }
    let min_width = 2f64.powi(-(options.precision.min(40) as i32));
    let mut count = 0usize;
    let mut leftover: Vec<Square> = Vec::new();
    while let Some(Reverse(sq)) = heap.pop() {
        crate::budget::tick().map_err(limit)?;
        count += 1;
        // Positive: a's boundary misses b; a few thousand more squares tighten the bound.
        if sq.key > 0.0 && (count > options.max_boxes / 40 || heap.is_empty()) {
            heap.push(Reverse(sq));
            break;
        }
        let (_, inside) = key(sq.patch, sq.s, sq.t);
        if inside {
            // This piece of a's surface is strictly inside b: a witness beside its centre.
            let c = [sq.s[0] + (sq.s[1] - sq.s[0]) / 2.0, sq.t[0] + (sq.t[1] - sq.t[0]) / 2.0]
                .map(|x| Q::from_float(x).unwrap_or_default());
            if let Some(w) = witness_beside(a, sq.patch, &c, &|y| Ok(b.contains_strictly(y)))? {
                return Ok(Some(CurvedStatus::Penetrating { witness: w }));
            }
        }
        if count > options.max_boxes {
            return Ok(Some(CurvedStatus::Undecided {
                reason: "box limit reached in the Bézier surface search",
                unresolved: heap.len(),
            }));
        }
        let (ws, wt) = (sq.s[1] - sq.s[0], sq.t[1] - sq.t[0]);
        if ws.max(wt) <= min_width {
            leftover.push(sq);
            continue;
        }
        let halves = if ws >= wt {
            let m = sq.s[0] + ws / 2.0;
            [([sq.s[0], m], sq.t), ([m, sq.s[1]], sq.t)]
        } else {
            let m = sq.t[0] + wt / 2.0;
            [(sq.s, [sq.t[0], m]), (sq.s, [m, sq.t[1]])]
        };
        for (s, t) in halves {
            let (k, _) = key(sq.patch, s, t);
            heap.push(Reverse(Square { key: k, patch: sq.patch, s, t }));
        }
    }
    let undecided = |n: usize| {
        Ok(Some(CurvedStatus::Undecided {
            reason: "the surfaces come within the precision: no witness, no separation, no tangency certificate",
            unresolved: n,
        }))
    };
    if heap.peek().is_some_and(|Reverse(sq)| sq.key <= 0.0) {
        return undecided(heap.len());
    }
    if !leftover.is_empty() {
        // Every patch left with squares must touch b at a tangency whose convex cell holds
        // them all (exact, or proved to within the precision); then one interior point of b
        // outside a proves the interiors apart.
        let mut exact: Option<ContactPoint> = None;
        let mut within: Option<(FBox, Interval, FBox)> = None;
        let mut patches: Vec<usize> = leftover.iter().map(|sq| sq.patch).collect();
        patches.sort_unstable();
        patches.dedup();
        for patch in patches {
            let squares: Vec<&Square> = leftover.iter().filter(|sq| sq.patch == patch).collect();
            match patch_tangency(a, b, patch, &squares, options)? {
                None => return undecided(leftover.len()),
                Some(PatchTangency::Exact(c)) => {
                    let c = *c;
                    exact.get_or_insert(c);
                }
                Some(PatchTangency::Within { point, value, cell, params }) => {
                    if value.hi() < 0.0 {
                        // The surface point is inside b: a witness beside it.
                        let c = params.map(|v| Q::from_float(v.lo() + (v.hi() - v.lo()) / 2.0).unwrap_or_default());
                        if let Some(w) = witness_beside(a, patch, &c, &|y| Ok(b.contains_strictly(y)))? {
                            return Ok(Some(CurvedStatus::Penetrating { witness: w }));
                        }
                    }
                    within = Some(match within {
                        None => (point, value, cell),
                        // (Several patches share the tangency on a seam: the cells' hull.)
                        Some((p0, v0, c0)) => {
                            (p0, v0, [0, 1, 2].map(|i| [c0[i][0].min(cell[i][0]), c0[i][1].max(cell[i][1])]))
                        }
                    });
                }
            }
        }
        let Some(x) = interior_point(b) else { return undecided(leftover.len()) };
        match a.contains(&x)? {
            Some(false) => {}
            Some(true) => return Ok(Some(CurvedStatus::Penetrating { witness: x })),
            None => return undecided(leftover.len()),
        }
        let qf = |v: f64| Q::from_float(v).unwrap_or_default();
        let q2 = |b: &FBox| b.map(|[lo, hi]| [qf(lo), qf(hi)]);
        return Ok(Some(match (within, exact) {
            (Some((point, value, cell)), _) => CurvedStatus::Tangent {
                point: q2(&point),
                value: [qf(value.lo()), qf(value.hi())],
                cell: q2(&cell),
                gap_squared_upper: None,
            },
            (None, Some((point, normal))) => CurvedStatus::Touching { point, normal, multiplier: q(1) },
            (None, None) => return undecided(leftover.len()),
        }));
    }
    // a's boundary misses b, by δ: b is inside a or outside; one interior point decides.
    let delta = heap.peek().map(|Reverse(sq)| sq.key).unwrap_or(0.0);
    let Some(x) = interior_point(b) else {
        return Ok(Some(CurvedStatus::Undecided {
            reason: "no interior point of the implicit solid was found",
            unresolved: 0,
        }));
    };
    match a.contains(&x)? {
        Some(true) => Ok(Some(CurvedStatus::Penetrating { witness: x })),
        Some(false) => {
            let lower = gap_from_level(b, delta, a)?;
            Ok(Some(CurvedStatus::Separated { gap_squared_lower: lower, gap_squared_upper: None }))
        }
        None => Ok(Some(CurvedStatus::Undecided {
            reason: "an interior point of b could not be classified against a",
            unresolved: 0,
        })),
    }
}

/// A tangency of one patch with b: exact, or proved to within the precision.
enum PatchTangency {
    /// An exact rational tangency: the point and a's outward normal there (−∇g).
    Exact(Box<ContactPoint>),
    /// A zero of ∇φ proved unique in a small parameter box by the Krawczyk test.
    Within {
        /// An enclosure of the surface point there.
        point: FBox,
        /// An enclosure of b's constraint there.
        value: Interval,
        /// An enclosure of the cell's surface piece (outside it the interiors do not meet).
        cell: FBox,
        /// The parameters' box.
        params: [Interval; 2],
    },
}

/// The largest parameter square about (s₀, t₀) on which the interval Hessian `hess` is
/// certainly positive definite (on each of 1, 4, 16 or 64 equal sub-squares: midpoint minus
/// the radius's row sums, by its minors), down to 2^-(precision + 8).
pub(super) fn definite_cell(hess: &[[IPoly3; 2]; 2], s0: Interval, t0: Interval, precision: u32) -> Option<FBox> {
    let definite = |bx: &FBox| {
        let e = hess.each_ref().map(|r| r.each_ref().map(|p| p.enclose(bx)));
        let mid = |i: usize, j: usize| (e[i][j].lo() + e[i][j].hi()) / 2.0;
        let rad = |i: usize| (0..2).map(|j| (e[i][j].hi() - e[i][j].lo()) / 2.0).sum::<f64>();
        if e.iter().flatten().any(|v| !(v.lo().is_finite() && v.hi().is_finite())) {
            return false;
        }
        let r = pt(rad(0).max(rad(1)));
        let d0 = pt(mid(0, 0)) - r;
        let d1 = pt(mid(1, 1)) - r;
        let det = d0 * d1 - pt(mid(0, 1)) * pt(mid(1, 0));
        d0.lo() > 0.0 && det.lo() > 0.0
    };
    for level in 1..=(precision.min(40) + 8) {
        let w = 2f64.powi(-(level as i32));
        let bx = square([(s0 - pt(w)).lo(), (s0 + pt(w)).hi()], [(t0 - pt(w)).lo(), (t0 + pt(w)).hi()]);
        for k in [1usize, 2, 4, 8] {
            // The sub-squares' sides: the box's split in k, the ends the box's own.
            let cut = |axis: usize, i: usize| {
                let [lo, hi] = bx[axis];
                match i {
                    0 => lo,
                    i if i == k => hi,
                    i => lo + (hi - lo) * i as f64 / k as f64,
                }
            };
            let all = (0..k * k).all(|n| {
                let (i, j) = (n / k, n % k);
                definite(&square([cut(0, i), cut(0, i + 1)], [cut(1, j), cut(1, j + 1)]))
            });
            if all {
                return Some(bx);
            }
        }
    }
    None
}

/// An enclosure of a patch's surface over a parameter box (P/W from the homogeneous
/// coordinates' enclosures, W > 0 there), or `None`.
fn surface_box(h: &[Poly3; 4], bx: &FBox) -> Option<FBox> {
    let e = h.each_ref().map(|p| P2::new(p).enclose(bx));
    if e[3].lo() <= 0.0 {
        return None;
    }
    let out = [0, 1, 2].map(|i| {
        let v = e[i] / e[3];
        [v.lo(), v.hi()]
    });
    out.iter().flatten().all(|v| v.is_finite()).then_some(out)
}

/// A tangency of patch `patch` with b (module docs) whose cell holds every one of `squares`.
/// Exact: a rational parameter point where one constraint's φ and its gradient vanish exactly
/// (every other constraint negative at the surface point), with φ's interval Hessian positive
/// definite on a cell of parameters that holds every one of `squares`: φ ≥ 0 on the cell, so
/// this piece of a's boundary stays outside b's interior. Within the precision: the zero of
/// ∇φ proved unique in a small box by the Krawczyk test, the Hessian positive definite on a
/// cell holding it and the squares, so φ ≥ φ(zero) on the cell, with φ(zero) enclosed about 0.
fn patch_tangency(
    a: &BezierSolid,
    b: &Implicit,
    patch: usize,
    squares: &[&Square],
    options: &StatusOptions,
) -> Result<Option<PatchTangency>, CurvedError> {
    let h = &a.homogeneous[patch];
    let start = squares
        .iter()
        .min_by(|x, y| x.key.total_cmp(&y.key))
        .map(|sq| [sq.s[0] + (sq.s[1] - sq.s[0]) / 2.0, sq.t[0] + (sq.t[1] - sq.t[0]) / 2.0]);
    let Some(start) = start else { return Ok(None) };
    let held = |cell: &FBox| {
        squares
            .iter()
            .all(|sq| cell[0][0] <= sq.s[0] && sq.s[1] <= cell[0][1] && cell[1][0] <= sq.t[0] && sq.t[1] <= cell[1][1])
    };
    for (k, g) in b.constraints().iter().enumerate() {
        crate::budget::tick().map_err(limit)?;
        let phi = compose(g, h);
        let grad = [phi.derivative(0), phi.derivative(1)];
        let hess = [[grad[0].derivative(0), grad[0].derivative(1)], [grad[1].derivative(0), grad[1].derivative(1)]];
        // Newton's method in floats on ∇φ = 0.
        let ev = |p: &Poly3, x: &[f64; 2]| p.to_interval().eval_f64(&[x[0], x[1], 0.0]);
        let mut x = start;
        for _ in 0..40 {
            let (gs, gt) = (ev(&grad[0], &x), ev(&grad[1], &x));
            let (a11, a12, a22) = (ev(&hess[0][0], &x), ev(&hess[0][1], &x), ev(&hess[1][1], &x));
            let det = a11 * a22 - a12 * a12;
            if !(det.is_finite() && det != 0.0) {
                break;
            }
            let (ds, dt) = ((a22 * gs - a12 * gt) / det, (a11 * gt - a12 * gs) / det);
            x = [x[0] - ds, x[1] - dt];
            if ds.abs().max(dt.abs()) < 1e-16 {
                break;
            }
        }
        if !x.iter().all(|v| v.is_finite()) {
            continue;
        }
        let hi = hess.each_ref().map(|r| r.each_ref().map(|p| p.to_interval()));
        // The simplest rational parameters nearby where φ and ∇φ vanish exactly.
        let found = [1e-13, 1e-11, 1e-9].iter().find_map(|&tol| {
            let near = |v: f64| {
                let c = Q::from_float(v).unwrap_or_default();
                let t = Q::from_float(tol).unwrap_or_default();
                super::search::simplest_between(&(&c - &t), &(&c + &t), 0)
            };
            let at = [near(x[0]), near(x[1]), q(0)];
            (phi.eval(&at).is_zero() && grad[0].eval(&at).is_zero() && grad[1].eval(&at).is_zero()).then_some(at)
        });
        if let Some(at) = found {
            let point = a.patches[patch].point(&at[0], &at[1]);
            if !b.constraints().iter().enumerate().all(|(j, c)| j == k || c.eval(&point).is_negative()) {
                continue;
            }
            let (s0, t0) = (Interval::from_rational(&at[0]), Interval::from_rational(&at[1]));
            let Some(cell) = definite_cell(&hi, s0, t0, options.precision) else { continue };
            if !held(&cell) {
                continue;
            }
            let normal = g.gradient().map(|d| -d.eval(&point));
            return Ok(Some(PatchTangency::Exact(Box::new((point, normal)))));
        }
        // Else the zero of ∇φ proved unique in a small box about x.
        let sys = RaySystem { f: [P2::new(&grad[0]), P2::new(&grad[1])] };
        let proved = [1e-9, 1e-7, 1e-5].iter().find_map(|&w| {
            let bx = [hull(x[0] - w, x[0] + w), hull(x[1] - w, x[1] + w)];
            match krawczyk(&sys, &bx, 6) {
                Krawczyk::Unique(r) => Some([r[0], r[1]]),
                _ => None,
            }
        });
        let Some(params) = proved else { continue };
        let pbox = square([params[0].lo(), params[0].hi()], [params[1].lo(), params[1].hi()]);
        // Every other constraint negative on the surface there (W > 0: φⱼ has gⱼ's sign).
        let others_negative = b
            .constraints()
            .iter()
            .enumerate()
            .all(|(j, c)| j == k || P2::new(&compose(c, h)).enclose(&pbox).hi() < 0.0);
        if !others_negative {
            continue;
        }
        let Some(cell) = definite_cell(&hi, params[0], params[1], options.precision) else { continue };
        let inside = cell[0][0] <= params[0].lo()
            && params[0].hi() <= cell[0][1]
            && cell[1][0] <= params[1].lo()
            && params[1].hi() <= cell[1][1];
        if !(inside && held(&cell)) {
            continue;
        }
        // g at the surface point: φ / Wᵈ.
        let mut wd = Poly3::constant(q(1));
        for _ in 0..g.degree() {
            wd = wd.mul(&h[3]);
        }
        let (e, w) = (P2::new(&phi).enclose(&pbox), P2::new(&wd).enclose(&pbox));
        if w.lo() <= 0.0 {
            continue;
        }
        let (Some(point), Some(cell3)) = (surface_box(h, &pbox), surface_box(h, &cell)) else { continue };
        return Ok(Some(PatchTangency::Within { point, value: e / w, cell: cell3, params }));
    }
    Ok(None)
}

/// A lower bound on the squared gap from max gₖ ≥ δ on a (module docs): for one constraint of
/// a sphere's form exactly; else δ over the largest |∇gₖ| on the hull of the two solids.
fn gap_from_level(b: &Implicit, delta: f64, a: &BezierSolid) -> Result<Q, CurvedError> {
    let delta = Q::from_float(delta).unwrap_or_default();
    if !delta.is_positive() {
        return Ok(Q::zero());
    }
    // The hull of a's control points and b's box.
    let mut bx: FBox = [[f64::INFINITY, f64::NEG_INFINITY]; 3];
    for p in a.patches.iter().flat_map(|p| p.points()) {
        for i in 0..3 {
            let v = Interval::from_rational(&p[i]);
            bx[i][0] = bx[i][0].min(v.lo());
            bx[i][1] = bx[i][1].max(v.hi());
        }
    }
    for (i, [lo, hi]) in b.aabb().iter().enumerate() {
        bx[i][0] = bx[i][0].min(Interval::from_rational(lo).lo());
        bx[i][1] = bx[i][1].max(Interval::from_rational(hi).hi());
    }
    let mut l2_max = Q::zero();
    for g in b.constraints() {
        let grad = g.gradient().map(|d| d.to_interval());
        let l2 = grad.iter().map(|d| d.enclose(&bx)).fold(pt(0.0), |acc, e| acc + e * e);
        let l2 = Q::from_float(l2.hi()).unwrap_or_default();
        if l2 > l2_max {
            l2_max = l2;
        }
    }
    if !l2_max.is_positive() {
        return Ok(Q::zero());
    }
    Ok(&delta * &delta / l2_max)
}

/// A point strictly inside both near S(c) of patch `patch` (whose surface is inside b there):
/// small steps along ± the patch's normal, each checked exactly against b and by ray casting
/// against a.
pub(super) fn witness_beside(
    a: &BezierSolid,
    patch: usize,
    c: &[Q; 2],
    other: &dyn Fn(&[Q; 3]) -> Result<bool, CurvedError>,
) -> Result<Option<[Q; 3]>, CurvedError> {
    let p = a.patches[patch].point(&c[0], &c[1]);
    let h = &a.homogeneous[patch];
    let at = [c[0].clone(), c[1].clone(), q(0)];
    // The normal of P/W: (PₛW − PWₛ) × (PₜW − PWₜ), in floats.
    let f = |x: &Q| crate::scalar::Scalar::to_f64(x);
    let vals: Vec<f64> = h.iter().map(|p| f(&p.eval(&at))).collect();
    let ds: Vec<f64> = h.iter().map(|p| f(&p.derivative(0).eval(&at))).collect();
    let dt: Vec<f64> = h.iter().map(|p| f(&p.derivative(1).eval(&at))).collect();
    let ts = [0, 1, 2].map(|i| ds[i] * vals[3] - vals[i] * ds[3]);
    let tt = [0, 1, 2].map(|i| dt[i] * vals[3] - vals[i] * dt[3]);
    let n = [ts[1] * tt[2] - ts[2] * tt[1], ts[2] * tt[0] - ts[0] * tt[2], ts[0] * tt[1] - ts[1] * tt[0]];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if !(len.is_finite() && len > 0.0) {
        return Ok(None);
    }
    let size = a.patches[patch].points().iter().flatten().map(|x| f(x).abs()).fold(1.0, f64::max);
    for k in [12, 20, 28, 36] {
        for sign in [1.0, -1.0] {
            let t = sign * size * 2f64.powi(-k) / len;
            let y = [0, 1, 2].map(|i| &p[i] + Q::from_float(t * n[i]).unwrap_or_default());
            if other(&y)? && a.contains(&y)? == Some(true) {
                return Ok(Some(y));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curved::bezier::torus_patches;

    #[test]
    fn only_closed_patch_sets_are_solids() {
        let mut patches = torus_patches(&q(3), &q(1)).unwrap();
        assert!(BezierSolid::new(patches.clone()).is_ok());
        // A patch removed: its neighbours' edges lose their partners.
        patches.remove(7);
        assert!(matches!(BezierSolid::new(patches.clone()), Err(CurvedError::BadPatch { .. })));
        // A patch twice: its edges have two partners.
        let mut twice = torus_patches(&q(3), &q(1)).unwrap();
        twice.push(twice[0].clone());
        assert!(matches!(BezierSolid::new(twice), Err(CurvedError::BadPatch { .. })));
    }
}
