//! `classify_point`: inside, outside or on the boundary of a posed solid, with the feature of
//! the boundary the point lies in.
//!
//! Convex solids are answered by the point's side of every face plane (exact with zero
//! tolerance on exact backends): outside when it is above one, inside when below all, else on
//! the boundary, in the relative interior of the feature the zero planes meet in (one plane:
//! that face; two: their common edge; three or more: their common vertex; the solid is
//! strictly convex, coplanar faces merged). Other solids through their Brep-index
//! ([`crate::msp`], hybrid split), with faces as given.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown};
use super::error::{ErrorKind, QueryError};
use super::index::PointClass;
use super::spec::{posed_solid, ConvexPosed, FeatureId, Posed};
use super::{Answer, Decisive, Query};
use crate::brep::Feature;
use crate::geom::{Point3, Scaled};
use crate::poly::{FilterScalar, RootScalar};
use crate::scalar::{Exact, Scalar, Sign};

/// `classify_point` of `point` against `solid` under its pose.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifyPoint<N: Scalar = BigRational> {
    /// The solid with its pose (`/solid`, `/pose`).
    pub solid: Posed<N>,
    /// The point, in world coordinates.
    pub point: Point3<N>,
}

/// The answer of [`ClassifyPoint`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifyPointOutput<S> {
    /// Inside, outside or boundary.
    pub class: PointClass,
    /// On the boundary: the feature whose relative interior holds the point.
    pub feature: Option<FeatureId>,
    /// The plane evaluations (dot products) it took: one per face of a convex solid, one per
    /// node visited in a Brep-index (§2.4's cost measure).
    pub dots: usize,
    /// The backend (the output has no continuous values).
    pub backend: std::marker::PhantomData<S>,
}

/// A claim on [`ClassifyPoint`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassifyPointClaim {
    /// The claimed class.
    pub class: Option<PointClass>,
    /// Whether the closed solid is claimed to contain the point (inside or boundary), as an
    /// engine's boolean containment test says.
    pub contains: Option<bool>,
    /// A claimed feature: passes when the point lies on it (closed).
    pub feature: Option<FeatureId>,
}

impl<N: Scalar> ClassifyPoint<N> {
    /// The solid posed and made strictly convex, or `None` when it is not convex (through the
    /// thread's memo: many points asked of one solid pose it once).
    fn posed<S: Scalar>(&self) -> Result<std::rc::Rc<Option<ConvexPosed<S>>>, QueryError> {
        super::memo::shared_convex::<S, N>(&self.solid)
    }

    /// A solid that is not convex, through its Brep-index.
    fn compute_general<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let shared = super::memo::shared_solid::<S, N>(&self.solid)?;
        let (g, index) = (shared.posed(), shared.index(&self.solid.at)?);
        let p: Point3<S> = self.point.map(|x| x.to_backend::<S>());
        let a = index.classify_point(&p).map_err(|u| QueryError::uncertain("/point", u))?;
        let decisive = super::index::face_tests(g, std::slice::from_ref(&p));
        let (class, feature) = super::index::point_class(g, a.class);
        let output = ClassifyPointOutput { class, feature, dots: a.dots, backend: std::marker::PhantomData };
        Ok(Answer { output, continuous: Vec::new(), decisive })
    }

    /// The check of a claimed feature against the exact one (`exact_id`): equal, or a feature
    /// whose closure holds the exact one (the point lies on its boundary).
    fn feature_check(&self, exact_id: &Option<FeatureId>, id: &FeatureId) -> Result<Check, QueryError> {
        let shown = |f: &Option<FeatureId>| Shown::Text(f.as_ref().map_or("none".into(), |f| f.to_string()));
        let mut check = Check::equal("feature", shown(&Some(id.clone())), shown(exact_id));
        if !check.ok && exact_id.is_some() {
            let on = match self.posed::<BigRational>()?.as_ref() {
                Some(c) => {
                    match (c.claimed_feature(id)?, exact_id.as_ref().map(|e| c.feature_of(e)).transpose()?.flatten()) {
                        (Some((solid, claimed)), Some(found)) => {
                            std::ptr::eq(solid, &c.built.solid) && solid.in_closure(&found, &claimed)
                        }
                        _ => false,
                    }
                }
                None => posed_solid::<BigRational, N>(&self.solid)?.lies_on(exact_id.as_ref(), id),
            };
            if on {
                check.ok = true;
                check.note = Some("the point lies on this feature's boundary".into());
            }
        }
        Ok(check)
    }
}

