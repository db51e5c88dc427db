//! The `f64` pipeline of Vaněček 1990 (§3–4): contact *points* within a distance ε, clusters
//! of them reduced by priority, a tangent plane per contact, and an estimate of the collision
//! time for penetrating pairs.
//!
//! Exact backends answer contact with zero tolerance ([`super::find_contacts`]): touching means
//! the boundaries meet and the interiors are disjoint. A simulator in binary64 cannot ask that
//! question; it asks the papers' one instead. With ε the minimum separation below which
//! collisions occur (1992 §2: "no point on one object interpenetrates another to a depth
//! greater than ε; two objects *touch* if, in addition, some point on one is within ε of the
//! other"):
//!
//! 1. **Contact points.** Every vertex of either solid within ε of a feature of the other
//!    (the nearest one: a face when the foot of the perpendicular lies strictly inside it, an
//!    edge when the foot lies strictly inside it, a vertex), and every pair of edges whose
//!    closest points lie inside both and within ε (crossing; or collinear, overlapping, at the
//!    middle of the overlap). Candidate pairs come from a sweep over the features' boxes grown
//!    by ε. Edge/face and face/face pairs give no point: their bordering vertex and edge
//!    contacts stand for them (1990 §4).
//! 2. **Penetration.** The vertices, edges and faces of each solid are classified against the
//!    other's Brep-index (the backend's own tolerance, no ε): a vertex inside and farther than
//!    ε from the other's boundary, the middle of an edge's inside piece farther than ε, a face's
//!    sample point inside and farther than ε, or a face lying on a face of the other with both
//!    solids on the same side (a face's sample, or an edge's piece whose face is coplanar and
//!    the same way up) where the overlap is thicker than ε: farther than ε from both boundaries
//!    when the coinciding faces are left out ([`DepthSample::depth_squared`]; a star's tip sunk
//!    2⁻⁴⁰ into a U, flush with its top, is touching within ε). These are the *depth samples*;
//!    the contract's exact check measures the same ones ([`penetration_samples`]).
//! 3. **Status.** Penetrating when a depth sample is deeper than ε; else touching when there
//!    is a contact point; else separate.
//! 4. **Clusters.** Contact points closer than 4ε are one cluster (single linkage), each
//!    reduced to its contact of highest priority: vertex/face and face/vertex, then edge/edge,
//!    then edge/vertex and vertex/edge, then vertex/vertex (ties: the first found).
//! 5. **Tangent planes** (§4), reported as a normal out of b toward a (the paper's π points
//!    into s₂, the other way): vertex/face, b's face normal; face/vertex, a's face normal
//!    negated; crossing edges, their cross product; collinear edges, vertex/vertex and
//!    edge/vertex, the plane through the contact and the sum of the two solids' averaged
//!    unit normals (binary64 square roots: a tangent plane is an estimate, not a decision).
//! 6. **Collision time** (§3), when the solids move and penetrate: each depth sample p of a
//!    inside b is pulled back along its relative velocity w over the step Δt, to p − w·Δt; the
//!    segment from there to p is classified against b's index, and the first parameter λ at
//!    which it leaves the outside gives the time −Δt·(1 − λ) (relative to now) when that point
//!    met b's boundary. The earliest over the samples of both solids is the estimate. (The
//!    paper bisects an edge's position; its inside piece's middle stands for it here.)

use crate::geom::aabb::Aabb;
use crate::predicates::{cmp_sign, Least, PolygonLocation};
use std::cmp::Ordering;

use super::{ContactError, ContactStatus, Motion};
use crate::brep::{Feature, Solid};
use crate::geom::{Point3, Vector3};
use crate::msp::{Class, MspTree, Options};
use crate::scalar::{Decision, Scalar, Sign};

/// Options of [`find_contacts_within`].
#[derive(Clone, Debug)]
pub struct TolerantOptions<S: Scalar> {
    /// ε: the distance below which points are in contact (positive).
    pub epsilon: S,
    /// The motions of a and b with the time step Δt, for the collision-time estimate.
    pub motions: Option<(Motion<S>, Motion<S>, S)>,
}

/// A contact point (x, y, p): x a feature of a, y of b.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactPoint<S: Scalar> {
    /// The feature of a.
    pub a: Feature,
    /// The feature of b.
    pub b: Feature,
    /// The point (on a's feature for a vertex of a; the middle of the closest points for two
    /// edges).
    pub point: Point3<S>,
    /// Two parallel edges overlapping (the collinear edge/edge case).
    pub collinear: bool,
}

