//! Round shapes under linear motion: the first time of contact (issue 42 item 3), on any
//! backend that finds roots, and the closest approach, exactly.
//!
//! Relative to b, a moves by v = v_a − v_b, and the shapes meet when the cores come within
//! R = r_a + r_b. The cores' distance at any time is realised by a *candidate pair*: a vertex
//! of one core (a ball's centre, a capsule's end, a polytope's vertex) against a point, a
//! segment or a face of the other, or two edges that are not parallel (a closest pair with a
//! face's inside, or with parallel edges, is matched by a vertex at the same distance). Each
//! candidate's squared distance is N(t)/k, N a quadratic in t and k > 0 a constant, valid
//! where some linear conditions hold (the foot inside a segment, the point over a face, the
//! closest points of two lines inside both edges), and it is never below the cores' distance
//! where valid. So:
//! * the first contact is t0 when the shapes meet at t0, else the least root in [t0, t1] of
//!   N(t) − R²k = 0 over the candidates, valid at the root (a graze, a double root, is a
//!   contact: none is missed): exact algebraic numbers on exact backends, floats under the
//!   tolerance policy on `f64` ([`first_contact`]);
//! * the least squared distance of the cores over [t0, t1] is the least over the candidates of
//!   a quadratic's minimum on an interval with rational ends, and the values at t0 and t1:
//!   a rational number ([`closest_approach`]). The shapes meet in the interval exactly when it
//!   is at most R²: an independent route to the same decision, and the `toi` op's margin.

use super::{convex, core_distance, round_distance, Core, CoreFeature, RoundError, RoundShape};
use crate::brep::Feature;

fn translated<S: Scalar>(core: &Core<S>, d: &Vector3<S>) -> Result<Core<S>, RoundError> {
    core.translated(d)
}
use crate::geom::{Point3, Vector3};
use crate::poly::{earlier, Poly, PolyError, RootScalar, TPoly};
use crate::scalar::{Scalar, Sign};
use crate::vclip::Status;

/// A vector of polynomials in t, with magnitudes on inexact backends.
type PVec<S> = [TPoly<S>; 3];

fn poly_error(e: PolyError) -> RoundError {
    match e {
        PolyError::Uncertain(u) => RoundError::Uncertain(u),
        e => RoundError::Poly("the time of contact", e),
    }
}

fn constant<S: Scalar>(x: &S) -> TPoly<S> {
    TPoly::input(Poly::from_coeffs(vec![x.clone()]))
}

fn fixed<S: Scalar>(p: &Point3<S>) -> PVec<S> {
    [constant(&p.x), constant(&p.y), constant(&p.z)]
}

fn fixed_vector<S: Scalar>(v: &Vector3<S>) -> PVec<S> {
    [constant(&v.x), constant(&v.y), constant(&v.z)]
}

/// p + v·t.
fn moving<S: Scalar>(p: &Point3<S>, v: &Vector3<S>) -> PVec<S> {
    let c = |x: &S, y: &S| TPoly::input(Poly::from_coeffs(vec![x.clone(), y.clone()]));
    [c(&p.x, &v.x), c(&p.y, &v.y), c(&p.z, &v.z)]
}

fn sub<S: Scalar>(a: &PVec<S>, b: &PVec<S>) -> PVec<S> {
    [a[0].clone() - b[0].clone(), a[1].clone() - b[1].clone(), a[2].clone() - b[2].clone()]
}

fn dot<S: Scalar>(a: &PVec<S>, b: &PVec<S>) -> TPoly<S> {
    a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
}

fn cross<S: Scalar>(a: &PVec<S>, b: &PVec<S>) -> PVec<S> {
    let m = |i: usize, j: usize| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone();
    [m(1, 2), m(2, 0), m(0, 1)]
}

/// One candidate pair: its squared distance is `value / scale` (`scale` a positive
/// constant) wherever every `inside` polynomial (of degree at most 1) is at least 0; the
/// features of a's core and b's that it pairs.
struct Candidate<S: Scalar> {
    value: TPoly<S>,
    scale: TPoly<S>,
    inside: Vec<TPoly<S>>,
    features: [CoreFeature; 2],
}

