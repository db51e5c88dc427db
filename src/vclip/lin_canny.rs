//! The Lin–Canny closest-feature algorithm (Lin and Manocha 1994, §3.1–3.5 and §3.7), generic
//! over the scalar, over the same solids and results as [`vclip`](super::vclip).
//!
//! Unlike V-Clip, Lin–Canny *computes* the closest points `P_A`, `P_B` of the current features
//! (any pair of vertex, edge and face, face–face and edge–face included) and runs the
//! applicability tests on those points: `P_A` against the Voronoi cell of the feature of B and
//! `P_B` against that of the feature of A (§3.3). A violated constraint plane names the
//! neighbouring feature to move to. When both points pass, the features are closest
//! (Theorem 1 of Mirtich 1998, which is Lin–Canny's criterion).
//!
//! Choices made here (the paper leaves them open):
//!
//! * **Neighbour choice.** A vertex or edge moves to the neighbour of the first violated
//!   plane (vertex–edge planes of an edge are tested before its face–edge planes). A face
//!   whose cell `P` leaves moves to the boundary edge that contains the closest point of the
//!   face (known from the closest-point computation; among the edges violated near it, the
//!   one nearest to `P`). With exact arithmetic every move then either lowers the distance
//!   between the features or keeps it and lowers their total dimension.
//! * **Subdivision (§3.4).** A face with more than [`MAX_CELL_NEIGHBOURS`] edges, or a vertex
//!   with more than [`MAX_CELL_NEIGHBOURS`] incident edges, has its Voronoi cell split into
//!   sub-cells by a fan of planes: for a face, planes through the face normal and the
//!   diagonals from its first vertex (to vertices 3, 5, 7, …); for a vertex, planes through the
//!   vertex spanned by the normal of one face around it and those of faces 3, 5, 7, … further
//!   on. Each sub-cell has at most 3 boundary planes and 2 internal planes, 4 in all. A point
//!   outside its sub-cell by an internal plane moves to the sibling sub-cell (a step that keeps
//!   the features); the walk is monotone around the fan, so it cannot cycle.
//! * **Interior pseudo-Voronoi regions (§3.7).** The centroid `c` is the average of the
//!   vertices. The pseudo-region of face `g` is bounded by `g`'s plane and the planes through
//!   `c` and each edge of `g`. Those planes are exactly where `D_g(p) / −D_g(c)` equals the same
//!   ratio for the neighbouring face (both are affine in `p`, equal to −1 at `c` and 0 on the
//!   edge), so a walk across violated pseudo-planes strictly increases the ratio and ends in
//!   the region of the face the ray from `c` through `p` leaves by. When the closest point of
//!   the other feature is below a face's plane inside its cell, the walk locates it: strictly
//!   inside the solid is a penetration ([`Status::Penetrating`] with that point as witness);
//!   otherwise the point is above the located face, which becomes the new feature (the
//!   escape from a local minimum; the only move that may increase the distance, so the only
//!   one the termination argument above does not cover: the step cap bounds it, and no test
//!   or experiment has reached the cap with exact arithmetic).
//! * **Zero distance.** Features at distance zero stop the search; the status (touching or
//!   penetrating) is decided exactly by the planes through the common point, as in V-Clip.
//!
//! No tolerance appears here: every sign goes through
//! [`Scalar::sign_scaled`](crate::scalar::Scalar::sign_scaled) with the magnitude of the
//! expression decided.

use super::geometry::{cmp_sign, distance_is_zero, dot_sign, in_face_prism, point_segment, segment_segment};
use super::voronoi::{edge_ends, edge_face_planes, edge_vertex_planes, Feat, VPlane};
use super::{check_strictly_convex, geometry, ClosestPair, Status, VClipError, VClipResult};
use crate::brep::{Feature, Solid};
use crate::geom::{norm2, Point3, Vector3};
use crate::scalar::{Decision, Scalar, Sign};

/// Faces with more edges than this, and vertices with more incident edges, get their
/// Voronoi cells subdivided (§3.4: "more than 5").
pub const MAX_CELL_NEIGHBOURS: usize = 5;

