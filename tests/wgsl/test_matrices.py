"""Matrices as values: layout facts, constructors, access, WGSL's operators (judged against
exact arithmetic on numpy's float64 inputs), transpose and determinant, and the errors."""

import copy
import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import (
    f32,
    i32,
    mat2x2f,
    mat2x3f,
    mat3x2f,
    mat3x3f,
    mat4x3f,
    mat4x4f,
    vec2f,
    vec3f,
    vec3i,
    vec4f,
)

SHAPES = [(c, r) for c in (2, 3, 4) for r in (2, 3, 4)]
MATS = {(c, r): getattr(ash, f"mat{c}x{r}f") for c, r in SHAPES}
VECS = {2: vec2f, 3: vec3f, 4: vec4f}

#: WGSL §Alignment and Size, the matrix table (f32): AlignOf, SizeOf
SPEC_LAYOUT = {(2, 2): (8, 16), (3, 2): (8, 24), (4, 2): (8, 32), (2, 3): (16, 32),
               (3, 3): (16, 48), (4, 3): (16, 64), (2, 4): (16, 32), (3, 4): (16, 48),
               (4, 4): (16, 64)}


def rand(shape, seed, scale=10.0):
    """Random f32 values (as a float64 array holding them exactly)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(np.float32).astype(np.float64)


def mat(a):
    """The matrix class of an array of shape (C, R), made from it."""
    return MATS[a.shape](a)


def vec(a):
    return VECS[len(a)](*a.tolist())


def faithful(result, exact):
    """Whether the f32 ``result`` is one of the two f32 values next to the exact ``exact``
    (a Fraction): no f32 lies strictly between them. WGSL's products inherit the accuracy of a
    sum in any order, which always allows both."""
    r = np.float32(result)
    lo = np.nextafter(r, np.float32(-np.inf))
    hi = np.nextafter(r, np.float32(np.inf))
    return Fraction(float(lo)) < exact < Fraction(float(hi)) or Fraction(float(r)) == exact


def exact_dot(xs, ys):
    return sum((Fraction(float(x)) * Fraction(float(y)) for x, y in zip(xs, ys)), Fraction(0))


# ----------------------------------------------------------------------------- the classes
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_class_attributes_and_the_spec_layout(shape):
    c, r = shape
    m = MATS[shape]
    assert m.__name__ == f"mat{c}x{r}f" and m.wgsl == f"mat{c}x{r}<f32>"
    assert (m.cols, m.rows, m.shape) == (c, r, (c, r))
    assert m.scalar is f32 and m.column is VECS[r] and m.dtype == np.float32
    assert (m.align, m.size) == SPEC_LAYOUT[shape]


# ----------------------------------------------------------------------------- constructors
def test_scalars_fill_column_major_as_wgsl_says():
    m = mat2x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)  # WGSL: mat2x3(vec3(e1,e2,e3), vec3(e4,e5,e6))
    assert m == mat2x3f(vec3f(1, 2, 3), vec3f(4, 5, 6))
    assert m[1] == vec3f(4, 5, 6) and m[1][0] == 4.0 and type(m[1][0]) is np.float32
    assert np.asarray(m).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert np.asarray(m).dtype == np.float32


def test_zero_conversion_and_arrays():
    assert np.asarray(mat4x3f()).tolist() == [[0.0] * 3] * 4
    a = np.arange(12, dtype=np.float64).reshape(4, 3) + 0.1
    m = mat4x3f(a)
    assert np.array_equal(np.asarray(m), a.astype(np.float32))  # rounded to f32
    assert mat4x3f(m) == m and mat4x3f(m) is not m
    assert mat2x2f([[1, 2], [3, 4]])[1] == vec2f(3, 4)
    assert mat2x2f(f32(1), 2, 3.5, np.float64(4))[1] == vec2f(3.5, 4)


def test_a_constructed_matrix_does_not_share_its_columns():
    v = vec2f(1, 2)
    m = mat2x2f(v, v)
    v.x = 9.0
    m[0].y = 7.0
    assert m == mat2x2f(1, 7, 1, 2)


@pytest.mark.parametrize("args, fragment", [
    ((1.0, 2.0, 3.0), "from 2 vec2f columns, from 4 scalars"),
    ((vec3f(1, 2, 3), vec3f(1, 2, 3)), "the columns of a mat2x2<f32> are vec2f"),
    ((vec2f(1, 2), vec3f(1, 2, 3)), "a mat2x2f column has 2 components"),
    ((i32(1), 2.0, 3.0, 4.0), "write f32(x)"),
    ((np.float16(1), 2.0, 3.0, 4.0), "f16"),
    ((True, 2.0, 3.0, 4.0), "bool"),
    ((1e39, 2.0, 3.0, 4.0), "does not fit in f32"),
    ((mat3x3f(),), "only to the same shape"),
    ((np.zeros((2, 3), np.float32),), "shape (2, 3)"),
    ((np.zeros((2, 2), bool),), "dtype bool"),
])
def test_wrong_constructor_arguments_are_refused_with_the_forms(args, fragment):
    with pytest.raises(ash.ShaderTypeError) as info:
        mat2x2f(*args)
    assert fragment in str(info.value)


def test_a_padded_three_row_array_is_refused_with_the_padding_explained():
    with pytest.raises(ash.ShaderTypeError, match=r"drop the padding row with a\[:, :3\]"):
        mat3x3f(np.zeros((3, 4), np.float32))


# ----------------------------------------------------------------------------- access
def test_columns_are_references_and_assignment_copies():
    m = mat3x2f()
    v = vec2f(1, 2)
    m[1] = v
    v.x = 5.0  # m[1] = v stored a copy
    m[2][1] = 3.0  # m[2] is column 2 itself, as WGSL's m[2] of a variable
    m[0].x = 4.0
    assert np.asarray(m).tolist() == [[4, 0], [1, 2], [0, 3]]
    assert len(m) == 3 and list(m) == [vec2f(4, 0), vec2f(1, 2), vec2f(0, 3)]
    m[np.uint32(1)] = vec2f(6, 7)
    assert m[np.int32(1)] == vec2f(6, 7)


@pytest.mark.parametrize("index, error", [(-1, IndexError), (3, IndexError),
                                          (1.0, TypeError), (True, TypeError)])
def test_column_indices_out_of_range_are_errors_not_other_columns(index, error):
    m = mat3x2f()
    with pytest.raises(error, match="column"):
        m[index]
    with pytest.raises(error, match="column"):
        m[index] = vec2f()


@pytest.mark.parametrize("value, fragment", [(vec3f(), "has 2 components"),
                                             (vec3i(1, 2, 3), "has 2 components"),
                                             (1.0, "columns of a mat3x2<f32> are vec2f")])
def test_setting_a_column_checks_its_type(value, fragment):
    with pytest.raises(ash.ShaderTypeError, match=fragment):
        mat3x2f()[0] = value


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_a_copy_has_its_own_columns(copier):
    m = mat2x2f(1, 2, 3, 4)
    c = copier(m)
    c[0].x = 9.0
    assert m == mat2x2f(1, 2, 3, 4) and c == mat2x2f(9, 2, 3, 4) and type(c) is mat2x2f


def test_equality_is_a_python_bool_of_every_component():
    a, b = mat2x2f(1, 2, 3, 4), mat2x2f(1, 2, 3, 4)
    assert a == b and not (a != b)
    b[1].y = 5.0
    assert a != b and (a == b) is False
    assert mat2x2f() != vec4f() and mat2x2f() != mat3x2f()
    with pytest.raises(TypeError, match="no matrix comparisons"):
        bool(a)
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)


# ----------------------------------------------------------------------------- arithmetic
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matrix_times_vector_and_vector_times_matrix(shape):
    c, r = shape
    for seed in range(20):
        a, x, y = rand(shape, seed), rand(c, 100 + seed), rand(r, 200 + seed)
        mv = mat(a) * vec(x)  # component i: sum over columns k of a[k, i] * x[k]
        assert type(mv) is VECS[r]
        for i in range(r):
            assert faithful(mv[i], exact_dot(a[:, i], x)), (seed, i)
        vm = vec(y) * mat(a)  # component k: dot(y, column k)
        assert type(vm) is VECS[c]
        for k in range(c):
            assert faithful(vm[k], exact_dot(y, a[k])), (seed, k)
        assert mat(a) @ vec(x) == mv and vec(y) @ mat(a) == vm  # @: the same product


@pytest.mark.parametrize("left, right", [(s, t) for s, t in itertools.product(SHAPES, SHAPES)
                                         if s[0] == t[1]], ids=str)
def test_matrix_times_matrix_is_the_linear_algebra_product(left, right):
    a, b = rand(left, 1), rand(right, 2)  # matKxR * matCxK -> matCxR
    p = mat(a) * mat(b)
    assert type(p) is MATS[(right[0], left[1])]
    product = b @ a  # numpy, float64: column c of the product is a applied to b's column c
    assert np.allclose(np.asarray(p), product, rtol=1e-5, atol=1e-3)
    for col, row in itertools.product(range(right[0]), range(left[1])):
        assert faithful(p[col][row], exact_dot(a[:, row], b[col]))
    assert mat(a) @ mat(b) == p


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_component_wise_operations_round_each_component_to_f32(shape):
    a, b = rand(shape, 3), rand(shape, 4)
    s = 0.1  # an abstract float: f32(0.1) times each component, rounded
    f = np.float32
    assert np.array_equal(np.asarray(mat(a) + mat(b)), (a + b).astype(f))  # exact in float64
    assert np.array_equal(np.asarray(mat(a) - mat(b)), (a - b).astype(f))
    scaled = (a * float(f(s))).astype(f)
    assert np.array_equal(np.asarray(mat(a) * s), scaled)
    assert np.array_equal(np.asarray(s * mat(a)), scaled)
    assert np.array_equal(np.asarray(f(s) * mat(a)), scaled)  # numpy defers to the matrix
    assert np.array_equal(np.asarray(mat(a) * f(s)), scaled)
    assert type(f(s) * mat(a)) is MATS[shape]


def test_products_overflow_to_infinity_and_keep_nan_without_warnings():
    big = mat2x2f(3e38, 3e38, 3e38, 3e38)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert big * vec2f(2, 2) == vec2f(np.inf, np.inf)
        assert (vec2f(-2, -2) * big).x == -np.inf
        r = mat2x2f(np.nan, 0, 0, 1) * vec2f(1, 1)
        assert np.isnan(r.x) and r.y == 1
    with np.errstate(over="ignore"):  # (numpy's f32 addition warns outside a dispatch)
        assert (big + big)[0].x == np.inf
    # the float64 sum does not overflow where an f32 sum in some order would (WGSL allows it)
    assert mat2x2f(3e38, 0, -3e38, 0) * vec2f(2, 2) == vec2f(0, 0)


def test_a_product_rounds_once_from_the_exact_sum():
    # 1 + 2**-24 + 2**-24: f32 left to right gives 1.0 twice; the exact sum is 1 + 2**-23
    m = mat3x2f(1.0, 0.0, 2.0**-24, 0.0, 2.0**-24, 0.0)
    assert (m * vec3f(1, 1, 1)).x == np.float32(1 + 2.0**-23)


# ----------------------------------------------------------------------------- WGSL has none
@pytest.mark.parametrize("expr, fragment", [
    ("m * vec3f(1, 2, 3)", "mat2x2f * v takes a vec2f (one component per column)"),
    ("vec3f(1, 2, 3) * m", "v * mat2x2f takes a vec2f (one component per row)"),
    ("m * mat3x3f()", "mat2x2f has 2 columns and mat3x3f has 3 rows"),
    ("m + mat3x3f()", "one shape"),
    ("m + 1.0", "no scalar or vector operand"),
    ("vec2f(1, 2) + m", "no scalar or vector operand"),
    ("1.0 - m", "no scalar or vector operand"),
    ("m / 2.0", "multiply by the reciprocal"),
    ("m % 2.0", "no matrix division"),
    ("-m", "no negation"),
    ("m < m", "no matrix comparisons"),
    ("m * i32(2)", "convert the scalar with f32(x)"),
    ("m * np.float16(2)", "f32(x)"),
    ("m * True", "f32(x)"),
    ("m * 1e39", "does not fit in f32"),
    ("m @ 2.0", "scale a matrix with `*`"),
    ("2.0 @ m", "scale a matrix with `*`"),
    ("m * vec2i(1, 2)", "components must be f32; convert it with vec2f(v)"),
    ("m * np.ones(2, np.float32)", "load it first, as vec2f(row)"),
    ("np.ones(2, np.float32) * m", "load it first, as vec2f(row)"),
    ("np.ones((2, 2), np.float32) @ m", "mat2x2f(buf[k]) for a matrix"),
])
def test_expressions_wgsl_does_not_define_are_shader_type_errors(expr, fragment):
    ns = {"m": mat2x2f(1, 2, 3, 4), "np": np, **vars(ash)}
    with pytest.raises(ash.ShaderTypeError) as info:
        eval(expr, ns)
    assert fragment in str(info.value), str(info.value)
    assert "is not a WGSL expression" in str(info.value) or expr == "m * 1e39"


# ----------------------------------------------------------------------------- built-ins
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_transpose_swaps_columns_and_rows(shape):
    a = rand(shape, 5)
    t = ash.transpose(mat(a))
    assert type(t) is MATS[shape[::-1]]
    assert np.array_equal(np.asarray(t), a.T.astype(np.float32))
    assert ash.transpose(t) == mat(a) and mat(a).transpose() == t


#: integer matrices (|e|**4 < 2**21: the cofactor expansion is exact, as the CTS checks) and
#: their determinants, worked out by hand
DETERMINANTS = [
    (mat2x2f(1, 2, 3, 4), -2.0),
    (mat2x2f(5, 0, 0, 7), 35.0),
    (mat3x3f(2, 0, 1, 1, 3, 2, 1, 1, 1), 2 * (3 - 2) - 1 * (0 - 1) + 1 * (0 - 3)),  # = 0
    (mat3x3f(6, 1, 1, 4, -2, 5, 2, 8, 7), -306.0),
    (mat4x4f(1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4), 24.0),
    (mat4x4f(1, 2, 3, 4, 5, 6, 7, 8, 2, 6, 4, 8, 3, 1, 1, 2), 72.0),
]


@pytest.mark.parametrize("m, expected", DETERMINANTS, ids=repr)
def test_determinant_of_integer_matrices_is_exact(m, expected):
    d = ash.determinant(m)
    assert type(d) is np.float32 and d == expected
    assert d == round(np.linalg.det(np.asarray(m, np.float64)))  # and numpy agrees


def test_determinant_of_random_matrices_is_close_to_numpys():
    for n in (2, 3, 4):
        for seed in range(10):
            a = rand((n, n), seed, 1.0)
            assert np.isclose(ash.determinant(mat(a)), np.linalg.det(a), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call, fragment", [
    ("determinant(mat2x3f())", "a square matrix"),
    ("determinant(vec4f())", "determinant(vec4f)"),
    ("transpose(vec2f())", "transpose(vec2f)"),
    ("transpose(1.0)", "transpose(a Python float)"),
])
def test_matrix_built_ins_refuse_other_arguments(call, fragment):
    with pytest.raises(ash.ShaderTypeError) as info:
        eval(call, vars(ash))
    assert fragment in str(info.value) and "WGSL has no such overload" in str(info.value)


@pytest.mark.parametrize("call", ["abs(m)", "dot(m, m)", "length(m)", "clamp(m, m, m)"])
def test_built_ins_of_scalars_and_vectors_say_they_take_no_matrices(call):
    with pytest.raises(TypeError, match="it takes no matrices .* apply it to each column"):
        eval(call, {"m": mat2x2f(), **vars(ash)})


def test_the_built_ins_name_the_wgsl_function():
    assert "WGSL ``transpose(" in ash.transpose.__doc__
    assert "WGSL ``determinant(" in ash.determinant.__doc__


def test_vectors_keep_their_own_operators():
    assert vec2f(1, 2) * vec2f(3, 4) == vec2f(3, 8)
    assert vec2f(1, 2) * 2.0 == vec2f(2, 4) and 2.0 * vec2f(1, 2) == vec2f(2, 4)
    with pytest.raises(TypeError, match="cannot combine vec2f with vec3f"):
        vec2f(1, 2) * vec3f(1, 2, 3)


# ----------------------------------------------------------------------------- f16 matrices
#: WGSL §Alignment and Size, the matrix table (f16): AlignOf, SizeOf
SPEC_LAYOUT_H = {(2, 2): (4, 8), (3, 2): (4, 12), (4, 2): (4, 16), (2, 3): (8, 16),
                 (3, 3): (8, 24), (4, 3): (8, 32), (2, 4): (8, 16), (3, 4): (8, 24),
                 (4, 4): (8, 32)}
MATS_H = {(c, r): getattr(ash, f"mat{c}x{r}h") for c, r in SHAPES}
VECS_H = {2: ash.vec2h, 3: ash.vec3h, 4: ash.vec4h}


def faithful_h(result, exact):
    """As :func:`faithful`, for f16 results."""
    r = np.float16(result)
    lo = np.nextafter(r, np.float16(-np.inf))
    hi = np.nextafter(r, np.float16(np.inf))
    return Fraction(float(lo)) < exact < Fraction(float(hi)) or Fraction(float(r)) == exact


def rand_h(shape, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 4).astype(np.float16).astype(np.float64)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_f16_classes_and_the_spec_layout(shape):
    c, r = shape
    m = MATS_H[shape]
    assert m.__name__ == f"mat{c}x{r}h" and m.wgsl == f"mat{c}x{r}<f16>"
    assert m.scalar is ash.f16 and m.column is VECS_H[r] and m.dtype == np.float16
    assert (m.align, m.size) == SPEC_LAYOUT_H[shape]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_f16_products_round_to_f16(shape):
    c, r = shape
    for seed in range(10):
        a, x, y = rand_h(shape, seed), rand_h(c, 50 + seed), rand_h(r, 60 + seed)
        m = MATS_H[shape](a)
        mv = m * VECS_H[c](*x.tolist())
        vm = VECS_H[r](*y.tolist()) * m
        assert type(mv) is VECS_H[r] and type(vm) is VECS_H[c]
        assert type(mv.x) is np.float16
        for i in range(r):
            assert faithful_h(mv[i], exact_dot(a[:, i], x))
        for k in range(c):
            assert faithful_h(vm[k], exact_dot(y, a[k]))
        assert np.array_equal(np.asarray(m + m), (a + a).astype(np.float16))
        assert np.array_equal(np.asarray(m * 0.5), (a * 0.5).astype(np.float16))
        assert np.asarray(m).dtype == np.float16


def test_f16_overflow_is_infinity_and_conversion_rounds():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = ash.mat2x2h(300, 300, 300, 300)
        assert big * ash.vec2h(300, 300) == ash.vec2h(np.inf, np.inf)  # 180000 > 65504
        assert ash.mat2x2h(mat2x2f(1e5, 0.1, 0, 0))[0] == ash.vec2h(np.inf, np.float16(0.1))
    assert mat2x2f(ash.mat2x2h(0.1, 0, 0, 0))[0].x == np.float32(np.float16(0.1))
    assert ash.determinant(ash.mat2x2h(1, 2, 3, 4)) == -2 and type(
        ash.determinant(ash.mat2x2h())) is np.float16
    assert type(ash.transpose(ash.mat2x3h())) is ash.mat3x2h


@pytest.mark.parametrize("expr, fragment", [
    ("h * vec2f(1, 2)", "the vector's components must be f16; convert it with vec2h(v)"),
    ("f * vec2h(1, 2)", "the vector's components must be f32; convert it with vec2f(v)"),
    ("vec2h(1, 2) * f", "the vector's components must be f32"),
    ("h * f", "one scalar type; convert one with mat2x2h(other)"),
    ("h + f", "convert one with mat2x2h(other)"),
    ("h * f32(2)", "convert the scalar with f16(x)"),
    ("f * f16(2)", "convert the scalar with f32(x)"),
    ("h * 1e5", "does not fit in f16"),
    ("mat2x2h(1e5, 0, 0, 0)", "does not fit in f16"),
    ("mat2x2h(f32(1), 0, 0, 0)", "write f16(x)"),
    ("mat2x2f(vec2h(1, 2), vec2h(3, 4))", "convert it with vec2f(v)"),
])
def test_f16_and_f32_do_not_mix(expr, fragment):
    ns = {"h": ash.mat2x2h(1, 2, 3, 4), "f": mat2x2f(1, 2, 3, 4), **vars(ash)}
    with pytest.raises(ash.ShaderTypeError) as info:
        eval(expr, ns)
    assert fragment in str(info.value), str(info.value)
