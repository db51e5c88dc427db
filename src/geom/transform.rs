//! Exact transforms: rotations from non-unit quaternions, affine 3×4 maps, homogeneous 4×4 maps.

use super::{
    adjugate3, adjugate4, det3, det4, dot_magnitude, permanent3, permanent4, Matrix3, Matrix4, Plane, Point3, Vector3,
};
use crate::error::GeomError;
use crate::scalar::{two, Scalar, Sign};

/// The rotation matrix of the quaternion q = (w, x, y, z), not necessarily unit:
/// v ↦ q v q̄ / |q|², evaluated exactly (one division by |q|² per entry).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, quaternion_matrix};
/// // q = (1, 0, 0, 1) is a quarter turn about z, |q|² = 2.
/// let r = quaternion_matrix::<BigRational>(&[1, 0, 0, 1].map(|x: i64| BigRational::from_integer(x.into()))).unwrap();
/// assert_eq!(r * point::<BigRational>(1, 0, 0), point(0, 1, 0));
/// ```
pub fn quaternion_matrix<S: Scalar>(q: &[S; 4]) -> Result<Matrix3<S>, GeomError> {
    let (entries, n) = quaternion_numerators(q)?;
    Ok(entries.map(|e| e / n.clone()))
}

/// The rotation of [`quaternion_matrix`] as M / n: M the matrix of q v q̄ (entries quadratic in
/// q) and n = |q|² > 0, undivided. On an exact backend M·p / n is the rotated point with one
/// division per coordinate, not one per entry (and products of M's dyadic entries, where the
/// divided entries carry n's odd part as a denominator through every product and sum).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{quaternion_matrix, quaternion_numerators};
/// let q = [1, 2, 0, 1].map(|x: i64| BigRational::from_integer(x.into()));
/// let (m, n) = quaternion_numerators(&q).unwrap();
/// assert_eq!(n, BigRational::from_integer(6.into()));
/// assert_eq!(m / n, quaternion_matrix(&q).unwrap());
/// ```
pub fn quaternion_numerators<S: Scalar>(q: &[S; 4]) -> Result<(Matrix3<S>, S), GeomError> {
    let [w, x, y, z] = if S::EXACT_VALUES { q.clone() } else { scaled_to_unit_exponent(q)? };
    if S::EXACT_VALUES {
        // The same values as below, each entry summed on integers where the backend can
        // (`Scalar::sum_of_products`: binary64 components give dyadic products).
        let sp = |t: &[(i64, &S, &S)]| S::sum_of_products(t);
        let n = sp(&[(1, &w, &w), (1, &x, &x), (1, &y, &y), (1, &z, &z)]);
        let entries = [
            sp(&[(1, &w, &w), (1, &x, &x), (-1, &y, &y), (-1, &z, &z)]),
            sp(&[(2, &x, &y), (-2, &w, &z)]),
            sp(&[(2, &x, &z), (2, &w, &y)]),
            sp(&[(2, &x, &y), (2, &w, &z)]),
            sp(&[(1, &w, &w), (-1, &x, &x), (1, &y, &y), (-1, &z, &z)]),
            sp(&[(2, &y, &z), (-2, &w, &x)]),
            sp(&[(2, &x, &z), (-2, &w, &y)]),
            sp(&[(2, &y, &z), (2, &w, &x)]),
            sp(&[(1, &w, &w), (-1, &x, &x), (-1, &y, &y), (1, &z, &z)]),
        ];
        return nonzero(entries, n);
    }
    // The ten products, each once (every backend computes each the same way each time, so
    // sharing them changes no value: a double's rounding, an interval's, an exact product).
    let m = |a: &S, b: &S| a.clone() * b.clone();
    let [ww, xx, yy, zz] = [&w, &x, &y, &z].map(|a| m(a, a));
    let [xy, wz, xz, wy, yz, wx] = [(&x, &y), (&w, &z), (&x, &z), (&w, &y), (&y, &z), (&w, &x)].map(|(a, b)| m(a, b));
    let n = ww.clone() + xx.clone() + yy.clone() + zz.clone();
    let t = two::<S>();
    let c = |a: &S| a.clone();
    let entries = [
        c(&ww) + c(&xx) - c(&yy) - c(&zz),
        t.clone() * (c(&xy) - c(&wz)),
        t.clone() * (c(&xz) + c(&wy)),
        t.clone() * (c(&xy) + c(&wz)),
        c(&ww) - c(&xx) + c(&yy) - c(&zz),
        t.clone() * (c(&yz) - c(&wx)),
        t.clone() * (c(&xz) - c(&wy)),
        t.clone() * (c(&yz) + c(&wx)),
        ww - xx - yy + zz,
    ];
    nonzero(entries, n)
}

