//! The agreement contract for distances on degenerate pairs built exactly (integer
//! quaternions, grid translations, touching and penetrating by construction), rounded to
//! binary64: exact V-Clip equals the brute force and the construction's status, and the
//! `distance` op's `f64` answer agrees with its exact one on the rounded numbers under the op's
//! contract.

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::{Convexity, Solid};
use touchstone::query::{both, Distance, ErrorKind};
use touchstone::strategies::{convex_pair, Placement};
use touchstone::vclip::{brute_force_distance, vclip, Status};
use touchstone_oracle::encode::replay_line;

type Side = (u8, [i8; 4], [i8; 3]);

fn side() -> impl Strategy<Value = Side> {
    (0u8..6, prop::array::uniform4(-3i8..=3), prop::array::uniform3(-24i8..=24))
}

fn placement() -> impl Strategy<Value = Placement> {
    prop_oneof![Just(Placement::Free), Just(Placement::TouchingAbove), Just(Placement::Sunk)]
}

fn to_f64(s: &Solid<BigRational>) -> Solid<f64> {
    s.convert::<f64>().expect("the shapes of the pairs stay valid when rounded")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn exact_vclip_knows_the_construction_and_f64_agrees(
        a in side(), b in side(), cloud in prop::collection::vec(prop::array::uniform3(any::<i8>()), 4..12), p in placement(),
    ) {
        let (ea, eb) = convex_pair(a, b, &cloud, p);
        let r = vclip(&ea, &eb, None).unwrap().closest;
        let brute = brute_force_distance(&ea, &eb).unwrap();
        prop_assert_eq!(r.status, brute.status);
        prop_assert_eq!(&r.squared_distance, &brute.squared_distance);
        match p {
            Placement::TouchingAbove => prop_assert_eq!(r.status, Status::Touching),
            Placement::Sunk => prop_assert_eq!(r.status, Status::Penetrating),
            Placement::Free => {}
        }
        let (fa, fb) = (to_f64(&ea), to_f64(&eb));
        // The distance op's own contract, as `"backend": "both"` answers it. Rounding may bend a
        // turned shape's faces: read exactly, the binary64 numbers are then no convex solid, the
        // op refuses them as invalid, and there is nothing to compare (checked independently).
        let query = Distance::between(&fa, &fb);
        match both(&query) {
            Ok(r) => {
                if let Err(d) = r.agreement {
                    panic!("{d}\nreplay: {}", replay_line(&query));
                }
            }
            Err(e) => {
                prop_assert_eq!(e.kind, ErrorKind::Invalid, "{:?}", e);
                let exactly = |s: &Solid<f64>| {
                    s.convert::<BigRational>().is_ok_and(|s| (0..s.edge_count()).all(|e| s.edge_convexity(e) == Ok(Convexity::Convex)))
                };
                prop_assert!(!(exactly(&fa) && exactly(&fb)), "{:?} refused, yet both are strictly convex solids exactly", e);
            }
        }
    }
}

#[test]
fn touching_boxes_stacked_exactly_agree_strictly_or_within_tolerance() {
    // The 1/2 × 1 × 3/2 cuboid on the cube, turned by the rational rotation (3, 4, 0, 0):
    // touching by construction; f64 sees the rounded numbers.
    let (ea, eb) =
        convex_pair((0, [1, 0, 0, 0], [0, 0, 0]), (1, [3, 4, 0, 0], [1, 2, 3]), &[], Placement::TouchingAbove);
    assert_eq!(vclip(&ea, &eb, None).unwrap().closest.status, Status::Touching);
    let (fa, fb) = (to_f64(&ea), to_f64(&eb));
    let query = Distance::between(&fa, &fb);
    let r = both(&query).unwrap();
    assert_eq!(r.exact.output.status, Status::Touching);
    assert!(r.agreement.is_ok(), "{:?}", r.agreement);
    let line = replay_line(&query);
    assert!(line.starts_with(r#"{"op":"distance","backend":"both","a":{"polyhedron""#), "{line}");
}
