//! Polynomials in two variables over the rationals, f(u, t) = Σᵢ cᵢ(t)·uⁱ, and the first time
//! t at which f(·, t) has a real zero in a range of u: the exact route to a moving curve's
//! first contact with a surface (issue 42 item 3: a capsule's segment or a torus's circle
//! against a torus, where conservative advancement creeps toward a grazing contact forever).
//!
//! The zeros of f(·, t) in a range can appear only where a zero enters through an end of the
//! range (f(a, t) = 0), from infinity (the leading coefficient vanishes, when the range is the
//! whole projective line), or as a new multiple zero (the discriminant in u vanishes). Those
//! times are roots of univariate polynomials, isolated exactly; at each, in increasing order,
//! the first subresultant of f and ∂f/∂u gives the multiple zero as a rational function of the
//! time, whose place is decided by signs at an algebraic number. A curve touching a surface
//! along a whole family of points (f a square in u for every t) is reduced to its square-free
//! part over ℚ(t) first.
//!
//! Subresultant coefficients are determinants of Sylvester-type matrices whose entries are
//! polynomials in t; they are found exactly by evaluation at integer times and interpolation
//! (the degree bound is the row count times the entries' degree).
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::poly::{first_zero, Bivariate, FirstZero, Poly, URange};
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // f = u² + (t − 1)²: positive until t = 1, where u = 0 is a double zero (a graze).
//! let f = Bivariate::new(vec![Poly::from_coeffs(vec![q(1), q(-2), q(1)]), Poly::zero(), Poly::constant(q(1))]);
//! match first_zero(&f, &URange::Closed(q(-1), q(1)), &q(0), &q(3)).unwrap() {
//!     FirstZero::At(t) => assert_eq!(t.to_rational(), Some(q(1))),
//!     other => panic!("{other:?}"),
//! }
//! // On u ∈ [2, 3] the zero at u = 0 is outside: no zero in time.
//! assert!(matches!(first_zero(&f, &URange::Closed(q(2), q(3)), &q(0), &q(3)).unwrap(), FirstZero::Never));
//! ```

