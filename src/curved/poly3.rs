//! Trivariate polynomials with rational coefficients: exact evaluation, derivatives, products,
//! exact substitution of an affine map (how a pose is applied to an implicit solid), and
//! certified enclosures over boxes on outward-rounded binary64 intervals.

use std::collections::BTreeMap;

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::CurvedError;
use crate::scalar::{Interval, Scalar};

/// The highest total degree an input polynomial may have (a torus is 4; products of two
/// inputs, as in the touching certificate, reach twice this).
pub const MAX_INPUT_DEGREE: u32 = 8;
/// The most terms an input polynomial may have.
pub const MAX_INPUT_TERMS: usize = 200;
/// The longest numerator or denominator of an input coefficient, in bits.
pub const MAX_COEFF_BITS: u64 = 512;

/// An exponent vector `[i, j, k]`: the monomial xⁱ yʲ zᵏ.
pub type Exponents = [u32; 3];

/// A polynomial in x, y, z with rational coefficients: a sparse map from exponents to nonzero
/// coefficients (so equal polynomials are equal values).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Poly3 {
    terms: BTreeMap<Exponents, BigRational>,
}

impl Poly3 {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly3::default()
    }

    /// The constant `c`.
    pub fn constant(c: BigRational) -> Self {
        let mut p = Poly3::zero();
        p.add_term([0, 0, 0], c);
        p
    }

    /// The coordinate `axis` (0: x, 1: y, 2: z).
    pub fn variable(axis: usize) -> Self {
        let mut e = [0; 3];
        e[axis.min(2)] = 1;
        let mut p = Poly3::zero();
        p.add_term(e, BigRational::from_integer(1.into()));
        p
    }

    /// The polynomial of the given terms (coefficient, exponents), like terms summed. Input
    /// validation: at most [`MAX_INPUT_TERMS`] terms, total degree at most
    /// [`MAX_INPUT_DEGREE`], coefficients of at most [`MAX_COEFF_BITS`] bits; the error names
    /// the offending term by its index.
    pub fn from_terms(terms: &[(BigRational, Exponents)]) -> Result<Self, CurvedError> {
        if terms.len() > MAX_INPUT_TERMS {
            return Err(CurvedError::TooManyTerms { terms: terms.len(), limit: MAX_INPUT_TERMS });
        }
        let mut p = Poly3::zero();
        for (index, (c, e)) in terms.iter().enumerate() {
            let degree = e.iter().map(|&k| u64::from(k)).sum::<u64>();
            if degree > u64::from(MAX_INPUT_DEGREE) {
                return Err(CurvedError::DegreeTooLarge { term: index, degree, limit: MAX_INPUT_DEGREE });
            }
            let bits = c.numer().bits().max(c.denom().bits());
            if bits > MAX_COEFF_BITS {
                return Err(CurvedError::CoefficientTooLarge { term: index, bits, limit: MAX_COEFF_BITS });
            }
            p.add_term(*e, c.clone());
        }
        Ok(p)
    }

    fn add_term(&mut self, e: Exponents, c: BigRational) {
        if c.is_zero() {
            return;
        }
        let entry = self.terms.entry(e).or_default();
        *entry += c;
        if entry.is_zero() {
            self.terms.remove(&e);
        }
    }

    /// The terms, in increasing order of exponents.
    pub fn terms(&self) -> impl Iterator<Item = (&Exponents, &BigRational)> {
        self.terms.iter()
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The total degree (0 for constants and for zero).
    pub fn degree(&self) -> u32 {
        self.terms.keys().map(|e| e[0] + e[1] + e[2]).max().unwrap_or(0)
    }

    /// The value at a rational point, exactly.
    pub fn eval(&self, p: &[BigRational; 3]) -> BigRational {
        let powers = powers_of(p, self.degree() as usize, BigRational::from_integer(1.into()), |a, b| a * b);
        let mut sum = BigRational::zero();
        for (e, c) in &self.terms {
            sum += c * &powers[0][e[0] as usize] * &powers[1][e[1] as usize] * &powers[2][e[2] as usize];
        }
        sum
    }

    /// ∂/∂(axis).
    pub fn derivative(&self, axis: usize) -> Poly3 {
        let mut d = Poly3::zero();
        for (e, c) in &self.terms {
            if e[axis] > 0 {
                let mut f = *e;
                f[axis] -= 1;
                d.add_term(f, c * BigRational::from_integer(e[axis].into()));
            }
        }
        d
    }

    /// The gradient.
    pub fn gradient(&self) -> [Poly3; 3] {
        [0, 1, 2].map(|i| self.derivative(i))
    }

    /// The sum.
    pub fn add(&self, other: &Poly3) -> Poly3 {
        let mut s = self.clone();
        for (e, c) in &other.terms {
            s.add_term(*e, c.clone());
        }
        s
    }

    /// The polynomial times the rational `k`.
    pub fn scale(&self, k: &BigRational) -> Poly3 {
        let mut s = Poly3::zero();
        for (e, c) in &self.terms {
            s.add_term(*e, c * k);
        }
        s
    }

    /// The product.
    pub fn mul(&self, other: &Poly3) -> Poly3 {
        let mut s = Poly3::zero();
        for (e, c) in &self.terms {
            for (f, d) in &other.terms {
                s.add_term([e[0] + f[0], e[1] + f[1], e[2] + f[2]], c * d);
            }
        }
        s
    }

    /// The polynomial of `y ↦ p(L y + t)`: every variable xᵢ replaced by the affine form
    /// Σⱼ rows[i][j]·yⱼ + rows[i][3], exactly (a pose is applied to {p ≤ 0} by substituting its
    /// inverse).
    pub fn substitute_affine(&self, rows: &[[BigRational; 4]; 3]) -> Poly3 {
        let one = BigRational::from_integer(1.into());
        let forms: Vec<Poly3> = rows
            .iter()
            .map(|r| {
                let mut f = Poly3::constant(r[3].clone());
                for (j, c) in r.iter().take(3).enumerate() {
                    f = f.add(&Poly3::variable(j).scale(c));
                }
                f
            })
            .collect();
        let degree = self.degree() as usize;
        let mut powers: Vec<Vec<Poly3>> = Vec::with_capacity(3);
        for form in &forms {
            let mut v = vec![Poly3::constant(one.clone())];
            for k in 1..=degree {
                let next = v[k - 1].mul(form);
                v.push(next);
            }
            powers.push(v);
        }
        let mut s = Poly3::zero();
        for (e, c) in &self.terms {
            let m = powers[0][e[0] as usize].mul(&powers[1][e[1] as usize]).mul(&powers[2][e[2] as usize]);
            s = s.add(&m.scale(c));
        }
        s
    }

    /// The binary64 image, for enclosures and float searches.
    pub(crate) fn to_interval(&self) -> IPoly3 {
        IPoly3 {
            terms: self.terms.iter().map(|(e, c)| (*e, Interval::from_rational(c), Scalar::to_f64(c))).collect(),
            degree: self.degree() as usize,
        }
    }
}

