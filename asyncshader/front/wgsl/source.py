"""A WGSL source text and its positions: offsets to ``file:line:col``, and the diagnostics a
compiler front-end gives (the line, a caret under the place, what was expected).

WGSL counts line breaks as its spec's *line break* code points do (§ Blankspace and line
breaks): LF, VT, FF, CR (CR LF is one break), NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
Columns count code points from 1, as Tint and naga report them.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import ShaderCreationError

_LINE_BREAK = re.compile("\r\n|[\n\v\f\r\u0085\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class Span:
    """A range of code points in a source text, ``start`` included, ``end`` excluded."""

    start: int
    end: int

    def to(self, other: Span) -> Span:
        """The span from the start of this one to the end of ``other``."""
        return Span(self.start, other.end)


class Source:
    """A WGSL module's text and name (the path it came from, or ``<wgsl>``)."""

    def __init__(self, text: str, name: str = "<wgsl>") -> None:
        self.text = text
        self.name = name
        self._line_starts: list[int] | None = None

    @classmethod
    def read(cls, path: str | Path) -> Source:
        """The source of a ``.wgsl`` file (UTF-8, as WGSL requires)."""
        data = Path(path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WGSLError(f"{path}: not a WGSL file: byte {exc.start} is not UTF-8 "
                            "(WGSL source is Unicode text in UTF-8)") from None
        return cls(text, str(path))

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(self.text)]
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of a code point offset."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line break."""
        starts = self.line_starts
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        return _LINE_BREAK.sub("", self.text[start:end])

    def where(self, span: Span) -> str:
        """``file:line:col`` of a span's start."""
        line, col = self.line_col(span.start)
        return f"{self.name}:{line}:{col}"

    def excerpt(self, span: Span) -> str:
        """The span's first line, with carets under the span (as compilers print it)."""
        line, col = self.line_col(span.start)
        text = self.line_text(line)
        end_line, end_col = self.line_col(max(span.start, span.end - 1))
        width = (end_col - col + 1) if end_line == line else len(text) - col + 1
        shown = text.expandtabs(1)
        if len(shown) > 200:  # a minified line: show the neighbourhood of the place only
            lo = max(0, col - 100)
            shown, col = shown[lo:lo + 200], col - lo
        return f"    {shown}\n    {' ' * (col - 1)}{'^' * max(1, min(width, 80))}"

    def diagnostic(self, span: Span, message: str) -> str:
        """A compiler's diagnostic: ``file:line:col: error: message``, the line and a caret."""
        return f"{self.where(span)}: error: {message}\n{self.excerpt(span)}"


class WGSLError(ShaderCreationError):
    """A WGSL module cannot be loaded: its text is not valid WGSL (a *shader-creation error*).

    The message is a compiler's diagnostic: ``file:line:col``, the line with a caret under the
    place, and what was expected there. :attr:`where` is ``file:line:col`` (empty when the
    error has no place, such as a file that is not UTF-8)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where


def error_at(source: Source, span: Span, message: str) -> WGSLError:
    """A :class:`WGSLError` at ``span`` of ``source``."""
    return WGSLError(source.diagnostic(span, message), source.where(span))
