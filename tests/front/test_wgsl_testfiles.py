"""WGSL test files in wgsl-test's conventions: the file becomes a module line for line, each
``@test`` function runs as one invocation of its own entry point, and wgsl-test's assertions
fail with their line and values, by wgsl-test's arithmetic in f32."""

import re

import pytest

import asyncshader as ash
from asyncshader.front.wgsl.testfiles import (
    WGSLTestFailure,
    load_test_file,
    run_test,
)


def outcomes(tmp_path, text, name="test_x.wgsl"):
    """Each test's name and None (passed) or its failure message."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    loaded = load_test_file(path)
    found = {}
    for test in loaded.tests:
        try:
            run_test(loaded, test)
            found[test.name] = None
        except WGSLTestFailure as exc:
            found[test.name] = str(exc)
    return found


def verdicts(tmp_path, imports, calls):
    """Pass (True) or fail of one test per assertion call."""
    body = "\n".join(f"@test fn t{n}() {{ {call}; }}" for n, call in enumerate(calls))
    found = outcomes(tmp_path, f"import wgsl_test::{{{imports}}};\n{body}\n")
    return [found[f"t{n}"] is None for n in range(len(calls))]


def test_expect_near_takes_the_larger_of_its_absolute_and_relative_tolerance(tmp_path):
    # tolerance max(1e-6, 1e-3 * max(|a|, |b|)): 1.0009 at 1000.9, 1e-6 near 0
    assert verdicts(tmp_path, "expectNear", [
        "expectNear(1000.0, 1000.9)", "expectNear(1000.0, 1001.5)",
        "expectNear(0.0, 5e-7)", "expectNear(0.0, 2e-6)", "expectNear(-2.0, -2.0019)",
        "expectNear(-2.0, -2.003)"]) == [True, False, True, False, True, False]


def test_expect_within_and_its_vector_forms_fail_when_any_component_is_out(tmp_path):
    assert verdicts(tmp_path, "expectWithin, expectWithinVec2, expectNearVec4", [
        "expectWithin(10.0, 10.4, 0.05, 0.0)", "expectWithin(10.0, 10.6, 0.05, 0.0)",
        "expectWithin(0.0, 0.5, 0.0, 0.5)",
        "expectWithinVec2(vec2f(1.0, 100.0), vec2f(1.0, 104.0), 0.05, 0.0)",
        "expectWithinVec2(vec2f(1.2, 100.0), vec2f(1.0, 100.0), 0.05, 0.0)",
        "expectNearVec4(vec4f(1.0, 2.0, 3.0, 4.0), vec4f(1.0, 2.0, 3.0, 4.001))",
        "expectNearVec4(vec4f(1.0, 2.0, 3.0, 4.0), vec4f(1.0, 2.0, 3.01, 4.0))"]) == [
        True, False, True, True, False, True, False]


def test_expect_ulp_counts_the_floats_between_and_treats_zeros_as_equal(tmp_path):
    # 1.0 is 0x3f800000; the next two floats up are 1 + 2^-23 and 1 + 2^-22
    assert verdicts(tmp_path, "expectUlp, expectUlpVec2", [
        "expectUlp(1.0, 1.00000011920928955, 1u)", "expectUlp(1.0, 1.0000002384185791, 1u)",
        "expectUlp(1.0, 1.0000002384185791, 2u)", "expectUlp(0.0, -0.0, 0u)",
        "expectUlpVec2(vec2f(1.0, 2.0), vec2f(1.0, 2.0000002384185791), 0u)"]) == [
        True, False, True, True, False]


def test_expect_and_expect_eq(tmp_path):
    assert verdicts(tmp_path, "expect, expectEq", [
        "expect(1 < 2)", "expect(2 < 1)", "expectEq(7u, 7u)", "expectEq(7u, 8u)",
        "expectEq(4294967295u, 4294967295u)"]) == [True, False, True, False, True]


def test_a_nan_passes_expect_near_as_in_wgsl_tests_library(tmp_path):
    # lib.wesl fails when `diff > tolerance`: false for a NaN difference. The same file gives
    # the same verdict here and on a GPU.
    with pytest.warns(ash.WGSLIndeterminateWarning, match="sqrt"):  # (a NaN on the CPU)
        nan = verdicts(tmp_path, "expectNear", ["expectNear(sqrt(-1.0 + f32(0)), 1.0)"])
    assert nan == [True]


def test_a_failure_names_each_failed_expectation_its_line_and_values_and_runs_to_the_end(
        tmp_path):
    found = outcomes(tmp_path, """import wgsl_test::{expectNear, expectEq, expect};
