"""Traps: the only way a shader suspends.

A shader coroutine suspends by awaiting :func:`suspend` with a request object; the scheduler reads
the request and decides what happens. There are two kinds of request, and the scheduler core knows
nothing else about them:

* :class:`Rendezvous`: the invocation blocks until every member of its group (named by
  ``scope``) stands at the same rendezvous (same ``op``, same call site); then ``resolve`` turns
  the values the members deposited into the value each member gets back.
  A rendezvous kind's request may also be yielded as the pair ``(kind, value)``
  (:func:`rendezvous_kind`): the same request, without an object made per call.
* :class:`Point`: a scheduling point. The invocation stays runnable; when the schedule next picks
  it, ``apply(invocation)`` runs and its result is what the ``await`` returns. Atomics are points,
  so the schedule decides the order in which concurrent atomics land.

Everything WGSL-specific (barriers, derivatives, quad and subgroup operations, atomics) is built
from these two in other modules.
"""

from __future__ import annotations

import inspect
import types
import weakref
from collections.abc import Callable, Generator
from typing import Any

POINT = 0
RENDEZVOUS = 1

#: ``resolve(values_by_lane, group) -> results_by_lane`` (``None``: every member gets ``None``)
Resolver = Callable[[list, Any], list]


class Rendezvous:
    """A request to meet the other members of a group.

    ``op`` names the operation for messages and for matching (members at different ops or call
    sites diverge); ``scope`` names the group (``"workgroup"``, ``"quad"``); ``value`` is what
    this member deposits; ``resolve`` computes the results.
    """

    __slots__ = ("op", "resolve", "scope", "value")
    _ash_kind = RENDEZVOUS
    _fixed_op = False  # True for a rendezvous_kind: instances of one class share their op

    def __init__(self, op: str, scope: str, value: Any = None,
                 resolve: Resolver | None = None) -> None:
        self.op = op
        self.scope = scope
        self.value = value
        self.resolve = resolve

    def __repr__(self) -> str:
        return f"Rendezvous({self.op!r}, scope={self.scope})"


def _init_value(self: Rendezvous, value: Any) -> None:
    self.value = value


def rendezvous_kind(op: str, scope: str, resolve: Resolver | None,
                    base: type[Rendezvous] = Rendezvous) -> Callable[[Any], Rendezvous]:
    """A :class:`Rendezvous` subclass for one ``(op, scope, resolve)``: its instances carry only
    the deposited value (``kind(value)``), which makes them cheaper to create than a full
    request. For traps in shaders' inner loops (derivatives), which yield the pair
    ``(kind, value)`` instead: the scheduler makes the request from it only where it needs one
    (:func:`from_pair`), and the lean rounds of :mod:`asyncshader.lean` never do. ``resolve``
    must not read the group's members: a lean unit has none yet."""
    kind = type(f"{base.__name__}[{op}]", (base,), {
        "__slots__": (), "op": op, "scope": scope, "_fixed_op": True,
        "resolve": None if resolve is None else staticmethod(resolve),
        "__init__": _init_value, "__module__": base.__module__})
    KINDS.add(kind)
    return kind


#: the classes :func:`rendezvous_kind` made: a yielded ``(kind, value)`` pair names one of them
KINDS: set[type] = set()


def from_pair(obj: Any) -> Any:
    """The request a yielded ``(kind, value)`` pair stands for (``kind(value)``); any other
    object unchanged (the scheduler reports it as a foreign await)."""
    if len(obj) == 2 and obj[0].__class__ is type and obj[0] in KINDS:
        return obj[0](obj[1])
    return obj


class Point:
    """A scheduling point: subclasses implement :meth:`apply`, run when the invocation resumes."""

    __slots__ = ()
    _ash_kind = POINT
    op = "point"

    def apply(self, invocation: Any) -> Any:
        """Performs the operation for ``invocation``; the result is the ``await``'s value."""
        return None


def trap_function(fn: Any) -> Any:
    """Marks a public function that returns a trap, so that decorators can check that every call
    to it in a shader is awaited (:mod:`asyncshader.source_checks`). A trap function returns a
    generator (:func:`suspend`'s, or is a ``@types.coroutine`` generator function), never a
    coroutine: awaiting it then suspends the shader in the shader's own frame."""
    if inspect.iscoroutinefunction(fn):
        raise TypeError(f"trap_function({fn.__qualname__}): a trap is a generator "
                        "(return suspend(request)), not an async def")
    fn.__ash_trap__ = True
    TRAP_FUNCTIONS.add(fn)
    return fn


#: the functions :func:`trap_function` marked (``functools.wraps`` copies the mark to wrappers,
#: which may return anything; this set holds only the marked functions themselves)
TRAP_FUNCTIONS: weakref.WeakSet = weakref.WeakSet()


@types.coroutine
def suspend(request: Rendezvous | Point) -> Generator[Any, Any, Any]:
    """Suspends the calling shader with ``request``; returns what the scheduler sends back."""
    return (yield request)


def constant_trap(request: Rendezvous | Point, name: str, module: str, doc: str) -> Any:
    """A trap function without arguments that always suspends with ``request`` (the barriers):
    the generator *is* the trap, with no wrapper call around :func:`suspend`, because barriers
    sit in every shader's inner loop. Marked with :func:`trap_function`."""

    @types.coroutine
    def trap() -> Generator[Any, Any, Any]:
        return (yield request)

    trap.__name__ = trap.__qualname__ = name
    trap.__module__, trap.__doc__ = module, doc
    return trap_function(trap)
