//! Cooperative limits: a per-query budget of time and steps, checked inside the long loops.
//!
//! Exact arithmetic on hostile input can take very long (deep root separation, huge hulls,
//! validation of big solids). A caller that must bound a query runs it under [`with_budget`];
//! every long loop of the crate (V-Clip and Lin–Canny steps, hull insertion, solid validation,
//! root isolation and refinement, algebraic comparisons, the box sweep's sections and
//! candidates, interval subdivision) calls [`tick`], which fails with
//! [`Uncertain::Exhausted`] once the budget is spent. That error travels the same `?` path as
//! every other undecided decision, so the computation stops where it is: nothing keeps running
//! after the answer (no thread is abandoned), and the query layer reports a `limit` error that
//! names the limit.
//!
//! Without a budget (the default) `tick` costs one thread-local read and never fails.
//!
//! ```
//! use std::time::Duration;
//! use touchstone::budget::{tick, with_budget, Budget, Limit};
//! use touchstone::scalar::Uncertain;
//!
//! let b = Budget { time: None, steps: Some(3), bits: None };
//! let r = with_budget(b, || -> Result<u32, Uncertain> {
//!     let mut n = 0;
//!     loop {
//!         tick()?;
//!         n += 1;
//!     }
//! });
//! assert_eq!(r, Err(Uncertain::Exhausted(Limit::Steps)));
//! assert_eq!(tick(), Ok(())); // outside the budget again
//! let _ = Duration::from_secs(1);
//! ```

use std::cell::Cell;
use std::time::{Duration, Instant};

pub use crate::scalar::Limit;
use crate::scalar::{Decision, Uncertain};

/// A query's budget: a time and a number of steps (`None`: unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The longest the query may take.
    pub time: Option<Duration>,
    /// The most loop steps ([`tick`] calls) it may take.
    pub steps: Option<u64>,
    /// The most bits of exact values it may derive ([`charge_bits`]: posed coordinates, whose
    /// size grows with a pose's own).
    pub bits: Option<u64>,
}

#[derive(Clone, Copy)]
struct Active {
    deadline: Option<Instant>,
    steps_left: Option<u64>,
    bits_left: Option<u64>,
    until_clock: u32,
    /// The current spacing of clock readings: doubles up to [`CLOCK_EVERY`] while ticks are
    /// light, back to every tick when they are heavy.
    spacing: u32,
    /// When the clock was last read.
    last_read: Instant,
    spent: Option<Limit>,
}

thread_local! {
    static CURRENT: Cell<Option<Active>> = const { Cell::new(None) };
}

/// How many ticks pass between two readings of the clock while ticks are light (a reading
/// costs tens of nanoseconds; a tick of an `f64` loop about as much).
const CLOCK_EVERY: u32 = 64;

/// Ticks are *heavy* when the ticks between two readings of the clock took longer than this:
/// then the clock is read at every tick (and the spacing grows again, doubling from 1, when
/// they are light), so that a loop of slow exact steps (huge numbers: one gcd of 10⁵-bit
/// integers takes tens of milliseconds) overshoots its deadline by at most one step.
const HEAVY: Duration = Duration::from_millis(1);

/// Run `f` under `budget` on this thread (budgets nest: the inner one applies until `f`
/// returns, then the outer one is back, also if `f` panics).
pub fn with_budget<T>(budget: Budget, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Active>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let active = Active {
        deadline: budget.time.and_then(|t| Instant::now().checked_add(t)),
        steps_left: budget.steps,
        bits_left: budget.bits,
        until_clock: 0,
        spacing: 0,
        last_read: Instant::now(),
        spent: None,
    };
    let _restore = Restore(CURRENT.with(|c| c.replace(Some(active))));
    f()
}