/// One (sub-)cell of a vertex's or a face's Voronoi region.
#[derive(Clone, Debug)]
struct Cell<S: Scalar> {
    /// Planes between the feature and a neighbouring feature (an edge).
    boundary: Vec<VPlane<S>>,
    /// Planes between this sub-cell and a sibling (index into the feature's cells).
    internal: Vec<(VPlane<S>, usize)>,
}

/// The preprocessed cells of one solid: exterior sub-cells and the data of the interior
/// pseudo-regions.
struct Cells<S: Scalar> {
    vertex: Vec<Vec<Cell<S>>>,
    face: Vec<Vec<Cell<S>>>,
    /// Per face g: −(n_g · Σv + N d_g) = −N · D_g(centroid) > 0.
    weight: Vec<S>,
}

/// The fan split of a cycle of `k` boundary planes: the diagonal indices (3, 5, …) and, per
/// piece, its boundary range and its lower and upper diagonals.
fn fan(k: usize) -> Vec<(std::ops::Range<usize>, Option<usize>, Option<usize>)> {
    if k <= MAX_CELL_NEIGHBOURS {
        return vec![(0..k, None, None)];
    }
    let mut diags = vec![3];
    while diags[diags.len() - 1] + 3 < k {
        let last = diags[diags.len() - 1];
        diags.push(last + 2);
    }
    let mut bounds = vec![0];
    bounds.extend(&diags);
    bounds.push(k);
    (0..bounds.len() - 1)
        .map(|i| {
            let lo = if i > 0 { Some(bounds[i]) } else { None };
            let hi = if i + 2 < bounds.len() { Some(bounds[i + 1]) } else { None };
            (bounds[i]..bounds[i + 1], lo, hi)
        })
        .collect()
}

/// Assemble the sub-cells from the boundary planes (in cyclic order) and a function giving,
/// for diagonal j, the plane whose non-negative side holds the pieces before it.
fn split<S: Scalar>(boundary: Vec<VPlane<S>>, diagonal: impl Fn(usize) -> VPlane<S>) -> Vec<Cell<S>> {
    fan(boundary.len())
        .into_iter()
        .enumerate()
        .map(|(i, (range, lo, hi))| {
            let mut internal = Vec::new();
            if let Some(j) = lo {
                let mut p = diagonal(j);
                p.normal = -p.normal;
                internal.push((p, i - 1));
            }
            if let Some(j) = hi {
                internal.push((diagonal(j), i + 1));
            }
            Cell { boundary: boundary[range].to_vec(), internal }
        })
        .collect()
}

fn face_cells<S: Scalar>(s: &Solid<S>, f: usize) -> Vec<Cell<S>> {
    let n = s.plane(f).normal.clone();
    let hes = s.half_edges();
    let ring = s.face_half_edges(f);
    let boundary: Vec<VPlane<S>> = ring
        .iter()
        .map(|&k| {
            let he = &hes[k];
            let (a, b) = (s.vertex(he.origin), s.vertex(hes[he.next].origin));
            VPlane { normal: n.cross(&(b - a)), point: a.clone(), neighbor: Feat::E(he.edge) }
        })
        .collect();
    let v0 = s.vertex(hes[ring[0]].origin).clone();
    split(boundary, |j| {
        let vj = s.vertex(hes[ring[j]].origin);
        // The pieces before the chord v0 → vj lie to its right: normal (vj − v0) × n.
        VPlane { normal: (vj - &v0).cross(&n), point: v0.clone(), neighbor: Feat::F(f) }
    })
}

