//! The ops of the Brep-index: `classify_segment` and `index_stats` (and `classify_point` of a
//! solid that is not convex, in [`super::classify`]).

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::QueryError;
use super::spec::{build_solid, posed_solid, FeatureId, Posed, ShapeSpec, SolidPosed};
use super::{agreement_at, Answer, Decisive, Query};
use crate::contract::{Agreement, Disagreement, Margin};
use crate::geom::Point3;
use crate::msp::{Class, Split};
use crate::poly::RootScalar;
use crate::scalar::{Exact, Scalar};

/// Where a point lies with respect to a solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointClass {
    /// In the interior.
    Inside,
    /// In the exterior.
    Outside,
    /// On the boundary.
    Boundary,
}

impl PointClass {
    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            PointClass::Inside => "inside",
            PointClass::Outside => "outside",
            PointClass::Boundary => "boundary",
        }
    }
}

/// The decisive tests of an answer about points of a posed solid: the pose's determinant and
/// each point against each face plane (the contract's margin is the least relative distance
/// of a point to a face plane: `f64` may disagree only near the boundary's planes).
pub(super) fn face_tests<S: Scalar>(g: &SolidPosed<S>, points: &[Point3<S>]) -> Vec<Decisive<S>> {
    let s = &g.built.solid;
    let mut tests = vec![Decisive::Test(g.pose_determinant.clone())];
    for f in 0..s.face_count() {
        tests.extend(points.iter().map(|p| Decisive::Test(s.plane(f).eval_scaled(p))));
    }
    tests
}

/// An index class in the format's terms.
pub(super) fn point_class<S: Scalar>(g: &SolidPosed<S>, c: Class) -> (PointClass, Option<FeatureId>) {
    match c {
        Class::Inside => (PointClass::Inside, None),
        Class::Outside => (PointClass::Outside, None),
        Class::On(f) => (PointClass::Boundary, Some(g.feature_id(&f))),
    }
}

/// `classify_segment`: the pieces of the closed segment `segment` inside, outside and on the
/// boundary of `solid` under its pose, in order, with exact parameters along it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifySegment<N: Scalar = BigRational> {
    /// The solid with its pose (`/solid`, `/pose`).
    pub solid: Posed<N>,
    /// The segment's ends, in world coordinates (`/segment`).
    pub segment: [Point3<N>; 2],
}

/// A piece of a classified segment.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece<S> {
    /// Inside, outside or boundary.
    pub class: PointClass,
    /// On the boundary: the feature whose relative interior holds the piece.
    pub feature: Option<FeatureId>,
    /// Where the piece starts (0 is the first end).
    pub from: S,
    /// Where it ends (equal to `from` for a point piece).
    pub to: S,
}

/// A piece of a classified segment this short (as a fraction of the segment) is within the
/// `f64` path's reach of a boundary point: the contract does not hold `f64` to it.
const SHORT_PIECE: f64 = 1.0 / (1u64 << 26) as f64;

/// The answer of [`ClassifySegment`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifySegmentOutput<S> {
    /// The pieces in order; neighbours differ.
    pub pieces: Vec<Piece<S>>,
    /// The plane evaluations (dot products) the index took (§2.4's cost measure; not compared
    /// between backends).
    pub dots: usize,
}

/// A claim on [`ClassifySegment`]: the pieces, each with a class, optionally a feature and its
/// parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassifySegmentClaim {
    /// The claimed pieces.
    pub pieces: Option<Vec<ClaimedPiece>>,
}

/// One claimed piece.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimedPiece {
    /// Its class.
    pub class: PointClass,
    /// Its feature (passes when the piece lies on it: the exact feature is in its closure).
    pub feature: Option<FeatureId>,
    /// Where it starts (within the tolerance).
    pub from: Option<BigRational>,
    /// Where it ends.
    pub to: Option<BigRational>,
}

impl<N: Scalar> ClassifySegment<N> {
    /// The checks of claimed pieces against the exact ones: their number, then each piece's
    /// class, feature (passing when the piece lies on it) and ends.
    fn pieces_checks(
        &self,
        exact: &[Piece<BigRational>],
        claimed: &[ClaimedPiece],
        tol: &Tolerance,
    ) -> Result<Vec<Check>, QueryError> {
        let mut v =
            vec![Check::equal("pieces/length", Shown::Int(claimed.len() as i64), Shown::Int(exact.len() as i64))];
        let g = posed_solid::<BigRational, N>(&self.solid)?;
        for (i, (c, e)) in claimed.iter().zip(exact).enumerate() {
            let at = |k: &str| format!("pieces/{i}/{k}");
            v.push(Check::equal(&at("class"), Shown::Text(c.class.name().into()), Shown::Text(e.class.name().into())));
            if let Some(id) = &c.feature {
                let shown = |f: &Option<FeatureId>| f.clone().map_or(Shown::Absent, Shown::Feature);
                let mut check = Check::equal(&at("feature"), shown(&c.feature), shown(&e.feature));
                if !check.ok && g.lies_on(e.feature.as_ref(), id) {
                    check.ok = true;
                    check.note = Some("the piece lies on this feature's boundary".into());
                }
                v.push(check);
            }
            if let Some(x) = &c.from {
                v.push(Check::number(&at("from"), x, &e.from, tol));
            }
            if let Some(x) = &c.to {
                v.push(Check::number(&at("to"), x, &e.to, tol));
            }
        }
        Ok(v)
    }
}

