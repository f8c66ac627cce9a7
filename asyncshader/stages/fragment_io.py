"""What one fragment reads and writes: the generated calls that make a fragment's coroutine
with its builtins, inputs and resources, its view of a storage buffer (a helper's writes are
dropped, as WGSL requires) and its located outputs, made into arrays (height, width[, n])."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..collectives.quads import QUAD
from ..collectives.subgroups import SUBGROUP, subgroup_group
from ..errors import BindingError, ReplayMismatchError
from ..schedules.strategies import Replay
from ..wgsl.bindings import Input, Storage, Uniform
from ..wgsl.managed import _Managed
from ..wgsl.struct_buffers import StructArray
from ..wgsl.types import _VECS, Vec, vec4f
from ..wgsl.vec_arrays import VecElements, store_plain, unwatched, vector_class
from ..wgsl.watched import _Traced

#: the scalar types whose outputs are gathered in one numpy step
SCALAR_OUTPUTS = frozenset({float, int, bool, np.float32, np.float64, np.float16, np.int32,
                            np.uint32, np.int64, np.uint64, np.int16, np.uint16, np.int8,
                            np.uint8, np.bool_})


def split_inputs(shader: Any, width: int, height: int, given: dict[str, Any]
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fragment dispatch's per-pixel inputs (by annotation, shape or callability), each as
    :func:`per_pixel_input` makes it, and the other bindings."""
    inputs, resources = {}, {}
    params = shader.params
    for name, value in given.items():
        ann = params[name].annotation if name in params else inspect.Parameter.empty
        declared = isinstance(ann, type) and issubclass(ann, Input)
        other = isinstance(ann, type) and issubclass(ann, (Storage, Uniform))
        per_pixel = isinstance(value, np.ndarray) and value.shape[:2] == (
            height, width) and value.ndim in (2, 3)
        if name in params and (declared or (not other and (per_pixel or callable(value)))):
            inputs[name] = per_pixel_input(name, value, width, height)
        else:
            resources[name] = value
    return inputs, resources


def per_pixel_input(name: str, value: Any, width: int, height: int) -> Any:
    """A per-pixel input as a dispatch reads it: a callable ``(x, y)`` as it is; an array as
    (the array padded to whole quads, the vector type of an element or None), its dtype f32,
    i32, u32 or bool. Past the edge (helpers) floats extend linearly, as interpolation would,
    so a ramp stays a ramp; integers and bools repeat the edge."""
    if callable(value) and not isinstance(value, np.ndarray):
        return value
    if not isinstance(value, np.ndarray) or value.shape[:2] != (height, width) \
            or value.ndim not in (2, 3) or (value.ndim == 3 and value.shape[2] > 4):
        raise BindingError(
            f"fragment input {name!r} must be an array shaped (height, width) or "
            f"(height, width, n<=4) = ({height}, {width}[, n]), or a callable "
            f"(x, y) -> value; got {getattr(value, 'shape', type(value).__name__)}")
    kind = value.dtype.kind
    dtype = {"f": np.float32, "i": np.int32, "u": np.uint32, "b": np.bool_}.get(kind)
    if dtype is None:
        raise BindingError(f"fragment input {name!r} has dtype {value.dtype}; use float, "
                           "int, uint or bool values")
    arr = value.astype(dtype)
    for axis, extra in ((0, height % 2), (1, width % 2)):
        if not extra:
            continue
        pad = [(0, 0)] * arr.ndim
        pad[axis] = (0, extra)
        if kind == "f" and arr.shape[axis] >= 2:
            arr = np.pad(arr, pad, mode="reflect", reflect_type="odd")
        else:
            arr = np.pad(arr, pad, mode="edge")
    vec = _VECS[(arr.shape[2], kind)] if arr.ndim == 3 and arr.shape[2] > 1 else None
    return (arr, vec)