fn vertex_cells<S: Scalar>(s: &Solid<S>, v: usize) -> Decision<Vec<Cell<S>>> {
    let hes = s.half_edges();
    let out = s.outgoing(v);
    let k = out.len();
    let boundary: Vec<VPlane<S>> = out
        .iter()
        .map(|&h| {
            let w = hes[hes[h].twin].origin;
            VPlane { normal: s.vertex(v) - s.vertex(w), point: s.vertex(v).clone(), neighbor: Feat::E(hes[h].edge) }
        })
        .collect();
    if k <= MAX_CELL_NEIGHBOURS {
        return Ok(split(boundary, |_| unreachable_plane(s, v)));
    }
    // Extreme rays of the normal cone: ρ_0 = n of the face of the last outgoing half-edge,
    // ρ_i = n of the face of outgoing half-edge i − 1; boundary plane i lies between ρ_i, ρ_{i+1}.
    let ray = |i: usize| s.plane(hes[out[(i + k - 1) % k]].face).normal.clone();
    let (r0, r1) = (ray(0), ray(1));
    let mut diagonals = Vec::new();
    for (_, _, hi) in fan(k) {
        if let Some(j) = hi {
            let m = r0.cross(&ray(j));
            let m = if dot_sign(&m, &r1)? == Sign::Negative { -m } else { m };
            diagonals.push((j, m));
        }
    }
    Ok(split(boundary, |j| {
        let m = diagonals.iter().find(|(i, _)| *i == j).map(|(_, m)| m.clone()).unwrap_or_else(Vector3::zeros);
        VPlane { normal: m, point: s.vertex(v).clone(), neighbor: Feat::V(v) }
    }))
}

/// Never called: a cell that is not split has no diagonal.
fn unreachable_plane<S: Scalar>(s: &Solid<S>, v: usize) -> VPlane<S> {
    VPlane { normal: Vector3::zeros(), point: s.vertex(v).clone(), neighbor: Feat::V(v) }
}

impl<S: Scalar> Cells<S> {
    fn new(s: &Solid<S>) -> Decision<Self> {
        let vertex = (0..s.vertex_count()).map(|v| vertex_cells(s, v)).collect::<Decision<Vec<_>>>()?;
        let face = (0..s.face_count()).map(|f| face_cells(s, f)).collect();
        let sum = s.vertices().iter().fold(Vector3::zeros(), |acc: Vector3<S>, p| acc + &p.coords);
        let count = S::from_i64(s.vertex_count() as i64);
        let weight = (0..s.face_count())
            .map(|g| {
                let pl = s.plane(g);
                -(pl.normal.dot(&sum) + count.clone() * pl.offset.clone())
            })
            .collect();
        Ok(Cells { vertex, face, weight })
    }
}

/// Closest points of two features: squared distance, a point on each, and for a face
/// feature a boundary edge containing its point when the point came from the boundary.
struct Near<S: Scalar> {
    d: S,
    p: Point3<S>,
    q: Point3<S>,
    p_edge: Option<usize>,
    q_edge: Option<usize>,
}

impl<S: Scalar> Near<S> {
    fn swapped(self) -> Self {
        Near { d: self.d, p: self.q, q: self.p, p_edge: self.q_edge, q_edge: self.p_edge }
    }
}

fn better<S: Scalar>(best: &mut Option<Near<S>>, cand: Near<S>) -> Decision<()> {
    let take = match best {
        None => true,
        Some(b) => cmp_sign(&cand.d, &b.d, cand.d.abs(), b.d.abs())? == Sign::Negative,
    };
    if take {
        *best = Some(cand);
    }
    Ok(())
}

fn face_foot<S: Scalar>(s: &Solid<S>, f: usize, p: &Point3<S>) -> (S, Point3<S>) {
    crate::constructions::plane_foot(p, s.plane(f))
}

/// The boundary segments of face `f`: (edge index, tail, head) per half-edge.
fn face_ring<S: Scalar>(s: &Solid<S>, f: usize) -> Vec<(usize, Point3<S>, Point3<S>)> {
    let hes = s.half_edges();
    s.face_half_edges(f)
        .into_iter()
        .map(|k| (hes[k].edge, s.vertex(hes[k].origin).clone(), s.vertex(hes[hes[k].next].origin).clone()))
        .collect()
}

/// Point `p` (first) against face `f` of `s` (second).
fn point_face<S: Scalar>(p: &Point3<S>, s: &Solid<S>, f: usize) -> Decision<Near<S>> {
    if in_face_prism(s, f, p)? {
        let (d, foot) = face_foot(s, f, p);
        return Ok(Near { d, p: p.clone(), q: foot, p_edge: None, q_edge: None });
    }
    let mut best = None;
    for (e, a, b) in face_ring(s, f) {
        let (d, c) = point_segment(p, &a, &b)?;
        better(&mut best, Near { d, p: p.clone(), q: c, p_edge: None, q_edge: Some(e) })?;
    }
    Ok(best.expect("a face has edges"))
}

