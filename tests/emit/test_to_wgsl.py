"""to_wgsl: the WGSL text (types inferred, WGSL names, readable and stable), checked by naga
(wgpu's front-end) where it should compile, and the errors for what WGSL cannot express."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2f, vec3u, vec4f
from asyncshader.emit import WGSLEmitError, emit, to_wgsl
from asyncshader.extra.gpu import validate

tile = ash.workgroup(ash.array(f32, 64))
hits = ash.workgroup(ash.atomic(u32))
LIMIT = 48


def twice(x: f32) -> f32:
    return x * 2.0


async def settle(i: u32) -> f32:
    await ash.workgroup_barrier()
    return tile[63 - i]


@ash.compute(workgroup_size=64)
async def mirror(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = f32(i)
    v = await settle(i)
    out[i] = twice(v) if i < LIMIT else f32(0)
    await ash.atomic_add(ash.ptr(hits), 1)


def test_a_kernel_with_a_helper_an_awaited_helper_and_atomics_emits_readable_wgsl(wgsl_device):
    text = to_wgsl(mirror, out=np.zeros(64, np.float32))
    assert "const LIMIT = 48;" in text
    assert "var<workgroup> tile: array<f32, 64>;" in text
    assert "var<workgroup> hits: atomic<u32>;" in text
    assert "@group(0) @binding(0) var<storage, read_write> out: array<f32>;" in text
    assert "fn twice(x: f32) -> f32 {\n    return x * 2.0;\n}" in text
    assert "fn settle(i: u32) -> f32 {\n    workgroupBarrier();\n    return tile[63 - i];" in text
    assert "@compute @workgroup_size(64)" in text
    assert "out[i] = select(0.0f, twice(v), i < LIMIT);" in text
    assert "_ = atomicAdd(&hits, 1);" in text
    validate(text, wgsl_device)
    assert to_wgsl(mirror, out=np.zeros(64, np.float32)) == text  # stable from run to run


def test_workgroup_memory_is_zeroed_explicitly_unless_asked_not_to(wgsl_device):
    text = to_wgsl(mirror, out=np.zeros(64, np.float32))
    assert "for (var i = local_invocation_index; i < 64u; i += 64u) { tile[i] = f32(); }" in text
    assert "if local_invocation_index == 0u { atomicStore(&hits, 0); }" in text
    bare = to_wgsl(mirror, out=np.zeros(64, np.float32), zero_workgroup_memory=False)
    assert "atomicStore(&hits, 0)" not in bare and "f32()" not in bare
    validate(bare, wgsl_device)


def test_the_workgroup_zeroing_matters_on_lavapipe(crosscheck):
    """lavapipe leaves var<workgroup> as the previous workgroup left it: with the zeroing the
    counter of every workgroup starts at 0, as on the CPU."""
    counter = ash.workgroup(ash.atomic(u32))

    @ash.compute(workgroup_size=8)
    async def count(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: vec3u):
        await ash.atomic_add(ash.ptr(counter), 1)
        await ash.workgroup_barrier()
        if local_invocation_index == 0:
            out[workgroup_id.x] = await ash.atomic_load(ash.ptr(counter))

    report = crosscheck(count, 6, out=np.zeros(6, np.uint32))
    assert report.gpu["out"].tolist() == [8] * 6


def test_a_literal_local_takes_the_type_its_uses_ask_for():
    @ash.compute(workgroup_size=4)
    async def halves(out: ash.Storage[u32], *, local_invocation_index: u32):
        stride = 4
        count = 0
        while stride > local_invocation_index:
            stride //= 2
            count += 1
        out[local_invocation_index] = count

    text = to_wgsl(halves)
    assert "var stride: u32 = 4;" in text  # compared with a u32
    assert "var count: u32 = 0;" in text   # stored into a u32 buffer
    assert "stride /= 2;" in text


def test_an_annotation_decides_a_local_type_and_a_storage_type_comes_from_the_array():
    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage):
        x: i32 = 3
        buf[0] = x

    assert "var<storage, read_write> buf: array<i32>;" in to_wgsl(k, buf=np.zeros(1, np.int32))
    assert "let x: i32 = 3;" in to_wgsl(k, buf=np.zeros(1, np.int32))
    with pytest.raises(WGSLEmitError, match="mixing u32 and i32"):
        to_wgsl(k, buf=np.zeros(1, np.uint32))


def test_a_type_that_cannot_be_inferred_names_the_binding_and_the_fix():
    @ash.compute(workgroup_size=1)
    async def copy(src: ash.Storage, dst: ash.Storage):
        dst[0] = src[0]

    with pytest.raises(WGSLEmitError) as info:
        to_wgsl(copy)
    message = str(info.value)
    assert "the element type of buffer" in message and "ash.Storage[f32]" in message
    assert "array<u32>" in to_wgsl(copy, src=np.zeros(1, np.uint32))  # dst learns it from src


def test_a_member_of_a_buffer_whose_struct_nothing_names_says_so_at_its_line():
    """(It once said "the attribute `.position` of a ?".)"""
    @ash.compute(workgroup_size=1)
    async def move(p: ash.Storage):
        q = p[0].position  # noqa: F841
    line = move.fn.__code__.co_firstlineno + 2

    with pytest.raises(WGSLEmitError) as info:
        to_wgsl(move)
    message = str(info.value)
    assert f"test_to_wgsl.py:{line}: " in message
    assert "the element type of buffer 'p' cannot be inferred" in message
    assert "(the shader only reads `.position` of it" in message
    assert "Fix: annotate it (p: ash.Storage[YourStruct])" in message and "?" not in message


def _emit_error(kernel, **bindings) -> str:
    with pytest.raises(WGSLEmitError) as info:
        to_wgsl(kernel, **bindings)
    return str(info.value)


def not_wgsl(x):
    return math.hypot(x, x)


def recursive(n: u32) -> u32:
    return recursive(n - 1) if n > 0 else u32(0)


@pytest.mark.parametrize("body,construct,fix", [
    ("out[0] = [f32(1) for _ in range(3)][0]", "a list comprehension", "for loop"),
    ("out[0] = f32(sum([f32(1), f32(2)]))", "a list", "vector"),
    ("d = {'a': 1}\n        out[0] = f32(0)", "a dict", "struct"),
    ("out[0] = not_wgsl(f32(1))", "a call to math.hypot", "plain `def`"),
    ("out[0] = f32(recursive(u32(3)))", "a recursive call of recursive", "loop"),
    ("assert out[0] == 0", "assert", "test on the CPU"),
    ("out[0] = f32(bool(out[1]))", "Python's bool()", "bool_(x)"),
    ("for v in out:\n            pass", "the loop `for v in out`", "range"),
    ("x = 1\n        x = tile", "'x' holding a value and then a buffer", "two names"),
    ("x = u32(1)\n        if x:\n            out[0] = f32(1)", "the condition `x`", "x != 0"),
    ("out[0] = f32(u32(1) + i32(1))", "mixing u32 and i32", "convert one side"),
])
def test_python_that_wgsl_cannot_express_fails_naming_the_line_the_construct_and_the_fix(
        body, construct, fix, tmp_path):
    source = ("import asyncshader as ash\nfrom asyncshader import f32, i32, u32\n"
              "from test_to_wgsl import not_wgsl, recursive, tile\n\n"
              "@ash.compute(workgroup_size=1)\nasync def bad(out: ash.Storage[f32]):\n"
              f"        {body}\n")
    path = tmp_path / "bad_kernel.py"
    path.write_text(source.replace("\n        ", "\n    "))
    import importlib.util
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    try:
        spec = importlib.util.spec_from_file_location("bad_kernel", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    message = _emit_error(module.bad)
    line = 8 if "condition" in construct or "holding" in construct else 7  # (body: line 7)
    where = f"{path}:{line}" if "hypot" not in construct and "recursive" not in construct \
        else __file__
    assert where in message, message
    assert construct in message and fix in message and "cannot be written in WGSL" in message


@dataclasses.dataclass
class Shaded:
    colour: vec4f
    level: i32


@ash.fragment
async def shade(uv: ash.Input[vec2f], *, position: vec4f) -> Shaded:
    d = await ash.dpdx(uv.x) + await ash.fwidth_fine(uv.y)
    across = await ash.quad_swap_x(uv.x)
    level = i32(ash.floor(d * 8.0))
    if position.x > 100.0:
        ash.discard()
    return Shaded(colour=vec4f(uv, across, 1.0), level=level)


def test_a_fragment_shader_emits_inputs_locations_a_struct_output_and_collectives(wgsl_device):
    text = to_wgsl(shade)
    assert "struct Shaded {\n    @location(0) colour: vec4f,\n" in text
    assert "    @location(1) @interpolate(flat) level: i32,\n}" in text
    assert ("fn shade(@builtin(position) position: vec4f, @location(0) uv: vec2f) -> Shaded {"
            in text)
    assert "dpdx(uv.x) + fwidthFine(uv.y)" in text and "quadSwapX(uv.x)" in text
    assert "discard;" in text and "return Shaded(vec4f(uv, across, 1.0), level);" in text
    validate(text, wgsl_device)


def test_builtins_take_their_wgsl_names(wgsl_device):
    @ash.compute(workgroup_size=1)
    async def names(f: ash.Storage[f32], u: ash.Storage[u32]):
        f[0] = ash.inverse_sqrt(f[1]) + ash.face_forward(vec2f(1, 2), vec2f(f[2]), vec2f(1)).x
        u[0] = ash.pack4xu8_clamp(ash.vec4u(u[1])) + ash.count_leading_zeros(u[2])
        u[1] = ash.dot4u8_packed(u[2], u[3]) + ash.bitcast[u32](f[3])
        u[2] = ash.extract_bits(u[3], 1, 2) + u32(ash.length(vec2f(f[0])))

    text = to_wgsl(names)
    for name in ("inverseSqrt(", "faceForward(", "pack4xU8Clamp(", "countLeadingZeros(",
                 "dot4U8Packed(", "bitcast<u32>(", "extractBits(", "length("):
        assert name in text
    validate(text, wgsl_device)


def test_numeric_results_agree_with_lavapipe(crosscheck):
    @ash.compute(workgroup_size=16)
    async def maths(x: ash.Storage[f32], out: ash.Storage[f32], bits: ash.Storage[u32], *,
                    local_invocation_index: u32):
        i = local_invocation_index
        v = x[i]
        out[i] = ash.sqrt(ash.abs(v)) + ash.clamp(v, -1.0, 1.0) * ash.fract(v)
        bits[i] = ash.reverse_bits(u32(i) * 2654435761) ^ (u32(i) << 3) % 7
        if i % 2 == 0:
            out[i] = ash.mix(v, 2.0 * v, 0.25) // 1.5

    x = np.linspace(-3, 3, 16, dtype=np.float32)
    report = crosscheck(maths, 1, x=x, out=np.zeros(16, np.float32), bits=np.zeros(16, np.uint32))
    assert report.ok
    expected_bits = [int(f"{(i * 2654435761) & 0xFFFFFFFF:032b}"[::-1], 2) ^ ((i << 3) % 7)
                     for i in range(16)]
    assert report.gpu["bits"].tolist() == expected_bits


def test_quad_operations_in_compute_agree_with_lavapipe(crosscheck):
    @ash.compute(workgroup_size=8)
    async def swaps(out: ash.Storage[u32], *, local_invocation_index: u32):
        i = local_invocation_index
        out[i] = await ash.quad_swap_x(i * 10) + await ash.quad_broadcast(i, 3) * 1000

    report = crosscheck(swaps, 1, out=np.zeros(8, np.uint32))
    assert report.gpu["out"].tolist() == [10 + 3000, 0 + 3000, 30 + 3000, 20 + 3000,
                                          50 + 7000, 40 + 7000, 70 + 7000, 60 + 7000]


def test_derivatives_and_quads_in_a_fragment_agree_with_lavapipe(crosscheck):
    @ash.fragment
    async def grad(v: ash.Input[f32], *, position: vec4f) -> vec2f:
        return vec2f(await ash.dpdx(v * v), await ash.quad_swap_diagonal(v))

    y, x = np.mgrid[0:7, 0:9].astype(np.float32)
    report = crosscheck.fragments(grad, 9, 7, v=x * 0.5 + y * y * 0.25)
    assert report.ok and report.gpu["output"].shape == (7, 9, 2)


def test_emit_reports_what_a_runner_needs():
    code = emit(mirror, out=np.zeros(64, np.float32))
    assert code.entry == "mirror" and code.stage == "compute" and code.workgroup_size == (64, 1, 1)
    assert [(b.name, b.binding, b.space) for b in code.bindings] == [("out", 0, "storage")]


def test_only_kernels_can_be_emitted():
    with pytest.raises(WGSLEmitError, match="takes a @compute kernel or a @fragment shader"):
        to_wgsl(twice)
    with pytest.raises(WGSLEmitError, match="has no parameter nope"):
        to_wgsl(mirror, nope=1)


def test_vec3u_builtins_and_swizzles(wgsl_device):
    @ash.compute(workgroup_size=(4, 2))
    async def ids(out: ash.Storage[u32], *, global_invocation_id: vec3u, num_workgroups: vec3u):
        g = global_invocation_id
        width = num_workgroups.x * 4
        out[g.y * width + g.x] = ash.dot(g.xy, vec3u(1, 2, 3).zy) + u32(g.xy.eq(g.yx).x)

    text = to_wgsl(ids)
    assert "@compute @workgroup_size(4, 2)" in text and "g.xy == g.yx" in text
    validate(text, wgsl_device)


def test_int_and_float_conversions_and_swizzle_stores(wgsl_device):
    @ash.compute(workgroup_size=4)
    async def mixed(out: ash.Storage[f32], *, local_invocation_index: u32):
        v = vec4f(0.0)
        v.xz = vec2f(float(local_invocation_index), 2.0)
        for k in range(3):
            v.y += out[int(local_invocation_index)] * k
        out[local_invocation_index] = v.x + v.y + v.z

    text = to_wgsl(mixed)
    assert "let tmp1 = vec2f(f32(local_invocation_index), 2.0);" in text
    assert "    v.x = tmp1.x;\n    v.z = tmp1.y;" in text
    assert "v.y += out[local_invocation_index] * f32(k);" in text  # a Python int local
    validate(text, wgsl_device)


def test_names_that_wgsl_reserves_are_renamed(wgsl_device):
    @ash.compute(workgroup_size=1)
    async def smooth(var: ash.Storage[f32]):  # both are WGSL reserved words
        _ = f32(1)
        loop = var[0]
        var[0] = loop + 1.0

    code = emit(smooth)
    assert code.entry == "smooth_" and "fn smooth_(" in code.source
    assert "var<storage, read_write> var_: array<f32>;" in code.source
    assert "let unused = 1.0f;" in code.source and "let loop_ = var_[0];" in code.source
    validate(code.source, wgsl_device)


def test_uniform_scalars_and_vectors_reach_the_gpu(crosscheck):
    @ash.compute(workgroup_size=4)
    async def offsets(out: ash.Storage[i32], base: i32, step: ash.vec2i, *,
                      local_invocation_index: u32):
        out[local_invocation_index] = base + step.y * i32(local_invocation_index)

    report = crosscheck(offsets, 1, out=np.zeros(4, np.int32), base=-5, step=ash.vec2i(1, -3))
    assert report.gpu["out"].tolist() == [-5, -8, -11, -14]


def test_f16_enables_the_extension_and_agrees_with_lavapipe(crosscheck):
    from asyncshader import f16, vec2h

    @ash.compute(workgroup_size=4)
    async def half(out: ash.Storage, *, local_invocation_index: u32):
        v = vec2h(f16(0.5), 2.0)
        out[local_invocation_index] = ash.sqrt(v.x * f16(local_invocation_index)) + v.y

    text = to_wgsl(half, out=np.zeros(4, np.float16))
    assert text.startswith("enable f16;\n") and "array<f16>" in text and "0.5h" in text
    report = crosscheck(half, 1, out=np.zeros(4, np.float16))
    expected = np.sqrt(np.float16(0.5) * np.arange(4, dtype=np.float16)) + np.float16(2)
    np.testing.assert_allclose(report.gpu["out"], expected, rtol=2e-3)


EVENTS: list = []


@ash.compute(workgroup_size=1)
async def logs(out: ash.Storage[u32]):
    EVENTS.append(1)


def test_a_python_object_in_the_shader_is_named_as_what_it_is():
    """(It said "the attribute `.append` of a None".)"""
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl.py:\d+: logs: `EVENTS.append`: "
                       r"EVENTS is a Python list, not a WGSL value. Fix: keep Python objects "
                       r"out of the shader"):
        to_wgsl(logs)


four = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=4)
async def loads_past_the_end(out: ash.Storage[u32], *, local_invocation_index: u32):
    out[local_invocation_index] = await ash.workgroup_uniform_load(ash.ptr(four, 7))


@ash.compute(workgroup_size=1)
async def length_of_an_element(buf: ash.Storage[u32]):
    buf[0] = ash.array_length(ash.ptr(buf, 3))


@pytest.mark.parametrize("kernel,message", [
    (loads_past_the_end, r"the index 7 of `four`, past its end \(4 elements, so 0 to 3\)"),
    (length_of_an_element, r"array_length of an element \(`ash.ptr\(buf, 3\)`\).*Fix: pass "
     r"the whole runtime-sized array"),
])
def test_pointers_the_runtime_refuses_are_refused_at_their_line(kernel, message):
    """(The census found both emitted, then refused by naga.)"""
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl.py:\d+: .*" + message):
        to_wgsl(kernel)


rows = ash.workgroup(ash.array(ash.array(u32, 4), 2))


@ash.compute(workgroup_size=4)
async def uniform_load_from_a_row(out: ash.Storage[u32], *, local_invocation_index: u32):
    if local_invocation_index == 0:
        rows[1][2] = 42
    out[local_invocation_index] = await ash.workgroup_uniform_load(ash.ptr(rows[1], 2))


def test_a_pointer_into_a_row_of_a_workgroup_array_of_arrays(crosscheck):
    """ash.ptr(rows[1], 2) is &rows[1][2] (the census found it refused as 'a pointer')."""
    text = to_wgsl(uniform_load_from_a_row)
    assert "out[local_invocation_index] = workgroupUniformLoad(&rows[1][2]);" in text
    report = crosscheck(uniform_load_from_a_row, out=np.zeros(4, np.uint32))
    assert report.gpu["out"].tolist() == [42] * 4


@ash.compute(workgroup_size=4)
async def stores_into_a_bare_parameter(out, *, local_invocation_index: u32):
    out[local_invocation_index] = out[local_invocation_index]


@ash.compute(workgroup_size=1)
async def reads_a_member_of_a_bare_parameter(o, out: ash.Storage[f32]):
    out[0] = o.inner


@ash.compute(workgroup_size=4)
async def and_of_a_float(out: ash.Storage[u32]):
    out[0] = await ash.subgroup_and(f32(1.5))


@ash.compute(workgroup_size=1)
async def reads_an_undefined_name(out: ash.Storage[u32]):
    out[0] = NOT_DEFINED  # noqa: F821


@pytest.mark.parametrize("kernel,message", [
    (stores_into_a_bare_parameter, r"the binding 'out' cannot be inferred \(the shader stores "
     r"into it, so it is a buffer, not a uniform, but nothing says of what\)\. Fix: annotate "
     r"it \(out: ash\.Storage\[f32\]\)"),
    (reads_a_member_of_a_bare_parameter, r"the binding 'o' cannot be inferred \(the shader "
     r"only reads `\.inner` of it.*Fix: annotate it \(o: ash\.Uniform\[YourStruct\]\)"),
    (and_of_a_float, r"subgroup_and of a f32 \(WGSL: i32, u32 or their vectors only\).*Fix: "
     r"pass an integer"),
    (reads_an_undefined_name, r"the name 'NOT_DEFINED' is not defined\. Fix: define it"),
])
def test_what_a_parameter_or_a_name_is_not_is_said_at_its_line(kernel, message):
    """(The census of kernels emitted without bindings found each said wrongly: a write to a
    read-only uniform, numpy's meaning on a buffer, naga's refusal, 'cannot be written'.)"""
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl.py:\d+: \w+: " + message):
        to_wgsl(kernel)


def test_constant_folding_wraps_as_wgsl_does_without_a_numpy_warning(wgsl_device):
    import warnings

    @ash.compute(workgroup_size=1)
    async def most_negative(out: ash.Storage[i32]):
        out[0] = -i32(-2147483648)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (numpy's "overflow encountered" would raise here)
        text = to_wgsl(most_negative)
    assert "out[0] = i32(-2147483648);" in text
    validate(text, wgsl_device)
