//! Building the index: the three phases of §2.1 as one recursion (an explicit stack: a tree of
//! a convex solid is as deep as it has faces), then attaching and reducing (§2.2–2.3).

use super::geom::{
    axis, bits, line_planes, meet, nonzero_axis, orientation_sign, pencil, project, side, through, transverse_axis,
    HPoint,
};
use super::{Leaf, Link, MspError, MspTree, Node, Options, Split, Stats};
use crate::brep::{Feature, Solid};
use crate::geom::{Plane, Point3};
use crate::predicates::orient2d;
use crate::scalar::{Scalar, Sign};

/// An entity of the fragmented boundary: the solid's own, or a pseudo one made by splitting
/// (its id indexes the carriers: the original entity it lies in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entity {
    Vertex(u32),
    Edge(u32),
    Face(u32),
    PseudoVertex(u32),
    PseudoEdge(u32),
}

/// A convex piece of face `face` (whose plane is plane `face` of the arena): vertices in order,
/// `bounds[i]` a plane whose intersection with the face's plane is the line of the side from
/// vertex `i` to vertex `i + 1`.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    pub(super) face: u32,
    pub(super) verts: Vec<u32>,
    bounds: Vec<u32>,
}

/// A piece of an edge (original or pseudo) on the line where two arena planes meet.
#[derive(Clone, Debug)]
pub(super) struct Seg {
    pub(super) ent: Entity,
    line: [u32; 2],
    pub(super) ends: [u32; 2],
}

/// A point of an entity.
#[derive(Clone, Debug)]
pub(super) struct Pt {
    pub(super) ent: Entity,
    pub(super) p: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Sets {
    pub(super) faces: Vec<Piece>,
    pub(super) segs: Vec<Seg>,
    pub(super) pts: Vec<Pt>,
}

/// The element a cut was made through: the first of its kind in the region's sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Chosen {
    Piece,
    Seg,
    Pt,
    None,
}

#[derive(Clone, Copy, Debug)]
enum Region {
    /// 3-dimensional; the label of the region if no face piece is left in it.
    D3(bool),
    /// On an arena plane.
    D2(u32),
    /// On the line of two arena planes.
    D1([u32; 2]),
    D0,
}

/// Where a link goes: the root, or a node's child (0 above, 1 on, 2 below).
type Slot = Option<(usize, u8)>;

struct Task {
    region: Region,
    sets: Sets,
    slot: Option<(usize, u8)>,
    depth: usize,
    regular: usize,
}

pub(super) struct Builder<'a, S: Scalar> {
    solid: &'a Solid<S>,
    options: Options,
    planes: Vec<Plane<S>>,
    pub(super) points: Vec<HPoint<S>>,
    /// Binary64 images of the planes' coefficients and the points' coordinates, for the
    /// exact backends' filter ([`Builder::side`]); `None` when out of the filter's range.
    approx_planes: Vec<Option<[f64; 4]>>,
    approx_points: Vec<Option<[f64; 4]>>,
    /// Per point: the stamp of the plane its side was last computed against, and the side.
    cache: Vec<(u32, Sign)>,
    stamp: u32,
    /// The original entity each pseudo vertex / pseudo edge lies in.
    carrier_v: Vec<Entity>,
    carrier_e: Vec<Entity>,
    nodes: Vec<Node<S>>,
    parent: Vec<Option<(usize, u8)>>,
    root: Option<Link>,
    /// Leaves attached to entities (pseudo ones included), reduced at the end.
    attached: Vec<(Slot, Entity, usize)>,
    witnesses: Vec<(Slot, Point3<S>)>,
    stats: Stats,
    depth_sum: usize,
}

pub(super) fn build<S: Scalar>(solid: &Solid<S>, options: &Options) -> Result<MspTree<S>, MspError> {
    let mut b = Builder::new(solid, options);
    let sets = b.initial_sets()?;
    b.run(sets)?;
    b.finish()
}

impl<'a, S: Scalar> Builder<'a, S> {
    /// A builder for `solid`'s pieces: its face planes and vertices first in the arenas.
    pub(super) fn new(solid: &'a Solid<S>, options: &Options) -> Self {
        let mut b = Builder {
            solid,
            options: *options,
            planes: (0..solid.face_count()).map(|f| solid.plane(f).clone()).collect(),
            points: solid.vertices().iter().map(HPoint::from_point).collect(),
            approx_planes: Vec::new(),
            approx_points: Vec::new(),
            cache: Vec::new(),
            stamp: 0,
            carrier_v: Vec::new(),
            carrier_e: Vec::new(),
            nodes: Vec::new(),
            parent: Vec::new(),
            root: None,
            attached: Vec::new(),
            witnesses: Vec::new(),
            stats: Stats::default(),
            depth_sum: 0,
        };
        b.approx_planes =
            b.planes.iter().map(|p| approx4([&p.normal.x, &p.normal.y, &p.normal.z, &p.offset])).collect();
        b.approx_points = b.points.iter().map(|p| approx4([&p.x.x, &p.x.y, &p.x.z, &p.w])).collect();
        b
    }
}

