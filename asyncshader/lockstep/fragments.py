"""Fragment entry points in lockstep: ``ash.run_fragments(shader, width, height,
schedule=ash.Lockstep())``.

Lanes are the pixels of whole 2x2 quads in the order the coroutine path keys them
(:mod:`asyncshader.stages.fragment`): lane 4q + i is quad id i of quad q, quads row-major over
the grid padded to even width and height. A chunk holds whole quads (and whole subgroups of
``subgroup_size / 4`` consecutive quads), every lane of a quad that runs is active, and:

- **helpers** (the padding past an odd edge, a covered quad's uncovered pixels under
  ``coverage=``, and lanes that ran ``discard``) keep running, for their quad's derivatives
  and quad operations, but their storage stores are dropped, their atomics have no effect
  and return 0, and they have no output: a mask ``H[0]`` of the chunk's helpers, which
  ``discard`` widens (WGSL's demote-to-helper);
- a quad none of whose pixels is covered does not run (its lanes are inactive throughout);
- derivatives and quad operations are differences and shuffles inside each quad
  (:mod:`.derivatives`), the plain ``dpdx``/``dpdy``/``fwidth`` fine or coarse as the
  dispatch's ``derivatives=`` says, and a quad reaching one split is a
  :class:`~asyncshader.DerivativeUniformityError`;
- inputs are the per-pixel inputs the coroutine path reads (arrays padded the same way,
  callables called at each lane's pixel), by ``@location`` (a parameter's or a struct
  member's name, or ``location_N``); the built-ins ``position``, ``front_facing``,
  ``sample_index``, ``sample_mask``, ``subgroup_invocation_id``, ``subgroup_size``;
- the returned value becomes ``output`` (height, width[, n]) or a dict of them by struct
  member, zero where no fragment was shaded, and ``mask``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import check_bool, check_int, check_number
from ..collectives.subgroups import DEFAULT_SUBGROUP_SIZE, check_subgroup_size
from ..errors import BindingError
from ..front.wgsl import syntax as ast
from ..ir.types import Scalar, Struct, Vector, concretize
from ..schedules.trace import Trace
from ..stages.dispatch import Counters
from ..stages.fragment import FragmentResult, FragmentShader
from ..stages.fragment_io import FragmentIds, check_coverage, corner, image_of, split_inputs
from ..wgsl.types import Vec
from . import atomics, builtins, derivatives, lanes, matrices, races, subgroups, textures
from .builtins import dtype_of
from .compile import Compiler, Program

#: the fragment built-in values Lockstep gives an entry point
BUILTINS = ("position", "front_facing", "sample_index", "sample_mask",
            "subgroup_invocation_id", "subgroup_size")
_DERIVATIVES = {f"{base}{variant}": (axis, fine)
                for base, axis in (("dpdx", "x"), ("dpdy", "y"), ("fwidth", "w"))
                for variant, fine in (("", None), ("Fine", True), ("Coarse", False))}
_QUADS = {"quadSwapX": "x", "quadSwapY": "y", "quadSwapDiagonal": "diagonal",
          "quadBroadcast": "broadcast"}


class FragmentProgram(Program):
    """A compiled fragment entry point: a :class:`~.compile.Program` with its ``@location``
    inputs ``(name, location, type)`` (each ``in_N`` in the namespace), its struct
    parameters (``ip_NAME``: member name -> the namespace name of its value) and its result
    type (None without one)."""

    def __init__(self, program: Program, inputs: list, structs: dict, output: Any) -> None:
        vars(self).update(vars(program))  # (with a watching compiler's sites, ops, written)
        self.inputs, self.structs, self.output = inputs, structs, output


class FragmentCompiler(Compiler):
    """:class:`~.compile.Compiler` for a ``@fragment`` entry point: its inputs, ``discard``,
    helpers' stores and atomics dropped, derivatives and quad operations over 2x2 quads."""

    stage = "fragment"

    def __init__(self, checker: Any, typed: Any) -> None:
        super().__init__(checker, typed)
        self.located: list[tuple[str, int, Any]] = []
        self.structs: dict[str, dict[str, str]] = {}

    def compile(self, entry: str) -> FragmentProgram:
        program = super().compile(entry)
        _, result = self.typed.signatures[entry]
        output = concretize(result) if result is not None else None
        return FragmentProgram(program, self.located, self.structs, output)

    def workgroup_size(self, fn: ast.Function) -> tuple[int, int, int]:
        return (1, 1, 1)  # (a fragment entry point has none)

    def entry_parameter(self, p: ast.Param, t: Any) -> None:
        if isinstance(t, Struct):
            decl = self.typed.resolved.globals.get(t.name)
            name = f"ip_{p.name}"
            self.structs[name] = {m.name: self.io(m.attributes, m.name, mt, m.span)
                                  for m, (_, mt) in zip(decl.members, t.fields)}
            self.locals[id(p)] = name
            return
        self.locals[id(p)] = self.io(p.attributes, p.name, t, p.span)

    def io(self, attributes: list, name: str, t: Any, span: Any) -> str:
        """The namespace name of a built-in value or a located input."""
        for a in attributes:
            if a.name == "builtin":
                builtin = a.args[0].name
                if builtin not in BUILTINS:
                    raise self.refuse(span, f"the fragment input @builtin({builtin})")
                self.builtins_used.add(builtin)
                return f"bi_{builtin}"
            if a.name == "location":
                if dtype_of(t) is None or not isinstance(t, (Scalar, Vector)):
                    raise self.refuse(span, f"a fragment input of type {t.wgsl}")
                location = int(self.checker.value(a.args[0]))
                self.located.append((name, location, t))
                return f"in_{location}"
        raise self.refuse(span, f"the parameter {name!r}")

    def s_Jump(self, s: ast.Jump) -> None:
        if s.kind == "discard":  # (demoted to a helper: it keeps running)
            self.emit(f"H[0] = _l.either(H[0], {self.mask})")
            return
        super().s_Jump(s)

    def store_memory(self, ref: Any, value: str, span: Any) -> list[str]:
        outer, self.mask = self.mask, f"_l.minus({self.mask}, H[0])"
        try:
            return super().store_memory(ref, value, span)
        finally:
            self.mask = outer

    def atomic(self, e: ast.Call, name: str) -> str:
        outer, self.mask = self.mask, f"_l.minus({self.mask}, H[0])"
        try:
            code = super().atomic(e, name)
        finally:
            self.mask = outer
        return code if name == "atomicStore" else f"_zh({code}, H[0], L)"

    def builtin(self, e: ast.Call, result: Any) -> str:
        name = e.callee.name
        where = repr(self.where(e.span))
        if name in _DERIVATIVES:
            axis, fine = _DERIVATIVES[name]
            value = self.expr(e.args[0], self.want_for(e.args[0], Scalar("f32")))
            return (f"_q.derivative({axis!r}, {'DF' if fine is None else fine}, {value}, "
                    f"{self.mask}, L, {where}, Q)")
        if name in _QUADS:
            value = self.expr(e.args[0], self.want_for(e.args[0], scalar_of_result(result)))
            arg = self.expr(e.args[1], self.want_for(e.args[1], Scalar("u32"))) \
                if len(e.args) > 1 else "0"
            return f"_q.quad({_QUADS[name]!r}, {value}, {arg}, {self.mask}, L, {where}, Q)"
        return super().builtin(e, result)


