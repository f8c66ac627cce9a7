"""The uniformity analysis (§ Uniformity Analysis): a barrier, a derivative or a subgroup
operation that the analysis cannot prove to run in uniform control flow is rejected at load,
at its line, with where the non-uniform value comes from; diagnostic filters turn the
filterable ones into warnings or nothing. Each case's verdict is Tint's (Chromium's WebGPU
compiler): ``test_tint_gives_the_same_verdicts`` asks it where headless Chromium runs WebGPU.
naga (wgpu 0.32) enforces none of these rules: it accepts every case it compiles (40 of the
50; not ``enable subgroups``, not ``@diagnostic`` on a compound statement)."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from tint import tint_diagnostics

import asyncshader as ash
from asyncshader.front.wgsl import WGSLError, WGSLWarning, check_wgsl

COMPUTE = "@compute @workgroup_size(64)\n"
LID = "@builtin(local_invocation_id) lid: vec3u"
UNIFORM = "@group(0) @binding(0) var<uniform> u: u32;\n"
RW = "@group(0) @binding(1) var<storage, read_write> b: array<u32>;\n"
TEXTURES = "@group(0) @binding(2) var t: texture_2d<f32>;\n" \
           "@group(0) @binding(3) var s: sampler;\n"
FRAGMENT = "@fragment\nfn main(@location(0) x: f32) -> @location(0) vec4f {\n"
SUBGROUPS = "enable subgroups;\n@compute @workgroup_size(64)\nfn main(" + LID + \
    ", @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_id) sgid: u32) {\n"

#: name: (WGSL, verdict): "accept", or ("error" | "warning", the line the diagnostic is at)
CASES = {
    # --- accepted: the analysis proves uniformity ---
    "barrier_under_a_uniform_buffer_condition": (
        UNIFORM + COMPUTE + "fn main() {\n  if (u > 0u) { workgroupBarrier(); }\n}",
        "accept"),
    "barrier_in_a_loop_with_constant_bounds": (
        COMPUTE + "fn main() {\n  for (var i = 0u; i < 4u; i++) { workgroupBarrier(); }\n}",
        "accept"),
    "barrier_in_a_loop_bounded_by_a_uniform": (
        UNIFORM + COMPUTE + "fn main() {\n  var i = 0u;\n  while (i < u) {\n"
        "    workgroupBarrier();\n    i += 1u;\n  }\n}", "accept"),
    "barrier_in_a_function_called_uniformly": (
        "fn sync() { workgroupBarrier(); }\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  sync();\n}", "accept"),
    "workgroup_id_and_num_workgroups_are_uniform": (
        COMPUTE + "fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) n: "
        "vec3u) {\n  if (wid.x + n.y == 1u) { workgroupBarrier(); }\n}", "accept"),
    "a_variable_overwritten_with_a_uniform_value": (
        COMPUTE + f"fn main({LID}) {{\n  var x = lid.x;\n  x = 0u;\n"
        "  if (x == 0u) { storageBarrier(); }\n}", "accept"),
    "control_flow_reconverges_after_an_if": (
        "var<workgroup> w: array<u32, 64>;\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  if (lid.x == 0u) { w[0] = 1u; }\n  workgroupBarrier();\n}", "accept"),
    "a_workgroup_uniform_load_decides_a_branch": (
        "var<workgroup> flag: u32;\n" + COMPUTE + "fn main() {\n"
        "  if (workgroupUniformLoad(&flag) == 1u) { workgroupBarrier(); }\n}", "accept"),
    "a_read_only_storage_buffer_is_uniform": (
        "@group(0) @binding(0) var<storage, read> r: array<u32>;\n" + COMPUTE +
        "fn main() {\n  let n = r[0] * 2u;\n  if (n > 3u) { workgroupBarrier(); }\n}",
        "accept"),
    "a_switch_on_a_uniform_value": (
        UNIFORM + COMPUTE + "fn main() {\n  switch (u) {\n"
        "    case 0u: { workgroupBarrier(); }\n    default: { storageBarrier(); }\n  }\n}",
        "accept"),
    "a_pointer_parameter_given_a_uniform_value": (
        "fn zero(p: ptr<function, u32>) { *p = 0u; }\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  var x = lid.x;\n  zero(&x);\n  if (x == 0u) { workgroupBarrier(); }\n}",
        "accept"),
    "a_derivative_after_a_non_uniform_discard": (  # discard demotes to a helper invocation
        FRAGMENT + "  if (x > 0.5) { discard; }\n  return vec4f(dpdx(x));\n}", "accept"),
    "a_derivative_filtered_off_for_the_module": (
        "diagnostic(off, derivative_uniformity);\n" + FRAGMENT +
        "  var d = 0.0;\n  if (x > 0.5) { d = dpdx(x); }\n  return vec4f(d);\n}", "accept"),
    "a_derivative_filtered_off_on_the_function": (
        "@diagnostic(off, derivative_uniformity)\n" + FRAGMENT +
        "  var d = 0.0;\n  if (x > 0.5) { d = fwidth(x); }\n  return vec4f(d);\n}", "accept"),
    "a_texture_sample_filtered_off_on_the_if": (
        TEXTURES + FRAGMENT + "  var c = vec4f();\n"
        "  @diagnostic(off, derivative_uniformity) if (x > 0.5) {\n"
        "    c = textureSample(t, s, vec2f(x));\n  }\n  return c;\n}", "accept"),
    "a_level_sample_needs_no_uniformity": (
        TEXTURES + FRAGMENT + "  var c = vec4f();\n  if (x > 0.5) {\n"
        "    c = textureSampleLevel(t, s, vec2f(x), 0.0);\n  }\n  return c;\n}", "accept"),
    "a_full_store_through_a_pointer_let": (
        COMPUTE + f"fn main({LID}) {{\n  var x = lid.x;\n  let p = &x;\n  *p = 0u;\n"
        "  if (x == 0u) { workgroupBarrier(); }\n}", "accept"),
    "subgroup_id_is_uniform_in_its_subgroup": (
        SUBGROUPS + "  if (sgid == 0u) { _ = subgroupAdd(1u); }\n}", "accept"),
    "a_reduction_of_a_uniform_value_is_uniform_in_the_subgroup": (
        SUBGROUPS + "  if (subgroupAdd(1u) == 4u) { _ = subgroupMax(2u); }\n}", "accept"),
    "a_subgroup_operation_filtered_off": (
        "diagnostic(off, subgroup_uniformity);\n" + SUBGROUPS +
        "  if (lid.x == 0u) { _ = subgroupAdd(1u); }\n}", "accept"),
    # --- rejected: the line is the diagnostic's ---
    "barrier_under_a_local_invocation_id_condition": (
        COMPUTE + f"fn main({LID}) {{\n  if (lid.x == 0u) {{\n    workgroupBarrier();\n"
        "  }\n}", ("error", 4)),
    "barrier_after_a_non_uniform_return": (
        COMPUTE + f"fn main({LID}) {{\n  if (lid.x == 0u) {{ return; }}\n"
        "  workgroupBarrier();\n}", ("error", 4)),
    "barrier_in_a_loop_left_by_a_read_write_storage_value": (
        RW + COMPUTE + "fn main() {\n  loop {\n    if (b[0] == 1u) { break; }\n"
        "    workgroupBarrier();\n  }\n}", ("error", 6)),
    "barrier_after_a_non_uniform_continue": (
        COMPUTE + f"fn main({LID}) {{\n  for (var i = 0u; i < 4u; i++) {{\n"
        "    if (lid.x == i) { continue; }\n    workgroupBarrier();\n  }\n}", ("error", 5)),
    "barrier_in_a_while_on_the_invocation_index": (
        COMPUTE + "fn main(@builtin(local_invocation_index) i: u32) {\n"
        "  var n = i;\n  while (n > 0u) {\n    workgroupBarrier();\n    n -= 1u;\n  }\n}",
        ("error", 5)),
    "barrier_in_a_loop_left_by_a_non_uniform_break_if": (
        COMPUTE + f"fn main({LID}) {{\n  var i = 0u;\n  loop {{\n    workgroupBarrier();\n"
        "    continuing {\n      i += 1u;\n      break if i > lid.x;\n    }\n  }\n}",
        ("error", 5)),
    "a_function_with_a_barrier_called_non_uniformly": (
        "fn sync() { workgroupBarrier(); }\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  if (lid.x == 0u) {\n    sync();\n  }\n}", ("error", 1)),
    "a_parameter_that_decides_a_barrier_given_a_non_uniform_value": (
        "fn maybe(x: u32) { if (x == 0u) { workgroupBarrier(); } }\n" + COMPUTE +
        f"fn main({LID}) {{\n  maybe(lid.x);\n}}", ("error", 1)),
    "a_variable_assigned_in_a_non_uniform_branch": (
        COMPUTE + f"fn main({LID}) {{\n  var x = 0u;\n  if (lid.x > 3u) {{ x = 1u; }}\n"
        "  if (x == 1u) { workgroupBarrier(); }\n}", ("error", 5)),
    "a_private_variable_is_not_uniform": (
        "var<private> v: u32;\n" + COMPUTE + "fn main() {\n"
        "  if (v == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
    "a_workgroup_variable_read_directly_is_not_uniform": (
        "var<workgroup> w: u32;\n" + COMPUTE + "fn main() {\n"
        "  if (w == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
    "an_atomic_result_is_not_uniform": (
        "var<workgroup> a: atomic<u32>;\n" + COMPUTE + "fn main() {\n"
        "  if (atomicAdd(&a, 1u) == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
    "a_workgroup_uniform_load_in_non_uniform_control_flow": (
        "var<workgroup> w: u32;\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  if (lid.x == 0u) { _ = workgroupUniformLoad(&w); }\n}", ("error", 4)),
    "a_barrier_after_a_short_circuit_on_a_non_uniform_value": (
        "fn sync() -> bool { workgroupBarrier(); return true; }\n" + COMPUTE +
        f"fn main({LID}) {{\n  let go = lid.x == 0u && sync();\n}}", ("error", 1)),
    "a_texture_barrier_in_a_switch_on_a_non_uniform_value": (
        COMPUTE + f"fn main({LID}) {{\n  switch (lid.y) {{\n"
        "    case 1u: { textureBarrier(); }\n    default: {}\n  }\n}", ("error", 4)),
    "a_non_uniform_return_value": (
        "fn id(x: u32) -> u32 { return x; }\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  if (id(lid.x) == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
    "a_pointer_parameter_that_stores_a_non_uniform_value": (
        "fn put(p: ptr<function, u32>, v: u32) { *p = v; }\n" + COMPUTE +
        f"fn main({LID}) {{\n  var x = 0u;\n  put(&x, lid.x);\n"
        "  if (x == 0u) { workgroupBarrier(); }\n}", ("error", 6)),
    "an_unused_function_is_analysed_too": (
        RW + "fn unused() {\n  if (b[0] == 0u) { storageBarrier(); }\n}", ("error", 3)),
    "a_derivative_under_a_user_defined_input": (
        FRAGMENT + "  var d = 0.0;\n  if (x > 0.5) {\n    d = dpdy(x);\n  }\n"
        "  return vec4f(d);\n}", ("error", 5)),
    "a_texture_sample_under_a_non_uniform_condition": (
        TEXTURES + "@fragment\nfn main(@builtin(position) p: vec4f) -> @location(0) vec4f {\n"
        "  if (p.x < 0.5) {\n    return textureSample(t, s, p.xy);\n  }\n  return vec4f();\n}",
        ("error", 6)),
    "a_derivative_filtered_to_a_warning_for_the_module": (
        "diagnostic(warning, derivative_uniformity);\n" + FRAGMENT +
        "  var d = 0.0;\n  if (x > 0.5) { d = dpdx(x); }\n  return vec4f(d);\n}",
        ("warning", 5)),
    "a_derivative_filtered_to_a_warning_on_a_block": (
        FRAGMENT + "  var d = 0.0;\n  if (x > 0.5) @diagnostic(warning, derivative_uniformity) {\n"
        "    d = dpdx(x);\n  }\n  return vec4f(d);\n}", ("warning", 5)),
    "a_subgroup_operation_under_a_non_uniform_branch": (
        SUBGROUPS + "  var x = 0u;\n  if (lid.x == 0u) { x = subgroupAdd(1u); }\n}",
        ("error", 5)),
    "a_quad_operation_under_a_non_uniform_branch": (
        SUBGROUPS + "  var x = 0u;\n  if (lid.x == 0u) { x = quadSwapX(1u); }\n}",
        ("error", 5)),
    "a_non_uniform_shuffle_mask": (
        SUBGROUPS + "  _ = subgroupShuffleXor(1u, sid);\n}", ("error", 4)),
    "an_elected_invocation_is_not_uniform": (
        SUBGROUPS + "  if (subgroupElect()) { _ = subgroupAdd(1u); }\n}", ("error", 4)),
    "subgroup_id_does_not_make_a_barrier_uniform": (
        SUBGROUPS + "  if (sgid == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
    "a_store_through_a_pointer_to_a_non_uniform_element": (
        COMPUTE + f"fn main({LID}) {{\n  var a = array<u32, 4>();\n  let p = &a[lid.x % 4u];\n"
        "  *p = 1u;\n  if (a[0] == 1u) { workgroupBarrier(); }\n}", ("error", 6)),
    "a_value_that_leaves_a_switch_by_break": (
        COMPUTE + f"fn main({LID}) {{\n  var x = 0u;\n  switch (lid.x) {{\n"
        "    case 0u: { x = 1u; break; }\n    default: {}\n  }\n"
        "  if (x == 0u) { workgroupBarrier(); }\n}", ("error", 8)),
    "a_warning_filter_does_not_cover_barriers": (
        "diagnostic(off, derivative_uniformity);\n" + COMPUTE + f"fn main({LID}) {{\n"
        "  if (lid.x == 0u) { workgroupBarrier(); }\n}", ("error", 4)),
}


def verdict(text: str) -> tuple[str, int] | str:
    """asyncshader's verdict on ``text``: "accept", or the kind and line of its diagnostic."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check_wgsl(text, "case.wgsl")
        except WGSLError as error:
            return "error", int(error.where.split(":")[1])
    found = [w for w in caught if issubclass(w.category, WGSLWarning)]
    if found:
        return "warning", int(str(found[0].message).split(":")[1])
    return "accept"


