//! Closest features and exact distances between convex solids: the V-Clip algorithm
//! (Mirtich 1998) generic over the scalar, and a brute-force reference.
//!
//! Both entry points take two convex [`Solid`]s given in one world frame and return the
//! squared distance between them (exact for exact backends), a pair of closest features, the
//! closest points on them and a [`Status`]. No tolerance appears here: every decision goes
//! through [`Scalar::sign_scaled`] with the magnitude of the expression decided.
//!
//! * [`brute_force_distance`] minimises over every feature pair and decides the status by
//!   separating planes: slow, simple, the reference of the tests.
//! * [`vclip`] walks features along Voronoi regions (unnormalised Voronoi planes, exact clip
//!   parameters, derivative sign tests), from an optional warm start, with a step cap.
//! * [`lin_canny`] is the older Lin–Canny walk over the same data: it computes the closest
//!   points of the current features and tests them against subdivided Voronoi cells, with
//!   interior pseudo-Voronoi regions for penetration.
//!
//! [`Scalar::sign_scaled`]: crate::scalar::Scalar::sign_scaled

mod brute;
mod clip;
pub mod contract;
pub(crate) mod geometry;
pub mod hierarchy;
mod lin_canny;
mod states;
pub mod tracking;
mod voronoi;

pub use brute::{brute_force_distance, point_squared_distance};
pub use lin_canny::{feature_squared_distance, lin_canny, lin_canny_step_cap, MAX_CELL_NEIGHBOURS};

use crate::brep::{Feature, Solid};
use crate::geom::Point3;
use crate::scalar::{Scalar, Uncertain};
use states::Step;
use voronoi::{edge_ends, Feat};

/// How two solids lie relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A positive distance apart.
    Separated,
    /// Distance zero, interiors disjoint (a plane separates them weakly).
    Touching,
    /// The interiors intersect.
    Penetrating,
}

/// The answer of a distance query.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosestPair<S: Scalar> {
    /// Separated, touching or penetrating.
    pub status: Status,
    /// The squared distance between the solids: exact for exact backends, 0 unless separated.
    pub squared_distance: S,
    /// A feature of the first solid and one of the second realising the distance (when
    /// penetrating: witness features, an edge crossing a face or a vertex inside the other).
    pub features: (Feature, Feature),
    /// A point of each feature at the squared distance apart (equal when not separated).
    pub points: (Point3<S>, Point3<S>),
}

/// Why a distance query failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VClipError {
    /// A filtered backend could not decide a sign: rerun exactly.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// A solid is not convex (index 0 for the first, 1 for the second).
    #[error("solid {solid} is not convex")]
    NotConvex {
        /// 0 or 1.
        solid: usize,
    },
    /// Two faces of a solid are coplanar at an edge: V-Clip's Voronoi regions need strict
    /// convexity. Merge the faces first (the exact convex hull of the vertices does).
    #[error(
        "solid {solid} has coplanar faces at edge {edge:?}: merge them (e.g. take the convex hull of its vertices)"
    )]
    FlatEdge {
        /// 0 or 1.
        solid: usize,
        /// The edge's end vertices.
        edge: (usize, usize),
    },
    /// A vertex of a solid has only two edges (a straight angle): its Voronoi region is flat.
    #[error("solid {solid} has a straight angle at vertex {vertex}: merge its two edges")]
    StraightVertex {
        /// 0 or 1.
        solid: usize,
        /// The vertex.
        vertex: usize,
    },
    /// A warm-start feature does not exist on its solid.
    #[error("warm-start feature {feature:?} is not a feature of solid {solid}")]
    NoSuchFeature {
        /// 0 or 1.
        solid: usize,
        /// The feature given.
        feature: Feature,
    },
    /// V-Clip stopped in a state it cannot stop in (a bug; never expected).
    #[error("V-Clip stopped on features {x:?}, {y:?}, which is no terminal state")]
    Internal {
        /// The feature of the first solid.
        x: Feature,
        /// The feature of the second solid.
        y: Feature,
    },
    /// V-Clip or Lin–Canny did not terminate within its step cap (a bug, or inexact
    /// decisions cycling).
    #[error("the closest-feature search did not terminate within {steps} steps")]
    IterationCap {
        /// The cap reached.
        steps: usize,
    },
}

