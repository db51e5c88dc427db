//! Real root isolation in a closed interval: Descartes' rule of signs with bisection
//! (Vincent–Collins–Akritas), on the primitive integer form of the square-free part.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::gcd::check_number;
use super::intpoly::{
    compose_affine, descartes_unit, div_x, div_x_minus_1, left_half, may_have_rational_root, sign_at, sign_of,
    taylor_shift_1,
};
use super::{Algebraic, Poly, PolyError};
use crate::scalar::Sign;

/// Where one real root lies: exactly at a rational, or alone in an open interval.
///
/// An `Open` interval contains exactly one root of the square-free part, none at its
/// endpoints, and (when produced by [`isolate_roots`]) that root is irrational: rational roots
/// are always reported as `Point`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RootInterval {
    /// The root is exactly this rational.
    Point(BigRational),
    /// The root lies strictly between `lo` and `hi` (`lo < hi`).
    Open {
        /// The lower endpoint (not a root).
        lo: BigRational,
        /// The upper endpoint (not a root).
        hi: BigRational,
    },
}

impl RootInterval {
    /// The lower end (the point itself for `Point`).
    pub fn lo(&self) -> &BigRational {
        match self {
            RootInterval::Point(r) => r,
            RootInterval::Open { lo, .. } => lo,
        }
    }

    /// The upper end (the point itself for `Point`).
    pub fn hi(&self) -> &BigRational {
        match self {
            RootInterval::Point(r) => r,
            RootInterval::Open { hi, .. } => hi,
        }
    }

    /// `hi - lo` (zero for `Point`).
    pub fn width(&self) -> BigRational {
        self.hi() - self.lo()
    }

    /// Whether `x` may be the root: `x == r` for `Point(r)`, `lo < x < hi` for `Open`.
    pub fn contains(&self, x: &BigRational) -> bool {
        match self {
            RootInterval::Point(r) => r == x,
            RootInterval::Open { lo, hi } => lo < x && x < hi,
        }
    }
}

/// Isolate every real root of `p` in the closed interval `[lo, hi]`, in increasing order.
///
/// Each root is reported once whatever its multiplicity (a double root, a grazing contact, is
/// one root), as an exact `Point` when it is rational (in particular a root at `lo` or `hi`)
/// and as an `Open` interval isolating it from the other roots otherwise.
///
/// Errors: `p = 0` ([`PolyError::ZeroPolynomial`]), `lo > hi`, and the size limits of
/// [`Poly::check_limits`] for `p`, `lo` and `hi`.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::poly::{isolate_roots, Poly, RootInterval};
/// use touchstone::scalar::ratio;
///
/// // t² - 2 on [-2, 2]: two irrational roots, each in an open interval.
/// let p = Poly::<BigRational>::from_coeffs(vec![ratio(-2, 1), ratio(0, 1), ratio(1, 1)]);
/// let roots = isolate_roots(&p, &ratio(-2, 1), &ratio(2, 1)).unwrap();
/// assert_eq!(roots.len(), 2);
/// assert!(matches!(&roots[1], RootInterval::Open { lo, hi } if lo < &ratio(141, 100) && hi > &ratio(142, 100)));
/// ```
pub fn isolate_roots(
    p: &Poly<BigRational>,
    lo: &BigRational,
    hi: &BigRational,
) -> Result<Vec<RootInterval>, PolyError> {
    Ok(isolate(p, lo, hi)?.roots)
}

/// The real roots of `p` in `[lo, hi]` as [`Algebraic`] numbers, in increasing order.
///
/// The same roots as [`isolate_roots`], each paired with the square-free part of `p`.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::poly::{real_roots, Poly};
/// use touchstone::scalar::ratio;
/// let p = Poly::<BigRational>::from_coeffs(vec![ratio(-2, 1), ratio(0, 1), ratio(1, 1)]);
/// let roots = real_roots(&p, &ratio(0, 1), &ratio(2, 1)).unwrap();
/// assert_eq!(roots[0].to_decimal(10).unwrap(), "1.414213562");
/// ```
pub fn real_roots(p: &Poly<BigRational>, lo: &BigRational, hi: &BigRational) -> Result<Vec<Algebraic>, PolyError> {
    let Isolation { square_free, integer, roots } = isolate(p, lo, hi)?;
    Ok(roots.into_iter().map(|iv| Algebraic::from_isolation(&square_free, &integer, iv)).collect())
}

