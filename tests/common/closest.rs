//! Shared by the tests of V-Clip and Lin–Canny: exact helpers and the degenerate
//! configurations both must answer like the brute force, from every warm start. Each
//! configuration takes the algorithm under test.
#![allow(dead_code)]

use num_rational::BigRational;
use touchstone::brep::shapes::{cube, cuboid, octahedron, tetrahedron};
use touchstone::brep::{BrepError, Feature, Solid};
use touchstone::geom::{norm2, Affine, Vector3};
use touchstone::poly::FilterScalar;
use touchstone::scalar::{ratio, Interval, MidRad, Scalar, Uncertain};
use touchstone::vclip::{
    brute_force_distance, feature_squared_distance, lin_canny, vclip, ClosestPair, Status, VClipError, VClipResult,
};

pub type Q = BigRational;

/// A closest-feature algorithm on backend `S`, from an optional warm start.
pub type Run<S> = fn(&Solid<S>, &Solid<S>, Option<(Feature, Feature)>) -> Result<VClipResult<S>, VClipError>;

/// A closest-feature algorithm, V-Clip or Lin–Canny: exactly, and on intervals (which must
/// give the exact answer or `Uncertain`).
#[derive(Clone, Copy)]
pub struct Algorithm {
    /// On exact rationals.
    pub exact: Run<Q>,
    /// On intervals.
    pub interval: Run<Interval>,
    /// On values with bounds.
    pub bounded: Run<MidRad>,
}

/// V-Clip.
pub const VCLIP: Algorithm = Algorithm { exact: vclip::<Q>, interval: vclip::<Interval>, bounded: vclip::<MidRad> };
/// Lin–Canny.
pub const LIN_CANNY: Algorithm =
    Algorithm { exact: lin_canny::<Q>, interval: lin_canny::<Interval>, bounded: lin_canny::<MidRad> };

thread_local! {
    /// How many interval runs of this thread decided (gave the exact answer) and how many were
    /// uncertain.
    pub static INTERVAL_RUNS: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// The interval run from `warm`: the exact status, a squared distance enclosing the exact one
/// and features that realise it exactly, or `Uncertain` (solids whose coordinates are not all
/// doubles may not even convert).
fn interval_agrees(
    algo: Algorithm,
    a: &Solid<Q>,
    b: &Solid<Q>,
    expected: &ClosestPair<Q>,
    warm: Option<(Feature, Feature)>,
) {
    filter_agrees(algo.interval, a, b, expected, warm.clone());
    filter_agrees(algo.bounded, a, b, expected, warm);
}

/// [`interval_agrees`] on one filter backend.
fn filter_agrees<F: FilterScalar>(
    run_on: Run<F>,
    a: &Solid<Q>,
    b: &Solid<Q>,
    expected: &ClosestPair<Q>,
    warm: Option<(Feature, Feature)>,
) {
    let undecided = |e: &VClipError| matches!(e, VClipError::Uncertain(Uncertain::Close));
    let run = || -> Result<VClipResult<F>, VClipError> {
        let (ia, ib) = (a.convert::<F>(), b.convert::<F>());
        let (ia, ib) = match (ia, ib) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(BrepError::Uncertain(u)), _) | (_, Err(BrepError::Uncertain(u))) => {
                return Err(VClipError::Uncertain(u))
            }
            (Err(e), _) | (_, Err(e)) => panic!("an exact solid fails to convert: {e}"),
        };
        run_on(&ia, &ib, warm.clone())
    };
    let (decided, uncertain) = INTERVAL_RUNS.with(|c| c.get());
    match run() {
        Ok(r) => {
            INTERVAL_RUNS.with(|c| c.set((decided + 1, uncertain)));
            let c = &r.closest;
            assert_eq!(c.status, expected.status, "interval status from {warm:?}");
            let d2 = c.squared_distance.enclosure();
            let (lo, hi) = (Q::from_float(d2.lo()), Q::from_float(d2.hi()));
            assert!(lo.is_none_or(|lo| lo <= expected.squared_distance), "{d2:?} ∌ {}", expected.squared_distance);
            assert!(hi.is_none_or(|hi| expected.squared_distance <= hi), "{d2:?} ∌ {}", expected.squared_distance);
            let d = feature_squared_distance(a, &c.features.0, b, &c.features.1).unwrap();
            if c.status == Status::Separated {
                assert_eq!(d, expected.squared_distance, "interval features from {warm:?}: {r:?}");
            }
        }
        Err(e) if undecided(&e) => INTERVAL_RUNS.with(|c| c.set((decided, uncertain + 1))),
        Err(e) => panic!("interval run from {warm:?}: {e}"),
    }
}

