//! Known standard words: decoded operands, static facts, and the exact text LLVM 14's
//! `llvm-objdump -d --mattr=+m,+a,+f` printed for them (recorded from
//! programs/isa_cover/isa_cover.S; branch targets without the `<symbol>` part).

use wsim_isa::{
    decode, disasm, disasm_plain, Flow, FpuClass, Instr, LsuKind, MemAccess, Op, RegFile, RegRef,
    SfuKind, Symbolizer, Unit,
};

fn int(num: u8) -> Option<RegRef> {
    Some(RegRef {
        file: RegFile::Int,
        num,
    })
}

fn float(num: u8) -> Option<RegRef> {
    Some(RegRef {
        file: RegFile::Float,
        num,
    })
}

#[test]
fn addi() {
    // addi a0, a0, 1
    let d = decode(0x0015_0513).unwrap();
    assert_eq!(
        d.instr,
        Instr {
            rd: 10,
            rs1: 10,
            imm: 1,
            ..Instr::new(Op::Addi)
        }
    );
    assert_eq!(d.info.unit, Unit::Alu);
    assert_eq!(d.info.srcs, [int(10), None, None]);
    assert_eq!(d.info.dst, int(10));
    assert_eq!(d.info.flow, Flow::None);
    assert_eq!(d.info.mem, None);
}

#[test]
fn x0_is_no_dependency() {
    // li zero, 1 (addi x0, x0, 1)
    let d = decode(0x0010_0013).unwrap();
    assert_eq!(d.info.srcs, [None; 3]);
    assert_eq!(d.info.dst, None);
}

#[test]
fn negative_immediates() {
    // sw a0, -4(sp)
    let d = decode(0xfea1_2e23).unwrap();
    assert_eq!(
        d.instr,
        Instr {
            rs1: 2,
            rs2: 10,
            imm: -4,
            ..Instr::new(Op::Sw)
        }
    );
    assert_eq!(d.info.unit, Unit::Lsu(LsuKind::Store));
    assert_eq!(d.info.srcs, [int(2), int(10), None]);
    assert_eq!(
        d.info.mem,
        Some(MemAccess {
            width: 4,
            signed: false
        })
    );
    // beq a0, a1, -8
    let d = decode(0xfeb5_0ce3).unwrap();
    assert_eq!(d.instr.imm, -8);
    assert_eq!(d.info.flow, Flow::Branch);
    // jal -40
    let d = decode(0xfd9f_f0ef).unwrap();
    assert_eq!((d.instr.op, d.instr.rd, d.instr.imm), (Op::Jal, 1, -40));
    assert_eq!(d.info.flow, Flow::Jump);
    // lui a0, 0x12345: imm holds the shifted value
    assert_eq!(decode(0x1234_5537).unwrap().instr.imm, 0x1234_5000);
}

#[test]
fn loads_sign() {
    for (word, width, signed) in [
        (0x0005_8503, 1, true),  // lb a0, 0(a1)
        (0x0005_c503, 1, false), // lbu
        (0x0005_9503, 2, true),  // lh
        (0x0005_d503, 2, false), // lhu
        (0x0005_a503, 4, false), // lw
    ] {
        let d = decode(word).unwrap();
        assert_eq!(d.info.mem, Some(MemAccess { width, signed }), "{word:#x}");
        assert_eq!(d.info.unit, Unit::Lsu(LsuKind::Load));
    }
}

#[test]
fn float_register_files() {
    // flw fa0, 8(sp): rs1 Int, rd Float
    let d = decode(0x0081_2507).unwrap();
    assert_eq!((d.info.srcs[0], d.info.dst), (int(2), float(10)));
    assert_eq!(
        d.info.mem,
        Some(MemAccess {
            width: 4,
            signed: false
        })
    );
    // fsw fa0, 8(sp): rs2 Float
    let d = decode(0x00a1_2427).unwrap();
    assert_eq!(d.info.srcs, [int(2), float(10), None]);
    // fcvt.w.s a0, fa0, rtz
    let d = decode(0xc005_1553).unwrap();
    assert_eq!(
        (d.instr.rm, d.info.srcs[0], d.info.dst),
        (1, float(10), int(10))
    );
    assert_eq!(d.info.unit, Unit::Fpu(FpuClass::Cvt));
    // fcvt.s.w ft0, zero: x0 source is no dependency, f0 destination is real
    let d = decode(0xd000_0053).unwrap();
    assert_eq!((d.info.srcs[0], d.info.dst), (None, float(0)));
    // fmv.w.x fa0, a0 and fmv.x.w a0, fa0
    let d = decode(0xf005_0553).unwrap();
    assert_eq!((d.info.srcs[0], d.info.dst), (int(10), float(10)));
    assert_eq!(d.info.unit, Unit::Fpu(FpuClass::Move));
    let d = decode(0xe005_0553).unwrap();
    assert_eq!((d.info.srcs[0], d.info.dst), (float(10), int(10)));
    // feq.s a0, fa1, fa2 (Compare, Int destination); fclass.s a0, fa0 (Move)
    let d = decode(0xa0c5_a553).unwrap();
    assert_eq!(
        (d.info.unit, d.info.dst),
        (Unit::Fpu(FpuClass::Compare), int(10))
    );
    let d = decode(0xe005_1553).unwrap();
    assert_eq!(
        (d.info.unit, d.info.dst),
        (Unit::Fpu(FpuClass::Move), int(10))
    );
    // fmadd.s fa0, fa1, fa2, fa3, rmm: three float sources
    let d = decode(0x68c5_c543).unwrap();
    assert_eq!(d.info.srcs, [float(11), float(12), float(13)]);
    assert_eq!((d.instr.rm, d.info.unit), (4, Unit::Fpu(FpuClass::AddMul)));
    // fdiv.s, fsqrt.s
    assert_eq!(
        decode(0x18c5_f553).unwrap().info.unit,
        Unit::Fpu(FpuClass::Div)
    );
    assert_eq!(
        decode(0x5805_f553).unwrap().info.unit,
        Unit::Fpu(FpuClass::Sqrt)
    );
}

