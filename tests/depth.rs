//! The exact penetration depth of two convex shapes (`query::penetration_depth`): depths of
//! axis-aligned boxes computed by hand, and on rotated shapes an independent check: moving b
//! by the answer leaves the shapes touching (V-Clip), and by less leaves them penetrating.

use num_rational::BigRational;
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::query::{exact_answer, penetration_depth, Distance, PoseSpec, Posed, ShapeSpec};
use touchstone::scalar::{ratio, Scalar};
use touchstone::vclip::Status;

type Q = BigRational;

fn q(p: i64, d: i64) -> Q {
    ratio(p, d)
}

fn boxed(h: [Q; 3]) -> ShapeSpec {
    ShapeSpec::cuboid(h).unwrap()
}

fn pose(quat: [i64; 4], t: [Q; 3]) -> PoseSpec {
    PoseSpec::quaternion(quat.map(Q::from_i64), t).unwrap()
}

fn half() -> [Q; 3] {
    [q(1, 2), q(1, 2), q(1, 2)]
}

#[test]
fn axis_aligned_depths_computed_by_hand() {
    let a = Posed::new("a", boxed(half()), PoseSpec::identity());
    // Overlaps along x, y, z: 1/4, 7/8, 1/8: the depth is 1/8, along −z (b is below).
    let b = Posed::new("b", boxed(half()), pose([1, 0, 0, 0], [q(3, 4), q(1, 8), q(-7, 8)]));
    let p = penetration_depth(&a, &b).unwrap();
    assert_eq!(p.depth_squared, q(1, 64));
    assert!(p.normal[2] < q(0, 1) && p.normal[0] == q(0, 1) && p.normal[1] == q(0, 1));
    // Concentric unit cube and a 1 × 3 × 5 box: overlaps 1, 1, 1 along every axis... the
    // shortest way out is along x or y (b's half extent 1/2 + a's 1/2 = 1).
    let c = Posed::new("b", boxed([q(1, 2), q(3, 2), q(5, 2)]), PoseSpec::identity());
    assert_eq!(penetration_depth(&a, &c).unwrap().depth_squared, q(1, 1));
    // Touching face to face, and apart: no penetration.
    for x in [q(1, 1), q(3, 2)] {
        let d = Posed::new("b", boxed(half()), pose([1, 0, 0, 0], [x, q(0, 1), q(0, 1)]));
        assert_eq!(penetration_depth(&a, &d).unwrap().depth_squared, q(0, 1));
    }
}

fn status(a: &Posed, b: &Posed) -> Status {
    exact_answer(&Distance { a: a.clone(), b: b.clone() }).unwrap().output.status
}

/// b moved by `k` times the depth along the answer's direction.
fn moved(b: &Posed, t: [Q; 3], quat: [i64; 4], shift: [Q; 3]) -> Posed {
    let t = [0, 1, 2].map(|i| t[i].clone() + shift[i].clone());
    Posed::new("b", b.shape.clone(), pose(quat, t))
}

