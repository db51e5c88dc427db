//! The first time of contact of two implicit solids, one of them translating at a constant
//! velocity (the motion of Lin–Manocha's Fig. 7): conservative advancement on certified gap
//! bounds from below, penetration witnesses from above.
//!
//! * **From below.** At a time `lo` where the solids are certified apart by at least d, no point
//!   of b moves faster than |v|, so they stay apart until lo + d/|v|: lo advances by that much
//!   (d a rational lower bound of the certified gap, |v| a rational upper bound). Every time
//!   before `lo` is then proved contact-free.
//! * **From above.** A time where the status is `Penetrating` (an exact witness) or exactly
//!   `Touching` has its first contact at or before it: `hi` is the least such time found, probed
//!   beyond `lo` and then halved toward it.
//!
//! The first contact lies in [lo, hi] once both are known. Near a graze (the gap dips without
//! closing) the steps shrink without end: after `max_steps` the answer is `None`.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::implicit::Implicit;
use super::status::{implicit_status, CurvedStatus, StatusOptions};
use super::CurvedError;
use crate::geom::{Affine, Vector3};

type Q = BigRational;

/// The first contact of a translating solid with a resting one.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstContact {
    /// Whether they meet in the interval (closed).
    pub collides: bool,
    /// Whether they meet at its start already.
    pub at_start: bool,
    /// When they collide: the first contact time lies in [lo, hi] (lo = hi when exact); when
    /// they do not: the whole interval, proved contact-free.
    pub interval: [Q; 2],
    /// Status queries made.
    pub steps: usize,
}

/// A rational d ≤ √x (x ≥ 0), a few bits below.
fn sqrt_down(x: &Q) -> Q {
    use crate::scalar::Scalar;
    if !x.is_positive() {
        return Q::zero();
    }
    let mut d = Q::from_float(Scalar::to_f64(x).sqrt()).unwrap_or_default() * Q::new(999_999.into(), 1_000_000.into());
    for _ in 0..8 {
        if &(&d * &d) <= x {
            return d;
        }
        d = &d * Q::new(1.into(), 2.into());
    }
    Q::zero()
}

/// A rational u ≥ √x (x ≥ 0).
fn sqrt_up(x: &Q) -> Q {
    use crate::scalar::Scalar;
    let mut u = Q::from_float(Scalar::to_f64(x).sqrt()).unwrap_or_default()
        * Q::new(1_000_001.into(), 1_000_000.into())
        + Q::new(1.into(), BigInt::from(1u64 << 60));
    for _ in 0..8 {
        if &(&u * &u) >= x {
            return u;
        }
        u = &u * Q::from_integer(2.into());
    }
    x + Q::one()
}

/// `t` rounded down (`up` false) or up to a multiple of 2⁻⁶⁴: times keep short digits, and a
/// bound stays a bound.
fn dyadic(t: &Q, up: bool) -> Q {
    let scale = Q::from_integer(BigInt::from(1) << 64usize);
    let s = t * &scale;
    let r = if up { s.ceil() } else { s.floor() };
    r / scale
}

/// `b` moved by `t·v`.
fn at_time(b: &Implicit, v: &[Q; 3], t: &Q) -> Result<Implicit, CurvedError> {
    let m = Affine::translation(Vector3::new(&v[0] * t, &v[1] * t, &v[2] * t));
    b.posed(&m)
}

/// Whether a status proves a contact at its time (a witness, or an exact common point).
fn meets(s: &CurvedStatus) -> bool {
    matches!(s, CurvedStatus::Penetrating { .. } | CurvedStatus::Touching { .. })
}

