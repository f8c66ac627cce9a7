"""crosscheck's options and uploads on lavapipe: uniforms of every size reach the GPU as WGSL
lays them out (f16 ones in 2 bytes per component), ``check=`` fails on a false verdict with
the CrosscheckError the docs promise, ``subgroup_size=`` is the CPU run's option (not a
binding), and opening the device prints nothing from Mesa."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f16, u32, vec2h, vec3h, vec4h
from asyncshader.extra.gpu import CrosscheckError


@ash.compute(workgroup_size=1)
async def spread(out: ash.Storage[f16], a: f16, b: vec2h, c: vec3h, d: vec4h):
    out[0] = a
    out[1] = b.x
    out[2] = b.y
    out[3] = c.x
    out[4] = c.y
    out[5] = c.z
    out[6] = d.w


def test_f16_scalar_and_vector_uniforms_upload_as_wgsl_lays_them_out(crosscheck):
    report = crosscheck(spread, out=np.zeros(7, np.float16), a=f16(1.5), b=vec2h(2.5, -3.0),
                        c=vec3h(4.0, 5.5, 6.0), d=vec4h(0.0, 0.0, 0.0, -0.25))
    assert report.gpu["out"].tolist() == [1.5, 2.5, -3.0, 4.0, 5.5, 6.0, -0.25]


@ash.compute(workgroup_size=16)
async def sizes(out: ash.Storage[u32], *, subgroup_size: u32, local_invocation_index: u32):
    out[local_invocation_index] = subgroup_size


@pytest.mark.parametrize("verdict", [False, np.False_], ids=repr)
def test_a_false_verdict_of_check_is_a_crosscheck_error(crosscheck, verdict):
    with pytest.raises(CrosscheckError, match=r"check\(cpu, gpu\) returned False"):
        crosscheck(sizes, out=np.zeros(16, np.uint32), subgroup_size=8,
                   check=lambda cpu, gpu: verdict)


@pytest.mark.parametrize("verdict", [True, np.True_, None], ids=repr)
def test_a_true_verdict_or_none_passes(crosscheck, verdict):
    seen = []

    def check(cpu, gpu):
        seen.append((cpu["out"].tolist(), gpu["out"].tolist()))
        return verdict

    crosscheck(sizes, out=np.zeros(16, np.uint32), subgroup_size=8, check=check)
    assert seen == [([8] * 16, [8] * 16)]


@ash.compute(workgroup_size=16)
async def counts(out: ash.Storage[u32], *, local_invocation_index: u32):
    out[local_invocation_index] = await ash.subgroup_add(u32(1))


def test_subgroup_size_is_the_cpu_runs_option_not_a_binding(crosscheck):
    """lavapipe's subgroups have 8 invocations; the CPU's default is 32. (The kernel has no
    subgroup_size parameter: the option is not taken for a binding.)"""
    report = crosscheck(counts, out=np.zeros(16, np.uint32), subgroup_size=8)
    assert report.cpu["out"].tolist() == report.gpu["out"].tolist() == [8] * 16
    with pytest.raises(CrosscheckError, match="out: 16 of 16 elements differ"):
        crosscheck(counts, out=np.zeros(16, np.uint32))


def test_opening_the_device_with_an_empty_runtime_dir_prints_nothing(tmp_path):
    """Mesa prints "XDG_RUNTIME_DIR is invalid or not set" unless it has a private folder."""
    pytest.importorskip("wgpu")
    script = textwrap.dedent("""
        import numpy as np
        import asyncshader as ash
        from asyncshader.extra.device import GPUUnavailable

        @ash.compute(workgroup_size=4)
        async def square(buf: ash.Storage[ash.u32], *, local_invocation_index: ash.u32):
            buf[local_invocation_index] *= buf[local_invocation_index]

        try:
            report = ash.crosscheck(square, buf=np.arange(4, dtype=np.uint32))
        except GPUUnavailable:
            print("unavailable")
        else:
            print(report.gpu["buf"].tolist())
        """)
    env = {k: v for k, v in os.environ.items() if k not in ("MESA_SHADER_CACHE_DIR",)}
    env["XDG_RUNTIME_DIR"] = ""
    env["PYTHONPATH"] = os.pathsep.join([os.getcwd(), env.get("PYTHONPATH", "")])
    (tmp_path / "square.py").write_text(script)
    done = subprocess.run([sys.executable, "square.py"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    if done.stdout.strip() == "unavailable":
        pytest.skip("no WebGPU adapter")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0, 1, 4, 9]"
    assert done.stderr == ""


def test_crosscheck_error_is_public_and_an_assertion_error():
    import asyncshader as ash
    assert ash.CrosscheckError is CrosscheckError
    assert issubclass(ash.CrosscheckError, (ash.AsyncShaderError, AssertionError))
