"""`asyncshader wgsl FILE::KERNEL` and `asyncshader crosscheck FILE::KERNEL`."""

from __future__ import annotations

import re

import pytest
from helpers import ROOT

from asyncshader.tools.cli import main

KERNEL = '''
import numpy as np
import asyncshader as ash
from asyncshader import f32, u32

@ash.compute(workgroup_size=4)
async def scale(buf: ash.Storage, k: f32, *, local_invocation_index: u32):
    buf[local_invocation_index] = buf[local_invocation_index] * k

def setup():
    return {"workgroups": 2, "buf": np.arange(8, dtype=np.float32), "k": 0.5}
'''


def test_wgsl_prints_the_module_with_types_from_setup(tmp_path):
    path = tmp_path / "scale.py"
    path.write_text(KERNEL)
    lines = []
    assert main(["wgsl", f"{path}::scale"], out=lines.append) == 0
    text = "\n".join(lines)
    assert "var<storage, read_write> buf: array<f32>;" in text
    assert "var<uniform> k: f32;" in text
    assert "buf[local_invocation_index] = buf[local_invocation_index] * k;" in text


GENERATOR = '''
import asyncshader as ash
from asyncshader import f32, vec4f

PALETTE = ((59, 76, 192), (79, 143, 214))

@ash.fragment
async def shade(level: ash.Input[ash.i32]) -> vec4f:
    r, g, b = (f32(c / 255) for c in PALETTE[level])
    return vec4f(r, g, b, 1)
'''


def test_wgsl_of_an_example_without_setup_and_its_error(tmp_path, capsys):
    lines = []
    assert main(["wgsl", f"{ROOT}/examples/mip_level.py::mip_level"], out=lines.append) == 0
    text = "\n".join(lines)
    assert "fn mip_level(@location(0) uv: vec2f) -> MipOut {" in text
    assert "const PALETTE = array<vec3f, 9>(" in text
    path = tmp_path / "generator.py"
    path.write_text(GENERATOR)
    assert main(["wgsl", f"{path}::shade"], out=print) == 1
    err = capsys.readouterr().err
    assert "generator.py:9" in err and "a generator expression" in err
    assert "Fix:" in err


def test_crosscheck_runs_setup_on_both_sides(tmp_path, wgsl_device):
    path = tmp_path / "scale.py"
    path.write_text(KERNEL)
    lines = []
    assert main(["crosscheck", f"{path}::scale"], out=lines.append) == 0
    assert lines[-1].startswith("crosscheck: buf agree on ")


def _example_kernels() -> list[tuple[str, str]]:
    """Every kernel of examples/, as FILE::KERNEL parts."""
    import ast

    out = []
    for path in sorted((ROOT / "examples").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.AsyncFunctionDef) and any(
                    "compute" in ast.unparse(d) or "fragment" in ast.unparse(d)
                    for d in node.decorator_list):
                out.append((path.name, node.name))
    return out


@pytest.mark.parametrize("example,kernel", _example_kernels())
def test_every_example_kernel_prints_as_wgsl_from_the_command_line(example, kernel, capsys):
    """Each example annotates what its shader cannot reveal (buffer element types), so the
    WGSL needs no bindings; where a file has setup(), its arrays are used too."""
    lines = []
    assert main(["wgsl", f"{ROOT}/examples/{example}::{kernel}"], out=lines.append) == 0, \
        capsys.readouterr().err
    text = "\n".join(lines)
    assert re.search(rf"^fn {kernel}_?\(", text, re.M)
    assert text.startswith(("@", "const", "override", "struct", "enable", "var", "alias"))


#: FILE::KERNEL, the options its cross-check needs (and why), from the examples' own setup()
CLI_CROSSCHECKS = [
    ("reduce.py::block_sum", []),
    ("matmul.py::matmul_tiled", []),
    ("prefix_sum.py::scan_blocks", []),          # (setup_scan_blocks)
    ("prefix_sum.py::add_block_offsets", []),    # (setup_add_block_offsets)
    ("subgroup_reduce.py::workgroup_sum", []),
    ("stream_compaction.py::compact", ["--ignore", "out"]),  # where values land: the atomics
    ("racy_counter.py::atomic_increment", ["--ignore", "seen", "--ignore", "order"]),
    ("fwidth_ring.py::ring", ["--atol", "3.2e-5"]),  # (test_examples_on_gpu: the bound)
    ("particles.py::step", ["--ulp", "32"]),     # (u.spin * d: rounded once on the CPU)
    ("mip_level.py::mip_level", ["--atol", "3.8e-6"]),  # (a log2 near 0: test_examples_on_gpu)
    ("quad_downsample.py::downsample", ["--ulp", "0"]),  # (texels of 1/256: every sum exact)
    ("speed_bins.py::histogram", []),            # (setup's overrides reach both sides)
    ("boids.py::update", []),                    # (module-scope bindings, from setup() by name)
]


@pytest.mark.parametrize("target,options", CLI_CROSSCHECKS)
def test_every_deterministic_example_crosschecks_from_the_command_line(target, options,
                                                                       wgsl_device):
    lines = []
    assert main(["crosscheck", f"{ROOT}/examples/{target}", *options], out=lines.append) == 0, \
        "\n".join(lines)
    assert lines[-1].startswith("crosscheck: ") and " agree on " in lines[-1]


def test_the_subgroup_size_bug_shows_on_lavapipe_from_the_command_line(wgsl_device):
    """The CPU runs at subgroup size 32, where the kernel is right (1 + ... + 64 = 2080);
    lavapipe's subgroups have 8 members, so the two publishers (lanes 0 and 32) hold
    1 + ... + 8 = 36 and 33 + ... + 40 = 292: 328."""
    from asyncshader.extra.device import adapter_name

    if "llvmpipe" not in adapter_name(wgsl_device):
        pytest.skip("the expected value is lavapipe's (subgroup size 8)")
    lines = []
    assert main(["crosscheck", f"{ROOT}/examples/subgroup_size_bug.py::buggy_sum"],
                out=lines.append) == 1
    assert "out[0]: CPU 2080, GPU 328" in "\n".join(lines)


def test_a_file_gives_each_kernel_its_own_setup(tmp_path):
    """setup_KERNEL() wins over setup() (prefix_sum.py's two kernels bind different
    arrays); setup() still serves the file's other kernels."""
    path = tmp_path / "two.py"
    path.write_text(KERNEL + '''

@ash.compute(workgroup_size=4)
async def double(dst: ash.Storage, *, local_invocation_index: u32):
    dst[local_invocation_index] = dst[local_invocation_index] * 2   # (no type revealed)

def setup_double():
    return {"dst": np.arange(4, dtype=np.int32)}
''')
    lines = []
    assert main(["wgsl", f"{path}::double"], out=lines.append) == 0
    assert "var<storage, read_write> dst: array<i32>;" in "\n".join(lines)  # (the int32 array)
    lines = []
    assert main(["wgsl", f"{path}::scale"], out=lines.append) == 0
    assert "var<storage, read_write> buf: array<f32>;" in "\n".join(lines)  # (from setup())
