"""to_wgsl for the types that arrived after round 1: read-only storage, matrices (constructors,
products, transpose, determinant, in storage and uniform buffers: padded 3-row columns), and
vec3 buffers (padded to WGSL's 16-byte stride on the way to the GPU)."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, mat2x3f, mat3x3f, mat4x4f, u32, vec2f, vec2u, vec3f, vec3u, vec4f
from asyncshader.emit import WGSLEmitError, to_wgsl
from asyncshader.extra.gpu import validate


# ------------------------------------------------------------------------ read-only storage
@ash.compute(workgroup_size=4)
async def doubled(src: ash.ReadOnly[f32], dst: ash.Storage[f32], *,
                  local_invocation_index: u32):
    i = local_invocation_index
    dst[i] = src[i] * 2.0


@ash.compute(workgroup_size=4)
async def doubled_plain(src, dst, *, local_invocation_index: u32):
    i = local_invocation_index
    dst[i] = src[i] * 2.0


def test_a_read_only_parameter_or_array_is_var_storage_read(crosscheck):
    text = to_wgsl(doubled)
    assert "@group(0) @binding(0) var<storage, read> src: array<f32>;" in text
    assert "@group(0) @binding(1) var<storage, read_write> dst: array<f32>;" in text
    frozen = np.arange(4, dtype=np.float32)
    frozen.flags.writeable = False
    plain = to_wgsl(doubled_plain, src=frozen, dst=np.zeros(4, np.float32))
    assert "var<storage, read> src: array<f32>;" in plain
    report = crosscheck(doubled, 1, src=frozen, dst=np.zeros(4, np.float32))
    assert report.gpu["dst"].tolist() == [0.0, 2.0, 4.0, 6.0]


@ash.compute(workgroup_size=1)
async def writes_read_only(src: ash.ReadOnly[f32]):
    src[0] = 1.0


def test_a_store_to_read_only_storage_names_the_line_and_the_fix():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: .*a write to src "
                       r"\(a read-only binding: var<storage, read>\).*ash.Storage"):
        to_wgsl(writes_read_only)


# ------------------------------------------------------------------------ matrices
@ash.compute(workgroup_size=4)
async def transform(v: ash.Storage[vec3f], out: ash.Storage[vec3f], *,
                    local_invocation_index: u32):
    i = local_invocation_index
    m = mat3x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.5)
    a = mat2x3f(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0))
    t = ash.transpose(a)
    w = m * v[i] + a * vec2f(1.0, 2.0)
    out[i] = w * ash.determinant(m) + m[1] + vec3f(t[0].x, m[2][1], 0.0) + (v[i] @ m)


def test_matrix_constructors_products_transpose_and_determinant_emit(wgsl_device):
    text = to_wgsl(transform)
    assert "let m = mat3x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.5);" in text
    assert "let a = mat2x3f(vec3f(1.0f, 0.0f, 0.0f), vec3f(0.0f, 1.0f, 0.0f));" in text
    assert "let t = transpose(a);" in text
    assert "let w = m * v[i] + a * vec2f(1.0f, 2.0f);" in text
    assert "w * determinant(m) + m[1] + vec3f(t[0].x, m[2][1], 0.0) + v[i] * m" in text
    validate(text, wgsl_device)


def test_matrix_arithmetic_and_vec3_buffers_agree_with_lavapipe(crosscheck):
    v = np.arange(12, dtype=np.float32).reshape(4, 3)  # (array<vec3f>: a 16-byte stride)
    report = crosscheck(transform, 1, v=v, out=np.zeros((4, 3), np.float32))
    # row 0 by hand: m * (0, 1, 2) = (18, 21, 25); a * (1, 2) = (1, 2, 0); det(m) = -1.5;
    # m[1] = (4, 5, 6); (t[0].x, m[2][1], 0) = (1, 8, 0); (0, 1, 2) @ m = (8, 17, 27)
    assert report.gpu["out"][0].tolist() == [-28.5 + 4 + 1 + 8, -34.5 + 5 + 8 + 17,
                                             -37.5 + 6 + 0 + 27]
    assert report.gpu["v"].tolist() == v.tolist()


@ash.compute(workgroup_size=2)
async def mats_in_memory(mats: ash.Storage[mat3x3f], model: ash.Uniform[mat4x4f],
                         out: ash.Storage[vec4f], *, local_invocation_index: u32):
    i = local_invocation_index
    m = mat3x3f(mats[i])
    mats[i] = ash.transpose(m) * 2.0
    mats[i][1] = vec3f(f32(i), 7.0, 8.0)
    out[i] = model * vec4f(m[0], 1.0)


def test_matrices_in_storage_and_uniform_buffers_are_padded_for_the_gpu(crosscheck):
    mats = np.arange(18, dtype=np.float32).reshape(2, 3, 3)
    model = mat4x4f(*range(16))
    text = to_wgsl(mats_in_memory, mats=mats, model=model)
    assert "var<storage, read_write> mats: array<mat3x3f>;" in text
    assert "var<uniform> model: mat4x4f;" in text
    assert "mats[i][1] = vec3f(f32(i), 7.0, 8.0);" in text
    report = crosscheck(mats_in_memory, 1, mats=mats, model=model,
                        out=np.zeros((2, 4), np.float32))
    assert report.gpu["mats"][0].tolist() == [[0, 6, 12], [0, 7, 8], [4, 10, 16]]
    # model's columns are (0..3), (4..7), ...; times (0, 1, 2, 1) (column 0 of mats[0], 1)
    assert report.gpu["out"][0].tolist() == [4 + 16 + 12, 5 + 18 + 13, 6 + 20 + 14,
                                             7 + 22 + 15]


@ash.compute(workgroup_size=1)
async def bad_product(out: ash.Storage[vec3f]):
    m = mat2x3f()
    out[0] = m * vec3f(1.0, 2.0, 3.0)


def test_a_matrix_product_of_mismatched_sizes_names_both_types():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: bad_product: "
                       r"mat2x3f \* vec3f \(not a WGSL matrix operation\).*matCxR \* vecC"):
        to_wgsl(bad_product)


def test_a_storage_vec3f_annotation_binds_an_n_by_3_float32_array_on_the_cpu():
    out = np.zeros((4, 3), np.float32)  # (this annotation raised AttributeError in bindings)
    ash.run(transform, v=np.ones((4, 3), np.float32), out=out)
    # m * v = (12, 15, 18.5), + a * (1, 2) = (13, 17, 18.5); v @ m = (6, 15, 24.5)
    assert out[0].tolist() == [-1.5 * 13 + 4 + 1 + 6, -1.5 * 17 + 5 + 8 + 15,
                               -1.5 * 18.5 + 6 + 0 + 24.5]
    with pytest.raises(ash.BindingError, match="declared Storage\\[vec3f\\] but the array is "
                       "int32"):
        ash.run(transform, v=np.ones((4, 3), np.int32), out=out)


# ------------------------------------------------------------------------ one device
def test_the_oracle_fixture_and_the_cross_check_share_one_device(gpu_device, wgsl_device):
    from asyncshader.extra.device import device, is_cpu_vulkan

    if not is_cpu_vulkan(wgsl_device):  # (a real GPU opened first: lavapipe is another one)
        pytest.skip("the cross-check's device is not lavapipe here")
    assert gpu_device is wgsl_device is device()
    assert "subgroup" in gpu_device.features or "subgroup" not in gpu_device.adapter.features


@ash.compute(workgroup_size=1)
async def determinant_of_mat2x3(out: ash.Storage[f32]):
    out[0] = ash.determinant(mat2x3f())


@ash.compute(workgroup_size=1)
async def transpose_of_a_vector(out: ash.Storage[vec3f]):
    out[0] = ash.transpose(vec3f(1.0, 2.0, 3.0))


@ash.compute(workgroup_size=1)
async def determinant_of_a_scalar(out: ash.Storage[f32]):
    out[0] = ash.determinant(out[0])


def test_transpose_or_determinant_of_a_non_matrix_or_non_square_matrix_names_the_line():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: determinant_of_mat2x3: "
                       r"determinant of a mat2x3f.*takes a square matrix"):
        to_wgsl(determinant_of_mat2x3)
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: transpose_of_a_vector: "
                       r"transpose of a vec3f cannot be written in WGSL. Fix: transpose takes a "
                       r"matrix"):
        to_wgsl(transpose_of_a_vector)
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: determinant_of_a_scalar: "
                       r"determinant of a f32 .*takes a square matrix"):
        to_wgsl(determinant_of_a_scalar)


# ------------------------------------------------------------------------ Python ints bound
@ash.compute(workgroup_size=4)
async def last_one(buf: ash.Storage, n: ash.Uniform, scale, *, local_invocation_index):
    if local_invocation_index == n - 1:
        buf[local_invocation_index] = 7
    buf[0] = scale * 2


def test_a_python_int_bound_as_a_uniform_takes_the_type_its_uses_ask_for(crosscheck):
    text = to_wgsl(last_one, buf=np.zeros(4, np.uint32), n=4, scale=5)
    assert "var<uniform> n: u32;" in text  # (compared with a u32 builtin)
    assert "var<uniform> scale: u32;" in text  # (stored into a u32 buffer)
    report = crosscheck(last_one, 1, buf=np.zeros(4, np.uint32), n=4, scale=5)
    assert report.gpu["buf"].tolist() == [10, 0, 0, 7]
    alone = to_wgsl(last_one, buf=np.zeros(4, np.int32), n=4, scale=5)
    assert "var<uniform> scale: i32;" in alone and "var<uniform> n: u32;" in alone


# ------------------------------------------------------------------------ 2-D buffers
@ash.compute(workgroup_size=(4, 2))
async def grid(a, b, *, local_invocation_id):
    x = local_invocation_id.x
    y = local_invocation_id.y
    a[y, x] = f32(x + 10 * y)
    b[x, 1] = a[y, x] + 0.5


def test_a_multi_dimensional_index_into_a_bound_array_is_flattened_by_its_shape(crosscheck):
    """(2, 4) and (4, 3) arrays: rows of 4 and 3 values are vec4f and vec3f elements (the
    last index a component), the rows flattened: a[y, x] is a[y][x], b[x, 1] is b[x][1]."""
    a, b = np.zeros((2, 4), np.float32), np.zeros((4, 3), np.float32)
    text = to_wgsl(grid, a=a, b=b)
    assert "var<storage, read_write> a: array<vec4f>;" in text
    assert "a[y][x] = f32(x + 10 * y);" in text
    assert "b[x][1] = a[y][x] + 0.5;" in text
    report = crosscheck(grid, 1, a=a, b=b)
    assert report.gpu["a"].tolist() == [[0, 1, 2, 3], [10, 11, 12, 13]]
    assert report.gpu["b"][:, 1].tolist() == [10.5, 11.5, 12.5, 13.5]
    with pytest.raises(WGSLEmitError, match="multi-dimensional index"):
        to_wgsl(grid)  # (no array: no shape to flatten by)
    wide = to_wgsl(grid, a=np.zeros((2, 8), np.float32), b=np.zeros((8, 5), np.float32))
    # (rows of 8: no vector, f32 elements; an x past the row is out of bounds, as in numpy)
    row = "a[select(4294967295u, y * 8 + x, x < 8u)]"
    assert f"{row} = f32(x + 10 * y);" in wide
    assert f"b[x * 5 + 1] = {row} + 0.5;" in wide  # (a constant inside its row: unchecked)
    column = to_wgsl(grid, a=np.zeros((2, 4, 1), np.float32), b=np.zeros((4, 3), np.float32))
    # (a row of one value is that value)
    assert "a[select(4294967295u, y * 4 + x, x < 4u)] = f32(x + 10 * y);" in column


@ash.compute(workgroup_size=8)
async def past_the_row(img, src, *, local_invocation_index: u32):
    x = local_invocation_index
    img[u32(0), x] = f32(1.0) + src[u32(0), x + u32(1)]
    img[i32(2), i32(x) - 2] = f32(7.0)


@ash.compute(workgroup_size=4)
async def past_the_row_always(img, *, local_invocation_index: u32):
    img[local_invocation_index, 7] = f32(1.0)


def test_an_index_past_the_end_of_its_row_is_out_of_bounds_not_in_the_next_row(crosscheck):
    """img[0, x] with x past the end of a 5-value row is outside the (3, 5) array, as numpy
    bounds each dimension: the store is dropped and the load gives zero, on the CPU and on the
    GPU; the flattened index is checked per dimension (0 * 5 + 6 alone is img[1, 1]), a
    negative i32 index too (2 * 5 - 1 alone is img[1, 4])."""
    img = np.zeros((3, 5), np.float32)
    src = np.arange(15, dtype=np.float32).reshape(3, 5)
    text = to_wgsl(past_the_row, img=img, src=src)
    assert "img[select(4294967295u, 0u * 5 + x, x < 5u)] = 1.0f + src[select(4294967295u, " \
        "0u * 5 + (x + 1u), x + 1u < 5u)];" in text
    assert "img[select(4294967295u, u32(2i * 5 + (i32(x) - 2)), u32(i32(x) - 2) < 5u)]" in text
    report = crosscheck(past_the_row, 1, img=img, src=src)
    expected = [[2, 3, 4, 5, 1], [0] * 5, [7, 7, 7, 7, 7]]  # (x = 4 loads src[0, 5]: zero)
    assert report.gpu["img"].tolist() == expected
    assert report.cpu["img"].tolist() == expected
    with pytest.raises(WGSLEmitError, match=r"past_the_row_always: the index 7 of "
                       r"`img\[local_invocation_index, 7\]`, past the end of its dimension "
                       r"\(5 elements, so 0 to 4\)"):
        to_wgsl(past_the_row_always, img=img)  # (a constant: an error, as in WGSL)


@ash.compute(workgroup_size=4)
async def rows(colors, weights, *, local_invocation_index: u32):
    i = local_invocation_index
    c = vec4f(colors[i])  # (a numpy row on the CPU: vec4f makes it a vector)
    colors[i] = vec4f(c.w, c.z, c.y, c.x) * 2.0
    weights[i] = vec3f(colors[i, 0], weights[i][1], f32(i))


def test_an_n_by_k_array_is_an_array_of_vectors_stored_a_row_at_a_time(crosscheck):
    """asyncshader's buf[i] on an (n, 4) array is row i, which a vec4f is stored into:
    WGSL's array<vec4f>; an (n, 3) array is array<vec3f>, padded to 16 bytes on the GPU."""
    colors = np.arange(16, dtype=np.float32).reshape(4, 4)
    weights = np.arange(12, dtype=np.float32).reshape(4, 3) + 0.5
    text = to_wgsl(rows, colors=colors, weights=weights)
    assert "var<storage, read_write> colors: array<vec4f>;" in text
    assert "var<storage, read_write> weights: array<vec3f>;" in text
    assert "colors[i] = vec4f(c.w, c.z, c.y, c.x) * 2.0;" in text
    assert "weights[i] = vec3f(colors[i][0], weights[i][1], f32(i));" in text
    report = crosscheck(rows, 1, colors=colors, weights=weights)
    reversed_doubled = colors[:, ::-1] * 2  # row i: (c.w, c.z, c.y, c.x) * 2
    assert report.gpu["colors"].tolist() == reversed_doubled.tolist()
    assert report.gpu["weights"].tolist() == [[reversed_doubled[i, 0], 3 * i + 1.5, i]
                                              for i in range(4)]


