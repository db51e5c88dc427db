//! Real algebraic numbers: a square-free polynomial and an isolating interval.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::gcd::check_number;
use super::intpoly::{primitive, sign_at};
use super::isolate::{bisect, isolate, RootInterval};
use super::{Poly, PolyError, MAX_DECIMAL_DIGITS};
use crate::scalar::{decimal_of_rational, Decision, Sign};

/// The halvings of a root's interval [`Algebraic::sign_of`] tries on its interval filter alone
/// before the exact route: each adds a bit of the root, and the enclosures of binary64 stop
/// narrowing after about 53 bits below the interval's own scale.
const FILTERED_HALVINGS: usize = 60;

/// A real algebraic number: the one root of a square-free rational polynomial in an interval.
///
/// Invariant: the interval is either `Point(r)` (the number is the rational `r`, and the
/// polynomial is `t - r`), or `Open { lo, hi }` containing exactly one root of the polynomial,
/// which is then **irrational**. Every constructor establishes it (rational roots are found
/// exactly, see [`crate::poly`]), so [`Algebraic::is_rational`] is free and two equal numbers
/// compare [`Ordering::Equal`] whatever polynomials define them.
///
/// ```
/// use num_rational::BigRational;
/// use std::cmp::Ordering;
/// use touchstone::poly::{real_roots, Poly};
/// use touchstone::scalar::ratio;
/// let r = |n| ratio::<BigRational>(n, 1);
/// // √2 as a root of t² - 2 and of (t² - 2)(t + 5): equal.
/// let p = Poly::from_coeffs(vec![r(-2), r(0), r(1)]);
/// let q = &p * &Poly::from_roots(&[r(-5)]);
/// let a = real_roots(&p, &r(0), &r(2)).unwrap().remove(0);
/// let b = real_roots(&q, &r(1), &r(10)).unwrap().remove(0);
/// assert_eq!(a.cmp(&b), Ordering::Equal);
/// assert_eq!(a.cmp_rational(&ratio(141, 100)), Ordering::Greater);
/// ```
#[derive(Clone, Debug)]
pub struct Algebraic {
    poly: Poly<BigRational>,
    /// The primitive integer form of `poly`, for fast exact sign evaluation.
    int: Vec<BigInt>,
    interval: RootInterval,
}

impl Algebraic {
    /// The rational number `r`, exactly (polynomial `t - r`).
    pub fn from_rational(r: BigRational) -> Self {
        let poly = Poly::from_coeffs(vec![-r.clone(), BigRational::from_integer(1.into())]);
        // The primitive form of t − p/q is q·t − p: a `BigRational` is in lowest terms with a
        // positive denominator, so no content to divide out (the general route's gcds found 1).
        let int = vec![-r.numer().clone(), r.denom().clone()];
        Algebraic { poly, int, interval: RootInterval::Point(r) }
    }

    /// The root of `p` in `interval`, validated: a `Point` must be a root of `p`; an `Open`
    /// interval must contain exactly one root of `p` and none at its endpoints.
    ///
    /// Errors: [`PolyError::NotIsolating`] when it is not so, and the limits of
    /// [`crate::poly::isolate_roots`]. A rational root comes back as a `Point`.
    pub fn new(p: &Poly<BigRational>, interval: RootInterval) -> Result<Self, PolyError> {
        let (lo, hi) = (interval.lo().clone(), interval.hi().clone());
        let iso = isolate(p, &lo, &hi)?;
        let mut roots = iso.roots;
        let root = match (roots.pop(), roots.is_empty()) {
            (Some(root), true) => root,
            _ => return Err(PolyError::NotIsolating),
        };
        if matches!(interval, RootInterval::Open { .. }) && (root.contains(&lo) || root.contains(&hi)) {
            return Err(PolyError::NotIsolating);
        }
        Ok(Self::from_isolation(&iso.square_free, &iso.integer, root))
    }

    /// An isolation result: `square_free` and its primitive form `int`, one root interval.
    pub(crate) fn from_isolation(square_free: &Poly<BigRational>, int: &[BigInt], iv: RootInterval) -> Self {
        match iv {
            RootInterval::Point(r) => Self::from_rational(r),
            open => Algebraic { poly: square_free.clone(), int: int.to_vec(), interval: open },
        }
    }

