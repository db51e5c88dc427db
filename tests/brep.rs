//! Solids: builders, counts, Euler's formula, every validation error from a minimal mesh, the
//! exact convex hull. Generic bodies run for every backend.

#[macro_use]
mod common;

use nalgebra::Vector3;
use num_rational::BigRational;
use touchstone::brep::shapes::{
    comb, cube, cuboid, dodecahedron, extrusion, icosahedron, l_shape, octahedron, tetrahedron, torus, u_shape,
    uv_sphere,
};
use touchstone::brep::{assert_well_formed, convex_hull, BrepError, Convexity, HullError, Solid};
use touchstone::geom::{point, Affine, Point3};
use touchstone::scalar::{ratio, Scalar};

fn counts<S: Scalar>(s: &Solid<S>) -> (usize, usize, usize) {
    (s.vertex_count(), s.edge_count(), s.face_count())
}

/// Whether `S` decides with certainty but holds inexact values (intervals): such a backend may
/// answer `Uncertain` where the exact one decides, never something else.
fn interval<S: Scalar>() -> bool {
    S::CERTAIN_DECISIONS && !S::EXACT_VALUES
}

/// A built solid, or `None` when an interval backend could not decide it (any other error
/// fails the test).
fn built<S: Scalar>(name: &str, r: Result<Solid<S>, BrepError>) -> Option<Solid<S>> {
    match r {
        Ok(s) => Some(s),
        Err(BrepError::Uncertain(touchstone::scalar::Uncertain::Close)) if interval::<S>() => None,
        Err(e) => panic!("{name} ({}): {e}", S::NAME),
    }
}

