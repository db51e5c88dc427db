//! The thread's memo of posed solids and their Brep-indices: a batch that asks many questions
//! of one solid (points and segments classified against a mesh, the `f64` and exact runs of
//! one query, its answer and its margin) poses, validates and indexes it once.
//!
//! A posed solid (and the answer to whether it is convex, with its strictly convex form) is
//! kept under its whole query spec ([`Posed`]: the shape, its pose, their paths) and its
//! backend, the last [`SLOTS`] of them per thread, most recently used first, and at most
//! [`MAX_TOTAL_WEIGHT`] vertices and face corners in all; solids larger than [`MAX_WEIGHT`], and
//! indices of more than [`MAX_NODES`] nodes, are built per query and not kept. A served value is the very value a build would
//! give (the same deterministic code on equal inputs), and it costs the query the same budget:
//! the steps and the bits the build took are charged again ([`crate::budget::charge_steps`],
//! [`crate::budget::charge_bits`]); a query whose limits could not pay for them (or under a
//! limit that did not count the build) builds instead, so step and bit limits give the same
//! answers, and the same errors, served or built. Only the clock and the memory a query holds
//! differ (served values take less of both). Errors are not kept.
//!
//! ```
//! use num_rational::BigRational;
//! use touchstone::query::{shared_solid, PoseSpec, Posed, ShapeSpec};
//!
//! let r = |n: i64| BigRational::from_integer(n.into());
//! let posed = Posed::new("solid", ShapeSpec::Box([r(1), r(2), r(3)]), PoseSpec::identity());
//! let first = shared_solid::<BigRational, BigRational>(&posed).unwrap();
//! let again = shared_solid::<BigRational, BigRational>(&posed).unwrap();
//! assert!(std::rc::Rc::ptr_eq(&first, &again)); // posed and validated once
//! let index = again.index("/solid").unwrap(); // the hybrid Brep-index, built once too
//! assert!(std::rc::Rc::ptr_eq(&index, &first.index("/solid").unwrap()));
//! touchstone::query::clear_memo();
//! ```

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use super::error::QueryError;
use super::spec::{Posed, SolidPosed};
use crate::budget;
use crate::contract::Margin;
use crate::msp::{MspError, MspTree, Options, Split};
use crate::scalar::Scalar;

/// How many posed solids a thread keeps (a query's `f64`, filter and exact runs of two solids,
/// and its reference, fit).
pub const SLOTS: usize = 8;

/// The most vertices plus face corners of a solid the memo keeps.
pub const MAX_WEIGHT: usize = 1 << 18;

/// The most vertices and face corners of all the solids the memo keeps: the least recently
/// used go first (with the slots' count, this bounds what a thread holds between queries).
pub const MAX_TOTAL_WEIGHT: usize = 1 << 19;

/// The most nodes of a Brep-index the memo keeps.
pub const MAX_NODES: usize = 1 << 18;

/// A posed solid shared through the thread's memo, with its Brep-index and its contract margin
/// once they are asked for.
pub struct SharedSolid<S: Scalar> {
    posed: SolidPosed<S>,
    index: RefCell<Option<(Rc<MspTree<S>>, Cost)>>,
    margin: RefCell<Option<Margin>>,
}

impl<S: Scalar> std::fmt::Debug for SharedSolid<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedSolid").field("posed", &self.posed).finish_non_exhaustive()
    }
}

impl<S: Scalar> SharedSolid<S> {
    /// The posed solid.
    pub fn posed(&self) -> &SolidPosed<S> {
        &self.posed
    }

    /// Its Brep-index, the ops' hybrid split ([`crate::msp::Split::HYBRID`]), built on first
    /// use (errors are named at `at`, the solid's path, and not kept).
    pub fn index(&self, at: &str) -> Result<Rc<MspTree<S>>, QueryError> {
        let kept = self.index.borrow().as_ref().map(|(t, cost)| (t.clone(), *cost));
        if let Some((tree, cost)) = kept {
            if serve(cost) {
                return Ok(tree);
            }
        }
        let (tree, cost) = measured(|| index_of(&self.posed, at))?;
        let tree = Rc::new(tree);
        if tree.nodes().len() <= MAX_NODES {
            *self.index.borrow_mut() = Some((tree.clone(), cost));
        }
        Ok(tree)
    }