@ash.compute(workgroup_size=4)
async def declared_vectors(pos: ash.Storage[vec3f], src: ash.ReadOnly[vec4f],
                           out: ash.Storage[vec3f], xs: ash.Storage[f32], *,
                           local_invocation_index: u32):
    i = local_invocation_index
    xs[i] = pos[i].x + src[i].w * pos[i][2]
    out[i] = pos[i] * 2.0 + vec3f(1.0, 2.0, 3.0)
    pos[i].y = src[i].x - pos[i, 0]
    pos[i].z += 1.0


def test_a_buffer_declared_with_a_vector_element_loads_vectors_on_both_sides(crosscheck):
    """``Storage[vec3f]``: buf[i] is a vec3f on the CPU too (not a numpy row), so the WGSL way
    of writing it runs on both sides; buf[i, c] is buf[i][c]."""
    text = to_wgsl(declared_vectors)  # (no arrays: the annotations give the types)
    assert "var<storage, read_write> pos: array<vec3f>;" in text
    assert "var<storage, read> src: array<vec4f>;" in text
    assert "xs[i] = pos[i].x + src[i].w * pos[i][2];" in text
    assert "out[i] = pos[i] * 2.0 + vec3f(1.0f, 2.0f, 3.0f);" in text
    assert "pos[i].y = src[i].x - pos[i][0];\n    pos[i].z += 1.0;" in text
    pos = np.array([[1.5, 2, -3], [4, 0.25, 6], [-7, 8, 9.5], [0, -1, 2]], np.float32)
    src = np.arange(16, dtype=np.float32).reshape(4, 4) - 4.5
    report = crosscheck(declared_vectors, 1, pos=pos, src=src, out=np.zeros((4, 3), np.float32),
                        xs=np.zeros(4, np.float32))
    want_pos = pos.copy()
    want_pos[:, 1] = src[:, 0] - pos[:, 0]
    want_pos[:, 2] += 1
    for side in (report.cpu, report.gpu):
        assert side["xs"].tolist() == (pos[:, 0] + src[:, 3] * pos[:, 2]).tolist()
        assert side["out"].tolist() == (pos * 2 + np.array([1, 2, 3], np.float32)).tolist()
        assert side["pos"].tolist() == want_pos.tolist()