/// The feature of a strictly convex solid in whose relative interior lie the points on
/// exactly the faces `zero` (and below the others).
fn feature_of_faces<S: Scalar>(c: &ConvexPosed<S>, zero: &[usize]) -> Option<Feature> {
    let s = &c.built.solid;
    match zero {
        [] => None,
        [f] => Some(Feature::Face(*f)),
        [f, g] => {
            let (a, b) = (s.face(*f), s.face(*g));
            let common: Vec<usize> = a.iter().copied().filter(|v| b.contains(v)).collect();
            match common[..] {
                [u, v] => s
                    .edges()
                    .iter()
                    .find(|&&(x, y)| (x, y) == (u, v) || (x, y) == (v, u))
                    .map(|&(x, y)| Feature::Edge(x, y)),
                _ => None,
            }
        }
        [f, rest @ ..] => {
            let common: Vec<usize> =
                s.face(*f).iter().copied().filter(|v| rest.iter().all(|g| s.face(*g).contains(v))).collect();
            match common[..] {
                [v] => Some(Feature::Vertex(v)),
                _ => None,
            }
        }
    }
}

impl<N: Scalar> Query for ClassifyPoint<N> {
    const OP: &'static str = "classify_point";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = ClassifyPointOutput<S>;
    type Discrete = (PointClass, Option<FeatureId>);
    type Claim = ClassifyPointClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let shared = self.posed::<S>()?;
        let Some(c) = shared.as_ref() else { return self.compute_general() };
        let s = &c.built.solid;
        let p: Point3<S> = self.point.map(|x| x.to_backend::<S>());
        let mut decisive = vec![Decisive::Test(c.pose_determinant.clone())];
        let (mut zero, mut above) = (Vec::new(), false);
        for f in 0..s.face_count() {
            crate::budget::tick().map_err(|u| QueryError::uncertain("", u.into()))?;
            let plane = s.plane(f);
            let t = Scaled { value: plane.eval(&p), magnitude: plane.eval_magnitude(&p) };
            match t.sign_scaled().map_err(|u| QueryError::uncertain("/point", u))? {
                Sign::Positive => above = true,
                Sign::Zero => zero.push(f),
                Sign::Negative => {}
            }
            decisive.push(Decisive::Test(t));
        }
        let (class, feature) = if above {
            (PointClass::Outside, None)
        } else if zero.is_empty() {
            (PointClass::Inside, None)
        } else {
            let f = feature_of_faces(c, &zero).ok_or_else(|| {
                // Exact planes of a strictly convex solid always meet so; tolerant ones may
                // not, within their tolerance.
                QueryError::new(
                    ErrorKind::Precision,
                    "/point",
                    "the point is within this backend's tolerance of faces that share no feature",
                )
            })?;
            (PointClass::Boundary, Some(c.feature_id(&f)?))
        };
        let output = ClassifyPointOutput { class, feature, dots: s.face_count(), backend: std::marker::PhantomData };
        Ok(Answer { output, continuous: Vec::new(), decisive })
    }

    /// Every output is discrete: an interval run that decided every face's side is the
    /// exact answer.
    const FILTERED: bool = true;

    /// The answer's tests (the pose, the point against each face plane) and the posed solid's
    /// own (faces' areas, the volume), as for `distance`.
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<crate::contract::Margin, QueryError> {
        let margin = super::margin_of(&exact.decisive);
        Ok(match super::memo::shared_solid::<crate::scalar::Exact, N>(&self.solid) {
            Ok(g) => margin.min(g.margin_with(|g| super::distance::solid_margin(&g.built.solid))),
            Err(_) => margin,
        })
    }

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let o = &decided.output;
        let output = ClassifyPointOutput {
            class: o.class,
            feature: o.feature.clone(),
            dots: o.dots,
            backend: std::marker::PhantomData,
        };
        Some(Ok(Answer::plain(output)))
    }

    fn reference(o: ClassifyPointOutput<Exact>) -> ClassifyPointOutput<BigRational> {
        ClassifyPointOutput { class: o.class, feature: o.feature, dots: o.dots, backend: std::marker::PhantomData }
    }

    fn discrete<S: RootScalar>(o: &ClassifyPointOutput<S>) -> Self::Discrete {
        (o.class, o.feature.clone())
    }

    /// Near the boundary, `f64` may call a point on it (with any feature it is near), or
    /// inside or outside when it is exactly on it.
    fn valid_within_tolerance(exact: &Self::Discrete, fast: &Self::Discrete) -> bool {
        exact.0 == PointClass::Boundary || fast.0 == PointClass::Boundary || exact == fast
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(class: equal |c: &PointClass| Shown::Text(c.name().into()), |out| out.class;
            enclosed equal |out| out.class),
        judged!(contains: equal |b: &bool| Shown::Text(b.to_string()), |out| out.class != PointClass::Outside;
            enclosed equal |out| out.class != PointClass::Outside),
        // A claimed feature passes when the point lies on it: when the exact feature (the one
        // whose relative interior holds it) is part of the claimed one's closure. On a decided
        // run, a claimed feature other than the decided one may still hold the point (its
        // closure): only the exact check tells.
        judged!(feature: |q, exact, id, _, _, _| Ok(vec![q.feature_check(&exact.output.feature, id)?]);
            enclosed |_, decided, id, _, _| (decided.output.feature.as_ref() == Some(id)).then_some(true)),
    ];
}
