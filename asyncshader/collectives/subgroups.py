"""Subgroups: the WGSL subgroup built-ins, as small resolvers over the *active* invocations.

A subgroup is one more scope (``"subgroup"``) of the core's one rendezvous mechanism, with one
difference from workgroups and quads: it is an *active-set* group (:attr:`Group.partial
<asyncshader._core.invocations.Group.partial>`). A subgroup operation does not wait for every
member; it is looked at once every live member of the subgroup is blocked (at this operation,
at another one, or at a barrier), and the members standing at the same dynamic instance form
the operation's *active set*, which resolves once no other waiting member may still reach it
(maximal reconvergence: :mod:`asyncshader.wgsl.reconvergence`). Members that returned, or
stand elsewhere, are inactive: that is WGSL's non-uniform control flow, reported as a
:class:`~asyncshader.NonUniformCollective` finding (an error under ``strict=True``).
docs/concepts.md ("The convergence model") says why this rule and how it compares with GPUs.

Layout (compute): subgroup ``k`` of a workgroup holds local invocation indices ``[k*S,
min((k+1)*S, N))`` and ``subgroup_invocation_id = local_invocation_index - k*S`` (the layout the
WebGPU CTS vectors assume). Fragment: a subgroup is ``S/4`` whole quads, in quad order.

Values: integer results wrap modulo 2^32 (u32/i32); float reductions fold in the order the
dispatch's ``subgroup_reduction=`` says (``"lanes"``: ascending subgroup invocation id, the
default; ``"reverse"``; ``"tree"``: pairwise, like a GPU's butterfly; ``"shuffled"``: an order
drawn per operation from the schedule's seed). Scans always fold in lane order.
"""

from __future__ import annotations

import functools
import operator
import random
import types
from collections.abc import Awaitable, Callable, Generator
from typing import Any

import numpy as np

from .._core.context import current_run
from .._core.invocations import Group
from .._core.traps import Rendezvous, rendezvous_kind, suspend, trap_function
from ..errors import DivergenceError, SubgroupUniformityError
from ..sanitizers.findings import IndeterminateValue, NonUniformCollective
from ..schedules.strategies import REDUCTION_SEED, reduction_seed
from ..wgsl.builtins import max as wgsl_max
from ..wgsl.builtins import min as wgsl_min
from ..wgsl.types import Vec, i32, vec4u
from .quads import copy_value

SUBGROUP = "subgroup"  # the scope of subgroup operations
#: subgroup sizes WGSL allows (a power of two from 4 to 128)
SUBGROUP_SIZES = (4, 8, 16, 32, 64, 128)
#: the default subgroup size: 32, the size of NVIDIA warps, Apple SIMD groups, AMD RDNA wave32
#: and Intel's widest; docs/subgroups.md says why (code that assumes it is the common bug)
DEFAULT_SUBGROUP_SIZE = 32
REDUCTION_ORDERS = ("lanes", "reverse", "tree", "shuffled")

_HINT = ("WGSL requires subgroup operations in subgroup-uniform control flow (the "
         "subgroup_uniformity diagnostic): every invocation of the subgroup must reach the call. "
         "Fix: move the call out of the branch (compute the value under the condition, e.g. "
         "select(identity, v, cond), and call the operation unconditionally)")


class SubgroupRendezvous(Rendezvous):
    """A rendezvous of the subgroup's active invocations (an active-set group)."""

    __slots__ = ()
    divergence_error = SubgroupUniformityError
    divergence_hint = _HINT
    no_group_hint = ("Subgroup operations need the dispatch to make subgroups: it does when the "
                     "kernel refers to a subgroup operation by name.")


class _UniformArg(SubgroupRendezvous):
    """An operation whose second argument must be the same in every active member."""

    __slots__ = ()
    describe_value = staticmethod(lambda v: f"{v[1]!r}")


# ------------------------------------------------------------------------------ the resolvers
def _active(values: list, group: Any) -> list[int]:
    """The active lanes (the scheduler names them; a resolver called outside an active-set
    resolution sees every lane that brought a value)."""
    active = group.active
    if active is None:
        active = [lane for lane, v in enumerate(values) if v is not None]
    if len(active) != group.size:
        _check_uniform(group, active)
    return active