@ash.compute(workgroup_size=(4, 2))
async def pixels(image, *, local_invocation_id: vec3u):
    x = local_invocation_id.x
    y = local_invocation_id.y
    image[y, x] = vec2u(x, y * 10)


@ash.compute(workgroup_size=(4, 2))
async def pixel_rows(image, *, local_invocation_id: vec3u):
    image[local_invocation_id.y] = vec2u(1, 2)


def test_an_image_of_vectors_is_flattened_over_its_pixels(crosscheck):
    image = np.zeros((2, 4, 2), np.uint32)
    text = to_wgsl(pixels, image=image)
    assert "var<storage, read_write> image: array<vec2u>;" in text
    assert "image[select(4294967295u, y * 4 + x, x < 4u)] = vec2u(x, y * 10);" in text
    report = crosscheck(pixels, 1, image=image)
    assert report.gpu["image"].tolist() == [[[x, 10 * y] for x in range(4)] for y in range(2)]
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: pixel_rows: "
                       r"`image\[local_invocation_id.y\]` on image, bound as a \(2, 4, 2\) "
                       r"array \(one index gives a sub-array of it, a numpy row\).*Fix: index "
                       r"all its 2 dimensions \(image\[i, j\]\)"):
        to_wgsl(pixel_rows, image=image)
    with pytest.raises(WGSLEmitError, match=r"grid: `a\[y, x\]` on a, bound as a \(2, 4, 8\) "
                       r"array \(it names a sub-array of it, a numpy row\).*index all its 3"):
        to_wgsl(grid, a=np.zeros((2, 4, 8), np.float32), b=np.zeros((4, 3), np.float32))


