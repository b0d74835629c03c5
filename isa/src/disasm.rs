//! Disassembly in the syntax of LLVM 14's `llvm-objdump -d --mattr=+m,+a,+f`: ABI register
//! names, its pseudo-instruction aliases exactly where it picks them, decimal immediates,
//! and a tab between mnemonic and operands. (Where objdump prints a mnemonic with no
//! operands it leaves a trailing tab; this prints none.)

use std::fmt::Write;

use crate::{csr, Instr, Op};

/// Looks up the symbol for an address: its name and the offset of the address into it.
pub trait Symbolizer {
    fn symbolize(&self, addr: u32) -> Option<(&str, u32)>;
}

struct NoSymbols;

impl Symbolizer for NoSymbols {
    fn symbolize(&self, _addr: u32) -> Option<(&str, u32)> {
        None
    }
}

/// Disassemble in `llvm-objdump -d` syntax; branch and jump targets get `<sym+off>`.
pub fn disasm(instr: &Instr, pc: u32, symbols: &dyn Symbolizer) -> String {
    Printer { instr, pc, symbols }.print()
}

/// Disassemble without symbols.
pub fn disasm_plain(instr: &Instr, pc: u32) -> String {
    disasm(instr, pc, &NoSymbols)
}

const X_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

const F_NAMES: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

fn x(r: u8) -> &'static str {
    X_NAMES[usize::from(r & 31)]
}

fn f(r: u8) -> &'static str {
    F_NAMES[usize::from(r & 31)]
}

struct Printer<'a> {
    instr: &'a Instr,
    pc: u32,
    symbols: &'a dyn Symbolizer,
}

/// Joins a mnemonic and its operands the way objdump does.
fn ins(mnemonic: &str, operands: &str) -> String {
    if operands.is_empty() {
        mnemonic.to_string()
    } else {
        format!("{mnemonic}\t{operands}")
    }
}

