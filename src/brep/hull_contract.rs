//! The agreement contract for convex hulls: `f64` against exact on the same binary64 points.
//!
//! The discrete answer is the set of faces, each as its input ids in boundary order from the
//! smallest id. The margin is the smallest relative |orient3d| of an input point against a face
//! of the exact hull (0 when a non-vertex input point lies on a face, as on grids). Above the
//! budget the two face sets must be equal. At or below it, the `f64` hull must be *valid
//! within tolerance*: no input point farther outside any of its faces than the budget, every
//! face planar within the budget, and every exact hull vertex that it drops lying within the
//! budget of one of its faces. (In that check a face's plane is taken through three
//! well-spread vertices of it, and a point's distance is relative to the points' size.)

use num_rational::BigRational;

use super::{convex_hull, ConvexHull, HullError};
use crate::contract::{budget, check, Agreement, Disagreement, Margin};
use crate::geom::{Point3, Scaled};
use crate::predicates::orient3d_scaled;
use crate::scalar::{Exact, Scalar, Sign};
use num_traits::Zero;

/// A hull as a canonical face set (ids rotated to start at the smallest, faces sorted), or
/// the kind of error.
pub type HullAnswer = Result<Vec<Vec<usize>>, String>;

fn canonical<S: Scalar>(h: &Result<ConvexHull<S>, HullError>) -> HullAnswer {
    match h {
        Err(e) => Err(format!("{e:?}").split(['(', ' ', '{']).next().unwrap_or_default().to_string()),
        Ok(h) => {
            let mut faces: Vec<Vec<usize>> = h
                .solid
                .faces()
                .iter()
                .map(|f| {
                    let ids: Vec<usize> = f.iter().map(|&v| h.input_index[v]).collect();
                    let k = (0..ids.len()).min_by_key(|&i| ids[i]).unwrap_or(0);
                    ids[k..].iter().chain(&ids[..k]).copied().collect()
                })
                .collect();
            faces.sort();
            Ok(faces)
        }
    }
}

fn relative(s: &Scaled<Exact>) -> Margin {
    Margin::of(&Scaled { value: s.value.to_big_rational(), magnitude: s.magnitude.to_big_rational() })
}

/// Whether a test's margin is within the budget `b`, |v| / (|m| + floor) ≤ b (as
/// [`Margin::of`] and [`Margin::exceeds`] decide it), by |v| ≤ b·(|m| + floor) on the fast exact
/// backend, without the margin's division.
fn within_budget(s: &Scaled<Exact>, b: &Exact) -> bool {
    let floor = Exact::from_f64(crate::scalar::tolerance::UNDERFLOW_WEIGHT).unwrap_or_else(|_| Exact::zero());
    let scale = s.magnitude.abs() + floor;
    (s.value.abs() - b.clone() * scale).sign().is_ok_and(|x| x != Sign::Positive)
}

/// The face planes of a hull, each by its first three vertices (consecutive corners of a face
/// whose straight-angle points were removed, so not collinear).
fn planes(faces: &[Vec<usize>]) -> Vec<[usize; 3]> {
    faces.iter().map(|f| [f[0], f[1], f[2]]).collect()
}

/// The face planes of the `f64` hull, each by three well-spread vertices, in the face's order
/// (so of its orientation): its first, the one farthest from it, and the one making the
/// largest triangle with those two. A tolerant hull may keep a vertex that is straight within
/// its tolerance but not exactly (a sliver 3·10⁻³⁰⁹ high put (−2,−2,0), (−1,−2,0),
/// (1,−2,3·10⁻³⁰⁹) first in a face of the plane y = −2): its first three corners can be
/// nearly collinear, and their plane says nothing about the face's.
fn spread_planes(points: &[Point3<Exact>], faces: &[Vec<usize>]) -> Vec<[usize; 3]> {
    let greatest = |f: &[usize], key: &dyn Fn(usize) -> Exact| -> usize {
        let mut best = 1;
        let mut top = key(f[1]);
        for (i, &v) in f.iter().enumerate().skip(2) {
            let k = key(v);
            if k.compare(&top) == Ok(std::cmp::Ordering::Greater) {
                (best, top) = (i, k);
            }
        }
        best
    };
    faces
        .iter()
        .map(|f| {
            let a = &points[f[0]];
            let i = greatest(f, &|v| crate::geom::norm2(&(&points[v] - a)));
            let u = &points[f[i]] - a;
            let j = greatest(f, &|v| crate::geom::norm2(&u.cross(&(&points[v] - a))));
            let (i, j) = if i < j { (i, j) } else { (j, i) };
            if i == j {
                [f[0], f[1], f[2]]
            } else {
                [f[0], f[i], f[j]]
            }
        })
        .collect()
}

