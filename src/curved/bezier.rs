//! Rational Bézier patches (Lin–Manocha §2 and §5): tensor-product patches with rational
//! control points and positive rational weights, exact evaluation and subdivision, the torus as
//! sixteen biquadratic patches through the rational circle, and the two-level hierarchy of
//! Fig. 6: each patch under the convex hull of its control points, all of them under the hull
//! of every control point, culled level by level with V-Clip and timed under linear motion by
//! the exact separating-axis cast.
//!
//! A patch of degree (m, n) is S(s, t) = Σ wᵢⱼPᵢⱼBᵢᵐ(s)Bⱼⁿ(t) / Σ wᵢⱼBᵢᵐ(s)Bⱼⁿ(t) on
//! [0, 1]², control points row by row (i the row, j along it). With positive weights the patch
//! lies in the convex hull of its control points, and so does every sub-patch in the hull of
//! its own: the hierarchy's hulls contain the surfaces they stand for.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::poly3::{Poly3, MAX_COEFF_BITS};
use super::CurvedError;
use crate::brep::{convex_hull, Solid};
use crate::geom::{Affine, Point3, Vector3};

type Q = BigRational;

/// The highest degree of a patch in either direction.
pub const MAX_PATCH_DEGREE: usize = 6;
/// The most patches of one solid.
pub const MAX_PATCHES: usize = 256;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// A tensor-product rational Bézier patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    degree: [usize; 2],
    points: Vec<[Q; 3]>,
    weights: Vec<Q>,
}

/// What is wrong with a patch.
fn bad(what: &'static str) -> CurvedError {
    CurvedError::NonPositive { what }
}

impl Patch {
    /// The patch of degree `[m, n]` with (m + 1)(n + 1) control points row by row and as many
    /// positive weights (all 1 when `None`). Errors: a degree of 0 or above
    /// [`MAX_PATCH_DEGREE`], a wrong number of points or weights, a weight that is not
    /// positive, a number longer than [`MAX_COEFF_BITS`].
    pub fn new(degree: [usize; 2], points: Vec<[Q; 3]>, weights: Option<Vec<Q>>) -> Result<Self, CurvedError> {
        if degree.iter().any(|&d| d == 0 || d > MAX_PATCH_DEGREE) {
            return Err(CurvedError::BadPatch { reason: "each degree must be from 1 to 6" });
        }
        let count = (degree[0] + 1) * (degree[1] + 1);
        if points.len() != count {
            return Err(CurvedError::BadPatch { reason: "the number of control points must be (m + 1)(n + 1)" });
        }
        let weights = weights.unwrap_or_else(|| vec![Q::one(); count]);
        if weights.len() != count {
            return Err(CurvedError::BadPatch { reason: "the number of weights must be that of the control points" });
        }
        if weights.iter().any(|w| *w <= Q::zero()) {
            return Err(bad("weight"));
        }
        for x in points.iter().flatten().chain(&weights) {
            let bits = x.numer().bits().max(x.denom().bits());
            if bits > MAX_COEFF_BITS {
                return Err(CurvedError::NumberTooLarge {
                    what: "control point or weight",
                    bits,
                    limit: MAX_COEFF_BITS,
                });
            }
        }
        Ok(Patch { degree, points, weights })
    }

    /// The degree `[m, n]`.
    pub fn degree(&self) -> [usize; 2] {
        self.degree
    }

    /// The control points, row by row.
    pub fn points(&self) -> &[[Q; 3]] {
        &self.points
    }

    /// The weights.
    pub fn weights(&self) -> &[Q] {
        &self.weights
    }

    fn index(&self, i: usize, j: usize) -> usize {
        i * (self.degree[1] + 1) + j
    }

    /// The homogeneous control net: (w·P, w) per control point.
    fn homogeneous_net(&self) -> Vec<[Q; 4]> {
        self.points.iter().zip(&self.weights).map(|(p, w)| [&p[0] * w, &p[1] * w, &p[2] * w, w.clone()]).collect()
    }

