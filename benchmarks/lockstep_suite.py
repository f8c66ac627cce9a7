"""What a test suite would gain from running its dispatches in lockstep: every kernel and
fragment shader of the examples that have a ``setup()`` (at the sizes their tests use), run
as a test runs it, once, under the suite's default (``InOrder`` with the race detector),
``InOrder`` without it, and ``Lockstep()``; the first run (what a suite pays: Lockstep
compiles the kernel then) and a second one, each (file, schedule) in a fresh process. Prints
per kernel the times and whether Lockstep ran it and agreed with the check, then the totals
over the kernels Lockstep runs.

    python benchmarks/lockstep_suite.py [--files NAME,...]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import json, sys, time, warnings
sys.path.insert(0, {root!r})
warnings.simplefilter("ignore")
import asyncshader as ash
from asyncshader.exploration.runs import _run_checked
from asyncshader.tools.targets import load_target
path, mode = {path!r}, {mode!r}
module = load_target.__globals__["_import"](path)
names = [k for k, v in vars(module).items()
         if isinstance(v, (ash.ComputeKernel, ash.FragmentShader))
         and v.fn.__module__ == module.__name__]
rows = []
for name in names:
    try:
        kernel, setup, check, _, _ = load_target(f"{{path}}::{{name}}")
    except Exception as exc:  # (no setup() for this kernel)
        continue
    times, outcome = [], "ok"
    for _ in range(2):
        schedule = ash.Lockstep() if mode == "lockstep" else ash.InOrder()
        sanitize = "report" if mode == "default" else "off"
        t = time.perf_counter()
        try:
            result, _, failure, _ = _run_checked(kernel, setup, check, schedule, [], sanitize)
        except Exception as exc:
            failure = f"refused: {{type(exc).__name__}}: {{str(exc).splitlines()[0][:90]}}"
        times.append(time.perf_counter() - t)
        if failure:
            outcome = failure if failure.startswith("refused") else "check failed"
            break
    rows.append({{"kernel": f"{{module.__name__}}.{{name}}", "times": times,
                  "outcome": outcome}})
print(json.dumps(rows))
"""

MODES = ("default", "off", "lockstep")


def measure(path: str, mode: str) -> list[dict]:
    code = CHILD.format(root=ROOT, path=path, mode=mode)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", default=None,
                    help="only these examples (names without .py, comma-separated)")
    args = ap.parse_args(argv)
    files = sorted(p for p in glob.glob(os.path.join(ROOT, "examples", "*.py"))
                   if "\ndef setup" in open(p, encoding="utf-8").read())
    if args.files:
        chosen = set(args.files.split(","))
        files = [p for p in files if os.path.basename(p)[:-3] in chosen]
    print(f"{'kernel':34s} {'InOrder+detector':>18s} {'InOrder off':>14s} "
          f"{'Lockstep':>14s}  (first run / second run, ms)  Lockstep")
    totals = {m: [0.0, 0.0] for m in MODES}
    ran = refused = 0
    for path in files:
        by_mode = {m: {r["kernel"]: r for r in measure(path, m)} for m in MODES}
        for kernel, row in by_mode["default"].items():
            if row["outcome"].startswith("refused"):  # (the file's setup() is another's)
                continue
            cells = []
            for m in MODES:
                t = by_mode[m][kernel]["times"]
                cells.append(f"{t[0] * 1e3:7.1f}/{t[-1] * 1e3:6.1f}")
            outcome = by_mode["lockstep"][kernel]["outcome"]
            agrees = outcome == row["outcome"]
            if not outcome.startswith("refused"):
                ran += 1
                for m in MODES:
                    t = by_mode[m][kernel]["times"]
                    totals[m][0] += t[0]
                    totals[m][1] += t[-1]
            else:
                refused += 1
            note = outcome if outcome.startswith("refused") else (
                "same verdict" if agrees else f"{outcome} (InOrder: {row['outcome']})")
            print(f"{kernel:34s} {cells[0]:>18s} {cells[1]:>14s} {cells[2]:>14s}  {note}",
                  flush=True)
    print(f"\n{ran} kernels Lockstep runs, {refused} it refuses; totals over those it runs "
          "(first run / second run; InOrder+detector is sanitize=\"report\", the others "
          "sanitize=\"off\"):")
    for m, label in zip(MODES, ("InOrder+detector", "InOrder off", "Lockstep")):
        first, second = totals[m]
        print(f"  {label:18s} {first * 1e3:9.1f} ms / {second * 1e3:9.1f} ms")


if __name__ == "__main__":
    main()
