//! The `f64` contact pipeline of Vaněček 1990 (§3–4): the ε rules for the status, contact
//! points and their clusters reduced by priority (Fig. 7: the apex of a cone penetrating a face
//! near an edge), the tangent planes, the collision-time estimate; and the agreement contract
//! between it and the exact contact analysis on configurations touching, apart and
//! penetrating by exact multiples of ε.

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::{convex_hull, shapes, Feature, Solid};
use touchstone::contact::{find_contacts_within, ContactStatus, Motion, TolerantContacts, TolerantOptions};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::query::{both, Contact, PoseSpec, Posed, ShapeSpec};
use touchstone::scalar::Scalar;

/// ε = 2⁻²⁰: its multiples by small dyadic numbers are exact in binary64.
const EPS: f64 = 1.0 / (1u64 << 20) as f64;

fn p(x: f64, y: f64, z: f64) -> Point3<f64> {
    Point3::new(x, y, z)
}

/// The axis-aligned box [lo, hi] in binary64.
fn aabb(lo: [f64; 3], hi: [f64; 3]) -> Solid<f64> {
    let h = [0, 1, 2].map(|i| (hi[i] - lo[i]) / 2.0);
    let c = Vector3::from_fn(|i, _| (hi[i] + lo[i]) / 2.0);
    shapes::cuboid(h[0], h[1], h[2]).unwrap().transformed(&Affine::translation(c)).unwrap()
}

fn within(a: &Solid<f64>, b: &Solid<f64>) -> TolerantContacts<f64> {
    find_contacts_within(a, b, &TolerantOptions { epsilon: EPS, motions: None }).unwrap()
}

/// The face of `s` whose outward normal points along +z.
fn top_face(s: &Solid<f64>) -> usize {
    (0..s.face_count()).find(|&f| s.plane(f).normal.z > 0.0 && s.plane(f).normal.x == 0.0).unwrap()
}

/// 1990 Fig. 7: a cone's apex v penetrates face f₁ of a block to a depth just under ε, 2ε from
/// the block's edge e₅, at a steep incline, so that the cone's four edges pass within ε of e₅
/// too. Five contact points (v/f₁ and e₁…e₄/e₅; the paper's sixth, v/e₅, came from its tree's
/// ε-slabs, and v is 2.2ε from e₅ here), all closer than 4ε: one cluster, reduced to the
/// vertex/face contact with f₁'s normal as the tangent plane's.
#[test]
fn fig7_1990_a_cone_apex_cluster_reduces_to_one_vertex_face_contact() {
    let block = aabb([-10.0, -10.0, -10.0], [0.0, 10.0, 0.0]);
    let apex = p(-2.0 * EPS, 0.0, -0.875 * EPS);
    let dirs = [(0.25, 0.125), (0.25, 0.75), (-0.25, 0.75), (-0.25, 0.125)];
    let mut pts = vec![apex];
    for (y, z) in dirs {
        pts.push(p(apex.x + 8.0, apex.y + 8.0 * y, apex.z + 8.0 * z));
    }
    let cone = convex_hull(&pts).unwrap().solid;
    assert_eq!((cone.vertex_count(), cone.edge_count(), cone.face_count()), (5, 8, 5));
    let v = (0..5).find(|&i| cone.vertex(i) == &apex).unwrap();
    let c = within(&cone, &block);
    assert_eq!(c.status, ContactStatus::Touching);
    let f1 = top_face(&block);
    let e5 = block.edges().iter().copied().find(|&(u, w)| {
        let (a, b) = (block.vertex(u), block.vertex(w));
        a.x == 0.0 && b.x == 0.0 && a.z == 0.0 && b.z == 0.0
    });
    let e5 = e5.map(|(u, w)| Feature::Edge(u, w)).unwrap();
    let mut kinds: Vec<(Feature, Feature)> = c.points.iter().map(|k| (k.a.clone(), k.b.clone())).collect();
    kinds.sort_by_key(|k| format!("{k:?}"));
    assert_eq!(c.points.len(), 5, "{kinds:?}");
    assert!(c.points.iter().any(|k| k.a == Feature::Vertex(v) && k.b == Feature::Face(f1)));
    assert_eq!(c.points.iter().filter(|k| matches!(k.a, Feature::Edge(..)) && k.b == e5).count(), 4);
    // Every two points closer than 4ε.
    for x in &c.points {
        for y in &c.points {
            assert!((x.point - y.point).norm() < 4.0 * EPS);
        }
    }
    assert_eq!(c.contacts.len(), 1);
    let k = &c.contacts[0];
    assert_eq!((k.contact.a.clone(), k.contact.b.clone(), k.cluster), (Feature::Vertex(v), Feature::Face(f1), 5));
    assert_eq!(k.normal.cross(&Vector3::z()), Vector3::zeros());
    assert!(k.normal.z > 0.0);
}

