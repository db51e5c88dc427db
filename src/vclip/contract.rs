//! The agreement contract for distances: `f64` V-Clip against exact V-Clip on the same
//! binary64 solids, and a builder of degenerate convex pairs for the property tests and the
//! fuzz target `vclip_diff`.
//!
//! The discrete answer is the [`Status`](super::Status). Its decision is the sign of the squared distance,
//! relative to [`distance_magnitude`]; above the budget the statuses must be equal, within it
//! any status is admissible (touching and penetrating are both a rounding error from
//! separated). The squared distance is a continuous output: the `f64` one must be within the
//! relative tolerance times the magnitude of the exact one. Features are not compared: when
//! several pairs realise the distance (parallel faces, parallel edges) either path may stop on
//! any of them. `f64` may refuse a solid whose edge is flat or reflex within the budget
//! (rounding broke strict convexity), and may stop at its step cap or on an uncertain sign
//! when the squared distance is within the budget of zero (the robustness experiment finds
//! rare f64 cycles a hair from penetration); any other `f64` failure is a breach.

use num_rational::BigRational;

use super::{vclip, vclip_prechecked, ClosestPair, VClipError};
use crate::brep::Solid;
use crate::contract::{budget, check, Agreement, Continuous, Disagreement, Margin};
use crate::geom::Scaled;
use crate::scalar::{Exact, Interval, Scalar};

/// A scale for squared distances between `a` and `b`: (1 + largest |coordinate| of `a` +
/// largest of `b`)². Every expression V-Clip forms a squared distance from is bounded by a
/// small multiple of it.
pub fn distance_magnitude<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> S {
    let largest = |s: &Solid<S>| {
        s.vertices().iter().flat_map(|p| p.iter().map(|x| x.abs())).fold(S::zero(), |m, x| {
            if x.to_f64() > m.to_f64() {
                x
            } else {
                m
            }
        })
    };
    let m = S::one() + largest(a) + largest(b);
    m.clone() * m
}

fn exact(s: &Solid<f64>) -> Option<Solid<BigRational>> {
    s.convert::<BigRational>().ok()
}

/// The smallest relative margin of an edge's convexity decision over both solids.
fn convexity_margin(solids: [&Solid<BigRational>; 2]) -> Margin {
    let mut m = Margin::Unbounded;
    for s in solids {
        for e in 0..s.edge_count() {
            m = m.min(Margin::of(&s.edge_convexity_scaled(e)));
        }
    }
    m
}

/// Exact V-Clip, filtered: intervals walk from the cold start (every decision certain or the
/// walk abandoned), then the exact backend starts from the features they stopped at, which is
/// the answer when they are right (V-Clip then stops at once), or walks on from there. The
/// status and squared distance are exact V-Clip's whatever the start (both are unique).
fn filtered_vclip(ea: &Solid<Exact>, eb: &Solid<Exact>) -> Result<ClosestPair<Exact>, VClipError> {
    let decided = || {
        let (ia, ib) = (ea.convert_decided::<Interval>().ok()?, eb.convert_decided::<Interval>().ok()?);
        vclip(&ia, &ib, None).ok().map(|r| r.closest.features)
    };
    match decided() {
        // Strict convexity was decided on the intervals: certain, so it holds exactly.
        Some(start) => vclip_prechecked(ea, eb, Some(start)).map(|r| r.closest),
        None => vclip(ea, eb, None).map(|r| r.closest),
    }
}

