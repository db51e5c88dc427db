//! The `robust` adapter: Shewchuk's adaptive `orient3d` and `orient2d` (as geo and spade use
//! them) on `orient3d` and `orient2d` lines.
//!
//! Shewchuk's `orient3d(a, b, c, d)` is positive when d lies below the plane of a, b, c (seen
//! from above they run counterclockwise); the format's `orientation` is `"positive"` when d is
//! on the side the normal (b − a) × (c − a) points to: the opposite sign. His `orient2d(a, b,
//! c)` is positive when a, b, c run counterclockwise, as the format's.

use robust::{Coord, Coord3D};
use serde_json::{json, Value};

use super::{Answered, Engine, Extra};

/// robust 1.2.
pub struct Robust;

fn coords(p: &Value) -> Option<Coord3D<f64>> {
    let c = |i: usize| super::number(&p[i]);
    Some(Coord3D { x: c(0)?, y: c(1)?, z: c(2)? })
}

fn coords2(p: &Value) -> Option<Coord<f64>> {
    let c = |i: usize| super::number(&p[i]);
    (p.as_array()?.len() == 2).then_some(())?;
    Some(Coord { x: c(0)?, y: c(1)? })
}

/// The format's orientation name of a determinant's sign.
fn named(s: f64, zero: &'static str) -> &'static str {
    if s > 0.0 {
        "positive"
    } else if s < 0.0 {
        "negative"
    } else {
        zero
    }
}

fn orient2d(q: &Value) -> Option<Result<Vec<Answered>, String>> {
    let p = q.get("points")?.as_array()?;
    let Some([a, b, c]) =
        p.iter().map(coords2).collect::<Option<Vec<_>>>().and_then(|v| <[Coord<f64>; 3]>::try_from(v).ok())
    else {
        return Some(Err("orient2d needs three points of two numbers".into()));
    };
    let s = robust::orient2d(a, b, c);
    let name = named(s, "collinear");
    Some(Ok(vec![Answered {
        function: "orient2d",
        op: "orient2d",
        claim: json!({ "orientation": name }),
        said: format!("{name} ({s:e})"),
        extra: Extra::None,
    }]))
}

impl Engine for Robust {
    fn name(&self) -> &'static str {
        "robust"
    }

    fn answer(&self, q: &Value) -> Option<Result<Vec<Answered>, String>> {
        match q.get("op")?.as_str()? {
            "orient3d" => {}
            "orient2d" => return orient2d(q),
            _ => return None,
        }
        let p = q.get("points")?.as_array()?;
        if p.len() != 4 {
            return Some(Err("orient3d needs four points".into()));
        }
        let Some([a, b, c, d]) =
            p.iter().map(coords).collect::<Option<Vec<_>>>().and_then(|v| <[Coord3D<f64>; 4]>::try_from(v).ok())
        else {
            return Some(Err("a point is not three numbers".into()));
        };
        let s = -robust::orient3d(a, b, c, d);
        let name = named(s, "coplanar");
        Some(Ok(vec![Answered {
            function: "orient3d",
            op: "orient3d",
            claim: json!({ "orientation": name }),
            said: format!("{name} ({:e})", s),
            extra: Extra::None,
        }]))
    }
}
