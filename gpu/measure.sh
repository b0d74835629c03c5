#!/usr/bin/env bash
# The GPU measurements of issue 48 (docs/GPU.md), on a machine with an NVIDIA GPU, nvcc
# and, for Figure 4.4, Nsight Compute: build gpu/pagerank; check every schedule in both
# forms on small graphs against the host reference; time PageRank pull (3 iterations)
# under every schedule on Table 4.3's stand-ins at the quick sizes (the graphs wsim's quick
# profile simulates) and at the paper's (Figure 4.3); profile the dissertation form on HW
# with Nsight Compute (Figure 4.4), and the other graphs for the simulator-against-silicon
# comparison (ncu-full, ncu-quick). The graphs are made here by wsim (`wsim graph gen`, binary
# CSR), the large ones in parallel while the small ones run.
#
#   gpu/measure.sh [--wsim PATH] [--out DIR] [--steps validate,quick,full,ncu,ncu-full,ncu-quick]
#                  [--full-graphs HW,UK,...] [--ncu-scale S] [--ncu-timeout SECONDS]
#
# Writes into DIR (default results/gpu): validate.csv, fig4_3_quick.csv, fig4_3_full.csv
# (rows in wsim's experiment-table form), ncu_raw.tar.gz (Nsight Compute's raw pages), env.txt
# (GPU, driver, toolkit, date) and measure.log. Exit status 1 when a result did not match
# the reference, 2 on another failure.
set -uo pipefail
cd "$(dirname "$0")/.."
wsim=target/release/wsim
out=results/gpu
steps=validate,quick,full,ncu,ncu-full,ncu-quick
full_graphs=HW,UK,G500,CO,BH,BM,WK,RN,RC
ncu_scale=1
ncu_timeout=300
while [ $# -gt 0 ]; do
    case $1 in
    --wsim) wsim=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --full-graphs) full_graphs=$2; shift 2 ;;
    --ncu-scale) ncu_scale=$2; shift 2 ;;
    --ncu-timeout) ncu_timeout=$2; shift 2 ;;
    *) echo "gpu/measure.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
log=$out/measure.log
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$log"; }
has() { [[ ",$steps," == *",$1,"* ]]; }
[ -x "$wsim" ] || { echo "gpu/measure.sh: no wsim at $wsim (--wsim PATH)" >&2; exit 2; }
tmp=${TMPDIR:-/tmp}/wsim-gpu.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
status=0
# The wsim that makes the graphs, as the experiment tables write a version (`0.1.0`).
version=$("$wsim" --version | head -1 | sed 's/^wsim //')

# The stand-ins (docs/GRAPHS.md) at the quick profile's scales (experiments/dissertation/
# fig4_10.toml) and at Table 4.3's sizes.
declare -A quick=([BH]=0.05 [BM]=0.03 [RN]=0.01 [RC]=0.002 [UK]=0.0125 [G500]=0.015625
    [CO]=0.005 [HW]=0.001 [WK]=0.003)
order=(BH BM RN RC UK G500 CO HW WK)

{
    date -u +'date %Y-%m-%dT%H:%M:%SZ'
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv
    nvcc --version | tail -2
    command -v ncu >/dev/null && ncu --version | tail -1
    echo "wsim $version"
    uname -sr
} >"$out/env.txt" 2>&1
cat "$out/env.txt" | tee -a "$log"

say "building gpu/pagerank"
gpu/build.sh "$tmp/pagerank" 2>&1 | tee -a "$log" || { say "build failed"; exit 2; }
pagerank=$tmp/pagerank

gen() { # NAME SPEC FILE
    "$wsim" graph gen "$2" --max-edges 300000000 --max-vertices 300000000 -o "$3" >>"$log" 2>&1
}
run() { # CSV PROFILE NAME SPEC FILE [pagerank options]
    local csv=$1 profile=$2 name=$3 spec=$4 file=$5
    shift 5
    "$pagerank" "$file" --graph "$name" --spec "$spec" --experiment fig4_3 --profile "$profile" \
        --wsim-version "$version" --csv "$csv" --iterations 3 "$@" 2>&1 | tee -a "$log"
    local s=${PIPESTATUS[0]}
    [ "$s" -eq 0 ] || { say "$name ($profile): pagerank exited $s"; status=$((s == 1 ? 1 : 2)); }
}

