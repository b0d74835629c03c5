#!/usr/bin/env python3
"""Sampled against full detail (docs/ARCHITECTURE.md, "Sampled simulation"): run each job
of the list in detail and sampled, and tabulate the estimate's error, whether its 95%
interval covers the detailed cycles, the share of warp instructions simulated in detail,
and the CPU seconds of each. measured_vs_detail_pct splits the error: the measured units'
cycles against the same units' in the full-detail run (what the warm-up misses); the rest
of the error is the estimate's (which units were measured).

  scripts/validate-sampling.py [--wsim PATH] [--every K] [--warmup U] [--period N] [--threads N]
                               [--cold-caches] [--cluster D] [--check U] [--no-progress]
                               [--set KEY=VALUE]...
                               [--jobs NAME,...]
                               [-o TABLE.csv]

Each job's sampled run must verify (graph programs check their result against the host
reference) and end as the detailed one does; the script fails otherwise."""
import argparse
import csv
import json
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
B = ROOT / "programs/build"
SW = ["--config", str(ROOT / "configs/sparseweaver.toml")]
ROAD = str(ROOT / "data/graphs/road-usroads-48.mtx.gz")


def g(prog):
    return str(B / "graph" / f"{prog}.elf")


JOBS = {
    "pr-vm-rmat12-i20": SW + ["--graph", "gen:rmat:scale=12,ef=16,permute=1", "--symmetrize",
                              "--iterations", "20", g("pr_vm_pull")],
    "pr-sw-rmat12-i20": SW + ["--graph", "gen:rmat:scale=12,ef=16,permute=1", "--symmetrize",
                              "--iterations", "20", g("pr_sparseweaver_pull")],
    "pr-em-rmat12-i20": SW + ["--graph", "gen:rmat:scale=12,ef=16,permute=1", "--symmetrize",
                              "--iterations", "20", g("pr_em_pull")],
    "bfs-vm-grid": SW + ["--graph", "gen:grid:w=64,h=64", g("bfs_vm_push")],
    "bfs-vm-usroads": SW + ["--graph", ROAD, g("bfs_vm_push")],
    "sssp-sw-grid": SW + ["--graph", "gen:grid:w=48,h=48", g("sssp_sparseweaver_push")],
    "cc-twc-rmat12": SW + ["--graph", "gen:rmat:scale=12,ef=8", "--symmetrize", g("cc_twc_push")],
    # Long launches: one PageRank iteration, one GCN layer.
    "pr-sw-rmat14-i1": SW + ["--graph", "gen:rmat:scale=14,ef=16,permute=1", "--symmetrize",
                             "--iterations", "1", g("pr_sparseweaver_pull")],
    "pr-vm-rmat14-i1": SW + ["--graph", "gen:rmat:scale=14,ef=16,permute=1", "--symmetrize",
                             "--iterations", "1", g("pr_vm_pull")],
    "gcn-gnnadvisor-fb16": SW + ["--graph", str(ROOT / "data/graphs/facebook_combined.txt.gz"),
                                 "--symmetrize", "--features", "16",
                                 str(B / "gcn/gcn_gnnadvisor.elf")],
    # At the paper's size (Figure 4.10's RN, 1,971,282 vertices, 751 to 1,101 launches):
    # one to several minutes in detail, so not among the default jobs.
    "bfs-vm-rn-full": SW + ["--graph", "gen:table43:graph=RN,scale=1", g("bfs_vm_push")],
    "bfs-sw-rn-full": SW + ["--graph", "gen:table43:graph=RN,scale=1", g("bfs_sparseweaver_push")],
    "sssp-sw-rn-full": SW + ["--graph", "gen:table43:graph=RN,scale=1",
                             g("sssp_sparseweaver_push")],
    # Figure 4.10's pulls on RN at a tenth of its size (the experiment's source, the hub):
    # launches of 100k-740k warp instructions, each refilling the L2 (the warm-up check's
    # bound, sampler/src/lib.rs `REFILLS`); one and two minutes in detail.
    "bfs-vm-pull-rn-tenth": SW + ["--graph", "gen:table43:graph=RN,scale=0.1", "--source-hub",
                                  g("bfs_vm_pull")],
    "sssp-vm-pull-rn-tenth": SW + ["--graph", "gen:table43:graph=RN,scale=0.1", "--source-hub",
                                   g("sssp_vm_pull")],
}
DEFAULT_JOBS = [j for j in JOBS if not j.endswith(("-full", "-tenth"))]


