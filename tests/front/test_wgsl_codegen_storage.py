"""Storage buffers of fixed-size arrays and of arrays of arrays (of scalars, vectors,
matrices and atomics: one axis per array, vector and matrix dimension) in loaded WGSL: bound to the
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


NESTED = """\
@group(0) @binding(0) var<storage, read_write> a: array<array<vec2f, 3>>;
@group(0) @binding(1) var<storage, read_write> b: array<array<vec3u, 2>, 2>;
@group(0) @binding(2) var<storage, read_write> m: array<array<mat2x3f, 2>>;
@group(0) @binding(3) var<storage, read_write> o: array<vec3f>;
@group(0) @binding(4) var<storage, read_write> c: array<array<atomic<u32>, 2>>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    let v = a[i][1];
    a[i][2] = v * 2.0 + a[i][0];
    a[i][0].y = 7.0;
    let p = &a[i][1];
    (*p).x = 9.0;
    b[i][1] = vec3u(i, i + 1u, b[i][0].z);
    b[i][0].x += 5u;
    let x = m[i][1];
    o[i] = x * vec2f(1.0, 2.0) + m[i][0][1];
    m[i][0][0] = vec3f(f32(i));
    m[i][1][1].z = 5.0;
    atomicAdd(&c[i][1], i + 1u);
    atomicMax(&c[1][0], i + 7u);
}
"""


def _nested_inputs():
    a = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    b = np.zeros((2, 2, 4), np.uint32)  # (vec3u: 16 bytes apart, the last word padding)
    b[0, 0, 2], b[1, 0, 2] = 40, 41
    m = np.zeros((2, 2, 2, 4), np.float32)  # (a mat2x3f's columns: vec3f, 16 bytes apart)
    m[..., :3] = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3)
    return dict(a=a, b=b, m=m, o=np.zeros((2, 4), np.float32),
                c=np.zeros((2, 2), np.uint32))


#: by hand, row i of a starts ((6i, 6i+1), (6i+2, 6i+3), (6i+4, 6i+5)): a[i][2] = 2 a[i][1] +
#: a[i][0]; b[i][1] = (i, i+1, b[i][0].z); o[i] = m[i][1] * (1, 2) + m[i][0]'s column 1
NESTED_A = [0, 7, 9, 3, 4, 7, 6, 7, 9, 9, 22, 25]
NESTED_B = [5, 0, 40, 0, 0, 1, 40, 0, 5, 0, 41, 0, 1, 2, 41, 0]
NESTED_O = [[27, 31, 35], [75, 79, 83]]
NESTED_C = [[0, 1], [8, 2]]


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=["InOrder", "Lockstep"])
def test_arrays_of_arrays_of_vectors_matrices_and_atomics_bind_with_their_axes(schedule):
    module = ash.load_wgsl(NESTED)
    given = _nested_inputs()
    if isinstance(schedule, ash.Lockstep):   # (Lockstep does not index a matrix in memory)
        with pytest.raises(ash.WGSLError, match="indexing mat2x3f in memory"):
            ash.run(module["main"], 1, schedule=schedule, sanitize="off", **given)
        return
    result = ash.run(module["main"], 1, schedule=schedule, sanitize="report", **given)
    assert result.findings == []
    assert given["a"].reshape(-1).tolist() == NESTED_A
    assert given["b"].reshape(-1).tolist() == NESTED_B
    assert given["o"][:, :3].tolist() == NESTED_O
    assert given["m"][0, 0, 0, :3].tolist() == [0, 0, 0] and given["m"][1, 1, 1, 2] == 5.0
    assert given["c"].tolist() == NESTED_C


def test_the_detector_sees_the_elements_of_an_array_of_arrays_of_vectors():
    module = ash.load_wgsl(NESTED.replace("    a[i][0].y = 7.0;", "    a[0][0].y = 7.0;"))
    result = ash.run(module["main"], 1, sanitize="report", **_nested_inputs())
    races = [f for f in result.findings if isinstance(f, ash.DataRace)]
    # (invocation 0 also reads a[0][0], as a[i][0], while invocation 1 writes it)
    assert {(r.memory, r.index, r.race) for r in races} == {
        ("a", (0, 0, 1), "write-write"), ("a", (0, 0, 1), "read-write")}


def test_lavapipe_agrees_on_the_arrays_of_arrays(gpu_device):
    gpu = wgsl_originals.run(gpu_device, NESTED, "main", 1, **_nested_inputs())
    assert gpu["a"].reshape(-1).tolist() == NESTED_A
    assert gpu["b"].reshape(-1).tolist() == NESTED_B
    assert gpu["o"][:, :3].tolist() == NESTED_O
    assert gpu["c"].tolist() == NESTED_C
