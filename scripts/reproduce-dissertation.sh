#!/usr/bin/env bash
# Reproduce chapter 4 of the SparseWeaver dissertation: every experiment of
# experiments/dissertation/ under one profile, then docs/RESULTS.md from their tables (and
# those of the other profile, where it ran) beside the paper's numbers.
#
# Usage: scripts/reproduce-dissertation.sh [quick|full] [experiment run options...]
#   quick (default): stand-ins of 50k-300k edges, about 25 minutes on 2 cores;
#   full: Table 4.3's sizes (days of CPU: see docs/RESULTS.md; `--graphs`/`--programs`
#   run part of it, `wsim experiment slurm` a job array). Needs `make -C programs` and a
#   release build (scripts/setup.sh --no-run does both).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-quick}
shift || true
wsim=${CARGO_TARGET_DIR:-target}/release/wsim
[ -x "$wsim" ] || { echo "no $wsim: run scripts/setup.sh --no-run" >&2; exit 2; }
status=0
# The experiments wsim runs; an [external] one's table was measured elsewhere (a real GPU's,
# docs/GPU.md; Figure 4.2's by scripts/fig4_2.py) and is committed beside the figures: the
# report reads it from results/ like the others.
run=()
for file in experiments/dissertation/*.toml; do
    experiment=$(basename "$file" .toml)
    if grep -q '^\[external\]' "$file"; then
        for table in docs/results/dissertation/"$experiment"/*.csv; do
            [ -f "$table" ] || continue
            kept=results/$experiment/$(basename "$table" .csv)/$experiment.csv
            [ -f "$kept" ] || { mkdir -p "$(dirname "$kept")" && cp "$table" "$kept"; }
            "$wsim" experiment plot "$file" --profile "$(basename "$table" .csv)" || status=$?
        done
    elif grep -q '^\[\[programs\]\]' "$file"; then
        run+=("$file")
    fi
done
"$wsim" experiment run "${run[@]}" --profile "$profile" "$@" || status=$?
"$wsim" experiment report experiments/dissertation-paper.toml \
    -o docs/RESULTS.md --figures docs/results/dissertation
# The tables beside the figures, so that a clone has what the page was computed from.
for table in results/*/*/*.csv; do
    [ -f "$table" ] || continue
    experiment=$(basename "$(dirname "$(dirname "$table")")")
    [ -f "experiments/dissertation/$experiment.toml" ] || continue
    mkdir -p "docs/results/dissertation/$experiment"
    cp "$table" "docs/results/dissertation/$experiment/$(basename "$(dirname "$table")").csv"
done
exit $status
