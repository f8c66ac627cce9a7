"""WGSL's grammar, parsed by recursive descent (the spec's § Grammar for recursive descent
parsing, from its normative grammar in ``syntax.bnf``): tokens in, a :class:`~.syntax.Module`
out, or a :class:`~.source.WGSLError` at the first place the text leaves the grammar, saying
what was expected there.

This module reads declarations and statements; expressions and types, and the token cursor,
are :mod:`.expressions`'. A text nested deeper than Python's stack allows (``((((...))))`` ten
thousand deep) is a diagnostic at the place, not a ``RecursionError``.
"""

from __future__ import annotations

from . import syntax as ast
from .expressions import ExpressionParser
from .source import Source, Span, error_at
from .tokens import EOF, IDENT, TEMPLATE_START, Token, tokenize

_COMPOUND = frozenset(("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>=", "<<="))
_NAMED_ARGS = frozenset(("builtin", "interpolate"))  # attributes whose arguments are names


def parse(source: Source) -> ast.Module:
    """The syntax tree of ``source``; raises :class:`WGSLError` if it is not valid WGSL."""
    parser = _Parser(source, tokenize(source))
    try:
        return parser.module()
    except RecursionError:
        token = parser.tokens[parser.pos]
        raise error_at(source, token.span, "the code is nested too deeply here (parentheses, "
                       "blocks or template lists); simplify it") from None


