//! Solid tori: a circle core swept by a ball (issue 42; Lin–Manocha 1994 §5, Example 5.1),
//! measured exactly against balls, capsules and other tori.
//!
//! A torus is the set of points within `minor` of a circle C (centre c, axis n, radius R).
//! For a point X, with w = X − c, k = |n|² and B̃ = |w × n|² (k times the squared distance
//! of X from the axis),
//!
//! > d(X, C)² = |w|² + R² − 2R·√(B̃/k),
//!
//! so whether X is within ρ of C is the sign of g = L − √(4R²B̃/k) with L = |w|² + R² − ρ²:
//! negative where L < 0, else the sign of L² − 4R²B̃/k. No square root is taken.
//!
//! The other core K (a point, a segment, a circle) is a curve, parametrised by a rational
//! parameter u and a *sheet* σ ∈ {+1, −1}: X = x₀ + u·U + σ·√s(u)·V, with s ≡ 0 (one sheet)
//! for a point or a segment, and for a circle of centre c′, axis n′, radius R′ with rational
//! vectors a ⊥ n′, b = n′ × a (|a|² = α, |b|² = β): X = c′ + u·a + σ√s(u)·b with
//! s(u) = (R′² − αu²)/β, for u in [−R′/√α, R′/√α]. Every polynomial in X is then
//! e₀(u) + σ√s(u)·e₁(u) ([`Rad`]), and its sign at a parameter that is a root of a rational
//! polynomial is decided exactly from the signs of e₀, e₁ and e₀² − s·e₁² there.
//!
//! The least of g over K is taken at a *candidate*: an end of a segment; a point where g is
//! stationary along K (the tangent T of K: (∇L·T)²·kB̃ = R²(∇B̃·T)², squared, so it holds at
//! the stationary points of L + √(4R²B̃/k) too: harmless, every candidate is a point of K);
//! or a point on C's axis (B̃ = 0, where the root is not smooth). For a circle K the
//! stationary condition e₀ + σ√s·e₁ = 0 becomes e₀² − s·e₁² = 0: a polynomial of degree at most
//! 8 in u (the circle–circle problem's degree 8), both sheets taken. So the status — d(cores)
//! against ρ = r_a + r_b — is decided with zero tolerance; the value of d(cores)², the
//! distance and the depth are compared exactly with any rational ([`TorusDistance::compare`]),
//! which gives their decimals to any number of digits, provably truncated.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::RoundError;
use crate::geom::{Point3, Vector3};
use crate::poly::{
    first_zero, first_zero_on_line, Algebraic, Bivariate, FirstZero, Poly, PolyError, QuadBivariate, RootScalar, TPoly,
    TimeOutput, URange,
};
use crate::scalar::{decimal_of_rational, Scalar, Sign};
use crate::vclip::Status;

/// A circle in space: centre, axis (any nonzero length) and a positive radius.
#[derive(Clone, Debug, PartialEq)]
pub struct Circle<S: Scalar> {
    /// The centre.
    pub centre: Point3<S>,
    /// The axis (normal to the circle's plane), not necessarily unit.
    pub axis: Vector3<S>,
    /// The radius, positive.
    pub radius: S,
}

impl<S: Scalar> Circle<S> {
    /// A circle, checked: a nonzero axis, a positive radius.
    ///
    /// Errors: [`RoundError::Invalid`] naming the bad part.
    pub fn new(centre: Point3<S>, axis: Vector3<S>, radius: S) -> Result<Self, RoundError> {
        if (0..3).all(|i| axis[i].sign() == Ok(Sign::Zero)) {
            return Err(RoundError::Invalid("a circle's axis is the zero vector".into()));
        }
        if radius.sign()? != Sign::Positive {
            return Err(RoundError::Invalid("a circle's radius is not positive".into()));
        }
        Ok(Circle { centre, axis, radius })
    }

    /// The circle moved by `d`.
    pub fn translated(&self, d: &Vector3<S>) -> Self {
        Circle { centre: &self.centre + d, axis: self.axis.clone(), radius: self.radius.clone() }
    }
}

/// A solid torus: the points within `minor` of a circle of radius `major` (0 < minor < major).
#[derive(Clone, Debug, PartialEq)]
pub struct Torus<S: Scalar> {
    /// The core circle (its radius is the major radius).
    pub circle: Circle<S>,
    /// The minor (tube) radius.
    pub minor: S,
}

impl<S: Scalar> Torus<S> {
    /// A torus, checked: 0 < minor < major (a torus with a hole).
    ///
    /// Errors: [`RoundError::Invalid`].
    pub fn new(circle: Circle<S>, minor: S) -> Result<Self, RoundError> {
        if minor.sign()? != Sign::Positive {
            return Err(RoundError::Invalid("a torus's minor radius is not positive".into()));
        }
        if circle.radius.compare(&minor)? != Ordering::Greater {
            return Err(RoundError::Invalid(
                "a torus's minor radius is not below its major radius (no hole: a spindle torus is not supported)"
                    .into(),
            ));
        }
        Ok(Torus { circle, minor })
    }

    /// The torus's implicit quartic at `x`, times k = |n|²: k·(|w|² + R² − r²)² − 4R²·|w × n|²
    /// with w = x − c; negative inside, zero on the surface (the paper's F and G of Example
    /// 5.1 are this with a unit axis).
    pub fn implicit(&self, x: &Point3<S>) -> S {
        let c = &self.circle;
        let w: Vector3<S> = x - &c.centre;
        let k = dot3(&c.axis, &c.axis);
        let r2 = c.radius.clone() * c.radius.clone();
        let q = dot3(&w, &w) + r2.clone() - self.minor.clone() * self.minor.clone();
        let cr = cross3(&w, &c.axis);
        let four = S::from_i64(4);
        k * q.clone() * q - four * r2 * dot3(&cr, &cr)
    }
}

fn dot3<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> S {
    a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
}

fn cross3<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Vector3<S> {
    let m = |i: usize, j: usize| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone();
    Vector3::new(m(1, 2), m(2, 0), m(0, 1))
}

/// The core of the shape a torus is measured against.
#[derive(Clone, Debug, PartialEq)]
pub enum Curve<S: Scalar> {
    /// A ball's centre.
    Point(Point3<S>),
    /// A capsule's segment.
    Segment([Point3<S>; 2]),
    /// Another torus's circle.
    Circle(Circle<S>),
}

impl<S: Scalar> Curve<S> {
    /// The curve moved by `d`.
    pub fn translated(&self, d: &Vector3<S>) -> Self {
        match self {
            Curve::Point(p) => Curve::Point(p + d),
            Curve::Segment([a, b]) => Curve::Segment([a + d, b + d]),
            Curve::Circle(c) => Curve::Circle(c.translated(d)),
        }
    }
}

/// An element e₀(u) + σ·√s(u)·e₁(u) of the curve's coordinate ring.
#[derive(Clone, Debug, PartialEq)]
pub struct Rad<S: Scalar> {
    /// The rational part.
    pub e0: Poly<S>,
    /// The part multiplied by σ√s.
    pub e1: Poly<S>,
}

impl<S: Scalar> Rad<S> {
    fn constant(c: S) -> Self {
        Rad { e0: Poly::constant(c), e1: Poly::zero() }
    }
    fn add(&self, o: &Self) -> Self {
        Rad { e0: &self.e0 + &o.e0, e1: &self.e1 + &o.e1 }
    }
    fn sub(&self, o: &Self) -> Self {
        Rad { e0: &self.e0 - &o.e0, e1: &self.e1 - &o.e1 }
    }
    fn scale(&self, c: &S) -> Self {
        Rad { e0: self.e0.scale(c), e1: self.e1.scale(c) }
    }
    fn mul(&self, o: &Self, s: &Poly<S>) -> Self {
        let e0 = &(&self.e0 * &o.e0) + &(&(&self.e1 * &o.e1) * s);
        let e1 = &(&self.e0 * &o.e1) + &(&self.e1 * &o.e0);
        Rad { e0, e1 }
    }
    /// e₀² − s·e₁²: the product over both sheets (a polynomial in u alone).
    fn norm(&self, s: &Poly<S>) -> Poly<S> {
        &(&self.e0 * &self.e0) - &(&(&self.e1 * &self.e1) * s)
    }
}

type RVec<S> = [Rad<S>; 3];

fn rdot<S: Scalar>(a: &RVec<S>, b: &RVec<S>, s: &Poly<S>) -> Rad<S> {
    a[0].mul(&b[0], s).add(&a[1].mul(&b[1], s)).add(&a[2].mul(&b[2], s))
}

fn rconst<S: Scalar>(v: &Vector3<S>) -> RVec<S> {
    [Rad::constant(v[0].clone()), Rad::constant(v[1].clone()), Rad::constant(v[2].clone())]
}

/// The curve K as X = x₀ + u·U + σ√s(u)·V, with its tangent field.
#[derive(Clone, Debug, PartialEq)]
struct Param<S: Scalar> {
    x0: Point3<S>,
    du: Vector3<S>,
    dv: Vector3<S>,
    s: Poly<S>,
}

impl<S: Scalar> Param<S> {
    fn of(curve: &Curve<S>) -> Result<Self, RoundError> {
        let zero = || Vector3::new(S::zero(), S::zero(), S::zero());
        Ok(match curve {
            Curve::Point(p) => Param { x0: p.clone(), du: zero(), dv: zero(), s: Poly::zero() },
            Curve::Segment([a, b]) => Param { x0: a.clone(), du: b - a, dv: zero(), s: Poly::zero() },
            Curve::Circle(c) => {
                let n = &c.axis;
                // a = n × e_j for the coordinate j where |n_j| is least (never parallel to n).
                let mut j = 0;
                for i in 1..3 {
                    if n[i].abs().compare(&n[j].abs())? == Ordering::Less {
                        j = i;
                    }
                }
                let mut e = zero();
                e[j] = S::one();
                let a = cross3(n, &e);
                let b = cross3(n, &a);
                let (alpha, beta) = (dot3(&a, &a), dot3(&b, &b));
                let r2 = c.radius.clone() * c.radius.clone();
                // s(u) = (R′² − αu²)/β.
                let s = Poly::from_coeffs(vec![r2 / beta.clone(), S::zero(), -(alpha / beta)]);
                Param { x0: c.centre.clone(), du: a, dv: b, s }
            }
        })
    }

    /// X − p as ring elements.
    fn offset(&self, p: &Point3<S>) -> RVec<S> {
        std::array::from_fn(|i| Rad {
            e0: Poly::from_coeffs(vec![self.x0[i].clone() - p[i].clone(), self.du[i].clone()]),
            e1: Poly::from_coeffs(vec![self.dv[i].clone()]),
        })
    }
}

/// A point of K that may realise the least of g: a parameter and a sheet (0 where K has one).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<S: RootScalar> {
    /// The parameter u.
    pub u: S::Time,
    /// The sheet σ: +1 or −1 on a circle, 0 on a point or a segment.
    pub sheet: i8,
    /// Which part of K: for a segment, `Some(0)` or `Some(1)` at an end.
    pub end: Option<usize>,
}

/// Exact-sign evaluation of ring elements at candidates.
struct Eval<'a, S: Scalar> {
    s: &'a Poly<S>,
}

impl<S: RootScalar> Eval<'_, S> {
    fn poly_sign(&self, p: &Poly<S>, c: &Candidate<S>) -> Result<Sign, PolyError> {
        if p.is_zero() {
            return Ok(Sign::Zero);
        }
        S::sign_at(&TPoly::input(p.clone()), &c.u)
    }

    /// The sign of e₀ + σ√s·e₁ at the candidate.
    fn sign(&self, r: &Rad<S>, c: &Candidate<S>) -> Result<Sign, PolyError> {
        let s0 = self.poly_sign(&r.e0, c)?;
        if c.sheet == 0 || r.e1.is_zero() || self.poly_sign(self.s, c)? == Sign::Zero {
            return Ok(s0);
        }
        let mut s1 = self.poly_sign(&r.e1, c)?;
        if c.sheet < 0 {
            s1 = negate(s1);
        }
        combine(s0, s1, || self.poly_sign(&r.norm(self.s), c))
    }

    /// The sign of b + a·√m (m ≥ 0 at the candidate).
    fn sign_sqrt(&self, b: &Rad<S>, a: &Rad<S>, m: &Rad<S>, c: &Candidate<S>) -> Result<Sign, PolyError> {
        let sb = self.sign(b, c)?;
        let sm = self.sign(m, c)?;
        let sa = if sm == Sign::Zero { Sign::Zero } else { self.sign(a, c)? };
        // |b| against |a|√m: the sign of b² − a²m.
        combine(sb, sa, || self.sign(&b.mul(b, self.s).sub(&a.mul(a, self.s).mul(m, self.s)), c))
    }
}

pub(super) fn negate(s: Sign) -> Sign {
    match s {
        Sign::Positive => Sign::Negative,
        Sign::Negative => Sign::Positive,
        Sign::Zero => Sign::Zero,
    }
}

/// The sign of x + y given theirs and, where they differ, the sign of |x| − |y| (as x² − y²).
fn combine(sx: Sign, sy: Sign, diff: impl FnOnce() -> Result<Sign, PolyError>) -> Result<Sign, PolyError> {
    if sy == Sign::Zero || sx == sy {
        return Ok(sx);
    }
    if sx == Sign::Zero {
        return Ok(sy);
    }
    Ok(match diff()? {
        Sign::Positive => sx,
        Sign::Negative => sy,
        Sign::Zero => Sign::Zero,
    })
}

