"""The WebGPU CTS's fragment-stage vectors run through WGSL source: derivatives
(tests/data/derivative_cases.json: ``dpdx_dpdy`` and ``fwidth``) and quad operations
(tests/data/quad_cases.json: ``fragment_all_active``), each shader written as the CTS writes it
and loaded by ``ash.load_wgsl``, shaded by ``ash.run_fragments`` (under the coroutine runtime
and under ``ash.Lockstep()``), checked against the vectors' own expected intervals and cells.
tests/collectives/test_derivatives.py and tests/collectives/test_quads.py run the same vectors
as Python shaders.

Derivatives (CTS ``derivatives.ts`` / ``fwidth.ts``): the fragment reads its value from a buffer
at ``quad * 4 + inv_idx`` (``inv_idx`` the quad id, ``x % 2 + (y % 2) * 2``), with
``non_uniform_discard`` discards after loading it, and returns the builtin's result. The CTS
draws one 2x2 viewport per quad; here a 2n x 2 target holds the n quads side by side (quad q at
x = 2q, 2q+1), which keeps each quad's arrangement. Rules (from the data's ``check_rule``):
``*Fine`` must lie in its own interval; the plain and ``*Coarse`` forms in any interval the data
accepts for that invocation; discarded invocations are not checked, but their value still feeds
their quad. An ``"any"`` interval accepts everything; the ``*_bits`` fields are authoritative.

Every vector is run (the scalar forms, ``vectorize`` undefined): the whole file takes about a
second; the fwidth vectors are the data's ``subset`` and ``edge`` sections (the file holds no
other), and the ``discard.spec.ts`` derivatives vector (``discard_derivatives_case``)."""

import json

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash

#: the schedules each vector runs under: the coroutine runtime's default, and Lockstep
RUNS = [{}, {"schedule": ash.Lockstep(), "sanitize": "off"}]
DERIV = json.loads((ROOT / "tests" / "data" / "derivative_cases.json").read_text())
QUADS = json.loads((ROOT / "tests" / "data" / "quad_cases.json").read_text())

#: the CTS's fragment shader for a derivative builtin (one value a fragment, read by quad id)
DERIVATIVE_SHADER = """\
@group(0) @binding(0) var<storage, read> inputs: array<f32>;
@fragment
fn frag(@builtin(position) position: vec4f) -> @location(0) vec4f {{
    let inv_idx = u32(position.x) % 2u + (u32(position.y) % 2u) * 2u;
    let quad_idx = u32(position.x) / 2u;
    let input = inputs[quad_idx * 4u + inv_idx];
    {discard}
    let result = {builtin}(input);
    return vec4f(result, 0.0, 0.0, 0.0);
}}
"""
#: which invocations discard with ``non_uniform_discard`` (CTS: ``inv_idx == 0`` of the pair
#: along the derivative axis for dpdx/dpdy, quad id 0 for fwidth), as quad ids and in WGSL
DISCARD = {"dpdx": ({0, 2}, "if (u32(position.x) % 2u == 0u) { discard; }"),
           "dpdy": ({0, 1}, "if (u32(position.y) % 2u == 0u) { discard; }"),
           "fwidth": ({0}, "if (inv_idx == 0u) { discard; }")}


def _f32(bits: str) -> float:
    """An f32 from the data's hex IEEE-754 bits ("inf", "-inf", "NaN" written as such)."""
    if not bits.startswith("0x"):
        return float(np.float32(bits))
    return float(np.array([int(bits, 16)], np.uint32).view(np.float32)[0])


def _accepts(interval: dict, value: float) -> bool:
    """The CTS rule: ``any`` accepts everything, else begin <= value <= end (NaN fails)."""
    if interval["any"]:
        return True
    return _f32(interval["begin_bits"]) <= value <= _f32(interval["end_bits"])


def _quads(family: str) -> list[tuple[list[str], list[dict], list[list[dict]]]]:
    """(values' bits, fine interval, intervals the plain/coarse forms accept) by quad id."""
    if family in ("dpdx", "dpdy"):
        return [(q["values_bits_by_quad_id"], q["expected_fine_by_quad_id"],
                 q["accepted_coarse_or_plain_by_quad_id"])
                for q in DERIV["dpdx_dpdy"][f"quads_{family}"]]
    fw = DERIV["fwidth"]
    cases = fw["subset_cases_values_in_{-1,-0.125,0.125,10}"] + fw["sample_edge_cases"]
    return [(c["quad_values_bits"], c["expected_fine_per_invocation"],
             [c["expected_fine_per_invocation"]] * 4) for c in cases]


@pytest.mark.parametrize("how", RUNS, ids=["InOrder", "Lockstep"])
@pytest.mark.parametrize("discard", [False, True], ids=["uniform", "non_uniform_discard"])
@pytest.mark.parametrize("builtin", ["dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse",
                                     "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine"])
