"""The types of WGSL's built-in function calls (§ Built-in functions): the overload a call
selects for the arguments' types, as its parameter types and the type it returns, with
WGSL's overload rules (a generic ``T`` shared by the arguments, abstract arguments converted
to the others' type, no splatting of a scalar into a vector argument). The parameter types
are what each argument converts to (``clamp(x, 0.0, N - 1)`` with ``x: f32``: three f32;
``ldexp(x, 2)``: f32 and i32). A call the rules reject raises :class:`BuiltinError` with
what the function takes.

Built-ins that WGSL evaluates in a const-expression keep abstract types when all the
arguments are const (``sqrt(4.0)`` is an AbstractFloat); the others (derivatives, atomics,
barriers, subgroups, textures ...) convert abstract arguments to concrete types."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ir.types import (
    AFLOAT,
    AINT,
    BOOL,
    F16,
    F32,
    I32,
    U32,
    Array,
    Atomic,
    Matrix,
    Opaque,
    Pointer,
    Predeclared,
    Scalar,
    Vector,
    concretize,
    is_abstract,
    result_struct_name,
)
from .conversions import common_type, converts, describe, leaf, with_leaf
from .texture_args import argument_roles, check_arguments, coordinate_dimension


class BuiltinError(Exception):
    """A built-in call that WGSL's overload rules reject (the message says what it takes)."""


#: an overload selected for a call: each argument's parameter type, and the result type
#: (None for a built-in that returns nothing)
Signature = tuple[list[Any], Any]


def _each(t: Any, types: list[Any], result: Any = None) -> Signature:
    """Every parameter of type ``t`` (the generic ``T``); the result ``t`` unless given."""
    return [t] * len(types), t if result is None else result


def _generic(name: str, types: list[Any], what: str, ok: Callable[[Any], bool]) -> Any:
    t = common_type(types)
    if t is None or not ok(t):
        raise BuiltinError(f"{name}({', '.join(describe(x) for x in types)}): the arguments "
                           f"must be {what} of one type (WGSL converts only abstract numbers)")
    return t


def _is_float(t: Any) -> bool:
    s = leaf(t)
    return isinstance(t, (Scalar, Vector)) and s is not None and s.kind == "f"


def _is_int(t: Any) -> bool:
    s = leaf(t)
    return isinstance(t, (Scalar, Vector)) and s is not None and s.kind in "iu"


def _is_numeric(t: Any) -> bool:
    s = leaf(t)
    return isinstance(t, (Scalar, Vector)) and s is not None and s.kind != "b"


def _is_signed(t: Any) -> bool:
    return _is_numeric(t) and leaf(t) != U32


def _float_of(types: list[Any]) -> list[Any]:
    """AbstractInt arguments of a float-only built-in are AbstractFloat (§ Conversion rank)."""
    return [with_leaf(t, AFLOAT) if leaf(t) == AINT else t for t in types]


def _same(what: str, ok: Callable[[Any], bool], floats: bool = False) -> Callable:
    def rule(name: str, types: list[Any]) -> Signature:
        return _each(_generic(name, _float_of(types) if floats else types, what, ok), types)
    return rule


_FLOAT_T = _same("f32, f16 or AbstractFloat scalars or vectors", _is_float, floats=True)
_NUMERIC_T = _same("numeric scalars or vectors", _is_numeric)
_INT_T = _same("i32 or u32 scalars or vectors", _is_int)


def _vector_float(name: str, types: list[Any]) -> Signature:
    params, t = _FLOAT_T(name, types)
    if not isinstance(t, Vector):
        raise BuiltinError(f"{name} takes float vectors, not {describe(t)}")
    return params, t


def _scalar_result(rule: Callable) -> Callable:
    def result(name: str, types: list[Any]) -> Signature:
        params, t = rule(name, types)
        return params, t.scalar if isinstance(t, Vector) else t
    return result


def _dot(name: str, types: list[Any]) -> Signature:
    params, t = _NUMERIC_T(name, types)
    if not isinstance(t, Vector):
        raise BuiltinError(f"dot takes two vectors, not {describe(types[0])}")
    return params, t.scalar


def _cross(name: str, types: list[Any]) -> Signature:
    params, t = _FLOAT_T(name, types)
    if t != Vector(3, t.scalar if isinstance(t, Vector) else F32):
        raise BuiltinError(f"cross takes two 3-component float vectors, not {describe(t)}")
    return params, t


