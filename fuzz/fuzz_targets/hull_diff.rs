//! The `validate` op's f64 answer on a convex hull against its exact one under the op's own
//! contract (`query::both`: counts, convexity and the Euler characteristic; where the counts
//! differ, the f64 hull judged as a hull of points within the budget of the given ones), on
//! grid-biased and exactly rotated point clouds. Where the exact path refuses the points
//! (fewer than four off a plane, exactly), the f64 path must refuse them too: it decides on
//! the same numbers. A breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use touchstone::arbitrary::PointCloud;
use touchstone::geom::Point3;
use touchstone::query::{agrees, Query, ShapeSpec, Validate};
use touchstone_oracle::encode::replay_line;

/// The `touchstone` binary's allocator (fuzz/README.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|input: PointCloud| -> Corpus {
    let Some(points) = input.points() else { return Corpus::Reject };
    let p: Vec<Point3<f64>> = points.iter().map(|c| Point3::from(*c)).collect();
    let q = Validate::new(ShapeSpec::ConvexHull(p));
    // The verdict of `query::both`, settled on a run on values with bounds where it can.
    match agrees(&q) {
        Ok(r) => {
            if let Err(d) = r {
                panic!("MISMATCH {d}\nreplay: {}", replay_line(&q));
            }
        }
        Err(e) => {
            if let Ok(a) = q.answer::<f64>() {
                panic!(
                    "MISMATCH the exact path refused ({e:?}) and f64 answered {:?}\nreplay: {}",
                    a.output,
                    replay_line(&q)
                );
            }
        }
    }
    Corpus::Keep
});
