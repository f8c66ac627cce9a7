"""The WebGPU CTS vectors the project holds, run through WGSL source: the CTS's own shader
(its harness's WGSL with the case's statement spliced in, as ``atomics/harness.ts`` builds it)
loaded by ``ash.load_wgsl`` and checked against the CTS's expected buffers
(tests/data/compute_atomics_cases.json; tests/wgsl/test_atomics.py runs the same vectors as
Python translations). The subgroup vectors' data-type sections (tests/data/subgroup_cases.json,
``add_data_types`` and ``mul_data_types``: ``outputs[lid] = OP(inputs[lid])``) run the same way
at every subgroup size they list, and the quad vectors' compute section
(tests/data/quad_cases.json, ``compute_all_active``). The fragment-stage vectors (derivatives,
quads' ``fragment_all_active``) run in tests/front/test_wgsl_cts_fragment.py.

CI runs the cases with at most 16 invocations a dispatch (both scalar types, every operation);
``ASH_CTS_FULL=1 python3 -m pytest tests/front/test_wgsl_cts.py`` runs all 32 cases."""

import json
import os

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash

DATA = json.loads((ROOT / "tests" / "data" / "compute_atomics_cases.json").read_text())
ALL = os.environ.get("ASH_CTS_FULL") == "1"
CASES = [c for c in DATA["atomics"]["cases"]
         if ALL or c["workgroupSize"] * c["dispatchSize"] <= 16]
MAP_ID = {"passthrough": "return id;",
          "remap": "return ((id * 14957u) ^ ((id * 26561u) >> 2u)) % {max}u;"}

STORAGE = """\
@group(0) @binding(0) var<storage, read_write> output: array<atomic<{T}>>;
fn map_id(id: u32) -> u32 {{ {map_id} }}
@compute @workgroup_size({size})
fn main(@builtin(global_invocation_id) global_invocation_id: vec3u) {{
    let id = {T}(global_invocation_id.x);
    {op};
}}
"""
WORKGROUP = """\
@group(0) @binding(0) var<storage, read_write> output: array<{T}>;
var<workgroup> wg: array<atomic<{T}>, 2>;
@compute @workgroup_size({size})
fn main(@builtin(local_invocation_index) local_invocation_index: u32,
        @builtin(workgroup_id) workgroup_id: vec3u) {{
    let id = {T}(local_invocation_index);
    if (local_invocation_index == 0u) {{
        for (var i = 0u; i < 2u; i++) {{ atomicStore(&wg[i], {init}); }}
    }}
    workgroupBarrier();
    {op};
    workgroupBarrier();
    if (local_invocation_index == 0u) {{
        for (var i = 0u; i < 2u; i++) {{
            output[workgroup_id.x * 2u + i] = atomicLoad(&wg[i]);
        }}
    }}
}}
"""
EXCHANGE = """\
@group(0) @binding(0) var<storage, read_write> input: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> exchanged: array<u32>;
fn map_id(id: u32) -> u32 {{ {map_id} }}
@compute @workgroup_size({size})
fn main(@builtin(global_invocation_id) global_invocation_id: vec3u) {{
    let id = global_invocation_id.x;
    {op};
}}
"""


def _params():
    for case in CASES:
        t, size, groups = case["scalarType"], case["workgroupSize"], case["dispatchSize"]
        for key, spec in case.items():
            if not isinstance(spec, dict):
                continue
            name = f"{t}-wg{size}-x{groups}-{key}"
            if "exchange" in key and t != "u32":
                continue  # (the harness's exchange tests are written for u32 ids)
            yield pytest.param(case, key, spec, id=name)


#: the CTS writes the compare-exchange statement with C's ?: (its harness builds it so); in
#: WGSL, as the harness's shader has it:
COMPARE_EXCHANGE = ("let comp = select(id + 1u, id, id % 3u == 0u); "
                    "let r = atomicCompareExchangeWeak(&input[id], comp, map_id(id * 2u)); "
                    "output[id] = r.old_value; exchanged[id] = u32(r.exchanged)")


def _dtype(t: str):
    return np.uint32 if t == "u32" else np.int32


def _value(t: str, v: int):
    return np.array(v, np.int64).astype(_dtype(t))  # (i32 inits are given as i32)


