//! Where a point lies in a closed polygon of its plane or on a segment of its line, and the
//! choice of the axis a planar figure is projected along.

use crate::geom::{cross_magnitude, dot_magnitude, drop_axis, Point3, Vector3};
use crate::scalar::{compare_points, Decision, Scalar, Sign, Uncertain};
use std::cmp::Ordering;

use super::{orient2d, parallel, Orientation};

/// Where a point of a polygon's plane lies relative to the closed polygon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolygonLocation {
    /// On vertex `i` of the polygon.
    Vertex(usize),
    /// In the relative interior of side `i`, from vertex `i` to vertex `i + 1` (mod n).
    Edge(usize),
    /// In the interior: the polygon winds around the point (nonzero winding number).
    Inside,
    /// Outside the closed polygon.
    Outside,
}

impl PolygonLocation {
    /// Whether the point lies in the closed polygon (on a vertex, on a side or inside).
    pub fn in_closure(self) -> bool {
        self != PolygonLocation::Outside
    }
}

/// Where `p`, a point of the plane of `polygon` (whose normal is `normal`, nonzero), lies in
/// the closed polygon: on a vertex (checked first, by exact equality), on a side, inside
/// (nonzero winding number, so either orientation and any simple polygon), or outside.
///
/// The polygon and the point are projected along an axis on which `normal` has a nonzero
/// component ([`nonzero_axis`]); every decision is an [`orient2d`] of projected points or a
/// comparison of coordinates, so on exact backends the answer is exact and on `f64` it is
/// decided with [`orient2d`]'s tolerance. A zero normal (no axis to project along) is
/// [`Uncertain::Close`].
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::predicates::{locate_in_polygon, PolygonLocation};
/// let p = |x, y| point::<BigRational>(x, y, 0);
/// let square = [p(0, 0), p(2, 0), p(2, 2), p(0, 2)];
/// let up = point::<BigRational>(0, 0, 1).coords;
/// assert_eq!(locate_in_polygon(&square, &up, &p(1, 1)), Ok(PolygonLocation::Inside));
/// assert_eq!(locate_in_polygon(&square, &up, &p(2, 1)), Ok(PolygonLocation::Edge(1)));
/// assert_eq!(locate_in_polygon(&square, &up, &p(0, 2)), Ok(PolygonLocation::Vertex(3)));
/// assert_eq!(locate_in_polygon(&square, &up, &p(3, 1)), Ok(PolygonLocation::Outside));
/// ```
pub fn locate_in_polygon<S: Scalar>(
    polygon: &[Point3<S>],
    normal: &Vector3<S>,
    p: &Point3<S>,
) -> Decision<PolygonLocation> {
    for (i, v) in polygon.iter().enumerate() {
        if compare_points(v, p)? == Ordering::Equal {
            return Ok(PolygonLocation::Vertex(i));
        }
    }
    let k = nonzero_axis(normal)?.ok_or(Uncertain::Close)?;
    let pp = drop_axis(p, k);
    let m = polygon.len();
    let mut winding = 0i64;
    for i in 0..m {
        let (pa, pb) = (drop_axis(&polygon[i], k), drop_axis(&polygon[(i + 1) % m], k));
        let (ya, yb) = (pa.y.compare(&pp.y)?, pb.y.compare(&pp.y)?);
        // A side wholly above or below p's horizontal line neither holds p nor crosses the
        // line: no orientation test (two comparisons instead, on a polygon of a thousand
        // sides most of them).
        if ya == yb && ya != Ordering::Equal {
            continue;
        }
        let o = orient2d(&pa, &pb, &pp)?;
        // Collinear and within the closed side (p ≠ either end: checked above).
        if o == Orientation::Coplanar && (&pp - &pa).dot(&(&pp - &pb)).sign()? != Sign::Positive {
            return Ok(PolygonLocation::Edge(i));
        }
        // Crossing the horizontal line through p upward with p to the left, or downward with
        // p to the right.
        if ya != Ordering::Greater && yb == Ordering::Greater && o == Orientation::Positive {
            winding += 1;
        } else if yb != Ordering::Greater && ya == Ordering::Greater && o == Orientation::Negative {
            winding -= 1;
        }
    }
    Ok(if winding != 0 { PolygonLocation::Inside } else { PolygonLocation::Outside })
}

/// Where a point lies relative to a closed segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentLocation {
    /// On the first end.
    Start,
    /// On the second end (and not on the first).
    End,
    /// In the open segment, strictly between the ends.
    Inside,
    /// Off the closed segment (off its line, or on the line beyond an end).
    Outside,
}

impl SegmentLocation {
    /// Whether the point lies on the closed segment.
    pub fn in_closure(self) -> bool {
        self != SegmentLocation::Outside
    }
}

