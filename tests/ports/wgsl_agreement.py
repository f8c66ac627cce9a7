"""Runs one compute entry point of a real WGSL shader on lavapipe and through ``ash.load_wgsl``
with the same input bytes, and compares what each left in its writable buffers.

The inputs are made from the module's reflection (``reflect_wgsl``: each resource's type,
least size and runtime-array stride): every scalar of every binding gets a seeded random value
of its type (integers from a small range, so that the values a shader indexes with stay in
bounds; floats in [-1, 1)), padding stays zero, and a case may give a binding's values itself.
Each side gets its own copy of the same bytes (a ``bytearray``: ``load_wgsl`` views a binding's
bytes through its WGSL type and layout, as a GPU does). The outputs are compared scalar by scalar
(padding is not compared): integers exactly, floats within the case's ULP bound (WGSL's
accuracy, docs/wgsl-testing.md "Execution agreement")."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from ports import wgsl_originals

import asyncshader as ash
from asyncshader.front.wgsl import reflect_wgsl
from asyncshader.ir.layout import stride_of, struct_layout
from asyncshader.ir.types import Array, Atomic, Matrix, Scalar, Struct, Vector

DATA = Path(__file__).resolve().parent.parent / "data"
_NP = {"f32": np.float32, "i32": np.int32, "u32": np.uint32, "f16": np.float16}


@dataclass(frozen=True)
class Case:
    """A shader entry point to run on both: ``file`` under tests/data (``wgsl_real/`` or
    ``ports/``), its ``entry`` point, the ``workgroups`` dispatched, ``elements`` the length
    given to every runtime-sized array, ``values`` a binding's scalars by its name (a list,
    cycled), ``ints`` the range random integers are drawn from, ``ulps`` and ``atol`` the float
    bound (``|a - b| <= atol + ulps * ulp(max(|a|, |b|))``)."""

    file: str
    entry: str = "main"
    workgroups: tuple[int, ...] = (1,)
    elements: int = 16
    values: dict[str, list[float]] = field(default_factory=dict)
    ints: tuple[int, int] = (0, 8)
    ulps: int = 0
    atol: float = 0.0

    @property
    def id(self) -> str:
        return f"{self.file.split('/')[-1].removesuffix('.wgsl')}::{self.entry}"

    def text(self) -> str:
        return (DATA / self.file).read_text(encoding="utf-8")


def leaves(t: Any, elements: int) -> list[tuple[int, str]]:
    """Each scalar of a value of type ``t`` laid out in memory: (byte offset, scalar type),
    a runtime-sized array holding ``elements`` elements."""
    if isinstance(t, Scalar):
        return [(0, t.name)]
    if isinstance(t, Atomic):
        return [(0, t.scalar.name)]
    if isinstance(t, Vector):
        size = 2 if t.scalar.name == "f16" else 4
        return [(i * size, t.scalar.name) for i in range(t.size)]
    if isinstance(t, Matrix):
        column = Vector(t.rows, t.scalar)
        return [(c * stride_of(column) + o, s) for c in range(t.cols)
                for o, s in leaves(column, elements)]
    if isinstance(t, Array):
        n = t.length if isinstance(t.length, int) else elements
        inner, stride = leaves(t.element, elements), stride_of(t.element)
        return [(i * stride + o, s) for i in range(n) for o, s in inner]
    if isinstance(t, Struct):
        members = struct_layout(t).members
        return [(m.offset + o, s) for m, (_, ft) in zip(members, t.fields)
                for o, s in leaves(ft, elements)]
    raise TypeError(f"no memory layout for {getattr(t, 'wgsl', t)}")


def buffer_size(resource: Any, elements: int) -> int:
    """The bytes a binding gets: its least size, plus ``elements - 1`` runtime-array elements."""
    extra = (elements - 1) * resource.stride if resource.stride else 0
    return -(-(resource.min_size + extra) // 16) * 16


def fill(resource: Any, case: Case, rng: np.random.Generator) -> bytearray:
    """The binding's input bytes: random scalars of its type (or ``case.values``)."""
    raw = bytearray(buffer_size(resource, case.elements))
    given = case.values.get(resource.name)
    for i, (offset, scalar) in enumerate(leaves(resource.type, case.elements)):
        if given is not None:
            value = given[i % len(given)]
        elif scalar in ("f32", "f16"):
            value = rng.uniform(-1.0, 1.0)
        else:
            value = rng.integers(*case.ints)
        np.frombuffer(raw, _NP[scalar], 1, offset)  # (bounds check)
        raw[offset:offset + np.dtype(_NP[scalar]).itemsize] = _NP[scalar](value).tobytes()
    return raw


def inputs(case: Case, seed: int = 0) -> tuple[Any, dict[str, bytearray]]:
    """The entry point's reflection and each binding's input bytes, by name."""
    entry = reflect_wgsl(case.text()).entry_points[case.entry]
    rng = np.random.default_rng(seed)
    return entry, {r.name: fill(r, case, rng) for r in entry.resources}


def run_asyncshader(case: Case, entry: Any, raw: dict[str, bytearray]) -> dict[str, bytes]:
    """``case`` run by ``ash.load_wgsl`` on copies of ``raw``: each writable buffer's bytes."""
    module = ash.load_wgsl(case.text())
    copies = {r.name: bytearray(raw[r.name]) for r in entry.resources}  # (take the stores)
    ash.run(module[case.entry], case.workgroups, sanitize="off", **copies)
    return {r.name: bytes(copies[r.name]) for r in entry.resources if _written(r)}


def run_lavapipe(device: Any, case: Case, entry: Any, raw: dict[str, bytearray]
                 ) -> dict[str, bytes]:
    """``case`` run on lavapipe (wgpu) on copies of ``raw``: each writable buffer's bytes."""
    arrays = {r.name: (bytes(raw[r.name]) if r.kind == "uniform" else
                       np.frombuffer(bytes(raw[r.name]), np.uint8).copy())
              for r in entry.resources}
    out = wgsl_originals.run(device, case.text(), case.entry, case.workgroups, **arrays)
    return {r.name: out[r.name].tobytes() for r in entry.resources if _written(r)}


def _written(resource: Any) -> bool:
    return resource.kind == "storage" and resource.access == "read_write"


def differences(case: Case, entry: Any, ours: dict[str, bytes], gpu: dict[str, bytes]
                ) -> list[str]:
    """Every scalar where the two runs disagree beyond the case's bound (at most 10)."""
    found = []
    for r in entry.resources:
        if r.name not in ours:
            continue
        for offset, scalar in leaves(r.type, case.elements):
            a = np.frombuffer(ours[r.name], _NP[scalar], 1, offset)[0]
            b = np.frombuffer(gpu[r.name], _NP[scalar], 1, offset)[0]
            if not _agree(a, b, scalar, case):
                found.append(f"{r.name}+{offset} ({scalar}): asyncshader {a!r}, lavapipe {b!r}")
    return found[:10]


def _agree(a: Any, b: Any, scalar: str, case: Case) -> bool:
    if scalar not in ("f32", "f16"):
        return a == b
    if np.isnan(a) or np.isnan(b):
        return bool(np.isnan(a) and np.isnan(b))
    if a == b:
        return True
    bound = case.atol + case.ulps * np.spacing(max(abs(a), abs(b)))
    return bool(abs(float(a) - float(b)) <= bound)
