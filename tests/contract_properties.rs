//! f64 against exact under the ops' own agreement contract (`query::both`), on configurations
//! that are degenerate by construction: grid-snapped points, coplanar points, points exactly
//! rotated by rational quaternions (coplanar before rounding to binary64), points a hair off a
//! plane, points on a plane. A failing case prints the oracle query that reproduces it.

use nalgebra::Vector3;
use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::contract::{budget, check, weakened, Agreement, Margin};
use touchstone::geom::{point, Affine, Plane, Point3};
use touchstone::predicates::{orient3d, orient3d_scaled, Orientation};
use touchstone::query::{both, Orient3d, PlaneSpec, SideOfPlane};
use touchstone::scalar::Scalar;
use touchstone_oracle::encode::replay_line;

/// A coordinate on a small integer grid or a dyadic grid (exact in binary64).
fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-8i32..=8).prop_map(f64::from),
        (-64i32..=64, 0u32..=6).prop_map(|(m, k)| m as f64 / (1u32 << k) as f64),
    ]
}

fn grid_point() -> impl Strategy<Value = [f64; 3]> {
    [coord(), coord(), coord()]
}

fn dyadic_weight() -> impl Strategy<Value = f64> {
    (-8i32..=8, 0u32..=3).prop_map(|(m, k)| m as f64 / (1u32 << k) as f64)
}

/// d = a + s(b − a) + t(c − a): exact in binary64 for these grids, so exactly coplanar.
fn coplanar() -> impl Strategy<Value = [[f64; 3]; 4]> {
    (grid_point(), grid_point(), grid_point(), dyadic_weight(), dyadic_weight())
        .prop_map(|(a, b, c, s, t)| [a, b, c, [0, 1, 2].map(|i| a[i] + s * (b[i] - a[i]) + t * (c[i] - a[i]))])
}

/// Coplanar points pushed off their plane by 2^-k along a coordinate axis, k in 20..=70:
/// margins on both sides of the f64 budget.
fn nearly_coplanar() -> impl Strategy<Value = [[f64; 3]; 4]> {
    (coplanar(), 0usize..3, 20i32..=70, any::<bool>()).prop_map(|(mut p, axis, k, up)| {
        p[3][axis] += if up { 1.0 } else { -1.0 } * 2f64.powi(-k);
        p
    })
}

/// Points of the plane z = h exactly rotated by a rational quaternion, rounded to binary64.
fn rotated() -> impl Strategy<Value = [[f64; 3]; 4]> {
    let q =
        [-5i64..=5, -5i64..=5, -5i64..=5, -5i64..=5].prop_filter("nonzero quaternion", |q| q.iter().any(|&x| x != 0));
    (q, proptest::array::uniform4([-9i64..=9, -9i64..=9]), -9i64..=9).prop_map(|(q, xy, h)| {
        let r = Affine::from_quaternion(&q.map(|x| BigRational::from_integer(x.into())), Vector3::zeros()).unwrap();
        xy.map(|[x, y]| {
            let p: Point3<BigRational> = r.apply_point(&point(x, y, h));
            [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
        })
    })
}

fn four_points() -> impl Strategy<Value = [[f64; 3]; 4]> {
    prop_oneof![[grid_point(), grid_point(), grid_point(), grid_point()], coplanar(), nearly_coplanar(), rotated()]
}

fn exact_point(p: &[f64; 3]) -> Point3<BigRational> {
    Point3::from(p.map(|x| BigRational::from_f64(x).unwrap()))
}

/// The `orient3d` op's contract on one input (`query::both`, as `"backend": "both"` answers it);
/// returns how it agreed.
fn orient3d_agreement(p: &[[f64; 3]; 4]) -> Agreement {
    let query = Orient3d { points: p.map(Point3::from) };
    let r = both(&query).expect("exact backends always decide");
    r.agreement.unwrap_or_else(|d| panic!("{d}\nreplay: {}", replay_line(&query)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 200, ..ProptestConfig::default() })]

    #[test]
    fn orient3d_f64_agrees_with_exact(p in four_points()) {
        orient3d_agreement(&p);
    }

    #[test]
    fn coplanar_by_construction_is_coplanar_on_both(p in coplanar()) {
        let e = p.each_ref().map(exact_point);
        prop_assert_eq!(orient3d(&e[0], &e[1], &e[2], &e[3]), Ok(Orientation::Coplanar));
        let f = p.map(Point3::from);
        prop_assert_eq!(orient3d(&f[0], &f[1], &f[2], &f[3]), Ok(Orientation::Coplanar));
    }

    #[test]
    fn side_of_plane_f64_agrees_with_exact(p in four_points(), offset in -3i32..=3, k in 0i32..=60) {
        // The plane through the first three points, computed exactly, its coefficients rounded
        // to binary64: both paths take exactly those doubles (as the oracle's `coefficients`
        // plane does); the point is the fourth one, nudged off the plane. Collinear first
        // points have no plane: checked, and set aside (at most a tenth of the cases).
        let e = p.each_ref().map(exact_point);
        let plane = match touchstone::constructions::plane_through(&e[0], &e[1], &e[2]) {
            Ok(plane) => plane,
            Err(_) => {
                prop_assert!((&e[1] - &e[0]).cross(&(&e[2] - &e[0])) == nalgebra::Vector3::zeros(), "no plane through {:?}", p);
                prop_assume!(false);
                unreachable!()
            }
        };
        let coeffs = plane.coefficients().map(|c| c.to_f64());
        // A normal rounded to zero (coefficients below binary64's range) is no plane either.
        prop_assume!(coeffs[..3].iter().any(|c| *c != 0.0));
        let mut q = p[3];
        q[2] += offset as f64 * 2f64.powi(-k);
        // The `side_of_plane` op's contract, as `"backend": "both"` answers it.
        let plane = Plane::from_coefficients(coeffs[0], coeffs[1], coeffs[2], coeffs[3]).unwrap();
        let query = SideOfPlane { plane: PlaneSpec::Coefficients(plane), point: Point3::from(q) };
        let r = both(&query).expect("exact backends always decide");
        r.agreement.unwrap_or_else(|d| panic!("{d}\nreplay: {}", replay_line(&query)));
    }
}