/// Segment `t`–`h` (first) against face `f` of `s` (second): a crossing, an endpoint over the
/// face, or the segment against a boundary edge.
fn segment_face<S: Scalar>(t: &Point3<S>, h: &Point3<S>, s: &Solid<S>, f: usize) -> Decision<Near<S>> {
    let plane = s.plane(f);
    let (dt, dh) = (plane.eval(t), plane.eval(h));
    let st = dt.sign_scaled(|| plane.eval_magnitude(t))?;
    let sh = dh.sign_scaled(|| plane.eval_magnitude(h))?;
    if st * sh == Sign::Negative {
        let k = dt.clone() / (dt - dh);
        let c = geometry::along(t, &(h - t), &k);
        if in_face_prism(s, f, &c)? {
            return Ok(Near { d: S::zero(), p: c.clone(), q: c, p_edge: None, q_edge: None });
        }
    }
    let mut best = None;
    for end in [t, h] {
        if in_face_prism(s, f, end)? {
            let (d, foot) = face_foot(s, f, end);
            better(&mut best, Near { d, p: end.clone(), q: foot, p_edge: None, q_edge: None })?;
        }
    }
    for (e, a, b) in face_ring(s, f) {
        let (d, x, y) = segment_segment(t, h, &a, &b)?;
        better(&mut best, Near { d, p: x, q: y, p_edge: None, q_edge: Some(e) })?;
    }
    Ok(best.expect("a face has edges"))
}

/// Face `f` of `a` against face `g` of `b`: every edge of each against the other face.
fn face_face<S: Scalar>(a: &Solid<S>, f: usize, b: &Solid<S>, g: usize) -> Decision<Near<S>> {
    let mut best: Option<Near<S>> = None;
    for (e, t, h) in face_ring(a, f) {
        let mut n = segment_face(&t, &h, b, g)?;
        n.p_edge = Some(e);
        better(&mut best, n)?;
    }
    for (e, t, h) in face_ring(b, g) {
        let mut n = segment_face(&t, &h, a, f)?.swapped();
        n.q_edge = Some(e);
        better(&mut best, n)?;
    }
    Ok(best.expect("a face has edges"))
}

fn segment<S: Scalar>(s: &Solid<S>, e: usize) -> (Point3<S>, Point3<S>) {
    let (t, h) = edge_ends(s, e);
    (s.vertex(t).clone(), s.vertex(h).clone())
}

/// The closest points of feature `x` of `a` and `y` of `b`, every pair of feature types.
fn nearest<S: Scalar>(a: &Solid<S>, x: Feat, b: &Solid<S>, y: Feat) -> Decision<Near<S>> {
    use Feat::{E, F, V};
    let plain = |(d, p, q): (S, Point3<S>, Point3<S>)| Near { d, p, q, p_edge: None, q_edge: None };
    Ok(match (x, y) {
        (V(v), V(w)) => {
            let (p, q) = (a.vertex(v).clone(), b.vertex(w).clone());
            plain((norm2(&(&p - &q)), p, q))
        }
        (V(v), E(e)) => {
            let (t, h) = segment(b, e);
            let (d, c) = point_segment(a.vertex(v), &t, &h)?;
            plain((d, a.vertex(v).clone(), c))
        }
        (E(e), V(v)) => {
            let (t, h) = segment(a, e);
            let (d, c) = point_segment(b.vertex(v), &t, &h)?;
            plain((d, c, b.vertex(v).clone()))
        }
        (E(e1), E(e2)) => {
            let ((t1, h1), (t2, h2)) = (segment(a, e1), segment(b, e2));
            plain(segment_segment(&t1, &h1, &t2, &h2)?)
        }
        (V(v), F(f)) => point_face(a.vertex(v), b, f)?,
        (F(f), V(v)) => point_face(b.vertex(v), a, f)?.swapped(),
        (E(e), F(f)) => {
            let (t, h) = segment(a, e);
            segment_face(&t, &h, b, f)?
        }
        (F(f), E(e)) => {
            let (t, h) = segment(b, e);
            segment_face(&t, &h, a, f)?.swapped()
        }
        (F(f), F(g)) => face_face(a, f, b, g)?,
    })
}

