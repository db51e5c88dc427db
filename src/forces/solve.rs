//! The minimum-norm solution of `A f = −b`: exact elimination on exact backends, nalgebra's
//! SVD on tolerant ones.

use super::fraction_free;
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

/// The exact minimum-norm solve. Each row of `[A | −b]` is scaled by a positive rational to
/// coprime integers (the same equation; see [`fraction_free`]), and the scaled rows are reduced
/// to echelon form one by one against the independent rows found before (a row whose `A` part
/// reduces to zero but whose right side does not makes the system inconsistent); the rows that
/// stay independent, `S`, are a row basis of `A`, and every other row's equation follows from
/// theirs. Then `G̃ = Ã_S Ã_Sᵀ` of the scaled rows (positive definite, `r × r`, integer) is
/// solved for `ỹ` and `f = Ã_Sᵀ ỹ`: the minimum-norm solution, since it satisfies
/// `A_S f = −b_S` and lies in `A`'s row space. All of it is fraction-free elimination on
/// integers; `f` has one denominator, `det G̃`. This costs `O(rows · cols · r + r² · cols)`
/// integer operations where forming the whole `A Aᵀ` costs `O(rows² · cols)`: the difference
/// between seconds and milliseconds for a plate on 64 contacts, whose `A` is `192 × 192` of
/// rank 6.
///
/// The conditioning: `σ_r(A)² ≥ σ_r(A_S)² = λ_min(G_S) ≥ 1 / ‖G_S⁻¹‖∞` for the unscaled
/// `G_S = A_S A_Sᵀ` (singular values of a set of rows interlace those of `A`, and the spectral
/// radius is below any induced norm), and `σ₁(A)² ≤ L = min(Σ|a_i|², ‖A‖₁ ‖A‖∞)` (the trace of
/// `A Aᵀ`, and Hölder's bound); so `L · ‖G_S⁻¹‖∞ ≥ (σ₁ / σ_r)²`, an exact rational. With the
/// scales `D`, `G̃ = D G_S D`, so `G_S⁻¹ = D adj(G̃) D / det G̃`, from the same elimination.
fn exact<S: Scalar>(a: &[S], rows: usize, cols: usize, b: &[S]) -> Result<Ranked<S>, ForcesError> {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    crate::budget::reserve(
        std::mem::size_of::<BigInt>().saturating_mul(rows.saturating_mul(cols + 1).saturating_mul(2)),
    )?;
    let rational = |x: &S| x.to_rational().ok_or(ForcesError::Uncertain(crate::scalar::Uncertain::Close));
    // [A | −b], each row scaled to coprime integers.
    let mut scaled: Vec<Vec<BigInt>> = Vec::with_capacity(rows);
    let mut scales: Vec<BigRational> = Vec::with_capacity(rows);
    for i in 0..rows {
        crate::budget::tick()?;
        let mut row = a[i * cols..(i + 1) * cols].iter().map(rational).collect::<Result<Vec<_>, _>>()?;
        row.push(-rational(&b[i])?);
        let (ints, s) = fraction_free::integral_row(&row);
        scaled.push(ints);
        scales.push(s);
    }
    let Some(pivots) = fraction_free::row_basis(&scaled, cols)? else { return Ok(Ranked::Inconsistent) };
    let r = pivots.len();
    let int_dot = |x: &[BigInt], y: &[BigInt]| {
        x.iter()
            .zip(y)
            .fold(BigInt::from(0), |acc, (u, v)| if u.bits() == 0 || v.bits() == 0 { acc } else { acc + u * v })
    };
    // G̃ = Ã_S Ã_Sᵀ, and the right side −b̃_S.
    let mut g: Vec<Vec<BigInt>> = vec![Vec::with_capacity(r); r];
    for i in 0..r {
        for j in 0..r {
            crate::budget::tick()?;
            let v =
                if j < i { g[j][i].clone() } else { int_dot(&scaled[pivots[i]][..cols], &scaled[pivots[j]][..cols]) };
            g[i].push(v);
        }
    }
    let rhs: Vec<BigInt> = pivots.iter().map(|&p| scaled[p][cols].clone()).collect();
    let fraction_free::Inverted { det, solution: x, adjugate } = fraction_free::gauss_jordan(g, rhs)?;
    // f = Ã_Sᵀ x / det.
    let mut numerators = vec![BigInt::from(0); cols];
    for (&i, xi) in pivots.iter().zip(&x) {
        crate::budget::tick()?;
        if xi.bits() == 0 {
            continue;
        }
        for (acc, s) in numerators.iter_mut().zip(&scaled[i][..cols]) {
            if s.bits() != 0 {
                *acc += s * xi;
            }
        }
    }
    let integer = |x: BigInt| S::from_rational(&BigRational::from_integer(x));
    let denominator = integer(det.clone());
    let f: Vec<S> = numerators
        .into_iter()
        .map(|n| if n.bits() == 0 { S::zero() } else { integer(n) / denominator.clone() })
        .collect();
    let pivot_scales: Vec<BigRational> = pivots.iter().map(|&p| scales[p].clone()).collect();
    let conditioning = if r == 0 {
        S::one()
    } else {
        let (n, d) = fraction_free::scaled_inverse_norm(&det, &adjugate, &pivot_scales);
        conditioning_bound(a, rows, cols) * integer(n) / integer(d)
    };
    Ok(Ranked::Solution { f, rank: r, conditioning })
}