    /// The patch's point at (s, t), exactly (de Casteljau on the homogeneous net).
    pub fn point(&self, s: &Q, t: &Q) -> [Q; 3] {
        let [m, n] = self.degree;
        let net = self.homogeneous_net();
        let lerp = |a: &[Q; 4], b: &[Q; 4], u: &Q| [0, 1, 2, 3].map(|k| &a[k] + (&b[k] - &a[k]) * u);
        let rows: Vec<[Q; 4]> = (0..=m)
            .map(|i| {
                let mut row: Vec<[Q; 4]> = (0..=n).map(|j| net[self.index(i, j)].clone()).collect();
                for level in (1..=n).rev() {
                    for k in 0..level {
                        row[k] = lerp(&row[k], &row[k + 1], t);
                    }
                }
                row[0].clone()
            })
            .collect();
        let mut col = rows;
        for level in (1..=m).rev() {
            for k in 0..level {
                col[k] = lerp(&col[k], &col[k + 1], s);
            }
        }
        let h = &col[0];
        [&h[0] / &h[3], &h[1] / &h[3], &h[2] / &h[3]]
    }

    /// The homogeneous coordinates X, Y, Z, W as polynomials in s (the first variable) and t
    /// (the second), exactly, in the power basis.
    pub fn homogeneous(&self) -> [Poly3; 4] {
        let [m, n] = self.degree;
        let net = self.homogeneous_net();
        let bern = |deg: usize, i: usize, var: usize| -> Poly3 {
            // C(deg, i) uⁱ (1 − u)^(deg − i).
            let u = Poly3::variable(var);
            let one_minus = Poly3::constant(q(1)).add(&u.scale(&q(-1)));
            let mut p = Poly3::constant(Q::from_integer(binomial(deg, i).into()));
            for _ in 0..i {
                p = p.mul(&u);
            }
            for _ in i..deg {
                p = p.mul(&one_minus);
            }
            p
        };
        let bs: Vec<Poly3> = (0..=m).map(|i| bern(m, i, 0)).collect();
        let bt: Vec<Poly3> = (0..=n).map(|j| bern(n, j, 1)).collect();
        let mut out = [Poly3::zero(), Poly3::zero(), Poly3::zero(), Poly3::zero()];
        for i in 0..=m {
            for j in 0..=n {
                let b = bs[i].mul(&bt[j]);
                for (k, o) in out.iter_mut().enumerate() {
                    *o = o.add(&b.scale(&net[self.index(i, j)][k]));
                }
            }
        }
        out
    }

    /// The two halves at s = 1/2 (`axis` 0) or t = 1/2 (`axis` 1), exactly: each a patch of
    /// the same degree whose control net is the homogeneous de Casteljau split.
    pub fn split(&self, axis: usize) -> (Patch, Patch) {
        let [m, n] = self.degree;
        let net = self.homogeneous_net();
        let half = Q::new(1.into(), 2.into());
        let mid = |a: &[Q; 4], b: &[Q; 4]| [0, 1, 2, 3].map(|k| (&a[k] + &b[k]) * &half);
        // Split one line of control points (homogeneous) into its two halves' lines.
        let split_line = |line: Vec<[Q; 4]>| -> (Vec<[Q; 4]>, Vec<[Q; 4]>) {
            let d = line.len() - 1;
            let mut tri = vec![line];
            for level in 1..=d {
                let prev = &tri[level - 1];
                let next: Vec<[Q; 4]> = (0..prev.len() - 1).map(|k| mid(&prev[k], &prev[k + 1])).collect();
                tri.push(next);
            }
            let left = (0..=d).map(|k| tri[k][0].clone()).collect();
            let right = (0..=d).map(|k| tri[d - k][k].clone()).collect();
            (left, right)
        };
        let mut left = vec![[q(0), q(0), q(0), q(0)]; net.len()];
        let mut right = left.clone();
        // The lines of control points along the axis (each as its net indices), split alike.
        let lines: Vec<Vec<usize>> = if axis == 0 {
            (0..=n).map(|j| (0..=m).map(|i| self.index(i, j)).collect()).collect()
        } else {
            (0..=m).map(|i| (0..=n).map(|j| self.index(i, j)).collect()).collect()
        };
        for line in lines {
            let (l, r) = split_line(line.iter().map(|&k| net[k].clone()).collect());
            for (k, (lk, rk)) in line.into_iter().zip(l.into_iter().zip(r)) {
                left[k] = lk;
                right[k] = rk;
            }
        }
        let back = |h: Vec<[Q; 4]>| {
            let weights: Vec<Q> = h.iter().map(|x| x[3].clone()).collect();
            let points = h.iter().map(|x| [&x[0] / &x[3], &x[1] / &x[3], &x[2] / &x[3]]).collect();
            Patch { degree: self.degree, points, weights }
        };
        (back(left), back(right))
    }

