//! Back-pressure: every request that goes down the hierarchy holds a credit of the buffer
//! it is headed for, taken before it leaves, so nothing between the L1s and DRAM grows
//! without bound. A full DRAM queue holds back the level above; that level stops taking
//! requests from its input; its input fills and the L1s refuse (`Reject::QueueFull`); the
//! LSU queue fills and warps stall.
//!
//! - **Receivers**: a lower cache's input, through one link: at most the link's `queue`
//!   requests on the link or waiting in the input (the credit returns when the cache takes
//!   the request); a DRAM queue (a channel): its free places less those promised to
//!   requests still on their way (the credit returns when DRAM issues a request).
//! - **Senders**: a socket's L1 data or instruction cache, an L2 or the L3, and DRAM
//!   itself (an atomic's write after its read). A request an L1 cannot send is refused
//!   (`Reject::NoCredit`) and its core sleeps until a completion that belongs to no
//!   request (id `ROOM`) says a credit has come; what a cache must send once it has taken a
//!   request (a miss, a write-through write, a dirty victim, an atomic's write) waits in the
//!   sender's outbox, and a lower cache takes no further request while its outbox is not
//!   empty, so each outbox stays small (a few messages per request in flight).
//! - **Fairness**: credits are granted in the order senders asked for them. A sender that
//!   finds no credit queues for the receiver, and a freed credit goes to the first in the
//!   queue, so a core spinning on a lock cannot starve the core that releases it. A woken
//!   L1 that does not ask again within a cycle (its core found other work) leaves the
//!   queue, so it cannot hold credits back for others.
//! - **Sockets**: the cores of a socket share their L1s, so one sender asks for them all.
//!   When one of its cores takes a credit while another still sleeps refused (its request
//!   waits behind the same L1), the sender stays queued but goes to the back, as if the
//!   sleeper asked anew: a later credit wakes the sleeper. Without the place, the first
//!   core's success would leave the other asleep for good; keeping the front instead
//!   starves the other senders, since two cores of a socket that keep asking (a spin
//!   lock) always leave one asleep and so would take every credit freed one at a time
//!   (atomics.c on sparseweaver-sockets: cores 1 and 2 spun on the lock through their
//!   L1D while the other four cores, the lock's holder among them, starved behind it).

use std::collections::VecDeque;

use super::{Completion, DramModel, Ev, Level, MemoryHierarchy, Msg, ROOM};

/// Where a request is headed: the input behind link `index`, or DRAM queue `queue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Receiver {
    Link(usize),
    Dram(usize),
}

impl Receiver {
    /// A dense index, for the per-receiver tables.
    #[inline]
    fn index(self) -> usize {
        match self {
            Receiver::Link(i) => 2 * i,
            Receiver::Dram(q) => 2 * q + 1,
        }
    }
}

/// Who sends. Outboxes and places in the queues of waiting senders are kept per sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sender {
    L1d(u32),
    L1i(u32),
    Lower(usize),
    Dram,
}

impl Sender {
    /// A dense index, for the per-sender tables.
    #[inline]
    fn index(self) -> usize {
        match self {
            Sender::Dram => 0,
            Sender::L1d(s) => 1 + 3 * s as usize,
            Sender::L1i(s) => 2 + 3 * s as usize,
            Sender::Lower(n) => 3 + 3 * n,
        }
    }
}

/// A message a sender could not send yet: from `from`, ready to leave at `at`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parked {
    pub from: Level,
    pub msg: Msg,
    pub line: u32,
    pub at: u64,
    pub to: Receiver,
}

/// Senders waiting for one receiver, in the order they asked; an L1 that was told a
/// credit came, with the cycle it was told. A few senders at most (one per sender that
/// shares the receiver), so a vector: a refused L1 scans it at every retry.
type Waiting = Vec<(Sender, Option<u64>)>;

