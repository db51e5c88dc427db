//! The inputs of queries, exactly as given: shapes, poses, planes, and the names of features.
//!
//! Every spec holds the input numbers as given, in a scalar type `N`: `BigRational` (the
//! default; a binary64 input is its exact dyadic value) or `f64` (the float path, which reads
//! numbers straight into binary64 and never makes a big number). Each backend builds its own
//! geometry from the same numbers ([`Scalar::to_backend`]): exactly, or rounding each input
//! number once.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::error::{child, ErrorKind, QueryError};
use crate::brep::io::Mesh;
use crate::brep::{convex_hull, shapes, Feature, Solid};
use crate::geom::{mat_vec, Affine, Matrix3, Plane, Point3, Scaled, Vector3};
use crate::predicates::orient3d_scaled;
use crate::scalar::{Exact, Scalar, Sign};
use crate::separation::Parallels;
use crate::vclip::{strict_convexity, StrictConvexity, VClipError};

/// Input numbers converted to a backend (rounded once for an inexact one).
pub fn to_backend<S: Scalar>(p: &Point3<impl Scalar>) -> Point3<S> {
    p.map(|c| c.to_backend::<S>())
}

/// A pose exactly as given.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per query
pub enum PoseSpec<N: Scalar = BigRational> {
    /// `v ↦ q v q̄ / |q|² + t`: q = (w, x, y, z) nonzero, not necessarily unit.
    Quaternion {
        /// (w, x, y, z), nonzero.
        q: [N; 4],
        /// The translation.
        t: [N; 3],
    },
    /// `[[r00, r01, r02, t0], [r10, ...], [r20, ...]]`, an invertible affine map.
    Matrix([[N; 4]; 3]),
}

impl<N: Scalar> Default for PoseSpec<N> {
    fn default() -> Self {
        PoseSpec::identity()
    }
}

impl<N: Scalar> PoseSpec<N> {
    /// The identity pose.
    pub fn identity() -> Self {
        let z = N::zero;
        PoseSpec::Quaternion { q: [N::one(), z(), z(), z()], t: [z(), z(), z()] }
    }

    /// Whether this is exactly the identity: a quaternion (w, 0, 0, 0) with no translation, or
    /// the identity matrix (decided exactly on the input numbers).
    pub fn is_identity(&self) -> bool {
        let is = |x: &N, s: Sign| x.sign() == Ok(s);
        match self {
            PoseSpec::Quaternion { q, t } => {
                !is(&q[0], Sign::Zero) && q[1..].iter().chain(t).all(|x| is(x, Sign::Zero))
            }
            PoseSpec::Matrix(rows) => rows.iter().enumerate().all(|(i, r)| {
                r.iter().enumerate().all(|(j, x)| {
                    if i == j {
                        (x.clone() - N::one()).sign() == Ok(Sign::Zero)
                    } else {
                        is(x, Sign::Zero)
                    }
                })
            }),
        }
    }

    /// A rotation by the quaternion `q` then a translation by `t`; a zero quaternion is
    /// [`ErrorKind::Invalid`].
    pub fn quaternion(q: [N; 4], t: [N; 3]) -> Result<Self, QueryError> {
        if q.iter().all(|x| x.sign() == Ok(Sign::Zero)) {
            return Err(QueryError::new(ErrorKind::Invalid, "/quaternion", "the quaternion is zero: no rotation"));
        }
        Ok(PoseSpec::Quaternion { q, t })
    }

    /// An affine map by its three rows; a singular one is [`ErrorKind::Invalid`].
    pub fn matrix(rows: [[N; 4]; 3]) -> Result<Self, QueryError> {
        let spec = PoseSpec::Matrix(rows);
        spec.affine::<N>().and_then(|a| a.check_invertible()).map_err(|e| {
            QueryError::new(ErrorKind::Invalid, "/matrix", format!("the pose matrix is not invertible: {e}"))
        })?;
        Ok(spec)
    }

