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
"$wsim" experiment run experiments/dissertation/*.toml --profile "$profile" "$@" || status=$?
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
