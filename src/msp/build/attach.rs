//! Attaching (§2.2): leaves, nodes and the links between them, and the entities attached to
//! the tree's slots.

use super::*;

impl<S: Scalar> Builder<'_, S> {
    pub(super) fn set_link(&mut self, slot: Option<(usize, u8)>, link: Link) {
        match slot {
            None => self.root = Some(link),
            Some((n, c)) => self.nodes[n].children[c as usize] = link,
        }
    }

    pub(super) fn leaf(&mut self, task: &Task, leaf: Leaf) {
        self.stats.height = self.stats.height.max(task.depth);
        let k = match leaf {
            Leaf::Inside => 0,
            Leaf::Outside => 1,
            Leaf::On(_) => 2,
            Leaf::Free => 3,
        };
        self.stats.leaves[k] += 1;
        self.set_link(task.slot, Link::Leaf(leaf));
    }

    /// Attach a leaf to an entity (reduced at the end), with the piece that fills the region
    /// as its witness when asked.
    pub(super) fn attach(&mut self, task: &Task, ent: Entity, witness: Option<Vec<u32>>) {
        self.stats.height = self.stats.height.max(task.depth);
        self.stats.leaves[2] += 1;
        self.depth_sum += task.depth;
        self.attached.push((task.slot, ent, task.depth));
        if let (true, Some(ids)) = (self.options.witnesses, witness) {
            let n = S::from_i64(ids.len() as i64);
            let sum = ids.iter().fold(nalgebra::Vector3::from_element(S::zero()), |acc, &i| {
                acc + self.points[i as usize].affine().coords
            });
            self.witnesses.push((task.slot, Point3::from(sum.map(|c| c / n.clone()))));
        }
        self.set_link(task.slot, Link::Leaf(Leaf::Free));
    }

    pub(super) fn node(&mut self, task: &Task, plane: u32, dim: u8) -> Result<usize, MspError> {
        let free = || Link::Leaf(Leaf::Free);
        crate::budget::reserve_for(&self.nodes, 1)?;
        self.nodes.push(Node { plane: self.planes[plane as usize].clone(), dim, children: [free(), free(), free()] });
        self.parent.push(task.slot);
        let id = self.nodes.len() - 1;
        self.set_link(task.slot, Link::Node(id));
        Ok(id)
    }

    /// The chosen element lies on its cut (always, exactly; an inexact backend's derived
    /// points may stray beyond its tolerance, which would cut the same element forever).
    pub(super) fn check_on(&mut self, plane: u32, ids: &[u32]) -> Result<(), MspError> {
        if !S::CERTAIN_DECISIONS {
            // A tolerant backend puts the chosen element on its cut whatever its points say
            // ([`Builder::split`] takes it first).
            return Ok(());
        }
        self.stamp += 1;
        for &p in ids {
            if self.side(plane, p)? != Sign::Zero {
                return Err(self.precision("an element is off its own cut plane"));
            }
        }
        Ok(())
    }
}
