"""Runs emitted WGSL on a real WebGPU implementation (wgpu, an optional dependency: the ``gpu``
extra) and compares it with asyncshader's CPU run: :func:`crosscheck`, :func:`crosscheck_fragments`.

One device per process, opened at the first use and shared (:func:`device`); pass ``device=``
to use another. With no adapter at all, :class:`GPUUnavailable` says what to install.

What is compared: every storage buffer and storage texture the shader can write (a texture's
written level, as its host values; for fragments, every output too).
Integers must be equal; floats must agree within ``ulp`` units in the last place (default 4: WGSL
lets division be 2.5 ULP off and most built-ins more, see docs/builtins.md) or within ``atol``
(default 0; for values computed by cancellation, such as derivatives, whose error is absolute: a
few ULP of the operands, many ULP of a small result), with NaN equal to NaN. Values that depend on
the schedule (an atomic's returned value, a race's outcome) legitimately differ: leave such buffers
out with ``ignore=("name", ...)`` or judge them with ``check=`` (a function of the CPU and GPU
arrays by name that raises or returns False)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.instruments import Instrument
from .._core.verdicts import check_failed
from ..emit import Emitted, emit
from ..emit.buffers import from_gpu, struct_bytes, to_gpu
from ..emit.wtypes import Matrix, Vector
from ..errors import BindingError, CrosscheckError
from ..stages.compute import run
from ..stages.fragment import run_fragments
from ..wgsl.overrides import pipeline_constants
from .device import GPUUnavailable, ShaderRejected, adapter_name, device, validate
from .harness import fragment_harness, read_pixels
from .textures import handle_entry, host_copy, storage_texture_entry, written_level


@dataclass
class Difference:
    """One element that differs: where, the two values, and the invocation that wrote it on
    the CPU (None if none did: the GPU wrote an element the CPU left alone)."""

    binding: str
    index: Any
    cpu: Any
    gpu: Any
    writer: str | None

    def __str__(self) -> str:
        who = f", written by {self.writer}" if self.writer else ""
        return f"{self.binding}[{self.index}]: CPU {self.cpu!r}, GPU {self.gpu!r}{who}"


@dataclass
class CrosscheckReport:
    """The outcome: the WGSL that ran, the arrays of both sides, the differences by binding."""

    wgsl: str
    cpu: dict[str, np.ndarray]
    gpu: dict[str, np.ndarray]
    differences: dict[str, list[Difference]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    adapter: str = ""
    findings: list = field(default_factory=list)  # the CPU run's race-detector findings
    sizes: dict[str, int] = field(default_factory=dict)  # elements compared, by name

    @property
    def ignored(self) -> list[str]:
        return [n for n in self.cpu if n not in self.counts and not any(
            k.startswith(n + ".") for k in self.counts)]

    @property
    def ok(self) -> bool:
        return not any(self.counts.values())

    def describe(self) -> str:
        if self.ok:
            return (f"crosscheck: {', '.join(n for n in self.counts)} agree on {self.adapter}"
                    + (f" ({', '.join(self.ignored)} not compared)" if self.ignored else ""))
        lines = [f"crosscheck on {self.adapter}: the GPU differs from the CPU"]
        for name, n in self.counts.items():
            if n and name == "check":  # (the check= function's verdict, not a binding)
                lines.append("  check(cpu, gpu) returned False")
            elif n:
                total = self.sizes.get(name) or self.cpu[name].size
                lines.append(f"  {name}: {n} of {total} elements differ; first:")
                lines += [f"    {d}" for d in self.differences[name][:8]]
        return "\n".join(lines)


# ------------------------------------------------------------------------------------ compute
def crosscheck(kernel: Any, workgroups: Any = 1, *, ulp: int = 4, atol: float = 0.0,
               ignore: tuple = (), check: Any = None, device: Any = None,
               raise_on_difference: bool = True, subgroup_size: int | None = None,
               overrides: dict | None = None, schedule: Any = None, sanitize: str = "report",
               **bindings: Any) -> CrosscheckReport:
    """Runs a compute dispatch on the CPU (``asyncshader.run``) and its WGSL (``to_wgsl``) on a
    WebGPU device, and compares every storage buffer and every storage texture it may write
    (the written level): integers exactly, floats within ``ulp`` units in the last place or
    ``atol`` (absolute). ``check(cpu, gpu)`` (the arrays by name) judges what the comparison
    cannot: ``False`` (numpy's too) fails, ``True`` or None (a check that asserts) passes.
    ``subgroup_size`` is the CPU run's (``asyncshader.run``'s option: set it to the GPU's, 8 on
    lavapipe, to compare a size-dependent result). Raises :class:`CrosscheckError` (an
    AssertionError) on a difference unless ``raise_on_difference=False``; returns the report.
    The arrays and textures you pass are not changed: each side gets copies. ``overrides``
    (name or id: value) sets the kernel's ``ash.override`` constants on both sides (the GPU's
    through the pipeline's ``constants``). ``schedule`` and ``sanitize`` are the CPU run's
    (``asyncshader.run``'s options: the race detector's findings are in the report); with
    ``schedule=ash.Lockstep()`` and ``sanitize="off"`` the CPU side runs as numpy arrays over
    lanes (docs/lockstep.md), and a difference names no writing invocation."""
    dev = device or _device()
    code = emit(kernel, **bindings)
    cpu = {k: v.copy() if isinstance(v, np.ndarray) else host_copy(v)
           for k, v in bindings.items()}
    writers = _Writers(cpu)
    watched = [] if hasattr(schedule, "run_dispatch") else [writers]  # (Lockstep: no hooks)
    result = run(kernel, workgroups, schedule=schedule, instruments=watched, sanitize=sanitize,
                 subgroup_size=subgroup_size, overrides=overrides, **cpu)
    groups = _size3(workgroups)
    constants = pipeline_constants(kernel.fn.__qualname__, getattr(
        kernel.shader_fn, "__ash_overrides__", {}), overrides)
    gpu = _run_compute(dev, code, groups, bindings, constants)
    cpu.update({b.name: written_level(cpu[b.name]) for b in code.bindings
                if _writes_texture(b)})  # (a storage texture compares as its written level)
    return _compare(code, cpu, gpu, writers, (ulp, atol), ignore, check, dev,
                    raise_on_difference, result.findings)


def _device() -> Any:
    return device()


def _size3(v: Any) -> tuple[int, int, int]:
    t = (v,) if isinstance(v, int) else tuple(v)
    return tuple(t) + (1,) * (3 - len(t))  # type: ignore[return-value]


def _uniform_bytes(value: Any, t: Any) -> bytes:
    """A uniform's value as the bytes of a 16-byte uniform buffer (a scalar or a vector)."""
    data = struct_bytes(value)
    if data is not None:
        return data
    if isinstance(t, Matrix):  # (columns padded as in a buffer)
        data = to_gpu(np.asarray(value, np.float16 if t.scalar.name == "f16" else np.float32),
                      t).tobytes()
        return data + bytes(-len(data) % 16)
    s = t.scalar if isinstance(t, Vector) else t
    values = list(value) if hasattr(value, "__iter__") else [value]
    if s.kind == "f":  # (f16 components take 2 bytes each: vec3h is 6 bytes at offset 0)
        data = np.asarray(values, np.float16 if s.name == "f16" else np.float32).tobytes()
    else:  # i32 as its two's complement bits, bool as 0 / 1
        data = np.array([int(v) & 0xFFFFFFFF for v in values], np.uint64).astype(
            np.uint32).tobytes()
    return data.ljust(16, b"\0")


