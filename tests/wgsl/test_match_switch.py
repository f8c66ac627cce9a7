"""``match`` on integers is WGSL's ``switch``: Python runs it with ``switch``'s meaning (the
first case whose constant equals the selector, else ``case _``, else nothing); what
``switch`` cannot mean is refused when the shader is decorated, naming the line and the fix;
to_wgsl writes ``switch`` with a ``default``, cross-checked on lavapipe."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import i32, u32
from asyncshader.emit import WGSLEmitError, to_wgsl


class Mode:
    """Named case constants (WGSL: `const MODE_SCALE = 4;`)."""

    SCALE = 4


def classify(x: u32) -> u32:
    r = u32(0)
    match x % 5:
        case 0:
            r = u32(10)
        case 1 | 2:
            r = u32(20)
        case _:
            r = u32(30)
    return r


@ash.compute(workgroup_size=16)
async def dispatch_modes(out: ash.Storage[u32], signed: ash.Storage[i32], *,
                         local_invocation_index: u32):
    i = local_invocation_index
    v = u32(0)
    match i:
        case 3:
            v = u32(300)
        case Mode.SCALE | 5:
            v = classify(i) + 1
        case 7:
            pass                     # stays 0
        case 3 | 8:                  # 3 was taken above: only 8 selects this case
            v = u32(800)
        case _:
            v = classify(i)
    out[i] = v
    match i32(i) - 8:                # no `case _`: nothing runs for the others
        case -8 | -1:
            signed[i] = -1
        case 0:
            found = i32(100)         # first assigned in a case, read after the match
            signed[i] = found
        case 7:
            signed[i] = 7


EXPECTED = [10, 20, 20, 300, 31, 11, 20, 0, 800, 30, 10, 20, 20, 30, 30, 10]


def test_match_runs_with_switch_meaning_on_the_cpu():
    out, signed = np.zeros(16, np.uint32), np.full(16, 9, np.int32)
    ash.run(dispatch_modes, out=out, signed=signed)
    assert out.tolist() == EXPECTED
    assert signed.tolist() == [-1, 9, 9, 9, 9, 9, 9, -1, 100, 9, 9, 9, 9, 9, 9, 7]


def test_match_is_emitted_as_switch_and_agrees_with_lavapipe(crosscheck):
    text = to_wgsl(dispatch_modes)
    assert "    switch i {\n        case 3: {\n            v = 300u;\n        }\n" \
        "        case 4, 5: {\n            v = classify(i) + 1;\n        }\n" \
        "        case 7: {\n        }\n        case 8: {\n            v = 800u;\n        }\n" \
        "        default: {\n            v = classify(i);\n        }\n    }\n" in text
    assert "switch x % 5 {\n        case 0: {" in text
    assert "case -8, -1: {" in text and "        default: {}\n    }" in text
    report = crosscheck(dispatch_modes, 1, out=np.zeros(16, np.uint32),
                        signed=np.full(16, 9, np.int32))
    assert report.gpu["out"].tolist() == EXPECTED


@pytest.mark.parametrize("case, why", [
    ("case x:", r"`case x:` captures the selector into a name"),
    ("case 1 as y:", r"`case 1 as y:` captures the selector"),
    ("case 1.5:", r"`case 1.5:` is not an integer constant"),
    ("case 'a':", r"`case 'a':` is not an integer constant"),
    ("case True:", r"`case True:` is not an integer constant"),
    ("case [1, 2]:", r"`case \[1, 2\]:` is not an integer constant"),
    ("case 1 if i > 2:", r"`case 1 if i > 2:` has a guard"),
])
def test_patterns_switch_cannot_express_are_refused_at_decoration(tmp_path, case, why):
    source = (f"import asyncshader as ash\n\n@ash.compute(workgroup_size=1)\n"
              f"async def k(out: ash.Storage[ash.u32], *, local_invocation_index: ash.u32):\n"
              f"    i = local_invocation_index\n    match i:\n        {case}\n"
              f"            out[0] = 1\n")
    path = tmp_path / "shader.py"
    path.write_text(source)
    with pytest.raises(ash.ShaderCreationError, match=rf"shader.py:7: k: {why}.*Fix: .*write "
                       r"integer cases: `case 1:`, `case 2 \| 3:`"):
        exec(compile(source, str(path), "exec"), {"__name__": "shader_under_test"})


def test_a_break_inside_a_case_is_refused_at_decoration():
    with pytest.raises(ash.ShaderCreationError, match=r"test_match_switch.py:\d+: "
                       r".*`break` inside a `match` case: WGSL's `break` would leave the "
                       r"switch.*Fix: set a flag"):
        @ash.compute(workgroup_size=1)
        async def k(out: ash.Storage[u32]):
            for j in range(4):
                match j:
                    case 2:
                        break
                    case _:
                        out[j] = u32(j)


def test_a_helper_with_a_bad_case_is_refused_at_its_first_dispatch():
    def helper(x: u32) -> u32:
        match x:
            case y:
                return y
        return u32(0)

    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[u32]):
        out[0] = helper(u32(3))

    with pytest.raises(ash.ShaderCreationError, match=r"helper: `case y:` captures"):
        ash.run(k, out=np.zeros(1, np.uint32))


def test_a_float_selector_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def k(out: ash.Storage[ash.f32]):
        match out[0]:
            case 1:
                out[0] = 2.0

    with pytest.raises(WGSLEmitError, match=r"`match out\[0\]` on a f32 \(WGSL's switch "
                       r"selects on i32 or u32\).*Fix: match an integer"):
        to_wgsl(k)


@ash.compute(workgroup_size=4)
async def skip_ones(out: ash.Storage[u32], *, local_invocation_index: u32):
    total = u32(0)
    for j in range(6):
        match j % 3:
            case 1:
                continue             # WGSL's continue in a switch continues the loop too
            case _:
                total += u32(j)
    out[local_invocation_index] = total + local_invocation_index


def test_continue_inside_a_case_continues_the_loop(crosscheck):
    out = np.zeros(4, np.uint32)
    ash.run(skip_ones, out=out)
    assert out.tolist() == [10, 11, 12, 13]          # 0 + 2 + 3 + 5, plus the index
    assert "            case 1: {\n                continue;\n            }" in to_wgsl(skip_ones)
    assert crosscheck(skip_ones, 1, out=np.zeros(4, np.uint32)).gpu["out"].tolist() == \
        [10, 11, 12, 13]
