//! The two exact backends agree exactly: `rug::Rational` (GMP) and `BigRational` (pure Rust).
#![cfg(feature = "rug")]

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::geom::Point3;
use touchstone::predicates::{orient3d, orient3d_scaled};
use touchstone::scalar::{convert, BigFloat, RugRational, Scalar};

fn rational() -> impl Strategy<Value = BigRational> {
    prop_oneof![
        (-1000i64..=1000, 1i64..=1000).prop_map(|(p, q)| BigRational::new(p.into(), q.into())),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| BigRational::from_float(x).unwrap()),
        (any::<i64>(), 1i64..=i64::MAX).prop_map(|(p, q)| BigRational::new(p.into(), q.into())),
    ]
}

fn point() -> impl Strategy<Value = Point3<BigRational>> {
    [rational(), rational(), rational()].prop_map(Point3::from)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn arithmetic_agrees(a in rational(), b in rational(), c in rational()) {
        let r = |x: &BigRational| RugRational::from_rational(x);
        let exact = (a.clone() * b.clone() - c.clone()) * (a.clone() + c.clone());
        let gmp = (r(&a) * r(&b) - r(&c)) * (r(&a) + r(&c));
        prop_assert_eq!(gmp.to_rational().unwrap(), exact.clone());
        if c != BigRational::from_integer(0.into()) {
            prop_assert_eq!((r(&a) / r(&c)).to_rational().unwrap(), a.clone() / c.clone());
        }
        prop_assert_eq!(r(&exact).sign(), exact.sign());
    }

    #[test]
    fn orient3d_agrees(p in [point(), point(), point(), point()]) {
        let g: Vec<Point3<RugRational>> = p.iter().map(|q| q.map(|c| convert(&c).unwrap())).collect();
        prop_assert_eq!(orient3d(&g[0], &g[1], &g[2], &g[3]), orient3d(&p[0], &p[1], &p[2], &p[3]));
        let det = orient3d_scaled(&g[0], &g[1], &g[2], &g[3]).value.to_rational().unwrap();
        prop_assert_eq!(det, orient3d_scaled(&p[0], &p[1], &p[2], &p[3]).value);
    }

    #[test]
    fn big_float_rounds_to_nearest(a in rational()) {
        // 53-bit big floats and f64 round rationals identically (both to nearest, ties even).
        prop_assert_eq!(BigFloat::<53>::from_rational(&a).to_f64(), f64::from_rational(&a));
    }
}
