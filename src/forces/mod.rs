//! Contact forces by the SVD method of the 1998 V-Clip paper (§4.2), with an exact
//! minimum-norm solution on exact backends.
//!
//! Rigid bodies ([`Body`]: mass, body-frame inertia, pose, velocities; fixed bodies move at
//! their given velocity and are never accelerated by a force) touch at contacts ([`Contact`]:
//! the bodies `a` and `b`, a point, a normal out of `b` toward `a`, a friction coefficient).
//! Newton–Euler gives the relative acceleration of the contact points as `a = A f + b`
//! (Eq. (1)); the method sets `a = 0` and takes the minimum-norm `f` (Eq. (3)):
//!
//! * a **static** contact (tangential relative speed at most [`System::static_speed`]) has three
//!   unknowns, its force's world components, and three rows, its relative acceleration's;
//! * a **dynamic** contact (sliding) has one unknown, the magnitude `λ` of its normal force: its
//!   force is `λ (n̂ + μ d̂)` with `d̂` the unit friction direction (against the sliding
//!   velocity), and one row, the normal component of its relative acceleration;
//! * an **inactive** contact has none.
//!
//! The unknown of a dynamic contact is its *normal* magnitude, not the paper's total
//! magnitude ‖f‖ = λ√(1 + μ²): the two differ by a constant factor per contact, which only
//! matters for the minimum norm when `A` is rank deficient across dynamic contacts, and keeps
//! the exact path free of square roots. The exact path still needs the unit vectors `n̂` and
//! `d̂` of dynamic contacts: when a length is irrational it reports
//! [`ForcesError::IrrationalLength`] (use normals and velocities of rational length, e.g.
//! Pythagorean ones); static contacts need none (the friction cone is tested on squares).
//!
//! **Solving** ([`min_norm`]): on an exact backend `f = Aᵀ y` with `A Aᵀ y = −b` by exact
//! elimination, which is the minimum-norm solution of `A f = −b` whenever that system is
//! consistent, and [`ForcesError::Inconsistent`] when it is not (never hidden). On a tolerant
//! backend (`f64`), nalgebra's SVD with singular values below [`SVD_CUTOFF`]` · σ_max` taken as
//! zero, and a residual check that reports inconsistency likewise. The SVD runs on an
//! orthonormal basis of `A`'s columns (pivoted Gram–Schmidt, a budget tick per vector): `A`
//! has rank at most 6 per moving body however many contacts there are, and the dense SVD of
//! the whole `A` is cubic in the contacts and cannot be interrupted.
//!
//! **The iteration** (§4.2, [`solve`]): after each solve, a contact whose normal force is
//! negative becomes inactive, and a static contact whose force lies outside its friction cone
//! becomes dynamic with its friction along the invalid static tangential force; all offending
//! contacts change at once, and the system is solved again, until every force is valid or
//! [`System::iteration_limit`] solves were made. The paper warns that the loop may not end
//! with a valid answer: [`Solution::converged`] says whether it did.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::forces::{solve, Body, Contact, State, System};
//! use touchstone::geom::{Matrix3, Point3, Vector3};
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // A unit cube of mass 4 resting on the fixed floor at its four bottom corners.
//! let cube = Body::free(q(4), Matrix3::identity(), Point3::new(q(0), q(0), q(1)));
//! let floor = Body::fixed(Point3::new(q(0), q(0), q(0)));
//! let corner = |x: i64, y: i64| Contact::new(0, 1, Point3::new(q(x), q(y), q(0)), Vector3::new(q(0), q(0), q(1)), q(1));
//! let system = System::new(vec![cube, floor], Vector3::new(q(0), q(0), q(-10)), vec![corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)]);
//! let s = solve(&system).unwrap();
//! assert!(s.converged && s.states.iter().all(|x| *x == State::Static));
//! // Each corner carries exactly a quarter of the weight, with no tangential part.
//! assert!(s.forces.iter().all(|f| *f == Vector3::new(q(0), q(0), q(10))));
//! ```

mod fraction_free;
mod solve;

pub use solve::{min_norm, MinNorm, SVD_CUTOFF};

use crate::geom::{adjugate3, det3, Matrix3, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign, Uncertain};

/// A rigid body.
#[derive(Clone, Debug, PartialEq)]
pub struct Body<S: Scalar> {
    /// Its mass (positive; ignored when fixed).
    pub mass: S,
    /// Its inertia tensor about its centre of mass, in its own frame (symmetric positive
    /// definite; ignored when fixed).
    pub inertia: Matrix3<S>,
    /// Its orientation: the rotation from its frame to the world's (orthonormal, determinant 1).
    pub rotation: Matrix3<S>,
    /// Its centre of mass, in the world.
    pub position: Point3<S>,
    /// Its centre's velocity.
    pub linear: Vector3<S>,
    /// Its angular velocity (world frame).
    pub angular: Vector3<S>,
    /// Immovable by forces: it keeps its velocity (zero, usually).
    pub fixed: bool,
}