    /// The defining square-free polynomial (monic; `t - r` for a rational `r`).
    pub fn polynomial(&self) -> &Poly<BigRational> {
        &self.poly
    }

    /// The current isolating interval (narrowed by [`Algebraic::refine`]).
    pub fn interval(&self) -> &RootInterval {
        &self.interval
    }

    /// Whether the number is rational (then the interval is a `Point`).
    pub fn is_rational(&self) -> bool {
        matches!(self.interval, RootInterval::Point(_))
    }

    /// The exact value if the number is rational.
    pub fn to_rational(&self) -> Option<BigRational> {
        match &self.interval {
            RootInterval::Point(r) => Some(r.clone()),
            RootInterval::Open { .. } => None,
        }
    }

    /// The sign of `q` at this number, exactly.
    ///
    /// At a rational number `q` is evaluated. Otherwise `q(α) = 0` exactly when
    /// `g = gcd(p, q)` vanishes at `α`; `g` divides the square-free `p`, so that happens
    /// exactly when `g` changes sign across the isolating interval. If not, the interval is
    /// refined until `q` has no root in it, and `q`'s sign anywhere in it is its sign at `α`.
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::poly::{real_roots, Poly};
    /// use touchstone::scalar::{ratio, Sign};
    /// let sqrt2 = real_roots(&Poly::from_coeffs(vec![ratio(-2, 1), ratio(0, 1), ratio(1, 1)]), &ratio(0, 1), &ratio(2, 1)).unwrap().remove(0);
    /// // t² − 2 vanishes at √2; t − 1.4142 is positive there; t − 1.4143 negative.
    /// assert_eq!(sqrt2.sign_of(&Poly::from_coeffs(vec![ratio(-2, 1), ratio(0, 1), ratio(1, 1)])).unwrap(), Sign::Zero);
    /// assert_eq!(sqrt2.sign_of(&Poly::from_coeffs(vec![ratio(-14142, 10000), ratio(1, 1)])).unwrap(), Sign::Positive);
    /// assert_eq!(sqrt2.sign_of(&Poly::from_coeffs(vec![ratio(-14143, 10000), ratio(1, 1)])).unwrap(), Sign::Negative);
    /// ```
    pub fn sign_of(&self, q: &Poly<BigRational>) -> Result<Sign, PolyError> {
        let sign = |x: &BigRational| {
            if x.is_positive() {
                Sign::Positive
            } else if x.is_negative() {
                Sign::Negative
            } else {
                Sign::Zero
            }
        };
        if q.is_zero() {
            return Ok(Sign::Zero);
        }
        if let Some(r) = self.to_rational() {
            return Ok(sign(&q.eval(&r)));
        }
        q.check_limits()?;
        if let Some(s) = self.sign_enclosed(q) {
            return Ok(s);
        }
        // The gcd on primitive integer forms: a positive multiple of the monic rational one,
        // so of the same signs.
        let g = super::gcd::primitive_gcd_of(&self.int, &primitive(q))?;
        if let RootInterval::Open { lo, hi } = &self.interval {
            if g.len() > 1 && sign_at(&g, lo) != sign_at(&g, hi) {
                return Ok(Sign::Zero);
            }
        }
        let mut a = self.clone();
        // Here q does not vanish at the root (g would, and change sign on the interval): the
        // enclosure of q over a narrower interval decides, unless q's value there is below
        // binary64's resolution. A few halvings (one exact evaluation each) on the filter,
        // then the exact test of q's roots on the interval.
        for _ in 0..FILTERED_HALVINGS {
            crate::budget::tick()?;
            a.halve();
            if let Some(s) = a.sign_enclosed(q) {
                return Ok(s);
            }
        }
        loop {
            let RootInterval::Open { lo, hi } = a.interval.clone() else {
                // Refinement never lands on a rational for an irrational root; answer anyway.
                return a.sign_of(q);
            };
            if isolate(q, &lo, &hi)?.roots.is_empty() {
                return Ok(sign(&q.eval(&lo)));
            }
            crate::budget::tick()?;
            a.halve();
        }
    }

