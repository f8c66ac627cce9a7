"""Module paths from before the package was split into its layers (0.1): ``from
asyncshader.schedule import Trace`` keeps working, with a :class:`DeprecationWarning` that names
the new place. Import public names from ``asyncshader`` itself; the layer modules
(``asyncshader.schedules.strategies``, ...) are where they live.

Each old path is a small stand-in module in :data:`sys.modules` that forwards attribute access
to the new module (the new module is imported on first use, not before).
"""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from typing import Any

#: old module (below asyncshader.) -> where it lives now
MOVED = {
    "traps": "_core.traps", "invocations": "_core.invocations",
    "diagnostics": "_core.diagnostics", "instruments": "_core.instruments",
    "scheduler": "_core.scheduler", "lean": "_core.lean",
    "schedule": "schedules.strategies", "exhaustive": "schedules.exhaustive",
    "types": "wgsl.types", "managed": "wgsl.managed", "watched": "wgsl.watched",
    "memory": "wgsl.memory", "bindings": "wgsl.bindings", "atomics": "wgsl.atomics",
    "findings": "sanitizers.findings", "races": "sanitizers.races",
    "source_checks": "sanitizers.source_checks",
    "quads": "collectives.quads", "derivatives": "collectives.derivatives",
    "dispatch": "stages.dispatch", "compute": "stages.compute", "fragment": "stages.fragment",
    "explore": "exploration.explore", "shrink": "exploration.shrink",
    "cli": "tools.cli", "pytest_plugin": "tools.pytest_plugin", "demo": "tools.demo",
    "images": "tools.images",
}
#: names that moved out of the module the old path now means (``schedule`` -> ``trace``, ...)
_SPLIT = {"Trace": "schedules.trace", "TRACE_FORMAT": "schedules.trace",
          "TRACE_VERSION": "schedules.trace", "TRACE_STRING_PREFIX": "schedules.trace",
          "current_run": "_core.context", "CURRENT_RUN": "_core.context",
          "user_stacklevel": "_core.sources", "position_of": "_core.sources",
          "internal": "_core.sources", "as_strategy": "schedules.names",
          "strategy_from_name": "schedules.names", "FragmentStorage": "stages.fragment_io",
          "TracedFragmentStorage": "stages.fragment_io"}


def forward(old: str, new: str, name: str) -> Any:
    """Attribute ``name`` of ``asyncshader.<old>``, read from ``asyncshader.<new>`` with a
    :class:`DeprecationWarning` naming the new place."""
    if name.startswith("__"):
        raise AttributeError(name)
    module = importlib.import_module(f"asyncshader.{new}")
    if not hasattr(module, name) and name in _SPLIT:
        new = _SPLIT[name]
        module = importlib.import_module(f"asyncshader.{new}")
    try:
        value = getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'asyncshader.{old}' (now asyncshader.{new}) has no "
                             f"attribute {name!r}") from None
    home = getattr(value, "__module__", None)
    if not (isinstance(home, str) and home.startswith("asyncshader.")):
        home = f"asyncshader.{new}"
    warnings.warn(f"asyncshader.{old} moved: import {name} from asyncshader (public names) or "
                  f"from {home}",
                  DeprecationWarning, stacklevel=3)
    return value


class _Moved(types.ModuleType):
    def __init__(self, old: str, new: str) -> None:
        super().__init__(f"asyncshader.{old}", f"Moved to asyncshader.{new}.")
        self._ash_old, self._ash_new = old, new

    def __getattr__(self, name: str) -> Any:
        return forward(self._ash_old, self._ash_new, name)

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(f"asyncshader.{self._ash_new}"))


def install() -> None:
    """Puts a stand-in for every old path into :data:`sys.modules` (once)."""
    for old, new in MOVED.items():
        sys.modules.setdefault(f"asyncshader.{old}", _Moved(old, new))
