"""to_wgsl for the subgroup operations that take a lane: subgroupShuffle's id may be an i32 in
WGSL but naga takes a u32 only (so an i32 id is u32(id), with its meaning kept: a negative id
names no invocation, on the CPU and on the GPU); subgroupBroadcast's and quadBroadcast's ids
are constants, written as u32 literals; the relative shuffles take a u32 delta or mask.
Validated on naga and cross-checked on lavapipe (subgroups of 8) against values by hand."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import i32, u32
from asyncshader.emit import WGSLEmitError, to_wgsl
from asyncshader.extra.gpu import validate

INP = np.arange(100, 108, dtype=np.uint32)  # lane k holds 100 + k
SECOND = 5


@ash.compute(workgroup_size=8)
async def rotate(inp: ash.Storage[u32], out: ash.Storage[u32], *,
                 subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    lane = (i32(i) + 3) % 8  # an i32 lane (WGSL allows it; naga does not)
    out[i] = await ash.subgroup_shuffle(inp[i], lane)


def test_a_shuffle_with_an_i32_lane_is_u32_lane_and_agrees_with_lavapipe(crosscheck):
    text = to_wgsl(rotate)
    assert "let lane = (i32(i) + 3) % 8;" in text
    assert "out[i] = subgroupShuffle(inp[i], u32(lane));" in text
    report = crosscheck(rotate, 1, inp=INP, out=np.zeros(8, np.uint32))
    # invocation k reads lane (k + 3) % 8, which holds 100 + (k + 3) % 8
    assert report.gpu["out"].tolist() == [103, 104, 105, 106, 107, 100, 101, 102]


@ash.compute(workgroup_size=8)
async def below(inp: ash.Storage[u32], out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    out[i] = await ash.subgroup_shuffle(inp[i], i32(i) - 1)


def test_a_negative_i32_lane_still_names_no_invocation(crosscheck):
    """Lane -1 is u32 0xffffffff on the GPU: no subgroup has it, so it is indeterminate there
    as it is on the CPU (a finding, and zero); the other lanes agree."""
    assert "subgroupShuffle(inp[i], u32(i32(i) - 1))" in to_wgsl(below)
    report = crosscheck(below, 1, inp=INP, out=np.zeros(8, np.uint32), ignore=("out",),
                        check=lambda cpu, gpu: cpu["out"][1:].tolist() ==
                        gpu["out"][1:].tolist() == list(range(100, 107)))
    (finding,) = [f for f in report.findings if isinstance(f, ash.IndeterminateValue)]
    assert finding.reader == 0 and finding.read == -1 and finding.count == 1
    assert report.cpu["out"][0] == 0


@ash.compute(workgroup_size=8)
async def broadcasts(inp: ash.Storage[u32], out: ash.Storage[u32], *,
                     subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    v = inp[i]
    out[i] = await ash.subgroup_broadcast(v, 0) + await ash.subgroup_broadcast(v, SECOND) * 1000
    out[i + 8] = await ash.subgroup_shuffle_xor(v, 3) + await ash.subgroup_shuffle_down(v, 0)


def test_broadcast_ids_and_shuffle_masks_that_are_constants_are_u32_literals(crosscheck):
    text = to_wgsl(broadcasts)
    assert "subgroupBroadcast(v, 0u) + subgroupBroadcast(v, 5u) * 1000" in text
    assert "subgroupShuffleXor(v, 3u) + subgroupShuffleDown(v, 0u)" in text
    report = crosscheck(broadcasts, 1, inp=INP, out=np.zeros(16, np.uint32))
    assert report.gpu["out"][:8].tolist() == [100 + 105 * 1000] * 8
    # lane k ^ 3 holds 100 + (k ^ 3); shuffle_down by 0 is the lane's own value
    assert report.gpu["out"][8:].tolist() == [100 + (k ^ 3) + 100 + k for k in range(8)]


@ash.compute(workgroup_size=8)
async def butterfly(out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    total = i
    width = 1
    while width < 8:
        total += await ash.subgroup_shuffle_xor(total, width)
        width *= 2
    out[i] = total


def test_a_python_int_mask_local_becomes_a_u32(crosscheck):
    text = to_wgsl(butterfly)
    assert "var width: u32 = 1;" in text
    assert "total += subgroupShuffleXor(total, width);" in text
    report = crosscheck(butterfly, 1, out=np.zeros(8, np.uint32))
    assert report.gpu["out"].tolist() == [28] * 8  # 0 + 1 + ... + 7 in every lane


# ------------------------------------------------------------------------ what WGSL refuses
@ash.compute(workgroup_size=4)
async def varying_broadcast(out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_broadcast(subgroup_invocation_id,
                                                               subgroup_invocation_id % 2)


@ash.compute(workgroup_size=4)
async def broadcast_past_128(out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_broadcast(subgroup_invocation_id, 128)


@ash.compute(workgroup_size=4)
async def shuffle_minus_one(out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_shuffle(subgroup_invocation_id, -1)


@ash.compute(workgroup_size=4)
async def signed_delta(out: ash.Storage[u32], d: i32, *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_shuffle_down(subgroup_invocation_id, d)


@ash.compute(workgroup_size=4)
async def float_lane(out: ash.Storage[u32], *, subgroup_invocation_id: u32):
    out[subgroup_invocation_id] = await ash.subgroup_shuffle(subgroup_invocation_id, 1.5)


@pytest.mark.parametrize("kernel, message", [
    (varying_broadcast, r"varying_broadcast: a subgroup_broadcast id that is not a constant "
     r"\(WGSL: a const-expression\).*Fix: pass a literal or a module constant; to read a lane "
     r"that depends on the invocation, use subgroup_shuffle"),
    (broadcast_past_128, r"broadcast_past_128: the constant id 128 of subgroup_broadcast "
     r"\(WGSL: a constant outside \[0, 128\) is a shader-creation error\).*from 0 to 127"),
    (shuffle_minus_one, r"shuffle_minus_one: the constant id -1 of subgroup_shuffle"),
    (signed_delta, r"signed_delta: the delta `d` of type i32 for subgroup_shuffle_down \(WGSL "
     r"takes a u32\).*Fix: pass a u32 delta: u32\(delta\) \(asyncshader reads a negative delta "
     r"as the other direction"),
    (float_lane, r"float_lane: the id `1.5` of type abstract-float for subgroup_shuffle"),
])
def test_lanes_wgsl_refuses_are_errors_naming_the_line_and_the_fix(kernel, message):
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_subgroups.py:\d+: " + message):
        to_wgsl(kernel)


def test_the_census_kernels_validate(wgsl_device):
    """The census found subgroupBroadcast(v, 0) rejected (tests/collectives/
    test_subgroups_cts.py's workgroup_uniform_load case): a bare 0 is an i32 to naga."""
    @ash.compute(workgroup_size=4)
    async def k(out: ash.Storage[u32], *, local_invocation_index: u32):
        v = local_invocation_index * 3
        out[local_invocation_index] = await ash.subgroup_broadcast(v, 0)

    text = to_wgsl(k)
    assert "subgroupBroadcast(v, 0u)" in text
    validate(text, wgsl_device)
    validate(to_wgsl(rotate), wgsl_device)