/// The same on `f64` solids.
pub type Algorithm64 = fn(&Solid<f64>, &Solid<f64>, Option<(Feature, Feature)>) -> Result<VClipResult<f64>, VClipError>;

pub fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

pub fn moved<S: Scalar>(s: &Solid<S>, quat: [i64; 4], t: [S; 3]) -> Solid<S> {
    let [x, y, z] = t;
    let map = Affine::from_quaternion(&quat.map(S::from_i64), Vector3::new(x, y, z)).unwrap();
    s.transformed(&map).unwrap()
}

pub fn shifted<S: Scalar>(s: &Solid<S>, t: [S; 3]) -> Solid<S> {
    moved(s, [1, 0, 0, 0], t)
}

pub fn brute(a: &Solid<Q>, b: &Solid<Q>) -> ClosestPair<Q> {
    brute_force_distance(a, b).unwrap()
}

pub fn features<S: Scalar>(s: &Solid<S>) -> Vec<Feature> {
    let mut out: Vec<Feature> = (0..s.vertex_count()).map(Feature::Vertex).collect();
    out.extend(s.edges().iter().map(|&(u, v)| Feature::Edge(u, v)));
    out.extend((0..s.face_count()).map(Feature::Face));
    out
}

/// The algorithm from `warm` agrees with the brute force: status, exact squared distance, points
/// that far apart, and features that realise it.
pub fn agree_from(
    algo: Algorithm,
    a: &Solid<Q>,
    b: &Solid<Q>,
    expected: &ClosestPair<Q>,
    warm: Option<(Feature, Feature)>,
) {
    interval_agrees(algo, a, b, expected, warm.clone());
    let r = (algo.exact)(a, b, warm.clone()).unwrap_or_else(|e| panic!("from {warm:?}: {e}"));
    let c = &r.closest;
    assert_eq!(c.status, expected.status, "status from {warm:?}: {r:?}");
    assert_eq!(c.squared_distance, expected.squared_distance, "distance from {warm:?}: {r:?}");
    if c.status == Status::Separated {
        assert_eq!(norm2(&(&c.points.0 - &c.points.1)), c.squared_distance, "points from {warm:?}");
        let d = feature_squared_distance(a, &c.features.0, b, &c.features.1).unwrap();
        assert_eq!(d, c.squared_distance, "features from {warm:?}: {r:?}");
    } else {
        assert_eq!(c.points.0, c.points.1);
    }
}

/// Assert that the interval runs of this test decided at least `share` of the cases (so that
/// "always uncertain" fails), and print the counts.
pub fn intervals_decided_at_least(share: f64, what: &str) {
    let (decided, uncertain) = INTERVAL_RUNS.with(|c| c.get());
    println!("{what}: intervals decided {decided}, uncertain {uncertain}");
    assert!(
        decided as f64 >= share * (decided + uncertain) as f64,
        "{what}: intervals decided {decided} of {}",
        decided + uncertain
    );
}

pub fn agree(algo: Algorithm, a: &Solid<Q>, b: &Solid<Q>) -> ClosestPair<Q> {
    let expected = brute(a, b);
    agree_from(algo, a, b, &expected, None);
    expected
}

pub fn agree_from_everywhere(algo: Algorithm, a: &Solid<Q>, b: &Solid<Q>) {
    let expected = brute(a, b);
    for fa in features(a) {
        for fb in features(b) {
            agree_from(algo, a, b, &expected, Some((fa.clone(), fb)));
        }
    }
}

