"""The fragment stage: ``@fragment``, :func:`run_fragments`, :func:`dispatch_fragments`,
:func:`discard`.

A fragment dispatch shades a ``width`` x ``height`` grid of pixels, in 2x2 quads (quad ids 0
upper-left, 1 upper-right, 2 lower-left, 3 lower-right; y grows downward). A grid with an odd
width or height is padded to whole quads with *helper invocations*: they run the shader and feed
derivatives and quad operations, but their storage writes and atomics have no effect (atomics
return 0) and they produce no output. :func:`discard` turns the calling invocation into a helper
(WGSL's demote-to-helper semantics): it keeps running for its neighbours' derivatives.

What a helper sees: ``position`` is its own pixel centre (outside the grid); a per-pixel input
given as a callable is evaluated at its own coordinates; one given as an array is extended past
the edge, linearly for float arrays (as interpolated attributes would be, so a ramp stays a
ramp) and by repeating the edge for integer and bool arrays.

Parameters are the WGSL fragment builtins by name (``position``, ``front_facing``,
``sample_index``, ``sample_mask``), per-pixel inputs (:class:`~asyncshader.Input`, or an array
shaped (height, width[, n]), or a callable), storage buffers and uniforms as in compute. The
returned value is the fragment's output: a scalar or vector becomes an array (height, width[, n]),
a dataclass or mapping of located fields one array per field.

Quads start lazily in row-major order; at most ``max_live_quads`` are alive at once (default 1):
raise it to let a schedule interleave invocations of different quads.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import itertools
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from .._core.context import current_run
from .._core.instruments import Instrument
from .._core.invocations import Group, Invocation
from .._core.scheduler import Scheduler
from .._core.validation import (
    check_bool,
    check_callable,
    check_instances,
    check_int,
    check_names,
    check_number,
)
from ..collectives.derivatives import DERIVATIVE_KINDS, derivative_kinds
from ..collectives.quads import QUAD
from ..collectives.subgroups import SUBGROUP, join_subgroup, subgroup_options
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
from ..wgsl.memory import scan_kernel
from ..wgsl.overrides import override_context
from ..wgsl.readonly import checked_read_only
from ..wgsl.reconvergence import reconvergence_options
from ..wgsl.rewrite import with_wgsl_operators
from ..wgsl.textures.annotations import storage_texture_outputs
from ..wgsl.types import Vec, vec4f
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
from .fragment_io import (
    SCALAR_OUTPUTS,
    FragmentIds,
    _allocate,
    _caller,
    _fields,
    _put_output,
    _quad_maker,
    _shape_of,
    corner,
    image_of,
    input_value,
    quad_subgroup,
    quads_that_run,
    run_coverage,
    split_inputs,
    storage_classes,
    storage_views,
    subgroup_inputs,
    subgroup_uses,
    with_subgroup_lanes,
)

FRAGMENT_BUILTINS = ("position", "front_facing", "sample_index", "sample_mask")
_LANES = [{QUAD: lane} for lane in range(4)]


class FragmentShader:
    """A fragment entry point, made by :func:`fragment`."""

    stage = "fragment"

    def __init__(self, fn: Callable) -> None:
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"@fragment needs an `async def` shader; {fn.__qualname__} is a "
                            f"plain function. Fix: write `async def {fn.__name__}(...)`.")
        check_awaits(fn)
        check_creation(fn, "fragment")
        self.awaited = direct_awaits(fn)  # None: it may suspend in a coroutine of its own
        self.fn = fn
        self.__wrapped_kernel__ = fn
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]
        self.params = signature_params(fn)
        for p in self.params.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
                raise TypeError(f"{fn.__qualname__}: parameter {p} is not supported; a shader "
                                "takes named builtins, inputs and resources")
        self.builtins = [n for n in self.params if n in FRAGMENT_BUILTINS]
        explicit_points(fn.__qualname__, self.params)
        module: dict = {}
        wg_vars, uses = scan_kernel(fn, module)
        if module:
            raise TypeError(f"{fn.__qualname__} uses the module-scope binding "
                            f"{next(iter(module))!r}: asyncshader runs those in compute kernels "
                            "only. Fix: make it a parameter of the fragment shader")
        self.subgroup_builtins, self.subgroup_ops = subgroup_uses(fn, self.params, uses)
        if wg_vars:
            raise TypeError(f"{fn.__qualname__} uses workgroup memory ({', '.join(wg_vars)}); "
                            "var<workgroup> exists only in compute shaders")
        self.identity = kernel_identity(fn)

    @functools.cached_property
    def shader_fn(self) -> Callable:
        """The shader as it runs: ``fn`` with WGSL's operators (:mod:`asyncshader.wgsl.rewrite`),
        compiled at the first dispatch, when the helpers it calls are defined (the
        shader-creation checks run again then, for what was bound after decoration)."""
        check_creation(self.fn, "fragment")
        return with_wgsl_operators(self.fn, reconverge=self.subgroup_ops)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{self.fn.__qualname__} is a fragment shader; run it with "
                        f"asyncshader.run_fragments({self.fn.__name__}, width, height, ...)")

    def __repr__(self) -> str:
        return f"<fragment shader {self.identity['name']}>"


def fragment(fn: Callable | None = None) -> Any:
    """Decorator for a fragment entry point, WGSL's ``@fragment``; use as ``@fragment`` or
    ``@fragment()``."""
    if fn is None:
        return FragmentShader
    check_callable("@fragment", fn, expected="an async def shader (use @fragment or "
                   "@fragment())")
    return FragmentShader(fn)


def discard() -> None:
    """WGSL ``discard``: turns the calling fragment invocation into a helper invocation. It goes
    on running (its neighbours' derivatives need its values), but its later storage writes and
    atomics have no effect and its output is dropped; ``result.mask`` is False there."""
    run = current_run()
    if not isinstance(run, FragmentRun):
        raise RuntimeError("discard() is a fragment shader statement; call it from a shader run "
                           "by asyncshader.run_fragments()")
    run.discard(sys._getframe(1))


@dataclasses.dataclass
class FragmentResult(DispatchResult):
    """The result of a fragment dispatch: ``output`` (an array (height, width[, n]) for a scalar
    or vector return, a dict of arrays for located fields, None without a return value),
    ``mask`` (height, width): True where a fragment was shaded and not discarded."""

    output: Any = None
    mask: Any = None


class _Quad(Group):
    """A quad: the unit a fragment dispatch schedules. It is its own memory context: when it
    retires, its covered fragments' outputs are gathered.

    Built lean (``coros``, no invocation objects: see :mod:`asyncshader.lean`) unless its
    members need objects from the start: helpers of the padding, storage views."""

    scope, lane_name, size = QUAD, "quad id", 4
    discarded: list[bool] | None = None  # lean: the lanes that called discard()

    def __init__(self, run: FragmentRun, q: int, coros: list | None = None) -> None:
        self.run = run  # (a plain __init__: one quad per four pixels)
        self.index = q
        self.members = []
        if coros is not None:
            self.coros = coros

    def materialize(self) -> None:
        run, q, discarded = self.run, self.index, self.discarded
        make, groups = run.fragment_class, {QUAD: self}
        self.members = members = [make(4 * q + lane, c, self, groups)
                                  for lane, c in enumerate(self.coros)]  # type: ignore[arg-type]
        if discarded is not None:
            for m, helper in zip(members, discarded):
                m.helper = helper
        self.coros = None

    @property
    def label(self) -> str:  # type: ignore[override]  # only errors read it: made when asked
        return "quad at ({},{})".format(*corner(self.index, self.run.qw))

    @property
    def context(self) -> _Quad:  # type: ignore[override]
        return self

    def enter(self, previous: Any) -> None:
        pass

    def save(self) -> None:
        pass

    def exit(self) -> None:
        """Files the members' results in the run's quad-ordered list (the output arrays are
        made from it at the end, :meth:`FragmentRun.gather`); notes the fragments that
        produce no output: helpers (padding or discarded) and members that did not return."""
        run = self.run
        base = 4 * self.index
        results = self.results
        if results is not None:  # lean, and every member returned
            run.results[base:base + 4] = results
            if self.discarded is not None:
                run.skip.extend(base + lane for lane in range(4) if self.discarded[lane])
            return
        for inv in self.members:
            run.results[inv.key] = inv.result
            if inv.helper or not inv.done:
                run.skip.append(inv.key)


class _Fragment(Invocation):
    """A fragment invocation: its lane (quad id) is the low two bits of its key."""

    def __init__(self, key: int, coro: Any, unit: Group, groups: dict[str, Group]) -> None:
        self.key = key
        self.coro = coro
        self.frame = coro.cr_frame
        self.unit = unit
        self.groups = groups

    @property
    def lanes(self) -> dict[str, int]:  # type: ignore[override]
        return _LANES[self.key & 3]


class FragmentRun(SanitizedRun):
    """One fragment dispatch: validated configuration and lazily built quads."""

    def __init__(self, shader: FragmentShader, width: int, height: int, schedule: Any,
                 derivatives: str, max_live_quads: int, instruments: Any,
                 options: dict[str, Any], given: dict[str, Any],
                 max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                 sanitize: str | None = None,
                 allow_races: Any = (), subgroup_size: Any = None,
                 subgroup_reduction: Any = "lanes") -> None:
        if not isinstance(shader, FragmentShader):
            raise TypeError(f"expected a @fragment shader, got {shader!r}")
        self.width = check_int("width", width, 0)
        self.height = check_int("height", height, 0)
        check_int("max_live_quads", max_live_quads, 1)
        check_int("max_points_per_invocation", max_points_per_invocation, 1)
        allow_races = check_names("allow_races", allow_races)
        check_number("position_z", options["position_z"])
        check_number("position_w", options["position_w"])
        check_bool("front_facing", options["front_facing"])
        self.shader = shader
        self.strategy: Strategy = as_strategy(schedule)
        self.instruments: list[Instrument] = check_instances(
            "instruments", instruments, Instrument, "ash.Footprints()")
        self.derivative_mode = check_derivative_mode(derivatives)
        self.strict = False  # derivatives always have their quads here
        self.context_values = ((DERIVATIVE_KINDS, derivative_kinds(self.derivative_mode)),)
        self.options = options
        self.qw, self.qh = (self.width + 1) // 2, (self.height + 1) // 2
        given = getattr(shader, "resolve_bindings", dict)(given)  # (a front-end's: bytes)
        self.inputs, resources = split_inputs(shader, self.width, self.height, given)
        self.bindings = bind_resources(shader.fn.__qualname__, shader.params,
                                       {*shader.builtins, *self.inputs,
                                        *shader.subgroup_builtins}, resources)
        self.storage = {k: v for k, v in self.bindings.items()
                        if isinstance(v, np.ndarray) and v.flags.writeable}
        self.uniforms = {k: v for k, v in self.bindings.items() if k not in self.storage}
        self.config = {"stage": "fragment", "size": [self.width, self.height],
                       "max_live_quads": max_live_quads, "derivatives": self.derivative_mode}
        self.coverage = run_coverage(self, options.pop("coverage"))
        self.subgroups = subgroups = shader.subgroup_ops
        subgroup_options(self, subgroup_size, subgroup_reduction, subgroups or bool(
            shader.subgroup_builtins))
        self.inputs.update(subgroup_inputs(shader.subgroup_builtins, self.subgroup_size, self.qw))
        check_replay(self.strategy, shader.identity, self.config)
        self.ids = FragmentIds(self.qw, self.width, self.height)
        self.unit_size = 4  # invocations per quad
        self.output: Any = None
        self.mask = np.zeros((self.height, self.width), bool)
        self.results: list = [None] * (4 * self.qw * self.qh)  # by key: quad, then lane
        self.skip: list[int] = []  # keys of fragments without output (helpers, unfinished)
        self.suppressed_writes = 0
        self.setup_sanitizer(sanitize, allow_races, self.storage, self.instruments, memory=bool(
            self.storage or storage_texture_outputs(self.bindings)))
        self.uniforms = checked_read_only(self.uniforms, self.detector is not None)
        self.atomic_hooks = [i.atomic for i in self.instruments
                             if type(i).atomic is not Instrument.atomic]
        self.access_hooks = [i.memory_access for i in self.instruments
                             if i.wants_memory_access]
        self.view_classes = storage_classes(list(self.storage), vector_elements(shader.params),
                                            bool(self.access_hooks))
        live = max(max_live_quads, self.subgroup_size // 4 if subgroups else 1)  # whole subgroups
        self.scheduler = Scheduler(self._units(), self.strategy, self.instruments,
                                   max_live=live, single_scope=not self.subgroups,
                                   max_points_per_invocation=max_points_per_invocation,
                                   max_key=4 * self.qw * self.qh,
                                   direct_sites=still_direct(shader.shader_fn, shader.awaited),
                                   **reconvergence_options(shader.shader_fn, self.subgroups))

    # -------------------------------------------------------------------------------- quads
    def _units(self) -> Iterator[Group]:
        opts = self.options
        inputs, storage = list(self.inputs.values()), list(self.storage.items())
        call = _caller(self.shader.shader_fn, self.shader.builtins, list(self.inputs),
                       [k for k, _ in storage], self.uniforms)
        xs = [np.float32(x + 0.5) for x in range(2 * self.qw)]
        ys = [np.float32(y + 0.5) for y in range(2 * self.qh)]
        z, w = np.float32(opts["position_z"]), np.float32(opts["position_w"])
        front, index, mask = bool(opts["front_facing"]), np.uint32(0), np.uint32(1)
        make_position = vec4f._make
        ids, width, height, qw, cover = self.ids, self.width, self.height, self.qw, self.coverage
        fasts = [self.fast_state(arr) for _, arr in storage]
        view_classes = self.view_classes
        edge = width < 2 * qw or height < 2 * self.qh  # padding helpers in the last column/row
        written = bool(storage_texture_outputs(self.bindings))  # (helpers' stores: dropped)
        fragment = self.fragment_class = type("Fragment", (_Fragment,), {"info": ids})
        subgroups, per_sg, sg = self.subgroups, self.subgroup_size // 4, None
        if subgroups:  # a subgroup: per_sg quads; a member's lane in it: its key % size
            fragment = self.fragment_class = with_subgroup_lanes(fragment, self.subgroup_size)
            running = quads_that_run(cover, self.qw * self.qh)
        quad = _quad_maker(self.shader.shader_fn, self.shader.builtins, self.uniforms,
                           {"_z": z, "_w": w, "front_facing": front, "sample_index": index,
                            "sample_mask": mask})
        bare = not storage and not inputs  # lean quads from builtins and uniforms only
        corners = itertools.product(range(0, 2 * self.qh, 2), range(0, 2 * qw, 2))
        for q, (qy, qx) in enumerate(corners):  # quad q's upper-left pixel (as corner says)
            if cover is not None and not cover[qy:qy + 2, qx:qx + 2].any():
                self.skip.extend(range(4 * q, 4 * q + 4))  # (no pixel covered: not run)
                continue
            lean = not (storage or subgroups or written or cover is not None or (edge and (
                qx + 1 >= width or qy + 1 >= height)))
            if lean and bare:  # the coroutines alone (lean.py)
                yield _Quad(self, q, quad(xs[qx], xs[qx + 1], ys[qy], ys[qy + 1]))
                continue
            pixels = ((qx, qy), (qx + 1, qy), (qx, qy + 1), (qx + 1, qy + 1))  # by quad id
            # the inputs first: a callable that raises leaves no coroutine behind
            inputs_of = [[input_value(src, x, y) for src in inputs] for x, y in pixels]
            if lean:
                yield _Quad(self, q, [call(make_position(xs[x], ys[y], z, w), front, index,
                                           mask, *values)
                                      for (x, y), values in zip(pixels, inputs_of)])
                continue
            unit = _Quad(self, q)
            groups = {QUAD: unit}
            if subgroups:
                sg = groups[SUBGROUP] = quad_subgroup(q, per_sg, running, sg)
            members = unit.members
            for lane, (x, y), values in zip(range(4), pixels, inputs_of):
                position = make_position(xs[x], ys[y], z, w)
                views, owned = storage_views(self, storage, fasts, view_classes)
                inv = fragment(4 * q + lane, call(position, front, index, mask, *values,
                                                  *views), unit, groups)
                for view in owned:  # (flat buffers' views, struct buffers' blocks)
                    view._inv = inv
                if x >= width or y >= height or (cover is not None and not cover[y, x]):
                    inv.helper = True  # (padding, or a pixel the triangle does not cover)
                if sg is not None:
                    join_subgroup(sg, inv)
                members.append(inv)
            yield unit

    def discard(self, frame: Any) -> None:
        """Demotes the invocation whose code ``frame`` is running (or is awaited from) to a
        helper: the shader frame found by walking out from ``frame``."""
        unit, lane = self._calling(frame)
        if unit.coros is None:
            unit.members[lane].helper = True
        else:
            if unit.discarded is None:
                unit.discarded = [False] * 4
            unit.discarded[lane] = True

    def calling_helper(self, frame: Any) -> Any:
        """The fragment invocation whose code ``frame`` is running when it is a helper (its
        stores have no effect: ``texture_store`` asks), else None. A quad whose shader may
        store into a texture has its invocations from the start (not lean)."""
        unit, lane = self._calling(frame)
        inv = unit.members[lane] if unit.coros is None else None
        return inv if inv is not None and inv.helper else None

    def _calling(self, frame: Any) -> tuple[_Quad, int]:
        """The quad and lane whose shader code ``frame`` is running (or is awaited from)."""
        shaders: dict[Any, tuple[_Quad, int]] = {}
        for unit in self.scheduler.live:
            if unit.coros is not None:
                shaders.update((c.cr_frame, (unit, lane)) for lane, c in enumerate(unit.coros))
            else:
                shaders.update((m.frame, (unit, m.key & 3)) for m in unit.members)
        while frame is not None and frame not in shaders:
            frame = frame.f_back
        if frame is None:
            raise RuntimeError("discard() was called outside the shader's own code")
        return shaders[frame]

    # ------------------------------------------------------------------------------- outputs
    def _image(self, by_key: np.ndarray) -> np.ndarray:
        """An array indexed by key (quad, then quad id) as an image (height, width, ...)."""
        return image_of(by_key, self.width, self.height)

    def gather(self) -> None:
        """Makes ``output`` and ``mask`` from the results every quad filed: in one numpy step
        when every covered fragment returned the same scalar or vector type, else fragment by
        fragment in quad order (:meth:`store_output`, which says which fragment returned what
        when the types disagree)."""
        values, skip = self.results, self.skip
        covered = np.ones(len(values), bool)
        if skip:
            covered[skip] = False
            values = list(values)
            helpers = [values[k] for k in skip]
            for k in skip:
                values[k] = None
        else:
            helpers = []
        self.mask = self._image(covered)
        kinds = set(map(type, values))
        gaps = type(None) in kinds  # fragments without output (or returning nothing)
        kinds.discard(type(None))
        kind = kinds.pop() if len(kinds) == 1 else None
        if kind is not None and (kind in SCALAR_OUTPUTS or issubclass(kind, Vec)):
            like = _allocate(1, 1, next(v for v in values if v is not None), "output")
            zero = like[0, 0].tolist()
            flat = ([zero if v is None else list(v) for v in values] if like.ndim == 3
                    else [zero if v is None else v for v in values] if gaps else values)
            self.output = self._image(np.array(flat, like.dtype))
            return
        ids = self.ids
        for key, value in enumerate(values):
            if covered[key]:  # (padding helpers are not: they are in skip)
                self.store_output(*ids.pixel(key), value)
        first = next((v for v in helpers if v is not None), None)
        if self.output is None and first is not None:
            self.shape_output(first)  # nothing covered, but the output still gets its shape

    def shape_output(self, value: Any) -> None:
        """Allocates the output arrays (zeros) for results shaped like ``value``."""
        value = _fields(value)
        if isinstance(value, Mapping):
            self.output = {k: _allocate(self.height, self.width, v, k) for k, v in value.items()}
        else:
            self.output = _allocate(self.height, self.width, value, "output")

    def store_output(self, x: int, y: int, value: Any) -> None:
        self.mask[y, x] = True
        if value is None:
            return
        value = _fields(value)
        if isinstance(value, Mapping):
            if self.output is None:
                self.shape_output(value)
            if not isinstance(self.output, dict) or set(value) != set(self.output):
                raise TypeError(f"fragment ({x},{y}) returned fields {sorted(value)}; others "
                                f"returned {_shape_of(self.output)}")
            for k, v in value.items():
                _put_output(self.output[k], x, y, v, k)
        else:
            if self.output is None:
                self.shape_output(value)
            if isinstance(self.output, dict):
                raise TypeError(f"fragment ({x},{y}) returned {type(value).__name__}; others "
                                f"returned fields {sorted(self.output)}")
            _put_output(self.output, x, y, value, "output")

    def result(self) -> FragmentResult:
        self.gather()
        outputs = {**self.storage, **storage_texture_outputs(self.bindings)}
        if isinstance(self.output, dict):
            outputs.update(self.output)
        elif self.output is not None:
            outputs["output"] = self.output
        trace = make_trace(self.scheduler, self.shader.identity, self.config, self.strategy)
        return FragmentResult(outputs=outputs, trace=trace, counters=counters(self.scheduler),
                              findings=self.findings(trace), output=self.output, mask=self.mask)


_OPTIONS = {"position_z": 0.0, "position_w": 1.0, "front_facing": True,
            "subgroup_size": None, "subgroup_reduction": "lanes", "coverage": None}


def _run_by(schedule: Any, shader: Any, width: int, height: int, derivatives: str,
            instruments: Any, inputs: dict[str, Any], **given: Any) -> FragmentResult:
    """A fragment dispatch run by its schedule object rather than the scheduler (a back-end
    in a layer above this one, ``ash.Lockstep``, carries ``run_fragment_dispatch``): the
    bindings, and the options by name (``given``: the scheduler's own, for the schedule to
    honour or refuse)."""
    refuse_nested(shader)
    options = {k: inputs.pop(k, default) for k, default in _OPTIONS.items()}
    options.update(given, derivatives=check_derivative_mode(derivatives), instruments=instruments,
                   sanitize=inputs.pop("sanitize", None),
                   allow_races=inputs.pop("allow_races", ()),
                   overrides=inputs.pop("overrides", None))
    options["sanitize"] = default_off(options["sanitize"])  # (the marker's races=False)
    return schedule.run_fragment_dispatch(shader, width, height, inputs, options)


def _prepare(shader: Any, width: int, height: int, schedule: Any, derivatives: str,
             max_live_quads: int, instruments: Any, max_points: int,
             inputs: dict[str, Any], watchdog: Any) -> FragmentRun:
    refuse_nested(shader)
    options = {k: inputs.pop(k, default) for k, default in _OPTIONS.items()}
    sanitize = inputs.pop("sanitize", None)
    allow_races = inputs.pop("allow_races", ())
    overrides = inputs.pop("overrides", None)
    limit = check_watchdog(watchdog)
    job = FragmentRun(shader, width, height, schedule, derivatives, max_live_quads, instruments,
                      options, inputs, max_points, sanitize, allow_races,
                      options.pop("subgroup_size"), options.pop("subgroup_reduction"))
    job.watchdog = limit
    job.context_values += override_context(shader, overrides)  # (what reads of overrides see)
    return job


def run_fragments(shader: FragmentShader, width: int, height: int, *, schedule: Any = None,
                  derivatives: str = "coarse", max_live_quads: int = 1, instruments: Any = (),
                  max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                  watchdog: float | None = DEFAULT_WATCHDOG, **inputs: Any) -> FragmentResult:
    """Shades a ``width`` x ``height`` grid with ``shader`` (synchronously) and gathers its
    outputs. ``derivatives`` (``"coarse"``, the default, or ``"fine"``) is what the plain
    ``dpdx``, ``dpdy`` and ``fwidth`` compute, the same for all three. ``position_z``,
    ``position_w`` (default 0 and 1) and ``front_facing`` (default True) set those builtins.
    ``coverage`` ((height, width) bool, a triangle's pixels): a covered quad's other pixels run
    as helpers (in derivatives, writing nothing); uncovered quads do not run.
    ``sanitize`` and ``allow_races`` work as for :func:`~asyncshader.run` (the race detector is
    on by default: fragments writing one storage element race). Other keywords are per-pixel
    inputs, storage buffers and uniforms. ``max_points_per_invocation`` and ``watchdog`` bound a
    spin as in :func:`~asyncshader.run`, ``subgroup_size``, ``subgroup_reduction`` and
    ``overrides`` too. ``schedule=ash.Lockstep()`` shades the grid
    as numpy arrays over pixels, with the same outputs (docs/lockstep.md); its trace, as
    ``schedule=``, runs it so again."""
    schedule = dispatcher(schedule)  # (the default provider's; a Lockstep trace's Lockstep)
    if hasattr(schedule, "run_fragment_dispatch"):  # a schedule that runs it (Lockstep)
        return _run_by(schedule, shader, width, height, derivatives, instruments, inputs,
                       max_live_quads=max_live_quads, watchdog=watchdog,
                       max_points_per_invocation=max_points_per_invocation)
    job = _prepare(shader, width, height, schedule, derivatives, max_live_quads, instruments,
                   max_points_per_invocation, inputs, watchdog)
    drive(job)
    return job.result()


async def dispatch_fragments(shader: FragmentShader, width: int, height: int, *,
                             schedule: Any = None, derivatives: str = "coarse",
                             max_live_quads: int = 1, instruments: Any = (),
                             max_points_per_invocation: int = DEFAULT_MAX_POINTS,
                             watchdog: float | None = DEFAULT_WATCHDOG,
                             **inputs: Any) -> FragmentResult:
    """The awaitable form of :func:`run_fragments` (asyncio or trio, through anyio)."""
    schedule = dispatcher(schedule)
    if hasattr(schedule, "run_fragment_dispatch"):
        return _run_by(schedule, shader, width, height, derivatives, instruments, inputs,
                       max_live_quads=max_live_quads, watchdog=watchdog,
                       max_points_per_invocation=max_points_per_invocation)
    job = _prepare(shader, width, height, schedule, derivatives, max_live_quads, instruments,
                   max_points_per_invocation, inputs, watchdog)
    await drive_async(job)
    return job.result()
