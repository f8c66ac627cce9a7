"""WGSL test files in the conventions of wgsl-test (the npm package of wesl-js that runs
``@test`` functions on a GPU), run on the CPU by :func:`load_wgsl`'s kernels.

A test file imports wgsl-test's assertions (``import wgsl_test::expectNear;`` or
``import wgsl_test::{expect, expectEq};``) and marks functions without parameters ``@test``
(``@test(description)`` names one). wgsl-test links such a file with its assertion library
and, for each test, a ``@compute @workgroup_size(1)`` entry point that calls it, and reports
a test failed when one of its expectations failed. Here the file's text becomes a WGSL
module the same way, line for line (the import statements and ``@test`` attributes are
blanked, ``@buffer`` becomes ``@group(0) @binding(N)`` as wgsl-test numbers them, and the
assertions' declarations and the entry points follow the file's last line), so diagnostics and
reports name the file's own lines. The assertions are WGSL functions with wgsl-test's
signatures (so a call type-checks as it does there) whose calls are checked in Python with
wgsl-test's arithmetic in f32, each failed one recorded with its line and values; the test
runs to its end as on a GPU and fails with every expectation that failed. A test's kernel run
otherwise (``ash.run``, ``explore``) raises :class:`WGSLTestFailure` at its first failed
expectation.

A ``// @pytest.mark.NAME(...)`` comment line just above a test gives it a pytest marker (the
plugin's ``schedules``, or ``workgroup_size(n)``: the test runs as a workgroup of ``n``
invocations instead of one; wgsl-test reads comments as comments)."""

from __future__ import annotations

import ast as pyast
import linecache
import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...exploration.parallel import Recipe
from ...sanitizers.findings import errors_of, render_findings
from ...sanitizers.races import DEFAULT_FINDINGS
from ...stages.compute import run
from .load import WGSLModule, load_source
from .source import Source, Span, error_at

#: the file names pytest collects as WGSL test files (the ``asyncshader_wgsl_tests`` ini
#: option changes them); ``*.test.wesl`` is what ``wgsl-test run`` finds by itself
TEST_FILE_PATTERNS = ("test_*.wgsl", "*.test.wesl")

#: ``expectNear``'s tolerances in wgsl-test's library (shaders/lib.wesl)
REL_TOL, ABS_TOL = 1e-3, 1e-6

#: wgsl-test's assertion functions and their WGSL parameters (shaders/lib.wesl)
ASSERTIONS: dict[str, str] = {
    "expect": "condition: bool",
    "expectEq": "actual: u32, expected: u32",
    "expectNear": "actual: f32, expected: f32",
    "expectWithin": "actual: f32, expected: f32, relTol: f32, absTol: f32",
    "expectUlp": "actual: f32, expected: f32, maxUlp: u32",
}
for _n in (2, 3, 4):
    ASSERTIONS[f"expectNearVec{_n}"] = f"actual: vec{_n}f, expected: vec{_n}f"
    ASSERTIONS[f"expectWithinVec{_n}"] = (f"actual: vec{_n}f, expected: vec{_n}f, relTol: f32, "
                                          "absTol: f32")
    ASSERTIONS[f"expectUlpVec{_n}"] = f"actual: vec{_n}f, expected: vec{_n}f, maxUlp: u32"

#: the failed expectations of the test running now
_FAILED: ContextVar[list | None] = ContextVar("asyncshader_wgsl_test_failures", default=None)


class WGSLTestFailure(AssertionError):
    """A WGSL ``@test`` function's expectations failed (or its run had a data race): the
    message names each failed expectation's ``file:line``, the line and the values."""


@dataclass
class WGSLTest:
    """One ``@test`` function: its name, wgsl-test's description (``@test(description)``),
    line, the entry point that runs it, its markers ``(name, args, kwargs)`` and, for a
    function with parameters (wgsl-test skips those), why it is skipped."""

    name: str
    line: int
    entry: str
    description: str | None = None
    markers: list[tuple[str, tuple, dict]] = field(default_factory=list)
    skip: str | None = None