def _member(group: Any, lane: int) -> Any:
    """The member of ``group`` at subgroup lane ``lane`` (``members[lane]`` unless lanes of
    the group are absent)."""
    members = group.members
    if lane < len(members) and members[lane].lanes[group.scope] == lane:
        return members[lane]
    return next(m for m in members if m.lanes[group.scope] == lane)


def _check_uniform(group: Any, active: list[int]) -> None:
    absent = getattr(group, "absent", ())
    if len(active) + len(absent) == group.size:
        return
    inactive = [lane for lane in range(group.size)
                if lane not in set(active) and lane not in absent]
    m = _member(group, active[0])
    name, line, text = m.position()
    op = m.req.op
    run = current_run()
    message = (f"{op}() at {name}:{line} ran in non-uniform control flow in {group.label}: "
               f"subgroup invocations {_lanes(inactive)} were inactive (returned or elsewhere), "
               f"{_lanes(active)} active. ")
    if getattr(run, "strict", False):
        err = SubgroupUniformityError(message + _HINT + " (strict=True makes this an error)",
                                      [((name, line, text), [str(_member(group, k))
                                                             for k in active])])
        err.asyncshader_complete = True  # type: ignore[attr-defined]
        raise err
    if run is not None and hasattr(run, "collective_finding"):
        run.collective_finding((NonUniformCollective, op, name, line), lambda: NonUniformCollective(
            op=op, file=name, line=line, source=text, group=group.label, active=list(active),
            inactive=inactive), str(inactive))


def _lanes(lanes: list[int]) -> str:
    """``0-3, 8, 10-15``."""
    parts, start = [], None
    for k, lane in enumerate(lanes):
        if start is None:
            start = lane
        if k + 1 == len(lanes) or lanes[k + 1] != lane + 1:
            parts.append(str(start) if start == lane else f"{start}-{lane}")
            start = None
    return "[" + ", ".join(parts) + "]"


def _indeterminate(group: Any, lane: int, source: Any, why: str) -> None:
    """Member ``lane`` read lane ``source``, which is inactive or out of range: WGSL makes the
    value indeterminate. A finding (an error under strict); the member gets zero."""
    m = _member(group, lane)
    name, line, text = m.position()
    op = m.req.op
    message = (f"{op}() at {name}:{line} in {group.label}: subgroup invocation {lane} read "
               f"invocation {source}, which {why}; WGSL makes the result indeterminate (a GPU "
               "returns whatever that lane's register holds)")
    run = current_run()
    if getattr(run, "strict", False):
        err = SubgroupUniformityError(message + " (strict=True makes this an error)",
                                      [((name, line, text), [str(m)])])
        err.asyncshader_complete = True  # type: ignore[attr-defined]
        raise err
    if run is not None and hasattr(run, "collective_finding"):
        run.collective_finding((IndeterminateValue, op, name, line), lambda: IndeterminateValue(
            op=op, file=name, line=line, source=text, group=group.label, reader=lane,
            read=int(source), why=why), f"{lane}<-{source}")


def _zero(v: Any) -> Any:
    if isinstance(v, Vec):
        return type(v)._make(*[type(v).scalar(0)] * type(v).size)
    return type(v)(0)


def _identity(v: Any, k: int) -> Any:
    if isinstance(v, Vec):
        return type(v)._make(*[type(v).scalar(k)] * type(v).size)
    return type(v)(k)


def _order(active: list[int]) -> list[int]:
    """The order a float reduction folds the active lanes in (the dispatch's choice)."""
    run = current_run()
    how = getattr(run, "subgroup_reduction", "lanes")
    if how == "lanes":
        return active
    if how == "reverse":
        return active[::-1]
    if how == "shuffled":
        order = list(active)
        run.subgroup_rng.shuffle(order)
        return order
    return active  # "tree": the fold itself pairs them (_tree)


def _is_float(v: Any) -> bool:
    return isinstance(v, (np.floating, float)) or (isinstance(v, Vec) and v.kind == "f")