/// Check `f64` V-Clip on `a`, `b` against exact V-Clip on the same numbers (on the fast exact
/// backend, filtered by intervals: the reference's status and squared distance, at a fraction
/// of `BigRational`'s cost). `Ok(None)` when the exact solids are outside V-Clip's contract
/// (not strictly convex), so nothing is compared.
pub fn check_distance_agreement(a: &Solid<f64>, b: &Solid<f64>) -> Result<Option<Agreement>, Disagreement> {
    let (Ok(ea), Ok(eb)) = (a.convert::<Exact>(), b.convert::<Exact>()) else { return Ok(None) };
    let e = match filtered_vclip(&ea, &eb) {
        Ok(r) => r,
        Err(VClipError::NotConvex { .. } | VClipError::FlatEdge { .. } | VClipError::StraightVertex { .. }) => {
            return Ok(None)
        }
        Err(err) => {
            return Err(Disagreement {
                what: "exact V-Clip failed".into(),
                exact: err.to_string(),
                fast: String::new(),
                margin: String::new(),
            })
        }
    };
    let rational = |x: &Exact| x.to_rational().unwrap_or_default();
    let squared_distance = rational(&e.squared_distance);
    let magnitude = rational(&distance_magnitude(&ea, &eb));
    let margin = Margin::of(&Scaled { value: squared_distance.clone(), magnitude: magnitude.clone() });
    let b64 = budget::<f64>();
    let f = match vclip(a, b, None) {
        Ok(r) => r.closest,
        Err(VClipError::NotConvex { .. } | VClipError::FlatEdge { .. } | VClipError::StraightVertex { .. })
            if exact(a).zip(exact(b)).is_some_and(|(ea, eb)| !convexity_margin([&ea, &eb]).exceeds(b64)) =>
        {
            return Ok(Some(Agreement::WithinTolerance))
        }
        // Near a change of answer f64 may fail to decide (its step cap, an uncertain sign):
        // a typed refusal, never a wrong answer. Above the budget it is a breach.
        Err(VClipError::IterationCap { .. } | VClipError::Uncertain(_)) if !margin.exceeds(b64) => {
            return Ok(Some(Agreement::WithinTolerance))
        }
        Err(err) => {
            return Err(Disagreement {
                what: "f64 V-Clip failed".into(),
                exact: format!("{:?}", e.status),
                fast: err.to_string(),
                margin: margin.to_decimal(6),
            })
        }
    };
    let continuous = [Continuous {
        field: "distance_squared".into(),
        exact: squared_distance,
        fast: BigRational::from_float(f.squared_distance).unwrap_or_default(),
        bound: crate::contract::f64_bound(&magnitude),
    }];
    check(&e.status, &f.status, &margin, b64, |_, _| true, &continuous).map(Some)
}

/// The oracle query that answers the distance between these solids on both backends.
pub fn oracle_line(a: &Solid<f64>, b: &Solid<f64>) -> String {
    let shape = crate::replay::polyhedron_json;
    format!(r#"{{"op": "distance", "backend": "both", "a": {}, "b": {}}}"#, shape(a), shape(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::{convex_pair, Placement};

    /// The filtered exact V-Clip of the contract gives the reference's status and squared
    /// distance (BigRational V-Clip from the cold start) on degenerate pairs of every placement.
    #[test]
    fn filtered_vclip_is_the_reference() {
        let cloud: Vec<[i8; 3]> = (0..12).map(|i: i8| [i * 7 % 5, i * 3 % 5, i * 11 % 5]).collect();
        let mut compared = 0;
        for placement in [Placement::Free, Placement::TouchingAbove, Placement::Sunk] {
            for k in 0..36u8 {
                let qa = [1, (k % 3) as i8, 0, (k % 2) as i8];
                let qb = [(k % 4) as i8, 1, (k % 5) as i8 - 2, 0];
                let (a, b) = convex_pair((k, qa, [k as i8, 0, -3]), (k / 6, qb, [9, -(k as i8), 4]), &cloud, placement);
                let (Ok(ra), Ok(rb)) = (a.convert::<f64>(), b.convert::<f64>()) else { continue };
                let (Some(xa), Some(xb)) = (exact(&ra), exact(&rb)) else { continue };
                let reference = vclip(&xa, &xb, None).map(|r| r.closest);
                let (Ok(ea), Ok(eb)) = (ra.convert::<Exact>(), rb.convert::<Exact>()) else {
                    panic!("exact conversion")
                };
                let filtered = filtered_vclip(&ea, &eb);
                match (reference, filtered) {
                    (Ok(r), Ok(f)) => {
                        assert_eq!(r.status, f.status, "{placement:?} {k}");
                        assert_eq!(Some(r.squared_distance), f.squared_distance.to_rational(), "{placement:?} {k}");
                        compared += 1;
                    }
                    (Err(r), Err(f)) => assert_eq!(r.to_string(), f.to_string()),
                    (r, f) => panic!("{placement:?} {k}: reference {:?}, filtered {:?}", r.is_ok(), f.is_ok()),
                }
            }
        }
        assert!(compared >= 50, "{compared}");
    }
}
