//! Contact analysis (Bouma and Vaněček 1992): the intersection set I_t, the status, the
//! sufficient set R_t and the normals, on exact configurations built from the papers'
//! figures and on boxes resting on boxes under exact rational turns (the overlap polygon
//! computed independently).

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::{shapes, Feature, Solid};
use touchstone::contact::{
    find_contacts, ContactOptions, ContactStatus, Contacts, Motion, NormalSource, Previous, Region,
};
use touchstone::geom::{point, Affine, Point3, Vector3};
use touchstone::scalar::{ratio, Scalar};

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_i64(n)
}

fn v(x: i64, y: i64, z: i64) -> Vector3<Q> {
    Vector3::new(q(x), q(y), q(z))
}

/// The axis-aligned box [x0, x1] × [y0, y1] × [z0, z1].
fn aabb(lo: [Q; 3], hi: [Q; 3]) -> Solid<Q> {
    let two = q(2);
    let h = [0, 1, 2].map(|i| (hi[i].clone() - lo[i].clone()) / two.clone());
    let c = Vector3::from_fn(|i, _| (hi[i].clone() + lo[i].clone()) / two.clone());
    let [hx, hy, hz] = h;
    shapes::cuboid(hx, hy, hz).unwrap().transformed(&Affine::translation(c)).unwrap()
}

fn ints(lo: [i64; 3], hi: [i64; 3]) -> Solid<Q> {
    aabb(lo.map(q), hi.map(q))
}

fn contacts(a: &Solid<Q>, b: &Solid<Q>) -> Contacts<Q> {
    find_contacts(a, b, &ContactOptions::default()).unwrap()
}

fn dims(rs: &[Region<Q>]) -> [usize; 3] {
    let mut d = [0; 3];
    for r in rs {
        d[r.dim as usize] += 1;
    }
    d
}

fn kept(c: &Contacts<Q>) -> Vec<&Region<Q>> {
    c.contacts.iter().map(|k| &k.region).collect()
}

/// The face of `s` whose outward normal is a positive multiple of `n`.
fn face_along(s: &Solid<Q>, n: Vector3<Q>) -> usize {
    (0..s.face_count())
        .find(|&f| {
            let m = &s.plane(f).normal;
            m.cross(&n) == v(0, 0, 0) && m.dot(&n) > q(0)
        })
        .unwrap()
}

#[test]
fn status_separate_touching_penetrating() {
    let b = ints([0, 0, 0], [4, 4, 1]);
    // A gap of 1/1000.
    let gap = aabb([q(1), q(1), ratio(1001, 1000)], [q(2), q(2), q(2)]);
    assert_eq!(contacts(&gap, &b).status, ContactStatus::Separate);
    assert!(contacts(&gap, &b).regions.is_empty());
    let resting = ints([1, 1, 1], [2, 2, 2]);
    assert_eq!(contacts(&resting, &b).status, ContactStatus::Touching);
    let sunk = aabb([q(1), q(1), ratio(999, 1000)], [q(2), q(2), q(2)]);
    assert_eq!(contacts(&sunk, &b).status, ContactStatus::Penetrating);
    // A box inside another: no boundary meets, the small one's is inside.
    let inside = aabb([q(1), q(1), ratio(1, 4)], [q(2), q(2), ratio(3, 4)]);
    assert_eq!(contacts(&inside, &b).status, ContactStatus::Penetrating);
    assert_eq!(contacts(&b, &inside).status, ContactStatus::Penetrating);
    // The same box twice: every face shared the same way up.
    assert_eq!(contacts(&b, &b).status, ContactStatus::Penetrating);
    // A tetrahedron with an edge lying on the top face: the edge (1D) and its two ends (0D).
    let tetra = Solid::new(
        vec![point(1, 2, 1), point(3, 2, 1), point(2, 1, 2), point(2, 3, 2)],
        vec![vec![0, 1, 2], vec![0, 3, 1], vec![0, 2, 3], vec![1, 3, 2]],
    )
    .unwrap();
    let c = contacts(&tetra, &b);
    assert_eq!(c.status, ContactStatus::Touching);
    assert_eq!(dims(&c.regions), [2, 1, 0], "{:?}", c.regions);
    assert_eq!(kept(&c).len(), 1, "the edge-on-face region implies its ends");
    // Vertex on vertex: touching.
    let corner = ints([4, 4, 1], [5, 5, 2]);
    let c = contacts(&corner, &b);
    assert_eq!(c.status, ContactStatus::Touching);
    assert_eq!(c.regions.len(), 1);
    assert!(matches!((&c.regions[0].a, &c.regions[0].b), (Feature::Vertex(_), Feature::Vertex(_))));
}