impl<N: Scalar> Query for ClassifySegment<N> {
    const OP: &'static str = "classify_segment";
    type Output<S: RootScalar> = ClassifySegmentOutput<S>;
    type Discrete = Vec<(PointClass, Option<FeatureId>)>;
    type Claim = ClassifySegmentClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let shared = super::memo::shared_solid::<S, N>(&self.solid)?;
        let (g, index) = (shared.posed(), shared.index(&self.solid.at)?);
        let [p, q] = self.segment.each_ref().map(|p| p.map(|x| x.to_backend::<S>()));
        let a = index.classify_segment(&p, &q).map_err(|u| QueryError::uncertain("/segment", u))?;
        let pieces: Vec<Piece<S>> = a
            .pieces
            .into_iter()
            .map(|piece| {
                let (class, feature) = point_class(g, piece.class);
                Piece { class, feature, from: piece.from, to: piece.to }
            })
            .collect();
        // The parameters, in [0, 1]: compared between backends where the pieces agree (the
        // contract compares fields of the same name).
        let continuous = pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| {
                [("from", &p.from), ("to", &p.to)]
                    .map(|(k, x)| super::Bounded::new(format!("pieces/{i}/{k}"), x.clone(), S::one()))
            })
            .collect();
        // Off the boundary, the margin is the ends' least relative distance to a face plane
        // (and the pose's), as for a point; see [`Query::agreement`] below.
        let decisive = face_tests(g, &[p, q]);
        Ok(Answer { output: ClassifySegmentOutput { pieces, dots: a.dots }, continuous, decisive })
    }

    fn reference(o: ClassifySegmentOutput<Exact>) -> ClassifySegmentOutput<BigRational> {
        let pieces = o
            .pieces
            .into_iter()
            .map(|p| Piece {
                class: p.class,
                feature: p.feature,
                from: p.from.to_rational().unwrap_or_default(),
                to: p.to.to_rational().unwrap_or_default(),
            })
            .collect();
        ClassifySegmentOutput { pieces, dots: o.dots }
    }

    fn discrete<S: RootScalar>(o: &ClassifySegmentOutput<S>) -> Self::Discrete {
        o.pieces.iter().map(|p| (p.class, p.feature.clone())).collect()
    }

    /// Where either answer touches the boundary, `f64` may see it elsewhere (a graze missed or
    /// made, a crossing at another feature): the in/out pattern off the boundary must agree.
    fn valid_within_tolerance(exact: &Self::Discrete, fast: &Self::Discrete) -> bool {
        let off = |d: &Self::Discrete| {
            let mut v: Vec<PointClass> = d.iter().map(|p| p.0).filter(|c| *c != PointClass::Boundary).collect();
            v.dedup();
            v
        };
        off(exact) == off(fast)
    }

    /// The contract's margin: zero when either answer touches the boundary (a segment's
    /// crossings are decided near the boundary's planes), else that of the decisive tests (the
    /// pose, the ends against the face planes: `f64` must agree exactly unless one is close)
    /// and of the posed solid's own (faces' areas, the volume).
    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        let touches = |d: &Self::Discrete| d.iter().any(|p| p.0 == PointClass::Boundary);
        let near =
            touches(&Self::discrete(&exact.output)) || fast.as_ref().is_ok_and(|f| touches(&Self::discrete(&f.output)));
        if near {
            // The in/out pattern off the boundary must agree, but a piece shorter than 2⁻²⁶ of
            // the segment lies within that much of a boundary point, where `f64`'s crossing
            // parameters may fall on either side of it (its crossings are quotients of plane
            // values that cancel): such pieces are left out on both sides.
            let short = |from: f64, to: f64| to - from <= SHORT_PIECE;
            let off = |v: Vec<(PointClass, bool)>| {
                let mut v: Vec<PointClass> =
                    v.into_iter().filter(|(c, s)| *c != PointClass::Boundary && !s).map(|(c, _)| c).collect();
                v.dedup();
                v
            };
            let exact_off = off(exact
                .output
                .pieces
                .iter()
                .map(|p| {
                    let length: f64 = crate::scalar::Scalar::to_f64(&(&p.to - &p.from));
                    (p.class, length <= SHORT_PIECE)
                })
                .collect());
            let verdict = match fast {
                Ok(f) => {
                    let fast_off = off(f.output.pieces.iter().map(|p| (p.class, short(p.from, p.to))).collect());
                    if exact_off == fast_off {
                        Ok(Agreement::WithinTolerance)
                    } else {
                        Err(Disagreement {
                            what: "the in/out pattern off the boundary differs".into(),
                            exact: format!("{exact_off:?}"),
                            fast: format!("{fast_off:?}"),
                            margin: "0".into(),
                        })
                    }
                }
                Err(_) => Ok(Agreement::WithinTolerance),
            };
            return Ok((Margin::Finite(BigRational::default()), verdict));
        }
        let margin = {
            let shape = super::memo::shared_solid::<crate::scalar::Exact, N>(&self.solid)
                .map_or(Margin::Unbounded, |g| g.margin_with(|g| super::distance::solid_margin(&g.built.solid)));
            super::margin_of(&exact.decisive).min(shape)
        };
        Ok(agreement_at(margin, exact, fast))
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] =
        &[judged!(pieces: |q, exact, claimed, _, tol, _| q.pieces_checks(&exact.output.pieces, claimed, tol))];
}