/// Where `p` lies relative to the closed segment from `a` to `b`: on an end (by exact
/// equality), strictly between them, or off it. Collinearity is [`parallel`] of p − a and
/// b − a; "between" is (p − a)·(p − b) < 0, decided against its terms. A degenerate segment
/// (a = b) holds only its point.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::predicates::{locate_on_segment, SegmentLocation};
/// let p = |x, y, z| point::<BigRational>(x, y, z);
/// let (a, b) = (p(0, 0, 0), p(2, 4, 6));
/// assert_eq!(locate_on_segment(&a, &b, &p(1, 2, 3)), Ok(SegmentLocation::Inside));
/// assert_eq!(locate_on_segment(&a, &b, &p(2, 4, 6)), Ok(SegmentLocation::End));
/// assert_eq!(locate_on_segment(&a, &b, &p(3, 6, 9)), Ok(SegmentLocation::Outside));
/// assert_eq!(locate_on_segment(&a, &b, &p(1, 2, 4)), Ok(SegmentLocation::Outside));
/// ```
pub fn locate_on_segment<S: Scalar>(a: &Point3<S>, b: &Point3<S>, p: &Point3<S>) -> Decision<SegmentLocation> {
    if compare_points(a, p)? == Ordering::Equal {
        return Ok(SegmentLocation::Start);
    }
    if compare_points(b, p)? == Ordering::Equal {
        return Ok(SegmentLocation::End);
    }
    let (u, w): (Vector3<S>, Vector3<S>) = (p - a, p - b);
    if !parallel(&u, &(b - a))? {
        return Ok(SegmentLocation::Outside);
    }
    let between = u.dot(&w).sign_scaled(|| dot_magnitude(&u, &w))? == Sign::Negative;
    Ok(if between { SegmentLocation::Inside } else { SegmentLocation::Outside })
}

/// The magnitudes of `n`'s components by their images ([`Scalar::image`]): what every backend
/// sees alike, for the heuristic choices of an axis.
fn component_images<S: Scalar>(n: &Vector3<S>) -> Decision<[f64; 3]> {
    Ok([n.x.image()?.abs(), n.y.image()?.abs(), n.z.image()?.abs()])
}

/// The index of the coordinate axis least aligned with `n` (by the components' images: a
/// heuristic choice; any axis whose cross product with `n` is nonzero is correct).
pub fn least_aligned_axis<S: Scalar>(n: &Vector3<S>) -> Decision<usize> {
    let a = component_images(n)?;
    Ok((0..3).min_by(|&i, &j| a[i].total_cmp(&a[j])).unwrap_or(0))
}

/// The index of the coordinate axis most aligned with `n` (by the components' images).
fn most_aligned_axis<S: Scalar>(n: &Vector3<S>) -> Decision<usize> {
    let a = component_images(n)?;
    Ok((0..3).max_by(|&i, &j| a[i].total_cmp(&a[j])).unwrap_or(2))
}

/// An axis along which `n` has a nonzero component: the most aligned by the images when that
/// component is nonzero exactly, else the first nonzero one (images of tiny values are all
/// zero). `None` for the zero vector. Projecting a planar figure along it keeps orientations,
/// up to the sign of that component.
pub fn nonzero_axis<S: Scalar>(n: &Vector3<S>) -> Decision<Option<usize>> {
    Ok(signed_nonzero_axis(n)?.map(|(k, _)| k))
}

/// [`nonzero_axis`] with the sign of `n`'s component along it (never `Zero`): which way the
/// projection along that axis sees `n`.
pub fn signed_nonzero_axis<S: Scalar>(n: &Vector3<S>) -> Decision<Option<(usize, Sign)>> {
    let k = most_aligned_axis(n)?;
    let s = n[k].sign()?;
    if s != Sign::Zero {
        return Ok(Some((k, s)));
    }
    for i in 0..3 {
        let s = n[i].sign()?;
        if s != Sign::Zero {
            return Ok(Some((i, s)));
        }
    }
    Ok(None)
}

/// Which way a path turns at `b` (from `a` through `b` to `c`), seen from the side `normal`
/// points to: `Positive` counterclockwise (to the left), `Negative` clockwise, `Coplanar` when
/// a, b, c are collinear. The sign of ((b − a) × (c − b)) · normal, decided against its terms.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::{point, Vector3};
/// use touchstone::predicates::{turn, Orientation};
/// let p = |x, y| point::<BigRational>(x, y, 0);
/// let up = Vector3::new(0i64, 0, 1).map(|x| BigRational::from_integer(x.into()));
/// assert_eq!(turn(&p(0, 0), &p(1, 0), &p(1, 1), &up), Ok(Orientation::Positive));
/// assert_eq!(turn(&p(0, 0), &p(1, 0), &p(3, 0), &up), Ok(Orientation::Coplanar));
/// assert_eq!(turn(&p(0, 0), &p(1, 0), &p(1, -1), &up), Ok(Orientation::Negative));
/// ```
pub fn turn<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>, normal: &Vector3<S>) -> Decision<Orientation> {
    let (u, v) = (b - a, c - b);
    let abs = |w: &Vector3<S>| w.map(|x| x.abs());
    let value = u.cross(&v).dot(normal);
    Ok(value.sign_scaled(|| dot_magnitude(&cross_magnitude(&abs(&u), &abs(&v)), normal))?.into())
}
