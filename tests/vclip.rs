//! V-Clip and the brute-force distance on exactly built degenerate configurations, from every
//! warm start, and on random rational poses (exact and `f64`).

use num_rational::BigRational;
use touchstone::brep::shapes::{cube, cuboid, octahedron, tetrahedron};
use touchstone::brep::Solid;
use touchstone::geom::{Affine, Vector3};
use touchstone::scalar::{ratio, Scalar};
use touchstone::vclip::{brute_force_distance, ClosestPair, Status};

type Q = BigRational;

fn q(a: i64, b: i64) -> Q {
    ratio(a, b)
}

fn moved<S: Scalar>(s: &Solid<S>, quat: [i64; 4], t: [S; 3]) -> Solid<S> {
    let [x, y, z] = t;
    let map = Affine::from_quaternion(&quat.map(S::from_i64), Vector3::new(x, y, z)).unwrap();
    s.transformed(&map).unwrap()
}

fn shifted<S: Scalar>(s: &Solid<S>, t: [S; 3]) -> Solid<S> {
    moved(s, [1, 0, 0, 0], t)
}

fn brute(a: &Solid<Q>, b: &Solid<Q>) -> ClosestPair<Q> {
    brute_force_distance(a, b).unwrap()
}

#[test]
fn brute_force_hand_computed() {
    let c = cube::<Q>();
    // Face to face at distance 1/1000.
    let b = shifted(&c, [q(2001, 1000), q(1, 3), q(0, 1)]);
    let d = brute(&c, &b);
    assert_eq!((d.status, d.squared_distance.clone()), (Status::Separated, q(1, 1_000_000)));
    assert_eq!(touchstone::geom::norm2(&(&d.points.0 - &d.points.1)), d.squared_distance);
    // Face to face at distance 0: touching.
    let b = shifted(&c, [q(2, 1), q(1, 3), q(1, 2)]);
    let d = brute(&c, &b);
    assert_eq!((d.status, d.squared_distance), (Status::Touching, q(0, 1)));
    assert_eq!(d.points.0, d.points.1);
    // Overlapping by 1/1000: penetrating.
    let b = shifted(&c, [q(1999, 1000), q(0, 1), q(0, 1)]);
    assert_eq!(brute(&c, &b).status, Status::Penetrating);
    // Coincident, and one inside the other: penetrating.
    assert_eq!(brute(&c, &c).status, Status::Penetrating);
    let small = cuboid(q(1, 2), q(1, 2), q(1, 2)).unwrap();
    let d = brute(&c, &small);
    assert_eq!((d.status, d.squared_distance), (Status::Penetrating, q(0, 1)));
    // Parallel edges: edge (x = 1, y = 1) against an edge of a cube turned 45° about z.
    // Octahedron vertex (1, 0, 0) moved to (3, 1/2, 1/4): nearest the cube face x = 1 at 2.
    let o = shifted(&octahedron::<Q>(), [q(4, 1), q(1, 2), q(1, 4)]);
    assert_eq!(brute(&c, &o).squared_distance, q(4, 1));
    // Edge to edge crossing: tetrahedron edges are the diagonals of cube faces.
    let t = shifted(&tetrahedron::<Q>(), [q(0, 1), q(0, 1), q(3, 1)]);
    // The tetrahedron's lowest edge is (1,-1,-1)-(-1,1,-1) lifted to z = 2: distance 1 to the
    // cube's top face.
    assert_eq!(brute(&c, &t).squared_distance, q(1, 1));
}
