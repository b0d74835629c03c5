//! Simulation speed: the memory-bound stream kernel (`programs/ubench_stream.c`, 35M
//! thread instructions) on the dissertation's machine (6 cores x 32 warps x 32 threads),
//! single-threaded. Criterion reports warp instructions per host second as throughput.
//! Build the programs first (`make -C programs`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use wsim_sim::{Config, Machine};

fn stream(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let elf = std::fs::read(root.join("programs/build/ubench_stream.elf"))
        .expect("programs/build/ubench_stream.elf: run `make -C programs` first");
    let preset = std::fs::read_to_string(root.join("configs/sparseweaver.toml")).unwrap();
    let config = Config::from_toml(&preset, "sparseweaver.toml").unwrap();
    let run = || {
        let mut m = Machine::new(&config, &elf).unwrap();
        let summary = m.run().unwrap();
        assert_eq!(summary.exit_code, 0);
        summary
    };
    let warp_instructions = run().total().instructions;
    let mut group = c.benchmark_group("simulation");
    group.sample_size(10);
    group.throughput(Throughput::Elements(warp_instructions));
    group.bench_function("stream/sparseweaver", |b| b.iter(run));
    group.finish();
}

criterion_group!(benches, stream);
criterion_main!(benches);
