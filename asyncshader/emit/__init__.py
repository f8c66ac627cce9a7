"""WGSL output: :func:`to_wgsl` turns a compute kernel or fragment shader into a WGSL module
(docs/to-gpu.md). ``wtypes`` holds the WGSL types, ``names`` the table from asyncshader's names
to WGSL's, ``resources`` the entry point's parameters, ``expressions`` and ``functions``
translate a function's body with its types (``matrices``, ``structs``, ``subgroups`` ... the
constructs with rules of their own), ``module`` assembles the module."""

from .module import Binding, Emitted, emit, to_wgsl
from .wtypes import WGSLEmitError

__all__ = ["Binding", "Emitted", "WGSLEmitError", "emit", "to_wgsl"]
