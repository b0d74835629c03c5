/* fp_conformance.c - RV32F conformance: every case of fp_cases.h (rounding modes, fflags,
 * NaN rules, min/max, compares, fclass, conversions with saturation, fused multiply-add),
 * run with the rounding mode static in the instruction AND dynamic (rm = dyn, frm set),
 * comparing the result bits and the exact fflags. Single thread (core 0 only).
 * Exit status: 0 ok; otherwise 1 + the index of the first failing case (static rm run),
 * or 0x8000 + 1 + index for a failure in the dynamic-rm run, or 0x7ff0 if frm/fcsr misbehave. */
#include "wsim.h"
#include "fp_cases.h"

/* Each ASM_* runs one instruction with fflags cleared just before and read just after. */
#define ASM_RR(insn, rm) __asm__ volatile (                                   \
    "fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tcsrwi fflags, 0\n\t"               \
    insn " ft2, ft0, ft1" rm "\n\tcsrr %1, fflags\n\tfmv.x.w %0, ft2"         \
    : "=r"(r), "=r"(f) : "r"(a), "r"(b) : "ft0", "ft1", "ft2")
#define ASM_R(insn, rm) __asm__ volatile (                                    \
    "fmv.w.x ft0, %2\n\tcsrwi fflags, 0\n\t"                                  \
    insn " ft2, ft0" rm "\n\tcsrr %1, fflags\n\tfmv.x.w %0, ft2"              \
    : "=r"(r), "=r"(f) : "r"(a) : "ft0", "ft2")
#define ASM_R4(insn, rm) __asm__ volatile (                                   \
    "fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tfmv.w.x ft2, %4\n\tcsrwi fflags, 0\n\t" \
    insn " ft3, ft0, ft1, ft2" rm "\n\tcsrr %1, fflags\n\tfmv.x.w %0, ft3"    \
    : "=r"(r), "=r"(f) : "r"(a), "r"(b), "r"(c) : "ft0", "ft1", "ft2", "ft3")
#define ASM_TOINT(insn, rm) __asm__ volatile (                                \
    "fmv.w.x ft0, %2\n\tcsrwi fflags, 0\n\t"                                  \
    insn " %0, ft0" rm "\n\tcsrr %1, fflags"                                  \
    : "=&r"(r), "=&r"(f) : "r"(a) : "ft0")
#define ASM_FROMINT(insn, rm) __asm__ volatile (                              \
    "csrwi fflags, 0\n\t"                                                     \
    insn " ft2, %2" rm "\n\tcsrr %1, fflags\n\tfmv.x.w %0, ft2"               \
    : "=r"(r), "=r"(f) : "r"(a) : "ft2")
#define ASM_CMP(insn) __asm__ volatile (                                      \
    "fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tcsrwi fflags, 0\n\t"               \
    insn " %0, ft0, ft1\n\tcsrr %1, fflags"                                   \
    : "=&r"(r), "=&r"(f) : "r"(a), "r"(b) : "ft0", "ft1")

/* One switch arm per rounding mode: 0..4 static, 7 = dyn. */
#define RM_SWITCH(M, insn) switch (rm) {                                      \
    case 0: M(insn, ", rne"); break;                                          \
    case 1: M(insn, ", rtz"); break;                                          \
    case 2: M(insn, ", rdn"); break;                                          \
    case 3: M(insn, ", rup"); break;                                          \
    case 4: M(insn, ", rmm"); break;                                          \
    default: M(insn, ", dyn"); break; }

__attribute__((noinline))
static uint32_t run(int op, int rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *flags) {
    uint32_t r = 0, f = 0;
    switch (op) {
    case OP_FADD:   RM_SWITCH(ASM_RR, "fadd.s"); break;
    case OP_FSUB:   RM_SWITCH(ASM_RR, "fsub.s"); break;
    case OP_FMUL:   RM_SWITCH(ASM_RR, "fmul.s"); break;
    case OP_FDIV:   RM_SWITCH(ASM_RR, "fdiv.s"); break;
    case OP_FSQRT:  RM_SWITCH(ASM_R, "fsqrt.s"); break;
    case OP_FMADD:  RM_SWITCH(ASM_R4, "fmadd.s"); break;
    case OP_FMSUB:  RM_SWITCH(ASM_R4, "fmsub.s"); break;
    case OP_FNMADD: RM_SWITCH(ASM_R4, "fnmadd.s"); break;
    case OP_FNMSUB: RM_SWITCH(ASM_R4, "fnmsub.s"); break;
    case OP_FCVT_W_S:  RM_SWITCH(ASM_TOINT, "fcvt.w.s"); break;
    case OP_FCVT_WU_S: RM_SWITCH(ASM_TOINT, "fcvt.wu.s"); break;
    case OP_FCVT_S_W:  RM_SWITCH(ASM_FROMINT, "fcvt.s.w"); break;
    case OP_FCVT_S_WU: RM_SWITCH(ASM_FROMINT, "fcvt.s.wu"); break;
    case OP_FMIN:   ASM_RR("fmin.s", ""); break;
    case OP_FMAX:   ASM_RR("fmax.s", ""); break;
    case OP_FSGNJ:  ASM_RR("fsgnj.s", ""); break;
    case OP_FSGNJN: ASM_RR("fsgnjn.s", ""); break;
    case OP_FSGNJX: ASM_RR("fsgnjx.s", ""); break;
    case OP_FEQ:    ASM_CMP("feq.s"); break;
    case OP_FLT:    ASM_CMP("flt.s"); break;
    case OP_FLE:    ASM_CMP("fle.s"); break;
    case OP_FCLASS: ASM_TOINT("fclass.s", ""); break;
    default: r = 0xbad; f = 0xff; break;
    }
    *flags = f;
    return r;
}

static const char *const rm_name[8] = { "rne", "rtz", "rdn", "rup", "rmm", "?", "?", "dyn" };

static int check_all(int dynamic) {
    for (uint32_t i = 0; i < FP_NCASES; i++) {
        const struct fp_case *t = &fp_cases[i];
        int rm = t->rm;
        if (dynamic) {
            if (!fp_op_rounds(t->op))
                continue;                       /* nothing to round: done in the static run */
            csr_write(0x002, rm);               /* frm */
            rm = 7;
        }
        uint32_t fl, r = run(t->op, rm, t->a, t->b, t->c, &fl);
        if (r != t->res || fl != t->flags) {
            wsim_printf("fp_conformance: FAIL case %d op %d %s%s a=%x b=%x c=%x: got %x flags %x,"
                        " want %x flags %x\n", i, t->op, rm_name[t->rm], dynamic ? " (frm)" : "",
                        t->a, t->b, t->c, r, fl, t->res, t->flags);
            return (int)i + 1 + (dynamic ? 0x8000 : 0);
        }
    }
    return 0;
}

int main(void) {
    if (vx_core_id() != 0)
        return 0;
    /* fcsr layout: frm in bits 7:5, fflags in 4:0; flags accumulate */
    csr_write(0x003, 0);
    csr_write(0x002, 3);
    if (csr_read(0x003) != (3u << 5)) { wsim_printf("fp_conformance: FAIL fcsr layout\n"); return 0x7ff0; }
    csr_write(0x003, 0);
    int code = check_all(0);
    if (!code)
        code = check_all(1);
    csr_write(0x003, 0);
    if (code)
        return code;
    wsim_printf("fp_conformance: OK (%d cases, static and dynamic rounding)\n", (int)FP_NCASES);
    return 0;
}
