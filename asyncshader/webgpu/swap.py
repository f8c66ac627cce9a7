"""Running a wgpu-py program unchanged on asyncshader: :func:`as_wgpu` makes ``import wgpu``
(and ``wgpu.utils``, ``wgpu.utils.compute``, ``wgpu.enums``, ``wgpu.flags``) give
asyncshader's device while it is active; ``python -m asyncshader.webgpu program.py`` runs a
program so."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: what ``import wgpu...`` gets, by module name, under :func:`as_wgpu`
_SWAPPED = {"wgpu": "", "wgpu.utils": ".utils", "wgpu.utils.compute": ".utils.compute",
            "wgpu.utils.device": ".utils.device", "wgpu.enums": ".enums",
            "wgpu.flags": ".enums"}


@contextmanager
def as_wgpu() -> Iterator[Any]:
    """Within the block, ``import wgpu`` imports :mod:`asyncshader.webgpu` (and its
    submodules by wgpu-py's names); the modules that were there before come back after it."""
    import importlib

    before = {name: sys.modules.get(name) for name in _SWAPPED}
    try:
        for name, ours in _SWAPPED.items():
            sys.modules[name] = importlib.import_module(f"asyncshader.webgpu{ours}")
        yield sys.modules["wgpu"]
    finally:
        for name, module in before.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def run_program(path: str, argv: list[str] | None = None) -> dict[str, Any]:
    """Runs the wgpu-py program at ``path`` (as ``__main__``) on asyncshader's device;
    returns its globals."""
    saved = sys.argv
    sys.argv = [path, *(argv or [])]
    try:
        with as_wgpu():
            return runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv = saved