/// [`orient`] against the product of its face rows' 1-norms and the points' extent `reach`
/// (the 1-norm of their bounding box's diagonal, at least the third row's 1-norm, so the
/// product is at least the permanent): a point's height over the face relative to the size of
/// the points, which a permanent of vanishing products does not show (a point 10⁻³⁰⁹ off a
/// plane through a sliver had a permanent of the same size, a margin of 1). For the `f64`
/// hull's validity within tolerance: a point within the budget of the points' size. (The third
/// row's own norm in place of the extent made a point's distance relative to its distance from
/// the face's first vertex: a vertex 1,024 from the f64 hull's corner in a set 3·10¹⁸ across,
/// two ulps of its coordinates, was "outside by 10⁻⁴".)
fn orient_sized(points: &[Point3<Exact>], t: &[usize; 3], q: usize, reach: &Exact) -> Scaled<Exact> {
    let a = &points[t[0]];
    let size = crate::geom::norm1(&(&points[t[1]] - a)) * crate::geom::norm1(&(&points[t[2]] - a)) * reach.clone();
    Scaled { value: orient(points, t, q).value, magnitude: size }
}

/// The 1-norm of the diagonal of the points' bounding box.
fn extent(points: &[Point3<Exact>]) -> Exact {
    let mut sum = Exact::zero();
    for c in 0..3 {
        let Some(first) = points.first() else { break };
        let (mut lo, mut hi) = (first[c].clone(), first[c].clone());
        for p in &points[1..] {
            // (Exact comparisons always decide.)
            lo = lo.minimum(&p[c]).unwrap_or(lo);
            hi = hi.maximum(&p[c]).unwrap_or(hi);
        }
        sum += hi - lo;
    }
    sum
}

fn orient(points: &[Point3<Exact>], t: &[usize; 3], q: usize) -> Scaled<Exact> {
    orient3d_scaled(&points[t[0]], &points[t[1]], &points[t[2]], &points[q])
}

/// Check the `f64` hull of `points` against the exact hull of the same numbers.
///
/// The exact side runs on the fast exact backend (the same values as the reference's), and the
/// margin's comparisons with the budget are made without dividing (|v| against b·m): the
/// margin's value itself is computed only for a breach's report.
pub fn check_hull_agreement(points: &[Point3<f64>]) -> Result<Agreement, Disagreement> {
    judge(points, convex_hull(points))
}

