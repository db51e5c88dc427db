//! Generic test bodies for the scalar backends and the geometry kernel, run for every backend:
//! exact ones must give exact results, inexact ones must give them within their tolerance
//! (decided through the same `sign_scaled` the algorithms use).
#[macro_use]
mod common;

use nalgebra::Vector3;
use num_rational::BigRational;
use touchstone::constructions::{
    plane_through, project_onto_plane, segment_plane, squared_distance_point_plane, squared_distance_point_segment,
    SegmentPlane,
};
use touchstone::geom::{adjugate4, det4, point, Affine, Homogeneous, Matrix4, Plane, Point2, Point3};
use touchstone::predicates::{orient2d, orient3d, side_of_plane, Orientation, Side};
use touchstone::scalar::{ratio, Scalar, Sign};
use touchstone::GeomError;

/// `x == y`, exactly for exact backends, within tolerance of `magnitude` for tolerant ones;
/// for intervals, `x − y` must not be decided nonzero (the two enclosures overlap).
fn assert_same<S: Scalar>(x: &S, y: &S, magnitude: &S) {
    let d = x.clone() - y.clone();
    let sign = d.sign_scaled(|| magnitude.clone());
    assert!(common::decided::<S, _>(&sign, &Sign::Zero), "{} {x} != {y}: {sign:?}", S::NAME);
}

/// `assert_eq!(got, Ok(expected))`, but an interval backend may be undecided.
fn assert_decided<S: Scalar, T: PartialEq + std::fmt::Debug>(
    got: Result<T, touchstone::scalar::Uncertain>,
    expected: T,
) {
    assert!(common::decided::<S, _>(&got, &expected), "{}: {got:?}, expected {expected:?}", S::NAME);
}

fn assert_same_point<S: Scalar>(p: &Point3<S>, q: &Point3<S>, magnitude: &S) {
    for i in 0..3 {
        assert_same(&p[i], &q[i], magnitude);
    }
}

fn int<S: Scalar>(i: i64) -> S {
    S::from_i64(i)
}

fn q<S: Scalar>(w: i64, x: i64, y: i64, z: i64) -> [S; 4] {
    [int(w), int(x), int(y), int(z)]
}

fn field_identities<S: Scalar>() {
    let vals: Vec<S> = vec![ratio(1, 3), ratio(-7, 5), S::from_f64(0.1).unwrap(), S::parse("1e-3").unwrap(), int(12)];
    let one = S::one();
    for a in &vals {
        for b in &vals {
            for c in &vals {
                let lhs = (a.clone() + b.clone()) * c.clone();
                let rhs = a.clone() * c.clone() + b.clone() * c.clone();
                assert_same(&lhs, &rhs, &(a.abs() * c.abs() + b.abs() * c.abs()));
            }
            if !b.is_zero() {
                assert_same(&(a.clone() / b.clone() * b.clone()), a, &a.abs());
            }
        }
        assert_same(&(a.clone() - a.clone()), &S::zero(), &a.abs());
        assert_same(&(a.clone() * one.clone()), a, &a.abs());
    }
    assert_eq!(int::<S>(-3).sign(), Ok(Sign::Negative));
    assert_eq!(S::zero().sign(), Ok(Sign::Zero));
    assert_eq!(ratio::<S>(1, 3).compare(&ratio(1, 2)), Ok(std::cmp::Ordering::Less));
}

fn exact_construction<S: Scalar>() {
    // Every finite binary64 number is an exact rational; backends of at least 53 bits keep it.
    for x in [0.1, -1e-300, 1e300, 5e-324, 123456.789, -0.0] {
        assert_eq!(S::from_f64(x).unwrap().to_rational(), BigRational::from_float(x), "{} {x}", S::NAME);
    }
    assert!(S::from_f64(f64::NAN).is_err());
    assert!(S::from_f64(f64::INFINITY).is_err());
    let third = S::parse("1/3").unwrap();
    let exact_third = BigRational::new(1.into(), 3.into());
    if S::EXACT_VALUES {
        assert_eq!(third.to_rational().unwrap(), exact_third);
    } else {
        assert_same(&third, &ratio(1, 3), &S::one());
    }
    assert_eq!(S::parse("0.1").unwrap().to_f64(), 0.1);
}