/// A builder's name, its solid, the expected (V, E, F) and convexity.
type Case<S> = (&'static str, Result<Solid<S>, BrepError>, (usize, usize, usize), bool);

fn builders_validate_with_expected_counts<S: Scalar>() {
    let cases: Vec<Case<S>> = vec![
        ("cube", Ok(cube()), (8, 12, 6), true),
        ("cuboid", cuboid(ratio(1, 2), S::one(), ratio(7, 3)), (8, 12, 6), true),
        ("tetrahedron", Ok(tetrahedron()), (4, 6, 4), true),
        ("octahedron", Ok(octahedron()), (6, 12, 8), true),
        ("icosahedron", icosahedron(), (12, 30, 20), true),
        ("dodecahedron", dodecahedron(), (20, 30, 12), true),
        ("L", Ok(l_shape()), (12, 18, 8), false),
        ("U", Ok(u_shape()), (16, 24, 10), false),
        ("comb", comb(3), (24, 36, 14), false), // a 12-gon prism
    ];
    for (name, s, expected, convex) in cases {
        let Some(s) = built(name, s) else {
            // Small integers are points of an interval: those shapes are always decided (the
            // cuboid's 7/3, the icosahedron's exactly coplanar golden rectangles through
            // φ² and the dodecahedron's pentagons need not be).
            assert!(!["cube", "tetrahedron", "octahedron", "L", "U", "comb"].contains(&name), "{name} undecided");
            continue;
        };
        assert_well_formed(&s);
        assert_eq!(counts(&s), expected, "{name} ({})", S::NAME);
        assert_eq!(s.euler(), 2, "{name}");
        assert!(common::decided::<S, _>(&s.is_convex(), &convex), "{name} ({})", S::NAME);
    }
}

/// Table 1 of Vaněček (1990): V + E + F of the k × k sphere and torus.
fn table_1_entity_counts<S: Scalar>() {
    let mut decided = 0;
    for (k, sphere, tor) in [(4, 58, 64), (6, 134, 144), (8, 242, 256), (10, 382, 400), (20, 1562, 1600)] {
        if let Some(s) = built(&format!("sphere {k}"), uv_sphere::<S>(k, k)) {
            decided += 1;
            let (v, e, f) = counts(&s);
            assert_eq!(v + e + f, sphere, "sphere {k}");
            assert_eq!(s.euler(), 2);
            if k <= 8 {
                assert_well_formed(&s);
                assert!(common::decided::<S, _>(&s.is_convex(), &true), "sphere {k}");
            }
        }
        if let Some(t) = built(&format!("torus {k}"), torus::<S>(k, k, S::from_i64(3), S::one())) {
            decided += 1;
            let (v, e, f) = counts(&t);
            assert_eq!(v + e + f, tor, "torus {k}");
            assert_eq!(t.euler(), 0);
            if k <= 8 {
                assert_well_formed(&t);
                assert!(common::decided::<S, _>(&t.is_convex(), &false), "torus {k}");
            }
        }
    }
    assert!(interval::<S>() || decided == 10, "{} decided {decided} of 10", S::NAME);
}

fn sphere_vertices_are_exactly_on_the_sphere<S: Scalar>() {
    let Some(s) = built("sphere", uv_sphere::<S>(7, 5)) else { return };
    for p in s.vertices() {
        let r2 = p.coords.dot(&p.coords);
        let on = (r2 - S::one()).sign_scaled(S::one);
        assert!(common::decided::<S, _>(&on, &touchstone::scalar::Sign::Zero), "{} {on:?}", S::NAME);
    }
}

fn rotated_builders_stay_valid<S: Scalar>() {
    // Exact rational rotations keep faces planar exactly; f64 within its tolerance; an
    // interval backend may not decide a rotated face planar (its vertices are no longer
    // points), never decides it bent.
    let mut decided = 0;
    for q in [[1, 2, 3, 4], [3, -1, 4, 1], [1, 1, 0, 0]] {
        let r = Affine::from_quaternion(&q.map(S::from_i64), Vector3::new(ratio(1, 3), S::from_i64(-2), ratio(5, 7)))
            .unwrap();
        let solids = [
            ("cube", Ok(cube::<S>())),
            ("tetrahedron", Ok(tetrahedron())),
            ("octahedron", Ok(octahedron())),
            ("icosahedron", icosahedron()),
            ("dodecahedron", dodecahedron()),
            ("L", Ok(l_shape())),
            ("U", Ok(u_shape())),
            ("comb", comb(2)),
            ("sphere", uv_sphere(5, 4)),
            ("torus", torus(6, 5, S::from_i64(2), S::one())),
        ];
        for (name, s) in solids {
            let Some(s) = built(name, s) else { continue };
            let Some(moved) = built(name, s.transformed(&r)) else { continue };
            if ["tetrahedron", "octahedron"].contains(&name) {
                decided += 1;
            }
            assert_well_formed(&moved);
            let (before, after) = (s.is_convex(), moved.is_convex());
            if interval::<S>() {
                assert!(before.is_err() || after.is_err() || before == after, "{name}");
            } else {
                assert_eq!(after, before, "{name}");
            }
        }
    }
    // Shapes of triangles only (no planarity decision) with integer vertices: intervals decide
    // them under the two general rotations (under the half turn, two vertices get the same
    // inexact x = 1 + 1/3, and an interval cannot tell equal coordinates apart from close
    // ones when sorting them).
    assert!(decided >= 4, "{} decided {decided}", S::NAME);
}

fn adjacency<S: Scalar>() {
    let c = cube::<S>();
    for v in 0..8 {
        assert_eq!(c.vertex_edges(v).len(), 3);
        let faces = c.vertex_faces(v);
        assert_eq!(faces.len(), 3);
        // The faces around a vertex are pairwise neighbours.
        for (i, &f) in faces.iter().enumerate() {
            assert!(c.face_neighbours(f).contains(&faces[(i + 1) % 3]));
        }
    }
    for e in 0..c.edge_count() {
        let (f1, f2) = c.edge_faces(e);
        assert_ne!(f1, f2);
        assert_eq!(c.edge_convexity(e), Ok(Convexity::Convex));
    }
    let l = l_shape::<S>();
    let reflex: Vec<(usize, usize)> =
        (0..l.edge_count()).filter(|&e| l.edge_convexity(e) == Ok(Convexity::Reflex)).map(|e| l.edges()[e]).collect();
    assert_eq!(reflex, vec![(3, 9)], "the L has one reflex edge, the vertical one at its inner corner (1, 1)");
    // Two coplanar faces sharing an edge make it flat.
    let pts = vec![point(0, 0, 0), point(2, 0, 0), point(2, 2, 0), point(0, 2, 0), point(1, 1, 2), point(1, 0, 0)];
    let split = Solid::<S>::new(
        pts,
        vec![
            vec![0, 3, 2, 1, 5].into_iter().collect(),
            vec![0, 5, 4],
            vec![5, 1, 4],
            vec![1, 2, 4],
            vec![2, 3, 4],
            vec![3, 0, 4],
        ],
    );
    let split = split.unwrap();
    let flat = split.edge_index(5, 4).unwrap();
    assert_eq!(split.edge_convexity(flat), Ok(Convexity::Flat));
    assert_eq!(split.is_convex(), Ok(true));
}

for_each_backend!(
    builders_validate_with_expected_counts,
    table_1_entity_counts,
    sphere_vertices_are_exactly_on_the_sphere,
    rotated_builders_stay_valid,
    adjacency,
);

type Q = BigRational;

fn tetra_points() -> Vec<Point3<Q>> {
    vec![point(0, 0, 0), point(1, 0, 0), point(0, 1, 0), point(0, 0, 1)]
}

fn tetra_faces() -> Vec<Vec<usize>> {
    vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]]
}

