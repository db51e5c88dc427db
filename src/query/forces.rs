//! `contact_forces`: the forces at resting or sliding contacts of rigid bodies, by the SVD
//! method of the 1998 V-Clip paper (§4.2, [`crate::forces`]); exactly the minimum-norm forces on
//! exact backends, nalgebra's SVD on `f64`.
//!
//! Contacts are given three ways: a point and a normal; the regions of a `contact` answer
//! (each region's points, the corners of a polygon, with its first normal); or from the
//! bodies' own shapes, whose contact at the bodies' poses is computed exactly (the set R_t of
//! [`super::Contact`]) and expanded the same way. Every path, `f64` included, takes derived
//! contacts from the exact contact analysis: the op judges forces, and `contact` already
//! judges the geometry.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::{Matrix3, Point3, Vector3};
//! use touchstone::query::{BodySpec, ContactForces, ContactSpec, PoseSpec, Query};
//! let q = |n: i64| BigRational::from_integer(n.into());
//! let at = |z: i64| PoseSpec::Quaternion { q: [q(1), q(0), q(0), q(0)], t: [q(0), q(0), q(z)] };
//! // A cube of mass 4 on the fixed floor, touching at its four bottom corners.
//! let cube = BodySpec { pose: at(1), ..BodySpec::free(q(4), Matrix3::identity()) };
//! let floor = BodySpec::fixed(at(0));
//! let corner = |x: i64, y: i64| ContactSpec::Point {
//!     a: 0, b: 1, point: Point3::new(q(x), q(y), q(0)), normal: Vector3::new(q(0), q(0), q(1)), friction: q(1),
//! };
//! let query = ContactForces::new(
//!     vec![cube, floor],
//!     Vector3::new(q(0), q(0), q(-10)),
//!     vec![corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)],
//! );
//! let exact = touchstone::query::exact_answer(&query).unwrap();
//! assert!(exact.output.solution.forces.iter().all(|f| *f == Vector3::new(q(0), q(0), q(10))));
//! // The f64 path runs the same code and agrees under the contract.
//! let both = touchstone::query::both(&query).unwrap();
//! assert!(both.agreement.is_ok());
//! ```

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::{ErrorKind, QueryError};
use super::spec::{PoseSpec, Posed, ShapeSpec};
use super::{Answer, Bounded, Decisive, Query};
use crate::contact::ContactStatus;
use crate::contract::{Agreement, Disagreement, Margin};
use crate::forces::{self, Body, ForcesError, Solution, State, System};
use crate::geom::{Matrix3, Point3, Vector3};
use crate::poly::RootScalar;
use crate::scalar::{Exact, Scalar};

/// A body as the format gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec<N: Scalar = BigRational> {
    /// Its mass (positive; ignored when fixed).
    pub mass: N,
    /// Its inertia about its centre of mass, in its own frame.
    pub inertia: Matrix3<N>,
    /// Its pose: body frame to world, the frame's origin at the centre of mass.
    pub pose: PoseSpec<N>,
    /// The centre's velocity.
    pub linear: Vector3<N>,
    /// The angular velocity (world frame).
    pub angular: Vector3<N>,
    /// Immovable.
    pub fixed: bool,
    /// Its shape in its own frame, for contacts derived from geometry ([`ContactSpec::Shapes`]).
    pub shape: Option<ShapeSpec<N>>,
}

impl<N: Scalar> BodySpec<N> {
    /// A free body at rest at the identity pose, without a shape.
    pub fn free(mass: N, inertia: Matrix3<N>) -> Self {
        BodySpec {
            mass,
            inertia,
            pose: PoseSpec::identity(),
            linear: Vector3::zeros(),
            angular: Vector3::zeros(),
            fixed: false,
            shape: None,
        }
    }

    /// A fixed body at rest at `pose`.
    pub fn fixed(pose: PoseSpec<N>) -> Self {
        BodySpec { fixed: true, pose, ..BodySpec::free(N::one(), Matrix3::identity()) }
    }
}