fn orient3d_signs<S: Scalar>() {
    let p = |x, y, z| point::<S>(x, y, z);
    let (a, b, c, d) = (p(0, 0, 0), p(1, 0, 0), p(0, 1, 0), p(0, 0, 1));
    assert_eq!(orient3d(&a, &b, &c, &d), Ok(Orientation::Positive));
    assert_eq!(orient3d(&b, &a, &c, &d), Ok(Orientation::Negative));
    assert_eq!(orient3d(&b, &c, &a, &d), Ok(Orientation::Positive));
    assert_eq!(orient3d(&a, &b, &c, &p(7, -3, 0)), Ok(Orientation::Coplanar));
    assert_eq!(orient3d(&a, &b, &c, &p(7, -3, -1)), Ok(Orientation::Negative));
    // Degenerate: repeated and collinear points.
    assert_eq!(orient3d(&a, &a, &c, &d), Ok(Orientation::Coplanar));
    assert_eq!(orient3d(&a, &b, &p(2, 0, 0), &d), Ok(Orientation::Coplanar));
    let p2 = |x, y| Point2::new(int::<S>(x), int::<S>(y));
    assert_eq!(orient2d(&p2(0, 0), &p2(1, 0), &p2(0, 1)), Ok(Orientation::Positive));
    assert_eq!(orient2d(&p2(0, 0), &p2(1, 1), &p2(3, 3)), Ok(Orientation::Coplanar));
    assert_eq!(orient2d(&p2(0, 0), &p2(0, 1), &p2(1, 0)), Ok(Orientation::Negative));
}

fn rotated_coplanar_points_stay_coplanar<S: Scalar>() {
    // Points of the plane z = 5 rotated by rational quaternions: exactly coplanar for exact
    // backends; within tolerance for inexact ones. A point off the plane stays off it.
    for quat in [q::<S>(1, 2, 3, 4), q(3, -1, 4, 1), q(7, 0, 0, 1), q(1, 1, 1, 1)] {
        let r = Affine::from_quaternion(&quat, Vector3::new(ratio(1, 3), int(-2), ratio(5, 7))).unwrap();
        let pts =
            [point(0, 0, 5), point(3, 0, 5), point(0, 5, 5), point(-7, 11, 5), point(-7, 11, 6), point(-7, 11, 4)];
        let p: Vec<Point3<S>> = pts.iter().map(|p| r.apply_point(p)).collect();
        assert_decided::<S, _>(orient3d(&p[0], &p[1], &p[2], &p[3]), Orientation::Coplanar);
        // Off the plane by a unit: every backend decides.
        assert_eq!(orient3d(&p[0], &p[1], &p[2], &p[4]), Ok(Orientation::Positive), "{}", S::NAME);
        assert_eq!(orient3d(&p[0], &p[1], &p[2], &p[5]), Ok(Orientation::Negative), "{}", S::NAME);
        let plane = plane_through(&p[0], &p[1], &p[2]).unwrap();
        assert_decided::<S, _>(side_of_plane(&plane, &p[3]), Side::On);
        assert_eq!(side_of_plane(&plane, &p[4]), Ok(Side::Above));
        // Rotations preserve squared distances exactly.
        let d2 = |a: &Point3<S>, b: &Point3<S>| (a - b).dot(&(a - b));
        assert_same(&d2(&p[0], &p[3]), &int(170), &int(170));
    }
}

