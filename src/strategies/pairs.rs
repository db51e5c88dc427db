//! Pairs of convex solids placed exactly: shapes on small grids and regular solids under
//! integer-quaternion poses, the second one free, touching the first from above, or sunk into
//! it (the status known by construction).

use num_rational::BigRational;

use crate::brep::shapes::{cube, cuboid, extrusion, icosahedron, octahedron, tetrahedron};
use crate::brep::{convex_hull, Solid};
use crate::geom::{Affine, Point3, Vector3};
use crate::scalar::{ratio, Scalar};

/// How the second solid of a [`convex_pair`] is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Where its pose puts it.
    Free,
    /// Moved so that its lowest vertex (least z) is exactly the first solid's highest
    /// vertex: touching by construction (the plane z = top separates them weakly), often with
    /// several features at once (horizontal faces and edges).
    TouchingAbove,
    /// Moved so that its lowest vertex is the first solid's vertex centroid, an interior
    /// point: penetrating by construction.
    Sunk,
}

/// Shape `k mod 6` of the pairs: cube, a 1/2 × 1 × 3/2 cuboid, tetrahedron, octahedron,
/// icosahedron, or the hull of `cloud` (coordinates mod 5 − 2; a cube if it is flat).
///
/// The five fixed shapes are built once and cloned (the icosahedron's exact hull on 53-bit
/// coordinates cost the fuzz targets most of an execution).
pub fn pair_shape(k: u8, cloud: &[[i8; 3]]) -> Solid<BigRational> {
    static FIXED: std::sync::OnceLock<[Solid<BigRational>; 5]> = std::sync::OnceLock::new();
    let fixed = FIXED.get_or_init(|| {
        [
            cube(),
            cuboid(ratio(1, 2), ratio(1, 1), ratio(3, 2)).unwrap_or_else(|_| cube()),
            tetrahedron(),
            octahedron(),
            icosahedron().unwrap_or_else(|_| cube()),
        ]
    });
    match k % 6 {
        k @ 0..=4 => fixed[usize::from(k)].clone(),
        _ => {
            let pts: Vec<Point3<BigRational>> = cloud
                .iter()
                .take(24)
                .map(|c| Point3::from(c.map(|x| BigRational::from_integer((x.rem_euclid(5) - 2).into()))))
                .collect();
            convex_hull(&pts).map(|h| h.solid).unwrap_or_else(|_| cube())
        }
    }
}

/// A pair of convex solids, exact: shapes `ka`, `kb` (see [`pair_shape`]) rotated by integer
/// quaternions (a zero quaternion is the identity) and translated by `ta / 8`, `tb / 8`, the
/// second placed by `placement`.
///
/// A rotation and a translation have determinant 1, so the moved solids keep their validated
/// topology ([`Solid::moved_decided`]: exact, nothing checked again).
pub fn convex_pair(
    a: (u8, [i8; 4], [i8; 3]),
    b: (u8, [i8; 4], [i8; 3]),
    cloud: &[[i8; 3]],
    placement: Placement,
) -> (Solid<BigRational>, Solid<BigRational>) {
    convex_pair_on(a, b, cloud, placement)
}

/// [`convex_pair`] built on the exact backend `S` (the same solids: every value is exact).
/// The fuzz inputs build on [`crate::scalar::Exact`], whose integers on the stack make the
/// posing about ten times cheaper than on `BigRational`.
///
/// `S` must have exact values ([`Scalar::EXACT_VALUES`]); on another backend the solids are
/// those of its arithmetic (posed without validation where its decisions are certain).
pub fn convex_pair_on<S: Scalar>(
    (ka, qa, ta): (u8, [i8; 4], [i8; 3]),
    (kb, qb, tb): (u8, [i8; 4], [i8; 3]),
    cloud: &[[i8; 3]],
    placement: Placement,
) -> (Solid<S>, Solid<S>) {
    let posed = |k: u8, q: [i8; 4], t: [i8; 3]| -> Solid<S> {
        let q = if q == [0; 4] { [1, 0, 0, 0] } else { q };
        let map =
            Affine::from_quaternion(&q.map(|x| S::from_i64(x.into())), Vector3::from(t.map(|x| ratio(x.into(), 8))));
        let shape = pair_shape(k, cloud);
        let s = shape.convert_decided::<S>().unwrap_or_else(|_| cube::<S>());
        map.ok().and_then(|m| s.moved_decided(&m).ok()).unwrap_or(s)
    };
    let a = posed(ka, qa, ta);
    let mut b = posed(kb, qb, tb);
    // The vertex of least z (the first of equals, as `Iterator::min_by`) or of greatest z (the
    // last of equals, as `Iterator::max_by`).
    let extreme = |s: &Solid<S>, greatest: bool| {
        let mut best: Option<&Point3<S>> = None;
        for p in s.vertices() {
            let better = best.is_none_or(|b| {
                let order = p.z.compare(&b.z).unwrap_or(std::cmp::Ordering::Equal);
                if greatest {
                    order != std::cmp::Ordering::Less
                } else {
                    order == std::cmp::Ordering::Less
                }
            });
            if better {
                best = Some(p);
            }
        }
        best.cloned().unwrap_or_else(Point3::origin)
    };
    let target = match placement {
        Placement::Free => None,
        Placement::TouchingAbove => Some(extreme(&a, true)),
        Placement::Sunk => {
            let n = S::from_i64(i64::try_from(a.vertex_count().max(1)).unwrap_or(1));
            let sum = a.vertices().iter().fold(Vector3::zeros(), |acc, p| acc + &p.coords);
            Some(Point3::from(sum / n))
        }
    };
    if let Some(t) = target {
        if let Ok(moved) = b.moved_decided(&Affine::translation(t - extreme(&b, false))) {
            b = moved;
        }
    }
    (a, b)
}

