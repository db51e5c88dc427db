//! Poses: a rotation by a (not necessarily unit) quaternion and a translation, or a 3×4 matrix.

use crate::json::Json;
pub use touchstone::query::PoseSpec;

use crate::error::{Kind, QueryError};
use crate::input::{array, child, rationals, Fields, Number};

/// Parse an optional pose field (absent or null: identity).
pub fn parse_pose<N: Number>(value: Option<(&Json, crate::input::Path)>) -> Result<PoseSpec<N>, QueryError> {
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
                let v = rationals::<N>(r, &child(&mpath, i), 4, "a pose matrix row")?;
                Ok([v[0].clone(), v[1].clone(), v[2].clone(), v[3].clone()])
            })
            .collect::<Result<Vec<_>, QueryError>>()?;
        return PoseSpec::matrix([rows[0].clone(), rows[1].clone(), rows[2].clone()]).map_err(|e| e.under(&path));
    }
    let int = |i: i64| N::from_i64(i);
    let (mut q, mut t) = ([int(1), int(0), int(0), int(0)], [int(0), int(0), int(0)]);
    if let Some((v, p)) = f.optional("quaternion") {
        let v = rationals::<N>(v, &p, 4, "a quaternion [w, x, y, z]")?;
        q = [v[0].clone(), v[1].clone(), v[2].clone(), v[3].clone()];
    }
    if let Some((v, p)) = f.optional("translation") {
        let v = rationals::<N>(v, &p, 3, "a translation")?;
        t = [v[0].clone(), v[1].clone(), v[2].clone()];
    }
    PoseSpec::quaternion(q, t).map_err(|e| e.under(&path))
}
