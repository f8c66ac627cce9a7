"""Lockstep's code for WGSL's texture built-ins (a mixin of :class:`~.compile.Compiler`): a
call becomes a call of :mod:`.textures` (``_t``) with the texture and sampler variables'
values (handles bound per dispatch), the arguments by their role in the overload the
texture's type selects (:func:`asyncshader.front.wgsl.texture_args.argument_roles`), and
the const arguments (a gather's component, an offset) as Python constants.

The implicit-LOD built-ins (``textureSample``, ``textureSampleBias``,
``textureSampleCompare``) take their level of detail from a quad's derivatives: in a fragment
entry point (:mod:`.fragments`) from the quad differences of the coordinates, fine or coarse
as the dispatch's ``derivatives=`` says; the compute stage has no quads for them (WGSL allows
them in fragment shaders only), and there they are refused with the construct and its
line."""

from __future__ import annotations

from typing import Any

from ..front.wgsl import syntax as ast
from ..front.wgsl.texture_args import argument_roles
from ..ir.types import Opaque, Reference, Scalar, scalar_of
from .exprs import value_type

#: the built-ins whose level of detail comes from the quad's derivatives
IMPLICIT_LOD = ("textureSample", "textureSampleBias", "textureSampleCompare")
_QUERIES = {"textureNumLevels": "num_levels", "textureNumLayers": "num_layers",
            "textureNumSamples": "num_samples"}
_SAMPLING = {"textureSampleLevel": ("sample_level", ["level"]),
             "textureSampleGrad": ("sample_grad", ["ddx", "ddy"]),
             "textureSampleCompareLevel": ("sample_compare_level", ["depth_ref"]),
             "textureGatherCompare": ("gather_compare", ["depth_ref"])}


def handle_type(t: Any) -> Any:
    """The texture or sampler type of an expression of type ``t`` (None: not a handle)."""
    t = t.store if isinstance(t, Reference) else t
    return t if isinstance(t, Opaque) and t.is_handle else None


class TextureCalls:
    """Python code for texture built-in calls; mixed into the compiler."""

    def texture_call(self, e: ast.Call, name: str) -> str:
        args = list(e.args)
        component = None
        if name == "textureGather" and handle_type(args[0].type) is None:
            component, args = int(self.checker.value(args[0])), args[1:]
        t = handle_type(args[0].type)
        if t is None or t.name == "texture_external":
            raise self.refuse(e.span, f"{name} of {getattr(t, 'wgsl', 'this')}")
        texture = self.expr(args[0])
        roles = argument_roles(name, t, len(args) - 1) or []
        given = dict(zip(roles, args[1:]))
        if name in _QUERIES:
            return f"_t.{_QUERIES[name]}({texture})"
        if name == "textureDimensions":
            level = given.get("level")
            return f"_t.dimensions({texture}, {self.texture_arg(level)}, {self.mask}, L, " \
                   f"{self.where(e.span)!r})"
        coords = self.texture_arg(given["coords"])
        layer = self.texture_arg(given.get("array_index"))
        if name == "textureLoad":
            level = given.get("level", given.get("sample_index"))
            return f"_t.load({texture}, {coords}, {layer}, {self.texture_arg(level)}, L)"
        if name == "textureStore":  # (a fragment's helper lanes write nothing: H[0])
            value = self.texture_arg(given["value"])
            mask = f"_l.minus({self.mask}, H[0])" if self.stage == "fragment" else self.mask
            return f"_t.store({texture}, {coords}, {layer}, {value}, {mask}, L)"
        sampler = self.expr(given["sampler"])
        if name in IMPLICIT_LOD:
            if self.stage != "fragment":
                raise self.refuse(e.span, f"{name} in a {self.stage} entry point (its level "
                                  "of detail comes from a fragment quad's derivatives; WGSL "
                                  "allows it in fragment shaders only). Fix: "
                                  "textureSampleLevel(t, s, coords, level) with an explicit "
                                  "level")
            extra = self.texture_arg(given.get("bias", given.get("depth_ref")))
            return (f"_t.sample_implicit({name!r}, {texture}, {sampler}, {coords}, {layer}, "
                    f"{extra}, {self.offset(given.get('offset'))}, {self.mask}, L, DF, "
                    f"{self.where(e.span)!r}, Q)")
        if name == "textureSampleBaseClampToEdge":
            return f"_t.sample_base_clamp_to_edge({texture}, {sampler}, {coords}, L)"
        offset = self.offset(given.get("offset"))
        if name == "textureGather":
            return (f"_t.gather({component or 0}, {texture}, {sampler}, {coords}, {layer}, "
                    f"{offset}, L)")
        if name not in _SAMPLING:
            raise self.refuse(e.span, f"the built-in function {name}")
        function, own = _SAMPLING[name]
        extra = ", ".join(self.texture_arg(given[role]) for role in own)
        return (f"_t.{function}({texture}, {sampler}, {coords}, {layer}, {extra}, {offset}, "
                "L)")

    def texture_arg(self, a: ast.Expr | None) -> str:
        """Code for a texture built-in's argument (None: absent); an abstract one takes the
        concrete type WGSL's overload gives it (i32 where any integer goes, f32 for
        floats)."""
        if a is None:
            return "None"
        s = scalar_of(value_type(a.type))
        want = None
        if s is not None and s.abstract:
            want = Scalar("f32" if s.kind == "f" else "i32")
        return self.expr(a, self.want_for(a, want))

    def offset(self, a: ast.Expr | None) -> tuple:
        """A texture offset's components (a const-expression, range-checked by the
        front-end's checker); () when absent."""
        if a is None:
            return ()
        value = self.checker.value(a)
        return tuple(int(v) for v in (value if isinstance(value, (list, tuple)) else [value]))
