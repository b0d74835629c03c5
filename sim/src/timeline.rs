//! A run's timeline for a trace viewer (`wsim run --trace`): each core's phase over time,
//! each warp's life and its barrier and Weaver waits (when warps are asked for), and
//! counters sampled every `interval` cycles. Recorded only when asked: a core pushes a
//! [`CoreEvent`] at the few places these happen (a phase write, a warp spawn or retire, a
//! barrier, a Weaver decode), never per instruction, and the machine samples its counters
//! when the interval has passed. The engine keeps the timeline in memory, bounded, and
//! hands it to the caller, who writes the file.

use crate::stats::{SlotReason, Slots};

/// What to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineOptions {
    /// Cycles between counter samples. When a run would need more than `max_samples`, the
    /// interval doubles and neighbouring samples merge, so the whole run stays covered.
    pub interval: u64,
    pub max_samples: usize,
    /// Record each warp's life, barrier waits and Weaver waits (else only cores' phases).
    pub warps: bool,
    /// Slices kept at most (phases and warp slices); later ones are only counted.
    pub max_slices: usize,
}

/// Something a core did that the timeline shows, with the cycle it happened at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreEvent {
    /// The core's phase (CSR 0x7C0) became `phase`.
    Phase {
        at: u64,
        phase: u32,
    },
    WarpStart {
        at: u64,
        warp: u32,
    },
    WarpEnd {
        at: u64,
        warp: u32,
    },
    /// The warp arrived at barrier `id` (bit 31: global).
    BarrierArrive {
        at: u64,
        warp: u32,
        id: u32,
    },
    /// The warps of the mask (a bit per warp) leave the barrier they wait at.
    BarrierRelease {
        at: u64,
        warps: u32,
    },
    /// The warp waits for the Weaver's answer to a decode request from `from` until
    /// `until`; `None`: an EGHW fetch, whose [`CoreEvent::WeaverAnswer`] comes later.
    WeaverWait {
        warp: u32,
        from: u64,
        until: Option<u64>,
    },
    WeaverAnswer {
        at: u64,
        warp: u32,
    },
}

/// A core's events while the timeline records; `warps`: warp-level events too.
#[derive(Clone, Debug, Default)]
pub struct CoreTrace {
    pub warps: bool,
    pub events: Vec<CoreEvent>,
}

impl CoreTrace {
    /// Record a warp-level event (when warps are recorded).
    #[inline]
    pub fn warp(&mut self, event: CoreEvent) {
        if self.warps {
            self.events.push(event);
        }
    }
}

/// What a slice of time on a track was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceKind {
    /// The core was in this phase.
    Phase(u32),
    /// The warp was live (from its start to its retirement).
    Live,
    /// The warp waited at barrier `id` (bit 31: global).
    Barrier(u32),
    /// The warp waited for the Weaver's answer to a decode request.
    Weaver,
}

/// Cycles `start..end` of a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub start: u64,
    pub end: u64,
    pub kind: SliceKind,
}

/// What one core did over a sample's cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreSample {
    pub instructions: u64,
    pub slots: Slots,
}

/// The counters over cycles `start..end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub start: u64,
    pub end: u64,
    /// Bytes DRAM moved (reads and writes completed).
    pub dram_bytes: u64,
    pub cores: Vec<CoreSample>,
}

impl Sample {
    /// The two neighbouring samples as one.
    fn merged(&self, next: &Sample) -> Sample {
        Sample {
            start: self.start,
            end: next.end,
            dram_bytes: self.dram_bytes + next.dram_bytes,
            cores: (self.cores.iter().zip(&next.cores))
                .map(|(a, b)| CoreSample {
                    instructions: a.instructions + b.instructions,
                    slots: add(&a.slots, &b.slots),
                })
                .collect(),
        }
    }
}

fn add(a: &Slots, b: &Slots) -> Slots {
    let mut s = *a;
    for r in SlotReason::ALL {
        s.add(r, b.get(r));
    }
    s
}

fn since(now: &Slots, earlier: &Slots) -> Slots {
    let mut s = Slots::default();
    for r in SlotReason::ALL {
        s.add(r, now.get(r) - earlier.get(r));
    }
    s
}

/// A core's slices: its phases, and each warp's (life, then waits, in start order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreTimeline {
    pub phases: Vec<Slice>,
    pub warps: Vec<Vec<Slice>>,
}

/// The recorded timeline of a run, from cycle 0 to `end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    pub end: u64,
    /// The sampling interval in the end (the one asked for, doubled as often as needed).
    pub interval: u64,
    pub samples: Vec<Sample>,
    pub cores: Vec<CoreTimeline>,
    pub warps_recorded: bool,
    /// Slices beyond `max_slices`, not kept.
    pub dropped: u64,
}

