//! A fast `f64` root finder: derivative-root recursion, then safeguarded Newton in brackets.

use super::{Poly, PolyError, MAX_DEGREE};
use crate::scalar::{Scalar, Sign};

/// The most iterations of one bracketed refinement: enough for bisection from the widest
/// finite interval down to adjacent doubles (about 2100 halvings), so it only stops a loop
/// that cannot make progress.
const MAX_ITERATIONS: usize = 2200;

/// The real roots of `p` in `[t0, t1]`, fast, in `f64`, increasing.
///
/// Method: the roots of `p'` (found recursively) split `[t0, t1]` into pieces on which `p`
/// is monotone. A piece whose end values have opposite signs holds exactly one root, found by
/// Newton's method safeguarded by bisection (Numerical Recipes' `rtsafe`) to about an ulp.
/// An end (`t0`, `t1` or a critical point) where `p` is zero under the crate's tolerance
/// policy (`|p(t)| <= 4096·u·Σ|cᵢ||t|ⁱ`, [`crate::scalar::tolerance`]; Horner's error is below
/// `2n·u·Σ|cᵢ||t|ⁱ`) is itself reported as a root, and the pieces next to it are not searched
/// again: a double root (grazing contact) at a critical point is reported once.
///
/// # Contract
///
/// * Every reported root is either bracketed by a sign change of the computed `p` within a
///   few ulps, or a point where `|p|` is within the tolerance above.
/// * **Well separated** inputs lose no root: if at every root `c` of every derivative `p⁽ᵏ⁾`
///   (k ≥ 1) in `[t0, t1]`, and at `t0` and `t1`, the value of `p⁽ᵏ⁻¹⁾` is either exactly a
///   root or larger in magnitude than twice that tolerance (the agreement budget of
///   `ARCHITECTURE.md`), then the signs the finder sees are the true ones, the monotone pieces
///   are the true ones, and every root of `p` in `[t0, t1]` is reported exactly once. In
///   practice: simple roots a relative 10⁻⁶ or more apart, also from the ends, for degrees
///   up to about 10 with coefficients of moderate range; double roots exactly at a critical
///   point are found too. Clusters closer than that may be reported once or several times.
///
/// Errors: a non-finite coefficient or end, `t0 > t1`, `p = 0`, degree above
/// [`MAX_DEGREE`], and [`PolyError::Uncertain`] when an evaluation overflows.
///
/// ```
/// use touchstone::poly::{float_roots, Poly};
/// // (t - 0.5)(t - 2)² on [0, 3]: the double root at 2 is a critical point, reported once.
/// let p = Poly::from_roots(&[0.5, 2.0, 2.0]);
/// let roots = float_roots(&p, 0.0, 3.0).unwrap();
/// assert_eq!(roots.len(), 2);
/// assert!((roots[0] - 0.5).abs() < 1e-15 && (roots[1] - 2.0).abs() < 1e-7);
/// ```
pub fn float_roots(p: &Poly<f64>, t0: f64, t1: f64) -> Result<Vec<f64>, PolyError> {
    if p.coeffs().iter().any(|c| !c.is_finite()) {
        return Err(PolyError::NotFinite("a coefficient"));
    }
    if !t0.is_finite() {
        return Err(PolyError::NotFinite("t0"));
    }
    if !t1.is_finite() {
        return Err(PolyError::NotFinite("t1"));
    }
    if t0 > t1 {
        return Err(PolyError::EmptyInterval);
    }
    match p.degree() {
        None => return Err(PolyError::ZeroPolynomial),
        Some(n) if n > MAX_DEGREE => return Err(PolyError::DegreeTooLarge(n)),
        Some(_) => {}
    }
    roots_in(p, t0, t1)
}

/// The sign of `p(t)` under the tolerance policy.
fn classify(p: &Poly<f64>, t: f64) -> Result<Sign, PolyError> {
    Ok(p.eval(&t).sign_scaled(|| p.magnitude_at(&t))?)
}

fn roots_in(p: &Poly<f64>, t0: f64, t1: f64) -> Result<Vec<f64>, PolyError> {
    if p.degree().unwrap_or(0) == 0 {
        return Ok(Vec::new()); // a nonzero constant (a derivative's zero is never searched)
    }
    let mut points = vec![t0];
    if t0 < t1 {
        points.extend(roots_in(&p.derivative(), t0, t1)?.into_iter().filter(|&c| t0 < c && c < t1));
        points.push(t1);
    }
    points.dedup();
    let signs = points.iter().map(|&t| classify(p, t)).collect::<Result<Vec<_>, _>>()?;
    let mut roots = Vec::new();
    for (i, (&t, &s)) in points.iter().zip(&signs).enumerate() {
        if s.is_zero() {
            roots.push(t);
        }
        if let (Some(&next), Some(&s_next)) = (points.get(i + 1), signs.get(i + 1)) {
            if !s.is_zero() && !s_next.is_zero() && s != s_next {
                roots.push(refine(p, t, next, s)?);
            }
        }
    }
    Ok(roots)
}

/// The root of `p` in `(a, b)`, where `p` is monotone, `sign p(a) = sa` and `sign p(b) = -sa`.
fn refine(p: &Poly<f64>, mut a: f64, mut b: f64, sa: Sign) -> Result<f64, PolyError> {
    let dp = p.derivative();
    let mut x = a + 0.5 * (b - a);
    let (mut dx, mut dx_old) = (b - a, b - a);
    for _ in 0..MAX_ITERATIONS {
        let f = p.eval(&x);
        let s = f.sign()?;
        if s.is_zero() {
            return Ok(x);
        }
        if s == sa {
            a = x;
        } else {
            b = x;
        }
        let df = dp.eval(&x);
        let newton = x - f / df;
        // Bisect when Newton leaves the bracket or does not halve the step of two iterations
        // ago (rtsafe's rule): quadratic convergence near the root, bisection's guarantee.
        let leaves = !(newton > a && newton < b);
        let slow = (2.0 * f).abs() > (dx_old * df).abs();
        dx_old = dx;
        let next = if leaves || slow || !newton.is_finite() { a + 0.5 * (b - a) } else { newton };
        dx = next - x;
        if next <= a || next >= b || next == x || dx.abs() <= f64::EPSILON * x.abs() {
            // Adjacent doubles, or a step below an ulp: as close as f64 gets.
            return Ok(if next > a && next < b { next } else { x });
        }
        x = next;
    }
    Ok(x)
}
