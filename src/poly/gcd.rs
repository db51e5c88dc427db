//! Exact gcd, square-free part and the size limits, over `BigRational`.

use num_rational::BigRational;

use super::{Poly, PolyError, MAX_COEFF_BITS, MAX_DEGREE};

/// The bit size of a rational: the larger of its numerator's and denominator's.
pub(crate) fn bits(q: &BigRational) -> u64 {
    q.numer().bits().max(q.denom().bits())
}

/// Refuse a rational longer than [`MAX_COEFF_BITS`], naming it.
pub(crate) fn check_number(q: &BigRational, what: &'static str) -> Result<(), PolyError> {
    let b = bits(q);
    if b > MAX_COEFF_BITS {
        return Err(PolyError::NumberTooLarge { what, bits: b });
    }
    Ok(())
}

impl Poly<BigRational> {
    /// Check the size limits of the exact entry points: degree at most [`MAX_DEGREE`], every
    /// coefficient's numerator and denominator at most [`MAX_COEFF_BITS`] bits.
    pub fn check_limits(&self) -> Result<(), PolyError> {
        if let Some(n) = self.degree().filter(|&n| n > MAX_DEGREE) {
            return Err(PolyError::DegreeTooLarge(n));
        }
        for (index, c) in self.coeffs().iter().enumerate() {
            let b = bits(c);
            if b > MAX_COEFF_BITS {
                return Err(PolyError::CoefficientTooLarge { index, bits: b });
            }
        }
        Ok(())
    }

    /// The monic greatest common divisor (`gcd(0, 0) = 0`), by Euclid's algorithm.
    ///
    /// Each remainder is made monic, which keeps the rational coefficients from growing
    /// beyond what the subresultants bound. Cost `O(n²)` rational operations; check
    /// [`Poly::check_limits`] first on untrusted input. Fails only when the query's budget
    /// runs out ([`crate::budget`]).
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::poly::Poly;
    /// use touchstone::scalar::ratio;
    /// let r = |n| ratio::<BigRational>(n, 1);
    /// let a = Poly::from_roots(&[r(1), r(2), r(3)]);
    /// let b = Poly::from_roots(&[r(2), r(3), r(5)]).scale(&r(7));
    /// assert_eq!(a.gcd(&b), Ok(Poly::from_roots(&[r(2), r(3)])));
    /// ```
    pub fn gcd(&self, other: &Self) -> Result<Self, PolyError> {
        let mut a = self.monic();
        let mut b = other.monic();
        while !b.is_zero() {
            // b is nonzero: the division fails only on a spent budget.
            let (_, r) = a.div_rem(&b)?;
            a = b;
            b = r.monic();
        }
        Ok(a)
    }

    /// The square-free part `p / gcd(p, p')`, monic: the same roots, each simple.
    ///
    /// The zero polynomial stays zero; a nonzero constant gives `1`. Fails only when the
    /// query's budget runs out.
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::poly::Poly;
    /// use touchstone::scalar::ratio;
    /// let r = |n| ratio::<BigRational>(n, 1);
    /// let p = Poly::from_roots(&[r(2), r(2), r(2), r(-1)]).scale(&r(3));
    /// assert_eq!(p.square_free_part(), Ok(Poly::from_roots(&[r(2), r(-1)])));
    /// ```
    pub fn square_free_part(&self) -> Result<Self, PolyError> {
        if self.is_zero() {
            return Ok(Self::zero());
        }
        // g divides p and is nonzero for nonzero p: the division fails only on a spent budget.
        let g = self.gcd(&self.derivative())?;
        Ok(self.div_rem(&g)?.0.monic())
    }
}
