"""Pipeline-overridable constants (``ash.override``) as WGSL ``override`` declarations:
``BLOCK = ash.override(u32, 64)`` read by the shader is ``override BLOCK: u32 = 64u;``
(``@id(n)`` first when it has one; no initializer when it has no default), declared once at
module scope, in the order the shader first reads them. A dispatch on a GPU sets them through
the pipeline's ``constants`` (:func:`asyncshader.crosscheck` passes its ``overrides=``)."""

from __future__ import annotations

from typing import Any

from ..wgsl.overrides import Override
from .values import E
from .wtypes import from_python, literal

__all__ = ["declarations", "value"]


def value(fx: Any, name: str, ov: Override) -> E:
    """A read of the override ``ov``, by the name the shader uses."""
    t = from_python(ov.type)
    fx.module.overrides.setdefault(name, (ov, t))
    return E(name, t)


def declarations(module: Any) -> list[str]:
    """The ``override`` lines (then a blank line) of the overrides the shader read."""
    out = []
    for name, (ov, t) in module.overrides.items():
        at = "" if ov.id is None else f"@id({ov.id}) "
        init = "" if ov.default is None else f" = {literal(ov.default, t)}"
        out.append(f"{at}override {name}: {t.wgsl}{init};")
    return [*out, ""] if out else out
