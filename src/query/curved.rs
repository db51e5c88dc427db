//! `distance` when either shape is curved (an `implicit` solid): the certified status of
//! [`crate::curved`] instead of an exact distance. The other shape may be another implicit
//! solid, a ball, a torus, a cylinder or a convex polytope (a box, a convex polyhedron, a
//! convex hull or a mesh file), each turned into an implicit solid exactly (a polytope as the
//! half-spaces of its faces); capsules and rounded shapes are refused (`unsupported`). Poses
//! are any invertible affine maps, applied exactly by substituting their inverse.
//!
//! The answer is a certificate, never a guess: `penetrating` with an exact witness point inside
//! both, `separated` with bounds on the distance whose lower end is positive, `touching` with
//! the exact contact point, or `undecided` with what was reached. `precision` (relative to the
//! shapes' size, default 10⁻¹²) says how fine the searches may go.
//!
//! Only the exact backends answer (the searches are certified by outward-rounded intervals and
//! exact checks; there is no `f64` guess to hold to a contract): `"backend": "f64"` is refused.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::{child, ErrorKind, QueryError};
use super::spec::{build_solid, Posed, ShapeSpec};
use super::{Answer, Query};
use crate::curved::{implicit_status, CurvedError, CurvedStatus, Implicit, Poly3, StatusOptions};
use crate::poly::RootScalar;
use crate::scalar::Scalar;

type Q = BigRational;

/// The format's default precision: 10⁻¹² of the shapes' size.
pub fn default_precision() -> Q {
    Q::new(1.into(), 1_000_000_000_000i64.into())
}

/// `distance` when either shape is an implicit solid (see the module's docs).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::Point3;
/// use touchstone::query::{DistanceCurved, PoseSpec, Posed, Query, ShapeSpec};
/// use touchstone::curved::CurvedStatus;
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // x² + y² + z² − 4 ≤ 0 (a ball of radius 2) and a unit ball at (3, 0, 0): touching at (2, 0, 0).
/// let terms = vec![(q(1), [2, 0, 0]), (q(1), [0, 2, 0]), (q(1), [0, 0, 2]), (q(-4), [0, 0, 0])];
/// let ball2 = ShapeSpec::implicit(terms, Point3::new(q(-3), q(-3), q(-3)), Point3::new(q(3), q(3), q(3))).unwrap();
/// let at = PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(3), q(0), q(0)]).unwrap();
/// let query = DistanceCurved::new(Posed::new("a", ball2, PoseSpec::identity()), Posed::new("b", ShapeSpec::ball(q(1)).unwrap(), at));
/// match query.answer::<BigRational>().unwrap().output.status {
///     CurvedStatus::Touching { point, .. } => assert_eq!(point, [q(2), q(0), q(0)]),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceCurved<N: Scalar = BigRational> {
    /// Shape a with its pose.
    pub a: Posed<N>,
    /// Shape b with its pose.
    pub b: Posed<N>,
    /// How fine the searches go, relative to the shapes' size (positive, at most 1/16).
    pub precision: Q,
}

impl<N: Scalar> DistanceCurved<N> {
    /// The pair at the default precision.
    pub fn new(a: Posed<N>, b: Posed<N>) -> Self {
        DistanceCurved { a, b, precision: default_precision() }
    }
}

/// The discrete answer: the certificate's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurvedKind {
    /// Disjoint, with a positive lower bound on the distance.
    Separated,
    /// Meeting at a certified contact point, interiors disjoint.
    Touching,
    /// Interiors meet (a witness inside both).
    Penetrating,
    /// No certificate at the precision.
    Undecided,
}

