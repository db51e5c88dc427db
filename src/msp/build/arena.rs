//! The builder's arenas: planes and homogeneous points, each with a binary64 image for the
//! static filter of the side test, the entities' carriers and the pseudo-entities.

use super::*;

impl<S: Scalar> Builder<'_, S> {
    pub(super) fn precision(&self, what: &str) -> MspError {
        MspError::Precision(format!(
            "{what} within the {} backend's tolerance: the index needs an exact backend here",
            S::NAME
        ))
    }

    /// Add a plane to the arena, after asking the query's memory budget for the room (the
    /// arenas grow without bound on hostile solids: quadratically on a comb).
    pub(in crate::msp) fn push_plane(&mut self, p: Plane<S>) -> Result<u32, MspError> {
        let mut p = integral_plane(p);
        if !S::CERTAIN_DECISIONS {
            // A cut through a point near the origin has an offset that cancelled: its rounding
            // is relative to the solid's magnitude (see `Plane`'s scale).
            p.scale += crate::geom::norm1(&p.normal) * self.bound.clone();
        }
        crate::budget::reserve_for(&self.planes, 1)?;
        crate::budget::reserve_for(&self.approx_planes, 1)?;
        if self.options.measure_bits {
            let m = p.normal.iter().chain(std::iter::once(&p.offset)).map(bits).max().unwrap_or(0);
            self.stats.max_bits = self.stats.max_bits.max(m);
        }
        self.approx_planes.push(enclose4([&p.normal.x, &p.normal.y, &p.normal.z, &p.offset]));
        self.planes.push(p);
        Ok((self.planes.len() - 1) as u32)
    }

    /// Add a cut that holds points `on` (one or two; `u32::MAX` for none) by construction: a
    /// cut through a point, a pencil through a segment's line. On exact backends they are not
    /// checked, and their side of it is zero without evaluating; other backends check them.
    pub(super) fn push_holding(&mut self, q: Plane<S>, on: [u32; 2]) -> Result<u32, MspError> {
        let q = self.push_plane(q)?;
        if S::EXACT_VALUES {
            crate::budget::reserve_for(&self.held, (q as usize + 1).saturating_sub(self.held.len()))?;
            self.held.resize(q as usize + 1, [u32::MAX; 2]);
            self.held[q as usize] = on;
        } else {
            let ids: Vec<u32> = on.into_iter().filter(|&p| p != u32::MAX).collect();
            self.check_on(q, &ids)?;
        }
        Ok(q)
    }

    pub(super) fn push_point(&mut self, p: HPoint<S>) -> Result<u32, MspError> {
        let p = integral_point(p);
        crate::budget::reserve_for(&self.points, 1)?;
        crate::budget::reserve_for(&self.approx_points, 1)?;
        crate::budget::reserve_for(&self.cache, 1)?;
        if self.options.measure_bits {
            let m = p.x.iter().chain(std::iter::once(&p.w)).map(bits).max().unwrap_or(0);
            self.stats.max_bits = self.stats.max_bits.max(m);
        }
        self.approx_points.push(enclose4([&p.x.x, &p.x.y, &p.x.z, &p.w]));
        self.points.push(p);
        Ok((self.points.len() - 1) as u32)
    }

    /// The side of plane `plane` that point `p` is on, cached for the current stamp.
    pub(super) fn side(&mut self, plane: u32, p: u32) -> Result<Sign, MspError> {
        let i = p as usize;
        if self.cache.len() < self.points.len() {
            self.cache.resize(self.points.len(), (u32::MAX, Sign::Zero));
        }
        if self.cache[i].0 == self.stamp {
            return Ok(self.cache[i].1);
        }
        // A corner of face f lies on f's plane (arena plane f): the topology says so, and the
        // solid's validation decided it. Taken from the topology, without evaluating: exact
        // backends decide zero here anyway, and a tolerant one cannot contradict its own
        // validation (an f64 L-prism under a half turn put its vertex at the origin 2⁻⁵⁶ above
        // its own face; planes now carry their offset's scale, which covers that rounding too).
        // Likewise a point that three planes' meet made lies on each of them: exactly, that
        // is what the meet is (an exact backend would decide zero at the cost of the products
        // of the largest numbers in the arenas).
        let by_construction = match i.checked_sub(self.vertex_faces.len()) {
            None => self.vertex_faces[i].contains(&(plane as usize)),
            Some(j) => self.meet_planes.get(j).is_some_and(|ps| ps.contains(&plane)),
        };
        let by_construction = by_construction || self.held.get(plane as usize).is_some_and(|h| h.contains(&p));
        if by_construction {
            self.cache[i] = (self.stamp, Sign::Zero);
            return Ok(Sign::Zero);
        }
        let filtered = match (&self.approx_planes[plane as usize], &self.approx_points[i]) {
            (Some(a), Some(b)) => dot4_sign(a, b),
            _ => None,
        };
        let s = match filtered {
            Some(s) => s,
            None => side(&self.planes[plane as usize], &self.points[i])?,
        };
        self.cache[i] = (self.stamp, s);
        Ok(s)
    }

    /// The point where the line of planes `a` and `b` crosses plane `c`, between points `p` and
    /// `q` of the line that `c` separates. Exactly, three such planes always meet in one point;
    /// an inexact backend may find them within its tolerance of a pencil, and then takes the
    /// point on the segment from `p` to `q` in the ratio of their distances to `c` (a chained
    /// construction, for inexact backends only).
    pub(super) fn meet(&mut self, [a, b, c]: [u32; 3], [p, q]: [u32; 2]) -> Result<u32, MspError> {
        let m = meet(&self.planes[a as usize], &self.planes[b as usize], &self.planes[c as usize])?;
        match m {
            Some(x) => {
                let id = self.push_point(x)?;
                if S::EXACT_VALUES {
                    // Points are only pushed after the solid's vertices, meets and others.
                    let j = id as usize - self.vertex_faces.len();
                    crate::budget::reserve_for(&self.meet_planes, (j + 1).saturating_sub(self.meet_planes.len()))?;
                    self.meet_planes.resize(j + 1, [u32::MAX; 3]);
                    self.meet_planes[j] = [a, b, c];
                }
                Ok(id)
            }
            None if !S::EXACT_VALUES => {
                let plane = &self.planes[c as usize];
                let (p, q) = (&self.points[p as usize], &self.points[q as usize]);
                let eval = |h: &HPoint<S>| plane.normal.dot(&h.x) + plane.offset.clone() * h.w.clone();
                let (fp, fq) = (eval(p), eval(q));
                // x = fp·q − fq·p, homogeneous (fp, fq of opposite signs, w's positive).
                let mut x = HPoint {
                    x: q.x.clone() * fp.clone() - p.x.clone() * fq.clone(),
                    w: q.w.clone() * fp - p.w.clone() * fq,
                };
                if x.w.sign()? == Sign::Negative {
                    x = HPoint { x: -x.x, w: -x.w };
                } else if x.w.sign()? == Sign::Zero {
                    return Err(self.precision("a cut crosses a piece's side along it"));
                }
                self.push_point(x)
            }
            None => Err(self.precision("a cut crosses a piece's side along it")),
        }
    }

    pub(super) fn carrier(&self, e: Entity) -> Entity {
        match e {
            Entity::PseudoVertex(i) => self.carrier_v[i as usize],
            Entity::PseudoEdge(i) => self.carrier_e[i as usize],
            e => e,
        }
    }

    /// The solid's own feature an entity lies in (a pseudo entity's carrier).
    pub(in crate::msp) fn original(&self, e: Entity) -> Feature {
        match self.carrier(e) {
            Entity::Vertex(v) => Feature::Vertex(v as usize),
            Entity::Edge(e) => {
                let (u, v) = self.solid.edges()[e as usize];
                Feature::Edge(u, v)
            }
            Entity::Face(f) => Feature::Face(f as usize),
            Entity::PseudoVertex(_) | Entity::PseudoEdge(_) => unreachable!("carriers are original entities"),
        }
    }

    pub(super) fn pseudo_vertex(&mut self, of: Entity) -> Entity {
        let c = self.carrier(of);
        self.carrier_v.push(c);
        Entity::PseudoVertex((self.carrier_v.len() - 1) as u32)
    }

    pub(super) fn pseudo_edge(&mut self, face: u32) -> Entity {
        self.carrier_e.push(Entity::Face(face));
        Entity::PseudoEdge((self.carrier_e.len() - 1) as u32)
    }

    /// Of an edge's two line planes, one that meets face `f`'s plane in the line (is not
    /// parallel to it).
    pub(super) fn bound_for(&self, line: [u32; 2], f: u32) -> Result<u32, MspError> {
        // The more transverse of the two, by sin² of the angle between the normals compared
        // exactly: |a₁×n|²·|a₀|² against |a₀×n|²·|a₁|², which no scaling of a plane changes (the
        // arenas hold integer multiples on the exact backends, as constructed on the filters),
        // so every backend that decides it chooses alike; a tie keeps the order given. It keeps
        // the intersections well conditioned; either is correct once checked nonparallel.
        let n = &self.planes[f as usize].normal;
        let terms = |l: u32| {
            let a = &self.planes[l as usize].normal;
            let c = a.cross(n);
            (c.dot(&c), a.dot(a))
        };
        let ((c0, a0), (c1, a1)) = (terms(line[0]), terms(line[1]));
        let order =
            if (c1 * a0).compare(&(c0 * a1))? == std::cmp::Ordering::Greater { [line[1], line[0]] } else { line };
        for l in order {
            let c = self.planes[l as usize].normal.cross(n);
            if !crate::geom::is_zero_vector(&c)? {
                return Ok(l);
            }
        }
        Err(self.precision("an edge's line is parallel to its own face"))
    }
}