/// The feature of `core` that is its `k`-th point ([`Core::points`]).
fn point_feature<S: Scalar>(core: &Core<S>, k: usize) -> CoreFeature {
    match core {
        Core::Point(_) => CoreFeature::Point,
        Core::Segment(_) => CoreFeature::End(k),
        Core::Polytope(_) => CoreFeature::Polytope(Feature::Vertex(k)),
    }
}

/// The candidates of a point moving as `x` (the feature `own` of its core) against `core`
/// (at rest); `swap`: the point is b's, so the pair is written (core's feature, own).
fn point_candidates<S: Scalar>(
    x: &PVec<S>,
    own: &CoreFeature,
    swap: bool,
    core: &Core<S>,
    out: &mut Vec<Candidate<S>>,
) -> Result<(), RoundError> {
    let one = || constant(&S::one());
    let pair = |f: CoreFeature| if swap { [f, own.clone()] } else { [own.clone(), f] };
    let point = |q: &Point3<S>, f: CoreFeature| {
        let w = sub(x, &fixed(q));
        Candidate { value: dot(&w, &w), scale: one(), inside: Vec::new(), features: pair(f) }
    };
    // |(x − a) × u|² / |u|², the foot (x − a)·u in [0, |u|²].
    let segment = |a: &Point3<S>, b: &Point3<S>, f: CoreFeature| {
        let u = sub(&fixed(b), &fixed(a));
        let w = sub(x, &fixed(a));
        let c = cross(&w, &u);
        let uu = dot(&u, &u);
        let foot = dot(&w, &u);
        Candidate { value: dot(&c, &c), scale: uu.clone(), inside: vec![foot.clone(), uu - foot], features: pair(f) }
    };
    match core {
        Core::Point(q) => out.push(point(q, CoreFeature::Point)),
        Core::Segment([a, b]) => {
            out.extend([
                point(a, CoreFeature::End(0)),
                point(b, CoreFeature::End(1)),
                segment(a, b, CoreFeature::Segment),
            ]);
        }
        Core::Polytope(s) => {
            convex(s)?;
            out.extend(
                s.vertices().iter().enumerate().map(|(k, v)| point(v, CoreFeature::Polytope(Feature::Vertex(k)))),
            );
            out.extend(
                s.edges()
                    .iter()
                    .map(|&(u, w)| segment(s.vertex(u), s.vertex(w), CoreFeature::Polytope(Feature::Edge(u, w)))),
            );
            for f in 0..s.face_count() {
                // (n·(x − a))² / |n|² on the outer side (n outward), with x over the face:
                // each boundary half-edge a → c has (x − a)·(n × (c − a)) ≥ 0.
                let face = s.face(f);
                let Some(&first) = face.first() else { continue };
                let n = fixed_vector(&s.plane(f).normal);
                let e = dot(&n, &sub(x, &fixed(s.vertex(first))));
                let mut inside = vec![e.clone()];
                for k in 0..face.len() {
                    let (a, c) = (s.vertex(face[k]), s.vertex(face[(k + 1) % face.len()]));
                    let inward = cross(&n, &sub(&fixed(c), &fixed(a)));
                    inside.push(dot(&sub(x, &fixed(a)), &inward));
                }
                out.push(Candidate {
                    value: e.clone() * e,
                    scale: dot(&n, &n),
                    inside,
                    features: pair(CoreFeature::Polytope(Feature::Face(f))),
                });
            }
        }
    }
    Ok(())
}

/// The edges of a core with their features: a capsule's segment, a polytope's edges.
fn core_edges<S: Scalar>(core: &Core<S>) -> Vec<(&Point3<S>, &Point3<S>, CoreFeature)> {
    match core {
        Core::Point(_) => Vec::new(),
        Core::Segment([p, q]) => vec![(p, q, CoreFeature::Segment)],
        Core::Polytope(s) => s
            .edges()
            .iter()
            .map(|&(u, w)| (s.vertex(u), s.vertex(w), CoreFeature::Polytope(Feature::Edge(u, w))))
            .collect(),
    }
}

