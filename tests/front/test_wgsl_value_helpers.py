"""asyncshader.front.wgsl.value_helpers: WGSL's load rule in generated code. An array of
matrices loaded whole from uniform or workgroup memory (numpy arrays there) is a list of
matrix values, so that ``l[1][1].y`` indexes a matrix and a column. Values by hand, and
lavapipe on the same bytes."""

from pathlib import Path

import numpy as np
from ports import wgsl_originals

import asyncshader as ash

ARRAY_OF_MATRICES = """\
@group(0) @binding(0) var<uniform> a: array<mat2x2f, 2>;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
var<workgroup> w: array<mat2x2f, 2>;

@compute @workgroup_size(1)
fn main() {
    let l = a;
    o[0] = l[1][1].y;
    o[1] = l[1][0].x;
    let m = l[0];
    o[2] = m[0][1];
    w = a;
    let k = w;
    o[3] = (k[1] * vec2f(1.0, 0.0)).y;
}
"""


def test_an_array_of_matrices_loaded_whole_holds_matrices(gpu_device):
    a = np.arange(8, dtype=np.float32)  # a[m] column c row r at m*4 + c*2 + r
    o = np.zeros(4, np.float32)
    ash.run(ash.load_wgsl(ARRAY_OF_MATRICES)["main"], 1, a=a, o=o)
    assert o.tolist() == [7.0, 4.0, 1.0, 5.0]  # k[1] * (1, 0) is k[1]'s column 0: (4, 5)
    gpu = wgsl_originals.run(gpu_device, ARRAY_OF_MATRICES, "main", 1, a=a,
                             o=np.zeros(4, np.float32))
    assert gpu["o"].tolist() == o.tolist()


def test_dawns_array_of_f16_matrices_through_pointers_runs():
    path = (Path(__file__).parents[1] / "data" / "tint" / "buffer" / "uniform" / "std140" /
            "array" / "mat4x4_f16" / "dynamic_index_via_ptr.wgsl")
    module = ash.load_wgsl(path.read_text(encoding="utf-8"))
    a = np.arange(64, dtype=np.float16)  # a[m][c][r] at m*16 + c*4 + r
    s = np.zeros(1, np.float16)
    ash.run(module["f"], 1, a=a, s=s)
    # i() gives 1 then 2: a[1][2].x + a[0][0].x + a[1][0].x + a[1][2].x = 24 + 0 + 16 + 24
    assert s.tolist() == [64.0]