#[test]
fn moving_b_by_the_depth_leaves_them_touching() {
    let a = Posed::new("a", boxed(half()), PoseSpec::identity());
    let tetra = ShapeSpec::ConvexHull(vec![
        Point3::new(q(0, 1), q(0, 1), q(0, 1)),
        Point3::new(q(1, 1), q(0, 1), q(0, 1)),
        Point3::new(q(0, 1), q(1, 1), q(0, 1)),
        Point3::new(q(0, 1), q(0, 1), q(1, 1)),
    ]);
    // Exact rational rotations (rotating edges, so edge–edge axes compete with face normals).
    let mut checked = 0;
    for quat in [[1, 0, 0, 0], [2, 0, 0, 1], [3, 1, -1, 2], [1, 1, 1, 1], [5, 2, 1, -3]] {
        for t in [[q(1, 4), q(1, 8), q(0, 1)], [q(-1, 3), q(1, 5), q(1, 7)], [q(1, 2), q(-1, 2), q(1, 3)]] {
            for shape in [boxed(half()), tetra.clone()] {
                let b = Posed::new("b", shape, pose(quat, t.clone()));
                if status(&a, &b) != Status::Penetrating {
                    continue;
                }
                let p = penetration_depth(&a, &b).unwrap();
                assert!(p.depth_squared > q(0, 1));
                // The translation depth · n/|n| = o · n/|n|², rational: o² = depth² · |n|².
                let n2 = p.normal.dot(&p.normal);
                let o2 = p.depth_squared.clone() * n2.clone();
                let o = sqrt_exact(&o2).expect("a rational overlap along the axis");
                let shift = |k: Q| [0, 1, 2].map(|i| k.clone() * o.clone() * p.normal[i].clone() / n2.clone());
                assert_eq!(status(&a, &moved(&b, t.clone(), quat, shift(q(1, 1)))), Status::Touching, "{quat:?} {t:?}");
                assert_eq!(status(&a, &moved(&b, t.clone(), quat, shift(q(99, 100)))), Status::Penetrating);
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} penetrating pairs");
}

/// √x when x is the square of a rational.
fn sqrt_exact(x: &Q) -> Option<Q> {
    let (n, d) = (x.numer().sqrt(), x.denom().sqrt());
    (&n * &n == *x.numer() && &d * &d == *x.denom()).then(|| Q::new(n, d))
}

/// A solid as a polyhedron shape at the identity.
fn as_posed(name: &str, s: &touchstone::brep::Solid<Q>) -> Posed {
    let shape = ShapeSpec::Polyhedron { vertices: s.vertices().to_vec(), faces: s.faces().to_vec() };
    Posed::new(name, shape, PoseSpec::identity())
}

use proptest::prelude::*;
use touchstone::strategies::{convex_pair, Placement};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The property tests' degenerate pairs (grid shapes under integer quaternions, coplanar
    /// faces, placed touching or sunk by construction): touching gives depth 0; a sunk pair
    /// a positive depth, and moving b by it leaves them touching.
    #[test]
    fn depth_on_degenerate_pairs(
        ka in 0u8..6, kb in 0u8..6,
        qa in prop::array::uniform4(-2i8..3), qb in prop::array::uniform4(-2i8..3),
        ta in prop::array::uniform3(-8i8..9), tb in prop::array::uniform3(-8i8..9),
        cloud in prop::collection::vec(prop::array::uniform3(any::<i8>()), 4..12),
        sunk in any::<bool>(),
    ) {
        let placement = if sunk { Placement::Sunk } else { Placement::TouchingAbove };
        let (sa, sb) = convex_pair((ka, qa, ta), (kb, qb, tb), &cloud, placement);
        let (a, b) = (as_posed("a", &sa), as_posed("b", &sb));
        let p = penetration_depth(&a, &b).unwrap();
        if !sunk {
            prop_assert_eq!(p.depth_squared, q(0, 1));
            return Ok(());
        }
        prop_assert!(p.depth_squared > q(0, 1));
        let n2 = p.normal.dot(&p.normal);
        // Along the depth's own direction b must move exactly the depth.
        let along = touchstone::query::separation_along(&a, &b, &p.normal).unwrap();
        prop_assert_eq!(along.clone() * along / n2.clone(), p.depth_squared.clone());
        let o = sqrt_exact(&(p.depth_squared.clone() * n2.clone())).expect("a rational overlap");
        let shift = Vector3::from(p.normal.map(|x| x * o.clone() / n2.clone()));
        let moved = sb.transformed(&Affine::translation(shift)).unwrap();
        prop_assert_eq!(status(&a, &as_posed("b", &moved)), Status::Touching);
    }
}

#[test]
fn a_step_limit_ends_it() {
    use touchstone::budget::{with_budget, Budget};
    let a = Posed::new("a", boxed(half()), PoseSpec::identity());
    let b = Posed::new("b", boxed(half()), pose([3, 1, -1, 2], [q(1, 4), q(1, 8), q(0, 1)]));
    let r = with_budget(Budget { steps: Some(10), ..Budget::default() }, || penetration_depth(&a, &b));
    assert_eq!(r.unwrap_err().kind, touchstone::query::ErrorKind::Limit);
    assert!(penetration_depth(&a, &b).unwrap().depth_squared > q(0, 1));
}
