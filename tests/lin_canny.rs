//! Lin–Canny against the brute-force distance on exactly built degenerate configurations (the
//! cases of tests/vclip.rs), from every warm start, on solids whose Voronoi cells are
//! subdivided, on random rational poses (exact), and in `f64`.

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::shapes::{cube, cuboid, extrusion, icosahedron, octahedron, tetrahedron};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::{norm2, Affine, Point3, Vector3};
use touchstone::scalar::{ratio, Scalar};
use touchstone::vclip::{
    brute_force_distance, feature_squared_distance, lin_canny, vclip, ClosestPair, Status, VClipError,
};

type Q = BigRational;

fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

fn moved<S: Scalar>(s: &Solid<S>, quat: [i64; 4], t: [S; 3]) -> Solid<S> {
    let [x, y, z] = t;
    let map = Affine::from_quaternion(&quat.map(S::from_i64), Vector3::new(x, y, z)).unwrap();
    s.transformed(&map).unwrap()
}

fn shifted<S: Scalar>(s: &Solid<S>, t: [S; 3]) -> Solid<S> {
    moved(s, [1, 0, 0, 0], t)
}

fn brute(a: &Solid<Q>, b: &Solid<Q>) -> ClosestPair<Q> {
    brute_force_distance(a, b).unwrap()
}

fn features<S: Scalar>(s: &Solid<S>) -> Vec<Feature> {
    let mut out: Vec<Feature> = (0..s.vertex_count()).map(Feature::Vertex).collect();
    out.extend(s.edges().iter().map(|&(u, v)| Feature::Edge(u, v)));
    out.extend((0..s.face_count()).map(Feature::Face));
    out
}

/// Lin–Canny from `warm` agrees with the brute force: status, exact squared distance, points
/// that far apart, and features that realise it.
fn agree_from(a: &Solid<Q>, b: &Solid<Q>, expected: &ClosestPair<Q>, warm: Option<(Feature, Feature)>) {
    let r = lin_canny(a, b, warm.clone()).unwrap_or_else(|e| panic!("from {warm:?}: {e}"));
    let c = &r.closest;
    assert_eq!(c.status, expected.status, "status from {warm:?}: {r:?}");
    assert_eq!(c.squared_distance, expected.squared_distance, "distance from {warm:?}: {r:?}");
    if c.status == Status::Separated {
        assert_eq!(norm2(&(&c.points.0 - &c.points.1)), c.squared_distance, "points from {warm:?}");
        let d = feature_squared_distance(a, &c.features.0, b, &c.features.1).unwrap();
        assert_eq!(d, c.squared_distance, "features from {warm:?}: {r:?}");
    } else {
        assert_eq!(c.points.0, c.points.1);
    }
}

fn agree(a: &Solid<Q>, b: &Solid<Q>) -> ClosestPair<Q> {
    let expected = brute(a, b);
    agree_from(a, b, &expected, None);
    expected
}

fn agree_from_everywhere(a: &Solid<Q>, b: &Solid<Q>) {
    let expected = brute(a, b);
    for fa in features(a) {
        for fb in features(b) {
            agree_from(a, b, &expected, Some((fa.clone(), fb)));
        }
    }
}

#[test]
fn parallel_faces_touching_and_near() {
    let c = cube::<Q>();
    assert_eq!(agree(&c, &shifted(&c, [q(2, 1), q(1, 3), q(-1, 2)])).status, Status::Touching);
    assert_eq!(agree(&c, &shifted(&c, [q(2001, 1000), q(1, 3), q(-1, 2)])).squared_distance, q(1, 1_000_000));
    agree_from_everywhere(&c, &shifted(&c, [q(2, 1), q(0, 1), q(0, 1)]));
    agree_from_everywhere(&c, &shifted(&c, [q(2001, 1000), q(2, 1), q(0, 1)]));
    agree_from_everywhere(&c, &shifted(&c, [q(2001, 1000), q(1, 3), q(-1, 2)]));
}