# Nsight Compute on the gather kernels of one PageRank iteration, the dissertation form:
# the Warp State section (Figure 4.4's stall reasons) and the counters set beside wsim's
# (SIMT efficiency, L2 hit rate, DRAM bytes, occupancy). Its raw page goes to
# ncu/NAME.csv, packed into ncu_raw.tar.gz at the end.
metrics=smsp__inst_issued.sum,smsp__inst_executed.sum,gpu__time_duration.sum,smsp__cycles_active.avg
extra=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active
profile() { # GRAPH FILE NAME
    mkdir -p "$tmp/ncu"
    local m
    for m in "$metrics,$extra" "$metrics"; do
        rm -f "$tmp/$3.ncu-rep"
        timeout "$ncu_timeout" ncu --clock-control none --section WarpStateStats --metrics "$m" \
            --kernel-name regex:'gather|twc_|strict_' -f -o "$tmp/$3" \
            "$pagerank" "$2" --graph "$1" --once --iterations 1 --forms dissertation >>"$log" 2>&1
        [ -f "$tmp/$3.ncu-rep" ] && break
        say "ncu on $1 wrote no report with metrics $m"
    done
    if [ -f "$tmp/$3.ncu-rep" ]; then
        ncu --import "$tmp/$3.ncu-rep" --csv --page raw >"$tmp/ncu/$3.csv" 2>>"$log"
    else
        status=2
    fi
    # Packed after each graph, so that a run stopped by a time limit keeps what it profiled.
    tar -C "$tmp/ncu" -czf "$out/ncu_raw.tar.gz" .
}

# The paper-size graphs start now, each on a core of its own, ready when their turn comes.
declare -A pid
if has full; then
    for g in ${full_graphs//,/ }; do
        gen "$g" "gen:table43:graph=$g,scale=1" "$tmp/$g-full.bcsr" &
        pid[$g]=$!
    done
fi
if has ncu; then
    if [ "$ncu_scale" != 1 ]; then
        gen HW "gen:table43:graph=HW,scale=$ncu_scale" "$tmp/HW-ncu.bcsr" &
        pid[ncu]=$!
    elif [ -z "${pid[HW]:-}" ]; then
        gen HW "gen:table43:graph=HW,scale=1" "$tmp/HW-full.bcsr" &
        pid[HW]=$!
    fi
fi

if has validate; then
    say "validate: every schedule, both forms, against the host reference"
    # Skewed and flat, sinks and isolated vertices, parallel edges and self-loops, hubs past
    # a block (TWC's and TWCE's large tier), fewer vertices than a warp, a real file.
    specs=(gen:rmat:scale=12,ef=8 gen:rmat:scale=16,ef=16 gen:uniform:v=5,e=40
        gen:grid:w=100,h=37 gen:powerlaw:v=3000,e=400000 gen:table43:graph=WK,scale=0.003)
    k=0
    for spec in "${specs[@]}"; do
        gen v$k "$spec" "$tmp/v$k.bcsr" && run "$out/validate.csv" validate "$spec" "$spec" "$tmp/v$k.bcsr" --warmup 1 --reps 2
        k=$((k + 1))
    done
    if [ -f data/graphs/email-Eu-core.txt.gz ]; then
        "$wsim" graph convert data/graphs/email-Eu-core.txt.gz -o "$tmp/email.bcsr" >>"$log" 2>&1 &&
            run "$out/validate.csv" validate email-Eu-core data/graphs/email-Eu-core.txt.gz "$tmp/email.bcsr" --warmup 1 --reps 2
    fi
fi

if has quick; then
    say "quick: the stand-ins at the quick profile's sizes"
    for g in "${order[@]}"; do
        spec="gen:table43:graph=$g,scale=${quick[$g]}"
        gen "$g" "$spec" "$tmp/$g-quick.bcsr" && run "$out/fig4_3_quick.csv" quick "$g" "$spec" "$tmp/$g-quick.bcsr" --warmup 3 --reps 21
    done
fi

if has full; then
    for g in ${full_graphs//,/ }; do
        say "full: waiting for $g"
        wait "${pid[$g]}" || { say "$g: generation failed"; status=2; continue; }
        say "full: $g"
        run "$out/fig4_3_full.csv" full "$g" "gen:table43:graph=$g,scale=1" "$tmp/$g-full.bcsr" --warmup 2 --reps 7
    done
fi

if has ncu; then
    if [ "$ncu_scale" = 1 ]; then file=$tmp/HW-full.bcsr; w=HW; else file=$tmp/HW-ncu.bcsr; w=ncu; fi
    wait "${pid[$w]}" 2>/dev/null
    say "ncu: HW at scale $ncu_scale"
    profile HW "$file" ncu_hw
fi
if has ncu-full; then
    for g in ${full_graphs//,/ }; do
        [ "$g" = HW ] && has ncu && [ "$ncu_scale" = 1 ] && continue
        [ -f "$tmp/$g-full.bcsr" ] || continue
        say "ncu: $g at scale 1"
        profile "$g" "$tmp/$g-full.bcsr" "ncu_$g"
    done
fi
if has ncu-quick; then
    for g in "${order[@]}"; do
        [ -f "$tmp/$g-quick.bcsr" ] || continue
        say "ncu: $g at the quick size"
        profile "$g" "$tmp/$g-quick.bcsr" "ncu_${g}_quick"
    done
fi
say "done, status $status"
exit $status