/// The largest magnitude of a coordinate, radius, speed or time (and of a speed times a time)
/// that a tolerant backend takes into a torus's quartics, 2²⁵⁰: their terms are fourth powers,
/// and beyond it a value can leave the binary64 range mid-computation with no infinity in the
/// answer (`f64` called a torus of major radius 10³⁰⁰ touching a ball on its circle, which it
/// holds by a unit, and a ball passing through a hole 10³⁰⁰ away meeting it at the start).
/// Beyond it [`torus_distance`] and [`torus_first_contact`] on a tolerant backend refuse with
/// [`Uncertain::Overflow`](crate::scalar::Uncertain::Overflow), which the contract admits;
/// exact backends take any value.
pub const QUARTIC_RANGE: f64 = 1.809_251_394_333_065_5e75;

/// [`RoundError::Uncertain`] (overflow) on a tolerant backend when a value passes
/// [`QUARTIC_RANGE`].
fn in_quartic_range<'a, S: Scalar + 'a>(values: impl IntoIterator<Item = &'a S>) -> Result<(), RoundError> {
    if S::CERTAIN_DECISIONS || values.into_iter().all(|v| v.to_f64().abs() <= QUARTIC_RANGE) {
        Ok(())
    } else {
        Err(RoundError::Uncertain(crate::scalar::Uncertain::Overflow))
    }
}

/// The values of a circle and a core that enter the quartics.
fn pair_values<'a, S: Scalar>(circle: &'a Circle<S>, curve: &'a Curve<S>, radii: &'a S) -> Vec<&'a S> {
    let mut values: Vec<&S> = circle.centre.iter().chain(circle.axis.iter()).collect();
    values.extend([&circle.radius, radii]);
    match curve {
        Curve::Point(p) => values.extend(p.iter()),
        Curve::Segment(ends) => values.extend(ends.iter().flat_map(|p| p.iter())),
        Curve::Circle(c) => {
            values.extend(c.centre.iter().chain(c.axis.iter()));
            values.push(&c.radius);
        }
    }
    values
}

/// The torus's circle C against K: the ring elements every decision uses.
#[derive(Clone, Debug, PartialEq)]
struct Setup<S: Scalar> {
    param: Param<S>,
    /// |w|² + R² (w = X − c): d(X, C)² = a − √m.
    a: Rad<S>,
    /// m = 4R²B̃/k.
    m: Rad<S>,
    /// π = k·w − (w·n)·n (∝ the direction from the axis to X), and k·B̃ = |π|².
    pi: RVec<S>,
    kb: Rad<S>,
}

impl<S: Scalar> Setup<S> {
    fn new(circle: &Circle<S>, curve: &Curve<S>) -> Result<Self, RoundError> {
        let param = Param::of(curve)?;
        let s = &param.s;
        let w = param.offset(&circle.centre);
        let n = rconst(&circle.axis);
        let k = dot3(&circle.axis, &circle.axis);
        let r2 = circle.radius.clone() * circle.radius.clone();
        let ww = rdot(&w, &w, s);
        let wn = rdot(&w, &n, s);
        let bt = ww.scale(&k).sub(&wn.mul(&wn, s));
        let a = ww.add(&Rad::constant(r2.clone()));
        let four = S::from_i64(4);
        let m = bt.scale(&(four * r2 / k.clone()));
        let pi: RVec<S> = std::array::from_fn(|i| w[i].scale(&k).sub(&wn.scale(&circle.axis[i])));
        let kb = bt.scale(&k);
        Ok(Setup { param, a, m, pi, kb })
    }

    /// The stationary condition of d(X, C)² along K (squared), or `None` for a point.
    fn stationary(&self, circle: &Circle<S>, curve: &Curve<S>) -> Option<Rad<S>> {
        let s = &self.param.s;
        let t: RVec<S> = match curve {
            Curve::Point(_) => return None,
            Curve::Segment(_) => rconst(&self.param.du),
            Curve::Circle(k) => {
                let (na, nb) = (cross3(&k.axis, &self.param.du), cross3(&k.axis, &self.param.dv));
                std::array::from_fn(|i| Rad {
                    e0: Poly::from_coeffs(vec![S::zero(), na[i].clone()]),
                    e1: Poly::from_coeffs(vec![nb[i].clone()]),
                })
            }
        };
        let w = self.param.offset(&circle.centre);
        let r2 = circle.radius.clone() * circle.radius.clone();
        let wt = rdot(&w, &t, s);
        let pt = rdot(&self.pi, &t, s);
        // k(w·T)²B̃ − R²(π·T)², kB̃ being `kb`.
        Some(wt.mul(&wt, s).mul(&self.kb, s).sub(&pt.mul(&pt, s).scale(&r2)))
    }
}

/// The distance of a torus's circle to another core, as candidates (see the module's docs).
#[derive(Clone, Debug, PartialEq)]
pub struct TorusDistance<S: RootScalar> {
    /// Separated, touching or penetrating: d(cores) against ρ = r_a + r_b, exactly.
    pub status: Status,
    /// ρ: the sum of the radii.
    pub radii: S,
    /// The points of K where d(X, C)² may be least: the least over them is d(cores)².
    pub candidates: Vec<Candidate<S>>,
    /// The index of a candidate that realises d(cores)² (the least by value; exactly one that
    /// touches, when touching).
    pub best: usize,
    /// The stationary polynomial in u whose roots gave the candidates (zero for a point).
    pub polynomial: Poly<S>,
    circle: Circle<S>,
    curve: Curve<S>,
    setup: Setup<S>,
    /// On inexact backends, each candidate's point polished by a local search of d(X, C)²
    /// along K (a root of the candidates' polynomials may be multiple, hence inaccurate in
    /// floats; the least of a smooth function is not).
    polished: Vec<Option<[f64; 3]>>,
}

fn poly_error(e: PolyError) -> RoundError {
    match e {
        PolyError::Uncertain(u) => RoundError::Uncertain(u),
        e => RoundError::Poly("a torus's distance", e),
    }
}

/// The real roots of `p` in `[lo, hi]` (none if `p` is zero).
fn roots<S: RootScalar>(p: &Poly<S>, lo: &S, hi: &S) -> Result<Vec<S::Time>, PolyError> {
    if TPoly::input(p.clone()).is_zero()? {
        return Ok(Vec::new());
    }
    S::roots_in(p, lo, hi)
}

/// The torus's circle `circle` against the core `curve`, the radii summing to `radii`: the
/// status and the candidates (see the module's docs).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::round::torus::{torus_distance, Circle, Curve};
/// use touchstone::vclip::Status;
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A ball of radius R − r = 2 centred in the hole of the torus R = 3, r = 1 touches it
/// // along a whole circle: ρ = 1 + 2 = d(centre, circle).
/// let c = Circle::new(point(0, 0, 0), Vector3::new(q(0), q(0), q(1)), q(3)).unwrap();
/// let d = torus_distance(&c, &Curve::Point(point(0, 0, 0)), &q(3)).unwrap();
/// assert_eq!(d.status, Status::Touching);
/// ```
///
/// Errors: [`RoundError::Uncertain`] on a filtered backend; [`RoundError::Invalid`] at the
/// polynomial module's limits.
pub fn torus_distance<S: RootScalar>(
    circle: &Circle<S>,
    curve: &Curve<S>,
    radii: &S,
) -> Result<TorusDistance<S>, RoundError> {
    in_quartic_range(pair_values(circle, curve, radii))?;
    let setup = Setup::new(circle, curve)?;
    let s = setup.param.s.clone();
    let mut candidates = Vec::new();
    let stationary = setup.stationary(circle, curve);
    let mut polynomial = Poly::zero();
    match curve {
        Curve::Point(_) => candidates.push(Candidate { u: S::time(&S::zero()), sheet: 0, end: None }),
        Curve::Segment(_) => {
            let (zero, one) = (S::zero(), S::one());
            candidates.push(Candidate { u: S::time(&zero), sheet: 0, end: Some(0) });
            candidates.push(Candidate { u: S::time(&one), sheet: 0, end: Some(1) });
            if !S::CERTAIN_DECISIONS {
                for j in 1..16 {
                    let u = S::from_rational(&BigRational::new(j.into(), 16.into()));
                    candidates.push(Candidate { u: S::time(&u), sheet: 0, end: None });
                }
            }
            let h = stationary.map(|h| h.e0).unwrap_or_else(Poly::zero);
            // On C's axis (B̃ ≡ 0) the stationary points are those of |w|²: the roots of w·T.
            let w = setup.param.offset(&circle.centre);
            let wt = rdot(&w, &rconst(&setup.param.du), &s).e0;
            for p in [&h, &setup.kb.e0, &wt] {
                for u in roots(p, &zero, &one).map_err(poly_error)? {
                    candidates.push(Candidate { u, sheet: 0, end: None });
                }
            }
            polynomial = h;
        }
        Curve::Circle(k) => {
            let h = stationary.map(|h| h.norm(&s)).unwrap_or_else(Poly::zero);
            // |u| ≤ R′/√α ≤ R′(1 + 1/α).
            let alpha = dot3(&setup.param.du, &setup.param.du);
            let bound = k.radius.clone() * (S::one() + S::one() / alpha) + S::one();
            let ev = Eval { s: &s };
            let mut us = Vec::new();
            for p in [&h, &setup.kb.norm(&s)] {
                us.extend(roots(p, &-bound.clone(), &bound).map_err(poly_error)?);
            }
            // u = 0 always (a point of K on both sheets: the least when every point is
            // stationary, and never no candidate at all); on inexact backends, whose root
            // finders may lose a multiple root, samples of K too (each polished below).
            us.push(S::time(&S::zero()));
            if !S::CERTAIN_DECISIONS {
                let end = k.radius.to_f64() / alpha_f64(&setup.param.du);
                for j in 1..16 {
                    let u = end * (std::f64::consts::PI * f64::from(j) / 16.0).cos();
                    us.push(S::time(&S::from_rational(&crate::scalar::rational_of_f64(u).unwrap_or_default())));
                }
            }
            for u in us {
                let probe = Candidate { u: u.clone(), sheet: 1, end: None };
                match ev.poly_sign(&s, &probe).map_err(poly_error)? {
                    Sign::Negative => {}
                    Sign::Zero => candidates.push(probe),
                    Sign::Positive => {
                        candidates.push(probe);
                        candidates.push(Candidate { u, sheet: -1, end: None });
                    }
                }
            }
            polynomial = h;
        }
    }
    let r2 = radii.clone() * radii.clone();
    let mut d = TorusDistance {
        status: Status::Separated,
        radii: radii.clone(),
        candidates,
        best: 0,
        polynomial,
        circle: circle.clone(),
        curve: curve.clone(),
        setup,
        polished: Vec::new(),
    };
    if !S::CERTAIN_DECISIONS {
        d.polished = (0..d.candidates.len()).map(|i| d.polish(i)).collect();
    }
    // On exact backends a candidate's enclosure decides its sign when it excludes ρ²; the
    // exact sign otherwise.
    let filter = ExactTorus::of(&d);
    let rho2 = r2.to_rational();
    let ev = Eval { s: &s };
    let mut signs = Vec::with_capacity(d.candidates.len());
    for (i, c) in d.candidates.iter().enumerate() {
        if !S::CERTAIN_DECISIONS {
            // A backend with a tolerance evaluates d(X, C)² − ρ² at the candidate's point
            // directly, against its own magnitude (the exact route's squared norms would
            // multiply the magnitudes and drown a small gap in the tolerance).
            signs.push(d.direct_gap_sign(i, &r2).map_err(RoundError::Uncertain)?);
            continue;
        }
        if let (Some(f), Some(rho2)) = (&filter, &rho2) {
            let mut decided = None;
            for bits in [64, 256] {
                let (lo, hi) = f.candidate_enclosure(i, bits).map_err(poly_error)?;
                if &lo > rho2 {
                    decided = Some(Sign::Positive);
                } else if &hi < rho2 {
                    decided = Some(Sign::Negative);
                }
                if decided.is_some() {
                    break;
                }
            }
            if let Some(sign) = decided {
                signs.push(sign);
                continue;
            }
        }
        signs.push(gap_sign(&ev, &d.setup, &r2, c).map_err(poly_error)?);
    }
    let status = if signs.contains(&Sign::Negative) {
        Status::Penetrating
    } else if signs.contains(&Sign::Zero) {
        Status::Touching
    } else {
        Status::Separated
    };
    d.status = status;
    d.best = match status {
        Status::Touching => signs.iter().position(|s| *s == Sign::Zero).unwrap_or(0),
        _ => d.least_by_value(),
    };
    Ok(d)
}

/// The sign of d(X, C)² − q at a candidate: (a − q) − √m.
fn gap_sign<S: RootScalar>(ev: &Eval<S>, setup: &Setup<S>, q: &S, c: &Candidate<S>) -> Result<Sign, PolyError> {
    let b = setup.a.sub(&Rad::constant(q.clone()));
    ev.sign_sqrt(&b, &Rad::constant(-S::one()), &setup.m, c)
}

impl<S: RootScalar> TorusDistance<S> {
    /// d(X, C)² at candidate `i`, approximately (for choosing among candidates).
    fn value_f64(&self, i: usize) -> f64 {
        self.distance2_f64(&self.point_at_f64(i))
    }