/// `L = min(trace A Aᵀ, ‖A‖₁ ‖A‖∞) ≥ σ₁(A)²` (see [`exact`]).
fn conditioning_bound<S: Scalar>(a: &[S], rows: usize, cols: usize) -> S {
    let row = |i: usize| &a[i * cols..(i + 1) * cols];
    let trace = (0..rows).fold(S::zero(), |acc, i| acc + dot(row(i), row(i)));
    let inf = (0..rows).map(|i| row(i).iter().fold(S::zero(), |acc, x| acc + x.abs())).fold(S::zero(), max);
    let one = (0..cols).map(|k| (0..rows).fold(S::zero(), |acc, i| acc + a[i * cols + k].abs())).fold(S::zero(), max);
    let holder = one * inf;
    if trace.compare(&holder) == Ok(std::cmp::Ordering::Less) {
        trace
    } else {
        holder
    }
}

fn dot<S: Scalar>(x: &[S], y: &[S]) -> S {
    x.iter()
        .zip(y)
        .fold(S::zero(), |acc, (u, v)| if is_zero(u) || is_zero(v) { acc } else { acc + u.clone() * v.clone() })
}

/// The exact solve by rational elimination, as it was before [`exact`] went fraction-free: an
/// independent route for the tests (see [`exact`] for the method).
#[cfg(test)]
fn exact_by_rational_elimination<S: Scalar>(
    a: &[S],
    rows: usize,
    cols: usize,
    b: &[S],
) -> Result<Ranked<S>, ForcesError> {
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
#[cfg(test)]
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
    // Entries that left the range: no route can answer, so none is tried (each would run to
    // its cap on NaNs first: 200 contacts at 10³⁰⁰ took minutes).
    if !am.iter().chain(bv.iter()).all(|x| x.is_finite()) {
        return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Overflow));
    }
    // No decomposition reproduced A: the float path cannot answer (none of the routes converged
    // on its entries), which says nothing of the system's consistency.
    let Some(Decomposed { singular_values, solve }) = decompose(&am, cutoff)? else {
        return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Close));
    };
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
    if !residual.is_finite() || !scale.is_finite() {
        return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Overflow));
    }
    if residual > RESIDUAL * scale {
        return Ok(Ranked::Inconsistent);
    }
    let out: Result<Vec<S>, _> = f.iter().map(|x| S::from_f64(*x)).collect();
    let f = out.map_err(|_| ForcesError::Uncertain(crate::scalar::Uncertain::Overflow))?;
    solution(f, rank, conditioning)
}

/// nalgebra's SVD may take at most `SVD_ITERATIONS · n²` implicit QR steps on a matrix of `n`
/// rows or columns (LAPACK's `dbdsqr` allows `6 n²` inner steps). A cap of `64 n` was too
/// tight where many singular values are zero (they converge slowly): a tower of 16 boxes,
/// `A` 192 × 192 of rank 96, fell through to the Jacobi route and took 23 times as long.
const SVD_ITERATIONS: usize = 64;

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

