//! Fuzz input of the `forces_diff` target: resting and sliding boxes whose contacts are
//! degenerate by construction (four coplanar corners: statically indeterminate; a repeated
//! contact; a contact on an edge between two corners; a stack), on exact rational rotations
//! (integer quaternions: Pythagorean turns and slopes), with integer normals and sliding
//! velocities of rational length, so the exact path has its unit vectors.

use arbitrary::Arbitrary;
use num_rational::BigRational;

use crate::geom::{Affine, Matrix3, Point3, Vector3};
use crate::query::{BodySpec, ContactForces, ContactSpec, PoseSpec};
use crate::scalar::Scalar;

/// One case: see the fields.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct ForcesInput {
    /// 0: a box on the floor; 1: a box on an incline; 2: two boxes stacked on the floor; 3: a
    /// box on the floor whose centre of mass is off its centre (by `offset`).
    pub scene: u8,
    /// Half extents: 1 + h mod 4 each, halved when h ≥ 128 (dyadic).
    pub half: [u8; 3],
    /// Mass: 1 + m mod 8.
    pub mass: u8,
    /// The turn about the vertical (an integer quaternion (w, 0, 0, z) of a table of five).
    pub turn: u8,
    /// The slope of the incline (quaternions (3, 1), (2, 1), (5, 1) about x, or flat).
    pub slope: u8,
    /// The friction coefficient: one of 0, 1/4, 1/2, 3/4, 1, 2.
    pub friction: u8,
    /// Sliding: 0 at rest, k > 0 slides at k times a Pythagorean direction in the contact plane
    /// (k mod 4).
    pub slide: u8,
    /// 0: the four corners; 1: the first corner twice; 2: also the middle of the first edge.
    pub extra: u8,
    /// The centre of mass's offset in scene 3, in quarters.
    pub offset: [i8; 2],
    /// The static speed: 0, 1/2 or 1000 (every contact static).
    pub static_speed: u8,
}

const TURNS: [(i64, i64); 5] = [(1, 0), (2, 1), (3, 1), (1, 1), (3, 2)];
const SLOPES: [(i64, i64); 4] = [(1, 0), (3, 1), (2, 1), (5, 1)];

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

fn f(x: &BigRational) -> f64 {
    x.to_f64()
}

/// The product of quaternions (w, x, y, z).
fn mul(a: [i64; 4], b: [i64; 4]) -> [i64; 4] {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

impl ForcesInput {
    fn half_extents(&self, k: usize) -> [BigRational; 3] {
        let h = [self.half[0], self.half[1], self.half[2].wrapping_add(k as u8 * 37)];
        h.map(|x| {
            let v = q(1 + i64::from(x % 4));
            if x >= 128 {
                v / q(2)
            } else {
                v
            }
        })
    }

    /// The case as a `contact_forces` query on binary64 inputs (the exact path reads the same
    /// binary64 values exactly).
    pub fn query(&self) -> ContactForces<f64> {
        let scene = self.scene % 4;
        let mass = q(1 + i64::from(self.mass % 8));
        let (w, x) = if scene == 1 { SLOPES[usize::from(self.slope % 4)] } else { (1, 0) };
        let slope_q = [w, x, 0, 0];
        let (s2, c2) = (w * w + x * x, w * w - x * x);
        // The slope's unit normal is (0, −2wx, w² − x²) / (w² + x²); its in-plane axes are
        // (1, 0, 0) and (0, w² − x², 2wx) / (w² + x²).
        let normal = Vector3::new(0.0, (-2 * w * x) as f64, c2 as f64);
        let friction = [(0, 1), (1, 4), (1, 2), (3, 4), (1, 1), (2, 1)][usize::from(self.friction % 6)];
        let friction = f(&(q(friction.0) / q(friction.1)));
        let k = i64::from(self.slide % 4);
        // Sliding along 3 e₁ + 4 e₂ of the slope, scaled by w² + x²: length 5k(w² + x²).
        let slide = Vector3::new((3 * k * s2) as f64, (4 * k * c2) as f64, (8 * k * w * x) as f64);
        let mut bodies = vec![BodySpec::fixed(PoseSpec::Quaternion { q: slope_q.map(|c| c as f64), t: [0.0; 3] })];
        let mut contacts = Vec::new();
        let boxes = if scene == 2 { 2 } else { 1 };
        let mut base = q(0);
        for b in 0..boxes {
            let h = self.half_extents(b);
            let (tw, tz) = TURNS[usize::from(self.turn.wrapping_add(b as u8 * 3) % 5)];
            let pose_q = mul(slope_q, [tw, 0, 0, tz]);
            let rq = pose_q.map(q);
            let Ok(r) = Affine::from_quaternion(&rq, Vector3::zeros()) else { unreachable!("nonzero") };
            let slope = Affine::from_quaternion(&slope_q.map(q), Vector3::zeros()).unwrap_or_else(|_| unreachable!());
            // The box's centre: on the slope's plane through the origin, `base` up it.
            let up = base.clone() + h[2].clone();
            let centre = slope.apply_point(&Point3::new(q(0), q(0), up.clone()));
            let offset = if scene == 3 {
                Vector3::new(q(i64::from(self.offset[0] % 8)) / q(4), q(i64::from(self.offset[1] % 8)) / q(4), q(0))
            } else {
                Vector3::zeros()
            };
            let com = Point3::from(centre.coords.clone() + r.apply_vector(&offset));
            let corner = |sx: i64, sy: i64| {
                let local = Point3::new(h[0].clone() * q(sx), h[1].clone() * q(sy), -h[2].clone());
                r.apply_point(&local) + centre.coords.clone()
            };
            let (mx, my, mz) = (mass.clone(), h[0].clone() * h[0].clone(), h[1].clone() * h[1].clone());
            let hz2 = h[2].clone() * h[2].clone();
            let third = mx.clone() / q(3);
            let inertia = Matrix3::new(
                f(&(third.clone() * (my.clone() + hz2.clone()))),
                0.0,
                0.0,
                0.0,
                f(&(third.clone() * (mz.clone() + hz2))),
                0.0,
                0.0,
                0.0,
                f(&(third * (my + mz))),
            );
            let mut body = BodySpec {
                pose: PoseSpec::Quaternion { q: pose_q.map(|c| c as f64), t: [f(&com.x), f(&com.y), f(&com.z)] },
                ..BodySpec::free(f(&mx), inertia)
            };
            if b + 1 == boxes {
                body.linear = slide;
            }
            bodies.push(body);
            let mut points: Vec<Point3<BigRational>> =
                [(-1, -1), (1, -1), (1, 1), (-1, 1)].iter().map(|&(sx, sy)| corner(sx, sy)).collect();
            match self.extra % 3 {
                1 => points.push(points[0].clone()),
                2 => points.push(Point3::from((points[0].coords.clone() + points[1].coords.clone()) / q(2))),
                _ => {}
            }
            for p in points {
                contacts.push(ContactSpec::Point {
                    a: b + 1,
                    b,
                    point: Point3::new(f(&p.x), f(&p.y), f(&p.z)),
                    normal,
                    friction,
                });
            }
            base = up + h[2].clone();
        }
        let mut query = ContactForces::new(bodies, Vector3::new(0.0, 0.0, -10.0), contacts);
        query.static_speed = [0.0, 0.5, 1000.0][usize::from(self.static_speed % 3)];
        query
    }
}