use std::ops::{Add, Mul, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational as Q;
use num_traits::{One, Zero};

use super::{real_roots, Algebraic, Poly, PolyError};
use crate::scalar::{try_dedup_by, try_sort_by, Sign};

/// f(u, t) = Σᵢ cᵢ(t)·uⁱ with a *formal* degree in u (the length of the coefficient list less
/// one: a leading coefficient may vanish at some times, or everywhere).
#[derive(Clone, Debug, PartialEq)]
pub struct Bivariate {
    coeffs: Vec<Poly<Q>>,
}

/// Where u ranges.
#[derive(Clone, Debug, PartialEq)]
pub enum URange {
    /// The closed interval `[a, b]`, a ≤ b.
    Closed(Q, Q),
    /// The whole real line with its point at infinity, where f's value is its formal leading
    /// coefficient (a rational parametrisation of a closed curve, f homogenised).
    Line,
}

/// The answer of [`first_zero`].
#[derive(Clone, Debug, PartialEq)]
pub enum FirstZero {
    /// The first time of a zero in the range.
    At(Algebraic),
    /// No zero in the range at any time of the interval.
    Never,
    /// The route does not decide: the first subresultant vanishes at a candidate time (two
    /// multiple zeros at once; on the whole line, three) or the square-free reduction
    /// degenerates there. Callers fall
    /// back to another route.
    Undecided,
}

impl Bivariate {
    /// The polynomial of the coefficients `coeffs[i]` of uⁱ (formal degree `coeffs.len() − 1`).
    pub fn new(coeffs: Vec<Poly<Q>>) -> Self {
        Bivariate { coeffs: if coeffs.is_empty() { vec![Poly::zero()] } else { coeffs } }
    }

    /// A polynomial in t alone.
    pub fn in_t(p: Poly<Q>) -> Self {
        Bivariate { coeffs: vec![p] }
    }

    /// a + b·u + c·t.
    pub fn linear(a: &Q, b: &Q, c: &Q) -> Self {
        Bivariate::new(vec![Poly::from_coeffs(vec![a.clone(), c.clone()]), Poly::constant(b.clone())])
    }

    /// The formal degree in u.
    pub fn formal_degree(&self) -> usize {
        self.coeffs.len() - 1
    }

    /// The coefficient of uⁱ.
    pub fn coeff(&self, i: usize) -> Poly<Q> {
        self.coeffs.get(i).cloned().unwrap_or_else(Poly::zero)
    }

    /// The largest degree in t of a coefficient (0 for the zero polynomial).
    pub fn t_degree(&self) -> usize {
        self.coeffs.iter().filter_map(|c| c.degree()).max().unwrap_or(0)
    }

    /// Whether every coefficient is zero.
    pub fn is_zero(&self) -> bool {
        self.coeffs.iter().all(|c| c.is_zero())
    }

    /// The formal coefficients of f(·, t) at a rational time.
    pub fn at_t(&self, t: &Q) -> Vec<Q> {
        self.coeffs.iter().map(|c| c.eval(t)).collect()
    }

    /// f(u, ·) at a rational u: a polynomial in t.
    pub fn at_u(&self, u: &Q) -> Poly<Q> {
        self.coeffs.iter().rev().fold(Poly::zero(), |acc, c| acc.scale(u) + c.clone())
    }

    /// ∂f/∂u (formal degree one less, at least 0).
    pub fn derivative_u(&self) -> Self {
        if self.coeffs.len() == 1 {
            return Bivariate::new(vec![Poly::zero()]);
        }
        Bivariate::new(
            self.coeffs.iter().enumerate().skip(1).map(|(i, c)| c.scale(&Q::from_integer(i.into()))).collect(),
        )
    }

    /// c(t)·f.
    pub fn scale_t(&self, c: &Poly<Q>) -> Self {
        Bivariate::new(self.coeffs.iter().map(|x| x.clone() * c.clone()).collect())
    }

    /// f·uᵏ.
    pub(super) fn shift_u(&self, k: usize) -> Self {
        let mut coeffs = vec![Poly::zero(); k];
        coeffs.extend(self.coeffs.iter().cloned());
        Bivariate::new(coeffs)
    }

    /// The same polynomial with its formal degree lowered to its true degree (at least 0).
    pub(super) fn trimmed(&self) -> Self {
        let n = self.coeffs.iter().rposition(|c| !c.is_zero()).unwrap_or(0);
        Bivariate::new(self.coeffs[..=n].to_vec())
    }
}

impl Add for Bivariate {
    type Output = Bivariate;
    fn add(self, o: Bivariate) -> Bivariate {
        let n = self.coeffs.len().max(o.coeffs.len());
        Bivariate::new((0..n).map(|i| self.coeff(i) + o.coeff(i)).collect())
    }
}

impl Sub for Bivariate {
    type Output = Bivariate;
    fn sub(self, o: Bivariate) -> Bivariate {
        let n = self.coeffs.len().max(o.coeffs.len());
        Bivariate::new((0..n).map(|i| self.coeff(i) - o.coeff(i)).collect())
    }
}

impl Mul for Bivariate {
    type Output = Bivariate;
    fn mul(self, o: Bivariate) -> Bivariate {
        let mut coeffs = vec![Poly::zero(); self.coeffs.len() + o.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in o.coeffs.iter().enumerate() {
                coeffs[i + j] = coeffs[i + j].clone() + a.clone() * b.clone();
            }
        }
        Bivariate::new(coeffs)
    }
}

/// The exact integral domain a Sylvester determinant is taken in: the integers here, ℤ[√α]
/// for a curve parametrised over a quadratic field ([`super::quadratic`]).
pub(super) trait Domain {
    type E: Clone;
    fn zero(&self) -> Self::E;
    fn one(&self) -> Self::E;
    fn is_zero(&self, x: &Self::E) -> bool;
    fn neg(&self, x: &Self::E) -> Self::E;
    /// a·b − c·d.
    fn mul_sub(&self, a: &Self::E, b: &Self::E, c: &Self::E, d: &Self::E) -> Self::E;
    /// x / y for y dividing x exactly.
    fn div_exact(&self, x: &Self::E, y: &Self::E) -> Self::E;
}

/// The integers.
pub(super) struct Integers;

impl Domain for Integers {
    type E = BigInt;
    fn zero(&self) -> BigInt {
        BigInt::zero()
    }
    fn one(&self) -> BigInt {
        BigInt::one()
    }
    fn is_zero(&self, x: &BigInt) -> bool {
        x.is_zero()
    }
    fn neg(&self, x: &BigInt) -> BigInt {
        -x
    }
    fn mul_sub(&self, a: &BigInt, b: &BigInt, c: &BigInt, d: &BigInt) -> BigInt {
        a * b - c * d
    }
    fn div_exact(&self, x: &BigInt, y: &BigInt) -> BigInt {
        crate::scalar::int::div_exact_big(x, y)
    }
}

/// The determinant of a square matrix over an integral domain, by Bareiss's fraction-free
/// elimination (every division exact).
#[cfg(test)]
pub(super) fn determinant<D: Domain>(ring: &D, mut m: Vec<Vec<D::E>>) -> D::E {
    let n = m.len();
    let mut negate = false;
    let mut previous = ring.one();
    for c in 0..n {
        let Some(p) = (c..n).find(|&r| !ring.is_zero(&m[r][c])) else { return ring.zero() };
        if p != c {
            m.swap(p, c);
            negate = !negate;
        }
        for r in c + 1..n {
            for k in c + 1..n {
                let v = ring.mul_sub(&m[c][c], &m[r][k], &m[r][c], &m[c][k]);
                m[r][k] = ring.div_exact(&v, &previous);
            }
            m[r][c] = ring.zero();
        }
        previous = m[c][c].clone();
    }
    if negate {
        ring.neg(&m[n - 1][n - 1])
    } else {
        m[n - 1][n - 1].clone()
    }
}

/// The same zeros with integer coefficients: f times the least common multiple of its
/// coefficients' denominators (a positive constant).
pub(super) fn integral(f: &Bivariate) -> Bivariate {
    let mut l = BigInt::one();
    for c in &f.coeffs {
        for x in c.coeffs() {
            l = l.lcm(x.denom());
        }
    }
    f.scale_t(&Poly::constant(Q::from_integer(l)))
}

/// Coefficient `i` (≤ j) of the j-th subresultant of `f` and `g` (ascending coefficients of
/// formal degrees m and n, j < min(m, n) or j = 0): the determinant of the rows uᵏ·f
/// (k < n − j) and uᵏ·g (k < m − j) on the columns of u^(m+n−j−1) … u^(j+1) and uⁱ. The
/// independent route [`subresultant_coeffs`] is tested against.
#[cfg(test)]
pub(super) fn subresultant_coeff<D: Domain>(ring: &D, f: &[D::E], g: &[D::E], j: usize, i: usize) -> D::E {
    let (m, n) = (f.len() - 1, g.len() - 1);
    let r = m + n - 2 * j;
    let mut powers: Vec<usize> = (j + 1..m + n - j).rev().collect();
    powers.push(i);
    let row = |p: &[D::E], k: usize| -> Vec<D::E> {
        powers.iter().map(|&e| if e >= k && e - k < p.len() { p[e - k].clone() } else { ring.zero() }).collect()
    };
    let mut rows = Vec::with_capacity(r);
    for k in (0..n - j).rev() {
        rows.push(row(f, k));
    }
    for k in (0..m - j).rev() {
        rows.push(row(g, k));
    }
    determinant(ring, rows)
}

/// [`subresultant_coeff`] for each of the coefficients `is` at once: the matrices differ only
/// in their last column, so Bareiss's elimination runs once on the r − 1 shared columns with
/// every last column carried beside them. After r − 1 steps the last row's entry in a carried
/// column is the r × r minor with that column last (Sylvester's identity, as in
/// Bareiss's determinant); the pivots, their rows and so the signs are those of each single
/// determinant, so every value is the one a single determinant gives (`tests` hold them equal).
pub(super) fn subresultant_coeffs<D: Domain>(ring: &D, f: &[D::E], g: &[D::E], j: usize, is: &[usize]) -> Vec<D::E> {
    let (m, n) = (f.len() - 1, g.len() - 1);
    let r = m + n - 2 * j;
    let mut powers: Vec<usize> = (j + 1..m + n - j).rev().collect();
    powers.extend_from_slice(is);
    let row = |p: &[D::E], k: usize| -> Vec<D::E> {
        powers.iter().map(|&e| if e >= k && e - k < p.len() { p[e - k].clone() } else { ring.zero() }).collect()
    };
    let mut a: Vec<Vec<D::E>> = Vec::with_capacity(r);
    for k in (0..n - j).rev() {
        a.push(row(f, k));
    }
    for k in (0..m - j).rev() {
        a.push(row(g, k));
    }
    let width = powers.len();
    // No shared column: each minor is its 1 × 1 matrix (an empty one never arises: j < m + n).
    let Some(last) = r.checked_sub(1) else { return vec![ring.one(); is.len()] };
    let mut negate = false;
    let mut previous = ring.one();
    for c in 0..last {
        let Some(p) = (c..r).find(|&x| !ring.is_zero(&a[x][c])) else { return vec![ring.zero(); is.len()] };
        if p != c {
            a.swap(p, c);
            negate = !negate;
        }
        for x in c + 1..r {
            for k in c + 1..width {
                let v = ring.mul_sub(&a[c][c], &a[x][k], &a[x][c], &a[c][k]);
                a[x][k] = ring.div_exact(&v, &previous);
            }
            a[x][c] = ring.zero();
        }
        previous = a[c][c].clone();
    }
    a[last][last..].iter().map(|v| if negate { ring.neg(v) } else { v.clone() }).collect()
}

/// The polynomial of degree ≤ `values.len() − 1` through (k, values[k]), k = 0, 1, …
/// (Newton's divided differences).
pub(super) fn interpolate(values: &[Q]) -> Poly<Q> {
    let n = values.len();
    let mut d = values.to_vec();
    for level in 1..n {
        for k in (level..n).rev() {
            d[k] = (&d[k] - &d[k - 1]) / Q::from_integer(level.into());
        }
    }
    // p = d0 + d1·t + d2·t(t−1) + …, by Horner from the top.
    let mut p = Poly::constant(d[n - 1].clone());
    for k in (0..n - 1).rev() {
        let factor = Poly::from_coeffs(vec![-Q::from_integer(k.into()), Q::one()]);
        p = p * factor + Poly::constant(d[k].clone());
    }
    p
}

/// [`interpolate`] for integer values, on integers: the divided differences of the values of a
/// polynomial with integer coefficients at 0, 1, … are integers (the `l`-th forward difference
/// of `t^m` is a multiple of `l!`), so each division is exact and no gcd is taken; values of a
/// polynomial with other coefficients (a division with a remainder) go the rational way.
pub(super) fn interpolate_integers(values: &[BigInt]) -> Poly<Q> {
    let n = values.len();
    let mut d = values.to_vec();
    for level in 1..n {
        let l = BigInt::from(level);
        for k in (level..n).rev() {
            let (q, r) = (&d[k] - &d[k - 1]).div_rem(&l);
            if !r.is_zero() {
                return interpolate(&values.iter().map(|v| Q::from_integer(v.clone())).collect::<Vec<_>>());
            }
            d[k] = q;
        }
    }
    // p = d0 + d1·t + d2·t(t−1) + …, by Horner from the top, ascending coefficients.
    let Some(top) = d.last() else { return Poly::zero() };
    let mut p: Vec<BigInt> = vec![top.clone()];
    for k in (0..n - 1).rev() {
        // p ← p·(t − k) + d_k.
        let mut next = vec![BigInt::zero(); p.len() + 1];
        for (i, c) in p.iter().enumerate() {
            next[i + 1] += c;
            if k != 0 {
                next[i] -= c * BigInt::from(k);
            }
        }
        next[0] += &d[k];
        p = next;
    }
    Poly::from_coeffs(p.into_iter().map(Q::from_integer).collect())
}

/// Coefficients `is` of the j-th subresultant of `f` and `g` as polynomials in t.
fn subresultant(f: &Bivariate, g: &Bivariate, j: usize, is: &[usize]) -> Result<Vec<Poly<Q>>, PolyError> {
    let rows = f.formal_degree() + g.formal_degree() - 2 * j;
    let bound = rows * f.t_degree().max(g.t_degree());
    let mut values = vec![Vec::with_capacity(bound + 1); is.len()];
    // Integer coefficients at integer times: Bareiss on integers (the constant factors the
    // scaling puts on the coefficients do not move their zeros).
    // Each coefficient in u, a polynomial in t, is evaluated by Horner's scheme on integers:
    // `Poly<Q>::eval` reduced every product and sum by num-bigint's binary gcd.
    let ints = |b: &Bivariate| -> Vec<Vec<BigInt>> {
        b.coeffs.iter().map(|c| c.coeffs().iter().map(|x| x.to_integer()).collect()).collect()
    };
    let (f, g) = (ints(&integral(f)), ints(&integral(g)));
    let at = |b: &[Vec<BigInt>], t: &BigInt| -> Vec<BigInt> {
        b.iter().map(|c| c.iter().rev().fold(BigInt::zero(), |acc, x| acc * t + x)).collect()
    };
    for k in 0..=bound {
        crate::budget::tick()?;
        let t = BigInt::from(k);
        let (fa, ga) = (at(&f, &t), at(&g, &t));
        for (slot, v) in subresultant_coeffs(&Integers, &fa, &ga, j, is).into_iter().enumerate() {
            values[slot].push(v);
        }
    }
    Ok(values.iter().map(|v| interpolate_integers(v)).collect())
}

/// The content in t (the monic gcd of the coefficients) divided out, then the coefficients
/// made coprime integers (a positive constant factor): the same zeros with the shortest
/// numbers, which keeps the pseudo-quotients and determinants that follow small.
fn primitive(f: &Bivariate) -> Result<Bivariate, PolyError> {
    let mut g = Poly::zero();
    for c in &f.coeffs {
        g = g.gcd(c)?;
    }
    let f = if g.degree().is_none_or(|d| d == 0) {
        f.clone()
    } else {
        let mut coeffs = Vec::with_capacity(f.coeffs.len());
        for c in &f.coeffs {
            coeffs.push(c.div_rem(&g)?.0);
        }
        Bivariate::new(coeffs)
    };
    let f = integral(&f);
    let mut content = BigInt::zero();
    for c in &f.coeffs {
        for x in c.coeffs() {
            content = content.gcd(x.numer());
        }
    }
    if content.is_zero() || content.is_one() {
        return Ok(f);
    }
    Ok(f.scale_t(&Poly::constant(Q::new(BigInt::one(), content))))
}

/// The pseudo-quotient of f by g (true degree d ≥ 1 in u, leading coefficient ℓ):
/// ℓ^(n−d+1)·f = q·g + r; `None` when the remainder r is not zero.
fn pseudo_quotient(f: &Bivariate, g: &Bivariate) -> Option<Bivariate> {
    let d = g.formal_degree();
    let lead = g.coeff(d);
    let mut r = f.clone();
    let mut q = Bivariate::in_t(Poly::zero());
    for k in (d..=f.formal_degree()).rev() {
        let rk = r.coeff(k);
        q = q.scale_t(&lead);
        r = r.scale_t(&lead);
        if !rk.is_zero() {
            let term = Bivariate::in_t(rk).shift_u(k - d);
            q = q + term.clone();
            r = r - term * g.clone();
        }
    }
    (r.is_zero()).then_some(q)
}

/// The longest integer coefficient [`first_zero`] takes (f scaled to integers): its
/// determinants have row-count times as many bits, at each of up to 61 times (degree 8 in u,
/// 4 in t), which bounds the work at a few seconds; longer input is `Undecided`.
pub const MAX_INPUT_BITS: u64 = 2048;

/// The largest degree × coefficient bits of a polynomial in t [`first_zero`] isolates and
/// decides signs with (the discriminant, the first subresultant): the cost of the exact gcds
/// of isolation and of signs at algebraic times grows with both. A torus cast in a plain
/// binary64 pose (degree 28, 3,881 bits) took more than 40 s there where advancement answers
/// in 16 s; Example 5.1 is degree 28 at 349 bits, tori 2⁻⁵⁰ off resting degree 24 at 2,264.
/// Larger is `Undecided`.
pub const MAX_CANDIDATE_SIZE: u64 = 64_000;

pub(super) fn size(p: &Poly<Q>) -> u64 {
    p.degree().unwrap_or(0) as u64 * coefficient_bits(&Bivariate::in_t(p.clone()))
}

pub(super) fn coefficient_bits(f: &Bivariate) -> u64 {
    f.coeffs.iter().flat_map(|c| c.coeffs().iter().map(|x| x.numer().bits().max(x.denom().bits()))).max().unwrap_or(0)
}

/// The first time t in `[t0, t1]` at which f(·, t) has a real zero in `range` (see the module
/// docs), for f with no zero in the range at t0: the caller checks that (a curve apart from a
/// surface at the start). Exact. `Undecided` for coefficients longer than
/// [`MAX_INPUT_BITS`] as integers, and for a discriminant or subresultant larger than
/// [`MAX_CANDIDATE_SIZE`].
///
/// Errors: the size limits of the root finder, a spent budget.
pub fn first_zero(f: &Bivariate, range: &URange, t0: &Q, t1: &Q) -> Result<FirstZero, PolyError> {
    let n = f.formal_degree();
    if f.coeff(n).is_zero() || t0 > t1 || coefficient_bits(&integral(f)) > MAX_INPUT_BITS {
        return Ok(FirstZero::Undecided);
    }
    // The zeros entering through the ends of the range.
    let ends: Vec<Poly<Q>> = match range {
        URange::Closed(a, b) if a <= b => vec![f.at_u(a), f.at_u(b)],
        URange::Closed(..) => return Ok(FirstZero::Undecided),
        URange::Line => vec![f.coeff(n)],
    };
    if ends.iter().any(|e| e.is_zero()) {
        return Ok(FirstZero::Undecided);
    }
    // The square-free part F₁ over ℚ(t): f divided by g = gcd(f, ∂f/∂u), the first subresultant
    // whose principal coefficient is not identically zero. f's content in t is divided out
    // first: where it vanishes f(·, t) is zero everywhere, at the ends too.
    let f = &primitive(f)?;
    let df = f.derivative_u();
    let mut square_free = f.clone();
    let mut exceptional: Vec<Poly<Q>> = Vec::new();
    // The discriminant of f when f itself is square-free (the 0-th subresultant below, and the
    // first one the search takes): not computed twice.
    let mut discriminant_of_f = None;
    if n >= 2 {
        for j in 0..n - 1 {
            let c = subresultant(f, &df, j, &[j])?.remove(0);
            if c.is_zero() {
                continue;
            }
            if j == 0 {
                discriminant_of_f = Some(c);
            } else {
                let coeffs = subresultant(f, &df, j, &(0..=j).collect::<Vec<_>>())?;
                // g = c(t)·gcd: its content in t is divided out (a factor that vanishes at some
                // time is no degeneracy of f).
                let g = primitive(&Bivariate::new(coeffs))?;
                let Some(q) = pseudo_quotient(f, &g) else { return Ok(FirstZero::Undecided) };
                square_free = primitive(&q.trimmed())?;
                exceptional.push(g.coeff(j));
            }
            break;
        }
    }
    let m = square_free.formal_degree();
    let dsf = square_free.derivative_u();
    let (disc, s1) = if m >= 2 {
        let d = match discriminant_of_f {
            Some(d) => d,
            None => subresultant(&square_free, &dsf, 0, &[0])?.remove(0),
        };
        if d.is_zero() {
            return Ok(FirstZero::Undecided);
        }
        let s = subresultant(&square_free, &dsf, 1, &[0, 1])?;
        if [&d, &s[0], &s[1]].iter().any(|p| size(p) > MAX_CANDIDATE_SIZE) {
            return Ok(FirstZero::Undecided);
        }
        (Some(d), Some((s[0].clone(), s[1].clone())))
    } else {
        (None, None)
    };
    if m >= 1 {
        exceptional.push(square_free.coeff(m));
    }
    // The candidate times, each polynomial isolated on its own (their product could pass the
    // root finder's degree limit), merged in order.
    let mut times: Vec<Algebraic> = Vec::new();
    for p in ends.iter().chain(disc.iter()).chain(exceptional.iter()) {
        if p.degree().is_some_and(|d| d > 0) {
            times.extend(real_roots(p, t0, t1)?);
        }
    }
    try_sort_by(&mut times, |a, b| a.try_cmp(b))?;
    try_dedup_by(&mut times, |a, b| a.try_cmp(b))?;
    let mut second: Option<Vec<Poly<Q>>> = None;
    for c in times {
        crate::budget::tick()?;
        for e in &ends {
            if c.sign_of(e)? == Sign::Zero {
                return Ok(FirstZero::At(c));
            }
        }
        for e in &exceptional {
            if c.sign_of(e)? == Sign::Zero {
                return Ok(FirstZero::Undecided);
            }
        }
        let (Some(d), Some((s10, s11))) = (&disc, &s1) else { continue };
        if c.sign_of(d)? != Sign::Zero {
            continue;
        }
        // One multiple zero u* = −s10/s11 (real: it is its own conjugate).
        let lead = c.sign_of(s11)?;
        if lead == Sign::Zero {
            // Two multiple zeros at once (a symmetric configuration). On the whole line: the
            // second subresultant s₂₂u² + s₂₁u + s₂₀ is the gcd of F₁ and ∂F₁/∂u, two real
            // zeros or a conjugate pair by its discriminant's sign (before c there is no real
            // zero, so at c the real zeros are multiple ones). Otherwise undecided.
            if range != &URange::Line || m < 3 {
                return Ok(FirstZero::Undecided);
            }
            let s2 = match &second {
                Some(s2) => s2,
                None => second.insert(subresultant(&square_free, &dsf, 2, &[0, 1, 2])?),
            };
            if c.sign_of(&s2[2])? == Sign::Zero {
                return Ok(FirstZero::Undecided);
            }
            let four = Q::from_integer(4.into());
            let d2 = &(&s2[1] * &s2[1]) - &(&s2[0] * &s2[2]).scale(&four);
            if c.sign_of(&d2)? != Sign::Negative {
                return Ok(FirstZero::At(c));
            }
            continue;
        }
        let inside = match range {
            URange::Line => true,
            URange::Closed(a, b) => {
                // u* ≥ a ⇔ (s10 + a·s11)·s11 ≤ 0; u* ≤ b ⇔ (s10 + b·s11)·s11 ≥ 0.
                let at = |x: &Q| c.sign_of(&(s10.clone() + s11.scale(x)));
                let (sa, sb) = (at(a)?, at(b)?);
                sa.as_i32() * lead.as_i32() <= 0 && sb.as_i32() * lead.as_i32() >= 0
            }
        };
        if inside {
            return Ok(FirstZero::At(c));
        }
    }
    Ok(FirstZero::Never)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::poly) fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    pub(in crate::poly) fn poly(c: &[i64]) -> Poly<Q> {
        Poly::from_coeffs(c.iter().map(|&x| q(x)).collect())
    }

    #[test]
    fn interpolation_recovers_a_polynomial() {
        let p = poly(&[3, -1, 0, 2]);
        let values: Vec<Q> = (0..6).map(|k| p.eval(&q(k))).collect();
        assert_eq!(interpolate(&values), p);
        // The same on integers, and for values of a polynomial with a non-integer
        // coefficient, t(t − 1)/2 (integer values; the division by 2 is not exact).
        let ints: Vec<BigInt> = (0..6).map(|k| p.eval(&q(k)).to_integer()).collect();
        assert_eq!(interpolate_integers(&ints), p);
        let half = Poly::from_coeffs(vec![q(0), Q::new((-1).into(), 2.into()), Q::new(1.into(), 2.into())]);
        let ints: Vec<BigInt> = (0..4).map(|k| half.eval(&q(k)).to_integer()).collect();
        assert_eq!(interpolate_integers(&ints), half);
        assert_eq!(interpolate_integers(&[BigInt::from(7)]), poly(&[7]));
    }

    #[test]
    fn the_resultant_of_two_quadratics_is_the_product_of_differences() {
        // (u − 1)(u − 2) and (u − 3)(u − 5): Res = Π (aᵢ − bⱼ) = (−2)(−4)(−1)(−3) = 24.
        let z = |v: &[i64]| -> Vec<BigInt> { v.iter().map(|&x| BigInt::from(x)).collect() };
        let f = z(&[2, -3, 1]);
        let g = z(&[15, -8, 1]);
        assert_eq!(subresultant_coeff(&Integers, &f, &g, 0, 0), BigInt::from(24));
        // Sharing a root: zero, and the first subresultant is a multiple of u − 2.
        let g = z(&[6, -5, 1]);
        assert_eq!(subresultant_coeff(&Integers, &f, &g, 0, 0), BigInt::zero());
        let (s0, s1) = (subresultant_coeff(&Integers, &f, &g, 1, 0), subresultant_coeff(&Integers, &f, &g, 1, 1));
        assert_eq!(Q::new(-s0, s1), q(2));
    }

    #[test]
    fn the_shared_elimination_gives_each_single_determinant() {
        // Every coefficient set of every subresultant, by one elimination carrying the last
        // columns, against one determinant per coefficient; on degenerate pairs: many zero
        // coefficients (pivots to swap, all-zero columns), shared roots, equal polynomials.
        let z = |v: &[i64]| -> Vec<BigInt> { v.iter().map(|&x| BigInt::from(x)).collect() };
        let mut next = crate::poly::tests::draws(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for _ in 0..400 {
            let (m, n) = (1 + next(5) as usize, 1 + next(5) as usize);
            fn draw(next: &mut impl FnMut(u64) -> i64, len: usize) -> Vec<i64> {
                let mut c: Vec<i64> = (0..=len).map(|_| if next(3) == 0 { 0 } else { next(7) - 3 }).collect();
                if c[len] == 0 {
                    c[len] = 1;
                }
                c
            }
            let f = draw(&mut next, m);
            let g = if next(4) == 0 { f[..=n.min(m)].to_vec() } else { draw(&mut next, n) };
            let (f, g) = (z(&f), z(&g));
            let (m, n) = (f.len() - 1, g.len() - 1);
            for j in 0..m.min(n).max(1) {
                let is: Vec<usize> = (0..=j).collect();
                let shared = subresultant_coeffs(&Integers, &f, &g, j, &is);
                let single: Vec<BigInt> = is.iter().map(|&i| subresultant_coeff(&Integers, &f, &g, j, i)).collect();
                assert_eq!(shared, single, "f {f:?}, g {g:?}, j {j}");
                checked += 1;
            }
        }
        assert!(checked > 400);
        // The resultant of the quadratics above, and the first subresultant sharing u − 2.
        let (f, g) = (z(&[2, -3, 1]), z(&[6, -5, 1]));
        assert_eq!(subresultant_coeffs(&Integers, &f, &g, 1, &[0, 1]), z(&[4, -2]));
        assert_eq!(subresultant_coeffs(&Integers, &f, &z(&[15, -8, 1]), 0, &[0]), z(&[24]));
    }

    #[test]
    fn a_zero_entering_through_an_end_or_as_a_double_zero() {
        // f = (u − t)² + 1 … never zero; f = u − t: zero at u = 0 from t = 0.
        let f = Bivariate::new(vec![poly(&[0, -1]), poly(&[1])]);
        assert_eq!(
            first_zero(&f, &URange::Closed(q(2), q(5)), &q(0), &q(9)).unwrap(),
            FirstZero::At(Algebraic::from_rational(q(2)))
        );
        // u² − 2u + (3 − t): a double zero at u = 1 when t = 2, outside [3, 4]; the zero enters
        // [3, 4] through u = 3 when 9 − 6 + 3 − t = 0, t = 6.
        let f = Bivariate::new(vec![poly(&[3, -1]), poly(&[-2]), poly(&[1])]);
        assert_eq!(
            first_zero(&f, &URange::Closed(q(0), q(4)), &q(0), &q(9)).unwrap(),
            FirstZero::At(Algebraic::from_rational(q(2)))
        );
        assert_eq!(
            first_zero(&f, &URange::Closed(q(3), q(4)), &q(0), &q(9)).unwrap(),
            FirstZero::At(Algebraic::from_rational(q(6)))
        );
        assert_eq!(first_zero(&f, &URange::Closed(q(3), q(4)), &q(0), &q(5)).unwrap(), FirstZero::Never);
    }

    #[test]
    fn a_square_in_u_is_reduced_to_its_square_free_part() {
        // f = (u² − 2u + 3 − t)²: zero exactly where the base is, first at t = 2 (u = 1).
        let b = Bivariate::new(vec![poly(&[3, -1]), poly(&[-2]), poly(&[1])]);
        let f = b.clone() * b;
        assert_eq!(
            first_zero(&f, &URange::Closed(q(0), q(4)), &q(0), &q(9)).unwrap(),
            FirstZero::At(Algebraic::from_rational(q(2)))
        );
        // On the line with its point at infinity: u² + (t − 3)² (homogenised degree 2: the
        // value at infinity is 1), zero at t = 3 only.
        let f = Bivariate::new(vec![poly(&[9, -6, 1]), poly(&[0]), poly(&[1])]);
        assert_eq!(first_zero(&f, &URange::Line, &q(0), &q(9)).unwrap(), FirstZero::At(Algebraic::from_rational(q(3))));
        // A zero at infinity: leading coefficient t − 4.
        let f = Bivariate::new(vec![poly(&[1]), poly(&[0]), poly(&[-4, 1])]);
        assert_eq!(first_zero(&f, &URange::Line, &q(0), &q(9)).unwrap(), FirstZero::At(Algebraic::from_rational(q(4))));
    }

    #[test]
    fn an_irrational_graze_is_an_algebraic_time() {
        // u² + (t² − 2)²: a double zero at u = 0 when t = √2.
        let f = Bivariate::new(vec![poly(&[4, 0, -4, 0, 1]), poly(&[0]), poly(&[1])]);
        let FirstZero::At(t) = first_zero(&f, &URange::Closed(q(-1), q(1)), &q(0), &q(2)).unwrap() else { panic!() };
        assert_eq!(t.to_decimal(12).unwrap(), "1.41421356237");
    }
}
