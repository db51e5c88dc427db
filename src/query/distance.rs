//! `distance`: status, exact squared distance, closest features and points of two convex
//! shapes, by V-Clip.

use num_rational::BigRational;

use super::claim::{Check, ClaimRule, Shown, Tolerance};
use super::error::QueryError;
use super::filtered::{point_reference, value_reference};
use super::spec::{posed_convex, ConvexPosed, FeatureId, PoseSpec, Posed, ShapeSpec};
use super::{Answer, Bounded, Decisive, Query};
use crate::brep::Feature;
use crate::geom::{Plane, Point3, Scaled, Vector3};
use crate::poly::{FilterScalar, RootScalar};
use crate::scalar::{decimal_of_rational, Exact, ExactValues, Scalar};
use crate::vclip::contract::distance_magnitude;
use crate::vclip::{feature_squared_distance, point_squared_distance, vclip_prechecked, Status};

/// The format's name of a status.
pub fn status_name(s: Status) -> &'static str {
    match s {
        Status::Separated => "separated",
        Status::Touching => "touching",
        Status::Penetrating => "penetrating",
    }
}

/// `distance` between two convex shapes under their poses.
#[derive(Clone, Debug, PartialEq)]
pub struct Distance<N: Scalar = BigRational> {
    /// Shape a with its pose.
    pub a: Posed<N>,
    /// Shape b with its pose.
    pub b: Posed<N>,
}

impl Distance<f64> {
    /// The query between two solids given in binary64, each a polyhedron of its vertices and
    /// faces, unposed: how the distance contract's property tests and the `vclip_diff` fuzz
    /// target ask [`super::both`] about the pairs they build.
    pub fn between(a: &crate::brep::Solid<f64>, b: &crate::brep::Solid<f64>) -> Self {
        let posed = |name: &str, s: &crate::brep::Solid<f64>| {
            let shape = ShapeSpec::Polyhedron {
                vertices: s.vertices().to_vec(),
                faces: (0..s.face_count()).map(|f| s.face(f).to_vec()).collect(),
            };
            Posed::new(name, shape, PoseSpec::identity())
        };
        Distance { a: posed("a", a), b: posed("b", b) }
    }
}
/// The answer of [`Distance`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceOutput<S: Scalar> {
    /// Separated, touching or penetrating.
    pub status: Status,
    /// The squared distance (0 unless separated).
    pub distance_squared: S,
    /// A feature of a and one of b realising it (format names).
    pub features: [FeatureId; 2],
    /// A closest point on each (equal unless separated; for penetration a point inside both).
    pub points: [Point3<S>; 2],
    /// V-Clip's feature updates from vertex 0 of each shape.
    pub steps: usize,
}

/// A claim on [`Distance`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceClaim {
    /// The claimed status.
    pub status: Option<Status>,
    /// Whether the shapes are claimed to intersect (closed sets: touching or penetrating), as
    /// an engine's boolean intersection test says.
    pub intersecting: Option<bool>,
    /// The claimed squared distance.
    pub distance_squared: Option<BigRational>,
    /// The claimed distance.
    pub distance: Option<BigRational>,
    /// The claimed closest features of a and b.
    pub features: Option<[FeatureId; 2]>,
    /// The claimed closest points on a and b.
    pub points: Option<[Point3<BigRational>; 2]>,
    /// The claimed squared penetration depth (zero unless penetrating): the square of the
    /// shortest translation of b after which the interiors are disjoint, judged against
    /// [`penetration_depth`](super::penetration_depth), exactly.
    pub depth_squared: Option<BigRational>,
}

impl<N: Scalar> Distance<N> {
    fn posed<S: RootScalar>(&self) -> Result<(ConvexPosed<S>, ConvexPosed<S>), QueryError> {
        Ok((posed_convex::<S, _>(&self.a)?, posed_convex::<S, _>(&self.b)?))
    }

