//! The sections of the route: t₀, t₁ and the times where a normal switches octants (or
//! clusters of them on backends whose times may fail to order), and the planes and gaps kept
//! on each.

use super::*;

/// A bound of the route's sections: t₀, t₁, an octant-switch time, or (on a backend whose
/// times may fail to order, see [`RootScalar::time_hull`]) a *cluster*: switch times whose
/// enclosures overlap, as their hull. Normals may switch octants inside a cluster in an order
/// the backend cannot tell, so the route crosses a cluster only where it proves the boxes
/// apart throughout it ([`Problem::apart_throughout`]).
pub(super) struct Bound<S: RootScalar> {
    pub(super) time: S::Time,
    pub(super) cluster: bool,
}

/// The octant-switch times in (t₀, t₁): roots of the 18 sign polynomials, sorted, distinct;
/// on a backend with [`RootScalar::time_hull`], times it cannot order grouped as clusters.
///
/// Clusters are not rare on intervals: under a rigid rotation b's face normals are
/// proportional to its edge directions (Nⱼ = c(t)·Lⱼ with c ≠ 0 on the interval), so
/// entries of N and L switch at exactly the same times, and no enclosure can order two equal
/// irrational times.
pub(super) fn switch_times<S: RootScalar>(rel: &Relative<S>, t0: &S, t1: &S) -> Result<Vec<Bound<S>>, PolyError> {
    let (start, end) = (S::time(t0), S::time(t1));
    let mut times = Vec::new();
    for col in rel.l.iter().chain(rel.n.iter()) {
        for p in col {
            // A constant has no roots; a polynomial zero (within the tolerance) switches
            // nothing: its term contributes 0 throughout.
            if p.p.degree().is_some_and(|d| d > 0) && !p.is_zero()? {
                for r in S::roots_in(&p.p, t0, t1)? {
                    if earlier::<S>(&start, &r)? && earlier::<S>(&r, &end)? {
                        times.push(r);
                    }
                }
            }
        }
    }
    let mut sorted = times.clone();
    match sort_times::<S>(&mut sorted) {
        Ok(()) => Ok(sorted.into_iter().map(|time| Bound { time, cluster: false }).collect()),
        Err(e) => clusters::<S>(times).ok_or(e.into()),
    }
}

/// Times grouped into clusters of overlapping enclosures, in increasing order (`None` when
/// the backend has no hulls). Sorted by their nearest doubles first; a time that the last
/// group's hull does not precede joins it.
pub(super) fn clusters<S: RootScalar>(mut times: Vec<S::Time>) -> Option<Vec<Bound<S>>> {
    times.sort_by(|a, b| S::time_to_f64(a).total_cmp(&S::time_to_f64(b)));
    let mut out: Vec<Bound<S>> = Vec::new();
    for t in times {
        if let Some(last) = out.last_mut() {
            match order::<S>(&last.time, &t) {
                Ok(std::cmp::Ordering::Less) => {}
                Ok(std::cmp::Ordering::Equal) => continue,
                _ => {
                    last.time = S::time_hull(&last.time, &t)?;
                    last.cluster = true;
                    continue;
                }
            }
        }
        out.push(Bound { time: t, cluster: false });
    }
    // Each time's double lies in its enclosure, so the groups come out increasing; checked.
    let increasing = out.windows(2).all(|w| matches!(order::<S>(&w[0].time, &w[1].time), Ok(std::cmp::Ordering::Less)));
    increasing.then_some(out)
}

/// A time strictly inside the section [lo, hi] (exact: a rational), lo itself when lo = hi.
pub(super) fn sample<S: RootScalar>(lo: &S::Time, hi: &S::Time) -> Result<S::Time, PolyError> {
    if order::<S>(lo, hi)? == std::cmp::Ordering::Equal {
        return Ok(lo.clone());
    }
    S::between(lo, hi)
}

/// The section bounds t₀, the switch times (or clusters), t₁ (t₀ twice for a zero-length
/// interval).
pub(super) fn bounds<S: RootScalar>(rel: &Relative<S>, t0: &S, t1: &S) -> Result<Vec<Bound<S>>, PolyError> {
    let (start, end) = (S::time(t0), S::time(t1));
    let mut b = vec![Bound { time: start.clone(), cluster: false }];
    if earlier::<S>(&start, &end)? {
        b.extend(switch_times(rel, t0, t1)?);
    }
    b.push(Bound { time: end, cluster: false });
    Ok(b)
}

/// Planes with distinct gap polynomials (what the search needs), with their first label.
///
/// Equal means equal representations (polynomial and magnitude): planes that are the same
/// computed object get the same decisions on every backend, so keeping one changes nothing.
/// Exactly this finds every equal plane; under rounding, equal planes of different pairs
/// usually differ in the last bits and are kept twice, which costs time only.
pub(super) fn distinct_gaps<S: RootScalar>(planes: &[Plane<S>]) -> Vec<usize> {
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap) {
            keep.push(k);
        }
    }
    keep
}

/// Planes with distinct outward direction and gap (as for [`distinct_gaps`]), with their
/// first label.
pub(super) fn distinct_planes<S: RootScalar>(pr: &Problem<'_, S>, planes: &[Plane<S>]) -> Vec<usize> {
    let dir = |p: &Plane<S>| pr.axes[p.axis].a_terms.clone().map(|a| signed(p.orient, &a));
    let mut keep: Vec<usize> = Vec::new();
    for (k, p) in planes.iter().enumerate() {
        if !keep.iter().any(|&j| planes[j].gap == p.gap && dir(&planes[j]) == dir(p)) {
            keep.push(k);
        }
    }
    keep
}
