//! The `robust` adapter: Shewchuk's adaptive `orient3d` and `orient2d` (as geo and spade use
//! them) on `orient3d` and `orient2d` lines.
//!
//! Shewchuk's `orient3d(a, b, c, d)` is positive when d lies below the plane of a, b, c (seen
//! from above they run counterclockwise); the format's `orientation` is `"positive"` when d is
//! on the side the normal (b − a) × (c − a) points to: the opposite sign. His `orient2d(a, b,
//! c)` is positive when a, b, c run counterclockwise, as the format's.

use robust::{Coord, Coord3D};
use serde_json::json;
use touchstone::query::{Orient2d, Orient3d};

use super::{Answered, Answers, Asked, Engine, Extra};

/// robust 1.2.
pub struct Robust;

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

fn answered(function: &'static str, s: f64, zero: &'static str) -> Answers {
    let name = named(s, zero);
    Some(Ok(vec![Answered {
        function: function.into(),
        claim: json!({ "orientation": name }),
        said: format!("{name} ({s:e})"),
        extra: Extra::None,
    }]))
}

impl Engine for Robust {
    fn name(&self) -> &'static str {
        "robust"
    }

    fn claims_exact(&self) -> bool {
        true
    }

    fn orient3d(&self, asked: Asked<'_, Orient3d<f64>>) -> Answers {
        let p = match asked.read() {
            Ok(q) => q.points.map(|p| Coord3D { x: p.x, y: p.y, z: p.z }),
            Err(e) => return Some(Err(e.into())),
        };
        answered("orient3d", -robust::orient3d(p[0], p[1], p[2], p[3]), "coplanar")
    }

    fn orient2d(&self, asked: Asked<'_, Orient2d<f64>>) -> Answers {
        let p = match asked.read() {
            Ok(q) => q.points.map(|p| Coord { x: p.x, y: p.y }),
            Err(e) => return Some(Err(e.into())),
        };
        answered("orient2d", robust::orient2d(p[0], p[1], p[2]), "collinear")
    }
}
