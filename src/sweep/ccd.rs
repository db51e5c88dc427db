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

impl<S: RootScalar> Family<S> {
    /// The generic family's first time where it alone decides the query (`None`: a lower
    /// family may matter; the caller builds them all).
    ///
    /// Every contact, of any family, is at a root of the coplanarity cubic, the generic
    /// family's equality. At a root where the non-degeneracy is decided nonzero (a proper
    /// triangle, edges not parallel), a strictly negative inequality puts the contact point
    /// strictly outside the closed triangle or off a closed segment, so no family holds there;
    /// and where none is negative, the generic family itself holds. So when every root up to
    /// the first where the generic family holds has its non-degeneracy decided nonzero, that
    /// root (or none) is the first time of the whole query, and it is the generic family's (the
    /// first in list order, which the full search keeps on ties). Decided on certain backends
    /// only; an uncertain sign is an error, which the caller answers by the full search.
    fn first_alone(&self) -> Result<Option<Option<S::Time>>, PolyError> {
        let Some((0, e)) = self.equality()? else { return Ok(None) };
        let Some(n) = &self.nondegenerate else { return Ok(None) };
        for t in S::roots_in(&e.p, &S::zero(), &S::one())? {
            if S::sign_at(n, &t)? == Sign::Zero {
                return Ok(None);
            }
            let mut outside = false;
            for g in &self.inequalities {
                if S::sign_at(g, &t)? == Sign::Negative {
                    outside = true;
                    break;
                }
            }
            if !outside {
                return Ok(Some(Some(t)));
            }
        }
        Ok(Some(None))
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
    if S::CERTAIN_DECISIONS && {
        let c = coplanarity_bernstein(kind, t0, t1);
        never_coplanar(&c) || rootless_coplanarity(c)
    } {
        return Ok((CcdResult { toi: None }, None));
    }
    if S::CERTAIN_DECISIONS {
        let generic = match kind {
            CcdKind::VertexFace => vertex_face_generic(t0, t1),
            CcdKind::EdgeEdge => edge_edge_generic(t0, t1),
        };
        if let Ok(Some(first)) = generic.first_alone() {
            let source = first.as_ref().map(|_| TimeSource { family: 0, own: Own::Equality(0) });
            return Ok((CcdResult { toi: first }, source));
        }
    }
    sourced_first_of(&families(kind, t0, t1))
}

/// Whether the four points are certainly never coplanar for t ∈ [0, 1], decided on a backend
/// whose decisions are certain (false on tolerant ones, and where a sign is uncertain).
///
/// Every contact of either kind makes the four points coplanar (a vertex on the closed
/// triangle lies in its plane, or the triangle is degenerate; two segments that meet span at
/// most a plane), so a contact time is a root in [0, 1] of the coplanarity cubic
/// D(t) = det(x(t), y(t), z(t)) of the three edge vectors from the first point of the face or
/// edge. Each vector moves linearly, x(t) = (1 − t) x₀ + t x₁, so D's Bernstein coefficients
/// on [0, 1] are, up to the positive binomial factors, the sums of det(x_i, y_j, z_k) over
/// i + j + k = m, m = 0..3; when all four have the same strict sign, D has no root in
/// [0, 1] (a polynomial on [0, 1] lies in the convex hull of its Bernstein coefficients) and
/// the primitives never meet. On generic inputs (the `filtered` bench's `ccd_generic`) about
/// half of the queries end here, at the cost of four cross and six dot products, before any
/// polynomial is built.
fn never_coplanar<S: RootScalar>(coefficients: &[S; 4]) -> bool {
    if !S::CERTAIN_DECISIONS {
        return false;
    }
    let mut signs = coefficients.iter().map(|c| c.sign_scaled(|| c.abs()));
    let Some(Ok(first)) = signs.next() else { return false };
    first != Sign::Zero && signs.all(|s| s == Ok(first))
}

/// Whether the coplanarity cubic (see [`never_coplanar`]) is certainly not identically zero
/// and certainly has no root in [0, 1], decided on a backend whose decisions are certain
/// (false on tolerant ones, and where the root search is uncertain). Then, as there, the
/// primitives never meet. It catches the rootless cubics whose Bernstein signs still
/// change (a few percent of generic queries) for one root search on the cubic alone, before
/// the generic family's inequalities (polynomials of degree 4) are built.
fn rootless_coplanarity<S: RootScalar>([c0, c1, c2, c3]: [S; 4]) -> bool {
    if !S::CERTAIN_DECISIONS {
        return false;
    }
    // D(t) = c₀(1 − t)³ + c₁(1 − t)²t + c₂(1 − t)t² + c₃t³ in the power basis.
    let three = S::from_i64(3);
    let power = vec![
        c0.clone(),
        c1.clone() - three.clone() * c0.clone(),
        three * c0.clone() - c1.clone() - c1.clone() + c2.clone(),
        c3 - c0 + c1 - c2,
    ];
    let d = TPoly::input(Poly::from_coeffs(power));
    matches!(d.is_zero(), Ok(false)) && S::roots_in(&d.p, &S::zero(), &S::one()).is_ok_and(|r| r.is_empty())
}

/// The coplanarity cubic's coefficients `c_m` (the sums of det(x_i, y_j, z_k) over
/// i + j + k = m): D(t) = Σ c_m (1 − t)^(3−m) t^m.
fn coplanarity_bernstein<S: RootScalar>(kind: CcdKind, t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> [S; 4] {
    // The base point and the three others, by kind: det(f1 − f0, f2 − f0, v − f0) and
    // det(a1 − a0, b0 − a0, b1 − a0).
    let (base, others) = match kind {
        CcdKind::VertexFace => (1, [2, 3, 0]),
        CcdKind::EdgeEdge => (0, [1, 2, 3]),
    };
    let rel = |t: &[Point3<S>; 4], i: usize| t[others[i]].clone() - t[base].clone();
    let (x0, y0, z0) = (rel(t0, 0), rel(t0, 1), rel(t0, 2));
    let (x1, y1, z1) = (rel(t1, 0), rel(t1, 1), rel(t1, 2));
    let (c00, c10, c01, c11) = (y0.cross(&z0), y1.cross(&z0), y0.cross(&z1), y1.cross(&z1));
    let mixed = c10 + c01;
    [x0.dot(&c00), x1.dot(&c00) + x0.dot(&mixed), x1.dot(&mixed) + x0.dot(&c11), x1.dot(&c11)]
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
    Ok(ccd_sourced(CcdKind::VertexFace, t0, t1)?.0)
}

/// The vertex–face generic family alone (the first of [`vertex_face_families`]).
fn vertex_face_generic<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Family<S> {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    vertex_face_generic_of(&v, &f0, &f1, &f2)
}

fn vertex_face_generic_of<S: RootScalar>(v: &V<S>, f0: &V<S>, f1: &V<S>, f2: &V<S>) -> Family<S> {
    let (e1, e2, w) = (sub(f1, f0), sub(f2, f0), sub(v, f0));
    let n = cross(&e1, &e2);
    let n2 = dot(&n, &n);
    // Barycentric numerators: w = β e1 + γ e2 with β = (w×e2)·n/|n|², γ = (e1×w)·n/|n|².
    let beta = dot(&cross(&w, &e2), &n);
    let gamma = dot(&cross(&e1, &w), &n);
    Family {
        equalities: vec![dot(&n, &w)],
        inequalities: vec![beta.clone(), gamma.clone(), n2.clone() - beta - gamma],
        nondegenerate: Some(n2),
    }
}

fn vertex_face_families<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Vec<Family<S>> {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    let mut families = vec![vertex_face_generic_of(&v, &f0, &f1, &f2)];
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
    Ok(ccd_sourced(CcdKind::EdgeEdge, t0, t1)?.0)
}

/// The edge–edge generic family alone (the first of [`edge_edge_families`]).
fn edge_edge_generic<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Family<S> {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    edge_edge_generic_of(&a0, &a1, &b0, &b1)
}

fn edge_edge_generic_of<S: RootScalar>(a0: &V<S>, a1: &V<S>, b0: &V<S>, b1: &V<S>) -> Family<S> {
    let (da, db, w) = (sub(a1, a0), sub(b1, b0), sub(b0, a0));
    let m = cross(&da, &db);
    let m2 = dot(&m, &m);
    // Lines a0 + s·da and b0 + u·db meet at s = (w×db)·m/|m|², u = (w×da)·m/|m|².
    let s = dot(&cross(&w, &db), &m);
    let u = dot(&cross(&w, &da), &m);
    Family {
        equalities: vec![dot(&m, &w)],
        inequalities: vec![s.clone(), m2.clone() - s, u.clone(), m2.clone() - u],
        nondegenerate: Some(m2),
    }
}

fn edge_edge_families<S: RootScalar>(t0: &[Point3<S>; 4], t1: &[Point3<S>; 4]) -> Vec<Family<S>> {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| motion(&t0[i], &t1[i]));
    let mut families = vec![
        edge_edge_generic_of(&a0, &a1, &b0, &b1),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`never_coplanar`] is a proof: on small grids (where coplanar, touching and degenerate
    /// configurations are common) every query it rejects has no contact by the full families,
    /// it rejects some, and it never rejects one the families find a contact in.
    #[test]
    fn shortcuts_give_the_full_answer() {
        use proptest::strategy::{Strategy, ValueTree};
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut next = |m: i64| (-m..=m).new_tree(&mut runner).map_or(0, |t| t.current());
        let (mut rejected, mut rootless, mut hits, mut alone) = (0, 0, 0, 0);
        for i in 0..3000 {
            let kind = if i % 2 == 0 { CcdKind::VertexFace } else { CcdKind::EdgeEdge };
            let mut point = || {
                Point3::new(
                    Q::from_integer(next(3).into()),
                    Q::from_integer(next(3).into()),
                    Q::from_integer(next(3).into()),
                )
            };
            let t0 = [point(), point(), point(), point()];
            let t1 = [point(), point(), point(), point()];
            let full = first_of(&families(kind, &t0, &t1)).unwrap();
            hits += usize::from(full.collides());
            if never_coplanar(&coplanarity_bernstein(kind, &t0, &t1)) {
                rejected += 1;
                assert!(!full.collides(), "{kind:?} {t0:?} {t1:?}: rejected, but the families meet at {:?}", full.toi);
            } else if rootless_coplanarity(coplanarity_bernstein(kind, &t0, &t1)) {
                rootless += 1;
                assert!(!full.collides(), "{kind:?} {t0:?} {t1:?}: rootless, but the families meet at {:?}", full.toi);
            }
            // The shortcuts (this one and the generic family alone) give the full search's
            // answer and source.
            let fast = ccd_sourced(kind, &t0, &t1).unwrap();
            assert_eq!(fast, sourced_first_of(&families(kind, &t0, &t1)).unwrap(), "{kind:?} {t0:?} {t1:?}");
            alone += usize::from(families(kind, &t0, &t1)[0].first_alone().unwrap().is_some());
        }
        println!("rejected {rejected}, rootless {rootless}, hits {hits}, alone {alone} of 3000");
        assert!(
            rejected > 300 && rootless > 30 && hits > 300 && alone > 1000,
            "rejected {rejected}, rootless {rootless}, hits {hits}, alone {alone}"
        );
        // Tolerant backends never take the shortcut (their signs are not certain).
        let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
        let far = [p(0.0, 0.0, 5.0), p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
        assert!(!never_coplanar(&coplanarity_bernstein(CcdKind::VertexFace, &far, &far)));
        let q = |x: i64, y: i64, z: i64| {
            Point3::new(Q::from_integer(x.into()), Q::from_integer(y.into()), Q::from_integer(z.into()))
        };
        let far = [q(0, 0, 5), q(0, 0, 0), q(1, 0, 0), q(0, 1, 0)];
        assert!(never_coplanar(&coplanarity_bernstein(CcdKind::VertexFace, &far, &far)));
        // A vertex that reaches the face's plane at t = 1: the last coefficient is zero.
        let end = [q(0, 0, 0), q(0, 0, 0), q(1, 0, 0), q(0, 1, 0)];
        assert!(!never_coplanar(&coplanarity_bernstein(CcdKind::VertexFace, &far, &end)));
        assert!(ccd(CcdKind::VertexFace, &far, &end).unwrap().collides());
    }
}
