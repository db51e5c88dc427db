//! A scene as a glTF 2.0 file (`render --gltf`): one self-contained JSON document, its
//! binary data embedded as a base64 `data:` URI, that opens in any 3D viewer. Each shape is a
//! mesh of its own colour (polytopes by their faces fanned into triangles, balls as spheres,
//! swept shapes as spheres at their core's vertices and, for a capsule, the cylinder between);
//! exact points and claimed points are small octahedra, gaps and normals line segments, contact
//! regions filled polygons.
//!
//! glTF's positions are 32-bit floats: the scene is moved to its centre and scaled to a unit
//! size first (so that a box of 10⁻²⁰⁰ or 10³⁰⁰ is still a box); the centre and the scale are in
//! the document's `extras`, as are the line's id, op and headline.

use base64::Engine as _;
use serde_json::{json, Value};

use super::scene::{extent_of, Body, MarkKind, Scene, P3};

/// Triangles (or line segments) in world coordinates with a colour.
struct Part {
    name: String,
    color: [f64; 4],
    /// 4: triangles, 1: lines.
    mode: u32,
    positions: Vec<P3>,
    indices: Vec<u32>,
}

impl Part {
    fn new(name: impl Into<String>, color: [f64; 4], mode: u32) -> Part {
        Part { name: name.into(), color, mode, positions: Vec::new(), indices: Vec::new() }
    }

    fn vertex(&mut self, p: P3) -> u32 {
        self.positions.push(p);
        (self.positions.len() - 1) as u32
    }

    /// A convex polygon fanned from its first vertex.
    fn polygon(&mut self, pts: &[P3]) {
        let first = self.positions.len() as u32;
        for &p in pts {
            self.vertex(p);
        }
        for k in 1..pts.len().saturating_sub(1) as u32 {
            self.indices.extend([first, first + k, first + k + 1]);
        }
    }

    /// A UV sphere.
    fn sphere(&mut self, c: P3, r: f64) {
        let (rings, segments) = (8u32, 16u32);
        let first = self.positions.len() as u32;
        for i in 0..=rings {
            let phi = std::f64::consts::PI * f64::from(i) / f64::from(rings);
            for j in 0..segments {
                let theta = 2.0 * std::f64::consts::PI * f64::from(j) / f64::from(segments);
                self.vertex([
                    c[0] + r * phi.sin() * theta.cos(),
                    c[1] + r * phi.sin() * theta.sin(),
                    c[2] + r * phi.cos(),
                ]);
            }
        }
        for i in 0..rings {
            for j in 0..segments {
                let (a, b) = (first + i * segments + j, first + i * segments + (j + 1) % segments);
                let (c2, d) = (a + segments, b + segments);
                self.indices.extend([a, c2, b, b, c2, d]);
            }
        }
    }

    /// A cylinder (16 sides, no caps) of radius r from p to q.
    fn cylinder(&mut self, p: P3, q: P3, r: f64) {
        let axis = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        let l = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
        if l == 0.0 || !l.is_finite() {
            return;
        }
        let a = axis.map(|x| x / l);
        let e = if a[0].abs() < 0.9 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
        let cross = |u: P3, v: P3| [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        let u = cross(a, e);
        let lu = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        let u = u.map(|x| x / lu);
        let w = cross(a, u);
        let first = self.positions.len() as u32;
        let n = 16u32;
        for j in 0..n {
            let t = 2.0 * std::f64::consts::PI * f64::from(j) / f64::from(n);
            let off = [0, 1, 2].map(|i| r * (t.cos() * u[i] + t.sin() * w[i]));
            self.vertex([p[0] + off[0], p[1] + off[1], p[2] + off[2]]);
            self.vertex([q[0] + off[0], q[1] + off[1], q[2] + off[2]]);
        }
        for j in 0..n {
            let (a0, b0) = (first + 2 * j, first + 2 * j + 1);
            let (a1, b1) = (first + 2 * ((j + 1) % n), first + 2 * ((j + 1) % n) + 1);
            self.indices.extend([a0, a1, b0, b0, a1, b1]);
        }
    }

    /// A small octahedron marking a point.
    fn marker(&mut self, c: P3, s: f64) {
        let first = self.positions.len() as u32;
        for (i, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0)] {
            let mut p = c;
            p[i] += sign * s;
            self.vertex(p);
        }
        for (x, y, z) in [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)] {
            self.indices.extend([first + x, first + y, first + z]);
        }
    }

    fn segment(&mut self, p: P3, q: P3) {
        let a = self.vertex(p);
        let b = self.vertex(q);
        self.indices.extend([a, b]);
    }
}

const SHAPE_COLORS: [[f64; 4]; 3] = [[0.23, 0.44, 0.71, 0.5], [0.85, 0.51, 0.17, 0.5], [0.42, 0.62, 0.23, 0.5]];
const EXACT: [f64; 4] = [0.75, 0.22, 0.17, 1.0];
const CLAIM: [f64; 4] = [0.49, 0.24, 0.6, 1.0];

