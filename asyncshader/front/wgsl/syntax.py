"""The syntax tree of a WGSL module, as the parser builds it: what the text says, before names
are resolved and types checked. Every node has the :class:`~.source.Span` of its text.

Types and expressions share one syntax in WGSL (``vec3<f32>`` is a type, ``vec3<f32>(1.0)``
a value constructor): both are :class:`Ident` with an optional template list, whose
arguments are expressions; resolution decides what a name with a template list means.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field

from .source import Span

# --- expressions -------------------------------------------------------------------------


@dataclass(slots=True)
class Expr:
    """An expression. The type checker (:mod:`.check`) sets :attr:`type`, the WGSL type of
    the expression itself (abstract where WGSL says so; a :class:`~asyncshader.ir.types.
    Reference` where it names memory: the consumer applies the load rule and converts an
    abstract value to the type it needs), and :attr:`stage`: ``"const"``, ``"override"`` or
    ``"runtime"``, when its value is known (§ Expression evaluation phases)."""

    span: Span
    type: object = field(default=None, kw_only=True, repr=False, compare=False)
    stage: str = field(default="", kw_only=True, repr=False, compare=False)


@dataclass(slots=True)
class Ident(Expr):
    """A name, with its template list when it has one (``array<f32, 4>``, ``vec3<f32>``).
    Resolution sets :attr:`target`: the declaration the name denotes (a :class:`VarDecl`,
    :class:`Param`, :class:`Function`, :class:`Struct` or :class:`Alias`) or a
    :class:`~.predeclared.Predeclared` object."""

    name: str
    template: list[Expr] | None = None
    target: object = None


@dataclass(slots=True)
class Literal(Expr):
    """A literal: ``kind`` is ``"int"``, ``"float"`` or ``"bool"``; ``text`` as written
    (``0x1p-3f``, ``7u``); ``suffix`` is ``"i"``, ``"u"``, ``"f"``, ``"h"`` or ``""`` (an
    abstract numeric literal)."""

    kind: str
    text: str
    suffix: str


@dataclass(slots=True)
class Call(Expr):
    """A function call or a value constructor: ``callee(args)``. For a call of a built-in
    function the checker sets :attr:`params`: the parameter type of the overload it selects
    for each argument, the type an abstract argument converts to (``clamp(x, 0.0, N - 1)``
    with ``x: f32``: f32 three times; ``ldexp(x, 2)``: f32 and i32)."""

    callee: Ident
    args: list[Expr]
    params: list | None = field(default=None, kw_only=True, repr=False, compare=False)


@dataclass(slots=True)
class Member(Expr):
    """``base.name``: a struct member or a vector swizzle (resolution decides which)."""

    base: Expr
    name: str
    name_span: Span


@dataclass(slots=True)
class Index(Expr):
    """``base[index]``."""

    base: Expr
    index: Expr


@dataclass(slots=True)
class Unary(Expr):
    """``-x``, ``!x``, ``~x``, ``*p`` (indirection) or ``&r`` (address-of)."""

    op: str
    operand: Expr


@dataclass(slots=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(slots=True)
class Paren(Expr):
    """``(inner)``: kept because ``(*p).x`` and ``*p.x`` differ."""

    inner: Expr


# --- attributes and declarations ---------------------------------------------------------


@dataclass(slots=True)
class Attribute:
    """``@name`` or ``@name(args)``. Arguments are expressions; for ``@builtin``,
    ``@interpolate`` and ``@diagnostic`` they are bare names (:class:`Ident`)."""

    name: str
    args: list[Expr]
    span: Span


@dataclass(slots=True)
class Decl:
    span: Span


@dataclass(slots=True)
class VarDecl(Decl):
    """``var<space, access> name: type = init`` (module scope or function scope), or
    ``let``/``const``/``override`` (``kind``). ``template`` is the ``var``'s template list."""

    kind: str
    name: str
    name_span: Span
    type: Ident | None
    init: Expr | None
    template: list[Expr] | None = None
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class Alias(Decl):
    name: str
    name_span: Span
    type: Ident


@dataclass(slots=True)
class StructMember:
    name: str
    type: Ident
    attributes: list[Attribute]
    span: Span


@dataclass(slots=True)
class Struct(Decl):
    name: str
    name_span: Span
    members: list[StructMember]


@dataclass(slots=True)
class Param:
    name: str
    type: Ident
    attributes: list[Attribute]
    span: Span


@dataclass(slots=True)
class Function(Decl):
    name: str
    name_span: Span
    params: list[Param]
    return_type: Ident | None
    return_attributes: list[Attribute]
    body: Block
    attributes: list[Attribute]


@dataclass(slots=True)
class ConstAssert(Decl):
    """``const_assert expr`` (at module scope or as a statement)."""

    expr: Expr


@dataclass(slots=True)
class Directive:
    """``enable a, b;``, ``requires a;`` or ``diagnostic(severity, rule);``."""

    kind: str
    names: list[str]
    span: Span


@dataclass(slots=True)
class Module:
    directives: list[Directive]
    decls: list[Decl]


# --- statements --------------------------------------------------------------------------


@dataclass(slots=True)
class Stmt:
    span: Span


@dataclass(slots=True)
class Block(Stmt):
    body: list[Stmt]
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class DeclStmt(Stmt):
    """A ``var``, ``let`` or ``const`` declaration in a function."""

    decl: VarDecl


@dataclass(slots=True)
class Assign(Stmt):
    """``target op value``: ``op`` is ``=`` or a compound operator (``+=``, ``<<=`` ...);
    ``target`` is None for the phony assignment ``_ = value``."""

    target: Expr | None
    op: str
    value: Expr


@dataclass(slots=True)
class IncDec(Stmt):
    target: Expr
    op: str  # '++' or '--'


@dataclass(slots=True)
class CallStmt(Stmt):
    call: Call


@dataclass(slots=True)
class Return(Stmt):
    value: Expr | None


@dataclass(slots=True)
class If(Stmt):
    condition: Expr
    then: Block
    orelse: Block | If | None
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class Case:
    """A switch clause; ``selectors`` holds expressions and None for ``default``."""

    selectors: list[Expr | None]
    body: Block
    span: Span


@dataclass(slots=True)
class Switch(Stmt):
    selector: Expr
    cases: list[Case]
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class Loop(Stmt):
    """``loop { body continuing { ... break if cond; } }``."""

    body: Block
    continuing: Block | None
    break_if: Expr | None
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class For(Stmt):
    init: Stmt | None
    condition: Expr | None
    update: Stmt | None
    body: Block
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class While(Stmt):
    condition: Expr
    body: Block
    attributes: list[Attribute] = field(default_factory=list)


@dataclass(slots=True)
class Jump(Stmt):
    """``break``, ``continue`` or ``discard``."""

    kind: str


@dataclass(slots=True)
class AssertStmt(Stmt):
    expr: Expr


def walk(node: object) -> Iterator[object]:
    """Every syntax node under ``node``, itself included (lists entered), without following
    what resolution and checking set on an expression: its ``target`` declaration, its
    ``type`` and a call's ``params``."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, list):
            todo.extend(n)
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            yield n
            skip = ("span", "name_span", "target", "type", "params") if isinstance(n, Expr) else (
                "span", "name_span")
            todo.extend(getattr(n, f.name) for f in dataclasses.fields(n)
                        if f.name not in skip)
