//! A budget of detail (`Plan::budget`): the plan trimmed to at most a share of the run's
//! warp instructions simulated in detail, where it can be.
//!
//! Which units are measured is decided as the functional run passes them, and how many
//! warp instructions the run has is known only at its end; so with a budget every job is
//! held back (`Workers`) and trimmed there. The plan is kept level by level, the most
//! valuable first, each level whole before the next:
//! 1. each stratum's first measured unit (a stratum without one has no estimate; a launch
//!    body's, the first of each octave of warps among its measured units; the units the
//!    plan placed at random in its blocks first, its first two after them; a short
//!    launch's tail with its head), with
//!    the cores' probes at a kernel's head at a unit's length (the progress model needs
//!    them: without it PageRank VM on UK at a tenth of its size was 19.7% low);
//! 2. the units measured for their octave alone (`Seen::octave_first`);
//! 3. each stratum's second measured unit, the fewest that give its spread, without the
//!    octaves' units;
//! 4. the probes longer, doubling towards `PAST_THE_HEAD` (a short probe measures the
//!    head's ramp);
//! 5. the octaves' units again;
//! 6. the first two warm-up checks, the fewest whose ratio is applied;
//! 7. the rest of the plan.
//!
//! Measured (docs/ARCHITECTURE.md, "Sampled simulation", item 15): with the longer probes
//! before the second units, Table 4.5's medium PageRanks under VM on HW and UK came to
//! +5.90% and +3.70% at a tenth, with them after +3.41% and +2.48%. The octaves' units
//! give way to the second units where both do not fit (item 19): in the first level itself
//! (item 18's build) they left strata measured once and 13 more of Figure 4.19's quick
//! intervals unbounded; where the first level alone is beyond the budget they are what a
//! drain's post-strata need.
//!
//! At every level a kernel's probes are kept only with one of the units that calibrate the
//! model for it: without one it is not timed and nothing reads them (on seven of Table 4.5's
//! eight quick PageRanks no body unit is full, and the probes were half their detail).
//!
//! The last level within the share is kept. When the first alone is beyond it the second
//! is kept, and the record says the budget was not held: fewer units would leave strata
//! unmeasured, and the octaves' few units then cost little beside them. A job keeps its
//! units from the first to the last kept one (those between cost nothing more: they are
//! its warm-up), starting as far before its new first unit as it did before its old one.

use std::collections::{BTreeMap, BTreeSet};

use wsim_sim::stats::Budget;

use crate::detail::{past_the_head, Job, Mark, Probing, Span, PAST_THE_HEAD};
use crate::Seen;

/// How much of the plan a level keeps: units up to this rank among their stratum's
/// measured ones (0: the first), this many warm-up checks (the first ones), and the
/// head's probes of the cores at most this long.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Level {
    rank: usize,
    checks: usize,
    longest: u64,
    /// The units measured only as their octave's first (`Seen::octave_first`) are kept.
    octave_firsts: bool,
}

/// What the trim reads of a job: where its warm-up starts, whether it is a warm-up check,
/// and its units.
struct Outline<'a> {
    from: usize,
    check: bool,
    units: &'a [Span],
}

impl<'a> From<&'a Job> for Outline<'a> {
    fn from(job: &'a Job) -> Self {
        Outline {
            from: job.from,
            check: job.check,
            units: &job.units,
        }
    }
}

/// What a level makes of a job: the unit its warm-up starts at, and its units kept (a
/// range of its spans), the head's probes at the level's length.
struct Shape {
    from: usize,
    kept: std::ops::Range<usize>,
}

/// The machine's shape and the run's units, for the plan's cost.
pub(crate) struct Run<'a> {
    pub units: &'a [Seen],
    pub cores: usize,
    pub socket: usize,
    /// The plan's units' length inside launches (0: none).
    pub period: u64,
    /// With the cores' progress model, the launch bodies' units that cannot calibrate it
    /// (`Bodies::unfull_units`): not promoted when placed.
    pub unfull: BTreeSet<usize>,
    /// With the cores' progress model, the kernel of each launch body's and tail's unit
    /// (`Bodies::kernels`), and the units that can calibrate a kernel's body: its full
    /// units but a ramp's and those measured for their octave alone. A kernel none of
    /// whose calibrating units is kept is not timed (`estimate`), so its probes, which
    /// nothing else reads, are dropped.
    pub kernels: BTreeMap<usize, String>,
    pub calibrating: BTreeSet<usize>,
}

