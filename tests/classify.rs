//! `classify_point` on convex solids: every boundary feature of a cube found by hand, the same
//! answers under exact rational rotations (the class and feature follow from the point's
//! coordinates before the pose), claims, the f64 path under the contract, and the typed
//! refusal of solids that are not convex.

use std::collections::BTreeSet;

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::shapes::l_shape;
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::poly::FilterScalar;
use touchstone::query::{
    both, exact_answer, judge_claim, ClassifyPoint, ClassifyPointClaim, ErrorKind, FeatureId, Judged, PointClass,
    PoseSpec, Posed, Query, ShapeSpec, Tolerance,
};
use touchstone::scalar::{Interval, MidRad, Scalar};

type Q = BigRational;

fn q(p: i64, d: i64) -> Q {
    Q::new(p.into(), d.into())
}

fn cube() -> ShapeSpec {
    ShapeSpec::cuboid([q(1, 1), q(1, 1), q(1, 1)]).unwrap()
}

/// The cube's vertex ids whose coordinates agree with `c` where |c| = 1 (vertex id: bit 0 for
/// x = +1, bit 1 for y, bit 2 for z).
fn expected_feature(c: [i64; 3], unit: i64) -> Option<BTreeSet<usize>> {
    let fixed: Vec<(usize, bool)> = (0..3).filter(|&i| c[i].abs() == unit).map(|i| (i, c[i] > 0)).collect();
    if fixed.is_empty() {
        return None;
    }
    Some((0..8).filter(|v| fixed.iter().all(|&(i, up)| ((v >> i) & 1 == 1) == up)).collect())
}

fn classify(pose: PoseSpec, p: Point3<Q>) -> ClassifyPoint {
    ClassifyPoint { solid: Posed::new("solid", cube(), pose), point: p }
}

#[test]
fn every_feature_of_a_cube_by_hand() {
    // Points with coordinates in {-2, -1, 0, 1, 2} halves: |c| < 2 inside, = 2 on the
    // boundary (the cube is [-1, 1]³, so halves of ±2 are ±1), > 2 outside.
    let mut seen = BTreeSet::new();
    for x in -3..=3i64 {
        for y in -3..=3i64 {
            for z in -3..=3i64 {
                let c = [x, y, z];
                let a = classify(PoseSpec::identity(), Point3::new(q(x, 2), q(y, 2), q(z, 2))).answer::<Q>().unwrap();
                let max = c.iter().map(|v| v.abs()).max().unwrap();
                let class = match max {
                    0 | 1 => PointClass::Inside,
                    2 => PointClass::Boundary,
                    _ => PointClass::Outside,
                };
                assert_eq!(a.output.class, class, "{c:?}");
                match class {
                    PointClass::Boundary => {
                        let ids: BTreeSet<usize> = a.output.feature.as_ref().unwrap().ids().into_iter().collect();
                        assert_eq!(Some(ids.clone()), expected_feature(c, 2), "{c:?}");
                        seen.insert(ids);
                    }
                    _ => assert_eq!(a.output.feature, None),
                }
            }
        }
    }
    // 6 faces, 12 edges, 8 vertices.
    assert_eq!(seen.len(), 26);
}

#[test]
fn claims_contains_and_features_on_the_closure() {
    // (1, 1, 0) is on the edge between faces x = 1 and y = 1: a claim of either face passes,
    // of the edge too, of a vertex or a far face not.
    let c = classify(PoseSpec::identity(), Point3::new(q(1, 1), q(1, 1), q(0, 1)));
    let exact = c.answer::<Q>().unwrap();
    let judge = |claim: ClassifyPointClaim| c.judge(&exact, &claim, &Tolerance::default(), 6).unwrap();
    let feature = |f: FeatureId| ClassifyPointClaim { feature: Some(f), ..Default::default() };
    assert!(judge(feature(FeatureId::edge(3, 7))).ok());
    assert!(judge(feature(FeatureId::face(vec![1, 3, 5, 7]))).ok());
    assert!(judge(feature(FeatureId::face(vec![2, 3, 6, 7]))).ok());
    assert!(!judge(feature(FeatureId::face(vec![0, 2, 4, 6]))).ok());
    assert!(!judge(feature(FeatureId::Vertex(7))).ok());
    assert!(!judge(feature(FeatureId::edge(1, 3))).ok());
    let contains = |b| ClassifyPointClaim { contains: Some(b), ..Default::default() };
    assert!(judge(contains(true)).ok());
    assert!(!judge(contains(false)).ok());
    let class = |k| ClassifyPointClaim { class: Some(k), ..Default::default() };
    assert!(judge(class(PointClass::Boundary)).ok());
    assert!(!judge(class(PointClass::Inside)).ok());
}

/// Solids that are not convex are answered through the Brep-index, with their features as
/// given; the filtered exact path gives the reference's answers.
#[test]
fn solids_that_are_not_convex_are_answered_through_the_index() {
    let l = l_shape::<Q>();
    let shape = ShapeSpec::Polyhedron { vertices: l.vertices().to_vec(), faces: l.faces().to_vec() };
    let at = |x: Q, y: Q, z: Q| ClassifyPoint {
        solid: Posed::new("solid", shape.clone(), PoseSpec::identity()),
        point: Point3::new(x, y, z),
    };
    // The L (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), height 1: vertex 0 is the origin; (3/2, 3/2)
    // is in the notch; the reflex edge runs up from (1, 1) (vertices 3 and 9).
    let cases = [
        (at(q(0, 1), q(0, 1), q(0, 1)), PointClass::Boundary, Some(FeatureId::Vertex(0))),
        (at(q(3, 2), q(3, 2), q(1, 2)), PointClass::Outside, None),
        (at(q(1, 2), q(1, 2), q(1, 2)), PointClass::Inside, None),
        (at(q(1, 1), q(1, 1), q(1, 2)), PointClass::Boundary, Some(FeatureId::edge(3, 9))),
        (at(q(3, 2), q(1, 1), q(1, 2)), PointClass::Boundary, Some(FeatureId::face(vec![2, 3, 8, 9]))),
    ];
    for (c, class, feature) in cases {
        let a = c.answer::<Q>().unwrap();
        assert_eq!((a.output.class, a.output.feature.clone()), (class, feature), "{:?}", c.point);
        let filtered = exact_answer(&c).unwrap();
        assert_eq!((filtered.output.class, filtered.output.feature), (a.output.class, a.output.feature));
        assert!(both(&c).unwrap().agreement.is_ok());
    }
}