/// The matrix of `entries` and `n = |q|²`, or [`GeomError::ZeroQuaternion`] when `n` is zero.
fn nonzero<S: Scalar>(entries: [S; 9], n: S) -> Result<(Matrix3<S>, S), GeomError> {
    if n.sign()? == Sign::Zero {
        return Err(GeomError::ZeroQuaternion);
    }
    Ok((Matrix3::from_row_iterator(entries), n))
}

/// `q` times a power of two that brings its largest component near 1, for backends without
/// exact values: the rotation is the same for every nonzero multiple of `q`, and the scaling
/// is exact in binary arithmetic, but it keeps |q|² from underflowing (a quaternion of
/// components 1e-200) or overflowing (1e200) in binary64. The power is chosen from `to_f64`
/// (a choice of representative, not a decision: any power gives the same rotation). A zero
/// quaternion, decided on the raw signs, is [`GeomError::ZeroQuaternion`].
fn scaled_to_unit_exponent<S: Scalar>(q: &[S; 4]) -> Result<[S; 4], GeomError> {
    let mut all_zero = true;
    for c in q {
        all_zero &= c.sign()? == Sign::Zero;
    }
    if all_zero {
        return Err(GeomError::ZeroQuaternion);
    }
    let largest = q.iter().map(|c| c.to_f64().abs()).fold(0.0, f64::max);
    if !(largest > 0.0 && largest.is_finite()) {
        return Ok(q.clone());
    }
    // 2^-e with e the exponent of the largest component, applied in at most two exact steps
    // (2^1074 is beyond binary64's range).
    let e = largest.log2().floor() as i32;
    let mut out = q.clone();
    let mut left = -e;
    while left != 0 {
        let step = left.clamp(-1000, 1000);
        let f = S::from_f64(2f64.powi(step)).map_err(|_| GeomError::ZeroQuaternion)?;
        out = out.map(|c| c * f.clone());
        left -= step;
    }
    Ok(out)
}

/// The affine map p ↦ linear · p + translation.
#[derive(Clone, Debug, PartialEq)]
pub struct Affine<S: Scalar> {
    /// The linear part.
    pub linear: Matrix3<S>,
    /// The translation.
    pub translation: Vector3<S>,
}

impl<S: Scalar> Affine<S> {
    /// The identity.
    pub fn identity() -> Self {
        Affine { linear: Matrix3::identity(), translation: Vector3::zeros() }
    }

    /// A pure translation.
    pub fn translation(t: Vector3<S>) -> Self {
        Affine { linear: Matrix3::identity(), translation: t }
    }

    /// The rotation of quaternion `q` (not necessarily unit) followed by the translation `t`.
    pub fn from_quaternion(q: &[S; 4], t: Vector3<S>) -> Result<Self, GeomError> {
        Ok(Affine { linear: quaternion_matrix(q)?, translation: t })
    }

    /// The map of a 3×4 row-major matrix `[[r00, r01, r02, t0], ...]`. It may be singular: use
    /// [`Affine::inverse`] or [`Affine::check_invertible`] to reject that.
    pub fn from_rows(rows: &[[S; 4]; 3]) -> Self {
        Affine {
            linear: Matrix3::from_fn(|i, j| rows[i][j].clone()),
            translation: Vector3::from_fn(|i, _| rows[i][3].clone()),
        }
    }

    /// The image of a point.
    pub fn apply_point(&self, p: &Point3<S>) -> Point3<S> {
        let v = self.apply_vector(&p.coords);
        let [x, y, z] = [0, 1, 2].map(|i| v[i].clone() + self.translation[i].clone());
        Point3::new(x, y, z)
    }

