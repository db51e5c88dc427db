//! The `orient3d` and `side_of_plane` ops' f64 answers against their exact ones under the ops'
//! own contract (`query::both`), on inputs biased to degeneracy (grid-snapped, coplanar by
//! construction, exactly rotated, on a plane by construction). A breach panics with the oracle
//! line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::PredicateCase as Case;
use touchstone::geom::{Plane, Point3};
use touchstone::query::{agrees, Orient3d, PlaneSpec, SideOfPlane};
use touchstone_oracle::encode::replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|case: Case| -> Corpus {
    match case {
        Case::Orient(input) => {
            let Some(p) = input.points() else { return Corpus::Reject };
            let query = Orient3d { points: p.map(Point3::from) };
            let r = agrees(&query).expect("exact backends always decide");
            if let Err(d) = r {
                panic!("MISMATCH {d}\nreplay: {}", replay_line(&query));
            }
        }
        Case::Side(input) => {
            let Some((c, q)) = input.plane_and_point() else { return Corpus::Reject };
            // A zero normal is not a plane (input data: decided alike on both paths).
            let Ok(plane) = Plane::from_coefficients(c[0], c[1], c[2], c[3]) else { return Corpus::Reject };
            let query = SideOfPlane { plane: PlaneSpec::Coefficients(plane), point: Point3::from(q) };
            let r = agrees(&query).expect("exact backends always decide");
            if let Err(d) = r {
                panic!("MISMATCH {d}\nreplay: {}", replay_line(&query));
            }
        }
    }
    Corpus::Keep
});
