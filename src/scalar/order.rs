//! Sorting and deduplicating by fallible comparisons.
//!
//! Algorithms order values with [`Scalar::compare`](super::Scalar::compare), which may return
//! [`Uncertain`](super::Uncertain) on a backend with certain decisions (intervals). `slice::sort_by` needs a
//! total order and may panic when a comparator is inconsistent; these helpers stop at the first
//! uncertain comparison instead and never panic.

use std::cmp::Ordering;

use super::Decision;
#[cfg(test)]
use super::Uncertain;

/// Sort `v` stably by `cmp`; the first [`Uncertain`](super::Uncertain) comparison is returned (and `v` is left
/// in some permutation of its elements).
///
/// A merge sort: O(n log n) comparisons, and each comparison's answer is used once, so an
/// inconsistent comparator (a tolerant one) gives some order, never a panic.
///
/// ```
/// use touchstone::scalar::{try_sort_by, Scalar};
/// let mut v = vec![3.0, -1.0, 2.0];
/// try_sort_by(&mut v, |a: &f64, b: &f64| a.compare(b)).unwrap();
/// assert_eq!(v, [-1.0, 2.0, 3.0]);
/// ```
pub fn try_sort_by<T: Clone>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Decision<Ordering>) -> Decision<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let mut buf: Vec<T> = v.to_vec();
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // A comparison of huge exact values can be slow: one step of the query's budget.
                crate::budget::tick()?;
                if cmp(&v[j], &v[i])? == Ordering::Less {
                    buf[k] = v[j].clone();
                    j += 1;
                } else {
                    buf[k] = v[i].clone();
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].clone_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].clone_from_slice(&v[j..end]);
            start = end;
        }
        v.clone_from_slice(&buf);
        width *= 2;
    }
    Ok(())
}

/// Remove consecutive elements that compare `Equal` to the one kept before them.
pub fn try_dedup_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Decision<Ordering>) -> Decision<()> {
    let mut out: Vec<T> = Vec::with_capacity(v.len());
    for x in v.drain(..) {
        match out.last() {
            Some(last) if cmp(last, &x)? == Ordering::Equal => {}
            _ => out.push(x),
        }
    }
    *v = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_and_dedups() {
        let mut v: Vec<(i32, char)> = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        try_sort_by(&mut v, |a, b| Ok(a.0.cmp(&b.0))).unwrap();
        assert_eq!(v, [(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        try_dedup_by(&mut v, |a, b| Ok(a.0.cmp(&b.0))).unwrap();
        assert_eq!(v, [(1, 'b'), (2, 'd'), (3, 'a')]);
    }

    #[test]
    fn every_length_is_sorted() {
        for n in 0..40 {
            let mut v: Vec<u64> = (0..n).map(|i| (i * 7919 + 13) % 31).collect();
            let mut expected = v.clone();
            expected.sort();
            try_sort_by(&mut v, |a, b| Ok(a.cmp(b))).unwrap();
            assert_eq!(v, expected);
        }
    }

    #[test]
    fn an_uncertain_comparison_stops_the_sort() {
        let mut v = vec![2, 1, 0];
        assert_eq!(
            try_sort_by(&mut v, |a: &i32, b: &i32| if *a == 0 || *b == 0 {
                Err(Uncertain::Close)
            } else {
                Ok(a.cmp(b))
            }),
            Err(Uncertain::Close)
        );
        let mut inconsistent = vec![5, 4, 3, 2, 1, 0, 9, 8];
        // A comparator that is not an order gives some permutation, never a panic.
        try_sort_by(&mut inconsistent, |a, b| Ok(if (a + b) % 3 == 0 { Ordering::Less } else { Ordering::Greater }))
            .unwrap();
        inconsistent.sort();
        assert_eq!(inconsistent, [0, 1, 2, 3, 4, 5, 8, 9]);
    }
}
