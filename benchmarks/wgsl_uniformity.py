"""The uniformity analysis (asyncshader/front/wgsl/uniformity.py) against Tint's and naga's
verdicts on Dawn's WGSL corpus: Tint's are in the corpus itself (each input's
``.expected.wgsl`` holds the diagnostics Tint printed: a uniformity error or warning, or the
program), naga's come from wgpu's ``create_shader_module`` on lavapipe. Only the files that
asyncshader type-checks count (the rest never reach the analysis). Prints every file where
asyncshader's verdict (error, warning, none) differs from Tint's, then the counts.

    python benchmarks/wgsl_uniformity.py DAWN/test/tint [--naga] [--time]

``--naga`` also asks naga (needs wgpu and a WebGPU adapter, ``asyncshader[gpu]``);
``--time`` measures what the analysis adds to loading: the time to parse, resolve and
type-check the files without it, and the time it then takes on the checked modules.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from asyncshader.front.wgsl import WGSLError, WGSLWarning, check_wgsl
from asyncshader.front.wgsl.check import Checker
from asyncshader.front.wgsl.parser import parse
from asyncshader.front.wgsl.resolve import resolve
from asyncshader.front.wgsl.source import Source
from asyncshader.front.wgsl.uniformity import Analysis

UNIFORMITY = re.compile(r"(error|warning): .*(uniform control flow|must be a uniform value)")


def tint(path: Path) -> str:
    """Tint's uniformity verdict on ``path``: "error", "warning" or "none"."""
    expected = path.with_name(path.name + ".expected.wgsl")
    text = expected.read_text(encoding="utf-8", errors="replace") if expected.is_file() \
        else ""
    found = UNIFORMITY.search(text) or re.search(
        r'"severity": "(error|warning)",\s*"message": "[^"]*uniform control flow', text)
    return found.group(1) if found else "none"


def mine(text: str, name: str) -> str | None:
    """asyncshader's verdict ("error", "warning", "none"), None where the text does not
    type-check for another reason."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check_wgsl(text, name)
        except WGSLError as error:
            return "error" if UNIFORMITY.search(str(error).splitlines()[0]) else None
    uniformity = [w for w in caught if issubclass(w.category, WGSLWarning)
                  and UNIFORMITY.search(str(w.message).splitlines()[0])]
    return "warning" if uniformity else "none"


def timing(texts: list[str], rounds: int = 3) -> tuple[float, float]:
    """Seconds to parse, resolve and type-check ``texts`` without the analysis, and seconds
    the analysis then takes on the checked modules (each the best of ``rounds``)."""
    checking = analysis = float("inf")
    for _ in range(rounds):
        checkers = []
        start = time.perf_counter()
        for text in texts:
            source = Source(text)
            checker = Checker(resolve(parse(source), source))
            checker.uniformity = "off"
            checker.run()
            checkers.append(checker)
        checking = min(checking, time.perf_counter() - start)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for checker in checkers:
                try:
                    Analysis(checker).run()
                except WGSLError:
                    pass
        analysis = min(analysis, time.perf_counter() - start)
    return checking, analysis


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--naga", action="store_true")
    parser.add_argument("--time", action="store_true")
    args = parser.parse_args()
    dev = None
    if args.naga:
        from asyncshader.extra.device import device
        dev = device()
    files = sorted(p for p in args.folder.rglob("*.wgsl") if ".expected." not in p.name)
    checked = agree_tint = agree_naga = naga_ok = 0
    texts = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        verdict = mine(text, str(path))
        if verdict is None:
            continue
        checked += 1
        texts.append(text)
        expected = tint(path)
        agree_tint += verdict == expected
        if verdict != expected:
            print(f"{path}: Tint {expected}, asyncshader {verdict}")
        if dev is not None:
            try:
                dev.create_shader_module(code=text)
                naga = "none"
            except Exception:  # wgpu's validation error (its class moves between versions)
                naga = "error"
            if naga == "none":
                naga_ok += 1
                agree_naga += verdict != "error"
                if verdict == "error":
                    print(f"{path}: naga accepts, asyncshader rejects (Tint {expected})")
    print(f"{checked} of {len(files)} files type-check; asyncshader's uniformity verdict "
          f"(error, warning, none) agrees with Tint's on {agree_tint}")
    if dev is not None:
        print(f"naga accepts {naga_ok} of them; asyncshader's analysis accepts {agree_naga} "
              "of those")
    if args.time:
        checking, analysis = timing(texts)
        print(f"the {len(texts)} files: parsing, resolving and type-checking "
              f"{1000 * checking / len(texts):.2f} ms a file, the analysis "
              f"{1000 * analysis / len(texts):.2f} ms more "
              f"({100 * analysis / checking:.0f}% of the rest)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
