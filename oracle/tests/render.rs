//! `touchstone render`: the pictures hold the expected elements at the expected coordinates
//! (structural checks on the SVG read back as XML, not pixels): the exact closest points where
//! they project under the picture's own view, the view perpendicular to the gap, a contact
//! region's normal pointing up the screen, a claim's points beside the exact ones, an inset
//! with a scale bar for a tiny gap, a PNG of the stated size, and a picture for a line of
//! every op.

use serde_json::{json, Value};
use touchstone_oracle::render::{self, draw, Picture};
use touchstone_oracle::Options;

fn picture(line: Value) -> Picture {
    render::picture(&line.to_string(), &Options::default(), 0).expect("a picture")
}

/// The view the picture states: right, up, into the screen, scale, origin.
struct ViewAttr {
    u: [f64; 3],
    w: [f64; 3],
    d: [f64; 3],
    scale: f64,
    origin: (f64, f64),
}

fn floats(s: &str) -> Vec<f64> {
    s.split([' ', ',']).filter(|t| !t.is_empty()).map(|t| t.parse().expect("a number")).collect()
}

fn view_of(doc: &roxmltree::Document) -> ViewAttr {
    let attr = doc.root_element().attribute("data-view").expect("data-view");
    let part = |name: &str| -> Vec<f64> {
        let p = attr.split("; ").find_map(|p| p.strip_prefix(name)).expect(name);
        floats(p)
    };
    let v3 = |v: Vec<f64>| [v[0], v[1], v[2]];
    let o = part("origin ");
    ViewAttr { u: v3(part("u ")), w: v3(part("w ")), d: v3(part("d ")), scale: part("scale ")[0], origin: (o[0], o[1]) }
}

impl ViewAttr {
    fn project(&self, p: [f64; 3]) -> (f64, f64) {
        let dot = |a: [f64; 3]| a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
        (self.origin.0 + self.scale * dot(self.u), self.origin.1 - self.scale * dot(self.w))
    }
}

fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|x| x == class)))
        // The main view's elements (the inset repeats them at its own scale).
        .filter(|n| !n.ancestors().any(|a| a.attribute("class") == Some("inset")))
        .collect()
}

fn world(n: &roxmltree::Node) -> [f64; 3] {
    let v = floats(n.attribute("data-world").expect("data-world"));
    [v[0], v[1], v[2]]
}

