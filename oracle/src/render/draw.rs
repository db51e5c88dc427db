//! A scene drawn as SVG: an orthographic view chosen from the answer, the shapes' faces
//! back to front, the deciding features, the marks, a scale bar and, when the gap or the
//! claim's error is far below the shapes' size, a magnified inset with its own scale bar.
//!
//! Every mark carries its world coordinates (`data-world`) and the root its view
//! (`data-view`: the screen's right and up directions and the view direction, then the scale
//! and origin), so a test can check that each element is drawn where its point projects.

use svg::node::element::{Circle, ClipPath, Definitions, Group, Line, Polygon, Rectangle, Text};
use svg::Document;

use super::scene::{body_points, extent_of, norm, Body, Drawn, Mark, MarkKind, Scene, P3};

/// The picture's size in pixels.
pub const WIDTH: f64 = 800.0;
/// The picture's height.
pub const HEIGHT: f64 = 600.0;
const MARGIN: f64 = 40.0;
/// The inset's side.
const INSET: f64 = 240.0;
/// A gap or error below this share of the scene's size gets an inset.
const INSET_BELOW: f64 = 0.02;

/// An orthonormal view: screen right `u`, screen up `w`, into the screen `d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Screen right.
    pub u: P3,
    /// Screen up.
    pub w: P3,
    /// Into the screen.
    pub d: P3,
}

/// A view's placement on the canvas: screen = (ox + s·(p·u), oy − s·(p·w)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Pixels per world unit.
    pub scale: f64,
    /// Screen x of the world origin.
    pub ox: f64,
    /// Screen y of the world origin.
    pub oy: f64,
}

fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P3, b: P3) -> P3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(a: P3) -> Option<P3> {
    let l = norm(a);
    (l > 0.0 && l.is_finite()).then(|| a.map(|x| x / l))
}

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

impl View {
    /// The view with screen right along `right` (any nonzero vector), its up direction the
    /// coordinate axis most perpendicular to it, made orthogonal.
    pub fn with_right(right: P3) -> Option<View> {
        let u = unit(right)?;
        // Up: the coordinate axis least aligned with u (z first on a tie), made perpendicular.
        let axes = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
        let e = axes.into_iter().min_by(|a, b| dot(*a, u).abs().total_cmp(&dot(*b, u).abs()))?;
        let w = unit(sub(e, u.map(|x| x * dot(e, u))))?;
        Some(View { u, w, d: cross(w, u) })
    }

    /// The view with screen up along `up`, screen right along `along` made perpendicular to it
    /// (or any perpendicular direction).
    pub fn with_up(up: P3, along: Option<P3>) -> Option<View> {
        let w = unit(up)?;
        let v = View::with_right(w)?;
        let u = along.and_then(|a| unit(sub(a, w.map(|x| x * dot(a, w))))).unwrap_or(v.w);
        Some(View { u, w, d: cross(w, u) })
    }

    /// A three-quarter view (no direction decided by the answer).
    pub fn oblique() -> View {
        let d = unit([-0.55, 0.75, -0.37]).unwrap_or([0.0, 1.0, 0.0]);
        let u = unit(cross([0.0, 0.0, 1.0], d)).unwrap_or([1.0, 0.0, 0.0]);
        View { u, w: cross(d, u), d }
    }

    /// Screen coordinates of `p` in `frame`.
    pub fn project(&self, frame: &Frame, p: P3) -> (f64, f64) {
        (frame.ox + frame.scale * dot(p, self.u), frame.oy - frame.scale * dot(p, self.w))
    }
}

/// The view that shows the deciding geometry: perpendicular to the closest-point segment
/// (the segment runs left to right), or along a contact region's plane (its normal up), or
/// three-quarter.
pub fn choose_view(scene: &Scene) -> View {
    let of = |k: MarkKind| scene.marks.iter().find(|m| m.kind == k);
    if let Some(seg) = of(MarkKind::ExactSegment) {
        if let Some(v) = View::with_right(sub(seg.points[1], seg.points[0])) {
            return v;
        }
    }
    if let Some(n) = of(MarkKind::ExactNormal) {
        let along = of(MarkKind::Region).and_then(|r| widest(&r.points));
        if let Some(v) = View::with_up(sub(n.points[1], n.points[0]), along) {
            return v;
        }
    }
    if let Some(seg) = of(MarkKind::ClaimedSegment) {
        if let Some(v) = View::with_right(sub(seg.points[1], seg.points[0])) {
            return v;
        }
    }
    View::oblique()
}