/// A feature of one solid with its current sub-cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    feat: Feat,
    cell: usize,
}

impl Cursor {
    fn at(feat: Feat) -> Self {
        Cursor { feat, cell: 0 }
    }
}

/// The outcome of one applicability test.
enum Verdict {
    /// The point is in the feature's cell.
    Applicable,
    /// The point is in another sub-cell of the same feature.
    Cell(usize),
    /// Move to this feature.
    Move(Feat),
    /// The point is strictly inside the solid, in the pseudo-region of this face.
    Interior(usize),
}

fn violated<S: Scalar>(planes: &[VPlane<S>], p: &Point3<S>) -> Decision<Option<Feat>> {
    for pl in planes {
        if pl.sign(p)? == Sign::Negative {
            return Ok(Some(pl.neighbor));
        }
    }
    Ok(None)
}

fn internal_move<S: Scalar>(cell: &Cell<S>, p: &Point3<S>) -> Decision<Option<usize>> {
    for (pl, sibling) in &cell.internal {
        if pl.sign(p)? == Sign::Negative {
            return Ok(Some(*sibling));
        }
    }
    Ok(None)
}

/// The side plane of face `f` at edge `e` (inward normal), if `e` bounds `f`.
fn side_plane<S: Scalar>(s: &Solid<S>, f: usize, e: usize) -> Option<VPlane<S>> {
    let n = &s.plane(f).normal;
    face_ring(s, f).into_iter().find(|(k, _, _)| *k == e).map(|(_, a, b)| VPlane {
        normal: n.cross(&(&b - &a)),
        point: a,
        neighbor: Feat::E(e),
    })
}

/// The edge to leave face `f` by when `p` is outside its cell: among the edge `near` holding
/// the face's closest point and its two neighbours on the face, those whose side plane `p`
/// violates, the one nearest to `p`.
fn exit_edge<S: Scalar>(s: &Solid<S>, f: usize, near: usize, p: &Point3<S>) -> Decision<Option<usize>> {
    let ring = face_ring(s, f);
    let k = ring.len();
    let Some(i) = ring.iter().position(|(e, _, _)| *e == near) else { return Ok(None) };
    let mut best: Option<(usize, S)> = None;
    for j in [i, (i + 1) % k, (i + k - 1) % k] {
        let e = ring[j].0;
        let Some(pl) = side_plane(s, f, e) else { continue };
        if pl.sign(p)? != Sign::Negative {
            continue;
        }
        let (d, _) = point_segment(p, &ring[j].1, &ring[j].2)?;
        let take = match &best {
            None => true,
            Some((_, bd)) => cmp_sign(&d, bd, d.abs(), bd.abs())? == Sign::Negative,
        };
        if take {
            best = Some((e, d));
        }
    }
    Ok(best.map(|(e, _)| e))
}

/// The sign of ratio_g(p) − ratio_f(p) with ratio_g = D_g(p) / w_g (w_g > 0).
fn ratio_cmp<S: Scalar>(s: &Solid<S>, cells: &Cells<S>, g: usize, f: usize, p: &Point3<S>) -> Decision<Sign> {
    let (pg, pf) = (s.plane(g), s.plane(f));
    let l = pg.eval(p) * cells.weight[f].clone();
    let r = pf.eval(p) * cells.weight[g].clone();
    let ml = pg.eval_magnitude(p) * cells.weight[f].abs();
    let mr = pf.eval_magnitude(p) * cells.weight[g].abs();
    cmp_sign(&l, &r, ml, mr)
}

