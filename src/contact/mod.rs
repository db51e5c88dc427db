//! Contact analysis of two polyhedral solids, convex or not (Bouma and Vaněček 1992 §3–4):
//! the set-theoretic intersection of their boundaries as regions (x, y, Π), the status, the
//! sufficient subset R_t of Definition 2 and its contact normals by Conditions (6)–(8).
//!
//! # FindContacts (§4.3)
//! 1. Both solids are given in one frame (the query layer poses them exactly).
//! 2. With relative motions, the entities moving away from the other solid are culled
//!    (Eqs. 9–13): a face whose every point has relative velocity pointing strictly into its
//!    own solid (checked at its vertices: the velocity is affine in the point, so negative at
//!    the vertices is negative on the whole face), and an edge or vertex whose faces are all
//!    culled. Such an entity may touch at t but not an instant after: its regions are not
//!    contacts. (The status below is the geometry's at t, from every entity.)
//! 3. The boundary of a (its vertices, open edges and open faces) is classified against b's
//!    Brep-index ([`MspTree::classify_boundary`]: `Intersect` with `SplitRegions`), and the
//!    pieces that lie on an entity y of b are merged per pair (x, y) into the connected
//!    components of their union (`MergeRegions`): I_t, every region with x ∩ y ≠ ∅, each a
//!    point, an open segment or an open polygon (its outer loop, counterclockwise seen from
//!    outside a's face, and its holes), no two the same.
//! 4. The status: **penetrating** when some piece of either boundary lies in the other's
//!    interior (b's boundary is classified against a's index too) or two faces coincide with
//!    both solids on the same side; **touching** when the boundaries meet otherwise; else
//!    **separate**. Exactly, with zero tolerance, on exact backends: if the interiors
//!    overlap, either a boundary enters the other's interior or the overlap is bounded by
//!    faces shared with the same orientation (every boundary point of the overlap lies on
//!    both boundaries).
//! 5. R_t (Definition 2, Eqs. 3–4): every 2D region; a 1D region unless, at its midpoint,
//!    nothing of either solid is left once the spaces H_i(r') of the adjacent 2D regions of
//!    R_t are taken away; a 0D region likewise against the adjacent 1D and 2D ones. H_i is the
//!    half-space below a face, the intersection of a convex edge's two (h₁ ∩ h₂) or the union
//!    of a reflex edge's (h₁ ∪ h₂); what is left of a solid near the point is its cone of
//!    interior directions minus those, decided exactly (`cones.rs`). At a vertex that is not
//!    convex the cone is the union of the cells of its faces' planes that point inside
//!    (decided through the solid's index). For a 1D region where one solid's entity is a
//!    reflex edge and the other's a convex edge in its corner, the reflex side's H is
//!    everything outside the convex wedge (the h₁ ∪ h₄ the paper proposes for its Fig. 5).
//! 6. Normals, unnormalised, pointing out of b toward a: (6) a region whose pair (x, y) was a
//!    previous contact keeps its normals; (7) one whose pair is adjacent to a previous
//!    contact's (one entity the same or adjacent, the other adjacent) whose entities both have
//!    convex neighbourhoods keeps those; (8) a new one gets normals from the local geometry:
//!    2D, b's face normal; 1D, the two face normals of a reflex edge (of b; of a, negated), or
//!    one separating normal when both are convex (the face's, for an edge on a face; the cross
//!    product of two crossing edges; b's edge bisector for collinear edges); 0D, the same
//!    cases for a vertex on a face, an edge or crossing edges, and at a vertex on a vertex the
//!    three most transversal of the face normals there (largest |det| over the norms).

mod cones;
mod regions;
mod tolerant;

pub use tolerant::{
    any_deeper_than, find_contacts_within, penetration_samples, priority, solids_squared_distance, solids_within,
    ContactPoint, DepthSample, PointContact, TolerantContacts, TolerantOptions,
};

use crate::brep::{Feature, Solid};
use crate::geom::{Point3, Vector3};
use crate::msp::{Class, MspError, MspTree, Options, Split};
use crate::predicates::{dot_sign, locate_in_polygon};
use crate::scalar::{Certain, Decision, Scalar, Sign, Uncertain};

