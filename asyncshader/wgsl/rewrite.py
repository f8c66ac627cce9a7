"""Gives a shader's operators WGSL's meaning: ``/``, ``//``, ``%``, ``<<`` and ``>>`` (and their
augmented forms ``/=`` ...) become calls of :mod:`asyncshader.wgsl.operators`, and ``**`` (and
``**=``) a product or a call of :mod:`asyncshader.wgsl.powers`; indexing gets WGSL's robust
buffer access (:mod:`asyncshader.wgsl.robust`).

Python's meaning of these differs from WGSL's on numpy scalars (``np.int32(-7) // 2`` floors,
``u32 / u32`` gives a float64, ``x << 36`` is 0); the others (``+ - * & | ^ ~``, comparisons)
already mean what WGSL means on numpy's 32-bit scalars, and stay as they are: rewriting them
would put a Python call on every addition of every shader. The same pass rewrites the stores
into parts of local composite values, which gives vectors, matrices, structs and arrays WGSL's
value semantics (:mod:`asyncshader.wgsl.value_rewrite`).

:func:`with_wgsl_operators` compiles a copy of the shader from its source with those operators
replaced, and does the same for every Python function of the user's that the shader (or such a
helper) refers to by name; the copy refers to the rewritten helpers. Line numbers and columns
are the original ones, so errors and tracebacks point at the user's file. The user's own
functions are not changed: calling a helper from host code keeps Python's meaning.

What is not rewritten (documented in docs/concepts.md): code without source (a shader made by
``exec`` of a string that ``inspect`` cannot read), generated code (it is generated in the
rewritten form: :mod:`asyncshader.wgsl.generated`; with subgroup operations it is copied for
reconvergence's loop counters, its helper references redirected, and nothing else changed),
helpers reached other than by name (``module.helper``, methods, functions held in
containers), and helpers defined in library code.
"""

from __future__ import annotations

import ast
import linecache
import types
from typing import Any

import numpy as np

from .._core.sources import user_code
from . import reconvergence
from .function_ptrs import CELL, address_taken, to_cells
from .matches import check_matches
from .memory import FunctionVar
from .operators import OPERATORS, SAFE_WITH_LITERAL, inplace
from .overrides import Override
from .powers import SMALL_MAX, power, small_power
from .robust import Robust, ix, load, store
from .source import Scope, generated_tree, parse
from .value_rewrite import ValueStores, as_load, located
from .values import IS_VALUE, put, store_swizzle

_OPS = {ast.Div: "div", ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.LShift: "shl",
        ast.RShift: "shr"}
#: and, in strict kernels, the operators whose meaning is Python's but whose typing is WGSL's
#: (both operands of one type): checked at every use, so only when asked for
_STRICT_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.BitAnd: "and",
               ast.BitOr: "or", ast.BitXor: "xor"}
#: the int literals on the right for which SAFE_WITH_LITERAL holds, per operator: [low, high)
_LITERALS = {"div": (1, 2**31), "floordiv": (1, 2**31), "mod": (1, 2**31), "shl": (0, 32),
             "shr": (0, 32)}
#: prefix of the names the rewritten source calls (free variables of the copy)
PREFIX = "__ash_"
#: what the rewritten source calls, by name (less the prefix)
_TABLE = OPERATORS | {"safe_" + op: s for op, s in SAFE_WITH_LITERAL.items()} | {
    "inplace": inplace, "is_value": IS_VALUE, "put": put,
    "store_swizzle": store_swizzle, "power": power, "small_power": small_power,
    "robust_load": load, "robust_store": store, "robust_ix": ix, "robust_u32": np.uint32}
_NO_TYPE_PARAMS = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}


def with_wgsl_operators(fn: Any, strict: bool = False, reconverge: bool = False) -> Any:
    """``fn`` with WGSL's operators, or ``fn`` itself when it has no source to read (or uses
    none of the operators and calls no helper that does). ``strict`` also checks the operands
    of ``+ - * & | ^`` for WGSL's typing (one type; :class:`~asyncshader.ShaderTypeError`).
    ``reconverge`` (kernels with subgroup operations) always copies, and records where each
    await stands in the structured control flow, with loop counters where members could stand
    in different iterations (:mod:`asyncshader.wgsl.reconvergence`); the copy's
    ``__ash_counts__`` says whether it or a helper counts."""
    if not isinstance(fn, types.FunctionType):
        return fn
    copier = _Copier(strict, reconverge)
    made = copier.copy(fn)
    if made is not None and reconverge:
        made.__ash_counts__ = copier.counts  # type: ignore[attr-defined]
    return made or fn


