//! `check-engine`: another engine's answers to the same queries, judged by the exact path.
//!
//! An adapter ([`Engine`]) runs the engine on a query line (its own shapes, built from the
//! line's numbers rounded to binary64, as an engine holds them) and states each answer as a
//! claim on an oracle op. The claim line (the query, the claim, a tolerance scaled to the
//! query) is answered by the oracle on the filtered exact backend, and its verdict is the
//! judgement; numbers the format cannot claim yet (a penetration depth) are judged here
//! against [`touchstone::query::penetration_depth`]. An engine that panics or runs past the
//! time limit is a finding too.
//!
//! The tolerance of a claim: `abs = 1e-9 · scale`, `rel = 1e-9`, where the scale is the
//! largest magnitude among the shapes' coordinates, extents and translations (a unit box has
//! scale 1/2; a box at 1e200 has scale 1e200).

pub mod adapters;
pub mod demo;
pub mod margin;
pub mod parry;
pub mod process;
pub mod robust;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::ops::OpJson;
use crate::{answer_line_limited, Options};
use touchstone::query::{ClassifyPoint, Contact, Distance, Orient2d, Orient3d, Toi};

/// What an engine answered with one of its functions, stated as a claim on an oracle op.
#[derive(Clone, Debug)]
pub struct Answered {
    /// The engine's function (`"contact"`).
    pub function: Cow<'static, str>,
    /// The claim on the query's own op, with its output field names (may be empty: judged
    /// here).
    pub claim: Value,
    /// The engine's answer in words (`"signed distance -2.3e-10"`).
    pub said: String,
    /// What else the check compares beside the claim.
    pub extra: Extra,
}

impl Answered {
    /// No claim: what a claim line without one asks (the plain exact answer).
    fn plain() -> Answered {
        Answered { function: Cow::Borrowed(""), claim: json!({}), said: String::new(), extra: Extra::None }
    }
}

/// Judgements beyond the claim's verdict.
#[derive(Clone, Debug, PartialEq)]
pub enum Extra {
    /// None: the verdict decides.
    None,
    /// A signed distance (negative: penetration), judged against the exact distance or depth.
    SignedDistance(f64),
    /// A signed distance and the contact normal (on the first shape, pointing to the second):
    /// the distance as [`Extra::SignedDistance`]; on separated shapes the normal is unique
    /// (the direction from a's closest point to b's, the same for every closest pair of two
    /// convex shapes) and must be within 1e-9 · scale / distance of it, the error a point
    /// tolerance of 1e-9 of the scale allows in a direction over that distance; it must be an
    /// optimal direction within the tolerance: on penetrating or touching shapes moving b along
    /// it by the exact depth separates them, on separated ones the gap along it is the
    /// distance.
    Contact(f64, [f64; 3]),
    /// A boolean that has false positives and negatives: intersecting, colliding.
    Boolean(bool),
    /// A contact manifold's points within the tolerance, each with its normal (out of b toward
    /// a), judged against the exact R_t of touching shapes ([`manifold_faults`]).
    Manifold(Vec<([f64; 3], [f64; 3])>),
}

/// An engine's answers to one query: `None` when it has nothing for the op (the line is
/// skipped), `Err` when it gives none ([`Failure`]).
pub type Answers = Option<Result<Vec<Answered>, Failure>>;

/// Why an engine gave no answers to a query.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The adapter cannot ask the engine this query (a shape it cannot represent, a query that
    /// does not read): skipped, with the reason.
    Skipped(String),
    /// The engine refused the query (its own error), with its reason.
    Refused(String),
    /// The engine's process died on the query: its last words.
    Crash(String),
    /// The engine did not answer within the time limit.
    Hang,
    /// The engine's answer broke the protocol: what was wrong.
    Malformed(String),
}

impl From<String> for Failure {
    fn from(why: String) -> Self {
        Failure::Skipped(why)
    }
}

/// One query as an engine is asked it: typed, its numbers read into binary64 as an engine
/// holds them (or why it does not read), with the line it came from and its [`scale`].
pub struct Asked<'a, Q> {
    /// The query, or why it does not read (files are not read for an engine).
    pub query: Result<&'a Q, &'a str>,
    /// The query line.
    pub line: &'a Value,
    /// The query's scale: the claims' absolute tolerance is `1e-9 · scale`.
    pub scale: f64,
}

impl<Q> Asked<'_, Q> {
    /// The query, or why it does not read.
    pub fn read(&self) -> Result<&Q, String> {
        self.query.map_err(str::to_string)
    }
}

/// An engine under check: one method per op it can be asked (each `None` by default: nothing
/// for that op). The methods run the engine: they may panic or not return.
pub trait Engine: Sync {
    /// Its name on the command line.
    fn name(&self) -> &'static str;
    /// The engine's version and settings, for the report's header (`None`: not stated).
    fn header(&self) -> Option<String> {
        None
    }
    /// Whether the engine keeps the time limit itself (a process it can kill: its hang is a
    /// [`Failure::Hang`]); otherwise each call runs on a thread that is abandoned past it.
    fn own_time_limit(&self) -> bool {
        false
    }
    /// How many times the engine was started again after a crash, a hang or a protocol break.
    fn restarts(&self) -> u64 {
        0
    }
    /// End the engine after a run (a process: let it exit).
    fn shutdown(&self) {}
    /// Whether the engine claims exact discrete answers (robust's predicates): then none of
    /// its wrong ones is a flip within the tolerance, however close the degeneracy.
    fn claims_exact(&self) -> bool {
        false
    }
    /// A `distance` line.
    fn distance(&self, asked: Asked<'_, Distance<f64>>) -> Answers {
        let _ = asked;
        None
    }
    /// A `toi` line.
    fn toi(&self, asked: Asked<'_, Toi<f64>>) -> Answers {
        let _ = asked;
        None
    }
    /// A `classify_point` line.
    fn classify_point(&self, asked: Asked<'_, ClassifyPoint<f64>>) -> Answers {
        let _ = asked;
        None
    }
    /// A `contact` line.
    fn contact(&self, asked: Asked<'_, Contact<f64>>) -> Answers {
        let _ = asked;
        None
    }
    /// An `orient3d` line.
    fn orient3d(&self, asked: Asked<'_, Orient3d<f64>>) -> Answers {
        let _ = asked;
        None
    }
    /// An `orient2d` line.
    fn orient2d(&self, asked: Asked<'_, Orient2d<f64>>) -> Answers {
        let _ = asked;
        None
    }
}

