//! Round shapes: a *core* (a point, a segment or a convex polytope) swept by a ball of radius
//! r ≥ 0: a ball is a point core, a capsule a segment core, a rounded polytope (parry's "round"
//! shapes) a polytope core. The distance of two round shapes is max(0, d(cores) − r_a − r_b),
//! and their status is decided by comparing d(cores)² with (r_a + r_b)²: exactly, with no
//! square root taken, on exact backends (issue 42; Lin–Manocha 1994 §4–5 start the curved
//! models from such cores).
//!
//! The cores' squared distance is rational for rational cores: point–point, point–segment and
//! segment–segment in closed form; point–polytope and segment–polytope as the least over the
//! polytope's faces, edges and vertices (and 0 where the point lies inside or the segment
//! meets a face); polytope–polytope by V-Clip ([`crate::vclip::vclip`]). The same code runs on
//! `f64`.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::point;
//! use touchstone::round::{round_distance, Core, RoundShape};
//! use touchstone::vclip::Status;
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // Balls of radii 2 and 3 whose centres are 5 apart (a 3-4-0 offset): they touch.
//! let a = RoundShape::ball(point(0, 0, 0), q(2)).unwrap();
//! let b = RoundShape::ball(point(3, 4, 0), q(3)).unwrap();
//! let d = round_distance(&a, &b).unwrap();
//! assert_eq!((d.status, d.cores.squared.clone()), (Status::Touching, q(25)));
//! // A capsule along the x axis (radius 1) and a unit ball 2 above its middle: touching too.
//! let c = RoundShape::capsule(point(-4, 0, 0), point(4, 0, 0), q(1)).unwrap();
//! let ball = RoundShape::ball(point(0, 2, 0), q(1)).unwrap();
//! assert_eq!(round_distance(&c, &ball).unwrap().status, Status::Touching);
//! ```

use crate::brep::{Feature, Solid};
use crate::geom::aabb::boxes_beyond;
use crate::geom::{Point3, Vector3};
use crate::poly::{Poly, PolyError, RootScalar};
use crate::predicates::Least;
use crate::scalar::{Decision, Scalar, Sign, Uncertain};
use crate::vclip::geometry::{along, point_face, point_segment, segment_segment};
use crate::vclip::{Status, VClipError};

pub mod cylinder;
mod depth;
mod toi;
pub mod torus;
pub use depth::{cores_depth_squared, round_depth_squared};
pub use toi::{
    ball_first_contact, closest_approach, first_contact, first_contact_features, first_within, RoundContact,
};

/// The core of a round shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Core<S: Scalar> {
    /// A point (a ball's centre).
    Point(Point3<S>),
    /// A closed segment (a capsule's axis), its two ends.
    Segment([Point3<S>; 2]),
    /// A convex polytope (strictly convex: no two faces coplanar at an edge).
    Polytope(Solid<S>),
}

impl<S: Scalar> Core<S> {
    /// The core translated by `d`.
    ///
    /// Errors: [`RoundError::Invalid`] where a polytope core's move cannot be decided.
    pub fn translated(&self, d: &Vector3<S>) -> Result<Core<S>, RoundError> {
        Ok(match self {
            Core::Point(p) => Core::Point(p + d),
            Core::Segment([p, q]) => Core::Segment([p + d, q + d]),
            Core::Polytope(s) => Core::Polytope(
                s.moved_decided(&crate::geom::Affine::translation(d.clone()))
                    .map_err(|e| RoundError::Invalid(format!("moving a core: {e}")))?,
            ),
        })
    }

    /// The core's points: the point, the segment's ends, the polytope's vertices.
    pub fn points(&self) -> Vec<&Point3<S>> {
        match self {
            Core::Point(p) => vec![p],
            Core::Segment(s) => s.iter().collect(),
            Core::Polytope(s) => s.vertices().iter().collect(),
        }
    }
}

