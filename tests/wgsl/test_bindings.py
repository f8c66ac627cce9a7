"""Bindings: storage buffers and uniforms by keyword, checked before any invocation runs."""

import re

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32, vec3f

ran = []


@ash.compute(workgroup_size=2)
async def scale(data: ash.Storage, factor: ash.f32, offset: vec3f, table: ash.Uniform,
                *, local_invocation_index: u32):
    ran.append(1)
    data[local_invocation_index] = data[local_invocation_index] * factor + offset.y + table[1]


def test_storage_is_written_in_place_and_uniforms_are_converted():
    data = np.array([1, 2], np.float32)
    table = np.array([0, 100], np.float32)
    ash.run(scale, data=data, factor=2, offset=(0, 10, 0), table=table)
    assert data.tolist() == [112, 114]
    assert table.tolist() == [0, 100]


@pytest.mark.parametrize("bindings, message", [
    ({"factor": 1, "offset": vec3f(), "table": []}, "missing binding 'data'"),
    ({"data": np.zeros(2, np.float32), "factor": 1, "offset": vec3f(), "table": [],
      "fctor": 2}, "unknown binding 'fctor'.*Did you mean 'factor'"),
    ({"data": np.zeros(2, np.float64), "factor": 1, "offset": vec3f(), "table": []},
     r"float64 array.*arr.astype\(np.float32\)"),
    ({"data": [1.0, 2.0], "factor": 1, "offset": vec3f(), "table": []}, "needs a numpy array"),
    ({"data": np.zeros(2, np.float32), "factor": "x", "offset": vec3f(), "table": []},
     "uniform 'factor' is f32"),
    ({"data": np.zeros(2, np.float32), "factor": 1, "offset": (1, 2), "table": []},
     "uniform 'offset' is vec3f"),
    ({"data": np.zeros(2, np.float32), "factor": 1, "offset": vec3f(), "table": [],
      "local_invocation_index": 3}, "is a builtin"),
])
def test_bad_bindings_fail_before_any_invocation_runs(bindings, message):
    ran.clear()
    with pytest.raises(ash.BindingError, match=message) as info:
        ash.run(scale, **bindings)
    assert ran == []
    assert "scale takes resources (data: Storage, factor: f32" in str(info.value) \
        or "uniform" in str(info.value) or "array" in str(info.value)


def test_storage_element_type_is_checked_when_declared():
    @ash.compute(workgroup_size=1)
    async def typed(buf: ash.Storage[u32]):
        buf[0] = 1

    with pytest.raises(ash.BindingError, match=r"declared Storage\[u32\]"):
        ash.run(typed, buf=np.zeros(1, np.int32))
    buf = np.zeros(1, np.uint32)
    ash.run(typed, buf=buf)
    assert buf[0] == 1



@pytest.mark.parametrize("schedule", [None, ash.Lockstep()], ids=["InOrder", "Lockstep"])
def test_a_numpy_scalar_type_as_element_means_its_wgsl_scalar(schedule):
    @ash.compute(workgroup_size=4)
    async def copy(src: ash.ReadOnly[np.float32], dst: ash.Storage[np.uint32], *,
                   local_invocation_index: u32):
        dst[local_invocation_index] = u32(src[local_invocation_index] * 2)

    assert repr(ash.ReadOnly[np.float32]) == "ReadOnly[f32]"
    dst = np.zeros(4, np.uint32)
    ash.run(copy, src=np.arange(4, dtype=np.float32), dst=dst,
            **({} if schedule is None else {"schedule": schedule}))
    assert dst.tolist() == [0, 2, 4, 6]
    with pytest.raises(ash.BindingError, match=r"declared ReadOnly\[f32\] but the array is int32"):
        ash.run(copy, src=np.zeros(4, np.int32), dst=dst)


def test_a_numpy_scalar_type_wgsl_lacks_is_refused_with_the_fix():
    with pytest.raises(TypeError, match=r"WGSL has no float64 .*annotate Storage\[ash.f32\]"):
        ash.Storage[np.float64]


@pytest.mark.parametrize("shape", [(12,), (4, 4), (2, 2, 3)])
def test_a_vector_element_needs_an_array_of_n_vectors(shape):
    @ash.compute(workgroup_size=1)
    async def vectors(buf: ash.Storage[vec3f], src: ash.ReadOnly[vec3f]):
        buf[0] = src[0]

    for name in ("buf", "src"):
        given = {"buf": np.zeros((4, 3), np.float32), "src": np.zeros((4, 3), np.float32)}
        given[name] = np.zeros(shape, np.float32)
        with pytest.raises(ash.BindingError, match=rf"binding '{name}' is declared "
                           rf"(Storage|ReadOnly)\[vec3f\], so it needs an array of shape "
                           rf"\(n, 3\) .*not {re.escape(str(shape))}. Fix: pass {name}="
                           r"arr.reshape\(-1, 3\)"):
            ash.run(vectors, **given)


def test_uniform_arrays_are_read_only_copies():
    @ash.compute(workgroup_size=1)
    async def writes_uniform(u: ash.Uniform):
        u[0] = 1

    with pytest.raises(ash.ShaderError, match="read-only"):
        ash.run(writes_uniform, u=np.zeros(1, np.float32))


def test_builtins_of_other_stages_are_rejected_at_decoration():
    with pytest.raises(TypeError, match="'position' is not available in compute"):
        @ash.compute(workgroup_size=1)
        async def k(position):
            pass


@pytest.mark.parametrize("kwargs, message", [
    ({"workgroups": (1, 2, 3, 4)}, "1 to 3 dimensions"),
    ({"workgroups": -1}, "must not be negative"),
    ({"workgroups": "x"}, "int or a tuple"),
    ({"max_live_workgroups": 0}, "positive int"),
])
def test_bad_dispatch_sizes_are_clear_errors(kwargs, message):
    with pytest.raises(ash.DispatchError, match=message):
        ash.run(scale, **{"workgroups": 1, **kwargs}, data=np.zeros(2, np.float32), factor=1,
                offset=vec3f(), table=[0, 0])


def test_zero_workgroups_run_nothing():
    ran.clear()
    r = ash.run(scale, 0, data=np.zeros(2, np.float32), factor=1, offset=vec3f(), table=[0, 0])
    assert ran == [] and r.counters.invocations == 0


def test_calling_a_kernel_directly_explains_how_to_run_it():
    with pytest.raises(TypeError, match="asyncshader.run"):
        scale()


def test_workgroup_sizes_beyond_webgpu_default_limits_warn_and_still_run():
    with pytest.warns(ash.WebGPULimitWarning, match=r"maxComputeInvocationsPerWorkgroup 512 > 256"):
        @ash.compute(workgroup_size=(512, 1, 1))
        async def big(out: ash.Storage, *, local_invocation_index: u32):
            out[local_invocation_index] = 1

    out = np.zeros(512, np.uint32)
    ash.run(big, out=out)
    assert out.sum() == 512
    with pytest.warns(ash.WebGPULimitWarning, match=r"maxComputeWorkgroupSizeZ 65 > 64"):
        ash.compute(workgroup_size=(1, 1, 65))(big.fn)
