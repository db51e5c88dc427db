//! Lin–Canny against the brute-force distance on exactly built degenerate configurations (the
//! cases shared with V-Clip in tests/common/closest.rs), from every warm start, on solids whose Voronoi cells are
//! subdivided, on random rational poses (exact), and in `f64`.

use proptest::prelude::*;
use touchstone::brep::shapes::{cube, cuboid, extrusion, icosahedron};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::Point3;
use touchstone::scalar::Scalar;
use touchstone::vclip::{feature_squared_distance, lin_canny, vclip, Status, VClipError};

#[path = "common/closest.rs"]
mod closest;
use closest::*;

#[test]
fn parallel_faces_touching_and_near() {
    closest::parallel_faces_touching_and_near(LIN_CANNY);
    intervals_decided_at_least(0.15, "parallel_faces_touching_and_near");
}

#[test]
fn penetrating_boxes() {
    closest::penetrating_boxes(LIN_CANNY);
    intervals_decided_at_least(0.15, "penetrating_boxes");
}

#[test]
fn parallel_edges() {
    closest::parallel_edges(LIN_CANNY);
    intervals_decided_at_least(0.15, "parallel_edges");
}

#[test]
fn vertex_on_voronoi_plane() {
    closest::vertex_on_voronoi_plane(LIN_CANNY);
    intervals_decided_at_least(0.15, "vertex_on_voronoi_plane");
}

#[test]
fn touching_vertex_on_face_and_edge_on_face() {
    closest::touching_vertex_on_face_and_edge_on_face(LIN_CANNY);
    intervals_decided_at_least(0.15, "touching_vertex_on_face_and_edge_on_face");
}

#[test]
fn rotated_cube_against_octahedron_and_tetrahedron() {
    closest::rotated_cube_against_octahedron_and_tetrahedron(LIN_CANNY);
    intervals_decided_at_least(0.15, "rotated_cube_against_octahedron_and_tetrahedron");
}

#[test]
fn every_warm_start_terminates() {
    closest::every_warm_start_terminates(LIN_CANNY);
    intervals_decided_at_least(0.15, "every_warm_start_terminates");
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
        agree(LIN_CANNY, &p, &over);
        agree(LIN_CANNY, &over, &p);
        let under = moved(&b, [0, 1, 0, 0], [q(x, 2), q(y, 2), q(5, 1)]);
        agree(LIN_CANNY, &p, &under);
        let apex = shifted(&b, [q(x, 3), q(y, 3), q(-5, 1)]);
        agree(LIN_CANNY, &c, &apex);
        agree(LIN_CANNY, &apex, &c);
    }
    let over = shifted(&c, [q(1, 2), q(1, 3), q(3, 1)]);
    agree_from_everywhere(LIN_CANNY, &p, &over);
    let apex = moved(&b, [2, 1, 0, 0], [q(1, 2), q(0, 1), q(-6, 1)]);
    agree_from_everywhere(LIN_CANNY, &apex, &c);
    // Touching the big face exactly, and penetrating it.
    agree_from_everywhere(LIN_CANNY, &p, &shifted(&c, [q(1, 2), q(1, 3), q(2, 1)]));
    agree_from_everywhere(LIN_CANNY, &b, &shifted(&c, [q(1, 2), q(1, 3), q(3, 2)]));
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
        agree_from(LIN_CANNY, &a, &b, &expected, None);
        let (fa, fb) = (features(&a), features(&b));
        let warm = (fa[wa % fa.len()].clone(), fb[wb % fb.len()].clone());
        agree_from(LIN_CANNY, &a, &b, &expected, Some(warm));
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

#[test]
fn f64_on_degenerate_cases() {
    closest::f64_on_degenerate_cases(lin_canny::<f64>);
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
    let b = shifted(&icosahedron::<Q>().unwrap(), shift);
    let warm = Some((Feature::Edge(1, 2), Feature::Edge(2, 6)));
    let expected = brute(&a, &b);
    agree_from(LIN_CANNY, &a, &b, &expected, warm.clone());
    let (fa, fb) = (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap());
    let r = lin_canny(&fa, &fb, warm).unwrap();
    let exact = expected.squared_distance.to_f64();
    assert!((r.closest.squared_distance - exact).abs() <= 1e-9 * (1.0 + exact), "{r:?}");
}