impl<S: Scalar> Builder<'_, S> {
    fn precision(&self, what: &str) -> MspError {
        MspError::Precision(format!(
            "{what} within the {} backend's tolerance: the index needs an exact backend here",
            S::NAME
        ))
    }

    /// Add a plane to the arena, after asking the query's memory budget for the room (the
    /// arenas grow without bound on hostile solids: quadratically on a comb).
    pub(super) fn push_plane(&mut self, p: Plane<S>) -> Result<u32, MspError> {
        crate::budget::reserve_for(&self.planes, 1)?;
        crate::budget::reserve_for(&self.approx_planes, 1)?;
        if self.options.measure_bits {
            let m = p.normal.iter().chain(std::iter::once(&p.offset)).map(bits).max().unwrap_or(0);
            self.stats.max_bits = self.stats.max_bits.max(m);
        }
        self.approx_planes.push(approx4([&p.normal.x, &p.normal.y, &p.normal.z, &p.offset]));
        self.planes.push(p);
        Ok((self.planes.len() - 1) as u32)
    }

    fn push_point(&mut self, p: HPoint<S>) -> Result<u32, MspError> {
        crate::budget::reserve_for(&self.points, 1)?;
        crate::budget::reserve_for(&self.approx_points, 1)?;
        crate::budget::reserve_for(&self.cache, 1)?;
        if self.options.measure_bits {
            let m = p.x.iter().chain(std::iter::once(&p.w)).map(bits).max().unwrap_or(0);
            self.stats.max_bits = self.stats.max_bits.max(m);
        }
        self.approx_points.push(approx4([&p.x.x, &p.x.y, &p.x.z, &p.w]));
        self.points.push(p);
        Ok((self.points.len() - 1) as u32)
    }

    /// The side of plane `plane` that point `p` is on, cached for the current stamp.
    fn side(&mut self, plane: u32, p: u32) -> Result<Sign, MspError> {
        let i = p as usize;
        if self.cache.len() < self.points.len() {
            self.cache.resize(self.points.len(), (u32::MAX, Sign::Zero));
        }
        if self.cache[i].0 == self.stamp {
            return Ok(self.cache[i].1);
        }
        let filtered = match (&self.approx_planes[plane as usize], &self.approx_points[i]) {
            (Some(a), Some(b)) => filter_sign(a, b),
            _ => None,
        };
        let s = match filtered {
            Some(s) => s,
            None => side(&self.planes[plane as usize], &self.points[i])?,
        };
        self.cache[i] = (self.stamp, s);
        Ok(s)
    }

    /// The point where the line of planes `a` and `b` crosses plane `c`, between points `p` and
    /// `q` of the line that `c` separates. Exactly, three such planes always meet in one point;
    /// an inexact backend may find them within its tolerance of a pencil, and then takes the
    /// point on the segment from `p` to `q` in the ratio of their distances to `c` (a chained
    /// construction, for inexact backends only).
    fn meet(&mut self, [a, b, c]: [u32; 3], [p, q]: [u32; 2]) -> Result<u32, MspError> {
        let m = meet(&self.planes[a as usize], &self.planes[b as usize], &self.planes[c as usize])?;
        match m {
            Some(x) => self.push_point(x),
            None if !S::EXACT_VALUES => {
                let plane = &self.planes[c as usize];
                let (p, q) = (&self.points[p as usize], &self.points[q as usize]);
                let eval = |h: &HPoint<S>| plane.normal.dot(&h.x) + plane.offset.clone() * h.w.clone();
                let (fp, fq) = (eval(p), eval(q));
                // x = fp·q − fq·p, homogeneous (fp, fq of opposite signs, w's positive).
                let mut x = HPoint {
                    x: q.x.clone() * fp.clone() - p.x.clone() * fq.clone(),
                    w: q.w.clone() * fp - p.w.clone() * fq,
                };
                if x.w.sign()? == Sign::Negative {
                    x = HPoint { x: -x.x, w: -x.w };
                } else if x.w.sign()? == Sign::Zero {
                    return Err(self.precision("a cut crosses a piece's side along it"));
                }
                self.push_point(x)
            }
            None => Err(self.precision("a cut crosses a piece's side along it")),
        }
    }

    fn carrier(&self, e: Entity) -> Entity {
        match e {
            Entity::PseudoVertex(i) => self.carrier_v[i as usize],
            Entity::PseudoEdge(i) => self.carrier_e[i as usize],
            e => e,
        }
    }

    /// The solid's own feature an entity lies in (a pseudo entity's carrier).
    pub(super) fn original(&self, e: Entity) -> Feature {
        match self.carrier(e) {
            Entity::Vertex(v) => Feature::Vertex(v as usize),
            Entity::Edge(e) => {
                let (u, v) = self.solid.edges()[e as usize];
                Feature::Edge(u, v)
            }
            Entity::Face(f) => Feature::Face(f as usize),
            Entity::PseudoVertex(_) | Entity::PseudoEdge(_) => unreachable!("carriers are original entities"),
        }
    }

    fn pseudo_vertex(&mut self, of: Entity) -> Entity {
        let c = self.carrier(of);
        self.carrier_v.push(c);
        Entity::PseudoVertex((self.carrier_v.len() - 1) as u32)
    }

    fn pseudo_edge(&mut self, face: u32) -> Entity {
        self.carrier_e.push(Entity::Face(face));
        Entity::PseudoEdge((self.carrier_e.len() - 1) as u32)
    }

    /// Of an edge's two line planes, one that meets face `f`'s plane in the line (is not
    /// parallel to it).
    fn bound_for(&self, line: [u32; 2], f: u32) -> Result<u32, MspError> {
        // The more transverse of the two (by the sine² of the normals' images, a heuristic that
        // keeps the intersections well conditioned, made alike on every backend), checked
        // nonparallel exactly.
        let n = &self.planes[f as usize].normal;
        let image = |v: &nalgebra::Vector3<S>| -> Result<nalgebra::Vector3<f64>, MspError> {
            Ok(nalgebra::Vector3::new(v.x.image()?, v.y.image()?, v.z.image()?))
        };
        let b = image(n)?;
        let sine2 = |l: u32| -> Result<f64, MspError> {
            let a = image(&self.planes[l as usize].normal)?;
            Ok(a.cross(&b).norm_squared() / (a.norm_squared() * b.norm_squared()))
        };
        let order = if sine2(line[1])? > sine2(line[0])? { [line[1], line[0]] } else { line };
        for l in order {
            let c = self.planes[l as usize].normal.cross(n);
            if !crate::geom::is_zero_vector(&c)? {
                return Ok(l);
            }
        }
        Err(self.precision("an edge's line is parallel to its own face"))
    }

    /// The solid's vertices, edges and faces as the first pieces: convex faces whole, the others
    /// split into triangles by ear clipping (the diagonals are pseudo edges).
    pub(super) fn initial_sets(&mut self) -> Result<Sets, MspError> {
        let s = self.solid;
        let mut sets = Sets::default();
        let mut edge_line = Vec::with_capacity(s.edge_count());
        for (e, &(u, v)) in s.edges().iter().enumerate() {
            crate::budget::tick()?;
            let [a, b] =
                line_planes(s.vertex(u), s.vertex(v))?.ok_or_else(|| self.precision("an edge's ends coincide"))?;
            let line = [self.push_plane(a)?, self.push_plane(b)?];
            edge_line.push(line);
            sets.segs.push(Seg { ent: Entity::Edge(e as u32), line, ends: [u as u32, v as u32] });
        }
        sets.pts = (0..s.vertex_count()).map(|v| Pt { ent: Entity::Vertex(v as u32), p: v as u32 }).collect();
        for f in 0..s.face_count() {
            let face = s.face(f);
            let turn = face_turn(s, f)?;
            let m = face.len();
            let mut convex = true;
            for i in 0..m {
                if turn(face[i], face[(i + 1) % m], face[(i + 2) % m])? == Sign::Negative {
                    convex = false;
                    break;
                }
            }
            let (triangles, merged) = if convex { (vec![face.to_vec()], Vec::new()) } else { ear_clip(face, &turn)? };
            for t in triangles {
                let mut bounds = Vec::with_capacity(t.len());
                for i in 0..t.len() {
                    crate::budget::tick()?;
                    let (a, b) = (t[i], t[(i + 1) % t.len()]);
                    let along = merged.iter().find(|(x, _)| *x == (a, b) || *x == (b, a)).map(|&(_, side)| side);
                    let line = match s.edge_index(a, b) {
                        Some(e) if is_face_side(face, a, b) => edge_line[e],
                        // Sides along a straight vertex: the line of a side they cover (their
                        // segments are the sides').
                        _ if along.is_some() => {
                            let (x, y) = along.unwrap_or((a, b));
                            s.edge_index(x, y).map(|e| edge_line[e]).ok_or_else(|| self.precision("a face side"))?
                        }
                        _ => {
                            // A diagonal: a pseudo edge of the face (once, from its lower end).
                            let [p, q] = line_planes(s.vertex(a), s.vertex(b))?
                                .ok_or_else(|| self.precision("a diagonal's ends coincide"))?;
                            let line = [self.push_plane(p)?, self.push_plane(q)?];
                            if a < b {
                                let ent = self.pseudo_edge(f as u32);
                                sets.segs.push(Seg { ent, line, ends: [a as u32, b as u32] });
                            }
                            line
                        }
                    };
                    bounds.push(self.bound_for(line, f as u32)?);
                }
                sets.faces.push(Piece { face: f as u32, verts: t.iter().map(|&v| v as u32).collect(), bounds });
            }
        }
        self.stats.pseudo[0] = self.carrier_e.len();
        Ok(sets)
    }

    fn set_link(&mut self, slot: Option<(usize, u8)>, link: Link) {
        match slot {
            None => self.root = Some(link),
            Some((n, c)) => self.nodes[n].children[c as usize] = link,
        }
    }

    fn leaf(&mut self, task: &Task, leaf: Leaf) {
        self.stats.height = self.stats.height.max(task.depth);
        let k = match leaf {
            Leaf::Inside => 0,
            Leaf::Outside => 1,
            Leaf::On(_) => 2,
            Leaf::Free => 3,
        };
        self.stats.leaves[k] += 1;
        self.set_link(task.slot, Link::Leaf(leaf));
    }

    /// Attach a leaf to an entity (reduced at the end), with the piece that fills the region
    /// as its witness when asked.
    fn attach(&mut self, task: &Task, ent: Entity, witness: Option<Vec<u32>>) {
        self.stats.height = self.stats.height.max(task.depth);
        self.stats.leaves[2] += 1;
        self.depth_sum += task.depth;
        self.attached.push((task.slot, ent, task.depth));
        if let (true, Some(ids)) = (self.options.witnesses, witness) {
            let n = S::from_i64(ids.len() as i64);
            let sum = ids.iter().fold(nalgebra::Vector3::from_element(S::zero()), |acc, &i| {
                acc + self.points[i as usize].affine().coords
            });
            self.witnesses.push((task.slot, Point3::from(sum.map(|c| c / n.clone()))));
        }
        self.set_link(task.slot, Link::Leaf(Leaf::Free));
    }

    fn node(&mut self, task: &Task, plane: u32, dim: u8) -> Result<usize, MspError> {
        let free = || Link::Leaf(Leaf::Free);
        crate::budget::reserve_for(&self.nodes, 1)?;
        self.nodes.push(Node { plane: self.planes[plane as usize].clone(), dim, children: [free(), free(), free()] });
        self.parent.push(task.slot);
        let id = self.nodes.len() - 1;
        self.set_link(task.slot, Link::Node(id));
        Ok(id)
    }

    /// The chosen element lies on its cut (always, exactly; an inexact backend's derived
    /// points may stray beyond its tolerance, which would cut the same element forever).
    fn check_on(&mut self, plane: u32, ids: &[u32]) -> Result<(), MspError> {
        if !S::CERTAIN_DECISIONS {
            // A tolerant backend puts the chosen element on its cut whatever its points say
            // ([`Builder::split`] takes it first).
            return Ok(());
        }
        self.stamp += 1;
        for &p in ids {
            if self.side(plane, p)? != Sign::Zero {
                return Err(self.precision("an element is off its own cut plane"));
            }
        }
        Ok(())
    }

    fn run(&mut self, sets: Sets) -> Result<(), MspError> {
        let s = self.solid;
        let max_depth = 4 * (s.vertex_count() + s.edge_count() + s.face_count()) + 64;
        let mut stack = vec![Task { region: Region::D3(false), sets, slot: None, depth: 0, regular: 0 }];
        while let Some(task) = stack.pop() {
            crate::budget::tick()?;
            if task.depth > max_depth {
                return Err(self.precision("the index grew deeper than any exact one"));
            }
            let (plane, on_region, labels, regular) = match task.region {
                Region::D3(label) => {
                    if task.sets.faces.is_empty() {
                        self.stats.lost += task.sets.segs.len() + task.sets.pts.len();
                        self.leaf(&task, if label { Leaf::Inside } else { Leaf::Outside });
                        continue;
                    }
                    match self.regular_cut(&task)? {
                        Some(p) => (p, Region::D2(p), [false, false], 1),
                        None => {
                            let f = task.sets.faces[0].face;
                            let ids = task.sets.faces[0].verts.clone();
                            self.check_on(f, &ids)?;
                            (f, Region::D2(f), [false, true], 0)
                        }
                    }
                }
                Region::D2(pi) => {
                    let p = if let Some(s) = task.sets.segs.first().cloned() {
                        let q = pencil(
                            &self.planes[s.line[0] as usize],
                            &self.planes[s.line[1] as usize],
                            &self.planes[pi as usize],
                        );
                        let q = self.push_plane(q)?;
                        self.check_on(q, &s.ends)?;
                        self.orient_edge_cut(q, &s, &task.sets.faces)?;
                        q
                    } else if let Some(v) = task.sets.pts.first().cloned() {
                        let n = self.planes[pi as usize].normal.clone();
                        let u = n.cross(&axis::<S>(transverse_axis(&n)?));
                        let q = through(&u, &self.points[v.p as usize]);
                        let q = self.push_plane(q)?;
                        self.check_on(q, &[v.p])?;
                        q
                    } else {
                        match task.sets.faces.first() {
                            Some(piece) => {
                                let w = piece.verts.clone();
                                self.attach(&task, Entity::Face(piece.face), Some(w));
                            }
                            None => self.leaf(&task, Leaf::Free),
                        }
                        continue;
                    };
                    (p, Region::D1([pi, p]), [false, false], 0)
                }
                Region::D1([a, b]) => {
                    let Some(v) = task.sets.pts.first().cloned() else {
                        match task.sets.segs.first() {
                            Some(s) => {
                                let w = s.ends.to_vec();
                                self.attach(&task, s.ent, Some(w));
                            }
                            None => self.leaf(&task, Leaf::Free),
                        }
                        continue;
                    };
                    let dir = self.planes[a as usize].normal.cross(&self.planes[b as usize].normal);
                    let q = through(&dir, &self.points[v.p as usize]);
                    let q = self.push_plane(q)?;
                    self.check_on(q, &[v.p])?;
                    (q, Region::D0, [false, false], 0)
                }
                Region::D0 => {
                    match task.sets.pts.first() {
                        Some(p) => {
                            let w = vec![p.p];
                            self.attach(&task, p.ent, Some(w));
                        }
                        None => self.leaf(&task, Leaf::Free),
                    }
                    continue;
                }
            };
            let dim = match task.region {
                Region::D3(_) => 3,
                Region::D2(_) => 2,
                _ => 1,
            };
            let cross = match (task.region, task.sets.pts.first()) {
                (Region::D1(_), Some(v)) => Some(v.p),
                _ => None,
            };
            let chosen = match task.region {
                Region::D3(_) if regular == 1 => Chosen::None,
                Region::D3(_) => Chosen::Piece,
                Region::D2(_) if !task.sets.segs.is_empty() => Chosen::Seg,
                _ => Chosen::Pt,
            };
            let id = self.node(&task, plane, dim)?;
            self.stats.regular_cuts += regular;
            let phase = match (task.region, chosen) {
                (Region::D3(_), Chosen::None) => None,
                (Region::D3(_), _) => Some(0),
                (Region::D2(_), Chosen::Seg) => Some(1),
                (Region::D2(_), _) => Some(3),
                _ => Some(2),
            };
            if let Some(k) = phase {
                self.stats.cuts[k] += 1;
            }
            let [above, on, below] = self.split(plane, task.sets, cross, chosen)?;
            let next = |region, sets, c: u8| Task {
                region,
                sets,
                slot: Some((id, c)),
                depth: task.depth + 1,
                regular: task.regular + regular,
            };
            let same = |l: bool| match task.region {
                Region::D3(_) => Region::D3(l),
                r => r,
            };
            stack.push(next(same(labels[1]), below, 2));
            stack.push(next(on_region, on, 1));
            stack.push(next(same(labels[0]), above, 0));
        }
        Ok(())
    }

    /// The paper's orientation of an edge's cut (§2.1 phase 2 (c)): a piece of a face of the
    /// edge lying in the region's plane is below it.
    fn orient_edge_cut(&mut self, q: u32, s: &Seg, faces: &[Piece]) -> Result<(), MspError> {
        let Entity::Edge(e) = s.ent else { return Ok(()) };
        let (f1, f2) = self.solid.edge_faces(e as usize);
        self.stamp += 1;
        for piece in faces.iter().filter(|p| p.face as usize == f1 || p.face as usize == f2) {
            let mut signs = Vec::with_capacity(piece.verts.len());
            for &v in &piece.verts {
                signs.push(self.side(q, v)?);
            }
            let zeros = signs.iter().filter(|s| **s == Sign::Zero).count();
            if zeros >= 2 && signs.iter().all(|s| *s != Sign::Negative) && zeros < signs.len() {
                let flipped = self.planes[q as usize].flipped();
                self.planes[q as usize] = flipped;
                if let Some(a) = &mut self.approx_planes[q as usize] {
                    *a = a.map(|x| -x);
                }
                break;
            }
        }
        Ok(())
    }

    /// The hybrid's regular cut of a 3-dimensional region, if it applies and leaves pieces
    /// strictly on both sides.
    fn regular_cut(&mut self, task: &Task) -> Result<Option<u32>, MspError> {
        let Split::Hybrid { max_faces, max_regular } = self.options.split else { return Ok(None) };
        if task.sets.faces.len() <= max_faces || task.regular >= max_regular {
            return Ok(None);
        }
        let mut ids: Vec<u32> = task.sets.faces.iter().flat_map(|p| p.verts.iter().copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        // From the images (alike on every backend): where a regular cut goes is a heuristic.
        let mut coords: Vec<[f64; 3]> = Vec::with_capacity(ids.len());
        for &i in &ids {
            let p = &self.points[i as usize];
            let w = p.w.image()?;
            coords.push([p.x.x.image()? / w, p.x.y.image()? / w, p.x.z.image()? / w]);
        }
        let extent = |k: usize| {
            let (lo, hi) =
                coords.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), c| (l.min(c[k]), h.max(c[k])));
            hi - lo
        };
        let k = (0..3).max_by(|&i, &j| extent(i).total_cmp(&extent(j))).unwrap_or(0);
        let e = extent(k);
        if !(e.is_finite() && e > 0.0) {
            return Ok(None);
        }
        let mut xs: Vec<f64> = coords.iter().map(|c| c[k]).collect();
        xs.sort_by(f64::total_cmp);
        let ulp = 2f64.powi(e.log2().floor() as i32 - 16);
        let c = (xs[xs.len() / 2] / ulp).round() * ulp;
        let Ok(c) = S::from_f64(c) else { return Ok(None) };
        let plane = Plane { normal: axis::<S>(k), offset: -c };
        let id = self.push_plane(plane)?;
        self.stamp += 1;
        let (mut above, mut below) = (false, false);
        for &i in &ids {
            match self.side(id, i)? {
                Sign::Positive => above = true,
                Sign::Negative => below = true,
                Sign::Zero => {}
            }
        }
        Ok((above && below).then_some(id))
    }

    /// Split everything in a region by plane `plane` into the parts above, on and below it.
    /// `cross`: in a 1-dimensional region, the point where the cut meets the line.
    pub(super) fn split(
        &mut self,
        plane: u32,
        mut sets: Sets,
        cross: Option<u32>,
        chosen: Chosen,
    ) -> Result<[Sets; 3], MspError> {
        self.stamp += 1;
        let mut out: [Sets; 3] = Default::default();
        // The element the cut was made through lies on it: exactly (checked before), or by fiat
        // on a tolerant backend, whose derived points may stray beyond its tolerance (cutting
        // the same element again and again otherwise).
        if !S::CERTAIN_DECISIONS {
            match chosen {
                Chosen::Piece if !sets.faces.is_empty() => out[1].faces.push(sets.faces.remove(0)),
                Chosen::Seg if !sets.segs.is_empty() => out[1].segs.push(sets.segs.remove(0)),
                Chosen::Pt if !sets.pts.is_empty() => out[1].pts.push(sets.pts.remove(0)),
                _ => {}
            }
        }
        for piece in sets.faces {
            crate::budget::tick()?;
            self.split_piece(plane, piece, &mut out)?;
        }
        for seg in sets.segs {
            let s = [self.side(plane, seg.ends[0])?, self.side(plane, seg.ends[1])?];
            match s {
                [Sign::Zero, Sign::Zero] => out[1].segs.push(seg),
                [a, b] if a != Sign::Negative && b != Sign::Negative => out[0].segs.push(seg),
                [a, b] if a != Sign::Positive && b != Sign::Positive => out[2].segs.push(seg),
                [a, _] => {
                    let x = match cross {
                        Some(x) => x,
                        None => {
                            let x = self.meet([seg.line[0], seg.line[1], plane], seg.ends)?;
                            let ent = self.pseudo_vertex(seg.ent);
                            out[1].pts.push(Pt { ent, p: x });
                            x
                        }
                    };
                    let (pos, neg) =
                        if a == Sign::Positive { (seg.ends[0], seg.ends[1]) } else { (seg.ends[1], seg.ends[0]) };
                    out[0].segs.push(Seg { ent: seg.ent, line: seg.line, ends: [pos, x] });
                    out[2].segs.push(Seg { ent: seg.ent, line: seg.line, ends: [x, neg] });
                }
            }
        }
        for pt in sets.pts {
            let k = match self.side(plane, pt.p)? {
                Sign::Positive => 0,
                Sign::Zero => 1,
                Sign::Negative => 2,
            };
            out[k].pts.push(pt);
        }
        Ok(out)
    }

    fn split_piece(&mut self, plane: u32, piece: Piece, out: &mut [Sets; 3]) -> Result<(), MspError> {
        let m = piece.verts.len();
        let mut s = Vec::with_capacity(m);
        for &v in &piece.verts {
            s.push(self.side(plane, v)?);
        }
        let (pos, neg) = (s.contains(&Sign::Positive), s.contains(&Sign::Negative));
        match (pos, neg) {
            (false, false) => {
                out[1].faces.push(piece);
                return Ok(());
            }
            (true, false) => {
                out[0].faces.push(piece);
                return Ok(());
            }
            (false, true) => {
                out[2].faces.push(piece);
                return Ok(());
            }
            (true, true) => {}
        }
        let (mut up, mut down) = (
            Piece { face: piece.face, verts: vec![], bounds: vec![] },
            Piece { face: piece.face, verts: vec![], bounds: vec![] },
        );
        let mut cut = Vec::with_capacity(2);
        for i in 0..m {
            let j = (i + 1) % m;
            let (v, b) = (piece.verts[i], piece.bounds[i]);
            match s[i] {
                Sign::Positive => {
                    up.verts.push(v);
                    up.bounds.push(b);
                }
                Sign::Negative => {
                    down.verts.push(v);
                    down.bounds.push(b);
                }
                Sign::Zero => {
                    cut.push(v);
                    up.verts.push(v);
                    up.bounds.push(if s[j] == Sign::Negative { plane } else { b });
                    down.verts.push(v);
                    down.bounds.push(if s[j] == Sign::Positive { plane } else { b });
                }
            }
            if s[i] * s[j] == Sign::Negative {
                let x = self.meet([piece.face, b, plane], [v, piece.verts[j]])?;
                cut.push(x);
                if s[i] == Sign::Positive {
                    up.verts.push(x);
                    up.bounds.push(plane);
                    down.verts.push(x);
                    down.bounds.push(b);
                } else {
                    down.verts.push(x);
                    down.bounds.push(plane);
                    up.verts.push(x);
                    up.bounds.push(b);
                }
            }
        }
        if let [a, b] = cut[..] {
            let ent = self.pseudo_edge(piece.face);
            out[1].segs.push(Seg { ent, line: [piece.face, plane], ends: [a, b] });
        } else if S::CERTAIN_DECISIONS {
            return Err(self.precision("a convex piece crossing a plane in other than two points"));
        }
        for (k, p) in [(0, up), (2, down)] {
            if p.verts.len() >= 3 {
                out[k].faces.push(p);
            }
        }
        Ok(())
    }

    /// Reduce (§2.3): every leaf attached to a pseudo entity is attached to the original entity
    /// it lies in; then the figures.
    fn finish(mut self) -> Result<MspTree<S>, MspError> {
        let attached = std::mem::take(&mut self.attached);
        for (slot, ent, _) in attached {
            let feature = self.original(ent);
            self.set_link(slot, Link::Leaf(Leaf::On(feature)));
        }
        self.stats.nodes = self.nodes.len();
        self.stats.pseudo = [self.carrier_e.len(), self.carrier_v.len()];
        let on = self.stats.leaves[2];
        self.stats.average_height = if on == 0 { 0.0 } else { self.depth_sum as f64 / on as f64 };
        self.stats.entity_depths = self.depth_sum;
        let witnesses = std::mem::take(&mut self.witnesses)
            .into_iter()
            .filter_map(|(slot, p)| slot.map(|(n, c)| (n, c, p)))
            .collect();
        Ok(MspTree {
            nodes: self.nodes,
            root: self.root.unwrap_or(Link::Leaf(Leaf::Outside)),
            stats: self.stats,
            parent: self.parent,
            witnesses,
        })
    }
}