#[test]
fn units_and_flows() {
    let cases = [
        (0x02c5_8533, Unit::Mul, Flow::None), // mul a0, a1, a2
        (0x02c5_c533, Unit::Div, Flow::None), // div
        (0x02c5_e533, Unit::Div, Flow::None), // rem
        (0x0000_0067 | 10 << 15, Unit::Alu, Flow::IndirectJump), // jr a0
        (0x0ff0_000f, Unit::Lsu(LsuKind::Fence), Flow::None), // fence
        (0x0000_100f, Unit::Lsu(LsuKind::Fence), Flow::None), // fence.i
        (0x0000_0073, Unit::Sfu(SfuKind::System), Flow::System), // ecall
        (0x0010_0073, Unit::Sfu(SfuKind::System), Flow::System), // ebreak
        (0x3020_0073, Unit::Sfu(SfuKind::System), Flow::System), // mret
        (0x1050_0073, Unit::Sfu(SfuKind::System), Flow::System), // wfi
        (0xc000_2573, Unit::Sfu(SfuKind::Csr), Flow::None), // rdcycle a0
        (0x06b6_252f, Unit::Lsu(LsuKind::Atomic), Flow::None), // amoadd.w.aqrl
        (
            0x0005_000b,
            Unit::Sfu(SfuKind::WarpControl),
            Flow::WarpControl,
        ), // vx_tmc a0
        (0x02c5_850b, Unit::Sfu(SfuKind::WarpLevel), Flow::None), // vx_vote.all
        (0x60b5_002b, Unit::Sfu(SfuKind::Weaver), Flow::None), // weaver.reg
        (0x0400_050b, Unit::Sfu(SfuKind::Weaver), Flow::WarpControl), // weaver.dec_id a0
    ];
    for (word, unit, flow) in cases {
        let d = decode(word).unwrap();
        assert_eq!((d.info.unit, d.info.flow), (unit, flow), "{word:#010x}");
    }
}

#[test]
fn csr_fields() {
    // csrrwi a0, mstatus, 1: CSR number in imm, zimm in rs1, no register source
    let d = decode(0x3000_d573).unwrap();
    assert_eq!(
        (d.instr.op, d.instr.imm, d.instr.rs1),
        (Op::Csrrwi, 0x300, 1)
    );
    assert_eq!(d.info.srcs, [None; 3]);
    // csrrw a1, fcsr, a0
    let d = decode(0x0035_15f3).unwrap();
    assert_eq!(
        (d.instr.imm, d.info.srcs[0], d.info.dst),
        (3, int(10), int(11))
    );
    // CSR numbers are unsigned: csrr a0, 0xfff
    assert_eq!(decode(0xfff0_2573).unwrap().instr.imm, 0xfff);
}

#[test]
fn atomics() {
    // amoadd.w.aqrl a0, a1, (a2)
    let d = decode(0x06b6_252f).unwrap();
    assert_eq!((d.instr.aqrl, d.instr.rs1, d.instr.rs2), (3, 12, 11));
    assert_eq!(
        d.info.mem,
        Some(MemAccess {
            width: 4,
            signed: false
        })
    );
    // lr.w.aq a0, (a1): only rs1 is a source
    let d = decode(0x1405_a52f).unwrap();
    assert_eq!((d.instr.op, d.instr.aqrl), (Op::LrW, 2));
    assert_eq!(d.info.srcs, [int(11), None, None]);
}

#[test]
fn invalid_words() {
    for word in [
        0x0000_0000, // all zeros (a compressed illegal instruction)
        0xffff_ffff, // longer-than-32-bit prefix
        0x0000_0001, // compressed
        0x0030_0073, // SYSTEM funct3 0, unknown imm
        0x1020_0073, // sret (no supervisor mode)
        0x0000_4073, // SYSTEM funct3 4
        0x0000_200f, // MISC-MEM funct3 2
        0x0000_2067, // jalr with funct3 != 0
        0x0000_2063, // branch funct3 2
        0x0000_3003, // ld (RV64)
        0x0000_3023, // sd (RV64)
        0x0200_1013, // slli with shamt[5] set (RV64)
        0x4000_1013, // slli with funct7 0x20
        0x4000_1033, // sll with funct7 0x20
        0x0600_0033, // funct7 3
        0x0000_302f, // amo.d
        0x1040_252f, // lr.w with rs2 != 0
        0x2800_252f, // funct5 5
        0x0000_5053, // fadd.s rm 5
        0x0000_6053, // fadd.s rm 6
        0x0200_0053, // fadd.d
        0x0200_0043, // fmadd.d (funct2 1)
        0x5810_0053, // fsqrt.s with rs2 != 0
        0xc020_0053, // fcvt.l.s (RV64)
        0xe000_2053, // fmv.x.w funct3 2
        0xa000_3053, // feq funct3 3
        0x2000_3053, // fsgnj funct3 3
        0x0000_3007, // fld
        0x0000_0057, // OP-V
    ] {
        assert!(
            decode(word).is_err(),
            "{word:#010x} decoded as {:?}",
            decode(word)
        );
    }
}

