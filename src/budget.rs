//! Cooperative limits: a per-query budget of time and steps, checked inside the long loops.
//!
//! Exact arithmetic on hostile input can take very long (deep root separation, huge hulls,
//! validation of big solids). A caller that must bound a query runs it under [`with_budget`];
//! every long loop of the crate (V-Clip and Lin–Canny steps, hull insertion, solid validation,
//! root isolation and refinement, algebraic comparisons, the box sweep's sections and
//! candidates, interval subdivision) calls [`tick`], which fails with
//! `Err(limit)` once the budget is spent. That error travels the same `?` path as
//! every other undecided decision, so the computation stops where it is: nothing keeps running
//! after the answer (no thread is abandoned), and the query layer reports a `limit` error that
//! names the limit.
//!
//! Memory is a budgeted resource like time and steps. A program that wants it counted installs
//! a metering global allocator that reports each block to [`note_alloc`] and [`note_free`] (the
//! `touchstone` binary wraps its allocator so): the bytes a query's thread holds beyond what it
//! held when the budget began are its memory, and the first tick after they pass
//! [`Budget::memory`] fails with [`Limit::Memory`]. The structures that grow without bound on
//! hostile input (the Brep-index's arenas and nodes, contact regions, hull faces, the
//! polynomials of root isolation's bisections) also ask [`reserve`] before they grow, so a single large block that would pass the
//! limit is refused before it is allocated, with or without a metering allocator: the peak of a
//! query stays within its limit plus the blocks allocated since its last tick.
//!
//! Without a budget (the default) `tick` costs one thread-local read and never fails.
//!
//! ```
//! use std::time::Duration;
//! use touchstone::budget::{tick, with_budget, Budget, Limit};
//! use touchstone::scalar::Uncertain;
//!
//! let b = Budget { steps: Some(3), ..Budget::default() };
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

/// Which limit of a query's budget ran out. The scalar layer carries it as
/// `Uncertain::Exhausted` (this module sits below `scalar` and does not know it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The time per query.
    Time,
    /// The steps per query.
    Steps,
    /// The bits of the exact values a query derives (posed coordinates).
    Bits,
    /// The memory a query holds at once.
    Memory,
}

/// The result of a budget check: `Err` names the limit that ran out. `?` turns it into
/// `Uncertain::Exhausted`.
pub type Spent = Result<(), Limit>;

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
    /// The most bytes of memory it may hold at once beyond what its thread held when it began
    /// (counted by a metering allocator through [`note_alloc`], and by [`reserve`] before the
    /// large structures grow).
    pub memory: Option<u64>,
}

#[derive(Clone, Copy)]
struct Active {
    deadline: Option<Instant>,
    steps_left: Option<u64>,
    bits_left: Option<u64>,
    /// The ticks granted to pass unchecked at the last accounting (see [`FREE`]).
    granted: u32,
    /// The current spacing of clock readings: doubles up to [`CLOCK_EVERY`] while ticks are
    /// light, back to every tick when they are heavy.
    spacing: u32,
    /// When the clock was last read.
    last_read: Instant,
    spent: Option<Limit>,
    /// [`LIVE`] when the budget began, if it limits memory.
    memory_start: Option<i64>,
}

/// The memory of the current budget, in the terms of [`LIVE`]: the level its bytes may reach.
/// `i64::MAX` without a memory limit.
const NO_MEMORY_LIMIT: i64 = i64::MAX;