/// A region (x, y, Π): x an entity of a, y of b (open point sets), and Π its point set.
#[derive(Clone, Debug, PartialEq)]
pub struct Region<S: Scalar> {
    /// The entity of a.
    pub a: Feature,
    /// The entity of b.
    pub b: Feature,
    /// 0, 1 or 2.
    pub dim: u8,
    /// The point (0D), the segment's ends (1D), or the polygon's outer loop (2D,
    /// counterclockwise seen from outside a's face, no three consecutive points collinear).
    pub points: Vec<Point3<S>>,
    /// A 2D region's holes (clockwise loops).
    pub holes: Vec<Vec<Point3<S>>>,
}

impl<S: Scalar> Region<S> {
    /// The squared distance from `p` to the region's closure (its point, its closed segment,
    /// or its closed polygon with the holes' insides left out).
    ///
    /// ```
    /// use touchstone::brep::Feature;
    /// use touchstone::contact::Region;
    /// use touchstone::geom::point;
    /// use num_rational::BigRational;
    /// let square = Region::<BigRational> {
    ///     a: Feature::Face(0),
    ///     b: Feature::Face(0),
    ///     dim: 2,
    ///     points: vec![point(0, 0, 0), point(2, 0, 0), point(2, 2, 0), point(0, 2, 0)],
    ///     holes: Vec::new(),
    /// };
    /// let d = |x, y, z| square.squared_distance(&point(x, y, z)).unwrap();
    /// assert_eq!(d(1, 1, 3), BigRational::from_integer(9.into()));
    /// assert_eq!(d(4, 1, 0), BigRational::from_integer(4.into()));
    /// ```
    pub fn squared_distance(&self, p: &Point3<S>) -> Decision<S> {
        let seg = |a: &Point3<S>, b: &Point3<S>| -> Decision<S> {
            Ok(crate::constructions::squared_distance_point_segment(p, a, b)?.0)
        };
        match (self.dim, self.points.as_slice()) {
            (0, [q, ..]) => Ok(crate::geom::norm2(&(p - q))),
            (1, [a, b, ..]) => seg(a, b),
            _ => {
                let mut n = Vector3::from_element(S::zero());
                let k = self.points.len();
                for i in 0..k {
                    n += self.points[i].coords.cross(&self.points[(i + 1) % k].coords);
                }
                let plane = crate::geom::Plane::anchored(n.clone(), &self.points[0]);
                let (d, foot) = crate::constructions::plane_foot(p, &plane);
                let mut inside = locate_in_polygon(&self.points, &n, &foot)?.in_closure();
                for h in &self.holes {
                    let reversed: Vec<Point3<S>> = h.iter().rev().cloned().collect();
                    if locate_in_polygon(&reversed, &n, &foot)?.in_closure() && !on_loop(h, &foot)? {
                        inside = false;
                    }
                }
                if inside {
                    return Ok(d);
                }
                let mut least = crate::predicates::Least::new();
                for lp in std::iter::once(&self.points).chain(self.holes.iter()) {
                    for i in 0..lp.len() {
                        least.offer(seg(&lp[i], &lp[(i + 1) % lp.len()])?, ())?;
                    }
                }
                Ok(least.into_value().unwrap_or(d))
            }
        }
    }
}

/// How two solids meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactStatus {
    /// The boundaries do not meet.
    Separate,
    /// The boundaries meet and the interiors are disjoint.
    Touching,
    /// The interiors overlap.
    Penetrating,
}

/// A rigid motion's velocity: the point p moves at `linear + angular × (p − center)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion<S: Scalar> {
    /// The velocity of `center`.
    pub linear: Vector3<S>,
    /// The angular velocity.
    pub angular: Vector3<S>,
    /// The point the angular velocity turns about (the body's frame origin).
    pub center: Point3<S>,
}

impl<S: Scalar> Motion<S> {
    /// The velocity of point `p`.
    pub fn at(&self, p: &Point3<S>) -> Vector3<S> {
        &self.linear + self.angular.cross(&(p - &self.center))
    }
}

/// A contact of the previous step (the caller's C_{t−Δt}): its entities and normals.
#[derive(Clone, Debug, PartialEq)]
pub struct Previous<S: Scalar> {
    /// The entity of a.
    pub a: Feature,
    /// The entity of b.
    pub b: Feature,
    /// Its normals.
    pub normals: Vec<Vector3<S>>,
}

