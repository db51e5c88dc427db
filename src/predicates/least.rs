//! The least of a stream of computed values, with what each belongs to: the running minimum
//! of squared distances and times, with one comparison policy.

use crate::scalar::{Decision, Scalar, Sign};

use super::cmp_sign;

/// The least of the values offered so far, with what it belongs to (a feature, a point, a
/// pair). A value replaces the best only when [`cmp_sign`] decides it smaller, against the
/// magnitudes of both: exact backends keep the first of equal values, and `f64` keeps the first
/// of values within its tolerance of each other, unless the caller's tie rule
/// ([`Least::offer_or_tie`]) prefers the newcomer.
///
/// ```
/// use touchstone::predicates::Least;
/// let mut least = Least::new();
/// for (d, what) in [(4.0, "face"), (1.0, "edge"), (1.0, "vertex"), (9.0, "far")] {
///     least.offer(d, what).unwrap();
/// }
/// assert_eq!(least.into_best(), Some((1.0, "edge")));
/// ```
#[derive(Clone, Debug)]
pub struct Least<S, T> {
    best: Option<(S, T)>,
}

impl<S: Scalar, T> Default for Least<S, T> {
    fn default() -> Self {
        Least { best: None }
    }
}

impl<S: Scalar, T> Least<S, T> {
    /// Nothing offered yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Offer `value`, belonging to `what`: it becomes the best when it is decided smaller.
    pub fn offer(&mut self, value: S, what: T) -> Decision<()> {
        self.offer_or_tie(value, what, |_, _| false)
    }

    /// [`Least::offer`], where a tie (the two values decided equal) goes to the newcomer when
    /// `wins_tie(new, best)` says so (a feature of higher dimension, say).
    pub fn offer_or_tie(&mut self, value: S, what: T, wins_tie: impl FnOnce(&T, &T) -> bool) -> Decision<()> {
        let better = match &self.best {
            None => true,
            Some((b, old)) => match cmp_sign(&value, b, value.abs(), b.abs())? {
                Sign::Negative => true,
                Sign::Zero => wins_tie(&what, old),
                Sign::Positive => false,
            },
        };
        if better {
            self.best = Some((value, what));
        }
        Ok(())
    }

    /// The least value offered, if any.
    pub fn value(&self) -> Option<&S> {
        self.best.as_ref().map(|(v, _)| v)
    }

    /// The least value and what it belongs to, if anything was offered.
    pub fn into_best(self) -> Option<(S, T)> {
        self.best
    }

    /// The least value, if any.
    pub fn into_value(self) -> Option<S> {
        self.best.map(|(v, _)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    #[test]
    fn exact_ties_keep_the_first_unless_the_rule_prefers_the_newcomer() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let mut least = Least::new();
        for (v, what) in [(q(3, 2), 'a'), (q(1, 3), 'b'), (q(2, 6), 'c'), (q(1, 2), 'd')] {
            least.offer(v, what).unwrap();
        }
        assert_eq!(least.value(), Some(&q(1, 3)));
        assert_eq!(least.clone().into_best(), Some((q(1, 3), 'b')));
        // A tie that the rule gives to the newcomer; a larger value it cannot win.
        least.offer_or_tie(q(1, 3), 'e', |new, old| new > old).unwrap();
        least.offer_or_tie(q(1, 2), 'z', |_, _| true).unwrap();
        assert_eq!(least.into_best(), Some((q(1, 3), 'e')));
        assert_eq!(Least::<BigRational, ()>::new().into_value(), None);
    }

    #[test]
    fn f64_values_within_the_tolerance_tie() {
        // 1 and 1 + 4 ulps are equal within f64's tolerance (4096 u relative): the first stays,
        // and a tie rule decides; 1 − 1e-9 is smaller beyond doubt.
        let mut least = Least::new();
        least.offer(1.0 + 4.0 * f64::EPSILON, "first").unwrap();
        least.offer(1.0, "second").unwrap();
        assert_eq!(least.clone().into_best(), Some((1.0 + 4.0 * f64::EPSILON, "first")));
        least.offer_or_tie(1.0, "preferred", |_, _| true).unwrap();
        assert_eq!(least.clone().into_best(), Some((1.0, "preferred")));
        least.offer(1.0 - 1e-9, "smaller").unwrap();
        assert_eq!(least.into_best(), Some((1.0 - 1e-9, "smaller")));
    }
}
