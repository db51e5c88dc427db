//! Contact tracking (Mirtich 1998 §3) on exactly posed boxes: contacts added from V-Clip's
//! closest pairs, their points tracked along their features, and inactivated when a point
//! leaves its feature or the features drift beyond ε; expected points computed from the posed
//! vertex coordinates by hand (the floor is axis-aligned).

use num_rational::BigRational;
use touchstone::brep::shapes::{cube, cuboid};
use touchstone::brep::{Feature, Solid};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::scalar::ratio;
use touchstone::vclip::tracking::{ContactTracker, Inactivation};

type Q = BigRational;

fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

fn pose(s: &Solid<Q>, quat: [i64; 4], t: [Q; 3]) -> Solid<Q> {
    let [x, y, z] = t;
    let map = Affine::from_quaternion(&quat.map(|c| q(c, 1)), Vector3::new(x, y, z)).unwrap();
    s.transformed(&map).unwrap()
}

/// The floor: top face z = 0 over [-8, 8]², and the index of that face.
fn floor() -> (Solid<Q>, usize) {
    let f = pose(&cuboid(q(8, 1), q(8, 1), q(1, 1)).unwrap(), [1, 0, 0, 0], [q(0, 1), q(0, 1), q(-1, 1)]);
    let top = (0..f.face_count())
        .find(|&k| {
            let n = &f.plane(k).normal;
            n.x == q(0, 1) && n.y == q(0, 1) && n.z > q(0, 1)
        })
        .unwrap();
    (f, top)
}

/// The unit cube turned by `quat` and moved so its lowest vertex is at height `h`, shifted
/// by (dx, 0): the solid and its lowest vertex.
fn settled(quat: [i64; 4], h: Q, dx: Q) -> (Solid<Q>, usize) {
    let turned = pose(&cube(), quat, [q(0, 1), q(0, 1), q(0, 1)]);
    let low = (0..8).min_by(|&i, &j| turned.vertex(i).z.cmp(&turned.vertex(j).z)).unwrap();
    let lift = h - turned.vertex(low).z.clone();
    (pose(&turned, [1, 0, 0, 0], [dx, q(0, 1), lift]), low)
}