@pytest.mark.parametrize("name", CASES)
def test_the_verdict_and_its_line(name):
    text, expected = CASES[name]
    assert verdict(text) == expected


def test_there_are_enough_cases_of_each_kind():
    kinds = [v if v == "accept" else v[0] for _, v in CASES.values()]
    assert (kinds.count("accept"), kinds.count("error"), kinds.count("warning")) == (20, 28, 2)


class TestTheDiagnostic:
    def test_names_the_barrier_the_branch_and_the_built_in_value(self):
        text, _ = CASES["barrier_under_a_local_invocation_id_condition"]
        with pytest.raises(WGSLError) as caught:
            check_wgsl(text, "k.wgsl")
        message = str(caught.value)
        assert message.startswith("k.wgsl:4:5: error: 'workgroupBarrier' must only be called "
                                  "from uniform control flow\n        workgroupBarrier();\n"
                                  "        ^^^^^^^^^^^^^^^^")
        assert "k.wgsl:3:3: note: control flow depends on possibly non-uniform value\n" \
               "      if (lid.x == 0u) {\n      ^^" in message
        assert "note: builtin 'lid' (local_invocation_id) of 'main' may be non-uniform" \
            in message
        assert "help: execute it in uniform control flow" in message

    def test_names_a_read_write_storage_buffer(self):
        text, _ = CASES["barrier_in_a_loop_left_by_a_read_write_storage_value"]
        with pytest.raises(WGSLError, match=r"(?s)<wgsl>:6:5: error: 'workgroupBarrier'.*"
                           r"<wgsl>:5:5: note: control flow depends on possibly non-uniform "
                           r"value.*<wgsl>:5:9: note: reading from read_write storage buffer "
                           "'b' may result in a non-uniform value"):
            check_wgsl(text)

    def test_a_call_is_reported_at_the_barrier_with_the_call_chain(self):
        # (as Tint reports it: the operation's place, then "called by")
        text, _ = CASES["a_function_with_a_barrier_called_non_uniformly"]
        with pytest.raises(WGSLError, match=r"(?s)<wgsl>:1:13: error: 'workgroupBarrier' must "
                           r"only be called from uniform control flow.*<wgsl>:5:5: note: "
                           r"called by 'sync' from 'main'.*<wgsl>:4:3: note: control flow "
                           "depends on possibly non-uniform value"):
            check_wgsl(text)

    def test_a_parameter_requirement_shows_the_argument_passed(self):
        text, _ = CASES["a_parameter_that_decides_a_barrier_given_a_non_uniform_value"]
        with pytest.raises(WGSLError, match=r"(?s)<wgsl>:1:35: error: 'workgroupBarrier'.*"
                           r"<wgsl>:1:20: note: control flow depends on possibly non-uniform "
                           r"value.*<wgsl>:1:10: note: parameter 'x' of 'maybe' may be "
                           r"non-uniform.*<wgsl>:4:9: note: possibly non-uniform value passed "
                           r"here.*builtin 'lid' \(local_invocation_id\) of 'main'"):
            check_wgsl(text)

    def test_a_filtered_warning_is_a_python_warning(self):
        text, _ = CASES["a_derivative_filtered_to_a_warning_for_the_module"]
        with pytest.warns(WGSLWarning, match=r"<wgsl>:5:22: warning: 'dpdx' must only be "
                          r"called from uniform control flow(?s:.*)user-defined input 'x' of "
                          "'main' may be non-uniform"):
            check_wgsl(text)


