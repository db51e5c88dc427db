//! Time pictures of casts (`toi`, `toi_boxes`, `ccd`): the separation along t, sampled in
//! binary64 (the distance between the moving shapes, or between the moving primitives of a
//! CCD query), with the exact first contact time marked, the claim's time beside it, and for a
//! box sweep the exact octant-switch times (the bounds of the sweep's homogeneous sections).

use num_rational::BigRational;
use serde_json::Value;
use svg::node::element::{Line, Polyline, Rectangle, Text};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::query::{Ccd, Toi, ToiBoxes};
use touchstone::sweep::{BoxMotion, CcdKind};

use super::scene::number;
use crate::Options;

/// A separation curve and its marked times.
#[derive(Clone, Debug, Default)]
pub struct Curve {
    /// The interval.
    pub t0: f64,
    /// Its end.
    pub t1: f64,
    /// (t, separation) samples.
    pub samples: Vec<(f64, f64)>,
    /// The exact first contact time (as a double).
    pub exact: Option<f64>,
    /// The claimed time.
    pub claimed: Option<f64>,
    /// Octant-switch times (box sweeps), exact, as doubles.
    pub switches: Vec<f64>,
    /// What the curve measures.
    pub what: &'static str,
}

const SAMPLES: usize = 240;

/// The curve of a cast line (`None` for other ops, or a cast whose shapes cannot be sampled).
pub fn curve(line: &str, query: &Value, answer: &Value, opts: &Options) -> Option<Curve> {
    let op = query.get("op")?.as_str()?;
    let exact = answer.get("toi").and_then(number);
    let claimed = query.pointer("/claim/toi").and_then(number);
    let mut c = match op {
        "ccd" => ccd_curve(line, opts)?,
        "toi_boxes" => boxes_curve(line, opts)?,
        "toi" => toi_curve(line, opts)?,
        _ => return None,
    };
    c.exact = exact;
    c.claimed = claimed;
    Some(c)
}

fn sample(t0: f64, t1: f64, mut f: impl FnMut(f64) -> Option<f64>) -> Vec<(f64, f64)> {
    (0..=SAMPLES)
        .filter_map(|k| {
            let t = t0 + (t1 - t0) * k as f64 / SAMPLES as f64;
            f(t).filter(|d| d.is_finite()).map(|d| (t, d))
        })
        .collect()
}

/// The distance between two convex solids (0 when they meet).
fn solid_distance(a: &touchstone::brep::Solid<f64>, b: &touchstone::brep::Solid<f64>) -> Option<f64> {
    let r = touchstone::vclip::vclip_prechecked(a, b, None).ok()?;
    Some(r.closest.squared_distance.max(0.0).sqrt())
}

fn toi_curve(line: &str, opts: &Options) -> Option<Curve> {
    let q = crate::ops::read_query::<Toi<f64>>(line, opts).ok()?;
    let (ca, cb) = (
        touchstone::query::spec::posed_convex::<f64, f64>(&q.a).ok()?,
        touchstone::query::spec::posed_convex::<f64, f64>(&q.b).ok()?,
    );
    let [t0, t1] = q.interval;
    let moved = |s: &touchstone::brep::Solid<f64>, v: &Vector3<f64>, t: f64| s.moved(&Affine::translation(v * t)).ok();
    let samples = sample(t0, t1, |t| {
        solid_distance(&moved(&ca.built.solid, &q.velocity_a, t)?, &moved(&cb.built.solid, &q.velocity_b, t)?)
    });
    Some(Curve { t0, t1, samples, what: "distance between the shapes", ..Curve::default() })
}

/// A box's solid at time t of its motion M(t) = M₀ + M₁t + M₂t² (projective rows divided out).
pub(super) fn box_at(m: &BoxMotion<f64>, t: f64) -> Option<touchstone::brep::Solid<f64>> {
    let mt = m.motion[0] + m.motion[1] * t + m.motion[2] * (t * t);
    touchstone::brep::shapes::cuboid_mapped(m.half, |p| {
        let h = mt * nalgebra::Vector4::new(p.x, p.y, p.z, 1.0);
        Point3::new(h.x / h.w, h.y / h.w, h.z / h.w)
    })
    .ok()
}

