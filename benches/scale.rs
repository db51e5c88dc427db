//! Issue 43's targets on large inputs, `f64` beside the exact path in one run, each case's
//! peak heap printed beside its time:
//!
//! * `comb_index/T`: the Brep-index (`index_stats`, the hybrid split) of the comb prism of T
//!   teeth (`shapes::comb`: nonconvex caps of 4·T sides), T from 100 to 1,600 (the issue:
//!   build time and memory near-linear in the entity count);
//! * `comb_classify_point/400`: `classify_point` of (1/2, 1/2, 1/2) in the 400-tooth comb,
//!   its index built (the issue: ≤ 0.5 s and ≤ 150 MB exact);
//! * `hull_distance/3000`: `distance` between two hulls of 3,000 points on unit spheres,
//!   posed as in docs/speed.md (≤ 1 s exact);
//! * `validate_hull/50000`: `validate` of the hull of 50,000 points on the unit sphere
//!   (≤ 2 s exact).
//!
//! Every iteration starts from an empty query memo (`clear_memo`), as a new solid would: the
//! memo would otherwise serve the posed solid and its index from the previous iteration. The
//! exact runs are the oracle's `"backend": "exact"` (`exact_answer`), the `f64` runs the float
//! path's (`Query::answer::<f64>`), both on the binary's allocator. Peak heap: a counting
//! allocator around it, the most bytes live during one run beyond those live before it.
//!
//! ```sh
//! cargo bench --bench scale
//! cargo bench --bench scale -- 'comb_index/400'
//! ```

mod common;

use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::Rng;
use criterion::Criterion;
use num_rational::BigRational;
use touchstone::brep::shapes::comb;
use touchstone::geom::Point3;
use touchstone::msp::Split;
use touchstone::query::{
    clear_memo, exact_answer, ClassifyPoint, Distance, IndexStats, PoseSpec, Posed, Query, ShapeSpec, Validate,
};
use touchstone::scalar::Scalar;

/// The `touchstone` binary's allocator (`oracle/src/metered.rs`: mimalloc, metered for
/// `--max-memory`), so that the times are the binary's, included as the `lines` bench does.
#[path = "../oracle/src/metered.rs"]
mod metered;

/// The binary's allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed unchanged to the binary's allocator; the counts are atomics,
// which neither allocate nor unwind.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { metered::Metered.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { metered::Metered.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { metered::Metered.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { metered::Metered.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap of one run of `f` beyond what was live before it, in MB (10⁶ bytes).
fn peak_mb(f: impl FnOnce()) -> f64 {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    f();
    (PEAK.load(Ordering::Relaxed) - before) as f64 / 1e6
}

/// The comb prism of `teeth` teeth as the format's polyhedron.
fn comb_spec<N: Scalar>(teeth: usize) -> ShapeSpec<N> {
    let s = comb::<BigRational>(teeth).expect("a comb is a valid solid");
    ShapeSpec::Polyhedron {
        vertices: s.vertices().iter().map(|p| p.map(|c| N::from_rational(&c))).collect(),
        faces: s.faces().to_vec(),
    }
}

/// `n` points on the unit sphere (points of the ball normalised in binary64).
fn sphere(rng: &mut Rng, n: usize) -> Vec<[f64; 3]> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = rng.ball();
        let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        if r > 0.1 {
            out.push(p.map(|x| x / r));
        }
    }
    out
}

fn num<N: Scalar>(x: f64) -> N {
    N::from_f64(x).expect("finite")
}

fn hull<N: Scalar>(p: &[[f64; 3]]) -> ShapeSpec<N> {
    ShapeSpec::ConvexHull(p.iter().map(|x| Point3::new(num(x[0]), num(x[1]), num(x[2]))).collect())
}

/// docs/speed.md's 3,000-point hull pair: a posed by (0.3, 0.1, −0.7, 0.2), b by
/// (0.5, −0.2, 0.1, 0.9) and translated by (2.5, 0.3, −0.1).
fn hull_pair<N: Scalar>(a: &[[f64; 3]], b: &[[f64; 3]]) -> Distance<N> {
    let pose = |q: [f64; 4], t: [f64; 3]| PoseSpec::quaternion(q.map(num), t.map(num)).expect("a pose");
    Distance {
        a: Posed::new("a", hull(a), pose([0.3, 0.1, -0.7, 0.2], [0.0; 3])),
        b: Posed::new("b", hull(b), pose([0.5, -0.2, 0.1, 0.9], [2.5, 0.3, -0.1])),
    }
}

/// Times `exact` and `fast` side by side under `name/exact` and `name/f64`, and prints each
/// one's peak heap.
fn side_by_side<E: Query, F: Query>(c: &mut Criterion, name: &str, exact: &E, fast: &F) {
    let run_exact = || {
        clear_memo();
        black_box(exact_answer(exact).is_ok())
    };
    let run_fast = || {
        clear_memo();
        black_box(fast.answer::<f64>().is_ok())
    };
    assert!(run_exact(), "{name}: the exact path answers");
    // Each from an empty memo, cleared outside the count (so that freeing the last run's
    // solid does not hide part of this one's peak).
    clear_memo();
    let pe = peak_mb(|| {
        run_exact();
    });
    clear_memo();
    let pf = peak_mb(|| {
        run_fast();
    });
    println!("{name}: peak heap exact {pe:.1} MB, f64 {pf:.1} MB");
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    g.bench_function(format!("{name}/exact"), |b| b.iter(run_exact));
    g.bench_function(format!("{name}/f64"), |b| b.iter(run_fast));
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    for teeth in [100, 200, 400, 800, 1600] {
        let e = IndexStats::<BigRational> { solid: comb_spec(teeth), split: Split::HYBRID };
        let f = IndexStats::<f64> { solid: comb_spec(teeth), split: Split::HYBRID };
        side_by_side(&mut c, &format!("comb_index/{teeth}"), &e, &f);
    }
    let half = || Point3::new(0.5, 0.5, 0.5);
    let exact = ClassifyPoint::<BigRational> {
        solid: Posed::new("solid", comb_spec(400), PoseSpec::identity()),
        point: half().map(num),
    };
    let fast = ClassifyPoint::<f64> { solid: Posed::new("solid", comb_spec(400), PoseSpec::identity()), point: half() };
    side_by_side(&mut c, "comb_classify_point/400", &exact, &fast);
    let mut rng = Rng::new(0x3000);
    let (a, b) = (sphere(&mut rng, 3000), sphere(&mut rng, 3000));
    side_by_side(&mut c, "hull_distance/3000", &hull_pair::<BigRational>(&a, &b), &hull_pair::<f64>(&a, &b));
    let p = sphere(&mut rng, 50_000);
    side_by_side(
        &mut c,
        "validate_hull/50000",
        &Validate::new(hull::<BigRational>(&p)),
        &Validate::new(hull::<f64>(&p)),
    );
    c.final_summary();
}
