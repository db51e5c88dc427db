//! `distance` and `toi` when either shape is a torus: a torus against a ball, a capsule or
//! another torus ([`crate::round::torus`]). The status is decided with zero tolerance; the
//! distance, the depth, d(cores)² and the cores' closest points are written to the query's
//! `digits`, each digit found by exact comparisons; the first contact under linear motion is
//! a certified enclosure of width 10^−digits.
//!
//! Contract of the `f64` path (`distance`): the margin is |d(cores)² − ρ²| (from an enclosure,
//! so a lower bound) over M = (1 + the largest |coordinate| of the cores, radii included)² +
//! ρ²; above the budget the status must be the exact one.
//!
//! Contract of the `f64` path (`toi`), which advances on float distances: its answer must be
//! valid within ε = the budget × S (S = 1 + the largest |coordinate| of the cores at t0 and
//! t1, a circle's radius added, + ρ), checked exactly: a time t_f lies in the interval (as
//! rounded to binary64), the shapes are within ε of touching at t_f (their cores within
//! ρ + ε), and where t_f is after the exact enclosure's end h, they are not deeper than ε
//! (cores within ρ − ε) at h or at eight evenly spaced times in [h, t_f]; a miss, likewise
//! not deeper than ε at h or eight times in [h, t1] (h: where the exact answer has a
//! contact). The margin is 0: `collides` may differ wherever the answer stays valid.

use std::cmp::Ordering;

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::claim::{Check, ClaimRule, Shown};
use super::distance::status_name;
use super::error::{child, ErrorKind, QueryError};
use super::round::round_error;
use super::spec::{FeatureId, Posed, ShapeSpec};
use super::toi::Toi;
use super::{Answer, Bounded, Query};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::{Point3, Vector3};
use crate::poly::RootScalar;
use crate::round::torus::{torus_distance, torus_first_contact, Circle, Curve, ExactTorus, TorusDistance, TorusValue};
use crate::scalar::{Exact, Scalar};
use crate::vclip::Status;

type Q = BigRational;

/// Whether a shape is a torus.
pub fn is_torus<N: Scalar>(s: &ShapeSpec<N>) -> bool {
    matches!(s, ShapeSpec::Torus { .. })
}

/// A core of the shapes a torus is measured against, posed, with its radius and the format's
/// name of its feature kind.
struct PosedCore<S: Scalar> {
    curve: Curve<S>,
    radius: S,
}

/// Pose a torus, a ball or a capsule as a curve core (a torus's circle, a ball's centre, a
/// capsule's segment) and its radius; anything else is refused at its path.
fn posed_core<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<PosedCore<S>, QueryError> {
    if !p.pose.is_rigid() {
        return Err(QueryError::new(
            ErrorKind::Invalid,
            &p.pose_at,
            "a round shape's pose must be a rigid motion (a quaternion, or a matrix whose linear part is orthogonal)",
        ));
    }
    let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let point = |x: &Point3<N>| map.apply_point(&super::spec::to_backend(x));
    let at = child(&p.at, p.shape.key());
    let invalid = |e| round_error(&at, e);
    super::spec::charge_pose_bits::<S, N>(p)?;
    Ok(match &p.shape {
        ShapeSpec::Ball(r) => {
            let zero = N::zero();
            PosedCore { curve: Curve::Point(point(&Point3::new(zero.clone(), zero.clone(), zero))), radius: r.to_backend() }
        }
        ShapeSpec::Capsule { a, b, radius } => {
            PosedCore { curve: Curve::Segment([point(a), point(b)]), radius: radius.to_backend() }
        }
        ShapeSpec::Torus { center, axis, major, minor } => {
            let axis: Vector3<S> = map.apply_vector(&axis.map(|x| x.to_backend()));
            let circle = Circle::new(point(center), axis, major.to_backend()).map_err(invalid)?;
            PosedCore { curve: Curve::Circle(circle), radius: minor.to_backend() }
        }
        other => {
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                &at,
                format!(
                    "a torus is measured against balls, capsules and tori; not against a {} (a polytope core is not supported with a torus)",
                    other.key()
                ),
            ))
        }
    })
}

/// The torus's circle, the other core and ρ, with whether a and b were swapped (b the torus).
struct Pair<S: Scalar> {
    circle: Circle<S>,
    curve: Curve<S>,
    radii: S,
    /// The radius about C (the torus's minor radius) and about K.
    radius: [S; 2],
    swapped: bool,
}

