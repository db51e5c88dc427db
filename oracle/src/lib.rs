//! The touchstone oracle: exact answers to geometry queries written as JSON Lines.
//!
//! One JSON object per input line; one JSON object per input line out, in the same order,
//! with the query's `id` echoed. A line that cannot be answered gives an error line
//! (`{"id": ..., "error": {"kind", "message", "at"}}`) and the next line is answered as usual.
//! The format is specified in `oracle/FORMAT.md`.
//!
//! ```
//! use touchstone_oracle::{answer_line, Options};
//! let out = answer_line(r#"{"id": 7, "op": "orient3d", "points": [[0,0,0],[1,0,0],[0,1,0],["1/3","1/3",0]]}"#, &Options::default());
//! assert_eq!(out["id"], 7);
//! assert_eq!(out["orientation"], "coplanar");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod check;
pub mod encode;
pub mod error;
pub mod explain;
pub mod input;
pub mod json;
pub mod ops;
pub mod pose;
pub mod render;
pub mod shape;

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::Value;

use error::{error_json, Kind, QueryError};
pub use json::Out;

/// The format's contract version.
pub const FORMAT_VERSION: u32 = 1;

/// Limits and settings of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The longest line answered (bytes); a longer one gives a `limit` error line.
    pub max_line_bytes: usize,
    /// The folder `file` shapes are relative to (the query file's folder).
    pub base_dir: Option<std::path::PathBuf>,
    /// The longest a query may take; `None`: no limit. A query over it gets a `limit` error
    /// line and the run goes on: the limit is checked inside the algorithms' loops
    /// ([`touchstone::budget`]), so the computation stops there and nothing keeps running.
    pub time_limit: Option<std::time::Duration>,
    /// The most loop steps a query may take ([`touchstone::budget::tick`]); `None`: no limit.
    pub step_limit: Option<u64>,
    /// Flush each answer as soon as it is written: for a driver that sends a line and waits
    /// for its answer (standard input from a pipe or a terminal). Files are buffered.
    pub flush_each: bool,
    /// The folder `file` shapes must lie in (`None`: `base_dir`, or the current directory).
    pub file_root: Option<std::path::PathBuf>,
    /// The longest file a `file` shape reads, in bytes.
    pub max_file_bytes: u64,
    /// The most vertices (or points) of one inline shape.
    pub max_vertices: usize,
    /// The most bits (numerators and denominators) of all the numbers of one query.
    pub max_bits: u64,
    /// The most memory one query may hold at once, in bytes; `None`: no limit. Counted by the
    /// `touchstone` binary's metering allocator, and before the large structures grow
    /// ([`touchstone::budget::reserve`]) by any caller; a query over it gets a `limit` error
    /// line naming memory and the run goes on.
    pub max_memory: Option<u64>,
    /// The backend of a line without its own `backend` field (`--backend`).
    pub default_backend: ops::Backend,
}

impl Default for Options {
    fn default() -> Self {
        let ctx = ops::Context::default();
        Options {
            max_line_bytes: 8 << 20,
            base_dir: None,
            time_limit: None,
            step_limit: None,
            flush_each: false,
            file_root: None,
            max_file_bytes: ctx.max_file_bytes,
            max_vertices: ctx.max_vertices,
            max_bits: 1 << 24,
            max_memory: Some(DEFAULT_MAX_MEMORY),
            default_backend: ops::Backend::Exact,
        }
    }
}

/// The default memory limit of one query (`--max-memory`): 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

impl Options {
    /// The budget each query runs under: the time, step, bit and memory limits.
    pub fn budget(&self) -> touchstone::budget::Budget {
        touchstone::budget::Budget {
            time: self.time_limit,
            steps: self.step_limit,
            bits: Some(self.max_bits),
            memory: self.max_memory,
        }
    }

    /// The parsing context of a query under these options.
    pub fn context(&self) -> ops::Context<'_> {
        ops::Context {
            base_dir: self.base_dir.as_deref(),
            file_root: self.file_root.as_deref(),
            max_file_bytes: self.max_file_bytes,
            max_vertices: self.max_vertices,
            default_backend: self.default_backend,
        }
    }
}

