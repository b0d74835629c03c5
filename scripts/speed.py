#!/usr/bin/env python3
"""Compare the simulation speed of two wsim binaries side by side.

Each job runs with the old and the new binary in turn, ROUNDS times (default 5); the script
prints the fastest wall time of each and their ratio (new / old: below 1 is faster).
Interleaving the runs spreads a shared machine's noise over both.

Usage: scripts/speed.py OLD_WSIM NEW_WSIM [--rounds N] [--graph SPEC]
Jobs: the stream microbenchmark, PageRank pull through the Weaver and under VM (one
iteration) on the sparseweaver preset, BFS push (VM) on tiny.
"""
import argparse
import pathlib
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--graph", default="gen:rmat:scale=10,ef=8")
    a = ap.parse_args()
    build, configs = ROOT / "programs/build", ROOT / "configs"
    jobs = {
        "ubench_stream, sparseweaver": [
            "--config", configs / "sparseweaver.toml", build / "ubench_stream.elf"],
        "pr_sparseweaver_pull, sparseweaver": [
            "--config", configs / "sparseweaver.toml", "--graph", a.graph,
            build / "graph/pr_sparseweaver_pull.elf"],
        "pr_vm_pull, sparseweaver": [
            "--config", configs / "sparseweaver.toml", "--graph", a.graph,
            "--iterations", "1", build / "graph/pr_vm_pull.elf"],
        "bfs_vm_push, tiny": [
            "--config", configs / "tiny.toml", "--graph", a.graph,
            build / "graph/bfs_vm_push.elf"],
    }
    for name, args in jobs.items():
        best = {"old": float("inf"), "new": float("inf")}
        for _ in range(a.rounds):
            for which in ("old", "new"):
                start = time.perf_counter()
                subprocess.run([getattr(a, which), "run", *map(str, args)],
                               stdout=subprocess.DEVNULL, check=True)
                best[which] = min(best[which], time.perf_counter() - start)
        print(f"{name:40} old {best['old']:7.3f}s  new {best['new']:7.3f}s  "
              f"new/old {best['new'] / best['old']:.3f}")


if __name__ == "__main__":
    main()