fn pair<S: Scalar, N: Scalar>(a: &Posed<N>, b: &Posed<N>) -> Result<Pair<S>, QueryError> {
    let (pa, pb) = (posed_core::<S, N>(a)?, posed_core::<S, N>(b)?);
    let radii = pa.radius.clone() + pb.radius.clone();
    match (pa.curve, pb.curve) {
        (Curve::Circle(circle), curve) => {
            Ok(Pair { circle, curve, radii, radius: [pa.radius, pb.radius], swapped: false })
        }
        (curve, Curve::Circle(circle)) => {
            Ok(Pair { circle, curve, radii, radius: [pb.radius, pa.radius], swapped: true })
        }
        _ => Err(QueryError::new(ErrorKind::Internal, "", "a torus pair without a torus")),
    }
}

/// The format's name of a core's feature at the closest points: `"circle"` (a torus),
/// `"center"` (a ball), a capsule's vertex 0 or 1, or its edge [0, 1].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TorusFeature {
    /// A torus's core circle.
    Circle,
    /// A ball's centre.
    Center,
    /// A capsule's end or inside.
    Capsule(FeatureId),
}

/// `distance` when either shape is a torus (see the module's docs).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{Point3, Vector3};
/// use touchstone::query::{DistanceTorus, PoseSpec, Posed, Query, ShapeSpec};
/// use touchstone::vclip::Status;
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // The torus R = 3, r = 1 about z, and a ball of radius 4 centred on the axis at height 4:
/// // √(3² + 4²) = 5 = 1 + 4, touching along a circle.
/// let torus = ShapeSpec::torus(Point3::new(q(0), q(0), q(0)), Vector3::new(q(0), q(0), q(1)), q(3), q(1)).unwrap();
/// let ball = PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(0), q(0), q(4)]).unwrap();
/// let query = DistanceTorus {
///     a: Posed::new("a", torus, PoseSpec::identity()),
///     b: Posed::new("b", ShapeSpec::ball(q(4)).unwrap(), ball),
/// };
/// let out = query.answer::<BigRational>().unwrap().output;
/// assert_eq!(out.status, Status::Touching);
/// assert_eq!(out.exact.unwrap().decimal(touchstone::round::torus::TorusValue::CoresSquared, 20).unwrap(), "25");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceTorus<N: Scalar = BigRational> {
    /// Shape a with its pose.
    pub a: Posed<N>,
    /// Shape b with its pose.
    pub b: Posed<N>,
}

/// The answer of [`DistanceTorus`].
#[derive(Clone, Debug)]
pub struct DistanceTorusOutput<S: RootScalar> {
    /// Separated, touching or penetrating, exactly.
    pub status: Status,
    /// d(cores)²: within 2⁻¹²⁸ on exact backends (the exact value is in `exact`), the float
    /// estimate on `f64`.
    pub cores_distance_squared: S,
    /// ρ = r_a + r_b.
    pub radii: S,
    /// The exact form (exact backends): every value to any number of digits.
    pub exact: Option<ExactTorus>,
    /// Float estimates of the cores' closest points, a's then b's.
    pub core_points: [[f64; 3]; 2],
    /// The radius about C (the torus's minor radius) and about K: the shapes' own points
    /// are the core points moved by them ([`ExactTorus::surface_points`]).
    pub surface_radii: [S; 2],
    /// Float estimates of the shapes' own points, a's then b's (the core points moved by
    /// their radii toward each other; the core point twice where the cores meet).
    pub points: [[f64; 3]; 2],
    /// The features of a and b there.
    pub features: [TorusFeature; 2],
    /// Whether b is the torus measured (its circle is C).
    pub swapped: bool,
}

/// A claim on [`DistanceTorus`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceTorusClaim {
    /// The claimed status.
    pub status: Option<Status>,
    /// Whether the closed shapes are claimed to meet.
    pub intersecting: Option<bool>,
    /// The claimed distance.
    pub distance: Option<BigRational>,
    /// The claimed closest points on a and b.
    pub points: Option<[Point3<BigRational>; 2]>,
}

