//! The HTML report of `check-engine --html` and `demo --html`: its summary agrees with the
//! report it is made from, its histograms count every error, each worst case carries its
//! picture (with the engine's claimed points beside the exact ones), its replay line and the
//! values, and the page opens in a real headless browser (Chromium) with no console error.

use std::path::{Path, PathBuf};

use touchstone_oracle::check::{self, demo};
use touchstone_oracle::render::html::{self, Page};
use touchstone_oracle::Options;

/// The page parsed as XML (it is written as well-formed XHTML-compatible HTML).
fn parse(page: &str) -> roxmltree::Document<'_> {
    let opt = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    roxmltree::Document::parse_with_options(page, opt).expect("the page is well-formed")
}

fn class_is(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class").is_some_and(|c| c.split(' ').any(|x| x == class))
}

fn parry_report() -> check::Report {
    let lines = demo::scenarios().iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n");
    let engine = check::engine("parry3d").expect("built in");
    check::check(engine, lines.as_bytes(), &Options::default(), None, None, |_| {}).expect("checked")
}

#[test]
fn the_check_engine_page_agrees_with_its_report() {
    let report = parry_report();
    assert!(report.findings() > 0, "parry3d is wrong on some degenerate scenarios");
    // Every wrong answer drawn (the worst are mostly wrong booleans; claims of points come later).
    let worst = 1000;
    let page = html::html(&Page::of_report(&report), worst, &Options::default());
    let doc = parse(&page);
    // One summary row per function, with the report's counts.
    let rows: Vec<_> = doc.descendants().filter(|n| n.attribute("data-function").is_some()).collect();
    assert_eq!(rows.len(), report.functions.len());
    for row in &rows {
        let name = row.attribute("data-function").unwrap();
        let t = &report.functions[name];
        let wrong = row.descendants().find(|n| class_is(n, "wrong-count")).and_then(|n| n.text()).unwrap();
        assert_eq!(wrong, t.wrong.to_string(), "{name}");
        assert_eq!(class_is(row, "wrong"), t.wrong > 0);
    }
    // Each group with errors has a histogram whose bins count every error.
    let histograms: Vec<_> =
        doc.descendants().filter(|n| n.tag_name().name() == "svg" && class_is(n, "histogram")).collect();
    assert_eq!(histograms.len(), report.functions.values().filter(|t| !t.abs.is_empty()).count());
    for h in &histograms {
        let total: usize = h
            .descendants()
            .filter(|n| class_is(n, "bin"))
            .map(|n| n.attribute("data-count").unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(total.to_string(), h.attribute("data-count").unwrap());
    }
    // The worst cases: a picture, the values and the replay line, which is the report's own.
    let cases: Vec<_> = doc.descendants().filter(|n| class_is(n, "case")).collect();
    let expected: usize = report.functions.values().map(|t| t.worst.len().min(worst) + t.flipped.len().min(2)).sum();
    assert_eq!(cases.len(), expected);
    let replays: Vec<String> =
        report.functions.values().flat_map(|t| t.worst.iter().map(|j| j.replay.clone())).collect();
    for c in cases.iter().filter(|c| class_is(c, "wrong")) {
        let pre = c.descendants().find(|n| class_is(n, "replay")).and_then(|n| n.text()).unwrap();
        assert!(replays.iter().any(|r| r == pre), "{pre}");
        assert!(c.descendants().any(|n| n.tag_name().name() == "svg" && n.attribute("data-op").is_some()), "a picture");
        assert!(c.descendants().any(|n| class_is(&n, "said")) && c.descendants().any(|n| class_is(&n, "exact")));
    }
}

#[test]
fn a_wrong_claim_of_points_is_drawn_beside_the_exact_points() {
    // A hand-made finding: an engine put b's closest point 0.1 short of the exact (2, 0, 0).
    // Its id holds markup: the page shows it as text and runs nothing.
    let replay = r#"{"id":"made</pre><script>alert(1)</script>","op":"distance","a":{"box":[1,1,1]},"b":{"box":[1,1,1]},"pose_b":{"translation":[3,0,0]},"claim":{"points":[[1,0,0],[1.9,0,0]]}}"#;
    let j = check::Judged {
        line: 1,
        id: serde_json::json!("made"),
        engine: "parry3d",
        function: "closest_points".into(),
        outcome: check::Outcome::Wrong(vec!["points/1".into()]),
        said: "points (1, 0, 0), (1.9, 0, 0)".into(),
        truth: "points (1, 0, 0), (2, 0, 0)".into(),
        abs_error: Some(0.1),
        rel_error: Some(0.05),
        scale: 3.0,
        false_positive: None,
        margin: None,
        replay: replay.into(),
    };
    let mut report = check::Report { engine: "parry3d".into(), lines: 1, ..Default::default() };
    report.add(j);
    report.finish();
    let page = html::html(&Page::of_report(&report), 3, &Options::default());
    let doc = parse(&page);
    assert!(!doc.descendants().any(|n| n.tag_name().name() == "script"));
    let case = doc.descendants().find(|n| class_is(n, "case")).expect("the case");
    let pre = case.descendants().find(|n| class_is(n, "replay")).and_then(|n| n.text()).unwrap();
    assert_eq!(pre, replay);
    let claimed: Vec<_> = case.descendants().filter(|n| class_is(n, "claimed-point")).collect();
    assert_eq!(claimed.len(), 2);
    assert_eq!(claimed[1].attribute("data-world"), Some("1.9 0 0"));
    let exact: Vec<_> = case.descendants().filter(|n| class_is(n, "exact-point")).collect();
    assert_eq!(exact.iter().filter_map(|n| n.attribute("data-world")).filter(|w| w.starts_with('2')).count(), 1);
    // The histogram has its one error in the decade of 0.1, and the summary row counts it.
    let bin = doc.descendants().find(|n| class_is(n, "bin") && n.attribute("data-count") == Some("1")).unwrap();
    assert_eq!(bin.attribute("data-bin"), Some("1e-1"));
    let row = doc.descendants().find(|n| n.attribute("data-function") == Some("closest_points")).unwrap();
    assert!(class_is(&row, "wrong"));
}

#[test]
fn the_demo_page_has_a_section_per_class_and_the_findings_it_printed() {
    let engines = [check::engine("parry3d").unwrap(), check::engine("robust").unwrap()];
    let results = demo::run(&engines, &Options::default(), None);
    let text = demo::render(&results, &engines, &[], 1.0);
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    let page = html::html(&Page::of_demo(&results, &names, &[], 1.0), 3, &Options::default());
    let doc = parse(&page);
    // The summary names its rows as what they are.
    let first_th = |doc: &roxmltree::Document| {
        doc.descendants()
            .find(|n| class_is(n, "summary"))
            .and_then(|t| t.descendants().find(|n| n.has_tag_name("th")))
            .and_then(|n| n.text())
            .map(str::to_string)
    };
    assert_eq!(first_th(&doc).as_deref(), Some("scenario class"));
    let check_page = html::html(&Page::of_report(&parry_report()), 1, &Options::default());
    assert_eq!(first_th(&parse(&check_page)).as_deref(), Some("function"));
    let sections: Vec<_> = doc.descendants().filter(|n| class_is(n, "group")).collect();
    assert_eq!(sections.len(), demo::CLASSES.len());
    // The text report's total ("N findings in …") is the page's.
    let total = text.lines().find_map(|l| l.strip_suffix(" s.").and_then(|l| l.split(" findings in ").next())).unwrap();
    let strong = doc.descendants().find(|n| class_is(n, "findings")).unwrap();
    let said: String = strong.descendants().filter_map(|n| n.text()).collect();
    assert!(said.starts_with(&format!("{total} findings")), "{said} vs {total}");
}

/// A browser to open pages with: CHROMIUM, else the distribution's.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Open `page` headless, take a screenshot; the console's error lines.
fn open_in_browser(browser: &Path, page: &Path, shot: &Path) -> Vec<String> {
    let profile = page.parent().unwrap().join("profile");
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1200,1600",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--screenshot={}", shot.display()),
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("the browser runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    // Console messages are logged as `…:CONSOLE(line)] "message", source: …`.
    err.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught")).map(str::to_string).collect()
}

#[test]
fn the_report_opens_in_a_headless_browser_without_console_errors() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("TOUCHSTONE_REQUIRE_BROWSER").is_none(),
            "TOUCHSTONE_REQUIRE_BROWSER is set and no Chromium was found (apt-get install chromium)"
        );
        eprintln!("\n*** SKIPPED: no Chromium (apt-get install chromium, or set CHROMIUM); .ci/run installs it and requires it ***\n");
        return;
    };
    let dir = std::env::temp_dir().join(format!("touchstone-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    std::fs::write(&page, html::html(&Page::of_report(&parry_report()), 2, &Options::default())).unwrap();
    let shot = dir.join("report.png");
    let errors = open_in_browser(&browser, &page, &shot);
    assert!(errors.is_empty(), "console: {errors:?}");
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The check catches a console error when there is one (a page whose script fails).
    let broken = dir.join("broken.html");
    std::fs::write(&broken, "<!DOCTYPE html><html><body><script>noSuchFunction();</script></body></html>").unwrap();
    let errors = open_in_browser(&browser, &broken, &dir.join("broken.png"));
    assert!(errors.iter().any(|e| e.contains("noSuchFunction")), "{errors:?}");
    std::fs::remove_dir_all(&dir).ok();
}
