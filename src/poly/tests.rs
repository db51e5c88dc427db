//! Unit tests of the inner helpers; the public behaviour is tested in `tests/poly.rs`.

use num_bigint::BigInt;
use num_rational::BigRational;

use super::intpoly::{
    compose_affine, descartes_unit, div_x_minus_1, left_half, may_have_rational_root, primitive, sign_at,
    taylor_shift_1,
};
use super::isolate::{bisect, isolate, midpoint, wider_than};
use super::*;
use crate::scalar::{ratio, Sign};

/// The poly tests' xorshift source: `next(m)` draws from 0..m (m > 0); one seed, one sequence.
pub(super) fn draws(seed: u64) -> impl FnMut(u64) -> i64 {
    let mut x = seed;
    move |m| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m) as i64
    }
}

fn ints(v: &[i64]) -> Vec<BigInt> {
    v.iter().map(|&c| BigInt::from(c)).collect()
}

fn r(n: i64, d: i64) -> BigRational {
    ratio(n, d)
}

#[test]
fn integer_helpers_by_hand() {
    // (x + 1)³ = x³ + 3x² + 3x + 1: the Taylor shift of x³.
    let mut a = ints(&[0, 0, 0, 1]);
    taylor_shift_1(&mut a);
    assert_eq!(a, ints(&[1, 3, 3, 1]));
    // x² + x - 2 = (x - 1)(x + 2).
    assert_eq!(div_x_minus_1(&ints(&[-2, 1, 1])), ints(&[2, 1]));
    // 2²·(x/2)² - 2·2·(x/2)... : 4x² - 4x + 1 -> x² - 2x + 1 (content removed).
    assert_eq!(left_half(&ints(&[1, -4, 4])), ints(&[1, -2, 1]));
    // (t/2 - 1/3) -> 3t - 2, leading coefficient made positive.
    assert_eq!(primitive(&Poly::from_coeffs(vec![r(1, 3), r(-1, 2)])), ints(&[-2, 3]));
    // Sign of 3t - 2 at 2/3, 1/2, 1.
    let p = ints(&[-2, 3]);
    assert_eq!([r(2, 3), r(1, 2), r(1, 1)].map(|x| sign_at(&p, &x)), [Sign::Zero, Sign::Negative, Sign::Positive]);
}

#[test]
fn descartes_counts_on_the_unit_interval() {
    // (x - 1/3)(x - 2/3) -> 9x² - 9x + 2: two roots in (0, 1), count capped at 2.
    assert_eq!(descartes_unit(&ints(&[2, -9, 9])), 2);
    // 3x - 1: one root; x + 1: none; (x - 2)(x - 3): none; constant: none.
    assert_eq!(descartes_unit(&ints(&[-1, 3])), 1);
    assert_eq!(descartes_unit(&ints(&[1, 1])), 0);
    assert_eq!(descartes_unit(&ints(&[6, -5, 1])), 0);
    assert_eq!(descartes_unit(&ints(&[4])), 0);
}

#[test]
fn rational_root_filter_is_sound() {
    // t² - 2 has no root modulo 3: no rational root. (2t - 1)(t² - 2) has 1/2.
    assert!(!may_have_rational_root(&ints(&[-2, 0, 1])));
    assert!(may_have_rational_root(&ints(&[2, -1, -4, 2])));
    // t² - 1/4... as 4t² - 1: roots ±1/2, with 2 dividing the leading coefficient.
    assert!(may_have_rational_root(&ints(&[-1, 0, 4])));
}