def _mix(name: str, types: list[Any]) -> Signature:
    if len(types) == 3 and isinstance(types[0], Vector) and isinstance(types[2], Scalar):
        _, t = _FLOAT_T(name, [types[0], types[1]])  # mix(vecN, vecN, S)
        s = common_type([t.scalar, *_float_of([types[2]])])
        if s is None:
            raise BuiltinError(f"mix: the factor is {describe(types[2])}, the vectors' "
                               f"scalar is {describe(t.scalar)}")
        t = _generic(name, [t, Vector(t.size, s)], "float vectors", _is_float)
        return [t, t, t.scalar], t
    return _FLOAT_T(name, types)


def _refract(name: str, types: list[Any]) -> Signature:
    _, t = _vector_float(name, types[:2])
    s = common_type([t.scalar, *_float_of(types[2:])])
    if s is None:
        raise BuiltinError(f"refract: eta is {describe(types[2])}, the vectors' scalar is "
                           f"{describe(t.scalar)}")
    return [Vector(t.size, s), Vector(t.size, s), s], Vector(t.size, s)


def _ldexp(name: str, types: list[Any]) -> Signature:
    _, t = _FLOAT_T(name, types[:1])
    e = types[1]
    shape_ok = isinstance(e, Vector) == isinstance(t, Vector) and (
        not isinstance(e, Vector) or e.size == t.size)
    if not shape_ok or leaf(e) not in (I32, AINT):
        raise BuiltinError(f"ldexp({describe(t)}, {describe(e)}): the exponent is an i32 of "
                           "the fraction's shape")
    if leaf(e) == I32 and is_abstract(t):
        t = concretize(t)
    return [t, e if is_abstract(t) else with_leaf(e, I32)], t


def _frexp_modf(name: str, types: list[Any]) -> Signature:
    params, t = _FLOAT_T(name, types)
    if name == "modf":
        return params, Predeclared(result_struct_name("modf", t), (("fract", t),
                                                                   ("whole", t)))
    exp_scalar = AINT if is_abstract(t) else I32
    exp = Vector(t.size, exp_scalar) if isinstance(t, Vector) else exp_scalar
    return params, Predeclared(result_struct_name("frexp", t), (("fract", t), ("exp", exp)))


def _determinant(name: str, types: list[Any]) -> Signature:
    t = types[0]
    if not isinstance(t, Matrix) or t.cols != t.rows:
        raise BuiltinError(f"determinant takes a square matrix, not {describe(t)}")
    return [t], t.scalar


def _transpose(name: str, types: list[Any]) -> Signature:
    t = types[0]
    if not isinstance(t, Matrix):
        raise BuiltinError(f"transpose takes a matrix, not {describe(t)}")
    return [t], Matrix(t.rows, t.cols, t.scalar)


def _bool_reduce(name: str, types: list[Any]) -> Signature:
    if leaf(types[0]) != BOOL or not isinstance(types[0], (Scalar, Vector)):
        raise BuiltinError(f"{name} takes a bool or a bool vector, not {describe(types[0])}")
    return [types[0]], BOOL


def _select(name: str, types: list[Any]) -> Signature:
    t = _generic(name, types[:2], "scalars or vectors",
                 lambda x: isinstance(x, (Scalar, Vector)))
    c = types[2]
    shape = Vector(t.size, BOOL) if isinstance(t, Vector) else BOOL
    if c != BOOL and c != shape:
        raise BuiltinError(f"select({describe(types[0])}, {describe(types[1])}, "
                           f"{describe(c)}): the condition is bool or {describe(shape)}")
    return [t, t, c], t


def _bits(name: str, types: list[Any]) -> Signature:
    n = 1 if name == "extractBits" else 2
    _, t = _INT_T(name, types[:n])
    for extra in types[n:]:
        if not converts(extra, U32):
            raise BuiltinError(f"{name}: offset and count are u32, not {describe(extra)}")
    return [t] * n + [U32] * (len(types) - n), t


def _fixed(params: tuple[Any, ...], result: Any) -> Callable:
    def rule(name: str, types: list[Any]) -> Signature:
        for want, got in zip(params, types):
            if not converts(got, want):
                raise BuiltinError(f"{name} takes ({', '.join(describe(p) for p in params)}), "
                                   f"not ({', '.join(describe(t) for t in types)})")
        return list(params[:len(types)]), result
    return rule


def _pointer_to(name: str, types: list[Any], want: Callable[[Any], bool], what: str) -> Any:
    p = types[0]
    if not isinstance(p, Pointer) or not want(p.store):
        raise BuiltinError(f"{name}'s first argument is a pointer to {what}, not "
                           f"{describe(p)} (write &x)")
    return p.store


