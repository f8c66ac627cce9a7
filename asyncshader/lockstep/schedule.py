"""``ash.Lockstep()``: the schedule that runs a compute dispatch as numpy arrays over lanes.

Every kernel reaches it as WGSL through the one typed IR: a loaded WGSL kernel by its
module's text, a Python kernel through ``ash.to_wgsl`` (the emitter); the front-end parses,
resolves and type-checks it, and :mod:`.compile` turns the entry point into a function over
lanes. The dispatch's buffers are copied into word memories laid out as WGSL lays them out
(the bytes a GPU would get, :mod:`asyncshader.emit.buffers`), the function runs on every
invocation of a chunk of whole workgroups at once, and the storage buffers are copied back
into the caller's arrays.

``ash.run`` and ``ash.dispatch`` (the stages layer, below this one) find Lockstep through
the schedule object: a schedule with a ``run_dispatch`` method runs the dispatch itself
(docs/design.md, "Lockstep").
"""

from __future__ import annotations

import linecache
import weakref
from typing import Any

import numpy as np

from ..collectives.subgroups import DEFAULT_SUBGROUP_SIZE, check_subgroup_size
from ..emit import emit
from ..emit.buffers import from_gpu, struct_bytes, to_gpu
from ..emit.marks import SOURCE_LINES
from ..errors import BindingError, DispatchError, OptionError
from ..front.wgsl.source import Source
from ..ir.types import Array, Struct, Vector
from ..schedules.trace import Trace
from ..stages.compute import ComputeKernel
from ..stages.dispatch import Counters, DispatchResult
from ..wgsl.overrides import pipeline_constants
from ..wgsl.source import GENERATED
from ..wgsl.textures.resources import Sampler, Texture, TextureView
from . import atomics, builtins, fragments, lanes, matrices, races, subgroups, textures
from .buffers import word_view
from .builtins import dtype_of
from .compile import Compiler, Program
from .options import check_coroutine_options
from .pipelines import pipeline_of
from .typed import checked_tree
from .watch import watching_compiler

#: the most iterations one loop may run (all its lanes together) before it is an error
MAX_ITERATIONS = 1 << 20
#: the most lanes one chunk of workgroups runs at once (memory: a few arrays of this size
#: per live value)
MAX_LANES = 1 << 12