    /// Whether the pose is a rigid motion (distances kept), decided exactly on the input
    /// numbers: a quaternion always (the rotation by q/|q|), a matrix when its linear part is
    /// orthogonal (RRᵀ = I). Round shapes need one: a matrix that scales or shears would make a
    /// ball an ellipsoid.
    pub fn is_rigid(&self) -> bool {
        let PoseSpec::Matrix(rows) = self else { return true };
        let Some(r) = rows
            .iter()
            .map(|row| row[..3].iter().map(|x| x.to_rational()).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        (0..3).all(|i| {
            (0..3).all(|j| {
                let dot: BigRational = (0..3).map(|k| &r[i][k] * &r[j][k]).sum();
                dot == BigRational::from_integer(i64::from(i == j).into())
            })
        })
    }

    /// The transform on an exact backend `S` as p ↦ M·p / n + t, undivided: the affine map
    /// with linear part M and translation t, and n (a quaternion's
    /// [`quaternion_numerators`](crate::geom::quaternion_numerators); a matrix's rows over
    /// n = 1). [`PoseSpec::affine`]'s map with one division per posed coordinate.
    pub fn numerators<S: Scalar>(&self) -> Result<(Affine<S>, S), crate::GeomError> {
        match self {
            PoseSpec::Quaternion { q, t } => {
                let c = |x: &N| x.to_backend::<S>();
                let (m, n) = crate::geom::quaternion_numerators(&q.each_ref().map(c))?;
                Ok((Affine { linear: m, translation: Vector3::new(c(&t[0]), c(&t[1]), c(&t[2])) }, n))
            }
            PoseSpec::Matrix(_) => Ok((self.affine::<S>()?, S::one())),
        }
    }

    /// The transform on backend `S`.
    pub fn affine<S: Scalar>(&self) -> Result<Affine<S>, crate::GeomError> {
        let c = |x: &N| x.to_backend::<S>();
        match self {
            PoseSpec::Quaternion { q, t } => {
                Affine::from_quaternion(&q.each_ref().map(c), Vector3::new(c(&t[0]), c(&t[1]), c(&t[2])))
            }
            PoseSpec::Matrix(rows) => Ok(Affine::from_rows(&rows.each_ref().map(|r| r.each_ref().map(c)))),
        }
    }
}

/// A Bézier patch as given: its degree [m, n], its control points row by row, their weights
/// (all 1 when absent).
pub type PatchSpec<N> = ([usize; 2], Vec<Point3<N>>, Option<Vec<N>>);

/// A shape as given.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec<N: Scalar = BigRational> {
    /// An axis-aligned box centred at the origin, by its (positive) half extents; vertex
    /// `i = (x>0) + 2(y>0) + 4(z>0)`.
    Box([N; 3]),
    /// Vertices and counter-clockwise faces (seen from outside), ids = input indices.
    Polyhedron {
        /// The vertices.
        vertices: Vec<Point3<N>>,
        /// Each face's vertex indices.
        faces: Vec<Vec<usize>>,
    },
    /// The exact convex hull of the points; vertex ids are input indices of extreme points.
    ConvexHull(Vec<Point3<N>>),
    /// A mesh read from a file (ids in file order).
    File {
        /// The path as resolved.
        path: std::path::PathBuf,
        /// The mesh, read into `N` (exactly, or as binary64 values).
        mesh: Mesh<N>,
    },
    /// A ball of positive radius centred at the origin (a round shape: answered by `distance`
    /// only so far; see [`crate::round`]).
    Ball(N),
    /// The segment `a`–`b` swept by a ball of positive `radius` (a round shape; its core
    /// features are vertex 0 = `a`, vertex 1 = `b` and edge [0, 1]).
    Capsule {
        /// One end of the core segment.
        a: Point3<N>,
        /// The other end.
        b: Point3<N>,
        /// The radius.
        radius: N,
    },
    /// A convex shape (box, polyhedron, convex hull or file) swept by a ball of `radius` ≥ 0
    /// (a round shape; its core features are the shape's).
    Round {
        /// The core.
        shape: std::boxed::Box<ShapeSpec<N>>,
        /// The radius.
        radius: N,
    },
    /// A solid torus: the points within `minor` of the circle of radius `major` about `axis`
    /// through `center` (0 < minor < major; a round shape with a circle core, see
    /// [`crate::round::torus`]).
    Torus {
        /// The circle's centre.
        center: Point3<N>,
        /// The circle's axis (nonzero, any length).
        axis: Vector3<N>,
        /// The major radius.
        major: N,
        /// The minor (tube) radius.
        minor: N,
    },
    /// An implicit solid {p : f(p) ≤ 0} inside the box [`lo`, `hi`], f = Σ c·xⁱyʲzᵏ with
    /// rational coefficients (a curved solid, [`crate::curved`]: answered by `distance` with a
    /// certified status).
    Implicit {
        /// The terms (coefficient, exponents [i, j, k]), as given.
        terms: Vec<(N, [u32; 3])>,
        /// The box's low corner.
        lo: Point3<N>,
        /// The box's high corner.
        hi: Point3<N>,
    },
    /// A solid bounded by closed rational Bézier patches (a curved solid,
    /// [`crate::curved::BezierSolid`]: answered by `distance` with a certified status).
    Bezier {
        /// Each patch: its degree [m, n], its (m + 1)(n + 1) control points row by row, and
        /// their weights (all 1 when absent).
        patches: Vec<PatchSpec<N>>,
    },
    /// A solid cylinder: the points within `radius` of the segment `a`–`b`'s line whose
    /// projection falls on the segment (flat caps; see [`crate::round::cylinder`]).
    Cylinder {
        /// The centre of one cap.
        a: Point3<N>,
        /// The centre of the other.
        b: Point3<N>,
        /// The radius.
        radius: N,
    },
}

impl<N: Scalar> ShapeSpec<N> {
    /// A box; a non-positive half extent is [`ErrorKind::Invalid`] at `/box/i`.
    pub fn cuboid(half: [N; 3]) -> Result<Self, QueryError> {
        if let Some(i) = half.iter().position(|h| h.sign() != Ok(Sign::Positive)) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                &format!("/box/{i}"),
                "a box half extent must be positive",
            ));
        }
        Ok(ShapeSpec::Box(half))
    }

    /// The key of the shape's form in the format (`box`, `polyhedron`, `convex_hull`, `file`).
    pub fn key(&self) -> &'static str {
        match self {
            ShapeSpec::Box(_) => "box",
            ShapeSpec::Polyhedron { .. } => "polyhedron",
            ShapeSpec::ConvexHull(_) => "convex_hull",
            ShapeSpec::File { .. } => "file",
            ShapeSpec::Ball(_) => "ball",
            ShapeSpec::Capsule { .. } => "capsule",
            ShapeSpec::Round { .. } => "round",
            ShapeSpec::Torus { .. } => "torus",
            ShapeSpec::Cylinder { .. } => "cylinder",
            ShapeSpec::Implicit { .. } => "implicit",
            ShapeSpec::Bezier { .. } => "bezier",
        }
    }

    /// Whether this is a round shape (a ball, a capsule or a rounded convex shape): one that
    /// only the round shapes' ops take (`distance` so far), not a polyhedral solid.
    pub fn is_round(&self) -> bool {
        matches!(
            self,
            ShapeSpec::Ball(_) | ShapeSpec::Capsule { .. } | ShapeSpec::Round { .. } | ShapeSpec::Torus { .. }
        )
    }

    /// A torus; a zero axis is [`ErrorKind::Invalid`] at `/torus/axis`, a minor radius that is
    /// not positive or not below the major one at `/torus/minor`.
    pub fn torus(center: Point3<N>, axis: Vector3<N>, major: N, minor: N) -> Result<Self, QueryError> {
        if axis.iter().all(|x| x.sign() == Ok(Sign::Zero)) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/torus/axis",
                "a torus's axis must not be the zero vector",
            ));
        }
        positive_radius(&minor, "/torus/minor", "a torus's minor radius")?;
        if major.compare(&minor) != Ok(std::cmp::Ordering::Greater) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/torus/minor",
                "a torus's minor radius must be below its major radius (a torus with a hole)",
            ));
        }
        Ok(ShapeSpec::Torus { center, axis, major, minor })
    }

    /// Whether this is a cylinder (answered by [`crate::query::DistanceCylinder`] only).
    pub fn is_cylinder(&self) -> bool {
        matches!(self, ShapeSpec::Cylinder { .. })
    }

    /// A cylinder; a radius that is not positive is [`ErrorKind::Invalid`] at
    /// `/cylinder/radius`, equal ends at `/cylinder/b`.
    pub fn cylinder(a: Point3<N>, b: Point3<N>, radius: N) -> Result<Self, QueryError> {
        positive_radius(&radius, "/cylinder/radius", "a cylinder's radius")?;
        if crate::scalar::compare_points(&a, &b) == Ok(std::cmp::Ordering::Equal) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/cylinder/b",
                "a cylinder's ends coincide: it has no height",
            ));
        }
        Ok(ShapeSpec::Cylinder { a, b, radius })
    }

    /// An implicit solid {f ≤ 0} in the box [`lo`, `hi`]: more than
    /// [`crate::curved::poly3::MAX_INPUT_TERMS`] terms is a [`ErrorKind::Limit`] at
    /// `/implicit/poly`, a term's degree above [`crate::curved::poly3::MAX_INPUT_DEGREE`] at
    /// `/implicit/poly/k/1`; a box with `lo ≥ hi` on an axis is [`ErrorKind::Invalid`] at
    /// `/implicit/bounds/1`.
    pub fn implicit(terms: Vec<(N, [u32; 3])>, lo: Point3<N>, hi: Point3<N>) -> Result<Self, QueryError> {
        use crate::curved::poly3::{MAX_INPUT_DEGREE, MAX_INPUT_TERMS};
        if terms.len() > MAX_INPUT_TERMS {
            return Err(QueryError::new(
                ErrorKind::Limit,
                "/implicit/poly",
                format!("{} terms exceed the limit of {MAX_INPUT_TERMS}", terms.len()),
            ));
        }
        for (k, (_, e)) in terms.iter().enumerate() {
            let degree: u64 = e.iter().map(|&x| u64::from(x)).sum();
            if degree > u64::from(MAX_INPUT_DEGREE) {
                return Err(QueryError::new(
                    ErrorKind::Limit,
                    &format!("/implicit/poly/{k}/1"),
                    format!("term {k} has total degree {degree}, over the limit of {MAX_INPUT_DEGREE}"),
                ));
            }
        }
        for axis in 0..3 {
            if lo[axis].compare(&hi[axis]) != Ok(std::cmp::Ordering::Less) {
                return Err(QueryError::new(
                    ErrorKind::Invalid,
                    "/implicit/bounds/1",
                    format!("the bounds are empty on axis {axis}: the low corner must be below the high one"),
                ));
            }
        }
        Ok(ShapeSpec::Implicit { terms, lo, hi })
    }

    /// A ball; a radius that is not positive is [`ErrorKind::Invalid`] at `/ball`.
    pub fn ball(radius: N) -> Result<Self, QueryError> {
        positive_radius(&radius, "/ball", "a ball's radius")?;
        Ok(ShapeSpec::Ball(radius))
    }

    /// A capsule; a radius that is not positive is [`ErrorKind::Invalid`] at
    /// `/capsule/radius`, equal ends at `/capsule/b`.
    pub fn capsule(a: Point3<N>, b: Point3<N>, radius: N) -> Result<Self, QueryError> {
        positive_radius(&radius, "/capsule/radius", "a capsule's radius")?;
        if crate::scalar::compare_points(&a, &b) == Ok(std::cmp::Ordering::Equal) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/capsule/b",
                "a capsule's ends coincide: it is a ball (write {\"ball\": r} under a pose)",
            ));
        }
        Ok(ShapeSpec::Capsule { a, b, radius })
    }

    /// A convex shape swept by a ball of `radius` ≥ 0; a negative radius is
    /// [`ErrorKind::Invalid`] at `/round/radius`, a core that is itself round at
    /// `/round/shape`.
    pub fn rounded(shape: ShapeSpec<N>, radius: N) -> Result<Self, QueryError> {
        if !matches!(radius.sign(), Ok(Sign::Positive | Sign::Zero)) {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/round/radius",
                "a rounded shape's radius must not be negative",
            ));
        }
        if shape.is_round() {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                "/round/shape",
                format!("the core of a rounded shape is a box, polyhedron, convex_hull or file, not a {}", shape.key()),
            ));
        }
        Ok(ShapeSpec::Round { shape: std::boxed::Box::new(shape), radius })
    }
}

