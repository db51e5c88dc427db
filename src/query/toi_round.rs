//! `toi` when either shape is round (balls, capsules, rounded convex shapes, and convex shapes
//! as rounded ones of radius 0): the first time of contact under constant linear velocities,
//! an exact algebraic number ([`crate::round::first_contact`]; issue 42 item 3).
//!
//! The agreement contract of the `f64` path is stated on the cores' squared distance
//! g(t) = d(cores at t)² − R² (R = r_a + r_b), against its magnitude M: (1 + the largest
//! |coordinate| of the cores over the motion, at t0 and at t1)² + R², the scale on which the
//! path decides. With δ = the budget × M:
//! * the margin is the least of |min g| over [t0, t1] (min g is rational:
//!   [`crate::round::closest_approach`]), |g(t0)| and the polytope cores' own tests, over M;
//! * above the budget `collides` and `at_start` must be the exact ones;
//! * at any margin the `f64` answer must be valid within δ: a miss, when min g ≥ −δ (the
//!   shapes never penetrate by more than δ); a time t_f, when t_f lies in [t0, t1] (as rounded
//!   to binary64), g(t_f) ≤ δ (the shapes touch there within δ) and g > −δ before t_f (they do
//!   not penetrate by more than δ earlier: the cores' first time within R² − δ,
//!   [`crate::round::first_within`], is not before t_f). So a time is checked exactly and
//!   as sharply as the decisions that made it, graze or not.

use std::cmp::Ordering;

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown};
use super::error::{ErrorKind, QueryError};
use super::round::{feature_name, posed_round, round_error, PosedRound};
use super::spec::FeatureId;
use super::toi::Toi;
use super::toi_boxes::AtStart;
use super::{Answer, Query};
use crate::contract::{budget, Agreement, Disagreement, Margin};
use crate::geom::{Scaled, Vector3};
use crate::poly::{Algebraic, RootScalar};
use crate::round::{closest_approach, core_distance, first_contact_features, first_within, Core};
use crate::scalar::{Exact, Scalar};
use crate::vclip::Status;

type Q = BigRational;

/// `toi` when either shape is round: the [`Toi`] query's fields (shapes, poses, velocities,
/// interval), answered for round shapes (see the module's docs). A convex polyhedral shape
/// takes part as a rounded shape of radius 0; two shapes of radius 0 are [`Toi`]'s.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::Vector3;
/// use touchstone::query::{PoseSpec, Posed, Query, ShapeSpec, Toi, ToiRound};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// let at = |x: i64| PoseSpec::quaternion([q(1), q(0), q(0), q(0)], [q(x), q(0), q(0)]).unwrap();
/// // A unit ball at x = −10 moving at speed 1 towards a unit ball at the origin: t = 8.
/// let toi = Toi {
///     a: Posed::new("a", ShapeSpec::ball(q(1)).unwrap(), at(-10)),
///     b: Posed::new("b", ShapeSpec::ball(q(1)).unwrap(), at(0)),
///     velocity_a: Vector3::new(q(1), q(0), q(0)),
///     velocity_b: Vector3::new(q(0), q(0), q(0)),
///     interval: [q(0), q(20)],
/// };
/// let out = ToiRound(toi).answer::<BigRational>().unwrap().output;
/// assert_eq!(out.toi.unwrap().to_rational(), Some(q(8)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToiRound<N: Scalar = BigRational>(pub Toi<N>);

/// The answer of [`ToiRound`].
#[derive(Clone, Debug, PartialEq)]
pub struct ToiRoundOutput<S: RootScalar> {
    /// Whether the shapes meet in the closed interval.
    pub collides: bool,
    /// The first time of contact (an algebraic number on exact backends: a root of a
    /// quadratic).
    pub toi: Option<S::Time>,
    /// When `toi` is t0: penetrating, or touching.
    pub at_start: Option<AtStart>,
    /// The core features that meet at `toi` (a capsule's vertex 0 or 1 or edge [0, 1], a
    /// polytope core's feature; `None` for a ball's centre); none when the shapes overlap at t0.
    pub features: Option<[Option<FeatureId>; 2]>,
    /// Every pair of core features that realises the first contact (`features` among them):
    /// a ball meeting a capsule where its cap meets its side touches the end and the segment.
    pub realising: Vec<[Option<FeatureId>; 2]>,
}

/// A claim on [`ToiRound`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiRoundClaim {
    /// The claimed collision.
    pub collides: Option<bool>,
    /// The claimed first time of contact.
    pub toi: Option<BigRational>,
    /// The claimed state at t0.
    pub at_start: Option<AtStart>,
    /// The claimed core features that meet (`None`: a ball's centre).
    pub features: Option<[Option<FeatureId>; 2]>,
}

