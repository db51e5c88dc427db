//! Points, vectors, unnormalised planes and exact transforms, over any [`Scalar`].
//!
//! Vectors and matrices are nalgebra's, over the scalar; nothing here normalises a vector or
//! takes a square root.
//!
//! [`Scalar`]: crate::scalar::Scalar

pub(crate) mod aabb;
mod det;
mod plane;
mod transform;

pub use det::{adjugate3, adjugate4, det3, det4, permanent3, permanent4, Scaled};
pub use plane::{is_zero_vector, Plane};
pub use transform::{quaternion_matrix, quaternion_numerators, Affine, Homogeneous};

/// A point in 3-space.
pub type Point3<S> = nalgebra::Point3<S>;
/// A point in the plane.
pub type Point2<S> = nalgebra::Point2<S>;
/// A vector in 3-space.
pub type Vector3<S> = nalgebra::Vector3<S>;
/// A 3×3 matrix.
pub type Matrix3<S> = nalgebra::Matrix3<S>;
/// A 4×4 matrix.
pub type Matrix4<S> = nalgebra::Matrix4<S>;

use crate::scalar::Scalar;

/// The point (x, y, z) from integers, for literals in code and tests.
pub fn point<S: Scalar>(x: i64, y: i64, z: i64) -> Point3<S> {
    Point3::new(S::from_i64(x), S::from_i64(y), S::from_i64(z))
}

/// Drop coordinate `k` of a point: its projection along axis `k` onto the plane of the other
/// two, `(p[k+1], p[k+2])` (indices mod 3). A planar figure whose normal has a nonzero `k`
/// component keeps its orientations, up to that component's sign.
pub fn drop_axis<S: Scalar>(p: &Point3<S>, k: usize) -> Point2<S> {
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    Point2::new(p[i].clone(), p[j].clone())
}

/// The magnitudes of `a × b`'s components from magnitudes `a`, `b` of the factors:
/// a_y b_z + a_z b_y, ….
pub fn cross_magnitude<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Vector3<S> {
    Vector3::new(
        a.y.clone() * b.z.clone() + a.z.clone() * b.y.clone(),
        a.z.clone() * b.x.clone() + a.x.clone() * b.z.clone(),
        a.x.clone() * b.y.clone() + a.y.clone() * b.x.clone(),
    )
}

/// Σ |aᵢ|·|bᵢ|: the magnitude of the dot product a·b.
pub fn dot_magnitude<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> S {
    a.iter().zip(b.iter()).fold(S::zero(), |acc, (x, y)| acc + x.abs() * y.abs())
}

/// u·v through the backend's [`Scalar::dot3`] (the same value as nalgebra's `dot`; one bound
/// for the sum on [`MidRad`](crate::scalar::MidRad)).
pub fn dot<S: Scalar>(u: &Vector3<S>, v: &Vector3<S>) -> S {
    S::dot3([&u[0], &u[1], &u[2]], [&v[0], &v[1], &v[2]])
}

/// m·v, each row one [`dot`] (so one [`Scalar::dot3`]).
pub fn mat_vec<S: Scalar>(m: &Matrix3<S>, v: &Vector3<S>) -> Vector3<S> {
    let row = |i: usize| S::dot3([&m[(i, 0)], &m[(i, 1)], &m[(i, 2)]], [&v[0], &v[1], &v[2]]);
    Vector3::new(row(0), row(1), row(2))
}

/// |x| + |y| + |z|.
pub fn norm1<S: Scalar>(v: &Vector3<S>) -> S {
    v.iter().fold(S::zero(), |acc, x| acc + x.abs())
}

/// The input's magnitude, for a tolerance: the largest |coordinate| of the points (zero for
/// none). A coordinate's rounding on a tolerant backend is relative to the magnitudes it was
/// computed from (a pose's), not to itself: a posed vertex at the origin is a cancelled sum,
/// so a plane evaluated there is decided against the solid's magnitude (see
/// [`Plane`](crate::geom::Plane)'s `scale`). Backends with certain decisions that are not
/// exact (intervals) get zero: they bound their own rounding and never use it.
pub fn coordinate_bound<'a, S: Scalar + 'a>(points: impl IntoIterator<Item = &'a Point3<S>>) -> S {
    let mut m = S::zero();
    if S::CERTAIN_DECISIONS && !S::EXACT_VALUES {
        return m;
    }
    for p in points {
        for c in p.iter() {
            let a = c.abs();
            // Undecided (an overflowed coordinate): the sum bounds both.
            m = m.maximum(&a).unwrap_or_else(|_| m.clone() + a);
        }
    }
    m
}

/// |v|² = v·v (nalgebra's `norm_squared` asks for a complex field, which rationals are not).
pub fn norm2<S: Scalar>(v: &Vector3<S>) -> S {
    v.dot(v)
}