fn num(n: &roxmltree::Node, a: &str) -> f64 {
    n.attribute(a).unwrap_or_else(|| panic!("{a}")).parse().expect("a number")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn the_exact_closest_points_of_two_boxes_are_drawn_where_they_project() {
    // Unit cubes, b moved by (3, 1/2, 0): face x = 1 of a against face x = 2 of b, the gap 1
    // along x; the closest points are (1, y, z) and (2, y, z) with y in [−1/2, 1], z in [−1, 1].
    let p = picture(json!({"id": "gap", "op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [3, 0.5, 0]}}));
    let doc = roxmltree::Document::parse(&p.svg).expect("well-formed SVG");
    let view = view_of(&doc);
    let points = with_class(&doc, "exact-point");
    assert_eq!(points.len(), 2, "{}", p.svg);
    let [pa, pb] = [world(&points[0]), world(&points[1])];
    assert_eq!((pa[0], pb[0]), (1.0, 2.0));
    assert_eq!((pa[1], pa[2]), (pb[1], pb[2]));
    assert!((-0.5..=1.0).contains(&pa[1]) && (-1.0..=1.0).contains(&pa[2]), "{pa:?}");
    for (n, w) in points.iter().zip([pa, pb]) {
        let (x, y) = view.project(w);
        assert!(close(num(n, "cx"), x) && close(num(n, "cy"), y), "{x} {y}");
    }
    // The view looks perpendicular to the gap: screen right is +x, the gap is horizontal and
    // as long on screen as the scale says.
    assert!(close(view.u[0], 1.0) && close(view.d[0], 0.0) && close(view.w[0], 0.0));
    let seg = &with_class(&doc, "exact-segment")[0];
    assert!(close(num(seg, "y1"), num(seg, "y2")));
    assert!(close(num(seg, "x2") - num(seg, "x1"), view.scale));
    // The deciding features, drawn over the shapes: the points lie on a's edge [1, 3] (from
    // (1, −1, −1) to (1, 1, −1)) and at b's vertex 0, (−1, −1, −1) moved to (2, −1/2, −1).
    let edge = with_class(&doc, "feature-edge");
    assert_eq!(edge.len(), 1);
    assert_eq!(floats(edge[0].attribute("data-world").unwrap()), [1.0, -1.0, -1.0, 1.0, 1.0, -1.0]);
    let vertex = with_class(&doc, "feature-vertex");
    assert_eq!(vertex.len(), 1);
    assert_eq!(world(&vertex[0]), [2.0, -0.5, -1.0]);
    // Every face of both cubes is drawn (6 each), and one scale bar of a nice length.
    assert_eq!(with_class(&doc, "face").len(), 12);
    let bar = &with_class(&doc, "scale-bar")[0];
    let l = num(bar, "data-length");
    assert!([0.5, 1.0, 2.0].contains(&l), "{l}");
    // No inset for a gap as large as the shapes.
    assert!(with_class(&doc, "inset").is_empty());
}

#[test]
fn a_claim_is_drawn_beside_the_exact_answer() {
    let p = picture(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [3, 0, 0]}, "claim": {"distance": 0.9, "points": [[1, 0, 0], [1.9, 0, 0]]}}));
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    let view = view_of(&doc);
    let claimed = with_class(&doc, "claimed-point");
    assert_eq!(claimed.len(), 2);
    assert_eq!(world(&claimed[1]), [1.9, 0.0, 0.0]);
    let (x, y) = view.project([1.9, 0.0, 0.0]);
    assert!(close(num(&claimed[1], "cx"), x) && close(num(&claimed[1], "cy"), y));
    assert_eq!(with_class(&doc, "claimed-segment").len(), 1);
    // The headline says the claim is wrong (the distance is 1, not 0.9).
    let title = with_class(&doc, "title")[0].text().unwrap_or_default().to_string();
    assert!(title.contains("claim: WRONG") && title.contains("distance 1"), "{title}");
}

#[test]
fn a_tiny_gap_gets_a_magnified_inset_with_its_own_scale_bar() {
    // b 2⁻³⁰ beyond touching: invisible at the shapes' scale.
    let gap = 2f64.powi(-30);
    let p = picture(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [2.0 + gap, 0.25, 0.5]}}));
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    let inset: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("inset")).collect();
    assert_eq!(inset.len(), 1, "{}", p.svg);
    // The inset's scale makes the gap a third of its width (240 px), and its scale bar is a
    // nice length of the gap's order.
    let scale = num(&inset[0], "data-scale");
    assert!(close(scale * gap, 80.0), "{scale}");
    let bar = inset[0].descendants().find(|n| n.attribute("class") == Some("scale-bar inset-scale-bar")).unwrap();
    let l = num(&bar, "data-length");
    assert!(l > gap / 10.0 && l < gap * 10.0, "{l}");
    let mantissa = l / 10f64.powf(l.log10().floor());
    assert!([1.0, 2.0, 5.0].iter().any(|m| close(*m, mantissa)), "{l}");
    // Inside the inset both exact points are drawn, a third of the inset apart.
    let pts: Vec<_> = inset[0].descendants().filter(|n| n.attribute("class") == Some("exact-point")).collect();
    assert_eq!(pts.len(), 2);
    assert!(close((num(&pts[1], "cx") - num(&pts[0], "cx")).abs(), 80.0));
}

