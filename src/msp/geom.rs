//! Homogeneous points and the plane constructions of the index, none chained (DESIGN.md §3).

use crate::geom::{adjugate3, det3, dot_magnitude, permanent3, Matrix3, Plane, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

pub(crate) use crate::geom::drop_axis as project;
pub(crate) use crate::predicates::{least_aligned_axis, nonzero_axis};

/// The point `x / w`, with `w` decided positive.
#[derive(Clone, Debug)]
pub(crate) struct HPoint<S: Scalar> {
    pub x: Vector3<S>,
    pub w: S,
}

impl<S: Scalar> HPoint<S> {
    pub fn from_point(p: &Point3<S>) -> Self {
        HPoint { x: p.coords.clone(), w: S::one() }
    }

    /// The affine point (one division per coordinate).
    pub fn affine(&self) -> Point3<S> {
        Point3::from(self.x.map(|c| c / self.w.clone()))
    }
}

/// The side of `plane` that `p` is on, with the backend's tolerance relative to the terms.
pub(crate) fn side<S: Scalar>(plane: &Plane<S>, p: &HPoint<S>) -> Decision<Sign> {
    let v = plane.normal.dot(&p.x) + plane.offset.clone() * p.w.clone();
    v.sign_scaled(|| dot_magnitude(&plane.normal, &p.x) + plane.scale.clone() * p.w.abs())
}

/// The side of `plane` that the affine point `p` is on.
pub(crate) fn side_of_point<S: Scalar>(plane: &Plane<S>, p: &Point3<S>) -> Decision<Sign> {
    plane.eval_scaled(p).sign_scaled()
}

/// The point where three planes meet, `None` when they do not meet in one point (their normals'
/// determinant is zero, within the backend's tolerance).
pub(crate) fn meet<S: Scalar>(a: &Plane<S>, b: &Plane<S>, c: &Plane<S>) -> Decision<Option<HPoint<S>>> {
    let m = Matrix3::from_rows(&[a.normal.transpose(), b.normal.transpose(), c.normal.transpose()]);
    let det = det3(&m);
    let sign = det.sign_scaled(|| permanent3(&m))?;
    if sign == Sign::Zero {
        return Ok(None);
    }
    // N x = −d: x = −adj(N) d / det(N).
    let d = Vector3::new(a.offset.clone(), b.offset.clone(), c.offset.clone());
    let x = -(adjugate3(&m) * d);
    Ok(Some(if sign == Sign::Negative { HPoint { x: -x, w: -det } } else { HPoint { x, w: det } }))
}

/// The plane of the pencil through the line `a ∩ b` perpendicular to `pi` (the line lies in
/// `pi`): (n_b·n_π) a − (n_a·n_π) b. Its normal is never zero when the line lies in `pi`.
pub(crate) fn pencil<S: Scalar>(a: &Plane<S>, b: &Plane<S>, pi: &Plane<S>) -> Plane<S> {
    let (alpha, beta) = (b.normal.dot(&pi.normal), a.normal.dot(&pi.normal));
    Plane {
        normal: a.normal.clone() * alpha.clone() - b.normal.clone() * beta.clone(),
        offset: a.offset.clone() * alpha.clone() - b.offset.clone() * beta.clone(),
        scale: a.scale.clone() * alpha.abs() + b.scale.clone() * beta.abs(),
    }
}

/// The plane through `p` with normal `n`, homogeneous: (w n, −n·x).
pub(crate) fn through<S: Scalar>(n: &Vector3<S>, p: &HPoint<S>) -> Plane<S> {
    Plane { normal: n.clone() * p.w.clone(), offset: -n.dot(&p.x), scale: dot_magnitude(n, &p.x) }
}

/// An axis not parallel to nonzero `n` (n × e_k ≠ 0): the least aligned by the images when
/// exactly transverse, else the first that is.
pub(crate) fn transverse_axis<S: Scalar>(n: &Vector3<S>) -> Decision<usize> {
    let k = least_aligned_axis(n)?;
    if !crate::predicates::parallel(n, &axis::<S>(k))? {
        return Ok(k);
    }
    for i in 0..3 {
        if !crate::predicates::parallel(n, &axis::<S>(i))? {
            return Ok(i);
        }
    }
    Ok(k)
}

/// The unit vector of axis `k`.
pub(crate) fn axis<S: Scalar>(k: usize) -> Vector3<S> {
    let mut v = Vector3::from_element(S::zero());
    v[k] = S::one();
    v
}

/// Two planes whose intersection is the line through the distinct points `p` and `q`: normals
/// d × e_i for the two axes other than the one most aligned with d = q − p (small numbers: one
/// degree in the coordinates, offsets two). `None` when the points coincide.
pub(crate) fn line_planes<S: Scalar>(p: &Point3<S>, q: &Point3<S>) -> Decision<Option<[Plane<S>; 2]>> {
    let d: Vector3<S> = q - p;
    let Some(k) = nonzero_axis(&d)? else { return Ok(None) };
    let plane = |i: usize| {
        let n = d.cross(&axis::<S>(i));
        Plane::anchored(n, p)
    };
    let others: Vec<usize> = (0..3).filter(|&i| i != k).collect();
    Ok(Some([plane(others[0]), plane(others[1])]))
}

/// The bit size (numerator plus denominator) of an exact value, 0 on other backends.
pub(crate) fn bits<S: Scalar>(x: &S) -> u64 {
    if !S::EXACT_VALUES {
        return 0;
    }
    x.to_rational().map_or(0, |q| q.numer().bits() + q.denom().bits())
}

/// An orientation as a sign (positive, negative, zero for coplanar/collinear).
pub(crate) fn orientation_sign(o: crate::predicates::Orientation) -> Sign {
    match o {
        crate::predicates::Orientation::Positive => Sign::Positive,
        crate::predicates::Orientation::Negative => Sign::Negative,
        crate::predicates::Orientation::Coplanar => Sign::Zero,
    }
}