def _array_length(name: str, types: list[Any]) -> Signature:
    _pointer_to(name, types, lambda t: isinstance(t, Array) and t.length is None,
                "a runtime-sized array")
    return types[:1], U32


def _atomic(name: str, types: list[Any]) -> Signature:
    store = _pointer_to(name, types, lambda t: isinstance(t, Atomic), "an atomic")
    if types[0].access != "read_write":
        raise BuiltinError(f"{name} needs a read_write pointer, not {describe(types[0])}: "
                           "declare the buffer var<storage, read_write>")
    for value in types[1:]:
        if not converts(value, store.scalar):
            raise BuiltinError(f"{name}: the value is {describe(value)}, the atomic holds "
                               f"{describe(store.scalar)}")
    params = types[:1] + [store.scalar] * (len(types) - 1)
    if name == "atomicStore":
        return params, None
    if name == "atomicCompareExchangeWeak":
        return params, Predeclared(result_struct_name("atomic_compare_exchange", store.scalar),
                                   (("old_value", store.scalar), ("exchanged", BOOL)))
    return params, store.scalar


def _uniform_load(name: str, types: list[Any]) -> Signature:
    store = _pointer_to(name, types, lambda t: True, "workgroup memory")
    if types[0].space != "workgroup":
        raise BuiltinError(f"workgroupUniformLoad takes a pointer to workgroup memory, not "
                           f"{describe(types[0])}")
    return types[:1], store.scalar if isinstance(store, Atomic) else store


def _derivative(name: str, types: list[Any]) -> Signature:
    _, t = _FLOAT_T(name, types)
    if leaf(t) not in (F32, AFLOAT):
        raise BuiltinError(f"{name} takes f32 or a vector of f32, not {describe(t)}")
    return _each(concretize(t), types)


def _subgroup(what: str, ok: Callable[[Any], bool]) -> Callable:
    def rule(name: str, types: list[Any]) -> Signature:
        t = concretize(_generic(name, types[:1], what, ok))
        lanes = (U32, AINT) if name.endswith(("Up", "Down", "Xor")) else (I32, U32, AINT)
        for index in types[1:]:
            if not isinstance(index, Scalar) or index not in lanes:
                raise BuiltinError(f"{name}: the {'delta or mask' if len(lanes) == 2 else 'lane'}"
                                   f" is {' or '.join(describe(x) for x in lanes[:-1])}, not "
                                   f"{describe(index)}")
        # (an abstract lane takes the overload's first integer type: u32 for a delta or a
        # mask, i32 for a lane, § Conversion rank)
        return [t] + [lanes[0] if i == AINT else i for i in types[1:]], t
    return rule


def _texture(name: str, types: list[Any]) -> Signature:
    first = types[:0]
    if name == "textureGather" and types and isinstance(types[0], Scalar):
        first, types = types[:1], types[1:]  # textureGather(component, t, s, coords)
    t = types[0] if types else None
    if not isinstance(t, Opaque) or not t.is_texture:
        raise BuiltinError(f"{name}'s first argument is a texture, not {describe(t)}")
    result = _texture_result(name, t, types[1:])
    roles = argument_roles(name, t, len(types) - 1) or []
    sampled = name.startswith(("textureSample", "textureGather"))
    floats = {"coords", "ddx", "ddy", "bias", "depth_ref"} if sampled else set()
    if name == "textureSampleLevel" and "depth" not in t.name:
        floats.add("level")
    # (an abstract argument takes its parameter's type: f32 where the overload takes a
    # float, the texel for a stored value, i32 for an integer level, index or coordinate)
    rest = [Vector(4, _texel(t)) if role == "value" else
            with_leaf(x, F32) if role in floats and is_abstract(x) else concretize(x)
            for role, x in zip(roles, types[1:])]
    return [concretize(x) for x in first] + types[:1] + rest, result


def _texture_result(name: str, t: Opaque, rest: list[Any]) -> Any:
    _texture_args(name, t, rest)
    if name == "textureStore":
        return None
    depth = "depth" in t.name
    if name == "textureDimensions":
        return U32 if t.name.endswith("_1d") else Vector(3, U32) if t.name.endswith(
            ("_3d",)) else Vector(2, U32)
    if name in ("textureNumLayers", "textureNumLevels", "textureNumSamples"):
        return U32
    if name.startswith("textureSampleCompare") or (depth and name != "textureGather"
                                                   and name != "textureGatherCompare"):
        return F32
    if name == "textureGatherCompare":
        return Vector(4, F32)
    if t.name.startswith("texture_storage"):
        fmt = t.params[0] if t.params else "rgba32float"
        return Vector(4, U32 if fmt.endswith("uint") else I32 if fmt.endswith("sint") else F32)
    sampled = {"i32": I32, "u32": U32, "f16": F16}.get(t.params[0] if t.params else "", F32)
    return Vector(4, sampled)


