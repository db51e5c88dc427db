//! Batch mode: lines answered on several threads, written in input order.
//!
//! One thread reads lines, a rayon pool answers them, and the calling thread writes each
//! answer as soon as every earlier one is written, so the output is byte for byte that of the
//! one-at-a-time [`run`](crate::run) whatever the costs of the lines: a sharded run
//! concatenates to one run, and a driver that writes a line and waits for its answer gets it
//! (the reader never waits for more input before a line is answered). At most a window of
//! lines, and past 32 MiB of them and of their answers not yet written no more, are read ahead
//! of the last one written, so memory stays bounded however slow one line is. The window is 32
//! lines until answers have been made, then as many lines as 32 MiB holds answers of the mean
//! size so far, from 32 up to 256 per thread (at least 512): lines of short answers are read
//! far ahead, and the reader and the writer are woken rarely; lines of long answers keep
//! about 32 MiB of answers unwritten behind a slow line. Each line runs under the run's own limits
//! ([`Options::time_limit`](crate::Options)), on the thread that answers it.
//!
//! ```
//! use touchstone_oracle::{batch::run_parallel, Options};
//! let input = "{\"id\": 1, \"op\": \"orient3d\", \"points\": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}\n{\"id\": 2}\n";
//! let mut out = Vec::new();
//! let summary = run_parallel(input.as_bytes(), &mut out, &Options::default(), 2, |_, _| {}).unwrap();
//! assert_eq!(summary.to_string(), "2 lines answered, 1 of them errors (missing 1)");
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("{\"id\":1,"));
//! ```

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex};

use crate::{answer_read_line, error_kind, read_line_bounded, Options, Summary};

/// The stack of each answering thread: that of a main thread, so deep inputs that the
/// one-at-a-time run answers are answered here too.
const STACK_BYTES: usize = 8 << 20;

/// The line of a line whose answer could not be made (a bug: never seen).
const INTERNAL: &str = "{\"id\":null,\"error\":{\"kind\":\"internal\",\"message\":\"touchstone panicked writing this answer; please report it\",\"at\":\"\"}}\n";

/// A pool of `jobs` answering threads, or of as many as the address space allows, saying so on
/// standard error; why not, when not even one can be started.
///
/// Each thread reserves an 8 MiB stack, so `--jobs 128` needs a gigabyte of address space before
/// any line is read; under a limit (`ulimit -v`) the pool is sized to what fits beside the
/// process, with room left for the queries themselves. A failed start is not retried with fewer
/// threads: the threads it started are still exiting and holding their stacks.
fn pool_of_at_most(jobs: usize) -> Result<rayon::ThreadPool, String> {
    let jobs = jobs.max(1);
    let n = match address_space_room() {
        // Half the room for the queries' own memory.
        Some(room) => jobs.min(usize::try_from(room / 2 / THREAD_ROOM).unwrap_or(usize::MAX)),
        None => jobs,
    };
    if n == 0 {
        return Err("the address-space limit leaves no room for an answering thread".into());
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("touchstone-{i}"))
        .build();
    match built {
        Ok(pool) => {
            if n < jobs {
                eprintln!("touchstone: warning: the address-space limit leaves room for {n} of the {jobs} threads asked for; answering on {n}");
            }
            Ok(pool)
        }
        Err(e) => Err(format!("{n} answering threads could not be started ({e})")),
    }
}

/// The address space one answering thread takes, as measured on Linux (`VmSize` of runs with 1,
/// 2, 4 and 8 threads: 74 MiB more per thread): its 8 MiB stack and the 64 MiB heap the C
/// library reserves for a thread's own allocations, with a little slack.
const THREAD_ROOM: u64 = STACK_BYTES as u64 + (72 << 20);