/// The posed shapes, a's velocity relative to b and the interval, on backend `S`.
struct Moving<S: Scalar> {
    a: PosedRound<S>,
    b: PosedRound<S>,
    velocity_a: Vector3<S>,
    velocity_b: Vector3<S>,
    interval: [S; 2],
}

impl<S: Scalar> Moving<S> {
    fn relative(&self) -> Vector3<S> {
        self.velocity_a.clone() - self.velocity_b.clone()
    }
}

/// The contract's exact quantities (see the module's docs).
struct Contract {
    /// The shapes and motion, exactly.
    m: Moving<Exact>,
    /// The polytope cores' own tests.
    cores: Margin,
    /// min g over [t0, t1].
    closest: Q,
    /// g(t0).
    start: Q,
    /// M.
    magnitude: Q,
    /// R².
    r2: Q,
}

impl<N: Scalar> ToiRound<N> {
    fn moving<S: Scalar>(&self) -> Result<Moving<S>, QueryError> {
        let t = &self.0;
        let (a, b) = (posed_round::<S, N>(&t.a)?, posed_round::<S, N>(&t.b)?);
        let zero = |r: &S| r.compare(&S::zero()) == Ok(Ordering::Equal);
        if zero(&a.shape.radius) && zero(&b.shape.radius) {
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                "/b",
                "two shapes of radius 0 are polyhedral: the toi op's polytope path answers them",
            ));
        }
        let interval = t.interval.clone().map(|x| x.to_backend::<S>());
        if interval[1].compare(&interval[0]).map_err(|u| QueryError::uncertain("/interval", u))? == Ordering::Less {
            return Err(QueryError::new(ErrorKind::Invalid, "/interval", "the interval's end is before its start"));
        }
        Ok(Moving {
            a,
            b,
            velocity_a: t.velocity_a.map(|x| x.to_backend()),
            velocity_b: t.velocity_b.map(|x| x.to_backend()),
            interval,
        })
    }

    /// The contract's quantities, exactly (on the fast exact backend; the polytope cores' own
    /// tests on the reference one).
    fn contract(&self) -> Result<Contract, QueryError> {
        let m = self.moving::<Exact>()?;
        let (a, b) = (&m.a.shape, &m.b.shape);
        let v = m.relative();
        let [t0, t1] = m.interval.clone();
        let err = |e| round_error("", e);
        let r2 = rational(&((a.radius.clone() + b.radius.clone()) * (a.radius.clone() + b.radius.clone())));
        let closest = rational(&closest_approach(&a.core, &b.core, &v, [t0.clone(), t1.clone()]).map_err(err)?) - &r2;
        let at = |t: &Exact| moved(&a.core, &(v.clone() * t.clone()));
        let start = rational(&core_distance(&at(&t0)?, &b.core).map_err(err)?.squared) - &r2;
        let (c0, c1) = (at(&t0)?, at(&t1)?);
        let scale = crate::vclip::contract::points_distance_magnitude(
            c0.points().into_iter().chain(c1.points()),
            b.core.points(),
        );
        let mut cores = Margin::Unbounded;
        if m.a.convex.is_some() || m.b.convex.is_some() {
            let reference = self.moving::<Exact>()?;
            for p in [&reference.a, &reference.b].into_iter().filter_map(|p| p.convex.as_ref()) {
                cores = cores.min(super::distance::posed_shape_margin(p));
            }
        }
        Ok(Contract { closest, start, magnitude: rational(&scale) + &r2, r2, cores, m })
    }

    /// Whether the `f64` answer is valid within δ (see the module's docs); the failure's
    /// words otherwise.
    fn valid(c: &Contract, fast: Option<f64>, delta: &Q) -> Result<Result<(), String>, QueryError> {
        let m = &c.m;
        let err = |e| round_error("", e);
        let Some(tf) = fast else {
            return Ok(if c.closest >= -delta.clone() {
                Ok(())
            } else {
                Err("a miss, but the shapes penetrate by more than the tolerance".into())
            });
        };
        let Some(t) = Q::from_float(tf) else { return Ok(Err(format!("the time {tf} is not finite"))) };
        let [t0, t1] = m.interval.clone().map(|x| rational(&x));
        let rounded = |x: &Q| Q::from_float(x.to_f64()).unwrap_or_else(|| x.clone());
        if t < t0.clone().min(rounded(&t0)) || t > t1.clone().max(rounded(&t1)) {
            return Ok(Err(format!("the time {tf} is outside the interval")));
        }
        let t = Exact::from_rational(&t.clamp(t0.clone(), t1.clone()));
        let v = m.relative();
        let (a, b) = (&m.a.shape, &m.b.shape);
        let g =
            rational(&core_distance(&moved(&a.core, &(v.clone() * t.clone()))?, &b.core).map_err(err)?.squared) - &c.r2;
        if &g > delta {
            return Ok(Err(format!("the shapes are apart by more than the tolerance at the time {tf}")));
        }
        let shrunk = Exact::from_rational(&(&c.r2 - delta));
        let deep = first_within(&a.core, &b.core, &v, &shrunk, m.interval.clone()).map_err(err)?;
        if deep.is_some_and(|d| d < Algebraic::from_rational(rational(&t))) {
            return Ok(Err(format!("the shapes penetrate by more than the tolerance before the time {tf}")));
        }
        Ok(Ok(()))
    }
}