impl Run<'_> {
    /// Each measured unit's rank among its stratum's measured units, a launch body's among
    /// those of its octave of warps: a body the cores' progress model does not time is
    /// estimated by those octaves (`post_strata`), and its draining warps' units, kept
    /// apart, are what its first unit alone misses (docs/ARCHITECTURE.md, "Sampled
    /// simulation", item 16).
    ///
    /// The units the plan placed at random in their blocks (`Choice`) rank before the
    /// stratum's first two, which stand where its first launch starts: a body's first
    /// units after its ramp still ran 1.2-1.5 cycles a warp instruction where the rest ran
    /// 1.0 (PageRank VM on the UK stand-in, item 21). With the cores' progress model a
    /// launch body's unit does only when full, as only those calibrate it (later ones left
    /// a kernel uncalibrated and so untimed: PageRank VM on the CO stand-in at a tenth of
    /// its size +4.7% to +25.6%); heads and tails calibrate nothing and do (else a
    /// kernel's first launches' heads and tails stood for all its others: item 22); a short
    /// launch's tail (`Seen::with_head`) ranks with its head, so that a level keeps the
    /// launch whole or not at all; and a unit that carries the cores' probes (`probed`)
    /// keeps its rank by order: the model reads them.
    fn ranks(&self, probed: &BTreeSet<usize>) -> Vec<usize> {
        type Group<'a> = (&'a str, Option<u32>);
        let placed = |k: usize| {
            self.units[k].placed
                && !self.units[k].with_head
                && !probed.contains(&k)
                && !self.unfull.contains(&k)
        };
        let mut placed_in: BTreeMap<Group, usize> = BTreeMap::new();
        for (k, u) in self.units.iter().enumerate() {
            if placed(k) {
                *placed_in.entry((&u.stratum, u.octave)).or_default() += 1;
            }
        }
        // Per group: its placed units so far, and its others (its first two, probed ones
        // among them).
        let mut seen: BTreeMap<Group, [usize; 2]> = BTreeMap::new();
        let mut ranks: Vec<usize> = Vec::with_capacity(self.units.len());
        for (k, u) in self.units.iter().enumerate() {
            let rank = if u.octave_first {
                // A unit measured for its octave alone is kept by its own level.
                0
            } else if u.with_head {
                // A short launch's tail is kept with its head.
                ranks[k - 1]
            } else if !u.sampled {
                usize::MAX
            } else {
                let group = (u.stratum.as_str(), u.octave);
                let [placed_so_far, first_so_far] = seen.entry(group).or_default();
                if placed(k) {
                    *placed_so_far += 1;
                    *placed_so_far - 1
                } else {
                    *first_so_far += 1;
                    // A probed unit is one of its group's first (a kernel's first measured
                    // body unit, its first measured tails), ahead of every placed unit.
                    let behind = match probed.contains(&k) {
                        true => 0,
                        false => placed_in.get(&group).copied().unwrap_or(0),
                    };
                    behind + *first_so_far - 1
                }
            };
            ranks.push(rank);
        }
        ranks
    }

    /// The levels, cheapest first (but that the octaves' units give way to the second
    /// units until those are all in).
    fn levels(&self) -> Vec<Level> {
        let lengths = match self.period {
            0 => vec![PAST_THE_HEAD],
            unit => past_the_head(unit, PAST_THE_HEAD),
        };
        let level = |rank, longest| Level {
            rank,
            checks: 0,
            longest,
            octave_firsts: false,
        };
        let first = level(0, lengths[0]);
        let mut levels = vec![
            first,
            Level {
                octave_firsts: true,
                ..first
            },
        ];
        levels.extend(lengths.iter().map(|&longest| level(1, longest)));
        let octave_firsts = Level {
            octave_firsts: true,
            ..level(1, PAST_THE_HEAD)
        };
        levels.push(octave_firsts);
        levels.push(Level {
            checks: 2,
            ..octave_firsts
        });
        levels.push(Level {
            rank: usize::MAX,
            checks: usize::MAX,
            longest: PAST_THE_HEAD,
            octave_firsts: true,
        });
        levels
    }

    /// The shape of each of `jobs` at `level` (None: dropped), the checks' after the
    /// measuring jobs' (a check keeps only units measured otherwise too).
    fn shapes(&self, jobs: &[Outline], ranks: &[usize], level: Level) -> Vec<Option<Shape>> {
        let mut shapes: Vec<Option<Shape>> = (jobs.iter())
            .map(|job| {
                let keep = |s: &Span| {
                    ranks[s.unit] <= level.rank
                        && (level.octave_firsts || !self.units[s.unit].octave_first)
                };
                let first = job.units.iter().position(keep)?;
                let last = job.units.iter().rposition(keep)?;
                let from = job.units[first].unit - (job.units[0].unit - job.from);
                (!job.check).then_some(Shape {
                    from,
                    kept: first..last + 1,
                })
            })
            .collect();
        let measured: BTreeSet<usize> = (jobs.iter().zip(&shapes))
            .filter_map(|(job, shape)| Some(&job.units[shape.as_ref()?.kept.clone()]))
            .flatten()
            .map(|s| s.unit)
            .collect();
        let mut checks = 0;
        for (job, shape) in jobs.iter().zip(&mut shapes) {
            if !job.check {
                continue;
            }
            checks += 1;
            let kept = (job.units.iter())
                .take_while(|s| measured.contains(&s.unit))
                .count();
            if checks <= level.checks && kept > 0 {
                *shape = Some(Shape {
                    from: job.from,
                    kept: 0..kept,
                });
            }
        }
        shapes
    }

    /// The kernels whose probes are read with the units the measuring jobs (not the
    /// checks) of `jobs` keep: those with a unit kept that calibrates them.
    fn read<'s>(&self, jobs: impl IntoIterator<Item = (bool, &'s [Span])>) -> BTreeSet<&str> {
        (jobs.into_iter().filter(|(check, _)| !check))
            .flat_map(|(_, spans)| spans.iter())
            .filter(|s| self.calibrating.contains(&s.unit))
            .filter_map(|s| Some(self.kernels.get(&s.unit)?.as_str()))
            .collect()
    }

    /// `span` as a level keeps it: its head's probes at most `longest` long, and none where
    /// its kernel's probes are not `read`.
    fn kept(&self, span: Span, longest: u64, read: &BTreeSet<&str>) -> Span {
        let read = (self.kernels.get(&span.unit)).is_some_and(|k| read.contains(k.as_str()));
        match span.probe {
            Probing::None => span,
            _ if !read => Span {
                probe: Probing::None,
                ..span
            },
            _ => shorter(span, longest),
        }
    }

    /// The warp instructions `jobs` shaped by `shapes` simulate in detail at most (each
    /// from its warm-up's start to its last unit, its probes at their longest).
    fn cost(&self, jobs: &[Outline], shapes: &[Option<Shape>], level: Level) -> u64 {
        let read = self.read((jobs.iter().zip(shapes)).filter_map(|(job, shape)| {
            Some((job.check, &job.units[shape.as_ref()?.kept.clone()]))
        }));
        (jobs.iter().zip(shapes))
            .filter_map(|(job, shape)| {
                let shape = shape.as_ref()?;
                let spans = &job.units[shape.kept.clone()];
                let probes: u64 = (spans.iter())
                    .map(|s| {
                        (self.kept(*s, level.longest, &read))
                            .probes_at_most(self.cores, self.socket)
                    })
                    .sum();
                let last = spans.last()?.unit;
                let run: u64 = self.units[shape.from..=last]
                    .iter()
                    .map(|u| u.instructions)
                    .sum();
                Some(probes + run)
            })
            .sum()
    }
}