pub fn parallel_faces_touching_and_near(algo: Algorithm) {
    let c = cube::<Q>();
    assert_eq!(agree(algo, &c, &shifted(&c, [q(2, 1), q(1, 3), q(-1, 2)])).status, Status::Touching);
    assert_eq!(agree(algo, &c, &shifted(&c, [q(2001, 1000), q(1, 3), q(-1, 2)])).squared_distance, q(1, 1_000_000));
    agree_from_everywhere(algo, &c, &shifted(&c, [q(2, 1), q(0, 1), q(0, 1)]));
    agree_from_everywhere(algo, &c, &shifted(&c, [q(2001, 1000), q(2, 1), q(0, 1)]));
    agree_from_everywhere(algo, &c, &shifted(&c, [q(2001, 1000), q(1, 3), q(-1, 2)]));
}

pub fn penetrating_boxes(algo: Algorithm) {
    let c = cube::<Q>();
    for t in [[q(1999, 1000), q(0, 1), q(0, 1)], [q(1, 2), q(1, 3), q(1, 5)], [q(0, 1), q(0, 1), q(0, 1)]] {
        assert_eq!(agree(algo, &c, &shifted(&c, t)).status, Status::Penetrating);
    }
    let small = cuboid(q(1, 2), q(1, 2), q(1, 2)).unwrap();
    assert_eq!(agree(algo, &c, &small).status, Status::Penetrating);
    assert_eq!(agree(algo, &small, &c).status, Status::Penetrating);
    agree_from_everywhere(algo, &c, &small);
    agree_from_everywhere(algo, &small, &c);
    let turned = moved(&c, [3, 0, 0, 1], [q(2, 1), q(0, 1), q(0, 1)]);
    assert_eq!(agree(algo, &c, &turned).status, Status::Penetrating);
    agree_from_everywhere(algo, &c, &turned);
    let turned = moved(&c, [3, 0, 0, 1], [q(12, 5), q(0, 1), q(0, 1)]);
    assert_eq!(agree(algo, &c, &turned).status, Status::Touching);
    agree_from_everywhere(algo, &turned, &c);
    let turned = moved(&c, [3, 0, 0, 1], [q(2401, 1000), q(0, 1), q(0, 1)]);
    assert_eq!(agree(algo, &c, &turned).squared_distance, q(1, 1_000_000));
}

pub fn parallel_edges(algo: Algorithm) {
    let c = cube::<Q>();
    for gap in [q(0, 1), q(1, 1000), q(3, 1)] {
        let b = shifted(&c, [q(2, 1) + gap.clone(), q(2, 1) + gap.clone(), q(1, 2)]);
        assert_eq!(agree(algo, &c, &b).squared_distance, q(2, 1) * gap.clone() * gap);
    }
    agree_from_everywhere(algo, &c, &shifted(&c, [q(2, 1), q(2, 1), q(1, 2)]));
    agree_from_everywhere(algo, &c, &shifted(&c, [q(2001, 1000), q(2001, 1000), q(1, 2)]));
}

pub fn vertex_on_voronoi_plane(algo: Algorithm) {
    let c = cube::<Q>();
    let o = shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(0, 1)]);
    assert_eq!(agree(algo, &c, &o).squared_distance, q(1, 1));
    agree_from_everywhere(algo, &c, &o);
    agree_from_everywhere(algo, &o, &c);
    let o = shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(1, 1)]);
    assert_eq!(agree(algo, &c, &o).squared_distance, q(1, 1));
    agree_from_everywhere(algo, &c, &o);
}

