"""The results of ``frexp`` and ``modf`` in loaded WGSL, f32 and f16, scalar and vector: read
by member, held in a ``let`` or a ``var``, and stored into by member as any struct value
(a new value; the named-tuple result's other member kept). Values by hand:
6.0 = 0.75 * 2^3, -40.0 = -0.625 * 2^6, 6.5 = 0.5 + 6.0."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash

RESULTS = """\
enable f16;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;

fn h(x: f32) -> f16 { return f16(x); }

@compute @workgroup_size(1)
fn main() {
    let a = frexp(h(6.0));
    o[0] = f32(a.fract);
    o[1] = f32(a.exp);
    let b = frexp(vec2<f16>(h(0.75), h(-40.0)));
    o[2] = f32(b.fract.y);
    o[3] = f32(b.exp.y);
    let c = modf(h(6.5));
    o[4] = f32(c.fract) + 10.0 * f32(c.whole);
    var d = frexp(6.0);
    d.exp = 2;
    o[5] = d.fract * f32(1 << u32(d.exp));
    var e = frexp(vec2<f16>(h(6.0)));
    e.fract.x = h(1.0);
    o[6] = f32(e.fract.x) + f32(e.fract.y) + f32(e.exp.y);
    var f = modf(vec3f(2.25));
    f.whole = vec3f(1.0);
    o[7] = f.fract.z + f.whole.x;
}
"""


def test_frexp_and_modf_results_of_f16_and_f32_are_values_with_members():
    o = np.zeros(8, np.float32)
    ash.run(ash.load_wgsl(RESULTS)["main"], 1, o=o)
    assert o.tolist() == [0.75, 3.0, -0.625, 6.0, 60.5, 3.0, 4.75, 1.25]


ABSTRACT_ARGUMENTS = """\
const LEVELS = 9;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let rho = o[0];
    o[1] = clamp(log2(rho), 0.0, LEVELS - 1);
    o[2] = max(rho, 2);
    o[3] = ldexp(rho, 2);
    o[4] = select(0, rho, rho > 1.0);
}
"""


def test_an_abstract_integer_argument_takes_a_float_overload_s_type():
    """WGSL's overload resolution converts ``LEVELS - 1`` to f32 in ``clamp(f32, ...)``; an
    integer parameter of a float overload (ldexp's exponent) keeps it an integer."""
    o = np.array([1024.0, 0, 0, 0, 0], np.float32)
    ash.run(ash.load_wgsl(ABSTRACT_ARGUMENTS)["main"], 1, o=o)
    assert o.tolist() == [1024.0, 8.0, 1024.0, 4096.0, 1024.0]   # log2(1024) = 10 -> 8


FLOAT_PARAMETERS_OF_INTEGER_RESULTS = """\
@group(0) @binding(0) var<storage, read_write> o: array<u32>;

@compute @workgroup_size(1)
fn main() {
    let x = f32(o[0]);
    o[1] = pack2x16float(vec2(1, 2));
    o[2] = pack2x16float(vec2(x, 2));
    o[3] = pack4x8unorm(vec4(1, 0, 1, 0));
    o[4] = u32(dot(vec2(1, 2), vec2(x, x)));
    o[5] = u32(ldexp(x, 3));
}
"""
#: by hand: f16 1.0 is 0x3c00, 2.0 0x4000 and 3.0 0x4200 (the first component in the low
#: half); unorm 1.0 is 0xff per byte, first component lowest; dot((1, 2), (3, 3)) = 9;
#: 3 * 2^3 = 24
FLOAT_PARAMETERS_WANT = [3, 0x40003C00, 0x40004200, 0x00FF00FF, 9, 24]


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Lockstep()], ids=["InOrder", "Lockstep"])
def test_an_abstract_integer_argument_takes_its_float_parameter_s_type(schedule):
    """``pack2x16float(vec2(1, 2))``: the overload's parameter is vec2<f32>, so the abstract
    integers convert to f32 although the result is a u32 (the checker's overload resolution
    gives each argument its parameter's type; the generator and Lockstep read it)."""
    o = np.array([3, 0, 0, 0, 0, 0], np.uint32)
    ash.run(ash.load_wgsl(FLOAT_PARAMETERS_OF_INTEGER_RESULTS)["main"], 1, o=o,
            schedule=schedule, sanitize="off")
    assert o.tolist() == FLOAT_PARAMETERS_WANT


def test_lavapipe_converts_the_abstract_integers_to_f32_too(gpu_device):
    o = np.array([3, 0, 0, 0, 0, 0], np.uint32)
    gpu = wgsl_originals.run(gpu_device, FLOAT_PARAMETERS_OF_INTEGER_RESULTS, "main", 1, o=o)
    assert gpu["o"].tolist() == FLOAT_PARAMETERS_WANT
