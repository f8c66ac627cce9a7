"""Expressions: a Python expression of a shader as WGSL text with its inferred type.

Types come from the parameters (builtins, bindings), annotations, literals (Python's ``1`` and
``1.5`` are WGSL's abstract int and float), folded module constants and the result rules of the
built-ins (:mod:`asyncshader.emit.names`). Where an operand's type is still unknown (a storage
buffer's element, a local given only literals) the other operand's type decides it
(:meth:`Module.unify`); the module runs the translation again until nothing new is learnt.

Operator precedence follows WGSL's grammar, which is stricter than Python's: a bitwise or shift
operand must be a unary expression, so ``(a + b) & c`` keeps its parentheses."""

from __future__ import annotations

import ast
import dataclasses
import types
from typing import Any

import numpy as np

from ..wgsl.memory import WorkgroupVar, ptr
from ..wgsl.module_bindings import ModuleBinding
from ..wgsl.overrides import Override
from ..wgsl.source import resolve, root_name
from ..wgsl.types import Vec, _ScalarType, _VecTemplate
from . import (
    atomics,
    buffers,
    consts,
    creation,
    matrices,
    names,
    powers,
    results,
    structs,
    subgroups,
    textures,
)
from .conditionals import Conditionals
from .folding import Folding
from .marks import plain_pointer
from .numpy_casts import is_numpy_scalar, numpy_cast
from .overrides import value as override_value
from .pointers import deref, function_pointer
from .values import E, Memory
from .wtypes import (
    AFLOAT,
    AINT,
    BOOL,
    F32,
    I32,
    Array,
    Atomic,
    Elements,
    Matrix,
    Predeclared,
    Scalar,
    Struct,
    Unknown,
    Vector,
    from_python,
    literal,
    scalar_of,
    type_of_value,
    with_scalar,
)

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%"}
_BITS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_SHIFTS = {ast.LShift: "<<", ast.RShift: ">>"}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_LEVEL = {"+": "add", "-": "add", "*": "mul", "/": "mul", "%": "mul", "<<": "shift",
          ">>": "shift", "&": "&", "|": "|", "^": "^"}


