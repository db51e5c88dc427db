//! Primitive CCD against every ground-truth label of the public CCD benchmark's handcrafted
//! queries (tests/fixtures/ccd-benchmark, MIT, from the Continuous-Collision-Detection
//! project; labels computed symbolically).

use std::path::PathBuf;

use touchstone::geom::Point3;
use touchstone::scalar::Scalar;
use touchstone::sweep::benchmark::{read_sample_queries, read_symbolic, CcdQuery};
use touchstone::sweep::contract::check_ccd_agreement;
use touchstone::sweep::{ccd, CcdKind};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ccd-benchmark")
}

fn all_queries() -> Vec<(String, usize, CcdQuery)> {
    let mut out = Vec::new();
    for (dir, kind) in [("vertex-face", CcdKind::VertexFace), ("edge-edge", CcdKind::EdgeEdge)] {
        for set in ["unit-tests", "erleben-spikes"] {
            let folder = fixtures().join("sample-queries").join(set).join(dir);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
            files.sort();
            for f in files {
                let text = std::fs::read_to_string(&f).unwrap();
                for (i, q) in read_sample_queries(&text, kind).unwrap().into_iter().enumerate() {
                    out.push((f.display().to_string(), i, q));
                }
            }
        }
    }
    for name in ["3ee", "5ee"] {
        let text = std::fs::read_to_string(fixtures().join(format!("symbolic/queries/{name}.csv"))).unwrap();
        let labels =
            std::fs::read_to_string(fixtures().join(format!("symbolic/mma_bool/{name}_mma_bool.json"))).unwrap();
        for (i, q) in read_symbolic(&text, &labels, CcdKind::EdgeEdge).unwrap().into_iter().enumerate() {
            out.push((format!("symbolic/{name}"), i, q));
        }
    }
    out
}

#[test]
fn matches_every_ground_truth_label() {
    let queries = all_queries();
    assert_eq!(queries.len(), 3592 / 8 + 4, "every query of the fixtures is loaded");
    let mut wrong = Vec::new();
    let (mut hits, mut misses) = (0, 0);
    for (file, i, q) in &queries {
        let r = ccd(q.kind, &q.t0, &q.t1).unwrap();
        let label = q.label.unwrap();
        if r.collides() != label {
            wrong.push(format!("{file} #{i}: label {label}, exact {}", r.collides()));
        }
        if label {
            hits += 1;
        } else {
            misses += 1;
        }
    }
    assert!(hits > 50 && misses > 50, "both labels occur: {hits} hits, {misses} misses");
    assert!(wrong.is_empty(), "{} disagreements:\n{}", wrong.len(), wrong.join("\n"));
}

/// The `f64` path on every benchmark query rounded to binary64 agrees with the exact path on
/// the rounded numbers under the contract (the handcrafted queries are degenerate on purpose:
/// many are within the budget, where the `f64` contact must still be valid within tolerance).
#[test]
fn f64_agrees_with_exact_on_every_rounded_query() {
    let round = |p: &[Point3<num_rational::BigRational>; 4]| p.clone().map(|x| x.map(|c| c.to_f64()));
    let mut strict = 0;
    let mut failures = Vec::new();
    for (file, i, q) in &all_queries() {
        let (t0, t1) = (round(&q.t0), round(&q.t1));
        match check_ccd_agreement(q.kind, &t0, &t1) {
            Ok(touchstone::contract::Agreement::Strict) => strict += 1,
            Ok(_) => {}
            Err(d) => failures.push(format!(
                "{file} #{i}: {d}\n  replay: {}",
                touchstone_oracle::encode::replay_line(&touchstone::query::Ccd { kind: q.kind, t0, t1 })
            )),
        }
    }
    assert!(failures.is_empty(), "{} breaches:\n{}", failures.len(), failures.join("\n"));
    assert!(strict > 100, "only {strict} queries were decided strictly");
}

/// The interval backend on every labelled query: the label, or `Uncertain` (never the wrong
/// answer); most of them decided.
#[test]
fn intervals_give_the_label_or_uncertain() {
    filter_gives_the_label_or_uncertain::<touchstone::scalar::Interval>();
}

/// The same on values with bounds (the filtered path's first stage).
#[test]
fn values_with_bounds_give_the_label_or_uncertain() {
    filter_gives_the_label_or_uncertain::<touchstone::scalar::MidRad>();
}

fn filter_gives_the_label_or_uncertain<F: touchstone::poly::FilterScalar>() {
    use touchstone::scalar::Uncertain;
    let iv = |p: &[Point3<num_rational::BigRational>; 4]| p.clone().map(|x| x.map(|c| F::from_rational(&c)));
    let (mut decided, mut uncertain) = (0, 0);
    for (file, i, q) in &all_queries() {
        match ccd(q.kind, &iv(&q.t0), &iv(&q.t1)) {
            Ok(r) => {
                decided += 1;
                assert_eq!(Some(r.collides()), q.label, "{file} #{i}: the {} backend decided wrongly", F::NAME);
            }
            Err(touchstone::poly::PolyError::Uncertain(Uncertain::Close)) => uncertain += 1,
            Err(e) => panic!("{file} #{i}: {e}"),
        }
    }
    println!("{} decided {decided}, uncertain {uncertain}", F::NAME);
    assert!(decided * 4 >= 3 * (decided + uncertain), "{} decided only {decided} of {}", F::NAME, decided + uncertain);
}
