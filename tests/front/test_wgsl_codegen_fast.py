"""Indexing and division in loaded WGSL keep WGSL's rules on the fast path
(asyncshader.front.wgsl.codegen_fast): a u32 index is plain numpy indexing, and out of
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


LOOPS = """\
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@group(0) @binding(1) var<storage, read_write> bound: array<u32>;
@group(0) @binding(2) var<uniform> n: u32;

@compute @workgroup_size(1)
fn main() {
    var a = 0;
    for (var i = -3; i <= 3; i++) {        // i32, inclusive, from a negative start
        if (i == 0) { continue; }
        a += i * i;
    }
    out[0] = a;
    var b = 0;
    for (var j = 0u; j < n; j += 1u) {     // a uniform bound
        if (j == 5u) { break; }
        b += i32(j);
    }
    out[1] = b;
    var c = 0;
    for (var k = 0u; k < 10u; k++) {       // the body steps k too: WGSL's own stepping
        k += 2u;
        c += 1;
    }
    out[2] = c;
    var d = 0;
    for (var m = 0u; m < bound[0]; m++) {  // a bound the loop itself lowers
        bound[0] -= 1u;
        d += 1;
    }
    out[3] = d;
    var e = 0u;
    for (var p = 4u; p < 2u; p++) { e += 1u; }   // no iteration
    for (var q = 0u; q < 3u; q++) {
        for (var r = q; r < 3u; r++) { e += q * 10u + r; }
    }
    out[4] = i32(e);
}
"""
# -9-4-1 squared and 1+4+9 (0 skipped); 0+1+2+3+4 (break at 5 of n = 8); k = 0, 3, 6, 9;
# d: bound 10 -> the loop stops when m reaches the lowered bound (m 0..4, bound 10..5);
# sum over q <= r < 3 of 10q + r: (0+1+2) + (11+12) + 22
WANT = [28, 10, 4, 5, 3 + 23 + 22]


def test_counted_loops_step_and_stop_as_wgsl_says(gpu_device):
    out, bound = np.zeros(5, np.int32), np.array([10], np.uint32)
    ash.run(ash.load_wgsl(LOOPS)["main"], 1, out=out, bound=bound, n=ash.u32(8))
    assert out.tolist() == WANT and bound.tolist() == [5]
    gpu = wgsl_originals.run(gpu_device, LOOPS, "main", 1, out=np.zeros(5, np.int32),
                             bound=np.array([10], np.uint32),
                             n=np.array([8], np.uint32).tobytes())
    assert gpu["out"].tolist() == WANT and gpu["bound"].tolist() == [5]
