"""wgpu's subgroup test shader (its 32 checks; tests/data/README.md names the source) ported
to Python in wgpu_subgroup_checks.py: every check passes in every invocation at every subgroup
size under InOrder, Random and PCT, and the same checks written in WGSL pass on lavapipe
(subgroup size 8), where asyncshader at size 8 writes the same words."""

from __future__ import annotations

import numpy as np
import pytest
from wgpu_subgroup_checks import subgroup_checks

import asyncshader as ash

ALL_PASSED = 0xFFFFFFFF
#: the checks in WGSL, in the order and with the meaning of the Python port
WGSL = """
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> shared_size: u32;

fn bit(index: u32, value: bool) -> u32 { return select(0u, 1u, value) << index; }

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_subgroups) num_subgroups: u32,
        @builtin(subgroup_id) subgroup_id: u32, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) sid: u32) {
  let g = gid.x;
  let base = g - sid;
  var passed = 0u;
  passed |= bit(0u, num_subgroups == 128u / size);
  passed |= bit(1u, subgroup_id == g / size);
  passed |= bit(2u, sid == g % size);
  var ballot = vec4u(0u);
  for (var i = 0u; i < size; i++) { ballot[i / 32u] |= ((base + i) & 1u) << (i % 32u); }
  passed |= bit(3u, all(subgroupBallot((sid & 1u) == 1u) == ballot));
  passed |= bit(4u, subgroupAll(true));
  passed |= bit(5u, !subgroupAll(sid != 0u));
  passed |= bit(6u, subgroupAny(sid == 0u));
  passed |= bit(7u, !subgroupAny(false));
  var total = 0u; var product = 1u; var top = 0u; var low = 0xFFFFFFFFu;
  var conj = 0xFFFFFFFFu; var disj = 0u; var excl = 0u;
  for (var i = 0u; i < size; i++) {
    let v = base + i + 1u;
    total += v; product *= v; top = max(top, v); low = min(low, v);
    conj &= v; disj |= v; excl ^= v;
  }
  let mine = g + 1u;
  passed |= bit(8u, subgroupAdd(mine) == total);
  passed |= bit(9u, subgroupMul(mine) == product);
  passed |= bit(10u, subgroupMax(mine) == top);
  passed |= bit(11u, subgroupMin(mine) == low);
  passed |= bit(12u, subgroupAnd(mine) == conj);
  passed |= bit(13u, subgroupOr(mine) == disj);
  passed |= bit(14u, subgroupXor(mine) == excl);
  var below_sum = 0u; var below_product = 1u;
  for (var i = 0u; i < sid; i++) { below_sum += base + i + 1u; below_product *= base + i + 1u; }
  passed |= bit(15u, subgroupExclusiveAdd(mine) == below_sum);
  passed |= bit(16u, subgroupExclusiveMul(mine) == below_product);
  passed |= bit(17u, subgroupInclusiveAdd(mine) == below_sum + mine);
  passed |= bit(18u, subgroupInclusiveMul(mine) == below_product * mine);
  passed |= bit(19u, subgroupBroadcastFirst(u32(sid != 0u)) == 0u);
  passed |= bit(20u, subgroupBroadcastFirst(u32(sid == 0u)) == 1u);
  passed |= bit(21u, subgroupBroadcast(sid, 1u) == 1u);
  passed |= bit(22u, subgroupShuffle(sid, sid) == sid);
  passed |= bit(23u, subgroupShuffle(sid, size - 1u - sid) == size - 1u - sid);
  let down = subgroupShuffleDown(sid, 1u);
  passed |= bit(24u, sid == size - 1u || down == sid + 1u);
  let up = subgroupShuffleUp(sid, 1u);
  passed |= bit(25u, sid == 0u || up == sid - 1u);
  passed |= bit(26u, subgroupShuffleXor(sid, size - 1u) == (sid ^ (size - 1u)));
  var half = false;
  if sid % 2u == 0u { half = subgroupAdd(1u) == size / 2u; }
  else { half = subgroupAdd(1u) == size / 2u; }
  passed |= bit(27u, half);
  var first = false;
  switch sid % 3u {
    case 0u: { first = subgroupBroadcastFirst(sid) == 0u; }
    case 1u: { first = subgroupBroadcastFirst(sid) == 1u; }
    case 2u: { first = subgroupBroadcastFirst(sid) == 2u; }
    default: { }
  }
  passed |= bit(28u, first);
  var count = 0u;
  var i = size;
  loop {
    count = subgroupAdd(1u);
    if i == sid { break; }
    i -= 1u;
  }
  passed |= bit(29u, count == sid + 1u);
  if g == 0u { shared_size = size; }
  workgroupBarrier();
  passed |= bit(30u, shared_size == size);
  passed |= bit(31u, subgroupAdd(1u) == size);
  out[g] = passed;
}
"""


def _failed(words) -> list[int]:
    return sorted({k for w in words for k in range(32) if not (int(w) >> k) & 1})


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64, 128])
@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(5), ash.PCT(2)], ids=repr)
def test_all_32_checks_pass_on_the_cpu(size, schedule):
    out = np.zeros(128, np.uint32)
    r = ash.run(subgroup_checks, 1, out=out, subgroup_size=size, schedule=schedule,
                sanitize="report")
    assert _failed(out) == []
    assert out.tolist() == [ALL_PASSED] * 128
    # what the checks do on purpose: the first and last lanes shuffle from outside the
    # subgroup (24, 25: their results are not used), and 27-29 branch on the lane
    reported = {(type(f).__name__, f.op) for f in r.findings}
    assert reported == {("IndeterminateValue", "subgroup_shuffle_down"),
                        ("IndeterminateValue", "subgroup_shuffle_up"),
                        ("NonUniformCollective", "subgroup_add"),
                        ("NonUniformCollective", "subgroup_broadcast_first")}


@pytest.fixture(scope="module")
def subgroup_device(tmp_path_factory):
    from gpu import OracleUnavailable, open_lavapipe

    try:
        return open_lavapipe(tmp_path_factory.mktemp("lavapipe-wgpu-checks"), ["subgroup"])
    except OracleUnavailable as e:
        pytest.skip(str(e))


def test_all_32_checks_pass_on_lavapipe_as_on_the_cpu(subgroup_device):
    import wgpu

    device = subgroup_device
    module = device.create_shader_module(code=WGSL)
    pipeline = device.create_compute_pipeline(layout="auto",
                                              compute={"module": module, "entry_point": "main"})
    buf = device.create_buffer(size=128 * 4,
                               usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": buf.size}}])
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(1)
    compute.end()
    device.queue.submit([encoder.finish()])
    gpu = np.frombuffer(device.queue.read_buffer(buf), np.uint32)
    assert _failed(gpu) == []
    out = np.zeros(128, np.uint32)
    ash.run(subgroup_checks, 1, out=out, subgroup_size=8, sanitize="report")
    assert out.tolist() == gpu.tolist()