/// A region of a `contact` answer, as far as forces need it.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionSpec<N: Scalar = BigRational> {
    /// Its points: the point, the segment's ends, or the polygon's corners.
    pub points: Vec<Point3<N>>,
    /// Its normal (out of b toward a).
    pub normal: Vector3<N>,
}

/// One entry of the query's contacts.
#[derive(Clone, Debug, PartialEq)]
pub enum ContactSpec<N: Scalar = BigRational> {
    /// One contact point.
    Point {
        /// The body the force acts on.
        a: usize,
        /// The other body.
        b: usize,
        /// The point (world).
        point: Point3<N>,
        /// The normal out of b toward a.
        normal: Vector3<N>,
        /// The friction coefficient.
        friction: N,
    },
    /// The regions of a `contact` answer between a and b: a contact at each point.
    Regions {
        /// The body the forces act on (the `contact` query's a).
        a: usize,
        /// The other body.
        b: usize,
        /// The friction coefficient.
        friction: N,
        /// The regions.
        regions: Vec<RegionSpec<N>>,
    },
    /// The contact of the two bodies' shapes at their poses, computed exactly.
    Shapes {
        /// The body the forces act on.
        a: usize,
        /// The other body.
        b: usize,
        /// The friction coefficient.
        friction: N,
    },
}

/// `contact_forces`.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactForces<N: Scalar = BigRational> {
    /// The bodies.
    pub bodies: Vec<BodySpec<N>>,
    /// Gravity's acceleration.
    pub gravity: Vector3<N>,
    /// The contacts.
    pub contacts: Vec<ContactSpec<N>>,
    /// The tangential speed at or below which a contact is static.
    pub static_speed: N,
    /// The most solves (`None`: 4 + 2 × the contacts).
    pub iteration_limit: Option<usize>,
}

impl<N: Scalar> ContactForces<N> {
    /// A query with static speed 0 and the default iteration limit.
    pub fn new(bodies: Vec<BodySpec<N>>, gravity: Vector3<N>, contacts: Vec<ContactSpec<N>>) -> Self {
        ContactForces { bodies, gravity, contacts, static_speed: N::zero(), iteration_limit: None }
    }
}

/// The answer of [`ContactForces`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContactForcesOutput<S: Scalar> {
    /// Forces, states, solves, convergence and rank.
    pub solution: Solution<S>,
    /// The contacts solved for, after expanding regions and shapes (one per force).
    pub contacts: Vec<forces::Contact<S>>,
    /// For each contact, the entry of the query's `contacts` it came from.
    pub origin: Vec<usize>,
}

/// A claim on [`ContactForces`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactForcesClaim {
    /// The force on a at each contact.
    pub forces: Option<Vec<Vector3<BigRational>>>,
    /// Each contact's state.
    pub states: Option<Vec<State>>,
}

/// The discrete part: the states, whether the iteration converged, the solves, the rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcesDiscrete {
    /// Each contact's state.
    pub states: Vec<State>,
    /// Converged.
    pub converged: bool,
    /// Solves made.
    pub iterations: usize,
    /// The last solve's rank.
    pub rank: usize,
    /// Every solve's states and rank: two backends' forces are comparable only when they took
    /// the same path (the same final states can be reached along other friction directions).
    pub path: Vec<forces::Step>,
}

fn body_index(i: usize, n: usize, at: &str) -> Result<(), QueryError> {
    if i >= n {
        return Err(QueryError::new(ErrorKind::Invalid, at, format!("body index {i} is out of range ({n} bodies)")));
    }
    Ok(())
}

