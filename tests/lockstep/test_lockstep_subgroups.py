"""Subgroup built-ins in lockstep: each subgroup's active lanes, as under InOrder (maximal
reconvergence: the lanes that reach a call together), on a partial last subgroup and in
divergent branches and loops."""

import numpy as np
import pytest

import asyncshader as ash

SUBGROUPS = """
enable subgroups;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> f: array<f32>;
@group(0) @binding(3) var<storage, read_write> u: array<u32>;

@compute @workgroup_size(24)
fn main(@builtin(global_invocation_id) gid: vec3u,
        @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) size: u32) {
  let i = gid.x;
  let x = inp[i];
  let k = keys[i];
  f[i * 6u] = subgroupAdd(x);
  f[i * 6u + 1u] = subgroupExclusiveAdd(x);
  if (k % 3u != 0u) {
    f[i * 6u + 2u] = subgroupInclusiveMul(x);
    f[i * 6u + 3u] = subgroupMax(x);
    u[i * 6u] = subgroupMin(k) + subgroupXor(k) + subgroupOr(k);
    u[i * 6u + 1u] = select(0u, 1u, subgroupElect());
    let b = subgroupBallot(k % 2u == 0u);
    u[i * 6u + 2u] = b.x + b.y * 7u;
  }
  for (var n = 0u; n < k % 4u; n++) {
    u[i * 6u + 3u] += subgroupAdd(n + k);
  }
  f[i * 6u + 4u] = subgroupShuffleXor(x, 1u) + subgroupBroadcast(x, 2u);
  f[i * 6u + 5u] = subgroupBroadcastFirst(x) + f32(subgroupShuffleDown(sid, 0u));
  u[i * 6u + 4u] = select(0u, 1u, subgroupAll(k < 40u)) + select(0u, 2u, subgroupAny(k == 7u));
  u[i * 6u + 5u] = size;
}
"""


@pytest.mark.parametrize("size", [4, 8, 16])
def test_subgroup_operations_give_inorder_bits(size):
    module = ash.load_wgsl(SUBGROUPS)
    rng = np.random.default_rng(size)
    given = dict(inp=(rng.standard_normal(48) * 10).astype(np.float32),
                 keys=rng.integers(0, 50, 48).astype(np.uint32))
    out = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        f, u = np.zeros(48 * 6, np.float32), np.zeros(48 * 6, np.uint32)
        ash.run(module["main"], 2, schedule=schedule, sanitize="off", subgroup_size=size,
                f=f, u=u, **given)
        out.append((f.tobytes(), u.tobytes()))
    assert out[0] == out[1]
    assert list(u[5::6]) == [size] * 48
    expected = given["inp"][0]   # subgroupAdd of the first subgroup: f32 adds in lane order
    for x in given["inp"][1:size]:
        expected = np.float32(expected + x)
    assert f[0] == expected


def test_a_shuffle_from_an_inactive_lane_is_an_error_naming_the_line():
    module = ash.load_wgsl("""
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 5u) {
    out[i] = subgroupShuffleDown(i, 1u);
  }
}
""")
    with pytest.raises(ash.DivergenceError, match=r"\.wgsl:7:14: subgroup invocation 4 .*"
                       r"reads subgroup invocation 5, which is not active"):
        ash.run(module["main"], 1, schedule=ash.Lockstep(), sanitize="off", subgroup_size=8,
                out=np.zeros(8, np.uint32))


QUADS = """
enable subgroups;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = inp[i];
  out[i * 4u] = quadSwapX(x);
  out[i * 4u + 1u] = quadSwapY(x) - quadSwapDiagonal(x);
  out[i * 4u + 2u] = quadBroadcast(x, 2u);
  if (inp[i - i % 4u] > 0.0) {
    out[i * 4u + 3u] = quadSwapX(x * 2.0);
  }
}
"""


def test_quad_operations_give_inorder_bits():
    module = ash.load_wgsl(QUADS)
    inp = np.random.default_rng(2).standard_normal(32).astype(np.float32)
    out = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        o = np.zeros(128, np.float32)
        ash.run(module["main"], 2, schedule=schedule, sanitize="off", inp=inp, out=o)
        out.append(o)
    assert out[0].tobytes() == out[1].tobytes()
    assert out[1][0] == inp[1] and out[1][2] == inp[2] and out[1][4 * 5 + 2] == inp[6]