def image_of(by_key: np.ndarray, width: int, height: int) -> np.ndarray:
    """An array indexed by fragment key (quad, then quad id) as an image (height, width,
    ...)."""
    qh, qw, rest = (height + 1) // 2, (width + 1) // 2, by_key.shape[1:]
    grid = by_key.reshape(qh, qw, 2, 2, *rest).swapaxes(1, 2)
    return np.ascontiguousarray(grid.reshape(2 * qh, 2 * qw, *rest)[:height, :width])


def input_value(source: Any, x: int, y: int) -> Any:
    """The value of a per-pixel input (a callable (x, y), or an (array, vector type) pair)
    at pixel (x, y)."""
    if callable(source):
        return source(x, y)
    arr, vec = source
    if vec is None:
        v = arr[y, x]
        return v[0] if arr.ndim == 3 else v
    return vec(*arr[y, x].tolist())


def check_coverage(coverage: Any, width: int, height: int) -> np.ndarray | None:
    """``run_fragments(coverage=...)``: a (height, width) bool array (the pixels a triangle
    covers) padded with False to whole quads; None for every pixel."""
    if coverage is None:
        return None
    mask = np.asarray(coverage)
    if mask.shape != (height, width) or mask.dtype != np.bool_:
        raise BindingError(f"run_fragments(coverage=...) takes a ({height}, {width}) bool "
                           f"array (True: the pixel is covered), not "
                           f"{getattr(mask, 'dtype', '?')} of shape {mask.shape}. Fix: pass "
                           "mask.astype(bool) shaped (height, width)")
    return np.pad(mask, ((0, height % 2), (0, width % 2)))


def run_coverage(run: Any, coverage: Any) -> np.ndarray | None:
    """The coverage of a fragment run (:func:`check_coverage`), recorded in ``run.config`` (so
    that a trace holds it: the packed bits of the (height, width) mask, row by row, in hex).
    A replay without ``coverage=`` takes the trace's; one with another mask is a
    :class:`~asyncshader.ReplayMismatchError` saying where they differ."""
    recorded = run.strategy.trace.dispatch.get("coverage") \
        if isinstance(run.strategy, Replay) else None
    w, h = run.width, run.height
    if coverage is None and recorded is not None:
        coverage = _unpacked(recorded, w, h)
    mask = check_coverage(coverage, w, h)
    if mask is not None:
        run.config["coverage"] = np.packbits(mask[:h, :w].ravel()).tobytes().hex()
    if isinstance(run.strategy, Replay) and run.config.get("coverage") != recorded:
        if recorded is None:
            raise ReplayMismatchError("the trace was recorded without coverage= (every pixel "
                                      "covered); this dispatch has a coverage mask. Replay "
                                      "needs the same configuration. Fix: leave coverage= out")
        was = _unpacked(recorded, w, h)
        y, x = np.argwhere(was != mask[:h, :w])[0]
        raise ReplayMismatchError(
            f"the trace was recorded with another coverage= ({int(was.sum())} of {w}x{h} "
            f"pixels covered; this dispatch covers {int(mask[:h, :w].sum())}, and pixel "
            f"({x}, {y}) is {'not ' if was[y, x] else ''}covered here). Replay needs the same "
            "configuration. Fix: pass the recorded mask, or leave coverage= out to take the "
            "trace's")
    return mask


def _unpacked(recorded: Any, width: int, height: int) -> np.ndarray:
    """A trace's recorded coverage as a (height, width) bool mask."""
    try:
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(recorded), np.uint8))
        return bits[:width * height].astype(bool).reshape(height, width)
    except (TypeError, ValueError):
        raise ReplayMismatchError(f"the trace's coverage ({str(recorded)[:40]!r}) is not the "
                                  f"packed bits of a {width}x{height} mask: the trace file was "
                                  "changed by hand, or is for another size") from None


