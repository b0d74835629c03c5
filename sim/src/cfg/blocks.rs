//! Instruction classification and basic blocks: the instructions of a region decoded and
//! classified by their control flow, the block leaders of direct control flow, the blocks
//! and their successors in the region's CFG, and the reconvergence points read off the
//! post-dominator tree.

use wsim_isa::{Decoded, Op};

use super::regions::Region;
use super::{Env, Reconvergence};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
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
    pub(super) fn ends_block(self) -> bool {
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

/// Decode and classify every instruction of the (non-empty) region.
pub(super) fn decode(r: &Region, env: &Env) -> (Vec<Option<Decoded>>, Vec<Kind>) {
    let n = r.len();
    let sec = &env.code[r.sec];
    let insns: Vec<Option<Decoded>> = (0..n)
        .map(|k| sec.word(r.pc(k) as u64).and_then(|w| (env.decode)(w)))
        .collect();
    let kinds: Vec<Kind> = (0..n)
        .map(|k| classify(r.pc(k), insns[k].as_ref()))
        .collect();
    (insns, kinds)
}

/// Leaders from direct control flow: the region start, the targets of branches and jumps
/// inside the region, and the instruction after every terminator.
pub(super) fn direct_leaders(r: &Region, kinds: &[Kind]) -> Vec<bool> {
    let n = kinds.len();
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
    direct
}

/// The basic blocks of a region and the numbering of the CFG's nodes: blocks `0..exit` in
/// address order, then the virtual exit.
pub(super) struct Blocks<'r> {
    r: &'r Region,
    /// The first instruction of each block.
    starts: Vec<usize>,
    /// The block of each instruction.
    block_of: Vec<usize>,
    /// The virtual exit's node, one past the last block.
    pub(super) exit: usize,
}

impl<'r> Blocks<'r> {
    pub(super) fn new(r: &'r Region, leaders: &[bool]) -> Blocks<'r> {
        let n = leaders.len();
        let starts: Vec<usize> = (0..n).filter(|&k| leaders[k]).collect();
        let mut block_of = vec![0usize; n];
        for (b, &s) in starts.iter().enumerate() {
            let e = starts.get(b + 1).copied().unwrap_or(n);
            block_of[s..e].fill(b);
        }
        Blocks {
            r,
            exit: starts.len(),
            starts,
            block_of,
        }
    }

    /// The last instruction of block `b`.
    fn last(&self, b: usize) -> usize {
        self.starts
            .get(b + 1)
            .copied()
            .unwrap_or(self.block_of.len())
            - 1
    }

    /// The node of address `a`: its block, or the exit when outside the region.
    fn node(&self, a: u32) -> usize {
        self.r.index(a).map_or(self.exit, |j| self.block_of[j])
    }

    /// The node after instruction `k` when it falls through.
    fn next(&self, k: usize) -> usize {
        if k + 1 < self.block_of.len() {
            self.block_of[k + 1]
        } else {
            self.exit
        }
    }

    /// The successors of every node (the exit has none), sorted and deduplicated.
    /// `targets`: the candidate targets of each indirect jump, by instruction index.
    pub(super) fn successors(
        &self,
        kinds: &[Kind],
        targets: &[(usize, Vec<u32>)],
    ) -> Vec<Vec<usize>> {
        let (nb, exit) = (self.exit, self.exit);
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); nb + 1];
        let mut ti = 0; // cursor into `targets`, sorted by instruction index
        for (b, s) in succ.iter_mut().enumerate().take(nb) {
            let k = self.last(b);
            match kinds[k] {
                Kind::Plain | Kind::Call { .. } => s.push(self.next(k)),
                Kind::Branch(t) => {
                    s.push(self.node(t));
                    s.push(self.next(k));
                }
                Kind::Jump(t) => s.push(self.node(t)),
                Kind::Return | Kind::Exit | Kind::Invalid => s.push(exit),
                Kind::IndirectJump => {
                    while ti < targets.len() && targets[ti].0 < k {
                        ti += 1;
                    }
                    let t: &[u32] = match targets.get(ti) {
                        Some((j, t)) if *j == k => t,
                        _ => &[],
                    };
                    s.extend(t.iter().map(|&a| self.node(a)));
                    if s.is_empty() {
                        s.push(exit);
                    }
                }
            }
            s.sort_unstable();
            s.dedup();
        }
        succ
    }

    /// Record the reconvergence point of every block ending in a conditional branch or
    /// an indirect jump, from the immediate post-dominators `ipdom` of the nodes.
    pub(super) fn reconvergence(
        &self,
        kinds: &[Kind],
        ipdom: &[Option<usize>],
        reconv: &mut Vec<(u32, Reconvergence)>,
    ) {
        let (r, nb, exit) = (self.r, self.exit, self.exit);
        let block_pc = |b: usize| {
            if b == exit {
                None
            } else {
                Some(r.pc(self.starts[b]))
            }
        };
        for (b, ip) in ipdom.iter().enumerate().take(nb) {
            let k = self.last(b);
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
    }
}

/// Indirect calls may sit inside blocks; they reconverge at the return address.
pub(super) fn indirect_calls(r: &Region, kinds: &[Kind], reconv: &mut Vec<(u32, Reconvergence)>) {
    for (k, &kind) in kinds.iter().enumerate() {
        if kind == (Kind::Call { indirect: true }) {
            reconv.push((r.pc(k), Reconvergence::At(r.pc(k).wrapping_add(4))));
        }
    }
}