/// Solids as one: their vertices and faces side by side (several shells).
fn shells(parts: &[Solid<Q>]) -> Solid<Q> {
    let (mut vertices, mut faces) = (Vec::new(), Vec::new());
    for s in parts {
        let base = vertices.len();
        vertices.extend(s.vertices().iter().cloned());
        faces.extend(s.faces().iter().map(|f| f.iter().map(|v| v + base).collect::<Vec<usize>>()));
    }
    Solid::new(vertices, faces).unwrap()
}

fn hull(points: &[[i64; 3]]) -> Solid<Q> {
    let pts: Vec<Point3<Q>> = points.iter().map(|&[x, y, z]| point(x, y, z)).collect();
    touchstone::brep::convex_hull(&pts).unwrap().solid
}

/// 1992 Fig. 3 as we build it (the seed text has no pictures): three feet touch a slab's top
/// separately: a block's bottom face inside the top face, a prism's apex edge along the top's
/// edge x = 10 (its faces rising off both sides), a pyramid's apex on the top's edge y = 0. I_t
/// has 13 regions (the paper's figure has 16; the parity of a polygon's sides and corners says
/// its 1D region shares an end with its 2D one, which ours do not), and the three named by the
/// paper contain the other ten in their borders: the 2D face-on-face region (with its four
/// edge-on-face sides and four vertex-on-face corners), the 1D edge-on-edge region (with its
/// two vertex-on-edge ends) and the 0D vertex-on-edge region. R_t is exactly those three.
#[test]
fn fig3_three_regions_contain_the_others() {
    let slab = ints([0, 0, -2], [10, 10, 0]);
    let block = ints([1, 1, 0], [3, 3, 3]);
    let prism = hull(&[[10, 4, 0], [10, 6, 0], [9, 4, 3], [11, 4, 3], [9, 6, 3], [11, 6, 3]]);
    let pyramid = hull(&[[5, 0, 0], [4, -1, 3], [6, -1, 3], [6, 1, 3], [4, 1, 3]]);
    let feet = shells(&[block, prism, pyramid]);
    let c = contacts(&feet, &slab);
    assert_eq!(c.status, ContactStatus::Touching);
    assert_eq!(c.regions.len(), 13, "{:?}", c.regions);
    assert_eq!(dims(&c.regions), [7, 5, 1]);
    let r = kept(&c);
    assert_eq!(r.len(), 3, "{r:?}");
    let kinds: Vec<(u8, bool, bool)> =
        r.iter().map(|x| (x.dim, matches!(x.a, Feature::Vertex(_)), matches!(x.b, Feature::Edge(..)))).collect();
    // 2D face on face, 1D edge on edge, 0D vertex on edge.
    assert_eq!(kinds, vec![(2, false, false), (1, false, true), (0, true, true)]);
    assert!(matches!((&r[0].a, &r[0].b), (Feature::Face(_), Feature::Face(_))));
    assert!(matches!(r[1].a, Feature::Edge(..)));
    assert_eq!(r[1].points.iter().map(|p| p.y.clone()).collect::<Vec<_>>().len(), 2);
    assert_eq!(r[2].points, vec![point(5, 0, 0)]);
    // Every other region lies in the border of one of the three: on the block's footprint's
    // boundary or at the prism's apex edge's ends.
    for x in c.regions.iter().filter(|x| !r.iter().any(|y| y == x)) {
        for p in &x.points {
            let on_square = p.z == q(0)
                && (q(1)..=q(3)).contains(&p.x)
                && (q(1)..=q(3)).contains(&p.y)
                && (p.x == q(1) || p.x == q(3) || p.y == q(1) || p.y == q(3));
            let on_edge_end = *p == point(10, 4, 0) || *p == point(10, 6, 0);
            assert!(on_square || on_edge_end, "{x:?}");
        }
    }
}

