"""Subgroups beyond the CTS vectors: divergent control flow under the convergence model
(docs/concepts.md, expected values written out by hand), the findings and strict errors, float
reduction orders, the options, fragment subgroups and exploring sizes."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32


def _run(kernel, n=8, size=8, dtype=np.uint32, **kw):
    out = np.zeros(n, dtype)
    r = ash.run(kernel, 1, out=out, subgroup_size=size, sanitize="report", **kw)
    return out.tolist(), r


def _notes(r, kind=ash.NonUniformCollective):
    return [f for f in r.findings if isinstance(f, kind)]


# ------------------------------------------------------------------------ divergent flow
def test_if_on_the_lane_id_reduces_over_the_active_lanes():
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        if subgroup_invocation_id < 3:
            out[subgroup_invocation_id] = await ash.subgroup_add(u32(1))

    out, r = _run(k)
    assert out == [3, 3, 3, 0, 0, 0, 0, 0]
    (note,) = _notes(r)
    assert note.inactive == [3, 4, 5, 6, 7] and note.active == [0, 1, 2]
    assert note.op == "subgroup_add" and note.severity == "note"
    assert "if subgroup_invocation_id < 3" not in note.source  # the call's own line
    assert "subgroup_add(u32(1))" in note.source


def test_if_else_branches_are_two_active_sets():
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        if i % 2 == 0:
            x = await ash.subgroup_add(i)           # lanes 0, 2, 4, 6: 12
        else:
            x = await ash.subgroup_add(u32(100))    # lanes 1, 3, 5, 7: 400
        out[i] = x

    out, r = _run(k)
    assert out == [12, 400, 12, 400, 12, 400, 12, 400]
    assert sorted(n.active for n in _notes(r)) == [[0, 2, 4, 6], [1, 3, 5, 7]]


def test_early_return_makes_lanes_inactive():
    @ash.compute(workgroup_size=16)
    async def k(out: ash.Storage, *, local_invocation_index: u32, subgroup_invocation_id: u32):
        if subgroup_invocation_id >= 5:
            return
        out[local_invocation_index] = await ash.subgroup_inclusive_add(u32(1))

    out, r = _run(k, n=16)
    assert out == [1, 2, 3, 4, 5, 0, 0, 0] * 2
    (note,) = _notes(r)
    assert note.count == 2 and note.inactive == [5, 6, 7]


def test_loop_with_a_lane_dependent_trip_count():
    """Iteration k runs with the lanes whose id > k: 7 - k of them at size 8. The lanes
    reconverge at the loop's end (maximal reconvergence): the lanes that left early wait there
    for the others, so ``after`` is 8 in every lane, with no finding."""
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, after: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        acc = u32(0)
        for _ in range(i):
            acc += await ash.subgroup_add(u32(1))
        out[i] = acc
        after[i] = await ash.subgroup_add(u32(1))

    out = np.zeros(8, np.uint32)
    after = np.zeros(8, np.uint32)
    r = ash.run(k, 1, out=out, after=after, subgroup_size=8, sanitize="report")
    assert out.tolist() == [0, 7, 13, 18, 22, 25, 27, 28]  # sum of 7, 6, 5, ... for i terms
    assert after.tolist() == [8] * 8
    assert {n.line for n in _notes(r)} == {k.fn.__code__.co_firstlineno + 5}  # the loop's


def test_uniform_flow_has_no_findings():
    @ash.compute(workgroup_size=27)
    async def k(out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = await ash.subgroup_max(local_invocation_index)

    out, r = _run(k, n=27)
    assert out == [7] * 8 + [15] * 8 + [23] * 8 + [26] * 3  # the last subgroup is partial
    assert r.findings == []


def test_subgroups_and_barriers_interleave():
    """Lanes 0-3 stand at a subgroup operation inside an `if`, lanes 4-7 already at the
    workgroup barrier after it: the subgroup operation resolves for 0-3, then the barrier."""
    wg = ash.workgroup(ash.array(u32, 8))

    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        if i < 4:
            wg[i] = await ash.subgroup_add(i)
        await ash.workgroup_barrier()
        out[i] = wg[(i + 1) % 8]

    out, _ = _run(k)
    assert out == [6, 6, 6, 0, 0, 0, 0, 6]


# --------------------------------------------------------------------- strict, uniformity
def test_strict_raises_naming_the_line_and_the_inactive_lanes():
    @ash.compute(workgroup_size=8, strict=True)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        if subgroup_invocation_id != 2:
            out[subgroup_invocation_id] = await ash.subgroup_add(u32(1))

    with pytest.raises(ash.SubgroupUniformityError) as e:
        ash.run(k, 1, out=np.zeros(8, np.uint32), subgroup_size=8)
    msg = str(e.value)
    assert "subgroup_add() at" in msg and "test_subgroups.py" in msg
    assert "subgroup invocations [2] were inactive" in msg and "[0-1, 3-7] active" in msg
    assert "subgroup_uniformity" in msg


def test_broadcast_id_must_be_uniform():
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        out[subgroup_invocation_id] = await ash.subgroup_broadcast(
            subgroup_invocation_id, subgroup_invocation_id % 2)

    with pytest.raises(ash.DivergenceError) as e:
        ash.run(k, 1, out=np.zeros(4, np.uint32), subgroup_size=4)
    assert "subgroup_broadcast" in str(e.value) and "constant id" in str(e.value)


def test_shuffle_of_an_inactive_or_missing_lane_is_reported_and_zero():
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        out[i] = await ash.subgroup_shuffle_down(i + u32(10), u32(2))

    out, r = _run(k, size=8)
    assert out == [12, 13, 14, 15, 16, 17, 0, 0]
    (f,) = _notes(r, ash.IndeterminateValue)
    assert f.severity == "error" and f.count == 2 and f.reader == 6 and f.read == 8
    assert "does not exist (this subgroup has 8 invocations, ids 0 to 7)" in f.render()

    @ash.compute(workgroup_size=8)
    async def k2(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        if i != 3:
            out[i] = await ash.subgroup_shuffle(i, u32(3))

    out, r = _run(k2, size=8)
    assert out == [0] * 8
    assert [f.why for f in _notes(r, ash.IndeterminateValue)] == ["is not active at this call"]


def test_ballot_elect_and_broadcast_first_in_divergent_flow():
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        i = subgroup_invocation_id
        if i >= 5:
            b = await ash.subgroup_ballot(i % 2 == 1)
            e = await ash.subgroup_elect()
            f = await ash.subgroup_broadcast_first(i * u32(10))
            out[i] = b.x * u32(1000) + ash.select(u32(0), u32(100), e) + f

    out, _ = _run(k)
    assert out == [0] * 5 + [160000 + 100 + 50, 160000 + 50, 160000 + 50]


# ------------------------------------------------------------------------- values, orders
def test_integer_reductions_wrap():
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        out[subgroup_invocation_id] = await ash.subgroup_add(u32(0xC0000000))

    out, _ = _run(k, n=4, size=4)
    assert out == [0] * 4  # 4 * 0xC0000000 = 0x3_0000_0000 -> 0 mod 2**32

    @ash.compute(workgroup_size=4)
    async def m(out: ash.Storage, *, subgroup_invocation_id: u32):
        out[subgroup_invocation_id] = await ash.subgroup_mul(ash.i32(-65536))

    out, _ = _run(m, n=4, size=4, dtype=np.int32)
    assert out == [0] * 4  # (-2**16)**4 = 2**64 -> 0


@pytest.mark.parametrize("order,expected", [("lanes", 1.0), ("reverse", 0.0), ("tree", 0.0)])
def test_float_reduction_order_is_the_dispatch_option(order, expected):
    """f32 [1e8, 1, -1e8, 1]: in lane order ((1e8 + 1) - 1e8) + 1 = 1 (1e8 + 1 rounds to 1e8);
    reversed (((1 - 1e8) + 1) + 1e8) = 0; pairwise (1e8 + 1) + (-1e8 + 1) = 0."""
    vals = np.array([1e8, 1, -1e8, 1], np.float32)

    @ash.compute(workgroup_size=4)
    async def k(vals: ash.Storage, out: ash.Storage, *, subgroup_invocation_id: u32):
        out[subgroup_invocation_id] = await ash.subgroup_add(vals[subgroup_invocation_id])

    out = np.zeros(4, np.float32)
    r = ash.run(k, 1, vals=vals, out=out, subgroup_size=4, subgroup_reduction=order)
    assert out.tolist() == [expected] * 4
    assert r.trace.dispatch.get("subgroup_reduction") == (None if order == "lanes" else order)


def test_shuffled_reduction_order_varies_with_the_seed():
    vals = np.array([1e8, 1, -1e8, 1] * 2, np.float32)

    @ash.compute(workgroup_size=8)
    async def k(vals: ash.Storage, out: ash.Storage, *, subgroup_invocation_id: u32):
        out[subgroup_invocation_id] = await ash.subgroup_add(vals[subgroup_invocation_id])

    sums = set()
    for seed in range(12):
        out = np.zeros(8, np.float32)
        ash.run(k, 1, vals=vals, out=out, subgroup_size=8, subgroup_reduction="shuffled",
                schedule=ash.Random(seed))
        assert len(set(out.tolist())) == 1
        sums.add(float(out[0]))
    assert len(sums) > 1  # the order changed the sum


# --------------------------------------------------------------------------------- options
@pytest.mark.parametrize("bad", [3, 256, "32", 32.0, True])
def test_subgroup_size_must_be_a_power_of_two_from_4_to_128(bad):
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage, *, subgroup_size: u32):
        out[0] = subgroup_size

    with pytest.raises(ash.OptionError, match="subgroup_size must be a power of two from 4 to"):
        ash.run(k, 1, out=np.zeros(1, np.uint32), subgroup_size=bad)
    with pytest.raises(ash.OptionError, match="subgroup_size"):
        ash.compute(workgroup_size=4, subgroup_size=bad)(k.fn)


def test_builtins_default_size_and_kernel_option():
    @ash.compute(workgroup_size=(10, 2, 1))
    async def k(out: ash.Storage, *, local_invocation_index: u32, subgroup_invocation_id: u32,
                subgroup_size: u32, subgroup_id: u32, num_subgroups: u32):
        out[local_invocation_index] = (subgroup_invocation_id, subgroup_size, subgroup_id,
                                       num_subgroups)

    out = np.zeros((20, 4), np.uint32)
    r = ash.run(k, 1, out=out)
    assert out[:, 1].tolist() == [32] * 20 and out[:, 3].tolist() == [1] * 20
    assert r.trace.dispatch["subgroup_size"] == 32
    k8 = ash.compute(workgroup_size=(10, 2, 1), subgroup_size=8)(k.fn)
    ash.run(k8, 1, out=out)
    assert out[:, 0].tolist() == [*range(8), *range(8), *range(4)]
    assert out[:, 2].tolist() == [0] * 8 + [1] * 8 + [2] * 4
    assert out[:, 3].tolist() == [3] * 20
    ash.run(k8, 1, out=out, subgroup_size=4)  # the dispatch's size wins
    assert out[:, 3].tolist() == [5] * 20


def test_replay_needs_the_same_subgroup_size():
    @ash.compute(workgroup_size=8)
    async def k(out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = await ash.subgroup_add(u32(1))

    r = ash.run(k, 1, out=np.zeros(8, np.uint32), subgroup_size=4, schedule=ash.Random(1))
    with pytest.raises(ash.ReplayMismatchError, match="subgroup_size=4"):
        ash.run(k, 1, out=np.zeros(8, np.uint32), subgroup_size=8, schedule=r.trace)
    out = np.zeros(8, np.uint32)
    ash.run(k, 1, out=out, subgroup_size=4, schedule=r.trace)
    assert out.tolist() == [4] * 8


def test_type_errors_are_clear():
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage, *, subgroup_invocation_id: u32):
        out[0] = await ash.subgroup_and(f32(1.5))

    with pytest.raises(ash.ShaderError, match=r"subgroup_and\(\) takes an integer"):
        ash.run(k, 1, out=np.zeros(4, np.uint32), subgroup_size=4)


# -------------------------------------------------------------------------------- fragment
def test_fragment_subgroups_are_whole_quads():
    @ash.fragment
    async def fs(*, position: ash.vec4f, subgroup_invocation_id: u32, subgroup_size: u32):
        s = await ash.subgroup_add(u32(1))
        b = await ash.subgroup_broadcast_first(u32(position.x) + u32(100) * u32(position.y))
        return ash.vec4u(subgroup_invocation_id, subgroup_size, s, b)

    r = ash.run_fragments(fs, 6, 4, subgroup_size=8)
    out = r.output
    # quads in row-major order: (0,0) (2,0) | (4,0) (0,2) | (2,2) (4,2), two a subgroup
    assert out[..., 0].tolist() == [[0, 1, 4, 5, 0, 1], [2, 3, 6, 7, 2, 3],
                                    [4, 5, 0, 1, 4, 5], [6, 7, 2, 3, 6, 7]]
    assert (out[..., 1] == 8).all() and (out[..., 2] == 8).all()
    assert out[..., 3].tolist() == [[0, 0, 0, 0, 4, 4], [0, 0, 0, 0, 4, 4],
                                    [4, 4, 202, 202, 202, 202], [4, 4, 202, 202, 202, 202]]
    with pytest.raises(TypeError, match="exists only in compute"):
        @ash.fragment
        async def bad(*, subgroup_id: u32):
            return subgroup_id


# ------------------------------------------------------------------------------- explore
def test_explore_over_subgroup_sizes_finds_the_size_dependent_kernel():
    halves = ash.workgroup(ash.array(u32, 2))

    @ash.compute(workgroup_size=64)
    async def k(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        lid = local_invocation_index
        s = await ash.subgroup_add(inp[lid])
        if lid % 32 == 0:
            halves[lid // 32] = s
        await ash.workgroup_barrier()
        if lid == 0:
            out[0] = halves[0] + halves[1]

    def setup():
        return {"inp": np.ones(64, np.uint32), "out": np.zeros(1, np.uint32)}

    def check(result):
        assert result["out"][0] == 64

    ok = ash.explore(k, setup, check, "random", runs=3, subgroup_sizes=[32])
    assert ok.failures == [] and ok.runs == 3
    report = ash.explore(k, setup, check, "random", runs=4, subgroup_sizes=[32, 8])
    assert report.runs == 2 and report.failures[0].run == 1
    assert "(subgroup_size=8)" in report.failures[0].error
    with pytest.raises(ash.OptionError, match="subgroup_sizes"):
        ash.explore(k, setup, check, subgroup_sizes=8)