#[test]
fn parallel_faces_are_reported_as_faces() {
    // Lin–Canny may stop on two faces (V-Clip never does): from the face pair it stays.
    let c = cube::<Q>();
    let b = shifted(&c, [q(3, 1), q(1, 2), q(0, 1)]);
    let r = lin_canny(&c, &b, Some((Feature::Face(5), Feature::Face(4)))).unwrap();
    assert_eq!(r.closest.features, (Feature::Face(5), Feature::Face(4)));
    assert_eq!((r.steps, r.closest.squared_distance), (0, q(1, 1)));
}

#[test]
fn penetrating_boxes() {
    let c = cube::<Q>();
    for t in [[q(1999, 1000), q(0, 1), q(0, 1)], [q(1, 2), q(1, 3), q(1, 5)], [q(0, 1), q(0, 1), q(0, 1)]] {
        assert_eq!(agree(&c, &shifted(&c, t)).status, Status::Penetrating);
    }
    let small = cuboid(q(1, 2), q(1, 2), q(1, 2)).unwrap();
    assert_eq!(agree(&c, &small).status, Status::Penetrating);
    assert_eq!(agree(&small, &c).status, Status::Penetrating);
    agree_from_everywhere(&c, &small);
    agree_from_everywhere(&small, &c);
    let turned = moved(&c, [3, 0, 0, 1], [q(2, 1), q(0, 1), q(0, 1)]);
    assert_eq!(agree(&c, &turned).status, Status::Penetrating);
    agree_from_everywhere(&c, &turned);
    let turned = moved(&c, [3, 0, 0, 1], [q(12, 5), q(0, 1), q(0, 1)]);
    assert_eq!(agree(&c, &turned).status, Status::Touching);
    agree_from_everywhere(&turned, &c);
    let turned = moved(&c, [3, 0, 0, 1], [q(2401, 1000), q(0, 1), q(0, 1)]);
    assert_eq!(agree(&c, &turned).squared_distance, q(1, 1_000_000));
}

#[test]
fn interior_witness_is_inside() {
    // The small box's vertices are strictly inside the cube: the witness is such a point.
    let c = cube::<Q>();
    let small = cuboid(q(1, 2), q(1, 2), q(1, 2)).unwrap();
    for warm in [None, Some((Feature::Face(1), Feature::Vertex(7))), Some((Feature::Vertex(7), Feature::Face(1)))] {
        let r = lin_canny(&c, &small, warm).unwrap();
        assert_eq!(r.closest.status, Status::Penetrating);
        let p = &r.closest.points.0;
        for s in [&c, &small] {
            assert!((0..s.face_count()).all(|f| s.plane(f).eval(p) <= q(0, 1)), "{r:?}");
        }
    }
}

#[test]
fn parallel_edges() {
    let c = cube::<Q>();
    for gap in [q(0, 1), q(1, 1000), q(3, 1)] {
        let b = shifted(&c, [q(2, 1) + gap.clone(), q(2, 1) + gap.clone(), q(1, 2)]);
        assert_eq!(agree(&c, &b).squared_distance, q(2, 1) * gap.clone() * gap);
    }
    agree_from_everywhere(&c, &shifted(&c, [q(2, 1), q(2, 1), q(1, 2)]));
    agree_from_everywhere(&c, &shifted(&c, [q(2001, 1000), q(2001, 1000), q(1, 2)]));
}

#[test]
fn vertex_on_voronoi_plane() {
    let c = cube::<Q>();
    let o = shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(0, 1)]);
    assert_eq!(agree(&c, &o).squared_distance, q(1, 1));
    agree_from_everywhere(&c, &o);
    agree_from_everywhere(&o, &c);
    let o = shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(1, 1)]);
    assert_eq!(agree(&c, &o).squared_distance, q(1, 1));
    agree_from_everywhere(&c, &o);
}

#[test]
fn touching_vertex_on_face_and_edge_on_face() {
    let c = cube::<Q>();
    let o = shifted(&octahedron::<Q>(), [q(2, 1), q(1, 3), q(1, 7)]);
    assert_eq!(agree(&c, &o).status, Status::Touching);
    agree_from_everywhere(&c, &o);
    let t = shifted(&tetrahedron::<Q>(), [q(0, 1), q(0, 1), q(2, 1)]);
    assert_eq!(agree(&c, &t).status, Status::Touching);
    agree_from_everywhere(&c, &t);
    agree_from_everywhere(&t, &c);
}

