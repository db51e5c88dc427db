//! Times as roots, on any backend that can find them: the exact one (real algebraic numbers),
//! `f64` (bracketed float roots under the tolerance policy) and intervals (certified
//! enclosures, or [`Uncertain`](crate::scalar::Uncertain)), so that a continuous-collision
//! algorithm is written once over [`RootScalar`] and its `f64` answer can be checked against
//! its exact one.
//!
//! Polynomials built by such an algorithm are [`TPoly`]s: the polynomial and, on inexact
//! backends, a *magnitude polynomial* formed by the same ring operations on absolute values
//! (|a ± b| ≤ |a| + |b|, |ab| = |a||b| coefficient-wise bounds). A value p(t) computed in
//! `f64` is decided against the magnitude polynomial at |t|, the scale of the terms it summed,
//! not against its own (possibly cancelled) coefficients; a polynomial is identically zero
//! under the tolerance when each coefficient is within the tolerance of its magnitude.

use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

use num_rational::BigRational;

use super::{float_roots, interval_roots, real_roots, Algebraic, Poly, PolyError};
use crate::scalar::{try_dedup_by, try_sort_by, Certain, Decision, Exact, Interval, MidRad, Scalar, Sign, Uncertain};

/// A backend whose polynomials' real roots can be found and whose signs at a root decided.
pub trait RootScalar: Scalar {
    /// A real root: [`Algebraic`] exactly, `f64` for `f64`, an enclosing [`Interval`] for
    /// intervals.
    type Time: Clone + Debug + PartialEq;

    /// The real roots of `p` (not identically zero) in `[lo, hi]`, increasing.
    fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<Self::Time>, PolyError>;
    /// A time equal to the value `x`.
    fn time(x: &Self) -> Self::Time;
    /// The sign of `p` at `t` (under the backend's tolerance policy, against the magnitude).
    fn sign_at(p: &TPoly<Self>, t: &Self::Time) -> Result<Sign, PolyError>;
    /// The order of two times: exact for algebraic numbers, plain for `f64`,
    /// [`Uncertain`](crate::scalar::Uncertain) for a backend with certain decisions that cannot
    /// separate them.
    fn compare_times(a: &Self::Time, b: &Self::Time) -> Decision<Ordering>;
    /// The nearest `f64`.
    fn time_to_f64(t: &Self::Time) -> f64;
    /// A value strictly between `a < b` (exact: a rational; `f64`: the midpoint), as a time.
    fn between(a: &Self::Time, b: &Self::Time) -> Result<Self::Time, PolyError>;

    /// The least time enclosing both `a` and `b`, on a backend whose times are enclosures that
    /// may fail to order ([`Interval`]: the hull of the two); `None` on the others, whose
    /// times always order or are compared under a tolerance. Callers use it to group times
    /// they cannot order, and must then prove by other means that nothing they look for
    /// happens inside the group (the box sweep: the boxes are apart throughout it).
    fn time_hull(a: &Self::Time, b: &Self::Time) -> Option<Self::Time> {
        let _ = (a, b);
        None
    }
    /// The time as an output: exact backends give the [`Algebraic`] number, others a float
    /// (the default).
    fn time_output(t: &Self::Time) -> TimeOutput {
        TimeOutput::Float(Self::time_to_f64(t))
    }

