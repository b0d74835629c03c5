#!/usr/bin/env bash
# Issue 44's validation of the sampler within a budget of detail: each chapter-4 experiment
# the issue names (Table 4.5 at its quick and medium sizes, Figures 4.10, 4.17, 4.18 and
# 4.19 at their quick sizes; Figure 4.10's again with units of 20k inside the launches),
# its `*-budget` profile (the default reading, at most a tenth
# of the warp instructions in detail) run both in full detail and sampled, into
# docs/results/sampling/budget/ (docs/ARCHITECTURE.md, "Sampled simulation", items 15,
# 17 and 18). About an hour on two cores.
#
# Usage: scripts/validate-budget.sh [OPTION ...]
#   Options go to every `wsim experiment validate-sampling`, e.g. `--graphs RN,UK` (every
#   experiment here has both) or `--jobs 2`. WSIM=path picks the binary (default:
#   target/release/wsim).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
wsim=${WSIM:-$root/target/release/wsim}
out=$root/docs/results/sampling/budget
mkdir -p "$out"
for run in table4_5:quick-budget table4_5:medium-budget fig4_10:quick-budget \
    fig4_10:quick-20k-budget fig4_17:quick-budget fig4_18:quick-budget fig4_19:quick-budget; do
    experiment=${run%%:*}
    profile=${run#*:}
    table=$out/$experiment-${profile%-budget}.csv
    echo "validate-budget: $experiment, profile $profile -> $table" >&2
    "$wsim" experiment validate-sampling "$root/experiments/dissertation/$experiment.toml" \
        --profile "$profile" -o "$table" "$@"
done
