//! [`Poly`]: the ring of univariate polynomials over any [`Scalar`].

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use super::PolyError;
use crate::scalar::{Scalar, Sign};

/// A univariate polynomial `c₀ + c₁t + … + cₙtⁿ`, coefficients low degree first.
///
/// Always normalised: the last coefficient is nonzero, and the zero polynomial has no
/// coefficients. Arithmetic is exact for exact backends; for `f64` each coefficient carries the
/// rounding of the operations that produced it.
///
/// ```
/// use touchstone::poly::Poly;
/// let p = Poly::from_coeffs(vec![-2.0, 0.0, 1.0, 0.0]); // t² - 2, trailing zero dropped
/// assert_eq!(p.degree(), Some(2));
/// assert_eq!(p.eval(&3.0), 7.0);
/// assert_eq!(p.derivative(), Poly::from_coeffs(vec![0.0, 2.0]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Poly<S> {
    coeffs: Vec<S>,
}

impl<S: Scalar> Poly<S> {
    /// The polynomial with these coefficients (low degree first); trailing zeros are dropped.
    ///
    /// Only coefficients whose raw sign is decided zero are dropped: for intervals, a leading
    /// coefficient that may or may not be zero stays (the root finders treat it so).
    pub fn from_coeffs(mut coeffs: Vec<S>) -> Self {
        while coeffs.last().is_some_and(|c| c.sign() == Ok(Sign::Zero)) {
            coeffs.pop();
        }
        Poly { coeffs }
    }

    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly { coeffs: Vec::new() }
    }

    /// The constant polynomial `c` (the zero polynomial when `c` is zero).
    pub fn constant(c: S) -> Self {
        Self::from_coeffs(vec![c])
    }

    /// The monomial `c·tᵏ`.
    pub fn monomial(c: S, k: usize) -> Self {
        let mut coeffs = vec![S::zero(); k];
        coeffs.push(c);
        Self::from_coeffs(coeffs)
    }

    /// The polynomial `t`.
    pub fn t() -> Self {
        Self::monomial(S::one(), 1)
    }

    /// The monic polynomial `∏ (t - rᵢ)` (repeated roots give multiple roots); `1` for no roots.
    pub fn from_roots(roots: &[S]) -> Self {
        roots.iter().fold(Self::constant(S::one()), |p, r| &p * &Self::from_coeffs(vec![-r.clone(), S::one()]))
    }

    /// The coefficients, low degree first (empty for the zero polynomial).
    pub fn coeffs(&self) -> &[S] {
        &self.coeffs
    }

    /// The degree, `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// The leading (highest-degree) coefficient, `None` for the zero polynomial.
    pub fn leading(&self) -> Option<&S> {
        self.coeffs.last()
    }

    /// The value at `t`, by Horner's rule (`0` for the zero polynomial).
    pub fn eval(&self, t: &S) -> S {
        self.coeffs.iter().rev().fold(S::zero(), |acc, c| acc * t.clone() + c.clone())
    }

    /// `Σ |cᵢ|·|t|ⁱ`: the magnitude of the terms Horner's rule sums at `t`, the scale against
    /// which an inexact value is decided (see [`crate::scalar::tolerance`]).
    pub fn magnitude_at(&self, t: &S) -> S {
        let at = t.abs();
        self.coeffs.iter().rev().fold(S::zero(), |acc, c| acc * at.clone() + c.abs())
    }

    /// The derivative.
    pub fn derivative(&self) -> Self {
        let coeffs =
            self.coeffs.iter().enumerate().skip(1).map(|(i, c)| c.clone() * from_usize::<S>(i)).collect::<Vec<_>>();
        Self::from_coeffs(coeffs)
    }

    /// `c·p` for a scalar `c`.
    pub fn scale(&self, c: &S) -> Self {
        Self::from_coeffs(self.coeffs.iter().map(|a| a.clone() * c.clone()).collect())
    }

    /// `p / lc(p)`, monic; the zero polynomial stays zero.
    pub fn monic(&self) -> Self {
        match self.leading() {
            Some(lc) => {
                let inv = S::one() / lc.clone();
                self.scale(&inv)
            }
            None => Self::zero(),
        }
    }

    /// Quotient and remainder: `self = q·d + r` with `deg r < deg d`.
    ///
    /// Over a field: exact for exact backends; for `f64` the remainder's cancelled leading terms
    /// are dropped, not computed. Fails for `d = 0`, and when the query's budget
    /// ([`crate::budget`]) runs out: each cancelled term is one step.
    pub fn div_rem(&self, d: &Self) -> Result<(Self, Self), PolyError> {
        let (dlc, dn) = match (d.leading(), d.degree()) {
            (Some(lc), Some(n)) => (lc.clone(), n),
            _ => return Err(PolyError::DivisionByZero),
        };
        let mut r = self.coeffs.clone();
        if r.len() <= dn {
            return Ok((Self::zero(), self.clone()));
        }
        let mut q = vec![S::zero(); r.len() - dn];
        for k in (0..q.len()).rev() {
            crate::budget::tick()?;
            // The leading term of the running remainder is r[k + dn]; cancel it exactly.
            let c = r[k + dn].clone() / dlc.clone();
            for (j, dj) in d.coeffs.iter().enumerate().take(dn) {
                r[k + j] -= c.clone() * dj.clone();
            }
            r[k + dn] = S::zero();
            q[k] = c;
        }
        r.truncate(dn);
        Ok((Self::from_coeffs(q), Self::from_coeffs(r)))
    }

    /// The composition `p(q(t))`, by Horner's rule on polynomials.
    pub fn compose(&self, q: &Self) -> Self {
        self.coeffs.iter().rev().fold(Self::zero(), |acc, c| &(&acc * q) + &Self::constant(c.clone()))
    }

    /// `p(t + c)`: the Taylor shift, in `O(n²)` scalar operations.
    pub fn shift(&self, c: &S) -> Self {
        let mut a = self.coeffs.clone();
        let n = a.len();
        // Repeated synthetic division by (t - c) read backwards (Horner's scheme, n passes).
        for i in 0..n {
            for j in (i..n.saturating_sub(1)).rev() {
                let next = a[j + 1].clone();
                a[j] += c.clone() * next;
            }
        }
        Self::from_coeffs(a)
    }

    /// `p(c·t)`.
    pub fn scale_arg(&self, c: &S) -> Self {
        let mut power = S::one();
        let mut coeffs = Vec::with_capacity(self.coeffs.len());
        for a in &self.coeffs {
            coeffs.push(a.clone() * power.clone());
            power *= c.clone();
        }
        Self::from_coeffs(coeffs)
    }

    /// The same polynomial over another backend, coefficient by coefficient through the exact
    /// rational value (rounded when `T` is inexact); `None` if a coefficient is not finite.
    pub fn convert<T: Scalar>(&self) -> Option<Poly<T>> {
        let coeffs = self.coeffs.iter().map(crate::scalar::convert::<S, T>).collect::<Option<Vec<_>>>()?;
        Some(Poly::from_coeffs(coeffs))
    }
}

