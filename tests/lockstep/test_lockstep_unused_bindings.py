"""A binding a Python kernel declares and does not use: ``to_wgsl`` leaves it out of the
WGSL, and Lockstep accepts it bound, as the coroutine schedules do (silently, untouched);
a name the kernel does not declare stays an error under every schedule."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32
from asyncshader.emit import WGSLEmitError
from asyncshader.errors import BindingError


@ash.compute(workgroup_size=4)
async def ignores_extra(out, extra, *, local_invocation_index: u32):
    out[local_invocation_index] = local_invocation_index * u32(3)


@pytest.mark.parametrize("sanitize", ["report", "off"])
def test_a_bound_parameter_the_kernel_does_not_use_is_accepted_as_under_in_order(sanitize):
    for schedule in (ash.InOrder(), ash.Lockstep()):
        out, extra = np.zeros(4, np.uint32), np.full(3, 5.0, np.float32)
        ash.run(ignores_extra, 1, schedule=schedule, sanitize=sanitize, out=out, extra=extra)
        assert out.tolist() == [0, 3, 6, 9], schedule
        assert extra.tolist() == [5.0, 5.0, 5.0], schedule


def test_a_name_the_kernel_does_not_declare_is_still_refused():
    with pytest.raises(BindingError, match="unknown binding 'other'"):
        ash.run(ignores_extra, 1, schedule=ash.InOrder(), out=np.zeros(4, np.uint32),
                extra=np.zeros(3, np.float32), other=np.zeros(3, np.float32))
    with pytest.raises(WGSLEmitError, match="ignores_extra has no parameter other"):
        ash.run(ignores_extra, 1, schedule=ash.Lockstep(), out=np.zeros(4, np.uint32),
                extra=np.zeros(3, np.float32), other=np.zeros(3, np.float32))
