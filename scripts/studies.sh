#!/usr/bin/env bash
# The dissertation's sensitivity studies of SparseWeaver (chapter 4.6) with PageRank pull
# (5 iterations) on the sparseweaver preset, as CSV in results/studies/ and printed:
#   skewness  Figure 4.11: VM, EM, SparseWeaver on power-law graphs of 1.9M edges and
#             10k..80k vertices (wsim graph gen powerlaw: skewness grows with V)
#   memory    Figure 4.12: VM, EM, SparseWeaver at core:DRAM clock ratios 1..6 (R-MAT 14)
#   latency   Figure 4.15: SparseWeaver with table latencies 10..160 on 8 cores (R-MAT 12)
# Usage: scripts/studies.sh [skewness] [memory] [latency] [-- SWEEP OPTIONS...]
#   (default: all three); options after -- go to every sweep, e.g.
#   -- --set memory.l2.write_policy=write-back (docs/results/memory_writeback.csv)
# Needs `make -C programs` and a release build (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
[ -x "$wsim" ] || { echo "no $wsim: run cargo build --release" >&2; exit 2; }
out=results/studies
mkdir -p "$out"
pr="programs/build/graph/pr_vm_pull.elf programs/build/graph/pr_em_pull.elf programs/build/graph/pr_sparseweaver_pull.elf"
studies=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do studies+=("$1"); shift; done
[ $# -gt 0 ] && shift
extra=("$@")
[ ${#studies[@]} -gt 0 ] || studies=(skewness memory latency)
sweep() { "$wsim" sweep --csv -c configs/sparseweaver.toml --iterations 5 ${extra[@]+"${extra[@]}"} "$@"; }
for study in "${studies[@]}"; do
    case $study in
        skewness)
            for v in 10000 12000 16000 20000 40000 80000; do
                # One header: the first sweep's, with the vertex count's column.
                sweep --graph "gen:powerlaw:v=$v,e=1900000" $pr |
                    sed "1s/^/vertices,/; 2,\$ s/^/$v,/" | { [ $v = 10000 ] && cat || tail -n +2; }
            done > "$out/skewness.csv" ;;
        memory)
            sweep --graph gen:rmat:scale=14,ef=16 --vary memory.dram.clock_ratio=1,2,3,4,5,6 $pr > "$out/memory.csv" ;;
        latency)
            sweep --graph gen:rmat:scale=12,ef=16 --set gpu.clusters=1 --set gpu.cores_per_cluster=8 \
                --vary weaver.table_latency=10,20,40,80,160 programs/build/graph/pr_sparseweaver_pull.elf \
                > "$out/latency.csv" ;;
        *) echo "unknown study $study (skewness, memory, latency)" >&2; exit 2 ;;
    esac
    echo "== $study ($out/$study.csv)"
    cat "$out/$study.csv"
done