/// How many [`convex_shape`]s there are.
pub const CONVEX_SHAPES: usize = 7;

/// The octagon (±3, 0), (±2, ±2), (0, ±3): strictly convex, 8 sides, on the integer grid.
pub fn octagon() -> Vec<(BigRational, BigRational)> {
    [(3, 0), (2, 2), (0, 3), (-2, 2), (-3, 0), (-2, -2), (0, -3), (2, -2)]
        .iter()
        .map(|&(x, y)| (ratio(x, 1), ratio(y, 1)))
        .collect()
}

/// The prism over [`octagon`] from z = −1 to 1: two faces of 8 edges (their Voronoi regions
/// are cut into many cells).
pub fn octagonal_prism() -> Solid<BigRational> {
    extrusion(&octagon(), ratio(-1, 1), ratio(1, 1)).unwrap_or_else(|_| cube())
}

/// Convex solid `k mod CONVEX_SHAPES` of the closest-feature suites: cube, octahedron,
/// tetrahedron, a 1/2 × 1 × 3/2 cuboid, icosahedron, [`octagonal_prism`], or a pentagonal
/// prism on the integer grid (an irregular pentagon: no symmetry to hide a wrong turn).
///
/// ```
/// use touchstone::strategies::{convex_shape, CONVEX_SHAPES};
/// for k in 0..CONVEX_SHAPES {
///     assert!(convex_shape(k).is_convex().unwrap());
/// }
/// assert_eq!(convex_shape(5).face_count(), 10);
/// ```
pub fn convex_shape(k: usize) -> Solid<BigRational> {
    match k % CONVEX_SHAPES {
        0 => cube(),
        1 => octahedron(),
        2 => tetrahedron(),
        3 => cuboid(ratio(1, 2), ratio(1, 1), ratio(3, 2)).unwrap_or_else(|_| cube()),
        4 => icosahedron().unwrap_or_else(|_| cube()),
        5 => octagonal_prism(),
        _ => {
            let pentagon = [(0, 0), (2, 0), (3, 2), (1, 3), (-1, 1)].map(|(x, y)| (ratio(x, 1), ratio(y, 1)));
            extrusion(&pentagon, ratio(0, 1), ratio(1, 1)).unwrap_or_else(|_| cube())
        }
    }
}