/// Each validation error, provoked by a minimal mesh.
#[test]
fn every_validation_error_names_the_element() {
    let err = |v: Vec<Point3<Q>>, f: Vec<Vec<usize>>| Solid::new(v, f).unwrap_err();
    let f = tetra_faces;
    assert_eq!(err(tetra_points()[..3].to_vec(), f()), BrepError::TooFewVertices { count: 3 });
    assert_eq!(err(tetra_points(), f()[..3].to_vec()), BrepError::TooFewFaces { count: 3 });
    assert_eq!(
        err(tetra_points(), vec![vec![0, 2], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]]),
        BrepError::FaceTooSmall { face: 0, count: 2 }
    );
    assert_eq!(
        err(tetra_points(), vec![vec![0, 2, 1], vec![0, 1, 7], vec![0, 3, 2], vec![1, 2, 3]]),
        BrepError::VertexOutOfRange { face: 1, index: 7, count: 4 }
    );
    assert_eq!(
        err(tetra_points(), vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 1, 3]]),
        BrepError::RepeatedVertex { face: 3, vertex: 1 }
    );
    let mut five = tetra_points();
    five.push(point(5, 5, 5));
    assert_eq!(err(five, f()), BrepError::UnusedVertex { vertex: 4 });
    let mut dup = tetra_points();
    dup[3] = point(1, 0, 0);
    assert_eq!(err(dup.clone(), f()), BrepError::ZeroLengthEdge { face: 1, from: 1, to: 3 });
    assert_eq!(
        err(tetra_points(), vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3], vec![0, 1, 2]]),
        BrepError::NonManifoldEdge { from: 0, to: 1, faces: 3 }
    );
    // A cube without its bottom face: the bottom's edges are used once; (0, 1) comes first.
    let open: Vec<Vec<usize>> = cube::<Q>().faces()[1..].to_vec();
    let e = err(cube::<Q>().vertices().to_vec(), open);
    assert_eq!(e, BrepError::OpenBoundary { from: 0, to: 1, face: 1 });
    assert_eq!(e.to_string(), "edge 0–1 is used by face 1 only: the surface is open");
    assert_eq!(
        err(tetra_points(), vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]]),
        BrepError::InconsistentOrientation { from: 0, to: 1, first: 0, second: 1 }
    );
    // Inside out: every face reversed.
    let reversed: Vec<Vec<usize>> = f()
        .into_iter()
        .map(|mut x| {
            x.reverse();
            x
        })
        .collect();
    assert_eq!(err(tetra_points(), reversed), BrepError::InsideOut);
    // Non-planar: a "cube" with corner 7 lifted; face 1 = [4, 5, 7, 6] is checked against the
    // plane of its Newell normal through vertex 4, which vertex 5 is the first to leave.
    let mut bent: Vec<Point3<Q>> = cube::<Q>().vertices().to_vec();
    bent[7] = Point3::new(ratio(1, 1), ratio(1, 1), ratio(11, 10));
    assert_eq!(err(bent, cube::<Q>().faces().to_vec()), BrepError::NonPlanarFace { face: 1, vertex: 5 });
    // Two tetrahedra sharing only a vertex: the vertex joins two fans.
    let mut v = tetra_points();
    v.extend([point(-1, 0, 0), point(0, -1, 0), point(0, 0, -1)]);
    let mut faces = f();
    faces.extend([vec![0, 4, 5], vec![0, 6, 4], vec![0, 5, 6], vec![4, 6, 5]]);
    assert!(matches!(err(v, faces), BrepError::NonManifoldVertex { vertex: 0, fans: 2 }));
}

