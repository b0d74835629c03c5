//! Control-flow graphs and immediate post-dominators: where divergent warps reconverge.
//!
//! # Mechanism
//!
//! Lanes of a warp execute in lockstep. When a conditional branch (or an indirect jump)
//! sends them different ways the engine splits the warp and needs the PC at which the
//! paths meet again. As GPGPU-Sim does for PTX, that point is the **immediate
//! post-dominator** (IPDOM) of the branch in the control-flow graph (CFG) of its
//! function: the first instruction every path from the branch to the function's exit must
//! pass through. [`ControlFlow::build`] computes it once, statically, from the loaded
//! program; [`ControlFlow::reconvergence`] is the engine's lookup.
//!
//! The program is cut into **regions**: one per function symbol (a symbol with size zero,
//! as assembly labels have, extends to the next function symbol or the end of its code
//! section; sizes are clipped to the next symbol and to the section), plus one region for
//! every maximal stretch of code no symbol covers (so a program without symbols is one
//! region per code section). Regions are disjoint. Instructions are 32-bit words on a
//! 4-byte grid from the region's start (no compressed instructions). Basic blocks start at
//! the region start, at the targets of branches, jumps and indirect jumps inside the
//! region, and after every terminator. Successors: a conditional branch has its target and
//! the next instruction; `jal x0` its target; a call (`jal`/`jalr` with `rd != x0`), an
//! `ecall`/`ebreak`, `wfi` and every Vortex warp-control or SparseWeaver instruction
//! (including `vx_tmc`, which may end the warp) falls through, since the callee returns
//! and the block's flow is not split. Falling off the end of a region leaves it.
//!
//! # The virtual exit
//!
//! Each region's CFG has one virtual **exit** node. Edges to it come from: returns
//! (`jalr x0, 0(ra)`), jumps or branches whose target is outside the region (tail calls),
//! `mret`, falling off the region's end, indirect jumps with no statically known target,
//! and **words that do not decode** (data or padding in `.text`): such a word ends its
//! block, which is treated like a trap, i.e. as leaving the function. Post-dominators are
//! dominators of the reversed CFG rooted at the exit, computed with the iterative
//! algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001).
//! A branch whose IPDOM is the exit reconverges only when the function returns:
//! [`Reconvergence::FunctionExit`].
//!
//! # Infinite loops
//!
//! Blocks from which no path reaches the exit (`for (;;)`, the final `j .` of a start-up
//! routine) would have no post-dominator. As compilers do for their post-dominator trees
//! (LLVM connects such regions to its virtual root), every *sink* strongly connected
//! component of those blocks (one with no edge leaving it) gets one extra edge to the
//! exit, from its block with the highest address (normally the loop's latch, the bottom of
//! the loop). Afterwards every block reaches the exit and every IPDOM is defined; a branch
//! inside a `for (;;)` body reconverges at the latch, a branch choosing between an
//! infinite loop and the rest of the function at the function exit.
//!
//! # Indirect jumps and jump tables
//!
//! A `jalr x0` that is not `jalr x0, 0(ra)` is an indirect jump: a switch's jump table,
//! a far tail call (`auipc t1; jr t1`), a computed goto. Its targets are found in two
//! steps. First a small symbolic evaluation within the jump's basic block follows the
//! patterns clang 14 emits for riscv32: position-dependent code (`lui`/`addi` table base,
//! `slli`, `add`, `lw`, `jr`) keeps absolute addresses in `.rodata`; position-independent
//! code (`-fPIC`: `auipc`/`addi` base, `lw`, `add` base, `jr`) keeps `.word target -
//! table`. The table is read word by word from its base while entries are instructions of
//! the same function, up to the next complete address the function materialises (the
//! base of an adjacent table of another switch). A register holding a constant (`auipc`+`jr`) gives one direct
//! target. If the pattern is not recognised, the fallback is every 4-byte aligned
//! little-endian word of the data sections whose value is an instruction address in the
//! same function, together with relative tables starting at any data address the
//! function materialises with `lui`/`auipc`/`addi`. The targets are the jump's
//! successors; [`ControlFlow::indirect_targets`] records them so that the engine can check
//! at run time that an actual target was among them. Limits: targets in other functions
//! (computed gotos across functions, hand-written dispatch) are not found (an entry
//! outside the function ends a table); tables built at run time, tables in code sections
//! reached only through the fallback, or entries with other encodings (e.g. 16-bit
//! offsets) are missed. An extra false candidate only makes the reconvergence point later
//! (still correct: every real path is a path of the larger graph); a missed target can
//! make it wrong, which the engine's run-time check detects. An indirect jump with no
//! candidate goes to the exit.
//!
//! Besides conditional branches and indirect jumps, every `jalr` call (`rd != x0`, an
//! indirect call through a function pointer, whose lanes may call different functions, or
//! clang's `auipc ra; jalr ra` call sequence) reconverges at its return address `pc + 4`;
//! returns have no entry.