/// [`convex_shape`] `k` rotated by the integer quaternion `quat` (an exact rational rotation;
/// zero is the identity) and translated by `t / 4`.
pub fn posed_shape(k: usize, quat: [i64; 4], t: [i64; 3]) -> Solid<BigRational> {
    let quat = if quat == [0; 4] { [1, 0, 0, 0] } else { quat };
    let s = convex_shape(k);
    Affine::from_quaternion(&quat.map(|x| BigRational::from_integer(x.into())), Vector3::from(t.map(|x| ratio(x, 4))))
        .ok()
        .and_then(|m| s.transformed(&m).ok())
        .unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shape `k` posed by the validating route on `BigRational` (the reference of the tests).
    fn validated_posed((k, q, t): (u8, [i8; 4], [i8; 3]), cloud: &[[i8; 3]]) -> Solid<BigRational> {
        let q = if q == [0; 4] { [1, 0, 0, 0] } else { q };
        let m = Affine::from_quaternion(
            &q.map(|x| BigRational::from_integer(x.into())),
            Vector3::from(t.map(|x| ratio(x.into(), 8))),
        )
        .unwrap();
        pair_shape(k, cloud).transformed(&m).unwrap()
    }

    /// The cached shapes moved without a second validation are the solids the validating
    /// route builds: the same vertices, faces and planes, for every shape, placement and a
    /// spread of quaternions and translations.
    #[test]
    fn moved_pairs_are_the_validated_ones() {
        let cloud = [[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, 4], [3, 3, 3], [1, 2, 3]];
        let quats = [[0, 0, 0, 0], [1, 2, 0, -1], [3, 4, 0, 0], [2, -1, 4, 1]];
        let slow = |k: u8, q: [i8; 4], t: [i8; 3]| validated_posed((k, q, t), &cloud);
        let same = |x: &Solid<BigRational>, y: &Solid<BigRational>| {
            assert_eq!(x.vertices(), y.vertices());
            assert_eq!(x.faces(), y.faces());
            for f in 0..x.face_count() {
                assert_eq!(x.plane(f), y.plane(f));
            }
        };
        for k in 0..6u8 {
            for (i, &q) in quats.iter().enumerate() {
                let t = [i as i8 * 3 - 4, 5, -7];
                let (a, b) = convex_pair((k, q, t), (5 - k, quats[(i + 1) % 4], [1, 2, 3]), &cloud, Placement::Free);
                same(&a, &slow(k, q, t));
                same(&b, &slow(5 - k, quats[(i + 1) % 4], [1, 2, 3]));
                let (_, touching) = convex_pair((k, q, t), (k, q, t), &cloud, Placement::TouchingAbove);
                let top = a.vertices().iter().map(|p| p.z.clone()).max().unwrap();
                let low = touching.vertices().iter().map(|p| p.z.clone()).min().unwrap();
                assert_eq!(top, low, "touching above by construction");
                assert!(touching.is_convex().unwrap());
            }
        }
    }

    /// The pair built on the fast exact backend is the pair built independently on
    /// `BigRational` (validated posing, the placement by `Iterator::max_by` and `min_by`): the
    /// same vertices (values), faces and planes (up to a positive factor), for every shape,
    /// placement and a spread of poses, including ties in z (the cube's top face) that the
    /// placement's picks break.
    #[test]
    fn pairs_on_exact_are_the_rational_pairs() {
        use crate::scalar::Exact;
        let cloud = [[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, 4], [3, 3, 3], [1, 2, 3]];
        let quats = [[0, 0, 0, 0], [1, 2, 0, -1], [3, 4, 0, 0], [2, -1, 4, 1], [1, 0, 0, 1]];
        let posed = |kqt| validated_posed(kqt, &cloud);
        let mut placed = 0;
        for k in 0..6u8 {
            for (i, &q) in quats.iter().enumerate() {
                for placement in [Placement::Free, Placement::TouchingAbove, Placement::Sunk] {
                    let (ka, kb) =
                        ((k, q, [i as i8 * 3 - 4, 5, -7]), ((k + i as u8) % 6, quats[(i + 1) % 5], [1, 2, 3]));
                    let a = posed(ka);
                    let mut b = posed(kb);
                    let target = match placement {
                        Placement::Free => None,
                        Placement::TouchingAbove => a.vertices().iter().max_by(|p, q| p.z.cmp(&q.z)).cloned(),
                        Placement::Sunk => {
                            let sum = a.vertices().iter().fold(Vector3::zeros(), |acc, p| acc + &p.coords);
                            Some(Point3::from(sum / BigRational::from_integer(a.vertex_count().into())))
                        }
                    };
                    if let Some(t) = target {
                        let low = b.vertices().iter().min_by(|p, q| p.z.cmp(&q.z)).cloned().unwrap();
                        b = b.transformed(&Affine::translation(t - low)).unwrap();
                        placed += 1;
                    }
                    let (ea, eb) = convex_pair_on::<Exact>(ka, kb, &cloud, placement);
                    for (x, y) in [(&a, &ea), (&b, &eb)] {
                        let values: Vec<_> = y.vertices().iter().map(|p| p.map(|c| c.to_big_rational())).collect();
                        assert_eq!(x.vertices(), &values[..], "{k} {q:?} {placement:?}");
                        assert_eq!(x.faces(), y.faces());
                        for f in 0..x.face_count() {
                            let n = x.plane(f).normal.clone();
                            let m = y.plane(f).normal.map(|c| c.to_big_rational());
                            // Parallel and the same way: n × m = 0 and n · m > 0.
                            assert_eq!(n.cross(&m), Vector3::zeros(), "face {f}");
                            assert!(n.dot(&m) > BigRational::from_integer(0.into()), "face {f}");
                        }
                    }
                }
            }
        }
        assert_eq!(placed, 2 * 6 * 5);
    }
}
