//! f64 against exact `orient3d` and side of plane, under the agreement contract, on inputs
//! biased to degeneracy (grid-snapped, coplanar by construction, exactly rotated, on a plane
//! by construction). A breach panics with the oracle line that reproduces it.
#![no_main]

use libfuzzer_sys::{fuzz_target, Corpus};
use num_rational::BigRational;
use touchstone::arbitrary::PredicateCase as Case;
use touchstone::contract::{budget, check, weakened, Margin};
use touchstone::geom::{Plane, Point3};
use touchstone::predicates::{orient3d, orient3d_scaled, side_of_plane, Orientation, Side};
use touchstone::replay::{orient3d_query, side_of_plane_query};
use touchstone::scalar::Scalar;

fn exact(p: &[f64; 3]) -> Point3<BigRational> {
    Point3::from(p.map(|x| BigRational::from_f64(x).expect("finite by construction")))
}

fuzz_target!(|case: Case| -> Corpus {
    match case {
        Case::Orient(input) => {
            let Some(p) = input.points() else { return Corpus::Reject };
            let e = p.each_ref().map(exact);
            let (Ok(want), scaled) = (orient3d(&e[0], &e[1], &e[2], &e[3]), orient3d_scaled(&e[0], &e[1], &e[2], &e[3])) else {
                unreachable!("exact backends always decide")
            };
            let f = p.map(Point3::from);
            let Ok(got) = orient3d(&f[0], &f[1], &f[2], &f[3]) else {
                // NaN from overflow: the f64 path declines, as it may.
                return Corpus::Keep;
            };
            if let Err(d) = check(&want, &got, &Margin::of(&scaled), budget::<f64>(), |e, f| weakened(e, f, &Orientation::Coplanar), &[]) {
                panic!("MISMATCH {d}\nreplay: {}", orient3d_query(&p));
            }
        }
        Case::Side(input) => {
            let Some((c, q)) = input.plane_and_point() else { return Corpus::Reject };
            let ce = c.map(|x| BigRational::from_f64(x).expect("finite by construction"));
            let Ok(plane) = Plane::from_coefficients(ce[0].clone(), ce[1].clone(), ce[2].clone(), ce[3].clone()) else {
                return Corpus::Reject;
            };
            let eq = exact(&q);
            let want = side_of_plane(&plane, &eq).expect("exact backends always decide");
            let Ok(fast_plane) = Plane::from_coefficients(c[0], c[1], c[2], c[3]) else { return Corpus::Reject };
            let Ok(got) = side_of_plane(&fast_plane, &Point3::from(q)) else { return Corpus::Keep };
            let margin = Margin::of(&plane.eval_scaled(&eq));
            if let Err(d) = check(&want, &got, &margin, budget::<f64>(), |e, f| weakened(e, f, &Side::On), &[]) {
                panic!("MISMATCH {d}\nreplay: {}", side_of_plane_query(&c, &q));
            }
        }
    }
    Corpus::Keep
});
