//! The parser and the line loop never panic and never lose or reorder a line, whatever the
//! input: arbitrary text, arbitrary bytes, and structured JSON close to valid queries.

use proptest::prelude::*;
use serde_json::{json, Value};
use touchstone_oracle::{answer_line, run, Options};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| json!(x)),
        prop_oneof![
            Just("1/0".to_string()),
            Just("NaN".to_string()),
            Just("1e99999".to_string()),
            Just("-3/7".to_string()),
            Just("0.1".to_string()),
            ".{0,12}"
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "id",
            "op",
            "backend",
            "digits",
            "points",
            "point",
            "plane",
            "pose",
            "inverse",
            "to_point",
            "to_segment",
            "to_plane",
            "segment",
            "solid",
            "a",
            "b",
            "pose_a",
            "pose_b",
            "box",
            "polyhedron",
            "vertices",
            "faces",
            "quaternion",
            "translation",
            "matrix",
            "coefficients",
            "claim",
            "tolerance",
            "kind",
            "t0",
            "t1",
            "interval",
            "motion_a",
            "motion_b",
            "velocity_a",
        ])
        .prop_map(String::from),
        "[a-z_]{1,8}",
    ]
}

fn op() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        "orient3d",
        "side_of_plane",
        "transform_points",
        "squared_distance",
        "segment_plane",
        "validate",
        "index_stats",
        "classify_point",
        "classify_segment",
        "distance",
        "contact",
        "toi_boxes",
        "contact_forces",
        "toi",
        "ccd",
        "nope",
    ])
    .prop_map(|s| json!(s))
}

fn check_answer(line: &str) -> Result<(), TestCaseError> {
    let a = answer_line(line, &Options::default());
    prop_assert!(a.is_object());
    prop_assert!(a.get("id").is_some());
    if let Some(e) = a.get("error") {
        prop_assert_ne!(&e["kind"], "internal", "{} -> {}", line, a);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_text(line in ".{0,200}") {
        check_answer(&line)?;
    }

    #[test]
    fn near_queries(op in op(), fields in proptest::collection::vec((key(), json_value()), 0..6)) {
        let mut q: serde_json::Map<String, Value> = fields.into_iter().collect();
        q.insert("op".into(), op);
        check_answer(&Value::Object(q).to_string())?;
    }

    #[test]
    fn any_bytes_keep_line_count_and_order(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..8)) {
        // Lines of arbitrary bytes (no newline inside), each followed by a valid query.
        let mut input = Vec::new();
        for (i, c) in chunks.iter().enumerate() {
            input.extend(c.iter().copied().filter(|&b| b != b'\n'));
            input.push(b'\n');
            input.extend(format!("{{\"id\": {i}, \"op\": \"orient3d\", \"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}}\n").as_bytes());
        }
        let mut out = Vec::new();
        let summary = run(&input[..], &mut out, &Options::default(), |_| {}).unwrap();
        let lines: Vec<Value> = String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        prop_assert_eq!(lines.len(), 2 * chunks.len());
        prop_assert_eq!(summary.lines as usize, lines.len());
        for i in 0..chunks.len() {
            prop_assert_eq!(&lines[2 * i + 1]["id"], &json!(i));
            prop_assert_eq!(&lines[2 * i + 1]["orientation"], "positive");
        }
    }
}
