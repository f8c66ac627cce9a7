"""The scheduler core: one run loop over invocation coroutines.

It knows invocations, groups, rendezvous and scheduling points (:mod:`asyncshader.traps`), a
strategy that picks the next runnable invocation, and instruments that observe. It knows nothing
about WGSL: the dispatch front-ends build the invocations and groups, and the collectives supply
the resolvers.

Rules:

* A step resumes one runnable invocation until it suspends again. The strategy is asked only when
  more than one invocation is runnable (a *decision*); runnable invocations are kept sorted by
  ``key`` (dispatch order), so "position 0" is always the lowest-keyed one.
* A rendezvous of a group completes when each member has either arrived or finished. It resolves
  if nobody finished and every member stands at the same operation and call site; otherwise the
  run stops with a divergence error naming where each member stands.
* Nothing runnable while invocations are still blocked is a deadlock, always reported.
* Top-level groups (``units``: workgroups) start lazily, at most ``max_live`` at a time; each has
  a memory context made current before its invocations run.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from operator import attrgetter
from typing import Any

from ..errors import AsyncShaderError, DivergenceError
from .active_sets import ActiveSets
from .diagnostics import Diagnostics
from .fast_paths import FastPaths
from .instruments import bound_hooks
from .invocations import Group, Invocation, _frame_sites, _sites
from .lean import LeanRounds
from .sources import in_finally
from .traps import POINT, from_pair
from .watchdog import register_loops

_KEY = attrgetter("key")


class Scheduler(Diagnostics, FastPaths, LeanRounds, ActiveSets):
    """Runs ``units`` (an iterator of top-level :class:`Group` s, built lazily) to completion.

    :meth:`run` is a generator: it yields once ``checkpoint_every`` steps have passed (the fast
    paths: at the end of a round) so that an async host can let its event loop breathe (and
    cancel); a synchronous caller simply exhausts it.
    ``current`` is the invocation running now while instruments are attached, or always with
    ``track_current=True`` (a front-end whose operations ask who calls them: ``discard()``).
    ``active_sets=True`` is the front-end's word that every member's groups are its unit and
    one active-set group (:attr:`Group.partial`), whose members have consecutive keys: an
    in-order run then takes :meth:`_loop_active_sets`.
    ``direct_sites=True`` is the front-end's word that invocations suspend only in their own
    frame (the shader awaits no coroutine of its own): a call site is then the frame's
    instruction alone, read without walking a chain of awaited coroutines.
    ``reconverge`` (the front-end's, for subgroups): given the active sets standing at one
    active-set group's rendezvous at different call sites, returns those that resolve now (the
    others wait for members still on the way to them; :meth:`_complete_active`). ``sites``
    replaces the reading of where members stand (a front-end whose call sites alone do not
    name a dynamic instance: loops that count their iterations).
    """

    def __init__(self, units: Iterator[Group], strategy: Any, instruments: list | tuple = (), *,
                 max_live: int = 1, checkpoint_every: int = 4096,
                 max_points_per_invocation: int = 10_000, single_scope: bool = False,
                 max_key: int = 2**32 - 1, track_current: bool = False,
                 direct_sites: bool = False, active_sets: bool = False,
                 reconverge: Any = None, sites: Any = None) -> None:
        self.units = units
        self.strategy = strategy
        self.instruments = list(instruments)
        self.max_live = max(1, int(max_live))
        self.checkpoint_every = checkpoint_every
        self.max_points = max_points_per_invocation
        self.single_scope = single_scope
        self.active_sets = active_sets
        self._next_checkpoint = checkpoint_every
        self.runnable: list[Invocation] = []
        self.live: list[Group] = []
        self.live_size = 0  # invocations in live units
        self.exhausted = False
        self.current: Invocation | None = None
        # keep `current` up to date: instruments need it (memory events name the running
        # invocation), and so do front-ends whose operations ask who calls them
        self.track_current = track_current or bool(self.instruments)
        self._sites = sites or (_frame_sites if direct_sites else _sites)  # where one stands
        self._reconverge = reconverge
        self._lean_setup(direct_sites)
        self._cut = (1, 0)  # in order: the steps an invocation failing in its round took
        # trace of decisions: pairs (canonical picks before, key chosen); canonical = position 0.
        # 4-byte entries while keys fit (a 1M-invocation Random run makes ~10M decisions)
        self.decisions = array("I" if max_key < 2**32 else "q")
        self.canonical_tail = 0
        # counters
        self.steps = 0
        self.decision_count = 0
        self.rendezvous = 0
        self.switches = 0
        self.points = 0
        self.invocations = 0
        self._hooks = {name: bound_hooks(self.instruments, name) for name in (
            "invocation_resumed", "invocation_suspended", "invocation_finished",
            "rendezvous_completed", "unit_retired")}
        self._rendezvous_hooks = self._hooks["rendezvous_completed"]

    # ------------------------------------------------------------------------------ the run loop
    def run(self) -> Iterator[None]:
        """Runs every unit; yields at checkpoints. Raises the run's error, if any."""
        for hook in bound_hooks(self.instruments, "run_started"):
            hook(self)
        try:
            self.strategy.begin(self)
            # the fast paths track `current` and report rendezvous; instruments that watch
            # every resume, suspension or finish need the general loop
            fast = self.single_scope and not (
                self._hooks["invocation_resumed"] or self._hooks["invocation_suspended"]
                or self._hooks["invocation_finished"])
            if fast and getattr(self.strategy, "in_order", False):
                loop = self._loop_in_order()
            elif self.active_sets and getattr(self.strategy, "in_order", False) and not (
                    self._hooks["invocation_resumed"] or self._hooks["invocation_suspended"]
                    or self._hooks["invocation_finished"]):
                loop = self._loop_active_sets()
            elif fast and self.max_live == 1 and getattr(self.strategy, "ordered", None):
                loop = self._loop_ordered(self.strategy.ordered)
            else:
                loop = self._loop()
            yield from loop
            self.current = None
            if self.live:
                raise self._deadlock()
            end = getattr(self.strategy, "end", None)
            if end is not None:
                end(self)
        except Exception as exc:
            held = self._close()
            if held is not None and isinstance(exc, DivergenceError):
                # (a shader's own exception, held up in a finally block that awaited, took its
                # invocation to another rendezvous than the others': that is the error)
                raise self._held_error(exc, *held) from held[1]
            raise
        finally:
            self._close()
            for hook in bound_hooks(self.instruments, "run_finished"):
                hook(self)

    def _loop(self) -> Iterator[None]:
        """The general loop: any strategy, any groups, instruments."""
        runnable = self.runnable
        strategy = self.strategy
        in_order = getattr(strategy, "in_order", False)
        pick = strategy.pick
        record = self.decisions.append
        hooks = self._hooks
        resumed, suspended = hooks["invocation_resumed"], hooks["invocation_suspended"]
        observed = self.track_current
        canon = steps = 0
        next_checkpoint = self.checkpoint_every
        cur_unit = None
        self._fill()
        try:
            while runnable:
                # before the next step, whether the last one suspended or returned (shaders
                # that meet no rendezvous only return): the unit it ran in may have retired
                if steps >= next_checkpoint:
                    next_checkpoint = steps + self.checkpoint_every
                    self.steps, self.canonical_tail = steps, canon
                    cur_unit = self._checkpoint(cur_unit if cur_unit in self.live else None)
                    yield
                n = len(runnable)
                if n == 1:
                    pos = 0
                elif in_order:
                    pos = 0
                    canon += 1
                else:
                    pos = pick(runnable)
                    if pos:
                        record(canon)
                        record(runnable[pos].key)
                        canon = 0
                    else:
                        canon += 1
                inv = runnable[pos]
                if inv.unit is not cur_unit:
                    cur_unit = self._switch(cur_unit, inv.unit)
                pending = inv.pending
                if pending is None:
                    value = inv.value
                    inv.value = None
                else:
                    inv.pending = None
                    try:
                        value = pending.apply(inv)
                    except BaseException as exc:
                        raise self._shader_error(inv, exc, suspended=True) from exc
                if observed:
                    self.current = inv
                    for hook in resumed:
                        hook(inv)
                steps += 1
                try:
                    req = inv.coro.send(value)
                except StopIteration as stop:
                    del runnable[pos]
                    inv.result = stop.value
                    self._finished(inv)
                    continue
                except BaseException as exc:
                    raise self._shader_error(inv, exc) from exc
                if req.__class__ is tuple:  # a (kind, value) pair: the request it stands for
                    req = from_pair(req)
                try:
                    kind = req._ash_kind
                except AttributeError:
                    raise self._foreign(inv, req) from None
                if observed:
                    for hook in suspended:
                        hook(inv, req)
                if kind is POINT:
                    inv.pending = req
                    self.points += 1
                    inv.points += 1
                    if inv.points > self.max_points:
                        raise self._step_limit(inv)
                else:
                    del runnable[pos]
                    inv.req = req
                    group = inv.groups.get(req.scope)
                    if group is None:
                        raise self._no_group(inv, req)
                    arrived = group.arrived
                    if not arrived:
                        group.arrived = arrived = []
                    arrived.append(inv)
                    partials = inv.partials
                    if partials:  # it also blocks in its active-set groups
                        self._blocked(inv, group, partials)
                    elif len(arrived) + group.finished == group.size:
                        self._complete(group)
        except BaseException:
            self.steps, self.canonical_tail = steps, canon  # exact, for a partial trace
            raise
        self.steps, self.canonical_tail = steps, canon

    def _retire(self, unit: Group) -> None:
        """A unit whose members all finished: drop it (and the cycles through its members)."""
        self.live.remove(unit)
        self.live_size -= unit.size
        if unit.context is not None:
            unit.context.exit()
        for hook in self._hooks["unit_retired"]:
            hook(unit)
        if not self.single_scope:  # the cycles through the members' other groups
            for m in unit.members:
                m.groups = m.unit = None  # type: ignore[assignment]
        unit.members = []  # (the unit itself is the members' only group otherwise)

    def _done(self, inv: Invocation, result: Any) -> None:
        inv.done = True
        inv.result = result
        inv.coro = None

    # ---------------------------------------------------------------------------- bookkeeping
    def _fill(self, runnable: bool = True, lean: bool = False) -> None:
        """Starts units until ``max_live`` are alive or none is left; their members become
        runnable (unless a fast path keeps its own lists). Lean units stay lean only if
        ``lean`` (the in-order fast path runs them); otherwise their members are made here."""
        self.current = None  # building units runs no invocation
        while len(self.live) < self.max_live and not self.exhausted:
            unit = next(self.units, None)
            if unit is None:
                self.exhausted = True
                return
            if unit.coros is not None and (not lean or len(unit.coros) != 4):
                unit.materialize()  # (lean.py runs units of four)
            self.live.append(unit)
            self.live_size += unit.size
            self.invocations += unit.size
            if runnable:
                self.runnable.extend(unit.members)  # keys grow with units: the list stays sorted

    def _switch(self, old: Group | None, new: Group) -> Group:
        """Makes ``new``'s memory context current."""
        if new.context is not None:
            new.context.enter(old.context if old is not None else None)
        if old is not None:
            self.switches += 1
        return new

    def _checkpoint(self, cur: Group | None) -> None:
        """Before yielding to the host: save the current unit's memory (another dispatch may run
        before we resume)."""
        if cur is not None and cur.context is not None:
            cur.context.save()
        return None

    def _finished(self, inv: Invocation) -> None:
        inv.done = True
        for hook in self._hooks["invocation_finished"]:
            hook(inv)
        inv.coro = None
        for group in inv.groups.values():
            group.finished += 1
            if group.partial:
                if group.arrived and group.blocked + group.finished == group.size:
                    self._complete_active(group)
            elif group.arrived and len(group.arrived) + group.finished == group.size:
                self._complete(group)  # raises: somebody returned while others wait
        unit = inv.unit
        if unit.finished == unit.size:
            self._retire(unit)
            self._fill()

    def _complete(self, group: Group) -> None:
        """Every member arrived or finished: resolve the rendezvous, or report the divergence."""
        arrived = group.arrived
        sites = self._sites(arrived)
        n = len(arrived)
        if group.finished or sites.count(sites[0]) != n:
            for m, site in zip(arrived, sites):
                m.site = site
            raise self._divergence(group)
        first = arrived[0]
        reqs = [m.req for m in arrived]
        if reqs.count(first.req) != n and any(r.op != first.req.op for r in reqs):
            raise self._divergence(group)
        group.arrived = []
        self._resolve(group, arrived, first.req)
        if first.partials:  # they stop blocking their active-set groups
            for m in arrived:
                for p in m.partials:
                    p.blocked -= 1
        runnable = self.runnable  # everybody arrived: the members, in key order, run again
        if runnable:
            runnable.extend(group.members)
            runnable.sort(key=_KEY)
        else:
            runnable.extend(group.members)

    def _resolve(self, group: Group, arrived: list[Invocation], req: Any) -> None:
        """Hands each member what the rendezvous's resolver computed for its lane."""
        resolve = req.resolve
        if resolve is not None:
            scope = group.scope
            values = [None] * group.size
            for m in arrived:
                values[m.lanes[scope]] = m.req.value
            try:
                results = resolve(values, group)
            except Exception as exc:
                brought = sorted(((m, m.req.value) for m in arrived),
                                 key=lambda mv: mv[0].lanes[scope])
                raise self._resolve_error(group, req, brought, exc) from exc
            for m in arrived:
                m.value = results[m.lanes[scope]]
        self.rendezvous += 1
        for hook in self._rendezvous_hooks:
            hook(group, req.op, arrived)

    def _close(self) -> tuple[Invocation, BaseException, tuple[str, int, str]] | None:
        """Closes the coroutines of every live unit (after an error or a cancellation).
        Returns the first invocation found suspended in a ``finally`` block while an exception
        its own code raised was on its way out, with that exception and where it waited."""
        self.current = None  # keeps nothing of the run alive
        held = None
        for unit in self.live:
            if unit.coros is not None:  # a lean unit: its members, to name the invocation
                unit.materialize()
            for m in unit.members:
                if m.coro is not None:
                    where = m.position() if held is None else None
                    original = finish(m.coro)
                    if original is not None and where is not None and in_finally(*where[:2]):
                        held = (m, original, where)
                    m.coro = None
        for unit in self.live:
            if unit.context is not None:
                unit.context.exit()
        self.live = []
        close = getattr(self.units, "close", None)
        if close is not None:
            close()
        return held

    def _held_error(self, error: Exception, inv: Invocation, original: BaseException,
                    where: tuple[str, int, str]) -> BaseException:
        """The error of a run that stopped while ``inv``'s ``finally`` block awaited at
        ``where`` with ``original`` (the shader's own exception) on its way out: ``original``,
        at its line, with what stopped the run."""
        err = self._shader_error(inv, original)
        name, line, text = where
        first = str(error).partition("\n")[0]
        err.add_note(f"asyncshader: the exception was on its way out of the shader when a "
                     f"`finally` block awaited, at {name}:{line}: {text}; the dispatch then "
                     f"stopped with {type(error).__name__}: {first}")
        return err

    def find(self, key: int) -> Invocation | None:
        """The live invocation with ``key``, if any."""
        for unit in self.live:
            members = unit.members
            if members and members[0].key <= key <= members[-1].key:
                for m in members:
                    if m.key == key:
                        return m
        return None


