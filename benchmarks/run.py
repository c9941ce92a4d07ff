"""pnp's benchmarks: pnp against minimal hand-written reportlab scripts, and issue 9's targets.

    python benchmarks/run.py            # the full run (text 100/1,000/10,000, art 90/900)
    python benchmarks/run.py --quick    # CI smoke: text 100 and art 30, one run each

Every measured command runs in its own subprocess; wall time, CPU time (user + system) and
peak memory (GNU time's %M when /usr/bin/time exists, else ru_maxrss from wait4) are taken for
that child alone. pnp/ is copied aside at the start and put first on PYTHONPATH, so one run
measures one version of pnp while pnp/ is being edited. Builds start cold: a fresh output
folder, a fresh XDG_CACHE_HOME, and anything a tool left in the pack's root removed. The run
writes its tables between the markers in benchmarks/README.md (not with --no-readme), the raw
numbers to benchmarks/work/results.json (results-quick.json) and every command's output to
benchmarks/work/logs/. ``--from-json FILE`` reports saved numbers again without measuring.
The exit status is 0 when every command ran and every PDF is valid (whether the targets are
met does not change it).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import datetime as dt
import hashlib
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen  # benchmarks/ is not a package: run.py imports its sibling

HERE = gen.HERE
REPO = gen.REPO
WORK = gen.WORK
README = HERE / "README.md"
START = "<!-- results:start -->"
END = "<!-- results:end -->"
MB = 1024 * 1024


def gnu_time() -> Path | None:
    """/usr/bin/time when it is GNU time (it takes -f and -o), else None."""
    path = Path("/usr/bin/time")
    if not path.is_file():
        return None
    probe = subprocess.run(
        [str(path), "-f", "%M", "-o", os.devnull, "true"], capture_output=True, check=False
    )
    return path if probe.returncode == 0 else None


GNU_TIME = gnu_time()
SHEET = 9  # 3x3 poker cards on A4
# "one sheet's art": the 9 fronts and the back of a sheet, decoded to RGB
SHEET_ART_MB = (SHEET + 1) * gen.ART_W * gen.ART_H * 3 / MB

LOAD_PROBE = r"""
import json, sys, time
from pathlib import Path
from pnp.core.findings import Report
from pnp.content.load import load_game, open_root
from ruamel.yaml import YAML

root = open_root(sys.argv[1])
files = sorted((root.path / "cards" / "bench").glob("*.yaml"))
t = time.perf_counter()
report = Report()
game = load_game(root, "bench", report)
pnp_s = time.perf_counter() - t
t = time.perf_counter()
for f in files:
    YAML().load(f.read_text(encoding="utf-8"))
rt_s = time.perf_counter() - t
t = time.perf_counter()
for f in files:
    YAML(typ="safe").load(f.read_text(encoding="utf-8"))
safe_s = time.perf_counter() - t
cards = sum(len(d.cards) for d in game.decks.values()) if game is not None else 0
print(json.dumps({"pnp_load_game": pnp_s, "ruamel_rt": rt_s, "ruamel_safe_c": safe_s,
                  "cards": cards, "errors": len(report.errors)}))
"""

# pnp watch: the time from saving a text edit to the rebuilt PDF on disk, in-process through
# pnp.designer.watch.Watcher (wait() for the change, then cycle()), after a first build
WATCH_PROBE = r"""
import json, shutil, sys, threading, time
from pathlib import Path
from pnp.content.load import open_root
from pnp.designer.watch import Watcher

root, game, target, old, new, runs = sys.argv[1:7]
root = open_root(root)
path = root.path / target
w = Watcher(root=root, game=game, langs=(), paper="a4", echo=lambda _m: None,
            out=root.path / "out")
ok, first = w.cycle()
rows = []
for rep in range(int(runs)):
    text = path.read_text(encoding="utf-8")
    a, b = (old, new) if rep % 2 == 0 else (new, old)
    assert a in text, a
    saved, wall = [], []
    def save():
        time.sleep(0.3)  # the watch is running by then
        saved.append(time.perf_counter())
        wall.append(time.time())
        path.write_text(text.replace(a, b, 1), encoding="utf-8")
    t = threading.Thread(target=save)
    t.start()
    changed = w.wait(timeout_ms=5000)
    t.join()
    c0 = time.perf_counter()
    built, cycle = w.cycle()
    done = time.perf_counter()
    pdfs = sorted((root.path / "out").rglob("*.pdf"))
    # the edit shows once its PDF is written: the newest PDF's time, on the clock of the save
    newest = max(p.stat().st_mtime_ns for p in pdfs) / 1e9
    rows.append({"latency": done - saved[0], "cycle": cycle, "built": built,
                 "changed": len(changed), "notice": c0 - saved[0], "pdfs": len(pdfs),
                 "pdf": newest - wall[0], "rebuilt": sum(p.stat().st_mtime_ns / 1e9 > wall[0]
                                                         for p in pdfs)})
print(json.dumps({"first": first, "first_ok": ok, "rows": rows}))
"""

# the reference of --png 300: each page of the PDFs rasterised once, nothing written
RASTER_REF = r"""
import sys
import pypdfium2 as pdfium

dpi, pages = float(sys.argv[1]), 0
for name in sys.argv[2:]:
    doc = pdfium.PdfDocument(name)
    for i in range(len(doc)):
        page = doc[i]
        bitmap = page.render(scale=dpi / 72)
        bitmap.to_pil()
        bitmap.close()
        page.close()
        pages += 1
    doc.close()
print(pages, "pages")
"""
# the machine's floor for an art build: read every file of the pack (as `cat` would), then
# write and sync files of the sizes of the PDFs pnp wrote (random bytes, 1 MB at a time)
FLOOR = r"""
import os, sys
root, out, *sizes = sys.argv[1:]
for dirpath, dirs, files in os.walk(root):
    dirs.sort()
    for name in sorted(files):
        with open(os.path.join(dirpath, name), "rb") as fh:
            while fh.read(1 << 20):
                pass
os.makedirs(out, exist_ok=True)
block = os.urandom(1 << 20)
for i, size in enumerate(int(s) for s in sizes):
    with open(os.path.join(out, f"floor-{i}.pdf"), "wb") as fh:
        left = size
        while left > 0:
            left -= fh.write(block[: min(left, len(block))])
        fh.flush()
        os.fsync(fh.fileno())
"""

# where an art build's time goes, in one process (-j 1): the stages timed in-process
STAGES_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
from pnp.cli.commands import invoke
from pnp.build import documents, pipeline, stamps
from pnp.printing.render import document
from pnp import validate as checks
imported = time.perf_counter() - t0
spent = {}
def timed(owner, name, label):
    inner = getattr(owner, name)
    def wrapper(*a, **k):
        t = time.perf_counter()
        try:
            return inner(*a, **k)
        finally:
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - t
    setattr(owner, name, staticmethod(wrapper) if isinstance(owner, type) else wrapper)
timed(stamps.Inputs, "start", "inputs")  # reading, digesting and checking the files
timed(checks, "validate", "validate")
timed(document, "save_streaming", "write")  # the PDF's objects and image data to disk, synced
timed(pipeline, "render_game", "render")
timed(pipeline, "_commit", "commit")
sys.argv = ["pnp", "-q", "build", *sys.argv[1:], "-j", "1"]
t = time.perf_counter()
try:
    invoke()
except SystemExit as exc:
    code = exc.code
total = time.perf_counter() - t0
print(json.dumps({"code": code, "import": imported, "total": total, **spent}))
"""

