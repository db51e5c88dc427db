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

use super::claim::{Check, Shown, Tolerance, Verdict};
use super::error::{ErrorKind, QueryError};
use super::index::PointClass;
use super::spec::{posed_convex, posed_solid, ConvexPosed, FeatureId, Posed};
use super::{Answer, Decisive, Query};
use crate::brep::Feature;
use crate::geom::{Point3, Scaled};
use crate::poly::RootScalar;
use crate::scalar::{Exact, Interval, Scalar, Sign};

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
    /// The solid posed and made strictly convex, or `None` when it is not convex.
    fn posed<S: Scalar>(&self) -> Result<Option<ConvexPosed<S>>, QueryError> {
        match posed_convex::<S, N>(&self.solid) {
            Ok(c) => Ok(Some(c)),
            Err(e) if e.kind == ErrorKind::Invalid && e.message.contains("not convex") => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A solid that is not convex, through its Brep-index.
    fn compute_general<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let g = posed_solid::<S, N>(&self.solid)?;
        let index = super::index::index_of(&g, &self.solid.at)?;
        let p: Point3<S> = self.point.map(|x| x.to_backend::<S>());
        let a = index.classify_point(&p).map_err(|u| QueryError::uncertain("/point", u))?;
        let decisive = super::index::face_tests(&g, std::slice::from_ref(&p));
        let (class, feature) = super::index::point_class(&g, a.class);
        let output = ClassifyPointOutput { class, feature, dots: a.dots, backend: std::marker::PhantomData };
        Ok(Answer { output, continuous: Vec::new(), decisive })
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
    type Output<S: RootScalar> = ClassifyPointOutput<S>;
    type Discrete = (PointClass, Option<FeatureId>);
    type Claim = ClassifyPointClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let Some(c) = self.posed::<S>()? else { return self.compute_general() };
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
            let f = feature_of_faces(&c, &zero).ok_or_else(|| {
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
        Ok(match posed_solid::<BigRational, N>(&self.solid) {
            Ok(g) => margin.min(super::distance::solid_margin(&g.built.solid)),
            Err(_) => margin,
        })
    }

    fn exact_from_filter(&self, decided: &Answer<Interval, Self>) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let o = &decided.output;
        let output = ClassifyPointOutput {
            class: o.class,
            feature: o.feature.clone(),
            dots: o.dots,
            backend: std::marker::PhantomData,
        };
        Some(Ok(Answer::plain(output)))
    }

    fn judge_enclosed(
        &self,
        decided: &Answer<Interval, Self>,
        claim: &ClassifyPointClaim,
        _: &Tolerance,
    ) -> Option<Vec<(String, bool)>> {
        let out = &decided.output;
        // A claimed feature other than the decided one may still hold the point (its closure):
        // only the exact check tells.
        if claim.feature.as_ref().is_some_and(|f| Some(f) != out.feature.as_ref()) {
            return None;
        }
        let mut v = Vec::new();
        if let Some(c) = claim.class {
            v.push(("class".into(), c == out.class));
        }
        if let Some(b) = claim.contains {
            v.push(("contains".into(), b == (out.class != PointClass::Outside)));
        }
        if claim.feature.is_some() {
            v.push(("feature".into(), true));
        }
        Some(v)
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

    fn judge(
        &self,
        exact: &Answer<BigRational, Self>,
        claim: &ClassifyPointClaim,
        _: &Tolerance,
        _: u32,
    ) -> Result<Verdict, QueryError> {
        let mut v = Verdict::default();
        let class = exact.output.class;
        if let Some(c) = claim.class {
            v.checks.push(Check::equal("class", Shown::Text(c.name().into()), Shown::Text(class.name().into())));
        }
        if let Some(b) = claim.contains {
            let truth = class != PointClass::Outside;
            v.checks.push(Check::equal("contains", Shown::Text(b.to_string()), Shown::Text(truth.to_string())));
        }
        if let Some(id) = &claim.feature {
            let exact_id = exact.output.feature.clone();
            let shown = |f: &Option<FeatureId>| Shown::Text(f.as_ref().map_or("none".into(), |f| f.to_string()));
            let mut check = Check::equal("feature", shown(&Some(id.clone())), shown(&exact_id));
            if !check.ok && exact_id.is_some() {
                // A claimed feature passes when the point lies on it: when the exact feature
                // (the one whose relative interior holds it) is part of the claimed one's
                // closure.
                let on = match self.posed::<BigRational>()? {
                    Some(c) => match (
                        c.claimed_feature(id)?,
                        exact_id.as_ref().map(|e| c.feature_of(e)).transpose()?.flatten(),
                    ) {
                        (Some((solid, claimed)), Some(found)) => {
                            std::ptr::eq(solid, &c.built.solid) && solid.in_closure(&found, &claimed)
                        }
                        _ => false,
                    },
                    None => posed_solid::<BigRational, N>(&self.solid)?.lies_on(exact_id.as_ref(), id),
                };
                if on {
                    check.ok = true;
                    check.note = Some("the point lies on this feature's boundary".into());
                }
            }
            v.checks.push(check);
        }
        Ok(v)
    }
}
