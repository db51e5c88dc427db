//! Exact gcd, square-free part and the size limits, over `BigRational`.

use num_bigint::BigInt;
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
        // Most pairs met are coprime (a square-free part of a generic polynomial); one
        // Euclid's run modulo a prime proves it without the rationals' growth.
        if !self.is_zero() && !other.is_zero() && coprime_modulo_prime(self, other) {
            return Ok(Self::constant(BigRational::from_integer(1.into())));
        }
        // The rest by the primitive remainder sequence in ℤ[x]: the same gcd up to a constant
        // factor, made monic here, without the rationals' gcd per coefficient operation.
        let g = super::intpoly::primitive_gcd(&super::intpoly::primitive(self), &super::intpoly::primitive(other))?;
        Ok(Self::from_coeffs(g.into_iter().map(BigRational::from_integer).collect()).monic())
    }

    /// [`Poly::gcd`] by Euclid's algorithm over the rationals, without the modular test or the
    /// integers: the tests' independent route.
    #[cfg(test)]
    pub(crate) fn gcd_by_euclid(&self, other: &Self) -> Result<Self, PolyError> {
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
        Ok(self.square_free_parts()?.0)
    }

    /// [`Poly::square_free_part`] and its primitive integer form (what root isolation works
    /// on), computed in ℤ[x]: the primitive form `P` of `p`, the modular coprimality test of
    /// `P` and `P'` (most polynomials are square-free), else `P / gcd(P, P')` by the primitive
    /// remainder sequence and an exact integer quotient (both primitive: Gauss's lemma makes
    /// the quotient integral and primitive, with a positive leading coefficient).
    pub(crate) fn square_free_parts(&self) -> Result<(Self, Vec<BigInt>), PolyError> {
        use super::intpoly::{exact_quotient, primitive, primitive_gcd};
        if self.is_zero() {
            return Ok((Self::zero(), Vec::new()));
        }
        let p = primitive(self);
        let dp: Vec<BigInt> = p.iter().enumerate().skip(1).map(|(i, c)| c * BigInt::from(i)).collect();
        if dp.is_empty() || coprime_images(residues(&p), residues(&dp)) {
            return Ok((self.monic(), p));
        }
        let g = primitive_gcd(&p, &dp)?;
        if g.len() == 1 {
            return Ok((self.monic(), p));
        }
        match exact_quotient(&p, &g) {
            Some(q) => {
                let lead = q.last().cloned().unwrap_or_else(|| BigInt::from(1));
                let monic = q.iter().map(|c| BigRational::new(c.clone(), lead.clone())).collect();
                Ok((Self::from_coeffs(monic), q))
            }
            // Not reached (g divides p); the rationals' division keeps the answer right.
            None => {
                let gq = Self::from_coeffs(g.into_iter().map(BigRational::from_integer).collect());
                let free = self.div_rem(&gq)?.0.monic();
                let integer = primitive(&free);
                Ok((free, integer))
            }
        }
    }
}

/// The prime of [`coprime_modulo_prime`]: 2⁶¹ − 1 (products of two residues fit in 128 bits).
const PRIME: u64 = (1 << 61) - 1;

/// `x mod PRIME` for `x < 2¹²²` (2⁶¹ ≡ 1: fold the high bits onto the low ones).
fn reduce(x: u128) -> u64 {
    let s = (x as u64 & PRIME) + (x >> 61) as u64; // < 2⁶²
    let s = (s & PRIME) + (s >> 61); // ≤ 2⁶¹
    if s >= PRIME {
        s - PRIME
    } else {
        s
    }
}

fn mul_mod(a: u64, b: u64) -> u64 {
    reduce(u128::from(a) * u128::from(b))
}

/// a⁻¹ mod PRIME for a ≠ 0 (Fermat: a^(p−2)).
fn inverse_mod(a: u64) -> u64 {
    let (mut base, mut e, mut acc) = (a, PRIME - 2, 1u64);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, base);
        }
        base = mul_mod(base, base);
        e >>= 1;
    }
    acc
}

/// The residue of an integer modulo PRIME, folded from its limbs by Horner's scheme in base
/// 2⁶⁴ ≡ 8 (no division, no allocation: num-bigint's `%` by a `u64` builds a quotient).
fn residue(n: &BigInt) -> u64 {
    let r =
        n.magnitude().iter_u64_digits().rev().fold(0u64, |acc, limb| reduce((u128::from(acc) << 3) + u128::from(limb)));
    if num_traits::Signed::is_negative(n) && r != 0 {
        PRIME - r
    } else {
        r
    }
}