    /// [`Self::sign_of`]'s filter: `q` over the isolating interval by Horner's rule on
    /// outward-rounded intervals. When the enclosure excludes zero, `q` has no root in the
    /// interval, and its sign at the root (inside it) is the enclosure's; `None` otherwise (a
    /// root of `q` there, or an interval too wide for the enclosure), for the exact route.
    fn sign_enclosed(&self, q: &Poly<BigRational>) -> Option<Sign> {
        use crate::scalar::{Interval, Scalar};
        let RootInterval::Open { lo, hi } = &self.interval else { return None };
        let x = Interval::new(Interval::from_rational(lo).lo(), Interval::from_rational(hi).hi())?;
        let v = q.coeffs().iter().rev().fold(Interval::zero(), |acc, c| acc * x + Interval::from_rational(c));
        if v.lo() > 0.0 {
            Some(Sign::Positive)
        } else if v.hi() < 0.0 {
            Some(Sign::Negative)
        } else {
            None
        }
    }

    /// Narrow the interval by bisection until `hi - lo <= width`.
    ///
    /// Errors: a non-positive `width`, or one longer than the size limit. Cost: one exact
    /// evaluation per halving.
    pub fn refine(&mut self, width: &BigRational) -> Result<(), PolyError> {
        if !width.is_positive() {
            return Err(PolyError::NonPositiveWidth);
        }
        check_number(width, "width")?;
        Ok(self.refine_loop(|lo, hi| super::isolate::wider_than(lo, hi, width), true)?)
    }

    /// Bisect while `keep_going(lo, hi)` holds and the interval is open (no budget: callers
    /// whose loops are bounded by the number's own size).
    fn refine_while(&mut self, keep_going: impl FnMut(&BigRational, &BigRational) -> bool) {
        // Without ticking, the loop cannot fail.
        let _ = self.refine_loop(keep_going, false);
    }

    /// Bisect while `keep_going(lo, hi)` holds and the interval is open; with `ticking`, each
    /// bisection is a step of the query's budget ([`crate::budget`]).
    fn refine_loop(
        &mut self,
        mut keep_going: impl FnMut(&BigRational, &BigRational) -> bool,
        ticking: bool,
    ) -> Decision<()> {
        let RootInterval::Open { lo, hi } = &self.interval else { return Ok(()) };
        let (mut lo, mut hi) = (lo.clone(), hi.clone());
        let sign_lo = sign_at(&self.int, &lo);
        while keep_going(&lo, &hi) {
            if ticking {
                if let Err(e) = crate::budget::tick() {
                    self.interval = RootInterval::Open { lo, hi };
                    return Err(e.into());
                }
            }
            // The root is irrational, so a midpoint is never it; handle it anyway.
            if let Some(r) = bisect(&self.int, &mut lo, &mut hi, sign_lo) {
                *self = Self::from_rational(r);
                return Ok(());
            }
        }
        self.interval = RootInterval::Open { lo, hi };
        Ok(())
    }

    /// One bisection step.
    fn halve(&mut self) {
        let mut first = true;
        self.refine_while(|_, _| std::mem::replace(&mut first, false));
    }

    /// The number to `digits` correct significant digits, truncated toward zero, with the
    /// conventions of [`decimal_of_rational`] (`digits` 0 is read as 1).
    ///
    /// Provably right: the interval is refined until both of its endpoints truncate to the
    /// same string; truncation is monotone and the root lies between them. Since an open
    /// interval holds an irrational root, which is never a decimal, this terminates.
    /// Errors: more than [`MAX_DECIMAL_DIGITS`], a spent budget.
    pub fn to_decimal(&self, digits: u32) -> Result<String, PolyError> {
        if digits > MAX_DECIMAL_DIGITS {
            return Err(PolyError::TooManyDigits(digits));
        }
        let mut x = self.clone();
        let mut answer = None;
        // Each bisection is a step of the query's budget (many digits of a huge number).
        x.refine_loop(
            |lo, hi| {
                // Zero prints as "0" and no other value does, so equal strings exclude an
                // interval with zero inside or at an end: lo and hi have one sign.
                let (dl, dh) = (decimal_of_rational(lo, digits), decimal_of_rational(hi, digits));
                let done = dl == dh;
                if done {
                    answer = Some(dl);
                }
                !done
            },
            true,
        )?;
        Ok(match (answer, x.to_rational()) {
            (Some(s), _) => s,
            (None, Some(r)) => decimal_of_rational(&r, digits),
            (None, None) => String::new(), // unreachable: the loop ends with an answer or a point
        })
    }