/// The result of an isolation: the square-free part, its primitive integer form, the roots.
pub(crate) struct Isolation {
    pub(crate) square_free: Poly<BigRational>,
    pub(crate) integer: Vec<BigInt>,
    pub(crate) roots: Vec<RootInterval>,
}

/// A task of the bisection: an interval to examine, or a root found at a midpoint, kept in
/// order on one stack so that roots come out sorted.
enum Task {
    /// `a` is the polynomial on (c/2ᵏ, (c+1)/2ᵏ) mapped to (0, 1), with the roots at the
    /// ends divided out; `ends` says which ends are roots of `p` (found earlier).
    Node { a: Vec<BigInt>, k: u64, c: BigInt, ends: (bool, bool) },
    /// The unit-interval point c/2ᵏ is a root.
    Root { k: u64, c: BigInt },
}

pub(crate) fn isolate(p: &Poly<BigRational>, lo: &BigRational, hi: &BigRational) -> Result<Isolation, PolyError> {
    p.check_limits()?;
    check_number(lo, "lo")?;
    check_number(hi, "hi")?;
    if p.is_zero() {
        return Err(PolyError::ZeroPolynomial);
    }
    if lo > hi {
        return Err(PolyError::EmptyInterval);
    }
    let (square_free, integer) = p.square_free_parts()?;
    let mut roots = Vec::new();
    if lo == hi {
        if sign_at(&integer, lo).is_zero() {
            roots.push(RootInterval::Point(lo.clone()));
        }
        return Ok(Isolation { square_free, integer, roots });
    }
    // Map [lo, hi] onto [0, 1]: a(x) ∝ q(lo + w·x).
    let w = hi - lo;
    let mut a = compose_affine(&integer, lo, &w);
    let to_t = |k: u64, c: &BigInt| lo + &w * BigRational::new(c.clone(), BigInt::one() << k);

    let root_at_lo = a.first().is_some_and(Zero::is_zero);
    if root_at_lo {
        roots.push(RootInterval::Point(lo.clone()));
        a = div_x(&a);
    }
    let root_at_hi = a.len() > 1 && a.iter().sum::<BigInt>().is_zero();
    if root_at_hi {
        a = div_x_minus_1(&a);
    }

    let mut stack = vec![Task::Node { a, k: 0, c: BigInt::zero(), ends: (root_at_lo, root_at_hi) }];
    while let Some(task) = stack.pop() {
        crate::budget::tick()?;
        let (a, k, c, ends) = match task {
            Task::Root { k, c } => {
                roots.push(RootInterval::Point(to_t(k, &c)));
                continue;
            }
            Task::Node { a, k, c, ends } => (a, k, c, ends),
        };
        match descartes_unit(&a) {
            0 => continue,
            // One root, and no root of p at the ends: isolated. With a root at an end, bisect
            // on: the inner root is some distance away, so a child will exclude that end.
            1 if !ends.0 && !ends.1 => {
                roots.push(RootInterval::Open { lo: to_t(k, &c), hi: to_t(k, &(&c + BigInt::one())) });
                continue;
            }
            _ => {}
        }
        // Bisect: left child 2ⁿa(x/2), right child the left one shifted by 1 (each child's
        // coefficients a degree's worth of bits longer: asked of the memory budget first).
        let bytes: u64 = a.iter().map(|x| x.bits() / 8 + a.len() as u64 / 8 + 32).sum();
        crate::budget::reserve(usize::try_from(2 * bytes).unwrap_or(usize::MAX))?;
        let mut left = left_half(&a);
        let mut right = left.clone();
        taylor_shift_1(&mut right);
        let (k1, c_left) = (k + 1, &c << 1usize);
        let c_right = &c_left + BigInt::one();
        let midpoint_root = right.first().is_some_and(Zero::is_zero);
        if midpoint_root {
            // Divide the midpoint root out of both halves so that no endpoint is a root.
            right = div_x(&right);
            left = div_x_minus_1(&left);
        }
        stack.push(Task::Node { a: right, k: k1, c: c_right.clone(), ends: (midpoint_root, ends.1) });
        if midpoint_root {
            stack.push(Task::Root { k: k1, c: c_right });
        }
        stack.push(Task::Node { a: left, k: k1, c: c_left, ends: (ends.0, midpoint_root) });
    }
    if root_at_hi {
        roots.push(RootInterval::Point(hi.clone()));
    }
    exact_rational_roots(&integer, &mut roots)?;
    Ok(Isolation { square_free, integer, roots })
}

