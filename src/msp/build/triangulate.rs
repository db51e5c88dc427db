//! Splitting a nonconvex face into convex pieces for the Brep-index's initial sets (§2.1) in
//! O(n log n): triangles by monotone decomposition, then merged across diagonals while both
//! ends stay convex (Hertel–Mehlhorn), so a comb's 1,000-gon cap becomes one piece per tooth
//! and a base instead of a thousand slivers (each cut plane of the index would split every
//! sliver it crosses: the index of a comb grew quadratically with ear clipping's triangles).

use std::collections::{HashMap, HashSet};

use super::MspError;
use crate::scalar::Sign;

/// A polygon's turn test (positive counterclockwise) and vertex order, over face vertex ids.
type Turn<'a> = &'a dyn Fn(usize, usize, usize) -> Result<Sign, MspError>;

/// Merge the triangles of a simple polygon (`face`, counterclockwise) across their diagonals
/// while both ends of a diagonal stay convex (weakly: a straight vertex is allowed, as in a
/// convex face kept whole), the Hertel–Mehlhorn heuristic: at most four times the fewest convex
/// pieces, in O(n) turns. Pieces are kept as rings of half-edges (`next`, `prev`), so a merge
/// is two relinks and two turns, whatever the pieces' sizes.
pub(super) fn merge_convex(
    face: &[usize],
    triangles: Vec<Vec<usize>>,
    turn: Turn,
) -> Result<Vec<Vec<usize>>, MspError> {
    let m = face.len();
    // Half-edges a → b, three per triangle, linked in rings.
    let mut from = Vec::with_capacity(3 * triangles.len());
    let mut to = Vec::with_capacity(3 * triangles.len());
    let mut next = Vec::with_capacity(3 * triangles.len());
    let mut prev = Vec::with_capacity(3 * triangles.len());
    for t in &triangles {
        let base = from.len();
        for k in 0..3 {
            from.push(t[k]);
            to.push(t[(k + 1) % 3]);
            next.push(base + (k + 1) % 3);
            prev.push(base + (k + 2) % 3);
        }
    }
    // Diagonals: half-edges not on a face side, paired with their twins.
    let position: HashMap<usize, usize> = face.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let is_side = |a: usize, b: usize| {
        let (Some(&i), Some(&j)) = (position.get(&a), position.get(&b)) else { return false };
        (i + 1) % m == j || (j + 1) % m == i
    };
    let mut twin_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut diagonals = Vec::new();
    for h in 0..from.len() {
        if is_side(from[h], to[h]) {
            continue;
        }
        if let Some(&t) = twin_of.get(&(to[h], from[h])) {
            diagonals.push((t, h));
        } else {
            twin_of.insert((from[h], to[h]), h);
        }
    }
    let mut removed = vec![false; from.len()];
    for (h, g) in diagonals {
        crate::budget::tick()?;
        // h: u → v in one piece, g: v → u in the other. Merged, u is entered by prev(h) and
        // left by next(g); v is entered by prev(g) and left by next(h).
        let (u, v) = (from[h], to[h]);
        let at_u = turn(from[prev[h]], u, to[next[g]])?;
        let at_v = turn(from[prev[g]], v, to[next[h]])?;
        if at_u == Sign::Negative || at_v == Sign::Negative {
            continue;
        }
        let (ph, nh, pg, ng) = (prev[h], next[h], prev[g], next[g]);
        next[ph] = ng;
        prev[ng] = ph;
        next[pg] = nh;
        prev[nh] = pg;
        removed[h] = true;
        removed[g] = true;
    }
    // Each remaining ring is a piece.
    let mut seen = vec![false; from.len()];
    let mut pieces = Vec::new();
    for start in 0..from.len() {
        if removed[start] || seen[start] {
            continue;
        }
        let mut piece = Vec::new();
        let mut h = start;
        loop {
            seen[h] = true;
            piece.push(from[h]);
            h = next[h];
            if h == start {
                break;
            }
            if piece.len() > m {
                return Err(MspError::Precision("a merged piece does not close".into()));
            }
        }
        pieces.push(piece);
    }
    Ok(pieces)
}