impl<S: Scalar> Body<S> {
    /// A free body at rest, unrotated.
    pub fn free(mass: S, inertia: Matrix3<S>, position: Point3<S>) -> Self {
        Body {
            mass,
            inertia,
            rotation: Matrix3::identity(),
            position,
            linear: Vector3::zeros(),
            angular: Vector3::zeros(),
            fixed: false,
        }
    }

    /// A fixed body at rest (the floor).
    pub fn fixed(position: Point3<S>) -> Self {
        Body { fixed: true, ..Body::free(S::one(), Matrix3::identity(), position) }
    }
}

/// A contact between bodies `a` and `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact<S: Scalar> {
    /// The body the force acts on.
    pub a: usize,
    /// The other body (it gets the opposite force).
    pub b: usize,
    /// The contact point, in the world.
    pub point: Point3<S>,
    /// The normal out of `b` toward `a` (any nonzero length).
    pub normal: Vector3<S>,
    /// The friction coefficient μ ≥ 0.
    pub friction: S,
}

impl<S: Scalar> Contact<S> {
    /// A contact.
    pub fn new(a: usize, b: usize, point: Point3<S>, normal: Vector3<S>, friction: S) -> Self {
        Contact { a, b, point, normal, friction }
    }
}

/// Bodies, gravity and contacts.
#[derive(Clone, Debug, PartialEq)]
pub struct System<S: Scalar> {
    /// The bodies.
    pub bodies: Vec<Body<S>>,
    /// Gravity's acceleration (on free bodies).
    pub gravity: Vector3<S>,
    /// The contacts.
    pub contacts: Vec<Contact<S>>,
    /// The tangential relative speed at or below which a contact is static (default 0).
    pub static_speed: S,
    /// The most solves the iteration makes (default 4 + 2 × the contacts: each contact can
    /// change state at most twice, static to dynamic to inactive).
    pub iteration_limit: usize,
}

impl<S: Scalar> System<S> {
    /// A system with the default static speed (0) and iteration limit.
    pub fn new(bodies: Vec<Body<S>>, gravity: Vector3<S>, contacts: Vec<Contact<S>>) -> Self {
        let iteration_limit = 4 + 2 * contacts.len();
        System { bodies, gravity, contacts, static_speed: S::zero(), iteration_limit }
    }
}

/// A contact's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Not sliding: three unknown force components.
    Static,
    /// Sliding: the friction force is μ times the normal force, against the sliding.
    Dynamic,
    /// Separating: no force.
    Inactive,
}

impl State {
    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            State::Static => "static",
            State::Dynamic => "dynamic",
            State::Inactive => "inactive",
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<S: Scalar> {
    /// The force on body `a` at each contact (world frame; zero for an inactive contact).
    pub forces: Vec<Vector3<S>>,
    /// Each contact's final state.
    pub states: Vec<State>,
    /// Solves made.
    pub iterations: usize,
    /// Whether the last solve's forces are all valid (nonnegative normal forces, static forces
    /// in their cones); `false`: the iteration limit was reached, and the forces are the last
    /// solve's.
    pub converged: bool,
    /// The rank of the last solve's `A`: below its column count, the forces are indeterminate
    /// and the answer is the minimum-norm one.
    pub rank: usize,
    /// Every solve's states and rank, in order (the last is `states` and `rank`): the path the
    /// iteration took. Two runs with the same final states may have reached them by other
    /// paths (a contact made dynamic along another tangential force), so the final forces of
    /// two backends are comparable only when their paths are the same.
    pub path: Vec<Step>,
}

/// One solve of the iteration: the contacts' states it solved for, and its `A`'s rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Each contact's state in this solve.
    pub states: Vec<State>,
    /// The rank of this solve's `A`.
    pub rank: usize,
}

/// Why a system has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ForcesError {
    /// A body's data is invalid.
    #[error("body {body}: {why}")]
    Body {
        /// Which.
        body: usize,
        /// What is wrong.
        why: String,
    },
    /// A setting of the system (`gravity`, `static_speed`) is invalid.
    #[error("{field}: {why}")]
    Setting {
        /// Which.
        field: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A contact's data is invalid.
    #[error("contact {contact}: {why}")]
    Contact {
        /// Which.
        contact: usize,
        /// What is wrong.
        why: String,
    },
    /// An exact backend needs a unit vector whose length is irrational.
    #[error("contact {contact}: the length of its {what} is irrational, so its unit vector is not exact (use a rational length, e.g. Pythagorean components)")]
    IrrationalLength {
        /// Which contact.
        contact: usize,
        /// The normal, the sliding velocity or the static tangential force.
        what: &'static str,
    },
    /// `A f = −b` has no solution (b is not in A's column space): the method's assumption fails.
    #[error("iteration {iteration}: A f = -b is inconsistent (b is not in the column space of A)")]
    Inconsistent {
        /// The solve (1-based) that found it.
        iteration: usize,
    },
    /// A decision the backend could not make.
    #[error("undecided: {0:?}")]
    Uncertain(Uncertain),
    /// The query's budget ran out.
    #[error("the query's {0:?} limit was reached")]
    Limit(crate::budget::Limit),
    /// A matrix and its right side that do not fit ([`min_norm`]'s arguments).
    #[error("{entries} entries for a {rows} × {cols} matrix, {right} for its right side")]
    Dimensions {
        /// The matrix's entries given.
        entries: usize,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The right side's entries given.
        right: usize,
    },
}

