"""ash.run_fragments(..., schedule=ash.Lockstep()): a fragment dispatch run as numpy arrays
over pixels, in 2x2 quads, gives the same outputs, mask and storage, bit for bit, as the
coroutine runtime under InOrder: Python shaders (through to_wgsl) and loaded WGSL entry
points, derivatives fine and coarse, quad operations, helpers at odd edges and under
coverage=, discard (demote to helper: derivatives still fed, stores and atomics dropped),
struct inputs and outputs. Expected values are derived by hand where a test states them."""

import json

import numpy as np
import pytest
from helpers import ROOT, load_example

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec4f
from asyncshader.errors import DerivativeUniformityError, OptionError
from asyncshader.lockstep.derivatives import quad_differences


def both_ways(shader, width, height, **given):
    """(InOrder's result, its bindings), (Lockstep's result, its bindings), each run on
    copies of the arrays."""
    runs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        copies = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in given.items()}
        result = ash.run_fragments(shader, width, height, schedule=schedule, sanitize="off",
                                   **copies)
        runs.append((result, copies))
    return runs


def same_bits(a, b):
    if isinstance(a, dict):
        return sorted(a) == sorted(b) and all(same_bits(a[k], b[k]) for k in a)
    if a is None or b is None:
        return a is b
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same(shader, width, height, **given):
    """Lockstep's output, mask and storage arrays are InOrder's, bit for bit; returns
    Lockstep's result."""
    (slow, slow_given), (fast, fast_given) = both_ways(shader, width, height, **given)
    assert same_bits(slow.output, fast.output)
    assert slow.mask.tolist() == fast.mask.tolist()
    for name, value in slow_given.items():
        if isinstance(value, np.ndarray) and value.flags.writeable:
            assert value.tobytes() == fast_given[name].tobytes(), name
    return fast


# --- Python shaders -------------------------------------------------------------------------

@ash.fragment
async def product_slopes(*, position: vec4f):
    x, y = position.x - 0.5, position.y - 0.5
    v = x * y
    return vec2f(await ash.dpdx(v), await ash.dpdy(v))


@pytest.mark.parametrize("mode, dx, dy", [
    # the exact derivatives of x*y are y and x; coarse takes both at quad id 0
    ("coarse", [[0, 0, 0, 0], [0, 0, 0, 0]], [[0, 0, 2, 2], [0, 0, 2, 2]]),
    ("fine", [[0, 0, 0, 0], [1, 1, 1, 1]], [[0, 1, 2, 3], [0, 1, 2, 3]]),
])
def test_plain_derivatives_follow_the_dispatch_s_mode(mode, dx, dy):
    r = ash.run_fragments(product_slopes, 4, 2, derivatives=mode, schedule=ash.Lockstep(),
                          sanitize="off")
    assert r.output[..., 0].tolist() == dx
    assert r.output[..., 1].tolist() == dy
    assert_same(product_slopes, 4, 2, derivatives=mode)


@ash.fragment
async def every_derivative(t: ash.Input, *, position: vec4f):
    v = t * t + position.x
    return vec4f(await ash.dpdx_fine(v) + await ash.dpdy_coarse(v),
                 await ash.dpdy_fine(v) - await ash.dpdx_coarse(v),
                 await ash.fwidth_fine(v), await ash.fwidth_coarse(v) + await ash.fwidth(v))


@pytest.mark.parametrize("size", [(6, 4), (7, 5), (1, 1), (3, 8)])
def test_every_derivative_matches_inorder_with_helpers_at_odd_edges(size):
    w, h = size
    t = np.random.default_rng(w * h).standard_normal((h, w)).astype(np.float32)
    assert_same(every_derivative, w, h, t=t)
    assert_same(every_derivative, w, h, t=t, derivatives="fine")


@ash.fragment
async def quad_moves(t: ash.Input):
    return vec4f(await ash.quad_swap_x(t), await ash.quad_swap_y(t),
                 await ash.quad_swap_diagonal(t), await ash.quad_broadcast(t, 2))


