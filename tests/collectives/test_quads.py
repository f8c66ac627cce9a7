"""Quad operations (quadBroadcast, quadSwapX/Y/Diagonal) against the WebGPU CTS vectors in
``tests/data/quad_cases.json``.

Mirrored CTS tests (``webgpu:shader,execution,expression,call,builtin,quadBroadcast:*`` and
``...,quadSwap:*``):

* ``data_types``: workgroup [4,1,1], ``output[id] = op(input[id])``; the result is a bit-exact
  copy of the source invocation's input (u32, i32, f32 and their vectors; f16 is left out:
  asyncshader has no f16 type).
* ``compute,all_active``: every CTS workgroup size whose thread count is a multiple of 4 (and that
  the JSON has results for), ``results[lid] = op(lid)``. The CTS assumes quads are linear within a
  subgroup; asyncshader's compute quads are 4 consecutive ``local_invocation_index`` values, which
  is that model.
* ``compute,split``: needs the ``subgroup_invocation_id``/``subgroup_size`` builtins, which
  asyncshader does not have; the literal test is skipped and a modelled version computes the
  predicate from the JSON's linear subgroup model instead.
* ``fragment,all_active``: ``OP(select(1001, coord, x < W-1 && y < H-1))`` on a W x H target; the
  cells the CTS checks must match, and since asyncshader's helpers see their own (out-of-range)
  positions, so must the JSON's "full values" everywhere.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash
from asyncshader import u32, vec4f, vec4u

DATA = json.loads((DATA_DIR / "quad_cases.json").read_text())
SENTINEL = DATA["semantics"]["sentinel_for_unwritten_outputs"]
OPS = ["quadSwapX", "quadSwapY", "quadSwapDiagonal",
       "quadBroadcast_0", "quadBroadcast_1", "quadBroadcast_2", "quadBroadcast_3"]
SOURCES = DATA["data_types"]["expected_source_invocation"]
SOURCE_OF = {"quadSwapX": SOURCES["quadSwapX"], "quadSwapY": SOURCES["quadSwapY"],
             "quadSwapDiagonal": SOURCES["quadSwapDiagonal"],
             **{f"quadBroadcast_{i}": SOURCES["quadBroadcast"][str(i)] for i in range(4)}}

# subgroup_util.ts kWGSizes with a thread count that is a multiple of 4 and for which the JSON
# has results (it holds 4, 8, 16, 64 and 256 threads; 32 and 128 are not in it)
KWGSIZES = [(4, 1, 1), (8, 1, 1), (16, 1, 1), (32, 1, 1), (64, 1, 1), (128, 1, 1), (256, 1, 1),
            (1, 4, 1), (1, 8, 1), (1, 16, 1), (1, 32, 1), (1, 64, 1), (1, 128, 1), (1, 256, 1),
            (1, 1, 4), (1, 1, 8), (1, 1, 16), (1, 1, 32), (1, 1, 64), (3, 3, 3), (4, 4, 4),
            (16, 16, 1), (16, 1, 16), (1, 16, 16), (15, 3, 3), (3, 15, 3), (3, 3, 15)]
ALL_ACTIVE = {}
for _case in DATA["compute_all_active"]:
    ALL_ACTIVE.setdefault(_case["wg_threads"], []).append(_case)
ALL_ACTIVE_SIZES = [s for s in KWGSIZES if int(np.prod(s)) in ALL_ACTIVE]


async def _all_ops(e):
    """The seven CTS operations on ``e``, in ``OPS`` order. (A compute kernel sets quads up
    because it refers to quad operations, here through this function.)"""
    return [await ash.quad_swap_x(e), await ash.quad_swap_y(e), await ash.quad_swap_diagonal(e),
            await ash.quad_broadcast(e, 0), await ash.quad_broadcast(e, 1),
            await ash.quad_broadcast(e, 2), await ash.quad_broadcast(e, 3)]


def test_vector_file_is_the_documented_copy():
    """tests/data/README.md: the file is the digest's copy, byte for byte (sha256 given there)."""
    data_dir = DATA_DIR
    digest = hashlib.sha256((data_dir / "quad_cases.json").read_bytes()).hexdigest()
    assert digest == "63e2b5c145c8d7900228caabd118f9a0b0d35d97746c3f96fea03335d3fdd363"
    assert digest in (data_dir / "README.md").read_text()


