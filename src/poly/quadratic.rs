//! Polynomials f(u, t) = g(u, t) + √α·h(u, t) over a real quadratic field ℚ(√α) (g, h over ℚ,
//! α a positive integer that is not a square), and the first time f(·, t) has a real zero on
//! the projective line of u: the route of [`super::first_zero`] for a closed curve whose
//! rational parametrisation needs √α — a circle with no rational point, such as every circle
//! whose plane is x + y + z = const (issue 42 item 3: a torus grazing a torus whose circles
//! have no rational point).
//!
//! Over a real field every step of the rational route carries over: f(·, t) has real
//! coefficients at a real time, so a lone multiple zero is real; the candidate times are the
//! real roots of the leading coefficient and of the discriminant in u, which are polynomials
//! A + √α·B in t whose real roots are among those of the norm A² − α·B² ∈ ℚ[t]; and the sign
//! of A + √α·B at an algebraic time is decided from the signs of A, B and the norm there.
//! Subresultant coefficients are Sylvester determinants over ℤ[√α] (Bareiss, exact division
//! through the norm), at integer times, interpolated component by component.
//!
//! ```
//! use num_bigint::BigInt;
//! use num_rational::BigRational;
//! use touchstone::poly::{first_zero_on_line, Bivariate, FirstZero, Poly, QuadBivariate};
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // f = u² + (t − √2)²·… written as u² + t² − 2√2·t + 2: a double zero u = 0 at t = √2.
//! let g = Bivariate::new(vec![Poly::from_coeffs(vec![q(2), q(0), q(1)]), Poly::zero(), Poly::constant(q(1))]);
//! let h = Bivariate::new(vec![Poly::from_coeffs(vec![q(0), q(-2)])]);
//! let f = QuadBivariate::new(g, h, BigInt::from(2)).unwrap();
//! match first_zero_on_line(&f, &q(0), &q(3)).unwrap() {
//!     FirstZero::At(t) => assert_eq!(t.to_decimal(10).unwrap(), "1.414213562"),
//!     other => panic!("{other:?}"),
//! }
//! ```

use std::ops::{Add, Mul, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational as Q;
use num_traits::{One, Signed, Zero};

use super::bivariate::{
    coefficient_bits, integral, interpolate, size, subresultant_coeff, Domain, MAX_CANDIDATE_SIZE, MAX_INPUT_BITS,
};
use super::{real_roots, Algebraic, Bivariate, FirstZero, Poly, PolyError};
use crate::scalar::{try_dedup_by, try_sort_by, Sign};

/// f = g + √α·h, g and h over ℚ in (u, t), α a positive non-square integer.
#[derive(Clone, Debug, PartialEq)]
pub struct QuadBivariate {
    g: Bivariate,
    h: Bivariate,
    alpha: BigInt,
}

impl QuadBivariate {
    /// g + √α·h; `None` unless α is a positive integer that is not a square.
    pub fn new(g: Bivariate, h: Bivariate, alpha: BigInt) -> Option<Self> {
        if !alpha.is_positive() || alpha.sqrt().pow(2) == alpha {
            return None;
        }
        Some(QuadBivariate { g, h, alpha })
    }

    /// A polynomial over ℚ in the same field.
    pub fn rational(&self, g: Bivariate) -> Self {
        QuadBivariate { g, h: Bivariate::in_t(Poly::zero()), alpha: self.alpha.clone() }
    }

    /// √α.
    pub fn root(&self) -> Self {
        let one = Bivariate::in_t(Poly::constant(Q::one()));
        QuadBivariate { g: Bivariate::in_t(Poly::zero()), h: one, alpha: self.alpha.clone() }
    }

    /// The formal degree in u (of the longer part).
    pub fn formal_degree(&self) -> usize {
        self.g.formal_degree().max(self.h.formal_degree())
    }

    fn derivative_u(&self) -> Self {
        QuadBivariate { g: self.g.derivative_u(), h: self.h.derivative_u(), alpha: self.alpha.clone() }
    }

    fn coeff(&self, i: usize) -> (Poly<Q>, Poly<Q>) {
        (self.g.coeff(i), self.h.coeff(i))
    }

    fn t_degree(&self) -> usize {
        self.g.t_degree().max(self.h.t_degree())
    }

    /// Both parts times the least common multiple of all their denominators.
    fn integral(&self) -> Self {
        let both =
            Bivariate::new((0..=self.formal_degree()).flat_map(|i| [self.g.coeff(i), self.h.coeff(i)]).collect());
        let scaled = integral(&both);
        let n = self.formal_degree() + 1;
        let part = |k: usize| Bivariate::new((0..n).map(|i| scaled.coeff(2 * i + k)).collect());
        QuadBivariate { g: part(0), h: part(1), alpha: self.alpha.clone() }
    }
}

impl Add for QuadBivariate {
    type Output = QuadBivariate;
    fn add(self, o: QuadBivariate) -> QuadBivariate {
        QuadBivariate { g: self.g + o.g, h: self.h + o.h, alpha: self.alpha }
    }
}

impl Sub for QuadBivariate {
    type Output = QuadBivariate;
    fn sub(self, o: QuadBivariate) -> QuadBivariate {
        QuadBivariate { g: self.g - o.g, h: self.h - o.h, alpha: self.alpha }
    }
}

impl Mul for QuadBivariate {
    type Output = QuadBivariate;
    fn mul(self, o: QuadBivariate) -> QuadBivariate {
        let alpha = Bivariate::in_t(Poly::constant(Q::from_integer(self.alpha.clone())));
        let g = self.g.clone() * o.g.clone() + alpha * self.h.clone() * o.h.clone();
        let h = self.g * o.h + self.h * o.g;
        QuadBivariate { g, h, alpha: self.alpha }
    }
}

/// ℤ[√α]: a + b√α as (a, b).
struct QuadIntegers<'a>(&'a BigInt);

