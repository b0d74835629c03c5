//! The whole GPU: its cores, the memory they share, the I/O words, global barriers, and
//! the loop that runs a program from its entry until every warp has exited.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use wsim_isa::{SfuKind, Unit};

mod functional;
mod intervals;

use crate::config::{Arbiter, Config, StartCores, WeaverMode, WeaverPresence};
use crate::core::pipeline::{MemoryPort, PortKind, PortRequest, Refusal, Retry};
use crate::core::{Core, Effect};
use crate::error::{ErrorKind, SimError, SimResult};
use crate::instruction_trace::{InstructionTrace, TraceFilter};
use crate::limits;
use crate::loader::{self, Symbol};
use crate::mem::hierarchy::{
    AccessKind, Completion, HierarchyStats, MemAccess, MemConfig, MemoryHierarchy, Reject,
};
use crate::mem::Memory;
use crate::memory_map::MemoryMap;
use crate::phase_names;
use crate::profile::{self, LaunchAccounts, PcTotals, Profile, Selection};
use crate::program::Program;
use crate::shared::{Geometry, Shared};
use crate::stats::{
    CoreCounters, CoreStats, Iteration, LaunchRecord, MemoryTally, Merge, Sampling, ITERATION_END,
};
use crate::timeline::{Recorder, Timeline, TimelineOptions};
use intervals::Intervals;

/// How a run was simulated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Cycle by cycle, every block timed ([`Machine::run`]).
    #[default]
    Detailed,
    /// Instructions only, no time ([`Machine::run_functional`]): no cycle, issue slot,
    /// cache or DRAM statistic was measured.
    Functional,
    /// Functionally, with some intervals simulated in detail from copies of the machine
    /// (the sampler): the architectural results are exact, the cycles an estimate with its
    /// interval ([`Sampling`]).
    Sampled,
}

impl Mode {
    pub fn is_detailed(&self) -> bool {
        *self == Mode::Detailed
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// How the run was simulated (the last mode of a run handed from one to the other).
    pub mode: Mode,
    /// The program's exit status.
    pub exit_code: u32,
    pub cycles: u64,
    /// Issue slots per core per cycle.
    pub slices: usize,
    pub cores: Vec<CoreStats>,
    pub memory: HierarchyStats,
    pub console: Vec<u8>,
    /// The cores had the Weaver unit, and this L1 data cache (bytes).
    pub weaver: bool,
    pub l1d_size: u32,
    /// The unit ran in EGHW mode because the program asked for it (`wsim_requires_eghw`),
    /// not because the configuration said so.
    pub eghw_by_program: bool,
    /// The iterations the program marked (CSR 0x7C6), in order.
    pub iterations: Vec<Iteration>,
    /// The kernel launches, in order (a launch still running at the end closes there).
    pub launches: Vec<LaunchRecord>,
    /// The names the program gives its phases (index = phase number; `phase_names`).
    pub phase_names: Vec<String>,
    /// Slots and instructions by PC, when the run was profiled ([`Machine::profile_pcs`]).
    pub profile: Option<Profile>,
    /// How a sampled run's cycles were estimated.
    pub sampling: Option<Sampling>,
}

impl RunSummary {
    /// Every core's counters, all phases.
    pub fn total(&self) -> CoreCounters {
        let mut t = CoreCounters::default();
        for c in &self.cores {
            t.merge(&c.total());
        }
        t
    }

    /// The deepest SIMT stack of any warp.
    pub fn max_stack_depth(&self) -> u64 {
        self.cores
            .iter()
            .map(|c| c.max_stack_depth)
            .max()
            .unwrap_or(0)
    }
}

/// The intervals a run has begun ([`Machine::cuts`]): launches and iterations, the open
/// one of each counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    pub launches: usize,
    pub launch_open: bool,
    pub iterations: usize,
    pub iteration_open: bool,
}

/// How far a run has come: what [`Machine::run_observed`] hands its observer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub cycles: u64,
    /// Warp instructions issued so far, all cores.
    pub instructions: u64,
}

/// A core's kind of request as the memory hierarchy names it.
fn access_kind(kind: PortKind) -> AccessKind {
    match kind {
        PortKind::Fetch => AccessKind::Fetch,
        PortKind::Read => AccessKind::Read,
        PortKind::Write => AccessKind::Write,
        PortKind::Atomic => AccessKind::Atomic,
    }
}

/// The cores' view of the memory hierarchy.
struct Port<'a>(&'a mut MemoryHierarchy);

impl MemoryPort for Port<'_> {
    fn send(&mut self, now: u64, core: u32, req: PortRequest) -> Result<Option<u64>, Retry> {
        let kind = access_kind(req.kind);
        let access = MemAccess {
            id: req.ticket.encode(),
            core,
            addr: req.line,
            kind,
            phase: req.phase,
            ops: req.ops,
            pc: req.pc,
        };
        self.0.access(now, access).map_err(|reject| match reject {
            Reject::MshrFull => Retry::AfterCompletion(Refusal::MshrFull),
            Reject::NoCredit => Retry::AfterCompletion(Refusal::NoCredit),
            Reject::BankConflict | Reject::QueueFull | Reject::PortBusy => Retry::NextCycle,
        })
    }
}

