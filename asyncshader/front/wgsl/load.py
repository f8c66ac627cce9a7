"""``load_wgsl``: a WGSL module's text, checked and generated into kernels the runtime runs
(:mod:`.codegen`), cached by source text."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from ...collectives import barriers, derivatives, quads, subgroups
from ...exploration.parallel import Recipe
from ...stages import fragment
from ...wgsl import atomics, builtins, memory, module_bindings, operators, robust, structs, types
from ...wgsl.generated import compile_generated
from .check import Checker
from .codegen import generate
from .codegen_fast import NAMES as INDEXING
from .codegen_fast import fast_indexing
from .codegen_textures import TEXTURE_RUNTIME
from .consteval import UNKNOWN
from .kernels import WGSLComputeKernel, WGSLFragmentShader
from .parser import parse
from .pipeline import MISSING, Pipeline, pipeline_constants
from .reflect import Reflection, reflect
from .resolve import resolve
from .source import Source, WGSLError
from .syntax import VarDecl
from .value_helpers import VALUE_HELPERS, VALUE_RUNTIME

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
RUNTIME.discard = fragment.discard
vars(RUNTIME).update(VALUE_RUNTIME)
vars(RUNTIME).update(TEXTURE_RUNTIME)

#: WGSL's operators and robust accesses, by the names generated code calls them (as partials:
#: the kernel scan looks for shader memory in functions' globals, and theirs hold none)
HELPERS = {f"__ash_{f.__name__}": partial(f) for f in (
    operators.div, operators.mod, operators.shl, operators.shr, robust.load, robust.store)}
HELPERS.update(VALUE_HELPERS)

_CACHE: dict[tuple[str, str], WGSLModule] = {}


class WGSLModule:
    """A loaded WGSL module with its pipeline constants: ``module["main"]`` is the
    :class:`~asyncshader.ComputeKernel` of the entry point ``main``; ``module["Params"]`` a
    struct (an ``@ash.struct`` class) and ``module["N"]`` a module-scope ``const``'s or
    ``override``'s value, by their WGSL names."""

    def __init__(self, source: Source, kernels: dict[str, Any],
                 namespace: dict[str, Any], reflection: Reflection,
                 constants: dict[str, Any], refused: dict[str, str]) -> None:
        self.source, self.name = source, source.name
        self.kernels, self.namespace = kernels, namespace
        #: each entry point's stage, resources (``@group``/``@binding``, kind, access, least
        #: size) and overrides, as WebGPU's pipeline reflection gives them
        self.reflection = reflection
        #: the pipeline constants this module was made with, by override name
        self.constants = constants
        self.refused = refused  # entry point -> why it does not run
        self.uniformity = "error"  # what a uniformity failure was at load (load_wgsl's)

    @property
    def entry_points(self) -> list[str]:
        """The names of the module's entry points (of every stage, in order)."""
        return list(self.reflection.entry_points)

    def with_constants(self, constants: dict | None = None, /, **by_name: Any) -> WGSLModule:
        """This module's text made into a pipeline with other override values (WebGPU's
        pipeline ``constants``): this module's constants updated by ``constants`` (keyed by
        override name or ``@id``) and ``by_name``; loaded once per distinct set."""
        given = pipeline_constants(self.name, self.reflection.overrides,
                                   {**(constants or {}), **by_name})
        return load_source(self.source, constants={**self.constants, **given},
                           uniformity=self.uniformity)

    def __getitem__(self, name: str) -> Any:
        if name in self.kernels:
            return self.kernels[name]
        if name in self.refused:
            raise WGSLError(self.refused[name], self.name)
        if name in self.namespace and not name.startswith("__") and name != "ash":
            return self.namespace[name]
        raise KeyError(f"{self.name} has no entry point or declaration {name!r}; its entry "
                       f"points: {', '.join(self.entry_points) or 'none'}")

    def __repr__(self) -> str:
        return f"<WGSL module {self.name}: {', '.join(self.entry_points)}>"