/// A cluster's contact with its tangent plane's normal.
#[derive(Clone, Debug, PartialEq)]
pub struct PointContact<S: Scalar> {
    /// The contact of highest priority in its cluster.
    pub contact: ContactPoint<S>,
    /// The tangent plane's normal, out of b toward a (unnormalised).
    pub normal: Vector3<S>,
    /// How many contact points its cluster has.
    pub cluster: usize,
}

/// The answer of [`find_contacts_within`].
#[derive(Clone, Debug, PartialEq)]
pub struct TolerantContacts<S: Scalar> {
    /// By the ε rules.
    pub status: ContactStatus,
    /// Every contact point found.
    pub points: Vec<ContactPoint<S>>,
    /// One contact per cluster.
    pub contacts: Vec<PointContact<S>>,
    /// For penetrating solids in motion: when they met, relative to now (in [−Δt, 0]).
    pub collision_time: Option<S>,
}

/// The priority of a contact's kind (1990 §4): higher is kept.
pub fn priority(a: &Feature, b: &Feature) -> u8 {
    match (a, b) {
        (Feature::Vertex(_), Feature::Face(_)) | (Feature::Face(_), Feature::Vertex(_)) => 3,
        (Feature::Edge(..), Feature::Edge(..)) => 2,
        (Feature::Edge(..), Feature::Vertex(_)) | (Feature::Vertex(_), Feature::Edge(..)) => 1,
        _ => 0,
    }
}

/// The contact of `a` and `b` (in one frame) by the ε rules of the papers: see the
/// module docs of `contact/tolerant.rs`.
///
/// ```
/// use touchstone::brep::shapes;
/// use touchstone::contact::{find_contacts_within, ContactStatus, TolerantOptions};
/// use touchstone::geom::{Affine, Vector3};
///
/// let cube = shapes::cube::<f64>();
/// // A second cube 1e-10 above the first: within ε = 1e-9, so touching.
/// let up = Affine::translation(Vector3::new(0.5, 0.25, 2.0 + 1e-10));
/// let top = cube.transformed(&up).unwrap();
/// let c = find_contacts_within(&top, &cube, &TolerantOptions { epsilon: 1e-9, motions: None }).unwrap();
/// assert_eq!(c.status, ContactStatus::Touching);
/// // Each contact point is its own cluster here (they are far apart); the top cube's corners
/// // over the face and the crossings of edges.
/// assert!(c.contacts.iter().all(|k| k.cluster == 1));
/// ```
pub fn find_contacts_within<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    options: &TolerantOptions<S>,
) -> Result<TolerantContacts<S>, ContactError> {
    let eps = &options.epsilon;
    if eps.sign()? != Sign::Positive {
        return Err(ContactError::Epsilon);
    }
    let points = contact_points(a, b, eps)?;
    let hybrid = Options { split: crate::msp::Split::HYBRID, ..Options::default() };
    let (index_a, index_b) = (MspTree::build(a, &hybrid)?, MspTree::build(b, &hybrid)?);
    let mut deep: Vec<(bool, Point3<S>)> = Vec::new();
    // Whether any depth sample lies in the other solid at all: shallower than ε, it makes the
    // solids touch even where no two features come within ε (an edge dipping by more than ε
    // below a ridge it crosses is within ε of no feature, its depth at the crossing below ε).
    let mut inside = false;
    for (of_a, s, other, index) in [(true, a, b, &index_b), (false, b, a, &index_a)] {
        for sample in penetration_samples(s, other, index)? {
            inside = true;
            if sample.deeper_than(s, other, eps)? {
                deep.push((of_a, sample.point));
            }
        }
    }
    let status = if !deep.is_empty() {
        ContactStatus::Penetrating
    } else if points.is_empty() && !inside {
        ContactStatus::Separate
    } else {
        ContactStatus::Touching
    };
    let contacts = reduce(a, b, &points, eps)?;
    let collision_time = match (&options.motions, status) {
        (Some((ma, mb, step)), ContactStatus::Penetrating) => {
            let mut least = Least::new();
            for (of_a, p) in &deep {
                let (mover, still, index) = if *of_a { (ma, mb, &index_b) } else { (mb, ma, &index_a) };
                least.offer(met_at(index, p, &(mover.at(p) - still.at(p)), step)?, ())?;
            }
            least.into_value()
        }
        _ => None,
    };
    Ok(TolerantContacts { status, points, contacts, collision_time })
}

/// A point of one solid whose depth in the other decides penetration ([`penetration_samples`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthSample<S: Scalar> {
    /// The point.
    pub point: Point3<S>,
    /// For a point on a face of the other solid where a face of its own lies the same way up:
    /// the feature of its own the point is in (that face, or an edge of it) and the other's
    /// face. `None`: a point inside the other.
    pub coinciding: Option<(Feature, usize)>,
}