/// The credits of every receiver and the senders waiting for them.
#[derive(Clone, Default)]
pub(super) struct Credits {
    /// Per link: its capacity, and the requests sent over it not yet taken by the cache
    /// at its end.
    link_capacity: Vec<u32>,
    link_held: Vec<u32>,
    /// Per DRAM queue: places promised to requests still on their way.
    dram_promised: Vec<u32>,
    /// Per receiver (by [`Receiver::index`]): the senders waiting for it. Receivers are
    /// visited in the order they were first asked for (`receivers`), which fixes the order
    /// in which freed DRAM credits are served.
    waiting: Vec<Option<Waiting>>,
    receivers: Vec<Receiver>,
    /// Per L1 sender (by [`Sender::index`]), the cores it refused for want of a credit
    /// that have not asked again.
    refused: Vec<Vec<u32>>,
    /// Scratch lists, kept to reuse their allocations.
    scratch_receivers: Vec<Receiver>,
    scratch_senders: Vec<Sender>,
}

impl Credits {
    pub(super) fn new(link_capacity: Vec<u32>) -> Self {
        Credits {
            link_held: vec![0; link_capacity.len()],
            link_capacity,
            ..Credits::default()
        }
    }

    #[inline]
    fn queue_of(&mut self, r: Receiver) -> &mut Waiting {
        let i = r.index();
        if i >= self.waiting.len() {
            self.waiting.resize_with(i + 1, || None);
        }
        let receivers = &mut self.receivers;
        self.waiting[i].get_or_insert_with(|| {
            receivers.push(r);
            Vec::new()
        })
    }

    /// The senders waiting for `r`, once it has been asked for.
    #[inline]
    fn queue(&self, r: Receiver) -> Option<&Waiting> {
        self.waiting.get(r.index()).and_then(Option::as_ref)
    }

    /// `core` asks `s` to send one of its requests: it is no longer asleep refused.
    pub(super) fn asking(&mut self, s: Sender, core: u32) {
        if let Some(cores) = self.refused.get_mut(s.index()) {
            cores.retain(|&c| c != core);
        }
    }

    /// `s` refused `core` for want of a credit: the core sleeps until told.
    pub(super) fn refuse(&mut self, s: Sender, core: u32) {
        let i = s.index();
        if i >= self.refused.len() {
            self.refused.resize_with(i + 1, Vec::new);
        }
        if !self.refused[i].contains(&core) {
            self.refused[i].push(core);
        }
    }

    /// Whether a core `s` refused still sleeps.
    #[inline]
    fn has_sleepers(&self, s: Sender) -> bool {
        self.refused.get(s.index()).is_some_and(|c| !c.is_empty())
    }
}

/// The outboxes of the senders: per sender (by [`Sender::index`]) the messages it could
/// not send for want of credits, and the senders in the order their outboxes were first
/// used (the order freed credits serve outboxes that are not in a receiver's queue).
#[derive(Clone, Default)]
pub(super) struct Outboxes {
    boxes: Vec<Option<VecDeque<Parked>>>,
    order: Vec<Sender>,
    /// Messages in all the outboxes.
    parked: usize,
}

impl Outboxes {
    fn of(&mut self, s: Sender) -> &mut VecDeque<Parked> {
        let i = s.index();
        if i >= self.boxes.len() {
            self.boxes.resize_with(i + 1, || None);
        }
        let order = &mut self.order;
        self.boxes[i].get_or_insert_with(|| {
            order.push(s);
            VecDeque::new()
        })
    }

    #[inline]
    fn busy(&self, s: Sender) -> bool {
        self.parked > 0
            && (self.boxes.get(s.index()))
                .is_some_and(|q| q.as_ref().is_some_and(|q| !q.is_empty()))
    }
}

impl<D: DramModel> MemoryHierarchy<D> {
    /// The receiver of a request from `from` on `core`'s path for `line`.
    pub(super) fn receiver(&self, from: Level, core: u32, line: u32) -> Receiver {
        if self.below(from) == Level::Dram {
            Receiver::Dram(self.dram.queue_of(line << self.line_shift))
        } else {
            Receiver::Link(self.link_index(from, core))
        }
    }