# --------------------------------------------------------------------------------- data_types
def _type_info(name: str):
    """(numpy dtype, vector constructor or None, component count) of a CTS type name."""
    scalar = name.split("<")[-1].rstrip(">")
    dtype = {"u32": np.uint32, "i32": np.int32, "f32": np.float32}[scalar]
    if name.startswith("vec"):
        n = int(name[3])
        return dtype, getattr(ash, f"vec{n}{scalar[0]}"), n
    return dtype, None, 1


DATA_TYPES = [c for c in DATA["data_types"]["inputs"] if "f16" not in c["type"]]
assert len(DATA_TYPES) == 12  # 4 f16 types are left out: asyncshader has no f16


def _inputs_of(case: dict) -> np.ndarray:
    """(4, n) array of the input of subgroup invocation 0..3, from the JSON's bits."""
    dtype, _, n = _type_info(case["type"])
    bits = np.array([[int(b, 16) for b in comps]
                     for comps in case["value_bits_by_subgroup_invocation_id"]], np.uint32)
    assert bits.shape == (4, n)
    return bits.view(dtype)


@ash.compute(workgroup_size=(4, 1, 1))
async def data_types_kernel(inputs: ash.Storage, output: ash.Storage, make: ash.Uniform, *,
                            local_invocation_index):
    lid = local_invocation_index
    e = inputs[lid, 0] if make is None else make(*inputs[lid])
    for k, r in enumerate(await _all_ops(e)):
        output[k, lid] = list(r) if make is not None else r


@pytest.mark.parametrize("case", DATA_TYPES, ids=[c["type"] for c in DATA_TYPES])
def test_data_types_compute(case):
    """quadBroadcast/quadSwap:data_types (wg [4,1,1]): bit-exact copy from the source invocation."""
    dtype, make, n = _type_info(case["type"])
    inputs = _inputs_of(case)
    output = np.full((len(OPS), 4, n), SENTINEL, np.uint32).view(dtype)
    ash.run(data_types_kernel, inputs=inputs, output=output, make=make)
    for k, op in enumerate(OPS):
        expected = inputs[SOURCE_OF[op]]
        assert output[k].view(np.uint32).tolist() == expected.view(np.uint32).tolist(), op


@ash.fragment
async def data_types_fragment(v: ash.Input):
    results = await _all_ops(v)
    return dict(zip(OPS, results))


@pytest.mark.parametrize("case", DATA_TYPES, ids=[c["type"] for c in DATA_TYPES])
def test_data_types_fragment(case):
    """quadBroadcast/quadSwap:data_types on a 2x2 fragment quad: bit-exact and type-preserving."""
    dtype, _, n = _type_info(case["type"])
    inputs = _inputs_of(case)
    grid = np.zeros((2, 2, n), dtype)
    for quad_id in range(4):
        grid[quad_id >> 1, quad_id & 1] = inputs[quad_id]
    r = ash.run_fragments(data_types_fragment, 2, 2, v=grid if n > 1 else grid[..., 0])
    for op in OPS:
        out = r.output[op]
        assert out.dtype == dtype, op
        for quad_id in range(4):
            got = np.atleast_1d(out[quad_id >> 1, quad_id & 1])
            want = inputs[SOURCE_OF[op][quad_id]]
            assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist(), (op, quad_id)


# ------------------------------------------------------------------------- compute,all_active
async def _all_active(results: ash.Storage, *, local_invocation_index):
    lid = local_invocation_index
    for k, r in enumerate(await _all_ops(lid)):
        results[k, lid] = r


@pytest.mark.parametrize("layout", [None, "linear"], ids=["default", "linear"])
@pytest.mark.parametrize("wg_size", ALL_ACTIVE_SIZES, ids=lambda s: "x".join(map(str, s)))
def test_compute_all_active(wg_size, layout):
    """quadBroadcast/quadSwap:compute,all_active: results[lid] = op(lid) on the linear model."""
    threads = int(np.prod(wg_size))
    cases = ALL_ACTIVE[threads]
    expected = cases[0]["results"]
    assert all(c["results"] == expected for c in cases)  # the same for every model subgroup size
    kernel = ash.compute(workgroup_size=wg_size, derivatives=layout)(_all_active)
    results = np.full((len(OPS), threads), SENTINEL, np.uint32)
    ash.run(kernel, results=results, schedule=ash.Random(threads))
    for k, op in enumerate(OPS):
        assert results[k].tolist() == expected[op], op


