//! Motions degenerate by construction: the public CCD benchmark's primitives on the grid of
//! quarters (coplanar, or passing exactly through a vertex or an edge midpoint at t = 0, 1/2,
//! 1), and box sweeps on the half grid (translations, quadratic paths, integer-quaternion spins).

use num_rational::BigRational;

use crate::geom::Point3;
use crate::sweep::ccd::CcdKind;

type Q = BigRational;

/// How a [`degenerate_ccd`] case is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcdConstruction {
    /// The points as given.
    Free,
    /// Every point in the plane z = 0 (coplanar motion: the contact equation vanishes).
    Coplanar,
    /// The second primitive static; the first primitive's first point passes exactly through
    /// a vertex or an edge midpoint of it at t = 0, 1/2 or 1.
    Through {
        /// 0–3: a vertex of the second primitive (vertex–face: of the triangle), else an
        /// edge midpoint.
        target: u8,
        /// 0: t = 0, 1: t = 1/2, 2: t = 1.
        when: u8,
    },
}

/// A CCD case on the grid of quarters (exact in binary64), degenerate by construction.
/// `points` are the eight grid points (t0 then t1), coordinates in quarters.
pub fn degenerate_ccd(
    kind: CcdKind,
    points: [[i8; 3]; 8],
    construction: CcdConstruction,
) -> ([Point3<f64>; 4], [Point3<f64>; 4]) {
    let p = |c: [i8; 3]| Point3::new(c[0] as f64 / 4.0, c[1] as f64 / 4.0, c[2] as f64 / 4.0);
    let mut t0 = [0, 1, 2, 3].map(|i| p(points[i]));
    let mut t1 = [4, 5, 6, 7].map(|i| p(points[i]));
    match construction {
        CcdConstruction::Free => {}
        CcdConstruction::Coplanar => {
            for q in t0.iter_mut().chain(t1.iter_mut()) {
                q.z = 0.0;
            }
        }
        CcdConstruction::Through { target, when } => {
            let others: &[usize] = if kind == CcdKind::VertexFace { &[1, 2, 3] } else { &[2, 3] };
            for &i in others {
                t1[i] = t0[i];
            }
            let k = target as usize % (2 * others.len());
            let hit = if k < others.len() {
                t0[others[k]]
            } else {
                let (a, b) = (t0[others[k - others.len()]], t0[others[(k + 1 - others.len()) % others.len()]]);
                Point3::from((a.coords + b.coords) / 2.0)
            };
            let dir = t1[0] - t0[0];
            let tc = [0.0, 0.5, 1.0][when as usize % 3];
            let moved = [hit - dir * tc, hit + dir * (1.0 - tc)];
            let shift = moved[0] - t0[0];
            t0[0] = moved[0];
            t1[0] = moved[1];
            if kind == CcdKind::EdgeEdge {
                t0[1] += shift;
                t1[1] += shift;
            }
        }
    }
    (t0, t1)
}

/// A box of half extents `half` whose centre moves as `start + velocity·t + accel·t²`, without
/// turning: the motion `[M0, M1, M2]` of `toi_boxes` (M(t) = M0 + M1 t + M2 t²).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::strategies::translating_box;
/// let r = |n: i64| BigRational::from_integer(n.into());
/// let b = translating_box([r(1), r(1), r(1)], [r(0), r(0), r(3)], [r(0), r(0), r(-1)], [r(0), r(0), r(0)]);
/// assert_eq!(b.motion[0][(2, 3)], r(3));
/// assert_eq!(b.motion[1][(2, 3)], r(-1));
/// ```
pub fn translating_box(half: [Q; 3], start: [Q; 3], velocity: [Q; 3], accel: [Q; 3]) -> crate::sweep::BoxMotion<Q> {
    use crate::geom::Matrix4;
    let zero = || Matrix4::from_element(Q::default());
    let mut m = [Matrix4::identity(), zero(), zero()];
    for (i, ((s, v), a)) in start.into_iter().zip(velocity).zip(accel).enumerate() {
        m[0][(i, 3)] = s;
        m[1][(i, 3)] = v;
        m[2][(i, 3)] = a;
    }
    crate::sweep::BoxMotion { half, motion: m }
}

/// Two boxes for the sweep contract, exact and representable in binary64: box `a` still at
/// the origin, box `b` either translating (centre c/2 + (v/2) t + (acc/4) t²) or spinning
/// about the fixed centre c/2 by the quaternion q(t) = q0 + q1 t (M(t) = [R̃(q(t)) | c/2·w(t)]
/// with R̃ the unnormalised rotation matrix and w = |q(t)|², quadratic in t). Half extents are
/// halves 1/2 … 2. Grid centres and velocities make face–face, edge-parallel and
/// vertex-on-vertex contacts common.
pub fn degenerate_boxes(
    half_a: [u8; 3],
    half_b: [u8; 3],
    spin: Option<([i8; 4], [i8; 4])>,
    c: [i8; 3],
    v: [i8; 3],
    acc: [i8; 3],
) -> (crate::sweep::BoxMotion<Q>, crate::sweep::BoxMotion<Q>) {
    use crate::geom::Matrix4;
    let half = |h: [u8; 3]| h.map(|k| Q::new((1 + k % 4).into(), 2.into()));
    let zero = || Matrix4::from_element(Q::default());
    let a = crate::sweep::BoxMotion { half: half(half_a), motion: [Matrix4::identity(), zero(), zero()] };
    let centre = c.map(|x| Q::new(x.into(), 2.into()));
    let motion = match spin {
        None => {
            let (v, acc) = (v.map(|x| Q::new(x.into(), 2.into())), acc.map(|x| Q::new(x.into(), 4.into())));
            translating_box(half(half_b), centre.clone(), v, acc).motion
        }
        Some((q0, q1)) => {
            // R̃ and w are quadratic forms in q: M(t) = F(q0) + (F(q0 + q1) − F(q0) − F(q1)) t + F(q1) t².
            let form = |q: [i64; 4]| -> Matrix4<Q> {
                let qq = q.map(|x| Q::from_integer(x.into()));
                let n: Q = qq.iter().map(|x| x * x).sum();
                let mut m = zero();
                if n != Q::default() {
                    if let Ok(r) = crate::geom::quaternion_matrix(&qq) {
                        for i in 0..3 {
                            for j in 0..3 {
                                m[(i, j)] = r[(i, j)].clone() * n.clone();
                            }
                        }
                    }
                }
                for i in 0..3 {
                    m[(i, 3)] = centre[i].clone() * n.clone();
                }
                m[(3, 3)] = n;
                m
            };
            let (p0, p1) = (q0.map(i64::from), q1.map(i64::from));
            let sum = [0, 1, 2, 3].map(|k| p0[k] + p1[k]);
            let (f0, f1, fs) = (form(p0), form(p1), form(sum));
            [f0.clone(), fs - &f0 - &f1, f1]
        }
    };
    (a, crate::sweep::BoxMotion { half: half(half_b), motion })
}