def _fold(op: Callable[[Any, Any], Any]) -> Callable[[list, Any], list]:
    def resolve(values: list, group: Any) -> list:
        active = _active(values, group)
        first = values[active[0]]
        if not _is_float(first):  # integers: exact in any order (mod 2^32)
            if len(active) == len(values):
                acc = functools.reduce(op, values)
            else:
                acc = functools.reduce(op, [values[k] for k in active])
        elif getattr(current_run(), "subgroup_reduction", "lanes") == "tree":
            acc = _tree([values[k] for k in active], op)
        else:
            order = _order(active)
            acc = values[order[0]]
            for k in order[1:]:
                acc = op(acc, values[k])
        if not isinstance(acc, Vec) and len(active) == len(values):
            return [acc] * len(values)  # (scalars are immutable: one object for all)
        return [copy_value(acc) if v is not None else None for v in values]
    return resolve


def _tree(items: list, op: Callable[[Any, Any], Any]) -> Any:
    """Pairwise: (a0 op a1) op (a2 op a3) ..., as a GPU's butterfly reduction associates."""
    while len(items) > 1:
        items = [op(items[k], items[k + 1]) if k + 1 < len(items) else items[k]
                 for k in range(0, len(items), 2)]
    return items[0]


def _scan(op: Callable[[Any, Any], Any], unit: int, inclusive: bool
          ) -> Callable[[list, Any], list]:
    def resolve(values: list, group: Any) -> list:
        active = _active(values, group)
        out: list = [None] * len(values)
        acc = _identity(values[active[0]], unit)
        for k in active:
            if inclusive:
                acc = op(acc, values[k])
                out[k] = copy_value(acc)
            else:
                out[k] = copy_value(acc)
                acc = op(acc, values[k])
        return out
    return resolve


def _all(values: list, group: Any) -> list:
    active = _active(values, group)
    r = all(values[k] for k in active)
    return [r if v is not None else None for v in values]


def _any(values: list, group: Any) -> list:
    active = _active(values, group)
    r = any(values[k] for k in active)
    return [r if v is not None else None for v in values]


def _ballot(values: list, group: Any) -> list:
    active = _active(values, group)
    words = [0, 0, 0, 0]
    for k in active:
        if values[k]:
            words[k >> 5] |= 1 << (k & 31)
    return [vec4u(*words) if v is not None else None for v in values]


def _elect(values: list, group: Any) -> list:
    active = _active(values, group)
    return [(k == active[0]) if v is not None else None for k, v in enumerate(values)]


def _broadcast_first(values: list, group: Any) -> list:
    active = _active(values, group)
    first = values[active[0]]
    return [copy_value(first) if v is not None else None for v in values]


def _broadcast(values: list, group: Any) -> list:
    """Each member deposits ``(e, id)``: ``id`` must be one value in every active member."""
    active = _active(values, group)
    src = values[active[0]][1]
    if any(values[k][1] != src for k in active):
        raise DivergenceError("The invocations passed different ids; WGSL requires "
                              "subgroupBroadcast's id to be a const-expression (one id for the "
                              "whole subgroup)")
    return _gather(values, group, active, lambda lane: src)


def _gather(values: list, group: Any, active: list[int], source: Callable[[int], Any]
            ) -> list:
    """Every active member gets ``e`` of lane ``source(lane)``; an inactive or out-of-range
    source is reported (:func:`_indeterminate`) and gives zero."""
    present = set(active)
    out: list = [None] * len(values)
    for lane in active:
        src = source(lane)
        if 0 <= src < len(values) and src in present:
            out[lane] = copy_value(values[src][0])
            continue
        why = ("is not active at this call" if 0 <= src < len(values) and src not in
               getattr(group, "absent", ()) else
               "holds no invocation (its quad has no covered pixel)" if 0 <= src < len(values)
               else f"does not exist (this subgroup has {len(values)} invocations, ids 0 to "
               f"{len(values) - 1})")
        _indeterminate(group, lane, src, why)
        out[lane] = _zero(values[lane][0])
    return out


def _shuffle(values: list, group: Any) -> list:
    active = _active(values, group)
    return _gather(values, group, active, lambda lane: int(values[lane][1]))


def _relative(kind: str) -> Callable[[list, Any], list]:
    def resolve(values: list, group: Any) -> list:
        active = _active(values, group)
        delta = values[active[0]][1]
        if any(values[k][1] != delta for k in active):
            for k in active:
                if values[k][1] != delta:
                    _indeterminate(group, k, _move(kind, k, int(values[k][1])),
                                   f"was chosen by a {'mask' if kind == 'xor' else 'delta'} "
                                   "that is not subgroup-uniform")
                    break
        return _gather(values, group, active, lambda lane: _move(kind, lane,
                                                                 int(values[lane][1])))
    return resolve