fn features_of<S: RootScalar>(d: &TorusDistance<S>, swapped: bool) -> [TorusFeature; 2] {
    let c = &d.candidates[d.best];
    let other = match d.cores().1 {
        Curve::Point(_) => TorusFeature::Center,
        Curve::Segment(_) => TorusFeature::Capsule(match c.end {
            Some(k) => FeatureId::Vertex(k),
            None => FeatureId::Edge(0, 1),
        }),
        Curve::Circle(_) => TorusFeature::Circle,
    };
    if swapped {
        [other, TorusFeature::Circle]
    } else {
        [TorusFeature::Circle, other]
    }
}

/// (1 + the largest |coordinate| of either core, a circle's radius added)².
fn scale<S: Scalar>(p: &Pair<S>) -> f64 {
    let mut m = p.circle.centre.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max) + p.circle.radius.to_f64();
    match &p.curve {
        Curve::Point(x) => m = m.max(x.iter().map(|v| v.to_f64().abs()).fold(0.0, f64::max)),
        Curve::Segment(s) => {
            for x in s {
                m = m.max(x.iter().map(|v| v.to_f64().abs()).fold(0.0, f64::max));
            }
        }
        Curve::Circle(c) => {
            m = m.max(c.centre.iter().map(|v| v.to_f64().abs()).fold(0.0, f64::max) + c.radius.to_f64())
        }
    }
    (1.0 + m) * (1.0 + m)
}

/// The shapes' own points from the core points `c` and radii `r`, a's then b's: each moved
/// by its radius toward the other; the core point twice where the cores meet.
fn surface_points_f64(c: [[f64; 3]; 2], r: [f64; 2]) -> [[f64; 3]; 2] {
    let d: [f64; 3] = std::array::from_fn(|i| c[1][i] - c[0][i]);
    let len = d.iter().map(|x| x * x).sum::<f64>().sqrt();
    if len == 0.0 || !len.is_finite() {
        return [c[1], c[1]];
    }
    [std::array::from_fn(|i| c[0][i] + r[0] * d[i] / len), std::array::from_fn(|i| c[1][i] - r[1] * d[i] / len)]
}

impl<N: Scalar> DistanceTorus<N> {
    /// The exact answer's form.
    fn exact_form(out: &DistanceTorusOutput<BigRational>) -> Result<&ExactTorus, QueryError> {
        out.exact.as_ref().ok_or_else(|| QueryError::new(ErrorKind::Internal, "", "no exact form on an exact backend"))
    }

    /// The checks of claimed points: each on its shape (within its radius plus `tol.abs` of
    /// its core, exactly), then their distance √g against the shapes' distance d within the
    /// tolerance, exactly: √g against d = √c − ρ is decided by squaring once into d(cores)²
    /// against x + y√g ([`ExactTorus::compare_squared_surd`]).
    fn points_checks(
        &self,
        out: &DistanceTorusOutput<BigRational>,
        points: &[Point3<Q>; 2],
        tol: &super::claim::Tolerance,
        digits: u32,
    ) -> Result<Vec<Check>, QueryError> {
        let e = Self::exact_form(out)?;
        let p = pair::<Q, N>(&self.a, &self.b)?;
        let poly = |x| QueryError::poly("/claim/points", x);
        let [rc, rk] = &p.radius;
        let shown = e.surface_points(rc, rk, digits.min(40)).map_err(poly)?;
        let shown = if p.swapped { [shown[1].clone(), shown[0].clone()] } else { shown };
        let torus = Curve::Circle(p.circle.clone());
        // a's core and radius, then b's.
        let cores = if p.swapped { [(&p.curve, rk), (&torus, rc)] } else { [(&torus, rc), (&p.curve, rk)] };
        let mut v = Vec::new();
        for (k, (point, (core, radius))) in points.iter().zip(cores).enumerate() {
            let ok = within_of_curve(core, point, &(radius + &tol.abs));
            v.push(Check::point_on_shape(k, point, Shown::Text(format!("[{}]", shown[k].join(", "))), ok));
        }
        let gap = crate::geom::norm2(&(&points[0] - &points[1]));
        let ok = if out.status == Status::Separated {
            gap_admitted(e, &gap, &p.radii, tol).map_err(poly)?
        } else {
            gap <= &tol.abs * &tol.abs
        };
        let exact = Shown::Text(format!("[{}], [{}]", shown[0].join(", "), shown[1].join(", ")));
        v.push(Check::points_apart(points, exact, ok, || e.decimal(TorusValue::Distance, 8).unwrap_or_default()));
        Ok(v)
    }
}