impl From<Uncertain> for ForcesError {
    fn from(u: Uncertain) -> Self {
        match u {
            Uncertain::Exhausted(l) => ForcesError::Limit(l),
            u => ForcesError::Uncertain(u),
        }
    }
}

impl From<crate::budget::Limit> for ForcesError {
    fn from(l: crate::budget::Limit) -> Self {
        ForcesError::Limit(l)
    }
}

/// Whether the symmetric `j`'s own numbers (converted exactly) are positive definite, by
/// Sylvester's leading principal minors in rational arithmetic.
fn positive_definite_exactly<S: Scalar>(j: &Matrix3<S>) -> bool {
    use num_traits::Signed;
    let Some(r) = j.iter().map(|x| x.to_rational()).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let r = Matrix3::from_column_slice(&r);
    let m2 = &r[(0, 0)] * &r[(1, 1)] - &r[(0, 1)] * &r[(1, 0)];
    r[(0, 0)].is_positive() && m2.is_positive() && det3(&r).is_positive()
}

/// The sign of `v` against magnitude `m` (the backend's tolerance; exact backends decide
/// exactly).
fn sign<S: Scalar>(v: &S, m: &S) -> Decision<Sign> {
    v.sign_scaled(|| m.clone())
}

/// The square root of `x ≥ 0`: exact when the backend's values are exact and `x` is a square
/// rational (`None` otherwise), binary64's otherwise.
fn root<S: Scalar>(x: &S) -> Option<S> {
    if S::EXACT_VALUES {
        crate::scalar::rational_sqrt(&x.to_backend()).map(|r| r.to_backend())
    } else {
        S::from_f64(x.to_f64().max(0.0).sqrt()).ok()
    }
}

/// The unit vector along `v`, or `None` when its length is irrational on an exact backend.
fn unit<S: Scalar>(v: &Vector3<S>) -> Option<Vector3<S>> {
    let l = root(&v.dot(v))?;
    Some(v.map(|c| c / l.clone()))
}

/// A body's per-solve data: inverse mass, world inverse inertia, and the velocity-dependent
/// acceleration of its points (without contact forces), each with the magnitude of its terms.
struct Kinematics<S: Scalar> {
    inv_mass: S,
    inv_inertia: Matrix3<S>,
    /// The centre's acceleration without contact forces (gravity; zero when fixed).
    accel: Vector3<S>,
    /// The angular acceleration without contact forces (−I⁻¹ (ω × I ω); zero when fixed).
    alpha: Vector3<S>,
    /// The magnitude of `inv_inertia`'s entries: |R| |J⁻¹| |Rᵀ| with |J⁻¹| inflated by J's
    /// condition number ‖J‖∞ ‖J⁻¹‖∞ (the inversion's error).
    inv_inertia_m: Matrix3<S>,
    /// The magnitude of `alpha`'s terms.
    alpha_m: Vector3<S>,
}

fn abs3<S: Scalar>(v: &Vector3<S>) -> Vector3<S> {
    v.map(|c| c.abs())
}

fn abs33<S: Scalar>(m: &Matrix3<S>) -> Matrix3<S> {
    m.map(|c| c.abs())
}

/// The termwise magnitude of `a × b` from magnitudes of `a` and `b` (non-negative vectors).
fn cross_m<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Vector3<S> {
    Vector3::new(
        a.y.clone() * b.z.clone() + a.z.clone() * b.y.clone(),
        a.z.clone() * b.x.clone() + a.x.clone() * b.z.clone(),
        a.x.clone() * b.y.clone() + a.y.clone() * b.x.clone(),
    )
}

/// The ∞-norm of a 3×3 matrix.
fn norm_inf<S: Scalar>(m: &Matrix3<S>) -> S {
    (0..3).map(|r| (0..3).fold(S::zero(), |acc, c| acc + m[(r, c)].abs())).fold(S::zero(), larger)
}

fn larger<S: Scalar>(a: S, b: S) -> S {
    if b.compare(&a) == Ok(std::cmp::Ordering::Greater) {
        b
    } else {
        a
    }
}

