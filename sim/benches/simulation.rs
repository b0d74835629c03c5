//! Simulation speed, single-threaded, on the programs of `scripts/speed.py` that need no
//! graph: the memory-bound stream kernel (`programs/ubench_stream.c`) on the
//! dissertation's machine (6 cores x 32 warps x 32 threads) and on Vortex's (one core,
//! its job c), and 40 launches of a local-barrier tree (`programs/launches.c`, its job e).
//! Criterion reports warp instructions per host second as throughput. Build the programs
//! first (`make -C programs`); the graph jobs are the script's.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use wsim_sim::{Config, Machine};

fn bench(c: &mut Criterion, program: &str, preset: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("programs/build").join(format!("{program}.elf"));
    let elf = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: run `make -C programs` first", path.display()));
    let file = format!("{preset}.toml");
    let text = std::fs::read_to_string(root.join("configs").join(&file)).unwrap();
    let config = Config::from_toml(&text, &file).unwrap();
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
    group.bench_function(format!("{program}/{preset}"), |b| b.iter(run));
    group.finish();
}

fn simulation(c: &mut Criterion) {
    bench(c, "ubench_stream", "sparseweaver");
    bench(c, "ubench_stream", "vortex");
    bench(c, "launches", "sparseweaver");
}

criterion_group!(benches, simulation);
criterion_main!(benches);
