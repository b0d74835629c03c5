#!/usr/bin/env bash
# The seven GCN programs (docs/GCN.md) on one graph: each run's JSON report, and a
# Markdown table and CSV of cycles per launch group (init, SpMM, preprocessing, GraphSum:
# the iteration records) with SparseWeaver's speedups over VM by weight
# (scripts/gcn_table.py). EGHW runs with weaver.mode=eghw.
#
# Usage: scripts/gcn-matrix.sh [-c CONFIG] [-o DIR] [-n NAME] GRAPH [run options...]
#   GRAPH: a file or gen:... spec; extra options (--symmetrize, --features 64, --set k=v)
#   go to every run. Writes DIR/NAME/<kernel>.json, DIR/NAME.csv and DIR/NAME.md (default
#   DIR results/, NAME from the graph). Needs `make -C programs` and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
config=configs/sparseweaver.toml out=results name=
while getopts "c:o:n:" opt; do
    case $opt in
        c) config=$OPTARG ;;
        o) out=$OPTARG ;;
        n) name=$OPTARG ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n 7,11p "$0"; exit 2; }
graph=$1
shift
if [ -z "$name" ]; then
    name=$(basename "$graph")
    name=gcn_${name%%.*}
    name=${name//[:=,]/_}
fi
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
[ -x "$wsim" ] || { echo "no $wsim: run cargo build --release" >&2; exit 2; }
mkdir -p "$out/$name"
# A run that fails or does not verify makes the script fail; the table still lists it.
status=0
for kernel in vm sparseweaver eghw gnnadvisor accel_gcn tlpgnn bikd; do
    mode=()
    [ "$kernel" = eghw ] && mode=(--set weaver.mode=eghw)
    "$wsim" run -c "$config" "${mode[@]}" --graph "$graph" "$@" --json "$out/$name/$kernel.json" \
        "programs/build/gcn/gcn_$kernel.elf" > /dev/null || status=$?
done
python3 scripts/gcn_table.py "$out/$name" "$out/$name.csv" > "$out/$name.md"
cat "$out/$name.md"
exit $status
