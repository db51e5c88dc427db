//! The Brep-index against the brute-force classifier (exact), and the f64 answers against the
//! exact ones under the agreement contract (`query::both`), on nonconvex prisms under oblique
//! exact poses (quaternions with small integer parts, which binary64 poses with rounding), for
//! a point and a segment on their vertices, edges, faces and a grid. The solid is posed and
//! indexed once per input and backend (`query::memo`): the target's own hybrid-index check and
//! both queries' runs share it. A failure panics with the oracle lines that reproduce it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::MspInput;
use touchstone::msp::{brute_force_classify, Class, MspTree, Options, Split};
use std::rc::Rc;
use touchstone::query::{both, clear_memo, shared_solid, PointClass};
use touchstone::scalar::Exact;
use touchstone_oracle::encode::replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: MspInput| -> Corpus {
    let Some(case) = input.case() else { return Corpus::Reject };
    let Some((point_query, segment_query)) = case.queries() else { return Corpus::Reject };
    let lines = [replay_line(&point_query), replay_line(&segment_query)];
    let (solid, p, r) = (point_query.solid.clone(), point_query.point.clone(), segment_query.segment[1].clone());
    // The index (both splits) against the brute force, exactly, on the posed solid (on the fast
    // exact backend: `tests/msp.rs` holds its trees equal to `BigRational`'s node by node).
    // Each input starts from an empty memo, so that a failure replays from its input alone.
    clear_memo();
    let Ok(shared) = shared_solid::<Exact, BigRational>(&solid) else { return Corpus::Reject };
    let posed = shared.posed();
    let p = p.map(|c| Exact::from_big_rational(&c));
    let brute = brute_force_classify(&posed.built.solid, &p).expect("exact");
    for split in [Split::Autopartition, Split::HYBRID] {
        // The hybrid index is the one the queries below are served (the memo's).
        let index = match split {
            Split::Autopartition => Rc::new(
                MspTree::build(&posed.built.solid, &Options { split, ..Options::default() }).expect("exact build"),
            ),
            _ => shared.index("/solid").expect("exact build"),
        };
        let exact = index.classify_point(&p).expect("exact");
        assert_eq!(exact.class, brute, "MISMATCH index vs brute force ({split:?})\nreplay: {}", lines[0]);
    }
    // The query layer's answers, f64 against exact under the contract.
    let point = both(&point_query).expect("exact answer");
    assert!(point.agreement.is_ok(), "MISMATCH {:?}\nreplay: {}", point.agreement, lines[0]);
    let expect = match brute {
        Class::Inside => PointClass::Inside,
        Class::Outside => PointClass::Outside,
        Class::On(_) => PointClass::Boundary,
    };
    assert_eq!(point.exact.output.class, expect, "MISMATCH classify_point vs brute force\nreplay: {}", lines[0]);
    if point_query.point != r {
        let segment = both(&segment_query).expect("exact answer");
        assert!(segment.agreement.is_ok(), "MISMATCH {:?}\nreplay: {}", segment.agreement, lines[1]);
    }
    Corpus::Keep
});
