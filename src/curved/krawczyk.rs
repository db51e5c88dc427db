//! Certified roots of square polynomial systems: the Krawczyk operator on outward-rounded
//! binary64 intervals, and root isolation in a box by bisection with it.
//!
//! For F: ℝⁿ → ℝⁿ, a box X with centre c and a float matrix Y ≈ F′(c)⁻¹,
//! K(X) = c − Y·F(c) + (I − Y·F′(X))·(X − c), every term enclosed on intervals. If K(X) lies in
//! the interior of X, F has exactly one zero in X, and it lies in K(X) (Krawczyk 1969, Moore's
//! uniqueness form); if K(X) ∩ X is empty, F has no zero in X. Anything else decides nothing.
//! Only the enclosures are trusted: Y, the centre and the splitting are float choices.

use nalgebra::DMatrix;

use super::poly3::{enclose_mean_value, hull, pt, FBox, IPoly3, Poly3};
use crate::scalar::Interval;

/// A square system F: ℝⁿ → ℝⁿ with interval enclosures of its values and its Jacobian over
/// boxes (each variable an interval).
pub(crate) trait System {
    /// n.
    fn dim(&self) -> usize;
    /// An enclosure of F over the box.
    fn eval(&self, x: &[Interval]) -> Vec<Interval>;
    /// An enclosure of F′ over the box (row i: the gradient of Fᵢ).
    fn jacobian(&self, x: &[Interval]) -> Vec<Vec<Interval>>;
}

/// What the Krawczyk test proved about a box.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Krawczyk {
    /// Exactly one zero in the box, and it lies in this (smaller) box.
    Unique(Vec<Interval>),
    /// No zero in the box.
    NoRoot,
    /// Neither.
    Unknown,
}

fn mid(x: &Interval) -> f64 {
    let m = x.lo() + (x.hi() - x.lo()) / 2.0;
    if m.is_finite() {
        m
    } else {
        0.0
    }
}

/// `x` widened by a twentieth of its width and a few ulps each way (a point interval becomes a
/// proper one: Krawczyk's test needs an interior).
fn inflate(x: &[Interval]) -> Vec<Interval> {
    x.iter()
        .map(|v| {
            let w = (v.hi() - v.lo()) / 20.0 + 4.0 * f64::EPSILON * mid(v).abs() + f64::MIN_POSITIVE;
            hull(v.lo() - w, v.hi() + w)
        })
        .collect()
}

/// The Krawczyk test on `x`, iterated up to `iterations` times: after a proof the box is
/// shrunk to K(X) widened slightly (epsilon-inflation) and proved again, so the box returned is
/// the last one proved; before one, a partial overlap shrinks it to K(X) ∩ X.
pub(crate) fn krawczyk(sys: &dyn System, x: &[Interval], iterations: usize) -> Krawczyk {
    let n = sys.dim();
    let mut x = x.to_vec();
    let mut proved: Option<Vec<Interval>> = None;
    for _ in 0..iterations.max(1) {
        let c: Vec<f64> = x.iter().map(mid).collect();
        let cp: Vec<Interval> = c.iter().map(|&v| pt(v)).collect();
        let jc = sys.jacobian(&cp);
        let m = DMatrix::from_fn(n, n, |i, j| mid(&jc[i][j]));
        let Some(y) = m.try_inverse().filter(|y| y.iter().all(|v| v.is_finite())) else { break };
        let fc = sys.eval(&cp);
        let jx = sys.jacobian(&x);
        let zero = pt(0.0);
        let mut k = Vec::with_capacity(n);
        for i in 0..n {
            let mut s = cp[i];
            for j in 0..n {
                s -= pt(y[(i, j)]) * fc[j];
            }
            for j in 0..n {
                // (I − Y·J(X))ᵢⱼ
                let mut e = if i == j { pt(1.0) } else { zero };
                for l in 0..n {
                    e -= pt(y[(i, l)]) * jx[l][j];
                }
                s += e * (x[j] - cp[j]);
            }
            k.push(s);
        }
        if k.iter().zip(&x).any(|(a, b)| a.intersection(b).is_none()) {
            if proved.is_none() {
                return Krawczyk::NoRoot;
            }
            break;
        }
        let inside = k.iter().zip(&x).all(|(a, b)| a.lo() > b.lo() && a.hi() < b.hi());
        if inside {
            x = inflate(&k);
            proved = Some(k);
            continue;
        }
        if proved.is_some() {
            break;
        }
        let shrunk: Vec<Interval> = k.iter().zip(&x).filter_map(|(a, b)| a.intersection(b)).collect();
        let progress = shrunk.iter().zip(&x).any(|(a, b)| (a.hi() - a.lo()) < 0.75 * (b.hi() - b.lo()));
        x = shrunk;
        if !progress {
            break;
        }
    }
    match proved {
        Some(b) => Krawczyk::Unique(b),
        None => Krawczyk::Unknown,
    }
}

