//! Contact forces by the SVD method (Mirtich 1998 §4.2): Fig. 7's table, the table with its
//! centre of mass moved (checked against the minimum-norm solution of the equilibrium
//! equations, computed independently here), a box on an incline that stays or slides by its
//! friction coefficient, a stack of boxes (rank-deficient A), contacts that separate, typed
//! errors; f64 against exact within the stated bound.

use num_rational::BigRational;
use num_traits::{One, Zero};
use touchstone::forces::{solve, Body, Contact, ForcesError, Solution, State, System};
use touchstone::geom::{Matrix3, Point3, Vector3};

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn v(x: Q, y: Q, z: Q) -> Vector3<Q> {
    Vector3::new(x, y, z)
}

fn p(x: Q, y: Q, z: Q) -> Point3<Q> {
    Point3::new(x, y, z)
}

/// A free box of mass `m` centred at `c` (inertia of a 2 × 2 × 2 box: m·8/12 on the diagonal).
fn boxed(m: Q, c: Point3<Q>) -> Body<Q> {
    let i = m.clone() * r(2, 3);
    Body::free(m, Matrix3::from_diagonal_element(i), c)
}

/// Contacts at the four corners (±1, ±1) of height `z` (normal +z), a on b.
fn corners(a: usize, b: usize, x0: Q, y0: Q, z: Q, mu: Q) -> Vec<Contact<Q>> {
    [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        .into_iter()
        .map(|(x, y)| {
            Contact::new(a, b, p(x0.clone() + q(x), y0.clone() + q(y), z.clone()), v(q(0), q(0), q(1)), mu.clone())
        })
        .collect()
}

fn to_f64(s: &System<Q>) -> System<f64> {
    let c = |x: &Q| num_traits::ToPrimitive::to_f64(x).unwrap();
    System {
        bodies: s
            .bodies
            .iter()
            .map(|b| Body {
                mass: c(&b.mass),
                inertia: b.inertia.map(|x| c(&x)),
                rotation: b.rotation.map(|x| c(&x)),
                position: b.position.map(|x| c(&x)),
                linear: b.linear.map(|x| c(&x)),
                angular: b.angular.map(|x| c(&x)),
                fixed: b.fixed,
            })
            .collect(),
        gravity: s.gravity.map(|x| c(&x)),
        contacts: s
            .contacts
            .iter()
            .map(|k| Contact::new(k.a, k.b, k.point.map(|x| c(&x)), k.normal.map(|x| c(&x)), c(&k.friction)))
            .collect(),
        static_speed: c(&s.static_speed),
        iteration_limit: s.iteration_limit,
    }
}

/// The stated bound: with the same states, every f64 force component is within 10⁻⁹ of the
/// largest exact force component (these systems are well conditioned).
fn agrees(exact: &Solution<Q>, system: &System<Q>) {
    let fast = solve(&to_f64(system)).expect("an f64 answer");
    assert_eq!(fast.states, exact.states);
    assert_eq!(fast.converged, exact.converged);
    let big = exact.forces.iter().flat_map(|f| f.iter()).map(|x| x.to_f64_lossy().abs()).fold(0.0, f64::max);
    for (e, f) in exact.forces.iter().zip(&fast.forces) {
        for i in 0..3 {
            assert!((e[i].to_f64_lossy() - f[i]).abs() <= 1e-9 * big.max(1.0), "{e:?} vs {f:?}");
        }
    }
}

trait Lossy {
    fn to_f64_lossy(&self) -> f64;
}

impl Lossy for Q {
    fn to_f64_lossy(&self) -> f64 {
        num_traits::ToPrimitive::to_f64(self).unwrap()
    }
}

fn floor() -> Body<Q> {
    Body::fixed(p(q(0), q(0), q(0)))
}

/// Fig. 7: a table of weight w on four legs gets w/4 on each, with no tangential part.
#[test]
fn table_legs_each_carry_a_quarter_of_the_weight() {
    let table = boxed(q(3), p(q(0), q(0), q(2)));
    let system = System::new(vec![table, floor()], v(q(0), q(0), q(-10)), corners(0, 1, q(0), q(0), q(0), q(1)));
    let s = solve(&system).unwrap();
    assert!(s.converged);
    assert_eq!(s.iterations, 1);
    assert_eq!(s.states, vec![State::Static; 4]);
    for f in &s.forces {
        assert_eq!(*f, v(q(0), q(0), r(30, 4)));
    }
    agrees(&s, &system);
}

/// Gauss–Jordan over the rationals for an invertible square system (an independent solver).
fn solve_square(mut m: Vec<Vec<Q>>, mut rhs: Vec<Q>) -> Vec<Q> {
    let n = rhs.len();
    for c in 0..n {
        let p = (c..n).find(|&i| !m[i][c].is_zero()).expect("invertible");
        m.swap(c, p);
        rhs.swap(c, p);
        let d = m[c][c].clone();
        m[c] = m[c].iter().map(|x| x / &d).collect();
        rhs[c] = &rhs[c] / &d;
        let pivot = m[c].clone();
        for i in 0..n {
            if i != c && !m[i][c].is_zero() {
                let f = m[i][c].clone();
                m[i] = m[i].iter().zip(&pivot).map(|(x, y)| x - y * &f).collect();
                let t = &rhs[c] * &f;
                rhs[i] = &rhs[i] - t;
            }
        }
    }
    rhs
}

/// The table with its centre of mass off-centre: the exact answer is the minimum-norm
/// solution of the equilibrium equations (Σ f = −m g, Σ (pᵢ − c) × fᵢ = 0), f = Eᵀ (E Eᵀ)⁻¹ w,
/// computed here from those equations, not from accelerations.
#[test]
fn off_centre_table_gets_the_minimum_norm_equilibrium() {
    let (m, g) = (q(2), v(q(0), q(0), q(-10)));
    let c = p(r(1, 3), r(-1, 4), q(2));
    let system =
        System::new(vec![boxed(m.clone(), c.clone()), floor()], g.clone(), corners(0, 1, q(0), q(0), q(0), q(2)));
    let s = solve(&system).unwrap();
    assert!(s.converged);
    assert_eq!(s.states, vec![State::Static; 4]);
    // E: 6 × 12, f = (f0x, f0y, f0z, f1x, ...).
    let mut e = vec![vec![q(0); 12]; 6];
    for (k, contact) in system.contacts.iter().enumerate() {
        let rr = &contact.point - &c;
        for i in 0..3 {
            e[i][3 * k + i] = q(1);
        }
        // (r × f)_x = r_y f_z − r_z f_y, and so on.
        e[3][3 * k + 2] = rr.y.clone();
        e[3][3 * k + 1] = -rr.z.clone();
        e[4][3 * k] = rr.z.clone();
        e[4][3 * k + 2] = -rr.x.clone();
        e[5][3 * k + 1] = rr.x.clone();
        e[5][3 * k] = -rr.y.clone();
    }
    let w: Vec<Q> = vec![-(g.x.clone() * &m), -(g.y.clone() * &m), -(g.z.clone() * &m), q(0), q(0), q(0)];
    let eet: Vec<Vec<Q>> =
        (0..6).map(|i| (0..6).map(|j| (0..12).fold(q(0), |acc, k| acc + &e[i][k] * &e[j][k])).collect()).collect();
    let y = solve_square(eet, w);
    let f: Vec<Q> = (0..12).map(|k| (0..6).fold(q(0), |acc, i| acc + &e[i][k] * &y[i])).collect();
    for (k, force) in s.forces.iter().enumerate() {
        assert_eq!(*force, v(f[3 * k].clone(), f[3 * k + 1].clone(), f[3 * k + 2].clone()), "contact {k}");
    }
    // Not the symmetric answer: the legs nearer the centre of mass carry more.
    assert!(s.forces[1].z > s.forces[3].z);
    let total = s.forces.iter().fold(Vector3::zeros(), |acc, f| acc + f);
    assert_eq!(total, v(q(0), q(0), q(20)));
    agrees(&s, &system);
}

/// A box on an incline whose slope is 3/4 (gravity (−6, 0, −8) in the incline's frame): with
/// μ = 4 it stays (static, the forces balance the weight). The weight tips it down the slope:
/// the up-slope legs carry 1/2 of normal force each, the down-slope ones 7/2, and each leg 3/2
/// of tangential force, so with μ = 2 the up-slope legs leave their cones though the sum is
/// well inside (the method's cones are per contact) and turn dynamic. With μ = 1/2 the static
/// forces leave
/// the cone, every contact turns dynamic, and the forces' sum is the normal weight 8 with
/// friction μ·8 = 4 up the slope.
#[test]
fn box_on_an_incline_stays_or_slides_by_its_friction() {
    let g = v(q(-6), q(0), q(-8));
    let make = |mu: Q| {
        System::new(vec![boxed(q(1), p(q(0), q(0), q(1))), floor()], g.clone(), corners(0, 1, q(0), q(0), q(0), mu))
    };
    let stays = make(q(4));
    let s = solve(&stays).unwrap();
    assert!(s.converged);
    assert_eq!(s.states, vec![State::Static; 4]);
    let total = s.forces.iter().fold(Vector3::zeros(), |acc, f| acc + f);
    assert_eq!(total, v(q(6), q(0), q(8)));
    for f in &s.forces {
        // In the cone: |f_t| ≤ μ f_n.
        assert!(f.x.clone() * &f.x + &f.y * &f.y <= q(16) * &f.z * &f.z);
    }
    assert_eq!(s.forces[0], v(r(3, 2), q(0), r(7, 2)));
    assert_eq!(s.forces[1], v(r(3, 2), q(0), r(1, 2)));
    agrees(&s, &stays);

    let tipped = make(q(2));
    let s = solve(&tipped).unwrap();
    assert!(s.converged);
    assert_eq!(s.states, vec![State::Static, State::Dynamic, State::Dynamic, State::Static]);
    agrees(&s, &tipped);

    let slides = make(r(1, 2));
    let s = solve(&slides).unwrap();
    assert!(s.converged);
    // First the up-slope legs leave their cones (3/2 > 1/2 · 1/2), then, with those sliding,
    // the down-slope ones; the third solve is valid.
    assert_eq!(s.iterations, 3);
    assert_eq!(s.states, vec![State::Dynamic; 4]);
    let total = s.forces.iter().fold(Vector3::zeros(), |acc, f| acc + f);
    assert_eq!(total, v(q(4), q(0), q(8)));
    // The path: all static (12 unknowns, rank 6: a body's six equations), the up-slope legs
    // (1 and 2: x = +1, the side gravity's x pulls away from) sliding, then all four, whose
    // normal rows see three of the box's motions (lift, roll, pitch): rank 3.
    let (st, dy) = (State::Static, State::Dynamic);
    let path: Vec<(Vec<State>, usize)> = s.path.iter().map(|p| (p.states.clone(), p.rank)).collect();
    assert_eq!(path, vec![(vec![st; 4], 6), (vec![st, dy, dy, st], 6), (vec![dy; 4], 3)]);
    for f in &s.forces {
        // Each force is exactly on the cone, friction up the slope: f = λ (μ, 0, 1).
        assert_eq!(f.x.clone() * q(2), f.z);
        assert!(f.y.is_zero() && f.z > q(0));
    }
    agrees(&s, &slides);
}

/// Two boxes stacked on the floor: 24 unknowns, A of rank 12. The top contacts carry the top
/// box's weight, the floor's both boxes', a quarter at each corner.
#[test]
fn a_stack_of_boxes_shares_its_weight() {
    let bottom = boxed(q(1), p(q(0), q(0), q(1)));
    let top = boxed(q(1), p(q(0), q(0), q(3)));
    let mut contacts = corners(1, 0, q(0), q(0), q(2), q(1));
    contacts.extend(corners(0, 2, q(0), q(0), q(0), q(1)));
    let system = System::new(vec![bottom, top, floor()], v(q(0), q(0), q(-8)), contacts);
    let s = solve(&system).unwrap();
    assert!(s.converged);
    for (k, f) in s.forces.iter().enumerate() {
        let expected = if k < 4 { q(2) } else { q(4) };
        assert_eq!(*f, v(q(0), q(0), expected), "contact {k}");
    }
    agrees(&s, &system);
}

/// Gravity pulling the box off the floor: every normal force comes out negative, every contact
/// becomes inactive, and the forces are zero.
#[test]
fn contacts_that_would_pull_become_inactive() {
    let system = System::new(
        vec![boxed(q(1), p(q(0), q(0), q(1))), floor()],
        v(q(0), q(0), q(10)),
        corners(0, 1, q(0), q(0), q(0), q(1)),
    );
    let s = solve(&system).unwrap();
    assert!(s.converged);
    assert_eq!(s.iterations, 2);
    assert_eq!(s.states, vec![State::Inactive; 4]);
    assert!(s.forces.iter().all(|f| f.iter().all(|c| c.is_zero())));
    agrees(&s, &system);
}

/// A box sliding along the floor at speed 1 (dynamic from the start): friction against the
/// motion, μ times the weight.
#[test]
fn a_sliding_box_feels_friction_against_its_motion() {
    let mut b = boxed(q(1), p(q(0), q(0), q(1)));
    b.linear = v(q(1), q(0), q(0));
    let system = System::new(vec![b, floor()], v(q(0), q(0), q(-10)), corners(0, 1, q(0), q(0), q(0), r(1, 5)));
    let s = solve(&system).unwrap();
    assert!(s.converged);
    assert_eq!(s.states, vec![State::Dynamic; 4]);
    let total = s.forces.iter().fold(Vector3::zeros(), |acc, f| acc + f);
    assert_eq!(total, v(q(-2), q(0), q(10)));
    agrees(&s, &system);
}

/// A contact made dynamic along an earlier solve's static tangential force takes that force's
/// error with it: the friction direction t/‖t‖ errs by up to 2‖δt‖/‖t‖, and the next solve's
/// stated error scale covers λ μ times it. The μ = 1/2 incline: the first solve's up-slope legs
/// carry (3/2, 0, 1/2) with error scale E₁, so t = (3/2, 0, 0) errs by E₁ (|n|² + |n|∞‖n‖₁) = 2E₁
/// plus its own rounding (its terms' magnitude 3/2), and the second solve's scale is at least
/// λ · 4μ (2E₁ + 3/2)/(3/2) for each of them.
#[test]
fn a_friction_direction_carries_the_error_of_the_force_it_came_from() {
    let g = v(q(-6), q(0), q(-8));
    let mut system =
        System::new(vec![boxed(q(1), p(q(0), q(0), q(1))), floor()], g, corners(0, 1, q(0), q(0), q(0), r(1, 2)));
    system.iteration_limit = 1;
    let (first, t1) = touchstone::forces::solve_traced(&system).unwrap();
    assert_eq!(first.forces[1], v(r(3, 2), q(0), r(1, 2)));
    assert_eq!(first.forces[2], v(r(3, 2), q(0), r(1, 2)));
    system.iteration_limit = 2;
    let (second, t2) = touchstone::forces::solve_traced(&system).unwrap();
    assert_eq!(second.states, vec![State::Static, State::Dynamic, State::Dynamic, State::Static]);
    let direction_error = r(1, 2) * q(4) * (q(2) * &t1.force_magnitude + r(3, 2)) / r(3, 2);
    for k in [1, 2] {
        // λ, the normal force: the force is λ (n̂ + μ d̂) with n̂ = z.
        let lambda = second.forces[k].z.clone();
        assert!(lambda > q(0));
        assert!(
            t2.force_magnitude >= lambda.clone() * &direction_error,
            "{} < {}",
            t2.force_magnitude,
            lambda * &direction_error
        );
    }
}

/// Bad input is a typed error naming the element; a dynamic contact whose normal has an
/// irrational length is refused on the exact backend and answered in f64.
#[test]
fn bad_input_is_a_typed_error() {
    let ok = || {
        System::new(
            vec![boxed(q(1), p(q(0), q(0), q(1))), floor()],
            v(q(0), q(0), q(-10)),
            corners(0, 1, q(0), q(0), q(0), q(1)),
        )
    };
    let mut s = ok();
    s.bodies[0].mass = q(-1);
    assert!(matches!(solve(&s), Err(ForcesError::Body { body: 0, .. })));
    let mut s = ok();
    s.bodies[0].inertia[(0, 1)] = q(1);
    assert!(matches!(solve(&s), Err(ForcesError::Body { body: 0, .. })));
    let mut s = ok();
    s.bodies[0].rotation[(0, 0)] = q(2);
    assert!(matches!(solve(&s), Err(ForcesError::Body { body: 0, .. })));
    let mut s = ok();
    s.contacts[2].b = 7;
    assert!(matches!(solve(&s), Err(ForcesError::Contact { contact: 2, .. })));
    let mut s = ok();
    s.contacts[1].normal = Vector3::zeros();
    assert!(matches!(solve(&s), Err(ForcesError::Contact { contact: 1, .. })));
    let mut s = ok();
    s.contacts[3].friction = r(-1, 2);
    assert!(matches!(solve(&s), Err(ForcesError::Contact { contact: 3, .. })));
    let mut s = ok();
    s.bodies[0].fixed = true;
    assert!(matches!(solve(&s), Err(ForcesError::Contact { contact: 0, .. })));
    // Sliding on a contact whose normal (1, 0, 1) has length √2.
    let mut s = ok();
    s.bodies[0].linear = v(q(0), q(1), q(0));
    s.contacts[0].normal = v(q(1), q(0), q(1));
    assert_eq!(solve(&s), Err(ForcesError::IrrationalLength { contact: 0, what: "normal" }));
    assert!(solve(&to_f64(&s)).is_ok());
    let _ = Q::one();
}

/// A contact point 10³⁰⁰ from the body (the oracle line that hung the process: nalgebra's SVD
/// iterated without end on a matrix whose entries are 10³⁰⁰ apart). The exact answer is a
/// solution; the `f64` one ends, in a typed answer.
#[test]
fn a_lever_of_ten_to_the_300_ends_on_f64() {
    let far = Q::from_integer(num_bigint::BigInt::from(10).pow(300));
    let body = Body::free(q(1), Matrix3::identity(), p(q(0), q(0), q(0)));
    let fixed = Body::fixed(p(q(0), q(0), q(-1)));
    let n = v(q(0), q(0), q(1));
    let contacts = vec![
        Contact::new(0, 1, p(far, r(1, 2), q(0)), n.clone(), r(1, 2)),
        Contact::new(0, 1, p(r(-1, 2), r(-1, 3), q(0)), n.clone(), r(1, 2)),
        Contact::new(0, 1, p(r(1, 2), r(-1, 2), q(0)), n, r(1, 2)),
    ];
    let system = System::new(vec![body, fixed], v(q(0), q(0), r(-981, 100)), contacts);
    let exact = solve(&system).expect("the exact answer");
    assert_eq!(exact.forces.len(), 3);
    // Not "inconsistent" (the exact answer says it is not): the float path cannot answer.
    let fast = solve(&to_f64(&system));
    assert!(matches!(fast, Err(ForcesError::Uncertain(_))), "{fast:?}");
}