/// The candidate of the edge a (moving by `v`) and the fixed edge b, when they are not
/// parallel: their lines are |D(t)·n| / |n| apart (n = u × w, D = a0 + v·t − b0), with the
/// closest points of the lines at parameters s/denom along a and r/denom along b, s and r
/// linear in t (denom = |u × w|² > 0).
fn edge_candidate<S: Scalar>(
    [a0, a1]: [&Point3<S>; 2],
    [b0, b1]: [&Point3<S>; 2],
    v: &Vector3<S>,
) -> Result<Option<Candidate<S>>, RoundError> {
    let u = sub(&fixed(a1), &fixed(a0));
    let w = sub(&fixed(b1), &fixed(b0));
    let n = cross(&u, &w);
    let nn = dot(&n, &n);
    if nn.is_zero().map_err(poly_error)? {
        return Ok(None);
    }
    let d = sub(&moving(a0, v), &fixed(b0));
    let dn = dot(&d, &n);
    let (aa, bb, cc) = (dot(&u, &u), dot(&u, &w), dot(&w, &w));
    let denom = aa.clone() * cc.clone() - bb.clone() * bb.clone();
    // s·denom = bb (w·D) − cc (u·D), r·denom = aa (w·D) − bb (u·D).
    let (wd, ud) = (dot(&w, &d), dot(&u, &d));
    let s = bb.clone() * wd.clone() - cc * ud.clone();
    let r = aa * wd - bb * ud;
    let inside = vec![s.clone(), denom.clone() - s, r.clone(), denom - r];
    Ok(Some(Candidate {
        value: dn.clone() * dn,
        scale: nn,
        inside,
        features: [CoreFeature::Segment, CoreFeature::Segment],
    }))
}

/// Every candidate pair of the cores, a moving by `v` relative to b.
fn candidates<S: Scalar>(a: &Core<S>, b: &Core<S>, v: &Vector3<S>) -> Result<Vec<Candidate<S>>, RoundError> {
    let mut out = Vec::new();
    let tick = || crate::budget::tick().map_err(crate::scalar::Uncertain::from);
    for (k, p) in a.points().into_iter().enumerate() {
        tick()?;
        point_candidates(&moving(p, v), &point_feature(a, k), false, b, &mut out)?;
    }
    let back = -v.clone();
    for (k, p) in b.points().into_iter().enumerate() {
        tick()?;
        point_candidates(&moving(p, &back), &point_feature(b, k), true, a, &mut out)?;
    }
    for (a0, a1, fa) in core_edges(a) {
        for (b0, b1, fb) in core_edges(b) {
            tick()?;
            out.extend(
                edge_candidate([a0, a1], [b0, b1], v)?.map(|c| Candidate { features: [fa.clone(), fb.clone()], ..c }),
            );
        }
    }
    Ok(out)
}

/// The least root in [t0, t1] of a candidate's N(t) − r2·k at which the candidate is valid,
/// with the candidate's features (the first candidate on a tie).
fn earliest<S: RootScalar>(
    cands: &[Candidate<S>],
    r2: &TPoly<S>,
    t0: &S,
    t1: &S,
) -> Result<Option<RoundContact<S>>, RoundError> {
    let mut best: Option<RoundContact<S>> = None;
    for c in cands {
        crate::budget::tick().map_err(crate::scalar::Uncertain::from)?;
        let p = c.value.clone() - r2.clone() * c.scale.clone();
        // An equation that holds at every time: a motion along a feature, whose contact
        // another candidate finds, or one already caught at t0.
        if p.is_zero().map_err(poly_error)? {
            continue;
        }
        // On exact backends, search only where the candidate is valid and, when its least
        // value there is positive, not at all (most candidates are far): a shortcut, the
        // roots found are the same.
        let (lo, hi) = if S::EXACT_VALUES {
            match window(&c.inside, &p.p, t0, t1)? {
                Some(w) => w,
                None => continue,
            }
        } else {
            (t0.clone(), t1.clone())
        };
        'roots: for t in S::roots_in(&p.p, &lo, &hi).map_err(poly_error)? {
            let tie = match &best {
                Some(b) if !earlier::<S>(&t, &b.time)? => {
                    if S::compare_times(&t, &b.time)? != std::cmp::Ordering::Equal {
                        continue;
                    }
                    true
                }
                _ => false,
            };
            for i in &c.inside {
                if S::sign_at(i, &t).map_err(poly_error)? == Sign::Negative {
                    continue 'roots;
                }
            }
            match &mut best {
                Some(b) if tie => {
                    if !b.tied.contains(&c.features) {
                        b.tied.push(c.features.clone());
                    }
                }
                _ => {
                    best = Some(RoundContact {
                        time: t,
                        features: Some(c.features.clone()),
                        tied: vec![c.features.clone()],
                        at_start: None,
                    })
                }
            }
        }
    }
    Ok(best)
}