def load_wgsl(source_or_path: str | Path, *, constants: dict | None = None,
              name: str | None = None, uniformity: str = "error") -> WGSLModule:
    """Loads a WGSL module (its text, or the path of a ``.wgsl`` file) into kernels that run as
    Python kernels do: ``ash.run(module["main"], workgroups, **bindings)``, bindings by their
    WGSL variable names or ``bindings={(group, binding): array}``, each buffer any numpy
    array whose bytes are viewed through the binding's WGSL type. The module is type-checked
    as a WGSL compiler does it; a construct outside the supported slice
    (docs/wgsl-testing.md) is a :class:`WGSLError` at its ``file:line:col``. Reports of a run
    (races, tracebacks) name the .wgsl file's lines: a text given as a string is named
    ``name`` (``"scan.wgsl"``), by default ``<wgsl HASH>.wgsl`` (a name per text).
    ``constants`` gives overrides their values as WebGPU's pipeline ``constants`` do (keyed
    by name or ``@id``); override-expressions, an
    ``@workgroup_size`` and the element count of a workgroup array among them, are evaluated
    with them at load (pipeline creation); :meth:`WGSLModule.with_constants` makes another
    pipeline of the same text. Loads are cached by name, source text and constants. A
    barrier, derivative or subgroup operation in non-uniform control flow is rejected as
    WGSL's uniformity analysis rejects it (:mod:`.uniformity`); ``uniformity="warning"``
    reports it as a :class:`~.uniformity.WGSLWarning` and loads the module anyway (to watch
    the divergence at run time), ``"off"`` skips the analysis."""
    if uniformity not in ("error", "warning", "off"):
        raise ValueError(f"load_wgsl: uniformity is 'error', 'warning' or 'off', not "
                         f"{uniformity!r}")
    if isinstance(source_or_path, Path) or (
            isinstance(source_or_path, str) and source_or_path.endswith(".wgsl")
            and "\n" not in source_or_path):  # (WGSL text never ends so: a path)
        if not Path(source_or_path).is_file():
            raise FileNotFoundError(f"load_wgsl: no WGSL file {str(source_or_path)!r}")
        source = Source.read(source_or_path)
    elif isinstance(source_or_path, str):
        digest = hashlib.sha1(source_or_path.encode("utf-8")).hexdigest()[:12]
        source = Source(source_or_path, name or f"<wgsl {digest}>.wgsl")
    else:
        raise TypeError(f"load_wgsl takes WGSL text or a .wgsl path, not "
                        f"{type(source_or_path).__name__}")
    if constants is not None and not isinstance(constants, dict):
        raise TypeError(f"load_wgsl(constants=...) takes a dict of override name or @id: "
                        f"value, not {type(constants).__name__}")
    return load_source(source, constants=constants, uniformity=uniformity)


def load_source(source: Source, *, constants: dict | None = None,
                uniformity: str = "error") -> WGSLModule:
    """:func:`load_wgsl` of a :class:`Source` (a text and the file name its reports show),
    cached by name, text, constants and ``uniformity``."""
    constants = constants or {}
    key = (source.name, source.text, tuple(sorted((str(k), repr(v))
                                                  for k, v in constants.items())), uniformity)
    if key not in _CACHE:
        _CACHE[key] = _load(source, constants, uniformity)
        for entry, kernel in _CACHE[key].kernels.items():  # (parallel explore sends these)
            kernel.__asyncshader_recipe__ = KernelRecipe(source.name, source.text, entry,
                                                         tuple(constants.items()), uniformity)
    return _CACHE[key]


@dataclass(frozen=True)
class KernelRecipe(Recipe):
    """A loaded kernel by reference to its source (generated code does not pickle): what
    ``explore(workers=N)`` sends to a worker, which loads the text once (cached) and takes
    the entry point."""

    name: str
    text: str
    entry: str
    constants: tuple = ()
    uniformity: str = "error"

    def resolve(self) -> Any:
        module = load_source(Source(self.text, self.name), constants=dict(self.constants),
                             uniformity=self.uniformity)
        return module.kernels[self.entry]