#[test]
fn a_contact_regions_normal_points_up_the_screen() {
    // Face on face: the region is the overlap square of side 1 × 2 on x = 1, normal ±x.
    let p = picture(json!({"op": "contact", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [2, 1, 0]}}));
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    let view = view_of(&doc);
    let region = with_class(&doc, "region");
    assert_eq!(region.len(), 1, "{}", p.svg);
    let corners: Vec<f64> = floats(region[0].attribute("data-world").unwrap());
    assert_eq!(corners.len(), 12);
    assert!(corners.chunks(3).all(|c| c[0] == 1.0 && (0.0..=1.0).contains(&c[1]) && (-1.0..=1.0).contains(&c[2])));
    // The view looks along the region's plane: the normal is screen up (or down).
    assert!(close(view.w[0].abs(), 1.0) && close(view.d[0], 0.0), "{:?}", view.w);
    let normal = &with_class(&doc, "exact-normal")[0];
    assert!(close(num(normal, "x1"), num(normal, "x2")));
    assert!((num(normal, "y1") - num(normal, "y2")).abs() > 10.0);
}

#[test]
fn the_png_is_the_picture_rasterised() {
    let p = picture(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"ball": 0.5},
        "pose_b": {"translation": [0, 0, 3]}}));
    let png = render::png(&p.svg).expect("a PNG");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, at bytes 16..24.
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!((be(&png[16..20]), be(&png[20..24])), (draw::WIDTH as u32, draw::HEIGHT as u32));
    // The ball is drawn as a circle of its radius at its centre.
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    let view = view_of(&doc);
    let ball = &with_class(&doc, "ball")[0];
    assert!(close(num(ball, "r"), 0.5 * view.scale));
    let (x, y) = view.project([0.0, 0.0, 3.0]);
    assert!(close(num(ball, "cx"), x) && close(num(ball, "cy"), y));
}

