"""WGSL's composite values in generated code (a mixin of :class:`~.codegen.Generator`):
structs, arrays and matrices in ``let``/``var``, parameters and return values, with WGSL's
value semantics; stores into parts of values and of memory; constant composites; struct
layouts (``@align``/``@size``, runtime-sized last members); private variables.

Generated code is not rewritten (docs/design.md, "Generated shaders"), so the generator emits
what :mod:`asyncshader.wgsl.value_rewrite` would make of a Python kernel, knowing from the
types what each name holds:

- a composite read from memory is loaded where WGSL loads it, at the ``let``, the ``var``,
  the argument, the return, the constructor or the assignment: ``__ash_value(p[i])``
  (:func:`.value_helpers.value_of`); locals always hold values, never references;
- a store into a part of a ``var`` (``v.x = e``, ``s.a[i].y = e``) makes a new value:
  ``v = __ash_store_part(v, "x", e)``; a store into a part of memory (``p[i].pos = e``,
  ``buf[i].x = e``, ``s.a[i] = e``) stores through the reference;
- a ``var<private>`` is an attribute of a namespace made by each invocation's entry point
  and handed to every function of the module as its first parameter, ``__p``.
"""

from __future__ import annotations

import ast as py
import keyword
import re
from dataclasses import replace
from typing import Any

from ...ir.types import (
    Array,
    Matrix,
    Pointer,
    Predeclared,
    Reference,
    Scalar,
    Struct,
    Vector,
    concretize,
    scalar_of,
)
from . import syntax as ast
from .consteval import fit, zero

_COMPONENT = {c: i for names in ("xyzw", "rgba") for i, c in enumerate(names)}
_RESULTS = {"frexp": "FrexpResult", "modf": "ModfResult"}  # (by __frexp_result_... names)
_LAYOUT = re.compile(r"@(align|size)\((\d+)\)")
_MATRIX_SUFFIX = {"f32": "f", "f16": "h"}
#: the address spaces whose names hold values in generated code (the others hold memory)
VALUE_SPACES = ("function", "private")
#: the name of the private variables' namespace in generated functions
PRIVATE = "__p"


def member_attribute(t: Struct, name: str) -> str:
    """The Python attribute (and dtype field) holding member ``name`` of the struct ``t``:
    its WGSL name, with ``_`` appended while that is a Python keyword (a dataclass has no
    field ``in``) or another member's name."""
    taken = {n for n, _ in t.fields}
    attr = name
    while keyword.iskeyword(attr) or (attr != name and attr in taken):
        attr += "_"
    return attr


def attribute(e: ast.Member) -> str:
    """The Python attribute a member access reads: a struct member's
    (:func:`member_attribute`), or a vector's component letters."""
    t = e.base.type
    t = t.store if isinstance(t, (Reference, Pointer)) else t
    return member_attribute(t, e.name) if isinstance(t, Struct) else e.name


def is_value_type(t: Any) -> bool:
    """Whether a ``let``, ``var``, parameter or constant of type ``t`` is generated: a
    constructible type (runtime-sized arrays and atomics live in memory only)."""
    if isinstance(t, (Scalar, Vector, Matrix)):
        return True
    if isinstance(t, Array):
        return isinstance(t.length, int) and is_value_type(t.element)
    if isinstance(t, Struct):  # (a built-in's result struct too: frexp, modf)
        return all(is_value_type(m) for _, m in t.fields)
    return False


def holds_struct(t: Any) -> bool:
    """Whether ``t`` is a struct or an array of them."""
    while isinstance(t, Array):
        t = t.element
    return isinstance(t, Struct)


def _chain(target: ast.Expr) -> tuple[ast.Expr, list[ast.Expr]]:
    """The root of a store target and the member and index accesses from it, in order."""
    path: list[ast.Expr] = []
    node = target
    while True:
        if isinstance(node, ast.Paren):
            node = node.inner
        elif isinstance(node, (ast.Member, ast.Index)):
            path.append(node)
            node = node.base
        else:
            return node, path[::-1]


def _has_call(node: Any) -> bool:
    """Whether the expression ``node`` calls something."""
    if isinstance(node, ast.Call):
        return True
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        if any(isinstance(c, ast.Expr) and _has_call(c)
               for c in (value if isinstance(value, list) else [value])):
            return True
    return False


