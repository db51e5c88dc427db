//! Ops of the format that this version does not answer yet: their inputs are parsed and
//! checked (so that a bad query is reported precisely), then the answer is `unsupported`.

use crate::json::Out;
use num_rational::BigRational;

use crate::error::{Kind, QueryError};
use crate::input::{rationals, Context, Fields};
use crate::pose::parse_pose;
use crate::shape::parse_shape;

/// The ops of the format that later versions answer, with their fields and a sentence.
pub const PLANNED: [(&str, &[&str], &str); 0] = [];

fn velocity(f: &Fields, key: &str) -> Result<(), QueryError> {
    let Some((v, at)) = f.optional(key) else { return Ok(()) };
    if v.is_array() {
        rationals::<BigRational>(v, &at, 3, "a velocity")?;
        return Ok(());
    }
    let vf = Fields::of(v, &at, "a velocity")?;
    vf.only(&["linear", "angular"])?;
    for k in ["linear", "angular"] {
        if let Some((x, p)) = vf.optional(k) {
            rationals::<BigRational>(x, &p, 3, "a velocity vector")?;
        }
    }
    Ok(())
}

fn interval(f: &Fields) -> Result<(), QueryError> {
    if let Some((v, at)) = f.optional("interval") {
        let t = rationals::<BigRational>(v, &at, 2, "an interval [t0, t1]")?;
        if t[1] < t[0] {
            return Err(QueryError::new(Kind::Invalid, &at, "the interval ends before it starts (t1 < t0)"));
        }
    }
    Ok(())
}

/// Check a planned op's input (the common fields are `common`), then answer `unsupported`;
/// `None` when `op` is not a planned op.
pub fn answer(op: &str, f: &Fields, op_at: &str, common: &[&str], ctx: &Context) -> Option<Result<Out, QueryError>> {
    let (_, own, _) = PLANNED.iter().find(|(name, _, _)| *name == op)?;
    Some(check(op, own, f, op_at, common, ctx))
}

fn check(op: &str, own: &[&str], f: &Fields, op_at: &str, common: &[&str], ctx: &Context) -> Result<Out, QueryError> {
    let allowed: Vec<&str> = common.iter().chain(own.iter()).copied().collect();
    f.only(&allowed)?;
    for key in ["solid", "a", "b"] {
        if own.contains(&key) {
            let (v, at) = f.required(key)?;
            parse_shape::<BigRational>(v, &at, ctx)?;
        }
    }
    for key in ["pose", "pose_a", "pose_b"] {
        if own.contains(&key) {
            parse_pose::<BigRational>(f.optional(key))?;
        }
    }
    if op == "contact" {
        velocity(f, "velocity_a")?;
        velocity(f, "velocity_b")?;
        interval(f)?;
    }
    Err(QueryError::new(
        Kind::Unsupported,
        op_at,
        format!("op {op:?} is part of the format but not answered by this version yet"),
    ))
}