#: how many times :func:`finish` throws GeneratorExit into a coroutine that keeps awaiting
_FINISH_TRIES = 100


def finish(coro: Any) -> BaseException | None:
    """Closes suspended coroutine ``coro``, also one whose ``finally`` block awaits (a plain
    ``close()`` raises RuntimeError then and leaves it suspended). Returns the exception the
    shader's own code had raised and was carrying out where it was suspended, if any."""
    outside = sys.exception()  # (a thrown exception's context falls back to the caller's)
    for _ in range(_FINISH_TRIES):
        try:
            coro.throw(GeneratorExit)
        except GeneratorExit as exc:
            return _own(exc.__context__, outside)
        except BaseException:  # the shader's cleanup raised: closed, it is not the run's error
            return None
    coro.close()  # (a finally that awaits forever: what close() says)
    return None


def _own(exc: BaseException | None, outside: BaseException | None) -> BaseException | None:
    """The exception a GeneratorExit thrown into a shader interrupted (``exc``: its context),
    if the shader's own code raised it: not one of the GeneratorExits, not the caller's."""
    while isinstance(exc, GeneratorExit):  # (one per finally that awaited)
        exc = exc.__context__
    if exc is None or exc is outside or isinstance(exc, AsyncShaderError):
        return None
    return exc


# the watchdog tells a running shader by its caller: every function that resumes one
register_loops(Scheduler.run, [Scheduler._loop, Scheduler._loop_in_order,
                               Scheduler._loop_ordered, Scheduler._run_points,
                               Scheduler._run_lean, Scheduler._loop_active_sets])