thread_local! {
    static CURRENT: Cell<Option<Active>> = const { Cell::new(None) };
    /// How many more ticks may pass with no accounting: a tick that finds this positive only
    /// decrements it (the hot path of every loop); one that finds it zero does the accounting
    /// for the ticks that passed (steps, clock) and grants the next ones. Without a budget it
    /// is refilled to `u32::MAX`.
    static FREE: Cell<u32> = const { Cell::new(0) };
    /// The bytes this thread's allocations hold, as a metering allocator reports them
    /// ([`note_alloc`], [`note_free`]): a running sum (a block freed on another thread than the
    /// one that allocated it moves bytes between their sums, so only differences mean anything).
    /// A const-initialised cell with no destructor: an allocator may touch it at any time.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    /// The level of [`LIVE`] past which the current budget's memory is spent.
    static MEMORY_LEVEL: Cell<i64> = const { Cell::new(NO_MEMORY_LIMIT) };
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
    struct Restore(Option<Active>, u32, i64);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
            FREE.with(|c| c.set(self.1));
            MEMORY_LEVEL.with(|c| c.set(self.2));
        }
    }
    let now = Instant::now();
    let active = Active {
        deadline: budget.time.and_then(|t| now.checked_add(t)),
        steps_left: budget.steps,
        bits_left: budget.bits,
        granted: 0,
        spacing: 0,
        last_read: now,
        spent: None,
        memory_start: budget.memory.map(|_| LIVE.with(Cell::get)),
    };
    // An inner budget's memory is at most what the outer one has left.
    let outer_level = MEMORY_LEVEL.with(Cell::get);
    let level = match budget.memory {
        Some(m) => LIVE.with(Cell::get).saturating_add(i64::try_from(m).unwrap_or(i64::MAX)).min(outer_level),
        None => outer_level,
    };
    let _restore = Restore(
        CURRENT.with(|c| c.replace(Some(active))),
        FREE.with(|c| c.replace(0)),
        MEMORY_LEVEL.with(|c| c.replace(level)),
    );
    f()
}

/// One step of a long loop: `Err(limit)` once the current budget is spent (and on
/// every later call under it).
#[inline]
pub fn tick() -> Spent {
    let free = FREE.with(Cell::get);
    if free > 0 {
        FREE.with(|c| c.set(free - 1));
        return Ok(());
    }
    account()
}

