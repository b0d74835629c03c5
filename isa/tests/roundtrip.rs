//! decode(encode(x)) == x over every operation's full operand ranges, and decode on
//! arbitrary words.

use proptest::prelude::*;
use wsim_isa::{decode, encode, Instr, Op};

/// Every operation (`all_ops_listed` checks it is complete and in order).
const ALL: [Op; Op::ALL.len()] = Op::ALL;

/// The range of an operation's immediate.
#[derive(Clone, Copy, PartialEq, Debug)]
enum ImmKind {
    None,
    /// Signed 12 bits (I and S formats).
    S12,
    /// Signed 13 bits, even (branches).
    B,
    /// Upper 20 bits.
    U,
    /// Signed 21 bits, even (jal).
    J,
    /// 0..31.
    Shamt,
    /// Unsigned 12 bits (CSR number, fence fm|pred|succ).
    U12,
}

/// Which operand fields an operation uses, written independently of the crate's table.
#[derive(Clone, Copy, Debug)]
struct Shape {
    rd: u8,
    rs1: u8,
    rs2: u8,
    rs3: u8,
    imm: ImmKind,
    rm: bool,
    aqrl: bool,
}

/// Field maxima: 31 = any register, 1 = a flag bit, 0 = unused.
fn shape(op: Op) -> Shape {
    use ImmKind as K;
    use Op::*;
    let s = |rd, rs1, rs2, rs3, imm| Shape {
        rd,
        rs1,
        rs2,
        rs3,
        imm,
        rm: false,
        aqrl: false,
    };
    match op {
        Lui | Auipc => s(31, 0, 0, 0, K::U),
        Jal => s(31, 0, 0, 0, K::J),
        Jalr | Lb | Lh | Lw | Lbu | Lhu | Addi | Slti | Sltiu | Xori | Ori | Andi | Flw => {
            s(31, 31, 0, 0, K::S12)
        }
        Beq | Bne | Blt | Bge | Bltu | Bgeu => s(0, 31, 31, 0, K::B),
        Sb | Sh | Sw | Fsw => s(0, 31, 31, 0, K::S12),
        Slli | Srli | Srai => s(31, 31, 0, 0, K::Shamt),
        Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu | Mulhu
        | Div | Divu | Rem | Remu | FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS | FeqS | FltS
        | FleS | VxVoteAll | VxVoteAny | VxVoteUni | VxVoteBallot | VxShflUp | VxShflDown
        | VxShflBfly | VxShflIdx => s(31, 31, 31, 0, K::None),
        Fence => s(0, 0, 0, 0, K::U12),
        Ecall | Ebreak | Mret | Wfi | FenceI | VxWsync => s(0, 0, 0, 0, K::None),
        Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => s(31, 31, 0, 0, K::U12),
        LrW => Shape {
            aqrl: true,
            ..s(31, 31, 0, 0, K::None)
        },
        ScW | AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW | AmominW | AmomaxW | AmominuW
        | AmomaxuW => Shape {
            aqrl: true,
            ..s(31, 31, 31, 0, K::None)
        },
        FmaddS | FmsubS | FnmsubS | FnmaddS => Shape {
            rm: true,
            ..s(31, 31, 31, 31, K::None)
        },
        FaddS | FsubS | FmulS | FdivS => Shape {
            rm: true,
            ..s(31, 31, 31, 0, K::None)
        },
        FsqrtS | FcvtWS | FcvtWuS | FcvtSW | FcvtSWu => Shape {
            rm: true,
            ..s(31, 31, 0, 0, K::None)
        },
        FmvXW | FclassS | FmvWX => s(31, 31, 0, 0, K::None),
        VxTmc | VxJoin | WeaverSkip => s(0, 31, 0, 0, K::None),
        VxWspawn | VxBar => s(0, 31, 31, 0, K::None),
        VxSplit => s(31, 31, 1, 0, K::None),
        VxPred => s(1, 31, 31, 0, K::None),
        WeaverDecId | WeaverDecLoc => s(31, 0, 0, 0, K::None),
        WeaverReg => s(0, 31, 31, 31, K::None),
        AmoaddF => s(31, 31, 31, 0, K::None),
    }
}

const RMS: [u8; 6] = [0, 1, 2, 3, 4, 7];

/// Maps an arbitrary u32 into the immediate range of `kind`.
fn shape_imm(kind: ImmKind, raw: u32) -> i32 {
    match kind {
        ImmKind::None => 0,
        ImmKind::S12 => ((raw << 20) as i32) >> 20,
        ImmKind::B => ((raw << 19) as i32) >> 19 & !1,
        ImmKind::U => (raw & 0xffff_f000) as i32,
        ImmKind::J => ((raw << 11) as i32) >> 11 & !1,
        ImmKind::Shamt => (raw & 31) as i32,
        ImmKind::U12 => (raw & 0xfff) as i32,
    }
}

