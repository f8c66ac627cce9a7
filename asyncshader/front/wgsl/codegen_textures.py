"""Textures and samplers of a loaded WGSL module (a helper of :class:`~.codegen.Generator`):
a module-scope ``var t: texture_2d<f32>`` or ``var s: sampler`` is a module-scope binding
(:class:`asyncshader.ModuleBinding`) annotated as a Python shader's parameter would be
(``ash.Texture2D[ash.f32]``, ``ash.Sampler``), so a run binds an ``ash.Texture``, a view or an
``ash.Sampler`` by the WGSL name (or ``bindings={(group, binding): ...}``) with the
annotation's checks (dimension, sample type, format, comparison sampler); and WGSL's texture
built-ins (§17.7) are calls of asyncshader's (``textureSampleLevel`` ->
``ash.texture_sample_level``; the implicit-LOD ones awaited, as quad operations).
docs/textures.md, "Textures in loaded WGSL"."""

from __future__ import annotations

import ast as py
from typing import Any

from ...collectives import textures as quad_textures
from ...ir.types import Opaque, Reference, Scalar, Vector, scalar_of
from ...wgsl import textures, types
from ...wgsl.bindings import at
from ...wgsl.module_bindings import ModuleBinding
from ...wgsl.spelling import snake
from . import syntax as ast
from .reflect import _reached
from .source import error_at

#: WGSL's texture types -> the annotation's name (the view dimension follows the suffix)
_SAMPLED = {"texture_1d": "Texture1D", "texture_2d": "Texture2D",
            "texture_2d_array": "Texture2DArray", "texture_3d": "Texture3D",
            "texture_cube": "TextureCube", "texture_cube_array": "TextureCubeArray",
            "texture_multisampled_2d": "TextureMultisampled2D"}
_DEPTH = {"texture_depth_2d": "TextureDepth2D", "texture_depth_2d_array": "TextureDepth2DArray",
          "texture_depth_cube": "TextureDepthCube",
          "texture_depth_cube_array": "TextureDepthCubeArray",
          "texture_depth_multisampled_2d": "TextureDepthMultisampled2D"}
_STORAGE = {"texture_storage_1d": "StorageTexture1D", "texture_storage_2d": "StorageTexture2D",
            "texture_storage_2d_array": "StorageTexture2DArray",
            "texture_storage_3d": "StorageTexture3D"}
_SAMPLERS = {"sampler": "Sampler", "sampler_comparison": "SamplerComparison"}
#: the texture built-ins that are quad operations (implicit level of detail): awaited
_AWAITED = {"texture_sample", "texture_sample_bias", "texture_sample_compare",
            "texture_barrier"}
#: the built-ins WGSL allows in the fragment stage only (implicit level of detail)
_FRAGMENT_ONLY = ("textureSample", "textureSampleBias", "textureSampleCompare")

#: the names generated code reaches as ``ash.<name>`` for textures (load.py's runtime)
TEXTURE_RUNTIME = {name: getattr(textures, name) for name in textures.__all__}
TEXTURE_RUNTIME.update({name: getattr(quad_textures, name) for name in
                        ("texture_sample", "texture_sample_bias", "texture_sample_compare")})
TEXTURE_RUNTIME.update(ModuleBinding=ModuleBinding, at=at,
                       Sampler=textures.Sampler, SamplerComparison=textures.SamplerComparison)


def _class_name(t: Opaque) -> str | None:
    """The name of the annotation class for the WGSL handle type ``t`` (None: none)."""
    for table in (_SAMPLERS, _DEPTH, _SAMPLED, _STORAGE):
        if t.name in table and table[t.name] in TEXTURE_RUNTIME:
            return table[t.name]
    return None


def _arguments(t: Opaque) -> Any:
    """The annotation's subscript: the sample type, (format, access), or None."""
    if t.name in _SAMPLED:
        return t.params[0]
    if t.name in _STORAGE:
        return (*t.params, "write")[:2]
    return None


