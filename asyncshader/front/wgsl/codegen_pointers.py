"""Pointers in the WGSL code generator (a mixin of :class:`~.codegen.Generator`): ``&r``,
``*p``, the pointer sugar (``p.x``, ``p[i]``), ``let p = &a[i].m;``, ``ptr<AS, T>``
parameters in every address space, and pointers given to atomics, ``workgroupUniformLoad``
and ``arrayLength``.

A pointer is a :class:`~asyncshader.wgsl.places.Place` at run time: the memory it starts at
and its path of members and indices, the indices evaluated where the pointer is made. A
reference reached through a pointer loads with ``p.load(keys)`` and stores with
``p.store_at(keys, v)`` (``keys``: the members and indices from what ``p`` points at, as in
``p[i].m``), which access the memory as the same access written directly does (so the race
detector reports it at the WGSL line). A function-scope ``var`` whose address is
taken lives in a cell (``x = __ash_cell(init)``, read and written as ``x.value``) for its
whole life, as :mod:`asyncshader.wgsl.function_ptrs` keeps a Python shader's.
"""

from __future__ import annotations

import ast as py
import dataclasses
from functools import partial
from typing import Any

from ...ir.types import Atomic, Pointer, Reference, Scalar, Vector
from ...wgsl import places
from . import syntax as ast
from .codegen_values import attribute

#: the runtime names generated pointer code calls (partials: the kernel scan looks for
#: shader memory in the globals of the functions a kernel reaches, and these hold none)
RUNTIME = {"__ash_cell": partial(places.function_var), "__ash_place": places.Place,
           "__ash_value_place": places.ValuePlace, "__ash_sub": partial(places.sub)}


def _strip(e: ast.Expr) -> ast.Expr:
    while isinstance(e, ast.Paren):
        e = e.inner
    return e


def _has_member(e: ast.Expr) -> bool:
    """Whether the reference ``e`` names a struct member or a part of one."""
    while isinstance(e, (ast.Member, ast.Index)):
        if isinstance(e, ast.Member) and not isinstance(e.base.type.store, Vector):
            return True
        e = _strip(e.base)
    return False


def _tuple(items: list[py.expr]) -> py.expr:
    return py.Tuple(list(items), py.Load())


def _one_value(t: Any) -> bool:
    """Whether ``t`` is a storage buffer of one scalar, vector or atomic (an array of one,
    whose element 0 it is)."""
    return isinstance(t, Reference) and t.space == "storage" and \
        isinstance(t.store, (Scalar, Vector, Atomic))


def _nodes(node: Any):
    """Every syntax node under ``node`` (statements, expressions, declarations; not the
    declarations names refer to)."""
    yield node
    for f in dataclasses.fields(node):
        if f.name == "target":
            continue
        value = getattr(node, f.name, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, (ast.Stmt, ast.Expr, ast.Case, ast.VarDecl)):
                yield from _nodes(child)


