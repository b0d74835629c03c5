#!/usr/bin/env python3
"""Run wsim programs on wsim and on Vortex SimX v3 and compare warp instructions and cycles.

SimX is not part of this repository, and neither is a way to build it. The script expects a
SimX binary that prints `SIMX_PERF core=N cycles=C instrs=I` per core after the run (each
core's mcycle and minstret) and, with the environment variable SIMX_ALL_CORES=1, starts
one single-lane block on every core (multi-core machines); docs/CORRELATION.md says how
the recorded numbers were obtained.

For every program the script
  1. scans the ELF's executable sections (section headers, SHF_EXECINSTR) for instructions
     SimX cannot run: wsim's private CSRs 0x7C0-0x7C6 (phase, Weaver, iteration), Weaver
     instructions (CUSTOM1, CUSTOM0 funct7=2), atomics (opcode AMO; SimX builds without A
     by default; noted, since SimX only fails if one executes). A CSR access that only
     writes (rd = x0) becomes a NOP in a temporary copy for SimX; a read (rd != x0) cannot
     be removed, so such a program, like one with Weaver instructions, is listed, not run;
  2. runs wsim (`wsim run --config CONFIG [--set K=V]... --json`) on the original ELF and
     SimX on the copy, each with a timeout;
  3. prints per program the warp instructions on each (they must be equal), the cycles on
     each, the ratio wsim / SimX, and the geometric mean of the ratios of the programs that
     ran on both with equal instructions. Programs that could not be compared are listed
     with the reason, never dropped.

Usage:
  scripts/simx-compare.py [--simx PATH] [--wsim PATH] [--config FILE] [--set K=V]...
                          [--all-cores] [--timeout S] [--csv] [--record FILE --label NAME]
                          [PROGRAM.elf ...]
SimX comes from --simx or the environment variable SIMX; wsim defaults to
target/release/wsim; the programs default to programs/build/*.elf (build them with
`make -s -C programs -j2`). `--record FILE` appends SimX's numbers (program, config,
simx_cycles, simx_instructions) to a CSV data file for the correlation test.
"""
import argparse
import csv
import json
import math
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

NOP = 0x00000013            # addi x0, x0, 0
WSIM_CSRS = range(0x7C0, 0x7C7)
SHF_EXECINSTR = 0x4
OP_SYSTEM, OP_AMO, OP_CUSTOM0, OP_CUSTOM1 = 0x73, 0x2F, 0x0B, 0x2B