/// The second solid of 1992 Figs. 5–6 as we read them (the seed text has no pictures): a floor
/// f₁ (z = 0) with a wall f₂ (y = 0, facing +y) for x ≤ 0 and, for x ≥ 0, an overhang whose
/// underside f₃ rises from the floor line y = z = 0 through (0, c, 3): at angle α = atan(3/c)
/// from the floor, leaning over the free space in front of the wall's plane. f₁, f₂, f₃ and the
/// overhang's end (a triangle at x = 0) meet at p = (0, 0, 0), a vertex that is not convex.
fn corner_with_overhang(c: i64) -> Solid<Q> {
    let pts = [
        // x = −4: the wall's profile.
        [-4, -1, -1],
        [-4, 4, -1],
        [-4, 4, 0],
        [-4, 0, 0],
        [-4, 0, 3],
        [-4, -1, 3],
        // x = 4: the overhang's profile.
        [4, -1, -1],
        [4, 4, -1],
        [4, 4, 0],
        [4, 0, 0],
        [4, c, 3],
        [4, -1, 3],
        // x = 0: p, the wall's top front corner, the overhang's.
        [0, 0, 0],
        [0, 0, 3],
        [0, c, 3],
    ];
    let vertices = pts.iter().map(|&[x, y, z]| Point3::new(q(x), q(y), q(z))).collect();
    let faces = vec![
        vec![0, 1, 2, 3, 4, 5],     // x = −4
        vec![6, 11, 10, 9, 8, 7],   // x = 4
        vec![0, 6, 7, 1],           // bottom
        vec![0, 5, 11, 6],          // back
        vec![1, 7, 8, 2],           // the slab's front
        vec![2, 8, 9, 12, 3],       // f₁, the floor
        vec![3, 12, 13, 4],         // f₂, the wall
        vec![12, 9, 10, 14],        // f₃, the overhang's underside
        vec![12, 14, 13],           // the overhang's end at x = 0
        vec![5, 4, 13, 14, 10, 11], // the top
    ];
    // Listed clockwise from outside; the solid wants them counterclockwise.
    Solid::new(vertices, faces.into_iter().map(|f: Vec<usize>| f.into_iter().rev().collect()).collect()).unwrap()
}

/// The tetrahedron p = (0, 0, 0), (−2, 0, 0), (−1, 2, 0), (−1, d, h): its bottom on z = 0, its
/// back edge along the x axis, its back face at angle atan(h/d) from the floor.
fn tetrahedron_in_the_corner(d: i64, h: i64) -> Solid<Q> {
    Solid::new(
        vec![point(0, 0, 0), point(-2, 0, 0), point(-1, 2, 0), point(-1, d, h)],
        vec![vec![0, 1, 2], vec![0, 3, 1], vec![1, 3, 2], vec![0, 2, 3]],
    )
    .unwrap()
}

/// 1992 Figs. 5–6: a tetrahedron stands on f₁ with its back edge along the wall's foot (the
/// reflex edge f₁/f₂), its back face leaning away from the wall at angle β = atan(h/d) (so it
/// does not touch f₂), its vertex at p. R_t holds the 2D region on f₁, the 1D region on the
/// reflex edge, and the 0D region at p exactly when sliding along the edge would take the
/// tetrahedron's wedge into the overhang: α < β. At α = β the back face would slide flush along
/// f₃ (a touching, no penetration): nothing of positive volume is left, and Eq. (3) does not
/// need the region. Without the paper's h₁ ∪ h₄ for the 1D region (see `contact::left`), the
/// overhang's part in front of the wall's plane would keep the 0D region on both sides.
#[test]
fn figs5_6_the_vertex_region_is_needed_exactly_when_alpha_is_below_beta() {
    // α = 45° (c = 3); β = atan(1/2), 45°, atan 2.
    let b = corner_with_overhang(3);
    for ((d, h), needed) in [((2, 1), false), ((1, 1), false), ((1, 2), true)] {
        let a = tetrahedron_in_the_corner(d, h);
        let c = contacts(&a, &b);
        assert_eq!(c.status, ContactStatus::Touching, "β = atan({h}/{d})");
        // I_t: the bottom on f₁; the back edge on the reflex edge, the other bottom edges on
        // f₁; p on p, the back edge's other end on the reflex edge, the third corner on f₁.
        assert_eq!(dims(&c.regions), [3, 3, 1], "β = atan({h}/{d}): {:?}", c.regions);
        let r = kept(&c);
        let at_p = r.iter().any(|x| x.dim == 0);
        assert_eq!(at_p, needed, "β = atan({h}/{d}): {r:?}");
        assert_eq!(dims(&c.contacts.iter().map(|k| k.region.clone()).collect::<Vec<_>>()), [needed as usize, 1, 1]);
        let one = r.iter().find(|x| x.dim == 1).unwrap();
        assert!(matches!((&one.a, &one.b), (Feature::Edge(..), Feature::Edge(..))));
        if needed {
            let zero = r.iter().find(|x| x.dim == 0).unwrap();
            assert_eq!((&zero.a, &zero.b), (&Feature::Vertex(0), &Feature::Vertex(12)));
        }
    }
    // The boundary moved: with the overhang at α = atan(3/2) ≈ 56°, β = atan 2 ≈ 63° still
    // needs it and β = 45° does not.
    let b = corner_with_overhang(2);
    for ((d, h), needed) in [((1, 1), false), ((1, 2), true)] {
        let a = tetrahedron_in_the_corner(d, h);
        let c = contacts(&a, &b);
        assert_eq!(kept(&c).iter().any(|x| x.dim == 0), needed, "α = atan(3/2), β = atan({h}/{d})");
    }
}