def annotation_class(t: Opaque) -> Any:
    """The annotation a Python shader would declare a binding of type ``t`` with
    (``texture_2d<f32>`` -> ``ash.Texture2D[f32]``); None where asyncshader has none."""
    name = _class_name(t)
    if name is None:
        return None
    args = _arguments(t)
    cls = TEXTURE_RUNTIME[name]
    return cls if args is None else cls[getattr(types, args, args) if isinstance(args, str)
                                         else args]


def annotation(gen: Any, t: Opaque, span: Any) -> py.expr:
    """The Python expression of :func:`annotation_class` for ``t``."""
    name = _class_name(t)
    if name is None:
        raise gen.refuse(span, f"a binding of type {t.wgsl}")
    args = _arguments(t)
    if args is None:
        return gen.ash_attr(name)
    sub = gen.ash_attr(args) if isinstance(args, str) else \
        py.Tuple([py.Constant(a) for a in args], py.Load())
    return py.Subscript(gen.ash_attr(name), sub, py.Load())


def handle_binding(gen: Any, decl: ast.VarDecl, t: Opaque) -> py.expr:
    """``ash.ModuleBinding(<annotation>, ash.at(group, binding))`` for the module-scope
    handle variable ``decl``."""
    attrs = {a.name: a for a in decl.attributes}
    point = gen.ash_call("at", [py.Constant(gen.checker.value(attrs[k].args[0]))
                                for k in ("group", "binding")])
    return gen.ash_call("ModuleBinding", [annotation(gen, t, decl.span), point])


def is_texture_builtin(name: str) -> bool:
    """Whether the WGSL built-in ``name`` is one of §17.7's texture built-ins."""
    return name.startswith("texture")


def texture_call(gen: Any, e: ast.Call) -> py.expr:
    """A call of a WGSL texture built-in: asyncshader's function of the same name in snake
    case, each argument as its concrete type (an abstract level or coordinate takes the
    type WGSL's overload gives it: i32 where any integer goes, f32 for floats)."""
    name = snake(e.callee.name)
    if name not in TEXTURE_RUNTIME and name != "texture_barrier":
        raise gen.refuse(e.span, f"the built-in function {e.callee.name}")
    args = []
    for a in e.args:
        t = a.type.store if isinstance(a.type, Reference) else a.type
        if isinstance(t, Opaque):
            args.append(gen.expr(a))
        else:
            s = scalar_of(t)
            want = None
            if s is not None and s.abstract:
                concrete = Scalar("f32" if s.kind == "f" else "i32")
                want = Vector(t.size, concrete) if isinstance(t, Vector) else concrete
            args.append(gen.expr(a, want))
    return gen.ash_call(name, args, name in _AWAITED)


def check_compute_stage(gen: Any, fn: ast.Function) -> None:
    """A compute entry point whose call graph reaches textureSample, textureSampleBias or
    textureSampleCompare is a shader-creation error (WGSL: fragment stage only), at the call."""
    decls = {d.name: d for d in gen.typed.resolved.module.decls if isinstance(d, ast.Function)}
    for name in sorted(_reached(gen.typed.resolved.calls, fn.name)):
        call = _first_call(decls[name].body, _FRAGMENT_ONLY) if name in decls else None
        if call is not None:
            raise error_at(gen.source, call.span, f"{call.callee.name} is for the fragment "
                           f"stage only (its level of detail comes from a quad's "
                           f"derivatives), and the compute entry point '{fn.name}' reaches "
                           f"it. Fix: textureSampleLevel(t, s, coords, level) with an "
                           f"explicit level")


def _first_call(node: Any, names: tuple[str, ...]) -> Any:
    """The first call under ``node`` (a syntax node or a list of them) of one of ``names``."""
    todo = [node]
    while todo:
        n = todo.pop(0)
        if isinstance(n, list):
            todo[:0] = n
        elif isinstance(n, ast.Call) and n.callee.name in names:
            return n
        elif isinstance(n, (ast.Stmt, ast.Expr, ast.Case, ast.VarDecl, ast.Block)):
            todo[:0] = [getattr(n, f, None) for f in getattr(n, "__slots__", ())
                        if f not in ("span", "target", "type")]
    return None