def test_quad_operations_read_the_quad_s_members():
    t = np.array([[0, 1, 2, 3], [10, 11, 12, 13]], np.float32)
    r = assert_same(quad_moves, 4, 2, t=t)
    assert r.output[..., 0].tolist() == [[1, 0, 3, 2], [11, 10, 13, 12]]
    assert r.output[..., 1].tolist() == [[10, 11, 12, 13], [0, 1, 2, 3]]
    assert r.output[..., 2].tolist() == [[11, 10, 13, 12], [1, 0, 3, 2]]
    assert r.output[..., 3].tolist() == [[10, 10, 12, 12], [10, 10, 12, 12]]


@ash.fragment
async def neighbour(t: ash.Input):
    return await ash.quad_swap_x(t)


@pytest.mark.parametrize("t, want", [
    # 3 wide: x = 3 is a helper. Floats extend linearly past the edge, integers repeat it,
    # a callable is called at the helper's own pixel (docs/fragment.md, helper invocations)
    (np.array([[0, 10, 20], [100, 110, 120]], np.float32), [[10, 0, 30], [110, 100, 130]]),
    (np.array([[0, 10, 20], [100, 110, 120]], np.int32), [[10, 0, 20], [110, 100, 120]]),
    (lambda x, y: f32(100 * x), [[100, 0, 300], [100, 0, 300]]),
], ids=["float", "int", "callable"])
def test_helpers_see_the_inputs_the_coroutine_path_gives_them(t, want):
    r = assert_same(neighbour, 3, 2, t=t)
    assert r.output.tolist() == want


@ash.fragment
async def checker(counter: ash.Storage, *, position: vec4f):
    if (u32(position.x) + u32(position.y)) % 2 == 1:
        ash.discard()
    old = await ash.atomic_add(ash.ptr(counter, 0), 1)
    return vec2f(await ash.dpdx(position.x), f32(old >= 0))


def test_discard_makes_a_helper_that_feeds_derivatives_and_writes_nothing():
    counter = np.zeros(1, np.uint32)
    r = ash.run_fragments(checker, 3, 3, counter=counter, schedule=ash.Lockstep(),
                          sanitize="off")
    assert r.mask.astype(int).tolist() == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    assert counter.tolist() == [5]  # 9 pixels, 4 discarded, the padding helpers count nothing
    assert r.output[..., 0].tolist() == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]  # 0 where not shaded
    assert_same(checker, 3, 3, counter=np.zeros(1, np.uint32))


@ash.fragment
async def stores(out: ash.Storage, counter: ash.Storage, *, position: vec4f):
    x, y = u32(position.x), u32(position.y)
    if x == 1 and y == 0:
        ash.discard()
    out[y * 4 + x] = position.x * 10 + position.y
    old = f32(await ash.atomic_add(ash.ptr(counter, 0), 1))
    return vec2f(old, await ash.quad_swap_x(old))  # (a neighbour sees a helper's result)


def test_helper_stores_are_dropped_and_their_atomics_return_zero():
    out, counter = np.zeros(12, np.float32), np.array([100], np.uint32)
    r = ash.run_fragments(stores, 3, 3, out=out, counter=counter, schedule=ash.Lockstep(),
                          sanitize="off")
    kept = np.array([[1, 0, 1], [1, 1, 1], [1, 1, 1]], bool)
    assert r.mask.tolist() == kept.tolist()
    grid = out.reshape(3, 4)[:, :3]
    want = (np.arange(3)[None, :] + 0.5) * 10 + (np.arange(3)[:, None] + 0.5)
    assert grid[kept].tolist() == want[kept].tolist()
    assert grid[~kept].tolist() == [0.0]
    assert out[3::4].tolist() == [0.0] * 3  # (x = 3: the padding helpers' stores dropped)
    assert counter.tolist() == [108]  # 9 pixels, one discarded
    assert r.output[0, 0, 1] == 0  # its neighbour (1, 0) was discarded: its atomic gave 0
    # in lane order: quad ids 0, 2 and 3 of the first quad get 100, 101, 102
    assert r.output[:2, :2, 0].tolist() == [[100, 0], [101, 102]]
    assert_same(stores, 3, 3, out=np.zeros(12, np.float32), counter=np.array([100], np.uint32))