/// The powers 0..=n of each coordinate.
fn powers_of<T: Clone>(p: &[T; 3], n: usize, one: T, mul: impl Fn(&T, &T) -> T) -> [Vec<T>; 3] {
    p.clone().map(|x| {
        let mut v = vec![one.clone()];
        for k in 1..=n {
            let next = mul(&v[k - 1], &x);
            v.push(next);
        }
        v
    })
}

/// A box [lo, hi] per axis with binary64 ends: every end is an exact rational, and midpoints
/// are exact (the ends are far above the subnormal range where halving rounds).
pub type FBox = [[f64; 2]; 3];

/// A polynomial's coefficients as intervals (and nearest doubles), for certified enclosures
/// over boxes and float evaluation.
#[derive(Clone, Debug)]
pub(crate) struct IPoly3 {
    terms: Vec<(Exponents, Interval, f64)>,
    degree: usize,
}

/// `x` to the powers `0..=n` over an interval, written to `out[..=n]`: exact ranges for even
/// powers (never below zero) and monotone ends for odd ones, each end rounded outward. The
/// ends' powers are running products (`1 · b · b ⋯`, one multiplication per power), so the
/// powers up to `n` are the same whatever higher power is also asked for.
fn interval_powers(x: Interval, n: usize, out: &mut [Interval]) {
    let one = <Interval as One>::one();
    let (lo, hi) = (x.lo(), x.hi());
    let mig = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { lo.abs().min(hi.abs()) };
    let mag = lo.abs().max(hi.abs());
    let ends = [pt(lo), pt(hi), pt(mig), pt(mag)];
    let mut running = [one; 4];
    out[0] = one;
    for (k, power) in out[..=n].iter_mut().enumerate().skip(1) {
        for (r, b) in running.iter_mut().zip(&ends) {
            *r *= *b;
        }
        *power =
            if k % 2 == 0 { hull(running[2].lo(), running[3].hi()) } else { hull(running[0].lo(), running[1].hi()) };
    }
}

