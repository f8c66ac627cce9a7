"""The WGSL parser: WGSL's grammar (template lists, the operator rules that are not a
precedence table, every statement), and diagnostics as a compiler gives them."""

import pytest

from asyncshader.front.wgsl import WGSLError, parse_wgsl, syntax
from asyncshader.front.wgsl.source import Source, Span
from asyncshader.front.wgsl.tokens import TEMPLATE_END, TEMPLATE_START, tokenize


def body_of(code: str) -> list[syntax.Stmt]:
    module = parse_wgsl(f"fn f() {{\n{code}\n}}")
    return module.decls[0].body.body


def expr(text: str) -> syntax.Expr:
    (statement,) = body_of(f"let x = {text};")
    return statement.decl.init


def shape(node) -> str:
    """An expression as a fully parenthesised string, to read the tree's grouping."""
    match node:
        case syntax.Binary(op=op, left=left, right=right):
            return f"({shape(left)} {op} {shape(right)})"
        case syntax.Unary(op=op, operand=operand):
            return f"({op}{shape(operand)})"
        case syntax.Paren(inner=inner):
            return shape(inner)
        case syntax.Literal(text=text):
            return text
        case syntax.Ident(name=name, template=None):
            return name
        case syntax.Ident(name=name, template=args):
            return f"{name}<{', '.join(shape(a) for a in args)}>"
        case syntax.Call(callee=callee, args=args):
            return f"{shape(callee)}({', '.join(shape(a) for a in args)})"
        case syntax.Member(base=base, name=name):
            return f"{shape(base)}.{name}"
        case syntax.Index(base=base, index=index):
            return f"{shape(base)}[{shape(index)}]"
    raise AssertionError(node)


def kinds(text: str) -> list[str]:
    return [t.kind for t in tokenize(Source(text))][:-1]


class TestTemplateLists:
    """§ Template lists: which '<' and '>' delimit a template list."""

    def test_nested_lists_split_the_shift_token(self):
        assert kinds("array<vec4<f32>>") == [
            "identifier", TEMPLATE_START, "identifier", TEMPLATE_START, "identifier",
            TEMPLATE_END, TEMPLATE_END]

    def test_a_list_ending_before_equals_leaves_an_assignment(self):
        (statement,) = body_of("var y: vec2<f32>= vec2<f32>();")
        assert shape(statement.decl.type) == "vec2<f32>"
        assert shape(statement.decl.init) == "vec2<f32>()"

    def test_the_specs_examples(self):
        # 'A ( B < C, D > ( E ) )': a call of A with one argument, B<C, D>(E)
        assert shape(expr("A(B<C, D>(E))")) == "A(B<C, D>(E))"
        # no template list in 'a<b || c>d': two comparisons joined by ||
        assert shape(expr("a<b || c>d")) == "((a < b) || (c > d))"
        # the '>' inside select's parentheses does not end the list
        assert shape(expr("array<i32, select(2, 3, a>b)>()")) == (
            "array<i32, select(2, 3, (a > b))>()")

    def test_comparisons_and_shifts_stay_operators(self):
        assert shape(expr("a < b")) == "(a < b)"
        assert shape(expr("a << 2u")) == "(a << 2u)"
        assert shape(expr("(a) > (b)")) == "(a > b)"
        assert shape(expr("a <= b")) == "(a <= b)"

    def test_var_takes_a_template_list(self):
        module = parse_wgsl("@group(1) @binding(2) var<storage, read_write> buf: array<u32>;")
        (decl,) = module.decls
        assert [shape(a) for a in decl.template] == ["storage", "read_write"]
        assert [(a.name, [shape(x) for x in a.args]) for a in decl.attributes] == [
            ("group", ["1"]), ("binding", ["2"])]


