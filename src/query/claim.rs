//! Judging another engine's answer (a *claim*) against the exact one.
//!
//! A claim gives some of an op's output fields. Each claimed field becomes one [`Check`]:
//!
//! * a discrete field (orientation, status, collides, ...) passes only when it equals the exact
//!   answer; a claimed feature or feature pair passes when it *realises* the exact optimum (ties
//!   are real: parallel faces, face on face);
//! * a number x passes when `|x − exact| ≤ max(abs, rel·|exact|)` ([`Tolerance`]), decided
//!   exactly even when `exact` is irrational (a square root or an algebraic time) and even on
//!   the tolerance's edge;
//! * points pass when they lie on their shapes and realise the distance, within the tolerance.
//!
//! The [`Verdict`] is ok when every check is.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::error::{ErrorKind, QueryError};
use super::spec::FeatureId;
use crate::geom::Point3;
use crate::poly::Algebraic;
use crate::scalar::{decimal_of_rational, parse_rational, sqrt_decimal_of_rational, Interval};

/// The tolerance of number checks: `|x − exact| ≤ max(abs, rel·|exact|)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tolerance {
    /// The absolute part (non-negative).
    pub abs: BigRational,
    /// The relative part (non-negative).
    pub rel: BigRational,
}

impl Default for Tolerance {
    /// `abs = rel = 1e-9` (the binary64 number).
    fn default() -> Self {
        let t = BigRational::from_float(1e-9).unwrap_or_default();
        Tolerance { abs: t.clone(), rel: t }
    }
}

impl Tolerance {
    /// A tolerance; negative parts are [`ErrorKind::Invalid`] (at `/abs` or `/rel`).
    pub fn new(abs: BigRational, rel: BigRational) -> Result<Self, QueryError> {
        for (name, x) in [("abs", &abs), ("rel", &rel)] {
            if x.is_negative() {
                return Err(QueryError::new(
                    ErrorKind::Invalid,
                    &format!("/{name}"),
                    "a tolerance must not be negative",
                ));
            }
        }
        Ok(Tolerance { abs, rel })
    }

    /// Whether `|x − e| ≤ max(abs, rel·|e|)`, exactly.
    pub fn admits(&self, x: &BigRational, e: &BigRational) -> bool {
        let err = (x - e).abs();
        err <= self.abs || err <= &self.rel * e.abs()
    }

    /// Whether `|x − √d| ≤ max(abs, rel·√d)` for `d ≥ 0`, exactly (squaring, no square root).
    pub fn admits_sqrt(&self, x: &BigRational, d: &BigRational) -> bool {
        let y_at_least = |lo: &BigRational| !lo.is_positive() || *d >= lo * lo; // √d ≥ lo
        let y_at_most = |hi: &BigRational| !hi.is_negative() && *d <= hi * hi; // √d ≤ hi
        let (a, r) = (&self.abs, &self.rel);
        if y_at_least(&(x - a)) && y_at_most(&(x + a)) {
            return true;
        }
        // (1 − r)·√d ≤ x ≤ (1 + r)·√d.
        let one = BigRational::one();
        let upper = !x.is_positive() || x * x <= (&one + r) * (&one + r) * d;
        let lower = if r >= &one {
            !x.is_negative() || (r - &one) * (r - &one) * d >= x * x
        } else {
            !x.is_negative() && x * x >= (&one - r) * (&one - r) * d
        };
        upper && lower
    }