/// The most powers per axis kept on the stack by [`with_box_powers`]: degree 16, a product of
/// two inputs of [`MAX_INPUT_DEGREE`].
const STACK_POWERS: usize = 2 * MAX_INPUT_DEGREE as usize + 1;

/// `f` of the interval powers `0..=degree` of a box's three coordinates, axis after axis, and
/// the distance between axes (`degree + 1`): on the stack up to [`STACK_POWERS`] a axis, no
/// allocation per enclosure.
fn with_box_powers<R>(b: &FBox, degree: usize, f: impl FnOnce(&[Interval], usize) -> R) -> R {
    let n = degree + 1;
    let fill = |out: &mut [Interval]| {
        for (axis, [lo, hi]) in b.iter().enumerate() {
            interval_powers(hull(*lo, *hi), degree, &mut out[axis * n..(axis + 1) * n]);
        }
    };
    if n <= STACK_POWERS {
        let mut buf = [<Interval as Zero>::zero(); 3 * STACK_POWERS];
        fill(&mut buf[..3 * n]);
        f(&buf[..3 * n], n)
    } else {
        let mut buf = vec![<Interval as Zero>::zero(); 3 * n];
        fill(&mut buf);
        f(&buf, n)
    }
}

impl IPoly3 {
    /// A certified enclosure of the polynomial's values over the box (the natural interval
    /// extension, with exact even powers).
    pub(crate) fn enclose(&self, b: &FBox) -> Interval {
        with_box_powers(b, self.degree, |powers, n| self.enclose_on(powers, n))
    }

    /// [`IPoly3::enclose`] on a box's powers from [`with_box_powers`] of at least this degree
    /// (`n` apart): the same enclosure, so that one box's powers serve several polynomials.
    fn enclose_on(&self, powers: &[Interval], n: usize) -> Interval {
        debug_assert!(self.degree < n);
        let mut sum = <Interval as Zero>::zero();
        for (e, c, _) in &self.terms {
            sum += *c * powers[e[0] as usize] * powers[n + e[1] as usize] * powers[2 * n + e[2] as usize];
        }
        sum
    }

    /// A certified enclosure of the value at a point with binary64 coordinates.
    pub(crate) fn enclose_at(&self, p: &[f64; 3]) -> Interval {
        self.enclose(&p.map(|x| [x, x]))
    }

    /// The nearest-double evaluation (for float searches only: never a decision).
    pub(crate) fn eval_f64(&self, p: &[f64; 3]) -> f64 {
        // The powers 0..=degree of each coordinate in one buffer, axis after axis.
        let n = self.degree + 1;
        let mut powers = Vec::with_capacity(3 * n);
        for x in p {
            let mut v = 1.0;
            powers.push(v);
            for _ in 1..n {
                v *= x;
                powers.push(v);
            }
        }
        self.terms
            .iter()
            .map(|(e, _, c)| c * powers[e[0] as usize] * powers[n + e[1] as usize] * powers[2 * n + e[2] as usize])
            .sum()
    }
}

/// The mean-value enclosure of `p` over `b` intersected with its natural one: p(c) + ∇p(B)·(B − c)
/// with c the centre, tight (quadratically) on small boxes.
///
/// The box's powers are computed once for the polynomial and its gradient (a power does not
/// depend on the highest one asked for: the same enclosures as one computation each).
pub(crate) fn enclose_mean_value(p: &IPoly3, gradient: &[IPoly3; 3], b: &FBox) -> Interval {
    let degree = gradient.iter().map(|g| g.degree).fold(p.degree, usize::max);
    let (natural, g) = with_box_powers(b, degree, |powers, n| {
        (p.enclose_on(powers, n), gradient.each_ref().map(|g| g.enclose_on(powers, n)))
    });
    let c = b.map(|[lo, hi]| lo + (hi - lo) / 2.0);
    let mut mv = p.enclose_at(&c);
    for i in 0..3 {
        let offset = hull(b[i][0], b[i][1]) - pt(c[i]);
        mv += g[i] * offset;
    }
    natural.intersection(&mv).unwrap_or(natural)
}

