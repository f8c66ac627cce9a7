"""A fixed sample of Dawn's WGSL test corpus (tests/data/tint: 205 programs, up to ten from
each folder of Dawn's ``test/tint``) parses. The whole corpus runs from
``python benchmarks/wgsl_corpus.py DAWN/test/tint`` (docs/wgsl-front-end.md)."""

from pathlib import Path

import pytest
from helpers import ROOT

from asyncshader.front.wgsl import parse_wgsl_file, syntax

SAMPLE = ROOT / "tests" / "data" / "tint"
FILES = sorted(SAMPLE.rglob("*.wgsl"))


def test_the_sample_is_there():
    assert len(FILES) == 205


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLE)))
def test_a_dawn_program_parses(path: Path):
    module = parse_wgsl_file(path)
    assert isinstance(module, syntax.Module)
    # every program declares something; each declaration's span lies inside the file
    text = path.read_text(encoding="utf-8")
    assert module.decls
    assert all(0 <= d.span.start < d.span.end <= len(text) for d in module.decls)
