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
//! outside) gives `Touching`.
//!
//! **Against another Bézier solid.** Pairs of sub-patches are refined best-first on the
//! distance of their control points' boxes: all apart, the surfaces miss each other, and one
//! point of each patch (a corner, on the surface) outside the other solid (ray casting) proves
//! the solids apart; a corner of one inside the other, and a point beside it inside both, is a
//! witness. Touching Bézier solids are left `Undecided`.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::bezier::{Hierarchy, Patch};
use super::implicit::Implicit;
use super::krawczyk::{isolate, System};
use super::poly3::{enclose_mean_value, hull, pt, FBox, IPoly3, Poly3};
use super::status::limit;
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

impl PartialEq for Square {
    fn eq(&self, o: &Self) -> bool {
        self.key.total_cmp(&o.key) == Ordering::Equal
    }
}
impl Eq for Square {}
impl PartialOrd for Square {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Square {
    fn cmp(&self, o: &Self) -> Ordering {
        self.key.total_cmp(&o.key)
    }
}

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
        // Every patch left with squares must touch b at an exact tangency whose convex cell
        // holds them all; then one interior point of b outside a proves the interiors apart.
        let mut contact: Option<ContactPoint> = None;
        let mut patches: Vec<usize> = leftover.iter().map(|sq| sq.patch).collect();
        patches.sort_unstable();
        patches.dedup();
        for patch in patches {
            let squares: Vec<&Square> = leftover.iter().filter(|sq| sq.patch == patch).collect();
            let Some((point, normal)) = patch_tangency(a, b, patch, &squares, options)? else {
                return undecided(leftover.len());
            };
            contact.get_or_insert((point, normal));
        }
        let Some((point, normal)) = contact else { return undecided(leftover.len()) };
        let Some(x) = interior_point(b) else { return undecided(leftover.len()) };
        return Ok(Some(match a.contains(&x)? {
            Some(false) => CurvedStatus::Touching { point, normal, multiplier: q(1) },
            Some(true) => CurvedStatus::Penetrating { witness: x },
            None => return undecided(leftover.len()),
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

/// An exact tangency of patch `patch` with b (module docs): a rational parameter point where
/// one constraint's φ and its gradient vanish exactly (every other constraint negative at the
/// surface point), with φ's interval Hessian positive definite on a cell of parameters that
/// holds every one of `squares`: φ ≥ 0 on the cell, so this piece of a's boundary stays outside
/// b's interior. The point and a's outward normal there (−∇g).
fn patch_tangency(
    a: &BezierSolid,
    b: &Implicit,
    patch: usize,
    squares: &[&Square],
    options: &StatusOptions,
) -> Result<Option<ContactPoint>, CurvedError> {
    let h = &a.homogeneous[patch];
    let start = squares
        .iter()
        .min_by(|x, y| x.key.total_cmp(&y.key))
        .map(|sq| [sq.s[0] + (sq.s[1] - sq.s[0]) / 2.0, sq.t[0] + (sq.t[1] - sq.t[0]) / 2.0]);
    let Some(start) = start else { return Ok(None) };
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
        // The simplest rational parameters nearby where φ and ∇φ vanish exactly.
        let found = [1e-13, 1e-11, 1e-9].iter().find_map(|&tol| {
            let near = |v: f64| {
                let c = Q::from_float(v).unwrap_or_default();
                let t = Q::from_float(tol).unwrap_or_default();
                super::status::simplest_between(&(&c - &t), &(&c + &t), 0)
            };
            let at = [near(x[0]), near(x[1]), q(0)];
            (phi.eval(&at).is_zero() && grad[0].eval(&at).is_zero() && grad[1].eval(&at).is_zero()).then_some(at)
        });
        let Some(at) = found else { continue };
        let point = a.patches[patch].point(&at[0], &at[1]);
        if !b.constraints().iter().enumerate().all(|(j, c)| j == k || c.eval(&point).is_negative()) {
            continue;
        }
        // The cell: the largest parameter box about `at` where φ's Hessian is certainly
        // positive definite (midpoint minus the radius's row sums, by its minors).
        let (s0, t0) = (Interval::from_rational(&at[0]), Interval::from_rational(&at[1]));
        let hi = hess.each_ref().map(|r| r.each_ref().map(|p| p.to_interval()));
        let mut cell = None;
        for level in 1..=(options.precision.min(40) + 8) {
            let w = 2f64.powi(-(level as i32));
            let bx = square([(s0 - pt(w)).lo(), (s0 + pt(w)).hi()], [(t0 - pt(w)).lo(), (t0 + pt(w)).hi()]);
            let e = hi.each_ref().map(|r| r.each_ref().map(|p| p.enclose(&bx)));
            let mid = |i: usize, j: usize| (e[i][j].lo() + e[i][j].hi()) / 2.0;
            let rad = |i: usize| (0..2).map(|j| (e[i][j].hi() - e[i][j].lo()) / 2.0).sum::<f64>();
            if e.iter().flatten().any(|v| !(v.lo().is_finite() && v.hi().is_finite())) {
                continue;
            }
            let r = pt(rad(0).max(rad(1)));
            let d0 = pt(mid(0, 0)) - r;
            let d1 = pt(mid(1, 1)) - r;
            let det = d0 * d1 - pt(mid(0, 1)) * pt(mid(1, 0));
            if d0.lo() > 0.0 && det.lo() > 0.0 {
                cell = Some(bx);
                break;
            }
        }
        let Some(cell) = cell else { continue };
        let held = squares
            .iter()
            .all(|sq| cell[0][0] <= sq.s[0] && sq.s[1] <= cell[0][1] && cell[1][0] <= sq.t[0] && sq.t[1] <= cell[1][1]);
        if !held {
            continue;
        }
        let normal = g.gradient().map(|d| -d.eval(&point));
        return Ok(Some((point, normal)));
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
fn witness_beside(
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

/// The status of two Bézier solids (module docs).
pub fn bezier_pair_status(
    a: &BezierSolid,
    b: &BezierSolid,
    options: &StatusOptions,
) -> Result<CurvedStatus, CurvedError> {
    // Pairs of sub-patches, best first by the distance of their control points' boxes.
    struct Pair {
        key: f64,
        a: Patch,
        b: Patch,
    }
    impl PartialEq for Pair {
        fn eq(&self, o: &Self) -> bool {
            self.key.total_cmp(&o.key) == Ordering::Equal
        }
    }
    impl Eq for Pair {}
    impl PartialOrd for Pair {
        fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Pair {
        fn cmp(&self, o: &Self) -> Ordering {
            self.key.total_cmp(&o.key)
        }
    }
    let bbox = |p: &Patch| -> FBox {
        let mut bx: FBox = [[f64::INFINITY, f64::NEG_INFINITY]; 3];
        for c in p.points() {
            for i in 0..3 {
                let v = Interval::from_rational(&c[i]);
                bx[i][0] = bx[i][0].min(v.lo());
                bx[i][1] = bx[i][1].max(v.hi());
            }
        }
        bx
    };
    let dist2 = |x: &FBox, y: &FBox| -> f64 {
        let mut s = pt(0.0);
        for i in 0..3 {
            let g = if x[i][0] > y[i][1] {
                pt(x[i][0]) - pt(y[i][1])
            } else if y[i][0] > x[i][1] {
                pt(y[i][0]) - pt(x[i][1])
            } else {
                continue;
            };
            s += g * g;
        }
        s.lo().max(0.0)
    };
    let mut heap = BinaryHeap::new();
    for pa in &a.patches {
        for pb in &b.patches {
            heap.push(Reverse(Pair { key: dist2(&bbox(pa), &bbox(pb)), a: pa.clone(), b: pb.clone() }));
        }
    }
    let mut count = 0usize;
    let lower;
    loop {
        crate::budget::tick().map_err(limit)?;
        let Some(Reverse(top)) = heap.pop() else {
            return Ok(CurvedStatus::Undecided { reason: "no patch", unresolved: 0 });
        };
        if top.key > 0.0 {
            lower = top.key;
            break;
        }
        count += 1;
        if count > options.max_boxes / 8 {
            return Ok(CurvedStatus::Undecided {
                reason: "the surfaces come within the precision (Bézier pairs)",
                unresolved: heap.len() + 1,
            });
        }
        // Split the larger sub-patch along its longer side.
        let ext = |bx: &FBox| bx.iter().map(|[l, h]| h - l).fold(0.0, f64::max);
        let (ea, eb) = (ext(&bbox(&top.a)), ext(&bbox(&top.b)));
        if ea.max(eb) <= 2f64.powi(-(options.precision.min(40) as i32)) * 16.0 {
            return Ok(CurvedStatus::Undecided {
                reason: "the surfaces come within the precision (Bézier pairs)",
                unresolved: heap.len() + 1,
            });
        }
        let split = |p: &Patch| {
            let (u, v) = p.split(0);
            let (w, x) = p.split(1);
            // The split along the direction whose halves are smaller.
            if ext(&bbox(&u)).max(ext(&bbox(&v))) <= ext(&bbox(&w)).max(ext(&bbox(&x))) {
                (u, v)
            } else {
                (w, x)
            }
        };
        if ea >= eb {
            let (l, r) = split(&top.a);
            for half in [l, r] {
                heap.push(Reverse(Pair { key: dist2(&bbox(&half), &bbox(&top.b)), a: half, b: top.b.clone() }));
            }
        } else {
            let (l, r) = split(&top.b);
            for half in [l, r] {
                heap.push(Reverse(Pair { key: dist2(&bbox(&top.a), &bbox(&half)), a: top.a.clone(), b: half }));
            }
        }
    }
    // The surfaces are apart: each patch of one is wholly inside the other solid or wholly
    // outside; a corner of each decides.
    for (x, y) in [(a, b), (b, a)] {
        for p in &x.patches {
            let corner = p.points()[0].clone();
            match y.contains(&corner)? {
                Some(false) => {}
                Some(true) => {
                    // A corner of x's surface inside y: a point beside it inside both.
                    let k = x.patches.iter().position(|q| std::ptr::eq(q, p)).unwrap_or(0);
                    let inside_y = |z: &[Q; 3]| Ok(y.contains(z)? == Some(true));
                    if let Some(w) = witness_beside(x, k, &[q(0), q(0)], &inside_y)? {
                        return Ok(CurvedStatus::Penetrating { witness: w });
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
    let lower = Q::from_float(lower).unwrap_or_default();
    Ok(CurvedStatus::Separated { gap_squared_lower: lower, gap_squared_upper: None })
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