    /// The margin `f` gives of the posed solid, computed on first use (a margin takes no steps).
    pub(crate) fn margin_with(&self, f: impl FnOnce(&SolidPosed<S>) -> Margin) -> Margin {
        if let Some(m) = self.margin.borrow().as_ref() {
            return m.clone();
        }
        let m = f(&self.posed);
        *self.margin.borrow_mut() = Some(m.clone());
        m
    }
}

/// The index the ops build: the hybrid split ([`Split::HYBRID`]).
fn index_of<S: Scalar>(g: &SolidPosed<S>, at: &str) -> Result<MspTree<S>, QueryError> {
    build_index(&g.built.solid, Split::HYBRID, at)
}

/// The Brep-index of `s` by `split`, its errors named at `at`.
pub(super) fn build_index<S: Scalar>(
    s: &crate::brep::Solid<S>,
    split: Split,
    at: &str,
) -> Result<MspTree<S>, QueryError> {
    MspTree::build(s, &Options { split, ..Options::default() }).map_err(|e| match e {
        MspError::Uncertain(u) => QueryError::uncertain(at, u),
        // The index multiplies plane coefficients three deep: with numbers beyond 2^±300 a
        // binary64 product leaves the range (underflows to zero or overflows), which is what
        // its degenerate decision then was.
        MspError::Precision(_) if !S::EXACT_VALUES && !in_product_range(s) => {
            QueryError::uncertain(at, crate::scalar::Uncertain::Overflow)
        }
        MspError::Precision(m) => QueryError::new(super::error::ErrorKind::Precision, at, m),
    })
}

/// Whether every nonzero coordinate and plane coefficient of `s` lies in [2^-300, 2^300].
fn in_product_range<S: Scalar>(s: &crate::brep::Solid<S>) -> bool {
    super::spec::in_product_range(s.vertices().iter().flat_map(|v| v.iter()))
        && (0..s.face_count())
            .all(|f| super::spec::in_product_range(s.plane(f).normal.iter().chain(std::iter::once(&s.plane(f).offset))))
}

/// A kept value and what its build cost the budget.
struct Kept<V> {
    value: Rc<V>,
    cost: Cost,
}

/// The steps and the bits a build took, each when a limit counted it.
#[derive(Clone, Copy, Debug, Default)]
struct Cost {
    steps: Option<u64>,
    bits: Option<u64>,
}

struct Slot {
    key: Box<dyn Any>,
    value: Rc<dyn Any>,
    weight: usize,
}

thread_local! {
    static MEMO: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// `p` posed on `S` ([`super::posed_solid`]), served from the thread's memo when it was posed
/// before on this thread, else posed and kept.
pub fn shared_solid<S: Scalar, N: Scalar>(p: &Posed<N>) -> Result<Rc<SharedSolid<S>>, QueryError> {
    memoized(
        p,
        || {
            // On a filter backend, the exact run's solid (kept too) carried over decided.
            let posed = if S::FILTER {
                super::spec::on_filter::<S, N>(shared_solid::<crate::scalar::Exact, N>(p)?.posed(), p)?
            } else {
                super::spec::posed_solid::<S, N>(p)?
            };
            Ok(SharedSolid { posed, index: RefCell::new(None), margin: RefCell::new(None) })
        },
        |s| weight(&s.posed.built.solid),
    )
}

/// `p` posed on `S` and made strictly convex ([`super::spec::posed_convex`]), or `None` when
/// it is not convex (the refusal is a property of the shape: kept as an answer), through the
/// thread's memo.
pub(crate) fn shared_convex<S: Scalar, N: Scalar>(
    p: &Posed<N>,
) -> Result<Rc<Option<super::spec::ConvexPosed<S>>>, QueryError> {
    let build = || match super::spec::posed_convex::<S, N>(p) {
        Ok(c) => Ok(Some(c)),
        Err(e) if e.kind == super::error::ErrorKind::Invalid && e.message.contains("not convex") => Ok(None),
        Err(e) => Err(e),
    };
    // A box is posed directly (eight corners, no validation): cheaper than comparing its spec
    // with the kept ones (`Ratio`'s comparison of unequal numbers divides), so not kept.
    if matches!(p.shape, super::spec::ShapeSpec::Box(_)) {
        return build().map(Rc::new);
    }
    memoized(p, build, |c| c.as_ref().map_or(0, |c| weight(&c.built.solid)))
}

/// The vertices and face corners of `s`.
fn weight<S: Scalar>(s: &crate::brep::Solid<S>) -> usize {
    s.vertex_count() + (0..s.face_count()).map(|f| s.face(f).len()).sum::<usize>()
}

/// The value `build` gives for `p`, served from the memo (with the build's steps and bits
/// charged) or built and kept (when its weight is at most [`MAX_WEIGHT`]). `V` names what
/// is kept (with its backend): the memo keeps one of each per spec.
fn memoized<V: 'static, N: Scalar>(
    p: &Posed<N>,
    build: impl FnOnce() -> Result<V, QueryError>,
    weight: impl Fn(&V) -> usize,
) -> Result<Rc<V>, QueryError> {
    if let Some((value, cost)) = lookup::<V, N>(p) {
        if serve(cost) {
            return Ok(value);
        }
    }
    let (value, cost) = measured(build)?;
    let value = Rc::new(value);
    let w = weight(&value);
    if w <= MAX_WEIGHT {
        insert(p, Kept { value: value.clone(), cost }, w);
    }
    Ok(value)
}