    /// The image of a vector (the linear part only): row by row, `(l₀x + l₁y) + l₂z`, the
    /// order of nalgebra's matrix product (so binary64 images are those it gave), without its
    /// copies of the matrix and multiplications by one (which widen a filter's values); each
    /// row one [`Scalar::dot3`] (summed on integers by `Exact`, one bound on values with
    /// bounds).
    pub fn apply_vector(&self, v: &Vector3<S>) -> Vector3<S> {
        super::mat_vec(&self.linear, v)
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Affine<S>) -> Affine<S> {
        Affine {
            linear: self.linear.clone() * other.linear.clone(),
            translation: self.linear.clone() * other.translation.clone() + self.translation.clone(),
        }
    }

    /// det of the linear part.
    pub fn determinant(&self) -> S {
        det3(&self.linear)
    }

    /// The sign of the determinant; a zero determinant is [`GeomError::Singular`].
    pub fn check_invertible(&self) -> Result<Sign, GeomError> {
        match det3(&self.linear).sign_scaled(|| permanent3(&self.linear))? {
            Sign::Zero => Err(GeomError::Singular),
            s => Ok(s),
        }
    }

    /// The exact inverse (adjugate over determinant), or [`GeomError::Singular`].
    pub fn inverse(&self) -> Result<Affine<S>, GeomError> {
        self.check_invertible()?;
        let det = self.determinant();
        let linear = adjugate3(&self.linear).map(|e| e / det.clone());
        let translation = -(linear.clone() * self.translation.clone());
        Ok(Affine { linear, translation })
    }

    /// The image of a plane, without division: the plane {A p + t : n·p + d = 0}, with the
    /// side that was above still above. Singular maps are an error.
    pub fn apply_plane(&self, plane: &Plane<S>) -> Result<Plane<S>, GeomError> {
        let orientation = self.check_invertible()?;
        // A⁻ᵀ = adj(A)ᵀ / det; scale the plane by |det| to stay division-free.
        let mut normal = adjugate3(&self.linear).transpose() * plane.normal.clone();
        let mut offset = self.determinant() * plane.offset.clone();
        if orientation == Sign::Negative {
            normal = -normal;
            offset = -offset;
        }
        let offset = offset - normal.dot(&self.translation);
        let scale = self.determinant().abs() * plane.scale.clone() + dot_magnitude(&normal, &self.translation);
        Ok(Plane { normal, offset, scale })
    }

    /// The 4×4 homogeneous matrix of the map.
    pub fn to_homogeneous(&self) -> Matrix4<S> {
        Matrix4::from_fn(|i, j| match (i, j) {
            (3, 3) => S::one(),
            (3, _) => S::zero(),
            (_, 3) => self.translation[i].clone(),
            _ => self.linear[(i, j)].clone(),
        })
    }
}

/// A projective map of 3-space given by a 4×4 matrix acting on (x, y, z, 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Homogeneous<S: Scalar>(pub Matrix4<S>);

impl<S: Scalar> Homogeneous<S> {
    /// The image of a point: (X, Y, Z, W) = M (x, y, z, 1), then (X/W, Y/W, Z/W).
    pub fn apply_point(&self, p: &Point3<S>) -> Result<Point3<S>, GeomError> {
        let h = nalgebra::Vector4::new(p.x.clone(), p.y.clone(), p.z.clone(), S::one());
        let image = self.0.clone() * h.clone();
        let w_magnitude = || (0..4).fold(S::zero(), |acc, j| acc + self.0[(3, j)].abs() * h[j].abs());
        if image[3].sign_scaled(w_magnitude)? == Sign::Zero {
            return Err(GeomError::PointAtInfinity);
        }
        let w = image[3].clone();
        Ok(Point3::new(image[0].clone() / w.clone(), image[1].clone() / w.clone(), image[2].clone() / w))
    }

    /// det(M).
    pub fn determinant(&self) -> S {
        det4(&self.0)
    }

    /// adj(M): the inverse up to the scale det(M), which a homogeneous map ignores.
    pub fn adjugate(&self) -> Homogeneous<S> {
        Homogeneous(adjugate4(&self.0))
    }

    /// The exact inverse, or [`GeomError::Singular`].
    pub fn inverse(&self) -> Result<Homogeneous<S>, GeomError> {
        let det = self.determinant();
        if det.sign_scaled(|| permanent4(&self.0))? == Sign::Zero {
            return Err(GeomError::Singular);
        }
        Ok(Homogeneous(adjugate4(&self.0).map(|e| e / det.clone())))
    }
}
