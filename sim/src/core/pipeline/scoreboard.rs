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

/// A register's place in a scoreboard: `x0..x31`, then `f0..f31`.
#[inline]
pub(super) fn slot(r: RegRef) -> u8 {
    r.num | u8::from(r.file == RegFile::Float) << 5
}

/// One warp's scoreboard, by [`slot`].
#[derive(Clone, Debug)]
pub(in crate::core) struct Scoreboard {
    ready: [u64; 64],
    producer: [Producer; 64],
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard {
            ready: [0; 64],
            producer: [Producer::Alu; 64],
        }
    }
}

impl Scoreboard {
    /// When the register in `slot` is written and by what.
    #[inline]
    pub(super) fn ready_at(&self, slot: u8) -> (u64, Producer) {
        let n = slot as usize & 63;
        (self.ready[n], self.producer[n])
    }

    #[inline]
    pub(in crate::core) fn set_ready(&mut self, r: RegRef, at: u64, producer: Producer) {
        let n = slot(r) as usize;
        self.ready[n] = at;
        self.producer[n] = producer;
    }
}
