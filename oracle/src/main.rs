//! `touchstone`: the command-line oracle.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use touchstone_oracle::{run, Options, Summary};

const ABOUT: &str = "Exact answers to polyhedral geometry queries written as JSON Lines.";

const LONG_ABOUT: &str = "\
Exact answers to polyhedral geometry queries written as JSON Lines.

Reads one JSON object per line from FILE (or standard input) and writes one JSON object per
input line to standard output, in the same order, with the query's \"id\" echoed. A line that
cannot be answered gives {\"id\": ..., \"error\": {\"kind\", \"message\", \"at\"}} and the next
line is answered as usual; \"at\" is a JSON pointer into the query.

Numbers: a JSON number is the binary64 value it denotes; a string is an exact rational
(\"12\", \"-3/7\", \"0.1\", \"1.5e-3\"). Exact outputs are strings in lowest terms.

Common fields: id, op, backend (exact | exact-unfiltered | f64 | both), digits (default 20).
Ops answered now: orient3d, side_of_plane, transform_points, squared_distance, segment_plane.
Ops of the format still to come answer {\"kind\": \"unsupported\"} after checking their input:
validate, index_stats, classify_point, classify_segment, distance, contact, toi_boxes,
contact_forces, toi, ccd.
Error kinds: json, missing, type, number, unknown, unsupported, invalid, limit, internal.

Example:
  echo '{\"id\":1,\"op\":\"orient3d\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}' | touchstone
  {\"id\":1,\"orientation\":\"positive\",\"determinant\":\"1\",\"determinant_f64\":1.0}

The full format: oracle/FORMAT.md in the source repository.";

#[derive(Parser, Debug)]
#[command(name = "touchstone", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    /// Query file (JSON Lines); `-` or absent: standard input.
    file: Option<PathBuf>,
    /// Write answers to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// The longest query line answered, in bytes; longer lines get a `limit` error line.
    #[arg(long, default_value_t = 16 << 20)]
    max_line_bytes: usize,
    /// Seconds a query may take before it is answered with a `limit` error (0: no limit).
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    /// Report progress on standard error (default: when standard error is a terminal).
    #[arg(long)]
    progress: bool,
    /// Print no summary on standard error.
    #[arg(short, long)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // `file` shapes are relative to the query file's folder.
    let base_dir = cli.file.as_ref().filter(|p| p.as_os_str() != "-").and_then(|p| p.parent().map(|d| d.to_path_buf()));
    let time_limit = (cli.time_limit > 0.0 && cli.time_limit.is_finite())
        .then(|| std::time::Duration::from_secs_f64(cli.time_limit));
    let opts = Options { max_line_bytes: cli.max_line_bytes, base_dir, time_limit };
    let input: Box<dyn io::BufRead> = match &cli.file {
        None => Box::new(io::stdin().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(io::stdin().lock()),
        Some(p) => match File::open(p) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!("touchstone: cannot open {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
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
    let progress = |s: &Summary| {
        if show_progress && s.lines % 1000 == 0 {
            eprint!("\rtouchstone: {} lines answered, {} errors", s.lines, s.errors);
        }
    };
    match run(input, output, &opts, progress) {
        Ok(s) => {
            if !cli.quiet {
                eprintln!(
                    "{}touchstone: {} lines answered, {} of them errors",
                    if show_progress { "\r" } else { "" },
                    s.lines,
                    s.errors
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("touchstone: {e}");
            ExitCode::from(2)
        }
    }
}
