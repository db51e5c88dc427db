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
    Ok(match solve_ranked(a, rows, cols, b, SVD_CUTOFF)? {
        Ranked::Solution { f, .. } => MinNorm::Solution(f),
        Ranked::Inconsistent => MinNorm::Inconsistent,
    })
}

/// A solve with what the agreement contract needs to know about it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ranked<S> {
    /// The minimum-norm solution, `A`'s rank, and a bound on the square of `A`'s condition
    /// number over its nonzero singular values.
    Solution {
        /// The forces' unknowns.
        f: Vec<S>,
        /// The rank of `A`.
        rank: usize,
        /// At least (σ₁ / σ_r)²: exactly, `L · ‖G_S⁻¹‖∞` (see [`exact`]); in `f64`, the SVD's
        /// own ratio.
        conditioning: S,
    },
    /// `−b` is not in `A`'s column space.
    Inconsistent,
}

/// [`min_norm`] with the rank and the conditioning; the tolerant path drops singular values at
/// most `cutoff · σ_max`.
pub(crate) fn solve_ranked<S: Scalar>(
    a: &[S],
    rows: usize,
    cols: usize,
    b: &[S],
    cutoff: f64,
) -> Result<Ranked<S>, ForcesError> {
    if a.len() != rows.saturating_mul(cols) || b.len() != rows {
        return Err(ForcesError::Dimensions { entries: a.len(), rows, cols, right: b.len() });
    }
    if S::EXACT_VALUES {
        exact(a, rows, cols, b)
    } else if S::CERTAIN_DECISIONS {
        // Intervals: the SVD below is binary64's, not an enclosure; no certified solve here.
        Err(ForcesError::Uncertain(crate::scalar::Uncertain::Close))
    } else {
        svd(a, rows, cols, b, cutoff)
    }
}

/// The exact minimum-norm solve: `G = A Aᵀ` (positive semidefinite), eliminated with diagonal
/// pivots (a zero diagonal entry of a positive semidefinite matrix has a zero row and column,
/// so the pivots found are the whole rank and the pivot set `S` indexes independent rows of
/// `A`), `y` by back substitution with the free unknowns zero, `f = Aᵀ y`.
///
/// The conditioning: with `A_S` the pivot rows, σ_r(A)² ≥ σ_r(A_S)² = λ_min(G_S) ≥ 1 / ‖G_S⁻¹‖∞
/// (interlacing, and the spectral radius below any induced norm), and σ₁(A)² = λ_max(G) ≤
/// L = min(trace G, ‖G‖∞); so `L · ‖G_S⁻¹‖∞ ≥ (σ₁ / σ_r)²`, an exact rational that
/// overestimates by at most a factor of about `r`.
fn exact<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<Ranked<S>, ForcesError> {
    let n = rows;
    crate::budget::reserve(std::mem::size_of::<S>().saturating_mul(n.saturating_mul(n + 1).saturating_mul(2)))?;
    // G = A Aᵀ.
    let mut g: Vec<Vec<S>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut row = Vec::with_capacity(n);
        for j in 0..n {
            crate::budget::tick()?;
            if j < i {
                row.push(g[j][i].clone());
                continue;
            }
            let mut s = S::zero();
            for k in 0..cols {
                let (x, y) = (&a[i * cols + k], &a[j * cols + k]);
                if !is_zero(x) && !is_zero(y) {
                    s += x.clone() * y.clone();
                }
            }
            row.push(s);
        }
        g.push(row);
    }
    // The augmented [G | −b], eliminated in place.
    let mut m: Vec<Vec<S>> = g
        .iter()
        .zip(b)
        .map(|(row, bi)| {
            let mut r = row.clone();
            r.push(-bi.clone());
            r
        })
        .collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut done = vec![false; n];
    while let Some(p) = (0..n).find(|&p| !done[p] && !is_zero(&m[p][p])) {
        done[p] = true;
        for i in 0..n {
            if done[i] || is_zero(&m[i][p]) {
                continue;
            }
            crate::budget::tick()?;
            let factor = m[i][p].clone() / m[p][p].clone();
            let pivot = m[p].clone();
            for (x, y) in m[i].iter_mut().zip(&pivot) {
                if !is_zero(y) {
                    *x -= y.clone() * factor.clone();
                }
            }
        }
        pivots.push(p);
    }
    if (0..n).any(|i| !done[i] && !is_zero(&m[i][n])) {
        return Ok(Ranked::Inconsistent);
    }
    let mut y = vec![S::zero(); n];
    for &p in pivots.iter().rev() {
        let mut s = m[p][n].clone();
        for j in 0..n {
            if j != p && !is_zero(&m[p][j]) && !is_zero(&y[j]) {
                s -= m[p][j].clone() * y[j].clone();
            }
        }
        y[p] = s / m[p][p].clone();
    }
    let f = (0..cols)
        .map(|k| {
            (0..n).fold(
                S::zero(),
                |acc, i| if is_zero(&y[i]) { acc } else { acc + a[i * cols + k].clone() * y[i].clone() },
            )
        })
        .collect();
    let conditioning = exact_conditioning(&g, &pivots)?;
    Ok(Ranked::Solution { f, rank: pivots.len(), conditioning })
}

