#!/usr/bin/env python3
"""The GCN programs' JSON reports (scripts/gcn-matrix.sh) as a CSV and a Markdown table:
cycles of the whole run and of each launch group, read from the iteration records whose
value is the kernel (programs/gcn/gcn.h: 0 init, 1 SpMM, 2 preprocessing, 3 GraphSum), and
SparseWeaver's speedups over VM by weight.

Usage: gcn_table.py DIR CSV  (DIR holds <kernel>.json; the Markdown goes to stdout)"""
import csv
import json
import sys

KERNELS = ["vm", "sparseweaver", "eghw", "gnnadvisor", "accel_gcn", "tlpgnn", "bikd"]
RECORDS = {0: "init", 1: "spmm", 2: "prepare", 3: "graphsum"}


def row(path):
    doc = json.load(open(path))
    graph = doc.get("graph") or {}
    r = {"kernel": graph.get("schedule", "?"), "cycles": doc["cycles"], "result": graph.get("result", doc["status"])}
    for name in RECORDS.values():
        r[name] = 0
    for rec in doc["iterations"]:
        r[RECORDS[rec["active"]]] += rec["cycles"]
    return r


def main():
    rows = []
    for k in KERNELS:
        try:
            rows.append(row(f"{sys.argv[1]}/{k}.json"))
        except FileNotFoundError:
            rows.append({"kernel": k, "result": "no report"})
    fields = ["kernel", "cycles", "init", "spmm", "prepare", "graphsum", "result"]
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    fmt = lambda x: f"{x:,}" if isinstance(x, int) else str(x)
    print("| kernel | cycles | init | SpMM | preprocessing | GraphSum | result |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        print("| " + " | ".join(fmt(r.get(k, "")) for k in fields) + " |")
    vm, sw = rows[0], rows[1]
    if "cycles" in vm and "cycles" in sw:
        ratio = lambda k: f"{vm[k] / sw[k]:.2f}x" if sw[k] else "-"
        print(f"\nSparseWeaver over VM by weight: {ratio('cycles')} (SpMM {ratio('spmm')}, GraphSum {ratio('graphsum')})")


main()