    /// The check of claimed closest features: the exact pair, or a pair at the exact distance
    /// (a tie), or for penetrating shapes the answer's own witness pair.
    fn features_check(
        &self,
        out: &DistanceOutput<BigRational>,
        [fa, fb]: &[FeatureId; 2],
    ) -> Result<Check, QueryError> {
        let d2 = &out.distance_squared;
        let (ca, cb) = self.posed::<BigRational>()?;
        let exact_shown = Shown::Features(out.features.to_vec());
        let claimed = Shown::Features(vec![fa.clone(), fb.clone()]);
        let (xa, xb) = (ca.claimed_feature(fa)?, cb.claimed_feature(fb)?);
        let check = match (xa, xb) {
            (Some((sa, xa)), Some((sb, xb))) => {
                let d =
                    feature_squared_distance(sa, &xa, sb, &xb).map_err(|e| QueryError::vclip("/claim/features", e))?;
                let witness = out.status == Status::Penetrating && [fa, fb] == [&out.features[0], &out.features[1]];
                let ok = &d == d2 || witness;
                let check =
                    Check { field: "features".into(), claimed, exact: exact_shown, abs_error: None, ok, note: None };
                if ok && [fa, fb] != [&out.features[0], &out.features[1]] {
                    check.with_note("a different pair that realises the same exact distance (a tie)")
                } else if witness && &d != d2 {
                    check.with_note("the pair at which penetration was found")
                } else if !ok {
                    check.with_note(format!(
                        "these features are {} apart (squared), not {}",
                        decimal_of_rational(&d, 8),
                        decimal_of_rational(d2, 8)
                    ))
                } else {
                    check
                }
            }
            (xa, _) => {
                let (name, f) = if xa.is_none() { ("a", fa) } else { ("b", fb) };
                Check { field: "features".into(), claimed, exact: exact_shown, abs_error: None, ok: false, note: None }
                    .with_note(format!("{f} is not a feature of {name}"))
            }
        };
        Ok(check)
    }

    /// The checks of claimed closest points: each on its shape, then their distance.
    fn points_checks(
        &self,
        out: &DistanceOutput<BigRational>,
        points: &[Point3<BigRational>; 2],
        tol: &Tolerance,
    ) -> Result<Vec<Check>, QueryError> {
        let d2 = &out.distance_squared;
        let (ca, cb) = self.posed::<BigRational>()?;
        let mut v = Vec::new();
        let exact_points = Shown::Points(out.points.to_vec());
        for (k, (p, c)) in points.iter().zip([&ca, &cb]).enumerate() {
            let off = point_squared_distance(&c.built.solid, p).map_err(|e| QueryError::vclip("/claim/points", e))?;
            let ok = off <= &tol.abs * &tol.abs;
            let check = Check {
                field: format!("points/{k}"),
                claimed: Shown::Point(p.clone()),
                exact: Shown::Point(out.points[k].clone()),
                abs_error: Some(Shown::Decimal(crate::scalar::sqrt_decimal_of_rational(&off, 6).unwrap_or_default())),
                ok,
                note: None,
            };
            v.push(if ok { check } else { check.with_note(format!("the point is not on shape {}", ["a", "b"][k])) });
        }
        let gap = crate::geom::norm2(&(&points[0] - &points[1]));
        let ok = tol.admits_sqrt_of(&gap, d2);
        let check = Check {
            field: "points".into(),
            claimed: Shown::Points(points.to_vec()),
            exact: exact_points,
            abs_error: None,
            ok,
            note: None,
        };
        v.push(if ok {
            check
        } else {
            check.with_note(format!(
                "the points are {} apart (squared), the shapes {}",
                decimal_of_rational(&gap, 8),
                decimal_of_rational(d2, 8)
            ))
        });
        Ok(v)
    }
}

/// A decided feature, posed exactly: its vertex, its segment, or its face's plane (short-lived,
/// two per answer: the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
enum Piece {
    V(Point3<Exact>),
    E(Point3<Exact>, Point3<Exact>),
    F(Plane<Exact>),
}

