"""WGSL's host-shareable layout (AlignOf, SizeOf, member offsets, strides, the uniform rules):
every expected number is worked out by hand from the spec's rules (WGSL §Memory Layout; the
spec's own examples where it has them), not computed by the code under test."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import array, atomic, f32, u32, vec2f, vec3f, vec4f
from asyncshader.wgsl.layout import check_uniform
from asyncshader.wgsl.types import _ScalarType


class Mat:
    """A class of the matrix protocol the layout relies on: cols, rows, scalar, column, built
    from an ndarray shaped (cols, rows), np.asarray gives it back."""

    def __init__(self, a):
        self.a = np.array(a, np.float32).reshape(self.cols, self.rows)

    def __array__(self, dtype=None, copy=None):
        return self.a.astype(dtype or np.float32)


def mat(c, r):
    column = {2: vec2f, 3: vec3f, 4: vec4f}[r]
    return type(f"mat{c}x{r}f", (Mat,), {"cols": c, "rows": r, "scalar": f32, "column": column})


class f16(metaclass=_ScalarType):
    """A 2-byte scalar of the scalar protocol, as f16 is."""

    numpy_type = np.float16
    dtype = np.dtype(np.float16)
    wgsl = "f16"

    def __new__(cls, x=0.0):
        return np.float16(x)


def offsets(s):
    return [s.offsets[n] for n in s.offsets]


def test_vec3_followed_by_a_scalar_fills_its_padding():
    @ash.struct
    class S:
        a: vec3f  # align 16, size 12
        b: f32    # roundUp(4, 12) = 12
    assert offsets(S) == [0, 12]
    assert (S.align, S.size) == (16, 16)


def test_scalar_then_vec3_pads_to_16():
    @ash.struct
    class S:
        a: f32
        b: vec3f  # roundUp(16, 4) = 16
    assert offsets(S) == [0, 16]
    assert (S.align, S.size) == (16, 32)  # roundUp(16, 28)


def test_vec3_array_has_stride_16():
    @ash.struct
    class S:
        a: array(vec3f, 3)  # stride roundUp(16, 12) = 16, size 48
        b: f32
    assert ash.stride_of(vec3f) == 16
    assert ash.size_of(array(vec3f, 8)) == 128  # the spec's example (L11242-11247)
    assert offsets(S) == [0, 48]
    assert (S.align, S.size) == (16, 64)  # roundUp(16, 52)
    assert S.dtype.itemsize == 64 and S.dtype.fields["a"][0].itemsize == 48


def test_spec_example_a_and_b():
    @ash.struct
    class A:
        u: f32
        v: f32
        w: vec2f
        x: f32

    @ash.struct
    class B:
        a: vec2f
        b: vec3f
        c: f32
        d: f32
        e: A
        f: vec3f
        g: array(A, 3)
        h: ash.i32
    assert offsets(A) == [0, 4, 8, 16] and (A.align, A.size) == (8, 24)
    assert offsets(B) == [0, 16, 28, 32, 40, 64, 80, 152]
    assert (B.align, B.size) == (16, 160)
    assert B.dtype.itemsize == 160


def test_spec_example_with_align_and_size():
    @ash.struct
    class A:
        u: f32
        v: f32
        w: vec2f
        x: ash.size(16, f32)

    @ash.struct
    class B:
        a: vec2f
        b: vec3f
        c: f32
        d: f32
        e: ash.align(16, A)
        f: vec3f
        g: array(A, 3)
        h: ash.i32
    assert (A.align, A.size) == (8, 32)
    assert offsets(B) == [0, 16, 28, 32, 48, 80, 96, 192]
    assert ash.stride_of(A) == 32
    assert B.size == 208


def test_align_and_size_attributes():
    @ash.struct
    class S:
        a: ash.size(20, f32)
        b: ash.align(32, f32)
    assert offsets(S) == [0, 32]
    assert (S.align, S.size) == (32, 64)


def test_nested_struct():
    @ash.struct
    class Inner:
        a: f32
        b: vec2f  # at 8

    @ash.struct
    class Outer:
        x: f32
        i: Inner  # align 8: at 8, size 16
        y: f32    # at 24
    assert offsets(Inner) == [0, 8] and (Inner.align, Inner.size) == (8, 16)
    assert offsets(Outer) == [0, 8, 24] and (Outer.align, Outer.size) == (8, 32)


@pytest.mark.parametrize("c, r, align, size", [
    (2, 2, 8, 16), (3, 2, 8, 24), (4, 2, 8, 32), (2, 3, 16, 32), (3, 3, 16, 48),
    (4, 3, 16, 64), (2, 4, 16, 32), (3, 4, 16, 48), (4, 4, 16, 64)])
def test_matrix_table(c, r, align, size):
    m = mat(c, r)
    assert (ash.align_of(m), ash.size_of(m)) == (align, size)


def test_matrix_member_columns_are_padded():
    m33 = mat(3, 3)

    @ash.struct
    class S:
        a: f32
        m: m33   # align 16, size 48: at 16
        b: f32   # at 64
    assert offsets(S) == [0, 16, 64] and S.size == 80
    buf = S.zeros(1)
    buf[0]["m"]["v"][:] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    words = buf.view(np.float32)  # columns at 16, 32, 48: words 4.., 8.., 12..
    assert words[4:7].tolist() == [1, 2, 3] and words[8:11].tolist() == [4, 5, 6]
    assert words[12:15].tolist() == [7, 8, 9] and words[7] == words[11] == 0


def test_f16_members_are_two_bytes():
    @ash.struct
    class S:
        a: f16
        b: f32  # roundUp(4, 2) = 4
        c: f16  # at 8
    assert offsets(S) == [0, 4, 8]
    assert (S.align, S.size) == (4, 12)


def test_atomic_member_and_vec4():
    @ash.struct
    class S:
        n: atomic(u32)
        v: vec4f
    assert offsets(S) == [0, 16] and (S.align, S.size) == (16, 32)


def test_runtime_sized_last_member():
    @ash.struct
    class Buf:
        count: u32
        data: ash.runtime_array(vec3f)  # align 16: at 16, stride 16
    assert offsets(Buf) == [0, 16]
    assert Buf.zeros(length=5).dtype.itemsize == 16 + 5 * 16
    with pytest.raises(TypeError, match="only as the last member"):
        @ash.struct
        class Bad:
            data: ash.runtime_array(f32)
            count: u32


def test_dtype_bytes_match_the_offsets():
    @ash.struct
    class Particle:
        position: vec3f
        mass: f32
        velocity: ash.align(16, vec3f)
        history: array(vec2f, 4)
    assert offsets(Particle) == [0, 12, 16, 32] and Particle.size == 64
    p = Particle.zeros(2)
    p[1]["mass"] = 2.5
    p[1]["velocity"] = [1, 2, 3]
    p[1]["history"][3] = [7, 8]
    raw = p.tobytes()
    at = np.frombuffer(raw, np.float32)
    assert at[(64 + 12) // 4] == 2.5
    assert at[(64 + 16) // 4:(64 + 28) // 4].tolist() == [1, 2, 3]
    assert at[(64 + 32 + 3 * 8) // 4:(64 + 32 + 4 * 8) // 4].tolist() == [7, 8]
    assert np.count_nonzero(at) == 6
    assert ash.buffer(Particle, 3).shape == (3,)


def test_bad_declarations_name_the_member():
    with pytest.raises(TypeError, match=r"member 'x' has @size\(2\).*n >= 4"):
        @ash.struct
        class S1:
            x: ash.size(2, f32)
    @ash.struct
    class S2:
        b: ash.bool_
        f: ash.vec3b
    assert S2.offsets == {"b": 0, "f": 16} and S2.size == 32  # (bool: 4 bytes, as u32)
    with pytest.raises(TypeError, match="member 'b' is bool, which is not host-shareable"):
        ash.Uniform[S2]
    with pytest.raises(TypeError, match="power of two"):
        ash.align(12, f32)
    with pytest.raises(TypeError, match=r"@align\(4\).*multiple of 16"):
        @ash.struct
        class S3:
            v: ash.align(4, vec4f)


# ---------------------------------------------------------------- the uniform address space
def test_uniform_array_stride_must_be_16():
    with pytest.raises(TypeError, match=r"stride of 4 bytes.*multiples of 16"):
        check_uniform(array(f32, 8), "u")

    @ash.struct
    class Elem:
        e: ash.size(16, f32)
    check_uniform(array(Elem, 8), "u")  # stride 16: valid (the spec's example)


def test_uniform_struct_member_offsets_and_gap():
    @ash.struct
    class S:
        a: f32
        b: f32  # size 8, align 4

    @ash.struct
    class Gap:
        s: S
        b: f32  # at 8, but the member after a struct needs roundUp(16, 8) = 16
    with pytest.raises(TypeError, match=r"Gap\.b.*roundUp\(16, SizeOf\) = 16.*align\(16, f32\)"):
        check_uniform(Gap, "u")

    @ash.struct
    class Fixed:
        s: S
        b: ash.align(16, f32)
    check_uniform(Fixed, "u")

    @ash.struct
    class Misplaced:
        x: f32
        s: S  # at 4: a struct member needs a multiple of 16 in uniform
    assert Misplaced.offsets["s"] == 4
    with pytest.raises(TypeError, match=r"Misplaced\.s.*offset 4.*multiple of 16.*align\(16, S\)"):
        check_uniform(Misplaced, "u")


def test_real_f16_vectors_follow_the_spec_table():
    # WGSL §Alignment and Size: vec2<f16> 4/4, vec3<f16> 8/6, vec4<f16> 8/8
    assert [(ash.align_of(t), ash.size_of(t)) for t in (ash.vec2h, ash.vec3h, ash.vec4h)] == \
        [(4, 4), (8, 6), (8, 8)]

    @ash.struct
    class H:
        a: ash.vec3h    # 0, size 6
        b: ash.f16      # 6: fills the vec3h's padding
        c: f32          # 8
        d: ash.vec3h    # roundUp(8, 12) = 16
    assert offsets(H) == [0, 6, 8, 16] and (H.align, H.size) == (8, 24)
