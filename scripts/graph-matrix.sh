#!/usr/bin/env bash
# Every graph program (algorithm x schedule x direction) on one graph: verification and
# cycles as CSV (wsim sweep --csv) and as a Markdown table with SparseWeaver's speedups
# (scripts/graph_table.py). EGHW programs run with weaver.mode=eghw.
#
# Usage: scripts/graph-matrix.sh [-c CONFIG] [-o DIR] [-n NAME] GRAPH [sweep options...]
#   GRAPH: a file or gen:... spec; extra options (--symmetrize, --iterations 5, --set k=v)
#   go to both sweeps. Writes DIR/NAME.csv and DIR/NAME.md (default DIR results/, NAME
#   from the graph). Needs `make -C programs` and a release build (scripts/setup.sh).
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
[ $# -ge 1 ] || { sed -n 6,10p "$0"; exit 2; }
graph=$1
shift
if [ -z "$name" ]; then
    name=$(basename "$graph")
    name=${name%%.*}
    name=${name//[:=,]/_}
fi
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
[ -x "$wsim" ] || { echo "no $wsim: run cargo build --release" >&2; exit 2; }
mkdir -p "$out"
software=$(ls programs/build/graph/*.elf | grep -v _eghw_)
eghw=$(ls programs/build/graph/*_eghw_*.elf)
# A run that fails or does not verify fails its sweep (status 1, listed on stderr); the
# table is still written, and the script then exits with that status.
status=0
"$wsim" sweep --csv -c "$config" --graph "$graph" "$@" $software > "$out/$name.csv" || status=$?
"$wsim" sweep --csv -c "$config" --graph "$graph" --set weaver.mode=eghw "$@" $eghw |
    tail -n +2 >> "$out/$name.csv" || status=$?
python3 scripts/graph_table.py "$out/$name.csv" > "$out/$name.md"
cat "$out/$name.md"
exit $status