use wsim_isa::{Decoded, Instr, Op};

/// A function symbol from the ELF symbol table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSymbol {
    pub name: String,
    pub start: u32,
    /// Bytes; zero when unknown (the function then extends to the next symbol).
    pub size: u32,
}

/// An executable section: its load address and contents.
#[derive(Clone, Copy, Debug)]
pub struct CodeSection<'a> {
    pub addr: u32,
    pub bytes: &'a [u8],
}

/// A non-executable section that may hold jump tables (`.rodata`, `.data`, ...).
#[derive(Clone, Copy, Debug)]
pub struct DataSection<'a> {
    pub addr: u32,
    pub bytes: &'a [u8],
}

/// Where the paths of a divergent branch or indirect jump meet again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconvergence {
    /// At this PC (the first instruction of the immediate post-dominator block).
    At(u32),
    /// Only when the function returns (the immediate post-dominator is the virtual exit).
    FunctionExit,
}

/// The static control-flow facts of a loaded program. Immutable after [`ControlFlow::build`].
#[derive(Clone, Debug, Default)]
pub struct ControlFlow {
    /// Disjoint, sorted by start.
    regions: Vec<RegionInfo>,
    /// Sorted by PC.
    reconv: Vec<(u32, Reconvergence)>,
    /// Sorted by PC; each target list sorted and deduplicated.
    indirect: Vec<(u32, Vec<u32>)>,
}

#[derive(Clone, Debug)]
struct RegionInfo {
    name: String,
    start: u32,
    /// Exclusive; at most 2^32.
    end: u64,
}

/// Most entries read from one jump table.
const MAX_TABLE_ENTRIES: usize = 1 << 16;
/// Rounds of "resolve indirect jumps, add their targets as block leaders".
const MAX_RESOLVE_ROUNDS: usize = 8;

