"""A pytest plugin for the dispatch-time census (docs/to-gpu.md): while the test suite runs, every
kernel dispatched through ``asyncshader.run`` / ``run_fragments`` is also emitted with the
arrays the test binds, and the outcome (emits, its error's first words) is written as JSON to
the file named by ``ASH_CENSUS_OUT`` at the end. Not loaded by default::

    ASH_CENSUS_OUT=/tmp/census.json python -m pytest -q -p census_plugin tests/ \
        --rootdir . -o pythonpath=tests/emit
"""

from __future__ import annotations

import json
import os
from typing import Any

import asyncshader as ash
from asyncshader.emit import WGSLEmitError, emit

_SEEN: dict[str, str] = {}


def _where(kernel: Any) -> str:
    code = kernel.fn.__code__
    root = os.getcwd()
    return f"{os.path.relpath(code.co_filename, root)}:{code.co_firstlineno}"


def _try(kernel: Any, bindings: dict) -> None:
    where = _where(kernel)
    if _SEEN.get(where) == "emits":
        return
    given = {k: v for k, v in bindings.items() if k in getattr(kernel, "params", {})}
    try:
        emit(kernel, **given)
        _SEEN[where] = "emits"
    except WGSLEmitError as exc:
        _SEEN[where] = "error: " + str(exc).split(": ", 2)[-1][:160]
    except Exception as exc:  # an emitter bug
        _SEEN[where] = f"crash: {type(exc).__name__}: {exc}"[:200]


def _wrap(original: Any, shape: int) -> Any:
    def wrapper(kernel: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(kernel, "stage", None) in ("compute", "fragment"):
            _try(kernel, kwargs)
        return original(kernel, *args, **kwargs)

    wrapper.__wrapped__ = original  # type: ignore[attr-defined]
    return wrapper


def pytest_configure(config: Any) -> None:
    from asyncshader.stages import compute, fragment

    for module, name in ((ash, "run"), (ash, "run_fragments"), (compute, "run"),
                         (fragment, "run_fragments")):
        setattr(module, name, _wrap(getattr(module, name), 0))


def pytest_unconfigure(config: Any) -> None:
    out = os.environ.get("ASH_CENSUS_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(_SEEN, f, indent=1, sort_keys=True)
