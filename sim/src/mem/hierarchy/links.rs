//! The topology: which level is below or above which, the link and the L2/L3 on a core's
//! path, and requests and replies crossing a link.

use super::{AccessKind, DramModel, Ev, Level, MemoryHierarchy, Msg};
use crate::mem::interconnect::Link;

impl<D: DramModel> MemoryHierarchy<D> {
    pub(super) fn below(&self, level: Level) -> Level {
        match level {
            Level::L1 if self.l2_enabled => Level::L2,
            Level::L1 | Level::L2 if self.l3_enabled => Level::L3,
            _ => Level::Dram,
        }
    }

    pub(super) fn above(&self, level: Level) -> Level {
        match level {
            Level::Dram if self.l3_enabled => Level::L3,
            Level::Dram | Level::L3 if self.l2_enabled => Level::L2,
            _ => Level::L1,
        }
    }

    fn cluster(&self, core: u32) -> usize {
        (core / self.cores_per_cluster) as usize
    }

    /// The index in `links` of the link below `level`, on the path of `core`.
    pub(super) fn link_index(&self, level: Level, core: u32) -> usize {
        let cluster = self.cluster(core);
        match level {
            Level::L1 => cluster,
            Level::L2 => self.clusters + cluster,
            _ => self.links.len() - 1,
        }
    }

    /// The link below `level`, on the path of `core`.
    fn link(&mut self, level: Level, core: u32) -> &mut Link {
        let i = self.link_index(level, core);
        &mut self.links[i]
    }

    /// The L2 or L3 at `level` on the path of `core`.
    pub(super) fn node(&self, level: Level, core: u32) -> usize {
        match level {
            Level::L2 => self.cluster(core),
            _ => self.lower.len() - 1,
        }
    }

    pub(super) fn send_down(&mut self, t: u64, from: Level, msg: Msg, line: u32) {
        let to = self.below(from);
        let at = self.link(from, msg.core).down.send(t, msg.phase as usize);
        self.schedule(at, Ev::Arrive { at: to, msg, line });
    }

    pub(super) fn send_up(&mut self, t: u64, from: Level, msg: Msg, line: u32) {
        if from == self.llc && msg.kind == AccessKind::Atomic {
            self.release_atomic(t, from, msg.core, line);
        }
        let to = self.above(from);
        let at = self.link(to, msg.core).up.send(t, msg.phase as usize);
        self.schedule(at, Ev::Respond { at: to, msg, line });
    }
}