/// An op engines are checked on: which [`Engine`] method it asks, and how its exact answer (a
/// claim line's output) reads.
pub trait Checked: OpJson + 'static {
    /// Ask `engine`.
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers;
    /// The exact answer in words.
    fn truth(out: &Value) -> String;
    /// Whether the exact answer says the shapes meet (what a boolean answer is judged
    /// against); `None`: the op has no such answer.
    fn intersecting(out: &Value) -> Option<bool> {
        let _ = out;
        None
    }
    /// The exact answer's discrete part (what rounding the input may change): its status by
    /// default.
    fn discrete(out: &Value) -> Option<String> {
        out["status"].as_str().map(str::to_string)
    }
}

impl Checked for Distance<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.distance(asked)
    }
    fn truth(out: &Value) -> String {
        match out["status"].as_str() {
            Some("separated") => format!("separated, distance {}", out["distance"].as_str().map_or("?".into(), short)),
            Some(s) => s.to_string(),
            None => String::new(),
        }
    }
    fn intersecting(out: &Value) -> Option<bool> {
        out["status"].as_str().map(|s| s != "separated")
    }
}

impl Checked for Toi<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.toi(asked)
    }
    fn truth(out: &Value) -> String {
        match (out["collides"].as_bool(), &out["toi"]) {
            (Some(true), t) => format!(
                "collide at t = {}{}",
                t["decimal"].as_str().map_or("?".into(), short),
                out["at_start"].as_str().map_or(String::new(), |s| format!(" ({s} at the start)"))
            ),
            (Some(false), _) => "do not collide".into(),
            _ => String::new(),
        }
    }
    fn intersecting(out: &Value) -> Option<bool> {
        out["collides"].as_bool()
    }
    fn discrete(out: &Value) -> Option<String> {
        let collides = out["collides"].as_bool()?;
        Some(match out["at_start"].as_str() {
            Some(s) => format!("collide ({s} at the start)"),
            None if collides => "collide".into(),
            None => "do not collide".into(),
        })
    }
}

impl Checked for ClassifyPoint<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.classify_point(asked)
    }
    fn truth(out: &Value) -> String {
        match (out["class"].as_str(), out.get("feature")) {
            (Some(c), Some(f)) => format!("{c}, on {f}"),
            (Some(c), None) => c.to_string(),
            _ => String::new(),
        }
    }
    fn intersecting(out: &Value) -> Option<bool> {
        out["class"].as_str().map(|c| c != "outside")
    }
    fn discrete(out: &Value) -> Option<String> {
        out["class"].as_str().map(str::to_string)
    }
}

impl Checked for Contact<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.contact(asked)
    }
    fn truth(out: &Value) -> String {
        let regions: Vec<String> = out["regions"]
            .as_array()
            .map(|rs| rs.iter().map(|r| format!("{}D {} on {}", r["dim"], r["a"], r["b"])).collect())
            .unwrap_or_default();
        match out["status"].as_str() {
            Some("touching") => format!("touching, R_t: {}", regions.join(", ")),
            Some(s) => s.to_string(),
            None => String::new(),
        }
    }
}

/// An orientation answer in words.
fn orientation_words(out: &Value) -> String {
    out["orientation"].as_str().unwrap_or("").to_string()
}

impl Checked for Orient3d<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.orient3d(asked)
    }
    fn truth(out: &Value) -> String {
        orientation_words(out)
    }
    fn discrete(out: &Value) -> Option<String> {
        out["orientation"].as_str().map(str::to_string)
    }
}

impl Checked for Orient2d<f64> {
    fn ask(engine: &dyn Engine, asked: Asked<'_, Self>) -> Answers {
        engine.orient2d(asked)
    }
    fn truth(out: &Value) -> String {
        orientation_words(out)
    }
    fn discrete(out: &Value) -> Option<String> {
        out["orientation"].as_str().map(str::to_string)
    }
}

/// An op of [`CHECKED`], its methods as plain functions.
#[derive(Clone, Copy)]
struct CheckedOp {
    op: &'static str,
    fields: &'static [&'static str],
    ask: fn(&dyn Engine, &Value) -> Answers,
    truth: fn(&Value) -> String,
    intersecting: fn(&Value) -> Option<bool>,
    discrete: fn(&Value) -> Option<String>,
}

const fn checked<Q: Checked>() -> CheckedOp {
    CheckedOp {
        op: Q::OP,
        fields: Q::FIELDS,
        ask: ask_typed::<Q>,
        truth: Q::truth,
        intersecting: Q::intersecting,
        discrete: <Q as Checked>::discrete,
    }
}

/// The ops engines are checked on: a line of another op is skipped.
const CHECKED: [CheckedOp; 6] = [
    checked::<Distance<f64>>(),
    checked::<Toi<f64>>(),
    checked::<ClassifyPoint<f64>>(),
    checked::<Contact<f64>>(),
    checked::<Orient3d<f64>>(),
    checked::<Orient2d<f64>>(),
];

fn checked_op(q: &Value) -> Option<&'static CheckedOp> {
    let op = q.get("op")?.as_str()?;
    CHECKED.iter().find(|c| c.op == op)
}

/// Read line `q` as a `Q` in binary64 (no file is read for an engine) and ask `engine`.
fn ask_typed<Q: Checked>(engine: &dyn Engine, q: &Value) -> Answers {
    let opts = crate::Options { max_file_bytes: 0, ..crate::Options::default() };
    let read = crate::ops::read_query::<Q>(&q.to_string(), &opts).map_err(|e| e.to_string());
    let query = match &read {
        Ok(x) => Ok(x),
        Err(e) => Err(e.as_str()),
    };
    Q::ask(engine, Asked { query, line: q, scale: scale(q) })
}

/// Ask `engine` about query line `q` by its op's method (`None`: an op engines are not
/// checked on, or one this engine has nothing for). Runs the engine.
pub fn ask(engine: &dyn Engine, q: &Value) -> Answers {
    (checked_op(q)?.ask)(engine, q)
}

/// The engines `check-engine` knows.
pub fn engine(name: &str) -> Option<&'static dyn Engine> {
    match name {
        "parry3d" => Some(&parry::Parry),
        "robust" => Some(&robust::Robust),
        _ => None,
    }
}

/// The engines built in (the shipped adapters are [`adapters::SHIPPED`]).
pub const ENGINES: &[&str] = &["parry3d", "robust"];

