//! An engine behind a process: the engine protocol (`oracle/FORMAT.md`, "The engine
//! protocol"). Any program can be judged: it reads query lines on its standard input and
//! writes, per line and in order, one line back:
//!
//! * `{"id": …, "answers": {"FUNCTION": {claim fields…}, …}}`: each of its functions' answer,
//!   stated with the op's claim field names (plus the extras `signed_distance`, `normal`,
//!   `manifold` and `said`);
//! * `{"id": …, "error": "why"}`: the engine refuses the query (a shape it cannot hold).
//!
//! Before its first answer it may write a hello, `{"engine": NAME, "version": …, "settings":
//! {…}}`, shown in the report's header. An adapter that exits or closes its output while a line
//! is asked is a `crash` finding with its last words (the tail of its standard error), and is
//! started again for the next line; one that does not answer within the time limit is killed, a
//! `hang` finding, and started again; a line that breaks the protocol (not JSON, the wrong id,
//! neither answers nor error, an answer that is not an object) is a `malformed` finding, and
//! the adapter is started again so that the next answer cannot be the late reply to an earlier
//! line.

use std::borrow::Cow;
use std::io::{self, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use touchstone::query::{ClassifyPoint, Contact, Distance, Orient2d, Orient3d, Toi};

use super::{Answered, Answers, Asked, Engine, Extra, Failure};

/// The longest answer line read from an adapter (a longer one is a malformed answer).
pub const MAX_ANSWER_BYTES: usize = 16 << 20;

/// How much of an adapter's standard error is kept as its last words.
const LAST_WORDS_BYTES: usize = 4096;

/// The most distinct function names an adapter may use (their names are kept for the run).
const MAX_FUNCTIONS: usize = 64;

/// An adapter program speaking the engine protocol.
pub struct ProcessEngine {
    name: &'static str,
    program: String,
    args: Vec<String>,
    limit: Option<Duration>,
    state: Mutex<State>,
    /// A folder the adapter runs from, removed when it ends.
    folder: Option<std::path::PathBuf>,
}

#[derive(Default)]
struct State {
    running: Option<Running>,
    hello: Option<Value>,
    functions: Vec<&'static str>,
    next_id: u64,
    starts: u64,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<io::Result<Option<Vec<u8>>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
}

impl ProcessEngine {
    /// The adapter run as `command` (a program and its arguments, split as a shell splits
    /// words; no shell runs it), each line answered within `limit`. It is started here, to
    /// report a program that cannot start at once.
    ///
    /// Errors: an empty command, or a program that cannot be started.
    pub fn start(command: &str, limit: Option<Duration>) -> Result<ProcessEngine, String> {
        let words = shell_words::split(command).map_err(|e| format!("the command {command:?} does not split: {e}"))?;
        let Some((program, args)) = words.split_first() else { return Err("the command is empty".into()) };
        let engine = ProcessEngine {
            name: Box::leak(command.to_string().into_boxed_str()),
            program: program.clone(),
            args: args.to_vec(),
            limit,
            state: Mutex::new(State::default()),
            folder: None,
        };
        let mut state = engine.lock();
        let running = engine.spawn(&mut state)?;
        state.running = Some(running);
        drop(state);
        Ok(engine)
    }

    /// [`ProcessEngine::start`], then wait (at most `patience`) for the adapter's hello: a
    /// shipped adapter says who it is before anything else, and one that exits first (its
    /// engine's package missing) is reported with its last words instead of crashing on every
    /// line.
    ///
    /// Errors: as `start`, and an adapter that exits or stays silent before its hello.
    pub fn start_with_hello(
        command: &str,
        limit: Option<Duration>,
        patience: Duration,
    ) -> Result<ProcessEngine, String> {
        let engine = ProcessEngine::start(command, limit)?;
        let mut state = engine.lock();
        let Some(running) = state.running.as_mut() else { return Err("the adapter is not running".into()) };
        let got = running.lines.recv_timeout(patience);
        match got {
            Ok(Ok(Some(text))) => match serde_json::from_slice::<Value>(&text) {
                Ok(v) if v.get("engine").is_some() => state.hello = Some(v),
                _ => {
                    let shown = String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned();
                    engine.stop(&mut state, "stopped");
                    return Err(format!("the adapter's first line is no hello: {shown:?}"));
                }
            },
            Err(RecvTimeoutError::Timeout) => {
                engine.stop(&mut state, "killed");
                return Err(format!("the adapter said nothing for {} s", patience.as_secs()));
            }
            _ => return Err(engine.stop(&mut state, "exited")),
        }
        drop(state);
        Ok(engine)
    }

    /// The engine under another name in the report (a shipped adapter's).
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// The engine, removing `folder` (the adapter's files) when it ends.
    pub fn owning(mut self, folder: std::path::PathBuf) -> Self {
        self.folder = Some(folder);
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn spawn(&self, state: &mut State) -> Result<Running, String> {
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", self.program))?;
        state.starts += 1;
        let (Some(stdin), Some(stdout), Some(mut err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the adapter's pipes could not be opened".into());
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let got = crate::read_line_bounded(&mut out, &mut buf, MAX_ANSWER_BYTES).map(|r| {
                    r.map(|cut| if cut { b"\0the answer line is longer than 16 MiB".to_vec() } else { buf.clone() })
                });
                let end = !matches!(got, Ok(Some(_)));
                if tx.send(got).is_err() || end {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                t.extend_from_slice(&chunk[..n]);
                if t.len() > LAST_WORDS_BYTES {
                    let cut = t.len() - LAST_WORDS_BYTES;
                    t.drain(..cut);
                }
            }
            let _ = done_tx.send(());
        });
        Ok(Running { child, stdin, lines, stderr, stderr_done })
    }

    /// Ask the adapter about one query line: its answers, or the failure.
    fn ask_line(&self, line: &Value) -> Answers {
        let mut state = self.lock();
        if state.running.is_none() {
            match self.spawn(&mut state) {
                Ok(r) => state.running = Some(r),
                Err(e) => return Some(Err(Failure::Crash(e))),
            }
        }
        state.next_id += 1;
        let id = line.get("id").cloned().unwrap_or_else(|| json!(state.next_id));
        let mut sent = line.clone();
        if let Some(o) = sent.as_object_mut() {
            o.insert("id".into(), id.clone());
        }
        let deadline = self.limit.map(|l| Instant::now() + l);
        let Some(running) = state.running.as_mut() else { return Some(Err(Failure::Crash("not running".into()))) };
        if writeln!(running.stdin, "{sent}").and_then(|()| running.stdin.flush()).is_err() {
            return Some(Err(Failure::Crash(self.stop(&mut state, "closed its input"))));
        }
        loop {
            let Some(running) = state.running.as_mut() else { return Some(Err(Failure::Crash("not running".into()))) };
            let got = match deadline {
                Some(d) => running.lines.recv_timeout(d.saturating_duration_since(Instant::now())),
                None => running.lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let text = match got {
                Ok(Ok(Some(text))) => text,
                Ok(Ok(None)) | Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                    return Some(Err(Failure::Crash(self.stop(&mut state, "exited"))));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.stop(&mut state, "killed");
                    return Some(Err(Failure::Hang));
                }
            };
            if let Some(why) = text.strip_prefix(b"\0") {
                self.stop(&mut state, "restarted");
                return Some(Err(Failure::Malformed(String::from_utf8_lossy(why).into_owned())));
            }
            let reply = match serde_json::from_slice::<Value>(&text) {
                Ok(v) if v.is_object() => v,
                _ => {
                    let shown = String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned();
                    self.stop(&mut state, "restarted");
                    return Some(Err(Failure::Malformed(format!("not a JSON object: {shown:?}"))));
                }
            };
            let is_hello =
                reply.get("engine").is_some() && reply.get("answers").is_none() && reply.get("error").is_none();
            if is_hello {
                state.hello = Some(reply);
                continue;
            }
            if reply.get("id") != Some(&id) {
                self.stop(&mut state, "restarted");
                return Some(Err(Failure::Malformed(format!(
                    "the answer's id is {}, the query's {id}",
                    reply.get("id").map_or("absent".into(), Value::to_string)
                ))));
            }
            if let Some(e) = reply.get("error") {
                let why = e.as_str().map_or_else(|| e.to_string(), str::to_string);
                return Some(Err(Failure::Refused(why)));
            }
            let Some(answers) = reply.get("answers").and_then(Value::as_object) else {
                self.stop(&mut state, "restarted");
                return Some(Err(Failure::Malformed("neither \"answers\" (an object) nor \"error\"".into())));
            };
            let answered = answers_of(answers, &mut state.functions).and_then(|a| claimable(line, a));
            return Some(answered.map_err(Failure::Malformed));
        }
    }

    /// End the running adapter (`how`: why, for the words); its last words and exit status.
    fn stop(&self, state: &mut State, how: &str) -> String {
        let Some(r) = state.running.take() else { return String::new() };
        // An adapter that is exiting gets a moment; one stopped for a reason of ours, none.
        let patience = if how == "exited" { Duration::from_millis(500) } else { Duration::ZERO };
        let (status, r) = r.end(patience);
        let _ = r.stderr_done.recv_timeout(Duration::from_millis(500));
        let tail = r.stderr.lock().map(|t| String::from_utf8_lossy(&t).trim().to_string()).unwrap_or_default();
        let status = status.map_or("no exit status".into(), |s| s.to_string());
        match (how, tail.is_empty()) {
            ("exited", true) => format!("the adapter {how} ({status}) without a word"),
            ("exited", false) => format!("the adapter {how} ({status}); its last words: {tail}"),
            (_, _) => format!("the adapter was {how}"),
        }
    }
}

impl Running {
    /// Close the adapter's input (it reads to the end and exits), wait for it at most
    /// `patience`, then kill it: its exit status, and what is left to read its last words from.
    fn end(self, patience: Duration) -> (Option<std::process::ExitStatus>, Ended) {
        let Running { mut child, stdin, stderr, stderr_done, .. } = self;
        drop(stdin);
        let start = Instant::now();
        let status = loop {
            if let Ok(Some(s)) = child.try_wait() {
                break Some(s);
            }
            if start.elapsed() >= patience {
                let _ = child.kill();
                break child.wait().ok();
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        (status, Ended { stderr, stderr_done })
    }
}

/// An ended adapter's standard error, read to its end by its thread.
struct Ended {
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
}

/// An adapter's answers: each function's object as a claim (its fields the op's claim
/// fields) with its extras.
fn answers_of(answers: &Map<String, Value>, functions: &mut Vec<&'static str>) -> Result<Vec<Answered>, String> {
    let mut out = Vec::new();
    for (function, answer) in answers {
        let Some(fields) = answer.as_object() else {
            return Err(format!("function {function:?}'s answer is not an object"));
        };
        let name: &'static str = match functions.iter().find(|f| **f == function) {
            Some(f) => f,
            None if functions.len() < MAX_FUNCTIONS => {
                let f: &'static str = Box::leak(function.clone().into_boxed_str());
                functions.push(f);
                f
            }
            None => return Err(format!("more than {MAX_FUNCTIONS} function names")),
        };
        let mut claim = fields.clone();
        let said = claim.remove("said");
        let signed = claim.remove("signed_distance");
        let normal = claim.remove("normal");
        let manifold = claim.remove("manifold");
        let vec3 = |v: &Value, what: &str| -> Result<[f64; 3], String> {
            let a = v.as_array().filter(|a| a.len() == 3).ok_or(format!("{function}: {what} is not [x, y, z]"))?;
            let mut p = [0.0; 3];
            for (i, x) in a.iter().enumerate() {
                p[i] = reported(x).ok_or(format!("{function}: {what} has a coordinate that is not a number"))?;
            }
            Ok(p)
        };
        let extra = match (&signed, &normal, &manifold) {
            (Some(d), n, None) => {
                let d = reported(d).ok_or(format!("{function}: signed_distance is not a number"))?;
                match n {
                    Some(n) => Extra::Contact(d, vec3(n, "normal")?),
                    None => Extra::SignedDistance(d),
                }
            }
            (None, None, Some(m)) => {
                let points = m.as_array().ok_or(format!("{function}: manifold is not a list"))?;
                let mut pts = Vec::new();
                for p in points {
                    pts.push((vec3(&p["point"], "a manifold point")?, vec3(&p["normal"], "a manifold normal")?));
                }
                Extra::Manifold(pts)
            }
            (None, None, None) => match boolean_claim(&claim) {
                Some(b) => Extra::Boolean(b),
                None => Extra::None,
            },
            _ => return Err(format!("{function}: normal goes with signed_distance, manifold alone")),
        };
        let said = said
            .and_then(|s| s.as_str().map(str::to_string))
            .unwrap_or_else(|| Value::Object(fields.clone()).to_string());
        out.push(Answered { function: Cow::Borrowed(name), claim: Value::Object(claim), said, extra });
    }
    Ok(out)
}

/// A number an adapter reports beside its claim: a JSON number, a rational string, or one of
/// the protocol's non-finite strings `"NaN"`, `"Infinity"`, `"-Infinity"` (an engine's NaN is
/// an answer, judged wrong, not a broken line).
fn reported(v: &Value) -> Option<f64> {
    match v.as_str() {
        Some("NaN") => Some(f64::NAN),
        Some("Infinity") => Some(f64::INFINITY),
        Some("-Infinity") => Some(f64::NEG_INFINITY),
        _ => super::number(v),
    }
}

/// The answers when every claimed field is one the query's op can claim (an unknown one is a
/// protocol break, not an error of the claim line).
fn claimable(line: &Value, answers: Vec<Answered>) -> Result<Vec<Answered>, String> {
    let op = line.get("op").and_then(Value::as_str).unwrap_or_default();
    let fields = crate::ops::ops().into_iter().find(|o| o.name == op).map(|o| (o.claim_fields)()).unwrap_or_default();
    for a in &answers {
        if let Some(k) = a.claim.as_object().and_then(|c| c.keys().find(|k| !fields.contains(&k.as_str()))) {
            return Err(format!(
                "function {:?} claims {k:?}, which {op} does not have (its claimable fields: {})",
                a.function,
                fields.join(", ")
            ));
        }
    }
    Ok(answers)
}

/// A claim of one boolean that has false positives and negatives (`intersecting`, `collides`,
/// `contains`), counted as such.
fn boolean_claim(claim: &Map<String, Value>) -> Option<bool> {
    let mut it = claim.iter();
    match (it.next(), it.next()) {
        (Some((k, Value::Bool(b))), None) if ["intersecting", "collides", "contains"].contains(&k.as_str()) => Some(*b),
        _ => None,
    }
}

impl Engine for ProcessEngine {
    fn name(&self) -> &'static str {
        self.name
    }
    fn own_time_limit(&self) -> bool {
        true
    }
    fn header(&self) -> Option<String> {
        let state = self.lock();
        let hello = state.hello.as_ref()?;
        let word = |k: &str| hello.get(k).map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
        let mut s = word("engine").unwrap_or_default();
        if let Some(v) = word("version") {
            s.push_str(&format!(" {v}"));
        }
        if let Some(x) = hello.get("settings") {
            s.push_str(&format!(", settings {x}"));
        }
        Some(s)
    }
    fn restarts(&self) -> u64 {
        self.lock().starts.saturating_sub(1)
    }
    fn shutdown(&self) {
        ProcessEngine::shutdown(self);
    }
    fn distance(&self, asked: Asked<'_, Distance<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
    fn toi(&self, asked: Asked<'_, Toi<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
    fn classify_point(&self, asked: Asked<'_, ClassifyPoint<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
    fn contact(&self, asked: Asked<'_, Contact<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
    fn orient3d(&self, asked: Asked<'_, Orient3d<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
    fn orient2d(&self, asked: Asked<'_, Orient2d<f64>>) -> Answers {
        self.ask_line(asked.line)
    }
}

impl ProcessEngine {
    /// End the adapter: close its input (it reads to the end and exits) and wait for it, at
    /// most 2 s before killing it.
    pub fn shutdown(&self) {
        let mut state = self.lock();
        if let Some(r) = state.running.take() {
            r.end(Duration::from_secs(2));
        }
        if let Some(dir) = &self.folder {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}
