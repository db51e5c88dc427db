//! Implicit solids: {x : f(x) ≤ 0} inside a box, posed exactly.

use num_rational::BigRational;
use num_traits::Zero;

use super::poly3::{Exponents, Poly3, MAX_COEFF_BITS};
use super::CurvedError;
use crate::geom::{Affine, Point3};

/// A closed solid {x : gₖ(x) ≤ 0 for every constraint gₖ}, where g₀ is the surface
/// polynomial given in the query and the others are the half-spaces of its bounding box (posed
/// with it); its interior is taken as {x : every gₖ(x) < 0}. `aabb` is an axis-aligned box with
/// rational ends that contains the solid (where a search starts).
///
/// The box clips: where the zero set of f crosses it, the box's faces are part of the
/// boundary. The touching certificate needs the contact point strictly inside both boxes, so
/// the shapes built here pad their boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct Implicit {
    constraints: Vec<Poly3>,
    aabb: [[BigRational; 2]; 3],
}

/// Reject a number longer than [`MAX_COEFF_BITS`], naming it.
fn check_bits<'a>(what: &'static str, numbers: impl IntoIterator<Item = &'a BigRational>) -> Result<(), CurvedError> {
    for x in numbers {
        let bits = x.numer().bits().max(x.denom().bits());
        if bits > MAX_COEFF_BITS {
            return Err(CurvedError::NumberTooLarge { what, bits, limit: MAX_COEFF_BITS });
        }
    }
    Ok(())
}

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

impl Implicit {
    /// {x ∈ [lo, hi] : f(x) ≤ 0}. Errors: a box with `lo ≥ hi` on an axis
    /// ([`CurvedError::EmptyBounds`], naming the axis).
    pub fn new(f: Poly3, lo: [BigRational; 3], hi: [BigRational; 3]) -> Result<Self, CurvedError> {
        check_bits("bounds", lo.iter().chain(&hi))?;
        for axis in 0..3 {
            if lo[axis] >= hi[axis] {
                return Err(CurvedError::EmptyBounds { axis });
            }
        }
        let mut constraints = vec![f];
        for axis in 0..3 {
            let x = Poly3::variable(axis);
            // x − hi ≤ 0 and lo − x ≤ 0.
            constraints.push(x.add(&Poly3::constant(-hi[axis].clone())));
            constraints.push(x.scale(&q(-1)).add(&Poly3::constant(lo[axis].clone())));
        }
        let aabb = [0, 1, 2].map(|i| [lo[i].clone(), hi[i].clone()]);
        Ok(Implicit { constraints, aabb })
    }

    /// The ball of centre `c` and radius `r > 0`: |x − c|² − r² ≤ 0, in its bounding cube
    /// widened by r/4 (so that the box's faces are not part of the surface).
    pub fn sphere(c: [BigRational; 3], r: BigRational) -> Result<Self, CurvedError> {
        check_bits("centre", &c)?;
        check_bits("radius", [&r])?;
        if r <= BigRational::zero() {
            return Err(CurvedError::NonPositive { what: "radius" });
        }
        let mut f = Poly3::constant(-(&r * &r));
        for (axis, ci) in c.iter().enumerate() {
            let d = Poly3::variable(axis).add(&Poly3::constant(-ci.clone()));
            f = f.add(&d.mul(&d));
        }
        // The box is padded by a quarter of the radius: it contains the ball without touching
        // it, so no contact point of the ball lies on the box's faces.
        let pad = &r + &r / q(4);
        let lo = c.clone().map(|ci| ci - &pad);
        let hi = c.map(|ci| ci + &pad);
        Implicit::new(f, lo, hi)
    }

    /// The solid torus about the z axis through the origin, of major radius `major` and tube
    /// radius `minor` (0 < minor < major): the quartic of Lin–Manocha's Example 5.1,
    /// (x² + y² + z² + R² − r²)² − 4R²(x² + y²) ≤ 0.
    pub fn torus(major: BigRational, minor: BigRational) -> Result<Self, CurvedError> {
        check_bits("radius", [&major, &minor])?;
        if minor <= BigRational::zero() {
            return Err(CurvedError::NonPositive { what: "minor radius" });
        }
        if major <= minor {
            return Err(CurvedError::NonPositive { what: "major radius minus minor radius" });
        }
        let (r2, m2) = (&major * &major, &minor * &minor);
        let sq = |axis: usize| Poly3::variable(axis).mul(&Poly3::variable(axis));
        let rho = sq(0).add(&sq(1));
        let s = rho.add(&sq(2)).add(&Poly3::constant(&r2 - &m2));
        let f = s.mul(&s).add(&rho.scale(&(q(-4) * &r2)));
        // Padded by a quarter of the tube radius (as the ball's box).
        let pad = &minor / q(4);
        let (out, up) = (&major + &minor + &pad, &minor + &pad);
        Implicit::new(f, [-out.clone(), -out.clone(), -up.clone()], [out.clone(), out, up])
    }

