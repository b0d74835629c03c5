#!/usr/bin/env python3
"""What chapter 4 at the paper's sizes costs in CPU, in full detail and sampled, estimated
from the runs that ran (docs/RESULTS.md, "Host time").

Every run of the chapter's experiments (Figures 4.10-4.19 and Table 4.5, the default
reading, their `full` profiles' runs: the quick table's runs on the graphs at scale 1) gets
its warp instructions I and cycles C at the paper's size: measured where a paper-size run
is in the committed tables, otherwise the quick run's scaled by the graph's edges, E_full /
E_quick, to a power k measured on the pairs that ran at both sizes (per algorithm,
direction and graph class, road or not; the median over the pairs). CPU is then a model
fitted on what ran at the paper's size: full detail, b * C (the detailed model's cost
follows cycles; b the ratio of the runs' sums, as the chapter's cost is a sum: least squares
weighed each run by its cycles squared, so that the largest run alone set b); sampled, a * I + b' * C (the functional pass over every instruction, and
the detailed units, which follow cycles), least squares over the sampled runs.

  scripts/chapter4-cost.py [-o TABLE.csv]

Writes per experiment and graph: runs, how many were measured at the paper's size, I and C
(billions), and the CPU-hours of each way; prints the model's coefficients and the
totals."""
import argparse
import csv
import math
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RES = ROOT / "docs/results/dissertation"
SAMPLING = ROOT / "docs/results/sampling"
ROAD = {"RN", "RC"}
# The chapter's experiments with a `full` profile that wsim runs (Figures 4.3 and 4.4 are
# silicon's; families, forms and machine go beyond the paper).
EXPERIMENTS = ["fig4_10", "fig4_11", "fig4_12", "fig4_13", "fig4_14", "fig4_15",
               "fig4_17", "fig4_18", "fig4_19", "table4_5"]


def rows(path):
    return list(csv.DictReader(open(path))) if path.exists() else []


def paper_edges():
    """Each Table 4.3 stand-in's edges at scale 1, from docs/GRAPHS.md's measured table."""
    edges, inside = {}, False
    for line in open(ROOT / "docs/GRAPHS.md"):
        if line.startswith("| name | V | E | avg | max (published) |"):
            inside = True
        elif inside and not line.startswith("|"):
            break
        elif inside and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            edges[cells[0]] = int(cells[2].replace(",", ""))
    if len(edges) != 9:
        sys.exit(f"chapter4-cost: docs/GRAPHS.md's measured table gave {len(edges)} stand-ins, not 9")
    return edges


def default_reading(r):
    return r["reading"] in ("", "default")


def klass(r):
    algorithm = r["algorithm"] or r["program"].split("_")[0]
    direction = r["direction"] or ""
    return (algorithm, direction, "road" if r["graph"] in ROAD else "skewed")


