//! Cost per lane operation of the FPU: the exact fast paths against SoftFloat.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use wsim_isa::Op;
use wsim_sim::core::fpu::{execute, execute_reference, RNE};

/// Ordinary operands: magnitudes 2^-10 .. 2^10, pseudo-random significands and signs.
fn operands() -> Vec<u32> {
    let mut s = 0x243f_6a88_85a3_08d3u64;
    (0..4096)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as u32 & 1) << 31
                | (117 + (s >> 20) as u32 % 20) << 23
                | (s as u32 & 0x7f_ffff)
        })
        .collect()
}

fn fpu(c: &mut Criterion) {
    let ops = operands();
    let mut group = c.benchmark_group("fpu");
    group.throughput(Throughput::Elements(ops.len() as u64));
    for op in [
        Op::FaddS,
        Op::FmulS,
        Op::FmaddS,
        Op::FdivS,
        Op::FsqrtS,
        Op::FcvtWS,
    ] {
        for (path, f) in [
            (
                "fast",
                execute as fn(Op, u32, u32, u32, u8) -> Option<(u32, u8)>,
            ),
            ("softfloat", execute_reference),
        ] {
            group.bench_function(format!("{op:?}/{path}"), |b| {
                b.iter(|| {
                    let mut acc = 0u32;
                    for w in ops.windows(3) {
                        let (v, fl) = f(op, w[0], w[1], w[2], RNE).unwrap_or_default();
                        acc ^= v ^ u32::from(fl);
                    }
                    black_box(acc)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, fpu);
criterion_main!(benches);
