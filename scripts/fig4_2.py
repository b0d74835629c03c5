#!/usr/bin/env python3
"""Figure 4.2 (dissertation lines 1284, 1300): expected warp iterations of PageRank's gather
under VM, EM and WM on BH and G500, beside the warp iterations wsim measures and its
speedups over VM.

Expected warp iterations of one pull super-step, from the graph's in-degrees d(v) with warps
of T = 32 lanes (the chapter's lockstep: a warp takes as many iterations as its busiest
lane):
  VM  sum over warps of 32 consecutive destinations of max d(v) (a lane walks its vertex);
  EM  ceil(E / 32) (a lane takes an edge);
  WM  sum over warps of 32 consecutive destinations of ceil(sum d(v) / 32) (the warp's
      edges dealt over its lanes).
Measured: wsim's count of warp-level atomic instructions of the dissertation form's
pr_{vm,em,wm}_pull (programs/graph: the gather adds each edge with one amoadd.f, and
PageRank has no other atomic), per super-step. The rows of `size` quick simulate the quick
stand-ins on configs/sparseweaver.toml (3 iterations, each run verified against the host
reference); those of `size` paper count the expected iterations of the paper-size
stand-ins only (no simulation).

Usage: scripts/fig4_2.py [--wsim target/release/wsim] [--results results]
Writes RESULTS/fig4_2/quick/fig4_2.csv (wsim's experiment-table form) for
`wsim experiment plot experiments/dissertation/fig4_2.toml` and the report.
"""

import argparse
import array
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

WARP = 32
ITERATIONS = 3
CONFIG = "configs/sparseweaver.toml"
GRAPHS = [("BH", "quick", "gen:table43:graph=BH,scale=0.05"),
          ("G500", "quick", "gen:table43:graph=G500,scale=0.015625"),
          ("BH", "paper", "gen:table43:graph=BH,scale=1"),
          ("G500", "paper", "gen:table43:graph=G500,scale=1")]
SCHEDULES = [("VM", "vm"), ("EM", "em"), ("WM", "wm")]
HEADER = ("experiment,profile,reading,run,program,algorithm,schedule,direction,form,vertices,"
          "edges,source,iterations,graph,graph_spec,graph_options,size,config,config_hash,"
          "wsim_version,status,exit,verified,cycles,warp_instructions,simt_efficiency,"
          "expected_warp_iterations,measured_warp_iterations,verdict,error,host_seconds").split(",")


def fail(message):
    sys.exit("scripts/fig4_2.py: " + message)


def in_degrees(wsim, spec, tmp):
    """The graph's in-degrees, through a binary CSR file (docs/GRAPHS.md)."""
    path = os.path.join(tmp, "g.bcsr")
    subprocess.run([wsim, "graph", "gen", spec, "--max-edges", "300000000", "-o", path],
                   check=True, stdout=subprocess.DEVNULL)
    with open(path, "rb") as f:
        if f.read(8) != b"WSIMBCSR":
            fail(path + " is not a binary CSR file")
        header = array.array("I")
        header.fromfile(f, 4)
        if sys.byteorder != "little":
            header.byteswap()
        vertices, edges = header[1], header[2]
        offsets = array.array("I")
        offsets.fromfile(f, vertices + 1)
        targets = array.array("I")
        targets.fromfile(f, edges)
    if sys.byteorder != "little":
        targets.byteswap()
    degree = [0] * vertices
    for t in targets:
        degree[t] += 1
    return degree, edges


def expected(degree, edges):
    groups = [degree[i:i + WARP] for i in range(0, len(degree), WARP)]
    return {
        "VM": sum(max(g) for g in groups),
        "EM": -(-edges // WARP),
        "WM": sum(-(-sum(g) // WARP) for g in groups),
    }


def simulate(wsim, spec, program, tmp):
    report = os.path.join(tmp, "run.json")
    done = subprocess.run([wsim, "run", "-c", CONFIG, "--graph", spec, "--max-edges", "300000000",
                           "--iterations", str(ITERATIONS), "--json", report, "-q", program],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(report):
        fail("%s on %s: %s" % (program, spec, done.stderr.strip()))
    with open(report) as f:
        return json.load(f), done.returncode


def version(wsim):
    """As the experiment tables write it: `0.1.0 (commit)`, `-modified` when the sources
    differ from the commit (the build that runs is this checkout's)."""
    out = subprocess.run([wsim, "--version"], capture_output=True, text=True, check=True)
    number = out.stdout.strip().removeprefix("wsim ")
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short=12", "HEAD")
    if not commit:
        return number
    sources = ["src", "sim", "isa", "graph", "workloads", "harness", "Cargo.toml", "Cargo.lock"]
    dirty = git("status", "--porcelain", "--", *sources)
    return "%s (%s%s)" % (number, commit, "-modified" if dirty else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wsim", default="target/release/wsim")
    ap.add_argument("--results", default="results")
    args = ap.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    wsim_version = version(args.wsim)
    status = 0
    profile = "quick"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, size, spec in GRAPHS:
            degree, edges = in_degrees(args.wsim, spec, tmp)
            want = expected(degree, edges)
            for schedule, stem in SCHEDULES:
                program = "programs/build/graph/pr_%s_pull.elf" % stem
                row = {h: "" for h in HEADER}
                row.update({
                    "experiment": "fig4_2", "profile": profile, "run": len(rows),
                    "program": "pr_%s_pull" % stem, "algorithm": "PageRank",
                    "schedule": schedule, "direction": "pull", "form": "dissertation",
                    "vertices": len(degree), "edges": edges, "iterations": ITERATIONS,
                    "graph": name, "graph_spec": spec,
                    "graph_options": "--max-edges=300000000", "size": size,
                    "expected_warp_iterations": want[schedule],
                    "wsim_version": wsim_version, "status": "ok", "verified": "-",
                    "verdict": "ok",
                })
                if size == "quick":
                    report, code = simulate(args.wsim, spec, program, tmp)
                    verified = report["graph"]["result"] == "verified"
                    atomics = report["total"]["atomics"]
                    if atomics % ITERATIONS:
                        fail("%s on %s: %d atomics are not %d equal super-steps"
                             % (program, name, atomics, ITERATIONS))
                    row.update({
                        "config": "../../" + CONFIG, "config_hash": report["config_hash"],
                        "exit": report["exit_code"], "cycles": report["cycles"],
                        "warp_instructions": report["total"]["instructions"],
                        "simt_efficiency": "%.6f" % report["simt_efficiency"],
                        "measured_warp_iterations": atomics // ITERATIONS,
                        "verified": "yes" if verified else "NO",
                        "verdict": "ok" if verified and code == 0 else "mismatch",
                        "host_seconds": "%.3f" % report["host"]["seconds"],
                    })
                    status |= not verified
                rows.append(row)
                print("%s %s %s: expected %s, measured %s, cycles %s" % (
                    size, name, schedule, row["expected_warp_iterations"],
                    row["measured_warp_iterations"] or "-", row["cycles"] or "-"))
    out = os.path.join(args.results, "fig4_2", profile, "fig4_2.csv")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("wrote " + out)
    sys.exit(status)


if __name__ == "__main__":
    main()
