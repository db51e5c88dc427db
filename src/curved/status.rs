//! The certified status of two implicit solids: penetrating (an exact witness point inside
//! both), separated (a certified lower bound on the gap), touching (an exact common point with
//! a certificate that the interiors do not meet), or undecided at the precision asked.
//!
//! Three searches over boxes with binary64 ends (each end an exact rational), on certified
//! enclosures (outward-rounded intervals, mean-value form):
//! 1. **Penetration and intersection**: the common box is bisected; a box where some
//!    constraint of either solid is positive throughout holds no common point and is dropped;
//!    a box whose centre is strictly inside both (checked exactly) is the witness. If every
//!    box is dropped the solids are disjoint.
//! 2. **Gap**: a best-first search over pairs of boxes (one for each solid), ordered by a
//!    certified lower bound on their squared distance. Pairs where a box holds no point of its
//!    solid are dropped; the first pair of boxes no wider than the precision bounds the gap from
//!    below (every pair of points lies in some pair still queued), and exact member points in
//!    those boxes, where found, bound it from above.
//! 3. **Touching**: from the boxes left by the first search, Newton's method in binary64 on
//!    ∇f + β∇g = 0, f = 0 finds the tangency of (7); the point is rounded to the simplest
//!    rational nearby and checked exactly: f = g = 0 there, the other constraints negative,
//!    ∇f ∥ ∇g with ∇f·∇g < 0, so β = −∇f·∇g/|∇g|² > 0. Then ψ = f + βg − μfg (μ ≥ 0 chosen so
//!    that ψ's Hessian at the point is positive definite) is negative wherever f < 0 and g < 0,
//!    vanishes with its gradient at the point, and is certified convex on a box X around it (its
//!    interval Hessian's midpoint minus the radius's row-sum norm is positive definite, by
//!    exact minors): ψ > 0 on X but at the point, so the interiors do not meet in X. Outside X
//!    every box must show ψ ≥ 0 or a constraint ≥ 0 throughout. Where no rational point
//!    checks, the Krawczyk test may prove the tangency system's zero unique in a small box
//!    with b's constraint enclosed within the precision's reach of 0 there (|∇g| times the
//!    common box's size over 2ᵖ, p the query's precision, not the deepening step's): with
//!    the same ψ check outside X, that is `Tangent` (touching to within the precision). Several contact points, or a contact
//!    curve, give `Undecided`: never a wrong certificate.
//!
//! Before these, two disjoint solids are tried for a separating level set (`separate`), which
//! bounds the gap to the precision with 3-dimensional searches.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::implicit::Implicit;
use super::poly3::{enclose_mean_value, hull, pt, FBox, Poly3};
use super::search::{
    box_distance_squared_lower, center, dot, exact, hessian, intersect, member, newton, positive_definite, split,
    width, Pair, Prepared,
};
pub(super) use super::search::{limit, simplest_between};
use super::CurvedError;
use crate::scalar::{Interval, Scalar};

/// The most terms of ψ = f + βg − μfg the touching certificate builds (two full quartics
/// give 35·35).
const MAX_PSI_TERMS: usize = 4096;

/// How far the searches go.
#[derive(Clone, Debug)]
pub struct StatusOptions {
    /// Boxes are bisected down to the common box's largest side over 2^precision (the
    /// touching certificate goes a further 2^12 down). The searches run at precision 6, 10,
    /// 14, … up to this one, and stop at the first that decides.
    pub precision: u32,
    /// The most boxes (or pairs) any one search examines before answering `Undecided`.
    pub max_boxes: usize,
}

impl Default for StatusOptions {
    fn default() -> Self {
        StatusOptions { precision: 10, max_boxes: 200_000 }
    }
}

