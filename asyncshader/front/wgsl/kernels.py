"""The kernels of a loaded WGSL module: a compute entry point is a
:class:`~asyncshader.ComputeKernel` and a fragment entry point a
:class:`~asyncshader.FragmentShader` that bind their resources as a GPU does, by WGSL variable
name or by ``bindings={(group, binding): array}``, each buffer's bytes viewed through its WGSL
type (:mod:`.bindings`); a fragment's ``@location`` inputs are bound by their WGSL names or as
``location_N``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...errors import BindingError
from ...stages.compute import ComputeKernel
from ...stages.fragment import FragmentShader
from .bindings import resolve_bindings
from .codegen_entry import FragmentInput
from .reflect import EntryPoint


class _Loaded:
    """What the kernels of a loaded module share: their file, reflection and structs."""

    file: str
    entry: EntryPoint
    structs: Mapping[str, Any]
    #: the Python names of variables whose WGSL names Python cannot use (``in``: ``in_``)
    python_names: Mapping[str, str] = {}
    #: the module's checked tree, ``(checker, typed module)``, as load_wgsl made it (the
    #: Lockstep back-end compiles from it rather than checking the text again); None when
    #: the kernel was not made by load_wgsl
    checked: tuple[Any, Any] | None = None

    @property
    def where(self) -> str:
        """``file.wgsl::entry``."""
        return f"{self.file}::{self.entry.name}"

    @property
    def overrides_fixed(self) -> str:
        """Why a dispatch's ``overrides=`` does not apply: a loaded module's overrides are
        pipeline constants, given at load."""
        return (f"{self.where}: overrides of a loaded WGSL module are pipeline constants, "
                "fixed when the module is loaded (they may size the workgroup): pass "
                "load_wgsl(..., constants={...}) or use "
                f"module.with_constants(...)[{self.entry.name!r}], not overrides=")

    def resolve_bindings(self, given: dict[str, Any]) -> dict[str, Any]:
        """``given`` by WGSL variable name, ``bindings={(group, binding): ...}`` resolved to
        the variables this entry point uses, each numpy array viewed through its binding's
        WGSL type (:func:`.bindings.view_binding`); each under its variable's Python name."""
        bound = resolve_bindings(self.where, self.entry, given, self.structs)
        if not self.python_names:
            return bound
        return {self.python_names.get(name, name): value for name, value in bound.items()}


class WGSLComputeKernel(_Loaded, ComputeKernel):
    """A compute entry point of a loaded WGSL module (``module["main"]``): runs as a Python
    kernel does; ``entry`` is its reflection (resources, overrides)."""

    def __init__(self, fn: Callable, workgroup_size: tuple[int, int, int], file: str,
                 entry: EntryPoint, structs: Mapping[str, Any]) -> None:
        super().__init__(fn, workgroup_size, None)
        self.file, self.entry, self.structs = file, entry, structs

    def __repr__(self) -> str:
        return f"<WGSL compute entry point {self.where} workgroup_size={self.workgroup_size}>"


class WGSLFragmentShader(_Loaded, FragmentShader):
    """A fragment entry point of a loaded WGSL module, run with
    :func:`~asyncshader.run_fragments`: its ``@location`` inputs are per-pixel inputs by
    their WGSL names (a parameter's, a struct parameter's members') or ``location_N``, its
    built-ins the fragment stage's, its buffers bound as a compute kernel's are."""

    def __init__(self, fn: Callable, file: str, entry: EntryPoint,
                 structs: Mapping[str, Any], inputs: list[FragmentInput]) -> None:
        super().__init__(fn)
        self.file, self.entry, self.structs = file, entry, structs
        self.inputs = inputs

    def resolve_bindings(self, given: dict[str, Any]) -> dict[str, Any]:
        """Per-pixel inputs by WGSL name or ``location_N``, then the resources as a compute
        kernel's (:meth:`_Loaded.resolve_bindings`)."""
        given = dict(given)
        found: dict[str, Any] = {}
        for i in self.inputs:
            alias = f"location_{i.location}" if i.location is not None else None
            if i.name in given and alias in given:
                raise BindingError(f"{self.where}: the input {i.name!r} is given twice, by "
                                   f"name and as {alias}; give it once")
            key = i.name if i.name in given else alias
            if key not in given:
                raise BindingError(
                    f"{self.where}: missing fragment input {i.name!r} (@location("
                    f"{i.location}) {i.wgsl}): pass {i.name}= or {alias}= an array "
                    "(height, width[, n]) or a callable (x, y) -> value\n"
                    f"{self.where} takes the inputs " + ", ".join(
                        f"{j.name} (@location({j.location}) {j.wgsl})" for j in self.inputs))
            found[i.name] = given.pop(key)
        return {**found, **super().resolve_bindings(given)}

    def __repr__(self) -> str:
        return f"<WGSL fragment entry point {self.where}>"