    /// The real roots of `p` (not identically zero) in the closed range `[lo, hi]` of two
    /// times with `t0 ≤ lo ≤ hi ≤ t1`, increasing.
    ///
    /// The default searches `[t0, t1]` and keeps the roots in `[lo, hi]` (decided). Backends
    /// override it to search near the range only: the exact one in the rational hull of the
    /// isolating intervals (the same isolations, hence the same numbers, whatever the
    /// range's neighbours), `f64` in `[lo, hi]` itself, so that a root at an end of the range
    /// is found as an end under the tolerance rather than lost just outside it.
    fn roots_between(
        p: &Poly<Self>,
        lo: &Self::Time,
        hi: &Self::Time,
        t0: &Self,
        t1: &Self,
    ) -> Result<Vec<Self::Time>, PolyError> {
        let mut out = Vec::new();
        for r in Self::roots_in(p, t0, t1)? {
            if !earlier::<Self>(&r, lo)? && !earlier::<Self>(hi, &r)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// `ps` divided by the greatest common divisor of their polynomials, where the backend
    /// can compute one: the exact backend does (a monic gcd, so signs change only by the
    /// gcd's own sign); the default leaves them unchanged (a gcd of inexact polynomials is
    /// not defined: `f64`, intervals).
    ///
    /// A simplification, never a decision: callers must be correct with or without it (see
    /// [`crate::sweep::bms`] for what the box sweep does without it).
    fn remove_common_factor(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
        ps
    }

    /// `ps` scaled by one positive constant, the inverse of the absolute leading coefficient
    /// of the first nonzero polynomial among them, where the backend scales exactly (the exact
    /// backend: equal directions then have equal coefficients); the default leaves them
    /// unchanged. Signs are unchanged either way.
    fn normalise_scale(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
        ps
    }
}

/// A time as an output of a query.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeOutput {
    /// Exactly: a real algebraic number.
    Exact(Algebraic),
    /// Approximately (an inexact backend).
    Float(f64),
}

/// A rational strictly between two real algebraic numbers a < b (refining both until their
/// isolating intervals separate); [`PolyError::EmptyInterval`] unless a < b.
pub fn rational_between(a: &Algebraic, b: &Algebraic) -> Result<BigRational, PolyError> {
    use num_traits::{One, Zero};
    if a >= b {
        // Refining could never separate them (and a rational point never refines).
        return Err(PolyError::EmptyInterval);
    }
    let (mut a, mut b) = (a.clone(), b.clone());
    let two = BigRational::from_integer(2.into());
    loop {
        let (hi, lo) = (a.interval().hi().clone(), b.interval().lo().clone());
        let strictly = |x: &BigRational| {
            a.cmp_rational(x) == std::cmp::Ordering::Less && b.cmp_rational(x) == std::cmp::Ordering::Greater
        };
        let mid = (hi.clone() + lo.clone()) / two.clone();
        if hi <= lo && strictly(&mid) {
            return Ok(mid);
        }
        let width = |x: &Algebraic| x.interval().hi().clone() - x.interval().lo().clone();
        let half = |w: BigRational| if w.is_zero() { BigRational::one() } else { w / two.clone() };
        let (wa, wb) = (width(&a), width(&b));
        a.refine(&half(wa))?;
        b.refine(&half(wb))?;
    }
}

/// The order of two times of backend `S` ([`RootScalar::compare_times`]).
pub fn order<S: RootScalar>(a: &S::Time, b: &S::Time) -> Decision<Ordering> {
    S::compare_times(a, b)
}

/// Whether `a < b`, decided.
pub fn earlier<S: RootScalar>(a: &S::Time, b: &S::Time) -> Decision<bool> {
    Ok(S::compare_times(a, b)? == Ordering::Less)
}

/// Sort times increasing and drop equal ones (decided comparisons).
pub fn sort_times<S: RootScalar>(times: &mut Vec<S::Time>) -> Decision<()> {
    try_sort_by(times, order::<S>)?;
    try_dedup_by(times, order::<S>)
}

/// Sort times that carry a tag (what each is a root of) increasing, keeping of equal times the
/// first listed (the sort is stable; decided comparisons).
pub(crate) fn sort_tagged_times<S: RootScalar, T: Clone>(times: &mut Vec<(S::Time, T)>) -> Decision<()> {
    try_sort_by(times, |a, b| order::<S>(&a.0, &b.0))?;
    try_dedup_by(times, |a, b| order::<S>(&a.0, &b.0))
}

impl RootScalar for BigRational {
    type Time = Algebraic;

    fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<Algebraic>, PolyError> {
        real_roots(p, lo, hi)
    }
    fn time(x: &Self) -> Algebraic {
        Algebraic::from_rational(x.clone())
    }
    fn sign_at(p: &TPoly<Self>, t: &Algebraic) -> Result<Sign, PolyError> {
        t.sign_of(&p.p)
    }
    fn compare_times(a: &Algebraic, b: &Algebraic) -> Decision<Ordering> {
        a.try_cmp(b)
    }
    fn time_to_f64(t: &Algebraic) -> f64 {
        t.to_f64()
    }
    fn between(a: &Algebraic, b: &Algebraic) -> Result<Algebraic, PolyError> {
        Ok(Algebraic::from_rational(rational_between(a, b)?))
    }
    fn time_output(t: &Algebraic) -> TimeOutput {
        TimeOutput::Exact(t.clone())
    }
    fn roots_between(
        p: &Poly<Self>,
        lo: &Algebraic,
        hi: &Algebraic,
        _t0: &Self,
        _t1: &Self,
    ) -> Result<Vec<Algebraic>, PolyError> {
        let roots = real_roots(p, lo.interval().lo(), hi.interval().hi())?;
        Ok(roots.into_iter().filter(|r| r >= lo && r <= hi).collect())
    }
    fn remove_common_factor(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
        // A simplification: on a spent budget leave the polynomials as they are (the next
        // fallible step reports the limit).
        let Ok(g) = ps.iter().try_fold(Poly::zero(), |g: Poly<Self>, p| g.gcd(&p.p)) else { return ps };
        if g.degree().is_none_or(|d| d == 0) {
            return ps;
        }
        // g divides every p exactly (it is their gcd); the division cannot fail for g ≠ 0.
        let divide = |p: TPoly<Self>| match p.p.div_rem(&g) {
            Ok((q, _)) => TPoly::input(q),
            Err(_) => p,
        };
        ps.into_iter().map(divide).collect()
    }
    fn normalise_scale(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
        let Some(lc) = ps.iter().find_map(|p| p.p.leading().cloned()) else { return ps };
        let inv = BigRational::from_integer(1.into()) / Scalar::abs(&lc);
        ps.into_iter().map(|p| TPoly::input(p.p.scale(&inv))).collect()
    }
}

/// A backend's polynomial as the reference backend's (the root finder works on reduced
/// rationals). Only for exact backends, whose values are rationals.
fn to_reference<S: Scalar>(p: &Poly<S>) -> Poly<BigRational> {
    Poly::from_coeffs(p.coeffs().iter().map(|c| c.to_rational().unwrap_or_default()).collect())
}

fn from_reference<S: Scalar>(p: &Poly<BigRational>) -> Poly<S> {
    Poly::from_coeffs(p.coeffs().iter().map(S::from_rational).collect())
}

/// Times of an exact backend other than the reference ([`Exact`], `rug`'s rationals) are the
/// reference's algebraic numbers: every operation on them converts the polynomial once and
/// delegates, so the backends give the same numbers.
macro_rules! delegating_root_scalar {
    ($t:ty) => {
        impl RootScalar for $t {
            type Time = Algebraic;

            fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<Algebraic>, PolyError> {
                real_roots(&to_reference(p), &reference_value(lo), &reference_value(hi))
            }
            fn time(x: &Self) -> Algebraic {
                Algebraic::from_rational(reference_value(x))
            }
            fn sign_at(p: &TPoly<Self>, t: &Algebraic) -> Result<Sign, PolyError> {
                if let Some(r) = t.to_rational() {
                    // A rational time: evaluate without converting the polynomial.
                    return Ok(p.p.eval(&<$t as Scalar>::from_rational(&r)).sign()?);
                }
                t.sign_of(&to_reference(&p.p))
            }
            fn compare_times(a: &Algebraic, b: &Algebraic) -> Decision<Ordering> {
                BigRational::compare_times(a, b)
            }
            fn time_to_f64(t: &Algebraic) -> f64 {
                t.to_f64()
            }
            fn between(a: &Algebraic, b: &Algebraic) -> Result<Algebraic, PolyError> {
                BigRational::between(a, b)
            }
            fn time_output(t: &Algebraic) -> TimeOutput {
                TimeOutput::Exact(t.clone())
            }
            fn roots_between(
                p: &Poly<Self>,
                lo: &Algebraic,
                hi: &Algebraic,
                t0: &Self,
                t1: &Self,
            ) -> Result<Vec<Algebraic>, PolyError> {
                BigRational::roots_between(&to_reference(p), lo, hi, &reference_value(t0), &reference_value(t1))
            }
            fn remove_common_factor(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
                let reference: Vec<TPoly<BigRational>> = ps.iter().map(|p| TPoly::input(to_reference(&p.p))).collect();
                BigRational::remove_common_factor(reference)
                    .iter()
                    .map(|p| TPoly::input(from_reference(&p.p)))
                    .collect()
            }
            fn normalise_scale(ps: Vec<TPoly<Self>>) -> Vec<TPoly<Self>> {
                let reference: Vec<TPoly<BigRational>> = ps.iter().map(|p| TPoly::input(to_reference(&p.p))).collect();
                BigRational::normalise_scale(reference).iter().map(|p| TPoly::input(from_reference(&p.p))).collect()
            }
        }
    };
}

/// An exact backend's value as a reduced rational.
fn reference_value<S: Scalar>(x: &S) -> BigRational {
    x.to_rational().unwrap_or_default()
}

delegating_root_scalar!(Exact);
#[cfg(feature = "rug")]
delegating_root_scalar!(crate::scalar::RugRational);

impl RootScalar for f64 {
    type Time = f64;

    fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<f64>, PolyError> {
        float_roots(p, *lo, *hi)
    }
    fn time(x: &Self) -> f64 {
        *x
    }
    fn sign_at(p: &TPoly<Self>, t: &f64) -> Result<Sign, PolyError> {
        let m = p.m.as_ref().map(|m| m.eval(&t.abs())).unwrap_or_else(|| p.p.magnitude_at(t));
        Ok(p.p.eval(t).sign_scaled(|| m)?)
    }
    fn compare_times(a: &f64, b: &f64) -> Decision<Ordering> {
        a.compare(b)
    }
    fn time_to_f64(t: &f64) -> f64 {
        *t
    }
    fn between(a: &f64, b: &f64) -> Result<f64, PolyError> {
        Ok(a + (b - a) / 2.0)
    }
    fn roots_between(p: &Poly<Self>, lo: &f64, hi: &f64, _t0: &f64, _t1: &f64) -> Result<Vec<f64>, PolyError> {
        float_roots(p, *lo, *hi)
    }
}

/// Intervals: a time is an enclosure of one real value (a root, or the value of an interval),
/// and every answer is certain or [`Uncertain`].
impl RootScalar for Interval {
    type Time = Interval;

    /// [`interval_roots`]: enclosures isolating each root of every member of the family.
    fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<Interval>, PolyError> {
        interval_roots(p, lo, hi)
    }
    fn time(x: &Self) -> Interval {
        *x
    }
    /// The sign of `p` over the whole enclosure (interval Horner): certain, or
    /// [`Uncertain`]. So the sign of `p` at an irrational root of `p` itself is uncertain: the
    /// enclosure does not say which member's root it is.
    fn sign_at(p: &TPoly<Self>, t: &Interval) -> Result<Sign, PolyError> {
        Ok(p.p.eval(t).sign()?)
    }
    /// Ordered when the enclosures are disjoint, equal when both are the same point.
    fn compare_times(a: &Interval, b: &Interval) -> Decision<Ordering> {
        a.compare(b)
    }
    fn time_to_f64(t: &Interval) -> f64 {
        t.to_f64()
    }
    /// A double strictly between two disjoint enclosures (in either order), as a point;
    /// [`Uncertain`] when they overlap or no double lies between them.
    /// `[min lo, max hi]`.
    fn time_hull(a: &Interval, b: &Interval) -> Option<Interval> {
        Interval::new(a.lo().min(b.lo()), a.hi().max(b.hi()))
    }
    fn between(a: &Interval, b: &Interval) -> Result<Interval, PolyError> {
        let (left, right) = match a.compare(b) {
            Ok(Ordering::Less) => (a.hi(), b.lo()),
            Ok(Ordering::Greater) => (b.hi(), a.lo()),
            _ => return Err(Uncertain::Close.into()),
        };
        // Halve the gap (both halves when it overflows, near ±MAX).
        let gap = right - left;
        let m = if gap.is_finite() { left + gap / 2.0 } else { left / 2.0 + right / 2.0 };
        if left < m && m < right {
            Ok(Interval::from_f64(m).map_err(|_| Uncertain::Overflow)?)
        } else {
            Err(Uncertain::Close.into())
        }
    }
}

/// A backend the filtered exact path runs first: certain decisions on inexact values, whose
/// values and times read as [`Interval`] enclosures (the exact construction after a decided
/// run reads them so, whichever filter ran): [`MidRad`] (the cheap first stage) and
/// [`Interval`] (the second).
pub trait FilterScalar: RootScalar<Time = Interval> + Certain {
    /// An interval enclosing the same exact value.
    fn enclosure(&self) -> Interval;
}

impl FilterScalar for Interval {
    fn enclosure(&self) -> Interval {
        *self
    }
}

impl FilterScalar for MidRad {
    fn enclosure(&self) -> Interval {
        MidRad::enclosure(self)
    }
}

/// A polynomial on value-and-bound coefficients as one on their interval enclosures.
fn enclosed(p: &Poly<MidRad>) -> Poly<Interval> {
    Poly::from_coeffs(p.coeffs().iter().map(MidRad::enclosure).collect())
}

/// Values with bounds: a time is an interval enclosure, found and compared as on intervals
/// (the root finder runs on the coefficients' enclosures), so a time is certain or
/// [`Uncertain`] exactly as there.
impl RootScalar for MidRad {
    type Time = Interval;

