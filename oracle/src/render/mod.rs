//! `touchstone render FILE --out DIR`: a picture of each query line, from its exact answer.
//!
//! Each line is answered as the oracle answers it; its shapes are posed in binary64 for
//! drawing and the answer's geometry (closest points, the gap between them, features, contact
//! regions and their normals) is drawn over them, with the line's claim (its points and
//! normal) beside the exact values in another colour. The view looks perpendicular to the
//! closest-point segment, or along a contact region's plane; a gap or a claim's error far
//! below the shapes' size gets a magnified inset with its own scale bar. Each line gives
//! `DIR/N-ID.svg` and, rasterised by resvg, `DIR/N-ID.png`; a cast (`toi`, `toi_boxes`, `ccd`)
//! also its time picture, `DIR/N-ID.time.svg` (and `.png`); with `--gltf`, the scene as
//! `DIR/N-ID.gltf` for a 3D viewer.
//!
//! ```no_run
//! use touchstone_oracle::{render, Options};
//! let line = r#"{"id": 1, "op": "distance", "a": {"box": [1, 1, 1]}, "b": {"box": [1, 1, 1]},
//!               "pose_b": {"translation": [3, 0.5, 0]}}"#;
//! let picture = render::picture(line, &Options::default(), 0).unwrap();
//! assert!(picture.svg.contains("exact-point"));
//! ```

pub mod draw;
pub mod gltf;
pub mod html;
pub mod scene;
pub mod time;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Options;

/// One line's picture.
#[derive(Clone, Debug)]
pub struct Picture {
    /// A file name stem: the line's number and its id, made safe for a file name.
    pub stem: String,
    /// The SVG document.
    pub svg: String,
    /// The scene it draws.
    pub scene: scene::Scene,
    /// For a cast (`toi`, `toi_boxes`, `ccd`): the separation along t with the exact first
    /// contact, the claimed time and a box sweep's octant switches ([`time`]).
    pub time_svg: Option<String>,
}

/// A line that gives no picture.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The line is no JSON object.
    #[error("line {line}: not a JSON object: {message}")]
    Json {
        /// The line's number (1-based).
        line: usize,
        /// serde_json's message.
        message: String,
    },
    /// Writing a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// Rasterising failed.
    #[error("line {line}: cannot rasterise the picture: {message}")]
    Raster {
        /// The line's number (1-based).
        line: usize,
        /// resvg's message.
        message: String,
    },
}

/// The picture of query line number `index` (0-based): answered under `opts`, then drawn.
/// An answer that is an error still gives a picture of the shapes, with the error as its
/// headline.
pub fn picture(line: &str, opts: &Options, index: usize) -> Result<Picture, RenderError> {
    let query: Value =
        serde_json::from_str(line).map_err(|e| RenderError::Json { line: index + 1, message: e.to_string() })?;
    if !query.is_object() {
        return Err(RenderError::Json { line: index + 1, message: "the line is not an object".into() });
    }
    let answer = crate::answer_line(line, opts);
    let scene = scene::scene(&query, &answer, &opts.context(), index + 1);
    // The stem: the line's number, then its id when it has one (made safe for a file name).
    let id = match query.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => String::new(),
    };
    let safe: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(40).collect();
    let stem = if safe.is_empty() { format!("{}", index + 1) } else { format!("{}-{safe}", index + 1) };
    let time_svg = time::curve(line, &query, &answer, opts)
        .map(|c| time::svg(&c, &format!("{} · {} · {}", scene.id, scene.op, scene.headline)));
    Ok(Picture { stem, svg: draw::svg(&scene), scene, time_svg })
}

/// The PNG of an SVG document (fonts from the system, when it has any: without them the
/// picture has no text, and is otherwise the same).
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    thread_local! {
        static OPTIONS: usvg::Options<'static> = {
            let mut o = usvg::Options::default();
            let db = o.fontdb_mut();
            db.load_system_fonts();
            // fontdb's generic sans-serif is Arial, which few Linux systems have: take the
            // first sans-serif family the system does have (DejaVu Sans, say).
            let sans = db
                .faces()
                .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
                .filter(|name| name.contains("Sans") && !name.contains("Mono"))
                .min();
            if let Some(sans) = sans {
                db.set_sans_serif_family(sans.clone());
                o.font_family = sans;
            }
            o
        };
    }
    let tree = OPTIONS.with(|o| usvg::Tree::from_str(svg, o)).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("an empty picture")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// What [`render_file`] wrote.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// The pictures written (each an SVG and, unless left out, a PNG).
    pub written: Vec<PathBuf>,
    /// Lines that gave no picture, with the reason.
    pub skipped: Vec<String>,
}

/// Which files [`render_file`] writes beside each SVG.
#[derive(Clone, Copy, Debug, Default)]
pub struct Formats {
    /// The PNG (resvg).
    pub png: bool,
    /// The glTF scene ([`gltf::gltf`]).
    pub gltf: bool,
}

/// Render every line of `text` into `dir` (created when missing), an SVG per line and the
/// `formats` beside it. `progress` is told each line's number as it is done.
pub fn render_file(
    text: &str,
    dir: &Path,
    opts: &Options,
    formats: Formats,
    mut progress: impl FnMut(usize),
) -> Result<Rendered, RenderError> {
    let io = |path: &Path, e: std::io::Error| RenderError::Io { path: path.to_path_buf(), message: e.to_string() };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut out = Rendered::default();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let picture = match picture(line, opts, index) {
            Ok(p) => p,
            Err(e) => {
                out.skipped.push(e.to_string());
                continue;
            }
        };
        let svg_path = dir.join(format!("{}.svg", picture.stem));
        std::fs::write(&svg_path, &picture.svg).map_err(|e| io(&svg_path, e))?;
        out.written.push(svg_path);
        if let Some(t) = &picture.time_svg {
            let path = dir.join(format!("{}.time.svg", picture.stem));
            std::fs::write(&path, t).map_err(|e| io(&path, e))?;
            out.written.push(path);
            if formats.png {
                let bytes = png(t).map_err(|message| RenderError::Raster { line: index + 1, message })?;
                let path = dir.join(format!("{}.time.png", picture.stem));
                std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
                out.written.push(path);
            }
        }
        if formats.gltf {
            let path = dir.join(format!("{}.gltf", picture.stem));
            let text = serde_json::to_string(&gltf::gltf(&picture.scene)).unwrap_or_default();
            std::fs::write(&path, text).map_err(|e| io(&path, e))?;
            out.written.push(path);
        }
        if formats.png {
            let bytes = png(&picture.svg).map_err(|message| RenderError::Raster { line: index + 1, message })?;
            let png_path = dir.join(format!("{}.png", picture.stem));
            std::fs::write(&png_path, bytes).map_err(|e| io(&png_path, e))?;
            out.written.push(png_path);
        }
        progress(index + 1);
    }
    Ok(out)
}
