//! `touchstone explain`: one query on every backend side by side, with `MISMATCH` where they
//! disagree, the agreement contract's verdict, and for `distance` V-Clip's walk step by step.
//!
//! The exact paths (`exact`, the filtered path, and `exact-unfiltered`, the `BigRational`
//! reference) must give the same bytes: any difference is a `MISMATCH` and a bug. The `f64`
//! answer is judged as a claim on the exact one (so a number passes within the claim's default
//! tolerance and a feature pair passes when it realises the exact optimum, a tie), and a field
//! that fails is a `MISMATCH`; the contract line then says whether the `f64` path was allowed
//! to fail there (a decision within its tolerance of a degeneracy) or breached its contract.
//!
//! ```
//! use touchstone_oracle::{explain::explain, Options};
//! // Two unit cubes 1e-16 apart: binary64 reads the translation as 2, so f64 says touching.
//! let line = r#"{"op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
//!                "pose_b": {"translation": ["2.0000000000000001", 0, 0]}}"#;
//! let text = explain(&line.replace('\n', ""), &Options::default());
//! assert!(text.contains("  f64               touching   MISMATCH"), "{text}");
//! // Within its tolerance of a degeneracy, which the contract allows.
//! assert!(text.contains("contract: f64 agrees within its tolerance"), "{text}");
//! // V-Clip's walk: vertex 0 to vertex 0, then along a's edge to its vertex 1.
//! assert!(text.contains("V-Clip walk (exact, from vertex 0 of each shape): 2 steps"), "{text}");
//! ```

use std::fmt::Write as _;

use num_rational::BigRational;
use serde_json::{json, Map, Value};
use touchstone::query::spec::{posed_convex, ConvexPosed};
use touchstone::query::Distance;
use touchstone::scalar::decimal_of_rational;
use touchstone::vclip::{feature_squared_distance, vclip_walk};

use crate::ops::{feature_json, ops};
use crate::{answer_line_limited, Options};

/// The backends compared, in column order.
pub const BACKENDS: [&str; 3] = ["exact", "exact-unfiltered", "f64"];

/// The widest value shown in a column (longer ones are cut with `…`).
const WIDTH: usize = 60;

/// What [`explain_value`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explained {
    /// The report.
    pub text: String,
    /// Fields where a backend disagrees with `exact` (by the rules of the module docs).
    pub mismatches: Vec<String>,
}

/// Explain one query line: the report as text.
pub fn explain(line: &str, opts: &Options) -> String {
    explain_value(line, opts).text
}

/// Explain one query line.
pub fn explain_value(line: &str, opts: &Options) -> Explained {
    let mut out = Explained::default();
    let query: Map<String, Value> = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(m)) => m,
        _ => {
            // The answer line says what is wrong with it.
            let answer = answer_line_limited(line, opts);
            out.text = format!("the line is not a query: {}\n", answer["error"]);
            return out;
        }
    };
    let op = query.get("op").and_then(Value::as_str).unwrap_or("?").to_string();
    let ask = |backend: &str, claim: Option<Value>| {
        let mut q = query.clone();
        q.insert("backend".into(), json!(backend));
        q.remove("claim");
        q.remove("tolerance");
        if let Some(c) = claim {
            q.insert("claim".into(), c);
        }
        let mut a = answer_line_limited(&Value::Object(q).to_string(), opts);
        if let Some(m) = a.as_object_mut() {
            m.shift_remove("id");
        }
        a
    };
    let answers: Vec<Value> = BACKENDS.iter().map(|b| ask(b, None)).collect();
    let _ = writeln!(out.text, "op {op}{}", query.get("id").map(|id| format!(", id {id}")).unwrap_or_default());
    if let Some(e) = answers[0].get("error") {
        let _ = writeln!(out.text, "exact: error {e}");
    }
    // The f64 answer as a claim on the exact one: its claimable fields.
    let claimable = ops().into_iter().find(|o| o.name == op).map(|o| (o.claim_fields)()).unwrap_or_default();
    let f64_claim: Map<String, Value> = answers[2]
        .as_object()
        .filter(|m| !m.contains_key("error"))
        .map(|m| {
            m.iter().filter(|(k, _)| claimable.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
        })
        .unwrap_or_default();
    let judged = (!f64_claim.is_empty() && answers[0].get("error").is_none())
        .then(|| ask("exact", Some(Value::Object(f64_claim))))
        .and_then(|a| a.get("verdict").cloned());
    // One block per output field, in the exact answer's order, then fields only others have.
    let mut fields: Vec<String> = Vec::new();
    for a in &answers {
        if let Some(m) = a.as_object() {
            for k in m.keys() {
                if !fields.contains(k) {
                    fields.push(k.clone());
                }
            }
        }
    }
    for field in &fields {
        let _ = writeln!(out.text, "{field}");
        let values: Vec<String> = answers.iter().map(|a| a.get(field).map_or("—".to_string(), shown)).collect();
        let w = values.iter().map(|v| v.chars().count()).max().unwrap_or(0);
        for ((backend, a), value) in BACKENDS.iter().zip(&answers).zip(&values) {
            let marker = mark(field, backend, a, &answers[0], judged.as_ref());
            if marker.starts_with("MISMATCH") && !out.mismatches.contains(field) {
                out.mismatches.push(field.clone());
            }
            let _ = writeln!(out.text, "  {backend:<17} {value:<w$}  {marker}");
        }
    }
    out.text.push_str(&contract_line(&ask("both", None)));
    if op == "distance" && answers[0].get("error").is_none() {
        out.text.push_str(&walk(line, opts));
    }
    out
}