impl Printer<'_> {
    fn print(&self) -> String {
        use Op::*;
        let i = self.instr;
        let (rd, rs1, rs2, rs3, imm) = (i.rd, i.rs1, i.rs2, i.rs3, i.imm);
        let r3 = |m: &str| ins(m, &format!("{}, {}, {}", x(rd), x(rs1), x(rs2)));
        let r2 = |m: &str, a: u8, b: u8| ins(m, &format!("{}, {}", x(a), x(b)));
        let ri = |m: &str| ins(m, &format!("{}, {}, {imm}", x(rd), x(rs1)));
        let load = |m: &str, dst: &str| ins(m, &format!("{dst}, {imm}({})", x(rs1)));
        let store = |m: &str, src: &str| ins(m, &format!("{src}, {imm}({})", x(rs1)));
        let branch = |m: &str| {
            match (i.op, rs1, rs2) {
                (Beq, _, 0) => ins("beqz", &format!("{}, {}", x(rs1), self.target())),
                (Bne, _, 0) => ins("bnez", &format!("{}, {}", x(rs1), self.target())),
                // With both registers x0, objdump prefers bltz for blt and blez for bge.
                (Blt, _, 0) => ins("bltz", &format!("{}, {}", x(rs1), self.target())),
                (Blt, 0, _) => ins("bgtz", &format!("{}, {}", x(rs2), self.target())),
                (Bge, 0, _) => ins("blez", &format!("{}, {}", x(rs2), self.target())),
                (Bge, _, 0) => ins("bgez", &format!("{}, {}", x(rs1), self.target())),
                _ => ins(m, &format!("{}, {}, {}", x(rs1), x(rs2), self.target())),
            }
        };
        let amo = |m: &str| {
            let m = format!("{m}{}", aqrl_suffix(i.aqrl));
            ins(&m, &format!("{}, {}, ({})", x(rd), x(rs2), x(rs1)))
        };
        let fr3 = |m: &str| {
            let ops = format!("{}, {}, {}", f(rd), f(rs1), f(rs2));
            ins(m, &with_rm(ops, i.rm))
        };
        let fr4 = |m: &str| {
            let ops = format!("{}, {}, {}, {}", f(rd), f(rs1), f(rs2), f(rs3));
            ins(m, &with_rm(ops, i.rm))
        };
        let fr2 = |m: &str, dst: &str, src: &str| ins(m, &with_rm(format!("{dst}, {src}"), i.rm));
        let fsgnj = |m: &str, alias: &str| {
            if rs1 == rs2 {
                ins(alias, &format!("{}, {}", f(rd), f(rs1)))
            } else {
                ins(m, &format!("{}, {}, {}", f(rd), f(rs1), f(rs2)))
            }
        };
        let fcmp = |m: &str| ins(m, &format!("{}, {}, {}", x(rd), f(rs1), f(rs2)));
        let upper = |m: &str| ins(m, &format!("{}, {}", x(rd), (imm as u32) >> 12));

        match i.op {
            Lui => upper("lui"),
            Auipc => upper("auipc"),
            Jal => match rd {
                0 => ins("j", &self.target()),
                1 => ins("jal", &self.target()),
                _ => ins("jal", &format!("{}, {}", x(rd), self.target())),
            },
            Jalr => match (rd, rs1, imm) {
                (0, 1, 0) => "ret".to_string(),
                (0, _, 0) => ins("jr", x(rs1)),
                (1, _, 0) => ins("jalr", x(rs1)),
                (_, _, 0) => r2("jalr", rd, rs1),
                (0, _, _) => ins("jr", &format!("{imm}({})", x(rs1))),
                (1, _, _) => ins("jalr", &format!("{imm}({})", x(rs1))),
                _ => load("jalr", x(rd)),
            },
            Beq => branch("beq"),
            Bne => branch("bne"),
            Blt => branch("blt"),
            Bge => branch("bge"),
            Bltu => branch("bltu"),
            Bgeu => branch("bgeu"),
            Lb => load("lb", x(rd)),
            Lh => load("lh", x(rd)),
            Lw => load("lw", x(rd)),
            Lbu => load("lbu", x(rd)),
            Lhu => load("lhu", x(rd)),
            Sb => store("sb", x(rs2)),
            Sh => store("sh", x(rs2)),
            Sw => store("sw", x(rs2)),
            Addi => match (rd, rs1, imm) {
                (0, 0, 0) => "nop".to_string(),
                (_, 0, _) => ins("li", &format!("{}, {imm}", x(rd))),
                (_, _, 0) => r2("mv", rd, rs1),
                _ => ri("addi"),
            },
            Slti => ri("slti"),
            Sltiu if imm == 1 => r2("seqz", rd, rs1),
            Sltiu => ri("sltiu"),
            Xori if imm == -1 => r2("not", rd, rs1),
            Xori => ri("xori"),
            Ori => ri("ori"),
            Andi => ri("andi"),
            Slli => ri("slli"),
            Srli => ri("srli"),
            Srai => ri("srai"),
            Add => r3("add"),
            Sub if rs1 == 0 => r2("neg", rd, rs2),
            Sub => r3("sub"),
            Sll => r3("sll"),
            Slt if rs2 == 0 => r2("sltz", rd, rs1),
            Slt if rs1 == 0 => r2("sgtz", rd, rs2),
            Slt => r3("slt"),
            Sltu if rs1 == 0 => r2("snez", rd, rs2),
            Sltu => r3("sltu"),
            Xor => r3("xor"),
            Srl => r3("srl"),
            Sra => r3("sra"),
            Or => r3("or"),
            And => r3("and"),
            Fence => fence(imm),
            Ecall => "ecall".to_string(),
            Ebreak => "ebreak".to_string(),
            Mret => "mret".to_string(),
            Wfi => "wfi".to_string(),
            FenceI => "fence.i".to_string(),
            Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => csr_op(i),
            Mul => r3("mul"),
            Mulh => r3("mulh"),
            Mulhsu => r3("mulhsu"),
            Mulhu => r3("mulhu"),
            Div => r3("div"),
            Divu => r3("divu"),
            Rem => r3("rem"),
            Remu => r3("remu"),
            LrW => {
                let m = format!("lr.w{}", aqrl_suffix(i.aqrl));
                ins(&m, &format!("{}, ({})", x(rd), x(rs1)))
            }
            ScW => amo("sc.w"),
            AmoswapW => amo("amoswap.w"),
            AmoaddW => amo("amoadd.w"),
            AmoxorW => amo("amoxor.w"),
            AmoandW => amo("amoand.w"),
            AmoorW => amo("amoor.w"),
            AmominW => amo("amomin.w"),
            AmomaxW => amo("amomax.w"),
            AmominuW => amo("amominu.w"),
            AmomaxuW => amo("amomaxu.w"),
            Flw => load("flw", f(rd)),
            Fsw => store("fsw", f(rs2)),
            FmaddS => fr4("fmadd.s"),
            FmsubS => fr4("fmsub.s"),
            FnmsubS => fr4("fnmsub.s"),
            FnmaddS => fr4("fnmadd.s"),
            FaddS => fr3("fadd.s"),
            FsubS => fr3("fsub.s"),
            FmulS => fr3("fmul.s"),
            FdivS => fr3("fdiv.s"),
            FsqrtS => fr2("fsqrt.s", f(rd), f(rs1)),
            FsgnjS => fsgnj("fsgnj.s", "fmv.s"),
            FsgnjnS => fsgnj("fsgnjn.s", "fneg.s"),
            FsgnjxS => fsgnj("fsgnjx.s", "fabs.s"),
            FminS => ins("fmin.s", &format!("{}, {}, {}", f(rd), f(rs1), f(rs2))),
            FmaxS => ins("fmax.s", &format!("{}, {}, {}", f(rd), f(rs1), f(rs2))),
            FcvtWS => fr2("fcvt.w.s", x(rd), f(rs1)),
            FcvtWuS => fr2("fcvt.wu.s", x(rd), f(rs1)),
            FmvXW => ins("fmv.x.w", &format!("{}, {}", x(rd), f(rs1))),
            FeqS => fcmp("feq.s"),
            FltS => fcmp("flt.s"),
            FleS => fcmp("fle.s"),
            FclassS => ins("fclass.s", &format!("{}, {}", x(rd), f(rs1))),
            FcvtSW => fr2("fcvt.s.w", f(rd), x(rs1)),
            FcvtSWu => fr2("fcvt.s.wu", f(rd), x(rs1)),
            FmvWX => ins("fmv.w.x", &format!("{}, {}", f(rd), x(rs1))),
            VxTmc => ins("vx_tmc", x(rs1)),
            VxWspawn => r2("vx_wspawn", rs1, rs2),
            VxSplit if rs2 == 0 => r2("vx_split", rd, rs1),
            VxSplit => r2("vx_split_n", rd, rs1),
            VxJoin => ins("vx_join", x(rs1)),
            VxBar => r2("vx_bar", rs1, rs2),
            VxPred if rd == 0 => r2("vx_pred", rs1, rs2),
            VxPred => r2("vx_pred_n", rs1, rs2),
            VxWsync => "vx_wsync".to_string(),
            VxVoteAll => r3("vx_vote.all"),
            VxVoteAny => r3("vx_vote.any"),
            VxVoteUni => r3("vx_vote.uni"),
            VxVoteBallot => r3("vx_vote.ballot"),
            VxShflUp => r3("vx_shfl.up"),
            VxShflDown => r3("vx_shfl.down"),
            VxShflBfly => r3("vx_shfl.bfly"),
            VxShflIdx => r3("vx_shfl.idx"),
            WeaverDecId => ins("weaver.dec_id", x(rd)),
            WeaverDecLoc => ins("weaver.dec_loc", x(rd)),
            WeaverReg => ins("weaver.reg", &format!("{}, {}, {}", x(rs1), x(rs2), x(rs3))),
            WeaverSkip => ins("weaver.skip", x(rs1)),
            AmoaddF => ins("amoadd.f", &format!("{}, {}, ({})", f(rd), f(rs2), x(rs1))),
        }
    }

    /// A branch or jump target: `0x80000040 <loop+0x8>`.
    fn target(&self) -> String {
        let addr = self.pc.wrapping_add(self.instr.imm as u32);
        let mut s = format!("{addr:#x}");
        match self.symbols.symbolize(addr) {
            Some((name, 0)) => {
                let _ = write!(s, " <{name}>");
            }
            Some((name, off)) => {
                let _ = write!(s, " <{name}+{off:#x}>");
            }
            None => {}
        }
        s
    }
}

