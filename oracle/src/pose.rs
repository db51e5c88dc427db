//! Poses: a rotation by a (not necessarily unit) quaternion and a translation, or a 3×4 matrix.

use num_rational::BigRational;
use serde_json::Value;
use touchstone::geom::{Affine, Vector3};
use touchstone::scalar::Scalar;
use touchstone::GeomError;

use crate::error::{Kind, QueryError};
use crate::input::{array, child, rationals, Fields};

/// A pose exactly as given, so that every backend builds its own transform from the same
/// numbers.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per query
pub enum PoseSpec {
    /// `v ↦ q v q̄ / |q|² + t` (either part may have been absent: identity parts).
    Quaternion {
        /// (w, x, y, z), nonzero.
        q: [BigRational; 4],
        /// The translation.
        t: [BigRational; 3],
    },
    /// `[[r00, r01, r02, t0], [r10, ...], [r20, ...]]`, invertible.
    Matrix([[BigRational; 4]; 3]),
}

impl PoseSpec {
    /// The identity pose.
    pub fn identity() -> Self {
        let z = || BigRational::from_integer(0.into());
        PoseSpec::Quaternion { q: [BigRational::from_integer(1.into()), z(), z(), z()], t: [z(), z(), z()] }
    }

    /// The transform on backend `S`.
    pub fn affine<S: Scalar>(&self) -> Result<Affine<S>, GeomError> {
        let c = |x: &BigRational| S::from_rational(x);
        match self {
            PoseSpec::Quaternion { q, t } => {
                Affine::from_quaternion(&q.each_ref().map(c), Vector3::new(c(&t[0]), c(&t[1]), c(&t[2])))
            }
            PoseSpec::Matrix(rows) => Ok(Affine::from_rows(&rows.each_ref().map(|r| r.each_ref().map(c)))),
        }
    }
}

/// Parse an optional pose field (absent or null: identity).
pub fn parse_pose(value: Option<(&Value, String)>) -> Result<PoseSpec, QueryError> {
    let Some((value, path)) = value else { return Ok(PoseSpec::identity()) };
    let f = Fields::of(value, &path, "a pose")?;
    f.only(&["translation", "quaternion", "matrix"])?;
    if let Some((m, mpath)) = f.optional("matrix") {
        if let Some((_, other)) = f.optional("translation").or(f.optional("quaternion")) {
            return Err(QueryError::new(
                Kind::Type,
                &other,
                "a pose has either a matrix or a translation and quaternion",
            ));
        }
        let rows = array(m, &mpath, Some(3), "a pose matrix")?
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let v = rationals(r, &child(&mpath, i), 4, "a pose matrix row")?;
                Ok([v[0].clone(), v[1].clone(), v[2].clone(), v[3].clone()])
            })
            .collect::<Result<Vec<_>, QueryError>>()?;
        let spec = PoseSpec::Matrix([rows[0].clone(), rows[1].clone(), rows[2].clone()]);
        spec.affine::<BigRational>()
            .and_then(|a| a.check_invertible())
            .map_err(|e| QueryError::new(Kind::Invalid, &mpath, format!("the pose matrix is not invertible: {e}")))?;
        return Ok(spec);
    }
    let int = |i: i64| BigRational::from_integer(i.into());
    let (mut q, mut t) = ([int(1), int(0), int(0), int(0)], [int(0), int(0), int(0)]);
    if let Some((v, p)) = f.optional("quaternion") {
        let v = rationals(v, &p, 4, "a quaternion [w, x, y, z]")?;
        q = [v[0].clone(), v[1].clone(), v[2].clone(), v[3].clone()];
        if q.iter().all(|x| *x == BigRational::from_integer(0.into())) {
            return Err(QueryError::new(Kind::Invalid, &p, "the quaternion is zero: no rotation"));
        }
    }
    if let Some((v, p)) = f.optional("translation") {
        let v = rationals(v, &p, 3, "a translation")?;
        t = [v[0].clone(), v[1].clone(), v[2].clone()];
    }
    Ok(PoseSpec::Quaternion { q, t })
}