/// A value in one column: compact JSON, cut at [`WIDTH`] characters.
fn shown(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        _ => v.to_string(),
    };
    if s.chars().count() > WIDTH {
        format!("{}…", s.chars().take(WIDTH - 1).collect::<String>())
    } else {
        s
    }
}

/// The marker after `backend`'s value of `field`.
fn mark(field: &str, backend: &str, answer: &Value, exact: &Value, judged: Option<&Value>) -> String {
    match backend {
        "exact" => String::new(),
        "exact-unfiltered" => {
            if answer.get(field) == exact.get(field) {
                String::new()
            } else {
                "MISMATCH: the exact paths differ (a bug: please report the line)".into()
            }
        }
        _ => {
            let check =
                judged.and_then(|v| v["checks"].as_array()).and_then(|cs| cs.iter().find(|c| c["field"] == field));
            match check {
                Some(c) if c["ok"] == false => {
                    let why = c["note"].as_str().map(|n| format!(": {n}")).unwrap_or_default();
                    let err = if c["abs_error"].is_null() {
                        String::new()
                    } else {
                        format!(" (off by {})", shown(&c["abs_error"]))
                    };
                    format!("MISMATCH{err}{why}")
                }
                Some(c) => match c["note"].as_str() {
                    Some(n) => format!("ok: {n}"),
                    None if answer.get(field) != exact.get(field) => "ok within the claim tolerance".into(),
                    None => String::new(),
                },
                None if answer.get("error").is_some() && exact.get("error").is_none() && field == "error" => {
                    "MISMATCH: f64 declined (see the contract line)".into()
                }
                None => String::new(),
            }
        }
    }
}

/// The agreement contract's verdict on this query (the `both` backend's `agreement`).
fn contract_line(both: &Value) -> String {
    let a = &both["agreement"];
    if a.is_null() {
        return match both.get("error") {
            Some(e) => format!("contract: not evaluated ({})\n", e["message"].as_str().unwrap_or("error")),
            None => "contract: not evaluated\n".into(),
        };
    }
    let margin = shown(&a["margin"]);
    let budget = shown(&a["budget"]);
    if a["agree"] == true {
        if a["strict"] == true {
            format!("contract: f64 agrees with exact (margin {margin} > budget {budget}: no tolerance needed)\n")
        } else {
            format!(
                "contract: f64 agrees within its tolerance (margin {margin} ≤ budget {budget}: the input is within the f64 path's tolerance of a degeneracy, where it may weaken or decline)\n"
            )
        }
    } else {
        format!("contract: BREACH, f64 disagrees beyond its tolerance (margin {margin} > budget {budget}): {a}\n")
    }
}

/// V-Clip's walk on the exact posed solids, from vertex 0 of each (the cold start; the
/// `distance` op starts from the filter's features, so its `steps` may be fewer).
fn walk(line: &str, opts: &Options) -> String {
    let run = || -> Result<String, String> {
        let q = crate::ops::read_query::<Distance<BigRational>>(line, opts).map_err(|e| e.message)?;
        let a = posed_convex::<BigRational, _>(&q.a).map_err(|e| e.message)?;
        let b = posed_convex::<BigRational, _>(&q.b).map_err(|e| e.message)?;
        let (sa, sb) = (&a.built.solid, &b.built.solid);
        let (pairs, r) = vclip_walk(sa, sb, None).map_err(|e| e.to_string())?;
        let mut s = format!("V-Clip walk (exact, from vertex 0 of each shape): {} steps\n", r.steps);
        let name = |p: &ConvexPosed<BigRational>, f| {
            p.feature_id(f).map(|id| feature_json(&id).to_string()).unwrap_or_else(|_| format!("{f:?}"))
        };
        for (i, (x, y)) in pairs.iter().enumerate() {
            let d = feature_squared_distance(sa, x, sb, y).map_err(|e| e.to_string())?;
            let moved = match i.checked_sub(1).map(|j| &pairs[j]) {
                None => "start",
                Some((px, _)) if px != x => "a moved",
                Some(_) => "b moved",
            };
            let _ = writeln!(
                s,
                "  {i:>3}  a {:<24} b {:<24} distance² {:<14} {moved}",
                name(&a, x),
                name(&b, y),
                decimal_of_rational(&d, 6)
            );
        }
        let status = format!("{:?}", r.closest.status).to_lowercase();
        let _ = writeln!(
            s,
            "  end: {status}, distance² {}{}",
            decimal_of_rational(&r.closest.squared_distance, 6),
            if r.left_cycle { " (left a cycle: exhaustive answer)" } else { "" }
        );
        Ok(s)
    };
    touchstone::budget::with_budget(opts.budget(), || {
        run().unwrap_or_else(|e| format!("V-Clip walk: not shown ({e})\n"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_paths_that_differ_are_a_mismatch() {
        let (e, u) = (json!({"x": "1/3"}), json!({"x": "1/2"}));
        assert!(mark("x", "exact-unfiltered", &u, &e, None).starts_with("MISMATCH"));
        assert_eq!(mark("x", "exact-unfiltered", &e, &e, None), "");
        // f64: the claim check's verdict decides.
        let judged = json!({"checks": [{"field": "x", "ok": false, "abs_error": "0.1", "note": "n"}]});
        assert_eq!(mark("x", "f64", &json!({"x": 0.4}), &e, Some(&judged)), "MISMATCH (off by 0.1): n");
        let judged = json!({"checks": [{"field": "x", "ok": true, "abs_error": "1e-17"}]});
        assert_eq!(
            mark("x", "f64", &json!({"x": 0.3333333333333333}), &e, Some(&judged)),
            "ok within the claim tolerance"
        );
    }
}
