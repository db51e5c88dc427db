//! `validate`: build a solid and report its counts and convexity, or the defect.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Verdict};
use super::error::{ErrorKind, QueryError};
use super::spec::{build_solid, to_backend, ShapeSpec};
use super::{agreement_at, Answer, Decisive, Query};
use crate::brep::check_hull_agreement;
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::Point3;
use crate::poly::{FilterScalar, RootScalar};
use crate::scalar::{Exact, Scalar};

/// `validate`: the solid of a shape, checked exactly (planar simple faces, a closed oriented
/// 2-manifold, outward orientation, positive volume).
#[derive(Clone, Debug, PartialEq)]
pub struct Validate<N: Scalar = BigRational> {
    /// The shape.
    pub solid: ShapeSpec<N>,
    /// Its path in the query (`/solid`).
    pub at: String,
}

impl<N: Scalar> Validate<N> {
    /// Validate `solid` (errors point under `/solid`).
    pub fn new(solid: ShapeSpec<N>) -> Self {
        Validate { solid, at: "/solid".into() }
    }
}

/// What a valid solid is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolidReport {
    /// Vertex count.
    pub vertices: usize,
    /// Edge count.
    pub edges: usize,
    /// Face count.
    pub faces: usize,
    /// V − E + F.
    pub euler: i64,
    /// Whether every edge is convex (or flat).
    pub convex: bool,
}

/// A claim on [`Validate`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidateClaim {
    /// Whether the solid is valid.
    pub valid: Option<bool>,
    /// Vertex count.
    pub vertices: Option<i64>,
    /// Edge count.
    pub edges: Option<i64>,
    /// Face count.
    pub faces: Option<i64>,
    /// Convexity.
    pub convex: Option<bool>,
    /// Euler characteristic.
    pub euler: Option<i64>,
}

impl<N: Scalar> Query for Validate<N> {
    const OP: &'static str = "validate";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = SolidReport;
    type Discrete = SolidReport;

    /// Counts and convexity are the discrete answer: an interval run that decided them all
    /// answers exactly, with no exact arithmetic at all.
    const FILTERED: bool = true;

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        Some(Ok(Answer::plain(decided.output)))
    }

    fn reference(o: SolidReport) -> SolidReport {
        o
    }
    type Claim = ValidateClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let built = build_solid::<S, _>(&self.solid, &self.at)?;
        let s = &built.solid;
        let convex = s.is_convex().map_err(|e| QueryError::uncertain(&self.at, e))?;
        let report = SolidReport {
            vertices: s.vertex_count(),
            edges: s.edge_count(),
            faces: s.face_count(),
            euler: s.euler(),
            convex,
        };
        // The decisions behind the answer. A triangle is planar by construction, so only larger
        // faces carry a planarity decision (an exactly planar quad has margin 0: moving one
        // vertex makes it invalid).
        let tests = s.validation_tests();
        let mut decisive = Vec::new();
        for (f, values) in tests.planarity.into_iter().enumerate() {
            if s.face(f).len() > 3 {
                decisive.push(Decisive::AllOf(values));
            }
        }
        decisive.extend(tests.area.into_iter().map(Decisive::AllOf));
        decisive.extend(tests.convexity.into_iter().map(Decisive::Test));
        decisive.push(Decisive::Test(tests.volume));
        Ok(Answer { output: report, decisive, continuous: vec![] })
    }

    fn discrete<S: RootScalar>(o: &SolidReport) -> SolidReport {
        *o
    }

    /// A convex hull whose points are within the budget of coplanar may have an `f64` hull
    /// with other counts (a face of a rotated grid polytope, rounded, is a cap of slivers
    /// exactly, one face in binary64): where the counts disagree, the `f64` hull is judged as
    /// a hull of points within the budget of the given ones ([`check_hull_agreement`]: no
    /// point above a face of it beyond the budget, its faces planar within it, every exact
    /// vertex it drops within the budget of a face).
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let (margin, verdict) = agreement_at(self.margin(exact)?, exact, fast);
        if let (ShapeSpec::ConvexHull(points), Err(_), Ok(_)) = (&self.solid, &verdict, fast) {
            let rounded: Vec<Point3<f64>> = points.iter().map(to_backend).collect();
            if let Ok(hull) = check_hull_agreement(&rounded) {
                return Ok((margin, Ok(hull)));
            }
        }
        Ok((margin, verdict))
    }

    fn valid_within_tolerance(exact: &SolidReport, fast: &SolidReport) -> bool {
        // Topology is combinatorial: the counts must match; convexity may flip at a flat edge.
        (exact.vertices, exact.edges, exact.faces, exact.euler) == (fast.vertices, fast.edges, fast.faces, fast.euler)
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(valid: equal |b: &bool| Shown::Bool(*b), |_out| true),
        judged!(vertices: equal |n: &i64| Shown::Int(*n), |out| out.vertices as i64),
        judged!(edges: equal |n: &i64| Shown::Int(*n), |out| out.edges as i64),
        judged!(faces: equal |n: &i64| Shown::Int(*n), |out| out.faces as i64),
        judged!(convex: equal |b: &bool| Shown::Bool(*b), |out| out.convex),
        judged!(euler: equal |n: &i64| Shown::Int(*n), |out| out.euler),
    ];

    /// An invalid solid: a claimed `valid` is judged (exact: false, with the defect as note);
    /// the other fields of an invalid solid do not exist, so such claims fail.
    fn judge_error(&self, error: &QueryError, claim: &ValidateClaim) -> Option<Verdict> {
        if error.kind != ErrorKind::Invalid {
            return None;
        }
        let defect = format!("{} (at {})", error.message, error.at);
        let mut v = Verdict::default();
        if let Some(c) = claim.valid {
            v.checks.push(Check::equal("valid", Shown::Bool(c), Shown::Bool(false)).with_note(defect.clone()));
        }
        let others = [
            ("vertices", claim.vertices.map(Shown::Int)),
            ("edges", claim.edges.map(Shown::Int)),
            ("faces", claim.faces.map(Shown::Int)),
            ("convex", claim.convex.map(Shown::Bool)),
            ("euler", claim.euler.map(Shown::Int)),
        ];
        for (field, c) in others {
            if let Some(c) = c {
                v.checks.push(Check::equal(field, c, Shown::Absent).with_note("the solid is not valid"));
            }
        }
        Some(v)
    }
}
