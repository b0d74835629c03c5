//! The hierarchy's clock: the calendar of scheduled events, processing them in (cycle,
//! creation order) interleaved with the DRAM model's own, and dispatching each to the
//! block it concerns.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Completion, DramModel, Ev, MemoryHierarchy};

/// Cycles the calendar's ring covers ahead of its current cycle. Latencies of caches and
/// links are far below it; an event further out (an atomic behind a long queue) waits in
/// a heap until the ring reaches its cycle.
const WINDOW: usize = 512;
const MASK: u64 = WINDOW as u64 - 1;

/// A calendar queue: one bucket per cycle for the `WINDOW` cycles from `cur`, each
/// holding its events in the order they were scheduled, so events come out in (cycle,
/// creation order), as from a heap keyed by both, at constant cost per event.
///
/// Exactness: an event enters the ring directly only while its cycle is within the
/// window; one further out goes to `far` and is moved into its bucket as soon as the ring
/// reaches within `WINDOW` of its cycle, before any event for that cycle can be scheduled
/// directly (those come later in creation order, because the current cycle only grows).
#[derive(Clone)]
pub(super) struct Calendar<E> {
    /// The events of cycle `t` (`cur <= t < cur + WINDOW`) are `ring[t % WINDOW]`.
    ring: Vec<Vec<E>>,
    /// A bit per non-empty bucket.
    occupied: [u64; WINDOW / 64],
    /// The cycle of the bucket being taken from, and how many of its events are taken.
    cur: u64,
    head: usize,
    /// Events in the ring not yet taken.
    len: usize,
    /// The cycle of the earliest event in the ring (`u64::MAX`: none), kept so that a
    /// look at the next event does not search the ring.
    first: u64,
    /// Events beyond the window: (cycle, creation order, index in `far_events`).
    far: BinaryHeap<Reverse<(u64, u64, u32)>>,
    far_events: Vec<E>,
    free_far: Vec<u32>,
    seq: u64,
}

impl<E: Copy> Calendar<E> {
    pub(super) fn new() -> Self {
        Calendar {
            ring: (0..WINDOW).map(|_| Vec::new()).collect(),
            occupied: [0; WINDOW / 64],
            cur: 0,
            head: 0,
            len: 0,
            first: u64::MAX,
            far: BinaryHeap::new(),
            far_events: Vec::new(),
            free_far: Vec::new(),
            seq: 0,
        }
    }

    /// Schedule `ev` at cycle `at`, never before the last event taken.
    #[inline]
    pub(super) fn push(&mut self, at: u64, ev: E) {
        debug_assert!(at >= self.cur, "an event scheduled in the past");
        if at - self.cur < WINDOW as u64 {
            let slot = (at & MASK) as usize;
            self.ring[slot].push(ev);
            self.occupied[slot / 64] |= 1 << (slot % 64);
            self.len += 1;
            self.first = self.first.min(at);
        } else {
            self.seq += 1;
            let index = match self.free_far.pop() {
                Some(i) => {
                    self.far_events[i as usize] = ev;
                    i
                }
                None => {
                    self.far_events.push(ev);
                    self.far_events.len() as u32 - 1
                }
            };
            self.far.push(Reverse((at, self.seq, index)));
        }
    }

    /// The cycle of the next event.
    #[inline]
    pub(super) fn peek(&self) -> Option<u64> {
        if self.len > 0 {
            return Some(self.first);
        }
        self.far.peek().map(|Reverse((at, _, _))| *at)
    }