fn positive_radius<N: Scalar>(r: &N, at: &str, what: &str) -> Result<(), QueryError> {
    if r.sign() != Ok(Sign::Positive) {
        return Err(QueryError::new(ErrorKind::Invalid, at, format!("{what} must be positive")));
    }
    Ok(())
}

/// A shape built as a solid on backend `S`, with the format's id of each of its vertices.
#[derive(Clone, Debug)]
pub struct BuiltSolid<S: Scalar> {
    /// The solid.
    pub solid: Solid<S>,
    /// `ids[v]` is solid vertex `v`'s id in the format (an input index).
    pub ids: Vec<usize>,
}

/// Build the solid of a shape on backend `S`; `at` is the shape's path in the query (errors
/// name the element under it, e.g. `/a/polyhedron/faces/3`).
pub fn build_solid<S: Scalar, N: Scalar>(spec: &ShapeSpec<N>, at: &str) -> Result<BuiltSolid<S>, QueryError> {
    let key = child(at, spec.key());
    match spec {
        ShapeSpec::Box(h) => {
            let [x, y, z] = h.each_ref().map(|x| x.to_backend::<S>());
            let solid = shapes::cuboid(x, y, z).map_err(|e| QueryError::brep(&key, e))?;
            Ok(BuiltSolid { solid, ids: (0..8).collect() })
        }
        ShapeSpec::Polyhedron { vertices, faces } => {
            let solid = Solid::new(vertices.iter().map(to_backend).collect(), faces.clone())
                .map_err(|e| QueryError::brep(&key, e))?;
            Ok(BuiltSolid { ids: (0..solid.vertex_count()).collect(), solid })
        }
        ShapeSpec::File { path, mesh } => {
            let solid = mesh.to_solid::<S>().map_err(|e| {
                let mut q = QueryError::brep(&key, e);
                // The path of an element inside a file is the file's: name the file instead.
                q.message = format!("{}: {}", path.display(), q.message);
                q.at = key.clone();
                q
            })?;
            Ok(BuiltSolid { ids: (0..solid.vertex_count()).collect(), solid })
        }
        ShapeSpec::ConvexHull(points) => {
            let pts: Vec<Point3<S>> = points.iter().map(to_backend).collect();
            let hull = convex_hull(&pts).map_err(|e| QueryError::hull(&key, e))?;
            Ok(BuiltSolid { solid: hull.solid, ids: hull.input_index })
        }
        // Rounding by 0 leaves the shape itself.
        ShapeSpec::Round { shape, radius } if *radius == N::zero() => build_solid(shape, &key),
        ShapeSpec::Ball(_) | ShapeSpec::Capsule { .. } | ShapeSpec::Round { .. } | ShapeSpec::Torus { .. } => Err(QueryError::new(
            ErrorKind::Unsupported,
            &key,
            format!(
                "a {} is a round shape, not a polyhedral solid: this version answers round shapes in distance and toi only",
                spec.key()
            ),
        )),
        ShapeSpec::Cylinder { .. } => Err(QueryError::new(
            ErrorKind::Unsupported,
            &key,
            "a cylinder is a curved solid, not a polyhedral one: this version answers a cylinder in distance against a ball only",
        )),
        ShapeSpec::Implicit { .. } | ShapeSpec::Bezier { .. } => Err(QueryError::new(
            ErrorKind::Unsupported,
            &key,
            format!("a {} solid is curved, not polyhedral: this version answers it in distance only (a certified status)", spec.key()),
        )),
    }
}

