//! Cutting (§2.1): a region's sets split by a plane, the edge cuts' orientation and the
//! regular cuts of the hybrid heuristic.

use super::*;

impl<S: Scalar> Builder<'_, S> {
    /// The paper's orientation of an edge's cut (§2.1 phase 2 (c)): a piece of a face of the
    /// edge lying in the region's plane is below it.
    pub(super) fn orient_edge_cut(&mut self, q: u32, s: &Seg, faces: &[Piece]) -> Result<(), MspError> {
        let Entity::Edge(e) = s.ent else { return Ok(()) };
        let (f1, f2) = self.solid.edge_faces(e as usize);
        self.stamp += 1;
        for piece in faces.iter().filter(|p| p.face as usize == f1 || p.face as usize == f2) {
            let mut signs = Vec::with_capacity(piece.verts.len());
            for &v in &piece.verts {
                signs.push(self.side(q, v)?);
            }
            let zeros = signs.iter().filter(|s| **s == Sign::Zero).count();
            if zeros >= 2 && signs.iter().all(|s| *s != Sign::Negative) && zeros < signs.len() {
                let flipped = self.planes[q as usize].flipped();
                self.planes[q as usize] = flipped;
                if let Some(a) = &mut self.approx_planes[q as usize] {
                    *a = a.map(|x| -x);
                }
                break;
            }
        }
        Ok(())
    }

    /// The hybrid's regular cut of a 3-dimensional region, if it applies and leaves pieces
    /// strictly on both sides.
    pub(super) fn regular_cut(&mut self, task: &Task) -> Result<Option<u32>, MspError> {
        let Split::Hybrid { max_faces, max_regular } = self.options.split else { return Ok(None) };
        if task.sets.faces.len() <= max_faces || task.regular >= max_regular {
            return Ok(None);
        }
        let mut ids: Vec<u32> = task.sets.faces.iter().flat_map(|p| p.verts.iter().copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        // From the images (alike on every backend): where a regular cut goes is a heuristic.
        let mut coords: Vec<[f64; 3]> = Vec::with_capacity(ids.len());
        if self.point_images.len() < self.points.len() {
            crate::budget::reserve_for(&self.point_images, self.points.len() - self.point_images.len())?;
            self.point_images.resize(self.points.len(), None);
        }
        for &i in &ids {
            if let Some(c) = self.point_images[i as usize] {
                coords.push(c);
                continue;
            }
            let p = &self.points[i as usize];
            // The affine coordinates' images, a function of the point alone: the exact
            // backends hold points as integer multiples (x and w too large for their own images
            // to be divided), the filters as constructed. Where w is exactly 1 (a solid's
            // vertex, unless an exact backend scaled it), x itself: a filter's quotient by one
            // carries a bound, and an integer coordinate sits on an image's boundary.
            let unit = p.w.as_double() == Some(1.0);
            let image = |c: &S| if unit { c.image() } else { (c.clone() / p.w.clone()).image() };
            let c = [image(&p.x.x)?, image(&p.x.y)?, image(&p.x.z)?];
            self.point_images[i as usize] = Some(c);
            coords.push(c);
        }
        let extent = |k: usize| {
            let (lo, hi) =
                coords.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), c| (l.min(c[k]), h.max(c[k])));
            hi - lo
        };
        let k = (0..3).max_by(|&i, &j| extent(i).total_cmp(&extent(j))).unwrap_or(0);
        let e = extent(k);
        if !(e.is_finite() && e > 0.0) {
            return Ok(None);
        }
        let mut xs: Vec<f64> = coords.iter().map(|c| c[k]).collect();
        xs.sort_by(f64::total_cmp);
        let ulp = 2f64.powi(e.log2().floor() as i32 - 16);
        let c = (xs[xs.len() / 2] / ulp).round() * ulp;
        let Ok(c) = S::from_f64(c) else { return Ok(None) };
        let plane = Plane { normal: axis::<S>(k), scale: c.abs(), offset: -c };
        let id = self.push_plane(plane)?;
        self.stamp += 1;
        let (mut above, mut below) = (false, false);
        for &i in &ids {
            match self.side(id, i)? {
                Sign::Positive => above = true,
                Sign::Negative => below = true,
                Sign::Zero => {}
            }
        }
        Ok((above && below).then_some(id))
    }

    /// Split everything in a region by plane `plane` into the parts above, on and below it.
    /// `cross`: in a 1-dimensional region, the point where the cut meets the line.
    pub(in crate::msp) fn split(
        &mut self,
        plane: u32,
        mut sets: Sets,
        cross: Option<u32>,
        chosen: Chosen,
    ) -> Result<[Sets; 3], MspError> {
        self.stamp += 1;
        let mut out: [Sets; 3] = Default::default();
        // The element the cut was made through lies on it: exactly (checked before), or by fiat
        // on a tolerant backend, whose derived points may stray beyond its tolerance (cutting
        // the same element again and again otherwise).
        if !S::CERTAIN_DECISIONS {
            match chosen {
                Chosen::Piece if !sets.faces.is_empty() => out[1].faces.push(sets.faces.remove(0)),
                Chosen::Seg if !sets.segs.is_empty() => out[1].segs.push(sets.segs.remove(0)),
                Chosen::Pt if !sets.pts.is_empty() => out[1].pts.push(sets.pts.remove(0)),
                _ => {}
            }
        }
        for piece in sets.faces {
            crate::budget::tick()?;
            self.split_piece(plane, piece, &mut out)?;
        }
        for seg in sets.segs {
            let s = [self.side(plane, seg.ends[0])?, self.side(plane, seg.ends[1])?];
            match s {
                [Sign::Zero, Sign::Zero] => out[1].segs.push(seg),
                [a, b] if a != Sign::Negative && b != Sign::Negative => out[0].segs.push(seg),
                [a, b] if a != Sign::Positive && b != Sign::Positive => out[2].segs.push(seg),
                [a, _] => {
                    let x = match cross {
                        Some(x) => x,
                        None => {
                            let x = self.meet([seg.line[0], seg.line[1], plane], seg.ends)?;
                            let ent = self.pseudo_vertex(seg.ent);
                            out[1].pts.push(Pt { ent, p: x });
                            x
                        }
                    };
                    let (pos, neg) =
                        if a == Sign::Positive { (seg.ends[0], seg.ends[1]) } else { (seg.ends[1], seg.ends[0]) };
                    out[0].segs.push(Seg { ent: seg.ent, line: seg.line, ends: [pos, x] });
                    out[2].segs.push(Seg { ent: seg.ent, line: seg.line, ends: [x, neg] });
                }
            }
        }
        for pt in sets.pts {
            let k = match self.side(plane, pt.p)? {
                Sign::Positive => 0,
                Sign::Zero => 1,
                Sign::Negative => 2,
            };
            out[k].pts.push(pt);
        }
        Ok(out)
    }

    pub(super) fn split_piece(&mut self, plane: u32, piece: Piece, out: &mut [Sets; 3]) -> Result<(), MspError> {
        let m = piece.verts.len();
        let mut s = Vec::with_capacity(m);
        for &v in &piece.verts {
            s.push(self.side(plane, v)?);
        }
        let (pos, neg) = (s.contains(&Sign::Positive), s.contains(&Sign::Negative));
        match (pos, neg) {
            (false, false) => {
                out[1].faces.push(piece);
                return Ok(());
            }
            (true, false) => {
                out[0].faces.push(piece);
                return Ok(());
            }
            (false, true) => {
                out[2].faces.push(piece);
                return Ok(());
            }
            (true, true) => {}
        }
        let (mut up, mut down) = (
            Piece { face: piece.face, verts: vec![], bounds: vec![] },
            Piece { face: piece.face, verts: vec![], bounds: vec![] },
        );
        let mut cut = Vec::with_capacity(2);
        for i in 0..m {
            let j = (i + 1) % m;
            let (v, b) = (piece.verts[i], piece.bounds[i]);
            match s[i] {
                Sign::Positive => {
                    up.verts.push(v);
                    up.bounds.push(b);
                }
                Sign::Negative => {
                    down.verts.push(v);
                    down.bounds.push(b);
                }
                Sign::Zero => {
                    cut.push(v);
                    up.verts.push(v);
                    up.bounds.push(if s[j] == Sign::Negative { plane } else { b });
                    down.verts.push(v);
                    down.bounds.push(if s[j] == Sign::Positive { plane } else { b });
                }
            }
            if s[i] * s[j] == Sign::Negative {
                let x = self.meet([piece.face, b, plane], [v, piece.verts[j]])?;
                cut.push(x);
                if s[i] == Sign::Positive {
                    up.verts.push(x);
                    up.bounds.push(plane);
                    down.verts.push(x);
                    down.bounds.push(b);
                } else {
                    down.verts.push(x);
                    down.bounds.push(plane);
                    up.verts.push(x);
                    up.bounds.push(b);
                }
            }
        }
        if let [a, b] = cut[..] {
            let ent = self.pseudo_edge(piece.face);
            out[1].segs.push(Seg { ent, line: [piece.face, plane], ends: [a, b] });
        } else if S::CERTAIN_DECISIONS {
            return Err(self.precision("a convex piece crossing a plane in other than two points"));
        }
        for (k, p) in [(0, up), (2, down)] {
            if p.verts.len() >= 3 {
                out[k].faces.push(p);
            }
        }
        Ok(())
    }
}