impl Domain for QuadIntegers<'_> {
    type E = (BigInt, BigInt);
    fn zero(&self) -> Self::E {
        (BigInt::zero(), BigInt::zero())
    }
    fn one(&self) -> Self::E {
        (BigInt::one(), BigInt::zero())
    }
    fn is_zero(&self, x: &Self::E) -> bool {
        x.0.is_zero() && x.1.is_zero()
    }
    fn neg(&self, x: &Self::E) -> Self::E {
        (-&x.0, -&x.1)
    }
    fn mul_sub(&self, a: &Self::E, b: &Self::E, c: &Self::E, d: &Self::E) -> Self::E {
        let alpha = self.0;
        (
            &a.0 * &b.0 + alpha * &a.1 * &b.1 - &c.0 * &d.0 - alpha * &c.1 * &d.1,
            &a.0 * &b.1 + &a.1 * &b.0 - &c.0 * &d.1 - &c.1 * &d.0,
        )
    }
    fn div_exact(&self, x: &Self::E, y: &Self::E) -> Self::E {
        // x/y = x·ȳ / N(y), N(y) = y₀² − α·y₁² ≠ 0 (α is no square); exact when y divides x.
        let alpha = self.0;
        let norm = &y.0 * &y.0 - alpha * &y.1 * &y.1;
        let a = &x.0 * &y.0 - alpha * &x.1 * &y.1;
        let b = &x.1 * &y.0 - &x.0 * &y.1;
        (a.div_floor(&norm), b.div_floor(&norm))
    }
}

/// A polynomial A + √α·B in t.
type QuadPoly = (Poly<Q>, Poly<Q>);

/// Coefficients `is` of the j-th subresultant of f and g in u, as polynomials in t.
fn subresultant(f: &QuadBivariate, g: &QuadBivariate, j: usize, is: &[usize]) -> Result<Vec<QuadPoly>, PolyError> {
    let (m, n) = (f.formal_degree(), g.formal_degree());
    let bound = (m + n - 2 * j) * f.t_degree().max(g.t_degree());
    let ring = QuadIntegers(&f.alpha);
    let (f, g) = (f.integral(), g.integral());
    let at = |p: &QuadBivariate, len: usize, t: &Q| -> Vec<(BigInt, BigInt)> {
        (0..=len).map(|i| (p.g.coeff(i).eval(t).to_integer(), p.h.coeff(i).eval(t).to_integer())).collect()
    };
    let mut values = vec![(Vec::with_capacity(bound + 1), Vec::with_capacity(bound + 1)); is.len()];
    for k in 0..=bound {
        crate::budget::tick()?;
        let t = Q::from_integer(k.into());
        let (fa, ga) = (at(&f, m, &t), at(&g, n, &t));
        for (slot, &i) in is.iter().enumerate() {
            let (a, b) = subresultant_coeff(&ring, &fa, &ga, j, i);
            values[slot].0.push(Q::from_integer(a));
            values[slot].1.push(Q::from_integer(b));
        }
    }
    Ok(values.iter().map(|(a, b)| (interpolate(a), interpolate(b))).collect())
}

/// (A₁ + √α·B₁)(A₂ + √α·B₂).
fn mul(x: &QuadPoly, y: &QuadPoly, alpha: &BigInt) -> QuadPoly {
    let a = &(&x.0 * &y.0) + &(&x.1 * &y.1).scale(&Q::from_integer(alpha.clone()));
    (a, &(&x.0 * &y.1) + &(&x.1 * &y.0))
}

/// A² − α·B² ∈ ℚ[t]: zero at every real root of A + √α·B.
fn norm(p: &QuadPoly, alpha: &BigInt) -> Poly<Q> {
    &(&p.0 * &p.0) - &(&p.1 * &p.1).scale(&Q::from_integer(alpha.clone()))
}

