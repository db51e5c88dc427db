//! The exact convex hull of a point set.
//!
//! Randomized incremental construction with conflict lists (Clarkson–Shor): each point not yet
//! inserted remembers one hull triangle it sees *strictly* (orient3d > 0); inserting it deletes
//! the triangles it sees and cones its horizon to it. Strict visibility keeps coplanar points
//! from creating overlapping triangles; a point that sees none of the new triangles is inside
//! the new hull (it is in the cone of the new triangles and below a deleted one, so between
//! the new point and the old hull). Afterwards adjacent coplanar triangles are merged into
//! maximal faces, and points in the interior of an edge are dropped, so the vertices are
//! exactly the extreme points. Every decision is an [`orient3d`] or a collinearity test, exact
//! for exact backends.

use super::{BrepError, Solid};
use crate::geom::{Point3, Vector3};
use crate::predicates::{orient3d, Orientation};
use crate::scalar::{compare_points, try_dedup_by, try_sort_by, Decision, Scalar, Uncertain};

/// Why a point set has no solid hull.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HullError {
    /// A backend could not decide a sign (filtered backends only).
    #[error(transparent)]
    Uncertain(#[from] Uncertain),
    /// A coordinate is NaN or infinite.
    #[error("point {point}: coordinate {coordinate} is not finite")]
    NonFinite {
        /// The point.
        point: usize,
        /// 0, 1 or 2.
        coordinate: usize,
    },
    /// Fewer than four distinct points.
    #[error("{count} distinct points: a solid hull needs at least 4")]
    TooFewPoints {
        /// How many distinct points there are.
        count: usize,
    },
    /// All points on one line.
    #[error("all points are collinear: their hull is not a solid")]
    Collinear,
    /// All points in one plane.
    #[error("all points are coplanar: their hull is not a solid")]
    Coplanar,
    /// The hull failed validation (possible only with an inexact backend's rounding).
    #[error("the hull is not a valid solid: {0}")]
    Invalid(BrepError),
    /// The boundary of a group of merged triangles, or of the triangles a point sees, is not
    /// one closed loop (possible only with an inexact backend, whose coplanarity is not
    /// transitive; it then falls back to the triangles, or to the exact hull).
    #[error("a merged face's boundary is not one closed loop")]
    FaceLoop,
}

/// A convex hull: the solid, whose vertex `i` is input point `input_index[i]` (ascending).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull<S: Scalar> {
    /// The hull as a solid, vertices renumbered 0..n in input order.
    pub solid: Solid<S>,
    /// For each hull vertex, its index in the input.
    pub input_index: Vec<usize>,
}

#[derive(Clone, Debug)]
struct Tri {
    v: [usize; 3],
    /// Neighbour across edge k = (v[k], v[k+1]).
    nbr: [usize; 3],
    alive: bool,
    /// The first and last point of its conflict list (threaded through
    /// [`Builder::conflict_next`]), `usize::MAX` when empty: no list allocated per triangle.
    conflicts: (usize, usize),
}

const NONE: usize = usize::MAX;

struct Builder<'a, S: Scalar> {
    pts: &'a [Point3<S>],
    tris: Vec<Tri>,
    point_tri: Vec<Option<usize>>,
    /// Per triangle, the insertion that last tested it and whether the point saw it: marks
    /// reset by the next insertion's stamp instead of a map per insertion.
    seen: Vec<(u32, bool)>,
    stamp: u32,
    /// Per point, the new triangle whose horizon edge starts (`by_start`) or ends (`by_end`)
    /// there, valid for the insertion that wrote `start_stamp` (`end_stamp`).
    by_start: Vec<usize>,
    by_end: Vec<usize>,
    start_stamp: Vec<u32>,
    end_stamp: Vec<u32>,
    /// Per point, the next point in its triangle's conflict list (in the order assigned).
    conflict_next: Vec<usize>,
    /// Buffers of an insertion, kept between insertions.
    visible: Vec<usize>,
    created: Vec<usize>,
    orphans: Vec<usize>,
    /// Whether a tolerant backend called some point coplanar with a triangle: its hull is
    /// then checked against every point ([`covers`]).
    tied: std::cell::Cell<bool>,
}