/// Whether a → b or b → a is a side of the face (not a diagonal that happens to be an edge of
/// the solid elsewhere).
fn is_face_side(face: &[usize], a: usize, b: usize) -> bool {
    let m = face.len();
    (0..m).any(|i| {
        let (x, y) = (face[i], face[(i + 1) % m]);
        (x, y) == (a, b) || (x, y) == (b, a)
    })
}

/// The turn of three vertices of face `f` in its plane: positive when they run
/// counterclockwise seen from outside (in the projection along an axis the face's normal
/// has a nonzero component on, signed by that component).
pub(super) fn face_turn<S: Scalar>(
    s: &Solid<S>,
    f: usize,
) -> Result<impl Fn(usize, usize, usize) -> Result<Sign, MspError> + '_, MspError> {
    let n = &s.plane(f).normal;
    let k = nonzero_axis(n)?.ok_or_else(|| MspError::Precision("a face's normal is zero".into()))?;
    let up = n[k].sign()?;
    Ok(move |a: usize, b: usize, c: usize| -> Result<Sign, MspError> {
        let o = orient2d(&project(s.vertex(a), k), &project(s.vertex(b), k), &project(s.vertex(c), k))?;
        Ok(orientation_sign(o) * up)
    })
}

/// A side of a clipped polygon that covers sides of the face, with one face side on its line.
type Merged = Vec<((usize, usize), (usize, usize))>;