@dataclass
class WGSLTestFile:
    """A loaded test file: its tests, the module that runs them and its ``@buffer``
    variables (zeroed for each test, as wgsl-test does)."""

    name: str
    tests: list[WGSLTest]
    module: WGSLModule
    buffers: list[str]


@dataclass
class _Failed:
    assertion: str
    where: str
    line: str
    values: tuple
    why: str


def load_test_file(path: str | Path) -> WGSLTestFile:
    """Reads a WGSL test file (wgsl-test's conventions) into its tests; a file that is not
    valid is a :class:`~asyncshader.front.wgsl.WGSLError` at its ``file:line:col``."""
    return _linked(Source.read(path))


def _linked(source: Source) -> WGSLTestFile:
    text, tests, buffers = _prepare(source)
    module = load_source(Source(text, source.name))
    for name in ASSERTIONS:
        if name in module.namespace:
            module.namespace[name] = _Assertion(name)
    for entry, kernel in module.kernels.items():  # (explore's workers link the file again)
        kernel.__asyncshader_recipe__ = TestKernelRecipe(source.name, source.text, entry)
    return WGSLTestFile(source.name, tests, module, buffers)


@dataclass(frozen=True)
class TestKernelRecipe(Recipe):
    """A test file's kernel by reference to the file's text: a worker of
    ``explore(workers=N)`` links the file again (its assertions included)."""

    name: str
    text: str
    entry: str

    def resolve(self) -> Any:
        return _linked(Source(self.text, self.name)).module.kernels[self.entry]


def run_test(test_file: WGSLTestFile, test: WGSLTest, *, schedule: Any = None) -> Any:
    """Runs one test as wgsl-test does (one invocation of its entry point, ``@buffer``
    variables zeroed) and raises :class:`WGSLTestFailure` when an expectation failed or the
    race detector found an error. Under ``@pytest.mark.schedules`` the schedule and the race
    detector's findings are the marker's."""
    module = test_file.module
    used = {r.name for r in module.reflection.entry_points[test.entry].resources}
    bindings = {name: _zeroed(module, name) for name in test_file.buffers if name in used}
    marked = DEFAULT_FINDINGS.get() is not None  # (the marker collects the findings)
    failed: list[_Failed] = []
    token = _FAILED.set(failed)
    try:
        result = run(module[test.entry], 1, schedule=schedule,
                     sanitize=None if marked else "report", **bindings)
    finally:
        _FAILED.reset(token)
    races = [] if marked else errors_of(result.findings)
    if failed or races:
        raise WGSLTestFailure(_report(test, failed, races))
    return result


# ---- the file's text as a module ---------------------------------------------------------
_IMPORT = re.compile(r"\bimport\b[^;]*;")
_TEST = re.compile(r"@test\b(\s*\(([^)]*)\))?")
_FN_AFTER = re.compile(r"(\s*@\w+(\s*\([^)]*\))?)*\s*fn\s+(\w+)\s*\(([^)]*)\)")
_MARK = re.compile(r"^\s*//\s*@pytest\.mark\.(\w+)\s*(\((.*)\))?\s*$")
_BUFFER = re.compile(r"@buffer\b")