#[test]
fn quadratic_roots_are_points_exactly_when_rational() {
    // (p₁t - q₁)(p₂t - q₂) with 100-bit denominators: both roots come out as the rationals,
    // found by the discriminant's square root (the bisection would take ~200 steps each).
    let big = BigInt::from(3).pow(63u32) + BigInt::from(1);
    let r1 = BigRational::new(BigInt::from(7), big.clone());
    let r2 = BigRational::new(&big + BigInt::from(2), big.clone() * BigInt::from(5));
    let p = Poly::from_roots(&[r1.clone(), r2.clone()]);
    let iso = isolate(&p, &r(-1, 1), &r(1, 1)).unwrap();
    assert_eq!(iso.roots, vec![RootInterval::Point(r1.clone()), RootInterval::Point(r2.clone())]);
    // The same roots scaled by a square: still rational. One root outside the range: the
    // other alone.
    let iso = isolate(&p.scale(&r(9, 4)), &r(0, 1), &r(1, 100)).unwrap();
    assert_eq!(iso.roots, vec![RootInterval::Point(r1.clone())]);
    // A discriminant one off a square: both roots irrational, open intervals that straddle
    // them (signs differ at the ends, neither end a root).
    let q = ints(&[-(1i64 << 40) - 1, 0, 1]);
    let p = Poly::from_coeffs(q.iter().map(|c| BigRational::from_integer(c.clone())).collect());
    let iso = isolate(&p, &r(-(1 << 21), 1), &r(1 << 21, 1)).unwrap();
    assert_eq!(iso.roots.len(), 2);
    for iv in &iso.roots {
        let RootInterval::Open { lo, hi } = iv else { panic!("±√(2⁴⁰ + 1) is irrational") };
        assert!(!sign_at(&q, lo).is_zero() && !sign_at(&q, hi).is_zero());
        assert_ne!(sign_at(&q, lo), sign_at(&q, hi));
    }
    // A double root (x - 1/3)²: the square-free part is linear, a point.
    let p = Poly::from_roots(&[r(1, 3), r(1, 3)]);
    assert_eq!(isolate(&p, &r(0, 1), &r(1, 1)).unwrap().roots, vec![RootInterval::Point(r(1, 3))]);
}

#[test]
fn rational_roots_of_higher_degree_by_integer_bisection() {
    // (d·t - n)(t² - 2)(t - 1/3) with a 100-bit d: the rational roots are points, ±√2 open.
    let d = BigInt::from(3).pow(63u32) + BigInt::from(1);
    let root = BigRational::new(BigInt::from(5) * &d - BigInt::from(11), d.clone());
    let p = &Poly::from_roots(&[root.clone(), r(1, 3)]) * &Poly::from_coeffs(vec![r(-2, 1), r(0, 1), r(1, 1)]);
    let iso = isolate(&p, &r(-8, 1), &r(8, 1)).unwrap();
    assert_eq!(iso.roots.len(), 4);
    assert_eq!(iso.roots[1], RootInterval::Point(r(1, 3)));
    assert_eq!(iso.roots[3], RootInterval::Point(root));
    for iv in [&iso.roots[0], &iso.roots[2]] {
        let RootInterval::Open { lo, hi } = iv else { panic!("±√2 is irrational") };
        // t² - 2 changes sign across it.
        assert!((lo * lo - r(2, 1)) * (hi * hi - r(2, 1)) < r(0, 1), "{lo} {hi}");
    }
}

