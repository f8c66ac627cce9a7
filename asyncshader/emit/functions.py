"""Statements and functions: one Python function (the entry point or a helper it calls) as one
WGSL function.

Locals: a name assigned once becomes a ``let``, otherwise a ``var``; a name first assigned in a
nested block but used outside it is declared at the top of the function (WGSL scopes names by
block, Python by function). A local given only Python literals (``stride = WG // 2``) takes the
type its uses ask for (``i < stride`` with a u32 ``i``: u32), else i32 / f32 as WGSL's abstract
numbers would; an annotation (``x: u32 = 0``) decides it outright."""

from __future__ import annotations

import ast
from typing import Any

from ..wgsl.source import parse, resolve
from . import creation, powers, results, swizzles
from .expressions import E, Expressions, Memory
from .marks import SOURCE_LINES, plain_pointer
from .names import RESERVED, SPACES
from .scoping import bind_counts, hoisted, store_counts, used_outside
from .switch import Switches
from .values import copy_of
from .wtypes import (
    AFLOAT,
    AINT,
    BOOL,
    U32,
    Array,
    Atomic,
    Predeclared,
    Scalar,
    Unknown,
    Vector,
    WGSLEmitError,
    from_python,
    scalar_of,
)

_AUG = {ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.Div: "/=", ast.Mod: "%=",
        ast.BitAnd: "&=", ast.BitOr: "|=", ast.BitXor: "^=", ast.LShift: "<<=", ast.RShift: ">>="}


class Local:
    def __init__(self, wgsl: str, type_: Any, mutable: bool, hoisted: bool) -> None:
        self.wgsl, self.type, self.mutable, self.hoisted = wgsl, type_, mutable, hoisted
        self.declared = False
        self.memory: Memory | None = None
        self.selector = False  # names one of several buffers in turn: a u32 choice
        self.loaded = ""  # the memory it holds a numpy row of (a view of it on the CPU)