def run(wsim, args, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "r.json"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([wsim, "run", *args, *extra, "--json", str(out)],
                           capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if p.returncode != 0 or not out.exists():
            sys.exit(f"{' '.join(args + extra)}: exit {p.returncode}\n{p.stderr[-2000:]}")
        return json.loads(out.read_text()), cpu


def unit_cycles(detailed, units):
    """The cycles the measured units took in the full-detail run, from its launch records
    (a unit runs from the end of its first launch's predecessor to the end of its last
    launch, the last unit to the run's end); units inside launches are left out."""
    ends = [0] + [l["start_cycle"] + l["cycles"] for l in detailed["launches"]]
    total = 0
    for u in units:
        if not u["whole_launches"]:
            continue
        to = ends[u["launches_to"]] if u["launches_to"] > u["launches_from"] else detailed["cycles"]
        total += to - ends[u["launches_from"]]
    return total


def finding(check):
    """The interleaving check's finding in a word, as `Interleaving::finding` words it."""
    if check is None:
        return ""
    if not check["reached"]:
        return "elsewhere"
    if check["moved_thread_instructions"] > 0:
        return "work"
    return "places" if check["moved_warp_instructions"] > 0 else "same"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wsim", default=str(ROOT / "target/release/wsim"))
    # The sampler's defaults (sampler/src/plan.rs).
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--period", type=int, default=0,
                    help="end units inside launches (--sample-period)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cold-caches", action="store_true",
                    help="do not warm the caches functionally (--sample-warm-caches=false)")
    ap.add_argument("--cluster", type=float,
                    help="the diameter of a cluster of launches, 0: octaves (--sample-cluster; "
                         "wsim run's default without it)")
    ap.add_argument("--check", type=int, default=8,
                    help="units of warm-up of the warm-up check, 0: none (--sample-check)")
    ap.add_argument("--no-progress", action="store_true",
                    help="do not scale launch bodies by the cores' progress "
                         "(--sample-progress=false)")
    ap.add_argument("--whole-short-runs", action="store_true",
                    help="let a run whose plan costs three quarters of it be simulated whole "
                         "(--sample-exact-fallback, wsim run's default; off here: the "
                         "sampler's estimate is what is validated)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a configuration override for every job (both runs)")
    ap.add_argument("--jobs", default=",".join(DEFAULT_JOBS),
                    help=f"of {', '.join(JOBS)} (default: all but the -full and -tenth ones)")
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    rows = []
    for name in a.jobs.split(","):
        args = [w for kv in a.set for w in ("--set", kv)] + JOBS[name]
        d, dcpu = run(a.wsim, args, [])
        s, scpu = run(a.wsim, args, ["--sample", "--sample-every", str(a.every),
                                     "--sample-period", str(a.period),
                                     "--sample-warmup", str(a.warmup),
                                     "--sample-threads", str(a.threads),
                                     "--sample-check", str(a.check)]
                    + ([] if a.cluster is None else ["--sample-cluster", str(a.cluster)])
                    + ["--sample-warm-caches=" + ("false" if a.cold_caches else "true")]
                    + ["--sample-progress=" + ("false" if a.no_progress else "true")]
                    + ["--sample-exact-fallback=" + ("true" if a.whole_short_runs else "false")])
        p = s["sampling"]
        for r, how in [(d, "detailed"), (s, "sampled")]:
            graph = r.get("graph")
            if r["exit_code"] != 0 or (graph and graph.get("result") != "verified"):
                sys.exit(f"{name}: the {how} run did not end well")
        err = (p["cycles"] - d["cycles"]) / d["cycles"]
        measured = sum(u["cycles"] for u in p["measured"] if u["whole_launches"])
        # Where the work follows the interleaving (SSSP's super-steps), the functional run
        # can launch otherwise than the detailed one: then its units are not the detailed
        # run's, and the comparison is left blank.
        same = len(d["launches"]) == len(s["launches"])
        detailed = unit_cycles(d, p["measured"]) if same else 0
        # JSON has no infinity: an unbounded interval (a stratum or a check of one unit)
        # comes as nulls.
        low, high = p["cycles_low"], p["cycles_high"]
        rows.append({
            "job": name, "detailed_cycles": d["cycles"], "estimated_cycles": round(p["cycles"]),
            "error_pct": f"{100 * err:+.2f}",
            "interval_pct": "inf" if high is None else f"{100 * (high - p['cycles']) / p['cycles']:.2f}",
            "covered": "unbounded" if high is None else
                       "yes" if low <= d["cycles"] <= high else "no",
            # The sampled run's interleaving check (sampler/src/order.rs): work, places,
            # same or elsewhere; blank for a run simulated whole.
            "interleaving": finding(p.get("interleaving")),
            # Left blank where the units it can compare hold under 1% of the cycles.
            "measured_vs_detail_pct": f"{100 * (measured - detailed) / detailed:+.2f}"
                                      if detailed > d["cycles"] / 100 else "",
            # The functional run's warp instructions against the detailed run's: where the
            # work follows the interleaving, the part of the error that is the trajectory's.
            "instructions_vs_detail_pct": "{:+.2f}".format(
                100 * (s["total"]["instructions"] / d["total"]["instructions"] - 1)),
            "units": p["units"], "sampled_units": p["sampled_units"],
            "detailed_pct": f"{100 * p['detailed_instructions'] / max(1, p['instructions']):.1f}",
            "detailed_cpu_s": f"{dcpu:.2f}", "sampled_cpu_s": f"{scpu:.2f}",
            "cpu_ratio": f"{dcpu / max(scpu, 1e-9):.2f}",
        })
        print(rows[-1], flush=True)
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    errs = [abs(float(r["error_pct"])) for r in rows]
    follows = [r for r in rows if r["interleaving"] not in ("same", "")]
    others = [r for r in rows if r["interleaving"] in ("same", "")]

    def bounded_covering(side, their=""):
        bounded = [r for r in side if r["covered"] != "unbounded"]
        return f"{sum(r['covered'] == 'yes' for r in bounded)} of {their}{len(bounded)}"
    print(f"mean |error| {sum(errs) / len(errs):.2f}%, max {max(errs):.2f}%, "
          f"covered {sum(r['covered'] == 'yes' for r in rows)} of {len(rows)}"
          + (f" ({len(follows)} whose work follows the order, "
             f"{bounded_covering(follows, 'their ')} bounded covering; "
             f"the others {bounded_covering(others)})" if follows else ""))


if __name__ == "__main__":
    main()