    fn free(&self, r: Receiver) -> usize {
        let c = &self.credits;
        match r {
            Receiver::Link(i) => (c.link_capacity[i] - c.link_held[i]) as usize,
            Receiver::Dram(q) => {
                let promised = c.dram_promised.get(q).copied().unwrap_or(0);
                self.dram.room(q).saturating_sub(promised as usize)
            }
        }
    }

    /// Whether `s` may send to `r` at cycle `t`: a credit is free for it, those ahead of it
    /// in the queue of waiting senders served first. If not, `s` takes (or keeps) its
    /// place in that queue and leaves any other: a sender waits for one receiver at a time.
    pub(super) fn can_send(&mut self, t: u64, s: Sender, r: Receiver) -> bool {
        let free = self.free(r);
        // No sender waits for `r` (the common case): a free credit is the answer.
        if free > 0 && self.credits.queue(r).is_some_and(Vec::is_empty) {
            return true;
        }
        let q = self.credits.queue_of(r);
        // An L1 told of a credit that did not come back for it has left.
        let left = |&(w, told): &(Sender, Option<u64>)| w != s && told.is_some_and(|at| at + 1 < t);
        if q.iter().any(left) {
            q.retain(|e| !left(e));
        }
        let ahead = q.iter().position(|&(w, _)| w == s);
        if free > ahead.unwrap_or(q.len()) {
            return true;
        }
        match ahead {
            Some(i) => q[i].1 = None,
            None => {
                let mine = r.index();
                for (i, q) in self.credits.waiting.iter_mut().enumerate() {
                    if let Some(q) = q.as_mut().filter(|q| i != mine && !q.is_empty()) {
                        q.retain(|&(w, _)| w != s);
                    }
                }
                self.credits.queue_of(r).push((s, None));
            }
        }
        false
    }

    /// Take the credit [`Self::can_send`] found for `s`. A socket's L1 with a core still
    /// asleep refused goes to the back of the queue (the module documentation).
    pub(super) fn take_credit(&mut self, s: Sender, r: Receiver) {
        let credits = &mut self.credits;
        let sleepers = credits.has_sleepers(s);
        let q = credits.queue_of(r);
        // A sender is in a queue at most once.
        if let Some(i) = q.iter().position(|&(w, _)| w == s) {
            q.remove(i);
            if sleepers {
                q.push((s, None));
            }
        }
        match r {
            Receiver::Link(i) => credits.link_held[i] += 1,
            Receiver::Dram(q) => {
                if q >= credits.dram_promised.len() {
                    credits.dram_promised.resize(q + 1, 0);
                }
                credits.dram_promised[q] += 1;
            }
        }
    }

    /// A request that came over link `index` was taken by the cache at its end.
    pub(super) fn return_link_credit(&mut self, t: u64, index: usize) {
        self.credits.link_held[index] -= 1;
        self.serve_waiters(t, Receiver::Link(index));
    }

    /// A request promised a place in DRAM queue `q` arrived there.
    pub(super) fn redeem_dram_promise(&mut self, q: usize) {
        self.credits.dram_promised[q] -= 1;
    }

    /// Credits of `r` may have been freed: as many senders as there are credits move, in
    /// the order they asked (then the outboxes that were not in the queue): a lower cache
    /// looks at its outbox and input, an L1's outbox is flushed and its cores are told.
    pub(super) fn serve_waiters(&mut self, t: u64, r: Receiver) {
        let mut free = self.free(r);
        if free == 0 {
            return;
        }
        let mut senders = std::mem::take(&mut self.credits.scratch_senders);
        senders.clear();
        if let Some(q) = self.credits.queue(r) {
            senders.extend(q.iter().map(|&(s, _)| s));
        }
        if self.outboxes.parked > 0 {
            for s in &self.outboxes.order {
                let q = self.outboxes.boxes[s.index()].as_ref();
                let front = q.and_then(VecDeque::front);
                if front.is_some_and(|p| p.to == r) && !senders.contains(s) {
                    senders.push(*s);
                }
            }
        }
        for &s in &senders {
            if free == 0 {
                break;
            }
            free -= 1;
            match s {
                Sender::Lower(node) => self.wake(t, node),
                Sender::Dram => {
                    self.flush_outbox(t, s);
                }
                Sender::L1d(socket) | Sender::L1i(socket) => {
                    if self.flush_outbox(t, s) {
                        self.tell_cores(t, r, s, socket);
                    }
                }
            }
        }
        self.credits.scratch_senders = senders;
    }

