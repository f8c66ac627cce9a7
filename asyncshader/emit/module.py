"""A whole WGSL module from a compute kernel or fragment shader: :func:`to_wgsl`, :func:`emit`.

The module holds, in this order: ``enable`` directives, constants the shader reads from its
Python module, structs, bindings (``@group(0) @binding(k)``, one per resource parameter, in
parameter order), ``var<workgroup>`` variables, the helper functions the shader calls (each
specialised to the argument types of its calls), and the entry point.

Types are inferred in passes: a pass translates everything, learning the types that uses reveal
(a storage buffer's element from what is stored into it, a literal local's type from what it
meets); passes repeat until nothing new is learnt, and the last one writes the text."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ShaderCreationError
from ..wgsl.memory import scan_kernel
from ..wgsl.rewrite import _is_user_function
from . import atomics, consts, overrides, resources, results
from .expressions import E, Memory
from .functions import Function, wgsl_identifier
from .names import RESERVED, annotation_fix
from .pointers import Pointer
from .resources import COMPUTE_BUILTINS, FRAGMENT_BUILTINS
from .structs import declarations, reachable
from .wtypes import (
    AFLOAT,
    AINT,
    BOOL,
    F32,
    Array,
    Atomic,
    Elements,
    Predeclared,
    Scalar,
    Struct,
    Unknown,
    Vector,
    WGSLEmitError,
    from_python,
)

_ZERO_NOTE = ("// var<workgroup> memory starts zeroed in WGSL; some implementations (Mesa's "
              "lavapipe) skip it,\n    // so the emitted shader zeroes it (docs/to-gpu.md)")


@dataclass
class Binding:
    """One resource of the emitted module."""

    name: str
    binding: int
    space: str          # "storage", "read", "uniform"
    type: Any           # the WGSL type (Array for buffers)
    wgsl: str = ""      # its name in WGSL (the parameter's, unless WGSL reserves that)
    group: int = 0      # its @group (binding: its @binding)


@dataclass
class Emitted:
    """An emitted module and what a caller needs to run it: the entry point's name and stage,
    the workgroup size, the bindings (in binding order), the fragment inputs and output."""

    source: str
    entry: str
    stage: str
    workgroup_size: tuple[int, int, int] | None
    bindings: list[Binding]
    inputs: list[tuple[str, Any]] = field(default_factory=list)
    output: Any = None
    call_params: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.source


def to_wgsl(shader: Any, *, zero_workgroup_memory: bool = True, **bindings: Any) -> str:
    """The WGSL module of a compute kernel or fragment shader, as text.

    ``bindings`` are optional: the arrays and values a dispatch would bind (``buf=np.zeros(64,
    np.float32)``), from which buffer element types and fragment input types are taken; without
    them types come from annotations (``buf: ash.Storage[f32]``) and from how the shader uses
    the names. Raises :class:`WGSLEmitError` naming the file:line, the construct and the fix
    for what WGSL cannot express. ``zero_workgroup_memory`` (default True) zeroes
    ``var<workgroup>`` memory at the entry point's start (see docs/to-gpu.md)."""
    return emit(shader, zero_workgroup_memory=zero_workgroup_memory, **bindings).source


def emit(shader: Any, *, zero_workgroup_memory: bool = True, as_function: bool = False,
         **bindings: Any) -> Emitted:
    """:func:`to_wgsl` with what a runner needs (:class:`Emitted`). ``as_function`` writes a
    fragment entry point as a plain function of its builtins and inputs (for a harness that
    feeds it: :mod:`asyncshader.extra.harness`)."""
    stage = getattr(shader, "stage", None)
    if stage not in ("compute", "fragment"):
        raise WGSLEmitError(f"to_wgsl takes a @compute kernel or a @fragment shader, not "
                            f"{shader!r}")
    module = Module(shader, bindings, zero_workgroup_memory)
    module.as_function = as_function
    for _ in range(8):
        module.translate(final=False)
        if not module.changed:
            break
    module.translate(final=True)
    return module.assemble()


