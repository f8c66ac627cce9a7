"""to_wgsl for module tuples: a tuple the shader indexes becomes a module-scope WGSL const
array (of numbers, of one vector type, of equal-length tuples), indexed at run time on
lavapipe as on the CPU; Python ints take the type their uses ask for, else i32; a constant
index reads the element as a module constant; len() is a constant; tuples WGSL cannot hold,
and constant indices past the end, are errors naming the line."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, mat2x2f, u32, vec2f, vec3f
from asyncshader.emit import WGSLEmitError, to_wgsl
from asyncshader.extra.gpu import validate

PALETTE = (vec3f(1.0, 0.5, 0.25), vec3f(2.0, 4.0, 8.0), vec3f(0.0, -1.0, 3.0))
SQUARES = (0, 1, 4, 9, 16, 25, 36, 49)     # Python ints: met by a u32 below
OFFSETS = ((1, 2), (3, 4), (5, 6))         # met by nothing typed: i32
HALVES = (0.5, 1.5, 2.5)                   # Python floats: f32
FLAGS = (True, False)


@ash.compute(workgroup_size=8)
async def lookup(keys: ash.Storage[u32], out: ash.Storage[f32], idx: ash.Storage[u32], *,
                 local_invocation_index: u32):
    i = local_invocation_index
    k = keys[i]
    c = PALETTE[k % 3]
    a, b = OFFSETS[k % 3]
    out[i] = c.x + c.y * HALVES[k % 3] + f32(a * 10 + b)
    idx[i] = SQUARES[k] + u32(FLAGS[k % 2]) * 100 + len(SQUARES)


def test_module_tuples_are_declared_as_const_arrays(wgsl_device):
    text = to_wgsl(lookup)
    assert text.startswith(
        "const PALETTE = array<vec3f, 3>(\n"
        "    vec3f(1.0f, 0.5f, 0.25f), vec3f(2.0f, 4.0f, 8.0f), vec3f(0.0f, -1.0f, 3.0f)\n"
        ");\n"
        "const OFFSETS = array<array<i32, 2>, 3>(\n"
        "    array<i32, 2>(1i, 2i), array<i32, 2>(3i, 4i), array<i32, 2>(5i, 6i)\n"
        ");\n"
        "const HALVES = array<f32, 3>(0.5f, 1.5f, 2.5f);\n"
        "const SQUARES = array<u32, 8>(0u, 1u, 4u, 9u, 16u, 25u, 36u, 49u);\n"
        "const FLAGS = array<bool, 2>(true, false);\n\n")
    assert "let c = PALETTE[k % 3];" in text
    assert "let tmp1 = OFFSETS[k % 3];\n    let a: i32 = tmp1[0];\n    let b: i32 = tmp1[1];" \
        in text
    assert "out[i] = c.x + c.y * HALVES[k % 3] + f32(a * 10 + b);" in text
    assert "idx[i] = SQUARES[k] + u32(FLAGS[k % 2]) * 100 + 8;" in text  # len(): a constant
    assert to_wgsl(lookup) == text  # (stable)
    validate(text, wgsl_device)


def test_a_runtime_index_into_const_arrays_agrees_with_lavapipe(crosscheck):
    keys = np.array([7, 2, 5, 0, 3, 6, 1, 4], np.uint32)
    report = crosscheck(lookup, 1, keys=keys, out=np.zeros(8, np.float32),
                        idx=np.zeros(8, np.uint32), ulp=0)
    # by hand from the tuples: m = k % 3 picks the row
    palette = np.array([[1.0, 0.5, 0.25], [2.0, 4.0, 8.0], [0.0, -1.0, 3.0]])
    halves, offsets = np.array([0.5, 1.5, 2.5]), np.array([[1, 2], [3, 4], [5, 6]])
    m = keys % 3
    expected = palette[m, 0] + palette[m, 1] * halves[m] + offsets[m, 0] * 10 + offsets[m, 1]
    assert report.gpu["out"].tolist() == expected.tolist()
    assert report.gpu["out"][:2].tolist() == [2 + 4 * 1.5 + 34, 0 - 1 * 2.5 + 56]  # k = 7, 2
    assert report.gpu["idx"].tolist() == (keys**2 + 100 * (keys % 2 == 0) + 8).tolist()


TABLE = (3, 1, 4, 1, 5)


@ash.compute(workgroup_size=4)
async def scaled(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = TABLE[i] * out[i] + TABLE[2] * out[i] + f32(len(TABLE))


@ash.compute(workgroup_size=4)
async def counted(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = f32(TABLE[i])


def test_python_ints_take_the_type_their_uses_ask_for(crosscheck):
    # met by an f32: the array is f32, as `const K = 3;` converts where it meets an f32
    text = to_wgsl(scaled)
    assert "const TABLE = array<f32, 5>(3.0f, 1.0f, 4.0f, 1.0f, 5.0f);" in text
    # a constant index is the element itself, an abstract int as a module constant is
    assert "out[i] = TABLE[i] * out[i] + 4 * out[i] + f32(5);" in text
    report = crosscheck(scaled, 1, out=np.array([1, 2, 3, 4], np.float32), ulp=0)
    assert report.gpu["out"].tolist() == [3 * 1 + 4 * 1 + 5, 1 * 2 + 4 * 2 + 5,
                                          4 * 3 + 4 * 3 + 5, 1 * 4 + 4 * 4 + 5]
    # only converted: nothing asks, so i32 (a conversion takes any type)
    assert "const TABLE = array<i32, 5>(3i, 1i, 4i, 1i, 5i);" in to_wgsl(counted)
    assert "out[i] = f32(TABLE[i]);" in to_wgsl(counted)
    assert crosscheck(counted, 1, out=np.zeros(4, np.float32)).gpu["out"].tolist() == [3, 1,
                                                                                        4, 1]


DOUBLED = (1, 2, 3)


@ash.compute(workgroup_size=3)
async def halved(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = DOUBLED[i] * 0.5


def test_python_ints_met_by_a_python_float_are_f32(crosscheck):
    assert "const DOUBLED = array<f32, 3>(1.0f, 2.0f, 3.0f);" in to_wgsl(halved)
    report = crosscheck(halved, 1, out=np.zeros(3, np.float32), ulp=0)
    assert report.gpu["out"].tolist() == [0.5, 1.0, 1.5]


MATRICES = (mat2x2f(1, 2, 3, 4), mat2x2f(5, 6, 7, 8))
SCALARS = (np.float32(1.5), np.float32(2.5))
SEGMENTS = ((vec2f(0, 1), vec2f(1, 0)), (vec2f(2, 2), vec2f(3, 3)))


@ash.compute(workgroup_size=2)
async def composite(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    m = MATRICES[i]
    out[i] = m[1].y + SCALARS[i] + SEGMENTS[i][1].x + f32(len(SEGMENTS[0]))


def test_tuples_of_matrices_numpy_scalars_and_tuples_of_vectors(crosscheck):
    text = to_wgsl(composite)
    assert "const MATRICES = array<mat2x2f, 2>(\n    mat2x2f(vec2f(1.0f, 2.0f), " in text
    assert "const SCALARS = array<f32, 2>(1.5f, 2.5f);" in text
    assert "const SEGMENTS = array<array<vec2f, 2>, 2>(\n" in text
    report = crosscheck(composite, 1, out=np.zeros(2, np.float32), ulp=0)
    # column 1's y, the scalar, the second point's x, len 2
    assert report.gpu["out"].tolist() == [4 + 1.5 + 1 + 2, 8 + 2.5 + 3 + 2]


def _colour(k: u32) -> vec3f:
    return PALETTE[k] * 0.5


@ash.compute(workgroup_size=3)
async def shades(out: ash.Storage[vec3f], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = _colour(i) + PALETTE[i]


def test_a_helper_and_the_entry_point_share_one_declaration(crosscheck):
    text = to_wgsl(shades)
    assert text.count("const PALETTE") == 1 and "return PALETTE[k] * 0.5;" in text
    report = crosscheck(shades, 1, out=np.zeros((3, 3), np.float32), ulp=0)
    np.testing.assert_array_equal(report.gpu["out"], 1.5 * np.array(
        [[1.0, 0.5, 0.25], [2.0, 4.0, 8.0], [0.0, -1.0, 3.0]]))


def test_a_long_tuple_of_numbers_wraps_as_many_a_line_as_fit():
    ramp = tuple(k / 8 for k in range(40))

    @ash.compute(workgroup_size=1)
    async def first(out: ash.Storage[f32], k: u32):
        out[0] = ramp[k]

    text = to_wgsl(first)
    lines = text[:text.index(");")].splitlines()
    assert lines[0] == "const ramp = array<f32, 40>("
    rows = [line.strip().rstrip(",").split(", ") for line in lines[1:]]
    assert [e for row in rows for e in row] == [f"{k / 8}f" for k in range(40)]
    assert all(len(line) <= 100 for line in lines)
    # each row is full: its next element would not fit on it
    assert all(len(line) + len(", " + nxt[0]) > 100 for line, nxt in zip(lines[1:], rows[1:]))


# ------------------------------------------------------------------------ errors
MIXED = (1, vec3f(1.0, 2.0, 3.0))
NAMES = ("red", "green")
RAGGED = ((1, 2), (3,))
EMPTY = ()
SIGNED = (-1, 2)
scratch = ash.workgroup(ash.array(f32, 64))


@ash.compute(workgroup_size=1)
async def past_the_end(out: ash.Storage[vec3f]):
    out[0] = PALETTE[3]


@ash.compute(workgroup_size=1)
async def workgroup_past_the_end(out: ash.Storage[f32]):
    out[0] = scratch[64]


@ash.compute(workgroup_size=1)
async def mixed(out: ash.Storage[f32], k: u32):
    out[0] = f32(MIXED[k])


@ash.compute(workgroup_size=1)
async def names(out: ash.Storage[f32], k: u32):
    out[0] = f32(NAMES[k])


@ash.compute(workgroup_size=1)
async def ragged(out: ash.Storage[f32], k: u32):
    out[0] = f32(RAGGED[k][0])


@ash.compute(workgroup_size=1)
async def empty(out: ash.Storage[f32], k: u32):
    out[0] = f32(EMPTY[k])


@ash.compute(workgroup_size=1)
async def two_types(out: ash.Storage[f32], idx: ash.Storage[u32], k: u32):
    idx[0] = TABLE[k] + idx[0]
    out[0] = TABLE[k] * out[0]


@ash.compute(workgroup_size=1)
async def negative_u32(idx: ash.Storage[u32], k: u32):
    idx[0] = SIGNED[k] + idx[0]


@ash.compute(workgroup_size=1)
async def length_of_a_buffer(out: ash.Storage[f32]):
    out[0] = f32(len(out))


@ash.compute(workgroup_size=1)
async def unpacks_too_few(out: ash.Storage[f32], k: u32):
    a, b = PALETTE[k]
    out[0] = a + b


@pytest.mark.parametrize("kernel,message", [
    (past_the_end, r"the index 3 of `PALETTE`, past its end \(3 elements, so 0 to 2\).*"
                   r"Fix: index within the array"),
    (workgroup_past_the_end, r"the index 64 of `scratch`, past its end \(64 elements"),
    (mixed, r"the module tuple MIXED \(it mixes Python ints and vec3f; WGSL arrays hold "
            r"elements of one type\).*Fix: make it a tuple of numbers, of one vector type"),
    (names, r"the module tuple NAMES \(it holds str 'red', which has no WGSL literal\)"),
    (ragged, r"the module tuple RAGGED \(its tuples have different lengths \(2 and 1\)"),
    (empty, r"the module tuple EMPTY \(it is empty, and WGSL has no arrays of length 0\)"),
    (two_types, r"mixing u32 and f32 \(WGSL converts no types implicitly\).*Fix: convert one "
                r"side explicitly"),
    (length_of_a_buffer, r"len\(\) of `out`.*Fix: use ash.array_length\(buf\) for a buffer"),
    (unpacks_too_few, r"unpacking `PALETTE\[k\]` into 2 names.*Fix: unpack a vector or a "
                      r"fixed-size array"),
])
def test_what_wgsl_cannot_hold_names_the_line_and_the_fix(kernel, message):
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_consts.py:\d+: .*" + message):
        to_wgsl(kernel)


def test_a_negative_int_in_an_array_its_uses_make_u32_is_an_error():
    with pytest.raises(WGSLEmitError, match=r"the module tuple SIGNED holds -1, which is not a "
                       r"u32 \(its uses make it an array<u32>\). Fix: keep its values in "
                       r"0..4294967295, or convert where it is used"):
        to_wgsl(negative_u32)


SIDE = 16
SCALE = 0.5


@ash.compute(workgroup_size=4)
async def folded_or_named(out: ash.Storage[f32], *, local_invocation_index: u32):
    out[local_invocation_index] = f32(SIDE) * SCALE   # f32(SIDE) folds to a literal


def test_a_constant_whose_uses_all_fold_is_not_declared():
    """Only constants the emitted text names are declared (a reviewer would flag the rest)."""
    text = to_wgsl(folded_or_named)
    assert "const SCALE = 0.5;" in text and "16.0f * SCALE" in text
    assert "SIDE" not in text