type Factors = (nalgebra::DMatrix<f64>, nalgebra::DVector<f64>, nalgebra::DMatrix<f64>);

/// The SVD of `a` (finite entries). A contact system's `A` is `J M⁻¹ Jᵀ`: 3 rows and columns
/// per contact, rank at most 6 per moving body. Where it is large and of low rank the SVD goes
/// through its range: `a = Q B` with `Q`'s `k` columns an orthonormal basis of `a`'s columns
/// found by Gram–Schmidt with column pivoting ([`range`], a budget tick per vector), then
/// `Bᵀ = U₁ Σ V₁ᵀ` by [`factors`], so `a = (Q V₁) Σ U₁ᵀ`: the dense SVD (cubic in the contacts,
/// and not interruptible: 1,000 contacts on one body ran for minutes past the time limit)
/// runs on `k` columns. (Taking the dense SVD of `a` itself for small or nearly full-rank
/// matrices was tried and made a tower of boxes 15 to 23 times slower: nalgebra's route on
/// `a` often fails its reconstruction check there and falls through to Jacobi.)
///
/// The basis stops when every column's remainder is at most `min(cutoff / 100, 10⁻¹³)` times
/// the largest column's norm: the part dropped moves each singular value by at most
/// `√cols · cutoff / 100 · σ₁` (Weyl), below the cutoff for up to 10⁴ columns, and `U Σ Vᵀ` still
/// reproduces `a` ([`reproduces`]). `None`: no decomposition reproduced `a`.
fn decompose(a: &nalgebra::DMatrix<f64>, cutoff: f64) -> Result<Option<Decomposed>, ForcesError> {
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
    let Some((u, s, vt)) = through(a, range(a, (cutoff / 100.0).min(1e-13))?)? else { return Ok(None) };
    Ok(Some(from(u, s, vt)))
}

/// `a`'s factors through the orthonormal basis `q` of its columns (see [`decompose`]),
/// checked by reconstruction; `None` when they do not reproduce `a`.
fn through(a: &nalgebra::DMatrix<f64>, q: nalgebra::DMatrix<f64>) -> Result<Option<Factors>, ForcesError> {
    if q.ncols() == 0 {
        // a = 0: no singular value, and the solve is zero.
        let (m, n) = a.shape();
        return Ok(Some((nalgebra::DMatrix::zeros(m, 0), nalgebra::DVector::zeros(0), nalgebra::DMatrix::zeros(0, n))));
    }
    let bt = a.transpose() * &q;
    let Some((u1, s, v1t)) = factors(&bt)? else { return Ok(None) };
    let (u, vt) = (q * v1t.transpose(), u1.transpose());
    Ok(reproduces(a, &u, &s, &vt).then_some((u, s, vt)))
}

/// An orthonormal basis of `a`'s column space, as columns: modified Gram–Schmidt with column
/// pivoting (the remainder with the largest norm next, orthogonalised twice against the basis),
/// until every remainder is at most `tolerance` times the largest column's norm. The columns are first scaled by a power of two, so
/// norms of entries near the range's ends neither overflow nor underflow.
fn range(a: &nalgebra::DMatrix<f64>, tolerance: f64) -> Result<nalgebra::DMatrix<f64>, ForcesError> {
    let (m, n) = a.shape();
    let big = a.amax();
    if big == 0.0 || m == 0 || n == 0 {
        return Ok(nalgebra::DMatrix::zeros(m, 0));
    }
    // 2^-e with 2^e about the largest entry: exact scaling, entries at most about 1.
    let scale = 2f64.powi(-big.log2().ceil() as i32);
    let mut r = a * scale;
    let norm = |r: &nalgebra::DMatrix<f64>, j: usize| r.column(j).norm();
    let first = (0..n).map(|j| norm(&r, j)).fold(0.0, f64::max);
    let floor = tolerance * first;
    let mut basis: Vec<nalgebra::DVector<f64>> = Vec::new();
    while basis.len() < m.min(n) {
        crate::budget::tick()?;
        let (j, largest) = (0..n).map(|j| (j, norm(&r, j))).fold((0, 0.0), |b, c| if c.1 > b.1 { c } else { b });
        if largest <= floor {
            break;
        }
        let mut v = r.column(j) / largest;
        for _ in 0..2 {
            for e in &basis {
                let d = e.dot(&v);
                v.axpy(-d, e, 1.0);
            }
        }
        let len = v.norm();
        if len <= 0.5 {
            // The pivot's remainder was rounding only: nothing independent is left.
            break;
        }
        v /= len;
        // Every remainder loses its component along v.
        let along = v.transpose() * &r;
        r -= &v * along;
        basis.push(v);
    }
    Ok(nalgebra::DMatrix::from_columns(&basis))
}

