//! The core's port to the memory hierarchy: what a request is (`PortRequest`: a line, its
//! kind, the phase it counts in, the instruction it is charged to), what its completion belongs to (`Ticket`, encoded in one
//! place), and what the hierarchy answers when it refuses one (`Retry`, `Refusal`). The
//! machine implements [`MemoryPort`] onto the hierarchy; the front end's fetches and the
//! LSU's queue send through it.

/// The kind of a request the core sends to the memory hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortKind {
    Fetch,
    Read,
    Write,
    Atomic,
}

/// What a completion belongs to: an instruction fetch of a warp, a store (nothing waits
/// for it), or the load tracker in a slot. Travels through the hierarchy as a number
/// ([`Ticket::encode`]); this is the one place that knows the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticket {
    Fetch(usize),
    Store,
    Load(usize),
}

const FETCH_TAG: u64 = 1 << 62;
const STORE_TAG: u64 = 2 << 62;
const LOAD_TAG: u64 = 3 << 62;
const TAG_MASK: u64 = 3 << 62;

impl Ticket {
    pub fn encode(self) -> u64 {
        match self {
            Ticket::Fetch(w) => FETCH_TAG | w as u64,
            Ticket::Store => STORE_TAG,
            Ticket::Load(slot) => LOAD_TAG | slot as u64,
        }
    }

    /// The ticket a completion carries (`None`: not one of the core's, e.g. the
    /// hierarchy's word that a credit has come).
    pub fn decode(id: u64) -> Option<Self> {
        if id == crate::mem::hierarchy::ROOM {
            return None;
        }
        let index = (id & !TAG_MASK) as usize;
        match id & TAG_MASK {
            FETCH_TAG => Some(Ticket::Fetch(index)),
            STORE_TAG => Some(Ticket::Store),
            LOAD_TAG => Some(Ticket::Load(index)),
            _ => None,
        }
    }
}

/// A line-sized request from the core; its ticket comes back in the completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRequest {
    pub ticket: Ticket,
    pub line: u32,
    pub kind: PortKind,
    /// The core's statistics phase when it made the request (issue or fetch).
    pub phase: u32,
    /// An atomic: its lanes' operations on the line's busiest word (0 otherwise).
    pub ops: u32,
    /// The instruction that made it (a fetch: the instruction fetched), which the profile
    /// by PC charges what the request does in the hierarchy to.
    pub pc: u32,
}

/// When a refused request can be tried again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    NextCycle,
    /// Only after a completion for this core (one of its requests, or the hierarchy's word
    /// that room has come).
    AfterCompletion(Refusal),
}

/// Why the memory hierarchy refused a request until a completion (kept for the deadlock
/// and `max_cycles` reports: a core stuck here names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The L1 had no free MSHR.
    MshrFull,
    /// The buffer below the L1 had no credit for the request.
    NoCredit,
    /// The LSU's pending-load table was full (`core.lsu_pending`): not the hierarchy's
    /// refusal, but waited out the same way.
    PendingLoads,
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::MshrFull => "no free MSHR",
            Refusal::NoCredit => "no credit for the way below",
            Refusal::PendingLoads => "the LSU's pending-load table full",
        }
    }
}

impl Retry {
    /// The refusal to wait out for a completion (None: retry next cycle).
    pub(super) fn refusal(self) -> Option<Refusal> {
        match self {
            Retry::NextCycle => None,
            Retry::AfterCompletion(why) => Some(why),
        }
    }
}

/// What a core needs from the memory hierarchy: it accepts a request, or says when to retry.
/// `Ok(Some(at))`: an instruction fetch that hit, complete at cycle `at`; no completion
/// comes for it, the core applies it itself.
pub trait MemoryPort {
    fn send(&mut self, now: u64, core: u32, req: PortRequest) -> Result<Option<u64>, Retry>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_round_trip() {
        for t in [
            Ticket::Fetch(0),
            Ticket::Fetch(31),
            Ticket::Store,
            Ticket::Load(7),
        ] {
            assert_eq!(Ticket::decode(t.encode()), Some(t));
        }
        assert_eq!(Ticket::decode(5), None);
    }
}