/// Options of [`find_contacts`].
#[derive(Clone, Debug)]
pub struct ContactOptions<S: Scalar> {
    /// The split of both Brep-indices.
    pub split: Split,
    /// The motions of a and b, for back-face culling (none: nothing is culled).
    pub motions: Option<(Motion<S>, Motion<S>)>,
    /// The previous step's contacts, for the normals' temporal coherence.
    pub previous: Vec<Previous<S>>,
}

impl<S: Scalar> Default for ContactOptions<S> {
    fn default() -> Self {
        ContactOptions { split: Split::HYBRID, motions: None, previous: Vec::new() }
    }
}

/// Where a contact's normals came from (Conditions (6)–(8)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NormalSource {
    /// (6): the same pair was a previous contact.
    Persisted,
    /// (7): a previous contact shrank to it, around convex neighbourhoods.
    Shrunk,
    /// (8): from the local geometry.
    New,
}

/// A region of R_t with its normals.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact<S: Scalar> {
    /// The region.
    pub region: Region<S>,
    /// Its normals, out of b toward a (unnormalised; 1 to 3).
    pub normals: Vec<Vector3<S>>,
    /// Where they came from.
    pub source: NormalSource,
}

/// The answer of [`find_contacts`].
#[derive(Clone, Debug, PartialEq)]
pub struct Contacts<S: Scalar> {
    /// Separate, touching or penetrating.
    pub status: ContactStatus,
    /// I_t: every region (culled ones included).
    pub regions: Vec<Region<S>>,
    /// The regions of `regions` whose entities were culled (by index).
    pub culled: Vec<usize>,
    /// R_t, with normals (a subset of the regions not culled).
    pub contacts: Vec<Contact<S>>,
}

/// Why contacts could not be found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContactError {
    /// A Brep-index could not be built or walked.
    #[error(transparent)]
    Index(#[from] MspError),
    /// The tolerance ε of [`find_contacts_within`] is not positive.
    #[error("epsilon must be positive")]
    Epsilon,
}

impl From<Uncertain> for ContactError {
    fn from(u: Uncertain) -> Self {
        ContactError::Index(MspError::Uncertain(u))
    }
}

/// The contacts of `a` and `b`, given in one frame (see the [module docs](self)).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes;
/// use touchstone::contact::{find_contacts, ContactOptions, ContactStatus};
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::scalar::Scalar;
///
/// type Q = BigRational;
/// let cube = shapes::cube::<Q>();
/// // A second cube on the first, shifted by half a side: they share a 1 × 2 rectangle.
/// let moved = Affine::translation(Vector3::new(Q::from_i64(1), Q::from_i64(0), Q::from_i64(2)));
/// let top = cube.transformed(&moved).unwrap();
/// let c = find_contacts(&top, &cube, &ContactOptions::default()).unwrap();
/// assert_eq!(c.status, ContactStatus::Touching);
/// // R_t is the one face-on-face region (its edges and vertices on the face are implied).
/// assert_eq!(c.contacts.len(), 1);
/// assert_eq!(c.contacts[0].region.dim, 2);
/// assert_eq!(c.contacts[0].region.points.len(), 4);
/// ```
pub fn find_contacts<S: Certain>(
    a: &Solid<S>,
    b: &Solid<S>,
    options: &ContactOptions<S>,
) -> Result<Contacts<S>, ContactError> {
    let index_options = Options { split: options.split, ..Options::default() };
    let index_b = MspTree::build(b, &index_options)?;
    let pieces = index_b.classify_boundary(a)?;
    let regions = regions::merge(&pieces, |f| a.plane(f).normal.clone())?;
    // The status: a's boundary in b's interior, b's in a's, or faces shared the same way up.
    let mut penetrating = pieces.iter().any(|p| p.class == Class::Inside);
    let index_a = MspTree::build(a, &index_options)?;
    if !penetrating {
        penetrating = index_a.classify_boundary(b)?.iter().any(|p| p.class == Class::Inside);
    }
    if !penetrating {
        for r in regions.iter().filter(|r| r.dim == 2) {
            let (Feature::Face(x), Feature::Face(y)) = (&r.a, &r.b) else { continue };
            if dot_sign(&a.plane(*x).normal, &b.plane(*y).normal)? == Sign::Positive {
                penetrating = true;
                break;
            }
        }
    }
    let status = if penetrating {
        ContactStatus::Penetrating
    } else if regions.is_empty() {
        ContactStatus::Separate
    } else {
        ContactStatus::Touching
    };
    let culled = match &options.motions {
        None => Vec::new(),
        Some((ma, mb)) => {
            let (ca, cb) = (culled_entities(a, ma, mb)?, culled_entities(b, mb, ma)?);
            let mut out = Vec::new();
            for (i, r) in regions.iter().enumerate() {
                if is_culled(a, &ca, &r.a) || is_culled(b, &cb, &r.b) {
                    out.push(i);
                }
            }
            out
        }
    };
    let active: Vec<&Region<S>> =
        regions.iter().enumerate().filter(|(i, _)| !culled.contains(i)).map(|(_, r)| r).collect();
    let sufficient = sufficient_set((a, &index_a), (b, &index_b), &active)?;
    let mut contacts = Vec::with_capacity(sufficient.len());
    for r in sufficient {
        let (normals, source) = normals_of(a, b, r, &options.previous)?;
        contacts.push(Contact { region: r.clone(), normals, source });
    }
    Ok(Contacts { status, regions, culled, contacts })
}

