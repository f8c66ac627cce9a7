"""The IR's type model: WGSL's types as values, their WGSL spelling, abstract types and their
concretization, the run-time types they describe, and their memory layout by WGSL's rules."""

import pytest

import asyncshader as ash
from asyncshader.emit import wtypes
from asyncshader.ir import layout, types
from asyncshader.ir.types import (
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
    OverrideSize,
    Pointer,
    Reference,
    Struct,
    Vector,
)


def test_the_emitter_uses_the_irs_types_not_a_copy():
    assert wtypes.Vector is types.Vector and wtypes.Struct is types.Struct
    assert wtypes.from_python is types.from_python and wtypes.F32 is types.F32


@pytest.mark.parametrize("t, text", [
    (Vector(3, F32), "vec3f"), (Vector(2, BOOL), "vec2<bool>"), (Matrix(4, 3, F16), "mat4x3h"),
    (Array(Vector(4, U32), 8), "array<vec4u, 8>"), (Array(F32, None), "array<f32>"),
    (Array(U32, OverrideSize("N * 2")), "array<u32, N * 2>"), (Atomic(I32), "atomic<i32>"),
    (Pointer("function", F32), "ptr<function, f32>"),
    (Pointer("storage", Array(F32, None), "read_write"), "ptr<storage, array<f32>, read_write>"),
    (Pointer("storage", F32, "read"), "ptr<storage, f32>"),
    (Reference("private", I32), "ref<private, i32, read_write>"),
    (Opaque("texture_2d", ("f32",)), "texture_2d<f32>"), (Opaque("sampler"), "sampler"),
])
def test_types_spell_themselves_as_wgsl_does(t, text):
    assert t.wgsl == text


def test_abstract_types_and_their_concretization():
    assert types.is_abstract(Array(Vector(2, AINT), 3))
    assert types.is_abstract(Matrix(2, 2, AFLOAT))
    assert not types.is_abstract(Array(Vector(2, I32), 3))
    assert types.concretize(Array(Vector(2, AINT), 3)) == Array(Vector(2, I32), 3)
    assert types.concretize(AFLOAT) == F32 and types.concretize(Matrix(2, 3, AFLOAT)) == \
        Matrix(2, 3, F32)
    frexp = types.Predeclared("__frexp_result_vec2_abstract",
                              (("fract", Vector(2, AFLOAT)), ("exp", Vector(2, AINT))))
    assert types.concretize(frexp) == types.Predeclared(
        "__frexp_result_vec2_f32", (("fract", Vector(2, F32)), ("exp", Vector(2, I32))))


def test_run_time_types_map_onto_the_ir():
    @ash.struct
    class Particle:
        pos: ash.vec3f
        mass: ash.f32
        tag: ash.align(16, ash.u32)

    t = types.from_python(Particle)
    assert t.fields == (("pos", Vector(3, F32)), ("mass", F32), ("tag", U32))
    assert t.attrs == ("", "", "@align(16) ")
    assert types.from_python(ash.array(ash.vec2u, 4)) == Array(Vector(2, U32), 4)
    assert types.from_python(ash.atomic(ash.u32)) == Atomic(U32)


def test_struct_layout_follows_wgsl():
    # WGSL § Structure Member Layout, by hand: vec3f at 0 (align 16, size 12), f32 packed
    # after it at 12, array<vec2f, 3> at 16 (stride 8, size 24), mat3x3f at 48 (align 16,
    # size 48), @align(16) u32 at 96; the struct aligns to 16 and rounds 100 up to 112
    s = Struct("S", (("a", Vector(3, F32)), ("b", F32), ("c", Array(Vector(2, F32), 3)),
                     ("d", Matrix(3, 3, F32)), ("e", U32)), ("", "", "", "", "@align(16) "))
    laid = layout.struct_layout(s)
    assert [(m.name, m.offset, m.align, m.size) for m in laid.members] == [
        ("a", 0, 16, 12), ("b", 12, 4, 4), ("c", 16, 8, 24), ("d", 48, 16, 48),
        ("e", 96, 16, 4)]
    assert (laid.align, laid.size) == (16, 112)
    assert layout.size_of(s) == 112 and layout.align_of(s) == 16


def test_layout_of_nested_structs_sizes_and_runtime_arrays():
    inner = Struct("Inner", (("v", Vector(2, F16)), ("w", F32)))
    outer = Struct("Outer", (("x", U32), ("i", inner), ("rest", Array(F32, None))),
                   ("@size(8) ", "", ""))
    laid = layout.struct_layout(outer)
    assert [(m.offset, m.size) for m in laid.members] == [(0, 8), (8, 8), (16, 0)]
    assert layout.stride_of(Vector(3, F32)) == 16 and layout.size_of(Matrix(2, 3, F16)) == 16
    with pytest.raises(TypeError, match="@size"):
        layout.struct_layout(Struct("Bad", (("v", Vector(4, F32)),), ("@size(8) ",)))
    with pytest.raises(TypeError, match="override"):
        layout.size_of(Array(F32, OverrideSize("N")))