def _load(source: Source, constants: dict, uniformity: str = "error") -> WGSLModule:
    checker = Checker(resolve(parse(source), source))
    checker.uniformity = uniformity
    typed = checker.run()
    reflection = reflect(checker)
    named = pipeline_constants(source.name, reflection.overrides, constants)
    pipeline = Pipeline(checker, named)
    for decl in typed.resolved.module.decls:  # (the constants given convert, used or not)
        if isinstance(decl, VarDecl) and decl.name in named:
            pipeline.override(decl)
    gen = generate(checker, typed, RUNTIME)
    gen.pipeline, gen.reflection = pipeline, reflection
    tree = fast_indexing(gen.module())
    namespace = {"ash": RUNTIME, **HELPERS, **INDEXING, **gen.constants}
    try:
        compile_generated(tree, source.name, source.text, namespace)
    except SyntaxError as error:  # (CPython's limits: 20 nested blocks ...)
        raise WGSLError(f"{source.name}:{error.lineno}: error: not supported yet by load_wgsl: "
                        f"{error.msg} (a limit of Python's compiler)", source.name) from None
    refused = {name: _without_value(source.name, name, entry.overrides, reflection, named)
               for name, entry in reflection.entry_points.items()
               if any(not reflection.overrides[o].has_default and o not in named
                      for o in entry.overrides)}
    kernels: dict[str, Any] = {
        name: WGSLComputeKernel(namespace[name], size, source.name,
                                reflection.entry_points[name], namespace)
        for name, size in gen.entry_points.items() if name not in refused}
    for name, inputs in gen.fragments.items():
        if name not in refused:
            try:
                kernels[name] = WGSLFragmentShader(namespace[name], source.name,
                                                   reflection.entry_points[name], namespace,
                                                   inputs)
            except TypeError as exc:  # (a helper it calls uses a module-scope buffer)
                refused[name] = (f"{source.name}::{name}: not supported yet by load_wgsl: "
                                 f"this fragment entry point ({exc})")
    for kernel in kernels.values():  # (Lockstep compiles from the checked tree)
        kernel.python_names = gen.python_names
        kernel.checked = (checker, typed)
    for name, entry in reflection.entry_points.items():
        if entry.stage == "vertex":
            refused[name] = (f"{source.name}::{name} is a vertex entry point: asyncshader has "
                             "no vertex stage or rasterizer, so it does not run it; "
                             "run_fragments shades a grid of pixels from per-pixel inputs "
                             "(what the vertex stage would interpolate): run the fragment "
                             "entry point, and the vertex function's helpers from a compute "
                             "entry point")
    for decl in typed.resolved.module.decls:  # (module["N"]: an override's value)
        if isinstance(decl, VarDecl) and decl.kind == "override" and \
                pipeline.override(decl) not in (MISSING, UNKNOWN):
            namespace[decl.name] = gen.make_value(pipeline.override(decl),
                                                  checker.decl_type(decl), decl.span)
    module = WGSLModule(source, kernels, namespace, reflection, named, refused)
    module.uniformity = uniformity
    return module


def _without_value(file: str, entry: str, used: tuple[str, ...], reflection: Reflection,
                   named: dict) -> str:
    """Why ``entry`` does not run: the overrides it uses that have no value."""
    gaps = [o for o in used if not reflection.overrides[o].has_default and o not in named]
    keys = ", ".join(f"{o!r}" + (f" (or {reflection.overrides[o].id})"
                                 if reflection.overrides[o].id is not None else "")
                     for o in gaps)
    return (f"{file}::{entry} uses the override{'s' if len(gaps) > 1 else ''} "
            f"{', '.join(gaps)}, which {'have' if len(gaps) > 1 else 'has'} no default and no "
            f"value: give {'them' if len(gaps) > 1 else 'it'} one as a pipeline does, "
            f"load_wgsl(..., constants={{{keys}: ...}}) or module.with_constants(...)")