#[test]
fn every_op_gives_a_picture_and_bad_lines_give_typed_errors() {
    let unit = json!({"box": [1, 1, 1]});
    let id = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let zero = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    // A line of every op the format has, each answered (no error), and lines that fail.
    let answered = [
        json!({"op": "orient3d", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}),
        json!({"op": "orient2d", "points": [[0, 0], [1, 0], [0, 1]]}),
        json!({"op": "side_of_plane", "plane": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}, "point": [5, 5, -1]}),
        json!({"op": "transform_points", "pose": {"quaternion": [1, 2, 3, 4], "translation": [1, 0, 0]}, "points": [[1, 0, 0]]}),
        json!({"op": "squared_distance", "point": [1, 1, 1], "to_plane": {"coefficients": [1, 1, 1, -1]}}),
        json!({"op": "segment_plane", "segment": [[0, 0, 0], [0, 0, 2]], "plane": {"coefficients": [0, 0, 3, -3]}}),
        json!({"op": "validate", "solid": unit}),
        json!({"op": "distance", "a": unit, "b": unit, "pose_b": {"quaternion": [1, 0.3, 0.2, 0.1], "translation": [3, 0, 0]}}),
        json!({"op": "distance", "a": {"ball": 1}, "b": {"capsule": {"a": [-1, 0, 3], "b": [1, 0, 3], "radius": 0.5}}}),
        json!({"op": "distance", "a": {"round": {"shape": unit, "radius": 0.25}}, "b": unit, "pose_b": {"translation": [3, 0, 0]}}),
        json!({"op": "ccd", "kind": "vertex_face", "t0": [[0.25, 0.25, 1], [0, 0, 0], [1, 0, 0], [0, 1, 0]],
               "t1": [[0.25, 0.25, -1], [0, 0, 0], [1, 0, 0], [0, 1, 0]]}),
        json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1], "motion_a": [id, zero, zero],
               "motion_b": [[[1, 0, 0, 5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], [[0, 0, 0, -4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], zero],
               "interval": [0, 1]}),
        json!({"op": "toi", "a": unit, "b": unit, "pose_b": {"translation": [5, 0, 0]}, "velocity_b": [-4, 0, 0]}),
        json!({"op": "toi", "a": {"ball": 1}, "b": unit, "pose_a": {"translation": [0, 0, 5]}, "velocity_a": [0, 0, -2], "interval": [0, 5]}),
        json!({"op": "classify_point", "solid": unit, "point": [1, 0, 0]}),
        json!({"op": "classify_segment", "solid": unit, "segment": [[0, 0, 0], [0, 0, 3]]}),
        json!({"op": "index_stats", "solid": unit}),
        json!({"op": "contact", "a": unit, "b": unit, "pose_b": {"translation": [2, 0, 0]}}),
        json!({"op": "contact_forces", "bodies": [], "gravity": [0, 0, -1], "contacts": []}),
    ];
    for line in &answered {
        let p = picture(line.clone());
        assert!(!p.scene.headline.contains("error"), "{line}: {}", p.scene.headline);
    }
    let lines = answered.into_iter().chain([
        json!({"op": "distance", "a": {"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 2, "minor": 1}}, "b": unit}),
        json!({"op": "distance", "a": {"box": [1e300, 1e300, 1e300]}, "b": {"box": [1e-300, 1, 1]},
               "pose_b": {"translation": [1e300, 0, 0]}}),
        json!({"op": "nonsense"}),
    ]);
    for line in lines {
        let p = picture(line.clone());
        let doc = roxmltree::Document::parse(&p.svg).unwrap_or_else(|e| panic!("{line}: {e}"));
        // Every coordinate drawn is finite, whatever the shapes' size.
        for n in doc.descendants() {
            for a in ["cx", "cy", "r", "x1", "y1", "x2", "y2", "points", "stroke-width"] {
                if let Some(v) = n.attribute(a) {
                    assert!(floats(v).iter().all(|x| x.is_finite()), "{line}: {a}={v}");
                }
            }
        }
        assert!(!with_class(&doc, "title").is_empty());
        assert!(render::png(&p.svg).is_ok(), "{line}");
    }
    // A torus is drawn as a 12 × 32 grid of its surface's points, an implicit solid as points
    // sampled near its boundary.
    let torus = picture(
        json!({"op": "distance", "a": {"torus": {"center": [0, 0, 0], "axis": [0, 0, 1], "major": 2, "minor": 1}}, "b": unit}),
    );
    let doc = roxmltree::Document::parse(&torus.svg).unwrap();
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("face shape-a")).count(), 384);
    let implicit = picture(json!({"op": "distance",
        "a": {"implicit": {"poly": [[1, [2, 0, 0]], [1, [0, 2, 0]], [1, [0, 0, 2]], [-1, [0, 0, 0]]], "bounds": [[-2, -2, -2], [2, 2, 2]]}},
        "b": {"ball": 1}, "pose_b": {"translation": [3, 0, 0]}}));
    // The unit ball as an implicit solid: its sampled boundary points lie within a grid cell
    // (0.1 across, so within √3·0.05 of the cell's centre) of the unit sphere.
    let doc = roxmltree::Document::parse(&implicit.svg).unwrap();
    let view = view_of(&doc);
    let cloud = doc.descendants().find(|n| n.attribute("class") == Some("samples shape-a")).expect("sampled points");
    let dots: Vec<_> = cloud.children().filter(|n| n.is_element()).collect();
    assert!(dots.len() > 500, "{}", dots.len());
    let (cx, cy) = view.project([0.0, 0.0, 0.0]);
    for d in &dots {
        let r = ((num(d, "cx") - cx).powi(2) + (num(d, "cy") - cy).powi(2)).sqrt() / view.scale;
        assert!(r <= 1.0 + 0.09, "{r}");
    }
    assert!(implicit.scene.notes.is_empty(), "{:?}", implicit.scene.notes);
    // Lines that are not JSON objects give typed errors naming the line.
    for bad in ["{", "[1, 2]", "nul"] {
        let e = render::picture(bad, &Options::default(), 6).unwrap_err();
        assert!(e.to_string().starts_with("line 7:"), "{e}");
    }
}

