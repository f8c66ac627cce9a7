"""Checks of a shader's source made once, when it is decorated.

A shader that calls ``workgroup_barrier()`` without ``await`` gets back an awaitable and throws
it away: nothing waits, and nothing says so; ``x = ash.subgroup_add(v)`` or ``return
ash.dpdx(x)`` gives a value that is the operation itself, not its result. Python cannot warn
about that cheaply at run time (the traps are generators), so the decorators read the source
instead: a call to an asyncshader operation inside an ``async def`` (the shader and the async
helpers it calls by name) that is not awaited where it stands is an error. Keeping the
awaitable in a name to await later (``t = op(...)`` ... ``await t``) is fine.

They also find out whether every ``await`` of a shader is a direct call of an asyncshader
operation (:func:`direct_awaits`): then an invocation only ever suspends in its own frame, and
the scheduler tells call sites apart by the frame's instruction alone, without walking the
chain of awaited coroutines at every rendezvous.
"""

from __future__ import annotations

import ast
import inspect
import types
from typing import Any

from .._core.traps import TRAP_FUNCTIONS
from ..wgsl.matches import check_matches
from ..wgsl.source import Scope, parse, resolve, root_name


def is_trap_function(obj: Any) -> bool:
    """Carries the trap mark: an operation, or a ``functools.wraps`` wrapper of one (which
    most likely returns the operation's trap too). Enough for the forgotten-await check; the
    direct-await analysis trusts only :data:`~asyncshader.traps.TRAP_FUNCTIONS`."""
    return getattr(obj, "__ash_trap__", False) is True


def check_awaits(fn: Any) -> None:
    """Raises TypeError at the first asyncshader operation called without ``await`` in ``fn``
    or an ``async def`` helper it refers to by name. Silently skips code without source."""
    seen: set[int] = set()
    _check(fn, seen)


def _check(fn: Any, seen: set[int]) -> None:
    if not isinstance(fn, types.FunctionType) or id(fn.__code__) in seen:
        return
    seen.add(id(fn.__code__))
    parsed = parse(fn)
    if parsed is None:
        return
    tree, first = parsed
    scope = Scope(fn)
    check_matches(tree, scope, fn.__code__.co_filename, first, fn.__qualname__)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    awaited = {n.value.id for n in ast.walk(tree)
               if isinstance(n, ast.Await) and isinstance(n.value, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        target = resolve(node.func, scope)
        parent, child = parents.get(node), node
        while isinstance(parent, ast.IfExp) and child is not parent.test:  # await (a if c else b)
            parent, child = parents.get(parent), parent
        if is_trap_function(target) and _in_async_def(node, parents) \
                and not isinstance(parent, ast.Await) and not _kept(parent, awaited):
            line = first + node.lineno - 1
            name = ast.unparse(node.func)
            what = ("so it does nothing (it only builds the operation)"
                    if isinstance(parent, ast.Expr) else
                    "so its value is the unawaited operation, not the operation's result")
            raise TypeError(
                f"{fn.__code__.co_filename}:{line}: {name}() is called without `await`, "
                f"{what}. Write `await {name}(...)`.")
        if isinstance(target, types.FunctionType) and inspect.iscoroutinefunction(target):
            _check(target, seen)


def direct_awaits(fn: Any) -> tuple | None:
    """The operations ``fn`` awaits, as pairs (call target expression, function), when every
    ``await`` in its own body is a direct call of an asyncshader operation (``await
    workgroup_barrier()``, ``await ash.dpdx(v)``, ``await atomic_add(p, 1)``). ``None`` when an
    invocation could suspend inside another coroutine: an awaited helper ``async def`` or
    variable, ``async for``/``async with``, an ``await`` in a comprehension, a wrapped function,
    an awaited name that the shader binds itself (a local, a parameter, ``global`` or
    ``nonlocal``), or no source to read. :func:`still_direct` checks the pairs again at
    dispatch (a module-level name may have been rebound since decoration)."""
    if not isinstance(fn, types.FunctionType) or hasattr(fn, "__wrapped__"):
        return None  # a wrapper's source is its wrapped function's: not the code that runs
    parsed = parse(fn)
    if parsed is None:
        return None
    tree, _ = parsed
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.AsyncFunctionDef):
        return None
    scope = Scope(fn)
    own = _own_nodes(node)
    code = fn.__code__
    bound_here = {*code.co_varnames, *code.co_cellvars}  # names the shader itself may rebind
    for child in own:
        if isinstance(child, (ast.Global, ast.Nonlocal)):
            bound_here.update(child.names)
    awaited: list[tuple[ast.AST, Any]] = []
    for child in own:
        if isinstance(child, (ast.AsyncFor, ast.AsyncWith)):
            return None
        if isinstance(child, _COMPREHENSIONS) and any(
                isinstance(n, ast.Await) for n in ast.walk(child)):
            return None  # a comprehension is a function of its own
        if isinstance(child, ast.Await):
            call = child.value
            if not isinstance(call, ast.Call):
                return None
            if root_name(call.func) in bound_here:
                return None  # a local or rebindable name: its value at run time is unknown
            target = resolve(call.func, scope)
            if target not in TRAP_FUNCTIONS:  # an operation itself, not a wrapper of one
                return None
            awaited.append((call.func, target))
    return tuple(awaited)


def still_direct(fn: Any, awaited: tuple | None) -> bool:
    """Whether the pairs :func:`direct_awaits` found still name the same functions."""
    if awaited is None:
        return False
    scope = Scope(fn)
    return all(resolve(expr, scope) is target for expr, target in awaited)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_nodes(fn_node: ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of a function's body that run in its own frame: not the bodies of nested
    functions and classes (their decorators, defaults and bases do run in it); comprehensions
    are returned, their insides too."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(fn_node.body)
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.append(node.args)
            todo.extend(getattr(node, "decorator_list", ()))
        elif isinstance(node, ast.ClassDef):
            todo.extend([*node.decorator_list, *node.bases, *node.keywords])
        else:
            todo.extend(ast.iter_child_nodes(node))
    return found


def _kept(parent: ast.AST | None, awaited: set[str]) -> bool:
    """``t = op(...)`` where the function awaits ``t`` somewhere: kept to await later."""
    return isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
        and isinstance(parent.targets[0], ast.Name) and parent.targets[0].id in awaited


def _in_async_def(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.AsyncFunctionDef):
            return True
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            return False
    return False