/// The accounting of [`tick`] once its free ticks are used up: this tick and the `granted`
/// ones before it are charged, the clock is read when a deadline is set, and the next free
/// ticks are granted (at most the steps left, at most the clock spacing).
#[cold]
fn account() -> Spent {
    CURRENT.with(|c| {
        let Some(mut a) = c.get() else {
            FREE.with(|f| f.set(u32::MAX));
            return Ok(());
        };
        if let Some(limit) = a.spent {
            return Err(limit);
        }
        let charged = u64::from(a.granted) + 1;
        a.granted = 0;
        if LIVE.with(Cell::get) > MEMORY_LEVEL.with(Cell::get) {
            a.spent = Some(Limit::Memory);
        }
        if let Some(n) = a.steps_left.as_mut() {
            match n.checked_sub(charged) {
                Some(left) => *n = left,
                None => a.spent = Some(Limit::Steps),
            }
        }
        if a.spent.is_none() {
            if let Some(deadline) = a.deadline {
                let now = Instant::now();
                if now >= deadline {
                    a.spent = Some(Limit::Time);
                }
                a.spacing =
                    if now.duration_since(a.last_read) > HEAVY { 0 } else { (2 * a.spacing).clamp(1, CLOCK_EVERY) };
                a.last_read = now;
                a.granted = a.spacing;
            } else {
                a.granted = u32::MAX;
            }
            if let Some(n) = a.steps_left {
                a.granted = a.granted.min(u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
        if a.spent.is_some() {
            a.granted = 0;
        }
        c.set(Some(a));
        FREE.with(|f| f.set(a.granted));
        match a.spent {
            Some(limit) => Err(limit),
            None => Ok(()),
        }
    })
}

/// The steps the current budget has left, counting the ticks taken since its last accounting
/// (`None` without a budget or without a step limit). A memo that serves a result another query
/// built compares it with the ticks the build took, and charges them with [`charge_steps`]: a
/// step limit then gives the same answers whether the result is served or built.
pub fn steps_left() -> Option<u64> {
    CURRENT.with(|c| {
        let a = c.get()?;
        let left = a.steps_left?;
        // The ticks granted at the last accounting are charged at the next one; `granted -
        // FREE` of them have passed.
        let passed = u64::from(a.granted.saturating_sub(FREE.with(Cell::get)));
        Some(if a.spent.is_some() { 0 } else { left.saturating_sub(passed) })
    })
}

/// Charge `n` ticks at once to the current budget's steps (a result served instead of built:
/// see [`steps_left`]). `Err` with [`Limit::Steps`] when fewer are left, as `n` ticks would
/// have failed; other limits are not checked here (the next [`tick`] does).
pub fn charge_steps(n: u64) -> Spent {
    CURRENT.with(|c| {
        let Some(mut a) = c.get() else { return Ok(()) };
        if let Some(limit) = a.spent {
            return Err(limit);
        }
        let Some(left) = a.steps_left else { return Ok(()) };
        let free = FREE.with(Cell::get);
        // The granted ticks that passed are charged now, with the `n`; those still free stay
        // granted (and are charged, as always, by the accounting that finds them used).
        let passed = u64::from(a.granted.saturating_sub(free));
        let result = match left.checked_sub(passed).and_then(|l| l.checked_sub(n)) {
            Some(rest) => {
                a.granted = free.min(u32::try_from(rest).unwrap_or(u32::MAX));
                a.steps_left = Some(rest);
                Ok(())
            }
            None => {
                a.spent = Some(Limit::Steps);
                a.granted = 0;
                Err(Limit::Steps)
            }
        };
        c.set(Some(a));
        FREE.with(|f| f.set(a.granted));
        result
    })
}

/// The bits the current budget has left to charge ([`charge_bits`]; `None` without a budget or
/// without a bits limit, 0 once any limit is spent).
pub fn bits_left() -> Option<u64> {
    CURRENT.with(|c| {
        let a = c.get()?;
        let left = a.bits_left?;
        Some(if a.spent.is_some() { 0 } else { left })
    })
}

/// Charge `bits` of derived exact values to the current budget: `Err` with
/// [`Limit::Bits`] once they exceed its bits.
pub fn charge_bits(bits: u64) -> Spent {
    CURRENT.with(|c| {
        let Some(mut a) = c.get() else { return Ok(()) };
        if let Some(left) = a.bits_left.as_mut() {
            if bits > *left {
                a.spent = Some(Limit::Bits);
                // Every later tick fails: none passes unchecked.
                FREE.with(|f| f.set(0));
            } else {
                *left -= bits;
            }
        }
        c.set(Some(a));
        match a.spent {
            Some(limit) => Err(limit),
            None => Ok(()),
        }
    })
}

/// A metering allocator's report: `bytes` were allocated on this thread. When they take the
/// thread past its budget's memory, the next [`tick`] does the accounting (and fails).
///
/// Safe to call from a `GlobalAlloc` implementation: it touches only const-initialised
/// thread-local cells (no allocation, no destructor).
#[inline]
pub fn note_alloc(bytes: usize) {
    let live = LIVE.with(|c| {
        let v = c.get().wrapping_add(bytes as i64);
        c.set(v);
        v
    });
    if live > MEMORY_LEVEL.with(Cell::get) {
        FREE.with(|f| f.set(0));
    }
}

/// A metering allocator's report: `bytes` were freed on this thread.
#[inline]
pub fn note_free(bytes: usize) {
    LIVE.with(|c| c.set(c.get().wrapping_sub(bytes as i64)));
}

/// Ask for room for `bytes` more before a structure grows: `Err` with
/// [`Limit::Memory`] when the current budget's memory cannot hold them (and on every later tick
/// under it). Structures that grow without bound on hostile input call it (through
/// [`reserve_for`]) so that a single large block past the limit is never allocated.
pub fn reserve(bytes: usize) -> Spent {
    let level = MEMORY_LEVEL.with(Cell::get);
    if level == NO_MEMORY_LIMIT {
        return Ok(());
    }
    let live = LIVE.with(Cell::get);
    if live.saturating_add(i64::try_from(bytes).unwrap_or(i64::MAX)) <= level {
        return Ok(());
    }
    CURRENT.with(|c| {
        if let Some(mut a) = c.get() {
            a.spent = Some(Limit::Memory);
            a.granted = 0;
            c.set(Some(a));
        }
    });
    FREE.with(|f| f.set(0));
    Err(Limit::Memory)
}

/// [`reserve`] the block `v` would allocate to hold `additional` more elements, when it would
/// (its capacity is too small: a vector grows to at least twice its capacity).
pub fn reserve_for<T>(v: &Vec<T>, additional: usize) -> Spent {
    if v.capacity() - v.len() >= additional {
        return Ok(());
    }
    let want = v.len().saturating_add(additional).max(v.capacity().saturating_mul(2));
    reserve(want.saturating_mul(std::mem::size_of::<T>().max(1)))
}

/// [`Vec::push`] after [`reserve_for`].
pub fn push<T>(v: &mut Vec<T>, x: T) -> Spent {
    reserve_for(v, 1)?;
    v.push(x);
    Ok(())
}

/// The bytes the current budget's thread holds beyond what it held when the budget began, as
/// a metering allocator reported them (0 without one, or without a memory limit).
pub fn memory_used() -> u64 {
    CURRENT.with(|c| c.get()).map_or(0, |a| a.memory_start.map_or(0, |s| (LIVE.with(Cell::get) - s).max(0) as u64))
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
        let b = Budget { time: None, steps: Some(10), bits: None, memory: None };
        with_budget(b, || {
            for _ in 0..10 {
                assert_eq!(tick(), Ok(()));
            }
            assert_eq!(tick(), Err(Limit::Steps));
            assert_eq!(tick(), Err(Limit::Steps));
            assert_eq!(spent(), Some(Limit::Steps));
        });
        assert_eq!((tick(), spent()), (Ok(()), None));
    }

    #[test]
    fn steps_are_counted_exactly_with_a_deadline_and_across_a_nested_budget() {
        // Free ticks are granted in runs (the clock spacing, the steps left): the count must
        // still end on the exact tick, and an inner budget's ticks are not the outer's.
        let b = Budget { time: Some(Duration::from_secs(3600)), steps: Some(1000), bits: None, memory: None };
        let ok = with_budget(b, || (0..2000).take_while(|_| tick().is_ok()).count());
        assert_eq!(ok, 1000);
        with_budget(Budget { time: None, steps: Some(100), bits: None, memory: None }, || {
            for _ in 0..30 {
                assert_eq!(tick(), Ok(()));
            }
            let inner = with_budget(
                Budget { time: Some(Duration::from_secs(3600)), steps: Some(50), bits: None, memory: None },
                || (0..80).take_while(|_| tick().is_ok()).count(),
            );
            assert_eq!(inner, 50);
            let rest = (0..200).take_while(|_| tick().is_ok()).count();
            assert_eq!(rest, 70);
        });
    }

    #[test]
    fn charged_steps_count_as_ticks() {
        // `charge_steps(n)` is n ticks: the same tick fails, with or without a deadline (free
        // ticks granted in runs), charged at any point of a run.
        for time in [None, Some(Duration::from_secs(3600))] {
            for at in [0u64, 1, 7, 63, 64, 65, 300] {
                let b = Budget { time, steps: Some(1000), bits: None, memory: None };
                let ok = with_budget(b, || {
                    for _ in 0..at {
                        tick().expect("within the limit");
                    }
                    assert_eq!(steps_left(), Some(1000 - at));
                    assert_eq!(charge_steps(400), Ok(()));
                    assert_eq!(steps_left(), Some(600 - at));
                    (0..2000).take_while(|_| tick().is_ok()).count()
                });
                assert_eq!(ok as u64, 600 - at, "{time:?} after {at}");
            }
        }
        let b = Budget { time: None, steps: Some(10), bits: None, memory: None };
        with_budget(b, || {
            assert_eq!(charge_steps(10), Ok(()));
            assert_eq!(steps_left(), Some(0));
            assert_eq!(charge_steps(1), Err(Limit::Steps));
            assert_eq!(tick(), Err(Limit::Steps));
            assert_eq!(steps_left(), Some(0));
        });
        // Without a step limit nothing is counted or refused.
        assert_eq!((steps_left(), charge_steps(u64::MAX)), (None, Ok(())));
    }

    #[test]
    fn bits_run_out() {
        with_budget(Budget { time: None, steps: None, bits: Some(100), memory: None }, || {
            assert_eq!(charge_bits(60), Ok(()));
            assert_eq!(charge_bits(60), Err(Limit::Bits));
            assert_eq!(tick(), Err(Limit::Bits));
        });
    }

    #[test]
    fn time_runs_out() {
        let b = Budget { time: Some(Duration::from_millis(20)), steps: None, bits: None, memory: None };
        let start = Instant::now();
        let r = with_budget(b, || loop {
            if let Err(e) = tick() {
                return e;
            }
        });
        assert_eq!(r, Limit::Time);
        // Not before the deadline (how long after it depends on the machine's load: the limit
        // error is the proof it fired, and the heavy-tick test bounds the overshoot in ticks).
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(20), "{took:?}");
    }

    #[test]
    fn heavy_ticks_read_the_clock_every_time() {
        // Ticks of at least 3 ms each (a sleep never returns early), so every gap is heavy:
        // from the third tick on the clock is read at every tick, and a tick that starts past
        // the deadline fails. Only the second tick passes unchecked (the first reading found
        // the gap since the budget began light), so at most one tick may succeed after the
        // deadline, however slow the machine is: nothing here depends on how long a sleep
        // overshoots. With the clock read every 64 ticks, a dozen would.
        let limit = Duration::from_millis(20);
        let b = Budget { time: Some(limit), steps: None, bits: None, memory: None };
        let (ticks, late) = with_budget(b, || {
            // Read after the budget's own start, so no earlier than its deadline.
            let deadline = Instant::now() + limit;
            let (mut n, mut late) = (0, 0);
            while n < 1000 {
                let past = Instant::now() >= deadline;
                if tick().is_err() {
                    break;
                }
                n += 1;
                late += u32::from(past);
                std::thread::sleep(Duration::from_millis(3));
            }
            (n, late)
        });
        assert!(late <= 1, "{late} of {ticks} ticks passed after the deadline");
        assert!((1..1000).contains(&ticks), "{ticks} ticks");
        assert_eq!(tick(), Ok(()));
    }

    #[test]
    fn memory_runs_out_at_a_reservation_or_at_the_tick_after_an_allocation() {
        let mib = 1 << 20;
        with_budget(Budget { memory: Some(8 * mib as u64), ..Budget::default() }, || {
            // Reservations within the limit pass; one past it fails, and so does every tick.
            assert_eq!(reserve(4 * mib), Ok(()));
            assert_eq!(reserve(9 * mib), Err(Limit::Memory));
            assert_eq!(tick(), Err(Limit::Memory));
            assert_eq!(spent(), Some(Limit::Memory));
        });
        // A metering allocator's reports: the tick after the bytes pass the limit fails.
        with_budget(Budget { memory: Some(8 * mib as u64), ..Budget::default() }, || {
            for _ in 0..100 {
                assert_eq!(tick(), Ok(()));
            }
            note_alloc(5 * mib);
            assert_eq!(memory_used(), 5 * mib as u64);
            assert_eq!(tick(), Ok(()));
            note_free(5 * mib);
            note_alloc(7 * mib);
            assert_eq!(tick(), Ok(()), "freed bytes are not counted");
            note_alloc(2 * mib);
            assert_eq!(tick(), Err(Limit::Memory));
            note_free(9 * mib);
        });
        // Bytes held before the budget began are not its own; an inner budget has at most what
        // the outer one has left.
        note_alloc(100 * mib);
        with_budget(Budget { memory: Some(8 * mib as u64), ..Budget::default() }, || {
            assert_eq!(tick(), Ok(()));
            note_alloc(6 * mib);
            with_budget(Budget { memory: Some(64 * mib as u64), ..Budget::default() }, || {
                assert_eq!(reserve(2 * mib), Ok(()));
                assert_eq!(reserve(3 * mib), Err(Limit::Memory));
            });
            note_free(6 * mib);
        });
        note_free(100 * mib);
        // Without a memory limit nothing is refused.
        assert_eq!(reserve(usize::MAX), Ok(()));
        let v: Vec<u64> = Vec::new();
        assert_eq!(reserve_for(&v, 1 << 40), Ok(()));
    }

    #[test]
    fn budgets_nest_and_are_restored_after_a_panic() {
        with_budget(Budget { time: None, steps: Some(100), bits: None, memory: None }, || {
            let inner = std::panic::catch_unwind(|| {
                with_budget(Budget { time: None, steps: Some(0), bits: None, memory: None }, || {
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