def scalar_of_result(result: Any) -> Any:
    t = concretize(result)
    return t.scalar if isinstance(t, Vector) else t


def no_helpers(value: Any, helpers: Any, L: int) -> Any:
    """An atomic's result with the helper lanes' set to 0 (their atomics have no effect)."""
    if helpers is False:
        return value
    if isinstance(value, dict):  # (atomicCompareExchangeWeak's struct)
        return {k: no_helpers(v, helpers, L) for k, v in value.items()}
    v = np.asarray(value)
    zero = np.zeros((), v.dtype)
    return zero if helpers is None else np.where(lanes.lane_array(helpers, L), zero, v)


class _Quads:
    """How messages name the quads of a chunk (its first quad ``first``)."""

    def __init__(self, first: int, qw: int) -> None:
        self.first, self.qw = first, qw

    def label(self, q: int) -> str:
        return "quad at ({},{})".format(*corner(self.first + q, self.qw))

    def fragment(self, q: int, k: int) -> str:
        x, y = corner(self.first + q, self.qw)
        return f"fragment ({x + (k & 1)},{y + (k >> 1)}) [quad id {k}]"


class FragmentDispatch:
    """One fragment dispatch in lockstep: the validated options, the per-pixel inputs and the
    resources; :meth:`execute` runs a compiled entry point over its quads, :meth:`result`
    makes the :class:`~asyncshader.FragmentResult`."""

    def __init__(self, shader: Any, width: int, height: int, given: dict[str, Any],
                 options: dict[str, Any]) -> None:
        if not isinstance(shader, FragmentShader):
            raise TypeError(f"expected a @fragment shader, got {shader!r}")
        self.shader = shader
        self.width = check_int("width", width, 0)
        self.height = check_int("height", height, 0)
        self.z = np.float32(check_number("position_z", options["position_z"]))
        self.w = np.float32(check_number("position_w", options["position_w"]))
        self.front = np.bool_(check_bool("front_facing", options["front_facing"]))
        self.coverage = check_coverage(options["coverage"], self.width, self.height)
        self.derivatives = options["derivatives"]
        self.subgroup_size = check_subgroup_size(options.get("subgroup_size")
                                                 or DEFAULT_SUBGROUP_SIZE)
        self.given = getattr(shader, "resolve_bindings", dict)(given)  # (a loaded module's)
        self.inputs, self.resources = split_inputs(shader, self.width, self.height,
                                                   self.given)
        self.qw, self.qh = (self.width + 1) // 2, (self.height + 1) // 2
        self.ids = FragmentIds(self.qw, self.width, self.height)  # (how findings name them)
        self.output: Any = None
        self.shaded = np.zeros(4 * self.qw * self.qh, bool)
        self.ran = 0

    # --- running ---------------------------------------------------------------------------

    def execute(self, program: FragmentProgram, memories: dict, max_lanes: int,
                max_iterations: int, recorder: Any = None) -> None:
        """Runs ``program`` over every quad that has a covered pixel, in chunks of whole
        quads (and whole subgroups), with the words and override values ``memories``;
        ``recorder``: the race detector's (its quads are its workgroups), or None."""
        quads = self.qw * self.qh
        per_subgroup = self.subgroup_size // 4
        per_chunk = max(per_subgroup, max_lanes // 4 // per_subgroup * per_subgroup)
        for first in range(0, quads, per_chunk):
            count = min(per_chunk, quads - first)
            L = 4 * count
            keys = slice(4 * first, 4 * (first + count))
            q, k = np.divmod(np.arange(keys.start, keys.stop, dtype=np.int32), 4)
            px = 2 * (q % self.qw) + (k & 1)
            py = 2 * (q // self.qw) + (k >> 1)
            helper = (px >= self.width) | (py >= self.height)
            run = None
            if self.coverage is not None:
                pixel = self.coverage[py, px]
                run = np.repeat(pixel.reshape(count, 4).any(axis=1), 4)
                if not run.any():
                    continue
                helper |= ~pixel
            ns = dict(program.namespace)
            ns.update(np=np, _l=lanes, _a=atomics, _b=builtins, _m=matrices, _s=subgroups,
                      _q=derivatives, _t=textures, _zh=no_helpers, L=L, WG=L,
                      SG=self.subgroup_size, P={},
                      MAX_ITERATIONS=max_iterations, H=[helper if helper.any() else False],
                      DF=self.derivatives == "fine", Q=_Quads(first, self.qw))
            for name, words in memories.items():
                ns[name if name.startswith(("o_", "h_")) else f"g_{name}"] = words
            if recorder is not None:
                ns.update(_r=recorder, _noidx=races.no_index)
                recorder.chunk(first, count, 4)
                recorder.helpers = ns["H"]
            ns.update(self._builtins(program.builtins, px, py, L))
            ns.update(self._inputs(program, px, py, run))
            for name, members in program.structs.items():
                ns[name] = {m: ns[code] for m, code in members.items()}
            exec(program.code, ns)
            start = None if run is None or run.all() else run
            value = ns["entry"](start)
            shaded = ~lanes.lane_array(ns["H"][0] if ns["H"][0] is not None else True, L)
            if run is not None:
                shaded = shaded & run
            self.shaded[keys] = shaded
            self.ran += int(L if run is None else run.sum())
            self._file(program.output, value, keys, shaded)
            ns.clear()  # (its functions hold it: a cycle, else kept until a collection)

    def _builtins(self, used: set[str], px: np.ndarray, py: np.ndarray, L: int) -> dict:
        values: dict[str, Any] = {}
        if "position" in used:  # (pixel centres: exact in f32)
            position = values["position"] = np.empty((4, L), np.float32)
            position[0], position[1], position[2], position[3] = px, py, self.z, self.w
            position[:2] += np.float32(0.5)
        if "subgroup_invocation_id" in used:  # (a chunk starts a subgroup)
            values["subgroup_invocation_id"] = (np.arange(L, dtype=np.uint32)
                                                % np.uint32(self.subgroup_size))
        values.update(front_facing=self.front, sample_index=np.uint32(0),
                      sample_mask=np.uint32(1), subgroup_size=np.uint32(self.subgroup_size))
        return {f"bi_{k}": values[k] for k in used}

    def _inputs(self, program: FragmentProgram, px: np.ndarray, py: np.ndarray,
                run: np.ndarray | None) -> dict:
        """Each ``@location`` input's value over lanes (``in_N``), by its name or
        ``location_N``, as the entry point's type; a callable is called at the pixels of the
        quads that run (``run``: those lanes, None for all), the others hold 0."""
        values = {}
        for name, location, t in program.inputs:
            key = name if name in self.inputs else f"location_{location}"
            if key not in self.inputs:
                raise BindingError(
                    f"{self.shader.identity['name']}: missing fragment input {name!r} "
                    f"(@location({location}) {t.wgsl}): pass {name}= or location_{location}="
                    " an array (height, width[, n]) or a callable (x, y) -> value")
            source = self.inputs[key]
            if callable(source):
                lanes_run = range(len(px)) if run is None else np.flatnonzero(run)
                got = [source(int(px[j]), int(py[j])) for j in lanes_run]
                some = np.array([list(v) if isinstance(v, Vec) else v for v in got])
                arr = some if run is None else np.zeros((len(px), *some.shape[1:]), some.dtype)
                if run is not None:
                    arr[run] = some
            else:
                arr = source[0][py, px]
            size = t.size if isinstance(t, Vector) else 1
            if arr.ndim == 2 and arr.shape[1] == 1 and size == 1:
                arr = arr[:, 0]
            if (arr.shape[1] if arr.ndim == 2 else 1) != size:
                raise BindingError(f"fragment input {key!r} gives {arr.shape[1:] or 'a scalar'}"
                                   f" per pixel, but @location({location}) is {t.wgsl}")
            values[f"in_{location}"] = np.ascontiguousarray(arr.T).astype(dtype_of(t))
        return values

    def _file(self, t: Any, value: Any, keys: slice, shaded: np.ndarray) -> None:
        """Files a chunk's returned value (zero where no fragment was shaded)."""
        if t is None:
            return
        total = 4 * self.qw * self.qh
        if isinstance(t, Struct):
            if self.output is None:
                self.output = {n: _allocate(total, mt) for n, mt in t.fields}
            for n, _ in t.fields:
                _put(self.output[n], value[n], keys, shaded)
            return
        if self.output is None:
            self.output = _allocate(total, t)
        _put(self.output, value, keys, shaded)

    # --- the result ------------------------------------------------------------------------

    @property
    def config(self) -> dict[str, Any]:
        """The dispatch as its trace records it."""
        return {"stage": "fragment", "size": [self.width, self.height],
                "derivatives": self.derivatives}

    def result(self, strategy: dict[str, Any], written: dict[str, Any]) -> FragmentResult:
        """The dispatch's result; ``written``: the resources it may write, by binding name
        (the storage buffers and storage textures a coroutine dispatch's outputs hold)."""
        w, h = self.width, self.height
        if isinstance(self.output, dict):
            output: Any = {k: image_of(v, w, h) for k, v in self.output.items()}
        else:
            output = None if self.output is None else image_of(self.output, w, h)
        outputs = dict(written)
        if isinstance(output, dict):
            outputs.update(output)
        elif output is not None:
            outputs["output"] = output
        trace = Trace(kernel=self.shader.identity, dispatch=self.config, strategy=strategy)
        return FragmentResult(outputs=outputs, trace=trace,
                              counters=Counters(invocations=self.ran), output=output,
                              mask=image_of(self.shaded, w, h))


def _allocate(total: int, t: Any) -> np.ndarray:
    dtype = dtype_of(t)
    return np.zeros((total, t.size) if isinstance(t, Vector) else (total,), dtype)


def _put(out: np.ndarray, value: Any, keys: slice, shaded: np.ndarray) -> None:
    v = lanes.lane_array(np.asarray(value), len(shaded))
    v = v.T if out.ndim == 2 else v
    out[keys] = np.where(shaded.reshape(-1, *([1] * (out.ndim - 1))), v, 0)
