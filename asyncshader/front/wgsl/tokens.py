"""WGSL's tokens (§ Textual structure): a source text becomes a list of :class:`Token`.

Two passes, as the spec describes them:

1. the text is cut into tokens by maximal munch, skipping blankspace and comments (block
   comments nest);
2. *template list discovery* (§ Template lists) decides which ``<`` and ``>`` delimit a
   template list (``array<vec4<f32>>``) rather than spell a comparison or a shift. It runs over
   the tokens of pass 1, looking at ``>>``, ``>=`` and ``>>=`` one code point at a time as the
   spec's algorithm does, and those tokens are split where a template list ends inside them.
   The delimiters become ``TEMPLATE_START`` and ``TEMPLATE_END`` tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .source import Source, Span, error_at

#: token kinds that are not punctuation (punctuation's kind is its own text)
IDENT, INT, FLOAT, EOF = "identifier", "integer literal", "float literal", "end of file"
TEMPLATE_START, TEMPLATE_END = "template list start '<'", "template list end '>'"

KEYWORDS = frozenset(
    "alias break case const const_assert continue continuing default diagnostic discard else "
    "enable false fn for if let loop override requires return struct switch true var while"
    .split())

#: words WGSL reserves for future use (§ Reserved words): a module must not use them as names
RESERVED = frozenset(
    "NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await "
    "become cast catch class co_await co_return co_yield coherent column_major common compile "
    "compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype "
    "delete demote demote_to_helper do dynamic_cast enum explicit export extends extern "
    "external fallthrough filter final finally friend from fxgroup get goto groupshared highp "
    "impl implements import inline instanceof interface layout lowp macro macro_rules match "
    "mediump meta mod module move mut mutable namespace new nil noexcept noinline "
    "nointerpolation non_coherent noncoherent noperspective null nullptr of operator package "
    "packoffset partition pass patch pixelfragment precise precision premerge priv protected "
    "pub public readonly ref regardless register reinterpret_cast require resource restrict "
    "self set shared sizeof smooth snorm static static_assert static_cast std subroutine super "
    "target template this thread_local throw trait try type typedef typeid typename typeof "
    "union unless unorm unsafe unsized use using varying virtual volatile wgsl where with "
    "writeonly yield".split())

_PUNCTUATION = sorted(
    "&& || -> <<= >>= << >> <= >= == != ++ -- += -= *= /= %= &= |= ^= "
    "& | ^ ~ ! @ / [ ] { } ( ) : , = < > % - + . ; *".split(), key=len, reverse=True)

_HEX = "[0-9a-fA-F]"
_TOKEN = re.compile("|".join([
    r"(?P<blank>[ \t\n\v\f\r\u0085\u200e\u200f\u2028\u2029]+)",
    r"(?P<line_comment>//[^\n\v\f\r\u0085\u2028\u2029]*)",
    r"(?P<block_comment>/\*)",
    rf"(?P<float>0[xX](?:{_HEX}*\.{_HEX}+|{_HEX}+\.{_HEX}*)(?:[pP][+-]?[0-9]+[fh]?)?"
    rf"|0[xX]{_HEX}+[pP][+-]?[0-9]+[fh]?"
    r"|(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][+-]?[0-9]+)?[fh]?"
    r"|[0-9]+[eE][+-]?[0-9]+[fh]?|(?:0|[1-9][0-9]*)[fh])",
    rf"(?P<int>0[xX]{_HEX}+[iu]?|(?:0|[1-9][0-9]*)[iu]?)",
    r"(?P<word>[^\W\d]\w*)",
    "(?P<punct>" + "|".join(re.escape(p) for p in _PUNCTUATION) + ")",
]))
_COMMENT_PART = re.compile(r"/\*|\*/")
_WORD_CHARS = re.compile(r"\w*")


@dataclass(slots=True)
class Token:
    """One token: its kind (``IDENT``, ``INT``, ``FLOAT``, a keyword or punctuation's own
    text, ``TEMPLATE_START``/``TEMPLATE_END``, ``EOF``), its text and where it is."""

    kind: str
    text: str
    span: Span

    def describe(self) -> str:
        """The token as a diagnostic names it."""
        if self.kind == EOF:
            return "the end of the file"
        if self.kind in (TEMPLATE_START, TEMPLATE_END):
            return f"'{self.text}'"
        return f"'{self.text}'" if len(self.text) <= 40 else f"'{self.text[:37]}...'"


def tokenize(source: Source) -> list[Token]:
    """The tokens of ``source``, template list delimiters marked, ending with an ``EOF`` token.
    Raises :class:`~.source.WGSLError` at the first code point that starts no token."""
    tokens = _munch(source)
    _discover_template_lists(tokens)
    return tokens


def _munch(source: Source) -> list[Token]:
    text, pos, tokens = source.text, 0, []
    match = _TOKEN.match
    while pos < len(text):
        m = match(text, pos)
        if m is None:
            raise error_at(source, Span(pos, pos + 1), _bad_character(text[pos]))
        group, end = m.lastgroup, m.end()
        if group == "blank" or group == "line_comment":
            pos = end
            continue
        if group == "block_comment":
            pos = _skip_block_comment(source, pos)
            continue
        word = m.group()
        if group == "word":
            if end < len(text) and ord(text[end]) >= 128:
                end = _word_end(text, end)
                word = text[pos:end]
            tokens.append(Token(_word_kind(source, word, Span(pos, end)), word, Span(pos, end)))
        elif group in ("int", "float"):
            if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                bad = Span(pos, end + 1)
                raise error_at(source, bad, f"malformed number {text[pos:end + 1]!r}: "
                               "a literal cannot run into a letter or digit (decimal "
                               "integers have no leading zeros; suffixes are i, u, f, h)")
            tokens.append(Token(INT if group == "int" else FLOAT, word, Span(pos, end)))
        else:
            tokens.append(Token(word, word, Span(pos, end)))
        pos = end
    tokens.append(Token(EOF, "", Span(len(text), len(text))))
    return tokens


def _word_end(text: str, end: int) -> int:
    """Where an identifier ends: ``\\w`` misses the combining marks that Unicode's
    XID_Continue (WGSL's rule for identifiers) includes, so those are taken one by one."""
    while end < len(text) and ord(text[end]) >= 128 and ("a" + text[end]).isidentifier():
        end = _WORD_CHARS.match(text, end + 1).end()
    return end


def _word_kind(source: Source, word: str, span: Span) -> str:
    if word in KEYWORDS:
        return word
    if word == "_":
        return "_"
    if word in RESERVED:
        raise error_at(source, span, f"'{word}' is a reserved word in WGSL and cannot be "
                       "used as a name; rename it")
    if word.startswith("__"):
        raise error_at(source, span, f"'{word}': identifiers must not start with two "
                       "underscores in WGSL; rename it")
    if not word.isidentifier():
        raise error_at(source, span, f"'{word}' is not a WGSL identifier")
    return IDENT


def _skip_block_comment(source: Source, start: int) -> int:
    depth, pos, text = 0, start, source.text
    while True:
        m = _COMMENT_PART.search(text, pos)
        if m is None:
            raise error_at(source, Span(start, start + 2),
                           "unterminated block comment: '/*' has no matching '*/'")
        depth += 1 if m.group() == "/*" else -1
        pos = m.end()
        if depth == 0:
            return pos


def _bad_character(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char in "\"'`":
        return f"unexpected {char!r} ({code}): WGSL has no string or character literals"
    if char == "\ufeff":
        return "a byte order mark (U+FEFF): WGSL source must not contain one; remove it"
    if char == "\x00" or not char.isprintable():
        return (f"unexpected code point {code}: not WGSL text (is this a binary file, or a "
                "different encoding?)")
    return f"unexpected character {char!r} ({code}): no WGSL token starts with it"


def _discover_template_lists(tokens: list[Token]) -> None:
    """Mark template list delimiters (§ Template lists, the discovery algorithm), splitting a
    ``>>``, ``>=`` or ``>>=`` token where a template list ends inside it."""
    pending: list[tuple[int, int]] = []  # (index of the '<' token, nesting depth there)
    depth = 0
    starts: set[int] = set()
    ends: dict[int, list[int]] = {}  # token index -> offsets of '>' that end a list
    previous = None
    for index, token in enumerate(tokens):
        kind = token.kind
        if kind in ("<", "<=", "<<", "<<="):
            if previous is not None and (previous.kind == IDENT or previous.kind in KEYWORDS):
                if kind == "<":
                    pending.append((index, depth))
                # '<<' and '<=' after a name: the candidate is dropped at once; '<<=' clears
                # at its '=' as the assignment it is
                elif kind == "<<=":
                    pending.clear()
                    depth = 0
            elif kind in ("<=", "<<="):  # '=' read alone: an assignment
                pending.clear()
                depth = 0
        elif kind in (">", ">=", ">>", ">>="):
            skip_equals = False
            for offset, char in enumerate(kind):
                if char == ">":
                    if pending and pending[-1][1] == depth:
                        starts.add(pending.pop()[0])
                        ends.setdefault(index, []).append(offset)
                        skip_equals = False
                    else:
                        skip_equals = True
                elif not skip_equals:  # '=' after a '>' that ended a list: an assignment
                    pending.clear()
                    depth = 0
        elif kind in ("(", "["):
            depth += 1
        elif kind in (")", "]"):
            while pending and pending[-1][1] >= depth:
                pending.pop()
            depth = max(0, depth - 1)
        elif kind in ("&&", "||"):
            while pending and pending[-1][1] >= depth:
                pending.pop()
        elif kind in (";", "{", ":") or (kind.endswith("=") and kind not in ("==", "!=")):
            pending.clear()
            depth = 0
        previous = token
    for index in starts:
        token = tokens[index]
        tokens[index] = Token(TEMPLATE_START, "<", token.span)
    for index in sorted(ends, reverse=True):
        tokens[index:index + 1] = _split(tokens[index], ends[index])


def _split(token: Token, end_offsets: list[int]) -> list[Token]:
    """A ``>``-led token cut into template ends and the punctuation left between them."""
    out, rest_start = [], 0
    start = token.span.start
    for offset in end_offsets:
        if offset > rest_start:
            text = token.text[rest_start:offset]
            out.append(Token(text, text, Span(start + rest_start, start + offset)))
        out.append(Token(TEMPLATE_END, ">", Span(start + offset, start + offset + 1)))
        rest_start = offset + 1
    if rest_start < len(token.text):
        text = token.text[rest_start:]
        out.append(Token(text, text, Span(start + rest_start, token.span.end)))
    return out