    /// The solid torus of centre `c`, axis `n` (nonzero, any length), major radius `major` and
    /// tube radius `minor` (0 < minor < major): with d = x − c, ρ = |d|² − (d·n)²/|n|² (the
    /// squared distance from the axis), (|d|² + R² − r²)² − 4R²ρ ≤ 0, exactly (|n|² is rational,
    /// so no normalisation is needed). Its box is the axis-aligned box of the bounding sphere
    /// of radius R + r, padded by a quarter of r.
    pub fn torus_about(
        c: [BigRational; 3],
        n: [BigRational; 3],
        major: BigRational,
        minor: BigRational,
    ) -> Result<Self, CurvedError> {
        check_bits("centre", &c)?;
        check_bits("axis", &n)?;
        check_bits("radius", [&major, &minor])?;
        let nn = &n[0] * &n[0] + &n[1] * &n[1] + &n[2] * &n[2];
        if nn.is_zero() {
            return Err(CurvedError::NonPositive { what: "axis length" });
        }
        if minor <= BigRational::zero() {
            return Err(CurvedError::NonPositive { what: "minor radius" });
        }
        if major <= minor {
            return Err(CurvedError::NonPositive { what: "major radius minus minor radius" });
        }
        let d: Vec<Poly3> = (0..3).map(|i| Poly3::variable(i).add(&Poly3::constant(-c[i].clone()))).collect();
        let dd = d.iter().fold(Poly3::zero(), |s, x| s.add(&x.mul(x)));
        let dn = (0..3).fold(Poly3::zero(), |s, i| s.add(&d[i].scale(&n[i])));
        let rho = dd.add(&dn.mul(&dn).scale(&(-q(1) / &nn)));
        let (r2, m2) = (&major * &major, &minor * &minor);
        let s = dd.add(&Poly3::constant(&r2 - &m2));
        let f = s.mul(&s).add(&rho.scale(&(q(-4) * &r2)));
        let pad = &major + &minor + &minor / q(4);
        let lo = c.clone().map(|x| x - &pad);
        let hi = c.map(|x| x + &pad);
        Implicit::new(f, lo, hi)
    }

    /// The solid cylinder with flat caps of axis segment `a`–`b` (distinct) and radius `r > 0`:
    /// |(x − a) × u|² − r²|u|² ≤ 0 (u = b − a) between the caps' planes u·(x − a) ≥ 0 and
    /// u·(x − b) ≤ 0. Its box is that of the two caps' bounding spheres, padded by r/4.
    pub fn cylinder(a: [BigRational; 3], b: [BigRational; 3], r: BigRational) -> Result<Self, CurvedError> {
        check_bits("end", a.iter().chain(&b))?;
        check_bits("radius", [&r])?;
        if r <= BigRational::zero() {
            return Err(CurvedError::NonPositive { what: "radius" });
        }
        let u: [BigRational; 3] = [0, 1, 2].map(|i| &b[i] - &a[i]);
        let uu = &u[0] * &u[0] + &u[1] * &u[1] + &u[2] * &u[2];
        if uu.is_zero() {
            return Err(CurvedError::NonPositive { what: "axis length" });
        }
        let d: Vec<Poly3> = (0..3).map(|i| Poly3::variable(i).add(&Poly3::constant(-a[i].clone()))).collect();
        let cross = [
            d[1].scale(&u[2]).add(&d[2].scale(&-u[1].clone())),
            d[2].scale(&u[0]).add(&d[0].scale(&-u[2].clone())),
            d[0].scale(&u[1]).add(&d[1].scale(&-u[0].clone())),
        ];
        let side = cross.iter().fold(Poly3::constant(-(&r * &r * &uu)), |s, x| s.add(&x.mul(x)));
        let along = (0..3).fold(Poly3::zero(), |s, i| s.add(&d[i].scale(&u[i])));
        // u·(x − a) ≥ 0 and u·(x − a) − |u|² ≤ 0.
        let bottom = along.scale(&q(-1));
        let top = along.add(&Poly3::constant(-uu.clone()));
        let pad = &r + &r / q(4);
        let lo = [0, 1, 2].map(|i| if a[i] < b[i] { &a[i] - &pad } else { &b[i] - &pad });
        let hi = [0, 1, 2].map(|i| if a[i] > b[i] { &a[i] + &pad } else { &b[i] + &pad });
        let mut s = Implicit::new(side, lo, hi)?;
        s.constraints.push(bottom);
        s.constraints.push(top);
        Ok(s)
    }

