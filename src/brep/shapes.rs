//! Builders of standard solids. Every builder validates its result, so each returns a
//! well-formed [`Solid`] or the [`BrepError`] of its parameters.
//!
//! Curved families (UV spheres, tori) use *rational* points of the unit circle,
//! ((1 − t²)/(1 + t²), 2t/(1 + t²)) with t rational, so that every vertex is exactly on the
//! surface and every quad (an isosceles trapezoid between two rings built from the same circle
//! points) is exactly planar.

use super::{BrepError, Solid};
use crate::geom::Point3;
use crate::scalar::{ratio, Scalar};

fn p<S: Scalar>(x: S, y: S, z: S) -> Point3<S> {
    Point3::new(x, y, z)
}

/// The axis-aligned box [−hx, hx] × [−hy, hy] × [−hz, hz]; vertex i = (x>0) + 2(y>0) + 4(z>0)
/// as in the oracle's format.
pub fn cuboid<S: Scalar>(hx: S, hy: S, hz: S) -> Result<Solid<S>, BrepError> {
    cuboid_posed([hx, hy, hz], |p| p, Posing::Identity)
}

/// The box of half extents `h` with each corner mapped by `map` (an affine map of positive
/// determinant: a pose), built directly with the cube's topology: the same solid as
/// [`cuboid`] then [`Solid::moved`], without building the unmoved box.
pub fn cuboid_mapped<S: Scalar>(h: [S; 3], map: impl Fn(Point3<S>) -> Point3<S>) -> Result<Solid<S>, BrepError> {
    cuboid_posed(h, map, Posing::Checked)
}

/// [`cuboid_mapped`] for a map whose determinant the caller *decided* positive: on a backend
/// with certain decisions the image of a box with positive half extents is a valid solid
/// exactly, so nothing is checked (an interval backend could not decide its faces planar);
/// on a tolerant backend it is checked as by [`cuboid_mapped`].
pub(crate) fn cuboid_posed_decided<S: Scalar>(
    h: [S; 3],
    map: impl Fn(Point3<S>) -> Point3<S>,
) -> Result<Solid<S>, BrepError> {
    cuboid_posed(h, map, Posing::Decided)
}

/// How a box's corners are placed, and so what must be checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Posing {
    /// By a map, everything checked.
    Checked,
    /// By a map of determinant decided positive: unchecked on backends with certain decisions.
    Decided,
    /// Not moved: the corners are ±h exactly.
    Identity,
}

/// Whether the axis-aligned box of half extents `h` needs none of the solid checks on any
/// backend: its corners ±h are exact, its faces exactly planar (each has one coordinate
/// constant), and its planes and volume computed from them neither overflow nor underflow
/// when every half extent lies in [2⁻²⁰⁰, 2²⁰⁰] (products of three coordinates stay within
/// 2^±610, sums of a dozen within a few more bits). On a tolerant backend the checks would then
/// pass and compute the same planes, so skipping them changes nothing but the time.
fn moderate_box<S: Scalar>(h: &[S; 3]) -> bool {
    const LOW: f64 = 6.223_015_277_861_142e-61; // 2⁻²⁰⁰
    const HIGH: f64 = 1.606_938_044_258_990_3e60; // 2²⁰⁰
    h.iter().all(|x| x.sign() == Ok(crate::scalar::Sign::Positive) && (LOW..=HIGH).contains(&x.to_f64()))
}

fn cuboid_posed<S: Scalar>(
    h: [S; 3],
    map: impl Fn(Point3<S>) -> Point3<S>,
    posing: Posing,
) -> Result<Solid<S>, BrepError> {
    let positive = || h.iter().all(|x| x.sign() == Ok(crate::scalar::Sign::Positive));
    let trusted = match posing {
        Posing::Identity => S::CERTAIN_DECISIONS && positive() || moderate_box(&h),
        Posing::Decided => S::CERTAIN_DECISIONS && positive(),
        Posing::Checked => false,
    };
    let vertices: Vec<Point3<S>> = (0..8)
        .map(|i| {
            let c = |axis: usize| if i >> axis & 1 == 1 { h[axis].clone() } else { -h[axis].clone() };
            let corner = p(c(0), c(1), c(2));
            if posing == Posing::Identity {
                corner
            } else {
                map(corner)
            }
        })
        .collect();
    // The topology is the unit cube's, validated once per thread; a box of any positive half
    // extents has it (its planes and volume are still computed and checked).
    thread_local! {
        static CUBE: Result<Solid<f64>, BrepError> = Solid::new(
            (0..8).map(|i: i32| p(f64::from(2 * (i & 1) - 1), f64::from(2 * (i >> 1 & 1) - 1), f64::from(2 * (i >> 2 & 1) - 1))).collect(),
            cube_faces(),
        );
    }
    CUBE.with(|cube| match cube {
        Ok(cube) if trusted => Ok(super::validate::with_topology_trusted(cube, vertices)),
        Ok(cube) => super::validate::with_topology(cube, vertices),
        Err(_) => Solid::new(vertices, cube_faces()),
    })
}