def corner(q: int, qw: int) -> tuple[int, int]:
    """The pixel of quad ``q``'s member 0 (its upper-left), with ``qw`` quads per row."""
    return 2 * (q % qw), 2 * (q // qw)


class FragmentIds:
    """Which pixel a fragment invocation shades (its key: 4 * quad + quad id), and how
    messages name it."""

    def __init__(self, qw: int, width: int, height: int) -> None:
        self.qw, self.width, self.height = qw, width, height

    def pixel(self, key: int) -> tuple[int, int]:
        q, lane = divmod(key, 4)
        qx, qy = corner(q, self.qw)
        return qx + (lane & 1), qy + (lane >> 1)

    def describe(self, inv: Any) -> str:
        x, y = self.pixel(inv.key)
        kind = ""
        if x >= self.width or y >= self.height:
            kind = ", helper (padding)"
        elif inv.helper:
            kind = ", helper (discarded)"
        return f"fragment ({x},{y}) [quad id {inv.key % 4}{kind}]"


class FragmentStorage(_Managed):
    """A storage buffer as one fragment invocation sees it: writes by a helper (or a discarded
    invocation) are dropped, as WGSL requires; reads are plain numpy reads. Sub-array views
    (``buf[y]``) belong to the same invocation; copies (``buf[y].copy()``) are private
    values, no longer the buffer."""

    _inv: Any = None

    def __array_finalize__(self, obj: Any) -> None:
        if obj is not None and self.base is not None:  # views, not copies, are the buffer
            self._inv = getattr(obj, "_inv", None)
            self._run = getattr(obj, "_run", None)
            self._origin = getattr(obj, "_origin", None)

    def _will_write(self, flat: Any = None) -> bool:
        if self._inv is not None and self._inv.helper:  # no effect; counted and noted
            self._run.suppressed_writes += 1
            self._run.helper_effect(self._inv, self._origin, "store")
            return False
        return True

    def __setitem__(self, index: Any, value: Any) -> None:
        if FragmentStorage._will_write(self):
            np.ndarray.__setitem__(self, index, value)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        """In-place operations (``buf += 1``) write through ``out=``: drop them for helpers too,
        and keep the name bound to this view (so later writes are still checked)."""
        if method == "at":
            return _Managed.__array_ufunc__(self, ufunc, method, *inputs, **kwargs)
        args = [np.asarray(x) if isinstance(x, FragmentStorage) else x for x in inputs]
        if out is None:
            return getattr(ufunc, method)(*args, **kwargs)
        if any(isinstance(t, FragmentStorage) and not FragmentStorage._will_write(t)
               for t in out):
            return self
        plain = tuple(t.view(np.ndarray) if isinstance(t, FragmentStorage) else t for t in out)
        getattr(ufunc, method)(*args, out=plain, **kwargs)
        return self if any(t is self for t in out) else (plain[0] if len(plain) == 1 else plain)


class TracedFragmentStorage(_Traced, FragmentStorage):
    """A fragment's storage view in an instrumented run: loads and stores are reported (as for
    compute storage), out-of-bounds indices follow WGSL robust access, helpers' writes are
    dropped."""

    def __setitem__(self, index: Any, value: Any) -> None:
        if FragmentStorage._will_write(self):  # (a helper's is dropped, and noted)
            _Traced.__setitem__(self, index, value)


class VecFragmentStorage(VecElements, FragmentStorage):
    """A fragment's view of a buffer declared with a vector element (``Storage[vec4f]``), in a
    run without instruments: ``buf[i]`` loads a vector (:mod:`asyncshader.wgsl.vec_arrays`);
    helpers' writes are dropped."""

    def __setitem__(self, index: Any, value: Any) -> None:
        if FragmentStorage._will_write(self):
            store_plain(self, index, value)


def storage_classes(names: list[str], vectors: dict[str, Any], traced: bool) -> list[type]:
    """The class of each storage buffer's per-invocation views (by name, in order): reporting
    accesses in an instrumented run, loading vectors where ``vectors`` declares their type."""
    plain, vector = (TracedFragmentStorage, TracedFragmentStorage) if traced else (
        FragmentStorage, VecFragmentStorage)
    return [vector_class(vector, vectors[n]) if n in vectors else plain for n in names]


def storage_views(run: Any, storage: list, fasts: list, classes: list) -> tuple[list, list]:
    """One fragment invocation's storage buffers: (what its shader is given, what must learn
    the invocation as ``_inv``: flat buffers' views, and struct buffers' blocks, whose
    ``_inv`` is ``inv``); ``classes``: each flat buffer's view class (storage_classes)."""
    views, owned = [], []
    for (_, arr), fast, view_class in zip(storage, fasts, classes):
        if isinstance(arr, StructArray):  # struct buffers: a block per invocation
            view, block = arr.fragment_arg(run)
            owned.append(block)
        else:
            view = arr.view(view_class)
            view._origin, view._run, view._fast = arr, run, fast
            if not view._reports and isinstance(view, VecElements):  # (loads: numpy's)
                unwatched(view, arr)
            owned.append(view)
        views.append(view)
    return views, owned


def _allocate(height: int, width: int, value: Any, name: str) -> np.ndarray:
    if isinstance(value, Vec):
        dtype = value.scalar.dtype
        return np.zeros((height, width, value.size), dtype)
    if isinstance(value, (bool, np.bool_)):
        return np.zeros((height, width), np.bool_)
    if isinstance(value, (np.float32, float, np.floating)):
        return np.zeros((height, width), np.float32)
    if isinstance(value, (np.uint32, np.unsignedinteger)):
        return np.zeros((height, width), np.uint32)
    if isinstance(value, (int, np.integer)):
        return np.zeros((height, width), np.int32)
    raise TypeError(f"a fragment output ({name}) must be a scalar, a vector, or a dataclass or "
                    f"mapping of them; got {type(value).__name__}")


def _fields(value: Any) -> Any:
    """A dataclass instance as a mapping of its fields; anything else unchanged."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return value


def _put_output(out: np.ndarray, x: int, y: int, value: Any, name: str) -> None:
    """Stores one fragment's output, refusing a value of another kind or shape than the first
    fragment's (a float into an int image would be truncated silently)."""
    like = _allocate(1, 1, value, name)
    if like.shape[2:] != out.shape[2:] or (like.dtype != out.dtype and not (
            out.dtype.kind == "f" and like.dtype.kind in "iu")):
        raise TypeError(
            f"fragment ({x},{y}) returned {_kind(value)} for {name}, but the first fragment "
            f"returned {_kind_of_array(out)}: every fragment must return the same type (WGSL "
            "fixes it in the signature). Convert, e.g. ash.f32(...)")
    out[y, x] = _component(value)


def _kind(value: Any) -> str:
    return type(value).__name__


def _kind_of_array(out: np.ndarray) -> str:
    return f"{out.dtype}" + (f" x{out.shape[2]}" if out.ndim == 3 else "")


def _component(value: Any) -> Any:
    return list(value) if isinstance(value, Vec) else value


def _shape_of(output: Any) -> str:
    return f"fields {sorted(output)}" if isinstance(output, dict) else "a single value"


def _caller(fn: Callable, builtins: list[str], inputs: list[str], storage: list[str],
            uniforms: dict[str, Any]) -> Callable:
    """``call(position, front_facing, sample_index, sample_mask, *inputs, *storage)`` creating
    the shader's coroutine with keyword arguments (generated once per dispatch: a kwargs dict
    per invocation is slow)."""
    names = [f"_i{k}" for k in range(len(inputs))] + [f"_s{k}" for k in range(len(storage))]
    args = [f"{b}={b}" for b in builtins]
    args += [f"{n}={v}" for n, v in zip(inputs + storage, names)]
    args += [f"{n}=_u[{n!r}]" for n in uniforms]
    src = (f"def call(position, front_facing, sample_index, sample_mask"
           f"{''.join(', ' + n for n in names)}):\n    return _fn({', '.join(args)})\n")
    ns: dict[str, Any] = {"_fn": fn, "_u": uniforms}
    exec(src, ns)
    return ns["call"]


def _quad_maker(fn: Callable, builtins: list[str], uniforms: dict[str, Any],
                constants: dict[str, Any]) -> Callable:
    """``quad(x0, x1, y0, y1)``: the four coroutines of a quad whose shader takes builtins and
    uniforms only (pixel centres x0, x1 and y0, y1), in quad id order; generated once per
    dispatch, so that a quad costs four shader calls and nothing around them."""
    ns: dict[str, Any] = {"_fn": fn, "_make": vec4f._make, **constants}
    fixed = [f"{b}={b}" for b in builtins if b != "position"]
    for k, (name, value) in enumerate(uniforms.items()):
        ns[f"_u{k}"] = value
        fixed.append(f"{name}=_u{k}")
    calls = []
    for x, y in (("x0", "y0"), ("x1", "y0"), ("x0", "y1"), ("x1", "y1")):
        args = ([f"position=_make({x}, {y}, _z, _w)"] if "position" in builtins else []) + fixed
        calls.append(f"_fn({', '.join(args)})")
    exec(f"def quad(x0, x1, y0, y1):\n    return [{', '.join(calls)}]\n", ns)
    return ns["quad"]


def subgroup_inputs(names: list[str], size: int, qw: int) -> dict[str, Callable]:
    """The subgroup builtins a fragment shader takes, as per-pixel inputs ``(x, y) -> value``:
    a subgroup is ``size / 4`` consecutive quads (row-major quad order, ``qw`` quads a row);
    a pixel's ``subgroup_invocation_id`` is 4 * (its quad's place in the subgroup) + its quad
    id."""
    quads = size // 4
    values = {
        "subgroup_size": lambda x, y: np.uint32(size),
        "subgroup_invocation_id": lambda x, y: np.uint32(
            4 * (((y // 2) * qw + x // 2) % quads) + (x & 1) + 2 * (y & 1)),
    }
    return {name: values[name] for name in names}


def subgroup_uses(fn: Callable, params: Mapping[str, Any], uses: Any) -> tuple[list[str], bool]:
    """The subgroup builtins a fragment shader takes (``subgroup_invocation_id``,
    ``subgroup_size``; WGSL's ``subgroup_id`` and ``num_subgroups`` are compute-only) and
    whether it calls subgroup operations."""
    for name in ("subgroup_id", "num_subgroups"):
        if name in params:
            raise TypeError(f"{fn.__qualname__}: builtin {name!r} exists only in compute "
                            "shaders (WGSL); a fragment shader has subgroup_invocation_id and "
                            "subgroup_size")
    names = [n for n in params if n in ("subgroup_invocation_id", "subgroup_size")]
    return names, any(getattr(f, "__ash_needs_subgroups__", False) for f in uses)


def with_subgroup_lanes(fragment: type, size: int) -> type:
    """The fragment invocation class of a dispatch with subgroups: a member's lane in its
    subgroup (consecutive whole quads) is its key modulo ``size``."""
    def lanes(self: Any) -> dict[str, int]:
        return {QUAD: self.key & 3, SUBGROUP: self.key % size}
    return type(fragment.__name__, (fragment,), {"lanes": property(lanes)})


def quad_subgroup(q: int, per: int, running: np.ndarray, current: Any) -> Any:
    """The subgroup of quad ``q``: quads ``k*per`` to ``k*per + per - 1`` (``per`` a
    subgroup, fewer in the last), ``current`` if it is already that one. Its lanes are
    numbered by position, as ``subgroup_invocation_id`` is; a quad that does not run
    (``running``: a bool per quad, False for one without a covered pixel) holds none of them:
    its lanes are absent, inactive from the start, as on a GPU that leaves lanes of a wave
    empty."""
    k = q // per
    if current is not None and current.index == k:
        return current
    quads = running[k * per:(k + 1) * per]
    absent = [4 * j + i for j in np.flatnonzero(~quads).tolist() for i in range(4)]
    return subgroup_group(k, f"subgroup {k} of the fragment dispatch", 4 * len(quads), absent)


def quads_that_run(cover: np.ndarray | None, quads: int) -> np.ndarray:
    """A bool per quad (row-major): whether it runs, that is has a pixel ``cover`` (the
    padded coverage, None for every pixel) covers."""
    if cover is None:
        return np.ones(quads, bool)
    h, w = cover.shape
    return cover.reshape(h // 2, 2, w // 2, 2).any(axis=(1, 3)).reshape(quads)
