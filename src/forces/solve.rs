//! The minimum-norm solution of `A f = −b`: exact elimination on exact backends, nalgebra's
//! SVD on tolerant ones.

use super::ForcesError;
use crate::scalar::{Scalar, Sign};

/// Singular values at most `SVD_CUTOFF · σ_max` count as zero in the tolerant solve (about
/// 2¹² ulps of binary64: far above the SVD's rounding, far below any physical ratio of
/// masses or lever arms this crate's tests meet).
pub const SVD_CUTOFF: f64 = 1e-12;

/// The relative residual |A f + b| / (|A||f| + |b|) (∞-norms) above which the tolerant solve
/// reports `A f = −b` inconsistent.
const RESIDUAL: f64 = 1e-9;

/// A solve's outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum MinNorm<S> {
    /// The minimum-norm `f` with `A f = −b`.
    Solution(Vec<S>),
    /// `−b` is not in `A`'s column space.
    Inconsistent,
}

/// The minimum-norm solution of `A f = −b` for the `rows × cols` row-major `a`.
///
/// On a backend with exact values: `f = Aᵀ y` with `A Aᵀ y = −b`, by elimination with exact
/// pivots (free unknowns of `y` set to zero: `Aᵀ y` is the same for every solution `y`);
/// inconsistent when a zero row of the eliminated `A Aᵀ` has a nonzero right side. On a
/// tolerant backend: nalgebra's SVD of `A` in binary64, singular values below
/// [`SVD_CUTOFF`]` · σ_max` dropped, and inconsistent when the residual exceeds 10⁻⁹ of the
/// terms.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::forces::{min_norm, MinNorm};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // x + y = 2: the minimum-norm solution is (1, 1).
/// assert_eq!(min_norm(&[q(1), q(1)], 1, 2, &[q(-2)]).unwrap(), MinNorm::Solution(vec![q(1), q(1)]));
/// // x = 1 and x = 2 together are inconsistent.
/// assert_eq!(min_norm(&[q(1), q(1)], 2, 1, &[q(-1), q(-2)]).unwrap(), MinNorm::Inconsistent);
/// ```
pub fn min_norm<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<MinNorm<S>, ForcesError> {
    if a.len() != rows * cols || b.len() != rows {
        return Err(ForcesError::Dimensions { entries: a.len(), rows, cols, right: b.len() });
    }
    if S::EXACT_VALUES {
        exact(a, rows, cols, b)
    } else {
        svd(a, rows, cols, b)
    }
}

fn exact<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<MinNorm<S>, ForcesError> {
    let n = rows;
    crate::budget::reserve(std::mem::size_of::<S>().saturating_mul(n.saturating_mul(n + 1)))?;
    // The augmented [A Aᵀ | −b].
    let mut m: Vec<Vec<S>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut row = Vec::with_capacity(n + 1);
        for j in 0..n {
            crate::budget::tick()?;
            let mut s = S::zero();
            for k in 0..cols {
                let (x, y) = (&a[i * cols + k], &a[j * cols + k]);
                if !is_zero(x) && !is_zero(y) {
                    s += x.clone() * y.clone();
                }
            }
            row.push(s);
        }
        row.push(-b[i].clone());
        m.push(row);
    }
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..n).find(|&p| !is_zero(&m[p][c])) else { continue };
        m.swap(r, p);
        for i in r + 1..n {
            if is_zero(&m[i][c]) {
                continue;
            }
            crate::budget::tick()?;
            let factor = m[i][c].clone() / m[r][c].clone();
            let (head, tail) = m.split_at_mut(i);
            let (pivot, row) = (&head[r], &mut tail[0]);
            for (x, y) in row[c..].iter_mut().zip(&pivot[c..]) {
                if !is_zero(y) {
                    *x -= y.clone() * factor.clone();
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    if (r..n).any(|i| !is_zero(&m[i][n])) {
        return Ok(MinNorm::Inconsistent);
    }
    let mut y = vec![S::zero(); n];
    for (i, &c) in pivots.iter().enumerate().rev() {
        let mut s = m[i][n].clone();
        for j in c + 1..n {
            if !is_zero(&m[i][j]) && !is_zero(&y[j]) {
                s -= m[i][j].clone() * y[j].clone();
            }
        }
        y[c] = s / m[i][c].clone();
    }
    let f = (0..cols)
        .map(|k| {
            (0..n).fold(
                S::zero(),
                |acc, i| if is_zero(&y[i]) { acc } else { acc + a[i * cols + k].clone() * y[i].clone() },
            )
        })
        .collect();
    Ok(MinNorm::Solution(f))
}

/// Exactly zero (the exact path's values are exact: the magnitude is never consulted).
fn is_zero<S: Scalar>(x: &S) -> bool {
    x.sign_scaled(|| x.abs()) == Ok(Sign::Zero)
}

fn svd<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<MinNorm<S>, ForcesError> {
    if cols == 0 {
        // No unknowns: consistent only when b is zero.
        let big = b.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max);
        return Ok(if big == 0.0 { MinNorm::Solution(Vec::new()) } else { MinNorm::Inconsistent });
    }
    if rows == 0 {
        return Ok(MinNorm::Solution(vec![S::zero(); cols]));
    }
    let am = nalgebra::DMatrix::from_row_iterator(rows, cols, a.iter().map(|x| x.to_f64()));
    let bv = nalgebra::DVector::from_iterator(rows, b.iter().map(|x| -x.to_f64()));
    let svd = am.clone().svd(true, true);
    let top = svd.singular_values.iter().copied().fold(0.0, f64::max);
    // U and Vᵀ were asked for, so the solve cannot fail for want of them.
    let Ok(f) = svd.solve(&bv, top * SVD_CUTOFF) else { return Ok(MinNorm::Inconsistent) };
    let residual = (&am * &f - &bv).amax();
    let scale = am.abs().column_sum().amax() * f.amax() + bv.amax();
    if !residual.is_finite() || residual > RESIDUAL * scale {
        return Ok(MinNorm::Inconsistent);
    }
    let out: Result<Vec<S>, _> = f.iter().map(|x| S::from_f64(*x)).collect();
    out.map(MinNorm::Solution).map_err(|_| ForcesError::Uncertain(crate::scalar::Uncertain::Overflow))
}