def _move(kind: str, lane: int, d: int) -> int:
    return lane + d if kind == "down" else lane - d if kind == "up" else lane ^ d


# ---------------------------------------------------------------------------- the built-ins
def _numeric(op: str, e: Any) -> Any:
    """``e`` as the subgroup sees it: numpy scalars and vectors as they are; a Python float is
    an f32 and a Python int an i32 (what WGSL's abstract literals become)."""
    if isinstance(e, (Vec, np.number)):
        return e
    if isinstance(e, (bool, np.bool_)) or isinstance(e, (str, bytes)) or e is None:
        raise TypeError(f"{op}() takes a numeric scalar or vector (i32, u32, f32 or a vector of "
                        f"them), not {type(e).__name__}")
    if isinstance(e, float):
        return np.float32(e)
    if isinstance(e, int):
        if not -2**31 <= e < 2**31:
            raise TypeError(f"{op}(): the Python int {e} does not fit an i32; convert it, "
                            "e.g. u32(...)")
        return i32(e)
    raise TypeError(f"{op}() takes a numeric scalar or vector, not {type(e).__name__}")


def _integral(op: str, e: Any) -> Any:
    e = _numeric(op, e)
    if _is_float(e):
        raise TypeError(f"{op}() takes an integer scalar or vector (i32, u32), not "
                        f"{type(e).__name__}")
    return e


#: the value types a subgroup operation takes as they are (no conversion, no check)
_AS_IS = frozenset({np.uint32, np.int32, np.float32})


def _make(name: str, wgsl: str, resolve: Callable[[list, Any], list],
          convert: Callable[[str, Any], Any], doc: str) -> Callable[[Any], Awaitable[Any]]:
    kind = rendezvous_kind(name, SUBGROUP, resolve, SubgroupRendezvous)
    as_is = {_bool: frozenset({bool, np.bool_}), _integral: frozenset({np.uint32, np.int32})
             }.get(convert, _AS_IS)

    @types.coroutine
    def op(e: Any) -> Generator[Any, Any, Any]:  # the trap itself: no suspend() around it
        # the pair (kind, value) stands for the request kind(value), without making it: the
        # in-order loop's lean rounds (_core/active_sets.py) never do
        return (yield (kind, e if e.__class__ in as_is else convert(name, e)))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"WGSL ``{wgsl}(e)``: {doc}"
    return trap_function(op)


def _bool(op: str, e: Any) -> bool:
    if not isinstance(e, (bool, np.bool_)):
        raise TypeError(f"{op}() takes a bool (WGSL: {op}(e: bool)), not {type(e).__name__}; "
                        "compare first, e.g. x != 0")
    return bool(e)


_add, _mul = operator.add, operator.mul
subgroup_add = _make("subgroup_add", "subgroupAdd", _fold(_add), _numeric,
                     "the sum over the active invocations (integers wrap).")
subgroup_mul = _make("subgroup_mul", "subgroupMul", _fold(_mul), _numeric,
                     "the product over the active invocations (integers wrap).")
subgroup_min = _make("subgroup_min", "subgroupMin", _fold(wgsl_min), _numeric,
                     "the minimum over the active invocations.")
subgroup_max = _make("subgroup_max", "subgroupMax", _fold(wgsl_max), _numeric,
                     "the maximum over the active invocations.")
subgroup_and = _make("subgroup_and", "subgroupAnd", _fold(lambda a, b: a & b), _integral,
                     "the bitwise AND over the active invocations.")
subgroup_or = _make("subgroup_or", "subgroupOr", _fold(lambda a, b: a | b), _integral,
                    "the bitwise OR over the active invocations.")
subgroup_xor = _make("subgroup_xor", "subgroupXor", _fold(lambda a, b: a ^ b), _integral,
                     "the bitwise XOR over the active invocations.")
subgroup_exclusive_add = _make(
    "subgroup_exclusive_add", "subgroupExclusiveAdd", _scan(_add, 0, False), _numeric,
    "the sum over the active invocations with a lower subgroup_invocation_id (0 for the first).")