/// Per face of `s`: whether it is culled, moving (by `m`, relative to the other solid moving by
/// `other`) strictly into its own solid at every vertex (Eq. 13).
fn culled_entities<S: Scalar>(s: &Solid<S>, m: &Motion<S>, other: &Motion<S>) -> Decision<Vec<bool>> {
    let mut out = Vec::with_capacity(s.face_count());
    for f in 0..s.face_count() {
        crate::budget::tick()?;
        let n = &s.plane(f).normal;
        let mut away = true;
        for &v in s.face(f) {
            let p = s.vertex(v);
            if dot_sign(&(m.at(p) - other.at(p)), n)? != Sign::Negative {
                away = false;
                break;
            }
        }
        out.push(away);
    }
    Ok(out)
}

/// Whether entity `x` is culled: a culled face, or an edge or vertex whose faces are all culled.
fn is_culled<S: Scalar>(s: &Solid<S>, faces: &[bool], x: &Feature) -> bool {
    match x {
        Feature::Face(f) => faces[*f],
        Feature::Edge(u, v) => s.edge_index(*u, *v).is_some_and(|e| {
            let (f1, f2) = s.edge_faces(e);
            faces[f1] && faces[f2]
        }),
        Feature::Vertex(v) => s.vertex_faces(*v).iter().all(|&f| faces[f]),
    }
}

/// A point of a region (of its relative interior, for 0D and 1D: the point, the midpoint).
fn representative<S: Scalar>(r: &Region<S>) -> Point3<S> {
    match r.points.as_slice() {
        [p, q] => Point3::from((&p.coords + &q.coords) / S::from_i64(2)),
        ps => ps[0].clone(),
    }
}

/// Whether `p` lies in the closure of region `r`.
fn in_closure<S: Scalar>(r: &Region<S>, p: &Point3<S>, normal: impl Fn() -> Vector3<S>) -> Decision<bool> {
    Ok(match r.dim {
        0 => crate::scalar::compare_points(&r.points[0], p)? == std::cmp::Ordering::Equal,
        1 => crate::predicates::locate_on_segment(&r.points[0], &r.points[1], p)?.in_closure(),
        _ => {
            let n = normal();
            let on_plane = dot_sign(&n, &(p - &r.points[0]))? == Sign::Zero;
            on_plane && locate_in_polygon(&r.points, &n, p)?.in_closure() && {
                let mut in_hole = false;
                for h in &r.holes {
                    // Strictly inside a hole: in its closed loop and not on it.
                    let reversed: Vec<Point3<S>> = h.iter().rev().cloned().collect();
                    if locate_in_polygon(&reversed, &n, p)?.in_closure() && !on_loop(h, p)? {
                        in_hole = true;
                    }
                }
                !in_hole
            }
        }
    })
}