    /// The patch moved by the affine map `m` (control points mapped, weights kept: an affine
    /// map commutes with the rational combination).
    pub fn posed(&self, m: &Affine<Q>) -> Patch {
        let points = self
            .points
            .iter()
            .map(|p| {
                let r = m.apply_point(&Point3::new(p[0].clone(), p[1].clone(), p[2].clone()));
                [r.x.clone(), r.y.clone(), r.z.clone()]
            })
            .collect();
        Patch { degree: self.degree, points, weights: self.weights.clone() }
    }

    /// Whether the patch lies on the surface f = 0: f(S(s, t))·W^d is a polynomial of bidegree
    /// at most (d·m, d·n) (d the degree of f), zero exactly when it vanishes on a grid of
    /// (d·m + 1)(d·n + 1) points, each evaluated exactly.
    pub fn lies_on(&self, f: &Poly3) -> bool {
        let d = f.degree() as usize;
        let [m, n] = self.degree;
        let (gs, gt) = (d * m, d * n);
        (0..=gs).all(|a| {
            (0..=gt).all(|b| {
                let s = Q::new((a as i64).into(), (gs.max(1) as i64).into());
                let t = Q::new((b as i64).into(), (gt.max(1) as i64).into());
                f.eval(&self.point(&s, &t)).is_zero()
            })
        })
    }
}

fn binomial(n: usize, k: usize) -> i64 {
    (0..k).fold(1i64, |acc, i| acc * (n - i) as i64 / (i + 1) as i64)
}

/// The quarter arcs of the unit circle through the rational parametrisation
/// ((1 − u²), 2u)/(1 + u²), u ∈ [0, 1]: control points (1, 0), (1, 1), (0, 1) with weights
/// (1, 1, 2), turned by k quarter turns.
fn quarter_arc(k: usize) -> ([[Q; 2]; 3], [Q; 3]) {
    let base = [[q(1), q(0)], [q(1), q(1)], [q(0), q(1)]];
    let turn = |p: &[Q; 2]| [-p[1].clone(), p[0].clone()];
    let mut pts = base;
    for _ in 0..k {
        pts = pts.each_ref().map(turn);
    }
    (pts, [q(1), q(1), q(2)])
}

/// The torus about the z axis through the origin, of major radius `major` and tube radius
/// `minor` (0 < minor < major), as sixteen biquadratic rational patches, exactly: the patch
/// (k, l) is the product of the k-th quarter of the major circle and the l-th quarter of the
/// tube's circle, Pᵢⱼ = ((R + r·dⱼ,ₓ)·cᵢ, r·dⱼ,ᵧ) with weights aᵢbⱼ.
pub fn torus_patches(major: &Q, minor: &Q) -> Result<Vec<Patch>, CurvedError> {
    if *minor <= Q::zero() {
        return Err(bad("minor radius"));
    }
    if major <= minor {
        return Err(bad("major radius minus minor radius"));
    }
    let mut patches = Vec::with_capacity(16);
    for k in 0..4 {
        let (c, a) = quarter_arc(k);
        for l in 0..4 {
            let (d, b) = quarter_arc(l);
            let mut points = Vec::with_capacity(9);
            let mut weights = Vec::with_capacity(9);
            for i in 0..3 {
                for j in 0..3 {
                    let rho = major + minor * &d[j][0];
                    points.push([&rho * &c[i][0], &rho * &c[i][1], minor * &d[j][1]]);
                    weights.push(&a[i] * &b[j]);
                }
            }
            patches.push(Patch::new([2, 2], points, Some(weights))?);
        }
    }
    Ok(patches)
}