/// Turn every `Open` interval whose root is rational into a `Point`.
///
/// A rational root `n/d` of the primitive `q` has `d | L` (the leading coefficient), so it is
/// a multiple of `1/L`; once the interval is narrower than `1/L` it holds at most one such
/// multiple, which is tested exactly.
fn exact_rational_roots(q: &[BigInt], roots: &mut [RootInterval]) -> Result<(), PolyError> {
    if q.len() == 2 {
        // Linear: the root is -q₀/q₁ (q₁ > 0 after `primitive`), in any open interval.
        let r = BigRational::new(-q[0].clone(), q[1].clone());
        for iv in roots.iter_mut().filter(|iv| matches!(iv, RootInterval::Open { .. })) {
            *iv = RootInterval::Point(r.clone());
        }
        return Ok(());
    }
    if q.len() == 3 {
        quadratic_rational_roots(q, roots);
        return Ok(());
    }
    if !may_have_rational_root(q) {
        return Ok(());
    }
    // A rational root with a short denominator (a contact made by construction) is a
    // convergent of a binary64 guess of it: proved by one exact evaluation, then divided out,
    // and the rest of the roots judged on the quotient (the tests above again, then the
    // bisection below), instead of a bisection per bit of the leading coefficient.
    for k in 0..roots.len() {
        let RootInterval::Open { lo, hi } = &roots[k] else { continue };
        let Some(r) = guessed_rational_root(q, lo, hi)? else { continue };
        let factor = [-r.numer().clone(), r.denom().clone()];
        roots[k] = RootInterval::Point(r);
        if let Some(rest) = super::intpoly::exact_quotient(q, &factor) {
            return exact_rational_roots(&rest, roots);
        }
    }
    // Substitute x = y/L: L^(n-1)·q(y/L) is monic with integer coefficients, so its rational
    // roots are integers, and (L > 0) it has q's signs. Bisect over the integers in each
    // interval, by integer arithmetic only.
    let Some(lead) = q.last() else { return Ok(()) };
    let lead = lead.abs();
    let n = q.len() - 1;
    let flip = q[n].is_negative();
    let mut monic: Vec<BigInt> = Vec::with_capacity(n + 1);
    let mut power = BigInt::one();
    for i in (0..n).rev() {
        let c = if flip { -&q[i] } else { q[i].clone() };
        monic.push(c * &power);
        power *= &lead;
    }
    monic.reverse();
    monic.push(BigInt::one());
    let sign = |y: &BigInt| sign_at_integer(&monic, y);
    let lead_q = BigRational::from_integer(lead.clone());
    for k in 0..roots.len() {
        let RootInterval::Open { lo, hi } = &roots[k] else { continue };
        let sign_lo = sign_at(q, lo) * if flip { Sign::Negative } else { Sign::Positive };
        // Candidates y with lo < y/L < hi.
        let mut a = (lo * &lead_q).floor().to_integer() + BigInt::one();
        let mut b = (hi * &lead_q).ceil().to_integer() - BigInt::one();
        if a > b {
            continue;
        }
        let mut found = None;
        match (sign(&a), sign(&b)) {
            (Sign::Zero, _) => found = Some(a.clone()),
            (_, Sign::Zero) => found = Some(b.clone()),
            // The sign change lies below a/L or above b/L: between two multiples of 1/L.
            (sa, sb) if sa != sign_lo || sb == sign_lo => {}
            _ => {
                // Newton's iteration on the integers first, from a binary64 guess: it settles
                // in a few evaluations where the bisection takes one per bit of L (the
                // bisection goes on from whatever bracket it leaves).
                let start =
                    super::intpoly::newton_guess(q, f64_of(lo), f64_of(hi)).and_then(|x| scaled_floor(x, &lead));
                found = newton_on_integers(&monic, &mut a, &mut b, sign_lo, start)?;
                while &b - &a > BigInt::one() {
                    crate::budget::tick()?;
                    let mid: BigInt = (&a + &b) >> 1usize;
                    match sign(&mid) {
                        Sign::Zero => {
                            found = Some(mid);
                            break;
                        }
                        s if s == sign_lo => a = mid,
                        _ => b = mid,
                    }
                }
            }
        }
        if let Some(y) = found {
            let r = BigRational::new(y, lead.clone());
            let factor = [-r.numer().clone(), r.denom().clone()];
            roots[k] = RootInterval::Point(r);
            // The rest on the quotient: its filter usually clears the intervals left, each of
            // which cost two evaluations of numbers L^(n-1) long here. (The intervals before
            // k hold no rational root.)
            if let Some(rest) = super::intpoly::exact_quotient(q, &factor) {
                return exact_rational_roots(&rest, &mut roots[k + 1..]);
            }
        }
    }
    Ok(())
}