/// A core swept by a ball of radius `radius` ≥ 0.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundShape<S: Scalar> {
    /// The core.
    pub core: Core<S>,
    /// The radius of the ball swept along it.
    pub radius: S,
}

/// Why round shapes cannot be measured.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RoundError {
    /// A filtered backend could not decide a sign: rerun exactly.
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// The polytope cores (V-Clip's refusals: not convex, coplanar faces at an edge).
    #[error(transparent)]
    Polytope(#[from] VClipError),
    /// A shape that is no solid: a ball or a capsule of radius not positive, a negative
    /// radius, a capsule whose ends coincide (a ball: say so).
    #[error("{0}")]
    Invalid(String),
    /// A polynomial or number beyond the exact root finder's limits (degree, coefficient
    /// or refinement size, decimal digits), in the part of the computation named.
    #[error("{0}: {1}")]
    Poly(&'static str, crate::poly::PolyError),
}

impl<S: Scalar> RoundShape<S> {
    /// A ball: `centre` and a positive `radius`.
    ///
    /// Errors: [`RoundError::Invalid`] for a radius that is not positive.
    pub fn ball(centre: Point3<S>, radius: S) -> Result<Self, RoundError> {
        positive(&radius, "a ball's radius")?;
        Ok(RoundShape { core: Core::Point(centre), radius })
    }

    /// A capsule: the segment `a`–`b` (a ≠ b) swept by a ball of positive `radius`.
    ///
    /// Errors: [`RoundError::Invalid`] for a radius that is not positive or equal ends.
    pub fn capsule(a: Point3<S>, b: Point3<S>, radius: S) -> Result<Self, RoundError> {
        positive(&radius, "a capsule's radius")?;
        if crate::scalar::compare_points(&a, &b)? == std::cmp::Ordering::Equal {
            return Err(RoundError::Invalid("a capsule's ends coincide: it is a ball".into()));
        }
        Ok(RoundShape { core: Core::Segment([a, b]), radius })
    }

    /// A convex polytope swept by a ball of `radius` ≥ 0 (0: the polytope itself).
    ///
    /// Errors: [`RoundError::Invalid`] for a negative radius; the polytope's convexity is
    /// checked when it is measured.
    pub fn rounded(polytope: Solid<S>, radius: S) -> Result<Self, RoundError> {
        if radius.sign()? == Sign::Negative {
            return Err(RoundError::Invalid("a rounded polytope's radius is negative".into()));
        }
        Ok(RoundShape { core: Core::Polytope(polytope), radius })
    }
}

fn positive<S: Scalar>(r: &S, what: &str) -> Result<(), RoundError> {
    match r.sign()? {
        Sign::Positive => Ok(()),
        _ => Err(RoundError::Invalid(format!("{what} is not positive"))),
    }
}

/// Where on a core the cores' distance is realised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreFeature {
    /// The point core.
    Point,
    /// End 0 or 1 of a segment core.
    End(usize),
    /// The inside of a segment core (between its ends).
    Segment,
    /// A feature of a polytope core.
    Polytope(Feature),
    /// The inside of a polytope core (the other core reaches into it).
    Inside,
}

/// The squared distance of two cores with a closest point and feature on each (a common point
/// when they meet).
#[derive(Clone, Debug, PartialEq)]
pub struct CoreDistance<S: Scalar> {
    /// d(cores)²: exact on exact backends.
    pub squared: S,
    /// A closest point of each core.
    pub points: (Point3<S>, Point3<S>),
    /// The features holding them.
    pub features: (CoreFeature, CoreFeature),
}

impl<S: Scalar> CoreDistance<S> {
    fn swapped(self) -> Self {
        CoreDistance {
            squared: self.squared,
            points: (self.points.1, self.points.0),
            features: (self.features.1, self.features.0),
        }
    }
}

