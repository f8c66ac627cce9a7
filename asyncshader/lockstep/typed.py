"""The checked WGSL tree Lockstep compiles: a loaded kernel's own, as ``load_wgsl`` made it
(parsed, resolved and checked once, at load), else the front-end's of the text (a Python
kernel's ``to_wgsl`` module, a generated kernel's registered text)."""

from __future__ import annotations

from typing import Any

from ..front.wgsl.check import Checker
from ..front.wgsl.parser import parse
from ..front.wgsl.resolve import resolve
from ..front.wgsl.source import Source


def checked_tree(kernel: Any, source: Source) -> tuple[Checker, Any]:
    """``(checker, typed module)`` of ``source``, the WGSL ``kernel`` is."""
    carried = getattr(kernel, "checked", None)
    if carried is not None and carried[0].source.text == source.text:
        return carried
    checker = Checker(resolve(parse(source), source))
    # (no uniformity analysis: a barrier reached by part of a workgroup is a run-time error
    # here, as in the coroutine schedules; a loaded module had it at load, with its setting)
    checker.uniformity = "off"
    return checker, checker.run()
