//! The exact solve's linear algebra on integers, by Bareiss's fraction-free elimination.
//!
//! Rational Gaussian elimination divides by a pivot at every step; without a gcd after each
//! operation (which [`crate::scalar::Exact`] deliberately skips) its fractions double in size
//! per step, and with one it pays a gcd per entry. Scaling each row of `[A | −b]` to
//! integers first (a positive rational per row, which changes neither the row space nor the
//! equations) and eliminating fraction-free keeps every intermediate entry a minor of the
//! scaled matrix: each division is exact, and the entries' sizes grow linearly with the step,
//! bounded by Hadamard's inequality. The only fractions left are the solution's, one common
//! denominator (the determinant of the Gram matrix) for all of it.
//!
//! Bareiss's identity (Sylvester's determinant identity): after step `k` of
//! `m_ij ← (m_kk · m_ij − m_ik · m_kj) / m_{k−1,k−1}` the entry `m_ij` is the `(k+2)`-minor on
//! the pivot rows and columns so far plus row `i` and column `j`, so the division is exact.
//! It holds for any choice of pivot columns (a column permutation changes no entry's
//! arithmetic), and for the Gauss–Jordan form that also clears above the pivot, whose
//! diagonal ends as the determinant and whose right part as the adjugate times the right
//! side.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::ForcesError;
use crate::scalar::gcd::gcd_big;
use crate::scalar::int::div_exact_big;

/// lcm(a, b) of positive integers, by Lehmer's gcd ([`gcd_big`]).
fn lcm_big(a: &BigInt, b: &BigInt) -> BigInt {
    div_exact_big(a, &gcd_big(a, b)) * b
}

/// `row` times a positive rational `s` making every entry an integer with no common factor:
/// `s` = lcm(denominators) / gcd(numerators). An all-zero row is kept with `s = 1`.
pub(super) fn integral_row(row: &[BigRational]) -> (Vec<BigInt>, BigRational) {
    let mut lcm = BigInt::one();
    for q in row {
        if !q.is_zero() && !q.denom().is_one() {
            lcm = lcm_big(&lcm, q.denom());
        }
    }
    let ints: Vec<BigInt> = row
        .iter()
        .map(|q| if q.is_zero() { BigInt::zero() } else { q.numer() * div_exact_big(&lcm, q.denom()) })
        .collect();
    let content =
        ints.iter().filter(|x| !x.is_zero()).fold(BigInt::zero(), |g, x| if g.is_one() { g } else { gcd_big(&g, x) });
    if content.is_zero() {
        return (ints, BigRational::one());
    }
    let ints = if content.is_one() { ints } else { ints.into_iter().map(|x| div_exact_big(&x, &content)).collect() };
    (ints, BigRational::new(lcm, content))
}

/// The rows of `m` (each `cols` unknowns' coefficients then one right side) that are linearly
/// independent in their first `cols` entries, in order of first appearance: a row basis of the
/// coefficient matrix. `None` when some row's coefficients depend on the earlier rows' but its
/// right side does not follow from theirs: the system is inconsistent.
///
/// Each row is reduced, as it comes, against the basis rows found before it, fraction-free:
/// the same arithmetic as Bareiss's elimination on the matrix of basis rows followed by this
/// one, with the basis rows' leading columns as pivot columns.
pub(super) fn row_basis(m: &[Vec<BigInt>], cols: usize) -> Result<Option<Vec<usize>>, ForcesError> {
    // (original index, leading column, reduced row) of the basis rows so far.
    let mut basis: Vec<(usize, usize, Vec<BigInt>)> = Vec::new();
    for (i, original) in m.iter().enumerate() {
        let mut row = original.clone();
        let mut previous = BigInt::one();
        for (_, lead, p) in &basis {
            if row.iter().all(Zero::is_zero) {
                break;
            }
            crate::budget::tick()?;
            let pivot = &p[*lead];
            // The leading column becomes factor · pivot − pivot · factor = 0.
            let factor = row[*lead].clone();
            for (x, y) in row.iter_mut().zip(p) {
                let mut v = &*x * pivot;
                if !factor.is_zero() && !y.is_zero() {
                    v -= y * &factor;
                }
                *x = if previous.is_one() { v } else { div_exact_big(&v, &previous) };
            }
            previous = pivot.clone();
        }
        match (0..cols).find(|&k| !row[k].is_zero()) {
            Some(lead) => basis.push((i, lead, row)),
            None if !row[cols].is_zero() => return Ok(None),
            None => {}
        }
    }
    Ok(Some(basis.into_iter().map(|(i, _, _)| i).collect()))
}

/// A square integer matrix `g` inverted with a right side, on integers.
pub(super) struct Inverted {
    /// `det g`.
    pub det: BigInt,
    /// `adj(g) · rhs`, so that `g⁻¹ rhs = solution / det`.
    pub solution: Vec<BigInt>,
    /// `adj(g)`, so that `g⁻¹ = adjugate / det`.
    pub adjugate: Vec<Vec<BigInt>>,
}