    /// The nearest `f64` (correctly rounded; an infinity beyond the `f64` range).
    ///
    /// Refines until both endpoints round to the same double: rounding is monotone, and an
    /// irrational root is never a tie.
    pub fn to_f64(&self) -> f64 {
        let RootInterval::Open { lo, hi } = &self.interval else { return self.to_f64_by_bisection() };
        if let Some(x) = self.nearest_double(lo, hi) {
            return x;
        }
        // Ends of two signs or at zero (an isolation's bisection of a range about zero): a few
        // halvings usually bring both ends to one sign of normal doubles.
        let mut a = self.clone();
        for _ in 0..64 {
            a.halve();
            let RootInterval::Open { lo, hi } = &a.interval else { break };
            if let Some(x) = a.nearest_double(lo, hi) {
                return x;
            }
        }
        a.to_f64_by_bisection()
    }

    /// [`Algebraic::to_f64`] by bisecting the rational interval: the route where the search
    /// among doubles does not apply (zeros, subnormals, infinities, a sign change), and the
    /// tests' reference.
    fn to_f64_by_bisection(&self) -> f64 {
        let mut x = self.clone();
        x.refine_while(|lo, hi| lo.to_f64() != hi.to_f64());
        x.interval.lo().to_f64().unwrap_or(f64::NAN)
    }

    /// The double nearest the irrational root in (lo, hi), searched among the doubles between
    /// the roundings of lo and hi (rounding is monotone, so the answer is one of them): the
    /// root is at least the double keyed `k` exactly when it is above the midpoint of that
    /// double and the one below, a dyadic rational of about 55 bits whose side is one sign of
    /// the integer polynomial. The first two probes bracket a binary64 Newton guess, which
    /// usually settles it; bisection on the doubles' keys does the rest. Bisecting the
    /// rational interval instead took a gcd and an evaluation at ever longer endpoints per bit.
    /// `None` outside its domain: ends that round to zero, subnormals or infinities, or of
    /// two signs.
    fn nearest_double(&self, lo: &BigRational, hi: &BigRational) -> Option<f64> {
        let (dl, dh) = (lo.to_f64()?, hi.to_f64()?);
        if dl == dh {
            return Some(dl);
        }
        if !(dl.is_normal() && dh.is_normal()) || (dl < 0.0) != (dh < 0.0) {
            return None;
        }
        // Doubles of one sign in order, as consecutive integers.
        let key = |x: f64| -> i64 {
            let bits = x.abs().to_bits() as i64; // below 2⁶³: finite
            if x < 0.0 {
                -bits
            } else {
                bits
            }
        };
        let double = |k: i64| -> f64 {
            let x = f64::from_bits(k.unsigned_abs());
            if k < 0 {
                -x
            } else {
                x
            }
        };
        let sign_lo = sign_at(&self.int, lo);
        let above = |k: i64| -> Option<bool> {
            let b = half_sum(double(k - 1), double(k))?;
            if &b <= lo {
                return Some(true);
            }
            if &b >= hi {
                return Some(false);
            }
            match sign_at(&self.int, &b) {
                Sign::Zero => None, // not for an irrational root; the bisection route answers
                s => Some(s == sign_lo),
            }
        };
        let (mut kl, mut kh) = (key(dl), key(dh));
        let guess = super::intpoly::newton_guess(&self.int, dl, dh).map(key);
        let mut probes = guess.into_iter().flat_map(|g| [g, g + 1]);
        while kl < kh {
            let k = probes.by_ref().find(|&k| kl < k && k <= kh).unwrap_or(kl + (kh - kl + 1) / 2);
            if above(k)? {
                kl = k;
            } else {
                kh = k - 1;
            }
        }
        Some(double(kl))
    }

