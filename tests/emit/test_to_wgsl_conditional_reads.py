"""``to_wgsl`` reads memory only where the Python kernel does: a local naming one of several
arrays in turn (``src, dst = dst, src``) reads through a helper that loads the array chosen,
and a conditional expression whose branch indexes memory is an ``if``/``else``. A
``select()`` evaluates both of its values: the emitted shader would load arrays the kernel
does not, and the race detector (on the emitted WGSL, through ``load_wgsl``) would report
races and out-of-bounds reads that the kernel lacks."""

import numpy as np
from helpers import load_example

import asyncshader as ash
from asyncshader import f32

N = 100  # two blocks of 64, the second padded past the input's end


def _scan(kernel):
    inp = np.arange(N, dtype=np.float32)
    out, sums = np.zeros(N, np.float32), np.zeros(2, np.float32)
    result = ash.run(kernel, 2, inp=inp, out=out, block_sums=sums, n=ash.u32(N),
                     sanitize="report")
    return result.findings, out, sums


def test_the_emitted_scan_reads_one_array_and_reports_nothing_the_kernel_does_not():
    prefix = load_example("prefix_sum.py")
    wgsl = ash.to_wgsl(prefix.scan_blocks)
    assert "select(" not in wgsl
    assert "fn load_ping_or_pong(k: u32, i: u32) -> f32 {" in wgsl
    assert "    if g < n {\n        tmp1 = inp[g];\n    } else {\n        tmp1 = 0.0f;\n" in wgsl
    findings, out, sums = _scan(ash.load_wgsl(wgsl)["scan_blocks"])
    kernel_findings, kernel_out, kernel_sums = _scan(prefix.scan_blocks)
    assert findings == [] and kernel_findings == []
    # inclusive scans by hand: block 0 of 0..63, block 1 of 64..99 (its padding adds 0)
    want = np.concatenate([np.cumsum(np.arange(64.0)), np.cumsum(np.arange(64.0, N))])
    assert out.tolist() == want.tolist() == kernel_out.tolist()
    assert sums.tolist() == [2016.0, float(sum(range(64, N)))] == kernel_sums.tolist()


def test_a_conditional_expression_of_values_stays_a_select():
    @ash.compute(workgroup_size=1)
    async def pick(out: ash.Storage[f32], k: ash.u32, *, global_invocation_id: ash.vec3u):
        x = f32(k)
        out[0] = x * 2.0 if k > 1 else x
        while (out[1] if k > 2 else out[2]) < 3.0:   # (a loop's condition: evaluated in
            out[1] += 1.0                             # place, so a select)
    wgsl = ash.to_wgsl(pick)
    assert "out[0] = select(x, x * 2.0, k > 1);" in wgsl
    assert "while select(out[2], out[1], k > 2) < 3.0 {" in wgsl



