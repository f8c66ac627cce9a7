"""to_wgsl for frexp and modf, whose WGSL results are structs source cannot name
(``__frexp_result_f32 {fract, exp}``, ``__modf_result_vec3_f32 {fract, whole}`` ...): a member
of the call, a result held in a local, and one unpacked into names, for scalars, vectors and
f16; cross-checked on lavapipe against numpy's frexp and modf. What would need the type
spelled (a helper's parameter or result, a local declared before its block) or indexes the
result is an error naming the line."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f16, f32, i32, u32, vec3f, vec3i
from asyncshader.emit import WGSLEmitError, to_wgsl

# normal numbers only: WGSL leaves frexp of 0, subnormals, inf and NaN open
X = np.array([1.5, -0.75, 3.0, 1e-3, -2.5e4, 0.1, 7.25, -1.0], np.float32)


@ash.compute(workgroup_size=8)
async def split_scalars(x: ash.Storage[f32], parts: ash.Storage[f32], powers: ash.Storage[i32],
                        wholes: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    powers[i] = ash.frexp(x[i]).exp  # a member of the call
    r = ash.frexp(x[i])  # a local holding the result
    parts[i] = r.fract
    f, w = ash.modf(x[i])  # unpacked
    parts[i + 8] = f
    wholes[i] = w


def test_frexp_and_modf_of_scalars_emit_their_result_structs(crosscheck):
    text = to_wgsl(split_scalars)
    assert "powers[i] = frexp(x[i]).exp;" in text
    assert "let r = frexp(x[i]);\n    parts[i] = r.fract;" in text
    assert "let modf1 = modf(x[i]);\n    let f = modf1.fract;\n    let w = modf1.whole;" in text
    report = crosscheck(split_scalars, 1, x=X, parts=np.zeros(16, np.float32),
                        powers=np.zeros(8, np.int32), wholes=np.zeros(8, np.float32))
    mantissa, exponent = np.frexp(X)
    fraction, integral = np.modf(X)
    assert report.gpu["powers"].tolist() == exponent.tolist()  # e.g. 1.5 = 0.75 * 2**1
    assert report.gpu["parts"].tolist() == mantissa.tolist() + fraction.tolist()
    assert report.gpu["wholes"].tolist() == integral.tolist()  # modf(-0.75): (-0.75, -0.0)


@ash.compute(workgroup_size=4)
async def split_vectors(v: ash.Storage[vec3f], e: ash.Storage[vec3i], w: ash.Storage[vec3f],
                        *, local_invocation_index: u32):
    i = local_invocation_index
    parts = ash.frexp(v[i])
    e[i] = parts.exp
    v[i] = parts.fract
    w[i] = ash.modf(v[i] * 8.0).whole


def test_frexp_and_modf_of_vectors_have_vector_members(crosscheck):
    text = to_wgsl(split_vectors)
    assert "let parts = frexp(v[i]);\n    e[i] = parts.exp;\n    v[i] = parts.fract;" in text
    assert "w[i] = modf(v[i] * 8.0).whole;" in text
    v = np.array([[1.5, -3.0, 0.3], [5.0, 6.5, -7.0], [0.01, 100.0, 2.0], [9.0, -0.5, 1.0]],
                 np.float32)
    report = crosscheck(split_vectors, 1, v=v, e=np.zeros((4, 3), np.int32),
                        w=np.zeros((4, 3), np.float32))
    mantissa, exponent = np.frexp(v)
    assert report.gpu["e"].tolist() == exponent.tolist()
    assert report.gpu["v"].tolist() == mantissa.tolist()
    assert report.gpu["w"].tolist() == np.trunc(mantissa * 8).tolist()


@ash.compute(workgroup_size=4)
async def split_halves(x: ash.Storage[f16], out: ash.Storage[f16], exp: ash.Storage[i32], *,
                       local_invocation_index: u32):
    i = local_invocation_index
    m, k = ash.frexp(x[i])
    out[i] = m + ash.modf(x[i]).fract
    exp[i] = k


def test_frexp_and_modf_of_f16(crosscheck):
    """naga types frexp(f16).exp as an i16 and then rejects it: the f16 is widened to f32 (f32
    holds every f16 exactly, and the fraction's 11 bits fit back into an f16)."""
    text = to_wgsl(split_halves)
    assert text.startswith("enable f16;")
    assert "let frexp1 = frexp(f32(x[i]));\n    let m = f16(frexp1.fract);\n    let k = " \
        "frexp1.exp;" in text
    assert "out[i] = m + modf(x[i]).fract;" in text
    x = np.array([1.5, -6.25, 0.375, 1000.0], np.float16)
    report = crosscheck(split_halves, 1, x=x, out=np.zeros(4, np.float16),
                        exp=np.zeros(4, np.int32))
    mantissa, exponent = np.frexp(x)
    assert report.gpu["exp"].tolist() == exponent.tolist() == [1, 3, -1, 10]
    assert report.gpu["out"].tolist() == (mantissa + np.modf(x)[0]).tolist()


# ------------------------------------------------------------------------ what needs the name
def takes_parts(p):
    return p.fract


@ash.compute(workgroup_size=1)
async def passes_the_result(out: ash.Storage[f32]):
    out[0] = takes_parts(ash.frexp(out[0]))


def makes_parts(x: f32):
    return ash.modf(x)


@ash.compute(workgroup_size=1)
async def returns_the_result(out: ash.Storage[f32]):
    out[0] = makes_parts(out[0]).whole


@ash.compute(workgroup_size=1)
async def declared_in_a_block(out: ash.Storage[f32]):
    if out[0] > 0.0:
        r = ash.frexp(out[0])
    else:
        r = ash.frexp(-out[0])
    out[0] = r.fract


@ash.compute(workgroup_size=1)
async def indexes_the_result(out: ash.Storage[f32]):
    out[0] = ash.frexp(out[0])[0]


@ash.compute(workgroup_size=1)
async def of_an_integer(out: ash.Storage[u32]):
    out[0] = ash.modf(out[0]).whole


@ash.compute(workgroup_size=1)
async def unpacks_three(out: ash.Storage[f32]):
    a, b, c = ash.modf(out[0])
    out[0] = a + b + c


@pytest.mark.parametrize("kernel, message", [
    (passes_the_result, r"passes_the_result: passing `frexp\(out\[0\]\)` to takes_parts, a "
     r"__frexp_result_f32 \(a type WGSL source cannot name\).*Fix: pass or return its members"),
    (returns_the_result, r"makes_parts: returning `modf\(x\)` from makes_parts, a "
     r"__modf_result_f32"),
    (declared_in_a_block, r"declared_in_a_block: 'r', first assigned in a block and used after "
     r"it \(declared before the block, with its type\), a __frexp_result_f32"),
    (indexes_the_result, r"indexes_the_result: indexing a __frexp_result_f32.*Fix: read its "
     r"members by name: r.fract, r.exp"),
    (of_an_integer, r"of_an_integer: modf of a u32 .*Fix: modf takes an f32 or f16 scalar or "
     r"vector"),
    (unpacks_three, r"unpacks_three: unpacking a __modf_result_f32 into 3 names \(it has 2: "
     r"fract, whole\)"),
])
def test_what_would_spell_the_result_type_is_an_error_naming_the_line(kernel, message):
    with pytest.raises(WGSLEmitError, match=r"test_to_wgsl_results.py:\d+: " + message):
        to_wgsl(kernel)


def test_a_temporary_takes_a_name_nothing_else_in_the_function_takes():
    @ash.compute(workgroup_size=1)
    async def crowded(out: ash.Storage[f32]):
        frexp1 = out[0]
        f, e = ash.frexp(frexp1)
        out[0] = f + f32(e)

    text = to_wgsl(crowded)
    assert "let frexp1 = out[0];\n    let frexp2 = frexp(frexp1);" in text
    assert "let f = frexp2.fract;" in text and "let e = frexp2.exp;" in text