/// The machine a host drives: built from a configuration and an ELF image, filled through
/// the host API (symbols, words, regions) before [`Machine::run`], read after it. Its
/// state is private: the host API is the whole boundary between the engine and a workload.
#[derive(Clone)]
pub struct Machine {
    config: Config,
    /// The cores have the Weaver unit (and a reduced L1 data cache).
    weaver: bool,
    /// `config.weaver.mode` is EGHW because the program requires it (`wsim_requires_eghw`).
    eghw_by_program: bool,
    cores: Vec<Core>,
    shared: Shared,
    memory: MemoryHierarchy,
    /// The program's symbols (for hosts that fill program data before the run).
    symbols: Vec<Symbol>,
    /// One past the highest byte of the program image.
    image_end: u32,
    /// The names the program gives its phases (`phase_names`).
    phase_names: Vec<String>,
    /// Global barriers in progress: id -> (count, arrived (core, warp)).
    global_barriers: BTreeMap<u32, (u32, Vec<(usize, usize)>)>,
    /// Global barriers released so far (`Machine::global_barrier_releases`).
    global_releases: u64,
    /// The functional rounds run the cores, and each core its warps, last to first
    /// (`Machine::reverse_functional_order`).
    functional_reversed: bool,
    /// The exit status a store to `tohost` or an exit gave: the run ends with the cycle.
    ended: Option<u32>,
    /// How the machine has run: `None` before it ran (`functional.rs` may hand over to a
    /// detailed run, not back).
    mode: Option<Mode>,
    /// The iterations and launches so far.
    intervals: Intervals,
    /// The cores whose own launch runs (a launch record is open while any does), and
    /// whether that changed in this cycle.
    launching: u32,
    launch_changed: bool,
    /// The core whose launch started while none ran: its entry of the runtime's launch
    /// table names the kernel of the record that opens.
    launch_core: usize,
    /// A profiled run's accounts at launches: each one's wait, and the selected launches'
    /// counts by PC ([`Machine::profile_launches`]).
    launch_accounts: Option<LaunchAccounts>,
    /// Buffers the loop reuses from cycle to cycle: the hierarchy's completions, a
    /// core's effects.
    completions: Vec<Completion>,
    asked: Vec<(usize, Effect)>,
    /// A core's lines to warm the caches with, in a functional round (`warm_caches`).
    warming: Vec<(u32, PortKind)>,
    /// The timeline being recorded, if asked for.
    timeline: Option<Recorder>,
    /// Set by the host (a signal handler) to stop the run at the next cycle.
    stop: Option<Arc<AtomicBool>>,
}

impl Machine {
    /// Load `elf` into a machine built from `config`, ready to run. A program that defines
    /// `wsim_requires_eghw` (non-zero) gets the Weaver unit in its EGHW mode: `config` must
    /// then leave `weaver.mode` unstated (or state `eghw`) and the unit enabled.
    pub fn new(config: &Config, elf: &[u8]) -> SimResult<Machine> {
        config
            .validate()
            .map_err(|e| SimError::new(ErrorKind::Setup(e.to_string())))?;
        let image = loader::load(elf).map_err(|e| SimError::new(ErrorKind::Load(e.to_string())))?;
        let eghw_by_program = requires_eghw(&image) && config.weaver.mode != WeaverMode::Eghw;
        let program_config;
        let config = if eghw_by_program {
            program_config = eghw_config(config)?;
            &program_config
        } else {
            config
        };
        let phase_names =
            phase_names::read(&image).map_err(|e| SimError::new(ErrorKind::Load(e)))?;
        let map = MemoryMap::new(
            config,
            &image.segments,
            image.symbol("tohost").map(|s| s.addr),
        )
        .map_err(|e| SimError::new(ErrorKind::Setup(e)))?;
        let geometry = Geometry::new(config, map);
        // Memory nothing has written reads as zero: a segment's .bss (memsz beyond the
        // file's bytes, up to gigabytes in a hostile file) takes no host memory until used.
        let mut mem = Memory::new();
        for seg in &image.segments {
            mem.write_bytes(seg.vaddr, &seg.data);
        }
        let program = Program::new(&image);
        let weaver = match config.weaver.enabled {
            WeaverPresence::On => true,
            WeaverPresence::Off => false,
            WeaverPresence::Auto => program.uses_unit(Unit::Sfu(SfuKind::Weaver)),
        };
        if weaver {
            config
                .weaver_fits()
                .map_err(|e| SimError::new(ErrorKind::Setup(format!("the Weaver unit: {e}"))))?;
        }
        let image_end = image
            .segments
            .iter()
            .map(|s| s.vaddr.saturating_add(s.memsz))
            .max()
            .unwrap_or(0);
        let mut cores: Vec<Core> = (0..geometry.cores)
            .map(|id| Core::new(id, config, weaver))
            .collect();
        let starters = match config.run.start {
            StartCores::AllCores => cores.len(),
            StartCores::FirstCore => 1,
        };
        for core in cores.iter_mut().take(starters) {
            core.start(image.entry);
        }
        Ok(Machine {
            config: config.clone(),
            weaver,
            eghw_by_program,
            cores,
            memory: MemoryHierarchy::new(
                &effective_memory(config, weaver),
                config.gpu.clusters,
                config.gpu.cores_per_cluster,
            )
            .with_sockets(config.gpu.cores_per_socket),
            shared: Shared::new(
                mem,
                program,
                geometry,
                image.symbol("tohost").map(|s| s.addr),
            ),
            symbols: image.symbols,
            image_end,
            phase_names,
            global_barriers: BTreeMap::new(),
            global_releases: 0,
            functional_reversed: false,
            ended: None,
            mode: None,
            intervals: Intervals::new(),
            launching: 0,
            launch_changed: false,
            launch_core: 0,
            launch_accounts: None,
            completions: Vec::new(),
            asked: Vec::new(),
            warming: Vec::new(),
            timeline: None,
            stop: None,
        })
    }

