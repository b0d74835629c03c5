/* isa_rv32i.S - RV32I self-test: arithmetic, logic, shifts, compares, lui/auipc, branches,
 * jumps, loads (all widths, sign/zero extension), stores (all widths).
 * Exit status: 0 = pass, otherwise the number of the first failing test. */
#include "isa_macros.h"

ISA_TEST_BEGIN("isa_rv32i")

    /* ---- add / sub (1..) ---- */
    TEST_RR(1, add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2, add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR(3, add, 0x80000000, 0x7fffffff, 0x00000001)
    TEST_RR(4, add, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR(5, add, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR(6, sub, 0xfffffffc, 0x00000003, 0x00000007)
    TEST_RR(7, sub, 0x7fffffff, 0x80000000, 0x00000001)
    TEST_RR(8, sub, 0x00000000, 0xdeadbeef, 0xdeadbeef)
    TEST_RR_SRC12_EQ_DEST(9, add, 26, 13)
    TEST_RR_ZERODEST(10, add, 11, 22)
    TEST_IMM(11, addi, 0x00000802, 0x00000003, 0x7ff)
    TEST_IMM(12, addi, 0xfffff803, 0x00000003, -0x800)
    TEST_IMM(13, addi, 0x80000000, 0x7fffffff, 1)
    TEST_IMM_SRC1_EQ_DEST(14, addi, 24, 13, 11)

    /* ---- logic (20..) ---- */
    TEST_RR(20, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(21, or,  0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(22, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
    TEST_IMM(23, andi, 0xff00ff00, 0xff00ff00, -1)
    TEST_IMM(24, andi, 0x000000f0, 0x00ff00ff, 0x0f0)
    TEST_IMM(25, ori,  0xffffff0f, 0xff00ff00, -0x0f1)
    TEST_IMM(26, ori,  0x00ff07ff, 0x00ff00ff, 0x70f)
    TEST_IMM(27, xori, 0xff00f00f, 0x00ff0f00, -0x0f1)
    TEST_IMM(28, xori, 0x00ff0ff0, 0x00ff08ff, 0x70f)

    /* ---- shifts (40..) ---- */
    TEST_RR(40, sll, 0x00000001, 0x00000001, 0)
    TEST_RR(41, sll, 0x80000000, 0x00000001, 31)
    TEST_RR(42, sll, 0x90909080, 0x21212121, 7)
    TEST_RR(43, sll, 0x90909080, 0x21212121, 0xffffffe7)   /* only low 5 bits of rs2 */
    TEST_RR(44, srl, 0x01000000, 0x80000000, 7)
    TEST_RR(45, srl, 0x00000001, 0xffffffff, 31)
    TEST_RR(46, srl, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(47, sra, 0xff000000, 0x80000000, 7)
    TEST_RR(48, sra, 0xffffffff, 0x80000000, 31)
    TEST_RR(49, sra, 0xc0810204, 0x81020408, 0x21)    /* only low 5 bits: shift by 1 */
    TEST_IMM(50, slli, 0x80000000, 0x00000001, 31)
    TEST_IMM(51, slli, 0x42424242, 0x21212121, 1)
    TEST_IMM(52, srli, 0x00000001, 0x80000000, 31)
    TEST_IMM(53, srli, 0x7fffffff, 0xffffffff, 1)
    TEST_IMM(54, srai, 0xffffffff, 0x80000000, 31)
    TEST_IMM(55, srai, 0xc0810204, 0x81020408, 1)
    TEST_IMM(56, srai, 0x3f, 0x7e000000, 25)

    /* ---- compares (60..) ---- */
    TEST_RR(60, slt,  1, 0xffffffff, 0x00000000)
    TEST_RR(61, slt,  0, 0x00000000, 0xffffffff)
    TEST_RR(62, slt,  1, 0x80000000, 0x7fffffff)
    TEST_RR(63, slt,  0, 0x7fffffff, 0x7fffffff)
    TEST_RR(64, sltu, 0, 0xffffffff, 0x00000000)
    TEST_RR(65, sltu, 1, 0x00000000, 0xffffffff)
    TEST_RR(66, sltu, 0, 0x80000000, 0x7fffffff)
    TEST_IMM(67, slti,  1, 0xfffffffe, -1)
    TEST_IMM(68, slti,  0, 0x7fffffff, -0x800)
    TEST_IMM(69, sltiu, 1, 0x00000005, -1)        /* imm sign-extended, compared unsigned */
    TEST_IMM(70, sltiu, 0, 0xffffffff, -1)
    TEST_IMM(71, sltiu, 1, 0x00000000, 1)          /* seqz */

    /* ---- lui / auipc (80..) ---- */
    TEST_CASE(80, a4, 0xfffff000, lui a4, 0xfffff)
    TEST_CASE(81, a4, 0x80000000, lui a4, 0x80000)
    TEST_CASE(82, a4, 0x000007bc, lui a4, 0; addi a4, a4, 0x7bc)
    TEST_CASE(83, a4, 0x2000 + 8,
              1: auipc a4, 2; la a5, 1b; sub a4, a4, a5; addi a4, a4, 8)
    TEST_CASE(84, a4, 0, 1: auipc a4, 0; la a5, 1b; sub a4, a4, a5)

    /* ---- branches (100..) ---- */
    TEST_BR2_TAKEN(100, beq, 1, 1)
    TEST_BR2_NOT_TAKEN(101, beq, 1, 2)
    TEST_BR2_TAKEN(102, bne, 1, 2)
    TEST_BR2_NOT_TAKEN(103, bne, 5, 5)
    TEST_BR2_TAKEN(104, blt, -1, 1)
    TEST_BR2_NOT_TAKEN(105, blt, 1, -1)
    TEST_BR2_NOT_TAKEN(106, blt, 3, 3)
    TEST_BR2_TAKEN(107, bge, 1, -1)
    TEST_BR2_TAKEN(108, bge, 3, 3)
    TEST_BR2_NOT_TAKEN(109, bge, -1, 1)
    TEST_BR2_TAKEN(110, bltu, 1, -1)
    TEST_BR2_NOT_TAKEN(111, bltu, -1, 1)
    TEST_BR2_TAKEN(112, bgeu, -1, 1)
    TEST_BR2_TAKEN(113, bgeu, 7, 7)
    TEST_BR2_NOT_TAKEN(114, bgeu, 0, 0x80000000)
    /* backward branch loop: sum 1..10 */
    TEST_CASE(115, a4, 55, li a4, 0; li a1, 10; 1: add a4, a4, a1; addi a1, a1, -1; bnez a1, 1b)

    /* ---- jumps (120..) ---- */
    /* jal: link = address after jal */
    TEST_CASE(120, a4, 0, jal a3, 1f; 2: j isa_fail; 1: la a5, 2b; sub a4, a3, a5)
    /* jalr with offset and rd == rs1, and clearing of bit 0 */
    TEST_CASE(121, a4, 0, la a3, 1f - 4; jalr a3, 4(a3); 2: j isa_fail; 1: la a5, 2b; sub a4, a3, a5)
    TEST_CASE(122, a4, 7, la a3, 1f + 1; li a4, 7; jalr x0, 0(a3); li a4, 0; 1: nop)
    /* jal x0 forward/backward, rd = x0 untouched */
    TEST_CASE(123, a4, 3, li a4, 0; j 2f; 1: addi a4, a4, 2; j 3f; 2: addi a4, a4, 1; j 1b; 3: nop)
    /* call/ret through a function */
    TEST_CASE(124, a0, 42, li a0, 41; call isa_inc)

    /* ---- loads (140..) ---- */
    TEST_LD(140, lb,  0xffffffff, 0, ld_data)
    TEST_LD(141, lb,  0x00000000, 1, ld_data)
    TEST_LD(142, lb,  0xfffffff0, 8, ld_data)
    TEST_LD(143, lb,  0x0000000f, 9, ld_data)
    TEST_LD(144, lbu, 0x000000ff, 0, ld_data)
    TEST_LD(145, lbu, 0x000000f0, 8, ld_data)
    TEST_LD(146, lh,  0x000000ff, 0, ld_data)
    TEST_LD(147, lh,  0xffffff00, 4, ld_data)
    TEST_LD(148, lh,  0x00000ff0, 8, ld_data)
    TEST_LD(149, lh,  0xfffff00f, 12, ld_data)
    TEST_LD(150, lhu, 0x0000ff00, 4, ld_data)
    TEST_LD(151, lhu, 0x0000f00f, 12, ld_data)
    TEST_LD(152, lw,  0x00ff00ff, 0, ld_data)
    TEST_LD(153, lw,  0xff00ff00, 4, ld_data)
    TEST_LD(154, lw,  0x0ff00ff0, 8, ld_data)
    TEST_LD(155, lw,  0xf00ff00f, 12, ld_data)
    TEST_LD(156, lw,  0x00ff00ff, -4, ld_data + 4)     /* negative offset */
    TEST_LD(157, lb,  0xffffffff, -16, ld_data + 16)
    TEST_LD(158, lhu, 0x000000ff, 2, ld_data + 0)      /* lhu at +2 = 0x00ff */

    /* ---- stores (170..) ---- */
    TEST_ST(170, lw, sw, 0xaabbccdd, 0, st_data)
    TEST_ST(171, lw, sw, 0x12345678, 4, st_data)
    TEST_ST(172, lh, sh, 0xffffa00a, 8, st_data)       /* lh sign-extends what sh stored */
    TEST_ST(173, lhu, sh, 0x0000a00a, 10, st_data)
    TEST_ST(174, lb, sb, 0xffffffaa, 12, st_data)
    TEST_ST(175, lbu, sb, 0x000000aa, 13, st_data)
    TEST_ST(176, lw, sw, 0x0000aa0b, -4, st_data + 20)
    /* partial stores into a word: byte lanes */
    TEST_CASE(177, a4, 0x44332211,
              la a5, st_data; li a1, 0xffffffff; sw a1, 16(a5);
              li a1, 0x11; sb a1, 16(a5); li a1, 0x22; sb a1, 17(a5);
              li a1, 0x4433; sh a1, 18(a5); lw a4, 16(a5))
    TEST_CASE(178, a4, 0x0000dead,
              la a5, st_data; li a1, 0x1234dead; sw a1, 24(a5); lhu a4, 24(a5))
    TEST_CASE(179, a4, 0x00001234, lhu a4, 26(a5))
    /* load into x0 does not write x0 */
    TEST_CASE(180, x0, 0, la a5, ld_data; lw x0, 0(a5))

    /* ---- fence (no architectural effect here) ---- */
    TEST_CASE(190, a4, 1, fence; fence rw, rw; fence.tso; li a4, 1)

ISA_TEST_END

isa_inc:
    addi a0, a0, 1
    ret

    .data
    .p2align 4
ld_data:
    .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
    .word 0
st_data:
    .zero 32
