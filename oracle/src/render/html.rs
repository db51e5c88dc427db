//! One self-contained HTML page of an engine check (`check-engine … --html FILE`) or of the
//! demo (`demo --html DIR`): a summary table per function (or scenario class), then per group
//! its counts, a histogram of its errors (an inline SVG) and its worst cases, each with its
//! picture (the replay line drawn by [`super::picture`]: the exact answer beside the engine's
//! claim), the line itself to replay, and what the engine said against the exact answer.
//!
//! The page has no script, no style sheet or image from elsewhere: it opens from a file.

use std::fmt::Write as _;

use crate::check::{badness, quantile, Judged, Outcome, Report, Tally};
use crate::Options;

/// One group of judged answers: a function of a checked engine, or a class of the demo, with
/// its counts, errors and worst cases as a check's report keeps them.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Its name (`distance`, `fcl collide`, `touching-faces`).
    pub name: String,
    /// A sentence saying what it is (may be empty).
    pub sentence: String,
    /// Its answers (the worst first, the flips by margin).
    pub tally: Tally,
}

/// A page: its title, lines of introduction, the groups, and failures of the engines
/// themselves (panics, crashes, hangs, refusals).
#[derive(Clone, Debug, Default)]
pub struct Page {
    /// The title.
    pub title: String,
    /// Paragraphs before the summary.
    pub intro: Vec<String>,
    /// The groups.
    pub groups: Vec<Group>,
    /// Failures of the engines (shown by kind with their lines).
    pub failures: Vec<Judged>,
    /// What a group is: "function" (a check) or "scenario class" (the demo).
    pub group_word: String,
}

impl Page {
    /// The page of a `check-engine` report.
    pub fn of_report(r: &Report) -> Page {
        let mut intro = vec![format!("{} lines, {} skipped (nothing to ask the engine).", r.lines, r.skipped)];
        if let Some(h) = &r.header {
            intro.push(format!("Engine: {h}."));
        }
        intro.push(
            "Judged on the binary64 numbers the engine was given: the truth is the exact answer for those doubles. \
             A discrete answer wrong only within the claims' tolerance (1e-9 of the scale) of the configuration where it \
             flips is a flip, counted apart."
                .into(),
        );
        if !r.rounding.is_empty() {
            intro.push(format!("Rounding to binary64 alone changed the exact answer of {} lines.", r.rounding.len()));
        }
        let groups = r
            .functions
            .iter()
            .map(|(name, t)| Group { name: name.clone(), sentence: String::new(), tally: t.clone() })
            .collect();
        Page {
            title: format!("check-engine {}", r.engine),
            intro,
            groups,
            failures: r.failures.clone(),
            group_word: "function".into(),
        }
    }
}