fn validate<S: Scalar>(system: &System<S>) -> Result<Vec<Kinematics<S>>, ForcesError> {
    let bodies = &system.bodies;
    let err = |body: usize, why: &str| ForcesError::Body { body, why: why.into() };
    let finite3 = |v: &Vector3<S>| v.iter().all(|c| c.finite());
    if !finite3(&system.gravity) {
        return Err(ForcesError::Setting { field: "gravity", why: "a component is not finite".into() });
    }
    if !system.static_speed.finite() || sign(&system.static_speed, &system.static_speed.abs())? == Sign::Negative {
        return Err(ForcesError::Setting { field: "static_speed", why: "it is negative or not finite".into() });
    }
    let mut out = Vec::with_capacity(bodies.len());
    for (i, b) in bodies.iter().enumerate() {
        crate::budget::tick()?;
        let all = [&b.position.coords, &b.linear, &b.angular];
        if !all.iter().all(|v| finite3(v))
            || !b.rotation.iter().all(|c| c.finite())
            || !b.inertia.iter().all(|c| c.finite())
            || !b.mass.finite()
        {
            return Err(err(i, "a value is not finite"));
        }
        // Rᵀ R = I (within the backend's tolerance).
        let rtr = b.rotation.transpose() * b.rotation.clone();
        for r in 0..3 {
            for c in 0..3 {
                let e = if r == c { S::one() } else { S::zero() };
                let m = (0..3).fold(S::zero(), |acc, k| acc + b.rotation[(k, r)].abs() * b.rotation[(k, c)].abs());
                if sign(&(rtr[(r, c)].clone() - e), &(m + S::one()))? != Sign::Zero {
                    return Err(err(i, "its rotation is not orthonormal"));
                }
            }
        }
        if b.fixed {
            out.push(Kinematics {
                inv_mass: S::zero(),
                inv_inertia: Matrix3::zeros(),
                accel: Vector3::zeros(),
                alpha: Vector3::zeros(),
                inv_inertia_m: Matrix3::zeros(),
                alpha_m: Vector3::zeros(),
            });
            continue;
        }
        if sign(&b.mass, &b.mass.abs())? != Sign::Positive {
            return Err(err(i, "its mass is not positive"));
        }
        let j = &b.inertia;
        for r in 0..3 {
            for c in 0..r {
                if j[(r, c)] != j[(c, r)] {
                    return Err(err(i, "its inertia is not symmetric"));
                }
            }
        }
        // Positive definite: leading principal minors positive (Sylvester).
        let m2 = j[(0, 0)].clone() * j[(1, 1)].clone() - j[(0, 1)].clone() * j[(1, 0)].clone();
        let det = det3(j);
        let m2m = j[(0, 0)].abs() * j[(1, 1)].abs() + j[(0, 1)].abs() * j[(1, 0)].abs();
        if sign(&j[(0, 0)], &j[(0, 0)].abs())? != Sign::Positive
            || sign(&m2, &m2m)? != Sign::Positive
            || sign(&det, &crate::geom::permanent3(&j.map(|x| x.abs())))? != Sign::Positive
        {
            // On a tolerant backend the minors of a tiny inertia underflow (a subnormal
            // inertia's products are zero in binary64): a range failure, not an invalid input,
            // when the input's own numbers are positive definite.
            if !S::CERTAIN_DECISIONS && !S::EXACT_VALUES && positive_definite_exactly(j) {
                return Err(ForcesError::Uncertain(crate::scalar::Uncertain::Overflow));
            }
            return Err(err(i, "its inertia is not positive definite"));
        }
        let inv_body = adjugate3(j).map(|x| x / det.clone());
        let inv_inertia = b.rotation.clone() * inv_body.clone() * b.rotation.transpose();
        let world = b.rotation.clone() * j.clone() * b.rotation.transpose();
        let w = &b.angular;
        let alpha = -(inv_inertia.clone() * w.cross(&(world * w.clone())));
        // Magnitudes.
        let rm = abs33(&b.rotation);
        let kappa = norm_inf(j) * norm_inf(&inv_body);
        let inv_inertia_m = rm.clone() * abs33(&inv_body).map(|x| x * kappa.clone()) * rm.transpose();
        let world_m = rm.clone() * abs33(j) * rm.transpose();
        let wm = abs3(w);
        let alpha_m = inv_inertia_m.clone() * cross_m(&wm, &(world_m * wm.clone()));
        out.push(Kinematics {
            inv_mass: S::one() / b.mass.clone(),
            inv_inertia,
            accel: system.gravity.clone(),
            alpha,
            inv_inertia_m,
            alpha_m,
        });
    }
    for (k, c) in system.contacts.iter().enumerate() {
        let err = |why: &str| ForcesError::Contact { contact: k, why: why.into() };
        if c.a >= bodies.len() || c.b >= bodies.len() {
            return Err(err("its body index is out of range"));
        }
        if c.a == c.b {
            return Err(err("its bodies are the same"));
        }
        if bodies[c.a].fixed && bodies[c.b].fixed {
            return Err(err("both its bodies are fixed"));
        }
        if !finite3(&c.point.coords) || !finite3(&c.normal) || !c.friction.finite() {
            return Err(err("a value is not finite"));
        }
        if crate::geom::is_zero_vector(&c.normal)? {
            return Err(err("its normal is zero"));
        }
        if sign(&c.friction, &c.friction.abs())? == Sign::Negative {
            return Err(err("its friction coefficient is negative"));
        }
    }
    Ok(out)
}

/// The velocity of body `b`'s material point at `p`.
fn point_velocity<S: Scalar>(b: &Body<S>, p: &Point3<S>) -> Vector3<S> {
    b.linear.clone() + b.angular.cross(&(p - &b.position))
}

/// The magnitude of [`point_velocity`]'s terms.
fn point_velocity_m<S: Scalar>(b: &Body<S>, p: &Point3<S>) -> Vector3<S> {
    abs3(&b.linear) + cross_m(&abs3(&b.angular), &lever_m(b, p))
}