/// 1992 Fig. 4: a block resting on a floor has nine regions (its bottom face, four edges and
/// four vertices on the floor) and needs only the face-on-face one; sliding to the foot of a
/// ramp, its front bottom edge lies on the floor's reflex edge with the ramp, an edge-on-edge
/// region adjacent to the 2D one that is needed too.
#[test]
fn fig4_a_block_slides_to_a_protrusion() {
    // The floor with a ramp: the profile in (x, z), extruded along y ∈ [0, 4].
    let profile = [(0, 0), (8, 0), (8, 2), (6, 2), (4, 1), (0, 1)];
    let floor_xz: Vec<Point3<Q>> = profile.iter().map(|&(x, z)| point(x, 0, z)).collect();
    let mut vertices = floor_xz.clone();
    vertices.extend(profile.iter().map(|&(x, z)| point(x, 4, z)));
    let n = profile.len();
    // Seen from −y the profile runs counterclockwise in (x, z): that face's normal is −y.
    let mut faces = vec![(0..n).collect::<Vec<_>>(), (n..2 * n).rev().collect()];
    for i in 0..n {
        let j = (i + 1) % n;
        faces.push(vec![i, n + i, n + j, j]);
    }
    let floor = Solid::new(vertices, faces).unwrap();
    // (a) Away from the ramp.
    let block = ints([1, 1, 1], [2, 3, 2]);
    let c = contacts(&block, &floor);
    assert_eq!(c.status, ContactStatus::Touching);
    assert_eq!(c.regions.len(), 9, "{:#?}", c.regions);
    assert_eq!(dims(&c.regions), [4, 4, 1]);
    assert_eq!(kept(&c).len(), 1);
    assert_eq!(kept(&c)[0].dim, 2);
    // (b) At the ramp's foot (x = 4): its front bottom edge on the reflex edge.
    let block = ints([3, 1, 1], [4, 3, 2]);
    let c = contacts(&block, &floor);
    assert_eq!(c.status, ContactStatus::Touching);
    assert_eq!(c.regions.len(), 9, "{:#?}", c.regions);
    let k = kept(&c);
    assert_eq!(k.len(), 2, "{k:#?}");
    assert_eq!(dims(&k.iter().map(|r| (*r).clone()).collect::<Vec<_>>()), [0, 1, 1]);
    let edge = k.iter().find(|r| r.dim == 1).unwrap();
    assert!(matches!((&edge.a, &edge.b), (Feature::Edge(..), Feature::Edge(..))), "{edge:?}");
    assert_eq!(edge.points, vec![point(4, 1, 1), point(4, 3, 1)]);
    // Its normals: the reflex edge's two faces (the floor's and the ramp's), out of the floor.
    let normals = &c.contacts.iter().find(|k| k.region.dim == 1).unwrap().normals;
    assert_eq!(normals.len(), 2);
    assert!(normals.iter().any(|n| n.x == q(0) && n.z > q(0)), "{normals:?}");
    assert!(normals.iter().any(|n| n.x < q(0) && n.z > q(0)), "{normals:?}");
}

/// A block held in the U's notch, touching the notch's floor and both walls: three
/// face-on-face regions; its bottom edges lie along the notch's reflex edges, and those
/// edge-on-edge regions are implied by the faces on both sides (not in R_t).
#[test]
fn a_u_holds_a_block() {
    let u = shapes::u_shape::<Q>();
    let block = aabb([q(1), q(1), ratio(1, 4)], [q(2), q(2), ratio(3, 4)]);
    let c = contacts(&block, &u);
    assert_eq!(c.status, ContactStatus::Touching);
    let k = kept(&c);
    assert_eq!(k.len(), 3, "{k:#?}");
    assert!(k.iter().all(|r| r.dim == 2));
    // The normals are the notch's faces' (out of the U toward the block): +y, +x, −x.
    let mut normals: Vec<Vector3<Q>> = c.contacts.iter().flat_map(|k| k.normals.clone()).collect();
    normals.sort_by(|a, b| a.iter().cmp(b.iter()));
    let unit: Vec<Vector3<Q>> = normals.iter().map(|n| n / n.iter().map(|c| c.abs()).max().unwrap()).collect();
    assert_eq!(unit, vec![v(-1, 0, 0), v(0, 1, 0), v(1, 0, 0)]);
    // The regions on the reflex edges are in I_t.
    assert!(c.regions.iter().any(|r| r.dim == 1 && matches!((&r.a, &r.b), (Feature::Edge(..), Feature::Edge(..)))));
}

