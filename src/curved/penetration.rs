//! Lin–Manocha's penetration test (§4.3, Theorem 4.1, system (10)): two algebraic surfaces
//! f = 0 and g = 0 interpenetrate along a nonplanar curve iff the system
//! f = 0, g = 0, (∇f × ∇g)·v = 0 has a real solution (v = e_z in the paper: f_x g_y − f_y g_x,
//! the z component of the intersection curve's tangent, which vanishes at least twice on every
//! closed nonplanar component). A planar intersection curve parallel to the plane v⊥ makes the
//! last equation vanish along the whole curve; the paper's remedy, a generic linear
//! combination, is the choice of v.
//!
//! Here the real solutions in the two solids' common box are *certified*: each is proved to be
//! the only zero in a small box by the Krawczyk test, and a proved simple zero is a transversal
//! crossing of the surfaces (its Jacobian rows ∇f and ∇g are independent), so the interiors
//! meet next to it; an exact witness point inside both is then searched for beside it.

use num_rational::BigRational;

use super::implicit::Implicit;
use super::krawczyk::{fbox, isolate, Poly3System};
use super::poly3::{hull, Poly3};
use super::search::{exact, limit, Prepared};
use super::CurvedError;

/// The real solutions of system (10) in the two solids' common box.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpenetration {
    /// Boxes (per axis `[lo, hi]`, binary64 ends) each holding exactly one solution, at which
    /// every other constraint of both solids is negative (the point is on both surfaces).
    pub points: Vec<[[f64; 2]; 3]>,
    /// Boxes where nothing was decided at the precision (a double or non-isolated solution,
    /// as along a planar curve with v normal to its plane).
    pub undecided: usize,
    /// An exact point strictly inside both solids next to the first solution, where found.
    pub witness: Option<[BigRational; 3]>,
}

impl Interpenetration {
    /// Theorem 4.1's verdict: a certified real solution (nonplanar interpenetration).
    pub fn interpenetrating(&self) -> bool {
        !self.points.is_empty()
    }

    /// No real solution anywhere in the common box, proved (every box excluded).
    pub fn none_proved(&self) -> bool {
        self.points.is_empty() && self.undecided == 0
    }
}

/// The cross product of two gradients, dotted with `v`: (∇f × ∇g)·v, exactly.
fn normal_along(f: &Poly3, g: &Poly3, v: &[BigRational; 3]) -> Poly3 {
    let (a, b) = (f.gradient(), g.gradient());
    let comp =
        |i: usize, j: usize| a[i].mul(&b[j]).add(&a[j].mul(&b[i]).scale(&BigRational::from_integer((-1).into())));
    // (a × b) = (a₁b₂ − a₂b₁, a₂b₀ − a₀b₂, a₀b₁ − a₁b₀).
    comp(1, 2).scale(&v[0]).add(&comp(2, 0).scale(&v[1])).add(&comp(0, 1).scale(&v[2]))
}