/// Drop every solid and index the thread's memo keeps.
pub fn clear_memo() {
    // Taken out first: dropping solids runs no memo code, but keep the borrow short anyway.
    let slots = MEMO.with(|m| std::mem::take(&mut *m.borrow_mut()));
    drop(slots);
}

/// How many values (posed solids, convex or not) the thread's memo keeps now.
pub fn memo_len() -> usize {
    MEMO.with(|m| m.borrow().len())
}

/// The kept `V` of `p` and its build's cost, moved to the front.
///
/// The kind is compared first: one spec is kept under several kinds and backends, and comparing
/// specs is linear in the shape.
fn lookup<V: 'static, N: Scalar>(p: &Posed<N>) -> Option<(Rc<V>, Cost)> {
    MEMO.with(|m| {
        let mut slots = m.borrow_mut();
        let i = slots.iter().position(|s| s.value.is::<Kept<V>>() && s.key.downcast_ref::<Posed<N>>() == Some(p))?;
        let slot = slots.remove(i);
        let kept = slot.value.downcast_ref::<Kept<V>>().map(|k| (k.value.clone(), k.cost));
        slots.insert(0, slot);
        kept
    })
}

/// Keep `kept` (of weight `weight`) as `p`'s, in front, replacing an older one; the least
/// recently used go beyond [`SLOTS`] values or [`MAX_TOTAL_WEIGHT`].
fn insert<V: 'static, N: Scalar>(p: &Posed<N>, kept: Kept<V>, weight: usize) {
    let evicted = MEMO.with(|m| {
        let mut slots = m.borrow_mut();
        slots.retain(|s| !(s.value.is::<Kept<V>>() && s.key.downcast_ref::<Posed<N>>() == Some(p)));
        slots.insert(0, Slot { key: Box::new(p.clone()), value: Rc::new(kept), weight });
        let (mut keep, mut total) = (0, 0);
        while keep < slots.len().min(SLOTS) && total + slots[keep].weight <= MAX_TOTAL_WEIGHT {
            total += slots[keep].weight;
            keep += 1;
        }
        slots.split_off(keep)
    });
    drop(evicted);
}

/// `build`'s value and what it cost the budget.
fn measured<T>(build: impl FnOnce() -> Result<T, QueryError>) -> Result<(T, Cost), QueryError> {
    let (steps, bits) = (budget::steps_left(), budget::bits_left());
    let value = build()?;
    let spent = |before: Option<u64>, after: Option<u64>| before.zip(after).map(|(b, a)| b.saturating_sub(a));
    Ok((value, Cost { steps: spent(steps, budget::steps_left()), bits: spent(bits, budget::bits_left()) }))
}

/// Whether a result whose build cost `cost` can be served under the current budget (every
/// limit the budget sets counted the build, and has that much left), and if so charge it: the
/// bits first, then the steps, as a build charges them.
fn serve(cost: Cost) -> bool {
    let fits = |left: Option<u64>, took: Option<u64>| left.is_none_or(|l| took.is_some_and(|n| n <= l));
    if !(fits(budget::steps_left(), cost.steps) && fits(budget::bits_left(), cost.bits)) {
        return false;
    }
    cost.bits.is_none_or(|n| budget::charge_bits(n).is_ok())
        && cost.steps.is_none_or(|n| budget::charge_steps(n).is_ok())
}
