//! Oracle query lines for failing cases: a differential test or fuzz target that finds a
//! disagreement prints the case as a line the `touchstone` oracle answers with `backend: both`.

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