    /// d(x, C)² in floats.
    fn distance2_f64(&self, x: &[f64; 3]) -> f64 {
        let c = &self.circle;
        let f = |v: &S| v.to_f64();
        let w: [f64; 3] = std::array::from_fn(|j| x[j] - f(&c.centre[j]));
        let n: [f64; 3] = std::array::from_fn(|j| f(&c.axis[j]));
        // (ρ − R)² + h², ρ = |w × n|/√k from the axis and h = w·n/√k along it: no
        // cancellation (|w|² − (w·n)²/k would lose half the digits of ρ near the axis, and
        // |w|² + R² − 2Rρ all of d² near C).
        let k: f64 = n.iter().map(|v| v * v).sum();
        let cross = [w[1] * n[2] - w[2] * n[1], w[2] * n[0] - w[0] * n[2], w[0] * n[1] - w[1] * n[0]];
        let rho = (cross.iter().map(|v| v * v).sum::<f64>() / k).sqrt();
        let wn: f64 = (0..3).map(|j| w[j] * n[j]).sum();
        let along = rho - f(&c.radius);
        along * along + wn * wn / k
    }

    /// Candidate `i`'s point moved to the least of d(X, C)² along K nearby (a golden-section
    /// search over 1/16 of the segment either way, or a quarter radian of the circle's angle:
    /// a candidate's neighbour among the samples brackets a least value the roots missed;
    /// moving only ever lowers the value, to another point of K).
    fn polish(&self, i: usize) -> Option<[f64; 3]> {
        let f = |v: &S| v.to_f64();
        let x0 = self.point_at_f64(i);
        let golden = |lo: f64, hi: f64, at: &dyn Fn(f64) -> [f64; 3]| -> [f64; 3] {
            let g = |t: f64| self.distance2_f64(&at(t));
            let (mut a, mut b) = (lo, hi);
            for _ in 0..80 {
                let m1 = b - (b - a) * 0.618_033_988_749_895;
                let m2 = a + (b - a) * 0.618_033_988_749_895;
                if g(m1) < g(m2) {
                    b = m2;
                } else {
                    a = m1;
                }
            }
            let best = at((a + b) / 2.0);
            if g(0.5 * (lo + hi)) < self.distance2_f64(&best) {
                at(0.5 * (lo + hi))
            } else {
                best
            }
        };
        let best = match &self.curve {
            Curve::Point(_) => return None,
            Curve::Segment([a, b]) => {
                let (a, b) = ([f(&a.x), f(&a.y), f(&a.z)], [f(&b.x), f(&b.y), f(&b.z)]);
                let u = S::time_to_f64(&self.candidates[i].u);
                let at = |t: f64| -> [f64; 3] { std::array::from_fn(|j| a[j] + t * (b[j] - a[j])) };
                golden((u - 0.0625).max(0.0), (u + 0.0625).min(1.0), &at)
            }
            Curve::Circle(k) => {
                let p = &self.setup.param;
                let unit = |v: &Vector3<S>| -> [f64; 3] {
                    let v = [f(&v[0]), f(&v[1]), f(&v[2])];
                    let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                    v.map(|x| x / l)
                };
                let (ua, ub) = (unit(&p.du), unit(&p.dv));
                let c = [f(&k.centre.x), f(&k.centre.y), f(&k.centre.z)];
                let r = f(&k.radius);
                let w: [f64; 3] = std::array::from_fn(|j| x0[j] - c[j]);
                let theta = (0..3).map(|j| w[j] * ub[j]).sum::<f64>().atan2((0..3).map(|j| w[j] * ua[j]).sum::<f64>());
                let at =
                    |t: f64| -> [f64; 3] { std::array::from_fn(|j| c[j] + r * (t.cos() * ua[j] + t.sin() * ub[j])) };
                golden(theta - 0.25, theta + 0.25, &at)
            }
        };
        (self.distance2_f64(&best) < self.distance2_f64(&x0)).then_some(best)
    }

    /// The sign of d(X, C)² − r2 at candidate `i` evaluated in floats, under the tolerance
    /// of its magnitude |w|² + R² + r2 (inexact backends only).
    fn direct_gap_sign(&self, i: usize, r2: &S) -> crate::scalar::Decision<Sign> {
        let x = self.point_at_f64(i);
        let c = &self.circle;
        let f = |v: &S| v.to_f64();
        let w: [f64; 3] = std::array::from_fn(|j| x[j] - f(&c.centre[j]));
        let ww: f64 = w.iter().map(|v| v * v).sum();
        let rr = f(&c.radius);
        let value = self.distance2_f64(&x) - f(r2);
        let magnitude = ww + rr * rr + f(r2);
        let to = |v: f64| S::from_rational(&crate::scalar::rational_of_f64(v).unwrap_or_default());
        to(value).sign_scaled(|| to(magnitude))
    }

    /// Candidate `i`'s point of K in floats (polished, on inexact backends).
    fn point_at_f64(&self, i: usize) -> [f64; 3] {
        if let Some(Some(p)) = self.polished.get(i) {
            return *p;
        }
        let c = &self.candidates[i];
        let u = S::time_to_f64(&c.u);
        let p = &self.setup.param;
        let f = |x: &Poly<S>| -> f64 { x.coeffs().iter().rev().fold(0.0, |acc, y| acc * u + y.to_f64()) };
        let root = f(&p.s).max(0.0).sqrt() * f64::from(c.sheet);
        std::array::from_fn(|j| p.x0[j].to_f64() + u * p.du[j].to_f64() + root * p.dv[j].to_f64())
    }

    fn least_by_value(&self) -> usize {
        (0..self.candidates.len()).min_by(|&i, &j| self.value_f64(i).total_cmp(&self.value_f64(j))).unwrap_or(0)
    }

    /// d(cores)², approximately (the least candidate's value as a float).
    pub fn cores_squared_f64(&self) -> f64 {
        self.value_f64(self.best).max(0.0)
    }

    /// The closest point of K (the realising candidate's point), approximately.
    pub fn point_f64(&self) -> [f64; 3] {
        self.point_at_f64(self.best)
    }

    /// The circle C and the curve K this distance is of.
    pub fn cores(&self) -> (&Circle<S>, &Curve<S>) {
        (&self.circle, &self.curve)
    }
}

/// A value of a torus's distance, compared exactly with rationals: d(cores)², the distance
/// max(0, d(cores) − ρ), or the depth ρ − d(cores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TorusValue {
    /// d(cores)².
    CoresSquared,
    /// The distance of the shapes (0 unless separated).
    Distance,
    /// ρ − d(cores) (0 unless penetrating).
    Depth,
}

/// The exact form of a [`TorusDistance`] on the reference backend: its values to any number
/// of digits, and the exact coordinates of the cores' closest points.
#[derive(Clone, Debug)]
pub struct ExactTorus {
    d: TorusDistance<BigRational>,
}

