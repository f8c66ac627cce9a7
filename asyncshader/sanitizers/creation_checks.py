"""WGSL's shader-creation errors that can be seen in a shader's source, checked when it is
decorated (``@ash.compute``, ``@ash.fragment``), so that the CPU refuses what a GPU's shader
compiler refuses, with the line and the fix:

* a constant shift count outside [0, 32) (every WGSL integer has 32 bits);
* an integer division or remainder (``/``, ``//``, ``%`` and their ``=`` forms) by a constant
  zero;
* a derivative (``dpdx`` ... ``fwidth_fine``) of an integer;
* a derivative in a compute kernel without a derivative layout (WGSL has derivatives in
  fragment shaders only; asyncshader's compute layouts are VK_KHR_compute_shader_derivatives);
* a quad operation in a compute kernel without a layout whose workgroup is not a multiple of 4
  invocations (its quads are four consecutive local indices);
* ``ash.workgroup(...)`` inside a function: ``var<workgroup>`` is declared at module scope.

"Constant" is WGSL's const-expression as far as the source shows it: a literal, a negated
literal, a module-level (or enclosing-scope) name bound to a number when the shader is
decorated and not assigned in the function, and ``i32(...)``/``u32(...)`` of one of those.
An integer is an operand whose type the source states: ``i32(...)``, ``u32(...)``, an integer
vector's constructor, a parameter or local annotated with an integer type (a built-in such as
``local_invocation_index: u32``), or a component of such a vector. What the source does not
show (a helper defined after the shader, a value computed at run time) is checked where it
runs: the CPU raises there, and ``to_wgsl`` when it emits.

The rules' predicates and messages are :mod:`.creation_rules`, shared with ``to_wgsl``. The
checks read the shader and the functions of the user's it calls by name, as
:mod:`asyncshader.sanitizers.source_checks` does.
"""

from __future__ import annotations

import ast
import types
from typing import Any

import numpy as np

from ..errors import ShaderCreationError
from ..wgsl.memory import workgroup
from ..wgsl.rewrite import _bound_names, _is_user_function
from ..wgsl.source import Scope, parse, resolve
from ..wgsl.types import Vec, _ScalarType
from . import creation_rules as rules

_SHIFTS = {ast.LShift: "<<", ast.RShift: ">>"}
_DIVISIONS = {ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}


def check_creation(fn: Any, stage: str, workgroup_size: tuple[int, int, int] | None = None,
                   derivatives: str | None = None) -> None:
    """Raises :class:`~asyncshader.ShaderCreationError` at the first line of ``fn`` (or of a
    function of the user's it calls by name) that breaks one of the rules above. Silently skips
    code without source."""
    n = int(np.prod(workgroup_size)) if workgroup_size is not None else 0
    _Checker(stage, derivatives, stage == "compute" and derivatives is None, n).visit_function(fn)


