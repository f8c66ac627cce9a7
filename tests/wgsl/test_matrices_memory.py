"""Matrices in shaders: storage buffers of shape (n, C, R), uniforms, workgroup variables and
arrays, column reads and writes in place, the race detector on them, and the operators in
rewritten and strict kernels."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, mat3x3f, mat4x4f, u32, vec3f, vec4f


def races(result):
    return [f for f in result.findings if isinstance(f, ash.DataRace)]


# ------------------------------------------------------------------------ storage, uniform
@ash.compute(workgroup_size=2)
async def transform(points: ash.Storage, out: ash.Storage, mats: ash.Storage[mat4x4f],
                    model: ash.Uniform[mat4x4f], *, local_invocation_index: u32):
    i = local_invocation_index
    out[i] = model * vec4f(points[i])  # store a vector into a row of out
    m = mat4x4f(mats[i])  # load a matrix of the buffer
    mats[i] = m * model  # store a whole matrix
    mats[i][3] = vec4f(9, 9, 9, 9)  # one column in place
    mats[i, 0, 1] = f32(-1.0)  # one element in place


def test_storage_and_uniform_matrices_read_and_write_in_place():
    model = mat4x4f(2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1)  # scale, then translate
    points = np.array([[1, 1, 1, 1], [2, 0, -1, 1]], np.float32)
    out = np.zeros((2, 4), np.float32)
    mats = np.stack([np.eye(4, dtype=np.float32), 2 * np.eye(4, dtype=np.float32)])
    ash.run(transform, points=points, out=out, mats=mats, model=model)
    assert out.tolist() == [[3, 5, 7, 1], [5, 2, -1, 1]]
    expected = [np.asarray(model, np.float64).copy(), 2 * np.asarray(model, np.float64)]
    for e in expected:  # the shader's column and element writes
        e[3] = 9
        e[0, 1] = -1
    assert np.array_equal(mats, np.array(expected, np.float32))


@ash.compute(workgroup_size=1)
async def uniform_copy(model: ash.Uniform[mat4x4f], out: ash.Storage):
    model[0].x = f32(5.0)  # (WGSL forbids this; here it changes the shader's own copy)
    out[0] = model[0].x


def test_a_uniform_matrix_is_the_shaders_own_copy():
    model = mat4x4f()
    out = np.zeros(1, np.float32)
    ash.run(uniform_copy, model=model, out=out)
    assert out[0] == 5.0 and model[0].x == 0.0
    out[0] = 0
    ash.run(uniform_copy, model=np.eye(4), out=out)  # an array of shape (4, 4) converts
    assert out[0] == 5.0


@pytest.mark.parametrize("array, fragment", [
    (np.zeros((2, 3, 4), np.float32), "WGSL's padded byte layout"),
    (np.zeros((2, 4, 3), np.float32), "shape (n, 3, 3)"),
    (np.zeros((2, 3, 3), np.float64), "float64"),
])
def test_a_storage_buffer_of_matrices_is_checked_at_binding(array, fragment):
    @ash.compute(workgroup_size=1)
    async def k(mats: ash.Storage[mat3x3f]):
        mats[0, 0, 0] = f32(1.0)

    with pytest.raises(ash.BindingError) as info:
        ash.run(k, mats=array)
    assert fragment in str(info.value) and "'mats'" in str(info.value)


@pytest.mark.parametrize("value", [mat3x3f(), np.zeros((3, 4)), 1.0])
def test_a_uniform_matrix_of_another_shape_is_a_binding_error(value):
    with pytest.raises(ash.BindingError, match="uniform 'model' is mat4x4f"):
        ash.run(uniform_copy, model=value, out=np.zeros(1, np.float32))


# ------------------------------------------------------------------------ workgroup memory
basis = ash.workgroup(mat3x3f)
tiles = ash.workgroup(ash.array(mat3x3f, 4))


@ash.compute(workgroup_size=4)
async def build(out: ash.Storage, *, local_invocation_index: u32):
    i = int(local_invocation_index)
    if i < 3:
        basis[i] = vec3f(0, 0, 0)  # column i of the matrix variable
        basis[i, i] = f32(i + 1)
    tiles[i][i % 3] = vec3f(1, 2, 3)  # column i % 3 of matrix i, in place
    await ash.workgroup_barrier()
    m = basis.value  # the whole matrix
    out[i] = (m * mat3x3f(tiles[i]))[i % 3]


def test_workgroup_matrices_and_arrays_of_them():
    out = np.zeros((4, 3), np.float32)
    ash.run(build, out=out)
    assert out.tolist() == [[1, 4, 9]] * 4  # diag(1, 2, 3) * (1, 2, 3)
    assert isinstance(basis.value, mat3x3f)


@ash.compute(workgroup_size=3)
async def columns_as_vectors(out: ash.Storage[vec3f], *, local_invocation_index: u32):
    i = local_invocation_index
    basis[i] = vec3f(1.0, 2.0, 3.0) * f32(i + 1)
    basis[i].y = -1.0                   # a component store through the loaded column
    await ash.workgroup_barrier()
    c = basis[(i + 1) % 3]              # a column of a var<workgroup> matrix: a vec3f
    out[i] = c * 2.0 + vec3f(c.z, c.y, c.x)


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_a_column_of_a_workgroup_matrix_loads_as_a_vector(sanitize):
    """basis[i] is WGSL's column reference: a vec3f (.x, arithmetic with vectors) whose
    component stores reach the matrix, whatever the race detector's setting."""
    out = np.zeros((3, 3), np.float32)
    ash.run(columns_as_vectors, out=out, sanitize=sanitize)
    # column k ends (k + 1, -1, 3k + 3); out[i] = 2 * column (i + 1) % 3 + its reverse
    cols = [np.array([k + 1, -1, 3 * (k + 1)], np.float32) for k in range(3)]
    assert out.tolist() == [(2 * cols[(i + 1) % 3] + cols[(i + 1) % 3][::-1]).tolist()
                            for i in range(3)]