fn vertex_face_set(t: &ContactTracker<Q>) -> Vec<usize> {
    let mut v: Vec<usize> = t
        .contacts()
        .iter()
        .map(|c| match c.features.0 {
            Feature::Vertex(v) => v,
            ref other => panic!("expected vertex-face contacts, got {other:?}"),
        })
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn a_settling_box_gains_contacts_and_loses_them_off_the_edge_and_when_lifted() {
    let (fl, top) = floor();
    let mut t = ContactTracker::new(q(1, 4)); // ε = 1/2
                                              // Tilted about (1, 2, 0) by a small rational rotation: one lowest vertex, 1/1000 up.
    let (a1, v1) = settled([100, 1, 2, 0], q(1, 1000), q(0, 1));
    let s = t.update(&a1, &fl).unwrap();
    assert_eq!(s.added, Some((Feature::Vertex(v1), Feature::Face(top))));
    let c = &t.contacts()[0];
    let p = a1.vertex(v1);
    assert_eq!(c.points, (p.clone(), Point3::new(p.x.clone(), p.y.clone(), q(0, 1))));
    assert_eq!(c.squared_distance, q(1, 1_000_000));
    // Tilted about (-2, 1, 0): another corner is lowest; the first stays within ε and tracked.
    let (a2, v2) = settled([100, -2, 1, 0], q(1, 1000), q(0, 1));
    assert_ne!(v1, v2);
    assert!(a2.vertex(v1).z < q(1, 2));
    let s = t.update(&a2, &fl).unwrap();
    assert_eq!(s.added, Some((Feature::Vertex(v2), Feature::Face(top))));
    assert!(s.removed.is_empty());
    assert_eq!(vertex_face_set(&t), {
        let mut e = vec![v1, v2];
        e.sort_unstable();
        e
    });
    for c in t.contacts() {
        let Feature::Vertex(v) = c.features.0 else { unreachable!() };
        let p = a2.vertex(v);
        assert_eq!(c.points.1, Point3::new(p.x.clone(), p.y.clone(), q(0, 1)));
        assert_eq!(c.squared_distance, p.z.clone() * p.z.clone());
    }
    // Slid along x until the floor's edge x = 8 passes between the two: the vertex beyond it
    // leaves the face's Voronoi region.
    let (x1, x2) = (a2.vertex(v1).x.clone(), a2.vertex(v2).x.clone());
    assert_ne!(x1, x2);
    let dx = q(8, 1) - (x1 + x2) / q(2, 1);
    let (a3, _) = settled([100, -2, 1, 0], q(1, 1000), dx.clone());
    let beyond: Vec<usize> = [v1, v2].into_iter().filter(|&v| a3.vertex(v).x > q(8, 1)).collect();
    assert_eq!(beyond.len(), 1, "the construction puts one of them past the edge");
    let s = t.update(&a3, &fl).unwrap();
    let mut gone: Vec<usize> = s
        .removed
        .iter()
        .map(|(f, why)| {
            assert_eq!(*why, Inactivation::LeftFeature);
            match f.0 {
                Feature::Vertex(v) => v,
                _ => unreachable!(),
            }
        })
        .collect();
    gone.sort_unstable();
    assert_eq!(gone, beyond);
    // Lifted by 1: every contact is beyond ε and nothing is added.
    let (a4, _) = settled([100, -2, 1, 0], q(1001, 1000), dx);
    let s = t.update(&a4, &fl).unwrap();
    assert!(s.removed.iter().all(|(_, why)| *why == Inactivation::BeyondThreshold));
    assert!(!s.removed.is_empty());
    assert_eq!(s.added, None);
    assert!(t.contacts().is_empty());
}

#[test]
fn crossing_edges_are_tracked_until_one_slides_off() {
    // A: the cube turned about x by (cos, sin) = (3/5, 4/5); its lowest edge runs along x at
    // y = 1/5, z = -7/5. B: the cube turned about y likewise; its highest edge runs along y at
    // x = 1/5, z = 7/5. A is lifted by 14/5 + 1/100: the edges cross 1/100 apart at
    // (1/5, 1/5).
    let b = pose(&cube(), [2, 0, 1, 0], [q(0, 1), q(0, 1), q(0, 1)]);
    let a_at = |dx: Q, dy: Q| pose(&cube(), [2, 1, 0, 0], [dx, dy, q(281, 100)]);
    let mut t = ContactTracker::new(q(1, 100));
    let s = t.update(&a_at(q(0, 1), q(0, 1)), &b).unwrap();
    let (fa, fb) = s.added.clone().expect("the crossing edges are the closest pair");
    assert!(matches!((&fa, &fb), (Feature::Edge(..), Feature::Edge(..))), "{fa:?} {fb:?}");
    let c = &t.contacts()[0];
    assert_eq!(c.points.0, Point3::new(q(1, 5), q(1, 5), q(141, 100)));
    assert_eq!(c.points.1, Point3::new(q(1, 5), q(1, 5), q(7, 5)));
    assert_eq!(c.squared_distance, q(1, 10_000));
    // Slid 1/2 along x (along A's edge): the crossing stays at (1/5, 1/5).
    let s = t.update(&a_at(q(1, 2), q(0, 1)), &b).unwrap();
    assert!(s.removed.is_empty());
    assert_eq!(t.contacts()[0].points.1, Point3::new(q(1, 5), q(1, 5), q(7, 5)));
    // Slid 3/2 along y: the crossing would be at y = 17/10, past B's edge (y ≤ 1).
    let s = t.update(&a_at(q(1, 2), q(3, 2)), &b).unwrap();
    assert_eq!(s.removed, vec![((fa, fb), Inactivation::LeftFeature)]);
}

#[test]
fn parallel_edges_are_tracked_at_the_middle_of_their_overlap() {
    // The same crossing contact, then A turned a quarter about z as well ((1,0,0,1)·(2,1,0,0)
    // = (2,1,1,2)): its lowest edge now runs along y, parallel to B's top edge.
    let b = pose(&cube(), [2, 0, 1, 0], [q(0, 1), q(0, 1), q(0, 1)]);
    let mut t = ContactTracker::new(q(1, 4));
    let a0 = pose(&cube(), [2, 1, 0, 0], [q(0, 1), q(0, 1), q(281, 100)]);
    let s = t.update(&a0, &b).unwrap();
    let (fa, _) = s.added.unwrap();
    let Feature::Edge(i, j) = fa else { panic!("{fa:?}") };
    let turned = pose(&cube(), [2, 1, 1, 2], [q(0, 1), q(0, 1), q(0, 1)]);
    let (pi, pj) = (turned.vertex(i).clone(), turned.vertex(j).clone());
    assert_eq!((pi.x.clone(), pi.z.clone()), (pj.x.clone(), pj.z.clone()), "A's edge runs along y");
    // Move A so that its edge sits 1/10 above B's, shifted by 1 along y: overlap y ∈ [0, 1].
    let shift = [q(1, 5) - pi.x.clone(), q(1, 1), q(7, 5) + q(1, 10) - pi.z.clone()];
    let a1 = pose(&turned, [1, 0, 0, 0], shift);
    let s = t.update(&a1, &b).unwrap();
    assert!(s.removed.is_empty(), "{:?}", s.removed);
    let c = t.contacts().iter().find(|c| c.features.0 == fa).unwrap();
    assert_eq!(c.points.0, Point3::new(q(1, 5), q(1, 2), q(3, 2)));
    assert_eq!(c.points.1, Point3::new(q(1, 5), q(1, 2), q(7, 5)));
    assert_eq!(c.squared_distance, q(1, 100));
}
