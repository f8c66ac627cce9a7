"""What Lockstep's generated code calls: active masks, WGSL's integer operators and
conversions over lanes, gathers and scatters on word memory, atomics in lane order.

A value over lanes is a numpy array whose last axis is the lane (a scalar: shape ``(L,)``; a
``vecN``: ``(N, L)``), or, where every lane holds the same value, an array or numpy scalar
that broadcasts to it (a scalar: 0-d or ``(1,)``; a vector: ``(N, 1)``). A mask is ``None``
(every lane of the run active), ``False`` (none) or a bool array of shape ``(L,)``: the
three forms keep uniform control flow free of mask arithmetic, so a loop counter every lane
shares stays one number.

Every definition here is WGSL's as asyncshader's scalar path computes it
(:mod:`asyncshader.wgsl.types`, :mod:`asyncshader.wgsl.operators`,
:mod:`asyncshader.wgsl.robust`); tests/lockstep fuzz each against it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import BarrierDivergenceError, StepLimitError
from ..wgsl.types import _I32_MAX_FROM, _U32_MAX_FROM

_I32_MIN = np.int32(-2**31)


# --- masks ----------------------------------------------------------------------------------

def cond(c: Any) -> Any:
    """A condition's value as a mask: a uniform one is None (true) or False."""
    if np.ndim(c) == 0 or c.size == 1:
        return None if bool(np.reshape(c, -1)[0]) else False
    return c


def both(m: Any, c: Any) -> Any:
    """The lanes of mask ``m`` that are also in mask ``c``."""
    if m is False or c is False:
        return False
    if m is None:
        return c
    if c is None:
        return m
    return m & c


def minus(m: Any, x: Any) -> Any:
    """The lanes of mask ``m`` not in mask ``x``."""
    if x is False or m is False:
        return m
    if x is None:
        return False
    return ~x if m is None else m & ~x


def either(a: Any, b: Any) -> Any:
    """The lanes in mask ``a`` or mask ``b``."""
    if a is False:
        return b
    if b is False:
        return a
    if a is None or b is None:
        return None
    return a | b


def live(m: Any) -> bool:
    """Whether mask ``m`` holds a lane."""
    return m is None or (m is not False and bool(m.any()))


def tidy(m: Any) -> Any:
    """``m``, or None where it holds every lane (so that uniform values stay uniform)."""
    if m is None or m is False:
        return m
    if m.all():
        return None
    return m if m.any() else False


def put(m: Any, new: Any, old: Any) -> Any:
    """``new`` in the lanes of ``m``, ``old`` elsewhere (a struct value is a dict)."""
    if m is None or old is None:
        return new
    if m is False:
        return old
    if isinstance(new, dict):
        return {k: put(m, new[k], old[k]) for k in new}
    return np.where(m, new, old)


def lane_array(v: Any, L: int) -> np.ndarray:
    """``v`` broadcast to its full shape over ``L`` lanes."""
    v = np.asarray(v)
    return np.broadcast_to(v, (*v.shape[:-1], L) if v.ndim > 1 else (L,))


# --- integers and conversions ---------------------------------------------------------------

def div_int(a: Any, b: Any) -> Any:
    """WGSL ``/`` on i32 or u32 lanes: truncating; ``e / 0`` is ``e``; i32 min ``/ -1`` is min
    (:func:`asyncshader.wgsl.types._idiv`)."""
    a, b = np.asarray(a), np.asarray(b)
    zero = b == 0
    safe = np.where(zero, 1, b).astype(np.int64)
    a64 = a.astype(np.int64)
    q = np.abs(a64) // np.abs(safe)
    q = np.where((a64 < 0) == (safe < 0), q, -q)
    return np.where(zero, a64, q).astype(a.dtype)  # (min / -1: 2**31 wraps to min)


def mod_int(a: Any, b: Any) -> Any:
    """WGSL ``%`` on i32 or u32 lanes: the sign of the dividend; ``e % 0`` is 0."""
    a, b = np.asarray(a), np.asarray(b)
    zero = b == 0
    safe = np.where(zero, 1, b).astype(np.int64)
    a64 = a.astype(np.int64)
    r = np.abs(a64) % np.abs(safe)
    r = np.where(a64 < 0, -r, r)
    return np.where(zero, 0, r).astype(a.dtype)


def shl(a: Any, b: Any) -> Any:
    """WGSL ``<<``: the count modulo 32, the bits shifted out dropped."""
    a = np.asarray(a)
    r = np.left_shift(a.astype(np.uint32), np.asarray(b, np.uint32) & np.uint32(31))
    return r.astype(a.dtype) if a.dtype != np.uint32 else r