/// A valid instruction of `op` built from arbitrary field values.
fn build(op: Op, regs: [u8; 4], imm: u32, rm: usize, aqrl: u8) -> Instr {
    let sh = shape(op);
    let field = |max: u8, v: u8| if max == 0 { 0 } else { v & max };
    Instr {
        op,
        rd: field(sh.rd, regs[0]),
        rs1: field(sh.rs1, regs[1]),
        rs2: field(sh.rs2, regs[2]),
        rs3: field(sh.rs3, regs[3]),
        imm: shape_imm(sh.imm, imm),
        rm: if sh.rm { RMS[rm % RMS.len()] } else { 0 },
        aqrl: if sh.aqrl { aqrl & 3 } else { 0 },
    }
}

fn assert_round_trip(x: &Instr) {
    let word = encode(x);
    match decode(word) {
        Ok(d) => assert_eq!(d.instr, *x, "word {word:#010x}"),
        Err(e) => panic!("{x:?} encodes to {word:#010x}, which does not decode: {e}"),
    }
}

#[test]
fn all_ops_listed() {
    for (i, op) in ALL.iter().enumerate() {
        assert_eq!(*op as usize, i);
    }
    assert_eq!(ALL.len(), Op::AmoaddF as usize + 1);
}

/// Each register field through 0..31 with the others fixed, every rm and aqrl.
#[test]
fn round_trip_every_register_rm_aqrl() {
    for op in ALL {
        for v in 0..32u8 {
            for pos in 0..4 {
                let mut regs = [7, 13, 21, 30];
                regs[pos] = v;
                for rm in 0..RMS.len() {
                    for aqrl in 0..4 {
                        assert_round_trip(&build(op, regs, 0x555, rm, aqrl));
                    }
                }
            }
        }
    }
}

/// Every immediate of every operation: all 4096 12-bit values, all 2^20 upper values, all
/// even offsets of branches and jal.
#[test]
fn round_trip_every_immediate() {
    for op in ALL {
        let range: u32 = match shape(op).imm {
            ImmKind::None => 1,
            ImmKind::S12 | ImmKind::U12 => 1 << 12,
            ImmKind::B => 1 << 13,
            ImmKind::U => 1 << 20,
            ImmKind::J => 1 << 21,
            ImmKind::Shamt => 32,
        };
        let scale = if shape(op).imm == ImmKind::U {
            1 << 12
        } else {
            1
        };
        for raw in 0..range {
            let x = build(op, [9, 10, 11, 12], raw.wrapping_mul(scale), 5, 3);
            let word = encode(&x);
            assert_eq!(decode(word).map(|d| d.instr), Ok(x), "word {word:#010x}");
        }
    }
}

#[test]
fn reserved_rounding_modes_are_errors() {
    for op in ALL.into_iter().filter(|op| shape(*op).rm) {
        for rm in [5, 6] {
            let x = Instr {
                rm,
                ..build(op, [1, 2, 3, 4], 0, 0, 0)
            };
            assert!(decode(encode(&x)).is_err(), "{op:?} with rm {rm}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn round_trip_random(op in 0..ALL.len(), regs in any::<[u8; 4]>(), imm in any::<u32>(),
                         rm in 0..6usize, aqrl in 0..4u8) {
        let x = build(ALL[op], regs, imm, rm, aqrl);
        let word = encode(&x);
        prop_assert_eq!(decode(word).map(|d| d.instr), Ok(x));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200_000))]

    /// decode never panics, and what it accepts re-encodes to an equivalent word.
    #[test]
    fn arbitrary_words(word in any::<u32>()) {
        if let Ok(d) = decode(word) {
            let again = decode(encode(&d.instr));
            prop_assert_eq!(again.map(|a| a.instr), Ok(d.instr));
            prop_assert_eq!(d.info, wsim_isa::info(&d.instr));
        }
    }

    /// The same, concentrated on the opcodes that exist: random operand bits under every
    /// major opcode.
    #[test]
    fn arbitrary_words_in_known_opcodes(
        high in any::<u32>(),
        opcode in prop::sample::select(vec![
            0x37u32, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x0f, 0x73, 0x2f, 0x07,
            0x27, 0x43, 0x47, 0x4b, 0x4f, 0x53, 0x0b, 0x2b,
        ]),
    ) {
        let word = (high << 7) | opcode;
        if let Ok(d) = decode(word) {
            let re = encode(&d.instr);
            prop_assert_eq!(decode(re).map(|a| a.instr), Ok(d.instr));
        }
    }
}
