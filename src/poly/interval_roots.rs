//! Certified real roots of a polynomial with interval coefficients, by subdivision.
//!
//! A [`Poly<Interval>`] stands for the *family* of real polynomials whose coefficients lie in
//! the coefficient intervals (one of them is the polynomial an exact computation would have
//! made). [`interval_roots`] either returns enclosures that are right for every member of the
//! family, or says [`Uncertain`]; it is never wrong.
//!
//! # Certificates
//!
//! Interval Horner evaluation of `p⁽ᵏ⁾` over a piece `I = [a, b]` encloses the values of the
//! `k`-th derivative of every member at every point of `I` (each operation encloses, see
//! [`Interval`]); we intersect it with the Taylor form around the midpoint (the coefficients
//! of `p(m + t)` by an interval Taylor shift, against the exact set of powers of `I − m`),
//! also an enclosure, and much tighter on small pieces. The signs of `p` at the ends of a
//! piece are certain (decided from a point evaluation). Then, for every member `q`:
//!
//! * `p(I) ∌ 0`: `q` has no root in `I`.
//! * `p'(I) ∌ 0`: `q` is strictly monotone on `I`, so opposite signs at the ends mean exactly
//!   one root inside, and equal signs none. An end where `p` is the point zero is a root of
//!   every member (reported as a point), and monotonicity leaves no other root in the piece.
//! * An end `e` where `p, p', …, p⁽ʲ⁻¹⁾` are all the point zero and `p⁽ʲ⁾(I) ∌ 0`: by Taylor's
//!   theorem `q(x) = q⁽ʲ⁾(ξ)(x − e)ʲ/j!` with `ξ ∈ I`, nonzero for `x ≠ e`, so `e` is the only
//!   root in `I` (a double root exactly at a double, e.g. a grazing contact at `t = 1/2` on
//!   integer data, is certified so).
//! * Otherwise the piece is split at a point where the sign of `p` is certain (the midpoint
//!   first, then other points of the piece), and both halves are examined.
//!
//! A root inside a monotone piece is narrowed by bisection while the sign at the bisection
//! point is certain, then from each side toward the uncertain zone, down to adjacent doubles
//! when the evaluation allows it; a point where `p` is the point zero is the root itself.
//!
//! Not certifiable, hence [`Uncertain::Close`]: an uncertain sign at `lo` or `hi` (a root at
//! or too near an end, unless `p` is the point zero there), a multiple root that is not
//! exactly at a double, roots closer than the evaluation error can separate, a family that
//! contains polynomials with different root counts (a leading coefficient interval containing
//! 0 may do that), and a subdivision beyond [`MAX_PIECES`] pieces or [`MAX_DEPTH`] halvings.

use num_traits::{One, Zero};

use super::{Poly, PolyError, MAX_DEGREE};
use crate::scalar::{Interval, Scalar, Sign, Uncertain};

/// The most pieces examined by one call (enough for 64 roots each needing a few hundred
/// splits; a cluster that cannot be separated exhausts it and is reported uncertain).
pub const MAX_PIECES: usize = 20_000;
/// The most halvings of the initial interval (2⁻¹⁶⁰ of its width: beyond that the root is
/// either at a double, which the zero test finds, or closer to another than any evaluation
/// separates).
pub const MAX_DEPTH: u32 = 160;
/// The most sign evaluations while narrowing one root (bisection from the widest finite
/// interval to adjacent doubles takes about 2100).
const MAX_REFINE_STEPS: usize = 4400;
/// Where to split a piece, as fractions of its width, in order of preference: the midpoint
/// (dyadic points, where exact zeros are found), then points around it.
const SPLITS: [f64; 7] = [0.5, 0.375, 0.625, 0.25, 0.75, 0.125, 0.875];