impl Page {
    /// The page of a demo run: a group per scenario class.
    pub fn of_demo(
        results: &[(&'static str, crate::check::demo::ClassResult)],
        engines: &[String],
        not_run: &[String],
        seconds: f64,
    ) -> Page {
        let mut intro = vec![format!(
            "{} on degenerate configurations (the built-in scenarios: touching faces, parallel edges, vertex on vertex, tiny gaps, grazing casts), every answer judged exactly, in {seconds:.1} s.",
            engines.join(", ")
        )];
        intro.extend(not_run.iter().cloned());
        let mut failures = Vec::new();
        let groups = results
            .iter()
            .map(|(class, r)| {
                let sentence = crate::check::demo::CLASSES.iter().find(|(c, _)| c == class).map_or("", |(_, t)| t);
                let mut worst: Vec<Judged> = Vec::new();
                for j in &r.findings {
                    if matches!(j.outcome, Outcome::Wrong(_)) {
                        worst.push(j.clone());
                    } else {
                        failures.push(j.clone());
                    }
                }
                worst.sort_by(|x, y| badness(y).0.cmp(&badness(x).0).then(badness(y).1.total_cmp(&badness(x).1)));
                let mut flipped = r.flips.clone();
                flipped.sort_by(|x, y| y.margin.unwrap_or(0.0).total_cmp(&x.margin.unwrap_or(0.0)));
                Group {
                    name: (*class).to_string(),
                    sentence: sentence.to_string(),
                    tally: Tally {
                        judged: r.judged as u64,
                        wrong: worst.len() as u64,
                        flips: r.flips.len() as u64,
                        false_positives: worst.iter().filter(|j| j.false_positive == Some(true)).count() as u64,
                        false_negatives: worst.iter().filter(|j| j.false_positive == Some(false)).count() as u64,
                        abs: worst.iter().filter_map(|j| j.abs_error).collect(),
                        worst,
                        flipped,
                        ..Tally::default()
                    },
                }
            })
            .collect();
        Page { title: "touchstone demo".into(), intro, groups, failures, group_word: "scenario class".into() }
    }
}

/// Text made safe inside HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A histogram of errors by decade (log₁₀ bins), as an inline SVG; an exact zero counts in
/// a bin of its own.
pub fn histogram(errors: &[f64]) -> String {
    use svg::node::element::{Line, Rectangle, Text};
    let (w, h, left, bottom) = (420.0, 150.0, 36.0, 28.0);
    let zeros = errors.iter().filter(|e| **e == 0.0).count();
    let logs: Vec<i32> =
        errors.iter().filter(|e| **e > 0.0 && e.is_finite()).map(|e| e.log10().floor() as i32).collect();
    let (lo, hi) = (logs.iter().min().copied().unwrap_or(0), logs.iter().max().copied().unwrap_or(0));
    // Bins: "0" when there are zeros, then one per decade from lo to hi.
    let mut bins: Vec<(String, usize)> = Vec::new();
    if zeros > 0 {
        bins.push(("0".into(), zeros));
    }
    if !logs.is_empty() {
        for d in lo..=hi {
            bins.push((format!("1e{d}"), logs.iter().filter(|x| **x == d).count()));
        }
    }
    let top = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let bw = (w - left - 8.0) / bins.len().max(1) as f64;
    let mut doc = svg::Document::new()
        .set("class", "histogram")
        .set("width", w)
        .set("height", h)
        .set("viewBox", (0, 0, w, h))
        .set("data-count", errors.len());
    doc = doc.add(
        Line::new()
            .set("x1", left)
            .set("y1", h - bottom)
            .set("x2", w - 4.0)
            .set("y2", h - bottom)
            .set("stroke", "#333"),
    );
    for (k, (label, n)) in bins.iter().enumerate() {
        let bh = (h - bottom - 14.0) * (*n as f64) / top;
        let x = left + bw * k as f64;
        doc = doc
            .add(
                Rectangle::new()
                    .set("class", "bin")
                    .set("data-bin", label.as_str())
                    .set("data-count", *n)
                    .set("x", x + 1.0)
                    .set("y", h - bottom - bh)
                    .set("width", (bw - 2.0).max(1.0))
                    .set("height", bh)
                    .set("fill", "#3b6fb6"),
            )
            .add(
                Text::new(label.clone())
                    .set("x", x + bw / 2.0)
                    .set("y", h - bottom + 14.0)
                    .set("text-anchor", "middle")
                    .set("font-size", 10),
            );
        if *n > 0 {
            doc = doc.add(
                Text::new(n.to_string())
                    .set("x", x + bw / 2.0)
                    .set("y", h - bottom - bh - 3.0)
                    .set("text-anchor", "middle")
                    .set("font-size", 10),
            );
        }
    }
    doc = doc.add(Text::new("absolute error (by decade)").set("x", left).set("y", h - 2.0).set("font-size", 10));
    doc.to_string()
}

fn e3(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{v:.3e}"))
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}\
td:first-child,th:first-child{text-align:left}tr.wrong td{background:#fdecea}\
pre{background:#f4f4f4;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:.85em}\
.case{border-top:1px solid #ddd;padding-top:1em;margin-top:1em}.case svg{max-width:100%;height:auto;border:1px solid #eee}\
.said{color:#7d3c98}.exact{color:#c0392b}";

/// The page as one HTML document; `worst` cases drawn per group, each line answered under
/// `opts` for its picture.
pub fn html(page: &Page, worst: usize, opts: &Options) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&page.title),
        escape(&page.title)
    );
    for p in &page.intro {
        let _ = writeln!(s, "<p>{}</p>", escape(p));
    }
    let _ = writeln!(
        s,
        "<p class=\"how\">How to read it: each row below is a kind of degenerate configuration (or a function of the engine); a case shows the shapes in their poses, the exact answer in <span class=\"exact\">red</span> (closest points, gap, contact regions, normals, the first contact time) and what the engine said in <span class=\"said\">purple</span>, with the line that replays it. A tiny gap or error gets a magnified inset with its own scale bar.</p>"
    );
    let findings: u64 = page.groups.iter().map(|g| g.tally.wrong).sum::<u64>()
        + page.failures.iter().filter(|j| crate::check::is_finding(&j.outcome)).count() as u64;
    let _ = writeln!(s, "<p class=\"findings\"><strong>{findings} findings</strong> (answers wrong beyond the tolerance, and panics, crashes and hangs).</p>");
    // The summary.
    let _ = writeln!(
        s,
        "<table class=\"summary\">\n<tr><th>{}</th><th>judged</th><th>wrong</th><th>flips</th><th>false positives</th><th>false negatives</th><th>largest error</th><th>median error</th></tr>",
        escape(&page.group_word)
    );
    for g in &page.groups {
        let mut abs = g.tally.abs.clone();
        abs.sort_by(f64::total_cmp);
        let _ = writeln!(
            s,
            "<tr class=\"{}\" data-function=\"{}\"><td><a href=\"#{}\">{}</a></td><td>{}</td><td class=\"wrong-count\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if g.tally.wrong > 0 { "wrong" } else { "right" },
            escape(&g.name),
            anchor(&g.name),
            escape(&g.name),
            g.tally.judged,
            g.tally.wrong,
            g.tally.flips,
            g.tally.false_positives,
            g.tally.false_negatives,
            e3(abs.last().copied()),
            e3(quantile(&abs, 0.5)),
        );
    }
    let _ = writeln!(s, "</table>");
    // Per group.
    for g in &page.groups {
        let _ = writeln!(s, "<section class=\"group\" id=\"{}\">\n<h2>{}</h2>", anchor(&g.name), escape(&g.name));
        if !g.sentence.is_empty() {
            let _ = writeln!(s, "<p>{}</p>", escape(&g.sentence));
        }
        let _ = writeln!(
            s,
            "<p>{} judged, {} wrong ({:.1}%), {} flips within the tolerance, {} false positives, {} false negatives.</p>",
            g.tally.judged,
            g.tally.wrong,
            100.0 * g.tally.wrong as f64 / g.tally.judged.max(1) as f64,
            g.tally.flips,
            g.tally.false_positives,
            g.tally.false_negatives
        );
        if !g.tally.abs.is_empty() {
            let _ = writeln!(s, "{}", histogram(&g.tally.abs));
        }
        for j in g.tally.worst.iter().take(worst) {
            case(&mut s, j, "wrong", opts);
        }
        for j in g.tally.flipped.iter().take(worst.min(2)) {
            case(&mut s, j, "flip", opts);
        }
        let _ = writeln!(s, "</section>");
    }
    if !page.failures.is_empty() {
        let _ = writeln!(s, "<section class=\"failures\">\n<h2>Failures of the engines</h2>\n<table>\n<tr><th>line</th><th>engine</th><th>what</th></tr>");
        for j in page.failures.iter().take(50) {
            let what = match &j.outcome {
                Outcome::Panic(m) => format!("panicked: {m}"),
                Outcome::Hang => "did not return within the time limit".into(),
                Outcome::Crash(m) => format!("crashed: {m}"),
                Outcome::Refused(m) => format!("refused: {m}"),
                Outcome::Malformed(m) => format!("broke the protocol: {m}"),
                Outcome::Unjudged(m) => format!("not judged: {m}"),
                _ => continue,
            };
            let _ = writeln!(s, "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", j.line, escape(j.engine), escape(&what));
        }
        let _ = writeln!(s, "</table>\n</section>");
    }
    let _ = writeln!(
        s,
        "<p>Replay a case: save its line as <code>case.jsonl</code> and run <code>touchstone case.jsonl</code> (the exact answer, with a verdict naming the wrong fields) or <code>touchstone render case.jsonl --out pictures</code>.</p>\n</body>\n</html>"
    );
    s
}

/// An id for a group's section.
fn anchor(name: &str) -> String {
    let a: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    format!("g-{a}")
}

/// One case: picture, what was said against the exact answer, the replay line.
fn case(s: &mut String, j: &Judged, kind: &str, opts: &Options) {
    let (_, bad) = badness(j);
    let _ = writeln!(
        s,
        "<div class=\"case {kind}\" data-line=\"{}\">\n<h3>line {} ({}, {}){}</h3>",
        j.line,
        j.line,
        escape(j.engine),
        escape(&j.function),
        if bad.is_finite() { format!(" · error {bad:.3e} of the scale") } else { String::new() }
    );
    let fields = match &j.outcome {
        Outcome::Wrong(f) | Outcome::Flip(f) => f.join(", "),
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "<table class=\"values\"><tr><th>wrong fields</th><td>{}</td></tr><tr><th>engine said</th><td class=\"said\">{}</td></tr><tr><th>exact</th><td class=\"exact\">{}</td></tr>{}{}</table>",
        escape(&fields),
        escape(&j.said),
        escape(&j.truth),
        j.abs_error.map_or(String::new(), |e| format!("<tr><th>absolute error</th><td>{e:.3e}</td></tr>")),
        j.margin.map_or(String::new(), |m| format!("<tr><th>margin to the degeneracy</th><td>{m:.3e}</td></tr>")),
    );
    match super::picture(&j.replay, opts, j.line.saturating_sub(1)) {
        Ok(p) => {
            let _ = writeln!(s, "<div class=\"picture\">{}</div>", p.svg);
            if let Some(t) = &p.time_svg {
                let _ = writeln!(s, "<div class=\"picture time\">{t}</div>");
            }
        }
        Err(e) => {
            let _ = writeln!(s, "<p>(no picture: {})</p>", escape(&e.to_string()));
        }
    }
    let _ = writeln!(s, "<pre class=\"replay\">{}</pre>\n</div>", escape(&j.replay));
}