# ------------------------------------------------------------------------ the race detector
shared = ash.workgroup(mat4x4f)


@ash.compute(workgroup_size=2)
async def column_race(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        shared[2] = vec4f(1, 2, 3, 4)  # writes column 2
    else:
        out[0] = shared.value[2].x  # reads the whole matrix: no barrier between


@ash.compute(workgroup_size=2)
async def columns_apart(mats: ash.Storage[mat4x4f], *, local_invocation_index: u32):
    i = local_invocation_index
    mats[0][i] = vec4f(f32(i), 0, 0, 0)  # each invocation its own column: no race


@ash.compute(workgroup_size=2)
async def same_element(mats: ash.Storage[mat4x4f], *, local_invocation_index: u32):
    mats[0][1][2] = f32(local_invocation_index)  # both write row 2 of column 1


@ash.compute(workgroup_size=2)
async def load_while_storing(mats: ash.Storage[mat4x4f], out: ash.Storage, *,
                             local_invocation_index: u32):
    if local_invocation_index == 0:
        mats[0][1] = vec4f(1, 2, 3, 4)  # a column store
    else:
        out[0] = mat4x4f(mats[0])[3].w  # a load of the whole matrix


def test_loading_a_storage_matrix_races_with_a_column_store():
    r = ash.run(load_while_storing, mats=np.zeros((1, 4, 4), np.float32),
                out=np.zeros(1, np.float32), sanitize="report")
    found = races(r)
    assert found and found[0].memory == "mats" and found[0].race == "read-write"


def test_a_column_write_races_with_a_whole_matrix_read():
    r = ash.run(column_race, out=np.zeros(1, np.float32), sanitize="report")
    found = races(r)
    assert found and found[0].memory == "shared" and found[0].race == "read-write"


def test_columns_of_a_storage_matrix_are_told_apart():
    mats = np.zeros((1, 4, 4), np.float32)
    r = ash.run(columns_apart, mats=mats, sanitize="report")
    assert races(r) == [] and mats[0, 1, 0] == 1.0
    r = ash.run(same_element, mats=mats, sanitize="report")
    found = races(r)
    assert found and found[0].memory == "mats" and found[0].race == "write-write"


# ------------------------------------------------------------------------ operators in shaders
@ash.compute(workgroup_size=1, strict=True)
async def strict_products(out: ash.Storage, model: ash.Uniform[mat4x4f]):
    v = model * vec4f(1, 1, 1, 1) * 2.0
    m = model * model * f32(0.5) + model - model
    out[0] = (v * m).x


def test_matrix_products_pass_strict_kernels():
    out = np.zeros(1, np.float32)
    ash.run(strict_products, out=out, model=mat4x4f(*range(16)))
    a = np.arange(16, dtype=np.float64).reshape(4, 4)  # a[c, r]
    v = a.T @ np.ones(4) * 2
    m = (a @ a) * 0.5
    assert out[0] == np.float32(v @ m[0])


@ash.compute(workgroup_size=1)
async def divides(out: ash.Storage, model: ash.Uniform[mat4x4f]):
    m = model / 2.0
    out[0] = m[0].x


@ash.compute(workgroup_size=1, strict=True)
async def adds_a_scalar(out: ash.Storage, model: ash.Uniform[mat4x4f]):
    out[0] = (model + 1.0)[0].x


@pytest.mark.parametrize("kernel, fragment", [
    (divides, "`mat4x4f / a Python float (2.0)` is not a WGSL expression: WGSL has no matrix "
              "division"),
    (adds_a_scalar, "`mat4x4f + a Python float (1.0)`"),
])
def test_operators_wgsl_lacks_name_the_line_and_the_matrix(kernel, fragment):
    with pytest.raises(ash.ShaderError) as info:
        ash.run(kernel, out=np.zeros(1, np.float32), model=mat4x4f())
    assert fragment in str(info.value)
    assert isinstance(info.value.__cause__, ash.ShaderTypeError)
    assert "test_matrices_memory.py" in str(info.value)


# ------------------------------------------------------------------------ f16 matrices
half_basis = ash.workgroup(ash.mat2x2h)


@ash.compute(workgroup_size=2)
async def halves(mats: ash.Storage[ash.mat2x2h], out: ash.Storage, *,
                 local_invocation_index: u32):
    i = local_invocation_index
    if i == 0:
        half_basis.value = ash.mat2x2h(2, 0, 0, 2)
    await ash.workgroup_barrier()
    m = half_basis.value * ash.mat2x2h(mats[i])
    mats[i] = m
    out[i] = (m * ash.vec2h(1, 1)).y


def test_f16_matrices_in_storage_and_workgroup_memory():
    mats = np.array([[[1, 2], [3, 4]], [[0.1, 0], [0, 1]]], np.float16)
    out = np.zeros(2, np.float16)
    ash.run(halves, mats=mats, out=out)
    assert mats.dtype == np.float16 and mats[0].tolist() == [[2, 4], [6, 8]]
    assert mats[1, 0, 0] == np.float16(np.float16(0.1) * 2)
    assert out.tolist() == [12, 2]
    with pytest.raises(ash.BindingError, match=r"Storage\[mat2x2h\] but the array is float32"):
        ash.run(halves, mats=np.zeros((2, 2, 2), np.float32), out=out)
