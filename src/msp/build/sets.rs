//! The initial sets (§2.1): the solid's faces as convex pieces (a monotone decomposition's
//! triangles merged across diagonals, `triangulate.rs`; ear clipping on degenerate faces), its
//! edges and vertices as segments and points.

use super::*;

impl<S: Scalar> Builder<'_, S> {
    /// The solid's vertices, edges and faces as the first pieces: convex faces whole, the others
    /// split into convex pieces (the diagonals are pseudo edges).
    pub(in crate::msp) fn initial_sets(&mut self) -> Result<Sets, MspError> {
        let s = self.solid;
        let mut sets = Sets::default();
        let mut edge_line = Vec::with_capacity(s.edge_count());
        for (e, &(u, v)) in s.edges().iter().enumerate() {
            crate::budget::tick()?;
            let [a, b] =
                line_planes(s.vertex(u), s.vertex(v))?.ok_or_else(|| self.precision("an edge's ends coincide"))?;
            let line = [self.push_plane(a)?, self.push_plane(b)?];
            edge_line.push(line);
            sets.segs.push(Seg { ent: Entity::Edge(e as u32), line, ends: [u as u32, v as u32] });
        }
        sets.pts = (0..s.vertex_count()).map(|v| Pt { ent: Entity::Vertex(v as u32), p: v as u32 }).collect();
        for f in 0..s.face_count() {
            let face = s.face(f);
            let turn = face_turn(s, f)?;
            let m = face.len();
            let mut convex = true;
            for i in 0..m {
                if turn(face[i], face[(i + 1) % m], face[(i + 2) % m])? == Sign::Negative {
                    convex = false;
                    break;
                }
            }
            let (triangles, merged) = if convex {
                (vec![face.to_vec()], Vec::new())
            } else {
                // Convex pieces: a monotone decomposition's triangles merged across diagonals
                // (O(n log n)); ear clipping where the decomposition declines (a degenerate
                // polygon), as before.
                let order = face_order(s, f)?;
                match super::triangulate::monotone_triangles(face, &turn, &order)? {
                    Some(t) => (super::triangulate::merge_convex(face, t, &turn)?, Vec::new()),
                    None => ear_clip(face, &turn)?,
                }
            };
            // Whether a → b or b → a is a side of the face, by the vertices' positions in it
            // (a scan of a 1,000-gon per piece side was quadratic in its pieces).
            let position: std::collections::HashMap<usize, usize> =
                if convex { Default::default() } else { face.iter().enumerate().map(|(i, &v)| (v, i)).collect() };
            let face_side = |a: usize, b: usize| match (position.get(&a), position.get(&b)) {
                (Some(&i), Some(&j)) => (i + 1) % m == j || (j + 1) % m == i,
                _ if convex => is_face_side(face, a, b),
                _ => false,
            };
            for t in triangles {
                let mut bounds = Vec::with_capacity(t.len());
                for i in 0..t.len() {
                    crate::budget::tick()?;
                    let (a, b) = (t[i], t[(i + 1) % t.len()]);
                    let along = merged.iter().find(|(x, _)| *x == (a, b) || *x == (b, a)).map(|&(_, side)| side);
                    let line = match s.edge_index(a, b) {
                        Some(e) if face_side(a, b) => edge_line[e],
                        // Sides along a straight vertex: the line of a side they cover (their
                        // segments are the sides').
                        _ if along.is_some() => {
                            let (x, y) = along.unwrap_or((a, b));
                            s.edge_index(x, y).map(|e| edge_line[e]).ok_or_else(|| self.precision("a face side"))?
                        }
                        _ => {
                            // A diagonal: a pseudo edge of the face (once, from its lower end).
                            let [p, q] = line_planes(s.vertex(a), s.vertex(b))?
                                .ok_or_else(|| self.precision("a diagonal's ends coincide"))?;
                            let line = [self.push_plane(p)?, self.push_plane(q)?];
                            if a < b {
                                let ent = self.pseudo_edge(f as u32);
                                sets.segs.push(Seg { ent, line, ends: [a as u32, b as u32] });
                            }
                            line
                        }
                    };
                    bounds.push(self.bound_for(line, f as u32)?);
                }
                sets.faces.push(Piece { face: f as u32, verts: t.iter().map(|&v| v as u32).collect(), bounds });
            }
        }
        self.stats.pseudo[0] = self.carrier_e.len();
        Ok(sets)
    }
}

