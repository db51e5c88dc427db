//! Signs and the fallible-decision type.

use std::cmp::Ordering;
use std::ops::{Mul, Neg};

/// The sign of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sign {
    /// Strictly below zero.
    Negative,
    /// Exactly zero (or, for an inexact backend, within its tolerance of zero).
    Zero,
    /// Strictly above zero.
    Positive,
}

impl Sign {
    /// -1, 0 or 1.
    pub fn as_i32(self) -> i32 {
        match self {
            Sign::Negative => -1,
            Sign::Zero => 0,
            Sign::Positive => 1,
        }
    }

    /// Whether the sign is zero.
    pub fn is_zero(self) -> bool {
        self == Sign::Zero
    }
}

impl From<Ordering> for Sign {
    fn from(o: Ordering) -> Self {
        match o {
            Ordering::Less => Sign::Negative,
            Ordering::Equal => Sign::Zero,
            Ordering::Greater => Sign::Positive,
        }
    }
}

impl From<Sign> for Ordering {
    fn from(s: Sign) -> Self {
        match s {
            Sign::Negative => Ordering::Less,
            Sign::Zero => Ordering::Equal,
            Sign::Positive => Ordering::Greater,
        }
    }
}

impl Neg for Sign {
    type Output = Sign;
    fn neg(self) -> Sign {
        match self {
            Sign::Negative => Sign::Positive,
            Sign::Zero => Sign::Zero,
            Sign::Positive => Sign::Negative,
        }
    }
}

impl Mul for Sign {
    type Output = Sign;
    fn mul(self, rhs: Sign) -> Sign {
        match self.as_i32() * rhs.as_i32() {
            0 => Sign::Zero,
            1 => Sign::Positive,
            _ => Sign::Negative,
        }
    }
}

/// A backend could not decide: the answer is not certain, or not finite.
///
/// The exact backends never return it. A query that meets it is not answered on that backend:
///
/// * [`Uncertain::Close`]: a certain backend (intervals, the later filter) could not tell the
///   sign of a value too close to zero, or the order of two values too close to each other; the
///   query is rerun on an exact backend.
/// * [`Uncertain::Overflow`]: a value left the range of a floating-point backend (an
///   overflow, a NaN made from one, or a nonzero value that underflowed to zero where the
///   computation must divide by it): the backend cannot answer this input at all, and an
///   exact backend must.
/// * [`Uncertain::Exhausted`]: the query's budget ([`crate::budget`]) ran out before the
///   decision: the computation stops here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Uncertain {
    /// A sign or an order too close to call with certainty.
    #[error("the backend could not decide a sign with certainty")]
    Close,
    /// A value left the floating-point range: it overflowed (or became NaN), or a nonzero
    /// divisor underflowed to zero.
    #[error("a floating-point value left the binary64 range (overflow or underflow): use an exact backend")]
    Overflow,
    /// The query's budget ran out.
    #[error("the query's {} limit was reached", match .0 { Limit::Time => "time", Limit::Steps => "step", Limit::Bits => "bit", Limit::Memory => "memory" })]
    Exhausted(Limit),
}

pub use crate::budget::Limit;

impl From<Limit> for Uncertain {
    fn from(limit: Limit) -> Self {
        Uncertain::Exhausted(limit)
    }
}

/// The result of a decision: a value, or [`Uncertain`].
pub type Decision<T> = Result<T, Uncertain>;

/// Whether every one of several signs is zero: one decided nonzero sign settles it (`false`)
/// whatever the others; otherwise the first uncertainty, if any. For the degeneracy tests of a
/// vector (a zero normal, a zero cross product): an interval backend often cannot decide a
/// component that is exactly zero, and need not when another is clearly nonzero.
pub fn all_zero(signs: impl IntoIterator<Item = Decision<Sign>>) -> Decision<bool> {
    let mut undecided = None;
    for s in signs {
        match s {
            Ok(Sign::Zero) => {}
            Ok(_) => return Ok(false),
            Err(u) => undecided = undecided.or(Some(u)),
        }
    }
    undecided.map_or(Ok(true), Err)
}
