"""The types of WGSL's expressions (§ Expressions): literals and their suffixes, names,
operators with WGSL's type rules (component-wise, a scalar with a vector, matrix products,
comparisons to bool vectors, shifts by u32 counts), member access and swizzles, indexing,
``&`` and ``*`` with the pointer sugar (``p.x``, ``p[i]``), and calls: user functions
against their signatures, value constructors with inference (``vec3(1.0, 2.0, 3.0)``,
``array(1, 2)``), built-in functions (:mod:`.builtin_types`). A mixin of the checker."""

from __future__ import annotations

from typing import Any

from ...ir.types import (
    AFLOAT,
    AINT,
    BOOL,
    F16,
    F32,
    I32,
    U32,
    Array,
    Matrix,
    Opaque,
    Pointer,
    Predeclared,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
)
from . import syntax as ast
from .builtin_types import NOT_CONST, BuiltinError, builtin_signature
from .consteval import UNKNOWN
from .conversions import common_type, converts, describe, leaf, loaded
from .predeclared import FUNCTION, GENERATOR, TYPE
from .predeclared import Predeclared as Name
from .texture_args import argument_roles, offset_error

_STAGES = ("const", "override", "runtime")
_VERBS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "take the "
          "remainder of", "&": "apply '&' to", "|": "apply '|' to", "^": "apply '^' to",
          "==": "compare", "!=": "compare", "<": "compare", "<=": "compare", ">": "compare",
          ">=": "compare"}
_SUFFIX = {"i": I32, "u": U32, "f": F32, "h": F16}
_SWIZZLE = ("xyzw", "rgba")
_EVALUATED = (ast.Literal, ast.Unary, ast.Binary, ast.Call, ast.Index)


def latest(*stages: str) -> str:
    """The later of expression evaluation phases (const < override < runtime)."""
    return max(stages, key=_STAGES.index, default="const")


def _shape(t: Any, s: Scalar) -> Any:
    return Vector(t.size, s) if isinstance(t, Vector) else s