/// The level a budget keeps, its jobs' shapes, the plan's cost whole and kept, and whether
/// that is within the budget.
struct Chosen {
    level: Level,
    shapes: Vec<Option<Shape>>,
    planned: u64,
    kept: u64,
    held: bool,
}

impl Run<'_> {
    /// The last level of the plan of `jobs` within `share` of the run's warp instructions,
    /// or when none is the first with the octaves' units: the budget is not held anyway,
    /// and those few units are what a drain's post-strata need.
    fn choose(&self, jobs: &[Outline], share: f64) -> Chosen {
        let probed: BTreeSet<usize> = (jobs.iter().filter(|j| !j.check))
            .flat_map(|j| j.units.iter())
            .filter(|s| !matches!(s.probe, Probing::None))
            .map(|s| s.unit)
            .collect();
        let ranks = self.ranks(&probed);
        let levels = self.levels();
        let beyond = (levels.iter().position(|l| l.octave_firsts)).expect("a level has them");
        let instructions: u64 = self.units.iter().map(|u| u.instructions).sum();
        let allowed = share * instructions as f64;
        let mut shaped: Vec<(Level, Vec<Option<Shape>>, u64)> = (levels.into_iter())
            .map(|l| {
                let shapes = self.shapes(jobs, &ranks, l);
                let cost = self.cost(jobs, &shapes, l);
                (l, shapes, cost)
            })
            .collect();
        let planned = shaped.last().map_or(0, |(_, _, cost)| *cost);
        let chosen = (shaped.iter())
            .rposition(|(_, _, cost)| *cost as f64 <= allowed)
            .unwrap_or(beyond);
        let (level, shapes, kept) = shaped.swap_remove(chosen);
        Chosen {
            level,
            shapes,
            planned,
            kept,
            held: kept as f64 <= allowed,
        }
    }
}

