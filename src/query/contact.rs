//! `contact`: the contact of two posed solids, convex or not (Bouma and Vaněček 1992): the
//! status, and the sufficient set R_t of contact regions with their normals, by
//! [`crate::contact::find_contacts`]; with the solids' velocities, regions whose entities move
//! apart are culled; with the previous step's contacts, normals keep their coherence.
//!
//! Exact backends (`"exact"` runs on the fast exact backend, whose Brep-indices filter each side
//! test in binary64) answer with zero tolerance. `f64` answers by the ε rules of the papers
//! ([`crate::contact::find_contacts_within`], Vaněček 1990 §3–4): contact points within ε (by
//! default 10⁻⁹ times the largest coordinate of the posed solids), clusters closer than 4ε
//! reduced by priority, one tangent-plane normal per cluster as a 0D region, and, for moving
//! solids that penetrate, the collision-time estimate.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::{ErrorKind, QueryError};
use super::spec::{posed_solid, FeatureId, Posed, SolidPosed};
use super::{agreement_at, Answer, Query};
use crate::contact::{
    any_deeper_than, find_contacts, find_contacts_within, solids_within, ContactError, ContactOptions, ContactStatus,
    Motion, NormalSource, Previous, TolerantOptions,
};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::{Point3, Vector3};
use crate::poly::RootScalar;
use crate::scalar::{ByCapability, Certain, Exact, Scalar, Tolerant};

/// A rigid body's velocity: linear (of its frame origin, the pose's translation) and angular.
#[derive(Clone, Debug, PartialEq)]
pub struct Velocity<N: Scalar> {
    /// The velocity of the body's frame origin.
    pub linear: Vector3<N>,
    /// The angular velocity (about the frame origin).
    pub angular: Vector3<N>,
}

/// A contact of the previous step, as the format names it.
#[derive(Clone, Debug, PartialEq)]
pub struct PreviousContact<N: Scalar> {
    /// The feature of a.
    pub a: FeatureId,
    /// The feature of b.
    pub b: FeatureId,
    /// Its normals.
    pub normals: Vec<Vector3<N>>,
}

/// `contact` of two posed solids.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact<N: Scalar = BigRational> {
    /// Solid a with its pose.
    pub a: Posed<N>,
    /// Solid b with its pose.
    pub b: Posed<N>,
    /// a's velocity, if moving.
    pub velocity_a: Option<Velocity<N>>,
    /// b's velocity.
    pub velocity_b: Option<Velocity<N>>,
    /// The previous step's contacts (`/previous`).
    pub previous: Vec<PreviousContact<N>>,
    /// ε of the `f64` pipeline (absolute; `None`: 10⁻⁹ times the posed solids' largest
    /// coordinate).
    pub epsilon: Option<N>,
    /// The time step Δt before now at which the solids were apart, for the `f64` collision-time
    /// estimate (`None`: 1).
    pub step: Option<N>,
}

/// A region of R_t in the format's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactRegion<S: Scalar> {
    /// The feature of a (faces as given).
    pub a: FeatureId,
    /// The feature of b.
    pub b: FeatureId,
    /// 0, 1 or 2.
    pub dim: u8,
    /// The point, the segment's ends, or the polygon's outer loop (world coordinates).
    pub points: Vec<Point3<S>>,
    /// A polygon's holes.
    pub holes: Vec<Vec<Point3<S>>>,
    /// Normals out of b toward a (unnormalised).
    pub normals: Vec<Vector3<S>>,
    /// Where the normals came from.
    pub source: NormalSource,
}

/// The answer of [`Contact`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContactOutput<S: Scalar> {
    /// Separate, touching or penetrating.
    pub status: ContactStatus,
    /// R_t with normals.
    pub regions: Vec<ContactRegion<S>>,
    /// How many regions I_t has (R_t is a subset of the ones not culled).
    pub intersection: usize,
    /// How many of them were culled (moving apart).
    pub culled: usize,
    /// `f64`: the ε used (exact backends use none).
    pub epsilon: Option<S>,
    /// `f64`, penetrating solids in motion: when they met, relative to now (in [−Δt, 0]).
    pub collision_time: Option<S>,
}

