"""Literals and module-scope constants denote what WGSL says they do: a hex integer's ``f``
digits are digits, not a suffix (``0x1f`` is 31, ``0xffffffff`` is 2**32 - 1); a ``const``
whose abstract value leaves i32's range is valid WGSL and loads (Dawn's test/tint/bug/tint/
1713.wgsl). Checked in const-evaluation, in a loaded kernel and against lavapipe. And what
made the loader crash on Dawn's corpus (benchmarks/wgsl_load.py) is a diagnostic at its
place: a huge const array, an override index past the end, nesting past Python's limit."""

import numpy as np
import pytest
from ports import wgsl_originals

import asyncshader as ash
from asyncshader.front.wgsl import WGSLError, check_wgsl

LITERALS = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> f: array<f32>;
@compute @workgroup_size(1)
fn main() {
    out[0] = 0x1f;
    out[1] = 0x1Fu;
    out[2] = 0xffffffff;
    out[3] = u32(0xfi);
    f[0] = f32(0xffffffff);
    f[1] = 0x1p4f;
    f[2] = 0x1.fp1;
    f[3] = 0x1.f;
    f[4] = 2e1f;
}
"""
WANT_U32 = [31, 31, 0xFFFF_FFFF, 15]
WANT_F32 = [4294967296.0, 16.0, 3.875, 1.9375, 20.0]  # (2**32 - 1 rounds to 2**32 in f32)


@pytest.mark.parametrize("text, value", [("0x1f", 31), ("0xffffffff", 0xFFFF_FFFF),
                                         ("0xFFu", 255), ("0x7fffffffi", 2 ** 31 - 1)])
def test_a_hex_integer_ending_in_f_keeps_its_digit(text, value):
    typed = check_wgsl(f"const c = {text};")
    decl = typed.resolved.module.decls[0]
    assert int(typed.values[id(decl)]) == value


def test_hex_and_suffixed_literals_run_as_on_lavapipe(gpu_device):
    out, f = np.zeros(4, np.uint32), np.zeros(5, np.float32)
    ash.run(ash.load_wgsl(LITERALS)["main"], 1, out=out, f=f)
    assert out.tolist() == WANT_U32 and f.tolist() == WANT_F32
    gpu = wgsl_originals.run(gpu_device, LITERALS, "main", 1, out=np.zeros(4, np.uint32),
                             f=np.zeros(5, np.float32))
    assert gpu["out"].tolist() == WANT_U32 and gpu["f"].tolist() == WANT_F32


ABSTRACT = """\
const a = 1 << 30u;
const b = a << 10u;
const c = 5000000000 << 3u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    _ = b;
    _ = c;
    out[0] = u32(b >> 20u);
}
"""


def test_an_abstract_const_past_i32_loads_and_keeps_its_value(gpu_device):
    module = ash.load_wgsl(ABSTRACT)
    assert module["a"] == 2 ** 30 and isinstance(module["a"], ash.i32)
    assert module["b"] == 2 ** 40 and module["c"] == 40_000_000_000  # (abstract: Python ints)
    out = np.zeros(1, np.uint32)
    ash.run(module["main"], 1, out=out)
    assert out.tolist() == [2 ** 20]
    gpu = wgsl_originals.run(gpu_device, ABSTRACT, "main", 1, out=np.zeros(1, np.uint32))
    assert gpu["out"].tolist() == [2 ** 20]


def test_a_huge_const_array_is_not_materialised_and_its_use_is_a_diagnostic():
    """array<i32, 636109182>() is valid WGSL (Dawn's bug/chromium/1449538.wgsl): its value is
    not held as a tuple of 636 million elements (gigabytes, and minutes to build); the checker
    still knows its type and bounds, and the module loads."""
    typed = check_wgsl("const big = array<u32, 5000000>();\n"
                       "const small = array<u32, 3>();")
    big, small = typed.resolved.module.decls
    assert not isinstance(typed.values[id(big)], tuple)
    assert typed.values[id(small)] == (0, 0, 0)
    with pytest.raises(WGSLError, match="index 5000001 is out of bounds"):
        check_wgsl("const a = array<u32, 5000000>()[5000001];")
    module = ash.load_wgsl("@compute @workgroup_size(1)\nfn f() {\n"
                           "    for (var i0520 = array<i32, 636109182>()[ 0]; false;) {}\n}\n")
    assert module.entry_points == ["f"]


def test_an_override_index_past_the_end_is_a_diagnostic_not_a_traceback():
    """An index that is an override-expression is known at pipeline creation: past the end
    it is an error at its place (it was an IndexError from inside the evaluator)."""
    with pytest.raises(WGSLError, match=r":4:24: error: index 5 is out of bounds"):
        ash.load_wgsl("override O = 5;\n@compute @workgroup_size(1)\nfn f() {\n"
                      "    var v = vec2(0, 1)[O];\n}\n")


def test_blocks_nested_past_pythons_limit_are_refused_at_their_line():
    """Python compiles at most 20 nested loops (and try blocks); deeper WGSL is refused as a
    construct, at the line, not a SyntaxError of the generated code."""
    depth = 24
    body = "".join("    " * k + f"for (var i{k} = 0u; i{k} < out[1]; i{k}++) {{\n"
                   for k in range(1, depth + 1))
    body += "    " * (depth + 1) + "out[0] = 1u;\n"
    body += "".join("    " * k + "}\n" for k in range(depth, 0, -1))
    wgsl = ("@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
            "@compute @workgroup_size(1)\nfn f() {\n" + body + "}\n")
    with pytest.raises(WGSLError, match="not supported yet by load_wgsl: too many statically "
                                        "nested blocks"):
        ash.load_wgsl(wgsl)
