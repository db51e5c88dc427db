//! The agreement verdict alone, decided on a filter run where it can: what differential tests
//! and fuzz targets ask ([`agrees`]), without building the exact answer or its margin.
//!
//! [`both`](super::both) answers exactly (every decisive test kept), takes the margin and checks
//! the `f64` answer against it. But the margin only picks between the contract's two
//! branches, and when the discrete answers are *equal* both branches pass them: above the
//! budget equality is what is asked, within it validity (which equal answers have). So a run on
//! values with bounds that decided every decision (its discrete answer is the exact one, as on
//! the filtered path) settles the verdict for an op with the default contract whenever the
//! `f64` discrete answer equals it and every continuous output is within its bound of the
//! exact value *for every value the enclosures allow*. Anything else — different discrete
//! answers, a bound the enclosures straddle, a refusal — is judged by `both` itself, so the
//! verdict is always `both`'s (`tests/filtered.rs` compares the two on every generator).

use super::{both_with, Answer, Query, QueryError};
use crate::contract::Disagreement;
use crate::scalar::{MidRad, Scalar, Sign};

/// Whether `q`'s `f64` answer keeps the agreement contract: `Ok(())`, or the breach (as
/// [`both`](super::both) states it, margin and all). The same verdict as `both(q).agreement`,
/// decided on a run on values with bounds where the op allows ([`Query::agreement_decided`]);
/// the exact run only where that run cannot tell.
///
/// Errors: as `both`'s.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::query::{agrees, Distance, PoseSpec, Posed, ShapeSpec};
/// use touchstone::scalar::Scalar;
///
/// let unit = || ShapeSpec::cuboid([1.0, 0.5, 2.0].map(|x| BigRational::from_f64(x).unwrap())).unwrap();
/// let q = [0.6, 0.1, -0.3, 0.7].map(|x| BigRational::from_f64(x).unwrap());
/// let pose = PoseSpec::quaternion(q, [3.0, 1.0, 0.0].map(|x| BigRational::from_f64(x).unwrap())).unwrap();
/// let query = Distance { a: Posed::new("a", unit(), PoseSpec::default()), b: Posed::new("b", unit(), pose) };
/// assert!(agrees(&query).unwrap().is_ok());
/// ```
pub fn agrees<Q: Query>(q: &Q) -> Result<Result<(), Disagreement>, QueryError> {
    let fast = q.answer::<f64>();
    if let Ok(f) = &fast {
        match q.answer::<MidRad>() {
            Ok(decided) => {
                if let Some(verdict) = q.agreement_decided(&decided, f) {
                    super::filtered::count(|c| c.agreed += 1);
                    return Ok(verdict);
                }
            }
            Err(e) if e.kind == super::ErrorKind::Limit => return Err(e),
            Err(_) => {}
        }
    }
    Ok(both_with(q, fast)?.agreement.map(|_| ()))
}

/// The default contract's verdict on a decided run ([`Query::agreement_decided`] for ops that
/// keep the default [`Query::agreement`]): `Some(Ok(()))` when the discrete answers are equal
/// and every continuous output is certainly within its bound; `None` otherwise (the exact run
/// judges, and states any breach with its margin).
pub fn default_agreement_decided<Q: Query>(
    decided: &Answer<MidRad, Q>,
    fast: &Answer<f64, Q>,
) -> Option<Result<(), Disagreement>> {
    let (exact, fast_discrete) = (Q::discrete(&decided.output), Q::discrete(&fast.output));
    if exact != fast_discrete || !Q::valid_within_tolerance(&exact, &fast_discrete) {
        return None;
    }
    let rel = MidRad::from_f64(f64::relative_tolerance()).ok()?;
    let floor = MidRad::from_f64(f64::relative_tolerance() * f64::MIN_POSITIVE).ok()?;
    for e in &decided.continuous {
        let Some(f) = fast.continuous.iter().find(|f| f.field == e.field) else { continue };
        // |fast − exact| ≤ rel·|magnitude| + floor for every exact value and magnitude the
        // bounds allow (contract::f64_bound), decided; anything else goes to the exact run.
        let off = (MidRad::from_f64(f.value).ok()? - e.value).abs();
        if num_traits::Zero::is_zero(&off) {
            continue; // exactly the exact value: within any bound
        }
        let bound = rel * e.magnitude.abs() + floor;
        if !matches!((bound - off).sign(), Ok(Sign::Positive | Sign::Zero)) {
            return None;
        }
    }
    Some(Ok(()))
}