/// A shape with its pose, and where each is in the query (for error paths).
#[derive(Clone, Debug, PartialEq)]
pub struct Posed<N: Scalar = BigRational> {
    /// The shape.
    pub shape: ShapeSpec<N>,
    /// Its pose.
    pub pose: PoseSpec<N>,
    /// The shape's path (`/a`).
    pub at: String,
    /// The pose's path (`/pose_a`).
    pub pose_at: String,
}

impl<N: Scalar> Posed<N> {
    /// `shape` under `pose`, named `name` in the query (`"a"` gives paths `/a` and `/pose_a`).
    pub fn new(name: &str, shape: ShapeSpec<N>, pose: PoseSpec<N>) -> Self {
        Posed { shape, pose, at: format!("/{name}"), pose_at: format!("/pose_{name}") }
    }
}

/// A convex shape posed in the world and made strictly convex, with the format ids.
#[derive(Clone, Debug)]
pub struct ConvexPosed<S: Scalar> {
    /// The strictly convex solid (coplanar faces merged through the exact hull of the
    /// vertices, which keeps their format ids) with the format id of each of its vertices.
    pub built: BuiltSolid<S>,
    /// When faces were merged: every vertex of the shape as given (some are no corners of the
    /// merged solid), to name a merged face by all the shape's vertices on it.
    pub all: Option<BuiltSolid<S>>,
    /// The pose's determinant with its magnitude (the permanent): a decision of the answer
    /// (a pose within a tolerance of singular is refused by a tolerant backend).
    pub pose_determinant: Scaled<S>,
    /// The solid's repeated separating axes (a box's parallel faces and edges; none known for
    /// other shapes).
    pub parallels: Parallels,
}

/// A box's repeated axes: its topology is the same on every backend and under every pose, so
/// they are found once, on the unit cube in binary64 (where every test is exact).
fn box_parallels() -> Parallels {
    static BOX: std::sync::OnceLock<Parallels> = std::sync::OnceLock::new();
    BOX.get_or_init(|| shapes::cuboid(1.0f64, 1.0, 1.0).map(|c| Parallels::of(&c)).unwrap_or_default()).clone()
}

/// Build, pose and check convex a shape; merge coplanar faces (V-Clip needs strict convexity).
pub fn posed_convex<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<ConvexPosed<S>, QueryError> {
    let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let det = map.check_invertible().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let pose_determinant = pose_determinant(&map);
    charge_pose_bits::<S, N>(p)?;
    if let (ShapeSpec::Box(h), Sign::Positive) = (&p.shape, det) {
        // The common case, directly: a box's corners posed, with the cube's topology (a box is
        // strictly convex, and a positive pose keeps it so).
        let key = child(&p.at, "box");
        let h = h.each_ref().map(|x| x.to_backend::<S>());
        if let Some(i) = h.iter().position(|x| x.sign() != Ok(Sign::Positive)) {
            return Err(QueryError::new(ErrorKind::Invalid, &child(&key, i), "a box half extent must be positive"));
        }
        // The determinant was decided positive: on a backend with certain decisions the posed
        // box is a valid solid exactly, unchecked.
        let solid = if p.pose.is_identity() {
            let [x, y, z] = h;
            shapes::cuboid(x, y, z)
        } else {
            shapes::cuboid_posed_decided(h, |v| map.apply_point(&v))
        }
        .map_err(|e| posed_error::<S, N>(p, e))?;
        return Ok(ConvexPosed {
            built: BuiltSolid { solid, ids: (0..8).collect() },
            all: None,
            pose_determinant,
            parallels: box_parallels(),
        });
    }
    // The shape as given, validated, and its convexity: properties of the input, invariant
    // under an invertible affine map, so decided once on the shape as built. On intervals they
    // are decided exactly (the fast exact backend) and the solid is carried over unchecked:
    // an interval cannot decide an exactly planar face whose coordinates are not doubles.
    let (built, strict) = if S::FILTER {
        // First on the backend itself (a hull of doubles in general position is decided in
        // binary64 bounds); whatever it could not decide, on the exact backend.
        match built_convex::<S, N>(p) {
            Ok((b, strict @ (Ok(()) | Err(VClipError::FlatEdge { .. } | VClipError::StraightVertex { .. })))) => {
                (b, strict)
            }
            _ => {
                let (exact, strict) = built_convex::<crate::scalar::Exact, N>(p)?;
                let solid = exact.solid.convert_decided::<S>().map_err(|e| posed_error::<S, N>(p, e))?;
                (BuiltSolid { solid, ids: exact.ids }, strict)
            }
        }
    } else {
        built_convex::<S, N>(p)?
    };
    let BuiltSolid { solid: shape, ids } = built;
    // The identity pose (a shape given in the world, as [`posed_solid`] takes it) moves
    // nothing: the solid as built, its planes and checks not made again.
    let solid = if p.pose.is_identity() {
        shape
    } else {
        pose_solid(&shape, &map, det).map_err(|e| posed_error::<S, N>(p, e))?
    };
    match strict {
        Ok(()) => Ok(ConvexPosed {
            built: BuiltSolid { solid, ids },
            all: None,
            pose_determinant,
            parallels: Parallels::none(),
        }),
        Err(VClipError::FlatEdge { .. } | VClipError::StraightVertex { .. }) => {
            let hull = convex_hull(solid.vertices()).map_err(|e| QueryError::hull(&p.at, e))?;
            let hull_ids = hull.input_index.iter().map(|&i| ids[i]).collect();
            Ok(ConvexPosed {
                built: BuiltSolid { solid: hull.solid, ids: hull_ids },
                all: Some(BuiltSolid { solid, ids }),
                pose_determinant,
                parallels: Parallels::none(),
            })
        }
        Err(e) => Err(QueryError::vclip(&p.at, e)),
    }
}

/// A box as given and its pose as p ↦ L·p / w + t, with w > 0 and det L > 0, for exact
/// constructions that need only separating axes and projections on them: nothing is posed.
///
/// Along an axis n the posed box's projections are n·(L·p / w + t) = (Lᵀn)·p / w + n·t, an
/// increasing function of d·p with d = Lᵀn. A box centred at the origin has its greatest d·p,
/// Σ |dᵢ|·hᵢ, at the corners whose signs are those of d's nonzero components: the extreme
/// feature is the unit cube's along the signs of d, and the least projection is the
/// greatest's negative. A posed face normal is a positive multiple of C·n₀ (n₀ the face's unit
/// normal as given, C the cofactor matrix of L, which is w·L for a quaternion's L = w·R) and a
/// posed edge of L·e₀ (e₀ its unit direction): an axis is needed only up to a positive factor
/// (every projection scales alike, and with it the gaps and the speed along it), and unit
/// normals and directions keep the numbers short.
pub(crate) struct FramedBox {
    half: [Exact; 3],
    linear: Matrix3<Exact>,
    /// C (or L itself for a quaternion), mapping a face normal as given to a posed one.
    normals: Matrix3<Exact>,
    w: Exact,
    translation: Vector3<Exact>,
}