fn aqrl_suffix(aqrl: u8) -> &'static str {
    match aqrl & 3 {
        0 => "",
        1 => ".rl",
        2 => ".aq",
        _ => ".aqrl",
    }
}

/// Appends the rounding mode unless it is dynamic (objdump's default).
fn with_rm(mut ops: String, rm: u8) -> String {
    let name = match rm {
        0 => "rne",
        1 => "rtz",
        2 => "rdn",
        3 => "rup",
        4 => "rmm",
        _ => return ops,
    };
    ops.push_str(", ");
    ops.push_str(name);
    ops
}

fn fence(imm: i32) -> String {
    let (fm, pred, succ) = ((imm >> 8) & 15, (imm >> 4) & 15, imm & 15);
    if imm == 0x833 {
        return "fence.tso".to_string();
    }
    if fm == 0 && pred == 15 && succ == 15 {
        return "fence".to_string();
    }
    ins(
        "fence",
        &format!("{}, {}", fence_set(pred), fence_set(succ)),
    )
}

fn fence_set(bits: i32) -> String {
    if bits == 0 {
        return "unknown".to_string();
    }
    "iorw"
        .chars()
        .enumerate()
        .filter(|(k, _)| bits & (8 >> k) != 0)
        .map(|(_, c)| c)
        .collect()
}