/// What is open on a warp's track.
#[derive(Clone, Copy, Debug, Default)]
struct WarpOpen {
    live: Option<u64>,
    barrier: Option<(u64, u32)>,
    weaver: Option<u64>,
}

/// The timeline being recorded.
#[derive(Clone, Debug)]
pub struct Recorder {
    options: TimelineOptions,
    interval: u64,
    next_sample: u64,
    /// Where the last sample ended, with the whole-run counts then.
    last: (u64, u64, Vec<CoreSample>),
    samples: Vec<Sample>,
    cores: Vec<CoreTimeline>,
    /// Each core's phase and since when.
    phases: Vec<(u32, u64)>,
    open: Vec<Vec<WarpOpen>>,
    kept: usize,
    dropped: u64,
}

impl Recorder {
    pub fn new(options: TimelineOptions, cores: usize, warps: usize) -> Self {
        let interval = options.interval.max(1);
        Recorder {
            options,
            interval,
            next_sample: interval,
            last: (0, 0, vec![CoreSample::default(); cores]),
            samples: Vec::new(),
            cores: vec![
                CoreTimeline {
                    phases: Vec::new(),
                    warps: vec![Vec::new(); if options.warps { warps } else { 0 }],
                };
                cores
            ],
            phases: vec![(0, 0); cores],
            open: vec![vec![WarpOpen::default(); warps]; cores],
            kept: 0,
            dropped: 0,
        }
    }

    /// Whether cycle `now` ends a sample.
    #[inline]
    pub fn due(&self, now: u64) -> bool {
        now >= self.next_sample
    }

    /// The counters at the start of cycle `now`: each core's whole-run instructions and
    /// issue slots, and the bytes DRAM has moved. Closes the sample since the last one.
    pub fn sample(&mut self, now: u64, cores: &[CoreSample], dram_bytes: u64) {
        let (start, dram, before) = &self.last;
        if now > *start {
            self.samples.push(Sample {
                start: *start,
                end: now,
                dram_bytes: dram_bytes - dram,
                cores: (cores.iter().zip(before))
                    .map(|(c, b)| CoreSample {
                        instructions: c.instructions - b.instructions,
                        slots: since(&c.slots, &b.slots),
                    })
                    .collect(),
            });
        }
        self.last = (now, dram_bytes, cores.to_vec());
        if self.samples.len() >= self.options.max_samples.max(2) {
            self.samples = (self.samples.chunks(2))
                .map(|pair| match pair {
                    [a, b] => a.merged(b),
                    [a] => a.clone(),
                    _ => unreachable!("chunks of two"),
                })
                .collect();
            self.interval *= 2;
        }
        self.next_sample = now + self.interval;
    }

    /// A core's events, in the order it recorded them.
    pub fn events(&mut self, core: usize, events: impl IntoIterator<Item = CoreEvent>) {
        for e in events {
            match e {
                CoreEvent::Phase { at, phase } => {
                    let (was, since) = std::mem::replace(&mut self.phases[core], (phase, at));
                    self.phase_slice(core, since, at, was);
                }
                CoreEvent::WarpStart { at, warp } => self.open[core][warp as usize].live = Some(at),
                CoreEvent::WarpEnd { at, warp } => {
                    if let Some(from) = self.open[core][warp as usize].live.take() {
                        self.warp_slice(core, warp, from, at, SliceKind::Live);
                    }
                }
                CoreEvent::BarrierArrive { at, warp, id } => {
                    self.open[core][warp as usize].barrier = Some((at, id));
                }
                CoreEvent::BarrierRelease { at, warps } => {
                    for w in (0..32).filter(|w| warps >> w & 1 != 0) {
                        if let Some((from, id)) = self.open[core][w as usize].barrier.take() {
                            self.warp_slice(core, w, from, at, SliceKind::Barrier(id));
                        }
                    }
                }
                CoreEvent::WeaverWait { warp, from, until } => match until {
                    Some(to) => self.warp_slice(core, warp, from, to, SliceKind::Weaver),
                    None => self.open[core][warp as usize].weaver = Some(from),
                },
                CoreEvent::WeaverAnswer { at, warp } => {
                    if let Some(from) = self.open[core][warp as usize].weaver.take() {
                        self.warp_slice(core, warp, from, at, SliceKind::Weaver);
                    }
                }
            }
        }
    }

    fn phase_slice(&mut self, core: usize, start: u64, end: u64, phase: u32) {
        if let Some(slice) = self.keep(start, end, SliceKind::Phase(phase)) {
            self.cores[core].phases.push(slice);
        }
    }