subgroup_inclusive_add = _make(
    "subgroup_inclusive_add", "subgroupInclusiveAdd", _scan(_add, 0, True), _numeric,
    "the sum over the active invocations with a subgroup_invocation_id up to this one's.")
subgroup_exclusive_mul = _make(
    "subgroup_exclusive_mul", "subgroupExclusiveMul", _scan(_mul, 1, False), _numeric,
    "the product over the active invocations with a lower id (1 for the first).")
subgroup_inclusive_mul = _make(
    "subgroup_inclusive_mul", "subgroupInclusiveMul", _scan(_mul, 1, True), _numeric,
    "the product over the active invocations with an id up to this one's.")
subgroup_all = _make("subgroup_all", "subgroupAll", _all, _bool,
                     "true if ``e`` is true in every active invocation.")
subgroup_any = _make("subgroup_any", "subgroupAny", _any, _bool,
                     "true if ``e`` is true in some active invocation.")
subgroup_ballot = _make("subgroup_ballot", "subgroupBallot", _ballot, _bool,
                        "a vec4u whose bit k (x: ids 0-31, y: 32-63, z: 64-95, w: 96-127) is "
                        "set if invocation k is active and ``e`` is true in it.")
subgroup_broadcast_first = _make(
    "subgroup_broadcast_first", "subgroupBroadcastFirst", _broadcast_first, _numeric,
    "``e`` of the active invocation with the lowest subgroup_invocation_id.")


@trap_function
def subgroup_elect() -> Awaitable[bool]:
    """WGSL ``subgroupElect()``: true in the active invocation with the lowest
    subgroup_invocation_id, false in the others."""
    return suspend(SubgroupRendezvous("subgroup_elect", SUBGROUP, True, _elect))


def _lane_arg(op: str, what: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}(e, {what}): {what} must be an integer (i32 or u32), got "
                        f"{type(value).__name__}")
    return int(value)


class _Broadcast(_UniformArg):
    __slots__ = ()
    uniform_fix = ("give subgroup_broadcast() a constant id, the same in every invocation; to "
                   "read a lane that depends on the invocation, use subgroup_shuffle")


@trap_function
def subgroup_broadcast(e: Any, id: int) -> Awaitable[Any]:
    """WGSL ``subgroupBroadcast(e, id)``: ``e`` of subgroup invocation ``id`` (a constant
    0-127, the same in every invocation: otherwise a :class:`~asyncshader.DivergenceError`), to
    every active invocation. An inactive ``id`` is indeterminate (an
    :class:`~asyncshader.IndeterminateValue` finding; the value is zero)."""
    i = _lane_arg("subgroup_broadcast", "id", id)
    if not 0 <= i < 128:
        raise ValueError(f"subgroup_broadcast(e, id): id must be a constant from 0 to 127 "
                         f"(WGSL: a const-expression in [0, 128)), got {id!r}")
    return suspend(_Broadcast("subgroup_broadcast", SUBGROUP,
                              (_numeric("subgroup_broadcast", e), i), _broadcast))


@trap_function
def subgroup_shuffle(e: Any, id: Any) -> Awaitable[Any]:
    """WGSL ``subgroupShuffle(e, id)``: ``e`` of subgroup invocation ``id`` (may differ per
    invocation). An inactive or out-of-range ``id`` is indeterminate (a finding; zero)."""
    return suspend(SubgroupRendezvous("subgroup_shuffle", SUBGROUP, (
        _numeric("subgroup_shuffle", e), _lane_arg("subgroup_shuffle", "id", id)), _shuffle))


def _relative_op(name: str, wgsl: str, kind: str, arg: str, doc: str) -> Callable:
    resolve = _relative(kind)

    def op(e: Any, d: Any) -> Awaitable[Any]:
        return suspend(_UniformArg(name, SUBGROUP, (_numeric(name, e), _lane_arg(name, arg, d)),
                                   resolve))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"WGSL ``{wgsl}(e, {arg})``: {doc} ``{arg}`` must be subgroup-uniform; a "
                  "source lane that is inactive or outside the subgroup is indeterminate (a "
                  "finding; zero).")
    return trap_function(op)


subgroup_shuffle_down = _relative_op("subgroup_shuffle_down", "subgroupShuffleDown", "down",
                                     "delta", "``e`` of invocation ``id + delta``.")