def shr(a: Any, b: Any) -> Any:
    """WGSL ``>>``: the count modulo 32; arithmetic for i32, logical for u32."""
    a = np.asarray(a)
    return np.right_shift(a, (np.asarray(b, np.uint32) & np.uint32(31)).astype(a.dtype))


def to_i32(x: Any) -> Any:
    """WGSL ``i32(x)`` over lanes (:func:`asyncshader.wgsl.types._to_i32`)."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        high = _I32_MAX_FROM[x.dtype.type]
        clipped = np.clip(np.trunc(x.astype(np.float64)), -2147483648.0, high)
        return np.where(np.isnan(x), 0, clipped).astype(np.int32)
    return x.astype(np.int32)


def to_u32(x: Any) -> Any:
    """WGSL ``u32(x)`` over lanes (:func:`asyncshader.wgsl.types._to_u32`)."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        high = _U32_MAX_FROM[x.dtype.type]
        clipped = np.clip(np.trunc(x.astype(np.float64)), 0.0, high)
        return np.where(np.isnan(x), 0, clipped).astype(np.uint32)
    return x.astype(np.uint32)


def to_f32(x: Any) -> Any:
    """WGSL ``f32(x)`` over lanes: integers rounded to the nearest f32, bools 0 or 1."""
    return np.asarray(x).astype(np.float32)


def to_f16(x: Any) -> Any:
    """WGSL ``f16(x)`` over lanes (:func:`asyncshader.wgsl.types._to_f16`): one rounding to
    the nearest binary16 from the exact value (through float64, which holds every i32, u32
    and f32 exactly), ±inf past the f16 range, as numpy rounds a double."""
    return np.asarray(x).astype(np.float64).astype(np.float16)


def to_bool(x: Any) -> Any:
    return np.asarray(x) != 0


# --- memory ---------------------------------------------------------------------------------

class Words:
    """A buffer's memory as 32-bit words, seen as u32, i32 and f32 (one memory, three
    views: a store through one is seen by loads through the others, as WGSL's bytes are),
    and as f16 half-words (``h``: 2-byte addresses, :mod:`.halves`); ``halves``: the
    half-words of the binding (``size`` bytes, before the padding to a word)."""

    __slots__ = ("f", "h", "halves", "i", "u", "words")

    def __init__(self, data: np.ndarray, size: int | None = None) -> None:
        self.u = data.view(np.uint32)
        self.i = data.view(np.int32)
        self.f = data.view(np.float32)
        self.h = self.u.view(np.float16)
        self.halves = (data.nbytes if size is None else size) // 2
        self.words = self.u.size


def index64(i: Any) -> Any:
    """An index value as int64 (a u32 index times a stride cannot wrap into bounds)."""
    return np.asarray(i).astype(np.int64)


def within(ok: Any, i: Any, n: Any) -> Any:
    """``ok`` narrowed to the lanes whose index ``i`` is in ``[0, n)`` (True: every lane)."""
    inside = (i >= 0) & (i < n)
    if np.ndim(inside) == 0:
        inside = bool(inside)
        return ok if inside else np.False_
    return inside if ok is True else ok & inside


def load(view: np.ndarray, at: Any, ok: Any) -> Any:
    """Words ``view[at]`` (robust: zero where ``ok`` is false, as
    :func:`asyncshader.wgsl.robust.load`)."""
    if ok is True:
        return view[at]
    safe = np.where(ok, at, 0)
    return np.where(ok, view[safe], view.dtype.type(0))


def store(view: np.ndarray, at: Any, ok: Any, m: Any, value: Any, L: int) -> None:
    """``view[at] = value`` in the active lanes whose access is in bounds (a store out of
    bounds is dropped, as :func:`asyncshader.wgsl.robust.store`). Lanes storing to one
    address store in lane order: the highest lane's value stays."""
    if m is False:
        return
    lanes = None if m is None else m
    if ok is not True:
        lanes = np.broadcast_to(ok, (L,)) if lanes is None else lanes & ok
    at = np.broadcast_to(at, (L,))
    value = np.broadcast_to(np.asarray(value, view.dtype), (L,))
    if lanes is not None:
        at, value = at[lanes], value[lanes]
    scatter(view, at, value)


def scatter(view: np.ndarray, at: np.ndarray, value: np.ndarray) -> None:
    """``view[at] = value`` where ``at`` and ``value`` are in lane order: where lanes share an
    address the highest lane's value stays (:func:`last_lanes`)."""
    keep = last_lanes(at)
    if keep is not None:
        at, value = at[keep], value[keep]
    view[at] = value


