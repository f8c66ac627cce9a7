"""Fragment derivatives (dpdx*, dpdy*, fwidth*) against the WebGPU CTS vectors in
``tests/data/derivative_cases.json``.

Mirrored CTS tests (``webgpu:shader,execution,expression,call,builtin,<builtin>:f32``, every
builtin with ``vectorize`` in {undefined, 2, 3, 4} x ``non_uniform_discard`` in {false, true},
and ``webgpu:shader,execution,statement,discard:derivatives``):

* dpdx/dpdy family (``derivatives.ts runDerivativeTest``): each quad holds two cases; along the
  derivative axis the larger coordinate holds ``input0``, the smaller ``input1``, so the expected
  value is ``input0 - input1``. ``*Fine`` must match its own row (dpdx) / column (dpdy);
  ``dpdx``, ``dpdy`` and the coarse ones may instead match the other pair of the quad (for a
  vector, the whole vector matches one pair). With ``non_uniform_discard`` the invocations with
  ``inv_idx == 0`` (left column for dpdx, top row for dpdy) discard after loading their value;
  they are not checked, the survivors are.
* fwidth family (``fwidth.ts runFWidthTest``): the quad holds v0..v3 by quad id; ``fwidthFine``
  at id k must match interval k, ``fwidth``/``fwidthCoarse`` any of the four (``anyOf``); vector
  component v of quad i is case ``i*N + v``, each component checked alone; with discard, id 0
  discards.

Intervals are the CTS's own (``FP.f32`` correctly rounded, subnormals possibly flushed): an
``"any"`` interval accepts everything including NaN and infinities; otherwise the result,
read as f32, must lie in [begin, end] numerically (so -0 == 0); the ``*_bits`` fields are used.
The CTS draws one 2x2 viewport per quad; here a ``2*n`` x 2 grid shades n quads in one dispatch
(quad q at x = 2q, 2q+1), which keeps the per-quad arrangement and the checks identical.

Besides the CTS rules, the library's documented choice (spec digest §1.4) is checked with the
same intervals: coarse derivatives use the pair containing quad id 0, and the plain builtins
follow the dispatch's ``derivatives=`` option.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash
from asyncshader import f32, vec4f

DATA = json.loads((DATA_DIR / "derivative_cases.json").read_text())
DPD = DATA["dpdx_dpdy"]
SCALAR_CASES = DPD["scalar_cases"]
CTS_QUADS = {"x": DPD["quads_dpdx"], "y": DPD["quads_dpdy"]}
FWIDTH_CASES = {
    "subset": DATA["fwidth"]["subset_cases_values_in_{-1,-0.125,0.125,10}"],
    "edge": DATA["fwidth"]["sample_edge_cases"],
}
DISCARD_CASE = DATA["discard_derivatives_case"]

MODES = ["coarse", "fine"]
VECTORIZE = [1, 2, 3, 4]  # 1 = the CTS's `vectorize: undefined` (f32)
DPD_BUILTINS = ["dpdx", "dpdx_coarse", "dpdx_fine", "dpdy", "dpdy_coarse", "dpdy_fine"]
FWIDTH_BUILTINS = ["fwidth", "fwidth_coarse", "fwidth_fine"]


# ---------------------------------------------------------------------------------- intervals
class Interval(NamedTuple):
    """A CTS f32 acceptance interval; ``unbounded`` accepts anything (NaN and infinities too)."""

    lo: float
    hi: float
    unbounded: bool

    def contains(self, value: object) -> bool:
        if self.unbounded:
            return True
        v = float(np.float32(value))
        return self.lo <= v <= self.hi  # NaN fails; -0.0 == 0.0


def bits_to_f32(bits: str) -> np.float32:
    """An f32 from the JSON's hex IEEE-754 bits (authoritative over the JSON numbers); the JSON
    writes non-finite values as "inf", "-inf" or "NaN"."""
    if not bits.startswith("0x"):
        return np.float32(bits)
    return np.array([int(bits, 16)], np.uint32).view(np.float32)[0]


def interval(d: dict) -> Interval:
    if d["any"]:
        return Interval(-math.inf, math.inf, True)
    return Interval(float(bits_to_f32(d["begin_bits"])), float(bits_to_f32(d["end_bits"])), False)


def matches(vector: list[Interval], result: np.ndarray) -> bool:
    """Every component of ``result`` lies in the interval of that component."""
    return all(iv.contains(r) for iv, r in zip(vector, np.atleast_1d(result)))


# ------------------------------------------------------------------------------------ layouts
class QuadLayout(NamedTuple):
    """Values and acceptance intervals of n quads, by quad id: ``values[q][id]`` (N f32),
    ``own[q][id]`` (N intervals: the pair of that invocation's row / column / fine interval),
    ``alternatives[q][id]`` (N-interval vectors that the loose CTS rule accepts: the whole
    result must lie in one of them, or with ``componentwise`` each component in one of them),
    ``id0[q]`` (N intervals: the pair or fine interval of quad id 0)."""

    values: list
    own: list
    alternatives: list
    id0: list
    width: int  # N
    componentwise: bool = False


def dpd_layout_from_cts_quads(axis: str) -> QuadLayout:
    """The JSON's 128 scalar quads for dpdx (axis "x") or dpdy ("y"), as the CTS lays them out."""
    values, own, alts, id0 = [], [], [], []
    for quad in CTS_QUADS[axis]:
        values.append([[bits_to_f32(b)] for b in quad["values_bits_by_quad_id"]])
        own.append([[interval(d)] for d in quad["expected_fine_by_quad_id"]])
        alts.append([[[interval(d)] for d in accepted]
                     for accepted in quad["accepted_coarse_or_plain_by_quad_id"]])
        id0.append(own[-1][0])
    return QuadLayout(values, own, alts, id0, 1)


def dpd_layout_from_scalar_cases(axis: str, n: int) -> QuadLayout:
    """CTS ``packScalarsToVector``: vector case i, component k is scalar case min(i*n+k, 255);
    quad q holds vector cases 2q (row 0 for dpdx, column 0 for dpdy) and 2q+1; the larger
    coordinate along ``axis`` holds input0, the smaller input1."""
    count = len(SCALAR_CASES)
    vectors = [[SCALAR_CASES[min(i * n + k, count - 1)] for k in range(n)]
               for i in range(-(-count // n))]
    assert len(vectors) % 2 == 0
    values, own, alts, id0 = [], [], [], []
    for q in range(len(vectors) // 2):
        pair = [[interval(c["expected_interval"]) for c in vectors[2 * q + p]] for p in (0, 1)]
        qv, qo, qa = [], [], []
        for quad_id in range(4):
            tx, ty = quad_id & 1, quad_id >> 1
            case_ndx, input_ndx = (ty, tx) if axis == "x" else (tx, ty)
            key = "input0_bits" if input_ndx == 1 else "input1_bits"
            qv.append([bits_to_f32(c[key]) for c in vectors[2 * q + case_ndx]])
            qo.append(pair[case_ndx])
            qa.append([pair[case_ndx], pair[1 - case_ndx]])
        values.append(qv)
        own.append(qo)
        alts.append(qa)
        id0.append(pair[0])
    return QuadLayout(values, own, alts, id0, n)


def dpd_layout(axis: str, n: int) -> QuadLayout:
    return dpd_layout_from_cts_quads(axis) if n == 1 else dpd_layout_from_scalar_cases(axis, n)


def fwidth_layout(cases: list[dict], n: int) -> QuadLayout:
    """``runFWidthTest``: quad i, component v holds case i*n+v (past the end: 0, unchecked)."""
    values, own, alts, id0 = [], [], [], []
    unchecked = Interval(-math.inf, math.inf, True)
    for i in range(-(-len(cases) // n)):
        comps = [cases[i * n + v] if i * n + v < len(cases) else None for v in range(n)]
        fine = [[interval(c["expected_fine_per_invocation"][k]) if c else unchecked
                 for c in comps] for k in range(4)]
        values.append([[bits_to_f32(c["quad_values_bits"][k]) if c else np.float32(0)
                        for c in comps] for k in range(4)])
        own.append(fine)
        alts.append([fine] * 4)
        id0.append(fine[0])
    # anyOf(...) is judged per component: the CTS reads and compares each f32 alone
    return QuadLayout(values, own, alts, id0, n, componentwise=True)


def grid_of(layout: QuadLayout) -> np.ndarray:
    """The per-pixel input: quad q at x = 2q, 2q+1; shape (2, 2n) or (2, 2n, N)."""
    nq = len(layout.values)
    grid = np.zeros((2, 2 * nq, layout.width), np.float32)
    for q, by_id in enumerate(layout.values):
        for quad_id, comps in enumerate(by_id):
            grid[quad_id >> 1, 2 * q + (quad_id & 1)] = comps
    return grid[:, :, 0] if layout.width == 1 else grid


# ------------------------------------------------------------------------------------ shaders
def _shader(builtin: str) -> ash.FragmentShader:
    op = getattr(ash, builtin)

    async def shade(v: ash.Input, discard_ids: ash.Uniform, *, position: vec4f):
        quad_id = (int(position.x) & 1) + 2 * (int(position.y) & 1)
        if quad_id in discard_ids:  # CTS: after loading the input, before the builtin
            ash.discard()
        return await op(v)

    shade.__name__ = shade.__qualname__ = f"{builtin}_shader"
    return ash.fragment(shade)


SHADERS = {name: _shader(name) for name in DPD_BUILTINS + FWIDTH_BUILTINS}


def run_layout(builtin: str, layout: QuadLayout, mode: str, discard_ids: frozenset,
               seed: int = 0) -> ash.FragmentResult:
    grid = grid_of(layout)
    result = ash.run_fragments(SHADERS[builtin], grid.shape[1], 2, v=grid,
                               discard_ids=discard_ids, derivatives=mode,
                               schedule=ash.Random(seed), max_live_quads=8)
    expected_mask = np.ones((2, grid.shape[1]), bool)
    for quad_id in discard_ids:
        expected_mask[quad_id >> 1, (quad_id & 1)::2] = False
    np.testing.assert_array_equal(result.mask, expected_mask)
    return result


def failures(result: ash.FragmentResult, layout: QuadLayout, rule: str,
             unchecked: frozenset) -> list[str]:
    """Invocations whose result the rule rejects. Rules: "fine" (own interval), "cts_loose"
    (any of the CTS alternatives), "id0" (the interval of quad id 0's pair)."""
    out = result.output
    bad = []
    for q in range(len(layout.values)):
        for quad_id in range(4):
            if quad_id in unchecked:
                continue
            x, y = 2 * q + (quad_id & 1), quad_id >> 1
            got = out[y, x]
            if rule == "fine":
                ok = matches(layout.own[q][quad_id], got)
            elif rule == "id0":
                ok = matches(layout.id0[q], got)
            elif layout.componentwise:
                ok = all(any(alt[k].contains(g) for alt in layout.alternatives[q][quad_id])
                         for k, g in enumerate(np.atleast_1d(got)))
            else:
                ok = any(matches(alt, got) for alt in layout.alternatives[q][quad_id])
            if not ok:
                bad.append(f"quad {q} id {quad_id}: got {got!r}, values "
                           f"{[list(map(float, v)) for v in layout.values[q]]}, "
                           f"own {layout.own[q][quad_id]}")
    return bad


def assert_rule(result, layout, rule, unchecked=frozenset()) -> None:
    bad = failures(result, layout, rule, unchecked)
    assert not bad, f"{len(bad)} invocations fail the {rule!r} rule:\n" + "\n".join(bad[:8])


# ------------------------------------------------------------------------------- data sanity
def test_vector_file_is_the_documented_copy():
    """tests/data/README.md: the file is the digest's copy, byte for byte (sha256 given there)."""
    data_dir = DATA_DIR
    digest = hashlib.sha256((data_dir / "derivative_cases.json").read_bytes()).hexdigest()
    assert digest == "5ef180bbebdcaa8b50c7436b3d4d065806053942cec5744d5475d80f5a8ed2b2"
    assert digest in (data_dir / "README.md").read_text()


def test_interval_parsing_accepts_the_stored_rne_results():
    """derivatives.cache.ts: each stored RNE difference lies in its CTS interval (parser check)."""
    for case in SCALAR_CASES:
        iv = interval(case["expected_interval"])
        rne = bits_to_f32(case["f32_rne_bits"])
        assert iv.contains(rne), case
        with np.errstate(over="ignore"):
            diff = bits_to_f32(case["input0_bits"]) - bits_to_f32(case["input1_bits"])
        assert diff.tobytes() == rne.tobytes()
    assert sum(interval(c["expected_interval"]).unbounded for c in SCALAR_CASES) == 26
    assert not Interval(0.0, 0.0, False).contains(np.float32("nan"))
    assert Interval(0.0, 0.0, False).contains(np.float32(-0.0))
    assert Interval(-math.inf, math.inf, True).contains(np.float32("nan"))


@pytest.mark.parametrize("axis", ["x", "y"])
def test_scalar_packing_reproduces_the_cts_quads(axis):
    """derivatives.ts layout: packing the 256 scalar cases (N=1) gives the JSON's 128 quads."""
    from_quads = dpd_layout_from_cts_quads(axis)
    from_cases = dpd_layout_from_scalar_cases(axis, 1)
    assert len(from_quads.values) == len(from_cases.values) == 128
    for a, b in zip(from_quads.values, from_cases.values):
        assert np.array(a).tobytes() == np.array(b).tobytes()
    assert from_quads.own == from_cases.own
    assert from_quads.alternatives == from_cases.alternatives


# ------------------------------------------------------------------------------------- runs
@functools.cache
def run_case(builtin: str, cases: str, n: int, mode: str,
             discard: bool) -> tuple[QuadLayout, ash.FragmentResult, frozenset]:
    """One CTS run (cached, so that the CTS-rule and documented-variant tests share it):
    ``cases`` is "cts" for dpdx/dpdy, "subset" or "edge" for fwidth."""
    if builtin.startswith("dpd"):
        axis = builtin[3]
        layout = dpd_layout(axis, n)
        unchecked = frozenset(CTS_QUADS[axis][0]["discard_variant_unchecked_quad_ids"]) \
            if discard else frozenset()
        assert unchecked in (frozenset(), frozenset({0, 2 if axis == "x" else 1}))
    else:
        layout = fwidth_layout(FWIDTH_CASES[cases], n)
        unchecked = frozenset({0}) if discard else frozenset()
    result = run_layout(builtin, layout, mode, unchecked, seed=len(builtin) + n)
    assert result.output.shape == ((2, 2 * len(layout.values)) + ((n,) if n > 1 else ()))
    return layout, result, unchecked


def documented_rule(builtin: str, mode: str) -> str:
    """The library's choice (spec §1.4): fine variants their own pair, coarse ones quad id 0's
    pair, the plain ones whatever ``derivatives=`` says."""
    variant = builtin.split("_")[1] if "_" in builtin else mode
    return "fine" if variant == "fine" else "id0"


# ------------------------------------------------------------------------------ dpdx and dpdy
@pytest.mark.parametrize("discard", [False, True], ids=["all", "non_uniform_discard"])
@pytest.mark.parametrize("n", VECTORIZE, ids=["f32", "vec2", "vec3", "vec4"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("builtin", DPD_BUILTINS)
def test_dpdx_dpdy_meet_cts_intervals(builtin, mode, n, discard):
    """builtin,dpdx*/dpdy*:f32 (derivatives.ts): every checked invocation within the CTS rule."""
    layout, result, unchecked = run_case(builtin, "cts", n, mode, discard)
    assert_rule(result, layout, "fine" if builtin.endswith("fine") else "cts_loose", unchecked)


@pytest.mark.parametrize("discard", [False, True], ids=["all", "non_uniform_discard"])
@pytest.mark.parametrize("n", VECTORIZE, ids=["f32", "vec2", "vec3", "vec4"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("builtin", ["dpdx", "dpdx_coarse", "dpdy", "dpdy_coarse"])
def test_dpdx_dpdy_follow_the_documented_variant(builtin, mode, n, discard):
    """derivatives.ts intervals, spec §1.4: coarse = id 0's pair; plain follows derivatives=."""
    layout, result, unchecked = run_case(builtin, "cts", n, mode, discard)
    assert_rule(result, layout, documented_rule(builtin, mode), unchecked)


# ------------------------------------------------------------------------------------- fwidth
@pytest.mark.parametrize("discard", [False, True], ids=["all", "non_uniform_discard"])
@pytest.mark.parametrize("n", VECTORIZE, ids=["f32", "vec2", "vec3", "vec4"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("builtin", FWIDTH_BUILTINS)
@pytest.mark.parametrize("cases", ["subset", "edge"])
def test_fwidth_meets_cts_intervals(cases, builtin, mode, n, discard):
    """builtin,fwidth*:f32 (fwidth.ts): Fine per invocation, fwidth/fwidthCoarse anyOf the 4."""
    layout, result, unchecked = run_case(builtin, cases, n, mode, discard)
    assert_rule(result, layout, "fine" if builtin.endswith("fine") else "cts_loose", unchecked)


@pytest.mark.parametrize("discard", [False, True], ids=["all", "non_uniform_discard"])
@pytest.mark.parametrize("n", VECTORIZE, ids=["f32", "vec2", "vec3", "vec4"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("builtin", ["fwidth", "fwidth_coarse"])
@pytest.mark.parametrize("cases", ["subset", "edge"])
def test_fwidth_follows_the_documented_variant(cases, builtin, mode, n, discard):
    """fwidth.ts intervals, spec §1.4: fwidthCoarse = id 0's interval; fwidth obeys derivatives=."""
    layout, result, unchecked = run_case(builtin, cases, n, mode, discard)
    assert_rule(result, layout, documented_rule(builtin, mode), unchecked)


def test_fwidth_edge_cases_include_unbounded_intervals():
    """fwidth.cache.ts: the 40 edge cases mix bounded and unbounded ("any") intervals."""
    kinds = {interval(iv).unbounded for c in FWIDTH_CASES["edge"]
             for iv in c["expected_fine_per_invocation"]}
    assert kinds == {True, False}
    assert len(FWIDTH_CASES["subset"]) == 256 and len(FWIDTH_CASES["edge"]) == 40


# ------------------------------------------------------------------------ discard.spec.ts case
@ash.fragment
async def discard_then_derivatives(uniform_values: ash.Uniform, *, position: vec4f):
    lsb_x, lsb_y = int(position.x) & 1, int(position.y) & 1
    left_sel = 4 if lsb_y == 1 else 2
    right_sel = 3 if lsb_y == 1 else 1
    uidx = right_sel if lsb_x == 1 else left_sel
    if (lsb_x | lsb_y) == 0:
        ash.discard()  # before the load: the helper still loads and feeds its value
    v = f32(uniform_values[uidx])
    return {"dx": await ash.dpdx(v), "dy": await ash.dpdy(v),
            "dx_coarse": await ash.dpdx_coarse(v), "dy_coarse": await ash.dpdy_coarse(v),
            "dx_fine": await ash.dpdx_fine(v), "dy_fine": await ash.dpdy_fine(v)}


@ash.fragment
async def discard_then_derivatives_storage(uniform_values: ash.Uniform, atomic_index: ash.Storage,
                                           output: ash.Storage, *, position: vec4f):
    lsb_x, lsb_y = int(position.x) & 1, int(position.y) & 1
    left_sel = 4 if lsb_y == 1 else 2
    right_sel = 3 if lsb_y == 1 else 1
    uidx = right_sel if lsb_x == 1 else left_sel
    if (lsb_x | lsb_y) == 0:
        ash.discard()
    v = f32(uniform_values[uidx])
    idx = await ash.atomic_add((atomic_index, 0), 1)  # helpers: no effect, 0 back
    dx = await ash.dpdx(v)
    dy = await ash.dpdy(v)
    output[idx, 0] = dx
    output[idx, 1] = dy
    return ash.vec2u(idx, idx)


# The quad's values by id are [4, 1, 7, 4] (uniform_values_x [4, 1, 4, 4, 7] selected by uidx;
# id 0 is a helper but, discard being demote-to-helper, still loads 4). CTS accepts +-3; this
# implementation must give exactly dx = -3, dy = +3 for every variant: coarse dx = P1 - P0 =
# 1 - 4, dy = P2 - P0 = 7 - 4; fine dx = 1 - 4 (top) and 4 - 7 (bottom), dy = 7 - 4 (left) and
# 4 - 1 (right). All operands are small integers, so the f32 RNE differences are exact.
DISCARD_EXPECTED = {"dx": -3.0, "dy": 3.0}


@pytest.mark.parametrize("size", [2, 64])
@pytest.mark.parametrize("mode", MODES)
def test_discard_derivatives(mode, size):
    """statement,discard:derivatives (useStorageBuffers=false): dx = -3, dy = +3 at ids 1..3."""
    assert DISCARD_CASE["quad_values_by_quad_id"] == [4.0, 1.0, 7.0, 4.0]
    assert DISCARD_CASE["expected"]["dx_any_variant"] == DISCARD_EXPECTED["dx"]
    assert DISCARD_CASE["expected"]["dy_any_variant"] == DISCARD_EXPECTED["dy"]
    r = ash.run_fragments(discard_then_derivatives, size, size,
                          uniform_values=DISCARD_CASE["uniform_values_x"], derivatives=mode,
                          schedule=ash.Random(size), max_live_quads=4)
    discarded = np.zeros((size, size), bool)
    discarded[0::2, 0::2] = True
    np.testing.assert_array_equal(r.mask, ~discarded)
    for name, field in r.output.items():
        want = DISCARD_EXPECTED[name[:2]]
        assert (field[~discarded] == want).all(), (name, field[:2, :2])
        assert (field[discarded] == 0).all()  # framebuffer untouched there


@pytest.mark.parametrize("mode", MODES)
def test_discard_derivatives_storage(mode):
    """statement,discard:derivatives (useStorageBuffers=true): 3/4 of the slots hold (-3, 3)."""
    size = 64
    atomic_index = np.zeros(1, np.uint32)
    output = np.zeros((size * size, 2), np.float32)
    r = ash.run_fragments(discard_then_derivatives_storage, size, size,
                          uniform_values=DISCARD_CASE["uniform_values_x"],
                          atomic_index=atomic_index, output=output, derivatives=mode,
                          schedule=ash.Random(7), max_live_quads=4)
    written = 3 * size * size // 4
    assert atomic_index[0] == written
    np.testing.assert_array_equal(output[:written], np.tile([-3.0, 3.0], (written, 1)))
    assert (output[written:] == 0).all()
    indices = r.output[..., 0][r.mask]
    assert sorted(indices.tolist()) == list(range(written))


@ash.fragment
async def mixed_widths(*, position: vec4f):
    v = ash.vec3f(1.0, 2.0, 3.0) if position.x < 1 else ash.vec2f(1.0, 2.0)
    return await ash.dpdx(v)  # MIXED: the line the error names


class _Resumes(ash.Instrument):
    def invocation_resumed(self, inv):  # (forces the general loop)
        pass


@pytest.mark.parametrize("how", [{}, {"schedule": ash.Random(1)},
                                 {"instruments": [_Resumes()]}],
                         ids=["lean", "random order", "general loop"])
def test_values_that_do_not_combine_are_an_error_naming_the_quad_and_the_line(how):
    """WGSL types an expression once, so every member of a quad brings dpdx the same type;
    in Python one can bring a vec3f and another a vec2f. That is the shader's error, with the
    quad, the call and what each member brought, on every loop; not a TypeError from inside
    the resolver."""
    with pytest.raises(ash.ShaderError) as info:
        ash.run_fragments(mixed_widths, 2, 2, **how)
    msg = str(info.value)
    line = next(n for n, text in enumerate(Path(__file__).read_text().splitlines(), 1)
                if "# MIXED" in text)
    assert msg.startswith("dpdx() in quad at (0,0) at ")
    assert f"test_derivatives.py:{line}: return await ash.dpdx(v)" in msg.splitlines()[0]
    assert "fragment (0,0) [quad id 0]: vec3f(1.0, 2.0, 3.0)" in msg
    assert "fragment (1,0) [quad id 1]: vec2f(1.0, 2.0)" in msg
    assert "cannot combine vec2f with vec3f" in msg and "Fix: give dpdx() the same type" in msg
    assert isinstance(info.value.__cause__, TypeError)
    if how:  # (the lean case is compared with the general loop below)
        return
    # the lean rounds hand the round to the in-order rounds: the same partial trace
    with pytest.raises(ash.ShaderError) as general:
        ash.run_fragments(mixed_widths, 2, 2, instruments=[_Resumes()])
    assert (info.value.asyncshader_trace.to_json()
            == general.value.asyncshader_trace.to_json())
    assert info.value.asyncshader_trace.steps == 4
