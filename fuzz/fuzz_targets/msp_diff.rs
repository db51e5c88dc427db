//! The Brep-index against the brute-force classifier (exact), and its f64 answer against the
//! exact one under the agreement contract, on nonconvex prisms turned exactly and points on
//! their vertices, edges, faces and a grid. A failure panics with the oracle line that
//! reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::MspInput;
use touchstone::msp::{brute_force_classify, Class, MspTree, Options, Split};

fuzz_target!(|input: MspInput| -> Corpus {
    let Some((solid, p)) = input.case() else { return Corpus::Reject };
    let line = MspInput::oracle_line(&solid, &p);
    let Ok(exact_solid) = solid.convert::<BigRational>() else { return Corpus::Reject };
    let q = p.map(|x| BigRational::from_float(x).expect("finite"));
    let brute = brute_force_classify(&exact_solid, &q).expect("exact");
    for split in [Split::Autopartition, Split::HYBRID] {
        let options = Options { split, ..Options::default() };
        let exact = MspTree::build(&exact_solid, &options).expect("exact build").classify_point(&q).expect("exact");
        assert_eq!(exact.class, brute, "MISMATCH index vs brute force ({split:?})\nreplay: {line}");
        let fast = MspTree::<f64>::build(&solid, &options).and_then(|t| Ok(t.classify_point(&p)?));
        if let Ok(fast) = fast {
            let boundary = |c: &Class| matches!(c, Class::On(_));
            assert!(
                fast.class == exact.class || boundary(&fast.class) || boundary(&exact.class),
                "MISMATCH f64 {:?} vs exact {:?} ({split:?})\nreplay: {line}",
                fast.class,
                exact.class
            );
        }
    }
    Corpus::Keep
});