fn cube_faces() -> Vec<Vec<usize>> {
    vec![
        vec![0, 2, 3, 1], // z < 0
        vec![4, 5, 7, 6], // z > 0
        vec![0, 1, 5, 4], // y < 0
        vec![2, 6, 7, 3], // y > 0
        vec![0, 4, 6, 2], // x < 0
        vec![1, 3, 7, 5], // x > 0
    ]
}

/// The cube [−1, 1]³.
pub fn cube<S: Scalar>() -> Solid<S> {
    cuboid(S::one(), S::one(), S::one()).expect("the unit cube is valid")
}

/// The regular tetrahedron with vertices (1,1,1), (1,−1,−1), (−1,1,−1), (−1,−1,1).
pub fn tetrahedron<S: Scalar>() -> Solid<S> {
    let i = |x: i64| S::from_i64(x);
    let vertices = vec![p(i(1), i(1), i(1)), p(i(1), i(-1), i(-1)), p(i(-1), i(1), i(-1)), p(i(-1), i(-1), i(1))];
    Solid::new(vertices, vec![vec![0, 1, 2], vec![0, 3, 1], vec![0, 2, 3], vec![1, 3, 2]])
        .expect("the tetrahedron is valid")
}

/// The regular octahedron with vertices ±e_x, ±e_y, ±e_z (ids: +x, −x, +y, −y, +z, −z).
pub fn octahedron<S: Scalar>() -> Solid<S> {
    let (o, z) = (S::one(), S::zero());
    let vertices = vec![
        p(o.clone(), z.clone(), z.clone()),
        p(-o.clone(), z.clone(), z.clone()),
        p(z.clone(), o.clone(), z.clone()),
        p(z.clone(), -o.clone(), z.clone()),
        p(z.clone(), z.clone(), o.clone()),
        p(z.clone(), z, -o),
    ];
    let faces = vec![
        vec![0, 2, 4],
        vec![2, 1, 4],
        vec![1, 3, 4],
        vec![3, 0, 4],
        vec![2, 0, 5],
        vec![1, 2, 5],
        vec![3, 1, 5],
        vec![0, 3, 5],
    ];
    Solid::new(vertices, faces).expect("the octahedron is valid")
}

/// The icosahedron (0, ±1, ±φ), (±1, ±φ, 0), (±φ, 0, ±1) with φ the binary64 golden ratio,
/// taken exactly: slightly irregular, but every face is a triangle, so exactly planar.
///
/// Errors: only [`BrepError::Uncertain`], on a backend that cannot decide its hull (an
/// interval backend may not separate the products of φ).
pub fn icosahedron<S: Scalar>() -> Result<Solid<S>, BrepError> {
    let phi = S::from_f64((1.0 + 5f64.sqrt()) / 2.0).expect("finite");
    let (o, z) = (S::one(), S::zero());
    let mut vertices = Vec::new();
    for (a, b) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (sa, sb) = (if a > 0 { o.clone() } else { -o.clone() }, if b > 0 { phi.clone() } else { -phi.clone() });
        vertices.push(p(z.clone(), sa.clone(), sb.clone()));
        vertices.push(p(sa.clone(), sb.clone(), z.clone()));
        vertices.push(p(sb, z.clone(), sa));
    }
    use super::HullError as H;
    match super::hull::convex_hull(&vertices) {
        Ok(h) => Ok(h.solid),
        Err(H::Uncertain(u)) => Err(BrepError::Uncertain(u)),
        Err(H::Invalid(e)) => Err(e),
        // Twelve points far from any plane, on backends whose decisions are right or
        // uncertain: no hull error but those above can occur.
        Err(_) => Err(BrepError::ZeroVolume),
    }
}