impl<N: Scalar> Distance<N> {
    /// The exact outputs of a decided answer from its features alone: their vertices (inputs
    /// of the shape, by format id) posed exactly, then the closest points V-Clip stops with,
    /// which given the features are unique: a vertex and the closest point of an edge or the
    /// foot on a face's plane (V-Clip stops in vertex–face only over the face), the closest
    /// pair of two non-parallel edges, an edge crossing a face's plane where it meets it (a
    /// penetration), a vertex inside the other shape (V-Clip answers the vertex twice; with
    /// a zero distance the foot is the vertex too). `None` where the points would depend on
    /// V-Clip's path (parallel edges, an edge in a face's plane) or a feature cannot be read:
    /// the caller then verifies with exact V-Clip.
    fn constructed_from<F: FilterScalar>(&self, out: &DistanceOutput<F>) -> Option<DistanceOutput<Exact>> {
        let pa = piece(&self.a, &out.features[0])?;
        let pb = piece(&self.b, &out.features[1])?;
        let separated = out.status == Status::Separated;
        let zero = Exact::from_i64(0);
        let (d, p, q) = match (pa, pb) {
            (Piece::V(p), Piece::V(q)) => (crate::geom::norm2(&(&p - &q)), p, q),
            (Piece::V(p), Piece::E(t, h)) => {
                let (d, c) = crate::vclip::geometry::point_segment(&p, &t, &h).ok()?;
                (d, p, c)
            }
            (Piece::E(t, h), Piece::V(q)) => {
                let (d, c) = crate::vclip::geometry::point_segment(&q, &t, &h).ok()?;
                (d, c, q)
            }
            (Piece::E(t1, h1), Piece::E(t2, h2)) => {
                let (u, v): (Vector3<Exact>, Vector3<Exact>) = (&h1 - &t1, &h2 - &t2);
                if crate::predicates::parallel(&u, &v).ok()? {
                    return None;
                }
                crate::vclip::geometry::segment_segment(&t1, &h1, &t2, &h2).ok()?
            }
            (Piece::V(p), Piece::F(plane)) if separated => {
                let (d, c) = crate::constructions::plane_foot(&p, &plane);
                (d, p, c)
            }
            (Piece::F(plane), Piece::V(q)) if separated => {
                let (d, c) = crate::constructions::plane_foot(&q, &plane);
                (d, c, q)
            }
            (Piece::V(p), Piece::F(_)) | (Piece::F(_), Piece::V(p)) => (zero.clone(), p.clone(), p),
            (Piece::E(t, h), Piece::F(plane)) | (Piece::F(plane), Piece::E(t, h)) if !separated => {
                let (et, eh) = (plane.eval(&t), plane.eval(&h));
                if et == eh {
                    return None;
                }
                let v: Vector3<Exact> = &h - &t;
                let c = &t + v * (et.clone() / (et - eh));
                (zero.clone(), c.clone(), c)
            }
            _ => return None,
        };
        // A distance that is not zero for a contact would contradict the filter (never seen):
        // leave it to the verifying route.
        if !separated && d != zero {
            return None;
        }
        Some(DistanceOutput {
            status: out.status,
            distance_squared: if separated { d } else { zero },
            features: out.features.clone(),
            points: [p, q],
            steps: out.steps,
        })
    }
}

/// The input vertex `id` of a shape as given (a box's corner `id`: bit k set for +h along
/// axis k, as the box is built), on backend `T`.
fn input_vertex<N: Scalar, T: Scalar>(shape: &ShapeSpec<N>, id: usize) -> Option<Point3<T>> {
    let p = |p: &Point3<N>| p.map(|x| x.to_backend::<T>());
    match shape {
        ShapeSpec::Box(h) if id < 8 => {
            let c = |axis: usize| {
                let x = h[axis].to_backend::<T>();
                if id >> axis & 1 == 1 {
                    x
                } else {
                    -x
                }
            };
            Some(Point3::new(c(0), c(1), c(2)))
        }
        ShapeSpec::Box(_) => None,
        ShapeSpec::Polyhedron { vertices, .. } | ShapeSpec::ConvexHull(vertices) => vertices.get(id).map(p),
        ShapeSpec::File { mesh, .. } => mesh.vertices.get(id).map(p),
        ShapeSpec::Ball(_)
        | ShapeSpec::Capsule { .. }
        | ShapeSpec::Round { .. }
        | ShapeSpec::Torus { .. }
        | ShapeSpec::Cylinder { .. }
        | ShapeSpec::Implicit { .. }
        | ShapeSpec::Bezier { .. } => None,
    }
}