impl<S: Scalar> DepthSample<S> {
    /// The sample's depth, squared. For a point inside `other`: its squared distance to
    /// `other`'s boundary. For a point where `own` lies on face g of `other` the same way up
    /// (both solids below the common plane, their interiors overlapping there): the thickness
    /// of the overlap at it, the least squared distance to `other`'s boundary without g and to
    /// `own`'s boundary without the feature it is in (a face; an edge with its two faces), so
    /// that a star's tip sunk 2⁻⁴⁰ into a U's side, flush with its top, is 2⁻⁴¹ deep, a plate
    /// flush with a face as deep as the plate is thick, and two slabs crossed in a plus sign,
    /// flush top and bottom, as deep as they are high.
    pub fn depth_squared(&self, own: &Solid<S>, other: &Solid<S>) -> Decision<S> {
        let Some((x, g)) = &self.coinciding else { return other.boundary_squared_distance(&self.point) };
        let d = other.boundary_squared_distance_without(&self.point, &[*g], None)?;
        let e = match *x {
            Feature::Edge(u, v) => {
                let faces = own.edge_index(u, v).map(|e| own.edge_faces(e));
                let faces: Vec<usize> = faces.map_or_else(Vec::new, |(f1, f2)| vec![f1, f2]);
                own.boundary_squared_distance_without(&self.point, &faces, Some((u, v)))?
            }
            Feature::Face(f) => own.boundary_squared_distance_without(&self.point, &[f], None)?,
            Feature::Vertex(_) => S::zero(),
        };
        Ok(if e.compare(&d)? == Ordering::Less { e } else { d })
    }

    /// Whether the sample is deeper than ε (its depth greater than ε).
    pub fn deeper_than(&self, own: &Solid<S>, other: &Solid<S>, eps: &S) -> Decision<bool> {
        let d2 = self.depth_squared(own, other)?;
        Ok((d2 - eps.clone() * eps.clone()).sign()? == Sign::Positive)
    }
}