/// Triangles of a simple polygon by monotone decomposition (de Berg et al., *Computational
/// Geometry*, ch. 3): a sweep in the lexicographic order `key` of the projected vertices (ties
/// broken by it, as by an infinitesimal rotation) adds the diagonals that split the polygon
/// into y-monotone pieces, each then triangulated by the stack algorithm; every geometric
/// decision is a `turn`. The sweep's status is a vector searched linearly, so the cost is
/// O(n log n + n·w) predicates for a polygon whose sides the sweep line crosses at most w at a
/// time (four for a comb's cap). `None` on a configuration it does not handle (a vertex on a
/// side, a zero-area triangle): the caller then clips ears.
pub(super) fn monotone_triangles(
    face: &[usize],
    turn: Turn,
    key: &dyn Fn(usize, usize) -> Result<std::cmp::Ordering, MspError>,
) -> Result<Option<Vec<Vec<usize>>>, MspError> {
    use std::cmp::Ordering::*;
    let n = face.len();
    let v = |i: usize| face[i];
    let prev = |i: usize| (i + n - 1) % n;
    let next = |i: usize| (i + 1) % n;
    // i above j: later in the sweep (we sweep from the largest key down).
    let above = |i: usize, j: usize| -> Result<bool, MspError> { Ok(key(v(i), v(j))? == Greater) };
    #[derive(Clone, Copy, PartialEq)]
    enum T {
        Start,
        Split,
        End,
        Merge,
        Regular,
    }
    let mut ty = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (above(prev(i), i)?, above(next(i), i)?);
        let t = turn(v(prev(i)), v(i), v(next(i)))?;
        ty.push(match (a, b) {
            (false, false) => match t {
                Sign::Positive => T::Start,
                Sign::Negative => T::Split,
                Sign::Zero => return Ok(None),
            },
            (true, true) => match t {
                Sign::Positive => T::End,
                Sign::Negative => T::Merge,
                Sign::Zero => return Ok(None),
            },
            _ => T::Regular,
        });
    }
    let mut order: Vec<usize> = (0..n).collect();
    crate::scalar::try_sort_by(&mut order, |&a, &b| key(v(b), v(a)).map_err(|_| crate::scalar::Uncertain::Close))
        .map_err(MspError::Uncertain)?;
    // Status: (edge i = i -> next(i), helper).
    let mut status: Vec<(usize, usize)> = Vec::new();
    let mut diags: Vec<(usize, usize)> = Vec::new();
    // The edge of the status directly left of vertex i (i to its right, the nearest).
    let left_of = |status: &Vec<(usize, usize)>, i: usize| -> Result<Option<usize>, MspError> {
        let mut best: Option<usize> = None;
        for (k, &(e, _)) in status.iter().enumerate() {
            let o = turn(v(e), v(next(e)), v(i))?;
            if o == Sign::Zero {
                return Err(MspError::Precision("vertex on a side".into()));
            }
            if o != Sign::Positive {
                continue;
            }
            best = match best {
                None => Some(k),
                Some(b) => {
                    let f = status[b].0;
                    // Is e right of f (nearer i)? Test an endpoint of one against the other.
                    let (eu, el, fu, fl) = (e, next(e), f, next(f));
                    let right = if !above(eu, fu)? {
                        let t = turn(v(fu), v(fl), v(eu))?;
                        if t == Sign::Zero {
                            turn(v(fu), v(fl), v(el))? == Sign::Positive
                        } else {
                            t == Sign::Positive
                        }
                    } else {
                        let t = turn(v(eu), v(el), v(fu))?;
                        if t == Sign::Zero {
                            turn(v(eu), v(el), v(fl))? != Sign::Positive
                        } else {
                            t != Sign::Positive
                        }
                    };
                    if right {
                        Some(k)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        Ok(best)
    };
    let find = |status: &Vec<(usize, usize)>, e: usize| status.iter().position(|&(x, _)| x == e);
    for &i in &order {
        crate::budget::tick()?;
        match ty[i] {
            T::Start => status.push((i, i)),
            T::End => {
                let Some(k) = find(&status, prev(i)) else { return Ok(None) };
                if ty[status[k].1] == T::Merge {
                    diags.push((i, status[k].1));
                }
                status.remove(k);
            }
            T::Split => {
                let Some(k) = left_of(&status, i)? else { return Ok(None) };
                diags.push((i, status[k].1));
                status[k].1 = i;
                status.push((i, i));
            }
            T::Merge => {
                let Some(k) = find(&status, prev(i)) else { return Ok(None) };
                if ty[status[k].1] == T::Merge {
                    diags.push((i, status[k].1));
                }
                status.remove(k);
                let Some(k) = left_of(&status, i)? else { return Ok(None) };
                if ty[status[k].1] == T::Merge {
                    diags.push((i, status[k].1));
                }
                status[k].1 = i;
            }
            T::Regular => {
                // Interior to the right: the boundary goes down here (prev above, next below).
                if above(prev(i), i)? {
                    let Some(k) = find(&status, prev(i)) else { return Ok(None) };
                    if ty[status[k].1] == T::Merge {
                        diags.push((i, status[k].1));
                    }
                    status.remove(k);
                    status.push((i, i));
                } else {
                    let Some(k) = left_of(&status, i)? else { return Ok(None) };
                    if ty[status[k].1] == T::Merge {
                        diags.push((i, status[k].1));
                    }
                    status[k].1 = i;
                }
            }
        }
    }
    // Split the polygon along the diagonals into monotone pieces (face tracing).
    let mut nbr: Vec<Vec<usize>> = (0..n).map(|i| vec![prev(i), next(i)]).collect();
    for &(a, b) in &diags {
        nbr[a].push(b);
        nbr[b].push(a);
    }
    // Next vertex after arriving at x from u: the first neighbour of x clockwise from x -> u.
    let step = |u: usize, x: usize| -> Result<usize, MspError> {
        let mut best: Option<(u8, usize)> = None;
        for &w in &nbr[x] {
            if w == u {
                continue;
            }
            let o = turn(v(x), v(u), v(w))?;
            let half = if o == Sign::Negative { 0u8 } else { 1 };
            best = match best {
                None => Some((half, w)),
                Some((h, b)) => {
                    let better = half < h || (half == h && turn(v(x), v(b), v(w))? == Sign::Positive);
                    if better {
                        Some((half, w))
                    } else {
                        Some((h, b))
                    }
                }
            };
        }
        best.map(|(_, w)| w).ok_or_else(|| MspError::Precision("isolated".into()))
    };
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    let mut pieces: Vec<Vec<usize>> = Vec::new();
    let mut starts: Vec<(usize, usize)> = (0..n).map(|i| (i, next(i))).collect();
    for &(a, b) in &diags {
        starts.push((a, b));
        starts.push((b, a));
    }
    for (a, b) in starts {
        if used.contains(&(a, b)) {
            continue;
        }
        let mut cyc = vec![a];
        let (mut u, mut x) = (a, b);
        used.insert((u, x));
        while x != a {
            cyc.push(x);
            let w = step(u, x)?;
            u = x;
            x = w;
            if !used.insert((u, x)) {
                return Ok(None);
            }
            if cyc.len() > n {
                return Ok(None);
            }
        }
        pieces.push(cyc);
    }
    // Triangulate each monotone piece (the stack algorithm).
    let mut out = Vec::new();
    let emit = |a: usize, b: usize, c: usize, out: &mut Vec<Vec<usize>>| -> Result<bool, MspError> {
        match turn(v(a), v(b), v(c))? {
            Sign::Positive => out.push(vec![v(a), v(b), v(c)]),
            Sign::Negative => out.push(vec![v(a), v(c), v(b)]),
            Sign::Zero => return Ok(false),
        }
        Ok(true)
    };
    for cyc in pieces {
        let m = cyc.len();
        if m == 3 {
            if !emit(cyc[0], cyc[1], cyc[2], &mut out)? {
                return Ok(None);
            }
            continue;
        }
        // Top and bottom; left chain: from the top forward (ccw) to the bottom.
        let (mut top, mut bot) = (0, 0);
        for k in 1..m {
            if above(cyc[k], cyc[top])? {
                top = k;
            }
            if above(cyc[bot], cyc[k])? {
                bot = k;
            }
        }
        let mut left = vec![false; m];
        let mut k = top;
        while k != bot {
            left[k] = true;
            k = (k + 1) % m;
        }
        let mut u: Vec<usize> = (0..m).collect();
        crate::scalar::try_sort_by(&mut u, |&a, &b| {
            key(v(cyc[b]), v(cyc[a])).map_err(|_| crate::scalar::Uncertain::Close)
        })
        .map_err(MspError::Uncertain)?;
        let mut st = vec![u[0], u[1]];
        for j in 2..m - 1 {
            let uj = u[j];
            let topv = *st.last().unwrap();
            if left[uj] != left[topv] {
                for w in st.windows(2) {
                    if !emit(cyc[uj], cyc[w[0]], cyc[w[1]], &mut out)? {
                        return Ok(None);
                    }
                }
                st = vec![u[j - 1], uj];
            } else {
                let mut last = st.pop().unwrap();
                while let Some(&sv) = st.last() {
                    let convex = if left[uj] {
                        turn(v(cyc[sv]), v(cyc[last]), v(cyc[uj]))? == Sign::Positive
                    } else {
                        turn(v(cyc[uj]), v(cyc[last]), v(cyc[sv]))? == Sign::Positive
                    };
                    if !convex {
                        break;
                    }
                    emit(cyc[uj], cyc[last], cyc[sv], &mut out)?;
                    last = st.pop().unwrap();
                }
                st.push(last);
                st.push(uj);
            }
        }
        let un = u[m - 1];
        for w in st.windows(2) {
            if !emit(cyc[un], cyc[w[0]], cyc[w[1]], &mut out)? {
                return Ok(None);
            }
        }
    }
    if out.len() != n - 2 {
        return Ok(None);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twice the signed area of a polygon of integer points.
    fn area2(p: &[(i64, i64)], ids: &[usize]) -> i64 {
        let n = ids.len();
        (0..n)
            .map(|k| {
                let (a, b) = (p[ids[k]], p[ids[(k + 1) % n]]);
                a.0 * b.1 - a.1 * b.0
            })
            .sum()
    }

    fn split(p: &[(i64, i64)]) -> Option<Vec<Vec<usize>>> {
        let turn = |a: usize, b: usize, c: usize| -> Result<Sign, MspError> {
            let (a, b, c) = (p[a], p[b], p[c]);
            let d = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
            Ok(match d.cmp(&0) {
                std::cmp::Ordering::Less => Sign::Negative,
                std::cmp::Ordering::Equal => Sign::Zero,
                std::cmp::Ordering::Greater => Sign::Positive,
            })
        };
        let key = |a: usize, b: usize| -> Result<std::cmp::Ordering, MspError> { Ok(p[a].cmp(&p[b])) };
        let face: Vec<usize> = (0..p.len()).collect();
        let t = monotone_triangles(&face, &turn, &key).unwrap()?;
        assert_eq!(t.len(), p.len() - 2);
        let pieces = merge_convex(&face, t, &turn).unwrap();
        // The pieces tile the polygon: their areas sum to its area, each is counterclockwise
        // and weakly convex.
        assert_eq!(pieces.iter().map(|q| area2(p, q)).sum::<i64>(), area2(p, &face));
        for q in &pieces {
            let n = q.len();
            for k in 0..n {
                assert_ne!(turn(q[k], q[(k + 1) % n], q[(k + 2) % n]).unwrap(), Sign::Negative, "{q:?} of {p:?}");
            }
        }
        Some(pieces)
    }

    /// A comb of `t` teeth (1 wide, 1 apart, 3 high on a base of height 1), counterclockwise.
    fn comb(t: i64) -> Vec<(i64, i64)> {
        let mut p = vec![(0, 0), (2 * t - 1, 0)];
        for k in (0..t).rev() {
            let x = 2 * k;
            p.extend([(x + 1, 4), (x, 4)]);
            if k > 0 {
                p.extend([(x, 1), (x - 1, 1)]);
            }
        }
        p
    }

    #[test]
    fn a_comb_becomes_its_teeth_and_a_base() {
        for t in [2, 5, 64, 256] {
            let pieces = split(&comb(t)).expect("a comb is no degenerate polygon");
            // Each tooth a rectangle above the base, the base one convex piece: t + 1 at best,
            // within Hertel–Mehlhorn's factor four.
            assert!(pieces.len() <= 4 * (t as usize + 1), "{t} teeth: {} pieces", pieces.len());
            assert!(pieces.len() >= t as usize, "{t} teeth: {} pieces", pieces.len());
        }
    }

    #[test]
    fn star_polygons_and_zigzags_are_tiled() {
        // A four-pointed star, a zigzag (a chain of teeth above a straight base), an L and a U.
        let star = vec![(0, -3), (1, -1), (3, 0), (1, 1), (0, 3), (-1, 1), (-3, 0), (-1, -1)];
        assert!(split(&star).is_some());
        let mut zig = vec![(0, 0), (20, 0)];
        for x in (0..=20).rev() {
            zig.push((x, if x % 2 == 0 { 5 } else { 2 }));
        }
        zig.remove(2); // without (20, 5): the chain leaves the base slanted
        let pieces = split(&zig);
        assert!(pieces.is_some());
        assert_eq!(split(&[(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]).map(|p| p.len()), Some(2));
        assert!(split(&[(0, 0), (5, 0), (5, 5), (4, 5), (4, 1), (1, 1), (1, 5), (0, 5)]).is_some());
    }
}