def _buffers(dev: Any, code: Emitted, bindings: dict[str, Any], visibility: Any = None
             ) -> tuple[list, dict[str, Any]]:
    """Each binding's buffer: (group, bind-group entry) pairs, and what to read back after the
    pass, by name: the storage buffers and the storage textures the shader may write (each a
    function returning the array)."""
    import wgpu

    usage = wgpu.BufferUsage
    entries, outputs = [], {}
    for b in code.bindings:
        value = bindings.get(b.name)
        if value is None:
            raise BindingError(f"crosscheck needs a value for the binding {b.name!r} (pass "
                               f"{b.name}=... as to the dispatch)")
        if b.space == "handle" and _writes_texture(b):  # (extra/textures.py)
            entry, outputs[b.name] = storage_texture_entry(dev, b.binding, value)
            entries.append((b.group, entry))
            continue
        if b.space == "handle":  # a sampled texture, a read-only storage texture, a sampler
            entries.append((b.group, handle_entry(dev, b.binding, value)))
            continue
        if b.space == "uniform":
            buf = dev.create_buffer_with_data(data=_uniform_bytes(value, b.type),
                                              usage=usage.UNIFORM)
        else:
            arr = np.ascontiguousarray(value)
            arr = to_gpu(arr, b.type)  # (WGSL pads vec3 and 3-row matrix columns)
            if arr.dtype == np.bool_:
                arr = arr.astype(np.uint32)
            if arr.nbytes == 0:
                arr = np.zeros(1, np.uint32)
            buf = dev.create_buffer_with_data(data=arr.tobytes(), usage=usage.STORAGE |
                                              usage.COPY_SRC)
            if b.space == "storage":
                outputs[b.name] = functools.partial(_read_buffer, dev, buf, b.type,
                                                    np.asarray(value))
        entries.append((b.group, {"binding": b.binding, "resource": {
            "buffer": buf, "offset": 0, "size": buf.size}}))
    return entries, outputs


