#!/usr/bin/env python3
"""Markdown tables of a graph-matrix CSV (wsim sweep --csv over the graph programs), one
per form (docs/KERNELS.md): cycles per (algorithm, direction) and schedule, and
SparseWeaver's speedup over VM (the dissertation's table also over VM without atomics,
section 2.4.1), EM, EGHW and the fastest software schedule. A run that did not verify
shows its status instead of cycles. Program names are <algo>_<sched>_<dir>[_<form>], as
programs/build/graph/manifest.tsv lists them.

Usage: scripts/graph_table.py FILE.csv"""
import csv
import sys

SOFTWARE = ["vm", "em", "wm", "cm", "twc", "twce", "strict"]
SCHEDULES = SOFTWARE + ["sparseweaver", "eghw"]
HEADS = ["VM", "EM", "WM", "CM", "TWC", "TWCE", "STRICT", "SW", "EGHW"]
# The atomic-free VM (VM pull only) is a column of the dissertation form's table.
ATOMIC_FREE = ("vm", "atomicfree")


def main(path):
    cycles, bad = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            algo, sched, direction, *form = row["program"].split("_")
            form = form[0] if form else "dissertation"
            if form == "atomicfree":
                form, sched = "dissertation", ATOMIC_FREE
            key = (form, algo, direction)
            if row["exit"] == "0" and row["verified"] == "yes":
                cycles[key, sched] = int(row["cycles"])
            else:
                bad[key, sched] = f"exit {row['exit']}, {row['verified']}"
    forms = sorted({k[0] for k, _ in list(cycles) + list(bad)})
    for form in forms:
        table(form, cycles, bad)
    if bad:
        print(f"\n{len(bad)} run(s) did not verify.")


def table(form, cycles, bad):
    columns = list(SCHEDULES)
    heads = list(HEADS)
    if form == "dissertation":
        columns.insert(1, ATOMIC_FREE)
        heads.insert(1, "VM no atomics")
    bases = [("SW/VM", "vm")] + ([("SW/VM no atomics", ATOMIC_FREE)] if form == "dissertation" else [])
    bases += [("SW/EM", "em"), ("SW/EGHW", "eghw")]
    keys = sorted({k for k, _ in list(cycles) + list(bad) if k[0] == form})
    print(f"\n{form} form\n")
    print("| kernel | " + " | ".join(heads) + " | "
          + " | ".join(b for b, _ in bases) + " | SW/best SW |")
    print("| --- " * (len(heads) + len(bases) + 2) + "|")
    for key in keys:
        cells = []
        for s in columns:
            c = cycles.get((key, s))
            cells.append(f"{c:,}" if c is not None else bad.get((key, s), "-"))
        sw = cycles.get((key, "sparseweaver"))

        def speedup(base):
            return f"{base / sw:.2f}x" if sw and base else "-"

        best = min((cycles[key, s] for s in SOFTWARE if (key, s) in cycles), default=None)
        print(f"| {key[1]} {key[2]} | " + " | ".join(cells) + " | "
              + " | ".join(speedup(cycles.get((key, s))) for _, s in bases)
              + f" | {speedup(best)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
