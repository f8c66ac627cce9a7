"""The scheduler's fast paths: the in-order and random-order loops.

They take the same steps, make the same decisions, record the same trace and raise the same
errors as the general loop (:meth:`Scheduler._loop <asyncshader._core.scheduler.Scheduler._loop>`,
where the core's rules are written down), for the common runs: one scope (workgroups, no quads),
no instrument that watches every step, and a strategy that picks in order
(:class:`~asyncshader.InOrder`) or keeps the runnable invocations in an order it draws
(:class:`~asyncshader.Random`). They run whole rounds (every member of a unit from one rendezvous
to the next) at once, and trace a round's decisions in one go. ``tests/_core/test_fast_paths.py``
fuzzes both against the general loop.

:class:`FastPaths` is a mixin of :class:`~asyncshader._core.scheduler.Scheduler`: it reads the
scheduler's state and calls its bookkeeping (``_fill``, ``_switch``, ``_retire``, ...).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from functools import partial
from operator import attrgetter
from typing import Any

import numpy as np

from .invocations import Group, Invocation, _one_op
from .traps import POINT, from_pair

_KEY = attrgetter("key")
_NOTHING = object()


def _tail(queue: list[Invocation]) -> int:
    """Where the constant tail of a random-order round begins: the steps of the one invocation
    left alone. The step at ``s`` was a decision if two invocations or more were runnable: they
    are the distinct ones in ``queue[s:]``, so the decisions are the steps before the tail."""
    end = len(queue) - 1
    last = queue[end]
    while end and queue[end - 1] is last:
        end -= 1
    return end


def _arrivals(queue: list[Invocation], upto: int, before: list[Invocation] | tuple = (),
              ) -> list[Invocation]:
    """The invocations that arrived at a rendezvous in a random-order round's first ``upto``
    steps, in step order: a step is an arrival unless its invocation returned or steps again
    later (it passed a scheduling point). ``before``: the arrivals among the round's steps
    already dropped from ``queue`` (a long round is compacted at checkpoints)."""
    later = set(queue[upto:])
    arrived = list(before)
    arrived.reverse()
    for inv in reversed(queue[:upto]):
        if inv not in later and not inv.done:
            arrived.append(inv)
        later.add(inv)
    arrived.reverse()
    return arrived


def _record_round(decisions: array, queue: list[Invocation], end: int, canon: int) -> int:
    """Appends to the trace the decisions among the first ``end`` steps of a random-order
    round (``queue``: the round's steps in order, including those still to come). A pick was
    canonical (position 0) if its key is the least of ``queue[s:]``. Returns the count of
    canonical picks since the last recorded pair."""
    if end <= 0:
        return canon
    if end <= _SMALL:
        return _record_small(decisions, [inv.key for inv in queue], end, canon)
    return _record_keys(decisions, np.fromiter(map(_KEY, queue), np.int64, len(queue)), end,
                        canon)


def _record_order(decisions: array, order: list[int], base: int, canon: int) -> int:
    """:func:`_record_round` for a short round without scheduling points whose steps' keys are
    ``base + order``: the pairs depend on the order alone, and a quad has only 24 orders, so
    each order's pairs are worked out once (for up to 6 invocations: at most 873 of them)."""
    pattern = _PATTERNS.get(tuple(order))
    if pattern is None:
        pairs = array("q")
        tail = _record_small(pairs, order, len(order) - 1, 0)
        pattern = _PATTERNS[tuple(order)] = (pairs.tolist(), tail)
    pairs, tail = pattern
    if not pairs:
        return canon + tail
    record = decisions.append
    record(pairs[0] + canon)
    record(pairs[1] + base)
    for k in range(2, len(pairs), 2):
        record(pairs[k])
        record(pairs[k + 1] + base)
    return tail


_PATTERNS: dict[tuple[int, ...], tuple[list[int], int]] = {}
#: the longest order whose pairs are kept in _PATTERNS (6! + 5! + ... orders at most)
_PATTERN_MAX = 6


def _record_small(decisions: array, keys: list[int], end: int, canon: int) -> int:
    """:func:`_record_round` in Python, from the keys in step order (a short round)."""
    least = min(keys[end:])
    moved = []  # from the back: was the pick at s not the least key of keys[s:]?
    for k in reversed(keys[:end]):
        moved.append(k > least)
        if k < least:
            least = k
    record = decisions.append
    for s, k in enumerate(keys[:end]):
        if moved[end - 1 - s]:
            record(canon)
            record(k)
            canon = 0
        else:
            canon += 1
    return canon


def _record_keys(decisions: array, keys: np.ndarray, end: int, canon: int,
                 base: int = 0) -> int:
    """:func:`_record_round` with numpy, from the keys in step order (less ``base``)."""
    least = np.minimum.accumulate(keys[::-1])[::-1]
    picked = np.flatnonzero(keys[:end] != least[:end])  # the decisions not at position 0
    if not len(picked):
        return canon + end
    pairs = np.empty(2 * len(picked), np.int64)
    pairs[0] = picked[0] + canon
    pairs[2::2] = picked[1:] - picked[:-1] - 1
    pairs[1::2] = keys[picked] + base
    decisions.frombytes(pairs.astype(_ARRAY_DTYPE[decisions.typecode]).tobytes())
    return int(end - 1 - picked[-1])


#: rounds up to this size are traced (and shuffled) in Python; numpy pays off above it
_SMALL = 16
_ARRAY_DTYPE = {"I": np.uint32, "q": np.int64}


class FastPaths:
    """The in-order and random-order loops, and the round bookkeeping they share."""

    def _loop_in_order(self) -> Iterator[None]:
        """The in-order fast path, for single-scope runs without instruments: the same steps,
        decisions and errors as :meth:`_loop` with position-0 picks, one unit at a time."""
        live = self.live
        steps = 0
        last_unit = None
        track = self.track_current
        lean = not track and not self._rendezvous_hooks  # (lean rounds report nothing)
        while True:
            self._fill(runnable=False, lean=lean)  # this loop keeps its own batches
            if not live:
                break
            unit = last_unit = self._switch(last_unit, live[0])
            others = self.live_size - unit.size  # the other live units: unstarted, runnable
            if unit.coros is not None:  # a lean unit (lean.py): rounds on its coroutines
                finished, unit = self._run_lean(unit, others)
                while finished is False:  # a checkpoint (in the unit the rounds stopped in)
                    self._next_checkpoint = self.steps + self.checkpoint_every
                    self._checkpoint(unit)
                    yield
                    self._switch(None, unit)
                    finished, unit = self._run_lean(unit, others)
                steps = self.steps
                last_unit = unit
                if finished:  # (and retired)
                    if steps >= self._next_checkpoint:  # (quads that end without a rendezvous)
                        self._next_checkpoint = steps + self.checkpoint_every
                        yield
                    continue
                # it escaped: its members exist, and the rounds below go on from there
            batch = unit.members
            prev: Any = _NOTHING  # the last rendezvous request seen (skips re-checking it)
            while batch:
                reqs: list | None = None  # None while every arrival stands at `prev`
                finished = extra = last_extra = 0
                last = batch[-1]
                inv = last
                try:
                    for inv in batch:
                        if track:
                            self.current = inv
                        try:
                            req = inv.coro.send(inv.value)
                        except StopIteration as stop:
                            inv.done, inv.result, inv.coro = True, stop.value, None
                            finished += 1
                            continue
                        except BaseException as exc:
                            raise self._shader_error(inv, exc) from exc
                        if req is not prev:
                            if req.__class__ is tuple:  # a (kind, value) pair
                                req = from_pair(req)
                            try:
                                kind = req._ash_kind
                            except AttributeError:
                                raise self._foreign(inv, req) from None
                            if kind is POINT:
                                req, more = self._run_points(
                                    inv, req, self._next_checkpoint - steps - extra)
                                while req is not None and req._ash_kind is POINT:
                                    # a checkpoint is due while it spins through points
                                    self._next_checkpoint = (steps + extra + more
                                                             + self.checkpoint_every)
                                    self._checkpoint(unit)
                                    yield
                                    self._switch(None, unit)
                                    req, more = self._run_points(inv, req,
                                                                 self.checkpoint_every, more)
                                extra += more
                                if inv is last:
                                    last_extra = more
                                if req is None:
                                    finished += 1
                                    continue
                            if req.scope != unit.scope:
                                if kind is POINT:  # its points: this round's steps of its own
                                    extra -= more
                                    self._cut = (1 + more, 0)
                                raise self._no_group(inv, req)
                            if reqs is None and inv is not batch[0]:  # the arrivals so far
                                reqs = [prev] * (batch.index(inv) - finished)  # all stood at prev
                            prev = req
                        if reqs is not None:
                            reqs.append(req)
                except BaseException:  # a round cut short: its exact steps and decisions
                    self._cut_round(batch, inv, extra, others)
                    raise
                # the arrivals: the batch, less those that returned (no list built per step)
                arrived = batch if not finished else [] if finished == len(batch) else [
                    m for m in batch if not m.done]
                one_request = reqs is None
                if one_request:  # one request object for all (a barrier): no list per step
                    reqs = [prev] * len(arrived)
                batch_steps = len(batch) + extra
                steps += batch_steps
                # decisions: all steps but those taken while only one invocation was runnable
                self.canonical_tail += batch_steps - (1 + last_extra if others == 0 else 0)
                self.steps = steps
                batch = self._end_round(unit, arrived, reqs, finished, in_lane_order=True,
                                        one_request=one_request)
                if steps >= self._next_checkpoint:
                    self._next_checkpoint = steps + self.checkpoint_every
                    self._checkpoint(unit)
                    yield
                    self._switch(None, unit)
            self._retire(unit)

    def _loop_ordered(self, ordered: Any) -> Iterator[None]:
        """The random-order fast path (single scope, one live unit, no instruments), for a
        strategy that keeps the runnable invocations in an order (:class:`~.schedule.Random`):
        the same picks, trace and errors as :meth:`_loop` asking its ``pick``. ``ordered`` is
        the run's draws: when one invocation joins the order (it passed a scheduling point, or
        it is the one newcomer at a round's start) it goes at a drawn place (``place``); when
        more join, the round gets a fresh order (``shuffle``); a lone invocation draws nothing.
        """
        shuffle, place = ordered.shuffle, ordered.place
        decisions = self.decisions
        live = self.live
        canon = steps = 0
        last_unit = None
        track = self.track_current
        lone: Invocation | None = None  # the one left in the order after the last decision
        queue: list[Invocation] = []
        i, uncounted, dropped = -1, 0, 0
        try:
            while True:
                self._fill(runnable=False)  # this loop keeps its own rounds
                if not live:
                    break
                unit = last_unit = self._switch(last_unit, live[0])
                batch = unit.members
                first = batch[0].key if batch else 0
                # keys first, first + 1, ...: a round's keys are its order's positions + first
                base = first if batch and batch[-1].key - first == len(batch) - 1 else None
                prev: Any = _NOTHING
                while batch:
                    n = len(batch)
                    order = None
                    if n == 1:
                        queue = list(batch)
                    elif lone is not None and not lone.done and n == 2:  # one newcomer
                        queue = [lone]
                        queue.insert(place(1), batch[batch[0] is lone])
                    else:  # (with one invocation waiting, a fresh order leaves it in place)
                        order = shuffle(n)
                        queue = [batch[k] for k in (
                            order if order.__class__ is list else order.tolist())]
                    # while every arrival stands at `prev` (a barrier), nothing is noted per
                    # step; once requests differ, each arrival notes its own in `req`
                    mixed = False
                    finished = 0
                    # a round of scheduling points reaches checkpoints, where the steps it took
                    # so far (`dropped` of them) leave the queue: traced, their arrivals kept in
                    # `early`. The queue stays short however long an invocation spins
                    dropped, early, decided = 0, [], False
                    while True:  # (again from the queue's start after it was compacted)
                        for i, inv in enumerate(queue):
                            if track:
                                self.current = inv
                            pending = inv.pending
                            if pending is None:
                                value = inv.value
                            else:
                                inv.pending = None
                                try:
                                    value = pending.apply(inv)
                                except BaseException as exc:
                                    uncounted = 1  # (the general loop counts a step once sent)
                                    raise self._shader_error(inv, exc, suspended=True) from exc
                            try:
                                req = inv.coro.send(value)
                            except StopIteration as stop:
                                inv.done, inv.result, inv.coro = True, stop.value, None
                                finished += 1
                                continue
                            except BaseException as exc:
                                raise self._shader_error(inv, exc) from exc
                            if req is not prev:
                                if req.__class__ is tuple:  # a (kind, value) pair
                                    req = from_pair(req)
                                try:
                                    kind = req._ash_kind
                                except AttributeError:
                                    raise self._foreign(inv, req) from None
                                if kind is POINT:  # still runnable: back into the order
                                    inv.pending = req
                                    self.points += 1
                                    inv.points += 1
                                    if inv.points > self.max_points:
                                        raise self._step_limit(inv)
                                    others = len(queue) - i - 1
                                    queue.insert(i + 1 + (place(others) if others else 0), inv)
                                    if steps + dropped + i < self._next_checkpoint:
                                        continue
                                    self._next_checkpoint = (steps + dropped + i + 1
                                                             + self.checkpoint_every)
                                    self._checkpoint(unit)
                                    yield
                                    self._switch(None, unit)
                                    end = min(_tail(queue), i + 1)
                                    canon = _record_round(decisions, queue, end, canon)
                                    decided = decided or end > 0
                                    early = _arrivals(queue, i + 1, early)
                                    dropped += i + 1
                                    del queue[:i + 1]
                                    i = -1
                                    break
                                if req.scope != unit.scope:
                                    raise self._no_group(inv, req)
                                if (i or dropped) and not mixed:  # earlier arrivals: at prev
                                    for m in (queue[:i] if len(queue) == n and not dropped
                                              else _arrivals(queue, i, early)):
                                        if not m.done:
                                            m.req = prev
                                            mixed = True
                                prev = req
                            if mixed:
                                inv.req = req
                        else:
                            break
                    steps += dropped + len(queue)
                    if len(queue) == n and not dropped and base is not None and (
                            order is not None) and (
                            n <= _PATTERN_MAX or order.__class__ is not list):
                        # no scheduling point: the keys are the order's positions, plus base
                        lone = queue[-1]
                        canon = (_record_order(decisions, order, base, canon)
                                 if n <= _PATTERN_MAX else
                                 _record_keys(decisions, order, n - 1, canon, base))
                    else:
                        end = _tail(queue)
                        if end or decided:  # decisions were made: the one left in the order
                            lone = queue[-1]
                        canon = _record_round(decisions, queue, end, canon)
                    # the arrivals, in lane order: the members still running
                    arrived = batch if not finished else [m for m in batch if not m.done]
                    reqs = [m.req for m in arrived] if mixed else [prev] * len(arrived)
                    self.steps, self.canonical_tail = steps, canon
                    came, queue, i = queue, [], -1  # (counted: an error from here adds no step)
                    batch = self._end_round(unit, arrived, reqs, finished, in_lane_order=True,
                                            one_request=not mixed,
                                            arrival_order=partial(_arrivals, came, len(came),
                                                                  early))
                    came = None  # (keeping the round's list alive costs ~8%: cold memory)
                    if steps >= self._next_checkpoint:
                        self._next_checkpoint = steps + self.checkpoint_every
                        self._checkpoint(unit)
                        yield
                        self._switch(None, unit)
                self._retire(unit)
        except BaseException:
            if queue:  # a round cut short: its steps and decisions so far, exactly
                steps += dropped + i + 1 - uncounted
                canon = _record_round(decisions, queue, min(_tail(queue), i + 1), canon)
            self.steps, self.canonical_tail = steps, canon
            raise

    def _end_round(self, unit: Group, arrived: list[Invocation], reqs: list,
                   finished: int, in_lane_order: bool = False, one_request: bool = False,
                   arrival_order: Callable[[], list[Invocation]] | None = None,
                   ) -> list[Invocation]:
        """Fast paths, after every member of ``unit`` arrived or finished: check uniformity,
        resolve, and return the members (in key order) that run next (none when all finished).
        A divergence names the arrivals in the order they came (``arrival_order()``, when
        ``arrived`` is in lane order but the steps were not): the first one's operation says
        which error it is, as in the general loop."""
        if finished:
            unit.finished += finished
        if not arrived:
            return arrived
        sites = self._sites(arrived)
        n = len(arrived)
        first = reqs[0]
        if finished or sites.count(sites[0]) != n or (
                not one_request and reqs.count(first) != n and not _one_op(reqs, first, n)):
            for inv, r, site in zip(arrived, reqs, sites):
                inv.req, inv.site = r, site
            unit.arrived = arrival_order() if arrival_order is not None else arrived
            raise self._divergence(unit)
        resolve = first.resolve
        if resolve is None:
            if unit.valued:  # the values the previous rendezvous handed out were delivered
                unit.valued = False
                for m in arrived:
                    m.value = None
        else:  # every member arrived: each gets a new value
            unit.valued = True
            if in_lane_order:  # the in-order path: arrivals are the members, in lane order
                values = [r.value for r in reqs]
                try:
                    results = resolve(values, unit)
                except Exception as exc:
                    raise self._resolve_error(unit, first, list(zip(arrived, values)),
                                              exc) from exc
                for inv, value in zip(arrived, results):
                    inv.value = value
            else:  # arrivals come in schedule order: map them by lane
                for inv, r in zip(arrived, reqs):
                    inv.req = r
                self._resolve(unit, arrived, first)
                return unit.members
        self.rendezvous += 1
        if self._rendezvous_hooks:  # instruments see the arrivals in the order they came
            came = arrival_order() if arrival_order is not None else arrived
            for hook in self._rendezvous_hooks:
                hook(unit, first.op, came)
        return unit.members

    def _run_points(self, inv: Invocation, req: Any, budget: int,
                    taken: int = 0) -> tuple[Any, int]:
        """In-order: keeps running ``inv`` through scheduling points (atomics) until it reaches
        a rendezvous (returned) or finishes (``None``); also returns the steps taken (counting
        the ``taken`` of earlier calls for this round). After ``budget`` steps a checkpoint is
        due: it returns the scheduling point it stands at, not yet counted, for the caller to
        yield to the host and call again."""
        steps = taken
        stop = taken + budget
        applying = 0
        coro = inv.coro
        try:
            while True:
                if steps >= stop:
                    return req, steps
                self.points += 1
                inv.points += 1
                if inv.points > self.max_points:
                    raise self._step_limit(inv)
                applying = 1  # a failing apply was decided but is not a step (general loop)
                try:
                    value = req.apply(inv)
                except BaseException as exc:
                    raise self._shader_error(inv, exc, suspended=True) from exc
                applying = 0
                steps += 1
                try:
                    req = coro.send(value)
                except StopIteration as stop:
                    self._done(inv, stop.value)
                    return None, steps
                except BaseException as exc:
                    raise self._shader_error(inv, exc) from exc
                if req.__class__ is tuple:  # a (kind, value) pair: the request it stands for
                    req = from_pair(req)
                try:
                    kind = req._ash_kind
                except AttributeError:
                    raise self._foreign(inv, req) from None
                if kind is not POINT:
                    return req, steps
        except BaseException:
            self._cut = (1 + steps, applying)  # for _cut_round: the steps ``inv`` took
            raise

    def _cut_round(self, batch: list[Invocation], inv: Invocation, extra: int,
                   others: int) -> None:
        """In order: a round cut short by an error at ``inv``. Counts its steps and decisions
        exactly as the general loop does, so that a failing run's trace replays to the same
        failure: one step per member before ``inv`` plus their points (``extra``), the steps
        ``inv`` took (:meth:`_run_points` leaves them in ``_cut``; the caller takes them out
        of ``extra`` when it raises after they returned), and no decision for steps taken alone
        (``inv`` last, and no other unit live)."""
        sends, unapplied = self._cut
        self._cut = (1, 0)
        before = batch.index(inv) + extra
        self.steps += before + sends
        alone = inv is batch[-1] and others == 0
        self.canonical_tail += before if alone else before + sends + unapplied