/// The certified status of two implicit solids.
// One status is returned per query: the touching certificate's seven rationals inline are
// clearer than a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum CurvedStatus {
    /// The interiors meet: `witness` is strictly inside both (checked exactly).
    Penetrating {
        /// A rational point where every constraint of both solids is negative.
        witness: [BigRational; 3],
    },
    /// The solids are disjoint and the squared gap is at least `gap_squared_lower` (> 0);
    /// `gap_squared_upper` is the squared distance of two exact member points where found.
    Separated {
        /// A certified lower bound on the squared distance.
        gap_squared_lower: BigRational,
        /// The squared distance of a point of a and a point of b (both checked exactly).
        gap_squared_upper: Option<BigRational>,
    },
    /// The solids meet at `point` (on both surfaces, exactly) and their interiors do not meet.
    Touching {
        /// The contact point, on both surfaces.
        point: [BigRational; 3],
        /// The gradient at the point of a's constraint that vanishes there (its surface
        /// polynomial, or a box face or plane): an outward normal of a; b's is −normal/β.
        normal: [BigRational; 3],
        /// β > 0 with ∇f + β∇g = 0 at the point.
        multiplier: BigRational,
    },
    /// Touching to within the precision, at a tangency that is not an exact rational point
    /// (irrational, or off touching by less than the precision): the square tangency system
    /// ∇f + β∇g = 0, f = 0 has exactly one zero in `point` (proved by the Krawczyk test), a
    /// point p̃ of a's surface where b's constraint g is stationary along it, with g(p̃) in
    /// `value` (within |∇g|·size·2⁻ᵖ of 0); outside `cell` the interiors are proved disjoint.
    Tangent {
        /// The box (per axis [lo, hi]) holding the tangency point.
        point: [[BigRational; 2]; 3],
        /// An enclosure of b's constraint at the tangency point.
        value: [BigRational; 2],
        /// The box about it outside which the interiors do not meet.
        cell: [[BigRational; 2]; 3],
        /// The squared distance of two exact member points near it, where found.
        gap_squared_upper: Option<BigRational>,
    },
    /// No certificate at this precision: `reason` says which search stopped.
    Undecided {
        /// Why.
        reason: &'static str,
        /// The boxes left unresolved (possible contact) by the last search.
        unresolved: usize,
    },
}

/// The certified status of two implicit solids (see the module's documentation for the
/// searches and their certificates).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::curved::{implicit_status, CurvedStatus, Implicit, StatusOptions};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // Balls of radii 2 and 3 with centres 5 apart (a 3-4-0 offset) touch at (6/5, 8/5, 0).
/// let a = Implicit::sphere([q(0), q(0), q(0)], q(2)).unwrap();
/// let b = Implicit::sphere([q(3), q(4), q(0)], q(3)).unwrap();
/// match implicit_status(&a, &b, &StatusOptions::default()).unwrap() {
///     CurvedStatus::Touching { point, .. } => {
///         assert_eq!(point, [BigRational::new(6.into(), 5.into()), BigRational::new(8.into(), 5.into()), q(0)]);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
///
/// Errors: [`CurvedError::Limit`] when the query's budget is spent.
pub fn implicit_status(a: &Implicit, b: &Implicit, options: &StatusOptions) -> Result<CurvedStatus, CurvedError> {
    // Iterative deepening: most configurations are decided at a coarse precision, where the
    // touching search holds far fewer boxes; each step costs about a quarter of the next.
    let (pa, pb) = (Prepared::new(a), Prepared::new(b));
    // A deep overlap shows in a coarse box search at once (a ball pushed 1/8 into a torus:
    // 0.1 ms, where a failed separation costs 50 ms of box searches first).
    let coarse = StatusOptions { precision: options.precision.min(6), max_boxes: options.max_boxes.min(2_000) };
    if let s @ CurvedStatus::Penetrating { .. } = status_at(&pa, &pb, &coarse, options.precision)? {
        return Ok(s);
    }
    // Disjoint solids are separated by a plane: two 3-dimensional searches certify it, with
    // the gap bounded to the precision (see `separate`).
    let size = width(&pa.aabb).max(width(&pb.aabb));
    if let Some(s) = super::separate::separated_certified(&pa, &pb, size, options.precision)? {
        return Ok(s);
    }
    // Overlapping solids: a witness beside the deepest point of one surface inside the other
    // (a small overlap is a thin lens the box search below would need fine boxes to hit).
    if let Some(w) = super::separate::witness_by_deepest_point(&pa, &pb, size)? {
        return Ok(CurvedStatus::Penetrating { witness: w });
    }
    let mut precision = options.precision.min(6);
    loop {
        let step = StatusOptions { precision, ..options.clone() };
        let s = status_at(&pa, &pb, &step, options.precision)?;
        if precision >= options.precision || !matches!(s, CurvedStatus::Undecided { .. }) {
            return Ok(s);
        }
        precision = (precision + 4).min(options.precision);
    }
}

