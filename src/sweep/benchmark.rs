//! Loaders for the public CCD benchmark's query files (Wang et al. 2021).
//!
//! * Sample-queries format: 8 rows per query, 7 integer columns
//!   `x_num, x_den, y_num, y_den, z_num, z_den, ground_truth`; rows v, f0, f1, f2 (or a0, a1,
//!   b0, b1) at t = 0, then the same at t = 1.
//! * Symbolic format: 6 columns, no label; the labels are a JSON array of booleans.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::CcdKind;
use crate::geom::Point3;

/// One query: the four points at t = 0 and t = 1, and the ground-truth label if given.
#[derive(Clone, Debug, PartialEq)]
pub struct CcdQuery {
    /// Vertex–face or edge–edge.
    pub kind: CcdKind,
    /// The points at t = 0.
    pub t0: [Point3<BigRational>; 4],
    /// The points at t = 1.
    pub t1: [Point3<BigRational>; 4],
    /// The label: whether the primitives meet in [0, 1].
    pub label: Option<bool>,
}

/// A malformed query file: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CcdDataError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn row(line: &str, n: usize, at: usize) -> Result<(Point3<BigRational>, Option<bool>), CcdDataError> {
    let err = |message: String| CcdDataError { line: at, message };
    let cols: Vec<&str> = line.split(',').map(str::trim).collect();
    if cols.len() != n {
        return Err(err(format!("expected {n} columns, found {}", cols.len())));
    }
    let int = |s: &str| s.parse::<BigInt>().map_err(|_| err(format!("not an integer: {s:?}")));
    let mut c = Vec::with_capacity(3);
    for k in 0..3 {
        let (num, den) = (int(cols[2 * k])?, int(cols[2 * k + 1])?);
        if den.is_zero() {
            return Err(err("zero denominator".into()));
        }
        c.push(BigRational::new(num, den));
    }
    let label = match n {
        7 => Some(match cols[6] {
            "0" => false,
            "1" => true,
            other => return Err(err(format!("label must be 0 or 1, not {other:?}"))),
        }),
        _ => None,
    };
    Ok((Point3::new(c[0].clone(), c[1].clone(), c[2].clone()), label))
}

fn read(text: &str, kind: CcdKind, columns: usize) -> Result<Vec<CcdQuery>, CcdDataError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.len() % 8 != 0 {
        let line = lines.last().map_or(0, |l| l.0);
        return Err(CcdDataError { line, message: format!("{} rows is not a multiple of 8", lines.len()) });
    }
    lines
        .chunks(8)
        .map(|chunk| {
            let mut pts = Vec::with_capacity(8);
            let mut label = None;
            for &(at, l) in chunk {
                let (p, lab) = row(l, columns, at)?;
                if label.is_some() && lab != label {
                    return Err(CcdDataError { line: at, message: "rows of one query disagree on the label".into() });
                }
                label = lab;
                pts.push(p);
            }
            let t0 = [pts[0].clone(), pts[1].clone(), pts[2].clone(), pts[3].clone()];
            let t1 = [pts[4].clone(), pts[5].clone(), pts[6].clone(), pts[7].clone()];
            Ok(CcdQuery { kind, t0, t1, label })
        })
        .collect()
}

/// Queries in the sample-queries format (7 columns, labelled).
pub fn read_sample_queries(text: &str, kind: CcdKind) -> Result<Vec<CcdQuery>, CcdDataError> {
    read(text, kind, 7)
}

/// Queries in the symbolic format (6 columns) with labels from a JSON array of booleans.
pub fn read_symbolic(text: &str, labels_json: &str, kind: CcdKind) -> Result<Vec<CcdQuery>, CcdDataError> {
    let mut queries = read(text, kind, 6)?;
    let inner = labels_json.trim().trim_start_matches('[').trim_end_matches(']');
    let labels: Vec<bool> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(CcdDataError { line: 0, message: format!("label {other:?} is not a boolean") }),
        })
        .collect::<Result<_, _>>()?;
    if labels.len() != queries.len() {
        return Err(CcdDataError {
            line: 0,
            message: format!("{} labels for {} queries", labels.len(), queries.len()),
        });
    }
    for (q, l) in queries.iter_mut().zip(labels) {
        q.label = Some(l);
    }
    Ok(queries)
}
