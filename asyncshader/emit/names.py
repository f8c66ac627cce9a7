"""The table from asyncshader's names to WGSL's: every built-in function, collective and atomic
a shader can call, with its WGSL name and the rule that gives its result type from its
arguments' types. New operations (subgroups, matrices ...) are new rows.

Also the numpy and Python functions a shader may call that have a WGSL twin (``np.sqrt``,
``abs``, ``min`` ...), and WGSL's reserved words, which a helper's name must not take."""

from __future__ import annotations

import builtins as _py
from collections.abc import Callable
from typing import Any

import numpy as np

from ..collectives import barriers, derivatives, quads, subgroups
from ..collectives import textures as _quad_textures
from ..front.wgsl.tokens import KEYWORDS
from ..front.wgsl.tokens import RESERVED as WGSL_RESERVED
from ..stages import fragment as _fragment
from ..wgsl import atomics, builtins, types
from ..wgsl.spelling import camel
from ..wgsl.textures import builtins as _textures
from .results import compare_exchange_type
from .wtypes import BOOL, F32, I32, U32, Scalar, Vector, scalar_of, with_scalar

#: a result rule: argument types -> result type (None: no value)
Rule = Callable[[list], Any]


def _same(args: list) -> Any:
    """Component-wise built-ins: the (unified) type of the arguments."""
    return args[0] if args else None


def _elem(args: list) -> Any:
    return scalar_of(args[0])


def _fixed(t: Any) -> Rule:
    return lambda args: t


def _bool_like(args: list) -> Any:
    return with_scalar(args[0], BOOL)


def _pointee(args: list) -> Any:
    return args[0]  # (the emitter passes the pointee type of the pointer argument)


#: rules: "same" args are unified first (mixing abstract literals with the concrete type)
SAME = "same"

_NUMERIC_SAME = """abs acos acosh asin asinh atan atan2 atanh ceil clamp cos cosh degrees exp exp2
floor fma fract inverse_sqrt log log2 max min mix pow radians round saturate sign sin sinh sqrt
smoothstep step tan tanh trunc normalize reflect face_forward count_leading_zeros
count_one_bits count_trailing_zeros first_leading_bit first_trailing_bit reverse_bits
quantize_to_f16 dpdx dpdx_coarse dpdx_fine dpdy dpdy_coarse dpdy_fine fwidth fwidth_coarse
fwidth_fine quad_swap_x quad_swap_y quad_swap_diagonal""".split()

#: the subgroup operations (WGSL's subgroups extension): component-wise on their value
_SUBGROUP_SAME = """subgroup_add subgroup_mul subgroup_min subgroup_max subgroup_and subgroup_or
subgroup_xor subgroup_exclusive_add subgroup_inclusive_add subgroup_exclusive_mul
subgroup_inclusive_mul subgroup_broadcast_first subgroup_broadcast subgroup_shuffle
subgroup_shuffle_down subgroup_shuffle_up subgroup_shuffle_xor""".split()

