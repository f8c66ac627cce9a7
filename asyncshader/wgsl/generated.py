"""Shaders generated from another language's source: a front-end (WGSL) builds a Python syntax
tree whose nodes carry the positions of that source, and :func:`compile_generated` turns it
into functions the runtime runs as it runs hand-written shaders (docs/design.md, "Generated
shaders").

The generated code is written in the form the runtime's source passes would produce: WGSL's
operators as calls of :mod:`asyncshader.wgsl.operators`, stores into parts of values through
:func:`~asyncshader.wgsl.values.put`, every operation awaited. So the operator and value
rewrite (:mod:`asyncshader.wgsl.rewrite`) leaves it as it is; the decoration-time checks
(forgotten ``await``, direct awaits) read the generated tree instead of a source file; the
source text is registered with ``linecache`` under the file's name, so every report names the
source file's lines and shows their text.
"""

from __future__ import annotations

import ast
import types
from typing import Any

from .._core.sources import register_source
from .source import GENERATED

__all__ = ["compile_generated"]


def compile_generated(module: ast.Module, filename: str, source_text: str,
                      namespace: dict[str, Any]) -> dict[str, Any]:
    """Compiles ``module`` (a Python syntax tree whose nodes have the line and column numbers
    of ``source_text``) with ``filename`` as its file name, runs it in ``namespace`` (its
    globals: the module-scope ``ash.workgroup``/``ash.storage`` declarations and the names the
    code refers to) and returns ``namespace``. Each function the module defines at its top
    level is marked as generated (it carries its own ``def`` as its syntax tree), so that
    ``ash.compute(workgroup_size=...)(namespace["main"])`` and ``ash.fragment`` accept it
    without a Python source file. ``source_text`` becomes the text of ``filename``'s lines
    for tracebacks and reports; no file is written."""
    if not isinstance(module, ast.Module):
        raise TypeError(f"compile_generated needs an ast.Module, not {type(module).__name__}")
    for node in ast.walk(module):
        if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
            raise ValueError(f"compile_generated: a {type(node).__name__} node has no line "
                             f"number; every node must carry its position in {filename}")
    register_source(filename, source_text)
    code = compile(module, filename, "exec", dont_inherit=True)
    exec(code, namespace)
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn = namespace.get(node.name)
            if isinstance(fn, types.FunctionType) and fn.__code__.co_filename == filename:
                setattr(fn, GENERATED, ast.Module([node], type_ignores=[]))
    return namespace