def _prepare(source: Source) -> tuple[str, list[WGSLTest], list[str]]:
    """The module text of a test file, its tests and its ``@buffer`` variables."""
    text = source.text
    code = _code_only(text)
    out = list(text)

    def blank(start: int, end: int) -> None:
        out[start:end] = [c if c in "\r\n" else " " for c in text[start:end]]

    imported: list[str] = []
    for m in _IMPORT.finditer(code):
        imported += _imported(source, m)
        blank(m.start(), m.end())
    tests = []
    for m in _TEST.finditer(code):
        fn = _FN_AFTER.match(code, m.end())
        if fn is None:
            raise error_at(source, Span(m.start(), m.end()), "@test marks a function: "
                           "`@test fn name() { ... }`")
        name, line = fn.group(3), source.line_col(m.start())[0]
        test = WGSLTest(name, line, f"asyncshader_test_{name}",
                        (m.group(2) or "").strip() or None, _markers(source, line))
        if fn.group(4).strip():
            test.skip = (f"@test function '{name}' has parameters: wgsl-test skips it (a test "
                         "takes none)")
        tests.append(test)
        blank(m.start(), m.end())
    marks = list(_BUFFER.finditer(code))
    buffers = []
    for m in marks:
        var = re.match(r"\s*var\s*(<[^>]*>)?\s*(\w+)", code[m.end():])
        buffers.append(var.group(2) if var else "")
    for n, m in reversed(list(enumerate(marks, 1))):  # (numbered 1, 2 ... as wgsl-test does)
        out[m.start():m.end()] = f"@group(0) @binding({n})"
    text = "".join(out)
    for name in dict.fromkeys(imported):
        if re.search(rf"\bfn\s+{name}\b", code):
            raise error_at(source, Span(0, 0), f"'{name}' is imported from wgsl_test and "
                           "declared in the file: rename the file's function")
    lib = [f"fn {name}({ASSERTIONS[name]}) {{}}" for name in dict.fromkeys(imported)]
    entries = []
    for t in tests:
        if t.skip is None:
            size = next((", ".join(map(str, args)) for mark, args, _ in t.markers
                         if mark == "workgroup_size"), "1")
            entries.append(f"@compute @workgroup_size({size}) fn {t.entry}() {{ {t.name}(); }}")
    return text + "\n" + "\n".join(lib + entries) + "\n", tests, buffers


def _imported(source: Source, m: re.Match) -> list[str]:
    """The names an ``import wgsl_test::...;`` statement imports."""
    body = re.sub(r"\s+", "", m.group()[len("import"):-1])
    found = re.fullmatch(r"wgsl_test::(\w+|\{\w+(,\w+)*,?\})", body)
    names = re.findall(r"\w+", found.group(1)) if found else []
    unknown = [n for n in names if n not in ASSERTIONS]
    if not found or unknown:
        what = (f"wgsl_test has no assertion {', '.join(unknown)} (it has "
                f"{', '.join(ASSERTIONS)})" if found else
                "a test file here runs on its own: it imports only wgsl-test's assertions "
                "(`import wgsl_test::expectNear;`); WESL's imports of other modules are not "
                "supported: put the code under test in the file")
        raise error_at(source, Span(m.start(), m.end()), what)
    return names


def _markers(source: Source, line: int) -> list[tuple[str, tuple, dict]]:
    """The ``// @pytest.mark.NAME(...)`` comment lines just above ``line``."""
    lines = source.text.splitlines()
    found = []
    n = line - 2
    while n >= 0 and lines[n].lstrip().startswith("//"):
        m = _MARK.match(lines[n])
        if m:
            try:
                call = pyast.parse(f"f({m.group(3) or ''})", mode="eval").body
                args = tuple(pyast.literal_eval(a) for a in call.args)
                kwargs = {k.arg: pyast.literal_eval(k.value) for k in call.keywords}
            except (SyntaxError, ValueError) as exc:
                start = source.line_starts[n]
                raise error_at(source, Span(start, start + len(lines[n])),
                               f"a marker's arguments must be Python literals ({exc})") from None
            if m.group(1) == "workgroup_size" and not (
                    1 <= len(args) <= 3 and all(isinstance(a, int) and a > 0 for a in args)):
                start = source.line_starts[n]
                raise error_at(source, Span(start, start + len(lines[n])),
                               "workgroup_size takes one to three positive integers")
            found.append((m.group(1), args, kwargs))
        n -= 1
    return found[::-1]


def _code_only(text: str) -> str:
    """``text`` with its comments blanked (WGSL's block comments nest), the same length."""
    out, i, depth = list(text), 0, 0
    while i < len(text):
        two = text[i:i + 2]
        if depth == 0 and two == "//":
            j = i
            while j < len(text) and text[j] not in "\n\r\v\f\u0085\u2028\u2029":
                out[j] = " "
                j += 1
            i = j
            continue
        if two == "/*" or (depth and two == "*/"):
            depth += 1 if two == "/*" else -1
            out[i] = out[i + 1] = " "
            i += 2
            continue
        if depth and text[i] not in "\r\n":
            out[i] = " "
        i += 1
    return "".join(out)