/// Rational roots found from a binary64 guess's convergents (short denominators), by the
/// bisection (long ones, and those the guess misses), or by a linear or quadratic quotient
/// after the others are divided out: every rational root of products of linear factors and
/// irrational quadratics is a `Point` at exactly its value, every irrational one `Open`.
#[test]
fn rational_roots_by_guess_by_quotient_and_by_bisection() {
    let mut next = draws(0x0123_4567_89ab_cdef);
    let (mut points, mut open) = (0, 0);
    for case in 0..120 {
        let mut rational: Vec<BigRational> = Vec::new();
        for _ in 0..1 + next(3) {
            let den = if case % 5 == 0 {
                (BigInt::from(1) << 70u32) + BigInt::from(next(1000))
            } else {
                BigInt::from(1 + next(40))
            };
            let num = BigInt::from(next(2000) - 1000) * &den / BigInt::from(97) + BigInt::from(next(7) - 3);
            let q = BigRational::new(num, den);
            if !rational.contains(&q) {
                rational.push(q);
            }
        }
        // t² − m with m not a square: two irrational roots; sometimes none.
        let m = [2i64, 3, 5, 7, 11][next(5) as usize];
        let mut p = Poly::from_roots(&rational);
        if next(3) > 0 {
            p = &p * &Poly::from_coeffs(vec![r(-m, 1), r(0, 1), r(1, 1)]);
        }
        let iso = isolate(&p, &r(-40, 1), &r(40, 1)).unwrap();
        let mut found: Vec<BigRational> = Vec::new();
        for iv in &iso.roots {
            match iv {
                RootInterval::Point(q) => {
                    points += 1;
                    found.push(q.clone());
                }
                RootInterval::Open { lo, hi } => {
                    open += 1;
                    // An irrational root of t² − m: that polynomial changes sign across it.
                    let f = |t: &BigRational| t * t - r(m, 1);
                    assert!(f(lo) * f(hi) < r(0, 1), "{p}: ({lo}, {hi}) holds no root of t² − {m}");
                }
            }
        }
        let mut want = rational.clone();
        want.sort();
        found.sort();
        assert_eq!(found, want, "{p}");
    }
    assert!(points > 150 && open > 100, "{points} points, {open} open");
    // The guess itself: 7/3 from (3t − 7)(t² − 2) on (2, 3); nothing for a 70-bit denominator
    // (the bisection's), nor on an interval with no rational root.
    let q = ints(&[14, -6, -7, 3]);
    assert_eq!(super::isolate::guessed_rational_root(&q, &r(2, 1), &r(3, 1)).unwrap(), Some(r(7, 3)));
    assert_eq!(super::isolate::guessed_rational_root(&q, &r(1, 1), &r(2, 1)).unwrap(), None);
    let d = (BigInt::from(1) << 70u32) + BigInt::from(1);
    let long =
        primitive(&Poly::from_roots(&[BigRational::new(BigInt::from(5) * &d + BigInt::from(1), d), r(1, 2), r(-2, 1)]));
    assert_eq!(super::isolate::guessed_rational_root(&long, &r(4, 1), &r(6, 1)).unwrap(), None);
}

/// Newton's iteration on the integers: an integer root 3⁸⁰ found from a start off by 12,345 or
/// from the middle of a 2·10²⁰-wide bracket; an irrational root (√2·10²⁰) settled between two
/// neighbours that bracket it, each step's bracket keeping the signs.
#[test]
fn newton_on_integers_finds_the_root_or_two_neighbours() {
    use super::isolate::newton_on_integers;
    let big = BigInt::from(3).pow(80u32);
    let spread = BigInt::from(10).pow(20u32);
    // (y − Y)(y² − 2) = y³ − Y·y² − 2y + 2Y.
    let m = vec![&big * 2, BigInt::from(-2), -big.clone(), BigInt::from(1)];
    for start in [Some(&big + 12345), None] {
        let (mut a, mut b) = (&big - &spread, &big + &spread);
        assert_eq!(newton_on_integers(&m, &mut a, &mut b, Sign::Negative, start).unwrap(), Some(big.clone()));
    }
    // Two rational roots 2⁻⁵⁰ apart (a contact nudged off touching, 49/6 ± 1/(3·2⁵¹)) and ±√2:
    // each close root a Point, through the chord where Newton's step leaves the bracket.
    let eps = BigRational::new(1.into(), BigInt::from(3) << 51u32);
    let (r1, r2) = (r(49, 6) - &eps, r(49, 6) + &eps);
    let p = &Poly::from_roots(&[r1.clone(), r2.clone()]) * &Poly::from_coeffs(vec![r(-2, 1), r(0, 1), r(1, 1)]);
    let iso = isolate(&p, &r(0, 1), &r(100, 1)).unwrap();
    assert_eq!(iso.roots.len(), 3);
    assert!(matches!(iso.roots[0], RootInterval::Open { .. }));
    assert_eq!(iso.roots[1..], [RootInterval::Point(r1), RootInterval::Point(r2)]);
    let two_e40 = BigInt::from(2) * BigInt::from(10).pow(40u32);
    let m = vec![-two_e40.clone(), BigInt::from(0), BigInt::from(1)];
    for start in [Some(BigInt::from(141_421_356_237_309_504_880u128)), None] {
        let (mut a, mut b) = (spread.clone(), &spread * 2);
        assert_eq!(newton_on_integers(&m, &mut a, &mut b, Sign::Negative, start).unwrap(), None);
        assert_eq!(&b - &a, BigInt::from(1));
        assert!(&a * &a < two_e40 && &b * &b > two_e40);
    }
}