impl<N: Scalar> ContactForces<N> {
    /// The contacts on backend `S`, each with its entry; shapes' contacts computed exactly.
    fn expanded<S: Scalar>(&self) -> Result<(Vec<forces::Contact<S>>, Vec<usize>), QueryError> {
        let c = |x: &N| x.to_backend::<S>();
        let mut out = Vec::new();
        let mut origin = Vec::new();
        for (k, spec) in self.contacts.iter().enumerate() {
            crate::budget::tick().map_err(|l| QueryError::uncertain("", l.into()))?;
            match spec {
                ContactSpec::Point { a, b, point, normal, friction } => {
                    out.push(forces::Contact::new(*a, *b, point.map(|x| c(&x)), normal.map(|x| c(&x)), c(friction)));
                    origin.push(k);
                }
                ContactSpec::Regions { a, b, friction, regions } => {
                    for r in regions {
                        for p in &r.points {
                            out.push(forces::Contact::new(
                                *a,
                                *b,
                                p.map(|x| c(&x)),
                                r.normal.map(|x| c(&x)),
                                c(friction),
                            ));
                            origin.push(k);
                        }
                    }
                }
                ContactSpec::Shapes { a, b, friction } => {
                    let at = format!("/contacts/{k}");
                    for (i, key) in [(*a, "a"), (*b, "b")] {
                        body_index(i, self.bodies.len(), &format!("{at}/{key}"))?;
                        if self.bodies[i].shape.is_none() {
                            return Err(QueryError::new(
                                ErrorKind::Missing,
                                &format!("/bodies/{i}/shape"),
                                format!("contact {k} has no point: it is derived from the bodies' shapes, and body {i} has none"),
                            ));
                        }
                    }
                    let posed = |i: usize| Posed {
                        shape: self.bodies[i].shape.clone().unwrap_or_else(|| unreachable!("checked above")),
                        pose: self.bodies[i].pose.clone(),
                        at: format!("/bodies/{i}/shape"),
                        pose_at: format!("/bodies/{i}/pose"),
                    };
                    let query = super::Contact {
                        a: posed(*a),
                        b: posed(*b),
                        velocity_a: None,
                        velocity_b: None,
                        previous: Vec::new(),
                        epsilon: None,
                        step: None,
                    };
                    let found = super::exact_answer(&query)?;
                    if found.output.status == ContactStatus::Penetrating {
                        return Err(QueryError::new(
                            ErrorKind::Invalid,
                            &at,
                            format!("the shapes of bodies {a} and {b} penetrate: contact forces need touching bodies"),
                        ));
                    }
                    for (j, r) in found.output.regions.iter().enumerate() {
                        let Some(n) = r.normals.first() else {
                            return Err(QueryError::new(
                                ErrorKind::Invalid,
                                &at,
                                format!("region {j} of the contact of bodies {a} and {b} has no normal"),
                            ));
                        };
                        for p in &r.points {
                            out.push(forces::Contact::new(
                                *a,
                                *b,
                                p.map(|x| x.to_backend::<S>()),
                                n.map(|x| x.to_backend::<S>()),
                                c(friction),
                            ));
                            origin.push(k);
                        }
                    }
                }
            }
        }
        Ok((out, origin))
    }

    /// The system on backend `S`.
    fn system<S: Scalar>(&self) -> Result<(System<S>, Vec<usize>), QueryError> {
        let c = |x: &N| x.to_backend::<S>();
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (i, b) in self.bodies.iter().enumerate() {
            let map = b.pose.affine::<S>().map_err(|e| QueryError::geom(&format!("/bodies/{i}/pose"), e))?;
            bodies.push(Body {
                mass: c(&b.mass),
                inertia: b.inertia.map(|x| c(&x)),
                rotation: map.linear,
                position: Point3::from(map.translation),
                linear: b.linear.map(|x| c(&x)),
                angular: b.angular.map(|x| c(&x)),
                fixed: b.fixed,
            });
        }
        let (contacts, origin) = self.expanded::<S>()?;
        let mut system = System::new(bodies, self.gravity.map(|x| c(&x)), contacts);
        system.static_speed = c(&self.static_speed);
        if let Some(l) = self.iteration_limit {
            system.iteration_limit = l;
        }
        Ok((system, origin))
    }
}