def test_coverage_runs_covered_quads_only_with_their_uncovered_pixels_as_helpers():
    cover = np.zeros((4, 6), bool)
    cover[0, 0] = cover[1, 3] = cover[3, 5] = True  # one pixel in each of three quads
    t = np.arange(24, dtype=np.float32).reshape(4, 6) ** 2
    r = assert_same(every_derivative, 6, 4, t=t, coverage=cover)
    assert r.mask.tolist() == cover.tolist()
    assert r.output[~cover].tolist() == [[0, 0, 0, 0]] * 21


def test_a_callable_input_is_called_at_the_pixels_of_the_quads_that_run_only():
    cover = np.zeros((4, 6), bool)
    cover[0, 0] = cover[3, 5] = True  # quads at (0,0) and (4,2)
    calls = []

    def t(x, y):
        calls.append((x, y))
        return f32(10 * x + y)
    r = ash.run_fragments(neighbour, 6, 4, t=t, coverage=cover, schedule=ash.Lockstep(),
                          sanitize="off")
    assert sorted(calls) == [(0, 0), (0, 1), (1, 0), (1, 1), (4, 2), (4, 3), (5, 2), (5, 3)]
    assert r.output[0, 0] == 10 and r.output[3, 5] == 43  # (1, 0) and (4, 3): its neighbours
    assert_same(neighbour, 6, 4, t=t, coverage=cover)


def test_examples_give_inorder_s_bits():
    ring = load_example("fwidth_ring.py")
    assert_same(ring.ring, 21, 19, uv=ring.uv_grid(21, 19))
    down = load_example("quad_downsample.py")
    given = down.setup(23, 17)
    assert_same(down.downsample, **given)
    # mip_level calls numpy's np.log2 on an f32, which InOrder runs as numpy's float32 log2;
    # to_wgsl writes WGSL's log2, asyncshader's definition (an ulp apart on some pixels): the
    # same bits are InOrder's of the WGSL that Lockstep runs
    floor = load_example("mip_level.py")
    wgsl = ash.load_wgsl(ash.to_wgsl(floor.mip_level, uv=floor.floor_uv))["mip_level"]
    for mode in ("coarse", "fine"):
        fast = ash.run_fragments(floor.mip_level, 11, floor.HEIGHT, uv=floor.floor_uv,
                                 derivatives=mode, schedule=ash.Lockstep(), sanitize="off")
        assert same_bits(fast.output, assert_same(wgsl, 11, floor.HEIGHT, uv=floor.floor_uv,
                                                  derivatives=mode).output)


@ash.fragment
async def subgroup_sums(t: ash.Input, *, position: vec4f, subgroup_invocation_id: u32,
                        subgroup_size: u32):
    if u32(position.x) == 3:
        ash.discard()  # (a helper still takes part in subgroup operations)
    total = await ash.subgroup_add(t)
    last = await ash.subgroup_max(f32(subgroup_invocation_id))
    return vec4f(total, last, f32(subgroup_size), await ash.dpdx(t))


@pytest.mark.parametrize("size", [4, 8, 32])
def test_subgroups_are_consecutive_quads_as_in_the_coroutine_path(size):
    t = np.random.default_rng(size).random((7, 9)).astype(np.float32)
    r = assert_same(subgroup_sums, 9, 7, t=t, subgroup_size=size)
    assert r.output[0, 0, 2] == size
    if size == 4:  # a subgroup is one quad: the f32 sum of its quad ids in order, id 3 last
        assert r.output[0, 0, 0] == ((t[0, 0] + t[0, 1]) + t[1, 0]) + t[1, 1]
        assert (r.output[r.mask][:, 1] == 3).all()
    small = ash.run_fragments(subgroup_sums, 9, 7, t=t, subgroup_size=size, sanitize="off",
                              schedule=ash.Lockstep(max_lanes=8))  # (a chunk: one subgroup)
    assert small.output.tobytes() == r.output.tobytes()


# --- loaded WGSL ----------------------------------------------------------------------------

