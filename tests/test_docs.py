"""The documentation runs: every ```python block of README.md and docs/*.md (pytest files under
pytest), and every relative link and #anchor in docs/ resolves. Illustrative fragments are
```text blocks."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _blocks():
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for n, code in enumerate(re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)):
            yield pytest.param(code, id=f"{page.name}#{n}")


@pytest.mark.parametrize("code", list(_blocks()))
def test_python_block_runs(code, tmp_path):
    # snippets may import the examples by name (from lost_update import ...)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "examples")]))
    if "import pytest" in code:
        path = tmp_path / "test_doc_block.py"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)]
    else:
        path = tmp_path / "doc_block.py"
        cmd = [sys.executable, "-W", "error::RuntimeWarning", str(path)]
    path.write_text(code, encoding="utf-8")
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _slugs(page: pathlib.Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {re.sub(r"[^\w\- ]", "", t.strip().lower()).replace(" ", "-")
            for t in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_relative_links_and_anchors_resolve(page):
    text = re.sub(r"^```.*?^```", "", (DOCS / page).read_text(encoding="utf-8"),
                  flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code: `bitcast[u32](x)` is not a link
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (DOCS / path) if path else DOCS / page
        assert linked.exists(), f"{page} links to missing {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _slugs(linked), f"{page} links to missing anchor {target}"