/// The ε rules: a gap of ε/2 touches and of 2ε is apart; a depth of ε/2 touches and of 2ε
/// penetrates; two coinciding boxes penetrate (their faces lie on each other the same way up,
/// no vertex is inside); two slabs crossing in a plus sign with their tops in one plane
/// penetrate (no vertex inside either, edges lying on the other's top face).
#[test]
fn status_by_the_epsilon_rules() {
    let base = aabb([0.0, 0.0, 0.0], [4.0, 4.0, 1.0]);
    let on = |dz: f64| aabb([1.0, 1.0, 1.0 + dz], [2.0, 3.0, 2.0 + dz]);
    assert_eq!(within(&on(0.5 * EPS), &base).status, ContactStatus::Touching);
    assert_eq!(within(&on(2.0 * EPS), &base).status, ContactStatus::Separate);
    assert_eq!(within(&on(-0.5 * EPS), &base).status, ContactStatus::Touching);
    assert_eq!(within(&on(-2.0 * EPS), &base).status, ContactStatus::Penetrating);
    assert_eq!(within(&on(0.0), &base).status, ContactStatus::Touching);
    assert_eq!(within(&base, &base).status, ContactStatus::Penetrating);
    let x = aabb([-3.0, -1.0, 0.0], [3.0, 1.0, 1.0]);
    let y = aabb([-1.0, -3.0, 0.0], [1.0, 3.0, 1.0]);
    assert_eq!(within(&x, &y).status, ContactStatus::Penetrating);
    // Side by side with the tops in one plane: touching.
    let z = aabb([3.0, -1.0, 0.0], [5.0, 1.0, 1.0]);
    assert_eq!(within(&x, &z).status, ContactStatus::Touching);
}

/// The tangent planes of §4, out of b toward a: vertex/face, b's face normal; two edges
/// crossing, their cross product (a pair of crossed bars one on the other); collinear edges,
/// perpendicular to the edge and between the two solids.
#[test]
fn tangent_planes() {
    // Crossed bars: b along y turned 45° about y (its top an edge along y at z = √2/2), a
    // along x turned 45° about x and lifted by √2 (its bottom an edge along x): they cross at
    // one point, and the normal is ±(x × y), oriented out of b: +z.
    let (c8, s8) = ((std::f64::consts::PI / 8.0).cos(), (std::f64::consts::PI / 8.0).sin());
    let b = shapes::cuboid(0.5, 3.0, 0.5)
        .unwrap()
        .transformed(&Affine::from_quaternion(&[c8, 0.0, s8, 0.0], Vector3::zeros()).unwrap())
        .unwrap();
    let lift = Vector3::new(0.0, 0.0, std::f64::consts::SQRT_2);
    let a = shapes::cuboid(3.0, 0.5, 0.5)
        .unwrap()
        .transformed(&Affine::from_quaternion(&[c8, s8, 0.0, 0.0], lift).unwrap())
        .unwrap();
    let c = within(&a, &b);
    assert_eq!(c.status, ContactStatus::Touching, "{:?}", c.points);
    assert_eq!(c.contacts.len(), 1, "{:?}", c.contacts);
    let k = &c.contacts[0];
    assert!(matches!((&k.contact.a, &k.contact.b), (Feature::Edge(..), Feature::Edge(..))));
    assert!(!k.contact.collinear);
    assert!(k.normal.x.abs() < 1e-9 * k.normal.z && k.normal.y.abs() < 1e-9 * k.normal.z, "{:?}", k.normal);
    assert!(k.normal.z > 0.0);
    // Collinear: two unit cubes edge to edge along y (a up and to the right of b): the
    // normal is perpendicular to y and points from b toward a.
    let cube = aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
    let diag = aabb([1.0, 0.0, 1.0], [2.0, 1.0, 2.0]);
    let c = within(&diag, &cube);
    assert_eq!(c.status, ContactStatus::Touching);
    let k = c.contacts.iter().find(|k| k.contact.collinear).expect("a collinear edge contact");
    assert_eq!(k.normal.y, 0.0);
    assert!(k.normal.x > 0.0 && k.normal.z > 0.0 && (k.normal.x - k.normal.z).abs() < 1e-12 * k.normal.x);
}