    /// The ellipsoid of centre `c` and semi-axes `axes` (all > 0) along x, y, z:
    /// Σ ((xᵢ − cᵢ)/aᵢ)² − 1 ≤ 0.
    pub fn ellipsoid(c: [BigRational; 3], axes: [BigRational; 3]) -> Result<Self, CurvedError> {
        check_bits("centre", &c)?;
        check_bits("semi-axis", &axes)?;
        if axes.iter().any(|a| *a <= BigRational::zero()) {
            return Err(CurvedError::NonPositive { what: "semi-axis" });
        }
        let mut f = Poly3::constant(q(-1));
        for axis in 0..3 {
            let d = Poly3::variable(axis).add(&Poly3::constant(-c[axis].clone()));
            f = f.add(&d.mul(&d).scale(&(q(1) / (&axes[axis] * &axes[axis]))));
        }
        let pad = |i: usize| &axes[i] + &axes[i] / q(4);
        let lo = [0, 1, 2].map(|i| &c[i] - pad(i));
        let hi = [0, 1, 2].map(|i| &c[i] + pad(i));
        Implicit::new(f, lo, hi)
    }

    /// The convex polytope {x : nᵢ·x ≤ dᵢ} of the given planes (each `[nx, ny, nz, d]`), in the
    /// box [lo, hi] that must contain it.
    pub fn halfspaces(
        planes: &[[BigRational; 4]],
        lo: [BigRational; 3],
        hi: [BigRational; 3],
    ) -> Result<Self, CurvedError> {
        let linear = |p: &[BigRational; 4]| {
            let terms: Vec<(BigRational, Exponents)> = vec![
                (p[0].clone(), [1, 0, 0]),
                (p[1].clone(), [0, 1, 0]),
                (p[2].clone(), [0, 0, 1]),
                (-p[3].clone(), [0, 0, 0]),
            ];
            Poly3::from_terms(&terms)
        };
        let first = planes.first().ok_or(CurvedError::NoConstraint)?;
        let mut s = Implicit::new(linear(first)?, lo, hi)?;
        for p in &planes[1..] {
            s.constraints.push(linear(p)?);
        }
        Ok(s)
    }

    /// The solid moved by the invertible affine map `m`: each constraint composed with the
    /// exact inverse, the box the hull of the moved corners. Errors: a singular map, an entry
    /// longer than [`MAX_COEFF_BITS`]. Posing multiplies the bits of the coefficients by up to
    /// the degree: pose a posed solid again only with small entries.
    pub fn posed(&self, m: &Affine<BigRational>) -> Result<Self, CurvedError> {
        check_bits("pose entry", m.linear.iter().chain(m.translation.iter()))?;
        let inv = m.inverse().map_err(|_| CurvedError::SingularPose)?;
        let rows: [[BigRational; 4]; 3] = [0, 1, 2].map(|i| {
            [
                inv.linear[(i, 0)].clone(),
                inv.linear[(i, 1)].clone(),
                inv.linear[(i, 2)].clone(),
                inv.translation[i].clone(),
            ]
        });
        let constraints = self.constraints.iter().map(|g| g.substitute_affine(&rows)).collect();
        let mut aabb: Option<[[BigRational; 2]; 3]> = None;
        for corner in 0..8 {
            let p = Point3::new(
                self.aabb[0][corner & 1].clone(),
                self.aabb[1][(corner >> 1) & 1].clone(),
                self.aabb[2][(corner >> 2) & 1].clone(),
            );
            let r = m.apply_point(&p);
            let v = [r.x.clone(), r.y.clone(), r.z.clone()];
            aabb = Some(match aabb {
                None => v.map(|x| [x.clone(), x]),
                Some(b) => {
                    let mut b = b;
                    for i in 0..3 {
                        if v[i] < b[i][0] {
                            b[i][0] = v[i].clone();
                        }
                        if v[i] > b[i][1] {
                            b[i][1] = v[i].clone();
                        }
                    }
                    b
                }
            });
        }
        let aabb = aabb.unwrap_or_else(|| self.aabb.clone());
        Ok(Implicit { constraints, aabb })
    }

    /// The surface polynomial f (the first constraint).
    pub fn surface(&self) -> &Poly3 {
        &self.constraints[0]
    }

    /// Every constraint: the surface polynomial, then the box's half-spaces.
    pub fn constraints(&self) -> &[Poly3] {
        &self.constraints
    }

    /// The axis-aligned box that contains the solid.
    pub fn aabb(&self) -> &[[BigRational; 2]; 3] {
        &self.aabb
    }

    /// Whether the rational point is in the closed solid, exactly.
    pub fn contains(&self, p: &[BigRational; 3]) -> bool {
        self.constraints.iter().all(|g| g.eval(p) <= BigRational::zero())
    }

    /// Whether the rational point is in the interior (every constraint negative), exactly.
    pub fn contains_strictly(&self, p: &[BigRational; 3]) -> bool {
        self.constraints.iter().all(|g| g.eval(p) < BigRational::zero())
    }
}