/// A forces error as the query's: elements named by their place in the query.
fn forces_error(e: ForcesError, origin: &[usize]) -> QueryError {
    let entry = |k: usize| origin.get(k).copied().unwrap_or(k);
    match e {
        ForcesError::Body { body, why } => QueryError::new(ErrorKind::Invalid, &format!("/bodies/{body}"), why),
        ForcesError::Setting { field, why } => QueryError::new(ErrorKind::Invalid, &format!("/{field}"), why),
        ForcesError::Contact { contact, why } => QueryError::new(
            ErrorKind::Invalid,
            &format!("/contacts/{}", entry(contact)),
            format!("contact {contact}: {why}"),
        ),
        e @ ForcesError::IrrationalLength { contact, .. } => {
            QueryError::new(ErrorKind::Invalid, &format!("/contacts/{}", entry(contact)), e.to_string())
        }
        e @ ForcesError::Inconsistent { .. } => QueryError::new(ErrorKind::Invalid, "/contacts", e.to_string()),
        ForcesError::Uncertain(u) => QueryError::uncertain("", u),
        ForcesError::Limit(l) => QueryError::uncertain("", l.into()),
        e @ ForcesError::Dimensions { .. } => QueryError::new(ErrorKind::Invalid, "", e.to_string()),
    }
}

fn state_name(s: &State) -> Shown {
    Shown::Text(s.name().into())
}

fn vector_shown(v: &Vector3<BigRational>) -> Shown {
    Shown::Point(Point3::from(v.clone()))
}

impl<N: Scalar> Query for ContactForces<N> {
    const OP: &'static str = "contact_forces";
    type Output<S: RootScalar> = ContactForcesOutput<S>;
    type Discrete = ForcesDiscrete;
    type Claim = ContactForcesClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        if S::FILTER {
            // No certified solve on intervals (the SVD is binary64's): the exact run decides.
            return Err(QueryError::uncertain("", crate::scalar::Uncertain::Close));
        }
        for (k, spec) in self.contacts.iter().enumerate() {
            let (ContactSpec::Point { a, b, .. }
            | ContactSpec::Regions { a, b, .. }
            | ContactSpec::Shapes { a, b, .. }) = spec;
            body_index(*a, self.bodies.len(), &format!("/contacts/{k}/a"))?;
            body_index(*b, self.bodies.len(), &format!("/contacts/{k}/b"))?;
        }
        let (system, origin) = self.system::<S>()?;
        let (solution, trace) = forces::solve_traced(&system).map_err(|e| forces_error(e, &origin))?;
        let mut continuous = Vec::new();
        for (k, f) in solution.forces.iter().enumerate() {
            for (i, x) in f.iter().enumerate() {
                continuous.push(Bounded::new(format!("forces/{k}/{i}"), x.clone(), trace.force_magnitude.clone()));
            }
        }
        let decisive = trace.decisions.into_iter().map(Decisive::Test).collect();
        let output = ContactForcesOutput { solution, contacts: system.contacts, origin };
        Ok(Answer { output, decisive, continuous })
    }

    fn reference(o: ContactForcesOutput<Exact>) -> ContactForcesOutput<BigRational> {
        let v = |v: &Vector3<Exact>| v.map(|x| x.to_big_rational());
        let s = o.solution;
        ContactForcesOutput {
            solution: Solution {
                forces: s.forces.iter().map(v).collect(),
                states: s.states,
                iterations: s.iterations,
                converged: s.converged,
                rank: s.rank,
                path: s.path,
            },
            contacts: o
                .contacts
                .iter()
                .map(|c| {
                    forces::Contact::new(
                        c.a,
                        c.b,
                        Point3::from(v(&c.point.coords)),
                        v(&c.normal),
                        c.friction.to_big_rational(),
                    )
                })
                .collect(),
            origin: o.origin,
        }
    }

    fn discrete<S: RootScalar>(o: &ContactForcesOutput<S>) -> ForcesDiscrete {
        let s = &o.solution;
        ForcesDiscrete {
            states: s.states.clone(),
            converged: s.converged,
            iterations: s.iterations,
            rank: s.rank,
            path: s.path.clone(),
        }
    }

    /// Near a decision (a speed at the static threshold, a normal force near zero, a force on
    /// its cone's edge, a rank change at the forces' precision) the iteration may take another
    /// path: any answer is admissible there.
    fn valid_within_tolerance(_: &ForcesDiscrete, _: &ForcesDiscrete) -> bool {
        true
    }

    /// The default contract, except that where the margin is within the budget and the
    /// discrete answers differ (another path of the iteration: other states or another rank in
    /// some solve) the forces are not compared: they solve other equations.
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let margin = self.margin(exact)?;
        if let Ok(f) = fast {
            if !margin.exceeds(crate::contract::budget::<f64>())
                && Self::discrete(&exact.output) != Self::discrete(&f.output)
            {
                return Ok((margin, Ok(Agreement::WithinTolerance)));
            }
        }
        Ok(super::agreement_at(margin, exact, fast))
    }

    /// `forces`: one check per contact (`forces/k`), passing when every component is within the
    /// tolerance of the exact minimum-norm force; a claim with another number of contacts fails
    /// as a whole. Where the last solve's `A` is rank deficient the forces are indeterminate:
    /// the exact answer is the minimum-norm distribution, and a failing check says so.
    /// `states`: one check per contact (`states/k`), equal names.
    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(forces: |_, exact, claimed, _, tol, _| Ok(forces_checks(&exact.output, claimed, tol))),
        judged!(states: |_, exact, claimed, _, _, _| Ok(states_checks(&exact.output, claimed))),
    ];
}