/// The direction between the two farthest points of a set.
fn widest(points: &[P3]) -> Option<P3> {
    let mut best: Option<(f64, P3)> = None;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = sub(*q, *p);
            if best.is_none_or(|(l, _)| norm(d) > l) {
                best = Some((norm(d), d));
            }
        }
    }
    best.map(|(_, d)| d)
}

/// The frame fitting `points` (with reaches) into the box [x0, x0 + w] × [y0, y0 + h].
fn fit(view: &View, points: &[(P3, f64)], (x0, y0, w, h): (f64, f64, f64, f64)) -> Frame {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for &(p, r) in points {
        let (x, y) = (dot(p, view.u), dot(p, view.w));
        lo = [lo[0].min(x - r), lo[1].min(y - r)];
        hi = [hi[0].max(x + r), hi[1].max(y + r)];
    }
    if !lo[0].is_finite() || !hi[0].is_finite() {
        return Frame { scale: 1.0, ox: x0 + w / 2.0, oy: y0 + h / 2.0 };
    }
    let span = (hi[0] - lo[0]).max(hi[1] - lo[1] * 1.0).max(1e-300);
    let scale =
        ((w / (hi[0] - lo[0]).max(span * 1e-3)).min(h / (hi[1] - lo[1]).max(span * 1e-3))).max(f64::MIN_POSITIVE);
    let (cx, cy) = ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0);
    Frame { scale, ox: x0 + w / 2.0 - scale * cx, oy: y0 + h / 2.0 + scale * cy }
}

/// A "nice" length (1, 2 or 5 times a power of ten) near a fifth of `span`.
pub fn nice_length(span: f64) -> f64 {
    let target = span / 5.0;
    if !(target > 0.0 && target.is_finite()) {
        return 1.0;
    }
    let p = 10f64.powf(target.log10().floor());
    [10.0, 5.0, 2.0, 1.0].into_iter().map(|k| k * p).find(|&l| l <= target * 1.5).unwrap_or(p)
}

/// A length for a label.
fn length_text(l: f64) -> String {
    if (1e-3..1e4).contains(&l) {
        let s = format!("{l:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{l:e}")
    }
}

fn world_attr(points: &[P3]) -> String {
    points.iter().map(|p| format!("{} {} {}", p[0], p[1], p[2])).collect::<Vec<_>>().join(", ")
}

const COLORS: [&str; 3] = ["#3b6fb6", "#d9822b", "#6a9f3a"];
const EXACT: &str = "#c0392b";
const CLAIM: &str = "#7d3c98";