/// The distance of two round shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundDistance<S: Scalar> {
    /// Separated (d(cores) > r_a + r_b), touching (=) or penetrating (<), decided on the
    /// squares; for two polytopes of radius 0, V-Clip's status.
    pub status: Status,
    /// The cores' distance.
    pub cores: CoreDistance<S>,
    /// r_a + r_b: the distance is max(0, √`cores.squared` − `radii`).
    pub radii: S,
}

/// The distance of two round shapes and their status (see the module's docs).
///
/// Errors: [`RoundError::Uncertain`] on a filtered backend that cannot decide;
/// [`RoundError::Polytope`] for a polytope core that is not strictly convex.
pub fn round_distance<S: Scalar>(a: &RoundShape<S>, b: &RoundShape<S>) -> Result<RoundDistance<S>, RoundError> {
    let radii = a.radius.clone() + b.radius.clone();
    if let (Core::Polytope(pa), Core::Polytope(pb)) = (&a.core, &b.core) {
        let (cores_status, cores) = polytopes(pa, pb)?;
        // Cores that meet, under positive radii, overlap by a positive depth.
        let zero_radii = a.radius.sign()? == Sign::Zero && b.radius.sign()? == Sign::Zero;
        let status = match cores_status {
            _ if zero_radii => cores_status,
            Status::Separated => versus(&cores.squared, &radii)?,
            _ => Status::Penetrating,
        };
        return Ok(RoundDistance { status, cores, radii });
    }
    let cores = core_distance(&a.core, &b.core)?;
    let status = versus(&cores.squared, &radii)?;
    Ok(RoundDistance { status, cores, radii })
}

/// d² against R² for R = r_a + r_b > 0 (and d² ≥ 0): the status.
fn versus<S: Scalar>(d2: &S, radii: &S) -> Decision<Status> {
    let r2 = radii.clone() * radii.clone();
    let diff = d2.clone() - r2.clone();
    Ok(match diff.sign_scaled(|| d2.clone() + r2)? {
        Sign::Positive => Status::Separated,
        Sign::Zero => Status::Touching,
        Sign::Negative => Status::Penetrating,
    })
}

/// The squared distance of two cores, a closest point and feature on each.
///
/// Errors: [`RoundError::Uncertain`]; [`RoundError::Polytope`] for a polytope core that is not
/// convex (and, for two polytopes, not strictly convex).
pub fn core_distance<S: Scalar>(a: &Core<S>, b: &Core<S>) -> Result<CoreDistance<S>, RoundError> {
    Ok(match (a, b) {
        (Core::Point(p), Core::Point(q)) => CoreDistance {
            squared: crate::constructions::squared_distance_point_point(p, q),
            points: (p.clone(), q.clone()),
            features: (CoreFeature::Point, CoreFeature::Point),
        },
        (Core::Point(p), Core::Segment(s)) => {
            let (d2, c) = point_segment(p, &s[0], &s[1])?;
            let f = segment_feature(&c, s)?;
            CoreDistance { squared: d2, points: (p.clone(), c), features: (CoreFeature::Point, f) }
        }
        (Core::Segment(s), Core::Segment(t)) => {
            let (d2, x, y) = segment_segment(&s[0], &s[1], &t[0], &t[1])?;
            let features = (segment_feature(&x, s)?, segment_feature(&y, t)?);
            CoreDistance { squared: d2, points: (x, y), features }
        }
        (Core::Point(p), Core::Polytope(s)) => {
            convex(s)?;
            let (d2, c, f) = point_polytope(p, s, true)?;
            CoreDistance { squared: d2, points: (p.clone(), c), features: (CoreFeature::Point, f) }
        }
        (Core::Segment(seg), Core::Polytope(s)) => {
            convex(s)?;
            segment_polytope(seg, s, true)?
        }
        (Core::Polytope(pa), Core::Polytope(pb)) => polytopes(pa, pb)?.1,
        (x, y) => core_distance(y, x)?.swapped(),
    })
}