STRUCTS = """\
struct In { @builtin(position) pos: vec4f, @location(0) uv: vec2f, @location(3) k: i32, }
struct Out { @location(0) color: vec4f, @location(1) side: u32, @builtin(frag_depth) d: f32, }
@group(0) @binding(0) var<uniform> scale: f32;
@group(0) @binding(1) var<storage, read_write> hits: array<atomic<u32>>;

fn count(i: u32) -> u32 { return atomicAdd(&hits[i], 1u); }

@fragment
fn fs(in: In, @builtin(front_facing) front: bool) -> Out {
    if (in.k == 2) { discard; }
    let old = count(u32(in.k));
    let s = fwidthFine(in.uv * scale);
    return Out(vec4f(s, dpdyCoarse(in.pos.x * in.uv.y), f32(old)), select(7u, 1u, front),
               in.uv.x * 0.5);
}
"""


def test_a_loaded_entry_point_with_struct_input_and_output_and_discard():
    module = ash.load_wgsl(STRUCTS)
    w, h = 5, 3
    rng = np.random.default_rng(3)
    uv = rng.random((h, w, 2)).astype(np.float32)
    k = (np.arange(w * h, dtype=np.int32).reshape(h, w) % 4)
    r = assert_same(module["fs"], w, h, uv=uv, location_3=k, scale=np.float32([2.0]),
                    hits=np.zeros(4, np.uint32), front_facing=False)
    assert sorted(r.output) == ["color", "d", "side"]
    assert r.mask.tolist() == (k != 2).tolist()
    assert r.output["side"][r.mask].tolist() == [7] * int(r.mask.sum())
    assert r.output["d"][r.mask].tolist() == (uv[..., 0] * np.float32(0.5))[r.mask].tolist()


def test_the_fragment_built_in_values():
    module = ash.load_wgsl("""\
@fragment
fn fs(@builtin(sample_index) si: u32, @builtin(sample_mask) sm: u32,
      @builtin(front_facing) ff: bool, @builtin(position) p: vec4f) -> @location(0) vec4u {
    return vec4u(si, sm, u32(ff), u32(p.z * 10.0 + p.w * 100.0));
}
""")
    r = assert_same(module["fs"], 3, 3, position_z=0.5, position_w=2.0)
    assert r.output.reshape(9, 4).tolist() == [[0, 1, 1, 205]] * 9  # front_facing: True
    r = assert_same(module["fs"], 3, 3, front_facing=False)
    assert r.output.reshape(9, 4).tolist() == [[0, 1, 0, 100]] * 9  # z 0 and w 1 by default


def test_the_cts_derivative_shader_with_discard_matches_inorder():
    from front.test_wgsl_cts_fragment import DERIVATIVE_SHADER, DISCARD
    values = np.array([int(b, 16) for b in json.loads(
        (ROOT / "tests" / "data" / "derivative_cases.json").read_text()
    )["dpdx_dpdy"]["quads_dpdx"][0]["values_bits_by_quad_id"]] * 4, np.uint32)
    for builtin in ("dpdx", "dpdxFine", "dpdyCoarse", "fwidth", "fwidthFine"):
        family = "fwidth" if builtin.startswith("fwidth") else builtin[:4]
        module = ash.load_wgsl(DERIVATIVE_SHADER.format(builtin=builtin,
                                                         discard=DISCARD[family][1]))
        assert_same(module["frag"], 8, 2, inputs=values.view(np.float32))


def test_a_quad_split_by_an_early_return_is_a_uniformity_error_at_the_wgsl_line():
    module = ash.load_wgsl("""\
diagnostic(off, derivative_uniformity);
@fragment
fn fs(@builtin(position) p: vec4f) -> @location(0) f32 {
    if (p.x < 1.0) { return 0.0; }
    return dpdx(p.x);
}
""")
    with pytest.raises(DerivativeUniformityError, match=r"quad at \(0,0\): quad id 1, 3 reach "
                       r"dpdxCoarse at .*:5:12, quad id 0, 2 do not") as info:
        ash.run_fragments(module["fs"], 4, 2, schedule=ash.Lockstep(), sanitize="off")
    assert "Fix: call derivatives and quad operations in uniform control flow" in str(info.value)
    assert info.value.positions[0][1] == ["fragment (1,0) [quad id 1]",
                                          "fragment (1,1) [quad id 3]"]


