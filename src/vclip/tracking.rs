//! Contact tracking (Mirtich 1998 §3): a set of feature pairs, one from each body, whose
//! closest points are tracked as the bodies move, with hysteresis.
//!
//! A [`ContactTracker`] is fed the two solids in their current world poses, step by step.
//! Each step it first re-tracks every contact of its set, exactly and without unit vectors:
//!
//! * vertex–vertex: the points are the vertices;
//! * vertex–edge: the foot of the vertex on the edge's line, e + ((v − e)·u / |u|²) u, kept
//!   while 0 ≤ (v − e)·u ≤ |u|² (between the edge's two vertex Voronoi planes);
//! * vertex–face: the foot of the vertex on the face's plane, kept while it lies inside every
//!   side Voronoi plane of the face;
//! * edge–edge: the closest points of the two lines, each kept between its edge's vertex
//!   planes (for parallel edges, whose closest points are not unique: the midpoint of the
//!   overlap of their projections, kept while the overlap is not empty);
//!
//! and inactivates (removes) a contact whose point left its feature's region or whose squared
//! distance exceeds ε². Then it runs V-Clip, warm-started from the last closest pair, and adds
//! the closest pair when the bodies are within ε and the pair is not in the set yet. Contacts
//! are only added from V-Clip's closest pairs: V-Clip returns one pair of lowest dimension
//! among tied ones (a vertex of a face lying on a face, say), and the set grows as the bodies
//! settle and other pairs become the closest, as in the paper's Figure 5.

use super::geometry::{cmp_sign, dot_sign};
use super::voronoi::{edge_ends, face_planes, Feat};
use super::{vclip_prechecked, ClosestPair, Status, VClipError};
use crate::brep::{Feature, Solid};
use crate::geom::{dot_magnitude, norm2, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// A tracked contact: a feature of each body, their closest points and squared distance.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact<S: Scalar> {
    /// The feature of the first body and of the second.
    pub features: (Feature, Feature),
    /// The closest point on each feature (where a contact force would act).
    pub points: (Point3<S>, Point3<S>),
    /// |points.0 − points.1|².
    pub squared_distance: S,
}

/// Why a contact left the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inactivation {
    /// A closest point left its feature (a vertex slid off a face or an edge, edges slid past
    /// each other).
    LeftFeature,
    /// The features are farther apart than ε.
    BeyondThreshold,
    /// A feature pair V-Clip never stops on (face–face, edge–face) cannot be tracked.
    Untrackable,
}

/// What one step of the tracker did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackStep<S: Scalar> {
    /// V-Clip's closest pair at this step.
    pub closest: ClosestPair<S>,
    /// The pair added to the set, if any.
    pub added: Option<(Feature, Feature)>,
    /// The contacts removed this step and why.
    pub removed: Vec<((Feature, Feature), Inactivation)>,
}

/// A contact set between two strictly convex bodies, tracked over time.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::{cube, cuboid};
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::scalar::ratio;
/// use touchstone::vclip::tracking::ContactTracker;
/// type Q = BigRational;
/// let q = |a: i64, b: i64| ratio::<Q>(a, b);
/// let floor = cuboid(q(8, 1), q(8, 1), q(1, 1)).unwrap()
///     .transformed(&Affine::translation(Vector3::new(q(0, 1), q(0, 1), q(-1, 1)))).unwrap();
/// // The cube 1/100 above the floor: within ε = 1/10, so the closest pair becomes a contact.
/// let lifted = |h: Q| cube::<Q>().transformed(&Affine::translation(Vector3::new(q(0, 1), q(0, 1), h))).unwrap();
/// let mut tracker = ContactTracker::new(q(1, 100)); // ε² = 1/100
/// let step = tracker.update(&lifted(q(101, 100)), &floor).unwrap();
/// assert!(step.added.is_some());
/// assert_eq!(tracker.contacts()[0].squared_distance, q(1, 10_000));
/// // Lifted by 1/2: beyond ε, the contact is inactivated.
/// let step = tracker.update(&lifted(q(3, 2)), &floor).unwrap();
/// assert_eq!(step.removed.len(), 1);
/// assert!(tracker.contacts().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct ContactTracker<S: Scalar> {
    epsilon_squared: S,
    contacts: Vec<Contact<S>>,
    warm: Option<(Feature, Feature)>,
}