/// The dodecahedron as the exact polar dual of [`icosahedron`]: vertex f is n_f / (−d_f) for
/// the icosahedron's face plane n_f·x + d_f = 0, and face v collects the duals of the faces
/// around icosahedron vertex v. Each face lies exactly on the plane v·x = 1.
///
/// Errors: only [`BrepError::Uncertain`], on a backend that cannot decide it (an interval
/// backend cannot prove its pentagons planar).
pub fn dodecahedron<S: Scalar>() -> Result<Solid<S>, BrepError> {
    let ico = icosahedron::<S>()?;
    let vertices = (0..ico.face_count())
        .map(|f| {
            let plane = ico.plane(f);
            let scale = -plane.offset.clone();
            Point3::from(plane.normal.map(|c| c / scale.clone()))
        })
        .collect();
    let faces = (0..ico.vertex_count()).map(|v| ico.vertex_faces(v)).collect();
    Solid::new(vertices, faces)
}

/// The prism over a simple polygon (counterclockwise seen from +z) between heights z0 < z1:
/// vertex j of the polygon gives vertices j (bottom) and n + j (top).
pub fn extrusion<S: Scalar>(polygon: &[(S, S)], z0: S, z1: S) -> Result<Solid<S>, BrepError> {
    let n = polygon.len();
    let mut vertices: Vec<Point3<S>> = polygon.iter().map(|(x, y)| p(x.clone(), y.clone(), z0.clone())).collect();
    vertices.extend(polygon.iter().map(|(x, y)| p(x.clone(), y.clone(), z1.clone())));
    let mut faces = vec![(0..n).rev().collect::<Vec<_>>(), (n..2 * n).collect()];
    for j in 0..n {
        let k = (j + 1) % n;
        faces.push(vec![j, k, n + k, n + j]);
    }
    Solid::new(vertices, faces)
}

fn grid<S: Scalar>(pts: &[(i64, i64)]) -> Vec<(S, S)> {
    pts.iter().map(|&(x, y)| (S::from_i64(x), S::from_i64(y))).collect()
}