/// An exact backend's value as a reduced rational.
fn rational(x: &Exact) -> Q {
    x.to_rational().unwrap_or_default()
}

/// |min g|, |g(t0)| over M and the polytope cores' own tests.
fn contract_margin(c: &Contract) -> Margin {
    let of = |value: &Q| Margin::of(&Scaled { value: value.clone(), magnitude: c.magnitude.clone() });
    of(&c.closest).min(of(&c.start)).min(c.cores.clone())
}

/// A core translated by `d`.
fn moved<S: Scalar>(core: &Core<S>, d: &Vector3<S>) -> Result<Core<S>, QueryError> {
    core.translated(d).map_err(|e| round_error("", e))
}

impl<N: Scalar> Query for ToiRound<N> {
    const OP: &'static str = "toi";
    type Output<S: RootScalar> = ToiRoundOutput<S>;
    type Discrete = (bool, Option<AtStart>);
    type Claim = ToiRoundClaim;

    fn reference(o: ToiRoundOutput<Exact>) -> ToiRoundOutput<BigRational> {
        ToiRoundOutput {
            collides: o.collides,
            toi: o.toi,
            at_start: o.at_start,
            features: o.features,
            realising: o.realising,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let m = self.moving::<S>()?;
        let c = first_contact_features(&m.a.shape, &m.velocity_a, &m.b.shape, &m.velocity_b, m.interval.clone())
            .map_err(|e| round_error("", e))?;
        let Some(c) = c else {
            return Ok(Answer::plain(ToiRoundOutput {
                collides: false,
                toi: None,
                at_start: None,
                features: None,
                realising: Vec::new(),
            }));
        };
        let at_start = c.at_start.map(|s| if s == Status::Touching { AtStart::Touching } else { AtStart::Overlapping });
        let features = match &c.features {
            Some([fa, fb]) => Some([feature_name(&m.a, fa)?, feature_name(&m.b, fb)?]),
            None => None,
        };
        let mut realising = Vec::new();
        for [fa, fb] in &c.tied {
            realising.push([feature_name(&m.a, fa)?, feature_name(&m.b, fb)?]);
        }
        Ok(Answer::plain(ToiRoundOutput { collides: true, toi: Some(c.time), at_start, features, realising }))
    }

    /// |min g|, |g(t0)| over M and the polytope cores' own tests (see the module's docs).
    fn margin(&self, _: &Answer<BigRational, Self>) -> Result<Margin, QueryError> {
        Ok(contract_margin(&self.contract()?))
    }

    /// The contract of the module's docs.
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let c = self.contract()?;
        let margin = contract_margin(&c);
        let b = budget::<f64>();
        let e = &exact.output;
        let shown = |o: &ToiRoundOutput<f64>| format!("{:?} at {:?}", o.toi, o.at_start);
        let exact_shown =
            format!("{:?} at {:?}", e.toi.as_ref().map(|t| t.to_decimal(20).unwrap_or_default()), e.at_start);
        let fail = |what: String, fast: String| Disagreement {
            what,
            exact: exact_shown.clone(),
            fast,
            margin: margin.to_decimal(6),
        };
        let fast = match fast {
            Ok(f) => &f.output,
            Err(err) if margin.exceeds(b) => {
                return Ok((
                    margin.clone(),
                    Err(fail(format!("f64 failed above the budget: {}", err.message), err.kind.as_str().into())),
                ));
            }
            Err(_) => return Ok((margin, Ok(Agreement::WithinTolerance))),
        };
        let strict = margin.exceeds(b);
        if strict && Self::discrete(e) != Self::discrete(fast) {
            return Ok((margin.clone(), Err(fail("discrete answers differ above the budget".into(), shown(fast)))));
        }
        let delta = Q::from_float(b).unwrap_or_default() * &c.magnitude;
        if let Err(why) = Self::valid(&c, fast.toi, &delta)? {
            return Ok((
                margin.clone(),
                Err(fail(format!("fast answer not valid within tolerance: {why}"), shown(fast))),
            ));
        }
        Ok((margin, Ok(if strict { Agreement::Strict } else { Agreement::WithinTolerance })))
    }

    fn discrete<S: RootScalar>(o: &ToiRoundOutput<S>) -> (bool, Option<AtStart>) {
        (o.collides, o.at_start)
    }

