//! The query layer without JSON: typed queries on every backend, claims, and every error kind
//! the layer produces.

use num_rational::BigRational;
use touchstone::geom::{point, Point3};
use touchstone::predicates::Orientation;
use touchstone::query::{
    both, Ccd, Distance, DistanceClaim, ErrorKind, FeatureId, Orient3d, PoseSpec, Posed, Query, ShapeSpec,
    SquaredDistance, SquaredDistanceClaim, Target, Tolerance, Validate,
};
use touchstone::scalar::{Interval, MidRad, Scalar};
use touchstone::sweep::CcdKind;
use touchstone::vclip::Status;

type Q = BigRational;

fn int(x: i64) -> Q {
    Q::from_i64(x)
}

fn cube() -> ShapeSpec {
    ShapeSpec::cuboid([int(1), int(1), int(1)]).unwrap()
}

fn moved(x: i64) -> PoseSpec {
    PoseSpec::quaternion([int(1), int(0), int(0), int(0)], [int(x), int(0), int(0)]).unwrap()
}

#[test]
fn the_same_query_on_every_backend() {
    let q = Distance { a: Posed::new("a", cube(), PoseSpec::identity()), b: Posed::new("b", cube(), moved(3)) };
    let exact = q.answer::<Q>().unwrap();
    assert_eq!((exact.output.status, exact.output.distance_squared.clone()), (Status::Separated, int(1)));
    let fast = q.answer::<f64>().unwrap();
    assert_eq!((fast.output.status, fast.output.distance_squared), (Status::Separated, 1.0));
    let interval = q.answer::<Interval>().unwrap();
    assert_eq!(interval.output.status, Status::Separated);
    assert!(interval.output.distance_squared.is_point());
    let bounded = q.answer::<MidRad>().unwrap();
    assert_eq!(bounded.output.status, Status::Separated);
    assert_eq!((bounded.output.distance_squared.mid(), bounded.output.distance_squared.radius()), (1.0, 0.0));
    let b = both(&q).unwrap();
    assert!(b.agreement.is_ok(), "{:?}", b.agreement);
    // The decisions behind the answer: the squared distance (relative to the squared
    // coordinate scale) and the two poses' determinants.
    assert_eq!(exact.decisive.len(), 3);
}

#[test]
fn claims_without_json() {
    let q = Distance { a: Posed::new("a", cube(), PoseSpec::identity()), b: Posed::new("b", cube(), moved(3)) };
    let exact = q.answer::<Q>().unwrap();
    let tol = Tolerance::default();
    // A tie: vertex 7 of a, (1, 1, 1), and vertex 6 of b, (2, 1, 1), are 1 apart: the optimum.
    let claim = DistanceClaim {
        status: Some(Status::Separated),
        features: Some([FeatureId::Vertex(7), FeatureId::Vertex(6)]),
        distance: Some(int(1)),
        ..Default::default()
    };
    let v = q.judge(&exact, &claim, &tol, 20).unwrap();
    assert!(v.ok(), "{v:?}");
    let wrong = DistanceClaim { status: Some(Status::Touching), ..Default::default() };
    assert!(!q.judge(&exact, &wrong, &tol, 20).unwrap().ok());
}

