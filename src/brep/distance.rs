//! Squared distances from a point to a solid's boundary: the feet of the perpendicular on the
//! faces (located in the closed face, convex or not), the edges and the vertices.

use super::Solid;
use crate::constructions::{plane_foot, squared_distance_point_segment};
use crate::geom::{norm2, Point3};
use crate::predicates::{locate_in_polygon, side_of_plane, Least, PolygonLocation, Side};
use crate::scalar::{Decision, Scalar};

impl<S: Scalar> Solid<S> {
    /// Whether the closed *convex* solid holds `p`: below or on every face plane (on a solid
    /// that is not convex the answer is that of its faces' planes, not of the solid).
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::brep::shapes::cube;
    /// use touchstone::geom::point;
    /// let c = cube::<BigRational>(); // [-1, 1]³
    /// assert_eq!(c.convex_holds(&point(0, 1, 0)), Ok(true));
    /// assert_eq!(c.convex_holds(&point(0, 2, 0)), Ok(false));
    /// ```
    pub fn convex_holds(&self, p: &Point3<S>) -> Decision<bool> {
        for f in 0..self.face_count() {
            if side_of_plane(self.plane(f), p)? == Side::Above {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Where the foot of the perpendicular from `p` on face `f`'s plane lies in the closed
    /// face, with the squared distance to the plane and the foot.
    pub fn face_foot(&self, f: usize, p: &Point3<S>) -> Decision<(S, Point3<S>, PolygonLocation)> {
        let (d, foot) = plane_foot(p, self.plane(f));
        let at = self.foot_in_face(f, &foot)?;
        Ok((d, foot, at))
    }

    /// Where a point of face `f`'s plane (a foot on it) lies in the closed face.
    pub(crate) fn foot_in_face(&self, f: usize, foot: &Point3<S>) -> Decision<PolygonLocation> {
        let polygon: Vec<Point3<S>> = self.face(f).iter().map(|&v| self.vertex(v).clone()).collect();
        locate_in_polygon(&polygon, &self.plane(f).normal, foot)
    }

    /// The squared distance from `p` to the boundary of the solid (any solid): the least over
    /// its faces (the foot of the perpendicular in the closed face), edges and vertices. Zero
    /// for a point on the boundary; a point inside is at its distance from the boundary too.
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::brep::shapes::cube;
    /// use touchstone::geom::point;
    /// let q = |x: i64| BigRational::from_integer(x.into());
    /// let c = cube::<BigRational>(); // [-1, 1]³
    /// assert_eq!(c.boundary_squared_distance(&point(3, 0, 0)).unwrap(), q(4));
    /// assert_eq!(c.boundary_squared_distance(&point(2, 2, 2)).unwrap(), q(3));
    /// assert_eq!(c.boundary_squared_distance(&point(0, 0, 0)).unwrap(), q(1));
    /// ```
    pub fn boundary_squared_distance(&self, p: &Point3<S>) -> Decision<S> {
        self.boundary_squared_distance_without(p, &[], None)
    }

    /// [`Solid::boundary_squared_distance`] with the faces `faces` and the edge `edge` left out
    /// (the other edges and the vertices of those faces still count).
    pub(crate) fn boundary_squared_distance_without(
        &self,
        p: &Point3<S>,
        faces: &[usize],
        edge: Option<(usize, usize)>,
    ) -> Decision<S> {
        let mut least = Least::new();
        for f in (0..self.face_count()).filter(|f| !faces.contains(f)) {
            crate::budget::tick()?;
            let (d, _, at) = self.face_foot(f, p)?;
            if at.in_closure() {
                least.offer(d, ())?;
            }
        }
        let skipped = |u: usize, v: usize| edge.is_some_and(|(x, y)| (x, y) == (u, v) || (x, y) == (v, u));
        for &(u, v) in self.edges().iter().filter(|&&(u, v)| !skipped(u, v)) {
            least.offer(squared_distance_point_segment(p, self.vertex(u), self.vertex(v))?.0, ())?;
        }
        for q in self.vertices() {
            least.offer(norm2(&(p - q)), ())?;
        }
        Ok(least.into_value().unwrap_or_else(S::zero))
    }
}
