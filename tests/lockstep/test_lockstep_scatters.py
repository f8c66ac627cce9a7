"""Several lanes storing to one address in one operation: the highest lane's value stays
(docs/lockstep.md, "Which interleaving it is"), made so by Lockstep itself rather than left to
the order numpy happens to assign repeated indices in (which numpy does not specify)."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.lockstep import lanes


class UniqueOnly(np.ndarray):
    """A word view that refuses a fancy assignment with repeated indices: numpy does not say
    which of them wins, so a store must never hand it any."""

    def __setitem__(self, index, value):
        flat = np.asarray(index).reshape(-1)
        assert np.unique(flat).size == flat.size, f"repeated indices {flat.tolist()}"
        super().__setitem__(index, value)


def memory(n=8):
    return np.zeros(n, np.uint32).view(UniqueOnly)


@pytest.mark.parametrize("at,mask,expected", [
    # every lane active, lanes 1 and 3 on word 2, lanes 0 and 2 on word 5
    ([5, 2, 5, 2], None, {2: 13, 5: 12}),
    # lane 3 inactive: lane 1 is the highest on word 2
    ([5, 2, 5, 2], [True, True, True, False], {2: 11, 5: 12}),
    # one address for every lane (a broadcast): the last lane
    (np.broadcast_to(np.int64(4), (4,)), None, {4: 13}),
    # decreasing addresses, no repeats
    ([3, 2, 1, 0], None, {3: 10, 2: 11, 1: 12, 0: 13}),
    # addresses far apart (sorted rather than counted), lanes 0 and 2 on word 900
    ([900, 0, 900, 7], None, {0: 11, 900: 12, 7: 13}),
])
def test_a_store_keeps_the_highest_lanes_value_per_address(at, mask, expected):
    view = memory(1024)
    m = None if mask is None else np.array(mask)
    lanes.store(view, np.asarray(at), True, m, np.array([10, 11, 12, 13], np.uint32), 4)
    want = np.zeros(1024, np.uint32)
    for word, value in expected.items():
        want[word] = value
    assert np.asarray(view).tolist() == want.tolist()


def test_out_of_bounds_lanes_are_dropped_before_the_highest_lane_is_chosen():
    view = memory()
    at = np.array([1, 1, 1, 1])
    ok = np.array([True, True, False, False])  # (lanes 2 and 3 out of bounds)
    lanes.store(view, at, ok, None, np.array([10, 11, 12, 13], np.uint32), 4)
    assert np.asarray(view).tolist() == [0, 11, 0, 0, 0, 0, 0, 0]


COLLIDE = ash.load_wgsl("""
@group(0) @binding(0) var<storage, read_write> quarter: array<u32>;
@group(0) @binding(1) var<storage, read_write> one: array<u32>;
@group(0) @binding(2) var<storage, read_write> odd: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  quarter[gid.x / 4u] = gid.x;          // lanes 4k..4k+3 on word k
  one[0] = gid.x;                       // every lane on word 0
  if (gid.x % 2u == 1u) { odd[(gid.x / 8u) % 4u] = gid.x; }   // odd lanes, 4 words
}
""")


@pytest.mark.parametrize("max_lanes", [65536, 64])
def test_racy_stores_of_a_dispatch_keep_the_highest_invocations_value(max_lanes):
    # (a racy kernel: every schedule may leave other values; Lockstep's is the highest lane,
    # and with chunks of one workgroup, the last chunk's highest lane)
    quarter, one, odd = (np.zeros(n, np.uint32) for n in (64, 1, 4))
    ash.run(COLLIDE["main"], 4, quarter=quarter, one=one, odd=odd,
            schedule=ash.Lockstep(max_lanes=max_lanes), sanitize="off")
    assert quarter.tolist() == [4 * k + 3 for k in range(64)]
    assert one.tolist() == [255]
    # word w holds the odd lanes x with (x // 8) % 4 == w: the highest is 255 - 8 * (3 - w)
    assert odd.tolist() == [231, 239, 247, 255]


class UniqueTexels(np.ndarray):
    """A texture level that refuses a fancy assignment with a texel repeated."""

    def __setitem__(self, index, value):
        if isinstance(index, tuple) and len(index) == 3:
            flat = np.ravel_multi_index(tuple(np.asarray(i) for i in index), self.shape[:3])
            assert np.unique(flat).size == flat.size, f"repeated texels {flat.tolist()}"
        super().__setitem__(index, value)


def test_lanes_storing_to_one_texel_keep_the_highest_lanes_value(monkeypatch):
    # (lanes 4k..4k+3 store to texel k of row 0; every lane of row 1 to texel 0)
    module = ash.load_wgsl("""
@group(0) @binding(0) var img: texture_storage_2d<r32uint, write>;
@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) g: vec3u) {
  textureStore(img, vec2u(g.x / 4u, 0u), vec4u(g.x, 0u, 0u, 0u));
  textureStore(img, vec2u(0u, 1u), vec4u(100u + g.x, 0u, 0u, 0u));
}
""")
    host = np.zeros((2, 4, 1), np.uint32)
    texture = ash.Texture([host], "r32uint")
    block = type(texture).block
    monkeypatch.setattr(type(texture), "block",
                        lambda self, level: block(self, level).view(UniqueTexels))
    ash.run(module["main"], 1, img=texture, schedule=ash.Lockstep(), sanitize="off")
    assert host[..., 0].tolist() == [[3, 7, 11, 15], [115, 0, 0, 0]]