/// The magnitude of the lever `p − x`'s terms: |p| + |x| (its rounding is relative to these).
fn lever_m<S: Scalar>(b: &Body<S>, p: &Point3<S>) -> Vector3<S> {
    abs3(&p.coords) + abs3(&b.position.coords)
}

/// A contact's unknowns: the static one's three, or the dynamic one's direction `n̂ + μ d̂`
/// with the error bound of its components (in the units of the forces' error scale: a
/// tolerant backend's components are within its relative tolerance times it).
#[derive(Clone, Debug)]
enum Mode<S: Scalar> {
    Static,
    Dynamic(Vector3<S>, S),
    Inactive,
}

impl<S: Scalar> Mode<S> {
    fn state(&self) -> State {
        match self {
            Mode::Static => State::Static,
            Mode::Dynamic(..) => State::Dynamic,
            Mode::Inactive => State::Inactive,
        }
    }
}

/// The dynamic direction n̂ + μ d̂ for a unit friction direction along `along` (nonzero), and
/// the error bound of its components when each component of `along` is within `along_error`
/// of the exact one: ‖δ(t/‖t‖)‖ ≤ 2 ‖δt‖ / ‖t‖, with ‖δt‖ ≤ √3 · `along_error` ≤ 2 ·
/// `along_error` (the unit normal's own rounding is the input's, relative to its magnitude).
fn dynamic_direction<S: Scalar>(
    c: &Contact<S>,
    k: usize,
    along: &Vector3<S>,
    along_error: S,
    what: &'static str,
) -> Result<Mode<S>, ForcesError> {
    let n = unit(&c.normal).ok_or(ForcesError::IrrationalLength { contact: k, what: "normal" })?;
    let length = root(&along.dot(along)).ok_or(ForcesError::IrrationalLength { contact: k, what })?;
    let d = along.map(|x| x / length.clone());
    let four = S::from_f64(4.0).map_err(|_| ForcesError::Uncertain(Uncertain::Overflow))?;
    let error = c.friction.abs() * four * along_error / length;
    Ok(Mode::Dynamic(n + d * c.friction.clone(), error))
}

/// The skew matrix [r]× with [r]× v = r × v.
fn skew<S: Scalar>(r: &Vector3<S>) -> Matrix3<S> {
    Matrix3::new(
        S::zero(),
        -r.z.clone(),
        r.y.clone(),
        r.z.clone(),
        S::zero(),
        -r.x.clone(),
        -r.y.clone(),
        r.x.clone(),
        S::zero(),
    )
}

/// The factors of the acceleration of a body's point `p` per unit force applied to it at `q`,
/// f/m − [p − x]× (I⁻¹ [q − x]×) f: for one contact point, its lever's skew matrix (the left
/// factor when the point is `p`) and `I⁻¹` times it (the right factor when it is `q`), with
/// the magnitudes of their terms. Computed once per contact and body, so that a pair of
/// contacts costs one 3×3 product.
struct Lever<S: Scalar> {
    left: Matrix3<S>,
    right: Matrix3<S>,
    left_m: Matrix3<S>,
    right_m: Matrix3<S>,
}

fn lever<S: Scalar>(kin: &Kinematics<S>, body: &Body<S>, p: &Point3<S>) -> Lever<S> {
    let left = skew(&(p - &body.position));
    let right = kin.inv_inertia.clone() * left.clone();
    let left_m = abs33(&skew(&lever_m(body, p)));
    let right_m = kin.inv_inertia_m.clone() * left_m.clone();
    Lever { left, right, left_m, right_m }
}

/// The acceleration of body `i`'s point `p` per unit force `f` applied to it at `q`:
/// f/m − [p − x]× I⁻¹ [q − x]× f, as a 3×3 matrix, and the magnitude of its terms, from the
/// points' [`Lever`]s.
fn response<S: Scalar>(kin: &Kinematics<S>, p: &Lever<S>, q: &Lever<S>) -> (Matrix3<S>, Matrix3<S>) {
    let value = Matrix3::identity() * kin.inv_mass.clone() - p.left.clone() * q.right.clone();
    let magnitude = Matrix3::identity() * kin.inv_mass.abs() + p.left_m.clone() * q.right_m.clone();
    (value, magnitude)
}

/// Body `i`'s point `p`'s acceleration without contact forces, and the magnitude of its terms.
fn free_acceleration<S: Scalar>(kin: &Kinematics<S>, body: &Body<S>, p: &Point3<S>) -> (Vector3<S>, Vector3<S>) {
    let r = p - &body.position;
    let w = &body.angular;
    let value = kin.accel.clone() + kin.alpha.cross(&r) + w.cross(&w.cross(&r));
    let (rm, wm) = (lever_m(body, p), abs3(w));
    let magnitude = abs3(&kin.accel) + cross_m(&kin.alpha_m, &rm) + cross_m(&wm, &cross_m(&wm, &rm));
    (value, magnitude)
}

/// A (rows × cols, row-major) and b of Eq. (2) for the contacts' modes, with the magnitudes of
/// their entries' terms (what bounds their rounding on a tolerant backend).
pub(crate) struct Equations<S> {
    pub rows: usize,
    pub cols: usize,
    pub a: Vec<S>,
    pub b: Vec<S>,
    /// The largest magnitude of an entry of `a`.
    pub a_m: S,
    /// The largest magnitude of an entry of `b`.
    pub b_m: S,
}

