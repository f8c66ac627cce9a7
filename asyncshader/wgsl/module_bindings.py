"""Module-scope bindings: WGSL's ``@group(g) @binding(b) var<storage> name: T`` and
``var<uniform>``, declared once at module scope and used by name in a kernel and in the helpers
it calls, as WGSL shaders are written::

    particles = ash.storage(Particle, group=0, binding=1)
    params = ash.uniform(SimParams, group=0, binding=0)

    ash.run(step, 4, particles=arr, params=SimParams(dt=0.1))   # bound by name

The declaration is a placeholder (:class:`ModuleBinding`). A run finds the declarations its
kernel refers to by name (``scan_kernel``, as for workgroup variables), binds the values given
by those names exactly as it binds parameters (the same checks, read-only views, race-detector
views), and, while its shaders run, makes the names refer to the bound values: the module's
global (or the closure cell) is swapped for the run's value (:class:`Slots`). So ``particles[i]``
in a shader is a plain global load of the run's array, at parameter speed.

The swap is in place only while the run's invocations execute: a checkpoint (where an awaited
dispatch lets the host run), the switch to another workgroup and the end of the run put the
declarations back, so host code, and another dispatch that starts meanwhile, find the
declarations. Runs in different threads that use module-scope bindings take turns
(:data:`MODULE_BINDINGS_TURN`, part of a run's turn at its memory): two of them cannot both
hold the one module global."""

from __future__ import annotations

import inspect
import threading
import types
from typing import Any

from .bindings import BindingPoint, ReadOnly, Storage, Uniform, at

__all__ = [
    "MODULE_BINDINGS_TURN", "ModuleBinding", "Slots", "declared", "module_binding", "module_params",
    "storage", "uniform",
]

#: part of the turn (``wgsl.memory.MemoryTurn``) of a run that uses module-scope bindings: a
#: synchronous run holds it from its first step to its last, an awaited one between its
#: checkpoints (where its values are taken out again), so runs in other threads wait for it
#: (re-entrant: a run inside a run)
MODULE_BINDINGS_TURN = threading.RLock()
#: the places a run has swapped, with their declarations: what a kernel scanned meanwhile (in
#: another thread, or by to_wgsl) finds there
_SWAPPED: dict[Any, ModuleBinding] = {}


class ModuleBinding:
    """A module-scope binding (:func:`storage`, :func:`uniform`): the name a shader uses for
    the buffer or value each run binds by that name. Outside a run it holds nothing."""

    __slots__ = ("annotation", "point", "var_name")

    def __init__(self, annotation: Any, point: BindingPoint) -> None:
        self.annotation, self.point = annotation, point
        self.var_name = ""  # (the name a kernel refers to it by: set when a kernel is scanned)

    @property
    def space(self) -> str:
        """``"storage"``, ``"read"`` (read-only storage) or ``"uniform"``."""
        if issubclass(self.annotation, Storage):
            return "read" if self.annotation.access == "read" else "storage"
        return "uniform"

    def __repr__(self) -> str:
        space = {"storage": "storage, read_write", "read": "storage, read",
                 "uniform": "uniform"}[self.space]
        element = getattr(self.annotation.element, "__name__", self.annotation.element)
        return (f"<module-scope binding {self.var_name or '?'}: @group({self.point.group}) "
                f"@binding({self.point.binding}) var<{space}> of {element}>")

    def _unbound(self) -> Exception:
        name = self.var_name or "this binding"
        return TypeError(
            f"{name} is a module-scope binding ({self!r}): it holds a value only while a "
            f"run of a kernel that uses it executes, bound by name: ash.run(kernel, ..., "
            f"{name}=<array or value>). Fix: refer to it by its global name in the kernel or "
            "a helper it calls (not through a container), and bind it at the run")

    def __getitem__(self, index: Any) -> Any:
        raise self._unbound()

    def __setitem__(self, index: Any, value: Any) -> None:
        raise self._unbound()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # (tools probing for private or special attributes)
            raise AttributeError(name)
        raise self._unbound()

    def __len__(self) -> int:
        raise self._unbound()

    def __bool__(self) -> bool:
        return True  # (a declaration, not an empty container)


def storage(element: Any, *, group: int, binding: int, access: str = "read_write"
            ) -> ModuleBinding:
    """A module-scope storage buffer, WGSL's ``@group(group) @binding(binding)
    var<storage, read_write> name: array<element>`` (``access="read"``: ``var<storage, read>``).
    Use it by its global name in the kernel and its helpers; bind it by that name at each run
    (``ash.run(kernel, n, name=array)``), as a parameter annotated ``ash.Storage[element]``
    (``ash.ReadOnly[element]``) is bound."""
    if access not in ("read_write", "read"):
        raise TypeError(f"ash.storage(access=...) is 'read_write' or 'read', not {access!r}")
    marker = ReadOnly if access == "read" else Storage
    point = at(group, binding)
    return ModuleBinding(marker[element, point], point)