/// The unit cube (half extents 1) with the box's topology, exactly: its planes and edges give
/// a box's unit normals and directions, its corners the signs of a box's.
fn unit_cube() -> &'static Solid<Exact> {
    static CUBE: std::sync::OnceLock<Option<Solid<Exact>>> = std::sync::OnceLock::new();
    CUBE.get_or_init(|| shapes::cuboid(Exact::one(), Exact::one(), Exact::one()).ok())
        .as_ref()
        .expect("the unit cube is a solid")
}

/// The box `p` with its pose undivided ([`FramedBox`]); `None` when `p` is no box or its pose
/// is not decided positive (the caller poses it instead, which also reports the errors).
pub(crate) fn framed_box<N: Scalar>(p: &Posed<N>) -> Result<Option<FramedBox>, QueryError> {
    let ShapeSpec::Box(h) = &p.shape else { return Ok(None) };
    charge_pose_bits::<Exact, N>(p)?;
    let half = h.each_ref().map(|x| x.to_backend::<Exact>());
    if half.iter().any(|x| x.sign() != Ok(Sign::Positive)) {
        return Ok(None);
    }
    let Ok((map, w)) = p.pose.numerators::<Exact>() else { return Ok(None) };
    let normals = match &p.pose {
        PoseSpec::Quaternion { .. } => map.linear.clone(),
        PoseSpec::Matrix(_) => {
            if map.check_invertible() != Ok(Sign::Positive) {
                return Ok(None);
            }
            crate::geom::adjugate3(&map.linear).transpose()
        }
    };
    Ok(Some(FramedBox { half, linear: map.linear, normals, w, translation: map.translation }))
}

/// The sign of an exact number (decided exactly, never uncertain: no magnitude enters).
pub(crate) fn exact_sign(x: &Exact) -> Sign {
    x.sign().unwrap_or(Sign::Zero)
}

/// The signs of a vector's components, as numbers (a positive multiple of a unit cube's
/// normal or edge).
fn signs(v: &Vector3<Exact>) -> Vector3<Exact> {
    v.map(|x| match exact_sign(&x) {
        Sign::Positive => Exact::one(),
        Sign::Negative => -Exact::one(),
        Sign::Zero => Exact::zero(),
    })
}

impl FramedBox {
    /// A positive multiple of the posed normal of face `f`.
    pub(crate) fn face_axis(&self, f: usize) -> Vector3<Exact> {
        mat_vec(&self.normals, &signs(&unit_cube().plane(f).normal))
    }

    /// A positive multiple of the posed direction of edge `e` (from its first vertex).
    pub(crate) fn edge_axis(&self, e: usize) -> Vector3<Exact> {
        let cube = unit_cube();
        let (u, v) = cube.edges()[e];
        mat_vec(&self.linear, &signs(&(cube.vertex(v) - cube.vertex(u))))
    }

    /// The box's direction d = Lᵀn along `n` (its signs name the corners at the greatest
    /// projection) and its reach Σ |dᵢ|·hᵢ: the posed box's projections on `n` run over
    /// n·t ± reach / w.
    pub(crate) fn along(&self, n: &Vector3<Exact>) -> (Vector3<Exact>, Exact) {
        let d = mat_vec(&self.linear.transpose(), n);
        let reach = Exact::sum_of_products(&[
            (1, &d[0].abs(), &self.half[0]),
            (1, &d[1].abs(), &self.half[1]),
            (1, &d[2].abs(), &self.half[2]),
        ]);
        (d, reach)
    }

    /// The pose's w (> 0: p ↦ L·p / w + t).
    pub(crate) fn scale(&self) -> &Exact {
        &self.w
    }

    /// The pose's translation t.
    pub(crate) fn translation(&self) -> &Vector3<Exact> {
        &self.translation
    }

    /// The format id of the feature made of the posed box's vertices extreme along `n` (the
    /// highest or the lowest), given the box's direction `d` from [`FramedBox::along`]: the
    /// corners whose sign along each axis is that of d's component there (either sign where it
    /// is zero), so a vertex, an edge or a face; `None` for d = 0.
    pub(crate) fn extreme_feature(d: &Vector3<Exact>, highest: bool) -> Option<FeatureId> {
        // Per axis: the corner bit required (vertex i has bit k set when its coordinate k is +h).
        let want: Vec<Option<bool>> = (0..3)
            .map(|k| match exact_sign(&d[k]) {
                Sign::Positive => Some(highest),
                Sign::Negative => Some(!highest),
                Sign::Zero => None,
            })
            .collect();
        let on: Vec<usize> =
            (0..8).filter(|&i| (0..3).all(|k| want[k].is_none_or(|bit| (i >> k & 1 == 1) == bit))).collect();
        match on.as_slice() {
            [v] => Some(FeatureId::Vertex(*v)),
            &[u, v] => Some(FeatureId::edge(u, v)),
            [_, _, _, _] => Some(FeatureId::face(on)),
            _ => None,
        }
    }
}

