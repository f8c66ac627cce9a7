"""Compute-shader derivatives and quads (VK_KHR_compute_shader_derivatives), and linear ramps
through fragment helpers.

WGSL has no compute derivatives; asyncshader follows Vulkan (spec digest §6):
``@compute(derivatives="quads")`` groups local ids (2x+i, 2y+j, z) into a quad with id i + 2j
(DerivativeGroupQuadsKHR: workgroup x and y sizes even, VUID-StandaloneSpirv-
DerivativeGroupQuadsKHR-10151); ``derivatives="linear"`` groups local indices 4n..4n+3, laid out
``4n | 4n+1 / 4n+2 | 4n+3`` (DerivativeGroupLinearKHR: a multiple of 4 invocations, -10152).
Without a layout a derivative is a shader-creation error, as WGSL has none in compute (refused
at decoration, or where it runs when the source does not show it); quad operations then use 4
consecutive local indices (CTS
``quadBroadcast``/``quadSwap`` compute model). The expected values below are worked out by hand
from those formulas (fine: own row / column; coarse: the pair through quad id 0).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, vec2f, vec4f

DERIVATIVE_NAMES = ["dpdx", "dpdx_coarse", "dpdx_fine", "dpdy", "dpdy_coarse", "dpdy_fine",
                    "fwidth", "fwidth_coarse", "fwidth_fine"]


async def _all_derivatives(out, l, value):
    out[0, l] = await ash.dpdx(value)
    out[1, l] = await ash.dpdx_coarse(value)
    out[2, l] = await ash.dpdx_fine(value)
    out[3, l] = await ash.dpdy(value)
    out[4, l] = await ash.dpdy_coarse(value)
    out[5, l] = await ash.dpdy_fine(value)
    out[6, l] = await ash.fwidth(value)
    out[7, l] = await ash.fwidth_coarse(value)
    out[8, l] = await ash.fwidth_fine(value)


async def _cross_term(out: ash.Storage, *, local_invocation_id, local_invocation_index):
    x, y = f32(local_invocation_id.x), f32(local_invocation_id.y)
    await _all_derivatives(out, local_invocation_index, x * x + 10 * y + x * y)


def _run_all(kernel, n: int, mode: str = "coarse", seed: int = 0) -> dict[str, np.ndarray]:
    out = np.full((len(DERIVATIVE_NAMES), n), np.nan, np.float32)
    ash.run(kernel, out=out, derivatives=mode, schedule=ash.Random(seed))
    return dict(zip(DERIVATIVE_NAMES, out))


# f = x*x + 10*y + x*y on a 4x4 workgroup, quads layout; x0, y0 = the quad's even corner.
# fine dpdx(x, y) = f(x0+1, y) - f(x0, y) = 2*x0 + 1 + y;  coarse dpdx = 2*x0 + 1 + y0
# fine dpdy(x, y) = f(x, y0+1) - f(x, y0) = 10 + x;        coarse dpdy = 10 + x0
QUADS_4X4 = {
    "dpdx_fine": [[1, 1, 5, 5], [2, 2, 6, 6], [3, 3, 7, 7], [4, 4, 8, 8]],
    "dpdx_coarse": [[1, 1, 5, 5], [1, 1, 5, 5], [3, 3, 7, 7], [3, 3, 7, 7]],
    "dpdy_fine": [[10, 11, 12, 13]] * 4,
    "dpdy_coarse": [[10, 10, 12, 12]] * 4,
    "fwidth_fine": [[11, 12, 17, 18], [12, 13, 18, 19], [13, 14, 19, 20], [14, 15, 20, 21]],
    "fwidth_coarse": [[11, 11, 17, 17], [11, 11, 17, 17], [13, 13, 19, 19], [13, 13, 19, 19]],
}


@pytest.mark.parametrize("mode", ["coarse", "fine"])
def test_quads_layout_derivatives_of_a_cross_term(mode):
    """VK DerivativeGroupQuadsKHR: quads of local ids (2x+i, 2y+j); fine per row/column."""
    kernel = ash.compute(workgroup_size=(4, 4), derivatives="quads")(_cross_term)
    got = {k: v.reshape(4, 4) for k, v in _run_all(kernel, 16, mode, seed=3).items()}
    for name, expected in QUADS_4X4.items():
        np.testing.assert_array_equal(got[name], expected, err_msg=name)
    for plain in ("dpdx", "dpdy", "fwidth"):  # the plain ones follow run(derivatives=...)
        np.testing.assert_array_equal(got[plain], got[f"{plain}_{mode}"], err_msg=plain)


async def _square_plus_ten_y(out: ash.Storage, *, local_invocation_id, local_invocation_index):
    x, y = f32(local_invocation_id.x), f32(local_invocation_id.y)
    await _all_derivatives(out, local_invocation_index, x * x + 10 * y)


# f = x*x + 10*y on a 4x2 workgroup (local index l = x + 4y).
# quads layout: quads {(0,0),(1,0),(0,1),(1,1)} and {(2,0),(3,0),(2,1),(3,1)}:
#   dpdx = 2*x0 + 1 (1 or 5), dpdy = 10 everywhere (fine and coarse alike)
# linear layout: quad n = indices 4n..4n+3 = one row, ids 0..3 at x = 0..3:
#   fine dpdx = f(1)-f(0) = 1 on ids 0, 1 and f(3)-f(2) = 5 on ids 2, 3; coarse dpdx = 1
#   fine dpdy = f(2)-f(0) = 4 on ids 0, 2 and f(3)-f(1) = 8 on ids 1, 3; coarse dpdy = 4
#   (10*y is the same inside a quad, so it never shows)
LAYOUT_4X2 = {
    "quads": {"dpdx_fine": [[1, 1, 5, 5]] * 2, "dpdx_coarse": [[1, 1, 5, 5]] * 2,
              "dpdy_fine": [[10] * 4] * 2, "dpdy_coarse": [[10] * 4] * 2,
              "fwidth_fine": [[11, 11, 15, 15]] * 2, "fwidth_coarse": [[11, 11, 15, 15]] * 2},
    "linear": {"dpdx_fine": [[1, 1, 5, 5]] * 2, "dpdx_coarse": [[1] * 4] * 2,
               "dpdy_fine": [[4, 8, 4, 8]] * 2, "dpdy_coarse": [[4] * 4] * 2,
               "fwidth_fine": [[5, 9, 9, 13]] * 2, "fwidth_coarse": [[5] * 4] * 2},
}


@pytest.mark.parametrize("mode", ["coarse", "fine"])
@pytest.mark.parametrize("layout", ["quads", "linear"])
def test_layouts_differ_on_the_same_workgroup(layout, mode):
    """VK compute derivative groups: a 4x2 workgroup, quads (2x2 ids) vs linear (4 indices)."""
    kernel = ash.compute(workgroup_size=(4, 2), derivatives=layout)(_square_plus_ten_y)
    got = {k: v.reshape(2, 4) for k, v in _run_all(kernel, 8, mode, seed=1).items()}
    for name, expected in LAYOUT_4X2[layout].items():
        np.testing.assert_array_equal(got[name], expected, err_msg=name)
    for plain in ("dpdx", "dpdy", "fwidth"):
        np.testing.assert_array_equal(got[plain], got[f"{plain}_{mode}"], err_msg=plain)


async def _square_of_index(out: ash.Storage, *, local_invocation_index):
    l = f32(local_invocation_index)
    await _all_derivatives(out, local_invocation_index, l * l)


def test_linear_layout_across_several_quads():
    """VK DerivativeGroupLinearKHR: f = l*l on 8 invocations; quad n = 4n..4n+3 as 2x2."""
    kernel = ash.compute(workgroup_size=8, derivatives="linear")(_square_of_index)
    got = _run_all(kernel, 8, "fine", seed=5)
    # quad 1 = l 4..7: dpdx top 25-16 = 9, bottom 49-36 = 13; dpdy left 36-16 = 20, right 24
    assert got["dpdx_fine"].tolist() == [1, 1, 5, 5, 9, 9, 13, 13]
    assert got["dpdx_coarse"].tolist() == [1, 1, 1, 1, 9, 9, 9, 9]
    assert got["dpdy_fine"].tolist() == [4, 8, 4, 8, 20, 24, 20, 24]
    assert got["dpdy_coarse"].tolist() == [4, 4, 4, 4, 20, 20, 20, 20]


async def _vector_in_3d(out: ash.Storage, *, local_invocation_id, local_invocation_index):
    x, y, z = (f32(c) for c in local_invocation_id)
    v = vec2f(3 * x + 100 * z, y * y)
    d = vec4f(*await ash.dpdx_fine(v), *await ash.dpdy_fine(v))
    for k in range(4):
        out[k, local_invocation_index] = d[k]


def test_quads_layout_with_z_and_vectors():
    """VK DerivativeGroupQuadsKHR on (2, 4, 2): each z slice has its own quads; vec2f input."""
    kernel = ash.compute(workgroup_size=(2, 4, 2), derivatives="quads")(_vector_in_3d)
    out = np.zeros((4, 16), np.float32)
    ash.run(kernel, out=out, schedule=ash.Random(4))
    out = out.reshape(4, 2, 4, 2)  # (component, z, y, x)
    assert (out[0] == 3).all() and (out[1] == 0).all()  # d/dx (3x + 100z, y*y)
    assert (out[2] == 0).all()  # d/dy 3x + 100z: z is not a quad axis
    # d/dy y*y = (y0+1)^2 - y0^2 = 2*y0 + 1: 1 for y in {0, 1}, 5 for y in {2, 3}
    np.testing.assert_array_equal(out[3], np.broadcast_to([[1, 1], [1, 1], [5, 5], [5, 5]],
                                                          (2, 4, 2)))


# ------------------------------------------------------------------------------- size rules
async def _noop(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = await ash.dpdx(f32(local_invocation_index))


@pytest.mark.parametrize("size", [(3, 2), (2, 3), (4, 5, 2), (1, 1, 4)])
def test_quads_layout_needs_even_x_and_y(size):
    """VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151: x and y sizes multiples of 2."""
    with pytest.raises(ash.DispatchError, match=r"x and y must be even.*10151"):
        ash.compute(workgroup_size=size, derivatives="quads")(_noop)


@pytest.mark.parametrize("size", [3, (6, 1, 1), (1, 3, 3), (5, 2)])
def test_linear_layout_needs_a_multiple_of_4(size):
    """VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152: total invocations multiple of 4."""
    with pytest.raises(ash.DispatchError, match=r"multiple of 4 invocations.*10152"):
        ash.compute(workgroup_size=size, derivatives="linear")(_noop)


@pytest.mark.parametrize(("size", "layout"), [((2, 2, 3), "quads"), ((4, 6), "quads"),
                                              ((1, 1, 4), "linear"), ((2, 3, 2), "linear")])
def test_valid_layout_sizes_are_accepted(size, layout):
    """VK compute derivative groups: z is free for quads; linear only counts invocations."""
    kernel = ash.compute(workgroup_size=size, derivatives=layout)(_noop)
    n = int(np.prod(size))
    out = np.full(n, np.nan, np.float32)
    ash.run(kernel, out=out)
    assert np.isfinite(out).all()


def test_unknown_layout_is_rejected():
    """VK_KHR_compute_shader_derivatives has exactly two derivative group modes."""
    with pytest.raises(ash.DispatchError, match="'quads' or 'linear'"):
        ash.compute(workgroup_size=4, derivatives="quad")(_noop)


# ------------------------------------------------------------------ no layout: refused
async def _no_layout(out: ash.Storage, vec_out: ash.Storage, *, local_invocation_index):
    l = f32(local_invocation_index)
    await _all_derivatives(out, local_invocation_index, l * l)
    v = await ash.fwidth_fine(vec2f(l, l * l))
    vec_out[local_invocation_index, 0] = v.x


@pytest.mark.parametrize("size", [4, 3, (2, 3)])
def test_without_a_layout_a_derivative_is_refused_at_decoration(size):
    """WGSL has derivatives in fragment shaders only: without a layout (Vulkan's
    compute-derivative modes) the kernel is refused when decorated, at the first derivative
    the source shows (here in the helper it awaits), with the fix."""
    first = inspect.getsourcelines(_all_derivatives)[1]
    with pytest.raises(ash.ShaderCreationError, match=rf":{first + 1}: in _all_derivatives: "
                       r"ash.dpdx\(\) in a compute kernel without a derivative layout") as info:
        ash.compute(workgroup_size=size)(_no_layout)
    assert 'derivatives="quads" | "linear"' in str(info.value)


_HIDDEN = {}


async def _hidden_dpdy(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = await _HIDDEN["dpdy"](f32(local_invocation_index))


def test_without_a_layout_a_derivative_the_source_hides_raises_where_it_runs():
    """A derivative reached other than by name (here through a dict) is not seen at
    decoration; it raises ShaderCreationError when it runs, never returns a made-up zero."""
    _HIDDEN["dpdy"] = ash.dpdy
    kernel = ash.compute(workgroup_size=4)(_hidden_dpdy)
    with pytest.raises(ash.ShaderError, match=r"dpdy\(\) in a compute kernel without a "
                                              r"derivative layout") as info:
        ash.run(kernel, out=np.zeros(4, np.float32))
    assert isinstance(info.value.original, ash.ShaderCreationError)
    assert 'derivatives="quads" | "linear"' in str(info.value)


async def _strict_dpdy(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = await ash.dpdy(f32(local_invocation_index))


def test_strict_with_a_layout_computes_derivatives():
    """VK_KHR_compute_shader_derivatives: with a mode declared, strict kernels just work."""
    kernel = ash.compute(workgroup_size=4, derivatives="linear", strict=True)(_strict_dpdy)
    out = np.zeros(4, np.float32)
    ash.run(kernel, out=out)
    assert out.tolist() == [2, 2, 2, 2]  # coarse dpdy = l(id 2) - l(id 0)


# ------------------------------------------------------------------------- quad ops in compute
async def _quad_ops(out: ash.Storage, *, local_invocation_index):
    l = local_invocation_index
    out[0, l] = await ash.quad_swap_x(l)
    out[1, l] = await ash.quad_swap_y(l)
    out[2, l] = await ash.quad_swap_diagonal(l)
    out[3, l] = await ash.quad_broadcast(l, 0)
    out[4, l] = await ash.quad_broadcast(l, 3)


# 4x2 workgroup, l = x + 4y. quads layout: quad {0, 1, 4, 5} and {2, 3, 6, 7};
# consecutive (no layout / linear): quad {0, 1, 2, 3} and {4, 5, 6, 7}.
QUAD_OPS_4X2 = {
    "quads": [[1, 0, 3, 2, 5, 4, 7, 6], [4, 5, 6, 7, 0, 1, 2, 3], [5, 4, 7, 6, 1, 0, 3, 2],
              [0, 0, 2, 2, 0, 0, 2, 2], [5, 5, 7, 7, 5, 5, 7, 7]],
    "linear": [[1, 0, 3, 2, 5, 4, 7, 6], [2, 3, 0, 1, 6, 7, 4, 5], [3, 2, 1, 0, 7, 6, 5, 4],
               [0, 0, 0, 0, 4, 4, 4, 4], [3, 3, 3, 3, 7, 7, 7, 7]],
}


@pytest.mark.parametrize("layout", [None, "linear", "quads"], ids=["no_layout", "linear", "quads"])
def test_quad_ops_in_compute_follow_the_layout(layout):
    """VK §Quad scope: quad ops use the derivative group; without one, 4 consecutive indices."""
    kernel = ash.compute(workgroup_size=(4, 2), derivatives=layout)(_quad_ops)
    out = np.zeros((5, 8), np.uint32)
    ash.run(kernel, out=out, schedule=ash.Random(9))
    assert out.tolist() == QUAD_OPS_4X2[layout or "linear"]


# ---------------------------------------------------------------------- uniformity errors
async def _diverging(out: ash.Storage, *, local_invocation_id, local_invocation_index):
    v = f32(local_invocation_index)
    if local_invocation_id.x == 3 and local_invocation_id.y == 1:
        out[local_invocation_index] = await ash.dpdx(v)  # line A
    else:
        out[local_invocation_index] = await ash.dpdx(v)  # line B


def _line_of(fn, marker: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def test_derivatives_at_different_call_sites_name_the_quad_members_and_lines():
    """WGSL derivative_uniformity: members of quad {2,3,6,7} at two dpdx call sites."""
    kernel = ash.compute(workgroup_size=(4, 2), derivatives="quads")(_diverging)
    with pytest.raises(ash.DerivativeUniformityError) as info:
        ash.run(kernel, out=np.zeros(8, np.float32))
    message = str(info.value)
    line_a, line_b = _line_of(_diverging, "line A"), _line_of(_diverging, "line B")
    assert "quad 1 of workgroup_id=(0,0,0)" in message
    assert "different rendezvous" in message
    lines = message.splitlines()
    site_a = next(x for x in lines if "quad id 3 (1 invocation): waits at" in x)
    site_b = next(x for x in lines if "quad id 0-2 (3 invocations): waits at" in x)
    assert f"test_compute_derivatives.py:{line_a} in dpdx()" in site_a and "# line A" in site_a
    assert f"test_compute_derivatives.py:{line_b} in dpdx()" in site_b and "# line B" in site_b
    where = dict(info.value.positions)
    assert sorted(len(v) for v in where.values()) == [1, 3]
    members = [m for ms in where.values() for m in ms]
    assert sorted(m.split("local_invocation_index=")[1].rstrip("]") for m in members) == \
        ["2", "3", "6", "7"]


async def _returns_early(out: ash.Storage, *, local_invocation_index):
    if local_invocation_index % 4 == 2:
        return
    out[local_invocation_index] = await ash.fwidth(f32(local_invocation_index))  # the call


def test_a_member_returning_before_a_derivative_is_a_uniformity_error():
    """WGSL derivative_uniformity: a quad member returned while the others wait at fwidth."""
    kernel = ash.compute(workgroup_size=8, derivatives="linear")(_returns_early)
    with pytest.raises(ash.DerivativeUniformityError, match="returned while others wait") as info:
        ash.run(kernel, out=np.zeros(8, np.float32))
    message = str(info.value)
    assert "quad id 2 (1 invocation): returned (finished the shader)" in message
    assert f":{_line_of(_returns_early, '# the call')} in fwidth()" in message
    assert "Fix: call derivatives and quad operations in uniform control flow" in message


# --------------------------------------------------------------------- fragment linear ramps
async def _ramp_outputs(v):
    return {"dx": await ash.dpdx(v), "dy": await ash.dpdy(v),
            "dx_coarse": await ash.dpdx_coarse(v), "dy_coarse": await ash.dpdy_coarse(v),
            "dx_fine": await ash.dpdx_fine(v), "dy_fine": await ash.dpdy_fine(v),
            "fwidth": await ash.fwidth(v), "fwidth_coarse": await ash.fwidth_coarse(v),
            "fwidth_fine": await ash.fwidth_fine(v)}


@ash.fragment
async def ramp_from_input(v: ash.Input):
    return await _ramp_outputs(v)


@ash.fragment
async def ramp_from_position(*, position: vec4f):
    return await _ramp_outputs(position.x + 2 * position.y)


def _check_ramp(result, w: int, h: int, slope_x: float, slope_y: float) -> None:
    assert result.mask.all()
    expected = {"dx": slope_x, "dy": slope_y, "fwidth": abs(slope_x) + abs(slope_y)}
    for name, field in result.output.items():
        want = expected[name.split("_")[0]]
        np.testing.assert_array_equal(field, np.full((h, w), want, np.float32), err_msg=name)


SIZES = [(2, 2), (3, 3), (5, 3), (3, 5), (7, 4), (1, 1), (1, 4), (5, 1), (9, 9)]


@pytest.mark.parametrize("mode", ["coarse", "fine"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fragment_ramps_from_positions_are_exact_on_any_grid(size, mode):
    """WGSL helper invocations: helpers at their own positions keep d/dx (x + 2y) = (1, 2)."""
    w, h = size
    r = ash.run_fragments(ramp_from_position, w, h, derivatives=mode, schedule=ash.Random(w),
                          max_live_quads=3)
    _check_ramp(r, w, h, 1.0, 2.0)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fragment_ramps_from_callables_are_exact_on_any_grid(size):
    """WGSL helper invocations: a callable input is evaluated at the helper's own pixel."""
    w, h = size
    r = ash.run_fragments(ramp_from_input, w, h, v=lambda x, y: f32(x + y))
    _check_ramp(r, w, h, 1.0, 1.0)