class Expressions:
    """Types expressions; mixed into the checker."""

    def value_type(self, e: ast.Expr) -> Any:
        """The type of ``e`` after the load rule (a value, never a reference)."""
        t = loaded(self.expr(e))
        if t is None:
            raise self.error(e.span, "this function call returns no value")
        return t

    def expr(self, e: ast.Expr) -> Any:
        if e.stage:  # typed already (an expression shared by two uses)
            return e.type
        method = getattr(self, "x_" + type(e).__name__)
        e.type, e.stage = method(e)
        if e.stage == "const" and isinstance(e, _EVALUATED):
            self.value(e)  # WGSL evaluates const-expressions at shader creation: its errors
        return e.type

    # --- leaves ---------------------------------------------------------------------------

    def x_Literal(self, e: ast.Literal) -> tuple[Any, str]:
        if e.kind == "bool":
            return BOOL, "const"
        if e.suffix:
            if e.suffix == "h":
                self.needs_f16(e.span)
            return _SUFFIX[e.suffix], "const"
        return (AINT if e.kind == "int" else AFLOAT), "const"

    def x_Paren(self, e: ast.Paren) -> tuple[Any, str]:
        return self.expr(e.inner), e.inner.stage

    def x_Ident(self, e: ast.Ident) -> tuple[Any, str]:
        target = e.target
        if isinstance(target, ast.VarDecl):
            t = self.decl_type(target)
            if target.kind == "var":
                space, access = self.var_space(target)
                if self.current and space != "function":
                    self.uses.setdefault(self.current, {})[id(target)] = target
                return Reference(space, t, access), "runtime"
            return t, {"const": "const", "override": "override"}.get(target.kind, "runtime")
        if isinstance(target, ast.Param):
            return self.decl_type(target), "runtime"
        raise self.error(e.span, f"'{e.name}' is not a value")

    # --- operators ------------------------------------------------------------------------

    def x_Unary(self, e: ast.Unary) -> tuple[Any, str]:
        raw = self.expr(e.operand)
        stage = e.operand.stage
        if e.op == "&":
            if not isinstance(raw, Reference):
                raise self.error(e.span, f"cannot take the address of a value of type "
                                 f"{describe(raw)} (only of a variable, or a part of one)")
            if raw.space == "handle":
                raise self.error(e.span, "cannot take the address of a texture or sampler")
            inner = e.operand
            while isinstance(inner, ast.Paren):
                inner = inner.inner
            if isinstance(inner, (ast.Member, ast.Index)) and isinstance(
                    self.view(inner.base)[0], Vector):
                raise self.error(e.span, "cannot take the address of a vector component; "
                                 "take the vector's address and index it: (*p)[i]")
            return Pointer(raw.space, raw.store, raw.access), "runtime"
        if e.op == "*":
            t = loaded(raw)
            if not isinstance(t, Pointer):
                raise self.error(e.span, f"cannot dereference {describe(t)}: '*' takes a "
                                 "pointer")
            return Reference(t.space, t.store, t.access), "runtime"
        t = self.value_type(e.operand)
        s = leaf(t)
        ok = {"-": (isinstance(t, (Scalar, Vector, Matrix)) and s is not None
              and s.kind == "f") or (isinstance(t, (Scalar, Vector)) and s in (I32, AINT)),
              "!": isinstance(t, (Scalar, Vector)) and s == BOOL,
              "~": isinstance(t, (Scalar, Vector)) and s in (I32, U32, AINT)}[e.op]
        if not ok:
            hint = "; convert it with i32(...) first" if e.op == "-" and s == U32 else ""
            raise self.error(e.span, f"cannot apply '{e.op}' to {describe(t)}{hint}")
        return t, stage

    def x_Binary(self, e: ast.Binary) -> tuple[Any, str]:
        lt = self.value_type(e.left)
        if e.op in ("&&", "||") and e.left.stage == "const" and \
                self.value(e.left) is (e.op == "||"):
            self.unevaluated += 1  # the right side is never evaluated: only typed
            try:
                rt = self.value_type(e.right)
            finally:
                self.unevaluated -= 1
        else:
            rt = self.value_type(e.right)
        stage = latest(e.left.stage, e.right.stage)
        op = e.op
        if op in ("&&", "||"):
            if lt != BOOL or rt != BOOL:
                raise self.error(e.span, f"'{op}' takes two bool values, not {describe(lt)} "
                                 f"and {describe(rt)}")
            return BOOL, stage
        if op in ("<<", ">>"):
            return self.shift(e, lt, rt, stage), stage
        if isinstance(lt, Matrix) or isinstance(rt, Matrix):
            return self.matrix_op(e, lt, rt), stage
        if op in "+-*/%" and isinstance(lt, Vector) != isinstance(rt, Vector) and \
                isinstance(lt, (Scalar, Vector)) and isinstance(rt, (Scalar, Vector)):
            size = (lt if isinstance(lt, Vector) else rt).size
            t = common_type([_shape(Vector(size, BOOL), leaf(lt)),
                             _shape(Vector(size, BOOL), leaf(rt))])
        else:
            t = common_type([lt, rt]) if isinstance(lt, (Scalar, Vector)) else None
        if t is None or not self.op_accepts(op, leaf(t)):
            raise self.error(e.span, self.mismatch(op, lt, rt))
        if stage != "const":
            t = concretize(t)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return _shape(t, BOOL), stage
        return t, stage

    @staticmethod
    def op_accepts(op: str, s: Scalar | None) -> bool:
        if s is None:
            return False
        if op in ("==", "!="):
            return True
        if op in ("&", "|", "^"):
            return s.kind in "iub"
        return s.kind != "b"

    def mismatch(self, op: str, lt: Any, rt: Any) -> str:
        verb = _VERBS.get(op, f"apply '{op}' to")
        text = f"cannot {verb} {describe(lt)} and {describe(rt)}"
        ls, rs = leaf(lt), leaf(rt)
        if ls is not None and rs is not None and ls != rs and ls.kind != "b" and \
                rs.kind != "b" and not (ls.abstract or rs.abstract):
            if isinstance(lt, Vector) and isinstance(rt, Vector) and lt.size != rt.size:
                return text + ": the vectors differ in size"
            return text + f": convert one with {describe(_shape(rt, rs))}(...) or " \
                f"{describe(_shape(lt, ls))}(...)"
        if isinstance(lt, Vector) and isinstance(rt, Vector) and lt.size != rt.size:
            return text + ": the vectors differ in size"
        if op in "&|^" and (ls is not None and ls.kind == "f"):
            return text + f": '{op}' takes integers or bools"
        return text

    def shift(self, e: ast.Binary, lt: Any, rt: Any, stage: str) -> Any:
        s = leaf(lt)
        if not isinstance(lt, (Scalar, Vector)) or s not in (I32, U32, AINT):
            raise self.error(e.left.span, f"cannot shift {describe(lt)}: '{e.op}' shifts "
                             "integers")
        count = _shape(lt, U32)
        if not converts(rt, count):
            raise self.error(e.right.span, f"the shift count is {describe(rt)}; it must be "
                             f"{describe(count)}: convert it with {describe(count)}(...)")
        if s == AINT and e.right.stage != "const":
            lt = concretize(lt)
        counts = self.value(e.right) if e.right.stage == "const" else UNKNOWN
        if leaf(lt) != AINT and counts is not UNKNOWN:
            for n in counts if isinstance(counts, tuple) else (counts,):
                if n >= 32:
                    raise self.error(e.right.span, f"the shift count {n} is not less than "
                                     f"the bit width of {describe(leaf(lt))} (32)")
        return lt

    def matrix_op(self, e: ast.Binary, lt: Any, rt: Any) -> Any:
        op = e.op
        mismatch = self.mismatch(op, lt, rt)
        s = common_type([leaf(lt), leaf(rt)]) if leaf(lt) and leaf(rt) else None
        if s is None or s.kind != "f":
            raise self.error(e.span, mismatch)
        if op in ("+", "-"):
            if isinstance(lt, Matrix) and isinstance(rt, Matrix) and \
                    (lt.cols, lt.rows) == (rt.cols, rt.rows):
                return Matrix(lt.cols, lt.rows, s)
        elif op == "*":
            if isinstance(lt, Matrix) and isinstance(rt, Scalar):
                return Matrix(lt.cols, lt.rows, s)
            if isinstance(lt, Scalar) and isinstance(rt, Matrix):
                return Matrix(rt.cols, rt.rows, s)
            if isinstance(lt, Matrix) and isinstance(rt, Vector) and rt.size == lt.cols:
                return Vector(lt.rows, s)
            if isinstance(lt, Vector) and isinstance(rt, Matrix) and lt.size == rt.rows:
                return Vector(rt.cols, s)
            if isinstance(lt, Matrix) and isinstance(rt, Matrix) and rt.rows == lt.cols:
                return Matrix(rt.cols, lt.rows, s)
            raise self.error(e.span, mismatch + ": a matCxR times a vecC gives a vecR, a "
                             "vecR times a matCxR a vecC, a matCxR times a matKxC a matKxR")
        raise self.error(e.span, mismatch)

    # --- memory views: members, swizzles, indexing ----------------------------------------

    def view(self, base: ast.Expr) -> tuple[Any, Reference | None]:
        """The base's value type, and the reference it is (None for a value); a pointer
        reads through as its reference (the pointer sugar ``p.x``, ``p[i]``)."""
        t = self.expr(base)
        if isinstance(t, Pointer):
            return t.store, Reference(t.space, t.store, t.access)
        if isinstance(t, Reference):
            return t.store, t
        return t, None

    def x_Member(self, e: ast.Member) -> tuple[Any, str]:
        t, ref = self.view(e.base)
        stage = e.base.stage
        if isinstance(t, Struct):
            member = t.member(e.name)
            if member is None:
                names = ", ".join(n for n, _ in t.fields)
                raise self.error(e.name_span, f"{describe(t)} has no member '{e.name}' (its "
                                 f"members: {names})")
            return (Reference(ref.space, member, ref.access) if ref else member), stage
        if isinstance(t, Vector):
            indices = self.swizzle(e, t)
            if len(indices) == 1:
                return (Reference(ref.space, t.scalar, ref.access) if ref else t.scalar), \
                    stage
            return Vector(len(indices), t.scalar), stage
        raise self.error(e.name_span, f"{describe(t)} has no members ('.{e.name}')")

    def swizzle(self, e: ast.Member, t: Vector) -> list[int]:
        for letters in _SWIZZLE:
            if all(c in letters for c in e.name) and 1 <= len(e.name) <= 4:
                indices = [letters.index(c) for c in e.name]
                if max(indices) >= t.size:
                    raise self.error(e.name_span, f"'.{e.name}' reaches past the "
                                     f"{t.size} components of {describe(t)}")
                return indices
        raise self.error(e.name_span, f"'.{e.name}' is not a swizzle of {describe(t)}: use "
                         "up to four of x, y, z, w (or of r, g, b, a), not mixed")

    def x_Index(self, e: ast.Index) -> tuple[Any, str]:
        t, ref = self.view(e.base)
        it = self.value_type(e.index)
        if it not in (I32, U32, AINT):
            raise self.error(e.index.span, f"an index is i32 or u32, not {describe(it)}")
        stage = latest(e.base.stage, e.index.stage)
        if isinstance(t, Array):
            element, count = t.element, t.length
        elif isinstance(t, Vector):
            element, count = t.scalar, t.size
        elif isinstance(t, Matrix):
            element, count = t.column, t.cols
        elif isinstance(t, Opaque) and t.element is not None:  # binding_array<T, N>
            return t.element, "runtime"
        else:
            raise self.error(e.span, f"cannot index {describe(t)}")
        if e.index.stage == "const" and isinstance(count, int):
            i = self.value(e.index)
            if isinstance(i, int) and not 0 <= i < count:
                raise self.error(e.index.span, f"index {i} is out of bounds: {describe(t)} "
                                 f"has {count} elements (0..{count - 1})")
        if ref is not None:
            return Reference(ref.space, element, ref.access), stage
        if stage != "const":
            element = concretize(element)
        return element, stage

    # --- calls ----------------------------------------------------------------------------

    def x_Call(self, e: ast.Call) -> tuple[Any, str]:
        target = e.callee.target
        if isinstance(target, ast.Function):
            return self.user_call(e, target), "runtime"
        if isinstance(target, Name) and target.kind == FUNCTION:
            return self.builtin_call(e)
        if isinstance(target, (ast.Struct, ast.Alias)) or (
                isinstance(target, Name) and target.kind in (TYPE, GENERATOR)):
            return self.construct(e)
        raise self.error(e.callee.span, f"'{e.callee.name}' cannot be called")

    def user_call(self, e: ast.Call, function: ast.Function) -> Any:
        if any(a.name in ("compute", "fragment", "vertex") for a in function.attributes):
            raise self.error(e.callee.span, f"'{function.name}' is an entry point, which "
                             "cannot be called; move its body into a function both call")
        params, result = self.signature(function)
        if len(e.args) != len(params):
            raise self.error(e.span, f"{function.name} takes {len(params)} argument"
                             f"{'s' if len(params) != 1 else ''}, not {len(e.args)}")
        for arg, (param, want) in zip(e.args, zip(function.params, params)):
            self.expect(arg, want, f"argument '{param.name}' of {function.name}")
        return result

    def builtin_call(self, e: ast.Call) -> tuple[Any, str]:
        name = e.callee.name
        types = [self.value_type(a) for a in e.args]
        stage = latest(*(a.stage for a in e.args))
        e.params = [concretize(t) for t in types]  # (bitcast's, the buffer views': their own)
        if name == "bitcast":
            return self.bitcast(e, types), stage
        if name in ("bufferView", "bufferArrayView", "bufferLength"):
            return self.buffer_view(e, types), "runtime"
        try:
            e.params, result = builtin_signature(name, types, stage == "const")
        except BuiltinError as error:
            raise self.error(e.span, str(error)) from None
        if name.startswith(("textureSample", "textureGather")):
            self.texture_constants(e, types)
        return result, ("runtime" if name in NOT_CONST else stage)

    def texture_constants(self, e: ast.Call, types: list[Any]) -> None:
        """A texture offset is a const-expression in -8..7 per component; textureGather's
        component a const-expression in 0..3 (§ Texture Built-in Functions)."""
        first = 1 if isinstance(types[0], Scalar) else 0  # textureGather(component, t, ...)
        if first and (e.args[0].stage != "const" or self.value(e.args[0]) not in (
                0, 1, 2, 3, UNKNOWN)):
            raise self.error(e.args[0].span, "textureGather's component is a const-expression "
                             "in 0..3")
        found = argument_roles(e.callee.name, types[first], len(e.args) - first - 1) or []
        if "offset" not in found:
            return
        offset = e.args[first + 1 + found.index("offset")]
        if offset.stage != "const":
            raise self.error(offset.span, f"the offset of {e.callee.name} must be a "
                             "const-expression (its value is fixed when the shader is built)")
        value = self.value(offset)
        problem = None if value is UNKNOWN else offset_error(value)
        if problem:
            raise self.error(offset.span, problem)

    def buffer_view(self, e: ast.Call, types: list[Any]) -> Any:
        """``bufferView<T>(p, offset)``, ``bufferArrayView<T>(p, offset, count)`` and
        ``bufferLength(p)`` of a pointer to a ``buffer`` (the buffer_view extension)."""
        name = e.callee.name
        arity = {"bufferView": 2, "bufferArrayView": 3, "bufferLength": 1}[name]
        p = types[0] if types else None
        if len(types) != arity or not isinstance(p, Pointer) or not (
                isinstance(p.store, Opaque) and p.store.name == "buffer"):
            raise self.error(e.span, f"{name} takes a pointer to a buffer and "
                             f"{arity - 1} offset/count argument(s)")
        for arg, t in zip(e.args[1:], types[1:]):
            if concretize(t) not in (I32, U32):
                raise self.error(arg.span, f"{name}: an offset or count is an integer, not "
                                 f"{describe(t)}")
        if name == "bufferLength":
            return U32
        if not e.callee.template or len(e.callee.template) != 1:
            raise self.error(e.span, f"{name} needs the viewed type: {name}<T>(...)")
        return Pointer(p.space, self.type_arg(e.callee.template[0]), p.access)

    def bitcast(self, e: ast.Call, types: list[Any]) -> Any:
        if not e.callee.template or len(e.callee.template) != 1 or len(types) != 1:
            raise self.error(e.span, "bitcast takes a type and one argument: "
                             "bitcast<u32>(x)")
        target = self.type_arg(e.callee.template[0])
        src = concretize(types[0])

        def size(t: Any) -> int | None:
            s = leaf(t)
            if not isinstance(t, (Scalar, Vector)) or s is None or s.kind == "b":
                return None
            return (t.size if isinstance(t, Vector) else 1) * (2 if s == F16 else 4)
        if size(target) is None or size(target) != size(src):
            raise self.error(e.span, f"cannot bitcast {describe(types[0])} to "
                             f"{describe(target)}: both must be numeric scalars or vectors "
                             "of the same size in bytes")
        return target

    def construct(self, e: ast.Call) -> tuple[Any, str]:
        callee = e.callee
        types = [self.value_type(a) for a in e.args]
        stage = latest(*(a.stage for a in e.args))
        name = callee.name
        generic = isinstance(callee.target, Name) and callee.target.kind == GENERATOR and \
            callee.template is None
        t = self.infer(e, name, types) if generic else self.type_of(callee)
        self.check_construct(e, t, types)
        return (t if stage == "const" else concretize(t)), stage

    def infer(self, e: ast.Call, name: str, types: list[Any]) -> Any:
        """The type of ``vec3(...)``, ``mat2x2(...)``, ``array(...)`` from the arguments."""
        if name == "array":
            if not types:
                raise self.error(e.span, "array() needs its element type and count: "
                                 "array<f32, 4>()")
            element = common_type(types)
            if element is None:
                raise self.error(e.span, "the elements of array(...) have no common type: "
                                 f"{', '.join(describe(t) for t in types)}")
            return Array(element, len(types))
        scalars = [leaf(t) if isinstance(t, (Scalar, Vector, Matrix)) else None
                   for t in types]
        if None in scalars:
            raise self.error(e.span, f"{name}(...) is built from scalars and vectors, not "
                             f"{describe(types[scalars.index(None)])}")
        s = common_type(scalars) if scalars else AINT
        if s is None:
            raise self.error(e.span, f"the components of {name}(...) have no common type: "
                             f"{', '.join(describe(t) for t in types)}: convert them")
        if name.startswith("vec"):
            return Vector(int(name[3]), s)
        if name.startswith("mat"):
            if s == AINT:
                s = AFLOAT
            return Matrix(int(name[3]), int(name[5]), s)
        raise self.error(e.span, f"'{name}' needs a template list: {name}<...>(...)")

    def check_construct(self, e: ast.Call, t: Any, types: list[Any]) -> None:
        n = len(types)
        if n == 0:
            if isinstance(t, (Pointer, Opaque)) or (isinstance(t, Array) and not isinstance(
                    t.length, int)):
                raise self.error(e.span, f"{describe(t)} cannot be constructed")
            return
        if isinstance(t, Scalar):
            if n != 1 or not isinstance(types[0], Scalar):
                raise self.error(e.span, f"{describe(t)}(...) converts one scalar, not "
                                 f"({', '.join(describe(x) for x in types)})")
            return
        if isinstance(t, Vector):
            if n == 1 and isinstance(types[0], Vector) and types[0].size == t.size:
                return  # a conversion of each component
            if n == 1 and isinstance(types[0], Scalar):
                self.expect_arg(e.args[0], types[0], t.scalar, t)
                return
            count = 0
            for arg, at in zip(e.args, types):
                if isinstance(at, Scalar):
                    count += 1
                    self.expect_arg(arg, at, t.scalar, t)
                elif isinstance(at, Vector):
                    count += at.size
                    self.expect_arg(arg, at, Vector(at.size, t.scalar), t)
                else:
                    raise self.error(arg.span, f"{describe(t)} is built from scalars and "
                                     f"vectors, not {describe(at)}")
            if count != t.size:
                raise self.error(e.span, f"{describe(t)} has {t.size} components; these "
                                 f"arguments give {count}")
            return
        if isinstance(t, Matrix):
            if n == 1 and isinstance(types[0], Matrix) and \
                    (types[0].cols, types[0].rows) == (t.cols, t.rows):
                return
            if n == t.cols and all(isinstance(x, Vector) for x in types):
                for arg, at in zip(e.args, types):
                    self.expect_arg(arg, at, t.column, t)
                return
            if n == t.cols * t.rows:
                for arg, at in zip(e.args, types):
                    self.expect_arg(arg, at, t.scalar, t)
                return
            raise self.error(e.span, f"{describe(t)} is built from {t.cols} column vectors "
                             f"or {t.cols * t.rows} scalars, not {n} arguments")
        if isinstance(t, Array):
            if t.length != n:
                raise self.error(e.span, f"{describe(t)} has {t.length} elements; "
                                 f"{n} are given")
            for arg, at in zip(e.args, types):
                self.expect_arg(arg, at, t.element, t)
            return
        if isinstance(t, Struct) and not isinstance(t, Predeclared):
            if n != len(t.fields):
                raise self.error(e.span, f"struct {t.name} has {len(t.fields)} members; "
                                 f"{n} values are given")
            for arg, at, (member, mt) in zip(e.args, types, t.fields):
                self.expect_arg(arg, at, mt, t, member)
            return
        raise self.error(e.span, f"{describe(t)} cannot be constructed")

    def expect_arg(self, arg: ast.Expr, got: Any, want: Any, whole: Any,
                   member: str = "") -> None:
        if not converts(got, want):
            what = f"member '{member}'" if member else "a component"
            raise self.error(arg.span, f"{describe(whole)}(...): {what} is {describe(want)}, "
                             f"not {describe(got)}")
        self.check_fits(arg, got, want)