    /// Record the run's timeline ([`crate::timeline`]); [`Machine::timeline`] hands it
    /// over after the run.
    pub fn record_timeline(&mut self, options: TimelineOptions) {
        let now = self.shared.cycle;
        let warps = self.config.gpu.warps_per_core as usize;
        self.timeline = Some(Recorder::new(options, self.cores.len(), warps));
        for core in &mut self.cores {
            core.record_timeline(options.warps, now);
        }
    }

    /// Stop the run at the start of the next simulated cycle once `flag` is set (a host's
    /// SIGINT): [`Machine::run`] then returns [`ErrorKind::Stopped`], and
    /// [`Machine::summary`] has the statistics up to that cycle. One load per cycle.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Record each instruction issued that `filter` keeps, up to its limit
    /// ([`crate::instruction_trace`]); [`Machine::instruction_trace`] hands them over.
    pub fn trace_instructions(&mut self, filter: TraceFilter) {
        self.shared.instructions = Some(InstructionTrace::new(filter));
    }

    /// The instructions traced so far (after the run, or after it failed); `None` if no
    /// trace was asked for.
    pub fn instruction_trace(&mut self) -> Option<InstructionTrace> {
        self.shared.instructions.take()
    }

    /// Charge every issue slot, instruction and memory event to its PC
    /// ([`crate::profile`]); the summary's `profile` has them, summed over the cores and
    /// folded to functions and source lines.
    pub fn profile_pcs(&mut self) {
        let ranges = self.shared.program.code_ranges();
        for core in &mut self.cores {
            core.profile_pcs(&ranges);
        }
        self.memory.count_by_pc();
        let wait_code = self.functions_named(profile::LAUNCH_WAIT);
        self.launch_accounts = Some(LaunchAccounts::new(wait_code));
    }

    /// Profile the run ([`Machine::profile_pcs`]) restricted to the launches `selection`
    /// selects: the summary's `profile` has their counts by PC (each from its start to its
    /// end, summed) and names the launches it covers, none if none was selected.
    pub fn profile_launches(&mut self, selection: Selection) {
        self.profile_pcs();
        if let Some(accounts) = &mut self.launch_accounts {
            accounts.select(selection);
        }
    }

    /// Profile the run and check that every slot gets the reason and PC a fresh look at
    /// every warp gives, at each cycle a core runs (the slots that do not issue) and at both
    /// ends of each sleep: a slot must not depend on when a sleeping core is looked at
    /// again. A disagreement panics, naming the core, slice and cycle. For tests: it
    /// examines every warp for every slot.
    pub fn check_slots(&mut self) {
        self.profile_pcs();
        for core in &mut self.cores {
            core.check_slots();
        }
    }

    /// The functions (symbols) called `name`: (start, end exclusive), in address order.
    pub fn functions_named(&self, name: &str) -> Vec<(u32, u32)> {
        self.shared.program.functions_named(name)
    }

    /// The instruction at `pc` as text, and its source line where the ELF has line tables.
    pub fn instruction_at(&self, pc: u32) -> (String, Option<String>) {
        let program = &self.shared.program;
        (program.text_of(pc, &self.shared.mem), program.line_of(pc))
    }

    /// Where `pc` is in the program's terms: `function+offset (file:line)`.
    pub fn place_of(&self, pc: u32) -> Option<String> {
        self.shared.program.place_of(pc)
    }