impl ExactTorus {
    /// The exact form of `d`, from a backend with exact values; `None` for one without.
    pub fn of<S: RootScalar>(d: &TorusDistance<S>) -> Option<Self> {
        if !S::EXACT_VALUES {
            return None;
        }
        let conv = |p: &Poly<S>| -> Option<Poly<BigRational>> {
            Some(Poly::from_coeffs(p.coeffs().iter().map(|c| c.to_rational()).collect::<Option<Vec<_>>>()?))
        };
        let q = |x: &S| x.to_rational();
        let pt = |p: &Point3<S>| Some(Point3::new(q(&p.x)?, q(&p.y)?, q(&p.z)?));
        let vc = |v: &Vector3<S>| Some(Vector3::new(q(&v[0])?, q(&v[1])?, q(&v[2])?));
        let circle = |c: &Circle<S>| Some(Circle { centre: pt(&c.centre)?, axis: vc(&c.axis)?, radius: q(&c.radius)? });
        let curve = match &d.curve {
            Curve::Point(p) => Curve::Point(pt(p)?),
            Curve::Segment([a, b]) => Curve::Segment([pt(a)?, pt(b)?]),
            Curve::Circle(c) => Curve::Circle(circle(c)?),
        };
        let c0 = circle(&d.circle)?;
        let setup = Setup::new(&c0, &curve).ok()?;
        let candidates = d
            .candidates
            .iter()
            .map(|c| match S::time_output(&c.u) {
                TimeOutput::Exact(u) => Some(Candidate { u, sheet: c.sheet, end: c.end }),
                TimeOutput::Float(_) => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(ExactTorus {
            d: TorusDistance {
                status: d.status,
                radii: q(&d.radii)?,
                candidates,
                best: d.best,
                polynomial: conv(&d.polynomial)?,
                circle: c0,
                curve,
                setup,
                polished: Vec::new(),
            },
        })
    }

    /// The distance on the reference backend.
    pub fn distance(&self) -> &TorusDistance<BigRational> {
        &self.d
    }

    fn eval(&self) -> Eval<'_, BigRational> {
        Eval { s: &self.d.setup.param.s }
    }

    /// d(cores)² against `q`, exactly: the least over the candidates.
    pub fn compare_squared(&self, q: &BigRational) -> Result<Ordering, PolyError> {
        self.compare_squared_with(q, None)
    }

    /// As [`ExactTorus::compare_squared`], each candidate's enclosure in `encl` (when given)
    /// deciding where it excludes `q`.
    fn compare_squared_with(&self, q: &BigRational, encl: Option<&[Iv]>) -> Result<Ordering, PolyError> {
        let ev = self.eval();
        let mut zero = false;
        for (i, c) in self.d.candidates.iter().enumerate() {
            if let Some((lo, hi)) = encl.and_then(|e| e.get(i)) {
                if lo > q {
                    continue;
                }
                if hi < q {
                    return Ok(Ordering::Less);
                }
            }
            match gap_sign(&ev, &self.d.setup, q, c)? {
                Sign::Negative => return Ok(Ordering::Less),
                Sign::Zero => zero = true,
                Sign::Positive => {}
            }
        }
        Ok(if zero { Ordering::Equal } else { Ordering::Greater })
    }

    /// d(cores)² against x + y√g (g ≥ 0), exactly: the least over the candidates. Claimed
    /// points are judged by it: the distance between two rational points is √g.
    ///
    /// At a candidate d(X, C)² = a − √m, so the sign of a − x − √m − y√g is the sign of a
    /// sum of P = a − x − √m (decided as [`ExactTorus::compare_squared`] decides) and −y√g;
    /// where they differ, of P² − y²g = (a − x)² + m − y²g − 2(a − x)√m, one more square root
    /// of the same kind.
    pub fn compare_squared_surd(
        &self,
        x: &BigRational,
        y: &BigRational,
        g: &BigRational,
    ) -> Result<Ordering, PolyError> {
        if y.is_zero() || g.is_zero() {
            return self.compare_squared(x);
        }
        let ev = self.eval();
        let setup = &self.d.setup;
        let s = ev.s;
        let p = setup.a.sub(&Rad::constant(x.clone()));
        let minus_one = Rad::constant(-BigRational::one());
        let sy = if y.is_positive() { Sign::Negative } else { Sign::Positive };
        let mut zero = false;
        for c in &self.d.candidates {
            let sp = ev.sign_sqrt(&p, &minus_one, &setup.m, c)?;
            let sign = combine(sp, sy, || {
                let base = p.mul(&p, s).add(&setup.m).sub(&Rad::constant(y * y * g));
                ev.sign_sqrt(&base, &p.scale(&BigRational::from_integer((-2).into())), &setup.m, c)
            })?;
            match sign {
                Sign::Negative => return Ok(Ordering::Less),
                Sign::Zero => zero = true,
                Sign::Positive => {}
            }
        }
        Ok(if zero { Ordering::Equal } else { Ordering::Greater })
    }

    /// `value` against `q`, exactly.
    pub fn compare(&self, value: TorusValue, q: &BigRational) -> Result<Ordering, PolyError> {
        self.compare_with(value, q, None)
    }

    fn compare_with(&self, value: TorusValue, q: &BigRational, encl: Option<&[Iv]>) -> Result<Ordering, PolyError> {
        let rho = &self.d.radii;
        match value {
            TorusValue::CoresSquared => self.compare_squared_with(q, encl),
            TorusValue::Distance => {
                if self.d.status != Status::Separated {
                    return Ok(BigRational::zero().cmp(q));
                }
                // max(0, √c − ρ) vs q ≥ 0 ⇔ c vs (q + ρ)².
                if q.is_negative() {
                    return Ok(Ordering::Greater);
                }
                let x = q + rho;
                self.compare_squared_with(&(&x * &x), encl)
            }
            TorusValue::Depth => {
                if self.d.status != Status::Penetrating {
                    return Ok(BigRational::zero().cmp(q));
                }
                // ρ − √c vs q, for 0 ≤ q ≤ ρ: ⇔ (ρ − q)² vs c.
                if q.is_negative() {
                    return Ok(Ordering::Greater);
                }
                if q > rho {
                    return Ok(Ordering::Less);
                }
                let x = rho - q;
                Ok(self.compare_squared_with(&(&x * &x), encl)?.reverse())
            }
        }
    }

    /// `value` to `digits` significant digits, truncated toward zero (the conventions of
    /// [`crate::scalar::decimal_of_rational`]): each digit found by exact comparisons.
    ///
    /// Errors: the polynomial module's limits, a spent budget.
    pub fn decimal(&self, value: TorusValue, digits: u32) -> Result<String, PolyError> {
        let estimate = match value {
            TorusValue::CoresSquared => self.d.cores_squared_f64(),
            TorusValue::Distance => self.d.cores_squared_f64().sqrt() - self.d.radii.to_f64(),
            TorusValue::Depth => self.d.radii.to_f64() - self.d.cores_squared_f64().sqrt(),
        };
        let rho = &self.d.radii;
        match (value, self.d.status) {
            (TorusValue::Distance, Status::Touching | Status::Penetrating)
            | (TorusValue::Depth, Status::Touching | Status::Separated) => return Ok("0".into()),
            (TorusValue::CoresSquared, Status::Touching) => return Ok(decimal_of_rational(&(rho * rho), digits)),
            _ => {}
        }
        // Enclosures first: the decimal when both ends of the value's enclosure give it.
        let bits = enclosure_bits(digits);
        let encl = self.enclosures(bits)?;
        let lo = encl.iter().map(|e| e.0.clone()).min().unwrap_or_default().max(BigRational::zero());
        let hi = encl.iter().map(|e| e.1.clone()).min().unwrap_or_default().max(BigRational::zero());
        let root = |x: &BigRational| iv_sqrt(&(x.clone(), x.clone()), bits);
        let (vlo, vhi) = match value {
            TorusValue::CoresSquared => (lo, hi),
            TorusValue::Distance => (root(&lo).0 - rho, root(&hi).1 - rho),
            TorusValue::Depth => (rho - root(&hi).1, rho - root(&lo).0),
        };
        if let Some(text) = same_decimal(&vlo, &vhi, digits) {
            return Ok(text);
        }
        decimal_by(|q| self.compare_with(value, q, Some(&encl)), estimate, digits)
    }

    /// Every candidate's enclosure at `bits`.
    fn enclosures(&self, bits: u32) -> Result<Vec<Iv>, PolyError> {
        (0..self.d.candidates.len()).map(|i| self.candidate_enclosure(i, bits)).collect()
    }

    /// An enclosure of a coordinate of the closest point of C (`core` 0) or K (1), or `None`
    /// where it cannot be had (K's point on C's axis).
    fn point_enclosure(&self, core: usize, axis: usize, bits: u32) -> Result<Option<Iv>, PolyError> {
        let d = &self.d;
        let rad = self.at_candidate(d.best, bits)?;
        let p = &d.setup.param;
        if core == 1 {
            let x = Rad {
                e0: Poly::from_coeffs(vec![p.x0[axis].clone(), p.du[axis].clone()]),
                e1: Poly::from_coeffs(vec![p.dv[axis].clone()]),
            };
            return Ok(Some(rad(&x)));
        }
        let kb = iv_sqrt(&rad(&d.setup.kb), bits);
        if !kb.0.is_positive() {
            return Ok(None);
        }
        let pi = rad(&d.setup.pi[axis]);
        let inv = (kb.1.recip(), kb.0.recip());
        let r = &d.circle.radius;
        let t = iv_mul(&pi, &inv);
        let c0 = &d.circle.centre[axis];
        Ok(Some((c0 + r * &t.0, c0 + r * &t.1)))
    }

    /// A coordinate of the closest point of K (`core` 1) or of C (`core` 0) against `q`.
    pub fn compare_point(&self, core: usize, axis: usize, q: &BigRational) -> Result<Ordering, PolyError> {
        let d = &self.d;
        let c = &d.candidates[d.best];
        let ev = self.eval();
        let p = &d.setup.param;
        let x = Rad {
            e0: Poly::from_coeffs(vec![&p.x0[axis] - q, p.du[axis].clone()]),
            e1: Poly::from_coeffs(vec![p.dv[axis].clone()]),
        };
        let sign = if core == 1 {
            ev.sign(&x, c)?
        } else if ev.sign(&d.setup.kb, c)? == Sign::Zero {
            // K's point on C's axis: every point of C is closest; the one towards a ⊥ n.
            let (a, alpha) = perpendicular(&d.circle.axis);
            let b = Rad::constant(&d.circle.centre[axis] - q);
            ev.sign_sqrt(&Rad::constant(&d.circle.radius * &a[axis]), &b, &Rad::constant(alpha), c)?
        } else {
            // c_i + R·π_i/√(kB̃) − q: the sign of (c_i − q)√(kB̃) + R·π_i.
            let b = Rad::constant(&d.circle.centre[axis] - q);
            let pi = d.setup.pi[axis].scale(&d.circle.radius);
            ev.sign_sqrt(&pi, &b, &d.setup.kb, c)?
        };
        Ok(match sign {
            Sign::Positive => Ordering::Greater,
            Sign::Zero => Ordering::Equal,
            Sign::Negative => Ordering::Less,
        })
    }

    /// The closest points of C (0) and K (1), each coordinate to `digits`.
    ///
    /// Errors: as [`ExactTorus::decimal`].
    pub fn points(&self, digits: u32) -> Result<[[String; 3]; 2], PolyError> {
        let estimate = self.points_f64();
        let mut out: [[String; 3]; 2] = Default::default();
        for (core, row) in out.iter_mut().enumerate() {
            for (axis, cell) in row.iter_mut().enumerate() {
                let bits = enclosure_bits(digits);
                if let Some((lo, hi)) = self.point_enclosure(core, axis, bits)? {
                    if let Some(text) = same_decimal(&lo, &hi, digits) {
                        *cell = text;
                        continue;
                    }
                }
                *cell = decimal_by(|q| self.compare_point(core, axis, q), estimate[core][axis], digits)?;
            }
        }
        Ok(out)
    }

    /// An enclosure of a coordinate of the closest point of C (`core` 0) or K (1), the
    /// realising parameter refined to 2⁻ᵇⁱᵗˢ; where K's point lies on C's axis, C's point
    /// toward the rational perpendicular of the axis (as [`ExactTorus::points`]).
    fn core_enclosure(&self, core: usize, axis: usize, bits: u32) -> Result<Option<Iv>, PolyError> {
        if let Some(e) = self.point_enclosure(core, axis, bits)? {
            return Ok(Some(e));
        }
        let d = &self.d;
        if self.eval().sign(&d.setup.kb, &d.candidates[d.best])? != Sign::Zero {
            return Ok(None);
        }
        let (a, alpha) = perpendicular(&d.circle.axis);
        let len = iv_sqrt(&(alpha.clone(), alpha), bits);
        if !len.0.is_positive() {
            // |a|² below 2⁻²ᵇⁱᵗˢ (an axis of length 10⁻¹⁰⁰): its root's enclosure reaches 0,
            // whose reciprocal panicked; the caller asks again with more bits.
            return Ok(None);
        }
        let t = iv_mul(&(a[axis].clone(), a[axis].clone()), &(len.1.recip(), len.0.recip()));
        let (c0, r) = (&d.circle.centre[axis], &d.circle.radius);
        Ok(Some((c0 + r * &t.0, c0 + r * &t.1)))
    }

    /// The shapes' own points: C's torus's (0, minor radius `r_c`) and K's shape's (1, radius
    /// `r_k`), each at its core's closest point moved by its radius along the line between
    /// the cores' closest points, toward the other: the closest points of separated or
    /// touching shapes, each shape's deepest point along that line for penetrating ones;
    /// where the cores meet, their common point twice (K's, as [`ExactTorus::points`]).
    ///
    /// Each coordinate comes from an enclosure: `digits` significant digits truncated toward
    /// zero where both its ends agree; else, once the enclosure is narrower than
    /// 10^−(digits+4) of the scale (1 + the largest |coordinate| of the core points), the
    /// `digits`-digit decimal it straddles (exact when the value is that decimal), or `"0"`
    /// where it holds 0.
    ///
    /// Errors: the comparisons'; [`PolyError::NumberTooLarge`] where no enclosure within the
    /// module's size limits separates the cores.
    pub fn surface_points(
        &self,
        r_c: &BigRational,
        r_k: &BigRational,
        digits: u32,
    ) -> Result<[[String; 3]; 2], PolyError> {
        if self.compare_squared(&BigRational::zero())? == Ordering::Equal {
            let [_, k] = self.points(digits)?;
            return Ok([k.clone(), k]);
        }
        let ten = BigRational::from_integer(BigInt::from(10).pow(digits + 4));
        let mut bits = enclosure_bits(digits) + 16;
        loop {
            if u64::from(bits) > crate::poly::MAX_COEFF_BITS {
                return Err(PolyError::NumberTooLarge { what: "width", bits: u64::from(bits) });
            }
            let next = bits.saturating_mul(2);
            let mut cores: Vec<Vec<Iv>> = Vec::with_capacity(2);
            for core in 0..2 {
                let mut row = Vec::with_capacity(3);
                for axis in 0..3 {
                    match self.core_enclosure(core, axis, bits)? {
                        Some(e) => row.push(e),
                        None => break,
                    }
                }
                cores.push(row);
            }
            if cores.iter().any(|r| r.len() < 3) {
                bits = next;
                continue;
            }
            // The scale: 1 + the largest |coordinate| of either core point.
            let scale = cores
                .iter()
                .flatten()
                .fold(BigRational::one(), |m, x| m.max(BigRational::one() + Signed::abs(&x.0).max(Signed::abs(&x.1))));
            let delta: Vec<Iv> =
                (0..3).map(|i| (&cores[1][i].0 - &cores[0][i].1, &cores[1][i].1 - &cores[0][i].0)).collect();
            let squared = delta.iter().fold((BigRational::zero(), BigRational::zero()), |acc, x| {
                let (a, b) = (Signed::abs(&x.0), Signed::abs(&x.1));
                let lo =
                    if x.0.is_positive() || x.1.is_negative() { a.clone().min(b.clone()) } else { BigRational::zero() };
                let hi = a.max(b);
                (acc.0 + &lo * &lo, acc.1 + &hi * &hi)
            });
            let len = iv_sqrt(&squared, bits);
            if !len.0.is_positive() {
                bits = next;
                continue;
            }
            let inv = (len.1.recip(), len.0.recip());
            let mut out: [[String; 3]; 2] = Default::default();
            let mut done = true;
            for (core, (row, r)) in out.iter_mut().zip([r_c, r_k]).enumerate() {
                for (axis, cell) in row.iter_mut().enumerate() {
                    let step = iv_mul(&delta[axis], &inv);
                    let step = if core == 0 { (r * &step.0, r * &step.1) } else { (-(r * &step.1), -(r * &step.0)) };
                    let x = iv_add(&cores[core][axis], &step);
                    if let Some(text) = same_decimal(&x.0, &x.1, digits) {
                        *cell = text;
                    } else if (&x.1 - &x.0) * &ten <= scale {
                        *cell = if !x.0.is_positive() && !x.1.is_negative() {
                            "0".to_string()
                        } else {
                            decimal_of_rational(if x.0.is_negative() { &x.0 } else { &x.1 }, digits)
                        };
                    } else {
                        done = false;
                    }
                }
            }
            if done {
                return Ok(out);
            }
            bits = next;
        }
    }

    /// The closest points of C (0) and K (1) as floats.
    pub fn points_f64(&self) -> [[f64; 3]; 2] {
        let x = self.d.point_f64();
        let c = &self.d.circle;
        let f = |v: &BigRational| v.to_f64();
        let n = [f(&c.axis[0]), f(&c.axis[1]), f(&c.axis[2])];
        let cc = [f(&c.centre[0]), f(&c.centre[1]), f(&c.centre[2])];
        let w: [f64; 3] = std::array::from_fn(|i| x[i] - cc[i]);
        let k: f64 = n.iter().map(|v| v * v).sum();
        let wn: f64 = (0..3).map(|i| w[i] * n[i]).sum();
        let mut pi: [f64; 3] = std::array::from_fn(|i| k * w[i] - wn * n[i]);
        let len = pi.iter().map(|v| v * v).sum::<f64>().sqrt();
        if len == 0.0 {
            let (a, _) = perpendicular(&c.axis);
            pi = [f(&a[0]), f(&a[1]), f(&a[2])];
        }
        let len = pi.iter().map(|v| v * v).sum::<f64>().sqrt();
        let r = f(&c.radius);
        [std::array::from_fn(|i| cc[i] + r * pi[i] / len), x]
    }
}

/// A closed rational interval [lo, hi].
pub(super) type Iv = (BigRational, BigRational);

fn iv_add(a: &Iv, b: &Iv) -> Iv {
    (&a.0 + &b.0, &a.1 + &b.1)
}

/// The exact numbers an interval's ends are taken from: rationals, and integers (the ends of
/// [`iv_poly`]'s run over one denominator).
trait IvEnd: Sized {
    fn negative(&self) -> bool;
    fn positive(&self) -> bool;
    fn times(&self, o: &Self) -> Self;
    /// self < o.
    fn less(&self, o: &Self) -> bool;
}

impl IvEnd for BigRational {
    fn negative(&self) -> bool {
        self.is_negative()
    }
    fn positive(&self) -> bool {
        self.is_positive()
    }
    fn times(&self, o: &Self) -> Self {
        self * o
    }
    /// By cross-multiplication (`Ratio`'s `cmp` runs a continued fraction with a division per
    /// term); both in lowest terms with positive denominators.
    fn less(&self, o: &Self) -> bool {
        self.numer() * o.denom() < o.numer() * self.denom()
    }
}

impl IvEnd for BigInt {
    fn negative(&self) -> bool {
        self.is_negative()
    }
    fn positive(&self) -> bool {
        self.is_positive()
    }
    fn times(&self, o: &Self) -> Self {
        self * o
    }
    fn less(&self, o: &Self) -> bool {
        self < o
    }
}

/// The product of two exact intervals by the signs of their ends: two products unless both
/// straddle zero.
fn iv_mul_of<T: IvEnd>(a: &(T, T), b: &(T, T)) -> (T, T) {
    let (a_pos, a_neg) = (!a.0.negative(), !a.1.positive()); // a ≥ 0, a ≤ 0
    let (b_pos, b_neg) = (!b.0.negative(), !b.1.positive());
    let m = |x: &T, y: &T| x.times(y);
    match (a_pos, a_neg, b_pos, b_neg) {
        (true, _, true, _) => (m(&a.0, &b.0), m(&a.1, &b.1)),
        (true, _, _, true) => (m(&a.1, &b.0), m(&a.0, &b.1)),
        (_, true, true, _) => (m(&a.0, &b.1), m(&a.1, &b.0)),
        (_, true, _, true) => (m(&a.1, &b.1), m(&a.0, &b.0)),
        (true, _, false, false) => (m(&a.1, &b.0), m(&a.1, &b.1)),
        (_, true, false, false) => (m(&a.0, &b.1), m(&a.0, &b.0)),
        (false, false, true, _) => (m(&a.0, &b.1), m(&a.1, &b.1)),
        (false, false, _, true) => (m(&a.1, &b.0), m(&a.0, &b.0)),
        (false, false, false, false) => {
            let (l1, l2, h1, h2) = (m(&a.0, &b.1), m(&a.1, &b.0), m(&a.0, &b.0), m(&a.1, &b.1));
            let lo = if l2.less(&l1) { l2 } else { l1 };
            let hi = if h1.less(&h2) { h2 } else { h1 };
            (lo, hi)
        }
    }
}

/// The product of two exact rational intervals ([`iv_mul_of`]).
pub(super) fn iv_mul(a: &Iv, b: &Iv) -> Iv {
    iv_mul_of(a, b)
}

/// Horner's scheme on intervals, on integers: p's coefficients times the lcm L of their
/// denominators, the ends of u over one denominator D, so that after k steps the running
/// interval is the rational one times L·Dᵏ (positive factors keep every sign and order, so
/// each step takes the same ends); two reductions at the end instead of a gcd per product and
/// sum. The same interval as the rational run.
fn iv_poly(p: &Poly<BigRational>, u: &Iv) -> Iv {
    let Some((top, rest)) = p.coeffs().split_last() else { return (BigRational::zero(), BigRational::zero()) };
    let l = p.coeffs().iter().fold(BigInt::one(), |l, c| if c.denom().is_one() { l } else { l.lcm(c.denom()) });
    let d = if u.0.denom() == u.1.denom() { u.0.denom().clone() } else { u.0.denom().lcm(u.1.denom()) };
    let ends = (u.0.numer() * (&d / u.0.denom()), u.1.numer() * (&d / u.1.denom()));
    let scaled = |c: &BigRational| -> BigInt {
        if c.denom() == &l {
            c.numer().clone()
        } else {
            c.numer() * (&l / c.denom())
        }
    };
    let t = scaled(top);
    let mut acc = (t.clone(), t);
    let mut power = BigInt::one();
    for c in rest.iter().rev() {
        power *= &d;
        let (lo, hi) = iv_mul_of(&acc, &ends);
        let c = scaled(c) * &power;
        acc = (lo + &c, hi + c);
    }
    let den = l * power;
    (BigRational::new(acc.0, den.clone()), BigRational::new(acc.1, den))
}

/// r / 2ᵇ in lowest terms, r ≥ 0 (the power of two's gcd with r is its trailing zeros).
fn dyadic(r: BigInt, b: usize) -> BigRational {
    let tz = r.trailing_zeros().map_or(0, |z| (z as usize).min(b));
    BigRational::new_raw(r >> tz, BigInt::one() << (b - tz))
}

/// √x to within 2⁻ᵇⁱᵗˢ, outward (x's negative part read as 0): ⌊√⌊v·2²ᵇ⌋⌋ / 2ᵇ below, and
/// (⌊√(⌊v·2²ᵇ⌋ + 1)⌋ + 1) / 2ᵇ above, the floors by integer quotients of the shifted
/// numerators (denominators are positive).
pub(super) fn iv_sqrt(x: &Iv, bits: u32) -> Iv {
    let b = bits as usize;
    let scaled_floor = |v: &BigRational| -> BigInt { (v.numer() << (2 * b)) / v.denom() };
    let lo = if x.0.is_positive() { dyadic(scaled_floor(&x.0).sqrt(), b) } else { BigRational::zero() };
    let hi = if x.1.is_positive() {
        dyadic((scaled_floor(&x.1) + BigInt::one()).sqrt() + BigInt::one(), b)
    } else {
        BigRational::zero()
    };
    (lo, hi)
}

impl ExactTorus {
    /// Enclosures of ring elements at candidate `i`, its parameter refined to 2⁻ᵇⁱᵗˢ.
    fn at_candidate(&self, i: usize, bits: u32) -> Result<impl Fn(&Rad<BigRational>) -> Iv + '_, PolyError> {
        let c = &self.d.candidates[i];
        let mut u = c.u.clone();
        u.refine(&BigRational::new(BigInt::one(), BigInt::one() << bits as usize))?;
        let u: Iv = (u.interval().lo().clone(), u.interval().hi().clone());
        let root = if c.sheet == 0 {
            (BigRational::zero(), BigRational::zero())
        } else {
            let r = iv_sqrt(&iv_poly(&self.d.setup.param.s, &u), bits);
            if c.sheet < 0 {
                (-r.1, -r.0)
            } else {
                r
            }
        };
        Ok(move |r: &Rad<BigRational>| iv_add(&iv_poly(&r.e0, &u), &iv_mul(&root, &iv_poly(&r.e1, &u))))
    }