/// The part [lo, hi] of [t0, t1] where every linear `inside` condition holds (`None`: nowhere);
/// on an exact backend.
fn valid_interval<S: Scalar>(inside: &[TPoly<S>], t0: &S, t1: &S) -> Result<Option<(S, S)>, RoundError> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (mut lo, mut hi) = (t0.clone(), t1.clone());
    for l in inside {
        if l.p.degree().is_some_and(|d| d > 1) {
            return Err(RoundError::Invalid("a candidate's condition is not linear".into()));
        }
        let (c0, c1) = (coeff(&l.p, 0), coeff(&l.p, 1));
        match c1.compare(&S::zero())? {
            Equal if c0.compare(&S::zero())? == Less => return Ok(None),
            Equal => {}
            side => {
                let root = -(c0 / c1);
                if side == Greater && root.compare(&lo)? == Greater {
                    lo = root;
                } else if side == Less && root.compare(&hi)? == Less {
                    hi = root;
                }
            }
        }
    }
    Ok(if lo.compare(&hi)? == Greater { None } else { Some((lo, hi)) })
}

fn coeff<S: Scalar>(p: &Poly<S>, i: usize) -> S {
    p.coeffs().get(i).cloned().unwrap_or_else(S::zero)
}

/// The least value of the quadratic `q` (leading coefficient at least 0) on [lo, hi].
fn least_between<S: Scalar>(q: &Poly<S>, lo: &S, hi: &S) -> Result<S, RoundError> {
    use std::cmp::Ordering::{Greater, Less};
    let mut m = least(q.eval(lo), q.eval(hi))?;
    let (a2, a1) = (coeff(q, 2), coeff(q, 1));
    if a2.compare(&S::zero())? == Greater {
        let vertex = -(a1 / (a2.clone() + a2));
        if vertex.compare(lo)? != Less && vertex.compare(hi)? != Greater {
            m = least(m, q.eval(&vertex))?;
        }
    }
    Ok(m)
}

/// On an exact backend: the part [lo, hi] of [t0, t1] where the candidate is valid, when its
/// equation `p` is at most 0 somewhere in it; `None` otherwise.
fn window<S: Scalar>(inside: &[TPoly<S>], p: &Poly<S>, t0: &S, t1: &S) -> Result<Option<(S, S)>, RoundError> {
    let Some((lo, hi)) = valid_interval(inside, t0, t1)? else { return Ok(None) };
    Ok((least_between(p, &lo, &hi)?.compare(&S::zero())? != std::cmp::Ordering::Greater).then_some((lo, hi)))
}

/// The first time t in [t0, t1] at which two round shapes moving at constant velocities
/// `velocity_a` and `velocity_b` meet (see the module's docs): exact on exact backends, on
/// `f64` under its tolerance policy. `None`: they do not meet in the interval; t0 when they
/// meet at t0.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::round::{first_contact, RoundShape};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A capsule along x at height 3 falls at speed 1 onto a capsule along y; radii 1 each.
/// let a = RoundShape::capsule(point(-4, 0, 3), point(4, 0, 3), q(1)).unwrap();
/// let b = RoundShape::capsule(point(0, -4, 0), point(0, 4, 0), q(1)).unwrap();
/// let down = Vector3::new(q(0), q(0), q(-1));
/// let still = Vector3::new(q(0), q(0), q(0));
/// let t = first_contact(&a, &down, &b, &still, [q(0), q(10)]).unwrap();
/// assert_eq!(t.unwrap().to_rational(), Some(q(1)));
/// // The same on f64.
/// let a = RoundShape::<f64>::capsule(point(-4, 0, 3), point(4, 0, 3), 1.0).unwrap();
/// let b = RoundShape::<f64>::capsule(point(0, -4, 0), point(0, 4, 0), 1.0).unwrap();
/// let t = first_contact(&a, &Vector3::new(0.0, 0.0, -1.0), &b, &Vector3::zeros(), [0.0, 10.0]).unwrap();
/// assert!((t.unwrap() - 1.0).abs() < 1e-12);
/// ```
///
/// Errors: [`RoundError::Invalid`] for an interval that ends before it starts;
/// [`RoundError::Polytope`] for a polytope core that is not convex; [`RoundError::Uncertain`]
/// where a filtered backend cannot decide; the polynomial module's limits as
/// [`RoundError::Invalid`].
pub fn first_contact<S: RootScalar>(
    a: &RoundShape<S>,
    velocity_a: &Vector3<S>,
    b: &RoundShape<S>,
    velocity_b: &Vector3<S>,
    interval: [S; 2],
) -> Result<Option<S::Time>, RoundError> {
    Ok(first_contact_features(a, velocity_a, b, velocity_b, interval)?.map(|c| c.time))
}

