//! `contact`: the contact of two posed solids, convex or not (Bouma and Vaněček 1992): the
//! status, and the sufficient set R_t of contact regions with their normals, by
//! [`crate::contact::find_contacts`]; with the solids' velocities, regions whose entities move
//! apart are culled; with the previous step's contacts, normals keep their coherence.
//!
//! Answered on exact backends (`"exact"` runs on the fast exact backend, whose Brep-indices
//! filter each side test in binary64). The `f64` path of the 1990 paper (clusters of contact
//! points within 4ε) is not built yet: `f64` answers `unsupported`.

use num_rational::BigRational;

use super::claim::{Check, Shown, Tolerance, Verdict};
use super::error::{ErrorKind, QueryError};
use super::spec::{posed_solid, FeatureId, Posed, SolidPosed};
use super::{agreement_at, Answer, Query};
use crate::contact::{find_contacts, ContactOptions, ContactStatus, Motion, NormalSource, Previous};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::{Point3, Vector3};
use crate::poly::RootScalar;
use crate::scalar::{Exact, Scalar};

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
#[derive(Clone, Debug)]
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
        if !S::EXACT_VALUES {
            return Err(QueryError::new(
                ErrorKind::Unsupported,
                "/backend",
                "contact is answered on exact backends; the f64 pipeline (clusters within 4ε, Vaněček 1990 §4) is not built yet",
            ));
        }
        let (ga, gb) = (posed_solid::<S, N>(&self.a)?, posed_solid::<S, N>(&self.b)?);
        let motions = if self.velocity_a.is_some() || self.velocity_b.is_some() {
            Some((self.motion::<S>(&self.velocity_a, &self.a)?, self.motion::<S>(&self.velocity_b, &self.b)?))
        } else {
            None
        };
        let mut previous = Vec::with_capacity(self.previous.len());
        for (i, p) in self.previous.iter().enumerate() {
            previous.push(Previous {
                a: previous_feature(&ga, &p.a, format!("/previous/{i}/a"))?,
                b: previous_feature(&gb, &p.b, format!("/previous/{i}/b"))?,
                normals: p.normals.iter().map(|n| n.map(|x| x.to_backend())).collect(),
            });
        }
        let options = ContactOptions { motions, previous, ..ContactOptions::default() };
        let found = find_contacts(&ga.built.solid, &gb.built.solid, &options).map_err(|e| match e {
            crate::contact::ContactError::Index(crate::msp::MspError::Uncertain(u)) => QueryError::uncertain("", u),
            crate::contact::ContactError::Index(crate::msp::MspError::Precision(m)) => {
                QueryError::new(ErrorKind::Precision, "", m)
            }
        })?;
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
        }))
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
        }
    }

    fn discrete<S: RootScalar>(o: &ContactOutput<S>) -> ContactStatus {
        o.status
    }

    fn valid_within_tolerance(_: &ContactStatus, _: &ContactStatus) -> bool {
        true
    }

    /// The `f64` path is not built: its refusal is admissible (margin zero) until it is.
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        Ok(agreement_at(Margin::Finite(BigRational::default()), exact, fast))
    }

    /// `status` must be equal. `regions` is the whole of R_t: every claimed region must match
    /// an exact one by its features (its points, as a set, each within the tolerance of one of
    /// the exact region's; its normals each a positive multiple of an exact normal, within the
    /// tolerance's relative part) and every exact region must be claimed.
    fn judge(
        &self,
        exact: &Answer<BigRational, Self>,
        claim: &ContactClaim,
        tol: &Tolerance,
        _: u32,
    ) -> Result<Verdict, QueryError> {
        let out = &exact.output;
        let mut v = Verdict::default();
        if let Some(s) = claim.status {
            let name = |s| Shown::Text(contact_status_name(s).into());
            v.checks.push(Check::equal("status", name(s), name(out.status)));
        }
        let Some(claimed) = &claim.regions else { return Ok(v) };
        let mut matched = vec![false; out.regions.len()];
        for (i, c) in claimed.iter().enumerate() {
            let at = |k: &str| format!("regions/{i}/{k}");
            let shown = Shown::Features(vec![c.a.clone(), c.b.clone()]);
            let Some(k) = out.regions.iter().position(|r| r.a == c.a && r.b == c.b) else {
                v.checks.push(
                    Check { ok: false, ..Check::equal(&at("features"), shown, Shown::Absent) }
                        .with_note("no contact region of R_t has these features"),
                );
                continue;
            };
            matched[k] = true;
            let e = &out.regions[k];
            v.checks.push(Check::equal(&at("features"), shown.clone(), shown));
            if let Some(points) = &c.points {
                let near = |p: &Point3<BigRational>, q: &Point3<BigRational>| (0..3).all(|j| tol.admits(&p[j], &q[j]));
                let ok = points.len() == e.points.len()
                    && points.iter().all(|p| e.points.iter().any(|q| near(p, q)))
                    && e.points.iter().all(|q| points.iter().any(|p| near(p, q)));
                let check = Check {
                    ok,
                    ..Check::equal(&at("points"), Shown::Points(points.clone()), Shown::Points(e.points.clone()))
                };
                v.checks.push(if ok { check } else { check.with_note("not the region's point set") });
            }
            if let Some(normals) = &c.normals {
                let ok = normals.iter().all(|n| e.normals.iter().any(|m| parallel(n, m, &tol.rel)))
                    && e.normals.iter().all(|m| normals.iter().any(|n| parallel(n, m, &tol.rel)));
                let pts =
                    |ns: &[Vector3<BigRational>]| Shown::Points(ns.iter().map(|n| Point3::from(n.clone())).collect());
                let check = Check { ok, ..Check::equal(&at("normals"), pts(normals), pts(&e.normals)) };
                v.checks.push(if ok {
                    check
                } else {
                    check.with_note("not positive multiples of the region's normals")
                });
            }
        }
        for (k, e) in out.regions.iter().enumerate().filter(|(k, _)| !matched[*k]) {
            let exact_shown = Shown::Features(vec![e.a.clone(), e.b.clone()]);
            v.checks.push(
                Check { ok: false, ..Check::equal(&format!("regions/missing/{k}"), Shown::Absent, exact_shown) }
                    .with_note("a region of R_t the claim does not name"),
            );
        }
        Ok(v)
    }
}

/// Whether `n` is a positive multiple of `m` within relative tolerance `rel`:
/// |n × m|² ≤ rel² |n|² |m|² and n · m > 0.
fn parallel(n: &Vector3<BigRational>, m: &Vector3<BigRational>, rel: &BigRational) -> bool {
    let c = n.cross(m);
    let n2 = |v: &Vector3<BigRational>| v.dot(v);
    n.dot(m) > BigRational::default() && n2(&c) <= rel * rel * n2(n) * n2(m)
}