/// The zeros of a system in a box: boxes each holding exactly one (disjoint, as proved), and
/// boxes where nothing was decided down to the smallest width or the box limit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Isolation {
    /// Boxes with exactly one zero each.
    pub(crate) roots: Vec<Vec<Interval>>,
    /// Boxes left undecided.
    pub(crate) undecided: Vec<Vec<Interval>>,
}

fn width(x: &[Interval]) -> f64 {
    x.iter().map(|v| v.hi() - v.lo()).fold(0.0, f64::max)
}

fn overlaps(a: &[Interval], b: &[Interval]) -> bool {
    a.iter().zip(b).all(|(u, v)| u.intersection(v).is_some())
}

/// Every zero of `sys` in `region`, by bisection: a box where some component of F excludes 0
/// is dropped, one where the Krawczyk test decides is done, others are halved along their
/// widest side down to `min_width`, at most `max_boxes` boxes in all (the rest undecided).
pub(crate) fn isolate(
    sys: &dyn System,
    region: &[Interval],
    min_width: f64,
    max_boxes: usize,
) -> Result<Isolation, crate::budget::Limit> {
    let mut out = Isolation::default();
    let mut stack = vec![region.to_vec()];
    let mut count = 0usize;
    while let Some(x) = stack.pop() {
        crate::budget::tick()?;
        count += 1;
        if count > max_boxes {
            out.undecided.push(x);
            out.undecided.append(&mut stack);
            break;
        }
        if sys.eval(&x).iter().any(|v| v.lo() > 0.0 || v.hi() < 0.0) {
            continue;
        }
        // The test on the box widened by a tenth each way (a zero on a face the bisection made,
        // as at a symmetric configuration's midpoint, is interior to the widened box).
        let widened: Vec<Interval> = x
            .iter()
            .map(|v| {
                let w = (v.hi() - v.lo()) / 10.0 + f64::MIN_POSITIVE;
                hull(v.lo() - w, v.hi() + w)
            })
            .collect();
        match krawczyk(sys, &widened, 4) {
            // No zero in the widened box: none in the box.
            Krawczyk::NoRoot => continue,
            Krawczyk::Unique(r) => {
                // A zero near the face between two boxes is proved from both: keep one, when
                // the hull of the two proved boxes is itself proved to hold a single zero.
                // (A box inside another holds the other's only zero.)
                let within =
                    |u: &[Interval], v: &[Interval]| u.iter().zip(v).all(|(a, b)| b.lo() <= a.lo() && a.hi() <= b.hi());
                let same = out.roots.iter().any(|s| {
                    overlaps(s, &r)
                        && (within(s, &r) || within(&r, s) || {
                            let h: Vec<Interval> =
                                s.iter().zip(&r).map(|(u, v)| hull(u.lo().min(v.lo()), u.hi().max(v.hi()))).collect();
                            matches!(krawczyk(sys, &inflate(&h), 4), Krawczyk::Unique(_))
                        })
                });
                if !same {
                    out.roots.push(r);
                }
                continue;
            }
            Krawczyk::Unknown => {}
        }
        let w = width(&x);
        if w <= min_width {
            out.undecided.push(x);
            continue;
        }
        let axis =
            (0..x.len()).max_by(|&i, &j| (x[i].hi() - x[i].lo()).total_cmp(&(x[j].hi() - x[j].lo()))).unwrap_or(0);
        let m = mid(&x[axis]);
        if !(x[axis].lo() < m && m < x[axis].hi()) {
            out.undecided.push(x);
            continue;
        }
        let (mut l, mut r) = (x.clone(), x);
        l[axis] = hull(l[axis].lo(), m);
        r[axis] = hull(m, r[axis].hi());
        stack.push(r);
        stack.push(l);
    }
    Ok(out)
}

/// The box of the first three variables.
pub(crate) fn fbox(x: &[Interval]) -> FBox {
    [0, 1, 2].map(|i| [x[i].lo(), x[i].hi()])
}

/// Three polynomials in x, y, z with their gradients: a square system in ℝ³.
pub(crate) struct Poly3System {
    polys: Vec<(IPoly3, [IPoly3; 3])>,
    grads: Vec<[[IPoly3; 3]; 3]>,
}

impl Poly3System {
    /// The system of three polynomials.
    pub(crate) fn new(p: [&Poly3; 3]) -> Self {
        let polys = p.iter().map(|q| (q.to_interval(), q.gradient().map(|d| d.to_interval()))).collect();
        let grads = p.iter().map(|q| q.gradient().map(|d| d.gradient().map(|e| e.to_interval()))).collect();
        Poly3System { polys, grads }
    }
}

