"""``load_wgsl``: a WGSL module's text, checked and generated into kernels the runtime runs
(:mod:`.codegen`), cached by source text."""

from __future__ import annotations

import hashlib
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from ...collectives import barriers, derivatives, quads, subgroups
from ...stages.compute import ComputeKernel, compute
from ...wgsl import atomics, builtins, memory, module_bindings, operators, robust, structs, types
from ...wgsl.generated import compile_generated
from .check import Checker
from .codegen import generate
from .codegen_fast import NAMES as INDEXING
from .codegen_fast import fast_indexing
from .parser import parse
from .reflect import Reflection, reflect
from .resolve import resolve
from .source import Source, WGSLError

#: the names generated code reaches as ``ash.<name>``: asyncshader's own, from the layers
#: below this one
RUNTIME = ModuleType("asyncshader.front.wgsl.runtime", "What generated code calls `ash`.")
for _module in (types, builtins, atomics, barriers, derivatives, quads, subgroups):
    for _name, _value in vars(_module).items():
        if not _name.startswith("_") and not isinstance(_value, ModuleType) and \
                not hasattr(RUNTIME, _name):
            setattr(RUNTIME, _name, _value)
RUNTIME.storage, RUNTIME.uniform = module_bindings.storage, module_bindings.uniform
RUNTIME.workgroup, RUNTIME.ptr, RUNTIME.struct = memory.workgroup, memory.ptr, structs.struct

#: WGSL's operators and robust accesses, by the names generated code calls them (as partials:
#: the kernel scan looks for shader memory in functions' globals, and theirs hold none)
HELPERS = {f"__ash_{f.__name__}": partial(f) for f in (
    operators.div, operators.mod, operators.shl, operators.shr, robust.load, robust.store)}

_CACHE: dict[tuple[str, str], WGSLModule] = {}


class WGSLModule:
    """A loaded WGSL module: ``module["main"]`` is the :class:`~asyncshader.ComputeKernel` of
    the entry point ``main``; ``module["Params"]`` a struct (an ``@ash.struct`` class) and
    ``module["N"]`` a module-scope ``const``'s value, by their WGSL names."""

    def __init__(self, name: str, kernels: dict[str, ComputeKernel],
                 namespace: dict[str, Any], reflection: Reflection) -> None:
        self.name, self.kernels, self.namespace = name, kernels, namespace
        #: each entry point's stage, resources (``@group``/``@binding``, kind, access, least
        #: size) and overrides, as WebGPU's pipeline reflection gives them
        self.reflection = reflection

    @property
    def entry_points(self) -> list[str]:
        """The names of the module's entry points."""
        return list(self.kernels)

    def __getitem__(self, name: str) -> Any:
        if name in self.kernels:
            return self.kernels[name]
        if name in self.namespace and not name.startswith("__") and name != "ash":
            return self.namespace[name]
        raise KeyError(f"{self.name} has no entry point or declaration {name!r}; its entry "
                       f"points: {', '.join(self.kernels) or 'none'}")

    def __repr__(self) -> str:
        return f"<WGSL module {self.name}: {', '.join(self.kernels)}>"


def load_wgsl(source_or_path: str | Path, *, constants: dict | None = None) -> WGSLModule:
    """Loads a WGSL module (its text, or the path of a ``.wgsl`` file) into kernels that run as
    Python kernels do: ``ash.run(module["main"], workgroups, **bindings)``, bindings by their
    WGSL variable names. The module is type-checked as a WGSL compiler does it; a construct
    outside the supported slice (docs/wgsl-testing.md) is a :class:`WGSLError` at its
    ``file:line:col``. Reports of a run (races, tracebacks) name the .wgsl file's lines: a
    text given as a string is named ``<wgsl HASH>.wgsl`` (a name per text). Loads are cached
    by source text. ``constants`` (values of overrides) must be empty: overrides are
    refused."""
    if isinstance(source_or_path, Path) or (
            isinstance(source_or_path, str) and source_or_path.endswith(".wgsl")
            and "\n" not in source_or_path):  # (WGSL text never ends so: a path)
        if not Path(source_or_path).is_file():
            raise FileNotFoundError(f"load_wgsl: no WGSL file {str(source_or_path)!r}")
        source = Source.read(source_or_path)
    elif isinstance(source_or_path, str):
        digest = hashlib.sha1(source_or_path.encode("utf-8")).hexdigest()[:12]
        source = Source(source_or_path, f"<wgsl {digest}>.wgsl")
    else:
        raise TypeError(f"load_wgsl takes WGSL text or a .wgsl path, not "
                        f"{type(source_or_path).__name__}")
    if constants:
        raise WGSLError(f"{source.name}: not supported yet by load_wgsl: constants= "
                        f"(override values: {', '.join(map(str, constants))})", source.name)
    key = (source.name, source.text)
    if key not in _CACHE:
        _CACHE[key] = _load(source)
    return _CACHE[key]


def _load(source: Source) -> WGSLModule:
    checker = Checker(resolve(parse(source), source))
    typed = checker.run()
    gen = generate(checker, typed, RUNTIME)
    tree = fast_indexing(gen.module())
    namespace = {"ash": RUNTIME, **HELPERS, **INDEXING, **gen.constants}
    compile_generated(tree, source.name, source.text, namespace)
    kernels = {name: compute(workgroup_size=size)(namespace[name])
               for name, size in gen.entry_points.items()}
    return WGSLModule(source.name, kernels, namespace, reflect(checker))