    fn roots_in(p: &Poly<Self>, lo: &Self, hi: &Self) -> Result<Vec<Interval>, PolyError> {
        interval_roots(&enclosed(p), &lo.enclosure(), &hi.enclosure())
    }
    fn time(x: &Self) -> Interval {
        x.enclosure()
    }
    /// The sign of `p` over the whole enclosure (interval Horner on the coefficients'
    /// enclosures).
    fn sign_at(p: &TPoly<Self>, t: &Interval) -> Result<Sign, PolyError> {
        Ok(enclosed(&p.p).eval(t).sign()?)
    }
    fn compare_times(a: &Interval, b: &Interval) -> Decision<Ordering> {
        Interval::compare_times(a, b)
    }
    fn time_to_f64(t: &Interval) -> f64 {
        t.to_f64()
    }
    fn time_hull(a: &Interval, b: &Interval) -> Option<Interval> {
        Interval::time_hull(a, b)
    }
    fn between(a: &Interval, b: &Interval) -> Result<Interval, PolyError> {
        Interval::between(a, b)
    }
}

/// A polynomial with, on inexact backends, its magnitude polynomial (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct TPoly<S: Scalar> {
    /// The polynomial.
    pub p: Poly<S>,
    /// Coefficient-wise bounds on the terms summed into `p` (`None` on exact backends).
    pub m: Option<Poly<S>>,
}

impl<S: Scalar> TPoly<S> {
    /// A polynomial of exact input coefficients (its own magnitude).
    pub fn input(p: Poly<S>) -> Self {
        let m = (!S::CERTAIN_DECISIONS).then(|| Poly::from_coeffs(p.coeffs().iter().map(|c| c.abs()).collect()));
        TPoly { p, m }
    }