/// An L-shaped prism (nonconvex): the L (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), height 1.
pub fn l_shape<S: Scalar>() -> Solid<S> {
    extrusion(&grid(&[(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]), S::zero(), S::one()).expect("valid")
}

/// A U-shaped prism (nonconvex), 3 × 3 with a 1 × 2 notch, height 1.
pub fn u_shape<S: Scalar>() -> Solid<S> {
    let u = grid(&[(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]);
    extrusion(&u, S::zero(), S::one()).expect("valid")
}

/// A comb-shaped prism with `teeth` ≥ 1 teeth of width 1, gaps of width 1, height 1.
pub fn comb<S: Scalar>(teeth: usize) -> Result<Solid<S>, BrepError> {
    let t = teeth.max(1) as i64;
    let mut pts = vec![(0, 0), (2 * t - 1, 0)];
    for k in (0..t).rev() {
        let x = 2 * k;
        pts.extend([(x + 1, 3), (x, 3)]);
        if k > 0 {
            pts.extend([(x, 1), (x - 1, 1)]);
        }
    }
    extrusion(&grid(&pts), S::zero(), S::one())
}

/// A rational point of the unit circle near angle 2π·j/n: exact at multiples of π/2, and
/// (1 − t², 2t)/(1 + t²) with t = tan(α/2) rounded to a multiple of 1/1024 otherwise. The
/// points for j = 0..n run counterclockwise.
pub fn circle_point<S: Scalar>(j: usize, n: usize) -> (S, S) {
    let turns = (j % n) as f64 / n as f64 * 4.0; // in quarter turns
    let quadrant = turns.floor() as usize % 4;
    let frac = turns - turns.floor();
    let (flip, alpha) = if frac > 0.5 {
        (true, (1.0 - frac) * std::f64::consts::FRAC_PI_2)
    } else {
        (false, frac * std::f64::consts::FRAC_PI_2)
    };
    let t: S = ratio(((alpha / 2.0).tan() * 1024.0).round() as i64, 1024);
    let d = S::one() + t.clone() * t.clone();
    let (mut x, mut y) = ((S::one() - t.clone() * t.clone()) / d.clone(), (t.clone() + t) / d);
    if flip {
        std::mem::swap(&mut x, &mut y);
    }
    for _ in 0..quadrant {
        (x, y) = (-y, x);
    }
    (x, y)
}

/// The UV sphere of radius 1 with `meridians` ≥ 3 longitudes and `bands` ≥ 2 latitude bands:
/// triangle fans at the poles, exactly planar quads between; every vertex exactly on the
/// sphere. Vertex 0 is the north pole, then the rings from north to south, then the south
/// pole. The k × k sphere has V + E + F = 4k² − 2k + 2 (Table 1 of Vaněček 1990).
pub fn uv_sphere<S: Scalar>(meridians: usize, bands: usize) -> Result<Solid<S>, BrepError> {
    let (m, b) = (meridians.max(3), bands.max(2));
    let ring: Vec<(S, S)> = (0..m).map(|j| circle_point(j, m)).collect();
    let mut vertices = vec![p(S::zero(), S::zero(), S::one())];
    for i in 1..b {
        // Polar angle π·i/b as a rational circle point: (z, ρ).
        let (z, rho) = circle_point::<S>(i, 2 * b);
        vertices.extend(ring.iter().map(|(c, s)| p(rho.clone() * c.clone(), rho.clone() * s.clone(), z.clone())));
    }
    vertices.push(p(S::zero(), S::zero(), -S::one()));
    let id = |i: usize, j: usize| 1 + (i - 1) * m + j % m;
    let south = vertices.len() - 1;
    let mut faces = Vec::new();
    for j in 0..m {
        faces.push(vec![0, id(1, j), id(1, j + 1)]);
        for i in 1..b - 1 {
            faces.push(vec![id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
        faces.push(vec![south, id(b - 1, j + 1), id(b - 1, j)]);
    }
    Solid::new(vertices, faces)
}

/// The torus about the z axis with `major` ≥ 3 segments around the axis and `minor` ≥ 3 around
/// the tube, radii `big_r` > `small_r` > 0: quads only, exactly planar (V = E/2 = F).
/// Vertex (i, j) = i·major + j lies on tube circle i, at angle j around the axis.
pub fn torus<S: Scalar>(major: usize, minor: usize, big_r: S, small_r: S) -> Result<Solid<S>, BrepError> {
    let (m, n) = (major.max(3), minor.max(3));
    let ring: Vec<(S, S)> = (0..m).map(|j| circle_point(j, m)).collect();
    let mut vertices = Vec::new();
    for i in 0..n {
        let (c, s) = circle_point::<S>(i, n);
        let rho = big_r.clone() + small_r.clone() * c;
        let z = small_r.clone() * s;
        vertices.extend(ring.iter().map(|(x, y)| p(rho.clone() * x.clone(), rho.clone() * y.clone(), z.clone())));
    }
    let id = |i: usize, j: usize| (i % n) * m + j % m;
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..m {
            faces.push(vec![id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i + 1, j)]);
        }
    }
    Solid::new(vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unchecked box is the checked one: same corners, same planes, and the checks pass,
    /// for half extents across the whole moderate range and its edges (mixed aspect ratios),
    /// in binary64 and exactly; outside the range the checks run.
    #[test]
    fn an_unmoved_box_skips_only_checks_that_pass() {
        let hs = [2f64.powi(-200), 2f64.powi(-100), 1e-30, 0.5, 1.0, 3.0, 1e30, 2f64.powi(200)];
        let mut compared = 0;
        for &x in &hs {
            for &y in &hs {
                for &z in &hs {
                    let h = [x, y, z];
                    assert!(moderate_box(&h));
                    let fast = cuboid_posed(h, |p| p, Posing::Identity).unwrap();
                    let checked = cuboid_posed(h, |p| p, Posing::Checked).unwrap();
                    assert_eq!(fast.vertices(), checked.vertices());
                    for f in 0..6 {
                        assert_eq!(fast.plane(f), checked.plane(f), "h = {h:?}, face {f}");
                    }
                    let q = h.map(|c| crate::scalar::Scalar::from_f64(c).unwrap());
                    let exact: Solid<num_rational::BigRational> =
                        cuboid_posed(q.clone(), |p| p, Posing::Identity).unwrap();
                    let exact_checked = cuboid_posed(q, |p| p, Posing::Checked).unwrap();
                    assert_eq!(exact.vertices(), exact_checked.vertices());
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 512);
        // Beyond the range the checks decide (here: the planes' products overflow binary64).
        for bad in [[2f64.powi(201), 1.0, 1.0], [1.0, 2f64.powi(-201), 1.0], [1e300, 1e300, 1e300]] {
            assert!(!moderate_box(&bad));
        }
        assert!(cuboid(1e300, 1e300, 1e300).is_err());
    }
}