pub(crate) fn check_convex<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Result<(), VClipError> {
    for (i, s) in [a, b].into_iter().enumerate() {
        if !s.is_convex()? {
            return Err(VClipError::NotConvex { solid: i });
        }
    }
    Ok(())
}

/// Strict convexity, which V-Clip needs: convex, no two coplanar faces at an edge and every
/// vertex on at least three edges. (With no flat edge, a straight angle inside a face can only
/// be at a vertex of two edges: the faces around a vertex whose tangent cone is a wedge lie in
/// the wedge's two planes, so two neighbours around it would be coplanar.)
pub fn check_strictly_convex<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Result<(), VClipError> {
    // One exact convexity test per edge (not convex first, then flat: NotConvex wins).
    let first = strict_convexity(a)?;
    if first == StrictConvexity::NotConvex {
        return Err(VClipError::NotConvex { solid: 0 });
    }
    let kinds = [first, strict_convexity(b)?];
    if kinds[1] == StrictConvexity::NotConvex {
        return Err(VClipError::NotConvex { solid: 1 });
    }
    for (solid, k) in kinds.into_iter().enumerate() {
        match k {
            StrictConvexity::FlatEdge(edge) => return Err(VClipError::FlatEdge { solid, edge }),
            StrictConvexity::StraightVertex(vertex) => return Err(VClipError::StraightVertex { solid, vertex }),
            StrictConvexity::Strict | StrictConvexity::NotConvex => {}
        }
    }
    Ok(())
}

/// How one solid stands to V-Clip's need of strict convexity (see [`strict_convexity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrictConvexity {
    /// One shell, every edge convex, every vertex on at least three edges.
    Strict,
    /// More than one shell, or a reflex edge.
    NotConvex,
    /// Convex, and the first edge (its end vertices) whose faces are coplanar.
    FlatEdge((usize, usize)),
    /// Convex with no flat edge, and the first vertex on only two edges.
    StraightVertex(usize),
}

/// One solid's convexity in one pass over its edges: not convex (another shell, or a reflex
/// edge), else its first flat edge, else its first straight vertex, else strict. The same
/// decisions as [`Solid::is_convex`] and [`check_strictly_convex`], each made once.
pub fn strict_convexity<S: Scalar>(s: &Solid<S>) -> Result<StrictConvexity, Uncertain> {
    use crate::brep::Convexity;
    if s.shell_count() != 1 {
        return Ok(StrictConvexity::NotConvex);
    }
    let mut flat = None;
    for e in 0..s.edge_count() {
        match s.edge_convexity(e)? {
            Convexity::Convex => {}
            Convexity::Reflex => return Ok(StrictConvexity::NotConvex),
            Convexity::Flat => flat = flat.or(Some(e)),
        }
    }
    if let Some(e) = flat {
        return Ok(StrictConvexity::FlatEdge(s.edges()[e]));
    }
    for v in 0..s.vertex_count() {
        if s.outgoing_iter(v).take(3).count() < 3 {
            return Ok(StrictConvexity::StraightVertex(v));
        }
    }
    Ok(StrictConvexity::Strict)
}

/// The answer of [`vclip`]: the closest pair and the number of feature updates made.
#[derive(Clone, Debug, PartialEq)]
pub struct VClipResult<S: Scalar> {
    /// Status, exact squared distance, final features and closest points.
    pub closest: ClosestPair<S>,
    /// How many feature updates V-Clip made before stopping.
    pub steps: usize,
    /// Whether an inexact run came back to a state it had left (its tolerant decisions
    /// contradicted each other on a near tie) and the answer is therefore the exhaustive
    /// [`brute_force_distance`]'s (see [`vclip`]). Always `false` on exact backends and for
    /// Lin–Canny.
    pub left_cycle: bool,
}

