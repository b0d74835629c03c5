#!/usr/bin/env python3
"""docs/KERNELS.md's schedule tables from a kernels experiment's CSV (experiments/kernels.toml,
experiments/kernels-road.toml): one row per algorithm and direction, one cycles column per
schedule, SparseWeaver's speedup over VM, EM and EGHW, and the geometric mean of its speedup
over every schedule. A cell no run fills reads "not run", and a geomean over fewer rows
than the table's says how many. Refuses a table holding a run that did not verify.

Usage: kernels_table.py CSV [--form dissertation|tuned] [--algorithms BFS,SSSP,CC]
       [--schedules VM,EM,SparseWeaver,EGHW] [--mean-without PageRank]
       (the Markdown goes to stdout)
       kernels_table.py --doc DOC [--check]

--doc rewrites every table DOC marks as this script's output, between
`<!-- kernels_table.py ARGS -->` and `<!-- end kernels_table.py -->` (ARGS as above, CSV
relative to the repository); --check rewrites nothing and fails if a table differs from
what its CSV gives (tests/kernels_doc.rs)."""
import argparse
import csv
import math
import pathlib
import re
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- kernels_table\.py (.*?) -->\n)(.*?)(<!-- end kernels_table\.py -->)", re.S)

SCHEDULES = ["VM", "EM", "WM", "CM", "TWC", "TWCE", "STRICT", "SparseWeaver", "EGHW"]
ALGORITHMS = ["PageRank", "BFS", "SSSP", "CC"]
DIRECTIONS = ["pull", "push"]
SUBJECT = "SparseWeaver"
SPEEDUP_COLUMNS = ["VM", "EM", "EGHW"]


def cycles_by_cell(rows, form):
    cells = {}
    for r in rows:
        if r["form"] != form:
            continue
        if r["verified"] != "yes":
            sys.exit(f"kernels_table: run {r['run']} ({r['program']}) did not verify: {r['verified']}")
        cells[(r["algorithm"], r["direction"], r["schedule"])] = int(r["cycles"])
    return cells


def geomean(ratios):
    return math.exp(sum(map(math.log, ratios)) / len(ratios))


def means(cells, kernels, schedules):
    out = []
    for s in schedules:
        if s == SUBJECT:
            continue
        ratios = [cells[(a, d, s)] / cells[(a, d, SUBJECT)] for a, d in kernels
                  if (a, d, s) in cells and (a, d, SUBJECT) in cells]
        if ratios:
            partial = f" ({len(ratios)} of {len(kernels)} rows)" if len(ratios) < len(kernels) else ""
            out.append(f"{s} {geomean(ratios):.2f}x{partial}")
    return ", ".join(out)


def table(cells, algorithms, schedules, without):
    kernels = [(a, d) for a in algorithms for d in DIRECTIONS]
    speedups = [s for s in SPEEDUP_COLUMNS if s in schedules and s != SUBJECT]
    head = ["kernel", *schedules, *(f"SW/{s}" for s in speedups)]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for a, d in kernels:
        row = [f"{a} {d}"]
        row += [f"{cells[(a, d, s)]:,}" if (a, d, s) in cells else "not run" for s in schedules]
        sw = cells.get((a, d, SUBJECT))
        for s in speedups:
            base = cells.get((a, d, s))
            row.append(f"{base / sw:.2f}x" if sw and base else "n/a")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "geomean SW over each schedule: " + means(cells, kernels, schedules)]
    rest = [(a, d) for a, d in kernels if a not in without]
    if rest and rest != kernels:
        kept = [a for a in algorithms if a not in without]
        only = " and ".join(filter(None, [", ".join(kept[:-1]), kept[-1]]))
        lines.append(f"the same, {only} only: " + means(cells, rest, schedules))
    return lines


def render(argv, base):
    p = argparse.ArgumentParser(prog="kernels_table.py", description=__doc__.splitlines()[0])
    p.add_argument("csv")
    p.add_argument("--form", default="dissertation")
    p.add_argument("--algorithms", default=",".join(ALGORITHMS))
    p.add_argument("--schedules", default=",".join(SCHEDULES))
    p.add_argument("--mean-without", default="", help="a second geomean line without these algorithms")
    args = p.parse_args(argv)
    try:
        with open(base / args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"kernels_table: cannot read {args.csv}: {e.strerror}")
    algorithms = args.algorithms.split(",")
    schedules = args.schedules.split(",")
    without = [a for a in args.mean_without.split(",") if a]
    for name, wanted, known in (("algorithm", algorithms + without, ALGORITHMS), ("schedule", schedules, SCHEDULES)):
        unknown = [w for w in wanted if w not in known]
        if unknown:
            sys.exit(f"kernels_table: unknown {name} {', '.join(unknown)} (known: {', '.join(known)})")
    if SUBJECT not in schedules:
        sys.exit(f"kernels_table: the speedups are {SUBJECT}'s: --schedules must name it")
    lines = table(cycles_by_cell(rows, args.form), algorithms, schedules, without)
    # VM's atomic-free pull (section 2.4.1) is a variant of the dissertation form.
    if args.form == "dissertation":
        free = {a: c for (a, d, s), c in cycles_by_cell(rows, "atomicfree").items()}
        shown = [f"{a} {free[a]:,}" for a in algorithms if a in free]
        if shown:
            lines += ["", "VM atomic-free pull: " + ", ".join(shown)]
    return "\n".join(lines) + "\n"


def rewrite(doc, check):
    text = pathlib.Path(doc).read_text()
    if not BLOCK.search(text):
        sys.exit(f"kernels_table: {doc} marks no table as this script's output")
    stale = []

    def fresh(m):
        table = render(shlex.split(m.group(2)), ROOT)
        if table != m.group(3):
            stale.append(m.group(2))
        return m.group(1) + table + m.group(4)

    new = BLOCK.sub(fresh, text)
    if check:
        for args in stale:
            print(f"{doc}: the table of `kernels_table.py {args}` is not what its CSV gives", file=sys.stderr)
        sys.exit(1 if stale else 0)
    pathlib.Path(doc).write_text(new)


def main():
    if sys.argv[1:2] == ["--doc"] and len(sys.argv) in (3, 4):
        check = sys.argv[3:] == ["--check"]
        if len(sys.argv) == 4 and not check:
            sys.exit(f"kernels_table: unknown option {sys.argv[3]}")
        rewrite(sys.argv[2], check)
    else:
        sys.stdout.write(render(sys.argv[1:], pathlib.Path.cwd()))


if __name__ == "__main__":
    main()