#[test]
fn every_error_kind_of_the_query_layer() {
    // invalid: a zero quaternion, a non-positive box, a non-convex shape for distance, an
    // invalid solid (pointing at its face).
    assert_eq!(
        PoseSpec::quaternion([int(0), int(0), int(0), int(0)], [int(0), int(0), int(0)]).unwrap_err().kind,
        ErrorKind::Invalid
    );
    assert_eq!(ShapeSpec::cuboid([int(1), int(0), int(1)]).unwrap_err().at, "/box/1");
    let l_shape = ShapeSpec::Polyhedron {
        vertices: [
            [0, 0, 0],
            [2, 0, 0],
            [2, 1, 0],
            [1, 1, 0],
            [1, 2, 0],
            [0, 2, 0],
            [0, 0, 1],
            [2, 0, 1],
            [2, 1, 1],
            [1, 1, 1],
            [1, 2, 1],
            [0, 2, 1],
        ]
        .iter()
        .map(|c| point(c[0], c[1], c[2]))
        .collect(),
        faces: vec![
            vec![0, 5, 4, 3, 2, 1],
            vec![6, 7, 8, 9, 10, 11],
            vec![0, 1, 7, 6],
            vec![1, 2, 8, 7],
            vec![2, 3, 9, 8],
            vec![3, 4, 10, 9],
            vec![4, 5, 11, 10],
            vec![5, 0, 6, 11],
        ],
    };
    assert!(Validate::new(l_shape.clone()).answer::<Q>().is_ok());
    let e = Distance { a: Posed::new("a", l_shape, PoseSpec::identity()), b: Posed::new("b", cube(), moved(5)) }
        .answer::<Q>()
        .unwrap_err();
    assert_eq!((e.kind, e.at.as_str()), (ErrorKind::Invalid, "/a"));
    let bent = ShapeSpec::Polyhedron {
        vertices: vec![point::<Q>(0, 0, 0), point(1, 0, 0), point(1, 1, 0), point(0, 1, 1), point(0, 0, 1)],
        faces: vec![vec![0, 3, 2, 1], vec![0, 1, 4], vec![1, 2, 4], vec![2, 3, 4], vec![3, 0, 4]],
    };
    let e = Validate::new(bent).answer::<Q>().unwrap_err();
    assert_eq!((e.kind, e.at.as_str()), (ErrorKind::Invalid, "/solid/polyhedron/faces/0"));
    // limit: coefficients beyond the exact root finder's 16384 bits. The huge number is the
    // falling vertex's height, so it is in the coplanarity cubic itself (a huge coordinate
    // along the triangle's plane only enters the inequalities, which are signed at the
    // cubic's rational root without the root finder: that query is answered, a hit at 1/4).
    let huge = Q::new(1.into(), num_bigint::BigInt::from(3).pow(12000));
    let p = |x: Q, y: i64, z: Q| Point3::new(x, int(y), z);
    let tri = [p(int(-1), -1, int(0)), p(int(3), -1, int(0)), p(int(-1), 3, int(0))];
    let ccd = |v0: Point3<Q>, v1: Point3<Q>| Ccd {
        kind: CcdKind::VertexFace,
        t0: [v0, tri[0].clone(), tri[1].clone(), tri[2].clone()],
        t1: [v1, tri[0].clone(), tri[1].clone(), tri[2].clone()],
    };
    let high = ccd(p(int(0), 0, int(1) + huge.clone()), p(int(0), 0, int(-3)));
    assert_eq!(high.answer::<Q>().unwrap_err().kind, ErrorKind::Limit);
    let aside = ccd(p(huge.clone(), 0, int(1)), p(huge, 0, int(-3))).answer::<Q>().unwrap();
    assert_eq!(aside.output.toi.and_then(|t| t.to_rational()), Some(Q::new(1.into(), 4.into())));
    // overflow: binary64 cannot hold the determinant 1e900.
    let big = Q::from_f64(1e300).unwrap();
    let z = || int(0);
    let o = Orient3d {
        points: [
            point(0, 0, 0),
            Point3::new(big.clone(), z(), z()),
            Point3::new(z(), big.clone(), z()),
            Point3::new(z(), z(), big),
        ],
    };
    assert_eq!(o.answer::<Q>().unwrap().output.orientation, Orientation::Positive);
    let e = o.answer::<f64>().unwrap_err();
    assert_eq!((e.kind, e.at.as_str()), (ErrorKind::Overflow, "/backend"));
    // uncertain: exactly coplanar, but 1/3 is no double.
    let third = |k: i64| Q::new(k.into(), 3.into());
    let u = Orient3d {
        points: [point(0, 0, 0), point(1, 0, 1), point(0, 1, 1), Point3::new(third(1), third(1), third(2))],
    };
    assert_eq!(u.answer::<Interval>().unwrap_err().kind, ErrorKind::Uncertain);
    assert_eq!(u.answer::<MidRad>().unwrap_err().kind, ErrorKind::Uncertain);
    // unknown: a claimed parameter of a distance to a point.
    let d = SquaredDistance { point: point::<Q>(0, 0, 0), target: Target::Point(point(3, 4, 0)) };
    let exact = d.answer::<Q>().unwrap();
    let claim = SquaredDistanceClaim { parameter: Some(int(0)), ..Default::default() };
    let e = d.judge(&exact, &claim, &Tolerance::default(), 20).unwrap_err();
    assert_eq!((e.kind, e.at.as_str()), (ErrorKind::Unknown, "/claim/parameter"));
}