/// §3.7: locate `p` (below face `f`'s plane) in the interior pseudo-regions of `s`, walking
/// from `f` across the centroid–edge planes it violates. Returns the face reached and
/// whether `p` is strictly below its plane (then strictly inside the solid).
fn pseudo_walk<S: Scalar>(
    s: &Solid<S>,
    cells: &Cells<S>,
    f: usize,
    p: &Point3<S>,
    steps: &mut usize,
    cap: usize,
) -> Result<(usize, bool), VClipError> {
    let mut f = f;
    'walk: loop {
        crate::budget::tick()?;
        for g in s.face_neighbours(f) {
            if ratio_cmp(s, cells, g, f, p)? == Sign::Positive {
                f = g;
                *steps += 1;
                if *steps > cap {
                    return Err(VClipError::IterationCap { steps: cap });
                }
                continue 'walk;
            }
        }
        let pl = s.plane(f);
        let below = pl.eval(p).sign_scaled(|| pl.eval_magnitude(p))? == Sign::Negative;
        return Ok((f, below));
    }
}

/// The applicability test of point `p` (the other feature's closest point) against the cell
/// of `cur` on `s`; `near` is the boundary edge holding the closest point of a face feature.
fn applicable<S: Scalar>(
    s: &Solid<S>,
    cells: &Cells<S>,
    cur: Cursor,
    p: &Point3<S>,
    near: Option<usize>,
    steps: &mut usize,
    cap: usize,
) -> Result<Verdict, VClipError> {
    Ok(match cur.feat {
        Feat::V(v) => {
            let cell = &cells.vertex[v][cur.cell];
            if let Some(c) = internal_move(cell, p)? {
                return Ok(Verdict::Cell(c));
            }
            match violated(&cell.boundary, p)? {
                Some(n) => Verdict::Move(n),
                None => Verdict::Applicable,
            }
        }
        Feat::E(e) => {
            if let Some(n) = violated(&edge_vertex_planes(s, e), p)? {
                return Ok(Verdict::Move(n));
            }
            match violated(&edge_face_planes(s, e), p)? {
                Some(n) => Verdict::Move(n),
                None => Verdict::Applicable,
            }
        }
        Feat::F(f) => {
            let cell = &cells.face[f][cur.cell];
            if let Some(c) = internal_move(cell, p)? {
                return Ok(Verdict::Cell(c));
            }
            if let Some(first) = violated(&cell.boundary, p)? {
                let exit = match near {
                    Some(e) => exit_edge(s, f, e, p)?.map(Feat::E),
                    None => None,
                };
                return Ok(Verdict::Move(exit.unwrap_or(first)));
            }
            let plane = s.plane(f);
            if plane.eval(p).sign_scaled(|| plane.eval_magnitude(p))? != Sign::Negative {
                return Ok(Verdict::Applicable);
            }
            let (g, inside) = pseudo_walk(s, cells, f, p, steps, cap)?;
            if inside {
                Verdict::Interior(g)
            } else {
                Verdict::Move(Feat::F(g))
            }
        }
    })
}

/// The step cap of [`lin_canny`] for solids with `na` and `nb` features: four times the
/// number of feature pairs, plus 64 (sub-cell and pseudo-region moves keep or reorder pairs).
pub fn lin_canny_step_cap(na: usize, nb: usize) -> usize {
    4 * na * nb + 64
}

