"""Storage buffers of fixed-size arrays and of arrays of arrays in loaded WGSL: bound to the
caller's bytes, viewed with the array's shape (WGSL's layout), indexed, stored into and
loaded whole as WGSL says; values derived by hand and compared with lavapipe running the
same text on the same bytes."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash

GRIDS = """\
struct P { x: f32, v: vec2f }
@group(0) @binding(0) var<storage, read_write> grid: array<array<f32, 4>, 3>;
@group(0) @binding(1) var<storage, read_write> rows: array<array<u32, 3>>;
@group(0) @binding(2) var<storage, read_write> fixed: array<f32, 4>;
@group(0) @binding(3) var<storage, read_write> ps: array<P, 2>;
@group(0) @binding(4) var<storage, read_write> vs: array<vec3f, 2>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    grid[2][i] = f32(i) + 5.0;
    grid[0][3u - i] += 1.0;
    storageBarrier();  // (a workgroupBarrier() would not order grid: the detector says)
    if (i == 0u) {
        let r = grid[2];
        grid[1][0] = r[1] + 1.0;
        rows[arrayLength(&rows) - 1u][2] = arrayLength(&rows);
        fixed[3] = fixed[0] + fixed[1];
    }
    rows[0][i] += 10u;
    ps[i].x = f32(i) + 0.5;
    ps[i].v.y = 3.0;
    vs[i] = vec3f(1.0, 2.0, f32(i));
}
"""


def inputs():
    return dict(grid=np.zeros(12, np.float32), rows=np.arange(6, dtype=np.uint32),
                fixed=np.array([1.5, 2.0, 0.0, 0.0], np.float32),
                ps=np.zeros(8, np.float32), vs=np.zeros(8, np.float32))


def test_arrays_of_arrays_and_fixed_size_arrays_bind_as_wgsl_lays_them_out(gpu_device):
    given = inputs()
    module = ash.load_wgsl(GRIDS)
    result = ash.run(module["main"], 1, sanitize="report", **given)
    assert given["grid"].reshape(3, 4).tolist() == [[0, 0, 1, 1], [7, 0, 0, 0], [5, 6, 0, 0]]
    assert not result.findings
    assert given["rows"].tolist() == [10, 11, 2, 3, 4, 2]  # two rows of 3: length 2
    assert given["fixed"].tolist() == [1.5, 2.0, 0.0, 3.5]
    assert given["ps"].tolist() == [0.5, 0, 0, 3, 1.5, 0, 0, 3]  # P: x, pad, v (align 8)
    assert given["vs"].tolist() == [1, 2, 0, 0, 1, 2, 1, 0]  # vec3f: 16 bytes apart
    gpu = wgsl_originals.run(gpu_device, GRIDS, "main", 1, **inputs())
    for name, value in gpu.items():
        assert value.tolist() == given[name].tolist(), name


def test_a_fixed_size_array_binding_needs_its_size_and_sees_only_its_bytes():
    module = ash.load_wgsl(GRIDS)
    given = inputs()
    given["fixed"] = np.zeros(3, np.float32)
    with pytest.raises(ash.BindingError, match=r"binding 'fixed' .* needs 16 bytes; got 12"):
        ash.run(module["main"], 1, **given)
    given = inputs()
    given["grid"] = np.zeros(13, np.float32)  # (a larger buffer: its first 48 bytes bound)
    ash.run(module["main"], 1, sanitize="off", **given)
    assert given["grid"].tolist()[8:] == [5, 6, 0, 0, 0]  # (the 13th float untouched)
