//! Sub-part hierarchies of convex pieces (Lin–Manocha 1994 §3.6): exact distances and
//! colliding pieces of nonconvex models, against values by hand and the brute force over
//! every pair of pieces.

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::shapes::cuboid;
use touchstone::brep::Solid;
use touchstone::geom::{Affine, Vector3};
use touchstone::scalar::ratio;
use touchstone::vclip::hierarchy::{hierarchy_distance, Hierarchy, HierarchyError, Tree};
use touchstone::vclip::{brute_force_distance, Status};

type Q = BigRational;

fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

/// The box [x0, x1] × [y0, y1] × [0, 1].
fn slab(x0: Q, x1: Q, y0: Q, y1: Q) -> Solid<Q> {
    let two = q(2, 1);
    let b = cuboid((x1.clone() - x0.clone()) / two.clone(), (y1.clone() - y0.clone()) / two.clone(), q(1, 2)).unwrap();
    b.transformed(&Affine::translation(Vector3::new((x0 + x1) / two.clone(), (y0 + y1) / two, q(1, 2)))).unwrap()
}

/// A U: base [0, 3] × [0, 1] (piece 0), arms [0, 1] × [1, 3] (piece 1) and [2, 3] × [1, 3]
/// (piece 2), all of height 1.
fn u_model() -> Hierarchy<Q> {
    let pieces = [
        slab(q(0, 1), q(3, 1), q(0, 1), q(1, 1)),
        slab(q(0, 1), q(1, 1), q(1, 1), q(3, 1)),
        slab(q(2, 1), q(3, 1), q(1, 1), q(3, 1)),
    ];
    Hierarchy::new(&pieces, &Tree::Node(vec![Tree::Leaf(0), Tree::Node(vec![Tree::Leaf(1), Tree::Leaf(2)])])).unwrap()
}

fn single(s: Solid<Q>) -> Hierarchy<Q> {
    Hierarchy::new(&[s], &Tree::Leaf(0)).unwrap()
}

#[test]
fn a_box_in_the_notch_of_a_u() {
    let u = u_model();
    // Inside the notch: the hulls overlap but no piece does; 1/4 from each arm.
    let inside = single(slab(q(5, 4), q(7, 4), q(2, 1), q(5, 2)));
    let r = hierarchy_distance(&u, &inside).unwrap();
    assert_eq!((r.status, r.squared_distance.clone()), (Status::Separated, q(1, 16)));
    assert!(r.colliding.is_empty());
    assert!(r.closest.0 == (1, 0) || r.closest.0 == (2, 0), "{:?}", r.closest.0);
    // Resting on the base: touching piece 0 only.
    let resting = single(slab(q(5, 4), q(7, 4), q(1, 1), q(3, 2)));
    let r = hierarchy_distance(&u, &resting).unwrap();
    assert_eq!((r.status, r.squared_distance.clone()), (Status::Touching, q(0, 1)));
    assert_eq!(r.colliding, vec![(0, 0, Status::Touching)]);
    // Into the left arm by 1/4: penetrating piece 1.
    let into = single(slab(q(3, 4), q(7, 4), q(2, 1), q(5, 2)));
    let r = hierarchy_distance(&u, &into).unwrap();
    assert_eq!(r.status, Status::Penetrating);
    assert_eq!(r.colliding, vec![(1, 0, Status::Penetrating)]);
    // Far away: one test of the root hulls decides it, at the hulls' distance (5 along x).
    let far = single(slab(q(8, 1), q(9, 1), q(0, 1), q(1, 1)));
    let r = hierarchy_distance(&u, &far).unwrap();
    assert_eq!(r.squared_distance, q(25, 1));
    assert!(r.tests <= 4, "{} tests", r.tests);
}

#[test]
fn bad_trees_are_typed_errors() {
    let p = [slab(q(0, 1), q(1, 1), q(0, 1), q(1, 1)), slab(q(2, 1), q(3, 1), q(0, 1), q(1, 1))];
    assert_eq!(Hierarchy::new(&p, &Tree::Leaf(0)).unwrap_err(), HierarchyError::BadLeaf { piece: 1 });
    assert_eq!(
        Hierarchy::new(&p, &Tree::Node(vec![Tree::Leaf(0), Tree::Leaf(0)])).unwrap_err(),
        HierarchyError::BadLeaf { piece: 0 }
    );
    assert_eq!(Hierarchy::new(&p, &Tree::Node(vec![])).unwrap_err(), HierarchyError::Empty);
    let l = touchstone::brep::shapes::l_shape::<Q>();
    assert_eq!(Hierarchy::new(&[l], &Tree::Leaf(0)).unwrap_err(), HierarchyError::NotConvex { piece: 0 });
}

/// A comb: a spine [0, 2n] × [0, 1] and n teeth [2k, 2k + 1] × [1, 3].
fn comb(n: i64) -> Vec<Solid<Q>> {
    let mut pieces = vec![slab(q(0, 1), q(2 * n, 1), q(0, 1), q(1, 1))];
    pieces.extend((0..n).map(|k| slab(q(2 * k, 1), q(2 * k + 1, 1), q(1, 1), q(3, 1))));
    pieces
}

fn posed(pieces: &[Solid<Q>], quat: [i64; 4], t: [i64; 3]) -> Vec<Solid<Q>> {
    let map = Affine::from_quaternion(&quat.map(|c| q(c, 1)), Vector3::from(t.map(|c| q(c, 2)))).unwrap();
    pieces.iter().map(|p| p.transformed(&map).unwrap()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Two combs interleaved, touching or apart under rational poses: the hierarchy's answer
    /// equals the minimum over every pair of pieces by the brute force.
    #[test]
    fn combs_equal_the_brute_force_over_piece_pairs(
        quat in prop::array::uniform4(-2i64..=2).prop_filter("a rotation", |q| q.iter().any(|&x| x != 0)),
        t in prop::array::uniform3(-8i64..=8),
    ) {
        let a = comb(3);
        let b = posed(&comb(2), quat, t);
        let (ha, hb) = (Hierarchy::balanced(&a).unwrap(), Hierarchy::balanced(&b).unwrap());
        let r = hierarchy_distance(&ha, &hb).unwrap();
        let mut min: Option<Q> = None;
        let mut colliding = Vec::new();
        for (i, pa) in a.iter().enumerate() {
            for (j, pb) in b.iter().enumerate() {
                let c = brute_force_distance(pa, pb).unwrap();
                if c.status != Status::Separated {
                    colliding.push((i, j, c.status));
                }
                if min.as_ref().is_none_or(|m| c.squared_distance < *m) {
                    min = Some(c.squared_distance);
                }
            }
        }
        prop_assert_eq!(&r.squared_distance, &min.unwrap());
        prop_assert_eq!(&r.colliding, &colliding);
        let expected = if colliding.iter().any(|c| c.2 == Status::Penetrating) {
            Status::Penetrating
        } else if colliding.is_empty() { Status::Separated } else { Status::Touching };
        prop_assert_eq!(r.status, expected);
    }
}