/// The shapes and marks drawn in `frame` (the main view, or the inset's).
fn layer(scene: &Scene, view: &View, frame: &Frame, inset: bool) -> Group {
    let mut g = Group::new().set("class", if inset { "layer inset-layer" } else { "layer" });
    let at = |p: P3| view.project(frame, p);
    // Faces of every mesh back to front (depth along d, the farthest first).
    let mut faces: Vec<(f64, usize, Polygon)> = Vec::new();
    for (k, shape) in scene.shapes.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        match &shape.body {
            Body::Mesh { vertices, faces: fs, .. } => {
                for f in fs {
                    let depth = f.iter().map(|&i| dot(vertices[i], view.d)).sum::<f64>() / f.len().max(1) as f64;
                    let pts = clip_polygon(&f.iter().map(|&i| at(vertices[i])).collect::<Vec<_>>());
                    if pts.is_empty() {
                        continue;
                    }
                    let poly = Polygon::new()
                        .set("class", format!("face shape-{}", shape.name))
                        .set("points", points_attr(&pts))
                        .set("fill", color)
                        .set("fill-opacity", 0.18)
                        .set("stroke", color)
                        .set("stroke-width", 1.2);
                    faces.push((depth, k, poly));
                }
            }
            Body::Ball { center, radius } => {
                let (x, y) = at(*center);
                if !near((x, y)) && radius * frame.scale < FAR {
                    continue;
                }
                g = g.add(
                    Circle::new()
                        .set("class", format!("ball shape-{}", shape.name))
                        .set("cx", x)
                        .set("cy", y)
                        .set("r", radius * frame.scale)
                        .set("fill", color)
                        .set("fill-opacity", 0.18)
                        .set("stroke", color)
                        .set("stroke-width", 1.2),
                );
            }
            Body::Samples { points } => {
                // Back to front, small dots.
                let mut pts: Vec<&P3> = points.iter().collect();
                pts.sort_by(|a, b| dot(**b, view.d).total_cmp(&dot(**a, view.d)));
                let mut cloud = Group::new().set("class", format!("samples shape-{}", shape.name)).set("fill", color);
                for p in pts {
                    let (x, y) = at(*p);
                    if near((x, y)) {
                        cloud =
                            cloud.add(Circle::new().set("cx", x).set("cy", y).set("r", 1.6).set("fill-opacity", 0.5));
                    }
                }
                g = g.add(cloud);
            }
            Body::Swept { core, radius } => {
                // The Minkowski sum's outline: the core's projected hull stroked with round
                // joins as wide as the ball (exact for an orthographic view).
                let hull = clip_polygon(&hull2(&core.iter().map(|&p| at(p)).collect::<Vec<_>>()));
                g = g.add(
                    Polygon::new()
                        .set("class", format!("swept shape-{}", shape.name))
                        .set("points", points_attr(&hull))
                        .set("fill", color)
                        .set("fill-opacity", 0.18)
                        .set("stroke", color)
                        .set("stroke-opacity", 0.18)
                        .set("stroke-linejoin", "round")
                        .set("stroke-width", 2.0 * radius * frame.scale),
                );
            }
        }
    }
    faces.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, _, poly) in faces {
        g = g.add(poly);
    }
    for shape in &scene.shapes {
        if let Some(f) = feature_element(shape, view, frame) {
            g = g.add(f);
        }
    }
    let dot_r = if inset { 4.0 } else { 3.5 };
    for m in &scene.marks {
        if let Some(e) = mark_element(m, view, frame, dot_r) {
            g = g.add(e);
        }
    }
    g
}

/// The answer's deciding feature of a mesh, drawn over it.
fn feature_element(shape: &Drawn, view: &View, frame: &Frame) -> Option<svg::node::element::Element> {
    let Body::Mesh { vertices, ids, .. } = &shape.body else { return None };
    let f = shape.feature.as_ref()?.as_object()?;
    let (kind, v) = f.iter().next()?;
    let format_ids: Vec<usize> = match v {
        serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_u64().map(|x| x as usize)).collect(),
        x => vec![x.as_u64()? as usize],
    };
    let pts: Vec<P3> =
        format_ids.iter().filter_map(|id| ids.iter().position(|i| i == id).map(|k| vertices[k])).collect();
    if pts.is_empty() {
        return None;
    }
    let screen: Vec<(f64, f64)> = pts.iter().map(|&p| view.project(frame, p)).collect();
    let class = format!("feature feature-{kind} shape-{}", shape.name);
    let world = world_attr(&pts);
    Some(match screen.len() {
        1 if !near(screen[0]) => return None,
        2 => {
            let (a, b) = clip_segment(screen[0], screen[1])?;
            segment_line(class, world, a, b)
                .set("stroke", "#222")
                .set("stroke-width", 3.5)
                .set("stroke-linecap", "round")
                .into()
        }
        1 => Circle::new()
            .set("class", class)
            .set("data-world", world)
            .set("cx", screen[0].0)
            .set("cy", screen[0].1)
            .set("r", 6.0)
            .set("fill", "none")
            .set("stroke", "#222")
            .set("stroke-width", 2.0)
            .into(),
        _ => {
            let pts = clip_polygon(&hull2(&screen));
            Polygon::new()
                .set("class", class)
                .set("data-world", world)
                .set("points", points_attr(&pts))
                .set("fill", "#222")
                .set("fill-opacity", 0.12)
                .set("stroke", "#222")
                .set("stroke-width", 2.5)
                .into()
        }
    })
}