/// How one answer fared.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Within the tolerance of the exact answer.
    Right,
    /// Wrong beyond the claim's tolerance: the failing fields.
    Wrong(Vec<String>),
    /// A discrete answer (a status, a boolean, a class, an orientation) that differs from the
    /// exact one only within the claim's tolerance of the degenerate configuration where it
    /// flips ([`Judged::margin`] at most `1e-9 · scale`): the failing fields.
    Flip(Vec<String>),
    /// The engine panicked (the message).
    Panic(String),
    /// The engine did not return within the time limit.
    Hang,
    /// The engine's process died on the line: its last words.
    Crash(String),
    /// The engine refused the query: its reason.
    Refused(String),
    /// The engine's answer broke the protocol: what was wrong.
    Malformed(String),
    /// The claim line could not be judged (an oracle error line: the input is invalid, or a
    /// limit was reached).
    Unjudged(String),
}

/// One judged answer.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The input line's number (1-based).
    pub line: usize,
    /// The query's `id`.
    pub id: Value,
    /// The engine's name.
    pub engine: &'static str,
    /// The engine's function (`"panic"` or `"hang"` when the whole call failed).
    pub function: String,
    /// The outcome.
    pub outcome: Outcome,
    /// The engine's answer in words.
    pub said: String,
    /// The exact answer in words.
    pub truth: String,
    /// |claimed − exact| of the main number, when there is one.
    pub abs_error: Option<f64>,
    /// The same relative to |exact| (none when the exact value is zero).
    pub rel_error: Option<f64>,
    /// The query's scale ([`scale`]): errors are ranked relative to it.
    pub scale: f64,
    /// A false positive (`Some(true)`) or negative (`Some(false)`) of a boolean answer.
    pub false_positive: Option<bool>,
    /// For a wrong discrete answer, how far the query is from the degeneracy where the answer
    /// flips, computed exactly and rounded ([`margin::margin`]); `None` where it is not
    /// measured.
    pub margin: Option<f64>,
    /// The claim line that replays it (the query and the engine's claim).
    pub replay: String,
}

/// The largest magnitude among a query's shape coordinates, extents and translations (not
/// quaternions, velocities or times); 1 when there is none.
pub fn scale(q: &Value) -> f64 {
    fn walk(v: &Value, skip: bool, m: &mut f64) {
        match v {
            Value::Number(_) | Value::String(_) if !skip => *m = m.max(number(v).unwrap_or(0.0).abs()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, skip, m)),
            Value::Object(o) => o.iter().for_each(|(k, x)| walk(x, skip || k == "quaternion", m)),
            _ => {}
        }
    }
    let mut m = 0.0f64;
    for key in ["a", "b", "pose_a", "pose_b", "points"] {
        if let Some(v) = q.get(key) {
            walk(v, false, &mut m);
        }
    }
    if m > 0.0 && m.is_finite() {
        m
    } else {
        1.0
    }
}

/// The claim line for an answer: the query's own fields, the claim and the tolerance (`None`:
/// an op engines are not checked on).
pub fn claim_line(q: &Value, a: &Answered) -> Option<Value> {
    let op = checked_op(q)?;
    let mut m = Map::new();
    if let Some(id) = q.get("id") {
        m.insert("id".into(), id.clone());
    }
    m.insert("op".into(), json!(op.op));
    // The op's own input fields.
    let keep = op.fields;
    if let Some(o) = q.as_object() {
        for (k, v) in o {
            if keep.contains(&k.as_str()) {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    if a.claim.as_object().is_some_and(|c| !c.is_empty()) {
        m.insert("claim".into(), a.claim.clone());
        let s = scale(q);
        m.insert("tolerance".into(), json!({"abs": 1e-9 * s, "rel": 1e-9}));
    }
    Some(Value::Object(m))
}

/// Run `f` on its own thread: its value, `Err(Some(message))` when it panicked, `Err(None)`
/// when it did not return within `limit` (the thread is left to finish on its own).
pub fn guarded<T: Send + 'static>(
    limit: Option<Duration>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Option<String>> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("engine".into()).spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    if spawned.is_err() {
        return Err(Some("could not start a thread for the engine".into()));
    }
    let got = match limit {
        Some(d) => rx.recv_timeout(d).map_err(|_| None),
        None => rx.recv().map_err(|_| None),
    };
    match got {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(payload)) => Err(Some(panic_message(payload.as_ref()))),
        Err(e) => Err(e),
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// A JSON number, or a rational string, as the nearest binary64.
pub(crate) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            touchstone::scalar::parse_rational(s).ok().and_then(|x| num_traits::ToPrimitive::to_f64(&x))
        }
        _ => None,
    }
}

/// Judge one engine's answers to one query line ([`judge_line_full`]'s judgements).
pub fn judge_line(
    engine: &'static dyn Engine,
    line_no: usize,
    line: &str,
    opts: &Options,
    limit: Option<Duration>,
) -> Vec<Judged> {
    judge_line_full(engine, line_no, line, opts, limit).judged
}

/// One line's judgements, and whether rounding its numbers changed its exact answer.
#[derive(Clone, Debug, Default)]
pub struct LineJudgement {
    /// One per function the engine answered with (or one failure).
    pub judged: Vec<Judged>,
    /// Where the line's exact rationals, rounded to binary64 for the engine, have another exact
    /// answer than the rationals.
    pub rounding: Option<Rounding>,
}

/// A line whose exact answer rounding alone changed: the engine is judged on the doubles.
#[derive(Clone, Debug)]
pub struct Rounding {
    /// The input line's number (1-based).
    pub line: usize,
    /// The query's `id`.
    pub id: Value,
    /// The exact answer for the rationals as written, in words.
    pub written: String,
    /// The exact answer for the doubles the engine was given, in words.
    pub given: String,
}

