//! Exact continuous collision of linearly moving primitives (vertex–face, edge–edge) on the
//! closed interval t ∈ [0, 1], closed primitives: the convention of the public CCD benchmark
//! (Wang et al. 2021).
//!
//! # Method
//! Every coordinate is a polynomial of degree ≤ 1 in t. The contact set {t : primitives meet}
//! is written exactly as a union of *families*, each a conjunction of polynomial equalities
//! Eⱼ(t) = 0 and inequalities Gₖ(t) ≥ 0, valid where a non-degeneracy polynomial N(t) ≠ 0:
//!
//! * vertex–face: the generic family (coplanar, inside the triangle's three edge half-planes,
//!   triangle non-degenerate), the vertex on each edge (segment non-degenerate), the vertex on
//!   each face vertex;
//! * edge–edge: the generic family (coplanar, both line parameters in [0, 1], lines not
//!   parallel), each endpoint on the other segment, each pair of endpoints.
//!
//! Where a family's non-degeneracy fails, the configuration is lower-dimensional (a triangle
//! collapsed to a segment, parallel edges) and the contact, if any, lies in a lower family;
//! by continuity the closure of each family's set adds only such points. So the first time
//! of contact is the least, over families, of the least candidate satisfying that family:
//! the roots in [0, 1] of one equality that is not identically zero, or, when every equality
//! vanishes identically, t = 0 and the roots of the inequalities (a closed semi-algebraic set
//! in one variable starts at 0 or at a root of one of its inequalities). Each candidate is a
//! real algebraic number; every sign at it is decided exactly ([`Algebraic::sign_of`]).

use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::geom::Point3;
use crate::poly::{real_roots, Algebraic, Poly, PolyError};
use crate::scalar::Sign;

type Q = BigRational;
type P = Poly<Q>;
type V = [P; 3];

/// The kind of primitive pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CcdKind {
    /// A vertex against a triangle: points v, f0, f1, f2.
    VertexFace,
    /// Two edges: points a0, a1, b0, b1.
    EdgeEdge,
}

/// The answer: whether the primitives meet for some t ∈ [0, 1], and the first such t.
#[derive(Clone, Debug, PartialEq)]
pub struct CcdResult {
    /// The first time of contact, if any (exact: a real algebraic number).
    pub toi: Option<Algebraic>,
}

impl CcdResult {
    /// Whether the primitives meet in [0, 1].
    pub fn collides(&self) -> bool {
        self.toi.is_some()
    }
}

/// The linear motion p(t) = p0 + t (p1 − p0), per coordinate.
fn motion(p0: &Point3<Q>, p1: &Point3<Q>) -> V {
    [0, 1, 2].map(|i| Poly::from_coeffs(vec![p0[i].clone(), p1[i].clone() - p0[i].clone()]))
}

fn sub(a: &V, b: &V) -> V {
    [0, 1, 2].map(|i| a[i].clone() - b[i].clone())
}

fn cross(a: &V, b: &V) -> V {
    [(1, 2), (2, 0), (0, 1)].map(|(i, j)| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone())
}

fn dot(a: &V, b: &V) -> P {
    (0..3).fold(P::zero(), |acc, i| acc + a[i].clone() * b[i].clone())
}

/// A conjunction of equalities and inequalities, valid where `nondegenerate` ≠ 0.
struct Family {
    equalities: Vec<P>,
    inequalities: Vec<P>,
    nondegenerate: Option<P>,
}

impl Family {
    fn holds_at(&self, t: &Algebraic) -> Result<bool, PolyError> {
        for e in &self.equalities {
            if t.sign_of(e)? != Sign::Zero {
                return Ok(false);
            }
        }
        for g in &self.inequalities {
            if t.sign_of(g)? == Sign::Negative {
                return Ok(false);
            }
        }
        match &self.nondegenerate {
            Some(n) => Ok(t.sign_of(n)? != Sign::Zero),
            None => Ok(true),
        }
    }