class Function(Switches, Expressions):
    """Translates one function. ``params`` maps parameter names to E values (the entry point's
    builtins and inputs, a helper's arguments); names not local are looked up in the
    function's module scope (workgroup variables, constants, helpers) or in ``resources``."""

    def __init__(self, module: Any, fn: Any, params: dict[str, E], resources: dict[str, Memory],
                 kind: str, key: str) -> None:
        from ..wgsl.source import Scope

        self.module, self.fn, self.kind, self.key = module, fn, kind, key
        self.scope = Scope(fn)
        self.params, self.resources = params, resources
        # (module-scope names this helper reaches through its parameters: no local takes them)
        self.shadowing = {m.name for p, m in resources.items() if p != m.name}
        parsed = parse(fn)
        if parsed is None:
            raise WGSLEmitError(f"{fn.__qualname__}: its source cannot be read (made by exec?); "
                                "the emitter translates the source. Fix: define it in a file.")
        tree, self.first = parsed
        self.node = tree.body[0]
        self.file = fn.__code__.co_filename
        self.locals: dict[str, Local] = {}
        self.lines: list[str] = []
        self.at_line: int | None = None  # the Python line being translated
        self.depth = 1
        self.ordered = False  # (statements may be emitted before the one being emitted)
        self.returns: list[Any] = []
        self.taken = {n.id for n in ast.walk(self.node) if isinstance(n, ast.Name)} | set(params)
        self.stores = store_counts(self.node)  # (stores into a name or through it: v.x = 1)
        self.binds = bind_counts(self.node)  # (assignments of the name itself)
        self.hoist = hoisted(self.node)
        self.mutated_params = {n for n in params if self.stores.get(n)}

    # ------------------------------------------------------------------------------ helpers
    def fail(self, node: ast.AST, what: str, fix: str) -> None:
        """Raises WGSLEmitError: at file:line, ``what`` cannot be written in WGSL; the fix."""
        self.fail_because(node, f"{what} cannot be written in WGSL", fix)

    def fail_because(self, node: ast.AST, sentence: str, fix: str) -> None:
        """Raises WGSLEmitError: at file:line, ``sentence``; the fix."""
        line = self.first + getattr(node, "lineno", 1) - 1
        raise WGSLEmitError(f"{self.file}:{line}: {self.fn.__qualname__}: {sentence}. "
                            f"Fix: {fix}.")

    def is_global(self, name: str) -> bool:
        return name not in self.locals and name not in self.params and \
            name not in self.resources

    def lookup_name(self, node: ast.Name) -> E:
        name = node.id
        local = self.locals.get(name)
        if local is not None:
            if local.memory is not None:
                return E(local.memory.name, None, memory=local.memory)
            if local.selector:
                return E(local.wgsl, U32, memory=Memory(local.wgsl, "select", None))
            return E(local.wgsl, self.module.resolved(local.type))
        if name in self.params:
            return self.params[name]
        if name in self.resources:
            return E(name, None, memory=self.resources[name])
        return self.global_value(node, name, self.scope.get(name))

    def emit(self, text: str) -> None:
        marks = SOURCE_LINES.get()
        if marks is not None and self.at_line is not None:
            text = "\n".join(f"{t} // @ash {len(marks)}" for t in text.split("\n"))
            marks.append((self.file, self.at_line))
        self.lines.append("    " * self.depth + text)

    def local_name(self, name: str) -> str:
        """A local's WGSL name: its own, unless a buffer passed to this helper goes by it at
        module scope (``def f(buf): a = buf[0]`` called with the binding ``a``)."""
        wgsl = wgsl_identifier(name)
        while wgsl in self.shadowing:
            wgsl += "_"
        return wgsl

    def fresh(self, stem: str) -> str:
        """A name for a temporary that no name of the function takes (``tmp1``, ``tmp2`` ...)."""
        k = 1
        while f"{stem}{k}" in self.taken:
            k += 1
        self.taken.add(f"{stem}{k}")
        return f"{stem}{k}"

    # ------------------------------------------------------------------------------ body
    def body(self) -> list[str]:
        """The translated body (lines, indented one level)."""
        for name in sorted(self.mutated_params):
            p = self.params[name]
            local = self.locals[name] = Local(p.text, p.type, True, False)
            local.declared = True
            self.emit(f"var {p.text} = {p.text}_in;")
        body = self.node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # the docstring
        self.block(body)
        on_top = [f"    var {loc.wgsl}: {self.module.final(loc.type, self, loc.wgsl)};"
                  for loc in self.locals.values() if loc.hoisted and loc.memory is None]
        return on_top + self.lines

    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.at_line = self.first + s.lineno - 1
            self.ordered = self.in_order(s)
            method = getattr(self, "s_" + type(s).__name__, None)
            if method is None:
                self.fail(s, _STATEMENTS.get(type(s).__name__, f"the statement "
                          f"{type(s).__name__}"), _FIXES.get(type(s).__name__, "rewrite it "
                          "with if / while / for-range / assignments"))
            method(s)
            self.ordered = False  # (an elif's or a loop's condition: evaluated in place)

    def in_order(self, s: ast.stmt) -> bool:
        """Whether statements emitted before ``s`` may compute a part of it (a conditional
        expression's branches as an if/else): ``s`` is an assignment, expression or return
        that calls no user function and awaits nothing, so nothing it evaluates first has an
        effect the moved part could see."""
        if not isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)):
            return False
        for n in ast.walk(s):
            if isinstance(n, ast.Await) or (isinstance(n, ast.Call) and
                                             self.module.is_user_function(
                                                 resolve(n.func, self.scope))):
                return False
        return True

    def nested(self, stmts: list[ast.stmt]) -> None:
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def condition(self, node: ast.expr) -> str:
        e = self.value(node)
        if self.module.resolved(e.type) != BOOL:
            self.fail(node, f"the condition `{ast.unparse(node)}` (a "
                      f"{getattr(self.module.resolved(e.type), 'wgsl', '?')}, not a bool)",
                      "compare explicitly, e.g. `x != 0`")
        return e.text

    # ------------------------------------------------------------------------------ statements
    def s_Pass(self, node: ast.Pass) -> None:
        pass

    def s_Break(self, node: ast.Break) -> None:
        self.emit("break;")

    def s_Continue(self, node: ast.Continue) -> None:
        self.emit("continue;")

    def s_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a string used as a comment
        if not isinstance(node.value, (ast.Call, ast.Await)):
            self.fail(node, f"the expression statement `{ast.unparse(node)}`", "remove it, or "
                      "assign its value")
        e = self.expr(node.value)
        if e.ref == "discard":
            self.emit("discard;")
        elif e.type is None or (e.ref == "helper-call" and e.type is None):
            self.emit(f"{e.text};")
        else:
            self.emit(f"_ = {e.text};")

    def s_If(self, node: ast.If) -> None:
        self.emit(f"if {self.condition(node.test)} {{")
        self.nested(node.body)
        orelse = node.orelse
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            self.emit(f"}} else if {self.condition(orelse[0].test)} {{")
            self.nested(orelse[0].body)
            orelse = orelse[0].orelse
        if orelse:
            self.emit("} else {")
            self.nested(orelse)
        self.emit("}")

    def s_While(self, node: ast.While) -> None:
        if node.orelse:
            self.fail(node, "while ... else", "use a flag variable")
        self.emit(f"while {self.condition(node.test)} {{")
        self.nested(node.body)
        self.emit("}")

    def s_For(self, node: ast.For) -> None:
        it = node.iter
        if node.orelse:
            self.fail(node, "for ... else", "use a flag variable")
        if not (isinstance(it, ast.Call) and self.expr(it.func).ref is range
                and isinstance(node.target, ast.Name) and 1 <= len(it.args) <= 3):
            self.fail(node, f"the loop `for {ast.unparse(node.target)} in {ast.unparse(it)}`",
                      "loop over range(start, stop, step) with one name, or use while")
        name = node.target.id
        if used_outside(self.node, node, name):
            self.fail(node, f"the loop variable {name!r} used after its loop (WGSL scopes it to "
                      "the loop)", "copy it into a variable declared before the loop")
        args = [self.value(a) for a in it.args]
        start, stop, step = (args[0] if len(args) > 1 else self.constant(0, AINT),
                             args[1] if len(args) > 1 else args[0],
                             args[2] if len(args) > 2 else self.constant(1, AINT))
        t = self.module.resolved(start.type)
        for a, n in zip(args, it.args):
            t = self.binary_type(n, t, self.module.resolved(a.type))
        if isinstance(t, Scalar) and t.abstract:
            # (one type per loop: sibling loops over one name may count in different types)
            t = self.module.local_type(f"{self.key}@{node.lineno}", name, AINT)
        wgsl = self.local_name(name)
        local = self.locals[name] = Local(wgsl, t, True, False)
        local.declared = True
        down = step.has_const and step.const < 0
        inc = f"{wgsl} += {step.text}" if not down else f"{wgsl} -= {-step.const}"
        if step.has_const and step.const == 1:
            inc = f"{wgsl}++"
        self.emit(f"for (var {wgsl}: {self.module.final(t, self, wgsl)} = {start.text}; "
                  f"{wgsl} {'>' if down else '<'} {stop.operand('rel', 1)}; {inc}) {{")
        self.nested(node.body)
        self.emit("}")
        del self.locals[name]

    def s_Return(self, node: ast.Return) -> None:
        if node.value is None:
            self.emit("return;")
            return
        if self.kind == "compute":
            self.fail(node, "returning a value from a compute entry point", "write the result "
                      "into a storage buffer")
        e = self.value(node.value)
        self.returns.append((e, node))
        self.emit(f"return {e.text};")

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.fail(node, "an annotated assignment to a subscript", "annotate plain names")
        t = from_python(self.resolve_annotation(node.annotation))
        if t is None:
            self.fail(node.annotation, f"the annotation {ast.unparse(node.annotation)}",
                      "annotate with a WGSL type: f32, i32, u32, bool_, vec3f ...")
        if node.value is None:
            self.declare(node.target.id, t, None, node)
            return
        self.assign_name(node.target.id, self.value(node.value), node, declared=t)

    def resolve_annotation(self, node: ast.expr) -> Any:
        from ..wgsl.source import resolve

        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node = ast.parse(node.value, mode="eval").body
        return resolve(node, self.scope)

    def s_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Tuple):
                self.unpack(target, node.value, node)
            else:
                self.store(target, node.value, node)

    def unpack(self, target: ast.Tuple, value: ast.expr, node: ast.AST) -> None:
        if not isinstance(value, ast.Tuple):  # r, g, b = PALETTE[i]; f, e = ash.frexp(x)
            whole = self.value(value)
            t = self.module.resolved(whole.type)
            if isinstance(t, Predeclared):  # (a frexp / modf / compare-exchange result)
                results.unpack(self, target, whole, node)
                return
            size = t.length if isinstance(t, Array) else getattr(t, "size", None)
            if size != len(target.elts) or not isinstance(t, (Array, Vector)):
                self.fail(node, f"unpacking `{ast.unparse(value)}` into {len(target.elts)} "
                          "names", "unpack a vector or a fixed-size array (a module tuple) "
                          "into as many names, or assign each name on its own line")
            tmp = self.fresh("tmp")
            self.emit(f"let {tmp} = {whole.text};")
            for k, name in enumerate(target.elts):
                part = f"[{k}]" if isinstance(t, Array) else "." + "xyzw"[k]
                self.store(name, None, node, E(f"{tmp}{part}", getattr(
                    t, "element", None) or t.scalar))
            return
        if len(value.elts) != len(target.elts):
            self.fail(node, "unpacking a value into several names", "assign each name on its "
                      "own line")
        values = [self.expr(v) for v in value.elts]
        reads = {n.id for v in value.elts for n in ast.walk(v) if isinstance(n, ast.Name)}
        writes = {n.id for t in target.elts for n in ast.walk(t) if isinstance(n, ast.Name)}
        if reads & writes:  # a, b = b, a: through temporaries
            temps = []
            for v in values:
                if v.memory is not None and v.memory.space != "select":
                    temps.append(v)  # (a buffer's name: nothing to save)
                    continue
                tmp = self.fresh("tmp")
                self.emit(f"let {tmp} = {v.text};")
                temps.append(E(tmp, v.type))
            values = temps
        for t, v in zip(target.elts, values):
            self.store(t, None, node, v)

    def store(self, target: ast.expr, value_node: ast.expr | None, node: ast.AST,
              value: E | None = None) -> None:
        if isinstance(target, ast.Name):
            if value is None:
                value = self.expr(value_node)
            self.assign_name(target.id, value, node)
            return
        if value is None:
            value = self.value(value_node)
        dest = self.expr(target)
        self.check_root_writable(target, node)
        ref = dest.ref
        if isinstance(ref, tuple) and ref[0] == "selected":  # one of several buffers
            _, selector, index, choices = ref
            tmp = self.fresh("tmp")
            self.emit(f"let {tmp} = {value.text};")
            for k, mem in enumerate(choices):
                self.check_writable(mem, node)
                self.module.unify(mem.element(self.module), self.module.resolved(value.type),
                                  node, self)
                head = "if" if k == 0 else "} else if" if k < len(choices) - 1 else "} else"
                test = f" {selector.text} == {k}u" if k < len(choices) - 1 or k == 0 else ""
                self.emit(f"{head}{test} {{")
                self.emit(f"    {mem.name}[{index.text}] = {tmp};")
            self.emit("}")
            return
        if isinstance(ref, tuple) and ref[0] == "element":
            mem = ref[1]
            element = mem.element(self.module)
            self.check_writable(mem, node)
            self.module.unify(element.scalar if isinstance(element, Atomic) else element,
                              self.module.resolved(value.type), node, self)
            value = self.as_float(value, self.module.resolved(value.type), element)
            plain = f"{mem.name}[{ref[2].text}]"
            if dest.memory is not None:  # an atomic element: a plain store is atomicStore
                self.emit(f"atomicStore({plain_pointer(plain)}, {value.text});")
            else:
                self.emit(f"{plain} = {value.text};")
            return
        if isinstance(target, ast.Attribute) and dest.memory is not None:  # .value of atomic
            self.emit(f"atomicStore({plain_pointer(dest.memory.name)}, {value.text});")
            return
        self.module.unify(self.module.resolved(dest.type), self.module.resolved(value.type),
                          node, self)
        value = self.as_float(value, self.module.resolved(value.type), dest.type)
        if swizzles.is_swizzle_store(self, target):
            swizzles.store(self, target, dest, value)
            return
        self.emit(f"{dest.text} = {value.text};")

    def check_writable(self, mem: Memory, node: ast.AST) -> None:
        t = self.module.resolved(mem.type)
        if mem.space == "uniform" and isinstance(t, Unknown):  # (a guess: nothing said)
            self.unknown_type(node, t, "the shader stores into it, so it is a buffer, not a "
                              "uniform, but nothing says of what", indexed=True)
        if mem.space in ("uniform", "read"):
            self.fail(node, f"a write to {mem.name} (a read-only binding: {SPACES[mem.space]})",
                      "bind it as ash.Storage")

    def check_root_writable(self, target: ast.expr, node: ast.AST) -> None:
        """A store through a member, component or element (``u.count``, ``r[i].mass``,
        ``step.y``) of a read-only or uniform binding is an error naming the binding."""
        root = target
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if root is not target and isinstance(root, ast.Name):
            mem = self.lookup_name(root).memory
            if mem is not None:
                self.check_writable(mem, node)
            local = self.locals.get(root.id)
            if local is not None and local.loaded:
                t = self.module.resolved(local.type)
                self.fail(node, f"a store into `{ast.unparse(target)}`, where {root.id!r} holds "
                          f"a row of {local.loaded}, bound without a vector element (the CPU "
                          f"indexes numpy rows, views of the buffer, so the store reaches "
                          f"{local.loaded}; in WGSL {root.id} is a copy)", f"declare the "
                          f"binding's element ({local.loaded}: ash.Storage[{t.wgsl}]): then "
                          f"{local.loaded}[i] is a {t.wgsl} on both sides; or store into the "
                          f"element itself ({local.loaded}[i].x = ...), or copy it explicitly: "
                          f"{copy_of(t, local.loaded)}")

    def declare(self, name: str, t: Any, value: E | None, node: ast.AST) -> Local:
        wgsl = self.local_name(name)
        mutable = self.stores.get(name, 0) > 1 or value is None or name in self.hoist
        local = self.locals[name] = Local(wgsl, t, mutable, name in self.hoist)
        return local

    def assign_name(self, name: str, value: E, node: ast.AST, declared: Any = None) -> None:
        local = self.locals.get(name)
        if value.memory is not None and value.ref is None and declared is None:
            if local is None and self.binds.get(name, 0) == 1 and value.memory.space != \
                    "select":
                local = self.declare(name, None, value, node)
                local.memory = value.memory
                return
            self.select(name, value, node)
            return
        if value.type is None:
            self.fail(node, f"assigning `{ast.unparse(getattr(node, 'value', node))}`, which "
                      "has no value", "call it as a statement")
        vt = self.module.resolved(value.type)
        if local is not None and local.memory is not None:
            self.fail(node, f"{name!r} reassigned after naming a buffer", "use another name")
        if local is None:
            t = declared or vt
            if isinstance(t, (Scalar, Vector)) and t.abstract:
                t = self.module.local_type(self.key, name, scalar_of(t) if isinstance(
                    t, Scalar) else t)
            elif declared is not None:
                self.module.unify(declared, vt, node, self)
            local = self.declare(name, t, value, node)
            if isinstance(value.ref, tuple) and value.ref[0] in ("element", "selected"):
                loaded = value.ref[1] if value.ref[0] == "element" else value.ref[3][0]
                if loaded.rows:  # (a numpy row of the buffer: a view on the CPU)
                    local.loaded = loaded.name
            if local.hoisted:
                results.check_named(self, node, t, f"{name!r}, first assigned in a block and "
                                    "used after it (declared before the block, with its type)")
            typed = declared is not None or isinstance(local.type, Unknown) or vt == AFLOAT
            if local.hoisted:
                self.emit(f"{local.wgsl} = {value.text};")
            else:
                kw = "var" if local.mutable else "let"
                ann = f": {self.module.final(local.type, self, name)}" if typed else ""
                self.emit(f"{kw} {local.wgsl}{ann} = {value.text};")
            return
        self.module.unify(self.module.resolved(local.type), vt, node, self)
        self.emit(f"{local.wgsl} = {value.text};")

    def select(self, name: str, value: E, node: ast.AST) -> None:
        """``src = ping`` where ``src`` names several buffers in turn (``src, dst = dst,
        src``): WGSL keeps no pointer in a variable, so ``src`` becomes a u32 choosing among
        the buffers so named, and ``src[i]`` a select() over them (a store: an if chain)."""
        if self.kind != "compute" or (value.memory.space != "select"
                                      and value.memory.space not in ("workgroup", "storage")):
            self.fail(node, f"{name!r} naming a buffer or workgroup variable in turn",
                      "index one array with an offset instead")
        text = value.text if value.memory.space == "select" else \
            f"{self.module.choice(self.key, value.memory)}u"
        local = self.locals.get(name)
        if local is None:
            local = self.declare(name, U32, value, node)
            local.selector = local.mutable = True
            self.emit(f"{local.wgsl} = {text};" if local.hoisted else
                      f"var {local.wgsl}: u32 = {text};")
            return
        if not local.selector:
            self.fail(node, f"{name!r} holding a value and then a buffer", "use two names")
        self.emit(f"{local.wgsl} = {text};")

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        if swizzles.is_swizzle_store(self, node.target):
            swizzles.augmented(self, node)
            return
        value = self.value(node.value)
        target = self.expr(node.target)
        self.check_root_writable(node.target, node)
        if target.memory is not None and not isinstance(target.ref, tuple):
            self.fail(node, f"`{ast.unparse(node)}` on a whole buffer (numpy's meaning)",
                      "update its elements one by one, in a loop over range()")
        t = self.binary_type(node, self.module.resolved(target.type),
                             self.module.resolved(value.type))
        creation.check_operator(self, node, type(node.op), value, t)
        if isinstance(node.target, ast.Name) and node.target.id in self.locals:
            self.module.unify(self.module.resolved(self.locals[node.target.id].type), t, node,
                              self)
        ref = target.ref
        if isinstance(ref, tuple) and ref[0] == "element":
            self.check_writable(ref[1], node)
        if target.memory is not None:
            self.fail(node, "an augmented assignment to an atomic", "use ash.atomic_add(...)")
        op = type(node.op)
        if op is ast.FloorDiv and getattr(scalar_of(t), "kind", None) == "f":
            return self.emit(f"{target.text} = floor({target.text} / {value.operand('mul', 1)});")
        if op is ast.Pow:  # (x = x * x, or pow)
            return self.emit(f"{target.text} = {powers.augmented(self, node).text};")
        op = ast.Div if op is ast.FloorDiv else op
        if op not in _AUG:
            self.fail(node, f"the operator {op.__name__}=", "write it as x = x op y")
        self.emit(f"{target.text} {_AUG[op]} {value.text};")