def _writes_texture(b: Any) -> bool:
    """Whether the emitted binding ``b`` is a storage texture the shader may write."""
    kind = getattr(b.type, "kind", None)
    return bool(getattr(kind, "storage", False)) and kind.access != "read"


def _read_buffer(dev: Any, buf: Any, t: Any, like: np.ndarray) -> np.ndarray:
    return from_gpu(dev.queue.read_buffer(buf), t, like)


def _run_compute(dev: Any, code: Emitted, groups: tuple, bindings: dict[str, Any],
                 constants: dict | None = None) -> dict[str, np.ndarray]:
    import wgpu

    module = validate(code.source, dev)
    stage = {"module": module, "entry_point": code.entry}
    if constants:  # (the overrides' values: wgsl/overrides.py)
        stage["constants"] = constants
    pipeline = dev.create_compute_pipeline(layout=wgpu.AutoLayoutMode.auto, compute=stage)
    entries, outputs = _buffers(dev, code, bindings)
    encoder = dev.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    for g in range(max((g for g, _ in entries), default=-1) + 1):  # (every group up to the
        cpass.set_bind_group(g, dev.create_bind_group(  # last used: an unused one is empty)
            layout=pipeline.get_bind_group_layout(g), entries=[e for k, e in entries if k == g]))
    cpass.dispatch_workgroups(*groups)
    cpass.end()
    dev.queue.submit([encoder.finish()])
    return {name: read() for name, read in outputs.items()}


# ------------------------------------------------------------------------------------ fragment
def crosscheck_fragments(shader: Any, width: int, height: int, *, ulp: int = 4,
                         atol: float = 0.0, ignore: tuple = (), check: Any = None,
                         device: Any = None, raise_on_difference: bool = True,
                         overrides: dict | None = None, **bindings: Any) -> CrosscheckReport:
    """:func:`crosscheck` for a fragment shader: ``run_fragments`` on the CPU (with
    ``derivatives="fine"``: lavapipe computes coarse derivatives as fine ones) against a draw
    of ``width`` x ``height`` pixels on the GPU; compares the outputs, the storage buffers and
    the storage textures the shader may write (the written level).
    Per-pixel inputs are arrays shaped (height, width[, n]); ``overrides`` as for
    :func:`crosscheck`."""
    dev = device or _device()
    emit(shader, **bindings)  # (the shader's own errors first, without the harness)
    cpu_b = {k: v.copy() if isinstance(v, np.ndarray) else host_copy(v)
             for k, v in bindings.items()}
    writers = _Writers(cpu_b)
    result = run_fragments(shader, width, height, derivatives="fine", instruments=[writers],
                           sanitize="report", overrides=overrides, **cpu_b)
    outs = result.output if isinstance(result.output, dict) else {"output": result.output}
    harness = fragment_harness(shader, width, height, bindings)
    cpu = {k: v for k, v in cpu_b.items() if any(b.name == k and b.space == "storage"
                                                   for b in harness.emitted.bindings)}
    cpu.update({f"output.{k}" if k != "output" else k: np.asarray(v) for k, v in outs.items()
                if v is not None})
    constants = pipeline_constants(shader.fn.__qualname__, getattr(
        shader.shader_fn, "__ash_overrides__", {}), overrides)
    gpu = read_pixels(dev, harness, width, height, bindings, _buffers, constants)
    cpu.update({b.name: written_level(cpu_b[b.name]) for b in harness.emitted.bindings
                if _writes_texture(b)})  # (a storage texture compares as its written level)
    return _compare(harness.emitted, cpu, gpu, writers, (ulp, atol), ignore, check, dev,
                    raise_on_difference, result.findings)