def test_compute_all_active_covers_the_json_sizes():
    """compute,all_active: every workgroup size of the JSON is run; its model sizes are 4/32/64."""
    assert sorted(ALL_ACTIVE) == sorted({int(np.prod(s)) for s in ALL_ACTIVE_SIZES})
    assert {c["model_subgroup_size"] for c in DATA["compute_all_active"]} == {4, 32, 64}


# ------------------------------------------------------------------------------ compute,split
async def _split_builtins(results: ash.Storage, lower_half: ash.Uniform, *,
                         local_invocation_index, subgroup_invocation_id, subgroup_size):
    lid = local_invocation_index
    if (subgroup_invocation_id < subgroup_size // 2) == lower_half:
        for k, r in enumerate(await _all_ops(lid)):
            results[k, lid] = r


@pytest.mark.parametrize("case", DATA["compute_split"][::3],
                         ids=[f"{c['wg_threads']}-sg{c['model_subgroup_size']}"
                              for c in DATA["compute_split"][::3]])
def test_compute_split_with_subgroup_builtins(case):
    """quadBroadcast/quadSwap:compute,split as the CTS writes it: the predicate reads the
    subgroup_invocation_id and subgroup_size builtins (the dispatch's subgroup_size=)."""
    threads, s = case["wg_threads"], case["model_subgroup_size"]
    lower = case["predicate"] == "id < subgroupSize / 2"
    kernel = ash.compute(workgroup_size=(threads, 1, 1))(_split_builtins)
    results = np.full((len(OPS), threads), SENTINEL, np.uint32)
    ash.run(kernel, results=results, lower_half=lower, subgroup_size=s)
    for k, op in enumerate(OPS):
        expected = [SENTINEL if v is None else v for v in case["results"][op]]
        assert results[k].tolist() == expected, op


async def _split(results: ash.Storage, model_size: ash.Uniform, lower_half: ash.Uniform, *,
                 local_invocation_index):
    lid = local_invocation_index
    sg_id = lid % model_size  # subgroup_invocation_id in the JSON's linear subgroup model
    if (sg_id < model_size // 2) == lower_half:
        for k, r in enumerate(await _all_ops(lid)):
            results[k, lid] = r


@pytest.mark.parametrize("case", DATA["compute_split"],
                         ids=[f"{c['wg_threads']}-sg{c['model_subgroup_size']}-"
                              f"{'lower' if '<' in c['predicate'] else 'upper'}"
                              for c in DATA["compute_split"]])
def test_compute_split_on_the_linear_subgroup_model(case):
    """quadBroadcast/quadSwap:compute,split with id = lid % S: inactive quads keep the sentinel."""
    threads, s = case["wg_threads"], case["model_subgroup_size"]
    lower = case["predicate"] == "id < subgroupSize / 2"
    assert lower or case["predicate"] == "id >= subgroupSize / 2"
    kernel = ash.compute(workgroup_size=(threads, 1, 1))(_split)
    results = np.full((len(OPS), threads), SENTINEL, np.uint32)
    ash.run(kernel, results=results, model_size=s, lower_half=lower, schedule=ash.Random(s))
    for k, op in enumerate(OPS):
        expected = [SENTINEL if v is None else v for v in case["results"][op]]
        assert results[k].tolist() == expected, op


# ------------------------------------------------------------------------ fragment,all_active
@ash.fragment
async def fragment_all_active(w: ash.Uniform, h: ash.Uniform, *, position: vec4f):
    x, y = u32(position.x), u32(position.y)
    in_range = x < w - 1 and y < h - 1
    xb = x if in_range else u32(1001)
    yb = y if in_range else u32(1001)
    xs, ys = await _all_ops(xb), await _all_ops(yb)
    return {op: vec4u(a, b, 0, 0) for op, a, b in zip(OPS, xs, ys)}


FRAGMENT_CASES = DATA["fragment_all_active"]


@pytest.mark.parametrize("schedule", ["in_order", "random"])
@pytest.mark.parametrize("case", FRAGMENT_CASES,
                         ids=[f"{c['size'][0]}x{c['size'][1]}" for c in FRAGMENT_CASES])
def test_fragment_all_active(case, schedule):
    """quadBroadcast/quadSwap:fragment,all_active: CTS-checked cells and the full helper values."""
    w, h = case["size"]
    kwargs = {"schedule": ash.Random(w * h), "max_live_quads": 5} if schedule == "random" else {}
    r = ash.run_fragments(fragment_all_active, w, h, w=w, h=h, **kwargs)
    assert r.mask.all()
    checked_cells = 0
    for op in OPS:
        out = r.output[op]
        assert out.shape == (h, w, 4) and out.dtype == np.uint32
        assert (out[..., 2:] == 0).all()
        cts = case["cts_expected_[x,y]_or_null_if_unchecked"][op]
        full = np.array(case["emulator_value_if_helpers_participate_with_own_position"][op])
        for y in range(h):
            for x in range(w):
                if cts[y][x] is not None:
                    checked_cells += 1
                    assert out[y, x, :2].tolist() == cts[y][x], (op, x, y)
        np.testing.assert_array_equal(out[..., :2], full, err_msg=op)
    assert checked_cells == len(OPS) * (2 * ((w - 1) // 2)) * (2 * ((h - 1) // 2))


# ------------------------------------------------------------------------ helpers and errors
@ash.fragment
async def broadcast_after_discard(v: ash.Input, *, position: vec4f):
    if int(position.x) % 2 == 0 and int(position.y) % 2 == 0:
        ash.discard()
    return vec4f(await ash.quad_broadcast(v, 0), await ash.quad_swap_x(v),
                 await ash.quad_swap_y(v), await ash.quad_swap_diagonal(v))


def test_discarded_invocations_still_take_part_in_quad_ops():
    """WGSL helper invocations (discard = demote): quad ops still read the helper's value."""
    v = np.arange(16, dtype=np.float32).reshape(4, 4)
    r = ash.run_fragments(broadcast_after_discard, 4, 4, v=v, schedule=ash.Random(2),
                          max_live_quads=4)
    for y in range(4):
        for x in range(4):
            if x % 2 == 0 and y % 2 == 0:
                assert not r.mask[y, x]
                continue
            x0, y0 = x & ~1, y & ~1
            assert r.output[y, x].tolist() == [v[y0, x0], v[y, x ^ 1], v[y ^ 1, x],
                                               v[y ^ 1, x ^ 1]]


@ash.fragment
async def odd_grid_swaps(*, position: vec4f):
    return await ash.quad_swap_diagonal(position)


def test_padding_helpers_take_part_in_quad_ops_with_their_own_position():
    """fragment,all_active on a 3x3 target: the helpers outside it give their own positions."""
    r = ash.run_fragments(odd_grid_swaps, 3, 3)
    assert r.output[2, 2].tolist() == [3.5, 3.5, 0.0, 1.0]
    assert r.output[0, 2].tolist() == [3.5, 1.5, 0.0, 1.0]
    assert r.output[2, 0].tolist() == [1.5, 3.5, 0.0, 1.0]


@pytest.mark.parametrize("bad_id", [4, -1, True, np.bool_(True), 1.5, "1", None, u32(4),
                                    ash.i32(-1)])
def test_quad_broadcast_id_must_be_a_constant_0_to_3(bad_id):
    """WGSL quadBroadcast: id must be a const-expression in [0, 4) (shader-creation error)."""
    with pytest.raises(ValueError, match="constant int from 0 to 3"):
        ash.quad_broadcast(1, bad_id)


@ash.compute(workgroup_size=4)
async def broadcast_bad_id(out: ash.Storage, *, local_invocation_index):
    out[local_invocation_index] = await ash.quad_broadcast(local_invocation_index,
                                                           int(local_invocation_index) + 1)


def test_quad_broadcast_with_a_bad_id_inside_a_kernel_names_the_invocation():
    """WGSL quadBroadcast: a non-constant / out-of-range id is an error, raised from the shader."""
    with pytest.raises(ash.ShaderError, match="local_invocation_index=3") as info:
        ash.run(broadcast_bad_id, out=np.zeros(4, np.uint32))
    assert isinstance(info.value.original, ValueError)


@ash.compute(workgroup_size=4)
async def broadcast_own_id(out: ash.Storage, *, local_invocation_index):
    i = local_invocation_index
    out[i] = await ash.quad_broadcast(i * 10, int(i) % 4)  # an id per invocation


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Reverse(), ash.Random(2)], ids=repr)
def test_quad_broadcast_with_an_id_per_invocation_is_a_divergence_naming_each_id(schedule):
    """WGSL quadBroadcast: id is a const-expression, one id for the quad. An id that differs
    between the members (computed from the invocation) was silently replaced by the first
    member's (every member got 0); it is a uniformity violation naming each member's id."""
    out = np.zeros(4, np.uint32)
    with pytest.raises(ash.DivergenceError) as info:
        ash.run(broadcast_own_id, out=out, schedule=schedule)
    msg = str(info.value)
    line = next(n for n, text in enumerate(Path(__file__).read_text().splitlines(), 1)
                if "# an id per invocation" in text)
    assert "quad_broadcast() at " in msg and f"test_quads.py:{line}: " in msg
    for lane in range(4):
        assert f"quad id {lane} (1 invocation): id {lane}\n" in msg, msg
    assert "Fix: give quad_broadcast() a constant id" in msg
    assert out.tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("typed_id", [u32(2), ash.i32(2)], ids=["u32", "i32"])
def test_quad_broadcast_accepts_a_typed_constant_id(typed_id):
    """WGSL quadBroadcast(e, id: I), I = i32 or u32: a typed constant like 2u is a valid id."""
    @ash.compute(workgroup_size=4)
    async def kernel(out: ash.Storage, *, local_invocation_index):
        out[local_invocation_index] = await ash.quad_broadcast(local_invocation_index, typed_id)

    out = np.zeros(4, np.uint32)
    ash.run(kernel, out=out)
    assert out.tolist() == [2, 2, 2, 2]


@ash.compute(workgroup_size=8)
async def swap_after_early_return(out: ash.Storage, *, local_invocation_index):
    if local_invocation_index == 5:
        return
    out[local_invocation_index] = await ash.quad_swap_x(local_invocation_index)


def test_quad_op_with_a_member_returned_is_a_uniformity_error():
    """WGSL subgroup_uniformity: every quad member must reach the quad op (quad 1 here)."""
    with pytest.raises(ash.DerivativeUniformityError, match="quad 1 ") as info:
        ash.run(swap_after_early_return, out=np.zeros(8, np.uint32))
    message = str(info.value)
    assert "quad id 1 (1 invocation): returned" in message
    assert "quad id 0, 2-3 (3 invocations): waits at" in message and "quad_swap_x" in message


@ash.fragment
async def swap_in_divergent_branch(*, position: vec4f):
    if position.x < 1.0:
        return await ash.quad_swap_x(position.x)
    return await ash.quad_swap_y(position.x)


def test_fragment_quad_members_at_different_quad_ops_is_a_uniformity_error():
    """WGSL subgroup_uniformity in a fragment quad: members at two different quad ops."""
    with pytest.raises(ash.DerivativeUniformityError, match="different rendezvous") as info:
        ash.run_fragments(swap_in_divergent_branch, 2, 2)
    assert len(info.value.positions) == 2


def test_quad_ops_without_a_layout_need_a_multiple_of_4_invocations():
    """CTS quad tests use thread counts % 4 == 0: a kernel with quad ops and 6 invocations is
    refused when decorated, naming the line of the first quad operation and the fix."""
    line = inspect.getsourcelines(_all_ops)[1] + 3
    with pytest.raises(ash.ShaderCreationError, match=rf":{line}: in _all_ops: "
                       r"ash.quad_swap_x\(\) in a compute kernel of 6 invocations") as info:
        ash.compute(workgroup_size=6)(_all_active)
    assert "multiple of 4" in str(info.value) and 'derivatives="quads"' in str(info.value)


async def _later_quad_helper(results: ash.Storage, *, local_invocation_index):
    await _defined_later(results, local_invocation_index)


def test_a_quad_op_in_a_helper_defined_after_the_kernel_fails_at_dispatch():
    """A helper defined after decoration is not seen then; the dispatch refuses it before any
    invocation runs."""
    global _defined_later
    kernel = ash.compute(workgroup_size=6)(_later_quad_helper)

    async def _defined_later(results, l):
        results[0, l] = await ash.quad_swap_x(l)
    results = np.zeros((1, 6), np.uint32)
    with pytest.raises(ash.DispatchError, match="multiple of 4"):
        ash.run(kernel, results=results)
    assert not results.any()