#[test]
fn geometric_validation_errors() {
    // Zero area: a "tetrahedron" with a face whose three corners are collinear.
    let flat = vec![point::<Q>(0, 0, 0), point(2, 0, 0), point(1, 0, 0), point(0, 0, 1)];
    assert!(matches!(
        Solid::new(flat, tetra_faces()),
        Err(BrepError::ZeroAreaFace { .. }) | Err(BrepError::ZeroVolume)
    ));
    // A self-crossing (bow-tie) top face on a prism; a symmetric bow tie has zero signed area
    // and is rejected as such first.
    let bow = [(0, 0), (3, 3), (3, 0), (0, 1)].map(|(x, y)| (Q::from_i64(x), Q::from_i64(y)));
    assert_eq!(
        extrusion(&bow, Q::from_i64(0), Q::from_i64(1)).unwrap_err(),
        BrepError::FaceNotSimple { face: 0, first: 3, second: 1 }
    );
    let symmetric = [(0, 0), (2, 2), (2, 0), (0, 2)].map(|(x, y)| (Q::from_i64(x), Q::from_i64(y)));
    assert_eq!(extrusion(&symmetric, Q::from_i64(0), Q::from_i64(1)).unwrap_err(), BrepError::ZeroAreaFace { face: 0 });
    // A pentagram: every turn to the same side, but it winds twice (the convex shortcut must
    // not take it; the pairwise check finds the crossing).
    let star = [(0, 4), (2, -3), (-4, 1), (4, 1), (-2, -3)].map(|(x, y)| (Q::from_i64(x), Q::from_i64(y)));
    assert!(matches!(extrusion(&star, Q::from_i64(0), Q::from_i64(1)), Err(BrepError::FaceNotSimple { face: 0, .. })));
    // A spike: an edge that doubles back along the previous one.
    let spike = [(0, 0), (2, 0), (2, 2), (2, 1)].map(|(x, y)| (Q::from_i64(x), Q::from_i64(y)));
    assert!(matches!(extrusion(&spike, Q::from_i64(0), Q::from_i64(1)), Err(BrepError::FaceNotSimple { face: 0, .. })));
    // A clockwise polygon extrudes to an inside-out prism.
    let cw = [(0, 0), (0, 1), (1, 1), (1, 0)].map(|(x, y)| (Q::from_i64(x), Q::from_i64(y)));
    assert_eq!(extrusion(&cw, Q::from_i64(0), Q::from_i64(1)).unwrap_err(), BrepError::InsideOut);
    // Zero volume: a flat square covered on both sides (top split along 0–2, bottom along
    // 1–3): closed, manifold, consistently oriented, planar faces of nonzero area.
    let square = vec![point::<Q>(0, 0, 0), point(1, 0, 0), point(1, 1, 0), point(0, 1, 0)];
    let faces = vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 1], vec![3, 2, 1]];
    assert_eq!(Solid::new(square, faces).unwrap_err(), BrepError::ZeroVolume);
    // Duplicate coordinates on vertices that share no edge.
    let mut v = tetra_points();
    v.extend([point(5, 0, 0), point(6, 0, 0), point(5, 1, 0), point(0, 0, 1)]);
    let mut faces = tetra_faces();
    faces.extend([vec![4, 6, 5], vec![4, 5, 7], vec![4, 7, 6], vec![5, 6, 7]]);
    assert_eq!(Solid::new(v, faces).unwrap_err(), BrepError::DuplicateVertex { first: 3, second: 7 });
    // Non-finite coordinates (f64 input).
    let mut nan: Vec<Point3<f64>> = tetra_points().iter().map(|p| p.map(|c| c.to_f64())).collect();
    nan[2].y = f64::NAN;
    assert_eq!(Solid::new(nan, tetra_faces()).unwrap_err(), BrepError::NonFinite { vertex: 2, coordinate: 1 });
}