/// Ear clipping of a simple polygon (counterclockwise as `turn` sees it): the triangles. A
/// straight vertex is dropped (its two sides lie along one side of a later triangle, listed
/// with a face side on its line).
pub(super) fn ear_clip(
    face: &[usize],
    turn: &dyn Fn(usize, usize, usize) -> Result<Sign, MspError>,
) -> Result<(Vec<Vec<usize>>, Merged), MspError> {
    let mut poly: Vec<usize> = face.to_vec();
    let mut out = Vec::new();
    let mut merged: Merged = Vec::new();
    while poly.len() > 3 {
        crate::budget::tick()?;
        let m = poly.len();
        let mut clipped = false;
        for i in 0..m {
            let (a, b, c) = (poly[(i + m - 1) % m], poly[i], poly[(i + 1) % m]);
            if turn(a, b, c)? != Sign::Positive {
                continue;
            }
            let mut ear = true;
            for &p in &poly {
                if p == a || p == b || p == c {
                    continue;
                }
                // Inside or on the closed triangle: not an ear.
                if turn(a, b, p)? != Sign::Negative
                    && turn(b, c, p)? != Sign::Negative
                    && turn(c, a, p)? != Sign::Negative
                {
                    ear = false;
                    break;
                }
            }
            if ear {
                out.push(vec![a, b, c]);
                poly.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            // No strict ear: drop a straight vertex, if there is one.
            let mut dropped = false;
            for i in 0..poly.len() {
                let m = poly.len();
                let (a, b, c) = (poly[(i + m - 1) % m], poly[i], poly[(i + 1) % m]);
                if turn(a, b, c)? == Sign::Zero {
                    let side = merged.iter().find(|(x, _)| *x == (a, b)).map_or((a, b), |&(_, s)| s);
                    merged.push(((a, c), side));
                    poly.remove(i);
                    dropped = true;
                    break;
                }
            }
            if !dropped {
                return Err(MspError::Precision("a face could not be split into triangles".into()));
            }
        }
    }
    if poly.len() == 3 && turn(poly[0], poly[1], poly[2])? == Sign::Positive {
        out.push(poly);
    }
    Ok((out, merged))
}

/// The binary64 images of four exact values, for the filter: `None` on inexact backends (they
/// decide on their own numbers) and when a nonzero value's image is outside [2⁻⁵⁰⁰, 2⁵⁰⁰] (so
/// no product or sum of the filter under- or overflows; a zero image is then exactly zero).
fn approx4<S: Scalar>(xs: [&S; 4]) -> Option<[f64; 4]> {
    if !S::EXACT_VALUES {
        return None;
    }
    let (lo, hi) = (2f64.powi(-500), 2f64.powi(500));
    let mut out = [0.0; 4];
    for (o, x) in out.iter_mut().zip(xs) {
        let a = x.to_f64();
        if a == 0.0 {
            if x.sign() != Ok(Sign::Zero) {
                return None;
            }
        } else if !(a.abs() > lo && a.abs() < hi) {
            return None;
        }
        *o = a;
    }
    Some(out)
}

/// The sign of plane · point (homogeneous, w > 0) from binary64 images, when certain.
///
/// Each image is within 4u of its exact value (u = 2⁻⁵³: [`Scalar::to_f64`] of an exact
/// backend truncates to 64 bits, rounds, divides and rounds again), so each product is within
/// 9u + O(u²) of the exact product, and the three additions add at most 3u (1 + u)² of the sum
/// of the absolute terms M. |computed − exact| ≤ 13u·M; the filter asks |computed| > 32u·M,
/// with M computed (to within 6u of itself) from the same images. With every image in
/// [2⁻⁵⁰⁰, 2⁵⁰⁰] or exactly zero, nothing underflows or overflows; M = 0 means every term has an
/// exact zero factor, so the value is exactly zero.
fn filter_sign(a: &[f64; 4], b: &[f64; 4]) -> Option<Sign> {
    let v = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let m = (a[0] * b[0]).abs() + (a[1] * b[1]).abs() + (a[2] * b[2]).abs() + (a[3] * b[3]).abs();
    if m == 0.0 {
        return Some(Sign::Zero);
    }
    let bound = 32.0 * f64::EPSILON / 2.0 * m;
    if v > bound {
        Some(Sign::Positive)
    } else if v < -bound {
        Some(Sign::Negative)
    } else {
        None
    }
}