class TestDiagnosticControls:
    def test_an_unknown_severity_is_an_error(self):
        with pytest.raises(WGSLError, match="1:1: error: unknown diagnostic severity 'loud'"):
            check_wgsl("diagnostic(loud, derivative_uniformity);")

    def test_conflicting_filters_on_one_place_are_an_error(self):
        with pytest.raises(WGSLError, match="conflicting diagnostic filters for "
                           "'derivative_uniformity'"):
            check_wgsl("@diagnostic(off, derivative_uniformity) "
                       "@diagnostic(error, derivative_uniformity) fn f() {}")

    def test_an_unknown_rule_is_a_warning_and_a_dotted_one_is_not(self):
        with pytest.warns(WGSLWarning, match="unknown diagnostic rule 'derivative_uniformty'"):
            check_wgsl("diagnostic(off, derivative_uniformty);")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_wgsl("diagnostic(off, chromium.unreachable_code);")


def test_load_wgsl_refuses_a_non_uniform_barrier_at_its_line():
    text = ("@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
            "var<workgroup> tile: array<u32, 64>;\n" + COMPUTE +
            f"fn main({LID}) {{\n  tile[lid.x] = lid.x;\n"
            "  if (lid.x < 32u) {\n    workgroupBarrier();\n  }\n"
            "  out[lid.x] = tile[63u - lid.x];\n}")
    with pytest.raises(WGSLError, match=r"wgsl [0-9a-f]+>\.wgsl:7:5: error: "
                       "'workgroupBarrier' must only be called from uniform control flow"):
        ash.load_wgsl(text)
    fixed = ash.load_wgsl(text.replace("  if (lid.x < 32u) {\n", "  {\n"))
    out = np.zeros(64, np.uint32)
    ash.run(fixed["main"], 1, out=out)
    assert out.tolist() == list(range(63, -1, -1))