/// V-Clip's cold start: the vertex of each solid farthest towards the other's centroid, computed
/// in binary64 from the query's input numbers (its shapes and poses), so that every backend
/// starts from the same pair and takes the same path (the filter's decided features are then
/// the reference's, ties included). `None` (vertex 0 of each) when binary64 cannot say.
/// Starting near the closest pair shortens the walk: box pairs under 20,000 random poses took
/// 6.7 steps on average from vertex 0 and take 3.6 from here.
fn start_hint<N: Scalar, S: Scalar>(
    pa: &Posed<N>,
    ca: &ConvexPosed<S>,
    pb: &Posed<N>,
    cb: &ConvexPosed<S>,
) -> Option<(Feature, Feature)> {
    // The float run's own posed vertices where the backend carries them (`f64`, values with
    // bounds), else the binary64 posing computed here.
    let carried = |c: &ConvexPosed<S>| -> Option<Vec<[f64; 3]>> {
        c.built.solid.vertices.iter().map(|q| Some([q.x.float_run()?, q.y.float_run()?, q.z.float_run()?])).collect()
    };
    let posed = |p: &Posed<N>, c: &ConvexPosed<S>| -> Option<Vec<[f64; 3]>> {
        if let Some(v) = carried(c) {
            return Some(v);
        }
        let map = p.pose.affine::<f64>().ok()?;
        let at = |id| input_vertex::<N, f64>(&p.shape, id).map(|v| map.apply_point(&v)).map(|q| [q.x, q.y, q.z]);
        c.built.ids.iter().map(|&id| at(id)).collect()
    };
    let (va, vb) = (posed(pa, ca)?, posed(pb, cb)?);
    let centroid = |v: &[[f64; 3]]| -> [f64; 3] {
        let n = v.len() as f64;
        [0, 1, 2].map(|k| v.iter().map(|p| p[k]).sum::<f64>() / n)
    };
    let (ga, gb) = (centroid(&va), centroid(&vb));
    let d = [gb[0] - ga[0], gb[1] - ga[1], gb[2] - ga[2]];
    // The first vertex of the largest dot product (the same one on every machine: plain
    // binary64 arithmetic, no fused operations).
    let extreme = |v: &[[f64; 3]], sign: f64| -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, p) in v.iter().enumerate() {
            let x = sign * (p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
            if !x.is_finite() {
                return None;
            }
            if best.is_none_or(|(_, b)| x > b) {
                best = Some((i, x));
            }
        }
        best.map(|(i, _)| i)
    };
    Some((Feature::Vertex(extreme(&va, 1.0)?), Feature::Vertex(extreme(&vb, -1.0)?)))
}

/// A decided feature of a posed shape, posed exactly (a face by the plane of three of its
/// vertices that are not collinear).
fn piece<N: Scalar>(posed: &Posed<N>, id: &FeatureId) -> Option<Piece> {
    // M·p / n + t: one division per coordinate (the rotation's entries divided first carried
    // |q|²'s odd part through every product and sum); an unposed shape is not mapped.
    let posing = if posed.pose.is_identity() { None } else { Some(posed.pose.numerators::<Exact>().ok()?) };
    let at = |i: usize| {
        input_vertex::<N, Exact>(&posed.shape, i).map(|p| match &posing {
            None => p,
            Some((map, n)) => Point3::from(map.apply_vector(&p.coords).map(|x| x / n.clone()) + &map.translation),
        })
    };
    Some(match id {
        FeatureId::Vertex(i) => Piece::V(at(*i)?),
        FeatureId::Edge(i, j) => Piece::E(at(*i)?, at(*j)?),
        FeatureId::Face(ids) => {
            let p0 = at(*ids.first()?)?;
            // Under a quaternion, M = |q|²·R with R a rotation, so the posed face's normal
            // R·a × R·b = R·(a × b) has the positive multiple M·(a × b): the input vertices'
            // cross product posed by the undivided matrix, with no denominator (the cross
            // product of posed edges is held over |q|⁴, a factor the output's lowest terms
            // then had to find). The plane is the same. Other poses (a matrix, which need not
            // be a rotation) take the posed vertices' cross product.
            let quaternion = matches!(posed.pose, PoseSpec::Quaternion { .. });
            let rotation = posing.as_ref().filter(|_| quaternion).map(|(map, _)| map);
            let corner = |i: usize| match rotation {
                Some(_) => input_vertex::<N, Exact>(&posed.shape, i),
                None => at(i),
            };
            let c0 = if rotation.is_some() { corner(*ids.first()?)? } else { p0.clone() };
            let u: Vector3<Exact> = &corner(*ids.get(1)?)? - &c0;
            let plane = ids[2..].iter().find_map(|&k| {
                let n = u.cross(&(&corner(k)? - &c0));
                match crate::geom::is_zero_vector(&n) {
                    Ok(false) => Plane::through_point(
                        &p0,
                        match rotation {
                            Some(m) => m.apply_vector(&n),
                            None => n,
                        },
                    )
                    .ok(),
                    _ => None,
                }
            })?;
            Piece::F(plane)
        }
    })
}