def last_lanes(at: np.ndarray) -> np.ndarray | None:
    """The positions in ``at`` (addresses in lane order) of the last lane at each address, or
    None when no address repeats. numpy leaves the order of a fancy assignment with repeated
    indices unspecified, so a scatter keeps only these. Addresses that strictly increase
    (one word per lane in lane order) are checked in one pass, addresses within a short span
    by counting them; only the rest are sorted."""
    n = at.size
    if n < 2 or (at[1:] > at[:-1]).all():
        return None
    if at.strides[0] == 0:  # (one address for every lane: a uniform store)
        return np.array([n - 1])
    if not _repeats(at, n):
        return None
    return n - 1 - np.unique(at[::-1], return_index=True)[1]


def _repeats(at: np.ndarray, n: int) -> bool:
    """Whether an address occurs twice in ``at``."""
    low, high = int(at.min()), int(at.max())
    if high - low < 8 * n:  # (a count per address costs less than a sort)
        return bool(np.bincount(at - low).max() > 1)
    return np.unique(at).size < n


def vector_at(at: Any, n: int) -> Any:
    """The word addresses of a vector's ``n`` components from its first word's ``at``
    (shape ``(n, lanes)``)."""
    at = np.asarray(at).reshape(-1)
    return at[None, :] + np.arange(n)[:, None]


def store_vector(view: np.ndarray, at: Any, ok: Any, m: Any, value: Any, n: int,
                 L: int) -> None:
    """A ``vecN`` store: its components' words, each as :func:`store`."""
    value = np.asarray(value)
    for k in range(n):
        store(view, np.asarray(at) + k, ok, m, value[k], L)


def swizzle(v: Any, picks: list[int]) -> Any:
    """``v.xzy`` ...: the picked components as a vector."""
    return np.asarray(v)[picks]


# --- local arrays: the element on the first axis ----------------------------------------------

def array_of(zero: Any, n: int) -> np.ndarray:
    """``n`` copies of the element value ``zero``."""
    z = np.asarray(zero)
    return np.stack([z.reshape(1) if z.ndim == 0 else z] * n)


def array_from(items: list, L: int) -> np.ndarray:
    """An array value from its elements' values over lanes."""
    items = [np.asarray(x) for x in items]
    items = [x.reshape(1) if x.ndim == 0 else x for x in items]
    shape = np.broadcast_shapes(*[x.shape for x in items])
    return np.stack([np.broadcast_to(x, shape) for x in items])


def array_get(a: np.ndarray, i: Any, L: int) -> Any:
    """``a[i]`` over lanes: zero where ``i`` is out of bounds (WGSL's robust access, as
    :func:`asyncshader.wgsl.robust.load`)."""
    n = a.shape[0]
    i = np.asarray(i).astype(np.int64)
    if i.size == 1:
        k = int(i.reshape(-1)[0])
        return a[k] if 0 <= k < n else np.zeros_like(a[0])
    full = np.broadcast_to(a, (*a.shape[:-1], L))
    idx = np.clip(i, 0, n - 1).reshape((1,) + (1,) * (a.ndim - 2) + (L,))
    got = np.take_along_axis(full, idx, axis=0)[0]
    return np.where((i >= 0) & (i < n), got, np.zeros((), a.dtype))


def array_set(a: np.ndarray, i: Any, value: Any, L: int) -> np.ndarray:
    """``a`` with element ``i`` set to ``value`` (a store out of bounds is dropped)."""
    n = a.shape[0]
    value = np.asarray(value, a.dtype)
    i = np.asarray(i).astype(np.int64)
    if i.size == 1:
        shape = np.broadcast_shapes(a.shape[1:], value.shape or (1,))
        out = np.array(np.broadcast_to(a, (n, *shape)))
        k = int(i.reshape(-1)[0])
        if 0 <= k < n:
            out[k] = value
        return out
    shape = np.broadcast_shapes((*a.shape[1:-1], L), value.shape)
    hit = np.arange(n).reshape((n,) + (1,) * (len(shape) - 1) + (1,)) == i.reshape(
        (1,) + (1,) * (len(shape) - 1) + (L,))
    return np.where(hit, value[None], np.broadcast_to(a, (n, *shape)))


# --- collective points ----------------------------------------------------------------------