impl CurvedKind {
    /// The kind of a status.
    pub fn of(s: &CurvedStatus) -> Self {
        match s {
            CurvedStatus::Separated { .. } => CurvedKind::Separated,
            CurvedStatus::Touching { .. } | CurvedStatus::Tangent { .. } => CurvedKind::Touching,
            CurvedStatus::Penetrating { .. } => CurvedKind::Penetrating,
            CurvedStatus::Undecided { .. } => CurvedKind::Undecided,
        }
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            CurvedKind::Separated => "separated",
            CurvedKind::Touching => "touching",
            CurvedKind::Penetrating => "penetrating",
            CurvedKind::Undecided => "undecided",
        }
    }

    /// The kind of a name (the three statuses a claim may state; `undecided` too).
    pub fn from_name(s: &str) -> Option<Self> {
        [CurvedKind::Separated, CurvedKind::Touching, CurvedKind::Penetrating, CurvedKind::Undecided]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// The answer of [`DistanceCurved`] (the same on every exact backend).
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceCurvedOutput {
    /// The certified status.
    pub status: CurvedStatus,
    /// The searches' depth: boxes down to the shapes' size over 2^bits.
    pub precision_bits: u32,
}

impl DistanceCurvedOutput {
    /// Bounds on the squared distance: `(lower, upper)`, `upper` unknown (`None`) where no
    /// pair of member points was found (separated) or nothing was decided.
    pub fn squared_bounds(&self) -> (Q, Option<Q>) {
        match &self.status {
            CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } => {
                (gap_squared_lower.clone(), gap_squared_upper.clone())
            }
            CurvedStatus::Touching { .. } | CurvedStatus::Penetrating { .. } => (Q::zero(), Some(Q::zero())),
            // Touching to within the precision: no lower bound; the member points' distance.
            CurvedStatus::Tangent { gap_squared_upper, .. } => (Q::zero(), gap_squared_upper.clone()),
            CurvedStatus::Undecided { .. } => (Q::zero(), None),
        }
    }
}

/// A claim on [`DistanceCurved`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceCurvedClaim {
    /// The claimed status (`separated`, `touching`, `penetrating`).
    pub status: Option<CurvedKind>,
    /// Whether the closed solids are claimed to meet.
    pub intersecting: Option<bool>,
    /// The claimed distance (0 for meeting solids).
    pub distance: Option<Q>,
}

fn curved_error(shape_at: &str, pose_at: &str, e: CurvedError) -> QueryError {
    match e {
        CurvedError::TooManyTerms { .. } => QueryError::new(ErrorKind::Limit, &child(shape_at, "poly"), e.to_string()),
        CurvedError::DegreeTooLarge { term, .. } => {
            QueryError::new(ErrorKind::Limit, &child(&child(shape_at, "poly"), term), e.to_string())
        }
        CurvedError::CoefficientTooLarge { term, .. } => {
            QueryError::new(ErrorKind::Limit, &child(&child(&child(shape_at, "poly"), term), 0), e.to_string())
        }
        CurvedError::NumberTooLarge { what: "pose entry", .. } => {
            QueryError::new(ErrorKind::Limit, pose_at, e.to_string())
        }
        CurvedError::NumberTooLarge { .. } => QueryError::new(ErrorKind::Limit, shape_at, e.to_string()),
        CurvedError::EmptyBounds { axis } => {
            QueryError::new(ErrorKind::Invalid, &child(&child(shape_at, "bounds"), 1), format!("{e} (axis {axis})"))
        }
        CurvedError::NonPositive { .. } | CurvedError::NoConstraint | CurvedError::BadPatch { .. } => {
            QueryError::new(ErrorKind::Invalid, shape_at, e.to_string())
        }
        CurvedError::SingularPose => QueryError::new(ErrorKind::Invalid, pose_at, "the pose is singular"),
        CurvedError::Limit(l) => QueryError::uncertain("", l.into()),
    }
}

fn rational<N: Scalar>(x: &N, at: &str) -> Result<Q, QueryError> {
    x.to_rational().ok_or_else(|| QueryError::new(ErrorKind::Invalid, at, "a number that is not finite"))
}

fn rationals3<N: Scalar>(p: &crate::geom::Point3<N>, at: &str) -> Result<[Q; 3], QueryError> {
    Ok([rational(&p.x, at)?, rational(&p.y, at)?, rational(&p.z, at)?])
}

