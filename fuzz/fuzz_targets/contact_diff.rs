//! Contact analysis on grid pairs of boxes, the U, the L and a tetrahedron (touching often by
//! construction): the fast exact backend gives the reference's answer (`BigRational`), the
//! intersection is the same from either side (a's boundary through b's index, b's through
//! a's), for two convex solids the status is V-Clip's, and the `f64` pipeline (ε rules, with
//! the second solid nudged by quarters of ε off its rest) agrees with the exact answer under
//! the contract. A failure panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::ContactInput;
use touchstone::contact::{find_contacts, ContactOptions, ContactStatus, Region};
use touchstone::scalar::Exact;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn pairs<S: touchstone::scalar::Scalar>(rs: &[Region<S>], swap: bool) -> Vec<String> {
    let mut v: Vec<String> = rs
        .iter()
        .map(|r| if swap { format!("{:?}/{:?}/{}", r.b, r.a, r.dim) } else { format!("{:?}/{:?}/{}", r.a, r.b, r.dim) })
        .collect();
    v.sort();
    v
}

fuzz_target!(|input: ContactInput| -> Corpus {
    let Some((a, b)) = input.solids() else { return Corpus::Reject };
    let line = touchstone_oracle::encode::replay_line(&ContactInput::query(&a, &b));
    let (Ok(qa), Ok(qb)) = (a.convert::<BigRational>(), b.convert::<BigRational>()) else { return Corpus::Reject };
    let (Ok(ea), Ok(eb)) = (a.convert::<Exact>(), b.convert::<Exact>()) else { return Corpus::Reject };
    let options = ContactOptions::default();
    let reference = find_contacts(&qa, &qb, &options).expect("exact");
    let fast = find_contacts(&ea, &eb, &ContactOptions::default()).expect("exact");
    assert_eq!(fast.status, reference.status, "MISMATCH Exact vs BigRational\nreplay: {line}");
    assert_eq!(
        pairs(&fast.regions, false),
        pairs(&reference.regions, false),
        "MISMATCH Exact vs BigRational\nreplay: {line}"
    );
    // The other side and V-Clip on the fast exact backend: it has just given the reference's
    // answer, and the reference is most of an execution's time.
    let other = find_contacts(&eb, &ea, &ContactOptions::default()).expect("exact");
    assert_eq!(other.status, reference.status, "MISMATCH status from either side\nreplay: {line}");
    assert_eq!(
        pairs(&other.regions, true),
        pairs(&reference.regions, false),
        "MISMATCH regions from either side\nreplay: {line}"
    );
    if ea.is_convex().expect("exact") && eb.is_convex().expect("exact") {
        let r = touchstone::vclip::vclip(&ea, &eb, None).expect("convex");
        let expect = match r.closest.status {
            touchstone::vclip::Status::Separated => ContactStatus::Separate,
            touchstone::vclip::Status::Touching => ContactStatus::Touching,
            touchstone::vclip::Status::Penetrating => ContactStatus::Penetrating,
        };
        assert_eq!(reference.status, expect, "MISMATCH status vs V-Clip\nreplay: {line}");
    }
    let spec = |s: &touchstone::brep::Solid<f64>| touchstone::query::ShapeSpec::Polyhedron {
        vertices: s.vertices().iter().map(|p| p.map(|c| BigRational::from_float(c).expect("finite"))).collect(),
        faces: s.faces().to_vec(),
    };
    let identity = touchstone::query::PoseSpec::identity;
    let q = touchstone::query::Contact {
        a: touchstone::query::Posed::new("a", spec(&a), identity()),
        b: touchstone::query::Posed::new("b", spec(&b), identity()),
        velocity_a: None,
        velocity_b: None,
        previous: Vec::new(),
        epsilon: BigRational::from_float(ContactInput::EPSILON),
        step: None,
    };
    let both = touchstone::query::both(&q).expect("exact");
    assert!(both.agreement.is_ok(), "BREACH f64 vs exact: {:?}\nreplay: {line}", both.agreement);
    Corpus::Keep
});