impl<N: Scalar> Query for Distance<N> {
    const OP: &'static str = "distance";
    const AGREES_ON_FILTER: bool = true;
    type Output<S: RootScalar> = DistanceOutput<S>;
    type Discrete = Status;
    type Claim = DistanceClaim;

    /// The intervals decide the status, the closest features and the steps; the exact squared
    /// distance and points are then V-Clip's on the exactly posed shapes, warm-started from
    /// the decided features: the same state, so it stops at once with the reference's values
    /// (checked: anything else falls back to the full exact run).
    const FILTERED: bool = true;

    fn exact_from_filter<F: FilterScalar>(
        &self,
        decided: &Answer<F, Self>,
    ) -> Option<Result<Answer<Exact, Self>, QueryError>> {
        let out = &decided.output;
        // Most answers: only the decided features' vertices are posed exactly, and the
        // outputs built from them (they are unique given the features).
        if let Some(o) = self.constructed_from(out) {
            return Some(Ok(Answer::plain(o)));
        }
        let construct = || -> Result<Answer<Exact, Self>, QueryError> {
            let (ca, cb) = self.posed::<Exact>()?;
            let mismatch =
                || QueryError::new(super::ErrorKind::Internal, "", "the filter's answer is not the exact one");
            let (Some(fa), Some(fb)) = (ca.feature_of(&out.features[0])?, cb.feature_of(&out.features[1])?) else {
                return Err(mismatch());
            };
            let r = vclip_prechecked(&ca.built.solid, &cb.built.solid, Some((fa, fb)))
                .map_err(|e| QueryError::vclip("/op", e))?;
            let c = r.closest;
            let features = [ca.feature_id(&c.features.0)?, cb.feature_id(&c.features.1)?];
            if r.steps != 0 || c.status != out.status || features != out.features {
                return Err(mismatch());
            }
            Ok(Answer::plain(DistanceOutput {
                status: c.status,
                distance_squared: c.squared_distance,
                features,
                points: [c.points.0, c.points.1],
                steps: out.steps,
            }))
        };
        Some(construct())
    }

    fn reference(o: DistanceOutput<Exact>) -> DistanceOutput<BigRational> {
        let [p, q] = o.points;
        DistanceOutput {
            status: o.status,
            distance_squared: value_reference(o.distance_squared),
            features: o.features,
            points: [point_reference(p), point_reference(q)],
            steps: o.steps,
        }
    }

    fn compute<S: RootScalar>(&self) -> Result<Answer<S, Self>, QueryError> {
        let (ca, cb) = self.posed::<S>()?;
        let (a, b) = (&ca.built.solid, &cb.built.solid);
        // posed_convex checked strict convexity (on the shapes as built: an invariant of poses).
        let start = start_hint(&self.a, &ca, &self.b, &cb);
        let r = vclip_prechecked(a, b, start).map_err(|e| QueryError::vclip("/op", e))?;
        let c = r.closest;
        let features = [ca.feature_id(&c.features.0)?, cb.feature_id(&c.features.1)?];
        let magnitude = distance_magnitude(a, b);
        let d2 = c.squared_distance.clone();
        Ok(Answer {
            output: DistanceOutput {
                status: c.status,
                distance_squared: d2.clone(),
                features,
                points: [c.points.0, c.points.1],
                steps: r.steps,
            },
            decisive: vec![
                Decisive::Test(Scaled { value: d2.clone(), magnitude: magnitude.clone() }),
                Decisive::Test(ca.pose_determinant.clone()),
                Decisive::Test(cb.pose_determinant.clone()),
            ],
            continuous: vec![Bounded::new("distance_squared", d2, magnitude)],
        })
    }

    /// The margin of the answer's tests and of the posed shapes' own: each face's area (its
    /// Newell normal) and the volume. A valid shape under an invertible pose is exactly a
    /// valid solid, but far from the origin (a unit box translated by 10¹⁵) its faces are
    /// relatively tiny and `f64` may collapse them: it then refuses with
    /// [`ErrorKind::Precision`](super::ErrorKind::Precision), which is admissible within the
    /// budget of these tests.
    fn margin(&self, exact: &Answer<BigRational, Self>) -> Result<crate::contract::Margin, QueryError> {
        let margin = super::margin_of(&exact.decisive);
        Ok(match self.posed::<Exact>() {
            Ok((ca, cb)) => margin.min(posed_shapes_margin(&ca, &cb)),
            Err(_) => margin,
        })
    }

