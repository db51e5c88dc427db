//! Box motions for the box-sweep tests (`#[path]`-included by tests/sweep_bms.rs and
//! tests/sweep_sat.rs).
#![allow(dead_code)]

use num_rational::BigRational;
use touchstone::geom::Matrix4;
use touchstone::scalar::parse_rational;
use touchstone::sweep::BoxMotion;

pub type Q = BigRational;

pub fn r(s: &str) -> Q {
    parse_rational(s).unwrap()
}

pub fn qi(n: i64) -> Q {
    Q::from_integer(n.into())
}

pub fn z3() -> [Q; 3] {
    [qi(0), qi(0), qi(0)]
}

pub fn m(rows: [[&str; 4]; 4]) -> Matrix4<Q> {
    Matrix4::from_fn(|i, j| r(rows[i][j]))
}

pub fn zero4() -> Matrix4<Q> {
    Matrix4::from_element(Q::default())
}

/// A box of half extents `half` whose centre moves as start + velocity·t + accel·t²
/// ([`touchstone::strategies::translating_box`], from decimal strings).
pub fn translating(half: [&str; 3], start: [&str; 3], velocity: [&str; 3], accel: [&str; 3]) -> BoxMotion {
    touchstone::strategies::translating_box(half.map(r), start.map(r), velocity.map(r), accel.map(r))
}

/// A box at rest at the origin.
pub fn still(half: [&str; 3]) -> BoxMotion {
    translating(half, ["0"; 3], ["0"; 3], ["0"; 3])
}