/// Two polytope cores by V-Clip: their status and their distance.
fn polytopes<S: Scalar>(a: &Solid<S>, b: &Solid<S>) -> Result<(Status, CoreDistance<S>), RoundError> {
    let r = crate::vclip::vclip(a, b, None)?.closest;
    let features = (CoreFeature::Polytope(r.features.0), CoreFeature::Polytope(r.features.1));
    Ok((r.status, CoreDistance { squared: r.squared_distance, points: r.points, features }))
}

fn convex<S: Scalar>(s: &Solid<S>) -> Result<(), RoundError> {
    if s.is_convex()? {
        Ok(())
    } else {
        Err(RoundError::Polytope(VClipError::NotConvex { solid: 0 }))
    }
}

/// Which part of segment `s` holds its point `c`: an end, or the inside.
fn segment_feature<S: Scalar>(c: &Point3<S>, s: &[Point3<S>; 2]) -> Decision<CoreFeature> {
    for (k, end) in s.iter().enumerate() {
        if crate::scalar::compare_points(c, end)? == std::cmp::Ordering::Equal {
            return Ok(CoreFeature::End(k));
        }
    }
    Ok(CoreFeature::Segment)
}

/// The squared distance from `p` to the convex polytope `s` (0 inside), the closest point and
/// its feature: the least over the faces whose prism holds `p`, the edges and the vertices
/// (`prune`: skipping the edges and faces [`boxes_beyond`] the least so far; the same answer).
fn point_polytope<S: Scalar>(p: &Point3<S>, s: &Solid<S>, prune: bool) -> Decision<(S, Point3<S>, CoreFeature)> {
    if s.convex_holds(p)? {
        return Ok((S::zero(), p.clone(), CoreFeature::Inside));
    }
    // Vertices, then edges, then faces: a tie keeps the feature of least dimension (the one
    // whose relative interior holds the closest point).
    let mut least: Least<S, (Point3<S>, Feature)> = Least::new();
    for v in 0..s.vertices().len() {
        let d2 = crate::constructions::squared_distance_point_point(p, s.vertex(v));
        least.offer(d2, (s.vertex(v).clone(), Feature::Vertex(v)))?;
    }
    for &(u, v) in s.edges() {
        if prune && boxes_beyond(&[p], &[s.vertex(u), s.vertex(v)], least.value()) {
            continue;
        }
        let (d2, c) = point_segment(p, s.vertex(u), s.vertex(v))?;
        least.offer(d2, (c, Feature::Edge(u.min(v), u.max(v))))?;
    }
    for f in 0..s.face_count() {
        if prune && S::EXACT_VALUES {
            let corners: Vec<&Point3<S>> = s.face(f).iter().map(|&v| s.vertex(v)).collect();
            if boxes_beyond(&[p], &corners, least.value()) {
                continue;
            }
        }
        if let Some((d2, foot)) = point_face(s, f, p)? {
            least.offer(d2, (foot, Feature::Face(f)))?;
        }
    }
    let (d2, (c, f)) = least.into_best().expect("a polytope has vertices");
    Ok((d2, c, CoreFeature::Polytope(f)))
}