#[test]
fn render_writes_an_svg_and_a_png_per_line() {
    let dir = std::env::temp_dir().join(format!("touchstone-render-{}", std::process::id()));
    let text = [
        json!({"id": "a/../b", "op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [3, 0, 0]}}),
        json!({"op": "contact", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}, "pose_b": {"translation": [2, 0, 0]}}),
    ]
    .map(|v| v.to_string())
    .join("\n")
        + "\nnot json\n";
    let formats = render::Formats { png: true, gltf: true };
    let done = render::render_file(&text, &dir, &Options::default(), formats, |_| {}).unwrap();
    let names: Vec<String> =
        done.written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    // The id is made safe for a file name (no path separators or dots survive).
    assert_eq!(names, ["1-ab.svg", "1-ab.gltf", "1-ab.png", "2.svg", "2.gltf", "2.png"]);
    assert!(done.written.iter().all(|p| p.parent() == Some(dir.as_path())));
    assert_eq!(done.skipped.len(), 1);
    assert!(done.skipped[0].starts_with("line 3:"), "{:?}", done.skipped);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_gltf_scene_holds_the_shapes_and_the_points() {
    use base64::Engine as _;
    let p = picture(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [3, 0.5, 0]}}));
    let doc = render::gltf::gltf(&p.scene);
    assert_eq!(doc["asset"]["version"], "2.0");
    let uri = doc["buffers"][0]["uri"].as_str().unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(uri.strip_prefix("data:application/octet-stream;base64,").expect("embedded"))
        .unwrap();
    assert_eq!(doc["buffers"][0]["byteLength"].as_u64(), Some(bytes.len() as u64));
    // Every accessor inside its view and the buffer; positions within their stated bounds;
    // indices below their mesh's position count.
    let view = |a: &Value| &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let positions = |a: &Value| -> Vec<[f32; 3]> {
        let v = view(a);
        let (off, len) = (v["byteOffset"].as_u64().unwrap() as usize, v["byteLength"].as_u64().unwrap() as usize);
        assert_eq!(len, 12 * a["count"].as_u64().unwrap() as usize);
        bytes[off..off + len]
            .chunks(12)
            .map(|c| [0, 1, 2].map(|i| f32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]])))
            .collect()
    };
    let mut names = Vec::new();
    for mesh in doc["meshes"].as_array().unwrap() {
        names.push(mesh["name"].as_str().unwrap().to_string());
        let prim = &mesh["primitives"][0];
        let pos = &doc["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
        let idx = &doc["accessors"][prim["indices"].as_u64().unwrap() as usize];
        let pts = positions(pos);
        for p in &pts {
            for i in 0..3 {
                assert!(
                    pos["min"][i].as_f64().unwrap() as f32 <= p[i] && p[i] <= pos["max"][i].as_f64().unwrap() as f32
                );
            }
        }
        let v = view(idx);
        let off = v["byteOffset"].as_u64().unwrap() as usize;
        let count = idx["count"].as_u64().unwrap() as usize;
        assert_eq!(v["byteLength"].as_u64().unwrap() as usize, 4 * count);
        for c in bytes[off..off + 4 * count].chunks(4) {
            assert!((u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize) < pts.len());
        }
        if mesh["name"] == "shape a" {
            assert_eq!(count, 36, "a cube's 6 faces in 12 triangles");
        }
        if mesh["name"] == "exact points" {
            // Each octahedron's centre is its exact point, recentred and scaled as `extras` say.
            let (c, s) = (&doc["extras"]["center"], doc["extras"]["scale"].as_f64().unwrap());
            let centre: Vec<[f64; 3]> = pts
                .chunks(6)
                .map(|o| {
                    [0, 1, 2].map(|i| o.iter().map(|p| f64::from(p[i])).sum::<f64>() / 6.0 / s + c[i].as_f64().unwrap())
                })
                .collect();
            for (got, want) in centre.iter().zip([[1.0, -0.5, -1.0], [2.0, -0.5, -1.0]]) {
                assert!((0..3).all(|i| (got[i] - want[i]).abs() < 1e-5), "{got:?} {want:?}");
            }
        }
    }
    assert_eq!(names, ["shape a", "shape b", "exact points", "exact gap and normals"]);
}

/// A time picture's mapping: (t0, t1, x0, x1) and (largest separation, y0, y1).
fn time_frame(doc: &roxmltree::Document) -> ([f64; 4], [f64; 3]) {
    let t = floats(doc.root_element().attribute("data-t").unwrap());
    let d = floats(doc.root_element().attribute("data-d").unwrap());
    ([t[0], t[1], t[2], t[3]], [d[0], d[1], d[2]])
}

