//! The f64 convex hull against the exact one under the agreement contract, on grid-biased and
//! exactly rotated point clouds. A breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::PointCloud;
use touchstone::brep::check_hull_agreement;
use touchstone::geom::Point3;

fuzz_target!(|input: PointCloud| -> Corpus {
    let Some(points) = input.points() else { return Corpus::Reject };
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    if let Err(d) = check_hull_agreement(&p) {
        panic!("MISMATCH {d}\nreplay: {}", PointCloud::oracle_line(&points));
    }
    Corpus::Keep
});