    /// Whether `|x − e| ≤ max(abs, rel·|e|)` for the exact value `e` known only by an
    /// enclosure: `Some(true)` when it holds for every value of the enclosure, `Some(false)`
    /// when for none, `None` when the enclosure reaches across the tolerance's edge (judge the
    /// exact value then).
    ///
    /// ```
    /// use touchstone::query::Tolerance;
    /// use touchstone::scalar::{ratio, Interval};
    ///
    /// let t = Tolerance::new(ratio(1, 100), ratio(0, 1)).unwrap();
    /// let e = Interval::new(0.999, 1.001).unwrap();
    /// assert_eq!(t.admits_enclosed(&ratio(1, 1), &e), Some(true));
    /// assert_eq!(t.admits_enclosed(&ratio(2, 1), &e), Some(false));
    /// assert_eq!(t.admits_enclosed(&ratio(101, 100), &e), None); // 1.01 − e straddles 0.01
    /// ```
    pub fn admits_enclosed(&self, x: &BigRational, e: &Interval) -> Option<bool> {
        use crate::scalar::Scalar;
        let enclose = <Interval as Scalar>::from_rational;
        let err = Scalar::abs(&(enclose(x) - *e));
        let rel = enclose(&self.rel) * Scalar::abs(e);
        let allowed = Scalar::maximum(&enclose(&self.abs), &rel).ok()?;
        if err.hi() <= allowed.lo() {
            Some(true)
        } else if err.lo() > allowed.hi() {
            Some(false)
        } else {
            None
        }
    }

    /// [`Tolerance::admits_enclosed`] for a claimed `√d`, `d ≥ 0` known by an enclosure.
    pub fn admits_sqrt_enclosed(&self, x: &BigRational, d: &Interval) -> Option<bool> {
        // f64 square roots are correctly rounded: one step outward encloses the exact ones.
        let lo = if d.lo() > 0.0 { d.lo().sqrt().next_down().max(0.0) } else { 0.0 };
        let hi = d.hi().sqrt().next_up();
        self.admits_enclosed(x, &Interval::new(lo, hi)?)
    }

    /// Whether `|√x − √d| ≤ max(abs, rel·√d)` for `x, d ≥ 0`, exactly (squaring twice).
    pub fn admits_sqrt_of(&self, x: &BigRational, d: &BigRational) -> bool {
        let (a, r) = (&self.abs, &self.rel);
        let four_a2 = BigRational::from_integer(4.into()) * a * a;
        // √x ≤ √d + a ⇔ x − d − a² ≤ 2a√d; and symmetrically.
        let within = |x: &BigRational, d: &BigRational| {
            let l = x - d - a * a;
            !l.is_positive() || &l * &l <= &four_a2 * d
        };
        if within(x, d) && within(d, x) {
            return true;
        }
        // (1 − r)·√d ≤ √x ≤ (1 + r)·√d.
        let one = BigRational::one();
        let upper = *x <= (&one + r) * (&one + r) * d;
        let lower = r >= &one || *x >= (&one - r) * (&one - r) * d;
        upper && lower
    }

    /// Whether `|x − α| ≤ max(abs, rel·|α|)` for a real algebraic `α`, exactly.
    pub fn admits_algebraic(&self, x: &BigRational, alpha: &Algebraic) -> bool {
        use std::cmp::Ordering::{Greater, Less};
        let (a, r) = (&self.abs, &self.rel);
        if alpha.cmp_rational(&(x - a)) != Less && alpha.cmp_rational(&(x + a)) != Greater {
            return true;
        }
        // |x − α| ≤ r·s·α with s the sign of α: (1 − r·s)·α ≤ x and x ≤ (1 + r·s)·α.
        let s = match alpha.cmp_rational(&BigRational::zero()) {
            Greater => BigRational::one(),
            Less => -BigRational::one(),
            std::cmp::Ordering::Equal => return x.is_zero(),
        };
        let one = BigRational::one();
        // c·α ≤ x
        let below = |c: BigRational| match c.signum() {
            c_sign if c_sign.is_zero() => !x.is_negative(),
            c_sign if c_sign.is_positive() => alpha.cmp_rational(&(x / &c)) != Greater,
            _ => alpha.cmp_rational(&(x / &c)) != Less,
        };
        // x ≤ d·α
        let above = |d: BigRational| match d.signum() {
            d_sign if d_sign.is_zero() => !x.is_positive(),
            d_sign if d_sign.is_positive() => alpha.cmp_rational(&(x / &d)) != Less,
            _ => alpha.cmp_rational(&(x / &d)) != Greater,
        };
        below(&one - r * &s) && above(&one + r * &s)
    }
}