class _Copier:
    """Rewrites one shader and the helpers it reaches, each once (cycles included)."""

    def __init__(self, strict: bool = False, reconverge: bool = False) -> None:
        self.ops = _OPS | _STRICT_OPS if strict else _OPS
        self.reconverge = reconverge
        self.counts = False  # a copy counts loop iterations (reconvergence)
        self.cells: dict[int, types.CellType] = {}  # a helper's copy, by id of the function
        self.keep: list[types.FunctionType] = []  # (the functions whose ids are keys)
        self.pending: list[tuple[types.CellType, types.FunctionType]] = []
        self.overrides: dict[str, Override] = {}  # the overrides read, by name

    def copy(self, fn: types.FunctionType) -> types.FunctionType | None:
        made = self._copy(fn, entry=True)
        while self.pending:  # helpers are copied after their callers' cells exist
            cell, helper = self.pending.pop()
            cell.cell_contents = self._copy(helper) or helper
        if made is not None and self.overrides:
            made.__ash_overrides__ = self.overrides  # type: ignore[attr-defined]
        return made

    def _helper_cell(self, helper: types.FunctionType) -> types.CellType:
        """The cell that will hold ``helper``'s copy: one per function object (closures made
        by one factory share their code but not their cells)."""
        cell = self.cells.get(id(helper))
        if cell is None:
            cell = self.cells[id(helper)] = types.CellType()
            self.keep.append(helper)
            self.pending.append((cell, helper))
        return cell

    def _copy(self, fn: types.FunctionType, entry: bool = False) -> types.FunctionType | None:
        generated = generated_tree(fn) is not None  # (written in the rewritten form)
        if generated and not self.reconverge:
            return None
        parsed = parse(fn)
        if parsed is None:
            return None
        tree, first = parsed
        node = tree.body[0] if tree.body else None
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or node.name != fn.__name__:
            return None  # (a lambda, or source that is not this function's own)
        scope = Scope(fn)
        if not generated:
            check_matches(node, scope, fn.__code__.co_filename, first, fn.__qualname__)
        rebound = {name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal))
                   for name in n.names}  # (their value can change while the shader runs)
        free = _free_loads(node) - _bound_names(node) - rebound
        helpers = {name: self._helper_cell(value) for name in free
                   if _is_user_function(value := scope.get(name))}
        overrides = {} if generated else {name: value for name in free
                                          if isinstance(value := scope.get(name), Override)}
        for name, ov in overrides.items():
            ov.name = name if ov.name == "<override>" else ov.name
            self.overrides[name] = ov
        rewriter = (_HelperNames if generated else _Rewriter)(set(helpers), self.ops,
                                                              set(overrides))
        # (the entry point's parameters are bindings and built-ins, stored into as memory)
        rewriter.locals = frozenset(_bound_names(node) - rebound
                                    - (_parameters(node) if entry else set()))
        rewriter.visit(node)
        cells: Any = ()
        if not generated:  # (generated code is written with its robust accesses and cells)
            node.body = Robust(rewriter.robust_name, _calls_helper).body(node.body)
            cells = address_taken(node, scope, _bound_names(node) - rebound)
            if cells:  # (locals a helper writes through ash.ptr: function_ptrs.py)
                to_cells(node, cells, PREFIX, scope)
        if not rewriter.used and not helpers and not overrides and not cells \
                and not self.reconverge:
            return None
        node.decorator_list = []
        if not generated:  # (a generated tree stands at its source's lines and columns)
            _shift_columns(node, _indent(fn.__code__.co_filename, first))
            ast.increment_lineno(node, first - 1)
        if self.reconverge:
            table, counts = reconvergence.instrument(node, scope)
            self.counts |= counts
        injected = {PREFIX + op: types.CellType(_TABLE[op]) for op in rewriter.used}
        if cells:
            injected[PREFIX + CELL] = types.CellType(FunctionVar)
        injected |= {PREFIX + "fn_" + name: cell for name, cell in helpers.items()}
        injected |= {PREFIX + "ov_" + name: types.CellType(ov) for name, ov in overrides.items()}
        freevars = fn.__code__.co_freevars
        cells = dict(zip(freevars, fn.__closure__ or ()))
        cells.update(injected)
        outer = ast.FunctionDef(
            name=PREFIX + "outer", args=ast.arguments(
                posonlyargs=[], args=[ast.arg(arg=n) for n in sorted(cells)], vararg=None,
                kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
            body=[node, ast.Return(ast.Name(fn.__name__, ast.Load()))], decorator_list=[],
            returns=None, **_NO_TYPE_PARAMS)
        ast.copy_location(outer, node)
        module = ast.fix_missing_locations(ast.Module([outer], type_ignores=[]))
        code = compile(module, fn.__code__.co_filename, "exec", dont_inherit=True)
        inner = _find_code(code, fn.__name__)
        if self.reconverge:
            reconvergence.register(inner, table, counts)
        new = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__,
                                 tuple(cells[n] for n in inner.co_freevars))
        new.__kwdefaults__ = fn.__kwdefaults__
        new.__qualname__, new.__module__, new.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
        new.__annotations__ = fn.__annotations__
        new.__dict__.update(fn.__dict__)
        new.__ash_original__ = fn  # type: ignore[attr-defined]
        return new


