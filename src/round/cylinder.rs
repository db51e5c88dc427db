//! Solid cylinders (MuJoCo's and Bullet's, FCL's and coal's `Cylinder`) against balls, exactly
//! (issue 42: "cylinders too where the exact answer is rational or algebraic of low degree").
//!
//! A cylinder is the set of points within `radius` of the line through its axis segment A–B
//! whose projection falls on the segment: flat caps, a sharp rim. It is not a core swept by a
//! ball, so it has its own module. For a point X, with u = B − A, k = |u|², w = X − A, the
//! axial coordinate t = w·u and ρ² = |w × u|²/k (the squared distance from the axis), the
//! squared distance from X to the cylinder is
//!
//! > d² = E + (√ρ² − r)²₊,  E = t²/k below the cap at A (t < 0), (t − k)²/k above the cap
//! > at B (t > k), 0 beside the side;
//!
//! the second term is there only where ρ² > r² (the side, or a rim). So d² = a + b√m with
//! rational a, b, m ([`Surd`]), and a ball of radius s touches, misses or penetrates the
//! cylinder by the sign of d² − s²: an exact sign of a + b√m, decided by squaring once. The
//! distance √d² − s is algebraic of degree at most 4, the closest point on the cylinder has
//! coordinates a + b√ρ², and the penetration depth of a ball whose centre is inside is
//! s + min(r − √ρ², t/√k, (k − t)/√k). Every value is compared exactly with any rational
//! ([`ExactCylinder::compare`]), which gives its decimals to any number of digits.
//!
//! Which pairs: a cylinder against a ball. A cylinder against a capsule, a box or another
//! cylinder meets the rim circle against a segment or a polygon (the circle–segment problem
//! of [`super::torus`], degree 4, and worse for two rims): not answered yet.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::geom::point;
//! use touchstone::round::cylinder::{ball_cylinder, Cylinder, CylinderFeature};
//! use touchstone::vclip::Status;
//! let q = |n: i64| BigRational::from_integer(n.into());
//! // The cylinder of radius 1 about the z axis from z = 0 to z = 4, and a ball of radius 5
//! // centred at (4, 0, 7): 3 out from the rim and 3 above it, 3² + 3² = 18 < 5².
//! let c = Cylinder::new(point(0, 0, 0), point(0, 0, 4), q(1)).unwrap();
//! let d = ball_cylinder(&c, &point(4, 0, 7), &q(5)).unwrap();
//! assert_eq!((d.status, d.point.feature), (Status::Penetrating, CylinderFeature::Rim(1)));
//! // Centred at (4, 0, 8): 3 and 4 from the rim, √(9 + 16) = 5: touching.
//! let d = ball_cylinder(&c, &point(4, 0, 8), &q(5)).unwrap();
//! assert_eq!(d.status, Status::Touching);
//! ```

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::torus::{decimal_by, iv_mul, iv_sqrt, negate, Iv};
use super::RoundError;
use crate::geom::{Point3, Vector3};
use crate::poly::PolyError;
use crate::scalar::{decimal_of_rational, Decision, Scalar, Sign};
use crate::vclip::Status;

/// A solid cylinder: the axis segment from `ends[0]` to `ends[1]` (distinct) and a positive
/// `radius`; flat caps at both ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Cylinder<S: Scalar> {
    /// The centres of the two caps.
    pub ends: [Point3<S>; 2],
    /// The radius.
    pub radius: S,
}

impl<S: Scalar> Cylinder<S> {
    /// A cylinder, checked: distinct ends, a positive radius.
    ///
    /// Errors: [`RoundError::Invalid`] naming the bad part.
    pub fn new(a: Point3<S>, b: Point3<S>, radius: S) -> Result<Self, RoundError> {
        if radius.sign()? != Sign::Positive {
            return Err(RoundError::Invalid("a cylinder's radius is not positive".into()));
        }
        if crate::scalar::compare_points(&a, &b)? == Ordering::Equal {
            return Err(RoundError::Invalid("a cylinder's ends coincide: it has no height".into()));
        }
        Ok(Cylinder { ends: [a, b], radius })
    }

    /// The cylinder moved by `d`.
    pub fn translated(&self, d: &Vector3<S>) -> Self {
        Cylinder { ends: [&self.ends[0] + d, &self.ends[1] + d], radius: self.radius.clone() }
    }
}