fn quaternion_rotations<S: Scalar>() {
    // (1, 0, 0, 1) is a quarter turn about z; scaling q does not change the rotation.
    for k in [1, 2, -3] {
        let r = Affine::from_quaternion(&q::<S>(k, 0, 0, k), Vector3::zeros()).unwrap();
        assert_same_point(&r.apply_point(&point(1, 0, 0)), &point(0, 1, 0), &S::one());
        assert_same_point(&r.apply_point(&point(0, 0, 1)), &point(0, 0, 1), &S::one());
    }
    // R(q1 q2) = R(q1) R(q2): (1,1,0,0)·(1,0,1,0) = (1,1,1,1).
    let r1 = Affine::from_quaternion(&q::<S>(1, 1, 0, 0), Vector3::zeros()).unwrap();
    let r2 = Affine::from_quaternion(&q::<S>(1, 0, 1, 0), Vector3::zeros()).unwrap();
    let r12 = Affine::from_quaternion(&q::<S>(1, 1, 1, 1), Vector3::zeros()).unwrap();
    let composed = r1.compose(&r2);
    for i in 0..3 {
        for j in 0..3 {
            assert_same(&composed.linear[(i, j)], &r12.linear[(i, j)], &int(3));
        }
    }
    assert_eq!(r12.determinant().sign(), Ok(Sign::Positive));
    assert_eq!(Affine::from_quaternion(&q::<S>(0, 0, 0, 0), Vector3::zeros()), Err(GeomError::ZeroQuaternion));
}

fn inverses_round_trip<S: Scalar>() {
    let pts = [point::<S>(1, 2, 3), point(-5, 0, 7), Point3::new(ratio(1, 3), ratio(-2, 7), S::from_f64(0.1).unwrap())];
    let maps = [
        Affine::from_quaternion(&q::<S>(1, 2, 3, 4), Vector3::new(int(1), ratio(1, 2), int(-3))).unwrap(),
        Affine::from_rows(&[
            [int(2), int(1), int(0), int(5)],
            [ratio(1, 3), int(-1), int(4), int(0)],
            [int(0), ratio(5, 2), int(1), ratio(-1, 7)],
        ]),
    ];
    for m in &maps {
        let inv = m.inverse().unwrap();
        for p in &pts {
            assert_same_point(&inv.apply_point(&m.apply_point(p)), p, &int(100));
            assert_same_point(&m.apply_point(&inv.apply_point(p)), p, &int(100));
        }
        // Planes map with their points and keep their sides.
        let plane = Plane::from_coefficients(int(1), int(-2), ratio(1, 3), int(4)).unwrap();
        let image = m.apply_plane(&plane).unwrap();
        let on = project_onto_plane(&pts[0], &plane).unwrap();
        assert_decided::<S, _>(side_of_plane(&image, &m.apply_point(&on)), Side::On);
        for p in &pts {
            assert_eq!(side_of_plane(&image, &m.apply_point(p)), side_of_plane(&plane, p));
        }
    }
    let singular = Affine::from_rows(&[
        [int::<S>(1), int(2), int(3), int(0)],
        [int(2), int(4), int(6), int(1)],
        [int(0), int(1), int(1), int(0)],
    ]);
    assert_eq!(singular.inverse(), Err(GeomError::Singular));
    assert_eq!(singular.check_invertible(), Err(GeomError::Singular));
}

fn homogeneous_maps<S: Scalar>() {
    let m: Matrix4<S> = Matrix4::from_fn(|i, j| int([[2, 0, 1, 3], [1, 3, 0, -1], [0, 1, 4, 2], [1, 0, 0, 5]][i][j]));
    let h = Homogeneous(m.clone());
    let adj = adjugate4(&m);
    let prod = m.clone() * adj;
    let det = det4(&m);
    for i in 0..4 {
        for j in 0..4 {
            let expected = if i == j { det.clone() } else { S::zero() };
            assert_same(&prod[(i, j)], &expected, &int(1000));
        }
    }
    let inv = h.inverse().unwrap();
    let p = Point3::new(ratio(1, 2), int(-1), ratio(2, 3));
    assert_same_point(&inv.apply_point(&h.apply_point(&p).unwrap()).unwrap(), &p, &int(100));
    // The point (-5, 0, 0) has w = 1·(-5) + 5 = 0: sent to infinity.
    assert_eq!(h.apply_point(&point(-5, 0, 0)), Err(GeomError::PointAtInfinity));
    let flat = Homogeneous(Matrix4::from_fn(|i, j| if i == 3 { S::zero() } else { m[(i, j)].clone() }));
    assert_eq!(flat.inverse(), Err(GeomError::Singular));
}