/// The real roots in `[lo, hi]` of every polynomial whose coefficients lie in `p`'s
/// coefficient intervals, increasing; each root is enclosed in an interval that contains
/// exactly one root of each such polynomial (a point interval when the root is exactly a
/// double), and the enclosures are disjoint or equal points.
///
/// `lo` and `hi` may be intervals too: then `p` must have no root in them (else
/// [`Uncertain`]), and the roots are those between them, the same for every `lo ≤ hi` inside.
///
/// Errors: `p = 0`, degree above [`MAX_DEGREE`], a non-finite bound of `lo` or `hi`,
/// `lo > hi` certainly ([`PolyError::EmptyInterval`]), and [`PolyError::Uncertain`] with
/// [`Uncertain::Close`] when the roots cannot be certified (see the module docs).
///
/// ```
/// use num_traits::{One, Zero};
/// use touchstone::poly::{interval_roots, Poly};
/// use touchstone::scalar::{ratio, Interval, Scalar};
/// // (t − 1/3)(t − 2)², coefficients rounded outward, on [0, 1]: 1/3 is enclosed as tightly
/// // as the coefficient intervals allow.
/// let p = Poly::<Interval>::from_roots(&[ratio(1, 3), ratio(2, 1), ratio(2, 1)]);
/// let roots = interval_roots(&p, &Interval::zero(), &Interval::one()).unwrap();
/// assert_eq!(roots.len(), 1);
/// assert!(roots[0].contains(1.0 / 3.0) && roots[0].hi() - roots[0].lo() < 1e-14);
/// // Exact coefficients, 8t² − 6t + 1 = (2t − 1)(4t − 1): roots at doubles come out exact.
/// let q = Poly::from_coeffs([1, -6, 8].map(Interval::from_i64).to_vec());
/// let exact = [0.25, 0.5].map(|x| Interval::from_f64(x).unwrap());
/// assert_eq!(interval_roots(&q, &Interval::zero(), &Interval::one()).unwrap(), exact);
/// ```
pub fn interval_roots(p: &Poly<Interval>, lo: &Interval, hi: &Interval) -> Result<Vec<Interval>, PolyError> {
    match p.degree() {
        None => return Err(PolyError::ZeroPolynomial),
        Some(n) if n > MAX_DEGREE => return Err(PolyError::DegreeTooLarge(n)),
        Some(_) => {}
    }
    if !(lo.lo().is_finite() && lo.hi().is_finite()) {
        return Err(PolyError::NotFinite("lo"));
    }
    if !(hi.lo().is_finite() && hi.hi().is_finite()) {
        return Err(PolyError::NotFinite("hi"));
    }
    if lo.lo() > hi.hi() {
        return Err(PolyError::EmptyInterval);
    }
    let finder = Finder::new(p);
    if lo.hi() > hi.lo() {
        // The ends overlap: lo ≤ hi is not certain (unless both are the same point).
        return Err(Uncertain::Close.into());
    }
    let (a, sa) = finder.end_sign(lo, End::Lo)?;
    let (b, sb) = finder.end_sign(hi, End::Hi)?;
    if a == b {
        return Ok(if sa == Sign::Zero { vec![point(a)] } else { Vec::new() });
    }
    finder.search(Piece { a, b, sa, sb, depth: 0 })
}

/// The point interval of a finite double.
fn point(x: f64) -> Interval {
    Interval::new(x, x).unwrap_or_else(Interval::whole)
}

/// The interval `[a, b]` for `a ≤ b`.
fn span(a: f64, b: f64) -> Interval {
    Interval::new(a, b).unwrap_or_else(Interval::whole)
}

/// A double strictly inside `(a, b)`, at about `a + f·(b − a)`; `None` when `a` and `b` are
/// adjacent.
fn inside(a: f64, b: f64, f: f64) -> Option<f64> {
    let w = b - a;
    let m = if w.is_finite() { a + w * f } else { a * (1.0 - f) + b * f };
    (a < m && m < b).then_some(m)
}

