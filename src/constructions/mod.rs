//! Value-returning constructions: planes through points, segment–plane crossings, squared
//! distances. Exact for exact backends; no square roots, no normalisation.

use crate::error::GeomError;
use crate::geom::{dot_magnitude, norm2, Plane, Point3, Vector3};
use crate::predicates::{side_of_plane, Side};
use crate::scalar::{Decision, Scalar, Sign};

/// The plane through `a`, `b`, `c` with normal (b−a)×(c−a) (above: where a, b, c run
/// counterclockwise). Collinear points are [`GeomError::Collinear`].
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::constructions::plane_through;
/// use touchstone::geom::point;
/// let p = |x, y, z| point::<BigRational>(x, y, z);
/// let plane = plane_through(&p(0, 0, 2), &p(1, 0, 2), &p(0, 1, 2)).unwrap();
/// assert_eq!(plane.coefficients(), [0, 0, 1, -2].map(|x: i64| BigRational::from_integer(x.into())));
/// ```
pub fn plane_through<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>) -> Result<Plane<S>, GeomError> {
    let (u, v) = (b - a, c - a);
    let normal = u.cross(&v);
    // Each component of the cross product is a 2×2 determinant, decided against its own
    // magnitude.
    let abs = |w: &Vector3<S>| w.map(|x| x.abs());
    if crate::predicates::zero_vector_scaled(&normal, &crate::geom::cross_magnitude(&abs(&u), &abs(&v)))? {
        return Err(GeomError::Collinear);
    }
    Ok(Plane::anchored(normal, a))
}

/// Where a closed segment meets a plane.
#[derive(Clone, Debug, PartialEq)]
pub enum SegmentPlane<S> {
    /// No common point.
    Disjoint,
    /// The whole segment lies in the plane.
    Contained,
    /// One common point, at parameter `t` ∈ [0, 1] along p→q (exactly 0 or 1 at an endpoint).
    Crosses(S),
}

/// The intersection of the segment pq with `plane`, by the signs of its endpoints.
pub fn segment_plane<S: Scalar>(p: &Point3<S>, q: &Point3<S>, plane: &Plane<S>) -> Decision<SegmentPlane<S>> {
    let (sp, sq) = (side_of_plane(plane, p)?, side_of_plane(plane, q)?);
    Ok(match (sp, sq) {
        (Side::On, Side::On) => SegmentPlane::Contained,
        (Side::On, _) => SegmentPlane::Crosses(S::zero()),
        (_, Side::On) => SegmentPlane::Crosses(S::one()),
        (a, b) if a == b => SegmentPlane::Disjoint,
        _ => {
            let (ep, eq) = (plane.eval(p), plane.eval(q));
            SegmentPlane::Crosses(ep.clone() / (ep - eq))
        }
    })
}

/// |p − q|².
pub fn squared_distance_point_point<S: Scalar>(p: &Point3<S>, q: &Point3<S>) -> S {
    norm2(&(p - q))
}

/// The squared distance from `p` to the closed segment ab, with the parameter t ∈ [0, 1] of
/// the closest point a + t(b − a). A degenerate segment (a = b) is the point a.
pub fn squared_distance_point_segment<S: Scalar>(p: &Point3<S>, a: &Point3<S>, b: &Point3<S>) -> Decision<(S, S)> {
    let (u, w) = (b - a, p - a);
    let dot = w.dot(&u);
    if dot.sign_scaled(|| dot_magnitude(&w, &u))? != Sign::Positive {
        return Ok((norm2(&w), S::zero()));
    }
    let len2 = norm2(&u);
    if (dot.clone() - len2.clone()).sign_scaled(|| dot_magnitude(&w, &u) + len2.clone())? != Sign::Negative {
        return Ok((squared_distance_point_point(p, b), S::one()));
    }
    let t = dot / len2;
    // |w − t·u|², not |w|² − dot²/|u|²: the same exact value, but never negative and without
    // cancellation on inexact backends when p is near the segment.
    let foot: Vector3<S> = &w - &u * t.clone();
    Ok((norm2(&foot), t))
}

/// The squared distance from `p` to `plane`: (n·p + d)² / |n|².
pub fn squared_distance_point_plane<S: Scalar>(p: &Point3<S>, plane: &Plane<S>) -> Result<S, GeomError> {
    check_normal(plane)?;
    // The distance of plane_foot, without its foot.
    let e = plane.eval(p);
    Ok(e.clone() * e / norm2(&plane.normal))
}

/// The orthogonal projection of `p` onto `plane`.
pub fn project_onto_plane<S: Scalar>(p: &Point3<S>, plane: &Plane<S>) -> Result<Point3<S>, GeomError> {
    check_normal(plane)?;
    Ok(plane_foot(p, plane).1)
}

fn check_normal<S: Scalar>(plane: &Plane<S>) -> Result<(), GeomError> {
    if crate::geom::is_zero_vector(&plane.normal)? {
        return Err(GeomError::DegeneratePlane);
    }
    if norm2(&plane.normal).sign()? == Sign::Zero {
        // A nonzero normal whose squared length underflowed to zero (a floating-point
        // backend): the backend cannot divide by it; the input needs an exact backend.
        return Err(GeomError::Uncertain(crate::scalar::Uncertain::Overflow));
    }
    Ok(())
}

