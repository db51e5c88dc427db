//! Decisions a filter can trust: every algorithm run on a filter backend (certain decisions,
//! `Uncertain` when a sign is too close to call: intervals, and binary64 values with error
//! bounds, each test run on both) gives either the exact answer or `Uncertain`, never a wrong
//! decision; its values enclose the exact ones. Inputs are the
//! degenerate configurations of the other tests (grid points, rotations by quaternions, touching
//! and coplanar by construction). Each test also asserts that a good share of its cases is
//! decided, so that "always uncertain" would fail it.

use std::fmt::Debug;

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::{convex_hull, Solid};
use touchstone::constructions::{plane_through, squared_distance_point_segment};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::poly::{Algebraic, FilterScalar};
use touchstone::predicates::{orient3d, side_of_plane};
use touchstone::query::{self, ErrorKind, Query, QueryError};
use touchstone::scalar::{ratio, Interval, MidRad, Scalar, Uncertain};
use touchstone::strategies::{convex_pair, Placement};
use touchstone::strategies::{degenerate_boxes, degenerate_ccd, CcdConstruction};
use touchstone::sweep::{ccd, first_contact_bms, first_contact_sat, pair_touches, CcdKind};
use touchstone::vclip::{brute_force_distance, lin_canny, vclip, VClipError};

type Q = BigRational;

/// Counts of decided and uncertain cases.
#[derive(Default, Debug)]
struct Tally {
    decided: usize,
    uncertain: usize,
}

impl Tally {
    /// `interval` must be `exact` or undecided.
    fn judge<T: PartialEq + Debug, E: Debug>(
        &mut self,
        exact: &T,
        interval: &Result<T, E>,
        undecided: impl Fn(&E) -> bool,
    ) {
        match interval {
            Ok(x) => {
                assert_eq!(x, exact, "the interval backend decided wrongly");
                self.decided += 1;
            }
            Err(e) => {
                assert!(undecided(e), "the interval backend failed otherwise: {e:?} (exact: {exact:?})");
                self.uncertain += 1;
            }
        }
    }

    fn at_least(&self, share: f64, what: &str) {
        let n = (self.decided + self.uncertain).max(1);
        eprintln!("{what}: {} decided, {} uncertain", self.decided, self.uncertain);
        assert!(self.decided as f64 >= share * n as f64, "{what}: only {self:?} decided");
    }
}

fn close(u: &Uncertain) -> bool {
    *u == Uncertain::Close
}

