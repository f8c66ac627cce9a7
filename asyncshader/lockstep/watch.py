"""Lockstep's compiler with the race detector on: every memory access, atomic and barrier of the
generated code goes through the recorder ``_r`` (:mod:`.races`), with the source line it
comes from (a site: an index into the program's ``sites``).

A loaded WGSL kernel's sites are its WGSL lines; a Python kernel's are the Python lines
``to_wgsl`` translated each WGSL line from (the emitter marks them, ``// @ash N``): a
finding names the same lines under Lockstep as under the coroutine schedules. Lines the
emitter adds (zeroing workgroup memory) have no Python line and are not recorded.
"""

from __future__ import annotations

import re
from typing import Any

from ..front.wgsl import syntax as ast
from ..ir.types import Atomic, Scalar, Vector, concretize, scalar_of
from .compile import Compiler, Program
from .conflicts import ATOMIC_READ, ATOMIC_WRITE, READ
from .exprs import _ATOMICS, _BARRIERS, _VIEW, Ref, value_type
from .fragments import FragmentCompiler

_MARK = re.compile(r"// @ash (\d+)\s*$")
#: the address space each barrier orders (the detector's phases; textureBarrier orders
#: storage textures, which Lockstep does not run)
_ORDERS = {"workgroupBarrier": "workgroup", "storageBarrier": "storage"}


def _snake(name: str) -> str:
    """``atomicCompareExchangeWeak`` -> ``atomic_compare_exchange_weak`` (the operation's
    name as the coroutine detector reports it)."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


class WatchingCompiler(Compiler):
    """:class:`~.compile.Compiler` emitting the detector's calls. ``marks``: the emitter's
    (file, line) per mark of a Python kernel's WGSL, or None for a loaded module."""

    watching = True

    def __init__(self, checker: Any, typed: Any, marks: list | None = None) -> None:
        super().__init__(checker, typed)
        self.marks = marks
        self.sites: list[tuple[str, int]] = []
        self.ops: list[str] = []
        self.site_ids: dict[tuple, int] = {}
        self.written: set[str] = set()  # the memories some line writes ("*": through a pointer)
        self.load_kind = READ
        self.lines_text = self.source.text.split("\n")

    def compile(self, entry: str) -> Program:
        program = super().compile(entry)
        program.sites, program.ops, program.written = self.sites, self.ops, self.written
        return program

    def site(self, span: Any, op: str = "") -> int:
        """The site of the access at ``span`` (-1: a line the user did not write)."""
        line = self.source.line_col(span.start)[0]
        if self.marks is None:
            where: Any = (self.source.name, line)
        else:
            found = _MARK.search(self.lines_text[line - 1])
            if found is None:
                return -1
            where = tuple(self.marks[int(found.group(1))])
        key = (where, op)
        if key not in self.site_ids:
            self.site_ids[key] = len(self.sites)
            self.sites.append(where)
            self.ops.append(op)
        return self.site_ids[key]

    def wrote(self, ref: Ref) -> None:
        self.written.add(ref.mem[2:] if ref.mem.startswith("g_") else "*")

    # --- accesses -------------------------------------------------------------------------

    def load(self, ref: Ref, span: Any) -> str:
        t = ref.type.scalar if isinstance(ref.type, Atomic) else ref.type
        if isinstance(t, (Scalar, Vector)) and scalar_name(t) in _VIEW:
            at = ref.at if isinstance(t, Scalar) else f"_l.vector_at({ref.at}, {t.size})"
            code = (f"_r.load({ref.mem}, {_VIEW[scalar_name(t)]!r}, {at}, {ref.ok}, "
                    f"{self.mask}, {self.site(span)}, {ref.idx}, L, {self.load_kind})")
            return f"({code} != 0)" if scalar_name(t) == "bool" else code
        return super().load(ref, span)

    def store_memory(self, ref: Ref, value: str, span: Any) -> list[str]:
        t = ref.type.scalar if isinstance(ref.type, Atomic) else ref.type
        if isinstance(t, (Scalar, Vector)) and scalar_name(t) in _VIEW:
            self.wrote(ref)
            n = t.size if isinstance(t, Vector) else 0
            kind = ATOMIC_WRITE if isinstance(ref.type, Atomic) and not self.plain_store else 0
            return [f"_r.store({ref.mem}, {_VIEW[scalar_name(t)]!r}, {ref.at}, {ref.ok}, "
                    f"{self.mask}, {value}, {self.site(span, self.store_op)}, {ref.idx}, L, "
                    f"{n}, {kind})"]
        return super().store_memory(ref, value, span)

    store_op = ""
    plain_store = False

    def store(self, target: ast.Expr, value: str) -> None:
        vector = _vector_of(target) if self.marks is None and self.is_memory(target) else None
        if vector is not None:
            # a loaded module's store of one component of a vector in memory loads the vector
            # too, as the coroutine runtime's does (WGSL: a write of a component may access
            # every memory location of the vector, so stores of different components by
            # different invocations race). A Python kernel's vectors may be numpy rows of a
            # bare 2-D buffer, which the coroutine runtime stores into element by element:
            # to_wgsl's WGSL no longer says which, so its stores record the component only
            self.emit(self.load(self.ref(vector), target.span))
        super().store(target, value)

    def atomic(self, e: ast.Call, name: str) -> str:
        ref = self.pointer(e.args[0])
        # (a Python kernel's plain access of an atomic buffer: its pointer in parentheses,
        # marks.py)
        plain = self.marks is not None and isinstance(e.args[0], ast.Paren)
        op = "" if plain else _snake(name)
        if name == "atomicLoad":
            t = ref.type.scalar if isinstance(ref.type, Atomic) else ref.type
            return (f"_r.load({ref.mem}, {_VIEW[t.name]!r}, {ref.at}, {ref.ok}, {self.mask}, "
                    f"{self.site(e.span, op)}, {ref.idx}, L, {ATOMIC_READ if op else READ})")
        if name == "atomicStore" and isinstance(ref.type, Atomic):
            value = self.expr(e.args[1], self.want_for(e.args[1], ref.type.scalar))
            self.store_op, self.plain_store = op, plain
            try:
                (line,) = self.store_memory(ref, value, e.span)
            finally:
                self.store_op, self.plain_store = "", False
            return line
        code = super().atomic(e, name)
        if name in _ATOMICS or name == "atomicCompareExchangeWeak":
            self.wrote(ref)
            code = (f"_r.atomic({code}, {ref.mem}, {ref.at}, {ref.ok}, {self.mask}, "
                    f"{self.site(e.span, op)}, {ref.idx}, L)")
        return code

    def builtin(self, e: ast.Call, result: Any) -> str:
        name = e.callee.name
        if name in _BARRIERS:
            return (f"_r.barrier({_ORDERS.get(name)!r}, {self.mask}, L, WG, "
                    f"{self.site(e.span, _snake(name))})")
        if name == "workgroupUniformLoad":
            ref = self.pointer(e.args[0])
            self.load_kind, kind = -1, self.load_kind
            try:
                value = self.load(ref, e.span)
            finally:
                self.load_kind = kind
            return (f"_r.uniform_load({self.mask}, L, WG, "
                    f"{self.site(e.span, _snake(name))}, lambda: {value})")
        if name == "select" and self.marks is not None and _tripled(e.args[2]):
            return self.conditional(e, result)
        return super().builtin(e, result)

    def conditional(self, e: ast.Call, result: Any) -> str:
        """A Python kernel's ``t if c else f`` (``to_wgsl`` writes ``select(f, t, c)``, which
        evaluates both): each side's accesses are recorded for the lanes that take it, as
        Python evaluates one side only."""
        scalar = scalar_of(concretize(result))
        outer, self.mask = self.mask, "_mm"
        try:
            f, t = (self.expr(a, self.want_for(a, scalar)) for a in e.args[:2])
        finally:
            self.mask = outer
        c = self.expr(e.args[2])
        return f"_r.choose(lambda _mm: {f}, lambda _mm: {t}, {c}, {self.mask})"