/// Where on a cylinder the distance from a point is realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CylinderFeature {
    /// The point is inside the closed cylinder (distance 0).
    Inside,
    /// The curved side (the closest point is between the caps).
    Side,
    /// The flat cap at end 0 or 1 (inside its rim).
    Cap(usize),
    /// The rim circle of cap 0 or 1.
    Rim(usize),
}

/// A number a + b√m with m ≥ 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Surd<S: Scalar> {
    /// The rational part.
    pub a: S,
    /// The coefficient of the root.
    pub b: S,
    /// The radicand, not negative.
    pub m: S,
}

impl<S: Scalar> Surd<S> {
    /// The number `a` (no root).
    pub fn plain(a: S) -> Self {
        Surd { a, b: S::zero(), m: S::zero() }
    }

    /// Its sign: exact on exact backends (one squaring), certain or [`Uncertain`] on
    /// intervals; [`ball_cylinder`] decides on `f64` by a float formula instead.
    ///
    /// [`Uncertain`]: crate::scalar::Uncertain
    ///
    /// Errors: [`crate::scalar::Uncertain`] on a filtered backend that cannot decide.
    pub fn decide(&self) -> Decision<Sign> {
        let sa = self.a.sign()?;
        let sb = if self.m.sign()? == Sign::Zero { Sign::Zero } else { self.b.sign()? };
        Ok(match (sa, sb) {
            (x, Sign::Zero) => x,
            (Sign::Zero, y) => y,
            (x, y) if x == y => x,
            // Opposite signs: a + b√m has a's sign iff a² > b²m.
            (x, _) => {
                let d = self.a.clone() * self.a.clone() - self.b.clone() * self.b.clone() * self.m.clone();
                match d.sign()? {
                    Sign::Zero => Sign::Zero,
                    Sign::Positive => x,
                    Sign::Negative => negate(x),
                }
            }
        })
    }

    /// Its value in floats.
    pub fn to_f64(&self) -> f64 {
        self.a.to_f64() + self.b.to_f64() * self.m.to_f64().max(0.0).sqrt()
    }

    /// This number minus `q`.
    pub fn minus(&self, q: &S) -> Self {
        Surd { a: self.a.clone() - q.clone(), b: self.b.clone(), m: self.m.clone() }
    }
}

fn dot<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> S {
    a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
}

fn cross<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Vector3<S> {
    let m = |i: usize, j: usize| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone();
    Vector3::new(m(1, 2), m(2, 0), m(0, 1))
}

/// A point measured against a cylinder (see the module's docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PointCylinder<S: Scalar> {
    /// Where the distance is realised.
    pub feature: CylinderFeature,
    /// d², as a + b√m (m = ρ² where the side or a rim realises it).
    pub squared: Surd<S>,
    /// The axial part E of d² (0 beside the side).
    pub axial_squared: S,
    /// t = (X − A)·u, the axial coordinate times |u|.
    pub t: S,
    /// k = |u|².
    pub k: S,
    /// ρ²: the squared distance of the point from the axis line.
    pub rho2: S,
    /// The closest point of the cylinder (the point itself inside), each coordinate a + b√ρ².
    pub closest: [Surd<S>; 3],
}

impl<S: Scalar> PointCylinder<S> {
    /// d² in floats, as E + (√ρ² − r)² (no cancellation near the surface).
    pub fn squared_f64(&self, radius: &S) -> f64 {
        let radial = match self.feature {
            CylinderFeature::Side | CylinderFeature::Rim(_) => {
                (self.rho2.to_f64().max(0.0).sqrt() - radius.to_f64()).powi(2)
            }
            _ => 0.0,
        };
        self.axial_squared.to_f64() + radial
    }
}