/// Run a generic test body on both filter backends.
macro_rules! on_both_filters {
    ($($body:ident),* $(,)?) => {
        mod interval { $( #[test] fn $body() { super::$body::<touchstone::scalar::Interval>() } )* }
        mod midrad { $( #[test] fn $body() { super::$body::<touchstone::scalar::MidRad>() } )* }
    };
}

on_both_filters!(
    kernel_predicates_are_exact_or_uncertain,
    convex_hulls_are_exact_or_uncertain,
    closest_features_are_exact_or_uncertain,
    ccd_is_exact_or_uncertain,
    box_sweep_is_exact_or_uncertain,
    queries_are_exact_or_uncertain,
);

/// A filter backend whose value can be checked to hold an exact value by its own definition,
/// in rationals: an interval by its bounds, a value with a bound by its distance from the exact
/// value (not by a rounded enclosure, which would be weaker).
trait Filter: FilterScalar {
    fn holds(&self, x: &Q) -> bool;
}

impl Filter for Interval {
    fn holds(&self, x: &Q) -> bool {
        let lo_ok = !self.lo().is_finite() || Q::from_float(self.lo()).is_some_and(|lo| &lo <= x);
        let hi_ok = !self.hi().is_finite() || Q::from_float(self.hi()).is_some_and(|hi| x <= &hi);
        lo_ok && hi_ok
    }
}

impl Filter for MidRad {
    fn holds(&self, x: &Q) -> bool {
        if !self.radius().is_finite() {
            return true;
        }
        let d = x - Q::from_float(self.mid()).unwrap();
        num_traits::Signed::abs(&d) <= Q::from_float(self.radius()).unwrap()
    }
}

/// Whether the filter's value encloses the exact value.
fn encloses<F: Filter>(v: &F, x: &Q) -> bool {
    v.holds(x)
}

fn encloses_time(i: &Interval, t: &Algebraic) -> bool {
    use std::cmp::Ordering::{Greater, Less};
    let lo_ok = !i.lo().is_finite() || Q::from_float(i.lo()).is_some_and(|lo| t.cmp_rational(&lo) != Less);
    let hi_ok = !i.hi().is_finite() || Q::from_float(i.hi()).is_some_and(|hi| t.cmp_rational(&hi) != Greater);
    lo_ok && hi_ok
}

fn iv<F: FilterScalar>(p: &Point3<Q>) -> Point3<F> {
    p.map(|c| F::from_rational(&c))
}

/// Quaternions whose rotations have dyadic entries (|q|² a power of two), and others.
const QUATERNIONS: [[i64; 4]; 6] = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0], [1, 2, 3, 4], [2, 1, 0, 0]];

fn grid() -> impl Strategy<Value = Point3<Q>> {
    [-2i64..=2, -2i64..=2, -2i64..=2].prop_map(|c| Point3::from(c.map(|x| ratio::<Q>(x, 2))))
}

fn rotated(p: &Point3<Q>, k: usize) -> Point3<Q> {
    let q = QUATERNIONS[k % QUATERNIONS.len()].map(Q::from_i64);
    Affine::from_quaternion(&q, Vector3::zeros()).unwrap().apply_point(p)
}

fn kernel_predicates_are_exact_or_uncertain<F: Filter>() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut orient, mut side, mut dist) = (Tally::default(), Tally::default(), Tally::default());
    let strategy = (proptest::collection::vec(grid(), 4), 0usize..6, -4i64..=4, -4i64..=4, any::<bool>());
    for _ in 0..3000 {
        use proptest::strategy::ValueTree;
        let (p, k, s, t, coplanar) = strategy.new_tree(&mut runner).unwrap().current();
        let mut p: Vec<Point3<Q>> = p.iter().map(|x| rotated(x, k)).collect();
        if coplanar {
            // d = a + s/4 (b − a) + t/4 (c − a): coplanar by construction.
            p[3] = &p[0] + (&p[1] - &p[0]) * ratio::<Q>(s, 4) + (&p[2] - &p[0]) * ratio::<Q>(t, 4);
        }
        let pi: Vec<Point3<F>> = p.iter().map(iv).collect();
        orient.judge(&orient3d(&p[0], &p[1], &p[2], &p[3]).unwrap(), &orient3d(&pi[0], &pi[1], &pi[2], &pi[3]), close);
        if let (Ok(plane), Ok(plane_i)) = (plane_through(&p[0], &p[1], &p[2]), plane_through(&pi[0], &pi[1], &pi[2])) {
            side.judge(&side_of_plane(&plane, &p[3]).unwrap(), &side_of_plane(&plane_i, &pi[3]), close);
        }
        let (d, t) = squared_distance_point_segment(&p[3], &p[0], &p[1]).unwrap();
        match squared_distance_point_segment(&pi[3], &pi[0], &pi[1]) {
            Ok((di, ti)) => {
                assert!(encloses(&di, &d) && encloses(&ti, &t), "{di} ∌ {d} or {ti} ∌ {t}");
                dist.decided += 1;
            }
            Err(e) => {
                assert!(close(&e));
                dist.uncertain += 1;
            }
        }
    }
    // Rotations by (1, 2, 3, 4) and (2, 1, 0, 0) make non-dyadic coordinates: coplanar points
    // are then undecidable in binary64 intervals; the others decide.
    orient.at_least(0.5, "orient3d");
    side.at_least(0.5, "side_of_plane");
    dist.at_least(0.5, "point-segment distance");
}

/// Convex hulls on a small grid (many coplanar and collinear ties) and rotated copies.
fn convex_hulls_are_exact_or_uncertain<F: Filter>() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut tally = Tally::default();
    let strategy = (proptest::collection::vec(grid(), 4..24), 0usize..6);
    for _ in 0..400 {
        use proptest::strategy::ValueTree;
        let (pts, k) = strategy.new_tree(&mut runner).unwrap().current();
        let pts: Vec<Point3<Q>> = pts.iter().map(|p| rotated(p, k)).collect();
        let exact = convex_hull(&pts).map(|h| (h.input_index, faces(&h.solid)));
        let interval =
            convex_hull(&pts.iter().map(iv::<F>).collect::<Vec<_>>()).map(|h| (h.input_index, faces(&h.solid)));
        match (&exact, &interval) {
            (Ok(e), _) => {
                tally.judge(e, &interval, |x| matches!(x, touchstone::brep::HullError::Uncertain(Uncertain::Close)))
            }
            // No hull exactly (coplanar, too few points): the interval path must not build one.
            (Err(e), Ok(_)) => panic!("exact: {e}, interval built a hull"),
            (Err(_), Err(_)) => {}
        }
    }
    tally.at_least(0.4, "convex hull");
}

