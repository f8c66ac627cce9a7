"""The source rewrite of a shader's stores into parts of values and memory (see
:mod:`asyncshader.wgsl.values` for the semantics).

A store whose target starts at a name local to the function (``v.x = e``, ``a[i] = e``,
``s.velocity.y += e``) becomes::

    if IS_VALUE[v.__class__]:
        v = put(v, e, "x")          # a new value: WGSL's value semantics
    else:
        v.x = e                     # v holds memory (a buffer passed to a helper): a store

A swizzle store (``v.xz = w``, ``c.rgb = ...``, ``c.r = e``) on memory becomes
``store_swizzle(<target's object>, "xz", w)``: one store per component into a vector loaded
from memory, so that the race detector sees every component (a struct member that happens to
be called ``xy`` or ``a`` is assigned as it was).

Only the entry point's parameters are left out (bindings and built-in values: WGSL's
parameters are not assignable); a helper's parameters are local names like the others, since a
helper may be passed either a value or a buffer. Nested functions are not rewritten.
"""

from __future__ import annotations

import ast
from typing import Any

from .values import is_swizzle

__all__ = ["ValueStores", "as_load", "located"]


def _chain(target: ast.expr) -> tuple[ast.Name | None, list[ast.expr]]:
    """The root name of a store target and the keys on the way (a member or component name
    as a string constant, an index as its expression); (None, []) for a target that is not a
    chain of members and single indices from a name."""
    keys: list[ast.expr] = []
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            keys.append(ast.Constant(node.attr))
        elif isinstance(node.slice, (ast.Slice, ast.Tuple, ast.Starred)):
            return None, []
        else:
            keys.append(node.slice)
        node = node.value
    if not isinstance(node, ast.Name) or node is target:
        return None, []
    return node, keys[::-1]


def as_load(expr: ast.expr) -> ast.expr:
    """A load of the expression a store target names (a fresh copy of its nodes)."""
    copy = ast.parse(ast.unparse(expr), mode="eval").body
    for new, old in zip(ast.walk(copy), ast.walk(expr)):
        ast.copy_location(new, old)
    return copy


def located(stmts: list[ast.stmt], at: ast.AST) -> list[ast.stmt]:
    """``stmts`` with every node that has no position given ``at``'s (the user's line)."""
    for stmt in stmts:
        for child in ast.walk(stmt):
            if getattr(child, "lineno", None) is None and "lineno" in child._attributes:
                ast.copy_location(child, at)
    return stmts


class ValueStores:
    """Mixin of the shader rewriter: the value-store and swizzle-store rewrites. Uses the
    rewriter's ``used`` (the runtime names it calls), ``temps``, ``scopes`` and ``name()``."""

    used: set[str]
    temps: int
    scopes: list[set[str]]
    #: the names local to the function being rewritten (the roots of value stores)
    locals: frozenset[str] = frozenset()

    @property
    def nested(self) -> bool:
        """Inside a function nested in the one being rewritten (its own scope is the first)."""
        return len(self.scopes) > 1

    def name(self, what: str) -> ast.Name:  # (the rewriter's: a runtime name of the copy)
        raise NotImplementedError

    def binop(self, node: ast.BinOp) -> ast.expr:  # (the rewriter's operators)
        raise NotImplementedError

    def _value_root(self, target: ast.expr) -> tuple[ast.Name | None, list[ast.expr]]:
        root, keys = _chain(target)
        if root is None or self.nested or root.id not in self.locals:
            return None, []
        return root, keys

    def _put(self, root: ast.Name, keys: list[ast.expr], value: ast.expr,
             native: list[ast.stmt], at: ast.AST) -> list[ast.stmt]:
        self.used |= {"is_value", "put"}
        test = ast.Subscript(self.name("is_value"), ast.Attribute(
            ast.Name(root.id, ast.Load()), "__class__", ast.Load()), ast.Load())
        call = ast.Call(self.name("put"), [ast.Name(root.id, ast.Load()), value, *keys], [])
        store = ast.Assign([ast.Name(root.id, ast.Store())], call)
        return located([ast.If(test, [store], native)], at)

    def _swizzle(self, target: ast.Attribute, value: ast.expr, at: ast.AST,
                 op: ast.operator | None = None) -> list[ast.stmt]:
        """A store to a swizzle-like member on memory: ``store_swizzle(o, name, value)``;
        with ``op`` (``o.xz op= value``), the object is evaluated once, into a temporary."""
        self.used.add("store_swizzle")
        out: list[ast.stmt] = []
        obj = target.value
        if op is not None:
            self.temps += 1
            box = self.name(f"o{self.temps}").id
            out.append(ast.Assign([ast.Name(box, ast.Store())], obj))
            obj = ast.Name(box, ast.Load())
            value = self.binop(ast.copy_location(ast.BinOp(
                ast.Attribute(ast.Name(box, ast.Load()), target.attr, ast.Load()), op, value),
                at))
        out.append(ast.Expr(ast.Call(self.name("store_swizzle"),
                                     [obj, ast.Constant(target.attr), value], [])))
        return located(out, at)

    def _rewrites(self, target: ast.expr) -> bool:
        """Whether a store to ``target`` is rewritten (a swizzle, or a part of a local)."""
        return (isinstance(target, ast.Attribute) and is_swizzle(target.attr)
                and not self.nested) or self._value_root(target)[0] is not None

    def visit_Assign(self, node: ast.Assign) -> Any:
        self.generic_visit(node)
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, (ast.Tuple, ast.List)) and not any(
                isinstance(e, ast.Starred) for e in target.elts) and any(
                self._rewrites(e) for e in target.elts):
            # v.x, v.y = a, b: unpacked into temporaries first, then stored one by one
            self.temps += 1
            temps = [self.name(f"u{self.temps}_{k}").id for k in range(len(target.elts))]
            out: list[ast.stmt] = [ast.Assign([ast.Tuple(
                [ast.Name(t, ast.Store()) for t in temps], ast.Store())], node.value)]
            for elt, t in zip(target.elts, temps):
                out += self._store(ast.copy_location(
                    ast.Assign([elt], ast.Name(t, ast.Load())), node))
            return located(out, node)
        return self._store(node)

    def _store(self, node: ast.Assign) -> list[ast.stmt]:
        """One store (its parts rewritten already), as the rewrite makes it."""
        target = node.targets[0]
        swizzle = isinstance(target, ast.Attribute) and is_swizzle(target.attr) \
            and not self.nested
        native: list[ast.stmt] = self._swizzle(target, node.value, node) \
            if swizzle else [node]
        root, keys = self._value_root(target)
        if root is None:
            return native
        return self._put(root, keys, node.value, native, node)

    def value_aug(self, node: ast.AugAssign, native: Any) -> Any:
        """``t op= e`` (after its parts are rewritten): the value store ``t = put(t, t op
        e, ...)`` when ``t`` starts at a local name, else ``native`` (a statement or a list);
        a swizzle on memory, one store per component."""
        target = node.target
        if isinstance(target, ast.Attribute) and is_swizzle(target.attr) and not self.nested:
            native = self._swizzle(target, node.value, node, node.op)
        root, keys = self._value_root(target)
        if root is None:
            return native
        combined = self.binop(ast.copy_location(
            ast.BinOp(as_load(target), node.op, node.value), node))
        return self._put(root, keys, combined, native if isinstance(native, list)
                         else [native], node)