class Module:
    """The state of one emission: types learnt, module-scope declarations, helpers."""

    def __init__(self, shader: Any, bindings: dict[str, Any], zero: bool) -> None:
        self.shader, self.given, self.zero = shader, bindings, zero
        self.fn = shader.fn
        self.stage = shader.stage
        self.resolution: dict[Unknown, Any] = {}
        self.defaults: dict[Unknown, Any] = {}
        self.atomic_buffers: set[str] = set()
        self.pools: dict[str, list[Memory]] = {}
        self.final_pass = False
        self.changed = False
        self.module_decls: dict = {}  # module-scope bindings, by name (scan_kernel)
        try:
            scan_kernel(self.fn, self.module_decls)
        except ShaderCreationError:
            pass  # (recursion: the translation names the call's line)
        unknown = set(bindings) - set(shader.params) - set(self.module_decls)
        if unknown:
            raise WGSLEmitError(f"{self.fn.__qualname__} has no parameter "
                                f"{', '.join(sorted(unknown))}; it takes "
                                f"{', '.join([*shader.params, *self.module_decls])}")

    # ------------------------------------------------------------------------------ types
    def resolved(self, t: Any) -> Any:
        while isinstance(t, Unknown) and t in self.resolution:
            t = self.resolution[t]
        return t

    def learn(self, u: Unknown, t: Any) -> Any:
        if isinstance(t, Scalar) and t.abstract:
            if t != AFLOAT or not isinstance(u, Elements):
                return u
            t = F32  # (a module tuple of ints met by a Python float: an array<f32>)
        self.resolution[u] = t
        self.changed = True
        return t

    def unify(self, a: Any, b: Any, node: ast.AST, fn: Any) -> Any:
        """The common type of two operands (WGSL converts abstract literals, nothing else)."""
        a, b = self.resolved(a), self.resolved(b)
        if a == b:
            return a
        for x, y in ((a, b), (b, a)):  # a Python int local meets a float: it stays an int
            if self.int_local(x) and isinstance(y, Scalar) and y.kind == "f":
                return y if not y.abstract else AFLOAT
        if isinstance(a, Unknown):
            return a if isinstance(b, Unknown) else self.learn(a, b)
        if isinstance(b, Unknown):
            return self.learn(b, a)
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            if a.abstract and b.abstract:
                return AFLOAT if AFLOAT in (a, b) else AINT
            for x, y in ((a, b), (b, a)):
                if x.abstract and y != BOOL and (x == AINT or y.kind == "f"):
                    return y
        if isinstance(a, Vector) and isinstance(b, Vector) and a.size == b.size:
            return Vector(a.size, self.unify(a.scalar, b.scalar, node, fn))
        fn.fail(node, f"mixing {_name(a)} and {_name(b)} (WGSL converts no types implicitly)",
                f"convert one side explicitly, e.g. {_name(_concrete(a))}(x)")

    def int_local(self, t: Any) -> bool:
        """``t`` is the type of a local given only Python ints, not yet decided."""
        return isinstance(t, Unknown) and not isinstance(t, Elements) and t not in \
            self.resolution and getattr(self.defaults.get(t), "kind", "") == "i"

    def local_type(self, key: str, name: str, default: Any) -> Unknown:
        u = Unknown(f"{key}.{name}")
        self.defaults[u] = default.concrete() if hasattr(default, "concrete") else default
        return u

    def final(self, t: Any, fn: Any, name: str) -> str:
        """``t`` as WGSL text, its unknowns resolved (an error, on the last pass, where none
        is known)."""
        t = self.resolved(t)
        if isinstance(t, Unknown):
            if t in self.defaults:
                return self.defaults[t].wgsl
            if not self.final_pass:
                return "?"
            raise WGSLEmitError(
                f"{self.fn.__qualname__}: the type of {t.what} cannot be inferred from the "
                f"shader. Fix: annotate it ({annotation_fix(t.what)}), or pass the arrays to "
                "to_wgsl as you would to the dispatch.")
        if isinstance(t, Array):
            element = self.final(t.element, fn, name)
            if name in self.atomic_buffers and not element.startswith("atomic"):
                element = f"atomic<{element}>"
            return f"array<{element}{'' if t.length is None else f', {t.length}'}>"
        if isinstance(t, Atomic):
            return f"atomic<{self.final(t.scalar, fn, name)}>"
        if isinstance(t, Predeclared):  # (the places that can name the line check first)
            raise WGSLEmitError(f"{self.fn.__qualname__}: {name} would need the type {t.name} "
                                "spelled, which WGSL source cannot. Fix: use its members")
        if isinstance(t, (Scalar, Vector)) and t.abstract:
            return t.concrete().wgsl
        return t.wgsl

    def choice(self, key: str, memory: Memory) -> int:
        """The number that stands for ``memory`` in the buffer-choosing locals of function
        ``key`` (learnt across passes: the last pass knows them all)."""
        pool = self.pools.setdefault(key, [])
        if memory.name not in [m.name for m in pool]:
            pool.append(memory)
            self.changed = True
        return [m.name for m in pool].index(memory.name)

    def choices(self, key: str) -> list[Memory]:
        return self.pools.get(key, [])

    def chooser(self, choices: list[Memory], element: Any, index: Any, fn: Any) -> str:
        """The helper ``load_a_or_b(k, i)`` giving element ``i`` of the ``k``-th of ``choices``
        (the buffers a local names in turn): it reads that buffer only, as the kernel does
        (a select() over them would read each: races and bounds the kernel has not)."""
        key = ("chooser", tuple(m.name for m in choices))
        if key in self.helpers:
            return self.helpers[key][0]
        name = self._unique("load_" + "_or_".join(m.name for m in choices),
                            {k: 0 for k in self.function_names})
        self.function_names.add(name)
        lines = [f"fn {name}(k: u32, i: {self.final(index, fn, 'an index')}) -> "
                 f"{self.final(element, fn, 'an element')} {{"]
        for k, mem in enumerate(choices[:-1]):
            lines.append(f"    if k == {k}u {{ return {mem.name}[i]; }}")
        lines += [f"    return {choices[-1].name}[i];", "}"]
        self.helpers[key] = (name, element, "\n".join(lines))
        return name

    def mark_atomic(self, name: str) -> None:
        if name not in self.atomic_buffers:
            self.atomic_buffers.add(name)
            self.changed = True

    # ------------------------------------------------------------------------------ scope
    def _unique(self, wanted: str, taken: dict) -> str:
        name = wgsl_identifier(wanted)
        k = 2
        while name in taken or name in self.function_names:
            name = f"{wanted}_{k}"
            k += 1
        return name

    def workgroup_name(self, name: str, var: Any, node: ast.AST, fn: Any) -> str:
        if self.stage != "compute":
            fn.fail(node, f"the workgroup variable {name}", "var<workgroup> exists only in "
                    "compute shaders")
        for wgsl, (v, _) in self.workgroup.items():
            if v is var:
                return wgsl
        t = from_python(var.wgsl_type)
        if t is None:
            fn.fail(node, f"the workgroup variable {name} of type {var.wgsl_type!r}",
                    "use a WGSL type")
        wgsl = self._unique(name, self.workgroup)
        self.workgroup[wgsl] = (var, t)
        return wgsl

    def workgroup_memory(self, name: str) -> Memory:
        for wgsl, (_, t) in self.workgroup.items():
            if wgsl == name:
                return Memory(wgsl, "workgroup", t)
        raise AssertionError(name)

    def module_binding(self, decl: Any) -> Memory:
        """The memory a module-scope binding names (a resource of the module, whichever function
        uses it)."""
        for r in self.resources:
            if r.python == decl.var_name:
                return r.memory
        raise AssertionError(decl)

    def bound_shape(self, wgsl: str) -> tuple[int, ...] | None:
        """The shape of the array bound to the resource named ``wgsl`` (None: none given)."""
        for r in getattr(self, "resources", ()):
            given = self.given.get(r.python)
            if r.name == wgsl and isinstance(given, np.ndarray) and given.dtype.names is None:
                return given.shape
        return None

    def is_user_function(self, fn: Any) -> bool:
        return _is_user_function(fn)

    def struct(self, cls: type, fields: list, node: ast.AST, fn: Any) -> Struct:
        s = Struct(cls.__name__, tuple(fields))
        old = self.structs.get(cls.__name__)
        if old is not None and old[1] != s:
            if old[1].fields != s.fields and all(
                    not (isinstance(t, Scalar) and t.abstract) for _, t in fields):
                fn.fail(node, f"{cls.__name__} built with fields of different types "
                        f"({old[1].fields} and {s.fields})", "convert the fields explicitly")
        self.structs[cls.__name__] = (cls, s)
        return s

    # ------------------------------------------------------------------------------ helpers
    def helper(self, fn: Any, args: list[E], node: ast.AST, caller: Function) -> tuple[str, Any]:
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())
        if len(params) != len(args) or any(p.kind not in (p.POSITIONAL_OR_KEYWORD,
                                                          p.POSITIONAL_ONLY) for p in params):
            caller.fail(node, f"the call of {fn.__name__} with {len(args)} arguments (it takes "
                        f"{len(params)}, or *args / defaults)", "pass every parameter")
        values: dict[str, E] = {}
        resources: dict[str, Memory] = {}
        key_parts: list[Any] = []
        memory_names = {a.memory.name for p, a in zip(params, args)  # (a parameter's WGSL name
                        if a.memory is not None and a.memory.name != p.name}  # never takes them)
        for p, a in zip(params, args):
            if a.memory is not None:
                if a.memory.space == "select":
                    caller.fail(node, f"passing `{a.text}`, a local that names one of several "
                                f"buffers in turn, to {fn.__name__}", "pass the buffer itself "
                                "(the helper is emitted once per binding it is called with), "
                                "or index it here and pass the element")
                resources[p.name] = a.memory
                key_parts.append(("memory", a.memory.name))
                continue
            ann = from_python(_annotation(fn, p))
            t = ann or self.resolved(a.type)
            if ann is not None:
                self.unify(ann, self.resolved(a.type), node, caller)
            if isinstance(t, (Scalar, Vector)) and t.abstract:
                t = t.concrete()
            if t is None:
                caller.fail(node, f"passing `{a.text}` to {fn.__name__}", "pass a value")
            results.check_named(caller, node, t, f"passing `{a.text}` to {fn.__name__}")
            text = p.name + "_" if p.name in RESERVED else p.name
            while text in memory_names:
                text += "_"
            values[p.name] = E(text, t)
            key_parts.append(t)
        key = (id(fn), tuple(key_parts))
        if key in self.helpers:
            return self.helpers[key][0], self.helpers[key][1]
        if key in self.in_progress or fn is self.fn:
            caller.fail(node, f"a recursive call of {fn.__name__}", "WGSL has no recursion: "
                        "write it as a loop")
        self.in_progress.add(key)
        name = self._unique(fn.__name__, {k: 0 for k in self.function_names})
        self.function_names.add(name)
        inner = Function(self, fn, values, resources, "helper",
                         f"{fn.__qualname__}/{len(self.helpers)}")
        inner.mutated_params -= {n for n, v in values.items() if isinstance(v.type, Pointer)}
        lines = inner.body()
        result = None
        for e, n in inner.returns:
            t = self.resolved(e.type)
            results.check_named(inner, n, t, f"returning `{e.text}` from {fn.__name__}")
            result = t if result is None else self.unify(result, t, n, inner)
        if isinstance(result, (Scalar, Vector)) and result.abstract:
            result = result.concrete()
        plist = ", ".join(f"{v.text}{'_in' if n in inner.mutated_params else ''}: "
                          f"{self.final(v.type, inner, n)}" for n, v in values.items())
        ret = f" -> {self.final(result, inner, 'the result of ' + name)}" if result else ""
        self.helpers[key] = (name, result, "\n".join([f"fn {name}({plist}){ret} {{", *lines,
                                                      "}"]))
        self.in_progress.discard(key)
        return name, result

    # ------------------------------------------------------------------------------ passes
    def translate(self, final: bool) -> None:
        self.final_pass, self.changed = final, False
        self.consts: dict[str, tuple[Any, Any]] = {}
        self.overrides: dict[str, tuple[Any, Any]] = {}
        self.workgroup: dict[str, tuple[Any, Any]] = {}
        self.structs: dict[str, tuple[type, Struct]] = {}
        self.helpers: dict[Any, tuple[str, Any, str]] = {}
        self.in_progress: set = set()
        self.entry_name = wgsl_identifier(self.fn.__name__)
        self.function_names: set[str] = {self.entry_name}
        self.needed_builtins: set[str] = set()  # (used by the translation, not a parameter)
        self.params, self.resources = resources.parameters(self)
        self.entry = Function(self, self.fn, self.params, {r.python: r.memory for r in
                                                           self.resources}, self.stage, "entry")
        self.body = self.entry.body()
        self.output = None
        for e, n in self.entry.returns:
            t = self.resolved(e.type)
            self.output = t if self.output is None else self.unify(self.output, t, n,
                                                                   self.entry)

    # ------------------------------------------------------------------------------ text
    def assemble(self) -> Emitted:
        output_struct = self.output.name if isinstance(self.output, Struct) else None
        out: list[str] = []
        bindings = []
        for r in self.resources:
            if r.name not in self.used_resources():
                continue
            t = self.final(r.memory.type, self.entry, r.name)
            if r.kind == "uniform" and self.resolved(r.memory.type) == BOOL:
                raise WGSLEmitError(f"{self.fn.__qualname__}: the uniform {r.python!r} is a bool, "
                                    "which WGSL cannot bind (not host-shareable). Fix: pass a u32")
            space = {"storage": "<storage, read_write>", "read": "<storage, read>",
                     "uniform": "<uniform>", "handle": ""}[r.kind]
            out.append(f"@group({r.group}) @binding({r.index}) var{space} {r.name}: {t};")
            rt = self.resolved(r.memory.type)
            bindings.append(Binding(r.python, r.index, r.kind, self.defaults.get(rt, rt),
                                    r.name, r.group))
        for name, (_, t) in self.workgroup.items():
            out.append(f"var<workgroup> {name}: {self.final(t, self.entry, name)};")
        used = [s for _, s in self.structs.values()] + [r.memory.type for r in self.resources
                                                         if r.name in self.used_resources()]
        used += [t for _, t in self.workgroup.values()]
        out = declarations(self, reachable(used, self), output_struct, self.as_function) + out
        if bindings or self.workgroup:
            out.append("")
        for _, _, text in self.helpers.values():
            out += [text, ""]
        out += self._entry_text()
        out = consts.declarations(self, "\n".join(out)) + overrides.declarations(self) + out
        if re.search(r"\bf16\b|\bvec[234]h\b|[0-9]h\b", "\n".join(out)):
            out.insert(0, "enable f16;\n")
        wg = tuple(self.shader.workgroup_size) if self.stage == "compute" else None
        inputs = [(n, self.resolved(t)) for n, t in self.inputs]
        return Emitted("\n".join(out) + "\n", self.entry_name, self.stage, wg, bindings,
                       inputs, self.resolved(self.output), self.call_params)

    def used_resources(self) -> set[str]:
        text = "\n".join(self.body) + "".join(h[2] for h in self.helpers.values())
        return {r.name for r in self.resources if re.search(rf"\b{r.name}\b", text)}

    def _entry_text(self) -> list[str]:
        params = []
        for name, e in self.params.items():
            if name in COMPUTE_BUILTINS or name in FRAGMENT_BUILTINS:
                params.append(f"@builtin({name}) {name}: {e.type.wgsl}")
        self.call_params = [n for n in self.params if n in COMPUTE_BUILTINS
                            or n in FRAGMENT_BUILTINS] + [n for n, _ in self.inputs]
        for k, (name, t) in enumerate(self.inputs):
            flat = "@interpolate(flat) " if _scalar_kind(self.resolved(t)) in "iu" else ""
            params.append(f"@location({k}) {flat}{wgsl_identifier(name)}: "
                          f"{self.final(t, self.entry, name)}")
        body = list(self.body)
        for name in sorted(self.needed_builtins - set(self.params)):
            params.append(f"@builtin({name}) {name}: u32")
        if self.stage == "compute" and self.zero and self.workgroup:
            index = "local_invocation_index"
            if index not in self.params:
                params.append("@builtin(local_invocation_index) local_invocation_index: u32")
            body = self._zeroing(index) + body
        head = "@compute @workgroup_size(" + ", ".join(
            str(s) for s in _trim(self.shader.workgroup_size)) + ")" \
            if self.stage == "compute" else "@fragment"
        ret = ""
        if self.output is not None:
            t = self.resolved(self.output)
            if isinstance(t, Struct):
                ret = f" -> {t.name}"
            else:
                loc = "" if self.as_function else "@location(0) "
                ret = f" -> {loc}{self.final(t, self.entry, 'the output')}"
        if self.as_function:
            head = "// the fragment shader as a function (a harness calls it)"
            params = [p.split(")")[-1].strip() for p in params]
        sig = ", ".join(params)
        if len(sig) + len(self.entry_name) > 80:
            sig = "\n    " + ",\n    ".join(params) + ",\n"
        return [head, f"fn {self.entry_name}({sig}){ret} {{", *body, "}"]

    def _zeroing(self, index: str) -> list[str]:
        size = int(np.prod(self.shader.workgroup_size))
        lines = ["    " + _ZERO_NOTE]
        for name, (_, t) in self.workgroup.items():
            t = self.resolved(t)
            if isinstance(t, Array):
                lines.append(f"    for (var i = {index}; i < {t.length}u; i += {size}u) "
                             f"{{ {atomics.zero(self, f'{name}[i]', t.element)} }}")
            else:
                lines.append(f"    if {index} == 0u {{ {atomics.zero(self, name, t)} }}")
        lines.append("    workgroupBarrier();")
        return lines


def _trim(size: tuple[int, int, int]) -> tuple[int, ...]:
    x, y, z = size
    return (x,) if y == z == 1 else (x, y) if z == 1 else (x, y, z)


def _scalar_kind(t: Any) -> str:
    s = t.scalar if isinstance(t, Vector) else t
    return s.kind if isinstance(s, Scalar) else "f"


def _name(t: Any) -> str:
    return getattr(t, "wgsl", None) if not isinstance(t, Unknown) else t.what


def _concrete(t: Any) -> Any:
    return t.concrete() if isinstance(t, (Scalar, Vector)) and t.abstract else t


def _annotation(fn: Any, p: inspect.Parameter) -> Any:
    ann = p.annotation
    if ann is inspect.Parameter.empty:
        return None
    if isinstance(ann, str):
        try:
            return eval(ann, fn.__globals__)  # (from __future__ import annotations)
        except Exception:
            return None
    return ann


__all__ = ["AFLOAT", "Binding", "Emitted", "dataclasses", "emit", "to_wgsl"]