/// The step cap of [`vclip`] for solids with `na` and `nb` features (vertices, edges and
/// faces): three times the number of feature pairs, plus 16. Every V-Clip transition either
/// decreases the distance between the features or keeps it and lowers their dimension, so no
/// run needs more.
pub fn step_cap(na: usize, nb: usize) -> usize {
    3 * na * nb + 16
}

fn feature_count<S: Scalar>(s: &Solid<S>) -> usize {
    s.vertex_count() + s.edge_count() + s.face_count()
}

/// The internal features of a public pair, `x` of `a` and `y` of `b`
/// ([`VClipError::NoSuchFeature`] naming the solid otherwise).
fn internal_pair<S: Scalar>(a: &Solid<S>, x: &Feature, b: &Solid<S>, y: &Feature) -> Result<(Feat, Feat), VClipError> {
    Ok((
        Feat::from_public(a, x).ok_or(VClipError::NoSuchFeature { solid: 0, feature: x.clone() })?,
        Feat::from_public(b, y).ok_or(VClipError::NoSuchFeature { solid: 1, feature: y.clone() })?,
    ))
}

/// The starting pair of a search: the warm start, by default vertex 0 of each solid.
fn start_pair<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
) -> Result<(Feat, Feat), VClipError> {
    match warm_start {
        None => Ok((Feat::V(0), Feat::V(0))),
        Some((x, y)) => internal_pair(a, &x, b, &y),
    }
}

/// The distance between two convex solids by V-Clip (Mirtich 1998), generic over the scalar.
///
/// Contract: `a` and `b` are strictly convex (else [`VClipError::NotConvex`],
/// [`VClipError::FlatEdge`] or [`VClipError::StraightVertex`]; see [`check_strictly_convex`])
/// and in one frame;
/// `warm_start` is a feature of `a` and one of `b` to start from (else
/// [`VClipError::NoSuchFeature`]), by default vertex 0 of each. V-Clip moves between feature
/// pairs (states V-V, V-E, E-E, V-F, E-F) by testing points against unnormalised Voronoi
/// planes, clipping edges against Voronoi regions with exact parameters λ = d_t / (d_t − d_h)
/// and deciding by derivative signs where the closest point lies; it escapes V-F local minima
/// over all faces and reports penetration when an edge crosses a face (E-F) or a vertex is
/// inside the other solid. At distance zero, the status (touching or penetrating) is decided
/// exactly by the planes through the common point. At most [`step_cap`] updates, else
/// [`VClipError::IterationCap`]. On inexact backends a run that returns to a state it left
/// (tolerant decisions contradicting each other on a near tie; exact V-Clip never does)
/// answers by the exhaustive [`brute_force_distance`] instead, and says so in
/// [`VClipResult::left_cycle`]. The squared distance and points are exact for exact
/// backends; for `f64` every decision carries the tolerance of
/// [`sign_scaled`](crate::scalar::Scalar::sign_scaled).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::{cube, octahedron};
/// use touchstone::brep::Feature;
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::vclip::{vclip, Status};
/// let q = |x: i64| BigRational::from_integer(x.into());
/// // The octahedron's vertex (-1, 0, 0) moved to (2, 0, 0): one unit from the cube's face x = 1.
/// let o = octahedron::<BigRational>().transformed(&Affine::translation(Vector3::new(q(3), q(0), q(0)))).unwrap();
/// let r = vclip(&cube(), &o, None).unwrap();
/// assert_eq!((r.closest.status, r.closest.squared_distance), (Status::Separated, q(1)));
/// assert_eq!(r.closest.features, (Feature::Face(5), Feature::Vertex(1)));
/// ```
pub fn vclip<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
) -> Result<VClipResult<S>, VClipError> {
    check_strictly_convex(a, b)?;
    vclip_prechecked(a, b, warm_start)
}