    /// Tell the cores of `socket` that the credit `s` waits for in `r` has come (a
    /// completion of no request wakes a core refused for want of one).
    fn tell_cores(&mut self, t: u64, r: Receiver, s: Sender, socket: u32) {
        let q = self.credits.queue_of(r);
        if let Some(entry) = q.iter_mut().find(|(w, _)| *w == s) {
            entry.1 = Some(t);
        }
        let first = socket * self.cores_per_socket;
        for core in first..first + self.cores_per_socket {
            self.ready.push(Completion {
                id: ROOM,
                core,
                at: t,
            });
        }
    }

    /// After DRAM issued requests: serve the senders waiting for its queues.
    pub(super) fn serve_dram_waiters(&mut self, t: u64) {
        // The receivers waited for now, in the order they were first asked for.
        let mut waited = std::mem::take(&mut self.credits.scratch_receivers);
        waited.clear();
        let c = &self.credits;
        waited.extend(c.receivers.iter().filter(|&&r| {
            matches!(r, Receiver::Dram(_)) && c.queue(r).is_some_and(|q| !q.is_empty())
        }));
        for &r in &waited {
            if self.free(r) > 0 {
                self.serve_waiters(t, r);
            }
        }
        self.credits.scratch_receivers = waited;
    }

    /// Whether `s` has messages waiting for credits.
    #[inline]
    pub(super) fn outbox_busy(&self, s: Sender) -> bool {
        self.outboxes.busy(s)
    }

    /// Send `msg` from `from` down at cycle `at` (`t`: now) if `s` has a credit for it,
    /// else keep it in `s`'s outbox, in order behind what is already there.
    pub(super) fn emit(&mut self, s: Sender, t: u64, at: u64, from: Level, msg: Msg, line: u32) {
        let to = self.receiver(from, msg.core, line);
        let parked = Parked {
            from,
            msg,
            line,
            at,
            to,
        };
        if !self.outbox_busy(s) && self.can_send(t, s, to) {
            self.take_credit(s, to);
            self.leave(at, from, msg, line);
        } else {
            self.outboxes.of(s).push_back(parked);
            self.outboxes.parked += 1;
        }
    }

    /// Send what `s`'s outbox can, in order. Returns whether it is empty.
    pub(super) fn flush_outbox(&mut self, t: u64, s: Sender) -> bool {
        while let Some(&p) = self.outboxes.of(s).front() {
            if !self.can_send(t, s, p.to) {
                return false;
            }
            self.take_credit(s, p.to);
            self.outboxes.of(s).pop_front();
            self.outboxes.parked -= 1;
            let Parked {
                from, msg, line, ..
            } = p;
            self.leave(p.at.max(t), from, msg, line);
        }
        true
    }

    /// A message with its credit leaves `from` at `at`: down the link, or, DRAM's own
    /// (an atomic's write), straight into its queue.
    fn leave(&mut self, at: u64, from: Level, msg: Msg, line: u32) {
        let to = if from == Level::Dram {
            Ev::Arrive {
                at: Level::Dram,
                msg,
                line,
            }
        } else {
            Ev::Down { from, msg, line }
        };
        self.schedule(at, to);
    }

    /// Messages in outboxes (pending work).
    pub(super) fn parked(&self) -> usize {
        self.outboxes.parked
    }
}