def exec_sections(data):
    """(name, file offset, size) of every executable section of a 32-bit little-endian ELF."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a 32-bit little-endian ELF")
    e_shoff, = struct.unpack_from("<I", data, 0x20)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    headers = [struct.unpack_from("<IIIIIIIIII", data, e_shoff + i * e_shentsize)
               for i in range(e_shnum)]
    strtab = headers[e_shstrndx][4] if e_shstrndx < e_shnum else None

    def name(h):
        if strtab is None:
            return "?"
        end = data.index(b"\0", strtab + h[0])
        return data[strtab + h[0]:end].decode()

    SHT_PROGBITS = 1
    return [(name(h), h[4], h[5]) for h in headers
            if h[1] == SHT_PROGBITS and h[2] & SHF_EXECINSTR]


def scan(data):
    """Find what SimX cannot run. Returns (patched bytes, nopped count, blockers, notes):
    blockers stop the program from running on SimX; notes (atomics, which SimX only fails
    on if they execute, e.g. on a verification failure path) explain a later failure."""
    out = bytearray(data)
    nopped, blockers, notes = 0, [], []
    for sec, off, size in exec_sections(data):
        for o in range(off, off + size - 3, 4):
            w, = struct.unpack_from("<I", data, o)
            if w & 3 != 3:
                continue  # not a 32-bit encoding (wsim programs have no C extension)
            op, rd, f3 = w & 0x7F, (w >> 7) & 0x1F, (w >> 12) & 7
            f7 = w >> 25
            if op == OP_SYSTEM and f3 in (1, 2, 3, 5, 6, 7) and (w >> 20) in WSIM_CSRS:
                csr = w >> 20
                if rd == 0:
                    struct.pack_into("<I", out, o, NOP)
                    nopped += 1
                else:
                    blockers.append(f"reads wsim CSR 0x{csr:03X} (rd=x{rd}) in {sec}")
            elif op == OP_AMO:
                notes.append(f"has atomics in {sec} (A extension is off in SimX by default)")
            elif op == OP_CUSTOM1 or (op == OP_CUSTOM0 and f7 == 2):
                blockers.append(f"Weaver instructions in {sec}")
    return bytes(out), nopped, sorted(set(blockers)), sorted(set(notes))


def run(cmd, timeout, env=None, cwd=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                           cwd=cwd)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        def txt(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, txt(e.stdout), txt(e.stderr), time.time() - t0


def tail(text, n=2):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:200]


def run_wsim(a, elf, tmp):
    js = pathlib.Path(tmp) / (elf.stem + ".json")
    cmd = [a.wsim, "run", "--config", a.config]
    for s in a.set:
        cmd += ["--set", s]
    cmd += ["--json", str(js), str(elf)]
    rc, out, err, secs = run(cmd, a.timeout)
    if rc is None:
        return None, f"wsim timed out after {a.timeout} s"
    if not js.exists():
        return None, f"wsim failed (exit {rc}): {tail(err or out)}"
    r = json.loads(js.read_text())
    res = {"cycles": r["cycles"], "instructions": r["total"]["instructions"],
           "exit": r["exit_code"], "secs": secs}
    if rc != 0 or r["exit_code"] != 0:
        return res, f"wsim: program exit status {r['exit_code']}"
    return res, None


PERF = re.compile(r"SIMX_PERF core=(\d+) cycles=(\d+) instrs=(\d+)")


def run_simx(a, patched):
    env = dict(os.environ)
    if a.all_cores:
        env["SIMX_ALL_CORES"] = "1"
    # SimX's ramulator2 writes trace/ramulator.log.ch* and ramulator.stats.log in the
    # working directory: run it in the temporary one.
    rc, out, err, secs = run([os.path.abspath(a.simx), str(patched)], a.timeout, env,
                             cwd=patched.parent)
    shutil.rmtree(patched.parent / "trace", ignore_errors=True)  # DRAM command traces
    if rc is None:
        return None, f"SimX timed out after {a.timeout} s (hang)"
    cores = [tuple(map(int, m.groups())) for m in PERF.finditer(out)]
    if not cores:
        return None, f"SimX failed (exit {rc}, no SIMX_PERF line): {tail(err or out)}"
    res = {"cycles": max(c[1] for c in cores), "instructions": sum(c[2] for c in cores),
           "exit": rc, "secs": secs, "cores": cores}
    if rc != 0:
        return res, f"SimX: program exit status {rc}: {tail(err)}"
    return res, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", nargs="*", type=pathlib.Path)
    ap.add_argument("--simx", default=os.environ.get("SIMX"),
                    help="SimX binary (default: $SIMX)")
    ap.add_argument("--wsim", default=str(ROOT / "target/release/wsim"))
    ap.add_argument("--config", default=str(ROOT / "configs/vortex.toml"))
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="wsim configuration override (repeatable)")
    ap.add_argument("--all-cores", action="store_true",
                    help="start every SimX core (SIMX_ALL_CORES=1), as wsim's run.start = all-cores")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    ap.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    ap.add_argument("--record", type=pathlib.Path,
                    help="append SimX's numbers to this CSV (program,config,simx_cycles,simx_instructions)")
    ap.add_argument("--label", default=None, help="configuration name for --record and --csv")
    a = ap.parse_args()
    if not a.simx:
        sys.exit("simx-compare: give the SimX binary with --simx or the environment variable SIMX")
    for tool in (a.simx, a.wsim):
        if not (shutil.which(tool) or pathlib.Path(tool).is_file()):
            sys.exit(f"simx-compare: {tool} not found")
    label = a.label or pathlib.Path(a.config).stem
    progs = a.programs or sorted((ROOT / "programs/build").glob("*.elf"))
    if not progs:
        sys.exit("simx-compare: no programs (build them: make -s -C programs -j2)")

    rows, skipped = [], []
    with tempfile.TemporaryDirectory(prefix="simx-compare-") as tmp:
        for elf in progs:
            name = elf.stem
            data = elf.read_bytes()
            try:
                patched, nopped, blockers, notes = scan(data)
            except (ValueError, struct.error) as e:
                skipped.append((name, f"not a usable ELF: {e}"))
                continue
            if blockers:
                skipped.append((name, "; ".join(blockers)))
                continue
            pfile = pathlib.Path(tmp) / (name + ".elf")
            pfile.write_bytes(patched)
            w, werr = run_wsim(a, elf, tmp)
            s, serr = run_simx(a, pfile)
            print(f"  {name}: wsim {w and w['cycles']} ({w and round(w['secs'], 1)} s), "
                  f"SimX {s and s['cycles']} ({s and round(s['secs'], 1)} s)",
                  file=sys.stderr, flush=True)
            reason = werr or serr
            if serr and notes:
                reason += "; " + "; ".join(notes)
            if not reason and w["instructions"] != s["instructions"]:
                reason = (f"warp instructions differ: wsim {w['instructions']}, SimX "
                          f"{s['instructions']} (lane-divergent control flow, vote or barrier "
                          f"semantics)")
            if reason:
                skipped.append((name, reason))
                # the numbers, when both ran, are still worth seeing
                if w and s:
                    rows.append((name, w, s, nopped, False))
                continue
            rows.append((name, w, s, nopped, True))

    good = [r for r in rows if r[4]]
    gmean = (math.exp(sum(math.log(w["cycles"] / s["cycles"]) for _, w, s, _, _ in good)
                      / len(good)) if good else float("nan"))
    if a.csv:
        wr = csv.writer(sys.stdout)
        wr.writerow(["program", "config", "wsim_instructions", "simx_instructions",
                     "wsim_cycles", "simx_cycles", "ratio", "csr_nops", "compared"])
        for name, w, s, nopped, ok in rows:
            wr.writerow([name, label, w["instructions"], s["instructions"], w["cycles"],
                         s["cycles"], f"{w['cycles'] / s['cycles']:.3f}", nopped,
                         "yes" if ok else "no"])
        wr.writerow(["geomean", label, "", "", "", "", f"{gmean:.3f}", "", len(good)])
        for name, why in skipped:
            wr.writerow([name, label, "", "", "", "", "", "", "not compared: " + why])
    else:
        print(f"config {label}: wsim --config {a.config} {' '.join('--set ' + s for s in a.set)}"
              f"{'; SimX all cores' if a.all_cores else ''}")
        hdr = f"{'program':<16} {'wsim instr':>11} {'SimX instr':>11} {'eq':>3} " \
              f"{'wsim cycles':>12} {'SimX cycles':>12} {'ratio':>6} {'CPI SimX':>8}"
        print(hdr)
        print("-" * len(hdr))
        for name, w, s, nopped, ok in rows:
            eq = "yes" if w["instructions"] == s["instructions"] else "NO"
            print(f"{name:<16} {w['instructions']:>11} {s['instructions']:>11} {eq:>3} "
                  f"{w['cycles']:>12} {s['cycles']:>12} {w['cycles'] / s['cycles']:>6.3f} "
                  f"{s['cycles'] / max(1, s['instructions']):>8.2f}{'' if ok else '  (not counted)'}")
        print(f"geometric mean of wsim/SimX over {len(good)} programs: {gmean:.3f}")
        if skipped:
            print("not compared:")
            for name, why in skipped:
                print(f"  {name}: {why}")
    if a.record:
        new = not a.record.exists()
        with a.record.open("a", newline="") as f:
            wr = csv.writer(f)
            if new:
                wr.writerow(["program", "config", "simx_cycles", "simx_instructions"])
            for name, w, s, nopped, ok in good:
                wr.writerow([name, label, s["cycles"], s["instructions"]])


if __name__ == "__main__":
    main()
