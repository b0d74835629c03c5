#!/usr/bin/env python3
"""Compare the simulation speed of two wsim binaries side by side (issue 32's benchmark).

Each job runs with the old and the new binary in turn, ROUNDS times: interleaving spreads
a shared machine's noise over both. Every run is a child process whose CPU time (user +
sys) and peak resident memory come from os.wait4. Per job the script prints the simulated
cycles, then for old and new the warp and thread instructions per CPU-second (of the
round with the least CPU time, the least disturbed), the wall time of that round and the
peak RSS, and the new/old ratios; at the end the geometric mean of the speed ratios. The
whole process is timed: loading, graph generation and verification count, as a user
waits for them. The `sim` column divides by the simulation's own seconds instead (the
report's host.seconds, wall clock: read it on a quiet machine): on a short job such as
a, whose graph's generation takes as long as its functional run, that is the engine's
speed.

The two binaries must report the same statistics (the JSON report without `host`): a
job whose statistics differ is marked DIFFERENT and the script exits with status 1.
IGNORE="key ..." leaves top-level keys out of the comparison (one the new binary adds).

Usage: scripts/speed.py OLD_WSIM NEW_WSIM [--rounds N] [--jobs a,b,...]
           [--old-args "..."] [--new-args "..."] [--road FILE] [--json FILE]
  --old-args/--new-args add options to one side's runs, e.g. the same binary twice with
  --new-args "--threads 2" to measure parallel simulation (compare the wall times then), or
  --new-args=--functional to measure the functional mode against the detailed one (the
  cycles column is the detailed run's).
Jobs (programs/build must be built):
  a  PageRank pull under SparseWeaver, R-MAT scale 14 symmetrized, 1 iteration, sparseweaver
  b  BFS push under VM on road-usroads-48 (537 super-steps, mostly idle cores), sparseweaver
  c  ubench_stream on the vortex preset (one core, memory-bound)
  d  a GCN layer (GNNAdvisor, F = 16) on facebook_combined symmetrized, sparseweaver
  e  launches: 40 launches of a local-barrier tree, sparseweaver
"""
import argparse
import json
import math
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "programs/build"
CONFIGS = ROOT / "configs"


def jobs(road):
    sw = ["--config", CONFIGS / "sparseweaver.toml"]
    return {
        "a": ("pr_sparseweaver_pull rmat14", sw + [
            "--graph", "gen:rmat:scale=14,ef=16,permute=1", "--symmetrize",
            "--iterations", "1", BUILD / "graph/pr_sparseweaver_pull.elf"]),
        "b": ("bfs_vm_push road-usroads-48", sw + [
            "--graph", road, BUILD / "graph/bfs_vm_push.elf"]),
        "c": ("ubench_stream vortex", [
            "--config", CONFIGS / "vortex.toml", BUILD / "ubench_stream.elf"]),
        "d": ("gcn_gnnadvisor facebook F16", sw + [
            "--graph", ROOT / "data/graphs/facebook_combined.txt.gz", "--symmetrize",
            "--features", "16", BUILD / "gcn/gcn_gnnadvisor.elf"]),
        "e": ("launches", sw + [BUILD / "launches.elf"]),
    }