def barrier(m: Any, L: int, size: int, where: str, chunk: tuple = (0, (1, 1, 1))) -> None:
    """A workgroup barrier over lanes: every lane of a workgroup must reach it together
    (WGSL: in workgroup-uniform control flow), which a mask that splits a workgroup breaks.
    ``chunk``: the index of the chunk's first workgroup in the dispatch and the dispatch's
    workgroup counts (the error names the workgroup by its ``workgroup_id``)."""
    if m is None or m is False:
        return
    rows = m.reshape(-1, size)
    split = np.flatnonzero(rows.any(axis=1) & ~rows.all(axis=1))
    if split.size:
        w = int(split[0])
        waiting = np.flatnonzero(rows[w])
        absent = np.flatnonzero(~rows[w])
        first, (gx, gy, _) = chunk
        index = first + w
        wid = (index % gx, index // gx % gy, index // (gx * gy))
        raise BarrierDivergenceError(
            f"{where}: a workgroup barrier reached by part of workgroup_id=("
            f"{','.join(map(str, wid))}) only (local "
            f"invocation indices {_few(waiting)} reach it, {_few(absent)} do not): WGSL "
            "requires every invocation of a workgroup to reach it together. Move the "
            "barrier out of the branch, or make the condition the same for the whole "
            "workgroup")


def _few(lanes: np.ndarray) -> str:
    shown = ", ".join(map(str, lanes[:6]))
    return shown + (f" ... ({lanes.size} in all)" if lanes.size > 6 else "")


def uniform_load(m: Any, L: int, size: int, where: str, value: Any,
                 chunk: tuple = (0, (1, 1, 1))) -> Any:
    """``workgroupUniformLoad``: a barrier, then the value (one per workgroup: after the
    barrier every lane of a workgroup reads the same memory)."""
    barrier(m, L, size, where, chunk)
    return value


def endless(m: Any, where: str, limit: int) -> None:
    """A loop past ``limit`` iterations: an error naming it and the lanes still in it, never
    a hang (a lane spinning on what another lane of its chunk would do next waits forever in
    lockstep, as it can on SIMT hardware)."""
    lanes = "every lane" if m is None else f"lanes {_few(np.flatnonzero(m))}"
    raise StepLimitError(
        f"{where}: a loop ran {limit} iterations in lockstep and {lanes} are still in it. "
        "If it waits for another invocation (a spin lock, a flag set by an atomic), run it "
        "under a coroutine schedule (InOrder, Random ...): in lockstep the lane it waits for "
        "may never get to run; otherwise raise Lockstep(max_iterations=...)")


def short_both(a: Any, m: Any, right: Any) -> Any:
    """``a && right(mask)``: the right side runs only in the lanes where ``a`` holds."""
    inner = both(m, cond(a))
    if not live(inner):
        return a
    return a & right(inner)


def short_either(a: Any, m: Any, right: Any) -> Any:
    """``a || right(mask)``: the right side runs only in the lanes where ``a`` does not
    hold."""
    inner = minus(m, cond(a))
    if not live(inner):
        return a
    return a | right(inner)


def component(v: Any, i: Any, L: int) -> Any:
    """``v[i]`` of a vector over lanes with a per-lane index (WGSL: an index out of range
    gives some component; this one clamps it)."""
    v = np.asarray(v)
    i = np.clip(np.asarray(i).astype(np.int64), 0, v.shape[0] - 1)
    if np.ndim(i) == 0:
        return v[int(i)]
    full = lane_array(v, L)
    return full[np.broadcast_to(i, (L,)), np.arange(L)]


def with_component(m: Any, v: Any, i: Any, value: Any, L: int) -> Any:
    """``v`` with component ``i`` set to ``value`` in the lanes of ``m``."""
    v = np.array(lane_array(v, L))
    i = np.asarray(i)
    if np.ndim(i) == 0 or i.size == 1:
        k = int(np.reshape(i, -1)[0])
        if 0 <= k < v.shape[0]:
            v[k] = put(m, value, v[k])
        return v
    for k in range(v.shape[0]):
        v[k] = put(both(m, cond(i == k)), value, v[k])
    return v


def vector(dtype: Any, parts: list, n: int) -> np.ndarray:
    """A ``vecN`` from scalars and vectors over lanes (WGSL's constructor arguments, in
    order)."""
    comps = []
    for p in parts:
        p = np.asarray(p, dtype)
        comps += list(p) if p.ndim == 2 else [p]
    if len(comps) == 1:
        comps = comps * n
    shapes = [c.shape for c in comps]
    shape = np.broadcast_shapes(*shapes) if shapes else ()
    width = shape[-1] if shape else 1
    return np.stack([np.broadcast_to(c.reshape(-1) if c.ndim else c, (width,)) for c in comps])
