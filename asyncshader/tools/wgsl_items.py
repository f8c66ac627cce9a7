"""pytest collects WGSL test files (wgsl-test's conventions, :mod:`asyncshader.front.wgsl.
testfiles`): each ``@test`` function is a test item run on the CPU; a failure names the WGSL
lines of the expectations that failed and their values. Files named as the
``asyncshader_wgsl_tests`` ini option says (default ``test_*.wgsl *.test.wesl``; empty: none)
are collected. ``// @pytest.mark.schedules(runs=50)`` above a test explores its dispatch under
the plugin's schedules, as for a Python test."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

from ..errors import AsyncShaderError
from ..front.wgsl.source import WGSLError
from ..front.wgsl.testfiles import (
    TEST_FILE_PATTERNS,
    WGSLTest,
    WGSLTestFailure,
    WGSLTestFile,
    load_test_file,
    run_test,
)

INI = "asyncshader_wgsl_tests"


def add_options(parser: Any) -> None:
    parser.addini(INI, type="args", default=list(TEST_FILE_PATTERNS),
                  help="file name patterns of WGSL test files (@test functions, wgsl-test's "
                       "conventions) that pytest collects; empty: none")


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    if any(fnmatch(file_path.name, pattern) for pattern in parent.config.getini(INI)):
        return WGSLFile.from_parent(parent, path=file_path)
    return None


class WGSLFile(pytest.File):
    """A WGSL test file: one item per ``@test`` function."""

    def collect(self) -> Any:
        try:
            loaded = load_test_file(self.path)
        except WGSLError as exc:  # the compiler's diagnostic, without a Python traceback
            raise self.CollectError(str(exc)) from None
        for test in loaded.tests:
            item = WGSLItem.from_parent(self, name=test.name, loaded=loaded, test=test)
            for name, args, kwargs in test.markers:
                item.add_marker(getattr(pytest.mark, name)(*args, **kwargs))
            if test.skip is not None:
                item.add_marker(pytest.mark.skip(reason=test.skip))
            yield item


class WGSLItem(pytest.Item):
    """One ``@test`` function. ``obj`` runs it (the plugin's schedules marker wraps it as it
    wraps a Python test function)."""

    def __init__(self, *, loaded: WGSLTestFile, test: WGSLTest, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loaded, self.test = loaded, test
        self.obj = self.run_once

    def run_once(self) -> None:
        run_test(self.loaded, self.test)

    def runtest(self) -> None:
        self.obj()

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        exc = excinfo.value
        if isinstance(exc, (AssertionError, AsyncShaderError)):  # (they name the WGSL lines)
            head = str(exc) if isinstance(exc, WGSLTestFailure) else \
                f"{type(exc).__name__}: {exc}"
            return "\n".join([head, *getattr(exc, "__notes__", ())])
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, self.test.line - 1, f"WGSL @test {self.test.name}"
