//! Hermetic tests of `wsim_sim::cfg`: programs are hand-assembled by a tiny encoder with
//! labels; the analysis runs with a minimal local decoder and, once `wsim_isa::decode`
//! decodes (it is being written), also with the real one, and both must agree.

use std::collections::BTreeMap;

use wsim_isa::{Decoded, Flow, Info, Instr, Op, Unit};
use wsim_sim::cfg::{CodeSection, ControlFlow, DataSection, FunctionSymbol, Reconvergence};

use Reconvergence::{At, FunctionExit};

// ---------------------------------------------------------------------------------------
// Encoder

const ZERO: u8 = 0;
const RA: u8 = 1;
const T0: u8 = 5;
const T1: u8 = 6;
const T2: u8 = 7;
const A0: u8 = 10;
const A1: u8 = 11;
const A2: u8 = 12;
const A3: u8 = 13;

#[derive(Clone, Debug)]
enum A {
    Label(&'static str),
    Br(u32, u8, u8, &'static str),
    J(u8, &'static str),
    JAbs(u8, u32),
    Jalr(u8, u8, i32),
    Addi(u8, u8, i32),
    Slli(u8, u8, u32),
    Add(u8, u8, u8),
    Lw(u8, u8, i32),
    Sw(u8, u8, i32),
    Lui(u8, u32),
    Auipc(u8, u32),
    /// `lui rd, %hi(label); addi rd, rd, %lo(label)` (two words).
    La(u8, &'static str),
    /// `auipc rd, %pcrel_hi(label); addi rd, rd, %pcrel_lo` (two words).
    Lla(u8, &'static str),
    Ecall,
    Mret,
    Tmc(u8),
    Word(u32),
}

const BEQ: u32 = 0;
const BNE: u32 = 1;
const BLT: u32 = 4;
const BGE: u32 = 5;
const BLTU: u32 = 6;

fn ret() -> A {
    A::Jalr(ZERO, RA, 0)
}

fn r_type(f7: u32, rs2: u8, rs1: u8, f3: u32, rd: u8, op: u32) -> u32 {
    f7 << 25 | (rs2 as u32) << 20 | (rs1 as u32) << 15 | f3 << 12 | (rd as u32) << 7 | op
}
fn i_type(imm: i32, rs1: u8, f3: u32, rd: u8, op: u32) -> u32 {
    ((imm as u32) & 0xfff) << 20 | (rs1 as u32) << 15 | f3 << 12 | (rd as u32) << 7 | op
}
fn s_type(imm: i32, rs2: u8, rs1: u8, f3: u32, op: u32) -> u32 {
    let i = imm as u32;
    (i >> 5 & 0x7f) << 25
        | (rs2 as u32) << 20
        | (rs1 as u32) << 15
        | f3 << 12
        | (i & 0x1f) << 7
        | op
}
fn b_type(off: i32, rs2: u8, rs1: u8, f3: u32) -> u32 {
    let i = off as u32;
    (i >> 12 & 1) << 31
        | (i >> 5 & 0x3f) << 25
        | (rs2 as u32) << 20
        | (rs1 as u32) << 15
        | f3 << 12
        | (i >> 1 & 0xf) << 8
        | (i >> 11 & 1) << 7
        | 0x63
}
fn j_type(off: i32, rd: u8) -> u32 {
    let i = off as u32;
    (i >> 20 & 1) << 31
        | (i >> 1 & 0x3ff) << 21
        | (i >> 11 & 1) << 20
        | (i >> 12 & 0xff) << 12
        | (rd as u32) << 7
        | 0x6f
}
fn hi_lo(v: u32) -> (u32, i32) {
    let lo = ((v & 0xfff) as i32) << 20 >> 20;
    (v.wrapping_sub(lo as u32), lo)
}

struct Program {
    words: Vec<u32>,
    labels: BTreeMap<&'static str, u32>,
}

impl Program {
    fn at(&self, l: &str) -> u32 {
        *self.labels.get(l).unwrap_or_else(|| panic!("no label {l}"))
    }
    fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// Assemble at `base`; `extern_labels` resolve labels of other programs (data tables).
fn assemble(base: u32, src: &[A], extern_labels: &BTreeMap<&'static str, u32>) -> Program {
    let mut labels = extern_labels.clone();
    let mut pc = base;
    for a in src {
        match a {
            A::Label(l) => {
                labels.insert(l, pc);
            }
            A::La(..) | A::Lla(..) => pc += 8,
            _ => pc += 4,
        }
    }
    let lab = |l: &str| *labels.get(l).unwrap_or_else(|| panic!("no label {l}"));
    let mut words = Vec::new();
    let mut pc = base;
    for a in src {
        let off = |l: &str| lab(l).wrapping_sub(pc) as i32;
        match *a {
            A::Label(_) => continue,
            A::Br(f3, rs1, rs2, l) => words.push(b_type(off(l), rs2, rs1, f3)),
            A::J(rd, l) => words.push(j_type(off(l), rd)),
            A::JAbs(rd, t) => words.push(j_type(t.wrapping_sub(pc) as i32, rd)),
            A::Jalr(rd, rs1, imm) => words.push(i_type(imm, rs1, 0, rd, 0x67)),
            A::Addi(rd, rs1, imm) => words.push(i_type(imm, rs1, 0, rd, 0x13)),
            A::Slli(rd, rs1, sh) => words.push(i_type(sh as i32, rs1, 1, rd, 0x13)),
            A::Add(rd, rs1, rs2) => words.push(r_type(0, rs2, rs1, 0, rd, 0x33)),
            A::Lw(rd, rs1, imm) => words.push(i_type(imm, rs1, 2, rd, 0x03)),
            A::Sw(rs2, rs1, imm) => words.push(s_type(imm, rs2, rs1, 2, 0x23)),
            A::Lui(rd, v) => words.push(v & 0xffff_f000 | (rd as u32) << 7 | 0x37),
            A::Auipc(rd, v) => words.push(v & 0xffff_f000 | (rd as u32) << 7 | 0x17),
            A::La(rd, l) => {
                let (hi, lo) = hi_lo(lab(l));
                words.push(hi | (rd as u32) << 7 | 0x37);
                words.push(i_type(lo, rd, 0, rd, 0x13));
            }
            A::Lla(rd, l) => {
                let (hi, lo) = hi_lo(off(l) as u32);
                words.push(hi | (rd as u32) << 7 | 0x17);
                words.push(i_type(lo, rd, 0, rd, 0x13));
            }
            A::Ecall => words.push(0x0000_0073),
            A::Mret => words.push(0x3020_0073),
            A::Tmc(rs1) => words.push(r_type(0, 0, rs1, 0, 0, 0x0b)),
            A::Word(w) => words.push(w),
        }
        pc = base + 4 * words.len() as u32;
    }
    let labels = labels
        .into_iter()
        .filter(|(l, _)| !extern_labels.contains_key(l))
        .collect();
    Program { words, labels }
}

// ---------------------------------------------------------------------------------------
// Minimal decoder (only what the tests emit)

fn mini_decode(w: u32) -> Option<Decoded> {
    let rd = (w >> 7 & 31) as u8;
    let rs1 = (w >> 15 & 31) as u8;
    let rs2 = (w >> 20 & 31) as u8;
    let f3 = w >> 12 & 7;
    let f7 = w >> 25;
    let imm_i = (w as i32) >> 20;
    let imm_s = ((w as i32) >> 25 << 5) | (w >> 7 & 31) as i32;
    let imm_b = ((w as i32) >> 31 << 12)
        | ((w >> 7 & 1) << 11) as i32
        | ((w >> 25 & 0x3f) << 5) as i32
        | ((w >> 8 & 0xf) << 1) as i32;
    let imm_j = ((w as i32) >> 31 << 20)
        | ((w >> 12 & 0xff) << 12) as i32
        | ((w >> 20 & 1) << 11) as i32
        | ((w >> 21 & 0x3ff) << 1) as i32;
    let mk = |op, rd, rs1, rs2, imm, flow| {
        let mut i = Instr::new(op);
        i.rd = rd;
        i.rs1 = rs1;
        i.rs2 = rs2;
        i.imm = imm;
        Some(Decoded {
            instr: i,
            info: Info {
                unit: Unit::Alu,
                srcs: [None; 3],
                dst: None,
                flow,
                mem: None,
            },
        })
    };
    match w & 0x7f {
        0x37 => mk(Op::Lui, rd, 0, 0, (w & 0xffff_f000) as i32, Flow::None),
        0x17 => mk(Op::Auipc, rd, 0, 0, (w & 0xffff_f000) as i32, Flow::None),
        0x6f => mk(Op::Jal, rd, 0, 0, imm_j, Flow::Jump),
        0x67 if f3 == 0 => mk(Op::Jalr, rd, rs1, 0, imm_i, Flow::IndirectJump),
        0x63 => {
            let op = [
                Op::Beq,
                Op::Bne,
                Op::Beq,
                Op::Beq,
                Op::Blt,
                Op::Bge,
                Op::Bltu,
                Op::Bgeu,
            ][f3 as usize];
            (f3 != 2 && f3 != 3).then_some(())?;
            mk(op, 0, rs1, rs2, imm_b, Flow::Branch)
        }
        0x03 if f3 == 2 => mk(Op::Lw, rd, rs1, 0, imm_i, Flow::None),
        0x23 if f3 == 2 => mk(Op::Sw, 0, rs1, rs2, imm_s, Flow::None),
        0x13 if f3 == 0 => mk(Op::Addi, rd, rs1, 0, imm_i, Flow::None),
        0x13 if f3 == 1 && f7 == 0 => mk(Op::Slli, rd, rs1, 0, rs2 as i32, Flow::None),
        0x33 if f3 == 0 && f7 == 0 => mk(Op::Add, rd, rs1, rs2, 0, Flow::None),
        0x73 if w == 0x73 => mk(Op::Ecall, 0, 0, 0, 0, Flow::System),
        0x73 if w == 0x3020_0073 => mk(Op::Mret, 0, 0, 0, 0, Flow::System),
        0x0b if f3 == 0 && f7 == 0 && rd == 0 && rs2 == 0 => {
            mk(Op::VxTmc, 0, rs1, 0, 0, Flow::WarpControl)
        }
        _ => None,
    }
}

fn real_decoder_available() -> bool {
    wsim_isa::decode(0x0000_0013).is_ok() && wsim_isa::decode(0x0000_8067).is_ok()
}

// ---------------------------------------------------------------------------------------
// Harness

const BASE: u32 = 0x8000_0000;
const DATA: u32 = 0x8001_0000;

struct Built {
    cf: ControlFlow,
    p: Program,
    d: Program,
}

impl Built {
    fn rc(&self, l: &str) -> Option<Reconvergence> {
        self.cf.reconvergence(self.p.at(l))
    }
    fn at(&self, l: &str) -> Reconvergence {
        At(self.p.at(l))
    }
    fn targets(&self, l: &str) -> Vec<u32> {
        self.cf
            .indirect_targets(self.p.at(l))
            .expect("indirect jump")
            .to_vec()
    }
    fn addrs(&self, ls: &[&str]) -> Vec<u32> {
        let mut v: Vec<u32> = ls.iter().map(|l| self.p.at(l)).collect();
        v.sort();
        v
    }
}

/// Assemble `src` at BASE and `data` at DATA; `funcs` are (label, size in words or 0).
fn build(src: &[A], data: &[A], funcs: &[(&'static str, u32)]) -> Built {
    // Data labels first (code refers to them), then code, then data (which may hold
    // code addresses).
    let data_labels: BTreeMap<&'static str, u32> = {
        let mut m = BTreeMap::new();
        let mut pc = DATA;
        for a in data {
            match a {
                A::Label(l) => {
                    m.insert(*l, pc);
                }
                _ => pc += 4,
            }
        }
        m
    };
    let p = assemble(BASE, src, &data_labels);
    let d = assemble(
        DATA,
        data,
        &p.labels.iter().map(|(k, v)| (*k, *v)).collect(),
    );
    let code_bytes = p.bytes();
    let data_bytes = d.bytes();
    let functions: Vec<FunctionSymbol> = funcs
        .iter()
        .map(|(l, size)| FunctionSymbol {
            name: l.to_string(),
            start: p.at(l),
            size: size * 4,
        })
        .collect();
    let code = [CodeSection {
        addr: BASE,
        bytes: &code_bytes,
    }];
    let datas = [DataSection {
        addr: DATA,
        bytes: &data_bytes,
    }];
    let cf = ControlFlow::build_with_decoder(&code, &datas, &functions, &mini_decode);
    // Deterministic.
    let again = ControlFlow::build_with_decoder(&code, &datas, &functions, &mini_decode);
    assert_eq!(format!("{cf:?}"), format!("{again:?}"));
    if real_decoder_available() {
        let real = ControlFlow::build(&code, &datas, &functions);
        assert_eq!(
            format!("{cf:?}"),
            format!("{real:?}"),
            "real decoder disagrees with the mini decoder"
        );
    }
    Built { cf, p, d }
}

use A::*;

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn if_else_diamond() {
    let b = build(
        &[
            Label("f"),
            Addi(A1, ZERO, 3),
            Label("br"),
            Br(BEQ, A0, ZERO, "else"),
            Addi(A1, A1, 1),
            J(ZERO, "join"),
            Label("else"),
            Addi(A1, A1, 2),
            Label("join"),
            Addi(A0, A1, 0),
            ret(),
        ],
        &[],
        &[("f", 0)],
    );
    assert_eq!(b.rc("br"), Some(b.at("join")));
    // Not a branch / not code.
    assert_eq!(b.rc("f"), None);
    assert_eq!(b.rc("join"), None);
    assert_eq!(b.cf.reconvergence(0x1234), None);
    assert_eq!(b.cf.indirect_targets(b.p.at("br")), None);
    assert_eq!(
        b.cf.function_of(b.p.at("join")),
        Some(("f", BASE, BASE + 7 * 4))
    );
    assert_eq!(b.cf.function_of(BASE + 7 * 4), None);
}

#[test]
fn if_without_else() {
    let b = build(
        &[
            Label("f"),
            Label("br"),
            Br(BNE, A0, ZERO, "join"),
            Addi(A1, A1, 1),
            Label("join"),
            ret(),
        ],
        &[],
        &[("f", 4)],
    );
    assert_eq!(b.rc("br"), Some(b.at("join")));
}

#[test]
fn nested_if() {
    let b = build(
        &[
            Label("f"),
            Label("br1"),
            Br(BEQ, A0, ZERO, "else1"),
            Label("br2"),
            Br(BEQ, A1, ZERO, "join2"),
            Addi(A2, A2, 1),
            Label("join2"),
            Addi(A2, A2, 2),
            J(ZERO, "join1"),
            Label("else1"),
            Label("br3"),
            Br(BLT, A1, A0, "else3"),
            Addi(A2, A2, 3),
            J(ZERO, "join3"),
            Label("else3"),
            Addi(A2, A2, 4),
            Label("join3"),
            Addi(A2, A2, 5),
            Label("join1"),
            Addi(A0, A2, 0),
            ret(),
        ],
        &[],
        &[("f", 0)],
    );
    assert_eq!(b.rc("br1"), Some(b.at("join1")));
    assert_eq!(b.rc("br2"), Some(b.at("join2")));
    assert_eq!(b.rc("br3"), Some(b.at("join3")));
}

#[test]
fn loops_with_data_dependent_trip_count() {
    let b = build(
        &[
            // Bottom-tested (do-while, as clang rotates loops).
            Label("f"),
            Addi(T0, ZERO, 0),
            Label("body"),
            Addi(T0, T0, 1),
            Lw(A1, A0, 0),
            Label("br_bottom"),
            Br(BLT, T0, A1, "body"),
            Label("after1"),
            // Top-tested.
            Label("head"),
            Label("br_top"),
            Br(BGE, T0, A1, "after2"),
            // A branch inside the loop body.
            Label("br_in"),
            Br(BEQ, T0, A2, "skip"),
            Addi(A2, A2, 1),
            Label("skip"),
            Addi(T0, T0, 1),
            J(ZERO, "head"),
            Label("after2"),
            ret(),
        ],
        &[],
        &[("f", 0)],
    );
    assert_eq!(b.rc("br_bottom"), Some(b.at("after1")));
    assert_eq!(b.rc("br_top"), Some(b.at("after2")));
    assert_eq!(b.rc("br_in"), Some(b.at("skip")));
}

#[test]
fn loop_with_break_and_continue() {
    let b = build(
        &[
            Label("f"),
            Label("loop"),
            Label("br_head"),
            Br(BGE, T0, A1, "out"),
            Lw(T1, A0, 0),
            Label("br_break"),
            Br(BLT, T1, ZERO, "out"),
            Label("br_continue"),
            Br(BEQ, T1, T2, "latch"),
            Addi(A2, A2, 1),
            Label("latch"),
            Addi(T0, T0, 1),
            J(ZERO, "loop"),
            Label("out"),
            Addi(A0, A2, 0),
            ret(),
        ],
        &[],
        &[("f", 0)],
    );
    assert_eq!(b.rc("br_head"), Some(b.at("out")));
    assert_eq!(b.rc("br_break"), Some(b.at("out")));
    assert_eq!(b.rc("br_continue"), Some(b.at("latch")));
}

#[test]
fn early_return() {
    let b = build(
        &[
            // Two returns: reconverge only at the function exit.
            Label("f"),
            Label("br"),
            Br(BEQ, A0, ZERO, "early"),
            Addi(A0, A0, 5),
            ret(),
            Label("early"),
            Addi(A0, ZERO, -1),
            ret(),
            // A shared return block: reconverge there.
            Label("g"),
            Label("br_g"),
            Br(BEQ, A0, ZERO, "epilogue"),
            Addi(A0, A0, 5),
            Label("br_g2"),
            Br(BNE, A0, A1, "other"),
            Addi(A0, A0, 1),
            J(ZERO, "epilogue"),
            Label("other"),
            Addi(A0, A0, 2),
            Label("epilogue"),
            Lw(RA, 2, 12),
            ret(),
        ],
        &[],
        &[("f", 0), ("g", 0)],
    );
    assert_eq!(b.rc("br"), Some(FunctionExit));
    assert_eq!(b.rc("br_g"), Some(b.at("epilogue")));
    assert_eq!(b.rc("br_g2"), Some(b.at("epilogue")));
    assert_eq!(b.cf.function_of(b.p.at("early")).map(|f| f.0), Some("f"));
    assert_eq!(b.cf.function_of(b.p.at("epilogue")).map(|f| f.0), Some("g"));
}

/// What clang 14 emits for a dense switch at -O2, position-dependent: absolute entries.
fn switch_src(pic: bool) -> Vec<A> {
    let mut v = vec![
        Label("sw"),
        Addi(A2, ZERO, 3),
        Label("range"),
        Br(BLTU, A2, A0, "default"),
        Slli(A0, A0, 2),
    ];
    if pic {
        v.extend([
            Lla(A2, "table"),
            Add(A0, A0, A2),
            Lw(A0, A0, 0),
            Add(A0, A0, A2),
        ]);
    } else {
        v.extend([La(A2, "table"), Add(A0, A0, A2), Lw(A0, A0, 0)]);
    }
    v.extend([
        Addi(A2, ZERO, 99),
        Label("jr"),
        Jalr(ZERO, A0, 0),
        Label("c0"),
        Addi(A2, A1, 1),
        J(ZERO, "join"),
        Label("default"),
        Addi(A2, ZERO, -1),
        J(ZERO, "join"),
        Label("c1"),
        Addi(A2, A1, 3),
        Label("br_in_case"),
        Br(BEQ, A2, ZERO, "join"),
        Addi(A2, A2, 1),
        J(ZERO, "join"),
        Label("c2"),
        Addi(A2, A1, -7),
        J(ZERO, "join"),
        Label("c3"),
        Addi(A2, A1, 5),
        Label("join"),
        Add(A0, A2, A1),
        ret(),
        Label("next_fn"),
        ret(),
    ]);
    v
}

#[test]
fn switch_jump_table_absolute() {
    let data = [
        Word(0x1234_5678),
        Label("table"),
        Word(0),
        Word(0),
        Word(0),
        Word(0),
        // Not an address of `sw`: ends the table.
        Word(0xdead_beef),
    ];
    // Data words are filled with code addresses after assembling.
    let mut b = build(&switch_src(false), &data, &[("sw", 0), ("next_fn", 0)]);
    let code = b.p.bytes();
    let mut d = b.d.bytes();
    for (k, l) in ["c0", "c1", "c2", "c3"].iter().enumerate() {
        let a = (b.d.at("table") - DATA) as usize + 4 * k;
        d[a..a + 4].copy_from_slice(&b.p.at(l).to_le_bytes());
    }
    let functions = [
        FunctionSymbol {
            name: "sw".into(),
            start: b.p.at("sw"),
            size: 0,
        },
        FunctionSymbol {
            name: "next_fn".into(),
            start: b.p.at("next_fn"),
            size: 4,
        },
    ];
    b.cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[DataSection {
            addr: DATA,
            bytes: &d,
        }],
        &functions,
        &mini_decode,
    );
    assert_eq!(b.targets("jr"), b.addrs(&["c0", "c1", "c2", "c3"]));
    assert_eq!(b.rc("jr"), Some(b.at("join")));
    assert_eq!(b.rc("range"), Some(b.at("join")));
    assert_eq!(b.rc("br_in_case"), Some(b.at("join")));
    assert_eq!(b.cf.indirect_targets(b.p.at("range")), None);
}

#[test]
fn switch_jump_table_relative_pic() {
    let mut b = build(
        &switch_src(true),
        &[Label("table"), Word(0), Word(0), Word(0), Word(0)],
        &[("sw", 0)],
    );
    let code = b.p.bytes();
    let mut d = b.d.bytes();
    let t = b.d.at("table");
    for (k, l) in ["c3", "c2", "c1", "c0"].iter().enumerate() {
        let a = (t - DATA) as usize + 4 * k;
        d[a..a + 4].copy_from_slice(&b.p.at(l).wrapping_sub(t).to_le_bytes());
    }
    b.cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[DataSection {
            addr: DATA,
            bytes: &d,
        }],
        &[FunctionSymbol {
            name: "sw".into(),
            start: BASE,
            size: 0,
        }],
        &mini_decode,
    );
    assert_eq!(b.targets("jr"), b.addrs(&["c0", "c1", "c2", "c3"]));
    assert_eq!(b.rc("jr"), Some(b.at("join")));
    assert_eq!(b.rc("range"), Some(b.at("join")));
}

#[test]
fn two_switches_with_adjacent_tables() {
    let src = [
        Label("f"),
        Addi(A2, ZERO, 1),
        Label("range1"),
        Br(BLTU, A2, A0, "mid"),
        Slli(A0, A0, 2),
        La(A3, "t1"),
        Add(A0, A0, A3),
        Lw(A0, A0, 0),
        Label("jr1"),
        Jalr(ZERO, A0, 0),
        Label("a0"),
        Addi(A1, A1, 1),
        J(ZERO, "mid"),
        Label("a1"),
        Addi(A1, A1, 2),
        Label("mid"),
        Label("range2"),
        Br(BLTU, A2, A1, "end"),
        Slli(A1, A1, 2),
        La(A3, "t2"),
        Add(A1, A1, A3),
        Lw(A1, A1, 0),
        Label("jr2"),
        Jalr(ZERO, A1, 0),
        Label("b0"),
        Addi(A0, A0, 1),
        J(ZERO, "end"),
        Label("b1"),
        Addi(A0, A0, 2),
        Label("end"),
        ret(),
    ];
    let data = [Label("t1"), Word(0), Word(0), Label("t2"), Word(0), Word(0)];
    let b = build(&src, &data, &[("f", 0)]);
    let code = b.p.bytes();
    let mut d = b.d.bytes();
    for (k, l) in ["a0", "a1", "b0", "b1"].iter().enumerate() {
        d[4 * k..4 * k + 4].copy_from_slice(&b.p.at(l).to_le_bytes());
    }
    let cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[DataSection {
            addr: DATA,
            bytes: &d,
        }],
        &[FunctionSymbol {
            name: "f".into(),
            start: BASE,
            size: 0,
        }],
        &mini_decode,
    );
    let pc = |l| b.p.at(l);
    // The first table ends where the second begins.
    assert_eq!(
        cf.indirect_targets(pc("jr1")).unwrap(),
        &b.addrs(&["a0", "a1"])[..]
    );
    assert_eq!(
        cf.indirect_targets(pc("jr2")).unwrap(),
        &b.addrs(&["b0", "b1"])[..]
    );
    assert_eq!(cf.reconvergence(pc("jr1")), Some(At(pc("mid"))));
    assert_eq!(cf.reconvergence(pc("range1")), Some(At(pc("mid"))));
    assert_eq!(cf.reconvergence(pc("jr2")), Some(At(pc("end"))));
    assert_eq!(cf.reconvergence(pc("range2")), Some(At(pc("end"))));
}

#[test]
fn indirect_jump_fallback_and_constant_target() {
    // The table base is computed in another block: the pattern is not recognised within
    // the jump's block, so every data word that is an instruction address of `f` counts.
    let src = [
        Label("f"),
        La(A2, "table"),
        Label("range"),
        Br(BLTU, A1, A0, "join"),
        Slli(A0, A0, 2),
        Add(A0, A0, A2),
        Lw(A0, A0, 0),
        Label("jr"),
        Jalr(ZERO, A0, 0),
        Label("c0"),
        Addi(A2, A1, 1),
        J(ZERO, "join"),
        Label("c1"),
        Addi(A2, A1, 2),
        Label("join"),
        Label("far"),
        // A far jump through a constant (`auipc t1; jr t1`): one direct target.
        Auipc(T1, 0),
        Label("jr_const"),
        Jalr(ZERO, T1, 12),
        Word(0),
        Label("tgt"),
        ret(),
        Label("g"),
        Label("jr_none"),
        Jalr(ZERO, A0, 0),
    ];
    let b = build(
        &src,
        &[Label("table"), Word(0), Word(0), Word(0)],
        &[("f", 0), ("g", 0)],
    );
    let code = b.p.bytes();
    let mut d = b.d.bytes();
    d[0..4].copy_from_slice(&b.p.at("c1").to_le_bytes());
    d[4..8].copy_from_slice(&b.p.at("c0").to_le_bytes());
    d[8..12].copy_from_slice(&b.p.at("g").to_le_bytes()); // another function: not a candidate of f
    let functions = [
        FunctionSymbol {
            name: "f".into(),
            start: b.p.at("f"),
            size: 0,
        },
        FunctionSymbol {
            name: "g".into(),
            start: b.p.at("g"),
            size: 0,
        },
    ];
    let cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[DataSection {
            addr: DATA,
            bytes: &d,
        }],
        &functions,
        &mini_decode,
    );
    let pc = |l| b.p.at(l);
    assert_eq!(
        cf.indirect_targets(pc("jr")).unwrap(),
        &b.addrs(&["c0", "c1"])[..]
    );
    assert_eq!(cf.reconvergence(pc("jr")), Some(At(pc("join"))));
    assert_eq!(cf.reconvergence(pc("range")), Some(At(pc("join"))));
    assert_eq!(
        cf.indirect_targets(pc("jr_const")).unwrap(),
        &[pc("tgt")][..]
    );
    assert_eq!(cf.reconvergence(pc("jr_const")), Some(At(pc("tgt"))));
    // `g`'s address is in the data and is an instruction of g: a candidate of g's jump.
    assert_eq!(cf.indirect_targets(pc("jr_none")).unwrap(), &[pc("g")][..]);
    // Its only target is itself: an infinite loop, connected to the exit.
    assert_eq!(cf.reconvergence(pc("jr_none")), Some(FunctionExit));

    // Without any data: no candidate, the jump leaves the function.
    let cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[],
        &functions,
        &mini_decode,
    );
    assert_eq!(cf.indirect_targets(pc("jr")).unwrap(), &[] as &[u32]);
    assert_eq!(cf.reconvergence(pc("jr")), Some(FunctionExit));
    assert_eq!(cf.reconvergence(pc("range")), Some(FunctionExit));
}

#[test]
fn call_inside_branch() {
    let b = build(
        &[
            Label("f"),
            Label("br"),
            Br(BEQ, A0, ZERO, "else"),
            Label("call"),
            J(RA, "callee"),
            Addi(A0, A0, 1),
            Ecall,
            Tmc(A0),
            J(ZERO, "join"),
            Label("else"),
            Label("icall"),
            Jalr(RA, T1, 0),
            Addi(A0, A0, 2),
            Label("join"),
            ret(),
            Label("callee"),
            Label("br_callee"),
            Br(BEQ, A0, ZERO, "cret"),
            Addi(A0, A0, 1),
            Label("cret"),
            ret(),
        ],
        &[],
        &[("f", 0), ("callee", 0)],
    );
    assert_eq!(b.rc("br"), Some(b.at("join")));
    assert_eq!(b.rc("call"), None);
    // An indirect call reconverges at its return address.
    assert_eq!(b.rc("icall"), Some(At(b.p.at("icall") + 4)));
    assert_eq!(b.cf.indirect_targets(b.p.at("icall")), None);
    assert_eq!(b.rc("br_callee"), Some(b.at("cret")));
}

#[test]
fn tail_call() {
    let b = build(
        &[
            Label("f"),
            Label("br"),
            Br(BEQ, A0, ZERO, "tail"),
            Addi(A0, A0, 1),
            ret(),
            Label("tail"),
            J(ZERO, "g"),
            // Both paths end in the same tail call: it post-dominates.
            Label("h"),
            Label("br_h"),
            Br(BEQ, A0, ZERO, "tc"),
            Addi(A0, A0, 1),
            Label("tc"),
            J(ZERO, "g"),
            // Branch to another function (conditional tail call).
            Label("k"),
            Label("br_k"),
            Br(BEQ, A0, ZERO, "g"),
            Addi(A0, A0, 1),
            ret(),
            Label("g"),
            Lui(T0, 0x1000),
            Sw(A0, T0, 8),
            Label("br_g"),
            Br(BEQ, A0, ZERO, "g2"),
            // Jump to an address outside all code.
            JAbs(ZERO, 0x1000),
            Label("g2"),
            ret(),
        ],
        &[],
        &[("f", 0), ("h", 0), ("k", 0), ("g", 0)],
    );
    assert_eq!(b.rc("br_g"), Some(FunctionExit));
    assert_eq!(b.rc("br"), Some(FunctionExit));
    assert_eq!(b.rc("br_h"), Some(b.at("tc")));
    assert_eq!(b.rc("br_k"), Some(FunctionExit));
}

#[test]
fn infinite_loops() {
    let b = build(
        &[
            Label("_start"),
            J(RA, "f"),
            Label("loop"),
            Lw(T0, A0, 0),
            Label("br_body"),
            Br(BEQ, T0, ZERO, "skip"),
            Addi(A1, A1, 1),
            Label("skip"),
            Addi(A2, A2, 1),
            J(ZERO, "loop"),
            Label("f"),
            Label("br_spin"),
            Br(BEQ, A0, ZERO, "spin"),
            Addi(A0, A0, 1),
            ret(),
            Label("spin"),
            J(ZERO, "spin"),
            Label("halt"),
            Label("br_halt"),
            Br(BEQ, A0, ZERO, "h2"),
            Addi(A0, A0, 1),
            Label("h2"),
            Mret,
            Label("self"),
            J(ZERO, "self"),
        ],
        &[],
        &[("_start", 0), ("f", 0), ("halt", 0)],
    );
    assert_eq!(b.rc("br_body"), Some(b.at("skip")));
    assert_eq!(b.rc("br_spin"), Some(FunctionExit));
    assert_eq!(b.rc("br_halt"), Some(b.at("h2")));
}

#[test]
fn undecodable_words() {
    let b = build(
        &[
            Label("f"),
            Label("br"),
            Br(BEQ, A0, ZERO, "l"),
            Word(0),
            Label("l"),
            Label("br2"),
            Br(BNE, A0, ZERO, "m"),
            Addi(A0, A0, 1),
            Label("m"),
            ret(),
            Word(0xffff_ffff),
            Word(0),
        ],
        &[],
        &[("f", 0)],
    );
    // The undecodable word leaves the function like a trap.
    assert_eq!(b.rc("br"), Some(FunctionExit));
    assert_eq!(b.rc("br2"), Some(b.at("m")));
}

#[test]
fn regions_without_symbols_and_gaps() {
    let b = build(
        &[
            Label("start"),
            Label("br0"),
            Br(BEQ, A0, ZERO, "j0"),
            Addi(A0, A0, 1),
            Label("j0"),
            ret(),
            Label("f"),
            Label("br"),
            Br(BEQ, A0, ZERO, "j"),
            Addi(A0, A0, 1),
            Label("j"),
            ret(),
            Label("pad"),
            Word(0),
            Word(0),
        ],
        &[],
        &[("f", 3)],
    );
    assert_eq!(b.rc("br0"), Some(b.at("j0")));
    assert_eq!(b.rc("br"), Some(b.at("j")));
    let f = b.p.at("f");
    assert_eq!(b.cf.function_of(BASE), Some(("<code 0x80000000>", BASE, f)));
    assert_eq!(b.cf.function_of(f + 8), Some(("f", f, f + 12)));
    let pad = b.p.at("pad");
    assert_eq!(
        b.cf.function_of(pad + 4),
        Some(("<code 0x80000018>", pad, pad + 8))
    );
    assert_eq!(b.cf.functions().count(), 3);

    // No symbols at all: one region per section.
    let code = b.p.bytes();
    let cf = ControlFlow::build_with_decoder(
        &[CodeSection {
            addr: BASE,
            bytes: &code,
        }],
        &[],
        &[],
        &mini_decode,
    );
    assert_eq!(
        cf.function_of(pad),
        Some(("<code 0x80000000>", BASE, BASE + code.len() as u32))
    );
    assert_eq!(cf.reconvergence(b.p.at("br0")), Some(At(b.p.at("j0"))));
    assert_eq!(cf.reconvergence(b.p.at("br")), Some(At(b.p.at("j"))));
}

/// A deterministic pseudo-random generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let decoders: [&dyn Fn(u32) -> Option<Decoded>; 2] =
        [&mini_decode, &|w| wsim_isa::decode(w).ok()];
    for round in 0..200 {
        // Mostly control flow, to make dense graphs.
        let n = (rng.next() % 300) as usize;
        let tail = rng.next() % 4;
        let code: Vec<u8> = (0..n)
            .flat_map(|_| {
                let w = match rng.next() % 8 {
                    0 => b_type(((rng.next() % 64) as i32 - 32) * 4, 0, A0, BEQ),
                    1 => j_type(
                        ((rng.next() % 64) as i32 - 32) * 4,
                        if rng.next() & 1 == 0 { 0 } else { RA },
                    ),
                    2 => i_type(0, (rng.next() % 32) as u8, 0, 0, 0x67),
                    3 => i_type(0, RA, 0, 0, 0x67),
                    4 => rng.next(),
                    5 => (rng.next() & 0xffff_f000) | 0x37 | (A2 as u32) << 7,
                    6 => i_type((rng.next() % 4096) as i32, A0, 2, A0, 0x03),
                    _ => r_type(0, A2, A0, 0, A0, 0x33),
                };
                w.to_le_bytes()
            })
            .chain((0..tail).map(|_| 0xabu8))
            .collect();
        let data: Vec<u8> = (0..(rng.next() % 256))
            .flat_map(|_| {
                if rng.next() & 1 == 0 {
                    (BASE + rng.next() % 1400).to_le_bytes()
                } else {
                    rng.next().to_le_bytes()
                }
            })
            .collect();
        let addr = match round % 4 {
            0 => BASE,
            1 => BASE + 2,
            2 => 0xffff_fff0u32.wrapping_sub(rng.next() % 64),
            _ => 0,
        };
        let funcs: Vec<FunctionSymbol> = (0..rng.next() % 12)
            .map(|k| FunctionSymbol {
                name: format!("f{k}"),
                start: addr
                    .wrapping_add(rng.next() % (code.len() as u32 + 64))
                    .wrapping_sub(16),
                size: match rng.next() % 3 {
                    0 => 0,
                    1 => rng.next() % 400,
                    _ => u32::MAX - rng.next() % 8,
                },
            })
            .collect();
        let codes = [
            CodeSection { addr, bytes: &code },
            CodeSection {
                addr: addr.wrapping_add(rng.next() % 256),
                bytes: &code[..code.len() / 2],
            },
            CodeSection {
                addr: 0x100,
                bytes: &[],
            },
        ];
        let datas = [
            DataSection {
                addr: (BASE + 0x10000) | (rng.next() % 4),
                bytes: &data,
            },
            DataSection {
                addr: addr.wrapping_add(4),
                bytes: &data,
            },
            DataSection {
                addr: u32::MAX - 2,
                bytes: &data,
            },
        ];
        let dec = decoders[round % 2];
        let cf = ControlFlow::build_with_decoder(&codes[..1 + round % 3], &datas, &funcs, dec);
        let cf2 = ControlFlow::build_with_decoder(&codes[..1 + round % 3], &datas, &funcs, dec);
        assert_eq!(format!("{cf:?}"), format!("{cf2:?}"));
        for k in 0..(n as u32 + 8) {
            let pc = addr.wrapping_add(4 * k);
            let _ = cf.reconvergence(pc);
            let _ = cf.function_of(pc);
            if let Some(t) = cf.indirect_targets(pc) {
                assert!(t.windows(2).all(|w| w[0] < w[1]));
            }
            // A reconvergence point lies in the branch's function.
            if let (Some(At(r)), Some((_, s, e))) = (cf.reconvergence(pc), cf.function_of(pc)) {
                let e = if e == u32::MAX {
                    u64::from(e) + 1
                } else {
                    u64::from(e)
                };
                assert!(
                    r >= s && (u64::from(r) < e || r == pc.wrapping_add(4)),
                    "reconvergence {r:#x} outside [{s:#x},{e:#x}) for {pc:#x}"
                );
            }
        }
        let regions: Vec<_> = cf.functions().collect();
        assert!(regions.windows(2).all(|w| w[0].2 <= w[1].1));
    }
}