RASTER_MODES: dict[str, list[str]] = {
    "build": [],
    "png": ["--png", "300"],
    "png-tts": ["--png", "300", "--tts"],
    "tts": ["--tts"],
    "png-jobs2": ["--png", "300", "--jobs", "2"],
}


# --- running and measuring ---------------------------------------------------------------------
@dataclass
class Sample:
    wall: float
    cpu: float
    rss_mb: float
    ok: bool
    sizes: dict[str, int] = field(default_factory=dict)  # language -> PDF bytes
    note: str = ""
    images: dict[str, Any] = field(default_factory=dict)  # English PDF: filters, pixels


def pnp_cmd() -> list[str]:
    script = Path(sys.executable).with_name("pnp")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pnp"]


def run_child(cmd: list[str], log: Path, env: dict[str, str] | None = None) -> Sample:
    """Run ``cmd`` to completion: wall time, CPU time and peak memory of that child alone.

    The peak comes from GNU time when /usr/bin/time exists: the ru_maxrss of a child forked by
    Python starts at the parent's own peak, and GNU time's process is small. Without it, the
    peak is ru_maxrss from wait4 (the runner keeps itself small for that reason).
    """
    rss_file = log.with_suffix(".rss")
    rss_file.unlink(missing_ok=True)
    full = [str(GNU_TIME), "-q", "-f", "%M", "-o", str(rss_file), *cmd] if GNU_TIME else cmd
    with log.open("wb") as fh:
        fh.write(("$ " + " ".join(cmd) + "\n").encode())
        fh.flush()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            full,
            stdout=fh,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=WORK,
            start_new_session=True,  # its own process group: stop() ends it with its children
        )
        RUNNING.append(proc)
        try:
            _pid, status, usage = os.wait4(proc.pid, 0)
        finally:
            RUNNING.remove(proc)
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss_kb = float(usage.ru_maxrss)  # kilobytes on Linux
    if rss_file.is_file():
        lines = [ln for ln in rss_file.read_text().split() if ln.isdigit()]
        rss_kb = float(lines[-1]) if lines else rss_kb
        rss_file.unlink()
    return Sample(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        rss_mb=rss_kb / 1024,
        ok=proc.returncode == 0,
        note="" if proc.returncode == 0 else f"exit {proc.returncode}, see {log}",
    )


RUNNING: list[subprocess.Popen[bytes]] = []


def stop(signum: int, _frame: Any) -> None:
    """SIGTERM or Ctrl-C: end the command being measured (its process group), then exit."""
    for proc in RUNNING:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(proc.pid, 0)
    sys.exit(128 + signum)


