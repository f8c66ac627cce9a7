"""The compute stage: ``@compute(workgroup_size=...)``, :func:`run` and :func:`dispatch`.

Builtins are injected by WGSL parameter name: ``global_invocation_id``, ``local_invocation_id``,
``local_invocation_index``, ``workgroup_id``, ``num_workgroups`` (and, from WGSL's
``linear_indexing`` extension, ``workgroup_index`` and ``global_invocation_index``). Vector
builtins are ``vec3u`` values, scalar builtins ``u32``; they are read-only. Every other parameter is
a resource bound by keyword at dispatch (see :mod:`asyncshader.bindings`).

Workgroups start lazily in workgroup order; at most ``max_live_workgroups`` are alive at once
(default 1). The schedule interleaves the invocations of the live workgroups; raise the limit to
let it interleave invocations of different workgroups too.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .._core.instruments import Instrument
from .._core.invocations import Group, Invocation
from .._core.scheduler import Scheduler
from .._core.validation import (
    check_bool,
    check_choice,
    check_instances,
    check_int,
    check_names,
    check_size3,
)
from ..collectives.barriers import WORKGROUP
from ..collectives.derivatives import DERIVATIVE_KINDS, derivative_kinds
from ..collectives.quads import QUAD
from ..collectives.subgroups import (
    SUBGROUP,
    check_subgroup_size,
    join_subgroup,
    subgroup_group,
    subgroup_options,
)
from ..errors import BindingError, DispatchError, OptionError
from ..sanitizers.creation_checks import check_creation
from ..sanitizers.races import SanitizedRun, default_off
from ..sanitizers.source_checks import check_awaits, direct_awaits, still_direct
from ..schedules.names import as_strategy, dispatcher
from ..schedules.strategies import Strategy
from ..wgsl.bindings import (
    bind_resources,
    explicit_points,
    signature_params,
    vector_elements,
)
from ..wgsl.memory import WorkgroupMemory, scan_kernel, trace_vars
from ..wgsl.module_bindings import Slots, module_params
from ..wgsl.overrides import Override, override_context
from ..wgsl.readonly import checked_read_only
from ..wgsl.reconvergence import reconvergence_options
from ..wgsl.rewrite import with_wgsl_operators
from ..wgsl.struct_buffers import StructArray
from ..wgsl.textures.annotations import storage_texture_outputs
from ..wgsl.types import Vec, vec3u
from ..wgsl.vec_arrays import vector_view
from ..wgsl.watched import traced_storage
from .dispatch import (
    DEFAULT_MAX_POINTS,
    DEFAULT_WATCHDOG,
    DispatchResult,
    check_derivative_mode,
    check_replay,
    check_watchdog,
    counters,
    drive,
    drive_async,
    kernel_identity,
    make_trace,
    refuse_nested,
)

SUBGROUP_BUILTINS = ("subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups")
COMPUTE_BUILTINS = ("global_invocation_id", "local_invocation_id", "local_invocation_index",
                    "workgroup_id", "num_workgroups", "workgroup_index",
                    "global_invocation_index", *SUBGROUP_BUILTINS)
OTHER_STAGE_BUILTINS = {
    "position": "fragment", "front_facing": "fragment", "sample_index": "fragment",
    "sample_mask": "fragment", "frag_depth": "fragment", "vertex_index": "vertex",
    "instance_index": "vertex",
}


class _Frozen:
    """Mixin for read-only builtin vectors (WGSL builtin inputs are immutable)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("builtin values are read-only (WGSL builtin inputs are immutable); copy "
                        "one first, e.g. v = vec3u(local_invocation_id)")

    __setitem__ = __setattr__


_FrozenVec3u = type("vec3u", (_Frozen, vec3u), {"__slots__": ()})
_set_x, _set_y, _set_z = vec3u.x.__set__, vec3u.y.__set__, vec3u.z.__set__