/// The glTF document of a scene.
pub fn gltf(scene: &Scene) -> Value {
    let size = extent_of(scene);
    let mut parts: Vec<Part> = Vec::new();
    for (k, shape) in scene.shapes.iter().enumerate() {
        let mut part = Part::new(format!("shape {}", shape.name), SHAPE_COLORS[k % 3], 4);
        match &shape.body {
            Body::Mesh { vertices, faces, .. } => {
                for f in faces {
                    part.polygon(&f.iter().map(|&i| vertices[i]).collect::<Vec<_>>());
                }
            }
            Body::Ball { center, radius } => part.sphere(*center, *radius),
            Body::Samples { points } => {
                let s = (size * 0.004).max(f64::MIN_POSITIVE);
                for &p in points {
                    part.marker(p, s);
                }
            }
            Body::Swept { core, radius } => {
                for &c in core {
                    part.sphere(c, *radius);
                }
                if core.len() == 2 {
                    part.cylinder(core[0], core[1], *radius);
                }
            }
        }
        parts.push(part);
    }
    let marker = (size * 0.012).max(f64::MIN_POSITIVE);
    for (kind, color, name) in [
        (MarkKind::ExactPoint, EXACT, "exact points"),
        (MarkKind::ClaimedPoint, CLAIM, "claimed points"),
        (MarkKind::QueryPoint, [0.07, 0.48, 0.4, 1.0], "query points"),
    ] {
        let mut part = Part::new(name, color, 4);
        for m in scene.marks.iter().filter(|m| m.kind == kind) {
            for &p in &m.points {
                part.marker(p, marker);
            }
        }
        parts.push(part);
    }
    for (kinds, color, name) in [
        ([MarkKind::ExactSegment, MarkKind::ExactNormal], EXACT, "exact gap and normals"),
        ([MarkKind::ClaimedSegment, MarkKind::ClaimedNormal], CLAIM, "claimed gap and normal"),
    ] {
        let mut part = Part::new(name, color, 1);
        for m in scene.marks.iter().filter(|m| kinds.contains(&m.kind) && m.points.len() >= 2) {
            part.segment(m.points[0], m.points[m.points.len() - 1]);
        }
        parts.push(part);
    }
    let mut region = Part::new("exact contact regions", [0.75, 0.22, 0.17, 0.6], 4);
    for m in scene.marks.iter().filter(|m| m.kind == MarkKind::Region && m.points.len() >= 3) {
        region.polygon(&m.points);
    }
    parts.push(region);
    parts.retain(|p| !p.indices.is_empty());
    document(scene, parts, size)
}

/// The document: the parts recentred and scaled to unit size, in one embedded buffer.
fn document(scene: &Scene, parts: Vec<Part>, size: f64) -> Value {
    // The centre of every position, and the scale that makes the scene about one unit.
    let all: Vec<P3> = parts.iter().flat_map(|p| p.positions.iter().copied()).collect();
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in &all {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let center = if all.is_empty() { [0.0; 3] } else { [0, 1, 2].map(|i| lo[i] / 2.0 + hi[i] / 2.0) };
    let span = (0..3).map(|i| hi[i] - lo[i]).filter(|x| x.is_finite()).fold(size, f64::max);
    let scale = if span > 0.0 && span.is_finite() { 1.0 / span } else { 1.0 };
    let mut bytes: Vec<u8> = Vec::new();
    let (mut views, mut accessors, mut meshes, mut materials, mut nodes) = (vec![], vec![], vec![], vec![], vec![]);
    for part in parts {
        let local: Vec<[f32; 3]> =
            part.positions.iter().map(|p| [0, 1, 2].map(|i| ((p[i] - center[i]) * scale) as f32)).collect();
        let (mut mn, mut mx) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for p in &local {
            for i in 0..3 {
                mn[i] = mn[i].min(p[i]);
                mx[i] = mx[i].max(p[i]);
            }
        }
        let offset = bytes.len();
        for p in &local {
            for c in p {
                bytes.extend_from_slice(&c.to_le_bytes());
            }
        }
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len() - offset, "target": 34962}));
        accessors.push(json!({"bufferView": views.len() - 1, "componentType": 5126, "count": local.len(), "type": "VEC3", "min": mn, "max": mx}));
        let offset = bytes.len();
        for i in &part.indices {
            bytes.extend_from_slice(&i.to_le_bytes());
        }
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len() - offset, "target": 34963}));
        accessors.push(json!({"bufferView": views.len() - 1, "componentType": 5125, "count": part.indices.len(), "type": "SCALAR"}));
        materials.push(json!({
            "name": part.name,
            "pbrMetallicRoughness": {"baseColorFactor": part.color, "metallicFactor": 0.0, "roughnessFactor": 0.9},
            "alphaMode": if part.color[3] < 1.0 { "BLEND" } else { "OPAQUE" },
            "doubleSided": true
        }));
        meshes.push(json!({"name": part.name, "primitives": [{
            "attributes": {"POSITION": accessors.len() - 2},
            "indices": accessors.len() - 1,
            "material": materials.len() - 1,
            "mode": part.mode
        }]}));
        nodes.push(json!({"name": part.name, "mesh": meshes.len() - 1}));
    }
    let uri =
        format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bytes));
    json!({
        "asset": {"version": "2.0", "generator": "touchstone render"},
        "scene": 0,
        "scenes": [{"name": format!("{} {}", scene.id, scene.op), "nodes": (0..nodes.len()).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": materials,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bytes.len(), "uri": uri}],
        "extras": {"id": scene.id, "op": scene.op, "headline": scene.headline, "center": center, "scale": scale,
                   "note": "positions are (world - center) * scale"}
    })
}