@ash.fragment
async def early_return(*, position: vec4f):
    if u32(position.x) == 1 and u32(position.y) == 0:
        return f32(0)
    return await ash.dpdx(position.x)


def test_a_python_shader_s_early_return_before_a_derivative_names_the_quad_and_line():
    with pytest.raises(DerivativeUniformityError) as info:
        ash.run_fragments(early_return, 4, 2, schedule=ash.Lockstep(), sanitize="off")
    message = str(info.value)
    assert "quad at (0,0): quad id 0, 2, 3 reach dpdxCoarse at <to_wgsl " in message
    assert "quad id 1 do not" in message and "non-uniform control flow" in message
    assert "return dpdx(position.x);" in ash.to_wgsl(early_return).splitlines()[
        int(message.split(".wgsl:")[1].split(":")[0]) - 1]  # (the line it names)


def test_chunks_of_a_few_quads_give_the_same_bits():
    t = np.random.default_rng(9).random((9, 13)).astype(np.float32)
    whole = ash.run_fragments(every_derivative, 13, 9, t=t, schedule=ash.Lockstep(),
                              sanitize="off")
    small = ash.run_fragments(every_derivative, 13, 9, t=t, sanitize="off",
                              schedule=ash.Lockstep(max_lanes=8))
    assert whole.output.tobytes() == small.output.tobytes()


def test_an_awaited_fragment_dispatch_runs_in_lockstep_too():
    import anyio

    async def main():
        return await ash.dispatch_fragments(product_slopes, 4, 2, schedule=ash.Lockstep(),
                                            sanitize="off")
    r = anyio.run(main)
    assert r.output[..., 1].tolist() == [[0, 0, 2, 2], [0, 0, 2, 2]]
    assert r.trace.strategy["name"] == "lockstep"


def test_other_reduction_orders_are_refused():
    with pytest.raises(OptionError, match="subgroup_reduction='lanes'"):
        ash.run_fragments(product_slopes, 4, 2, schedule=ash.Lockstep(), sanitize="off",
                          subgroup_reduction="tree")


def test_quad_differences_fine_and_coarse_over_lanes():
    # two quads: P = (0, 1, 4, 9) and (16, 25, 36, 49), quad ids 0..3
    v = np.array([0, 1, 4, 9, 16, 25, 36, 49], np.float32)
    dx, dy = quad_differences(v, 8, fine=True)
    assert dx.tolist() == [1, 1, 5, 5, 9, 9, 13, 13]
    assert dy.tolist() == [4, 8, 4, 8, 20, 24, 20, 24]
    dx, dy = quad_differences(v, 8, fine=False)
    assert dx.tolist() == [1] * 4 + [9] * 4
    assert dy.tolist() == [4] * 4 + [20] * 4
    vec = np.stack([v, 2 * v])  # a vec2f over lanes: component-wise
    assert quad_differences(vec, 8, fine=False)[0][1].tolist() == [2] * 4 + [18] * 4
    assert quad_differences(v, 8, fine=True)[0].dtype == np.float32  # in the value's dtype
    wide = quad_differences(v.astype(np.float64) / 3, 8, fine=True)[0]
    assert wide.dtype == np.float64 and wide[0] == 1 / 3 - 0 / 3


def test_the_command_line_runs_a_fragment_shader_file_in_lockstep():
    from asyncshader.tools.cli import main

    lines = []
    assert main(["run", "examples/fwidth_ring.py::ring", "--schedule", "lockstep"],
                out=lines.append) == 0
    assert any(line.startswith("aa = array(") for line in lines)
    # setup(): 21 x 19 pixels, in 11 x 10 quads of 4 invocations
    assert "440 invocations in lockstep" in " ".join(lines)
    assert lines[-1] == "ok"  # (with the race detector: the ring writes no storage)
