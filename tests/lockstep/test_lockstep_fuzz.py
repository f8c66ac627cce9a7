"""Generated kernels: random WGSL programs (integer and float expressions with WGSL's edge
cases, vec3f arithmetic, conversions, built-ins, branches, loops with break and continue,
switch; and with f16 values, locals and an f16 storage array) loaded with load_wgsl leave
the same bits under Lockstep as under InOrder, a NaN's sign and payload aside
(docs/lockstep.md: numpy's own scalar and vector loops pick different operands' NaNs, and
neither IEEE-754 nor WGSL says which)."""

import os
import random

import numpy as np
import pytest

import asyncshader as ash
from asyncshader.front.wgsl import WGSLError

TYPES = ("i32", "u32", "f32")
FLOATS = ("f32", "f16")
#: each type's input local and output array (f16: WGSL's `enable f16;`)
LOCAL = {"i32": "x", "u32": "y", "f32": "z", "f16": "w"}
OUT = {"i32": "out_i", "u32": "out_u", "f32": "out_f", "f16": "out_h"}
LITERAL = {"i32": lambda r: f"{r.choice([0, 1, -1, 2, 7, -9, 31, 2147483647, -2147483647])}i",
           "u32": lambda r: f"{r.choice([0, 1, 2, 3, 5, 31, 32, 33, 4294967295])}u",
           "f32": lambda r: f"{r.choice([0.0, 1.0, -2.5, 0.125, 1e20, -3.75, 1e-3])}f",
           "f16": lambda r: f"{r.choice([0.0, 1.0, -2.5, 0.125, 6e4, -3.75, 1e-3])}h"}


class Program:
    """One random kernel: ``text`` reads ``a: array<i32>``, ``b: array<u32>``, ``c:
    array<f32>`` at the invocation's index and writes a value per statement into ``out_i``,
    ``out_u`` or ``out_f`` by its type; with ``types`` holding f16 also f16 values (from
    ``f16(c[i])``) into ``out_h``."""

    def __init__(self, seed: int, types: tuple = TYPES) -> None:
        self.r = random.Random(seed)
        self.types = types
        self.locals: dict[str, list[str]] = {t: [] for t in types}
        self.lines: list[str] = []
        self.outputs = 0
        self.count = 0

    def expr(self, t: str, depth: int = 0) -> str:
        r = self.r
        if depth > 2 or r.random() < 0.25:
            pool = self.locals[t] + [LOCAL[t]]
            return r.choice(pool) if r.random() < 0.7 else LITERAL[t](r)
        choice = r.random()
        if choice < 0.45:
            ops = ["+", "-", "*", "/", "%"] + (["&", "|", "^"] if t not in FLOATS else [])
            return f"({self.expr(t, depth + 1)} {r.choice(ops)} {self.expr(t, depth + 1)})"
        if choice < 0.55 and t not in FLOATS:
            return f"({self.expr(t, depth + 1)} {r.choice(['<<', '>>'])} " \
                   f"({self.expr('u32', depth + 1)} + y))"
        if choice < 0.7:
            other = r.choice([s for s in self.types if s != t])
            return f"{t}({self.expr(other, depth + 1)})"
        if choice < 0.8:
            return f"select({self.expr(t, depth + 1)}, {self.expr(t, depth + 1)}, " \
                   f"{self.cond(depth + 1)})"
        if t == "f32" and r.random() < 0.3:
            pick = r.choice(["dot", "length", "distance", ".x", ".z"])
            if pick.startswith("."):
                return f"({self.vector(depth + 1)}){pick}"
            if pick == "length":
                return f"length({self.vector(depth + 1)})"
            return f"{pick}({self.vector(depth + 1)}, {self.vector(depth + 1)})"
        fn = r.choice(["min", "max", "abs", "clamp"] + (["floor", "sqrt", "trunc"]
                                                         if t in FLOATS else []))
        if fn in ("abs", "floor", "trunc"):
            return f"{fn}({self.expr(t, depth + 1)})"
        if fn == "sqrt":
            return f"sqrt(abs({self.expr(t, depth + 1)}))"
        if fn == "clamp":
            lo, hi = sorted([LITERAL[t](r), LITERAL[t](r)], key=lambda s: float(s[:-1]))
            return f"clamp({self.expr(t, depth + 1)}, {lo}, {hi})"
        return f"{fn}({self.expr(t, depth + 1)}, {self.expr(t, depth + 1)})"

    def vector(self, depth: int) -> str:
        """A vec3f expression: a constructor, arithmetic, a swizzle, normalize, select."""
        r = self.r
        choice = r.random()
        if depth > 2 or choice < 0.35:
            return f"vec3f({', '.join(self.expr('f32', depth + 1) for _ in range(3))})"
        if choice < 0.6:
            return f"({self.vector(depth + 1)} {r.choice('+-*')} {self.vector(depth + 1)})"
        if choice < 0.7:
            return f"({self.vector(depth + 1)} * {self.expr('f32', depth + 1)})"
        if choice < 0.8:
            return f"({self.vector(depth + 1)}).zxy"
        if choice < 0.9:
            return f"normalize({self.vector(depth + 1)})"
        return f"select({self.vector(depth + 1)}, {self.vector(depth + 1)}, {self.cond(depth)})"

    def cond(self, depth: int = 0) -> str:
        t = self.r.choice(self.types)
        op = self.r.choice(["<", "<=", "==", "!=", ">", ">="])
        return f"({self.expr(t, depth + 1)} {op} {self.expr(t, depth + 1)})"

    def emit(self, line: str, indent: int) -> None:
        self.lines.append("  " * indent + line)

    def store(self, t: str, indent: int) -> None:
        self.emit(f"{OUT[t]}[i * N + {self.outputs}u] = {self.expr(t)};", indent)
        self.outputs += 1

    def statements(self, indent: int, depth: int, in_loop: bool) -> None:
        r = self.r
        for _ in range(r.randint(1, 4)):
            kind = r.random()
            t = r.choice(self.types)
            if kind < 0.3 or depth > 2:
                self.count += 1
                name = f"v{self.count}"
                self.emit(f"var {name}: {t} = {self.expr(t)};", indent)
                self.locals[t].append(name)
                self.store(t, indent)
            elif kind < 0.45 and [v for v in self.locals[t] if v[0] == "v"]:
                target = r.choice([v for v in self.locals[t] if v[0] == "v"])  # (not k: a
                self.emit(f"{target} = {self.expr(t)};", indent)  # loop's counter)
                self.store(t, indent)
            elif kind < 0.6:
                self.emit(f"if {self.cond()} {{", indent)
                self.nested(indent, depth, in_loop)
                self.emit("} else {", indent)
                self.nested(indent, depth, in_loop)
                self.emit("}", indent)
            elif kind < 0.75:
                self.count += 1
                k = f"k{self.count}"
                self.emit(f"for (var {k} = 0u; {k} < (y % 5u); {k}++) {{", indent)
                self.locals["u32"].append(k)
                if r.random() < 0.5:
                    self.emit(f"if {self.cond()} {{ {r.choice(['break', 'continue'])}; }}",
                              indent + 1)
                self.nested(indent, depth, True)
                self.emit("}", indent)
                self.locals["u32"].remove(k)
            elif kind < 0.85:
                self.emit("switch (x & 3i) {", indent)
                for label in ("case 0i, 2i", "case 1i", "default"):
                    self.emit(f"{label}: {{", indent + 1)
                    self.nested(indent + 1, depth, in_loop)
                    self.emit("}", indent + 1)
                self.emit("}", indent)
            else:
                self.store(t, indent)
            if in_loop and r.random() < 0.1:
                self.emit(f"if {self.cond()} {{ continue; }}", indent)

    def nested(self, indent: int, depth: int, in_loop: bool) -> None:
        saved = {t: list(v) for t, v in self.locals.items()}
        self.statements(indent + 1, depth + 1, in_loop)
        self.locals = saved

    def text(self) -> str:
        self.statements(1, 0, False)
        body = "\n".join(self.lines)
        f16 = "f16" in self.types
        return ("enable f16;" if f16 else "") + f"""
const N = {max(self.outputs, 1)}u;
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read> c: array<f32>;
@group(0) @binding(3) var<storage, read_write> out_i: array<i32>;
@group(0) @binding(4) var<storage, read_write> out_u: array<u32>;
@group(0) @binding(5) var<storage, read_write> out_f: array<f32>;
{"@group(0) @binding(6) var<storage, read_write> out_h: array<f16>;" if f16 else ""}

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3u) {{
  let i = gid.x;
  var x = a[i];
  var y = b[i];
  var z = c[i];
  {"var w = f16(c[i]);" if f16 else ""}
{body}
}}
"""