/// The generators really do produce the degenerate cases the contract is about: strict
/// agreements, tolerance agreements, and f64 answers that differ from exact ones.
#[test]
fn generators_reach_both_sides_of_the_budget() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut strict, mut tolerant, mut differing) = (0, 0, 0);
    for _ in 0..3000 {
        let p = nearly_coplanar().new_tree(&mut runner).unwrap().current();
        match orient3d_agreement(&p) {
            Agreement::Strict => strict += 1,
            Agreement::WithinTolerance => tolerant += 1,
        }
        let e = p.each_ref().map(exact_point);
        let f = p.map(Point3::from);
        if orient3d(&e[0], &e[1], &e[2], &e[3]) != orient3d(&f[0], &f[1], &f[2], &f[3]) {
            differing += 1;
        }
    }
    assert!(
        strict > 100 && tolerant > 100 && differing > 100,
        "strict {strict}, tolerant {tolerant}, differing {differing}"
    );
}

/// A hand-made case below the budget: d lies 2^-45 off the plane of a generic triangle
/// (relative margin ≈ 3e-15, below the budget of ≈ 9e-13). The contract admits "coplanar" or the true
/// sign from f64, never the opposite sign; far above the budget it admits only the true sign.
/// (With axis-aligned rows the permanent is tight and f64 is exact: margin 1. The triangle
/// must be generic for rounding to matter.)
#[test]
fn contract_rejects_the_opposite_sign_near_the_budget() {
    let (a, b, c) = ([1.0, 2.0, 3.0], [4.0, -5.0, 6.0], [-7.0, 8.0, 9.0]);
    let d = [0, 1, 2]
        .map(|i| a[i] + 0.5 * (b[i] - a[i]) + 0.25 * (c[i] - a[i]) + if i == 2 { 2f64.powi(-45) } else { 0.0 });
    let p = [a, b, c, d];
    let e = p.each_ref().map(exact_point);
    let margin = Margin::of(&orient3d_scaled(&e[0], &e[1], &e[2], &e[3]));
    assert!(!margin.exceeds(budget::<f64>()), "margin {}", margin.to_decimal(3));
    let exact = orient3d(&e[0], &e[1], &e[2], &e[3]).unwrap();
    assert_ne!(exact, Orientation::Coplanar);
    assert_eq!(orient3d_agreement(&p), Agreement::WithinTolerance);
    let admissible = |e: &Orientation, f: &Orientation| weakened(e, f, &Orientation::Coplanar);
    let opposite = if exact == Orientation::Positive { Orientation::Negative } else { Orientation::Positive };
    assert!(check(&exact, &opposite, &margin, budget::<f64>(), admissible, &[]).is_err());
    assert!(check(&exact, &Orientation::Coplanar, &margin, budget::<f64>(), admissible, &[]).is_ok());
    // Far above the budget, even "coplanar" is a breach.
    let big = Margin::Finite(BigRational::new(1.into(), 4.into()));
    assert!(check(&exact, &Orientation::Coplanar, &big, budget::<f64>(), admissible, &[]).is_err());
}