/// The shape as an implicit solid, posed exactly.
pub fn implicit_of<N: Scalar>(p: &Posed<N>) -> Result<Implicit, QueryError> {
    let key = child(&p.at, p.shape.key());
    let err = |e| curved_error(&key, &p.pose_at, e);
    let solid = match &p.shape {
        ShapeSpec::Implicit { terms, lo, hi } => {
            let terms = terms
                .iter()
                .enumerate()
                .map(|(k, (c, e))| Ok((rational(c, &child(&child(&key, "poly"), k))?, *e)))
                .collect::<Result<Vec<_>, QueryError>>()?;
            let f = Poly3::from_terms(&terms).map_err(err)?;
            let bounds = child(&key, "bounds");
            Implicit::new(f, rationals3(lo, &bounds)?, rationals3(hi, &bounds)?).map_err(err)?
        }
        ShapeSpec::Ball(r) => Implicit::sphere([Q::zero(), Q::zero(), Q::zero()], rational(r, &key)?).map_err(err)?,
        ShapeSpec::Torus { center, axis, major, minor } => Implicit::torus_about(
            rationals3(center, &key)?,
            [rational(&axis.x, &key)?, rational(&axis.y, &key)?, rational(&axis.z, &key)?],
            rational(major, &key)?,
            rational(minor, &key)?,
        )
        .map_err(err)?,
        ShapeSpec::Cylinder { a, b, radius } => {
            Implicit::cylinder(rationals3(a, &key)?, rationals3(b, &key)?, rational(radius, &key)?).map_err(err)?
        }
        ShapeSpec::Bezier { .. } => {
            return Err(QueryError::new(
                ErrorKind::Internal,
                &key,
                "a Bézier solid is not an implicit solid (the query routes it apart)",
            ))
        }
        ShapeSpec::Capsule { .. } | ShapeSpec::Round { .. } => {
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                &key,
                format!(
                    "a {} beside a curved solid is not answered yet (its surface is not one polynomial)",
                    p.shape.key()
                ),
            ))
        }
        ShapeSpec::Box(_) | ShapeSpec::Polyhedron { .. } | ShapeSpec::ConvexHull(_) | ShapeSpec::File { .. } => {
            let built = build_solid::<Q, N>(&p.shape, &p.at)?;
            let s = &built.solid;
            if !s.is_convex().map_err(|e| QueryError::uncertain(&key, e))? {
                return Err(QueryError::new(
                    ErrorKind::Invalid,
                    &key,
                    "a polytope beside a curved solid must be convex (it is taken as the half-spaces of its faces)",
                ));
            }
            // n·x + d ≤ 0 for each face plane (outward normals).
            let planes: Vec<[Q; 4]> = (0..s.face_count())
                .map(|f| {
                    let pl = s.plane(f);
                    [pl.normal.x.clone(), pl.normal.y.clone(), pl.normal.z.clone(), -pl.offset.clone()]
                })
                .collect();
            let v = s.vertices();
            let mut lo = [v[0].x.clone(), v[0].y.clone(), v[0].z.clone()];
            let mut hi = lo.clone();
            for p in v {
                for (i, c) in [&p.x, &p.y, &p.z].into_iter().enumerate() {
                    if *c < lo[i] {
                        lo[i] = c.clone();
                    }
                    if *c > hi[i] {
                        hi[i] = c.clone();
                    }
                }
            }
            // Padded by a quarter of the largest extent: the faces are the boundary, not the box.
            let extent = (0..3).map(|i| &hi[i] - &lo[i]).fold(Q::zero(), |m, x| if x > m { x } else { m });
            let pad = extent / Q::from_integer(4.into()) + Q::one();
            let (lo, hi) = (lo.map(|x| x - &pad), hi.map(|x| x + &pad));
            Implicit::halfspaces(&planes, lo, hi).map_err(err)?
        }
    };
    if p.pose.is_identity() {
        return Ok(solid);
    }
    super::spec::charge_pose_bits::<Q, N>(p)?;
    let map = p.pose.affine::<Q>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    solid.posed(&map).map_err(err)
}

/// The shape as a Bézier solid, posed exactly; `None` for another kind.
pub fn bezier_of<N: Scalar>(p: &Posed<N>) -> Result<Option<crate::curved::BezierSolid>, QueryError> {
    use crate::curved::bezier::Patch;
    let ShapeSpec::Bezier { patches } = &p.shape else { return Ok(None) };
    let key = child(&p.at, "bezier");
    let list = child(&key, "patches");
    let mut out = Vec::with_capacity(patches.len());
    for (k, (degree, points, weights)) in patches.iter().enumerate() {
        let at = child(&list, k);
        let pts = points.iter().map(|x| rationals3(x, &at)).collect::<Result<Vec<_>, _>>()?;
        let w = match weights {
            Some(w) => Some(w.iter().map(|x| rational(x, &at)).collect::<Result<Vec<_>, _>>()?),
            None => None,
        };
        out.push(Patch::new(*degree, pts, w).map_err(|e| QueryError::new(ErrorKind::Invalid, &at, e.to_string()))?);
    }
    let solid =
        crate::curved::BezierSolid::new(out).map_err(|e| QueryError::new(ErrorKind::Invalid, &key, e.to_string()))?;
    if p.pose.is_identity() {
        return Ok(Some(solid));
    }
    super::spec::charge_pose_bits::<Q, N>(p)?;
    let map = p.pose.affine::<Q>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    if map.inverse().is_err() {
        return Err(QueryError::new(ErrorKind::Invalid, &p.pose_at, "the pose is singular"));
    }
    solid.posed(&map).map(Some).map_err(|e| QueryError::new(ErrorKind::Invalid, &key, e.to_string()))
}

