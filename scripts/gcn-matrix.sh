#!/usr/bin/env bash
# The seven GCN programs (docs/GCN.md) on one graph: each run's JSON report, and a
# Markdown table and CSV of cycles per launch group (init, SpMM, preprocessing, GraphSum:
# the iteration records) with SparseWeaver's speedups over VM by weight
# (`wsim tables gcn`). EGHW runs with weaver.mode=eghw.
#
# Usage: [CONFIG=FILE] [OUT=DIR] [NAME=NAME] scripts/gcn-matrix.sh GRAPH [run options...]
#   GRAPH: a file or gen:... spec; the options (--symmetrize, --features 64, --set k=v) go
#   to every run. Writes OUT/NAME/<design>.json, OUT/NAME.csv and OUT/NAME.md (defaults:
#   configs/sparseweaver.toml, results/, gcn_ and the graph's name). Needs
#   `make -C programs` and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n 7,11p "$0"; exit 2; }
graph=$1
shift
config=${CONFIG:-configs/sparseweaver.toml}
out=${OUT:-results}
stem=$(basename "$graph")
stem=${stem%%.*}
name=${NAME:-gcn_${stem//[:=,]/_}}
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
[ -x "$wsim" ] || { echo "no $wsim: run cargo build --release" >&2; exit 2; }
mkdir -p "$out/$name"
# A run that fails or does not verify makes the script fail; the table still lists it.
status=0
reports=()
for design in vm sparseweaver eghw gnnadvisor accel_gcn tlpgnn bikd; do
    reports+=("$out/$name/$design.json")
    mode=()
    [ "$design" = eghw ] && mode=(--set weaver.mode=eghw)
    "$wsim" run -c "$config" "${mode[@]}" --graph "$graph" "$@" --json "$out/$name/$design.json" \
        "programs/build/gcn/gcn_$design.elf" > /dev/null || status=$?
done
"$wsim" tables gcn "${reports[@]}" --csv "$out/$name.csv" > "$out/$name.md"
cat "$out/$name.md"
exit $status