/// Charge a posed shape's coordinates' bits to the query's budget (exact backends): a pose
/// multiplies the coordinates' size (cheaply estimated from the pose's and the shape's own
/// bits).
pub(super) fn charge_pose_bits<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<(), QueryError> {
    if S::EXACT_VALUES {
        // A pose multiplies the coordinates' size: charge the posed vertices' bits to the
        // query's budget (cheaply estimated from the pose's and the shape's own bits).
        let bits = |x: &N| x.to_rational().map_or(0, |q| q.numer().bits() + q.denom().bits());
        let pose_bits: u64 = match &p.pose {
            PoseSpec::Quaternion { q, t } => q.iter().chain(t).map(bits).sum(),
            PoseSpec::Matrix(rows) => rows.iter().flatten().map(bits).sum(),
        };
        let shape_bits: u64 = match &p.shape {
            ShapeSpec::Box(h) => h.iter().map(bits).sum::<u64>() * 8,
            ShapeSpec::Polyhedron { vertices, .. } | ShapeSpec::ConvexHull(vertices) => {
                vertices.iter().flat_map(|v| v.iter()).map(bits).sum()
            }
            ShapeSpec::File { mesh, .. } => mesh.vertices.iter().flat_map(|v| v.iter()).map(bits).sum(),
            ShapeSpec::Ball(r) => bits(r),
            ShapeSpec::Capsule { a, b, radius } => a.iter().chain(b.iter()).map(bits).sum::<u64>() + bits(radius),
            ShapeSpec::Torus { center, axis, major, minor } => {
                center.iter().chain(axis.iter()).map(bits).sum::<u64>() + bits(major) + bits(minor)
            }
            ShapeSpec::Cylinder { a, b, radius } => a.iter().chain(b.iter()).map(bits).sum::<u64>() + bits(radius),
            ShapeSpec::Implicit { terms, lo, hi } => {
                terms.iter().map(|(c, _)| bits(c)).sum::<u64>() + lo.iter().chain(hi.iter()).map(bits).sum::<u64>()
            }
            ShapeSpec::Bezier { patches } => patches
                .iter()
                .map(|(_, pts, w)| {
                    pts.iter().flat_map(|p| p.iter()).map(bits).sum::<u64>() + w.iter().flatten().map(bits).sum::<u64>()
                })
                .sum(),
            // The core is charged when it is posed.
            ShapeSpec::Round { .. } => 0,
        };
        // Each posed coordinate is a sum of products of a shape coordinate and pose entries
        // over the pose's common denominator: about (shape + 3·pose) bits per vertex.
        let vertices = match &p.shape {
            ShapeSpec::Box(_) => 8,
            ShapeSpec::Polyhedron { vertices, .. } | ShapeSpec::ConvexHull(vertices) => vertices.len() as u64,
            ShapeSpec::File { mesh, .. } => mesh.vertices.len() as u64,
            ShapeSpec::Ball(_) => 1,
            ShapeSpec::Capsule { .. } => 2,
            ShapeSpec::Torus { .. } | ShapeSpec::Cylinder { .. } => 2,
            ShapeSpec::Implicit { terms, .. } => terms.len() as u64,
            ShapeSpec::Bezier { patches } => patches.iter().map(|(_, pts, _)| pts.len() as u64).sum(),
            ShapeSpec::Round { .. } => 0,
        };
        crate::budget::charge_bits(shape_bits.saturating_add(vertices.saturating_mul(3 * pose_bits)))?;
    }
    Ok(())
}

/// A solid under an invertible map whose determinant has sign `det`. Positive: the same
/// topology with moved vertices (the planes computed again, and checked on a tolerant backend,
/// whose rounding can bend a face). Negative: the map mirrors the solid, so its faces are
/// reversed to stay outward, and it is validated whole.
fn pose_solid<S: Scalar>(solid: &Solid<S>, map: &Affine<S>, det: Sign) -> Result<Solid<S>, crate::brep::BrepError> {
    if det == Sign::Positive {
        return solid.moved_decided(map);
    }
    let faces = (0..solid.face_count()).map(|f| solid.face(f).iter().rev().copied().collect()).collect();
    Solid::new(solid.vertices().iter().map(|v| map.apply_point(v)).collect(), faces)
}

/// A pose's determinant with its magnitude (the permanent).
fn pose_determinant<S: Scalar>(map: &Affine<S>) -> Scaled<S> {
    Scaled { value: map.determinant(), magnitude: crate::geom::permanent3(&map.linear) }
}

/// Any solid (convex or not) posed in the world, with the format ids of its vertices.
#[derive(Clone, Debug)]
pub struct SolidPosed<S: Scalar> {
    /// The posed solid, faces as given (none merged), with the format id of each vertex.
    pub built: BuiltSolid<S>,
    /// The pose's determinant with its magnitude.
    pub pose_determinant: Scaled<S>,
}

/// `p`'s exact posed solid `exact` carried over to the filter backend `S`, decided.
pub(super) fn on_filter<S: Scalar, N: Scalar>(
    exact: &SolidPosed<Exact>,
    p: &Posed<N>,
) -> Result<SolidPosed<S>, QueryError> {
    let solid = exact.built.solid.convert_decided::<S>().map_err(|e| posed_error::<S, N>(p, e))?;
    let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let pose_determinant = pose_determinant(&map);
    Ok(SolidPosed { built: BuiltSolid { solid, ids: exact.built.ids.clone() }, pose_determinant })
}

/// Build and pose a shape, convex or not (a pose of negative determinant reverses the faces).
/// On a backend with certain but inexact decisions (intervals) the shape is built and posed
/// exactly and carried over decided.
pub fn posed_solid<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<SolidPosed<S>, QueryError> {
    if S::FILTER {
        return on_filter::<S, N>(&posed_solid::<crate::scalar::Exact, N>(p)?, p);
    }
    let map = p.pose.affine::<S>().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let det = map.check_invertible().map_err(|e| QueryError::geom(&p.pose_at, e))?;
    let pose_determinant = pose_determinant(&map);
    charge_pose_bits::<S, N>(p)?;
    let built = build_solid::<S, N>(&p.shape, &p.at)?;
    if p.pose.is_identity() {
        return Ok(SolidPosed { built, pose_determinant });
    }
    let solid = match pose_solid(&built.solid, &map, det) {
        Ok(s) => s,
        // A binary64 pose whose products leave the range (entries or coordinates beyond
        // 2^±300: a face's area underflows) bends no solid exactly: the range, not the input.
        Err(_)
            if !S::EXACT_VALUES
                && !in_product_range(map.linear.iter().chain(built.solid.vertices().iter().flat_map(|v| v.iter()))) =>
        {
            return Err(QueryError::uncertain(&p.pose_at, crate::scalar::Uncertain::Overflow));
        }
        Err(e) => return Err(posed_error::<S, N>(p, e)),
    };
    Ok(SolidPosed { built: BuiltSolid { solid, ids: built.ids }, pose_determinant })
}

/// Whether every nonzero value lies in [2^-300, 2^300] (a product of three stays in binary64's
/// normal range).
pub(crate) fn in_product_range<'a, S: Scalar + 'a>(xs: impl IntoIterator<Item = &'a S>) -> bool {
    xs.into_iter().all(|x| {
        let a = x.to_f64().abs();
        a == 0.0 || (a > 2f64.powi(-300) && a < 2f64.powi(300))
    })
}

impl<S: Scalar> SolidPosed<S> {
    /// The format's name of a feature of the solid.
    pub fn feature_id(&self, f: &Feature) -> FeatureId {
        let b = &self.built;
        match *f {
            Feature::Vertex(v) => FeatureId::Vertex(b.ids[v]),
            Feature::Edge(u, v) => FeatureId::edge(b.ids[u], b.ids[v]),
            Feature::Face(f) => FeatureId::face(b.solid.face(f).iter().map(|&v| b.ids[v]).collect()),
        }
    }

