//! The fuzz targets' seed corpora, `fuzz/seeds/TARGET/gen-*`, are the strategies'
//! constructions written as each target's input bytes (`touchstone_oracle::encode::seed_corpus`:
//! the library's, and `touchstone gen` lines for `oracle_parse`):
//! the committed files are exactly the generated ones, each decodes to a case the target
//! checks (not a rejected input), and the case's oracle line, answered on both backends,
//! agrees under the contract. `TOUCHSTONE_WRITE_SEEDS=1 cargo test -p touchstone-oracle --test
//! fuzz_seeds` rewrites them.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use touchstone::arbitrary::{decode, ConvexPairInput, FUZZ_TARGETS, RAW_TARGET};
use touchstone::query::{both, Distance};
use touchstone_oracle::encode::replay_lines;
use touchstone_oracle::encode::seed_corpus;
use touchstone_oracle::{answer_line, Options};

#[test]
fn seed_corpora_are_the_generated_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds");
    let write = std::env::var_os("TOUCHSTONE_WRITE_SEEDS").is_some();
    for target in FUZZ_TARGETS {
        let seeds: BTreeMap<String, Vec<u8>> = seed_corpus(target).unwrap().into_iter().collect();
        assert!(seeds.len() >= 15, "{target}: {} seeds", seeds.len());
        let mut answered = 0;
        for (name, bytes) in &seeds {
            let lines = replay_lines(target, bytes).unwrap_or_else(|e| panic!("{target}/{name}: {e}"));
            for line in lines.lines() {
                let a = answer_line(line, &Options::default());
                if let Some(e) = a.get("error") {
                    // An edited solid is often broken on purpose: a typed defect naming where.
                    let named = e["kind"] == "invalid" && e["at"].as_str().is_some_and(|at| at.starts_with("/solid"));
                    assert!(target == "brep_build" && named, "{target}/{name}: {line}\n{a}");
                    answered += 1;
                    continue;
                }
                if let Some(agreement) = a.get("agreement") {
                    assert_eq!(agreement["agree"], Value::Bool(true), "{target}/{name}: {line}\n{a}");
                    answered += 1;
                }
                // oracle_parse's seeds are gen cases, curved_diff's carry their truth as the
                // claim: each answered with its claim confirmed.
                if target == RAW_TARGET || target == "curved_diff" {
                    // (A curved pair within the precision of touching confirms no status
                    // either side of it: touching to within the precision is its answer.)
                    let near = a["certificate"] == "tangency";
                    assert!(a["verdict"]["ok"] == true || near, "{target}/{name}: {line}\n{a}");
                    answered += 1;
                }
            }
        }
        assert!(answered >= seeds.len(), "{target}: {answered} lines answered on both backends");
        if target == "vclip_diff" {
            // The target's own check takes every pair (none rejected: binary64 kept them exact).
            for (name, bytes) in &seeds {
                let (a, b) = decode::<ConvexPairInput>(target, bytes).unwrap().solids().unwrap();
                let r = both(&Distance::between(&a, &b))
                    .unwrap_or_else(|e| panic!("{target}/{name} is rejected by the target: {e:?}"));
                assert!(r.agreement.is_ok(), "{name}: {:?}", r.agreement);
            }
        }
        let dir = root.join(target);
        let generated = |e: &std::fs::DirEntry| e.file_name().to_string_lossy().starts_with("gen-");
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            for e in std::fs::read_dir(&dir).unwrap().map(Result::unwrap).filter(generated) {
                std::fs::remove_file(e.path()).unwrap();
            }
            for (name, bytes) in &seeds {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
        }
        let committed: BTreeMap<String, Vec<u8>> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (write them with TOUCHSTONE_WRITE_SEEDS=1)", dir.display()))
            .map(Result::unwrap)
            .filter(generated)
            .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
            .collect();
        assert!(
            committed == seeds,
            "{target}: fuzz/seeds/{target}/gen-* differ from seed_corpus (rewrite them with TOUCHSTONE_WRITE_SEEDS=1)"
        );
    }
}

/// `FUZZ_TARGETS`, the one list `touchstone decode` takes, its help shows and its errors name,
/// is the list of targets `fuzz/fuzz_targets/` holds.
#[test]
fn the_target_list_is_the_fuzz_folder() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/fuzz_targets");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FUZZ_TARGETS.iter().map(|t| t.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk);
}