    fn discrete<S: RootScalar>(o: &DistanceOutput<S>) -> Status {
        o.status
    }

    fn valid_within_tolerance(_: &Status, _: &Status) -> bool {
        // Within the budget of zero distance, touching, penetrating and separated are all
        // admissible; the squared distance is still checked as a continuous output.
        true
    }

    /// Features pass when the exact distance between them is the exact optimum (any of several
    /// tied pairs, e.g. on parallel faces); for penetrating shapes, also the answer's own pair,
    /// the witness V-Clip stopped at (a vertex inside the other shape under its face is not at
    /// distance zero from it). Points pass when each lies in its (closed) shape within
    /// `tolerance.abs` and their distance is within the tolerance of the exact distance.
    const CLAIM_RULES: &'static [ClaimRule<Self>] = &[
        judged!(status: equal |s: &Status| Shown::Text(status_name(*s).into()), |out| out.status;
            enclosed equal |out| out.status),
        judged!(intersecting: equal |b: &bool| Shown::Bool(*b), |out| out.status != Status::Separated;
            enclosed equal |out| out.status != Status::Separated),
        judged!(distance_squared: number, |out| out.distance_squared;
            enclosed number |out| out.distance_squared),
        judged!(distance: |_, exact, x, _, tol, digits| {
            Ok(vec![Check::sqrt("distance", x, &exact.output.distance_squared, tol, digits)])
        }; enclosed |_, decided, x, _, tol| tol.admits_sqrt_enclosed(x, &decided.output.distance_squared)),
        judged!(depth_squared: |q, _, x, _, tol, _| {
            let depth = super::penetration_depth(&q.a, &q.b)?;
            Ok(vec![Check::number("depth_squared", x, &depth.depth_squared, tol)])
        }),
        // The decided pair only: another may be a tie.
        judged!(features: |q, exact, pair, _, _, _| Ok(vec![q.features_check(&exact.output, pair)?]);
            enclosed |_, decided, pair, _, _| (*pair == decided.output.features).then_some(true)),
        judged!(points: |q, exact, points, _, tol, _| q.points_checks(&exact.output, points, tol)),
    ];
}

/// The margin of two posed shapes' own tests: each face's area (its Newell normal), the volume
/// (a pose can bring a valid shape within `f64`'s tolerance of a degenerate one) and each
/// edge's convexity (rounding can make an edge flat or reflex: `f64` then refuses a shape that
/// is strictly convex exactly, which is admissible within the budget of that edge's test).
/// On any exact backend (the ops pose the shapes on [`Exact`], the fast one): the same value.
pub(super) fn posed_shapes_margin<S: ExactValues>(ca: &ConvexPosed<S>, cb: &ConvexPosed<S>) -> crate::contract::Margin {
    posed_shape_margin(ca).min(posed_shape_margin(cb))
}

/// [`posed_shapes_margin`] of one posed shape.
pub(super) fn posed_shape_margin<S: ExactValues>(c: &ConvexPosed<S>) -> crate::contract::Margin {
    let s = &c.built.solid;
    let mut tests = solid_tests(s);
    tests.extend((0..s.edge_count()).map(|e| Decisive::Test(s.edge_convexity_scaled(e))));
    super::margin_of_exact(&tests)
}

/// The margin of a posed solid's own tests: each face's area (its Newell normal) and the
/// volume. A pose that keeps a valid shape valid exactly may still make it so thin, relative
/// to its coordinates, that binary64 collapses it (a box under a matrix with a column of
/// 10⁻³⁰⁰): the `f64` path's `precision` refusal is then admissible.
pub(super) fn solid_margin<S: ExactValues>(s: &crate::brep::Solid<S>) -> crate::contract::Margin {
    super::margin_of_exact(&solid_tests(s))
}

/// The tests of [`solid_margin`].
fn solid_tests<S: ExactValues>(s: &crate::brep::Solid<S>) -> Vec<Decisive<S>> {
    s.area_tests().into_iter().map(Decisive::AllOf).chain(std::iter::once(Decisive::Test(s.posed_volume6()))).collect()
}
