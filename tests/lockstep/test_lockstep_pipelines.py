"""Pipeline constants under Lockstep: a workgroup size given by overrides, an override-sized
workgroup array and an override initialized from other overrides take the values of the
module's pipeline constants (``load_wgsl(..., constants=...)``), compiled per constants, and
leave the same bits as the coroutine runtime under InOrder, with and without the race
detector."""

import numpy as np
import pytest
from test_lockstep_schedule import compile_text

import asyncshader as ash
from asyncshader.front.wgsl.source import WGSLError

ROTATE = """
override WG: u32 = 32;
@id(3) override HALF: u32 = WG / 2u;
var<workgroup> tile: array<f32, WG>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@compute @workgroup_size(WG, 1, 1)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) gid: vec3u) {
  tile[l] = inp[gid.x];
  workgroupBarrier();
  var s = 0.0;
  for (var k = 0u; k < HALF; k++) { s += tile[(l + k) % WG]; }
  out[gid.x] = s + f32(WG) * 1000.0;
}
"""


@pytest.mark.parametrize("constants,size,half", [
    ({}, 32, 16), ({"WG": 8}, 8, 4), ({"WG": 64, "3": 5}, 64, 5), ({"HALF": 1}, 32, 1)])
@pytest.mark.parametrize("sanitize", ["off", "error"])
def test_sizes_given_by_overrides_take_the_pipeline_constants(constants, size, half,
                                                              sanitize):
    module = ash.load_wgsl(ROTATE, constants=constants)
    inp = np.arange(256, dtype=np.float32) * 0.5
    outs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        out = np.zeros(256, np.float32)
        result = ash.run(module["main"], 256 // size, schedule=schedule, sanitize=sanitize,
                         out=out, inp=inp)
        outs.append(out)
    assert outs[0].tobytes() == outs[1].tobytes()
    assert result.counters.invocations == 256
    # by hand: lane l of workgroup g sums the halves of inputs g*size + (l + k) % size
    g, lane = 1, size - 1
    expect = sum((g * size + (lane + k) % size) * 0.5 for k in range(half)) + size * 1000
    assert outs[1][g * size + lane] == np.float32(expect)


def test_a_workgroup_size_given_by_an_override_without_a_value_is_refused_with_its_line():
    with pytest.raises(WGSLError, match=r"refused\.wgsl:4:\d+.*not supported by Lockstep: "
                       r"a workgroup size given by an override without a value"):
        compile_text("""
override WG: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) i: u32) { out[i] = i; }
""")
