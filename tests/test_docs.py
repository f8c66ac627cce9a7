"""The documentation runs: every ```python block of README.md and docs/ (tutorials included;
pytest files under pytest), every relative link and #anchor in docs/ resolves, the mkdocs site
builds with --strict, and a built page looks right in headless Chromium. Illustrative fragments
are ```text blocks; a ```python block that must not run is preceded by a line
``<!-- no-run: the reason -->``."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
NO_RUN = re.compile(r"<!-- no-run: (.*?) -->\n$")


def _blocks():
    for page in [ROOT / "README.md", *PAGES]:
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT).as_posix()
        for n, m in enumerate(re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M)):
            skip = NO_RUN.search(text[:m.start()][-300:])
            marks = [pytest.mark.skip(reason=f"marked no-run: {skip.group(1)}")] if skip else []
            yield pytest.param(m.group(1), id=f"{name}#{n}", marks=marks)


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


def test_every_no_run_mark_says_why():
    for page in [ROOT / "README.md", *PAGES]:
        for reason in re.findall(r"<!-- no-run:(.*?)-->", page.read_text(encoding="utf-8")):
            assert len(reason.split()) >= 3, f"{page.name}: a no-run mark needs a reason"


def _slugs(page: pathlib.Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {re.sub(r"[^\w\- ]", "", t.strip().lower()).replace(" ", "-")
            for t in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("page", [p.relative_to(DOCS).as_posix() for p in PAGES])
def test_relative_links_and_anchors_resolve(page):
    text = re.sub(r"^```.*?^```", "", (DOCS / page).read_text(encoding="utf-8"),
                  flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code: `bitcast[u32](x)` is not a link
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = ((DOCS / page).parent / path) if path else DOCS / page
        assert linked.exists(), f"{page} links to missing {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _slugs(linked), f"{page} links to missing anchor {target}"


# ------------------------------------------------------------------------------ the docs site
@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built by ``mkdocs build --strict`` into a temporary folder (the ``docs`` extra
    installs mkdocs, mkdocs-material and mkdocstrings; the ``test`` extra has them too)."""
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{module} is not installed: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return out


def test_mkdocs_build_strict_builds_every_page(site):
    for page in PAGES:
        rel = page.relative_to(DOCS).with_suffix("")
        built = site / "index.html" if rel.name == "index" else site / rel / "index.html"
        assert built.is_file(), f"{page.name} was not built"
    assert (site / "images" / "fwidth_ring.png").is_file()


def test_the_reference_is_generated_from_the_docstrings(site):
    html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for name in ("asyncshader.run", "asyncshader.Replay", "asyncshader.stepper",
                 "asyncshader.Stepper", "asyncshader.puzzles.check"):
        assert f'id="{name}"' in html, name
    # a sentence that exists only in the docstring of run()
    assert "Dispatches <code>kernel</code> over <code>workgroups</code>" in html
    assert ":class:" not in html  # the roles render as code (mkdocs_hooks.py)


def test_a_tutorial_page_in_a_browser(site, chromium, tmp_path):
    """Opened as a person would: the live DOM after the page's scripts ran, and its pixels."""
    page = site / "tutorials" / "quads" / "index.html"
    dom = chromium(page, "--virtual-time-budget=3000", "--dump-dom")
    assert "<h1" in dom and "Quads and derivatives" in dom
    assert re.search(r'<html [^>]*class="[^"]*\bjs\b', dom)  # the theme's scripts ran
    nav = re.findall(r'<a href="[^"]*" class="md-nav__link', dom)
    assert len(nav) >= 20  # the site's navigation: every page
    assert len(re.findall(r'<pre id="__code_\d+">', dom)) == 2  # the two code blocks
    # their copy buttons, which the scripts add
    assert len(re.findall(r'<button class="md-code__button"[^>]*data-md-type="copy"', dom)) == 2
    assert re.search(r'<img [^>]*src="\.\./\.\./images/fwidth_ring\.png"', dom)
    shot = tmp_path / "page.png"
    chromium(page, "--window-size=1280,900", "--virtual-time-budget=3000",
             f"--screenshot={shot}")
    Image = pytest.importorskip("PIL.Image")
    with Image.open(shot) as im:
        rgb = im.convert("RGB")
        header = [rgb.getpixel((x, 10)) for x in range(300, 1200, 50)]
        # the theme's primary colour (indigo #4051b5) across the header bar: the CSS loaded
        assert all(abs(r - 0x40) + abs(g - 0x51) + abs(b - 0xB5) < 24 for r, g, b in header)
        body = rgb.crop((290, 100, 970, 880))
        colours = body.getcolors(maxcolors=1 << 16) or []
        assert len(colours) > 50  # text and highlighted code, not an empty page
