#!/usr/bin/env bash
# Every graph program (programs/build/graph/manifest.tsv: algorithm x schedule x direction x
# form) on one graph: verification and cycles as CSV (wsim sweep --csv) and as Markdown
# tables, one per form, with SparseWeaver's speedups (scripts/graph_table.py).
#
# Usage: scripts/graph-matrix.sh [-c CONFIG] [-o DIR] [-n NAME] [-f FORM] [-a ALGOS] GRAPH [sweep options...]
#   GRAPH: a file or gen:... spec; extra options (--symmetrize, --iterations 5, --set k=v)
#   go to the sweep. -f keeps one form (dissertation, tuned; atomicfree comes with
#   dissertation), -a a comma-separated list of algorithms (pr,bfs,sssp,cc). Writes
#   DIR/NAME.csv and DIR/NAME.md (default DIR results/, NAME from the graph). Needs
#   `make -C programs` and a release build (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
config=configs/sparseweaver.toml out=results name= form= algos=
while getopts "c:o:n:f:a:" opt; do
    case $opt in
        c) config=$OPTARG ;;
        o) out=$OPTARG ;;
        n) name=$OPTARG ;;
        f) form=$OPTARG ;;
        a) algos=$OPTARG ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n 6,11p "$0"; exit 2; }
graph=$1
shift
if [ -z "$name" ]; then
    name=$(basename "$graph")
    name=${name%%.*}
    name=${name//[:=,]/_}
fi
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
manifest=programs/build/graph/manifest.tsv
[ -x "$wsim" ] || { echo "no $wsim: run cargo build --release" >&2; exit 2; }
[ -f "$manifest" ] || { echo "no $manifest: run make -C programs" >&2; exit 2; }
mkdir -p "$out"
# The manifest's programs of the chosen form and algorithms (atomicfree goes with the
# dissertation form, whose table has its column).
programs=$(awk -F'\t' -v form="$form" -v algos=",$algos," 'NR > 1 &&
    (form == "" || $5 == form || (form == "dissertation" && $5 == "atomicfree")) &&
    (algos == ",," || index(algos, "," $2 ",")) { print "programs/build/graph/" $1 ".elf" }' "$manifest")
# A run that fails or does not verify fails the sweep (status 1, listed on stderr); the
# table is still written, and the script then exits with that status.
status=0
# shellcheck disable=SC2086
"$wsim" sweep --csv -c "$config" --graph "$graph" "$@" $programs > "$out/$name.csv" || status=$?
python3 scripts/graph_table.py "$out/$name.csv" > "$out/$name.md"
cat "$out/$name.md"
exit $status