/// Whether `p` lies within `s` ≥ 0 of the curve `k`, exactly. From a circle (centre c, axis n,
/// radius R; w = p − c, k = |n|²): d² = |w|² + R² − 2R|w × n|/√k ≤ s² ⇔ L = |w|² + R² − s² ≤ 0
/// or L²k ≤ 4R²|w × n|².
fn within_of_curve(curve: &Curve<Q>, p: &Point3<Q>, s: &Q) -> bool {
    let s2 = s * s;
    match curve {
        Curve::Point(c) => crate::geom::norm2(&(p - c)) <= s2,
        Curve::Segment([a, b]) => {
            let (ab, ap) = (b - a, p - a);
            let len2 = ab.dot(&ab);
            let t = if len2.is_zero() { Q::zero() } else { (ap.dot(&ab) / &len2).max(Q::zero()).min(Q::one()) };
            let foot = a + &ab.map(|x| x * &t);
            crate::geom::norm2(&(p - &foot)) <= s2
        }
        Curve::Circle(c) => {
            let w = p - &c.centre;
            let k = c.axis.dot(&c.axis);
            let cross = w.cross(&c.axis);
            let r = &c.radius;
            let l = w.dot(&w) + r * r - s2;
            !l.is_positive() || &l * &l * &k <= Q::from_integer(4.into()) * r * r * cross.dot(&cross)
        }
    }
}

/// Whether √g lies within the tolerance of the distance d = √c − ρ of separated shapes:
/// |√g − d| ≤ max(abs, rel·d), exactly (c = d(cores)², of `e`).
fn gap_admitted(e: &ExactTorus, g: &Q, rho: &Q, tol: &super::claim::Tolerance) -> Result<bool, crate::poly::PolyError> {
    let two = Q::from_integer(2.into());
    // √g ≤ λ(√c − ρ) + f ⇔ √g + κ ≤ λ√c (κ = λρ − f): true where √g + κ < 0; else squared,
    // c ≥ (g + κ² + 2κ√g)/λ².
    let upper = |lambda: &Q, f: &Q| -> Result<bool, crate::poly::PolyError> {
        let kappa = lambda * rho - f;
        if kappa.is_negative() && g < &(&kappa * &kappa) {
            return Ok(true);
        }
        let l2 = lambda * lambda;
        let x = (g + &kappa * &kappa) / &l2;
        let y = &two * &kappa / &l2;
        Ok(e.compare_squared_surd(&x, &y, g)? != Ordering::Less)
    };
    // √g ≥ λ(√c − ρ) − f ⇔ √g + κ ≥ λ√c (κ = λρ + f ≥ 0): true where λ ≤ 0; else squared,
    // c ≤ (g + κ² + 2κ√g)/λ².
    let lower = |lambda: &Q, f: &Q| -> Result<bool, crate::poly::PolyError> {
        if !lambda.is_positive() {
            return Ok(true);
        }
        let kappa = lambda * rho + f;
        let l2 = lambda * lambda;
        let x = (g + &kappa * &kappa) / &l2;
        let y = &two * &kappa / &l2;
        Ok(e.compare_squared_surd(&x, &y, g)? != Ordering::Greater)
    };
    let one = Q::one();
    let zero = Q::zero();
    let within_abs = upper(&one, &tol.abs)? && lower(&one, &tol.abs)?;
    Ok(within_abs || (upper(&(&one + &tol.rel), &zero)? && lower(&(&one - &tol.rel), &zero)?))
}

impl<N: Scalar> Query for DistanceTorus<N> {
    const OP: &'static str = "distance";
    type Output<S: RootScalar> = DistanceTorusOutput<S>;
    type Discrete = Status;
    type Claim = DistanceTorusClaim;