fn on_loop<S: Scalar>(lp: &[Point3<S>], p: &Point3<S>) -> Decision<bool> {
    for k in 0..lp.len() {
        let r = Region {
            a: Feature::Vertex(0),
            b: Feature::Vertex(0),
            dim: 1,
            points: vec![lp[k].clone(), lp[(k + 1) % lp.len()].clone()],
            holes: Vec::new(),
        };
        if in_closure(&r, p, || Vector3::from_element(S::zero()))? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// R_t (Definition 2): every 2D region; then the 1D regions, then the 0D ones, each kept when
/// something of a or of b is left near it after the spaces of the adjacent higher regions
/// already kept.
fn sufficient_set<'r, S: Scalar>(
    (a, index_a): (&Solid<S>, &MspTree<S>),
    (b, index_b): (&Solid<S>, &MspTree<S>),
    regions: &[&'r Region<S>],
) -> Decision<Vec<&'r Region<S>>> {
    let mut kept: Vec<&Region<S>> = regions.iter().copied().filter(|r| r.dim == 2).collect();
    // A binary64 box around each region, grown by a margin far above the conversions' errors:
    // a point outside a region's box is not in its closure, and the exact test is skipped
    // (it was the quadratic part on solids with thousands of regions).
    let scale = regions
        .iter()
        .flat_map(|r| r.points.iter().flat_map(|p| p.iter().map(|c| c.to_f64().abs())))
        .fold(0.0f64, f64::max);
    let margin = scale * 1e-6 + 1e-300;
    let boxed = |r: &Region<S>| -> Option<[[f64; 3]; 2]> {
        let mut b = [[f64::INFINITY; 3], [f64::NEG_INFINITY; 3]];
        for p in &r.points {
            for k in 0..3 {
                let x = p[k].to_f64();
                if !x.is_finite() || !margin.is_finite() {
                    return None;
                }
                b[0][k] = b[0][k].min(x - margin);
                b[1][k] = b[1][k].max(x + margin);
            }
        }
        Some(b)
    };
    let outside = |b: &Option<[[f64; 3]; 2]>, p: &Point3<S>| -> bool {
        b.is_some_and(|b| (0..3).any(|k| p[k].to_f64() < b[0][k] || p[k].to_f64() > b[1][k]))
    };
    let mut boxes: Vec<Option<[[f64; 3]; 2]>> = kept.iter().map(|r| boxed(r)).collect();
    for d in [1u8, 0] {
        let mut now = Vec::new();
        for r in regions.iter().copied().filter(|r| r.dim == d) {
            crate::budget::tick()?;
            let p = representative(r);
            let mut adjacent = Vec::new();
            for (q, b) in kept.iter().copied().zip(&boxes).filter(|(q, _)| q.dim > d) {
                if outside(b, &p) {
                    continue;
                }
                let normal = || match &q.a {
                    Feature::Face(f) => a.plane(*f).normal.clone(),
                    _ => Vector3::from_element(S::zero()),
                };
                if in_closure(q, &p, normal)? {
                    adjacent.push(q);
                }
            }
            let left_a = left((a, index_a), &r.a, b, adjacent.iter().map(|q| (&q.a, &q.b)))?;
            let left_b = left((b, index_b), &r.b, a, adjacent.iter().map(|q| (&q.b, &q.a)))?;
            if left_a || left_b {
                now.push(r);
            }
        }
        boxes.extend(now.iter().map(|r| boxed(r)));
        kept.extend(now);
    }
    Ok(kept)
}

/// Whether anything of `s` is left near a point of entity `x` once the spaces H(r') of the
/// adjacent regions are taken away (each given by its entity of `s` and of `other`).
///
/// H(r') is Definition 1's, with one change the paper itself asks for (§3, on Fig. 5: "if the
/// 1D edge-on-edge region r had H(r) = h₁ ∪ h₄ as the approximating halfspaces, Eq. (3) would
/// correctly resolve these cases"): for a 1D region where the entity of `s` is a reflex edge
/// and the other's a convex edge lying in its corner, H_s(r') is everything outside the other's
/// wedge, not the union of the reflex edge's two half-spaces. The corner constrains the wedge
/// only where the wedge is; what `s` has beyond the corner's faces but outside the wedge (an
/// overhang the wedge slides under) is not left over, and what it has inside the wedge's
/// prism is.
fn left<'x, S: Scalar>(
    (s, index): (&Solid<S>, &MspTree<S>),
    x: &Feature,
    other: &Solid<S>,
    adjacent: impl Iterator<Item = (&'x Feature, &'x Feature)>,
) -> Decision<bool> {
    let Some(mut dirs) = cones::interior(s, x, Some(index))? else { return Ok(true) };
    for (y, z) in adjacent {
        let out = match (y, z) {
            (Feature::Edge(u, v), Feature::Edge(p, q))
                if cones::reflex(s, (*u, *v))? && !cones::reflex(other, (*p, *q))? =>
            {
                cones::interior(other, z, None)?
            }
            _ => cones::outside(s, y)?,
        };
        match out {
            Some(out) => dirs = cones::and(&dirs, &out),
            None => return Ok(true),
        }
    }
    cones::nonempty(&dirs)
}

