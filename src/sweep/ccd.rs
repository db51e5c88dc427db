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

use crate::geom::Point3;
use crate::poly::{earlier, sort_tagged_times, Algebraic, Poly, PolyError, RootScalar, TPoly};
use crate::scalar::{Exact, Interval, Sign};

type Q = BigRational;
type V<S> = [TPoly<S>; 3];

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
pub struct CcdResult<S: RootScalar = Q> {
    /// The first time of contact, if any (exact backends: a real algebraic number; `f64`: a
    /// double).
    pub toi: Option<S::Time>,
}

impl<S: RootScalar> CcdResult<S> {
    /// Whether the primitives meet in [0, 1].
    pub fn collides(&self) -> bool {
        self.toi.is_some()
    }
}

/// The linear motion p(t) = p0 + t (p1 − p0), per coordinate (the difference is computed:
/// its magnitude is |p0| + |p1|).
fn motion<S: RootScalar>(p0: &Point3<S>, p1: &Point3<S>) -> V<S> {
    [0, 1, 2].map(|i| {
        let p = Poly::from_coeffs(vec![p0[i].clone(), p1[i].clone() - p0[i].clone()]);
        let m = (!S::CERTAIN_DECISIONS).then(|| Poly::from_coeffs(vec![p0[i].abs(), p0[i].abs() + p1[i].abs()]));
        TPoly { p, m }
    })
}

fn sub<S: RootScalar>(a: &V<S>, b: &V<S>) -> V<S> {
    [0, 1, 2].map(|i| a[i].clone() - b[i].clone())
}

fn cross<S: RootScalar>(a: &V<S>, b: &V<S>) -> V<S> {
    [(1, 2), (2, 0), (0, 1)].map(|(i, j)| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone())
}

fn dot<S: RootScalar>(a: &V<S>, b: &V<S>) -> TPoly<S> {
    (0..3).fold(TPoly::zero(), |acc, i| acc + a[i].clone() * b[i].clone())
}

/// A conjunction of equalities and inequalities, valid where `nondegenerate` ≠ 0.
pub(super) struct Family<S: RootScalar> {
    pub(super) equalities: Vec<TPoly<S>>,
    pub(super) inequalities: Vec<TPoly<S>>,
    pub(super) nondegenerate: Option<TPoly<S>>,
}

/// Which polynomial of a family a candidate time is a root of (its own test is skipped there:
/// the time is its root by construction, and on intervals a sign at an enclosure of one's own
/// root is never decided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Own {
    /// The family's first equality that is not identically zero.
    Equality(usize),
    /// An inequality (when every equality vanishes identically).
    Inequality(usize),
    /// No polynomial: the time is the interval's start, t = 0.
    Start,
}

/// Where a first time of contact comes from: a family (by its index in the kind's list) and
/// the polynomial of that family it is a root of. With the enclosure of a run on intervals it
/// names the exact time ([`exact_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeSource {
    family: usize,
    own: Own,
}

impl<S: RootScalar> Family<S> {
    pub(super) fn holds_at(&self, t: &S::Time) -> Result<bool, PolyError> {
        self.holds_at_root_of(t, Own::Start)
    }

    /// Whether the family holds at `t`, a root of its polynomial `own` (whose test is skipped:
    /// `t` is its root by construction). Inequalities are tested first: a miss is usually
    /// decided there, and on intervals an equality at a root enclosure is never decided.
    fn holds_at_root_of(&self, t: &S::Time, own: Own) -> Result<bool, PolyError> {
        for (k, g) in self.inequalities.iter().enumerate() {
            if own != Own::Inequality(k) && S::sign_at(g, t)? == Sign::Negative {
                return Ok(false);
            }
        }
        for (k, e) in self.equalities.iter().enumerate() {
            if own != Own::Equality(k) && S::sign_at(e, t)? != Sign::Zero {
                return Ok(false);
            }
        }
        match &self.nondegenerate {
            Some(n) => Ok(S::sign_at(n, t)? != Sign::Zero),
            None => Ok(true),
        }
    }

    /// The first equality that is not identically zero, if any.
    fn equality(&self) -> Result<Option<(usize, &TPoly<S>)>, PolyError> {
        for (k, e) in self.equalities.iter().enumerate() {
            if !e.is_zero()? {
                return Ok(Some((k, e)));
            }
        }
        Ok(None)
    }

    /// The least t ∈ [0, 1] in this family's set, if any, and the polynomial it is a root of.
    fn first(&self) -> Result<Option<(S::Time, Own)>, PolyError> {
        let (zero, one) = (S::zero(), S::one());
        let mut candidates: Vec<(S::Time, Own)> = match self.equality()? {
            Some((k, e)) => S::roots_in(&e.p, &zero, &one)?.into_iter().map(|t| (t, Own::Equality(k))).collect(),
            None => {
                let mut c = vec![(S::time(&zero), Own::Start)];
                for (k, g) in self.inequalities.iter().enumerate() {
                    if !g.is_zero()? {
                        c.extend(S::roots_in(&g.p, &zero, &one)?.into_iter().map(|t| (t, Own::Inequality(k))));
                    }
                }
                c
            }
        };
        // Increasing; of equal times the first listed is kept (the start before a root at 0).
        sort_tagged_times::<S, _>(&mut candidates)?;
        for (t, own) in candidates {
            if self.holds_at_root_of(&t, own)? {
                return Ok(Some((t, own)));
            }
        }
        Ok(None)
    }
}

