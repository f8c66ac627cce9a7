"""Lean units: how the in-order fast path runs a unit before any :class:`Invocation` exists.

A front-end may hand the scheduler a *lean* unit (:attr:`Group.coros`: its members' coroutines,
in lane order) instead of one with members. A fragment dispatch does, for its quads: making four
invocation objects per quad costs more than the coroutines themselves do. The in-order fast path
then runs the unit on the coroutines alone, one whole-group rendezvous after another: each round
sends every member its value, checks that all arrived at one rendezvous kind of the unit's scope
(yielded as ``(kind, value)`` pairs: :func:`~asyncshader.traps.rendezvous_kind`) at one call
site, and resolves it, until all return in the same round.

Anything else *escapes*: a scheduling point, an exception, a member that returned while another
waits, a request of another kind or scope, a foreign await, members at different call sites. The
unit then makes its members (:meth:`Group.materialize`), the members this round already resumed
get their outcome back through a one-shot :class:`_Replay`, and the ordinary in-order rounds take
over exactly where the round stands. So the lean path only ever decides the common case; every
error, message and trace comes from the ordinary loop, from the same state.
"""

from __future__ import annotations

from typing import Any

from .invocations import Group, _coro_sites
from .traps import KINDS, from_pair


class _Replay:
    """What a coroutine gave a lean round that then escaped, handed back once: the loop that
    takes over sends to this instead of the coroutine and gets the same request (or the same
    return, or the same exception); from then on the coroutine itself is back in place."""

    __slots__ = ("coro", "inv", "outcome", "raised")

    def __init__(self, inv: Any, outcome: Any, raised: bool) -> None:
        self.inv, self.coro, self.outcome, self.raised = inv, inv.coro, outcome, raised

    def send(self, value: Any) -> Any:
        self.inv.coro = self.coro
        if self.raised:
            raise self.outcome  # (a StopIteration when the coroutine returned)
        return self.outcome

    def close(self) -> None:
        self.coro.close()

    def __getattr__(self, name: str) -> Any:  # cr_frame, cr_await: the coroutine's
        return getattr(self.coro, name)


_NONES = (None, None, None, None)