fn boxes_curve(line: &str, opts: &Options) -> Option<Curve> {
    let q = crate::ops::read_query::<ToiBoxes<f64>>(line, opts).ok()?;
    let [t0, t1] = q.interval;
    let samples = sample(t0, t1, |t| solid_distance(&box_at(&q.a, t)?, &box_at(&q.b, t)?));
    // The octant switches, exactly (on the line's numbers as rationals).
    let switches = crate::ops::read_query::<ToiBoxes<BigRational>>(line, opts)
        .ok()
        .and_then(|e| {
            let [s0, s1] = &e.interval;
            touchstone::sweep::bms::bms_sections::<BigRational>(&e.a, &e.b, s0, s1).ok()
        })
        .map(|sections| sections.iter().skip(1).map(|s| s.start.to_f64()).collect())
        .unwrap_or_default();
    Some(Curve { t0, t1, samples, switches, what: "distance between the boxes", ..Curve::default() })
}

fn ccd_curve(line: &str, opts: &Options) -> Option<Curve> {
    let q = crate::ops::read_query::<Ccd<f64>>(line, opts).ok()?;
    let at = |k: usize, t: f64| -> [f64; 3] { [0, 1, 2].map(|i| q.t0[k][i] + (q.t1[k][i] - q.t0[k][i]) * t) };
    let samples = sample(0.0, 1.0, |t| {
        let p = [0, 1, 2, 3].map(|k| at(k, t));
        Some(match q.kind {
            CcdKind::VertexFace => point_triangle(p[0], [p[1], p[2], p[3]]),
            CcdKind::EdgeEdge => segment_segment([p[0], p[1]], [p[2], p[3]]),
        })
    });
    let what = match q.kind {
        CcdKind::VertexFace => "distance from the vertex to the triangle",
        CcdKind::EdgeEdge => "distance between the edges",
    };
    Some(Curve { t0: 0.0, t1: 1.0, samples, what, ..Curve::default() })
}

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V, b: V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn point_segment(p: V, a: V, b: V) -> f64 {
    let (ab, ap) = (sub(b, a), sub(p, a));
    let l = dot(ab, ab);
    let s = if l > 0.0 { (dot(ap, ab) / l).clamp(0.0, 1.0) } else { 0.0 };
    let d = sub(ap, ab.map(|x| x * s));
    dot(d, d).sqrt()
}

/// The distance from p to the closed triangle: to its plane when p projects inside it, else to
/// the nearest side.
fn point_triangle(p: V, [a, b, c]: [V; 3]) -> f64 {
    let n = cross(sub(b, a), sub(c, a));
    let nn = dot(n, n);
    if nn > 0.0 {
        let inside = [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| dot(cross(sub(v, u), sub(p, u)), n) >= 0.0);
        if inside {
            return dot(sub(p, a), n).abs() / nn.sqrt();
        }
    }
    point_segment(p, a, b).min(point_segment(p, b, c)).min(point_segment(p, c, a))
}

/// The distance between two closed segments: the minimum over the interior critical point (when
/// the segments are not parallel and it lies inside both) and the four endpoint distances.
fn segment_segment([a0, a1]: [V; 2], [b0, b1]: [V; 2]) -> f64 {
    let ends = point_segment(a0, b0, b1)
        .min(point_segment(a1, b0, b1))
        .min(point_segment(b0, a0, a1))
        .min(point_segment(b1, a0, a1));
    let (d1, d2, r) = (sub(a1, a0), sub(b1, b0), sub(a0, b0));
    let (aa, ee, b, c, f) = (dot(d1, d1), dot(d2, d2), dot(d1, d2), dot(d1, r), dot(d2, r));
    let den = aa * ee - b * b;
    if den > 0.0 {
        let s = (b * f - c * ee) / den;
        let t = (aa * f - b * c) / den;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            let d = sub([0, 1, 2].map(|i| a0[i] + d1[i] * s), [0, 1, 2].map(|i| b0[i] + d2[i] * t));
            return dot(d, d).sqrt().min(ends);
        }
    }
    ends
}