_PROGRAMS: dict[tuple[str, str, str], Program] = {}
_BY_KERNEL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Lockstep:
    """A schedule for ``ash.run(..., schedule=ash.Lockstep())``: every invocation of a
    chunk of whole workgroups executes each operation before any executes the next (as SIMT
    hardware runs a warp), with divergent branches run one after the other under masks.
    WGSL allows this interleaving; it is one schedule, not an approximation, and
    race-free kernels give the same memory as under ``InOrder``. Atomics on one address
    happen in lane order (global invocation index), stores of several lanes to one address
    keep the highest lane's value. The race detector is on as in the coroutine schedules
    (``sanitize=``, ``allow_races=``), vectorised (:mod:`.races`): the same findings, with
    the invocations and counts of this interleaving; what it cannot run is refused with the
    WGSL construct and line (docs/lockstep.md)."""

    name = "lockstep"

    def __init__(self, max_lanes: int = MAX_LANES,
                 max_iterations: int = MAX_ITERATIONS) -> None:
        for name, value in (("max_lanes", max_lanes), ("max_iterations", max_iterations)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(f"Lockstep({name}=) takes a positive int, got {value!r}")
        self.max_lanes, self.max_iterations = max_lanes, max_iterations

    def describe(self) -> dict[str, Any]:
        """What its traces record as the schedule: everything that decides a run's memory
        and errors (docs/lockstep.md, "Its trace")."""
        return {"name": self.name, "max_lanes": self.max_lanes,
                "max_iterations": self.max_iterations}

    def __repr__(self) -> str:
        return f"Lockstep(max_lanes={self.max_lanes}, max_iterations={self.max_iterations})"

    def run_dispatch(self, kernel: Any, workgroups: Any, bindings: dict[str, Any],
                     options: dict[str, Any]) -> DispatchResult:
        """Runs a compute dispatch (``ash.run``'s arguments) in lockstep."""
        _check_options(options)
        if not isinstance(kernel, ComputeKernel):
            raise TypeError(f"expected a @compute kernel, got {kernel!r}")
        if kernel.derivatives == "quads":
            raise OptionError(f"{kernel.identity['name']} groups its quads as 2x2 tiles of "
                              "local ids (derivatives='quads'); Lockstep runs compute quads as "
                              "4 consecutive local invocation indices only")
        groups = _size3(workgroups)
        bindings = kernel.resolve_bindings(bindings)  # (the coroutine path's: bindings=, bytes)
        run = races.LockstepRun(kernel.workgroup_size, groups, options.get("sanitize"),
                                options.get("allow_races"))
        constants = _constants(kernel, options.get("overrides"))
        program, names = program_of(kernel, bindings, watch=run.detector is not None,
                                    constants=constants)
        size = check_subgroup_size(options.get("subgroup_size") or kernel.subgroup_size
                                   or DEFAULT_SUBGROUP_SIZE)
        config = {"stage": "compute", "workgroups": list(groups),
                  "workgroup_size": list(program.workgroup_size), "subgroup_size": size}
        trace = Trace(kernel=kernel.identity, dispatch=config, strategy=self.describe())
        self.starting(kernel, config)
        try:
            run_program(program, names, groups, bindings, self.max_lanes, self.max_iterations,
                        constants, size, kernel=kernel.identity["name"], detector=run.detector)
        except Exception as exc:  # (explore keeps it with a failing run: it replays the run)
            exc.asyncshader_trace = trace  # type: ignore[attr-defined]
            raise
        total = int(np.prod(groups)) * int(np.prod(program.workgroup_size))
        return DispatchResult(outputs=outputs_of(program, names, bindings), trace=trace,
                              counters=Counters(invocations=total),
                              findings=run.findings(trace))

    def run_fragment_dispatch(self, shader: Any, width: int, height: int,
                              given: dict[str, Any], options: dict[str, Any]) -> Any:
        """Runs a fragment dispatch (``ash.run_fragments``' arguments) in lockstep: the
        pixels are the lanes, in 2x2 quads (:mod:`.fragments`)."""
        _check_options(options)
        job = fragments.FragmentDispatch(shader, width, height, given, options)
        run = races.LockstepRun((4, 1, 1), (job.qw * job.qh, 1, 1), options.get("sanitize"),
                                options.get("allow_races"), job.ids, "fragment")
        self.starting(shader, job.config)
        watch = run.detector is not None
        program, names = program_of(shader, job.given, fragments.FragmentCompiler, watch)
        memories, back = _memories(program, names, job.resources)
        values = _override_values(program, _constants(shader, options.get("overrides")))
        recorder = recorder_of(run.detector, program, names, job.resources, memories)
        with np.errstate(all="ignore"):
            job.execute(program, {**memories, **values}, self.max_lanes, self.max_iterations,
                        recorder)
        finish(recorder)
        write_back(back)
        result = job.result(self.describe(), outputs_of(program, names, job.resources))
        result.findings = run.findings(result.trace)
        return result

    def starting(self, kernel: Any, config: dict[str, Any]) -> None:
        """Called before a dispatch runs, with its trace's configuration (a replay checks
        that it is the recorded one: :mod:`.replay`)."""


def outputs_of(program: Program, names: dict[str, str], bindings: dict[str, Any]) -> dict:
    """What a dispatch may write, by the name it binds it, as a coroutine dispatch's
    ``outputs`` hold it: the arrays bound to ``var<storage, read_write>`` (not the read-only
    buffers, not uniforms) and the written level of each writable storage texture."""
    outputs = {}
    for key, value in bindings.items():
        space, access, _ = program.variables.get(names.get(key, key), (None, None, None))
        if space == "storage" and access != "read" and isinstance(value, np.ndarray):
            outputs[key] = value
    outputs.update(textures.written(program.variables, names, bindings))
    return outputs


def _check_options(options: dict[str, Any]) -> None:
    """Refuses the coroutine schedules' options."""
    for name in ("instruments",):
        value = options.get(name)
        empty = value is None or (isinstance(value, (list, tuple, set, frozenset, str))
                                  and not value)
        if not empty:
            raise OptionError(f"schedule=ash.Lockstep() does not take {name}= (got "
                              f"{value!r}): it is an option of the coroutine schedules")
    check_coroutine_options(options)  # (the others: honoured, harmless or refused)


def _size3(v: Any) -> tuple[int, int, int]:
    t = (v,) if isinstance(v, int) else tuple(v)
    if not t or len(t) > 3 or any(not isinstance(x, (int, np.integer)) or x < 0 for x in t):
        raise DispatchError(f"workgroups must be 1 to 3 non-negative ints, got {v!r}")
    return tuple(int(x) for x in t) + (1,) * (3 - len(t))  # type: ignore[return-value]


# --- the program ----------------------------------------------------------------------------

def wgsl_of(kernel: ComputeKernel, bindings: dict[str, Any], marks: list | None = None
            ) -> tuple[Source, str, dict]:
    """The WGSL a kernel is: its module's text for a loaded one (the entry point by its name,
    bindings by their WGSL names), ``to_wgsl``'s for a Python one; with the entry point's
    name and each binding's WGSL name by the name the dispatch binds it (None: a parameter
    of a Python kernel that it does not use, which ``to_wgsl`` leaves out, and the
    coroutine schedules accept as they accept it bound and unused). ``marks``: a list
    that gets the Python line of each line of a Python kernel's WGSL (the lines end in
    ``// @ash N``, N indexing it)."""
    fn = kernel.fn
    recipe = getattr(kernel, "__asyncshader_recipe__", None)  # (load_wgsl's: text and entry)
    # (a loaded kernel's bindings come under their Python names: ``in_`` for WGSL's ``in``)
    wgsl_name = {py: w for w, py in getattr(kernel, "python_names", {}).items()}
    loaded = {k: wgsl_name.get(k, k) for k in bindings}
    if recipe is not None and hasattr(recipe, "text"):
        return Source(recipe.text, recipe.name), recipe.entry, loaded
    filename = fn.__code__.co_filename
    if getattr(fn, GENERATED, None) is not None and filename.endswith(".wgsl"):
        text = "".join(linecache.getlines(filename))
        return Source(text, filename), fn.__name__, loaded
    token = SOURCE_LINES.set(marks)
    try:
        code = emit(kernel, **bindings)
    finally:
        SOURCE_LINES.reset(token)
    names: dict = {k: None for k in bindings}  # (a parameter the kernel does not use: None)
    names.update({b.name: b.wgsl or b.name for b in code.bindings})
    return Source(code.source, f"<to_wgsl {kernel.identity['name']}>.wgsl"), code.entry, names


def program_of(kernel: Any, bindings: dict[str, Any], compiler: type = Compiler,
               watch: bool = False, constants: dict | None = None) -> tuple[Program, dict]:
    """The compiled entry point of ``kernel`` (by ``compiler``: its stage's) and the binding
    names: cached per kernel and binding types (what ``to_wgsl`` reads of the bindings), and
    by WGSL text and pipeline ``constants`` (sizes given by overrides are compiled in:
    :mod:`.pipelines`); ``watch``: the entry point with the race detector's calls
    (:mod:`.watch`)."""
    per_kernel = _BY_KERNEL.setdefault(kernel, {})
    pipeline = tuple(sorted((str(k), repr(v)) for k, v in (constants or {}).items()))
    signature = (watch, pipeline, *sorted((k, _type_key(v)) for k, v in bindings.items()))
    if signature not in per_kernel:
        marks: list | None = [] if watch else None
        source, entry, names = wgsl_of(kernel, bindings, marks)
        key = (source.name, source.text, entry, watch, pipeline)
        if key not in _PROGRAMS:
            checker, typed = checked_tree(kernel, source)
            made = (watching_compiler(compiler)(checker, typed, marks or None) if watch
                    else compiler(checker, typed))
            made.pipeline = pipeline_of(checker, constants)
            _PROGRAMS[key] = made.compile(entry)
        per_kernel[signature] = (_PROGRAMS[key], names)
    return per_kernel[signature]


def _type_key(value: Any) -> Any:
    """What the emitted WGSL can depend on in a bound value: its type, an array's dtype and
    the shape of one element, a texture's WGSL type (an unannotated parameter takes it)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype, value.shape[1:])
    if isinstance(value, (Texture, TextureView, Sampler)):
        return textures.type_key(value)
    return (type(value).__module__, type(value).__qualname__, np.shape(value))


def _memories(program: Program, names: dict[str, str], bindings: dict[str, Any],
              kernel: str = "kernel") -> tuple[dict[str, Any], dict]:
    """Each bound variable's words, by WGSL name (a texture's or sampler's
    :func:`.textures.bind` value by ``h_`` and its name), and the storage buffers to copy
    back."""
    by_wgsl = {names.get(k, k): v for k, v in bindings.items() if names.get(k, k) is not None}
    takes = sorted(k for k, (space, _, _) in program.variables.items() if space != "workgroup")
    unknown = sorted(set(by_wgsl) - set(takes))
    if unknown:
        raise BindingError(f"unknown binding {', '.join(map(repr, unknown))}: the entry point "
                           f"uses {', '.join(takes) or 'no resources'}")
    memories, back = {}, {}
    for name, (space, access, t) in program.variables.items():
        if space == "workgroup":
            continue
        if name not in by_wgsl:
            raise DispatchError(f"the kernel's {space} variable {name!r} is not bound: pass "
                                f"{name}=... to the dispatch")
        value = by_wgsl[name]
        if space == "handle":
            memories[f"h_{name}"] = textures.bind(kernel, name, t, value)
            continue
        direct = word_view(value, t, access) if space == "storage" else None
        if direct is not None:  # (its bytes are WGSL's: stores land in it, no copy back)
            memories[name] = lanes.Words(direct)
            continue
        if space == "uniform":
            data = _uniform_bytes(value, t)
        else:
            arr = np.ascontiguousarray(value)
            if arr.dtype == np.bool_:
                arr = arr.astype(np.uint32)
            data = to_gpu(arr, t).tobytes()
        size = len(data)
        data += bytes(-len(data) % 4)
        words = np.frombuffer(data, np.uint32).copy() if data else np.zeros(0, np.uint32)
        memories[name] = lanes.Words(words, size)
        if space == "storage" and access != "read" and isinstance(value, np.ndarray):
            back[name] = (words, t, value)
    return memories, back


def _constants(kernel: ComputeKernel, given: Any) -> dict:
    """A dispatch's pipeline constants (by ``@id`` or name): a loaded module's, given at load;
    a Python kernel's ``overrides=`` through its ``ash.override`` declarations, as
    :func:`asyncshader.crosscheck` gives them to a GPU."""
    recipe = getattr(kernel, "__asyncshader_recipe__", None)
    if recipe is not None and hasattr(recipe, "constants"):  # (a loaded module's pipeline)
        if given:
            raise OptionError(f"{recipe.name}: overrides of a loaded WGSL module are pipeline "
                              "constants, given at load: load_wgsl(..., constants={...}) or "
                              "module.with_constants(...), not overrides=")
        return {str(k): v for k, v in recipe.constants}
    used = getattr(kernel.shader_fn, "__ash_overrides__", {}) \
        if getattr(kernel.fn, GENERATED, None) is None else {}
    if used:
        return pipeline_constants(kernel.fn.__qualname__, used, given)
    return {str(k): v for k, v in (given or {}).items()}


def _override_values(program: Program, constants: dict) -> dict:
    values = {}
    for name, (key, t, default) in program.overrides.items():
        value = constants.get(key, constants.get(name, default))
        if value is None:
            raise DispatchError(f"the override {name} has no initializer: give its value, "
                                f"overrides={{{key!r}: ...}}")
        values[f"o_{name}"] = np.asarray(value).astype(dtype_of(t))[()]
    return values


def _uniform_bytes(value: Any, t: Any) -> bytes:
    data = struct_bytes(value)
    if data is not None:
        return data
    if isinstance(value, np.ndarray) and isinstance(t, Array):  # (an array: as a buffer)
        arr = np.ascontiguousarray(value)
        return to_gpu(arr.astype(np.uint32) if arr.dtype == np.bool_ else arr, t).tobytes()
    if isinstance(t, Struct):
        raise DispatchError(f"the uniform of type {t.wgsl} needs a struct value, got "
                            f"{type(value).__name__}")
    dtype = dtype_of(t)
    if dtype is None:
        raise DispatchError(f"not supported by Lockstep: a uniform of type {t.wgsl}")
    values = list(value) if isinstance(t, Vector) else [value]
    if dtype == np.bool_:
        dtype = np.uint32
    return np.asarray([np.asarray(v).astype(dtype) for v in values], dtype).tobytes()


# --- running ---------------------------------------------------------------------------

def run_program(program: Program, names: dict[str, str], groups: tuple[int, int, int],
                bindings: dict[str, Any], max_lanes: int = MAX_LANES,
                max_iterations: int = MAX_ITERATIONS, constants: dict | None = None,
                subgroup_size: int = 32, kernel: str = "kernel", detector: Any = None) -> None:
    """Runs a compiled entry point over ``groups`` workgroups on ``bindings`` (by the names
    ``names`` maps to WGSL names), writing the storage buffers back in place; ``constants``
    are the pipeline's override values, by ``@id`` or name; ``subgroup_size`` cuts each
    workgroup into subgroups; ``detector``: the race detector's (a program compiled
    watching), or None."""
    memories, back = _memories(program, names, bindings, kernel)
    values = _override_values(program, constants or {})
    recorder = recorder_of(detector, program, names, bindings, memories)
    with np.errstate(all="ignore"):
        _execute(program, groups, {**memories, **values}, max_lanes, max_iterations,
                 subgroup_size, recorder)
    finish(recorder)
    write_back(back)


def recorder_of(detector: Any, program: Program, names: dict[str, str],
                bindings: dict[str, Any], memories: dict) -> Any:
    """The race detector's recorder watching a dispatch's bound ``memories`` (None without a
    ``detector``)."""
    if detector is None:
        return None
    recorder = races.Recorder(detector, program.sites, program.ops)
    detector.sites, detector.ops = program.sites, program.ops
    by_wgsl = {names.get(k, k): k for k in bindings}
    for name, words in memories.items():
        if not isinstance(words, lanes.Words):
            continue  # (a texture or sampler: textures are not watched)
        space, _, t = program.variables[name]
        binding = by_wgsl.get(name, name)
        recorder.memories[id(words)] = races.Memory(
            binding, space, space == "storage" and binding not in detector.allow and (
                name in program.written or "*" in program.written),
            races.elements_of(bindings[binding], t))
    return recorder


def finish(recorder: Any) -> None:
    """Checks a finished dispatch's storage records (``recorder``: None without the
    detector) and orders its findings."""
    if recorder is not None:
        for memory in recorder.memories.values():
            recorder.detector.check(memory)
        recorder.detector.finish()


def write_back(back: dict) -> None:
    """Copies the storage buffers' words (:func:`_memories`' second result) back into the
    caller's arrays."""
    for words, t, value in back.values():
        restored = from_gpu(words.tobytes(), t, value if value.dtype != np.bool_
                            else value.astype(np.uint32))
        value[...] = restored.astype(value.dtype) if value.dtype == np.bool_ else restored