    /// Exact comparison with a rational: `self.cmp_rational(q)` is `self` compared to `q`.
    pub fn cmp_rational(&self, q: &BigRational) -> Ordering {
        match &self.interval {
            RootInterval::Point(r) => r.cmp(q),
            RootInterval::Open { lo, hi } => {
                if q <= lo {
                    Ordering::Greater
                } else if q >= hi {
                    Ordering::Less
                } else {
                    // lo < q < hi: the root is right of q exactly when q is on lo's side.
                    match sign_at(&self.int, q) {
                        Sign::Zero => Ordering::Equal,
                        s if s == sign_at(&self.int, lo) => Ordering::Greater,
                        _ => Ordering::Less,
                    }
                }
            }
        }
    }

    /// Exact comparison, each halving a step of the query's budget ([`crate::budget`]): the
    /// comparison of algorithms (the [`Ord`] impl cannot fail, and two close numbers can take
    /// many halvings to separate).
    pub fn try_cmp(&self, other: &Self) -> Decision<Ordering> {
        match (&self.interval, &other.interval) {
            (RootInterval::Point(r), _) => Ok(other.cmp_rational(r).reverse()),
            (_, RootInterval::Point(r)) => Ok(self.cmp_rational(r)),
            _ => self.cmp_open(other, true),
        }
    }

    /// Exact comparison of two open intervals' roots (see [`Ord`]); `ticking` as in
    /// [`Algebraic::try_cmp`].
    fn cmp_open(&self, other: &Self, ticking: bool) -> Decision<Ordering> {
        let (mut a, mut b) = (self.clone(), other.clone());
        let mut equality_checked = false;
        loop {
            if let (Some(x), _) | (_, Some(x)) = (a.to_rational(), b.to_rational()) {
                // Unreachable for irrational roots; kept so that the loop is total.
                return Ok(if a.is_rational() { b.cmp_rational(&x).reverse() } else { a.cmp_rational(&x) });
            }
            let (alo, ahi, blo, bhi) = (a.interval.lo(), a.interval.hi(), b.interval.lo(), b.interval.hi());
            if ahi <= blo {
                return Ok(Ordering::Less);
            }
            if bhi <= alo {
                return Ok(Ordering::Greater);
            }
            if !equality_checked {
                equality_checked = true;
                // Overlapping: the two are equal iff gcd(p, q) has a root in the overlap. A
                // common root there must be both roots (each is alone in its interval); the
                // gcd divides a square-free polynomial, so that root is simple (a sign change)
                // and the overlap's ends, ends of the intervals, are not roots of the gcd.
                // On the primitive integer forms both numbers hold (equal forms are their own
                // gcd: two roots of one polynomial, the usual case of a sort of event times).
                let g = super::gcd::primitive_gcd_of(&a.int, &b.int)?;
                let (lo, hi) = (alo.max(blo), ahi.min(bhi));
                if g.len() > 1 && sign_at(&g, lo) != sign_at(&g, hi) {
                    return Ok(Ordering::Equal);
                }
            }
            // Different numbers: halve both intervals until they separate.
            if ticking {
                crate::budget::tick()?;
            }
            a.halve();
            b.halve();
        }
    }
}

/// (a + b) / 2 exactly, for doubles of one sign whose exponents differ by at most 62 (two
/// neighbours), in lowest terms without a gcd: the sum's odd part over a power of two.
fn half_sum(a: f64, b: f64) -> Option<BigRational> {
    use num_traits::float::FloatCore;
    let ((ma, ea, sa), (mb, eb, sb)) = (FloatCore::integer_decode(a), FloatCore::integer_decode(b));
    let e = ea.min(eb);
    let (sa_shift, sb_shift) = (u32::try_from(ea - e).ok()?, u32::try_from(eb - e).ok()?);
    if sa != sb || sa_shift > 62 || sb_shift > 62 {
        return None;
    }
    let n = (u128::from(ma) << sa_shift) + (u128::from(mb) << sb_shift);
    if n == 0 {
        return None;
    }
    let tz = n.trailing_zeros();
    let odd = BigInt::from(n >> tz) * i32::from(sa);
    let exp = i64::from(e) - 1 + i64::from(tz);
    Some(if exp >= 0 {
        BigRational::from_integer(odd << exp)
    } else {
        BigRational::new_raw(odd, BigInt::from(1) << exp.unsigned_abs())
    })
}

