"""Pipeline creation for Lockstep: the override-expressions a compiled entry point needs as
numbers (an ``@workgroup_size`` given by overrides, the element count of an override-sized
workgroup array), evaluated by the front-end's :class:`~..front.wgsl.pipeline.Pipeline` from
a dispatch's pipeline constants, as ``load_wgsl`` evaluates them for the coroutine path.
Lockstep compiles an entry point per pipeline constants (:func:`.schedule.program_of`), so
these are constants of the compiled code."""

from __future__ import annotations

from typing import Any

from ..front.wgsl import syntax as ast
from ..front.wgsl.pipeline import MISSING, Pipeline, workgroup_dimension
from ..ir.types import Array, OverrideSize

__all__ = ["MISSING", "dimension", "pipeline_of", "sized"]


def pipeline_of(checker: Any, constants: dict[str, Any] | None) -> Pipeline:
    """The pipeline of ``checker``'s module with ``constants`` (keyed by override name or
    ``@id``, as a dispatch gives them)."""
    by_name = dict(constants or {})
    for decl in checker.resolved.module.decls:
        if isinstance(decl, ast.VarDecl) and decl.kind == "override":
            ids = [a for a in decl.attributes if a.name == "id"]
            key = str(int(checker.value(ids[0].args[0]))) if ids else None
            if key in by_name and decl.name not in by_name:
                by_name[decl.name] = by_name.pop(key)
    return Pipeline(checker, by_name)


def dimension(pipeline: Pipeline | None, e: ast.Expr, refuse: Any) -> int:
    """One ``@workgroup_size`` argument given by overrides, in ``pipeline`` (``refuse``: the
    compiler's refusal, for an override without a value)."""
    n = workgroup_dimension(pipeline, e) if pipeline is not None else None
    if n is None:
        raise refuse(e.span, "a workgroup size given by an override without a value (give "
                     "it: load_wgsl(..., constants={...}), or overrides= for a Python "
                     "kernel)")
    return n


def sized(pipeline: Pipeline | None, t: Any) -> Any:
    """``t`` with an override-sized array's element count from ``pipeline`` (``t`` itself
    where it has none: a use of it is refused)."""
    if isinstance(t, Array) and isinstance(t.length, OverrideSize) and pipeline is not None:
        n = pipeline.length(t.length)
        if n is not MISSING:
            return Array(t.element, int(n))
    return t