/// 1992 Fig. 8: a block sliding over a two-finger support. With knife-edge fingers under its
/// bottom face, the contacts are edge-on-face (normal: the face's, up). When its bottom edge
/// reaches a finger's edge, the collinear edge-on-edge contact has an indeterminate normal;
/// from local geometry it is the finger's bisector (tilted here), but a previous contact of the
/// face with that finger makes it keep the coherent normal (Condition (7)).
#[test]
fn fig8_two_finger_support_keeps_the_coherent_normal() {
    // A finger: a prism along y over the profile (0, 0), (5, 0), (5, 1), (2, 2) in (x, z),
    // its ridge at x = 2, z = 2 between faces sloping 1 : 1 and 1 : 3.
    let profile = [(0, 0), (5, 0), (5, 1), (2, 2)];
    let mut vertices: Vec<Point3<Q>> = profile.iter().map(|&(x, z)| point(x, 0, z)).collect();
    vertices.extend(profile.iter().map(|&(x, z)| point(x, 4, z)));
    let mut faces = vec![vec![0, 1, 2, 3], vec![7, 6, 5, 4]];
    for i in 0..4 {
        let j = (i + 1) % 4;
        faces.push(vec![i, 4 + i, 4 + j, j]);
    }
    let left = Solid::new(vertices, faces).unwrap();
    // (t − Δt) The block's bottom face rests on the left finger's ridge, away from its edges.
    let block = |x0: i64| ints([x0, 1, 2], [x0 + 4, 3, 3]);
    let before = contacts(&block(0), &left);
    assert_eq!(before.status, ContactStatus::Touching);
    let face_edge = before.contacts.iter().find(|k| k.region.dim == 1).unwrap();
    assert!(matches!((&face_edge.region.a, &face_edge.region.b), (Feature::Face(_), Feature::Edge(..))));
    let up = |n: &Vector3<Q>| n.cross(&v(0, 0, 1)) == v(0, 0, 0) && n.z > q(0);
    assert!(face_edge.normals.len() == 1 && up(&face_edge.normals[0]), "{:?}", face_edge.normals);
    // (t) The block has slid to x0 = 2: its bottom-left edge on the ridge.
    let now = block(2);
    let local = contacts(&now, &left);
    let ee = local.contacts.iter().find(|k| k.region.dim == 1).unwrap();
    assert!(matches!((&ee.region.a, &ee.region.b), (Feature::Edge(..), Feature::Edge(..))), "{ee:?}");
    assert_eq!(ee.source, NormalSource::New);
    assert_ne!(ee.normals[0].cross(&v(0, 0, 1)), v(0, 0, 0), "the bisector is tilted: {:?}", ee.normals);
    let previous = vec![Previous {
        a: face_edge.region.a.clone(),
        b: face_edge.region.b.clone(),
        normals: face_edge.normals.clone(),
    }];
    let coherent = find_contacts(&now, &left, &ContactOptions { previous, ..ContactOptions::default() }).unwrap();
    let ee = coherent.contacts.iter().find(|k| k.region.dim == 1).unwrap();
    assert_eq!(ee.source, NormalSource::Shrunk);
    assert_eq!(ee.normals, face_edge.normals);
    // The same pair again at the next step persists (Condition (6)).
    let again = vec![Previous { a: ee.region.a.clone(), b: ee.region.b.clone(), normals: ee.normals.clone() }];
    let next = find_contacts(&now, &left, &ContactOptions { previous: again, ..ContactOptions::default() }).unwrap();
    assert_eq!(next.contacts.iter().find(|k| k.region.dim == 1).unwrap().source, NormalSource::Persisted);
}