/// Judge one engine's answers to one query line. The engine is given the line with every
/// exact rational rounded to the nearest binary64 ([`margin::rounded`]), and judged on those
/// numbers: the truth is the exact answer for the doubles.
pub fn judge_line_full(
    engine: &'static dyn Engine,
    line_no: usize,
    line: &str,
    opts: &Options,
    limit: Option<Duration>,
) -> LineJudgement {
    let Ok(written) = serde_json::from_str::<Value>(line) else { return LineJudgement::default() };
    if !written.is_object() {
        return LineJudgement::default();
    }
    let id = written.get("id").cloned().unwrap_or(Value::Null);
    // The engine runs on its own thread: a panic or a hang is a finding, not the end of the run.
    let Some(op) = checked_op(&written) else { return LineJudgement::default() };
    let (q, changed) = margin::rounded(&written, op.fields);
    let given_line = q.to_string();
    let query = q.clone();
    let answers = guarded(if engine.own_time_limit() { None } else { limit }, move || (op.ask)(engine, &query));
    let fail = |function: &str, outcome: Outcome, said: String| LineJudgement {
        judged: vec![Judged {
            line: line_no,
            id: id.clone(),
            engine: engine.name(),
            function: function.into(),
            outcome,
            said,
            truth: String::new(),
            abs_error: None,
            rel_error: None,
            scale: scale(&q),
            false_positive: None,
            margin: None,
            replay: given_line.clone(),
        }],
        rounding: None,
    };
    let answers = match answers {
        Ok(None) => return LineJudgement::default(),
        Ok(Some(Err(Failure::Skipped(e)))) => return fail("skipped", Outcome::Unjudged(e.clone()), e),
        Ok(Some(Err(Failure::Refused(e)))) => return fail("refused", Outcome::Refused(e.clone()), e),
        Ok(Some(Err(Failure::Crash(e)))) => return fail("crash", Outcome::Crash(e.clone()), e),
        Ok(Some(Err(Failure::Hang))) => return fail("hang", Outcome::Hang, "did not answer".into()),
        Ok(Some(Err(Failure::Malformed(e)))) => return fail("malformed", Outcome::Malformed(e.clone()), e),
        Ok(Some(Ok(a))) => a,
        Err(Some(m)) => return fail("panic", Outcome::Panic(m.clone()), format!("panicked: {m}")),
        Err(None) => return fail("hang", Outcome::Hang, "did not return".into()),
    };
    let exact = engine.claims_exact();
    let mut given_answer = None;
    let judged = answers
        .iter()
        .map(|a| {
            let (j, out) = judge_answer(op, &q, &id, line_no, a, exact, opts);
            given_answer.get_or_insert(out);
            Judged { engine: engine.name(), ..j }
        })
        .collect();
    let rounding = given_answer
        .filter(|_| changed)
        .and_then(|given| rounding_change(op, &written, &given, opts))
        .map(|(written, given)| Rounding { line: line_no, id: id.clone(), written, given });
    LineJudgement { judged, rounding }
}

/// The exact answers (in words) of line `written` and of its rounded copy, whose exact answer
/// `g` the judging already has, where their discrete parts differ.
fn rounding_change(op: &CheckedOp, written: &Value, g: &Value, opts: &Options) -> Option<(String, String)> {
    let line = claim_line(written, &Answered::plain()).unwrap_or(Value::Null).to_string();
    let w = answer_line_limited(&line, opts);
    let (dw, dg) = ((op.discrete)(&w)?, (op.discrete)(g)?);
    (dw != dg).then(|| ((op.truth)(&w), (op.truth)(g)))
}

/// Judge answer `a` to line `q` (as the engine was given it); `exact`: the engine claims exact
/// discrete answers (none is a flip). With the judgement, the claim line's exact answer (its
/// answer fields are the line's own).
fn judge_answer(
    op: &CheckedOp,
    q: &Value,
    id: &Value,
    line_no: usize,
    a: &Answered,
    exact: bool,
    opts: &Options,
) -> (Judged, Value) {
    let claim_q = claim_line(q, a).unwrap_or(Value::Null);
    let replay = claim_q.to_string();
    let out = answer_line_limited(&replay, opts);
    let mut j = Judged {
        line: line_no,
        id: id.clone(),
        engine: "",
        function: a.function.to_string(),
        outcome: Outcome::Right,
        said: a.said.clone(),
        truth: String::new(),
        abs_error: None,
        rel_error: None,
        scale: scale(q),
        false_positive: None,
        margin: None,
        replay,
    };
    if let Some(e) = out.get("error") {
        j.outcome =
            Outcome::Unjudged(format!("{}: {}", e["kind"].as_str().unwrap_or(""), e["message"].as_str().unwrap_or("")));
        return (j, out);
    }
    let mut wrong: Vec<String> = Vec::new();
    if let Some(checks) = out.get("verdict").and_then(|v| v["checks"].as_array()) {
        for c in checks {
            if c["ok"] == json!(false) {
                wrong.push(c["field"].as_str().unwrap_or("").into());
            }
            if let (Some(e), Some(x)) = (c.get("abs_error").and_then(number), c.get("exact").and_then(number)) {
                if j.abs_error.is_none_or(|m| e > m) {
                    j.abs_error = Some(e);
                    j.rel_error = (x != 0.0).then(|| e / x.abs());
                }
            }
        }
    }
    j.truth = (op.truth)(&out);
    let exact_intersecting = (op.intersecting)(&out);
    // A claimed boolean of meeting (alone, or beside a time of contact) that is not the exact
    // one: a false positive or negative.
    let claimed = ["intersecting", "collides", "contains"].iter().find_map(|k| a.claim.get(*k)?.as_bool());
    let claimed = match &a.extra {
        Extra::Boolean(b) => Some(*b),
        _ => claimed,
    };
    if let (Some(b), Some(x)) = (claimed, exact_intersecting) {
        if b != x {
            j.false_positive = Some(b);
        }
    }
    match &a.extra {
        Extra::Manifold(points) => {
            if out["status"] == json!("touching") {
                match manifold_faults(q, points, &out, opts) {
                    Some(f) => wrong.extend(f),
                    None => {
                        j.outcome = Outcome::Unjudged("the exact solids are over the run's limits".into());
                        return (j, out);
                    }
                }
            }
        }
        Extra::None => {}
        Extra::Boolean(_) => {}
        Extra::SignedDistance(d) | Extra::Contact(d, _) => {
            let d = *d;
            let normal = match &a.extra {
                Extra::Contact(_, n) => Some(n),
                _ => None,
            };
            // The exact signed distance: the distance, or minus the penetration depth (with,
            // for a claimed normal, how far b must move along it).
            let (exact, along) = match out["status"].as_str() {
                Some("penetrating") => match penetration(q, normal, opts) {
                    Some((depth, along)) => (Some(-depth), along),
                    None => (None, None),
                },
                // Separated: a claimed normal must also keep the gap along it (below).
                _ => (
                    out.get("distance").and_then(number),
                    normal.and_then(|_| penetration(q, normal, opts)).and_then(|(_, along)| along),
                ),
            };
            let Some(x) = exact else {
                j.outcome = Outcome::Unjudged("the exact signed distance is over the run's limits".into());
                return (j, out);
            };
            // A normal that is no direction (a NaN, an infinity, zero) is wrong as it stands.
            if normal.is_some_and(|n| !n.iter().all(|c| c.is_finite()) || n.iter().all(|c| *c == 0.0)) {
                wrong.push("normal".into());
            }
            if let (Some(n), Some("separated")) = (normal, out["status"].as_str()) {
                if let Some(off) = normal_error(n, &out) {
                    if x > 0.0 && off > 1e-9 * scale(q) / x + 1e-9 {
                        wrong.push("normal".into());
                    }
                }
            }
            let e = (d - x).abs();
            j.abs_error = Some(e);
            j.rel_error = (x != 0.0).then(|| e / x.abs());
            let tol = (1e-9 * scale(q)).max(1e-9 * x.abs());
            // (A NaN is wrong: no comparison admits it.)
            if (e.is_nan() || e > tol) && !wrong.iter().any(|w| w == "signed distance") {
                wrong.push("signed distance".into());
            }
            if out["status"] == json!("penetrating") {
                j.truth = format!("penetrating, depth {}", fmt(-x));
            }
            // The normal must be an optimal direction within the tolerance: on penetrating or
            // touching shapes, moving b along it by the depth (0 for touching) separates them
            // (ties between directions all pass: any of a touching edge's normals); on
            // separated ones, the gap along it is the distance. The same rule on both sides of
            // a touching configuration: a normal is judged alike whether rounding left the
            // shapes 10⁻¹⁶ apart or 10⁻¹⁶ deep.
            if along.is_some_and(|sep| sep + x > tol) && !wrong.iter().any(|w| w == "normal") {
                wrong.push("normal".into());
            }
        }
    }
    if !wrong.is_empty() {
        // A discrete answer wrong only within the tolerance of its degeneracy is a flip.
        let discrete = margin::flippable(op.op, &wrong, &out);
        if discrete {
            j.margin = margin::margin(op.op, q, a, &out, opts);
        }
        let tol = 1e-9 * scale(q);
        j.outcome = match j.margin {
            Some(m) if discrete && !exact && m <= tol => Outcome::Flip(wrong),
            _ => Outcome::Wrong(wrong),
        };
    }
    (j, out)
}