impl ControlFlow {
    /// Build the control-flow facts of a program, decoding with [`wsim_isa::decode`].
    /// Never panics, whatever the input.
    pub fn build(
        code: &[CodeSection<'_>],
        data: &[DataSection<'_>],
        functions: &[FunctionSymbol],
    ) -> ControlFlow {
        Self::build_with_decoder(code, data, functions, &|w| wsim_isa::decode(w).ok())
    }

    /// [`ControlFlow::build`] with a caller-supplied decoder (`None` = not an instruction).
    /// Only `Decoded::instr` is used.
    pub fn build_with_decoder(
        code: &[CodeSection<'_>],
        data: &[DataSection<'_>],
        functions: &[FunctionSymbol],
        decode: &dyn Fn(u32) -> Option<Decoded>,
    ) -> ControlFlow {
        let code: Vec<Sec> = code
            .iter()
            .filter_map(|s| Sec::new(s.addr, s.bytes))
            .collect();
        let data: Vec<Sec> = data
            .iter()
            .filter_map(|s| Sec::new(s.addr, s.bytes))
            .collect();
        let regions = make_regions(&code, functions);

        // Data words that look like code addresses, sorted by value: the fallback
        // candidates of unresolved indirect jumps.
        let mut code_words: Vec<u32> = Vec::new();
        for s in &data {
            let first = (s.addr as u64 + 3) & !3;
            let mut a = first;
            while a + 4 <= s.end {
                if let Some(w) = s.word(a) {
                    if code.iter().any(|c| c.contains(w as u64, 4)) {
                        code_words.push(w);
                    }
                }
                a += 4;
            }
        }
        code_words.sort_unstable();
        code_words.dedup();

        let mut cf = ControlFlow::default();
        for r in &regions {
            let env = Env {
                code: &code,
                data: &data,
                code_words: &code_words,
                decode,
            };
            analyze_region(r, &env, &mut cf.reconv, &mut cf.indirect);
            cf.regions.push(RegionInfo {
                name: r.name.clone(),
                start: r.start,
                end: r.end,
            });
        }
        cf.reconv.sort_by_key(|e| e.0);
        cf.reconv.dedup_by_key(|e| e.0);
        cf.indirect.sort_by_key(|e| e.0);
        cf.indirect.dedup_by_key(|e| e.0);
        cf
    }

    /// For a conditional branch or indirect jump at `pc` (and an indirect call, which
    /// reconverges at `pc + 4`): its reconvergence point. `None` for a PC that is not such
    /// an instruction in known code.
    pub fn reconvergence(&self, pc: u32) -> Option<Reconvergence> {
        self.reconv
            .binary_search_by_key(&pc, |e| e.0)
            .ok()
            .map(|i| self.reconv[i].1)
    }

    /// For an indirect jump at `pc` (not call/return): the statically found candidate
    /// targets, sorted. `Some(&[])` when none was found. Table targets lie in the jump's
    /// function; the one target of a jump through a constant (`auipc t1; jr t1`, a far tail
    /// call) may lie outside it.
    pub fn indirect_targets(&self, pc: u32) -> Option<&[u32]> {
        self.indirect
            .binary_search_by_key(&pc, |e| e.0)
            .ok()
            .map(|i| &self.indirect[i].1[..])
    }

    /// The function containing `pc` (name, start, end exclusive) for error messages and
    /// statistics. Code outside every function symbol is named `<code 0x........>`.
    pub fn function_of(&self, pc: u32) -> Option<(&str, u32, u32)> {
        let i = self.regions.partition_point(|r| r.start <= pc);
        let r = self.regions.get(i.checked_sub(1)?)?;
        ((pc as u64) < r.end).then(|| (r.name.as_str(), r.start, r.end.min(u32::MAX as u64) as u32))
    }

    /// All regions (name, start, end exclusive), sorted by start.
    pub fn functions(&self) -> impl Iterator<Item = (&str, u32, u32)> + '_ {
        self.regions
            .iter()
            .map(|r| (r.name.as_str(), r.start, r.end.min(u32::MAX as u64) as u32))
    }
}

// ---------------------------------------------------------------------------------------
// Sections and regions

#[derive(Clone, Copy)]
struct Sec<'a> {
    addr: u32,
    /// Exclusive, `addr + bytes.len()`, at most 2^32.
    end: u64,
    bytes: &'a [u8],
}

impl<'a> Sec<'a> {
    fn new(addr: u32, bytes: &'a [u8]) -> Option<Sec<'a>> {
        let room = (1u64 << 32) - addr as u64;
        let len = (bytes.len() as u64).min(room) as usize;
        let bytes = &bytes[..len];
        (len > 0).then(|| Sec {
            addr,
            end: addr as u64 + len as u64,
            bytes,
        })
    }
    fn contains(&self, a: u64, len: u64) -> bool {
        a >= self.addr as u64 && a + len <= self.end
    }
    fn word(&self, a: u64) -> Option<u32> {
        if !self.contains(a, 4) {
            return None;
        }
        let o = (a - self.addr as u64) as usize;
        let b = self.bytes.get(o..o + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn read_word(secs: &[&[Sec]], a: u64) -> Option<u32> {
    secs.iter().flat_map(|s| s.iter()).find_map(|s| s.word(a))
}

struct Region {
    name: String,
    start: u32,
    end: u64,
    /// Index into the code sections.
    sec: usize,
}

impl Region {
    /// Number of whole instruction words.
    fn len(&self) -> usize {
        ((self.end - self.start as u64) / 4) as usize
    }
    fn pc(&self, i: usize) -> u32 {
        (self.start as u64 + 4 * i as u64) as u32
    }
    /// Index of the instruction at `a`, if `a` is on this region's grid.
    fn index(&self, a: u32) -> Option<usize> {
        let off = (a as u64).checked_sub(self.start as u64)?;
        (off % 4 == 0 && off / 4 < self.len() as u64).then_some((off / 4) as usize)
    }
}

fn make_regions(code: &[Sec], functions: &[FunctionSymbol]) -> Vec<Region> {
    let mut out: Vec<Region> = Vec::new();
    for (si, s) in code.iter().enumerate() {
        let mut syms: Vec<&FunctionSymbol> = functions
            .iter()
            .filter(|f| s.contains(f.start as u64, 1))
            .collect();
        // One symbol per start: prefer one with a size, then the larger, then by name.
        syms.sort_by(|a, b| {
            (a.start, a.size == 0, std::cmp::Reverse(a.size), &a.name).cmp(&(
                b.start,
                b.size == 0,
                std::cmp::Reverse(b.size),
                &b.name,
            ))
        });
        syms.dedup_by_key(|f| f.start);
        let mut covered = s.addr as u64;
        for (k, f) in syms.iter().enumerate() {
            let next = syms.get(k + 1).map_or(s.end, |g| g.start as u64);
            let end = if f.size == 0 {
                next
            } else {
                (f.start as u64 + f.size as u64).min(next)
            };
            if f.start as u64 > covered {
                out.push(gap(covered, f.start as u64, si));
            }
            out.push(Region {
                name: f.name.clone(),
                start: f.start,
                end,
                sec: si,
            });
            covered = end;
        }
        if covered < s.end {
            out.push(gap(covered, s.end, si));
        }
    }
    // Overlapping code sections: keep regions disjoint.
    out.sort_by_key(|r| (r.start, r.sec));
    let mut disjoint: Vec<Region> = Vec::with_capacity(out.len());
    for mut r in out {
        if let Some(p) = disjoint.last() {
            if (r.start as u64) < p.end {
                if r.end <= p.end {
                    continue;
                }
                r.start = p.end as u32; // p.end < r.end <= 2^32
                if r.name.starts_with("<code ") {
                    r.name = gap_name(r.start as u64);
                }
            }
        }
        if r.end > r.start as u64 {
            disjoint.push(r);
        }
    }
    disjoint
}

fn gap_name(a: u64) -> String {
    format!("<code 0x{a:08x}>")
}

fn gap(start: u64, end: u64, sec: usize) -> Region {
    Region {
        name: gap_name(start),
        start: start as u32,
        end,
        sec,
    }
}

// ---------------------------------------------------------------------------------------
// Instruction classification

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Falls through to the next instruction.
    Plain,
    /// `jal`/`jalr` with `rd != x0`: the callee returns, falls through.
    Call { indirect: bool },
    /// Conditional branch to the (absolute) target, or falls through.
    Branch(u32),
    /// `jal x0`.
    Jump(u32),
    /// `jalr x0, 0(ra)`.
    Return,
    /// Any other `jalr x0`.
    IndirectJump,
    /// `mret`.
    Exit,
    /// A word that does not decode.
    Invalid,
}

impl Kind {
    fn ends_block(self) -> bool {
        !matches!(self, Kind::Plain | Kind::Call { .. })
    }
}

fn classify(pc: u32, d: Option<&Decoded>) -> Kind {
    let Some(d) = d else { return Kind::Invalid };
    let i = &d.instr;
    let target = pc.wrapping_add(i.imm as u32);
    match i.op {
        Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => Kind::Branch(target),
        Op::Jal if i.rd == 0 => Kind::Jump(target),
        Op::Jal => Kind::Call { indirect: false },
        Op::Jalr if i.rd != 0 => Kind::Call { indirect: true },
        Op::Jalr if i.rs1 == 1 && i.imm == 0 => Kind::Return,
        Op::Jalr => Kind::IndirectJump,
        Op::Mret => Kind::Exit,
        _ => Kind::Plain,
    }
}

// ---------------------------------------------------------------------------------------
// Indirect jumps: a symbolic evaluation within basic blocks

/// What is known of a register's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Unknown,
    Const(u32),
    /// `c + something`: an address into a table at `c`.
    Indexed(u32),
    /// A word loaded from a table at the address.
    Loaded(u32),
    /// A word loaded from a table at the address, plus that address.
    Rel(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolution {
    /// A constant target (absolute address; may be outside the region).
    Direct(u32),
    /// Targets read from a jump table (all inside the region).
    Table(Vec<u32>),
    /// Pattern not recognised: the region-wide fallback applies.
    Unresolved,
}

struct Env<'e, 'a> {
    code: &'e [Sec<'a>],
    data: &'e [Sec<'a>],
    code_words: &'e [u32],
    decode: &'e dyn Fn(u32) -> Option<Decoded>,
}

/// Execute `i` symbolically. Constants it produces go to `consts`, flagged `true` when
/// complete addresses (`addi`/`add` results, not the upper part from `lui`/`auipc`).
fn step(regs: &mut [Val; 32], pc: u32, i: &Instr, consts: &mut Vec<(u32, bool)>) {
    use Val::*;
    let r = |x: u8| regs[(x & 31) as usize];
    let v = match i.op {
        Op::Lui => Const(i.imm as u32),
        Op::Auipc => Const(pc.wrapping_add(i.imm as u32)),
        Op::Addi => match r(i.rs1) {
            Const(c) => Const(c.wrapping_add(i.imm as u32)),
            Indexed(c) => Indexed(c.wrapping_add(i.imm as u32)),
            _ => Unknown,
        },
        Op::Slli => match r(i.rs1) {
            Const(c) => Const(c.wrapping_shl(i.imm as u32 & 31)),
            _ => Unknown,
        },
        Op::Add => match (r(i.rs1), r(i.rs2)) {
            (Const(a), Const(b)) => Const(a.wrapping_add(b)),
            (Const(c), Unknown) | (Unknown, Const(c)) => Indexed(c),
            (Const(c), Indexed(d)) | (Indexed(d), Const(c)) => Indexed(c.wrapping_add(d)),
            (Const(c), Loaded(t)) | (Loaded(t), Const(c)) if c == t => Rel(t),
            _ => Unknown,
        },
        Op::Lw => match r(i.rs1) {
            Const(c) | Indexed(c) => Loaded(c.wrapping_add(i.imm as u32)),
            _ => Unknown,
        },
        Op::Jal | Op::Jalr | Op::Ecall => {
            // A call or a trap: forget everything.
            *regs = [Unknown; 32];
            Unknown
        }
        _ => Unknown,
    };
    if let Const(c) = v {
        consts.push((c, matches!(i.op, Op::Addi | Op::Add)));
    }
    if i.rd != 0 && (i.rd as usize) < 32 {
        regs[i.rd as usize] = v;
    }
    regs[0] = Const(0);
}

/// Evaluate the region with the current block leaders: the value of the target register
/// of each indirect jump, and every constant materialised (`consts`, see [`step`]).
fn evaluate(
    r: &Region,
    insns: &[Option<Decoded>],
    kinds: &[Kind],
    leaders: &[bool],
    consts: &mut Vec<(u32, bool)>,
) -> Vec<(usize, Val, u32)> {
    let mut regs = [Val::Unknown; 32];
    let mut out = Vec::new();
    for (k, d) in insns.iter().enumerate() {
        if leaders[k] {
            regs = [Val::Unknown; 32];
            regs[0] = Val::Const(0);
        }
        let Some(d) = d else { continue };
        if kinds[k] == Kind::IndirectJump {
            out.push((k, regs[(d.instr.rs1 & 31) as usize], d.instr.imm as u32));
        }
        step(&mut regs, r.pc(k), &d.instr, consts);
    }
    out
}

fn resolve(r: &Region, env: &Env, val: Val, imm: u32, stops: &[u32]) -> Resolution {
    match val {
        Val::Const(c) => Resolution::Direct(c.wrapping_add(imm)),
        Val::Loaded(t) => table(r, env, t, false, imm, stops),
        Val::Rel(t) => table(r, env, t, true, imm, stops),
        _ => Resolution::Unresolved,
    }
}

/// Read a jump table at `t` while its entries are instructions of the region, up to the
/// next address in `stops` (sorted: the other constants the region materialises, such as
/// the base of the next table).
fn table(r: &Region, env: &Env, t: u32, relative: bool, imm: u32, stops: &[u32]) -> Resolution {
    let stop = stops
        .get(stops.partition_point(|&c| c <= t))
        .map_or(u64::MAX, |&c| c as u64);
    let mut v = Vec::new();
    let mut a = t as u64;
    while v.len() < MAX_TABLE_ENTRIES && a < stop {
        let Some(w) = read_word(&[env.data, env.code], a) else {
            break;
        };
        let base = if relative { w.wrapping_add(t) } else { w };
        let target = base.wrapping_add(imm);
        if r.index(target).is_none() {
            break;
        }
        v.push(target);
        a += 4;
    }
    if v.is_empty() {
        Resolution::Unresolved
    } else {
        Resolution::Table(v)
    }
}

/// Candidates of an unrecognised indirect jump: code addresses of the region found in the
/// data sections, and relative tables at data addresses the region materialises
/// (`anchors`; `stops` as for [`table`]). Both sorted and deduplicated.
fn fallback(r: &Region, env: &Env, anchors: &[u32], stops: &[u32]) -> Vec<u32> {
    let lo = env
        .code_words
        .partition_point(|&w| (w as u64) < r.start as u64);
    let hi = env.code_words.partition_point(|&w| (w as u64) < r.end);
    let mut v: Vec<u32> = env.code_words[lo..hi]
        .iter()
        .copied()
        .filter(|&w| r.index(w).is_some())
        .collect();
    for &t in anchors
        .iter()
        .filter(|&&c| env.data.iter().any(|s| s.contains(c as u64, 4)))
    {
        if let Resolution::Table(ts) = table(r, env, t, true, 0, stops) {
            v.extend(ts);
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

// ---------------------------------------------------------------------------------------
// One region: blocks, CFG, post-dominators

fn analyze_region(
    r: &Region,
    env: &Env,
    reconv: &mut Vec<(u32, Reconvergence)>,
    indirect: &mut Vec<(u32, Vec<u32>)>,
) {
    let n = r.len();
    if n == 0 {
        return;
    }
    let sec = &env.code[r.sec];
    let insns: Vec<Option<Decoded>> = (0..n)
        .map(|k| sec.word(r.pc(k) as u64).and_then(|w| (env.decode)(w)))
        .collect();
    let kinds: Vec<Kind> = (0..n)
        .map(|k| classify(r.pc(k), insns[k].as_ref()))
        .collect();

    // Leaders from direct control flow.
    let mut direct = vec![false; n];
    direct[0] = true;
    for (k, &kind) in kinds.iter().enumerate() {
        if let Kind::Branch(t) | Kind::Jump(t) = kind {
            if let Some(j) = r.index(t) {
                direct[j] = true;
            }
        }
        if kind.ends_block() && k + 1 < n {
            direct[k + 1] = true;
        }
    }

    // Resolve indirect jumps; their targets are leaders too, which may split the blocks
    // the resolution looked at, so repeat until the leaders are stable.
    let mut leaders = direct;
    let mut consts = Vec::new();
    let mut targets: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut fb: Option<Vec<u32>> = None;
    for round in 0..MAX_RESOLVE_ROUNDS {
        consts.clear();
        let vals = evaluate(r, &insns, &kinds, &leaders, &mut consts);
        // Where a table ends: complete addresses and the bases of other tables.
        let mut stops: Vec<u32> = consts.iter().filter(|c| c.1).map(|c| c.0).collect();
        stops.extend(vals.iter().filter_map(|&(_, v, _)| match v {
            Val::Loaded(t) | Val::Rel(t) => Some(t),
            _ => None,
        }));
        stops.sort_unstable();
        stops.dedup();
        let mut anchors: Vec<u32> = consts.iter().map(|c| c.0).collect();
        anchors.sort_unstable();
        anchors.dedup();
        targets.clear();
        for (k, val, imm) in vals {
            let t = match resolve(r, env, val, imm, &stops) {
                Resolution::Direct(t) => vec![t],
                Resolution::Table(mut v) => {
                    v.sort_unstable();
                    v.dedup();
                    v
                }
                Resolution::Unresolved => fb
                    .get_or_insert_with(|| fallback(r, env, &anchors, &stops))
                    .clone(),
            };
            targets.push((k, t));
        }
        let mut changed = false;
        for t in targets.iter().flat_map(|(_, t)| t) {
            if let Some(j) = r.index(*t) {
                changed |= !leaders[j];
                leaders[j] = true;
            }
        }
        if !changed || round + 1 == MAX_RESOLVE_ROUNDS {
            break;
        }
        fb = None;
    }

    // Blocks.
    let starts: Vec<usize> = (0..n).filter(|&k| leaders[k]).collect();
    let nb = starts.len();
    let exit = nb;
    let mut block_of = vec![0usize; n];
    for (b, &s) in starts.iter().enumerate() {
        let e = starts.get(b + 1).copied().unwrap_or(n);
        block_of[s..e].fill(b);
    }
    let last = |b: usize| starts.get(b + 1).copied().unwrap_or(n) - 1;
    let node = |a: u32| r.index(a).map_or(exit, |j| block_of[j]);
    let next = |k: usize| if k + 1 < n { block_of[k + 1] } else { exit };

    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); nb + 1];
    let mut ti = 0; // cursor into `targets`, sorted by instruction index
    for (b, s) in succ.iter_mut().enumerate().take(nb) {
        let k = last(b);
        match kinds[k] {
            Kind::Plain | Kind::Call { .. } => s.push(next(k)),
            Kind::Branch(t) => {
                s.push(node(t));
                s.push(next(k));
            }
            Kind::Jump(t) => s.push(node(t)),
            Kind::Return | Kind::Exit | Kind::Invalid => s.push(exit),
            Kind::IndirectJump => {
                while ti < targets.len() && targets[ti].0 < k {
                    ti += 1;
                }
                let t: &[u32] = match targets.get(ti) {
                    Some((j, t)) if *j == k => t,
                    _ => &[],
                };
                s.extend(t.iter().map(|&a| node(a)));
                if s.is_empty() {
                    s.push(exit);
                }
            }
        }
        s.sort_unstable();
        s.dedup();
    }

    connect_dead_ends(&mut succ, exit);
    let ipdom = post_dominators(&succ, exit);

    let block_pc = |b: usize| {
        if b == exit {
            None
        } else {
            Some(r.pc(starts[b]))
        }
    };
    for (b, ip) in ipdom.iter().enumerate().take(nb) {
        let k = last(b);
        let pc = r.pc(k);
        match kinds[k] {
            Kind::Branch(_) | Kind::IndirectJump => {
                let rc = match ip.and_then(block_pc) {
                    Some(a) => Reconvergence::At(a),
                    None => Reconvergence::FunctionExit,
                };
                reconv.push((pc, rc));
            }
            _ => {}
        }
    }
    // Indirect calls may sit inside blocks; they reconverge at the return address.
    for (k, &kind) in kinds.iter().enumerate() {
        if kind == (Kind::Call { indirect: true }) {
            reconv.push((r.pc(k), Reconvergence::At(r.pc(k).wrapping_add(4))));
        }
    }
    for (k, t) in targets {
        indirect.push((r.pc(k), t));
    }
}

/// Give every sink strongly connected component of the blocks that cannot reach `exit`
/// an edge from its highest block to `exit`, so that all blocks reach it.
fn connect_dead_ends(succ: &mut [Vec<usize>], exit: usize) {
    let n = succ.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (u, s) in succ.iter().enumerate() {
        for &v in s {
            preds[v].push(u);
        }
    }
    let mut reach = vec![false; n];
    reach[exit] = true;
    let mut stack = vec![exit];
    while let Some(v) = stack.pop() {
        for &u in &preds[v] {
            if !reach[u] {
                reach[u] = true;
                stack.push(u);
            }
        }
    }
    if reach.iter().all(|&x| x) {
        return;
    }
    // Tarjan's SCCs over the unreached nodes (iterative).
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut st: Vec<usize> = Vec::new();
    let mut next_index = 0;
    let mut ncomp = 0;
    for s0 in 0..n {
        if reach[s0] || index[s0] != NONE {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s0, 0)];
        index[s0] = next_index;
        low[s0] = next_index;
        next_index += 1;
        st.push(s0);
        on[s0] = true;
        while let Some(&(v, ci)) = call.last() {
            if ci < succ[v].len() {
                call.last_mut().unwrap().1 += 1;
                let w = succ[v][ci];
                if reach[w] {
                    continue;
                }
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    st.push(w);
                    on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = st.pop() {
                        on[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    let mut sink = vec![true; ncomp];
    let mut top = vec![0usize; ncomp];
    for v in 0..n {
        if reach[v] {
            continue;
        }
        let c = comp[v];
        top[c] = top[c].max(v);
        if succ[v].iter().any(|&w| !reach[w] && comp[w] != c) {
            sink[c] = false;
        }
    }
    for c in 0..ncomp {
        if sink[c] {
            let v = top[c];
            succ[v].push(exit);
            succ[v].sort_unstable();
            succ[v].dedup();
        }
    }
}

/// Immediate post-dominators: dominators of the reversed graph rooted at `exit`
/// (Cooper, Harvey, Kennedy). `None` for `exit` itself and for nodes that cannot reach it.
fn post_dominators(succ: &[Vec<usize>], exit: usize) -> Vec<Option<usize>> {
    let n = succ.len();
    // Reversed graph: its successors are the CFG's predecessors.
    let mut rsucc: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (u, s) in succ.iter().enumerate() {
        for &v in s {
            rsucc[v].push(u);
        }
    }
    // Postorder of the reversed graph from the exit.
    const NONE: usize = usize::MAX;
    let mut po = vec![NONE; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut call: Vec<(usize, usize)> = vec![(exit, 0)];
    seen[exit] = true;
    while let Some(&(v, ci)) = call.last() {
        if ci < rsucc[v].len() {
            call.last_mut().unwrap().1 += 1;
            let w = rsucc[v][ci];
            if !seen[w] {
                seen[w] = true;
                call.push((w, 0));
            }
        } else {
            call.pop();
            po[v] = order.len();
            order.push(v);
        }
    }
    let mut idom = vec![NONE; n];
    idom[exit] = exit;
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev() {
            if v == exit {
                continue;
            }
            // The reversed graph's predecessors of v are v's CFG successors.
            let mut new = NONE;
            for &p in &succ[v] {
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    let (mut a, mut b) = (new, p);
                    while a != b {
                        while po[a] < po[b] {
                            a = idom[a];
                        }
                        while po[b] < po[a] {
                            b = idom[b];
                        }
                    }
                    a
                };
            }
            if new != NONE && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|v| {
            if v == exit || idom[v] == NONE {
                None
            } else {
                Some(idom[v])
            }
        })
        .collect()
}