    /// Whether the exact feature `found` of a posed solid lies on the `claimed` one (in its
    /// closure): how a claimed feature passes that is not the exact one.
    pub(crate) fn lies_on(&self, found: Option<&FeatureId>, claimed: &FeatureId) -> bool {
        let g = self;
        match (g.feature_of(claimed), found.and_then(|f| g.feature_of(f))) {
            (Some(claimed), Some(found)) => g.built.solid.in_closure(&found, &claimed),
            _ => false,
        }
    }

    /// The feature a format name denotes, if any: a vertex, an edge of the solid, a face by
    /// its ids (or by three or more ids that all lie on one face).
    pub fn feature_of(&self, id: &FeatureId) -> Option<Feature> {
        let b = &self.built;
        match id {
            FeatureId::Vertex(_) | FeatureId::Edge(..) => vertex_or_edge(b, id),
            FeatureId::Face(ids) if ids.len() >= 3 => (0..b.solid.face_count()).find_map(|f| {
                let on: Vec<usize> = b.solid.face(f).iter().map(|&v| b.ids[v]).collect();
                ids.iter().all(|i| on.contains(i)).then_some(Feature::Face(f))
            }),
            FeatureId::Face(_) => None,
        }
    }
}

/// The shape as built, with its strict convexity (a box, with positive half extents, is
/// strictly convex); a shape that is not convex is [`ErrorKind::Invalid`].
#[allow(clippy::type_complexity)]
fn built_convex<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<(BuiltSolid<S>, Result<(), VClipError>), QueryError> {
    let built = build_solid::<S, N>(&p.shape, &p.at)?;
    if matches!(p.shape, ShapeSpec::Box(_)) {
        return Ok((built, Ok(())));
    }
    // Convexity and strictness in one pass (the shell, each edge's convexity once).
    let strict = match strict_convexity(&built.solid).map_err(|e| QueryError::uncertain(&p.at, e))? {
        StrictConvexity::NotConvex => {
            return Err(QueryError::new(
                ErrorKind::Invalid,
                &p.at,
                "this op needs convex shapes; this one is not convex",
            ))
        }
        StrictConvexity::Strict => Ok(()),
        StrictConvexity::FlatEdge(edge) => Err(VClipError::FlatEdge { solid: 0, edge }),
        StrictConvexity::StraightVertex(vertex) => Err(VClipError::StraightVertex { solid: 0, vertex }),
    };
    Ok((built, strict))
}

/// A posed shape that is not a solid: an undecided decision (an overflow, say), or the pose
/// bent or collapsed it beyond the backend's tolerance. A valid shape under an invertible pose
/// is a valid solid exactly, so on a tolerant backend this is the backend's precision, not the
/// input ([`ErrorKind::Precision`]); exact backends never get here (the pose was checked).
fn posed_error<S: Scalar, N: Scalar>(p: &Posed<N>, e: crate::brep::BrepError) -> QueryError {
    match e {
        crate::brep::BrepError::Uncertain(u) => QueryError::uncertain(&p.pose_at, u),
        e if !S::CERTAIN_DECISIONS => QueryError::new(
            ErrorKind::Precision,
            &p.pose_at,
            format!(
                "the posed shape is not a solid at {} precision ({e}): the pose moves it within the backend's tolerance of a degenerate shape; use an exact backend",
                S::NAME
            ),
        ),
        e => QueryError::new(ErrorKind::Invalid, &p.pose_at, format!("the posed shape is not a solid: {e}")),
    }
}

/// A feature named as in the format: a vertex id, an edge by its two ids ascending, a face by
/// its vertex ids ascending (for a merged face: every vertex of the shape as given on its
/// plane).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureId {
    /// `{"vertex": i}`.
    Vertex(usize),
    /// `{"edge": [i, j]}`, `i < j`.
    Edge(usize, usize),
    /// `{"face": [i, j, k, ...]}`, ascending.
    Face(Vec<usize>),
}

impl FeatureId {
    /// An edge named by its two ids in either order.
    pub fn edge(i: usize, j: usize) -> Self {
        FeatureId::Edge(i.min(j), i.max(j))
    }

    /// A face named by its ids in any order.
    pub fn face(mut ids: Vec<usize>) -> Self {
        ids.sort_unstable();
        ids.dedup();
        FeatureId::Face(ids)
    }

    /// The ids of the feature's vertices, ascending.
    pub fn ids(&self) -> Vec<usize> {
        match self {
            FeatureId::Vertex(v) => vec![*v],
            FeatureId::Edge(i, j) => vec![*i, *j],
            FeatureId::Face(ids) => ids.clone(),
        }
    }
}

impl std::fmt::Display for FeatureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeatureId::Vertex(v) => write!(f, "vertex {v}"),
            FeatureId::Edge(i, j) => write!(f, "edge [{i}, {j}]"),
            FeatureId::Face(ids) => write!(f, "face {ids:?}"),
        }
    }
}

impl<S: Scalar> ConvexPosed<S> {
    /// The format's name of a feature of the posed solid.
    pub fn feature_id(&self, f: &Feature) -> Result<FeatureId, QueryError> {
        let b = &self.built;
        Ok(match *f {
            Feature::Vertex(v) => FeatureId::Vertex(b.ids[v]),
            Feature::Edge(u, v) => FeatureId::edge(b.ids[u], b.ids[v]),
            Feature::Face(f) => FeatureId::face(self.face_ids(f)?),
        })
    }

    /// The format ids of face `f`: its vertices, or for a merged face every vertex of the shape
    /// as given on its plane.
    fn face_ids(&self, f: usize) -> Result<Vec<usize>, QueryError> {
        let b = &self.built;
        let Some(all) = &self.all else { return Ok(b.solid.face(f).iter().map(|&v| b.ids[v]).collect()) };
        let plane = b.solid.plane(f);
        let mut on = Vec::new();
        for (v, p) in all.solid.vertices().iter().enumerate() {
            if plane.eval(p).sign_scaled(|| plane.eval_magnitude(p))? == Sign::Zero {
                on.push(all.ids[v]);
            }
        }
        Ok(on)
    }

    /// The feature of the posed solid that the format name `id` denotes, if any: a vertex id
    /// of a corner, an edge of the solid, a face given by its ids as written (or by three or
    /// more of the shape's vertex ids that all lie on one face, e.g. a triangle of a merged
    /// face, which names that face).
    pub fn feature_of(&self, id: &FeatureId) -> Result<Option<Feature>, QueryError> {
        let b = &self.built;
        Ok(match id {
            FeatureId::Vertex(_) | FeatureId::Edge(..) => vertex_or_edge(b, id),
            FeatureId::Face(ids) => {
                if ids.len() < 3 {
                    return Ok(None);
                }
                for f in 0..b.solid.face_count() {
                    let on = self.face_ids(f)?;
                    if ids.iter().all(|i| on.contains(i)) {
                        return Ok(Some(Feature::Face(f)));
                    }
                }
                None
            }
        })
    }