/// What is wrong with a contact manifold of touching shapes, judged exactly against the
/// contact regions R_t of the claim line's answer `out` and the posed exact solids (`None` over
/// the run's limits). With t the claims' absolute tolerance:
/// * `points`: every point lies within t of a region of R_t;
/// * `normals`: every point's plane (its normal through it) separates the shapes within t
///   (a's vertices at most t below it, b's at most t above): any direction of the normal cone
///   passes, so an edge or a vertex contact has no single right normal to miss;
/// * `coverage`: every 2D region holds three points not on one line, every 1D region two
///   distinct points, every 0D region one (within t): a manifold that leaves out a region,
///   or holds a face contact by fewer points than a plane needs, lets the shapes turn.
pub fn manifold_faults(q: &Value, points: &[([f64; 3], [f64; 3])], out: &Value, opts: &Options) -> Option<Vec<String>> {
    use num_rational::BigRational;
    use touchstone::budget::with_budget;
    use touchstone::contact::Region;
    use touchstone::geom::{Point3, Vector3};
    type Q = BigRational;
    let c = crate::ops::read_query::<touchstone::query::Contact<Q>>(&q.to_string(), opts).ok()?;
    // A point or a normal that is not finite (an engine's NaN) is wrong as it stands.
    let finite = |v: &[f64; 3]| v.iter().all(|x| x.is_finite());
    let mut broken = Vec::new();
    if !points.iter().all(|(p, _)| finite(p)) {
        broken.push("points".to_string());
    }
    if !points.iter().all(|(_, n)| finite(n)) {
        broken.push("normals".to_string());
    }
    if !broken.is_empty() {
        return Some(broken);
    }
    let exact = |v: &Value| touchstone::scalar::parse_rational(v.as_str()?).ok();
    let point = |v: &Value| -> Option<Point3<Q>> {
        let a = v.as_array()?;
        Some(Point3::new(exact(a.first()?)?, exact(a.get(1)?)?, exact(a.get(2)?)?))
    };
    let mut regions = Vec::new();
    for r in out["regions"].as_array()? {
        let points: Option<Vec<Point3<Q>>> = r["points"].as_array()?.iter().map(point).collect();
        let holes: Option<Vec<Vec<Point3<Q>>>> = r["holes"]
            .as_array()
            .map_or(Some(Vec::new()), |hs| hs.iter().map(|h| h.as_array()?.iter().map(point).collect()).collect());
        let dim = r["dim"].as_u64()? as u8;
        let (a, b) = (touchstone::brep::Feature::Vertex(0), touchstone::brep::Feature::Vertex(0));
        regions.push(Region { a, b, dim, points: points?, holes: holes? });
    }
    let t = Q::from_float(1e-9 * scale(q))?;
    let t2 = t.clone() * t.clone();
    let budget = opts.budget();
    with_budget(budget, || {
        let ga = touchstone::query::posed_solid::<Q, Q>(&c.a).ok()?;
        let gb = touchstone::query::posed_solid::<Q, Q>(&c.b).ok()?;
        let pts: Option<Vec<(Point3<Q>, Vector3<Q>)>> = points
            .iter()
            .map(|(p, n)| {
                let f = |x: f64| Q::from_float(x);
                Some((Point3::new(f(p[0])?, f(p[1])?, f(p[2])?), Vector3::new(f(n[0])?, f(n[1])?, f(n[2])?)))
            })
            .collect();
        let pts = pts?;
        let mut faults = Vec::new();
        // Which points lie on which regions.
        let mut on: Vec<Vec<usize>> = vec![Vec::new(); regions.len()];
        let mut stray = false;
        for (i, (p, _)) in pts.iter().enumerate() {
            let mut any = false;
            for (k, r) in regions.iter().enumerate() {
                if r.squared_distance(p).ok()? <= t2 {
                    on[k].push(i);
                    any = true;
                }
            }
            stray |= !any;
        }
        if stray {
            faults.push("points".to_string());
        }
        // Each point's plane separates the shapes within t: n·(v − p) ≤ t|n| over b's vertices,
        // ≥ −t|n| over a's.
        let beyond = |x: &Q, n2: &Q| x > &Q::default() && x.clone() * x.clone() > t2.clone() * n2.clone();
        let mut bad_normal = false;
        for (p, n) in &pts {
            let n2 = n.dot(n);
            if n2 == Q::default() {
                bad_normal = true;
                continue;
            }
            let b_above = gb.built.solid.vertices().iter().any(|v| beyond(&n.dot(&(v - p)), &n2));
            let a_below = ga.built.solid.vertices().iter().any(|v| beyond(&-n.dot(&(v - p)), &n2));
            bad_normal |= b_above || a_below;
        }
        if bad_normal {
            faults.push("normals".to_string());
        }
        // Coverage.
        let spans = |r: &Region<Q>, idx: &[usize]| -> bool {
            let ps: Vec<&Point3<Q>> = idx.iter().map(|&i| &pts[i].0).collect();
            let far = |a: &Point3<Q>, b: &Point3<Q>| (a - b).dot(&(a - b)) > t2.clone();
            match r.dim {
                0 => !ps.is_empty(),
                1 => ps.iter().any(|a| ps.iter().any(|b| far(a, b))),
                _ => ps.iter().any(|a| {
                    ps.iter().any(|b| {
                        far(a, b)
                            && ps.iter().any(|c| {
                                let (u, w) = (*b - *a, *c - *a);
                                let x = u.cross(&w);
                                // Off the line ab by more than t: |u × w|² > t²|u|².
                                x.dot(&x) > t2.clone() * u.dot(&u)
                            })
                    })
                }),
            }
        };
        if regions.iter().zip(&on).any(|(r, idx)| !spans(r, idx)) {
            faults.push("coverage".to_string());
        }
        Some(faults)
    })
}