class WatchingFragmentCompiler(FragmentCompiler, WatchingCompiler):
    """A fragment entry point with the detector's calls: its helpers' stores and atomics are
    dropped before they are recorded (:class:`~.fragments.FragmentCompiler`), each a helper
    side effect; the recorder leaves out their loads (``Recorder.helpers``)."""

    def __init__(self, checker: Any, typed: Any, marks: list | None = None) -> None:
        super().__init__(checker, typed)
        self.marks = marks

    def store_memory(self, ref: Ref, value: str, span: Any) -> list[str]:
        self.emit(self.helper_effect(ref, span, self.store_op or "store"))
        return super().store_memory(ref, value, span)

    def atomic(self, e: ast.Call, name: str) -> str:
        plain = self.marks is not None and isinstance(e.args[0], ast.Paren)
        if not plain and (name in _ATOMICS or name in ("atomicCompareExchangeWeak",
                                                      "atomicLoad")):
            self.emit(self.helper_effect(self.pointer(e.args[0]), e.span, _snake(name)))
        return super().atomic(e, name)

    def helper_effect(self, ref: Ref, span: Any, op: str) -> str:
        """The call noting the helper lanes' dropped write (or atomic) at ``span``."""
        return (f"_r.helper_effect({ref.mem}, _l.both({self.mask}, H[0]), "
                f"{self.site(span, op)}, L, {op!r})")


def watching_compiler(compiler: type) -> type:
    """The watching compiler of a stage's ``compiler``."""
    return WatchingFragmentCompiler if issubclass(compiler, FragmentCompiler) else \
        WatchingCompiler


def _tripled(e: Any) -> bool:
    """Whether ``e`` is in three parentheses: the condition of a Python kernel's
    conditional expression (``emit/marks.py``)."""
    for _ in range(3):
        if not isinstance(e, ast.Paren):
            return False
        e = e.inner
    return True


def _vector_of(target: ast.Expr) -> ast.Expr | None:
    """The vector a store target is one component of (``buf[i].y``, ``v[k]``), or None."""
    while isinstance(target, ast.Paren):
        target = target.inner
    if isinstance(target, (ast.Member, ast.Index)) and \
            isinstance(value_type(target.base.type), Vector):
        return target.base
    return None


def scalar_name(t: Any) -> str:
    return t.scalar.name if isinstance(t, Vector) else t.name
