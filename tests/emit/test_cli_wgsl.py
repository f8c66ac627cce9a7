"""`asyncshader wgsl FILE::KERNEL` and `asyncshader crosscheck FILE::KERNEL`."""

from __future__ import annotations

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
