#!/usr/bin/env bash
# Check that two wsim binaries produce the same statistics: runs each program of the list
# on each preset with both and compares the JSON reports without the `host` object (the
# only part allowed to differ). For changes that must not change the model, e.g. speed-ups.
#
# Usage: scripts/same-stats.sh OLD_WSIM NEW_WSIM [PROGRAM.elf ...]
#   Programs default to a mix of kernels, microbenchmarks and the Weaver; presets are
#   tiny and sparseweaver (set PRESETS="..." to change); SET="key=value ..." adds
#   overrides, e.g. SET=core.scheduler=rr; ARGS="..." adds options to every run, e.g.
#   ARGS="--graph data/graphs/email-Eu-core.txt.gz" for the graph programs; IGNORE="key ..."
#   leaves top-level keys out of both (a key the new binary adds, e.g. launches). Programs whose
#   name says eghw run with weaver.mode=eghw. A run that fails must fail the same way with
#   both binaries (same message, same exit status). Needs jq.
set -euo pipefail

old=$1
new=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/programs/build
if [ $# -eq 0 ]; then
    set -- "$build"/{vecadd,simt_divergence,atomics,barriers,fp_conformance,mem_phases,ubench_chase,ubench_stride,ubench_shared,ubench_stream,weaver_edge_sum,eghw_edge_sum}.elf
fi
overrides=()
for kv in ${SET:-}; do
    overrides+=(--set "$kv")
done
# A missing program would fail the same way with both binaries and pass as "same".
for elf in "$@"; do
    [ -f "$elf" ] || { echo "same-stats: no program $elf (make -C programs?)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for preset in ${PRESETS:-tiny sparseweaver}; do
    for elf in "$@"; do
        mode=()
        case $(basename "$elf") in *eghw*) mode=(--set weaver.mode=eghw) ;; esac
        for bin in old new; do
            # A non-zero exit status still writes a report; a failed run writes none.
            code=0
            # shellcheck disable=SC2086
            "${!bin}" run --config "$root/configs/$preset.toml" "${overrides[@]}" "${mode[@]}" \
                ${ARGS:-} --json "$tmp/$bin.json" "$elf" >/dev/null 2>"$tmp/$bin.err" || code=$?
            if [ -s "$tmp/$bin.json" ]; then
                jq -S --arg ignore "${IGNORE:-}" \
                    'del(.host) | delpaths([$ignore | splits(" +") | select(. != "") | [.]])' \
                    "$tmp/$bin.json" >"$tmp/$bin.stats"
            else
                { echo "no report, exit status $code"; cat "$tmp/$bin.err"; } >"$tmp/$bin.stats"
            fi
            rm -f "$tmp/$bin.json"
        done
        if cmp -s "$tmp/old.stats" "$tmp/new.stats"; then
            echo "same      $preset $(basename "$elf")"
        else
            echo "DIFFERENT $preset $(basename "$elf")"
            diff "$tmp/old.stats" "$tmp/new.stats" | head -20
            status=1
        fi
    done
done
exit $status