#[test]
fn hull_of_a_polytope_with_interior_and_face_points_is_the_polytope() {
    // The cube's 8 corners, its centre, face centres, edge midpoints: only corners remain,
    // with 6 square faces (each face's two triangles merged).
    let mut pts: Vec<Point3<Q>> = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                pts.push(point(x, y, z));
            }
        }
    }
    let hull = convex_hull(&pts).unwrap();
    assert_well_formed(&hull.solid);
    assert_eq!(counts(&hull.solid), (8, 12, 6));
    let corners: Vec<usize> = (0..27)
        .filter(|i| [0, 2].contains(&(i / 9)) && [0, 2].contains(&(i / 3 % 3)) && [0, 2].contains(&(i % 3)))
        .collect();
    assert_eq!(hull.input_index, corners);
    // The octahedron's vertices plus points inside its faces and edges.
    let mut pts = octahedron::<Q>().vertices().to_vec();
    pts.push(Point3::new(ratio(1, 3), ratio(1, 3), ratio(1, 3)));
    pts.push(Point3::new(ratio(1, 2), ratio(1, 2), ratio(0, 1)));
    pts.push(point(0, 0, 0));
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(counts(&hull.solid), (6, 12, 8));
    assert_eq!(hull.input_index, (0..6).collect::<Vec<_>>());
    // The icosahedron's vertices in any order give 20 triangles; the dodecahedron's, 12 pentagons.
    let d = dodecahedron::<Q>().unwrap();
    let mut pts = d.vertices().to_vec();
    pts.reverse();
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(counts(&hull.solid), (20, 30, 12));
    assert!(hull.solid.faces().iter().all(|f| f.len() == 5));
}

#[test]
fn hull_of_a_grid_merges_coplanar_facets() {
    // All points of a 4 × 3 × 2 integer grid: a box with 6 faces, 8 vertices.
    let pts: Vec<Point3<Q>> = (0..24).map(|i| point(i % 4, i / 4 % 3, i / 12)).collect();
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(counts(&hull.solid), (8, 12, 6));
    // A square pyramid whose base has collinear points along its edges.
    let mut pts = vec![
        point::<Q>(0, 0, 0),
        point(1, 0, 0),
        point(2, 0, 0),
        point(2, 1, 0),
        point(2, 2, 0),
        point(0, 2, 0),
        point(1, 1, 3),
    ];
    pts.push(point(0, 1, 0));
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(counts(&hull.solid), (5, 8, 5));
    assert_eq!(hull.input_index, vec![0, 2, 4, 5, 6]);
}

#[test]
fn hull_errors() {
    let p = |v: &[(i64, i64, i64)]| v.iter().map(|&(x, y, z)| point::<Q>(x, y, z)).collect::<Vec<_>>();
    assert_eq!(
        convex_hull(&p(&[(0, 0, 0), (1, 0, 0), (0, 0, 0), (0, 1, 0), (1, 0, 0)])).unwrap_err(),
        HullError::TooFewPoints { count: 3 }
    );
    assert_eq!(
        convex_hull(&p(&[(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3), (-4, -4, -4)])).unwrap_err(),
        HullError::Collinear
    );
    assert_eq!(
        convex_hull(&p(&[(0, 0, 0), (1, 0, 0), (0, 1, 0), (5, 7, 0), (-1, 3, 0)])).unwrap_err(),
        HullError::Coplanar
    );
    let nan = vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, f64::INFINITY, 0.0)];
    assert_eq!(convex_hull(&nan).unwrap_err(), HullError::NonFinite { point: 1, coordinate: 1 });
}

mod hull_properties {
    //! The f64 hull against the exact one under the contract, on point sets full of ties:
    //! small integer grids (many coplanar and collinear points), dyadic grids, and exactly
    //! rotated grids rounded to binary64 (nearly coplanar).
    use super::*;
    use proptest::prelude::*;
    use touchstone::query::{both, Query, ShapeSpec, Validate};
    use touchstone_oracle::encode::replay_line;

    fn grid_points() -> impl Strategy<Value = Vec<[f64; 3]>> {
        proptest::collection::vec([-2i32..=2, -2i32..=2, -2i32..=2].prop_map(|c| c.map(f64::from)), 4..24)
    }

    fn dyadic_points() -> impl Strategy<Value = Vec<[f64; 3]>> {
        proptest::collection::vec([-8i32..=8, -8i32..=8, -8i32..=8].prop_map(|c| c.map(|x| x as f64 / 4.0)), 4..24)
    }

    fn rotated_grid() -> impl Strategy<Value = Vec<[f64; 3]>> {
        (grid_points(), [1i64..=4, -3i64..=3, -3i64..=3, -3i64..=3]).prop_map(|(pts, q)| {
            let r = Affine::from_quaternion(&q.map(Q::from_i64), Vector3::zeros()).unwrap();
            pts.iter()
                .map(|p| {
                    let e = r.apply_point(&Point3::from(p.map(|c| Q::from_f64(c).unwrap())));
                    [e.x.to_f64(), e.y.to_f64(), e.z.to_f64()]
                })
                .collect()
        })
    }