class _Parser(ExpressionParser):
    # --- module ---------------------------------------------------------------------------

    def module(self) -> ast.Module:
        directives = []
        while self.at("enable", "requires", "diagnostic"):
            directives.append(self.directive())
        decls: list[ast.Decl] = []
        while not self.at(EOF):
            if self.accept(";"):
                continue
            if self.at("enable", "requires") or (
                    self.at("diagnostic") and self.tokens[self.pos + 1].kind == "("):
                raise self.error(self.peek, f"'{self.peek.text}' directives must come before "
                                 "every declaration; move it to the top of the module")
            decls.append(self.global_decl())
        return ast.Module(directives, decls)

    def directive(self) -> ast.Directive:
        start = self.next()
        if start.kind == "diagnostic":
            names = self.diagnostic_control()
        else:
            names = [self.expect(IDENT, "an extension name").text]
            while self.accept(",") and self.at(IDENT):
                names.append(self.next().text)
        self.expect(";", f"';' after the {start.kind} directive")
        return ast.Directive(start.kind, names, self.span_from(start.span))

    def diagnostic_control(self) -> list[str]:
        self.expect("(", "'(' after 'diagnostic'")
        severity = self.expect(IDENT, "a severity (error, warning, info, off)").text
        self.expect(",", "',' after the severity")
        rule = self.expect(IDENT, "a diagnostic rule name").text
        if self.accept("."):
            rule += "." + self.expect(IDENT, "a diagnostic rule name").text
        self.accept(",")
        self.expect(")", "')' after the diagnostic rule")
        return [severity, rule]

    def global_decl(self) -> ast.Decl:
        start = self.peek
        attributes = self.attributes()
        kind = self.peek.kind
        if kind == "fn":
            return self.function(attributes, start.span)
        if kind in ("var", "override", "const"):
            if attributes and kind == "const":
                raise self.error(start, "a 'const' declaration takes no attributes")
            decl = self.variable(attributes, start.span)
            self.expect(";", f"';' after the {kind} declaration")
            decl.span = self.span_from(start.span)
            return decl
        if attributes:
            raise self.error(self.peek, "expected 'fn', 'var' or 'override' after attributes, "
                             f"found {self.peek.describe()}")
        if kind == "struct":
            return self.struct()
        if kind == "alias":
            self.next()
            name = self.expect(IDENT, "the alias's name")
            self.expect("=", "'=' after the alias's name")
            target = self.type_specifier()
            self.expect(";", "';' after the alias declaration")
            return ast.Alias(self.span_from(start.span), name.text, name.span, target)
        if kind == "const_assert":
            decl = ast.ConstAssert(start.span, self.const_assert())
            self.expect(";", "';' after the const_assert")
            decl.span = self.span_from(start.span)
            return decl
        if kind == "let":
            raise self.error(start, "'let' declarations are only allowed in functions; use "
                             "'const' (a constant) or 'var<private>' (a variable) here")
        raise self.error(start, "expected a declaration ('fn', 'var', 'const', 'override', "
                         f"'struct', 'alias' or 'const_assert'), found {start.describe()}")

    def attributes(self) -> list[ast.Attribute]:
        found = []
        while self.at("@"):
            start = self.next()
            name_token = self.next()
            if name_token.kind not in (IDENT,) and name_token.kind not in ("const", "diagnostic"):
                raise self.error(name_token, "expected an attribute name after '@', found "
                                 f"{name_token.describe()}")
            name, args = name_token.text, []
            if name == "diagnostic":
                control_start = self.peek
                args = [ast.Ident(control_start.span, n) for n in self.diagnostic_control()]
            elif self.at("("):
                self.next()
                self.nest()
                while not self.at(")"):
                    if name in _NAMED_ARGS:
                        token = self.expect(IDENT, f"a name in @{name}(...)")
                        args.append(ast.Ident(token.span, token.text))
                    else:
                        args.append(self.expression())
                    if not self.accept(","):
                        break
                self.expect(")", f"')' or ',' in @{name}(...)")
                self.depth -= 1
            found.append(ast.Attribute(name, args, self.span_from(start.span)))
        return found

    def struct(self) -> ast.Struct:
        start = self.next()
        name = self.expect(IDENT, "the struct's name")
        self.expect("{", "'{' after the struct's name")
        members = []
        while not self.at("}"):
            member_start = self.peek
            attributes = self.attributes()
            member = self.expect(IDENT, "a member name or '}'")
            self.expect(":", f"':' and a type after the member name '{member.text}'")
            member_type = self.type_specifier()
            members.append(ast.StructMember(member.text, member_type, attributes,
                                            self.span_from(member_start.span)))
            if not self.accept(","):
                break
        self.expect("}", "',' or '}' after a struct member")
        if not members:
            raise self.error(name, f"struct '{name.text}' has no members; WGSL requires at "
                             "least one")
        return ast.Struct(self.span_from(start.span), name.text, name.span, members)

    def function(self, attributes: list[ast.Attribute], start: Span) -> ast.Function:
        self.next()
        name = self.expect(IDENT, "the function's name")
        self.expect("(", "'(' after the function's name")
        params = []
        while not self.at(")"):
            param_start = self.peek
            param_attributes = self.attributes()
            param = self.expect(IDENT, "a parameter name or ')'")
            self.expect(":", f"':' and a type after the parameter '{param.text}'")
            params.append(ast.Param(param.text, self.type_specifier(), param_attributes,
                                    self.span_from(param_start.span)))
            if not self.accept(","):
                break
        self.expect(")", "',' or ')' after a parameter")
        return_type, return_attributes = None, []
        if self.accept("->"):
            return_attributes = self.attributes()
            return_type = self.type_specifier()
        body = self.body(f"body of '{name.text}'")
        return ast.Function(self.span_from(start), name.text, name.span, params, return_type,
                            return_attributes, body, attributes)

    def variable(self, attributes: list[ast.Attribute], start: Span) -> ast.VarDecl:
        keyword = self.next()
        template = self.template_list() if keyword.kind == "var" else None
        name = self.expect(IDENT, f"a name after '{keyword.text}'")
        declared = self.type_specifier() if self.accept(":") else None
        init = self.expression() if self.accept("=") else None
        if keyword.kind in ("let", "const") and init is None:
            raise self.error(self.peek, f"'{keyword.text} {name.text}' needs a value: "
                             f"'{keyword.text} {name.text} = ...;'")
        return ast.VarDecl(self.span_from(start), keyword.kind, name.text, name.span, declared,
                           init, template, attributes)

    def const_assert(self) -> ast.Expr:
        self.expect("const_assert")
        return self.expression()

    # --- statements -----------------------------------------------------------------------

    def block(self) -> ast.Block:
        start = self.expect("{")
        self.nest()
        body = []
        while not self.at("}"):
            if self.at(EOF):
                raise self.error(start, "this '{' is never closed: expected '}' before the "
                                 "end of the file")
            statement = self.statement()
            if statement is not None:
                body.append(statement)
        self.next()
        self.depth -= 1
        return ast.Block(self.span_from(start.span), body)

    def statement(self) -> ast.Stmt | None:
        start = self.peek
        if self.accept(";"):
            return None
        attributes = self.attributes() if self.at("@") else []
        kind = self.peek.kind
        if kind == "{":
            block = self.block()
            block.attributes = attributes
            return block
        if kind == "if":
            return self.if_statement(attributes, start.span)
        if kind == "switch":
            return self.switch(attributes, start.span)
        if kind == "loop":
            return self.loop(attributes, start.span)
        if kind == "for":
            return self.for_statement(attributes, start.span)
        if kind == "while":
            self.next()
            condition = self.expression()
            return ast.While(self.span_from(start.span), condition, self.body("while loop's body"),
                             attributes)
        if attributes:
            raise self.error(start, "attributes here must be followed by a block, 'if', "
                             f"'switch', 'loop', 'for' or 'while', not {self.peek.describe()}")
        statement = self.simple_statement(start)
        self.expect(";", "';' after the statement")
        statement.span = self.span_from(start.span)
        return statement

    def simple_statement(self, start: Token) -> ast.Stmt:
        """A statement that ends with ';' (the ';' not included)."""
        kind = start.kind
        if kind == "return":
            self.next()
            value = None if self.at(";") else self.expression()
            return ast.Return(start.span, value)
        if kind in ("break", "continue", "discard"):
            self.next()
            if kind == "break" and self.at("if"):
                raise self.error(self.peek, "'break if' may only end a 'continuing' block")
            return ast.Jump(start.span, kind)
        if kind == "const_assert":
            return ast.AssertStmt(start.span, self.const_assert())
        return self.update_or_declaration(start)

    def update_or_declaration(self, start: Token) -> ast.Stmt:
        """A declaration, an assignment, ``++``/``--`` or a call: what for-headers hold."""
        kind = start.kind
        if kind in ("var", "let", "const"):
            return ast.DeclStmt(start.span, self.variable([], start.span))
        if kind == "_":
            self.next()
            self.expect("=", "'=' after '_' (a phony assignment: '_ = expression;')")
            return ast.Assign(start.span, None, "=", self.expression())
        if kind == IDENT and self.tokens[self.pos + 1].kind in ("(", TEMPLATE_START):
            expr = self.singular()
            if isinstance(expr, ast.Call) and not self.at(*_COMPOUND, "++", "--"):
                return ast.CallStmt(start.span, expr)
            return self.assignment_rest(start, expr)
        if kind in (IDENT, "(", "*", "&"):
            return self.assignment_rest(start, self.lhs())
        raise self.error(start, f"expected a statement, found {start.describe()}")

    def assignment_rest(self, start: Token, target: ast.Expr) -> ast.Stmt:
        token = self.peek
        if token.kind in ("++", "--"):
            self.next()
            return ast.IncDec(start.span, target, token.kind)
        if token.kind in _COMPOUND:
            self.next()
            return ast.Assign(start.span, target, token.kind, self.expression())
        if token.kind == "==":
            raise self.error(token, "'==' compares; a statement cannot be a comparison (did "
                             "you mean '='?)")
        raise self.error(token, "expected '=', a compound assignment, '++' or '--' after the "
                         f"left-hand side, found {token.describe()}")

    def lhs(self) -> ast.Expr:
        """``lhs_expression``: a name, a parenthesised lhs or ``*``/``&`` of one, then
        members, swizzles and indices."""
        token = self.peek
        if token.kind in ("*", "&"):
            self.next()
            self.nest()
            operand = self.lhs()
            self.depth -= 1
            return ast.Unary(self.span_from(token.span), token.kind, operand)
        if token.kind == "(":
            self.next()
            self.nest()
            inner = self.lhs()
            self.expect(")", "')'")
            self.depth -= 1
            core: ast.Expr = ast.Paren(self.span_from(token.span), inner)
        else:
            name = self.expect(IDENT, "a variable, '*' or '(' to assign to")
            core = ast.Ident(name.span, name.text)
        return self.postfix(core)

    def body(self, what: str) -> ast.Block:
        """A ``compound_statement``: attributes, then a block."""
        attributes = self.attributes()
        if not self.at("{"):
            raise self.error(self.peek, f"expected '{{' to start the {what}, found "
                             f"{self.peek.describe()} (WGSL needs braces around the body)")
        block = self.block()
        block.attributes = attributes
        return block

    def if_statement(self, attributes: list[ast.Attribute], start: Span) -> ast.If:
        self.next()
        condition = self.expression()
        then = self.body("if's body")
        orelse: ast.Block | ast.If | None = None
        if self.accept("else"):
            if self.at("if"):
                orelse = self.if_statement([], self.peek.span)
            else:
                orelse = self.body("else's body")
        return ast.If(self.span_from(start), condition, then, orelse, attributes)

    def switch(self, attributes: list[ast.Attribute], start: Span) -> ast.Switch:
        self.next()
        selector = self.expression()
        attributes = attributes + self.attributes()  # the switch body's (same effect here)
        self.expect("{", "'{' after the switch's selector")
        cases = []
        while not self.at("}"):
            case_start = self.peek
            if self.accept("default"):
                selectors: list[ast.Expr | None] = [None]
            elif self.accept("case"):
                selectors = []
                while True:
                    selectors.append(None if self.accept("default") else self.expression())
                    if not self.accept(",") or self.at(":", "{"):
                        break
            else:
                raise self.error(case_start, "expected 'case', 'default' or '}' in the "
                                 f"switch, found {case_start.describe()}")
            self.accept(":")
            body_attributes = self.attributes()
            if not self.at("{"):
                raise self.error(self.peek, "expected '{' to start the case's body (WGSL "
                                 f"cases are blocks), found {self.peek.describe()}")
            body = self.block()
            body.attributes = body_attributes
            cases.append(ast.Case(selectors, body, self.span_from(case_start.span)))
        self.next()
        if not cases:
            raise self.error(self.tokens[self.pos - 1], "a switch needs at least one clause, "
                             "and exactly one 'default'")
        return ast.Switch(self.span_from(start), selector, cases, attributes)

    def loop(self, attributes: list[ast.Attribute], start: Span) -> ast.Loop:
        self.next()
        body_attributes = self.attributes()
        open_brace = self.expect("{", "'{' after 'loop'")
        self.nest()
        body, continuing, break_if = [], None, None
        while not self.at("}"):
            if self.at(EOF):
                raise self.error(open_brace, "this loop's '{' is never closed")
            if self.at("continuing"):
                continuing_start = self.next()
                continuing_attributes = self.attributes()
                brace = self.expect("{", "'{' after 'continuing'")
                self.nest()
                statements = []
                while not self.at("}"):
                    if self.at("break") and self.tokens[self.pos + 1].kind == "if":
                        self.next()
                        self.next()
                        break_if = self.expression()
                        self.expect(";", "';' after 'break if' condition")
                        if not self.at("}"):
                            raise self.error(self.peek, "'break if' must be the last "
                                             "statement of the continuing block")
                        break
                    if self.at(EOF):
                        raise self.error(brace, "this '{' is never closed")
                    statement = self.statement()
                    if statement is not None:
                        statements.append(statement)
                self.next()
                self.depth -= 1
                continuing = ast.Block(self.span_from(continuing_start.span), statements,
                                       continuing_attributes)
                if not self.at("}"):
                    raise self.error(self.peek, "the 'continuing' block must be the last "
                                     "statement of the loop")
                break
            statement = self.statement()
            if statement is not None:
                body.append(statement)
        self.next()
        self.depth -= 1
        return ast.Loop(self.span_from(start), ast.Block(self.span_from(open_brace.span), body,
                                                         body_attributes),
                        continuing, break_if, attributes)

    def for_statement(self, attributes: list[ast.Attribute], start: Span) -> ast.For:
        self.next()
        self.expect("(", "'(' after 'for'")
        init = None if self.at(";") else self.update_or_declaration(self.peek)
        self.expect(";", "';' after the for loop's initializer")
        condition = None if self.at(";") else self.expression()
        self.expect(";", "';' after the for loop's condition")
        update = None if self.at(")") else self.update_or_declaration(self.peek)
        if isinstance(update, ast.DeclStmt):
            raise self.error(self.tokens[self.pos - 1], "a for loop's update cannot declare "
                             "a variable")
        self.expect(")", "')' after the for loop's update")
        return ast.For(self.span_from(start), init, condition, update, self.body("for loop's body"),
                       attributes)