/// [`implicit_status`] at one precision (the search's depth), `bits` the query's own (how near
/// touching a tangency certified to within the precision must be).
fn status_at(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    options: &StatusOptions,
    bits: u32,
) -> Result<CurvedStatus, CurvedError> {
    let (a, b) = (pa.solid, pb.solid);
    let Some(region) = intersect(&pa.aabb, &pb.aabb) else {
        return gap(pa, pb, options, width(&pa.aabb).max(width(&pb.aabb)));
    };
    let size = width(&region).max(width(&pa.aabb).min(width(&pb.aabb)));
    let min_width = size / 2f64.powi(options.precision.min(60) as i32);
    let mut stack = vec![region];
    let mut leaves = Vec::new();
    let mut count = 0usize;
    while let Some(bx) = stack.pop() {
        crate::budget::tick().map_err(limit)?;
        count += 1;
        if count > options.max_boxes {
            return Ok(CurvedStatus::Undecided {
                reason: "box limit reached in the penetration search",
                unresolved: stack.len() + leaves.len(),
            });
        }
        if pa.excludes(&bx) || pb.excludes(&bx) {
            continue;
        }
        let c = center(&bx);
        if pa.strictly_inside(&c) && pb.strictly_inside(&c) {
            let w = exact(&c);
            if a.contains_strictly(&w) && b.contains_strictly(&w) {
                return Ok(CurvedStatus::Penetrating { witness: w });
            }
        }
        match split(&bx) {
            Some((l, r)) if width(&bx) > min_width => {
                stack.push(r);
                stack.push(l);
            }
            _ => leaves.push(bx),
        }
    }
    if leaves.is_empty() {
        return gap(pa, pb, options, size);
    }
    if let Some(s) = touching(pa, pb, &region, &leaves, options, size, bits)? {
        return Ok(s);
    }
    Ok(CurvedStatus::Undecided {
        reason: "boxes at the precision may hold common points: no witness, no separation, no tangency certificate",
        unresolved: leaves.len(),
    })
}

