//! The DRAM side of the hierarchy: the [`DramModel`] interface, requests handed to DRAM
//! with their slots (each arrives with a place promised in its queue: `credits.rs`), and
//! DRAM's replies going back up.

use super::credits::Sender;
use super::levels::AtomicUnit;
use super::{AccessKind, Level, MemoryHierarchy, Msg};
use crate::mem::dram::{Dram, DramRequest, DramStats};

/// What the hierarchy needs from main memory: implemented by [`Dram`], and by simpler
/// models in tests. The contract is [`Dram`]'s: `tick` reports the ids completed at or
/// before `now`, `next_event` the next cycle after `now` at which anything happens.
pub trait DramModel {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest>;
    /// The queue a request for `addr` joins (a channel's).
    fn queue_of(&self, addr: u32) -> usize;
    /// Requests queue `queue` can still take.
    fn room(&self, queue: usize) -> usize;
    fn tick(&mut self, now: u64, done: &mut Vec<u64>);
    fn next_event(&self, now: u64) -> Option<u64>;
    fn pending(&self) -> usize;
    fn stats(&self) -> DramStats;
    /// The statistics of the requests whose [`DramRequest::phase`] is `phase`.
    fn phase_stats(&self, phase: usize) -> DramStats;
}

impl DramModel for Dram {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest> {
        Dram::enqueue(self, now, req)
    }
    fn queue_of(&self, addr: u32) -> usize {
        Dram::queue_of(self, addr)
    }
    fn room(&self, queue: usize) -> usize {
        Dram::room(self, queue)
    }
    fn tick(&mut self, now: u64, done: &mut Vec<u64>) {
        Dram::tick(self, now, done)
    }
    fn next_event(&self, now: u64) -> Option<u64> {
        Dram::next_event(self, now)
    }
    fn pending(&self) -> usize {
        Dram::pending(self)
    }
    fn stats(&self) -> DramStats {
        Dram::stats(self).clone()
    }
    fn phase_stats(&self, phase: usize) -> DramStats {
        Dram::phase_stats(self, phase)
    }
}

impl<D: DramModel> MemoryHierarchy<D> {
    /// `msg` arrives at DRAM with the place in its queue it was promised.
    pub(super) fn dram_send(&mut self, t: u64, msg: Msg, line: u32) {
        let id = match self.free_slots.pop() {
            Some(id) => {
                self.dram_slots[id as usize] = Some((msg, line));
                id
            }
            None => {
                self.dram_slots.push(Some((msg, line)));
                self.dram_slots.len() as u64 - 1
            }
        };
        let addr = line << self.line_shift;
        let req = DramRequest {
            id,
            addr,
            write: msg.kind == AccessKind::Write,
            phase: msg.phase,
        };
        self.redeem_dram_promise(self.dram.queue_of(addr));
        let accepted = self.dram.enqueue(t, req);
        assert!(
            accepted.is_ok(),
            "a request promised a DRAM queue place was refused"
        );
        self.update_dram_next();
    }

    fn update_dram_next(&mut self) {
        let after = self.dram_time + 1;
        self.dram_next = self.dram.next_event(self.dram_time).map(|d| d.max(after));
    }

    pub(super) fn dram_step(&mut self, t: u64) {
        self.dram_time = t;
        let mut done = std::mem::take(&mut self.dram_done);
        self.dram.tick(t, &mut done);
        self.update_dram_next();
        for &id in &done {
            let Some((msg, line)) = self.dram_slots.get_mut(id as usize).and_then(Option::take)
            else {
                continue;
            };
            self.free_slots.push(id);
            match msg.kind {
                AccessKind::Write => {}
                AccessKind::Atomic => {
                    let done = self.execute_atomic(AtomicUnit::Dram, t, msg, line);
                    let write = msg.with(AccessKind::Write);
                    self.emit(Sender::Dram, t, done, Level::Dram, write, line);
                }
                _ => self.send_up(t, Level::Dram, msg, line),
            }
        }
        done.clear();
        self.dram_done = done;
        // Issued requests left their queues.
        self.serve_dram_waiters(t);
    }
}