/// Newton's iteration for the integer root of the monic `m` in [a, b], where `m(a)` has the
/// sign `s_a` and `m(b)` the other (both nonzero) and the sign changes once: each evaluation's
/// sign narrows the bracket, and a step that would leave it is a bisection instead. From a
/// start with half the bits right, quadratic convergence takes a few steps. The root if it is
/// an integer; otherwise `None`, the bracket narrowed (to two neighbours when it settled: no
/// integer root between them).
pub(crate) fn newton_on_integers(
    m: &[BigInt],
    a: &mut BigInt,
    b: &mut BigInt,
    s_a: Sign,
    start: Option<BigInt>,
) -> Result<Option<BigInt>, PolyError> {
    let inside = |y: &BigInt, a: &BigInt, b: &BigInt| y > a && y < b;
    let mut y = match start {
        Some(y) if inside(&y, a, b) => y,
        _ => (&*a + &*b) >> 1usize,
    };
    for _ in 0..16 {
        if &*b - &*a <= BigInt::one() {
            return Ok(None);
        }
        crate::budget::tick()?;
        // m(y) and m'(y) by one Horner pass.
        let (mut f, mut df) = (BigInt::zero(), BigInt::zero());
        for c in m.iter().rev() {
            df = df * &y + &f;
            f = f * &y + c;
        }
        let s = sign_of(&f);
        if s == Sign::Zero {
            return Ok(Some(y));
        }
        // The root is above y exactly when y is on a's side.
        let above = s == s_a;
        if above {
            *a = y.clone();
        } else {
            *b = y.clone();
        }
        if &*b - &*a <= BigInt::one() {
            return Ok(None);
        }
        let mut next = if df.is_zero() { y.clone() } else { &y - &f / &df };
        if next == y {
            // Within a unit of the root: step toward it.
            next = if above { &y + 1 } else { &y - 1 };
        }
        if !inside(&next, a, b) {
            next = (&*a + &*b) >> 1usize;
        }
        y = next;
    }
    Ok(None)
}

/// ⌊x·L⌋ for a finite double x (the start of [`newton_on_integers`] on the integers y = x·L).
fn scaled_floor(x: f64, l: &BigInt) -> Option<BigInt> {
    use num_traits::float::FloatCore;
    if !x.is_finite() {
        return None;
    }
    let (mantissa, exp, sign) = FloatCore::integer_decode(x);
    let v = BigInt::from(mantissa) * l * i32::from(sign);
    Some(if exp >= 0 { v << exp.unsigned_abs() } else { v >> exp.unsigned_abs() })
}

/// A rational as a double (0 when it cannot be one; only guesses are made of it).
fn f64_of(x: &BigRational) -> f64 {
    num_traits::ToPrimitive::to_f64(x).unwrap_or(0.0)
}

