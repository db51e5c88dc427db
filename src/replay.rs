//! Oracle query lines for failing cases: a differential test or fuzz target that finds a
//! disagreement prints the case as a line the `touchstone` oracle answers with `backend: both`.
//!
//! This is the library's one place that writes the format: every replay line is made here,
//! from binary64 numbers written so that they parse back to exactly the same values (no JSON
//! library: the oracle reads them, `oracle/tests/fuzz_seeds.rs` answers every seed's line).
//! The lines stay in the library, not the oracle, because the library's own tests print them
//! and cannot depend on the oracle, which depends on the library.

use crate::brep::Solid;
use crate::geom::Point3;
use crate::sweep::{BoxMotion, CcdKind};

/// A binary64 number as a JSON number that parses back to exactly the same value.
///
/// ```
/// assert_eq!(touchstone::replay::json_f64(0.1), "0.1");
/// assert_eq!(touchstone::replay::json_f64(-2.0), "-2.0");
/// ```
pub fn json_f64(x: f64) -> String {
    // Rust's `Debug` for f64 is the shortest representation that round-trips.
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "null".to_string()
    }
}

/// `[x, y, z]` of binary64 numbers.
pub fn json_point(p: &[f64; 3]) -> String {
    format!("[{}, {}, {}]", json_f64(p[0]), json_f64(p[1]), json_f64(p[2]))
}

/// A solid of binary64 coordinates as the format's `{"polyhedron": {...}}` shape.
pub fn polyhedron_json(s: &crate::brep::Solid<f64>) -> String {
    let v: Vec<String> = s.vertices().iter().map(|v| json_point(&[v.x, v.y, v.z])).collect();
    let f: Vec<String> = s
        .faces()
        .iter()
        .map(|f| format!("[{}]", f.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")))
        .collect();
    format!(r#"{{"polyhedron": {{"vertices": [{}], "faces": [{}]}}}}"#, v.join(", "), f.join(", "))
}

fn json_points(points: &[[f64; 3]]) -> String {
    let inner: Vec<String> = points.iter().map(json_point).collect();
    format!("[{}]", inner.join(", "))
}

/// The `orient3d` query of four points.
pub fn orient3d_query(points: &[[f64; 3]; 4]) -> String {
    format!(r#"{{"op": "orient3d", "backend": "both", "points": {}}}"#, json_points(points))
}

/// The `side_of_plane` query of a plane given by coefficients and a point.
pub fn side_of_plane_query(plane: &[f64; 4], point: &[f64; 3]) -> String {
    let c: Vec<String> = plane.iter().map(|&x| json_f64(x)).collect();
    format!(
        r#"{{"op": "side_of_plane", "backend": "both", "plane": {{"coefficients": [{}]}}, "point": {}}}"#,
        c.join(", "),
        json_point(point)
    )
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

fn point3(p: &Point3<f64>) -> String {
    json_point(&[p.x, p.y, p.z])
}

/// The `distance` query between two solids (polyhedra, unposed).
pub fn distance_line(a: &Solid<f64>, b: &Solid<f64>) -> String {
    format!(r#"{{"op": "distance", "backend": "both", "a": {}, "b": {}}}"#, polyhedron_json(a), polyhedron_json(b))
}

/// The `contact` query between two solids (polyhedra in world coordinates) with the ε of the
/// `f64` pipeline.
pub fn contact_line(a: &Solid<f64>, b: &Solid<f64>, epsilon: f64) -> String {
    format!(
        r#"{{"op": "contact", "backend": "both", "epsilon": {epsilon:e}, "a": {}, "b": {}}}"#,
        polyhedron_json(a),
        polyhedron_json(b)
    )
}

/// The `ccd` query of a vertex–face or edge–edge case.
pub fn ccd_line(kind: CcdKind, t0: &[Point3<f64>; 4], t1: &[Point3<f64>; 4]) -> String {
    let k = match kind {
        CcdKind::VertexFace => "vertex_face",
        CcdKind::EdgeEdge => "edge_edge",
    };
    let pts = |p: &[Point3<f64>; 4]| p.iter().map(point3).collect::<Vec<_>>().join(", ");
    format!(r#"{{"op": "ccd", "backend": "both", "kind": "{k}", "t0": [{}], "t1": [{}]}}"#, pts(t0), pts(t1))
}

/// The `toi_boxes` query of two boxes under their motions on [t0, t1].
pub fn toi_boxes_line(a: &BoxMotion<f64>, b: &BoxMotion<f64>, t0: f64, t1: f64) -> String {
    let motion = |m: &BoxMotion<f64>| {
        let matrix =
            |mat: &crate::geom::Matrix4<f64>| list((0..4).map(|i| list((0..4).map(|j| json_f64(mat[(i, j)])))));
        list(m.motion.iter().map(matrix))
    };
    let half = |m: &BoxMotion<f64>| list(m.half.iter().map(|h| json_f64(*h)));
    format!(
        r#"{{"op": "toi_boxes", "backend": "both", "a": {}, "b": {}, "motion_a": {}, "motion_b": {}, "interval": [{}, {}]}}"#,
        half(a),
        half(b),
        motion(a),
        motion(b),
        json_f64(t0),
        json_f64(t1)
    )
}

/// The `validate` query of the convex hull of points.
pub fn hull_line(points: &[[f64; 3]]) -> String {
    format!(r#"{{"op": "validate", "backend": "both", "solid": {{"convex_hull": {}}}}}"#, json_points(points))
}

/// The `validate` query of a mesh as a polyhedron.
pub fn mesh_line(vertices: &[[f64; 3]], faces: &[Vec<usize>]) -> String {
    let f = list(faces.iter().map(|f| list(f.iter().map(usize::to_string))));
    format!(
        r#"{{"op": "validate", "backend": "both", "solid": {{"polyhedron": {{"vertices": {}, "faces": {f}}}}}}}"#,
        json_points(vertices)
    )
}

/// The `classify_point` and `classify_segment` queries of a solid under a quaternion pose, at
/// exact points (written as rational strings).
pub fn classify_lines(
    solid: &Solid<f64>,
    quaternion: [i64; 4],
    translation: &[f64; 3],
    points: &[Point3<num_rational::BigRational>; 2],
) -> [String; 2] {
    let exact = |p: &Point3<num_rational::BigRational>| list(p.iter().map(|x| format!("\"{x}\"")));
    let [w, x, y, z] = quaternion;
    let common = format!(
        r#""backend": "both", "solid": {}, "pose": {{"quaternion": [{w}, {x}, {y}, {z}], "translation": {}}}"#,
        polyhedron_json(solid),
        json_point(translation)
    );
    let [p, q] = points;
    [
        format!(r#"{{"op": "classify_point", {common}, "point": {}}}"#, exact(p)),
        format!(r#"{{"op": "classify_segment", {common}, "segment": [{}, {}]}}"#, exact(p), exact(q)),
    ]
}