/// A 2×2 minor that underflows in binary64 and is then multiplied by a huge cofactor entry:
/// the minor s·t (s = 1.5e-323, t = 1e-100) rounds to 0, and −5.5e303 · 0 loses the term
/// −8.2e-120 that decides the sign. With only the normal term +1e-120 left, f64 used to say
/// `positive` against a magnitude of 1e-120 where the exact answer is `negative` at relative
/// margin 0.8: a breach (found by the `predicates_diff` fuzz target with 1.5e-323 and
/// −5.487803451377466e303). The magnitude now carries the minors' underflow weight
/// (`permanent3`), so f64 calls it coplanar and the margin is far below the budget.
#[test]
fn an_underflowed_minor_times_a_huge_entry_is_within_tolerance() {
    let (x, s, t) = (-5.487803451377466e303, 1.5e-323, 1e-100);
    let p = [[0.0, 0.0, 0.0], [x, -1.0, 0.0], [1e-20, s, 0.0], [0.0, 0.0, t]];
    let e = p.each_ref().map(exact_point);
    assert_eq!(orient3d(&e[0], &e[1], &e[2], &e[3]), Ok(Orientation::Negative));
    // The f64 determinant really lost the deciding term (the case is what it says).
    let f = p.map(Point3::from);
    assert_eq!(orient3d_scaled(&f[0], &f[1], &f[2], &f[3]).value, 1e-120);
    assert_eq!(orient3d(&f[0], &f[1], &f[2], &f[3]), Ok(Orientation::Coplanar));
    let margin = Margin::of(&orient3d_scaled(&e[0], &e[1], &e[2], &e[3]));
    assert!(!margin.exceeds(budget::<f64>()), "margin {}", margin.to_decimal(3));
    assert_eq!(orient3d_agreement(&p), Agreement::WithinTolerance);
    // Without the huge entry nothing underflows that is multiplied again: the margin is ~1 and
    // the answers agree strictly.
    let q = [[0.0, 0.0, 0.0], [-5.0, -1.0, 0.0], [1e-20, 2e-20, 0.0], [0.0, 0.0, t]];
    assert_eq!(orient3d_agreement(&q), Agreement::Strict);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The margin of a list of tests on the fast exact backend (`margin_of_exact`: cross
    /// products, one division) is the reference's (`margin_of`: a division per test), on
    /// orientation tests of degenerate quadruples (zero margins, tiny ones, ties between
    /// equal tests), single and grouped (`AllOf`: the largest part's margin).
    #[test]
    fn margins_on_exact_are_the_references(sets in proptest::collection::vec(proptest::collection::vec(four_points(), 1..4), 0..6)) {
        use touchstone::query::{margin_of, margin_of_exact, Decisive};
        use touchstone::scalar::Exact;
        let tests = |to: &dyn Fn(f64) -> Option<BigRational>| -> Vec<Decisive<BigRational>> {
            sets.iter().enumerate().map(|(i, group)| {
                let mut parts: Vec<_> = group.iter().map(|p| {
                    let e = p.map(|c| Point3::from(c.map(|x| to(x).unwrap())));
                    orient3d_scaled(&e[0], &e[1], &e[2], &e[3])
                }).collect();
                if i % 2 == 0 { Decisive::Test(parts.remove(0)) } else { Decisive::AllOf(parts) }
            }).collect()
        };
        let reference = tests(&|x| BigRational::from_f64(x).ok());
        let fast: Vec<Decisive<Exact>> = sets.iter().enumerate().map(|(i, group)| {
            let mut parts: Vec<_> = group.iter().map(|p| {
                let e = p.map(|c| Point3::from(c.map(|x| Exact::from_f64(x).unwrap())));
                orient3d_scaled(&e[0], &e[1], &e[2], &e[3])
            }).collect();
            if i % 2 == 0 { Decisive::Test(parts.remove(0)) } else { Decisive::AllOf(parts) }
        }).collect();
        let expected = margin_of(&reference);
        prop_assert_eq!(&margin_of_exact(&fast), &expected);
        prop_assert_eq!(&margin_of_exact(&reference), &expected);
    }
}