fn gap(pa: &Prepared<'_>, pb: &Prepared<'_>, options: &StatusOptions, size: f64) -> Result<CurvedStatus, CurvedError> {
    let min_width = size / 2f64.powi(options.precision.min(60) as i32);
    let mut heap = BinaryHeap::new();
    heap.push(Reverse(Pair { key: box_distance_squared_lower(&pa.aabb, &pb.aabb), p: pa.aabb, q: pb.aabb }));
    let mut count = 0usize;
    // Every popped key is a certified lower bound (each pair of points lies in a queued pair,
    // and keys pop in increasing order): once one is positive the solids are separated, and
    // refinement goes on, within a tenth of the box limit, to tighten it.
    let mut positive: Option<(f64, FBox, FBox)> = None;
    let refine = (options.max_boxes / 10).max(1);
    while let Some(Reverse(Pair { key, p, q })) = heap.pop() {
        crate::budget::tick().map_err(limit)?;
        count += 1;
        if pa.off_boundary(&p) || pb.off_boundary(&q) {
            continue;
        }
        if key > 0.0 {
            positive = Some((key, p, q));
        }
        let (wp, wq) = (width(&p), width(&q));
        let done = wp <= min_width && wq <= min_width;
        if positive.is_some() && (done || count > refine) {
            break;
        }
        if count > options.max_boxes {
            return Ok(CurvedStatus::Undecided {
                reason: "box limit reached in the gap search",
                unresolved: heap.len(),
            });
        }
        let children =
            if wp >= wq { split(&p).map(|(l, r)| [(l, q), (r, q)]) } else { split(&q).map(|(l, r)| [(p, l), (p, r)]) };
        let Some(children) = children else {
            return Ok(CurvedStatus::Undecided {
                reason: "the gap is below binary64 box resolution",
                unresolved: heap.len() + 1,
            });
        };
        for (p, q) in children {
            heap.push(Reverse(Pair { key: box_distance_squared_lower(&p, &q), p, q }));
        }
    }
    if let Some((key, p, q)) = positive {
        let upper = match (member(pa, &p), member(pb, &q)) {
            (Some(x), Some(y)) => {
                Some((0..3).map(|i| (&x[i] - &y[i]) * (&x[i] - &y[i])).fold(BigRational::zero(), |s, t| s + t))
            }
            _ => None,
        };
        let lower = BigRational::from_float(key).unwrap_or_default();
        return Ok(CurvedStatus::Separated { gap_squared_lower: lower, gap_squared_upper: upper });
    }
    Ok(CurvedStatus::Undecided { reason: "no point of one solid was found: it may be empty", unresolved: 0 })
}

/// The exact contact point and multiplier near the float tangency `x` of constraint `ia` of a
/// and `ib` of b (every other constraint strictly negative there), if one checks.
fn exact_tangency(
    (a, ia): (&Implicit, usize),
    (b, ib): (&Implicit, usize),
    x: [f64; 3],
    size: f64,
) -> Option<([BigRational; 3], BigRational)> {
    let (f, g) = (&a.constraints()[ia], &b.constraints()[ib]);
    for tol in [1e-13, 1e-11, 1e-9, 1e-7] {
        let t = BigRational::from_float(tol * size.max(f64::MIN_POSITIVE)).unwrap_or_default();
        let p = x.map(|v| {
            let v = BigRational::from_float(v).unwrap_or_default();
            simplest_between(&(&v - &t), &(&v + &t), 0)
        });
        if !f.eval(&p).is_zero() || !g.eval(&p).is_zero() {
            continue;
        }
        let others = |s: &Implicit, i: usize| {
            s.constraints().iter().enumerate().all(|(k, c)| k == i || c.eval(&p).is_negative())
        };
        if !others(a, ia) || !others(b, ib) {
            continue;
        }
        let (gf, gg) = (f.gradient().map(|d| d.eval(&p)), g.gradient().map(|d| d.eval(&p)));
        let cross =
            [&gf[1] * &gg[2] - &gf[2] * &gg[1], &gf[2] * &gg[0] - &gf[0] * &gg[2], &gf[0] * &gg[1] - &gf[1] * &gg[0]];
        let gg2 = dot(&gg, &gg);
        let fg = dot(&gf, &gg);
        if gg2.is_zero() || !cross.iter().all(Zero::is_zero) || !fg.is_negative() {
            continue;
        }
        return Some((p, -fg / gg2));
    }
    None
}

/// A tangency proved by the Krawczyk test: the box holding the unique zero of the square
/// system ∇f + β∇g = 0, f = 0 (a critical point p̃ of g on the surface f = 0), β's midpoint,
/// and an enclosure of g(p̃) within the precision's reach of 0.
struct Tangency {
    point: FBox,
    beta: f64,
    value: Interval,
}