/// §3: a box moving at (1, 0, 0) per unit time that is 1/4 into another at the end of a step
/// of 1 met it 1/4 before now; with a step of 1/2, 1/4 before now too (the same motion);
/// turning about its own centre as well, the deepest corner decides.
#[test]
fn collision_time_estimate() {
    let b = aabb([0.0, -2.0, -2.0], [4.0, 2.0, 2.0]);
    let a = aabb([-1.75, -0.5, -0.5], [0.25, 0.5, 0.5]);
    let still = Motion { linear: Vector3::zeros(), angular: Vector3::zeros(), center: p(0.0, 0.0, 0.0) };
    let moving = Motion { linear: Vector3::new(1.0, 0.0, 0.0), angular: Vector3::zeros(), center: p(-0.75, 0.0, 0.0) };
    for step in [1.0, 0.5] {
        let o = TolerantOptions { epsilon: EPS, motions: Some((moving.clone(), still.clone(), step)) };
        let c = find_contacts_within(&a, &b, &o).unwrap();
        assert_eq!(c.status, ContactStatus::Penetrating);
        assert_eq!(c.collision_time, Some(-0.25));
    }
    // Not moving: no estimate.
    let c = within(&a, &b);
    assert_eq!((c.status, c.collision_time), (ContactStatus::Penetrating, None));
    // b moving toward a instead: the same relative motion, the same time.
    let back = Motion { linear: Vector3::new(-1.0, 0.0, 0.0), ..still.clone() };
    let o = TolerantOptions { epsilon: EPS, motions: Some((still, back, 1.0)) };
    assert_eq!(find_contacts_within(&a, &b, &o).unwrap().collision_time, Some(-0.25));
}

/// ε must be positive.
#[test]
fn epsilon_is_checked() {
    let a = aabb([0.0; 3], [1.0; 3]);
    for e in [0.0, -1.0] {
        assert!(find_contacts_within(&a, &a, &TolerantOptions { epsilon: e, motions: None }).is_err());
    }
}

fn spec(s: &Solid<f64>) -> ShapeSpec<BigRational> {
    let vertices = s.vertices().iter().map(|p| p.map(|c| BigRational::from_f64(c).unwrap())).collect();
    ShapeSpec::Polyhedron { vertices, faces: s.faces().to_vec() }
}