/// The distance from point `x` to cylinder `c`: the feature, d² and the closest point.
///
/// Errors: [`crate::scalar::Uncertain`] on a filtered backend that cannot decide.
pub fn point_cylinder<S: Scalar>(x: &Point3<S>, c: &Cylinder<S>) -> Decision<PointCylinder<S>> {
    let [a, b] = &c.ends;
    let u: Vector3<S> = b - a;
    let w: Vector3<S> = x - a;
    let k = dot(&u, &u);
    let t = dot(&w, &u);
    let cr = cross(&w, &u);
    let rho2 = dot(&cr, &cr) / k.clone();
    let r = &c.radius;
    let r2 = r.clone() * r.clone();
    // Below the cap at A, above the cap at B, or beside the side (the caps' planes included).
    // The region tests against their magnitudes (t = w·u: Σ|w_i||u_i|; ρ² − r²: ρ² + r²), so
    // that a float run calls a point within rounding of a cap's plane or the side on it
    // (the squared distance is continuous across the regions).
    let wu = (0..3).fold(S::zero(), |acc, i| acc + w[i].abs() * u[i].abs());
    let (cap, e2, lambda) = if t.sign_scaled(|| wu.clone())? == Sign::Negative {
        (Some(0), t.clone() * t.clone() / k.clone(), S::zero())
    } else if (t.clone() - k.clone()).sign_scaled(|| wu.clone() + k.clone())? == Sign::Positive {
        let e = t.clone() - k.clone();
        (Some(1), e.clone() * e / k.clone(), S::one())
    } else {
        (None, S::zero(), t.clone() / k.clone())
    };
    let beyond = (rho2.clone() - r2.clone()).sign_scaled(|| rho2.clone() + r2.clone())? == Sign::Positive;
    let feature = match (cap, beyond) {
        (None, false) => CylinderFeature::Inside,
        (None, true) => CylinderFeature::Side,
        (Some(i), false) => CylinderFeature::Cap(i),
        (Some(i), true) => CylinderFeature::Rim(i),
    };
    // v = w − (t/k)u: X's offset from the axis.
    let ratio = t.clone() / k.clone();
    let v: Vector3<S> = Vector3::new(
        w[0].clone() - ratio.clone() * u[0].clone(),
        w[1].clone() - ratio.clone() * u[1].clone(),
        w[2].clone() - ratio * u[2].clone(),
    );
    let closest: [Surd<S>; 3] = std::array::from_fn(|i| {
        let on_axis = a[i].clone() + lambda.clone() * u[i].clone();
        if beyond {
            // Moved r along v/|v| from the axis: a coordinate α + (r v_i/ρ²)·√ρ².
            Surd { a: on_axis, b: r.clone() * v[i].clone() / rho2.clone(), m: rho2.clone() }
        } else {
            Surd::plain(on_axis + v[i].clone())
        }
    });
    let squared = if beyond {
        let two = S::one() + S::one();
        Surd { a: e2.clone() + rho2.clone() + r2, b: -(two * r.clone()), m: rho2.clone() }
    } else {
        Surd::plain(e2.clone())
    };
    Ok(PointCylinder { feature, squared, axial_squared: e2, t, k, rho2, closest })
}

/// A ball measured against a cylinder.
#[derive(Clone, Debug, PartialEq)]
pub struct CylinderDistance<S: Scalar> {
    /// Separated (d > s), touching (=) or penetrating (<), with d the distance from the ball's
    /// centre to the cylinder: exact on exact backends.
    pub status: Status,
    /// The centre measured against the cylinder.
    pub point: PointCylinder<S>,
    /// The cylinder.
    pub cylinder: Cylinder<S>,
    /// The ball's centre.
    pub centre: Point3<S>,
    /// The ball's radius s.
    pub radius: S,
}

/// A ball (centre, radius s > 0) against a cylinder: the status by the sign of d² − s²
/// (exactly on exact backends; on `f64` from E + (√ρ² − r)² − s², so that no root is squared).
///
/// Errors: [`RoundError::Invalid`] for a radius that is not positive;
/// [`RoundError::Uncertain`] on a filtered backend that cannot decide.
pub fn ball_cylinder<S: Scalar>(c: &Cylinder<S>, centre: &Point3<S>, s: &S) -> Result<CylinderDistance<S>, RoundError> {
    if s.sign()? != Sign::Positive {
        return Err(RoundError::Invalid("a ball's radius is not positive".into()));
    }
    let point = point_cylinder(centre, c)?;
    let sign = if S::CERTAIN_DECISIONS {
        point.squared.minus(&(s.clone() * s.clone())).decide()?
    } else {
        let g = point.squared_f64(&c.radius) - s.to_f64() * s.to_f64();
        if g > 0.0 {
            Sign::Positive
        } else if g < 0.0 {
            Sign::Negative
        } else {
            Sign::Zero
        }
    };
    let status = match sign {
        Sign::Positive => Status::Separated,
        Sign::Zero => Status::Touching,
        Sign::Negative => Status::Penetrating,
    };
    Ok(CylinderDistance { status, point, cylinder: c.clone(), centre: centre.clone(), radius: s.clone() })
}

impl<S: Scalar> CylinderDistance<S> {
    /// The distance in floats (0 unless separated).
    pub fn distance_f64(&self) -> f64 {
        if self.status != Status::Separated {
            return 0.0;
        }
        (self.point.squared_f64(&self.cylinder.radius).sqrt() - self.radius.to_f64()).max(0.0)
    }