# ------------------------------------------------------------------------------------ compare
class _Writers(Instrument):
    """An instrument that remembers which invocation last wrote each element (CPU side)."""

    wants_memory_access = True

    def __init__(self, bindings: dict[str, Any]) -> None:
        self.arrays = {k: v for k, v in bindings.items() if isinstance(v, np.ndarray)}
        self.last: dict[tuple[str, int], str] = {}

    def _name(self, memory: Any) -> str | None:
        for name, arr in self.arrays.items():
            if np.may_share_memory(np.asarray(memory), arr):
                return name
        return None

    def _note(self, inv: Any, memory: Any, index: Any) -> None:
        name = self._name(memory)
        if name is not None and isinstance(index, (int, np.integer)):
            self.last[(name, int(index))] = repr(inv)

    def memory_access(self, inv: Any, memory: Any, index: Any, kind: str) -> None:
        if kind == "store":
            self._note(inv, memory, index)

    def atomic(self, inv: Any, op: str, memory: Any, index: Any, old: Any, new: Any) -> None:
        if op != "atomic_load":
            self._note(inv, memory, index)


def _differs(a: np.ndarray, b: np.ndarray, ulp: int, atol: float = 0.0) -> np.ndarray:
    """Where ``a`` and ``b`` differ: integers at all, floats by more than ``ulp`` units in the
    last place of their own type (f32 or f16) and by more than ``atol``; NaN equals NaN."""
    if a.dtype.kind != "f":
        return a != b
    dtype = np.float16 if a.dtype == np.float16 else np.float32
    bits, top = (np.int16, 2**15) if dtype == np.float16 else (np.int32, 2**31)
    a_, b_ = a.astype(dtype), b.astype(dtype)
    both_nan = np.isnan(a_) & np.isnan(b_)
    ia = a_.view(bits).astype(np.int64)
    ib = b_.view(bits).astype(np.int64)
    ia = np.where(ia < 0, -top - ia, ia)  # (monotone ordering of the bit patterns)
    ib = np.where(ib < 0, -top - ib, ib)
    with np.errstate(invalid="ignore"):  # (inf - inf, nan - x: nan, never within atol)
        near = np.abs(a_.astype(np.float64) - b_.astype(np.float64)) <= atol
    return ~both_nan & (np.abs(ia - ib) > ulp) & ~near


def _members(name: str, a: np.ndarray, b: np.ndarray) -> list[tuple[str, Any, Any]]:
    """A buffer as the arrays to compare: itself, or a struct buffer's members one by one
    (``p.velocity``; nested structs' members too), each with its own tolerance."""
    if a.dtype.names is None:
        return [(name, a, b)]
    return [pair for field in a.dtype.names
            for pair in _members(f"{name}.{field}", a[field], b[field])]


def _compare(code: Emitted, cpu: dict, gpu: dict, writers: _Writers,
             tolerance: tuple[int, float], ignore: tuple,
             check: Any, dev: Any, raise_on_difference: bool, findings: list
             ) -> CrosscheckReport:
    names = [n for n in gpu if n in cpu]
    report = CrosscheckReport(code.source, {n: np.asarray(cpu[n]) for n in names},
                              {n: gpu[n] for n in names}, adapter=adapter_name(dev),
                              findings=list(findings))
    pairs = [(label, a, b) for n in names if n not in ignore
             for label, a, b in _members(n, report.cpu[n],
                                         report.gpu[n].reshape(report.cpu[n].shape))]
    for n, a, b in pairs:
        bad = np.argwhere(_differs(a, b, *tolerance).reshape(a.shape))
        report.counts[n], report.sizes[n] = len(bad), a.size
        report.differences[n] = [
            Difference(n, tuple(int(i) for i in idx) if len(idx) > 1 else int(idx[0]),
                       a[tuple(idx)].item(), b[tuple(idx)].item(),
                       writers.last.get((n, int(np.ravel_multi_index(tuple(idx), a.shape)))))
            for idx in bad[:32]]
    if check is not None and check_failed(check(report.cpu, report.gpu), check):
        report.counts["check"] = 1
        report.differences["check"] = []
    if raise_on_difference and not report.ok:
        raise CrosscheckError(report)
    return report


__all__ = ["CrosscheckError", "CrosscheckReport", "Difference", "GPUUnavailable",
           "ShaderRejected", "crosscheck", "crosscheck_fragments", "device", "validate"]