/// Answer one line under the run's time and step limits (see [`Options::time_limit`]).
pub fn answer_line_limited(line: &str, opts: &Options) -> Value {
    answer_fields_limited(line, opts).into_value()
}

/// [`answer_line_limited`]'s fields in their order (`id` first), to write without building a
/// JSON object: what [`run`] writes.
pub fn answer_fields_limited(line: &str, opts: &Options) -> Out {
    use touchstone::budget::{with_budget, Limit};
    use touchstone::scalar::Uncertain;
    let budget = opts.budget();
    // Which of the query's own limits ran out, if any: a step exhaustion that is not the
    // query's is a backend's own cap.
    let (mut answer, spent) = with_budget(budget, || (answer_fields(line, opts), touchstone::budget::spent()));
    // Name the limit with its value.
    if let Some(Value::String(m)) = answer.get_mut("error").and_then(|e| e.get_mut("message")) {
        if *m == Uncertain::Exhausted(Limit::Time).to_string() {
            *m = format!("the time limit of {:?} per query was exceeded", opts.time_limit.unwrap_or_default());
        } else if *m == Uncertain::Exhausted(Limit::Steps).to_string() {
            *m = match (spent, opts.step_limit) {
                (Some(Limit::Steps), Some(n)) => format!("the step limit of {n} per query was exceeded"),
                // Not the query's limit (it reported "the step limit of 0" when there was none).
                _ => format!(
                    "the f64 path's own cap of {} advancement steps was reached (a graze it creeps toward): an exact backend decides it",
                    touchstone::round::torus::MAX_FLOAT_STEPS
                ),
            };
        } else if *m == Uncertain::Exhausted(Limit::Bits).to_string() {
            *m = format!("the posed shapes' exact coordinates exceed the limit of {} bits (--max-bits)", opts.max_bits);
        } else if *m == Uncertain::Exhausted(Limit::Memory).to_string() {
            *m = format!(
                "the memory limit of {} per query was exceeded (--max-memory)",
                bytes_text(opts.max_memory.unwrap_or_default())
            );
        }
    }
    answer
}

/// A byte count as the `--max-memory` flag takes it: `1GiB`, `64MiB`, `512KiB` or bytes.
pub fn bytes_text(n: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if n >= 1 << shift && n % (1 << shift) == 0 {
            return format!("{}{unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// Parse a byte count: a number with an optional unit `B`, `KiB`, `MiB`, `GiB` (or `K`, `M`,
/// `G`, the same powers of two); `0` means no limit.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits.parse().map_err(|_| format!("{text:?} is not a byte count (e.g. 1GiB, 512MiB, 4096)"))?;
    let shift = match unit.trim() {
        "" | "B" => 0,
        "K" | "KiB" | "k" => 10,
        "M" | "MiB" => 20,
        "G" | "GiB" => 30,
        u => return Err(format!("unknown unit {u:?} in {text:?} (B, KiB, MiB, GiB)")),
    };
    n.checked_mul(1 << shift).ok_or_else(|| format!("{text:?} is too large"))
}

fn error_line(id: Value, e: &QueryError) -> Out {
    let mut out = Out::new();
    out.insert("id".into(), id);
    out.insert("error".into(), error_json(e));
    out
}

/// Answer one line (without its newline). Never panics: a bug gives an `internal` error line.
pub fn answer_line(line: &str, opts: &Options) -> Value {
    answer_fields(line, opts).into_value()
}

/// [`answer_line`]'s fields in their order (`id` first).
pub fn answer_fields(line: &str, opts: &Options) -> Out {
    if line.len() > opts.max_line_bytes {
        return error_line(
            Value::Null,
            &QueryError::new(Kind::Limit, "", format!("the line is longer than {} bytes", opts.max_line_bytes)),
        );
    }
    if line.trim().is_empty() {
        return error_line(Value::Null, &QueryError::new(Kind::Json, "", "empty line"));
    }
    let query = match json::parse_line(line) {
        Ok(v) => v,
        Err(e) => {
            // A repeated key, a number out of range or a syntax error after the id still leave a
            // readable id to echo.
            return error_line(json::id_of(line), &e);
        }
    };
    if !query.is_object() {
        return error_line(Value::Null, &QueryError::new(Kind::Json, "", "a query must be a JSON object"));
    }
    let id = query.get("id").map_or(Value::Null, json::Json::to_value);
    let ctx = opts.context();
    match catch_unwind(AssertUnwindSafe(|| input::with_bit_limit(opts.max_bits, || ops::answer(&query, &ctx)))) {
        Ok(Ok(mut fields)) => {
            fields.put_first("id".into(), id);
            fields
        }
        Ok(Err(e)) => error_line(id, &e),
        Err(_) => {
            error_line(id, &QueryError::new(Kind::Internal, "", "touchstone panicked on this query; please report it"))
        }
    }
}

/// Counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines answered.
    pub lines: u64,
    /// Of which error lines.
    pub errors: u64,
    /// The error lines by kind (`json`, `limit`, ...), in the kinds' alphabetical order.
    pub by_kind: std::collections::BTreeMap<&'static str, u64>,
}

impl Summary {
    /// Count one answer line: an error of `kind`, or an answer (`None`).
    pub fn count(&mut self, kind: Option<&'static str>) {
        self.lines += 1;
        if let Some(k) = kind {
            self.errors += 1;
            *self.by_kind.entry(k).or_default() += 1;
        }
    }
}

impl std::fmt::Display for Summary {
    /// `12 lines answered, 3 of them errors (json 1, limit 2)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} lines answered, {} of them errors", self.lines, self.errors)?;
        if !self.by_kind.is_empty() {
            let kinds: Vec<String> = self.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
            write!(f, " ({})", kinds.join(", "))?;
        }
        Ok(())
    }
}

