//! The thread's memo of posed solids and Brep-indices (`query::shared_solid`): a served solid,
//! index and margin give the answers a fresh build gives, on every backend, for the Brep-index
//! generator's cases (nonconvex prisms under exact rotations, points on vertices, edges and
//! faces); a step limit gives the same answers and errors served or built; failed builds are
//! not kept, and the memo stays within its slots.

use num_rational::BigRational;
use touchstone::arbitrary::MspInput;
use touchstone::budget::{steps_left, with_budget, Budget};
use touchstone::query::{
    both, clear_memo, exact_answer, memo_len, shared_solid, ClassifyPoint, ClassifySegment, ErrorKind, PoseSpec, Posed,
    Query, ShapeSpec,
};
use touchstone::scalar::{Exact, Interval, MidRad};

type Q = BigRational;

/// The generator's cases: every prism, several poses, points picked on vertices, edges, faces
/// and the grid (the same draws on every run).
fn cases() -> Vec<(ClassifyPoint, ClassifySegment)> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < 24 {
        let r = next();
        let input = MspInput {
            shape: (out.len() % 4) as u8,
            scale: (r % 8) as u8,
            turn: [0, 8, 16, 24].map(|s| ((r >> s) % 7) as i8 - 3),
            shift: [32, 40, 48].map(|s| ((r >> s) % 17) as i8 - 8),
            pick: [((r >> 56) as u8, (r >> 20) as u16), ((r >> 60) as u8, (r >> 36) as u16)],
            grid: [[4, 2, 1], [-3, 5, 2]],
        };
        if let Some(queries) = input.case().and_then(|c| c.queries()) {
            out.push(queries);
        }
    }
    out
}

/// Every backend's answer (and error) to `q`, shown.
fn answers<T: Query>(q: &T) -> Vec<String> {
    vec![
        format!("{:?}", q.answer::<f64>()),
        format!("{:?}", q.answer::<Exact>()),
        format!("{:?}", q.answer::<Q>()),
        format!("{:?}", q.answer::<Interval>()),
        format!("{:?}", q.answer::<MidRad>()),
        format!("{:?}", exact_answer(q).map(|a| a.output)),
        format!("{:?}", both(q).map(|b| (b.margin, b.agreement))),
    ]
}

#[test]
fn served_solids_and_indices_answer_as_built_ones() {
    for (point, segment) in cases() {
        // Built: the memo emptied before each query.
        clear_memo();
        let built_point = answers(&point);
        clear_memo();
        let built_segment = answers(&segment);
        // Served: the point's runs pose and index the solid on each backend; the segment's and
        // the point's second round are served.
        clear_memo();
        let first = answers(&point);
        let served_segment = answers(&segment);
        let served_point = answers(&point);
        assert_eq!(first, built_point);
        assert_eq!(served_point, built_point, "{point:?}");
        assert_eq!(served_segment, built_segment, "{segment:?}");
        // And they were served: the same solid and index, not rebuilt.
        let a = shared_solid::<Exact, Q>(&point.solid).unwrap();
        let b = shared_solid::<Exact, Q>(&segment.solid).unwrap();
        assert!(std::rc::Rc::ptr_eq(&a, &b));
        assert!(std::rc::Rc::ptr_eq(&a.index("/solid").unwrap(), &b.index("/solid").unwrap()));
        assert!(memo_len() <= touchstone::query::memo::SLOTS);
    }
}