/// Compares against what objdump printed.
#[test]
fn objdump_text() {
    let mut checked = 0;
    for line in VECTORS.lines() {
        let mut parts = line.splitn(3, ' ');
        let (Some(pc), Some(word), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("bad vector line {line:?}");
        };
        let pc = u32::from_str_radix(pc, 16).unwrap();
        let word = u32::from_str_radix(word, 16).unwrap();
        let d = decode(word).unwrap_or_else(|e| panic!("{e} (objdump: {text})"));
        assert_eq!(
            disasm_plain(&d.instr, pc),
            text,
            "word {word:#010x} at {pc:#x}"
        );
        checked += 1;
    }
    assert!(checked > 400);
}

struct OneSymbol;

impl Symbolizer for OneSymbol {
    fn symbolize(&self, addr: u32) -> Option<(&str, u32)> {
        addr.checked_sub(0x8000_0000).map(|off| ("_start", off))
    }
}

#[test]
fn symbolized_targets() {
    // beq a0, a1, -8 at 0x80000008
    let d = decode(0xfeb5_0ce3).unwrap();
    assert_eq!(
        disasm(&d.instr, 0x8000_0008, &OneSymbol),
        "beq\ta0, a1, 0x80000000 <_start>"
    );
    assert_eq!(
        disasm(&d.instr, 0x8000_0048, &OneSymbol),
        "beq\ta0, a1, 0x80000040 <_start+0x40>"
    );
    assert_eq!(disasm(&d.instr, 0x48, &OneSymbol), "beq\ta0, a1, 0x40");
}

