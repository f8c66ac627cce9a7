"""WGSL's overload resolution for the numeric built-ins: abstract literals (Python int and
float) take the other arguments' concrete type, a call WGSL rejects is a TypeError that names
the function, the argument types and the conversion; every exported name documents itself."""

import re

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash
from asyncshader import f32, i32, u32
from asyncshader.wgsl import builtins as numeric_builtins

BITS_MODULES = ("bits", "packing", "bitcast", "arrays")  # the bit built-ins: test_bits.py & co
MATRIX_MODULES = ("matrix",)  # transpose, determinant: tests/wgsl/test_matrices.py
FUNCTIONS = [n for n in numeric_builtins.__all__ if n[0].islower() and getattr(
    numeric_builtins, n).__module__.rpartition(".")[2] not in BITS_MODULES + MATRIX_MODULES]
WGSL_NAMES = {"inverse_sqrt": "inverseSqrt", "face_forward": "faceForward",
              "quantize_to_f16": "quantizeToF16"}


def test_every_built_in_is_exported_and_documents_wgsl_name_overloads_and_accuracy():
    assert len(FUNCTIONS) == 49
    for name in FUNCTIONS:
        fn = getattr(ash, name)
        assert name in ash.__all__ and fn is getattr(numeric_builtins, name)
        wgsl = WGSL_NAMES.get(name, name)
        assert fn.__doc__.startswith(f"WGSL ``{wgsl}("), name
        assert "Overloads:" in fn.__doc__ and "Accuracy:" in fn.__doc__, name


def test_docs_table_lists_every_numeric_built_in():
    text = (ROOT / "docs" / "builtins.md").read_text(encoding="utf-8")
    section = text.split("## Numeric built-ins", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)\(", section, re.M)
    assert sorted(py for _, py in rows) == sorted(FUNCTIONS)
    for wgsl, py in rows:
        assert WGSL_NAMES.get(py, py) == wgsl


@pytest.mark.parametrize("call, want_type, want", [
    (lambda: ash.max(u32(1), 5), np.uint32, 5),          # AbstractInt -> u32
    (lambda: ash.max(i32(-1), -5), np.int32, -1),        # AbstractInt -> i32
    (lambda: ash.max(f32(1.5), 2), np.float32, 2.0),     # AbstractInt -> f32
    (lambda: ash.max(3, 2), np.int32, 3),                # all abstract: i32
    (lambda: ash.max(1, 2.5), np.float32, 2.5),          # AbstractInt + AbstractFloat: f32
    (lambda: ash.sqrt(4), np.float32, 2.0),              # float-only function: f32
    (lambda: ash.clamp(0.5, 0, 1), np.float32, 0.5),
    (lambda: ash.mix(0.0, 10.0, f32(0.5)), np.float32, 5.0),   # T from the concrete e3
    (lambda: ash.max(np.float64(0.25), f32(0.0)), np.float32, 0.25),  # float64: abstract
])
def test_abstract_arguments_convert_to_the_concrete_type(call, want_type, want):
    r = call()
    assert type(r) is want_type and r == want


@pytest.mark.parametrize("call, pattern", [
    (lambda: ash.max(f32(1.0), i32(1)), r"max\(f32, i32\).*between f32 and i32"),
    (lambda: ash.max(u32(1), i32(1)), r"max\(u32, i32\).*between u32 and i32"),
    (lambda: ash.clamp(u32(1), 0, i32(1)), r"clamp\(u32, int, i32\)"),
    (lambda: ash.max(u32(1), -5), r"-5 does not fit in u32"),
    (lambda: ash.max(i32(1), 2 ** 31), r"2147483648 does not fit in i32"),
    (lambda: ash.max(i32(1), 2.5), r"does not convert the float 2.5 to i32.*i32\(2.5\)"),
    (lambda: ash.sqrt(i32(4)), r"sqrt\(i32\).*sqrt\(f32\(x\)\)"),
    (lambda: ash.clamp(ash.vec3f(1.0), 0.0, 1.0), r"clamp\(vec3f, float, float\).*vec3f\(0.0\)"),
    (lambda: ash.max(ash.vec2u(1, 2), u32(1)), r"max\(vec2u, u32\)"),
    (lambda: ash.mix(f32(0.0), f32(1.0), ash.vec3f(0.5)), r"mix\(f32, f32, vec3f\)"),
    (lambda: ash.abs(True), r"abs\(bool\).*not bool"),
    (lambda: ash.floor(ash.vec2b(True, False)), r"floor\(vec2b\)"),
    (lambda: ash.sin([1.0, 2.0]), r"sin\(list\).*not a WGSL value"),
    (lambda: ash.sin(np.array([1.0], np.float32)), r"sin\(ndarray\).*not a WGSL value"),
    (lambda: ash.max(f32(1.0), 1e39), r"outside the f32 range"),
    (lambda: ash.max(f32(1.0), 3.4028235e38 * 1.0000001), r"outside the f32 range"),
    (lambda: ash.max(f32(1.0), 10 ** 400), r"does not fit in an f32"),
    (lambda: ash.max(f32(1.0), 2 ** 128), r"does not fit in an f32"),
    (lambda: ash.max(f32(1.0), 2 ** 128 - 2 ** 103), r"does not fit in an f32"),   # rounds to inf
])
def test_calls_wgsl_rejects_are_type_errors_that_say_what_to_write(call, pattern):
    with pytest.raises(TypeError, match=pattern) as info:
        call()
    with pytest.raises(TypeError, match=pattern):   # again: the resolution is cached
        call()
    assert "WGSL has no such overload" in str(info.value)
    assert "WGSL's overloads:" in str(info.value)


def test_an_overload_error_in_a_shader_names_the_invocation_and_line():
    @ash.compute(workgroup_size=1)
    async def kernel(out: ash.Storage):
        out[0] = ash.clamp(ash.vec3f(1.0), 0.0, 1.0).x

    with pytest.raises(ash.ShaderError, match=r"clamp\(vec3f, float, float\)") as info:
        ash.run(kernel, 1, out=np.zeros(1, np.float32))
    assert "test_builtin_overloads.py" in str(info.value)


def test_signatures_are_positional_like_wgsl():
    import inspect
    params = inspect.signature(ash.clamp).parameters
    assert list(params) == ["e", "low", "high"]
    assert all(p.kind is inspect.Parameter.POSITIONAL_ONLY for p in params.values())