def _builtin_vec(x: int, y: int, z: int) -> Vec:
    v = object.__new__(_FrozenVec3u)
    _set_x(v, np.uint32(x))
    _set_y(v, np.uint32(y))
    _set_z(v, np.uint32(z))
    return v


class WebGPULimitWarning(UserWarning):
    """A kernel exceeds WebGPU's default device limits: it needs a device requested with
    higher limits (``requiredLimits``), which not every adapter offers."""


#: WebGPU's default limits for compute workgroups (spec: "Limits")
DEFAULT_LIMITS = {"maxComputeWorkgroupSizeX": 256, "maxComputeWorkgroupSizeY": 256,
                  "maxComputeWorkgroupSizeZ": 64, "maxComputeInvocationsPerWorkgroup": 256}


def _check_default_limits(fn: Callable, size: tuple[int, int, int]) -> None:
    x, y, z = size
    over = [(name, value, DEFAULT_LIMITS[name]) for name, value in (
        ("maxComputeWorkgroupSizeX", x), ("maxComputeWorkgroupSizeY", y),
        ("maxComputeWorkgroupSizeZ", z), ("maxComputeInvocationsPerWorkgroup", x * y * z))
        if value > DEFAULT_LIMITS[name]]
    if over:
        what = "; ".join(f"{name} {value} > {limit}" for name, value, limit in over)
        warnings.warn(WebGPULimitWarning(
            f"{fn.__qualname__}: workgroup_size {size} exceeds WebGPU's default limits ({what}). "
            "It runs here, but on a GPU the device must be requested with higher limits."),
            stacklevel=3)


def _refuse_override_size(fn: Callable, workgroup_size: Any) -> None:
    """WGSL lets an override size the workgroup; asyncshader's workgroup size is fixed when the
    kernel is decorated, so an ``ash.override`` there is refused with the fix."""
    dims = workgroup_size if isinstance(workgroup_size, (tuple, list)) else (workgroup_size,)
    if any(isinstance(d, Override) for d in dims):
        raise OptionError(
            f"{fn.__qualname__}: workgroup_size takes ints, not an ash.override (WGSL allows "
            "an override there; asyncshader fixes the workgroup size when the kernel is "
            "decorated). Fix: use a module constant, e.g. BLOCK_SIZE = 8 and "
            "@ash.compute(workgroup_size=(BLOCK_SIZE, BLOCK_SIZE))")