def run(binary, args, extra):
    """One run: (statistics without `host`, CPU seconds, wall seconds, peak RSS in MiB, the
    simulation's own seconds: the report's `host.seconds`, without loading, the graph's
    generation and the verification)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = pathlib.Path(tmp) / "stats.json"
        cmd = [binary, "run", *map(str, args), *extra, "--json", str(report)]
        start = time.perf_counter()
        with open(pathlib.Path(tmp) / "stderr", "w+") as err:
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0 or not report.exists():
                err.seek(0)
                sys.exit(f"{shlex.join(map(str, cmd))}: exit status {child.returncode}\n"
                         f"{err.read()}")
        stats = json.loads(report.read_text())
    simulation = (stats.get("host") or {}).get("seconds")
    for key in ["host", *os.environ.get("IGNORE", "").split()]:
        stats.pop(key, None)
    # ru_maxrss is in KiB on Linux.
    return stats, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, simulation


def same_work(old, new):
    """Both runs did the same work: identical statistics, or, where one side ran with
    --functional (no timing, so no timing statistics), the same ending: exit status and the
    graph's verification (the work of a racing kernel follows the interleaving;
    tests/functional.rs says what agrees exactly)."""
    if "functional" not in (old.get("mode"), new.get("mode")):
        return old == new
    ending = [(s.get("exit_code"), (s.get("graph") or {}).get("result")) for s in (old, new)]
    return ending[0] == ending[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", default="a,b,c,d,e")
    ap.add_argument("--old-args", default="")
    ap.add_argument("--new-args", default="")
    ap.add_argument("--road", default=str(ROOT / "data/graphs/road-usroads-48.mtx.gz"))
    ap.add_argument("--json", help="also write the measurements to this file")
    a = ap.parse_args()
    table = jobs(a.road)
    chosen = a.jobs.split(",")
    unknown = [j for j in chosen if j not in table]
    if unknown:
        sys.exit(f"unknown job(s) {', '.join(unknown)}: choose from {', '.join(table)}")
    extra = {"old": shlex.split(a.old_args), "new": shlex.split(a.new_args)}
    binaries = {"old": a.old, "new": a.new}
    print(f"{'job':30} {'cycles':>10} | {'old Mwarp/s':>11} {'sim':>6} {'Mthr/s':>7} "
          f"{'wall s':>7} {'RSS MB':>7} | {'new Mwarp/s':>11} {'sim':>6} {'Mthr/s':>7} "
          f"{'wall s':>7} {'RSS MB':>7} | {'speed':>6} {'wall':>6} {'RSS':>5}")
    results, ratios, different = [], [], False
    for key in chosen:
        name, args = table[key]
        best = {}
        stats = {}
        for _ in range(a.rounds):
            for side in ("old", "new"):
                s, cpu, wall, rss, simulation = run(binaries[side], args, extra[side])
                stats[side] = s
                if side not in best or cpu < best[side]["cpu"]:
                    best[side] = {"cpu": cpu, "wall": wall, "rss": rss,
                                  "simulation_s": simulation}
        same = same_work(stats["old"], stats["new"])
        different |= not same
        total = stats["new"]["total"]
        warp, thread = total["instructions"], total["thread_instructions"]
        cycles = stats["new"].get("cycles", stats["old"].get("cycles", 0))
        row = {"job": key, "name": name, "cycles": cycles,
               "warp_instructions": warp, "thread_instructions": thread, "same": same}
        cells = []
        for side in ("old", "new"):
            b = best[side]
            sim = warp / b["simulation_s"] if b["simulation_s"] else float("nan")
            row[side] = {**b, "warp_per_s": warp / b["cpu"], "thread_per_s": thread / b["cpu"],
                         "simulation_warp_per_s": sim}
            cells.append(f"{warp / b['cpu'] / 1e6:11.3f} {sim / 1e6:6.2f} "
                         f"{thread / b['cpu'] / 1e6:7.2f} {b['wall']:7.2f} {b['rss']:7.1f}")
        speed = best["old"]["cpu"] / best["new"]["cpu"]
        ratios.append(speed)
        row["speed_ratio"] = speed
        row["wall_ratio"] = best["old"]["wall"] / best["new"]["wall"]
        row["rss_ratio"] = best["new"]["rss"] / best["old"]["rss"]
        results.append(row)
        mark = "" if same else "  DIFFERENT statistics"
        print(f"{key + ' ' + name:30} {row['cycles']:>10} | {cells[0]} | {cells[1]} | "
              f"{speed:6.2f} {row['wall_ratio']:6.2f} {row['rss_ratio']:5.2f}{mark}",
              flush=True)
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean of the speed ratios (new/old instructions per CPU-second): "
          f"{geomean:.2f} over {len(ratios)} job(s); load average {os.getloadavg()[0]:.2f}")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(
            {"old": a.old, "new": a.new, "rounds": a.rounds, "jobs": results,
             "geomean_speed_ratio": geomean}, indent=2) + "\n")
    if different:
        print("DIFFERENT: the binaries' statistics differ (see the marked jobs)")
        sys.exit(1)


if __name__ == "__main__":
    main()