def inputs(n: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    edges_i = np.array([0, 1, -1, 2**31 - 1, -2**31, 7, -7, 33], np.int32)
    a = np.concatenate([edges_i, rng.integers(-2**31, 2**31, n - 8).astype(np.int32)])
    b = np.concatenate([np.array([0, 1, 2, 31, 32, 4294967295, 5, 100], np.uint32),
                        rng.integers(0, 2**32, n - 8, dtype=np.uint32)])
    c = np.concatenate([np.array([0.0, -0.0, 1.5, -2.5, 3e38, np.inf, np.nan, 1e-40],
                                 np.float32),
                        (rng.standard_normal(n - 8) * 1e4).astype(np.float32)])
    return {"a": a, "b": b, "c": c}


@pytest.mark.filterwarnings("ignore::asyncshader.WGSLIndeterminateWarning")  # (normalize of
@pytest.mark.parametrize("seed", range(int(os.environ.get("LOCKSTEP_FUZZ", "40"))))  # zero)
def test_a_generated_kernel_gives_inorder_bits_under_lockstep(seed):
    assert_generated_kernel_gives_inorder_bits(seed, TYPES)


@pytest.mark.filterwarnings("ignore::asyncshader.WGSLIndeterminateWarning")
@pytest.mark.parametrize("seed", range(int(os.environ.get("LOCKSTEP_FUZZ", "40")) // 2))
def test_a_generated_f16_kernel_gives_inorder_bits_under_lockstep(seed):
    assert_generated_kernel_gives_inorder_bits(seed, (*TYPES, "f16"))


def assert_generated_kernel_gives_inorder_bits(seed, types):
    module = None
    for attempt in range(50):  # (the first program WGSL accepts: a const-expression may
        program = Program(seed * 1000 + attempt, types)  # overflow or divide by zero)
        text = program.text()
        try:
            module = ash.load_wgsl(text)
            break
        except WGSLError:
            continue
    assert module is not None, "no generated program was valid WGSL"
    n = 32
    given = inputs(n, seed)
    outs = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        size = n * max(program.outputs, 1)
        out = {f"out_{k}": np.zeros(size, dtype) for k, dtype in
               (("i", np.int32), ("u", np.uint32), ("f", np.float32), ("h", np.float16))
               if f"out_{k}[" in text}
        with np.errstate(all="ignore"):
            ash.run(module["main"], n // 16, schedule=schedule, sanitize="off", **out,
                    **given)
        out = {k: np.where(np.isnan(v), v.dtype.type("nan"), v) if v.dtype.kind == "f"
               else v for k, v in out.items()}  # (a NaN's sign: numpy's scalar and vector
        outs.append(b"".join(v.tobytes() for v in out.values()))  # loops propagate others)
    assert outs[0] == outs[1], text