/// The points of `s` whose depth in `other` decides penetration (step 2 of the
/// module docs of `contact/tolerant.rs`), given `other`'s index: the vertices inside, the middles of the edges'
/// inside pieces, the faces' first sample points inside; and the points where a face of `s`
/// lies on a face of `other` the same way up (a face's sample on such a face, the middle of an
/// edge's piece on a face of `other` coplanar with one of the edge's faces and the same way
/// up): there both solids are on the same side of the common plane and their interiors
/// overlap; [`DepthSample::depth_squared`] measures how thick the overlap is.
pub fn penetration_samples<S: Scalar>(
    s: &Solid<S>,
    other: &Solid<S>,
    index: &MspTree<S>,
) -> Decision<Vec<DepthSample<S>>> {
    let mut out = Vec::new();
    let inside = |point| DepthSample { point, coinciding: None };
    for p in s.vertices() {
        crate::budget::tick()?;
        if index.classify_point(p)?.class == Class::Inside {
            crate::budget::push(&mut out, inside(p.clone()))?;
        }
    }
    for &(u, v) in s.edges() {
        let (p, q) = (s.vertex(u), s.vertex(v));
        for piece in index.classify_segment(p, q)?.pieces {
            let t = || (piece.from.clone() + piece.to.clone()) / S::from_i64(2);
            match &piece.class {
                Class::Inside => crate::budget::push(&mut out, inside(p + (q - p) * t()))?,
                Class::On(Feature::Face(g)) if piece.from != piece.to => {
                    let e = s.edge_index(u, v).map(|e| s.edge_faces(e));
                    if let Some((f1, f2)) = e {
                        let m = &other.plane(*g).normal;
                        if same_way_up(&s.plane(f1).normal, m)? || same_way_up(&s.plane(f2).normal, m)? {
                            let sample =
                                DepthSample { point: p + (q - p) * t(), coinciding: Some((Feature::Edge(u, v), *g)) };
                            crate::budget::push(&mut out, sample)?;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    for f in 0..s.face_count() {
        crate::budget::tick()?;
        let Some(c) = crate::msp::face_sample_points(s, f)?.into_iter().next() else { continue };
        match index.classify_point(&c)?.class {
            Class::Inside => crate::budget::push(&mut out, inside(c))?,
            Class::On(Feature::Face(g)) if same_way_up(&s.plane(f).normal, &other.plane(g).normal)? => {
                crate::budget::push(&mut out, DepthSample { point: c, coinciding: Some((Feature::Face(f), g)) })?;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Whether two face normals are parallel and point the same way (exactly on exact backends,
/// within the backend's tolerance on others).
fn same_way_up<S: Scalar>(n: &Vector3<S>, m: &Vector3<S>) -> Decision<bool> {
    Ok(crate::predicates::parallel(n, m)? && crate::predicates::dot_sign(n, m)? == Sign::Positive)
}

/// The time, relative to now, when point `p` (inside the solid of `index`, moving at `w`
/// relative to it) met its boundary: −Δt·(1 − λ) for the first λ of the segment from
/// p − w·Δt to p that is not outside.
fn met_at<S: Scalar>(index: &MspTree<S>, p: &Point3<S>, w: &Vector3<S>, step: &S) -> Decision<S> {
    let from = p - w * step.clone();
    let pieces = index.classify_segment(&from, p)?.pieces;
    let lambda = pieces.iter().find(|x| x.class != Class::Outside).map_or_else(S::one, |x| x.from.clone());
    Ok(-(step.clone() * (S::one() - lambda)))
}

/// A feature with its box (binary64, grown by ε) for the sweep.
struct Item {
    solid: u8,
    feature: Feature,
    lo: [f64; 3],
    hi: [f64; 3],
}

fn dim(f: &Feature) -> u8 {
    match f {
        Feature::Vertex(_) => 0,
        Feature::Edge(..) => 1,
        Feature::Face(_) => 2,
    }
}

fn items<S: Scalar>(s: &Solid<S>, which: u8, grow: f64) -> Vec<Item> {
    let boxed = |vs: &[usize], feature: Feature| {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for &v in vs {
            for k in 0..3 {
                let x = s.vertex(v)[k].to_f64();
                lo[k] = lo[k].min(x - grow);
                hi[k] = hi[k].max(x + grow);
            }
        }
        Item { solid: which, feature, lo, hi }
    };
    let mut out = Vec::new();
    for v in 0..s.vertex_count() {
        out.push(boxed(&[v], Feature::Vertex(v)));
    }
    for &(u, v) in s.edges() {
        out.push(boxed(&[u, v], Feature::Edge(u, v)));
    }
    for f in 0..s.face_count() {
        out.push(boxed(s.face(f), Feature::Face(f)));
    }
    out
}

/// The pairs (feature of a, feature of b) whose grown boxes meet, of the kinds that give contact
/// points (a vertex with anything, two edges), by a sweep along x.
fn candidate_pairs<S: Scalar>(a: &Solid<S>, b: &Solid<S>, eps: &S) -> Decision<Vec<(Feature, Feature)>> {
    // Grow by ε and a relative hair, so a pair within ε is never lost to the boxes' rounding.
    let scale =
        a.vertices().iter().chain(b.vertices()).flat_map(|p| p.iter().map(|c| c.to_f64().abs())).fold(0.0, f64::max);
    let grow = eps.to_f64() * (1.0 + 1e-9) + scale * 1e-12;
    let mut all = items(a, 0, grow);
    all.extend(items(b, 1, grow));
    all.sort_by(|x, y| x.lo[0].total_cmp(&y.lo[0]));
    let mut active: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for i in 0..all.len() {
        active.retain(|&j| all[j].hi[0] >= all[i].lo[0]);
        for &j in &active {
            crate::budget::tick()?;
            let (x, y) = (&all[i], &all[j]);
            if x.solid == y.solid || !(1..3).all(|k| x.lo[k] <= y.hi[k] && y.lo[k] <= x.hi[k]) {
                continue;
            }
            let (fa, fb) = if x.solid == 0 { (&x.feature, &y.feature) } else { (&y.feature, &x.feature) };
            let keep = dim(fa) == 0 || dim(fb) == 0 || (dim(fa) == 1 && dim(fb) == 1);
            if keep {
                out.push((fa.clone(), fb.clone()));
            }
        }
        active.push(i);
    }
    Ok(out)
}

/// Whether `d2` ≤ ε².
fn within_eps<S: Scalar>(d2: &S, eps: &S) -> Decision<bool> {
    Ok((d2.clone() - eps.clone() * eps.clone()).sign()? != Sign::Positive)
}

/// The squared distance from `p` to face `f` of `s` when the foot lies strictly inside the
/// face (not on its boundary).
fn face_foot<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<Option<S>> {
    let (d, _, at) = s.face_foot(f, p)?;
    Ok((at == PolygonLocation::Inside).then_some(d))
}

/// The squared distance from `p` to the open edge (u, v), when the foot is strictly inside it.
fn edge_foot<S: Scalar>(s: &Solid<S>, (u, v): (usize, usize), p: &Point3<S>) -> Decision<Option<S>> {
    let (d, t) = crate::constructions::squared_distance_point_segment(p, s.vertex(u), s.vertex(v))?;
    Ok((crate::predicates::locate_parameter(&t)? == crate::predicates::ParameterLocation::Inside).then_some(d))
}

/// Step 1: the contact points, one per vertex (its nearest feature within ε) and one per pair
/// of edges within ε.
fn contact_points<S: Scalar>(a: &Solid<S>, b: &Solid<S>, eps: &S) -> Decision<Vec<ContactPoint<S>>> {
    let pairs = candidate_pairs(a, b, eps)?;
    // Per vertex (of a, then of b): its nearest feature of the other solid within ε.
    let mut nearest_a: Vec<Least<S, Feature>> = vec![Least::new(); a.vertex_count()];
    let mut nearest_b: Vec<Least<S, Feature>> = vec![Least::new(); b.vertex_count()];
    let mut out = Vec::new();
    let offer = |slot: &mut Least<S, Feature>, d: S, f: Feature| -> Decision<()> {
        if !within_eps(&d, eps)? {
            return Ok(());
        }
        // Nearest first; at a tie, the feature of highest dimension (the paper's priority).
        slot.offer_or_tie(d, f, |f, g| dim(f) > dim(g))
    };
    let distance_to = |s: &Solid<S>, f: &Feature, p: &Point3<S>| -> Decision<Option<S>> {
        match f {
            Feature::Vertex(w) => Ok(Some(crate::geom::norm2(&(p - s.vertex(*w))))),
            Feature::Edge(u, v) => edge_foot(s, (*u, *v), p),
            Feature::Face(g) => face_foot(s, *g, p),
        }
    };
    for (fa, fb) in &pairs {
        crate::budget::tick()?;
        match (fa, fb) {
            (Feature::Vertex(v), _) => {
                if let Some(d) = distance_to(b, fb, a.vertex(*v))? {
                    offer(&mut nearest_a[*v], d, fb.clone())?;
                }
                if let Feature::Vertex(w) = fb {
                    // And the other way round (a vertex pair is one pair, seen from both).
                    let d = crate::geom::norm2(&(a.vertex(*v) - b.vertex(*w)));
                    offer(&mut nearest_b[*w], d, fa.clone())?;
                }
            }
            (_, Feature::Vertex(w)) => {
                if let Some(d) = distance_to(a, fa, b.vertex(*w))? {
                    offer(&mut nearest_b[*w], d, fa.clone())?;
                }
            }
            (Feature::Edge(u, v), Feature::Edge(x, y)) => {
                let (p1, q1, p2, q2) = (a.vertex(*u), a.vertex(*v), b.vertex(*x), b.vertex(*y));
                if let Some(c) = edge_edge(p1, q1, p2, q2, eps)? {
                    out.push(ContactPoint { a: fa.clone(), b: fb.clone(), point: c.0, collinear: c.1 });
                }
            }
            _ => {}
        }
    }
    let mut vertex_points = Vec::new();
    let mut vertex_pairs = std::collections::HashSet::new();
    for (v, n) in nearest_a.into_iter().enumerate() {
        if let Some((_, f)) = n.into_best() {
            if let Feature::Vertex(w) = f {
                vertex_pairs.insert((v, w));
            }
            vertex_points.push(ContactPoint {
                a: Feature::Vertex(v),
                b: f,
                point: a.vertex(v).clone(),
                collinear: false,
            });
        }
    }
    for (w, n) in nearest_b.into_iter().enumerate() {
        if let Some((_, f)) = n.into_best() {
            // A vertex pair already reported from a's side is one contact.
            if let Feature::Vertex(v) = f {
                if vertex_pairs.contains(&(v, w)) {
                    continue;
                }
            }
            vertex_points.push(ContactPoint {
                a: f,
                b: Feature::Vertex(w),
                point: b.vertex(w).clone(),
                collinear: false,
            });
        }
    }
    vertex_points.extend(out);
    Ok(vertex_points)
}

/// Two edges within ε with their closest points inside both: the middle of those points; or,
/// parallel, overlapping along their common direction within ε: the middle of the overlap
/// (`true`: collinear).
fn edge_edge<S: Scalar>(
    p1: &Point3<S>,
    q1: &Point3<S>,
    p2: &Point3<S>,
    q2: &Point3<S>,
    eps: &S,
) -> Decision<Option<(Point3<S>, bool)>> {
    let two = S::from_i64(2);
    let mid = |x: &Point3<S>, y: &Point3<S>| Point3::from((&x.coords + &y.coords) / two.clone());
    let (d1, d2): (Vector3<S>, Vector3<S>) = (q1 - p1, q2 - p2);
    let cross = d1.cross(&d2);
    let parallel = crate::geom::norm2(&cross).sign_scaled(|| crate::geom::norm2(&d1) * crate::geom::norm2(&d2))?;
    if parallel != Sign::Zero {
        let Some((d, x, y)) = crate::vclip::geometry::segment_segment_interior(p1, q1, p2, q2)? else {
            return Ok(None);
        };
        // Strictly inside both (the ends are vertices: their contacts are the vertices').
        let strictly = |p: &Point3<S>, q: &Point3<S>, r: &Point3<S>| -> Decision<bool> {
            Ok(crate::scalar::compare_points(p, r)? != Ordering::Equal
                && crate::scalar::compare_points(q, r)? != Ordering::Equal)
        };
        if !within_eps(&d, eps)? || !strictly(p1, q1, &x)? || !strictly(p2, q2, &y)? {
            return Ok(None);
        }
        return Ok(Some((mid(&x, &y), false)));
    }
    // Parallel: the distance between the lines, then the overlap of the projections on d1.
    let line_d2 = {
        let w: Vector3<S> = p2 - p1;
        let c = w.cross(&d1);
        crate::geom::norm2(&c) / crate::geom::norm2(&d1)
    };
    if !within_eps(&line_d2, eps)? {
        return Ok(None);
    }
    let t = |p: &Point3<S>| (p - p1).dot(&d1);
    let (a0, a1) = (S::zero(), crate::geom::norm2(&d1));
    let (b0, b1) = {
        let (x, y) = (t(p2), t(q2));
        if x.compare(&y)? == Ordering::Greater {
            (y, x)
        } else {
            (x, y)
        }
    };
    let lo = a0.maximum(&b0)?;
    let hi = a1.minimum(&b1)?;
    if (hi.clone() - lo.clone()).sign()? != Sign::Positive {
        return Ok(None);
    }
    let tm = (lo + hi) / (two.clone() * crate::geom::norm2(&d1));
    let on1 = p1 + &d1 * tm;
    Ok(Some((on1, true)))
}

/// Steps 4–5: clusters (single linkage below 4ε) reduced by priority, with tangent planes.
fn reduce<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    points: &[ContactPoint<S>],
    eps: &S,
) -> Decision<Vec<PointContact<S>>> {
    let n = points.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let four = S::from_i64(4) * eps.clone();
    let limit = four.clone() * four.clone();
    // Candidate pairs from a grid of binary64 cells of side 4ε (grown a hair): two points closer
    // than 4ε lie in the same or neighbouring cells; each candidate is then decided exactly.
    let side = four.to_f64() * (1.0 + 1e-6);
    let cell = |p: &Point3<S>| -> Option<[i64; 3]> {
        let c = [0, 1, 2].map(|k| (p[k].to_f64() / side).floor());
        (side > 0.0 && side.is_finite() && c.iter().all(|x| x.is_finite() && x.abs() < 1e15))
            .then(|| c.map(|x| x as i64))
    };
    let mut grid: std::collections::HashMap<[i64; 3], Vec<usize>> = std::collections::HashMap::new();
    let mut loose = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match cell(&p.point) {
            Some(c) => grid.entry(c).or_default().push(i),
            None => loose.push(i),
        }
    }
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for (c, members) in &grid {
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(others) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) else { continue };
                    for &i in members {
                        candidates.extend(others.iter().filter(|&&j| j > i).map(|&j| (i, j)));
                    }
                }
            }
        }
    }
    // Points whose cell cannot be formed (huge or non-finite images) are compared with all.
    for &i in &loose {
        candidates.extend((0..n).filter(|&j| j != i).map(|j| (i.min(j), i.max(j))));
    }
    for (i, j) in candidates {
        crate::budget::tick()?;
        let d2 = crate::geom::norm2(&(&points[i].point - &points[j].point));
        if (d2 - limit.clone()).sign()? == Sign::Negative {
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            parent[ri.max(rj)] = ri.min(rj);
        }
    }
    let mut members_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        let r = root(&mut parent, i);
        members_of[r].push(i);
    }
    let mut out = Vec::new();
    for (r, members) in members_of.into_iter().enumerate() {
        if members.is_empty() {
            continue;
        }
        let best = members
            .iter()
            .copied()
            .max_by(|&i, &j| {
                priority(&points[i].a, &points[i].b).cmp(&priority(&points[j].a, &points[j].b)).then(j.cmp(&i))
            })
            .unwrap_or(r);
        let c = points[best].clone();
        let normal = tangent_normal(a, b, &c)?;
        out.push(PointContact { contact: c, normal, cluster: members.len() });
    }
    Ok(out)
}

/// `v` scaled to about unit length (binary64 norm: a tangent plane is an estimate).
fn unit<S: Scalar>(v: Vector3<S>) -> Vector3<S> {
    let n = v.iter().map(|c| c.to_f64() * c.to_f64()).sum::<f64>().sqrt();
    match S::from_f64(1.0 / n) {
        Ok(k) if n > 0.0 && n.is_finite() => v * k,
        _ => v,
    }
}

/// The averaged unit outward normal of feature `x` of `s`.
fn outward<S: Scalar>(s: &Solid<S>, x: &Feature) -> Vector3<S> {
    let faces = match x {
        Feature::Face(f) => vec![*f],
        Feature::Edge(u, v) => s
            .edge_index(*u, *v)
            .map(|e| {
                let (f, g) = s.edge_faces(e);
                vec![f, g]
            })
            .unwrap_or_default(),
        Feature::Vertex(v) => s.vertex_faces(*v),
    };
    faces.into_iter().fold(Vector3::from_element(S::zero()), |acc, f| acc + unit(s.plane(f).normal.clone()))
}

fn direction<S: Scalar>(s: &Solid<S>, x: &Feature) -> Option<Vector3<S>> {
    match x {
        Feature::Edge(u, v) => Some(s.vertex(*v) - s.vertex(*u)),
        _ => None,
    }
}

/// Step 5: the tangent plane's normal of a contact, out of b toward a.
fn tangent_normal<S: Scalar>(a: &Solid<S>, b: &Solid<S>, c: &ContactPoint<S>) -> Decision<Vector3<S>> {
    let (out_a, out_b) = (outward(a, &c.a), outward(b, &c.b));
    // Oriented out of b: along b's outward side, else against a's.
    let orient = |n: Vector3<S>| -> Decision<Vector3<S>> {
        let s = crate::predicates::dot_sign(&n, &out_b)?;
        let s = if s == Sign::Zero { crate::predicates::dot_sign(&-&n, &out_a)? } else { s };
        Ok(if s == Sign::Negative { -n } else { n })
    };
    let zero = |v: &Vector3<S>| crate::geom::is_zero_vector(v);
    let n = match (&c.a, &c.b) {
        (_, Feature::Face(g)) => b.plane(*g).normal.clone(),
        (Feature::Face(f), _) => -a.plane(*f).normal.clone(),
        (Feature::Edge(..), Feature::Edge(..)) if !c.collinear => {
            let (da, db) = (direction(a, &c.a), direction(b, &c.b));
            let (Some(da), Some(db)) = (da, db) else { return Ok(out_b) };
            orient(da.cross(&db))?
        }
        _ => {
            // The plane through the edge (or, vertex/vertex, v₁ × v₂) and v₁ + v₂, v₁ and v₂
            // the two solids' averaged unit inward vectors.
            let (v1, v2) = (-out_a.clone(), -out_b.clone());
            let sum = &v1 + &v2;
            let along = direction(a, &c.a).or_else(|| direction(b, &c.b)).unwrap_or_else(|| v1.cross(&v2));
            let n = along.cross(&sum);
            if zero(&n)? {
                // Opposite inward vectors: the plane between them.
                if zero(&out_b)? {
                    -out_a
                } else {
                    out_b
                }
            } else {
                orient(n)?
            }
        }
    };
    Ok(n)
}

/// The least squared distance between the boundaries of two solids (any shape), exactly: every
/// vertex of one against the other's boundary, every pair of edges.
pub fn solids_squared_distance<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Decision<S> {
    let mut least = Least::new();
    for (s, t) in [(a, b), (b, a)] {
        for p in s.vertices() {
            least.offer(t.boundary_squared_distance(p)?, ())?;
        }
    }
    for &(u, v) in a.edges() {
        for &(x, y) in b.edges() {
            crate::budget::tick()?;
            let d = crate::vclip::geometry::segment_segment(a.vertex(u), a.vertex(v), b.vertex(x), b.vertex(y))?.0;
            least.offer(d, ())?;
        }
    }
    Ok(least.into_value().unwrap_or_else(S::zero))
}

/// Whether the boundaries of two solids come within `r ≥ 0` of each other: whether
/// [`solids_squared_distance`] is at most r², decided without computing it. The same
/// candidates are measured, but on exact backends one whose bounding boxes lie more than r
/// apart is skipped ([`Aabb::beyond`]: its distance exceeds r), a vertex is located in a face
/// only when the face's plane is within r, and the first candidate within r ends the search.
/// For a contract check at a small ε this measures a handful of candidates instead of every
/// pair.
///
/// ```
/// use touchstone::brep::shapes;
/// use touchstone::contact::{solids_squared_distance, solids_within};
/// use touchstone::geom::{Affine, Vector3};
/// let a = shapes::cuboid(1.0, 1.0, 1.0).unwrap();
/// let b = a.transformed(&Affine::translation(Vector3::new(0.0, 0.0, 2.5))).unwrap();
/// assert_eq!(solids_squared_distance(&a, &b), Ok(0.25));
/// assert_eq!(solids_within(&a, &b, &0.5), Ok(true));
/// assert_eq!(solids_within(&a, &b, &0.25), Ok(false));
/// ```
pub fn solids_within<S: Scalar>(a: &Solid<S>, b: &Solid<S>, r: &S) -> Decision<bool> {
    let r2 = r.clone() * r.clone();
    let within = |d: S| -> Decision<bool> { Ok(cmp_sign(&d, &r2, S::zero(), S::zero())? != Sign::Positive) };
    let (ba, bb) = (Boxes::of(a), Boxes::of(b));
    // Whether two features' boxes (absent off the exact backends) are beyond r.
    let apart = |x: &Option<Aabb<S>>, y: &Option<Aabb<S>>| matches!((x, y), (Some(x), Some(y)) if x.beyond(y, &r2));
    for ((s, bs), (t, bt)) in [((a, &ba), (b, &bb)), ((b, &bb), (a, &ba))] {
        for (i, p) in s.vertices().iter().enumerate() {
            let at = &bs.vertices[i];
            for f in 0..t.face_count() {
                crate::budget::tick()?;
                if apart(at, &bt.faces[f]) {
                    continue;
                }
                let (d, foot) = crate::constructions::plane_foot(p, t.plane(f));
                if within(d)? && t.foot_in_face(f, &foot)?.in_closure() {
                    return Ok(true);
                }
            }
            for (e, &(u, v)) in t.edges().iter().enumerate() {
                if !apart(at, &bt.edges[e])
                    && within(crate::constructions::squared_distance_point_segment(p, t.vertex(u), t.vertex(v))?.0)?
                {
                    return Ok(true);
                }
            }
            for (j, q) in t.vertices().iter().enumerate() {
                if !apart(at, &bt.vertices[j]) && within(crate::geom::norm2(&(p - q)))? {
                    return Ok(true);
                }
            }
        }
    }
    for (e, &(u, v)) in a.edges().iter().enumerate() {
        for (g, &(x, y)) in b.edges().iter().enumerate() {
            crate::budget::tick()?;
            if apart(&ba.edges[e], &bb.edges[g]) {
                continue;
            }
            if within(crate::vclip::geometry::segment_segment(a.vertex(u), a.vertex(v), b.vertex(x), b.vertex(y))?.0)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The boxes of a solid's vertices, edges and faces, on exact backends (where
/// [`Aabb::beyond`] can skip anything); none elsewhere.
struct Boxes<S: Scalar> {
    vertices: Vec<Option<Aabb<S>>>,
    edges: Vec<Option<Aabb<S>>>,
    faces: Vec<Option<Aabb<S>>>,
}

impl<S: Scalar> Boxes<S> {
    fn of(s: &Solid<S>) -> Self {
        if !S::EXACT_VALUES {
            let none = |n: usize| vec![None; n];
            return Boxes {
                vertices: none(s.vertex_count()),
                edges: none(s.edge_count()),
                faces: none(s.face_count()),
            };
        }
        let vertices = s.vertices().iter().map(|p| Aabb::of([p])).collect();
        let edges = s.edges().iter().map(|&(u, v)| Aabb::of([s.vertex(u), s.vertex(v)])).collect();
        let faces = (0..s.face_count()).map(|f| Aabb::of(s.face(f).iter().map(|&v| s.vertex(v)))).collect();
        Boxes { vertices, edges, faces }
    }
}

/// Whether a depth sample of either solid in the other is deeper than `eps`, exactly.
pub fn any_deeper_than<S: Scalar>(a: &Solid<S>, b: &Solid<S>, eps: &S) -> Result<bool, ContactError> {
    let options = crate::msp::Options { split: crate::msp::Split::HYBRID, ..crate::msp::Options::default() };
    let (ia, ib) = (MspTree::build(a, &options)?, MspTree::build(b, &options)?);
    for (s, other, index) in [(a, b, &ib), (b, a, &ia)] {
        for sample in penetration_samples(s, other, index)? {
            if sample.deeper_than(s, other, eps)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}
