//! The `curved_diff` target's input: an implicit solid (a ball, or the torus (3, 1) about z,
//! as its polynomial) and a ball touching it by construction at an exact point (a Pythagorean
//! offset between two balls; a torus point at angles with rational cosines, the ball's centre
//! on the normal there), nudged apart or together by 2⁻ᵉ along the normal, all under one pose
//! of small integer quaternion parts and a shift on a 1/8 grid. The truth is known exactly: the
//! status, the gap (the nudge) and the contact point.
//!
//! [`check_curved`] holds the certified status to it: a certificate is never wrong (a witness
//! is inside both, exactly; separation bounds enclose the exact gap; a touching point is the
//! contact point; touching to within the precision only when the nudge is below it, with the
//! contact point in the certificate's cell). `Undecided` is always allowed.

use arbitrary::Arbitrary;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::curved::{implicit_status, CurvedStatus, StatusOptions};
use crate::geom::Point3;
use crate::query::{implicit_of, DistanceCurved, DistanceCurvedClaim, PoseSpec, Posed, ShapeSpec};

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// Directions with integer lengths: 3-4-0 (5), 2-3-6 (7), 1-4-8 (9), 4-4-7 (9), 2-6-9 (11).
const OFFSETS: [([i64; 3], i64); 5] =
    [([3, 4, 0], 5), ([2, -3, 6], 7), ([1, 4, -8], 9), ([-4, 4, 7], 9), ([2, 6, 9], 11)];

/// Cosines and sines with rational values: 0°, the 3-4-5 and 5-12-13 angles, 90°.
const ANGLES: [(i64, i64, i64); 6] = [(1, 0, 1), (3, 4, 5), (4, 3, 5), (0, 1, 1), (-3, 4, 5), (5, 12, 13)];

/// The searches' depth of the target: boxes down to 2⁻¹⁶ of the shapes' size.
pub const CURVED_PRECISION: u32 = 16;

/// One case of `curved_diff`.
#[derive(Arbitrary, Clone, Debug, PartialEq)]
pub struct CurvedInput {
    /// The pair (mod 2: two balls, a torus and a ball), then which offset or angles and radii.
    pub fit: [u8; 4],
    /// The nudge: its sign (mod 3 − 1) and exponent (mod 37, plus 4).
    pub nudge: (u8, u8),
    /// The quaternion's parts (each mod 5 − 2; the zero quaternion is the identity) and the
    /// shift (in 1/8).
    pub pose: ([i8; 4], [i8; 3]),
}

/// A case with its truth.
#[derive(Clone, Debug)]
pub struct CurvedCase {
    /// The `distance` query: a the implicit solid, b the ball.
    pub query: DistanceCurved<Q>,
    /// The signed gap: positive apart, negative overlapping, 0 touching.
    pub gap: Q,
    /// The contact point of the touching configuration, posed.
    pub contact: [Q; 3],
}

impl CurvedCase {
    /// The truth as a claim (the status).
    pub fn claim(&self) -> DistanceCurvedClaim {
        use crate::query::CurvedKind;
        let status = if self.gap.is_positive() {
            CurvedKind::Separated
        } else if self.gap.is_negative() {
            CurvedKind::Penetrating
        } else {
            CurvedKind::Touching
        };
        DistanceCurvedClaim { status: Some(status), ..Default::default() }
    }
}

/// The polynomial terms of |x − c|² − ρ² (an implicit ball).
fn ball_terms(c: &[Q; 3], rho: &Q) -> Vec<(Q, [u32; 3])> {
    let mut terms = vec![];
    let mut constant = -(rho * rho);
    for i in 0..3 {
        let mut e2 = [0u32; 3];
        e2[i] = 2;
        let mut e1 = [0u32; 3];
        e1[i] = 1;
        terms.push((q(1), e2));
        terms.push((q(-2) * &c[i], e1));
        constant += &c[i] * &c[i];
    }
    terms.push((constant, [0, 0, 0]));
    terms
}

/// The torus (3, 1) about z: (x² + y² + z² + 8)² − 36(x² + y²), expanded.
fn torus_terms() -> Vec<(Q, [u32; 3])> {
    vec![
        (q(64), [0, 0, 0]),
        (q(-20), [2, 0, 0]),
        (q(1), [4, 0, 0]),
        (q(-20), [0, 2, 0]),
        (q(2), [2, 2, 0]),
        (q(1), [0, 4, 0]),
        (q(16), [0, 0, 2]),
        (q(2), [2, 0, 2]),
        (q(2), [0, 2, 2]),
        (q(1), [0, 0, 4]),
    ]
}