fn forces_checks(
    out: &ContactForcesOutput<BigRational>,
    claimed: &[Vector3<BigRational>],
    tol: &Tolerance,
) -> Vec<Check> {
    let exact = &out.solution.forces;
    if claimed.len() != exact.len() {
        return vec![Check::equal("forces", Shown::Int(claimed.len() as i64), Shown::Int(exact.len() as i64))
            .with_note("the claim has another number of contacts")];
    }
    let unknowns: usize = out
        .solution
        .states
        .iter()
        .map(|s| match s {
            State::Static => 3,
            State::Dynamic => 1,
            State::Inactive => 0,
        })
        .sum();
    let indeterminate = out.solution.rank < unknowns;
    claimed
        .iter()
        .zip(exact)
        .enumerate()
        .map(|(k, (c, e))| {
            let error = (0..3).map(|i| num_traits::Signed::abs(&(&c[i] - &e[i]))).max().unwrap_or_default();
            let ok = (0..3).all(|i| tol.admits(&c[i], &e[i]));
            let check = Check {
                field: format!("forces/{k}"),
                claimed: vector_shown(c),
                exact: vector_shown(e),
                abs_error: Some(Shown::Rational(error)),
                ok,
                note: None,
            };
            if !ok && indeterminate {
                check.with_note(format!(
                    "the forces are indeterminate (rank {} < {unknowns} unknowns): the exact answer is the minimum-norm distribution",
                    out.solution.rank
                ))
            } else {
                check
            }
        })
        .collect()
}

fn states_checks(out: &ContactForcesOutput<BigRational>, claimed: &[State]) -> Vec<Check> {
    let exact = &out.solution.states;
    if claimed.len() != exact.len() {
        return vec![Check::equal("states", Shown::Int(claimed.len() as i64), Shown::Int(exact.len() as i64))
            .with_note("the claim has another number of contacts")];
    }
    claimed
        .iter()
        .zip(exact)
        .enumerate()
        .map(|(k, (c, e))| {
            let check = Check::equal(&format!("states/{k}"), state_name(c), state_name(e));
            if out.solution.converged {
                check
            } else {
                check.with_note("the iteration did not converge: the exact states are the last solve's")
            }
        })
        .collect()
}