/// Whether a → b or b → a is a side of the face (not a diagonal that happens to be an edge of
/// the solid elsewhere).
pub(super) fn is_face_side(face: &[usize], a: usize, b: usize) -> bool {
    let m = face.len();
    (0..m).any(|i| {
        let (x, y) = (face[i], face[(i + 1) % m]);
        (x, y) == (a, b) || (x, y) == (b, a)
    })
}

/// The turn of three vertices of face `f` in its plane: positive when they run
/// counterclockwise seen from outside (in the projection along an axis the face's normal
/// has a nonzero component on, signed by that component).
pub(in crate::msp) fn face_turn<S: Scalar>(
    s: &Solid<S>,
    f: usize,
) -> Result<impl Fn(usize, usize, usize) -> Result<Sign, MspError> + '_, MspError> {
    let n = &s.plane(f).normal;
    let (k, up) = signed_nonzero_axis(n)?.ok_or_else(|| MspError::Precision("a face's normal is zero".into()))?;
    Ok(move |a: usize, b: usize, c: usize| -> Result<Sign, MspError> {
        let o = orient2d(&project(s.vertex(a), k), &project(s.vertex(b), k), &project(s.vertex(c), k))?;
        Ok(orientation_sign(o) * up)
    })
}

/// The sweep order of face `f`'s vertices: lexicographic on their projection along the axis of
/// [`face_turn`], decided exactly.
fn face_order<S: Scalar>(
    s: &Solid<S>,
    f: usize,
) -> Result<impl Fn(usize, usize) -> Result<std::cmp::Ordering, MspError> + '_, MspError> {
    let n = &s.plane(f).normal;
    let (k, _) = signed_nonzero_axis(n)?.ok_or_else(|| MspError::Precision("a face's normal is zero".into()))?;
    Ok(move |a: usize, b: usize| -> Result<std::cmp::Ordering, MspError> {
        let (p, q) = (project(s.vertex(a), k), project(s.vertex(b), k));
        Ok(match p.x.compare(&q.x)? {
            std::cmp::Ordering::Equal => p.y.compare(&q.y)?,
            o => o,
        })
    })
}

/// A side of a clipped polygon that covers sides of the face, with one face side on its line.
pub(super) type Merged = Vec<((usize, usize), (usize, usize))>;

/// Ear clipping of a simple polygon (counterclockwise as `turn` sees it): the triangles. A
/// straight vertex is dropped (its two sides lie along one side of a later triangle, listed
/// with a face side on its line).
pub(in crate::msp) fn ear_clip(
    face: &[usize],
    turn: &dyn Fn(usize, usize, usize) -> Result<Sign, MspError>,
) -> Result<(Vec<Vec<usize>>, Merged), MspError> {
    let mut poly: Vec<usize> = face.to_vec();
    let mut out = Vec::new();
    let mut merged: Merged = Vec::new();
    while poly.len() > 3 {
        crate::budget::tick()?;
        let m = poly.len();
        let mut clipped = false;
        for i in 0..m {
            let (a, b, c) = (poly[(i + m - 1) % m], poly[i], poly[(i + 1) % m]);
            if turn(a, b, c)? != Sign::Positive {
                continue;
            }
            let mut ear = true;
            for &p in &poly {
                if p == a || p == b || p == c {
                    continue;
                }
                // Inside or on the closed triangle: not an ear.
                if turn(a, b, p)? != Sign::Negative
                    && turn(b, c, p)? != Sign::Negative
                    && turn(c, a, p)? != Sign::Negative
                {
                    ear = false;
                    break;
                }
            }
            if ear {
                out.push(vec![a, b, c]);
                poly.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            // No strict ear: drop a straight vertex, if there is one.
            let mut dropped = false;
            for i in 0..poly.len() {
                let m = poly.len();
                let (a, b, c) = (poly[(i + m - 1) % m], poly[i], poly[(i + 1) % m]);
                if turn(a, b, c)? == Sign::Zero {
                    let side = merged.iter().find(|(x, _)| *x == (a, b)).map_or((a, b), |&(_, s)| s);
                    merged.push(((a, c), side));
                    poly.remove(i);
                    dropped = true;
                    break;
                }
            }
            if !dropped {
                return Err(MspError::Precision("a face could not be split into triangles".into()));
            }
        }
    }
    if poly.len() == 3 && turn(poly[0], poly[1], poly[2])? == Sign::Positive {
        out.push(poly);
    }
    Ok((out, merged))
}
