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
//!
//! # Files
//!
//! `regions.rs` cuts the code into regions; `blocks.rs` classifies instructions and builds
//! a region's blocks and successors; `indirect.rs` finds the targets of indirect jumps;
//! `dominators.rs` computes the post-dominator tree. `analyze_region` below runs these
//! steps for one region.

mod blocks;
mod dominators;
mod indirect;
mod regions;

use wsim_isa::Decoded;

use blocks::Blocks;
use dominators::{connect_dead_ends, post_dominators};
use regions::{make_regions, Region, Sec};

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

/// What the analysis of a region reads: the loaded sections, the fallback candidates of
/// unresolved indirect jumps and the decoder.
struct Env<'e, 'a> {
    code: &'e [Sec<'a>],
    data: &'e [Sec<'a>],
    code_words: &'e [u32],
    decode: &'e dyn Fn(u32) -> Option<Decoded>,
}

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

        let code_words = indirect::code_words(&code, &data);

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

/// Analyse one region: blocks, CFG, post-dominators; the reconvergence points of its
/// branches, indirect jumps and indirect calls go to `reconv`, the candidate targets of its
/// indirect jumps to `indirect`.
fn analyze_region(
    r: &Region,
    env: &Env,
    reconv: &mut Vec<(u32, Reconvergence)>,
    indirect: &mut Vec<(u32, Vec<u32>)>,
) {
    if r.len() == 0 {
        return;
    }
    let (insns, kinds) = blocks::decode(r, env);
    let direct = blocks::direct_leaders(r, &kinds);
    let (leaders, targets) = indirect::resolve_jumps(r, env, &insns, &kinds, direct);
    let blocks = Blocks::new(r, &leaders);
    let mut succ = blocks.successors(&kinds, &targets);
    connect_dead_ends(&mut succ, blocks.exit);
    let ipdom = post_dominators(&succ, blocks.exit);
    blocks.reconvergence(&kinds, &ipdom, reconv);
    blocks::indirect_calls(r, &kinds, reconv);
    for (k, t) in targets {
        indirect.push((r.pc(k), t));
    }
}