    fn reference(o: DistanceTorusOutput<Exact>) -> DistanceTorusOutput<BigRational> {
        DistanceTorusOutput {
            status: o.status,
            cores_distance_squared: o.cores_distance_squared.to_rational().unwrap_or_default(),
            radii: o.radii.to_rational().unwrap_or_default(),
            exact: o.exact,
            core_points: o.core_points,
            surface_radii: o.surface_radii.map(|x| x.to_rational().unwrap_or_default()),
            points: o.points,
            features: o.features,
            swapped: o.swapped,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let p = pair::<S, N>(&self.a, &self.b)?;
        let d = torus_distance(&p.circle, &p.curve, &p.radii).map_err(|e| round_error("", e))?;
        let exact = ExactTorus::of(&d);
        let poly = |e| QueryError::poly("", e);
        let c = match &exact {
            Some(e) => {
                let (lo, hi) = e.enclosure(128).map_err(poly)?;
                S::from_rational(&((lo + hi) / Q::from_integer(2.into())))
            }
            None => S::from_rational(&crate::scalar::rational_of_f64(d.cores_squared_f64()).unwrap_or_default()),
        };
        let x = d.point_f64();
        let y = exact.as_ref().map(|e| e.points_f64()[0]).unwrap_or_else(|| circle_point_f64(&p.circle, x));
        let core_points = if p.swapped { [x, y] } else { [y, x] };
        let [rc, rk] = p.radius.clone().map(|r| r.to_f64());
        let points = surface_points_f64(core_points, if p.swapped { [rk, rc] } else { [rc, rk] });
        let magnitude = S::from_rational(&crate::scalar::rational_of_f64(scale(&p)).unwrap_or_default());
        Ok(Answer {
            output: DistanceTorusOutput {
                status: d.status,
                cores_distance_squared: c.clone(),
                radii: p.radii.clone(),
                exact,
                core_points,
                surface_radii: p.radius.clone(),
                points,
                features: features_of(&d, p.swapped),
                swapped: p.swapped,
            },
            decisive: Vec::new(),
            continuous: vec![Bounded::new("cores_distance_squared", c, magnitude)],
        })
    }

    /// |d(cores)² − ρ²| over M (see the module's docs), from an enclosure of d(cores)².
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        let e = Self::exact_form(&exact.output)?;
        let (lo, hi) = e.enclosure(128).map_err(|x| QueryError::poly("", x))?;
        let p = pair::<Q, N>(&self.a, &self.b)?;
        Ok(squared_gap_margin(&(lo, hi), &exact.output.radii, scale(&p)))
    }

    fn discrete<S: RootScalar>(o: &DistanceTorusOutput<S>) -> Status {
        o.status
    }

    fn valid_within_tolerance(_: &Status, _: &Status) -> bool {
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: equal |s: &Status| Shown::Text(status_name(*s).into()), |out| out.status),
        judged!(intersecting: equal |b: &bool| Shown::Bool(*b), |out| out.status != Status::Separated),
        judged!(distance: |_, exact, x, _, tol, digits| {
            let e = Self::exact_form(&exact.output)?;
            let poly = |err| QueryError::poly("/claim/distance", err);
            let shown = e.decimal(TorusValue::Distance, digits.min(40)).map_err(poly)?;
            let check = Check::by_comparisons("distance", x, tol, shown, |q| {
                e.compare(TorusValue::Distance, q).map_err(poly)
            })?;
            Ok(vec![check])
        }),
        judged!(points: |q, exact, points, _, tol, digits| q.points_checks(&exact.output, points, tol, digits)),
    ];
}

/// The margin of a status decided by comparing a squared distance, enclosed in `enclosure`,
/// with ρ²: |d² − ρ²| (a lower bound from the enclosure) over M = `scale` + ρ².
pub(super) fn squared_gap_margin(enclosure: &(Q, Q), rho: &Q, scale: f64) -> Margin {
    let (lo, hi) = enclosure;
    let r2 = rho * rho;
    let gap = (lo - &r2).max(&r2 - hi).max(Q::zero());
    Margin::Finite(gap / (crate::scalar::rational_of_f64(scale).unwrap_or_default() + r2))
}

