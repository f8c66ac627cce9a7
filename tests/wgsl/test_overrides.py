"""``ash.override``: WGSL's pipeline-overridable constants. A kernel (and its helpers) reads
one by name; each dispatch may set it (``overrides={"BLOCK": 5}``, by name or ``@id``), else it
is its default; one without a default must be set. to_wgsl declares it ``override``, and
crosscheck sets it on the GPU through the pipeline's ``constants``."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec3u
from asyncshader.emit import to_wgsl

BLOCK = ash.override(u32, 64)
SCALE = ash.override(f32, id=3)          # no default: every dispatch sets it
FLIP = ash.override(ash.bool_, False)


def scaled(x: f32) -> f32:
    return x * SCALE


@ash.compute(workgroup_size=8)
async def tiles(out: ash.Storage[f32], *, global_invocation_id: vec3u):
    i = global_invocation_id.x
    v = scaled(f32(i % BLOCK))
    out[i] = -v if FLIP else v


def test_a_dispatch_sets_overrides_by_name_or_id_and_the_rest_keep_their_default():
    out = np.zeros(16, np.float32)
    ash.run(tiles, 2, out=out, overrides={"BLOCK": 5, "SCALE": 2.0})
    assert out.tolist() == [0, 2, 4, 6, 8] * 3 + [0]
    ash.run(tiles, 2, out=out, overrides={3: 0.5})          # BLOCK = 64: i % 64 is i
    assert out.tolist() == [i / 2 for i in range(16)]
    ash.run(tiles, 2, out=out, overrides={"3": 1, "FLIP": True, "BLOCK": 4})
    assert out.tolist() == [-(i % 4) for i in range(16)]


def test_the_awaited_dispatch_takes_overrides_too():
    import anyio

    out = np.zeros(16, np.float32)

    async def main():
        await ash.dispatch(tiles, 2, out=out, overrides={"SCALE": 3.0, "BLOCK": 2})

    anyio.run(main)
    assert out.tolist() == [0.0, 3.0] * 8


def test_an_override_without_default_must_be_set():
    with pytest.raises(ash.DispatchError, match=r"tiles: override SCALE has no default, so the "
                       r"dispatch must give it a value: pass overrides=\{'SCALE': \.\.\.\}"):
        ash.run(tiles, 2, out=np.zeros(16, np.float32))


def test_a_name_the_kernel_does_not_read_is_refused_with_the_names_it_reads():
    with pytest.raises(ash.DispatchError, match=r"overrides= names 'BLOK', which the kernel "
                       r"does not read; did you mean 'BLOCK'\? \(it reads BLOCK, FLIP, SCALE\)"):
        ash.run(tiles, 2, out=np.zeros(16, np.float32), overrides={"BLOK": 3, "SCALE": 1})
    with pytest.raises(ash.DispatchError, match=r"override BLOCK is u32; cannot convert 'x' "
                       r"\(give a number from 0 to 4294967295\)"):
        ash.run(tiles, 2, out=np.zeros(16, np.float32), overrides={"BLOCK": "x", "SCALE": 1})


def test_override_declarations_are_checked():
    with pytest.raises(TypeError, match=r"override\(\) takes a scalar WGSL type"):
        ash.override(ash.vec3f)
    with pytest.raises(TypeError, match=r"an id is an integer from 0 to 65535"):
        ash.override(u32, 1, id=70000)
    assert ash.override(u32, 7.0).default == u32(7) and repr(SCALE) == \
        "<@id(3) override SCALE: f32>"


def test_overrides_are_emitted_and_set_on_the_gpu(crosscheck):
    text = to_wgsl(tiles)
    assert text.startswith("override BLOCK: u32 = 64u;\n@id(3) override SCALE: f32;\n"
                           "override FLIP: bool = false;\n")
    assert "    return x * SCALE;" in text
    assert "let v = scaled(f32(i % BLOCK));" in text
    report = crosscheck(tiles, 2, out=np.zeros(16, np.float32),
                        overrides={"BLOCK": 5, "3": 2.0, "FLIP": True})
    assert report.gpu["out"].tolist() == [-v for v in [0, 2, 4, 6, 8] * 3 + [0]]
    report = crosscheck(tiles, 2, out=np.zeros(16, np.float32), overrides={"SCALE": 0.5})
    assert report.gpu["out"].tolist() == [i / 2 for i in range(16)]


GAIN = ash.override(f32, 2.0)


@ash.fragment
async def shade(position: ash.vec4f) -> ash.vec4f:
    return ash.vec4f(position.x * GAIN / 8.0, 0.0, 0.0, 1.0)


def test_a_fragment_shader_reads_overrides_on_both_sides(crosscheck):
    ramp = [(x + 0.5) / 8.0 for x in range(4)]               # position.x / 8 at pixel centres
    out = np.asarray(ash.run_fragments(shade, 4, 2, overrides={"GAIN": 0.5}).output)
    assert out[1, :, 0].tolist() == [v * 0.5 for v in ramp]
    assert "override GAIN: f32 = 2.0f;" in to_wgsl(shade)
    report = crosscheck.fragments(shade, 4, 2, overrides={"GAIN": 0.5})
    assert report.gpu["output"][1, :, 0].tolist() == [v * 0.5 for v in ramp]
    report = crosscheck.fragments(shade, 4, 2)                # the default, 2.0
    assert report.gpu["output"][0, :, 0].tolist() == [v * 2.0 for v in ramp]


def test_an_override_cannot_size_the_workgroup_and_the_error_says_what_to_write():
    block = ash.override(ash.u32, 8)
    with pytest.raises(ash.OptionError, match=r"workgroup_size takes ints, not an "
                       r"ash.override.*Fix: use a module constant"):
        @ash.compute(workgroup_size=(block, block))
        async def k():
            pass