/// The squared distance of the segment `seg` and the convex polytope `s` (`prune`: skip the
/// edges [`boxes_beyond`] the least so far; the same answer, tested): 0 where an end lies
/// inside or the segment crosses a face plane inside the face (the common point there);
/// otherwise the least over the ends against the polytope and the segment against its edges (a
/// closest pair with the segment's inside and a face's inside has the segment parallel to the
/// face; the closest pairs then run to an end of the segment or to an edge of the face, which
/// realise the distance too).
fn segment_polytope<S: Scalar>(seg: &[Point3<S>; 2], s: &Solid<S>, prune: bool) -> Result<CoreDistance<S>, RoundError> {
    let mut least: Least<S, Witness<S>> = Least::new();
    for (k, end) in seg.iter().enumerate() {
        let (d2, c, f) = point_polytope(end, s, prune)?;
        let inside = f == CoreFeature::Inside;
        least.offer(d2, ((end.clone(), CoreFeature::End(k)), (c, f)))?;
        if inside {
            return Ok(best(least));
        }
    }
    let u: Vector3<S> = &seg[1] - &seg[0];
    for f in 0..s.face_count() {
        if let crate::constructions::SegmentPlane::Crosses(t) =
            crate::constructions::segment_plane(&seg[0], &seg[1], s.plane(f))?
        {
            let x = along(&seg[0], &u, &t);
            if crate::vclip::geometry::in_face_prism(s, f, &x)? {
                let feature = segment_feature(&x, seg)?;
                least.offer(S::zero(), ((x.clone(), feature), (x, CoreFeature::Polytope(Feature::Face(f)))))?;
                return Ok(best(least));
            }
        }
    }
    for &(v, w) in s.edges() {
        if prune && boxes_beyond(&[&seg[0], &seg[1]], &[s.vertex(v), s.vertex(w)], least.value()) {
            continue;
        }
        let (d2, x, y) = segment_segment(&seg[0], &seg[1], s.vertex(v), s.vertex(w))?;
        let fx = segment_feature(&x, seg)?;
        least.offer(d2, ((x, fx), (y, CoreFeature::Polytope(Feature::Edge(v.min(w), v.max(w))))))?;
    }
    Ok(best(least))
}

type Witness<S> = ((Point3<S>, CoreFeature), (Point3<S>, CoreFeature));

fn best<S: Scalar>(least: Least<S, Witness<S>>) -> CoreDistance<S> {
    let (squared, ((x, fx), (y, fy))) = least.into_best().expect("a candidate was offered");
    CoreDistance { squared, points: (x, y), features: (fx, fy) }
}

/// The values of round shapes' distance: roots of quadratics whose coefficients come from
/// c = d(cores)² and R = r_a + r_b, found by the backend's root finder
/// ([`RootScalar::roots_in`]): exact [`Algebraic`] numbers on the exact backends, which
/// [`Algebraic::to_decimal`] writes to any number of digits, plain floats on `f64`.
impl<S: RootScalar> RoundDistance<S> {
    /// The distance, max(0, √c − R): 0 unless separated, else the positive root of
    /// y² + 2Ry + R² − c.
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::geom::point;
    /// use touchstone::round::{round_distance, RoundShape};
    /// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
    /// // Unit-diagonal balls of radius 1/4: √2 − 1/2 apart.
    /// let a = RoundShape::ball(point(0, 0, 0), r(1, 4)).unwrap();
    /// let b = RoundShape::ball(point(1, 1, 0), r(1, 4)).unwrap();
    /// let d = round_distance(&a, &b).unwrap();
    /// assert_eq!(d.distance().unwrap().to_decimal(12).unwrap(), "0.914213562373");
    /// ```
    ///
    /// Errors: the polynomial module's limits ([`PolyError`]).
    pub fn distance(&self) -> Result<S::Time, PolyError> {
        if self.status != Status::Separated {
            return Ok(S::time(&S::zero()));
        }
        let (c, r) = (&self.cores.squared, &self.radii);
        let p = Poly::from_coeffs(vec![r.clone() * r.clone() - c.clone(), r.clone() + r.clone(), S::one()]);
        nth_root(&p, &S::zero(), &(c.clone() + S::one()), 0, &S::zero())
    }

    /// The distance squared, (√c − R)² for separated shapes (else 0): the smaller root of
    /// y² − 2(c + R²)y + (c − R²)², whose roots are (√c ∓ R)².
    ///
    /// Errors: as [`RoundDistance::distance`].
    pub fn distance_squared(&self) -> Result<S::Time, PolyError> {
        if self.status != Status::Separated {
            return Ok(S::time(&S::zero()));
        }
        let (c, r2) = (&self.cores.squared, self.radii.clone() * self.radii.clone());
        let sum = c.clone() + r2.clone();
        let two_sum = sum.clone() + sum;
        let diff = c.clone() - r2;
        let p = Poly::from_coeffs(vec![diff.clone() * diff, -two_sum.clone(), S::one()]);
        // Both roots lie in [0, 2(c + R²)] (their sum).
        nth_root(&p, &S::zero(), &(two_sum + S::one()), 0, &S::zero())
    }

