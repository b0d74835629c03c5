//! The DRAM side of the hierarchy: the [`DramModel`] interface, requests handed to DRAM
//! with their slots, the unbounded FIFO of requests the DRAM queues refused (the known
//! limit in [`super`]), and DRAM's replies going back up.

use super::{AccessKind, Ev, Level, MemoryHierarchy, Msg};
use crate::mem::dram::{Dram, DramRequest, DramStats};

/// What the hierarchy needs from main memory: implemented by [`Dram`], and by simpler
/// models in tests. The contract is [`Dram`]'s: `tick` reports the ids completed at or
/// before `now`, `next_event` the next cycle after `now` at which anything happens.
pub trait DramModel {
    fn enqueue(&mut self, now: u64, req: DramRequest) -> Result<(), DramRequest>;
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
        let req = DramRequest {
            id,
            addr: line << self.line_shift,
            write: msg.kind == AccessKind::Write,
            phase: msg.phase,
        };
        // Behind earlier refused requests, to keep their order.
        let refused = if self.dram_retry.is_empty() {
            self.dram_enqueue(t, req).err()
        } else {
            Some(req)
        };
        if let Some(req) = refused {
            self.dram_retry.push_back(req);
            self.dram_backlog_peak = self.dram_backlog_peak.max(self.dram_retry.len() as u64);
            if !self.retry_scheduled {
                self.retry_scheduled = true;
                self.schedule(t + 1, Ev::DramRetry);
            }
        }
    }

    pub(super) fn dram_retry(&mut self, t: u64) {
        self.retry_scheduled = false;
        while let Some(req) = self.dram_retry.pop_front() {
            if let Err(req) = self.dram_enqueue(t, req) {
                self.dram_retry.push_front(req);
                self.retry_scheduled = true;
                self.schedule(t + 1, Ev::DramRetry);
                break;
            }
        }
    }

    fn dram_enqueue(&mut self, t: u64, req: DramRequest) -> Result<(), DramRequest> {
        let result = self.dram.enqueue(t, req);
        self.update_dram_next();
        result
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
                    self.send_up(t, Level::Dram, msg, line);
                    self.dram_send(t, msg.with(AccessKind::Write), line);
                }
                _ => self.send_up(t, Level::Dram, msg, line),
            }
        }
        done.clear();
        self.dram_done = done;
    }
}