/// The distance between two convex solids by Lin–Canny (Lin and Manocha 1994, §3), generic
/// over the scalar; the module documentation says how cells are split and penetration found.
///
/// Contract: as [`vclip`](super::vclip): `a` and `b` strictly convex (else
/// [`VClipError::NotConvex`], [`VClipError::FlatEdge`] or [`VClipError::StraightVertex`]) and
/// in one frame; `warm_start` a feature of each (any types, face–face included; else
/// [`VClipError::NoSuchFeature`]), by default vertex 0 of each. Each step computes the closest
/// points of the current features and tests each against the other feature's (sub-)cell. At
/// most [`lin_canny_step_cap`] steps, else [`VClipError::IterationCap`]. The result's
/// features may be of any dimension (two parallel faces are reported as such); the squared
/// distance and points are exact for exact backends.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cube;
/// use touchstone::brep::Feature;
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::vclip::{lin_canny, Status};
/// let q = |x: i64| BigRational::from_integer(x.into());
/// // A second cube 1 unit beyond the face x = 1: two parallel faces, and Lin–Canny says so.
/// let b = cube::<BigRational>().transformed(&Affine::translation(Vector3::new(q(3), q(0), q(0)))).unwrap();
/// let r = lin_canny(&cube(), &b, Some((Feature::Face(5), Feature::Face(4)))).unwrap();
/// assert_eq!((r.closest.status, r.closest.squared_distance), (Status::Separated, q(1)));
/// assert_eq!(r.closest.features, (Feature::Face(5), Feature::Face(4)));
/// // From the default start it finds the same distance.
/// assert_eq!(lin_canny(&cube(), &b, None).unwrap().closest.squared_distance, q(1));
/// ```
pub fn lin_canny<S: Scalar>(
    a: &Solid<S>,
    b: &Solid<S>,
    warm_start: Option<(Feature, Feature)>,
) -> Result<VClipResult<S>, VClipError> {
    check_strictly_convex(a, b)?;
    let (x, y) = super::start_pair(a, b, warm_start)?;
    let (ca, cb) = (Cells::new(a)?, Cells::new(b)?);
    let (mut x, mut y) = (Cursor::at(x), Cursor::at(y));
    let cap = lin_canny_step_cap(super::feature_count(a), super::feature_count(b));
    let mut steps = 0;
    loop {
        crate::budget::tick()?;
        let near = nearest(a, x.feat, b, y.feat)?;
        if distance_is_zero(&near.d, &near.p, &near.q)? {
            let status = geometry::contact_status(a, b, &near.p, (None, None))?;
            let closest = ClosestPair {
                status,
                squared_distance: S::zero(),
                features: (x.feat.public(a), y.feat.public(b)),
                points: (near.p.clone(), near.p),
            };
            return Ok(VClipResult { closest, steps, left_cycle: false });
        }
        // P_A against the cell of the feature of B, then P_B against that of A.
        let mut moved = false;
        match applicable(b, &cb, y, &near.p, near.q_edge, &mut steps, cap)? {
            Verdict::Applicable => {}
            Verdict::Cell(c) => (y.cell, moved) = (c, true),
            Verdict::Move(f) => (y, moved) = (Cursor::at(f), true),
            Verdict::Interior(g) => return Ok(interior(a, x.feat, b, Feat::F(g), near.p.clone(), steps)),
        }
        if !moved {
            match applicable(a, &ca, x, &near.q, near.p_edge, &mut steps, cap)? {
                Verdict::Applicable => {}
                Verdict::Cell(c) => (x.cell, moved) = (c, true),
                Verdict::Move(f) => (x, moved) = (Cursor::at(f), true),
                Verdict::Interior(g) => return Ok(interior(a, Feat::F(g), b, y.feat, near.q.clone(), steps)),
            }
        }
        if !moved {
            let closest = ClosestPair {
                status: Status::Separated,
                squared_distance: near.d,
                features: (x.feat.public(a), y.feat.public(b)),
                points: (near.p, near.q),
            };
            return Ok(VClipResult { closest, steps, left_cycle: false });
        }
        steps += 1;
        if steps > cap {
            return Err(VClipError::IterationCap { steps: cap });
        }
    }
}

/// A point of one solid strictly inside the other: penetration, with the point as witness.
fn interior<S: Scalar>(a: &Solid<S>, x: Feat, b: &Solid<S>, y: Feat, p: Point3<S>, steps: usize) -> VClipResult<S> {
    let closest = ClosestPair {
        status: Status::Penetrating,
        squared_distance: S::zero(),
        features: (x.public(a), y.public(b)),
        points: (p.clone(), p),
    };
    VClipResult { closest, steps, left_cycle: false }
}