/// A claimed region: its features, and optionally its point set and normals.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimedRegion {
    /// The feature of a.
    pub a: FeatureId,
    /// The feature of b.
    pub b: FeatureId,
    /// Its points (as a set, each within the tolerance of the exact region's).
    pub points: Option<Vec<Point3<BigRational>>>,
    /// Its normals (each a positive multiple of an exact normal, within the tolerance).
    pub normals: Option<Vec<Vector3<BigRational>>>,
}

/// A claim on [`Contact`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactClaim {
    /// The claimed status.
    pub status: Option<ContactStatus>,
    /// The claimed contact regions (the whole set R_t).
    pub regions: Option<Vec<ClaimedRegion>>,
}

/// The format's name of a status.
pub fn contact_status_name(s: ContactStatus) -> &'static str {
    match s {
        ContactStatus::Separate => "separate",
        ContactStatus::Touching => "touching",
        ContactStatus::Penetrating => "penetrating",
    }
}

impl<N: Scalar> Contact<N> {
    fn motion<S: Scalar>(&self, v: &Option<Velocity<N>>, p: &Posed<N>) -> Result<Motion<S>, QueryError> {
        let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
        let zero = || Vector3::from_element(S::zero());
        Ok(match v {
            None => Motion { linear: zero(), angular: zero(), center: Point3::from(map.translation) },
            Some(v) => Motion {
                linear: v.linear.map(|x| x.to_backend()),
                angular: v.angular.map(|x| x.to_backend()),
                center: Point3::from(map.translation),
            },
        })
    }
}

fn previous_feature<S: Scalar>(
    g: &SolidPosed<S>,
    id: &FeatureId,
    at: String,
) -> Result<crate::brep::Feature, QueryError> {
    g.feature_of(id).ok_or_else(|| QueryError::new(ErrorKind::Invalid, &at, "no such feature of the solid"))
}