    /// The depth R − √c of penetrating round shapes whose cores do not meet (the smaller root
    /// of y² − 2Ry + R² − c): how far apart the shapes must move along the line between the
    /// cores' closest points. `None` where the shapes do not penetrate or the cores meet
    /// (their own overlap then counts too).
    ///
    /// Errors: as [`RoundDistance::distance`].
    pub fn depth(&self) -> Result<Option<S::Time>, PolyError> {
        if self.status != Status::Penetrating || self.cores.squared.sign()? == Sign::Zero {
            return Ok(None);
        }
        let (c, r) = (&self.cores.squared, &self.radii);
        let p = Poly::from_coeffs(vec![r.clone() * r.clone() - c.clone(), -(r.clone() + r.clone()), S::one()]);
        nth_root(&p, &S::zero(), r, 0, &S::zero()).map(Some)
    }

    /// The closest points of the round shapes, a's given its radius `radius_a` (b's is the
    /// rest of [`RoundDistance::radii`]): each core's closest point moved by its radius along
    /// the unit direction between them, p_a + r_a·u and p_b − r_b·u with u = (p_b − p_a)/√c,
    /// each coordinate exactly (α + β/√c, a root of c(x − α)² = β²). For penetrating shapes
    /// these are the deepest points along that line (each on its own surface, inside the
    /// other). `None` where the cores meet (no direction).
    ///
    /// Errors: as [`RoundDistance::distance`].
    pub fn points(&self, radius_a: &S) -> Result<Option<[[S::Time; 3]; 2]>, PolyError> {
        let c = &self.cores.squared;
        if c.sign()? == Sign::Zero {
            return Ok(None);
        }
        let (pa, pb) = &self.cores.points;
        let radius_b = self.radii.clone() - radius_a.clone();
        let coordinate = |alpha: &S, beta: S| -> Result<S::Time, PolyError> {
            let beta_sign = beta.sign()?;
            if beta_sign == Sign::Zero {
                return Ok(S::time(alpha));
            }
            let two = S::one() + S::one();
            let p = Poly::from_coeffs(vec![
                c.clone() * alpha.clone() * alpha.clone() - beta.clone() * beta.clone(),
                -(c.clone() * alpha.clone() * two),
                c.clone(),
            ]);
            // |β|/√c ≤ |β|(1 + 1/c): both roots α ± |β|/√c lie within that of α.
            let bound = beta.abs() * (S::one() + S::one() / c.clone()) + S::one();
            let k = usize::from(beta_sign == Sign::Positive);
            nth_root(&p, &(alpha.clone() - bound.clone()), &(alpha.clone() + bound), k, alpha)
        };
        let mut out: [Vec<S::Time>; 2] = [Vec::new(), Vec::new()];
        for i in 0..3 {
            let delta = pb[i].clone() - pa[i].clone();
            out[0].push(coordinate(&pa[i], radius_a.clone() * delta.clone())?);
            out[1].push(coordinate(&pb[i], -(radius_b.clone() * delta))?);
        }
        let [a, b] = out;
        let three =
            |v: Vec<S::Time>| -> [S::Time; 3] { v.try_into().unwrap_or_else(|_| unreachable!("three coordinates")) };
        Ok(Some([three(a), three(b)]))
    }
}