/// A Bézier solid's status against the other shape, which must be a convex implicit solid.
fn bezier_against<N: Scalar>(
    a: &crate::curved::BezierSolid,
    other: &Posed<N>,
    options: &StatusOptions,
) -> Result<CurvedStatus, QueryError> {
    let b = implicit_of(other)?;
    crate::curved::bezier_implicit_status(a, &b, options).map_err(|e| curved_error("", "", e))?.ok_or_else(|| {
        QueryError::new(
            ErrorKind::Unsupported,
            &child(&other.at, other.shape.key()),
            "a bezier solid is answered against convex solids (balls, cylinders, convex polytopes, implicit solids of linear and convex quadratic constraints) and bezier solids",
        )
    })
}

/// The searches' depth for a relative precision p: the least k with 2⁻ᵏ ≤ p, in [4, 60].
pub fn precision_bits(p: &Q) -> u32 {
    let mut k = 0u32;
    let mut x = Q::one();
    while &x > p && k < 60 {
        x /= Q::from_integer(2.into());
        k += 1;
    }
    k.max(4)
}

/// Whether √lo ≥ x − t and √hi ≤ x + t for t the tolerance at x (the whole enclosure within
/// it: `Some(true)`), the enclosure wholly outside it (`Some(false)`), or neither (`None`).
fn distance_within(lo: &Q, hi: Option<&Q>, x: &Q, tol: &Tolerance) -> Option<bool> {
    let t = {
        let rel = &tol.rel * Signed::abs(x);
        if rel > tol.abs {
            rel
        } else {
            tol.abs.clone()
        }
    };
    let (below, above) = (x - &t, x + &t);
    let sq = |v: &Q| if v.is_negative() { Q::zero() } else { v * v };
    // The distance d ∈ [√lo, √hi]: within when below ≤ √lo and √hi ≤ above.
    let lo_ok = below.is_negative() || sq(&below) <= *lo;
    let hi_ok = hi.is_some_and(|h| !above.is_negative() && *h <= sq(&above));
    if lo_ok && hi_ok {
        return Some(true);
    }
    // Wholly outside: above < √lo, or √hi < below.
    let out_low = above.is_negative() || sq(&above) < *lo;
    let out_high = hi.is_some_and(|h| !below.is_negative() && *h < sq(&below));
    if out_low || out_high {
        return Some(false);
    }
    None
}

impl<N: Scalar> Query for DistanceCurved<N> {
    const OP: &'static str = "distance";
    type Output<S: RootScalar> = DistanceCurvedOutput;
    type Discrete = CurvedKind;
    type Claim = DistanceCurvedClaim;