/// Fraction-free Gauss–Jordan on the square `g` (`r × r`, leading principal minors nonzero:
/// positive definite, say) with the right side `rhs`: its determinant, `adj(g) · rhs` and
/// `adj(g)`, all integers.
pub(super) fn gauss_jordan(g: Vec<Vec<BigInt>>, rhs: Vec<BigInt>) -> Result<Inverted, ForcesError> {
    let r = g.len();
    // [g | rhs | I].
    let mut m: Vec<Vec<BigInt>> = g
        .into_iter()
        .zip(rhs)
        .enumerate()
        .map(|(i, (mut row, b))| {
            row.push(b);
            row.extend((0..r).map(|j| if i == j { BigInt::one() } else { BigInt::zero() }));
            row
        })
        .collect();
    let mut previous = BigInt::one();
    for k in 0..r {
        if m[k][k].is_zero() {
            // Not reachable for a positive definite g; a typed answer rather than a division by zero.
            return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Close));
        }
        let pivot_row = m[k].clone();
        let pivot = &pivot_row[k];
        for (i, row) in m.iter_mut().enumerate() {
            if i == k {
                continue;
            }
            crate::budget::tick()?;
            let factor = row[k].clone();
            for (x, y) in row.iter_mut().zip(&pivot_row) {
                let mut v = &*x * pivot;
                if !factor.is_zero() && !y.is_zero() {
                    v -= y * &factor;
                }
                *x = if previous.is_one() { v } else { div_exact_big(&v, &previous) };
            }
        }
        previous = pivot.clone();
    }
    // Every row's diagonal is now det g, the identity's place holds adj(g) (row i of the
    // inverse times det g), and the right side adj(g) · rhs.
    let solution: Vec<BigInt> = m.iter().map(|row| row[r].clone()).collect();
    let adjugate: Vec<Vec<BigInt>> = m.into_iter().map(|row| row[r + 1..].to_vec()).collect();
    Ok(Inverted { det: previous, solution, adjugate })
}

/// `max_i s_i Σ_j s_j |adj_ij| / |det|` for positive scales `s`: the ∞-norm of
/// `D adj D / det`, as a numerator and a positive denominator. On integers: with `T` the least
/// common multiple of the scales' denominators and `t_i = s_i T`, it is
/// `max_i t_i Σ_j t_j |adj_ij| / (T² |det|)`.
pub(super) fn scaled_inverse_norm(det: &BigInt, adjugate: &[Vec<BigInt>], scales: &[BigRational]) -> (BigInt, BigInt) {
    let common = scales.iter().fold(BigInt::one(), |l, s| if s.denom().is_one() { l } else { lcm_big(&l, s.denom()) });
    let t: Vec<BigInt> = scales.iter().map(|s| s.numer() * (&common / s.denom())).collect();
    let mut best = BigInt::zero();
    for (ti, row) in t.iter().zip(adjugate) {
        let sum =
            row.iter().zip(&t).fold(BigInt::zero(), |acc, (x, tj)| if x.is_zero() { acc } else { acc + tj * x.abs() });
        let v = sum * ti;
        if v > best {
            best = v;
        }
    }
    (best, &common * &common * det.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }
    fn z(n: i64) -> BigInt {
        n.into()
    }

    #[test]
    fn a_row_is_scaled_to_coprime_integers() {
        let (ints, s) = integral_row(&[q(1, 6), q(0, 1), q(-2, 9), q(4, 3)]);
        // lcm 18: (3, 0, −4, 24), content 1.
        assert_eq!(ints, vec![z(3), z(0), z(-4), z(24)]);
        assert_eq!(s, q(18, 1));
        let (ints, s) = integral_row(&[q(4, 1), q(-6, 1), q(0, 1)]);
        assert_eq!((ints, s), (vec![z(2), z(-3), z(0)], q(1, 2)));
        let (ints, s) = integral_row(&[q(0, 1), q(0, 1)]);
        assert_eq!((ints, s), (vec![z(0), z(0)], q(1, 1)));
    }

    #[test]
    fn the_row_basis_skips_dependent_rows_and_finds_inconsistency() {
        // Rows: r0 = (1, 2, 3 | 1), r1 = 2·r0, r2 = (0, 1, 1 | 0), r3 = r0 + r2, r4 = (1, 0, 0 | 5).
        let m = vec![
            vec![z(1), z(2), z(3), z(1)],
            vec![z(2), z(4), z(6), z(2)],
            vec![z(0), z(1), z(1), z(0)],
            vec![z(1), z(3), z(4), z(1)],
            vec![z(1), z(0), z(0), z(5)],
        ];
        assert_eq!(row_basis(&m, 3).unwrap(), Some(vec![0, 2, 4]));
        // r0 + r2 with a right side of 2 does not follow from r0 and r2.
        let bad = vec![m[0].clone(), m[2].clone(), vec![z(1), z(3), z(4), z(2)]];
        assert_eq!(row_basis(&bad, 3).unwrap(), None);
        // A zero row with a nonzero right side is inconsistent on its own.
        assert_eq!(row_basis(&[vec![z(0), z(0), z(3)]], 2).unwrap(), None);
    }

    #[test]
    fn gauss_jordan_gives_the_determinant_and_the_adjugate() {
        // g = [[4, 2, 0], [2, 5, 1], [0, 1, 3]]: det 4·14 − 2·6 = 44.
        let g = vec![vec![z(4), z(2), z(0)], vec![z(2), z(5), z(1)], vec![z(0), z(1), z(3)]];
        let Inverted { det, solution: x, adjugate: adj } = gauss_jordan(g.clone(), vec![z(1), z(0), z(-1)]).unwrap();
        assert_eq!(det, z(44));
        // adj = cofactor transpose, by hand.
        let expect = vec![vec![z(14), z(-6), z(2)], vec![z(-6), z(12), z(-4)], vec![z(2), z(-4), z(16)]];
        assert_eq!(adj, expect);
        assert_eq!(x, vec![z(12), z(-2), z(-14)]);
        // g · adj = det · I.
        for (i, gi) in g.iter().enumerate() {
            for j in 0..3 {
                let s: BigInt = gi.iter().zip(&adj).map(|(x, row)| x * &row[j]).sum();
                assert_eq!(s, if i == j { z(44) } else { z(0) });
            }
        }
    }
}