/// A value shown in a check: the claimed one or the exact one.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// Nothing (an exact answer that has no such field, e.g. no `toi` when there is no contact).
    Absent,
    /// A name (`"positive"`, `"touching"`).
    Text(String),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// An exact rational.
    Rational(BigRational),
    /// A decimal string (an irrational exact value to the query's digits, truncated).
    Decimal(String),
    /// A feature.
    Feature(FeatureId),
    /// Several features (a pair).
    Features(Vec<FeatureId>),
    /// An exact point.
    Point(Point3<BigRational>),
    /// Exact points.
    Points(Vec<Point3<BigRational>>),
}

/// One claimed field judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The field, as in the op's output (`"status"`, `"points/1"`).
    pub field: String,
    /// What the claim said.
    pub claimed: Shown,
    /// The exact answer.
    pub exact: Shown,
    /// For numbers: |claimed − exact| (a decimal to 6 digits when `exact` is irrational).
    pub abs_error: Option<Shown>,
    /// Whether the claim passes.
    pub ok: bool,
    /// Why a check failed or passed on a tie, when that is not obvious.
    pub note: Option<String>,
}

impl Check {
    /// A check of a discrete field: passes when equal.
    pub fn equal(field: &str, claimed: Shown, exact: Shown) -> Check {
        let ok = claimed == exact;
        Check { field: field.into(), claimed, exact, abs_error: None, ok, note: None }
    }

    /// A check of a rational number.
    pub fn number(field: &str, claimed: &BigRational, exact: &BigRational, tol: &Tolerance) -> Check {
        Check {
            field: field.into(),
            claimed: Shown::Rational(claimed.clone()),
            exact: Shown::Rational(exact.clone()),
            abs_error: Some(Shown::Rational((claimed - exact).abs())),
            ok: tol.admits(claimed, exact),
            note: None,
        }
    }

    /// A check of a claimed `√d` (`d ≥ 0` exact), shown with `digits` digits.
    pub fn sqrt(field: &str, claimed: &BigRational, d: &BigRational, tol: &Tolerance, digits: u32) -> Check {
        let exact = sqrt_decimal_of_rational(d, digits).unwrap_or_default();
        let error = sqrt_decimal_of_rational(d, 40)
            .and_then(|s| parse_rational(&s).ok())
            .map(|y| Shown::Decimal(decimal_of_rational(&(claimed - y).abs(), 6)));
        Check {
            field: field.into(),
            claimed: Shown::Rational(claimed.clone()),
            exact: Shown::Decimal(exact),
            abs_error: error,
            ok: tol.admits_sqrt(claimed, d),
            note: None,
        }
    }

    /// A check of a claimed real algebraic number (a time).
    pub fn algebraic(field: &str, claimed: &BigRational, exact: &Algebraic, tol: &Tolerance, digits: u32) -> Check {
        let shown = exact.to_decimal(digits.min(crate::poly::MAX_DECIMAL_DIGITS)).unwrap_or_default();
        let error = exact
            .to_decimal(40)
            .ok()
            .and_then(|s| parse_rational(&s).ok())
            .map(|y| Shown::Decimal(decimal_of_rational(&(claimed - y).abs(), 6)));
        Check {
            field: field.into(),
            claimed: Shown::Rational(claimed.clone()),
            exact: match exact.to_rational() {
                Some(r) => Shown::Rational(r),
                None => Shown::Decimal(shown),
            },
            abs_error: error,
            ok: tol.admits_algebraic(claimed, exact),
            note: None,
        }
    }