#[test]
fn bisection_keeps_the_root_inside() {
    let q = ints(&[-2, 0, 1]);
    let (mut lo, mut hi) = (r(1, 1), r(2, 1));
    for _ in 0..20 {
        assert_eq!(bisect(&q, &mut lo, &mut hi, Sign::Negative), None);
    }
    assert!(&lo * &lo < r(2, 1) && &hi * &hi > r(2, 1) && &hi - &lo == r(1, 1 << 20));
    // A midpoint that is the root is returned.
    let (mut lo, mut hi) = (r(0, 1), r(1, 1));
    assert_eq!(bisect(&ints(&[-1, 2]), &mut lo, &mut hi, Sign::Negative), Some(r(1, 2)));
}

#[test]
fn open_intervals_next_to_midpoint_roots_exclude_them() {
    // Regression: 3/2 is a bisection midpoint of [-6, 2] and a root; √3 is just right of it.
    // The interval of √3 must not have 3/2 as an end.
    let p = &Poly::from_roots(&[r(-1, 2), r(3, 2)]) * &Poly::from_coeffs(vec![r(-3, 1), r(0, 1), r(1, 1)]);
    let iso = isolate(&p, &r(-6, 1), &r(2, 1)).unwrap();
    assert_eq!(iso.roots.len(), 4);
    assert_eq!(iso.roots[1], RootInterval::Point(r(-1, 2)));
    assert_eq!(iso.roots[2], RootInterval::Point(r(3, 2)));
    for iv in [&iso.roots[0], &iso.roots[3]] {
        let RootInterval::Open { lo, hi } = iv else { panic!("±√3 is irrational") };
        assert!(!sign_at(&iso.integer, lo).is_zero() && !sign_at(&iso.integer, hi).is_zero());
        assert_ne!(sign_at(&iso.integer, lo), sign_at(&iso.integer, hi));
    }
}

#[test]
fn float_finder_on_steep_and_flat_polynomials() {
    // 10⁻⁸(t - 1)(t - 2): tiny coefficients, scale-free decisions.
    let p = Poly::from_roots(&[1.0, 2.0]).scale(&1e-8);
    // The coefficients are rounded, so the roots are only within a few ulps of 1 and 2.
    let x = float_roots(&p, 0.0, 3.0).unwrap();
    assert_eq!(x.len(), 2);
    assert!((x[0] - 1.0).abs() <= 4.0 * f64::EPSILON && (x[1] - 2.0).abs() <= 8.0 * f64::EPSILON, "{x:?}");
    // t³ - 2 on [0, 2]: a simple irrational root, to about an ulp.
    let p = Poly::from_coeffs(vec![-2.0, 0.0, 0.0, 1.0]);
    let x = float_roots(&p, 0.0, 2.0).unwrap();
    assert_eq!(x.len(), 1);
    assert!((x[0] - 2f64.cbrt()).abs() <= 4.0 * f64::EPSILON);
    // A degenerate interval.
    assert_eq!(float_roots(&p, 1.5, 1.5).unwrap(), Vec::<f64>::new());
    assert_eq!(float_roots(&Poly::from_roots(&[1.5]), 1.5, 1.5).unwrap(), vec![1.5]);
}