/// Back-face culling (Eqs. 12–13): a block resting on a floor and lifting off has every
/// region culled (its bottom face moves into itself relative to the floor); sliding sideways,
/// nothing is culled; the status is the geometry's either way.
#[test]
fn culling_by_relative_velocity() {
    let floor = ints([0, 0, 0], [4, 4, 1]);
    let block = ints([1, 1, 1], [2, 2, 2]);
    let still = Motion { linear: v(0, 0, 0), angular: v(0, 0, 0), center: point(0, 0, 0) };
    let moving = |lin: Vector3<Q>| Motion { linear: lin, angular: v(0, 0, 0), center: point(0, 0, 0) };
    let with = |m: Motion<Q>| {
        find_contacts(
            &block,
            &floor,
            &ContactOptions { motions: Some((m, still.clone())), ..ContactOptions::default() },
        )
        .unwrap()
    };
    let lifting = with(moving(v(0, 0, 1)));
    assert_eq!(lifting.status, ContactStatus::Touching);
    assert_eq!(lifting.culled.len(), lifting.regions.len());
    assert!(lifting.contacts.is_empty());
    let sliding = with(moving(v(1, 0, 0)));
    assert!(sliding.culled.is_empty());
    assert_eq!(sliding.contacts.len(), 1);
    // Spinning about the vertical axis through the block's centre: the bottom face slides,
    // nothing is culled.
    let spin = Motion { linear: v(0, 0, 0), angular: v(0, 0, 1), center: Point3::new(ratio(3, 2), ratio(3, 2), q(1)) };
    assert!(with(spin).culled.is_empty());
}

/// The exact overlap of two convex polygons in one plane (counterclockwise, z = const), by
/// clipping one with each half-plane of the other (Sutherland–Hodgman), exact.
fn overlap(subject: &[Point3<Q>], clip: &[Point3<Q>]) -> Vec<Point3<Q>> {
    let mut out: Vec<Point3<Q>> = subject.to_vec();
    for k in 0..clip.len() {
        let (a, b) = (&clip[k], &clip[(k + 1) % clip.len()]);
        let side = |p: &Point3<Q>| {
            (b.x.clone() - a.x.clone()) * (p.y.clone() - a.y.clone())
                - (b.y.clone() - a.y.clone()) * (p.x.clone() - a.x.clone())
        };
        let input = std::mem::take(&mut out);
        for i in 0..input.len() {
            let (p, r) = (&input[i], &input[(i + 1) % input.len()]);
            let (sp, sr) = (side(p), side(r));
            if sp >= q(0) {
                out.push(p.clone());
            }
            if (sp > q(0) && sr < q(0)) || (sp < q(0) && sr > q(0)) {
                let t = sp.clone() / (sp - sr);
                out.push(p + (r - p) * t);
            }
        }
    }
    // Drop repeated and collinear points.
    let mut clean: Vec<Point3<Q>> = Vec::new();
    for p in out {
        if clean.last() != Some(&p) && clean.first() != Some(&p) {
            clean.push(p);
        }
    }
    loop {
        let n = clean.len();
        let Some(k) = (0..n).find(|&k| {
            let (a, b, c) = (&clean[(k + n - 1) % n], &clean[k], &clean[(k + 1) % n]);
            (b - a).cross(&(c - b)) == v(0, 0, 0)
        }) else {
            break;
        };
        clean.remove(k);
    }
    clean
}

