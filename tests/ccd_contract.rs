//! The `f64` CCD path against the exact one under the agreement contract, on grid cases that
//! are degenerate by construction: coplanar motion, a point passing exactly through a vertex
//! or an edge midpoint of the other primitive at t = 0, 1/2 or 1.

use proptest::prelude::*;
use touchstone_oracle::encode::replay_line;

/// The oracle line that replays a primitive CCD case (written by the oracle).
fn ccd_line(kind: CcdKind, t0: &[touchstone::geom::Point3<f64>; 4], t1: &[touchstone::geom::Point3<f64>; 4]) -> String {
    replay_line(&touchstone::query::Ccd { kind, t0: *t0, t1: *t1 })
}
use touchstone::strategies::{degenerate_ccd, CcdConstruction};
use touchstone::sweep::contract::{ccd_agrees, check_ccd_agreement};
use touchstone::sweep::{ccd, CcdKind};

fn construction() -> impl Strategy<Value = CcdConstruction> {
    prop_oneof![
        Just(CcdConstruction::Free),
        Just(CcdConstruction::Coplanar),
        (0u8..6, 0u8..3).prop_map(|(target, when)| CcdConstruction::Through { target, when }),
    ]
}

fn kind() -> impl Strategy<Value = CcdKind> {
    prop_oneof![Just(CcdKind::VertexFace), Just(CcdKind::EdgeEdge)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn f64_ccd_agrees_with_exact(k in kind(), pts in prop::array::uniform8(prop::array::uniform3(-8i8..=8)), c in construction()) {
        let (t0, t1) = degenerate_ccd(k, pts, c);
        let verdict = check_ccd_agreement(k, &t0, &t1);
        if let Err(d) = &verdict {
            panic!("{d}\nreplay: {}", ccd_line(k, &t0, &t1));
        }
        // The verdict settled on the filter where it can (what the fuzz target asks) is the
        // same.
        prop_assert_eq!(ccd_agrees(k, &t0, &t1).is_ok(), verdict.is_ok());
        // Passing through the other primitive by construction is a collision, no later than
        // the construction's time (for edges: unless the moving edge is a point).
        if let CcdConstruction::Through { when, .. } = c {
            let q = |p: &[touchstone::geom::Point3<f64>; 4]| p.map(|x| x.map(|c| num_rational::BigRational::from_float(c).unwrap()));
            let r = ccd(k, &q(&t0), &q(&t1)).unwrap();
            let tc = [0.0, 0.5, 1.0][when as usize];
            prop_assert!(r.collides(), "constructed to collide: {}", ccd_line(k, &t0, &t1));
            prop_assert!(r.toi.unwrap().to_f64() <= tc);
        }
    }
}