    proptest! {
        // Degenerate point sets are set aside after their refusal is checked: at most a
        // quarter of the cases (more fails the test).
        #![proptest_config(ProptestConfig { cases: 150, max_global_rejects: 37, ..ProptestConfig::default() })]

        /// Through the `validate` op's own contract (`query::both`); where the exact path
        /// refuses the points, the f64 path must refuse them too.
        #[test]
        fn f64_hull_agrees_with_exact(pts in prop_oneof![grid_points(), dyadic_points(), rotated_grid()]) {
            let p: Vec<Point3<f64>> = pts.iter().map(|c| Point3::from(*c)).collect();
            let q = Validate::new(ShapeSpec::ConvexHull(p));
            let replay = replay_line(&q);
            match both(&q) {
                Ok(r) => prop_assert!(r.agreement.is_ok(), "{:?}\nreplay: {replay}", r.agreement),
                Err(e) => prop_assert!(q.answer::<f64>().is_err(), "exact refused ({e:?}), f64 answered\nreplay: {replay}"),
            }
        }

        #[test]
        fn exact_hull_is_valid_and_contains_every_point(pts in grid_points()) {
            let p: Vec<Point3<Q>> = pts.iter().map(|c| Point3::from(c.map(|x| Q::from_f64(x).unwrap()))).collect();
            let h = match convex_hull(&p) {
                Ok(h) => h,
                Err(e) => {
                    // A refusal must be the right one, checked independently (then the case
                    // is set aside: at most a quarter of them, `max_global_rejects`).
                    prop_assert_eq!(Some(e), degeneracy(&p));
                    prop_assume!(false);
                    unreachable!()
                }
            };
            prop_assert_eq!(degeneracy(&p), None, "a hull of degenerate points");
            assert_well_formed(&h.solid);
            prop_assert_eq!(h.solid.is_convex(), Ok(true));
            // Every input point is inside or on every face; every hull vertex is extreme
            // (strictly above the plane of some face it is not on would be outside).
            for f in 0..h.solid.face_count() {
                for q in &p {
                    prop_assert_ne!(touchstone::predicates::side_of_plane(h.solid.plane(f), q), Ok(touchstone::predicates::Side::Above));
                }
            }
            // Extreme points: no hull vertex lies in the hull of the others.
            for v in 0..h.solid.vertex_count() {
                let others: Vec<Point3<Q>> = (0..h.solid.vertex_count()).filter(|&w| w != v).map(|w| h.solid.vertex(w).clone()).collect();
                match convex_hull(&others) {
                    Ok(rest) => {
                        let outside = (0..rest.solid.face_count()).any(|f| touchstone::predicates::side_of_plane(rest.solid.plane(f), h.solid.vertex(v)) == Ok(touchstone::predicates::Side::Above));
                        prop_assert!(outside, "hull vertex {} is not extreme", h.input_index[v]);
                    }
                    // The others are flat while the hull is a solid: v is off their plane.
                    Err(e) => prop_assert!(degeneracy(&others) == Some(e), "the others' hull"),
                }
            }
        }
    }

    /// Why points have no solid hull, found without the hull code: fewer than four distinct,
    /// all on one line, or all in one plane; `None` for points spanning space.
    fn degeneracy(p: &[Point3<Q>]) -> Option<HullError> {
        use touchstone::predicates::{orient3d, Orientation};
        let mut distinct: Vec<&Point3<Q>> = Vec::new();
        for q in p {
            if !distinct.contains(&q) {
                distinct.push(q);
            }
        }
        if distinct.len() < 4 {
            return Some(HullError::TooFewPoints { count: distinct.len() });
        }
        let (a, b) = (distinct[0], distinct[1]);
        let Some(c) = distinct.iter().copied().find(|&c| (b - a).cross(&(c - a)) != Vector3::zeros()) else {
            return Some(HullError::Collinear);
        };
        if distinct.iter().all(|d| orient3d(a, b, c, d) == Ok(Orientation::Coplanar)) {
            return Some(HullError::Coplanar);
        }
        None
    }
}