/// x on the closed segment [p, q] (segment non-degenerate), and x = p.
fn point_on_segment<S: RootScalar>(x: &V<S>, p: &V<S>, q: &V<S>) -> Family<S> {
    let (d, w) = (sub(q, p), sub(x, p));
    let len2 = dot(&d, &d);
    let along = dot(&w, &d);
    Family {
        equalities: cross(&w, &d).into_iter().collect(),
        inequalities: vec![along.clone(), len2.clone() - along],
        nondegenerate: Some(len2),
    }
}

fn point_on_point<S: RootScalar>(x: &V<S>, p: &V<S>) -> Family<S> {
    Family { equalities: sub(x, p).into_iter().collect(), inequalities: vec![], nondegenerate: None }
}

pub(super) fn first_of<S: RootScalar>(families: &[Family<S>]) -> Result<CcdResult<S>, PolyError> {
    Ok(sourced_first_of(families)?.0)
}

/// The first time over the families, and where it comes from (the first family, in list
/// order, of those that give it).
fn sourced_first_of<S: RootScalar>(families: &[Family<S>]) -> Result<(CcdResult<S>, Option<TimeSource>), PolyError> {
    let mut best: Option<(S::Time, TimeSource)> = None;
    for (family, f) in families.iter().enumerate() {
        if let Some((t, own)) = f.first()? {
            let better = match &best {
                None => true,
                Some((b, _)) => earlier::<S>(&t, b)?,
            };
            if better {
                best = Some((t, TimeSource { family, own }));
            }
        }
    }
    let source = best.as_ref().map(|(_, s)| *s);
    Ok((CcdResult { toi: best.map(|(t, _)| t) }, source))
}

/// CCD of either kind, with where its first time comes from (see [`exact_time`]).
pub(crate) fn ccd_sourced<S: RootScalar>(
    kind: CcdKind,
    t0: &[Point3<S>; 4],
    t1: &[Point3<S>; 4],
) -> Result<(CcdResult<S>, Option<TimeSource>), PolyError> {
    sourced_first_of(&families(kind, t0, t1))
}

/// The exact first time of contact, constructed from a run on intervals that decided it: the
/// root, in the run's enclosure, of the exact polynomial the run's time is a root of.
///
/// Sound because that run decided every sign exactly as the exact run would (an interval sign
/// is the exact one or `Uncertain`), so the exact first time is the root of the same family's
/// same polynomial, and the enclosure holds exactly one root of every polynomial whose
/// coefficients lie in the interval coefficients, the exact one among them
/// ([`crate::poly::interval_roots`]). Errors ([`PolyError::NotIsolating`]) mean the
/// construction does not apply; the caller then runs the exact algorithm.
pub(crate) fn exact_time(
    kind: CcdKind,
    t0: &[Point3<Exact>; 4],
    t1: &[Point3<Exact>; 4],
    source: TimeSource,
    enclosure: &Interval,
) -> Result<Algebraic, PolyError> {
    let families = families::<Exact>(kind, t0, t1);
    let family = families.get(source.family).ok_or(PolyError::NotIsolating)?;
    let poly = match source.own {
        Own::Start => return Ok(Algebraic::from_rational(Q::from_integer(0.into()))),
        Own::Equality(k) => family.equalities.get(k),
        Own::Inequality(k) => family.inequalities.get(k),
    }
    .ok_or(PolyError::NotIsolating)?;
    // The exact run's own isolation of this polynomial on [0, 1] (so the number comes with the
    // same certificate, polynomial and interval, as the reference prints), and of its roots
    // the one in the enclosure: the enclosure holds exactly one root of the exact polynomial.
    let q = |x: f64| Q::from_float(x).ok_or(PolyError::NotIsolating);
    let (lo, hi) = (q(enclosure.lo())?, q(enclosure.hi())?);
    let (zero, one) = (<Exact as num_traits::Zero>::zero(), <Exact as num_traits::One>::one());
    let mut inside = Exact::roots_in(&poly.p, &zero, &one)?.into_iter().filter(|r| {
        r.cmp_rational(&lo) != std::cmp::Ordering::Less && r.cmp_rational(&hi) != std::cmp::Ordering::Greater
    });
    match (inside.next(), inside.next()) {
        (Some(r), None) => Ok(r),
        _ => Err(PolyError::NotIsolating),
    }
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
pub fn vertex_face<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Result<CcdResult<S>, PolyError> {
    first_of(&vertex_face_families(t0, t1))
}

fn vertex_face_families<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Vec<Family<S>> {
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
    families
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
pub fn edge_edge<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Result<CcdResult<S>, PolyError> {
    first_of(&edge_edge_families(t0, t1))
}

fn edge_edge_families<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Vec<Family<S>> {
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
    families
}

pub(super) fn families<S: RootScalar>(kind: CcdKind, t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Vec<Family<S>> {
    match kind {
        CcdKind::VertexFace => vertex_face_families(t0, t1),
        CcdKind::EdgeEdge => edge_edge_families(t0, t1),
    }
}

/// CCD of either kind.
pub fn ccd<S: RootScalar>(kind: CcdKind, t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Result<CcdResult<S>, PolyError> {
    match kind {
        CcdKind::VertexFace => vertex_face(t0, t1),
        CcdKind::EdgeEdge => edge_edge(t0, t1),
    }
}
