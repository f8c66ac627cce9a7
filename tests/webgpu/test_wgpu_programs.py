"""Real wgpu-py programs run unchanged on asyncshader.webgpu and on wgpu (Mesa's lavapipe),
with the same bytes: pygfx/wgpu-py's compute examples (tests/data/wgpu_examples, BSD-2) and a
multi-pass ping-pong scan of our own (wgpu_programs.py)."""

import runpy

import numpy as np
import pytest
import wgpu_programs
from helpers import ROOT

import asyncshader.webgpu as ours
from asyncshader.webgpu import as_wgpu

EXAMPLES = ROOT / "tests" / "data" / "wgpu_examples"


def run_on_lavapipe(name):
    """The example run by wgpu-py itself (on lavapipe: the session's only adapter)."""
    return runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")


def run_on_asyncshader(name):
    with as_wgpu():
        return runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")


def test_compute_noop_copies_the_buffer_on_both_devices(gpu_device, capsys):
    mine = run_on_asyncshader("compute_noop")
    theirs = run_on_lavapipe("compute_noop")
    assert mine["result"] == list(range(20)) == theirs["result"]
    assert bytes(mine["out"]) == bytes(theirs["out"])


def test_compute_workgroups_writes_the_same_invocation_ids(gpu_device, capsys):
    mine = run_on_asyncshader("compute_workgroups")
    theirs = run_on_lavapipe("compute_workgroups")
    assert bytes(mine["raw"]) == bytes(theirs["raw"])
    # thread i of 3 workgroups of 4 writes (i, i % 4, i // 4)
    assert mine["values"].tolist() == [v for i in range(12) for v in (i, i % 4, i // 4)]
    assert "Invocation ID mapping verified" in capsys.readouterr().out


def test_compute_matmul_agrees_with_lavapipe_within_f32_rounding(gpu_device, capsys):
    np.random.seed(0)  # (the example draws its matrices from numpy's global generator)
    mine = run_on_asyncshader("compute_matmul")
    np.random.seed(0)
    theirs = run_on_lavapipe("compute_matmul")
    assert mine["A"].tolist() == theirs["A"].tolist()
    np.testing.assert_allclose(mine["C"], mine["A"] @ mine["B"], rtol=1e-5)
    np.testing.assert_allclose(mine["C"], theirs["C"], rtol=1e-6, atol=1e-6)


def test_compute_int64_is_refused_at_request_device_naming_the_feature():
    with pytest.raises(ours.GPUValidationError, match="shader-int64"):
        run_on_asyncshader("compute_int64")


@pytest.mark.parametrize("n", [1, 64, 300])
def test_a_ping_pong_scan_over_passes_and_copies_matches_lavapipe(gpu_device, n):
    import wgpu

    values = (np.arange(n, dtype=np.uint32) * 7 + 3) % 1000
    device = ours.gpu.request_adapter_sync().request_device_sync()
    mine = wgpu_programs.ping_pong_scan(ours, device, values)
    assert mine.tolist() == np.cumsum(values).tolist()
    theirs = wgpu_programs.ping_pong_scan(wgpu, gpu_device, values)
    assert mine.tobytes() == theirs.tobytes()
    steps = max(1, (n - 1).bit_length())
    names = [d.name for d in device.asyncshader.dispatches]
    assert [name.split(": entry point")[0] for name in names] == [
        f"submit 1, dispatch 0 of pass {k}" for k in range(steps)]
    assert all(f"workgroups ({(n + 63) // 64}, 1, 1)" in name for name in names)


def test_python_dash_m_asyncshader_webgpu_runs_a_program_unchanged():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "asyncshader.webgpu",
                           str(EXAMPLES / "compute_noop.py")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == str(list(range(20))) == lines[-1]
    assert "via asyncshader" in lines[1]  # (the example prints each adapter's summary)


def test_wgpu_py_own_compute_tests_pass_on_asyncshader_but_the_spirv_one(tmp_path):
    """wgpu-py's tests/test_util_compute.py, unchanged, under pytest with ``import wgpu``
    giving asyncshader.webgpu: every test passes but the one that hands SPIR-V bytes to
    create_shader_module (asyncshader runs WGSL only)."""
    import shutil
    import subprocess
    import sys

    source = ROOT / "tests" / "data" / "wgpu_tests"
    shutil.copy(source / "util_compute.py", tmp_path / "test_util_compute.py")
    shutil.copy(source / "testutils.py", tmp_path / "testutils.py")
    (tmp_path / "conftest.py").write_text(
        "from asyncshader.webgpu import as_wgpu\n"
        "SWAP = as_wgpu()  # (held: the swap lasts while the context is open)\n"
        "SWAP.__enter__()\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf",
         "test_util_compute.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    tail = done.stdout.strip().splitlines()
    assert tail[-1].startswith("1 failed, 10 passed"), done.stdout[-2000:]
    failed = [line for line in tail if line.startswith("FAILED")]
    assert failed == [line for line in failed if "test_compute_0_1_spirv" in line] and \
        "SPIR-V" in done.stdout, done.stdout[-2000:]