impl Ord for Algebraic {
    /// Exact comparison; equal numbers compare `Equal` whatever polynomials define them.
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.interval, &other.interval) {
            (RootInterval::Point(r), _) => other.cmp_rational(r).reverse(),
            (_, RootInterval::Point(r)) => self.cmp_rational(r),
            // Without ticking the comparison cannot fail.
            _ => self.cmp_open(other, false).unwrap_or(Ordering::Equal),
        }
    }
}

impl PartialOrd for Algebraic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Algebraic {
    /// Equality of the real numbers (not of the representations).
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Algebraic {}

impl fmt::Display for Algebraic {
    /// The rational itself, or `root of <polynomial> in (lo, hi)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.interval {
            RootInterval::Point(r) if r.is_zero() => write!(f, "0"),
            RootInterval::Point(r) => write!(f, "{r}"),
            RootInterval::Open { lo, hi } => write!(f, "root of {} in ({lo}, {hi})", self.poly),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search among doubles gives the bisection route's double, bit for bit, on roots of
    /// both signs of small-integer polynomials (wide isolating intervals and refined ones,
    /// roots near powers of two where the spacing of doubles changes, and near zero where the
    /// search does not apply), and √2's double is `SQRT_2`.
    #[test]
    fn the_nearest_double_is_the_bisections() {
        use crate::poly::isolate::real_roots;
        let q = |n: i64| BigRational::from_integer(n.into());
        let sqrt2 = real_roots(&Poly::from_coeffs(vec![q(-2), q(0), q(1)]), &q(0), &q(2)).unwrap().remove(0);
        assert_eq!(sqrt2.to_f64(), std::f64::consts::SQRT_2);
        let mut next = crate::poly::tests::draws(0x9e37_79b9_7f4a_7c15);
        let (mut direct, mut total) = (0, 0);
        for case in 0..400 {
            let deg = 2 + next(4) as usize;
            let mut c: Vec<BigRational> = (0..deg).map(|_| q(next(201) - 100)).collect();
            c.push(q(1 + next(9)));
            if case % 4 == 0 {
                // x² − (2^k ± 1)/2^j: roots at √ of numbers next to powers of two.
                let k = 1 + next(60) as u32;
                let n = (BigInt::from(1) << k) + BigInt::from(next(3) - 1);
                c = vec![-BigRational::new(n, BigInt::from(1) << next(8) as u32), q(0), q(1)];
            }
            let p = Poly::from_coeffs(c);
            for root in real_roots(&p, &q(-1000), &q(1000)).unwrap() {
                if root.is_rational() {
                    continue;
                }
                for refine in [None, Some(BigRational::new(1.into(), BigInt::from(1) << 30u32))] {
                    let mut r = root.clone();
                    if let Some(w) = &refine {
                        r.refine(w).unwrap();
                    }
                    total += 1;
                    let RootInterval::Open { lo, hi } = r.interval() else { unreachable!() };
                    direct += usize::from(r.nearest_double(lo, hi).is_some());
                    assert_eq!(r.to_f64().to_bits(), r.to_f64_by_bisection().to_bits(), "{p} at {r:?}");
                }
            }
        }
        // Both routes of `to_f64` are taken: the search on the interval as it is, and after
        // halvings (ends at zero or of two signs).
        assert!(total > 800 && direct * 2 > total && direct * 10 < total * 9, "{direct} searched directly of {total}");
    }