impl<S: Scalar> Builder<'_, S> {
    /// Whether `q` is strictly above triangle `t`: one orientation test, the unit of the hull's
    /// work (the conflict pass, the visible region, the orphans' reassignment), so one tick of
    /// the budget.
    fn sees(&self, t: usize, q: usize) -> Decision<bool> {
        crate::budget::tick()?;
        let [a, b, c] = self.tris[t].v;
        let o = orient3d(&self.pts[a], &self.pts[b], &self.pts[c], &self.pts[q])?;
        if o == Orientation::Coplanar && !S::CERTAIN_DECISIONS {
            self.tied.set(true);
        }
        Ok(o == Orientation::Positive)
    }

    fn assign(&mut self, q: usize, candidates: &[usize]) -> Decision<()> {
        self.point_tri[q] = None;
        for &t in candidates {
            if self.sees(t, q)? {
                self.point_tri[q] = Some(t);
                self.conflict_next[q] = NONE;
                match self.tris[t].conflicts {
                    (NONE, _) => self.tris[t].conflicts = (q, q),
                    (head, tail) => {
                        self.conflict_next[tail] = q;
                        self.tris[t].conflicts = (head, q);
                    }
                }
                break;
            }
        }
        Ok(())
    }

    /// Whether triangle `t` was found visible by the current insertion (tested already).
    fn visible(&self, t: usize) -> bool {
        self.seen.get(t).is_some_and(|&(s, v)| s == self.stamp && v)
    }

    /// Insert `q`, which sees triangle `start`. The visible triangles' boundary must be one
    /// cycle: exactly it is (the visible region of a point outside a convex hull is a disc);
    /// a tolerant backend's decisions can make a ring or a pinched region, refused as
    /// [`HullError::FaceLoop`] before any link is made from it.
    fn insert(&mut self, q: usize, start: usize) -> Result<(), HullError> {
        // The triangles q sees form a connected region containing `start`.
        self.stamp += 1;
        self.seen.resize(self.tris.len(), (0, false));
        self.seen[start] = (self.stamp, true);
        let mut visible = std::mem::take(&mut self.visible);
        visible.clear();
        visible.push(start);
        let mut i = 0;
        while i < visible.len() {
            crate::budget::tick()?;
            let t = visible[i];
            i += 1;
            for k in 0..3 {
                let n = self.tris[t].nbr[k];
                if self.seen[n].0 != self.stamp {
                    let sees = self.sees(n, q)?;
                    self.seen[n] = (self.stamp, sees);
                    if sees {
                        visible.push(n);
                    }
                }
            }
        }
        // Horizon edges (a, b) of visible triangles with a hidden neighbour: cone them to q.
        let mut created = std::mem::take(&mut self.created);
        created.clear();
        for &t in &visible {
            for k in 0..3 {
                let n = self.tris[t].nbr[k];
                if self.visible(n) {
                    continue;
                }
                let (a, b) = (self.tris[t].v[k], self.tris[t].v[(k + 1) % 3]);
                // Two horizon edges from one vertex (or into one): no single cycle.
                if self.start_stamp[a] == self.stamp || self.end_stamp[b] == self.stamp {
                    return Err(HullError::FaceLoop);
                }
                let id = self.tris.len();
                // The query's memory budget is asked before the triangles grow (hull of a
                // hostile point set: up to 2n faces and every point's conflict list).
                crate::budget::push(
                    &mut self.tris,
                    Tri { v: [a, b, q], nbr: [n, usize::MAX, usize::MAX], alive: true, conflicts: (NONE, NONE) },
                )?;
                let back = self.tris[n].nbr.iter().position(|&x| x == t).ok_or(HullError::FaceLoop)?;
                self.tris[n].nbr[back] = id;
                self.by_start[a] = id;
                self.by_end[b] = id;
                self.start_stamp[a] = self.stamp;
                self.end_stamp[b] = self.stamp;
                created.push(id);
            }
        }
        for &id in &created {
            let [a, b, _] = self.tris[id].v;
            // One cycle through its vertices: an edge into a and one out of b this insertion.
            if self.start_stamp[b] != self.stamp || self.end_stamp[a] != self.stamp {
                return Err(HullError::FaceLoop);
            }
            self.tris[id].nbr[1] = self.by_start[b]; // across (b, q): the new triangle starting at b
            self.tris[id].nbr[2] = self.by_end[a]; // across (q, a): the new triangle ending at a
        }
        let mut orphans = std::mem::take(&mut self.orphans);
        orphans.clear();
        for &t in &visible {
            self.tris[t].alive = false;
            let mut r = self.tris[t].conflicts.0;
            while r != NONE {
                orphans.push(r);
                r = self.conflict_next[r];
            }
            self.tris[t].conflicts = (NONE, NONE);
        }
        for &r in &orphans {
            if r != q {
                self.assign(r, &created)?;
            }
        }
        self.point_tri[q] = None;
        (self.visible, self.created, self.orphans) = (visible, created, orphans);
        Ok(())
    }
}