class _Rewriter(ValueStores, ast.NodeTransformer):
    """Replaces the operators, the references to the helpers being copied, and the stores
    into parts of values (:class:`~asyncshader.wgsl.value_rewrite.ValueStores`)."""

    def __init__(self, helpers: set[str], ops: dict = _OPS,
                 overrides: frozenset | set = frozenset()) -> None:
        self.helpers = helpers
        self.overrides = overrides  # names read as OVERRIDE.value (wgsl/overrides.py)
        self.ops = ops
        self.used: set[str] = set()
        self.temps = 0
        self.scopes: list[set[str]] = []  # names bound by the nested functions we are in

    def robust_name(self, op: str) -> str:
        """The name the rewritten source calls :mod:`asyncshader.wgsl.robust`'s ``op`` by
        ("load", "store", "ix", "u32"), or a temporary's ("c", "v", "t")."""
        if op in ("c", "v", "t"):
            return f"{PREFIX}r{op}"
        self.used.add("robust_" + op)
        return PREFIX + "robust_" + op

    def _call(self, op: str, left: ast.expr, right: ast.expr, at: ast.AST,
              python_op: ast.operator, call: ast.expr | None = None) -> ast.expr:
        """The operator function's call (or ``call``); for a name and an int literal
        (``s // 2``), Python's operator when the name's value is of a type for which it means
        the same."""
        self.used.add(op)
        call = ast.copy_location(
            call or ast.Call(ast.Name(PREFIX + op, ast.Load()), [left, right], []), at)
        low, high = _LITERALS.get(op, (1, 0))  # (the strict checks have no fast test)
        if not (isinstance(left, ast.Name) and isinstance(right, ast.Constant)
                and type(right.value) is int and low <= right.value < high):
            return call
        self.used.add("safe_" + op)
        test = ast.Compare(ast.Attribute(ast.Name(left.id, ast.Load()), "__class__", ast.Load()),
                           [ast.In()], [ast.Name(PREFIX + "safe_" + op, ast.Load())])
        plain = ast.BinOp(ast.Name(left.id, ast.Load()), python_op, ast.Constant(right.value))
        return ast.copy_location(ast.IfExp(test, plain, call), at)

    def name(self, what: str) -> ast.Name:
        """The name by which the copy calls ``what`` of the runtime table (or a temporary)."""
        return ast.Name(PREFIX + what, ast.Load())

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        return self.binop(node)

    def binop(self, node: ast.BinOp) -> ast.expr:
        """A binary operation whose operands are rewritten already (``**``: :meth:`_power`)."""
        if isinstance(node.op, ast.Pow):
            return self._power(node.left, node.right, node)
        op = self.ops.get(type(node.op))
        return node if op is None else self._call(op, node.left, node.right, node, node.op)

    def _power(self, left: ast.expr, right: ast.expr, at: ast.AST) -> ast.expr:
        """``left ** right`` (:mod:`asyncshader.wgsl.powers`): a name to a small int literal
        power is its product inline (``x * x``), any other small power a call of
        ``small_power``, the rest a call of ``power``."""
        n = right.value if isinstance(right, ast.Constant) and type(right.value) is int \
            and 0 <= right.value <= SMALL_MAX else None
        if n is None:
            self.used.add("power")
            call = ast.Call(ast.Name(PREFIX + "power", ast.Load()), [left, right], [])
        elif isinstance(left, ast.Name) and n >= 1:
            call = ast.Name(left.id, ast.Load())
            for _ in range(n - 1):
                call = ast.BinOp(call, ast.Mult(), ast.Name(left.id, ast.Load()))
        else:
            self.used.add("small_power")
            call = ast.Call(ast.Name(PREFIX + "small_power", ast.Load()), [left, right], [])
        for child in ast.walk(call):
            if "lineno" in child._attributes and getattr(child, "lineno", None) is None:
                ast.copy_location(child, at)
        return call

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        return self.value_aug(node, self._augmented(node))

    def _augmented(self, node: ast.AugAssign) -> Any:
        """``t op= v``: ``t = inplace(op)(t, v)``, which writes an array's result back into it
        (``row //= 2`` on a view of a buffer updates the buffer, as numpy's ``//=`` would); a
        subscript's or attribute's container and index are evaluated once, into temporaries.
        ``t **= v`` is ``t = t ** v`` as :meth:`_power` reads it."""
        op = self.ops.get(type(node.op))
        if op is None and not isinstance(node.op, ast.Pow):
            return node
        before: list[ast.stmt] = []
        target = node.target
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            self.temps += 1
            box = f"{PREFIX}t{self.temps}"
            before.append(ast.Assign([ast.Name(box, ast.Store())], target.value))
            if isinstance(target, ast.Subscript):
                key = f"{PREFIX}k{self.temps}"
                before.append(ast.Assign([ast.Name(key, ast.Store())], target.slice))
                store = ast.Subscript(ast.Name(box, ast.Load()), ast.Name(key, ast.Load()),
                                      ast.Store())
            else:
                store = ast.Attribute(ast.Name(box, ast.Load()), target.attr, ast.Store())
            target = store
        load = as_load(target)
        if op is None:  # (**=)
            return located([*before, ast.Assign([target], self._power(
                load, node.value, node))], node)
        self.used.add("inplace")
        value: ast.expr = ast.Call(ast.Name(PREFIX + "inplace", ast.Load()),
                                   [ast.Name(PREFIX + op, ast.Load()), load, node.value], [])
        if isinstance(target, ast.Name):  # (``s //= 2`` keeps the inline test of a scalar)
            value = self._call(op, load, node.value, node, node.op, value)
        self.used.add(op)
        return located([*before, ast.Assign([target], value)], node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if not isinstance(node.ctx, ast.Load) or any(node.id in b for b in self.scopes):
            return node
        if node.id in self.helpers:
            return ast.copy_location(ast.Name(PREFIX + "fn_" + node.id, ast.Load()), node)
        if node.id in self.overrides:
            value = ast.Attribute(ast.Name(PREFIX + "ov_" + node.id, ast.Load()), "value",
                                  ast.Load())
            return ast.copy_location(value, node)
        return node

    def _nested(self, node: Any) -> Any:
        """A function inside the shader: the names it binds hide helpers of the same name."""
        self.scopes.append(_bound_names(node))
        try:
            return self.generic_visit(node)
        finally:
            self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _nested


def _calls_helper(call: ast.Call) -> bool:
    """A call of a helper being copied (whose effects a second run would repeat)."""
    return isinstance(call.func, ast.Name) and call.func.id.startswith(PREFIX + "fn_")


class _HelperNames(_Rewriter):
    """The rewrite of generated code (:mod:`asyncshader.wgsl.generated`), which is written in
    the rewritten form already: only the references to the helpers being copied change."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        return self.generic_visit(node)

    visit_Assign = visit_AugAssign = visit_BinOp  # type: ignore[assignment]


def _parameters(fn_node: Any) -> set[str]:
    args = fn_node.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                            *(a for a in (args.vararg, args.kwarg) if a is not None))}


def _free_loads(node: ast.AST) -> set[str]:
    """The names a function reads (its nested functions' reads included)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}


def _bound_names(fn_node: Any) -> set[str]:
    """The names a function binds in its own scope: its parameters, the names it assigns, the
    functions and classes it defines, what it imports (not what its nested functions bind)."""
    args = fn_node.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    todo = list(fn_node.body) if isinstance(fn_node.body, list) else [fn_node.body]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            continue  # (its body is its own scope)
        elif isinstance(n, ast.Lambda):
            continue
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in n.names}
        todo.extend(ast.iter_child_nodes(n))
    return names


def _is_user_function(value: Any) -> bool:
    """A plain Python function of the user's (not asyncshader's, the stdlib's or a library's),
    whose operators the copy should rewrite too."""
    return isinstance(value, types.FunctionType) and user_code(value.__code__.co_filename)


def _indent(filename: str, line: int) -> int:
    text = linecache.getline(filename, line)
    return len(text) - len(text.lstrip())


def _shift_columns(node: ast.AST, by: int) -> None:
    """Undoes the dedent of the parsed source, so that tracebacks' carets stand right."""
    if not by:
        return
    for n in ast.walk(node):
        if hasattr(n, "col_offset") and n.col_offset is not None:
            n.col_offset += by
        if getattr(n, "end_col_offset", None) is not None:
            n.end_col_offset += by


def _find_code(code: types.CodeType, name: str) -> types.CodeType:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name:
                return const
            found = _find_code(const, name)
            if found is not None:
                return found
    return None  # type: ignore[return-value]


def wgsl_eval(expression: str, variables: dict[str, Any]) -> Any:
    """Evaluates one Python expression the way it would run in a shader: with ``/ // % << >>``
    rewritten to WGSL's operators (``wgsl_eval("a / b", {"a": i32(-7), "b": i32(2)})`` is
    ``i32(-3)``). For trying a rule at the prompt, and for tests that compare asyncshader's
    operators with a GPU's."""
    tree = ast.parse(expression, mode="eval")
    rewriter = _Rewriter(set())
    tree = ast.fix_missing_locations(rewriter.visit(tree))
    names = {PREFIX + op: _TABLE[op] for op in rewriter.used}
    return eval(compile(tree, "<wgsl_eval>", "eval"), {"__builtins__": {}}, names | variables)
