//! Lines, tokens and numbers of the text formats, on raw bytes: a file need not be UTF-8
//! (comments and names in other encodings are skipped unread), only its numbers and keywords.

use super::{MeshErrorKind, NumberMode};
use crate::geom::Point3;
use crate::scalar::{NumberError, Scalar, MAX_NUMBER_CHARS};

/// A UTF-8 byte order mark, skipped at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The input without a leading byte order mark.
pub(super) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// The lines of a text file that hold at least one token, numbered from 1, split into
/// whitespace-separated tokens, with comments (from `comment` to the end of the line) removed.
pub(super) struct Lines<'a> {
    rest: std::slice::Split<'a, u8, fn(&u8) -> bool>,
    number: usize,
    total: usize,
    comment: Option<u8>,
}

fn is_newline(b: &u8) -> bool {
    *b == b'\n'
}

impl<'a> Lines<'a> {
    /// The lines of `bytes` (`\n` or `\r\n` terminated).
    pub(super) fn new(bytes: &'a [u8], comment: Option<u8>) -> Self {
        let bytes = strip_bom(bytes);
        // A final line terminator ends the last line rather than starting an empty one.
        let breaks = bytes.iter().filter(|&&b| b == b'\n').count();
        let total = if bytes.last().is_none_or(|&b| b == b'\n') { breaks.max(1) } else { breaks + 1 };
        Lines { rest: bytes.split(is_newline as fn(&u8) -> bool), number: 0, total, comment }
    }

    /// The number of the last line: where an unexpected end of file is reported.
    pub(super) fn last_line(&self) -> usize {
        self.total
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, Vec<&'a [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let mut line = self.rest.next()?;
            self.number += 1;
            if let Some(c) = self.comment {
                if let Some(i) = line.iter().position(|&b| b == c) {
                    line = &line[..i];
                }
            }
            let tokens: Vec<&[u8]> = line.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).collect();
            if !tokens.is_empty() {
                return Some((self.number, tokens));
            }
        }
    }
}

/// The tokens of a text file in order, each with its line number, for formats whose grammar
/// does not follow lines (ASCII STL).
pub(super) struct Tokens<'a> {
    lines: Lines<'a>,
    line: usize,
    current: std::vec::IntoIter<&'a [u8]>,
}

impl<'a> Tokens<'a> {
    /// The tokens of `bytes` (no comments).
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Tokens { lines: Lines::new(bytes, None), line: 0, current: Vec::new().into_iter() }
    }

    /// The next token and its line.
    pub(super) fn next_token(&mut self) -> Option<(usize, &'a [u8])> {
        loop {
            if let Some(t) = self.current.next() {
                return Some((self.line, t));
            }
            let (line, tokens) = self.lines.next()?;
            self.line = line;
            self.current = tokens.into_iter();
        }
    }

    /// Drop the rest of the current line (a name after `solid` or `endsolid`).
    pub(super) fn skip_line(&mut self) {
        self.current = Vec::new().into_iter();
    }

    /// The number of the last line: where an unexpected end of file is reported.
    pub(super) fn last_line(&self) -> usize {
        self.lines.last_line()
    }
}

/// A token for messages: lossily decoded, cut to [`EXCERPT_CHARS`](super::EXCERPT_CHARS)
/// characters (an error must not copy a file's content into the answer).
pub(super) fn show(token: &[u8]) -> String {
    crate::scalar::excerpt(&String::from_utf8_lossy(token), super::EXCERPT_CHARS)
}

/// Whether a token is the keyword `word`, ignoring ASCII case.
pub(super) fn is_keyword(token: &[u8], word: &str) -> bool {
    token.eq_ignore_ascii_case(word.as_bytes())
}

/// Read one number in the given mode, straight into backend `N`.
///
/// `Exact` takes the decimal text's value (integers, decimals with exponent, `p/q`), exactly
/// for exact backends and correctly rounded for `f64` ([`Scalar::parse`]); `Binary64` the
/// double nearest to it (Rust's correctly rounded `f64` parse), held by `N`. Both refuse
/// non-finite values (`1e400` overflows binary64, so it is refused in `Binary64` mode) and text
/// longer than [`MAX_NUMBER_CHARS`].
pub(super) fn number<N: Scalar>(token: &[u8], mode: NumberMode) -> Result<N, NumberError> {
    let text =
        std::str::from_utf8(token).map_err(|_| NumberError::Invalid { text: show(token), reason: "not ASCII text" })?;
    match mode {
        NumberMode::Exact => N::parse(text),
        NumberMode::Binary64 => {
            if text.len() > MAX_NUMBER_CHARS {
                return Err(NumberError::TooLong { len: text.len(), limit: MAX_NUMBER_CHARS });
            }
            let v: f64 = text
                .parse()
                .map_err(|_| NumberError::Invalid { text: show(token), reason: "not a binary64 decimal number" })?;
            N::from_f64(v).map_err(|_| NumberError::NotFinite(show(token)))
        }
    }
}

/// The name of coordinate `c` (0, 1, 2) in messages.
fn axis(c: usize) -> &'static str {
    ["x", "y", "z"].get(c).copied().unwrap_or("w")
}

/// The point with coordinates `xyz`; a bad number is named `coordinate x of <owner>`, with
/// `owner` only formatted on error.
pub(super) fn point<N: Scalar>(
    xyz: [&[u8]; 3],
    mode: NumberMode,
    owner: impl Fn() -> String,
) -> Result<Point3<N>, MeshErrorKind> {
    let coordinate = |c: usize| {
        number(xyz[c], mode).map_err(|error| MeshErrorKind::BadNumber {
            element: format!("coordinate {} of {}", axis(c), owner()),
            error,
        })
    };
    Ok(Point3::new(coordinate(0)?, coordinate(1)?, coordinate(2)?))
}