fn collinear<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>) -> Decision<bool> {
    let (u, v): (Vector3<S>, Vector3<S>) = (b - a, c - a);
    crate::predicates::parallel(&u, &v)
}

/// A deterministic shuffle (xorshift), for the expected O(n log n) of randomized insertion on
/// any input order, with reproducible results.
fn shuffled(mut ids: Vec<usize>) -> Vec<usize> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in (1..ids.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ids.swap(i, (state % (i as u64 + 1)) as usize);
    }
    ids
}

/// The exact convex hull of `points`, coplanar triangles merged into maximal faces, vertices
/// exactly the extreme points (ids in [`ConvexHull::input_index`]).
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::brep::convex_hull;
/// use touchstone::geom::point;
/// // A cube's corners plus its centre and the centre of a face: only the corners remain.
/// let mut pts: Vec<_> = (0..8).map(|i| point::<BigRational>(i & 1, i >> 1 & 1, i >> 2 & 1)).collect();
/// pts.push(touchstone::geom::Point3::new(BigRational::new(1.into(), 2.into()), BigRational::new(1.into(), 2.into()), BigRational::new(1.into(), 2.into())));
/// let hull = convex_hull(&pts).unwrap();
/// assert_eq!((hull.solid.vertex_count(), hull.solid.face_count()), (8, 6));
/// assert_eq!(hull.input_index, (0..8).collect::<Vec<_>>());
/// ```
pub fn convex_hull<S: Scalar>(points: &[Point3<S>]) -> Result<ConvexHull<S>, HullError> {
    // Distinct points only, keeping the lowest index of each (a stable sort by coordinates,
    // decided by `compare`).
    for (i, p) in points.iter().enumerate() {
        if let Some(c) = (0..3).find(|&c| !p[c].finite()) {
            return Err(HullError::NonFinite { point: i, coordinate: c });
        }
    }
    let mut order: Vec<usize> = (0..points.len()).collect();
    try_sort_by(&mut order, |&a, &b| compare_points(&points[a], &points[b]))?;
    try_dedup_by(&mut order, |&a, &b| compare_points(&points[a], &points[b]))?;
    order.sort_unstable();
    let ids = order;
    if ids.len() < 4 {
        return Err(HullError::TooFewPoints { count: ids.len() });
    }
    // An initial tetrahedron.
    let p0 = ids[0];
    let p1 = ids[1];
    let mut p2 = None;
    for &i in &ids[2..] {
        if !collinear(&points[p0], &points[p1], &points[i])? {
            p2 = Some(i);
            break;
        }
    }
    let p2 = p2.ok_or(HullError::Collinear)?;
    let mut p3 = None;
    // After p2 only: p2 itself and the points before it (collinear with p0 and p1) are
    // coplanar with the three by construction, which exact arithmetic decides and an
    // interval backend cannot (every hull of doubles fell back on p2 itself).
    let after_p2 = ids.iter().position(|&i| i == p2).map_or(ids.len(), |k| k + 1);
    // The first point off the plane of the three (exact backends), or on a tolerant backend the
    // first whose height is decided against the tetrahedron's size too ([`sized_height`]), else
    // that first one.
    let reach = underflow_reach(points);
    let mut first = None;
    for &i in &ids[after_p2..] {
        let o = orient3d(&points[p0], &points[p1], &points[p2], &points[i])?;
        if o == Orientation::Coplanar {
            continue;
        }
        first = first.or(Some((i, o)));
        if S::CERTAIN_DECISIONS || sized_height(&points[p0], &points[p1], &points[p2], &points[i], &reach)? {
            p3 = Some((i, o));
            break;
        }
    }
    let p3 = p3.or(first);
    let (p3, o) = p3.ok_or(HullError::Coplanar)?;
    // Faces counterclockwise seen from outside: p3 above (p0, p1, p2) means that face looks down.
    let (a, b, c, d) = if o == Orientation::Positive { (p0, p2, p1, p3) } else { (p0, p1, p2, p3) };
    // Faces: 0 = (a,b,c), 1 = (a,d,b), 2 = (b,d,c), 3 = (c,d,a); neighbours across each edge.
    let tri = |v: [usize; 3], nbr: [usize; 3]| Tri { v, nbr, alive: true, conflicts: (NONE, NONE) };
    // Room for the triangles a small hull makes (about 6 per point are ever created); beyond
    // that the budget is asked as they grow.
    let mut tris = Vec::with_capacity((6 * points.len() + 4).min(1024));
    tris.extend([
        tri([a, b, c], [1, 2, 3]),
        tri([a, d, b], [3, 2, 0]),
        tri([b, d, c], [1, 3, 0]),
        tri([c, d, a], [2, 1, 0]),
    ]);
    let n = points.len();
    let mut builder = Builder {
        pts: points,
        tris,
        point_tri: vec![None; n],
        seen: Vec::new(),
        stamp: 0,
        by_start: vec![usize::MAX; n],
        by_end: vec![usize::MAX; n],
        start_stamp: vec![0; n],
        end_stamp: vec![0; n],
        conflict_next: vec![NONE; n],
        visible: Vec::new(),
        created: Vec::new(),
        orphans: Vec::new(),
        tied: std::cell::Cell::new(false),
    };
    let rest: Vec<usize> = ids.iter().copied().filter(|&i| ![a, b, c, d].contains(&i)).collect();
    for &q in &rest {
        builder.assign(q, &[0, 1, 2, 3])?;
    }
    let mut built = Ok(());
    for q in shuffled(rest) {
        crate::budget::tick()?;
        if let Some(t) = builder.point_tri[q] {
            built = builder.insert(q, t);
            if built.is_err() {
                break;
            }
        }
    }
    let hull = built.and_then(|()| merge_faces(points, &builder.tris));
    if S::CERTAIN_DECISIONS || matches!(hull, Err(HullError::Uncertain(_))) {
        return hull;
    }
    // A tolerant backend's hull that is no solid (a horizon that was no cycle, a face of no
    // area within the tolerance): the exact hull of the same numbers.
    if hull.is_err() {
        return exact_hull(points);
    }
    // Neither a tie nor a merged face: every decision was beyond the tolerance.
    if !builder.tied.get() && hull.as_ref().is_ok_and(|h| h.solid.faces().iter().all(|f| f.len() == 3)) {
        return hull;
    }
    // A tolerant backend that called a point coplanar with a triangle may have lost it: a
    // point within the tolerance of a triangle that a later insertion deletes is never tested
    // again, and can end far outside the hull (a point 1,024 beyond a corner 3·10¹⁸ out, behind
    // a face of the first tetrahedron), or the triangles fold over each other in a plane (a
    // point 7·10⁻³⁰⁴ off it was made a vertex, and the faces around it overlapped). The hull is
    // kept when no point is above any of its faces' corners and it is convex; otherwise the hull
    // is the exact one of the same numbers (its vertices are input points, so nothing is rounded).
    // (The check is a test per point and face corner; past a few million tests the exact hull,
    // O(n log n) on doubles' filtered predicates, is the cheaper of the two.)
    if let Ok(h) = &hull {
        let corners: usize = h.solid.faces().iter().map(|f| if f.len() == 3 { 1 } else { f.len() }).sum();
        if corners.saturating_mul(points.len()) <= COVER_TESTS
            && covers(points, &h.solid)?
            && h.solid.is_convex().unwrap_or(false)
        {
            return hull;
        }
    }
    exact_hull(points)
}