/// The exact penetration depth of a distance query's shapes, to binary64 (`None` past the
/// run's time, step or bit limits).
/// The exact penetration depth of a `distance` line's shapes, and for `normal` (an engine's
/// contact normal, a's outward) how far b must move along it to leave a
/// ([`touchstone::query::separation_along`]), both over the unit direction and rounded; under
/// the run's limits (`None` over them: unjudged).
fn penetration(q: &Value, normal: Option<&[f64; 3]>, opts: &Options) -> Option<(f64, Option<f64>)> {
    use num_rational::BigRational;
    use num_traits::ToPrimitive;
    use touchstone::budget::with_budget;
    let d = crate::ops::read_query::<touchstone::query::Distance<BigRational>>(&q.to_string(), opts).ok()?;
    let budget = opts.budget();
    let exact_normal = |n: &[f64; 3]| -> Option<(touchstone::geom::Vector3<BigRational>, f64)> {
        let length = n.iter().map(|x| x * x).sum::<f64>().sqrt();
        let exact = touchstone::geom::Vector3::new(
            BigRational::from_float(n[0])?,
            BigRational::from_float(n[1])?,
            BigRational::from_float(n[2])?,
        );
        (length > 0.0 && length.is_finite()).then_some((exact, length))
    };
    if d.a.shape.is_cylinder() || d.b.shape.is_cylinder() {
        // A cylinder and a ball: the depth, and a claimed normal's separation by the support
        // functions (touchstone::query::cylinder_separation_along).
        let s = with_budget(budget, || margin::signed_distance(&d.a, &d.b))?;
        let along = normal.and_then(|n| {
            let (exact, _) = exact_normal(n)?;
            with_budget(budget, || touchstone::query::cylinder_separation_along(&d.a, &d.b, &exact))
        });
        return Some((-s.min(0.0), along));
    }
    if d.a.shape.is_round() || d.b.shape.is_round() {
        // Round shapes: the depth, and a claimed normal's separation c/|n| + R (the cores'
        // support functions plus the radii).
        let s = with_budget(budget, || margin::signed_distance(&d.a, &d.b))?;
        let along = normal.and_then(|n| {
            let (exact, length) = exact_normal(n)?;
            let (c, r) = with_budget(budget, || touchstone::query::round_separation_along(&d.a, &d.b, &exact).ok())?;
            Some(c.to_f64()? / length + r.to_f64()?)
        });
        return Some((-s.min(0.0), along));
    }
    with_budget(budget, || {
        let p = touchstone::query::penetration_depth(&d.a, &d.b).ok()?;
        let along = normal.and_then(|n| {
            let (exact, length) = exact_normal(n)?;
            let sep = touchstone::query::separation_along(&d.a, &d.b, &exact).ok()?;
            sep.to_f64().map(|s| s / length)
        });
        Some((margin::sqrt_f64(&p.depth_squared)?, along))
    })
}

fn fmt(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if (1e-4..1e6).contains(&x.abs()) {
        format!("{}", (x * 1e12).round() / 1e12)
    } else {
        format!("{x:.6e}")
    }
}

/// How far the unit `normal` is from the exact direction between the exact closest points of
/// a `distance` answer (computed exactly, then rounded): `None` without points.
fn normal_error(normal: &[f64; 3], out: &Value) -> Option<f64> {
    use touchstone::scalar::parse_rational;
    let point = |i: usize| -> Option<Vec<num_rational::BigRational>> {
        out["points"][i].as_array()?.iter().map(|c| parse_rational(c.as_str()?).ok()).collect()
    };
    let (p, q) = (point(0)?, point(1)?);
    let d: Vec<f64> =
        p.iter().zip(&q).map(|(a, b)| num_traits::ToPrimitive::to_f64(&(b - a)).unwrap_or(f64::NAN)).collect();
    let unit = |v: &[f64]| {
        let m = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let w: Vec<f64> = v.iter().map(|x| x / m).collect();
        let l = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        w.into_iter().map(move |x| x / l)
    };
    let off = unit(&d).zip(unit(normal)).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
    off.is_finite().then_some(off)
}

/// A decimal string cut to 17 significant characters.
/// An exact decimal output shortened for the report, its exponent always kept: small and
/// large values in scientific form with ten significant digits, cut (not rounded) and marked
/// `…` when more follow: `4.4408920985006261616e-16` reads `4.440892098…e-16`, never
/// `4.4408920985006261…`.
fn short(s: &str) -> String {
    let (sign, body) = s.strip_prefix('-').map_or(("", s), |b| ("-", b));
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()),
        None => (body, Some(0)),
    };
    let int_len = mantissa.find('.').unwrap_or(mantissa.len()) as i64;
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let zeros = digits.chars().take_while(|&c| c == '0').count();
    let significant = digits[zeros..].trim_end_matches('0');
    let (Some(e), false) = (exp, significant.is_empty()) else { return cut(s) };
    let e10 = int_len - 1 - zeros as i64 + e;
    if (-3..7).contains(&e10) && !body.contains(['e', 'E']) {
        return cut(s);
    }
    let (first, rest) = significant.split_at(1);
    let shown: String = rest.chars().take(9).collect();
    let more = if rest.len() > 9 { "…" } else { "" };
    let dot = if shown.is_empty() { "" } else { "." };
    format!("{sign}{first}{dot}{shown}{more}e{e10}")
}