def uniform(element: Any, *, group: int, binding: int) -> ModuleBinding:
    """A module-scope uniform, WGSL's ``@group(group) @binding(binding) var<uniform> name:
    element``: used by its global name, bound by that name at each run (a value, a struct
    value, or an array for an ``array<T, N>`` element), as ``ash.Uniform[element]`` is."""
    point = at(group, binding)
    return ModuleBinding(Uniform[element, point], point)


class Slots:
    """Where one kernel's code reaches its module-scope bindings (entries of globals dicts,
    closure cells), and the values one run binds to them: :meth:`install` makes the names
    refer to the values, :meth:`restore` to the declarations."""

    def __init__(self, places: dict[str, tuple[ModuleBinding, list]]) -> None:
        self.places = places
        self.values: dict[str, Any] = {}
        self.held = False  # (installed)
        self.before: list = []  # (what the places held: declarations, or a run's around this)

    def install(self) -> None:
        """Makes the names refer to this run's values (the run holds its turn)."""
        if not self.held:
            self.held = True
            self.before = [(place, _get(place)) for _, where in self.places.values()
                           for place in where]
        for name, (decl, where) in self.places.items():
            for place in where:
                _SWAPPED[_key(place)] = decl
            _put(where, self.values[name])

    def restore(self) -> None:
        """Makes the names refer to what they did before :meth:`install`: the declarations
        (or, for a run inside a run, the outer run's values)."""
        if not self.held:
            return
        for place, value in self.before:
            _put([place], value)
            if isinstance(value, ModuleBinding):
                _SWAPPED.pop(_key(place), None)
        self.before = []
        self.held = False

    def __enter__(self) -> Slots:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.held:  # (the run stopped with its values in place: put back in its turn)
            with MODULE_BINDINGS_TURN:
                self.restore()


def module_binding(found: dict[str, tuple[ModuleBinding, list]], name: str,
                   decl: ModuleBinding, place: Any) -> None:
    """Records that a kernel's code reaches ``decl`` by ``name`` at ``place`` (for
    ``scan_kernel``). Its name is the one its first kernel refers to it by; one binding known by
    two names, or two bindings by one, is a TypeError (a run binds it by name)."""
    if not decl.var_name:
        decl.var_name = name
    name = decl.var_name
    known = found.get(name)
    if known is None:
        found[name] = (decl, [place])
    elif known[0] is not decl:
        raise TypeError(f"two module-scope bindings are named {name!r} ({known[0]!r} and "
                        f"{decl!r}); a run binds them by name. Fix: rename one")
    elif not any(_same(p, place) for p in known[1]):
        known[1].append(place)


def _same(a: Any, b: Any) -> bool:
    """Two places are one: the same cell, or the same key of the same namespace."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a[0] is b[0] and a[1] == b[1]
    return a is b


def module_params(kernel: str, params: dict[str, inspect.Parameter],
                  found: dict[str, tuple[ModuleBinding, list]]) -> dict[str, inspect.Parameter]:
    """The kernel's parameters and, after them, its module-scope bindings as the keyword
    parameters a run binds (annotated as declared). A binding named like a parameter, or at a
    parameter's ``ash.at(...)``, is a TypeError naming both."""
    out = dict(params)
    for name, (decl, _) in found.items():
        if name in params:
            raise TypeError(f"{kernel}: its parameter {name!r} and the module-scope binding "
                            f"{name!r} share a name; a run binds both by name. Fix: rename one")
        for other, p in out.items():
            if getattr(p.annotation, "point", None) == decl.point:
                what = "parameter" if other in params else "module-scope binding"
                raise TypeError(f"{kernel}: its {what} {other!r} and the module-scope "
                                f"binding {name!r} are both at @group({decl.point.group}) "
                                f"@binding({decl.point.binding}). Fix: move one")
        out[name] = inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                      annotation=decl.annotation)
    return out


def declared(place: Any, value: Any) -> Any:
    """What ``place`` holds outside any run: ``value``, or the declaration a running run has
    swapped out of it."""
    return _SWAPPED.get(_key(place), value) if _SWAPPED else value


def _key(place: Any) -> Any:
    return (id(place[0]), place[1]) if isinstance(place, tuple) else id(place)


def _get(place: Any) -> Any:
    return place.cell_contents if isinstance(place, types.CellType) else place[0][place[1]]


def _put(where: list, value: Any) -> None:
    for place in where:
        if isinstance(place, types.CellType):
            place.cell_contents = value
        else:
            namespace, key = place
            namespace[key] = value
