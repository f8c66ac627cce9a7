"""WGSL's shader-creation errors that the source shows are refused when a shader is decorated,
with the line and the fix (asyncshader.sanitizers.creation_checks): a constant shift count
outside [0, 32), an integer division or remainder by a constant zero, a derivative of an
integer, a derivative in a compute kernel without a derivative layout, a quad operation in a
compute kernel whose workgroup is not a multiple of 4, ``ash.workgroup`` inside a function."""

from __future__ import annotations

import linecache

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32

SHIFT = 40          # module-level constants: WGSL const-expressions as the source shows them
ZERO = 0
FZERO = 0.0
SMALL = u32(3)


def _decorate(body: str, stage: str = "compute", **options) -> None:
    """Decorates a shader whose line 3 is ``body`` (file ``<shader>``)."""
    header = ("async def shader(out: ash.Storage, *, local_invocation_index: ash.u32):\n"
              if stage == "compute" else "async def shader(*, position: ash.vec4f):\n")
    source = header + "    v = f32(1.5)\n" + f"    {body}\n"
    space = {"ash": ash, "f32": f32, "i32": i32, "u32": u32, "SHIFT": SHIFT, "ZERO": ZERO,
             "FZERO": FZERO, "SMALL": SMALL}
    exec(compile(source, "<shader>", "exec"), space)
    linecache.cache["<shader>"] = (len(source), None, source.splitlines(True), "<shader>")
    try:
        if stage == "compute":
            ash.compute(workgroup_size=options.pop("workgroup_size", 4), **options)(
                space["shader"])
        else:
            ash.fragment(space["shader"])
    finally:
        del linecache.cache["<shader>"]


@pytest.mark.parametrize("body", [
    "out[0] = local_invocation_index << 32",
    "out[0] = local_invocation_index >> 40",
    "out[0] = local_invocation_index << SHIFT",
    "out[0] = local_invocation_index >> u32(33)",
    "out[0] = local_invocation_index << -1",
    "x = local_invocation_index\n    x <<= 32",
])
def test_a_constant_shift_count_of_32_or_more_is_refused(body):
    line = 3 + body.count("\n")
    with pytest.raises(ash.ShaderCreationError, match=rf"<shader>:{line}: in shader: the shift "
                       r"`(<<|>>) .*` by the constant -?\d+: WGSL's integers have 32 bits") as e:
        _decorate(body)
    assert "Fix: shift by 0 to 31" in str(e.value)


@pytest.mark.parametrize("body", [
    "out[0] = local_invocation_index / 0",
    "out[0] = local_invocation_index // 0",
    "out[0] = local_invocation_index % 0",
    "out[0] = local_invocation_index % ZERO",
    "out[0] = i32(7) / i32(0)",
    "x = local_invocation_index\n    x %= 0",
    "out[0] = v / 0",          # (an integer zero with a float: WGSL's would convert; write 0.0)
])
def test_a_division_or_remainder_by_a_constant_integer_zero_is_refused(body):
    line = 3 + body.count("\n")
    with pytest.raises(ash.ShaderCreationError, match=rf"<shader>:{line}: in shader: `(/|//|%) "
                       r".*`: an integer division or remainder by a constant zero") as e:
        _decorate(body)
    assert "Fix: divide by a value that is not zero" in str(e.value)


@pytest.mark.parametrize("body", [
    "out[0] = local_invocation_index << 31",
    "out[0] = local_invocation_index >> SMALL",
    "out[0] = local_invocation_index / 3",
    "out[0] = v / 0.0",        # a float division by zero is a run-time value in WGSL
    "out[0] = v / FZERO",
    "out[0] = local_invocation_index % (ZERO + 1)",  # (past the reach: not a name or literal)
])
def test_shifts_and_divisions_that_wgsl_accepts_are_accepted(body):
    _decorate(body)


@pytest.mark.parametrize("body", [
    "out[0] = await ash.dpdx(local_invocation_index)",
    "out[0] = await ash.fwidth_fine(i32(3))",
    "out[0] = (await ash.dpdy_coarse(ash.vec2u(1, 2))).x",
])
def test_a_derivative_of_an_integer_is_refused(body):
    with pytest.raises(ash.ShaderCreationError, match=r"<shader>:3: in shader: ash\.\w+\(\) of "
                       r"the integer .* \(WGSL's derivatives take f32 or vecN<f32>\)") as e:
        _decorate(body, derivatives="linear")
    assert "Fix: convert it" in str(e.value)


def test_a_derivative_of_an_integer_is_refused_in_a_fragment_shader_too():
    with pytest.raises(ash.ShaderCreationError, match=r"<shader>:3: in shader: ash.dpdx\(\) of "
                       r"the integer `u32\(position.x\)`"):
        _decorate("return await ash.dpdx(u32(position.x))", stage="fragment")


def test_a_derivative_in_a_compute_kernel_without_a_layout_is_refused():
    with pytest.raises(ash.ShaderCreationError, match=r"<shader>:3: in shader: ash.dpdx\(\) in a "
                       r"compute kernel without a derivative layout") as e:
        _decorate("out[0] = await ash.dpdx(v)")
    assert 'derivatives="quads" | "linear"' in str(e.value)
    _decorate("out[0] = await ash.dpdx(v)", derivatives="linear")  # (with a layout: fine)


def test_a_quad_operation_needs_a_multiple_of_4_invocations_without_a_layout():
    with pytest.raises(ash.ShaderCreationError, match=r"<shader>:3: in shader: "
                       r"ash.quad_swap_x\(\) in a compute kernel of 6 invocations"):
        _decorate("out[0] = await ash.quad_swap_x(v)", workgroup_size=6)
    _decorate("out[0] = await ash.quad_swap_x(v)", workgroup_size=8)
    _decorate("out[0] = await ash.quad_swap_x(v)", workgroup_size=(2, 4),
              derivatives="quads")


def test_helpers_called_by_name_are_checked_at_their_own_line():
    def shifts(x):
        return x << 32

    with pytest.raises(ash.ShaderCreationError, match=r"test_creation_checks.py:\d+: in "
                       r".*shifts: the shift `<< 32`"):
        @ash.compute(workgroup_size=1)
        async def calls(out: ash.Storage):
            out[0] = shifts(u32(1))


def test_a_shift_by_31_and_a_remainder_by_a_nonzero_constant_still_run():
    @ash.compute(workgroup_size=1)
    async def fine(out: ash.Storage):
        out[0] = u32(1) << 31
        out[1] = u32(7) % SMALL

    out = np.zeros(2, np.uint32)
    ash.run(fine, out=out)
    assert out.tolist() == [2**31, 1]