/// The faces of a solid as sorted cycles of vertex ids (each rotated to start at its least id).
fn faces<S: Scalar>(s: &Solid<S>) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (0..s.face_count())
        .map(|f| {
            let face = s.face(f);
            let k = (0..face.len()).min_by_key(|&i| face[i]).unwrap_or(0);
            face[k..].iter().chain(&face[..k]).copied().collect()
        })
        .collect();
    out.sort();
    out
}

fn vclip_error(e: &VClipError) -> bool {
    matches!(e, VClipError::Uncertain(Uncertain::Close))
}

type Closest = (touchstone::vclip::Status, (touchstone::brep::Feature, touchstone::brep::Feature));

/// V-Clip, Lin–Canny and the brute force on the degenerate convex pairs of the V-Clip contract
/// (dyadic rotations, touching and sunk placements).
fn closest_features_are_exact_or_uncertain<F: Filter>() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut v, mut l, mut b) = (Tally::default(), Tally::default(), Tally::default());
    let dyadic = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0], [1, 0, 1, 0], [0, 0, 0, 1]];
    let strategy =
        (0u8..6, 0usize..6, [-8i8..=8, -8i8..=8, -8i8..=8], 0u8..6, 0usize..6, [-8i8..=8, -8i8..=8, -8i8..=8], 0u8..3);
    let cloud: Vec<[i8; 3]> = vec![[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, 4], [4, 4, 4], [1, 3, 2], [3, 1, 1]];
    for _ in 0..250 {
        use proptest::strategy::ValueTree;
        let (ka, qa, ta, kb, qb, tb, place) = strategy.new_tree(&mut runner).unwrap().current();
        let qa = dyadic[qa].map(|x| x as i8);
        let qb = dyadic[qb].map(|x| x as i8);
        let placement = [Placement::Free, Placement::TouchingAbove, Placement::Sunk][place as usize];
        let (a, bsolid) = convex_pair((ka, qa, ta), (kb, qb, tb), &cloud, placement);
        let (Ok(ai), Ok(bi)) = (a.convert::<F>(), bsolid.convert::<F>()) else {
            // Building the solid on intervals failed: only an undecided planarity may do that.
            continue;
        };
        let key = |r: &touchstone::vclip::ClosestPair<Q>| -> Closest { (r.status, r.features.clone()) };
        let key_i = |r: &touchstone::vclip::ClosestPair<F>| -> Closest { (r.status, r.features.clone()) };
        let exact = vclip(&a, &bsolid, None).unwrap();
        let interval = vclip(&ai, &bi, None);
        if let Ok(r) = &interval {
            assert!(encloses(&r.closest.squared_distance, &exact.closest.squared_distance));
        }
        v.judge(&key(&exact.closest), &interval.map(|r| key_i(&r.closest)), vclip_error);
        let exact = lin_canny(&a, &bsolid, None).unwrap();
        l.judge(&key(&exact.closest), &lin_canny(&ai, &bi, None).map(|r| key_i(&r.closest)), vclip_error);
        let exact = brute_force_distance(&a, &bsolid).unwrap();
        b.judge(&key(&exact), &brute_force_distance(&ai, &bi).map(|r| key_i(&r)), vclip_error);
    }
    v.at_least(0.3, "V-Clip");
    l.at_least(0.3, "Lin-Canny");
    b.at_least(0.3, "brute force");
}