#[test]
fn a_step_limit_answers_alike_served_or_built() {
    // One segment through a comb under an exact rotation: the steps the whole exact query takes
    // cold, then every limit around the thresholds (posing, indexing, classifying) gives the
    // same answer or error built, served after an unlimited build (whose steps were not
    // counted: built again), and served after a counted build (charged).
    let (_, segment) = cases()
        .into_iter()
        .find(|(_, s)| matches!(&s.solid.shape, ShapeSpec::Polyhedron { vertices, .. } if vertices.len() == 16))
        .expect("a comb case");
    let huge = 1u64 << 40;
    let limited = |steps: u64| Budget { steps: Some(steps), ..Budget::default() };
    clear_memo();
    let total = huge
        - with_budget(limited(huge), || {
            segment.answer::<Exact>().expect("answers");
            steps_left().unwrap()
        });
    clear_memo();
    let posing = huge
        - with_budget(limited(huge), || {
            shared_solid::<Exact, Q>(&segment.solid).expect("poses");
            steps_left().unwrap()
        });
    assert!(0 < posing && posing < total, "{posing} of {total}");
    let mut limits: Vec<u64> = (0..=total + 2).step_by((total as usize / 40).max(1)).collect();
    limits.extend([posing - 1, posing, posing + 1, total - 1, total, total + 1]);
    for steps in limits {
        clear_memo();
        let built = with_budget(limited(steps), || format!("{:?}", segment.answer::<Exact>()));
        clear_memo();
        segment.answer::<Exact>().expect("answers");
        let after_unlimited = with_budget(limited(steps), || format!("{:?}", segment.answer::<Exact>()));
        clear_memo();
        with_budget(limited(huge), || segment.answer::<Exact>()).expect("answers");
        let after_counted = with_budget(limited(steps), || format!("{:?}", segment.answer::<Exact>()));
        assert_eq!(after_unlimited, built, "{steps} steps of {total}");
        assert_eq!(after_counted, built, "{steps} steps of {total}");
        assert_eq!(built.starts_with("Ok"), steps >= total, "{steps} steps of {total}: {built}");
    }
}

#[test]
fn a_bits_limit_answers_alike_served_or_built() {
    // The pose's bits are charged once per posing: a limit just below, at and above what the
    // whole query charges gives the same answer or error built and served.
    let (point, _) = cases().into_iter().next().expect("a case");
    let huge = 1u64 << 40;
    let limited = |bits: u64| Budget { bits: Some(bits), ..Budget::default() };
    clear_memo();
    let total = huge
        - with_budget(limited(huge), || {
            point.answer::<Exact>().expect("answers");
            touchstone::budget::bits_left().unwrap()
        });
    assert!(total > 0);
    for bits in [0, 1, total / 2, total - 1, total, total + 1] {
        clear_memo();
        let built = with_budget(limited(bits), || format!("{:?}", point.answer::<Exact>()));
        clear_memo();
        with_budget(limited(huge), || point.answer::<Exact>()).expect("answers");
        let served = with_budget(limited(bits), || format!("{:?}", point.answer::<Exact>()));
        assert_eq!(served, built, "{bits} bits of {total}");
        assert_eq!(built.starts_with("Ok"), bits >= total, "{bits} bits of {total}: {built}");
    }
}