/// `span` with its head's probes at most `longest` long.
fn shorter(span: Span, longest: u64) -> Span {
    match span.probe {
        Probing::Head { longest: was } => Span {
            probe: Probing::Head {
                longest: was.min(longest),
            },
            ..span
        },
        _ => span,
    }
}

/// Trim `jobs` (every job of the run, in the order they were made) to at most `share` of
/// the run's warp instructions in detail where a level of the plan is within it; `mark`
/// gives where a unit starts. The units no job measures any more are marked unsampled.
pub(crate) fn trim(
    run: &Run,
    jobs: Vec<Job>,
    share: f64,
    mark: impl Fn(usize) -> Mark,
) -> (Vec<Job>, Budget, Vec<usize>) {
    let outlines: Vec<Outline> = jobs.iter().map(Outline::from).collect();
    let Chosen {
        level,
        shapes,
        planned,
        kept,
        held,
    } = run.choose(&outlines, share);
    drop(outlines);
    let measured_before = measured_units(&jobs);
    let checks = |jobs: &[Job]| jobs.iter().filter(|j| j.check).count();
    let checks_before = checks(&jobs);
    let mut trimmed: Vec<Job> = (jobs.into_iter().zip(shapes))
        .filter_map(|(mut job, shape)| {
            let shape = shape?;
            let first = shape.kept.start;
            job.units.truncate(shape.kept.end);
            job.units.drain(..first);
            if shape.from != job.from {
                job.forward = Some(mark(shape.from));
                job.from = shape.from;
            }
            Some(job)
        })
        .collect();
    let read = run.read(trimmed.iter().map(|j| (j.check, &j.units[..])));
    // Whether the level runs some head's probes shorter than the plan did.
    let mut shortened = false;
    for span in trimmed.iter_mut().flat_map(|j| &mut j.units) {
        let kept = run.kept(*span, level.longest, &read);
        shortened |= kept.probe != Probing::None && kept.head_lengths() != span.head_lengths();
        *span = kept;
    }
    let measured_after = measured_units(&trimmed);
    let dropped: Vec<usize> = measured_before
        .difference(&measured_after)
        .copied()
        .collect();
    let record = Budget {
        share,
        planned,
        kept,
        dropped_units: dropped.len() as u32,
        dropped_checks: (checks_before - checks(&trimmed)) as u32,
        probe_length: shortened.then_some(level.longest),
        held,
    };
    (trimmed, record, dropped)
}