#[test]
fn rotated_cube_against_octahedron_and_tetrahedron() {
    let c = cube::<Q>();
    let quats = [[1, 2, 3, 4], [3, 1, 0, 1], [1, 1, 1, 1], [5, -2, 1, 0], [2, 0, 0, 1]];
    let shifts = [
        [q(3, 1), q(1, 2), q(0, 1)],
        [q(5, 2), q(5, 2), q(1, 3)],
        [q(0, 1), q(1, 2), q(2, 1)],
        [q(1, 1), q(1, 1), q(1, 1)],
    ];
    for quat in quats {
        for t in &shifts {
            for other in [octahedron::<Q>(), tetrahedron::<Q>()] {
                let b = moved(&other, quat, t.clone());
                agree(&c, &b);
                agree(&b, &c);
            }
        }
    }
}

#[test]
fn every_warm_start_terminates() {
    let c = cube::<Q>();
    let t = moved(&tetrahedron::<Q>(), [1, 2, 3, 4], [q(3, 1), q(1, 2), q(1, 3)]);
    agree_from_everywhere(&c, &t);
    agree_from_everywhere(&t, &c);
    let o = moved(&octahedron::<Q>(), [3, 1, 0, 1], [q(1, 1), q(1, 2), q(1, 3)]);
    agree_from_everywhere(&c, &o); // penetrating
}

/// The octagon (±3, 0), (±2, ±2), (0, ±3): strictly convex, 8 sides.
fn octagon() -> Vec<(Q, Q)> {
    [(3, 0), (2, 2), (0, 3), (-2, 2), (-3, 0), (-2, -2), (0, -3), (2, -2)]
        .iter()
        .map(|&(x, y)| (q(x, 1), q(y, 1)))
        .collect()
}

/// An octagonal prism (two faces of 8 edges: subdivided face cells).
fn octagonal_prism() -> Solid<Q> {
    extrusion(&octagon(), q(-1, 1), q(1, 1)).unwrap()
}

/// An octagonal bipyramid (two vertices of 8 edges: subdivided vertex cells).
fn bipyramid() -> Solid<Q> {
    let mut v: Vec<Point3<Q>> = octagon().into_iter().map(|(x, y)| Point3::new(x, y, q(0, 1))).collect();
    v.push(Point3::new(q(0, 1), q(0, 1), q(3, 1)));
    v.push(Point3::new(q(0, 1), q(0, 1), q(-3, 1)));
    let mut faces = Vec::new();
    for i in 0..8 {
        let j = (i + 1) % 8;
        faces.push(vec![i, j, 8]);
        faces.push(vec![j, i, 9]);
    }
    Solid::new(v, faces).unwrap()
}

#[test]
fn subdivided_cells() {
    let (p, b) = (octagonal_prism(), bipyramid());
    // Above the octagon face, over each of its sub-cells and beyond each of its edges, and the
    // bipyramid's apex over the cells of the prism's top face; the apex's own cone is split.
    let c = cube::<Q>();
    for (x, y) in [(0, 0), (5, 1), (1, 5), (-5, 1), (-1, -5), (4, 4), (-4, -4), (3, -3), (9, 0), (0, -9)] {
        let over = shifted(&c, [q(x, 2), q(y, 2), q(3, 1)]);
        agree(&p, &over);
        agree(&over, &p);
        let under = moved(&b, [0, 1, 0, 0], [q(x, 2), q(y, 2), q(5, 1)]);
        agree(&p, &under);
        let apex = shifted(&b, [q(x, 3), q(y, 3), q(-5, 1)]);
        agree(&c, &apex);
        agree(&apex, &c);
    }
    let over = shifted(&c, [q(1, 2), q(1, 3), q(3, 1)]);
    agree_from_everywhere(&p, &over);
    let apex = moved(&b, [2, 1, 0, 0], [q(1, 2), q(0, 1), q(-6, 1)]);
    agree_from_everywhere(&apex, &c);
    // Touching the big face exactly, and penetrating it.
    agree_from_everywhere(&p, &shifted(&c, [q(1, 2), q(1, 3), q(2, 1)]));
    agree_from_everywhere(&b, &shifted(&c, [q(1, 2), q(1, 3), q(3, 2)]));
}