/// Solids on the quarter grid: boxes, the U, the L, a tetrahedron.
fn solid_of(k: u8, h: [i64; 3]) -> Solid<f64> {
    let hh = h.map(|x| x as f64 / 2.0);
    match k % 5 {
        0 | 1 => shapes::cuboid(hh[0], hh[1], hh[2]).unwrap(),
        2 => shapes::u_shape(),
        3 => shapes::l_shape(),
        _ => shapes::tetrahedron(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// b rests on a's highest level (touching by construction), then is lifted or sunk by an
    /// exact multiple of ε/4 (−12..12): the `f64` answer agrees with the exact one under the
    /// contract (equal statuses, or the difference ε allows, checked exactly).
    #[test]
    fn f64_agrees_with_exact_under_the_contract(
        ka in any::<u8>(), kb in any::<u8>(),
        ha in [1i64..5, 1i64..5, 1i64..5], hb in [1i64..5, 1i64..5, 1i64..5],
        t in [-6i64..7, -6i64..7], turn in any::<bool>(), k in -12i64..13,
    ) {
        let a = solid_of(ka, ha);
        let quat = if turn { [1.0, 0.0, 0.0, 1.0] } else { [1.0, 0.0, 0.0, 0.0] };
        let map = Affine::from_quaternion(&quat, Vector3::new(t[0] as f64 / 2.0, t[1] as f64 / 2.0, 0.0)).unwrap();
        let b = solid_of(kb, hb).transformed(&map).unwrap();
        let top = a.vertices().iter().map(|p| p.z).fold(f64::NEG_INFINITY, f64::max);
        let bottom = b.vertices().iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
        let b = b.transformed(&Affine::translation(Vector3::new(0.0, 0.0, top - bottom + k as f64 * EPS / 4.0))).unwrap();
        let q = Contact {
            a: Posed::new("a", spec(&a), PoseSpec::identity()),
            b: Posed::new("b", spec(&b), PoseSpec::identity()),
            velocity_a: None,
            velocity_b: None,
            previous: Vec::new(),
            epsilon: Some(BigRational::from_f64(EPS).unwrap()),
            step: None,
        };
        let r = both(&q).unwrap();
        prop_assert!(r.agreement.is_ok(), "{:?}\nexact {:?}\nf64 {:?}", r.agreement, r.exact.output.status, r.fast.as_ref().map(|f| f.output.status));
        // Touching exactly is touching within ε.
        if r.exact.output.status == ContactStatus::Touching {
            prop_assert_eq!(r.fast.as_ref().map(|f| f.output.status).ok(), Some(ContactStatus::Touching));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `solids_within` (the contract's ε check: boxes pruned, the first near candidate ends it)
    /// decides exactly `solids_squared_distance ≤ r²`, on grid solids placed on the half grid
    /// (touching, apart by a grid gap, interlocked), a quarter turn or not, for every radius of
    /// the quarter grid up to 3 and the exact distance itself where it is rational (a gap along
    /// one axis: the radius on the boundary of the test).
    #[test]
    fn solids_within_is_the_distance_test(
        ka in any::<u8>(), kb in any::<u8>(),
        ha in [1i64..5, 1i64..5, 1i64..5], hb in [1i64..5, 1i64..5, 1i64..5],
        t in [-8i64..9, -8i64..9, -8i64..9], turn in any::<bool>(),
    ) {
        use touchstone::contact::{solids_squared_distance, solids_within};
        use touchstone::scalar::Exact;
        let a = solid_of(ka, ha);
        let quat = if turn { [1.0, 0.0, 0.0, 1.0] } else { [1.0, 0.0, 0.0, 0.0] };
        let map = Affine::from_quaternion(&quat, Vector3::new(t[0] as f64 / 2.0, t[1] as f64 / 2.0, t[2] as f64 / 2.0)).unwrap();
        let b = solid_of(kb, hb).transformed(&map).unwrap();
        let (a, b) = (a.convert::<Exact>().unwrap(), b.convert::<Exact>().unwrap());
        let d2 = solids_squared_distance(&a, &b).unwrap();
        let mut radii: Vec<Exact> = (0..=12).map(|k| Exact::from_i64(k) / Exact::from_i64(4)).collect();
        for r in (0..=48).map(|k| Exact::from_i64(k) / Exact::from_i64(16)) {
            if r.clone() * r.clone() == d2 {
                radii.push(r);
            }
        }
        for r in &radii {
            let want = (d2.clone() - r.clone() * r.clone()).sign().unwrap() != touchstone::scalar::Sign::Positive;
            prop_assert_eq!(solids_within(&a, &b, r).unwrap(), want, "r = {:?}, d² = {:?}", r, d2);
        }
    }
}

/// `solids_within` on its boundary: boxes 1/2 apart along z, face over face, overlapping in
/// part, and corner to corner (3/2 apart), at the radius itself and just below it.
#[test]
fn solids_within_holds_on_the_radius_itself() {
    use touchstone::contact::solids_within;
    use touchstone::scalar::Exact;
    let half = Exact::from_i64(1) / Exact::from_i64(2);
    let below = half.clone() - Exact::from_i64(1) / Exact::from_i64(1 << 40);
    let cases = [
        (aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]), aabb([0.0, 0.0, 1.5], [1.0, 1.0, 2.5])),
        (aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]), aabb([0.75, 0.75, 1.5], [2.0, 2.0, 2.5])),
        (aabb([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]), aabb([2.0, 2.0, 1.5], [3.0, 3.0, 2.5])),
    ];
    for (i, (a, b)) in cases.iter().enumerate() {
        let (a, b) = (a.convert::<Exact>().unwrap(), b.convert::<Exact>().unwrap());
        let far = i == 2; // corner to corner: √(1 + 1 + 1/4) = 3/2 apart
        assert_eq!(solids_within(&a, &b, &half), Ok(!far), "case {i}");
        assert_eq!(solids_within(&b, &a, &half), Ok(!far), "case {i}, swapped");
        assert_eq!(solids_within(&a, &b, &below), Ok(false), "case {i}, just below");
    }
    // The third pair's corners (1, 1, 1) and (2, 2, 3/2) are 3/2 apart.
    let three_halves = Exact::from_i64(3) / Exact::from_i64(2);
    let under = three_halves.clone() - Exact::from_i64(1) / Exact::from_i64(1 << 40);
    let (a, b) = (cases[2].0.convert::<Exact>().unwrap(), cases[2].1.convert::<Exact>().unwrap());
    assert_eq!(solids_within(&a, &b, &three_halves), Ok(true));
    assert_eq!(solids_within(&a, &b, &under), Ok(false));
}

/// Issue 39: a sample where one solid lies on a face of the other the same way up was deep
/// whatever the overlap (a star's tip sunk 2⁻⁴⁰ into a U, flush with it, was "deeper than ε",
/// and `both` broke its contract). Its depth is the overlap's thickness there now, exactly: a
/// plate flush with a slab's top is as deep as it is thick, slabs crossed in a plus sign as
/// deep as they are high, a tip sunk d into a side flush with the top d/2 at the piece's middle.
#[test]
fn coinciding_samples_measure_the_overlap_thickness() {
    use touchstone::contact::penetration_samples;
    use touchstone::msp::{MspTree, Options, Split};
    type Q = BigRational;
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let boxed = |lo: [Q; 3], hi: [Q; 3]| {
        let h: [Q; 3] = std::array::from_fn(|i| (&hi[i] - &lo[i]) / Q::from_i64(2));
        let c = Vector3::from_fn(|i, _| (&hi[i] + &lo[i]) / Q::from_i64(2));
        let [hx, hy, hz] = h;
        shapes::cuboid(hx, hy, hz).unwrap().transformed(&Affine::translation(c)).unwrap()
    };
    let i = |v: [i64; 3]| v.map(Q::from_i64);
    // The deepest coinciding sample of `a` in `b`, squared (None: none).
    let deepest = |a: &Solid<Q>, b: &Solid<Q>| -> Option<Q> {
        let index = MspTree::build(b, &Options { split: Split::HYBRID, ..Options::default() }).unwrap();
        penetration_samples(a, b, &index)
            .unwrap()
            .into_iter()
            .filter(|s| s.coinciding.is_some())
            .map(|s| s.depth_squared(a, b).unwrap())
            .max()
    };
    let slab = boxed(i([0, 0, 0]), i([4, 4, 1]));
    let t = q(1, 1024);
    let plate = boxed([q(1, 1), q(1, 1), q(1, 1) - &t], i([2, 2, 1]));
    assert_eq!(deepest(&plate, &slab), Some(&t * &t));
    let x = boxed(i([-3, -1, 0]), i([3, 1, 1]));
    let y = boxed(i([-1, -3, 0]), i([1, 3, 1]));
    assert_eq!(deepest(&x, &y), Some(Q::from_i64(1)));
    // A wedge (a triangular prism) whose tip edge enters the slab's side x = 4 by d, flush
    // with the slab top and bottom: the middles of its top edges' pieces inside are d/2 deep.
    let d = q(1, 1 << 20);
    let tip = Q::from_i64(4) - &d;
    let wedge = touchstone::brep::shapes::extrusion(
        &[(tip.clone(), q(2, 1)), (q(6, 1), q(1, 1)), (q(6, 1), q(3, 1))],
        Q::from_i64(0),
        Q::from_i64(1),
    )
    .unwrap();
    let half = &d / Q::from_i64(2);
    let depth = deepest(&wedge, &slab).unwrap();
    assert!(depth <= &half * &half && depth > Q::from_i64(0), "{depth}");
}

/// A random seed found it: two tetrahedra whose top and bottom edges cross at right angles,
/// b sunk 5ε/4 into a. No vertex and no two edges come within ε (the edges are 5ε/4 apart),
/// and the one depth sample, the middle of b's edge inside a, is shallower than ε: the f64
/// path said separate where the exact answer is penetrating, breaking the contract. A sample
/// inside the other solid makes them touch.
#[test]
fn an_edge_dipping_under_a_crossing_ridge_touches_within_eps() {
    use touchstone::contact::{find_contacts_within, ContactStatus, TolerantOptions};
    let a = shapes::tetrahedron::<f64>();
    let sunk = 2.0 - 5.0 * EPS / 4.0;
    let b = shapes::tetrahedron::<f64>().transformed(&Affine::translation(Vector3::new(0.0, 0.0, sunk))).unwrap();
    let c = find_contacts_within(&b, &a, &TolerantOptions { epsilon: EPS, motions: None }).unwrap();
    assert_eq!(c.status, ContactStatus::Touching);
}