/// Whether entities x and y of one solid are adjacent: the lower-dimensional one lies in the
/// closure of the other.
fn adjacent<S: Scalar>(s: &Solid<S>, x: &Feature, y: &Feature) -> bool {
    let vertices = |f: &Feature| -> Vec<usize> {
        match f {
            Feature::Vertex(v) => vec![*v],
            Feature::Edge(u, v) => vec![*u, *v],
            Feature::Face(f) => s.face(*f).to_vec(),
        }
    };
    let dim = |f: &Feature| match f {
        Feature::Vertex(_) => 0,
        Feature::Edge(..) => 1,
        Feature::Face(_) => 2,
    };
    let (lo, hi) = if dim(x) < dim(y) { (x, y) } else { (y, x) };
    if dim(lo) == dim(hi) {
        return false;
    }
    let hv = vertices(hi);
    match (lo, hi) {
        // An edge is in a face's closure when it is one of the face's sides.
        (Feature::Edge(u, v), Feature::Face(_)) => {
            let m = hv.len();
            (0..m).any(|k| {
                let (p, q) = (hv[k], hv[(k + 1) % m]);
                (p, q) == (*u, *v) || (q, p) == (*u, *v)
            })
        }
        _ => vertices(lo).iter().all(|v| hv.contains(v)),
    }
}

/// The normals of a region of R_t (Conditions (6)–(8)).
fn normals_of<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    r: &Region<S>,
    previous: &[Previous<S>],
) -> Decision<(Vec<Vector3<S>>, NormalSource)> {
    if let Some(p) = previous.iter().find(|p| p.a == r.a && p.b == r.b) {
        return Ok((p.normals.clone(), NormalSource::Persisted));
    }
    for p in previous {
        let (same_a, adj_a) = (p.a == r.a, adjacent(a, &r.a, &p.a));
        let (same_b, adj_b) = (p.b == r.b, adjacent(b, &r.b, &p.b));
        if ((adj_a && same_b) || (same_a && adj_b) || (adj_a && adj_b))
            && cones::convex_neighbourhood(a, &p.a)?
            && cones::convex_neighbourhood(b, &p.b)?
        {
            return Ok((p.normals.clone(), NormalSource::Shrunk));
        }
    }
    Ok((new_normals(a, b, r)?, NormalSource::New))
}