def _texel(t: Opaque) -> Any:
    """The component type of a texel of ``t`` (a sampled type, or a storage format's)."""
    if t.name.startswith("texture_storage"):
        fmt = t.params[0] if t.params else ""
        return U32 if fmt.endswith("uint") else I32 if fmt.endswith("sint") else F32
    if "depth" in t.name or t.name == "texture_external":
        return F32
    return {"i32": I32, "u32": U32, "f16": F16}.get(t.params[0] if t.params else "", F32)


def _texture_args(name: str, t: Opaque, rest: list[Any]) -> None:
    """A texture built-in's sampler, coordinates and stored value (§ Texture built-ins)."""
    try:
        check_arguments(name, t, rest)
    except ValueError as error:
        raise BuiltinError(str(error)) from None
    n = coordinate_dimension(t)
    if name.startswith(("textureSample", "textureGather")):
        comparison = "Compare" in name
        want = "sampler_comparison" if comparison else "sampler"
        if not rest or not isinstance(rest[0], Opaque) or rest[0].name != want:
            raise BuiltinError(f"{name} takes a {want} after the texture")
        coords = rest[1] if len(rest) > 1 else None
        shape = Vector(n, F32) if n > 1 else F32
        if coords is None or not converts(coords, shape):
            raise BuiltinError(f"{name} of {describe(t)}: the coordinates are "
                               f"{describe(shape)}, not {describe(coords)}")
        if _texel(t) != F32 and name != "textureGather":
            raise BuiltinError(f"{name} samples float textures, not {describe(t)}: read "
                               "an integer texture with textureLoad")
    elif name in ("textureLoad", "textureStore"):
        coords = rest[0] if rest else None
        ok = coords is not None and isinstance(coords, (Scalar, Vector)) and (
            (coords.size if isinstance(coords, Vector) else 1) == n) and leaf(coords) in (
            I32, U32, AINT)
        if not ok:
            shape = f"vec{n}<i32 or u32>" if n > 1 else "i32 or u32"
            raise BuiltinError(f"{name} of {describe(t)}: the coordinates are {shape}, not "
                               f"{describe(coords)}")
        if name == "textureStore":
            if not t.name.startswith("texture_storage") or (t.params[1:] == ("read",)):
                raise BuiltinError(f"textureStore writes a storage texture with write "
                                   f"access, not {describe(t)}")
            value = Vector(4, _texel(t))
            if not converts(rest[-1], value):
                raise BuiltinError(f"textureStore into {describe(t)} stores a "
                                   f"{describe(value)}, not {describe(rest[-1])}")


_ARITY: dict[str, tuple[int, int]] = {}
RULES: dict[str, Callable[[str, list[Any]], Signature]] = {}


def _add(names: str, rule: Callable, arity: int | tuple[int, int]) -> None:
    for name in names.split():
        RULES[name] = rule
        _ARITY[name] = arity if isinstance(arity, tuple) else (arity, arity)


_add("acos acosh asin asinh atan atanh ceil cos cosh degrees exp exp2 floor fract "
     "inverseSqrt log log2 radians round saturate sin sinh sqrt tan tanh trunc", _FLOAT_T, 1)
_add("atan2 pow step", _FLOAT_T, 2)
_add("smoothstep fma", _FLOAT_T, 3)
_add("quantizeToF16", lambda n, ts: _each(concretize(_FLOAT_T(n, ts)[1]), ts), 1)
_add("normalize", _vector_float, 1)
_add("reflect", _vector_float, 2)
_add("faceForward", _vector_float, 3)
_add("refract", _refract, 3)
_add("mix", _mix, 3)
_add("abs", _NUMERIC_T, 1)
_add("sign", _same("signed numeric scalars or vectors", _is_signed), 1)
_add("max min", _NUMERIC_T, 2)
_add("clamp", _NUMERIC_T, 3)
_add("countLeadingZeros countOneBits countTrailingZeros firstLeadingBit firstTrailingBit "
     "reverseBits", _INT_T, 1)
