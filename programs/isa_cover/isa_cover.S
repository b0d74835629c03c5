# Every RV32IMAF + Zicsr + Zifencei instruction, every rounding mode, every aq/rl
# combination, the operand patterns for which llvm-objdump prints a pseudo-instruction,
# and every Vortex / SparseWeaver custom instruction (via .insn).
#
# Not meant to be run: tests/cli/disasm_agreement.rs assembles it and checks that
# `wsim disasm` agrees with `llvm-objdump -d` on every line. It is still a valid program:
# control flow falls through to the final loop (the jumps and branches target the next
# instruction or the loop).
#
# clang --target=riscv32 -march=rv32imaf -mabi=ilp32f -nostdlib -fuse-ld=lld \
#       -Wl,-Ttext=0x80000000 isa_cover.S -o isa_cover.elf

    .text
    .globl _start
    .type _start, @function
_start:
    # ---- RV32I: upper immediates
    lui     a0, 0
    lui     t6, 0xfffff
    lui     zero, 0x12345
    auipc   a1, 0x80000
    auipc   s0, 1

    # ---- jumps (targets: the next instruction, a label, the end loop)
    jal     ra, 1f
1:  jal     zero, 2f
2:  jal     t0, 3f
3:  jal     s11, end
    jalr    zero, 0(ra)
    jalr    zero, 0(a0)
    jalr    ra, 0(a0)
    jalr    t1, 0(a0)
    jalr    zero, 16(a1)
    jalr    ra, -16(a1)
    jalr    a0, 2047(a1)
    jalr    a0, -2048(zero)

    # ---- branches, including every pseudo form and both-x0 cases
    .irp op, beq, bne, blt, bge, bltu, bgeu
    \op     a0, a1, end
    \op     a0, zero, end
    \op     zero, a1, end
    \op     zero, zero, end
    \op     t6, s11, mid
    .endr