    /// The signed distance in floats: the distance, or minus the penetration depth.
    pub fn signed_f64(&self) -> f64 {
        let s = self.radius.to_f64();
        let d2 = self.point.squared_f64(&self.cylinder.radius);
        if d2 > 0.0 || self.point.feature != CylinderFeature::Inside {
            return d2.sqrt() - s;
        }
        let k = self.point.k.to_f64();
        let t = self.point.t.to_f64();
        let inner = (self.cylinder.radius.to_f64() - self.point.rho2.to_f64().max(0.0).sqrt())
            .min(t / k.sqrt())
            .min((k - t) / k.sqrt());
        -(s + inner)
    }

    /// The closest points in floats, the cylinder's then the ball's: the cylinder's closest
    /// point to the centre, and the centre moved s toward it; the centre twice where it lies
    /// in the cylinder.
    pub fn points_f64(&self) -> [[f64; 3]; 2] {
        let y: [f64; 3] = std::array::from_fn(|i| self.point.closest[i].to_f64());
        let x: [f64; 3] = std::array::from_fn(|i| self.centre[i].to_f64());
        let d: [f64; 3] = std::array::from_fn(|i| y[i] - x[i]);
        let len = d.iter().map(|v| v * v).sum::<f64>().sqrt();
        if self.point.feature == CylinderFeature::Inside || len == 0.0 || !len.is_finite() {
            return [x, x];
        }
        let s = self.radius.to_f64();
        [y, std::array::from_fn(|i| x[i] + s * d[i] / len)]
    }
}

/// The values of an exact ball–cylinder answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CylinderValue {
    /// The squared distance from the centre to the cylinder.
    CentreSquared,
    /// The distance of the shapes (0 unless separated).
    Distance,
    /// The penetration depth (0 unless penetrating).
    Depth,
}

type Q = BigRational;

/// The exact form of a ball–cylinder answer: every value to any number of digits.
#[derive(Clone, Debug)]
pub struct ExactCylinder {
    d: CylinderDistance<Q>,
}

use crate::scalar::rational_sqrt;

impl Surd<Q> {
    /// Its value when rational (no root, or a radicand that is a rational square).
    pub fn rational(&self) -> Option<Q> {
        if self.b.is_zero() || self.m.is_zero() {
            return Some(self.a.clone());
        }
        rational_sqrt(&self.m).map(|r| &self.a + &self.b * r)
    }
}

/// The sign of a rational.
fn qsign(x: &Q) -> Sign {
    if x.is_positive() {
        Sign::Positive
    } else if x.is_negative() {
        Sign::Negative
    } else {
        Sign::Zero
    }
}

/// √m against c (m ≥ 0), exactly.
fn cmp_sqrt(m: &Q, c: &Q) -> Ordering {
    if c.is_negative() {
        Ordering::Greater
    } else {
        m.cmp(&(c * c))
    }
}

fn ordering(s: Sign) -> Ordering {
    match s {
        Sign::Positive => Ordering::Greater,
        Sign::Zero => Ordering::Equal,
        Sign::Negative => Ordering::Less,
    }
}

/// The sign of α + β√g + γ√m (g, m ≥ 0), exactly: the two roots' part T = β√g + γ√m by
/// squaring, then α against −T by squaring again (T² = β²g + γ²m + 2βγ√(gm)).
pub fn sign_two_roots(alpha: &Q, beta: &Q, g: &Q, gamma: &Q, m: &Q) -> Sign {
    let exact = |s: Decision<Sign>| s.unwrap_or(Sign::Zero);
    let t = exact(Surd { a: Q::zero(), b: beta.clone(), m: g.clone() }.decide());
    let t = match (t, exact(Surd { a: Q::zero(), b: gamma.clone(), m: m.clone() }.decide())) {
        (x, Sign::Zero) => x,
        (Sign::Zero, y) => y,
        (x, y) if x == y => x,
        (x, _) => {
            let d = beta * beta * g - gamma * gamma * m;
            match qsign(&d) {
                Sign::Zero => Sign::Zero,
                Sign::Positive => x,
                Sign::Negative => negate(x),
            }
        }
    };
    let sa = qsign(alpha);
    match (sa, t) {
        (x, Sign::Zero) => x,
        (Sign::Zero, y) => y,
        (x, y) if x == y => x,
        (x, _) => {
            // |α| against |T|: α² − T² = (α² − β²g − γ²m) − 2βγ√(gm).
            let two = Q::from_integer(2.into());
            let diff =
                Surd { a: alpha * alpha - beta * beta * g - gamma * gamma * m, b: -(two * beta * gamma), m: g * m };
            match exact(diff.decide()) {
                Sign::Zero => Sign::Zero,
                Sign::Positive => x,
                Sign::Negative => negate(x),
            }
        }
    }
}