class Expressions(Conditionals, Folding):
    """Mixin of :class:`asyncshader.emit.functions.Function`: the expression translator.
    Needs ``self.module``, ``self.scope``, ``self.fail``, ``self.lookup_name``."""

    module: Any
    scope: Any

    # ------------------------------------------------------------------------------ entry
    def expr(self, node: ast.expr) -> E:
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            self.unsupported(node)
        return method(node)

    def value(self, node: ast.expr) -> E:
        """An expression that must be a value (not a buffer, a function or a module)."""
        e = self.expr(node)
        if e.memory is not None and e.memory.space == "select":
            return E(e.text, e.type)  # (the u32 that chooses the buffer)
        if isinstance(e.ref, tuple):  # an element (of an atomic buffer: its atomicLoad)
            return E(e.text, e.type)
        if e.memory is not None:
            t = self.module.resolved(e.memory.type)
            if isinstance(t, (Scalar, Vector, Matrix, Struct)) or (isinstance(t, Unknown)
                    and e.memory.space == "uniform") or e.memory.space == "handle":
                return E(e.memory.name, t)
            self.fail(node, f"`{ast.unparse(node)}` names a whole buffer or array",
                      "index it (buf[i]), or pass ash.ptr(buf, i) to an atomic")
        if e.ref is not None and e.type is None:
            self.fail(node, f"`{ast.unparse(node)}` is a {type(e.ref).__name__}, not a value",
                      "call it, or use a WGSL value here")
        if isinstance(e.type, Atomic):  # (a struct's atomic member, read plainly)
            self.fail(node, f"a plain read of the atomic `{ast.unparse(node)}`", "read it with "
                      f"await ash.atomic_load(ash.ptr({ast.unparse(node)}))")
        return e

    # ------------------------------------------------------------------------------ leaves
    def x_Constant(self, node: ast.Constant) -> E:
        v = node.value
        t = type_of_value(v)
        if t is None:
            what = "a string" if isinstance(v, str) else repr(v)
            self.fail(node, f"{what} as a value", "WGSL has only numbers, booleans, vectors, "
                      "arrays and structs")
        return self.constant(v, t)

    def constant(self, v: Any, t: Any) -> E:
        text = literal(v, t)
        return E(text, t, "atom" if not text.startswith("-") else "mul", const=v, has_const=True)

    def x_Name(self, node: ast.Name) -> E:
        return self.lookup_name(node)

    def global_value(self, node: ast.AST, name: str, value: Any) -> E:
        """A name that is not local: a workgroup variable, a constant, a function, a type."""
        if isinstance(value, WorkgroupVar):
            wgsl = self.module.workgroup_name(name, value, node, self)
            return E(wgsl, None, memory=self.module.workgroup_memory(wgsl))
        if isinstance(value, ModuleBinding):  # (a module-scope binding, used by a helper)
            memory = self.module.module_binding(value)
            return E(memory.name, None, memory=memory)
        if isinstance(value, tuple):  # (a const array)
            return consts.tuple_value(self, node, name, value)
        if isinstance(value, Override):  # (a pipeline-overridable constant)
            return override_value(self, name, value)
        t = type_of_value(value)
        if t is not None:
            return E(consts.const_name(self.module, name, value, t), t, const=value,
                     has_const=True)
        if value is None and self.scope.get(name) is None and name not in self.scope.globals:
            self.fail_because(node, f"the name {name!r} is not defined",
                              "define it, or pass it as a binding")
        return E(name, None, ref=value)

    def x_Attribute(self, node: ast.Attribute) -> E:
        root = root_name(node)
        if root is not None and self.is_global(root):
            owner = resolve(node.value, self.scope)
            if isinstance(owner, (types.ModuleType, type)):
                return self.global_value(node, node.attr, getattr(owner, node.attr, None))
        base = self.expr(node.value)
        pointee = deref(self, node, base)  # (p.value: *p)
        if pointee is not None:
            return pointee
        mt = self.module.resolved(base.memory.type) if base.memory is not None else None
        if base.memory is not None and node.attr == "value":
            return E(base.memory.name, mt, memory=base.memory if isinstance(mt, Atomic) else None)
        if isinstance(mt, (Vector, Struct)):  # a uniform
            base = E(base.memory.name, mt)
        elif base.memory is not None and not isinstance(mt, Unknown):
            self.fail(node, f"`.{node.attr}` on the buffer {base.memory.name} (numpy's, not "
                      "WGSL's)", "read and write its elements one by one, in a loop over "
                      "range()")
        t = mt if isinstance(mt, Unknown) else self.module.resolved(base.type)
        if isinstance(t, Vector):
            letters = node.attr
            sets = ("xyzw", "rgba")
            if any(all(c in s[:t.size] for c in letters) for s in sets) and len(letters) <= 4:
                out = t.scalar if len(letters) == 1 else Vector(len(letters), t.scalar)
                return E(f"{base.operand('mul', 1)}.{letters}", out)
        if isinstance(t, Predeclared) and node.attr in [f for f, _ in t.fields]:
            return results.member(t, base.operand("mul", 1), node.attr)
        if isinstance(t, Struct):
            for field, ft in t.fields:
                if field == node.attr:
                    return E(f"{base.operand('mul', 1)}.{field}", ft)
        if isinstance(t, Unknown):  # (a binding or a value whose type nothing tells)
            self.unknown_type(node, t, f"the shader only reads `.{node.attr}` of it, which "
                              "does not say its type", struct=True)
        if t is None and base.ref is not None:  # (a Python object the shader reaches)
            self.fail_because(node, f"`{ast.unparse(node)}`: {ast.unparse(node.value)} is a "
                              f"Python {type(base.ref).__name__}, not a WGSL value",
                              "keep Python objects out of the shader: results go into a "
                              "buffer, values come in as bindings")
        self.fail(node, f"the attribute `.{node.attr}` of a {getattr(t, 'wgsl', t)}",
                  "use a vector swizzle (.x, .xy, .rgb ...) or a struct field")

    def x_Subscript(self, node: ast.Subscript) -> E:
        if isinstance(node.slice, ast.Tuple) and buffers.flattened(self, node) is not None:
            return self.expr(buffers.flattened(self, node))
        if isinstance(node.slice, (ast.Slice, ast.Tuple)):
            self.fail(node, "a slice or a multi-dimensional index", "index one element at a "
                      "time (WGSL arrays are one-dimensional: a[row * width + col])")
        base = self.expr(node.value)
        index = self.value(node.slice)
        it = self.module.resolved(index.type)
        if isinstance(it, Unknown):
            self.module.unify(it, names.U32 if not self.module.int_local(it) else it, node, self)
        elif scalar_of(it) is None or isinstance(it, Vector) or it.kind not in "iu":
            self.fail(node.slice, f"the index `{ast.unparse(node.slice)}` of type "
                      f"{getattr(it, 'wgsl', it)}", "index with an i32 or u32")
        if index.has_const and isinstance(index.const, int) and index.const < 0:
            self.fail(node.slice, "a negative index (Python counts from the end; WGSL does not)",
                      "index from the start: a[len - 1]")
        index = buffers.checked_index(self, node, index)
        if base.memory is not None and base.memory.space == "select":
            choices = self.module.choices(self.key)
            element = choices[0].element(self.module)
            for mem in choices[1:]:
                self.module.unify(element, mem.element(self.module), node, self)
            load = self.module.chooser(choices, element, index.type, self)
            return E(f"{load}({base.text}, {index.text})", element,
                     ref=("selected", base, index, choices))
        if base.memory is not None:
            mem = base.memory
            mt = self.module.resolved(mem.type)
            if isinstance(mt, Struct):
                self.fail(node, f"indexing {mem.name}, one struct (not an array of them)",
                          f"read its members ({mem.name}.member), or bind an array of structs")
            buffers.whole_element(self, node, mem)
            if isinstance(mt, Array):
                consts.check_index(self, node, index, mt.length)
            element = mem.element(self.module)
            text = f"{mem.name}[{index.text}]"
            if isinstance(element, Atomic) or mem.name in self.module.atomic_buffers:
                scalar = element.scalar if isinstance(element, Atomic) else element
                return E(f"atomicLoad({plain_pointer(text)})", scalar,
                         memory=Memory(text, mem.space, Atomic(scalar)
                                       if isinstance(scalar, Scalar) else scalar),
                         ref=("element", mem, index))
            return E(text, element, ref=("element", mem, index))
        t = self.module.resolved(base.type)
        if isinstance(t, (Vector, Matrix)):  # (a matrix's column: a vector)
            return E(f"{base.operand('mul', 1)}[{index.text}]", getattr(t, "column", t.scalar))
        if isinstance(t, Array):
            return consts.element(self, node, base, index, t)
        if isinstance(t, Unknown):
            self.unknown_type(node, t, "the shader only indexes it, which does not say its "
                              "type", indexed=True)
        if isinstance(t, Predeclared):  # (a NamedTuple on the CPU)
            self.fail(node, f"indexing a {t.name}", "read its members by name: " +
                      ", ".join(f"r.{f}" for f, _ in t.fields))
        self.fail(node, f"indexing a {getattr(t, 'wgsl', t)}", "index a vector, an array or "
                  "a buffer")

    # ------------------------------------------------------------------------------ operators
    def x_UnaryOp(self, node: ast.UnaryOp) -> E:
        e = self.value(node.operand)
        t = self.module.resolved(e.type)
        if e.has_const and not isinstance(node.op, ast.Not):
            with np.errstate(all="ignore"):  # (-i32(-2147483648) wraps, as in WGSL)
                v = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x,
                     ast.Invert: lambda x: ~x}[type(node.op)](e.const)
            if not isinstance(v, Vec) and type_of_value(v) is not None:
                return self.constant(v, t if not t.abstract else type_of_value(v))
        if isinstance(node.op, ast.Not):
            if t != BOOL:
                self.fail(node, f"`not` on a {getattr(t, 'wgsl', t)}", "compare explicitly: "
                          "`x == 0` (WGSL's ! takes a bool)")
            return E(f"!{e.operand('shift', 0)}", BOOL)
        if isinstance(node.op, ast.UAdd):
            return e
        s = scalar_of(t)
        if isinstance(node.op, ast.USub):
            if s is not None and s.name == "u32":
                return E(f"0u - {e.operand('add', 1)}", t, "add")
            return E(f"-{e.operand('shift', 0)}", t)
        return E(f"~{e.operand('shift', 0)}", t)

    def x_BinOp(self, node: ast.BinOp) -> E:
        a, b = self.value(node.left), self.value(node.right)
        op = type(node.op)
        ta, tb = self.module.resolved(a.type), self.module.resolved(b.type)
        if a.has_const and b.has_const and ta in (AINT, AFLOAT) and tb in (AINT, AFLOAT):
            folded = self.fold_binop(node, a.const, b.const)
            if folded is not None:
                return folded
        if isinstance(ta, Matrix) or isinstance(tb, Matrix) or op is ast.MatMult:
            return matrices.binop(self, node, a, b, ta, tb)
        if op is ast.Pow:
            return powers.power(self, node, node.left, node.right, a, b)
        creation.check_operator(self, node, op, b, ta)
        if op in _SHIFTS:
            s = scalar_of(tb)
            if s is None or (s.kind != "u" and s != AINT):
                self.fail(node.right, "a shift count that is not u32", "write u32(count)")
            self.module.unify(tb, with_scalar(tb, names.U32 if s == AINT else s), node, self)
            return self.binary(a, b, _SHIFTS[op], ta, "shift")
        if op in _BITS:
            t = self.binary_type(node, ta, tb)
            return self.binary(a, b, _BITS[op], t, _BITS[op])
        t = self.binary_type(node, ta, tb)
        s = scalar_of(t)
        a, b = self.as_float(a, ta, t), self.as_float(b, tb, t)
        if op is ast.FloorDiv:
            if s is not None and s.kind == "f":
                return E(f"floor({a.operand('mul', 0)} / {b.operand('mul', 1)})", t)
            return self.binary(a, b, "/", t, "mul")
        if op not in _ARITH:
            self.unsupported(node)
        return self.binary(a, b, _ARITH[op], t, _LEVEL[_ARITH[op]])

    def as_float(self, e: E, te: Any, target: Any) -> E:
        """``e`` converted to ``target``'s float type where ``e`` is a local given only Python
        ints (``s = 3``, a ``range()`` variable: i32 in WGSL) and the use is a float: Python
        converts the int, WGSL converts no variable implicitly."""
        s = scalar_of(self.module.resolved(target))
        if s is None or s.kind != "f" or not self.module.int_local(te):
            return e
        s = s.concrete() if s.abstract else s
        return E(f"{s.wgsl}({e.text})", s)

    def binary(self, a: E, b: E, op: str, t: Any, level: str) -> E:
        return E(f"{a.operand(level, 0)} {op} {b.operand(level, 1)}", t, level)

    def binary_type(self, node: ast.AST, ta: Any, tb: Any) -> Any:
        """The result type of an arithmetic or bitwise operator (vector op scalar included)."""
        if isinstance(ta, Vector) and isinstance(tb, Vector):
            if ta.size != tb.size:
                self.fail(node, f"{ta.wgsl} with {tb.wgsl}", "use vectors of one size")
            return Vector(ta.size, self.module.unify(ta.scalar, tb.scalar, node, self))
        for x, y in ((ta, tb), (tb, ta)):  # an input times a scalar: it may be a vector
            if isinstance(x, Unknown) and x.what.startswith("the fragment input") and \
                    isinstance(y, Scalar):
                return x
        if isinstance(ta, Unknown) or isinstance(tb, Unknown):
            return self.module.unify(ta, tb, node, self)
        if isinstance(ta, Vector) and isinstance(tb, (Scalar, Unknown)):
            return Vector(ta.size, self.module.unify(ta.scalar, tb, node, self))
        if isinstance(tb, Vector) and isinstance(ta, (Scalar, Unknown)):
            return Vector(tb.size, self.module.unify(ta, tb.scalar, node, self))
        return self.module.unify(ta, tb, node, self)

    def x_Compare(self, node: ast.Compare) -> E:
        parts, left = [], self.value(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.value(right_node)
            if type(op) not in _CMP:
                self.fail(node, f"the comparison `{ast.unparse(node)}` (is / in)", "compare "
                          "values with == != < <= > >=")
            t = self.binary_type(node, self.module.resolved(left.type),
                                 self.module.resolved(right.type))
            text = f"{left.operand('rel', 0)} {_CMP[type(op)]} {right.operand('rel', 1)}"
            if isinstance(t, Vector):
                if isinstance(op, ast.Eq):
                    text = f"all({text})"
                elif isinstance(op, ast.NotEq):
                    text = f"any({text})"
                else:
                    parts.append(E(text, Vector(t.size, BOOL), "rel"))
                    left = right
                    continue
            parts.append(E(text, BOOL, "rel" if not text.startswith(("all", "any")) else "atom"))
            left = right
        if len(parts) == 1:
            return parts[0]
        return E(" && ".join(p.operand("&&", 1) for p in parts), BOOL, "&&")

    def x_BoolOp(self, node: ast.BoolOp) -> E:
        op = "&&" if isinstance(node.op, ast.And) else "||"
        values = [self.value(v) for v in node.values]
        for v, n in zip(values, node.values):
            if self.module.resolved(v.type) != BOOL:
                self.fail(n, f"`{'and' if op == '&&' else 'or'}` on a non-bool value "
                          f"`{ast.unparse(n)}`", "compare explicitly (x != 0): WGSL's "
                          f"{op} takes bools and gives a bool")
        return E(f" {op} ".join(v.operand(op, i > 0) for i, v in enumerate(values)), BOOL, op)

    def x_Await(self, node: ast.Await) -> E:
        if not isinstance(node.value, ast.Call):
            self.fail(node, "an await of something other than a call", "await an asyncshader "
                      "operation or an async helper directly: `await ash.dpdx(v)`")
        return self.x_Call(node.value, awaited=True)

    # ------------------------------------------------------------------------------ calls
    def x_Call(self, node: ast.Call, awaited: bool = False) -> E:
        if isinstance(node.func, ast.Subscript) and resolve(node.func.value, self.scope) is \
                names.BITCAST:
            target = from_python(resolve(node.func.slice, self.scope))
            if target is None or len(node.args) != 1:
                self.fail(node, "this bitcast", "write bitcast[u32](x) with a WGSL type")
            return E(f"bitcast<{target.wgsl}>({self.value(node.args[0]).text})", target)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("eq", "ne") and \
                resolve(node.func, self.scope) is None and len(node.args) == 1:
            a, b = self.value(node.func.value), self.value(node.args[0])
            t = self.binary_type(node, self.module.resolved(a.type), self.module.resolved(b.type))
            op = "==" if node.func.attr == "eq" else "!="
            return E(f"{a.operand('rel', 0)} {op} {b.operand('rel', 1)}", with_scalar(t, BOOL),
                     "rel")
        loaded = structs.load(self, node) or structs.array_value(self, node)
        if loaded is not None:
            return loaded
        callee = self.expr(node.func).ref
        if callee is ptr:  # (&x of a local; an atomic's pointer is read by atomics.pointer)
            return function_pointer(self, node)
        folded = self.fold_call(node, callee)
        if folded is not None:
            return folded
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            self.fail(node, "*args or **kwargs in a call", "pass each argument by name")
        row = names.BUILTINS.get(id(callee)) if callee is not None else None
        if row is not None:
            return self.call_builtin(node, row)
        if callee is not None and id(callee) in names.FOREIGN:
            name, _ = names.FOREIGN[id(callee)]
            return self.call_unified(node, name, [self.value(a) for a in node.args])
        if callee is names.DISCARD:
            return E("discard", None, ref="discard")
        if isinstance(callee, _ScalarType) or (isinstance(callee, type) and issubclass(
                callee, Vec) and hasattr(callee, "size")):
            return self.construct(node, from_python(callee))
        if is_numpy_scalar(callee):  # np.uint32(x): WGSL's conversion (numpy_casts)
            return numpy_cast(self, node, callee)
        if isinstance(callee, _VecTemplate):  # vec3(...): the component type inferred
            return self.construct(node, Vector(callee.n, self.inferred_scalar(node)))
        if isinstance(from_python(callee), Matrix):
            return matrices.construct(self, node, from_python(callee))
        if isinstance(from_python(callee), Struct):  # (an @ash.struct class)
            return structs.construct(self, node, from_python(callee))
        if isinstance(callee, type) and dataclasses.is_dataclass(callee):
            return structs.dataclass_value(self, node, callee)
        if isinstance(callee, types.FunctionType) and self.module.is_user_function(callee):
            args = [self.expr(a) for a in node.args]
            if node.keywords:
                self.fail(node, "keyword arguments to a helper", "pass them by position")
            name, result = self.module.helper(callee, args, node, self)
            # (a binding or workgroup variable is not passed: the helper is specialised to it
            # and names it at module scope, as WGSL cannot pass them by value)
            text = f"{name}({', '.join(a.text for a in args if a.memory is None)})"
            return E(text, result, ref="helper-call")
        for a in node.args:  # (an argument WGSL cannot express is the first thing to fix)
            self.expr(a)
        what = getattr(callee, "__qualname__", None) or ast.unparse(node.func)
        module = getattr(callee, "__module__", None)
        if module and module not in ("builtins", "__main__") and not what.startswith(module):
            what = f"{module}.{what}"
        if callee in (float, int) and len(node.args) == 1 and not node.keywords:
            a = self.value(node.args[0])
            at = self.module.resolved(a.type)
            s = scalar_of(at)
            if isinstance(at, Scalar) and (callee is int) == (s.kind in "iu"):
                return a  # int(u32) and float(f32) keep their WGSL type
            if isinstance(at, Scalar):
                return E(f"{'i32' if callee is int else 'f32'}({a.text})",
                         names.I32 if callee is int else F32)
        if callee in (float, int, bool):
            self.fail(node, f"Python's {callee.__name__}()", "write the WGSL type: "
                      f"{ {float: 'f32', int: 'i32', bool: 'bool_'}[callee]}(x)")
        if callee is len:
            return consts.call_len(self, node)
        if callee is range:
            self.fail(node, "range() outside a for loop", "use it only as `for i in range(...)`")
        self.fail(node, f"a call to {what}, which WGSL cannot run",
                  "use an asyncshader built-in (ash.sqrt ...), or write the function as a plain "
                  "`def` in your own file: it becomes a WGSL function")

    def inferred_scalar(self, node: ast.Call) -> Scalar:
        """WGSL's ``vecN(...)``: the component type of its typed arguments, else f32 when an
        abstract float is among them, else i32 (bool for bools), as the CPU infers it."""
        scalars = [scalar_of(self.module.resolved(self.value(a).type)) for a in node.args]
        concrete = [s for s in scalars if s is not None and not s.abstract]
        if concrete:
            return concrete[0]
        if AFLOAT in scalars:
            return F32
        return BOOL if scalars and all(s == BOOL for s in scalars) else I32

    def construct(self, node: ast.Call, t: Any) -> E:
        if node.keywords:
            self.fail(node, "keyword arguments to a type constructor", "pass them by position")
        args = [self.value(a) for a in node.args]
        if not args:
            return self.constant(0, t) if isinstance(t, Scalar) else E(f"{t.wgsl}()", t)
        if isinstance(t, Vector):
            parts = []
            for a, n in zip(args, node.args):
                at = self.module.resolved(a.type)
                s = scalar_of(at)
                if s is None and not isinstance(at, Unknown):
                    self.fail(n, f"a {getattr(at, 'wgsl', at)} in a {t.wgsl}", "pass scalars "
                              "or vectors")
                if isinstance(at, Unknown) or s.abstract:
                    self.module.unify(at, with_scalar(at, t.scalar), n, self)
                parts.append(self.as_float(a, at, t.scalar).text)
            return E(f"{t.wgsl}({', '.join(parts)})", t)
        return self.convert(node, args[0], t)

    def convert(self, node: ast.Call, a: E, t: Any) -> E:
        """WGSL's conversion ``t(a)`` of one value (``a`` itself where it has type ``t``)."""
        at = self.module.resolved(a.type)
        if isinstance(at, Unknown) and not isinstance(at, Elements):  # (a conversion: any)
            self.module.unify(at, t, node, self)
        if at == t:
            return a
        return E(f"{t.wgsl}({a.text})", with_scalar(at, t) if isinstance(at, Vector) else t)

    def call_unified(self, node: ast.Call, wgsl: str, args: list[E], unify: bool = True,
                     rule: Any = None) -> E:
        types_ = [self.module.resolved(a.type) for a in args]
        if unify and len(types_) > 1:
            common = types_[0]
            for t, n in zip(types_[1:], node.args[1:]):
                common = self.binary_type(n, common, t)
            types_ = [common] * len(types_)
        rule = rule or names._same
        result = rule(types_) if types_ or rule is not names._same else None
        if unify and types_:
            args = [self.as_float(a, self.module.resolved(a.type), types_[0]) for a in args]
        texts = [a.text for a in args]
        if unify and types_ and isinstance(types_[0], Vector):
            texts = [f"{types_[0].wgsl}({a.text})" if isinstance(
                self.module.resolved(a.type), (Scalar, Unknown)) else a.text for a in args]
        return E(f"{wgsl}({', '.join(texts)})", result)

    def call_builtin(self, node: ast.Call, row: names.Builtin) -> E:
        if node.keywords:
            self.fail(node, f"keyword arguments to {row.name}", "pass them by position")
        if row.name.startswith("quad_"):
            creation.check_quads(self, node, row.name)
        if row.name.startswith(("dpd", "fwidth")) and self.module.stage == "compute":
            self.fail(node, f"{row.name} in a compute shader (asyncshader's quad layout for "
                      "compute; WGSL has derivatives in fragment shaders only)", "exchange "
                      "the neighbours' values with quad_swap_x / quad_swap_y and subtract")
        if row.statement:
            if self.module.stage != "compute":
                self.fail(node, f"{row.name} in a {self.module.stage} shader", "barriers exist "
                          "only in compute shaders (WGSL: 'compute' stage only)")
            return E(f"{row.wgsl}()", None, ref="statement")
        if row.name == "array_length" and isinstance(node.args[0], ast.Attribute):
            return E(f"arrayLength(&{self.expr(node.args[0]).text})", names.U32)
        if row.name == "array_length" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Call) and len(arg.args) > 1:  # ash.ptr(buf, i)
                self.fail(node, f"array_length of an element (`{ast.unparse(arg)}`)",
                          "pass the whole runtime-sized array: ash.array_length(buf)")
            mem = self.expr(arg.args[0] if isinstance(arg, ast.Call) else arg).memory
            t = self.module.resolved(mem.type) if mem is not None else None
            if isinstance(t, Array) and t.length is not None:
                return self.constant(t.length, names.U32)  # (arrayLength is for runtime arrays)
        if row.name.startswith("texture_"):
            return textures.call(self, node, row)
        if row.pointer_first:
            return atomics.call(self, node, row)
        if row.name in ("frexp", "modf"):
            return results.split(self, node, row)
        if row.name in ("transpose", "determinant"):
            return matrices.builtin(self, node, row)
        if row.name == "select":
            f, t, c = (self.value(a) for a in node.args)
            ty = self.module.unify(self.module.resolved(f.type), self.module.resolved(t.type),
                                   node, self)
            return E(f"select({f.text}, {t.text}, {c.text})", ty)
        if row.name in subgroups.LANE_OPERATIONS:
            return subgroups.call(self, node, row)
        args = [self.value(a) for a in node.args]
        if row.name.startswith(("dpd", "fwidth")) and args:
            creation.check_derivative(self, node, row.name, self.module.resolved(args[0].type))
        if row.name in subgroups.INTEGER_ONLY and args:
            subgroups.check_integer(self, node, row.name, self.module.resolved(args[0].type))
        return self.call_unified(node, row.wgsl, args, row.unify, row.rule)

    def unknown_type(self, node: ast.AST, t: Unknown, why: str, struct: bool = False,
                     indexed: bool = False) -> None:
        """Raises: ``t`` cannot be inferred (``why``: what the shader does with it)."""
        self.fail_because(node, f"{t.what} cannot be inferred ({why})", "annotate it "
                          f"({names.annotation_fix(t.what, struct, indexed)}), or pass the "
                          "arrays to to_wgsl as you would to the dispatch")

    def unsupported(self, node: ast.AST) -> None:
        what, fix = names.UNSUPPORTED.get(type(node).__name__, (
            f"the Python construct {type(node).__name__}", "write it with WGSL's statements "
            "and expressions (see docs/to-gpu.md, the supported subset)"))
        self.fail(node, what, fix)