impl<N: Scalar> Query for Contact<N> {
    const OP: &'static str = "contact";
    type Output<S: RootScalar> = ContactOutput<S>;
    type Discrete = ContactStatus;
    type Claim = ContactClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (ga, gb) = (posed_solid::<S, N>(&self.a)?, posed_solid::<S, N>(&self.b)?);
        // Certain decisions (exact, intervals): the set-theoretic analysis; tolerant ones: the
        // 1990 pipeline with its ε.
        S::by_capability(Route { query: self, a: &ga, b: &gb })
    }

    fn reference(o: ContactOutput<Exact>) -> ContactOutput<BigRational> {
        let p = |p: Point3<Exact>| p.map(|c| c.to_big_rational());
        ContactOutput {
            status: o.status,
            regions: o
                .regions
                .into_iter()
                .map(|r| ContactRegion {
                    a: r.a,
                    b: r.b,
                    dim: r.dim,
                    points: r.points.into_iter().map(p).collect(),
                    holes: r.holes.into_iter().map(|h| h.into_iter().map(p).collect()).collect(),
                    normals: r.normals.into_iter().map(|n| n.map(|c| c.to_big_rational())).collect(),
                    source: r.source,
                })
                .collect(),
            intersection: o.intersection,
            culled: o.culled,
            epsilon: o.epsilon.map(|x| x.to_big_rational()),
            collision_time: o.collision_time.map(|x| x.to_big_rational()),
        }
    }

    fn discrete<S: RootScalar>(o: &ContactOutput<S>) -> ContactStatus {
        o.status
    }

    fn valid_within_tolerance(_: &ContactStatus, _: &ContactStatus) -> bool {
        true
    }

    /// `f64` answers by the ε rules, exact backends with zero tolerance: the statuses must be
    /// equal, except where ε allows the difference, which is checked exactly: `f64` may call
    /// *separate* solids touching when their boundaries come within ε (1 + 10⁻⁶) of each other,
    /// and *penetrating* ones touching when none of its depth samples
    /// ([`crate::contact::penetration_samples`], their depths
    /// [`crate::contact::DepthSample::depth_squared`] computed exactly) is deeper than
    /// ε (1 + 10⁻⁶).
    /// Every other difference breaches the contract (an exactly touching pair is touching at any
    /// ε). A refusal of `f64` (its index's precision) is admissible at margin zero.
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let zero = Margin::Finite(BigRational::default());
        let Ok(f) = fast else { return Ok(agreement_at(zero, exact, fast)) };
        let (e, fs) = (exact.output.status, f.output.status);
        if e == fs {
            return Ok(agreement_at(Margin::Unbounded, exact, fast));
        }
        let eps = f.output.epsilon.and_then(|x| x.to_rational()).unwrap_or_default();
        let slack = eps.clone() + eps / BigRational::from_integer(1_000_000.into());
        // On the fast exact backend: the same values as the reference's (its tests compare the
        // two), without a gcd for every operation.
        let slack = Exact::from_big_rational(&slack);
        let (ga, gb) = (posed_solid::<Exact, N>(&self.a)?, posed_solid::<Exact, N>(&self.b)?);
        let (a, b) = (&ga.built.solid, &gb.built.solid);
        let fail = |u| QueryError::uncertain("", u);
        let (admissible, why) = match (e, fs) {
            (ContactStatus::Separate, ContactStatus::Touching) => {
                let near = solids_within(a, b, &slack).map_err(fail)?;
                (near, "f64 touches where the boundaries are farther apart than ε")
            }
            (ContactStatus::Penetrating, ContactStatus::Touching) => {
                let deep = any_deeper_than(a, b, &slack).map_err(contact_error)?;
                (!deep, "f64 touches where a depth sample is deeper than ε")
            }
            _ => (false, "the statuses differ beyond what ε allows"),
        };
        let verdict = if admissible {
            Ok(Agreement::WithinTolerance)
        } else {
            Err(Disagreement {
                what: why.into(),
                exact: contact_status_name(e).into(),
                fast: contact_status_name(fs).into(),
                margin: "0".into(),
            })
        };
        Ok((zero, verdict))
    }

    /// `status` must be equal. `regions` is the whole of R_t, matched as a set: a claimed region
    /// fits an exact one with the same features whose points it gives (as a set, each within the
    /// tolerance of one of the exact region's) and whose normals it gives (each a positive
    /// multiple of an exact normal, within the tolerance's relative part); the claim passes when
    /// a matching pairs every claimed region with an exact one and names every exact region
    /// (a maximum bipartite matching: R_t may hold several regions with the same features, two
    /// arms of a U under one face of a box, in any order).
    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: equal |s: &ContactStatus| Shown::Text(contact_status_name(*s).into()), |out| out.status),
        judged!(regions: |_, exact, claimed, _, tol, _| Ok(regions_checks(&exact.output, claimed, tol))),
    ];
}

/// The checks of a claimed region against an exact one with its features: its points (when
/// claimed) and its normals (when claimed), each with whether it passes.
fn region_checks(c: &ClaimedRegion, e: &ContactRegion<BigRational>, tol: &Tolerance) -> Vec<(&'static str, bool)> {
    let mut out = Vec::new();
    if let Some(points) = &c.points {
        let near = |p: &Point3<BigRational>, q: &Point3<BigRational>| (0..3).all(|j| tol.admits(&p[j], &q[j]));
        let ok = points.len() == e.points.len()
            && points.iter().all(|p| e.points.iter().any(|q| near(p, q)))
            && e.points.iter().all(|q| points.iter().any(|p| near(p, q)));
        out.push(("points", ok));
    }
    if let Some(normals) = &c.normals {
        let ok = normals.iter().all(|n| e.normals.iter().any(|m| parallel(n, m, &tol.rel)))
            && e.normals.iter().all(|m| normals.iter().any(|n| parallel(n, m, &tol.rel)));
        out.push(("normals", ok));
    }
    out
}

