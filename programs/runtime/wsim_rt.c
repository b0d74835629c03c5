/* wsim_rt.c - runtime: console output, exit, kernel launch, barriers, mem* functions. */
#include <stdarg.h>
#include "wsim.h"

/* ------------------------------------------------------------------ console */
void wsim_puts(const char *s) {
    while (*s) wsim_putchar(*s++);
}

static void put_uint(uint32_t v, unsigned base, int upper, int width, char pad, int neg) {
    char buf[12];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do { buf[n++] = digits[v % base]; v /= base; } while (v);
    int len = n + (neg ? 1 : 0);
    if (neg && pad == '0') wsim_putchar('-');
    for (; width > len; width--) wsim_putchar(pad);
    if (neg && pad != '0') wsim_putchar('-');
    while (n) wsim_putchar(buf[--n]);
}

int wsim_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    for (; *fmt; fmt++) {
        if (*fmt != '%') { wsim_putchar(*fmt); continue; }
        fmt++;
        char pad = ' ';
        int width = 0;
        if (*fmt == '0') { pad = '0'; fmt++; }
        while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l' || *fmt == 'h') fmt++;
        switch (*fmt) {
        case 'd': case 'i': {
            int32_t v = va_arg(ap, int32_t);
            put_uint(v < 0 ? 0u - (uint32_t)v : (uint32_t)v, 10, 0, width, pad, v < 0);
            break;
        }
        case 'u': put_uint(va_arg(ap, uint32_t), 10, 0, width, pad, 0); break;
        case 'x': put_uint(va_arg(ap, uint32_t), 16, 0, width, pad, 0); break;
        case 'X': put_uint(va_arg(ap, uint32_t), 16, 1, width, pad, 0); break;
        case 'p': wsim_puts("0x"); put_uint(va_arg(ap, uint32_t), 16, 0, 8, '0', 0); break;
        case 'c': wsim_putchar(va_arg(ap, int)); break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            int len = 0;
            while (s[len]) len++;
            for (; width > len; width--) wsim_putchar(' ');
            wsim_puts(s);
            break;
        }
        case '%': wsim_putchar('%'); break;
        case 0: fmt--; break;
        default: wsim_putchar('%'); wsim_putchar(*fmt); break;
        }
    }
    va_end(ap);
    return 0;
}

/* ------------------------------------------------------------------ exit */
void wsim_exit(uint32_t code) {
    wsim_set_status(code);
    wsim_fence();
    vx_tmc_zero();
    for (;;) {}
}

/* ------------------------------------------------------------------ launch */
struct wsim_launch {
    wsim_kernel_t kernel;
    void *arg;
    uint32_t grid;
    uint32_t nwarps;
};

static struct wsim_launch __wsim_launch[WSIM_MAX_CORES];

void __wsim_spawn_stub(void);   /* crt0.S: entry of spawned warps */
void __wsim_spawn_warp0(void);  /* crt0.S: warp 0 runs its lanes */

/* Every lane of every warp of the core runs this (all lanes active). */
void __wsim_spawn_lane(void) {
    struct wsim_launch *l = &__wsim_launch[vx_core_id()];
    wsim_kernel_t kernel = l->kernel;
    void *arg = l->arg;
    uint32_t grid = l->grid;
    uint32_t stride = vx_num_cores() * vx_num_warps() * vx_num_threads();
    for (uint32_t gid = vx_hart_id(); gid < grid; gid += stride)
        kernel(gid, arg);
    wsim_fence();
    vx_barrier(WSIM_BAR_SPAWN, l->nwarps);
}

void wsim_global_barrier(void) {
    wsim_fence();
    vx_barrier(WSIM_BAR_GLOBAL, vx_num_cores());
}

void wsim_spawn(uint32_t grid, wsim_kernel_t kernel, void *arg) {
    uint32_t cid = vx_core_id();
    if (cid >= WSIM_MAX_CORES) {
        wsim_puts("wsim_spawn: too many cores\n");
        wsim_exit(0xdead);
    }
    struct wsim_launch *l = &__wsim_launch[cid];
    uint32_t nw = vx_num_warps();
    l->kernel = kernel;
    l->arg = arg;
    l->grid = grid;
    l->nwarps = nw;
    wsim_fence();
    if (nw > 1)
        vx_wspawn(nw, __wsim_spawn_stub);
    __wsim_spawn_warp0();
    /* The barrier at the end of __wsim_spawn_lane releases the spawned warps a few
     * instructions before they retire; wait until they have, or the next launch's
     * vx_wspawn would find them still running and skip them. */
    while (vx_active_warps() != 1) {}
    wsim_global_barrier();
}

/* ------------------------------------------------------------------ mem* */
void *memcpy(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp | n) & 3) == 0) {
        uint32_t *dw = (uint32_t *)dp;
        const uint32_t *sw = (const uint32_t *)sp;
        for (size_t i = 0; i < n / 4; i++) dw[i] = sw[i];
        return d;
    }
    while (n--) *dp++ = *sp++;
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if (dp < sp) { while (n--) *dp++ = *sp++; }
    else { while (n) { n--; dp[n] = sp[n]; } }
    return d;
}

void *memset(void *d, int c, size_t n) {
    uint8_t *dp = d;
    while (n--) *dp++ = (uint8_t)c;
    return d;
}

int memcmp(const void *a, const void *b, size_t n) {
    const uint8_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}
