"""The WGSL front-end: a WGSL module's text to its syntax tree, its names resolved, with
WGSL's diagnostics.

``parse_wgsl(text)`` gives a :class:`~.syntax.Module`; ``resolve_wgsl(text)`` also binds every
identifier to its declaration (:class:`Resolved`); ``check_wgsl(text)`` also types every
expression in the IR's types (:class:`Typed`); ``reflect_wgsl(text)`` gives what a host program
sees of it (:class:`Reflection`). A text that is not valid WGSL raises
:class:`WGSLError` with ``file:line:col``, the line, a caret and what was expected.
"""

from __future__ import annotations

from pathlib import Path

from . import syntax
from .check import Checker, Typed, check
from .parser import parse
from .reflect import Reflection, reflect
from .resolve import Resolved, resolve
from .source import Source, Span, WGSLError
from .uniformity import WGSLWarning


def parse_wgsl(text: str, name: str = "<wgsl>") -> syntax.Module:
    """The syntax tree of the WGSL module ``text`` (``name`` is the file diagnostics name)."""
    return parse(Source(text, name))


def parse_wgsl_file(path: str | Path) -> syntax.Module:
    """The syntax tree of a ``.wgsl`` file (UTF-8, as WGSL requires)."""
    return parse(Source.read(path))


def resolve_wgsl(text: str, name: str = "<wgsl>") -> Resolved:
    """``text`` parsed and its names resolved (each identifier bound to its declaration)."""
    source = Source(text, name)
    return resolve(parse(source), source)


def resolve_wgsl_file(path: str | Path) -> Resolved:
    """A ``.wgsl`` file parsed and its names resolved."""
    source = Source.read(path)
    return resolve(parse(source), source)


def check_wgsl(text: str, name: str = "<wgsl>") -> Typed:
    """``text`` parsed, resolved and type-checked (every expression's ``type`` set)."""
    return check(resolve_wgsl(text, name))


def check_wgsl_file(path: str | Path) -> Typed:
    """A ``.wgsl`` file parsed, resolved and type-checked."""
    return check(resolve_wgsl_file(path))


def reflect_wgsl(text: str, name: str = "<wgsl>") -> Reflection:
    """What a host program sees of ``text`` (entry points, resources and their slots and
    sizes, overrides): :mod:`.reflect`."""
    source = Source(text, name)
    checker = Checker(resolve(parse(source), source))
    checker.run()
    return reflect(checker)


__all__ = ["Reflection", "Resolved", "Source", "Span", "Typed", "WGSLError", "WGSLWarning",
           "check_wgsl",
           "check_wgsl_file", "parse_wgsl", "parse_wgsl_file", "reflect_wgsl", "resolve_wgsl",
           "resolve_wgsl_file", "syntax"]