/// The coefficients of `D·p` modulo PRIME, D the product of `p`'s denominators (coefficient
/// n/d as n times the other denominators: no inverse, which is 120 modular products), or
/// `None` when PRIME divides a denominator. D is a unit modulo PRIME then, so the image's
/// gcd with another is that of `p`'s image up to a constant factor.
fn reduced(p: &Poly<BigRational>) -> Option<Vec<u64>> {
    let c = p.coeffs();
    let dens: Vec<u64> = c.iter().map(|c| residue(c.denom())).collect();
    if dens.contains(&0) {
        return None;
    }
    // out[i] = nᵢ · Π_{j<i} dⱼ · Π_{j>i} dⱼ, by a product from each end.
    let mut out: Vec<u64> = Vec::with_capacity(c.len());
    let mut before = 1u64;
    for (ci, &d) in c.iter().zip(&dens) {
        out.push(mul_mod(residue(ci.numer()), before));
        before = mul_mod(before, d);
    }
    let mut after = 1u64;
    for (o, &d) in out.iter_mut().zip(&dens).rev() {
        *o = mul_mod(*o, after);
        after = mul_mod(after, d);
    }
    Some(out)
}

/// The primitive gcd of two primitive integer polynomials with positive leading coefficients
/// (low degree first; [`intpoly`](super::intpoly)'s form, an [`Algebraic`](super::Algebraic)'s
/// `int`): `a` itself when the two are equal, `[1]` when their images modulo PRIME are coprime
/// (the proof of [`coprime_modulo_prime`], on integers), else the primitive remainder
/// sequence's. Without `Poly::gcd`'s rational detour (primitive forms made again, a monic
/// result): an algebraic number's comparison and sign tests hold both forms already. Fails
/// only when the query's budget runs out.
pub(crate) fn primitive_gcd_of(a: &[BigInt], b: &[BigInt]) -> Result<Vec<BigInt>, crate::budget::Limit> {
    if a == b {
        return Ok(a.to_vec());
    }
    if !a.is_empty() && !b.is_empty() && coprime_images(residues(a), residues(b)) {
        return Ok(vec![BigInt::from(1)]);
    }
    super::intpoly::primitive_gcd(a, b)
}

/// Whether `a` and `b` (both nonzero) are coprime over ℚ, proved by their images modulo the
/// prime ℓ = 2⁶¹ − 1: `true` only when it is proved, `false` when the test cannot tell.
///
/// Proof. Let ℓ divide no denominator of `a` or `b` and not the leading coefficient of `a`,
/// so the images ā, b̄ are defined and deg ā = deg a. Clearing denominators, A = D·a ∈ ℤ[x]
/// with ℓ ∤ D has image D̄·ā, and likewise for b. If a and b had a common factor of positive
/// degree, they would have one g ∈ ℤ[x] that is primitive and divides both cleared
/// polynomials' primitive parts (Gauss's lemma). Its leading coefficient divides that of A's
/// primitive part, which ℓ does not divide (Ā ≠ 0 has degree deg a). So ḡ has degree deg g ≥ 1
/// and divides ā and b̄: their gcd in 𝔽_ℓ[x] would not be a constant. Hence a constant gcd of
/// the images proves a and b coprime.
fn coprime_modulo_prime(a: &Poly<BigRational>, b: &Poly<BigRational>) -> bool {
    let (Some(x), Some(y)) = (reduced(a), reduced(b)) else { return false };
    coprime_images(x, y)
}

/// The coefficients of an integer polynomial modulo PRIME.
fn residues(p: &[BigInt]) -> Vec<u64> {
    p.iter().map(residue).collect()
}

/// [`coprime_modulo_prime`] on the images `x` of `a` and `y` of `b` (the same proof; an
/// integer polynomial's image is always defined).
fn coprime_images(mut x: Vec<u64>, mut y: Vec<u64>) -> bool {
    // ā must keep a's degree: PRIME must not divide its leading coefficient.
    if x.last().is_none_or(|&lc| lc == 0) {
        return false;
    }
    // Euclid's algorithm in 𝔽_ℓ[x]; the gcd is constant when a remainder of degree 0 appears.
    trim(&mut y);
    if y.is_empty() {
        return false;
    }
    loop {
        if y.len() == 1 {
            return true; // a nonzero constant divides everything: the gcd is 1
        }
        // x mod y, in place.
        let inv = inverse_mod(y[y.len() - 1]);
        while x.len() >= y.len() {
            let lead = x[x.len() - 1];
            if lead != 0 {
                let f = mul_mod(lead, inv);
                let shift = x.len() - y.len();
                for (j, &yj) in y.iter().enumerate() {
                    let t = mul_mod(f, yj);
                    let xi = &mut x[shift + j];
                    *xi = if *xi >= t { *xi - t } else { *xi + PRIME - t };
                }
            }
            x.pop();
        }
        trim(&mut x);
        if x.is_empty() {
            return false; // y divides x: the gcd is y, of positive degree
        }
        std::mem::swap(&mut x, &mut y);
    }
}