class LeanRounds:
    """The scheduler's lean-unit rounds (a mixin: it reads and counts the scheduler's fields)."""

    steps: int
    canonical_tail: int
    rendezvous: int
    _next_checkpoint: int

    def _lean_setup(self, direct_sites: bool) -> None:
        self._lean_direct = direct_sites  # call sites are the frames' instructions alone
        self._lean_kinds: dict[str, set] = {}  # scope -> request classes a lean round accepts

    def _run_lean(self, unit: Group, others: int) -> tuple[bool | None, Group]:
        """Runs lean ``unit``'s rounds in order (``others``: the other live units' invocations).
        Returns ``(status, unit)``: True once every member returned and the unit retired
        (a successor that is not lean is then live, for the in-order loop to switch to);
        False at a checkpoint (``unit.values`` keeps what to send next); None when it escaped
        (the members exist and hold the round's state).

        With no other unit live and nothing watching units retire, a finished unit's successor
        starts here (:meth:`_lean_successor`) and, when it is lean too, its rounds run on in
        this call: the ``unit`` returned is then the one the run stopped in. A fragment
        dispatch's quads all go through one call until something escapes or checkpoints.

        Lean units have four members (quads), and the round is written out for four: a loop
        over the members costs a third more (measured), on the path every fragment takes.
        Each member's request is checked as soon as it comes, as the ordinary loop does: an
        invocation at a scheduling point must run on before the next one is resumed."""
        scope = unit.scope
        good = self._lean_kinds.get(scope)
        if good is None:
            good = self._lean_kinds[scope] = set()
        direct = self._lean_direct
        decisions = 3 if others == 0 else 4  # the last step of a round runs alone
        stream = others == 0 and self.max_live == 1 and not self._hooks["unit_retired"]
        steps, tail, met = self.steps, self.canonical_tail, 0
        try:
            while True:  # the units, while each one's successor is lean
                c0, c1, c2, c3 = coros = unit.coros  # type: ignore[misc]
                f0, f1, f2, f3 = c0.cr_frame, c1.cr_frame, c2.cr_frame, c3.cr_frame
                v0, v1, v2, v3 = unit.values or _NONES
                r0 = r1 = r2 = None
                while True:  # its rounds
                    lane = 0  # the member being resumed
                    try:
                        r0 = c0.send(v0)
                        kind = r0[0] if r0.__class__ is tuple and len(r0) == 2 else None
                        if (kind.__class__ is not type or kind not in good) and not _accepts(
                                good, kind, scope):
                            return self._escape(unit, [], [v0, v1, v2, v3], (r0, False))
                        lane = 1
                        r1 = c1.send(v1)
                        if r1.__class__ is not tuple or len(r1) != 2 or r1[0] is not kind:
                            return self._escape(unit, [r0], [v0, v1, v2, v3], (r1, False))
                        lane = 2
                        r2 = c2.send(v2)
                        if r2.__class__ is not tuple or len(r2) != 2 or r2[0] is not kind:
                            return self._escape(unit, [r0, r1], [v0, v1, v2, v3], (r2, False))
                        lane = 3
                        r3 = c3.send(v3)
                        if r3.__class__ is not tuple or len(r3) != 2 or r3[0] is not kind:
                            return self._escape(unit, [r0, r1, r2], [v0, v1, v2, v3],
                                                (r3, False))
                    except StopIteration as stop:
                        values = [v0, v1, v2, v3]
                        if lane:  # returned while others wait: the ordinary loop says so
                            return self._escape(unit, [r0, r1, r2][:lane], values, (stop, True))
                        # the first returned: the others must return too. Their values are
                        # kept, not the StopIterations: a kept exception's traceback holds this
                        # frame, whose locals hold the exception, a cycle only the garbage
                        # collector frees (measured: a quarter of a fragment's time went to it)
                        stops = [stop.value]
                        for c, v in ((c1, v1), (c2, v2), (c3, v3)):
                            try:
                                r = c.send(v)
                            except StopIteration as s:
                                stops.append(s.value)
                                continue
                            except BaseException as exc:
                                return self._escape(unit, stops, values, (exc, True), True)
                            return self._escape(unit, stops, values, (r, False), True)
                        steps += 4
                        tail += decisions
                        unit.results = stops
                        break
                    except BaseException as exc:
                        return self._escape(unit, [r0, r1, r2][:lane], [v0, v1, v2, v3],
                                            (exc, True))
                    if direct:  # the frames' instructions alone
                        site = f0.f_lasti
                        same = f1.f_lasti == site and f2.f_lasti == site and f3.f_lasti == site
                    else:
                        sites = _coro_sites(coros)
                        same = sites.count(sites[0]) == 4
                    if not same:  # divergence: the ordinary loop reports it
                        return self._escape(unit, [r0, r1, r2], [v0, v1, v2, v3], (r3, False))
                    resolve = kind.resolve
                    if resolve is None:
                        v0 = v1 = v2 = v3 = None
                    else:
                        try:
                            v0, v1, v2, v3 = resolve([r0[1], r1[1], r2[1], r3[1]], unit)
                        except Exception:  # values that do not combine: the loop says so
                            return self._escape(unit, [r0, r1, r2], [v0, v1, v2, v3],
                                                (r3, False))
                    steps += 4  # (counted once resolved: an escape's round counts its own)
                    tail += decisions
                    met += 1
                    if steps >= self._next_checkpoint:
                        unit.values = [v0, v1, v2, v3]
                        return False, unit
                if not stream or steps >= self._next_checkpoint:  # (the host's turn first)
                    self._retire(unit)
                    return True, unit
                successor = self._lean_successor(unit)
                if successor is None:
                    return True, unit
                unit = successor
        finally:
            self.steps, self.canonical_tail = steps, tail
            self.rendezvous += met

    def _lean_successor(self, unit: Group) -> Group | None:
        """Retires finished lean ``unit``, the only live unit, and starts the next one, as the
        in-order loop would (:meth:`_retire`, :meth:`_fill`, :meth:`_switch`): returns it when it
        is lean, to be run on at once; otherwise None (the next unit, if any, is live with its
        members made, for the in-order loop to switch to)."""
        live = self.live
        live.clear()
        self.live_size = 0
        context = unit.context
        if context is not None:
            context.exit()
        if self.exhausted:
            return None
        nxt = next(self.units, None)
        if nxt is None:
            self.exhausted = True
            return None
        live.append(nxt)
        self.live_size = size = nxt.size
        self.invocations += size
        coros = nxt.coros
        if coros is None or len(coros) != 4 or nxt.scope != unit.scope:
            if coros is not None:
                nxt.materialize()
            return None
        new = nxt.context
        if new is not None:
            new.enter(context)
        self.switches += 1
        return nxt

    def _escape(self, unit: Group, got: list, values: list, last: tuple[Any, bool],
                returned: bool = False) -> tuple[None, Group]:
        """Makes ``unit``'s members and leaves each as the ordinary loop expects it at the start
        of this round: the members this round resumed (``got``: their requests, or their
        return values when ``returned``; then ``last``) replay their outcome once; the others
        hold the value they are to get."""
        unit.materialize()
        members = unit.members
        sent = [(StopIteration(x) if returned else from_pair(x), returned) for x in got]
        outcome, raised = last
        sent.append((outcome if raised or outcome.__class__ is not tuple else from_pair(outcome),
                     raised))
        for m, v in zip(members, values):
            m.value = v
        for m, (outcome, raised) in zip(members, sent):
            m.value = None
            m.coro = _Replay(m, outcome, raised)
        unit.valued = True
        unit.values = None
        return None, unit


def _accepts(good: set, kind: Any, scope: str) -> bool:
    """Whether a lean round can take a pair naming ``kind`` (None: not a pair): a rendezvous
    kind (:func:`~asyncshader.traps.rendezvous_kind`) of the unit's scope. Remembered in
    ``good``."""
    if kind.__class__ is type and kind in KINDS and kind.scope == scope:
        good.add(kind)
        return True
    return False