    /// The timeline recorded so far (after the run, or after it failed), closed at the
    /// current cycle; `None` if none was asked for.
    pub fn timeline(&mut self) -> Option<Timeline> {
        let now = self.shared.cycle;
        self.sample_timeline(now);
        let recorder = self.timeline.take()?;
        for core in &mut self.cores {
            core.stop_timeline();
        }
        Some(recorder.finish(now))
    }

    /// Hand the cores' events to the timeline and sample the counters at the start of
    /// cycle `now`.
    fn sample_timeline(&mut self, now: u64) {
        let Some(recorder) = &mut self.timeline else {
            return;
        };
        let mut counts = Vec::with_capacity(self.cores.len());
        for (c, core) in self.cores.iter_mut().enumerate() {
            recorder.events(c, core.timeline_events());
            counts.push(core.sample());
        }
        recorder.sample(now, &counts, self.memory.totals().dram.bytes);
    }

    /// Where the run stands among its intervals: where a host stops it at a launch or
    /// iteration boundary ([`Machine::run_functional_until`], [`Machine::run_until`]).
    pub fn cuts(&self) -> Cuts {
        let (launches, iterations) = (&self.intervals.launches, &self.intervals.iterations);
        Cuts {
            launches: launches.len() + usize::from(launches.is_open()),
            launch_open: launches.is_open(),
            iterations: iterations.len() + usize::from(iterations.is_open()),
            iteration_open: iterations.is_open(),
        }
    }

    /// The launches ended so far, in order (a host cutting the run at launches reads
    /// their kernels here).
    pub fn launches(&self) -> &[LaunchRecord] {
        self.intervals.launches.closed()
    }

    /// The launch running now, if any (its record as far as it is known: index, kernel,
    /// start).
    pub fn open_launch(&self) -> Option<&LaunchRecord> {
        self.intervals.launches.open_record()
    }

    /// Warp and thread instructions by PC so far, every core's, when the run is profiled
    /// ([`Machine::profile_pcs`]): between two boundaries, what a basic-block vector is
    /// made of.
    pub fn instructions_by_pc(&self) -> Option<BTreeMap<u32, (u64, u64)>> {
        let mut pcs = BTreeMap::new();
        for core in &self.cores {
            for (pc, c) in core.profile()?.counts() {
                let n: &mut (u64, u64) = pcs.entry(pc).or_default();
                n.0 += c.instructions;
                n.1 += c.thread_instructions;
            }
        }
        Some(pcs)
    }

    /// The first symbol (in address order) called `name`.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The configuration the machine was built from (with the Weaver unit in EGHW mode
    /// when the program requires it).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The cores have the Weaver unit.
    pub fn has_weaver(&self) -> bool {
        self.weaver
    }

    /// The names the program gives its phases (index = phase number).
    pub fn phase_names(&self) -> &[String] {
        &self.phase_names
    }

    /// The current cycle: 0 before the run.
    pub fn cycle(&self) -> u64 {
        self.shared.cycle
    }

    /// What the program wrote to the console so far.
    pub fn console(&self) -> &[u8] {
        &self.shared.console
    }

    /// The simulated memory's contents (the data; caches hold none).
    pub fn memory(&self) -> &Memory {
        &self.shared.mem
    }

    /// The regions loads and stores may touch.
    pub fn memory_map(&self) -> &MemoryMap {
        &self.shared.geometry.map
    }

    /// Core `core`'s local (shared) memory.
    pub fn local_memory(&self, core: usize) -> Option<&[u8]> {
        self.cores.get(core).map(|c| c.local_memory().bytes())
    }

    /// The word at `addr`.
    pub fn read_u32(&self, addr: u32) -> u32 {
        self.shared.mem.read_u32(addr)
    }

    /// `n` words from `addr`.
    pub fn read_words(&self, addr: u32, n: u32) -> Vec<u32> {
        (0..n)
            .map(|i| self.shared.mem.read_u32(addr + 4 * i))
            .collect()
    }

    /// Bytes into simulated memory at `addr` (a host filling program data).
    pub fn write_bytes(&mut self, addr: u32, bytes: &[u8]) {
        self.shared.mem.write_bytes(addr, bytes);
    }