/// The time picture's size.
pub const WIDTH: f64 = 800.0;
/// Its height.
pub const HEIGHT: f64 = 320.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// The curve as an SVG; its root carries the mapping (`data-t`: t0 t1 and the plot's x range;
/// `data-d`: the largest separation and the plot's y range) for tests.
pub fn svg(c: &Curve, title: &str) -> String {
    let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
    let span = (c.t1 - c.t0).max(f64::MIN_POSITIVE);
    let dmax = c.samples.iter().map(|s| s.1).fold(0.0f64, f64::max).max(f64::MIN_POSITIVE);
    let x = |t: f64| x0 + (x1 - x0) * ((t - c.t0) / span).clamp(-0.05, 1.05);
    let y = |d: f64| y0 + (y1 - y0) * (d / dmax);
    let mut doc = svg::Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("class", "time-picture")
        .set("width", WIDTH)
        .set("height", HEIGHT)
        .set("viewBox", (0, 0, WIDTH, HEIGHT))
        .set("data-t", format!("{} {} {x0} {x1}", c.t0, c.t1))
        .set("data-d", format!("{dmax} {y0} {y1}"))
        .add(Rectangle::new().set("width", WIDTH).set("height", HEIGHT).set("fill", "white"))
        .add(
            Text::new(title.to_string())
                .set("class", "title")
                .set("x", 12)
                .set("y", 22)
                .set("font-size", 14)
                .set("font-family", "sans-serif"),
        )
        .add(Line::new().set("x1", x0).set("y1", y0).set("x2", x1).set("y2", y0).set("stroke", "#333"))
        .add(Line::new().set("x1", x0).set("y1", y0).set("x2", x0).set("y2", y1).set("stroke", "#333"))
        .add(
            Text::new(format!("t = {}", c.t0))
                .set("x", x0)
                .set("y", y0 + 16.0)
                .set("font-size", 11)
                .set("text-anchor", "middle"),
        )
        .add(
            Text::new(format!("{}", c.t1))
                .set("x", x1)
                .set("y", y0 + 16.0)
                .set("font-size", 11)
                .set("text-anchor", "middle"),
        )
        .add(
            Text::new(format!("{dmax:.4}"))
                .set("x", x0 - 6.0)
                .set("y", y1 + 4.0)
                .set("font-size", 11)
                .set("text-anchor", "end"),
        )
        .add(Text::new("0").set("x", x0 - 6.0).set("y", y0 + 4.0).set("font-size", 11).set("text-anchor", "end"))
        .add(Text::new(c.what).set("x", x0 + 6.0).set("y", y1 - 8.0).set("font-size", 11).set("fill", "#555"));
    for &s in &c.switches {
        doc = doc.add(
            Line::new()
                .set("class", "switch")
                .set("data-t", s)
                .set("x1", x(s))
                .set("y1", y0)
                .set("x2", x(s))
                .set("y2", y1)
                .set("stroke", "#999")
                .set("stroke-dasharray", "2 3"),
        );
    }
    let pts: Vec<String> = c.samples.iter().map(|&(t, d)| format!("{:.3},{:.3}", x(t), y(d))).collect();
    doc = doc.add(
        Polyline::new()
            .set("class", "separation")
            .set("data-count", c.samples.len())
            .set("points", pts.join(" "))
            .set("fill", "none")
            .set("stroke", "#3b6fb6")
            .set("stroke-width", 2),
    );
    let mut mark = |t: f64, class: &str, color: &str, label: String, row: f64, dashed: bool| {
        let mut l = Line::new()
            .set("class", class)
            .set("data-t", t)
            .set("x1", x(t))
            .set("y1", y0)
            .set("x2", x(t))
            .set("y2", y1)
            .set("stroke", color)
            .set("stroke-width", 2);
        if dashed {
            l = l.set("stroke-dasharray", "6 4");
        }
        doc = std::mem::replace(&mut doc, svg::Document::new()).add(l).add(
            Text::new(label).set("x", x(t) + 4.0).set("y", y1 + 14.0 * row).set("font-size", 11).set("fill", color),
        );
    };
    if let Some(t) = c.exact {
        mark(t, "exact-toi", "#c0392b", format!("exact first contact {t}"), 1.0, false);
    }
    if let Some(t) = c.claimed {
        mark(t, "claimed-toi", "#7d3c98", format!("claimed {t}"), 2.0, true);
    }
    if !c.switches.is_empty() {
        doc = doc.add(
            Text::new(format!("{} octant switches (dotted)", c.switches.len()))
                .set("x", x1)
                .set("y", HEIGHT - 10.0)
                .set("font-size", 11)
                .set("text-anchor", "end")
                .set("fill", "#777"),
        );
    }
    doc.to_string()
}
