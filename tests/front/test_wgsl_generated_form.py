"""The form of the code ``ash.load_wgsl`` generates, where the runtime depends on it: every
await has a source span of its own (maximal reconvergence keys a subgroup operation's dynamic
instance by it, so two awaits on one WGSL line must differ), and constants are names made once
in the module's namespace, not a conversion call at every use (docs/performance.md,
"Generated kernels": a call per use runs a loop at 0.4-0.65x)."""

import ast

import numpy as np

import asyncshader as ash
from asyncshader.wgsl.source import GENERATED

# (subgroup operations in lane-dependent branches, on purpose: WGSL's uniformity analysis
# rejects them unless filtered off, as the first line does)
AWAITS = """\
enable subgroups; diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> hits: atomic<u32>;

fn twice(x: u32) -> u32 { return subgroupAdd(x) + subgroupAdd(x + 1u); }

@compute @workgroup_size(4)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
    var a = 0u;
    if (lane % 2u == 0u) { a = subgroupAdd(1u); } else { a = subgroupAdd(2u) + subgroupMax(lane); }
    for (var k = 0u; k < twice(k) % 3u; k += twice(1u)) { a += twice(k) + twice(a); }
    loop { a += subgroupMin(a); continuing { atomicAdd(&hits, 1u); break if a > 0u; } }
    workgroupBarrier(); workgroupBarrier();
    out[lane] = a;
}
"""


def spans_of_awaits(module):
    spans = []
    for fn in module.namespace.values():
        tree = getattr(fn, GENERATED, None)
        if tree is not None:
            spans += [(n.lineno, n.end_lineno, n.col_offset, n.end_col_offset)
                      for n in ast.walk(tree) if isinstance(n, ast.Await)]
    return spans


def test_every_await_has_a_span_of_its_own():
    spans = spans_of_awaits(ash.load_wgsl(AWAITS))
    assert len(spans) == 13 and len(set(spans)) == len(spans)
    assert sum(1 for s in spans if s[0] == 10) == 3  # three on line 10, at their columns


def test_subgroup_operations_on_one_line_group_the_invocations_of_their_own_branch():
    wgsl = AWAITS.split("    for (")[0] + "    out[lane] = a;\n}\n"
    module = ash.load_wgsl(wgsl)
    for schedule in (ash.InOrder(), ash.Reverse(), ash.Random(3)):
        out = np.zeros(4, np.uint32)
        ash.run(module["main"], 1, schedule=schedule, subgroup_size=4, out=out)
        # even lanes add 1 each (two of them), odd lanes 2 each, plus their max lane (3)
        assert out.tolist() == [2, 4 + 3, 2, 4 + 3], schedule


LOOP = """\
const N = 64u;
const SCALE = 2.5;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var acc = 0.0;
    for (var k = 0u; k < N; k++) {
        acc += f32(k % 4u) * SCALE + f32(N) + f32(k % 4u);
    }
    out[i] = acc * f32(i + 1u);
}
"""


def test_constants_are_names_made_once_not_calls_at_each_use():
    module = ash.load_wgsl(LOOP)
    tree = getattr(module.namespace["main"], GENERATED)
    calls = [ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    # (u32 % a constant is Python's %, the counted loop runs over its values, and the store's
    # statement is there twice: plain, and checked in its except IndexError: codegen_fast)
    assert sorted(calls) == ["__ash_count_u32", "__ash_store"] + ["ash.f32"] * 4
    constants = {k: v for k, v in module.namespace.items() if k.startswith("__k")}
    values = [(type(v).__name__, float(v)) for v in constants.values()]
    assert len(values) == len(set(values))  # 4u once, though used twice
    assert sorted(values) == [("float32", 0.0), ("float32", 2.5), ("float32", 64.0),
                              ("uint32", 0.0), ("uint32", 1.0), ("uint32", 4.0),
                              ("uint32", 64.0)]
    out = np.zeros(4, np.float32)
    ash.run(module["main"], 1, out=out)
    per_lap = sum((k % 4) * 2.5 + 64.0 + k % 4 for k in range(64))
    assert out.tolist() == [per_lap * (i + 1) for i in range(4)]


def test_a_loop_body_is_generated_once_however_deep_the_nesting(monkeypatch):
    """Each WGSL statement is generated once: nested loops with continuing parts cost their
    size, not two to the power of their depth."""
    from asyncshader.front.wgsl.codegen import Generator

    visits = []
    statement = Generator.statement
    monkeypatch.setattr(Generator, "statement",
                        lambda self, s: visits.append(type(s).__name__) or statement(self, s))
    depth = 8
    # (a bound read from memory at each test: not a counted loop, which is a Python for)
    loops = "".join(f"for (var i{d} = 0u; i{d} < out[0]; i{d}++) {{ " for d in range(depth))
    module = ash.load_wgsl(f"""
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {{
    {loops} out[1] += 1u; {"}" * depth}
}}""")
    assert visits.count("Assign") == 1   # (the body's store, once; 2**8 times if doubled)
    out = np.array([2, 0], np.uint32)
    ash.run(module["main"], 1, out=out)
    assert out.tolist() == [2, 2 ** depth]
