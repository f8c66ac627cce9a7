"""The running dispatch, as the operations a shader calls see it: one context variable that a
dispatch sets while its shaders run (operations that depend on the stage read it)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

#: the dispatch whose shaders are running (operations that depend on the stage read it)
CURRENT_RUN: ContextVar[Any] = ContextVar("asyncshader_current_run", default=None)


def current_run() -> Any:
    """The running dispatch (ComputeRun, FragmentRun), or None outside a dispatch."""
    return CURRENT_RUN.get()