class TestExpressions:
    """WGSL's expression grammar: no precedence between bitwise, logical and comparison
    operators; shifts take unary operands."""

    def test_arithmetic_precedence_and_associativity(self):
        assert shape(expr("1 + 2 * 3 - 4")) == "((1 + (2 * 3)) - 4)"
        assert shape(expr("a / b % c")) == "((a / b) % c)"
        assert shape(expr("-a.b[1] * 2")) == "((-a.b[1]) * 2)"

    def test_indirection_applies_to_the_whole_postfix_expression(self):
        assert shape(expr("*p.x")) == "(*p.x)"
        assert shape(expr("(*p).x")) == "(*p).x"

    def test_a_double_minus_in_an_expression_is_two_minuses(self):
        assert shape(expr("two--one")) == "(two - (-one))"

    @pytest.mark.parametrize("text", ["a & b | c", "a < b < c", "a && b || c", "a << b + c",
                                      "a + b & c", "a == b & c", "a << b << c"])
    def test_mixing_without_parentheses_is_an_error(self, text):
        with pytest.raises(WGSLError, match="cannot follow"):
            expr(text)

    def test_parentheses_make_mixing_legal(self):
        assert shape(expr("(a & b) | c")) == "((a & b) | c)"
        assert shape(expr("(a < b) == (c < d)")) == "((a < b) == (c < d))"
        assert shape(expr("a && b && c")) == "((a && b) && c)"

    @pytest.mark.parametrize(("text", "kind", "suffix"), [
        ("0x1f", "int", ""), ("7u", "int", "u"), ("0i", "int", "i"), ("1.5h", "float", "h"),
        ("0x1p3f", "float", "f"), ("0x1.fp-2", "float", ""), ("1e3", "float", ""),
        (".5f", "float", "f"), ("2f", "float", "f"), ("true", "bool", "")])
    def test_literals_keep_text_and_suffix(self, text, kind, suffix):
        literal = expr(text)
        assert (literal.kind, literal.text, literal.suffix) == (kind, text, suffix)


class TestStatements:
    def test_the_attributes_of_case_bodies_loop_bodies_and_continuing_blocks_are_kept(self):
        # (diagnostic filters on them change what the uniformity analysis reports)
        switch, loop = body_of("""
            switch 1 { case 1 @diagnostic(off, derivative_uniformity) { } default { } }
            loop @diagnostic(info, derivative_uniformity) {
                continuing @diagnostic(warning, derivative_uniformity) { break if true; }
            }""")
        found = [switch.cases[0].body.attributes, loop.body.attributes,
                 loop.continuing.attributes]
        assert [[(a.name, [x.name for x in a.args]) for a in attrs] for attrs in found] == [
            [("diagnostic", ["off", "derivative_uniformity"])],
            [("diagnostic", ["info", "derivative_uniformity"])],
            [("diagnostic", ["warning", "derivative_uniformity"])]]

    def test_every_statement_kind(self):
        statements = body_of("""
            var a: array<f32, 6>;
            let b = 1;
            const c = 2;
            a[0] += 1.0;
            a[1]++;
            _ = b;
            if b > 0 { return; } else if b < 0 { discard; } else { }
            switch b { case 0, 1: { break; } case default, 3 { } }
            loop { if c > 1 { break; } continuing { a[2] = 1.0; break if c == 2; } }
            for (var i = 0; i < 4; i++) { continue; }
            while (b > 1) { }
            f();
            { ; }
            const_assert 1 < 2;
        """)
        assert [type(s).__name__ for s in statements] == [
            "DeclStmt", "DeclStmt", "DeclStmt", "Assign", "IncDec", "Assign", "If", "Switch",
            "Loop", "For", "While", "CallStmt", "Block", "AssertStmt"]
        assert statements[3].op == "+=" and statements[5].target is None
        switch = statements[7]
        assert [[None if s is None else shape(s) for s in c.selectors] for c in switch.cases] \
            == [["0", "1"], [None, "3"]]
        loop = statements[8]
        assert shape(loop.break_if) == "(c == 2)" and len(loop.continuing.body) == 1

    def test_attributes_on_blocks_and_bodies(self):
        (statement,) = body_of("if x @diagnostic(off, derivative_uniformity) { }")
        assert statement.then.attributes[0].name == "diagnostic"

    def test_module_declarations(self):
        module = parse_wgsl("""
            enable f16;
            requires readonly_and_readwrite_storage_textures;
            diagnostic(off, derivative_uniformity);
            alias V = vec3<f32>;
            struct S { @size(16) a: f32, @align(8) b: vec2u, }
            @id(7) override n: u32 = 4u;
            const k = 3;
            var<private> p: i32;
            const_assert k > 2;
            @compute @workgroup_size(8, 1) fn main(@builtin(local_invocation_index) i: u32) {}
            @fragment fn fs(@location(0) @interpolate(flat) c: u32) -> @location(0) vec4f {
                return vec4f();
            }
        """)
        assert [d.kind for d in module.directives] == ["enable", "requires", "diagnostic"]
        assert [type(d).__name__ for d in module.decls] == [
            "Alias", "Struct", "VarDecl", "VarDecl", "VarDecl", "ConstAssert", "Function",
            "Function"]
        main, fs = module.decls[-2:]
        assert [a.name for a in main.attributes] == ["compute", "workgroup_size"]
        assert main.params[0].attributes[0].args[0].name == "local_invocation_index"
        assert fs.return_attributes[0].name == "location"
        assert fs.params[0].attributes[1].args[0].name == "flat"

    def test_an_empty_module_is_valid(self):
        assert parse_wgsl("").decls == []
        assert parse_wgsl("// nothing\n/* at /* all */ */\n").decls == []


