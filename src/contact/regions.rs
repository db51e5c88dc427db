//! `MergeRegions` (Bouma and Vaněček 1992 §4.3): the pieces of one solid's boundary that lie on
//! one entity of the other, grouped by the pair of entities and merged into the connected
//! components of their union, each a region (x, y, Π) with Π a point, a segment or a polygon.

use crate::predicates::{locate_in_polygon, locate_on_segment, SegmentLocation};
use std::cmp::Ordering;

use super::Region;
use crate::brep::Feature;
use crate::geom::{Point3, Vector3};
use crate::msp::{BoundaryPiece, Class, PieceShape};
use crate::scalar::{compare_points, Decision, Scalar, Sign};

fn same<S: Scalar>(p: &Point3<S>, q: &Point3<S>) -> Decision<bool> {
    Ok(compare_points(p, q)? == Ordering::Equal)
}

/// The regions of the pieces `pieces` (of solid a's boundary, classified against b): every
/// piece on an entity y of b, grouped by (x, y), each group's union split into its connected
/// components.
pub(super) fn merge<S: Scalar>(
    pieces: &[BoundaryPiece<S>],
    normal_of: impl Fn(usize) -> Vector3<S>,
) -> Decision<Vec<Region<S>>> {
    type Group<'p, S> = ((Feature, Feature), Vec<&'p PieceShape<S>>);
    // Groups in the order their first piece comes, found through a map (pieces × groups was
    // quadratic on solids with thousands of faces).
    let mut groups: Vec<Group<S>> = Vec::new();
    let mut index: std::collections::HashMap<(Feature, Feature), usize> = std::collections::HashMap::new();
    for p in pieces {
        let Class::On(y) = &p.class else { continue };
        let key = (p.of.clone(), y.clone());
        match index.get(&key) {
            Some(&k) => groups[k].1.push(&p.shape),
            None => {
                index.insert(key.clone(), groups.len());
                groups.push((key, vec![&p.shape]));
            }
        }
    }
    let mut regions = Vec::new();
    for ((x, y), shapes) in groups {
        crate::budget::tick()?;
        let polygons: Vec<&Vec<Point3<S>>> = shapes
            .iter()
            .filter_map(|s| match s {
                PieceShape::Polygon(v) => Some(v),
                _ => None,
            })
            .collect();
        if !polygons.is_empty() {
            let Feature::Face(f) = x else { unreachable!("only a face's pieces are polygons") };
            for (outer, holes) in polygon_union(&polygons, &normal_of(f))? {
                crate::budget::push(&mut regions, Region { a: x.clone(), b: y.clone(), dim: 2, points: outer, holes })?;
            }
            continue;
        }
        for component in chains(&shapes)? {
            let dim = if component.len() == 2 { 1 } else { 0 };
            crate::budget::push(
                &mut regions,
                Region { a: x.clone(), b: y.clone(), dim, points: component, holes: Vec::new() },
            )?;
        }
    }
    Ok(regions)
}

/// The connected components of collinear open segments and points on one line (the pieces of
/// one entity on one entity: an edge on an edge or a face, a face's chord on an edge): each a
/// segment (its two ends) or a point.
fn chains<S: Scalar>(shapes: &[&PieceShape<S>]) -> Decision<Vec<Vec<Point3<S>>>> {
    // Each piece as a closed interval [lo, hi] of points, lo ≤ hi lexicographically (on a line
    // that order is the order along it, up to direction).
    let mut items: Vec<(Point3<S>, Point3<S>, bool)> = Vec::new();
    for s in shapes {
        match s {
            PieceShape::Point(p) => items.push((p.clone(), p.clone(), false)),
            PieceShape::Segment([p, q]) => {
                let (lo, hi) = if compare_points(p, q)? == Ordering::Greater { (q, p) } else { (p, q) };
                items.push((lo.clone(), hi.clone(), true));
            }
            PieceShape::Polygon(_) => {}
        }
    }
    crate::scalar::try_sort_by(&mut items, |a, b| compare_points(&a.0, &b.0))?;
    let mut out: Vec<Vec<Point3<S>>> = Vec::new();
    let mut current: Option<(Point3<S>, Point3<S>, bool)> = None;
    for (lo, hi, open) in items {
        match current.take() {
            Some((clo, chi, copen)) if same(&chi, &lo)? || compare_points(&lo, &chi)? == Ordering::Less => {
                // Touching or overlapping: one component.
                let hi = if compare_points(&hi, &chi)? == Ordering::Greater { hi } else { chi };
                current = Some((clo, hi, copen || open));
            }
            Some(done) => {
                out.push(component(done));
                current = Some((lo, hi, open));
            }
            None => current = Some((lo, hi, open)),
        }
    }
    if let Some(done) = current {
        out.push(component(done));
    }
    Ok(out)
}