/// The factors `(U, Σ, Vᵀ)` of `a`: nalgebra's SVD, checked by reconstruction; where it fails
/// (nalgebra issue #1172, open against 0.35: `svd(true, true)` can return wrong singular
/// values with orthonormal vectors, as this crate's exact forces found on an incline),
/// nalgebra's SVD of `aᵀ`, checked the same way; where that fails too, a one-sided Jacobi SVD
/// (Hestenes), which is slower and accurate. `None`: no route reproduced `a` (entries so far
/// apart that none converged).
fn factors(a: &nalgebra::DMatrix<f64>) -> Result<Option<Factors>, ForcesError> {
    // nalgebra's `svd` iterates until it converges, which a matrix with entries 10³⁰⁰ apart
    // never does (a contact point at x = 10³⁰⁰ hung the process): its iterations are capped,
    // and a decomposition that does not converge within them falls to the next route.
    let n = a.nrows().max(a.ncols()).max(1);
    let iterations = SVD_ITERATIONS.saturating_mul(n.saturating_mul(n));
    if let Some(direct) = a.clone().try_svd(true, true, f64::EPSILON, iterations) {
        if let (Some(u), Some(vt)) = (direct.u, direct.v_t) {
            if reproduces(a, &u, &direct.singular_values, &vt) {
                return Ok(Some((u, direct.singular_values, vt)));
            }
        }
    }
    crate::budget::tick()?;
    if let Some(t) = a.transpose().try_svd(true, true, f64::EPSILON, iterations) {
        if let (Some(u), Some(vt)) = (t.u, t.v_t) {
            // aᵀ = U Σ Vᵀ, so a = V Σ Uᵀ.
            let (u, vt) = (vt.transpose(), u.transpose());
            if reproduces(a, &u, &t.singular_values, &vt) {
                return Ok(Some((u, t.singular_values, vt)));
            }
        }
    }
    crate::budget::tick()?;
    let (u, s, vt) = jacobi(a)?;
    Ok(reproduces(a, &u, &s, &vt).then_some((u, s, vt)))
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
            crate::budget::tick()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Exact;
    use num_rational::BigRational;

    /// A small system with degenerate structure: entries from a few rationals (dyadic, odd
    /// denominators, binary64 tenths, zeros), some rows combinations of earlier ones, and a
    /// right side consistent by construction or not.
    fn system(seed: &mut u64) -> (Vec<BigRational>, usize, usize, Vec<BigRational>) {
        let mut next = move || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let pool: Vec<BigRational> = ["0", "0", "1", "-1", "2", "1/3", "-5/7", "3/8", "-11/6"]
            .iter()
            .map(|s| BigRational::parse(s).unwrap())
            .chain([0.1f64, -2.7, 1e-3].map(|x| BigRational::from_f64(x).unwrap()))
            .collect();
        let rows = 1 + (next() % 7) as usize;
        let cols = 1 + (next() % 6) as usize;
        let mut a: Vec<BigRational> = Vec::new();
        for i in 0..rows {
            if i >= 2 && next() % 3 == 0 {
                // A combination of two earlier rows.
                let (p, q) = ((next() as usize) % i, (next() as usize) % i);
                let (c, d) =
                    (pool[(next() as usize) % pool.len()].clone(), pool[(next() as usize) % pool.len()].clone());
                for k in 0..cols {
                    let v = a[p * cols + k].clone() * c.clone() + a[q * cols + k].clone() * d.clone();
                    a.push(v);
                }
            } else {
                for _ in 0..cols {
                    a.push(pool[(next() as usize) % pool.len()].clone());
                }
            }
        }
        let b: Vec<BigRational> = if next() % 4 == 0 {
            (0..rows).map(|_| pool[(next() as usize) % pool.len()].clone()).collect()
        } else {
            let x0: Vec<BigRational> = (0..cols).map(|_| pool[(next() as usize) % pool.len()].clone()).collect();
            (0..rows)
                .map(|i| {
                    (0..cols).fold(BigRational::from_integer(0.into()), |acc, k| {
                        acc + a[i * cols + k].clone() * x0[k].clone()
                    })
                })
                .collect()
        };
        (a, rows, cols, b)
    }

    #[test]
    fn the_fraction_free_solve_is_the_rational_elimination_on_degenerate_systems() {
        let mut seed = 0x5eed_f0e5u64;
        let (mut solutions, mut inconsistent, mut deficient) = (0, 0, 0);
        for _ in 0..600 {
            let (a, rows, cols, b) = system(&mut seed);
            let reference = exact_by_rational_elimination(&a, rows, cols, &b).unwrap();
            assert_eq!(exact(&a, rows, cols, &b).unwrap(), reference, "{rows}×{cols}: {a:?} {b:?}");
            let ae: Vec<Exact> = a.iter().map(Exact::from_rational).collect();
            let be: Vec<Exact> = b.iter().map(Exact::from_rational).collect();
            let fast = exact(&ae, rows, cols, &be).unwrap();
            match (&fast, &reference) {
                (Ranked::Inconsistent, Ranked::Inconsistent) => inconsistent += 1,
                (Ranked::Solution { f, rank, conditioning }, Ranked::Solution { f: g, rank: s, conditioning: c }) => {
                    solutions += 1;
                    deficient += usize::from(*s < rows.min(cols));
                    assert_eq!((f.iter().map(|x| x.to_big_rational()).collect::<Vec<_>>(), rank), (g.clone(), s));
                    assert_eq!(&conditioning.to_big_rational(), c);
                }
                _ => panic!("{fast:?} against {reference:?}"),
            }
        }
        // The generator reaches every case.
        assert!(solutions > 300 && inconsistent > 30 && deficient > 50, "{solutions} {inconsistent} {deficient}");
    }

    #[test]
    fn the_minimum_norm_solution_of_a_rank_deficient_system_by_hand() {
        // x + 2y = 3 twice and 2x + 4y = 6: rank 1, f = (3/5, 6/5); G_S = [5], so
        // ‖G_S⁻¹‖∞ = 1/5 and L = min(trace 5 + 5 + 20, ‖A‖₁ ‖A‖∞ = 8 · 6) = 30: 6.
        let q = |s: &str| BigRational::parse(s).unwrap();
        let a = [q("1"), q("2"), q("1"), q("2"), q("2"), q("4")];
        let b = [q("-3"), q("-3"), q("-6")];
        assert_eq!(
            exact(&a, 3, 2, &b).unwrap(),
            Ranked::Solution { f: vec![q("3/5"), q("6/5")], rank: 1, conditioning: q("6") }
        );
        // A row scaled by 1/3 with its right side: the same equation, the same answer.
        let a = [q("1/3"), q("2/3"), q("1"), q("2")];
        let b = [q("-1"), q("-3")];
        let Ranked::Solution { f, rank, .. } = exact(&a, 2, 2, &b).unwrap() else { panic!() };
        assert_eq!((f, rank), (vec![q("3/5"), q("6/5")], 1));
    }

    /// A pseudo-random matrix `rows × rank` times `rank × cols` (rank `rank`), entries of
    /// both factors in [−1, 1).
    fn low_rank(rows: usize, cols: usize, rank: usize, seed: &mut u64) -> nalgebra::DMatrix<f64> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        };
        let p = nalgebra::DMatrix::from_fn(rows, rank, |_, _| next());
        let q = nalgebra::DMatrix::from_fn(rank, cols, |_, _| next());
        p * q
    }

    /// The SVD through the range has the dense SVD's singular values (all of them above the
    /// cutoff, to 10⁻¹⁰ of σ₁, and as many), on matrices of every rank and shape, also scaled
    /// by 2^±900 (where a column norm's square leaves the range) and with a zero matrix.
    #[test]
    fn the_svd_through_the_range_is_the_dense_svd() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        let mut cases = 0;
        for (rows, cols, rank) in [(5, 7, 2), (7, 5, 2), (40, 30, 6), (30, 30, 30), (12, 3, 3), (3, 12, 1), (9, 9, 0)] {
            for scale in [1.0, 2f64.powi(900), 2f64.powi(-900)] {
                let a = low_rank(rows, cols, rank, &mut seed) * scale;
                let dense = a.clone().svd(false, false).singular_values;
                let top = dense.iter().copied().fold(0.0, f64::max);
                let mut want: Vec<f64> = dense.iter().copied().filter(|&x| x > SVD_CUTOFF * top).collect();
                // The route decompose takes: through the range.
                let q = range(&a, SVD_CUTOFF / 100.0).unwrap();
                assert_eq!(q.ncols(), rank);
                let (u, sv, vt) = through(&a, q).unwrap().expect("reproduces a");
                let mut got: Vec<f64> = sv.iter().copied().filter(|&x| x > SVD_CUTOFF * top).collect();
                want.sort_by(|x, y| y.total_cmp(x));
                got.sort_by(|x, y| y.total_cmp(x));
                assert_eq!(got.len(), rank, "{rows} × {cols} of rank {rank}, scale {scale:e}");
                assert_eq!(got.len(), want.len());
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() <= 1e-10 * top, "{g:e} against {w:e}");
                }
                // The minimum-norm solve of a consistent right side gives it back.
                if rank > 0 {
                    let x = nalgebra::DVector::from_fn(cols, |i, _| (i as f64).sin());
                    let b = &a * &x;
                    let y = u.transpose() * &b;
                    let y =
                        nalgebra::DVector::from_fn(
                            y.len(),
                            |k, _| if sv[k] > SVD_CUTOFF * top { y[k] / sv[k] } else { 0.0 },
                        );
                    let f = vt.transpose() * y;
                    let residual = (&a * f - &b).amax();
                    assert!(residual <= 1e-10 * b.amax(), "{residual:e}");
                }
                cases += 1;
            }
        }
        assert_eq!(cases, 21);
    }

    /// One body on 300 contacts: `A = J M⁻¹ Jᵀ` is 900 × 900 of rank 6, and the dense SVD runs
    /// on the range's 6 columns (on the whole `A`, 1,000 contacts ran for minutes, past any time
    /// limit, without a budget check).
    #[test]
    fn many_contacts_on_one_body_reduce_to_six_columns() {
        let n = 300;
        let mut j = nalgebra::DMatrix::<f64>::zeros(3 * n, 6);
        for k in 0..n {
            // The contact point relative to the centre of mass.
            let r = nalgebra::Vector3::new((k % 37) as f64 / 37.0 - 0.5, (k % 41) as f64 / 41.0 - 0.5, -0.5);
            for (axis, d) in [nalgebra::Vector3::x(), nalgebra::Vector3::y(), nalgebra::Vector3::z()].iter().enumerate()
            {
                let m = r.cross(d);
                for c in 0..3 {
                    j[(3 * k + axis, c)] = d[c];
                    j[(3 * k + axis, 3 + c)] = m[c];
                }
            }
        }
        let w = nalgebra::DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![
            1.0 / 8.0,
            1.0 / 8.0,
            1.0 / 8.0,
            0.2,
            0.2,
            0.2,
        ]));
        let a = &j * w * j.transpose();
        assert_eq!(range(&a, 1e-14).unwrap().ncols(), 6);
        let d = decompose(&a, SVD_CUTOFF).unwrap().expect("reproduces A");
        assert_eq!(d.singular_values.len(), 6);
        assert!(d.singular_values.iter().all(|&s| s > 1e-3));
    }
}