# ------------------------------------------------------------------------ fragment inputs
def _raises(x, y):
    raise ValueError("no pixels here")


@ash.fragment
async def passes_on(t: ash.Input):
    return t


def test_a_pixel_callable_that_raises_is_a_clear_error_not_a_crash():
    with pytest.raises(WGSLEmitError, match=r"the fragment input 't' is a callable that raised "
                       r"ValueError \(no pixels here\) for pixel \(0, 0\).*ash.Input\[f32\]"):
        to_wgsl(passes_on, t=_raises)


# ------------------------------------------------------------------------ census findings
@ash.compute(workgroup_size=4, derivatives="linear")  # (without a layout: refused at decoration)
async def slope(out: ash.Storage[f32], *, local_invocation_index: u32):
    out[local_invocation_index] = await ash.dpdx(f32(local_invocation_index))


@ash.compute(workgroup_size=1)
async def flagged(out: ash.Storage[u32], flag: bool):
    out[0] = u32(flag)


def test_census_findings_derivatives_in_compute_and_bool_uniforms_are_errors_not_bad_wgsl():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_types.py:\d+: slope: dpdx in a "
                       r"compute shader .*fragment shaders only.*quad_swap_x"):
        to_wgsl(slope)
    with pytest.raises(WGSLEmitError, match=r"flagged: the uniform 'flag' is a bool.*pass a u32"):
        to_wgsl(flagged)