    fn warp_slice(&mut self, core: usize, warp: u32, start: u64, end: u64, kind: SliceKind) {
        if let Some(slice) = self.keep(start, end, kind) {
            self.cores[core].warps[warp as usize].push(slice);
        }
    }

    /// A slice of some length, unless the limit is reached (then it is counted).
    fn keep(&mut self, start: u64, end: u64, kind: SliceKind) -> Option<Slice> {
        if end <= start {
            return None;
        }
        if self.kept >= self.options.max_slices {
            self.dropped += 1;
            return None;
        }
        self.kept += 1;
        Some(Slice { start, end, kind })
    }

    /// The timeline of a run that ended at cycle `end` (the last sample taken): what is
    /// still open closes there.
    pub fn finish(mut self, end: u64) -> Timeline {
        for core in 0..self.cores.len() {
            let (phase, since) = self.phases[core];
            self.phase_slice(core, since, end, phase);
            for w in 0..self.open[core].len() {
                let open = std::mem::take(&mut self.open[core][w]);
                let warp = w as u32;
                if let Some((from, id)) = open.barrier {
                    self.warp_slice(core, warp, from, end, SliceKind::Barrier(id));
                }
                if let Some(from) = open.weaver {
                    self.warp_slice(core, warp, from, end, SliceKind::Weaver);
                }
                if let Some(from) = open.live {
                    self.warp_slice(core, warp, from, end, SliceKind::Live);
                }
            }
        }
        for core in &mut self.cores {
            for warp in &mut core.warps {
                // Outer slices first where they start together, so that a viewer nests them.
                warp.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
            }
        }
        Timeline {
            end,
            interval: self.interval,
            samples: self.samples,
            cores: self.cores,
            warps_recorded: self.options.warps,
            dropped: self.dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(max_samples: usize) -> TimelineOptions {
        TimelineOptions {
            interval: 10,
            max_samples,
            warps: true,
            max_slices: 4,
        }
    }

    fn core(instructions: u64) -> CoreSample {
        let mut slots = Slots::default();
        slots.add(SlotReason::Issued, instructions);
        CoreSample {
            instructions,
            slots,
        }
    }

    #[test]
    fn samples_are_differences_and_merge_in_pairs_at_the_limit() {
        let mut r = Recorder::new(options(4), 1, 1);
        for (now, n) in [(10, 5), (20, 7), (30, 7), (45, 20)] {
            assert!(r.due(now));
            r.sample(now, &[core(n)], 2 * n);
        }
        // Four samples reached the limit: two remain, covering the same cycles.
        let t = r.finish(45);
        assert_eq!(t.interval, 20);
        assert_eq!(t.samples.len(), 2);
        assert_eq!((t.samples[0].start, t.samples[0].end), (0, 20));
        assert_eq!(t.samples[0].cores[0].instructions, 7);
        assert_eq!((t.samples[1].start, t.samples[1].end), (20, 45));
        assert_eq!(t.samples[1].dram_bytes, 26);
        assert_eq!(t.samples[1].cores[0].slots.get(SlotReason::Issued), 13);
    }

    #[test]
    fn slices_pair_up_close_at_the_end_and_stop_at_the_limit() {
        let mut r = Recorder::new(options(100), 1, 2);
        r.events(
            0,
            [
                CoreEvent::WarpStart { at: 0, warp: 0 },
                CoreEvent::Phase { at: 5, phase: 1 },
                CoreEvent::BarrierArrive {
                    at: 6,
                    warp: 0,
                    id: 2,
                },
                CoreEvent::BarrierArrive {
                    at: 9,
                    warp: 1,
                    id: 2,
                },
                // The last to arrive waits no time: no slice.
                CoreEvent::BarrierRelease { at: 9, warps: 3 },
                CoreEvent::WeaverWait {
                    warp: 0,
                    from: 12,
                    until: None,
                },
            ],
        );
        let t = r.finish(20);
        let c = &t.cores[0];
        let phase = |start, end, p| Slice {
            start,
            end,
            kind: SliceKind::Phase(p),
        };
        assert_eq!(c.phases, [phase(0, 5, 0), phase(5, 20, 1)]);
        let kinds: Vec<_> = c.warps[0]
            .iter()
            .map(|s| (s.start, s.end, s.kind))
            .collect();
        // The fifth slice (the warp's life, closed last at the end) is over the limit.
        assert_eq!(
            kinds,
            [(6, 9, SliceKind::Barrier(2)), (12, 20, SliceKind::Weaver)]
        );
        assert!(c.warps[1].is_empty());
        assert_eq!(t.dropped, 1);
    }
}
