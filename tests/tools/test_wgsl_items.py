"""pytest collects WGSL test files (wgsl-test's conventions): one item per ``@test``
function, a failure names the WGSL lines and values, the schedules marker explores a test and
replays its failure, a file that is not valid WGSL is a collection error with the
diagnostic."""

import re

from helpers import ROOT

pytest_plugins = ["pytester"]

FAILING = """import wgsl_test::{expectNear, expectEq};

fn lerp(a: f32, b: f32, t: f32) -> f32 { return a + (b - a) * t; }

@test fn lerp_middle() { expectNear(lerp(2.0, 4.0, 0.5), 3.0); }

@test fn lerp_wrong() {
    expectNear(lerp(2.0, 4.0, 0.25), 3.0);
}

@test fn counts() { expectEq(u32(lerp(0.0, 10.0, 0.3)), 3u); }
"""

RACY = """import wgsl_test::expect;
var<workgroup> visits: u32;
var<workgroup> tickets: atomic<u32>;

// @pytest.mark.workgroup_size(4)
// @pytest.mark.schedules(runs=30, races=False)
@test fn counts_visits() {
    let seen = visits;
    atomicAdd(&tickets, 1u);  // another invocation may store between the load and the store
    visits = seen + 1u;
    workgroupBarrier();
    expect(visits == 4u);
}
"""


def test_the_example_file_passes_with_one_item_per_test_function(pytester):
    example = (ROOT / "examples" / "wgsl" / "test_easing.wgsl").read_text(encoding="utf-8")
    pytester.makefile(".wgsl", test_easing=example)
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=4)
    out = result.stdout.str()
    for name in ("smootherstep_quarter", "smootherstep_clamps", "fade_halfway",
                 "arrivals_are_counted_atomically"):
        assert f"test_easing.wgsl::{name} PASSED" in out


def test_a_failing_test_names_the_wgsl_line_and_the_values(pytester):
    pytester.makefile(".wgsl", test_lerp=FAILING)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "FAILED test_lerp.wgsl::lerp_wrong - WGSL test lerp_wrong failed" in out
    # lerp(2, 4, 0.25) = 2.5: 0.5 from 3, over the tolerance max(1e-6, 1e-3 * 3) = 0.003
    assert re.search(r"test_lerp\.wgsl:8: expectNear failed: \|actual - expected\| = 0\.5 > "
                     r"tolerance 0\.003 ", out)
    assert "    expectNear(lerp(2.0, 4.0, 0.25), 3.0);\n  actual:   2.5\n  expected: 3.0" in out
    assert "Traceback" not in out and "asyncshader/" not in out  # the WGSL, not Python


def test_the_schedules_marker_finds_a_lost_update_and_its_line_replays_it(pytester):
    pytester.makefile(".wgsl", test_racy=RACY)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "test_racy.wgsl:12: expect failed: the condition is false" in out
    line = next(line for line in out.splitlines() if "reproduce: pytest" in line)
    assert line.startswith("reproduce: pytest 'test_racy.wgsl::counts_visits' ")
    trace = re.search(r"--asyncshader-replay=(\S+)", line).group(1)
    again = pytester.runpytest("-p", "no:cacheprovider",
                               "test_racy.wgsl::counts_visits", f"--asyncshader-replay={trace}")
    again.assert_outcomes(failed=1)
    assert "replayed 1 schedule(s) from --asyncshader-replay" in again.stdout.str()
    # in order, every invocation sees the others' stores: no update lost
    in_order = RACY.replace("runs=30, races=False", "runs=1, strategy='in_order', races=False")
    pytester.makefile(".wgsl", test_racy=in_order)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(
        passed=1)


def test_the_race_detector_fails_a_racy_test_under_the_marker(pytester):
    # the expectation holds whatever the schedule: the race is what fails the test
    racy = RACY.replace(", races=False", "").replace("visits == 4u", "visits >= 1u")
    pytester.makefile(".wgsl", test_racy=racy)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "data race on workgroup memory visits" in out
    assert "at test_racy.wgsl:10: visits = seen + 1u;" in out


def test_a_file_that_is_not_valid_wgsl_is_a_collection_error_with_the_diagnostic(pytester):
    pytester.makefile(".wgsl", test_broken="import wgsl_test::expect;\n\n"
                      "@test fn broken() {\n    expect(undeclared > 1);\n}\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert re.search(r"test_broken\.wgsl:4:12: .*undeclared", out)
    assert "^" in out


def test_the_ini_option_names_the_patterns_and_empty_collects_none(pytester):
    pytester.makefile(".wgsl", test_lerp=FAILING, lerp_checks=FAILING)
    pytester.makeini("[pytest]\nasyncshader_wgsl_tests = *_checks.wgsl\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=2, failed=1)
    assert "lerp_checks.wgsl::lerp_wrong FAILED" in result.stdout.str()
    pytester.makeini("[pytest]\nasyncshader_wgsl_tests =\n")
    assert pytester.runpytest("-p", "no:cacheprovider").ret == 5  # (no tests collected)


def test_a_test_that_never_ends_fails_with_the_wgsl_line_it_spins_at(pytester):
    pytester.makefile(".wgsl", test_spin="import wgsl_test::expect;\n"
                      "var<workgroup> x: atomic<u32>;\n\n"
                      "@test fn spins() {\n    loop {\n        atomicAdd(&x, 1u);\n    }\n}\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "StepLimitError: invocation global_invocation_id=(0,0,0)" in out
    assert "test_spin.wgsl:6: atomicAdd(&x, 1u);" in out and "Traceback" not in out