fn equations<S: Scalar>(
    system: &System<S>,
    kin: &[Kinematics<S>],
    modes: &[Mode<S>],
) -> Result<Equations<S>, ForcesError> {
    let contacts = &system.contacts;
    // Per active contact: its row directions (the axes, or the normal) and column directions.
    let axes: [Vector3<S>; 3] = [Vector3::x(), Vector3::y(), Vector3::z()];
    // (contact, direction, the axis when the direction is one: its entry is read directly).
    let mut row_dirs: Vec<(usize, Vector3<S>, Option<usize>)> = Vec::new();
    let mut col_dirs: Vec<(usize, Vector3<S>, Option<usize>)> = Vec::new();
    for (k, m) in modes.iter().enumerate() {
        match m {
            Mode::Static => {
                for (i, e) in axes.iter().enumerate() {
                    row_dirs.push((k, e.clone(), Some(i)));
                    col_dirs.push((k, e.clone(), Some(i)));
                }
            }
            Mode::Dynamic(d, _) => {
                // The normal row scaled to a largest component of 1 (exact: a rational factor):
                // the same solutions, a better conditioned A for any length of normal.
                let n = &contacts[k].normal;
                let big = n.iter().map(|x| x.abs()).fold(S::zero(), larger);
                row_dirs.push((k, n.map(|x| x / big.clone()), None));
                col_dirs.push((k, d.clone(), None));
            }
            Mode::Inactive => {}
        }
    }
    let (rows, cols) = (row_dirs.len(), col_dirs.len());
    crate::budget::reserve_for(&Vec::<S>::new(), rows.saturating_mul(cols).saturating_mul(2))?;
    // K[k][j]: the relative acceleration at contact k per unit force at contact j (3×3), and
    // its magnitude.
    let active: Vec<usize> = (0..contacts.len()).filter(|&k| !matches!(modes[k], Mode::Inactive)).collect();
    // A block and its magnitude.
    type Block<S> = Option<(Matrix3<S>, Matrix3<S>)>;
    let mut blocks: Vec<Vec<Block<S>>> = vec![vec![None; contacts.len()]; contacts.len()];
    // Each active contact's levers on its free bodies (a, then b).
    let mut levers: Vec<[Option<Lever<S>>; 2]> = Vec::with_capacity(contacts.len());
    for (k, c) in contacts.iter().enumerate() {
        let side = |body: usize| {
            (!matches!(modes[k], Mode::Inactive) && !system.bodies[body].fixed)
                .then(|| lever(&kin[body], &system.bodies[body], &c.point))
        };
        levers.push([side(c.a), side(c.b)]);
    }
    let lever_of = |k: usize, body: usize| -> Option<&Lever<S>> {
        let c = &contacts[k];
        if c.a == body {
            levers[k][0].as_ref()
        } else if c.b == body {
            levers[k][1].as_ref()
        } else {
            None
        }
    };
    for &k in &active {
        for &j in &active {
            crate::budget::tick()?;
            let (ck, cj) = (&contacts[k], &contacts[j]);
            let mut m: Matrix3<S> = Matrix3::zeros();
            let mut mm: Matrix3<S> = Matrix3::zeros();
            let mut any = false;
            for (body, sk) in [(ck.a, true), (ck.b, false)] {
                if system.bodies[body].fixed {
                    continue;
                }
                let sj = if cj.a == body {
                    true
                } else if cj.b == body {
                    false
                } else {
                    continue;
                };
                let (Some(lk), Some(lj)) = (lever_of(k, body), lever_of(j, body)) else { continue };
                let (r, rm) = response(&kin[body], lk, lj);
                m = if sk == sj { m + r } else { m - r };
                mm += rm;
                any = true;
            }
            if any {
                blocks[k][j] = Some((m, mm));
            }
        }
    }
    let mut a = Vec::with_capacity(rows * cols);
    let mut a_m = S::zero();
    for (k, rd, ri) in &row_dirs {
        for (j, cd, ci) in &col_dirs {
            a.push(match (&blocks[*k][*j], ri, ci) {
                (Some((m, mm)), Some(r), Some(c)) => {
                    a_m = larger(a_m, mm[(*r, *c)].clone());
                    m[(*r, *c)].clone()
                }
                (Some((m, mm)), _, _) => {
                    // A dynamic column's direction errs by its bound in each component: the
                    // entry's magnitude takes it as part of the direction's.
                    let err = match &modes[*j] {
                        Mode::Dynamic(_, error) => error.clone(),
                        _ => S::zero(),
                    };
                    let cm = abs3(cd).map(|x| x + err.clone());
                    a_m = larger(a_m, abs3(rd).dot(&(mm * cm)));
                    rd.dot(&(m * cd.clone()))
                }
                (None, _, _) => S::zero(),
            });
        }
    }
    let mut b = Vec::with_capacity(rows);
    let mut b_m = S::zero();
    for (k, rd, _) in &row_dirs {
        let c = &contacts[*k];
        let (ba, bb) = (&system.bodies[c.a], &system.bodies[c.b]);
        let (fa, fam) = free_acceleration(&kin[c.a], ba, &c.point);
        let (fb, fbm) = free_acceleration(&kin[c.b], bb, &c.point);
        b.push(rd.dot(&(fa - fb)));
        b_m = larger(b_m, abs3(rd).dot(&(fam + fbm)));
    }
    Ok(Equations { rows, cols, a, b, a_m, b_m })
}

