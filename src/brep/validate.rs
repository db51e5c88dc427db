//! Building a solid from vertices and faces, with every check of [`BrepError`], and the
//! invariant checker [`assert_well_formed`] for tests and fuzz targets.

use super::solid::{signed_volume6, HalfEdge, Solid};
use super::BrepError;
use crate::constructions::{newell, newell_of, planarity_magnitude};
use crate::geom::{Plane, Point2, Point3, Vector3};
use crate::predicates::{orient2d, Orientation};
use crate::scalar::{compare_points, try_sort_by, Scalar, Sign};

fn structure<S: Scalar>(vertices: &[Point3<S>], faces: &[Vec<usize>]) -> Result<(), BrepError> {
    for (v, p) in vertices.iter().enumerate() {
        for (c, x) in p.iter().enumerate() {
            if !x.finite() {
                return Err(BrepError::NonFinite { vertex: v, coordinate: c });
            }
        }
    }
    if vertices.len() < 4 {
        return Err(BrepError::TooFewVertices { count: vertices.len() });
    }
    if faces.len() < 4 {
        return Err(BrepError::TooFewFaces { count: faces.len() });
    }
    let mut used = vec![false; vertices.len()];
    // The face (plus one) that last used each vertex: a repeat within a face is a mark
    // already set by it.
    let mut last_face = vec![0usize; vertices.len()];
    for (f, face) in faces.iter().enumerate() {
        if face.len() < 3 {
            return Err(BrepError::FaceTooSmall { face: f, count: face.len() });
        }
        for &v in face {
            if v >= vertices.len() {
                return Err(BrepError::VertexOutOfRange { face: f, index: v, count: vertices.len() });
            }
            if last_face[v] == f + 1 {
                return Err(BrepError::RepeatedVertex { face: f, vertex: v });
            }
            last_face[v] = f + 1;
            used[v] = true;
        }
    }
    if let Some(v) = used.iter().position(|u| !u) {
        return Err(BrepError::UnusedVertex { vertex: v });
    }
    Ok(())
}