/// The `k`-th real root (from the least) of `p` in [lo, hi], on the backend's root finder.
///
/// On a backend without exact values two roots within its precision of each other may come
/// out as one, or (a discriminant rounded below zero) as none: the root found, else `near`,
/// is then the answer (a coordinate α ± |β|/√c with β tiny; a distance of shapes that touch
/// within the precision). Exact backends always isolate every root.
fn nth_root<S: RootScalar>(p: &Poly<S>, lo: &S, hi: &S, k: usize, near: &S) -> Result<S::Time, PolyError> {
    let mut roots = S::roots_in(p, lo, hi)?;
    if k < roots.len() {
        Ok(roots.swap_remove(k))
    } else if S::EXACT_VALUES {
        Err(PolyError::NotIsolating)
    } else {
        Ok(roots.pop().unwrap_or_else(|| S::time(near)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    /// Skipping the features whose boxes lie beyond the least so far changes nothing: the same
    /// squared distance, closest points and features as the full search, exactly, for points
    /// and segments on a grid about a box and a turned hull (touching faces, edges and
    /// vertices, parallel to faces and edges, crossing, inside).
    #[test]
    fn pruned_searches_are_the_full_ones() {
        let q = |n: i64| BigRational::from_integer(n.into());
        let h = |n: i64| BigRational::new(n.into(), 2.into());
        let pt = |x: i64, y: i64, z: i64| Point3::new(h(x), h(y), h(z));
        let cube = crate::brep::shapes::cuboid(h(2), h(1), h(3)).unwrap();
        let hull = crate::brep::convex_hull(&[
            Point3::new(q(0), q(0), q(0)),
            Point3::new(q(2), q(1), q(0)),
            Point3::new(q(-1), q(2), q(1)),
            Point3::new(q(1), q(-1), q(2)),
            Point3::new(q(0), q(1), q(3)),
        ])
        .unwrap()
        .solid;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |k: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % k) as i64 - (k / 2) as i64
        };
        let (mut points, mut segments, mut pruned) = (0, 0, 0);
        for solid in [&cube, &hull] {
            for _ in 0..300 {
                let a = pt(next(13), next(13), next(13));
                let b = if next(4) == 0 {
                    pt(next(13), next(13), next(13))
                } else {
                    a.clone() + Vector3::new(h(next(5)), q(0), h(next(3)))
                };
                assert_eq!(point_polytope(&a, solid, true), point_polytope(&a, solid, false), "{a:?}");
                points += 1;
                if a != b {
                    let seg = [a.clone(), b.clone()];
                    let (x, y) =
                        (segment_polytope(&seg, solid, true).unwrap(), segment_polytope(&seg, solid, false).unwrap());
                    assert_eq!((&x.squared, &x.points, &x.features), (&y.squared, &y.points, &y.features), "{seg:?}");
                    segments += 1;
                    let least = Some(&x.squared);
                    pruned += solid
                        .edges()
                        .iter()
                        .filter(|&&(v, w)| boxes_beyond(&[&a, &b], &[solid.vertex(v), solid.vertex(w)], least))
                        .count();
                }
            }
        }
        assert_eq!(points, 600);
        assert!(segments > 400, "{segments}");
        // The test is not vacuous: most edges are skipped.
        assert!(pruned > 2 * segments, "{pruned} of {segments} segments' edges");
    }

    #[test]
    fn the_box_gap_bounds_from_below() {
        let q = |n: i64| BigRational::from_integer(n.into());
        let p = |x: i64, y: i64, z: i64| Point3::new(q(x), q(y), q(z));
        let (a, b) = ([p(0, 0, 0), p(1, 1, 0)], [p(3, 0, 0), p(4, 5, 2)]);
        // The boxes are 2 apart in x and overlap in y and z: gap² = 4.
        let (ra, rb): (Vec<_>, Vec<_>) = (a.iter().collect(), b.iter().collect());
        assert!(boxes_beyond(&ra, &rb, Some(&q(3))));
        assert!(!boxes_beyond(&ra, &rb, Some(&q(4))), "a tie is no skip");
        assert!(!boxes_beyond(&ra, &rb, None));
        // Not on a float backend.
        let f = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
        assert!(!boxes_beyond(&[&f(0.0, 0.0, 0.0)], &[&f(9.0, 0.0, 0.0)], Some(&1.0)));
    }
}
