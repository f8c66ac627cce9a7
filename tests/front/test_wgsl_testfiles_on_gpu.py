"""The same WGSL test files on a GPU: each file linked here as wgsl-test links it (its imports
and ``@test`` attributes removed, an assertion library, one ``@compute @workgroup_size(1)``
entry point per test that calls it) runs on lavapipe, and every test's verdict there is the
one asyncshader gives. The library below is written here from wgsl-test's documented rules
(API.md, "Assertion functions"), independently of asyncshader's Python checks; wgsl-test
itself is not on the npm registry this machine reaches."""

import re

import numpy as np
import pytest
from helpers import ROOT
from ports import wgsl_originals

from asyncshader.front.wgsl.testfiles import WGSLTestFailure, load_test_file, run_test

LIBRARY = {
    "expect": "fn expect(condition: bool) { if (!condition) { wgsl_test_result[0] = 0u; } }",
    "expectEq": "fn expectEq(actual: u32, expected: u32) "
                "{ if (actual != expected) { wgsl_test_result[0] = 0u; } }",
    "expectWithin": "fn expectWithin(actual: f32, expected: f32, relTol: f32, absTol: f32) {"
                    " if (abs(actual - expected) > max(absTol, relTol * max(abs(actual), "
                    "abs(expected)))) { wgsl_test_result[0] = 0u; } }",
    "expectNear": "fn expectNear(actual: f32, expected: f32) "
                  "{ expectWithin(actual, expected, 1e-3, 1e-6); }",
    "expectUlp": "fn expectUlp(actual: f32, expected: f32, maxUlp: u32) {"
                 " if (actual != expected && u32(abs(bitcast<i32>(actual) - "
                 "bitcast<i32>(expected))) > maxUlp) { wgsl_test_result[0] = 0u; } }",
}
for n in (2, 3, 4):
    LIBRARY[f"expectNearVec{n}"] = (
        f"fn expectNearVec{n}(actual: vec{n}f, expected: vec{n}f) {{"
        f" if (any(abs(actual - expected) > max(vec{n}f(1e-6), 1e-3 * max(abs(actual), "
        "abs(expected))))) { wgsl_test_result[0] = 0u; } }")
NEEDS = {"expectNear": ["expectWithin"]}


def linked(text, test):
    """The module wgsl-test runs for ``test``: the file without its imports and ``@test``
    attributes, the assertions it imports, and an entry point calling the test."""
    imported = []
    for names in re.findall(r"import\s+wgsl_test::\{?([\w\s,]+)\}?\s*;", text):
        imported += re.findall(r"\w+", names)
    body = re.sub(r"import\s+wgsl_test::[^;]*;", "", text)
    body = re.sub(r"@test\b(\s*\([^)]*\))?", "", body)
    wanted = list(dict.fromkeys(dep for name in imported for dep in [*NEEDS.get(name, []), name]))
    return "\n".join([
        body, "@group(0) @binding(0) var<storage, read_write> wgsl_test_result: array<u32>;",
        *(LIBRARY[name] for name in wanted),
        f"@compute @workgroup_size(1) fn wgsl_test_entry() {{ wgsl_test_result[0] = 1u; "
        f"{test}(); }}"])


def on_gpu(device, text, test):
    wgsl = linked(text, test)
    result = wgsl_originals.run(device, wgsl, "wgsl_test_entry", 1,
                                wgsl_test_result=np.full(1, 7, np.uint32))
    return {1: True, 0: False}[int(result["wgsl_test_result"][0])]


def on_cpu(path):
    loaded = load_test_file(path)
    verdicts = {}
    for test in loaded.tests:
        try:
            run_test(loaded, test)
            verdicts[test.name] = True
        except WGSLTestFailure:
            verdicts[test.name] = False
    return verdicts


MIXED = """import wgsl_test::{expect, expectEq, expectNear, expectUlp, expectNearVec2};

fn lerp(a: f32, b: f32, t: f32) -> f32 { return a + (b - a) * t; }

@test fn near() { expectNear(lerp(2.0, 4.0, 0.5), 3.0); }
@test fn far() { expectNear(lerp(2.0, 4.0, 0.25), 3.0); }
@test fn equal() { expectEq(u32(lerp(0.0, 10.0, 0.5)), 5u); }
@test fn unequal() { expectEq(u32(lerp(0.0, 10.0, 0.5)), 6u); }
@test fn one_ulp() { expectUlp(lerp(1.0, 1.0000002384185791, 0.5), 1.0, 1u); }
@test fn two_ulps() { expectUlp(1.0000002384185791, 1.0, 1u); }
@test fn vector() { expectNearVec2(vec2f(lerp(0.0, 1.0, 0.5), 2.0), vec2f(0.5, 2.001)); }
@test fn vector_off() { expectNearVec2(vec2f(0.5, 2.0), vec2f(0.5, 2.01)); }
@test fn later_failure_counts() { expect(true); expect(lerp(1.0, 3.0, 0.5) == 2.5); }
"""


def test_the_example_file_passes_on_lavapipe_as_it_does_here(gpu_device):
    path = ROOT / "examples" / "wgsl" / "test_easing.wgsl"
    text = path.read_text(encoding="utf-8")
    here = on_cpu(path)
    assert here == dict.fromkeys(["smootherstep_quarter", "smootherstep_clamps",
                                  "fade_halfway", "arrivals_are_counted_atomically"], True)
    assert {name: on_gpu(gpu_device, text, name) for name in here} == here


def test_each_verdict_on_lavapipe_is_the_one_given_here(gpu_device, tmp_path):
    path = tmp_path / "test_mixed.wgsl"
    path.write_text(MIXED, encoding="utf-8")
    here = on_cpu(path)
    # by hand: lerp(2, 4, 0.25) = 2.5 is 0.5 from 3; 6 != 5; 1 + 2^-22 is two floats from 1;
    # 2.01 is 0.01 from 2.0 (tolerance 0.00201); lerp(1, 3, 0.5) = 2 != 2.5
    assert here == {"near": True, "far": False, "equal": True, "unequal": False,
                    "one_ulp": True, "two_ulps": False, "vector": True, "vector_off": False,
                    "later_failure_counts": False}
    gpu = {name: on_gpu(gpu_device, MIXED, name) for name in here}
    assert gpu == here


@pytest.mark.parametrize("call", ["expectNear(1.0, 2.0)", "expect(false)"])
def test_the_linked_library_itself_can_fail(gpu_device, call):
    """(so that the agreement above is not two always-passing sides)"""
    text = f"import wgsl_test::{{expect, expectNear}};\n@test fn t() {{ {call}; }}\n"
    assert on_gpu(gpu_device, text, "t") is False
