//! The Brep-index against the brute-force classifier (exact), and the f64 answers against the
//! exact ones under the agreement contract (`query::both`), on nonconvex prisms under oblique
//! exact poses (quaternions with small integer parts, which binary64 poses with rounding), for
//! a point and a segment on their vertices, edges, faces and a grid. A failure panics with the
//! oracle lines that reproduce it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::MspInput;
use touchstone::msp::{brute_force_classify, Class, MspTree, Options, Split};
use touchstone::query::spec::posed_solid;
use touchstone::query::{both, ClassifyPoint, ClassifySegment, PoseSpec, Posed, PointClass, ShapeSpec};

fuzz_target!(|input: MspInput| -> Corpus {
    let Some(case) = input.case() else { return Corpus::Reject };
    let lines = case.replay_lines();
    let Ok(exact_solid) = case.solid.convert::<BigRational>() else { return Corpus::Reject };
    let shape = ShapeSpec::Polyhedron { vertices: exact_solid.vertices().to_vec(), faces: exact_solid.faces().to_vec() };
    let q = case.quaternion.map(|x| BigRational::from_integer(x.into()));
    let t = case.translation.map(|x| BigRational::from_float(x).expect("finite"));
    let Ok(pose) = PoseSpec::quaternion(q, t) else { return Corpus::Reject };
    let solid = Posed::new("solid", shape, pose);
    let [p, r] = case.points.clone();
    // The index (both splits) against the brute force, exactly, on the posed solid.
    let Ok(posed) = posed_solid::<BigRational, BigRational>(&solid) else { return Corpus::Reject };
    let brute = brute_force_classify(&posed.built.solid, &p).expect("exact");
    for split in [Split::Autopartition, Split::HYBRID] {
        let options = Options { split, ..Options::default() };
        let index = MspTree::build(&posed.built.solid, &options).expect("exact build");
        let exact = index.classify_point(&p).expect("exact");
        assert_eq!(exact.class, brute, "MISMATCH index vs brute force ({split:?})\nreplay: {}", lines[0]);
    }
    // The query layer's answers, f64 against exact under the contract.
    let point = both(&ClassifyPoint { solid: solid.clone(), point: p.clone() }).expect("exact answer");
    assert!(point.agreement.is_ok(), "MISMATCH {:?}\nreplay: {}", point.agreement, lines[0]);
    let expect = match brute {
        Class::Inside => PointClass::Inside,
        Class::Outside => PointClass::Outside,
        Class::On(_) => PointClass::Boundary,
    };
    assert_eq!(point.exact.output.class, expect, "MISMATCH classify_point vs brute force\nreplay: {}", lines[0]);
    if p != r {
        let segment = both(&ClassifySegment { solid, segment: [p, r] }).expect("exact answer");
        assert!(segment.agreement.is_ok(), "MISMATCH {:?}\nreplay: {}", segment.agreement, lines[1]);
    }
    Corpus::Keep
});