/// The point `x` as an interval (unbounded for a non-finite `x`).
pub(crate) fn pt(x: f64) -> Interval {
    Interval::point(x).unwrap_or_else(Interval::whole)
}

/// The interval [lo, hi] (unbounded where the ends are not an interval).
pub(crate) fn hull(lo: f64, hi: f64) -> Interval {
    Interval::new(lo, hi).unwrap_or_else(Interval::whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// The enclosures as they were computed before the box's powers were shared: a vector of
    /// powers per polynomial, appended axis after axis.
    fn enclose_reference(p: &IPoly3, b: &FBox) -> Interval {
        let n = p.degree + 1;
        let mut powers = vec![<Interval as Zero>::zero(); 3 * n];
        for (axis, [lo, hi]) in b.iter().enumerate() {
            interval_powers(hull(*lo, *hi), p.degree, &mut powers[axis * n..(axis + 1) * n]);
        }
        let mut sum = <Interval as Zero>::zero();
        for (e, c, _) in &p.terms {
            sum += *c * powers[e[0] as usize] * powers[n + e[1] as usize] * powers[2 * n + e[2] as usize];
        }
        sum
    }

    fn mean_value_reference(p: &IPoly3, gradient: &[IPoly3; 3], b: &FBox) -> Interval {
        let natural = enclose_reference(p, b);
        let c = b.map(|[lo, hi]| lo + (hi - lo) / 2.0);
        let mut mv = enclose_reference(p, &c.map(|x| [x, x]));
        for i in 0..3 {
            let g = enclose_reference(&gradient[i], b);
            let offset = hull(b[i][0], b[i][1]) - pt(c[i]);
            mv += g * offset;
        }
        natural.intersection(&mv).unwrap_or(natural)
    }

    fn same(a: Interval, b: Interval) -> bool {
        a.lo().to_bits() == b.lo().to_bits() && a.hi().to_bits() == b.hi().to_bits()
    }

    #[test]
    fn shared_powers_give_the_same_enclosures_bit_for_bit() {
        // A torus (R = 2, r = 1/3: coefficients that are not doubles), a sphere off centre, and
        // the torus times the sphere (degree 6), its square (degree 12, past the inputs') and its
        // cube (degree 18: past the stack's powers, on the heap).
        let (x, y, z) = (Poly3::variable(0), Poly3::variable(1), Poly3::variable(2));
        let sq = |p: &Poly3| p.mul(p);
        let s2 = sq(&x).add(&sq(&y)).add(&sq(&z));
        let k = s2.add(&Poly3::constant(q(4, 1) - q(1, 9)));
        let torus = sq(&k).add(&sq(&x).add(&sq(&y)).scale(&q(-16, 1)));
        let sphere = sq(&x.add(&Poly3::constant(q(-1, 3))))
            .add(&sq(&y))
            .add(&sq(&z.add(&Poly3::constant(q(2, 7)))))
            .add(&Poly3::constant(q(-5, 3)));
        let product = torus.mul(&sphere);
        let square = product.mul(&product);
        let cube = square.mul(&product);
        assert!(cube.degree() as usize + 1 > STACK_POWERS);
        let polys = [torus.clone(), sphere, product.clone(), square, cube];
        let boxes: Vec<FBox> = vec![
            [[-1.0, 1.0], [-0.5, 0.25], [-3.0, -2.0]],
            [[0.1, 0.3], [1.9, 2.1], [-0.001, 0.002]],
            [[-2.5, -2.25], [0.0, 0.0], [1.0 / 3.0, 0.5]],
            [[0.7, 0.7], [-0.2, -0.2], [0.3, 0.3]],
            [[-1e-300, 1e-300], [1e10, 2e10], [-1e-3, 1e3]],
            [[-0.0, 3.0], [-7.0, -6.5], [2.0, 2.0 + 2f64.powi(-40)]],
        ];
        for (i, p) in polys.iter().enumerate() {
            let ip = p.to_interval();
            let grad = p.gradient().map(|g| g.to_interval());
            for (j, b) in boxes.iter().enumerate() {
                assert!(same(ip.enclose(b), enclose_reference(&ip, b)), "poly {i}, box {j}: natural enclosure");
                let (got, want) = (enclose_mean_value(&ip, &grad, b), mean_value_reference(&ip, &grad, b));
                assert!(same(got, want), "poly {i}, box {j}: {got:?} against {want:?}");
            }
        }
    }
}