class Values:
    """Composite values, layouts and private variables; mixed into the generator."""

    privates: dict[str, ast.VarDecl]

    # --- types ----------------------------------------------------------------------------

    def composite_type_expr(self, t: Any, span: Any) -> py.expr:
        """The runtime type of a matrix or a runtime-sized array (a struct's last member)."""
        if isinstance(t, Matrix) and t.scalar.name in _MATRIX_SUFFIX:
            return self.ash_attr(f"mat{t.cols}x{t.rows}{_MATRIX_SUFFIX[t.scalar.name]}")
        if isinstance(t, Array) and t.length is None:
            return self.ash_call("runtime_array", [self.type_expr(t.element, span)])
        raise self.refuse(span, f"the type {getattr(t, 'wgsl', t)}")

    def member_type_expr(self, t: Any, attrs: str, span: Any) -> py.expr:
        """A struct member's runtime type with its ``@align(n)``/``@size(n)`` (``attrs`` as
        the IR's :class:`~asyncshader.ir.types.Struct` holds them)."""
        node = self.type_expr(t, span)
        for name, n in _LAYOUT.findall(attrs):
            node = self.ash_call(name, [py.Constant(int(n)), node])
        return node

    def runtime_type(self, t: Any, span: Any) -> Any:
        """The runtime type object of ``t`` (made at load)."""
        tree = py.fix_missing_locations(py.Expression(self.type_expr(t, span)))
        return eval(compile(tree, "<wgsl type>", "eval"), {"ash": self.ash})

    def type_name(self, t: Any, span: Any) -> py.expr:
        """A name in the namespace holding the runtime type of ``t`` (an array type is made
        by a call: once, at load)."""
        if not isinstance(t, Array):
            return self.type_expr(t, span)
        if t not in self.type_names:
            name = self.type_names[t] = f"__t{len(self.type_names)}"
            if holds_struct(t):  # (the struct's class exists once the module runs)
                self.late.append(self.place(py.Assign([py.Name(name, py.Store())],
                                                      self.type_expr(t, span)), span))
            else:
                self.constants[name] = self.runtime_type(t, span)
        return py.Name(self.type_names[t], py.Load())

    def composite_value(self, v: Any, t: Any, span: Any) -> Any:
        """The runtime value of the const value ``v`` (the evaluator's tuples) of the matrix
        or array type ``t`` (a struct's is :meth:`late_constant`'s)."""
        if isinstance(t, Matrix):
            column = Vector(t.rows, t.scalar)
            return self.runtime_type(t, span)(*[self.make_value(c, column, span) for c in v])
        if isinstance(t, Array) and isinstance(t.length, int):
            return self.runtime_type(t, span)(*[self.make_value(fit(x, t.element), t.element,
                                                                span) for x in v])
        raise self.refuse(span, f"a constant of type {getattr(t, 'wgsl', t)}")

    def late_constant(self, v: Any, t: Any, span: Any) -> py.expr:
        """A name in the namespace for the const value ``v`` of a type holding a struct: the
        struct's class exists once the module runs, so the value is made by a statement at
        the end of the module (:attr:`late`), once."""
        key = (t, repr(v))
        if key not in self.late_names:
            name = self.late_names[key] = f"__k_{len(self.late_names)}"
            self.late.append(self.place(py.Assign([py.Name(name, py.Store())],
                                                  self.value_expr(v, t, span)), span))
        return py.Name(self.late_names[key], py.Load())

    def value_expr(self, v: Any, t: Any, span: Any) -> py.expr:
        """A Python expression making the const value ``v`` of type ``t``."""
        if isinstance(t, (Scalar, Vector, Matrix)) or (
                isinstance(t, Array) and not holds_struct(t)):
            return self.constant(v, t, span)
        if isinstance(t, Array) and isinstance(t.length, int):
            return py.Call(self.type_name(t, span),
                           [self.value_expr(x, t.element, span) for x in v], [])
        if isinstance(t, Struct):
            cls = self.type_expr(t, span) if not isinstance(t, Predeclared) else None
            kind = t.name.split("_")[2] if cls is None else ""  # (__frexp_result_f32: frexp)
            if kind in _RESULTS:  # (frexp's and modf's results: their runtime classes)
                cls = self.ash_attr(_RESULTS[kind])
            if cls is not None:
                return py.Call(cls, [self.value_expr(x, ft, span)
                                     for x, (_, ft) in zip(v, t.fields)], [])
        raise self.refuse(span, f"a constant of type {getattr(t, 'wgsl', t)}")

    def module_constant(self, decl: ast.VarDecl, t: Any, v: Any) -> None:
        """A module-scope ``const`` of a composite type, reachable as ``module["NAME"]``: its
        runtime value under its own name (made as the module ends if it holds a struct)."""
        if not holds_struct(t):
            self.constants[decl.name] = self.make_value(fit(v, t), t, decl.span)
            return
        self.late.append(self.place(py.Assign([py.Name(self.py_global(decl.name), py.Store())],
                                              self.late_constant(fit(v, t), t, decl.span)),
                                    decl.span))

    # --- values ---------------------------------------------------------------------------

    def value(self, e: ast.Expr, want: Any = None) -> py.expr:
        """``e``'s value where WGSL applies the load rule: a struct or an array read from
        memory is loaded whole here (later stores to that memory do not change it)."""
        node = self.expr(e, want)
        t = e.type
        if isinstance(t, Reference) and t.space not in VALUE_SPACES and \
                isinstance(t.store, (Struct, Array)):
            element = t.store
            while isinstance(element, Array):
                element = element.element
            matrix = [py.Constant(None), self.type_expr(element, e.span)] \
                if isinstance(element, Matrix) else []  # (an array of matrices: their class)
            node = self.place(py.Call(py.Name("__ash_value", py.Load()), [node, *matrix], []),
                              e.span)
        return node

    def loaded(self, e: ast.Expr, node: py.expr) -> py.expr:
        """``node`` (``e``'s Python expression) as a value where ``e`` names a matrix in
        memory or one of its columns (numpy views there): the matrix or vector value, made
        here."""
        t = e.type
        if not isinstance(t, Reference) or t.space in VALUE_SPACES:
            return node
        inner = e.inner if isinstance(e, ast.Paren) else e
        if isinstance(t.store, Matrix) or (  # (a column of a matrix in memory: a numpy row)
                isinstance(inner, ast.Index) and isinstance(inner.base.type, Reference) and
                isinstance(inner.base.type.store, Matrix)) or (  # (a vector of a storage
                # array of arrays: a numpy row too)
                isinstance(t.store, Vector) and t.space == "storage" and
                isinstance(inner, ast.Index) and isinstance(inner.base, ast.Index)):
            return self.place(py.Call(self.type_expr(t.store, e.span), [node], []), e.span)
        return node

    def reference(self, e: ast.Expr) -> py.expr:
        """The Python expression of the memory (or local) that ``e`` names, not loaded: the
        base of an index or of a store."""
        return self.place(self.expr_node(e, None), e.span)

    def whole_memory(self, e: ast.Ident) -> bool:
        """Whether ``e`` names a struct, array or matrix in memory (a store of all of it is
        a store of each member or element)."""
        return isinstance(e.type, Reference) and e.type.space not in VALUE_SPACES and \
            isinstance(e.type.store, (Struct, Array, Matrix))

    def index_helper(self, base: ast.Expr) -> str:
        """What indexing ``base`` calls: ``element`` for an array value (a list), ``load``
        (robust access) for memory, vectors and matrices; ``""`` (a plain subscript) for an
        array of structs in memory and an array member of a struct in memory, whose
        references check their indices themselves (robust access, reported to the race
        detector)."""
        t = base.type
        if isinstance(t, Reference):
            if t.space in VALUE_SPACES:
                return "element" if isinstance(t.store, Array) else "load"
            inner = base.inner if isinstance(base, ast.Paren) else base
            if isinstance(t.store, Array) and (isinstance(t.store.element, Struct) or
                                               isinstance(inner, ast.Member)):
                return ""
            return "load"
        return "element" if isinstance(t, Array) else "load"

    def index_value(self, index: ast.Expr) -> py.expr:
        return self.expr(index, self.want_for(index, scalar_of(
            index.type.store if isinstance(index.type, Reference) else index.type).concrete()))

    # --- vector operators -----------------------------------------------------------------

    def vector_compare(self, e: ast.Binary, left_t: Vector, right_t: Vector) -> py.expr:
        """A component-wise comparison of vectors (a bool vector): ``<`` ``<=`` ``>``
        ``>=`` are Python's on the vector classes, ``==``/``!=`` their ``eq``/``ne`` (Python's
        ``==`` on vectors says whether they are the same value)."""
        scalar = (left_t if not left_t.scalar.abstract else right_t).scalar.concrete()
        left = self.expr(e.left, self.want_for(e.left, scalar))
        right = self.expr(e.right, self.want_for(e.right, scalar))
        if e.op in ("==", "!="):
            method = py.Attribute(left, "eq" if e.op == "==" else "ne", py.Load())
            return py.Call(method, [right], [])
        ops = {"<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE}
        return py.Compare(left, [ops[e.op]()], [right])

    def vector_not(self, e: ast.Unary, t: Vector) -> py.expr:
        """``!v`` on a bool vector: ``v.eq(vecNb(false))``."""
        return py.Call(py.Attribute(self.expr(e.operand, t), "eq", py.Load()),
                       [self.constant((False,) * t.size, t, e.span)], [])

    # --- stores ---------------------------------------------------------------------------

    def store_part(self, target: ast.Expr, value: py.expr, once: bool) -> py.stmt:
        """A store into a part of a ``var`` (a new value) or of memory (through it)."""
        root, path = _chain(target)
        space = root.type.space if isinstance(root, ast.Ident) and \
            isinstance(root.type, Reference) else None
        if not path or space is None or (not once and any(
                isinstance(p, ast.Index) and _has_call(p.index) for p in path)):
            raise self.refuse(target.span, f"a store into {self.text(target.span)!r}")
        if space in VALUE_SPACES:
            keys = [py.Constant(attribute(p)) if isinstance(p, ast.Member) else
                    self.index_value(p.index) for p in path]
            load = self.expr(root)
            store = self.expr(root)
            store.ctx = py.Store()
            return py.Assign([store], py.Call(py.Name("__ash_store_part", py.Load()),
                                              [load, *keys, value], []))
        last = path[-1]
        base = self.reference(last.base)
        if isinstance(last, ast.Index):
            return py.Expr(self.robust("store", [base, self.index_value(last.index), value]))
        if isinstance(last.base.type.store, Vector):  # (one component: WGSL has no swizzle
            # stores; a vector in memory is a bound vector or a numpy row of a matrix)
            component = py.Constant(_COMPONENT[last.name])
            return py.Expr(self.robust("store", [base, component, value]))
        if any(isinstance(n, py.Await) for n in py.walk(value)):
            # (the target before the value, as WGSL evaluates them)
            return py.Expr(py.Call(py.Name("__ash_setattr", py.Load()),
                                   [base, py.Constant(attribute(last)), value], []))
        return py.Assign([py.Attribute(base, attribute(last), py.Store())], value)

    def hoist_indices(self, target: ast.Expr) -> tuple[list[py.stmt], ast.Expr]:
        """For ``e1 op= e2`` and ``e1++``, which evaluate ``e1`` once: each index of ``e1``
        that calls a function computed first into a local of its own (in order), and
        ``e1`` with those locals for indices (read and stored through them)."""
        if isinstance(target, ast.Paren):
            return self.hoist_indices(target.inner)
        if not isinstance(target, (ast.Member, ast.Index)):
            return [], target
        first, base = self.hoist_indices(target.base)
        if isinstance(target, ast.Member):
            return first, replace(target, base=base)
        index = target.index
        if _has_call(index):
            decl = ast.VarDecl(index.span, "let", "__index", index.span, None, None)
            name = self.local_name(decl)
            first.append(self.place(py.Assign([py.Name(name, py.Store())],
                                              self.index_value(index)), index.span))
            t = index.type.store if isinstance(index.type, Reference) else index.type
            index = ast.Ident(index.span, "__index", target=decl, type=concretize(t),
                              stage="runtime")
            self.synthetic += [decl, index]  # (the checker's memos are by id: keep them)
        return first, replace(target, base=base, index=index)

    # --- private variables ----------------------------------------------------------------

    def private_load(self, e: ast.Ident) -> py.expr:
        return py.Attribute(py.Name(PRIVATE, py.Load()), self.py_global(e.name), py.Load())

    def private_prologue(self, span: Any) -> list[py.stmt]:
        """``__p = __ash_namespace(x=<init>, ...)``: one invocation's private variables,
        each with its initializer or zero value (made at load: a const-expression)."""
        keywords = []
        for name, decl in self.privates.items():
            t = self.typed.type_of(decl)
            if not is_value_type(t):
                raise self.refuse(decl.span, f"a var<private> of type {t.wgsl}")
            if decl.init is not None:
                if decl.init.stage != "const":
                    raise self.refuse(decl.init.span, "a private variable's initializer "
                                      "that is not a const-expression")
                value = self.expr(decl.init, t)
            else:
                value = self.constant(zero(t), t, decl.span)
            keywords.append(py.keyword(self.py_global(name), value))
        call = py.Call(py.Name("__ash_namespace", py.Load()), [], keywords)
        return [self.place(py.Assign([py.Name(PRIVATE, py.Store())], call), span)]

    def private_args(self) -> list[py.expr]:
        """The private variables' namespace, passed first to each function of the module."""
        return [py.Name(PRIVATE, py.Load())] if self.privates else []