/// C's point nearest `x` in floats (f64 backend).
fn circle_point_f64<S: Scalar>(c: &Circle<S>, x: [f64; 3]) -> [f64; 3] {
    let n: [f64; 3] = std::array::from_fn(|i| c.axis[i].to_f64());
    let cc: [f64; 3] = std::array::from_fn(|i| c.centre[i].to_f64());
    let w: [f64; 3] = std::array::from_fn(|i| x[i] - cc[i]);
    let k: f64 = n.iter().map(|v| v * v).sum();
    let wn: f64 = (0..3).map(|i| w[i] * n[i]).sum();
    let mut pi: [f64; 3] = std::array::from_fn(|i| w[i] - wn * n[i] / k);
    let mut len = pi.iter().map(|v| v * v).sum::<f64>().sqrt();
    if len == 0.0 || !len.is_finite() {
        // On the axis every point of C is closest: the one toward n × e_j, |n_j| least (as
        // the exact path's rational perpendicular).
        let j = (0..3).min_by(|&a, &b| n[a].abs().total_cmp(&n[b].abs())).unwrap_or(0);
        let mut e = [0.0; 3];
        e[j] = 1.0;
        pi = [n[1] * e[2] - n[2] * e[1], n[2] * e[0] - n[0] * e[2], n[0] * e[1] - n[1] * e[0]];
        len = pi.iter().map(|v| v * v).sum::<f64>().sqrt();
    }
    let r = c.radius.to_f64();
    std::array::from_fn(|i| cc[i] + r * pi[i] / len)
}

/// `toi` when either shape is a torus: [`Toi`]'s fields, answered by
/// [`torus_first_contact`] with an enclosure of width 10^−`digits` (see the module's docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ToiTorus<N: Scalar = BigRational> {
    /// The shapes, poses, velocities and interval.
    pub toi: Toi<N>,
    /// The enclosure's width asked for (positive).
    pub width: BigRational,
}

/// The answer of [`ToiTorus`].
#[derive(Clone, Debug, PartialEq)]
pub struct ToiTorusOutput<S: Scalar> {
    /// Whether the shapes meet in the interval.
    pub collides: bool,
    /// Where: the first contact lies in [lo, hi] (no contact before lo; the shapes meet at hi).
    pub interval: Option<[S; 2]>,
    /// Whether they meet at t0.
    pub at_start: bool,
    /// Advancement steps taken.
    pub steps: usize,
}

/// A claim on [`ToiTorus`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiTorusClaim {
    /// The claimed collision.
    pub collides: Option<bool>,
    /// The claimed first time of contact.
    pub toi: Option<BigRational>,
}

/// A torus `toi`'s pair, the curve's velocity relative to the circle, and the interval.
type Relative<S> = (Pair<S>, Vector3<S>, [S; 2]);

impl<N: Scalar> ToiTorus<N> {
    /// The posed pair, the velocity of the curve relative to the circle, and the interval.
    fn relative<S: Scalar>(&self) -> Result<Relative<S>, QueryError> {
        let t = &self.toi;
        let p = pair::<S, N>(&t.a, &t.b)?;
        let (va, vb): (Vector3<S>, Vector3<S>) =
            (t.velocity_a.map(|x| x.to_backend()), t.velocity_b.map(|x| x.to_backend()));
        let v = if p.swapped { va - vb } else { vb - va };
        let interval = t.interval.clone().map(|x| x.to_backend::<S>());
        Ok((p, v, interval))
    }