subgroup_shuffle_up = _relative_op("subgroup_shuffle_up", "subgroupShuffleUp", "up", "delta",
                                   "``e`` of invocation ``id - delta``.")
subgroup_shuffle_xor = _relative_op("subgroup_shuffle_xor", "subgroupShuffleXor", "xor", "mask",
                                    "``e`` of invocation ``id ^ mask``.")

SUBGROUP_OPERATIONS = (
    subgroup_add, subgroup_mul, subgroup_min, subgroup_max, subgroup_and, subgroup_or,
    subgroup_xor, subgroup_exclusive_add, subgroup_inclusive_add, subgroup_exclusive_mul,
    subgroup_inclusive_mul, subgroup_all, subgroup_any, subgroup_ballot, subgroup_elect,
    subgroup_broadcast, subgroup_broadcast_first, subgroup_shuffle, subgroup_shuffle_up,
    subgroup_shuffle_down, subgroup_shuffle_xor)
for _fn in SUBGROUP_OPERATIONS:
    _fn.__ash_needs_subgroups__ = True  # type: ignore[attr-defined]
    _fn.__module__ = __name__


# ---------------------------------------------------------------------- what dispatches use
def check_subgroup_size(value: Any) -> int:
    """The ``subgroup_size=`` option: a power of two from 4 to 128."""
    from .._core.validation import is_int, option_error
    if not is_int(value) or int(value) not in SUBGROUP_SIZES:
        raise option_error("subgroup_size", value, "a power of two from 4 to 128 (4, 8, 16, "
                           "32, 64 or 128; WGSL's range)",
                           accepts=lambda v: is_int(v) and int(v) in SUBGROUP_SIZES)
    return int(value)


def check_reduction(value: Any) -> str:
    """The ``subgroup_reduction=`` option: the order float reductions fold in."""
    from .._core.validation import check_choice
    return check_choice("subgroup_reduction", value, REDUCTION_ORDERS)


def reduction_rng(how: str, strategy: Any) -> random.Random | None:
    """The draws of ``subgroup_reduction="shuffled"``: seeded by the schedule's seed (0 for a
    schedule without one; a replay's recorded seed), so a run replays."""
    if how != "shuffled":
        return None
    return random.Random(reduction_seed(strategy))


def subgroup_options(run: Any, size: Any, reduction: Any, used: bool) -> None:
    """A dispatch's subgroup options, checked, as ``run.subgroup_size`` (``size``, else the
    kernel's ``run.subgroup_size`` if set, else 32), ``run.subgroup_reduction`` and
    ``run.subgroup_rng``; recorded in ``run.config`` (what a replay must match) when the
    shader ``used`` subgroups."""
    if size is not None:
        size = check_subgroup_size(size)
    elif getattr(run, "subgroup_size", None) is not None:
        size = run.subgroup_size
    run.subgroup_size = DEFAULT_SUBGROUP_SIZE if size is None else size
    run.subgroup_reduction = check_reduction(reduction)
    run.subgroup_rng = reduction_rng(run.subgroup_reduction, run.strategy)
    if used:
        run.config["subgroup_size"] = run.subgroup_size
        if run.subgroup_reduction != "lanes":
            run.config["subgroup_reduction"] = run.subgroup_reduction
        seed = reduction_seed(run.strategy) if run.subgroup_rng is not None else 0
        if seed:  # (the trace must say which orders the run folded in)
            run.config[REDUCTION_SEED] = seed


def subgroup_group(k: int, label: str, size: int, absent: Any = ()) -> Group:
    """Subgroup ``k`` (``label``): an active-set group of ``size`` lanes (the front-end adds
    the members, and lists the group in each member's ``partials``). ``absent``: lanes no
    invocation holds (a fragment subgroup's quads that do not run): inactive from the start,
    as if they had returned, and not counted as divergence."""
    group = Group(SUBGROUP, k, label, "subgroup_invocation_id")
    group.partial = True
    group.size = size
    if absent:
        group.absent = frozenset(absent)  # type: ignore[attr-defined]
        group.finished = len(group.absent)
    return group


def join_subgroup(group: Group, inv: Any) -> None:
    """Makes ``inv`` the next member of the active-set ``group``."""
    inv.partials = (group,)
    group.members.append(inv)
