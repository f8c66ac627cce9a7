"""Matrices judged on two sides: asyncshader's values and a real WebGPU implementation (wgpu on
Mesa's lavapipe, tests/gpu.py; skips, saying what to install, without it). See docs/oracle.md.

The same WGSL expressions (``mat3x2f(c0, c1, c2) * v``, ``u * m``, ``m1 * m2``, ``transpose``,
``determinant``, ``m + m``, ``m * s``) run on the GPU and in Python on asyncshader values, over
random f32 inputs. Expected values are computed here, from exact rationals: a product's
component is a sum of exact products, which WGSL lets be summed in any order in f32 (the
accuracy of ``dot``), so each side must lie within the standard bound of such a sum,
``n * 2**-24 * sum(|a_i * b_i|)`` past the exact value; ``+ - *`` by a scalar are correctly
rounded (either neighbour of the exact value). Determinants are judged on integer matrices
small enough that every order of the cofactor expansion is exact, as the WebGPU CTS does.
A column-major mix-up or a product taken the wrong way round gives other values entirely.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from gpu import Expr, evaluate, report

import asyncshader as ash

ROWS = 16
SHAPES = [(c, r) for c in (2, 3, 4) for r in (2, 3, 4)]
U = 2.0**-24


def columns(seed, cols, rows, scale=8.0, integers=False):
    rng = np.random.default_rng(seed)
    if integers:
        a = rng.integers(-6, 7, (ROWS, cols, rows)).astype(np.float32)
    else:
        a = (rng.standard_normal((ROWS, cols, rows)) * scale).astype(np.float32)
    return a


def mat_of(name, cols, rows):
    return f"mat{cols}x{rows}f({', '.join(f'{name}{k}' for k in range(cols))})"


def inputs_of(name, a):
    """Inputs ``name0`` ... of a (ROWS, C, R) array: one vecR per column."""
    cols, rows = a.shape[1:]
    return ({f"{name}{k}": f"vec{rows}f" for k in range(cols)},
            {f"{name}{k}": a[:, k, :] for k in range(cols)})


class Case:
    """One expression over matrices: its WGSL, its inputs, and per row the exact components
    with the error each may have."""

    def __init__(self, id, wgsl, result, inputs, values, python, expected):
        self.id, self.wgsl, self.result = id, wgsl, result
        self.inputs, self.values = inputs, values
        self.python = python  # row -> asyncshader's value (a vector or a scalar)
        self.expected = expected  # row -> [(exact Fraction, allowed error as Fraction), ...]
        self.rows = range(ROWS)

    def expr(self):
        return Expr(self.wgsl, self.inputs, self.result, self.values)


def dot_bound(xs, ys):
    """The exact sum of the products and the bound of an f32 sum of them in any order."""
    products = [Fraction(float(x)) * Fraction(float(y)) for x, y in zip(xs, ys)]
    magnitude = sum(abs(p) for p in products)
    return sum(products), Fraction(len(products) + 1) * Fraction(U) * magnitude


def rounded_bound(exact):
    """Correct rounding: within half an f32 ULP of the exact value, or one ULP to allow
    either neighbour."""
    ulp = np.spacing(np.float32(abs(float(exact))))
    return exact, Fraction(float(ulp))


def mats(a):
    m = getattr(ash, f"mat{a.shape[1]}x{a.shape[2]}f")
    return [m(a[i]) for i in range(ROWS)]


def vecs(a):
    v = getattr(ash, f"vec{a.shape[1]}f")
    return [v(*a[i].tolist()) for i in range(ROWS)]


def cases():
    out = []
    for n, (c, r) in enumerate(SHAPES):
        a = columns(n, c, r)
        v = columns(100 + n, 1, c)[:, 0]
        u = columns(200 + n, 1, r)[:, 0]
        ins, vals = inputs_of("c", a)
        m, vv, uu = mats(a), vecs(v), vecs(u)
        out.append(Case(
            f"mat{c}x{r}f * v", f"{mat_of('c', c, r)} * v", f"vec{r}f",
            {**ins, "v": f"vec{c}f"}, {**vals, "v": v},
            lambda i, m=m, vv=vv: m[i] * vv[i],
            lambda i, a=a, v=v, r=r: [dot_bound(a[i, :, j], v[i]) for j in range(r)]))
        out.append(Case(
            f"v * mat{c}x{r}f", f"u * {mat_of('c', c, r)}", f"vec{c}f",
            {**ins, "u": f"vec{r}f"}, {**vals, "u": u},
            lambda i, m=m, uu=uu: uu[i] * m[i],
            lambda i, a=a, u=u, c=c: [dot_bound(u[i], a[i, k]) for k in range(c)]))
        for k in range(r):
            out.append(Case(
                f"transpose(mat{c}x{r}f)[{k}]", f"transpose({mat_of('c', c, r)})[{k}]",
                f"vec{c}f", ins, vals, lambda i, m=m, k=k: ash.transpose(m[i])[k],
                lambda i, a=a, k=k: [(Fraction(float(x)), Fraction(0)) for x in a[i, :, k]]))
        b = columns(300 + n, c, r)
        bins, bvals = inputs_of("d", b)
        mb = mats(b)
        out.append(Case(
            f"(mat{c}x{r}f + mat{c}x{r}f)[last]",
            f"({mat_of('c', c, r)} + {mat_of('d', c, r)})[{c - 1}]", f"vec{r}f",
            {**ins, **bins}, {**vals, **bvals}, lambda i, m=m, mb=mb, c=c: (m[i] + mb[i])[c - 1],
            lambda i, a=a, b=b, c=c: [rounded_bound(Fraction(float(x)) + Fraction(float(y)))
                                      for x, y in zip(a[i, c - 1], b[i, c - 1])]))
        out.append(Case(
            f"(mat{c}x{r}f * 0.1f)[0]", f"({mat_of('c', c, r)} * 0.1f)[0]", f"vec{r}f",
            ins, vals, lambda i, m=m: (m[i] * ash.f32(0.1))[0],
            lambda i, a=a: [rounded_bound(Fraction(float(x)) * Fraction(float(np.float32(0.1))))
                            for x in a[i, 0]]))
    for (k, r), cols in itertools.product(SHAPES, (2, 3, 4)):  # matKxR * matCxK -> matCxR
        a, b = columns(400 + 10 * k + r, k, r), columns(500 + 10 * cols + k, cols, k)
        ins, vals = inputs_of("c", a)
        bins, bvals = inputs_of("d", b)
        ma, mb = mats(a), mats(b)
        for col in range(cols):
            out.append(Case(
                f"(mat{k}x{r}f * mat{cols}x{k}f)[{col}]",
                f"({mat_of('c', k, r)} * {mat_of('d', cols, k)})[{col}]", f"vec{r}f",
                {**ins, **bins}, {**vals, **bvals},
                lambda i, ma=ma, mb=mb, col=col: (ma[i] * mb[i])[col],
                lambda i, a=a, b=b, r=r, col=col: [dot_bound(a[i, :, j], b[i, col])
                                                   for j in range(r)]))
    for n in (2, 3, 4):
        a = columns(600 + n, n, n, integers=True)  # |e| <= 6: 6**4 < 2**21, every order exact
        ins, vals = inputs_of("c", a)
        m = mats(a)
        out.append(Case(
            f"determinant(mat{n}x{n}f)", f"determinant({mat_of('c', n, n)})", "f32",
            ins, vals, lambda i, m=m: ash.determinant(m[i]),
            lambda i, a=a: [(Fraction(round(np.linalg.det(a[i].astype(np.float64)))),
                             Fraction(0))]))
    return out


CASES = cases()


def _bad(case, row, got):
    got = list(got) if np.ndim(got) else [got]
    bad = []
    for j, (g, (exact, err)) in enumerate(zip(got, case.expected(row))):
        g = float(g)
        if not np.isfinite(g) or abs(Fraction(g) - exact) > err:
            bad.append(f"row {row} component {j}: {g!r}, exact {float(exact)!r} +- {float(err)}")
    return bad


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_asyncshader_matrices_are_within_wgsl_accuracy(case):
    bad = [b for row in case.rows for b in _bad(case, row, case.python(row))]
    assert not bad, report(bad, case)


@pytest.fixture(scope="module")
def gpu_results(gpu_device):
    return dict(zip((c.id for c in CASES), evaluate(gpu_device, [c.expr() for c in CASES])))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_lavapipe_matrices_are_within_wgsl_accuracy(case, gpu_results):
    out = gpu_results[case.id]
    bad = [b for row in case.rows for b in _bad(case, row, out[row])]
    assert not bad, report(bad, case)



#: expressions asyncshader refuses (ShaderTypeError), as WGSL on the GPU must refuse them too;
#: M is a mat2x2f, N a mat3x3f
REFUSED = ["-M", "M / 2.0", "M + 1.0", "M + N", "M * vec3f(1.0)", "vec3f(1.0) * M", "M * N",
           "M * i32(2)", "M < M"]


def _shader_expr(expr):
    """``expr`` in a WGSL expression of type vec2f (column 0 of the result, or a comparison's)."""
    wgsl = expr.replace("M", "mat2x2f(c0, c1)").replace("N", "mat3x3f()")
    wgsl = wgsl.replace("i32(2)", "2i")
    if "<" in expr:
        return f"select(vec2f(0.0), vec2f(1.0), all(({wgsl})[0]))"
    return f"vec2f(({wgsl})[0].x)"


def _gpu(device, expr):
    ones = np.ones((1, 2), np.float32)
    return evaluate(device, [Expr(_shader_expr(expr), {"c0": "vec2f", "c1": "vec2f"}, "vec2f",
                                  {"c0": ones, "c1": ones})])[0]


def test_the_refusal_harness_compiles_a_valid_expression(gpu_device):
    assert _gpu(gpu_device, "M * 2.0").tolist() == [[2.0, 2.0]]  # column 0 of 2 * M


@pytest.mark.parametrize("expr", REFUSED)
def test_what_asyncshader_refuses_wgsl_refuses_too(expr, gpu_device):
    ns = {"M": ash.mat2x2f(1, 2, 3, 4), "N": ash.mat3x3f(), "vec3f": ash.vec3f,
          "i32": ash.i32}
    with pytest.raises(ash.ShaderTypeError):
        eval(expr, ns)
    with pytest.raises(Exception, match="[Vv]alidation|[Pp]ars"):
        _gpu(gpu_device, expr)
