//! `touchstone`: the command-line oracle.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};
use touchstone_oracle::{run, Options, Summary};

mod metered;

#[global_allocator]
static ALLOCATOR: metered::Metered = metered::Metered;

const ABOUT: &str = "Exact answers to polyhedral geometry queries written as JSON Lines.";

#[derive(Parser, Debug)]
#[command(name = "touchstone", version, about = ABOUT, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Query file (JSON Lines); `-` or absent: standard input.
    file: Option<PathBuf>,
    /// Write answers to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// The longest query line answered, in bytes; longer lines get a `limit` error line.
    #[arg(long, default_value_t = 8 << 20)]
    max_line_bytes: usize,
    /// Seconds a query may take before it is answered with a `limit` error (0: no limit).
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    time_limit: f64,
    /// Loop steps a query may take before it is answered with a `limit` error (0: no limit).
    #[arg(long, default_value_t = 0)]
    step_limit: u64,
    /// The folder `file` shapes may be read from (after resolving `..` and symbolic links);
    /// default: the query file's folder, or the current directory for standard input.
    #[arg(long, value_name = "DIR")]
    files: Option<PathBuf>,
    /// The longest file a `file` shape may read, in bytes.
    #[arg(long, default_value_t = 64 << 20)]
    max_file_bytes: u64,
    /// The most vertices (or points) of one inline shape.
    #[arg(long, default_value_t = 100_000)]
    max_vertices: usize,
    /// The backend of lines without their own "backend" field: exact, exact-unfiltered, f64
    /// or both.
    #[arg(long, default_value = "exact", value_parser = backend)]
    backend: touchstone_oracle::ops::Backend,
    /// The most bits (numerators and denominators) of all the numbers of one query.
    #[arg(long, default_value_t = 1 << 24)]
    max_bits: u64,
    /// The most memory one query may hold at once (e.g. 1GiB, 256MiB, 4096; 0: no limit);
    /// over it, the query gets a `limit` error line and the next line is answered. Lines
    /// answered in parallel (--jobs) hold up to this much each.
    #[arg(long, default_value = "1GiB", value_parser = touchstone_oracle::parse_bytes)]
    max_memory: u64,
    /// Report progress on standard error (default: when standard error is a terminal).
    #[arg(long)]
    progress: bool,
    /// Print no summary on standard error.
    #[arg(short, long)]
    quiet: bool,
    /// Threads answering lines (0: one per core; at most 1024). The output is in input order
    /// whatever the number.
    #[arg(short, long, default_value_t = 0, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1024))]
    jobs: usize,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Run another engine on the queries of FILE, turn its answers into claims and judge them
    /// exactly: per function, wrong answers, false positives and negatives, error
    /// distributions and the worst cases as replayable lines.
    CheckEngine {
        /// The engine: parry3d (distance, contact, intersection_test, closest_points on
        /// `distance` lines; cast_shapes on `toi` lines; contains_point on `classify_point`
        /// lines; contact_manifolds on `contact` lines), robust (orient3d and orient2d lines),
        /// fcl (Python adapter: collide, distance, signed_distance on `distance` lines;
        /// continuousCollide, naive and conservative advancement, on `toi` lines), coal
        /// (collide and signed distance, default and tight tolerances), bullet
        /// (getClosestPoints with the default margin and margin 0, contact points) or mujoco
        /// (mj_geomDistance, mj_collision), each a Python adapter on `distance` lines. Left
        /// out with --command (the first argument is then FILE).
        #[arg(required_unless_present = "command")]
        engine: Option<String>,
        /// Query file (JSON Lines); `-` or absent: standard input.
        file: Option<PathBuf>,
        /// Judge any engine behind a program that speaks the engine protocol (oracle/FORMAT.md):
        /// it reads query lines on standard input and writes one answer line per query, in
        /// order. Split into words as a shell would, not run by one. A program that dies on a
        /// line is a `crash` finding and is started again.
        #[arg(long, value_name = "PROGRAM ARGS")]
        command: Option<String>,
        /// The Python interpreter that runs the shipped adapters (fcl, coal, bullet, mujoco); default:
        /// TOUCHSTONE_PYTHON, else .venv-engines/bin/python when present, else python3.
        #[arg(long, value_name = "PATH")]
        python: Option<PathBuf>,
        /// Write every wrong answer's claim line (the query and the engine's claim) here.
        #[arg(long, value_name = "PATH")]
        findings: Option<PathBuf>,
        /// Worst cases shown per function.
        #[arg(long, default_value_t = 3)]
        worst: usize,
        /// Seconds the engine may take on one line before it counts as a hang (0: no limit).
        #[arg(long, default_value_t = 10.0, value_parser = seconds)]
        engine_time_limit: f64,
        /// Also write the report as one self-contained HTML page here: per function the counts,
        /// a histogram of the errors and the worst cases with their pictures and replay lines.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Answer each query of FILE on every backend side by side (exact, exact-unfiltered, f64),
    /// with MISMATCH where they disagree, the agreement contract's verdict, and for
    /// `distance` V-Clip's feature walk step by step.
    Explain {
        /// Query file (JSON Lines); `-` or absent: standard input.
        file: Option<PathBuf>,
    },
    /// Print a cargo-fuzz artifact as the query line that replays it (the line the target
    /// prints when it fails): `touchstone decode vclip_diff crash-... | touchstone explain`.
    Decode {
        /// The fuzz target that found it (oracle_parse's artifact is its own query lines).
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(touchstone::arbitrary::FUZZ_TARGETS))]
        target: String,
        /// The artifact (fuzz/artifacts/TARGET/crash-...).
        artifact: PathBuf,
    },
    /// Check parry3d and robust on built-in degenerate scenarios and report, per scenario
    /// class, where they are wrong and by how much.
    Demo {
        /// Print the scenarios as query lines instead (to check them with check-engine).
        #[arg(long)]
        scenarios: bool,
        /// The engines, comma-separated (parry3d, robust, fcl, coal, bullet, mujoco); by
        /// default parry3d, robust and every shipped adapter whose engine is installed.
        #[arg(long)]
        engines: Option<String>,
        /// The Python interpreter of the shipped adapters (default: TOUCHSTONE_PYTHON, else
        /// .venv-engines/bin/python, else python3).
        #[arg(long)]
        python: Option<PathBuf>,
        /// Instead of the scenarios, check the engines on `gen` cases (--count of each kind
        /// touching face, edge and vertex, gap, penetration, face overlap and box sweep, from
        /// --seed) and print a Markdown table: engine × function → judged, wrong, flips,
        /// crashes, largest error (the README's).
        #[arg(long)]
        table: bool,
        /// With --table: the round-shape kinds instead (balls and capsules on a box's face,
        /// edge and corner, capsules on capsules, tiny gaps, casts).
        #[arg(long, requires = "table")]
        round: bool,
        /// Cases per kind for --table (at most 100,000: the cases are held in memory).
        #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// The seed of --table's cases.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write the findings as one self-contained HTML page, DIR/index.html: per class
        /// the counts, a histogram of the errors and the worst cases with their pictures.
        #[arg(long, value_name = "DIR", conflicts_with = "table")]
        html: Option<PathBuf>,
    },
    /// Draw each query line of FILE with its exact answer: an SVG and a PNG per line in DIR
    /// (named by line number and id). The shapes in their poses, seen perpendicular to the
    /// closest-point segment or along a contact region's plane; the exact closest points,
    /// features, contact regions and normals; a claim's points and normal beside them; a
    /// magnified inset with a scale bar when the gap or the claim's error is far below the
    /// shapes' size.
    Render {
        /// Query file (JSON Lines); `-` or absent: standard input.
        file: Option<PathBuf>,
        /// The folder the pictures are written to (created when missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// SVG only, no PNG.
        #[arg(long)]
        no_png: bool,
        /// Also write each line's scene as a glTF file (shapes, points, gap, normals, regions),
        /// which opens in any 3D viewer.
        #[arg(long)]
        gltf: bool,
    },
    /// Write degenerate cases with their answers known by construction as query lines, each
    /// with the expected answer as its `claim` (answering the file back gives `verdict.ok` on
    /// every line). Kinds: face-face, edge-edge, vertex-face, vertex-edge, vertex-vertex, gap,
    /// penetration, box-sweep, box-graze, ccd-vertex-face, ccd-edge-edge, grid-hull, and on
    /// round shapes ball-face, ball-edge, ball-vertex, capsule-face, capsule-edge, capsules,
    /// ball-gap, round-cast, on tori torus-hole, tori, and on cylinders ball-cylinder. The same
    /// seed gives the same file.
    Gen {
        /// The kind of case.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(
            touchstone::strategies::KINDS.iter().map(|(n, _)| *n)))]
        kind: String,
        /// How many cases.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// The seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// A write to standard output failed: said on standard error (unless the reader has gone: a