fn marked_time(doc: &roxmltree::Document, class: &str) -> Vec<(f64, f64)> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| (num(&n, "data-t"), num(&n, "x1")))
        .collect()
}

#[test]
fn a_casts_time_picture_marks_the_exact_and_the_claimed_time() {
    // Cubes 3 apart closing at 4: first contact at t = 3/4; the engine claimed 0.7.
    let p = picture(json!({"op": "toi", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
        "pose_b": {"translation": [5, 0, 0]}, "velocity_b": [-4, 0, 0], "claim": {"toi": 0.7}}));
    let svg = p.time_svg.expect("a time picture");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let ([t0, t1, x0, x1], [dmax, y0, y1]) = time_frame(&doc);
    assert_eq!((t0, t1), (0.0, 1.0));
    // The separation starts at the gap, 3, the largest it gets, and is 0 from 3/4 on.
    assert!(close(dmax, 3.0), "{dmax}");
    let poly = doc.descendants().find(|n| n.attribute("class") == Some("separation")).unwrap();
    let pts = floats(poly.attribute("points").unwrap());
    assert!(close(pts[0], x0) && close(pts[1], y1));
    let last = pts.len() - 2;
    assert!(close(pts[last], x1) && close(pts[last + 1], y0));
    let x = |t: f64| x0 + (x1 - x0) * (t - t0) / (t1 - t0);
    for (class, t) in [("exact-toi", 0.75), ("claimed-toi", 0.7)] {
        let m = marked_time(&doc, class);
        assert_eq!(m.len(), 1, "{class}");
        assert!(close(m[0].0, t) && close(m[0].1, x(t)), "{class} {m:?}");
    }
}

