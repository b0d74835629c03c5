#!/usr/bin/env python3
"""Hostile-input probe of the `wsim` binary, process by process (issue 35).

tests/fuzz.rs fuzzes the parsers in process; this probe drives the command line the way a
user (or a script gone wrong) does, and checks what only a whole process shows: the exit
status (0-4, never a panic's 101 or a signal), no hang, peak memory bounded by the input
and not the file, no file written outside the folder named, no record lost by concurrent
or killed writers, no tampered cache entry served. It prints the number of cases of each
kind and every failure; exit status 1 when there was one.

    scripts/probe.py [--wsim target/release/wsim] [--cases 100] [--seed 1] [--kinds elf,set]

It needs the built programs (make -C programs) and takes a few minutes at --cases 100.
"""

import argparse
import csv
import gzip
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60
# A run's peak RSS above this (the graphs here are small) means memory follows the file.
RSS_LIMIT_KIB = 600 * 1024


class Probe:
    def __init__(self, wsim, seed):
        self.wsim = str(Path(wsim).resolve())
        self.rng = random.Random(seed)
        self.cases = {}
        self.statuses = {}  # kind -> exit status -> runs: what the cases exercised
        self.failures = []
        self.tmp = Path(tempfile.mkdtemp(prefix="wsim-probe-"))

    def sandbox(self, name):
        """A folder holding links to the repository's programs, configs and data, so the
        project's relative paths resolve, and nothing else."""
        box = self.tmp / name
        box.mkdir()
        for d in ("programs", "configs", "data", "experiments", "baselines"):
            (box / d).symlink_to(ROOT / d)
        return box

    def run(self, kind, args, cwd=None, stdout=None, stderr=None, ok=(0, 1, 2, 3, 4), rss=None):
        """Run wsim; a failure unless it exits with a status in `ok`, within the timeout,
        without a panic message and (with `rss`) within that many KiB."""
        self.cases[kind] = self.cases.get(kind, 0) + 1
        out = stdout if stdout is not None else subprocess.PIPE
        err = stderr if stderr is not None else subprocess.PIPE
        proc = subprocess.Popen([self.wsim, *args], cwd=cwd or ROOT, stdout=out, stderr=err)
        deadline = time.time() + TIMEOUT
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                return self.fail(kind, args, f"no answer in {TIMEOUT} s")
            time.sleep(0.01)
        text = b""
        if err is subprocess.PIPE:
            text = proc.stderr.read()
        if out is subprocess.PIPE:
            proc.stdout.read()
        if os.WIFSIGNALED(status):
            return self.fail(kind, args, f"killed by signal {os.WTERMSIG(status)}")
        code = os.WEXITSTATUS(status)
        self.statuses.setdefault(kind, {}).setdefault(code, 0)
        self.statuses[kind][code] += 1
        if code not in ok:
            return self.fail(kind, args, f"exit status {code}: {text[-300:]!r}")
        if b"panicked" in text:
            return self.fail(kind, args, f"panic: {text[-300:]!r}")
        if rss is not None and usage.ru_maxrss > rss:
            return self.fail(kind, args, f"peak RSS {usage.ru_maxrss} KiB over {rss} KiB")
        return code, text

    def fail(self, kind, args, why):
        self.failures.append(f"{kind}: wsim {' '.join(map(str, args))}: {why}")
        return None

    # -- inputs ---------------------------------------------------------------------------

    def mutate(self, data, tokens=()):
        """Byte flips, truncation, duplication of a slice, or a token put in place."""
        data = bytearray(data)
        for _ in range(self.rng.randint(1, 4)):
            op = self.rng.randrange(5)
            at = self.rng.randrange(max(1, len(data)))
            if op == 0 and data:
                data[at] = self.rng.randrange(256)
            elif op == 1:
                del data[at:]
            elif op == 2:
                data[at:at] = data[at : at + self.rng.randint(1, 64)]
            elif op == 3 and data:
                data[at] ^= 1 << self.rng.randrange(8)
            elif tokens:
                data[at:at] = self.rng.choice(tokens).encode()
        return bytes(data)

    def lines(self, data, tokens):
        """Line edits that keep most of a text file well formed: a line dropped, repeated,
        or one of its fields replaced by a token."""
        lines = data.split(b"\n")
        for _ in range(self.rng.randint(1, 4)):
            at = self.rng.randrange(len(lines))
            op = self.rng.randrange(3)
            if op == 0:
                del lines[at]
            elif op == 1:
                lines[at:at] = [lines[at]] * self.rng.randint(1, 100)
            else:
                fields = lines[at].split()
                if fields:
                    fields[self.rng.randrange(len(fields))] = self.rng.choice(tokens).encode()
                    lines[at] = b" ".join(fields)
        return b"\n".join(lines)

    def elf(self):
        seeds = sorted((ROOT / "programs/build").glob("*.elf"))
        for i in range(self.n):
            f = self.tmp / f"m{i}.elf"
            data = bytearray(self.rng.choice(seeds).read_bytes())
            if self.rng.random() < 0.3:  # ELF header fields: e_phentsize, e_phnum, e_shstrndx
                off = self.rng.choice([0x2A, 0x2C, 0x32, 0x1C, 0x20])
                data[off : off + 2] = self.rng.randrange(65536).to_bytes(2, "little")
                f.write_bytes(data)
            else:
                f.write_bytes(self.mutate(data))
            self.run("elf", ["-q", "run", "--config", "configs/tiny.toml", str(f)])

    def config(self):
        seeds = sorted((ROOT / "configs").glob("*.toml"))
        tokens = ["=", "[", "]", '"', "0x", "-1", "1e99", "nan", "\n[gpu]\n", "cores = 0\n",
                  "\n", "#", "18446744073709551616", "inf", "'", "{}", "[]", "\x00", "\xff"]
        for i in range(self.n):
            f = self.tmp / f"c{i}.toml"
            f.write_bytes(self.mutate(self.rng.choice(seeds).read_bytes(), tokens))
            self.run("config", ["-q", "run", "--config", str(f), "programs/build/hello.elf"])

    def set(self):
        keys = ["gpu.clusters", "gpu.cores_per_cluster", "gpu.warps_per_core",
                "gpu.threads_per_warp", "memory.l1d.size", "memory.l2.ways", "run.max_cycles",
                "memory.dram.channels", "map.heap", "weaver.mode", "nosuch.key", ""]
        values = ["0", "-1", "1", "3", "4294967296", "18446744073709551616", "nan", "inf",
                  "1.5", '"x"', "true", "[]", "{}", "0xffffffff", "", "1\nfoo=1", "\u00e9"]
        for _ in range(self.n):
            sets = []
            for _ in range(self.rng.randint(1, 3)):
                sets += ["--set", f"{self.rng.choice(keys)}={self.rng.choice(values)}"]
            self.run("set", ["-q", "run", "--config", "configs/tiny.toml", *sets,
                             "programs/build/hello.elf"])

    def graph(self):
        # Valid seeds: whole lines of a SNAP file, a Matrix Market file cut to 1,000 entries.
        text = gzip.decompress((ROOT / "data/graphs/email-Eu-core.txt.gz").read_bytes())
        text = text[: text.rindex(b"\n", 0, 20000) + 1]
        lines = gzip.decompress((ROOT / "data/graphs/road-usroads-48.mtx.gz").read_bytes()).split(b"\n")
        body = [l for l in lines if not l.startswith(b"%")]
        rows, cols, _ = body[0].split()
        mtx = b"\n".join([lines[0], b"%s %s 1000" % (rows, cols), *body[1:1001]]) + b"\n"
        tokens = ["%%MatrixMarket matrix coordinate pattern general\n", "-1", "4294967296",
                  "\n", " ", "#", "1e9", "nan", "0 0\n", "\t"]
        program = "programs/build/graph/pr_vm_pull.elf"
        for i in range(self.n):
            seed, suffix = self.rng.choice([(text[:20000], ".txt"), (mtx, ".mtx")])
            data = self.mutate(seed, tokens) if self.rng.random() < 0.5 else self.lines(seed, tokens)
            f = self.tmp / f"g{i}{suffix}"
            if self.rng.random() < 0.5:
                f = f.with_suffix(suffix + ".gz")
                data = gzip.compress(data)
                if self.rng.random() < 0.3:
                    data = self.mutate(data)
            f.write_bytes(data)
            self.run("graph", ["-q", "run", "--config", "configs/tiny.toml", "--graph", str(f),
                               program], rss=RSS_LIMIT_KIB)
        # Bombs: 2-20 MB of gzip that expand to 256 MiB of text. Memory must follow the
        # limits (an edge list past --max-edges is refused as it streams) and the graph
        # (comments and blank lines take nothing), never the text; also under the ceiling
        # GRAPHS.md recommends for Table 4.3.
        bombs = [(b"0 1\n", []), (b"% comment " + b"x" * 1000 + b"\n", ["--max-edges", "300000000"]),
                 (b"\n" * 64, ["--max-edges", "300000000"]), (b"0 1\n", ["--max-vertices", "1"])]
        for i, (line, limits) in enumerate(bombs):
            f = self.tmp / f"bomb{i}.txt.gz"
            with gzip.open(f, "wb", compresslevel=9) as z:
                chunk = line * ((1 << 20) // len(line))
                for _ in range(256):
                    z.write(chunk)
            self.run("graph", ["-q", "run", "--config", "configs/tiny.toml", "--graph", str(f),
                               *limits, program], ok=(2,), rss=RSS_LIMIT_KIB)

    def names(self):
        """Experiment, profile and plot names that would leave the results folder."""
        bad = ["../../elsewhere/notes", "/tmp/wsim-probe-escape", "..", ".", "", "a/b",
               "a\\b", "x\x00y", "../x"]
        for i in range(self.n):
            box = self.sandbox(f"names{i}")
            work = box / "w"
            work.mkdir()
            where = self.rng.choice(["name", "profile", "plot"])
            name = self.rng.choice(bad)
            q = repr(name).replace("'", '"') if "\x00" not in name else '"x\\u0000y"'
            text = (f'description = "probe"\nconfig = "../configs/tiny.toml"\n'
                    f'profile = {q if where == "profile" else chr(34) + "p" + chr(34)}\n')
            if where == "name":
                text += f"name = {q}\n"
            text += '[[programs]]\nfiles = ["../programs/build/hello.elf"]\n'
            text += f'[profiles.{q if where == "profile" else "p"}]\n'
            if where == "plot":
                text += f'[[plots]]\nname = {q}\nkind = "line"\nx = "program"\ny = "cycles"\n'
            (work / "e.toml").write_text(text)
            before = self.tree(box)
            self.run("names", ["-q", "experiment", "run", "e.toml"], cwd=work, ok=(2,))
            after = self.tree(box)
            escaped = [p for p in after - before if not p.startswith("w/results/")]
            if escaped or Path("/tmp/wsim-probe-escape").exists():
                self.fail("names", [where, name], f"wrote outside the results: {escaped}")

    def tree(self, box):
        out = set()
        for dirpath, dirs, files in os.walk(box):
            dirs[:] = [d for d in dirs if not (Path(dirpath) / d).is_symlink()]
            for f in files:
                out.add(str((Path(dirpath) / f).relative_to(box)))
        return out

    def baseline(self):
        base = (ROOT / "baselines/project.toml").read_text()
        first = base.split("[[run]]")[0] + "[[run]]" + base.split("[[run]]")[1]
        values = ["nan", "inf", "-inf", "17086.9", "-1", "1e400", '"x"', "true",
                  "18446744073709551616", "1.5"]
        for i in range(self.n):
            key = self.rng.choice(["cycles", "warp_instructions", "l1d_hit_rate", "dram_bytes"])
            value = self.rng.choice(values)
            text = re.sub(rf"^{key} = .*$", f"{key} = {value}", first, count=1, flags=re.M)
            box = self.sandbox(f"baseline{i}")
            (box / "b").mkdir()
            (box / "b/base.toml").write_text(text)
            self.run("baseline", ["-q", "regress", "check", str(box / "b/base.toml")], ok=(2,))

    def unwritable(self):
        hello = ["run", "--config", "configs/tiny.toml", "programs/build/hello.elf"]
        fault = ["run", "--config", "configs/tiny.toml", "programs/build/errors/illegal.elf"]
        not_a_folder = self.tmp / "file"
        not_a_folder.write_text("")
        cases = [
            (hello, "/dev/full", None, (0,)),
            (hello, None, "/dev/full", (0,)),
            (fault, "/dev/full", "/dev/full", (3,)),
            (["-v", *hello], "/dev/full", "/dev/full", (0,)),
            (["run", "--json", str(self.tmp), *hello[1:]], None, None, (2,)),
            (["run", "--json", str(not_a_folder / "r.json"), *hello[1:]], None, None, (2,)),
            (["run", "--trace", "/dev/full", *hello[1:]], None, None, (2,)),
            (["plot", "-o", str(self.tmp), str(self.tmp / "missing.json")], None, None, (2,)),
        ]
        for _ in range(max(1, self.n // len(cases))):
            for args, out, err, ok in cases:
                with open(out or os.devnull, "wb") as o, open(err or os.devnull, "wb") as e:
                    self.run("unwritable", args, stdout=o, stderr=e, ok=ok)

    def flood(self):
        """Programs that write phases and iteration marks without end, and the error
        programs, with and without a trace: the run fails (or ends) within its limits,
        memory stays bounded, and the JSON report is still written."""
        programs = sorted((ROOT / "programs/build/errors").glob("*.elf"))
        for i in range(max(1, self.n // 10)):
            for elf in programs:
                out = self.tmp / f"flood{i}.json"
                trace = ["--trace", str(self.tmp / f"flood{i}.trace.json")] if i % 2 else []
                got = self.run("flood", ["-q", "run", "--config", "configs/tiny.toml",
                                         "--set", "run.max_cycles=20000000", "--json", str(out),
                                         *trace, str(elf)], rss=RSS_LIMIT_KIB)
                if got and got[0] == 3 and not out.exists():
                    self.fail("flood", [elf.name], "failed run wrote no JSON report")
                out.unlink(missing_ok=True)

    def small_experiment(self, box):
        (box / "w").mkdir(exist_ok=True)
        (box / "w/e.toml").write_text(
            'description = "probe"\nconfig = "../configs/tiny.toml"\n'
            '[[programs]]\nfiles = ["../programs/build/[hvsb]*.elf"]\n')
        return box / "w"

    def killed(self):
        """An experiment killed at a random moment resumes to the uninterrupted table."""
        ref = self.small_experiment(self.sandbox("killed-ref"))
        self.run("killed", ["-q", "experiment", "run", "e.toml"], cwd=ref)
        want = self.table(ref)
        for i in range(max(1, self.n // 10)):
            work = self.small_experiment(self.sandbox(f"killed{i}"))
            proc = subprocess.Popen([self.wsim, "-q", "experiment", "run", "e.toml"], cwd=work,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(self.rng.uniform(0.05, 1.5))
            proc.send_signal(self.rng.choice([signal.SIGKILL, signal.SIGINT, signal.SIGTERM]))
            proc.wait()
            self.run("killed", ["-q", "experiment", "run", "e.toml"], cwd=work)
            if want is None or self.table(work) != want:
                self.fail("killed", ["experiment run", str(work)], "table differs after resume")

    @staticmethod
    def table(work):
        """The experiment's table without its host-time column (the only one that may differ
        between two runs of one experiment)."""
        path = next(iter((work / "results").rglob("*.csv")), None)
        if path is None:
            return None
        rows = list(csv.reader(path.open()))
        drop = rows[0].index("host_seconds")
        return [r[:drop] + r[drop + 1 :] for r in rows]

    def concurrent(self):
        """Writers at once on one baseline and one experiment cache: every record lands."""
        base = (ROOT / "baselines/project.toml").read_text()
        runs = base.split("[[run]]")
        head, bodies = runs[0], [r.split("[run.recorded]")[0] for r in runs[1:6]]
        for i in range(max(1, self.n // 10)):
            box = self.sandbox(f"concurrent{i}")
            (box / "b").mkdir()
            f = box / "b/base.toml"
            f.write_text(head + "".join("[[run]]" + b for b in bodies))
            names = [re.search(r'program = "programs/build/(\w+)\.elf"', b).group(1) for b in bodies]
            procs = [subprocess.Popen([self.wsim, "-q", "regress", "record", "--only", n + "@*", str(f)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for n in names]
            codes = [p.wait() for p in procs]
            for c in codes:
                self.statuses.setdefault("concurrent", {}).setdefault(c, 0)
                self.statuses["concurrent"][c] += 1
            self.cases["concurrent"] = self.cases.get("concurrent", 0) + 1
            recorded = len(re.findall(r"^\[run\.recorded\]$", f.read_text(), flags=re.M))
            if codes != [0] * len(names) or recorded != len(names):
                self.fail("concurrent", ["regress record x", len(names)],
                          f"exit statuses {codes}, {recorded} of {len(names)} runs recorded")

    def cache(self):
        """Tampered cache entries are refused, not served."""
        work = self.small_experiment(self.sandbox("cache"))
        self.run("cache", ["-q", "experiment", "run", "e.toml"], cwd=work)
        entries = sorted((work / "results").rglob("cache/*.json"))
        if len(entries) < 2:
            return self.fail("cache", [str(work)], "the experiment cached fewer than 2 runs")
        for i in range(max(1, self.n // 10)):
            a, b = self.rng.sample(entries, 2)
            keep = a.read_bytes()
            how = self.rng.choice(["swap", "cycles", "truncate"])
            if how == "swap":
                a.write_bytes(b.read_bytes())
            elif how == "cycles":
                a.write_bytes(re.sub(rb'"cycles": ?(\d+)', lambda m: b'"cycles": ' +
                                     str(int(m.group(1)) + 1).encode(), keep, count=1))
            else:
                a.write_bytes(keep[: self.rng.randrange(len(keep))])
            self.run("cache", ["-q", "experiment", "run", "e.toml"], cwd=work, ok=(2,))
            a.write_bytes(keep)


    # -- issue 47: special files, outputs that are inputs, symlinks, huge sizes, run counts

    def special(self):
        """A FIFO, a device or a folder as any input: refused at once (status 2), never
        read to the end of memory or waited on forever."""
        fifo = self.tmp / "fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        hello, pr = "programs/build/hello.elf", "programs/build/graph/pr_vm_pull.elf"
        for _ in range(max(1, self.n // 8)):
            for special in (str(fifo), "/dev/zero", "/dev/urandom", str(self.tmp)):
                for args in (["run", "--config", special, hello], ["run", special],
                             ["disasm", special], ["run", "--graph", special, pr],
                             ["graph", "info", special], ["regress", "check", special],
                             ["experiment", "run", special], ["sweep", "--config", special, hello]):
                    self.run("special", args, ok=(2,), rss=RSS_LIMIT_KIB)

    def clobber(self):
        """An output that is one of the inputs, by the same or another name: refused, the
        input unchanged."""
        box = self.sandbox("clobber")
        shutil.copy(ROOT / "programs/build/hello.elf", box / "p.elf")
        shutil.copy(ROOT / "configs/tiny.toml", box / "c.toml")
        (box / "g.txt").write_text("0 1\n1 2\n2 0\n")
        (box / "f.svg").write_text("<svg/>")
        os.link(box / "p.elf", box / "alias")
        cases = [["run", "--json", "p.elf", "p.elf"], ["run", "--trace", "alias", "p.elf"],
                 ["run", "--config", "c.toml", "--json", "c.toml", "p.elf"],
                 ["run", "--trace-instructions", "c.toml", "--config", "c.toml", "p.elf"],
                 ["graph", "convert", "g.txt", "-o", "g.txt"], ["plot", "f.svg", "-o", "f.svg"]]
        before = {f: (box / f).read_bytes() for f in ("p.elf", "c.toml", "g.txt", "f.svg")}
        for _ in range(max(1, self.n // len(cases))):
            for args in cases:
                self.run("clobber", args, cwd=box, ok=(2,))
                for f, data in before.items():
                    if (box / f).read_bytes() != data:
                        self.fail("clobber", args, f"{f} was overwritten")
                        (box / f).write_bytes(data)

    def symlink(self):
        """Symlinks planted at outputs (and at temporary names beside them): replaced,
        never written through to the file outside."""
        box = self.small_experiment(self.sandbox("symlink"))
        outside = self.tmp / "outside.txt"
        for i in range(max(1, self.n // 4)):
            outside.write_text("keep")
            out = box / "results"
            out.mkdir(exist_ok=True)
            for name in ("e.csv", "speed.svg", f".e.csv.{i}.tmp", "r.json", "t.json"):
                (out / name).unlink(missing_ok=True)
                (out / name).symlink_to(outside)
            self.run("symlink", ["-q", "experiment", "run", "e.toml", "--out", "results"],
                     cwd=box)
            self.run("symlink", ["-q", "run", "--config", "../configs/tiny.toml", "--json",
                                 "results/r.json", "--trace", "results/t.json",
                                 "../programs/build/hello.elf"], cwd=box)
            self.run("symlink", ["-q", "graph", "gen", "grid:w=3", "-o", "results/speed.svg"],
                     cwd=box)
            self.run("symlink", ["-q", "experiment", "run", "e.toml", "--out", "results"], cwd=box)
            if outside.read_text() != "keep":
                self.fail("symlink", ["experiment", "run", "run", "graph gen"],
                          "written through a symlink")
            for f in out.glob("*.tmp"):
                if not f.is_symlink():
                    self.fail("symlink", ["experiment", "run"], f"left {f.name}")

    def fulldisk(self):
        """Outputs on a full disk (a small tmpfs, where the machine lets one be mounted):
        the command says so with status 2, the old file stays whole, no temporary is left."""
        disk = self.tmp / "disk"
        disk.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                                 capture_output=True).returncode == 0
        if not mounted:
            print("fulldisk: no tmpfs could be mounted here (needs root): skipped", flush=True)
            return
        try:
            box = self.small_experiment(self.sandbox("fulldisk"))
            hello = str(ROOT / "programs/build/hello.elf")
            tiny = str(ROOT / "configs/tiny.toml")
            cases = [["run", "--config", tiny, "--json", str(disk / "r.json"), hello],
                     ["run", "--config", tiny, "--trace", str(disk / "t.json"), hello],
                     ["graph", "gen", "gen:grid:w=40,h=40", "-o", str(disk / "g.bcsr")],
                     ["experiment", "run", "e.toml", "--out", str(disk / "results")]]
            for i in range(max(1, self.n // len(cases))):
                for args in cases:
                    for f in disk.glob("*"):
                        if f.is_dir():
                            shutil.rmtree(f)
                        else:
                            f.unlink()
                    for name in ("r.json", "t.json", "g.bcsr"):
                        (disk / name).write_text("old")
                    # Fill the disk but for a few bytes, so the output's first block fails.
                    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
                    try:
                        while os.write(fd, b"x" * 512):
                            pass
                    except OSError:
                        pass
                    finally:
                        os.close(fd)
                    self.run("fulldisk", ["-q", *args], cwd=box, ok=(2,))
                    for name in ("r.json", "t.json", "g.bcsr"):
                        if (disk / name).read_text() != "old":
                            self.fail("fulldisk", args, f"{name} lost its old contents")
                    left = [f.name for f in disk.rglob("*") if ".tmp" in f.name]
                    if left:
                        self.fail("fulldisk", args, f"left temporaries {left}")
        finally:
            subprocess.run(["umount", str(disk)], capture_output=True)

    def huge(self):
        """Declared sizes past memory with the ceilings raised: refused up front (status
        2), never an abort; peak memory small."""
        mtx = self.tmp / "huge.mtx"
        mtx.write_text("%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n")
        raised = ["--max-vertices", "4294967295", "--max-edges", "4294967295", "--max-memory", "2G"]
        specs = ["gen:uniform:v=4294967295,e=1", "gen:rmat:scale=31,ef=1", "gen:grid:w=20000,h=20000",
                 "gen:powerlaw:v=268435456,e=1", "gen:uniform:v=268435456,e=1", str(mtx)]
        for _ in range(max(1, self.n // 10)):
            spec = self.rng.choice(specs)
            self.run("huge", ["graph", "info", spec, *raised], ok=(2,), rss=RSS_LIMIT_KIB)
            self.run("huge", ["run", "programs/build/graph/pr_vm_pull.elf", "--graph", spec,
                              *raised], ok=(2,), rss=RSS_LIMIT_KIB)

    def runs(self):
        """Experiment files and sweeps that expand to too many runs: refused before they
        are expanded."""
        box = self.sandbox("runs")
        keys = ["alu", "branch", "mul", "div", "fpu_fma", "fpu_div", "fpu_cvt", "fpu_misc", "sfu"]
        for i in range(max(1, self.n // 4)):
            n = self.rng.randint(6, 9)
            values = ", ".join(str(v) for v in range(1, self.rng.randint(11, 40)))
            axes = "".join(f"[[axes]]\nname = '{k}'\nkey = 'core.latency.{k}'\nvalues = [{values}]\n"
                           for k in keys[:n])
            (box / "e.toml").write_text(
                "[[programs]]\nfiles = ['programs/build/hello.elf']\n" + axes)
            self.run("runs", ["experiment", "run", "e.toml"], cwd=box, ok=(2,), rss=RSS_LIMIT_KIB)
            vary = [a for k in keys[:n] for a in ("--vary", f"core.latency.{k}={values}")]
            self.run("runs", ["sweep", *vary, "programs/build/hello.elf"], cwd=box, ok=(2,),
                     rss=RSS_LIMIT_KIB)


def main():
    kinds = ["elf", "config", "set", "graph", "names", "baseline", "unwritable", "flood", "killed",
             "concurrent", "cache", "special", "clobber", "symlink", "fulldisk", "huge", "runs"]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wsim", default=str(ROOT / "target/release/wsim"))
    ap.add_argument("--cases", type=int, default=100, help="cases per kind (fewer for the slow ones)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(kinds))
    args = ap.parse_args()
    probe = Probe(args.wsim, args.seed)
    probe.n = args.cases
    start = time.time()
    try:
        for kind in args.kinds.split(","):
            if kind not in kinds:
                sys.exit(f"probe: unknown kind `{kind}` (kinds: {', '.join(kinds)})")
            t = time.time()
            getattr(probe, kind)()
            seen = ", ".join(f"{n} x {c}" for c, n in sorted(probe.statuses.get(kind, {}).items()))
            print(f"{kind:12} {probe.cases.get(kind, 0):6} cases  {time.time() - t:6.1f} s  "
                  f"exit statuses: {seen}", flush=True)
    finally:
        shutil.rmtree(probe.tmp, ignore_errors=True)
    print(f"{'total':12} {sum(probe.cases.values()):6} cases  {time.time() - start:6.1f} s")
    for f in probe.failures:
        print("FAIL", f)
    sys.exit(1 if probe.failures else 0)


if __name__ == "__main__":
    main()