/// [`vclip`] without its strict-convexity check, which costs a pass over every edge: for
/// solids already checked once with [`check_strictly_convex`] (a rigid body's solid moved by
/// poses stays strictly convex on exact backends), as in tracking loops. On solids that are
/// not strictly convex the answer is unspecified (it may stop at the step cap); it never
/// panics.
pub fn vclip_prechecked<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
) -> Result<VClipResult<S>, VClipError> {
    walk(a, b, warm_start, |_, _| {})
}

/// [`vclip`] with its walk: every feature pair the search stood on, from the start pair to
/// the final one (a step moves one of the two features), for explaining a run. The walk has
/// `steps + 1` pairs; that of a run that left a cycle ([`VClipResult::left_cycle`], inexact
/// backends only) stops before the repeated pair, and its answer is the exhaustive one.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cube;
/// use touchstone::brep::Feature;
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::vclip::vclip_walk;
/// let q = |x: i64| BigRational::from_integer(x.into());
/// let b = cube::<BigRational>().transformed(&Affine::translation(Vector3::new(q(3), q(0), q(0)))).unwrap();
/// let (walk, r) = vclip_walk(&cube(), &b, None).unwrap();
/// assert_eq!(walk.first(), Some(&(Feature::Vertex(0), Feature::Vertex(0))));
/// assert_eq!(walk.last(), Some(&r.closest.features));
/// assert_eq!(walk.len(), r.steps + 1);
/// ```
pub fn vclip_walk<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
) -> Result<(Walk, VClipResult<S>), VClipError> {
    check_strictly_convex(a, b)?;
    let mut pairs = Vec::new();
    let r = walk(a, b, warm_start, |x, y| pairs.push((x.public(a), y.public(b))))?;
    Ok((pairs, r))
}

/// The feature pairs a V-Clip run stood on, in order ([`vclip_walk`]).
pub type Walk = Vec<(Feature, Feature)>;

/// The V-Clip loop; `visit` sees every state, the start included.
fn walk<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
    mut visit: impl FnMut(Feat, Feat),
) -> Result<VClipResult<S>, VClipError> {
    let (mut x, mut y) = start_pair(a, b, warm_start)?;
    let cap = step_cap(feature_count(a), feature_count(b));
    let mut steps = 0;
    // Brent's cycle detection, on inexact backends only: a checkpoint state, moved to the
    // current one after 1, 2, 4, … steps; meeting it again proves a cycle.
    let (mut checkpoint, mut power, mut run) = ((x, y), 1usize, 0usize);
    loop {
        crate::budget::tick()?;
        visit(x, y);
        match states::step(a, x, b, y)? {
            Step::First(n) => x = n,
            Step::Second(n) => y = n,
            Step::Done => {
                let closest = finish(a, x, b, y)?;
                return Ok(VClipResult { closest, steps, left_cycle: false });
            }
            Step::Penetration(p) => return penetration(a, x, b, y, p, steps),
        }
        steps += 1;
        if steps > cap {
            return Err(VClipError::IterationCap { steps: cap });
        }
        if !S::CERTAIN_DECISIONS {
            run += 1;
            if (x, y) == checkpoint {
                return leave_cycle(a, b, steps);
            }
            if run == power {
                (checkpoint, power, run) = ((x, y), power * 2, 0);
            }
        }
    }
}

/// An inexact V-Clip that came back to a state it had left: exact V-Clip never does (each
/// step lowers the distance, or keeps it and lowers the dimension), so its tolerant decisions
/// contradicted each other on a near tie, and the cycle need not be near the closest pair
/// (a cycle between parallel edges one unit apart was seen on penetrating prisms). The answer
/// is then the exhaustive minimum over all feature pairs ([`brute_force_distance`]), which
/// cannot cycle; rare (about one run in 10,000 in critical configurations, see docs/robustness.md).
fn leave_cycle<S: Scalar>(a: &Solid<S>, b: &Solid<S>, steps: usize) -> Result<VClipResult<S>, VClipError> {
    let closest = brute_force_distance(a, b)?;
    Ok(VClipResult { closest, steps, left_cycle: true })
}