/// The factor by which the stated error bound of the forces exceeds the first-order error of a
/// backward-stable solve (room for the constants the bound leaves out).
pub const ERROR_FACTOR: f64 = 16.0;

/// The sign tests and error scales behind a [`Solution`], for the agreement contract between
/// backends: each decision with the magnitude that bounds a tolerant backend's error on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace<S: Scalar> {
    /// Every decision, in the order made: the static speed tests, then per solve the rank test
    /// and each active contact's force tests.
    pub decisions: Vec<crate::geom::Scaled<S>>,
    /// The error scale of the last solve's forces: a tolerant backend's forces lie within its
    /// relative tolerance times this of the exact ones (see [`solve_traced`]).
    pub force_magnitude: S,
}

/// The contact forces of `system` by the SVD method (see the [module docs](self)).
///
/// Errors: invalid bodies or contacts (naming the element), an irrational unit vector on an
/// exact backend, an inconsistent system, an undecided comparison, a resource limit.
pub fn solve<S: Scalar>(system: &System<S>) -> Result<Solution<S>, ForcesError> {
    solve_traced(system).map(|(s, _)| s)
}

/// [`solve`], with the decisions made and the error scale of the forces ([`Trace`]).
///
/// The error model, per solve: with `‖A‖` the largest entry of `A`, `A_m` and `b_m` the
/// largest magnitudes of the terms of an entry of `A` and of `b` (relative to which their
/// rounding is bounded), `F` the largest force component and `c` the solve's conditioning (at
/// least (σ₁/σ_r)², exact on exact backends: see [`min_norm`]), a backward-stable solve's forces
/// are within a small multiple of `u · E` of the exact ones, with
///
/// > E = [`ERROR_FACTOR`] · c · (rows + cols) · (F · A_m + b_m) / ‖A‖.
///
/// A force's sign tests carry `E` in their magnitudes (so an exact zero normal force is zero on
/// `f64` too, and the margin sees how close a decision is at the forces' precision), and the
/// rank test has value 1 and magnitude `ERROR_FACTOR · c · (rows + cols) · A_m / ‖A‖`: its
/// margin is small exactly when `A` is within rounding of a rank change. `f64` drops singular
/// values at most `max(SVD_CUTOFF, ERROR_FACTOR · (rows + cols) · u · A_m / ‖A‖) · σ₁`.
pub fn solve_traced<S: Scalar>(system: &System<S>) -> Result<(Solution<S>, Trace<S>), ForcesError> {
    let kin = validate(system)?;
    let contacts = &system.contacts;
    let mut decisions = Vec::new();
    // A test whose terms are all exactly zero is zero on every backend (nothing to round): it
    // is decided, not close, and is not recorded.
    let mut decide = |value: S, magnitude: S| -> Result<Sign, ForcesError> {
        let s = sign(&value, &magnitude)?;
        if magnitude.sign_scaled(|| magnitude.abs()) != Ok(Sign::Zero) {
            decisions.push(crate::geom::Scaled { value, magnitude });
        }
        Ok(s)
    };
    let factor = S::from_f64(ERROR_FACTOR).map_err(|_| ForcesError::Uncertain(Uncertain::Overflow))?;
    // Initial states by the tangential relative speed.
    let mut modes: Vec<Mode<S>> = Vec::with_capacity(contacts.len());
    for (k, c) in contacts.iter().enumerate() {
        let (ba, bb) = (&system.bodies[c.a], &system.bodies[c.b]);
        let v = point_velocity(ba, &c.point) - point_velocity(bb, &c.point);
        let vm = point_velocity_m(ba, &c.point) + point_velocity_m(bb, &c.point);
        let nn = c.normal.dot(&c.normal);
        let nm = abs3(&c.normal);
        // The tangential part, scaled by |n|²: |n|² v − (v·n) n.
        let t = v.clone() * nn.clone() - c.normal.clone() * v.dot(&c.normal);
        let tm = vm.clone() * nn.clone() + nm.clone() * vm.dot(&nm);
        // Static when |t|² ≤ s² |n|⁴.
        let s2 = system.static_speed.clone() * system.static_speed.clone() * nn.clone() * nn.clone();
        let excess = t.dot(&t) - s2.clone();
        let m = tm.dot(&tm) + s2;
        modes.push(if decide(excess, m)? == Sign::Positive {
            // The tangential velocity's components err relative to their terms' magnitudes.
            let t_error = tm.iter().cloned().fold(S::zero(), larger);
            dynamic_direction(c, k, &(-t), t_error, "sliding velocity")?
        } else {
            Mode::Static
        });
    }
    let mut iterations = 0;
    let mut path = Vec::new();
    loop {
        iterations += 1;
        let eq = equations(system, &kin, &modes)?;
        let size = S::from_f64((eq.rows + eq.cols) as f64).map_err(|_| ForcesError::Uncertain(Uncertain::Overflow))?;
        let a_max = eq.a.iter().map(|x| x.abs()).fold(S::zero(), larger);
        // A_m / ‖A‖ (1 when A is zero: nothing to lose).
        let spread = if a_max == S::zero() { S::one() } else { eq.a_m.clone() / a_max.clone() };
        let cutoff = SVD_CUTOFF.max(ERROR_FACTOR * (eq.rows + eq.cols) as f64 * S::UNIT_ROUNDOFF * spread.to_f64());
        let (f, rank, conditioning) = match solve::solve_ranked(&eq.a, eq.rows, eq.cols, &eq.b, cutoff)? {
            solve::Ranked::Solution { f, rank, conditioning } => (f, rank, conditioning),
            solve::Ranked::Inconsistent => return Err(ForcesError::Inconsistent { iteration: iterations }),
        };
        decide(S::one(), factor.clone() * conditioning.clone() * size.clone() * spread.clone())?;
        let big = f.iter().map(|x| x.abs()).fold(S::zero(), larger);
        let solve_error = if a_max == S::zero() {
            eq.b_m.clone()
        } else {
            factor.clone() * conditioning * size * (big * eq.a_m.clone() + eq.b_m.clone()) / a_max
        };
        // The forces, and the contacts whose forces are invalid. A dynamic force λ d errs by
        // λ δd besides d δλ: its direction's own error, which comes from an earlier solve's
        // forces (or the velocities) and is not the solve's.
        let mut forces = vec![Vector3::zeros(); contacts.len()];
        let mut direction_error = S::zero();
        let mut col = 0;
        for (k, m) in modes.iter().enumerate() {
            match m {
                Mode::Static => {
                    forces[k] = Vector3::new(f[col].clone(), f[col + 1].clone(), f[col + 2].clone());
                    col += 3;
                }
                Mode::Dynamic(d, error) => {
                    forces[k] = d.clone() * f[col].clone();
                    direction_error = larger(direction_error, f[col].abs() * error.clone());
                    col += 1;
                }
                Mode::Inactive => {}
            }
        }
        let e = solve_error + direction_error;
        path.push(Step { states: modes.iter().map(Mode::state).collect(), rank });
        let mut changed = false;
        let mut next = modes.clone();
        for (k, m) in modes.iter().enumerate() {
            if matches!(m, Mode::Inactive) {
                continue;
            }
            let c = &contacts[k];
            let fk = &forces[k];
            let nm = abs3(&c.normal);
            let n1 = nm.iter().fold(S::zero(), |acc, x| acc + x.clone());
            let fa = abs3(fk);
            let f1 = fa.iter().fold(S::zero(), |acc, x| acc + x.clone());
            // A force's components are within E of the exact ones: a test's magnitude is its
            // terms' plus E times its derivative's bound (first order in E).
            let fnn = fk.dot(&c.normal);
            let negative = decide(fnn.clone(), fa.dot(&nm) + n1.clone() * e.clone())? == Sign::Negative;
            match m {
                Mode::Inactive => {}
                _ if negative => {
                    next[k] = Mode::Inactive;
                    changed = true;
                }
                Mode::Dynamic(..) => {}
                Mode::Static => {
                    // In the cone: |n|²|f|² − (f·n)² ≤ μ² (f·n)².
                    let nn = c.normal.dot(&c.normal);
                    let ff = fk.dot(fk);
                    let mu2 = c.friction.clone() * c.friction.clone();
                    let excess = nn.clone() * ff.clone() - fnn.clone() * fnn.clone() * (S::one() + mu2.clone());
                    let two = S::one() + S::one();
                    let m = nn.abs() * fa.dot(&fa)
                        + sq(fa.dot(&nm)) * (S::one() + mu2.abs())
                        + two * e.clone() * (nn.abs() * f1.clone() + (S::one() + mu2.abs()) * fnn.abs() * n1.clone());
                    if decide(excess, m)? == Sign::Positive {
                        // Friction along the static tangential force: |n|² f − (f·n) n.
                        // Its components err by E |n|² + |nᵢ| E ‖n‖₁ from the force's error, and
                        // by their terms' magnitudes from its own rounding.
                        let n_inf = nm.iter().cloned().fold(S::zero(), larger);
                        let t_m = fa.map(|x| x * nn.abs()) + nm.map(|x| x * fa.dot(&nm));
                        let t_error =
                            e.clone() * (nn.abs() + n_inf * n1.clone()) + t_m.iter().cloned().fold(S::zero(), larger);
                        let t = fk.clone() * nn - c.normal.clone() * fnn;
                        next[k] = dynamic_direction(c, k, &t, t_error, "static tangential force")?;
                        changed = true;
                    }
                }
            }
        }
        if !changed || iterations >= system.iteration_limit {
            let states = modes.iter().map(Mode::state).collect();
            let solution = Solution { forces, states, iterations, converged: !changed, rank, path };
            return Ok((solution, Trace { decisions, force_magnitude: e }));
        }
        modes = next;
    }
}

fn sq<S: Scalar>(x: S) -> S {
    x.clone() * x
}
