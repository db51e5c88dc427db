//! The `f64` box sweep (the separating-axis code over binary64) against the exact one under
//! the agreement contract, on boxes whose contacts are degenerate by construction: grid
//! translations (face on face, parallel edges, vertex on vertex) and spins about grid centres
//! by integer quaternions linear in t.

use proptest::prelude::*;
use touchstone::sweep::contract::{check_sweep_agreement, degenerate_boxes, sweep_oracle_line};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn f64_sweep_agrees_with_exact(
        ha in prop::array::uniform3(0u8..4), hb in prop::array::uniform3(0u8..4),
        spin in prop::option::of((prop::array::uniform4(-2i8..=2), prop::array::uniform4(-2i8..=2))),
        c in prop::array::uniform3(-10i8..=10), v in prop::array::uniform3(-8i8..=8), acc in prop::array::uniform3(-4i8..=4),
    ) {
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, acc);
        let (fa, fb) = (a.to_f64(), b.to_f64());
        // The exact numbers are binary64 numbers: nothing is rounded.
        prop_assert_eq!(&fa.to_exact(), &a);
        if let Err(d) = check_sweep_agreement(&fa, &fb, 0.0, 1.0) {
            // A singular spin (q(t) = 0 in [0, 1]) is a typed error on both paths.
            prop_assume!(!d.what.contains("exact sweep failed"));
            panic!("{d}\nreplay: {}", sweep_oracle_line(&fa, &fb, 0.0, 1.0));
        }
    }
}

/// A fixed sweep of cases: both paths agree on every one, and the set exercises both answers,
/// strictly above the budget and within it.
#[test]
fn a_fixed_set_exercises_strict_and_degenerate_agreement() {
    use touchstone::contract::Agreement;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) % (2 * m as u64 + 1)) as i64 - m
    };
    let (mut strict_hits, mut strict_misses, mut within) = (0, 0, 0);
    for i in 0..120 {
        let h = |next: &mut dyn FnMut(i64) -> i64| [0; 3].map(|_| next(1).unsigned_abs() as u8 + 1);
        let (ha, hb) = (h(&mut next), h(&mut next));
        let spin = (i % 3 == 0).then(|| ([0; 4].map(|_| next(2) as i8), [0; 4].map(|_| next(2) as i8)));
        let c = [0; 3].map(|_| next(8) as i8);
        let v = [0; 3].map(|_| next(8) as i8);
        let acc = [0; 3].map(|_| next(3) as i8);
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, acc);
        let (fa, fb) = (a.to_f64(), b.to_f64());
        let exact = touchstone::sweep::first_contact_sat(
            &a,
            &b,
            &num_rational::BigRational::from_integer(0.into()),
            &num_rational::BigRational::from_integer(1.into()),
        );
        let Ok(exact) = exact else { continue };
        match check_sweep_agreement(&fa, &fb, 0.0, 1.0) {
            Ok(Agreement::Strict) if exact.is_some() => strict_hits += 1,
            Ok(Agreement::Strict) => strict_misses += 1,
            Ok(Agreement::WithinTolerance) => within += 1,
            Err(d) => panic!("{d}\nreplay: {}", sweep_oracle_line(&fa, &fb, 0.0, 1.0)),
        }
    }
    eprintln!("strict hits {strict_hits}, strict misses {strict_misses}, within the budget {within}");
    assert!(strict_hits >= 5 && strict_misses >= 5 && within >= 5, "{strict_hits} {strict_misses} {within}");
}