mid:
    beq     a0, a1, _start
    bne     s1, s2, mid

    # ---- loads and stores
    .irp op, lb, lh, lw, lbu, lhu
    \op     a0, 0(a1)
    \op     t3, -2048(sp)
    \op     zero, 2047(zero)
    .endr
    .irp op, sb, sh, sw
    \op     a0, 0(a1)
    \op     t3, -2048(sp)
    \op     zero, 2047(zero)
    .endr

    # ---- register-immediate
    addi    zero, zero, 0
    addi    a0, zero, 0
    addi    a0, zero, -1
    addi    zero, zero, 1
    addi    a0, a1, 0
    addi    a0, a1, 2047
    addi    a0, a1, -2048
    .irp op, slti, sltiu, xori, ori, andi
    \op     a0, a1, 0
    \op     a0, a1, 1
    \op     a0, a1, -1
    \op     s10, zero, 2047
    \op     t4, t5, -2048
    .endr
    .irp op, slli, srli, srai
    \op     a0, a1, 0
    \op     a0, a1, 1
    \op     t6, s11, 31
    .endr

    # ---- register-register, with the x0 patterns objdump turns into pseudos
    .irp op, add, sub, sll, slt, sltu, xor, srl, sra, or, and
    \op     a0, a1, a2
    \op     a0, zero, a2
    \op     a0, a1, zero
    \op     zero, zero, zero
    \op     s2, t5, t6
    .endr

    # ---- fences
    fence
    fence   iorw, iorw
    fence   rw, rw
    fence   r, w
    fence   w, r
    fence   i, o
    fence   io, rw
    fence   ior, ow
    fence.tso
    fence.i

    # ---- M
    .irp op, mul, mulh, mulhsu, mulhu, div, divu, rem, remu
    \op     a0, a1, a2
    \op     zero, t6, s0
    .endr

    # ---- A: every aq/rl combination
    .irp sfx, , .aq, .rl, .aqrl
    lr.w\sfx        a0, (a1)
    sc.w\sfx        a0, a1, (a2)
    amoswap.w\sfx   a0, a1, (a2)
    amoadd.w\sfx    a0, a1, (a2)
    amoxor.w\sfx    a0, a1, (a2)
    amoand.w\sfx    a0, a1, (a2)
    amoor.w\sfx     a0, a1, (a2)
    amomin.w\sfx    a0, a1, (a2)
    amomax.w\sfx    a0, a1, (a2)
    amominu.w\sfx   a0, a1, (a2)
    amomaxu.w\sfx   a0, a1, (a2)
    .endr
    amoadd.w        zero, zero, (sp)

    # ---- F: every rounding mode on every instruction that has one
    flw     fa0, 0(a1)
    flw     ft11, -2048(sp)
    fsw     fa0, 0(a1)
    fsw     fs11, 2047(zero)
    .irp rm, rne, rtz, rdn, rup, rmm, dyn
    fmadd.s         fa0, fa1, fa2, fa3, \rm
    fmsub.s         ft0, ft1, ft2, ft3, \rm
    fnmsub.s        fs0, fs1, fs2, fs3, \rm
    fnmadd.s        ft8, ft9, ft10, ft11, \rm
    fadd.s          fa0, fa1, fa2, \rm
    fsub.s          fa0, fa1, fa2, \rm
    fmul.s          fa0, fa1, fa2, \rm
    fdiv.s          fa0, fa1, fa2, \rm
    fsqrt.s         fa0, fa1, \rm
    fcvt.w.s        a0, fa0, \rm
    fcvt.wu.s       a0, fa0, \rm
    fcvt.s.w        fa0, a0, \rm
    fcvt.s.wu       fa0, a0, \rm
    .endr
    .irp op, fsgnj.s, fsgnjn.s, fsgnjx.s, fmin.s, fmax.s
    \op     fa0, fa1, fa2
    \op     fa0, fa1, fa1
    \op     ft0, ft0, ft0
    .endr
    .irp op, feq.s, flt.s, fle.s
    \op     a0, fa1, fa2
    \op     zero, ft0, ft11
    .endr
    fmv.x.w         a0, fa0
    fmv.w.x         fa0, a0
    fclass.s        a0, fa0
    fmv.x.w         zero, ft0
    fmv.w.x         ft0, zero

    # ---- Zicsr: every instruction, the pseudo forms and named/unnamed CSRs
    .irp op, csrrw, csrrs, csrrc
    \op     a0, mstatus, a1
    \op     a0, mstatus, zero
    \op     zero, mstatus, a1
    \op     zero, mstatus, zero
    \op     a0, 0x7c0, a1
    .endr
    .irp op, csrrwi, csrrsi, csrrci
    \op     a0, mstatus, 31
    \op     a0, mstatus, 0
    \op     zero, mstatus, 5
    \op     zero, 0xcc0, 1
    .endr
    .irp csr, fflags, frm, fcsr
    csrrs   a0, \csr, zero
    csrrs   zero, \csr, zero
    csrrw   a0, \csr, a1
    csrrw   zero, \csr, a1
    csrrw   a0, \csr, zero
    csrrwi  a0, \csr, 3
    csrrwi  zero, \csr, 3
    csrrs   a0, \csr, a1
    csrrsi  zero, \csr, 1
    csrrci  a0, \csr, 1
    .endr
    .irp csr, cycle, time, instret, cycleh, timeh, instreth
    csrrs   a0, \csr, zero
    csrrs   zero, \csr, zero
    csrrs   a0, \csr, a1
    .endr
    csrrw   zero, cycle, zero
    csrrw   a0, cycle, zero
    .irp csr, mstatus, misa, medeleg, mideleg, mie, mtvec, mscratch, mepc, mcause, mtval, mip, satp, pmpcfg0, pmpaddr0, mhartid, mcycle, minstret, mcycleh, minstreth
    csrr    a0, \csr
    .endr
    .irp csr, 0x7c0, 0xcc0, 0xcc1, 0xcc2, 0xcc3, 0xcc4, 0xfc0, 0xfc1, 0xfc2, 0xfc3, 0x000, 0xfff
    csrr    a0, \csr
    .endr

    # ---- system
    ecall
    ebreak
    mret
    wfi

    # ---- Vortex SIMT (CUSTOM0, funct7 0): tmc, wspawn, split, split.n, join, bar, pred,
    # pred.n, wsync
    .insn r 0x0b, 0, 0, zero, a0, zero
    .insn r 0x0b, 1, 0, zero, a0, a1
    .insn r 0x0b, 2, 0, t0, t1, x0
    .insn r 0x0b, 2, 0, t0, t1, x1
    .insn r 0x0b, 3, 0, zero, t0, zero
    .insn r 0x0b, 4, 0, zero, a0, a1
    .insn r 0x0b, 5, 0, x0, a2, a3
    .insn r 0x0b, 5, 0, x1, a2, a3
    .insn r 0x0b, 7, 0, zero, zero, zero
    # Warp-level (funct7 1): vote.all/any/uni/ballot, shfl.up/down/bfly/idx
    .irp f3, 0, 1, 2, 3, 4, 5, 6, 7
    .insn r 0x0b, \f3, 1, a0, a1, a2
    .endr
    # SparseWeaver: dec_id, dec_loc (CUSTOM0 funct7 2); reg, skip (CUSTOM1 R4)
    .insn r 0x0b, 0, 2, a0, zero, zero
    .insn r 0x0b, 1, 2, a1, zero, zero
    .insn r4 0x2b, 0, 0, zero, a0, a1, a2
    .insn r4 0x2b, 1, 0, zero, a0, zero, zero
    # wsim's float atomic add (CUSTOM0 funct7 3): amoadd.f fa0, fa1, (a0)
    .insn r 0x0b, 0, 3, fa0, a0, fa1

end:
    j       end
    .size _start, . - _start