/// A first contact of round shapes: its time, and the core features that meet then (`None`
/// for shapes that meet at t0 with positive depth, or whose cores meet there).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundContact<S: RootScalar> {
    /// The time.
    pub time: S::Time,
    /// A's core feature and b's that come within r_a + r_b of each other at `time`.
    pub features: Option<[CoreFeature; 2]>,
    /// Every candidate pair of core features whose equation gives `time` (`features` among
    /// them): a contact where a capsule's cap meets its side is realised by the end and by
    /// the segment.
    pub tied: Vec<[CoreFeature; 2]>,
    /// Where the shapes meet at t0: their status there (touching or penetrating).
    pub at_start: Option<Status>,
}

/// [`first_contact`] with the core features that meet: the candidate pair whose equation
/// gave the time (the first on a tie), or at t0 the cores' closest features when the shapes
/// touch there.
///
/// Errors: as [`first_contact`].
pub fn first_contact_features<S: RootScalar>(
    a: &RoundShape<S>,
    velocity_a: &Vector3<S>,
    b: &RoundShape<S>,
    velocity_b: &Vector3<S>,
    interval: [S; 2],
) -> Result<Option<RoundContact<S>>, RoundError> {
    let [t0, t1] = interval;
    if t1.compare(&t0)? == std::cmp::Ordering::Less {
        return Err(RoundError::Invalid("an empty interval".into()));
    }
    let v: Vector3<S> = velocity_a - velocity_b;
    // Meeting at t0.
    let start = RoundShape { core: translated(&a.core, &(v.clone() * t0.clone()))?, radius: a.radius.clone() };
    let at_start = round_distance(&start, b)?;
    if at_start.status != Status::Separated {
        let features = (at_start.status == Status::Touching)
            .then(|| [at_start.cores.features.0.clone(), at_start.cores.features.1.clone()]);
        let tied = features.iter().cloned().collect();
        return Ok(Some(RoundContact { time: S::time(&t0), features, tied, at_start: Some(at_start.status) }));
    }
    let big_r = constant(&a.radius) + constant(&b.radius);
    earliest(&candidates(&a.core, &b.core, &v)?, &(big_r.clone() * big_r), &t0, &t1)
}

/// The first time t in [t0, t1] at which a ball of `radius` (0: a point) whose centre moves as
/// `centre + velocity·t` meets the round shape `b` at rest: [`first_contact`] of the ball.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::round::{ball_first_contact, RoundShape};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A unit ball from (−10, 0, 0) at speed 1 towards a unit ball at the origin: t = 8.
/// let b = RoundShape::ball(point(0, 0, 0), q(1)).unwrap();
/// let v = Vector3::new(q(1), q(0), q(0));
/// let t = ball_first_contact(&point(-10, 0, 0), &q(1), &v, &b, [q(0), q(20)]).unwrap();
/// assert_eq!(t.unwrap().to_rational(), Some(q(8)));
/// ```
///
/// Errors: [`RoundError::Invalid`] for a negative radius; as [`first_contact`].
pub fn ball_first_contact<S: RootScalar>(
    centre: &Point3<S>,
    radius: &S,
    velocity: &Vector3<S>,
    b: &RoundShape<S>,
    interval: [S; 2],
) -> Result<Option<S::Time>, RoundError> {
    if radius.compare(&S::zero())? == std::cmp::Ordering::Less {
        return Err(RoundError::Invalid("a negative radius".into()));
    }
    let ball = RoundShape { core: Core::Point(centre.clone()), radius: radius.clone() };
    first_contact(&ball, velocity, b, &Vector3::from_element(S::zero()), interval)
}