fn half(x: f32) -> f32 { return x * 0.5; }

@test(halves) fn halving() {
    expectNear(half(3.0), 1.25);
    expectEq(u32(half(8.0)), 4u);
    expectEq(u32(half(8.0)), 5u);
    expect(false);
}
""")
    text = found["halving"]
    lines = text.splitlines()
    assert lines[0] == "WGSL test halving (halves) failed"
    path = str(tmp_path / "test_x.wgsl")
    assert lines[1].startswith(f"{path}:5: expectNear failed: |actual - expected| = 0.25 > "
                               "tolerance 0.0015")
    assert lines[2:5] == ["    expectNear(half(3.0), 1.25);", "  actual:   1.5",
                          "  expected: 1.25"]
    assert lines[5:9] == [f"{path}:7: expectEq failed: 4 != 5", "    expectEq(u32(half(8.0)), 5u);",
                          "  actual:   4", "  expected: 5"]
    assert lines[9:] == [f"{path}:8: expect failed: the condition is false", "    expect(false);"]


def test_the_file_keeps_its_lines_so_a_type_error_is_at_the_files_line_and_column(tmp_path):
    path = tmp_path / "test_bad.wgsl"
    path.write_text("import wgsl_test::expectEq;\n\n@test\nfn wrong_type() {\n"
                    "    expectEq(1.5, 2u);\n}\n", encoding="utf-8")
    with pytest.raises(ash.ShaderCreationError) as info:
        load_test_file(path)
    assert info.value.where.startswith(f"{path}:5:")
    assert "expectEq(1.5, 2u);" in str(info.value)


@pytest.mark.parametrize("line, message", [
    ("import package::interp::smootherstep;", "WESL's imports of other modules are not "
     "supported: put the code under test in the file"),
    ("import wgsl_test::expectClose;", "wgsl_test has no assertion expectClose"),
])
def test_imports_other_than_wgsl_tests_assertions_are_refused_at_their_line(
        tmp_path, line, message):
    path = tmp_path / "test_imports.wgsl"
    path.write_text(f"// tests\n{line}\n@test fn t() {{}}\n", encoding="utf-8")
    with pytest.raises(ash.ShaderCreationError, match=message) as info:
        load_test_file(path)
    assert info.value.where == f"{path}:2:1"


def test_a_test_attribute_must_mark_a_function(tmp_path):
    path = tmp_path / "test_attr.wgsl"
    path.write_text("@test const x = 1;\n", encoding="utf-8")
    with pytest.raises(ash.ShaderCreationError, match="@test marks a function"):
        load_test_file(path)


def test_comments_are_not_read_as_attributes_or_imports(tmp_path):
    found = outcomes(tmp_path, """import wgsl_test::expect;
// @test fn not_a_test() { expect(false); }
/* import package::x; /* nested */ @test */
@test fn the_only_test() { expect(true); }
fn not_a_test() { expect(false); }
""")
    assert found == {"the_only_test": None}


def test_buffers_are_bound_as_wgsl_test_numbers_them_and_zeroed_for_each_test(tmp_path):
    path = tmp_path / "test_buffers.wgsl"
    path.write_text("""import wgsl_test::{expect, expectNear};
@buffer var<storage, read_write> data: array<f32>;
@buffer var<storage, read_write> flags: array<u32>;

@test fn writes() { data[0] = 42.0; flags[0] = 7u; expectNear(data[0], 42.0); }
@test fn sees_zeros() { expect(data[0] == 0.0 && flags[0] == 0u); }
""", encoding="utf-8")
    loaded = load_test_file(path)
    slots = {(r.name, r.group, r.binding) for r in loaded.module.reflection.resources}
    assert slots == {("data", 0, 1), ("flags", 0, 2)}
    for test in loaded.tests:
        run_test(loaded, test)


def test_markers_come_from_comment_lines_just_above_a_test(tmp_path):
    path = tmp_path / "test_marks.wgsl"
    path.write_text("""import wgsl_test::expect;