/// The most point-and-corner tests a tolerant hull's check makes before it takes the exact
/// hull instead.
const COVER_TESTS: usize = 1 << 22;

/// Whether no point is strictly above the plane of any corner of a finished hull's faces (three
/// consecutive vertices of a face; one for a triangle). A corner of a face that a tolerant merge
/// made reflex turns the other way, and the other points are above its plane: two triangles
/// folded by 10⁻²⁹⁴ about their common edge were merged into one face with that edge's end
/// reflex.
fn covers<S: Scalar>(points: &[Point3<S>], solid: &Solid<S>) -> Decision<bool> {
    for f in 0..solid.face_count() {
        let face = solid.face(f);
        let k = face.len();
        let corners = if k == 3 { 1 } else { k };
        for i in 0..corners {
            let (u, v, w) = (solid.vertex(face[i]), solid.vertex(face[(i + 1) % k]), solid.vertex(face[(i + 2) % k]));
            for q in points {
                crate::budget::tick()?;
                if orient3d(u, v, w, q)? == Orientation::Positive {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// The exact hull of the points, as a solid of the backend `S` on the same points.
///
/// Its topology is trusted, not checked again on `S`: the exact hull is a valid solid, and its
/// vertices are the given numbers themselves (a tolerant backend's checks could call one of its
/// faces, a real sliver, of no area).
fn exact_hull<S: Scalar>(points: &[Point3<S>]) -> Result<ConvexHull<S>, HullError> {
    let exact: Vec<Point3<crate::scalar::Exact>> = points.iter().map(|p| p.map(|c| c.to_backend())).collect();
    let hull = convex_hull(&exact)?;
    let vertices = hull.input_index.iter().map(|&i| points[i].clone()).collect();
    let solid = super::validate::with_topology_trusted(&hull.solid, vertices);
    Ok(ConvexHull { solid, input_index: hull.input_index })
}

/// What an underflow in the hull's later orientation tests may be multiplied by, as an
/// underflow weight ([`crate::scalar::tolerance::UNDERFLOW_WEIGHT`] times six coordinate
/// bounds: a permanent's row of three differences); zero on backends that decide exactly.
fn underflow_reach<S: Scalar>(points: &[Point3<S>]) -> S {
    if S::CERTAIN_DECISIONS {
        return S::zero();
    }
    let weight = S::from_f64(crate::scalar::tolerance::UNDERFLOW_WEIGHT * 6.0).unwrap_or_else(|_| S::zero());
    weight * crate::geom::coordinate_bound(points)
}

/// Whether a tolerant backend's first tetrahedron on `a, b, c, d` (d decided off the plane of
/// the others) is no sliver: its volume decided nonzero against the product of its edges'
/// 1-norms and the point set's underflow weight (`reach`), not only against its permanent.
///
/// A tolerant backend decides each orientation against its own magnitude, and a permanent
/// shrinks with the products that vanish exactly: the grid points (0, 0, 2) and
/// (0, 7·10⁻³⁰⁴, 1.87), a third point and (0, 9·10⁻³¹³, 0) made a determinant of relative size
/// 1 against its permanent and 10⁻³⁰⁴ against its edges, and a point 3·10⁻³¹⁹ off three grid
/// points was decided off their plane (its factors 0 and 1 exact, so no underflow weight).
/// Every later test on such a sliver multiplies by the other edges and is called coplanar:
/// points outside it saw none of its faces, were taken for inside, and the hull missed them
/// by a unit. So a tolerant backend prefers a fourth point that makes no sliver; where every
/// candidate does, it keeps the first (the point set is flat within its tolerance then).
fn sized_height<S: Scalar>(a: &Point3<S>, b: &Point3<S>, c: &Point3<S>, d: &Point3<S>, reach: &S) -> Decision<bool> {
    let s = crate::predicates::orient3d_scaled(a, b, c, d);
    let size = [b - a, c - a, d - a].iter().fold(S::one(), |acc, r| acc * crate::geom::norm1(r));
    Ok(s.value.sign_scaled(|| size + reach.clone())? != crate::scalar::Sign::Zero)
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    let mut y = x;
    while parent[y] != r {
        let next = parent[y];
        parent[y] = r;
        y = next;
    }
    r
}

/// Merge coplanar neighbouring triangles, drop non-extreme boundary points, build the solid.
fn merge_faces<S: Scalar>(points: &[Point3<S>], tris: &[Tri]) -> Result<ConvexHull<S>, HullError> {
    let alive: Vec<usize> = (0..tris.len()).filter(|&t| tris[t].alive).collect();
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    let mut merged = false;
    for &t in &alive {
        for k in 0..3 {
            let n = tris[t].nbr[k];
            if n < t {
                continue;
            }
            let opposite = tris[n].v.iter().copied().find(|v| !tris[t].v.contains(v)).ok_or(HullError::FaceLoop)?;
            let [a, b, c] = tris[t].v;
            if orient3d(&points[a], &points[b], &points[c], &points[opposite])? == Orientation::Coplanar {
                let (ra, rb) = (find(&mut parent, t), find(&mut parent, n));
                parent[ra] = rb;
                merged = true;
            }
        }
    }
    if !merged {
        return triangles_solid(points, tris, &alive);
    }
    // Each group's boundary: directed edges whose neighbour lies in another group, chained.
    // Sorted by (group, from): a group's edges are a run, and the edge from a vertex is
    // found by binary search in it (no map per group).
    let mut boundary: Vec<(usize, usize, usize)> = Vec::new();
    for &t in &alive {
        let g = find(&mut parent, t);
        for k in 0..3 {
            if find(&mut parent, tris[t].nbr[k]) != g {
                boundary.push((g, tris[t].v[k], tris[t].v[(k + 1) % 3]));
            }
        }
    }
    boundary.sort_unstable();
    let mut loops: Vec<Vec<usize>> = Vec::new();
    let mut walked = true;
    for run in boundary.chunk_by(|x, y| x.0 == y.0) {
        // Walk the boundary from its least vertex; it must close within as many steps as it
        // has edges, through known vertices only (a tolerant backend's merge may not). A
        // vertex with two outgoing boundary edges (a tolerant backend's) is no loop either.
        if run.windows(2).any(|w| w[0].1 == w[1].1) {
            walked = false;
            break;
        }
        let next = |v: usize| run.binary_search_by(|e| e.1.cmp(&v)).ok().map(|i| run[i].2);
        let start = run[0].1;
        let mut face = vec![start];
        let mut v = next(start);
        while v != Some(start) {
            match v {
                Some(x) if face.len() < run.len() => {
                    face.push(x);
                    v = next(x);
                }
                _ => {
                    walked = false;
                    break;
                }
            }
        }
        if !walked || face.len() != run.len() {
            walked = false;
            break;
        }
        loops.push(face);
    }
    if !walked {
        if S::CERTAIN_DECISIONS {
            return Err(HullError::FaceLoop);
        }
        return assemble(points, alive.iter().map(|&t| tris[t].v.to_vec()).collect());
    }
    // A boundary point collinear with its neighbours in every face it is on lies inside an
    // edge: not an extreme point.
    let mut straight = vec![true; points.len()];
    for face in &loops {
        let n = face.len();
        for k in 0..n {
            let (u, v, w) = (face[(k + n - 1) % n], face[k], face[(k + 1) % n]);
            let s = collinear(&points[u], &points[v], &points[w])?;
            straight[v] = straight[v] && s;
        }
    }
    for face in &mut loops {
        face.retain(|&v| !straight[v]);
    }
    let merged = assemble(points, loops);
    if S::CERTAIN_DECISIONS || merged.is_ok() {
        return merged;
    }
    // Within a tolerance, "coplanar" is not transitive: a chain of pairwise nearly coplanar
    // triangles can bend beyond the tolerance once merged. The triangles themselves are planar,
    // so an inexact backend falls back to them (the contract admits this only below its
    // budget, where the exact hull has nearly coplanar faces).
    let triangles = alive.iter().map(|&t| tris[t].v.to_vec()).collect();
    assemble(points, triangles)
}

/// The solid of the hull's triangles when no two neighbours are coplanar (the rule for points
/// in general position): each triangle is a face, its twins are its neighbour links, and the
/// solid is [`assemble`]'s on the same loops (each written from its least vertex, as the merge
/// walks them), without sorting every half-edge to find them. No vertex lies inside an edge: a
/// triangle made by an insertion has the new point strictly above the deleted triangle at its
/// horizon edge, so off that edge's line, and the first four points span a volume. (A tolerant
/// backend's degenerate triangle is refused by the solid's area check, as before.)
fn triangles_solid<S: Scalar>(points: &[Point3<S>], tris: &[Tri], alive: &[usize]) -> Result<ConvexHull<S>, HullError> {
    let mut face_of = vec![usize::MAX; tris.len()];
    let mut used = vec![false; points.len()];
    for (f, &t) in alive.iter().enumerate() {
        face_of[t] = f;
        for &v in &tris[t].v {
            used[v] = true;
        }
    }
    let input_index: Vec<usize> = (0..points.len()).filter(|&v| used[v]).collect();
    let mut compact = vec![usize::MAX; points.len()];
    for (i, &v) in input_index.iter().enumerate() {
        compact[v] = i;
    }
    // Face f's k-th vertex is its triangle's vertex (k + rot[f]) mod 3, the least first.
    let rot: Vec<usize> = alive
        .iter()
        .map(|&t| {
            let v = tris[t].v;
            (0..3).min_by_key(|&k| v[k]).unwrap_or(0)
        })
        .collect();
    let faces: Vec<Vec<usize>> =
        alive.iter().zip(&rot).map(|(&t, &r)| (0..3).map(|k| compact[tris[t].v[(k + r) % 3]]).collect()).collect();
    // The twin of face f's half-edge k (its triangle's edge j = k + rot): the neighbour's
    // edge that links back, in that face's numbering. A broken link is left for the checks.
    let mut twin = Vec::with_capacity(3 * alive.len());
    for (f, &t) in alive.iter().enumerate() {
        for k in 0..3 {
            let j = (k + rot[f]) % 3;
            let n = tris[t].nbr[j];
            let back = tris.get(n).and_then(|m| m.nbr.iter().position(|&x| x == t));
            let g = face_of.get(n).copied().unwrap_or(usize::MAX);
            twin.push(match back {
                Some(jb) if g != usize::MAX => 3 * g + (jb + 3 - rot[g]) % 3,
                _ => usize::MAX,
            });
        }
    }
    let vertices = input_index.iter().map(|&v| points[v].clone()).collect();
    let solid = super::validate::build_linked(vertices, faces, &twin).map_err(|e| match e {
        crate::brep::BrepError::Uncertain(u) => HullError::Uncertain(u),
        e => HullError::Invalid(e),
    })?;
    Ok(ConvexHull { solid, input_index })
}

/// The solid of face loops over input ids, renumbered in input order.
fn assemble<S: Scalar>(points: &[Point3<S>], loops: Vec<Vec<usize>>) -> Result<ConvexHull<S>, HullError> {
    let mut input_index: Vec<usize> = loops.iter().flatten().copied().collect();
    input_index.sort_unstable();
    input_index.dedup();
    let mut compact = vec![usize::MAX; points.len()];
    for (i, &v) in input_index.iter().enumerate() {
        compact[v] = i;
    }
    let vertices = input_index.iter().map(|&v| points[v].clone()).collect();
    let faces = loops.into_iter().map(|f| f.into_iter().map(|v| compact[v]).collect()).collect();
    let solid = Solid::new(vertices, faces).map_err(|e| match e {
        // An undecided sign of the validation is undecided, not an invalid hull.
        crate::brep::BrepError::Uncertain(u) => HullError::Uncertain(u),
        e => HullError::Invalid(e),
    })?;
    Ok(ConvexHull { solid, input_index })
}

impl From<crate::budget::Limit> for HullError {
    fn from(limit: crate::budget::Limit) -> Self {
        crate::scalar::Uncertain::from(limit).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    /// The integer points of a shell (|p|² within 30 of r²): thousands of points with many
    /// coplanar fours, so the f64 hull ties, and with so many faces that its check would pass
    /// [`COVER_TESTS`]: it is the exact hull, counts and vertices alike.
    #[test]
    fn a_tied_f64_hull_of_a_lattice_shell_is_the_exact_one() {
        let r = 24i64;
        let mut pts: Vec<Point3<f64>> = Vec::new();
        for x in -r..=r {
            for y in -r..=r {
                for z in -r..=r {
                    if (x * x + y * y + z * z - r * r).abs() <= 30 {
                        pts.push(Point3::new(x as f64, y as f64, z as f64));
                    }
                }
            }
        }
        let fast = convex_hull(&pts).expect("an f64 hull");
        let exact_pts: Vec<Point3<crate::scalar::Exact>> = pts.iter().map(|p| p.map(|c| c.to_backend())).collect();
        let exact = convex_hull(&exact_pts).expect("an exact hull");
        let corners: usize = fast.solid.faces().iter().map(|f| if f.len() == 3 { 1 } else { f.len() }).sum();
        assert!(corners * pts.len() > COVER_TESTS, "{corners} corners, {} points", pts.len());
        assert_eq!(fast.input_index, exact.input_index);
        assert_eq!(
            (fast.solid.edge_count(), fast.solid.face_count()),
            (exact.solid.edge_count(), exact.solid.face_count())
        );
    }

    /// Points in general position: dyadic coordinates from a fixed xorshift stream (no four
    /// coplanar in practice; the test checks the route it means to test was taken).
    fn scattered(n: usize, seed: u64) -> Vec<Point3<f64>> {
        let mut s = seed;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        (0..n).map(|_| Point3::new(next(), next(), next())).collect()
    }

    /// The triangles' own solid (neighbour links as twins) equals the validating constructor's
    /// solid on the same vertices and faces, on a tolerant and an exact backend.
    #[test]
    fn linked_triangles_equal_the_validated_solid() {
        for (n, seed) in [(4, 1), (5, 2), (12, 3), (12, 4), (40, 5), (200, 6)] {
            let pts = scattered(n, seed);
            let exact: Vec<Point3<BigRational>> =
                pts.iter().map(|p| p.map(|x| BigRational::from_float(x).unwrap())).collect();
            let h = convex_hull(&pts).unwrap();
            assert!(h.solid.faces().iter().all(|f| f.len() == 3), "general position: triangles only");
            let again = Solid::new(h.solid.vertices().to_vec(), h.solid.faces().to_vec()).unwrap();
            assert_eq!(h.solid, again, "f64, {n} points");
            let e = convex_hull(&exact).unwrap();
            let again = Solid::new(e.solid.vertices().to_vec(), e.solid.faces().to_vec()).unwrap();
            assert_eq!(e.solid, again, "exact, {n} points");
            assert_eq!(e.input_index, h.input_index);
        }
    }

    /// Broken links are not trusted: the checks of the validating constructor run and name the
    /// defect (here a face whose twin runs the same way: an inconsistent orientation).
    #[test]
    fn broken_links_fall_back_to_the_checks() {
        let q = |x: i64, y: i64, z: i64| Point3::new(x as f64, y as f64, z as f64);
        let v = vec![q(0, 0, 0), q(1, 0, 0), q(0, 1, 0), q(0, 0, 1)];
        let faces = vec![vec![0, 2, 1], vec![0, 1, 3], vec![1, 2, 3], vec![0, 3, 2]];
        let good = Solid::new(v.clone(), faces.clone()).unwrap();
        // Twins from the validated solid: the same solid.
        let twin: Vec<usize> = good.topo.half_edges.iter().map(|h| h.twin).collect();
        assert_eq!(super::super::validate::build_linked(v.clone(), faces.clone(), &twin).unwrap(), good);
        // A wrong link: the fallback builds the same solid anyway (the faces are right).
        let mut wrong = twin.clone();
        wrong.swap(0, 1);
        assert_eq!(super::super::validate::build_linked(v.clone(), faces.clone(), &wrong).unwrap(), good);
        // Wrong faces with links that look consistent: the defect is named.
        let mut flipped = faces.clone();
        flipped[3].reverse();
        let err = super::super::validate::build_linked(v, flipped, &twin).unwrap_err();
        assert!(matches!(err, crate::brep::BrepError::InconsistentOrientation { .. }), "{err:?}");
    }
}