/// `L · ‖G_S⁻¹‖∞` (see [`exact`]); 1 for rank zero.
fn exact_conditioning<S: Scalar>(g: &[Vec<S>], pivots: &[usize]) -> Result<S, ForcesError> {
    let r = pivots.len();
    if r == 0 {
        return Ok(S::one());
    }
    let trace = (0..g.len()).fold(S::zero(), |acc, i| acc + g[i][i].clone());
    let row_sum = |row: &[S]| row.iter().fold(S::zero(), |acc, x| acc + x.abs());
    let inf = g.iter().map(|row| row_sum(row)).fold(S::zero(), max);
    let l = if trace.compare(&inf) == Ok(std::cmp::Ordering::Less) { trace } else { inf };
    // G_S⁻¹ by Gauss–Jordan on [G_S | I] (G_S is positive definite: its pivots are nonzero).
    let mut w: Vec<Vec<S>> = pivots
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let mut row: Vec<S> = pivots.iter().map(|&q| g[p][q].clone()).collect();
            row.extend((0..r).map(|j| if i == j { S::one() } else { S::zero() }));
            row
        })
        .collect();
    for c in 0..r {
        let Some(p) = (c..r).find(|&p| !is_zero(&w[p][c])) else {
            return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Close));
        };
        w.swap(c, p);
        let inv = S::one() / w[c][c].clone();
        for x in w[c].iter_mut() {
            *x = x.clone() * inv.clone();
        }
        let pivot = w[c].clone();
        for (i, row) in w.iter_mut().enumerate() {
            if i == c || is_zero(&row[c]) {
                continue;
            }
            crate::budget::tick()?;
            let factor = row[c].clone();
            for (x, y) in row.iter_mut().zip(&pivot) {
                if !is_zero(y) {
                    *x -= y.clone() * factor.clone();
                }
            }
        }
    }
    let inverse_norm = w.iter().map(|row| row_sum(&row[r..])).fold(S::zero(), max);
    Ok(l * inverse_norm)
}

fn max<S: Scalar>(a: S, b: S) -> S {
    if b.compare(&a) == Ok(std::cmp::Ordering::Greater) {
        b
    } else {
        a
    }
}

/// Exactly zero (the exact path's values are exact: the magnitude is never consulted).
fn is_zero<S: Scalar>(x: &S) -> bool {
    x.sign_scaled(|| x.abs()) == Ok(Sign::Zero)
}

fn svd<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S], cutoff: f64) -> Result<Ranked<S>, ForcesError> {
    let solution = |f: Vec<S>, rank: usize, conditioning: f64| -> Result<Ranked<S>, ForcesError> {
        let conditioning =
            S::from_f64(conditioning).map_err(|_| ForcesError::Uncertain(crate::scalar::Uncertain::Overflow))?;
        Ok(Ranked::Solution { f, rank, conditioning })
    };
    if cols == 0 {
        // No unknowns: consistent only when b is zero.
        let big = b.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max);
        return if big == 0.0 { solution(Vec::new(), 0, 1.0) } else { Ok(Ranked::Inconsistent) };
    }
    if rows == 0 {
        return solution(vec![S::zero(); cols], 0, 1.0);
    }
    // The SVD's workspace: a few copies of A and its factors.
    crate::budget::reserve(std::mem::size_of::<f64>().saturating_mul(rows.saturating_mul(cols).saturating_mul(4)))?;
    crate::budget::tick()?;
    let am = nalgebra::DMatrix::from_row_iterator(rows, cols, a.iter().map(|x| x.to_f64()));
    let bv = nalgebra::DVector::from_iterator(rows, b.iter().map(|x| -x.to_f64()));
    let Some(Decomposed { singular_values, solve }) = decompose(&am)? else { return Ok(Ranked::Inconsistent) };
    let top = singular_values.iter().copied().fold(0.0, f64::max);
    let eps = top * cutoff;
    let kept: Vec<f64> = singular_values.iter().copied().filter(|&s| s > eps).collect();
    let rank = kept.len();
    let least = kept.iter().copied().fold(f64::INFINITY, f64::min);
    let conditioning = if rank == 0 { 1.0 } else { (top / least) * (top / least) };
    let f = solve(&bv, eps);
    crate::budget::tick()?;
    let residual = (&am * &f - &bv).amax();
    let scale = am.abs().column_sum().amax() * f.amax() + bv.amax();
    if !residual.is_finite() || residual > RESIDUAL * scale {
        return Ok(Ranked::Inconsistent);
    }
    let out: Result<Vec<S>, _> = f.iter().map(|x| S::from_f64(*x)).collect();
    let f = out.map_err(|_| ForcesError::Uncertain(crate::scalar::Uncertain::Overflow))?;
    solution(f, rank, conditioning)
}