# A one-pixel-high (wide) array still has a slope along the other axis: the padding must extend
# each axis on its own (the 5x1 and 1x5 cases broke before per-axis extension).
ARRAY_RAMPS = [((2, 2), "x+y"), ((3, 3), "x+y"), ((5, 3), "x+y"), ((3, 5), "x+y"),
               ((7, 4), "x+y"), ((9, 9), "x+y"), ((3, 2), "x"), ((2, 3), "y"), ((4, 1), "x"),
               ((1, 4), "y"), ((5, 1), "x"), ((1, 5), "y"), ((1, 1), "")]


@pytest.mark.parametrize(("size", "ramp"), ARRAY_RAMPS,
                         ids=[f"{w}x{h}-{ramp or 'constant'}" for (w, h), ramp in ARRAY_RAMPS])
def test_fragment_ramps_from_arrays_are_exact_on_odd_grids(size, ramp):
    """WGSL helper invocations: float arrays are extended linearly past the edge (f = x, y, x+y)."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    slope_x, slope_y = float("x" in ramp), float("y" in ramp)
    v = slope_x * xs + slope_y * ys
    for mode in ("coarse", "fine"):
        r = ash.run_fragments(ramp_from_input, w, h, v=v, derivatives=mode)
        _check_ramp(r, w, h, slope_x, slope_y)


@ash.fragment
async def vector_ramp(v: ash.Input):
    return vec4f(*await ash.dpdx_fine(v), *await ash.dpdy_coarse(v))


def test_fragment_vector_ramp_on_an_odd_grid():
    """WGSL dpdx/dpdy on vec2f: each component's ramp survives the helper padding of 5x3."""
    ys, xs = np.mgrid[0:3, 0:5].astype(np.float32)
    v = np.stack([3 * xs, xs - 2 * ys], axis=-1)
    r = ash.run_fragments(vector_ramp, 5, 3, v=v, schedule=ash.Random(1), max_live_quads=2)
    np.testing.assert_array_equal(r.output, np.broadcast_to([3, 1, 0, -2], (3, 5, 4)))
