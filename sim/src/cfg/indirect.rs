//! Indirect jumps: the candidate targets of each `jalr x0` that is not a return, found by a
//! small symbolic evaluation within basic blocks (constants, jump-table bases, loaded
//! entries), by reading jump tables, or by the region-wide fallback over the data sections
//! (see "Indirect jumps and jump tables" in [`super`]).

use wsim_isa::{Decoded, Instr, Op};

use super::blocks::Kind;
use super::regions::{read_word, Region, Sec};
use super::Env;

/// Most entries read from one jump table.
const MAX_TABLE_ENTRIES: usize = 1 << 16;
/// Rounds of "resolve indirect jumps, add their targets as block leaders".
const MAX_RESOLVE_ROUNDS: usize = 8;

/// Data words that look like code addresses, sorted by value: the fallback candidates of
/// unresolved indirect jumps.
pub(super) fn code_words(code: &[Sec], data: &[Sec]) -> Vec<u32> {
    let mut code_words: Vec<u32> = Vec::new();
    for s in data {
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
    code_words
}

/// Resolve the region's indirect jumps, starting from the leaders of direct control flow:
/// the final block leaders and the candidate targets of each indirect jump (by instruction
/// index, each list sorted and deduplicated).
pub(super) fn resolve_jumps(
    r: &Region,
    env: &Env,
    insns: &[Option<Decoded>],
    kinds: &[Kind],
    direct: Vec<bool>,
) -> (Vec<bool>, Vec<(usize, Vec<u32>)>) {
    // Resolve indirect jumps; their targets are leaders too, which may split the blocks
    // the resolution looked at, so repeat until the leaders are stable.
    let mut leaders = direct;
    let mut consts = Vec::new();
    let mut targets: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut fb: Option<Vec<u32>> = None;
    for round in 0..MAX_RESOLVE_ROUNDS {
        consts.clear();
        let vals = evaluate(r, insns, kinds, &leaders, &mut consts);
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
    (leaders, targets)
}

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