fn constructions<S: Scalar>() {
    let p = |x, y, z| point::<S>(x, y, z);
    // Segment–plane: z = 0 met by (0,0,-1)→(0,0,3) at t = 1/4; endpoints exactly.
    let plane = plane_through(&p(0, 0, 0), &p(1, 0, 0), &p(0, 1, 0)).unwrap();
    assert_eq!(plane.coefficients(), [int(0), int(0), int(1), int(0)]);
    match segment_plane(&p(0, 0, -1), &p(0, 0, 3), &plane).unwrap() {
        SegmentPlane::Crosses(t) => assert_same(&t, &ratio(1, 4), &S::one()),
        other => panic!("{other:?}"),
    }
    assert_eq!(segment_plane(&p(0, 0, 0), &p(0, 0, 3), &plane), Ok(SegmentPlane::Crosses(S::zero())));
    assert_eq!(segment_plane(&p(1, 1, 0), &p(2, 5, 0), &plane), Ok(SegmentPlane::Contained));
    assert_eq!(segment_plane(&p(1, 1, 1), &p(2, 5, 2), &plane), Ok(SegmentPlane::Disjoint));
    assert_eq!(plane_through(&p(0, 0, 0), &p(1, 1, 1), &p(2, 2, 2)), Err(GeomError::Collinear));
    // Squared distances, by hand.
    let seg = |x: Point3<S>, a, b| squared_distance_point_segment(&x, &a, &b).unwrap();
    let (d2, t) = seg(p(0, 0, 2), p(-1, -1, 0), p(1, 1, 0));
    assert_same(&d2, &int(4), &int(4));
    assert_same(&t, &ratio(1, 2), &S::one());
    let (d2, t) = seg(p(3, 0, 0), p(0, 0, 0), p(1, 0, 0));
    assert_eq!((d2, t), (int(4), S::one()));
    let (d2, t) = seg(p(-2, 1, 0), p(0, 0, 0), p(1, 0, 0));
    assert_eq!((d2, t), (int(5), S::zero()));
    let (d2, _) = seg(p(1, 1, 0), p(0, 0, 0), p(2, 0, 0));
    assert_same(&d2, &int(1), &int(4));
    // A degenerate segment is its point.
    assert_eq!(seg(p(1, 2, 2), p(0, 0, 0), p(0, 0, 0)), (int(9), S::zero()));
    // Points on a segment: distance 0 exactly on exact backends, and never negative on any
    // (|w|² − (w·u)²/|u|² in binary64 came out negative for 122 of these 999 points).
    let (a, b) = (
        Point3::new(ratio::<S>(1, 10), ratio(2, 10), ratio(3, 10)),
        Point3::new(ratio::<S>(17, 10), ratio(-29, 10), ratio(55, 100)),
    );
    for k in 1..1000 {
        let t = ratio::<S>(k, 1000);
        let x = Point3::from(&a.coords + (&b.coords - &a.coords) * t);
        let (d2, _) = seg(x, a.clone(), b.clone());
        // Never decided negative (an interval may straddle zero).
        assert!(d2.sign() != Ok(Sign::Negative), "k = {k}: {d2:?}");
        if S::EXACT_VALUES {
            assert!(d2.is_zero(), "k = {k}: {d2:?}");
        }
    }
    let plane = Plane::from_coefficients(int(1), int(1), int(1), int(-1)).unwrap();
    assert_same(&squared_distance_point_plane(&p(1, 2, 3), &plane).unwrap(), &ratio(25, 3), &int(25));
    assert_eq!(Plane::from_coefficients(int::<S>(0), int(0), int(0), int(1)), Err(GeomError::DegeneratePlane));
}

for_each_backend!(
    field_identities,
    exact_construction,
    orient3d_signs,
    rotated_coplanar_points_stay_coplanar,
    quaternion_rotations,
    inverses_round_trip,
    homogeneous_maps,
    constructions,
);