/// `i` as a scalar, exactly for every degree this module accepts.
fn from_usize<S: Scalar>(i: usize) -> S {
    S::from_i64(i64::try_from(i).unwrap_or(i64::MAX))
}

impl<S: Scalar> Add for &Poly<S> {
    type Output = Poly<S>;
    fn add(self, rhs: &Poly<S>) -> Poly<S> {
        let (long, short) = if self.coeffs.len() >= rhs.coeffs.len() { (self, rhs) } else { (rhs, self) };
        let mut coeffs = long.coeffs.clone();
        for (c, s) in coeffs.iter_mut().zip(&short.coeffs) {
            *c += s.clone();
        }
        Poly::from_coeffs(coeffs)
    }
}

impl<S: Scalar> Neg for &Poly<S> {
    type Output = Poly<S>;
    fn neg(self) -> Poly<S> {
        Poly { coeffs: self.coeffs.iter().map(|c| -c.clone()).collect() }
    }
}

impl<S: Scalar> Sub for &Poly<S> {
    type Output = Poly<S>;
    fn sub(self, rhs: &Poly<S>) -> Poly<S> {
        self + &(-rhs)
    }
}

impl<S: Scalar> Mul for &Poly<S> {
    type Output = Poly<S>;
    fn mul(self, rhs: &Poly<S>) -> Poly<S> {
        if self.is_zero() || rhs.is_zero() {
            return Poly::zero();
        }
        let mut coeffs = vec![S::zero(); self.coeffs.len() + rhs.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            // A product cannot fail: a spent budget is recorded here and stops the query at its
            // next fallible step (the degree is at most 64, so the product itself is bounded).
            let _ = crate::budget::tick();
            for (j, b) in rhs.coeffs.iter().enumerate() {
                coeffs[i + j] += a.clone() * b.clone();
            }
        }
        Poly::from_coeffs(coeffs)
    }
}

/// By-value forms of the operators, delegating to the by-reference ones.
macro_rules! by_value {
    ($tr:ident, $f:ident) => {
        impl<S: Scalar> $tr for Poly<S> {
            type Output = Poly<S>;
            fn $f(self, rhs: Poly<S>) -> Poly<S> {
                (&self).$f(&rhs)
            }
        }
    };
}
by_value!(Add, add);
by_value!(Sub, sub);
by_value!(Mul, mul);

impl<S: Scalar> Neg for Poly<S> {
    type Output = Poly<S>;
    fn neg(self) -> Poly<S> {
        -&self
    }
}

impl<S: Scalar> fmt::Display for Poly<S> {
    /// Highest degree first in the variable `t`, e.g. `t^2 - 13/5` (`0` for zero).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let mut first = true;
        for (i, c) in self.coeffs.iter().enumerate().rev() {
            if c.is_zero() {
                continue;
            }
            let negative = c.sign() == Ok(Sign::Negative);
            match (first, negative) {
                (true, true) => write!(f, "-")?,
                (true, false) => {}
                (false, true) => write!(f, " - ")?,
                (false, false) => write!(f, " + ")?,
            }
            first = false;
            let a = c.abs();
            let unit = a == S::one();
            match (i, unit) {
                (0, _) => write!(f, "{a}")?,
                (1, true) => write!(f, "t")?,
                (1, false) => write!(f, "{a}*t")?,
                (_, true) => write!(f, "t^{i}")?,
                (_, false) => write!(f, "{a}*t^{i}")?,
            }
        }
        Ok(())
    }
}
