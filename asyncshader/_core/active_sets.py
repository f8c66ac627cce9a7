"""Active-set groups (subgroups): the scheduler's rules for a group whose rendezvous does not
wait for every member, and the in-order fast path for runs made of them.

A rendezvous of an active-set group (:attr:`Group.partial
<asyncshader._core.invocations.Group.partial>`) completes once every live member of the group
is blocked, at it or at another group's rendezvous; the members standing at the same call site
and operation form one *active set* each, resolved on its own (:meth:`ActiveSets._complete_active`).

:class:`ActiveSets` is a mixin of :class:`~asyncshader._core.scheduler.Scheduler`, like the fast
paths: it reads the scheduler's state and calls its bookkeeping.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

from .invocations import Group, Invocation
from .lean import _accepts, _Replay
from .traps import POINT, from_pair

_KEY = attrgetter("key")
_UNSET = object()
#: ``list(range(n))``: the lanes of a whole group, all active (shared; resolvers only read it)
_ALL_LANES: dict[int, list[int]] = {}


def _in_lane_order(group: Group) -> bool:
    """Whether ``group.members[i]`` is lane ``i`` of the group (worked out once per group): a
    lean round then hands the resolver its values in member order."""
    ordered = group.__dict__.get("in_lane_order")
    if ordered is None:
        scope = group.scope
        ordered = group.in_lane_order = all(  # type: ignore[attr-defined]
            m.lanes[scope] == lane for lane, m in enumerate(group.members))
    return ordered


class ActiveSets:
    """Active-set rendezvous, and the in-order loop over rounds of active-set groups."""

    def _blocked(self, inv: Invocation, group: Group, partials: tuple) -> None:
        """``inv`` arrived at ``group``'s rendezvous and is a member of active-set groups: it
        counts as blocked in each of them; the rendezvous of ``group`` completes by the usual
        rule (a plain group) and an active-set group's once every live member of it is
        blocked (:meth:`_complete_active`)."""
        for p in partials:
            p.blocked += 1
        if not group.partial and len(group.arrived) + group.finished == group.size:
            self._complete(group)
        for p in partials:
            if p.arrived and p.blocked + p.finished == p.size:
                self._complete_active(p)

    def _complete_active(self, group: Group) -> None:
        """Every live member of an active-set group is blocked (at its rendezvous or another
        group's) and some stand at its rendezvous: those at the same operation and call site
        form one *active set* each. With the front-end's ``reconverge``, only the sets it
        names resolve now (those no other member may still reach); the rest stay arrived until
        the next completion. The resolver reads the set's lanes, in lane order, in
        ``group.active``; the members that returned or stand elsewhere are the inactive ones.
        Some set always resolves: an active-set rendezvous never diverges."""
        arrived = group.arrived
        sites = self._sites(arrived)
        scope = group.scope
        n = len(arrived)
        if sites.count(sites[0]) == n and [m.req.op for m in arrived].count(
                arrived[0].req.op) == n:
            sets = [arrived]
        else:
            by_site: dict = {}
            for m, site in zip(arrived, sites):
                by_site.setdefault((site, m.req.op), []).append(m)
            sets = list(by_site.values())
            if self._reconverge is not None:
                sets = self._reconverge(sets)
        if len(sets) == 1 and len(sets[0]) == n:
            group.arrived = []
            released = arrived
        else:
            released = [m for s in sets for m in s]
            go = set(map(id, released))
            group.arrived = [m for m in arrived if id(m) not in go]
        for members in sets:
            members.sort(key=_KEY)
            group.active = [m.lanes[scope] for m in members]
            try:
                self._resolve(group, members, members[0].req)
            finally:
                group.active = None
        for m in released:
            for p in m.partials:
                p.blocked -= 1
        runnable = self.runnable
        runnable.extend(released)
        runnable.sort(key=_KEY)

    def _loop_active_sets(self) -> Iterator[None]:
        """In order, for runs whose members belong to their unit and one active-set group of
        consecutive keys (``Scheduler(active_sets=True)``): the same steps, trace and errors
        as :meth:`_loop` with position-0 picks, in rounds. The lowest-keyed runnable members of
        one active-set group run one after another until each suspends (a round): nothing can
        complete before the last of them suspends, so the round is what the general loop does.

        A round of a whole group (none returned, none at a scheduling point, no checkpoint due
        in it) first runs *lean*: each member is sent its value and must yield the pair of one
        rendezvous kind of the group's scope (:func:`~asyncshader._core.traps.rendezvous_kind`),
        and nothing else is noted per member; if all stand at one call site the round resolves
        at once (:meth:`_lean_active_round`). Anything else stops the lean round at that member
        (:meth:`_leave_lean`): the members it ran get their requests, the one that stopped it
        replays its outcome once, and the round goes on member by member below. A round whose
        members all stand at one operation and call site of their group, with none returned or
        elsewhere, is resolved at once; any other round is handed to the general rules
        (:meth:`_blocked`, :meth:`_complete`) arrival by arrival."""
        runnable = self.runnable
        observed = self.track_current
        canon = steps = 0
        next_checkpoint = self.checkpoint_every
        cur_unit = None
        hooks = self._rendezvous_hooks
        good: set = set()  # the rendezvous kinds a lean round has accepted
        self._fill()
        try:
            while runnable:
                first = runnable[0]
                group = first.partials[0]
                total = len(runnable)
                size = k = group.size
                # keys are consecutive within a group and runnable is sorted: if its first and
                # last member are runnable, all are
                if not (total >= size and runnable[size - 1].partials[0] is group):
                    k = 1
                    while k < total and runnable[k].partials[0] is group:
                        k += 1
                batch = runnable[:k]
                del runnable[:k]
                unit = first.unit
                others = len(runnable)
                left = k  # runnable members of this round, the current one included
                reqs: list[Invocation] = []
                finished = skip = 0
                if k == size and not group.finished and steps + k <= next_checkpoint and (
                        _in_lane_order(group)):
                    if unit is not cur_unit:
                        cur_unit = self._switch(cur_unit, unit)
                    # the lean round: one send per member, its pair checked, nothing else.
                    # (No member is at a scheduling point: a round runs each one on through
                    # its points, below, so none is left pending when a round ends)
                    values: list = []
                    push = values.append
                    lean_kind: Any = _UNSET  # the first member's kind, once accepted
                    outcome: Any = None
                    for inv in batch:
                        if observed:
                            self.current = inv
                        try:
                            r = inv.coro.send(inv.value)
                        except BaseException as exc:
                            outcome = (exc, True)
                            break
                        if r.__class__ is tuple:
                            try:
                                rk, rv = r
                            except ValueError:
                                rk = None
                        else:
                            rk = None
                        if rk is not lean_kind:
                            if lean_kind is _UNSET and _accepts(good, rk, group.scope):
                                lean_kind = rk
                            else:
                                outcome = (r, False)
                                break
                        push(rv)
                    skip = len(values)
                    steps += skip
                    if skip == k:  # every member at one kind: its last step ran alone?
                        canon += k if others else k - 1
                        self.steps, self.canonical_tail = steps, canon
                        self._lean_active_round(group, batch, lean_kind, values, hooks)
                        continue
                    canon += skip  # (a member after these was runnable at each step)
                    self._leave_lean(batch, lean_kind, values, outcome)
                    reqs = batch[:skip]
                    left -= skip
                for inv in batch[skip:] if skip else batch:
                    while True:  # its steps: scheduling points keep it at position 0
                        if steps >= next_checkpoint:  # (as the general loop: same switches)
                            next_checkpoint = steps + self.checkpoint_every
                            self.steps, self.canonical_tail = steps, canon
                            cur_unit = self._checkpoint(cur_unit if cur_unit in self.live
                                                        else None)
                            yield
                        if unit is not cur_unit:
                            cur_unit = self._switch(cur_unit, unit)
                        if left + others > 1:
                            canon += 1
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
                        steps += 1
                        try:
                            req = inv.coro.send(value)
                        except StopIteration as stop:
                            inv.result = stop.value
                            finished += 1
                            self._finished(inv)
                            break
                        except BaseException as exc:
                            raise self._shader_error(inv, exc) from exc
                        if req.__class__ is tuple:
                            req = from_pair(req)
                        try:
                            kind = req._ash_kind
                        except AttributeError:
                            raise self._foreign(inv, req) from None
                        if kind is POINT:
                            inv.pending = req
                            self.points += 1
                            inv.points += 1
                            if inv.points > self.max_points:
                                raise self._step_limit(inv)
                            continue
                        inv.req = req
                        if inv.groups.get(req.scope) is None:
                            raise self._no_group(inv, req)
                        reqs.append(inv)
                        break
                    left -= 1
                self.steps, self.canonical_tail = steps, canon
                self._end_active_round(group, batch, reqs, finished, hooks)
        except BaseException:
            self.steps, self.canonical_tail = steps, canon
            raise
        self.steps, self.canonical_tail = steps, canon

    def _lean_active_round(self, group: Group, batch: list[Invocation], kind: Any,
                           values: list, hooks: Any) -> None:
        """A lean round in which every member of ``group`` (``batch``, in lane order) yielded
        the pair of rendezvous ``kind``, depositing ``values``: resolved at once if all stand
        at one call site (the resolver sees every lane active, in ``group.active``), else
        handed to :meth:`_end_active_round` with the members' requests made."""
        sites = self._sites(batch)
        n = len(batch)
        if sites.count(sites[0]) != n:  # two call sites: active sets (the general rules)
            self._leave_lean(batch, kind, values, None)
            self._end_active_round(group, batch, batch, 0, hooks)
            return
        resolve = kind.resolve
        if resolve is None:
            for m in batch:
                m.value = None
        else:
            group.active = _ALL_LANES.get(n) or _ALL_LANES.setdefault(n, list(range(n)))
            try:
                results = resolve(values, group)
            except Exception as exc:
                self._leave_lean(batch, kind, values, None)
                raise self._resolve_error(group, batch[0].req, list(zip(batch, values)),
                                          exc) from exc
            finally:
                group.active = None
            for m, v in zip(batch, results):
                m.value = v
        self.rendezvous += 1
        for hook in hooks:
            hook(group, kind.op, batch)
        runnable = self.runnable
        if runnable and runnable[0].key < batch[-1].key:
            runnable.extend(batch)
            runnable.sort(key=_KEY)
        else:
            runnable[:0] = batch

    @staticmethod
    def _leave_lean(batch: list[Invocation], kind: Any, values: list, outcome: Any) -> None:
        """A lean round stops: the members it ran (one per value in ``values``) get the request
        they yielded, as the member-by-member round notes it; the next member, if the lean
        round resumed it (``outcome``: what it yielded or raised), replays that once
        (:class:`~asyncshader._core.lean._Replay`)."""
        for m, v in zip(batch, values):
            m.req = kind(v)
            m.value = None
        if outcome is not None:
            inv = batch[len(values)]
            inv.coro = _Replay(inv, *outcome)

    def _end_active_round(self, group: Group, batch: list[Invocation],
                          arrived: list[Invocation], finished: int, hooks: Any) -> None:
        """After a round of ``group``'s members: resolve it at once if it is one whole active
        set, else apply the general rules to each arrival in order."""
        n = len(arrived)
        if n and not finished and n == group.size - group.finished and (
                arrived[0].req.scope == group.scope):
            first = arrived[0].req
            cls = first.__class__
            sites = self._sites(arrived)
            if sites.count(sites[0]) == n and (
                    [r.__class__ for r in map(_REQ, arrived)].count(cls) == n
                    if first._fixed_op else
                    [m.req.op for m in arrived].count(first.op) == n):
                scope = group.scope
                values = [None] * group.size
                for m in arrived:
                    values[m.lanes[scope]] = m.req.value
                resolve = first.resolve
                if resolve is not None:
                    try:
                        results = resolve(values, group)
                    except Exception as exc:
                        brought = [(m, m.req.value) for m in arrived]
                        raise self._resolve_error(group, first, brought, exc) from exc
                    for m in arrived:
                        m.value = results[m.lanes[scope]]
                self.rendezvous += 1
                for hook in hooks:
                    hook(group, first.op, arrived)
                runnable = self.runnable
                if runnable and runnable[0].key < arrived[-1].key:
                    runnable.extend(arrived)
                    runnable.sort(key=_KEY)
                else:
                    runnable[:0] = arrived
                return
        for inv in arrived:  # the general rules, arrival by arrival
            g = inv.groups[inv.req.scope]
            if not g.arrived:
                g.arrived = []
            g.arrived.append(inv)
            self._blocked(inv, g, inv.partials)


_REQ = attrgetter("req")
