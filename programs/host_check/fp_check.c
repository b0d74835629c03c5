/* fp_check.c - verify every case of ../fp_cases.h against the host model (fp_model.h), and
 * a few hand-derived anchors, so that an edit to the table cannot slip in a wrong value. */
#include <stdio.h>
#include "fp_model.h"

int main(void) {
    int bad = 0;
    for (size_t i = 0; i < FP_NCASES; i++) {
        const struct fp_case *t = &fp_cases[i];
        uint32_t fl, r = model(t->op, t->rm, t->a, t->b, t->c, &fl);
        if (r != t->res || fl != t->flags) {
            printf("case %zu op %d rm %d a %08x b %08x c %08x: table %08x/%02x model %08x/%02x\n",
                   i, t->op, t->rm, t->a, t->b, t->c, t->res, t->flags, r, fl);
            bad++;
        }
    }
    /* anchors worked out by hand from IEEE 754 / the RISC-V spec */
    struct { int op, rm; uint32_t a, b, c, res, fl; } anchors[] = {
        { OP_FADD, 0, 0x3f800000, 0x33800000, 0, 0x3f800000, F_NX },          /* tie to even */
        { OP_FADD, 4, 0x3f800000, 0x33800000, 0, 0x3f800001, F_NX },          /* tie away */
        { OP_FMADD, 0, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000, 0 },   /* 2^-46 */
        { OP_FSUB, 2, 0x3f800000, 0x3f800000, 0, 0x80000000, 0 },             /* -0 in RDN */
        { OP_FMUL, 0, 0x3f7fffff, 0x00800000, 0, 0x00800000, F_UF | F_NX },   /* tiny after rounding */
        { OP_FCVT_W_S, 4, 0xc0200000, 0, 0, 0xfffffffd, F_NX },                /* -2.5 RMM -> -3 */
        { OP_FCVT_WU_S, 2, 0xbecccccd, 0, 0, 0, F_NV },                        /* -0.4 RDN -> -1 */
        { OP_FCVT_S_W, 4, 0x01000001, 0, 0, 0x4b800001, F_NX },                /* 2^24+1 RMM */
        { OP_FMADD, 0, 0x7f800000, 0, 0x7fc00000, 0x7fc00000, F_NV },          /* inf*0+qNaN */
        { OP_FMIN, 0, 0x7f800001, 0x3f800000, 0, 0x3f800000, F_NV },
        { OP_FMAX, 0, 0x80000000, 0x00000000, 0, 0x00000000, 0 },
    };
    for (size_t i = 0; i < sizeof(anchors) / sizeof(anchors[0]); i++) {
        uint32_t fl, r = model(anchors[i].op, anchors[i].rm, anchors[i].a, anchors[i].b,
                               anchors[i].c, &fl);
        if (r != anchors[i].res || fl != anchors[i].fl) {
            printf("anchor %zu: model %08x/%02x want %08x/%02x\n", i, r, fl, anchors[i].res,
                   anchors[i].fl);
            bad++;
        }
    }
    printf("fp_check: %zu cases, %d mismatches\n", FP_NCASES, bad);
    return bad != 0;
}
