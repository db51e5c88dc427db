//! The agreement contract between the exact and the fast path (DESIGN.md §1), in one helper.
//!
//! For each query the exact path reports a [`Margin`]: the smallest relative size
//! |value| / magnitude over the sign tests that decided its discrete answer, i.e. how far the
//! input is from a configuration where that answer would change. Then:
//!
//! * if the margin exceeds the fast backend's [`budget`], the fast discrete answer must
//!   *equal* the exact one;
//! * otherwise it must be *valid within tolerance* (for a sign: the exact sign or zero, never
//!   the opposite sign; what "valid" means is the caller's, per answer type);
//! * in both cases every continuous output must lie within its stated bound of the exact
//!   value.
//!
//! Every differential test and fuzz target asserts exactly [`check`], nothing weaker.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::contract::{budget, check, weakened, Agreement, Margin};
//! use touchstone::geom::point;
//! use touchstone::predicates::{orient3d, orient3d_scaled, Orientation};
//! use touchstone::scalar::convert;
//!
//! let pts = [point::<BigRational>(0, 0, 0), point(1, 0, 0), point(0, 1, 0), point(1, 1, 1)];
//! let exact = orient3d(&pts[0], &pts[1], &pts[2], &pts[3]).unwrap();
//! let margin = Margin::of(&orient3d_scaled(&pts[0], &pts[1], &pts[2], &pts[3]));
//! let f = pts.clone().map(|p| p.map(|c| convert::<_, f64>(&c).unwrap()));
//! let fast = orient3d(&f[0], &f[1], &f[2], &f[3]).unwrap();
//! let verdict = check(&exact, &fast, &margin, budget::<f64>(), |e, f| weakened(e, f, &Orientation::Coplanar), &[]);
//! assert_eq!(verdict.unwrap(), Agreement::Strict);
//! ```

use std::fmt::Debug;

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use crate::geom::Scaled;
use crate::scalar::{decimal_of_rational, tolerance, Exact, Scalar};

/// How far an input is from changing a discrete answer, relative to the decisive expression's
/// magnitude.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Margin {
    /// |value| / magnitude of the closest decisive sign test.
    Finite(BigRational),
    /// No sign test decided the answer.
    Unbounded,
}

/// `η / u` of binary64 (2⁻¹⁰⁷⁴ / 2⁻⁵³ = 2⁻¹⁰²¹): the magnitude below which the fast path's
/// tolerance is absolute (its underflow term, [`tolerance::absolute_tolerance`]) rather than
/// relative. Margins are measured against `magnitude + MAGNITUDE_FLOOR`, so that a margin above
/// the budget means a value above twice `f64`'s whole tolerance, underflow included.
pub fn magnitude_floor() -> BigRational {
    BigRational::from_float(crate::scalar::tolerance::UNDERFLOW_WEIGHT).unwrap_or_default()
}

impl Margin {
    /// The margin of one decisive sign test: |value| / (magnitude + [`magnitude_floor`]) (0
    /// when the value is 0).
    pub fn of(scaled: &Scaled<BigRational>) -> Margin {
        if scaled.value.is_zero() {
            return Margin::Finite(BigRational::zero());
        }
        // On `Exact`, with one reduction (a Lehmer gcd) at the end, where `BigRational` would
        // reduce after the sum and again after the quotient by num-bigint's binary gcd: the
        // same value (`Exact` is exact), for a few times less work on the margins every
        // differential check takes.
        let e = |q: &BigRational| Exact::from_rational(q).abs();
        let floor = Exact::from_f64(crate::scalar::tolerance::UNDERFLOW_WEIGHT).unwrap_or_else(|_| Exact::zero());
        Margin::Finite((e(&scaled.value) / (e(&scaled.magnitude) + floor)).to_big_rational())
    }

    /// The smaller of two margins: a query's margin is that of its closest decision.
    pub fn min(self, other: Margin) -> Margin {
        match (self, other) {
            (Margin::Unbounded, m) | (m, Margin::Unbounded) => m,
            (Margin::Finite(a), Margin::Finite(b)) => Margin::Finite(if a <= b { a } else { b }),
        }
    }

    /// Whether the margin is strictly above `budget` (compared exactly).
    pub fn exceeds(&self, budget: f64) -> bool {
        match self {
            Margin::Unbounded => true,
            Margin::Finite(m) => BigRational::from_float(budget).is_some_and(|b| *m > b),
        }
    }