    /// Words into simulated memory at `addr`.
    pub fn write_words(&mut self, addr: u32, words: &[u32]) {
        // A page at a time: an array of a largest graph is a gigabyte, not copied twice.
        const WORDS: usize = crate::mem::PAGE_SIZE / 4;
        let mut bytes = Vec::with_capacity(crate::mem::PAGE_SIZE);
        for (k, chunk) in words.chunks(WORDS).enumerate() {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|w| w.to_le_bytes()));
            let at = addr.wrapping_add((k * crate::mem::PAGE_SIZE) as u32);
            self.shared.mem.write_bytes(at, &bytes);
        }
    }

    /// Make `start..end` part of the memory map as `what`, for a host that lays data out
    /// beside the program before the run: it must start at or above the program image's
    /// end, end at or below the lowest stack, and overlap nothing mapped (the heap
    /// included).
    pub fn reserve_region(&mut self, start: u32, end: u64, what: &str) -> SimResult<()> {
        let setup = |msg: String| Err(SimError::new(ErrorKind::Setup(msg)));
        if self.shared.cycle != 0 {
            return setup(format!("{what} must be laid out before the run"));
        }
        if self.image_end > start {
            return setup(format!(
                "the program image reaches {:#x}, past {what} at {start:#x}",
                self.image_end
            ));
        }
        let limit = self.config.stack_region().0.max(0) as u64;
        if end > limit {
            return setup(format!(
                "{what} needs {:#x} bytes from {start:#x} but only {:#x} are free below the stacks at {limit:#x}",
                end - u64::from(start),
                limit.saturating_sub(u64::from(start))
            ));
        }
        (self.shared.geometry.map)
            .add(start, end, what)
            .or_else(|e| setup(format!("{e}: lower map.heap or the image")))
    }

    /// Run until every warp has exited or the program ends the run.
    ///
    /// Each simulated cycle ticks the memory hierarchy, delivers its completions and runs
    /// every core's pipeline. When no core made progress, the loop jumps to the next cycle
    /// at which anything can happen and accounts the skipped issue slots in bulk: they
    /// would all have had the same reasons.
    pub fn run(&mut self) -> SimResult<RunSummary> {
        self.run_observed(u64::MAX, |_| {})
    }

    /// [`Machine::run`], handing `observe` the run's [`Progress`] at the first cycle at or
    /// after every `every` cycles (a host's progress display; the engine prints nothing).
    /// Between calls it costs one comparison per simulated step.
    pub fn run_observed(
        &mut self,
        every: u64,
        mut observe: impl FnMut(Progress),
    ) -> SimResult<RunSummary> {
        let mut next = every;
        self.run_until(|m| {
            let now = m.shared.cycle;
            if now >= next {
                observe(m.progress());
                next = now.saturating_add(every);
            }
            false
        })?;
        Ok(self.summary())
    }

    /// Simulate until the run is over (`Ok(true)`) or `stop`, asked before each step, says
    /// so (`Ok(false)`; the run can go on from there). It may take over from a functional
    /// run ([`Machine::run_functional_until`]) at a round boundary.
    pub fn run_until(&mut self, mut stop: impl FnMut(&Machine) -> bool) -> SimResult<bool> {
        self.mode = Some(Mode::Detailed);
        while !self.is_over() {
            if stop(self) {
                return Ok(false);
            }
            self.step().map_err(|e| self.placed(e))?;
        }
        Ok(true)
    }

    /// The program ended the run, or no warp is left.
    fn is_over(&self) -> bool {
        self.ended.is_some() || !self.cores.iter().any(Core::is_live)
    }

    /// `e` with the place in the program of the instruction it names.
    fn placed(&self, mut e: SimError) -> SimError {
        if let Some(site) = &e.site {
            e.place = self.shared.program.place_of(site.pc);
        }
        e
    }

    /// Whether the host asked the run to stop (a SIGINT): an error that ends it there.
    fn check_stop(&self) -> SimResult<()> {
        if (self.stop.as_ref()).is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(SimError::new(ErrorKind::Stopped));
        }
        Ok(())
    }

    /// One simulated cycle: the memory hierarchy's, each core's and the machine's part of
    /// it; then, if nothing changed, a jump to the next cycle at which something can.
    fn step(&mut self) -> SimResult<()> {
        let now = self.shared.cycle;
        if self.timeline.as_ref().is_some_and(|t| t.due(now)) {
            self.sample_timeline(now);
        }
        self.check_stop()?;
        if now >= self.config.run.max_cycles {
            return Err(SimError::new(ErrorKind::MaxCycles {
                cycles: self.config.run.max_cycles,
                warps: self.warp_states(),
            }));
        }
        self.completions.clear();
        self.memory.tick(now, &mut self.completions);
        let mut progressed = !self.completions.is_empty();
        for c in &self.completions {
            self.cores[c.core as usize].complete(c.id, now);
        }
        // A core's completions commute: its instruction-cache hits after the rest.
        for core in &mut self.cores {
            progressed |= core.complete_hits(now);
        }
        let rotate = self.config.gpu.arbiter == Arbiter::RoundRobin;
        for k in 0..self.cores.len() {
            let c = if rotate { self.served(k, now) } else { k };
            let core = &mut self.cores[c];
            if core.asleep(now) {
                core.skip(1);
                continue;
            }
            if core.cycle(now, &mut self.shared, &mut Port(&mut self.memory))? {
                progressed = true;
            }
            core.take_effects(&mut self.asked);
            self.apply_asked(c);
        }
        self.shared.cycle = now + 1;
        self.end_cycle()?;
        if !progressed && self.ended.is_none() {
            self.skip_idle(now)?;
        }
        Ok(())
    }

    /// The core served `k`th in cycle `now` by round robin arbiters: the first cluster,
    /// within each cluster the first socket, and within each socket the first core rotate
    /// every cycle (each level on its own, so that every core of a socket, every socket
    /// of a cluster and every cluster is first equally often).
    fn served(&self, k: usize, now: u64) -> usize {
        let g = &self.config.gpu;
        let (cores, sockets) = (g.cores_per_socket, g.cores_per_cluster / g.cores_per_socket);
        let level =
            |index: usize, size: u32| (index + (now % u64::from(size)) as usize) % size as usize;
        let (per_socket, per_cluster) = (cores as usize, (cores * sockets) as usize);
        let cluster = level(k / per_cluster, g.clusters);
        let socket = level(k / per_socket % sockets as usize, sockets);
        let core = level(k % per_socket, cores);
        cluster * per_cluster + socket * per_socket + core
    }

    /// What core `c`'s warps asked of the machine, in order.
    #[inline]
    fn apply_asked(&mut self, c: usize) {
        if self.asked.is_empty() {
            return;
        }
        for k in 0..self.asked.len() {
            let (w, effect) = self.asked[k];
            self.apply(c, w, effect);
        }
        self.asked.clear();
    }

    /// What warp `w` of core `c` asked of the machine.
    fn apply(&mut self, c: usize, w: usize, effect: Effect) {
        match effect {
            Effect::None => {}
            Effect::Exit(code) => {
                self.ended.get_or_insert(code);
            }
            Effect::GlobalBarrier { id, count } => self.arrive_global(c, w, id, count),
            Effect::Launch { started } => {
                if started && self.launching == 0 {
                    self.launch_core = c;
                }
                self.launching = if started {
                    self.launching + 1
                } else {
                    self.launching - 1
                };
                self.launch_changed = true;
            }
        }
    }

    /// The machine's part at the end of a cycle: the intervals the cores' iteration marks
    /// and launches cut.
    fn end_cycle(&mut self) -> SimResult<()> {
        // Several cores marking in one cycle make one boundary (the last core's value).
        let mark = (self.cores.iter_mut())
            .filter_map(Core::take_iteration_mark)
            .last();
        if let Some(active) = mark {
            self.cut_iteration((active != ITERATION_END).then_some(active))?;
        }
        if std::mem::take(&mut self.launch_changed) {
            self.cut_launch(self.launching > 0)?;
        }
        Ok(())
    }

    /// Park core `c` (`Core::park`): the others run on without it, as they would once it
    /// had finished, and its warps hold open whatever waits for them (a launch, a global
    /// barrier), so a parked run cannot end. A sampler parks cores in a copy to measure
    /// fewer of a socket's cores at work.
    pub fn park(&mut self, c: usize) {
        if let Some(core) = self.cores.get_mut(c) {
            core.park();
        }
    }

    /// Park warp `w` of core `c` if it is live and ready (`Core::park_warp`): it issues
    /// nothing more, and like a parked core it holds its launch open. A sampler parks
    /// all warps of a copy but one to measure one warp alone.
    pub fn park_warp(&mut self, c: usize, w: usize) {
        if let Some(core) = self.cores.get_mut(c) {
            core.park_warp(w);
        }
    }

    /// How many of core `c`'s warps are live (0 for no such core): a sampler's probe of a
    /// core tells its drain by them.
    pub fn live_warps(&self, c: usize) -> usize {
        self.cores.get(c).map_or(0, Core::live_warps)
    }

    /// Core `c`'s live warps that are ready to issue, by index (none for no such core).
    pub fn ready_warps(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.cores.get(c).into_iter().flat_map(Core::ready_warps)
    }

    /// Every warp's instructions retired so far, core by core and each core's by warp
    /// (a sampler weighs the warps' progress through a launch by them).
    pub fn instructions_by_warp(&self) -> impl Iterator<Item = u64> + '_ {
        self.cores.iter().flat_map(Core::instructions_by_warp)
    }

    /// Each core's warp instructions issued so far, in core order (a sampler weighs the
    /// cores' progress through a launch by them).
    pub fn instructions_by_core(&self) -> impl Iterator<Item = u64> + '_ {
        self.cores.iter().map(Core::instructions)
    }

    /// Cycles and warp instructions so far (the counters not yet folded into the
    /// statistics included).
    pub fn progress(&self) -> Progress {
        let instructions = (self.cores.iter()).map(Core::instructions).sum();
        Progress {
            cycles: self.shared.cycle,
            instructions,
        }
    }

    /// The statistics so far: after [`Machine::run`] failed, everything up to the failure.
    pub fn summary(&mut self) -> RunSummary {
        self.cut_iteration(None)
            .expect("closing an iteration opens none");
        if self.intervals.launches.is_open() {
            self.close_launch();
        }
        RunSummary {
            mode: self.mode.unwrap_or_default(),
            exit_code: self.ended.or(self.shared.exit_word).unwrap_or(0),
            cycles: self.shared.cycle,
            slices: self.cores.first().map_or(0, Core::slices),
            cores: self.cores.iter().map(|c| c.stats().clone()).collect(),
            memory: self.memory.stats(),
            console: self.shared.console.clone(),
            weaver: self.weaver,
            l1d_size: effective_memory(&self.config, self.weaver).l1d.size,
            eghw_by_program: self.eghw_by_program,
            iterations: self.intervals.iterations.take(),
            launches: self.intervals.launches.take(),
            phase_names: self.phase_names.clone(),
            profile: self
                .cores
                .first()
                .is_some_and(|c| c.profile().is_some())
                .then(|| {
                    let cores = self.cores.iter().filter_map(Core::profile);
                    let whole = PcTotals::of(cores, &self.memory.stats_by_pc());
                    let none = LaunchAccounts::default();
                    let accounts = self.launch_accounts.as_ref().unwrap_or(&none);
                    Profile::new(whole, accounts, &self.shared.program, &self.shared.mem)
                }),
            sampling: None,
        }
    }

    /// A cut at the end of the cycle just run: fold every core's counters into the
    /// statistics and hand those flushed since the last cut to the open intervals; the
    /// memory system's totals now.
    fn cut(&mut self) -> MemoryTally {
        let now = self.shared.cycle;
        let mut counters = CoreCounters::default();
        for core in &mut self.cores {
            core.count_warp_phases(now);
            core.flush_counters();
            counters.merge(&core.take_interval_counters());
        }
        self.intervals.add(&counters);
        MemoryTally::of(&self.memory.totals())
    }

    /// An iteration boundary at the end of the cycle just run: close the open iteration
    /// and open one that reports `next`.
    fn cut_iteration(&mut self, next: Option<u32>) -> SimResult<()> {
        let memory = self.cut();
        let now = self.shared.cycle;
        let iterations = &mut self.intervals.iterations;
        if let Some(closed) = iterations.close(now, &memory) {
            tracing::debug!(
                iteration = closed.index,
                active = closed.active,
                from = closed.start_cycle,
                to = now,
                instructions = closed.counters.instructions,
                "iteration ended"
            );
        }
        let Some(active) = next else {
            return Ok(());
        };
        let record = Iteration {
            index: iterations.len() as u32,
            active,
            start_cycle: now,
            ..Iteration::default()
        };
        if iterations.open(record, memory) {
            return Ok(());
        }
        Err(SimError::new(ErrorKind::Program(format!(
            "the program marked iteration {} (CSR 0x7C6): a run keeps the records \
             of at most {} iterations (limits::ITERATIONS)",
            limits::ITERATIONS + 1,
            limits::ITERATIONS
        ))))
    }

    /// At the end of the cycle just run, a launch record opens (`running`: some core's
    /// launch runs) or closes; nothing changes if one was already open or closed (the
    /// cores' launches of one `wsim_spawn` overlap).
    fn cut_launch(&mut self, running: bool) -> SimResult<()> {
        match (running, self.intervals.launches.is_open()) {
            (true, false) => {
                if self.intervals.launches.len() == limits::LAUNCHES {
                    return Err(SimError::new(ErrorKind::Program(format!(
                        "the program started launch {} (vx_wspawn): a run keeps the records \
                         of at most {} launches (limits::LAUNCHES)",
                        limits::LAUNCHES + 1,
                        limits::LAUNCHES
                    ))));
                }
                // What the cores did since the last cut belongs to no launch.
                let memory = self.cut();
                let record = LaunchRecord {
                    index: self.intervals.launches.len() as u32,
                    kernel: self.kernel_of(self.launch_core),
                    start_cycle: self.shared.cycle,
                    ..LaunchRecord::default()
                };
                if let Some(accounts) = &mut self.launch_accounts {
                    let cores = self.cores.iter().filter_map(Core::profile);
                    accounts.open(&record, cores, || self.memory.stats_by_pc());
                }
                self.intervals.launches.open(record, memory);
            }
            (false, true) => self.close_launch(),
            _ => {}
        }
        Ok(())
    }

    /// The kernel core `c`'s launch runs: the function at the pointer the runtime's
    /// `wsim_spawn` stored in the core's entry of `__wsim_launch` (programs/runtime/wsim_rt.c:
    /// an entry is the kernel, its argument, the grid and the warps, four words); `None`
    /// when the program has no such table.
    fn kernel_of(&self, c: usize) -> Option<String> {
        const ENTRY_BYTES: u32 = 16;
        let table = self.symbol("__wsim_launch")?;
        if (c as u32 + 1) * ENTRY_BYTES > table.size {
            return None;
        }
        let kernel = self
            .shared
            .mem
            .read_u32(table.addr + c as u32 * ENTRY_BYTES);
        Some(match self.shared.program.function_of(kernel) {
            Some((name, 0)) => name.to_string(),
            Some((name, offset)) => format!("{name}+{offset:#x}"),
            None => format!("{kernel:#010x}"),
        })
    }

    /// Close the open launch record at the end of the cycle just run.
    fn close_launch(&mut self) {
        let memory = self.cut();
        let closed = self.intervals.launches.close(self.shared.cycle, &memory);
        if let (Some(record), Some(accounts)) = (closed, &mut self.launch_accounts) {
            let cores = self.cores.iter().filter_map(Core::profile);
            accounts.close(record, cores, || self.memory.stats_by_pc());
        }
    }

    /// After cycle `now` changed nothing: jump to the next cycle at which something can.
    fn skip_idle(&mut self, now: u64) -> SimResult<()> {
        let next = self
            .cores
            .iter()
            .map(Core::sleeps_until)
            .filter(|&t| t != u64::MAX)
            .chain(self.cores.iter().filter_map(Core::next_hit))
            .chain(self.memory.next_event(now))
            .min();
        let Some(next) = next else {
            return if self.cores.iter().any(Core::is_live) {
                Err(self.deadlock())
            } else {
                Ok(())
            };
        };
        let next = next.min(self.config.run.max_cycles);
        if next > now + 1 {
            for core in &mut self.cores {
                core.skip(next - now - 1);
            }
            self.shared.cycle = next;
        }
        Ok(())
    }

    fn arrive_global(&mut self, c: usize, w: usize, id: u32, count: u32) {
        let (_, arrived) = self
            .global_barriers
            .entry(id)
            .or_insert((count, Vec::new()));
        arrived.push((c, w));
        if arrived.len() as u32 >= count {
            self.global_releases += 1;
            let (_, released) = self.global_barriers.remove(&id).unwrap_or_default();
            let now = self.shared.cycle;
            for (rc, rw) in released {
                self.cores[rc].release_from_global_barrier(rw, now);
            }
        }
    }

    /// The error for a machine in which no live warp can issue: each waiting warp's state
    /// (and in the log, each barrier's: who arrived, who did not and why).
    fn deadlock(&self) -> SimError {
        for core in &self.cores {
            core.log_barriers();
        }
        for (&id, (count, arrived)) in &self.global_barriers {
            tracing::info!(
                barrier = format_args!("{id:#x}"),
                count,
                arrived = ?arrived,
                "deadlock: global barrier short of warps (core, warp)"
            );
        }
        SimError::new(ErrorKind::Deadlock {
            warps: self.warp_states(),
        })
    }

    /// Each live warp: where it is and what it waits on.
    fn warp_states(&self) -> Vec<String> {
        let place = |pc| self.shared.program.place_of(pc);
        let global = |id| {
            (self.global_barriers.get(&id))
                .map_or((0, 0), |(count, arrived)| (*count, arrived.len()))
        };
        (self.cores.iter())
            .flat_map(|core| core.describe_waits(place, global))
            .collect()
    }
}