fn trim(v: &mut Vec<u64>) {
    while v.last() == Some(&0) {
        v.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::ratio;

    fn r(n: i64, d: i64) -> BigRational {
        ratio::<BigRational>(n, d)
    }

    fn product(factors: &[Poly<BigRational>]) -> Poly<BigRational> {
        factors.iter().fold(Poly::constant(r(1, 1)), |acc, f| &acc * f)
    }

    /// The gcd with the modular test is Euclid's on products of small rational factors, some
    /// shared (also repeated), some not; the test proves most coprime pairs.
    #[test]
    fn the_modular_test_keeps_euclids_gcd() {
        let mut next = crate::poly::tests::draws(0x9e37_79b9_7f4a_7c15);
        let (mut proved, mut shared) = (0, 0);
        for _ in 0..400 {
            let factor = |next: &mut dyn FnMut(u64) -> i64| {
                let deg = 1 + next(2) as usize;
                let mut c: Vec<BigRational> = (0..deg).map(|_| r(next(19) - 9, 1 + next(6))).collect();
                c.push(r(1 + next(5), 1 + next(3)));
                Poly::from_coeffs(c)
            };
            let common: Vec<_> = (0..next(3)).map(|_| factor(&mut next)).collect();
            let mut a: Vec<_> = (0..1 + next(3)).map(|_| factor(&mut next)).collect();
            let mut b: Vec<_> = (0..1 + next(3)).map(|_| factor(&mut next)).collect();
            a.extend(common.iter().cloned());
            b.extend(common.iter().cloned());
            let (a, b) = (product(&a), product(&b));
            // The square-free part by ℤ[x]'s exact quotient, against the rationals' division.
            let euclid_free = a.div_rem(&a.gcd_by_euclid(&a.derivative()).unwrap()).unwrap().0.monic();
            assert_eq!(a.square_free_part().unwrap(), euclid_free, "{a}");
            assert_eq!(a.square_free_parts().unwrap().1, super::super::intpoly::primitive(&euclid_free), "{a}");
            let cube = product(&[a.clone(), a.clone(), b.clone()]);
            let cube_free = cube.div_rem(&cube.gcd_by_euclid(&cube.derivative()).unwrap()).unwrap().0.monic();
            assert_eq!(cube.square_free_part().unwrap(), cube_free, "{cube}");
            assert_eq!(cube.square_free_parts().unwrap().1, super::super::intpoly::primitive(&cube_free), "{cube}");
            for (p, q) in [(&a, &b), (&a, &a.derivative()), (&b, &a), (&a, &Poly::zero()), (&Poly::zero(), &b)] {
                let euclid = p.gcd_by_euclid(q).unwrap();
                assert_eq!(p.gcd(q).unwrap(), euclid, "{p} and {q}");
                if coprime_modulo_prime(p, q) {
                    proved += 1;
                    assert_eq!(euclid.degree(), Some(0));
                } else if euclid.degree() != Some(0) {
                    shared += 1;
                }
            }
        }
        assert!(proved > 300 && shared > 300, "proved {proved}, shared {shared}");
    }

    #[test]
    fn exact_quotients_in_integers() {
        use super::super::intpoly::exact_quotient;
        let z = |v: &[i64]| v.iter().map(|&c| num_bigint::BigInt::from(c)).collect::<Vec<_>>();
        // (2x + 3)(x² − 5) / (2x + 3) = x² − 5.
        assert_eq!(exact_quotient(&z(&[-15, -10, 3, 2]), &z(&[3, 2])), Some(z(&[-5, 0, 1])));
        // 2x + 3 does not divide x² − 5 + 1 (a remainder), nor x² (a leading coefficient).
        assert_eq!(exact_quotient(&z(&[-14, -10, 3, 2]), &z(&[3, 2])), None);
        assert_eq!(exact_quotient(&z(&[0, 0, 1]), &z(&[3, 2])), None);
        // Zero over anything is zero; a lower degree than the divisor is no quotient.
        assert_eq!(exact_quotient(&z(&[]), &z(&[3, 2])), Some(vec![]));
        assert_eq!(exact_quotient(&z(&[7]), &z(&[3, 2])), None);
        assert_eq!(exact_quotient(&z(&[7]), &z(&[])), None);
    }

    /// A common factor whose image vanishes modulo the prime, ℓx + 1 ≡ 1, is not missed: ℓ
    /// divides the leading coefficient, so the test does not claim; a denominator divisible by
    /// ℓ likewise.
    #[test]
    fn a_factor_lost_modulo_the_prime_is_still_found() {
        let l = BigRational::from_integer(num_bigint::BigInt::from(PRIME));
        let g = Poly::from_coeffs(vec![r(1, 1), l.clone()]); // ℓx + 1
        let a = &g * &Poly::from_coeffs(vec![r(0, 1), r(1, 1)]); // (ℓx + 1)·x
        let b = &g * &Poly::from_coeffs(vec![r(1, 1), r(1, 1)]); // (ℓx + 1)·(x + 1)
        assert!(!coprime_modulo_prime(&a, &b));
        let monic_g = g.monic(); // x + 1/ℓ
        assert_eq!(a.gcd(&b).unwrap(), monic_g);
        // The same factor written monic: its constant 1/ℓ has a denominator ℓ.
        let (a, b) = (&monic_g * &Poly::from_coeffs(vec![r(3, 1), r(1, 1)]), &monic_g * &monic_g);
        assert!(!coprime_modulo_prime(&a, &b));
        assert_eq!(a.gcd(&b).unwrap(), monic_g);
        assert_eq!(b.square_free_part().unwrap(), monic_g);
    }

    /// The integer route of an algebraic number's tests is the rational gcd's, up to a
    /// positive constant: on equal, coprime and sharing primitive pairs (some with repeated
    /// factors), and with the zero polynomial; `reduced`'s image is the cleared polynomial's.
    #[test]
    fn the_integer_gcd_is_the_rational_one() {
        use super::super::intpoly::primitive;
        let mut next = crate::poly::tests::draws(0x2545_f491_4f6c_dd1d);
        let (mut equal, mut coprime, mut shared) = (0, 0, 0);
        for _ in 0..300 {
            let factor = |next: &mut dyn FnMut(u64) -> i64| {
                let deg = 1 + next(2) as usize;
                let mut c: Vec<BigRational> = (0..deg).map(|_| r(next(41) - 20, 1 + next(9))).collect();
                c.push(r(1 + next(7), 1 + next(5)));
                Poly::from_coeffs(c)
            };
            let common: Vec<_> = (0..next(3)).map(|_| factor(&mut next)).collect();
            let mut a: Vec<_> = (0..1 + next(2)).map(|_| factor(&mut next)).collect();
            let mut b: Vec<_> = (0..1 + next(2)).map(|_| factor(&mut next)).collect();
            a.extend(common.iter().cloned());
            b.extend(common.iter().cloned());
            let (a, b) = (product(&a), product(&b));
            for (p, q) in [(&a, &b), (&a, &a), (&b, &a.scale(&r(-3, 7))), (&a, &Poly::zero()), (&Poly::zero(), &b)] {
                let (pi, qi) = (primitive(p), primitive(q));
                let g = primitive_gcd_of(&pi, &qi).unwrap();
                let want = primitive(&p.gcd_by_euclid(q).unwrap());
                assert_eq!(g, want, "{p} and {q}");
                match g.len() {
                    _ if pi == qi => equal += 1,
                    1 => coprime += 1,
                    _ => shared += 1,
                }
                // D·p's image: the residues of p cleared by the product of its denominators.
                if let Some(image) = reduced(p) {
                    let d = p.coeffs().iter().fold(num_bigint::BigInt::from(1), |acc, c| acc * c.denom());
                    let cleared: Vec<u64> =
                        p.coeffs().iter().map(|c| residue(&(c.numer() * (&d / c.denom())))).collect();
                    assert_eq!(image, cleared, "{p}");
                }
            }
        }
        assert!(equal > 200 && coprime > 200 && shared > 100, "equal {equal}, coprime {coprime}, shared {shared}");
    }

    #[test]
    fn residues_of_signed_and_large_integers() {
        use num_bigint::BigInt;
        assert_eq!(residue(&BigInt::from(-1)), PRIME - 1);
        assert_eq!(residue(&BigInt::from(PRIME)), 0);
        let big = BigInt::from(PRIME) * BigInt::from(PRIME) + BigInt::from(5);
        assert_eq!(residue(&big), 5);
        assert_eq!(residue(&-big), PRIME - 5);
        assert_eq!(mul_mod(PRIME - 1, PRIME - 1), 1);
        assert_eq!(mul_mod(inverse_mod(12345), 12345), 1);
        assert_eq!(reduce((1u128 << 122) - 1), (((1u128 << 122) - 1) % u128::from(PRIME)) as u64);
        // Limb folding against num-bigint's remainder: every limb all ones, powers of two
        // across limb boundaries, both signs.
        let all_ones: BigInt = (BigInt::from(1) << 640u32) - 1;
        for n in [
            all_ones.clone(),
            -all_ones,
            BigInt::from(1) << 64u32,
            BigInt::from(1) << 61u32,
            (BigInt::from(1) << 200u32) + 12345,
        ] {
            let want = num_integer::Integer::mod_floor(&n, &BigInt::from(PRIME));
            assert_eq!(BigInt::from(residue(&n)), want, "{n}");
        }
    }
}