#[test]
fn bad_input_is_a_typed_error() {
    let c = cube::<Q>();
    let l = touchstone::brep::shapes::l_shape::<Q>();
    assert_eq!(lin_canny(&c, &l, None).unwrap_err(), VClipError::NotConvex { solid: 1 });
    let flat = extrusion(
        &[(q(0, 1), q(0, 1)), (q(1, 1), q(0, 1)), (q(2, 1), q(0, 1)), (q(2, 1), q(2, 1)), (q(0, 1), q(2, 1))],
        q(0, 1),
        q(1, 1),
    )
    .unwrap();
    assert!(matches!(lin_canny(&flat, &c, None), Err(VClipError::FlatEdge { solid: 0, .. })));
    let bad = Some((Feature::Vertex(0), Feature::Face(6)));
    assert!(matches!(lin_canny(&c, &c, bad), Err(VClipError::NoSuchFeature { solid: 1, .. })));
    assert!(matches!(
        feature_squared_distance(&c, &Feature::Edge(0, 7), &c, &Feature::Vertex(0)),
        Err(VClipError::NoSuchFeature { solid: 0, .. })
    ));
}

fn shape(k: usize) -> Solid<Q> {
    match k {
        0 => cube(),
        1 => octahedron(),
        2 => tetrahedron(),
        3 => cuboid(q(1, 2), q(1, 1), q(3, 2)).unwrap(),
        4 => icosahedron(),
        5 => octagonal_prism(),
        _ => extrusion(
            &[(q(0, 1), q(0, 1)), (q(2, 1), q(0, 1)), (q(3, 1), q(2, 1)), (q(1, 1), q(3, 1)), (q(-1, 1), q(1, 1))],
            q(0, 1),
            q(1, 1),
        )
        .unwrap(),
    }
}

fn pose() -> impl Strategy<Value = ([i64; 4], [i64; 3])> {
    (prop::array::uniform4(-3i64..=3), prop::array::uniform3(-16i64..=16))
        .prop_filter("a rotation", |(qt, _)| qt.iter().any(|&x| x != 0))
}