    /// Take the next event.
    pub(super) fn pop(&mut self) -> Option<(u64, E)> {
        loop {
            let bucket = &self.ring[(self.cur & MASK) as usize];
            if let Some(&ev) = bucket.get(self.head) {
                self.head += 1;
                self.len -= 1;
                if self.head == bucket.len() {
                    self.first = if self.len > 0 {
                        self.next_occupied()
                    } else {
                        u64::MAX
                    };
                }
                return Some((self.cur, ev));
            }
            let slot = (self.cur & MASK) as usize;
            self.ring[slot].clear();
            self.occupied[slot / 64] &= !(1 << (slot % 64));
            self.head = 0;
            self.cur = if self.len > 0 {
                self.first
            } else {
                self.far.peek()?.0 .0
            };
            // Events that came within the window go to their buckets, in order.
            while let Some(&Reverse((at, _, index))) = self.far.peek() {
                if at - self.cur >= WINDOW as u64 {
                    break;
                }
                self.far.pop();
                self.free_far.push(index);
                let slot = (at & MASK) as usize;
                self.ring[slot].push(self.far_events[index as usize]);
                self.occupied[slot / 64] |= 1 << (slot % 64);
                self.len += 1;
                self.first = self.first.min(at);
            }
        }
    }

    /// The cycle of the first non-empty bucket after the current one (some must be).
    fn next_occupied(&self) -> u64 {
        let from = self.cur + 1;
        let start = (from & MASK) as usize;
        let mut word = start / 64;
        let mut bits = self.occupied[word] & (!0u64 << (start % 64));
        loop {
            if bits != 0 {
                let slot = word * 64 + bits.trailing_zeros() as usize;
                return from + ((slot as u64).wrapping_sub(start as u64) & MASK);
            }
            word = (word + 1) % (WINDOW / 64);
            bits = self.occupied[word];
        }
    }

    /// Events scheduled and not yet taken.
    pub(super) fn len(&self) -> usize {
        self.len + self.far.len()
    }
}

impl<D: DramModel> MemoryHierarchy<D> {
    #[inline]
    pub(super) fn schedule(&mut self, at: u64, ev: Ev) {
        self.events.push(at, ev);
    }

    /// Process every event up to `now`, DRAM's first on a tie (its replies are from the
    /// past cycle's work).
    #[inline]
    pub(super) fn advance(&mut self, now: u64) {
        // Most calls (a core's access in a cycle already ticked) find nothing due.
        let due = |t: Option<u64>| t.is_some_and(|t| t <= now);
        if due(self.events.peek()) || due(self.dram_next) {
            self.advance_events(now);
        }
        self.now = now;
    }

    fn advance_events(&mut self, now: u64) {
        loop {
            let event = self.events.peek();
            let dram = self.dram_next;
            match (event, dram) {
                (_, Some(d)) if d <= now && event.is_none_or(|e| d <= e) => self.dram_step(d),
                (Some(e), _) if e <= now => {
                    if let Some((at, ev)) = self.events.pop() {
                        self.handle(at, ev);
                    }
                }
                _ => break,
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a heap keyed by (cycle, creation order), on a pseudo-random schedule of
    /// near and far events, taken as the hierarchy takes them (never scheduling before the
    /// last event taken).
    #[test]
    fn calendar_orders_as_a_heap() {
        let mut cal = Calendar::new();
        let mut heap = BinaryHeap::new();
        let mut seq = 0u64;
        let mut x = 12345u64;
        let mut rand = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut now = 0;
        let mut taken = 0;
        for round in 0..20_000u64 {
            for _ in 0..rand(4) {
                let delay = match rand(10) {
                    0 => rand(5 * WINDOW as u64),
                    1 => WINDOW as u64 - 1 + rand(3),
                    _ => rand(40),
                };
                seq += 1;
                cal.push(now + delay, seq);
                heap.push(Reverse((now + delay, seq)));
            }
            for _ in 0..rand(5) {
                assert_eq!(cal.peek(), heap.peek().map(|Reverse((at, _))| *at));
                let Some(Reverse((at, s))) = heap.pop() else {
                    assert_eq!(cal.pop(), None);
                    break;
                };
                assert_eq!(cal.pop(), Some((at, s)), "round {round}");
                now = at;
                taken += 1;
            }
            assert_eq!(cal.len(), heap.len());
        }
        assert!(taken > 10_000);
    }
}