_OTHER: dict[str, Rule] = {
    "subgroup_all": _fixed(BOOL), "subgroup_any": _fixed(BOOL),
    "subgroup_ballot": _fixed(Vector(4, U32)), "subgroup_elect": _fixed(BOOL),
    "length": _elem, "distance": _elem, "dot": _elem, "cross": _same,
    "ldexp": _same, "refract": _same, "extract_bits": _same, "insert_bits": _same,
    "quad_broadcast": _same,
    "pack2x16float": _fixed(U32), "pack2x16snorm": _fixed(U32), "pack2x16unorm": _fixed(U32),
    "pack4x8snorm": _fixed(U32), "pack4x8unorm": _fixed(U32), "pack4xi8": _fixed(U32),
    "pack4xi8_clamp": _fixed(U32), "pack4xu8": _fixed(U32), "pack4xu8_clamp": _fixed(U32),
    "unpack2x16float": _fixed(Vector(2, F32)), "unpack2x16snorm": _fixed(Vector(2, F32)),
    "unpack2x16unorm": _fixed(Vector(2, F32)), "unpack4x8snorm": _fixed(Vector(4, F32)),
    "unpack4x8unorm": _fixed(Vector(4, F32)), "unpack4xi8": _fixed(Vector(4, I32)),
    "unpack4xu8": _fixed(Vector(4, U32)), "dot4i8_packed": _fixed(I32),
    "dot4u8_packed": _fixed(U32), "all": _fixed(BOOL), "any": _fixed(BOOL), "select": _same,
    "array_length": _fixed(U32),
    "transpose": _fixed(None), "determinant": _fixed(None),  # (emit/matrices.py: builtin)
    "workgroup_barrier": _fixed(None), "storage_barrier": _fixed(None),
    "texture_barrier": _fixed(None), "workgroup_uniform_load": _pointee,
    "atomic_load": _pointee, "atomic_store": _fixed(None), "atomic_add": _pointee,
    "atomic_sub": _pointee, "atomic_max": _pointee, "atomic_min": _pointee,
    "atomic_and": _pointee, "atomic_or": _pointee, "atomic_xor": _pointee,
    "atomic_exchange": _pointee, "atomic_compare_exchange_weak": compare_exchange_type,
    "frexp": _fixed(None), "modf": _fixed(None),  # (emit/results.py: split)
} | {name: _fixed(None) for name in (  # (emit/textures.py: the texture built-ins)
    "texture_dimensions", "texture_num_levels", "texture_num_layers", "texture_num_samples",
    "texture_load",
    "texture_store", "texture_sample", "texture_sample_bias", "texture_sample_compare",
    "texture_sample_level", "texture_sample_grad", "texture_sample_compare_level",
    "texture_gather", "texture_gather_compare", "texture_sample_base_clamp_to_edge")}


#: the operations whose first argument is a pointer (``ash.ptr(buf, i)`` -> ``&buf[i]``)
POINTER_FIRST = {"workgroup_uniform_load", "array_length"} | {
    n for n in _OTHER if n.startswith("atomic_")}
#: the operations that are statements in WGSL (no value)
BARRIERS = {"workgroup_barrier", "storage_barrier", "texture_barrier"}
#: operations that need all their arguments of one type (WGSL's overloads over T)
UNIFY_ARGS = set(_NUMERIC_SAME) | {"cross", "distance", "dot", "select", "length"} - {
    "ldexp", "extract_bits", "insert_bits"}


class Builtin:
    """One row: the asyncshader name, the WGSL name, the result rule."""

    def __init__(self, name: str, rule: Rule) -> None:
        self.name, self.rule = name, rule
        self.wgsl = camel(name)
        self.pointer_first = name in POINTER_FIRST
        self.unify = name in UNIFY_ARGS
        self.statement = name in BARRIERS

    def __repr__(self) -> str:
        return f"<builtin {self.name} -> {self.wgsl}>"


def _table() -> dict[int, Builtin]:
    rows = {name: _same for name in _NUMERIC_SAME + _SUBGROUP_SAME} | _OTHER
    where = [builtins, atomics, barriers, derivatives, quads, subgroups, types, _textures,
             _quad_textures]
    table: dict[int, Builtin] = {}
    for name, rule in rows.items():
        for module in where:
            value = getattr(module, name, None)
            if value is not None:
                table[id(value)] = Builtin(name, rule)
                break
    return table


#: asyncshader's callables by id()
BUILTINS = _table()
#: what ``discard()`` is
DISCARD = _fragment.discard
#: the bitcast object (``bitcast[T](e)``)
BITCAST = builtins.bitcast