    /// A claimed feature as a point set: [`ConvexPosed::feature_of`] on the strictly convex
    /// solid, or else, when coplanar faces were merged, a vertex, edge or face of the shape as
    /// given (a diagonal of a triangulated face is an edge of the mesh and a set of points on
    /// the shape, though not an edge of the merged solid). The solid it belongs to comes with
    /// it.
    pub fn claimed_feature(&self, id: &FeatureId) -> Result<Option<(&Solid<S>, Feature)>, QueryError> {
        if let Some(f) = self.feature_of(id)? {
            return Ok(Some((&self.built.solid, f)));
        }
        let Some(all) = &self.all else { return Ok(None) };
        let found = match id {
            FeatureId::Vertex(_) | FeatureId::Edge(..) => vertex_or_edge(all, id),
            FeatureId::Face(ids) => {
                let mut sorted = ids.clone();
                sorted.sort_unstable();
                (0..all.solid.face_count()).find_map(|f| {
                    let mut on: Vec<usize> = all.solid.face(f).iter().map(|&v| all.ids[v]).collect();
                    on.sort_unstable();
                    (on == sorted).then_some(Feature::Face(f))
                })
            }
        };
        Ok(found.map(|f| (&all.solid, f)))
    }
}

/// The vertex or edge of `b` with format ids `id`, if any.
fn vertex_or_edge<S: Scalar>(b: &BuiltSolid<S>, id: &FeatureId) -> Option<Feature> {
    let vertex = |i: usize| b.ids.iter().position(|&x| x == i);
    match id {
        FeatureId::Vertex(i) => vertex(*i).map(Feature::Vertex),
        FeatureId::Edge(i, j) => match (vertex(*i), vertex(*j)) {
            (Some(u), Some(v)) => b
                .solid
                .edges()
                .iter()
                .find(|&&(x, y)| (x, y) == (u, v) || (x, y) == (v, u))
                .map(|&(x, y)| Feature::Edge(x, y)),
            _ => None,
        },
        FeatureId::Face(_) => None,
    }
}

/// A plane as given: through three points, or by its coefficients.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per query
pub enum PlaneSpec<N: Scalar = BigRational> {
    /// Through `a, b, c`, not collinear; above is where they run counterclockwise.
    Points([Point3<N>; 3]),
    /// `a·x + b·y + c·z + d = 0`, (a, b, c) nonzero.
    Coefficients(Plane<N>),
}

impl<N: Scalar> PlaneSpec<N> {
    /// The plane through three points; collinear points are [`ErrorKind::Invalid`].
    pub fn points(p: [Point3<N>; 3]) -> Result<Self, QueryError> {
        crate::constructions::plane_through(&p[0], &p[1], &p[2]).map_err(|e| QueryError::geom("/points", e))?;
        Ok(PlaneSpec::Points(p))
    }

    /// The plane by coefficients; a zero normal is [`ErrorKind::Invalid`].
    pub fn coefficients(c: [N; 4]) -> Result<Self, QueryError> {
        let [a, b, c, d] = c;
        Plane::from_coefficients(a, b, c, d)
            .map(PlaneSpec::Coefficients)
            .map_err(|e| QueryError::geom("/coefficients", e))
    }

    /// The signed value at `p` with its magnitude: orient3d(a, b, c, p) for the points form
    /// (decided on the input points, not on a rounded plane), a·x + b·y + c·z + d otherwise.
    pub fn eval_scaled<S: Scalar>(&self, p: &Point3<S>) -> Scaled<S> {
        match self {
            PlaneSpec::Points(q) => {
                let q = q.each_ref().map(to_backend::<S>);
                orient3d_scaled(&q[0], &q[1], &q[2], p)
            }
            PlaneSpec::Coefficients(plane) => plane_to::<S, _>(plane).eval_scaled(p),
        }
    }

    /// The plane on backend `S` (the points form may be degenerate within `S`'s tolerance).
    pub fn plane<S: Scalar>(&self) -> Result<Plane<S>, crate::GeomError> {
        match self {
            PlaneSpec::Points(q) => {
                let q = q.each_ref().map(to_backend::<S>);
                crate::constructions::plane_through(&q[0], &q[1], &q[2])
            }
            PlaneSpec::Coefficients(plane) => Ok(plane_to::<S, _>(plane)),
        }
    }

    /// The degeneracy test of the points form (a zero normal): its components with their
    /// magnitudes.
    pub fn degeneracy<S: Scalar>(&self) -> Option<Vec<Scaled<S>>> {
        let PlaneSpec::Points(q) = self else { return None };
        let q = q.each_ref().map(to_backend::<S>);
        let (u, v) = (&q[1] - &q[0], &q[2] - &q[0]);
        let n = u.cross(&v);
        Some(
            [(1, 2), (2, 0), (0, 1)]
                .iter()
                .zip(n.iter())
                .map(|(&(i, j), c)| Scaled {
                    value: c.clone(),
                    magnitude: u[i].abs() * v[j].abs() + u[j].abs() * v[i].abs(),
                })
                .collect(),
        )
    }
}

fn plane_to<T: Scalar, N: Scalar>(p: &Plane<N>) -> Plane<T> {
    Plane {
        normal: p.normal.map(|c| c.to_backend::<T>()),
        offset: p.offset.to_backend::<T>(),
        scale: p.scale.to_backend::<T>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_boxs_extremes_are_the_unit_cubes() {
        // Every direction of signs (−1, 0, 1)³, highest and lowest: the corners named from the
        // signs alone are the feature the general search finds on the unit cube.
        let cube = unit_cube();
        let zero = Vector3::from_element(Exact::zero());
        let (mut vertices, mut edges, mut faces) = (0, 0, 0);
        for k in 0..27 {
            let d = Vector3::new(k % 3, k / 3 % 3, k / 9).map(|c| Exact::from_i64(c - 1));
            for highest in [true, false] {
                let general = crate::separation::extreme_feature(cube, &d, &zero, highest).unwrap();
                let general = general.map(|f| match f {
                    Feature::Vertex(v) => FeatureId::Vertex(v),
                    Feature::Edge(u, v) => FeatureId::edge(u, v),
                    Feature::Face(f) => FeatureId::face(cube.face(f).to_vec()),
                });
                let framed = FramedBox::extreme_feature(&d, highest);
                assert_eq!(framed, general, "{d:?} {highest}");
                match framed {
                    Some(FeatureId::Vertex(_)) => vertices += 1,
                    Some(FeatureId::Edge(..)) => edges += 1,
                    Some(FeatureId::Face(_)) => faces += 1,
                    None => {}
                }
            }
        }
        assert_eq!((vertices, edges, faces), (16, 24, 12));
    }
}
