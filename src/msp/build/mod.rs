//! Building the index: the three phases of §2.1 as one recursion (an explicit stack: a tree of
//! a convex solid is as deep as it has faces), then attaching and reducing (§2.2–2.3).

use super::geom::{
    axis, bits, line_planes, meet, orientation_sign, pencil, project, side, through, transverse_axis, HPoint,
};
use super::{Leaf, Link, MspError, MspTree, Node, Options, Split, Stats};
use crate::brep::{Feature, Solid};
use crate::geom::{Plane, Point3};
use crate::predicates::filter::{dot4_sign, enclose4};
use crate::predicates::{orient2d, signed_nonzero_axis};
use crate::scalar::{Interval, Scalar, Sign};

mod arena;
mod attach;
mod cuts;
mod sets;
mod triangulate;

pub(super) use sets::{ear_clip, face_turn};

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
    /// The solid's coordinate bound: every cut plane passes through its box, so on a tolerant
    /// backend a cut's offset is decided against (|a| + |b| + |c|)·bound
    /// ([`Builder::push_plane`]), as the face planes' are.
    bound: S,
    planes: Vec<Plane<S>>,
    pub(super) points: Vec<HPoint<S>>,
    /// Interval enclosures of the planes' coefficients and the points' coordinates, for the
    /// exact backends' filter ([`Builder::side`]); `None` when out of the filter's range.
    approx_planes: Vec<Option<[Interval; 4]>>,
    approx_points: Vec<Option<[Interval; 4]>>,
    /// Per point: the stamp of the plane its side was last computed against, and the side.
    cache: Vec<(u32, Sign)>,
    stamp: u32,
    /// Per vertex of the solid: the faces it is a corner of (their planes hold it by the
    /// topology, [`Builder::side`]).
    vertex_faces: Vec<Vec<usize>>,
    /// Per point made by [`Builder::meet`] on an exact backend (indexed from the solid's
    /// vertex count): the three planes it was made on, where it lies by construction.
    meet_planes: Vec<[u32; 3]>,
    /// Per plane on an exact backend: up to two points that lie on it by construction, the
    /// point a cut [`through`] a point was made through ((w n)·x − (n·x) w = 0) and the ends
    /// of the segment whose line a [`pencil`] cut contains (they lie on the segment's two line
    /// planes, of which the pencil is a combination); `u32::MAX` for none.
    held: Vec<[u32; 2]>,
    /// Per point: the images of its affine coordinates, once computed (a regular cut reads
    /// them for every point of its region, and regions nest).
    point_images: Vec<Option<[f64; 3]>>,
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
            bound: crate::geom::coordinate_bound(solid.vertices()),
            planes: (0..solid.face_count()).map(|f| integral_plane(solid.plane(f).clone())).collect(),
            vertex_faces: (0..solid.vertex_count()).map(|v| solid.vertex_faces(v)).collect(),
            meet_planes: Vec::new(),
            held: Vec::new(),
            point_images: Vec::new(),
            points: solid.vertices().iter().map(|p| integral_point(HPoint::from_point(p))).collect(),
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
            b.planes.iter().map(|p| enclose4([&p.normal.x, &p.normal.y, &p.normal.z, &p.offset])).collect();
        b.approx_points = b.points.iter().map(|p| enclose4([&p.x.x, &p.x.y, &p.x.z, &p.w])).collect();
        b
    }
}

impl<S: Scalar> Builder<'_, S> {
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
                        let q = self.push_holding(q, s.ends)?;
                        self.orient_edge_cut(q, &s, &task.sets.faces)?;
                        q
                    } else if let Some(v) = task.sets.pts.first().cloned() {
                        let n = self.planes[pi as usize].normal.clone();
                        let u = n.cross(&axis::<S>(transverse_axis(&n)?));
                        let q = through(&u, &self.points[v.p as usize]);
                        self.push_holding(q, [v.p, u32::MAX])?
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
                    let q = self.push_holding(q, [v.p, u32::MAX])?;
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

/// A plane as a positive integer multiple on the exact backends ([`Scalar::integral_multiple`]):
/// the arenas hold no odd denominators, so a side test is integer products and sums, and
/// the planes and points made from them (meets, pencils, cuts through points) are integers too.
pub(super) fn integral_plane<S: Scalar>(p: Plane<S>) -> Plane<S> {
    match S::integral_multiple([&p.normal.x, &p.normal.y, &p.normal.z, &p.offset, &p.scale]) {
        Some([a, b, c, offset, scale]) => Plane { normal: nalgebra::Vector3::new(a, b, c), offset, scale },
        None => p,
    }
}

/// A homogeneous point as a positive integer multiple on the exact backends (the same point).
pub(super) fn integral_point<S: Scalar>(p: HPoint<S>) -> HPoint<S> {
    match S::integral_multiple([&p.x.x, &p.x.y, &p.x.z, &p.w]) {
        Some([x, y, z, w]) => HPoint { x: nalgebra::Vector3::new(x, y, z), w },
        None => p,
    }
}
