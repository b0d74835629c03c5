#!/usr/bin/env python3
"""Figure 4.4's table from Nsight Compute's raw pages (gpu/measure.sh's ncu_raw.tar.gz).

Per graph and schedule, the warp states of the gather kernels of one PageRank pull
iteration (dissertation form), grouped as the dissertation's Figure 4.4 groups them (its
footnote, line 1304 of the text):

  stall_memory                long scoreboard   (waiting on a global/local memory result)
  stall_shared                short scoreboard  (waiting on shared memory, MIO results)
  stall_mio                   MIO throttle      (the memory input/output queue is full)
  stall_execution_dependency  wait              (a fixed-latency dependency)
  stall_l1_queue              LG throttle       (the L1's local/global queue is full)
  stall_other                 every other reason (selected, not selected, branch
                              resolving, dispatch, drain, barrier, ...)

each in warp cycles per issued instruction (ncu's
smsp__average_warps_issue_stalled_REASON_per_issue_active.ratio), so that they add up to
warp_cycles_per_instruction (smsp__average_warp_latency_per_inst_issued.ratio), the figure's
"warp per instruction". A schedule of several kernels (TWC: 4, STRICT: 4) weighs each
kernel's ratios by its issued instructions (smsp__inst_issued.sum), which gives the ratio of
the sums. Beside them the counters set against wsim's columns: SIMT efficiency (threads per
executed instruction / 32), L2 hit rate (sectors, weighted by duration across kernels),
DRAM bytes, achieved occupancy.

Usage: gpu/tables.py NCU_DIR --fig4-3 TABLE.csv --log measure.log --profile full|quick \
           --out fig4_4.csv [--date YYYY-MM-DD] [--ncu-version TEXT]
NCU_DIR holds ncu_GRAPH.csv (ncu_hw.csv for HW) at the full size, ncu_GRAPH_quick.csv at the
quick size. The graphs' vertices, edges, specs and the GPU come from the Figure 4.3 table of
the same profile; a schedule whose profiled run did not match the host reference (the log
says so) is marked verified NO.
"""

import argparse
import csv
import os
import re
import sys

GROUPS = {
    "long_scoreboard": "memory",
    "short_scoreboard": "shared",
    "mio_throttle": "mio",
    "wait": "execution_dependency",
    "lg_throttle": "l1_queue",
}
ORDER = ["memory", "shared", "mio", "execution_dependency", "l1_queue", "other"]
STALL = re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")
KERNEL = re.compile(r"(gather_(\w+)|twc_\w+|strict_\w+)[<(]")
SCHEDULE = {"vm": "VM", "em": "EM", "emsearch": "EM-search", "wm": "WM", "cm": "CM",
            "twce": "TWCE"}
FILE = {"VM": "vm", "EM": "em", "EM-search": "emsearch", "WM": "wm", "CM": "cm", "TWC": "twc",
        "TWCE": "twce", "STRICT": "strict"}

HEADER = ("experiment,profile,reading,run,program,algorithm,schedule,direction,form,vertices,"
          "edges,source,iterations,graph,graph_spec,graph_options,config,config_hash,"
          "wsim_version,status,exit,verified,kernels,instructions_issued,gpu_milliseconds,"
          "simt_efficiency,l2_hit_rate,dram_bytes,occupancy,warp_cycles_per_instruction,"
          + ",".join("stall_" + g for g in ORDER) + ",ncu,date,verdict,error").split(",")


def fail(message):
    sys.exit("gpu/tables.py: " + message)


def schedule_of(kernel):
    m = KERNEL.search(kernel)
    if not m:
        fail("kernel %r is none of the schedules' gather kernels" % kernel)
    if m.group(2):
        return SCHEDULE[m.group(2)]
    return "TWC" if m.group(1).startswith("twc_") else "STRICT"