impl CurvedInput {
    /// The case, or `None` for a pose that is no rotation (never: the zero quaternion is the
    /// identity).
    pub fn case(&self) -> Option<CurvedCase> {
        let [kind, k1, k2, k3] = self.fit;
        let sign = i64::from(self.nudge.0 % 3) - 1;
        let e = u32::from(self.nudge.1 % 37) + 4;
        let gap = Q::new(sign.into(), num_bigint::BigInt::from(2).pow(e));
        let (terms, lo, hi, centre, rho, contact) = if kind % 2 == 0 {
            // Two balls along a Pythagorean offset d of length L, radii split L/4 : 3L/4 (or
            // the other splits); b's centre moved by the gap along d.
            let (d, len) = OFFSETS[usize::from(k1) % OFFSETS.len()];
            let split = i64::from(k2 % 3) + 1;
            let (ra, rb) = (r(split * len, 4), r((4 - split) * len, 4));
            let dir = d.map(|x| r(x, len));
            let centre = [0, 1, 2].map(|i| &dir[i] * (&ra + &rb + &gap));
            let contact = [0, 1, 2].map(|i| &dir[i] * &ra);
            let h = &ra + &ra / q(4);
            (
                ball_terms(&[q(0), q(0), q(0)], &ra),
                [-h.clone(), -h.clone(), -h.clone()],
                [h.clone(), h.clone(), h],
                centre,
                rb,
                contact,
            )
        } else {
            // The torus (3, 1) and a ball on the outward normal at angles θ, φ (rational
            // cosines; the tube's outer half and top).
            let (ct, st, lt) = ANGLES[usize::from(k1) % ANGLES.len()];
            let (cp, sp, lp) = ANGLES[usize::from(k2) % 4];
            let (cos_t, sin_t, cos_p, sin_p) = (r(ct, lt), r(st, lt), r(cp, lp), r(sp, lp));
            let rb = r(i64::from(k3 % 3) + 1, 2);
            let rad = q(3) + &cos_p;
            let contact = [&rad * &cos_t, &rad * &sin_t, sin_p.clone()];
            let n = [&cos_p * &cos_t, &cos_p * &sin_t, sin_p];
            let centre = [0, 1, 2].map(|i| &contact[i] + &n[i] * (&rb + &gap));
            (torus_terms(), [q(-5), q(-5), q(-2)], [q(5), q(5), q(2)], centre, rb, contact)
        };
        let (qt, shift) = self.pose;
        let mut parts = qt.map(|x| q(i64::from(x.rem_euclid(5)) - 2));
        if parts.iter().all(Zero::is_zero) {
            parts[0] = q(1);
        }
        let t = shift.map(|x| r(i64::from(x), 8));
        let pose = PoseSpec::quaternion(parts.clone(), t.clone()).ok()?;
        let map = pose.affine::<Q>().ok()?;
        let image = |p: &[Q; 3]| {
            let v = map.apply_point(&Point3::new(p[0].clone(), p[1].clone(), p[2].clone()));
            [v.x.clone(), v.y.clone(), v.z.clone()]
        };
        let a_shape = ShapeSpec::implicit(
            terms,
            Point3::new(lo[0].clone(), lo[1].clone(), lo[2].clone()),
            Point3::new(hi[0].clone(), hi[1].clone(), hi[2].clone()),
        )
        .ok()?;
        let c = image(&centre);
        let b_pose = PoseSpec::quaternion([q(1), q(0), q(0), q(0)], c).ok()?;
        let mut query =
            DistanceCurved::new(Posed::new("a", a_shape, pose), Posed::new("b", ShapeSpec::ball(rho).ok()?, b_pose));
        query.precision = Q::new(One::one(), num_bigint::BigInt::from(2).pow(CURVED_PRECISION));
        Some(CurvedCase { query, gap, contact: image(&contact) })
    }
}

/// The status of the case's pair at the target's precision (the box limit lowered: the target
/// runs many), held to the truth (module docs). `Err` names the breach.
pub fn check_curved(case: &CurvedCase) -> Result<CurvedStatus, String> {
    let a = implicit_of(&case.query.a).map_err(|e| format!("a: {e:?}"))?;
    let b = implicit_of(&case.query.b).map_err(|e| format!("b: {e:?}"))?;
    let options = StatusOptions { precision: CURVED_PRECISION, max_boxes: 4_000 };
    let s = implicit_status(&a, &b, &options).map_err(|e| format!("status: {e:?}"))?;
    let gap = &case.gap;
    let ok = match &s {
        CurvedStatus::Undecided { .. } => true,
        CurvedStatus::Penetrating { witness } => {
            gap.is_negative() && a.contains_strictly(witness) && b.contains_strictly(witness)
        }
        CurvedStatus::Separated { gap_squared_lower, gap_squared_upper } => {
            let g2 = gap * gap;
            gap.is_positive()
                && gap_squared_lower.is_positive()
                && *gap_squared_lower <= g2
                && gap_squared_upper.as_ref().is_none_or(|u| *u >= g2)
        }
        CurvedStatus::Touching { point, .. } => gap.is_zero() && *point == case.contact,
        CurvedStatus::Tangent { cell, .. } => {
            // Only below the precision: the boxes' size 2⁻ᵖ of the shapes' (at most 12), with
            // room; and the contact point in the cell.
            let bound = Q::new(64.into(), num_bigint::BigInt::from(2).pow(CURVED_PRECISION)) * q(12);
            gap.abs() <= bound && (0..3).all(|i| cell[i][0] <= case.contact[i] && case.contact[i] <= cell[i][1])
        }
    };
    if ok {
        Ok(s)
    } else {
        Err(format!("gap {gap}, contact {:?}: {s:?}", case.contact))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_holds_its_truth() {
        // Each pair, touching and nudged by 2⁻⁶ either way, under a turned pose: decided and
        // true (the target's own check, which allows Undecided: here it must not be needed).
        for kind in 0..2u8 {
            for k1 in 0..3u8 {
                for sign in 0..3u8 {
                    let input =
                        CurvedInput { fit: [kind, k1, 1, 1], nudge: (sign, 2), pose: ([1, 2, 0, 3], [3, -2, 5]) };
                    let case = input.case().unwrap();
                    let s = check_curved(&case).unwrap_or_else(|e| panic!("{input:?}: {e}"));
                    assert!(!matches!(s, CurvedStatus::Undecided { .. }), "{input:?}: {s:?}");
                }
            }
        }
    }

    #[test]
    fn a_wrong_truth_is_caught() {
        // The check is not vacuous: the same status held to a flipped truth fails.
        let input = CurvedInput { fit: [0, 0, 1, 0], nudge: (2, 2), pose: ([2, 2, 2, 2], [0, 0, 0]) };
        let mut case = input.case().unwrap();
        assert!(check_curved(&case).is_ok());
        case.gap = -case.gap.clone();
        assert!(check_curved(&case).is_err());
    }
}
