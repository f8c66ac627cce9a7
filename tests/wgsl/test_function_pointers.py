"""Pointers into the caller's function-scope variables (WGSL ``ptr<function, T>``): a helper
that takes ``ash.ptr(x)`` of a local reads and writes the caller's ``x`` through ``p.value``
(WGSL ``*p``), on the CPU and as emitted WGSL (``&x``, ``*p``), cross-checked on lavapipe."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec2f
from asyncshader.emit import WGSLEmitError, to_wgsl


def bump(p, by: f32):
    p.value += by


def swap(a, b):
    t = a.value
    a.value = b.value
    b.value = t


def next_random(state, salt: u32) -> u32:
    """An LCG step: returns a number and advances the caller's state."""
    s = state.value
    state.value = s * 1664525 + 1013904223
    return s % 7 + salt


def reflect_x(p):
    p.value.x = -p.value.x


def grow(p, k: f32):
    p.value = p.value * k


def add_twice(p, j: i32):
    add(p, j)        # a pointer passed on to another helper
    add(p, j)


def add(p, j: i32):
    p.value += j


@ash.compute(workgroup_size=4)
async def pointers(out: ash.Storage[f32], ints: ash.Storage[u32], vecs: ash.Storage[vec2f], *,
                   local_invocation_index: u32):
    i = local_invocation_index
    x = f32(i)
    bump(ash.ptr(x), 0.5)
    bump(ash.ptr(x), 1.0)
    y = f32(10)
    swap(ash.ptr(x), ash.ptr(y))
    out[i] = x * 100 + y
    seed = u32(i)
    a = next_random(ash.ptr(seed), u32(0))
    b = next_random(ash.ptr(seed), u32(1))
    ints[i * 2] = a + b
    ints[i * 2 + 1] = seed
    v = vec2f(f32(i), 1.0)
    reflect_x(ash.ptr(v))
    grow(ash.ptr(v), 3.0)
    n = 0
    for j in range(3):
        add_twice(ash.ptr(n), j)
    vecs[i] = v + vec2f(f32(n), 0.0)


def _lcg(s: int) -> int:
    return (s * 1664525 + 1013904223) % 2**32


def _expected() -> tuple[list, list, list]:
    """By hand, in Python ints: what each invocation's locals end as."""
    out = [10 * 100 + (i + 1.5) for i in range(4)]         # x and y swapped
    ints = []
    for i in range(4):
        s1 = _lcg(i)
        ints += [i % 7 + s1 % 7 + 1, _lcg(s1)]
    vecs = [[-3.0 * i + 6, 3.0] for i in range(4)]          # n = 2 * (0 + 1 + 2)
    return out, ints, vecs


def test_a_helper_writes_the_callers_locals_through_pointers():
    out, ints, vecs = np.zeros(4, np.float32), np.zeros(8, np.uint32), np.zeros((4, 2),
                                                                                   np.float32)
    ash.run(pointers, out=out, ints=ints, vecs=vecs)
    want_out, want_ints, want_vecs = _expected()
    assert out.tolist() == want_out
    assert ints.tolist() == want_ints
    assert vecs.tolist() == want_vecs


def test_pointers_are_emitted_as_ptr_function_and_agree_with_lavapipe(crosscheck):
    text = to_wgsl(pointers)
    assert "fn bump(p: ptr<function, f32>, by: f32) {\n    *p += by;\n}" in text
    assert "fn swap(a: ptr<function, f32>, b: ptr<function, f32>) {\n    let t = *a;\n" \
        "    *a = *b;\n    *b = t;\n}" in text
    assert "    let s = *state;\n    *state = s * 1664525 + 1013904223;" in text
    assert "fn reflect_x(p: ptr<function, vec2f>) {\n    (*p).x = -(*p).x;\n}" in text
    assert "fn add_twice(p: ptr<function, i32>, j: i32) {\n    add(p, j);" in text
    # the variables pointed at are vars, even those assigned once
    assert "    var x = f32(i);\n    bump(&x, 0.5);" in text
    assert "    var seed = i;\n    let a = next_random(&seed, 0u);" in text
    assert "        add_twice(&n, j);" in text
    report = crosscheck(pointers, 1, out=np.zeros(4, np.float32),
                        ints=np.zeros(8, np.uint32), vecs=np.zeros((4, 2), np.float32))
    want_out, want_ints, want_vecs = _expected()
    assert report.gpu["out"].tolist() == want_out
    assert report.gpu["ints"].tolist() == want_ints
    assert report.gpu["vecs"].tolist() == want_vecs


def test_value_through_a_pointer_to_memory_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def k(buf: ash.Storage[u32]):
        p = ash.ptr(buf, 0)
        p.value = 1

    with pytest.raises(ash.ShaderError, match=r"\.value reads and writes through a pointer to "
                       r"a function-scope variable"):
        ash.run(k, buf=np.zeros(1, np.uint32))


def test_a_pointer_to_a_parameter_names_the_fix():
    def helper(x: f32) -> f32:
        bump(ash.ptr(x), 1.0)
        return x

    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[f32]):
        out[0] = helper(out[0])

    with pytest.raises(ash.ShaderError, match=r"a parameter: WGSL takes no address of one, "
                       r"copy it into a local first"):
        ash.run(k, out=np.array([2.0], np.float32))
    with pytest.raises(WGSLEmitError, match=r"`ash.ptr\(x\)` as a ptr<function, T> \(a "
                       r"parameter is not a local variable.*Fix: .*copy a parameter into one"):
        to_wgsl(k)


@ash.compute(workgroup_size=1)
async def copies_stay(out: ash.Storage[vec2f]):
    v = vec2f(1.0, 2.0)
    w = v                    # a copy in WGSL
    reflect_x(ash.ptr(v))    # writes v's x through the pointer
    out[0] = v
    out[1] = w


def test_a_store_through_a_pointer_changes_the_variable_not_its_copies(crosscheck):
    out = np.zeros((2, 2), np.float32)
    ash.run(copies_stay, out=out)
    assert out.tolist() == [[-1.0, 2.0], [1.0, 2.0]]
    report = crosscheck(copies_stay, 1, out=np.zeros((2, 2), np.float32))
    assert report.gpu["out"].tolist() == [[-1.0, 2.0], [1.0, 2.0]]