/// `index_stats`: the figures of a solid's Brep-index (Table 1 of Vaněček 1990).
#[derive(Clone, Debug, PartialEq)]
pub struct IndexStats<N: Scalar = BigRational> {
    /// The solid (`/solid`), in its own coordinates.
    pub solid: ShapeSpec<N>,
    /// The split heuristic (`/split`: `"hybrid"`, the default, or `"autopartition"`).
    pub split: Split,
}

/// The answer of [`IndexStats`].
#[derive(Clone, Debug, PartialEq)]
pub struct IndexStatsOutput<S> {
    /// The figures.
    pub stats: crate::msp::Stats,
    /// The backend (the output has no continuous values).
    pub backend: std::marker::PhantomData<S>,
}

/// A claim on [`IndexStats`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexStatsClaim {
    /// Internal nodes.
    pub nodes: Option<u64>,
    /// Height.
    pub height: Option<u64>,
    /// Average height (within the tolerance).
    pub average_height: Option<BigRational>,
}

impl<N: Scalar> Query for IndexStats<N> {
    const OP: &'static str = "index_stats";
    type Output<S: RootScalar> = IndexStatsOutput<S>;
    /// Nodes, height, and the edge and vertex pieces lost (which must be none).
    type Discrete = (usize, usize, usize);
    type Claim = IndexStatsClaim;

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let built = if S::FILTER {
            let exact = build_solid::<Exact, N>(&self.solid, "/solid")?;
            exact.solid.convert_decided::<S>().map_err(|e| QueryError::brep("/solid", e))?
        } else {
            build_solid::<S, N>(&self.solid, "/solid")?.solid
        };
        let index = super::memo::build_index(&built, self.split, "/solid")?;
        Ok(Answer::plain(IndexStatsOutput { stats: index.stats().clone(), backend: std::marker::PhantomData }))
    }

    fn reference(o: IndexStatsOutput<Exact>) -> IndexStatsOutput<BigRational> {
        IndexStatsOutput { stats: o.stats, backend: std::marker::PhantomData }
    }

    fn discrete<S: RootScalar>(o: &IndexStatsOutput<S>) -> Self::Discrete {
        (o.stats.nodes, o.stats.height, o.stats.lost)
    }

    /// The `f64` index cuts as the exact one except where its tolerance merges or separates
    /// near-coincident pieces, and every input has such decisions (a face's own vertices lie on
    /// its cut plane, exactly zero), so the margin is zero: its figures are reported beside the
    /// exact ones, not held to them. What is held: it must lose no edge or vertex piece into a
    /// 3-dimensional region (then points on those entities would be misclassified).
    fn valid_within_tolerance(_: &Self::Discrete, fast: &Self::Discrete) -> bool {
        fast.2 == 0
    }

    fn agreement(
        &self,
        exact: &Answer<BigRational, Self>,
        fast: &Result<Answer<f64, Self>, QueryError>,
    ) -> Result<(Margin, Result<Agreement, Disagreement>), QueryError> {
        Ok(agreement_at(Margin::Finite(BigRational::default()), exact, fast))
    }

    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(nodes: equal |n: &u64| Shown::Int(*n as i64), |out| out.stats.nodes as u64),
        judged!(height: equal |n: &u64| Shown::Int(*n as i64), |out| out.stats.height as u64),
        // Exactly: the sum of the depths over the number of entity leaves.
        judged!(average_height: |_, exact, a, _, tol, _| {
            let s = &exact.output.stats;
            let exact_avg = if s.leaves[2] == 0 {
                BigRational::default()
            } else {
                BigRational::new(s.entity_depths.into(), s.leaves[2].into())
            };
            Ok(vec![Check::number("average_height", a, &exact_avg, tol)])
        }),
    ];
}
