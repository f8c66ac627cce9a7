"""Running one dispatch of a compute pipeline on asyncshader's runtime: the bound buffer
ranges viewed through their WGSL types (:func:`binding_values`), ``ash.run`` with the
device's options, and the record of what it found, named by the dispatch."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import AsyncShaderError
from ..schedules.strategies import Replay
from ..schedules.trace import Trace
from ..stages.compute import run
from ..wgsl.layout import dtype_of
from ..wgsl.types import ArrayType, Vec


@dataclass
class DispatchRecord:
    """One dispatch a submit ran: ``name`` says which (submit, encoder, pass, dispatch,
    pipeline, entry point, workgroup counts); ``result`` is asyncshader's
    :class:`~asyncshader.DispatchResult` (``findings``, ``trace``, counters), or None when the
    dispatch raised ``error`` (whose trace is kept: replaying it reproduces the error)."""

    name: str
    result: Any
    error: BaseException | None = None

    @property
    def findings(self) -> list:
        if self.result is None:
            return list(getattr(self.error, "findings", ()))
        return self.result.findings

    @property
    def trace(self) -> Trace | None:
        if self.result is None:
            return getattr(self.error, "asyncshader_trace", None)
        return self.result.trace


@dataclass
class DispatchFinding:
    """A finding (a race, an out-of-bounds access, ...) with the dispatch it came from;
    ``str()`` is the dispatch's name, then the finding as asyncshader renders it (with the WGSL
    file and line)."""

    dispatch: str
    finding: Any

    def __str__(self) -> str:
        return f"{self.dispatch}:\n{self.finding.render()}"


@dataclass
class AsyncShaderOptions:
    """What a device on asyncshader adds to WebGPU (``device.asyncshader``): the options each
    dispatch runs with (``schedule``: a strategy such as ``ash.Random(3)``, or a list of traces
    to replay, one per dispatch in submission order; ``sanitize``; ``subgroup_size``;
    ``watchdog``; ``strict``: the first finding raises) and the record of the dispatches run."""

    schedule: Any = None
    sanitize: str | None = None
    subgroup_size: int | None = None
    watchdog: float | None = 10.0
    strict: bool = False
    dispatches: list[DispatchRecord] = field(default_factory=list)

    @property
    def findings(self) -> list[DispatchFinding]:
        """Every finding of the dispatches run so far, each with its dispatch."""
        return [DispatchFinding(d.name, f) for d in self.dispatches for f in d.findings]

    def traces(self) -> list[Trace]:
        """The traces of the dispatches run so far, in order: ``schedule=`` of a new device
        replays them."""
        return [d.trace for d in self.dispatches if d.trace is not None]

    def clear(self) -> None:
        """Forgets the dispatches recorded so far."""
        self.dispatches.clear()

    def run_options(self) -> dict[str, Any]:
        schedule = self.schedule
        if isinstance(schedule, list):  # (traces to replay, one per dispatch)
            if not schedule:
                raise AsyncShaderError("device.asyncshader.schedule: every trace given has been "
                                       "replayed; this submit dispatches more than the run "
                                       "that recorded them")
            schedule = Replay(schedule.pop(0))
        sanitize = "error" if self.strict else self.sanitize
        return {"schedule": schedule, "sanitize": sanitize, "watchdog": self.watchdog,
                "subgroup_size": self.subgroup_size}


def binding_values(pipeline: Any, ranges: dict[tuple[int, int], np.ndarray]) -> dict[str, Any]:
    """What a dispatch binds: each storage buffer's bound bytes (a ``uint8`` view of the
    buffer range) by ``bindings={(group, binding): bytes}``, which the loaded kernel views
    through the WGSL type without a copy (``front/wgsl/bindings.py``: the shader's stores land
    in the buffer); each uniform as its value, by WGSL name, read from its bytes now (a
    uniform is a copy on a GPU too). What is a uniform is worked out once per pipeline."""
    plan = pipeline.__dict__.get("_uniforms")
    if plan is None:
        plan = pipeline._uniforms = {}
        for r in pipeline._resources:
            if r.kind == "uniform":
                element = pipeline._module.namespace[r.name].annotation.element
                plan[r.group, r.binding] = (r.name, element, dtype_of(element))
    values: dict[str, Any] = {"bindings": {}}
    for slot, raw in ranges.items():
        uniform = plan.get(slot)
        if uniform is None:
            values["bindings"][slot] = raw
        else:
            values[uniform[0]] = _uniform(uniform[1], uniform[2], raw)
    return values


def _uniform(element: Any, dtype: np.dtype, raw: np.ndarray) -> Any:
    """The value of a uniform of type ``element`` (with WGSL layout ``dtype``) held by the
    bytes ``raw``: a scalar, a vector, an array value, or a struct (a 0-d structured view)."""
    head = raw[:dtype.itemsize]
    if dtype.names is not None:
        return head.view(dtype).reshape(())
    if isinstance(element, ArrayType):
        inner = dtype_of(element.element)
        stride = dtype.base.itemsize
        if inner.names is not None:  # (an array of structs: a structured array)
            return head.view(dtype.base)
        return element(*(_uniform(element.element, inner, head[k * stride:])
                         for k in range(element.length)))
    if isinstance(element, type) and issubclass(element, Vec):
        return element(*head.view(dtype.base))
    return element(head.view(dtype)[0])


def run_dispatch(options: AsyncShaderOptions, pipeline: Any,
                 ranges: dict[tuple[int, int], np.ndarray], counts: tuple[int, int, int],
                 name: str) -> None:
    """Runs one dispatch and records it; an error of the run (a shader error, a finding under
    ``strict``) names the dispatch."""
    try:
        result = run(pipeline._kernel, counts, **options.run_options(),
                     **binding_values(pipeline, ranges))
    except AsyncShaderError as exc:
        exc.add_note(f"in {name}")
        options.dispatches.append(DispatchRecord(name, None, exc))
        raise
    options.dispatches.append(DispatchRecord(name, result))