impl System for Poly3System {
    fn dim(&self) -> usize {
        3
    }
    fn eval(&self, x: &[Interval]) -> Vec<Interval> {
        let b = fbox(x);
        self.polys.iter().map(|(p, g)| enclose_mean_value(p, g, &b)).collect()
    }
    fn jacobian(&self, x: &[Interval]) -> Vec<Vec<Interval>> {
        let b = fbox(x);
        self.polys
            .iter()
            .zip(&self.grads)
            .map(|((_, g), h)| (0..3).map(|j| enclose_mean_value(&g[j], &h[j], &b)).collect())
            .collect()
    }
}

/// The tangency system of Lin–Manocha's (7) made square: unknowns (x, y, z, β) with
/// ∇f + β∇g = 0 and f = 0 (its zeros are the critical points of g on the surface f = 0).
pub(crate) struct TangencySystem {
    f: (IPoly3, [IPoly3; 3]),
    gf: [(IPoly3, [IPoly3; 3]); 3],
    gg: [(IPoly3, [IPoly3; 3]); 3],
}

impl TangencySystem {
    /// The system for surfaces f and g.
    pub(crate) fn new(f: &Poly3, g: &Poly3) -> Self {
        let with_grad = |p: &Poly3| (p.to_interval(), p.gradient().map(|d| d.to_interval()));
        TangencySystem {
            f: with_grad(f),
            gf: f.gradient().map(|d| with_grad(&d)),
            gg: g.gradient().map(|d| with_grad(&d)),
        }
    }
}

impl System for TangencySystem {
    fn dim(&self) -> usize {
        4
    }
    fn eval(&self, x: &[Interval]) -> Vec<Interval> {
        let b = fbox(x);
        let beta = x[3];
        let mut v: Vec<Interval> = (0..3)
            .map(|i| {
                enclose_mean_value(&self.gf[i].0, &self.gf[i].1, &b)
                    + beta * enclose_mean_value(&self.gg[i].0, &self.gg[i].1, &b)
            })
            .collect();
        v.push(enclose_mean_value(&self.f.0, &self.f.1, &b));
        v
    }
    fn jacobian(&self, x: &[Interval]) -> Vec<Vec<Interval>> {
        let b = fbox(x);
        let beta = x[3];
        let mut rows: Vec<Vec<Interval>> = (0..3)
            .map(|i| {
                let mut r: Vec<Interval> =
                    (0..3).map(|j| self.gf[i].1[j].enclose(&b) + beta * self.gg[i].1[j].enclose(&b)).collect();
                r.push(enclose_mean_value(&self.gg[i].0, &self.gg[i].1, &b));
                r
            })
            .collect();
        let mut last: Vec<Interval> = (0..3).map(|j| enclose_mean_value(&self.gf[j].0, &self.gf[j].1, &b)).collect();
        last.push(pt(0.0));
        rows.push(last);
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    #[test]
    fn the_roots_of_a_circle_and_a_line() {
        // x² + y² − 2 = 0, x − y = 0, z = 0: the zeros (1, 1, 0) and (−1, −1, 0), each proved
        // unique in its own box, nothing left undecided.
        let x = Poly3::variable(0);
        let y = Poly3::variable(1);
        let circle = x.mul(&x).add(&y.mul(&y)).add(&Poly3::constant(q(-2)));
        let line = x.add(&y.scale(&q(-1)));
        let z = Poly3::variable(2);
        let sys = Poly3System::new([&circle, &line, &z]);
        let region = vec![hull(-3.0, 2.5), hull(-3.0, 2.5), hull(-1.0, 1.5)];
        let iso = isolate(&sys, &region, 1e-9, 10_000).unwrap();
        assert!(iso.undecided.is_empty(), "{iso:?}");
        assert_eq!(iso.roots.len(), 2);
        for r in &iso.roots {
            let s = if r[0].lo() > 0.0 { 1.0 } else { -1.0 };
            assert!(r[0].contains(s) && r[1].contains(s) && r[2].contains(0.0), "{r:?}");
        }
        // A box around only a part of the circle with no zero of the system: none.
        let away = vec![hull(1.5, 2.5), hull(-1.0, 0.0), hull(-1.0, 1.0)];
        assert!(isolate(&sys, &away, 1e-9, 1000).unwrap().roots.is_empty());
        // A double zero (the line tangent to the circle, x + y = 2) is never "proved".
        let tangent = x.add(&y).add(&Poly3::constant(q(-2)));
        let sys = Poly3System::new([&circle, &tangent, &z]);
        let iso = isolate(&sys, &region, 1e-7, 20_000).unwrap();
        assert!(iso.roots.is_empty() && !iso.undecided.is_empty(), "{} roots", iso.roots.len());
    }
}
