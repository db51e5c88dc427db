//! Arbitrary meshes (raw, or known solids with edits) into `Solid::new`: never a panic, and
//! every accepted mesh satisfies the invariant checker, on the exact and the f64 backend.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::MeshInput;
use touchstone::brep::{assert_well_formed, Solid};
use touchstone::geom::Point3;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: MeshInput| -> Corpus {
    let Some((vertices, faces)) = input.mesh() else { return Corpus::Reject };
    let exact: Vec<Point3<BigRational>> =
        vertices.iter().map(|p| Point3::from(p.map(|c| BigRational::from_float(c).expect("finite by construction")))).collect();
    if let Ok(s) = Solid::new(exact, faces.clone()) {
        assert_well_formed(&s);
        let _ = s.is_convex();
    }
    let fast: Vec<Point3<f64>> = vertices.iter().map(|p| Point3::from(*p)).collect();
    if let Ok(s) = Solid::new(fast, faces) {
        assert_well_formed(&s);
    }
    Corpus::Keep
});
