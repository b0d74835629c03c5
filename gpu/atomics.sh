#!/usr/bin/env bash
# The atomic path on silicon (issue 45 item 8, docs/GPU.md "Atomics"): build gpu/atomics.cu,
# run it, and profile its timed stream launches with Nsight Compute (DRAM bytes and the
# L2's atomic sectors, caches not flushed between launches, so that the first launch's
# lines are still in the L2 for the second).
#
#   gpu/atomics.sh [--out DIR]     (default results/gpu)
#
# Writes DIR/atomics.csv (gpu/atomics.cu's table), DIR/atomics_ncu.csv (Nsight Compute's,
# one row per stream launch and metric) and DIR/atomics_env.txt. Exit 1 when a result was
# wrong, 2 on another failure, 3 without nvcc.
set -uo pipefail
cd "$(dirname "$0")"
out=../results/gpu
while [ $# -gt 0 ]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    *) echo "gpu/atomics.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
command -v nvcc >/dev/null || { echo "gpu/atomics.sh: no nvcc on PATH" >&2; exit 3; }
mkdir -p "$out" build
nvcc -O3 -std=c++17 -lineinfo -gencode arch=compute_90,code='[sm_90,compute_90]' \
    -o build/atomics atomics.cu || exit 2
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -1; date -u; } > "$out/atomics_env.txt" 2>&1
build/atomics > "$out/atomics.csv" || exit $?
if command -v ncu >/dev/null; then
    ncu --kernel-name stream --cache-control none --csv \
        --metrics dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,gpu__time_duration.sum \
        build/atomics stream > "$out/atomics_ncu.csv" 2> "$out/atomics_ncu.log" || exit 2
fi