/// CCD on the degenerate grid constructions of the CCD contract.
fn ccd_is_exact_or_uncertain<F: Filter>() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut tally = Tally::default();
    let strategy =
        (any::<bool>(), proptest::collection::vec([-8i8..=8, -8i8..=8, -8i8..=8], 8), 0u8..3, 0u8..8, 0u8..3);
    for _ in 0..600 {
        use proptest::strategy::ValueTree;
        let (vf, pts, c, target, when) = strategy.new_tree(&mut runner).unwrap().current();
        let kind = if vf { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
        let construction = match c {
            0 => CcdConstruction::Free,
            1 => CcdConstruction::Coplanar,
            _ => CcdConstruction::Through { target, when },
        };
        let pts: [[i8; 3]; 8] = pts.try_into().unwrap();
        let (t0, t1) = degenerate_ccd(kind, pts, construction);
        let e = |p: &[Point3<f64>; 4]| p.map(|x| x.map(|c| Q::from_float(c).unwrap()));
        let i = |p: &[Point3<f64>; 4]| p.map(|x| x.map(|c| F::from_f64(c).unwrap()));
        let exact = ccd(kind, &e(&t0), &e(&t1)).unwrap();
        let interval = ccd(kind, &i(&t0), &i(&t1));
        if let (Some(te), Ok(Some(ti))) = (&exact.toi, interval.as_ref().map(|r| r.toi)) {
            assert!(encloses_time(&ti, te), "{ti} ∌ {te}");
        }
        tally.judge(&exact.collides(), &interval.map(|r| r.collides()), |e| {
            matches!(e, touchstone::poly::PolyError::Uncertain(Uncertain::Close))
        });
    }
    tally.at_least(0.3, "CCD");
}

/// The box sweep's separating-axis route on the degenerate box pairs of the sweep contract.
fn box_sweep_is_exact_or_uncertain<F: Filter>() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut tally, mut bms) = (Tally::default(), Tally::default());
    let strategy = (
        [0u8..4, 0u8..4, 0u8..4],
        [0u8..4, 0u8..4, 0u8..4],
        proptest::option::of(([-2i8..=2, -2i8..=2, -2i8..=2, -2i8..=2], [-2i8..=2, -2i8..=2, -2i8..=2, -2i8..=2])),
        [-6i8..=6, -6i8..=6, -6i8..=6],
        [-6i8..=6, -6i8..=6, -6i8..=6],
        [-2i8..=2, -2i8..=2, -2i8..=2],
    );
    for _ in 0..150 {
        use proptest::strategy::ValueTree;
        let (ha, hb, spin, c, v, acc) = strategy.new_tree(&mut runner).unwrap().current();
        let (a, b) = degenerate_boxes(ha, hb, spin, c, v, acc);
        let (zero, one) = (Q::from_i64(0), Q::from_i64(1));
        let Ok(exact) = first_contact_sat(&a, &b, &zero, &one) else { continue };
        let conv = |m: &touchstone::sweep::BoxMotion<Q>| touchstone::sweep::BoxMotion {
            half: m.half.clone().map(|h| F::from_rational(&h)),
            motion: m.motion.clone().map(|x| x.map(|c| F::from_rational(&c))),
        };
        let interval = first_contact_sat(&conv(&a), &conv(&b), &F::from_i64(0), &F::from_i64(1));
        if let (Some(e), Ok(Some(i))) = (&exact, &interval) {
            assert!(encloses_time(&i.time, &e.time), "{} ∌ {}", i.time, e.time);
        }
        tally.judge(&exact.map(|c| c.axis.is_some()), &interval.map(|c| c.map(|c| c.axis.is_some())), sweep_undecided);
        // The primary route, Albocher–Sarel, on the same pair: the same collision, a time
        // enclosing the exact one, and a pair that touches exactly at the exact time (on a
        // degenerate contact it may be another touching pair than the exact path's: the interval
        // path does not divide normals by their gcd, so a plane's orientation can differ).
        let exact = first_contact_bms(&a, &b, &zero, &one).unwrap();
        let interval = first_contact_bms(&conv(&a), &conv(&b), &F::from_i64(0), &F::from_i64(1));
        if let (Some(e), Ok(Some(i))) = (&exact, &interval) {
            assert!(encloses_time(&i.time, &e.time), "{} ∌ {}", i.time, e.time);
            assert_eq!(e.overlapping_at_start, i.overlapping_at_start);
            if let Some(pair) = i.contact {
                assert!(pair_touches(&a, &b, &zero, &one, &e.time, pair.a, pair.b).unwrap(), "{pair:?} at {}", e.time);
            }
        }
        bms.judge(&exact.is_some(), &interval.map(|c| c.is_some()), sweep_undecided);
    }
    // Most of these pairs touch, graze or spin by construction: contact times at exact roots
    // that an enclosure cannot separate from the other candidates.
    tally.at_least(0.15, "box sweep (separating axes)");
    bms.at_least(0.15, "box sweep (Albocher-Sarel)");
}

fn sweep_undecided(e: &touchstone::sweep::SweepError) -> bool {
    matches!(
        e,
        touchstone::sweep::SweepError::Uncertain(Uncertain::Close)
            | touchstone::sweep::SweepError::Poly(touchstone::poly::PolyError::Uncertain(Uncertain::Close))
    )
}