/// The sign of A + √α·B at an algebraic time.
fn sign_at(c: &Algebraic, p: &QuadPoly, alpha: &BigInt) -> Result<Sign, PolyError> {
    let (sa, sb) = (c.sign_of(&p.0)?, c.sign_of(&p.1)?);
    Ok(match (sa, sb) {
        (s, Sign::Zero) | (Sign::Zero, s) => s,
        (s, t) if s == t => s,
        // Opposite signs: the larger of |A| and √α·|B| wins.
        (s, _) => match c.sign_of(&norm(p, alpha))? {
            Sign::Zero => Sign::Zero,
            Sign::Positive => s,
            Sign::Negative => -s,
        },
    })
}

/// The first time t in `[t0, t1]` at which f(·, t) has a real zero on the projective line of u
/// (f's value at u = ∞ is its formal leading coefficient), for f with no such zero at t0 (the
/// caller checks that). Exact. `Undecided` where f is a square in u for every t (a curve
/// resting on a surface: the discriminant vanishes identically), where three multiple zeros
/// appear at once, for coefficients longer than [`MAX_INPUT_BITS`] and for a discriminant
/// whose norm is larger than four times [`MAX_CANDIDATE_SIZE`] (the norm doubles both the
/// degree and the bits).
///
/// Errors: the size limits of the root finder, a spent budget.
pub fn first_zero_on_line(f: &QuadBivariate, t0: &Q, t1: &Q) -> Result<FirstZero, PolyError> {
    let n = f.formal_degree();
    let lead = f.coeff(n);
    let bits = coefficient_bits(&f.integral().g).max(coefficient_bits(&f.integral().h));
    if (lead.0.is_zero() && lead.1.is_zero()) || t0 > t1 || n < 2 || bits > MAX_INPUT_BITS {
        return Ok(FirstZero::Undecided);
    }
    let alpha = &f.alpha;
    let df = f.derivative_u();
    let disc = subresultant(f, &df, 0, &[0])?.remove(0);
    if disc.0.is_zero() && disc.1.is_zero() {
        return Ok(FirstZero::Undecided);
    }
    let s = subresultant(f, &df, 1, &[1])?.remove(0);
    let candidates = [norm(&lead, alpha), norm(&disc, alpha)];
    // A norm has twice the degree and twice the bits of the rational route's discriminant.
    if candidates.iter().any(|p| size(p) > 4 * MAX_CANDIDATE_SIZE) {
        return Ok(FirstZero::Undecided);
    }
    let mut times: Vec<Algebraic> = Vec::new();
    for p in &candidates {
        if p.degree().is_some_and(|d| d > 0) {
            times.extend(real_roots(p, t0, t1)?);
        }
    }
    try_sort_by(&mut times, |a, b| a.try_cmp(b))?;
    try_dedup_by(&mut times, |a, b| a.try_cmp(b))?;
    let mut second: Option<Vec<QuadPoly>> = None;
    for c in times {
        crate::budget::tick()?;
        // A zero at u = ∞: a point of the curve itself.
        if sign_at(&c, &lead, alpha)? == Sign::Zero {
            return Ok(FirstZero::At(c));
        }
        if sign_at(&c, &disc, alpha)? != Sign::Zero {
            continue;
        }
        // Before c f(·, t) has no real zero, so at c its real zeros are multiple ones. One
        // multiple zero (the first subresultant's principal coefficient is not zero there) is
        // real: its conjugate is one too.
        if sign_at(&c, &s, alpha)? != Sign::Zero {
            return Ok(FirstZero::At(c));
        }
        // Two (a symmetric configuration touching at two points at once): the second
        // subresultant s₂₂u² + s₂₁u + s₂₀ is then the gcd of f and ∂f/∂u, real or a conjugate
        // pair by the sign of its discriminant. More are left undecided.
        let s2 = match &second {
            Some(s2) => s2,
            None => second.insert(subresultant(f, &df, 2, &[0, 1, 2])?),
        };
        if n < 3 || sign_at(&c, &s2[2], alpha)? == Sign::Zero {
            return Ok(FirstZero::Undecided);
        }
        let four = Poly::constant(Q::from_integer(4.into()));
        let product = mul(&s2[0], &s2[2], alpha);
        let d2 = (
            &mul(&s2[1], &s2[1], alpha).0 - &(&four * &product.0),
            &mul(&s2[1], &s2[1], alpha).1 - &(&four * &product.1),
        );
        if sign_at(&c, &d2, alpha)? != Sign::Negative {
            return Ok(FirstZero::At(c));
        }
    }
    Ok(FirstZero::Never)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn poly(c: &[i64]) -> Poly<Q> {
        Poly::from_coeffs(c.iter().map(|&x| q(x)).collect())
    }

    #[test]
    fn bareiss_over_the_quadratic_integers() {
        // det [[1 + √2, 3], [√2, 1 − √2]] = (1 + √2)(1 − √2) − 3√2 = −1 − 3√2.
        let ring = QuadIntegers(&BigInt::from(2));
        let e = |a: i64, b: i64| (BigInt::from(a), BigInt::from(b));
        let d = super::super::bivariate::determinant(&ring, vec![vec![e(1, 1), e(3, 0)], vec![e(0, 1), e(1, -1)]]);
        assert_eq!(d, e(-1, -3));
        // A 3×3 whose Bareiss divisions go through ℤ[√2] (pivot 1 + √2).
        let m = vec![vec![e(1, 1), e(2, 0), e(0, 1)], vec![e(3, 0), e(1, 1), e(1, 0)], vec![e(0, 2), e(1, 0), e(2, 1)]];
        // By cofactors: see the module docs' identity; computed by hand with √2² = 2.
        let by_cofactors = {
            let mul = |x: &(BigInt, BigInt), y: &(BigInt, BigInt)| {
                (&x.0 * &y.0 + BigInt::from(2) * &x.1 * &y.1, &x.0 * &y.1 + &x.1 * &y.0)
            };
            let minor = |a: &(BigInt, BigInt), b: &(BigInt, BigInt), c: &(BigInt, BigInt), d: &(BigInt, BigInt)| {
                let (p, r) = (mul(a, d), mul(b, c));
                (p.0 - r.0, p.1 - r.1)
            };
            let t0 = mul(&m[0][0], &minor(&m[1][1], &m[1][2], &m[2][1], &m[2][2]));
            let t1 = mul(&m[0][1], &minor(&m[1][0], &m[1][2], &m[2][0], &m[2][2]));
            let t2 = mul(&m[0][2], &minor(&m[1][0], &m[1][1], &m[2][0], &m[2][1]));
            (t0.0 - t1.0 + t2.0, t0.1 - t1.1 + t2.1)
        };
        assert_eq!(super::super::bivariate::determinant(&ring, m), by_cofactors);
    }

    #[test]
    fn signs_in_the_quadratic_field() {
        let alpha = BigInt::from(2);
        let at = Algebraic::from_rational(q(1));
        // 3 − 2√2 > 0, 1 − √2 < 0, 4 − √8·… : (4, −3) → 4 − 3√2 < 0; (−7, 5) → −7 + 5√2 > 0.
        for (a, b, s) in
            [(3, -2, Sign::Positive), (1, -1, Sign::Negative), (4, -3, Sign::Negative), (-7, 5, Sign::Positive)]
        {
            assert_eq!(sign_at(&at, &(poly(&[a]), poly(&[b])), &alpha).unwrap(), s, "{a} + {b}√2");
        }
        // t − √2 at t = √2 (a root of t² − 2): zero.
        let root = real_roots(&poly(&[-2, 0, 1]), &q(0), &q(2)).unwrap().remove(0);
        assert_eq!(sign_at(&root, &(poly(&[0, 1]), poly(&[-1])), &alpha).unwrap(), Sign::Zero);
        assert_eq!(sign_at(&root, &(poly(&[0, 1]), poly(&[1])), &alpha).unwrap(), Sign::Positive);
    }

    #[test]
    fn no_square_root_no_field() {
        let z = Bivariate::in_t(Poly::zero());
        assert!(QuadBivariate::new(z.clone(), z.clone(), BigInt::from(4)).is_none());
        assert!(QuadBivariate::new(z.clone(), z.clone(), BigInt::from(-3)).is_none());
        assert!(QuadBivariate::new(z.clone(), z, BigInt::from(3)).is_some());
    }

    #[test]
    fn a_double_zero_at_an_irrational_time_of_the_field() {
        // f = (u − √2)² + (1 − t)·(1 + √2): positive until t = 1, where u = √2 is a double zero.
        // (u − √2)² = u² − 2√2·u + 2: g = u² + 3 − t, h = −2u + 1 − t.
        let g = Bivariate::new(vec![poly(&[3, -1]), Poly::zero(), poly(&[1])]);
        let h = Bivariate::new(vec![poly(&[1, -1]), poly(&[-2])]);
        let f = QuadBivariate::new(g, h, BigInt::from(2)).unwrap();
        match first_zero_on_line(&f, &q(0), &q(3)).unwrap() {
            FirstZero::At(t) => assert_eq!(t.to_rational(), Some(q(1))),
            other => panic!("{other:?}"),
        }
        // Before t = 1 nothing.
        assert_eq!(first_zero_on_line(&f, &q(0), &Q::new(1.into(), 2.into())).unwrap(), FirstZero::Never);
    }
}