fn posed(k: usize, (quat, t): ([i64; 4], [i64; 3])) -> Solid<Q> {
    moved(&shape(k), quat, t.map(|x| q(x, 4)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Exact Lin–Canny equals the brute force on random rational poses from the default and a
    /// random warm start, and agrees with exact V-Clip; `f64` Lin–Canny on the rounded solids
    /// is within 1e-9 of it.
    #[test]
    fn lin_canny_equals_brute_force(
        ka in 0usize..7, kb in 0usize..7, pa in pose(), pb in pose(), wa in 0usize..64, wb in 0usize..64,
    ) {
        let (a, b) = (posed(ka, pa), posed(kb, pb));
        let expected = brute(&a, &b);
        agree_from(&a, &b, &expected, None);
        let (fa, fb) = (features(&a), features(&b));
        let warm = (fa[wa % fa.len()].clone(), fb[wb % fb.len()].clone());
        agree_from(&a, &b, &expected, Some(warm));
        let v = vclip(&a, &b, None).unwrap();
        prop_assert_eq!(&v.closest.squared_distance, &expected.squared_distance);
        if let (Ok(fa), Ok(fb)) = (a.convert::<f64>(), b.convert::<f64>()) {
            // f64 Lin–Canny on the rounded solids: within 1e-9 of the exact squared distance,
            // separated when the exact distance is clearly positive (rounding may make a flat
            // edge, a typed error).
            let rf = match lin_canny(&fa, &fb, None) {
                Err(VClipError::NotConvex { .. } | VClipError::FlatEdge { .. }) => return Ok(()),
                other => other.unwrap(),
            };
            let exact = expected.squared_distance.to_f64();
            prop_assert!((rf.closest.squared_distance - exact).abs() <= 1e-9 * (1.0 + exact), "f64 {:?} vs {}", rf, exact);
            if exact > 1e-6 {
                prop_assert_eq!(rf.closest.status, Status::Separated);
            }
        }
    }
}

/// `f64` Lin–Canny on degenerate configurations whose coordinates are exact doubles, from
/// every warm start: within 1e-9 of the exact squared distance, same status.
#[test]
fn f64_on_degenerate_cases() {
    let c = cube::<Q>();
    let cases = vec![
        (c.clone(), shifted(&c, [q(2, 1), q(1, 4), q(-1, 2)])),
        (c.clone(), shifted(&c, [q(2049, 1024), q(1, 4), q(-1, 2)])),
        (c.clone(), shifted(&c, [q(2, 1), q(2, 1), q(1, 2)])),
        (c.clone(), shifted(&c, [q(3, 2), q(1, 2), q(0, 1)])),
        (c.clone(), shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(1, 1)])),
        (c.clone(), shifted(&octahedron::<Q>(), [q(2, 1), q(1, 4), q(1, 8)])),
        (c.clone(), shifted(&tetrahedron::<Q>(), [q(0, 1), q(0, 1), q(2, 1)])),
        (c.clone(), moved(&c, [3, 0, 0, 1], [q(12, 5), q(0, 1), q(0, 1)])),
        (octagonal_prism(), shifted(&c, [q(1, 2), q(1, 4), q(2, 1)])),
    ];
    for (a, b) in cases {
        let expected = brute(&a, &b);
        let (fa, fb) = (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap());
        let exact = expected.squared_distance.to_f64();
        for wa in features(&fa) {
            for wb in features(&fb) {
                let r = lin_canny(&fa, &fb, Some((wa.clone(), wb.clone()))).unwrap();
                assert!((r.closest.squared_distance - exact).abs() <= 1e-9 * (1.0 + exact), "{r:?} vs {exact}");
                assert_eq!(r.closest.status, expected.status, "from {wa:?}, {wb:?}");
            }
        }
    }
}

fn parse(s: &str) -> Q {
    s.parse().unwrap()
}

/// Known `f64` weakness, found by the robustness experiment (`--seed 2`, trial 5365): two
/// nearly parallel edges (a pentagonal prism's and the icosahedron's, 2⁻³⁷ off). Their closest
/// points are ill-conditioned, the applicability tests on them send the walk from the edge to
/// its vertex and back, each move "decreasing" the distance by less than `f64` resolves, and
/// `f64` Lin–Canny hits its step cap: the failure mode Mirtich (1998, footnote 1) attributes
/// to Lin–Canny. The input is exact in `f64`; exact Lin–Canny answers. Run with `--ignored`.
#[test]
#[ignore = "known f64 Lin–Canny cycle on nearly parallel edges"]
fn f64_nearly_parallel_edges() {
    let pentagon: Vec<(Q, Q)> =
        [(0, 0), (2, 0), (3, 2), (1, 3), (-1, 1)].iter().map(|&(x, y)| (q(x, 1), q(y, 1))).collect();
    let a = extrusion(&pentagon, q(-1, 2), q(1, 2)).unwrap();
    let shift = [
        parse("412316860417/137438953472"),
        parse("137438953473/137438953472"),
        parse("-1333084623670933/562949953421312"),
    ];
    let b = shifted(&icosahedron::<Q>(), shift);
    let warm = Some((Feature::Edge(1, 2), Feature::Edge(2, 6)));
    let expected = brute(&a, &b);
    agree_from(&a, &b, &expected, warm.clone());
    let (fa, fb) = (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap());
    let r = lin_canny(&fa, &fb, warm).unwrap();
    let exact = expected.squared_distance.to_f64();
    assert!((r.closest.squared_distance - exact).abs() <= 1e-9 * (1.0 + exact), "{r:?}");
}