    /// The zero polynomial.
    pub fn zero() -> Self {
        TPoly { p: Poly::zero(), m: (!S::CERTAIN_DECISIONS).then(Poly::zero) }
    }

    /// `c·p` for an input constant `c` (the magnitude scales by |c|).
    pub fn scale(&self, c: &S) -> Self {
        TPoly { p: self.p.scale(c), m: self.m.as_ref().map(|m| m.scale(&c.abs())) }
    }

    /// Whether `p` is identically zero: exactly, or for inexact backends every coefficient
    /// within the tolerance of its magnitude.
    pub fn is_zero(&self) -> Result<bool, PolyError> {
        match &self.m {
            None => Ok(self.p.is_zero()),
            Some(m) => {
                for (i, c) in self.p.coeffs().iter().enumerate() {
                    let mag = m.coeffs().get(i).cloned().unwrap_or_else(S::zero);
                    if c.sign_scaled(|| mag)? != Sign::Zero {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}

fn both<S: Scalar>(
    a: &Option<Poly<S>>,
    b: &Option<Poly<S>>,
    f: impl Fn(Poly<S>, Poly<S>) -> Poly<S>,
) -> Option<Poly<S>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(f(x.clone(), y.clone())),
        _ => None,
    }
}

impl<S: Scalar> Add for TPoly<S> {
    type Output = TPoly<S>;
    fn add(self, o: TPoly<S>) -> TPoly<S> {
        TPoly { m: both(&self.m, &o.m, |a, b| a + b), p: self.p + o.p }
    }
}

impl<S: Scalar> Sub for TPoly<S> {
    type Output = TPoly<S>;
    // The magnitude of a difference is the sum of the magnitudes.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, o: TPoly<S>) -> TPoly<S> {
        TPoly { m: both(&self.m, &o.m, |a, b| a + b), p: self.p - o.p }
    }
}

impl<S: Scalar> Mul for TPoly<S> {
    type Output = TPoly<S>;
    fn mul(self, o: TPoly<S>) -> TPoly<S> {
        TPoly { m: both(&self.m, &o.m, |a, b| a * b), p: self.p * o.p }
    }
}

impl<S: Scalar> Neg for TPoly<S> {
    type Output = TPoly<S>;
    fn neg(self) -> TPoly<S> {
        TPoly { p: Poly::zero() - self.p, m: self.m }
    }
}

/// Whether the `f64` twin of an exact polynomial lost a coefficient to underflow: a nonzero
/// exact coefficient whose binary64 counterpart is zero or subnormal. The contracts measure
/// margins on the `f64` twins; where one underflowed the fast path cannot see that geometry
/// (products of coordinates near 1e-272 vanish), and it is held to nothing (margin 0).
pub fn underflowed<S: Scalar>(exact: &Poly<S>, fast: &Poly<f64>) -> bool {
    exact
        .coeffs()
        .iter()
        .enumerate()
        .any(|(i, c)| !c.is_zero() && fast.coeffs().get(i).is_none_or(|f| f.abs() < f64::MIN_POSITIVE))
}

impl TPoly<f64> {
    /// The magnitude of p(t): the magnitude polynomial at |t| (or Σ|cᵢ||t|ⁱ without one).
    pub fn magnitude_at(&self, t: f64) -> f64 {
        self.m.as_ref().map(|m| m.eval(&t.abs())).unwrap_or_else(|| self.p.magnitude_at(&t))
    }

    /// |p(t)| relative to its magnitude plus the contract's floor 2⁻¹⁰²¹
    /// ([`crate::contract::magnitude_floor`]: below it `f64`'s tolerance is absolute, so values
    /// at subnormal scales have small margins); ∞ for the zero polynomial (no decision).
    pub fn relative_at(&self, t: f64) -> f64 {
        if self.p.coeffs().iter().all(|c| *c == 0.0) {
            return f64::INFINITY;
        }
        self.p.eval(&t).abs() / (self.magnitude_at(t) + 2.0 * f64::MIN_POSITIVE)
    }
}