impl ExactCylinder {
    /// The exact form of `d`, from a backend with exact values; `None` for one without.
    pub fn of<S: Scalar>(d: &CylinderDistance<S>) -> Option<Self> {
        if !S::EXACT_VALUES {
            return None;
        }
        let q = |x: &S| x.to_rational();
        let pt = |p: &Point3<S>| Some(Point3::new(q(&p.x)?, q(&p.y)?, q(&p.z)?));
        let cylinder =
            Cylinder { ends: [pt(&d.cylinder.ends[0])?, pt(&d.cylinder.ends[1])?], radius: q(&d.cylinder.radius)? };
        let centre = pt(&d.centre)?;
        let point = point_cylinder(&centre, &cylinder).ok()?;
        Some(ExactCylinder { d: CylinderDistance { status: d.status, point, cylinder, centre, radius: q(&d.radius)? } })
    }

    /// The answer on the reference backend.
    pub fn distance(&self) -> &CylinderDistance<Q> {
        &self.d
    }

    /// `value` against `q`, exactly.
    pub fn compare(&self, value: CylinderValue, q: &Q) -> Ordering {
        let d = &self.d;
        let p = &d.point;
        let s = &d.radius;
        let w = &p.squared;
        let exact = |x: Decision<Sign>| ordering(x.unwrap_or(Sign::Zero));
        match value {
            CylinderValue::CentreSquared => exact(w.minus(q).decide()),
            CylinderValue::Distance if d.status != Status::Separated => Q::zero().cmp(q),
            // √W − s against q: √W against q + s.
            CylinderValue::Distance => {
                let c = q + s;
                if c.is_negative() {
                    Ordering::Greater
                } else {
                    exact(w.minus(&(&c * &c)).decide())
                }
            }
            CylinderValue::Depth if d.status != Status::Penetrating => Q::zero().cmp(q),
            CylinderValue::Depth if p.feature != CylinderFeature::Inside => {
                // s − √W against q: s − q against √W.
                let c = s - q;
                if c.is_negative() {
                    Ordering::Less
                } else {
                    exact(Surd { a: &c * &c - &w.a, b: -w.b.clone(), m: w.m.clone() }.decide())
                }
            }
            CylinderValue::Depth => {
                // s + min(r − √ρ², t/√k, (k − t)/√k) against q: the least of the three
                // against y = q − s.
                let y = q - s;
                let r = &d.cylinder.radius;
                let parts = [
                    cmp_sqrt(&p.rho2, &(r - &y)).reverse(),
                    exact(Surd { a: p.t.clone(), b: -y.clone(), m: p.k.clone() }.decide()),
                    exact(Surd { a: &p.k - &p.t, b: -y.clone(), m: p.k.clone() }.decide()),
                ];
                if parts.contains(&Ordering::Less) {
                    Ordering::Less
                } else if parts.contains(&Ordering::Equal) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
        }
    }

    /// A float estimate of `value`.
    pub fn estimate(&self, value: CylinderValue) -> f64 {
        match value {
            CylinderValue::CentreSquared => self.d.point.squared_f64(&self.d.cylinder.radius),
            CylinderValue::Distance => self.d.distance_f64(),
            CylinderValue::Depth if self.d.status == Status::Penetrating => (-self.d.signed_f64()).max(0.0),
            CylinderValue::Depth => 0.0,
        }
    }

    /// `value` to `digits` significant digits, truncated toward zero.
    ///
    /// Errors: [`PolyError::TooManyDigits`] beyond the module's limit; the run's budget.
    pub fn decimal(&self, value: CylinderValue, digits: u32) -> Result<String, PolyError> {
        decimal_by(|q| Ok(self.compare(value, q)), self.estimate(value), digits)
    }

    /// The closest points, the cylinder's then the ball's, each coordinate an exact rational
    /// where it is one, else to `digits` (see [`CylinderDistance::points_f64`] for which
    /// points).
    ///
    /// Errors: as [`ExactCylinder::decimal`].
    pub fn points(&self, digits: u32) -> Result<[[String; 3]; 2], PolyError> {
        let d = &self.d;
        let x = &d.centre;
        if d.point.feature == CylinderFeature::Inside {
            let c: [String; 3] = std::array::from_fn(|i| x[i].to_string());
            return Ok([c.clone(), c]);
        }
        let estimate = d.points_f64();
        let mut y: [String; 3] = Default::default();
        for (i, cell) in y.iter_mut().enumerate() {
            let c = &d.point.closest[i];
            *cell = match c.rational() {
                Some(r) => r.to_string(),
                None => {
                    decimal_by(|q| Ok(ordering(c.minus(q).decide().unwrap_or(Sign::Zero))), estimate[0][i], digits)?
                }
            };
        }
        // The ball's point is rational where the cylinder's is and d is: X + s(Y − X)/d.
        let exact: Option<Vec<Q>> = d.point.closest.iter().map(Surd::rational).collect();
        if let (Some(y), Some(w)) = (exact, d.point.squared.rational().as_ref().and_then(rational_sqrt)) {
            if w.is_positive() {
                let z: [String; 3] = std::array::from_fn(|i| (&x[i] + &d.radius * (&y[i] - &x[i]) / &w).to_string());
                return Ok([y_strings(&y), z]);
            }
        }
        Ok([y, self.ball_point(digits)?])
    }

    /// The ball's point X + s(Y − X)/√W by enclosures (a radical under a radical): `digits`
    /// digits truncated where both ends agree, else the decimal the enclosure straddles once
    /// it is narrower than 10^−(digits+4) of the scale.
    fn ball_point(&self, digits: u32) -> Result<[String; 3], PolyError> {
        let d = &self.d;
        let x = &d.centre;
        let w = &d.point.squared;
        let scale = x.iter().fold(Q::one(), |m, c| m.max(Q::one() + Signed::abs(c)));
        let ten = Q::from_integer(BigInt::from(10).pow(digits + 4));
        let mut bits = digits.saturating_mul(10) / 3 + 80;
        loop {
            if u64::from(bits) > crate::poly::MAX_COEFF_BITS {
                return Err(PolyError::NumberTooLarge { what: "width", bits: u64::from(bits) });
            }
            crate::budget::tick()?;
            let root_m = iv_sqrt(&(w.m.clone(), w.m.clone()), bits);
            let surd = |c: &Surd<Q>| -> Iv {
                let b = iv_mul(&(c.b.clone(), c.b.clone()), &root_m);
                (&c.a + b.0, &c.a + b.1)
            };
            let wv = surd(w);
            let len = iv_sqrt(&wv, bits);
            if !len.0.is_positive() {
                bits = bits.saturating_mul(2);
                continue;
            }
            let inv = (len.1.recip(), len.0.recip());
            let mut out: [String; 3] = Default::default();
            let mut done = true;
            for (i, cell) in out.iter_mut().enumerate() {
                let y = surd(&d.point.closest[i]);
                let delta = (&y.0 - &x[i], &y.1 - &x[i]);
                let step = iv_mul(&delta, &inv);
                let v = (&x[i] + &d.radius * &step.0, &x[i] + &d.radius * &step.1);
                let (a, b) = (decimal_of_rational(&v.0, digits), decimal_of_rational(&v.1, digits));
                if a == b {
                    *cell = a;
                } else if (&v.1 - &v.0) * &ten <= scale {
                    *cell = if !v.0.is_positive() && !v.1.is_negative() {
                        "0".to_string()
                    } else {
                        decimal_of_rational(if v.0.is_negative() { &v.0 } else { &v.1 }, digits)
                    };
                } else {
                    done = false;
                }
            }
            if done {
                return Ok(out);
            }
            bits = bits.saturating_mul(2);
        }
    }

    /// An enclosure of the centre's squared distance W = a + b√m to within about 2⁻ᵇⁱᵗˢ
    /// (times |b|), never negative.
    pub fn squared_enclosure(&self, bits: u32) -> (Q, Q) {
        let w = &self.d.point.squared;
        let root = iv_sqrt(&(w.m.clone(), w.m.clone()), bits);
        let b = iv_mul(&(w.b.clone(), w.b.clone()), &root);
        let zero = Q::zero();
        ((&w.a + b.0).max(zero.clone()), (&w.a + b.1).max(zero))
    }

    /// Whether point `p` lies within `tol` of the cylinder (d(p, cylinder) ≤ tol), exactly.
    pub fn cylinder_holds(&self, p: &Point3<Q>, tol: &Q) -> bool {
        match point_cylinder(p, &self.d.cylinder) {
            Ok(pc) => pc.squared.minus(&(tol * tol)).decide().is_ok_and(|s| s != Sign::Positive),
            Err(_) => false,
        }
    }

    /// Whether √g (g ≥ 0) is within `abs` of the shapes' distance D, or within `rel`·D of it,
    /// exactly (separated shapes; for others, whether √g ≤ abs).
    pub fn gap_admitted(&self, g: &Q, abs: &Q, rel: &Q) -> bool {
        if self.d.status != Status::Separated {
            return g <= &(abs * abs);
        }
        let w = &self.d.point.squared;
        let s = &self.d.radius;
        // √g ≤ (√W − s)(1 + e) + f ⇔ √g + (1 + e)s − f ≤ (1 + e)√W, and the lower side alike:
        // each the sign of α + β√g + γ√(W) with W = a + b√m a surd, so √W is compared by
        // squaring once more (sign_under).
        let within = |e: &Q, f: &Q| -> bool {
            let up = Q::one() + e;
            let low = Q::one() - e;
            let upper = root_le(g, &(&up * s - f), &(&up * &up), w);
            let lower = !low.is_positive() || root_ge(g, &(&low * s + f), &(&low * &low), w);
            upper && lower
        };
        within(&Q::zero(), abs) || within(rel, &Q::zero())
    }
}

/// Whether √g + c ≤ √(λW) for W = a + b√m ≥ 0, λ > 0, exactly.
fn root_le(g: &Q, c: &Q, lambda: &Q, w: &Surd<Q>) -> bool {
    // Both sides of √g + c ≤ √(λW): where √g + c < 0 it holds; else square: g + c² + 2c√g ≤
    // λa + λb√m, the sign of (g + c² − λa) + 2c√g − λb√m.
    let two = Q::from_integer(2.into());
    if sign_two_roots(c, &Q::one(), g, &Q::zero(), &Q::zero()) == Sign::Negative {
        return true;
    }
    sign_two_roots(&(g + c * c - lambda * &w.a), &(&two * c), g, &(-(lambda * &w.b)), &w.m) != Sign::Positive
}

/// Whether √g + c ≥ √(λW) for W = a + b√m ≥ 0, λ > 0, exactly.
fn root_ge(g: &Q, c: &Q, lambda: &Q, w: &Surd<Q>) -> bool {
    let two = Q::from_integer(2.into());
    if sign_two_roots(c, &Q::one(), g, &Q::zero(), &Q::zero()) == Sign::Negative {
        return false;
    }
    sign_two_roots(&(g + c * c - lambda * &w.a), &(&two * c), g, &(-(lambda * &w.b)), &w.m) != Sign::Negative
}

fn y_strings(y: &[Q]) -> [String; 3] {
    std::array::from_fn(|i| y[i].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::point;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn unit() -> Cylinder<Q> {
        // Radius 3 about z, from z = 0 to z = 4.
        Cylinder::new(point(0, 0, 0), point(0, 0, 4), q(3)).unwrap()
    }

    #[test]
    fn the_regions_and_their_squared_distances() {
        let c = unit();
        let at = |x: i64, y: i64, z: i64| point_cylinder(&point(x, y, z), &c).unwrap();
        // Inside, on the side (8 from the axis: 5 away), under cap 0, over a rim.
        assert_eq!(at(1, 1, 1).feature, CylinderFeature::Inside);
        let side = at(0, 8, 2);
        assert_eq!((side.feature, side.squared.decide().unwrap()), (CylinderFeature::Side, Sign::Positive));
        assert_eq!(side.squared.minus(&q(25)).decide().unwrap(), Sign::Zero);
        let cap = at(1, 2, -7);
        assert_eq!((cap.feature, cap.squared.clone()), (CylinderFeature::Cap(0), Surd::plain(q(49))));
        // (6, 8) is 10 from the axis: 7 beyond the rim, and 24 above the cap at 4: 25.
        let rim = at(6, 8, 28);
        assert_eq!(rim.feature, CylinderFeature::Rim(1));
        assert_eq!(rim.squared.minus(&q(625)).decide().unwrap(), Sign::Zero);
        // Its closest point is the rim point (9/5, 12/5, 4): 3·(6, 8)/10.
        let y: Vec<Q> = rim.closest.iter().map(|s| s.a.clone() + s.b.clone() * q(10)).collect();
        assert_eq!(y, vec![Q::new(9.into(), 5.into()), Q::new(12.into(), 5.into()), q(4)]);
        assert_eq!(rim.closest[0].m, q(100));
    }

    #[test]
    fn a_turned_cylinder_decides_an_irrational_rim_exactly() {
        // Axis (1, 2, 2) (length 3) from the origin to (1, 2, 2); radius 1. A point beyond
        // the rim at B whose ρ² = 2 is irrational: d² = E + (√2 − 1)², compared exactly.
        let c = Cylinder::new(point(0, 0, 0), point(1, 2, 2), q(1)).unwrap();
        // X = B + 3·(1,2,2)/3·… : take X = (1, 2, 2) + (2, -1, 0) + (1, 2, 2)·(1/3): t = k + 3.
        let x = Point3::new(
            Q::new(4.into(), 3.into()) + q(2),
            Q::new(8.into(), 3.into()) - q(1),
            Q::new(8.into(), 3.into()),
        );
        let pc = point_cylinder(&x, &c).unwrap();
        // |(2, −1, 0)|² = 5 = ρ², E = 1 (one unit above the cap): d² = 1 + (√5 − 1)² = 7 − 2√5.
        assert_eq!(pc.feature, CylinderFeature::Rim(1));
        assert_eq!((pc.rho2.clone(), pc.axial_squared.clone()), (q(5), q(1)));
        assert_eq!(pc.squared, Surd { a: q(7), b: q(-2), m: q(5) });
        // 7 − 2√5 = 2.5278…: above 2.527, below 2.528, by one squaring each.
        let e = ExactCylinder::of(&ball_cylinder(&c, &x, &q(1)).unwrap()).unwrap();
        assert_eq!(e.decimal(CylinderValue::CentreSquared, 6).unwrap(), "2.52786");
        assert_eq!(e.distance().status, Status::Separated);
        // √(7 − 2√5) − 1 = 0.589925… (Python's decimal module at 40 digits)
        assert_eq!(e.decimal(CylinderValue::Distance, 5).unwrap(), "0.58992");
    }

    #[test]
    fn two_roots_are_signed_exactly() {
        // √2 + √3 − √(5 + 2√6) = 0 is the classic; here 1·√2 + 1·√3 against α.
        assert_eq!(sign_two_roots(&q(-3), &q(1), &q(2), &q(1), &q(3)), Sign::Positive); // 3.146 > 3
        assert_eq!(sign_two_roots(&q(-4), &q(1), &q(2), &q(1), &q(3)), Sign::Negative);
        // √8 − 2√2 = 0 exactly, and 1 + √8 − 2√2 = 1.
        assert_eq!(sign_two_roots(&q(0), &q(1), &q(8), &q(-2), &q(2)), Sign::Zero);
        assert_eq!(sign_two_roots(&q(1), &q(1), &q(8), &q(-2), &q(2)), Sign::Positive);
        // 5 − √9 − √4 = 0.
        assert_eq!(sign_two_roots(&q(5), &q(-1), &q(9), &q(-1), &q(4)), Sign::Zero);
    }

    #[test]
    fn depth_of_a_ball_inside() {
        // Centre (1, 0, 1) in the radius-3 cylinder: 2 to the side, 1 to cap 0, 3 to cap 1.
        let c = unit();
        let e = ExactCylinder::of(&ball_cylinder(&c, &point(1, 0, 1), &q(2)).unwrap()).unwrap();
        assert_eq!(e.distance().status, Status::Penetrating);
        assert_eq!(e.compare(CylinderValue::Depth, &q(3)), Ordering::Equal);
        assert_eq!(e.decimal(CylinderValue::Depth, 10).unwrap(), "3");
        // Outside over the cap, 1 above it: depth 2 − 1.
        let e = ExactCylinder::of(&ball_cylinder(&c, &point(0, 0, 5), &q(2)).unwrap()).unwrap();
        assert_eq!(e.decimal(CylinderValue::Depth, 10).unwrap(), "1");
        assert_eq!(e.points(10).unwrap(), [["0", "0", "4"].map(String::from), ["0", "0", "3"].map(String::from)]);
    }

    #[test]
    fn bad_cylinders_are_refused() {
        assert!(matches!(Cylinder::new(point(0, 0, 0), point(0, 0, 0), q(1)), Err(RoundError::Invalid(_))));
        assert!(matches!(Cylinder::new(point(0, 0, 0), point(0, 0, 1), q(0)), Err(RoundError::Invalid(_))));
        assert!(matches!(ball_cylinder(&unit(), &point(9, 9, 9), &q(-1)), Err(RoundError::Invalid(_))));
    }
}