#: numpy and Python functions with a WGSL twin: (WGSL name, result rule, unify args)
FOREIGN: dict[int, tuple[str, Rule]] = {}
for _fn, _name in ((np.abs, "abs"), (np.sqrt, "sqrt"), (np.floor, "floor"), (np.ceil, "ceil"),
                   (np.sin, "sin"), (np.cos, "cos"), (np.tan, "tan"), (np.exp, "exp"),
                   (np.log, "log"), (np.exp2, "exp2"), (np.log2, "log2"), (np.trunc, "trunc"),
                   (np.minimum, "min"), (np.maximum, "max"), (np.arctan2, "atan2"),
                   (np.arctan, "atan"), (np.arcsin, "asin"), (np.arccos, "acos"),
                   (np.tanh, "tanh"), (np.sinh, "sinh"), (np.cosh, "cosh"),
                   (np.power, "pow"), (np.fabs, "abs"), (np.sign, "sign"),
                   (_py.abs, "abs"), (_py.min, "min"), (_py.max, "max")):
    FOREIGN[id(_fn)] = (_name, _same)

#: WGSL's keywords and reserved words (the front-end's lists, from the spec) and the
#: predeclared types a Python name might take: a helper or local named so gets a trailing
#: underscore; also the built-in functions a helper must not redefine (below)
RESERVED = set(KEYWORDS | WGSL_RESERVED) | set("""array atomic binding_array bool f16 f32 i32
mat2x2 mat3x3 mat4x4 private ptr sampler texture_2d u32 vec2 vec3 vec4 bf16 float fp16 fp64
handle inout row_major signed unsigned void""".split())
RESERVED |= {camel(b.name) for b in BUILTINS.values()} | {"dpdx", "length", "select", "all",
                                                           "any", "bitcast"}


def is_scalar(t: Any) -> bool:
    return isinstance(t, Scalar)


#: the read-only address spaces as WGSL writes them (a binding's Memory.space -> WGSL)
SPACES = {"read": "var<storage, read>", "uniform": "var<uniform>"}

#: Python expressions WGSL has no counterpart for: (what, what to write instead)
UNSUPPORTED = {
    "ListComp": ("a list comprehension", "write a for loop over range() that fills an array"),
    "SetComp": ("a set comprehension", "WGSL has no sets: use a for loop"),
    "DictComp": ("a dict comprehension", "WGSL has no dicts: use a struct or an array"),
    "GeneratorExp": ("a generator expression", "write a for loop over range()"),
    "Dict": ("a dict", "WGSL has no dicts: use a struct (a dataclass) or an array"),
    "List": ("a list", "use a vector (vec3f(...)) or a workgroup array"),
    "Set": ("a set", "WGSL has no sets"),
    "Tuple": ("a tuple as a value", "use a vector, or assign the parts to separate names"),
    "Lambda": ("a lambda", "write a plain `def` helper at module scope"),
    "JoinedStr": ("an f-string", "WGSL has no strings"),
    "NamedExpr": ("the walrus operator :=", "assign on a line of its own"),
    "Starred": ("a starred argument", "pass the components one by one"),
    "Slice": ("a slice", "index one element at a time"),
    "Yield": ("yield", "a shader is an async def that returns"),
}


def annotation_fix(what: str, struct: bool = False, indexed: bool = False) -> str:
    """The annotation that fixes an uninferable type (``what`` names the binding; ``struct``:
    the shader reads a member of it; ``indexed``: the shader indexes or stores into it, so a
    parameter taken for a uniform is more likely a buffer)."""
    element = "YourStruct" if struct else "f32"
    name = what.split("'")[1] if "'" in what else ""
    if what.startswith("the element type of buffer") or (
            what.startswith(("the uniform", "the binding")) and indexed):
        return f"{name}: ash.Storage[{element}]"
    if what.startswith("the fragment input"):
        return f"{name}: ash.Input[vec2f]"
    if what.startswith(("the uniform", "the binding")):
        return f"{name}: ash.Uniform[YourStruct]" if struct else f"{name}: u32"
    return f"{what.rsplit('.', 1)[-1]}: f32 = ..."