/// Lin–Manocha's two-level hierarchy (Fig. 6): the convex hull of every control point (the
/// root) over the convex hull of each patch's control points (the leaves' parents), built
/// exactly.
#[derive(Clone, Debug)]
pub struct Hierarchy {
    /// The hull of all control points.
    pub root: Solid<Q>,
    /// The hull of each patch's control points, in patch order.
    pub patches: Vec<Solid<Q>>,
}

fn hull_of(points: &[[Q; 3]]) -> Result<Solid<Q>, CurvedError> {
    let pts: Vec<Point3<Q>> = points.iter().map(|p| Point3::new(p[0].clone(), p[1].clone(), p[2].clone())).collect();
    convex_hull(&pts).map(|h| h.solid).map_err(|_| CurvedError::BadPatch {
        reason: "a patch's control points span no volume (a flat patch has no hull)",
    })
}

impl Hierarchy {
    /// The hierarchy of a closed set of patches. Errors: no patch, too many, or a patch whose
    /// control points are coplanar.
    pub fn new(patches: &[Patch]) -> Result<Self, CurvedError> {
        if patches.is_empty() || patches.len() > MAX_PATCHES {
            return Err(CurvedError::BadPatch { reason: "a Bézier solid has from 1 to 256 patches" });
        }
        let all: Vec<[Q; 3]> = patches.iter().flat_map(|p| p.points.iter().cloned()).collect();
        let root = hull_of(&all)?;
        let patches = patches.iter().map(|p| hull_of(&p.points)).collect::<Result<Vec<_>, _>>()?;
        Ok(Hierarchy { root, patches })
    }
}

/// Which levels of two hierarchies meet (V-Clip on the exact hulls, closed: touching meets).
#[derive(Clone, Debug, PartialEq)]
pub struct Culled {
    /// Whether the root hulls meet.
    pub roots_meet: bool,
    /// The pairs of patches whose hulls meet (empty when the roots do not).
    pub patch_pairs: Vec<(usize, usize)>,
    /// The least squared distance of the level that separated them (the roots', or over every
    /// patch pair): a lower bound on the surfaces' squared distance.
    pub separated_by: Option<Q>,
}

fn hull_distance(a: &Solid<Q>, b: &Solid<Q>) -> Result<Q, CurvedError> {
    let r = crate::vclip::vclip(a, b, None)
        .map_err(|_| CurvedError::BadPatch { reason: "a hull is not strictly convex" })?;
    Ok(r.closest.squared_distance)
}

/// The culling pass: the roots, then every pair of patch hulls.
pub fn cull(a: &Hierarchy, b: &Hierarchy) -> Result<Culled, CurvedError> {
    let d = hull_distance(&a.root, &b.root)?;
    if d > Q::zero() {
        return Ok(Culled { roots_meet: false, patch_pairs: vec![], separated_by: Some(d) });
    }
    let mut pairs = Vec::new();
    let mut least: Option<Q> = None;
    for (i, pa) in a.patches.iter().enumerate() {
        for (j, pb) in b.patches.iter().enumerate() {
            crate::budget::tick().map_err(CurvedError::Limit)?;
            let d = hull_distance(pa, pb)?;
            if d.is_zero() {
                pairs.push((i, j));
            } else if least.as_ref().is_none_or(|l| d < *l) {
                least = Some(d);
            }
        }
    }
    let separated_by = if pairs.is_empty() { least } else { None };
    Ok(Culled { roots_meet: true, patch_pairs: pairs, separated_by })
}

/// When each level of two hierarchies first meets with b moving by `velocity` per unit time
/// over [t0, t1] (exact times, by the separating-axis cast of the hulls): the roots, and the
/// first pair of patch hulls with its indices.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelTimes {
    /// The roots' first contact.
    pub root: Option<Q>,
    /// The first contact over every pair of patch hulls, and the pair.
    pub patches: Option<(Q, usize, usize)>,
}