impl<N: Scalar> Contact<N> {
    /// The `f64` pipeline (Vaněček 1990) on posed solids.
    /// The set-theoretic contact analysis (Bouma–Vaněček), on a backend with certain decisions.
    fn certain<S: RootScalar + Certain>(
        &self,
        ga: &SolidPosed<S>,
        gb: &SolidPosed<S>,
    ) -> Result<Answer<S, Self>, QueryError> {
        let motions = if self.velocity_a.is_some() || self.velocity_b.is_some() {
            Some((self.motion::<S>(&self.velocity_a, &self.a)?, self.motion::<S>(&self.velocity_b, &self.b)?))
        } else {
            None
        };
        let mut previous = Vec::with_capacity(self.previous.len());
        for (i, p) in self.previous.iter().enumerate() {
            previous.push(Previous {
                a: previous_feature(ga, &p.a, format!("/previous/{i}/a"))?,
                b: previous_feature(gb, &p.b, format!("/previous/{i}/b"))?,
                normals: p.normals.iter().map(|n| n.map(|x| x.to_backend())).collect(),
            });
        }
        let options = ContactOptions { motions, previous, ..ContactOptions::default() };
        let found = find_contacts(&ga.built.solid, &gb.built.solid, &options).map_err(contact_error)?;
        let regions = found
            .contacts
            .into_iter()
            .map(|c| ContactRegion {
                a: ga.feature_id(&c.region.a),
                b: gb.feature_id(&c.region.b),
                dim: c.region.dim,
                points: c.region.points,
                holes: c.region.holes,
                normals: c.normals,
                source: c.source,
            })
            .collect();
        Ok(Answer::plain(ContactOutput {
            status: found.status,
            regions,
            intersection: found.regions.len(),
            culled: found.culled.len(),
            epsilon: None,
            collision_time: None,
        }))
    }

    fn tolerant<S: RootScalar + Tolerant>(
        &self,
        ga: &SolidPosed<S>,
        gb: &SolidPosed<S>,
    ) -> Result<Answer<S, Self>, QueryError> {
        let (a, b) = (&ga.built.solid, &gb.built.solid);
        let epsilon = match &self.epsilon {
            Some(e) => e.to_backend::<S>(),
            None => {
                let scale = a
                    .vertices()
                    .iter()
                    .chain(b.vertices())
                    .flat_map(|p| p.iter().map(|c| c.to_f64().abs()))
                    .fold(f64::MIN_POSITIVE, f64::max);
                S::from_f64(scale / 1e9).map_err(|e| QueryError::new(ErrorKind::Invalid, "/epsilon", e.to_string()))?
            }
        };
        let motions = if self.velocity_a.is_some() || self.velocity_b.is_some() {
            let step = self.step.as_ref().map_or_else(S::one, |s| s.to_backend::<S>());
            Some((self.motion::<S>(&self.velocity_a, &self.a)?, self.motion::<S>(&self.velocity_b, &self.b)?, step))
        } else {
            None
        };
        let options = TolerantOptions { epsilon: epsilon.clone(), motions };
        let found = find_contacts_within(a, b, &options).map_err(contact_error)?;
        let regions = found
            .contacts
            .into_iter()
            .map(|c| ContactRegion {
                a: ga.feature_id(&c.contact.a),
                b: gb.feature_id(&c.contact.b),
                dim: 0,
                points: vec![c.contact.point],
                holes: Vec::new(),
                normals: vec![c.normal],
                source: NormalSource::New,
            })
            .collect();
        Ok(Answer::plain(ContactOutput {
            status: found.status,
            regions,
            intersection: found.points.len(),
            culled: 0,
            epsilon: Some(epsilon),
            collision_time: found.collision_time,
        }))
    }
}

fn contact_error(e: ContactError) -> QueryError {
    match e {
        ContactError::Index(crate::msp::MspError::Uncertain(u)) => QueryError::uncertain("", u),
        ContactError::Index(crate::msp::MspError::Precision(m)) => QueryError::new(ErrorKind::Precision, "", m),
        ContactError::Epsilon => QueryError::new(ErrorKind::Invalid, "/epsilon", "epsilon must be positive"),
    }
}

/// Whether `n` is a positive multiple of `m` within relative tolerance `rel`:
/// |n × m|² ≤ rel² |n|² |m|² and n · m > 0.
fn parallel(n: &Vector3<BigRational>, m: &Vector3<BigRational>, rel: &BigRational) -> bool {
    let c = n.cross(m);
    let n2 = |v: &Vector3<BigRational>| v.dot(v);
    n.dot(m) > BigRational::default() && n2(&c) <= rel * rel * n2(n) * n2(m)
}