fn uncertain(e: &QueryError) -> bool {
    e.kind == ErrorKind::Uncertain
}

/// Every op of the query layer on intervals: the exact discrete answer, or kind `uncertain`.
fn queries_are_exact_or_uncertain<F: Filter>() {
    use touchstone::query::{
        Ccd, Distance, Orient3d, PoseSpec, Posed, SegmentPlane, ShapeSpec, SideOfPlane, SquaredDistance, Target,
        Validate,
    };
    fn run<F: Filter, Qy: Query>(q: &Qy, tally: &mut Tally) {
        let exact = Qy::discrete(&q.answer::<Q>().unwrap().output);
        tally.judge(&exact, &q.answer::<F>().map(|a| Qy::discrete(&a.output)), uncertain);
    }
    let p = |x: i64, y: i64, z: i64| touchstone::geom::point::<Q>(x, y, z);
    let mut tally = Tally::default();
    run::<F, _>(&Orient3d { points: [p(0, 0, 0), p(1, 0, 0), p(0, 1, 0), p(1, 1, 0)] }, &mut tally);
    run::<F, _>(&Orient3d { points: [p(0, 0, 0), p(1, 0, 0), p(0, 1, 0), p(1, 1, 1)] }, &mut tally);
    // (1/3, 1/3, 2/3) is on the plane z = x + y exactly, but 1/3 is no double: the interval
    // cannot tell.
    let third = Point3::new(ratio(1, 3), ratio(1, 3), ratio(2, 3));
    let q = Orient3d { points: [p(0, 0, 0), p(1, 0, 1), p(0, 1, 1), third] };
    assert_eq!(q.answer::<F>().unwrap_err().kind, ErrorKind::Uncertain);
    run::<F, _>(&q, &mut tally);
    let plane = query::PlaneSpec::points([p(0, 0, 0), p(1, 0, 0), p(0, 1, 0)]).unwrap();
    run::<F, _>(&SideOfPlane { plane: plane.clone(), point: p(3, 4, 0) }, &mut tally);
    run::<F, _>(&SegmentPlane { segment: [p(0, 0, -1), p(0, 0, 3)], plane }, &mut tally);
    run::<F, _>(&SquaredDistance { point: p(1, 1, 0), target: Target::Segment(p(0, 0, 0), p(2, 0, 0)) }, &mut tally);
    run::<F, _>(&Validate::new(ShapeSpec::Box([Q::from_i64(1), Q::from_i64(2), Q::from_i64(3)])), &mut tally);
    let cube = || ShapeSpec::Box([Q::from_i64(1), Q::from_i64(1), Q::from_i64(1)]);
    let translated = |x: i64| PoseSpec::quaternion([1, 1, 0, 0].map(Q::from_i64), [x, 0, 0].map(Q::from_i64)).unwrap();
    for x in [2, 3, 5] {
        run::<F, _>(
            &Distance { a: Posed::new("a", cube(), PoseSpec::identity()), b: Posed::new("b", cube(), translated(x)) },
            &mut tally,
        );
    }
    let vf = Ccd {
        kind: CcdKind::VertexFace,
        t0: [p(0, 0, 1), p(-1, -1, 0), p(3, -1, 0), p(-1, 3, 0)],
        t1: [p(0, 0, -3), p(-1, -1, 0), p(3, -1, 0), p(-1, 3, 0)],
    };
    run::<F, _>(&vf, &mut tally);
    let id = touchstone::geom::Matrix4::<Q>::identity();
    let zero = touchstone::geom::Matrix4::from_element(Q::from_i64(0));
    let (mut b0, mut b1) = (id.clone(), zero.clone());
    b0[(0, 3)] = Q::from_i64(5);
    b0[(1, 3)] = ratio(1, 2);
    b1[(0, 3)] = Q::from_i64(-4);
    let boxes = query::ToiBoxes {
        a: touchstone::sweep::BoxMotion { half: [1, 1, 1].map(Q::from_i64), motion: [id, zero.clone(), zero.clone()] },
        b: touchstone::sweep::BoxMotion { half: [1, 1, 1].map(Q::from_i64), motion: [b0, b1, zero] },
        interval: [Q::from_i64(0), Q::from_i64(1)],
    };
    run::<F, _>(&boxes, &mut tally);
    tally.at_least(0.6, "queries");
}
