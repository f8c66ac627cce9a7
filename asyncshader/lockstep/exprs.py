"""Lockstep's expressions: a typed WGSL expression (the front-end's tree, every node with its
``.type``) as one Python expression over lanes (a mixin of :class:`~.compile.Compiler`).

References to memory (storage, uniform and workgroup variables) become :class:`Ref`: the
variable's words, the word address of the first word over lanes and the lanes whose access is
in bounds; a load gathers, a store scatters. Locals are Python variables holding values over
lanes (:mod:`.lanes`): a struct value is a dict of its members, a fixed-size array an array
whose first axis is the element."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..front.wgsl import syntax as ast
from ..front.wgsl.consteval import UNKNOWN, ConstError, fit
from ..front.wgsl.predeclared import Predeclared
from ..ir.layout import stride_of, struct_layout
from ..ir.types import (
    Array,
    Atomic,
    Matrix,
    Pointer,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
    scalar_of,
)
from ..ir.types import (
    Predeclared as PredeclaredStruct,
)
from .builtins import DTYPES, dtype_of
from .halves import access, halves, step, unit
from .pipelines import MISSING, sized

_ARITH = {"+": "+", "-": "-", "*": "*", "&": "&", "|": "|", "^": "^"}
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_VIEW = {"f32": "f", "i32": "i", "u32": "u", "bool": "u"}
_CONVERT = {"f32": "to_f32", "f16": "to_f16", "i32": "to_i32", "u32": "to_u32",
            "bool": "to_bool"}
#: the built-ins Lockstep runs as memory operations rather than values
_ATOMICS = {"atomicAdd": "add", "atomicSub": "sub", "atomicMax": "max", "atomicMin": "min",
            "atomicAnd": "and", "atomicOr": "or", "atomicXor": "xor",
            "atomicExchange": "exchange"}
_BARRIERS = ("workgroupBarrier", "storageBarrier", "textureBarrier")
#: a memory's size in address units of 4 and 2 bytes (:class:`~.lanes.Words`)
_SIZE = {4: "words", 2: "halves"}


def value_type(t: Any) -> Any:
    """The type of a value of an expression of type ``t`` (the load rule; a pointer's
    pointee, which pointer sugar reads through)."""
    return t.store if isinstance(t, (Reference, Pointer)) else t


@dataclass
class Ref:
    """Memory an expression names: variable ``mem`` (a :class:`~.lanes.Words` in the
    namespace), the word address ``at`` and the in-bounds lanes ``ok`` (Python code), the
    store type ``type``; ``idx`` (for the race detector) is code for a function giving the
    index steps that led here, (index over lanes, length) each."""

    mem: str
    at: str
    ok: str
    type: Any
    idx: str = "_noidx"


class Expressions:
    """Python code for WGSL expressions; mixed into the compiler."""

    # --- constants ------------------------------------------------------------------------

    def constant(self, value: Any, t: Any, span: Any) -> str:
        """A name in the namespace holding the const ``value`` of type ``t`` over lanes."""
        try:
            value = fit(value, t)
        except ConstError:
            raise self.refuse(span, f"this value as {t.wgsl} here") from None
        dtype = dtype_of(t)
        if dtype is None:
            raise self.refuse(span, f"a constant of type {t.wgsl}")
        if isinstance(t, Vector):
            made = np.array([dtype(c) for c in value], dtype).reshape(t.size, 1)
        else:
            made = dtype(value)
        name = f"k{len(self.namespace)}"
        self.namespace[name] = made
        return name

    def want_for(self, e: ast.Expr, scalar: Any) -> Any:
        """The concrete type ``e`` is converted to: its own, an abstract one taking the scalar
        ``scalar`` (the other operand's, the result's)."""
        t = value_type(e.type)
        s = scalar_of(t)
        if s is not None and s.abstract and scalar is not None and not scalar.abstract:
            return Vector(t.size, scalar) if isinstance(t, Vector) else scalar
        return concretize(t)

    def zero(self, t: Any, span: Any) -> str:
        """Code for the zero value of ``t``."""
        if isinstance(t, (Scalar, Vector)):
            size = t.size if isinstance(t, Vector) else 0
            return self.constant((0,) * size if size else 0, t, span)
        if isinstance(t, Struct) and not isinstance(t, PredeclaredStruct):
            return "{" + ", ".join(f"{n!r}: {self.zero(m, span)}" for n, m in t.fields) + "}"
        if isinstance(t, Array) and isinstance(t.length, int):
            return f"_l.array_of({self.zero(t.element, span)}, {t.length})"
        if isinstance(t, Matrix) and dtype_of(t) is not None:
            name = f"k{len(self.namespace)}"
            self.namespace[name] = np.zeros((t.cols, t.rows, 1), dtype_of(t))
            return name
        raise self.refuse(span, f"a value of type {getattr(t, 'wgsl', t)}")

    # --- expressions ----------------------------------------------------------------------

    def expr(self, e: ast.Expr, want: Any = None) -> str:
        """Code computing ``e``'s value over lanes (converted to ``want`` where ``e`` is
        abstract)."""
        t = value_type(e.type)
        if e.stage == "const" and isinstance(t, (Scalar, Vector)):
            value = self.checker.value(e)
            if value is not UNKNOWN:
                return self.constant(value, want or concretize(t), e.span)
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            raise self.refuse(e.span, f"the expression {self.text(e.span)!r}")
        return method(e, want)

    def e_Paren(self, e: ast.Paren, want: Any) -> str:
        return self.expr(e.inner, want)

    def e_Ident(self, e: ast.Ident, want: Any) -> str:
        target = e.target
        if isinstance(target, ast.VarDecl) and target.kind == "override":
            return self.override(target, e.span)
        if isinstance(e.type, (Reference, Pointer)) and self.is_memory(e):
            return self.load(self.ref(e), e.span)
        if id(target) in self.handles:
            self.reached.add(target.name)
            return f"h_{target.name}"
        if id(target) in self.locals:
            return self.locals[id(target)]
        if isinstance(target, ast.VarDecl) and target.kind == "const":
            return self.expr(target.init, want)  # (a value the evaluator leaves: an array's)
        raise self.refuse(e.span, f"the name '{e.name}' here")

    def override(self, decl: ast.VarDecl, span: Any) -> str:
        """The namespace name of an override's value (set per dispatch from the pipeline
        constants, by ``@id`` or name, else its initializer)."""
        t = concretize(self.typed.type_of(decl))
        if dtype_of(t) is None or not isinstance(t, Scalar):
            raise self.refuse(span, f"an override of type {t.wgsl}")
        default = None
        if decl.init is not None:
            default = self.checker.value(decl.init)
            if default is UNKNOWN and self.pipeline is not None:  # (from other overrides)
                default = self.pipeline.value_of(decl.init)
            if default is UNKNOWN or default is MISSING:
                raise self.refuse(decl.span, "an override initialized from other overrides")
        ids = [a for a in decl.attributes if a.name == "id"]
        key = str(int(self.checker.value(ids[0].args[0]))) if ids else decl.name
        self.overrides[decl.name] = (key, t, default)
        return f"o_{decl.name}"

    def e_Member(self, e: ast.Member, want: Any) -> str:
        if isinstance(e.type, Reference) and self.is_memory(e):
            return self.load(self.ref(e), e.span)
        base_t = value_type(e.base.type)
        base = self.expr(e.base)
        if isinstance(base_t, Vector):
            idx = ["xyzw".index(c) if c in "xyzw" else "rgba".index(c) for c in e.name]
            if len(idx) == 1:
                return f"{base}[{idx[0]}]"
            return f"_l.swizzle({base}, {idx!r})"
        if isinstance(base_t, Struct):
            return f"{base}[{e.name!r}]"
        raise self.refuse(e.span, f"the member access '.{e.name}'")

    def e_Index(self, e: ast.Index, want: Any) -> str:
        if isinstance(e.type, Reference) and self.is_memory(e):
            return self.load(self.ref(e), e.span)
        base_t = value_type(e.base.type)
        index = self.expr(e.index, self.want_for(e.index, scalar_of(
            value_type(e.index.type)).concrete()))
        if isinstance(base_t, Vector):
            return f"_l.component({self.expr(e.base)}, {index}, L)"
        if isinstance(base_t, (Matrix, Array)) and getattr(base_t, "length", 0) is not None:
            return f"_l.array_get({self.expr(e.base)}, {index}, L)"
        raise self.refuse(e.span, f"indexing {getattr(base_t, 'wgsl', base_t)}")

    def e_Unary(self, e: ast.Unary, want: Any) -> str:
        t = concretize(value_type(e.type))
        if e.op == "*" and self.is_memory(e.operand):
            return self.load(self.ref(e), e.span)
        if e.op == "*":
            return self.expr(e.operand)
        if e.op == "&":
            raise self.refuse(e.span, f"the pointer expression {self.text(e.span)!r}")
        operand = self.expr(e.operand, want=t)
        if e.op == "!":
            return f"np.logical_not({operand})"
        if e.op == "~":
            return f"np.invert({operand})"
        return f"np.negative({operand})"

    def e_Binary(self, e: ast.Binary, want: Any) -> str:
        left_t, right_t = value_type(e.left.type), value_type(e.right.type)
        if e.op in ("&&", "||"):
            left = self.expr(e.left)
            if not self.calls_in(e.right):
                return f"({left} {'&' if e.op == '&&' else '|'} {self.expr(e.right)})"
            outer, self.mask = self.mask, "_mm"
            right = self.expr(e.right)
            self.mask = outer
            kind = "both" if e.op == "&&" else "either"
            return f"_l.short_{kind}({left}, {self.mask}, lambda _mm: {right})"
        if e.op in _COMPARE:
            scalar = scalar_of(left_t) if not scalar_of(left_t).abstract else scalar_of(right_t)
            left = self.expr(e.left, self.want_for(e.left, scalar.concrete()))
            right = self.expr(e.right, self.want_for(e.right, scalar.concrete()))
            return f"({left} {e.op} {right})"
        result = concretize(value_type(e.type))
        if isinstance(left_t, Matrix) or isinstance(right_t, Matrix):
            return self.matrix_op(e, concretize(left_t), concretize(right_t))
        if not isinstance(result, (Scalar, Vector)):
            raise self.refuse(e.span, f"the operator '{e.op}' on {result.wgsl}")
        scalar = scalar_of(result)
        left = self.expr(e.left, self.want_for(e.left, scalar))
        right_scalar = Scalar("u32") if e.op in ("<<", ">>") else scalar
        right = self.expr(e.right, self.want_for(e.right, right_scalar))
        if e.op in _ARITH:
            return f"({left} {_ARITH[e.op]} {right})"
        if e.op == "/":
            return f"({left} / {right})" if scalar.kind == "f" else f"_l.div_int({left}, {right})"
        if e.op == "%":
            return f"np.fmod({left}, {right})" if scalar.kind == "f" else \
                f"_l.mod_int({left}, {right})"
        if e.op in ("<<", ">>"):
            return f"_l.{'shl' if e.op == '<<' else 'shr'}({left}, {right})"
        raise self.refuse(e.span, f"the operator '{e.op}'")

    def matrix_op(self, e: ast.Binary, left_t: Any, right_t: Any) -> str:
        """``+``, ``-`` and ``*`` with a matrix operand (:mod:`.matrices`)."""
        if dtype_of(left_t) is not np.float32 or dtype_of(right_t) is not np.float32:
            raise self.refuse(e.span, "a matrix of f16")
        left = self.expr(e.left, self.want_for(e.left, Scalar("f32")))
        right = self.expr(e.right, self.want_for(e.right, Scalar("f32")))
        if e.op in ("+", "-") and isinstance(left_t, Matrix) and isinstance(right_t, Matrix):
            return f"({left} {e.op} {right})"
        if e.op == "*":
            if isinstance(left_t, Matrix) and isinstance(right_t, Matrix):
                return f"_m.times_matrix({left}, {right})"
            if isinstance(left_t, Matrix) and isinstance(right_t, Vector):
                return f"_m.times_vector({left}, {right})"
            if isinstance(left_t, Vector) and isinstance(right_t, Matrix):
                return f"_m.vector_times({left}, {right})"
            return f"({left} * {right})"  # (a scalar times each component, in f32)
        raise self.refuse(e.span, f"the operator '{e.op}' on {left_t.wgsl} and {right_t.wgsl}")

    def calls_in(self, e: Any) -> bool:
        """Whether evaluating ``e`` may call a function of the module (side effects)."""
        if isinstance(e, ast.Call) and isinstance(e.callee.target, ast.Function):
            return True
        for name in getattr(e, "__slots__", ()):
            value = getattr(e, name, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.Expr) and self.calls_in(child):
                    return True
        return False

    def e_Call(self, e: ast.Call, want: Any) -> str:
        target = e.callee.target
        result = value_type(e.type)
        if isinstance(target, ast.Function):
            return self.call(e, target)
        if isinstance(target, (ast.Struct, ast.Alias)) or (
                isinstance(target, Predeclared) and target.kind in ("type", "type-generator")):
            return self.construct(e, concretize(result))
        if isinstance(target, Predeclared) and e.callee.template is None:
            return self.builtin(e, result)
        raise self.refuse(e.span, f"the call of {e.callee.name}")

    def call(self, e: ast.Call, target: ast.Function) -> str:
        """A call of a module function with the current mask; a pointer argument into a
        function or private variable is its value in and out (the call is then a statement
        before the one that holds it: its result a temporary)."""
        params, _ = self.typed.signatures[target.name]
        args, back = [], []
        for a, p in zip(e.args, params):
            if isinstance(p, Pointer):
                inner = a.inner if isinstance(a, ast.Paren) else a
                pointee = inner.operand if isinstance(inner, ast.Unary) and \
                    inner.op == "&" else None
                if p.space in ("storage", "uniform", "workgroup"):
                    ref = self.ref(pointee) if pointee is not None else self.ref(inner)
                    args += [ref.mem, ref.at, ref.ok] + ([ref.idx] if self.watching else [])
                    continue
                place = pointee if pointee is not None else ast.Unary(a.span, "*", inner)
                args.append(self.expr(pointee) if pointee is not None else self.expr(inner))
                back.append(place)
                continue
            args.append(self.expr(a, concretize(p)))
        self.called.add(target.name)
        code = f"f_{target.name}({', '.join([self.mask, *args])})"
        if not back:
            return code
        if self.mask == "_mm":
            raise self.refuse(e.span, "a call with a pointer argument on the right of && or ||")
        result = self.temp("r")
        self.emit(f"{result} = {code}")
        for k, place in enumerate(back, start=1):
            self.store(place, f"{result}[{k}]")
        return f"{result}[0]"

    def construct(self, e: ast.Call, t: Any) -> str:
        if isinstance(t, Struct):
            if not e.args:
                return self.zero(t, e.span)
            members = [f"{n!r}: {self.expr(a, concretize(ft))}"
                       for a, (n, ft) in zip(e.args, t.fields)]
            return "{" + ", ".join(members) + "}"
        if isinstance(t, Array) and isinstance(t.length, int):
            if not e.args:
                return self.zero(t, e.span)
            items = [self.expr(a, concretize(t.element)) for a in e.args]
            return f"_l.array_from([{', '.join(items)}], L)"
        if isinstance(t, Matrix) and dtype_of(t) is np.float32:
            if not e.args:
                return self.zero(t, e.span)
            if len(e.args) == 1:
                return self.expr(e.args[0], t)
            args = [self.expr(a, self.want_for(a, t.scalar)) for a in e.args]
            return f"_m.build([{', '.join(args)}], {t.cols}, {t.rows})"
        if not isinstance(t, (Scalar, Vector)) or dtype_of(t) is None:
            raise self.refuse(e.span, f"a constructor of {getattr(t, 'wgsl', t)}")
        if not e.args:
            return self.zero(t, e.span)
        scalar = scalar_of(t)
        if isinstance(t, Scalar):
            arg_t = scalar_of(value_type(e.args[0].type))
            value = self.expr(e.args[0], self.want_for(e.args[0], scalar))
            if arg_t.concrete() == scalar or arg_t.abstract:
                return value
            return f"_l.{_CONVERT[scalar.name]}({value})"
        if len(e.args) == 1 and isinstance(value_type(e.args[0].type), Vector):
            arg_s = scalar_of(value_type(e.args[0].type))
            value = self.expr(e.args[0], self.want_for(e.args[0], scalar))
            if arg_s.concrete() == scalar or arg_s.abstract:
                return value
            return f"_l.{_CONVERT[scalar.name]}({value})"
        args = [self.expr(a, self.want_for(a, scalar)) for a in e.args]
        return f"_l.vector(np.{DTYPES[scalar.name].__name__}, [{', '.join(args)}], {t.size})"

    # --- built-ins ------------------------------------------------------------------------

    def builtin(self, e: ast.Call, result: Any) -> str:
        name = e.callee.name
        if name.startswith("texture") and name not in _BARRIERS:
            return self.texture_call(e, name)
        if name in _BARRIERS:
            return f"_l.barrier({self.mask}, L, WG, {self.where(e.span)!r}, CHUNK)"
        if name == "workgroupUniformLoad":
            ref = self.pointer(e.args[0])
            return (f"_l.uniform_load({self.mask}, L, WG, {self.where(e.span)!r}, "
                    f"{self.load(ref, e.span)}, CHUNK)")
        if name == "arrayLength":
            ref = self.pointer(e.args[0])
            if not (isinstance(ref.type, Array) and ref.type.length is None):
                raise self.refuse(e.span, "arrayLength of this")
            stride, size = stride_of(ref.type.element) // unit(ref.type), _SIZE[unit(ref.type)]
            return f"np.uint32(max(({ref.mem}.{size} - {ref.at}) // {stride}, 0))"
        if name.startswith("atomic"):
            return self.atomic(e, name)
        if name.startswith("subgroup"):
            return self.subgroup(e, name, result)
        if name.startswith("quad"):
            kinds = {"quadSwapX": "x", "quadSwapY": "y", "quadSwapDiagonal": "diagonal",
                     "quadBroadcast": "broadcast"}
            if name not in kinds:
                raise self.refuse(e.span, f"the quad operation {name}")
            value = self.expr(e.args[0], concretize(e.params[0]))
            arg = self.expr(e.args[1], concretize(e.params[1])) if len(e.args) > 1 else "0"
            return (f"_s.quad({kinds[name]!r}, {value}, {arg}, {self.mask}, L, WG, "
                    f"{self.where(e.span)!r})")
        from .builtins import FAST, scalar_function  # (the table of vector forms)
        if name not in FAST and scalar_function(name) is None:
            raise self.refuse(e.span, f"the built-in function {name}")
        if result is not None and getattr(scalar_of(result), "abstract", False):
            result = concretize(result)  # (a const call the evaluator leaves: in f32/i32)
        if isinstance(result, (Struct, Array)) or result is None or dtype_of(result) is None:
            raise self.refuse(e.span, f"the built-in {name} with a result of type "
                              f"{getattr(result, 'wgsl', result)}")
        types, args = [], []
        for a, param in zip(e.args, e.params):  # (the checker's overload's parameter types)
            t = concretize(param)
            if dtype_of(t) is None:
                raise self.refuse(a.span, f"an argument of type {getattr(t, 'wgsl', t)}")
            types.append(t)
            args.append(self.expr(a, t))
        self.namespace[f"t{id(e)}"] = types
        self.namespace[f"r{id(e)}"] = concretize(result)
        return (f"_b.call({name!r}, [{', '.join(args)}], t{id(e)}, r{id(e)}, "
                f"{self.mask}, L)")

    def subgroup(self, e: ast.Call, name: str, result: Any) -> str:
        """A subgroup built-in over each subgroup's active lanes (:mod:`.subgroups`)."""
        kind = name[len("subgroup"):]
        ctx = f"{self.mask}, L, WG, SG"
        args = [self.expr(a, concretize(p)) for a, p in zip(e.args, e.params)]
        folds = {"Add": "add", "Mul": "mul", "Min": "min", "Max": "max", "And": "and",
                 "Or": "or", "Xor": "xor"}
        if kind in folds:
            return f"_s.reduce({folds[kind]!r}, {args[0]}, {ctx})"
        for prefix, inclusive in (("Inclusive", True), ("Exclusive", False)):
            if kind.startswith(prefix) and kind[len(prefix):] in ("Add", "Mul"):
                op = folds[kind[len(prefix):]]
                return f"_s.scan({op!r}, {args[0]}, {ctx}, {inclusive})"
        if kind in ("All", "Any"):
            return f"_s.all_any({kind.lower()!r}, {args[0]}, {ctx})"
        if kind == "Ballot":
            return f"_s.ballot({args[0]}, {ctx})"
        if kind == "Elect":
            return f"_s.elect({ctx})"
        if kind == "BroadcastFirst":
            return f"_s.broadcast_first({args[0]}, {ctx})"
        moves = {"Broadcast": "id", "Shuffle": "id", "ShuffleUp": "up", "ShuffleDown": "down",
                 "ShuffleXor": "xor"}
        if kind in moves:
            source = self.expr(e.args[1], self.want_for(e.args[1], Scalar("u32")))
            return (f"_s.shuffle({moves[kind]!r}, {args[0]}, {source}, {ctx}, "
                    f"{self.where(e.span)!r})")
        raise self.refuse(e.span, f"the built-in function {name}")

    def atomic(self, e: ast.Call, name: str) -> str:
        ref = self.pointer(e.args[0])
        atom = ref.type
        if not isinstance(atom, Atomic):
            raise self.refuse(e.span, f"{name} on {getattr(atom, 'wgsl', atom)}")
        view = f"{ref.mem}.{_VIEW[atom.scalar.name]}"
        values = [self.expr(a, self.want_for(a, atom.scalar)) for a in e.args[1:]]
        if name == "atomicLoad":
            return f"_l.load({view}, {ref.at}, {ref.ok})"
        if name == "atomicStore":
            return f"_l.store({view}, {ref.at}, {ref.ok}, {self.mask}, {values[0]}, L)"
        if name in _ATOMICS:
            return (f"_a.rmw({_ATOMICS[name]!r}, {view}, {ref.at}, {ref.ok}, {self.mask}, "
                    f"{values[0]}, L)")
        if name == "atomicCompareExchangeWeak":
            return (f"_a.compare_exchange({view}, {ref.at}, {ref.ok}, {self.mask}, "
                    f"{values[0]}, {values[1]}, L)")
        raise self.refuse(e.span, f"the built-in function {name}")

    # --- memory ---------------------------------------------------------------------------

    def is_memory(self, e: ast.Expr) -> bool:
        """Whether ``e`` names memory in a storage, uniform or workgroup variable (directly or
        through a pointer)."""
        while isinstance(e, (ast.Member, ast.Index, ast.Paren, ast.Unary)):
            e = e.base if isinstance(e, (ast.Member, ast.Index)) else \
                e.inner if isinstance(e, ast.Paren) else e.operand
        return isinstance(e, ast.Ident) and (
            (isinstance(e.type, Reference) and id(e.target) in self.memory)
            or id(e.target) in self.pointers)

    def pointer(self, e: ast.Expr) -> Ref:
        """The memory of a pointer argument ``&r`` (a built-in's)."""
        inner = e.inner if isinstance(e, ast.Paren) else e
        if isinstance(inner, ast.Unary) and inner.op == "&" and self.is_memory(inner.operand):
            return self.ref(inner.operand)
        if isinstance(inner, ast.Ident) and id(inner.target) in self.pointers:
            return self.pointers[id(inner.target)]
        raise self.refuse(e.span, f"the pointer {self.text(e.span)!r}")

    def ref(self, e: ast.Expr) -> Ref:
        if isinstance(e, ast.Paren):
            return self.ref(e.inner)
        if isinstance(e, ast.Unary) and e.op in ("*", "&"):
            return self.ref(e.operand)
        t = value_type(e.type)
        if isinstance(e, ast.Ident):
            if id(e.target) in self.pointers:
                return self.pointers[id(e.target)]
            mem, base = self.memory[id(e.target)]
            self.reached.add(e.target.name)
            return Ref(mem, f"({base} * 2)" if halves(t) else base, "True", t)
        base = self.ref(e.base)
        if isinstance(e, ast.Member):
            bt = base.type
            if isinstance(bt, Struct):
                member = next(m for m in struct_layout(bt).members if m.name == e.name)
                return Ref(base.mem, step(base.at, bt, t, member.offset), base.ok, t,
                           base.idx)
            if isinstance(bt, Vector) and len(e.name) == 1:
                k = "xyzw".index(e.name) if e.name in "xyzw" else "rgba".index(e.name)
                return Ref(base.mem, f"({base.at} + {k})", base.ok, t, base.idx)
            raise self.refuse(e.span, f"the access '.{e.name}' of memory")
        index = self.expr(e.index, self.want_for(e.index, scalar_of(
            value_type(e.index.type)).concrete()))
        bt = sized(self.pipeline, base.type)
        if isinstance(bt, Array):
            stride = stride_of(bt.element) // unit(bt)
            if bt.length is None:
                count = f"(({base.mem}.{_SIZE[unit(bt)]} - {base.at}) // {stride})"
            elif isinstance(bt.length, int):
                count = str(bt.length)
            else:
                raise self.refuse(e.span, "an override-sized array")
            i = f"_l.index64({index})"
            return Ref(base.mem, f"({base.at} + {i} * {stride})",
                       f"_l.within({base.ok}, {i}, {count})", t,
                       f"(lambda: {base.idx}() + (({i}, {count}),))")
        if isinstance(bt, Vector):
            i = f"_l.index64({index})"
            return Ref(base.mem, f"({base.at} + {i})", f"_l.within({base.ok}, {i}, {bt.size})",
                       t, f"(lambda: {base.idx}() + (({i}, {bt.size}),))")
        raise self.refuse(e.span, f"indexing {getattr(bt, 'wgsl', bt)} in memory")

    def load(self, ref: Ref, span: Any) -> str:
        t = ref.type.scalar if isinstance(ref.type, Atomic) else ref.type
        if isinstance(t, (Scalar, Vector)) and halves(t):
            return self.f16_access(ref, t, span)
        if isinstance(t, Scalar) and t.name in _VIEW:
            code = f"_l.load({ref.mem}.{_VIEW[t.name]}, {ref.at}, {ref.ok})"
            return f"({code} != 0)" if t.name == "bool" else code
        if isinstance(t, Vector) and t.scalar.name in _VIEW:
            code = (f"_l.load({ref.mem}.{_VIEW[t.scalar.name]}, "
                    f"_l.vector_at({ref.at}, {t.size}), {ref.ok})")
            return f"({code} != 0)" if t.scalar.name == "bool" else code
        parts = _parts(ref, t)
        if parts is None:
            raise self.refuse(span, f"a load of {getattr(t, 'wgsl', t)} from memory")
        if isinstance(t, Struct):
            if any(isinstance(p.type, Array) and p.type.length is None for _, p in parts):
                raise self.refuse(span, "a load of a struct with a runtime-sized array")
            return "{" + ", ".join(f"{key!r}: {self.load(p, span)}" for key, p in parts) + "}"
        return f"_l.array_from([{', '.join(self.load(p, span) for _, p in parts)}], L)"

    def store_memory(self, ref: Ref, value: str, span: Any) -> list[str]:
        """Statements storing ``value`` (code) into ``ref`` in the current mask's lanes."""
        t = ref.type.scalar if isinstance(ref.type, Atomic) else ref.type
        if isinstance(t, (Scalar, Vector)) and halves(t):
            return [self.f16_access(ref, t, span, value)]
        if isinstance(t, Scalar) and t.name in _VIEW:
            return [f"_l.store({ref.mem}.{_VIEW[t.name]}, {ref.at}, {ref.ok}, {self.mask}, "
                    f"{value}, L)"]
        if isinstance(t, Vector) and t.scalar.name in _VIEW:
            return [f"_l.store_vector({ref.mem}.{_VIEW[t.scalar.name]}, {ref.at}, {ref.ok}, "
                    f"{self.mask}, {value}, {t.size}, L)"]
        parts = _parts(ref, t)
        if parts is None:
            raise self.refuse(span, f"a store of {getattr(t, 'wgsl', t)} into memory")
        temp = self.temp()
        out = [f"{temp} = {value}"]
        for key, inner in parts:
            out += self.store_memory(inner, f"{temp}[{key!r}]", span)
        return out


    def f16_access(self, ref: Ref, t: Any, span: Any, value: str | None = None) -> str:
        """Code loading (``value`` None) or storing an f16 scalar or vector in memory
        (:mod:`.halves`): without the race detector only (it records words)."""
        if self.watching:
            raise self.refuse(span, "f16 in memory with the race detector (run it with "
                              "sanitize=\"off\")")
        return access(ref.mem, ref.at, ref.ok, t, self.mask, value)


def _parts(ref: Ref, t: Any) -> list[tuple[Any, Ref]] | None:
    """The parts of a composite ``t`` in memory at ``ref``, each with its key in the value
    (a column or element index, a member name) and its place: an f32 matrix's columns, a
    struct's members, a fixed-size array's elements; None for any other type."""
    if isinstance(t, Matrix) and dtype_of(t) is np.float32:
        keys, types = range(t.cols), [t.column] * t.cols
        offsets = [c * stride_of(t.column) for c in keys]
    elif isinstance(t, Struct):
        keys = [name for name, _ in t.fields]
        types = [mt for _, mt in t.fields]
        offsets = [m.offset for m in struct_layout(t).members]
    elif isinstance(t, Array) and isinstance(t.length, int):
        keys = range(t.length)
        types, offsets = [t.element] * t.length, [k * stride_of(t.element) for k in keys]
    else:
        return None
    return [(key, Ref(ref.mem, step(ref.at, t, part, offset), ref.ok, part, ref.idx))
            for key, offset, part in zip(keys, offsets, types)]
