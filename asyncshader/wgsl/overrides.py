"""WGSL's pipeline-overridable constants: ``BLOCK = override(u32, 64)`` at module scope is
``override BLOCK: u32 = 64;``, a constant whose value each dispatch may choose
(``ash.run(kernel, overrides={"BLOCK": 128})``; WebGPU's pipeline ``constants``).

A shader reads it by its name, as WGSL does (``i * BLOCK``). The rewrite that gives a shader
WGSL's operators (:mod:`asyncshader.wgsl.rewrite`) turns every such read into
``BLOCK.value``: the running dispatch's value (a context variable the dispatch sets), else the
default. An override declared without a default must be given a value by every dispatch of a
kernel that reads it, as WebGPU requires at pipeline creation."""

from __future__ import annotations

import difflib
from contextvars import ContextVar
from typing import Any

import numpy as np

from ..errors import DispatchError
from .types import _ScalarType

__all__ = ["OVERRIDES", "Override", "override", "override_context", "override_values",
           "pipeline_constants"]

#: the running dispatch's override values, by Override object (None outside a dispatch)
OVERRIDES: ContextVar[dict | None] = ContextVar("asyncshader_overrides", default=None)
_MISSING = object()


class Override:
    """A pipeline-overridable constant (WGSL ``override``): its scalar type, its default (None:
    the dispatch must give a value), its ``@id`` (None: none), and the name the shader reads it
    by (found when a shader is compiled)."""

    __slots__ = ("default", "id", "name", "type")

    def __init__(self, t: Any, default: Any, id: int | None) -> None:
        self.type, self.default, self.id = t, default, id
        self.name = "<override>"

    @property
    def value(self) -> Any:
        """The running dispatch's value, else the default."""
        values = OVERRIDES.get()
        if values is not None:
            v = values.get(self, _MISSING)
            if v is not _MISSING:
                return v
        if self.default is None:
            raise TypeError(f"override {self.name} has no default and no value: pass "
                            f"overrides={{{self.name!r}: ...}} to the dispatch")
        return self.default

    def __repr__(self) -> str:
        default = "" if self.default is None else f" = {self.default!r}"
        at = "" if self.id is None else f"@id({self.id}) "
        return f"<{at}override {self.name}: {self.type.wgsl}{default}>"


def override(t: Any, default: Any = None, *, id: int | None = None) -> Override:
    """WGSL ``override name: T = default;`` (``@id(n)`` with ``id``): a scalar constant of type
    ``t`` (``bool_``, ``i32``, ``u32``, ``f32``, ``f16``) that each dispatch may set with
    ``overrides={"name": value}`` (or by its id). Declare it at module scope::

        BLOCK = ash.override(u32, 64)           # override BLOCK: u32 = 64;
        SCALE = ash.override(f32, id=3)         # @id(3) override SCALE: f32;  (required)
    """
    if not isinstance(t, _ScalarType):
        raise TypeError(f"override() takes a scalar WGSL type (bool_, i32, u32, f32, f16), not "
                        f"{t!r}: WGSL's overrides are scalars")
    if id is not None and (isinstance(id, bool) or not isinstance(id, int)
                           or not 0 <= id < 65536):
        raise TypeError(f"override(..., id={id!r}): an id is an integer from 0 to 65535")
    return Override(t, None if default is None else t(default), id)


def override_values(kernel: str, used: dict[str, Override], given: Any) -> dict:
    """The values a dispatch gives the overrides its kernel reads (``used``, by name), keyed by
    Override: ``given`` maps names (or ids) to values, converted to each override's type.
    Raises DispatchError for a name the kernel does not read, a value that does not convert,
    or an override without default that is given no value."""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise DispatchError(f"overrides= takes a dict of name: value, not {given!r}")
    by_key = {name: ov for name, ov in used.items()}
    by_key |= {str(ov.id): ov for ov in used.values() if ov.id is not None}
    values: dict[Override, Any] = {}
    for key, v in given.items():
        ov = by_key.get(str(key))
        if ov is None:
            close = difflib.get_close_matches(str(key), list(used), n=1)
            raise DispatchError(
                f"{kernel}: overrides= names {key!r}, which the kernel does not read"
                + (f"; did you mean {close[0]!r}?" if close else "")
                + f" (it reads {', '.join(sorted(used)) or 'no override'})")
        values[ov] = _converted(kernel, ov, v)
    for name, ov in used.items():
        if ov.default is None and ov not in values:
            raise DispatchError(f"{kernel}: override {name} has no default, so the dispatch "
                                f"must give it a value: pass overrides={{{name!r}: ...}}")
    return values


def override_context(shader: Any, given: Any) -> tuple:
    """What a dispatch of ``shader`` (a kernel or fragment shader) with ``overrides=given`` adds
    to its ``context_values``: the values its reads of overrides see; nothing when it reads no
    override and none is given."""
    fixed = getattr(shader, "overrides_fixed", None)  # (a kernel made with its constants)
    if given and fixed is not None:
        raise DispatchError(fixed)
    used = getattr(shader.shader_fn, "__ash_overrides__", {})
    if not used and not given:
        return ()
    return ((OVERRIDES, override_values(shader.fn.__qualname__, used, given)),)


def pipeline_constants(kernel: str, used: dict[str, Override], given: Any) -> dict[str, float]:
    """``given`` (as a dispatch's ``overrides=``) as WebGPU's pipeline ``constants``: keyed by
    the ``@id`` of an override that has one (WebGPU requires it then), else by its name."""
    return {(ov.name if ov.id is None else str(ov.id)): float(v)
            for ov, v in override_values(kernel, used, given).items()}


_RANGES = {"u32": (0, 2**32 - 1), "i32": (-2**31, 2**31 - 1)}


def _converted(kernel: str, ov: Override, v: Any) -> Any:
    """``v`` as the override's type: a number (WebGPU's constants are doubles) that the type
    holds exactly when it is an integer type."""
    wgsl = ov.type.wgsl
    low, high = _RANGES.get(wgsl, (None, None))
    number = isinstance(v, (int, float, np.number, np.bool_))
    if not number or (low is not None and (float(v) != int(v) or not low <= int(v) <= high)):
        raise DispatchError(f"{kernel}: override {ov.name} is {wgsl}; cannot convert {v!r} "
                            f"(give a number{'' if low is None else f' from {low} to {high}'})")
    return ov.type(v)