/// A decimal cut to twelve characters, marked `…`.
fn cut(s: &str) -> String {
    match s.char_indices().nth(12) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Counts and error distribution of one function.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Answers judged.
    pub judged: u64,
    /// Answers wrong beyond the tolerance (the headline).
    pub wrong: u64,
    /// Discrete answers wrong only within the tolerance of their degeneracy ([`Outcome::Flip`]).
    pub flips: u64,
    /// The flips, largest margin first once [`Report::finish`] ran.
    pub flipped: Vec<Judged>,
    /// False positives beyond the tolerance (said intersecting or colliding; they are not).
    pub false_positives: u64,
    /// False negatives.
    pub false_negatives: u64,
    /// Wrong answers by failing field.
    pub fields: BTreeMap<String, u64>,
    /// Absolute errors of the main number.
    pub abs: Vec<f64>,
    /// Relative errors.
    pub rel: Vec<f64>,
    /// The wrong answers, worst first once [`Report::finish`] ran.
    pub worst: Vec<Judged>,
}

/// A check's report: per function.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The engine.
    pub engine: String,
    /// Its version and settings, as it states them.
    pub header: Option<String>,
    /// Times it was started again (after crashes, hangs, protocol breaks).
    pub restarts: u64,
    /// Lines read.
    pub lines: u64,
    /// Lines the engine had nothing for.
    pub skipped: u64,
    /// Lines whose exact answer rounding the numbers to binary64 alone changed.
    pub rounding: Vec<Rounding>,
    /// Panics, hangs and unjudged answers.
    pub failures: Vec<Judged>,
    /// Per function.
    pub functions: BTreeMap<String, Tally>,
}

impl Report {
    /// Count one judged answer.
    pub fn add(&mut self, j: Judged) {
        match &j.outcome {
            Outcome::Panic(_)
            | Outcome::Hang
            | Outcome::Crash(_)
            | Outcome::Refused(_)
            | Outcome::Malformed(_)
            | Outcome::Unjudged(_) => {
                self.failures.push(j);
                return;
            }
            _ => {}
        }
        let t = self.functions.entry(j.function.clone()).or_default();
        t.judged += 1;
        if let Some(e) = j.abs_error {
            t.abs.push(e);
        }
        if let Some(e) = j.rel_error {
            t.rel.push(e);
        }
        if let Outcome::Flip(_) = &j.outcome {
            t.flips += 1;
            t.flipped.push(j);
            return;
        }
        match j.false_positive {
            Some(true) => t.false_positives += 1,
            Some(false) => t.false_negatives += 1,
            None => {}
        }
        if let Outcome::Wrong(fields) = &j.outcome {
            t.wrong += 1;
            for f in fields {
                *t.fields.entry(f.clone()).or_default() += 1;
            }
            t.worst.push(j);
        }
    }

    /// Sort the errors and the worst cases (largest error first; wrong booleans first).
    pub fn finish(&mut self) {
        for t in self.functions.values_mut() {
            t.abs.sort_by(f64::total_cmp);
            t.rel.sort_by(f64::total_cmp);
            t.worst.sort_by(|x, y| badness(y).0.cmp(&badness(x).0).then(badness(y).1.total_cmp(&badness(x).1)));
            t.flipped.sort_by(|x, y| y.margin.unwrap_or(0.0).total_cmp(&x.margin.unwrap_or(0.0)));
        }
    }

    /// Findings: wrong answers, panics, crashes, hangs and protocol breaks (not refusals: an
    /// engine may decline a query it cannot hold).
    pub fn findings(&self) -> u64 {
        self.functions.values().map(|t| t.wrong).sum::<u64>()
            + self.failures.iter().filter(|j| is_finding(&j.outcome)).count() as u64
    }

    /// How many failures of each kind: panics, crashes, hangs, refusals, protocol breaks, unjudged.
    pub fn failure_counts(&self) -> BTreeMap<&'static str, u64> {
        let mut m = BTreeMap::new();
        for j in &self.failures {
            let k = match j.outcome {
                Outcome::Panic(_) => "panics",
                Outcome::Crash(_) => "crashes",
                Outcome::Hang => "hangs",
                Outcome::Refused(_) => "refused",
                Outcome::Malformed(_) => "malformed",
                _ => "unjudged",
            };
            *m.entry(k).or_default() += 1;
        }
        m
    }
}

/// Whether an outcome is a finding: a wrong answer or a failure of the engine itself.
pub fn is_finding(o: &Outcome) -> bool {
    matches!(o, Outcome::Wrong(_) | Outcome::Panic(_) | Outcome::Hang | Outcome::Crash(_) | Outcome::Malformed(_))
}

/// How bad a wrong answer is, for ranking: a wrong boolean first, then the error (a wrong
/// discrete answer's margin) relative to the query's scale (an unmeasured one counts as
/// infinite).
pub fn badness(j: &Judged) -> (bool, f64) {
    (j.false_positive.is_some(), j.abs_error.or(j.margin).map_or(f64::INFINITY, |e| e / j.scale))
}

/// The `p`-th quantile of sorted values.
pub fn quantile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted.get(i).copied()
}

/// Check `engine` on every line of `input`; `worst` replay lines per function go in the
/// report's text, every wrong answer's replay line to `findings` when given.
pub fn check<R: BufRead>(
    engine: &'static dyn Engine,
    input: R,
    opts: &Options,
    limit: Option<Duration>,
    mut findings: Option<&mut dyn Write>,
    mut progress: impl FnMut(u64),
) -> io::Result<Report> {
    let mut report = Report { engine: engine.name().into(), ..Default::default() };
    let (mut input, mut buf, mut i) = (input, Vec::new(), 0);
    // Lines are read within --max-line-bytes (a longer one is skipped, not held in memory).
    while let Some(cut) = crate::read_line_bounded(&mut input, &mut buf, opts.max_line_bytes.saturating_add(1))? {
        i += 1;
        let Ok(line) = std::str::from_utf8(&buf) else { continue };
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        report.lines += 1;
        if cut || line.len() > opts.max_line_bytes {
            report.skipped += 1;
            continue;
        }
        let LineJudgement { judged, rounding } = judge_line_full(engine, i, line, opts, limit);
        report.rounding.extend(rounding);
        if judged.is_empty() {
            report.skipped += 1;
        }
        for j in judged {
            if let Some(w) = findings.as_deref_mut().filter(|_| is_finding(&j.outcome)) {
                writeln!(w, "{}", j.replay)?;
            }
            report.add(j);
        }
        progress(report.lines);
    }
    report.header = engine.header();
    report.restarts = engine.restarts();
    report.finish();
    Ok(report)
}

