"""Comments and docstrings say what the code is and why; its history (the issue, the branch or
the session a change came from) belongs in the commit messages. Every comment and string of
the package, the tests, the benchmarks and the examples is read for such references."""

import io
import re
import tokenize
from pathlib import Path

import pytest
from helpers import ROOT

FOLDERS = ("asyncshader", "tests", "benchmarks", "examples")

#: history: "issue 20", "issues 18 and 19", "#27"-style issue numbers, a branch named as where a
#: change came from ("(branch structs)", "branch builtins-bits", "branch matrices' classes"),
#: a numbered session. (A branch of control flow, "a branch on an atomic's result", is not.)
HISTORY = re.compile(
    r"\bissues?\s*#?\d+|\bthe issue's\b"
    r"|\(branch\b|,\s*branch\s+[\w-]+"
    r"|\bbranch\s+[a-z0-9]+(?:-[a-z0-9]+)+\b|\bbranch\s+[a-z0-9_]+(?:'|\))"
    r"|\b(?:first|second|third|fourth|fifth|\d+(?:st|nd|rd|th))\s+session\b",
    re.IGNORECASE)


def texts(path: Path):
    """(line, text) of every comment and string in the Python file ``path``."""
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            yield tok.start[0], tok.string


def files():
    this = Path(__file__).resolve()
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if p.resolve() != this and "data" not in p.relative_to(ROOT).parts)


@pytest.mark.parametrize("text", [
    "# WGSL output (issue 20); crosscheck below", "# ---- layout (issue 18, branch structs)",
    "# ---- bit manipulation (branch builtins-bits)", "class Mat:  # stand-in for branch "
    "matrices' classes", "until the fourth session", "(issue #27)", "see issues 18",
    "issue\n17's target", "the issue's figure"])
def test_the_pattern_finds_history(text):
    assert HISTORY.search(text)


@pytest.mark.parametrize("text", [
    "# a branch on an atomic's result", "inside a branch some skip", "the branch you are in",
    "the schedules that take the racy branch show its race", "a test session can",
    "# the issue is the order", "scope='session'"])
def test_the_pattern_leaves_prose_alone(text):
    assert not HISTORY.search(text)


def test_no_comment_or_string_records_history():
    found = [f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}"
             for path in files() for line, text in texts(path)
             for match in [HISTORY.search(text)] if match]
    assert not found, ("comments and strings that record history (say what the code is and "
                       "why; the history belongs in commit messages):\n" + "\n".join(found))
