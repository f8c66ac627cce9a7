"""Maximal reconvergence: where an invocation stands in its shader's *structured* control flow,
so that the subgroup operations group invocations the way VK_KHR_shader_maximal_reconvergence
does (docs/subgroups.md, "Reconvergence").

Python source is structured: every ``if``, ``for`` and ``while`` has one merge point, the
statement after it. An invocation suspended at an ``await`` stands at a *dynamic position*: the
path of blocks and statement indices from the function's body down to the await, with the
iteration number of every loop it is inside, then (through helper calls) the same for each
callee frame. Two invocations at the same dynamic position execute the same dynamic instance
of the operation (one tangle); a position *precedes* another when an invocation standing there
may still reach the other (an earlier statement of the same block, an earlier iteration of
the same loop, the header of the statement the other is inside), and two positions in the two
branches of one ``if`` are unordered. The scheduler resolves a subgroup operation only for the
invocations whose position no other waiting member's precedes: the others are still on the
way to it, or to the merge after it.

Iteration numbers come from counters the rewrite (:mod:`asyncshader.wgsl.rewrite`) puts into
the loops that need them: a loop whose every await is an unconditional statement of its body
(no ``continue``) keeps its members in step, so it needs none and costs nothing. The tables
that map an await's source span to its static path are kept per code object.
"""

from __future__ import annotations

import ast
import types
import weakref
from typing import Any

from .source import Scope, root_name

#: prefix of the loop counters' names (locals of the rewritten shader)
COUNTER = "__ash_loop"
_BLOCK_FIELDS = ("body", "orelse", "finalbody")
#: ranks of a compound statement's blocks: a lower rank runs first (a loop's body before its
#: ``else``); equal ranks are alternatives (an ``if``'s two branches, a ``match``'s cases)
_RANK = {(ast.For, "orelse"): 1, (ast.While, "orelse"): 1, (ast.AsyncFor, "orelse"): 1,
         (ast.Try, "handlers"): 1, (ast.Try, "orelse"): 1, (ast.Try, "finalbody"): 2}
_LOOPS = (ast.For, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: by id of a code object (hashing a code object hashes its bytecode: too slow for every
#: round): [{await span: static path}, whether it counts iterations, the spans of its code
#: units (made when first needed), {instruction: the counters around it}, a weak reference
#: to the code that drops the entry when the code goes]
_TABLES: dict[int, list] = {}


def instrument(fn_node: ast.AsyncFunctionDef | ast.FunctionDef, scope: Scope
               ) -> tuple[dict, bool]:
    """Adds iteration counters to the loops of ``fn_node`` that need them (in place) and
    returns the function's table (await span -> static path) and whether it counts."""
    table: dict = {}
    builder = _Builder(table, scope)
    builder.block(fn_node.body, 0, 0, None, ())
    for loop, name in builder.counted:
        _count(loop, name)
    _place_counter_starts(fn_node)
    return table, bool(builder.counted)


def register(code: types.CodeType, table: dict, counts: bool) -> None:
    """Remembers ``code``'s table (made by :func:`instrument` for the code compiled from it)."""
    key = id(code)
    _TABLES[key] = [table, counts, None, {},
                    weakref.ref(code, lambda _, key=key: _TABLES.pop(key, None))]


class _Builder:
    def __init__(self, table: dict, scope: Scope) -> None:
        self.table = table
        self.scope = scope
        self.keys = 0
        self.counted: list[tuple[ast.stmt, str]] = []

    def block(self, stmts: list, key: int, rank: int, counter: str | None,
              prefix: tuple) -> None:
        for idx, stmt in enumerate(stmts):
            here = (*prefix, ("B", key, rank, counter, idx))
            name = None
            if isinstance(stmt, _LOOPS) and _needs_counter(stmt, self.scope):
                name = f"{COUNTER}{len(self.counted)}"
                self.counted.append((stmt, name))
            blocks = [(f, getattr(stmt, f)) for f in _BLOCK_FIELDS if getattr(stmt, f, None)]
            inner = {id(s) for _, b in blocks for s in b}
            handlers = getattr(stmt, "handlers", None) or []
            cases = getattr(stmt, "cases", None) or []
            body_key = self.keys + 1
            for node in _own_awaits(stmt, inner, handlers, cases):
                path = here
                if isinstance(stmt, _LOOPS):  # the loop's test (or iterable) opens iteration k+1
                    path = (*here, ("H", body_key, name))
                self.table[_span(node)] = path
            for field, body in blocks:
                self.keys += 1
                loop_body = field == "body" and isinstance(stmt, _LOOPS)
                self.block(body, self.keys, _RANK.get((type(stmt), field), 0),
                           name if loop_body else None, here)
            for h in handlers:
                self.keys += 1
                self.block(h.body, self.keys, 1, None, here)
            for c in cases:
                self.keys += 1
                self.block(c.body, self.keys, 0, None, here)


def _span(node: ast.AST) -> tuple:
    return (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)


def _own_awaits(stmt: ast.stmt, inner: set, handlers: list, cases: list) -> list:
    """The awaits of ``stmt`` itself (its header, or the whole of a simple statement): not those
    of its blocks, of nested functions or of comprehensions (other code objects)."""
    found = []
    todo: list = [c for c in ast.iter_child_nodes(stmt)
                  if id(c) not in inner and c not in handlers and c not in cases]
    todo += [h.type for h in handlers if h.type is not None]
    todo += [c.guard for c in cases if c.guard is not None]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Await):
            found.append(node)
        if not isinstance(node, (*_SCOPES, ast.stmt)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _needs_counter(loop: ast.For | ast.While, scope: Scope) -> bool:
    """Whether members of one subgroup can stand in different iterations of ``loop``: some
    await in its body is not an unconditional top-level statement's (it sits in a branch, an
    inner loop, a short-circuit, or awaits a helper whose own branches may skip it), or a
    ``continue`` of this loop skips the rest of an iteration."""
    steady = set()
    for stmt in loop.body:
        if isinstance(stmt, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
            for node in _plain_awaits(stmt):
                if _is_trap(node.value, scope):
                    steady.add(id(node))
    todo: list = [*loop.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Continue):
            return True
        if isinstance(node, ast.Await) and id(node) not in steady:
            return True
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, _LOOPS):  # its continues are its own; its awaits count here
            todo.extend(n for n in ast.walk(node) if isinstance(n, ast.Await))
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False


def _plain_awaits(stmt: ast.stmt) -> list:
    """Awaits of a simple statement that always run when it does (not under ``and``/``or``,
    a conditional expression, a comprehension or a lambda)."""
    found, todo = [], list(ast.iter_child_nodes(stmt))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.BoolOp, ast.IfExp, *_SCOPES)):
            continue
        if isinstance(node, ast.Await):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _is_trap(call: ast.expr, scope: Scope) -> bool:
    """Whether ``call`` calls an asyncshader operation itself (not a helper that may branch)."""
    if not isinstance(call, ast.Call):
        return False
    name = root_name(call.func)
    if name is None:
        return False
    value = scope.get(name)
    chain = []
    f = call.func
    while isinstance(f, ast.Attribute):
        chain.append(f.attr)
        f = f.value
    for attr in reversed(chain):
        value = getattr(value, attr, None)
    return bool(getattr(value, "__ash_trap__", False))