    fn reference(o: DistanceCurvedOutput) -> DistanceCurvedOutput {
        o
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        if !S::CERTAIN_DECISIONS {
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                "/backend",
                "a curved solid is answered with certificates on the exact backends only (\"exact\" or \"exact-unfiltered\")",
            ));
        }
        if self.precision <= Q::zero() || self.precision > Q::new(1.into(), 16.into()) {
            return Err(QueryError::new(ErrorKind::Invalid, "/precision", "precision must be in (0, 1/16]"));
        }
        let bits = precision_bits(&self.precision);
        let options = StatusOptions { precision: bits, ..StatusOptions::default() };
        let status = match (bezier_of(&self.a)?, bezier_of(&self.b)?) {
            (None, None) => {
                let (a, b) = (implicit_of(&self.a)?, implicit_of(&self.b)?);
                implicit_status(&a, &b, &options).map_err(|e| curved_error("", "", e))?
            }
            (Some(a), Some(b)) => {
                crate::curved::bezier_pair_status(&a, &b, &options).map_err(|e| curved_error("", "", e))?
            }
            (Some(a), None) => bezier_against(&a, &self.b, &options)?,
            (None, Some(b)) => match bezier_against(&b, &self.a, &options)? {
                // The normal is a's: here the implicit solid's gradient, opposite b's outward one.
                CurvedStatus::Touching { point, normal, multiplier } => {
                    CurvedStatus::Touching { point, normal: normal.map(|x| -x), multiplier }
                }
                other => other,
            },
        };
        Ok(Answer::plain(DistanceCurvedOutput { status, precision_bits: bits }))
    }

    fn discrete<S: RootScalar>(o: &DistanceCurvedOutput) -> CurvedKind {
        CurvedKind::of(&o.status)
    }

    fn valid_within_tolerance(_: &CurvedKind, _: &CurvedKind) -> bool {
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: |_, exact, x, _, _, _| {
            let k = CurvedKind::of(&exact.output.status);
            let check = Check::equal("status", Shown::Text(x.name().into()), Shown::Text(k.name().into()));
            let near = matches!(exact.output.status, CurvedStatus::Tangent { .. });
            Ok(vec![if k == CurvedKind::Undecided {
                check.with_note("the exact status is undecided at this precision: the claim is not confirmed")
            } else if near && !check.ok {
                check.with_note(
                    "the solids are within the precision of touching: a status either side of touching is not confirmed at this precision",
                )
            } else {
                check
            }])
        }),
        judged!(intersecting: |_, exact, x, _, _, _| {
            let k = CurvedKind::of(&exact.output.status);
            let truth = match k {
                CurvedKind::Separated => Shown::Bool(false),
                CurvedKind::Touching | CurvedKind::Penetrating => Shown::Bool(true),
                CurvedKind::Undecided => Shown::Text("undecided".into()),
            };
            let check = Check::equal("intersecting", Shown::Bool(*x), truth);
            Ok(vec![if k == CurvedKind::Undecided {
                check.with_note("the exact status is undecided at this precision: the claim is not confirmed")
            } else {
                check
            }])
        }),
        judged!(distance: |_, exact, x, _, tol, digits| {
            let (lo, hi) = exact.output.squared_bounds();
            let shown = bounds_text(&lo, hi.as_ref(), digits.min(40));
            let verdict = distance_within(&lo, hi.as_ref(), x, tol);
            let check = Check {
                field: "distance".into(),
                claimed: Shown::Rational(x.clone()),
                exact: Shown::Text(shown),
                abs_error: None,
                ok: verdict == Some(true),
                note: None,
            };
            Ok(vec![if verdict.is_none() {
                check.with_note("the distance's certified bounds straddle the tolerance: raise the precision")
            } else {
                check
            }])
        }),
    ];
}

/// `[lo, hi]` for squared bounds: √lo rounded down and √hi rounded up to `digits` significant
/// digits (`hi` as `?` when unknown).
pub fn bounds_text(lo: &Q, hi: Option<&Q>, digits: u32) -> String {
    let (l, h) = distance_bounds(lo, hi, digits);
    format!("[{l}, {}]", h.unwrap_or_else(|| "?".into()))
}

/// √lo truncated and √hi rounded up, each to `digits` significant digits, as decimal strings.
pub fn distance_bounds(lo: &Q, hi: Option<&Q>, digits: u32) -> (String, Option<String>) {
    let low = crate::scalar::sqrt_decimal_of_rational(lo, digits.max(1)).unwrap_or_else(|| "0".into());
    let high = hi.map(|h| sqrt_decimal_up(h, digits.max(1)));
    (low, high)
}

/// √x (x ≥ 0) to `digits` significant digits, rounded up.
fn sqrt_decimal_up(x: &Q, digits: u32) -> String {
    let s = crate::scalar::sqrt_decimal_of_rational(x, digits).unwrap_or_else(|| "0".into());
    let Ok(r) = crate::scalar::parse_rational(&s) else { return s };
    if &(&r * &r) >= x {
        return s;
    }
    // One unit in the last place of the truncated string.
    let ulp = match s.split_once('.') {
        Some((_, frac)) => Q::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), frac.len())),
        None => {
            let len = s.trim_start_matches('-').len();
            Q::from_integer(num_traits::pow(num_bigint::BigInt::from(10), len.saturating_sub(digits as usize)))
        }
    };
    let up = r + ulp;
    crate::scalar::decimal_of_rational(&up, digits + 2)
}