/// The contract's verdict on `fast` as the `f64` hull of `points`.
fn judge(points: &[Point3<f64>], fast: Result<ConvexHull<f64>, HullError>) -> Result<Agreement, Disagreement> {
    let exact_points: Vec<Point3<Exact>> =
        points.iter().map(|p| p.map(|c| Exact::from_f64(c).unwrap_or_else(|_| Exact::zero()))).collect();
    let exact = canonical(&convex_hull(&exact_points));
    // An f64 hull that overflowed left binary64's range: the contract covers computations
    // within it (as the `validate` op's agreement says), and the refusal is typed.
    if matches!(fast, Err(HullError::Uncertain(crate::scalar::Uncertain::Overflow))) {
        return Ok(Agreement::WithinTolerance);
    }
    let fast = canonical(&fast);
    let b = budget::<f64>();
    let b_exact = Exact::from_f64(b).unwrap_or_else(|_| Exact::zero());
    let within = |s: &Scaled<Exact>| within_budget(s, &b_exact);
    // Every test against an exact face: the margin exceeds the budget iff each does.
    let tests = |faces: &Vec<Vec<usize>>| -> Vec<Scaled<Exact>> {
        let mut v = Vec::new();
        for t in planes(faces) {
            for q in 0..exact_points.len() {
                if !t.contains(&q) {
                    v.push(orient(&exact_points, &t, q));
                }
            }
        }
        v
    };
    let exceeds = match &exact {
        Err(_) => false,
        Ok(faces) => tests(faces).iter().all(|s| !within(s)),
    };
    let valid = |exact: &HullAnswer, fast: &HullAnswer| match (exact, fast) {
        (_, Err(_)) => exact.is_err() || fast == &Err("Coplanar".into()) || fast == &Err("Collinear".into()),
        (Err(_), Ok(_)) => false,
        (Ok(exact_faces), Ok(fast_faces)) => {
            let ts = spread_planes(&exact_points, fast_faces);
            let reach = extent(&exact_points);
            let outside_ok = ts.iter().all(|t| {
                (0..exact_points.len()).all(|q| {
                    let s = orient_sized(&exact_points, t, q, &reach);
                    s.value.sign().is_ok_and(|x| x != Sign::Positive) || within(&s)
                })
            });
            let planar = fast_faces
                .iter()
                .zip(&ts)
                .all(|(f, t)| f.iter().all(|&q| within(&orient_sized(&exact_points, t, q, &reach))));
            let fast_vertices: Vec<usize> = fast_faces.iter().flatten().copied().collect();
            let dropped_ok = exact_faces.iter().flatten().all(|v| {
                fast_vertices.contains(v) || ts.iter().any(|t| within(&orient_sized(&exact_points, t, *v, &reach)))
            });
            outside_ok && planar && dropped_ok
        }
    };
    // Only whether the margin exceeds the budget decides; its value is shown with a breach.
    let decisive = if exceeds { Margin::Unbounded } else { Margin::Finite(BigRational::default()) };
    check(&exact, &fast, &decisive, b, valid, &[]).map_err(|_| {
        let margin = match &exact {
            Err(_) => Margin::Finite(BigRational::default()),
            Ok(faces) => tests(faces).iter().fold(Margin::Unbounded, |m, s| m.min(relative(s))),
        };
        check(&exact, &fast, &margin, b, valid, &[]).err().unwrap_or_else(|| Disagreement {
            what: "hull contract".into(),
            exact: format!("{exact:?}"),
            fast: format!("{fast:?}"),
            margin: margin.to_decimal(6),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::point;

    /// A 3 × 3 × 3 grid (every face holds grid points: margin 0, so validity within tolerance
    /// decides) and a point beyond its corner (2, 2, 2) by `push` in each coordinate.
    fn grid(push: f64) -> Vec<Point3<f64>> {
        let mut p: Vec<Point3<f64>> =
            (0..27).map(|i| point((i % 3) as i64, (i / 3 % 3) as i64, (i / 9) as i64)).collect();
        p.push(Point3::new(2.0 + push, 2.0 + push, 2.0 + push));
        p
    }

    #[test]
    fn a_hull_missing_a_point_by_a_unit_is_refused() {
        let p = grid(1.0);
        // The f64 hull of the grid alone: the point beyond lies √3 outside it.
        let without = convex_hull(&p[..27]).expect("a hull");
        assert_eq!(
            judge(&p, Ok(without.clone())).map_err(|d| d.what),
            Err("fast answer not valid within tolerance".into())
        );
        // The true hull is accepted, and so is the grid's for a point beyond it by an ulp of a
        // coordinate (its height over the grid's hull is 10⁻¹⁶ of the points' extent).
        assert_eq!(judge(&p, convex_hull(&p)), Ok(Agreement::WithinTolerance));
        let q = grid(2f64.powi(-51));
        assert_eq!(judge(&q, convex_hull(&q[..27])), Ok(Agreement::WithinTolerance));
    }

    /// `tests/regressions.rs::hull_contract_heights_relative_to_the_points_extent_fuzz`: an
    /// f64 hull that ends an edge two ulps short of the outer of two points on it, in a set
    /// 3·10¹⁸ across, is valid within tolerance (the outer point, 1,024 away, is last here, so
    /// the hull of the others is that hull). Measured against its distance from the face's
    /// corner, its height was "10⁻⁴".
    #[test]
    fn a_vertex_two_ulps_beyond_the_hull_is_within_tolerance() {
        let (f, tiny) = (-2.8483943054992686e18, 8.31380501592682e-275);
        let p: Vec<Point3<f64>> = [
            [7.0, 7.0, 7.0],
            [f, f, -2.847268405592426e18],
            [f, f, -2.8483943054991923e18],
            [tiny, 7.0, 8.313805020982526e-275],
            [7.0, 8.313931556202414e-275, f],
            [-2.8483943054992937e18, -2.84895725545269e18, 8.314844756625925e-275],
            [1.0, -64.0, 1.0],
            [f, f, -2.8483943054991933e18],
        ]
        .iter()
        .map(|c| Point3::from(*c))
        .collect();
        let short = convex_hull(&p[..7]).expect("a hull");
        assert!(short.input_index.contains(&2));
        assert_eq!(judge(&p, Ok(short)), Ok(Agreement::WithinTolerance));
    }

    #[test]
    fn a_hull_dropping_a_vertex_by_a_thousandth_is_refused() {
        let p = grid(1e-3);
        assert!(judge(&p, convex_hull(&p[..27])).is_err());
    }
}