/// Normals from the local geometry (Condition (8)), out of b toward a.
fn new_normals<S: Scalar>(a: &Solid<S>, b: &Solid<S>, r: &Region<S>) -> Decision<Vec<Vector3<S>>> {
    let out_b = |f: usize| b.plane(f).normal.clone();
    let out_a = |f: usize| -a.plane(f).normal.clone();
    let edge_dir = |s: &Solid<S>, u: usize, v: usize| s.vertex(v) - s.vertex(u);
    // b's outward bisector at an edge (the sum of its faces' normals).
    let bisector_b = |u: usize, v: usize| -> Decision<Vector3<S>> {
        let (f1, f2) = cones::edge_faces(b, (u, v))?;
        Ok(out_b(f1) + out_b(f2))
    };
    Ok(match (&r.a, &r.b) {
        // A face of b under anything of a: b's face normal; a face of a on anything of b: a's.
        (_, Feature::Face(y)) => vec![out_b(*y)],
        (Feature::Face(x), _) => vec![out_a(*x)],
        (Feature::Edge(u, v), Feature::Edge(p, q)) => {
            let (ra, rb) = (cones::reflex(a, (*u, *v))?, cones::reflex(b, (*p, *q))?);
            if rb {
                let (f1, f2) = cones::edge_faces(b, (*p, *q))?;
                vec![out_b(f1), out_b(f2)]
            } else if ra {
                let (f1, f2) = cones::edge_faces(a, (*u, *v))?;
                vec![out_a(f1), out_a(f2)]
            } else {
                let n = edge_dir(a, *u, *v).cross(&edge_dir(b, *p, *q));
                let bis = bisector_b(*p, *q)?;
                if crate::geom::is_zero_vector(&n)? {
                    // Collinear edges: the normal is indeterminate; b's bisector separates.
                    vec![bis]
                } else if dot_sign(&n, &bis)? == Sign::Negative {
                    vec![-n]
                } else {
                    vec![n]
                }
            }
        }
        (Feature::Vertex(_), Feature::Edge(p, q)) => {
            if cones::reflex(b, (*p, *q))? {
                let (f1, f2) = cones::edge_faces(b, (*p, *q))?;
                vec![out_b(f1), out_b(f2)]
            } else {
                vec![bisector_b(*p, *q)?]
            }
        }
        (Feature::Edge(u, v), Feature::Vertex(_)) => {
            if cones::reflex(a, (*u, *v))? {
                let (f1, f2) = cones::edge_faces(a, (*u, *v))?;
                vec![out_a(f1), out_a(f2)]
            } else {
                let (f1, f2) = cones::edge_faces(a, (*u, *v))?;
                vec![out_a(f1) + out_a(f2)]
            }
        }
        (Feature::Vertex(x), Feature::Vertex(y)) => {
            let mut candidates: Vec<Vector3<S>> = b.vertex_faces(*y).into_iter().map(out_b).collect();
            candidates.extend(a.vertex_faces(*x).into_iter().map(out_a));
            most_transversal(candidates)?
        }
    })
}

/// Up to three of `normals`, the most transversal: a triple with the largest
/// det² / (|n₁|²|n₂|²|n₃|²), else a pair with the largest |n₁ × n₂|² / (|n₁|²|n₂|²), else one.
fn most_transversal<S: Scalar>(normals: Vec<Vector3<S>>) -> Decision<Vec<Vector3<S>>> {
    let n2 = |v: &Vector3<S>| v.dot(v);
    let mut best: Option<(S, [usize; 3])> = None;
    let m = normals.len();
    for i in 0..m {
        for j in i + 1..m {
            for k in j + 1..m {
                crate::budget::tick()?;
                // Three normals in one plane through the origin span no volume: skip them.
                let origin = Point3::from(Vector3::from_element(S::zero()));
                let at = |v: &Vector3<S>| Point3::from(v.clone());
                let o = crate::predicates::orient3d(&origin, &at(&normals[i]), &at(&normals[j]), &at(&normals[k]))?;
                if o == crate::predicates::Orientation::Coplanar {
                    continue;
                }
                let det = normals[i].cross(&normals[j]).dot(&normals[k]);
                let score = det.clone() * det / (n2(&normals[i]) * n2(&normals[j]) * n2(&normals[k]));
                let better = match &best {
                    None => true,
                    Some((s, _)) => score.compare(s)? == std::cmp::Ordering::Greater,
                };
                if better {
                    best = Some((score, [i, j, k]));
                }
            }
        }
    }
    if let Some((_, idx)) = best {
        return Ok(idx.iter().map(|&i| normals[i].clone()).collect());
    }
    let mut best2: Option<(S, [usize; 2])> = None;
    for i in 0..m {
        for j in i + 1..m {
            let c = normals[i].cross(&normals[j]);
            if crate::geom::is_zero_vector(&c)? {
                continue;
            }
            let score = n2(&c) / (n2(&normals[i]) * n2(&normals[j]));
            let better = match &best2 {
                None => true,
                Some((s, _)) => score.compare(s)? == std::cmp::Ordering::Greater,
            };
            if better {
                best2 = Some((score, [i, j]));
            }
        }
    }
    if let Some((_, idx)) = best2 {
        return Ok(idx.iter().map(|&i| normals[i].clone()).collect());
    }
    Ok(normals.into_iter().take(1).collect())
}

impl From<crate::budget::Limit> for ContactError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