/// Which end of the search interval.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Lo,
    Hi,
}

/// A piece `[a, b]` with the certain signs of `p` at its ends.
#[derive(Clone, Copy, Debug)]
struct Piece {
    a: f64,
    b: f64,
    sa: Sign,
    sb: Sign,
    depth: u32,
}

/// What a piece holds, certified.
enum Verdict {
    /// No root in the open piece (a zero end is reported on its own).
    NoInteriorRoot,
    /// Exactly one root in the open piece, none at the ends; `p` is monotone.
    OneInteriorRoot,
    /// Not certified: split it.
    Split,
}

/// Work in increasing order: a piece to examine, or a root at a split point.
enum Task {
    Piece(Piece),
    Root(f64),
}

/// Enclosures of `p⁽ʲ⁾` over a piece `[a, b]`, for every member of the family and every point
/// of the piece.
///
/// Two forms, intersected: Horner's rule over the interval (good near 0, but it counts the
/// piece's width once per coefficient), and the Taylor form around the midpoint `m`,
/// `p⁽ʲ⁾(m + h) = Σₖ k!/(k−j)! · aₖ · hᵏ⁻ʲ` with `aₖ` the coefficients of `p(m + t)` (a Taylor
/// shift in interval arithmetic, so enclosures of every member's) and `hᵏ⁻ʲ` ranging over the
/// exact set of powers of `H ∋ h`. The Taylor form overestimates only by the terms of order
/// two and more in the width, so it excludes zero on pieces where `|p(m)|` exceeds about
/// `|p'(m)|·w/2`: without it a polynomial with small values (a product of close or multiple
/// roots) needs thousands of pieces where the root structure needs dozens.
struct Ranges<'f> {
    finder: &'f Finder,
    piece: Interval,
    /// Coefficients of `p(m + t)`.
    taylor: Vec<Interval>,
    /// The set `{hᵏ : h ∈ H}` for k = 0, 1, ….
    powers: Vec<Interval>,
}

impl Ranges<'_> {
    /// An enclosure of `p⁽ʲ⁾` over the piece.
    fn of(&self, j: usize) -> Interval {
        let Some(d) = self.finder.derivs.get(j) else { return Interval::zero() };
        let horner = d.eval(&self.piece);
        let mut sum = Interval::zero();
        for (k, a) in self.taylor.iter().enumerate().skip(j) {
            // k!/(k − j)!: exact while it fits 53 bits, an enclosure beyond.
            let falling = (k - j + 1..=k).fold(Interval::one(), |f, i| f * Interval::from_i64(i as i64));
            sum += falling * *a * self.powers[k - j];
        }
        // Two enclosures of the same set always meet; the fallback only guards the invariant.
        horner.intersection(&sum).unwrap_or(horner)
    }
}

struct Finder {
    /// `p, p', p'', …` down to a constant.
    derivs: Vec<Poly<Interval>>,
}

impl Finder {
    fn new(p: &Poly<Interval>) -> Self {
        let mut derivs = vec![p.clone()];
        while derivs.last().and_then(|d| d.degree()).is_some_and(|n| n > 0) {
            let next = derivs.last().map(|d| d.derivative()).unwrap_or_else(Poly::zero);
            derivs.push(next);
        }
        Finder { derivs }
    }

    /// `p⁽ᵏ⁾` at the point `x` (zero beyond the degree).
    fn at(&self, k: usize, x: f64) -> Interval {
        self.derivs.get(k).map(|d| d.eval(&point(x))).unwrap_or_else(Interval::zero)
    }

    /// The certain sign of `p` at `x`.
    fn sign_at(&self, x: f64) -> Result<Sign, Uncertain> {
        self.at(0, x).sign()
    }