/// V-Clip's answer when `x` crosses `y` at `p` (or the vertex `x` is inside `b`).
fn penetration<S: Scalar>(
    a: &Solid<S>,
    x: Feat,
    b: &Solid<S>,
    y: Feat,
    p: Point3<S>,
    steps: usize,
) -> Result<VClipResult<S>, VClipError> {
    // p lies on both features when an edge crosses a face (E-F); when a vertex is strictly
    // inside the other solid (V-F local minimum), on the vertex only.
    let on = match (x, y) {
        (Feat::E(_), _) | (_, Feat::E(_)) => (Some(x), Some(y)),
        (Feat::V(_), _) => (Some(x), None),
        (_, Feat::V(_)) => (None, Some(y)),
        _ => (None, None),
    };
    let status = geometry::contact_status(a, b, &p, on)?;
    let features = (x.public(a), y.public(b));
    let closest = ClosestPair { status, squared_distance: S::zero(), features, points: (p.clone(), p) };
    Ok(VClipResult { closest, steps, left_cycle: false })
}

/// The closest points of the final features, computed once V-Clip has stopped, and the status.
fn finish<S: Scalar>(a: &Solid<S>, x: Feat, b: &Solid<S>, y: Feat) -> Result<ClosestPair<S>, VClipError> {
    let (d, p, q) = closest_points(a, x, b, y)?;
    let status = if geometry::distance_is_zero(&d, &p, &q)? {
        // A zero distance: p (= q) lies on both final features.
        geometry::contact_status(a, b, &p, (Some(x), Some(y)))?
    } else {
        Status::Separated
    };
    let squared_distance = if status == Status::Separated { d } else { S::zero() };
    Ok(ClosestPair { status, squared_distance, features: (x.public(a), y.public(b)), points: (p, q) })
}

fn closest_points<S: Scalar>(
    a: &Solid<S>,
    x: Feat,
    b: &Solid<S>,
    y: Feat,
) -> Result<geometry::PointPair<S>, VClipError> {
    let seg = |s: &Solid<S>, e: usize| {
        let (t, h) = edge_ends(s, e);
        (s.vertex(t).clone(), s.vertex(h).clone())
    };
    let face_foot = |s: &Solid<S>, f: usize, p: &Point3<S>| crate::constructions::plane_foot(p, s.plane(f));
    Ok(match (x, y) {
        (Feat::V(v), Feat::V(w)) => {
            let (p, q) = (a.vertex(v).clone(), b.vertex(w).clone());
            (crate::geom::norm2(&(&p - &q)), p, q)
        }
        (Feat::V(v), Feat::E(e)) => {
            let (t, h) = seg(b, e);
            let (d, c) = geometry::point_segment(a.vertex(v), &t, &h)?;
            (d, a.vertex(v).clone(), c)
        }
        (Feat::E(e), Feat::V(v)) => {
            let (t, h) = seg(a, e);
            let (d, c) = geometry::point_segment(b.vertex(v), &t, &h)?;
            (d, c, b.vertex(v).clone())
        }
        (Feat::E(e1), Feat::E(e2)) => {
            let ((t1, h1), (t2, h2)) = (seg(a, e1), seg(b, e2));
            geometry::segment_segment(&t1, &h1, &t2, &h2)?
        }
        (Feat::V(v), Feat::F(f)) => {
            let (d, c) = face_foot(b, f, a.vertex(v));
            (d, a.vertex(v).clone(), c)
        }
        (Feat::F(f), Feat::V(v)) => {
            let (d, c) = face_foot(a, f, b.vertex(v));
            (d, c, b.vertex(v).clone())
        }
        // V-Clip stops only in the four states above (E-F stops as a penetration).
        (Feat::E(_) | Feat::F(_), Feat::F(_)) | (Feat::F(_), Feat::E(_)) => {
            return Err(VClipError::Internal { x: x.public(a), y: y.public(b) });
        }
    })
}

impl From<crate::budget::Limit> for VClipError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}