    /// A check of a claimed real `x` against a value known only through exact comparisons with
    /// rationals (`cmp(q)`: the value against q), shown as the decimal `shown`: it passes when
    /// |x − v| ≤ abs, or (1 − rel)·v ≤ x ≤ (1 + rel)·v, each side one comparison.
    ///
    /// Errors: the comparison's.
    pub fn by_comparisons(
        field: &str,
        x: &BigRational,
        tol: &Tolerance,
        shown: String,
        mut cmp: impl FnMut(&BigRational) -> Result<std::cmp::Ordering, QueryError>,
    ) -> Result<Check, QueryError> {
        use std::cmp::Ordering;
        let mut within = |lo: &BigRational, hi: Option<&BigRational>| -> Result<bool, QueryError> {
            Ok(cmp(lo)? != Ordering::Less
                && match hi {
                    Some(hi) => cmp(hi)? != Ordering::Greater,
                    None => true,
                })
        };
        let abs_ok = within(&(x - &tol.abs), Some(&(x + &tol.abs)))?;
        let one = BigRational::one();
        let upper = (tol.rel < one).then(|| x / (&one - &tol.rel));
        let rel_ok = !x.is_negative() && within(&(x / (&one + &tol.rel)), upper.as_ref())?;
        Ok(Check {
            field: field.into(),
            claimed: Shown::Rational(x.clone()),
            exact: Shown::Decimal(shown),
            abs_error: None,
            ok: abs_ok || rel_ok,
            note: None,
        })
    }

    /// The same check with a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Check {
        self.note = Some(note.into());
        self
    }

    /// The check of claimed point `k` of `distance` (`points/k`): whether it lies on its shape
    /// (`ok`, decided by the caller), beside the exact point as shown.
    pub(crate) fn point_on_shape(k: usize, point: &Point3<BigRational>, exact: Shown, ok: bool) -> Check {
        let check = Check {
            field: format!("points/{k}"),
            claimed: Shown::Point(point.clone()),
            exact,
            abs_error: None,
            ok,
            note: None,
        };
        if ok {
            check
        } else {
            check.with_note(format!("the point is not on shape {}", ["a", "b"][k.min(1)]))
        }
    }

    /// The check of the distance between two claimed points of `distance` (`points`): whether
    /// it is within the tolerance of the shapes' distance (`ok`, decided by the caller),
    /// beside the exact points as shown; failing, a note with both distances (`distance`: the
    /// shapes', as text).
    pub(crate) fn points_apart(
        points: &[Point3<BigRational>; 2],
        exact: Shown,
        ok: bool,
        distance: impl FnOnce() -> String,
    ) -> Check {
        let check = Check {
            field: "points".into(),
            claimed: Shown::Points(points.to_vec()),
            exact,
            abs_error: None,
            ok,
            note: None,
        };
        if ok {
            return check;
        }
        let gap = crate::geom::norm2(&(&points[0] - &points[1]));
        let apart = sqrt_decimal_of_rational(&gap, 8).unwrap_or_default();
        check.with_note(format!("the points are {apart} apart, the shapes {}", distance()))
    }
}

/// One claimable field of an op, a row of [`super::Query::CLAIM_RULES`] (made by `judged!`):
/// its name, whether a claim states it, its checks against the exact answer, and its
/// judgement on a decided interval run when the op has one.
pub struct ClaimRule<Q: super::Query> {
    /// The field's name: the claim's member and the format's field.
    pub name: &'static str,
    /// Whether the claim states the field.
    pub stated: fn(&Q::Claim) -> bool,
    /// Its checks against the exact answer (none when the claim does not state it).
    #[allow(clippy::type_complexity)]
    pub judge: fn(&Q, &super::Answer<BigRational, Q>, &Q::Claim, &Tolerance, u32) -> Result<Vec<Check>, QueryError>,
    /// Whether it passes on an interval run that decided every decision (`None` inside:
    /// the run's enclosures cannot tell); `None`: it is judged on the exact answer only.
    #[allow(clippy::type_complexity)]
    pub enclosed: Option<fn(&Q, &super::Answer<Interval, Q>, &Q::Claim, &Tolerance) -> Option<bool>>,
}