_add("extractBits", _bits, 3)
_add("insertBits", _bits, 4)
_add("length", _scalar_result(_FLOAT_T), 1)
_add("distance", _scalar_result(_FLOAT_T), 2)
_add("dot", _dot, 2)
_add("cross", _cross, 2)
_add("ldexp", _ldexp, 2)
_add("frexp modf", _frexp_modf, 1)
_add("determinant", _determinant, 1)
_add("transpose", _transpose, 1)
_add("all any", _bool_reduce, 1)
_add("select", _select, 3)
_add("pack4x8snorm pack4x8unorm", _fixed((Vector(4, F32),), U32), 1)
_add("pack4xI8 pack4xI8Clamp", _fixed((Vector(4, I32),), U32), 1)
_add("pack4xU8 pack4xU8Clamp", _fixed((Vector(4, U32),), U32), 1)
_add("pack2x16snorm pack2x16unorm pack2x16float", _fixed((Vector(2, F32),), U32), 1)
_add("unpack4x8snorm unpack4x8unorm", _fixed((U32,), Vector(4, F32)), 1)
_add("unpack4xI8", _fixed((U32,), Vector(4, I32)), 1)
_add("unpack4xU8", _fixed((U32,), Vector(4, U32)), 1)
_add("unpack2x16snorm unpack2x16unorm unpack2x16float", _fixed((U32,), Vector(2, F32)), 1)
_add("dot4U8Packed", _fixed((U32, U32), U32), 2)
_add("dot4I8Packed", _fixed((U32, U32), I32), 2)
_add("arrayLength", _array_length, 1)
_add("atomicLoad", _atomic, 1)
_add("atomicStore atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor "
     "atomicExchange", _atomic, 2)
_add("atomicCompareExchangeWeak", _atomic, 3)
_add("storageBarrier textureBarrier workgroupBarrier", lambda n, ts: ([], None), 0)
_add("workgroupUniformLoad", _uniform_load, 1)
_add("dpdx dpdxCoarse dpdxFine dpdy dpdyCoarse dpdyFine fwidth fwidthCoarse fwidthFine",
     _derivative, 1)
_add("subgroupAdd subgroupExclusiveAdd subgroupInclusiveAdd subgroupMul subgroupExclusiveMul "
     "subgroupInclusiveMul subgroupMax subgroupMin", _subgroup("numeric", _is_numeric), 1)
_add("subgroupAnd subgroupOr subgroupXor", _subgroup("integer", _is_int), 1)
_add("subgroupAll subgroupAny", _fixed((BOOL,), BOOL), 1)
_add("subgroupBallot", _fixed((BOOL,), Vector(4, U32)), (0, 1))
_add("subgroupElect", _fixed((), BOOL), 0)
_add("subgroupBroadcastFirst quadSwapX quadSwapY quadSwapDiagonal",
     _subgroup("numeric", _is_numeric), 1)
_add("subgroupBroadcast subgroupShuffle subgroupShuffleDown subgroupShuffleUp "
     "subgroupShuffleXor quadBroadcast", _subgroup("numeric", _is_numeric), 2)
_add("textureDimensions", _texture, (1, 2))
_add("textureNumLayers textureNumLevels textureNumSamples", _texture, 1)
_add("textureLoad", _texture, (2, 4))
_add("textureStore", _texture, (3, 4))
_add("textureSample textureSampleBias textureSampleCompare textureSampleCompareLevel "
     "textureSampleLevel textureSampleBaseClampToEdge", _texture, (3, 6))
_add("textureSampleGrad", _texture, (5, 7))
_add("textureGather textureGatherCompare", _texture, (3, 6))

#: the built-ins WGSL cannot evaluate in a const-expression
NOT_CONST = frozenset(
    "arrayLength workgroupUniformLoad storageBarrier textureBarrier workgroupBarrier".split()
    + [n for n in RULES if n.startswith(("atomic", "dpd", "fwidth", "subgroup", "quad",
                                         "texture"))])


def builtin_signature(name: str, types: list[Any], const: bool) -> Signature:
    """The overload a call of built-in ``name`` selects for the (loaded) argument ``types``:
    the parameter type each argument converts to, and the result type (None for a built-in
    that returns nothing). ``const``: every argument is a const-expression (abstract types
    stay abstract only then). Raises :class:`BuiltinError`."""
    rule = RULES.get(name)
    if rule is None:
        raise BuiltinError(f"the built-in function '{name}' is not supported")
    low, high = _ARITY[name]
    if not low <= len(types) <= high:
        wanted = f"{low}" if low == high else f"{low} to {high}"
        raise BuiltinError(f"{name} takes {wanted} argument{'s' if high != 1 else ''}, "
                           f"not {len(types)}")
    params, result = rule(name, types)  # (abstract arguments convert as the overload needs)
    if const and name not in NOT_CONST:
        return params, result
    return [concretize(p) for p in params], concretize(result)