    /// An enclosure of d(X, C)² at candidate `i`, its parameter refined to 2⁻ᵇⁱᵗˢ.
    fn candidate_enclosure(&self, i: usize, bits: u32) -> Result<Iv, PolyError> {
        let rad = self.at_candidate(i, bits)?;
        let a = rad(&self.d.setup.a);
        let m = iv_sqrt(&rad(&self.d.setup.m), bits);
        Ok((&a.0 - &m.1, &a.1 - &m.0))
    }

    /// An enclosure of d(cores)², the candidates' parameters refined to 2⁻ᵇⁱᵗˢ: the least
    /// of their lower ends, and of their upper ends.
    pub fn enclosure(&self, bits: u32) -> Result<(BigRational, BigRational), PolyError> {
        let mut out: Option<Iv> = None;
        for i in 0..self.d.candidates.len() {
            let e = self.candidate_enclosure(i, bits)?;
            out = Some(match out {
                None => e,
                Some(o) => (o.0.min(e.0), o.1.min(e.1)),
            });
        }
        let (lo, hi) = out.unwrap_or_default();
        Ok((lo.max(BigRational::zero()), hi.max(BigRational::zero())))
    }

    /// A rational ℓ ≤ the distance of the shapes (separated), from an enclosure at `bits`;
    /// `None` when that enclosure cannot show a positive one.
    pub fn distance_lower_bound(&self, bits: u32) -> Result<Option<BigRational>, PolyError> {
        let (lo, _) = self.enclosure(bits)?;
        let l = iv_sqrt(&(lo.clone(), lo), bits).0 - &self.d.radii;
        Ok(l.is_positive().then_some(l))
    }
}

/// √|a|² in floats.
fn alpha_f64<S: Scalar>(a: &Vector3<S>) -> f64 {
    (0..3).map(|i| a[i].to_f64() * a[i].to_f64()).sum::<f64>().sqrt()
}

/// Enough bits for an enclosure to give `digits` digits (with 64 to spare).
fn enclosure_bits(digits: u32) -> u32 {
    digits.saturating_mul(10) / 3 + 64
}

/// The common decimal of both ends of [lo, hi] at `digits` (truncation is monotone, so every
/// number between has it), when they have one.
fn same_decimal(lo: &BigRational, hi: &BigRational, digits: u32) -> Option<String> {
    let a = decimal_of_rational(lo, digits);
    (a == decimal_of_rational(hi, digits)).then_some(a)
}

/// A rational vector a ⊥ n and |a|².
fn perpendicular(n: &Vector3<BigRational>) -> (Vector3<BigRational>, BigRational) {
    let mut j = 0;
    for i in 1..3 {
        if Signed::abs(&n[i]) < Signed::abs(&n[j]) {
            j = i;
        }
    }
    let mut e = Vector3::new(BigRational::zero(), BigRational::zero(), BigRational::zero());
    e[j] = BigRational::one();
    let a = cross3(n, &e);
    let aa = dot3(&a, &a);
    (a, aa)
}

/// The decimal of a real number v known only through exact comparisons with rationals
/// (`cmp(q)` = v against q) and a float estimate: `digits` significant digits, truncated
/// toward zero.
///
/// Errors: the comparison's; [`PolyError::TooManyDigits`] beyond the module's limit.
pub fn decimal_by(
    mut cmp: impl FnMut(&BigRational) -> Result<Ordering, PolyError>,
    estimate: f64,
    digits: u32,
) -> Result<String, PolyError> {
    if digits > crate::poly::MAX_DECIMAL_DIGITS {
        return Err(PolyError::TooManyDigits(digits));
    }
    let digits = digits.max(1);
    let zero = BigRational::zero();
    let negative = match cmp(&zero)? {
        Ordering::Equal => return Ok("0".into()),
        Ordering::Less => true,
        Ordering::Greater => false,
    };
    // |v| against |q|.
    let mut acmp = |q: &BigRational| -> Result<Ordering, PolyError> {
        let o = cmp(&if negative { -q.clone() } else { q.clone() })?;
        Ok(if negative { o.reverse() } else { o })
    };
    let ten = BigRational::from_integer(10.into());
    let pow = |e: i64| -> BigRational {
        let p = num_traits::pow(ten.clone(), e.unsigned_abs() as usize);
        if e < 0 {
            p.recip()
        } else {
            p
        }
    };
    // The exponent: 10^e ≤ |v| < 10^(e+1).
    let est = estimate.abs();
    let mut e: i64 = if est.is_finite() && est > 0.0 { est.log10().floor() as i64 } else { 0 };
    let mut steps = 0;
    loop {
        crate::budget::tick()?;
        steps += 1;
        if steps > 4 * i64::from(crate::poly::MAX_DECIMAL_DIGITS) + 4000 {
            return Err(PolyError::NotIsolating);
        }
        if acmp(&pow(e))? == Ordering::Less {
            e -= 1;
        } else if acmp(&pow(e + 1))? != Ordering::Less {
            e += 1;
        } else {
            break;
        }
    }
    // k = ⌊|v| / ulp⌋ in [10^(n−1), 10^n), by bisection from a bracket about the estimate.
    let ulp = pow(e - i64::from(digits) + 1);
    let full =
        (num_traits::pow(BigInt::from(10), digits as usize - 1), num_traits::pow(BigInt::from(10), digits as usize));
    let (mut lo, mut hi) = full.clone();
    if est.is_finite() && est > 0.0 {
        if let Some(guess) = crate::scalar::rational_of_f64(est).map(|g| (g / &ulp).floor().to_integer()) {
            let slack = (&guess / BigInt::from(1_000_000_000_000i64)).abs() + BigInt::from(2);
            let (a, b): (BigInt, BigInt) = (&guess - &slack, &guess + &slack + BigInt::one());
            let a = a.max(full.0.clone());
            let b = b.min(full.1.clone());
            if a < b
                && acmp(&(BigRational::from_integer(a.clone()) * &ulp))? != Ordering::Less
                && acmp(&(BigRational::from_integer(b.clone()) * &ulp))? == Ordering::Less
            {
                (lo, hi) = (a, b);
            }
        }
    }
    // Invariant: lo·ulp ≤ |v| < hi·ulp.
    while &hi - &lo > BigInt::one() {
        crate::budget::tick()?;
        let mid: BigInt = (&lo + &hi) / 2;
        if acmp(&(BigRational::from_integer(mid.clone()) * &ulp))? == Ordering::Less {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let v = BigRational::from_integer(lo) * ulp;
    Ok(decimal_of_rational(&if negative { -v } else { v }, digits))
}

/// The exact description of a candidate: its parameter's polynomial and isolating interval.
pub fn describe(u: &Algebraic) -> (String, [BigRational; 2]) {
    let iv = u.interval();
    (u.polynomial().to_string(), [iv.lo().clone(), iv.hi().clone()])
}

/// The first contact of a torus's circle at rest and a core `curve` moving by `velocity`
/// over `[t0, t1]`: a certified enclosure of the first time the cores come within `radii`
/// (issue 42 item 3), by root isolation or conservative advancement with exact distance
/// bounds ([`torus_first_contact`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TorusContact<S: Scalar> {
    /// Whether the shapes meet in `[t0, t1]`.
    pub collides: bool,
    /// Where they do: the first contact lies in `[lo, hi]` (`lo = hi` when the contact time is
    /// known exactly, e.g. at t0 or a rational root); no contact before `lo`. By advancement
    /// they meet at `hi`; by a ball's root isolation `[lo, hi]` isolates the root.
    pub interval: [S; 2],
    /// Whether they meet at t0 already.
    pub at_start: bool,
    /// The advancement steps taken.
    pub steps: usize,
}

/// A first-contact question: the torus's circle, the other core moving by `velocity`, the
/// radii's sum, the interval `[t0, t1]` and the enclosure's width.
struct Cast<'a, S: Scalar> {
    circle: &'a Circle<S>,
    curve: &'a Curve<S>,
    radii: &'a S,
    velocity: &'a Vector3<S>,
    t0: &'a S,
    t1: &'a S,
    width: &'a S,
}