/// The contact query's two routes, chosen by the backend's capability.
struct Route<'q, N: Scalar, S: RootScalar> {
    query: &'q Contact<N>,
    a: &'q SolidPosed<S>,
    b: &'q SolidPosed<S>,
}

impl<N: Scalar, S: RootScalar> ByCapability<S> for Route<'_, N, S> {
    type Output = Result<Answer<S, Contact<N>>, QueryError>;
    fn certain(self) -> Self::Output
    where
        S: Certain,
    {
        self.query.certain(self.a, self.b)
    }
    fn tolerant(self) -> Self::Output
    where
        S: Tolerant,
    {
        self.query.tolerant(self.a, self.b)
    }
}

/// The checks of claimed contact regions against R_t (see [`Contact`]'s claim rules).
fn regions_checks(out: &ContactOutput<BigRational>, claimed: &[ClaimedRegion], tol: &Tolerance) -> Vec<Check> {
    let mut v = Vec::new();
    // The exact regions by their features: only those can fit a claimed region.
    let mut by_features: std::collections::HashMap<(&FeatureId, &FeatureId), Vec<usize>> =
        std::collections::HashMap::new();
    for (k, e) in out.regions.iter().enumerate() {
        by_features.entry((&e.a, &e.b)).or_default().push(k);
    }
    let fits: Vec<Vec<usize>> = claimed
        .iter()
        .map(|c| {
            let same = by_features.get(&(&c.a, &c.b)).map_or(&[][..], Vec::as_slice);
            same.iter().copied().filter(|&k| region_checks(c, &out.regions[k], tol).iter().all(|x| x.1)).collect()
        })
        .collect();
    let matched = super::claim::max_matching(&fits, out.regions.len());
    let mut named = vec![false; out.regions.len()];
    for (i, c) in claimed.iter().enumerate() {
        let at = |k: &str| format!("regions/{i}/{k}");
        let shown = Shown::Features(vec![c.a.clone(), c.b.clone()]);
        let same = by_features.get(&(&c.a, &c.b)).map_or(&[][..], Vec::as_slice);
        // The region it is judged against: its match, else one with its features (one no
        // other claimed region took, when there is such).
        let (k, note) = match matched[i] {
            Some(k) => (k, None),
            None => match same.iter().find(|&&k| !matched.contains(&Some(k))).or(same.first()) {
                Some(&k) if fits[i].is_empty() => (k, None),
                Some(&k) => (k, Some("a region of R_t another claimed region already stands for (claimed twice)")),
                None => {
                    v.push(
                        Check { ok: false, ..Check::equal(&at("features"), shown, Shown::Absent) }
                            .with_note("no contact region of R_t has these features"),
                    );
                    continue;
                }
            },
        };
        named[k] |= matched[i].is_some();
        let e = &out.regions[k];
        let features = Check::equal(&at("features"), shown.clone(), shown);
        v.push(match note {
            Some(n) => Check { ok: false, ..features }.with_note(n),
            None => features,
        });
        for (field, ok) in region_checks(c, e, tol) {
            let check = match field {
                "points" => {
                    let claimed = Shown::Points(c.points.clone().unwrap_or_default());
                    let check = Check { ok, ..Check::equal(&at("points"), claimed, Shown::Points(e.points.clone())) };
                    if ok {
                        check
                    } else {
                        check.with_note("not the region's point set")
                    }
                }
                _ => {
                    let pts = |ns: &[Vector3<BigRational>]| {
                        Shown::Points(ns.iter().map(|n| Point3::from(n.clone())).collect())
                    };
                    let claimed = pts(c.normals.as_deref().unwrap_or_default());
                    let check = Check { ok, ..Check::equal(&at("normals"), claimed, pts(&e.normals)) };
                    if ok {
                        check
                    } else {
                        check.with_note("not positive multiples of the region's normals")
                    }
                }
            };
            v.push(check);
        }
    }
    for (k, e) in out.regions.iter().enumerate().filter(|(k, _)| !named[*k]) {
        let exact_shown = Shown::Features(vec![e.a.clone(), e.b.clone()]);
        v.push(
            Check { ok: false, ..Check::equal(&format!("regions/missing/{k}"), Shown::Absent, exact_shown) }
                .with_note("a region of R_t the claim does not name"),
        );
    }
    v
}