class ComputeKernel:
    """A compute entry point: the ``async def`` with its workgroup size. Made by :func:`compute`."""

    stage = "compute"

    def __init__(self, fn: Callable, workgroup_size: Any, derivatives: str | None,
                 strict: bool = False, subgroup_size: int | None = None) -> None:
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"@compute needs an `async def` shader; {fn.__qualname__} is a plain "
                            "function. Fix: write `async def " + fn.__name__ + "(...)`.")
        check_awaits(fn)
        self.awaited = direct_awaits(fn)  # None: it may suspend in a coroutine of its own
        self.fn = fn
        self.__wrapped_kernel__ = fn
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]
        _refuse_override_size(fn, workgroup_size)
        self.workgroup_size = check_size3("workgroup_size", workgroup_size, 1)
        check_choice("derivatives", derivatives, (None, "quads", "linear"))
        sx, sy, sz = self.workgroup_size
        if derivatives == "quads" and (sx % 2 or sy % 2):
            raise DispatchError(
                f"derivatives='quads' groups local ids (2x+i, 2y+j, z) into quads, so "
                f"workgroup_size x and y must be even; got {self.workgroup_size} (VUID-"
                "StandaloneSpirv-DerivativeGroupQuadsKHR-10151)")
        if derivatives == "linear" and (sx * sy * sz) % 4:
            raise DispatchError(
                f"derivatives='linear' groups local indices 4n..4n+3 into quads, so the "
                f"workgroup must hold a multiple of 4 invocations; got {self.workgroup_size} = "
                f"{sx * sy * sz} (VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152)")
        self.derivatives = derivatives
        self.strict = check_bool("strict", strict)
        self.subgroup_size = (None if subgroup_size is None
                              else check_subgroup_size(subgroup_size))
        _check_default_limits(fn, self.workgroup_size)
        check_creation(fn, "compute", self.workgroup_size, derivatives)
        self.params = signature_params(fn)
        for name, p in self.params.items():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
                raise TypeError(f"{fn.__qualname__}: parameter {p} is not supported; a shader "
                                "takes named builtins and resources")
            if name in OTHER_STAGE_BUILTINS:
                raise TypeError(f"{fn.__qualname__}: builtin {name!r} is not available in "
                                f"compute shaders ({OTHER_STAGE_BUILTINS[name]} builtin)")
            if p.kind == p.KEYWORD_ONLY and name not in COMPUTE_BUILTINS:
                close = difflib.get_close_matches(name, COMPUTE_BUILTINS, n=2, cutoff=0.75)
                if close:
                    raise TypeError(f"{fn.__qualname__}: keyword-only parameter {name!r} is not "
                                    f"a builtin; did you mean {' or '.join(map(repr, close))}? "
                                    "(A resource would be bound by that name.)")
        self.builtins = [n for n in self.params if n in COMPUTE_BUILTINS]
        explicit_points(fn.__qualname__, self.params)  # (two resources at one @binding)
        self.identity = kernel_identity(fn)

    @functools.cached_property
    def shader_fn(self) -> Callable:
        """The shader as it runs: ``fn`` with WGSL's operators (:mod:`asyncshader.wgsl.rewrite`),
        compiled at the first dispatch, when the helpers it calls are defined (the
        shader-creation checks run again then, for what was bound after decoration)."""
        check_creation(self.fn, "compute", self.workgroup_size, self.derivatives)
        return with_wgsl_operators(self.fn, strict=self.strict, reconverge=self.scan()[2])

    def scan(self) -> tuple[list, bool, bool, dict]:
        """The workgroup variables the kernel uses, whether it uses quad and subgroup
        operations, and the module-scope bindings it uses (with where its code refers to them).
        Read at every dispatch: variables may be declared after the kernel (like WGSL module
        scope)."""
        module: dict = {}
        variables, uses = scan_kernel(self.fn, module)
        quad_ops = any(getattr(f, "__ash_needs_quads__", False) for f in uses)
        subgroup_ops = any(getattr(f, "__ash_needs_subgroups__", False) for f in uses)
        n = self.workgroup_size[0] * self.workgroup_size[1] * self.workgroup_size[2]
        if quad_ops and self.derivatives is None and n % 4:
            raise DispatchError(
                f"{self.fn.__qualname__} uses quad operations; in compute a quad is 4 "
                f"consecutive local invocation indices, so the workgroup must hold a multiple "
                f"of 4 invocations, not {n}")
        return list(variables.values()), quad_ops, subgroup_ops, module

    def resolve_bindings(self, given: dict[str, Any]) -> dict[str, Any]:
        """The bindings a run binds by name, from those it was given (a front-end's kernel
        resolves ``bindings={(group, binding): ...}`` and views buffers' bytes here)."""
        return given

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{self.fn.__qualname__} is a compute kernel; run it with "
                        f"asyncshader.run({self.fn.__name__}, workgroups=..., <bindings>) or "
                        "`await asyncshader.dispatch(...)`")

    def __repr__(self) -> str:
        return f"<compute kernel {self.identity['name']} workgroup_size={self.workgroup_size}>"