/// The Krawczyk tangency near the float point `x` (constraint `ia` of a, `ib` of b), with every
/// other constraint of both negative on its box and g's enclosure there holding 0; `None`
/// otherwise (the other searches decide).
fn krawczyk_tangency(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    (ia, ib): (usize, usize),
    x: [f64; 3],
    size: f64,
    bits: u32,
) -> Option<Tangency> {
    use super::krawczyk::{fbox, krawczyk, Krawczyk, TangencySystem};
    let (f, g) = (&pa.solid.constraints()[ia], &pb.solid.constraints()[ib]);
    let (gfv, ggv) = (
        pa.constraints[ia].1.each_ref().map(|d| d.eval_f64(&x)),
        pb.constraints[ib].1.each_ref().map(|d| d.eval_f64(&x)),
    );
    let gg: f64 = ggv.iter().map(|v| v * v).sum();
    let beta = -(gfv[0] * ggv[0] + gfv[1] * ggv[1] + gfv[2] * ggv[2]) / gg;
    if !(beta > 0.0 && beta.is_finite()) {
        return None;
    }
    let sys = TangencySystem::new(f, g);
    for r in [1e-12, 1e-10, 1e-8, 1e-6] {
        let w = r * size;
        let mut bx: Vec<Interval> = x.iter().map(|&v| hull(v - w, v + w)).collect();
        bx.push(hull(beta * (1.0 - r * 16.0), beta * (1.0 + r * 16.0)));
        let Krawczyk::Unique(k) = krawczyk(&sys, &bx, 8) else { continue };
        if k[3].lo() <= 0.0 {
            return None;
        }
        let point = fbox(&k);
        let others = |p: &Prepared<'_>, i: usize| {
            p.constraints.iter().enumerate().all(|(j, (c, d))| j == i || enclose_mean_value(c, d, &point).hi() < 0.0)
        };
        if !others(pa, ia) || !others(pb, ib) {
            return None;
        }
        // g there within its change over the precision's distance of 0 (|∇g| times the
        // common box's size over 2^bits): the solids are that near touching, either way.
        let value = enclose_mean_value(&pb.constraints[ib].0, &pb.constraints[ib].1, &point);
        let reach = gg.sqrt() * size / 2f64.powi(bits.min(60) as i32);
        if value.lo() > reach || value.hi() < -reach {
            return None;
        }
        let mid = k[3].lo() + (k[3].hi() - k[3].lo()) / 2.0;
        return Some(Tangency { point, beta: mid, value });
    }
    None
}