fn same_point<S: Scalar>(a: &Point3<S>, b: &Point3<S>) -> Result<bool, BrepError> {
    for i in 0..3 {
        let d = a[i].clone() - b[i].clone();
        if d.sign_scaled(|| a[i].abs() + b[i].abs())? != Sign::Zero {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Vertex ids sorted by their coordinates (decided by `compare`), to find duplicates in
/// O(n log n).
fn duplicates<S: Scalar>(vertices: &[Point3<S>]) -> Result<(), BrepError> {
    let mut order: Vec<usize> = (0..vertices.len()).collect();
    try_sort_by(&mut order, |&a, &b| compare_points(&vertices[a], &vertices[b]))?;
    for w in order.windows(2) {
        if compare_points(&vertices[w[0]], &vertices[w[1]])? == std::cmp::Ordering::Equal {
            return Err(BrepError::DuplicateVertex { first: w[0].min(w[1]), second: w[0].max(w[1]) });
        }
    }
    Ok(())
}

/// Link the half-edges: twins by directed edge, edges by undirected pair.
/// The half-edges, each face's first half-edge, the edges (sorted pairs) and each edge's
/// lower-to-higher half-edge.
type Topology = (Vec<HalfEdge>, Vec<usize>, Vec<(usize, usize)>, Vec<usize>);

fn topology(faces: &[Vec<usize>]) -> Result<Topology, BrepError> {
    let total: usize = faces.iter().map(Vec::len).sum();
    let mut half_edges = Vec::with_capacity(total);
    let mut face_first = Vec::with_capacity(faces.len());
    let vertex_count = faces.iter().flatten().max().map_or(0, |&v| v + 1);
    // Every half-edge's use of its undirected edge, bucketed by the edge's lower vertex (a
    // counting sort, O(E)), then each bucket sorted by (higher vertex, half-edge): an edge's
    // uses are a run, in the order of a sort by (edge, half-edge), at the cost of sorting
    // buckets of a vertex's degree instead of all half-edges together.
    let mut bucket_start = vec![0usize; vertex_count + 1];
    for (f, face) in faces.iter().enumerate() {
        let base = half_edges.len();
        face_first.push(base);
        let n = face.len();
        for k in 0..n {
            let (a, b) = (face[k], face[(k + 1) % n]);
            half_edges.push(HalfEdge {
                origin: a,
                twin: usize::MAX,
                next: base + (k + 1) % n,
                prev: base + (k + n - 1) % n,
                face: f,
                edge: usize::MAX,
            });
            bucket_start[a.min(b) + 1] += 1;
        }
    }
    for v in 0..vertex_count {
        bucket_start[v + 1] += bucket_start[v];
    }
    // (higher vertex, half-edge), placed in its lower vertex's bucket.
    let mut uses: Vec<(usize, usize)> = vec![(0, 0); total];
    let mut fill = bucket_start.clone();
    for (h, he) in half_edges.iter().enumerate() {
        let b = half_edges[he.next].origin;
        let lo = he.origin.min(b);
        uses[fill[lo]] = (he.origin.max(b), h);
        fill[lo] += 1;
    }
    let mut edges = Vec::with_capacity(total / 2);
    let mut edge_half = Vec::with_capacity(total / 2);
    for lo in 0..vertex_count {
        let bucket = &mut uses[bucket_start[lo]..bucket_start[lo + 1]];
        bucket.sort_unstable();
        for sides in bucket.chunk_by(|x, y| x.0 == y.0) {
            let hi = sides[0].0;
            match sides.len() {
                1 => return Err(BrepError::OpenBoundary { from: lo, to: hi, face: half_edges[sides[0].1].face }),
                2 => {}
                n => return Err(BrepError::NonManifoldEdge { from: lo, to: hi, faces: n }),
            }
            let (h1, h2) = (sides[0].1, sides[1].1);
            let (f1, f2) = (half_edges[h1].face, half_edges[h2].face);
            if half_edges[h1].origin == half_edges[h2].origin {
                let from = half_edges[h1].origin;
                let to = if from == lo { hi } else { lo };
                return Err(BrepError::InconsistentOrientation { from, to, first: f1.min(f2), second: f1.max(f2) });
            }
            let e = edges.len();
            edges.push((lo, hi));
            half_edges[h1].twin = h2;
            half_edges[h2].twin = h1;
            half_edges[h1].edge = e;
            half_edges[h2].edge = e;
            edge_half.push(if half_edges[h1].origin == lo { h1 } else { h2 });
        }
    }
    Ok((half_edges, face_first, edges, edge_half))
}

/// Each vertex's faces must form one fan: walking around it from one outgoing half-edge must
/// meet all of them.
fn fans(half_edges: &[HalfEdge], vertex_count: usize) -> Result<Vec<usize>, BrepError> {
    // Around a vertex, h ↦ twin(prev(h)) permutes its outgoing half-edges; each cycle is one
    // fan. Walk every cycle once (half-edges marked as visited), counting cycles per vertex:
    // O(E), no list per vertex.
    let mut vertex_out = vec![usize::MAX; vertex_count];
    let mut fan_count = vec![0usize; vertex_count];
    let mut seen = vec![false; half_edges.len()];
    for (start, he) in half_edges.iter().enumerate() {
        let v = he.origin;
        if vertex_out[v] == usize::MAX {
            vertex_out[v] = start;
        }
        if seen[start] {
            continue;
        }
        fan_count[v] += 1;
        let mut h = start;
        loop {
            seen[h] = true;
            h = half_edges[half_edges[h].prev].twin;
            if h == start {
                break;
            }
        }
    }
    if let Some(v) = fan_count.iter().position(|&k| k > 1) {
        return Err(BrepError::NonManifoldVertex { vertex: v, fans: fan_count[v] });
    }
    Ok(vertex_out)
}

/// The plane of face `f`, checking area and planarity.
fn face_plane<S: Scalar>(vertices: &[Point3<S>], face: &[usize], f: usize, bound: &S) -> Result<Plane<S>, BrepError> {
    let (normal, magnitude) = newell_of(face.len(), |k| &vertices[face[k]]);
    if crate::scalar::all_zero((0..3).map(|i| normal[i].sign_scaled(|| magnitude[i].clone())))? {
        return Err(BrepError::ZeroAreaFace { face: f });
    }
    let p0 = &vertices[face[0]];
    let plane = Plane::within(normal, p0, bound);
    if face.len() == 3 {
        // Three points always lie on a plane: the test would only ask whether the rounding of
        // the plane's own construction is zero (undecidable for intervals, which then could not
        // validate a triangle whose coordinates are not all small dyadics).
        return Ok(plane);
    }
    for (k, &v) in face.iter().enumerate().skip(1) {
        let p = &vertices[v];
        if plane.eval(p).sign_scaled(|| planarity_magnitude(&magnitude, p0, p))? != Sign::Zero {
            return Err(BrepError::NonPlanarFace { face: f, vertex: face[k] });
        }
    }
    Ok(plane)
}

fn on_segment<S: Scalar>(a: &Point2<S>, b: &Point2<S>, p: &Point2<S>) -> crate::scalar::Decision<bool> {
    // p collinear with ab: is it within the closed segment? (p − a)·(p − b) ≤ 0.
    let (u, w) = (p - a, p - b);
    let dot = u.x.clone() * w.x.clone() + u.y.clone() * w.y.clone();
    let m = u.x.abs() * w.x.abs() + u.y.abs() * w.y.abs();
    Ok(dot.sign_scaled(|| m)? != Sign::Positive)
}

/// Whether closed segments ab and cd share a point.
fn segments_meet<S: Scalar>(
    a: &Point2<S>,
    b: &Point2<S>,
    c: &Point2<S>,
    d: &Point2<S>,
) -> crate::scalar::Decision<bool> {
    let (o1, o2) = (orient2d(a, b, c)?, orient2d(a, b, d)?);
    let (o3, o4) = (orient2d(c, d, a)?, orient2d(c, d, b)?);
    use Orientation::Coplanar as Col;
    if o1 != o2 && o3 != o4 && o1 != Col && o2 != Col && o3 != Col && o4 != Col {
        return Ok(true);
    }
    Ok((o1 == Col && on_segment(a, b, c)?)
        || (o2 == Col && on_segment(a, b, d)?)
        || (o3 == Col && on_segment(c, d, a)?)
        || (o4 == Col && on_segment(c, d, b)?))
}

/// Whether the closed polygon `p` is strictly convex and winds once, in O(n): then it is simple.
///
/// Every turn strictly to the same side means the edge directions rotate one way, each step by
/// less than π, through 2πk in all for a polygon that winds k ≥ 1 times. The x component of the
/// direction then changes sign 2k times around the polygon (once per half-turn; an edge with
/// zero x component lies on such a crossing and is skipped, and two in a row would be a turn of
/// 0 or π, which is no strict turn). So exactly two sign changes mean k = 1: a convex polygon,
/// in which no two edges meet but adjacent ones at their common vertex. `false` decides
/// nothing (the pairwise check follows).
fn convex_once<S: Scalar>(p: &[Point2<S>]) -> crate::scalar::Decision<bool> {
    let n = p.len();
    let mut side = None;
    for k in 0..n {
        let turn = orient2d(&p[k], &p[(k + 1) % n], &p[(k + 2) % n])?;
        if turn == Orientation::Coplanar || side.is_some_and(|s| s != turn) {
            return Ok(false);
        }
        side = Some(turn);
    }
    let mut signs = Vec::with_capacity(n);
    for k in 0..n {
        let (a, b) = (&p[k], &p[(k + 1) % n]);
        match b.x.compare(&a.x)? {
            std::cmp::Ordering::Equal => {}
            o => signs.push(o),
        }
    }
    let changes = (0..signs.len()).filter(|&k| signs[k] != signs[(k + 1) % signs.len()]).count();
    Ok(changes == 2)
}

/// The first pair of non-adjacent sides of the closed polygon `p` (side k from `p[k]` to
/// `p[k + 1]`) that meet, by a Shamos–Hoey sweep: sides enter the sweep line's order at their
/// lexicographically smaller end and leave at the other (at one point, entries first, so that
/// sides touching there are neighbours), and only sides that become neighbours in that order are
/// tested (closed segments, [`segments_meet`]). The leftmost meeting point of two sides is
/// reached by such a test before the sweep passes it, so a polygon whose sides meet is always
/// caught; O(n log n) orientation tests. Adjacent sides meet at their common vertex by
/// construction (their overlap is the caller's test).
fn first_crossing<S: Scalar>(p: &[Point2<S>]) -> crate::scalar::Decision<Option<(usize, usize)>> {
    use std::cmp::Ordering;
    let n = p.len();
    let lex = |a: &Point2<S>, b: &Point2<S>| -> crate::scalar::Decision<Ordering> {
        Ok(match a.x.compare(&b.x)? {
            Ordering::Equal => a.y.compare(&b.y)?,
            o => o,
        })
    };
    // Each side's ends, smaller first.
    let mut ends = Vec::with_capacity(n);
    for k in 0..n {
        let (a, b) = (k, (k + 1) % n);
        ends.push(if lex(&p[a], &p[b])? == Ordering::Greater { (b, a) } else { (a, b) });
    }
    let adjacent = |k: usize, l: usize| (k + 1) % n == l || (l + 1) % n == k;
    let meet = |k: usize, l: usize| segments_meet(&p[ends[k].0], &p[ends[k].1], &p[ends[l].0], &p[ends[l].1]);
    // Events: (point, leaves?, side), by point, entries before exits.
    let mut events: Vec<(usize, bool, usize)> =
        (0..n).flat_map(|k| [(ends[k].0, false, k), (ends[k].1, true, k)]).collect();
    crate::scalar::try_sort_by(&mut events, |x, y| Ok(lex(&p[x.0], &p[y.0])?.then(x.1.cmp(&y.1))))?;
    let mut status: Vec<usize> = Vec::new();
    for (_, leaves, s) in events {
        crate::budget::tick()?;
        if leaves {
            let Some(j) = status.iter().position(|&x| x == s) else { continue };
            if j > 0 && j + 1 < status.len() {
                let (a, b) = (status[j - 1], status[j + 1]);
                if !adjacent(a, b) && meet(a, b)? {
                    return Ok(Some((a, b)));
                }
            }
            status.remove(j);
            continue;
        }
        // Where s enters: below every side above its left end, by binary search.
        let (lo_s, hi_s) = (&p[ends[s].0], &p[ends[s].1]);
        let (mut lo, mut hi) = (0, status.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let t = status[mid];
            let (a, b) = (&p[ends[t].0], &p[ends[t].1]);
            let mut side = orient2d(a, b, lo_s)?;
            if side == Orientation::Coplanar {
                if !adjacent(s, t) {
                    return Ok(Some((s, t))); // s starts on t
                }
                // They share s's left end: s's other end says which way it leaves.
                side = orient2d(a, b, hi_s)?;
                if side == Orientation::Coplanar {
                    if ends[t].1 != ends[s].0 {
                        return Ok(Some((s, t))); // collinear and overlapping
                    }
                    // A straight vertex: t leaves where s enters (either side will do).
                    side = Orientation::Positive;
                }
            }
            if side == Orientation::Positive {
                lo = mid + 1; // s above t
            } else {
                hi = mid;
            }
        }
        status.insert(lo, s);
        for t in [lo.checked_sub(1).map(|i| status[i]), status.get(lo + 1).copied()].into_iter().flatten() {
            if !adjacent(s, t) && meet(s, t)? {
                return Ok(Some((s, t)));
            }
        }
    }
    Ok(None)
}

/// A face is simple when no two non-adjacent edges meet and no two adjacent edges overlap.
fn simple<S: Scalar>(vertices: &[Point3<S>], face: &[usize], normal: &Vector3<S>, f: usize) -> Result<(), BrepError> {
    if face.len() == 3 {
        // Three distinct points spanning an area (both checked before) bound a triangle, and
        // a triangle is simple.
        return Ok(());
    }
    // Project along the normal's largest component: injective on the face's plane.
    let (mut axis, mut best) = (0, normal[0].abs());
    for i in 1..3 {
        if normal[i].abs().compare(&best)? == std::cmp::Ordering::Greater {
            axis = i;
            best = normal[i].abs();
        }
    }
    let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
    let p: Vec<Point2<S>> = face.iter().map(|&v| Point2::new(vertices[v][i].clone(), vertices[v][j].clone())).collect();
    let n = p.len();
    if convex_once(&p)? {
        return Ok(());
    }
    for k in 0..n {
        let (a, b, c) = (&p[k], &p[(k + 1) % n], &p[(k + 2) % n]);
        // Adjacent edges ab, bc overlap when a, b, c are collinear and c turns back toward a.
        if orient2d(a, b, c)? == Orientation::Coplanar {
            let (u, w) = (a - b, c - b);
            let dot = u.x.clone() * w.x.clone() + u.y.clone() * w.y.clone();
            if dot.sign_scaled(|| u.x.abs() * w.x.abs() + u.y.abs() * w.y.abs())? == Sign::Positive {
                return Err(BrepError::FaceNotSimple { face: f, first: face[k], second: face[(k + 1) % n] });
            }
        }
    }
    // Non-adjacent sides must not meet: a sweep (Shamos–Hoey) tests only sides that become
    // neighbours in the order along the sweep line, O(n log n) orientation tests.
    if let Some((k, l)) = first_crossing(&p)? {
        return Err(BrepError::FaceNotSimple { face: f, first: face[k.min(l)], second: face[k.max(l)] });
    }
    Ok(())
}

/// Validate `faces` over `vertices` and build the solid.
pub(crate) fn build<S: Scalar>(vertices: Vec<Point3<S>>, faces: Vec<Vec<usize>>) -> Result<Solid<S>, BrepError> {
    structure(&vertices, &faces)?;
    for (f, face) in faces.iter().enumerate() {
        for k in 0..face.len() {
            let (a, b) = (face[k], face[(k + 1) % face.len()]);
            if same_point(&vertices[a], &vertices[b])? {
                return Err(BrepError::ZeroLengthEdge { face: f, from: a, to: b });
            }
        }
    }
    duplicates(&vertices)?;
    let (half_edges, face_first, edges, edge_half) = topology(&faces)?;
    let vertex_out = fans(&half_edges, vertices.len())?;
    let mut planes = Vec::with_capacity(faces.len());
    let bound = crate::geom::coordinate_bound(&vertices);
    for (f, face) in faces.iter().enumerate() {
        crate::budget::tick()?;
        let plane = face_plane(&vertices, face, f, &bound)?;
        simple(&vertices, face, &plane.normal, f)?;
        planes.push(plane);
    }
    let volume = signed_volume6(&vertices, &faces);
    match volume.sign_scaled()? {
        Sign::Negative => return Err(BrepError::InsideOut),
        Sign::Zero => return Err(BrepError::ZeroVolume),
        Sign::Positive => {}
    }
    let topo =
        std::sync::Arc::new(super::solid::Topology { faces, face_first, half_edges, vertex_out, edges, edge_half });
    Ok(Solid { vertices, topo, planes })
}

/// [`build`] for faces whose half-edges' twins are known already (a convex hull's triangles
/// carry their neighbours): half-edge `face_first[f] + k` runs from `faces[f][k]` to the next
/// vertex, and `twin[h]` is its opposite. The links are checked (each twin's twin is itself,
/// it runs the other way, no undirected edge is paired twice) instead of found by sorting every
/// half-edge; where they do not hold, [`build`] runs and names the defect. Every other check
/// of [`build`] is made, except the search for duplicate vertices: the caller guarantees its
/// vertices are distinct as [`compare_points`] decides (a hull's are its deduplicated input
/// points). The result equals [`build`]'s on the same vertices and faces.
pub(crate) fn build_linked<S: Scalar>(
    vertices: Vec<Point3<S>>,
    faces: Vec<Vec<usize>>,
    twin: &[usize],
) -> Result<Solid<S>, BrepError> {
    structure(&vertices, &faces)?;
    let total: usize = faces.iter().map(Vec::len).sum();
    if twin.len() != total {
        return build(vertices, faces);
    }
    let mut half_edges = Vec::with_capacity(total);
    let mut face_first = Vec::with_capacity(faces.len());
    for (f, face) in faces.iter().enumerate() {
        let base = half_edges.len();
        face_first.push(base);
        let n = face.len();
        for k in 0..n {
            let (a, b) = (face[k], face[(k + 1) % n]);
            if same_point(&vertices[a], &vertices[b])? {
                return Err(BrepError::ZeroLengthEdge { face: f, from: a, to: b });
            }
            let h = base + k;
            half_edges.push(HalfEdge {
                origin: a,
                twin: twin[h],
                next: base + (k + 1) % n,
                prev: base + (k + n - 1) % n,
                face: f,
                edge: usize::MAX,
            });
        }
    }
    // The links: an involution without fixed points, each pair running opposite ways.
    let linked = half_edges.iter().enumerate().all(|(h, he)| {
        let t = he.twin;
        t < total && t != h && half_edges[t].twin == h && half_edges[t].origin == half_edges[he.next].origin
    });
    if !linked {
        return build(vertices, faces);
    }
    // Each undirected edge once, by its half-edge from the lower vertex, numbered in sorted
    // order as [`build`] numbers them; an undirected edge paired twice is not manifold.
    let mut edge_list: Vec<(usize, usize, usize)> = half_edges
        .iter()
        .enumerate()
        .filter_map(|(h, he)| {
            let b = half_edges[he.next].origin;
            (he.origin < b).then_some((he.origin, b, h))
        })
        .collect();
    edge_list.sort_unstable();
    if edge_list.windows(2).any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
        return build(vertices, faces);
    }
    let mut edges = Vec::with_capacity(edge_list.len());
    let mut edge_half = Vec::with_capacity(edge_list.len());
    for (e, &(lo, hi, h)) in edge_list.iter().enumerate() {
        edges.push((lo, hi));
        edge_half.push(h);
        let t = half_edges[h].twin;
        half_edges[h].edge = e;
        half_edges[t].edge = e;
    }
    let vertex_out = fans(&half_edges, vertices.len())?;
    let mut planes = Vec::with_capacity(faces.len());
    let bound = crate::geom::coordinate_bound(&vertices);
    for (f, face) in faces.iter().enumerate() {
        crate::budget::tick()?;
        let plane = face_plane(&vertices, face, f, &bound)?;
        simple(&vertices, face, &plane.normal, f)?;
        planes.push(plane);
    }
    match signed_volume6(&vertices, &faces).sign_scaled()? {
        Sign::Negative => return Err(BrepError::InsideOut),
        Sign::Zero => return Err(BrepError::ZeroVolume),
        Sign::Positive => {}
    }
    let topo =
        std::sync::Arc::new(super::solid::Topology { faces, face_first, half_edges, vertex_out, edges, edge_half });
    Ok(Solid { vertices, topo, planes })
}

/// A solid with the topology of `template` (a valid solid, on any backend) and new vertex
/// positions: the faces' planes are computed (checking area and planarity, as [`build`]
/// does) and the volume must be positive; the topology (a closed oriented 2-manifold, simple
/// faces) is the template's and is not checked again. For a solid moved by an affine map of
/// positive determinant (a pose), or a box built from the cube's template, that is all that can
/// change.
pub(crate) fn with_topology<S: Scalar, T: Scalar>(
    template: &Solid<T>,
    vertices: Vec<Point3<S>>,
) -> Result<Solid<S>, BrepError> {
    if vertices.len() != template.vertices.len() {
        return Err(BrepError::TooFewVertices { count: vertices.len() });
    }
    for (v, p) in vertices.iter().enumerate() {
        if let Some(c) = (0..3).find(|&c| !p[c].finite()) {
            return Err(BrepError::NonFinite { vertex: v, coordinate: c });
        }
    }
    let mut planes = Vec::with_capacity(template.topo.faces.len());
    let bound = crate::geom::coordinate_bound(&vertices);
    for (f, face) in template.topo.faces.iter().enumerate() {
        crate::budget::tick()?;
        planes.push(face_plane(&vertices, face, f, &bound)?);
    }
    match signed_volume6(&vertices, &template.topo.faces).sign_scaled()? {
        Sign::Negative => return Err(BrepError::InsideOut),
        Sign::Zero => return Err(BrepError::ZeroVolume),
        Sign::Positive => {}
    }
    Ok(Solid { vertices, topo: template.topo.clone(), planes })
}

/// A solid with `template`'s topology and these vertices, its planes computed and nothing
/// checked: for vertices that are an exact affine image, of positive determinant, of a valid
/// solid's (a pose decided on a backend with certain decisions). Such an image is a valid solid
/// exactly: an affine map keeps faces planar and simple, and a positive determinant keeps the
/// orientation and a positive volume. (An interval backend could not decide an exactly planar
/// face whose coordinates are not doubles; an exact backend need not pay for the checks.)
pub(crate) fn with_topology_trusted<S: Scalar, T: Scalar>(template: &Solid<T>, vertices: Vec<Point3<S>>) -> Solid<S> {
    let bound = crate::geom::coordinate_bound(&vertices);
    let planes = template
        .topo
        .faces
        .iter()
        .map(|face| {
            let normal = crate::constructions::newell_normal_of(face.len(), |k| &vertices[face[k]]);
            Plane::within(normal, &vertices[face[0]], &bound)
        })
        .collect();
    Solid { vertices, topo: template.topo.clone(), planes }
}

/// Check every internal invariant of a solid (for tests and fuzz targets): half-edge links,
/// face loops, edge table, planes through their faces' vertices, positive volume.
/// On an interval backend an undecided plane or volume test passes (it is never decided wrong).
pub fn check_well_formed<S: Scalar>(s: &Solid<S>) -> Result<(), String> {
    let h = &s.topo.half_edges;
    for (i, he) in h.iter().enumerate() {
        let t = h.get(he.twin).ok_or(format!("half-edge {i}: twin out of range"))?;
        if t.twin != i || t.origin != h[he.next].origin || he.origin != h[t.next].origin {
            return Err(format!("half-edge {i}: twin links broken"));
        }
        if h[he.next].prev != i || h[he.prev].next != i || h[he.next].face != he.face {
            return Err(format!("half-edge {i}: next/prev links broken"));
        }
        if t.edge != he.edge || s.topo.edges[he.edge] != (he.origin.min(t.origin), he.origin.max(t.origin)) {
            return Err(format!("half-edge {i}: edge table broken"));
        }
    }
    for (f, face) in s.topo.faces.iter().enumerate() {
        let loop_: Vec<usize> = s.face_half_edges(f).iter().map(|&x| h[x].origin).collect();
        if &loop_ != face {
            return Err(format!("face {f}: half-edge loop {loop_:?} differs from {face:?}"));
        }
        let pts: Vec<&Point3<S>> = face.iter().map(|&v| &s.vertices[v]).collect();
        let (_, m) = newell(&pts);
        for &v in face {
            let p = &s.vertices[v];
            let magnitude = || planarity_magnitude(&m, pts[0], p);
            if !admissible::<S>(s.planes[f].eval(p).sign_scaled(magnitude), Sign::Zero) {
                return Err(format!("face {f}: vertex {v} off the plane"));
            }
        }
    }
    for v in 0..s.vertices.len() {
        if h[s.topo.vertex_out[v]].origin != v {
            return Err(format!("vertex {v}: outgoing half-edge starts elsewhere"));
        }
        let around = s.outgoing(v).len();
        if around != h.iter().filter(|he| he.origin == v).count() {
            return Err(format!("vertex {v}: fan incomplete"));
        }
    }
    if s.euler() % 2 != 0 {
        return Err(format!("odd Euler characteristic {}", s.euler()));
    }
    if !admissible::<S>(s.volume6().sign_scaled(), Sign::Positive) {
        return Err("volume not positive".into());
    }
    Ok(())
}

/// A decision of backend `S` that the invariant allows: the expected sign, or for a backend
/// with certain decisions but inexact values (intervals) an undecided one (never the wrong
/// sign).
fn admissible<S: Scalar>(d: crate::scalar::Decision<Sign>, expected: Sign) -> bool {
    match d {
        Ok(s) => s == expected,
        Err(crate::scalar::Uncertain::Close) => S::FILTER,
        Err(_) => false,
    }
}

/// Panic with a description when [`check_well_formed`] fails.
pub fn assert_well_formed<S: Scalar>(s: &Solid<S>) {
    if let Err(e) = check_well_formed(s) {
        panic!("solid not well formed: {e}");
    }
}

/// Building and moving a solid: every constructor validates here (or, on backends with
/// certain decisions, keeps a topology already validated).
impl<S: Scalar> Solid<S> {
    /// Validate and build a solid from vertices and faces (vertex ids, counterclockwise seen
    /// from outside). See [`BrepError`] for every defect reported, checked exactly for exact
    /// backends and with the tolerance policy for inexact ones.
    ///
    /// ```
    /// use num_rational::BigRational;
    /// use touchstone::brep::Solid;
    /// use touchstone::geom::point;
    /// let v = vec![point::<BigRational>(0, 0, 0), point(1, 0, 0), point(0, 1, 0), point(0, 0, 1)];
    /// let tetra = Solid::new(v, vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]]).unwrap();
    /// assert_eq!((tetra.vertex_count(), tetra.edge_count(), tetra.face_count()), (4, 6, 4));
    /// assert!(tetra.is_convex().unwrap());
    /// ```
    pub fn new(vertices: Vec<Point3<S>>, faces: Vec<Vec<usize>>) -> Result<Self, BrepError> {
        build(vertices, faces)
    }

    /// The same solid on another backend (coordinates converted exactly, or rounded), checked
    /// again: rounding can break planarity.
    pub fn convert<T: Scalar>(&self) -> Result<Solid<T>, BrepError> {
        let vertices =
            self.vertices.iter().map(|p| p.map(|c| crate::scalar::convert(&c).unwrap_or_else(T::zero))).collect();
        Solid::new(vertices, self.topo.faces.clone())
    }

    /// The solid moved by an affine map with positive determinant (a pose); checked again
    /// (rounding in an inexact backend can break planarity).
    pub fn transformed(&self, map: &crate::geom::Affine<S>) -> Result<Solid<S>, BrepError> {
        let vertices = self.vertices.iter().map(|p| map.apply_point(p)).collect();
        Solid::new(vertices, self.topo.faces.clone())
    }

    /// The solid moved by an affine map of positive determinant, keeping its topology: an
    /// affine map preserves incidence, planarity and simplicity of faces, and with a positive
    /// determinant the orientation, so only the planes are recomputed (checked planar within
    /// the backend's tolerance: rounding can bend a face) and the volume's sign is checked.
    /// Much cheaper than [`Solid::transformed`], which validates everything again.
    ///
    /// Errors: those of a bent face or a non-positive volume (a map of determinant ≤ 0).
    pub fn moved(&self, map: &crate::geom::Affine<S>) -> Result<Solid<S>, BrepError> {
        let vertices = self.vertices.iter().map(|p| map.apply_point(p)).collect();
        with_topology(self, vertices)
    }

    /// The solid moved by `map`, whose determinant the caller has *decided* positive on a
    /// backend with certain decisions (exact, or intervals): the image is a valid solid
    /// exactly, so its planes are computed and nothing is checked. On a tolerant backend this
    /// is [`Solid::moved`] (rounding can bend a face).
    ///
    /// Errors: [`Solid::moved`]'s, on tolerant backends only.
    pub fn moved_decided(&self, map: &crate::geom::Affine<S>) -> Result<Solid<S>, BrepError> {
        if !S::CERTAIN_DECISIONS {
            return self.moved(map);
        }
        let vertices = self.vertices.iter().map(|p| map.apply_point(p)).collect();
        Ok(with_topology_trusted(self, vertices))
    }

    /// The same solid on backend `T` without validating it again, for a backend with certain
    /// decisions (exact, or intervals): `T`'s vertices enclose (or are) these exactly, so the
    /// solid is valid exactly whatever `T` could decide about it. On a tolerant `T` this is
    /// [`Solid::convert`] (rounding can break planarity).
    ///
    /// Errors: [`Solid::convert`]'s, on tolerant backends only.
    pub fn convert_decided<T: Scalar>(&self) -> Result<Solid<T>, BrepError> {
        if !T::CERTAIN_DECISIONS {
            return self.convert();
        }
        let vertices = self.vertices.iter().map(|p| p.map(|c| c.to_backend::<T>())).collect();
        Ok(with_topology_trusted(self, vertices))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    /// The sweep finds a meeting of non-adjacent sides exactly when the pairwise test does
    /// (or an overlap of adjacent collinear sides), on random polygons of a small grid: many
    /// crossings, touchings, straight vertices and collinear sides.
    #[test]
    fn the_sweep_agrees_with_the_pairwise_test() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as i64
        };
        let (mut crossed, mut simple) = (0, 0);
        for case in 0..20_000 {
            let n = 3 + next(7) as usize;
            let grid = if case % 2 == 0 { 4 } else { 9 };
            let p: Vec<Point2<BigRational>> = (0..n)
                .map(|_| {
                    Point2::new(
                        BigRational::from_integer(next(grid).into()),
                        BigRational::from_integer(next(grid).into()),
                    )
                })
                .collect();
            // Distinct consecutive points only (zero-length sides are rejected before).
            if (0..n).any(|k| p[k] == p[(k + 1) % n]) || (0..n).any(|a| (a + 1..n).any(|b| p[a] == p[b])) {
                continue;
            }
            let mut pairwise = false;
            for k in 0..n {
                for l in k + 2..n {
                    if !(k == 0 && l == n - 1) && segments_meet(&p[k], &p[(k + 1) % n], &p[l], &p[(l + 1) % n]).unwrap()
                    {
                        pairwise = true;
                    }
                }
            }
            let overlap = (0..n).any(|k| {
                let (a, b, c) = (&p[k], &p[(k + 1) % n], &p[(k + 2) % n]);
                orient2d(a, b, c).unwrap() == Orientation::Coplanar && {
                    let (u, w) = (a - b, c - b);
                    u.x.clone() * w.x.clone() + u.y.clone() * w.y.clone() > BigRational::from_integer(0.into())
                }
            });
            let sweep = first_crossing(&p).unwrap();
            if !overlap {
                assert_eq!(sweep.is_some(), pairwise, "{p:?}: sweep {sweep:?}");
            } else {
                assert!(sweep.is_some() || !pairwise, "{p:?}");
            }
            if let Some((k, l)) = sweep {
                // The pair it names meets (or overlaps as neighbours).
                let neighbours = (k + 1) % n == l || (l + 1) % n == k;
                assert!(neighbours || segments_meet(&p[k], &p[(k + 1) % n], &p[l], &p[(l + 1) % n]).unwrap());
            }
            if pairwise {
                crossed += 1;
            } else {
                simple += 1;
            }
        }
        assert!(crossed > 1000 && simple > 1000, "{crossed} crossed, {simple} simple");
    }
}