@ash.compute(workgroup_size=4)
async def int_local_in_float_uses(out: ash.Storage[f32], half: ash.Storage[ash.f16], *,
                                  local_invocation_index: u32):
    i = local_invocation_index
    s = 3                                  # a local given only Python ints: i32 in WGSL
    out[i] = s                             # stored into f32 memory (the CPU stores 3.0)
    out[i + 4] = max(s, out[i + 4])        # beside an f32 in a built-in
    out[i + 8] = vec2f(s, 0.5).x + 0.25    # in a float constructor
    half[i] = s                            # into f16 memory: f16(s), not f32(s)


def test_a_python_int_local_is_converted_where_a_float_uses_it(crosscheck):
    """WGSL converts no variable implicitly (`let s = 3;` is an i32); Python converts the int.
    The emitter writes the conversion the CPU run makes."""
    text = to_wgsl(int_local_in_float_uses)
    assert "let s: i32 = 3;" in text
    assert "out[i] = f32(s);" in text
    assert "max(f32(s), out[i + 4])" in text and "vec2f(f32(s), 0.5)" in text
    assert "half[i] = f16(s);" in text
    out = np.array([0, 0, 0, 0, 1, 5, -2, 9, 0, 0, 0, 0], np.float32)
    report = crosscheck(int_local_in_float_uses, out=out, half=np.zeros(4, np.float16))
    expected = [3, 3, 3, 3, 3, 5, 3, 9, 3.25, 3.25, 3.25, 3.25]  # (max(3, x), 3 + 0.25)
    assert report.gpu["out"].tolist() == expected == report.cpu["out"].tolist()
    assert report.gpu["half"].tolist() == [3.0] * 4