/// One step of a long loop: [`Uncertain::Exhausted`] once the current budget is spent (and on
/// every later call under it).
pub fn tick() -> Decision<()> {
    CURRENT.with(|c| {
        let Some(mut a) = c.get() else { return Ok(()) };
        if let Some(limit) = a.spent {
            return Err(Uncertain::Exhausted(limit));
        }
        if let Some(n) = a.steps_left.as_mut() {
            if *n == 0 {
                a.spent = Some(Limit::Steps);
            } else {
                *n -= 1;
            }
        }
        if a.spent.is_none() && a.deadline.is_some() {
            if a.until_clock == 0 {
                let now = Instant::now();
                if a.deadline.is_some_and(|d| now >= d) {
                    a.spent = Some(Limit::Time);
                }
                a.spacing =
                    if now.duration_since(a.last_read) > HEAVY { 0 } else { (2 * a.spacing).clamp(1, CLOCK_EVERY) };
                a.until_clock = a.spacing;
                a.last_read = now;
            } else {
                a.until_clock -= 1;
            }
        }
        c.set(Some(a));
        match a.spent {
            Some(limit) => Err(Uncertain::Exhausted(limit)),
            None => Ok(()),
        }
    })
}

/// Charge `bits` of derived exact values to the current budget: [`Uncertain::Exhausted`] with
/// [`Limit::Bits`] once they exceed its bits.
pub fn charge_bits(bits: u64) -> Decision<()> {
    CURRENT.with(|c| {
        let Some(mut a) = c.get() else { return Ok(()) };
        if let Some(left) = a.bits_left.as_mut() {
            if bits > *left {
                a.spent = Some(Limit::Bits);
            } else {
                *left -= bits;
            }
        }
        c.set(Some(a));
        match a.spent {
            Some(limit) => Err(Uncertain::Exhausted(limit)),
            None => Ok(()),
        }
    })
}

/// Which limit the current budget ran into, if any.
pub fn spent() -> Option<Limit> {
    CURRENT.with(|c| c.get().and_then(|a| a.spent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_run_out_and_stay_out() {
        let b = Budget { time: None, steps: Some(10), bits: None };
        with_budget(b, || {
            for _ in 0..10 {
                assert_eq!(tick(), Ok(()));
            }
            assert_eq!(tick(), Err(Uncertain::Exhausted(Limit::Steps)));
            assert_eq!(tick(), Err(Uncertain::Exhausted(Limit::Steps)));
            assert_eq!(spent(), Some(Limit::Steps));
        });
        assert_eq!((tick(), spent()), (Ok(()), None));
    }

    #[test]
    fn bits_run_out() {
        with_budget(Budget { time: None, steps: None, bits: Some(100) }, || {
            assert_eq!(charge_bits(60), Ok(()));
            assert_eq!(charge_bits(60), Err(Uncertain::Exhausted(Limit::Bits)));
            assert_eq!(tick(), Err(Uncertain::Exhausted(Limit::Bits)));
        });
    }

    #[test]
    fn time_runs_out() {
        let b = Budget { time: Some(Duration::from_millis(20)), steps: None, bits: None };
        let start = Instant::now();
        let r = with_budget(b, || loop {
            if let Err(e) = tick() {
                return e;
            }
        });
        assert_eq!(r, Uncertain::Exhausted(Limit::Time));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(20) && took < Duration::from_secs(5), "{took:?}");
    }

    #[test]
    fn heavy_ticks_read_the_clock_every_time() {
        // Ticks of 3 ms each: after the first heavy gap the clock is read at every tick, so a
        // 20 ms budget ends within a tick or two of its deadline, not 64 ticks (190 ms) later.
        let b = Budget { time: Some(Duration::from_millis(20)), steps: None, bits: None };
        let start = Instant::now();
        let ticks = with_budget(b, || {
            let mut n = 0;
            while tick().is_ok() {
                std::thread::sleep(Duration::from_millis(3));
                n += 1;
            }
            n
        });
        let took = start.elapsed();
        assert!(took < Duration::from_millis(20 + 3 * 3 + 50), "{took:?} after {ticks} ticks");
        assert!((6..=9).contains(&ticks), "{ticks} ticks");
    }

    #[test]
    fn budgets_nest_and_are_restored_after_a_panic() {
        with_budget(Budget { time: None, steps: Some(100), bits: None }, || {
            let inner = std::panic::catch_unwind(|| {
                with_budget(Budget { time: None, steps: Some(0), bits: None }, || {
                    assert!(tick().is_err());
                    panic!("unwinding through the budget");
                })
            });
            assert!(inner.is_err());
            // The outer budget is back, with its own steps.
            assert_eq!(tick(), Ok(()));
        });
    }
}
