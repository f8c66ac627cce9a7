"""The kernels of a loaded WGSL module: a compute entry point is a
:class:`~asyncshader.ComputeKernel` that binds its resources as a GPU does, by WGSL variable
name or by ``bindings={(group, binding): array}``, each buffer's bytes viewed through its WGSL
type (:mod:`.bindings`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...stages.compute import ComputeKernel
from .bindings import resolve_bindings
from .reflect import EntryPoint


class WGSLComputeKernel(ComputeKernel):
    """A compute entry point of a loaded WGSL module (``module["main"]``): runs as a Python
    kernel does; ``entry`` is its reflection (resources, overrides)."""

    def __init__(self, fn: Callable, workgroup_size: tuple[int, int, int], file: str,
                 entry: EntryPoint, structs: Mapping[str, Any]) -> None:
        super().__init__(fn, workgroup_size, None)
        self.file, self.entry, self.structs = file, entry, structs

    def resolve_bindings(self, given: dict[str, Any]) -> dict[str, Any]:
        """``given`` by WGSL variable name, ``bindings={(group, binding): ...}`` resolved to
        the variables this entry point uses, each numpy array viewed through its binding's
        WGSL type (:func:`.bindings.view_binding`)."""
        return resolve_bindings(f"{self.file}::{self.entry.name}", self.entry, given,
                                self.structs)

    def __repr__(self) -> str:
        return (f"<WGSL compute entry point {self.file}::{self.entry.name} "
                f"workgroup_size={self.workgroup_size}>")
