//! Shapes of the format: parsed exactly, checked for what can be checked without a B-rep.

use num_rational::BigRational;
use num_traits::Signed;
use serde_json::Value;
use touchstone::geom::Point3;

use crate::error::{Kind, QueryError};
use crate::input::{array, child, index, points, rationals, string, Fields};

/// A shape as given in a query.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// `{"box": [hx, hy, hz]}`: an axis-aligned box centred at the origin.
    Box([BigRational; 3]),
    /// `{"polyhedron": {...}}`: vertices and counter-clockwise faces (indices checked in range).
    Polyhedron {
        /// The vertices.
        vertices: Vec<Point3<BigRational>>,
        /// Each face's vertex indices, counter-clockwise seen from outside.
        faces: Vec<Vec<usize>>,
    },
}

/// Shape kinds of the format that this version parses but cannot use yet.
const LATER: [&str; 8] = ["convex_hull", "file", "ball", "capsule", "round", "torus", "implicit", "bezier"];

/// Parse a shape at `path`.
pub fn parse_shape(value: &Value, path: &str) -> Result<ShapeSpec, QueryError> {
    let fields = Fields::of(value, path, "a shape")?;
    let (kind, body, at) = fields.single_key("a shape")?;
    match kind {
        "box" => {
            let h = rationals(body, &at, 3, "box half extents")?;
            for (i, x) in h.iter().enumerate() {
                if !x.is_positive() {
                    return Err(QueryError::new(Kind::Invalid, &child(&at, i), "a box half extent must be positive"));
                }
            }
            let [x, y, z]: [BigRational; 3] = h.try_into().expect("three checked above");
            Ok(ShapeSpec::Box([x, y, z]))
        }
        "polyhedron" => {
            let f = Fields::of(body, &at, "a polyhedron")?;
            f.only(&["vertices", "faces"])?;
            let (v, vpath) = f.required("vertices")?;
            let vertices = points(v, &vpath, None)?;
            let (fs, fpath) = f.required("faces")?;
            let faces = array(fs, &fpath, None, "faces")?
                .iter()
                .enumerate()
                .map(|(i, face)| {
                    let at = child(&fpath, i);
                    let ids = array(face, &at, None, "a face")?;
                    if ids.len() < 3 {
                        return Err(QueryError::new(
                            Kind::Invalid,
                            &at,
                            format!("face {i} has {} vertices; at least 3", ids.len()),
                        ));
                    }
                    ids.iter()
                        .enumerate()
                        .map(|(j, id)| index(id, &child(&at, j), vertices.len(), "vertex index"))
                        .collect()
                })
                .collect::<Result<Vec<Vec<usize>>, _>>()?;
            Ok(ShapeSpec::Polyhedron { vertices, faces })
        }
        k if LATER.contains(&k) => {
            if k == "file" {
                string(body, &at, "a file path")?;
            }
            Err(QueryError::new(
                Kind::Unsupported,
                &at,
                format!("shape {k:?} is part of the format but not supported by this version yet"),
            ))
        }
        k => Err(QueryError::new(
            Kind::Unknown,
            &at,
            format!("unknown shape {k:?} (known: box, polyhedron, {})", LATER.join(", ")),
        )),
    }
}