/// The exact squared distance between feature `fa` of `a` and feature `fb` of `b` (closed
/// features, any types), e.g. to check that a returned feature pair realises the distance.
///
/// Errors: [`VClipError::NoSuchFeature`] when a feature does not exist.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::shapes::cube;
/// use touchstone::brep::Feature;
/// use touchstone::geom::{Affine, Vector3};
/// use touchstone::vclip::feature_squared_distance;
/// let q = |x: i64| BigRational::from_integer(x.into());
/// let b = cube::<BigRational>().transformed(&Affine::translation(Vector3::new(q(3), q(0), q(0)))).unwrap();
/// assert_eq!(feature_squared_distance(&cube(), &Feature::Face(5), &b, &Feature::Vertex(0)).unwrap(), q(1));
/// // Vertex (-1, -1, -1) to vertex (2, -1, -1).
/// assert_eq!(feature_squared_distance(&cube(), &Feature::Vertex(0), &b, &Feature::Vertex(0)).unwrap(), q(9));
/// ```
pub fn feature_squared_distance<S: Scalar>(
    a: &Solid<S>,
    fa: &Feature,
    b: &Solid<S>,
    fb: &Feature,
) -> Result<S, VClipError> {
    let (x, y) = super::internal_pair(a, fa, b, fb)?;
    Ok(nearest(a, x, b, y)?.d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brep::shapes::extrusion;
    use crate::scalar::ratio;
    use num_rational::BigRational;

    type Q = BigRational;

    #[test]
    fn fan_pieces_have_at_most_four_planes() {
        for k in 3..40 {
            let pieces = fan(k);
            let mut next = 0;
            for (range, lo, hi) in &pieces {
                assert_eq!(range.start, next);
                next = range.end;
                let planes = range.len() + usize::from(lo.is_some()) + usize::from(hi.is_some());
                assert!(planes <= if k <= MAX_CELL_NEIGHBOURS { k } else { 4 }, "k = {k}: {pieces:?}");
            }
            assert_eq!(next, k);
        }
    }

    /// The sub-cell walk from any sub-cell ends in one whose planes `p` satisfies exactly when
    /// `p` is in the whole (unsplit) cell, for the faces and vertices of a prism and a
    /// bipyramid with 8-sided cells.
    #[test]
    fn subcell_walk_locates_points() {
        let oct: Vec<(Q, Q)> = [(3, 0), (2, 2), (0, 3), (-2, 2), (-3, 0), (-2, -2), (0, -3), (2, -2)]
            .iter()
            .map(|&(x, y)| (ratio(x, 1), ratio(y, 1)))
            .collect();
        let prism = extrusion(&oct, ratio(-1, 1), ratio(1, 1)).unwrap();
        let mut v: Vec<Point3<Q>> = oct.iter().map(|(x, y)| Point3::new(x.clone(), y.clone(), ratio(0, 1))).collect();
        v.push(Point3::new(ratio(0, 1), ratio(0, 1), ratio(3, 1)));
        v.push(Point3::new(ratio(0, 1), ratio(0, 1), ratio(-3, 1)));
        let faces: Vec<Vec<usize>> = (0..8).flat_map(|i| [vec![i, (i + 1) % 8, 8], vec![(i + 1) % 8, i, 9]]).collect();
        let bip = Solid::new(v, faces).unwrap();
        let mut split_seen = 0;
        for s in [&prism, &bip] {
            let cells = Cells::new(s).unwrap();
            type Split = (Vec<Cell<Q>>, Vec<VPlane<Q>>);
            let mut all: Vec<Split> = Vec::new();
            for f in 0..s.face_count() {
                all.push((cells.face[f].clone(), super::super::voronoi::face_planes(s, f).into_vec()));
            }
            for v in 0..s.vertex_count() {
                all.push((cells.vertex[v].clone(), super::super::voronoi::vertex_planes(s, v).into_vec()));
            }
            for (sub, whole) in all {
                if sub.len() > 1 {
                    split_seen += 1;
                }
                for x in -9..=9 {
                    for y in -9..=9 {
                        for z in [-7, -2, 0, 1, 5] {
                            let p = Point3::new(ratio(x, 2), ratio(y, 2), ratio(z, 1));
                            for start in 0..sub.len() {
                                let mut c = start;
                                let mut walked = 0;
                                while let Some(n) = internal_move(&sub[c], &p).unwrap() {
                                    c = n;
                                    walked += 1;
                                    assert!(walked <= sub.len());
                                }
                                let in_sub = violated(&sub[c].boundary, &p).unwrap().is_none();
                                let in_whole = violated(&whole, &p).unwrap().is_none();
                                assert_eq!(in_sub, in_whole, "{p:?} from sub-cell {start}");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(split_seen, 4, "two octagon faces and two apex vertices are split");
    }
}