/// The address space left under the process's limit (`ulimit -v`), where the platform tells
/// (Linux's `/proc/self/limits` and `/proc/self/status`); `None` without a limit.
fn address_space_room() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let soft = limits.lines().find(|l| l.starts_with("Max address space"))?.split_whitespace().nth(3)?;
    let limit: u64 = soft.parse().ok()?; // "unlimited" does not parse: no limit
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status.lines().find(|l| l.starts_with("VmSize:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(limit.saturating_sub(kb * 1024))
}

/// A line's answer (with its newline), its error kind, and the input bytes it took.
struct Done {
    bytes: Vec<u8>,
    kind: Option<&'static str>,
    consumed: u64,
}

/// What the reader, the answering threads and the writer share, under one lock. Each side
/// sleeps on its own condition and is woken only when it can go on: the writer when it can
/// write a run of answers or every line in flight is answered (or the input ends), the reader
/// when half the window is free again. (A channel per direction woke both for every line: 2.4 thread switches a line, and
/// two threads spent 60% more processor time than one on the same lines.)
#[derive(Default)]
struct Shared {
    /// Answers not written yet, by line index.
    pending: BTreeMap<u64, Done>,
    /// The index the writer writes next.
    next: u64,
    /// Lines read (or being read) and not written yet, and their bytes with those of their
    /// answers made and not written.
    in_flight: usize,
    in_flight_bytes: usize,
    /// The number of lines the input held, once the reader has reached its end or an error.
    lines: Option<u64>,
    read_error: Option<io::Error>,
    writer_waiting: bool,
    reader_waiting: bool,
    /// The writer stopped (an output error): the reader stops too.
    writer_gone: bool,
    /// Lines answered so far and their answers' bytes: the window's measure.
    answered: u64,
    answered_bytes: u64,
}

/// The fewest lines read ahead: the window before any answer is made, and behind answers so
/// long that fewer of them fill [`IN_FLIGHT_BYTES`].
const LEAST_WINDOW: usize = 32;

impl Shared {
    /// The lines that may be in flight: as many as [`IN_FLIGHT_BYTES`] holds answers of the
    /// mean size so far, from [`LEAST_WINDOW`] up to `most` (at least 512).
    fn window(&self, most: usize) -> usize {
        if self.answered == 0 {
            return LEAST_WINDOW;
        }
        let mean = (self.answered_bytes / self.answered).max(1);
        usize::try_from(IN_FLIGHT_BYTES as u64 / mean).unwrap_or(usize::MAX).clamp(LEAST_WINDOW, most)
    }
}

/// The bytes of lines in flight and of answers waiting to be written past which the reader
/// waits (beside the window's count): a window of long lines, or of long answers behind a slow
/// line, is bounded by this plus one line and the answers being made, not by the window times
/// the line limit.
const IN_FLIGHT_BYTES: usize = 32 << 20;

/// The shared state, locked (a panic holding the lock cannot leave it inconsistent: every
/// update under it is a few assignments).
fn lock(s: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    s.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Answer every line of `input` to `output` on `jobs` threads (0: one per core), in input
/// order; `progress` is called after each line written, with the counts so far and the input
/// bytes consumed (about: a line's own bytes and its newline). Same output as [`run`](crate::run); returns the counts, or the first error
/// reading the input or writing the output (the lines before it are written).
pub fn run_parallel<R: BufRead + Send, W: Write>(
    mut input: R,
    mut output: W,
    opts: &Options,
    jobs: usize,
    mut progress: impl FnMut(&Summary, u64),
) -> io::Result<Summary> {
    let pool = match pool_of_at_most(jobs) {
        Ok(pool) => pool,
        Err(why) => {
            // Not even one more thread: answer here, one line at a time (the same output).
            eprintln!("touchstone: warning: {why}; answering one line at a time");
            return crate::run(input, output, opts, |s| progress(s, 0));
        }
    };
    let threads = pool.current_num_threads();
    // Lines in flight: enough to keep every thread busy behind one slow line and to wake the
    // reader and the writer rarely (each wake-up is a thread switch on a machine with as many
    // cores as answering threads: docs/speed.md, "Two threads"), few enough that the window's
    // lines fit in memory (their bytes and their answers' are bounded too, by IN_FLIGHT_BYTES).
    let most = (256 * threads).max(512);
    // The answers the writer is woken for at once while more are being answered.
    let run = move |s: &Shared| s.window(most) / 4;
    let opts = Arc::new(opts.clone());
    let shared = Arc::new((Mutex::new(Shared::default()), Condvar::new(), Condvar::new()));
    std::thread::scope(|scope| {
        let reader_opts = Arc::clone(&opts);
        let reader_shared = Arc::clone(&shared);
        std::thread::Builder::new().name("touchstone-reader".into()).spawn_scoped(scope, move || {
            let (state, writer_cv, reader_cv) = &*reader_shared;
            let mut buf = Vec::new();
            let max = reader_opts.max_line_bytes.saturating_add(1);
            let mut index = 0u64;
            loop {
                // Wait for room (the writer wakes this thread when half the window is free),
                // and take a place in the window for the line about to be read.
                {
                    let mut s = lock(state);
                    while !s.writer_gone && (s.in_flight >= s.window(most) || s.in_flight_bytes >= IN_FLIGHT_BYTES) {
                        s.reader_waiting = true;
                        s = reader_cv.wait(s).unwrap_or_else(|poisoned| poisoned.into_inner());
                    }
                    s.reader_waiting = false;
                    if s.writer_gone {
                        return;
                    }
                    s.in_flight += 1;
                }
                let read = read_line_bounded(&mut input, &mut buf, max);
                let cut = match read {
                    Ok(Some(cut)) => cut,
                    ended => {
                        let mut s = lock(state);
                        s.in_flight -= 1;
                        if let Err(e) = ended {
                            s.read_error = Some(e);
                        }
                        s.lines = Some(index);
                        writer_cv.notify_one();
                        return;
                    }
                };
                let mut line = std::mem::take(&mut buf);
                let consumed = line.len() as u64 + 1;
                lock(state).in_flight_bytes += line.len();
                let (shared, opts) = (Arc::clone(&reader_shared), Arc::clone(&reader_opts));
                pool.spawn(move || {
                    // A panic here would abort the process (rayon's default): answer it as
                    // the one-at-a-time run answers a caught panic, with an internal error.
                    let answered = catch_unwind(AssertUnwindSafe(|| {
                        let answer = answer_read_line(&mut line, cut, &opts);
                        let mut bytes = Vec::with_capacity(256);
                        serde_json::to_writer(&mut bytes, &answer).ok()?;
                        bytes.push(b'\n');
                        Some((bytes, error_kind(&answer)))
                    }));
                    let (bytes, kind) =
                        answered.ok().flatten().unwrap_or_else(|| (INTERNAL.as_bytes().to_vec(), Some("internal")));
                    let (state, writer_cv, _) = &*shared;
                    let mut s = lock(state);
                    s.in_flight_bytes += bytes.len();
                    s.answered += 1;
                    s.answered_bytes += bytes.len() as u64;
                    s.pending.insert(index, Done { bytes, kind, consumed });
                    // The writer is woken when it can write a run of answers, or when every
                    // line in flight is answered (a driver waiting for its answer gets it:
                    // the one slot not answered may be the reader's, waiting for input).
                    let next_here = s.pending.contains_key(&s.next);
                    if s.writer_waiting
                        && next_here
                        && (s.pending.len() >= run(&s) || s.pending.len() + 1 >= s.in_flight)
                    {
                        writer_cv.notify_one();
                    }
                });
                index += 1;
            }
        })?;
        // The writer: answers come in any order and leave in input order.
        let (state, writer_cv, reader_cv) = &*shared;
        let mut summary = Summary::default();
        let mut consumed = 0u64;
        let mut s = lock(state);
        loop {
            let next = s.next;
            if let Some(done) = s.pending.remove(&next) {
                drop(s);
                let written =
                    output.write_all(&done.bytes).and_then(|()| if opts.flush_each { output.flush() } else { Ok(()) });
                s = lock(state);
                if let Err(e) = written {
                    s.writer_gone = true;
                    reader_cv.notify_one();
                    return Err(e);
                }
                summary.count(done.kind);
                consumed += done.consumed;
                s.next += 1;
                s.in_flight -= 1;
                s.in_flight_bytes = s.in_flight_bytes.saturating_sub(done.consumed as usize - 1 + done.bytes.len());
                if s.reader_waiting && s.in_flight <= s.window(most) / 2 && s.in_flight_bytes < IN_FLIGHT_BYTES / 2 {
                    reader_cv.notify_one();
                }
                drop(s);
                progress(&summary, consumed);
                s = lock(state);
                continue;
            }
            if s.lines == Some(next) {
                break;
            }
            s.writer_waiting = true;
            s = writer_cv.wait(s).unwrap_or_else(|poisoned| poisoned.into_inner());
            s.writer_waiting = false;
        }
        let read_error = s.read_error.take();
        drop(s);
        output.flush()?;
        match read_error {
            Some(e) => Err(e),
            None => Ok(summary),
        }
    })
}