    /// The least t ∈ [0, 1] in this family's set, if any.
    fn first(&self) -> Result<Option<Algebraic>, PolyError> {
        let (zero, one) = (Q::zero(), Q::one());
        let mut candidates = match self.equalities.iter().find(|e| !e.is_zero()) {
            Some(e) => real_roots(e, &zero, &one)?,
            None => {
                let mut c = vec![Algebraic::from_rational(zero.clone())];
                for g in self.inequalities.iter().filter(|g| !g.is_zero()) {
                    c.extend(real_roots(g, &zero, &one)?);
                }
                c
            }
        };
        candidates.sort();
        candidates.dedup();
        for t in candidates {
            if self.holds_at(&t)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }
}

/// x on the closed segment [p, q] (segment non-degenerate), and x = p.
fn point_on_segment(x: &V, p: &V, q: &V) -> Family {
    let (d, w) = (sub(q, p), sub(x, p));
    let len2 = dot(&d, &d);
    let along = dot(&w, &d);
    Family {
        equalities: cross(&w, &d).into_iter().collect(),
        inequalities: vec![along.clone(), len2.clone() - along],
        nondegenerate: Some(len2),
    }
}

fn point_on_point(x: &V, p: &V) -> Family {
    Family { equalities: sub(x, p).into_iter().collect(), inequalities: vec![], nondegenerate: None }
}

fn first_of(families: &[Family]) -> Result<CcdResult, PolyError> {
    let mut best: Option<Algebraic> = None;
    for f in families {
        if let Some(t) = f.first()? {
            if best.as_ref().is_none_or(|b| t < *b) {
                best = Some(t);
            }
        }
    }
    Ok(CcdResult { toi: best })
}

/// Vertex–face CCD: `t0` and `t1` are (v, f0, f1, f2) at t = 0 and t = 1.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::sweep::vertex_face;
/// let q = |x, y, z| point::<BigRational>(x, y, z);
/// // A vertex falling from z = 1 to z = −3 through the triangle z = 0: contact at t = 1/4.
/// let r = vertex_face(&[q(0, 0, 1), q(-1, -1, 0), q(3, -1, 0), q(-1, 3, 0)], &[q(0, 0, -3), q(-1, -1, 0), q(3, -1, 0), q(-1, 3, 0)]).unwrap();
/// assert_eq!(r.toi.unwrap().to_rational(), Some(BigRational::new(1.into(), 4.into())));
/// ```
pub fn vertex_face(t0: &[Point3<Q>; 4], t1: &[Point3<Q>; 4]) -> Result<CcdResult, PolyError> {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    let (e1, e2, w) = (sub(&f1, &f0), sub(&f2, &f0), sub(&v, &f0));
    let n = cross(&e1, &e2);
    let n2 = dot(&n, &n);
    // Barycentric numerators: w = β e1 + γ e2 with β = (w×e2)·n/|n|², γ = (e1×w)·n/|n|².
    let beta = dot(&cross(&w, &e2), &n);
    let gamma = dot(&cross(&e1, &w), &n);
    let generic = Family {
        equalities: vec![dot(&n, &w)],
        inequalities: vec![beta.clone(), gamma.clone(), n2.clone() - beta - gamma],
        nondegenerate: Some(n2),
    };
    let mut families = vec![generic];
    for (p, q) in [(&f0, &f1), (&f1, &f2), (&f2, &f0)] {
        families.push(point_on_segment(&v, p, q));
    }
    for p in [&f0, &f1, &f2] {
        families.push(point_on_point(&v, p));
    }
    first_of(&families)
}

/// Edge–edge CCD: `t0` and `t1` are (a0, a1, b0, b1) at t = 0 and t = 1.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::geom::point;
/// use touchstone::sweep::edge_edge;
/// let q = |x, y, z| point::<BigRational>(x, y, z);
/// // Edge a along x at height z = 2 − 4t, edge b along y at z = 0: they cross at t = 1/2.
/// let r = edge_edge(&[q(-1, 0, 2), q(1, 0, 2), q(0, -1, 0), q(0, 1, 0)], &[q(-1, 0, -2), q(1, 0, -2), q(0, -1, 0), q(0, 1, 0)]).unwrap();
/// assert_eq!(r.toi.unwrap().to_rational(), Some(BigRational::new(1.into(), 2.into())));
/// ```
pub fn edge_edge(t0: &[Point3<Q>; 4], t1: &[Point3<Q>; 4]) -> Result<CcdResult, PolyError> {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    let (da, db, w) = (sub(&a1, &a0), sub(&b1, &b0), sub(&b0, &a0));
    let m = cross(&da, &db);
    let m2 = dot(&m, &m);
    // Lines a0 + s·da and b0 + u·db meet at s = (w×db)·m/|m|², u = (w×da)·m/|m|².
    let s = dot(&cross(&w, &db), &m);
    let u = dot(&cross(&w, &da), &m);
    let generic = Family {
        equalities: vec![dot(&m, &w)],
        inequalities: vec![s.clone(), m2.clone() - s, u.clone(), m2.clone() - u],
        nondegenerate: Some(m2),
    };
    let mut families = vec![
        generic,
        point_on_segment(&a0, &b0, &b1),
        point_on_segment(&a1, &b0, &b1),
        point_on_segment(&b0, &a0, &a1),
        point_on_segment(&b1, &a0, &a1),
    ];
    for (x, p) in [(&a0, &b0), (&a0, &b1), (&a1, &b0), (&a1, &b1)] {
        families.push(point_on_point(x, p));
    }
    first_of(&families)
}

/// CCD of either kind.
pub fn ccd(kind: CcdKind, t0: &[Point3<Q>; 4], t1: &[Point3<Q>; 4]) -> Result<CcdResult, PolyError> {
    match kind {
        CcdKind::VertexFace => vertex_face(t0, t1),
        CcdKind::EdgeEdge => edge_edge(t0, t1),
    }
}
