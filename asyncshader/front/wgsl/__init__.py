"""The WGSL front-end: a WGSL module's text to its syntax tree, with WGSL's diagnostics.

``parse_wgsl(text)`` gives a :class:`~.syntax.Module`; a text that is not valid WGSL raises
:class:`WGSLError` with ``file:line:col``, the line, a caret and what was expected.
"""

from __future__ import annotations

from pathlib import Path

from . import syntax
from .parser import parse
from .source import Source, Span, WGSLError


def parse_wgsl(text: str, name: str = "<wgsl>") -> syntax.Module:
    """The syntax tree of the WGSL module ``text`` (``name`` is the file diagnostics name)."""
    return parse(Source(text, name))


def parse_wgsl_file(path: str | Path) -> syntax.Module:
    """The syntax tree of a ``.wgsl`` file (UTF-8, as WGSL requires)."""
    return parse(Source.read(path))


__all__ = ["Source", "Span", "WGSLError", "parse_wgsl", "parse_wgsl_file", "syntax"]