    /// `sign_of` at ±√2 against an independent route: q reduced modulo x² − 2 is a + b·x, and
    /// the sign of a ± b√2 follows from the signs of a and b and from a² against 2b². The
    /// polynomials are small-integer ones, some multiples of x² − 2 plus a small remainder
    /// (zero, or within 10⁻⁶ of zero at the root: the enclosure's filter must abstain there),
    /// and the roots come both from the isolation and refined (where the filter decides).
    #[test]
    fn signs_at_root_two_are_those_of_a_plus_b_root_two() {
        use crate::poly::isolate::real_roots;
        let q = |n: i64| BigRational::from_integer(n.into());
        let square = Poly::from_coeffs(vec![q(-2), q(0), q(1)]);
        let roots = real_roots(&square, &q(-2), &q(2)).unwrap();
        assert_eq!(roots.len(), 2);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64 + 1)) as i64 - m
        };
        let (mut decided_by_filter, mut zeros) = (0, 0);
        for case in 0..600 {
            let factor = Poly::from_coeffs((0..1 + case % 3).map(|_| q(next(5))).collect());
            // The remainder a + b x: zero, small, or near a root's value (1393/985 ≈ √2).
            let (a, b) = match case % 4 {
                0 => (q(0), q(0)),
                1 => (q(next(9)), q(next(9))),
                2 => (q(1393 * next(3)), q(-985 * next(3))),
                _ => (BigRational::new(next(9).into(), 1_000_000.into()), q(0)),
            };
            let poly = &(&factor * &square) + &Poly::from_coeffs(vec![a.clone(), b.clone()]);
            for (k, root) in roots.iter().enumerate() {
                // The root is −√2 then √2: a + b·(±√2).
                let b = if k == 0 { -b.clone() } else { b.clone() };
                let expected = match (a.is_zero(), b.is_zero()) {
                    (true, true) => Sign::Zero,
                    _ if !a.is_negative() && !b.is_negative() => Sign::Positive,
                    _ if !a.is_positive() && !b.is_positive() => Sign::Negative,
                    // Opposite signs: the larger of a² and 2b² wins.
                    _ => match (&a * &a).cmp(&(&b * &b * q(2))) {
                        Ordering::Greater => {
                            if a.is_positive() {
                                Sign::Positive
                            } else {
                                Sign::Negative
                            }
                        }
                        Ordering::Less => {
                            if b.is_positive() {
                                Sign::Positive
                            } else {
                                Sign::Negative
                            }
                        }
                        Ordering::Equal => unreachable!("√2 is irrational"),
                    },
                };
                let mut narrow = root.clone();
                narrow.refine(&BigRational::new(1.into(), 1_000_000_000_000i64.into())).unwrap();
                for r in [root, &narrow] {
                    let got = r.sign_of(&poly).unwrap();
                    assert_eq!(got, expected, "{poly:?} at root {k} ({:?})", r.interval);
                    if r.sign_enclosed(&poly).is_some() {
                        assert_eq!(r.sign_enclosed(&poly), Some(expected));
                        decided_by_filter += 1;
                    }
                }
                zeros += usize::from(expected == Sign::Zero);
            }
        }
        // Both routes were taken.
        assert!(decided_by_filter > 300 && zeros > 200, "{decided_by_filter} by the filter, {zeros} zeros");
    }

    #[test]
    fn a_rationals_primitive_form_is_its_lowest_terms() {
        // q·t − p for p/q in lowest terms: what the general route (common denominator, then
        // the content divided out) gives, for zero, integers, negatives and big numbers.
        let big = BigInt::from(3u8).pow(200) * BigInt::from(2u8).pow(70);
        for (p, q) in [(0, 1), (5, 1), (-7, 1), (-17, 4), (355, 113), (-1, 1_000_000_007)] {
            for scale in [BigInt::from(1u8), big.clone()] {
                let r = BigRational::new(BigInt::from(p) * &scale, BigInt::from(q));
                let poly = Poly::from_coeffs(vec![-r.clone(), BigRational::from_integer(1.into())]);
                assert_eq!(Algebraic::from_rational(r.clone()).int, primitive(&poly), "{r}");
            }
        }
    }
}