/// The report as text: per function the counts, the error distribution and the worst cases.
pub fn render(report: &Report, worst: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "check-engine {}: {} lines, {} skipped (nothing to ask the engine)",
        report.engine, report.lines, report.skipped
    );
    if let Some(h) = &report.header {
        let _ = writeln!(s, "engine: {h}");
    }
    let _ = writeln!(
        s,
        "judged on the binary64 numbers the engine was given (each exact rational rounded to the\n\
         nearest): the truth is the exact answer for those doubles. A quaternion is the rotation\n\
         by q/|q| exactly; an engine's own normalisation moves a point by about 1e-16 of the scale,\n\
         within the claims' tolerance (1e-9 of the scale). A discrete answer wrong only within\n\
         that tolerance of the configuration where it flips is a flip, counted apart; \"wrong\"\n\
         counts answers wrong beyond it."
    );
    if !report.rounding.is_empty() {
        let _ = writeln!(
            s,
            "rounding to binary64 alone changed the exact answer of {} lines (judged on the doubles):",
            report.rounding.len()
        );
        for r in report.rounding.iter().take(worst.max(1)) {
            let _ = writeln!(s, "  line {}: as written {}; as given {}", r.line, r.written, r.given);
        }
    }
    let counts = report.failure_counts();
    if !counts.is_empty() || report.restarts > 0 {
        let c: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
        let restarts = match report.restarts {
            0 => String::new(),
            1 => " (started again once)".into(),
            n => format!(" (started again {n} times)"),
        };
        let _ = writeln!(s, "failures: {}{restarts}", c.join(", "));
    }
    let e = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.3e}"));
    for (name, t) in &report.functions {
        let _ = writeln!(
            s,
            "\n{name}: {} judged, {} wrong ({:.1}%){}{}",
            t.judged,
            t.wrong,
            100.0 * t.wrong as f64 / t.judged.max(1) as f64,
            if t.flips > 0 { format!(", {} flips within the tolerance", t.flips) } else { String::new() },
            if t.false_positives + t.false_negatives > 0 {
                format!(", {} false positives, {} false negatives", t.false_positives, t.false_negatives)
            } else {
                String::new()
            }
        );
        if !t.fields.is_empty() {
            let f: Vec<String> = t.fields.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = writeln!(s, "  wrong fields: {}", f.join(", "));
        }
        if !t.abs.is_empty() {
            let _ = writeln!(
                s,
                "  abs error: max {}, median {}, p99 {}; rel error: max {}, median {}, p99 {}",
                e(t.abs.last().copied()),
                e(quantile(&t.abs, 0.5)),
                e(quantile(&t.abs, 0.99)),
                e(t.rel.last().copied()),
                e(quantile(&t.rel, 0.5)),
                e(quantile(&t.rel, 0.99)),
            );
        }
        let margin = |j: &Judged| j.margin.map_or(String::new(), |m| format!(" (margin {m:.3e})"));
        for j in t.worst.iter().take(worst) {
            let _ = writeln!(s, "  line {}: engine said {}; exact: {}{}", j.line, j.said, j.truth, margin(j));
            let _ = writeln!(s, "    {}", j.replay);
        }
        for j in t.flipped.iter().take(worst.min(2)) {
            let _ = writeln!(s, "  flip, line {}: engine said {}; exact: {}{}", j.line, j.said, j.truth, margin(j));
            let _ = writeln!(s, "    {}", j.replay);
        }
    }
    // Failures by kind and reason: each reason once, with its count and its first line (the
    // first `worst` reasons of each kind).
    let mut reasons: Vec<(&'static str, String, u64, &Judged)> = Vec::new();
    for j in &report.failures {
        let (kind, what) = match &j.outcome {
            Outcome::Panic(m) => ("panic", format!("engine panicked: {m}")),
            Outcome::Hang => ("hang", "engine did not return within the time limit".into()),
            Outcome::Crash(m) => ("crash", format!("engine crashed: {m}")),
            Outcome::Refused(m) => ("refused", format!("engine refused: {m}")),
            Outcome::Malformed(m) => ("malformed", format!("engine broke the protocol: {m}")),
            Outcome::Unjudged(m) => ("unjudged", format!("not judged: {m}")),
            _ => continue,
        };
        match reasons.iter_mut().find(|(k, w, _, _)| *k == kind && *w == what) {
            Some(r) => r.2 += 1,
            None => reasons.push((kind, what, 1, j)),
        }
    }
    let mut shown: BTreeMap<&str, usize> = BTreeMap::new();
    for (kind, what, n, j) in &reasons {
        let k = shown.entry(kind).or_default();
        *k += 1;
        if *k > worst.max(1) {
            continue;
        }
        let times = if *n > 1 { format!(" ({n} lines, the first shown)") } else { String::new() };
        let _ = writeln!(s, "\nline {} ({kind}): {what}{times}\n    {}", j.line, j.replay);
    }
    for (kind, k) in &shown {
        if *k > worst.max(1) {
            let _ = writeln!(s, "\n({} more {kind} reasons not shown)", k - worst.max(1));
        }
    }
    let _ = writeln!(s, "\n{} findings", report.findings());
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn short_numbers_keep_their_exponent() {
        assert_eq!(super::short("4.4408920985006261616e-16"), "4.440892098…e-16");
        assert_eq!(super::short("1.2499999999999999999e-201"), "1.249999999…e-201");
        assert_eq!(super::short("2.5"), "2.5");
        assert_eq!(super::short("-0.00000095367431640625"), "-9.536743164…e-7");
        assert_eq!(super::short("0.0000009765625"), "9.765625e-7");
        assert_eq!(super::short("123456789"), "1.23456789e8");
        assert_eq!(super::short("1.4142135623730950488"), "1.4142135623…");
        assert_eq!(super::short("5e-1"), "5e-1");
        assert_eq!(super::short("0"), "0");
    }
}
