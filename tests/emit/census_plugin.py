"""The binding-aware census (docs/to-gpu.md): a pytest plugin that records every dispatch the
test suite makes (the kernel and the arrays and values it binds) and emits each kernel with
those bindings, as ``to_wgsl(kernel, **bindings)`` would; at the end it compiles every emitted
module with naga (when a device exists) and writes the table. Not collected as a test file;
run it as::

    ASH_CENSUS_OUT=/tmp/census.json PYTHONPATH=tests/emit \\
        python -m pytest -q -p no:cacheprovider -p census_plugin tests examples

A kernel counts once (by file:line); it ``emits`` if any of its dispatches' bindings emit.
Categories as in kernel_census.py: emits (and validates), needs bindings (a type even the
bindings do not give), unsupported (a construct outside the subset: the documented error),
crash (an emitter bug)."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
RECORDS: dict[str, dict[str, Any]] = {}
TRIES = 3  # dispatches tried per kernel before giving up on it


def _where(fn: Any) -> str:
    code = getattr(fn, "__code__", None)
    if code is None:
        return repr(fn)
    path = Path(code.co_filename)
    try:
        path = path.relative_to(ROOT)
    except ValueError:
        pass
    return f"{path}:{code.co_firstlineno}"


def record(shader: Any, given: dict[str, Any]) -> None:
    """Emits ``shader`` with the bindings of one of its dispatches (never raises)."""
    from asyncshader.emit import WGSLEmitError, to_wgsl

    try:
        key = _where(shader.fn)
        row = RECORDS.setdefault(key, {"name": shader.fn.__qualname__, "tries": 0})
        if row.get("category") == "emits" or row["tries"] >= TRIES:
            return
        row["tries"] += 1
        bindings = {k: v for k, v in given.items() if k in shader.params}
        try:
            row["wgsl"] = to_wgsl(shader, **bindings)
            row["category"], row["detail"] = "emits", ""
        except WGSLEmitError as exc:
            text = str(exc)
            row["category"] = "needs bindings" if "cannot be inferred" in text else \
                "not defined" if "is not defined" in text else "unsupported"
            row["detail"] = text.split(": ", 2)[-1][:160]
        except Exception as exc:  # an emitter bug
            row["category"], row["detail"] = "crash", f"{type(exc).__name__}: {exc}"[:160]
    except Exception:
        pass


def pytest_configure(config: Any) -> None:
    from asyncshader.stages import compute, fragment

    compute_init, fragment_init = compute.ComputeRun.__init__, fragment.FragmentRun.__init__

    def compute_run(self: Any, kernel: Any, workgroups: Any, schedule: Any, max_live: Any,
                    instruments: Any, bindings: dict, *args: Any, **kwargs: Any) -> None:
        record(kernel, bindings)
        compute_init(self, kernel, workgroups, schedule, max_live, instruments, bindings,
                     *args, **kwargs)

    def fragment_run(self: Any, shader: Any, width: Any, height: Any, schedule: Any,
                     derivatives: Any, max_live: Any, instruments: Any, options: Any,
                     given: dict, *args: Any, **kwargs: Any) -> None:
        record(shader, given)
        fragment_init(self, shader, width, height, schedule, derivatives, max_live,
                      instruments, options, given, *args, **kwargs)

    compute.ComputeRun.__init__ = compute_run
    fragment.FragmentRun.__init__ = fragment_run


SEEN = [0]


def pytest_runtest_logfinish(nodeid: str, location: Any) -> None:
    SEEN[0] += 1
    if SEEN[0] % 200 == 0:  # (a partial table, should the run be cut short)
        _write(None)


def pytest_sessionfinish(session: Any) -> None:
    try:
        from asyncshader.extra.device import device
        dev = device()
    except Exception:
        dev = None
    _write(dev)


def _write(dev: Any) -> None:
    out = os.environ.get("ASH_CENSUS_OUT")
    if not out:
        return
    from asyncshader.extra.device import ShaderRejected, validate

    for row in RECORDS.values():
        if dev is not None and row.get("category") == "emits":
            try:
                validate(row["wgsl"], dev)
                row["validates"] = True
            except ShaderRejected as exc:
                row["validates"] = False
                row["detail"] = str(exc).split("\n")[1][:160]
    counts = Counter(r.get("category", "none") for r in RECORDS.values())
    counts["validates"] = sum(1 for r in RECORDS.values() if r.get("validates"))
    Path(out).write_text(json.dumps({"counts": counts, "tests": SEEN[0], "validated":
                                     dev is not None, "kernels": RECORDS}, indent=1,
                                    default=str))