/// Theorem 4.1's system for the surface polynomials of `a` and `b` and the direction `v`,
/// solved in their common box down to its size over 2^`precision` (at most `max_boxes`
/// boxes). Errors: [`CurvedError::Limit`] when the query's budget is spent.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::curved::{interpenetration, Implicit};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // Two unit balls whose centres are 1 apart along x: they cross along a circle in the plane
/// // x = 1/2, whose tangent is horizontal (its z component zero) at two points: (1/2, 0, ±√3/2).
/// let a = Implicit::sphere([q(0), q(0), q(0)], q(1)).unwrap();
/// let b = Implicit::sphere([q(1), q(0), q(0)], q(1)).unwrap();
/// let s = interpenetration(&a, &b, [q(0), q(0), q(1)], 30, 100_000).unwrap();
/// assert!(s.interpenetrating() && s.points.len() == 2, "{s:?}");
/// ```
pub fn interpenetration(
    a: &Implicit,
    b: &Implicit,
    v: [BigRational; 3],
    precision: u32,
    max_boxes: usize,
) -> Result<Interpenetration, CurvedError> {
    let (pa, pb) = (Prepared::new(a), Prepared::new(b));
    let mut region = pa.aabb;
    for (r, q) in region.iter_mut().zip(&pb.aabb) {
        r[0] = r[0].max(q[0]);
        r[1] = r[1].min(q[1]);
        if r[0] > r[1] {
            return Ok(Interpenetration { points: vec![], undecided: 0, witness: None });
        }
    }
    let (f, g) = (a.surface(), b.surface());
    let n = normal_along(f, g, &v);
    let sys = Poly3System::new([f, g, &n]);
    let size = region.iter().map(|[lo, hi]| hi - lo).fold(0.0, f64::max);
    let min_width = size / 2f64.powi(precision.min(60) as i32);
    let iso = isolate(&sys, &region.map(|[lo, hi]| hull(lo, hi)), min_width, max_boxes).map_err(limit)?;
    // Solutions on both surfaces: every other constraint negative throughout the root box.
    let others_negative = |p: &Prepared<'_>, bx: &[[f64; 2]; 3]| {
        p.constraints.iter().skip(1).all(|(c, grad)| super::poly3::enclose_mean_value(c, grad, bx).hi() < 0.0)
    };
    let mut points = Vec::new();
    let mut undecided = iso.undecided.len();
    for r in &iso.roots {
        let bx = fbox(r);
        if others_negative(&pa, &bx) && others_negative(&pb, &bx) {
            points.push(bx);
        } else if !(outside_either(&pa, &bx) || outside_either(&pb, &bx)) {
            // On a box face of either solid: not decided here.
            undecided += 1;
        }
    }
    let witness = points.first().and_then(|bx| witness_near(&pa, &pb, bx, size));
    Ok(Interpenetration { points, undecided, witness })
}

/// Some other constraint is positive throughout: the solution is not on that solid.
fn outside_either(p: &Prepared<'_>, bx: &[[f64; 2]; 3]) -> bool {
    p.constraints.iter().skip(1).any(|(c, grad)| super::poly3::enclose_mean_value(c, grad, bx).lo() > 0.0)
}

/// An exact point inside both solids near a transversal crossing in `bx`: from its centre, small
/// steps along −(∇f/|∇f| + ∇g/|∇g|), each candidate checked exactly.
fn witness_near(pa: &Prepared<'_>, pb: &Prepared<'_>, bx: &[[f64; 2]; 3], size: f64) -> Option<[BigRational; 3]> {
    let c = bx.map(|[lo, hi]| lo + (hi - lo) / 2.0);
    let unit = |p: &Prepared<'_>| {
        let d = p.constraints[0].1.each_ref().map(|q| q.eval_f64(&c));
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        d.map(|x| x / len)
    };
    let (u, w) = (unit(pa), unit(pb));
    let dir = [0, 1, 2].map(|i| -(u[i] + w[i]));
    if !dir.iter().all(|x| x.is_finite()) {
        return None;
    }
    for k in [40, 32, 24, 16, 10] {
        let t = size * 2f64.powi(-k);
        let y = [0, 1, 2].map(|i| c[i] + t * dir[i]);
        let e = exact(&y);
        if pa.solid.contains_strictly(&e) && pb.solid.contains_strictly(&e) {
            return Some(e);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    #[test]
    fn a_planar_curve_needs_a_generic_direction() {
        // Unit balls centred on the z axis, 1 apart: they cross along a horizontal circle. With
        // v = e_z the third equation vanishes along the whole circle (the paper's exception):
        // no isolated solution is proved. With v = (1, 2, 3) it vanishes at two points.
        let a = Implicit::sphere([q(0), q(0), q(0)], q(1)).unwrap();
        let b = Implicit::sphere([q(0), q(0), q(1)], q(1)).unwrap();
        let along_z = interpenetration(&a, &b, [q(0), q(0), q(1)], 16, 20_000).unwrap();
        assert!(along_z.points.is_empty() && along_z.undecided > 0, "{along_z:?}");
        let generic = interpenetration(&a, &b, [q(1), q(2), q(3)], 30, 100_000).unwrap();
        assert_eq!(generic.points.len(), 2, "{generic:?}");
        let w = generic.witness.expect("a witness beside the crossing");
        assert!(a.contains_strictly(&w) && b.contains_strictly(&w));
        // Apart: no solution, proved.
        let far = Implicit::sphere([q(0), q(0), q(3)], q(1)).unwrap();
        let apart = interpenetration(&a, &far, [q(1), q(2), q(3)], 30, 100_000).unwrap();
        assert!(apart.none_proved(), "{apart:?}");
    }
}