/// The judgement of a claim: one check per claimed field.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Verdict {
    /// The checks, in the order of the op's output fields.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// Whether every check passes.
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::{real_roots, Poly};
    use crate::scalar::ratio;

    fn q(p: i64, d: i64) -> BigRational {
        ratio(p, d)
    }

    #[test]
    fn rational_tolerance_is_decided_on_its_edge() {
        let t = Tolerance::new(q(1, 10), q(0, 1)).unwrap();
        assert!(t.admits(&q(11, 10), &q(1, 1)));
        assert!(!t.admits(&q(111, 100), &q(1, 1)));
        let rel = Tolerance::new(q(0, 1), q(1, 100)).unwrap();
        assert!(rel.admits(&q(101, 1), &q(100, 1)));
        assert!(!rel.admits(&q(10101, 100), &q(100, 1)));
    }

    #[test]
    fn square_roots_are_judged_exactly() {
        // √2 = 1.41421356…: 1.4142 is within 1e-4, 1.4141 is not (|1.4141 − √2| = 1.1356e-4).
        let t = Tolerance::new(q(1, 10_000), q(0, 1)).unwrap();
        assert!(t.admits_sqrt(&q(14142, 10_000), &q(2, 1)));
        assert!(!t.admits_sqrt(&q(14141, 10_000), &q(2, 1)));
        // On the edge: |3 − √4| = 1 with abs = 1 passes, abs just below 1 fails.
        assert!(Tolerance::new(q(1, 1), q(0, 1)).unwrap().admits_sqrt(&q(3, 1), &q(4, 1)));
        assert!(!Tolerance::new(q(999, 1000), q(0, 1)).unwrap().admits_sqrt(&q(3, 1), &q(4, 1)));
        // Relative: 1% of √10000 = 1, so 101 passes and 101.01 does not; 99 passes, 98.99 not.
        let rel = Tolerance::new(q(0, 1), q(1, 100)).unwrap();
        assert!(rel.admits_sqrt(&q(101, 1), &q(10_000, 1)));
        assert!(!rel.admits_sqrt(&q(10101, 100), &q(10_000, 1)));
        assert!(rel.admits_sqrt(&q(99, 1), &q(10_000, 1)));
        assert!(!rel.admits_sqrt(&q(9899, 100), &q(10_000, 1)));
        // Zero: only 0 within a zero tolerance; a negative claim never within a relative one.
        let zero = Tolerance::new(q(0, 1), q(0, 1)).unwrap();
        assert!(zero.admits_sqrt(&q(0, 1), &q(0, 1)));
        assert!(!zero.admits_sqrt(&q(-1, 1000), &q(0, 1)));
        assert!(!rel.admits_sqrt(&q(-1, 1), &q(1, 1)));
    }

    #[test]
    fn distances_between_square_roots_are_judged_exactly() {
        // √2 against √2.0001: |Δ| = 3.5354e-5.
        let t = Tolerance::new(q(4, 100_000), q(0, 1)).unwrap();
        assert!(t.admits_sqrt_of(&q(20001, 10_000), &q(2, 1)));
        assert!(!Tolerance::new(q(3, 100_000), q(0, 1)).unwrap().admits_sqrt_of(&q(20001, 10_000), &q(2, 1)));
        // On the edge: √9 vs √4 differ by exactly 1.
        assert!(Tolerance::new(q(1, 1), q(0, 1)).unwrap().admits_sqrt_of(&q(9, 1), &q(4, 1)));
        assert!(Tolerance::new(q(1, 1), q(0, 1)).unwrap().admits_sqrt_of(&q(4, 1), &q(9, 1)));
        assert!(!Tolerance::new(q(99, 100), q(0, 1)).unwrap().admits_sqrt_of(&q(9, 1), &q(4, 1)));
        // Relative: √(1.0201·d) = 1.01·√d exactly.
        let rel = Tolerance::new(q(0, 1), q(1, 100)).unwrap();
        assert!(rel.admits_sqrt_of(&q(10201, 100), &q(100, 1)));
        assert!(!rel.admits_sqrt_of(&q(10202, 100), &q(100, 1)));
        assert!(rel.admits_sqrt_of(&q(9801, 100), &q(100, 1)));
        assert!(!rel.admits_sqrt_of(&q(9800, 100), &q(100, 1)));
        // Zero distance: only zero within a zero tolerance.
        let zero = Tolerance::new(q(0, 1), q(0, 1)).unwrap();
        assert!(zero.admits_sqrt_of(&q(0, 1), &q(0, 1)));
        assert!(!zero.admits_sqrt_of(&q(1, 1_000_000), &q(0, 1)));
    }

    #[test]
    fn algebraic_numbers_are_judged_exactly() {
        let p = Poly::from_coeffs(vec![q(-2, 1), q(0, 1), q(1, 1)]);
        let sqrt2 = real_roots(&p, &q(0, 1), &q(2, 1)).unwrap().remove(0);
        let t = Tolerance::new(q(1, 10_000), q(0, 1)).unwrap();
        assert!(t.admits_algebraic(&q(14142, 10_000), &sqrt2));
        assert!(!t.admits_algebraic(&q(14141, 10_000), &sqrt2));
        let rel = Tolerance::new(q(0, 1), q(1, 100)).unwrap();
        // 1.01·√2 = 1.4283…: 1.428 passes, 1.429 does not; 0.99·√2 = 1.40007…
        assert!(rel.admits_algebraic(&q(1428, 1000), &sqrt2));
        assert!(!rel.admits_algebraic(&q(1429, 1000), &sqrt2));
        assert!(rel.admits_algebraic(&q(14001, 10_000), &sqrt2));
        assert!(!rel.admits_algebraic(&q(14000, 10_000), &sqrt2));
        // And the same numbers agree with the square-root route.
        for x in [q(14142, 10_000), q(14141, 10_000), q(1428, 1000), q(1429, 1000), q(14001, 10_000)] {
            for tol in [&t, &rel] {
                assert_eq!(tol.admits_algebraic(&x, &sqrt2), tol.admits_sqrt(&x, &q(2, 1)), "{x}");
            }
        }
        let negative = real_roots(&p, &q(-2, 1), &q(0, 1)).unwrap().remove(0);
        assert!(rel.admits_algebraic(&q(-1428, 1000), &negative));
        assert!(!rel.admits_algebraic(&q(1414, 1000), &negative));
    }
}