pub fn touching_vertex_on_face_and_edge_on_face(algo: Algorithm) {
    let c = cube::<Q>();
    let o = shifted(&octahedron::<Q>(), [q(2, 1), q(1, 3), q(1, 7)]);
    assert_eq!(agree(algo, &c, &o).status, Status::Touching);
    agree_from_everywhere(algo, &c, &o);
    let t = shifted(&tetrahedron::<Q>(), [q(0, 1), q(0, 1), q(2, 1)]);
    assert_eq!(agree(algo, &c, &t).status, Status::Touching);
    agree_from_everywhere(algo, &c, &t);
    agree_from_everywhere(algo, &t, &c);
}

pub fn rotated_cube_against_octahedron_and_tetrahedron(algo: Algorithm) {
    let c = cube::<Q>();
    let quats = [[1, 2, 3, 4], [3, 1, 0, 1], [1, 1, 1, 1], [5, -2, 1, 0], [2, 0, 0, 1]];
    let shifts = [
        [q(3, 1), q(1, 2), q(0, 1)],
        [q(5, 2), q(5, 2), q(1, 3)],
        [q(0, 1), q(1, 2), q(2, 1)],
        [q(1, 1), q(1, 1), q(1, 1)],
    ];
    for quat in quats {
        for t in &shifts {
            for other in [octahedron::<Q>(), tetrahedron::<Q>()] {
                let b = moved(&other, quat, t.clone());
                agree(algo, &c, &b);
                agree(algo, &b, &c);
            }
        }
    }
}

pub fn every_warm_start_terminates(algo: Algorithm) {
    let c = cube::<Q>();
    let t = moved(&tetrahedron::<Q>(), [1, 2, 3, 4], [q(3, 1), q(1, 2), q(1, 3)]);
    agree_from_everywhere(algo, &c, &t);
    agree_from_everywhere(algo, &t, &c);
    let o = moved(&octahedron::<Q>(), [3, 1, 0, 1], [q(1, 1), q(1, 2), q(1, 3)]);
    agree_from_everywhere(algo, &c, &o); // penetrating
}

pub use touchstone::strategies::prop::pose;
#[allow(unused_imports)]
pub use touchstone::strategies::{octagon, octagonal_prism};

pub fn posed(k: usize, (quat, t): ([i64; 4], [i64; 3])) -> Solid<Q> {
    touchstone::strategies::posed_shape(k, quat, t)
}

/// The `f64` algorithm on degenerate configurations whose coordinates are exact doubles, from
/// every warm start: within 1e-9 of the exact squared distance, same status.
pub fn f64_on_degenerate_cases(algo: Algorithm64) {
    let c = cube::<Q>();
    let cases = vec![
        (c.clone(), shifted(&c, [q(2, 1), q(1, 4), q(-1, 2)])),
        (c.clone(), shifted(&c, [q(2049, 1024), q(1, 4), q(-1, 2)])),
        (c.clone(), shifted(&c, [q(2, 1), q(2, 1), q(1, 2)])),
        (c.clone(), shifted(&c, [q(3, 2), q(1, 2), q(0, 1)])),
        (c.clone(), shifted(&octahedron::<Q>(), [q(3, 1), q(1, 1), q(1, 1)])),
        (c.clone(), shifted(&octahedron::<Q>(), [q(2, 1), q(1, 4), q(1, 8)])),
        (c.clone(), shifted(&tetrahedron::<Q>(), [q(0, 1), q(0, 1), q(2, 1)])),
        (c.clone(), moved(&c, [3, 0, 0, 1], [q(12, 5), q(0, 1), q(0, 1)])),
        (octagonal_prism(), shifted(&c, [q(1, 2), q(1, 4), q(2, 1)])),
    ];
    for (a, b) in cases {
        let expected = brute(&a, &b);
        let (fa, fb) = (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap());
        let exact = expected.squared_distance.to_f64();
        for wa in features(&fa) {
            for wb in features(&fb) {
                let r = algo(&fa, &fb, Some((wa.clone(), wb.clone()))).unwrap();
                assert!((r.closest.squared_distance - exact).abs() <= 1e-9 * (1.0 + exact), "{r:?} vs {exact}");
                assert_eq!(r.closest.status, expected.status, "from {wa:?}, {wb:?}");
            }
        }
    }
}