/// The symbol by which a program says it needs the Weaver unit in its EGHW mode
/// (`WSIM_REQUIRES_EGHW` in programs/runtime/weaver.h: a byte, 1).
pub const REQUIRES_EGHW: &str = "wsim_requires_eghw";

/// Whether the image defines [`REQUIRES_EGHW`] with a non-zero byte.
fn requires_eghw(image: &loader::ElfImage) -> bool {
    image.symbol(REQUIRES_EGHW).is_some_and(|s| {
        image.segments.iter().any(|seg| {
            s.addr >= seg.vaddr
                && s.addr - seg.vaddr < seg.data.len() as u32
                && seg.data[(s.addr - seg.vaddr) as usize] != 0
        })
    })
}

/// `config` with the Weaver unit in EGHW mode, for a program that requires it; an error
/// when the configuration states otherwise.
fn eghw_config(config: &Config) -> SimResult<Config> {
    let refuse = |what: String| {
        Err(SimError::new(ErrorKind::Setup(format!(
            "the program requires the Weaver unit in its EGHW mode (it defines \
             `{REQUIRES_EGHW}`), but {what}"
        ))))
    };
    if config.weaver.enabled == WeaverPresence::Off {
        return refuse("the configuration sets weaver.enabled = \"off\"".into());
    }
    if config.states("weaver.mode") {
        return refuse(format!(
            "the configuration sets weaver.mode = \"{}\": leave it out, or set it to \"eghw\"",
            config.weaver.mode.name()
        ));
    }
    let mut c = config.clone();
    c.weaver.mode = WeaverMode::Eghw;
    Ok(c)
}

/// The memory system as built: with the Weaver, a smaller L1 data cache.
fn effective_memory(config: &Config, weaver: bool) -> MemConfig {
    if weaver {
        config.memory_with_weaver()
    } else {
        config.memory.clone()
    }
}