def wgsl_identifier(name: str) -> str:
    """A Python name as a WGSL identifier: not reserved, not ``_``, not starting with ``__``."""
    if name == "_":
        return "unused"
    if name.startswith("__"):
        name = "u" + name.lstrip("_")
    return name + "_" if name in RESERVED else name


_STATEMENTS = {"Assert": "assert", "Raise": "raise", "Try": "try / except", "With": "with",
               "AsyncWith": "async with", "AsyncFor": "async for", "Global": "global",
               "Nonlocal": "nonlocal", "Import": "import", "ImportFrom": "import",
               "FunctionDef": "a nested function", "AsyncFunctionDef": "a nested function",
               "ClassDef": "a class", "Delete": "del"}
_FIXES = {"Assert": "check the condition in a test on the CPU (or write a flag into a buffer)",
          "Raise": "write an error code into a buffer", "Try": "WGSL has no exceptions",
          "FunctionDef": "define the helper at module scope (it becomes a WGSL function)",
          "AsyncFunctionDef": "define the helper at module scope",
          "Global": "use a workgroup variable or a buffer",
          "Import": "import at module scope", "ImportFrom": "import at module scope"}


def concrete(t: Any) -> Any:
    return t.concrete() if isinstance(t, (Scalar, Vector)) and t.abstract else t


__all__ = ["AFLOAT", "Function", "concrete"]
