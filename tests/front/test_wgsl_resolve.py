"""Name resolution: every identifier bound to its declaration by WGSL's scoping rules, and
what those rules reject is a diagnostic at the place."""

import pytest

from asyncshader.front.wgsl import WGSLError, resolve_wgsl, syntax
from asyncshader.front.wgsl.predeclared import Predeclared


def idents(node) -> list[syntax.Ident]:
    """Every identifier under ``node``, in source order."""
    found = []

    def walk(x):
        if isinstance(x, syntax.Ident):
            found.append(x)
        if isinstance(x, list):
            for item in x:
                walk(item)
        elif hasattr(x, "__slots__"):
            for slot in type(x).__mro__:
                for name in getattr(slot, "__slots__", ()):
                    if name != "target":
                        walk(getattr(x, name, None))

    walk(node)
    return sorted(found, key=lambda i: i.span.start)


def target_of(resolved, name: str, occurrence: int = 0):
    matches = [i for i in idents(resolved.module) if i.name == name]
    return matches[occurrence].target


def error(text: str) -> str:
    with pytest.raises(WGSLError) as info:
        resolve_wgsl(text, "m.wgsl")
    return str(info.value)


class TestBinding:
    def test_module_declarations_may_come_in_any_order(self):
        resolved = resolve_wgsl("""
            fn main() { let v = helper(N); }
            fn helper(x: u32) -> u32 { return x * 2u; }
            const N = 4u;
        """)
        assert isinstance(target_of(resolved, "helper"), syntax.Function)
        assert target_of(resolved, "N").kind == "const"
        assert resolved.calls == {"main": ["helper"], "helper": []}

    def test_a_local_shadows_a_module_name_from_the_end_of_its_declaration(self):
        resolved = resolve_wgsl("""
            const x = 1;
            fn f() {
                let a = x;      // the module's x
                let x = 2;
                let b = x;      // the local x
                { let x = 3; let c = x; }
            }
        """)
        module_x, local_x, inner_x = (target_of(resolved, "x", k) for k in (0, 1, 2))
        assert module_x.span.start < local_x.span.start < inner_x.span.start
        assert module_x is resolved.globals["x"]
        assert local_x.kind == "let" and inner_x.kind == "let" and local_x is not inner_x

    def test_predeclared_names_and_their_shadowing(self):
        resolved = resolve_wgsl("""
            fn f() { let a = min(1, 2); let b = vec3<f32>(); }
            fn g() { let min = 3; let c = min; }
        """)
        assert target_of(resolved, "min", 0) == Predeclared("min", "built-in function")
        assert target_of(resolved, "vec3") == Predeclared("vec3", "type-generator")
        assert target_of(resolved, "f32") == Predeclared("f32", "type")
        assert isinstance(target_of(resolved, "min", 1), syntax.VarDecl)

    def test_a_continuing_block_and_break_if_see_the_loop_body(self):
        resolve_wgsl("""
            fn f() {
                var i = 0;
                loop {
                    let step = 2;
                    continuing { let j = i + step; i = j; break if j > 10; }
                }
            }
        """)

    def test_for_loop_variables_are_scoped_to_the_loop(self):
        resolve_wgsl("fn f() { for (var i = 0; i < 2; i++) {} for (var i = 0u; i < 2u; i++) {} }")
        assert "'i' is not declared" in error("fn f() { for (var i = 0; i < 2; i++) {} i = 1; }")

    def test_entry_points_and_templates(self):
        resolved = resolve_wgsl("""
            enable f16;
            requires pointer_composite_access;
            @group(0) @binding(0) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(64) fn main() { out[0] = bitcast<u32>(1.0f); }
            @fragment fn fs() -> @location(0) vec4f { return vec4f(); }
            fn helper() {}
        """)
        assert [f.name for f in resolved.entry_points] == ["main", "fs"]
        assert target_of(resolved, "storage") == Predeclared("storage", "enumerant")


class TestErrors:
    @pytest.mark.parametrize(("text", "words"), [
        ("fn f() { let a = b; }", "'b' is not declared"),
        ("fn f() { let count = 1; let c = coutn; }", "did you mean 'count'"),
        ("fn f() { let a = b; let b = 1; }", "used before its declaration at line 1"),
        ("const a = 1;\nconst a = 2;", "redeclaration of 'a' (it is already declared at line 1)"),
        ("fn f(x: i32) { let x = 1; }", "redeclaration of 'x' in the same scope"),
        ("fn f() -> i32 { return f(); }", "recursion is not allowed in WGSL: f -> f"),
        ("fn f() { g(); }\nfn g() { f(); }", "recursion is not allowed in WGSL: f -> g -> f"),
        ("const a = b;\nconst b = a;", "'a' depends on itself: a -> b -> a"),
        ("struct S { s: S }", "'S' depends on itself"),
        ("fn f() { break; }", "'break' must be inside a loop or a switch"),
        ("fn f() { continue; }", "'continue' must be inside a loop"),
        ("fn f() { loop { continuing { break; } } }", "break if condition"),
        ("fn f() { loop { continuing { return; } } }", "cannot leave a 'continuing' block"),
        ("fn f() { switch 1 { case 0: { continue; } default: {} } }", "inside a loop"),
        ("fn f() { switch 1 { case 0: {} } }", "exactly one 'default'"),
        ("fn f() { let a = f32; }", "'f32' is a type, not a value; construct a value"),
        ("fn g() {}\nfn f() { let a = g; }", "'g' is a function; call it"),
        ("fn f() { let a = 1; let b = a(); }", "only functions and types can be called"),
        ("const c = 1;\nfn f(x: c) {}", "'c' is a variable or value, not a type"),
        ("fn f() { let a = storage; }", "only meaningful in a template list"),
        ("fn f() { let a = min<i32>(1, 2); }", "takes no template list"),
        ("enable chromium_experimental_pixel_local;", "is not a WGSL extension"),
        ("requires texel_buffers;", "is not a WGSL language extension"),
    ])
    def test_scoping_errors_are_diagnostics(self, text, words):
        assert words in error(text)

    def test_the_diagnostic_points_at_the_use(self):
        message = error("const a = 1;\nfn f() {\n  let b = a + c;\n}")
        assert message.startswith("m.wgsl:3:15: error: 'c' is not declared")
        assert message.endswith("      let b = a + c;\n                  ^")

    def test_continue_in_a_switch_in_a_loop_is_allowed(self):
        resolve_wgsl("fn f() { loop { switch 1 { case 0: { continue; } default: { break; } } } }")


def test_every_predeclared_function_the_resolver_knows_has_a_typing_rule():
    """The resolver's list of WGSL built-in functions and the checker's rules name the same
    functions (bitcast is typed from its template list, the buffer views are not run)."""
    from asyncshader.front.wgsl.builtin_types import RULES
    from asyncshader.front.wgsl.predeclared import FUNCTION, PREDECLARED
    functions = {name for name, p in PREDECLARED.items() if p.kind == FUNCTION}
    assert set(RULES) <= functions
    assert functions - set(RULES) == {"bitcast", "bufferView", "bufferArrayView", "bufferLength"}
