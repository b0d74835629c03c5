#!/usr/bin/env python3
"""Markdown table of a graph-matrix CSV (wsim sweep --csv over the graph programs): cycles
per (algorithm, direction) and schedule, and SparseWeaver's speedup over VM, EM and the
fastest software schedule. A run that did not verify shows its status instead of cycles.

Usage: scripts/graph_table.py FILE.csv"""
import csv
import sys

SOFTWARE = ["vm", "em", "wm", "cm", "twc", "twce", "strict"]
SCHEDULES = SOFTWARE + ["sparseweaver", "eghw"]
HEADS = ["VM", "EM", "WM", "CM", "TWC", "TWCE", "STRICT", "SW", "EGHW"]


def main(path):
    cycles, bad = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            algo, sched, direction = row["program"].split("_")
            key = (algo, direction)
            if row["exit"] == "0" and row["verified"] == "yes":
                cycles[key, sched] = int(row["cycles"])
            else:
                bad[key, sched] = f"exit {row['exit']}, {row['verified']}"
    keys = sorted({k for k, _ in list(cycles) + list(bad)})
    print("| kernel | " + " | ".join(HEADS) + " | SW/VM | SW/EM | SW/best SW |")
    print("| --- " * (len(HEADS) + 4) + "|")
    for key in keys:
        cells = []
        for s in SCHEDULES:
            c = cycles.get((key, s))
            cells.append(f"{c:,}" if c is not None else bad.get((key, s), "-"))
        sw = cycles.get((key, "sparseweaver"))

        def speedup(base):
            return f"{base / sw:.2f}x" if sw and base else "-"

        best = min((cycles[key, s] for s in SOFTWARE if (key, s) in cycles), default=None)
        print(f"| {key[0]} {key[1]} | " + " | ".join(cells) + " | "
              + " | ".join(speedup(b) for b in
                           (cycles.get((key, "vm")), cycles.get((key, "em")), best)) + " |")
    if bad:
        print(f"\n{len(bad)} run(s) did not verify.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