fn component<S: Scalar>((lo, hi, open): (Point3<S>, Point3<S>, bool)) -> Vec<Point3<S>> {
    if open {
        vec![lo, hi]
    } else {
        vec![lo]
    }
}

/// A loop of points and its holes.
type Loops<S> = Vec<(Vec<Point3<S>>, Vec<Vec<Point3<S>>>)>;

/// The union of open convex polygons of one plane (all counterclockwise seen along `normal`),
/// pieces of one face that tile a region: its boundary loops, each outer loop (counterclockwise)
/// with the holes (clockwise) inside it, collinear vertices dropped. Edges shared by two
/// pieces cancel; an edge met by another piece's vertex (a T-junction) is split there first.
fn polygon_union<S: Scalar>(polygons: &[&Vec<Point3<S>>], normal: &Vector3<S>) -> Decision<Loops<S>> {
    // Every vertex once, in lexicographic order: the points strictly inside a segment lie
    // strictly between its ends in that order, and in that order along it.
    let mut vertices: Vec<&Point3<S>> = polygons.iter().flat_map(|p| p.iter()).collect();
    crate::scalar::try_sort_by(&mut vertices, |a, b| compare_points(a, b))?;
    crate::scalar::try_dedup_by(&mut vertices, |a, b| compare_points(a, b))?;
    let distinct = vertices;
    // The first index whose vertex is above `x` (or at it, `inclusive` false).
    let bound = |x: &Point3<S>, inclusive: bool| -> Decision<usize> {
        let (mut lo, mut hi) = (0, distinct.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let o = compare_points(distinct[mid], x)?;
            if o == Ordering::Less || (inclusive && o == Ordering::Equal) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    };
    let within = |c: &S, a: &S, b: &S| -> Decision<bool> {
        let (lo, hi) = if a.compare(b)? == Ordering::Greater { (b, a) } else { (a, b) };
        Ok(c.compare(lo)? != Ordering::Less && c.compare(hi)? != Ordering::Greater)
    };
    let mut edges: Vec<(Point3<S>, Point3<S>)> = Vec::new();
    for poly in polygons {
        for k in 0..poly.len() {
            crate::budget::tick()?;
            let (p, q) = (&poly[k], &poly[(k + 1) % poly.len()]);
            // Split at every vertex strictly inside, in order along the edge: the candidates
            // are the vertices strictly between its ends in lexicographic order, tested within
            // its bounding box first.
            let forward = compare_points(p, q)? == Ordering::Less;
            let (lo, hi) = if forward { (p, q) } else { (q, p) };
            let (first, last) = (bound(lo, true)?, bound(hi, false)?);
            let mut inner: Vec<&Point3<S>> = Vec::new();
            for &r in distinct.get(first..last.max(first)).unwrap_or(&[]) {
                crate::budget::tick()?;
                if within(&r.y, &p.y, &q.y)?
                    && within(&r.z, &p.z, &q.z)?
                    && locate_on_segment(p, q, r)? == SegmentLocation::Inside
                {
                    inner.push(r);
                }
            }
            if !forward {
                inner.reverse();
            }
            let mut from = p.clone();
            for r in inner {
                edges.push((from, r.clone()));
                from = r.clone();
            }
            edges.push((from, q.clone()));
        }
    }
    // Cancel opposite pairs: edges grouped by their ends (smaller first), and in each group as
    // many of one direction as of the other cancelled.
    let mut keyed: Vec<(usize, bool)> = Vec::with_capacity(edges.len());
    for (i, (a, b)) in edges.iter().enumerate() {
        keyed.push((i, compare_points(a, b)? == Ordering::Less));
    }
    let ends = |&(i, forward): &(usize, bool)| {
        let (a, b) = (&edges[i].0, &edges[i].1);
        if forward {
            (a, b)
        } else {
            (b, a)
        }
    };
    crate::scalar::try_sort_by(&mut keyed, |x, y| {
        let ((a0, a1), (b0, b1)) = (ends(x), ends(y));
        Ok(compare_points(a0, b0)?.then(compare_points(a1, b1)?))
    })?;
    let mut alive = vec![true; edges.len()];
    let mut g = 0;
    while g < keyed.len() {
        let mut h = g + 1;
        while h < keyed.len() && {
            let ((a0, a1), (b0, b1)) = (ends(&keyed[g]), ends(&keyed[h]));
            same(a0, b0)? && same(a1, b1)?
        } {
            h += 1;
        }
        let fwd: Vec<usize> = keyed[g..h].iter().filter(|k| k.1).map(|k| k.0).collect();
        let bwd: Vec<usize> = keyed[g..h].iter().filter(|k| !k.1).map(|k| k.0).collect();
        for (&i, &j) in fwd.iter().zip(&bwd) {
            alive[i] = false;
            alive[j] = false;
        }
        g = h;
    }
    let rest: Vec<(Point3<S>, Point3<S>)> = edges.into_iter().zip(alive).filter_map(|(e, a)| a.then_some(e)).collect();
    // Trace loops: the edges by their start, each taken once.
    let mut by_start: Vec<usize> = (0..rest.len()).collect();
    crate::scalar::try_sort_by(&mut by_start, |&i, &j| compare_points(&rest[i].0, &rest[j].0))?;
    let mut used = vec![false; rest.len()];
    let next_from = |at: &Point3<S>, used: &[bool]| -> Decision<Option<usize>> {
        let (mut lo, mut hi) = (0, by_start.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if compare_points(&rest[by_start[mid]].0, at)? == Ordering::Less {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        while lo < by_start.len() && same(&rest[by_start[lo]].0, at)? {
            if !used[by_start[lo]] {
                return Ok(Some(by_start[lo]));
            }
            lo += 1;
        }
        Ok(None)
    };
    let mut loops: Vec<Vec<Point3<S>>> = Vec::new();
    for first in (0..rest.len()).rev() {
        if used[first] {
            continue;
        }
        used[first] = true;
        let (start, mut at) = (rest[first].0.clone(), rest[first].1.clone());
        let mut lp = vec![start.clone()];
        while !same(&at, &start)? {
            crate::budget::tick()?;
            let Some(k) = next_from(&at, &used)? else { break };
            used[k] = true;
            lp.push(rest[k].0.clone());
            at = rest[k].1.clone();
        }
        loops.push(simplified(lp, normal)?);
    }
    // Outer loops turn with the normal, holes against it.
    let area = |lp: &[Point3<S>]| -> Decision<Sign> {
        let mut n = Vector3::from_element(S::zero());
        for k in 0..lp.len() {
            n += lp[k].coords.cross(&lp[(k + 1) % lp.len()].coords);
        }
        crate::predicates::dot_sign(&n, normal)
    };
    let (mut outers, mut holes): (Loops<S>, Vec<Vec<Point3<S>>>) = (Vec::new(), Vec::new());
    for lp in loops {
        if lp.len() < 3 {
            continue;
        }
        match area(&lp)? {
            Sign::Positive => outers.push((lp, Vec::new())),
            _ => holes.push(lp),
        }
    }
    for h in holes {
        // The outer loop whose closed polygon holds the hole's first vertex (the first one
        // found; nested outer loops are regions of their own).
        let mut placed = false;
        for (outer, inner) in outers.iter_mut() {
            if locate_in_polygon(outer, normal, &h[0])?.in_closure() {
                inner.push(h.clone());
                placed = true;
                break;
            }
        }
        if !placed {
            outers.push((h, Vec::new()));
        }
    }
    Ok(outers)
}

/// A loop with its collinear vertices dropped.
fn simplified<S: Scalar>(lp: Vec<Point3<S>>, normal: &Vector3<S>) -> Decision<Vec<Point3<S>>> {
    let mut lp = lp;
    loop {
        let n = lp.len();
        if n < 3 {
            return Ok(lp);
        }
        let mut dropped = false;
        for k in 0..n {
            let (a, b, c) = (&lp[(k + n - 1) % n], &lp[k], &lp[(k + 1) % n]);
            if crate::predicates::turn(a, b, c, normal)? == crate::predicates::Orientation::Coplanar {
                lp.remove(k);
                dropped = true;
                break;
            }
        }
        if !dropped {
            return Ok(lp);
        }
    }
}