    /// Enclosures of `p` and its derivatives over `[a, b]` (see [`Ranges`]).
    fn ranges(&self, a: f64, b: f64) -> Ranges<'_> {
        let m = inside(a, b, 0.5).unwrap_or(a);
        // H ⊇ [a − m, b − m], rounded outward; it contains 0.
        let h = span((point(a) - point(m)).lo(), (point(b) - point(m)).hi());
        let taylor = self.derivs[0].shift(&point(m)).coeffs().to_vec();
        // Hᵏ as a set (not H·H·…·H, which would lose the sign of even powers): odd powers are
        // increasing, even ones reach their maximum at an end and their minimum 0 at h = 0.
        let (mut lo_k, mut hi_k) = (Interval::one(), Interval::one());
        let mut powers = vec![Interval::one()];
        for k in 1..taylor.len() {
            lo_k *= point(h.lo());
            hi_k *= point(h.hi());
            powers.push(if k % 2 == 1 { span(lo_k.lo(), hi_k.hi()) } else { span(0.0, lo_k.hi().max(hi_k.hi())) });
        }
        Ranges { finder: self, piece: span(a, b), taylor, powers }
    }

    /// The search start or end for an end interval: the point and `p`'s sign there, certain.
    fn end_sign(&self, e: &Interval, end: End) -> Result<(f64, Sign), Uncertain> {
        if e.is_point() {
            return Ok((e.lo(), self.sign_at(e.lo())?));
        }
        // A genuine interval: no member may have a root in it, and the search runs from its
        // inner bound (the roots between any two ends inside are then the same).
        match self.ranges(e.lo(), e.hi()).of(0).sign()? {
            Sign::Zero => Err(Uncertain::Close),
            s => Ok((if end == End::Lo { e.hi() } else { e.lo() }, s)),
        }
    }

    /// Examine pieces left to right, splitting until each is certified.
    fn search(&self, whole: Piece) -> Result<Vec<Interval>, PolyError> {
        let mut roots = Vec::new();
        if whole.sa == Sign::Zero {
            roots.push(point(whole.a));
        }
        let mut tasks = Vec::new();
        if whole.sb == Sign::Zero {
            tasks.push(Task::Root(whole.b));
        }
        tasks.push(Task::Piece(whole));
        let mut examined = 0;
        while let Some(task) = tasks.pop() {
            crate::budget::tick()?;
            let piece = match task {
                Task::Root(x) => {
                    roots.push(point(x));
                    continue;
                }
                Task::Piece(piece) => piece,
            };
            examined += 1;
            if examined > MAX_PIECES {
                return Err(Uncertain::Close.into());
            }
            match self.verdict(&piece)? {
                Verdict::NoInteriorRoot => {}
                Verdict::OneInteriorRoot => roots.push(self.narrow(piece.a, piece.b, piece.sa, piece.sb)),
                Verdict::Split => {
                    if piece.depth >= MAX_DEPTH {
                        return Err(Uncertain::Close.into());
                    }
                    let (m, sm) = self.split_point(&piece)?;
                    let depth = piece.depth + 1;
                    tasks.push(Task::Piece(Piece { a: m, b: piece.b, sa: sm, sb: piece.sb, depth }));
                    if sm == Sign::Zero {
                        tasks.push(Task::Root(m));
                    }
                    tasks.push(Task::Piece(Piece { a: piece.a, b: m, sa: piece.sa, sb: sm, depth }));
                }
            }
        }
        Ok(roots)
    }

    fn verdict(&self, piece: &Piece) -> Result<Verdict, Uncertain> {
        let Piece { a, b, sa, sb, .. } = *piece;
        let ranges = self.ranges(a, b);
        if ranges.of(0).sign().is_ok_and(|s| s != Sign::Zero) {
            return Ok(Verdict::NoInteriorRoot);
        }
        if ranges.of(1).sign().is_ok_and(|s| s != Sign::Zero) {
            return match (sa, sb) {
                // Strictly monotone and zero at both ends cannot be: the enclosures would be
                // wrong. Never answer from a contradiction.
                (Sign::Zero, Sign::Zero) => Err(Uncertain::Close),
                (Sign::Zero, _) | (_, Sign::Zero) => Ok(Verdict::NoInteriorRoot),
                _ if sa != sb => Ok(Verdict::OneInteriorRoot),
                _ => Ok(Verdict::NoInteriorRoot),
            };
        }
        // A zero end: the Taylor certificate with higher derivatives that vanish there.
        let zero_end = match (sa, sb) {
            (Sign::Zero, s) if s != Sign::Zero => Some(a),
            (s, Sign::Zero) if s != Sign::Zero => Some(b),
            _ => None,
        };
        if let Some(e) = zero_end {
            for j in 2..self.derivs.len() {
                if self.at(j - 1, e).sign() != Ok(Sign::Zero) {
                    break;
                }
                if ranges.of(j).sign().is_ok_and(|s| s != Sign::Zero) {
                    return Ok(Verdict::NoInteriorRoot);
                }
            }
        }
        Ok(Verdict::Split)
    }

    /// A split point of the piece where `p`'s sign is certain.
    fn split_point(&self, piece: &Piece) -> Result<(f64, Sign), Uncertain> {
        for f in SPLITS {
            if let Some(m) = inside(piece.a, piece.b, f) {
                if let Ok(s) = self.sign_at(m) {
                    return Ok((m, s));
                }
            }
        }
        Err(Uncertain::Close)
    }

    /// Narrow the one root in `(a, b)` of a monotone piece with certain nonzero end signs
    /// `sa = −sb`, keeping that invariant; the point itself when `p` is the point zero there.
    fn narrow(&self, mut a: f64, mut b: f64, sa: Sign, sb: Sign) -> Interval {
        let mut budget = MAX_REFINE_STEPS;
        // One step of the search at `m`: move an end, or report the root or an uncertainty.
        enum Step {
            Root,
            Left,
            Right,
            Unsure,
        }
        let mut step = |m: f64| -> Option<Step> {
            budget = budget.checked_sub(1)?;
            Some(match self.sign_at(m) {
                Ok(Sign::Zero) => Step::Root,
                Ok(s) if s == sa => Step::Left,
                Ok(s) if s == sb => Step::Right,
                _ => Step::Unsure,
            })
        };
        'restart: loop {
            // Bisection while the sign at the midpoint is certain.
            let u = loop {
                let Some(m) = inside(a, b, 0.5) else { return span(a, b) };
                match step(m) {
                    None => return span(a, b),
                    Some(Step::Root) => return point(m),
                    Some(Step::Left) => a = m,
                    Some(Step::Right) => b = m,
                    Some(Step::Unsure) => break m,
                }
            };
            // The root is near u: raise a toward u, then lower b toward it. A certain sign on
            // the far side of u moves the other end and restarts the bisection.
            let mut near = u;
            while let Some(m) = inside(a, near, 0.5) {
                match step(m) {
                    None => return span(a, b),
                    Some(Step::Root) => return point(m),
                    Some(Step::Left) => a = m,
                    Some(Step::Right) => {
                        b = m;
                        continue 'restart;
                    }
                    Some(Step::Unsure) => near = m,
                }
            }
            let mut near = u;
            while let Some(m) = inside(near, b, 0.5) {
                match step(m) {
                    None => return span(a, b),
                    Some(Step::Root) => return point(m),
                    Some(Step::Right) => b = m,
                    Some(Step::Left) => {
                        a = m;
                        continue 'restart;
                    }
                    Some(Step::Unsure) => near = m,
                }
            }
            return span(a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::ratio;

    fn iv(x: f64) -> Interval {
        point(x)
    }

    fn from_roots(r: &[(i64, i64)]) -> Poly<Interval> {
        Poly::from_roots(&r.iter().map(|&(n, d)| ratio(n, d)).collect::<Vec<Interval>>())
    }

    #[test]
    fn simple_roots_are_enclosed_tightly() {
        let p = from_roots(&[(1, 3), (2, 3), (5, 7)]);
        let roots = interval_roots(&p, &iv(0.0), &iv(1.0)).unwrap();
        assert_eq!(roots.len(), 3);
        for (r, x) in roots.iter().zip([1.0 / 3.0, 2.0 / 3.0, 5.0 / 7.0]) {
            assert!(r.contains(x) || (r.lo() - x).abs() < 1e-15, "{r} {x}");
            // The family's roots spread over the evaluation error divided by |p'| (≈ 0.016 at
            // 2/3): a few 10⁻¹⁴ per ulp of widening; an operation on intervals that are not
            // points widens each bound by one ulp (scalar/interval.rs), so about 2·10⁻¹³ at 2/3.
            assert!(r.hi() - r.lo() < 3e-13, "{r}");
        }
    }

    #[test]
    fn roots_at_doubles_are_points() {
        let p = from_roots(&[(0, 1), (1, 2), (1, 1)]);
        let roots = interval_roots(&p, &iv(0.0), &iv(1.0)).unwrap();
        assert_eq!(roots, vec![iv(0.0), iv(0.5), iv(1.0)]);
        // A double root at 1/2 and a triple one at 1/4: Taylor certificates.
        let p = from_roots(&[(1, 2), (1, 2), (1, 4), (1, 4), (1, 4)]);
        assert_eq!(interval_roots(&p, &iv(0.0), &iv(1.0)).unwrap(), vec![iv(0.25), iv(0.5)]);
    }

    #[test]
    fn uncertain_cases() {
        // A double root at 1/3 (not a double): the family includes polynomials with two
        // close roots and with none.
        let p = from_roots(&[(1, 3), (1, 3)]);
        assert_eq!(interval_roots(&p, &iv(0.0), &iv(1.0)), Err(PolyError::Uncertain(Uncertain::Close)));
        // A root at an end that is not a double.
        let p = from_roots(&[(1, 3)]);
        assert_eq!(interval_roots(&p, &ratio(1, 3), &iv(1.0)), Err(PolyError::Uncertain(Uncertain::Close)));
        // A leading coefficient that may vanish with a root count that changes.
        let c = Interval::new(-1e-300, 1e-300).unwrap();
        let p = Poly::from_coeffs(vec![iv(-0.25), iv(0.0), c]);
        assert!(interval_roots(&p, &iv(0.0), &iv(1.0)).is_ok_and(|r| r.is_empty()));
        let p = Poly::from_coeffs(vec![iv(-0.25), iv(0.0), Interval::new(-1.0, 1.0).unwrap()]);
        assert_eq!(interval_roots(&p, &iv(0.0), &iv(1.0)), Err(PolyError::Uncertain(Uncertain::Close)));
    }

    #[test]
    fn interval_ends() {
        let p = from_roots(&[(1, 2)]);
        let (lo, hi) = (Interval::new(0.0, 0.1).unwrap(), Interval::new(0.9, 1.0).unwrap());
        assert_eq!(interval_roots(&p, &lo, &hi).unwrap(), vec![iv(0.5)]);
        let around = Interval::new(0.4, 0.6).unwrap();
        assert_eq!(interval_roots(&p, &around, &hi), Err(PolyError::Uncertain(Uncertain::Close)));
        assert_eq!(interval_roots(&p, &hi, &lo), Err(PolyError::EmptyInterval));
        assert_eq!(interval_roots(&p, &iv(0.5), &iv(0.5)).unwrap(), vec![iv(0.5)]);
        assert_eq!(interval_roots(&Poly::zero(), &lo, &hi), Err(PolyError::ZeroPolynomial));
        assert_eq!(interval_roots(&p, &Interval::whole(), &hi), Err(PolyError::NotFinite("lo")));
    }
}