fn mark_element(m: &Mark, view: &View, frame: &Frame, dot_r: f64) -> Option<svg::node::element::Element> {
    let color = if m.kind.claimed() {
        CLAIM
    } else if m.kind == MarkKind::QueryPoint {
        "#117a65"
    } else {
        EXACT
    };
    let screen: Vec<(f64, f64)> = m.points.iter().map(|&p| view.project(frame, p)).collect();
    let world = world_attr(&m.points);
    let class = m.kind.class();
    Some(match m.kind {
        MarkKind::ExactPoint | MarkKind::ClaimedPoint | MarkKind::QueryPoint if screen.len() == 1 => {
            if !near(screen[0]) {
                return None;
            }
            let claimed = m.kind.claimed();
            Circle::new()
                .set("class", class)
                .set("data-world", world)
                .set("cx", screen[0].0)
                .set("cy", screen[0].1)
                .set("r", if claimed { dot_r + 2.5 } else { dot_r })
                .set("fill", if claimed { "none" } else { color })
                .set("stroke", color)
                .set("stroke-width", 2.0)
                .into()
        }
        MarkKind::Region if screen.len() > 2 => {
            let pts = clip_polygon(&hull2(&screen));
            Polygon::new()
                .set("class", class)
                .set("data-world", world)
                .set("points", points_attr(&pts))
                .set("fill", EXACT)
                .set("fill-opacity", 0.3)
                .set("stroke", EXACT)
                .set("stroke-width", 2.0)
                .into()
        }
        _ => {
            let (a, b) = clip_segment(screen[0], *screen.last().unwrap_or(&screen[0]))?;
            let mut line = segment_line(class, world, a, b)
                .set("stroke", color)
                .set("stroke-width", if m.kind == MarkKind::Region { 4.0 } else { 2.0 });
            if m.kind.claimed() {
                line = line.set("stroke-dasharray", "6 4");
            }
            if matches!(m.kind, MarkKind::ExactNormal | MarkKind::ClaimedNormal) {
                line = line.set("marker-end", if m.kind.claimed() { "url(#arrow-claim)" } else { "url(#arrow-exact)" });
            }
            line.into()
        }
    })
}

/// How far outside the canvas drawn coordinates may reach: a magnified inset puts the shapes'
/// far corners billions of pixels away, which a rasteriser refuses, so everything drawn is
/// clipped to the canvas grown by this much first.
const FAR: f64 = 4096.0;

/// Whether a screen point lies in the drawable range.
fn near(p: (f64, f64)) -> bool {
    (-FAR..=WIDTH + FAR).contains(&p.0) && (-FAR..=HEIGHT + FAR).contains(&p.1)
}

