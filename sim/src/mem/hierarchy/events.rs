//! The hierarchy's clock: scheduling events, processing them in (cycle, creation order)
//! interleaved with the DRAM model's own, and dispatching each to the block it concerns.

use std::cmp::Reverse;

use super::{Completion, DramModel, Ev, MemoryHierarchy};

impl<D: DramModel> MemoryHierarchy<D> {
    pub(super) fn schedule(&mut self, at: u64, ev: Ev) {
        self.seq += 1;
        let slot = match self.free_events.pop() {
            Some(slot) => {
                self.slab[slot as usize] = ev;
                slot
            }
            None => {
                self.slab.push(ev);
                self.slab.len() as u32 - 1
            }
        };
        self.events.push(Reverse((at, self.seq, slot)));
    }

    /// Process every event up to `now`, DRAM's first on a tie (its replies are from the
    /// past cycle's work).
    pub(super) fn advance(&mut self, now: u64) {
        loop {
            let event = self.events.peek().map(|Reverse(e)| e.0);
            let dram = self.dram_next;
            match (event, dram) {
                (_, Some(d)) if d <= now && event.is_none_or(|e| d <= e) => self.dram_step(d),
                (Some(e), _) if e <= now => {
                    if let Some(Reverse((at, _, slot))) = self.events.pop() {
                        self.free_events.push(slot);
                        self.handle(at, self.slab[slot as usize]);
                    }
                }
                _ => break,
            }
        }
        self.now = now;
    }

    fn handle(&mut self, t: u64, ev: Ev) {
        match ev {
            Ev::Done { core, id } => self.ready.push(Completion { id, core, at: t }),
            Ev::Down { from, msg, line } => self.send_down(t, from, msg, line),
            Ev::Arrive { at, msg, line } => self.arrive(t, at, msg, line),
            Ev::Up { from, msg, line } => self.send_up(t, from, msg, line),
            Ev::Respond { at, msg, line } => self.respond(t, at, msg, line),
            Ev::Drain { node } => self.drain(t, node),
        }
    }
}
