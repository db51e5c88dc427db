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

/// A box of half extents `half` whose centre moves as start + velocity·t + accel·t².
pub fn translating(half: [&str; 3], start: [&str; 3], velocity: [&str; 3], accel: [&str; 3]) -> BoxMotion {
    let m0 = m([["1", "0", "0", start[0]], ["0", "1", "0", start[1]], ["0", "0", "1", start[2]], ["0", "0", "0", "1"]]);
    let m1 = m([["0", "0", "0", velocity[0]], ["0", "0", "0", velocity[1]], ["0", "0", "0", velocity[2]], ["0"; 4]]);
    let m2 = m([["0", "0", "0", accel[0]], ["0", "0", "0", accel[1]], ["0", "0", "0", accel[2]], ["0"; 4]]);
    BoxMotion { half: half.map(r), motion: [m0, m1, m2] }
}

/// A box at rest at the origin.
pub fn still(half: [&str; 3]) -> BoxMotion {
    translating(half, ["0"; 3], ["0"; 3], ["0"; 3])
}