def snapshot_pnp(dest: Path) -> str:
    """Copy pnp/ aside and put the copy first on PYTHONPATH for every child, so that a run
    measures one version of pnp even while pnp/ is being edited; returns its content hash."""
    shutil.copytree(
        REPO / "pnp", dest / "pnp", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    digest = hashlib.sha1()
    for path in sorted((dest / "pnp").rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(dest).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    # byte-compiled, as pip leaves an installed package (PYTHONDONTWRITEBYTECODE would
    # otherwise have every child compile pnp's sources again)
    compileall.compile_dir(dest / "pnp", quiet=1)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(dest) + (os.pathsep + old if old else "")
    return digest.hexdigest()[:12]


def cold_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    for name in ("PNP_ROOT", "PNP_DEBUG"):
        env.pop(name, None)
    return env


def fresh(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def pdf_sizes(out: Path) -> dict[str, int]:
    """PDF bytes per language, from file names such as bench-en-a4.pdf or baseline-it.pdf."""
    sizes: dict[str, int] = {}
    for pdf in sorted(out.rglob("*.pdf")):
        for lang in gen.LANGS:
            if f"-{lang}-" in pdf.name or pdf.name.endswith(f"-{lang}.pdf"):
                sizes[lang] = sizes.get(lang, 0) + pdf.stat().st_size
    return sizes


def check_pdfs(pdfs: list[Path], min_pages: int, art: Path | None = None) -> dict[str, Any]:
    """pdfcheck.py's verdict on ``pdfs``, run in a process of its own; with ``art``, also how
    the images are encoded and whether ``art`` is embedded with identical pixels."""
    cmd = [sys.executable, str(HERE / "pdfcheck.py"), "--min-pages", str(min_pages)]
    cmd += ["--filters", "--pixels", str(art)] if art else []
    proc = subprocess.run([*cmd, *map(str, pdfs)], capture_output=True, text=True, cwd=WORK)
    try:
        result: dict[str, Any] = json.loads(proc.stdout)
    except ValueError:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {str(p): {"error": f"pdfcheck failed: {tail[0]}"} for p in pdfs}
    return result


def median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


class Bench:
    def __init__(self, runs: int, scratch: Path, logs: Path) -> None:
        self.runs = runs
        self.scratch = scratch  # this run's outputs and caches: runs do not share them
        self.logs = logs
        self.failures: list[str] = []
        self.results: dict[str, Any] = {}

    def out(self, name: str) -> Path:
        return self.scratch / "out" / name

    def log(self, name: str) -> Path:
        self.logs.mkdir(parents=True, exist_ok=True)
        return self.logs / f"{name}.log"

    def say(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def fail(self, message: str) -> None:
        self.failures.append(message)
        self.say(f"  FAILED: {message}")

    # one measured command ------------------------------------------------------------------
    def measure(
        self,
        label: str,
        cmd: list[str],
        out: Path,
        root: Path | None,
        min_pages: int = 0,
        reuse: bool = False,
        art: Path | None = None,
        deep: bool = True,
    ) -> Sample:
        """One cold run of ``cmd`` (``reuse``: keep the output and cache of the previous run).

        With ``min_pages``, one PDF per language must appear in ``out``; ``deep`` also counts
        their pages (pypdf reads the whole file: only the first of several runs does that).
        """
        cache = out.with_name(out.name + ".cache")
        if not reuse:
            fresh(out)
            fresh(cache)
            if root is not None:
                gen.clean_root(root)
        sample = run_child(cmd, self.log(label), cold_env(cache))
        if root is not None:
            left = gen.clean_root(root)
            if left:
                sample.note = (sample.note + f" (left in the root: {', '.join(left)})").strip()
        sample.sizes = pdf_sizes(out)
        if not sample.ok:
            self.fail(f"{label}: {sample.note}")
        elif min_pages:
            if sorted(sample.sizes) != sorted(gen.LANGS):
                self.fail(f"{label}: expected one PDF per language, found {sorted(sample.sizes)}")
                sample.ok = False
            pdfs = sorted(out.rglob("*.pdf"))
            checked = check_pdfs(pdfs, min_pages if deep else 0, art)
            for path, verdict in checked.items():
                if verdict["error"]:
                    self.fail(f"{label}: {verdict['error']}")
                    sample.ok = False
                if "-en" in Path(path).name and "filters" in verdict:
                    sample.images = {
                        k: verdict.get(k) for k in ("filters", "pixels_identical", "pixels_error")
                    }
        self.say(
            f"  {label}: {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU, "
            f"{sample.rss_mb:.0f} MB peak, {sum(sample.sizes.values()) / MB:.2f} MB PDF"
        )
        return sample

    def probe(
        self, label: str, script: str, args: list[str], env: dict[str, str] | None = None
    ) -> dict[str, Any] | None:
        """Run an in-process probe (``python -c script args``), its output logged under
        ``label``; the JSON of its last line, or None (a failure noted) when there is none."""
        log = self.log(label)
        proc = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=WORK,
            env=env,
        )  # fmt: skip
        log.write_text(proc.stdout + proc.stderr)
        try:
            row: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            self.fail(f"{label}: exit {proc.returncode}, see {log}")
            return None
        return row

    # builds: pnp against the baselines --------------------------------------------------------
    def builds(self, kind: str, n: int, scripts: bool = True) -> None:
        """pnp against the minimal scripts (``scripts``: else pnp alone, and the floor)."""
        self.say(f"{kind} {n}: generating the pack")
        root = gen.make_pack(kind, n)
        pages = 2 * math.ceil(n / SHEET)
        tools: dict[str, list[str]] = {
            "pnp": [*pnp_cmd(), "build", gen.GAME, "--root", str(root), "--out", "{out}"],
            "baseline": [sys.executable, str(HERE / "baseline.py"), kind, str(root), "{out}"],
        }
        if not scripts:
            del tools["baseline"]
        elif kind == "art":
            tools["baseline-a85-off"] = [*tools["baseline"], "--no-a85"]
        elif n >= 1000:  # issue 20: one process against the script too
            tools["pnp-j1"] = [*tools["pnp"], "--jobs", "1"]
        samples: dict[str, list[Sample]] = {name: [] for name in tools}
        if kind == "art":
            samples["floor"] = []
        for rep in range(self.runs):
            for name, template in tools.items():
                out = self.out(f"{kind}-{n}-{name}")
                cmd = [str(out) if part == "{out}" else part for part in template]
                label = f"{kind}-{n}-{name}-run{rep + 1}"
                check_art = rep == 0 and name == "pnp" and kind == "art"
                art = root / "cards" / gen.GAME / "art" / "c00001.png" if check_art else None
                sample = self.measure(label, cmd, out, root, pages, art=art, deep=rep == 0)
                if sample.images:
                    self.results.setdefault("images", {})[f"{kind}-{n}"] = sample.images
                samples[name].append(sample)
                shutil.rmtree(out, ignore_errors=True)  # art PDFs are large
                if name == "pnp" and "floor" in samples:  # the same bytes in, the same out
                    samples["floor"].append(self.floor(f"{kind}-{n}-run{rep + 1}", root, sample))
        self.results.setdefault("builds", {})[f"{kind}-{n}"] = {
            "kind": kind,
            "n": n,
            "tools": {name: summary(s) for name, s in samples.items()},
        }

    # the other measurements ---------------------------------------------------------------
    def validate(self, n: int) -> None:
        root = gen.make_pack("text", n)
        self.say(f"pnp validate, text {n}")
        cmd = [*pnp_cmd(), "validate", gen.GAME, "--root", str(root)]
        samples = [
            self.measure(f"validate-text-{n}-run{rep + 1}", cmd, self.out("validate"), root)
            for rep in range(self.runs)
        ]
        self.results["validate"] = {"n": n, **summary(samples)}
        one = [
            self.measure(
                f"validate-text-{n}-jobs1-run{rep + 1}", [*cmd, "--jobs", "1"], self.out("v1"), root
            )
            for rep in range(self.runs)
        ]
        self.results["validate_jobs1"] = {"n": n, **summary(one)}

    def load(self, n: int) -> None:
        root = gen.make_pack("text", n)
        self.say(f"loading {n} cards of YAML")
        rows = []
        for rep in range(self.runs):
            row = self.probe(f"load-text-{n}-run{rep + 1}", LOAD_PROBE, [str(root)])
            if row is None:
                return
            if row["cards"] != n or row["errors"]:
                self.fail(f"load probe: {row['cards']} cards, {row['errors']} errors")
            self.say(
                f"  load_game {row['pnp_load_game']:.2f} s, ruamel round-trip "
                f"{row['ruamel_rt']:.2f} s, ruamel safe (C) {row['ruamel_safe_c']:.2f} s"
            )
            rows.append(row)
        keys = ("pnp_load_game", "ruamel_rt", "ruamel_safe_c")
        self.results["load"] = {"n": n, **{k: median([r[k] for r in rows]) for k in keys}}

    def rebuild(self, kind: str, n: int) -> None:
        root = gen.make_pack(kind, n)
        self.say(f"unchanged rebuild, {kind} {n}")
        out = self.out(f"rebuild-{kind}-{n}")
        cmd = [*pnp_cmd(), "build", gen.GAME, "--root", str(root), "--out", str(out)]
        pages = 2 * math.ceil(n / SHEET)
        cold, warm, rewritten = [], [], []
        for rep in range(self.runs):
            label = f"rebuild-{kind}-{n}-run{rep + 1}"
            gen.clean_root(root)
            cold.append(self.measure(f"{label}-first", cmd, out, None, pages, deep=rep == 0))
            before = {p: p.stat().st_mtime_ns for p in out.rglob("*.pdf")}
            second = self.measure(f"{label}-second", cmd, out, None, pages, reuse=True, deep=False)
            warm.append(second)
            after = {p: p.stat().st_mtime_ns for p in out.rglob("*.pdf")}
            rewritten.append(before != after)
            shutil.rmtree(out, ignore_errors=True)
            gen.clean_root(root)
        self.results.setdefault("rebuild", {})[f"{kind}-{n}"] = {
            "first": summary(cold),
            "second": summary(warm),
            "pdfs_rewritten": sum(rewritten),
            "runs": len(rewritten),
        }

    def jobs(self, kind: str, n: int) -> None:
        root = gen.make_pack(kind, n)
        self.say(f"--jobs 2 vs --jobs 1, {kind} {n}")
        pages = 2 * math.ceil(n / SHEET)
        samples: dict[int, list[Sample]] = {1: [], 2: []}
        controls = []
        for rep in range(self.runs):
            controls.append(parallel_control())
            self.say(f"  control: two busy processes at once took {controls[-1]:.2f}x in a row")
            for jobs in (1, 2):
                out = self.out(f"jobs{jobs}-{kind}-{n}")
                cmd = [*pnp_cmd(), "build", gen.GAME, "--root", str(root), "--out", str(out)]
                label = f"jobs{jobs}-{kind}-{n}-run{rep + 1}"
                cmd += ["--jobs", str(jobs)]
                samples[jobs].append(self.measure(label, cmd, out, root, pages, deep=rep == 0))
                shutil.rmtree(out, ignore_errors=True)
        self.results.setdefault("jobs", {})[f"{kind}-{n}"] = {
            **{str(j): summary(s) for j, s in samples.items()},
            "control": median(controls),
        }

    def raster(self, kind: str, n: int) -> None:
        """--png 300, --png 300 --tts and --tts against the same build without them, and the
        reference: the PDFs of that build rasterised once at 300 dpi with pypdfium2."""
        root = gen.make_pack(kind, n)
        self.say(f"--png 300 and --tts, {kind} {n}")
        pages = 2 * math.ceil(n / SHEET)
        samples: dict[str, list[Sample]] = {name: [] for name in [*RASTER_MODES, "reference"]}
        images: dict[str, list[float]] = {name: [] for name in RASTER_MODES}
        for rep in range(self.runs):
            for name, extra in RASTER_MODES.items():
                out = self.out(f"raster-{kind}-{n}-{name}")
                cmd = [*pnp_cmd(), "build", gen.GAME, "--root", str(root), "--out", str(out)]
                label = f"raster-{kind}-{n}-{name}-run{rep + 1}"
                sample = self.measure(label, [*cmd, *extra], out, root, pages, deep=rep == 0)
                samples[name].append(sample)
                written = [p for p in out.rglob("*") if p.suffix in (".png", ".jpg")]
                images[name].append(sum(p.stat().st_size for p in written) / MB)
                if name == "build":
                    pdfs = [str(p) for p in sorted(out.rglob("*.pdf"))]
                    ref = [sys.executable, "-c", RASTER_REF, "300", *pdfs]
                    label = f"raster-{kind}-{n}-reference-run{rep + 1}"
                    ref_out = self.out(f"raster-{kind}-{n}-reference")
                    samples["reference"].append(self.measure(label, ref, ref_out, None))
                shutil.rmtree(out, ignore_errors=True)
        self.results.setdefault("raster", {})[f"{kind}-{n}"] = {
            **{name: summary(s) for name, s in samples.items()},
            "images_mb": {name: median(v) for name, v in images.items()},
        }

    def floor(self, label: str, root: Path, pnp: Sample) -> Sample:
        """The I/O floor of the build ``pnp`` just measured: its pack read, and files of its
        PDFs' sizes written and synced (FLOOR)."""
        out = self.out(f"floor-{label}")
        cmd = [sys.executable, "-c", FLOOR, str(root), str(out), *map(str, pnp.sizes.values())]
        sample = self.measure(f"floor-{label}", cmd, out, None)
        shutil.rmtree(out, ignore_errors=True)
        return sample

    def stages(self, kind: str, n: int) -> None:
        """Where an art build's time goes, in one process (STAGES_PROBE), median of runs."""
        root = gen.make_pack(kind, n)
        self.say(f"stages of pnp build -j 1, {kind} {n}")
        rows = []
        for rep in range(self.runs):
            out = fresh(self.out(f"stages-{kind}-{n}"))
            cache = fresh(self.out(f"stages-{kind}-{n}.cache"))
            gen.clean_root(root)
            args = [gen.GAME, "--root", str(root), "--out", str(out)]
            row = self.probe(f"stages-{kind}-{n}-run{rep + 1}", STAGES_PROBE, args, cold_env(cache))
            gen.clean_root(root)
            shutil.rmtree(out, ignore_errors=True)
            if row is None:
                return
            rows.append(row)
        keys = sorted({k for r in rows for k in r if k != "code"})
        self.results.setdefault("stages", {})[f"{kind}-{n}"] = {
            k: median([r.get(k, 0.0) for r in rows]) for k in keys
        }

    def mode(self, kind: str, n: int, name: str, extra: list[str]) -> None:
        """One print mode (``--bleed 3``, ``--fold``) against the same build without it,
        interleaved run by run: wall time and peak memory."""
        root = gen.make_pack(kind, n)
        self.say(f"{' '.join(extra)} vs plain build, {kind} {n}")
        pages = 2 * math.ceil(n / SHEET)
        samples: dict[str, list[Sample]] = {"build": [], name: []}
        for rep in range(self.runs):
            for which, args in (("build", []), (name, extra)):
                out = self.out(f"mode-{kind}-{n}-{which}")
                cmd = [*pnp_cmd(), "build", gen.GAME, "--root", str(root), "--out", str(out)]
                label = f"mode-{kind}-{n}-{which}-run{rep + 1}"
                min_pages = pages if which == "build" else 1  # fold: one page per card pair
                sample = self.measure(label, [*cmd, *args], out, root, min_pages, deep=rep == 0)
                samples[which].append(sample)
                shutil.rmtree(out, ignore_errors=True)
        self.results.setdefault("modes", {}).setdefault(f"{kind}-{n}", {})[name] = {
            "args": extra,
            **{which: summary(s) for which, s in samples.items()},
        }

    def publish(self, kind: str, n: int) -> None:
        """Issue 30: the files of a print-on-demand shop (``--for thegamecrafter``: each face
        at the shop's pixels with its bleed, 825 x 1125 px a card) and a release (``pnp
        release``: the PDFs of both languages on A4 and Letter, TTS sheets, contact sheets,
        the ZIP) against the same build's PDFs alone, interleaved run by run."""
        root = gen.make_pack(kind, n)
        self.say(f"--for thegamecrafter and pnp release vs plain build, {kind} {n}")
        pages = 2 * math.ceil(n / SHEET)
        samples: dict[str, list[Sample]] = {name: [] for name in PUBLISH_MODES}
        written: dict[str, list[float]] = {name: [] for name in PUBLISH_MODES}
        for rep in range(self.runs):
            for which, args in PUBLISH_MODES.items():
                out = self.out(f"publish-{kind}-{n}-{which}")
                cmd = [*pnp_cmd(), args[0], gen.GAME, "--root", str(root), "--out", str(out)]
                label = f"publish-{kind}-{n}-{which}-run{rep + 1}"
                sample = self.measure(label, [*cmd, *args[1:]], out, root, pages, deep=rep == 0)
                made = [p for p in out.rglob("*") if p.suffix in (".png", ".zip")]
                if which != "build" and not made:
                    self.fail(f"{label}: no {'ZIP' if which == 'release' else 'image'} written")
                    sample.ok = False
                written[which].append(sum(p.stat().st_size for p in made) / MB)
                samples[which].append(sample)
                shutil.rmtree(out, ignore_errors=True)
        self.results.setdefault("publish", {})[f"{kind}-{n}"] = {
            **{name: summary(s) for name, s in samples.items()},
            "written_mb": {name: median(v) for name, v in written.items()},
        }

    def watch(
        self, label: str, source: Path, game: str, target: str, edit: tuple[str, str]
    ) -> None:
        """``pnp watch``'s rebuild after a text edit (WATCH_PROBE), on a copy of ``source``."""
        self.say(f"pnp watch, {label}: from a save to the rebuilt PDF")
        copy = fresh(self.scratch / f"watch-{label}")
        shutil.copytree(source / "cards" / game, copy / "cards" / game)
        for extra in ("fonts", "locales"):
            if (source / extra).is_dir():
                shutil.copytree(source / extra, copy / extra)
        args = [str(copy), game, target, *edit, str(max(3, 2 * self.runs))]
        env = cold_env(self.scratch / "watch.cache")
        row = self.probe(f"watch-{label}", WATCH_PROBE, args, env)
        if row is None:
            return
        rows = row["rows"]
        if not all(r["built"] and r["changed"] for r in rows):
            log = self.log(f"watch-{label}")
            self.fail(f"watch probe {label}: a save was not seen or not rebuilt, see {log}")
        result = {
            "first": row["first"],
            **{k: median([r[k] for r in rows]) for k in ("latency", "cycle", "notice", "pdf")},
            "pdf_max": max((r["pdf"] for r in rows), default=math.nan),
            "rebuilt": max((r["rebuilt"] for r in rows), default=0),
            "max": max((r["latency"] for r in rows), default=math.nan),
            "runs": len(rows),
        }
        self.say(f"  save to PDF {result['pdf']:.3f} s, to PDFs and preview "
                 f"{result['latency']:.3f} s (cycle {result['cycle']:.3f} s)")  # fmt: skip
        self.results.setdefault("watch", {})[label] = result


BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0:\n    pass\n"


def parallel_control() -> float:
    """What the machine gives two processes right now: the wall time of two CPU-bound
    processes run at once over that of the same two in a row (0.5 on two free cores, 1.0 when
    other work leaves one core)."""

    def busy() -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-c", BUSY], cwd=WORK)

    t0 = time.perf_counter()
    for _ in range(2):
        busy().wait()
    in_a_row = time.perf_counter() - t0
    t0 = time.perf_counter()
    pair = [busy(), busy()]
    for proc in pair:
        proc.wait()
    return (time.perf_counter() - t0) / in_a_row


def summary(samples: list[Sample]) -> dict[str, Any]:
    good = [s for s in samples if s.ok]
    sizes: dict[str, float] = {}
    for lang in gen.LANGS:
        values = [s.sizes[lang] for s in good if lang in s.sizes]
        if values:
            sizes[lang] = median(values)
    return {
        "wall": median([s.wall for s in good]),
        "cpu": median([s.cpu for s in good]),
        "rss_mb": median([s.rss_mb for s in good]),
        "sizes": sizes,
        "ok": len(good),
        "runs": len(samples),
        "samples": [asdict(s) for s in samples],
    }


# --- the report --------------------------------------------------------------------------------
def fmt_s(value: float) -> str:
    if value != value:  # NaN
        return "–"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def fmt_mb(value: float) -> str:
    if value != value:
        return "–"
    return f"{value:.1f} MB" if value < 100 else f"{value:.0f} MB"


def fmt_x(value: float) -> str:
    return "–" if value != value else f"{value:.2f}x"


def ratio(a: float, b: float) -> float:
    return a / b if b and a == a and b == b else math.nan


def total_size(tool: dict[str, Any]) -> float:
    return float(sum(tool["sizes"].values())) if tool["sizes"] else math.nan


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    try:
        nproc = str(len(os.sched_getaffinity(0)))
    except AttributeError:
        nproc = str(os.cpu_count())
    import reportlab

    return {
        "cpu": cpu,
        "nproc": nproc,
        "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "reportlab": reportlab.Version,
    }


def commit() -> str:
    def git(*args: str) -> str:
        proc = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
        return proc.stdout.strip()

    head = git("log", "-1", "--oneline") or "unknown"
    dirty = git("status", "--porcelain", "--", "pnp", "pyproject.toml")
    return head + (" (with uncommitted changes in pnp/)" if dirty else "")


def build_table(res: dict[str, Any]) -> list[str]:
    lines = [
        "| pack | compared with | pnp wall | baseline wall | wall pnp÷base | pnp CPU | "
        "baseline CPU | pnp peak | baseline peak | peak pnp÷base | pnp PDF | baseline PDF | "
        "PDF pnp÷base |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    names = {
        "baseline": "reportlab script, defaults",
        "baseline-a85-off": "reportlab script, useA85 = 0",
        "floor": "I/O floor: the pack read, the PDFs' bytes written and synced",
    }
    for entry in res.get("builds", {}).values():
        tools = entry["tools"]
        pairs = [("pnp", name) for name in tools if name not in ("pnp", "pnp-j1")]
        if "pnp-j1" in tools:
            pairs.append(("pnp-j1", "baseline"))
        for which, name in pairs:
            pnp, base = tools[which], tools[name]
            label = names.get(name, name) + ("; pnp with `-j 1`" if which == "pnp-j1" else "")
            lines.append(
                f"| {entry['kind']} {entry['n']:,} | {label} | "
                f"{fmt_s(pnp['wall'])} | {fmt_s(base['wall'])} | "
                f"{fmt_x(ratio(pnp['wall'], base['wall']))} | "
                f"{fmt_s(pnp['cpu'])} | {fmt_s(base['cpu'])} | "
                f"{fmt_mb(pnp['rss_mb'])} | {fmt_mb(base['rss_mb'])} | "
                f"{fmt_x(ratio(pnp['rss_mb'], base['rss_mb']))} | "
                f"{fmt_mb(total_size(pnp) / MB)} | {fmt_mb(total_size(base) / MB)} | "
                f"{fmt_x(ratio(total_size(pnp), total_size(base)))} |"
            )
    return lines


def derived(res: dict[str, Any]) -> dict[str, Any]:
    """The numbers the targets are judged on (NaN when not measured in this run)."""
    builds = res.get("builds", {})

    def tool(key: str, name: str) -> dict[str, Any] | None:
        return builds.get(key, {}).get("tools", {}).get(name)

    d: dict[str, Any] = {}
    for n in (1000, 10000):
        pnp, base = tool(f"text-{n}", "pnp"), tool(f"text-{n}", "baseline")
        d[f"text_ratio_{n}"] = ratio(pnp["wall"], base["wall"]) if pnp and base else math.nan
        d[f"text_walls_{n}"] = (
            f"pnp {fmt_s(pnp['wall'])}, script {fmt_s(base['wall'])}" if pnp and base else "–"
        )
        one = tool(f"text-{n}", "pnp-j1")
        d[f"text_j1_ratio_{n}"] = ratio(one["wall"], base["wall"]) if one and base else math.nan
        d[f"text_j1_walls_{n}"] = (
            f"pnp -j 1 {fmt_s(one['wall'])}, script {fmt_s(base['wall'])}" if one and base else "–"
        )
    for n in (90, 900):
        pnp, floor = tool(f"art-{n}", "pnp"), tool(f"art-{n}", "floor")
        d[f"art_floor_{n}"] = ratio(pnp["wall"], floor["wall"]) if pnp and floor else math.nan
        d[f"art_floor_walls_{n}"] = (
            f"pnp {fmt_s(pnp['wall'])}, floor {fmt_s(floor['wall'])}" if pnp and floor else "–"
        )
    p1, p10 = tool("text-1000", "pnp"), tool("text-10000", "pnp")
    d["text_scaling"] = ratio(p10["wall"], p1["wall"]) if p1 and p10 else math.nan
    d["text_scaling_walls"] = f"{fmt_s(p10['wall'])} vs {fmt_s(p1['wall'])}" if p1 and p10 else "–"
    d["text_rss_10000"] = p10["rss_mb"] if p10 else math.nan
    for name in ("pnp", "baseline"):
        a, b = tool("text-1000", name), tool("text-10000", name)
        per_card = math.nan
        if a and b and "en" in a["sizes"] and "en" in b["sizes"]:
            per_card = (b["sizes"]["en"] - a["sizes"]["en"]) / 9000
        d[f"bytes_per_card_{name}"] = per_card
    for n in (90, 900):
        pnp, base = tool(f"art-{n}", "pnp"), tool(f"art-{n}", "baseline-a85-off")
        d[f"art_speedup_{n}"] = ratio(base["wall"], pnp["wall"]) if pnp and base else math.nan
        d[f"art_size_ratio_{n}"] = (
            ratio(total_size(pnp), total_size(base)) if pnp and base else math.nan
        )
        d[f"art_rss_{n}"] = pnp["rss_mb"] if pnp else math.nan
        d[f"art_walls_{n}"] = (
            f"script {fmt_s(base['wall'])}, pnp {fmt_s(pnp['wall'])}" if pnp and base else "–"
        )
        d[f"art_sizes_{n}"] = (
            f"{fmt_mb(total_size(pnp) / MB)} vs {fmt_mb(total_size(base) / MB)}"
            if pnp and base
            else "–"
        )
    d["art_rss_growth"] = d["art_rss_900"] - d["art_rss_90"]
    images = res.get("images", {})
    d["filters"] = {k: v.get("filters") or {} for k, v in images.items()}
    lossy = any("DCT" in f or "JPX" in f for v in d["filters"].values() for f in v)
    identical = [v.get("pixels_identical") for v in images.values()]
    d["pixels_identical"] = identical
    d["lossless"] = None  # not measured, or pypdf could not decode the image
    if images and (lossy or all(x is not None for x in identical)):
        d["lossless"] = not lossy and all(identical)
    d["validate"] = res.get("validate", {}).get("wall", math.nan)
    d["validate_n"] = res.get("validate", {}).get("n")
    d["load"] = res.get("load", {}).get("pnp_load_game", math.nan)
    d["load_rt"] = res.get("load", {}).get("ruamel_rt", math.nan)
    d["load_n"] = res.get("load", {}).get("n")
    reb = res.get("rebuild", {})
    d["rebuild"] = {k: (v["second"]["wall"], v["pdfs_rewritten"]) for k, v in reb.items()}
    jobs = res.get("jobs", {})
    d["jobs"] = {k: ratio(v["2"]["wall"], v["1"]["wall"]) for k, v in jobs.items()}
    d["jobs_control"] = {k: v.get("control", math.nan) for k, v in jobs.items()}
    return d


def verdict(value: float | bool | None, ok: bool) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "not measured"
    return "**met**" if ok else "**not met**"


def targets_table(d: dict[str, Any]) -> list[str]:
    rows: list[tuple[str, str, str]] = []

    def add(target: str, shown: str, value: Any, ok: bool) -> None:
        rows.append((target, shown, verdict(value, ok)))

    for n in (1000, 10000):
        v = d[f"text_ratio_{n}"]
        shown = f"{fmt_x(v)} ({d[f'text_walls_{n}']})"
        add(f"text {n:,}: `pnp build` within 1.5x of the script", shown, v, v <= 1.5)
    v = d["text_scaling"]
    shown = f"{fmt_x(v)} ({d['text_scaling_walls']})"
    add("text: 10,000 cards cost at most 11x 1,000", shown, v, v <= 11)
    v = d["text_rss_10000"]
    add("text 10,000: peak memory under 500 MB", fmt_mb(v), v, v < 500)
    v = d["bytes_per_card_pnp"]
    shown = "–" if v != v else f"{v:,.0f} bytes"
    add("text: each extra card adds at most 2 KB to the PDF", shown, v, v <= 2048)
    for n in (90, 900):
        v = d[f"art_speedup_{n}"]
        shown = f"{fmt_x(v)} as fast ({d[f'art_walls_{n}']})"
        add(f"art {n}: at least 3x faster than the script with useA85 = 0", shown, v, v >= 3)
        v = d[f"art_size_ratio_{n}"]
        shown = f"{fmt_x(v)} ({d[f'art_sizes_{n}']})"
        add(f"art {n}: PDF no larger than the script's with useA85 = 0", shown, v, v <= 1)
    parts = []
    for key, filters in d["filters"].items():
        codecs = ", ".join(f"{count} {name.lstrip('/')}" for name, count in filters.items())
        parts.append(f"{key}: {codecs or 'no images'}")
    if d["pixels_identical"]:
        same = sum(1 for x in d["pixels_identical"] if x)
        parts.append(f"card 1 pixel-identical in {same} of {len(d['pixels_identical'])} PDFs")
    add(
        "art: lossless by default (PNG art not re-encoded lossily, pixels identical)",
        "; ".join(parts) or "–",
        d["lossless"],
        bool(d["lossless"]),
    )
    v = d["art_rss_900"]
    add("art 900: peak memory under 500 MB", fmt_mb(v), v, v < 500)
    v = d["art_rss_growth"]
    add(
        f"art: memory not growing with N beyond one sheet's art ({SHEET_ART_MB:.1f} MB)",
        "–" if v != v else f"{v:+.1f} MB from 90 to 900 cards",
        v,
        v <= SHEET_ART_MB,
    )
    v = d["validate"]
    n = d["validate_n"]
    label = "`pnp validate` of 10,000 cards under 2 s"
    add(label + (f" (measured: {n:,})" if n and n != 10000 else ""), fmt_s(v), v, v < 2)
    v = d["load"]
    n = d["load_n"]
    shown = f"{fmt_s(v)} (ruamel round-trip: {fmt_s(d['load_rt'])})"
    target = "loading 5,000 cards of YAML with positions under 1 s"
    add(target + (f" (measured: {n:,})" if n and n != 5000 else ""), shown, v, v < 1)
    for key, (v, rewritten) in d["rebuild"].items():
        shown = f"{fmt_s(v)}, " + ("PDFs rewritten" if rewritten else "PDFs not rewritten")
        add(
            f"unchanged rebuild ({key}) skipped in under 0.5 s", shown, v, v < 0.5 and not rewritten
        )
    for key, v in d["jobs"].items():
        shown = f"{fmt_x(v)} (control: {fmt_x(d['jobs_control'][key])})"
        add(f"`--jobs 2` over two languages at most 0.6x one job ({key})", shown, v, v <= 0.6)
    for n in (1000, 10000):  # issue 20
        v = d[f"text_ratio_{n}"]
        shown = f"{fmt_x(v)} ({d[f'text_walls_{n}']})"
        add(f"text {n:,}: `pnp build` at most 1.0x the script (issue 20)", shown, v, v <= 1.0)
        v = d[f"text_j1_ratio_{n}"]
        shown = f"{fmt_x(v)} ({d[f'text_j1_walls_{n}']})"
        add(f"text {n:,}: `pnp build -j 1` at most 1.2x the script (issue 20)", shown, v, v <= 1.2)
    for n in (90, 900):
        v = d[f"art_floor_{n}"]
        shown = f"{fmt_x(v)} ({d[f'art_floor_walls_{n}']})"
        add(f"art {n}: `pnp build` at most 3x the I/O floor (issue 20)", shown, v, v <= 3)
    lines = ["| target (issues 9 and 20) | measured | |", "|---|--:|---|"]
    lines += [f"| {t} | {s} | {v} |" for t, s, v in rows]
    return lines


def other_table(res: dict[str, Any], d: dict[str, Any]) -> list[str]:
    lines = ["| measurement | result |", "|---|---|"]
    if "validate" in res:
        v = res["validate"]
        lines.append(
            f"| `pnp validate`, text {v['n']:,} (texts fitted on every core) | "
            f"{fmt_s(v['wall'])} wall, {fmt_s(v['cpu'])} CPU, {fmt_mb(v['rss_mb'])} peak |"
        )
    if "validate_jobs1" in res:
        v = res["validate_jobs1"]
        lines.append(
            f"| `pnp validate --jobs 1`, text {v['n']:,} (one process) | "
            f"{fmt_s(v['wall'])} wall, {fmt_s(v['cpu'])} CPU, {fmt_mb(v['rss_mb'])} peak |"
        )
    if "load" in res:
        v = res["load"]
        lines.append(
            f"| loading {v['n']:,} cards of YAML (in-process) | `pnp.content.load.load_game` "
            f"{fmt_s(v['pnp_load_game'])}; ruamel round-trip alone {fmt_s(v['ruamel_rt'])}; "
            f"ruamel safe (C, no positions) {fmt_s(v['ruamel_safe_c'])} |"
        )
    for key, v in res.get("rebuild", {}).items():
        lines.append(
            f"| unchanged rebuild, {key}, both languages | first {fmt_s(v['first']['wall'])}, "
            f"second {fmt_s(v['second']['wall'])}; PDFs rewritten by the second run in "
            f"{v['pdfs_rewritten']} of {v['runs']} runs |"
        )
    for key, v in res.get("jobs", {}).items():
        lines.append(
            f"| `--jobs 2` vs `--jobs 1`, {key}, two languages | {fmt_s(v['2']['wall'])} vs "
            f"{fmt_s(v['1']['wall'])} = {fmt_x(d['jobs'][key])}; peak "
            f"{fmt_mb(v['2']['rss_mb'])} vs {fmt_mb(v['1']['rss_mb'])}; control: two busy "
            f"processes at once took {fmt_x(v.get('control', math.nan))} the time of two in a "
            "row (0.5x on two free cores) |"
        )
    for name in ("pnp", "baseline"):
        v = d[f"bytes_per_card_{name}"]
        if v == v:
            lines.append(
                f"| bytes per extra text card, {name} (English PDF, (10,000 − 1,000) / 9,000) "
                f"| {v:,.0f} bytes |"
            )
    builds = res.get("builds", {})
    arts = sorted((e["n"], e) for e in builds.values() if e["kind"] == "art")
    if len(arts) > 1:
        for name in arts[0][1]["tools"]:
            seq = ", ".join(f"{n}: {fmt_mb(e['tools'][name]['rss_mb'])}" for n, e in arts)
            lines.append(f"| art peak memory by N, {name} | {seq} |")
    for key, v in res.get("stages", {}).items():
        rest = v["total"] - v["import"] - v.get("inputs", 0) - v.get("validate", 0)
        rest -= v.get("render", 0) + v.get("commit", 0)
        lines.append(
            f"| where `pnp build -j 1` spends its time, {key} (in-process, median) | "
            f"{fmt_s(v['total'])} in all: importing pnp {fmt_s(v['import'])}; reading, "
            f"digesting and checking the input files {fmt_s(v.get('inputs', 0))}; validation "
            f"{fmt_s(v.get('validate', 0))}; rendering both PDFs "
            f"{fmt_s(v.get('render', 0))}, of which writing them (objects, image data, sync) "
            f"{fmt_s(v.get('write', 0))}; putting them in place {fmt_s(v.get('commit', 0))}; "
            f"the rest (command line, plan, catalogs) {fmt_s(rest)} |"
        )
    return lines


def raster_tables(res: dict[str, Any]) -> list[str]:
    """The PNG and TTS exports (issue 20): each mode against the build without it, and the
    targets: --png 300 at most 2x the reference, --tts adding at most 20 % to --png 300."""
    raster = res.get("raster", {})
    if not raster:
        return []
    lines = [
        "### PNG faces and TTS sheets",
        "",
        "`pnp build` of both languages with each mode; the reference rasterises the PDFs of "
        "the plain build once at 300 dpi with pypdfium2 (no file written). Images: the PNG "
        "faces and JPEG sheets written, both languages.",
        "",
        "| pack | mode | wall | CPU | peak | images | wall ÷ plain build |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    names = {
        "build": "plain build",
        "png": "`--png 300`",
        "png-tts": "`--png 300 --tts`",
        "tts": "`--tts`",
        "png-jobs2": "`--png 300 --jobs 2`",
        "reference": "reference: pypdfium2, 300 dpi",
    }
    targets = ["", "| target (issue 20) | measured | |", "|---|--:|---|"]
    for key, entry in raster.items():
        plain = entry["build"]["wall"]
        for name, label in names.items():
            v = entry[name]
            mb = entry["images_mb"].get(name, math.nan)
            lines.append(
                f"| {key} | {label} | {fmt_s(v['wall'])} | {fmt_s(v['cpu'])} | "
                f"{fmt_mb(v['rss_mb'])} | {'–' if name == 'reference' else fmt_mb(mb)} | "
                f"{fmt_x(ratio(v['wall'], plain))} |"
            )
        ref, png, both = entry["reference"]["wall"], entry["png"]["wall"], entry["png-tts"]["wall"]
        v = ratio(png, ref)
        shown = f"{fmt_x(v)} ({fmt_s(png)} vs {fmt_s(ref)})"
        targets.append(f"| {key}: `--png 300` at most 2x the reference | {shown} | "
                       f"{verdict(v, v <= 2)} |")  # fmt: skip
        v = ratio(both, png) - 1
        shown = "–" if v != v else f"{v * 100:+.0f} % ({fmt_s(both)} vs {fmt_s(png)})"
        targets.append(f"| {key}: `--tts` adds at most 20 % to `--png 300` | {shown} | "
                       f"{verdict(v, v <= 0.2)} |")  # fmt: skip
    return [*lines, *targets, ""]


def modes_tables(res: dict[str, Any]) -> list[str]:
    """--bleed 3 and --fold against the same build without them, and pnp watch's rebuild
    latency (issue 20): bleed at most 1.3x the time and peak memory, a FABG text edit in the
    rebuilt PDF in under 0.3 s."""
    modes, watch = res.get("modes", {}), res.get("watch", {})
    if not modes and not watch:
        return []
    lines = ["### Print modes and `pnp watch`", ""]
    targets = ["", "| target (issue 20) | measured | |", "|---|--:|---|"]
    if modes:
        lines += [
            "`pnp build` of both languages with the mode, against the same build without it, "
            "interleaved run by run.",
            "",
            "| pack | mode | wall | plain wall | wall ÷ plain | peak | plain peak | peak ÷ plain |",
            "|---|---|--:|--:|--:|--:|--:|--:|",
        ]
    for key, entry in modes.items():
        for name, v in entry.items():
            m, b = v[name], v["build"]
            wx, px = ratio(m["wall"], b["wall"]), ratio(m["rss_mb"], b["rss_mb"])
            lines.append(
                f"| {key} | `{' '.join(v['args'])}` | {fmt_s(m['wall'])} | {fmt_s(b['wall'])} | "
                f"{fmt_x(wx)} | {fmt_mb(m['rss_mb'])} | {fmt_mb(b['rss_mb'])} | {fmt_x(px)} |"
            )
            if name == "bleed":
                targets.append(f"| {key}: `--bleed 3` at most 1.3x the time without | "
                               f"{fmt_x(wx)} | {verdict(wx, wx <= 1.3)} |")  # fmt: skip
                targets.append(f"| {key}: `--bleed 3` peak memory at most 1.3x | "
                               f"{fmt_x(px)} | {verdict(px, px <= 1.3)} |")  # fmt: skip
    if watch:
        lines += [
            "",
            "`pnp watch` (pnp.designer.watch.Watcher in one process, after a first build): a "
            "text edit saved, then the time until the edited language's PDF is written (its "
            "file time, on the clock of the save), and until the cycle is over (every PDF and "
            "the preview on disk); notice: until the watcher returned the change; PDFs "
            "rewritten: how many PDFs a save rewrote (an edit in one language leaves the "
            "other's PDF as it was).",
            "",
            "| game | first build | save to PDF (median) | slowest | save to preview | notice "
            "| rebuild | PDFs rewritten | runs |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
    for key, v in watch.items():
        pdf = v.get("pdf", v["latency"])  # older results: the whole cycle
        lines.append(
            f"| {key} | {fmt_s(v['first'])} | {pdf:.3f} s | {v.get('pdf_max', v['max']):.3f} s "
            f"| {v['latency']:.3f} s | {v['notice']:.3f} s | {v['cycle']:.3f} s | "
            f"{v.get('rebuilt', '-')} | {v['runs']} |"
        )
        if key == "fabg":
            x = pdf
            targets.append(f"| fabg: `pnp watch` shows a text edit in under 0.3 s | "
                           f"{x:.3f} s | {verdict(x, x < 0.3)} |")  # fmt: skip
    return [*lines, *targets, ""]


PUBLISH_MODES = {
    "build": ["build"],
    "pod": ["build", "--for", "thegamecrafter"],
    "release": ["release"],
}


def publish_tables(res: dict[str, Any]) -> list[str]:
    """Issue 30: a print-on-demand export and a release against the same build's PDFs."""
    publish = res.get("publish", {})
    if not publish:
        return []
    lines = [
        "### Print-on-demand files and the release bundle",
        "",
        "`pnp build` of both languages (A4) alone, the same with `--for thegamecrafter` (every "
        "distinct face again as a 825 x 1125 px PNG with its bleed, a manifest), and `pnp "
        "release` (the PDFs of both languages on A4 and on Letter, TTS sheets at 300 dpi, "
        "contact sheets, the byte-stable ZIP with its checksums), interleaved run by run. "
        "Written: the PNG files, or the ZIP.",
        "",
        "| pack | command | wall | CPU | peak | written | wall ÷ plain build |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    names = {
        "build": "`pnp build` (the PDFs alone)",
        "pod": "`pnp build --for thegamecrafter`",
        "release": "`pnp release`",
    }
    for key, entry in publish.items():
        base = entry["build"]["wall"]
        for which, title in names.items():
            v = entry[which]
            lines.append(
                f"| {key} | {title} | {fmt_s(v['wall'])} | {fmt_s(v['cpu'])} | "
                f"{fmt_mb(v['rss_mb'])} | {entry['written_mb'][which]:.1f} MB | "
                f"{fmt_x(ratio(v['wall'], base))} |"
            )
    return [*lines, ""]


def duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def report(res: dict[str, Any], meta: dict[str, Any]) -> str:
    d = derived(res)
    m = meta["machine"]
    lines = [
        f"Measured {meta['date']} on commit `{meta['commit']}` (pnp/ tree "
        f"{meta['pnp_tree']}), "
        f"{meta['runs']} run(s) each, medians; the whole run took {duration(meta['duration'])}"
        f"{' (--quick)' if meta['quick'] else ''}.",
        "",
        f"Machine: {m['cpu']}, {m['nproc']} cores, {m['memory']} memory; {m['os']}, "
        f"Python {m['python']}, reportlab {m['reportlab']}. Load average before / after: "
        f"{meta['load_before']} / {meta['load_after']} (other work on the machine slows "
        "wall times; CPU times are steadier).",
        "",
        "### pnp against the minimal reportlab scripts",
        "",
        "Both build the English and the Italian PDF; sizes are the two PDFs together.",
        "",
        *build_table(res),
        "",
        "### Other measurements",
        "",
        *other_table(res, d),
        "",
        *raster_tables(res),
        *modes_tables(res),
        *publish_tables(res),
        "### Targets",
        "",
        *targets_table(d),
    ]
    if meta["failures"]:
        lines += ["", "Failures:", "", *[f"- {f}" for f in meta["failures"]]]
    return "\n".join(lines)


def write_readme(text: str) -> None:
    block = f"{START}\n{text}\n{END}"
    current = README.read_text(encoding="utf-8") if README.exists() else ""
    if START in current and END in current:
        head, rest = current.split(START, 1)
        tail = rest.split(END, 1)[1]
        README.write_text(head + block + tail, encoding="utf-8")
    else:
        README.write_text(current.rstrip() + "\n\n" + block + "\n", encoding="utf-8")


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="CI smoke: text 100, art 30")
    parser.add_argument("--no-readme", action="store_true", help="do not touch README.md")
    parser.add_argument("--runs", type=int, help="runs per measurement (default 3, quick 1)")
    parser.add_argument(
        "--from-json", type=Path, help="measure nothing: report the results saved in this file"
    )
    parser.add_argument(
        "--only",
        choices=["raster", "modes", "floor", "publish"],
        help="only these cases (raster: --png 300 and --tts; modes: --bleed 3, --fold, "
        "pnp watch; floor: art 900 against the I/O floor, and where its time goes; publish: "
        "--for thegamecrafter and pnp release of art 900); implies --no-readme",
    )
    args = parser.parse_args(argv)
    if args.only:
        args.no_readme = True
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.from_json:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        meta, results = saved["meta"], saved["results"]
    else:
        meta, results = measure_all(
            args.quick, args.runs or (1 if args.quick else 3), args.only or ""
        )
    text = report(results, meta)
    print(text)
    if not args.no_readme:
        write_readme(text)
        print(f"\nwrote {README.relative_to(REPO)}", file=sys.stderr)
    if meta["failures"]:
        print(f"\n{len(meta['failures'])} failure(s)", file=sys.stderr)
        return 1
    return 0


def modes(bench: Bench) -> None:
    """--bleed 3 (art 90, 900), --fold (text 100, art 90) and pnp watch (text 100, FABG)."""
    for n in (90, 900):
        bench.mode("art", n, "bleed", ["--bleed", "3"])
    bench.mode("text", 100, "fold", ["--fold"])
    bench.mode("art", 90, "fold", ["--fold"])
    bench.watch("text-100", gen.make_pack("text", 100), gen.GAME, "cards/bench/decks.yaml",
                ("Cobalt Engine 1", "Cobalt Engine 9"))  # fmt: skip
    bench.watch("fabg", REPO, "fabg", "cards/fabg/decks.yaml",
                ("Start with 10 {coin}", "Start with 12 {coin}"))  # fmt: skip


def measure_all(quick: bool, runs: int, only: str = "") -> tuple[dict[str, Any], dict[str, Any]]:
    """Every measurement of a full (or quick) run; also saved to benchmarks/work/."""
    started = time.perf_counter()
    WORK.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    (scratch / "tmp").mkdir()
    os.environ["TMPDIR"] = str(scratch / "tmp")  # children's temporary files
    meta: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "pnp_tree": snapshot_pnp(scratch / "snapshot"),
        "machine": machine(),
        "runs": runs,
        "quick": quick,
        "load_before": load_average(),
    }
    bench = Bench(runs, scratch, WORK / "logs" / ("quick" if quick else "full"))
    try:
        if only == "raster":
            bench.raster("text", 100)
            bench.raster("art", 90)
        elif only == "modes":
            modes(bench)
        elif only == "floor":
            bench.builds("art", 900, scripts=False)
            bench.stages("art", 900)
        elif only == "publish":
            bench.publish("art", 900)
        elif quick:
            bench.builds("text", 100)
            bench.builds("art", 30)
            bench.stages("art", 30)
            bench.validate(100)
            bench.load(100)
            bench.rebuild("text", 100)
            bench.jobs("text", 100)
            bench.publish("art", 30)
        else:
            for n in (100, 1000, 10000):
                bench.builds("text", n)
            for n in (90, 900):
                bench.builds("art", n)
            bench.validate(10000)
            bench.load(5000)
            bench.rebuild("text", 1000)
            bench.rebuild("art", 90)
            bench.jobs("text", 1000)
            bench.jobs("art", 90)
            bench.jobs("art", 900)  # where rendering outweighs the start
            bench.stages("art", 900)
            bench.raster("text", 100)
            bench.raster("art", 90)
            modes(bench)
            bench.publish("art", 900)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    meta["duration"] = time.perf_counter() - started
    meta["load_after"] = load_average()
    meta["failures"] = bench.failures
    name = f"results-{only}.json" if only else "results-quick.json" if quick else "results.json"
    (WORK / name).write_text(
        json.dumps({"meta": meta, "results": bench.results}, indent=1), encoding="utf-8"
    )
    return meta, bench.results


if __name__ == "__main__":
    raise SystemExit(main())