#[test]
fn one_ulp_off_the_face_f64_may_say_boundary_within_the_contract() {
    let x = 1.0f64 + f64::EPSILON;
    let c = classify(PoseSpec::identity(), Point3::new(Q::from_f64(x).unwrap(), q(0, 1), q(0, 1)));
    assert_eq!(c.answer::<Q>().unwrap().output.class, PointClass::Outside);
    let b = both(&c).unwrap();
    assert!(b.agreement.is_ok(), "{:?}", b.agreement);
}

/// The filter runs of [`posed_cubes_keep_their_classes`] (intervals, values with bounds), and
/// how many of them decided.
static INTERVAL_RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static INTERVAL_DECIDED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A filter run decides the exact class and feature or declines (an uncertain sign, counted),
/// never anything else.
fn filter_agrees<F: FilterScalar>(
    query: &ClassifyPoint,
    exact: &touchstone::query::ClassifyPointOutput<Q>,
) -> Result<(), TestCaseError> {
    match query.answer::<F>() {
        Ok(i) => {
            prop_assert_eq!(i.output.class, exact.class, "{}", F::NAME);
            prop_assert_eq!(&i.output.feature, &exact.feature, "{}", F::NAME);
            INTERVAL_DECIDED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Err(e) => prop_assert_eq!(e.kind, ErrorKind::Uncertain, "{}: {}", F::NAME, e),
    }
    INTERVAL_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

#[test]
fn posed_cubes_keep_their_classes() {
    posed_cubes_keep_their_classes_property();
    use std::sync::atomic::Ordering::Relaxed;
    let (runs, decided) = (INTERVAL_RUNS.load(Relaxed), INTERVAL_DECIDED.load(Relaxed));
    // A declining interval run is no check of its answer: a point with a coordinate ±2 before
    // the pose lies on a face's plane, a zero test an interval cannot decide (64% of the cases;
    // 46% of the runs decided when this was written): at least a quarter must decide.
    assert!(decided * 4 >= runs, "the interval backend decided only {decided} of {runs} cases");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Under an exact rational rotation (an integer quaternion) and a grid translation, a point
    /// posed with the cube has the class and feature its coordinates give before the pose; the
    /// interval backend decides the same or declines; f64 agrees under the contract.
    fn posed_cubes_keep_their_classes_property(
        quat in prop::array::uniform4(-3i64..4).prop_filter("nonzero", |q| q != &[0; 4]),
        t in prop::array::uniform3(-8i64..9),
        c in prop::array::uniform3(-3i64..=3),
    ) {
        let tq = t.map(|x| q(x, 4));
        let pose = PoseSpec::quaternion(quat.map(Q::from_i64), tq.clone()).unwrap();
        let map = Affine::from_quaternion(&quat.map(Q::from_i64), Vector3::from(tq)).unwrap();
        let p = map.apply_point(&Point3::new(q(c[0], 2), q(c[1], 2), q(c[2], 2)));
        let query = classify(pose, p);
        let a = query.answer::<Q>().unwrap();
        let max = c.iter().map(|v| v.abs()).max().unwrap();
        let class = match max { 0 | 1 => PointClass::Inside, 2 => PointClass::Boundary, _ => PointClass::Outside };
        prop_assert_eq!(a.output.class, class);
        let ids = a.output.feature.as_ref().map(|f| f.ids().into_iter().collect::<BTreeSet<usize>>());
        prop_assert_eq!(ids, if class == PointClass::Boundary { expected_feature(c, 2) } else { None });
        // The filter runs decide the same or decline (an uncertain sign, counted: most cases
        // must be decided), never anything else.
        filter_agrees::<Interval>(&query, &a.output)?;
        filter_agrees::<MidRad>(&query, &a.output)?;
        let b = both(&query).unwrap();
        prop_assert!(b.agreement.is_ok(), "{:?}", b.agreement);
        // The filtered path (intervals first) gives the reference answer, and judges claims
        // as the exact check does: right ones, wrong ones, and a face claimed for a point on
        // its edge or corner (a tie only the exact check decides).
        prop_assert_eq!(&exact_answer(&query).unwrap().output, &a.output);
        let claims = [
            ClassifyPointClaim { class: Some(class), contains: Some(class != PointClass::Outside), feature: a.output.feature.clone() },
            ClassifyPointClaim { class: Some(PointClass::Inside), ..Default::default() },
            ClassifyPointClaim { contains: Some(class == PointClass::Outside), ..Default::default() },
            ClassifyPointClaim { feature: Some(FeatureId::face(vec![1, 3, 5, 7])), ..Default::default() },
        ];
        for claim in claims {
            let exact = query.judge(&a, &claim, &Tolerance::default(), 6).unwrap().ok();
            let filtered = match judge_claim(&query, &claim, &Tolerance::default(), 6).unwrap() {
                Judged::Enclosed { ok, .. } => ok,
                Judged::Exact(v) => v.ok(),
            };
            prop_assert_eq!(exact, filtered, "{:?}", claim);
        }
    }
}