/// The levels' first contact times (see [`LevelTimes`]).
pub fn level_first_contacts(
    a: &Hierarchy,
    b: &Hierarchy,
    velocity: &[Q; 3],
    t0: &Q,
    t1: &Q,
) -> Result<LevelTimes, CurvedError> {
    let v = Vector3::new(velocity[0].clone(), velocity[1].clone(), velocity[2].clone());
    let none = crate::separation::Parallels::none();
    let time = |x: &Solid<Q>, y: &Solid<Q>| -> Result<Option<Q>, CurvedError> {
        let c = crate::separation::linear::first_contact(x, y, &v, [t0, t1], [&none, &none])
            .map_err(|_| CurvedError::BadPatch { reason: "undecided hull cast" })?;
        Ok(c.hit.map(|h| h.time.value))
    };
    let root = time(&a.root, &b.root)?;
    let mut first: Option<(Q, usize, usize)> = None;
    if root.is_some() {
        for (i, pa) in a.patches.iter().enumerate() {
            for (j, pb) in b.patches.iter().enumerate() {
                crate::budget::tick().map_err(CurvedError::Limit)?;
                if let Some(t) = time(pa, pb)? {
                    if first.as_ref().is_none_or(|f| t < f.0) {
                        first = Some((t, i, j));
                    }
                }
            }
        }
    }
    Ok(LevelTimes { root, patches: first })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_torus_patches_lie_on_the_quartic_and_cover_its_circles() {
        let (r, s) = (q(3), q(1));
        let patches = torus_patches(&r, &s).unwrap();
        let f = super::super::Implicit::torus(r.clone(), s.clone()).unwrap();
        for p in &patches {
            assert!(p.lies_on(f.surface()));
        }
        // A patch off the surface is caught: one control point moved.
        let mut moved = patches[5].clone();
        moved.points[4][2] += q(1) / q(7);
        assert!(!moved.lies_on(f.surface()));
        // Corners and midpoints where expected: patch (0, 0) at (0, 0) is (R + r, 0, 0); at
        // (1, 1) the tube's top over (0, R) is (0, 3, 1).
        assert_eq!(patches[0].point(&q(0), &q(0)), [q(4), q(0), q(0)]);
        assert_eq!(patches[0].point(&q(1), &q(1)), [q(0), q(3), q(1)]);
        // The homogeneous polynomials agree with de Casteljau at a rational point.
        let [x, y, z, w] = patches[9].homogeneous();
        let (ss, tt) = (Q::new(1.into(), 3.into()), Q::new(2.into(), 5.into()));
        let at = [ss.clone(), tt.clone(), q(0)];
        let p = patches[9].point(&ss, &tt);
        assert_eq!([x.eval(&at) / w.eval(&at), y.eval(&at) / w.eval(&at), z.eval(&at) / w.eval(&at)], p);
        // Halves: the left half at s = 1 is the whole at s = 1/2.
        let (l, rr) = patches[9].split(0);
        assert_eq!(l.point(&q(1), &tt), patches[9].point(&Q::new(1.into(), 2.into()), &tt));
        assert_eq!(rr.point(&q(0), &tt), patches[9].point(&Q::new(1.into(), 2.into()), &tt));
        let (l, _) = patches[9].split(1);
        assert_eq!(l.point(&ss, &q(1)), patches[9].point(&ss, &Q::new(1.into(), 2.into())));
        assert!(l.lies_on(f.surface()));
    }

    #[test]
    fn bad_patches_are_typed_errors() {
        let pts = vec![[q(0), q(0), q(0)]; 4];
        assert!(matches!(
            Patch::new([1, 1], pts.clone(), Some(vec![q(1), q(1), q(0), q(1)])),
            Err(CurvedError::NonPositive { .. })
        ));
        assert!(matches!(Patch::new([1, 2], pts.clone(), None), Err(CurvedError::BadPatch { .. })));
        assert!(matches!(Patch::new([0, 1], pts, None), Err(CurvedError::BadPatch { .. })));
    }
}