/// closed pipe, as `| head` does, is no news), exit status 2.
fn write_failed(command: &str, e: &io::Error) -> ExitCode {
    if e.kind() != io::ErrorKind::BrokenPipe {
        eprintln!("touchstone {command}: cannot write: {e}");
    }
    ExitCode::from(2)
}

fn main() -> ExitCode {
    // The long help is generated from the op table, so it lists what this version answers.
    let matches = Cli::command().long_about(touchstone_oracle::ops::help_text()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // `file` shapes are relative to the query file's folder.
    // (A bare name "q.jsonl" has the parent "": the current folder.)
    let base_dir = cli.file.as_ref().filter(|p| p.as_os_str() != "-").and_then(|p| {
        p.parent().map(|d| if d.as_os_str().is_empty() { std::path::PathBuf::from(".") } else { d.to_path_buf() })
    });
    if let Some(command) = &cli.command {
        return subcommand(command);
    }
    let time_limit = (cli.time_limit > 0.0 && cli.time_limit.is_finite())
        .then(|| std::time::Duration::from_secs_f64(cli.time_limit));
    let step_limit = (cli.step_limit > 0).then_some(cli.step_limit);
    // A driver that writes a line and waits for its answer must get it: flush each answer
    // unless the queries come from a regular file.
    let from_file = cli.file.as_ref().filter(|p| p.as_os_str() != "-").is_some_and(|p| p.is_file());
    let opts = Options {
        max_line_bytes: cli.max_line_bytes,
        base_dir,
        time_limit,
        step_limit,
        flush_each: !from_file,
        file_root: cli.files.clone(),
        max_file_bytes: cli.max_file_bytes,
        max_vertices: cli.max_vertices,
        max_bits: cli.max_bits,
        max_memory: (cli.max_memory > 0).then_some(cli.max_memory),
        default_backend: cli.backend,
    };
    let Some(input) = open_input(cli.file.as_ref()) else { return ExitCode::from(2) };
    let output: Box<dyn Write> = match &cli.output {
        None => Box::new(BufWriter::new(io::stdout().lock())),
        Some(p) => match File::create(p) {
            Ok(f) => Box::new(BufWriter::new(f)),
            Err(e) => {
                eprintln!("touchstone: cannot create {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let show_progress = cli.progress || (!cli.quiet && io::stderr().is_terminal());
    let input_bytes = cli.file.as_ref().filter(|_| from_file).and_then(|p| p.metadata().ok()).map(|m| m.len());
    let start = std::time::Instant::now();
    let jobs = if cli.jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { cli.jobs };
    // The parallel run reports the input bytes consumed; the one-at-a-time run, lines.
    let bar = progress_bar(show_progress, input_bytes.filter(|_| jobs > 1));
    let result = if jobs > 1 {
        touchstone_oracle::batch::run_parallel(input, output, &opts, jobs, |s, consumed| {
            bar.set_position(if input_bytes.is_some() { consumed } else { s.lines });
            bar.set_message(errors_message(s));
        })
    } else {
        run(input, output, &opts, |s| {
            bar.set_position(s.lines);
            bar.set_message(errors_message(s));
        })
    };
    bar.finish_and_clear();
    match result {
        Ok(s) => {
            if !cli.quiet {
                eprintln!("touchstone: {s} in {:.2} s", start.elapsed().as_secs_f64());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("touchstone: {e}");
            ExitCode::from(2)
        }
    }
}

/// A progress bar on standard error: input bytes of a file, or lines of a stream; hidden
/// unless `show`.
fn progress_bar(show: bool, input_bytes: Option<u64>) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !show {
        return ProgressBar::hidden();
    }
    let (bar, template) = match input_bytes {
        Some(n) => (ProgressBar::new(n), "{bar:30} {bytes}/{total_bytes} {elapsed} (eta {eta}) {msg}"),
        None => (ProgressBar::new_spinner(), "{spinner} {pos} lines {per_sec} {elapsed} {msg}"),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// The progress bar's message: the errors so far.
fn errors_message(s: &Summary) -> String {
    if s.errors == 0 {
        String::new()
    } else {
        format!("{} errors", s.errors)
    }
}

/// The query file, or standard input for none or `-`; `None` (after saying why) when it
/// cannot be opened.
fn open_input(file: Option<&PathBuf>) -> Option<Box<dyn io::BufRead + Send>> {
    match file {
        None => Some(Box::new(BufReader::new(io::stdin()))),
        Some(p) if p.as_os_str() == "-" => Some(Box::new(BufReader::new(io::stdin()))),
        Some(p) => match File::open(p) {
            Ok(f) => Some(Box::new(BufReader::new(f))),
            Err(e) => {
                eprintln!("touchstone: cannot open {}: {e}", p.display());
                None
            }
        },
    }
}

/// `check-engine` and `demo`.
fn subcommand(command: &Command) -> ExitCode {
    use touchstone_oracle::check;
    // An engine's panic is a finding, reported once in the report: not printed as it happens.
    std::panic::set_hook(Box::new(|_| {}));
    let opts = Options { time_limit: Some(std::time::Duration::from_secs(60)), ..Options::default() };
    match command {
        Command::Gen { kind, count, seed } => {
            let Some(k) = touchstone::strategies::kind_named(kind) else { return ExitCode::from(2) };
            let mut src = touchstone::strategies::Source::new(*seed);
            let mut out = io::stdout().lock();
            for n in 0..*count {
                if let Err(e) = writeln!(
                    out,
                    "{}",
                    touchstone_oracle::encode::case_line(&touchstone::strategies::case(k, n, &mut src))
                ) {
                    return write_failed("gen", &e);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Demo { scenarios, engines, python, table, round, count, seed, html } => {
            if *scenarios {
                let mut out = io::stdout().lock();
                for line in check::demo::scenarios() {
                    if let Err(e) = writeln!(out, "{line}") {
                        return write_failed("demo", &e);
                    }
                }
                return ExitCode::SUCCESS;
            }
            let start = std::time::Instant::now();
            let limit = Some(std::time::Duration::from_secs(10));
            let python = check::adapters::interpreter(python.as_deref());
            let (chosen, not_run) = match engines {
                Some(list) => match check::demo::named_engines(list, &python, limit) {
                    Ok(e) => (e, Vec::new()),
                    Err(err) => {
                        eprintln!("touchstone demo: {err}");
                        return ExitCode::from(2);
                    }
                },
                None => check::demo::installed_engines(&python, limit),
            };
            let code = if *table {
                let kinds = if *round { check::demo::ROUND_TABLE_KINDS } else { check::demo::TABLE_KINDS };
                let lines = check::demo::table_cases(kinds, *count as usize, *seed);
                let show = io::stderr().is_terminal();
                let total = lines.len();
                let made = check::demo::table(&chosen, &lines, &opts, limit, |e, n| {
                    if show && n % 50 == 0 {
                        eprint!("\rtouchstone demo --table: {e}: {n} of {total} lines checked   ");
                    }
                });
                if show {
                    eprintln!();
                }
                match made {
                    Ok(t) => {
                        for n in &not_run {
                            println!("{n}");
                        }
                        print!("{t}");
                        ExitCode::SUCCESS
                    }
                    Err(err) => {
                        eprintln!("touchstone demo: {err}");
                        ExitCode::from(2)
                    }
                }
            } else {
                let results = check::demo::run(&chosen, &opts, limit);
                let seconds = start.elapsed().as_secs_f64();
                print!("{}", check::demo::render(&results, &chosen, &not_run, seconds));
                match html {
                    None => ExitCode::SUCCESS,
                    Some(dir) => {
                        let names: Vec<String> = chosen.iter().map(|e| e.name().to_string()).collect();
                        let page = touchstone_oracle::render::html::Page::of_demo(&results, &names, &not_run, seconds);
                        let path = dir.join("index.html");
                        match std::fs::create_dir_all(dir).and_then(|()| {
                            std::fs::write(&path, touchstone_oracle::render::html::html(&page, 3, &opts))
                        }) {
                            Ok(()) => {
                                eprintln!("touchstone demo: the report is {}", path.display());
                                ExitCode::SUCCESS
                            }
                            Err(err) => {
                                eprintln!("touchstone demo: cannot write {}: {err}", path.display());
                                ExitCode::from(2)
                            }
                        }
                    }
                }
            };
            for e in &chosen {
                e.shutdown();
            }
            code
        }
        Command::Decode { target, artifact } => {
            // An artifact is small (libFuzzer's -max_len); refuse anything that is not.
            let bytes = match std::fs::metadata(artifact).and_then(|m| {
                if m.len() > 16 << 20 {
                    Err(io::Error::other(format!("{} bytes is no fuzz artifact (at most 16 MiB)", m.len())))
                } else {
                    std::fs::read(artifact)
                }
            }) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("touchstone: cannot read {}: {e}", artifact.display());
                    return ExitCode::from(2);
                }
            };
            let mut out = io::stdout().lock();
            let written = if target == touchstone::arbitrary::RAW_TARGET {
                out.write_all(&bytes).and_then(|()| if bytes.ends_with(b"\n") { Ok(()) } else { out.write_all(b"\n") })
            } else {
                match touchstone_oracle::encode::replay_lines(target, &bytes) {
                    Ok(line) => writeln!(out, "{line}"),
                    Err(e) => {
                        eprintln!("touchstone: {e}");
                        return ExitCode::from(2);
                    }
                }
            };
            if written.is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Command::Render { file, out, no_png, gltf } => {
            let Some(input) = open_input(file.as_ref()) else { return ExitCode::from(2) };
            // Pictures are for a few lines: the file is read whole, up to 64 MiB.
            const MAX: u64 = 64 << 20;
            let mut text = String::new();
            match input.take(MAX + 1).read_to_string(&mut text) {
                Err(e) => {
                    eprintln!("touchstone render: cannot read the queries: {e}");
                    return ExitCode::from(2);
                }
                Ok(n) if n as u64 > MAX => {
                    eprintln!("touchstone render: the query file is over 64 MiB; render a few lines of it");
                    return ExitCode::from(2);
                }
                Ok(_) => {}
            }
            let opts = Options { time_limit: Some(std::time::Duration::from_secs(10)), ..Options::default() };
            let total = text.lines().count();
            let show = io::stderr().is_terminal();
            let formats = touchstone_oracle::render::Formats { png: !*no_png, gltf: *gltf };
            match touchstone_oracle::render::render_file(&text, out, &opts, formats, |n| {
                if show {
                    eprint!("\rtouchstone render: {n} of {total} lines drawn   ");
                }
            }) {
                Ok(done) => {
                    if show {
                        eprintln!();
                    }
                    for s in &done.skipped {
                        eprintln!("touchstone render: skipped {s}");
                    }
                    eprintln!("touchstone render: {} files in {}", done.written.len(), out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("touchstone render: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Explain { file } => {
            let Some(mut input) = open_input(file.as_ref()) else { return ExitCode::from(2) };
            let mut out = io::stdout().lock();
            let mut buf = Vec::new();
            let mut n = 0;
            loop {
                match touchstone_oracle::read_line_bounded(&mut input, &mut buf, opts.max_line_bytes) {
                    Ok(None) => return ExitCode::SUCCESS,
                    Ok(Some(cut)) => {
                        n += 1;
                        let text = if cut {
                            format!("the line is longer than {} bytes\n", opts.max_line_bytes)
                        } else {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches('\r');
                            if line.trim().is_empty() {
                                continue;
                            }
                            touchstone_oracle::explain::explain(line, &opts)
                        };
                        if write!(out, "{}line {n}: {text}", if n > 1 { "\n" } else { "" }).is_err() {
                            return ExitCode::from(2);
                        }
                    }
                    Err(e) => {
                        eprintln!("touchstone: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
        }
        Command::CheckEngine { engine, file, command, python, findings, worst, engine_time_limit, html } => {
            let limit = (*engine_time_limit > 0.0).then(|| std::time::Duration::from_secs_f64(*engine_time_limit));
            let (e, file): (&'static dyn check::Engine, Option<PathBuf>) = match (command, engine) {
                (Some(_), Some(_)) if file.is_some() => {
                    eprintln!("touchstone: give an engine or --command, not both");
                    return ExitCode::from(2);
                }
                (Some(c), engine) => match check::process::ProcessEngine::start(c, limit) {
                    Ok(p) => (Box::leak(Box::new(p)), engine.as_ref().map(PathBuf::from).or(file.clone())),
                    Err(err) => {
                        eprintln!("touchstone: --command: {err}");
                        return ExitCode::from(2);
                    }
                },
                (None, Some(name)) => match (check::engine(name), check::adapters::find(name)) {
                    (Some(e), _) => (e, file.clone()),
                    (None, Some(s)) => {
                        let python = check::adapters::interpreter(python.as_deref());
                        match check::adapters::start(s, &python, limit) {
                            Ok(p) => (Box::leak(Box::new(p)), file.clone()),
                            Err(err) => {
                                eprintln!("touchstone: {err}");
                                return ExitCode::from(2);
                            }
                        }
                    }
                    (None, None) => {
                        let known: Vec<&str> = check::ENGINES
                            .iter()
                            .copied()
                            .chain(check::adapters::SHIPPED.iter().map(|s| s.name))
                            .collect();
                        eprintln!("touchstone: unknown engine {name:?} (known: {})", known.join(", "));
                        return ExitCode::from(2);
                    }
                },
                (None, None) => {
                    eprintln!("touchstone: name an engine or give --command");
                    return ExitCode::from(2);
                }
            };
            let Some(input) = open_input(file.as_ref()) else { return ExitCode::from(2) };
            let mut sink = match findings {
                None => None,
                Some(p) => match File::create(p) {
                    Ok(f) => Some(BufWriter::new(f)),
                    Err(err) => {
                        eprintln!("touchstone: cannot create {}: {err}", p.display());
                        return ExitCode::from(2);
                    }
                },
            };
            let show = io::stderr().is_terminal();
            let report = check::check(e, input, &opts, limit, sink.as_mut().map(|w| w as &mut dyn Write), |n| {
                if show && n % 100 == 0 {
                    eprint!("\rtouchstone: {n} lines checked");
                }
            });
            if show {
                eprint!("\r");
            }
            e.shutdown();
            match report {
                Ok(r) => {
                    print!("{}", check::render(&r, *worst));
                    if let Some(Err(err)) = sink.as_mut().map(Write::flush) {
                        eprintln!("touchstone: writing the findings: {err}");
                        return ExitCode::from(2);
                    }
                    if let Some(path) = html {
                        let page = touchstone_oracle::render::html::Page::of_report(&r);
                        if let Err(err) =
                            std::fs::write(path, touchstone_oracle::render::html::html(&page, *worst, &opts))
                        {
                            eprintln!("touchstone: cannot write {}: {err}", path.display());
                            return ExitCode::from(2);
                        }
                    }
                    ExitCode::SUCCESS
                }
                Err(err) => {
                    eprintln!("touchstone: {err}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// A non-negative, finite number of seconds.
fn seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s.parse().map_err(|e| format!("{s:?} is not a number of seconds: {e}"))?;
    if !x.is_finite() || !(0.0..=1e9).contains(&x) {
        return Err(format!("{s:?}: the time limit must be a finite number of seconds from 0 to 1e9"));
    }
    Ok(x)
}

/// A backend's name.
fn backend(s: &str) -> Result<touchstone_oracle::ops::Backend, String> {
    touchstone_oracle::ops::Backend::named(s)
        .ok_or_else(|| format!("{s:?} is no backend (exact, exact-unfiltered, f64, both)"))
}