    /// Why the `f64` first time `fast` (`None`: no contact) is not valid within ε of the
    /// exact answer `e`, or `None` when it is (see the module's docs).
    fn invalid(&self, e: &ToiTorusOutput<Q>, fast: Option<f64>) -> Result<Option<String>, QueryError> {
        let (p, v, [t0, t1]) = self.relative::<Q>()?;
        let moved = |time: &Q| p.curve.translated(&v.map(|x| x * time));
        // ε = the budget × S, S = 1 + the largest |coordinate| of the cores at t0 and t1 (a
        // circle's radius added) + ρ.
        let mut largest = p.circle.centre.iter().map(Signed::abs).max().unwrap_or_default() + &p.circle.radius;
        for time in [&t0, &t1] {
            let points = match moved(time) {
                Curve::Point(x) => vec![x],
                Curve::Segment([a, b]) => vec![a, b],
                Curve::Circle(c) => {
                    let r = c.radius.clone();
                    vec![c.centre.map(|x| Signed::abs(&x) + &r)]
                }
            };
            for x in points {
                largest = largest.max(x.iter().map(Signed::abs).max().unwrap_or_default());
            }
        }
        let scale = Q::from_integer(1.into()) + largest + &p.radii;
        let eps = crate::scalar::rational_of_f64(crate::contract::budget::<f64>()).unwrap_or_default() * scale;
        let err = |e| round_error("", e);
        // Whether the shapes at `time` with radii summing to `rho` meet: on the fast exact
        // backend (the same values, without `BigRational`'s gcd after every operation; these
        // samples were most of a torus cast's check).
        let (pe, ve, _) = self.relative::<Exact>()?;
        let meet = |time: &Q, rho: &Q| -> Result<bool, QueryError> {
            let time = Exact::from_big_rational(time);
            let curve = pe.curve.translated(&ve.map(|x| x * time.clone()));
            let rho = Exact::from_big_rational(rho);
            Ok(torus_distance(&pe.circle, &curve, &rho).map_err(err)?.status != Status::Separated)
        };
        let shrunk = &p.radii - &eps;
        // Deeper than ε somewhere in [from, to]: at `from` or at eight evenly spaced times
        // after it (a sample deeper than ε shows it; none proves nothing more).
        let deep = |from: &Q, to: &Q| -> Result<bool, QueryError> {
            if !shrunk.is_positive() {
                return Ok(false);
            }
            for k in 0..=8 {
                let time = from + (to - from) * Q::new(k.into(), 8.into());
                if meet(&time, &shrunk)? {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        let hi = e.interval.as_ref().map(|[_, hi]| hi.clone());
        let Some(tf) = fast else {
            return Ok(match hi {
                Some(hi) if deep(&hi, &t1)? => Some("a miss, but the shapes penetrate by more than ε".into()),
                _ => None,
            });
        };
        let Some(tf_q) = crate::scalar::rational_of_f64(tf) else {
            return Ok(Some(format!("the time {tf} is not finite")));
        };
        let rounded = |x: &Q| crate::scalar::rational_of_f64(x.to_f64()).unwrap_or_else(|| x.clone());
        if tf_q < t0.clone().min(rounded(&t0)) || tf_q > t1.clone().max(rounded(&t1)) {
            return Ok(Some(format!("the time {tf} is outside the interval")));
        }
        let tf_q = tf_q.clamp(t0.clone(), t1.clone());
        if !meet(&tf_q, &(&p.radii + &eps))? {
            return Ok(Some(format!("the shapes are apart by more than ε at the time {tf}")));
        }
        if let Some(hi) = hi {
            if hi < tf_q && deep(&hi, &tf_q)? {
                return Ok(Some(format!("the shapes penetrate by more than ε before the time {tf}")));
            }
        }
        Ok(None)
    }
}

impl<N: Scalar> Query for ToiTorus<N> {
    const OP: &'static str = "toi";
    type Output<S: RootScalar> = ToiTorusOutput<S>;
    type Discrete = bool;
    type Claim = ToiTorusClaim;

    fn reference(o: ToiTorusOutput<Exact>) -> ToiTorusOutput<BigRational> {
        ToiTorusOutput {
            collides: o.collides,
            interval: o.interval.map(|i| i.map(|x| x.to_rational().unwrap_or_default())),
            at_start: o.at_start,
            steps: o.steps,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (p, v, [t0, t1]) = self.relative::<S>()?;
        if t1.compare(&t0).map_err(|u| QueryError::uncertain("/interval", u))? == Ordering::Less {
            return Err(QueryError::new(ErrorKind::Invalid, "/interval", "the interval's end is before its start"));
        }
        // The circle at t0: the motion is relative, so start both at t0.
        let width = S::from_rational(&self.width);
        let c =
            torus_first_contact(&p.circle, &p.curve, &p.radii, &v, &t0, &t1, &width).map_err(|e| round_error("", e))?;
        Ok(Answer::plain(ToiTorusOutput {
            collides: c.collides,
            interval: c.collides.then_some(c.interval),
            at_start: c.at_start,
            steps: c.steps,
        }))
    }

    /// 0: `collides` need not agree as such; the `f64` answer is checked for validity
    /// within ε instead (see the module's docs).
    fn margin(&self, _: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        Ok(Margin::Finite(Q::zero()))
    }

    /// The `f64` answer must be valid within ε (see the module's docs).
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let margin = Margin::Finite(Q::zero());
        let Ok(fast) = fast else { return Ok((margin, Ok(Agreement::WithinTolerance))) };
        let e = &exact.output;
        let shown = |o: Option<[String; 2]>| match o {
            Some([lo, hi]) => format!("[{lo}, {hi}]"),
            None => "no contact".to_string(),
        };
        let exact_shown = shown(e.interval.as_ref().map(|[lo, hi]| [lo.to_string(), hi.to_string()]));
        let fast_shown = shown(fast.output.interval.map(|[lo, hi]| [lo.to_string(), hi.to_string()]));
        let verdict = match self.invalid(e, fast.output.interval.map(|[lo, _]| lo))? {
            None => Ok(Agreement::WithinTolerance),
            Some(what) => Err(Disagreement { what, exact: exact_shown, fast: fast_shown, margin: "0".into() }),
        };
        Ok((margin, verdict))
    }

    fn discrete<S: RootScalar>(o: &ToiTorusOutput<S>) -> bool {
        o.collides
    }

    fn valid_within_tolerance(_: &bool, _: &bool) -> bool {
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(collides: equal |b: &bool| Shown::Bool(*b), |out| out.collides),
        judged!(toi: |_, exact, x, _, tol, _| {
            // Within the tolerance of some time of the enclosure: x ∈ [lo − t, hi + t],
            // t = max(abs, rel·|x|).
            let (ok, shown) = match &exact.output.interval {
                Some([lo, hi]) => {
                    let t = tol.abs.clone().max(&tol.rel * Signed::abs(x));
                    (&(lo - &t) <= x && x <= &(hi + &t), Shown::Text(format!("in [{lo}, {hi}]")))
                }
                None => (false, Shown::Text("the shapes do not meet in the interval".into())),
            };
            Ok(vec![Check { field: "toi".into(), claimed: Shown::Rational(x.clone()), exact: shown, abs_error: None, ok, note: None }])
        }),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::PoseSpec;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    /// A ball of radius 3 falling along the axis of the torus R = 3, r = 1 from height 10:
    /// contact when 9 + h² = 16, at t = 10 − √7 = 7.3542486889354…
    fn falling() -> ToiTorus {
        let torus =
            ShapeSpec::torus(Point3::new(q(0), q(0), q(0)), Vector3::new(q(0), q(0), q(1)), q(3), q(1)).unwrap();
        let start = PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(0), q(0), q(10)]).unwrap();
        ToiTorus {
            toi: Toi {
                a: Posed::new("a", torus, PoseSpec::identity()),
                b: Posed::new("b", ShapeSpec::ball(q(3)).unwrap(), start),
                velocity_a: Vector3::new(q(0), q(0), q(0)),
                velocity_b: Vector3::new(q(0), q(0), q(-1)),
                interval: [q(0), q(20)],
            },
            width: Q::new(1.into(), (1u64 << 40).into()),
        }
    }

    #[test]
    fn the_toi_contract_accepts_valid_answers_and_fails_the_others() {
        let query = falling();
        let exact = query.answer::<Q>().unwrap().output;
        let [lo, hi] = exact.interval.clone().unwrap();
        assert!(lo.to_f64() <= 10.0 - 7f64.sqrt() + 1e-12 && hi.to_f64() >= 10.0 - 7f64.sqrt() - 1e-12);
        let t = 10.0 - 7f64.sqrt();
        assert_eq!(query.invalid(&exact, Some(t)).unwrap(), None);
        // A miss: the ball goes 2 deep at h = 0.
        assert!(query.invalid(&exact, None).unwrap().unwrap().contains("penetrate"));
        // Too early: apart by about 2.4 at t = 5.
        assert!(query.invalid(&exact, Some(5.0)).unwrap().unwrap().contains("apart"));
        // Too late: at t = 9 the ball is in contact again (h = 1: √10 < 4), but deep before.
        assert!(query.invalid(&exact, Some(9.0)).unwrap().unwrap().contains("before"));
        // Outside the interval.
        assert!(query.invalid(&exact, Some(25.0)).unwrap().unwrap().contains("outside"));
        // And `both` holds: the f64 path's own time is valid.
        let r = crate::query::both(&query).unwrap();
        assert!(r.agreement.is_ok(), "{:?}", r.agreement);
    }

    /// Grazing: a ball of radius 2 along the axis touches the tube only at h = 0 (√(9 + h²) ≥
    /// 3 = ρ), at t = 10 exactly: found by root isolation (advancement would creep toward it
    /// without end).
    #[test]
    fn a_grazing_ball_is_found_exactly() {
        let mut query = falling();
        query.toi.b.shape = ShapeSpec::ball(q(2)).unwrap();
        let exact = query.answer::<Q>().unwrap().output;
        assert_eq!(exact.interval, Some([q(10), q(10)]));
        assert!(!exact.at_start);
    }
}
