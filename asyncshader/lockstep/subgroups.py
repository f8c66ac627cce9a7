"""WGSL's subgroup and quad built-ins over lanes: a workgroup's local invocation indices cut into
subgroups of ``size`` (the last may be partial), each operation over the active lanes of each
subgroup. In lockstep the lanes active at a call are exactly those that reached it together,
so a subgroup operation sees WGSL's maximal reconvergence. The values are those of
:mod:`asyncshader.collectives.subgroups` with ``subgroup_reduction="lanes"``: a float reduction
folds the active lanes in ascending subgroup invocation id, each step rounded to f32; integer
ones wrap; a scan runs in that order from the identity. A quad is four consecutive local
invocation indices (the compute layout without a derivative layout). A shuffle that reads an
inactive or absent lane is an error here (the coroutine schedules report an
``IndeterminateValue``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DivergenceError
from .lanes import lane_array

_OPS = {"add": np.add, "mul": np.multiply, "min": None, "max": None, "and": np.bitwise_and,
        "or": np.bitwise_or, "xor": np.bitwise_xor}


class Layout:
    """Where each lane of a chunk sits: ``index`` (workgroups, subgroups, size) holds the lane
    at each subgroup position (-1 past a partial subgroup's end); ``of_lane`` each lane's
    (workgroup, subgroup, position)."""

    def __init__(self, L: int, n: int, size: int) -> None:
        self.L, self.n, self.size = L, n, size
        groups = -(-n // size)
        local = np.arange(groups * size).reshape(groups, size)
        per_wg = np.where(local < n, local, -1)
        wgs = L // n
        self.index = np.where(per_wg[None] >= 0, per_wg[None] + (np.arange(wgs) * n)[:, None,
                                                                                      None], -1)
        lane = np.arange(L)
        self.w, self.s, self.p = lane // n, (lane % n) // size, (lane % n) % size

    def active(self, m: Any) -> np.ndarray:
        present = self.index >= 0
        if m is None:
            return present
        mask = lane_array(m, self.L)
        return present & mask[np.clip(self.index, 0, None)]

    def gather(self, v: Any) -> np.ndarray:
        full = lane_array(np.asarray(v), self.L)
        return full[..., np.clip(self.index, 0, None)]

    def back(self, per_group: np.ndarray) -> np.ndarray:
        """A value per subgroup, given to each of its lanes."""
        return per_group[..., self.w, self.s]

    def at_lanes(self, per_position: np.ndarray) -> np.ndarray:
        """A value per subgroup position, given to the lane there."""
        return per_position[..., self.w, self.s, self.p]


_LAYOUTS: dict[tuple[int, int, int], Layout] = {}


def layout(L: int, n: int, size: int) -> Layout:
    key = (L, n, size)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = Layout(L, n, size)
    return _LAYOUTS[key]


def _step(op: str, acc: np.ndarray, v: np.ndarray) -> np.ndarray:
    if op == "min":
        return np.where(v < acc, v, acc)
    if op == "max":
        return np.where(acc < v, v, acc)
    return _OPS[op](acc, v)


def reduce(op: str, v: Any, m: Any, L: int, n: int, size: int) -> np.ndarray:
    """``subgroupAdd`` ... ``subgroupXor``: the fold of the active lanes' values, in lane
    order, to every lane of the subgroup."""
    lay = layout(L, n, size)
    values, active = lay.gather(v), lay.active(m)
    acc = values[..., 0]
    started = active[..., 0]
    for j in range(1, size):
        here = active[..., j]
        acc = np.where(here & started, _step(op, acc, values[..., j]),
                       np.where(here, values[..., j], acc))
        started = started | here
    return lay.back(acc)


def scan(op: str, v: Any, m: Any, L: int, n: int, size: int, inclusive: bool) -> np.ndarray:
    """``subgroupInclusiveAdd`` ... ``subgroupExclusiveMul``: the running fold from the
    identity over the active lanes before (and, inclusive, at) each lane."""
    lay = layout(L, n, size)
    values, active = lay.gather(v), lay.active(m)
    acc = np.full_like(values[..., 0], 0 if op == "add" else 1)
    out = np.empty_like(values)
    for j in range(size):
        here = active[..., j]
        after = np.where(here, _step(op, acc, values[..., j]), acc)
        out[..., j] = after if inclusive else acc
        acc = after
    return lay.at_lanes(out)


def all_any(which: str, v: Any, m: Any, L: int, n: int, size: int) -> np.ndarray:
    """``subgroupAll`` / ``subgroupAny`` over the active lanes."""
    lay = layout(L, n, size)
    values, active = lay.gather(v), lay.active(m)
    if which == "all":
        return lay.back(np.all(values | ~active, axis=-1))
    return lay.back(np.any(values & active, axis=-1))


def ballot(v: Any, m: Any, L: int, n: int, size: int) -> np.ndarray:
    """``subgroupBallot``: bit ``i`` of the vec4u for each active lane ``i`` whose value
    holds."""
    lay = layout(L, n, size)
    bits = (lay.gather(v) & lay.active(m)).astype(np.uint64)
    words = np.zeros((4, *bits.shape[:-1]), np.uint64)
    for j in range(size):
        words[j >> 5] |= bits[..., j] << np.uint64(j & 31)
    return lay.back(words.astype(np.uint32))


def elect(m: Any, L: int, n: int, size: int) -> np.ndarray:
    """``subgroupElect``: true in the active lane of lowest id of each subgroup."""
    lay = layout(L, n, size)
    active = lay.active(m)
    first = np.argmax(active, axis=-1)
    return lay.p == lay.back(first)


def broadcast_first(v: Any, m: Any, L: int, n: int, size: int) -> np.ndarray:
    """``subgroupBroadcastFirst``: the value of the active lane of lowest id."""
    lay = layout(L, n, size)
    values = lay.gather(v)
    first = np.argmax(lay.active(m), axis=-1)
    wi, si = np.indices(first.shape)
    return lay.back(values[..., wi, si, first])


def shuffle(kind: str, v: Any, arg: Any, m: Any, L: int, n: int, size: int,
            where: str) -> np.ndarray:
    """``subgroupBroadcast``, ``subgroupShuffle`` (``arg``: the source id) and
    ``subgroupShuffleUp/Down/Xor`` (``arg``: the delta or mask): each active lane gets the
    value of its source lane, which must be active in its subgroup."""
    lay = layout(L, n, size)
    arg = lane_array(np.asarray(arg).astype(np.int64), L)
    source = {"id": arg, "up": lay.p - arg, "down": lay.p + arg, "xor": lay.p ^ arg}[kind]
    active = lay.active(m)
    inside = (source >= 0) & (source < size)
    src = np.clip(source, 0, size - 1)
    ok = inside & active[lay.w, lay.s, src]
    mine = np.ones(L, bool) if m is None else lane_array(m, L)
    bad = np.flatnonzero(mine & ~ok)
    if bad.size:
        lane = int(bad[0])
        raise DivergenceError(
            f"{where}: subgroup invocation {int(lay.p[lane])} of subgroup {int(lay.s[lane])} "
            f"of workgroup {int(lay.w[lane])} reads subgroup invocation {int(source[lane])}, "
            "which is not active at this call or does not exist: the value is indeterminate "
            "in WGSL (Lockstep refuses it; the coroutine schedules report it)")
    values = lay.gather(v)
    return values[..., lay.w, lay.s, src]


def quad(kind: str, v: Any, arg: Any, m: Any, L: int, n: int, where: str) -> np.ndarray:
    """``quadBroadcast`` (``arg``: the quad lane) and ``quadSwapX/Y/Diagonal``: each active
    lane gets the value of a lane of its quad, which must be active."""
    if n % 4:
        raise DivergenceError(f"{where}: a quad operation in a workgroup of {n} invocations: "
                              "in compute a quad is 4 consecutive local invocation indices, so "
                              "the workgroup must hold a multiple of 4")
    lane = np.arange(L)
    own = lane % 4
    pick = {"x": own ^ 1, "y": own ^ 2, "diagonal": own ^ 3,
            "broadcast": np.broadcast_to(np.asarray(arg).astype(np.int64), (L,))}[kind]
    source = lane - own + pick
    mine = np.ones(L, bool) if m is None else lane_array(m, L)
    bad = np.flatnonzero(mine & ~mine[np.clip(source, 0, L - 1)])
    if bad.size:
        first = int(bad[0])
        raise DivergenceError(
            f"{where}: local invocation {first % n} reads quad lane {int(pick[first])} of its "
            "quad, which is not active at this call: the value is indeterminate in WGSL "
            "(Lockstep refuses it; the coroutine schedules report it)")
    return lane_array(np.asarray(v), L)[..., source]