@pytest.mark.parametrize("case, key, spec", list(_params()))
def test_a_cts_atomics_vector_through_wgsl_gives_the_cts_buffer(case, key, spec):
    t, size, groups = case["scalarType"], case["workgroupSize"], case["dispatchSize"]
    map_id = key.split("[")[-1].rstrip("]") if "[" in key else "passthrough"
    body = MAP_ID[map_id].format(max=case["numInvocations_storage"])
    op = spec["op"].replace("T(", f"{t}(")
    if "exchange" in key:
        compare = key.startswith("compare")
        module = ash.load_wgsl(EXCHANGE.format(map_id=body, size=size,
                                               op=COMPARE_EXCHANGE if compare else op))
        buf = np.array(spec["input_init"], np.uint32)
        out, exchanged = np.zeros(len(buf), np.uint32), np.zeros(len(buf), np.uint32)
        ash.run(module["main"], groups, input=buf, output=out,
                **({"exchanged": exchanged} if compare else {}))
        if compare:  # (asyncshader's compare-exchange never fails spuriously)
            assert out.tolist() == spec["expected_old_value"]
            assert exchanged.tolist() == spec["expected_exchanged_if_no_spurious_failure"]
            assert buf.tolist() == spec["expected_input_after_if_no_spurious_failure"]
            return
        assert out.tolist() == spec["expected_output"]
        assert buf.tolist() == spec["expected_input_after"]
        return
    if key.endswith("_workgroup"):
        init = f"{t}({_value(t, spec['init'])})"
        module = ash.load_wgsl(WORKGROUP.format(T=t, size=size, init=init, op=op))
        out = np.zeros(len(spec["expected"]), _dtype(t))
    else:
        module = ash.load_wgsl(STORAGE.format(T=t, map_id=body, size=size, op=op))
        out = np.full(len(spec["expected"]), _value(t, spec["init"]), _dtype(t))
    ash.run(module["main"], groups, output=out)
    assert out.tolist() == np.array(spec["expected"], np.int64).astype(_dtype(t)).tolist()


QUADS = json.loads((ROOT / "tests" / "data" / "quad_cases.json").read_text())
QUAD_OPS = {"quadSwapX": "quadSwapX(lid)", "quadSwapY": "quadSwapY(lid)",
            "quadSwapDiagonal": "quadSwapDiagonal(lid)",
            **{f"quadBroadcast_{i}": f"quadBroadcast(lid, {i}u)" for i in range(4)}}
QUAD_ALL_ACTIVE = """\
enable subgroups;
@group(0) @binding(0) var<storage, read_write> results: array<u32>;
@compute @workgroup_size({n})
fn main(@builtin(local_invocation_index) lid: u32) {{
    results[lid] = {op};
}}
"""


@pytest.mark.parametrize("case", QUADS["compute_all_active"][::3],
                         ids=lambda c: f"{c['wg_threads']}-sg{c['model_subgroup_size']}")
def test_the_cts_quad_vectors_through_wgsl_give_the_cts_results(case):
    """quadBroadcast/quadSwap compute,all_active (tests/data/quad_cases.json): results[lid] =
    OP(lid), quads being 4 consecutive invocations of a subgroup."""
    n = case["wg_threads"]
    for name, op in QUAD_OPS.items():
        results = np.zeros(n, np.uint32)
        ash.run(ash.load_wgsl(QUAD_ALL_ACTIVE.format(n=n, op=op))["main"], 1,
                results=results, subgroup_size=case["model_subgroup_size"])
        assert results.tolist() == case["results"][name], name


SUBGROUPS = json.loads((ROOT / "tests" / "data" / "subgroup_cases.json").read_text())["tests"]
SUBGROUP_OP = """\
enable subgroups;
@group(0) @binding(0) var<storage, read_write> inputs: array<{T}>;
@group(0) @binding(1) var<storage, read_write> outputs: array<{T}>;
@compute @workgroup_size({n})
fn main(@builtin(local_invocation_index) lid: u32) {{
    outputs[lid] = {op}(inputs[lid]);
}}
"""


@pytest.mark.parametrize("T", ["u32", "i32", "f32"])
@pytest.mark.parametrize("section, ops, value", [
    ("add_data_types", ("subgroupAdd", "subgroupExclusiveAdd", "subgroupInclusiveAdd"), 1),
    ("mul_data_types", ("subgroupMul", "subgroupExclusiveMul", "subgroupInclusiveMul"), 2)])
def test_the_cts_subgroup_vectors_through_wgsl_give_the_cts_outputs(section, ops, value, T):
    dtype = {"u32": np.uint32, "i32": np.int32, "f32": np.float32}[T]
    for case in SUBGROUPS[section]["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for op in ops:
            module = ash.load_wgsl(SUBGROUP_OP.format(T=T, n=n, op=op))
            out = np.zeros(n, dtype)
            ash.run(module["main"], 1, inputs=np.full(n, value, dtype), outputs=out,
                    subgroup_size=size)
            assert out.tolist() == case[op], (n, size, op)