#[test]
fn convex_solids_are_served_too() {
    // `classify_point` of a box given as a polyhedron (a `box` shape is posed directly and not
    // kept) under the generator's poses: the strictly convex posed solid is kept (one slot per
    // backend asked), and served answers are the built ones.
    let r = |n: i64, d: i64| Q::new(n.into(), d.into());
    let half = [r(1, 1), r(3, 2), r(1, 2)];
    // Vertex v has coordinate i at +half[i] when bit i of v is set; faces outward.
    let vertices = (0..8)
        .map(|v: usize| {
            let c = |i: usize| if v >> i & 1 == 1 { half[i].clone() } else { -half[i].clone() };
            touchstone::geom::Point3::new(c(0), c(1), c(2))
        })
        .collect();
    let faces = vec![
        vec![0, 4, 6, 2],
        vec![1, 3, 7, 5],
        vec![0, 1, 5, 4],
        vec![2, 6, 7, 3],
        vec![0, 2, 3, 1],
        vec![4, 5, 7, 6],
    ];
    let shape = ShapeSpec::Polyhedron { vertices, faces };
    for (point, _) in cases().into_iter().take(8) {
        let solid = Posed { shape: shape.clone(), ..point.solid.clone() };
        for p in [[1, 0, 0], [1, 1, 0], [1, -1, 1], [0, 0, 0], [0, -1, 0]] {
            // Points on the box's faces, edges and corners before the pose, posed.
            let local: Vec<Q> = p.iter().zip([r(1, 1), r(3, 2), r(1, 2)]).map(|(&k, h)| h * r(k, 1)).collect();
            let world = match &solid.pose {
                PoseSpec::Quaternion { q, t } => {
                    let n = q.iter().map(|x| x * x).fold(Q::from_integer(0.into()), |a, b| a + b);
                    let v = touchstone::geom::Vector3::new(local[0].clone(), local[1].clone(), local[2].clone());
                    let (w, u) =
                        (q[0].clone(), touchstone::geom::Vector3::new(q[1].clone(), q[2].clone(), q[3].clone()));
                    // v' = ((w² − |u|²) v + 2 (u·v) u + 2 w (u × v)) / |q|² + t
                    let two = r(2, 1);
                    let rotated = (v.clone() * (w.clone() * w.clone() - u.dot(&u))
                        + u.clone() * (two.clone() * u.dot(&v))
                        + u.cross(&v) * (two * w))
                        / n;
                    touchstone::geom::Point3::new(&rotated.x + &t[0], &rotated.y + &t[1], &rotated.z + &t[2])
                }
                PoseSpec::Matrix(_) => unreachable!("the generator's poses are quaternions"),
            };
            let q = ClassifyPoint { solid: solid.clone(), point: world };
            clear_memo();
            let built = answers(&q);
            let again = answers(&q);
            assert!(memo_len() >= 3, "{}", memo_len());
            assert_eq!(again, built, "{q:?}");
            assert_eq!(built[1].contains("Boundary"), p != [0, 0, 0], "{}", built[1]);
        }
    }
}

#[test]
fn the_memo_keeps_its_last_slots() {
    // Twelve solids, each asked on several backends: the memo holds no more than its slots,
    // the latest first (the last query's solid is served, the first one's was let go).
    clear_memo();
    let all = cases();
    let mut first = None;
    for (point, _) in &all[..12] {
        point.answer::<Exact>().expect("answers");
        point.answer::<f64>().ok();
        first.get_or_insert_with(|| shared_solid::<Exact, Q>(&point.solid).unwrap());
        assert!(memo_len() <= touchstone::query::memo::SLOTS, "{}", memo_len());
    }
    assert_eq!(memo_len(), touchstone::query::memo::SLOTS);
    let last = shared_solid::<Exact, Q>(&all[11].0.solid).unwrap();
    assert!(std::rc::Rc::ptr_eq(&last, &shared_solid::<Exact, Q>(&all[11].0.solid).unwrap()));
    let again = shared_solid::<Exact, Q>(&all[0].0.solid).unwrap();
    assert!(!std::rc::Rc::ptr_eq(&again, first.as_ref().unwrap()), "the first solid was kept");
    clear_memo();
    assert_eq!(memo_len(), 0);
}

#[test]
fn failed_builds_are_not_kept() {
    clear_memo();
    let r = |n: i64| Q::from_integer(n.into());
    let p = |x: i64, y: i64, z: i64| touchstone::geom::Point3::new(r(x), r(y), r(z));
    // A tetrahedron with a face turned the wrong way.
    let shape = ShapeSpec::Polyhedron {
        vertices: vec![p(0, 0, 0), p(1, 0, 0), p(0, 1, 0), p(0, 0, 1)],
        faces: vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 3, 2]],
    };
    let q =
        ClassifySegment { solid: Posed::new("solid", shape, PoseSpec::identity()), segment: [p(0, 0, 0), p(1, 1, 1)] };
    let first = q.answer::<Exact>().expect_err("invalid");
    assert_eq!(first.kind, ErrorKind::Invalid);
    assert_eq!(memo_len(), 0);
    assert_eq!(format!("{:?}", q.answer::<Exact>()), format!("{:?}", Err::<(), _>(first)));
}