    fn valid_within_tolerance(_: &(bool, Option<AtStart>), _: &(bool, Option<AtStart>)) -> bool {
        // Never asked: `agreement` checks the time itself.
        true
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(collides: equal |b: &bool| Shown::Bool(*b), |out| out.collides),
        judged!(toi: |_, exact, x, _, tol, digits| {
            Ok(vec![super::ccd::toi_check(x, &exact.output.toi, tol, digits, "the shapes do not meet in the interval")])
        }),
        judged!(at_start: |_, exact, s, _, _, _| Ok(vec![super::toi_boxes::at_start_check(*s, exact.output.at_start)])),
        judged!(features: |_, exact, pair, _, _, _| {
            // Right when it is one of the pairs that realise the first contact.
            let name = |f: &Option<FeatureId>| match f {
                None => "\"center\"".to_string(),
                Some(FeatureId::Vertex(i)) => format!("{{\"vertex\": {i}}}"),
                Some(FeatureId::Edge(i, j)) => format!("{{\"edge\": [{i}, {j}]}}"),
                Some(FeatureId::Face(v)) => format!("{{\"face\": {v:?}}}"),
            };
            let shown = |p: &[Option<FeatureId>; 2]| format!("[{}, {}]", name(&p[0]), name(&p[1]));
            let out = &exact.output;
            let ok = out.realising.contains(pair);
            let exact_shown = if out.realising.is_empty() {
                "no features meet (no contact, or overlapping at the start)".to_string()
            } else {
                out.realising.iter().map(shown).collect::<Vec<_>>().join(" or ")
            };
            Ok(vec![Check {
                field: "features".into(),
                claimed: Shown::Text(shown(pair)),
                exact: Shown::Text(exact_shown),
                abs_error: None,
                ok,
                note: None,
            }])
        }),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Point3;
    use crate::query::{PoseSpec, Posed, ShapeSpec};

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn at(x: [i64; 3]) -> PoseSpec<Q> {
        PoseSpec::quaternion([q(1), q(0), q(0), q(0)], x.map(q)).unwrap()
    }

    #[test]
    fn a_graze_is_a_contact_and_its_margin_is_zero() {
        // A unit ball passing 2 above the axis of a capsule of radius 1: it grazes at t = 9.
        let toi = Toi {
            a: Posed::new("a", ShapeSpec::ball(q(1)).unwrap(), at([0, -9, 2])),
            b: Posed::new(
                "b",
                ShapeSpec::capsule(Point3::new(q(-4), q(0), q(0)), Point3::new(q(4), q(0), q(0)), q(1)).unwrap(),
                PoseSpec::identity(),
            ),
            velocity_a: Vector3::new(q(0), q(1), q(0)),
            velocity_b: Vector3::zeros(),
            interval: [q(0), q(20)],
        };
        let query = ToiRound(toi);
        let exact = query.answer::<Q>().unwrap();
        assert_eq!(exact.output.toi.as_ref().and_then(|t| t.to_rational()), Some(q(9)));
        assert_eq!(query.margin(&exact).unwrap(), Margin::Finite(q(0)));
        // The contract holds the f64 path to the time: 9 and 9 + 10⁻¹⁵ pass, 9.001 and 8.999
        // (apart by about 10⁻⁶ on the squares) do not; a miss passes (a graze never
        // penetrates).
        let fake = |toi: Option<f64>| -> Result<Answer<f64, ToiRound>, QueryError> {
            Ok(Answer::plain(ToiRoundOutput {
                collides: toi.is_some(),
                toi,
                at_start: None,
                features: None,
                realising: Vec::new(),
            }))
        };
        let verdict = |toi| query.agreement(&exact, &fake(toi)).unwrap().1;
        assert!(verdict(Some(9.0)).is_ok());
        assert!(verdict(Some(9.0 + 1e-15)).is_ok());
        assert!(verdict(Some(9.001)).is_err());
        assert!(verdict(Some(8.999)).is_err());
        assert!(verdict(Some(30.0)).is_err());
        assert!(verdict(None).is_ok());
        // Head-on, a miss is wrong and so is a time late by 10⁻⁹ (penetrating by 4·10⁻⁹).
        let mut toi = query.0.clone();
        toi.a.pose = at([0, -9, 0]);
        toi.velocity_a = Vector3::new(q(0), q(1), q(0));
        let head_on = ToiRound(toi);
        let exact = head_on.answer::<Q>().unwrap();
        assert_eq!(exact.output.toi.as_ref().and_then(|t| t.to_rational()), Some(q(7)));
        let verdict = |toi| head_on.agreement(&exact, &fake(toi)).unwrap().1;
        assert!(verdict(Some(7.0)).is_ok());
        assert!(verdict(None).is_err());
        assert!(verdict(Some(7.0 + 1e-9)).is_err());
        assert!(verdict(Some(7.0 - 1e-9)).is_err());
    }
}
