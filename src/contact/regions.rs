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
    let vertices: Vec<&Point3<S>> = polygons.iter().flat_map(|p| p.iter()).collect();
    let mut edges: Vec<(Point3<S>, Point3<S>)> = Vec::new();
    for poly in polygons {
        for k in 0..poly.len() {
            crate::budget::tick()?;
            let (p, q) = (&poly[k], &poly[(k + 1) % poly.len()]);
            // Split at every vertex strictly inside, in order along the edge.
            let mut inner: Vec<&Point3<S>> = Vec::new();
            for r in &vertices {
                if locate_on_segment(p, q, r)? == SegmentLocation::Inside
                    && !inner.iter().any(|x| same(x, r).unwrap_or(false))
                {
                    inner.push(r);
                }
            }
            let d: Vector3<S> = q - p;
            crate::scalar::try_sort_by(&mut inner, |a, b| (*a - p).dot(&d).compare(&(*b - p).dot(&d)))?;
            let mut from = p.clone();
            for r in inner {
                edges.push((from, r.clone()));
                from = r.clone();
            }
            edges.push((from, q.clone()));
        }
    }
    // Cancel opposite pairs.
    let mut alive = vec![true; edges.len()];
    for i in 0..edges.len() {
        if !alive[i] {
            continue;
        }
        for j in i + 1..edges.len() {
            if alive[j] && same(&edges[i].0, &edges[j].1)? && same(&edges[i].1, &edges[j].0)? {
                alive[i] = false;
                alive[j] = false;
                break;
            }
        }
    }
    let mut rest: Vec<(Point3<S>, Point3<S>)> =
        edges.into_iter().zip(alive).filter_map(|(e, a)| a.then_some(e)).collect();
    // Trace loops.
    let mut loops: Vec<Vec<Point3<S>>> = Vec::new();
    while let Some((start, mut at)) = rest.pop() {
        let mut lp = vec![start.clone()];
        while !same(&at, &start)? {
            crate::budget::tick()?;
            let Some(k) = rest.iter().position(|(p, _)| same(p, &at).unwrap_or(false)) else { break };
            let (p, q) = rest.swap_remove(k);
            lp.push(p);
            at = q;
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