/// A maximum matching of a bipartite graph (Kuhn's augmenting paths): `fits[i]` lists the right
/// vertices (below `right`) left vertex `i` may pair with; the answer gives each left vertex its
/// partner, if any. For claims of sets (regions, points) whose members may be alike: a greedy
/// pairing could give a claimed member the exact one another needed.
pub(crate) fn max_matching(fits: &[Vec<usize>], right: usize) -> Vec<Option<usize>> {
    // `seen[k] == round`: right vertex k was tried in this round (no clearing between rounds).
    fn augment(i: usize, fits: &[Vec<usize>], round: usize, seen: &mut [usize], owner: &mut [Option<usize>]) -> bool {
        for &k in &fits[i] {
            if seen[k] != round {
                seen[k] = round;
                if owner[k].is_none_or(|j| augment(j, fits, round, seen, owner)) {
                    owner[k] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    let mut owner: Vec<Option<usize>> = vec![None; right];
    let mut seen = vec![0; right];
    for i in 0..fits.len() {
        augment(i, fits, i + 1, &mut seen, &mut owner);
    }
    let mut partner = vec![None; fits.len()];
    for (k, o) in owner.iter().enumerate() {
        if let Some(i) = *o {
            partner[i] = Some(k);
        }
    }
    partner
}

#[cfg(test)]
mod matching_tests {
    use super::max_matching;

    #[test]
    fn a_greedy_choice_is_undone_when_another_needs_it() {
        // 0 fits both, 1 fits only the first: greedy gives 0 the first and leaves 1 alone.
        assert_eq!(max_matching(&[vec![0, 1], vec![0]], 2), vec![Some(1), Some(0)]);
        // Two alike claimed members, one exact one: one stays unmatched.
        assert_eq!(max_matching(&[vec![0], vec![0]], 1), vec![Some(0), None]);
        assert_eq!(max_matching(&[vec![], vec![1]], 2), vec![None, Some(1)]);
    }
}