class TestDiagnostics:
    """A text that is not WGSL gets file:line:col, the line, a caret and what was expected."""

    def error(self, text: str, name: str = "shader.wgsl") -> WGSLError:
        with pytest.raises(WGSLError) as info:
            parse_wgsl(text, name)
        return info.value

    def test_a_missing_semicolon_names_the_place_and_what_was_expected(self):
        error = self.error("fn f() {\n  let x = 1\n  let y = 2;\n}\n")
        assert str(error) == (
            "shader.wgsl:3:3: error: expected ';' after the statement, found 'let'\n"
            "      let y = 2;\n"
            "      ^^^")
        assert error.where == "shader.wgsl:3:3"

    def test_lines_are_counted_as_wgsl_counts_them(self):
        # CR LF is one line break; a lone CR and VT count too
        error = self.error("const a = 1;\r\nconst b = 2;\rconst c = 3;\vconst d = $;")
        assert error.where == "shader.wgsl:4:11"

    def test_unterminated_block_comment(self):
        error = self.error("const a = 1;\n/* open /* nested */ still open\n")
        assert error.where == "shader.wgsl:2:1" and "unterminated block comment" in str(error)

    @pytest.mark.parametrize(("text", "words"), [
        ("fn f() { let self = 1; }", "reserved word"),
        ("fn f() { let __x = 1; }", "two underscores"),
        ("const a = 01;", "leading zeros"),
        ('const s = "text";', "no string"),
        ("\ufeffconst a = 1;", "byte order mark"),
        ("\x00\x01\x02binary", "binary file"),
        ("let a = 1;", "only allowed in functions"),
        ("fn f() { if x { } else x }", "expected '{'"),
        ("fn f() { break if x; }", "continuing"),
        ("fn f() { x == 1; }", "did you mean '='"),
        ("enable f16;\nfn f() {}\nenable f16;", "before every declaration"),
        ("struct S {}", "at least one"),
        ("fn f() {\n  let x = (1;\n}", "')' to close '('"),
        ("fn f() {", "never closed"),
    ])
    def test_bad_input_is_a_diagnostic(self, text, words):
        assert words in str(self.error(text))

    @pytest.mark.parametrize("opening", ["(", "{", "array<"])
    def test_ten_thousand_levels_of_nesting_is_a_diagnostic_not_a_crash(self, opening):
        if opening == "{":
            text = "fn f() " + "{" * 10_000 + "}" * 10_000
        elif opening == "(":
            text = "const a = " + "(" * 10_000 + "1" + ")" * 10_000 + ";"
        else:
            text = "var<private> a: " + "array<" * 10_000 + "f32" + ">" * 10_000 + ";"
        assert "nested" in str(self.error(text))

    def test_unicode_identifiers_are_names(self):
        statements = body_of("let Δx = 1.0;\nlet 世界 = 2;\nlet é = 3;")
        assert [s.decl.name for s in statements] == ["Δx", "世界", "é"]

    def test_a_span_covers_its_text(self):
        text = "const a = vec3<f32>(1.0, 2.0, 3.0).xy;"
        init = parse_wgsl(text).decls[0].init
        assert text[init.span.start:init.span.end] == "vec3<f32>(1.0, 2.0, 3.0).xy"
        assert Source(text).excerpt(Span(10, 14)).endswith("^^^^")
