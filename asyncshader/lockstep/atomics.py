"""WGSL's atomic built-ins over lanes, serialised in lane order: the active lanes' atomics on
one address happen one after the other, lowest lane (global invocation index order) first, so
each lane's returned old value is the exclusive prefix of the operation over the lanes before
it at that address, and memory ends with the fold over all of them. This is one of the orders
WGSL allows (atomics on one address are totally ordered, in any order); the coroutine
schedules can explore the others.

``atomicAdd`` and ``atomicSub`` are vectorised (a stable sort by address and a running sum per
address, wrapping as u32/i32 do); the others run lane by lane in Python, through the same
per-value rules (:mod:`asyncshader.wgsl.atomics` defines them for one invocation)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .lanes import lane_array

_FOLD = {
    "max": lambda old, v: v if old < v else old,
    "min": lambda old, v: v if v < old else old,
    "and": lambda old, v: old & v,
    "or": lambda old, v: old | v,
    "xor": lambda old, v: old ^ v,
    "exchange": lambda old, v: v,
}


def _active(m: Any, ok: Any, L: int) -> np.ndarray:
    lanes = np.ones(L, bool) if m is None else np.array(lane_array(m, L))
    if ok is not True:
        lanes &= np.broadcast_to(ok, (L,))
    return np.flatnonzero(lanes)


def rmw(op: str, view: np.ndarray, at: Any, ok: Any, m: Any, value: Any, L: int) -> Any:
    """``atomicOp(&view[at], value)`` in the active lanes (``op``: add, sub, max, min, and,
    or, xor, exchange); each lane's old value (zero where inactive or out of bounds: an
    atomic out of bounds does nothing)."""
    old = np.zeros(L, view.dtype)
    if m is False:
        return old
    lanes = _active(m, ok, L)
    at = np.broadcast_to(np.asarray(at), (L,))[lanes]
    v = np.broadcast_to(np.asarray(value, view.dtype), (L,))[lanes]
    if op in ("add", "sub"):
        order = np.argsort(at, kind="stable")
        a, vv = at[order], v[order]
        if op == "sub":
            vv = (np.uint32(0) - vv.astype(np.uint32)).astype(view.dtype)
        starts = np.r_[True, a[1:] != a[:-1]]
        running = np.cumsum(vv, dtype=view.dtype)  # (wraps as WGSL's integers do)
        first = np.flatnonzero(starts)
        seg = np.cumsum(starts) - 1
        before = (running - vv) - (running[first] - vv[first])[seg]  # (exclusive, per address)
        mem = view[a]
        prior = (mem + before).astype(view.dtype)
        out = np.empty_like(prior)
        out[order] = prior
        old[lanes] = out
        last = np.r_[first[1:], a.size] - 1
        view[a[last]] = (prior[last] + vv[last]).astype(view.dtype)
        return old
    fold = _FOLD[op]
    for k, lane in enumerate(lanes):
        address = at[k]
        previous = view[address]
        old[lane] = previous
        view[address] = fold(previous, v[k])
    return old


def compare_exchange(view: np.ndarray, at: Any, ok: Any, m: Any, cmp: Any, value: Any,
                     L: int) -> dict:
    """``atomicCompareExchangeWeak(&view[at], cmp, value)`` lane by lane in lane order (never
    failing spuriously): the result struct as ``{"old_value", "exchanged"}``."""
    old = np.zeros(L, view.dtype)
    done = np.zeros(L, bool)
    if m is not False:
        cmp = np.broadcast_to(np.asarray(cmp, view.dtype), (L,))
        value = np.broadcast_to(np.asarray(value, view.dtype), (L,))
        at = np.broadcast_to(np.asarray(at), (L,))
        for lane in _active(m, ok, L):
            previous = view[at[lane]]
            old[lane] = previous
            if previous == cmp[lane]:
                view[at[lane]] = value[lane]
                done[lane] = True
    return {"old_value": old, "exchanged": done}