impl<S: Scalar> ContactTracker<S> {
    /// An empty set with contact threshold ε given as ε² (exact for rational thresholds).
    pub fn new(epsilon_squared: S) -> Self {
        ContactTracker { epsilon_squared, contacts: Vec::new(), warm: None }
    }

    /// The active contacts.
    pub fn contacts(&self) -> &[Contact<S>] {
        &self.contacts
    }

    /// One step: re-track the set on the bodies as they are now, inactivate contacts, run
    /// V-Clip and add its closest pair if within ε. The solids must be the same two bodies
    /// (same vertex and face numbering) at every step, strictly convex (checked each step).
    pub fn update(&mut self, a: &Solid<S>, b: &Solid<S>) -> Result<TrackStep<S>, VClipError> {
        super::check_strictly_convex(a, b)?;
        let mut removed = Vec::new();
        let mut kept = Vec::new();
        for c in std::mem::take(&mut self.contacts) {
            match track(a, b, &c.features)? {
                Err(why) => removed.push((c.features, why)),
                Ok((points, d)) => {
                    let far = cmp_sign(&d, &self.epsilon_squared, magnitude(&points), self.epsilon_squared.abs())?;
                    if far == Sign::Positive {
                        removed.push((c.features, Inactivation::BeyondThreshold));
                    } else {
                        kept.push(Contact { features: c.features, points, squared_distance: d });
                    }
                }
            }
        }
        self.contacts = kept;
        let r = vclip_prechecked(a, b, self.warm.clone())?;
        self.warm = Some(r.closest.features.clone());
        let c = r.closest;
        let mut added = None;
        let within = c.status != Status::Penetrating
            && cmp_sign(&c.squared_distance, &self.epsilon_squared, magnitude(&c.points), self.epsilon_squared.abs())?
                != Sign::Positive;
        if within && !self.contacts.iter().any(|k| k.features == c.features) {
            added = Some(c.features.clone());
            self.contacts.push(Contact {
                features: c.features.clone(),
                points: c.points.clone(),
                squared_distance: c.squared_distance.clone(),
            });
        }
        Ok(TrackStep { closest: c, added, removed })
    }
}

fn magnitude<S: Scalar>((p, q): &(Point3<S>, Point3<S>)) -> S {
    p.coords.iter().zip(q.coords.iter()).fold(S::zero(), |acc, (x, y)| {
        let s = x.abs() + y.abs();
        acc + s.clone() * s
    })
}

type Tracked<S> = Result<((Point3<S>, Point3<S>), S), Inactivation>;

fn ends<S: Scalar>(s: &Solid<S>, e: usize) -> (Point3<S>, Point3<S>) {
    let (t, h) = edge_ends(s, e);
    (s.vertex(t).clone(), s.vertex(h).clone())
}

/// The foot of `p` on the line of edge `e` of `s`, if between the edge's vertex planes.
fn on_edge<S: Scalar>(s: &Solid<S>, e: usize, p: &Point3<S>) -> Decision<Option<Point3<S>>> {
    let (t, h) = ends(s, e);
    let u: Vector3<S> = &h - &t;
    let w: Vector3<S> = p - &t;
    let (along, len2) = (w.dot(&u), norm2(&u));
    if dot_sign(&w, &u)? == Sign::Negative
        || cmp_sign(&along, &len2, dot_magnitude(&w, &u), len2.clone())? == Sign::Positive
    {
        return Ok(None);
    }
    Ok(Some(t + u * (along / len2)))
}