#[test]
fn a_spinning_box_sweeps_time_picture_shows_its_octant_switch() {
    // b spins about z by the rational rotation of the quaternion (1, 0, 0, t) (θ = 2·atan t),
    // centred at x = 9/4. Its corner nearest a is at x = 9/4 − cos θ − sin θ, which reaches a's
    // face x = 1 when cos θ + sin θ = 5/4: with t = tan(θ/2), 9t² − 8t + 1 = 0, so the first
    // contact is t* = (4 − √7)/9. Its face normals' x components (cos θ, −sin θ) change sign at
    // θ = 90°, t = 1: the one octant switch in (0, 2).
    let id = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
    let zero = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let p = picture(json!({"op": "toi_boxes", "a": [1, 1, 1], "b": [1, 1, 1],
        "motion_a": [id, zero, zero],
        "motion_b": [[[1, 0, 0, "9/4"], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                     [[0, -2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
                     [[-1, 0, 0, "9/4"], [0, -1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]],
        "interval": [0, 2]}));
    // The boxes themselves are drawn at the first contact, a's face x = +1 the deciding one.
    let shapes = roxmltree::Document::parse(&p.svg).unwrap();
    assert_eq!(with_class(&shapes, "face").len(), 12, "{:?}", p.scene.notes);
    let face = &with_class(&shapes, "feature-face")[0];
    assert!(floats(face.attribute("data-world").unwrap()).chunks(3).all(|c| c[0] == 1.0));
    let doc = roxmltree::Document::parse(p.time_svg.as_deref().expect("a time picture")).unwrap();
    let switches = marked_time(&doc, "switch");
    assert_eq!(switches.len(), 1, "{switches:?}");
    assert!(close(switches[0].0, 1.0));
    let exact = marked_time(&doc, "exact-toi");
    assert!(close(exact[0].0, (4.0 - 7f64.sqrt()) / 9.0), "{exact:?}");
    // At t = 0 the gap is 9/4 − 2 = 1/4.
    let poly = doc.descendants().find(|n| n.attribute("class") == Some("separation")).unwrap();
    let ([_, _, _, _], [dmax, _, y1]) = time_frame(&doc);
    assert!(close(dmax, 0.25) && close(floats(poly.attribute("points").unwrap())[1], y1));
}

#[test]
fn a_ccd_querys_time_picture_is_the_primitives_distance() {
    // The vertex crosses the triangle's plane at t = 1/2, inside it; it starts 1 above.
    let p = picture(json!({"op": "ccd", "kind": "vertex_face",
        "t0": [[0.25, 0.25, 1], [0, 0, 0], [1, 0, 0], [0, 1, 0]],
        "t1": [[0.25, 0.25, -1], [0, 0, 0], [1, 0, 0], [0, 1, 0]]}));
    let doc = roxmltree::Document::parse(p.time_svg.as_deref().expect("a time picture")).unwrap();
    let (_, [dmax, _, _]) = time_frame(&doc);
    assert!(close(dmax, 1.0), "{dmax}");
    assert!(close(marked_time(&doc, "exact-toi")[0].0, 0.5));
    assert!(marked_time(&doc, "claimed-toi").is_empty() && marked_time(&doc, "switch").is_empty());
    // A distance picture has no time picture.
    assert!(picture(json!({"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]}})).time_svg.is_none());
}

#[test]
fn boxes_of_ten_to_the_minus_two_hundred_are_drawn_like_unit_boxes() {
    // Two boxes of half extent 5·10⁻²⁰¹, the second 1.125·10⁻²⁰⁰ along x and turned by the
    // quaternion (2, 1, 0, 0): squares of their coordinates underflow binary64, yet every face
    // is drawn and the view still looks perpendicular to the gap.
    let p = picture(json!({"op": "distance", "a": {"box": [5e-201, 5e-201, 5e-201]},
        "b": {"box": [5e-201, 5e-201, 5e-201]}, "pose_b": {"quaternion": [2, 1, 0, 0], "translation": [1.125e-200, 0, 0]}}));
    assert!(p.scene.notes.is_empty(), "{:?}", p.scene.notes);
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    assert_eq!(with_class(&doc, "face").len(), 12);
    let seg = &with_class(&doc, "exact-segment")[0];
    assert!(close(num(seg, "y1"), num(seg, "y2")), "{}", p.svg);
    assert!(num(seg, "x2") - num(seg, "x1") > 20.0);
}

#[test]
fn a_gap_below_binary64s_resolution_is_drawn_around_an_exact_origin() {
    // FCL's finding (python-fcl 0.7.0.11 says these boxes are 0.406 deep): the exact gap is
    // 3.55·10⁻¹⁶ between points near (3, 6, 2), below the spacing of doubles there, so each
    // point rounded alone would land on the other. Drawn around the first exact point, the
    // gap survives: the inset shows it a third of its width long.
    let p = picture(json!({"id": "edge-edge/203", "op": "distance",
        "a": {"box": [0.5, 1.0, 0.5]}, "pose_a": {"quaternion": [4, -8, 7, 1], "translation": [2.5, 5.375, 1.875]},
        "b": {"box": [0.5, 0.5, 0.5]}, "pose_b": {"quaternion": [9, -3, 6, 2], "translation": [3.05625, 6.775, 2.1]}}));
    let doc = roxmltree::Document::parse(&p.svg).unwrap();
    let origin = doc.root_element().attribute("data-origin-world").expect("an exact origin");
    assert_eq!(origin.split(' ').nth(1), Some("243/40"));
    let points = with_class(&doc, "exact-point");
    assert_eq!(world(&points[0]), [0.0, 0.0, 0.0]);
    let gap = world(&points[1]);
    let length = gap.iter().map(|x| x * x).sum::<f64>().sqrt();
    assert!((length - 3.552713678800501e-16).abs() < 1e-24, "{length:e}");
    let inset = doc.descendants().find(|n| n.attribute("class") == Some("inset")).expect("an inset");
    let pts: Vec<_> = inset.descendants().filter(|n| n.attribute("class") == Some("exact-point")).collect();
    assert!(close((num(&pts[1], "cx") - num(&pts[0], "cx")).abs(), 80.0));
    assert!(close(num(&pts[1], "cy"), num(&pts[0], "cy")));
    // Both boxes are still drawn whole in the main view.
    assert_eq!(with_class(&doc, "face").len(), 12);
}