/// The units the measuring jobs (not the checks) of `jobs` measure.
fn measured_units(jobs: &[Job]) -> BTreeSet<usize> {
    (jobs.iter().filter(|j| !j.check))
        .flat_map(|j| j.units.iter().map(|s| s.unit))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(stratum: &str, instructions: u64, sampled: bool) -> Seen {
        Seen {
            stratum: stratum.to_string(),
            instructions,
            launches: (0, 0),
            whole_launches: false,
            sampled,
            fills: 0,
            octave: None,
            octave_first: false,
            placed: false,
            with_head: false,
        }
    }

    fn span(unit: usize, probe: Probing) -> Span {
        Span {
            unit,
            start: Mark::Instructions {
                launches: 0,
                after: unit as u64 * 100,
            },
            end: Mark::Instructions {
                launches: 0,
                after: unit as u64 * 100 + 100,
            },
            probe,
        }
    }

    /// Ten units of 100 warp instructions: 0 the first (measured), 1-8 a kernel's bodies
    /// (1, 2, 5 and 7 measured: ranks 0, 1, 2, 3), 9 the last (measured).
    fn units() -> Vec<Seen> {
        let mut units = vec![seen("first", 100, true)];
        units.extend((1..9).map(|u| seen("body", 100, [1, 2, 5, 7].contains(&u))));
        units.push(seen("last", 100, true));
        units
    }

    /// The units' run, its bodies' units 1-8 all able to calibrate their kernel.
    fn run(units: &[Seen], period: u64) -> Run<'_> {
        Run {
            units,
            cores: 8,
            socket: 4,
            period,
            unfull: BTreeSet::new(),
            kernels: (1..9).map(|u| (u, "body".to_string())).collect(),
            calibrating: (1..9).collect(),
        }
    }

    #[test]
    fn the_levels_keep_one_unit_then_two_then_longer_probes_then_octaves_then_checks() {
        let units = units();
        let r = run(&units, 200_000);
        let levels: Vec<(usize, usize, u64, bool)> = (r.levels().iter())
            .map(|l| (l.rank, l.checks, l.longest, l.octave_firsts))
            .collect();
        assert_eq!(
            levels,
            [
                (0, 0, 200_000, false),
                (0, 0, 200_000, true),
                (1, 0, 200_000, false),
                (1, 0, 400_000, false),
                (1, 0, 800_000, false),
                (1, 0, PAST_THE_HEAD, true),
                (1, 2, PAST_THE_HEAD, true),
                (usize::MAX, usize::MAX, PAST_THE_HEAD, true)
            ]
        );
        const NOT: usize = usize::MAX;
        let none = BTreeSet::new();
        assert_eq!(r.ranks(&none), [0, 0, 1, NOT, NOT, 2, NOT, 3, NOT, 0]);
        // Units 5 and 7 at their blocks' random places rank before the first two, but a
        // unit that carries probes (1) keeps its rank by order.
        let mut placed = self::units();
        (placed[5].placed, placed[7].placed) = (true, true);
        let r_placed = run(&placed, 0);
        assert_eq!(
            r_placed.ranks(&none),
            [0, 2, 3, NOT, NOT, 0, NOT, 1, NOT, 0]
        );
        let probed = BTreeSet::from([1]);
        assert_eq!(
            r_placed.ranks(&probed),
            [0, 0, 3, NOT, NOT, 0, NOT, 1, NOT, 0]
        );
        // With the progress model, body unit 7 is not full: it ranks after the first two.
        let r_full = Run {
            unfull: BTreeSet::from([3, 4, 6, 7, 8]),
            ..run(&placed, 0)
        };
        assert_eq!(r_full.ranks(&none), [0, 1, 2, NOT, NOT, 0, NOT, 3, NOT, 0]);
        // A body's units with their work on 1 warp (octave 0) and on 100 (octave 6) rank
        // apart.
        let mut by_warps = self::units();
        for (u, warps) in (1..9).zip([100u32, 100, 1, 100, 1, 1, 120, 100]) {
            by_warps[u].octave = Some(warps.ilog2());
        }
        let ranks = [0, 0, 1, NOT, NOT, 0, NOT, 2, NOT, 0];
        assert_eq!(run(&by_warps, 0).ranks(&none), ranks);
        // Unit 3 measured only as octave 0's first: the plan's units rank as without it.
        (by_warps[3].sampled, by_warps[3].octave_first) = (true, true);
        let ranks = [0, 0, 1, 0, NOT, 0, NOT, 2, NOT, 0];
        assert_eq!(run(&by_warps, 0).ranks(&none), ranks);
        let jobs = [Outline {
            from: 3,
            check: false,
            units: &[span(3, Probing::None)],
        }];
        let r = run(&by_warps, 0);
        let kept = |l: Level| r.shapes(&jobs, &r.ranks(&none), l)[0].is_some();
        let levels = r.levels();
        let kept: Vec<bool> = levels.into_iter().map(kept).collect();
        assert_eq!(
            kept,
            [false, true, false, true, true, true],
            "but beside second units"
        );
    }

    /// Units 1-8 as four short launches of two units each (a head, its tail with it), 1-2
    /// and 5-6 measured, 5 at its block's random place (and its tail with it): each tail
    /// ranks with its head, so that a level keeps a launch whole or not at all.
    #[test]
    fn a_short_launchs_tail_ranks_with_its_head() {
        let mut units = units();
        for (u, seen) in units.iter_mut().enumerate().take(9).skip(1) {
            seen.stratum = "short".to_string();
            seen.sampled = [1, 2, 5, 6].contains(&u);
            seen.with_head = u % 2 == 0;
        }
        (units[5].placed, units[6].placed) = (true, true);
        const NOT: usize = usize::MAX;
        let none = BTreeSet::new();
        let ranks = [0, 1, 1, NOT, NOT, 0, 0, NOT, NOT, 0];
        assert_eq!(run(&units, 0).ranks(&none), ranks);
    }

    /// The run's start (units 0-2, one job), a stretch of units 5-7 warmed up from 4, its
    /// check, and the last unit. Measuring only each stratum's first unit keeps units 0 and
    /// 1 of the first job (2 is the body's second) and drops the stretch and its check;
    /// with the second units, 0-2; with all, the stretch and its check.
    #[test]
    fn a_job_keeps_its_units_from_the_first_to_the_last_its_level_needs() {
        let units = units();
        let r = run(&units, 0);
        let start = [
            span(0, Probing::None),
            span(1, Probing::None),
            span(2, Probing::None),
        ];
        let stretch = [
            span(5, Probing::None),
            span(6, Probing::None),
            span(7, Probing::None),
        ];
        let last = [span(9, Probing::None)];
        let outline = |from, check, units| Outline { from, check, units };
        let jobs = [
            outline(0, false, &start[..]),
            outline(4, false, &stretch[..]),
            outline(2, true, &stretch[..2]),
            outline(9, false, &last[..]),
        ];
        let ranks = r.ranks(&BTreeSet::new());
        let shapes = |rank, checks| {
            let level = Level {
                rank,
                checks,
                longest: PAST_THE_HEAD,
                octave_firsts: false,
            };
            (r.shapes(&jobs, &ranks, level).into_iter())
                .map(|s| s.map(|s| (s.from, s.kept)))
                .collect::<Vec<_>>()
        };
        assert_eq!(shapes(0, 2), [Some((0, 0..2)), None, None, Some((9, 0..1))]);
        assert_eq!(shapes(1, 2), [Some((0, 0..3)), None, None, Some((9, 0..1))]);
        assert_eq!(
            shapes(3, 2),
            [
                Some((0, 0..3)),
                Some((4, 0..3)),
                Some((2, 0..2)),
                Some((9, 0..1))
            ]
        );
        assert_eq!(shapes(3, 0)[2], None, "no check at a level without");
        // Units 1-2 dropped from a stretch that started at unit 1 after a warm-up of two:
        // its new first unit, 5, keeps the warm-up of two.
        let late = [
            span(1, Probing::None),
            span(2, Probing::None),
            span(5, Probing::None),
        ];
        let jobs = [outline(0, false, &late[..])];
        let level = Level {
            rank: 2,
            checks: 0,
            longest: PAST_THE_HEAD,
            octave_firsts: false,
        };
        let shape = r.shapes(&jobs, &[9, 9, 9, 9, 9, 2, 9, 9, 9, 9], level);
        assert_eq!(
            shape[0].as_ref().map(|s| (s.from, s.kept.clone())),
            Some((4, 2..3))
        );
    }

    /// The plan's cost at each level, and the last within the share: a head's eleven
    /// probes (8 cores in sockets of 4) of a unit's 100 warp instructions or longer
    /// (`past_the_head` doubles to its longest), and two sockets' lone warps.
    #[test]
    fn the_budget_keeps_the_last_level_within_its_share() {
        let units = units();
        let r = run(&units, 100);
        let head = Probing::Head {
            longest: PAST_THE_HEAD,
        };
        let start = [span(0, Probing::None)];
        let body = [span(1, head), span(2, Probing::None)];
        let later = [span(5, Probing::None)];
        let last = [span(9, Probing::None)];
        let outline = |from, units| Outline {
            from,
            check: false,
            units,
        };
        let jobs = [
            outline(0, &start[..]),
            outline(1, &body[..]),
            outline(5, &later[..]),
            outline(9, &last[..]),
        ];
        let lone = 2 * 2 * 8 * 1024;
        let probes = |longest: u64| 11 * longest + lone;
        let total = 1_000.0;
        let cost = |share: f64| {
            let c = r.choose(&jobs, share / total);
            (c.kept, c.held, c.level.rank, c.level.longest)
        };
        // Units 0, 1 and 9 with probes of 100, then unit 2 too, then longer probes.
        assert_eq!(cost(1.0), (300 + probes(100), false, 0, 100));
        assert_eq!(
            cost((300 + probes(100)) as f64),
            (300 + probes(100), true, 0, 100)
        );
        assert_eq!(
            cost((400 + probes(100)) as f64),
            (400 + probes(100), true, 1, 100)
        );
        // The probes' longest: 100 doubled while within `PAST_THE_HEAD`.
        let longest = 819_200;
        let all = 500 + probes(longest);
        assert_eq!(r.choose(&jobs, 1e9).planned, all);
        assert_eq!(cost(all as f64), (all, true, usize::MAX, PAST_THE_HEAD));
        let two = 400 + probes(longest);
        assert_eq!(cost(all as f64 - 1.0), (two, true, 1, PAST_THE_HEAD));
        assert_eq!(
            cost(two as f64 - 1.0),
            (400 + probes(longest / 2), true, 1, longest / 2)
        );
        // Unit 3 measured for its octave alone: kept with the first units when they are
        // beyond the share anyway, dropped for the second units.
        let mut units = self::units();
        (units[3].sampled, units[3].octave_first) = (true, true);
        let r = run(&units, 100);
        let octave = [span(3, Probing::None)];
        let jobs = [
            outline(0, &start[..]),
            outline(1, &body[..]),
            outline(5, &later[..]),
            outline(9, &last[..]),
            outline(3, &octave[..]),
        ];
        let chosen = |share: f64| {
            let c = r.choose(&jobs, share / total);
            (c.kept, c.held, c.level.rank, c.level.octave_firsts)
        };
        assert_eq!(chosen(1.0), (400 + probes(100), false, 0, true));
        assert_eq!(
            chosen((300 + probes(100)) as f64),
            (300 + probes(100), true, 0, false)
        );
        assert_eq!(
            chosen((400 + probes(100)) as f64),
            (400 + probes(100), true, 1, false)
        );
    }

    /// A kernel's probes are read only where a unit that calibrates it is kept (without
    /// one it is not timed): the trim drops them and their cost, and the levels they made
    /// too costly may fit. The jobs of the test above, unit 5 alone calibrating the body.
    #[test]
    fn probes_no_kept_unit_would_read_are_dropped() {
        let units = units();
        let r = Run {
            calibrating: BTreeSet::from([5]),
            ..run(&units, 100)
        };
        let head = Probing::Head {
            longest: PAST_THE_HEAD,
        };
        let start = [span(0, Probing::None)];
        let body = [span(1, head), span(2, Probing::None)];
        let later = [span(5, Probing::None)];
        let last = [span(9, Probing::None)];
        let outline = |from, units| Outline {
            from,
            check: false,
            units,
        };
        let jobs = [
            outline(0, &start[..]),
            outline(1, &body[..]),
            outline(5, &later[..]),
            outline(9, &last[..]),
        ];
        let total = 1_000.0;
        let cost = |share: f64| {
            let c = r.choose(&jobs, share / total);
            (c.kept, c.held, c.level.rank, c.level.longest)
        };
        // Units 0, 1 and 9, then 2 too, without the probes; with unit 5 they are read.
        assert_eq!(cost(1.0), (300, false, 0, 100));
        assert_eq!(cost(399.0), (300, true, 0, 100));
        assert_eq!(cost(400.0), (400, true, 1, PAST_THE_HEAD));
        let lone = 2 * 2 * 8 * 1024;
        let all = 500 + 11 * 819_200 + lone;
        assert_eq!(cost(all as f64), (all, true, usize::MAX, PAST_THE_HEAD));
        // Kept as the trim keeps them: read with unit 5 measured, not with it in a check.
        let none = r.read([(false, &body[..])]);
        assert!(none.is_empty());
        assert!(r.read([(true, &later[..])]).is_empty());
        assert_eq!(r.kept(body[0], 100, &none).probe, Probing::None);
        let read = r.read([(false, &body[..]), (false, &later[..])]);
        assert_eq!(read, BTreeSet::from(["body"]));
        assert_eq!(
            r.kept(body[0], 100, &read).probe,
            Probing::Head { longest: 100 }
        );
    }
}
