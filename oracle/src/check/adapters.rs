//! The engines robotics runs from Python, judged through adapters that ship inside the binary
//! (`adapters/` in the repository): `touchstone check-engine fcl FILE` writes the adapter to a
//! private temporary folder and runs it with the chosen interpreter under the engine protocol
//! ([`super::process`]).
//!
//! The interpreter: `--python PATH`, else `TOUCHSTONE_PYTHON`, else `.venv-engines/bin/python`
//! when the working folder has one (the README's one command makes it), else `python3`. An
//! adapter whose engine package is missing says so, with the command that installs it, before
//! its hello: the run stops there with that message.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::process::ProcessEngine;

/// A shipped adapter.
pub struct Shipped {
    /// The engine's name on the command line.
    pub name: &'static str,
    /// The adapter's file name.
    pub script: &'static str,
    /// Its source.
    pub source: &'static str,
    /// The functions it asks, for `--help` and the README.
    pub functions: &'static str,
}

/// The adapters' shared module (the protocol's loop, shapes and poses).
const COMMON: &str = include_str!("../../../adapters/common.py");

/// The shipped adapters.
pub const SHIPPED: &[Shipped] = &[Shipped {
    name: "fcl",
    script: "fcl_adapter.py",
    source: include_str!("../../../adapters/fcl_adapter.py"),
    functions:
        "collide, distance, signed_distance on `distance` lines; ccd_naive, ccd_conservative_advancement on `toi` lines",
}, Shipped {
    name: "coal",
    script: "coal_adapter.py",
    source: include_str!("../../../adapters/coal_adapter.py"),
    functions: "collide, distance (signed, with its normal) on `distance` lines, with default and tight (_tight) GJK/EPA tolerances",
}, Shipped {
    name: "bullet",
    script: "bullet_adapter.py",
    source: include_str!("../../../adapters/bullet_adapter.py"),
    functions: "closest_points (default margin), closest_points_margin0, contact_points on `distance` lines",
}, Shipped {
    name: "mujoco",
    script: "mujoco_adapter.py",
    source: include_str!("../../../adapters/mujoco_adapter.py"),
    functions: "geom_distance (mj_geomDistance), collision (mj_collision) on `distance` lines",
}];

/// The shipped adapter named `name`.
pub fn find(name: &str) -> Option<&'static Shipped> {
    SHIPPED.iter().find(|s| s.name == name)
}

/// The interpreter that runs the adapters (see the module's docs).
pub fn interpreter(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("TOUCHSTONE_PYTHON").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let venv = Path::new(".venv-engines").join("bin").join("python");
    if venv.exists() {
        return venv;
    }
    PathBuf::from("python3")
}

/// Start shipped adapter `s` with `python`: its files written to a fresh temporary folder, the
/// engine waited for until its hello (a minute: importing an engine can take a while).
///
/// Errors: the folder cannot be written, the interpreter does not start, the engine's package
/// is missing (the adapter's own words), or no hello.
pub fn start(s: &Shipped, python: &Path, limit: Option<Duration>) -> Result<ProcessEngine, String> {
    let dir = std::env::temp_dir().join(format!("touchstone-adapters-{}-{}", std::process::id(), s.name));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (file, text) in [("common.py", COMMON), (s.script, s.source)] {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let words = [python.to_string_lossy().into_owned(), dir.join(s.script).to_string_lossy().into_owned()];
    let command = shell_words::join(&words);
    match ProcessEngine::start_with_hello(&command, limit, Duration::from_secs(60)) {
        Ok(e) => Ok(e.named(s.name).owning(dir)),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            Err(format!("the {} adapter ({}) did not start: {e}", s.name, python.display()))
        }
    }
}
