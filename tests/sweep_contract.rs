//! The `f64` box sweep against the exact one under the agreement contract, on boxes whose
//! contacts are degenerate by construction: grid translations (face on face, parallel edges,
//! vertex on vertex) and spins about grid centres by integer quaternions linear in t. Both
//! `f64` routes are checked, the separating-axis code and the boundary of the Minkowski sum
//! (Albocher–Sarel), under the same contract: the margin is the exact problem's.

use num_rational::BigRational as Q;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use touchstone::contract::Agreement;
use touchstone::query::ToiBoxes;
use touchstone::strategies::degenerate_boxes;
use touchstone::sweep::contract::{check_sweep_agreement, check_sweep_answer, sweep_agrees};
use touchstone::sweep::{first_contact_bms, pair_touches, BmsContact, BoxMotion, SweepError};

/// The oracle line that replays two boxes' sweep on [0, 1] (written by the oracle).
fn toi_boxes_line(a: &BoxMotion<f64>, b: &BoxMotion<f64>) -> String {
    touchstone_oracle::encode::replay_line(&ToiBoxes { a: a.clone(), b: b.clone(), interval: [0.0, 1.0] })
}

/// The exact sweep of a generated pair: `None` when a spin is singular somewhere in [0, 1] (a
/// typed refusal, [`SweepError::Singular`], the only one these motions can meet; any other error
/// fails the test). Such cases are set aside, at most as many as the cases run (`max_global_rejects`:
/// a quarter was too tight for `sweep_bms`'s like generator on one CI seed).
fn exact_sweep(a: &BoxMotion<Q>, b: &BoxMotion<Q>) -> Result<Option<Option<BmsContact>>, TestCaseError> {
    match first_contact_bms(a, b, &Q::from_integer(0.into()), &Q::from_integer(1.into())) {
        Ok(c) => Ok(Some(c)),
        Err(SweepError::Singular { .. }) => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!("the exact sweep failed: {e}"))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, max_global_rejects: 48, ..ProptestConfig::default() })]

    /// Both `f64` routes ([`check_sweep_agreement`]).
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
        // A singular spin (q(t) = 0 in [0, 1]) is a typed error of the exact path.
        prop_assume!(exact_sweep(&a, &b)?.is_some());
        if let Err(d) = check_sweep_agreement(&fa, &fb, 0.0, 1.0) {
            panic!("{d}\nreplay: {}", toi_boxes_line(&fa, &fb));
        }
        // Settled on the filter where it can (what the fuzz target asks): the same verdict.
        prop_assert!(sweep_agrees(&fa, &fb, 0.0, 1.0).is_ok());
    }

    /// Exact BMS against `f64` BMS: the contract on the `f64` answer, and its pair.
    #[test]
    fn f64_bms_agrees_with_exact_bms(
        ha in prop::array::uniform3(0u8..4), hb in prop::array::uniform3(0u8..4),
        spin in prop::option::of((prop::array::uniform4(-2i8..=2), prop::array::uniform4(-2i8..=2))),
        c in prop::array::uniform3(-10i8..=10), v in prop::array::uniform3(-8i8..=8), acc in prop::array::uniform3(-4i8..=4),
    ) {
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, acc);
        // A singular spin: a typed error of the exact path, not a comparison.
        let exact = exact_sweep(&a, &b)?;
        prop_assume!(exact.is_some());
        if let Err(d) = bms_differential(&a, &b, &exact.unwrap()) {
            panic!("{d}\nreplay: {}", toi_boxes_line(&a.to_f64(), &b.to_f64()));
        }
    }
}

/// How the `f64` BMS answer for a degenerate pair compared with the exact BMS answer `exact`.
#[derive(Debug, PartialEq)]
struct BmsOutcome {
    agreement: Agreement,
    /// The `f64` pair is the exact one (`None`: no pair to compare, e.g. overlapping at t₀).
    same_pair: Option<bool>,
}