/// The touching certificate (step 3 of the module's documentation), or `None`.
fn touching(
    pa: &Prepared<'_>,
    pb: &Prepared<'_>,
    region: &FBox,
    leaves: &[FBox],
    options: &StatusOptions,
    size: f64,
    bits: u32,
) -> Result<Option<CurvedStatus>, CurvedError> {
    let (a, b) = (pa.solid, pb.solid);
    // Start where the two solids' boundaries are nearest among the leaves' centres, each
    // solid's surface there being its constraint of least magnitude (the surface polynomial,
    // a box face or a polytope's plane).
    let nearest = |p: &Prepared<'_>, x: &[f64; 3]| {
        p.constraints
            .iter()
            .enumerate()
            .map(|(k, (c, _))| (k, c.eval_f64(x).abs()))
            .min_by(|u, v| u.1.total_cmp(&v.1))
            .unwrap_or((0, f64::INFINITY))
    };
    let start = leaves
        .iter()
        .map(center)
        .min_by(|x, y| (nearest(pa, x).1 + nearest(pb, x).1).total_cmp(&(nearest(pa, y).1 + nearest(pb, y).1)))
        .unwrap_or_else(|| center(region));
    let (ia, ib) = (nearest(pa, &start).0, nearest(pb, &start).0);
    let (f, g) = (&a.constraints()[ia], &b.constraints()[ib]);
    let (fi, gfi, ggi) =
        (f.to_interval(), f.gradient().map(|d| d.to_interval()), g.gradient().map(|d| d.to_interval()));
    let (hf, hg) = (hessian(f), hessian(g));
    let (hfi, hgi) = (
        hf.each_ref().map(|r| r.each_ref().map(|p| p.to_interval())),
        hg.each_ref().map(|r| r.each_ref().map(|p| p.to_interval())),
    );
    // ψ has up to |f|·|g| terms, each enclosed on every box of the certificate: a bound keeps
    // a hostile pair of large polynomials from costing without limit between budget ticks.
    if f.terms().count() * g.terms().count() > MAX_PSI_TERMS {
        return Ok(None);
    }
    let Some(x) = newton(&fi, &gfi, &hfi, &ggi, &hgi, start) else { return Ok(None) };
    // An exact rational tangency, or else a tangency point proved unique in a small box by the
    // Krawczyk test (irrational, or not a tangency exactly: touching to within the precision).
    let (p, beta, inexact) = match exact_tangency((a, ia), (b, ib), x, size) {
        Some((p, beta)) => (p, beta, None),
        None => match krawczyk_tangency(pa, pb, (ia, ib), x, size, bits) {
            Some(t) => (exact(&center(&t.point)), BigRational::from_float(t.beta).unwrap_or_default(), Some(t)),
            None => return Ok(None),
        },
    };
    if !beta.is_positive() {
        return Ok(None);
    }
    let (gf, gg) = (f.gradient().map(|d| d.eval(&p)), g.gradient().map(|d| d.eval(&p)));
    let (hfp, hgp) = (
        hf.each_ref().map(|r| r.each_ref().map(|e| e.eval(&p))),
        hg.each_ref().map(|r| r.each_ref().map(|e| e.eval(&p))),
    );
    // μ: the Hessian of ψ at p is Hf + βHg − μ(∇f∇gᵀ + ∇g∇fᵀ).
    let at_p = |mu: &BigRational| -> [[BigRational; 3]; 3] {
        [0, 1, 2].map(|i| [0, 1, 2].map(|j| &hfp[i][j] + &beta * &hgp[i][j] - mu * (&gf[i] * &gg[j] + &gg[i] * &gf[j])))
    };
    let mu = std::iter::once(BigRational::zero())
        .chain((-20..=40).map(|k: i32| {
            if k < 0 {
                BigRational::new(1.into(), BigInt::from(1) << (-k) as usize)
            } else {
                BigRational::from_integer(BigInt::from(1) << k as usize)
            }
        }))
        .find(|mu| positive_definite(&at_p(mu)));
    let Some(mu) = mu else { return Ok(None) };
    let psi = f.add(&g.scale(&beta)).add(&f.mul(g).scale(&-mu.clone()));
    let psi_i = psi.to_interval();
    let psi_grad = psi.gradient().map(|d| d.to_interval());
    let psi_hess = hessian(&psi).map(|r| r.map(|e| e.to_interval()));
    // The largest box X about p on which ψ's interval Hessian is certainly positive definite.
    let p_float = p.clone().map(|v| Interval::from_rational(&v));
    let deepest = options.precision.min(48) + 12;
    let mut cell = None;
    for k in 1..=deepest {
        crate::budget::tick().map_err(limit)?;
        let w = size / 2f64.powi(k as i32);
        let bx: FBox = [0, 1, 2].map(|i| [(p_float[i] - pt(w)).lo(), (p_float[i] + pt(w)).hi()]);
        let entries = psi_hess.each_ref().map(|r| r.each_ref().map(|e| e.enclose(&bx)));
        let mid = entries.map(|r| {
            r.map(|e| {
                (BigRational::from_float(e.lo()).unwrap_or_default()
                    + BigRational::from_float(e.hi()).unwrap_or_default())
                    / BigRational::from_integer(2.into())
            })
        });
        let rad: Vec<BigRational> = entries
            .iter()
            .map(|r| {
                r.iter()
                    .map(|e| {
                        (BigRational::from_float(e.hi()).unwrap_or_default()
                            - BigRational::from_float(e.lo()).unwrap_or_default())
                            / BigRational::from_integer(2.into())
                    })
                    .fold(BigRational::zero(), |s, t| s + t)
            })
            .collect();
        if entries.iter().flatten().any(|e| !(e.lo().is_finite() && e.hi().is_finite())) {
            continue;
        }
        let r = rad.into_iter().fold(BigRational::zero(), |m, t| if t > m { t } else { m });
        let shifted = [0, 1, 2].map(|i| [0, 1, 2].map(|j| if i == j { &mid[i][j] - &r } else { mid[i][j].clone() }));
        if positive_definite(&shifted) {
            cell = Some(bx);
            break;
        }
    }
    let Some(cell) = cell else { return Ok(None) };
    // Every other box of the common region: ψ ≥ 0 or a constraint ≥ 0 throughout.
    let min_width = size / 2f64.powi((options.precision.min(48) + 12) as i32);
    let mut stack = vec![*region];
    let mut count = 0usize;
    while let Some(bx) = stack.pop() {
        crate::budget::tick().map_err(limit)?;
        count += 1;
        if count > options.max_boxes {
            return Ok(Some(CurvedStatus::Undecided {
                reason: "box limit reached in the touching certificate",
                unresolved: stack.len(),
            }));
        }
        if (0..3).all(|i| bx[i][0] >= cell[i][0] && bx[i][1] <= cell[i][1]) {
            continue;
        }
        // A box across X's side is cut there first.
        let cut = (0..3)
            .find_map(|i| [cell[i][0], cell[i][1]].into_iter().find(|&c| bx[i][0] < c && c < bx[i][1]).map(|c| (i, c)));
        let overlaps = (0..3).all(|i| bx[i][0] < cell[i][1] && cell[i][0] < bx[i][1]);
        if let (Some((i, c)), true) = (cut, overlaps) {
            let (mut l, mut r) = (bx, bx);
            l[i][1] = c;
            r[i][0] = c;
            stack.push(l);
            stack.push(r);
            continue;
        }
        if pa.excludes_interior(&bx)
            || pb.excludes_interior(&bx)
            || enclose_mean_value(&psi_i, &psi_grad, &bx).lo() >= 0.0
        {
            continue;
        }
        let c = center(&bx);
        if pa.strictly_inside(&c) && pb.strictly_inside(&c) {
            let w = exact(&c);
            if a.contains_strictly(&w) && b.contains_strictly(&w) {
                return Ok(Some(CurvedStatus::Penetrating { witness: w }));
            }
        }
        match split(&bx) {
            Some((l, r)) if width(&bx) > min_width => {
                stack.push(r);
                stack.push(l);
            }
            _ => return Ok(None),
        }
    }
    let Some(t) = inexact else {
        return Ok(Some(CurvedStatus::Touching { point: p, normal: gf, multiplier: beta }));
    };
    // The proved tangency box must lie in the cell (where the interiors were not excluded).
    if !(0..3).all(|i| cell[i][0] <= t.point[i][0] && t.point[i][1] <= cell[i][1]) {
        return Ok(None);
    }
    let q2 = |b: &FBox| {
        b.map(|[lo, hi]| {
            [BigRational::from_float(lo).unwrap_or_default(), BigRational::from_float(hi).unwrap_or_default()]
        })
    };
    let c = center(&t.point);
    let grad = |p: &Poly3| p.gradient().map(|d| d.to_interval().eval_f64(&c));
    let upper = match (
        super::separate::member_near(pa, &c, &grad(f), size),
        super::separate::member_near(pb, &c, &grad(g), size),
    ) {
        (Some(u), Some(v)) => {
            Some((0..3).map(|i| (&u[i] - &v[i]) * (&u[i] - &v[i])).fold(BigRational::zero(), |s, t| s + t))
        }
        _ => None,
    };
    Ok(Some(CurvedStatus::Tangent {
        point: q2(&t.point),
        value: [
            BigRational::from_float(t.value.lo()).unwrap_or_default(),
            BigRational::from_float(t.value.hi()).unwrap_or_default(),
        ],
        cell: q2(&cell),
        gap_squared_upper: upper,
    }))
}
