"""A fixed sample of Dawn's WGSL test corpus (tests/data/tint: 205 programs, up to ten from
each folder of Dawn's ``test/tint``) parses, and resolves unless it enables a browser-specific
extension. The whole corpus runs from ``python benchmarks/wgsl_corpus.py DAWN/test/tint``."""

import re
from pathlib import Path

import pytest
from helpers import ROOT

from asyncshader.front.wgsl import WGSLError, check, parse_wgsl_file, resolve_wgsl_file, syntax

SAMPLE = ROOT / "tests" / "data" / "tint"
FILES = sorted(SAMPLE.rglob("*.wgsl"))
NOT_WGSL = re.compile(r"^(enable|requires) (chromium_\w+|texel_buffers|atomic_vec2u_min_max)",
                      re.M)


def test_the_sample_is_there():
    assert len(FILES) == 205
    assert sum(bool(NOT_WGSL.search(p.read_text(encoding="utf-8"))) for p in FILES) == 8


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLE)))
def test_a_dawn_program_parses_and_resolves(path: Path):
    text = path.read_text(encoding="utf-8")
    module = parse_wgsl_file(path)
    assert module.decls
    assert all(0 <= d.span.start < d.span.end <= len(text) for d in module.decls)
    extension = NOT_WGSL.search(text)
    if extension:  # a browser's own extension is refused, at its directive
        with pytest.raises(WGSLError, match=f"'{extension.group(2)}' is not a WGSL"):
            resolve_wgsl_file(path)
        return
    resolved = resolve_wgsl_file(path)
    unbound = [i.name for d in resolved.module.decls for i in _idents(d) if i.target is None]
    assert unbound == []


def _idents(node) -> list[syntax.Ident]:
    found, stack = [], [node]
    while stack:
        x = stack.pop()
        if isinstance(x, syntax.Ident):
            found.append(x)
        if isinstance(x, syntax.Attribute) and x.name in ("builtin", "interpolate",
                                                          "diagnostic"):
            continue  # their arguments are names WGSL does not scope
        if isinstance(x, list):
            stack.extend(x)
        elif hasattr(x, "__slots__") and not isinstance(x, str):
            for cls in type(x).__mro__:
                stack.extend(getattr(x, n, None) for n in getattr(cls, "__slots__", ())
                             if n != "target")
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLE)))
def test_a_dawn_program_type_checks(path: Path):
    if NOT_WGSL.search(path.read_text(encoding="utf-8")):
        return
    if path.name == "json-diagnostics-error-with-notes.wgsl":  # Tint rejects it: uniformity
        with pytest.raises(WGSLError, match="'workgroupBarrier' must only be called from "
                           "uniform control flow"):
            check(resolve_wgsl_file(path))
        return
    typed = check(resolve_wgsl_file(path))
    untyped = [e for e in _expressions(typed.resolved.module) if not e.stage]
    assert untyped == []


def _expressions(node) -> list[syntax.Expr]:
    """Every expression of a module but the types (a declaration's, a callee) and the names in
    ``@builtin(...)``-like attributes."""
    found, stack = [], [node]
    while stack:
        x = stack.pop()
        if isinstance(x, syntax.Expr):
            found.append(x)
        if isinstance(x, syntax.Attribute) and x.name in ("builtin", "interpolate",
                                                          "diagnostic"):
            continue
        if isinstance(x, syntax.Ident):
            stack.extend(x.template or ())  # (a type's template list: typed as needed)
            continue
        if isinstance(x, list):
            stack.extend(x)
        elif hasattr(x, "__slots__") and not isinstance(x, str):
            for cls in type(x).__mro__:
                stack.extend(getattr(x, n, None) for n in getattr(cls, "__slots__", ())
                             if n not in ("target", "type", "stage", "callee", "return_type",
                                          "template"))
    return found