// @pytest.mark.schedules(runs=5, strategy="pct")
// @pytest.mark.workgroup_size(4, 2)
@test fn marked() { expect(true); }

// @pytest.mark.skip(reason="not this one")

@test fn unmarked(n: u32) { expect(true); }
""", encoding="utf-8")
    marked, unmarked = load_test_file(path).tests
    assert marked.markers == [("schedules", (), {"runs": 5, "strategy": "pct"}),
                              ("workgroup_size", (4, 2), {})]
    assert marked.line == 4 and marked.entry == "asyncshader_test_marked"
    assert unmarked.markers == []  # (a blank line ends the comment block above a test)
    assert "has parameters: wgsl-test skips it" in unmarked.skip


def test_a_test_with_a_workgroup_size_runs_that_many_invocations_and_races_fail_it(tmp_path):
    found = outcomes(tmp_path, """import wgsl_test::expectEq;
var<workgroup> count: atomic<u32>;
var<workgroup> plain: u32;

// @pytest.mark.workgroup_size(6)
@test fn six() { atomicAdd(&count, 1u); workgroupBarrier(); expectEq(atomicLoad(&count), 6u); }

// @pytest.mark.workgroup_size(2)
@test fn racy() { plain = plain + 1u; }
""")
    assert found["six"] is None
    assert "Read-write data race on workgroup memory plain" in found["racy"]


def test_an_empty_file_has_no_tests_and_binary_data_is_a_diagnostic(tmp_path):
    (tmp_path / "test_empty.wgsl").write_text("", encoding="utf-8")
    assert load_test_file(tmp_path / "test_empty.wgsl").tests == []
    (tmp_path / "test_binary.wgsl").write_bytes(b"@test fn t() {}\n\xff\xfe\x00")
    with pytest.raises(ash.ShaderCreationError, match="byte 16 is not UTF-8"):
        load_test_file(tmp_path / "test_binary.wgsl")


@pytest.mark.parametrize("marker, message", [
    ("workgroup_size(0)", "workgroup_size takes one to three positive integers"),
    ("schedules(runs=ten)", "a marker's arguments must be Python literals"),
])
def test_a_bad_marker_is_a_diagnostic_at_its_comment_line(tmp_path, marker, message):
    path = tmp_path / "test_marker.wgsl"
    path.write_text(f"import wgsl_test::expect;\n// @pytest.mark.{marker}\n"
                    "@test fn t() { expect(true); }\n", encoding="utf-8")
    with pytest.raises(ash.ShaderCreationError, match=re.escape(message)) as info:
        load_test_file(path)
    assert info.value.where == f"{path}:2:1"


RACY = """import wgsl_test::expect;
var<workgroup> visits: u32;
var<workgroup> tickets: atomic<u32>;

// @pytest.mark.workgroup_size(4)
@test fn counts_visits() {
    let seen = visits;
    atomicAdd(&tickets, 1u);
    visits = seen + 1u;
    workgroupBarrier();
    expect(visits == 4u);
}
"""


def racy_setup():
    return {"allow_races": "visits"}


def test_a_tests_kernel_explored_fails_at_its_first_failed_expectation_in_workers_too(
        tmp_path):
    path = tmp_path / "test_racy.wgsl"
    path.write_text(RACY, encoding="utf-8")
    kernel = load_test_file(path).module["asyncshader_test_counts_visits"]
    kw = dict(runs=60, store=None, progress=False)
    serial = ash.explore(kernel, racy_setup, None, ash.Random(1), workers=1, **kw)
    assert serial.failures
    error = serial.failures[0].error  # (the invocation that failed, then the expectation)
    assert error.startswith("ShaderError: invocation global_invocation_id=")
    assert f"{path}:11: expect failed: the condition is false" in error
    together = ash.explore(kernel, racy_setup, None, ash.Random(1), workers=2, **kw)
    assert [(f.run, f.error) for f in together.failures] == \
        [(f.run, f.error) for f in serial.failures]