/// The same cyclic sequence, up to the starting point.
fn same_loop(x: &[Point3<Q>], y: &[Point3<Q>]) -> bool {
    x.len() == y.len() && (0..y.len()).any(|s| (0..x.len()).all(|i| x[i] == y[(i + s) % y.len()]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A box resting on a box, turned about the vertical (the contact normal) by an exact
    /// rational rotation and shifted on a grid: one face-on-face region in R_t, whose polygon is
    /// exactly the overlap of the two faces (computed independently), with b's top normal.
    #[test]
    fn a_turned_box_resting_on_a_box(
        (c, s) in prop_oneof![Just((1i64, 0i64)), Just((3, 4)), Just((4, 3)), Just((5, 12)), Just((12, 5)), Just((0, 1)), Just((8, 15))],
        half in (1i64..4, 1i64..4),
        shift in (-6i64..7, -6i64..7),
    ) {
        // The rotation by (c, s)/r about z, r² = c² + s²: quaternion (r + c, 0, 0, s).
        let r = ((c * c + s * s) as f64).sqrt() as i64;
        let turn = Affine::from_quaternion(&[q(r + c), q(0), q(0), q(s)], Vector3::new(ratio(shift.0, 2), ratio(shift.1, 2), q(2))).unwrap();
        let top = shapes::cuboid(q(half.0), q(half.1), q(1)).unwrap().transformed(&turn).unwrap();
        let base = ints([-3, -3, 0], [3, 3, 1]);
        let found = contacts(&top, &base);
        let bottom = face_along(&top, v(0, 0, -1));
        let up = face_along(&base, v(0, 0, 1));
        let ring = |s: &Solid<Q>, f: usize| -> Vec<Point3<Q>> { s.face(f).iter().map(|&i| s.vertex(i).clone()).collect() };
        // Both counterclockwise seen from above (the top box's bottom face runs clockwise).
        let mut sub = ring(&top, bottom);
        sub.reverse();
        let expect = overlap(&sub, &ring(&base, up));
        if expect.len() < 3 {
            prop_assert!(found.status != ContactStatus::Penetrating);
            return Ok(());
        }
        prop_assert_eq!(found.status, ContactStatus::Touching);
        let faces: Vec<&Region<Q>> = kept(&found).into_iter().filter(|r| r.dim == 2).collect();
        prop_assert_eq!(faces.len(), 1, "{:#?}", found.contacts);
        prop_assert_eq!(&faces[0].b, &Feature::Face(up));
        // Counterclockwise seen from outside the top box's bottom face: from below.
        let mut got = faces[0].points.clone();
        got.reverse();
        prop_assert!(same_loop(&got, &expect), "{:?}\n{:?}", got, expect);
        prop_assert!(faces[0].holes.is_empty());
        let k = found.contacts.iter().find(|k| k.region.dim == 2).unwrap();
        prop_assert_eq!(k.normals.len(), 1);
        prop_assert_eq!(k.normals[0].cross(&v(0, 0, 1)), v(0, 0, 0));
        prop_assert!(k.normals[0].z > q(0));
    }
}

/// The solids the symmetric property draws from: boxes on the half grid, the U, the L, a
/// tetrahedron.
fn solid_of(k: u8, h: [i64; 3]) -> Solid<Q> {
    match k % 5 {
        0 | 1 => shapes::cuboid(ratio(h[0], 2), ratio(h[1], 2), ratio(h[2], 2)).unwrap(),
        2 => shapes::u_shape(),
        3 => shapes::l_shape(),
        _ => shapes::tetrahedron(),
    }
}

/// A pair of solids placed on the half grid, b under a quarter turn about z or not: faces
/// touch, edges run along edges and vertices land on features by chance.
fn placed_pair() -> impl Strategy<Value = (Solid<Q>, Solid<Q>)> {
    (
        any::<u8>(),
        any::<u8>(),
        [1i64..5, 1i64..5, 1i64..5],
        [1i64..5, 1i64..5, 1i64..5],
        [-6i64..7, -6i64..7, -6i64..7],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(ka, kb, ha, hb, t, turn, rest)| {
            let a = solid_of(ka, ha);
            let quat = if turn { [q(1), q(0), q(0), q(1)] } else { [q(1), q(0), q(0), q(0)] };
            let map =
                Affine::from_quaternion(&quat, Vector3::new(ratio(t[0], 2), ratio(t[1], 2), ratio(t[2], 2))).unwrap();
            let mut b = solid_of(kb, hb).transformed(&map).unwrap();
            if rest {
                // Resting on a's highest level: touching (or nothing in common below it).
                let top = a.vertices().iter().map(|p| p.z.clone()).max().unwrap();
                let bottom = b.vertices().iter().map(|p| p.z.clone()).min().unwrap();
                b = b.transformed(&Affine::translation(Vector3::new(q(0), q(0), top - bottom))).unwrap();
            }
            (a, b)
        })
}

/// A region's point set, as a sorted list (the loops as vertex sets).
fn point_set(r: &Region<Q>) -> Vec<Point3<Q>> {
    let mut p: Vec<Point3<Q>> = r.points.iter().chain(r.holes.iter().flatten()).cloned().collect();
    p.sort_by(|x, y| x.iter().cmp(y.iter()));
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// (About a third touch, half of them resting one on the other by construction, a tenth
    /// penetrate.) The intersection computed from a's boundary through b's index equals the one computed
    /// from b's boundary through a's index, pair for pair with the entities swapped, with the
    /// same point sets; the status is the same both ways; and for two convex solids it is
    /// V-Clip's (an independent route: separated, touching, penetrating).
    #[test]
    fn the_intersection_is_the_same_from_either_side((a, b) in placed_pair()) {
        let ab = contacts(&a, &b);
        let ba = contacts(&b, &a);
        prop_assert_eq!(ab.status, ba.status);
        let key = |x: &Feature, y: &Feature, r: &Region<Q>| (format!("{x:?}"), format!("{y:?}"), r.dim, point_set(r));
        let mut from_a: Vec<_> = ab.regions.iter().map(|r| key(&r.a, &r.b, r)).collect();
        let mut from_b: Vec<_> = ba.regions.iter().map(|r| key(&r.b, &r.a, r)).collect();
        from_a.sort_by(|x, y| (&x.0, &x.1, x.2).cmp(&(&y.0, &y.1, y.2)).then_with(|| x.3.iter().map(|p| p.iter().cloned().collect::<Vec<_>>()).cmp(y.3.iter().map(|p| p.iter().cloned().collect::<Vec<_>>()))));
        from_b.sort_by(|x, y| (&x.0, &x.1, x.2).cmp(&(&y.0, &y.1, y.2)).then_with(|| x.3.iter().map(|p| p.iter().cloned().collect::<Vec<_>>()).cmp(y.3.iter().map(|p| p.iter().cloned().collect::<Vec<_>>()))));
        prop_assert_eq!(&from_a, &from_b);
        if a.is_convex().unwrap() && b.is_convex().unwrap() {
            let r = touchstone::vclip::vclip(&a, &b, None).unwrap();
            let expect = match r.closest.status {
                touchstone::vclip::Status::Separated => ContactStatus::Separate,
                touchstone::vclip::Status::Touching => ContactStatus::Touching,
                touchstone::vclip::Status::Penetrating => ContactStatus::Penetrating,
            };
            prop_assert_eq!(ab.status, expect);
        }
    }
}

/// Issue 40: `contact` on the interval backend routes by capability. Intervals decide with
/// certainty, so they take the set-theoretic analysis (not the 1990 pipeline with its ε, as
/// they did when the route tested exact values): the answer is the exact one (status, regions
/// with their features and dimensions, no ε) with every point an enclosure of the exact point,
/// or an `uncertain` error.
#[test]
fn contact_on_intervals_is_the_exact_answer_or_uncertain() {
    contact_on_a_filter::<touchstone::scalar::Interval>();
}

/// The same on values with bounds (the filtered path's first stage).
#[test]
fn contact_on_values_with_bounds_is_the_exact_answer_or_uncertain() {
    contact_on_a_filter::<touchstone::scalar::MidRad>();
}

fn contact_on_a_filter<F: touchstone::poly::FilterScalar>() {
    use touchstone::query::{Contact, ErrorKind, PoseSpec, Posed, Query, ShapeSpec};
    let cube = || ShapeSpec::cuboid([1, 1, 1].map(q)).unwrap();
    let pose = |quat: [i64; 4], t: [Q; 3]| PoseSpec::quaternion(quat.map(q), t).unwrap();
    let half = |n: i64| Q::new(n.into(), 2.into());
    let cases = [
        // On top, shifted by half a side: one face-on-face region (exact doubles: decided).
        (pose([1, 0, 0, 0], [half(1), q(0), q(2)]), 1),
        // Overlapping by a quarter, turned by the rational quaternion (1, 2, 3, 4).
        (pose([1, 2, 3, 4], [half(3), half(1), half(1)]), 0),
        // Overlapping, axis aligned.
        (pose([1, 0, 0, 0], [half(3), q(0), q(0)]), 0),
        // Apart.
        (pose([2, 1, 0, 0], [q(5), q(0), q(0)]), 0),
        // Edge on face, turned a quarter about z (exactly on the face: uncertain or exact).
        (pose([1, 0, 0, 1], [q(0), q(0), q(2)]), 0),
    ];
    let mut decided = 0;
    for (k, (pose_b, _)) in cases.into_iter().enumerate() {
        let query = Contact {
            a: Posed::new("a", cube(), PoseSpec::identity()),
            b: Posed::new("b", cube(), pose_b),
            velocity_a: None,
            velocity_b: None,
            previous: Vec::new(),
            epsilon: None,
            step: None,
        };
        let exact = query.answer::<Q>().unwrap().output;
        match query.answer::<F>() {
            Err(e) => assert_eq!(e.kind, ErrorKind::Uncertain, "case {k}: {e:?}"),
            Ok(a) => {
                decided += 1;
                let o = a.output;
                assert_eq!(
                    (o.status, o.intersection, o.culled),
                    (exact.status, exact.intersection, exact.culled),
                    "case {k}"
                );
                assert!(o.epsilon.is_none(), "case {k}: the interval run took the ε pipeline");
                assert_eq!(o.regions.len(), exact.regions.len(), "case {k}");
                for (r, e) in o.regions.iter().zip(&exact.regions) {
                    assert_eq!((&r.a, &r.b, r.dim, r.points.len()), (&e.a, &e.b, e.dim, e.points.len()), "case {k}");
                    for (p, x) in r.points.iter().zip(&e.points) {
                        for i in 0..3 {
                            let e = p[i].enclosure();
                            let (lo, hi) = (Q::from_float(e.lo()).unwrap(), Q::from_float(e.hi()).unwrap());
                            assert!(lo <= x[i] && x[i] <= hi, "case {k}: {} does not enclose {}", p[i], x[i]);
                        }
                    }
                }
            }
        }
    }
    // Not every case may fall back: the generic ones decide.
    assert!(decided >= 3, "only {decided} of 5 decided");
}