class _Checker:
    def __init__(self, stage: str, derivatives: str | None, quads_layoutless: bool,
                 n: int) -> None:
        self.stage, self.derivatives, self.n = stage, derivatives, n
        self.quads_layoutless = quads_layoutless  # (a compute kernel without a layout)
        self.seen: set[int] = set()

    def visit_function(self, fn: Any) -> None:
        if not isinstance(fn, types.FunctionType) or id(fn.__code__) in self.seen:
            return
        self.seen.add(id(fn.__code__))
        parsed = parse(fn)
        if parsed is None:
            return
        tree, first = parsed
        node = tree.body[0] if tree.body else None
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        where = _Where(fn, first, Scope(fn), node)
        ordered = sorted((n for n in ast.walk(node) if hasattr(n, "lineno")),
                         key=lambda n: (n.lineno, n.col_offset))  # (the first line is named)
        for child in ordered:
            if isinstance(child, (ast.BinOp, ast.AugAssign)):
                self.operator(where, child)
            elif isinstance(child, ast.Call):
                self.call(where, child)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load) \
                    and child.id not in where.local:
                value = where.scope.get(child.id)
                if _is_user_function(value):
                    self.visit_function(value)

    def operator(self, where: _Where, node: ast.BinOp | ast.AugAssign) -> None:
        right = node.right if isinstance(node, ast.BinOp) else node.value
        op, written = type(node.op), ast.unparse(right)
        if op in _SHIFTS:
            found = rules.shift_count(_SHIFTS[op], written, where.constant(right))
        elif op in _DIVISIONS:
            found = rules.division_by_zero(_DIVISIONS[op], written, where.constant(right))
        else:
            found = None
        if found:
            where.fail(node, *found)

    def call(self, where: _Where, node: ast.Call) -> None:
        target = resolve(node.func, where.scope)
        name = ast.unparse(node.func)
        if target is workgroup:
            where.fail(node, f"{name}(...) inside a function: var<workgroup> memory is "
                       "declared at module scope in WGSL (one variable per workgroup, not per "
                       "call)", f"move `... = {ast.unparse(node)}` to the top level of the "
                       "module and use that name in the shader")
        if getattr(target, "__ash_derivative__", False):
            if self.stage == "compute" and self.derivatives is None:
                where.fail(node, f"{name}() in a compute kernel without a derivative layout "
                           "(WGSL has derivatives in fragment shaders only)",
                           "declare @ash.compute(..., derivatives=\"quads\" | \"linear\") "
                           "(VK_KHR_compute_shader_derivatives), or exchange the neighbours' "
                           "values with quad_swap_x / quad_swap_y and subtract")
            if node.args and where.is_integer(node.args[0]):
                where.fail(node, *rules.derivative_of_integer(
                    name, f"the integer `{ast.unparse(node.args[0])}`"))
        if getattr(target, "__ash_needs_quads__", False) and self.quads_layoutless:
            found = rules.quads_not_whole(name, self.n)
            if found:
                where.fail(node, *found)


class _Where:
    """One function being checked: its scope, its local names, its file and first line."""

    def __init__(self, fn: types.FunctionType, first: int, scope: Scope,
                 node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.fn, self.first, self.scope = fn, first, scope
        self.local = _bound_names(node) | {
            name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal))
            for name in n.names}
        self.annotated = _annotations(node, scope)

    def fail(self, node: ast.AST, what: str, fix: str) -> None:
        line = self.first + node.lineno - 1
        raise ShaderCreationError(f"{self.fn.__code__.co_filename}:{line}: in "
                                  f"{self.fn.__qualname__}: {what}. Fix: {fix}.")

    def constant(self, expr: ast.expr) -> Any:
        """The value of a const-expression (see the module's docstring), else None."""
        if isinstance(expr, ast.Constant):
            v = expr.value
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            v = self.constant(expr.operand)
            return None if v is None else (-v if isinstance(expr.op, ast.USub) else v)
        if isinstance(expr, ast.Name) and expr.id not in self.local:
            return _number(self.scope.get(expr.id))
        if isinstance(expr, ast.Attribute):
            return _number(resolve(expr, self.scope))
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
            kind = _scalar_kind(resolve(expr.func, self.scope))
            v = self.constant(expr.args[0])
            if kind in ("i", "u") and isinstance(v, (int, np.integer)):
                return int(v)
        return None

    def is_integer(self, expr: ast.expr) -> bool:
        """Whether the source states that ``expr`` is an integer (see the module's docstring)."""
        if isinstance(expr, ast.Call):
            return _scalar_kind(resolve(expr.func, self.scope)) in ("i", "u")
        if isinstance(expr, ast.Name):
            return self.annotated.get(expr.id) in ("i", "u")
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            return self.annotated.get(expr.value.id) in ("i", "u") and \
                set(expr.attr) <= set("xyzwrgba")
        return False


def _number(value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        return None
    return value if isinstance(value, (int, float, np.integer, np.floating)) else None


def _scalar_kind(t: Any) -> str | None:
    """'i', 'u', 'f' or 'b' for a WGSL scalar or vector type, None for anything else."""
    if isinstance(t, _ScalarType):
        return np.dtype(t.dtype).kind
    if isinstance(t, type) and issubclass(t, Vec):
        return getattr(t, "kind", None)
    return None


def _annotations(node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> dict:
    """The scalar kind of each parameter and local whose annotation is a WGSL type."""
    args = node.args
    found = {a.arg: a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
             if a.annotation is not None}
    for n in ast.walk(node):
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            found[n.target.id] = n.annotation
    kinds = {name: _scalar_kind(resolve(a, scope)) for name, a in found.items()}
    return {name: kind for name, kind in kinds.items() if kind is not None}