def read_raw(path):
    """ncu --page raw --csv: a header row, a units row, then a row per kernel launch."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 3:
        fail("%s has no kernel rows" % path)
    header, units = rows[0], rows[1]
    out = []
    for row in rows[2:]:
        d = dict(zip(header, row))
        d["_units"] = dict(zip(header, units))
        out.append(d)
    return out


def number(d, name, required=True):
    text = d.get(name, "").replace(",", "")
    if text in ("", "n/a"):
        if required:
            fail("kernel %s has no %s" % (d.get("Kernel Name"), name))
        return None
    value = float(text)
    unit = d["_units"].get(name, "")
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
             "ns": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1, "msecond": 1, "s": 1e3,
             "nsecond": 1e-6, "second": 1e3}
    if name.startswith("dram__bytes") or name == "gpu__time_duration.sum":
        if unit not in scale:
            fail("unit %r of %s is not known" % (unit, name))
        value *= scale[unit]
    return value


def combine(kernels):
    """One schedule's kernels: the stall groups and the counters, as described above."""
    issued = [number(k, "smsp__inst_issued.sum") for k in kernels]
    total = sum(issued)
    groups = {g: 0.0 for g in ORDER}
    latency = 0.0
    for k, n in zip(kernels, issued):
        w = n / total
        for name in k:
            m = STALL.match(name)
            if m:
                groups[GROUPS.get(m.group(1), "other")] += w * number(k, name)
        latency += w * number(k, "smsp__average_warp_latency_per_inst_issued.ratio")
    executed = [number(k, "smsp__inst_executed.sum") for k in kernels]
    threads = sum(e * number(k, "smsp__thread_inst_executed_per_inst_executed.ratio")
                  for k, e in zip(kernels, executed))
    ms = [number(k, "gpu__time_duration.sum") for k in kernels]
    hit = [number(k, "lts__t_sector_hit_rate.pct", False) for k in kernels]
    dram = [(number(k, "dram__bytes_read.sum", False), number(k, "dram__bytes_write.sum", False))
            for k in kernels]
    occupancy = [number(k, "sm__warps_active.avg.pct_of_peak_sustained_active", False)
                 for k in kernels]
    by_time = lambda xs: (None if None in xs
                          else sum(x * t for x, t in zip(xs, ms)) / sum(ms))
    return {
        "kernels": len(kernels),
        "instructions_issued": int(total),
        "gpu_milliseconds": sum(ms),
        "simt_efficiency": threads / sum(executed) / 32,
        "l2_hit_rate": None if None in hit else by_time(hit) / 100,
        "dram_bytes": None if any(None in d for d in dram) else int(sum(r + w for r, w in dram)),
        "occupancy": None if None in occupancy else by_time(occupancy) / 100,
        "warp_cycles_per_instruction": latency,
        **{"stall_" + g: v for g, v in groups.items()},
    }


def mismatches(log):
    """(graph file stem, schedule) pairs whose profiled run did not match, from the log's
    `ncu: GRAPH at ...` sections and the driver's `SCHEDULE dissertation on G: N ranks
    differ` lines."""
    bad, section = set(), None
    with open(log) as f:
        for line in f:
            m = re.search(r"\] ncu: (\w+) at (scale 1|the quick size|scale [0-9.]+)", line)
            if m:
                g, where = m.groups()
                section = ("ncu_hw" if g == "HW" and where != "the quick size"
                           else "ncu_%s%s" % (g, "_quick" if where == "the quick size" else ""))
                continue
            m = re.match(r"pagerank: (\S+) dissertation on \S+: \d+ ranks differ", line)
            if m and section:
                bad.add((section, m.group(1)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ncu_dir")
    ap.add_argument("--fig4-3", required=True, dest="fig4_3")
    ap.add_argument("--log", required=True)
    ap.add_argument("--profile", required=True, choices=["full", "quick"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--date", default="")
    ap.add_argument("--ncu-version", default="")
    args = ap.parse_args()

    with open(args.fig4_3, newline="") as f:
        timed = [r for r in csv.DictReader(f) if r["profile"] == args.profile]
    graphs = []
    for r in timed:
        if r["graph"] not in graphs:
            graphs.append(r["graph"])
    bad = mismatches(args.log)
    rows = []
    for g in graphs:
        stem = ("ncu_hw" if g == "HW" and args.profile == "full"
                else "ncu_%s%s" % (g, "_quick" if args.profile == "quick" else ""))
        path = os.path.join(args.ncu_dir, stem + ".csv")
        if not os.path.exists(path):
            continue
        first = next(r for r in timed if r["graph"] == g)
        by_schedule = {}
        for k in read_raw(path):
            by_schedule.setdefault(schedule_of(k["Kernel Name"]), []).append(k)
        for s in FILE:
            if s not in by_schedule:
                fail("%s has no kernel of %s" % (path, s))
            row = {h: "" for h in HEADER}
            ok = (stem, s) not in bad
            row.update({
                "experiment": "fig4_4", "profile": args.profile, "run": len(rows),
                "program": "pr_%s_pull" % FILE[s], "algorithm": "PageRank", "schedule": s,
                "direction": "pull", "form": "dissertation", "vertices": first["vertices"],
                "edges": first["edges"], "iterations": 1, "graph": g,
                "graph_spec": first["graph_spec"], "config": first["config"],
                "wsim_version": first["wsim_version"], "status": "ok", "exit": 0,
                "verified": "yes" if ok else "NO", "ncu": args.ncu_version,
                "date": args.date, "verdict": "ok" if ok else "mismatch",
            })
            for key, value in combine(by_schedule[s]).items():
                row[key] = ("" if value is None else value if isinstance(value, int)
                            else "%.6f" % value)
            rows.append(row)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("%s: %d rows" % (args.out, len(rows)))


if __name__ == "__main__":
    main()