/// The error kind of an answer line, if it is an error line.
pub(crate) fn error_kind(answer: &Out) -> Option<&'static str> {
    let kind = answer.get("error")?.get("kind")?.as_str()?;
    Some(Kind::ALL.iter().map(|k| k.as_str()).find(|k| *k == kind).unwrap_or("internal"))
}

/// Read one line of at most `max` bytes into `buf` (the rest of a longer line is skipped).
/// Returns `None` at the end of input, else whether the line was cut.
pub fn read_line_bounded<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut cut) = (false, false);
    loop {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (take, newline) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (avail.len(), false),
        };
        if buf.len() + take > max {
            cut = true;
        } else {
            buf.extend_from_slice(&avail[..take]);
        }
        r.consume(take + usize::from(newline));
        if newline {
            return Ok(Some(cut));
        }
    }
}

/// Answer the line read into `buf` (`cut`: it was longer than the read limit) as [`run`] does.
fn answer_read_line(buf: &mut Vec<u8>, cut: bool, opts: &Options) -> Out {
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if cut || buf.len() > opts.max_line_bytes {
        return error_line(
            Value::Null,
            &QueryError::new(Kind::Limit, "", format!("the line is longer than {} bytes", opts.max_line_bytes)),
        );
    }
    match std::str::from_utf8(buf) {
        Ok(line) => answer_fields_limited(line, opts),
        Err(e) => error_line(Value::Null, &QueryError::new(Kind::Json, "", format!("the line is not UTF-8: {e}"))),
    }
}

/// Answer every line of `input` to `output`, in order, one at a time; `progress` is called
/// after each line. [`batch::run_parallel`] answers on several threads with the same output.
pub fn run<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    opts: &Options,
    mut progress: impl FnMut(&Summary),
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let (mut buf, mut line_out) = (Vec::new(), Vec::new());
    // One byte more than the limit is read so that a CRLF line is not refused a byte earlier
    // than the same LF line.
    let max = opts.max_line_bytes;
    while let Some(cut) = read_line_bounded(&mut input, &mut buf, max.saturating_add(1))? {
        let answer = answer_read_line(&mut buf, cut, opts);
        summary.count(error_kind(&answer));
        // The line is made in memory and written at once (serde_json writes token by token).
        line_out.clear();
        serde_json::to_writer(&mut line_out, &answer)?;
        line_out.push(b'\n');
        output.write_all(&line_out)?;
        if opts.flush_each {
            output.flush()?;
        }
        progress(&summary);
    }
    output.flush()?;
    Ok(summary)
}