/// A rational root of the primitive `q` in (lo, hi) among the continued fraction convergents of
/// a binary64 guess ([`newton_guess`](super::intpoly::newton_guess)) whose denominators divide
/// the leading coefficient and stay below 2⁴⁰, proved by an exact evaluation; `None` when no
/// convergent is one (the root may still be rational: the bisection decides). Each convergent
/// is a step of the query's budget (an evaluation of `q`, and a degree's worth of intervals
/// may each try 64).
pub(crate) fn guessed_rational_root(
    q: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
) -> Result<Option<BigRational>, PolyError> {
    let (Some(l), Some(h)) = (num_traits::ToPrimitive::to_f64(lo), num_traits::ToPrimitive::to_f64(hi)) else {
        return Ok(None);
    };
    if !(l.is_finite() && h.is_finite()) {
        return Ok(None);
    }
    let (Some(lead), Some(mut r)) = (q.last(), super::intpoly::newton_guess(q, l, h)) else { return Ok(None) };
    // Convergents h/k of r: (h₋₂, h₋₁) = (0, 1), (k₋₂, k₋₁) = (1, 0).
    let (mut h0, mut h1, mut k0, mut k1) = (0i128, 1i128, 1i128, 0i128);
    for _ in 0..64 {
        crate::budget::tick()?;
        let a = r.floor();
        if !a.is_finite() || a.abs() > 2f64.powi(62) {
            return Ok(None);
        }
        let a = a as i128;
        let (Some(h2), Some(k2)) =
            (a.checked_mul(h1).and_then(|x| x.checked_add(h0)), a.checked_mul(k1).and_then(|x| x.checked_add(k0)))
        else {
            return Ok(None);
        };
        if k2 <= 0 || k2 > 1 << 40 {
            return Ok(None);
        }
        if (lead % BigInt::from(k2)).is_zero() {
            let c = BigRational::new(h2.into(), k2.into());
            if &c > lo && &c < hi && sign_at(q, &c) == Sign::Zero {
                return Ok(Some(c));
            }
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        let frac = r - r.floor();
        if frac == 0.0 {
            return Ok(None);
        }
        r = 1.0 / frac;
    }
    Ok(None)
}

/// The sign of the integer polynomial `a` (constant first) at the integer `y`, by Horner.
fn sign_at_integer(a: &[BigInt], y: &BigInt) -> Sign {
    sign_of(&a.iter().rev().fold(BigInt::zero(), |acc, c| acc * y + c))
}

/// [`exact_rational_roots`] for a quadratic q₂x² + q₁x + q₀ (q₂ > 0): its roots are rational
/// exactly when the discriminant is a perfect square, and are then (−q₁ ± √Δ)/2q₂. One integer
/// square root instead of a bisection per bit of q₂ (the closest points and distances of round
/// shapes touching by construction are such roots).
fn quadratic_rational_roots(q: &[BigInt], roots: &mut [RootInterval]) {
    let disc = &q[1] * &q[1] - BigInt::from(4) * &q[2] * &q[0];
    if disc.is_negative() {
        return;
    }
    let s = disc.sqrt();
    if &s * &s != disc {
        return;
    }
    let twice_lead = &q[2] << 1usize;
    let candidates = [BigRational::new(-&q[1] - &s, twice_lead.clone()), BigRational::new(-&q[1] + &s, twice_lead)];
    for iv in roots.iter_mut() {
        let RootInterval::Open { lo, hi } = iv else { continue };
        if let Some(r) = candidates.iter().find(|r| *r > lo && *r < hi) {
            *iv = RootInterval::Point(r.clone());
        }
    }
}

/// One bisection step of an open interval isolating a simple root of `q`, where `sign_lo` is
/// the (nonzero) sign of `q` at `lo`. Returns the midpoint if it is the root.
pub(crate) fn bisect(q: &[BigInt], lo: &mut BigRational, hi: &mut BigRational, sign_lo: Sign) -> Option<BigRational> {
    let mid = midpoint(lo, hi);
    match sign_at(q, &mid) {
        Sign::Zero => Some(mid),
        s if s == sign_lo => {
            *lo = mid;
            None
        }
        _ => {
            *hi = mid;
            None
        }
    }
}

/// (lo + hi) / 2 in lowest terms, with one gcd (Lehmer's, on limbs): `Ratio`'s sum and its
/// halving took three of num-bigint's binary gcds, which walk every bit of the numbers (a
/// bisection's endpoints grow by a bit a step).
pub(crate) fn midpoint(lo: &BigRational, hi: &BigRational) -> BigRational {
    let (n, d) = if lo.denom() == hi.denom() {
        (lo.numer() + hi.numer(), lo.denom() << 1u32)
    } else {
        (lo.numer() * hi.denom() + hi.numer() * lo.denom(), (lo.denom() * hi.denom()) << 1u32)
    };
    let g = crate::scalar::gcd::gcd_big(&n, &d);
    if g.is_one() {
        BigRational::new_raw(n, d)
    } else {
        BigRational::new_raw(crate::scalar::int::div_exact_big(&n, &g), crate::scalar::int::div_exact_big(&d, &g))
    }
}

/// Whether hi − lo > width, by cross-multiplication (denominators are positive), without the
/// difference's reduction.
pub(crate) fn wider_than(lo: &BigRational, hi: &BigRational, width: &BigRational) -> bool {
    let span = hi.numer() * lo.denom() - lo.numer() * hi.denom();
    span * width.denom() > width.numer() * lo.denom() * hi.denom()
}
