"""Implicit conversions on store: a float value stored into integer memory (an ``i32``/``u32``
storage buffer, workgroup variable or fragment storage), or an f32 into f16 memory. WGSL
converts nothing implicitly, so the shader would not compile; numpy truncates toward zero (or
rounds to f16) and the run goes on with changed values.

The access-reporting arrays (:mod:`asyncshader.wgsl.watched`) see every plain store of an
instrumented run and call :func:`report` (through the run) when the value is a float and the
memory holds integers. It records an :class:`~asyncshader.sanitizers.findings.ImplicitConversion`
finding, or raises ``TypeError`` at the store's line for a ``strict=True`` kernel. With
``sanitize="off"`` the arrays are plain numpy arrays: nothing is checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..wgsl.types import Vec
from . import findings as reports

_SCALAR = {"i": "i32", "u": "u32", "f": "f32"}
_F16 = np.dtype(np.float16)


def value_type(value: Any) -> str:
    """The WGSL type of a stored value, as the message names it."""
    if isinstance(value, Vec):
        return type(value).__name__
    if isinstance(value, np.float32):
        return "f32"
    if isinstance(value, float):  # Python's float is numpy's float64
        return "f32 (a Python float)" if type(value) is float else "f32 (a numpy float64)"
    if isinstance(value, np.floating):
        return f"f32 (a numpy {np.dtype(type(value)).name})"
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype.name}"
    if isinstance(value, (np.int64, np.uint64)):
        return (f"a numpy {type(value).__name__} ({value}): numpy widened an expression that "
                "mixed i32 with u32 (or summed with numpy) to 64 bits, which WGSL refuses, and "
                "the value does not fit")
    return type(value).__name__


def memory_type(view: Any, index: Any, memory: Any = None) -> str:
    """The WGSL type of the stored-to element (``i32``, ``u32``, ``vec3i``, ...) of ``view``;
    of one element of ``memory`` for a store element by element (``view`` None: ``fill``,
    ``put``, ``a.flat[i] = v``)."""
    dtype = (view if view is not None else memory).dtype
    scalar = "f16" if dtype == _F16 else _SCALAR.get(dtype.kind, dtype.name)
    if view is None:
        return scalar
    try:
        shape = np.shape(np.ndarray.__getitem__(view.view(np.ndarray), index))
    except (IndexError, TypeError, ValueError):
        shape = ()
    if shape == ():
        return scalar
    if len(shape) == 1 and 2 <= shape[0] <= 4:
        return f"vec{shape[0]}{'h' if scalar == 'f16' else scalar[0]}"
    return f"array<{scalar}>"


def report(run: Any, inv: Any, memory: Any, index: Any, value: Any, view: Any) -> None:
    """``inv`` stores a float ``value`` into ``view[index]`` (``memory`` holds integers):
    raises TypeError for a strict kernel, else records a finding (folded per binding, line and
    value type, with the elements it happened at)."""
    name, space = run.memory_name(memory)
    target = memory_type(view, index, memory)
    shown = _shown(index)
    if getattr(run, "strict", False):
        where = "" if isinstance(index, tuple) and index == () else f"[{shown}]"
        raise TypeError(f"a float stored into {name}{where}. " + reports.ImplicitConversion.explain(
            value_type(value), space, name, target, stored=False))
    detector = run.detector
    if detector is None or inv is None:
        return
    site = detector._site()

    def make() -> reports.ImplicitConversion:
        return reports.ImplicitConversion(
            memory=name, address_space=space, index=shown,
            value_type=value_type(value), memory_type=target, conversion=f"{target}(...)",
            access=reports._access_at(str(inv), "store", detector._sites[site]))

    detector._add(("conversion", name, site, value_type(value)), make, shown)


def _shown(index: Any) -> Any:
    """An index as the finding shows it: ``...`` for every element (``fill``), a list for
    the positions ``put`` writes."""
    if index is Ellipsis:
        return "..."
    if isinstance(index, (np.ndarray, list)):
        return np.ravel(index).tolist()
    return reports._plain(index)