fn csr_op(i: &Instr) -> String {
    use Op::*;
    let num = (i.imm & 0xfff) as u16;
    let name = csr::name(num).map_or_else(|| num.to_string(), str::to_string);
    let (rd, rs1) = (i.rd, i.rs1);
    let fp_name = match num {
        csr::FCSR => Some("csr"),
        csr::FRM => Some("rm"),
        csr::FFLAGS => Some("flags"),
        _ => None,
    };
    let counter = match num {
        csr::CYCLE => Some("rdcycle"),
        csr::TIME => Some("rdtime"),
        csr::INSTRET => Some("rdinstret"),
        csr::CYCLEH => Some("rdcycleh"),
        csr::TIMEH => Some("rdtimeh"),
        csr::INSTRETH => Some("rdinstreth"),
        _ => None,
    };
    // `unimp` is its own instruction in LLVM: csrrw zero, cycle, zero.
    if i.op == Csrrw && rd == 0 && rs1 == 0 && num == csr::CYCLE {
        return "unimp".to_string();
    }
    if let Some(fp) = fp_name {
        match (i.op, rd, rs1) {
            (Csrrs, _, 0) => return ins(&format!("fr{fp}"), x(rd)),
            (Csrrw, 0, _) => return ins(&format!("fs{fp}"), x(rs1)),
            (Csrrw, _, _) => return ins(&format!("fs{fp}"), &format!("{}, {}", x(rd), x(rs1))),
            // There is no fscsri.
            (Csrrwi, 0, _) if num != csr::FCSR => {
                return ins(&format!("fs{fp}i"), &rs1.to_string())
            }
            (Csrrwi, _, _) if num != csr::FCSR => {
                return ins(&format!("fs{fp}i"), &format!("{}, {rs1}", x(rd)))
            }
            _ => {}
        }
    }
    match (i.op, rd, rs1) {
        (Csrrs, _, 0) => match counter {
            Some(m) => ins(m, x(rd)),
            None => ins("csrr", &format!("{}, {name}", x(rd))),
        },
        (Csrrw, 0, _) => ins("csrw", &format!("{name}, {}", x(rs1))),
        (Csrrs, 0, _) => ins("csrs", &format!("{name}, {}", x(rs1))),
        (Csrrc, 0, _) => ins("csrc", &format!("{name}, {}", x(rs1))),
        (Csrrwi, 0, _) => ins("csrwi", &format!("{name}, {rs1}")),
        (Csrrsi, 0, _) => ins("csrsi", &format!("{name}, {rs1}")),
        (Csrrci, 0, _) => ins("csrci", &format!("{name}, {rs1}")),
        (Csrrw | Csrrs | Csrrc, _, _) => {
            let m = mnemonic_csr(i.op);
            ins(m, &format!("{}, {name}, {}", x(rd), x(rs1)))
        }
        _ => ins(mnemonic_csr(i.op), &format!("{}, {name}, {rs1}", x(rd))),
    }
}

fn mnemonic_csr(op: Op) -> &'static str {
    match op {
        Op::Csrrw => "csrrw",
        Op::Csrrs => "csrrs",
        Op::Csrrc => "csrrc",
        Op::Csrrwi => "csrrwi",
        Op::Csrrsi => "csrrsi",
        _ => "csrrci",
    }
}