/// The first time t in [t0, t1] at which the cores, a moving by `v` relative to b, come within
/// squared distance `r2` (any value: none below 0), on an exact backend. [`first_contact`] is
/// this with r2 = (r_a + r_b)²; the `toi` op's contract asks it with r2 moved by the tolerance.
///
/// Errors: [`RoundError::Invalid`] on a backend without exact values; as [`first_contact`].
pub fn first_within<S: RootScalar>(
    a: &Core<S>,
    b: &Core<S>,
    v: &Vector3<S>,
    r2: &S,
    [t0, t1]: [S; 2],
) -> Result<Option<S::Time>, RoundError> {
    use std::cmp::Ordering::{Greater, Less};
    exact_only::<S>()?;
    if r2.compare(&S::zero())? == Less {
        return Ok(None);
    }
    if t1.compare(&t0)? == Less {
        return Err(RoundError::Invalid("an empty interval".into()));
    }
    let start = core_distance(&translated(a, &(v.clone() * t0.clone()))?, b)?.squared;
    if start.compare(r2)? != Greater {
        return Ok(Some(S::time(&t0)));
    }
    Ok(earliest(&candidates(a, b, v)?, &constant(r2), &t0, &t1)?.map(|c| c.time))
}

fn exact_only<S: Scalar>() -> Result<(), RoundError> {
    if S::EXACT_VALUES {
        Ok(())
    } else {
        Err(RoundError::Invalid(format!("the closest approach is computed on exact backends only, not {}", S::NAME)))
    }
}

/// The least squared distance of the cores over t ∈ [t0, t1], a moving by `v` relative to b:
/// a rational number, exactly (see the module's docs), on an exact backend.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::round::{closest_approach, Core};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A point passing the segment from (0, −4, 0) to (0, 4, 0) along the line x = t − 5, z = 3:
/// // closest at t = 5, 3 away.
/// let a = Core::Point(point(-5, 0, 3));
/// let b = Core::Segment([point(0, -4, 0), point(0, 4, 0)]);
/// let d2 = closest_approach(&a, &b, &Vector3::new(q(1), q(0), q(0)), [q(0), q(10)]).unwrap();
/// assert_eq!(d2, q(9));
/// ```
///
/// Errors: [`RoundError::Invalid`] for an interval that ends before it starts or a backend
/// without exact values; [`RoundError::Polytope`] for a polytope core that is not convex.
pub fn closest_approach<S: Scalar>(
    a: &Core<S>,
    b: &Core<S>,
    v: &Vector3<S>,
    [t0, t1]: [S; 2],
) -> Result<S, RoundError> {
    exact_only::<S>()?;
    if t1.compare(&t0)? == std::cmp::Ordering::Less {
        return Err(RoundError::Invalid("an empty interval".into()));
    }
    let at =
        |t: &S| -> Result<S, RoundError> { Ok(core_distance(&translated(a, &(v.clone() * t.clone()))?, b)?.squared) };
    let mut best = least(at(&t0)?, at(&t1)?)?;
    for c in candidates(a, b, v)? {
        crate::budget::tick().map_err(crate::scalar::Uncertain::from)?;
        if let Some(m) = least_on(&c, &t0, &t1)? {
            best = least(best, m)?;
        }
    }
    Ok(best)
}

fn least<S: Scalar>(x: S, y: S) -> Result<S, RoundError> {
    Ok(if y.compare(&x)? == std::cmp::Ordering::Less { y } else { x })
}

/// The least of a candidate's squared distance over the part of [t0, t1] where it is valid
/// (`None` where it is nowhere valid): a quadratic's least value on an interval.
fn least_on<S: Scalar>(c: &Candidate<S>, t0: &S, t1: &S) -> Result<Option<S>, RoundError> {
    let Some((lo, hi)) = valid_interval(&c.inside, t0, t1)? else { return Ok(None) };
    let k = coeff(&c.scale.p, 0);
    if k.compare(&S::zero())? != std::cmp::Ordering::Greater {
        return Err(RoundError::Invalid("a candidate's scale is not positive".into()));
    }
    Ok(Some(least_between(&c.value.p, &lo, &hi)? / k))
}