/// The first time in `[t0, t1]` at which `b`, moving by `velocity` per unit time (at `t0` it is
/// `b` moved by t0·velocity), meets the resting `a`, enclosed to `width` (module docs).
/// `None` where a status stays undecided or the steps run out. Errors: the budget's.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::curved::{first_contact_translating, Implicit, StatusOptions};
/// let q = |n: i64| BigRational::from_integer(n.into());
/// // A unit ball at (5, 0, 0) moving at (−1, 0, 0) toward a ball of radius 2 at the origin:
/// // they touch at t = 2.
/// let a = Implicit::sphere([q(0), q(0), q(0)], q(2)).unwrap();
/// let b = Implicit::sphere([q(5), q(0), q(0)], q(1)).unwrap();
/// let w = BigRational::new(1.into(), 1_000_000.into());
/// let hit = first_contact_translating(&a, &b, [q(-1), q(0), q(0)], [q(0), q(4)], &w, &StatusOptions { precision: 40, ..Default::default() }, 200)
///     .unwrap()
///     .unwrap();
/// assert!(hit.collides && hit.interval[0] <= q(2) && q(2) <= hit.interval[1]);
/// ```
pub fn first_contact_translating(
    a: &Implicit,
    b: &Implicit,
    velocity: [Q; 3],
    [t0, t1]: [Q; 2],
    width: &Q,
    options: &StatusOptions,
    max_steps: usize,
) -> Result<Option<FirstContact>, CurvedError> {
    let status =
        |t: &Q| -> Result<CurvedStatus, CurvedError> { implicit_status(a, &at_time(b, &velocity, t)?, options) };
    let first = status(&t0)?;
    if meets(&first) || matches!(first, CurvedStatus::Tangent { .. }) {
        // Touching to within the precision at t0 is not a proof of contact: only the exact
        // statuses say "at start"; a tangency leaves the question open.
        if meets(&first) {
            return Ok(Some(FirstContact { collides: true, at_start: true, interval: [t0.clone(), t0], steps: 1 }));
        }
        return Ok(None);
    }
    let speed2: Q = velocity.iter().map(|x| x * x).fold(Q::zero(), |s, t| s + t);
    if speed2.is_zero() {
        return Ok(match first {
            CurvedStatus::Separated { .. } => {
                Some(FirstContact { collides: false, at_start: false, interval: [t0, t1], steps: 1 })
            }
            _ => None,
        });
    }
    let v_up = sqrt_up(&speed2);
    let mut lo = t0.clone();
    let mut hi: Option<Q> = None;
    let mut current = first;
    let mut used = 1usize;
    let done = |lo: &Q, hi: &Option<Q>, used: usize| {
        hi.as_ref().filter(|h| *h - lo <= *width).map(|h| FirstContact {
            collides: true,
            at_start: false,
            interval: [lo.clone(), h.clone()],
            steps: used,
        })
    };
    loop {
        if used > max_steps {
            return Ok(None);
        }
        // From below: advance by the certified gap (nothing is proved past an exact touching,
        // which is itself the first contact, or past a status that bounds no gap).
        let dt = match &current {
            CurvedStatus::Separated { gap_squared_lower, .. } => sqrt_down(gap_squared_lower) / &v_up,
            CurvedStatus::Touching { .. } => {
                return Ok(Some(FirstContact {
                    collides: true,
                    at_start: lo == t0,
                    interval: [lo.clone(), lo],
                    steps: used,
                }));
            }
            CurvedStatus::Penetrating { .. } => return Ok(None),
            CurvedStatus::Tangent { .. } | CurvedStatus::Undecided { .. } => Q::zero(),
        };
        let moved = dt.is_positive();
        if moved {
            lo = dyadic(&(&lo + &dt), false);
        }
        if lo >= t1 {
            return Ok(Some(FirstContact { collides: false, at_start: false, interval: [t0, t1], steps: used }));
        }
        if let Some(c) = done(&lo, &hi, used) {
            return Ok(Some(c));
        }
        // From above: a probe beyond lo, or halfway to the known hi.
        let probe = match &hi {
            Some(h) => dyadic(&(&lo + (h - &lo) / Q::from_integer(2.into())), true),
            None => {
                let ahead = (&dt * Q::from_integer(4.into())).max(width / Q::from_integer(2.into()));
                let p = dyadic(&(&lo + ahead), true);
                if p > t1 {
                    t1.clone()
                } else {
                    p
                }
            }
        };
        used += 1;
        let met = meets(&status(&probe)?);
        if met {
            hi = Some(probe);
        }
        if let Some(c) = done(&lo, &hi, used) {
            return Ok(Some(c));
        }
        if !moved && !met {
            // Neither end moved: the gap at lo is below the precision and the probe is not a
            // proved contact. Nothing more is proved at this precision.
            return Ok(None);
        }
        if moved {
            used += 1;
            current = status(&lo)?;
        }
    }
}