class Pointers:
    """Python expressions for WGSL's pointers; mixed into the generator."""

    cells: frozenset[int] | set[int] = frozenset()  # (address-taken locals, by id(decl))

    # --- function variables in cells ------------------------------------------------------

    def find_cells(self, fn: ast.Function) -> None:
        """Marks the function-scope ``var``s of ``fn`` whose address ``&`` takes."""
        self.cells = set()
        for node in _nodes(fn.body):
            if isinstance(node, ast.Unary) and node.op == "&":
                root = _strip(node.operand)
                while isinstance(root, (ast.Member, ast.Index)) and \
                        isinstance(root.base.type, Reference):
                    root = _strip(root.base)
                if isinstance(root, ast.Ident) and isinstance(root.target, ast.VarDecl) and \
                        not self.is_global(root.target):
                    self.cells.add(id(root.target))
        for rt, value in RUNTIME.items():
            self.constants.setdefault(rt, value)

    def cell_of(self, decl: ast.VarDecl, value: py.expr) -> py.expr:
        """A local's initial value, in a cell when its address is taken."""
        if id(decl) in self.cells:
            return py.Call(py.Name("__ash_cell", py.Load()), [value], [])
        return value

    def e_Ident(self, e: ast.Ident, want: Any) -> py.expr:
        if id(e.target) in self.cells and id(e.target) in self.names:
            return py.Attribute(py.Name(self.names[id(e.target)], py.Load()), "value",
                                py.Load())
        return super().e_Ident(e, want)

    # --- references through pointers -----------------------------------------------------

    def through_pointer(self, e: ast.Expr) -> bool:
        """Whether the reference ``e`` is reached through a pointer (``*p``, ``p.x``,
        ``(*p)[i].m``): its memory is known only at run time."""
        e = _strip(e)
        if not isinstance(e.type, Reference):
            return False
        while isinstance(e, (ast.Member, ast.Index)):
            if isinstance(e.base.type, Pointer):
                return True
            if not isinstance(e.base.type, Reference):
                return False
            e = _strip(e.base)
        return isinstance(e, ast.Unary) and e.op == "*"

    def pointer(self, e: ast.Expr) -> py.expr:
        """The :class:`~asyncshader.wgsl.places.Place` of the reference ``e`` (WGSL ``&e``)."""
        pointer, keys = self.pointer_parts(e)
        if not keys:
            return pointer
        return py.Call(py.Name("__ash_sub", py.Load()), [pointer, _tuple(keys)], [])

    def pointer_parts(self, e: ast.Expr) -> tuple[py.expr, list[py.expr]]:
        """A pointer and the keys (members, indices) from what it points at to the reference
        ``e``: the pointer ``e`` is reached through, or a new one to the variable at its
        root (with no keys left)."""
        keys: list[py.expr] = []
        e = _strip(e)
        while isinstance(e, (ast.Member, ast.Index)) and isinstance(e.base.type, Reference):
            keys.append(self.path_key(e))
            e = _strip(e.base)
        if isinstance(e, (ast.Member, ast.Index)) and isinstance(e.base.type, Pointer):
            keys.append(self.path_key(e))
            return self.expr(e.base), keys[::-1]
        if isinstance(e, ast.Unary) and e.op == "*":
            return self.expr(e.operand), keys[::-1]
        if isinstance(e, ast.Ident):
            kind, root, start = self.place_root(e)
            place = py.Call(py.Name(kind, py.Load()), [root, _tuple(start + keys[::-1])], [])
            return self.place(place, e.span), []
        raise self.refuse(e.span, f"the pointer to {self.text(e.span)!r}")

    def path_key(self, e: ast.Member | ast.Index) -> py.expr:
        """A member's name, or an index (a vector's component is its index: a vector of
        memory may be a row of a matrix)."""
        if isinstance(e, ast.Member):
            if isinstance(e.base.type.store, Vector):
                return py.Constant(max("xyzw".find(e.name), "rgba".find(e.name)))
            return py.Constant(attribute(e))
        return self.expr(e.index, self.want_for(e.index, None))

    def place_root(self, e: ast.Ident) -> tuple[str, py.expr, list[py.expr]]:
        """How a pointer to the variable ``e`` is made: the runtime class (a value's or
        memory's place), what it starts at, and the path's first keys (a cell's ``value``;
        a storage buffer of one scalar, vector or atomic is an array of one: its element
        0)."""
        target = e.target
        if id(target) in self.cells and id(target) in self.names:
            cell = py.Name(self.names[id(target)], py.Load())
            return "__ash_value_place", cell, [py.Constant("value")]
        t = e.type
        if isinstance(target, ast.VarDecl) and self.is_global(target) and \
                isinstance(t, Reference) and t.space in ("storage", "uniform", "workgroup"):
            start = [py.Constant(0)] if _one_value(t) else []
            return "__ash_place", py.Name(self.py_global(e.name), py.Load()), start
        space = t.space if isinstance(t, Reference) else "function"
        if space == "private":  # (its load is an attribute of the invocation's namespace)
            holder = self.expr_node(e, None)
            if isinstance(holder, py.Attribute):
                return "__ash_value_place", holder.value, [py.Constant(holder.attr)]
        raise self.refuse(e.span, f"a pointer to the {space} variable '{e.name}'")

    def load_place(self, pointer: py.expr, keys: list[py.expr] = ()) -> py.expr:
        """``pointer.load(keys)``: the value of what the keys name in what ``pointer``
        points at."""
        return py.Call(py.Attribute(pointer, "load", py.Load()), [_tuple(keys)] if keys else [],
                       [])

    def load_through(self, e: ast.Expr) -> py.expr:
        return self.vector_of(e, self.load_place(*self.pointer_parts(e)))

    def vector_of(self, e: ast.Expr, node: py.expr) -> py.expr:
        """A vector loaded from memory through a pointer (``e``, the reference or the
        pointer) as a vector value: it may be a column of a matrix, a numpy row there."""
        t = e.type
        if isinstance(t, (Reference, Pointer)) and t.space not in ("function", "private") and \
                isinstance(t.store, Vector):
            return py.Call(self.type_expr(t.store, e.span), [node], [])
        return node

    def store_through(self, target: ast.Expr, value: py.expr, once: bool) -> py.stmt:
        """``target = value`` where the target is reached through a pointer; its indices
        are evaluated before ``value`` (left to right). ``once=False``: the target was also
        read (compound assignment), so an index that calls a function, which would run
        twice, is refused."""
        if not once and any(isinstance(n, ast.Call) for n in _nodes(target)):
            raise self.refuse(target.span, f"a store into {self.text(target.span)!r}")
        pointer, keys = self.pointer_parts(target)
        if not keys:
            return py.Expr(py.Call(py.Attribute(pointer, "store", py.Load()), [value], []))
        store = py.Attribute(pointer, "store_at", py.Load())
        return py.Expr(py.Call(store, [_tuple(keys), value], []))

    # --- the expressions ------------------------------------------------------------------

    def e_Unary(self, e: ast.Unary, want: Any) -> py.expr:
        if e.op == "&":
            return self.pointer(e.operand)
        if e.op == "*":
            return self.vector_of(e, self.load_place(self.expr(e.operand)))
        return super().e_Unary(e, want)

    def e_Member(self, e: ast.Member, want: Any) -> py.expr:
        if self.through_pointer(e):
            return self.load_through(e)
        if isinstance(e.base.type, Pointer):  # (a swizzle of several components: a value)
            vector = self.vector_of(e.base, self.load_place(self.expr(e.base)))
            return py.Attribute(vector, e.name, py.Load())
        return super().e_Member(e, want)

    def e_Index(self, e: ast.Index, want: Any) -> py.expr:
        if self.through_pointer(e):
            return self.load_through(e)
        return super().e_Index(e, want)

    def e_Call(self, e: ast.Call, want: Any) -> py.expr:
        if e.callee.name == "workgroupUniformLoad" and e.callee.template is None and \
                not isinstance(e.args[0].type.store, Atomic):
            arg = _strip(e.args[0])
            if not (isinstance(arg, ast.Unary) and arg.op == "&"):  # (a pointer variable or
                # parameter: it may point at a struct's member, which the runtime's form
                # does not take)
                return self.uniform_load_of_member(e)
            if _has_member(_strip(arg.operand)):
                return self.uniform_load_of_member(e)
        return super().e_Call(e, want)

    def uniform_load_of_member(self, e: ast.Call) -> py.expr:
        """``workgroupUniformLoad(&s.m)`` (or of a pointer variable or parameter, which may
        point at a member) as WGSL defines it: a workgroup barrier, the load
        (a value), a workgroup barrier, in that order (a tuple's items), its value the
        middle item. The two barriers are awaited at distinct columns (the call's and its
        argument's), as reconvergence tells awaits apart by position."""
        arg = _strip(e.args[0])
        barrier = self.ash_attr("workgroup_barrier")
        before = self.place(py.Await(py.Call(barrier, [], [])), e.span)
        after = self.place(py.Await(py.Call(self.ash_attr("workgroup_barrier"), [], [])),
                           arg.span)
        loaded = self.value(_strip(arg.operand)) if isinstance(arg, ast.Unary) and \
            arg.op == "&" else self.load_place(self.expr(arg))
        return py.Subscript(py.Tuple([before, loaded, after], py.Load()), py.Constant(1),
                            py.Load())

    def pointer_arg(self, e: ast.Expr) -> py.expr:
        """A pointer given to an atomic built-in, ``workgroupUniformLoad`` or
        ``arrayLength``, as the runtime's pointer: ``&buf[i]`` of a module-scope array is
        ``ash.ptr(buf, i)``, ``&v`` of a variable ``ash.ptr(v)``, ``&s.count`` of an atomic
        member ``ash.ptr(s.count)``, ``&s.data`` of a runtime-sized member the member; any
        other pointer is made into one at run time
        (:meth:`~asyncshader.wgsl.places.Place.native`)."""
        inner = _strip(e.operand) if isinstance(e, ast.Unary) and e.op == "&" else None
        if isinstance(inner, ast.Index):
            base = _strip(inner.base)
            if isinstance(base, ast.Ident) and isinstance(base.target, ast.VarDecl) and \
                    self.is_global(base.target) and not _one_value(base.type):
                index = self.expr(inner.index, self.want_for(inner.index, None))
                return self.ash_call("ptr", [py.Name(self.py_global(base.name), py.Load()),
                                             index])
        if isinstance(inner, ast.Ident) and isinstance(inner.target, ast.VarDecl) and \
                self.is_global(inner.target):
            index = [py.Constant(0)] if _one_value(inner.type) else []
            return self.ash_call("ptr", [py.Name(self.py_global(inner.name), py.Load()),
                                         *index])
        if isinstance(inner, ast.Member) and not self.through_pointer(inner) and \
                inner.type.space in ("storage", "workgroup"):
            if isinstance(inner.type.store, Atomic):  # (a struct's atomic member)
                return self.ash_call("ptr", [self.expr(inner)])
            return self.expr(inner)  # (a struct's runtime-sized array: its reference)
        pointer = self.pointer(e.operand) if inner is not None else self.expr(e)
        return py.Call(py.Attribute(pointer, "native", py.Load()), [], [])