/// A polygon clipped to the drawable range (Sutherland–Hodgman against its four sides).
fn clip_polygon(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    if points.iter().all(|&p| near(p)) {
        return points.to_vec();
    }
    let mut out = points.to_vec();
    // Each side: (coordinate, bound, keep below the bound?).
    for (axis, bound, below) in [(0, -FAR, false), (0, WIDTH + FAR, true), (1, -FAR, false), (1, HEIGHT + FAR, true)] {
        let c = |p: (f64, f64)| if axis == 0 { p.0 } else { p.1 };
        let inside = |p: (f64, f64)| if below { c(p) <= bound } else { c(p) >= bound };
        let input = std::mem::take(&mut out);
        for (k, &q) in input.iter().enumerate() {
            let p = input[(k + input.len() - 1) % input.len()];
            let cut = || {
                let t = (bound - c(p)) / (c(q) - c(p));
                (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1))
            };
            match (inside(p), inside(q)) {
                (true, true) => out.push(q),
                (true, false) => out.push(cut()),
                (false, true) => {
                    out.push(cut());
                    out.push(q);
                }
                (false, false) => {}
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// A segment clipped to the drawable range; `None` when none of it is in it.
fn clip_segment(a: (f64, f64), b: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
    if near(a) && near(b) {
        return Some((a, b));
    }
    // Liang–Barsky on the range.
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 + FAR), (dx, WIDTH + FAR - a.0), (-dy, a.1 + FAR), (dy, HEIGHT + FAR - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some(((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy)))
}

/// A line from `a` to `b` on screen with its class and world coordinates (its stroke is the
/// caller's).
fn segment_line(class: impl Into<String>, world: String, a: (f64, f64), b: (f64, f64)) -> Line {
    Line::new()
        .set("class", class.into())
        .set("data-world", world)
        .set("x1", a.0)
        .set("y1", a.1)
        .set("x2", b.0)
        .set("y2", b.1)
}

fn points_attr(points: &[(f64, f64)]) -> String {
    points.iter().map(|(x, y)| format!("{x:.3},{y:.3}")).collect::<Vec<_>>().join(" ")
}

/// The convex hull of screen points (Andrew's monotone chain), counter-clockwise.
fn hull2(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut p: Vec<(f64, f64)> = points.to_vec();
    p.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let turn = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut h: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> =
            if pass == 0 { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
        for &q in iter {
            while h.len() >= start + 2 && turn(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// A scale bar of a nice length for `frame`, at (x, y) on the canvas.
fn scale_bar(frame: &Frame, span_px: f64, (x, y): (f64, f64), class: &str) -> Group {
    let length = nice_length(span_px / frame.scale);
    let px = length * frame.scale;
    Group::new()
        .set("class", class)
        .set("data-length", length)
        .add(
            Line::new()
                .set("x1", x)
                .set("y1", y)
                .set("x2", x + px)
                .set("y2", y)
                .set("stroke", "#222")
                .set("stroke-width", 2.0),
        )
        .add(Line::new().set("x1", x).set("y1", y - 4.0).set("x2", x).set("y2", y + 4.0).set("stroke", "#222"))
        .add(
            Line::new().set("x1", x + px).set("y1", y - 4.0).set("x2", x + px).set("y2", y + 4.0).set("stroke", "#222"),
        )
        .add(
            Text::new(length_text(length))
                .set("x", x + px / 2.0)
                .set("y", y - 7.0)
                .set("text-anchor", "middle")
                .set("font-size", 12),
        )
}

/// Where an inset should look, and how small the thing it magnifies is: the exact segment's
/// midpoint when the gap is tiny, or the exact points when a claimed point is within a tiny
/// distance of one.
fn inset_focus(scene: &Scene) -> Option<(P3, f64)> {
    let size = extent_of(scene);
    if size <= 0.0 {
        return None;
    }
    let of = |k: MarkKind| scene.marks.iter().filter(move |m| m.kind == k);
    let mut best: Option<(P3, f64)> = None;
    if let Some(seg) = of(MarkKind::ExactSegment).next() {
        let gap = norm(sub(seg.points[1], seg.points[0]));
        if gap > 0.0 && gap < INSET_BELOW * size {
            best = Some(([0, 1, 2].map(|i| (seg.points[0][i] + seg.points[1][i]) / 2.0), gap));
        }
    }
    for c in of(MarkKind::ClaimedPoint) {
        for e in of(MarkKind::ExactPoint) {
            let err = norm(sub(c.points[0], e.points[0]));
            if err > 0.0 && err < INSET_BELOW * size && best.is_none_or(|(_, s)| err < s) {
                best = Some((e.points[0], err));
            }
        }
    }
    best
}

/// The SVG picture of a scene.
pub fn svg(scene: &Scene) -> String {
    let view = choose_view(scene);
    let mut reach: Vec<(P3, f64)> = scene.shapes.iter().flat_map(|s| body_points(&s.body)).collect();
    reach.extend(scene.marks.iter().flat_map(|m| m.points.iter().map(|&p| (p, 0.0))));
    let frame = fit(&view, &reach, (MARGIN, MARGIN + 20.0, WIDTH - 2.0 * MARGIN, HEIGHT - 2.0 * MARGIN - 40.0));
    let data_view = format!(
        "u {}; w {}; d {}; scale {}; origin {} {}",
        world_attr(&[view.u]),
        world_attr(&[view.w]),
        world_attr(&[view.d]),
        frame.scale,
        frame.ox,
        frame.oy
    );
    let arrow = |id: &str, color: &str| {
        svg::node::element::Marker::new()
            .set("id", id)
            .set("viewBox", "0 0 10 10")
            .set("refX", 9)
            .set("refY", 5)
            .set("markerWidth", 8)
            .set("markerHeight", 8)
            .set("orient", "auto")
            .add(svg::node::element::Path::new().set("d", "M0,0 L10,5 L0,10 z").set("fill", color))
    };
    let mut defs = Definitions::new().add(arrow("arrow-exact", EXACT)).add(arrow("arrow-claim", CLAIM));
    let mut doc = Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("width", WIDTH)
        .set("height", HEIGHT)
        .set("viewBox", (0, 0, WIDTH, HEIGHT))
        .set("data-view", data_view)
        .set("data-op", scene.op.clone())
        .set("data-id", scene.id.clone());
    if let Some(o) = &scene.origin {
        // Every data-world is a world point minus this exact origin.
        doc = doc.set("data-origin-world", o.join(" "));
    }
    doc = doc.add(Rectangle::new().set("width", WIDTH).set("height", HEIGHT).set("fill", "white"));
    doc = doc.add(
        Text::new(format!("{} · {} · {}", scene.id, scene.op, scene.headline))
            .set("class", "title")
            .set("x", MARGIN / 2.0)
            .set("y", 24)
            .set("font-size", 14)
            .set("font-family", "sans-serif"),
    );
    doc = doc.add(layer(scene, &view, &frame, false));
    doc = doc.add(scale_bar(&frame, WIDTH - 2.0 * MARGIN, (MARGIN, HEIGHT - 22.0), "scale-bar"));
    if let Some((focus, small)) = inset_focus(scene) {
        // The inset: the focus magnified so that the small length spans a third of it.
        let (x0, y0) = (WIDTH - INSET - 12.0, 40.0);
        let scale = INSET / 3.0 / small;
        let frame_in = Frame {
            scale,
            ox: x0 + INSET / 2.0 - scale * dot(focus, view.u),
            oy: y0 + INSET / 2.0 + scale * dot(focus, view.w),
        };
        defs = defs.add(
            ClipPath::new()
                .set("id", "inset-clip")
                .add(Rectangle::new().set("x", x0).set("y", y0).set("width", INSET).set("height", INSET)),
        );
        let (fx, fy) = view.project(&frame, focus);
        doc = doc
            .add(
                Rectangle::new()
                    .set("class", "inset-source")
                    .set("x", fx - 8.0)
                    .set("y", fy - 8.0)
                    .set("width", 16)
                    .set("height", 16)
                    .set("fill", "none")
                    .set("stroke", "#555")
                    .set("stroke-dasharray", "3 2"),
            )
            .add(
                Group::new()
                    .set("class", "inset")
                    .set("data-scale", scale)
                    .set("data-origin", format!("{} {}", frame_in.ox, frame_in.oy))
                    .add(
                        Rectangle::new()
                            .set("x", x0)
                            .set("y", y0)
                            .set("width", INSET)
                            .set("height", INSET)
                            .set("fill", "white")
                            .set("stroke", "#555"),
                    )
                    .add(Group::new().set("clip-path", "url(#inset-clip)").add(layer(scene, &view, &frame_in, true)))
                    .add(scale_bar(
                        &frame_in,
                        INSET - 20.0,
                        (x0 + 10.0, y0 + INSET - 12.0),
                        "scale-bar inset-scale-bar",
                    )),
            );
    }
    // The legend: what the marks are.
    let mut legend = Group::new().set("class", "legend").set("font-size", 12).set("font-family", "sans-serif");
    let mut kinds: Vec<MarkKind> = scene.marks.iter().map(|m| m.kind).collect();
    kinds.dedup();
    kinds.sort_by_key(|k| k.class());
    kinds.dedup();
    let words = |k: MarkKind| match k {
        MarkKind::ExactPoint => "exact closest points",
        MarkKind::ExactSegment => "exact gap",
        MarkKind::ExactNormal => "exact normal",
        MarkKind::Region => "exact contact region",
        MarkKind::ClaimedPoint => "claimed points",
        MarkKind::ClaimedSegment => "claimed gap",
        MarkKind::ClaimedNormal => "claimed normal",
        MarkKind::QueryPoint => "query",
    };
    let x = 200.0;
    for (shown, k) in (0u32..).zip(kinds) {
        let color = if k.claimed() {
            CLAIM
        } else if k == MarkKind::QueryPoint {
            "#117a65"
        } else {
            EXACT
        };
        legend = legend.add(
            Text::new(words(k))
                .set("x", x + 145.0 * f64::from(shown % 4))
                .set("y", HEIGHT - 30.0 + 14.0 * f64::from(shown / 4))
                .set("fill", color),
        );
    }
    for (k, note) in scene.notes.iter().enumerate() {
        legend = legend.add(
            Text::new(note.clone())
                .set("class", "note")
                .set("x", MARGIN / 2.0)
                .set("y", 44.0 + 14.0 * k as f64)
                .set("fill", "#555"),
        );
    }
    doc = doc.add(defs).add(legend);
    doc.to_string()
}