def test_a_cts_derivative_vector_through_wgsl_lies_in_the_cts_interval(builtin, discard, how):
    family = builtin.removesuffix("Coarse").removesuffix("Fine")
    quads = _quads(family)
    discarded, statement = DISCARD[family] if discard else (set(), "")
    module = ash.load_wgsl(DERIVATIVE_SHADER.format(builtin=builtin, discard=statement))
    inputs = np.array([_f32(b) for values, _, _ in quads for b in values], np.float32)
    result = ash.run_fragments(module["frag"], 2 * len(quads), 2, inputs=inputs, **how)
    bad = []
    for q, (values, fine, loose) in enumerate(quads):
        for quad_id in range(4):
            x, y = 2 * q + quad_id % 2, quad_id // 2
            assert result.mask[y, x] == (quad_id not in discarded)
            if quad_id in discarded:
                continue
            got = float(result.output[y, x, 0])
            accepted = [fine[quad_id]] if builtin.endswith("Fine") else loose[quad_id]
            if not any(_accepts(iv, got) for iv in accepted):
                bad.append(f"quad {q} id {quad_id}: got {got!r}, values {values}")
    assert not bad, f"{len(bad)} invocations outside the CTS intervals:\n" + "\n".join(bad[:8])


#: the CTS's quad fragment shader (``quadBroadcast.spec.ts`` / ``quadSwap.spec.ts``
#: fragment,all_active): the last row and column read 1001, their results are not checked
QUAD_FRAGMENT = """\
enable subgroups;
@fragment
fn main(@builtin(position) pos: vec4f) -> @location(0) vec4u {{
    let x = u32(pos.x);
    let y = u32(pos.y);
    let in_range = x < {w}u - 1u && y < {h}u - 1u;
    let x_in = select(1001u, x, in_range);
    let y_in = select(1001u, y, in_range);
    return vec4u({op_x}, {op_y}, 0u, 0u);
}}
"""
QUAD_OPS = {"quadSwapX": "quadSwapX({})", "quadSwapY": "quadSwapY({})",
            "quadSwapDiagonal": "quadSwapDiagonal({})",
            **{f"quadBroadcast_{i}": f"quadBroadcast({{}}, {i}u)" for i in range(4)}}


@pytest.mark.parametrize("how", RUNS, ids=["InOrder", "Lockstep"])
@pytest.mark.parametrize("case", QUADS["fragment_all_active"],
                         ids=[f"{c['size'][0]}x{c['size'][1]}"
                              for c in QUADS["fragment_all_active"]])
def test_the_cts_fragment_quad_vectors_through_wgsl_give_the_cts_cells(case, how):
    w, h = case["size"]
    checked = 0
    for name, op in QUAD_OPS.items():
        module = ash.load_wgsl(QUAD_FRAGMENT.format(
            w=w, h=h, op_x=op.format("x_in"), op_y=op.format("y_in")))
        out = ash.run_fragments(module["main"], w, h, **how).output
        assert out.shape == (h, w, 4) and out.dtype == np.uint32
        for y, row in enumerate(case["cts_expected_[x,y]_or_null_if_unchecked"][name]):
            for x, expected in enumerate(row):
                if expected is not None:
                    checked += 1
                    assert out[y, x, :2].tolist() == expected, (name, x, y)
    assert checked == len(QUAD_OPS) * (2 * ((w - 1) // 2)) * (2 * ((h - 1) // 2))


def test_the_vectors_hold_what_this_file_runs():
    """The data's counts, so a truncated copy cannot pass quietly."""
    assert [len(_quads(f)) for f in ("dpdx", "dpdy", "fwidth")] == [128, 128, 296]
    assert [c["size"] for c in QUADS["fragment_all_active"]] == [[3, 3], [13, 10], [15, 15],
                                                                 [16, 16]]


#: CTS ``statement/discard.spec.ts`` derivatives: the pixel at quad id 0 discards before it
#: reads its value, a helper that still feeds its quad's derivatives
DISCARD_DERIVATIVES = """\
@group(0) @binding(0) var<uniform> uniformValues: array<vec4u, 5>;
@fragment
fn main(@builtin(position) pos: vec4f) -> @location(0) vec2f {
    let lsb = vec2u(pos.xy) & vec2u(1u);
    if ((lsb.x | lsb.y) == 0u) { discard; }
    let uidx = select(select(2u, 4u, lsb.y == 1u), select(1u, 3u, lsb.y == 1u), lsb.x == 1u);
    let v = uniformValues[uidx].x;
    return vec2f(dpdx(f32(v)), dpdy(f32(v)));
}
"""


@pytest.mark.parametrize("how", RUNS, ids=["InOrder", "Lockstep"])
def test_the_cts_discard_derivatives_vector_through_wgsl(how):
    case = DERIV["discard_derivatives_case"]
    values = np.zeros((5, 4), np.uint32)
    values[:, 0] = case["uniform_values_x"]
    module = ash.load_wgsl(DISCARD_DERIVATIVES)
    result = ash.run_fragments(module["main"], 64, 64, uniformValues=values, **how)
    ids = (np.arange(64)[None, :] % 2) + 2 * (np.arange(64)[:, None] % 2)
    np.testing.assert_array_equal(result.mask, ids != 0)
    survivors = result.output[ids != 0]
    assert (survivors[:, 0] == case["expected"]["dx_any_variant"]).all()
    assert (survivors[:, 1] == case["expected"]["dy_any_variant"]).all()