#[test]
fn display_of_polynomials_and_algebraic_numbers() {
    let p = Poly::from_coeffs(vec![r(-13, 5), r(0, 1), r(1, 1)]);
    assert_eq!(p.to_string(), "t^2 - 13/5");
    let a = real_roots(&p, &r(0, 1), &r(2, 1)).unwrap().remove(0);
    assert!(a.to_string().starts_with("root of t^2 - 13/5 in ("));
    assert_eq!(Algebraic::from_rational(r(-3, 4)).to_string(), "-3/4");
}

/// The bisection's midpoint and width test give `Ratio`'s own values: every pair of endpoints
/// from a grid of signs, zeros, equal and coprime denominators, powers of two and 200-bit
/// values (the midpoint reduced, so equal as a `Ratio` and in its parts).
#[test]
fn midpoint_and_width_agree_with_ratio_arithmetic() {
    let big = BigInt::from(3).pow(130) + BigInt::from(7);
    let mut values: Vec<BigRational> = Vec::new();
    for (n, d) in
        [(0, 1), (1, 2), (-1, 2), (3, 4), (5, 6), (-7, 12), (1, 3), (2, 3), (9, 8), (-5, 1), (1, 1024), (1023, 1024)]
    {
        values.push(r(n, d));
    }
    values.push(BigRational::new(big.clone(), BigInt::from(1) << 190usize));
    values.push(BigRational::new(-big.clone() + 1, BigInt::from(3).pow(40)));
    values.push(BigRational::new(big.clone() * 2 + 1, BigInt::from(1) << 191usize));
    let widths = [r(1, 3), r(1, 1 << 40), r(5, 2), BigRational::new(BigInt::from(1), big.clone())];
    for lo in &values {
        for hi in &values {
            let m = midpoint(lo, hi);
            let want = (lo + hi) / BigRational::from_integer(BigInt::from(2));
            assert_eq!((m.numer(), m.denom()), (want.numer(), want.denom()), "{lo} {hi}");
            for w in &widths {
                assert_eq!(wider_than(lo, hi, w), &(hi - lo) > w, "{lo} {hi} {w}");
            }
        }
    }
}

/// The integer composition p(lo + w·x) is the rational route's primitive form, vector for
/// vector: polynomials with rational coefficients (repeated roots, zero constant terms,
/// degrees 0 to 7) over intervals with integer, dyadic, coprime and 150-bit ends.
#[test]
fn integer_affine_composition_is_the_rational_one() {
    let mut next = draws(0x9e37_79b9_7f4a_7c15);
    let big = BigInt::from(7).pow(53) + BigInt::from(2);
    let ends = [
        (r(0, 1), r(1, 1)),
        (r(-3, 2), r(5, 4)),
        (r(1, 3), r(2, 7)),
        (r(-7, 1), r(1, 1 << 30)),
        (BigRational::new(big.clone(), BigInt::from(3).pow(40)), BigRational::new(BigInt::from(1), big.clone())),
    ];
    let mut checked = 0;
    for _ in 0..300 {
        let degree = next(8) as usize;
        let mut coeffs: Vec<BigRational> = (0..=degree).map(|_| r(next(21) - 10, 1 + next(12))).collect();
        if next(3) == 0 {
            coeffs[0] = r(0, 1);
        }
        let mut p = Poly::from_coeffs(coeffs);
        if next(2) == 0 {
            p = &p * &p; // repeated roots: the square-free part differs from p
        }
        if p.is_zero() {
            continue;
        }
        let (square_free, integer) = p.square_free_parts().unwrap();
        for (lo, w) in &ends {
            let want = primitive(&square_free.shift(lo).scale_arg(w));
            assert_eq!(compose_affine(&integer, lo, w), want, "{p:?} at {lo} + {w}x");
            checked += 1;
        }
    }
    assert!(checked > 1_000);
}
