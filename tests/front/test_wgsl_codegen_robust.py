"""Indexing and division in loaded WGSL keep WGSL's rules on the fast path
(asyncshader.front.wgsl.codegen_robust): a u32 index is plain numpy indexing, and out of
bounds it still loads zero and drops the store (without the detector: with it, it is also a
finding); a signed index that is negative is out of bounds, never counted from the end; a u32
divided by a constant is WGSL's division. Values checked by hand and against lavapipe."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash

INDEXING = """\
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    tile[i + 2u] = buf[i] + 1u;            // i = 2, 3: past the end of tile, dropped
    workgroupBarrier();
    let j = i32(i) - 2;                    // -2 .. 1
    out[i] = buf[i + 3u] * 10u + tile[i];  // buf[6], buf[7] past the end: 0
    out[i + 4u] = buf[j];                  // j < 0: out of bounds, 0 (not buf[4 + j])
    out[i + 8u] = (buf[i] + 7u) / 4u + (buf[i] + 7u) % 3u;
    storageBarrier();
    buf[i + 4u] = 99u;                     // i >= 2: past the end of buf, dropped
}
"""
BUF = [5, 6, 7, 8, 9, 10]


def expected():
    tile = [0, 0, BUF[0] + 1, BUF[1] + 1]
    first = [(BUF[i + 3] if i + 3 < 6 else 0) * 10 + tile[i] for i in range(4)]
    second = [BUF[i - 2] if i - 2 >= 0 else 0 for i in range(4)]
    third = [(BUF[i] + 7) // 4 + (BUF[i] + 7) % 3 for i in range(4)]
    return first + second + third, [*BUF[:4], 99, 99]


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_indices_past_either_end_load_zero_and_drop_stores(sanitize):
    buf, out = np.array(BUF, np.uint32), np.zeros(12, np.uint32)
    result = ash.run(ash.load_wgsl(INDEXING)["main"], 1, sanitize=sanitize, buf=buf, out=out)
    want_out, want_buf = expected()
    assert out.tolist() == want_out and buf.tolist() == want_buf
    if sanitize == "report":
        assert {type(f).__name__ for f in result.findings} == {"OutOfBounds"}


def test_the_out_of_bounds_rules_agree_with_lavapipe_where_wgsl_fixes_the_values(gpu_device):
    """WGSL lets an out-of-bounds load give any in-bounds value or zero; lavapipe's robust
    access gives zero, as asyncshader does, so the two are compared whole."""
    want_out, want_buf = expected()
    gpu = wgsl_originals.run(gpu_device, INDEXING, "main", 1, buf=np.array(BUF, np.uint32),
                             out=np.zeros(12, np.uint32))
    assert gpu["out"][8:].tolist() == want_out[8:]  # (the in-bounds division part)
    assert gpu["buf"].tolist() == want_buf