def _zeroed(module: WGSLModule, name: str) -> np.ndarray:
    """A ``@buffer`` variable's memory, zeroed bytes: WebGPU's least binding size (a
    runtime-sized array gets one element)."""
    resource = next(r for r in module.reflection.resources if r.name == name)
    return np.zeros(resource.min_size, np.uint8)


# ---- the assertions ----------------------------------------------------------------------
class _Assertion:
    """wgsl-test's assertion ``name``, checked here: called and awaited by the generated
    code as the WGSL function it stands for is. (An object, not a function: the kernel's
    scan for shader memory does not walk into it.)"""

    def __init__(self, name: str) -> None:
        self.name = name
        self.check = _CHECKS[re.sub(r"Vec\d$", "", name)]

    async def __call__(self, *args: Any) -> None:
        why = self.check(*args)
        if why is None:
            return
        frame = sys._getframe(1)  # the WGSL function that called it
        where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        failed = _FAILED.get()
        if failed is None:  # a test's kernel run by run() or explore(): this failure ends it
            raise WGSLTestFailure(_describe(_Failed(self.name, where, line, args, why)))
        failed.append(_Failed(self.name, where, line, args, why))


def _f32(value: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(list(value) if hasattr(value, "__iter__") else value,
                                    np.float32))


def _within(actual: Any, expected: Any, rel: Any = REL_TOL, abs_: Any = ABS_TOL) -> str | None:
    a, e = _f32(actual), _f32(expected)
    diff = np.abs(a - e)
    tol = np.maximum(np.float32(abs_), np.float32(rel) * np.maximum(np.abs(a), np.abs(e)))
    if not np.any(diff > tol):  # (wgsl-test's test: a NaN difference passes)
        return None
    return (f"|actual - expected| = {_show(diff)} > tolerance {_show(tol)} = max(absTol "
            f"{float(abs_):g}, relTol {float(rel):g} * max(|actual|, |expected|))")


def _ulp(actual: Any, expected: Any, max_ulp: Any) -> str | None:
    a, e = _f32(actual), _f32(expected)
    if np.all(a == e):
        return None
    # WGSL's u32(abs(bitcast<i32>(a) - bitcast<i32>(b))): i32 arithmetic wraps
    d = a.view(np.int32).astype(np.int64) - e.view(np.int32).astype(np.int64)
    d = ((d + 2**31) % 2**32) - 2**31
    d = np.where(d == -2**31, d, np.abs(d)) % 2**32
    if not np.any(d > int(max_ulp)):
        return None
    return f"{_show(d)} ULPs apart > maxUlp {int(max_ulp)}"


_CHECKS = {
    "expect": lambda c: None if c else "the condition is false",
    "expectEq": lambda a, e: None if a == e else f"{int(a)} != {int(e)}",
    "expectNear": _within,
    "expectWithin": _within,
    "expectUlp": _ulp,
}


def _show(value: Any) -> str:
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value[0]
    if isinstance(value, np.ndarray):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)).lower()
    if isinstance(value, np.floating):
        return str(value)  # (float32's shortest digits)
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "__iter__"):
        return f"{type(value).__name__}({', '.join(_show(v) for v in value)})"
    return str(int(value)) if isinstance(value, (int, np.integer)) else repr(value)


def _describe(f: _Failed) -> str:
    lines = [f"{f.where}: {f.assertion} failed: {f.why}", f"    {f.line}"]
    if f.assertion != "expect":
        lines += [f"  actual:   {_show(f.values[0])}", f"  expected: {_show(f.values[1])}"]
    return "\n".join(lines)


def _report(test: WGSLTest, failed: list[_Failed], races: list) -> str:
    title = test.name + (f" ({test.description})" if test.description else "")
    lines = [f"WGSL test {title} failed"]
    seen: dict[tuple[str, str], int] = {}
    for f in failed:
        seen[(f.where, f.assertion)] = seen.get((f.where, f.assertion), 0) + 1
        if seen[(f.where, f.assertion)] == 1:
            lines.append(_describe(f))
    for (where, name), n in seen.items():
        if n > 1:
            lines.append(f"({where}: {name} failed {n} times in all)")
    if races:
        lines.append("the race detector found errors:")
        lines.append(render_findings(races))
    return "\n".join(lines)
