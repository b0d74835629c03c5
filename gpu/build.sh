#!/usr/bin/env bash
# Build gpu/pagerank (the schedules' CUDA kernels and their driver) with nvcc: machine code
# for the H200 (sm_90), the A30 (sm_80) and the RTX 4090 (sm_89), the dissertation's two
# GPUs, and PTX that newer GPUs' drivers compile. Usage: gpu/build.sh [OUTPUT]
# (default gpu/build/pagerank). Exit status 3 when there is no nvcc on PATH.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-build/pagerank}
if ! command -v nvcc >/dev/null; then
    echo "gpu/build.sh: no nvcc on PATH (the CUDA toolkit builds gpu/pagerank)" >&2
    exit 3
fi
mkdir -p "$(dirname "$out")"
nvcc -O3 -std=c++17 -lineinfo \
    -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_89,code=sm_89 \
    -gencode arch=compute_90,code='[sm_90,compute_90]' \
    -Xcompiler -fopenmp,-Wall,-Wextra \
    -o "$out" pagerank.cu -lgomp