def _execute(program: Program, groups: tuple[int, int, int], memories: dict,
             max_lanes: int, max_iterations: int, subgroup_size: int,
             recorder: Any = None) -> None:
    sx, sy, sz = program.workgroup_size
    gx, gy, gz = groups
    n = sx * sy * sz
    total = gx * gy * gz
    per_chunk = max(1, max_lanes // n)
    for first in range(0, total, per_chunk):
        count = min(per_chunk, total - first)
        L = count * n
        ns = dict(program.namespace)
        ns.update(np=np, _l=lanes, _a=atomics, _b=builtins, _m=matrices, _s=subgroups,
                  _t=textures, L=L,
                  WG=n, SG=subgroup_size, P={}, CHUNK=(first, groups),
                  MAX_ITERATIONS=max_iterations)
        for name, words in memories.items():
            ns[name if name.startswith(("o_", "h_")) else f"g_{name}"] = words
        wg_in_chunk = np.repeat(np.arange(count, dtype=np.int64), n)
        for name, size in program.workgroup_words.items():
            ns[f"g_{name}"] = lanes.Words(np.zeros(count * size, np.uint32))
            ns[f"wb_{name}"] = wg_in_chunk * size
        ns.update(_builtin_values(program.builtins, first, count, n, (sx, sy, sz), groups,
                                  subgroup_size))
        if recorder is not None:
            ns.update(_r=recorder, _noidx=races.no_index)
            recorder.chunk(first, count, n)
            shared = races.watch_workgroup(recorder, program, ns)
        exec(program.code, ns)
        try:
            ns["entry"](None)
        finally:  # (its functions hold the namespace: a cycle, else kept until a collection)
            ns.clear()
        if recorder is not None:
            for memory in shared:
                recorder.detector.check(memory)


def _builtin_values(used: set[str], first: int, count: int, n: int,
                    size: tuple[int, int, int], groups: tuple[int, int, int],
                    subgroup_size: int) -> dict:
    sx, sy, _ = size
    gx, gy, _gz = groups
    lidx = np.tile(np.arange(n, dtype=np.uint32), count)
    w = np.repeat(np.arange(first, first + count, dtype=np.uint32), n)
    lid = np.stack([lidx % sx, (lidx // sx) % sy, lidx // (sx * sy)]).astype(np.uint32)
    wid = np.stack([w % gx, (w // gx) % gy, w // (gx * gy)]).astype(np.uint32)
    gid = (wid * np.array(size, np.uint32)[:, None] + lid).astype(np.uint32)
    values = {
        "local_invocation_index": lidx, "local_invocation_id": lid, "workgroup_id": wid,
        "workgroup_index": w, "global_invocation_id": gid,
        "num_workgroups": np.array(groups, np.uint32).reshape(3, 1),
        "global_invocation_index": (gid[0] + gid[1] * np.uint32(sx * gx)
                                    + gid[2] * np.uint32(sx * gx * sy * gy)).astype(np.uint32),
        "subgroup_invocation_id": (lidx % np.uint32(subgroup_size)).astype(np.uint32),
        "subgroup_size": np.uint32(subgroup_size),
        "subgroup_id": (lidx // np.uint32(subgroup_size)).astype(np.uint32),
        "num_subgroups": np.uint32(-(-n // subgroup_size)),
    }
    return {f"bi_{k}": values[k] for k in used}