/// Run `f64` BMS on the binary64 pair (the same numbers as `a`, `b`) and check it against the
/// exact BMS answer: the sweep contract on (collides, time), the overlap flag where both
/// collide at t₀ above the budget, and a pair that touches **exactly** at the exact time
/// whenever both report one. (A pair is not part of the contract, which has no margin for it;
/// on these grid pairs the `f64` pair has always touched exactly, and was the exact one.)
fn bms_differential(a: &BoxMotion<Q>, b: &BoxMotion<Q>, exact: &Option<BmsContact>) -> Result<BmsOutcome, String> {
    let (z, o) = (Q::from_integer(0.into()), Q::from_integer(1.into()));
    let (fa, fb) = (a.to_f64(), b.to_f64());
    assert_eq!((&fa.to_exact(), &fb.to_exact()), (a, b), "the grid is binary64");
    let fast = first_contact_bms(&fa, &fb, &0.0, &1.0);
    let agreement =
        check_sweep_answer(&fa, &fb, 0.0, 1.0, fast.clone().map(|c| c.map(|c| c.time))).map_err(|d| d.to_string())?;
    let mut same_pair = None;
    if let (Some(e), Ok(Some(f))) = (exact, &fast) {
        if agreement == Agreement::Strict && e.overlapping_at_start != f.overlapping_at_start {
            return Err(format!("overlapping at t0: exact {}, f64 {}", e.overlapping_at_start, f.overlapping_at_start));
        }
        if let (Some(pe), Some(pf)) = (e.contact, f.contact) {
            if !pair_touches(a, b, &z, &o, &e.time, pf.a, pf.b).map_err(|e| e.to_string())? {
                return Err(format!(
                    "the f64 pair {pf:?} does not touch at the exact time {} (exact pair {pe:?})",
                    e.time
                ));
            }
            same_pair = Some(pe == pf);
        }
    }
    Ok(BmsOutcome { agreement, same_pair })
}

/// The differential test of `f64` BMS on a fixed sweep of degenerate pairs: every one agrees,
/// and the set exercises strict agreement (hits and misses) and agreement within the budget.
#[test]
fn a_fixed_set_exercises_bms_on_f64() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) % (2 * m as u64 + 1)) as i64 - m
    };
    let (z, o) = (Q::from_integer(0.into()), Q::from_integer(1.into()));
    let (mut strict_hits, mut strict_misses, mut within, mut same, mut other) = (0, 0, 0, 0, 0);
    for i in 0..120 {
        let h = |next: &mut dyn FnMut(i64) -> i64| [0; 3].map(|_| next(1).unsigned_abs() as u8 + 1);
        let (ha, hb) = (h(&mut next), h(&mut next));
        let spin = (i % 3 == 0).then(|| ([0; 4].map(|_| next(2) as i8), [0; 4].map(|_| next(2) as i8)));
        let c = [0; 3].map(|_| next(8) as i8);
        let v = [0; 3].map(|_| next(8) as i8);
        let acc = [0; 3].map(|_| next(3) as i8);
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, acc);
        let Ok(exact) = first_contact_bms(&a, &b, &z, &o) else { continue };
        let outcome = bms_differential(&a, &b, &exact)
            .unwrap_or_else(|d| panic!("{d}\nreplay: {}", toi_boxes_line(&a.to_f64(), &b.to_f64())));
        match outcome.agreement {
            Agreement::Strict if exact.is_some() => strict_hits += 1,
            Agreement::Strict => strict_misses += 1,
            Agreement::WithinTolerance => within += 1,
        }
        match outcome.same_pair {
            Some(true) => same += 1,
            Some(false) => other += 1,
            None => {}
        }
    }
    eprintln!(
        "BMS f64: strict hits {strict_hits}, strict misses {strict_misses}, within the budget {within}; pairs: the exact one {same}, another touching one {other}"
    );
    assert!(strict_hits >= 5 && strict_misses >= 5 && within >= 5, "{strict_hits} {strict_misses} {within}");
    assert!(same >= 10, "{same} {other}");
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
            Err(d) => panic!("{d}\nreplay: {}", toi_boxes_line(&fa, &fb)),
        }
    }
    eprintln!("strict hits {strict_hits}, strict misses {strict_misses}, within the budget {within}");
    assert!(strict_hits >= 5 && strict_misses >= 5 && within >= 5, "{strict_hits} {strict_misses} {within}");
}