impl<S: Scalar> Clone for Cast<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Scalar> Copy for Cast<'_, S> {}

/// The first contact of a ball's centre X(t) = x + v·t with the torus of circle C and radii
/// summing to ρ, apart at t0, by exact root isolation in t (issue 42 item 3: univariate): with
/// w = X − c, L = |w|² + R² − ρ² and B̃ = |w × n|², the shapes meet where
/// g = L − √(4R²B̃/k) ≤ 0, g vanishes exactly where P = kL² − 4R²B̃ = 0 (degree 4 in t) and
/// L ≥ 0, so the first contact is the first such root of P. A grazing contact (the ball
/// touching the tube for an instant) is found as exactly as a crossing one, where advancement
/// would creep toward it forever. `None` where P vanishes identically (advancement then).
fn point_first_contact<S: RootScalar>(q: &Cast<S>, x: &Point3<S>) -> Result<Option<TorusContact<S>>, RoundError> {
    let Cast { circle, radii, velocity, t0, t1, width, .. } = *q;
    let line = |a: &S, b: &S| TPoly::input(Poly::from_coeffs(vec![a.clone(), b.clone()]));
    let constant = |a: S| TPoly::input(Poly::from_coeffs(vec![a]));
    let n = &circle.axis;
    let w: Vec<TPoly<S>> = (0..3).map(|i| line(&(x[i].clone() - circle.centre[i].clone()), &velocity[i])).collect();
    let cross = |i: usize, j: usize| w[i].clone() * constant(n[j].clone()) - w[j].clone() * constant(n[i].clone());
    let c = [cross(1, 2), cross(2, 0), cross(0, 1)];
    let sq = |v: &[TPoly<S>]| v.iter().fold(TPoly::zero(), |acc, p| acc + p.clone() * p.clone());
    let k = n[0].clone() * n[0].clone() + n[1].clone() * n[1].clone() + n[2].clone() * n[2].clone();
    let r = &circle.radius;
    let l = sq(&w) + constant(r.clone() * r.clone() - radii.clone() * radii.clone());
    let four_r2 = S::from_i64(4) * r.clone() * r.clone();
    let p = constant(k) * l.clone() * l.clone() - constant(four_r2) * sq(&c);
    if p.is_zero().map_err(poly_error)? {
        return Ok(None);
    }
    for root in S::roots_in(&p.p, t0, t1).map_err(poly_error)? {
        if S::sign_at(&l, &root).map_err(poly_error)? == Sign::Negative {
            continue;
        }
        let interval = match S::time_output(&root) {
            TimeOutput::Exact(a) => enclose(a, width)?,
            TimeOutput::Float(f) => {
                let f = S::from_rational(&crate::scalar::rational_of_f64(f).unwrap_or_default());
                [f.clone(), f]
            }
        };
        return Ok(Some(TorusContact { collides: true, interval, at_start: false, steps: 0 }));
    }
    Ok(Some(TorusContact { collides: false, interval: [t1.clone(), t1.clone()], at_start: false, steps: 0 }))
}

/// `[a, a]` for a rational time, else an isolating interval of width at most `width`.
fn enclose<S: Scalar>(mut a: Algebraic, width: &S) -> Result<[S; 2], RoundError> {
    Ok(match a.to_rational() {
        Some(q) => [S::from_rational(&q), S::from_rational(&q)],
        None => {
            let w = width.to_rational().ok_or_else(|| RoundError::Invalid("the width is not rational".into()))?;
            a.refine(&w).map_err(poly_error)?;
            [S::from_rational(a.interval().lo()), S::from_rational(a.interval().hi())]
        }
    })
}

/// A rational unit vector perpendicular to `n`, found among n × e and the projections of e
/// for the integer vectors e with entries in −2..=2: the circles whose planes have one
/// (every axis along a coordinate axis or a Pythagorean direction) have a rational
/// parametrisation, the others none at all (x + y + z = 0 meets the unit sphere in no
/// rational point), and their first contacts fall back to advancement.
fn rational_unit_perpendicular(n: &Vector3<BigRational>) -> Option<Vector3<BigRational>> {
    let root = |x: &BigInt| -> Option<BigInt> {
        let r = x.sqrt();
        (&r * &r == *x).then_some(r)
    };
    let k = dot3(n, n);
    for i in 0..125i64 {
        let e = Vector3::new(
            BigRational::from_integer((i % 5 - 2).into()),
            BigRational::from_integer((i / 5 % 5 - 2).into()),
            BigRational::from_integer((i / 25 - 2).into()),
        );
        let projection = e.map(|x| x * k.clone()) - n.map(|x| x * dot3(&e, n));
        for a in [cross3(n, &e), projection] {
            let aa = dot3(&a, &a);
            if aa.is_zero() {
                continue;
            }
            if let (Some(p), Some(q)) = (root(aa.numer()), root(aa.denom())) {
                let norm = BigRational::new(p, q);
                return Some(a.map(|x| x / norm.clone()));
            }
        }
    }
    None
}

/// A moving curve's points X = c + m + rim/D relative to a torus's centre c: m(t) the moving
/// offset of the curve's centre or start, rim(u) the curve's own part over a denominator D(u)
/// (1 for a segment), and |rim|²/D, a polynomial (R′²·D for a circle).
struct Moving<T> {
    m: [T; 3],
    rim: [T; 3],
    d: T,
    rim2_over_d: T,
}

/// f(u, t) = P(X)·D² for the torus quartic P(X) = k·L² − 4R²·|w × n|² of the circle C and
/// radius ρ (w = X − c, L = |w|² + R² − ρ²: P ≤ 0 exactly where d(X, C) ≤ ρ or X lies inside
/// the inner surface, which a curve apart at the start reaches only through P = 0), along the
/// moving curve: with ℓ = L·D = D·(|m|² + R² − ρ²) + 2·m·rim + |rim|²/D and w·D = D·m + rim,
/// f = k·ℓ² − 4R²·|(D·m + rim) × n|², of degree 4 in a circle's parameter (P·D⁴ would carry
/// the square D², which every discriminant then sees).
fn torus_quartic<T>(circle: &Circle<BigRational>, rho: &BigRational, x: &Moving<T>, lift: impl Fn(Bivariate) -> T) -> T
where
    T: Clone + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>,
{
    let c = |x: BigRational| lift(Bivariate::in_t(Poly::constant(x)));
    let n = &circle.axis;
    let r2 = circle.radius.clone() * circle.radius.clone();
    let dot = |a: &[T; 3], b: &[T; 3]| {
        a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
    };
    let w: [T; 3] = std::array::from_fn(|i| x.d.clone() * x.m[i].clone() + x.rim[i].clone());
    let cross = |i: usize, j: usize| w[i].clone() * c(n[j].clone()) - w[j].clone() * c(n[i].clone());
    let wn = [cross(1, 2), cross(2, 0), cross(0, 1)];
    let l = x.d.clone() * (dot(&x.m, &x.m) + c(r2.clone() - rho.clone() * rho.clone()))
        + c(BigRational::from_integer(2.into())) * dot(&x.m, &x.rim)
        + x.rim2_over_d.clone();
    c(dot3(n, n)) * l.clone() * l - c(BigRational::from_integer(4.into()) * r2) * dot(&wn, &wn)
}

/// m(t) = c′ − `centre` + `velocity`·t.
fn moving_offset(
    origin: &Point3<BigRational>,
    velocity: &Vector3<BigRational>,
    centre: &Point3<BigRational>,
) -> [Bivariate; 3] {
    std::array::from_fn(|i| {
        Bivariate::new(vec![Poly::from_coeffs(vec![origin[i].clone() - centre[i].clone(), velocity[i].clone()])])
    })
}

/// The circle's rim R′·((k′ − μ²)·a + 2μ·(n′ × a))/(k′ + μ²) as numerators (times `scale`) and
/// the denominator k′ + μ², for a ⊥ n′ (k′ = |n′|²).
fn rim(k: &Circle<BigRational>, a: &Vector3<BigRational>, scale: &BigRational) -> ([Bivariate; 3], Bivariate) {
    let e = cross3(&k.axis, a);
    let kk = dot3(&k.axis, &k.axis);
    let d = Bivariate::new(vec![Poly::constant(kk.clone()), Poly::zero(), Poly::constant(BigRational::one())]);
    let r = k.radius.clone() * scale.clone();
    let rim = std::array::from_fn(|i| {
        Bivariate::new(vec![
            Poly::constant(r.clone() * kk.clone() * a[i].clone()),
            Poly::constant(BigRational::from_integer(2.into()) * r.clone() * e[i].clone()),
            Poly::constant(-(r.clone() * a[i].clone())),
        ])
    });
    (rim, d)
}

/// The points of the circle `k` moving by `velocity`·t relative to `centre`, with the rational
/// parametrisation μ ↦ c′ + R′·((k′ − μ²)·â + 2μ·(n′ × â))/(k′ + μ²) (â a rational unit vector
/// ⊥ n′, k′ = |n′|²; μ = ∞ is c′ − R′·â).
fn moving_circle(
    k: &Circle<BigRational>,
    velocity: &Vector3<BigRational>,
    centre: &Point3<BigRational>,
) -> Option<Moving<Bivariate>> {
    let a = rational_unit_perpendicular(&k.axis)?;
    let (rim, d) = rim(k, &a, &BigRational::one());
    let r2 = Bivariate::in_t(Poly::constant(k.radius.clone() * k.radius.clone()));
    Some(Moving { m: moving_offset(&k.centre, velocity, centre), rim, rim2_over_d: r2 * d.clone(), d })
}

