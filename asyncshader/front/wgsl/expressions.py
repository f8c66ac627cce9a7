"""WGSL's expressions and types, parsed by recursive descent: the token stream a parser reads
and the expression grammar, which is not a precedence table. A bitwise operator cannot be mixed
with another one, nor with a comparison, without parentheses (``a & b | c`` is an error, as are
``a < b < c`` and ``a && b || c``), and a shift's operands are unary expressions; the
functions below follow the grammar's shape (``syntax.bnf`` of the spec) so that what WGSL
rejects is rejected here.
"""

from __future__ import annotations

from . import syntax as ast
from .source import Source, Span, WGSLError, error_at
from .tokens import EOF, FLOAT, IDENT, INT, TEMPLATE_END, TEMPLATE_START, Token

COMPARISON = frozenset(("<", ">", "<=", ">=", "==", "!="))
MAX_NESTING = 128


class ExpressionParser:
    """A cursor over tokens, and the expression and type grammar."""

    def __init__(self, source: Source, tokens: list[Token]) -> None:
        self.source = source
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    # --- the token stream -----------------------------------------------------------------

    @property
    def peek(self) -> Token:
        return self.tokens[self.pos]

    def at(self, *kinds: str) -> bool:
        return self.tokens[self.pos].kind in kinds

    def next(self) -> Token:
        token = self.tokens[self.pos]
        if token.kind != EOF:
            self.pos += 1
        return token

    def accept(self, kind: str) -> Token | None:
        if self.tokens[self.pos].kind == kind:
            return self.next()
        return None

    def expect(self, kind: str, what: str = "") -> Token:
        token = self.tokens[self.pos]
        if token.kind != kind:
            wanted = what or (f"'{kind}'" if kind not in (IDENT, TEMPLATE_END) else kind)
            raise self.error(token, f"expected {wanted}, found {token.describe()}")
        return self.next()

    def error(self, token: Token, message: str) -> WGSLError:
        return error_at(self.source, token.span, message)

    def span_from(self, start: Span) -> Span:
        last = self.tokens[self.pos - 1] if self.pos else self.tokens[0]
        return Span(start.start, max(start.end, last.span.end))

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(self.peek, f"the code is nested more than {MAX_NESTING} levels "
                             "deep here (parentheses, blocks or template lists); simplify it")

    # --- types and template lists ---------------------------------------------------------

    def type_specifier(self) -> ast.Ident:
        token = self.expect(IDENT, "a type")
        return ast.Ident(self.span_from(token.span), token.text, self.template_list())\
            if self.at(TEMPLATE_START) else ast.Ident(token.span, token.text)

    def template_list(self) -> list[ast.Expr] | None:
        if not self.accept(TEMPLATE_START):
            return None
        self.nest()
        args = [self.expression()]
        while self.accept(",") and not self.at(TEMPLATE_END):
            args.append(self.expression())
        self.expect(TEMPLATE_END, "',' or '>' in the template list")
        self.depth -= 1
        return args

    # --- expressions (the grammar's shape, not a precedence table) ------------------------

    def expression(self) -> ast.Expr:
        start = self.peek.span
        left = self.unary()
        if self.at("&", "|", "^"):
            op = self.peek.kind
            while self.accept(op):
                left = ast.Binary(self.span_from(start), op, left, self.unary())
            if self.at("&", "|", "^", "&&", "||", *COMPARISON, "<<", ">>", "+", "-", "*",
                       "/", "%"):
                raise self.mixing_error(op, self.peek)
            return left
        left = self.relational(start, left)
        if self.at("&", "|", "^"):
            raise self.error(self.peek, f"'{self.peek.kind}' cannot follow this expression "
                             "without parentheses: a bitwise operator's operands are unary "
                             "expressions in WGSL; write (a + b) & c")
        if self.at("&&", "||"):
            op = self.peek.kind
            while self.accept(op):
                left = ast.Binary(self.span_from(start), op, left,
                                  self.relational(self.peek.span, self.unary()))
            if self.at("&&", "||"):
                raise self.mixing_error(op, self.peek)
        return left

    def mixing_error(self, op: str, token: Token) -> WGSLError:
        return self.error(token, f"'{token.kind}' cannot follow '{op}' without parentheses: "
                          "WGSL gives bitwise, logical and comparison operators no precedence "
                          "over each other; write the grouping you mean, e.g. (a "
                          f"{op} b) {token.kind} c")

    def relational(self, start: Span, left: ast.Expr) -> ast.Expr:
        left = self.shift(start, left)
        if self.at(*COMPARISON):
            op = self.next().kind
            right_start = self.peek.span
            left = ast.Binary(self.span_from(start), op, left,
                              self.shift(right_start, self.unary()))
            if self.at(*COMPARISON):
                raise self.mixing_error(op, self.peek)
        return left

    def shift(self, start: Span, left: ast.Expr) -> ast.Expr:
        if self.at("<<", ">>"):
            op = self.next().kind
            result = ast.Binary(self.span_from(start), op, left, self.unary())
            if self.at("<<", ">>", "+", "-", "*", "/", "%"):
                raise self.error(self.peek, f"'{self.peek.kind}' cannot follow a shift without "
                                 "parentheses: a shift's operands are unary expressions in WGSL")
            return result
        while self.at("*", "/", "%"):
            op = self.next().kind
            left = ast.Binary(self.span_from(start), op, left, self.unary())
        while self.at("+", "-", "--"):
            op = self.next().kind
            right_start = self.peek.span
            right = self.unary()
            if op == "--":  # 'a--b' is 'a - -b' in an expression (Tint splits it the same way)
                op, right = "-", ast.Unary(self.span_from(right_start), "-", right)
            while self.at("*", "/", "%"):
                inner = self.next().kind
                right = ast.Binary(self.span_from(right_start), inner, right, self.unary())
            left = ast.Binary(self.span_from(start), op, left, right)
        return left

    def unary(self) -> ast.Expr:
        token = self.peek
        if token.kind in ("-", "!", "~", "*", "&"):
            self.next()
            self.nest()
            operand = self.unary()
            self.depth -= 1
            return ast.Unary(self.span_from(token.span), token.kind, operand)
        if token.kind in ("--", "&&"):  # '--x' is '-(-x)', '&&x' is '&(&x)', as WGSL splits them
            self.next()
            op = token.kind[0]
            half = Span(token.span.start + 1, token.span.end)
            operand = self.unary()
            inner = ast.Unary(Span(half.start, operand.span.end), op, operand)
            return ast.Unary(self.span_from(token.span), op, inner)
        return self.singular()

    def singular(self) -> ast.Expr:
        return self.postfix(self.primary())

    def primary(self) -> ast.Expr:
        token = self.peek
        kind = token.kind
        if kind == IDENT:
            self.next()
            ident = ast.Ident(token.span, token.text, self.template_list())
            ident.span = self.span_from(token.span)
            if self.at("("):
                return ast.Call(self.span_from(token.span), ident, self.arguments())
            return ident
        if kind in (INT, FLOAT):
            self.next()
            return ast.Literal(token.span, "int" if kind == INT else "float", token.text,
                               _suffix(token))
        if kind in ("true", "false"):
            self.next()
            return ast.Literal(token.span, "bool", kind, "")
        if kind == "(":
            self.next()
            self.nest()
            inner = self.expression()
            self.expect(")", "')' to close '('")
            self.depth -= 1
            return ast.Paren(self.span_from(token.span), inner)
        raise self.error(token, f"expected an expression, found {token.describe()}")

    def arguments(self) -> list[ast.Expr]:
        self.expect("(")
        self.nest()
        args = []
        while not self.at(")"):
            args.append(self.expression())
            if not self.accept(","):
                break
        self.expect(")", "',' or ')' in the argument list")
        self.depth -= 1
        return args

    def postfix(self, expr: ast.Expr) -> ast.Expr:
        start = expr.span
        while True:
            if self.accept("["):
                self.nest()
                index = self.expression()
                self.expect("]", "']' after the index")
                self.depth -= 1
                expr = ast.Index(self.span_from(start), expr, index)
            elif self.accept("."):
                member = self.expect(IDENT, "a member name or swizzle after '.'")
                expr = ast.Member(self.span_from(start), expr, member.text, member.span)
            else:
                return expr



def _suffix(token: Token) -> str:
    """A numeric literal's type suffix (``i u f h``), or "" for an abstract literal: the
    ``f`` of ``0x1f`` is a hex digit, and a hex float takes a suffix only after its exponent."""
    text = token.text.lower()
    last = text[-1]
    if token.kind == INT:
        return last if last in "iu" else ""
    if text.startswith("0x"):
        return last if "p" in text and last in "fh" else ""
    return last if last in "fh" else ""