def compute(workgroup_size: int | tuple[int, ...], *, derivatives: str | None = None,
            strict: bool = False, subgroup_size: int | None = None,
            ) -> Callable[[Callable], ComputeKernel]:
    """Decorator for a compute entry point, WGSL's ``@compute @workgroup_size(x, y, z)``.

    ``derivatives`` selects a compute-derivative layout, as VK_KHR_compute_shader_derivatives:
    ``"quads"`` makes quads of local ids (2x+i, 2y+j, z) (x and y sizes must be even),
    ``"linear"`` of local indices 4n..4n+3 (the size must be a multiple of 4). Without a layout,
    a derivative is a shader-creation error, as in WGSL (refused here, at decoration); quad
    operations then use 4 consecutive local indices. ``subgroup_size`` (4 to 128, a power
    of two) is the kernel's subgroup size unless a dispatch gives one (default 32;
    docs/subgroups.md).
    """
    if callable(workgroup_size) and not isinstance(workgroup_size, (int, tuple)):
        raise TypeError("@compute needs a workgroup size: @compute(workgroup_size=64)")

    def decorate(fn: Callable) -> ComputeKernel:
        return ComputeKernel(fn, workgroup_size, derivatives, strict, subgroup_size)
    return decorate


class _Ids:
    """Describes a compute invocation by its WGSL builtin ids, for messages."""

    def __init__(self, size: tuple[int, int, int], groups: tuple[int, int, int]) -> None:
        self.size, self.groups = size, groups

    def split(self, key: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        sx, sy, sz = self.size
        gx, gy, _ = self.groups
        n = sx * sy * sz
        w, l = divmod(key, n)
        wid = (w % gx, (w // gx) % gy, w // (gx * gy))
        lid = (l % sx, (l // sx) % sy, l // (sx * sy))
        return wid, lid, l

    def describe(self, inv: Invocation) -> str:
        wid, lid, l = self.split(inv.key)
        gid = tuple(w * s + i for w, s, i in zip(wid, self.size, lid))
        return (f"global_invocation_id=({_c(gid)}) [workgroup_id=({_c(wid)}), "
                f"local_invocation_id=({_c(lid)}), local_invocation_index={l}]")


def _c(t: tuple) -> str:
    return ",".join(str(v) for v in t)


class ComputeRun(SanitizedRun):
    """One compute dispatch: validated configuration and the lazily built workgroups."""

    def __init__(self, kernel: ComputeKernel, workgroups: Any, schedule: Any,
                 max_live_workgroups: int, instruments: Any, bindings: dict[str, Any],
                 max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                 derivatives: str = "coarse", sanitize: str | None = None,
                 allow_races: Any = (), subgroup_size: int | None = None,
                 subgroup_reduction: str = "lanes") -> None:
        if not isinstance(kernel, ComputeKernel):
            raise TypeError(f"expected a @compute kernel, got {kernel!r}"
                            + (" (decorate the async def with @asyncshader.compute(...))"
                               if inspect.iscoroutinefunction(kernel) else ""))
        self.kernel = kernel
        self.groups = check_size3("workgroups", workgroups, 0)
        check_int("max_live_workgroups", max_live_workgroups, 1)
        check_int("max_points_per_invocation", max_points_per_invocation, 1)
        allow_races = check_names("allow_races", allow_races)
        self.strategy: Strategy = as_strategy(schedule)
        self.instruments: list[Instrument] = check_instances(
            "instruments", instruments, Instrument, "ash.Footprints()")
        self.wg_vars, quad_ops, subgroup_ops, module = kernel.scan()
        params = module_params(kernel.fn.__qualname__, kernel.params, module)
        bindings = kernel.resolve_bindings(bindings)
        self.bindings = bind_resources(kernel.fn.__qualname__, params,
                                       set(kernel.builtins), bindings)
        self.max_live = max_live_workgroups
        self.ids = _Ids(kernel.workgroup_size, self.groups)
        self.unit_size = int(np.prod(kernel.workgroup_size))  # invocations per workgroup
        self.derivative_mode = check_derivative_mode(derivatives)
        self.has_derivatives = kernel.derivatives is not None
        self.context_values = ((DERIVATIVE_KINDS, derivative_kinds(
            self.derivative_mode if self.has_derivatives else None)),)
        self.strict = kernel.strict
        self.quads = kernel.derivatives is not None or quad_ops
        self.subgroups = subgroup_ops
        self.config = {"stage": "compute", "workgroups": list(self.groups),
                       "workgroup_size": list(kernel.workgroup_size),
                       "max_live_workgroups": max_live_workgroups}
        if self.quads:
            self.config["quads"] = kernel.derivatives or "linear"
            self.config["derivatives"] = self.derivative_mode
        self.subgroup_size = kernel.subgroup_size
        subgroup_options(self, subgroup_size, subgroup_reduction, subgroup_ops or any(
            b in SUBGROUP_BUILTINS for b in kernel.builtins))
        check_replay(self.strategy, kernel.identity, self.config)
        self.setup_sanitizer(sanitize, allow_races,
                             {k: v for k, v in self.bindings.items() if _is_storage(v)},
                             self.instruments)
        self.atomic_hooks = [i.atomic for i in self.instruments
                             if type(i).atomic is not Instrument.atomic]
        self.access_hooks = [i.memory_access for i in self.instruments
                             if i.wants_memory_access]
        self.args = checked_read_only(self.bindings, self.detector is not None)
        vectors = vector_elements(params)  # (Storage[vec3f]: buf[i] loads a vec3f)
        if self.access_hooks:  # storage buffers seen through access-reporting wrappers
            self.args = {k: traced_storage(v, self, vectors.get(k)) if _is_storage(v) else v
                         for k, v in self.args.items()}
            self.instruments.append(_TraceVars(self.wg_vars))
        elif vectors:
            self.args = {k: vector_view(v, vectors[k]) if k in vectors and _is_storage(v)
                         else v for k, v in self.args.items()}
        self.args = {k: v.shader_arg() if isinstance(v, StructArray) else v  # (unwatched)
                     for k, v in self.args.items()}
        self.module_slots = Slots(module) if module else None  # (swapped in while it runs)
        if module:
            self.module_slots.values = {name: self.args.pop(name) for name in module}
        self.scheduler = Scheduler(self._units(), self.strategy, self.instruments,
                                   max_live=max_live_workgroups,
                                   single_scope=not (self.quads or self.subgroups),
                                   active_sets=self.subgroups and not self.quads,
                                   max_points_per_invocation=max_points_per_invocation,
                                   max_key=int(np.prod(self.groups)) * int(np.prod(
                                       kernel.workgroup_size)),
                                   direct_sites=still_direct(kernel.shader_fn, kernel.awaited),
                                   **reconvergence_options(kernel.shader_fn, self.subgroups))

    def _units(self) -> Iterator[Group]:
        kernel = self.kernel
        sx, sy, sz = kernel.workgroup_size
        gx, gy, gz = self.groups
        n = sx * sy * sz
        used = set(kernel.builtins)
        call = _caller(kernel.shader_fn, kernel.builtins, self.args)
        lidx = [np.uint32(l) for l in range(n)]
        lids = [(l % sx, (l // sx) % sy, l // (sx * sy)) for l in range(n)]
        lid_vecs = [_builtin_vec(*t) for t in lids] if "local_invocation_id" in used else lids
        quad_of = _quad_layout(kernel.derivatives, lids, sx, sy) if self.quads else None
        lanes = [{WORKGROUP: l} if quad_of is None else {WORKGROUP: l, QUAD: quad_of[l][1]}
                 for l in range(n)]
        size = self.subgroup_size
        nsg = -(-n // size)  # subgroups per workgroup (the last may be partial)
        sg_args = [(np.uint32(l % size), np.uint32(size), np.uint32(l // size), np.uint32(nsg))
                   for l in range(n)]
        if self.subgroups:
            for l in range(n):
                lanes[l][SUBGROUP] = l % size
        nwg = _builtin_vec(gx, gy, gz)
        want_gid = "global_invocation_id" in used or "global_invocation_index" in used
        gid = gidx = None
        ids = self.ids
        for w in range(gx * gy * gz):
            wx, wy, wz = w % gx, (w // gx) % gy, w // (gx * gy)
            label = f"workgroup_id=({wx},{wy},{wz})"
            unit = Group(WORKGROUP, w, label, "local_invocation_index",
                         WorkgroupMemory(self.wg_vars, self))
            wid, widx = _builtin_vec(wx, wy, wz), np.uint32(w)
            groups = [{WORKGROUP: unit}]
            if quad_of is not None:
                quads = [Group(QUAD, q, f"quad {q} of {label}", "quad id") for q in range(n // 4)]
                groups = [{WORKGROUP: unit, QUAD: quad} for quad in quads]
            if self.subgroups:
                subgroups = [subgroup_group(k, f"subgroup {k} of {label}",
                                            min(size, n - k * size)) for k in range(nsg)]
            key0 = w * n
            members = []
            for l in range(n):
                if want_gid:
                    lx, ly, lz = lids[l]
                    gix, giy, giz = wx * sx + lx, wy * sy + ly, wz * sz + lz
                    gid = _builtin_vec(gix, giy, giz)
                    gidx = np.uint32(gix + giy * sx * gx + giz * sx * gx * sy * gy)
                coro = call(wid, widx, nwg, lidx[l], lid_vecs[l], gid, gidx, *sg_args[l])
                gs = groups[0 if quad_of is None else quad_of[l][0]]
                if self.subgroups:
                    sg = subgroups[l // size]
                    gs = {**gs, SUBGROUP: sg}
                inv = Invocation(key0 + l, coro, unit, gs, lanes[l], ids)
                if self.subgroups:
                    join_subgroup(sg, inv)
                members.append(inv)
                if quad_of is not None:
                    inv.groups[QUAD].members.append(inv)
            if quad_of is not None:
                for quad in quads:  # members stay in key order; lanes say the quad ids
                    quad.size = 4
            unit.members = members
            unit.size = n
            yield unit

    def result(self) -> DispatchResult:
        outputs = {k: v for k, v in self.bindings.items() if _is_storage(v)}
        outputs.update(storage_texture_outputs(self.bindings))  # (what they wrote)
        trace = make_trace(self.scheduler, self.kernel.identity, self.config, self.strategy)
        return DispatchResult(outputs=outputs, trace=trace, counters=counters(self.scheduler),
                              findings=self.findings(trace))


def _quad_layout(layout: str | None, lids: list, sx: int, sy: int) -> list[tuple[int, int]]:
    """(quad index, quad id) of every local invocation index, for a compute-derivative layout:
    ``"quads"``: local ids (2x+i, 2y+j, z) with quad id i + 2j; otherwise (``"linear"``, or
    quad operations without a layout) local indices 4n..4n+3 with quad id index % 4."""
    if layout == "quads":
        qx, qy = sx // 2, sy // 2
        return [((x // 2) + (y // 2) * qx + z * qx * qy, (x % 2) + 2 * (y % 2))
                for x, y, z in lids]
    return [(l // 4, l % 4) for l in range(len(lids))]


def _is_storage(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.flags.writeable


class _TraceVars(Instrument):
    """Switches the kernel's workgroup variables to access-reporting classes for one run."""

    def __init__(self, variables: list) -> None:
        self.variables = variables

    def run_started(self, scheduler: Any) -> None:
        trace_vars(self.variables, True)

    def run_finished(self, scheduler: Any) -> None:
        trace_vars(self.variables, False)


_ARG_OF_BUILTIN = {"workgroup_id": "wid", "workgroup_index": "widx", "num_workgroups": "nwg",
                   "local_invocation_index": "lidx", "local_invocation_id": "lid",
                   "global_invocation_id": "gid", "global_invocation_index": "gidx",
                   "subgroup_invocation_id": "sid", "subgroup_size": "ssize",
                   "subgroup_id": "sgid", "num_subgroups": "nsg"}


def _caller(fn: Callable, builtins: list[str], bindings: dict[str, Any]) -> Callable:
    """A function ``call(wid, widx, nwg, lidx, lid, gid, gidx, sid, ssize, sgid, nsg)`` that
    creates the shader's
    coroutine with keyword arguments: builtins from its arguments, resources from ``bindings``.
    Generated once per dispatch, because building a kwargs dict per invocation is slow."""
    args = [f"{name}={_ARG_OF_BUILTIN[name]}" for name in builtins]
    resources = [f"_r{k}" for k in range(len(bindings))]  # default arguments: local reads
    args += [f"{name}={r}" for name, r in zip(bindings, resources)]
    defaults = "".join(f", {r}=_b[{name!r}]" for name, r in zip(bindings, resources))
    src = (f"def call(wid, widx, nwg, lidx, lid, gid, gidx, sid, ssize, sgid, nsg{defaults}):\n"
           f"    return _fn({', '.join(args)})\n")
    ns: dict[str, Any] = {"_fn": fn, "_b": bindings}
    exec(src, ns)
    return ns["call"]


def run(kernel: ComputeKernel, workgroups: int | tuple[int, ...] = 1, *, schedule: Any = None,
        max_live_workgroups: int = 1, instruments: Any = (),
        max_points_per_invocation: int = DEFAULT_MAX_POINTS, derivatives: str = "coarse",
        sanitize: str | None = None, allow_races: Any = (),
        watchdog: float | None = DEFAULT_WATCHDOG, subgroup_size: int | None = None,
        subgroup_reduction: str = "lanes", overrides: dict | None = None,
        **bindings: Any) -> DispatchResult:
    """Dispatches ``kernel`` over ``workgroups`` and runs it to completion (synchronously).

    WGSL/WebGPU's ``dispatchWorkgroups(x, y, z)``. ``schedule`` is a strategy (``InOrder()``, the
    default, ``Random(seed)``, ``Replay(trace)``), a :class:`~asyncshader.Trace` or a trace file
    path. Bindings are the kernel's resources by name: numpy arrays are storage buffers, written in
    place; other values are uniforms. ``max_points_per_invocation`` bounds the scheduling points
    (atomics) one invocation may pass, so that a spin loop that cannot finish is an error
    (:class:`~asyncshader.StepLimitError`), not a hang; ``watchdog`` (seconds, default 10; None:
    no limit) bounds how long one invocation may run without suspending at all (a loop with no
    ``await``: :class:`~asyncshader.ShaderTimeoutError`). ``derivatives`` (``"coarse"`` or
    ``"fine"``) is what the plain ``dpdx``/``dpdy``/``fwidth`` compute, for kernels with a
    derivative layout. ``sanitize`` runs the race detector: ``"report"`` (data races,
    out-of-bounds accesses and helper side effects become ``result.findings``; the default,
    which also issues a :class:`~asyncshader.DataRaceWarning` when it finds a race),
    ``"error"`` (any finding raises :class:`~asyncshader.DataRaceError`) or ``"off"`` (the
    fastest; out-of-bounds accesses are then WGSL's robust access unreported, as
    :mod:`asyncshader.wgsl.robust` says); ``allow_races`` names
    bindings or workgroup variables whose races are intentional. ``subgroup_size`` (4, 8, ...,
    128) overrides the kernel's (default 32), ``subgroup_reduction`` (``"lanes"``,
    ``"reverse"``, ``"tree"``, ``"shuffled"``) is the order float subgroup reductions fold in
    (docs/subgroups.md). ``overrides`` gives the kernel's ``ash.override`` constants their
    values for this dispatch, by name or id (WebGPU's pipeline ``constants``; docs/wgsl.md).
    Returns a :class:`~asyncshader.DispatchResult`.
    """
    schedule = dispatcher(schedule)  # (the default provider's; a Lockstep trace's Lockstep)
    if hasattr(schedule, "run_dispatch"):  # a schedule that runs the dispatch (Lockstep)
        return _run_by(schedule, kernel, workgroups, bindings, sanitize=sanitize,
                       instruments=instruments, allow_races=allow_races, overrides=overrides,
                       subgroup_size=subgroup_size, subgroup_reduction=subgroup_reduction,
                       max_live_workgroups=max_live_workgroups, derivatives=derivatives,
                       max_points_per_invocation=max_points_per_invocation, watchdog=watchdog)
    job = _prepare(kernel, workgroups, schedule, max_live_workgroups, instruments, bindings,
                   max_points_per_invocation, derivatives, sanitize, allow_races, watchdog,
                   subgroup_size, subgroup_reduction, overrides)
    drive(job)
    return job.result()


async def dispatch(kernel: ComputeKernel, workgroups: int | tuple[int, ...] = 1, *,
                   schedule: Any = None, max_live_workgroups: int = 1, instruments: Any = (),
                   max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                   derivatives: str = "coarse", sanitize: str | None = None,
                   allow_races: Any = (), watchdog: float | None = DEFAULT_WATCHDOG,
                   subgroup_size: int | None = None, subgroup_reduction: str = "lanes",
                   overrides: dict | None = None, **bindings: Any) -> DispatchResult:
    """The awaitable form of :func:`run`, for asyncio or trio (through anyio).

    It yields to the host event loop every few thousand steps, so ``anyio.fail_after`` and
    cancel scopes can stop a long dispatch.
    """
    schedule = dispatcher(schedule)
    if hasattr(schedule, "run_dispatch"):
        return _run_by(schedule, kernel, workgroups, bindings, sanitize=sanitize,
                       instruments=instruments, allow_races=allow_races, overrides=overrides,
                       subgroup_size=subgroup_size, subgroup_reduction=subgroup_reduction,
                       max_live_workgroups=max_live_workgroups, derivatives=derivatives,
                       max_points_per_invocation=max_points_per_invocation, watchdog=watchdog)
    job = _prepare(kernel, workgroups, schedule, max_live_workgroups, instruments, bindings,
                   max_points_per_invocation, derivatives, sanitize, allow_races, watchdog,
                   subgroup_size, subgroup_reduction, overrides)
    await drive_async(job)
    return job.result()


def _run_by(schedule: Any, kernel: Any, workgroups: Any, bindings: dict[str, Any],
            **options: Any) -> DispatchResult:
    """A dispatch run by its schedule object rather than the scheduler: a back-end in a layer
    above this one (``ash.Lockstep``) carries ``run_dispatch`` (docs/design.md, "Lockstep")."""
    refuse_nested(kernel)
    options["sanitize"] = default_off(options.get("sanitize"))  # (the marker's races=False)
    return schedule.run_dispatch(kernel, workgroups, bindings, options)


def _prepare(kernel: Any, workgroups: Any, schedule: Any, max_live: int, instruments: Any,
             bindings: dict[str, Any], max_points: int, derivatives: str, sanitize: str | None,
             allow_races: Any, watchdog: Any, subgroup_size: Any = None,
             subgroup_reduction: Any = "lanes", overrides: Any = None) -> ComputeRun:
    refuse_nested(kernel)
    if "workgroup_size" in bindings:
        raise BindingError("workgroup_size belongs to the kernel: @compute(workgroup_size=...)")
    limit = check_watchdog(watchdog)
    job = ComputeRun(kernel, workgroups, schedule, max_live, instruments, bindings, max_points,
                     derivatives, sanitize, allow_races, subgroup_size, subgroup_reduction)
    job.watchdog = limit
    job.context_values += override_context(kernel, overrides)  # (what reads of overrides see)
    return job