/// A verified singular value decomposition: the singular values, and the minimum-norm solve of
/// `A f = b` with singular values at most `eps` dropped.
struct Decomposed {
    singular_values: Vec<f64>,
    #[allow(clippy::type_complexity)]
    solve: Box<dyn Fn(&nalgebra::DVector<f64>, f64) -> nalgebra::DVector<f64>>,
}

/// Whether `U Σ Vᵀ` reproduces `a` to within 10⁻¹² of its largest row sum.
fn reproduces(
    a: &nalgebra::DMatrix<f64>,
    u: &nalgebra::DMatrix<f64>,
    s: &nalgebra::DVector<f64>,
    vt: &nalgebra::DMatrix<f64>,
) -> bool {
    let scale = a.abs().column_sum().amax();
    let back = u * nalgebra::DMatrix::from_diagonal(s) * vt;
    let err = (back - a).amax();
    err.is_finite() && err <= 1e-12 * scale
}

/// The SVD of `a`: nalgebra's, checked by reconstruction; where it fails (nalgebra issue
/// #1172, open against 0.35: `svd(true, true)` can return wrong singular values with
/// orthonormal vectors, as this crate's exact forces found on an incline), nalgebra's SVD of
/// `aᵀ`, checked the same way; where that fails too, a one-sided Jacobi SVD (Hestenes), which
/// is slower and accurate. `None`: no decomposition reproduced `a` (non-finite entries).
fn decompose(a: &nalgebra::DMatrix<f64>) -> Result<Option<Decomposed>, ForcesError> {
    type M = nalgebra::DMatrix<f64>;
    type V = nalgebra::DVector<f64>;
    let from = |u: M, s: V, vt: M| Decomposed {
        singular_values: s.iter().copied().collect(),
        solve: Box::new(move |b: &V, eps: f64| {
            // f = V Σ⁺ Uᵀ b over the kept singular values.
            let mut y = u.transpose() * b;
            for (k, x) in y.iter_mut().enumerate() {
                *x = if s[k] > eps { *x / s[k] } else { 0.0 };
            }
            vt.transpose() * y
        }),
    };
    let direct = a.clone().svd(true, true);
    if let (Some(u), Some(vt)) = (direct.u, direct.v_t) {
        if reproduces(a, &u, &direct.singular_values, &vt) {
            return Ok(Some(from(u, direct.singular_values, vt)));
        }
    }
    crate::budget::tick()?;
    let t = a.transpose().svd(true, true);
    if let (Some(u), Some(vt)) = (t.u, t.v_t) {
        // aᵀ = U Σ Vᵀ, so a = V Σ Uᵀ.
        let (u, vt) = (vt.transpose(), u.transpose());
        if reproduces(a, &u, &t.singular_values, &vt) {
            return Ok(Some(from(u, t.singular_values, vt)));
        }
    }
    let (u, s, vt) = jacobi(a)?;
    Ok(reproduces(a, &u, &s, &vt).then(|| from(u, s, vt)))
}

/// One-sided Jacobi SVD (Hestenes 1958): orthogonalise the columns of `a` by plane rotations,
/// accumulated in `V`; the singular values are the final columns' norms. At most 64 sweeps.
#[allow(clippy::type_complexity)]
fn jacobi(
    a: &nalgebra::DMatrix<f64>,
) -> Result<(nalgebra::DMatrix<f64>, nalgebra::DVector<f64>, nalgebra::DMatrix<f64>), ForcesError> {
    let (m, n) = a.shape();
    let mut w = a.clone();
    let mut v = nalgebra::DMatrix::<f64>::identity(n, n);
    for _ in 0..64 {
        crate::budget::tick()?;
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (alpha, beta) = (w.column(p).norm_squared(), w.column(q).norm_squared());
                let gamma = w.column(p).dot(&w.column(q));
                if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                for (mat, rows) in [(&mut w, m), (&mut v, n)] {
                    for i in 0..rows {
                        let (x, y) = (mat[(i, p)], mat[(i, q)]);
                        mat[(i, p)] = c * x - s * y;
                        mat[(i, q)] = s * x + c * y;
                    }
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let s = nalgebra::DVector::from_iterator(n, (0..n).map(|j| w.column(j).norm()));
    let mut u = w;
    for j in 0..n {
        if s[j] > 0.0 {
            let inv = 1.0 / s[j];
            u.column_mut(j).scale_mut(inv);
        }
    }
    Ok((u, s, v.transpose()))
}