def _count(loop: ast.For | ast.While, name: str) -> None:
    """``name = 0`` before ``loop`` (through a one-statement ``if True:`` wrapper, so that the
    statement lists the table indexes keep their shape) and ``name += 1`` opening its body."""
    start = ast.Assign([ast.Name(name, ast.Store())], ast.Constant(0))
    step = ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), ast.Constant(1))
    for stmt in (start, step):
        ast.copy_location(stmt, loop)
        for child in ast.walk(stmt):
            ast.copy_location(child, loop)
    loop.body.insert(0, step)
    loop.__dict__["ash_counter_start"] = start


def _place_counter_starts(fn_node: ast.AST) -> None:
    """Puts each counted loop's ``name = 0`` just before it (once the table is made: its
    statement indices are those of the user's source)."""
    for node in ast.walk(fn_node):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            k = 0
            while k < len(stmts):
                start = stmts[k].__dict__.pop("ash_counter_start", None) \
                    if isinstance(stmts[k], ast.stmt) else None
                if start is not None:
                    stmts.insert(k, start)
                    k += 1
                k += 1


# ------------------------------------------------------------------------------- at run time
def position(coro: Any) -> tuple:
    """The dynamic position of a suspended shader coroutine: for each frame of its await chain
    (the shader's, then its helpers'), the static path of the await it stands at, with the
    loops' iteration numbers filled in, then the frame's instruction offset."""
    out: list = []
    frame = coro.cr_frame
    aw = coro.cr_await
    while True:
        _frame_position(frame, out)
        if aw.__class__ is types.CoroutineType:
            frame, aw = aw.cr_frame, aw.cr_await
        elif aw.__class__ is types.GeneratorType and aw.gi_yieldfrom is not None:
            frame, aw = aw.gi_frame, aw.gi_yieldfrom
        else:
            return tuple(out)