def key(r):
    return (r["graph"], r["program"], r.get("features") or "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default=str(SAMPLING / "chapter4-cost.csv"))
    args = ap.parse_args()
    e_full = paper_edges()

    # Paper-size runs: full detail (sampled empty) and sampled.
    measured = {}
    for exp in EXPERIMENTS:
        for r in rows(RES / exp / "full.csv") + rows(RES / exp / "sampled.csv"):
            measured.setdefault(exp, []).append(r)
    for r in rows(SAMPLING / "fig4_10-full-rn.csv"):
        measured.setdefault("fig4_10", []).append(r)

    # The exponents, from every experiment's pairs of a quick run and its paper-size run.
    ks = {}
    for exp in EXPERIMENTS:
        quick = {key(r): r for r in rows(RES / exp / "quick.csv") if r["status"] == "ok"}
        for f in measured.get(exp, []):
            q = quick.get(key(f))
            if not q:
                continue
            ratio = float(f["edges"]) / float(q["edges"])
            if ratio < 2:
                continue
            for col in ("warp_instructions", "cycles"):
                k = math.log(float(f[col]) / float(q[col])) / math.log(ratio)
                ks.setdefault((col,) + klass(q), []).append(k)
                ks.setdefault((col, klass(q)[0]), []).append(k)

    def exponent(col, r):
        got = ks.get((col,) + klass(r)) or ks.get((col, klass(r)[0]))
        if not got:
            sys.exit(f"chapter4-cost: no paper-size pair measures how {r['program']} scales")
        return statistics.median(got)

    # The CPU model, fitted on the paper-size runs.
    def sampled(r):
        return r.get("sampled") == "yes"
    detail = [(float(r["cycles"]), float(r["host_seconds"]))
              for runs in measured.values() for r in runs
              if not sampled(r) and r["host_seconds"] and r["reading"] == "default"]
    b = sum(s for _, s in detail) / sum(c for c, _ in detail)
    samp = {}
    for runs in measured.values():
        for r in runs:
            if sampled(r):
                samp[(r["experiment"], r["graph"], r["program"], r.get("features", ""))] = (
                    float(r["warp_instructions"]), float(r["cycles"]), float(r["host_seconds"]))
    samp = list(samp.values())
    sii = sum(i * i for i, _, _ in samp)
    sic = sum(i * c for i, c, _ in samp)
    scc = sum(c * c for _, c, _ in samp)
    sis = sum(i * s for i, _, s in samp)
    scs = sum(c * s for _, c, s in samp)
    det = sii * scc - sic * sic
    a = (sis * scc - scs * sic) / det
    b_s = (sii * scs - sic * sis) / det
    if a <= 0 or b_s <= 0:
        sys.exit(f"chapter4-cost: the sampled fit is not positive (a {a:.3g}, b' {b_s:.3g})")
    # How far the fits miss the runs they were fitted on (host time varies with the host's
    # load by a fifth or more, docs/SPEED.md).
    miss_d = [b * c / s - 1 for c, s in detail]
    miss_s = [(a * i + b_s * c) / s - 1 for i, c, s in samp]

    out = []
    totals = [0, 0, 0.0, 0.0, 0.0, 0.0]
    for exp in EXPERIMENTS:
        quick = [r for r in rows(RES / exp / "quick.csv") if default_reading(r) and r["status"] == "ok"]
        if exp == "fig4_19":
            quick = [r for r in quick if r["features"] == "16"]
        paper = {}
        for r in measured.get(exp, []):
            if r["reading"] == "default" or exp == "fig4_10":
                paper[key(r)] = r
        by_graph = {}
        for q in quick:
            f = paper.get(key(q))
            if f:
                i, c = float(f["warp_instructions"]), float(f["cycles"])
            else:
                full_e = e_full.get(q["graph"], None)
                ratio = full_e / float(q["edges"]) if full_e else 10.0  # Figure 4.11: tenfold
                i = float(q["warp_instructions"]) * ratio ** exponent("warp_instructions", q)
                c = float(q["cycles"]) * ratio ** exponent("cycles", q)
            g = by_graph.setdefault(q["graph"], [0, 0, 0.0, 0.0, 0.0, 0.0])
            g[0] += 1
            g[1] += 1 if f else 0
            g[2] += i
            g[3] += c
            g[4] += b * c
            g[5] += a * i + b_s * c
        for graph, g in sorted(by_graph.items()):
            out.append([exp, graph, g[0], g[1], f"{g[2] / 1e9:.2f}", f"{g[3] / 1e9:.2f}",
                        f"{g[4] / 3600:.1f}", f"{g[5] / 3600:.1f}"])
            totals = [t + v for t, v in zip(totals, g)]
    out.append(["all", "", totals[0], totals[1], f"{totals[2] / 1e9:.2f}", f"{totals[3] / 1e9:.2f}",
                f"{totals[4] / 3600:.1f}", f"{totals[5] / 3600:.1f}"])
    with open(args.output, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["experiment", "graph", "runs", "measured", "warp_instructions_g", "cycles_g",
                    "detail_cpu_hours", "sampled_cpu_hours"])
        w.writerows(out)
    print(f"model: full detail {b * 1e6:.2f} s per million cycles ({len(detail)} runs, "
          f"{min(miss_d):+.0%} to {max(miss_d):+.0%}); sampled {a * 1e6:.3f} s per million warp "
          f"instructions + {b_s * 1e6:.3f} s per million cycles ({len(samp)} runs, "
          f"{min(miss_s):+.0%} to {max(miss_s):+.0%})")
    print(f"chapter 4 at the paper's sizes: {totals[0]} runs ({totals[1]} measured), "
          f"{totals[2] / 1e9:.0f}G warp instructions, {totals[3] / 1e9:.0f}G cycles; "
          f"full detail {totals[4] / 3600:.0f} CPU-hours, sampled {totals[5] / 3600:.0f}")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