    /// The margin as a decimal string (`"unbounded"` when no test decided).
    pub fn to_decimal(&self, digits: u32) -> String {
        match self {
            Margin::Unbounded => "unbounded".to_string(),
            Margin::Finite(m) => decimal_of_rational(m, digits),
        }
    }
}

/// The margin above which backend `S` must agree exactly with the exact answer.
pub fn budget<S: Scalar>() -> f64 {
    tolerance::margin_budget(S::UNIT_ROUNDOFF)
}

/// The stated error bound of a continuous output of `f64` whose expression has magnitude
/// `magnitude`: its relative tolerance times the magnitude plus the relative tolerance times
/// the smallest normal double (`4096 · u · 2⁻¹⁰²²`, about 9·10⁻³⁰⁵): an output's intermediate
/// products underflow to zero when they fall below the normal range (a squared distance of
/// coordinates near 10⁻¹⁶⁰), so an output that small is held to an absolute bound only.
pub fn f64_bound(magnitude: &BigRational) -> BigRational {
    // On `Exact`, reduced once at the end (see [`Margin::of`]); both constants are doubles.
    let rel = Exact::from_f64(f64::relative_tolerance()).unwrap_or_else(|_| Exact::zero());
    let floor = Exact::from_f64(f64::relative_tolerance() * f64::MIN_POSITIVE).unwrap_or_else(|_| Exact::zero());
    (rel * Exact::from_rational(magnitude).abs() + floor).to_big_rational()
}

/// A continuous output and its stated error bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Continuous {
    /// The output's name (as in the oracle's format).
    pub field: String,
    /// The exact value.
    pub exact: BigRational,
    /// The fast path's value, exactly.
    pub fast: BigRational,
    /// The largest admissible |fast − exact|.
    pub bound: BigRational,
}

impl Continuous {
    /// Whether |fast − exact| ≤ bound, decided exactly.
    pub fn holds(&self) -> bool {
        Signed::abs(&(&self.fast - &self.exact)) <= self.bound
    }
}

/// Exact and fast agree; how strictly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The margin exceeded the budget and the discrete answers are equal.
    Strict,
    /// The margin was within the budget and the fast answer is valid within tolerance.
    WithinTolerance,
}

/// A breach of the contract: a bug in one of the two paths.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{what}: exact {exact}, fast {fast}, margin {margin}")]
pub struct Disagreement {
    /// What failed.
    pub what: String,
    /// The exact answer (debug form).
    pub exact: String,
    /// The fast answer (debug form).
    pub fast: String,
    /// The margin, as a decimal.
    pub margin: String,
}

/// Check a fast answer against the exact one under the agreement contract.
///
/// `valid_within_tolerance(exact, fast)` says whether `fast` is an admissible answer for an
/// input within the budget of a change (used only when the margin does not exceed `budget`).
pub fn check<D: PartialEq + Debug>(
    exact: &D,
    fast: &D,
    margin: &Margin,
    budget: f64,
    valid_within_tolerance: impl FnOnce(&D, &D) -> bool,
    continuous: &[Continuous],
) -> Result<Agreement, Disagreement> {
    let fail =
        |what: String, e: String, f: String| Disagreement { what, exact: e, fast: f, margin: margin.to_decimal(6) };
    let agreement = if margin.exceeds(budget) {
        if exact != fast {
            return Err(fail(
                "discrete answers differ above the budget".into(),
                format!("{exact:?}"),
                format!("{fast:?}"),
            ));
        }
        Agreement::Strict
    } else {
        if !valid_within_tolerance(exact, fast) {
            return Err(fail(
                "fast answer not valid within tolerance".into(),
                format!("{exact:?}"),
                format!("{fast:?}"),
            ));
        }
        Agreement::WithinTolerance
    };
    for c in continuous {
        if !c.holds() {
            return Err(fail(
                format!("{} off by more than {}", c.field, decimal_of_rational(&c.bound, 6)),
                decimal_of_rational(&c.exact, 20),
                decimal_of_rational(&c.fast, 20),
            ));
        }
    }
    Ok(agreement)
}

/// "Valid within tolerance" for answers with one degenerate value (a sign's zero, `Coplanar`,
/// `On`): the fast answer is the exact one or the degenerate one.
pub fn weakened<T: PartialEq>(exact: &T, fast: &T, degenerate: &T) -> bool {
    fast == exact || fast == degenerate
}