/// The squared distance from `p` to `plane` and the foot of the perpendicular,
/// ((n·p + d)² / |n|², p − (n·p + d)/|n|² · n): the one point–plane routine of the crate (the
/// distance queries, V-Clip, Lin–Canny and contact tracking use it). The normal must be nonzero
/// (a solid's face plane is; for other planes use [`squared_distance_point_plane`] or
/// [`project_onto_plane`], which check).
pub fn plane_foot<S: Scalar>(p: &Point3<S>, plane: &Plane<S>) -> (S, Point3<S>) {
    let n2 = norm2(&plane.normal);
    let e = plane.eval(p);
    let shift: Vector3<S> = &plane.normal * (e.clone() / n2.clone());
    (e.clone() * e / n2, p - shift)
}

/// Newell's normal of a polygon (twice its area vector), with a magnitude per component.
pub fn newell<S: Scalar>(pts: &[&Point3<S>]) -> (Vector3<S>, Vector3<S>) {
    newell_of(pts.len(), |k| pts[k])
}

/// [`newell`] of the polygon whose `k`-th of `n` vertices is `at(k)` (no list is built).
pub fn newell_of<'a, S: Scalar>(n_pts: usize, at: impl Fn(usize) -> &'a Point3<S>) -> (Vector3<S>, Vector3<S>) {
    let mut n = Vector3::from_element(S::zero());
    let mut m = Vector3::from_element(S::zero());
    for k in 0..n_pts {
        // The next vertex, cyclically (no division in the loop).
        let (p, q) = (at(k), at(if k + 1 == n_pts { 0 } else { k + 1 }));
        for (axis, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            let (d, s) = (p[i].clone() - q[i].clone(), p[j].clone() + q[j].clone());
            m[axis] += d.abs() * s.abs();
            n[axis] += d * s;
        }
    }
    (n, m)
}

/// [`newell_of`]'s normal alone. A quadrilateral's on a backend with certain decisions is the
/// cross product of its diagonals, (p₂ − p₀) × (p₃ − p₁) = p₀×p₁ + p₁×p₂ + p₂×p₃ + p₃×p₀
/// (Newell's sum, an identity of polynomials): the same value exactly, or an enclosure of it,
/// for a third of the products (a posed box's six faces). Tolerant backends sum as Newell does.
pub fn newell_normal_of<'a, S: Scalar>(n_pts: usize, at: impl Fn(usize) -> &'a Point3<S>) -> Vector3<S> {
    if n_pts == 4 && S::CERTAIN_DECISIONS {
        return (at(2) - at(0)).cross(&(at(3) - at(1)));
    }
    let mut n = Vector3::from_element(S::zero());
    for k in 0..n_pts {
        let (p, q) = (at(k), at(if k + 1 == n_pts { 0 } else { k + 1 }));
        for (axis, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            n[axis] += (p[i].clone() - q[i].clone()) * (p[j].clone() + q[j].clone());
        }
    }
    n
}

/// The magnitude of n·p − n·p₀ for a computed Newell normal n: its terms are bounded by the
/// Newell magnitudes m (not by |n|, which for a sliver face is much smaller than the rounding
/// error of n), so Σ mᵢ (|pᵢ| + |p₀ᵢ|).
pub fn planarity_magnitude<S: Scalar>(m: &Vector3<S>, p0: &Point3<S>, p: &Point3<S>) -> S {
    (0..3).fold(S::zero(), |acc, i| acc + m[i].clone() * (p[i].abs() + p0[i].abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    /// The diagonals' cross product is Newell's normal exactly, for any quadrilateral (planar
    /// or not), and an enclosure of it on intervals.
    #[test]
    fn a_quadrilaterals_normal_by_its_diagonals_is_newells() {
        let mut seed = 0x5eed_u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 40) as i64 % 9 - 4
        };
        for _ in 0..200 {
            let pts: Vec<Point3<BigRational>> = (0..4)
                .map(|_| {
                    let c = [0; 3].map(|_| BigRational::new(next().into(), (1 + next().abs()).into()));
                    Point3::new(c[0].clone(), c[1].clone(), c[2].clone())
                })
                .collect();
            let (newell, _) = newell_of(4, |k| &pts[k]);
            assert_eq!(newell_normal_of(4, |k| &pts[k]), newell, "{pts:?}");
            let boxed: Vec<Point3<crate::scalar::Interval>> = pts.iter().map(|p| p.map(|c| c.to_backend())).collect();
            let enclosure = newell_normal_of(4, |k| &boxed[k]);
            // The same on values with error bounds: each coordinate's enclosure holds it.
            let bounded: Vec<Point3<crate::scalar::MidRad>> = pts.iter().map(|p| p.map(|c| c.to_backend())).collect();
            let bounded = newell_normal_of(4, |k| &bounded[k]);
            for i in 0..3 {
                for e in [enclosure[i], bounded[i].enclosure()] {
                    // lo ≤ x ≤ hi, compared exactly.
                    let [lo, hi] = [e.lo(), e.hi()].map(|b| BigRational::from_float(b).expect("finite"));
                    assert!(lo <= newell[i] && newell[i] <= hi, "{pts:?}");
                }
            }
        }
    }
}
