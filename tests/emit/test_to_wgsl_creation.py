"""to_wgsl refuses what WGSL refuses at shader creation, for what the decorators could not see
in the source (a module constant bound after decoration, an integer type only inference tells):
a constant shift count outside [0, 32), an integer division or remainder by a constant zero, a
derivative of an integer, a quad operation in a workgroup that is not a multiple of 4."""

from __future__ import annotations

import pytest

import asyncshader as ash
from asyncshader import WGSLEmitError, f32, to_wgsl, u32


@ash.compute(workgroup_size=4)
async def shifts_late(out: ash.Storage[u32], *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index << LATE_COUNT


@ash.compute(workgroup_size=4)
async def divides_late(out: ash.Storage[u32], *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index % LATE_ZERO


@ash.compute(workgroup_size=4)
async def divides_in_place_late(out: ash.Storage[u32], *, local_invocation_index: u32):
    x = local_invocation_index
    x //= LATE_ZERO
    out[local_invocation_index] = x


@ash.fragment
async def integer_slope(*, position: ash.vec4f):
    i = u32(position.x) + 1     # an integer the decorator does not see (no annotation)
    return await ash.dpdx(i)


@ash.compute(workgroup_size=6)
async def quads_late(out: ash.Storage[f32], *, local_invocation_index: u32):
    out[local_invocation_index] = await late_quad_helper(f32(local_invocation_index))


LATE_COUNT = 32
LATE_ZERO = 0


async def late_quad_helper(v):
    return await ash.quad_swap_x(v)


def test_a_constant_shift_count_of_32_is_refused_with_the_line():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_creation.py:16: shifts_late: the "
                       r"shift `<< LATE_COUNT` by the constant 32: WGSL's integers have 32 "
                       r"bits.*\(a shader-creation error\).*Fix: shift by 0 to 31"):
        to_wgsl(shifts_late)


@pytest.mark.parametrize("kernel, line, sym", [(divides_late, 21, "%"),
                                               (divides_in_place_late, 27, "//")])
def test_an_integer_division_by_a_constant_zero_is_refused_with_the_line(kernel, line, sym):
    with pytest.raises(WGSLEmitError, match=rf"test_to_wgsl_creation.py:{line}: \w+: `{sym} "
                       r"LATE_ZERO`: an integer division or remainder by a constant zero \(a "
                       r"shader-creation error in WGSL\)"):
        to_wgsl(kernel)


def test_a_derivative_of_an_integer_is_refused_with_the_line():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_creation.py:34: integer_slope: "
                       r"dpdx\(\) of a u32 \(WGSL's derivatives take f32.*dpdx\(f32\(...\)\)"):
        to_wgsl(integer_slope)


def test_a_quad_operation_in_6_invocations_is_refused_with_the_line():
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_creation.py:47: late_quad_helper: "
                       r"quad_swap_x\(\) in a compute kernel of 6 invocations"):
        to_wgsl(quads_late)


@ash.compute(workgroup_size=4)
async def within_the_rules(out: ash.Storage[u32], *, local_invocation_index: u32):
    out[local_invocation_index] = (local_invocation_index << 31) + local_invocation_index % 3


def test_a_shift_by_31_and_a_remainder_by_3_are_emitted():
    text = to_wgsl(within_the_rules)
    assert "(local_invocation_index << 31) + local_invocation_index % 3;" in text


@pytest.mark.parametrize("kernel", [shifts_late, divides_late])
def test_the_cpu_refuses_them_at_the_first_dispatch_too(kernel):
    """What was bound after decoration is checked again when the shader is first compiled."""
    import numpy as np

    with pytest.raises(ash.ShaderCreationError, match=r"test_to_wgsl_creation.py:(16|21): in "
                       r"\w+: .*(shift|division)"):
        ash.run(kernel, out=np.zeros(4, np.uint32))