def _frame_position(frame: Any, out: list) -> None:
    code = frame.f_code
    lasti = frame.f_lasti
    entry = _TABLES.get(id(code))  # (a live code's id is its own: entries go with codes)
    path = None
    if entry is not None:
        spans = entry[2]
        if spans is None:  # (line, end line, column, end column) of each code unit
            spans = entry[2] = [p[0:4] for p in code.co_positions()]
        path = entry[0].get(spans[lasti // 2]) if lasti // 2 < len(spans) else None
    out.append(("F", id(code)))
    if path is not None:
        local = frame.f_locals if entry[1] else None
        for step in path:
            if step[0] == "B":
                _, key, rank, counter, idx = step
                out.append(("B", key, rank, local.get(counter, 0) if counter else 0, idx))
            else:  # a loop's header: the start of iteration (counter + 1)
                _, key, counter = step
                out.append(("B", key, 0, (local.get(counter, 0) if counter else 0) + 1, -1))
    out.append(("@" if path is not None else "?", lasti))


def positions(members: list) -> list:
    """:func:`position` of suspended invocations."""
    return [position(m.coro) for m in members]


def instances(members: list) -> list:
    """The dynamic instance each suspended invocation stands at, as a key equal for two
    invocations exactly when their :func:`position` is: each frame's code and instruction,
    with the iteration counters of the loops around that instruction (the scheduler's
    ``sites`` for shaders that count iterations; cheaper than whole positions)."""
    out = []
    push = out.append
    for m in members:
        coro = m.coro
        key = _frame_key(coro.cr_frame)
        aw = coro.cr_await
        while True:  # helpers in between: their frames too
            if aw.__class__ is types.CoroutineType:
                key += _frame_key(aw.cr_frame)
                aw = aw.cr_await
            elif aw.__class__ is types.GeneratorType and aw.gi_yieldfrom is not None:
                key += _frame_key(aw.gi_frame)
                aw = aw.gi_yieldfrom
            else:
                break
        push(key)
    return out


def _frame_key(frame: Any) -> tuple:
    """A frame's part of :func:`instances`' key (a live code's id is its own)."""
    code, lasti = frame.f_code, frame.f_lasti
    entry = _TABLES.get(id(code))
    if entry is None or not entry[1]:
        return (id(code), lasti)
    names = entry[3].get(lasti)
    if names is None:
        names = entry[3][lasti] = _counters_at(code, lasti, entry)
    if not names:
        return (id(code), lasti)
    local = frame.f_locals
    if len(names) == 1:
        return (id(code), lasti, local.get(names[0]))
    return (id(code), lasti, *[local.get(n) for n in names])


def _counters_at(code: types.CodeType, lasti: int, entry: list) -> tuple:
    """The counters of the loops around the await at ``lasti`` (from the static path)."""
    spans = entry[2]
    if spans is None:
        spans = entry[2] = [p[0:4] for p in code.co_positions()]
    path = entry[0].get(spans[lasti // 2]) if lasti // 2 < len(spans) else None
    return tuple(step[3] if step[0] == "B" else step[2] for step in path or ()
                 if (step[3] if step[0] == "B" else step[2]))


def precedes(p: tuple, q: tuple) -> bool:
    """Whether an invocation at dynamic position ``p`` may still reach ``q`` (so a member at
    ``q`` waits for it): ``p`` stands earlier in a block both are in, in an earlier iteration
    of a loop both are in, in the header of the statement ``q`` is inside, or in a block that
    runs before ``q``'s (a loop's body before its ``else``). Two branches of one ``if``, two
    functions, or a frame without a table (no source): no."""
    for a, b in zip(p, q):
        if a == b:
            continue
        ka, kb = a[0], b[0]
        if ka == "B" and kb == "B":
            if a[1] == b[1]:  # one block: iteration, then statement
                return (a[3], a[4]) < (b[3], b[4])
            return a[2] < b[2]  # two blocks of one statement: by rank
        if ka == "@":  # in one statement: its header runs before its blocks
            return kb == "B" or (kb == "@" and a[1] < b[1])
        return False
    return len(p) < len(q)


def ready(sets: list[list]) -> list[list]:
    """Of the active sets standing at a subgroup's rendezvous (lists of suspended invocations,
    one dynamic instance each), those no other set's position precedes: they resolve now, and
    the others wait for the invocations still on the way (the scheduler's ``reconverge``)."""
    where = [position(s[0].coro) for s in sets]
    return [s for k, s in enumerate(sets)
            if not any(j != k and precedes(w, where[k]) for j, w in enumerate(where))]


def reconvergence_options(shader: Any, subgroups: bool) -> dict:
    """The scheduler's options for a dispatch of ``shader`` (the rewritten copy): maximal
    reconvergence when it has subgroups; dynamic positions as call sites when its loops count
    iterations."""
    if not subgroups:
        return {}
    if getattr(shader, "__ash_counts__", False):
        return {"reconverge": ready, "sites": instances}
    return {"reconverge": ready}