fn q_int(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

/// The points of the circle `k` moving by `velocity`·t over ℚ(√α), for a circle with no
/// rational point (or any other): a is the shortest integer vector along n′ × e for the first
/// e with entries in −1..=1 where α = |a|² is not a square, and
/// μ ↦ c′ + R′·((k′ − μ²)·a + 2μ·(n′ × a))/(√α·(k′ + μ²)) with 1/√α = √α/α. `None` when every
/// such α is a square.
fn moving_circle_over_root(
    k: &Circle<BigRational>,
    velocity: &Vector3<BigRational>,
    centre: &Point3<BigRational>,
) -> Option<Moving<QuadBivariate>> {
    let shortest = |a: Vector3<BigRational>| -> Option<(Vector3<BigRational>, BigInt)> {
        let l = a.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
        let ints: Vec<BigInt> = a.iter().map(|x| (x * BigRational::from_integer(l.clone())).to_integer()).collect();
        let g = ints.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
        if g.is_zero() {
            return None;
        }
        let a = Vector3::from_fn(|i, _| BigRational::from_integer(&ints[i] / &g));
        let alpha = dot3(&a, &a).to_integer();
        (alpha.sqrt().pow(2) != alpha).then_some((a, alpha))
    };
    let (a, alpha) = (0..27i64).find_map(|i| {
        let e = Vector3::new(q_int(i % 3 - 1), q_int(i / 3 % 3 - 1), q_int(i / 9 - 1));
        shortest(cross3(&k.axis, &e))
    })?;
    let zero = Bivariate::in_t(Poly::zero());
    let field = QuadBivariate::new(zero.clone(), zero, alpha.clone())?;
    let (rim, d) = rim(k, &a, &BigRational::new(BigInt::one(), alpha));
    let r2 = Bivariate::in_t(Poly::constant(k.radius.clone() * k.radius.clone()));
    Some(Moving {
        m: moving_offset(&k.centre, velocity, centre).map(|x| field.rational(x)),
        rim: rim.map(|x| field.root() * field.rational(x)),
        rim2_over_d: field.rational(r2 * d.clone()),
        d: field.rational(d),
    })
}

/// The first contact of a moving segment or circle with the torus of circle C and radii ρ,
/// exactly, on exact backends (issue 42 item 3): the curve meets the solid torus first where
/// the quartic f(u, t) of [`torus_quartic`] along it first has a zero ([`first_zero`]: ends of
/// a segment, new double zeros, a segment resting on the surface along a family of points).
/// A circle needs a rational parametrisation: its own, else the torus's circle is moved by
/// −velocity against it instead. `None` where the route does not apply (inexact backends, a
/// circle pair with no rational parametrisation, an undecided degeneracy): advancement then.
fn curve_first_contact<S: RootScalar>(q: &Cast<S>) -> Result<Option<TorusContact<S>>, RoundError> {
    let Cast { circle, curve, radii, velocity, t0, t1, width } = *q;
    if !S::EXACT_VALUES {
        return Ok(None);
    }
    let rv = |v: &Vector3<S>| -> Option<Vector3<BigRational>> {
        Some(Vector3::new(v[0].to_rational()?, v[1].to_rational()?, v[2].to_rational()?))
    };
    let rp = |p: &Point3<S>| -> Option<Point3<BigRational>> { Some(Point3::from(rv(&p.coords)?)) };
    let rc = |c: &Circle<S>| -> Option<Circle<BigRational>> {
        Some(Circle { centre: rp(&c.centre)?, axis: rv(&c.axis)?, radius: c.radius.to_rational()? })
    };
    let (Some(c), Some(v), Some(rho), Some(lo), Some(hi)) =
        (rc(circle), rv(velocity), radii.to_rational(), t0.to_rational(), t1.to_rational())
    else {
        return Ok(None);
    };
    let (x, range) = match curve {
        Curve::Point(_) => return Ok(None),
        Curve::Segment([p, q]) => {
            let (Some(p), Some(q)) = (rp(p), rp(q)) else { return Ok(None) };
            let one = Bivariate::in_t(Poly::constant(BigRational::one()));
            let rim: [Bivariate; 3] = std::array::from_fn(|i| {
                Bivariate::new(vec![Poly::zero(), Poly::constant(q[i].clone() - p[i].clone())])
            });
            let rim2 = rim.iter().fold(Bivariate::in_t(Poly::zero()), |acc, x| acc + x.clone() * x.clone());
            let x = Moving { m: moving_offset(&p, &v, &c.centre), rim, d: one, rim2_over_d: rim2 };
            (x, URange::Closed(BigRational::zero(), BigRational::one()))
        }
        Curve::Circle(k) => {
            let Some(k) = rc(k) else { return Ok(None) };
            if let Some(x) = moving_circle(&k, &v, &c.centre) {
                (x, URange::Line)
            } else if let Some(x) = moving_circle(&c, &v.map(|x| -x), &k.centre) {
                // The torus's circle moving by −v against the other core, fixed.
                let f = torus_quartic(&k, &rho, &x, |b| b);
                return decide(first_zero(&f, &URange::Line, &lo, &hi), t1, width);
            } else {
                // Neither circle has a rational point: the moving one over ℚ(√α).
                let Some(x) = moving_circle_over_root(&k, &v, &c.centre) else { return Ok(None) };
                let f = torus_quartic(&c, &rho, &x, |b| x.d.rational(b));
                return decide(first_zero_on_line(&f, &lo, &hi), t1, width);
            }
        }
    };
    let f = torus_quartic(&c, &rho, &x, |b| b);
    decide(first_zero(&f, &range, &lo, &hi), t1, width)
}

/// A [`FirstZero`] as a contact (`None` when undecided, or when the numbers pass the root
/// finder's size limits: advancement may still answer, as it did before this route).
fn decide<S: Scalar>(
    z: Result<FirstZero, PolyError>,
    t1: &S,
    width: &S,
) -> Result<Option<TorusContact<S>>, RoundError> {
    let z = match z {
        Ok(z) => z,
        Err(
            PolyError::DegreeTooLarge(_) | PolyError::CoefficientTooLarge { .. } | PolyError::NumberTooLarge { .. },
        ) => return Ok(None),
        Err(e) => return Err(poly_error(e)),
    };
    Ok(match z {
        FirstZero::At(a) => {
            Some(TorusContact { collides: true, interval: enclose(a, width)?, at_start: false, steps: 0 })
        }
        FirstZero::Never => {
            Some(TorusContact { collides: false, interval: [t1.clone(), t1.clone()], at_start: false, steps: 0 })
        }
        FirstZero::Undecided => None,
    })
}

/// A value at most `x` with a 32-bit dyadic mantissa (x itself on inexact backends and
/// where x ≤ 0).
fn short_below<S: Scalar>(x: &S) -> S {
    let Some(q) = x.to_rational().filter(|q| q.is_positive() && S::EXACT_VALUES) else { return x.clone() };
    // 2^e ≤ q: e from the bit lengths, then 32 bits below it.
    let e = q.numer().bits() as i64 - q.denom().bits() as i64 - 1;
    let shift = 32 - e;
    let scale = |k: i64| -> BigRational {
        let p = BigRational::from_integer(BigInt::one() << k.unsigned_abs() as usize);
        if k < 0 {
            p.recip()
        } else {
            p
        }
    };
    let m = (&q * scale(shift)).floor();
    S::from_rational(&(m * scale(-shift)))
}

/// A rational at most `x` (positive) and above x·(1 − 2⁻¹²), from exact comparisons with
/// `cmp` (x against a rational) and the float estimate `estimate`.
fn lower_bound(
    mut cmp: impl FnMut(&BigRational) -> Result<Ordering, PolyError>,
    estimate: f64,
) -> Result<BigRational, PolyError> {
    let below = |o: Ordering| o != Ordering::Less;
    // A power of two 2^e ≤ x, from the estimate down.
    let mut e: i32 = if estimate.is_finite() && estimate > 0.0 { estimate.log2().floor() as i32 + 1 } else { 0 };
    let two = BigRational::from_integer(2.into());
    let pow = |e: i32| -> BigRational {
        let p = num_traits::pow(two.clone(), e.unsigned_abs() as usize);
        if e < 0 {
            p.recip()
        } else {
            p
        }
    };
    let mut steps = 0;
    while !below(cmp(&pow(e))?) {
        crate::budget::tick()?;
        e -= 1;
        steps += 1;
        if steps > 20_000 {
            return Err(PolyError::NotIsolating);
        }
    }
    // Bisect in [2^e, 2^(e+1)) for 12 bits.
    let (mut lo, mut hi) = (pow(e), pow(e + 1));
    for _ in 0..12 {
        let mid = (&lo + &hi) / &two;
        if below(cmp(&mid)?) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// The first contact (see [`TorusContact`]), by the first route that decides:
/// * a ball's centre: the exact roots of a quartic in t (any backend);
/// * a capsule's segment, or a circle with a rational parametrisation (its own or the
///   torus's: every axis along a coordinate axis or a Pythagorean direction), on exact
///   backends: the first zero of the torus quartic along the moving curve
///   ([`crate::poly::first_zero`]), so grazes and contacts held over an interval of time are
///   exact (`steps` 0, a rational time as `[t, t]`);
/// * otherwise conservative advancement ([`torus_first_contact_by_advancement`]): from t = t0,
///   while the shapes are apart by a distance of at least ℓ (exactly, on exact backends), no
///   contact happens before t + ℓ/v with v ≥ |velocity|; at t the shapes meet, or an
///   enclosure `[t, t + width]` is closed when they meet at its end. A graze there creeps
///   until the query's budget runs out.
///
/// `width` > 0 is the enclosure's width asked for.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::round::torus::{torus_first_contact, Circle, Curve};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A ball falling along the torus's axis (R = 3, r = 1) from height 10: its centre is
/// // √(9 + h²) ≥ 3 from the circle. With radius 1 (ρ = 2) it passes through the hole.
/// let c = Circle::new(point(0, 0, 0), Vector3::new(q(0), q(0), q(1)), q(3)).unwrap();
/// let down = Vector3::new(q(0), q(0), q(-1));
/// let hit = torus_first_contact(&c, &Curve::Point(point(0, 0, 10)), &q(2), &down, &q(0), &q(20), &BigRational::new(1.into(), 1000.into())).unwrap();
/// assert!(!hit.collides);
/// // Radius 3 (ρ = 4): contact when 9 + h² = 16, h = √7, at t = 10 − √7 = 7.354…
/// let hit = torus_first_contact(&c, &Curve::Point(point(0, 0, 10)), &q(4), &down, &q(0), &q(20), &BigRational::new(1.into(), 1000.into())).unwrap();
/// assert!(hit.collides);
/// let [lo, hi] = &hit.interval;
/// assert!(*lo <= BigRational::new(7355.into(), 1000.into()) && *hi >= BigRational::new(7354.into(), 1000.into()));
/// ```
///
/// Errors: [`RoundError::Invalid`] for `t0 > t1` or a width that is not positive, a spent
/// budget; as [`torus_distance`].
pub fn torus_first_contact<S: RootScalar>(
    circle: &Circle<S>,
    curve: &Curve<S>,
    radii: &S,
    velocity: &Vector3<S>,
    t0: &S,
    t1: &S,
    width: &S,
) -> Result<TorusContact<S>, RoundError> {
    let q = Cast { circle, curve, radii, velocity, t0, t1, width };
    let first = match start(&q)? {
        Ok(first) => first,
        Err(decided) => return Ok(decided),
    };
    if let Curve::Point(x) = curve {
        if let Some(c) = point_first_contact(&q, x)? {
            return Ok(c);
        }
    } else if let Some(c) = curve_first_contact(&q)? {
        return Ok(c);
    }
    advance(&q, first)
}

/// [`torus_first_contact`] by conservative advancement alone, for every core (the route the
/// exact root isolation is checked against, and the one taken where isolation does not
/// decide: see [`torus_first_contact`]).
///
/// Errors: as [`torus_first_contact`].
pub fn torus_first_contact_by_advancement<S: RootScalar>(
    circle: &Circle<S>,
    curve: &Curve<S>,
    radii: &S,
    velocity: &Vector3<S>,
    t0: &S,
    t1: &S,
    width: &S,
) -> Result<TorusContact<S>, RoundError> {
    let q = Cast { circle, curve, radii, velocity, t0, t1, width };
    match start(&q)? {
        Ok(first) => advance(&q, first),
        Err(decided) => Ok(decided),
    }
}

/// The checks and the start of both routes: the distance at t0 where the shapes are apart
/// and move, else the answer (meeting at t0; never, standing still).
#[allow(clippy::type_complexity)]
fn start<S: RootScalar>(q: &Cast<S>) -> Result<Result<TorusDistance<S>, TorusContact<S>>, RoundError> {
    let Cast { circle, curve, radii, velocity, t0, t1, width } = *q;
    in_quartic_range(pair_values(circle, curve, radii).into_iter().chain(velocity.iter()).chain([t0, t1]))?;
    // Speed × time too (the moved core's coordinates); each is finite and in range here.
    let speed = velocity.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max);
    let time = [t0, t1].iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max);
    if !S::CERTAIN_DECISIONS && speed * time > QUARTIC_RANGE {
        return Err(RoundError::Uncertain(crate::scalar::Uncertain::Overflow));
    }
    if t0.compare(t1)? == Ordering::Greater {
        return Err(RoundError::Invalid("the interval's start is after its end".into()));
    }
    if width.sign()? != Sign::Positive {
        return Err(RoundError::Invalid("the enclosure's width is not positive".into()));
    }
    let d: Vector3<S> = velocity.map(|x| x * t0.clone());
    let first = torus_distance(circle, &curve.translated(&d), radii)?;
    if first.status != Status::Separated {
        return Ok(Err(TorusContact { collides: true, interval: [t0.clone(), t0.clone()], at_start: true, steps: 0 }));
    }
    if (0..3).all(|i| velocity[i].sign() == Ok(Sign::Zero)) {
        return Ok(Err(TorusContact {
            collides: false,
            interval: [t1.clone(), t1.clone()],
            at_start: false,
            steps: 0,
        }));
    }
    Ok(Ok(first))
}

/// The most advancement steps an inexact backend takes before it gives up with a step
/// `limit` (a crossing takes tens; only a graze creeps on).
pub const MAX_FLOAT_STEPS: usize = 10_000;

/// Conservative advancement from t0, where the shapes are apart (`first`).
fn advance<S: RootScalar>(q: &Cast<S>, first: TorusDistance<S>) -> Result<TorusContact<S>, RoundError> {
    let Cast { circle, curve, radii, velocity, t0, t1, width } = *q;
    let vv = dot3(velocity, velocity);
    let at = |t: &S| -> Result<TorusDistance<S>, RoundError> {
        let d: Vector3<S> = velocity.map(|x| x * t.clone());
        torus_distance(circle, &curve.translated(&d), radii)
    };
    let none = |steps| TorusContact { collides: false, interval: [t1.clone(), t1.clone()], at_start: false, steps };
    // v ≥ |velocity|: the float norm a little enlarged where it is finite and its square is
    // checked to be at least |velocity|², else |v_x| + |v_y| + |v_z| (an exact bound whatever
    // the size of the numbers).
    let l1 = velocity[0].abs() + velocity[1].abs() + velocity[2].abs();
    let speed = {
        let f = vv.to_f64().sqrt() * (1.0 + 1e-9);
        match crate::scalar::rational_of_f64(f).filter(|_| f.is_finite() && f > 0.0) {
            Some(r) => {
                let s = S::from_rational(&r);
                if (s.clone() * s.clone()).compare(&vv)? != Ordering::Less {
                    s
                } else {
                    l1
                }
            }
            None => l1,
        }
    };
    let mut t = t0.clone();
    let mut d = first;
    let mut steps = 0;
    loop {
        crate::budget::tick().map_err(|e| poly_error(e.into()))?;
        steps += 1;
        // On f64 a graze is approached with steps shrinking like the square of the gap and no
        // probe can close on it: give up (a `limit`) rather than spend the query's time.
        if !S::EXACT_VALUES && steps > MAX_FLOAT_STEPS {
            return Err(RoundError::Uncertain(crate::scalar::Uncertain::Exhausted(crate::budget::Limit::Steps)));
        }
        // ℓ ≤ the distance at t.
        let ell = match ExactTorus::of(&d) {
            Some(e) => {
                // An enclosure fine enough to show a positive distance (growing with need),
                // else exact comparisons.
                let mut bound = None;
                for bits in [64, 160, 400] {
                    if let Some(l) = e.distance_lower_bound(bits).map_err(poly_error)? {
                        bound = Some(l);
                        break;
                    }
                }
                let l = match bound {
                    Some(l) => l,
                    None => lower_bound(
                        |q| e.compare(TorusValue::Distance, q),
                        d.cores_squared_f64().sqrt() - d.radii.to_f64(),
                    )
                    .map_err(poly_error)?,
                };
                S::from_rational(&l)
            }
            None => {
                let est = d.cores_squared_f64().sqrt() - d.radii.to_f64();
                S::from_rational(&crate::scalar::rational_of_f64(est * (1.0 - 1e-9)).unwrap_or_else(BigRational::zero))
            }
        };
        // The step ℓ/v, rounded down to 32 significant bits (short times keep the
        // polynomials' coefficients short).
        let step = short_below(&(ell / speed.clone()));
        if (step.clone() + step.clone()).compare(width)? == Ordering::Less {
            // Close: the contact is in [t, t + h] if they meet at its end. Probe h = 2·step,
            // 8·step, … (a head-on approach meets just after t + step; shapes passing fast
            // meet only briefly), at most eight times, and at the width itself.
            let mut h = step.clone() + step.clone();
            for probe in 0..9 {
                if probe == 8 || h.compare(width)? != Ordering::Less {
                    h = width.clone();
                }
                let hi = t.clone() + h.clone();
                let hi = if hi.compare(t1)? == Ordering::Greater { t1.clone() } else { hi };
                if at(&hi)?.status != Status::Separated {
                    return Ok(TorusContact { collides: true, interval: [t, hi], at_start: false, steps });
                }
                if h == *width {
                    break;
                }
                h = h.clone() * S::from_i64(4);
            }
        }
        let step = if step.compare(&S::zero())? == Ordering::Greater { step } else { width.clone() / S::from_i64(2) };
        t += step;
        if t.compare(t1)? == Ordering::Greater {
            return Ok(none(steps));
        }
        d = at(&t)?;
        if d.status != Status::Separated {
            // Apart before t (advancement), meeting at t.
            return Ok(TorusContact { collides: true, interval: [t.clone(), t], at_start: false, steps });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    fn v(x: i64, y: i64, z: i64) -> Vector3<BigRational> {
        Vector3::new(q(x), q(y), q(z))
    }

    /// Beyond [`QUARTIC_RANGE`] a tolerant backend refuses (overflow) where it answered
    /// wrongly before: a ball centred on a circle of radius 10³⁰⁰ was called touching a torus
    /// of minor radius 10⁻³⁰⁰ (it penetrates by ~1), and a ball cast through the hole from
    /// 10³⁰⁰ away was met at the start (it never meets). Exact backends answer both. The
    /// guard is here, not in the query, so library callers are covered too.
    #[test]
    fn values_beyond_the_quartic_range_are_refused_on_f64() {
        let big = 1e300;
        let c = Circle::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0), big).unwrap();
        let on = Curve::Point(Point3::new(big, 0.0, 0.0));
        let e = torus_distance::<f64>(&c, &on, &(1.0 + 1e-300)).unwrap_err();
        assert!(matches!(e, RoundError::Uncertain(crate::scalar::Uncertain::Overflow)), "{e:?}");
        let qf = |x: f64| crate::scalar::rational_of_f64(x).unwrap();
        let ce = Circle::new(Point3::new(q(0), q(0), q(0)), v(0, 0, 1), qf(big)).unwrap();
        let d = torus_distance(&ce, &Curve::Point(Point3::new(qf(big), q(0), q(0))), &(q(1) + qf(1e-300))).unwrap();
        assert_eq!(d.status, Status::Penetrating);
        // Just inside the range the guard lets a value through.
        let inside = QUARTIC_RANGE / 4.0;
        let c = Circle::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0), inside).unwrap();
        assert!(torus_distance::<f64>(&c, &Curve::Point(Point3::new(0.0, 0.0, 0.0)), &1.0).is_ok());

        // The cast: ρ = 1 + 10⁻³⁰⁰ from z = 10³⁰⁰ down the axis of the torus R = 3 at speed
        // 10³⁰⁰ for t in [0, 1]: d(axis point, circle) ≥ 3 > ρ, so it never meets.
        let c = Circle::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0), 3.0).unwrap();
        let start = Curve::Point(Point3::new(0.0, 0.0, big));
        let down = Vector3::new(0.0, 0.0, -big);
        let e = torus_first_contact::<f64>(&c, &start, &(1.0 + 1e-300), &down, &0.0, &1.0, &1e-3).unwrap_err();
        assert!(matches!(e, RoundError::Uncertain(crate::scalar::Uncertain::Overflow)), "{e:?}");
        // Speed × time alone passes the range: speed 2²⁰⁰ for a time of 2²⁰⁰.
        let (s, t) = (2f64.powi(200), 2f64.powi(200));
        let slow = Vector3::new(0.0, 0.0, -s);
        let e = torus_first_contact_by_advancement::<f64>(
            &c,
            &Curve::Point(Point3::new(0.0, 0.0, 10.0)),
            &2.0,
            &slow,
            &0.0,
            &t,
            &1e-3,
        )
        .unwrap_err();
        assert!(matches!(e, RoundError::Uncertain(crate::scalar::Uncertain::Overflow)), "{e:?}");
        let ce = Circle::new(Point3::new(q(0), q(0), q(0)), v(0, 0, 1), q(3)).unwrap();
        let hit = torus_first_contact(
            &ce,
            &Curve::Point(Point3::new(q(0), q(0), qf(big))),
            &(q(1) + qf(1e-300)),
            &Vector3::new(q(0), q(0), -qf(big)),
            &q(0),
            &q(1),
            &BigRational::new(1.into(), 1000.into()),
        )
        .unwrap();
        assert!(!hit.collides && !hit.at_start);
    }

    /// The product of intervals by signs is the hull of the four products, on every sign case
    /// of both factors (ends negative, zero, positive; points; fractions).
    #[test]
    fn interval_products_by_signs_are_the_four_products_hull() {
        let ends = [q(-3), BigRational::new((-2).into(), 7.into()), q(0), BigRational::new(5.into(), 3.into()), q(4)];
        let mut cases = 0;
        for (i, a0) in ends.iter().enumerate() {
            for a1 in &ends[i..] {
                for (j, b0) in ends.iter().enumerate() {
                    for b1 in &ends[j..] {
                        let (a, b) = ((a0.clone(), a1.clone()), (b0.clone(), b1.clone()));
                        let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                        let want = (p.iter().min().cloned().unwrap(), p.iter().max().cloned().unwrap());
                        assert_eq!(iv_mul(&a, &b), want, "{a:?} × {b:?}");
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, 225);
    }

    /// Horner's scheme on integers over one denominator gives the rational run's interval
    /// (each step `iv_mul` then a sum, on reduced rationals), and the square roots by shifted
    /// quotients the floors of the rational products: on polynomials with mixed denominators,
    /// zero and missing coefficients, and intervals of every sign with unlike denominators.
    #[test]
    fn integer_horner_and_shifted_roots_are_the_rational_runs() {
        let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let rational_poly = |p: &Poly<BigRational>, u: &Iv| -> Iv {
            let mut acc: Iv = (q(0), q(0));
            for c in p.coeffs().iter().rev() {
                acc = iv_add(&iv_mul(&acc, u), &(c.clone(), c.clone()));
            }
            acc
        };
        let rational_sqrt = |x: &Iv, bits: u32| -> Iv {
            let scale = BigRational::from_integer(BigInt::one() << (2 * bits as usize));
            let unit = BigRational::from_integer(BigInt::one() << bits as usize);
            let root_floor = |v: &BigRational| -> BigInt {
                if !v.is_positive() {
                    return BigInt::zero();
                }
                (v * &scale).floor().to_integer().sqrt()
            };
            let lo = BigRational::from_integer(root_floor(&x.0)) / &unit;
            let hi = if x.1.is_positive() {
                BigRational::from_integer(root_floor(&(&x.1 + BigRational::one() / &scale)) + BigInt::one()) / &unit
            } else {
                q(0)
            };
            (lo, hi)
        };
        let polys = [
            Poly::from_coeffs(vec![r(1, 3), r(-5, 7), q(0), r(9, 4)]),
            Poly::from_coeffs(vec![q(0), q(0), r(-2, 9)]),
            Poly::from_coeffs(vec![r(7, 1), r(-1, 6), r(1, 10), r(-3, 8), r(11, 12)]),
            Poly::constant(r(-4, 5)),
            Poly::zero(),
        ];
        let ends = [r(-7, 3), r(-1, 2), q(0), r(3, 10), r(5, 4), r(13, 6)];
        let mut cases = 0;
        for p in &polys {
            for (i, a) in ends.iter().enumerate() {
                for b in &ends[i..] {
                    let u = (a.clone(), b.clone());
                    let want = rational_poly(p, &u);
                    assert_eq!(iv_poly(p, &u), want, "{p:?} on {u:?}");
                    for bits in [1, 7, 64, 130] {
                        assert_eq!(iv_sqrt(&want, bits), rational_sqrt(&want, bits), "√{want:?} at {bits}");
                    }
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 105);
        // Roots of exact squares and of a point at zero: the ends meet or straddle the root.
        assert_eq!(iv_sqrt(&(r(9, 4), r(9, 4)), 3), (r(3, 2), r(3, 2) + r(1, 8)));
        assert_eq!(iv_sqrt(&(q(0), q(0)), 5), (q(0), q(0)));
    }

    /// The first contact of G moving by `velocity` with F by the rational parametrisation and by
    /// the one over ℚ(√α), for circles that have both: the same algebraic time or both none.
    /// Returns whether they met (None: a route left it undecided or the shapes meet at 0).
    fn both_routes(
        f: &Circle<BigRational>,
        g: &Circle<BigRational>,
        rho: i64,
        velocity: Vector3<BigRational>,
    ) -> Option<bool> {
        let curve = Curve::Circle(g.clone());
        let (zero, one, width) = (q(0), q(1), q(1));
        let cast =
            Cast { circle: f, curve: &curve, radii: &q(rho), velocity: &velocity, t0: &zero, t1: &one, width: &width };
        if start(&cast).unwrap().is_err() {
            return None;
        }
        let x = moving_circle(g, &velocity, &f.centre).expect("a rational point");
        let rational = first_zero(&torus_quartic(f, &q(rho), &x, |b| b), &URange::Line, &zero, &one).unwrap();
        let x = moving_circle_over_root(g, &velocity, &f.centre).expect("a non-square α");
        let root = first_zero_on_line(&torus_quartic(f, &q(rho), &x, |b| x.d.rational(b)), &zero, &one).unwrap();
        match (&rational, &root) {
            (FirstZero::At(a), FirstZero::At(b)) => {
                assert_eq!(a.try_cmp(b).unwrap(), Ordering::Equal, "{a:?} vs {b:?}");
                if g.centre[0] == q(3) && g.centre[1] == q(-4) {
                    assert_eq!(a.to_rational(), Some(BigRational::new(1.into(), 2.into())), "the graze");
                }
                Some(true)
            }
            (FirstZero::Never, FirstZero::Never) => Some(false),
            (FirstZero::Undecided, _) | (_, FirstZero::Undecided) => None,
            _ => panic!("{rational:?} vs {root:?} for {g:?} moving by {velocity:?}"),
        }
    }

    /// Circles about coordinate axes (rational points, and α = 1·1 + … not a square for
    /// n′ × e), cast at F of radius 3 about z: crossings, near misses and grazes at rational
    /// and irrational times agree between the two parametrisations.
    #[test]
    fn the_parametrisation_over_a_quadratic_field_agrees_with_the_rational_one() {
        let f = Circle::new(Point3::new(q(0), q(0), q(0)), v(0, 0, 1), q(3)).unwrap();
        let mut met = 0;
        let mut decided = 0;
        type Case = (Point3<BigRational>, Vector3<BigRational>, i64, i64, Vector3<BigRational>);
        let cases: Vec<Case> = vec![
            // Perpendicular: G about x through F's point (3, 0, 0), from x = 9.
            (Point3::new(q(9), q(0), q(0)), v(1, 0, 0), 2, 1, v(-8, 0, 0)),
            // About y, moving down onto F's top.
            (Point3::new(q(3), q(0), q(6)), v(0, 1, 0), 1, 1, v(0, 0, -4)),
            // Coaxial above, passing the hole: no contact when small.
            (Point3::new(q(0), q(0), q(5)), v(0, 0, 1), 1, 1, v(0, 0, -10)),
            // Tilted axes, Pythagorean (3, 4, 0) and (1, 1, 1)-free moves.
            (Point3::new(q(7), q(2), q(1)), v(3, 4, 0), 2, 1, v(-9, -3, 0)),
            (Point3::new(q(-6), q(5), q(-2)), v(0, 3, 4), 1, 2, v(8, -6, 3)),
            (Point3::new(q(8), q(8), q(0)), v(1, 0, 0), 2, 1, v(-7, -8, 0)),
            // About y, sliding along y over F's top: its lowest point (3, y, 1) grazes the tube
            // (ρ = 1) at y = 0, t = 1/2, for an instant.
            (Point3::new(q(3), q(-4), q(2)), v(0, 1, 0), 1, 1, v(0, 8, 0)),
            // The same 2⁻⁵⁰ higher: no contact.
            (
                Point3::new(q(3), q(-4), q(2) + BigRational::new(1.into(), BigInt::one() << 50)),
                v(0, 1, 0),
                1,
                1,
                v(0, 8, 0),
            ),
            // Passing high over F: no contact.
            (Point3::new(q(10), q(0), q(5)), v(0, 0, 1), 1, 1, v(-20, 0, 0)),
        ];
        for (c, axis, radius, rho, vel) in cases {
            let g = Circle::new(c, axis, q(radius)).unwrap();
            if let Some(m) = both_routes(&f, &g, rho, vel) {
                decided += 1;
                met += m as i32;
            }
        }
        assert_eq!((decided, met), (9, 6));
    }
}
