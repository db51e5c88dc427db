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

/// The exact minimum-norm solve. The rows of `[A | −b]` are reduced to echelon form one by one
/// against the independent rows found before (a row whose `A` part reduces to zero but whose
/// right side does not makes the system inconsistent); the rows that stay independent, `S`,
/// are a row basis of `A`, and every other row's equation follows from theirs. Then
/// `G_S = A_S A_Sᵀ` (positive definite, `r × r`) is solved for `y` and `f = A_Sᵀ y`: the
/// minimum-norm solution, since it satisfies `A_S f = −b_S` and lies in `A`'s row space. This
/// costs `O(rows · cols · r + r² · cols)` exact operations where forming the whole `A Aᵀ`
/// costs `O(rows² · cols)`: the difference between seconds and milliseconds for a plate on 64
/// contacts, whose `A` is `192 × 192` of rank 6.
///
/// The conditioning: `σ_r(A)² ≥ σ_r(A_S)² = λ_min(G_S) ≥ 1 / ‖G_S⁻¹‖∞` (singular values of a
/// set of rows interlace those of `A`, and the spectral radius is below any induced norm), and
/// `σ₁(A)² ≤ L = min(Σ|a_i|², ‖A‖₁ ‖A‖∞)` (the trace of `A Aᵀ`, and Hölder's bound); so
/// `L · ‖G_S⁻¹‖∞ ≥ (σ₁ / σ_r)²`, an exact rational.
fn exact<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<Ranked<S>, ForcesError> {
    crate::budget::reserve(std::mem::size_of::<S>().saturating_mul(rows.saturating_mul(cols + 1).saturating_mul(2)))?;
    // The independent rows found so far: the original index, the leading column, and the
    // reduced row of [A | −b].
    let mut basis: Vec<(usize, usize, Vec<S>)> = Vec::new();
    for i in 0..rows {
        let mut row: Vec<S> = a[i * cols..(i + 1) * cols].to_vec();
        row.push(-b[i].clone());
        for (_, lead, p) in &basis {
            if is_zero(&row[*lead]) {
                continue;
            }
            crate::budget::tick()?;
            let factor = row[*lead].clone() / p[*lead].clone();
            for (x, y) in row.iter_mut().zip(p).skip(*lead) {
                if !is_zero(y) {
                    *x -= y.clone() * factor.clone();
                }
            }
        }
        match (0..cols).find(|&k| !is_zero(&row[k])) {
            Some(lead) => basis.push((i, lead, row)),
            None if !is_zero(&row[cols]) => return Ok(Ranked::Inconsistent),
            None => {}
        }
    }
    let pivots: Vec<usize> = basis.iter().map(|(i, _, _)| *i).collect();
    drop(basis);
    let r = pivots.len();
    let row = |i: usize| &a[i * cols..(i + 1) * cols];
    let dot = |x: &[S], y: &[S]| {
        x.iter()
            .zip(y)
            .fold(S::zero(), |acc, (u, v)| if is_zero(u) || is_zero(v) { acc } else { acc + u.clone() * v.clone() })
    };
    // G_S = A_S A_Sᵀ.
    let mut g: Vec<Vec<S>> = vec![Vec::with_capacity(r); r];
    for i in 0..r {
        for j in 0..r {
            crate::budget::tick()?;
            let v = if j < i { g[j][i].clone() } else { dot(row(pivots[i]), row(pivots[j])) };
            g[i].push(v);
        }
    }
    // G_S y = −b_S by elimination with diagonal pivots (G_S is positive definite).
    let mut m: Vec<Vec<S>> = g
        .iter()
        .zip(&pivots)
        .map(|(gi, &p)| {
            let mut v = gi.clone();
            v.push(-b[p].clone());
            v
        })
        .collect();
    for c in 0..r {
        if is_zero(&m[c][c]) {
            // Not reachable for independent rows; a typed answer rather than a division by zero.
            return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Close));
        }
        let (top, rest) = m.split_at_mut(c + 1);
        let pivot = &top[c];
        for ri in rest.iter_mut() {
            if is_zero(&ri[c]) {
                continue;
            }
            crate::budget::tick()?;
            let factor = ri[c].clone() / pivot[c].clone();
            for (x, y) in ri.iter_mut().zip(pivot).skip(c) {
                if !is_zero(y) {
                    *x -= y.clone() * factor.clone();
                }
            }
        }
    }
    let mut y = vec![S::zero(); r];
    for c in (0..r).rev() {
        let mut s = m[c][r].clone();
        for j in c + 1..r {
            if !is_zero(&m[c][j]) && !is_zero(&y[j]) {
                s -= m[c][j].clone() * y[j].clone();
            }
        }
        y[c] = s / m[c][c].clone();
    }
    let f = (0..cols)
        .map(|k| {
            pivots.iter().zip(&y).fold(S::zero(), |acc, (&i, yi)| {
                let x = &a[i * cols + k];
                if is_zero(yi) || is_zero(x) {
                    acc
                } else {
                    acc + x.clone() * yi.clone()
                }
            })
        })
        .collect();
    // L = min(trace A Aᵀ, ‖A‖₁ ‖A‖∞).
    let trace = (0..rows).fold(S::zero(), |acc, i| acc + dot(row(i), row(i)));
    let inf = (0..rows).map(|i| row(i).iter().fold(S::zero(), |acc, x| acc + x.abs())).fold(S::zero(), max);
    let one = (0..cols).map(|k| (0..rows).fold(S::zero(), |acc, i| acc + a[i * cols + k].abs())).fold(S::zero(), max);
    let holder = one * inf;
    let l = if trace.compare(&holder) == Ok(std::cmp::Ordering::Less) { trace } else { holder };
    let conditioning = exact_conditioning(&g, l)?;
    Ok(Ranked::Solution { f, rank: r, conditioning })
}

/// `L · ‖G_S⁻¹‖∞` for the positive definite `g` = `G_S` (see [`exact`]); 1 for rank zero.
fn exact_conditioning<S: Scalar>(g: &[Vec<S>], l: S) -> Result<S, ForcesError> {
    let r = g.len();
    if r == 0 {
        return Ok(S::one());
    }
    let row_sum = |row: &[S]| row.iter().fold(S::zero(), |acc, x| acc + x.abs());
    // G_S⁻¹ by Gauss–Jordan on [G_S | I] (G_S is positive definite: its pivots are nonzero).
    let mut w: Vec<Vec<S>> = g
        .iter()
        .enumerate()
        .map(|(i, gi)| {
            let mut row: Vec<S> = gi.clone();
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
