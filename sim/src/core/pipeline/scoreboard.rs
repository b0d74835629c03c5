//! The scoreboard: per warp, when each register's pending value is written and by which
//! unit (so a stalled slot can say what it waits on).

use wsim_isa::{RegFile, RegRef};

use crate::stats::SlotReason;

/// Unit that produced a pending register, for scoreboard stall attribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::core) enum Producer {
    Memory,
    Alu,
    Fpu,
    Sfu,
    Weaver,
}

impl Producer {
    pub(super) fn stall(self) -> SlotReason {
        match self {
            Producer::Memory => SlotReason::ScoreboardMemory,
            Producer::Alu => SlotReason::ScoreboardAlu,
            Producer::Fpu => SlotReason::ScoreboardFpu,
            Producer::Sfu => SlotReason::ScoreboardSfu,
            Producer::Weaver => SlotReason::Weaver,
        }
    }
}

/// One warp's scoreboard.
#[derive(Clone, Debug)]
pub(in crate::core) struct Scoreboard {
    x_ready: [u64; 32],
    f_ready: [u64; 32],
    x_producer: [Producer; 32],
    f_producer: [Producer; 32],
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard {
            x_ready: [0; 32],
            f_ready: [0; 32],
            x_producer: [Producer::Alu; 32],
            f_producer: [Producer::Alu; 32],
        }
    }
}

impl Scoreboard {
    /// When `r` is written and by what.
    #[inline]
    pub(super) fn ready_at(&self, r: RegRef) -> (u64, Producer) {
        let n = r.num as usize;
        match r.file {
            RegFile::Int => (self.x_ready[n], self.x_producer[n]),
            RegFile::Float => (self.f_ready[n], self.f_producer[n]),
        }
    }

    #[inline]
    pub(in crate::core) fn set_ready(&mut self, r: RegRef, at: u64, producer: Producer) {
        let n = r.num as usize;
        match r.file {
            RegFile::Int => {
                self.x_ready[n] = at;
                self.x_producer[n] = producer;
            }
            RegFile::Float => {
                self.f_ready[n] = at;
                self.f_producer[n] = producer;
            }
        }
    }
}
