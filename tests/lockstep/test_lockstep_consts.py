"""Lockstep on const-expressions the front-end's evaluator leaves to run time: a module-scope
``const`` array indexed by a runtime value, a built-in called on abstract values only
(``log2(32.0)``), and abstract arguments of a built-in that take its float overload's type
(``clamp(x, 0.0, N - 1)``, ``max(x, N)`` with ``x: f32``: f32, not float64, so that ``i32()``
of it converts). Each gives InOrder's bits; the values are derived by hand."""

import numpy as np

import asyncshader as ash

CONSTS = """\
const LEVELS = 9;
const PALETTE = array<vec2f, 3>(vec2f(1.0, 2.0), vec2f(3.0, 4.0), vec2f(5.0, 6.0));
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    let c = PALETTE[i % 3u];
    out[4u * i] = c.x + c.y;
    out[4u * i + 1u] = clamp(x[i], 0.0, LEVELS - 1);
    out[4u * i + 2u] = f32(log2(32.0)) - x[i];
    out[4u * i + 3u] = f32(i32(max(x[i], LEVELS)));
}
"""


def test_const_arrays_abstract_calls_and_abstract_arguments_run_as_in_order():
    kernel = ash.load_wgsl(CONSTS)["main"]
    x = np.array([-1.5, 2.25, 8.5, 11.0, 0.0, 4.0, 9.5, -0.25], np.float32)
    outs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        out = np.zeros(32, np.float32)
        ash.run(kernel, 2, x=x, out=out, schedule=schedule, sanitize="off")
        outs.append(out)
    assert outs[0].tobytes() == outs[1].tobytes()
    got = outs[1].reshape(8, 4)
    assert got[:, 0].tolist() == [3, 7, 11, 3, 7, 11, 3, 7]         # PALETTE[i % 3]: x + y
    assert got[:, 1].tolist() == np.clip(x, 0, 8).tolist()           # clamp to 0 .. 8
    assert got[:, 2].tolist() == (np.float32(5) - x).tolist()        # log2(32) = 5
    assert got[:, 3].tolist() == np.trunc(np.maximum(x, 9)).tolist()  # an f32 max, to i32
    assert got.dtype == np.float32