SAMPLE = Path(__file__).parents[1] / "data" / "tint"
#: Tint's uniformity diagnostics on the sample, (kind, line, column) by file: from Dawn's
#: ``*.expected.wgsl`` outputs (commit 1e975e28); Tint accepts the other files without one
TINT_ON_THE_SAMPLE = {
    f"diagnostic_filtering/{name}.wgsl": ("warning", line, col) for name, line, col in (
        ("case_body_attribute", 8, 11), ("compound_statement_attribute", 8, 11),
        ("default_case_body_attribute", 8, 11), ("directive", 9, 9),
        ("else_body_attribute", 8, 9), ("else_if_body_attribute", 8, 9),
        ("for_loop_attribute", 5, 21), ("for_loop_body_attribute", 8, 9),
        ("function_attribute", 7, 9), ("function_body_attribute", 7, 9))}
TINT_ON_THE_SAMPLE["errors/json-diagnostics-error-with-notes.wgsl"] = ("error", 7, 5)


def test_dawns_sample_gets_tints_verdicts():
    found, accepted = {}, 0
    for path in sorted(SAMPLE.rglob("*.wgsl")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                check_wgsl(path.read_text(encoding="utf-8"), "f.wgsl")
            except WGSLError as error:
                if "uniform control flow" not in str(error):
                    continue  # (a browser's own extension: refused before the analysis)
                caught = [error]
        diagnostics = [str(w if isinstance(w, WGSLError) else w.message) for w in caught
                       if isinstance(w, WGSLError) or issubclass(w.category, WGSLWarning)]
        if not diagnostics:
            accepted += 1
            continue
        where, kind = diagnostics[0].split(": ")[:2]
        found[str(path.relative_to(SAMPLE))] = (kind, *map(int, where.split(":")[1:]))
    assert found == TINT_ON_THE_SAMPLE
    assert accepted == 205 - 8 - len(TINT_ON_THE_SAMPLE)


def test_tint_gives_the_same_verdicts(tmp_path):
    """Tint (Chromium's WebGPU on SwiftShader) judges every case as the table says."""
    found = tint_diagnostics({k: v[0] for k, v in CASES.items()}, tmp_path)
    if found is None:
        pytest.skip("no headless Chromium with WebGPU here (apt-get install chromium)")
    for name, (_, expected) in CASES.items():
        messages = [m for m in found[name] if m[0] != "info"]
        tint = (messages[0][0], messages[0][1]) if messages else "accept"
        assert tint == expected, (name, messages)


def test_a_module_loaded_with_warnings_is_rebuilt_with_them():
    # (explore's workers rebuild a loaded kernel from its recipe; with_constants reloads)
    text = "override n = 1u;\n" + CASES["barrier_under_a_local_invocation_id_condition"][0]
    with pytest.warns(WGSLWarning):
        module = ash.load_wgsl(text, uniformity="warning")
    recipe = module["main"].__asyncshader_recipe__
    assert recipe.uniformity == "warning"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WGSLWarning)
        assert recipe.resolve().workgroup_size == (64, 1, 1)
        assert module.with_constants(n=2).uniformity == "warning"
    with pytest.raises(ValueError, match="uniformity is 'error', 'warning' or 'off'"):
        ash.load_wgsl(text, uniformity="lenient")