const VECTORS: &str = "\
80000000 00000537 lui\ta0, 0
80000004 ffffffb7 lui\tt6, 1048575
80000008 12345037 lui\tzero, 74565
8000000c 80000597 auipc\ta1, 524288
80000010 00001417 auipc\ts0, 1
80000014 004000ef jal\t0x80000018
80000018 0040006f j\t0x8000001c
8000001c 004002ef jal\tt0, 0x80000020
80000020 75000def jal\ts11, 0x80000770
80000024 00008067 ret
80000028 00050067 jr\ta0
8000002c 000500e7 jalr\ta0
80000030 00050367 jalr\tt1, a0
80000034 01058067 jr\t16(a1)
80000038 ff0580e7 jalr\t-16(a1)
8000003c 7ff58567 jalr\ta0, 2047(a1)
80000040 80000567 jalr\ta0, -2048(zero)
80000044 72b50663 beq\ta0, a1, 0x80000770
80000048 72050463 beqz\ta0, 0x80000770
8000004c 72b00263 beq\tzero, a1, 0x80000770
80000050 72000063 beqz\tzero, 0x80000770
80000054 07bf8463 beq\tt6, s11, 0x800000bc
80000058 70b51c63 bne\ta0, a1, 0x80000770
8000005c 70051a63 bnez\ta0, 0x80000770
80000060 70b01863 bne\tzero, a1, 0x80000770
80000064 70001663 bnez\tzero, 0x80000770
80000068 05bf9a63 bne\tt6, s11, 0x800000bc
8000006c 70b54263 blt\ta0, a1, 0x80000770
80000070 70054063 bltz\ta0, 0x80000770
80000074 6eb04e63 bgtz\ta1, 0x80000770
80000078 6e004c63 bltz\tzero, 0x80000770
8000007c 05bfc063 blt\tt6, s11, 0x800000bc
80000080 6eb55863 bge\ta0, a1, 0x80000770
80000084 6e055663 bgez\ta0, 0x80000770
80000088 6eb05463 blez\ta1, 0x80000770
8000008c 6e005263 blez\tzero, 0x80000770
80000090 03bfd663 bge\tt6, s11, 0x800000bc
80000094 6cb56e63 bltu\ta0, a1, 0x80000770
80000098 6c056c63 bltu\ta0, zero, 0x80000770
8000009c 6cb06a63 bltu\tzero, a1, 0x80000770
800000a0 6c006863 bltu\tzero, zero, 0x80000770
800000a4 01bfec63 bltu\tt6, s11, 0x800000bc
800000a8 6cb57463 bgeu\ta0, a1, 0x80000770
800000ac 6c057263 bgeu\ta0, zero, 0x80000770
800000b0 6cb07063 bgeu\tzero, a1, 0x80000770
800000b4 6a007e63 bgeu\tzero, zero, 0x80000770
800000b8 01bff263 bgeu\tt6, s11, 0x800000bc
800000bc f4b502e3 beq\ta0, a1, 0x80000000
800000c0 ff249ee3 bne\ts1, s2, 0x800000bc
800000c4 00058503 lb\ta0, 0(a1)
800000c8 80010e03 lb\tt3, -2048(sp)
800000cc 7ff00003 lb\tzero, 2047(zero)
800000d0 00059503 lh\ta0, 0(a1)
800000d4 80011e03 lh\tt3, -2048(sp)
800000d8 7ff01003 lh\tzero, 2047(zero)
800000dc 0005a503 lw\ta0, 0(a1)
800000e0 80012e03 lw\tt3, -2048(sp)
800000e4 7ff02003 lw\tzero, 2047(zero)
800000e8 0005c503 lbu\ta0, 0(a1)
800000ec 80014e03 lbu\tt3, -2048(sp)
800000f0 7ff04003 lbu\tzero, 2047(zero)
800000f4 0005d503 lhu\ta0, 0(a1)
800000f8 80015e03 lhu\tt3, -2048(sp)
800000fc 7ff05003 lhu\tzero, 2047(zero)
80000100 00a58023 sb\ta0, 0(a1)
80000104 81c10023 sb\tt3, -2048(sp)
80000108 7e000fa3 sb\tzero, 2047(zero)
8000010c 00a59023 sh\ta0, 0(a1)
80000110 81c11023 sh\tt3, -2048(sp)
80000114 7e001fa3 sh\tzero, 2047(zero)
80000118 00a5a023 sw\ta0, 0(a1)
8000011c 81c12023 sw\tt3, -2048(sp)
80000120 7e002fa3 sw\tzero, 2047(zero)
80000124 00000013 nop
80000128 00000513 li\ta0, 0
8000012c fff00513 li\ta0, -1
80000130 00100013 li\tzero, 1
80000134 00058513 mv\ta0, a1
80000138 7ff58513 addi\ta0, a1, 2047
8000013c 80058513 addi\ta0, a1, -2048
80000140 0005a513 slti\ta0, a1, 0
80000144 0015a513 slti\ta0, a1, 1
80000148 fff5a513 slti\ta0, a1, -1
8000014c 7ff02d13 slti\ts10, zero, 2047
80000150 800f2e93 slti\tt4, t5, -2048
80000154 0005b513 sltiu\ta0, a1, 0
80000158 0015b513 seqz\ta0, a1
8000015c fff5b513 sltiu\ta0, a1, -1
80000160 7ff03d13 sltiu\ts10, zero, 2047
80000164 800f3e93 sltiu\tt4, t5, -2048
80000168 0005c513 xori\ta0, a1, 0
8000016c 0015c513 xori\ta0, a1, 1
80000170 fff5c513 not\ta0, a1
80000174 7ff04d13 xori\ts10, zero, 2047
80000178 800f4e93 xori\tt4, t5, -2048
8000017c 0005e513 ori\ta0, a1, 0
80000180 0015e513 ori\ta0, a1, 1
80000184 fff5e513 ori\ta0, a1, -1
80000188 7ff06d13 ori\ts10, zero, 2047
8000018c 800f6e93 ori\tt4, t5, -2048
80000190 0005f513 andi\ta0, a1, 0
80000194 0015f513 andi\ta0, a1, 1
80000198 fff5f513 andi\ta0, a1, -1
8000019c 7ff07d13 andi\ts10, zero, 2047
800001a0 800f7e93 andi\tt4, t5, -2048
800001a4 00059513 slli\ta0, a1, 0
800001a8 00159513 slli\ta0, a1, 1
800001ac 01fd9f93 slli\tt6, s11, 31
800001b0 0005d513 srli\ta0, a1, 0
800001b4 0015d513 srli\ta0, a1, 1
800001b8 01fddf93 srli\tt6, s11, 31
800001bc 4005d513 srai\ta0, a1, 0
800001c0 4015d513 srai\ta0, a1, 1
800001c4 41fddf93 srai\tt6, s11, 31
800001c8 00c58533 add\ta0, a1, a2
800001cc 00c00533 add\ta0, zero, a2
800001d0 00058533 add\ta0, a1, zero
800001d4 00000033 add\tzero, zero, zero
800001d8 01ff0933 add\ts2, t5, t6
800001dc 40c58533 sub\ta0, a1, a2
800001e0 40c00533 neg\ta0, a2
800001e4 40058533 sub\ta0, a1, zero
800001e8 40000033 neg\tzero, zero
800001ec 41ff0933 sub\ts2, t5, t6
800001f0 00c59533 sll\ta0, a1, a2
800001f4 00c01533 sll\ta0, zero, a2
800001f8 00059533 sll\ta0, a1, zero
800001fc 00001033 sll\tzero, zero, zero
80000200 01ff1933 sll\ts2, t5, t6
80000204 00c5a533 slt\ta0, a1, a2
80000208 00c02533 sgtz\ta0, a2
8000020c 0005a533 sltz\ta0, a1
80000210 00002033 sltz\tzero, zero
80000214 01ff2933 slt\ts2, t5, t6
80000218 00c5b533 sltu\ta0, a1, a2
8000021c 00c03533 snez\ta0, a2
80000220 0005b533 sltu\ta0, a1, zero
80000224 00003033 snez\tzero, zero
80000228 01ff3933 sltu\ts2, t5, t6
8000022c 00c5c533 xor\ta0, a1, a2
80000230 00c04533 xor\ta0, zero, a2
80000234 0005c533 xor\ta0, a1, zero
80000238 00004033 xor\tzero, zero, zero
8000023c 01ff4933 xor\ts2, t5, t6
80000240 00c5d533 srl\ta0, a1, a2
80000244 00c05533 srl\ta0, zero, a2
80000248 0005d533 srl\ta0, a1, zero
8000024c 00005033 srl\tzero, zero, zero
80000250 01ff5933 srl\ts2, t5, t6
80000254 40c5d533 sra\ta0, a1, a2
80000258 40c05533 sra\ta0, zero, a2
8000025c 4005d533 sra\ta0, a1, zero
80000260 40005033 sra\tzero, zero, zero
80000264 41ff5933 sra\ts2, t5, t6
80000268 00c5e533 or\ta0, a1, a2
8000026c 00c06533 or\ta0, zero, a2
80000270 0005e533 or\ta0, a1, zero
80000274 00006033 or\tzero, zero, zero
80000278 01ff6933 or\ts2, t5, t6
8000027c 00c5f533 and\ta0, a1, a2
80000280 00c07533 and\ta0, zero, a2
80000284 0005f533 and\ta0, a1, zero
80000288 00007033 and\tzero, zero, zero
8000028c 01ff7933 and\ts2, t5, t6
80000290 0ff0000f fence
80000294 0ff0000f fence
80000298 0330000f fence\trw, rw
8000029c 0210000f fence\tr, w
800002a0 0120000f fence\tw, r
800002a4 0840000f fence\ti, o
800002a8 0c30000f fence\tio, rw
800002ac 0e50000f fence\tior, ow
800002b0 8330000f fence.tso
800002b4 0000100f fence.i
800002b8 02c58533 mul\ta0, a1, a2
800002bc 028f8033 mul\tzero, t6, s0
800002c0 02c59533 mulh\ta0, a1, a2
800002c4 028f9033 mulh\tzero, t6, s0
800002c8 02c5a533 mulhsu\ta0, a1, a2
800002cc 028fa033 mulhsu\tzero, t6, s0
800002d0 02c5b533 mulhu\ta0, a1, a2
800002d4 028fb033 mulhu\tzero, t6, s0
800002d8 02c5c533 div\ta0, a1, a2
800002dc 028fc033 div\tzero, t6, s0
800002e0 02c5d533 divu\ta0, a1, a2
800002e4 028fd033 divu\tzero, t6, s0
800002e8 02c5e533 rem\ta0, a1, a2
800002ec 028fe033 rem\tzero, t6, s0
800002f0 02c5f533 remu\ta0, a1, a2
800002f4 028ff033 remu\tzero, t6, s0
800002f8 1005a52f lr.w\ta0, (a1)
800002fc 18b6252f sc.w\ta0, a1, (a2)
80000300 08b6252f amoswap.w\ta0, a1, (a2)
80000304 00b6252f amoadd.w\ta0, a1, (a2)
80000308 20b6252f amoxor.w\ta0, a1, (a2)
8000030c 60b6252f amoand.w\ta0, a1, (a2)
80000310 40b6252f amoor.w\ta0, a1, (a2)
80000314 80b6252f amomin.w\ta0, a1, (a2)
80000318 a0b6252f amomax.w\ta0, a1, (a2)
8000031c c0b6252f amominu.w\ta0, a1, (a2)
80000320 e0b6252f amomaxu.w\ta0, a1, (a2)
80000324 1405a52f lr.w.aq\ta0, (a1)
80000328 1cb6252f sc.w.aq\ta0, a1, (a2)
8000032c 0cb6252f amoswap.w.aq\ta0, a1, (a2)
80000330 04b6252f amoadd.w.aq\ta0, a1, (a2)
80000334 24b6252f amoxor.w.aq\ta0, a1, (a2)
80000338 64b6252f amoand.w.aq\ta0, a1, (a2)
8000033c 44b6252f amoor.w.aq\ta0, a1, (a2)
80000340 84b6252f amomin.w.aq\ta0, a1, (a2)
80000344 a4b6252f amomax.w.aq\ta0, a1, (a2)
80000348 c4b6252f amominu.w.aq\ta0, a1, (a2)
8000034c e4b6252f amomaxu.w.aq\ta0, a1, (a2)
80000350 1205a52f lr.w.rl\ta0, (a1)
80000354 1ab6252f sc.w.rl\ta0, a1, (a2)
80000358 0ab6252f amoswap.w.rl\ta0, a1, (a2)
8000035c 02b6252f amoadd.w.rl\ta0, a1, (a2)
80000360 22b6252f amoxor.w.rl\ta0, a1, (a2)
80000364 62b6252f amoand.w.rl\ta0, a1, (a2)
80000368 42b6252f amoor.w.rl\ta0, a1, (a2)
8000036c 82b6252f amomin.w.rl\ta0, a1, (a2)
80000370 a2b6252f amomax.w.rl\ta0, a1, (a2)
80000374 c2b6252f amominu.w.rl\ta0, a1, (a2)
80000378 e2b6252f amomaxu.w.rl\ta0, a1, (a2)
8000037c 1605a52f lr.w.aqrl\ta0, (a1)
80000380 1eb6252f sc.w.aqrl\ta0, a1, (a2)
80000384 0eb6252f amoswap.w.aqrl\ta0, a1, (a2)
80000388 06b6252f amoadd.w.aqrl\ta0, a1, (a2)
8000038c 26b6252f amoxor.w.aqrl\ta0, a1, (a2)
80000390 66b6252f amoand.w.aqrl\ta0, a1, (a2)
80000394 46b6252f amoor.w.aqrl\ta0, a1, (a2)
80000398 86b6252f amomin.w.aqrl\ta0, a1, (a2)
8000039c a6b6252f amomax.w.aqrl\ta0, a1, (a2)
800003a0 c6b6252f amominu.w.aqrl\ta0, a1, (a2)
800003a4 e6b6252f amomaxu.w.aqrl\ta0, a1, (a2)
800003a8 0001202f amoadd.w\tzero, zero, (sp)
800003ac 0005a507 flw\tfa0, 0(a1)
800003b0 80012f87 flw\tft11, -2048(sp)
800003b4 00a5a027 fsw\tfa0, 0(a1)
800003b8 7fb02fa7 fsw\tfs11, 2047(zero)
800003bc 68c58543 fmadd.s\tfa0, fa1, fa2, fa3, rne
800003c0 18208047 fmsub.s\tft0, ft1, ft2, ft3, rne
800003c4 9924844b fnmsub.s\tfs0, fs1, fs2, fs3, rne
800003c8 f9ee8e4f fnmadd.s\tft8, ft9, ft10, ft11, rne
800003cc 00c58553 fadd.s\tfa0, fa1, fa2, rne
800003d0 08c58553 fsub.s\tfa0, fa1, fa2, rne
800003d4 10c58553 fmul.s\tfa0, fa1, fa2, rne
800003d8 18c58553 fdiv.s\tfa0, fa1, fa2, rne
800003dc 58058553 fsqrt.s\tfa0, fa1, rne
800003e0 c0050553 fcvt.w.s\ta0, fa0, rne
800003e4 c0150553 fcvt.wu.s\ta0, fa0, rne
800003e8 d0050553 fcvt.s.w\tfa0, a0, rne
800003ec d0150553 fcvt.s.wu\tfa0, a0, rne
800003f0 68c59543 fmadd.s\tfa0, fa1, fa2, fa3, rtz
800003f4 18209047 fmsub.s\tft0, ft1, ft2, ft3, rtz
800003f8 9924944b fnmsub.s\tfs0, fs1, fs2, fs3, rtz
800003fc f9ee9e4f fnmadd.s\tft8, ft9, ft10, ft11, rtz
80000400 00c59553 fadd.s\tfa0, fa1, fa2, rtz
80000404 08c59553 fsub.s\tfa0, fa1, fa2, rtz
80000408 10c59553 fmul.s\tfa0, fa1, fa2, rtz
8000040c 18c59553 fdiv.s\tfa0, fa1, fa2, rtz
80000410 58059553 fsqrt.s\tfa0, fa1, rtz
80000414 c0051553 fcvt.w.s\ta0, fa0, rtz
80000418 c0151553 fcvt.wu.s\ta0, fa0, rtz
8000041c d0051553 fcvt.s.w\tfa0, a0, rtz
80000420 d0151553 fcvt.s.wu\tfa0, a0, rtz
80000424 68c5a543 fmadd.s\tfa0, fa1, fa2, fa3, rdn
80000428 1820a047 fmsub.s\tft0, ft1, ft2, ft3, rdn
8000042c 9924a44b fnmsub.s\tfs0, fs1, fs2, fs3, rdn
80000430 f9eeae4f fnmadd.s\tft8, ft9, ft10, ft11, rdn
80000434 00c5a553 fadd.s\tfa0, fa1, fa2, rdn
80000438 08c5a553 fsub.s\tfa0, fa1, fa2, rdn
8000043c 10c5a553 fmul.s\tfa0, fa1, fa2, rdn
80000440 18c5a553 fdiv.s\tfa0, fa1, fa2, rdn
80000444 5805a553 fsqrt.s\tfa0, fa1, rdn
80000448 c0052553 fcvt.w.s\ta0, fa0, rdn
8000044c c0152553 fcvt.wu.s\ta0, fa0, rdn
80000450 d0052553 fcvt.s.w\tfa0, a0, rdn
80000454 d0152553 fcvt.s.wu\tfa0, a0, rdn
80000458 68c5b543 fmadd.s\tfa0, fa1, fa2, fa3, rup
8000045c 1820b047 fmsub.s\tft0, ft1, ft2, ft3, rup
80000460 9924b44b fnmsub.s\tfs0, fs1, fs2, fs3, rup
80000464 f9eebe4f fnmadd.s\tft8, ft9, ft10, ft11, rup
80000468 00c5b553 fadd.s\tfa0, fa1, fa2, rup
8000046c 08c5b553 fsub.s\tfa0, fa1, fa2, rup
80000470 10c5b553 fmul.s\tfa0, fa1, fa2, rup
80000474 18c5b553 fdiv.s\tfa0, fa1, fa2, rup
80000478 5805b553 fsqrt.s\tfa0, fa1, rup
8000047c c0053553 fcvt.w.s\ta0, fa0, rup
80000480 c0153553 fcvt.wu.s\ta0, fa0, rup
80000484 d0053553 fcvt.s.w\tfa0, a0, rup
80000488 d0153553 fcvt.s.wu\tfa0, a0, rup
8000048c 68c5c543 fmadd.s\tfa0, fa1, fa2, fa3, rmm
80000490 1820c047 fmsub.s\tft0, ft1, ft2, ft3, rmm
80000494 9924c44b fnmsub.s\tfs0, fs1, fs2, fs3, rmm
80000498 f9eece4f fnmadd.s\tft8, ft9, ft10, ft11, rmm
8000049c 00c5c553 fadd.s\tfa0, fa1, fa2, rmm
800004a0 08c5c553 fsub.s\tfa0, fa1, fa2, rmm
800004a4 10c5c553 fmul.s\tfa0, fa1, fa2, rmm
800004a8 18c5c553 fdiv.s\tfa0, fa1, fa2, rmm
800004ac 5805c553 fsqrt.s\tfa0, fa1, rmm
800004b0 c0054553 fcvt.w.s\ta0, fa0, rmm
800004b4 c0154553 fcvt.wu.s\ta0, fa0, rmm
800004b8 d0054553 fcvt.s.w\tfa0, a0, rmm
800004bc d0154553 fcvt.s.wu\tfa0, a0, rmm
800004c0 68c5f543 fmadd.s\tfa0, fa1, fa2, fa3
800004c4 1820f047 fmsub.s\tft0, ft1, ft2, ft3
800004c8 9924f44b fnmsub.s\tfs0, fs1, fs2, fs3
800004cc f9eefe4f fnmadd.s\tft8, ft9, ft10, ft11
800004d0 00c5f553 fadd.s\tfa0, fa1, fa2
800004d4 08c5f553 fsub.s\tfa0, fa1, fa2
800004d8 10c5f553 fmul.s\tfa0, fa1, fa2
800004dc 18c5f553 fdiv.s\tfa0, fa1, fa2
800004e0 5805f553 fsqrt.s\tfa0, fa1
800004e4 c0057553 fcvt.w.s\ta0, fa0
800004e8 c0157553 fcvt.wu.s\ta0, fa0
800004ec d0057553 fcvt.s.w\tfa0, a0
800004f0 d0157553 fcvt.s.wu\tfa0, a0
800004f4 20c58553 fsgnj.s\tfa0, fa1, fa2
800004f8 20b58553 fmv.s\tfa0, fa1
800004fc 20000053 fmv.s\tft0, ft0
80000500 20c59553 fsgnjn.s\tfa0, fa1, fa2
80000504 20b59553 fneg.s\tfa0, fa1
80000508 20001053 fneg.s\tft0, ft0
8000050c 20c5a553 fsgnjx.s\tfa0, fa1, fa2
80000510 20b5a553 fabs.s\tfa0, fa1
80000514 20002053 fabs.s\tft0, ft0
80000518 28c58553 fmin.s\tfa0, fa1, fa2
8000051c 28b58553 fmin.s\tfa0, fa1, fa1
80000520 28000053 fmin.s\tft0, ft0, ft0
80000524 28c59553 fmax.s\tfa0, fa1, fa2
80000528 28b59553 fmax.s\tfa0, fa1, fa1
8000052c 28001053 fmax.s\tft0, ft0, ft0
80000530 a0c5a553 feq.s\ta0, fa1, fa2
80000534 a1f02053 feq.s\tzero, ft0, ft11
80000538 a0c59553 flt.s\ta0, fa1, fa2
8000053c a1f01053 flt.s\tzero, ft0, ft11
80000540 a0c58553 fle.s\ta0, fa1, fa2
80000544 a1f00053 fle.s\tzero, ft0, ft11
80000548 e0050553 fmv.x.w\ta0, fa0
8000054c f0050553 fmv.w.x\tfa0, a0
80000550 e0051553 fclass.s\ta0, fa0
80000554 e0000053 fmv.x.w\tzero, ft0
80000558 f0000053 fmv.w.x\tft0, zero
8000055c 30059573 csrrw\ta0, mstatus, a1
80000560 30001573 csrrw\ta0, mstatus, zero
80000564 30059073 csrw\tmstatus, a1
80000568 30001073 csrw\tmstatus, zero
8000056c 7c059573 csrrw\ta0, 1984, a1
80000570 3005a573 csrrs\ta0, mstatus, a1
80000574 30002573 csrr\ta0, mstatus
80000578 3005a073 csrs\tmstatus, a1
8000057c 30002073 csrr\tzero, mstatus
80000580 7c05a573 csrrs\ta0, 1984, a1
80000584 3005b573 csrrc\ta0, mstatus, a1
80000588 30003573 csrrc\ta0, mstatus, zero
8000058c 3005b073 csrc\tmstatus, a1
80000590 30003073 csrc\tmstatus, zero
80000594 7c05b573 csrrc\ta0, 1984, a1
80000598 300fd573 csrrwi\ta0, mstatus, 31
8000059c 30005573 csrrwi\ta0, mstatus, 0
800005a0 3002d073 csrwi\tmstatus, 5
800005a4 cc00d073 csrwi\t3264, 1
800005a8 300fe573 csrrsi\ta0, mstatus, 31
800005ac 30006573 csrrsi\ta0, mstatus, 0
800005b0 3002e073 csrsi\tmstatus, 5
800005b4 cc00e073 csrsi\t3264, 1
800005b8 300ff573 csrrci\ta0, mstatus, 31
800005bc 30007573 csrrci\ta0, mstatus, 0
800005c0 3002f073 csrci\tmstatus, 5
800005c4 cc00f073 csrci\t3264, 1
800005c8 00102573 frflags\ta0
800005cc 00102073 frflags\tzero
800005d0 00159573 fsflags\ta0, a1
800005d4 00159073 fsflags\ta1
800005d8 00101573 fsflags\ta0, zero
800005dc 0011d573 fsflagsi\ta0, 3
800005e0 0011d073 fsflagsi\t3
800005e4 0015a573 csrrs\ta0, fflags, a1
800005e8 0010e073 csrsi\tfflags, 1
800005ec 0010f573 csrrci\ta0, fflags, 1
800005f0 00202573 frrm\ta0
800005f4 00202073 frrm\tzero
800005f8 00259573 fsrm\ta0, a1
800005fc 00259073 fsrm\ta1
80000600 00201573 fsrm\ta0, zero
80000604 0021d573 fsrmi\ta0, 3
80000608 0021d073 fsrmi\t3
8000060c 0025a573 csrrs\ta0, frm, a1
80000610 0020e073 csrsi\tfrm, 1
80000614 0020f573 csrrci\ta0, frm, 1
80000618 00302573 frcsr\ta0
8000061c 00302073 frcsr\tzero
80000620 00359573 fscsr\ta0, a1
80000624 00359073 fscsr\ta1
80000628 00301573 fscsr\ta0, zero
8000062c 0031d573 csrrwi\ta0, fcsr, 3
80000630 0031d073 csrwi\tfcsr, 3
80000634 0035a573 csrrs\ta0, fcsr, a1
80000638 0030e073 csrsi\tfcsr, 1
8000063c 0030f573 csrrci\ta0, fcsr, 1
80000640 c0002573 rdcycle\ta0
80000644 c0002073 rdcycle\tzero
80000648 c005a573 csrrs\ta0, cycle, a1
8000064c c0102573 rdtime\ta0
80000650 c0102073 rdtime\tzero
80000654 c015a573 csrrs\ta0, time, a1
80000658 c0202573 rdinstret\ta0
8000065c c0202073 rdinstret\tzero
80000660 c025a573 csrrs\ta0, instret, a1
80000664 c8002573 rdcycleh\ta0
80000668 c8002073 rdcycleh\tzero
8000066c c805a573 csrrs\ta0, cycleh, a1
80000670 c8102573 rdtimeh\ta0
80000674 c8102073 rdtimeh\tzero
80000678 c815a573 csrrs\ta0, timeh, a1
8000067c c8202573 rdinstreth\ta0
80000680 c8202073 rdinstreth\tzero
80000684 c825a573 csrrs\ta0, instreth, a1
80000688 c0001073 unimp
8000068c c0001573 csrrw\ta0, cycle, zero
80000690 30002573 csrr\ta0, mstatus
80000694 30102573 csrr\ta0, misa
80000698 30202573 csrr\ta0, medeleg
8000069c 30302573 csrr\ta0, mideleg
800006a0 30402573 csrr\ta0, mie
800006a4 30502573 csrr\ta0, mtvec
800006a8 34002573 csrr\ta0, mscratch
800006ac 34102573 csrr\ta0, mepc
800006b0 34202573 csrr\ta0, mcause
800006b4 34302573 csrr\ta0, mtval
800006b8 34402573 csrr\ta0, mip
800006bc 18002573 csrr\ta0, satp
800006c0 3a002573 csrr\ta0, pmpcfg0
800006c4 3b002573 csrr\ta0, pmpaddr0
800006c8 f1402573 csrr\ta0, mhartid
800006cc b0002573 csrr\ta0, mcycle
800006d0 b0202573 csrr\ta0, minstret
800006d4 b8002573 csrr\ta0, mcycleh
800006d8 b8202573 csrr\ta0, minstreth
800006dc 7c002573 csrr\ta0, 1984
800006e0 cc002573 csrr\ta0, 3264
800006e4 cc102573 csrr\ta0, 3265
800006e8 cc202573 csrr\ta0, 3266
800006ec cc302573 csrr\ta0, 3267
800006f0 cc402573 csrr\ta0, 3268
800006f4 fc002573 csrr\ta0, 4032
800006f8 fc102573 csrr\ta0, 4033
800006fc fc202573 csrr\ta0, 4034
80000700 fc302573 csrr\ta0, 4035
80000704 00002573 csrr\ta0, ustatus
80000708 fff02573 csrr\ta0, 4095
8000070c 00000073 ecall
80000710 00100073 ebreak
80000714 30200073 mret
80000718 10500073 wfi
80000770 0000006f j\t0x80000770
00000000 0000000f fence\tunknown, unknown
00000004 0f00000f fence\tiorw, unknown
00000008 00306073 csrsi\tfcsr, 0
0000000c 00005573 csrrwi\ta0, ustatus, 0
00000010 00301573 fscsr\ta0, zero
00000014 c0001073 unimp
00000018 0010000f fence\tunknown, w
";