basis = ash.workgroup(mat3x3f)


@ash.compute(workgroup_size=1)
async def columns_in_memory(model: ash.Uniform[mat4x4f], out: ash.Storage[f32]):
    basis[1] = vec3f(1.0, 2.0, 3.0)                 # a column of a var<workgroup> matrix
    basis[2][0] = 7.0                               # a component of one
    out[0] = basis[1].y + basis.value[2].x          # 2 + 7
    out[1] = model[1].y + model[3][2]               # columns of a uniform matrix


def test_one_index_into_a_matrix_in_memory_is_a_column(crosscheck):
    """(The census found basis[1] = vec3f(...) refused as "mixing mat3x3f and vec3f", and
    model[1].y as "the attribute .y of a mat4x4f".)"""
    text = to_wgsl(columns_in_memory)
    assert "basis[1] = vec3f(1.0f, 2.0f, 3.0f);" in text and "basis[2][0] = 7.0;" in text
    assert "out[0] = basis[1].y + basis[2].x;" in text
    assert "out[1] = model[1].y + model[3][2];" in text
    model = mat4x4f(*range(16))                     # column c is (4c, 4c + 1, 4c + 2, 4c + 3)
    report = crosscheck(columns_in_memory, model=model, out=np.zeros(2, np.float32))
    assert report.gpu["out"].tolist() == [9.0, 5.0 + 14.0]
