"""What the documentation says about the public API is what the package has: every ``ash.NAME``
written in README.md and docs/ (prose, tables and ```text blocks alike: the ```python blocks
run in test_docs.py) is a public name of asyncshader, every ``asyncshader.NAME`` is a name or an
importable module, and no sentence says a public name is missing or still to come ("not built
yet", "once it lands", "being added") while the package has it."""

import importlib
import pathlib
import re
import warnings

import pytest

import asyncshader as ash

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: phrases that say something is absent now and may come later
ABSENT = re.compile(r"not built yet|once it lands|(?:is|are) being added|until then|"
                    r"not yet (?:built|supported|implemented|available)|"
                    r"not (?:supported|implemented|available) yet|\bnot yet\b|\byet\)?[.:;]|"
                    r"does not exist|no longer exists|there is no `|\bno `ash\.", re.I)

#: sentences that say "not yet" about a construct and name a public name only as the way it
#: would be written; (page, words of the sentence): each must still be on its page
TRUE_ABSENCES = {
    ("stepper.md", "fragment shaders are not stepped yet"),  # (StepperError says so too)
}


def _prose(page: pathlib.Path) -> str:
    """The page without its ```python blocks (those run: test_docs.py)."""
    return re.sub(r"^```python\n.*?^```", "", page.read_text(encoding="utf-8"),
                  flags=re.S | re.M)


def _sentences(text: str) -> list[str]:
    return [s.replace("\n", " ") for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*`(])|\n\s*\n", text)]


def _public(name: str) -> bool:
    return not name.startswith("_") and hasattr(ash, name)


#: features named in words, each with a public name that is the feature
FEATURES = {r"\bsubgroups?\b": "subgroup_add", r"\bf16\b": "f16", r"\bmatri(?:x|ces)\b": "mat4x4f",
            r"\bquads?\b": "quad_broadcast", r"\bderivatives?\b": "dpdx",
            r"\bfragment shaders?\b": "run_fragments"}


def _names_in(sentence: str) -> list[str]:
    """The public names a sentence mentions: ``ash.NAME``, backticked ``NAME(...)``, and the
    name of a feature it names in words (FEATURES)."""
    found = re.findall(r"\b(?:ash|asyncshader)\.([A-Za-z_]\w*)", sentence)
    found += re.findall(r"`([A-Za-z_]\w*)[`(]", sentence)
    found += [name for words, name in FEATURES.items() if re.search(words, sentence, re.I)]
    return sorted({n for n in found if _public(n)})


def _claims(text: str):
    for sentence in _sentences(text):
        if ABSENT.search(sentence) and _names_in(sentence):
            yield sentence


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_ash_name_in_the_docs_exists(page):
    text = _prose(page)
    missing = sorted({m for m in re.findall(r"(?<![\w.])ash\.([A-Za-z_]\w*)", text)
                      if not hasattr(ash, m)})
    assert not missing, f"{page.name} names ash.{', ash.'.join(missing)}: not in asyncshader"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_asyncshader_name_in_the_docs_exists(page):
    text = _prose(page)
    bad = []
    for name in sorted(set(re.findall(r"(?<![\w.\"'])asyncshader\.([A-Za-z_]\w*)", text))):
        if hasattr(ash, name):
            continue
        try:
            with warnings.catch_warnings():  # (the old module paths warn: api.md says so)
                warnings.simplefilter("ignore", DeprecationWarning)
                importlib.import_module(f"asyncshader.{name}")
        except ImportError:
            bad.append(name)
    assert not bad, f"{page.name} names asyncshader.{bad}: neither a name nor a module"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_says_a_public_name_is_still_to_come(page):
    known = [words for name, words in TRUE_ABSENCES if name == page.name]
    claims = [s for s in _claims(_prose(page)) if not any(w in s for w in known)]
    assert not claims, (f"{page.name} says something public is missing or still to come, "
                        "but asyncshader has it:\n" + "\n".join(
                            f"  {_names_in(s)}: {s[:200]}" for s in claims))


def test_each_true_absence_is_still_on_its_page():
    """An entry of TRUE_ABSENCES whose sentence left the docs must leave the list too."""
    for name, words in TRUE_ABSENCES:
        page = next(p for p in PAGES if p.name == name)
        assert words in _prose(page).replace("\n", " "), (name, words)


# ---------------------------------------------------------------------- the checks themselves
@pytest.mark.parametrize("sentence", [
    "Subgroup operations are not built yet: `subgroup_add` will come.",
    "Member types are `f32` (f16 once it lands).",
    "*Needs `subgroup_any`, which is being added: until then its checker says so.*",
    "Atomics through `ash.ptr` are not yet supported.",
    "Subgroup operations are not built yet.",
    "There is no `ash.workgroup_barrier`: use storage barriers.",
    "`select` does not exist among the built-ins.",
])
def test_a_claim_that_a_public_name_is_to_come_is_found(sentence):
    assert list(_claims(sentence)) == [sentence]


@pytest.mark.parametrize("sentence", [
    "WGSL has no `erf` built-in.",                     # no absence phrase, no public name
    "There is no vertex stage and no rasterizer.",
    "Tessellation is not built yet: `frobnicate` will come.",  # not a public name
])
def test_a_sentence_without_such_a_claim_is_not_flagged(sentence):
    assert list(_claims(sentence)) == []


# ------------------------------------------------------------- claims checked by running them
MARKERS = ("Storage", "ReadOnly", "Uniform", "Input")


def test_the_binding_annotations_are_never_written_as_calls():
    """``ash.Uniform`` and its siblings are annotations (``u: ash.Uniform[Params]``): calling
    one raises, so no page may show ``ash.Uniform(value)``."""
    for name in MARKERS:
        with pytest.raises(TypeError):
            getattr(ash, name)(1.0)
    for page in PAGES:
        calls = re.findall(rf"\bash\.(?:{'|'.join(MARKERS)})\(", page.read_text(encoding="utf-8"))
        assert not calls, f"{page.name} writes {calls[0]}...): an annotation, not a call"


def test_storage_dtypes_are_those_getting_started_lists():
    import numpy as np

    @ash.compute(workgroup_size=2)
    async def twice(buf: ash.Storage, *, local_invocation_index: ash.u32):
        buf[local_invocation_index] = buf[local_invocation_index] + buf[local_invocation_index]

    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    for dtype in (np.float32, np.float16, np.int32, np.uint32):
        assert f"`{np.dtype(dtype).name}`" in page
        buf = np.array([3, 5], dtype)
        ash.run(twice, buf=buf)
        assert buf.tolist() == [6, 10]
    for dtype, fix in ((np.float64, "float32"), (np.int64, "int32"), (np.bool_, "uint32")):
        assert f"`{np.dtype(dtype).name}`" in page
        with pytest.raises(ash.BindingError, match=f"astype\\(np.{fix}\\)"):
            ash.run(twice, buf=np.zeros(2, dtype))