/// The foot of `p` on the plane of face `f` of `s`, if inside the face's side planes.
fn on_face<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> Decision<Option<Point3<S>>> {
    let foot = crate::constructions::plane_foot(p, s.plane(f)).1;
    for vp in face_planes(s, f) {
        if vp.sign(&foot)? == Sign::Negative {
            return Ok(None);
        }
    }
    Ok(Some(foot))
}

/// The closest points of the lines of two edges, each on its edge, or the midpoint of the
/// overlap for parallel edges.
fn edge_edge<S: Scalar>(a: &Solid<S>, e1: usize, b: &Solid<S>, e2: usize) -> Decision<Option<(Point3<S>, Point3<S>)>> {
    let ((p1, q1), (p2, q2)) = (ends(a, e1), ends(b, e2));
    let (d1, d2): (Vector3<S>, Vector3<S>) = (&q1 - &p1, &q2 - &p2);
    if crate::predicates::parallel(&d1, &d2)? {
        // Parameters of edge 2's ends along edge 1, scaled by |d1|²: the overlap with [0, |d1|²].
        let len2 = norm2(&d1);
        let (s0, s1) = ((&p2 - &p1).dot(&d1), (&q2 - &p1).dot(&d1));
        let less = |x: &S, y: &S| -> Decision<bool> { Ok(cmp_sign(x, y, x.abs(), y.abs())? == Sign::Negative) };
        let (lo, hi) = if less(&s1, &s0)? { (s1, s0) } else { (s0, s1) };
        let lo = if less(&lo, &S::zero())? { S::zero() } else { lo };
        let hi = if less(&len2, &hi)? { len2.clone() } else { hi };
        if less(&hi, &lo)? {
            return Ok(None);
        }
        let x = &p1 + &d1 * ((lo + hi) / (len2.clone() + len2));
        return Ok(on_edge(b, e2, &x)?.map(|y| (x, y)));
    }
    // x = p1 + s d1 with s = ((p2 − p1)·(d1|d2|² − (d1·d2) d2)) / (|d1|²|d2|² − (d1·d2)²).
    let (a11, a22, a12) = (norm2(&d1), norm2(&d2), d1.dot(&d2));
    let r: Vector3<S> = &p2 - &p1;
    let num = r.dot(&d1) * a22.clone() - r.dot(&d2) * a12.clone();
    let den = a11 * a22 - a12.clone() * a12;
    let x = &p1 + &d1 * (num / den);
    let Some(y) = on_edge(b, e2, &x)? else { return Ok(None) };
    Ok(on_edge(a, e1, &y)?.map(|x| (x, y)))
}

fn track<S: Scalar>(a: &Solid<S>, b: &Solid<S>, f: &(Feature, Feature)) -> Decision<Tracked<S>> {
    let fa = Feat::from_public(a, &f.0);
    let fb = Feat::from_public(b, &f.1);
    let pts = match (fa, fb) {
        (Some(Feat::V(v)), Some(Feat::V(w))) => Some((a.vertex(v).clone(), b.vertex(w).clone())),
        (Some(Feat::V(v)), Some(Feat::E(e))) => on_edge(b, e, a.vertex(v))?.map(|y| (a.vertex(v).clone(), y)),
        (Some(Feat::E(e)), Some(Feat::V(v))) => on_edge(a, e, b.vertex(v))?.map(|x| (x, b.vertex(v).clone())),
        (Some(Feat::V(v)), Some(Feat::F(g))) => on_face(b, g, a.vertex(v))?.map(|y| (a.vertex(v).clone(), y)),
        (Some(Feat::F(g)), Some(Feat::V(v))) => on_face(a, g, b.vertex(v))?.map(|x| (x, b.vertex(v).clone())),
        (Some(Feat::E(e1)), Some(Feat::E(e2))) => edge_edge(a, e1, b, e2)?,
        _ => return Ok(Err(Inactivation::Untrackable)),
    };
    Ok(match pts {
        None => Err(Inactivation::LeftFeature),
        Some((p, q)) => {
            let d = norm2(&(&p - &q));
            Ok(((p, q), d))
        }
    })
}
