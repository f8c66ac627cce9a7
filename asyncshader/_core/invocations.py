"""The scheduler's data model: an :class:`Invocation` (one shader invocation's coroutine and
its place in its groups) and a :class:`Group` (members that meet at rendezvous), plus how a
suspended member's call site is read (``_sites``) and how a round's requests are compared
(``_one_op``). The run loop that drives them is :mod:`asyncshader.scheduler`.
"""

from __future__ import annotations

from types import CoroutineType, GeneratorType
from typing import Any

from .sources import position_of


class Invocation:
    """One shader invocation: its coroutine and its place in the groups.

    A plain class (not slotted) so that the fields most invocations never change are class
    defaults: creating an invocation is on the hot path of every dispatch.
    """

    value: Any = None  # what the next resume sends (a resolver's result)
    pending: Any = None  # a scheduling point to apply at the next resume
    req: Any = None  # the rendezvous request it waits at
    site: Any = None  # the call site of that rendezvous
    done = False
    result: Any = None  # what the shader returned
    points = 0  # scheduling points passed
    helper = False  # fragment helper invocation: no side effects
    partials: tuple = ()  # the active-set groups it belongs to (:attr:`Group.partial`)

    def __init__(self, key: int, coro: Any, unit: Group, groups: dict[str, Group],
                 lanes: dict[str, int], info: Any) -> None:
        self.key = key
        self.coro = coro
        self.frame = coro.cr_frame
        self.unit = unit  # the top-level group: it owns the memory context
        self.groups = groups  # scope name -> group (the unit is one of them)
        self.lanes = lanes  # scope name -> this invocation's lane in that group
        self.info = info

    def __repr__(self) -> str:
        return self.info.describe(self)

    def position(self) -> tuple[str, int, str]:
        """(filename, line, source text) where this invocation stands now: the innermost frame
        of its await chain that is user code (not the standard library, not installed
        packages)."""
        return position_of(self)


def _site(coro: Any) -> Any:
    """Identity of the call site where ``coro`` is suspended: its frame's instruction, then the
    code and instruction of each frame it awaits through: helper ``async def`` coroutines and
    generator-based coroutines (``@types.coroutine`` helpers, ``__await__`` generators) that
    delegate further. The innermost generator, which yields the request itself (the trap), adds
    nothing: its call site is the instruction of the frame that called it."""
    key: list = [coro.cr_frame.f_lasti]
    aw = coro.cr_await
    while True:
        if aw.__class__ is CoroutineType:
            key.append(aw.cr_code)
            key.append(aw.cr_frame.f_lasti)
            aw = aw.cr_await
        elif aw.__class__ is GeneratorType and aw.gi_yieldfrom is not None:
            key.append(aw.gi_code)
            key.append(aw.gi_frame.f_lasti)
            aw = aw.gi_yieldfrom
        else:
            return tuple(key)


def _sites(members: list[Invocation]) -> list:
    """The call sites of suspended members (frames are stable while suspended): the frame's
    instruction offset, or the whole await chain when it goes through a helper coroutine (so a
    member in a helper never compares equal to one awaiting directly)."""
    return _coro_sites([m.coro for m in members])


def _coro_sites(coros: list) -> list:
    """:func:`_sites` of suspended coroutines (a lean unit's: :attr:`Group.coros`). A shader
    that awaits a trap directly stands at its frame's instruction alone (the trap's generator
    delegates no further); any helper in between gives the whole chain (:func:`_site`)."""
    return [c.cr_frame.f_lasti
            if (aw := c.cr_await).__class__ is not CoroutineType
            and (aw.__class__ is not GeneratorType or aw.gi_yieldfrom is None)
            else _site(c) for c in coros]


def _frame_sites(members: list[Invocation]) -> list:
    """:func:`_sites` of invocations that suspend only in their own frame (their shader awaits
    asyncshader operations directly, checked by :func:`~asyncshader.source_checks.direct_awaits`):
    the frame's instruction offset alone."""
    return [m.frame.f_lasti for m in members]


def _one_op(reqs: list, first: Any, n: int) -> bool:
    """Whether all ``n`` requests name ``first``'s operation (one class of a rendezvous kind
    says so without reading each request's op)."""
    if first._fixed_op and list(map(type, reqs)).count(first.__class__) == n:
        return True
    return [r.op for r in reqs].count(first.op) == n


class Group:
    """Members that meet at rendezvous. ``scope`` names the kind of group (the front-end picks
    the names: ``"workgroup"``, ``"quad"``); a request's scope selects the group.

    A plain class (not slotted): the fields a new group starts with are class defaults, since
    front-ends make one per workgroup or quad (a fragment dispatch makes one per four pixels).
    """

    arrived: list[Invocation] | tuple = ()  # members standing at the open rendezvous
    finished = 0  # members that returned
    size = 0
    context: Any = None  # the unit's memory context (enter, save, exit)
    valued = False  # members hold values a resolver handed out (fast paths)
    #: an *active-set* group (subgroups): its rendezvous completes once every live member is
    #: blocked, at it or at another group's rendezvous (``blocked`` counts them), and the
    #: members standing at one call site are resolved together, their lanes in ``active``
    #: (:meth:`Scheduler._complete_active`). Its members list it in ``Invocation.partials``.
    partial = False
    blocked = 0
    active: list | None = None
    #: a *lean* unit: its members' coroutines in lane order, with no :class:`Invocation` made
    #: yet (four of them: :mod:`asyncshader.lean` is written for quads; other sizes are made
    #: into members at once). The in-order fast path runs such a unit on the coroutines alone
    #: while nothing happens but whole-group rendezvous; any other loop, and the in-order one
    #: at anything else, calls :meth:`materialize` first. ``None``: the members exist.
    coros: list | None = None
    values: list | None = None  # lean: what each coroutine gets at its next resume
    results: list | None = None  # lean: what each returned, once all did (lane order)

    def __init__(self, scope: str, index: int, label: str, lane_name: str,
                 context: Any = None) -> None:
        self.scope = scope
        self.index = index
        self.members: list[Invocation] = []
        self.label = label
        self.lane_name = lane_name
        if context is not None:
            self.context = context

    def __repr__(self) -> str:
        return f"<group {self.label}>"

    def materialize(self) -> None:
        """A lean unit (:attr:`coros`): makes its members from the coroutines (same keys,
        same lanes, as if they had been made with the unit) and sets ``coros`` to ``None``.
        The front-end that builds lean units supplies this."""
        raise NotImplementedError(f"{type(self).__name__} makes no lean units")
